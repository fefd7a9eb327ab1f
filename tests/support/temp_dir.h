// TempDir: a fresh directory under /tmp, removed with its contents at scope exit.
#ifndef LDPGRAPH_TESTS_SUPPORT_TEMP_DIR_H_
#define LDPGRAPH_TESTS_SUPPORT_TEMP_DIR_H_

#include <cstdlib>
#include <fstream>
#include <string>

namespace ldpgraph {
namespace testing {

class TempDir {
 public:
  TempDir() {
    char pattern[] = "/tmp/ldpgraph_test_XXXXXX";
    path_ = ::mkdtemp(pattern);
  }
  ~TempDir() { std::system(("rm -rf '" + path_ + "'").c_str()); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  std::string Write(const std::string& name, const std::string& content) const {
    const std::string p = path_ + "/" + name;
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }

 private:
  std::string path_;
};

}  // namespace testing
}  // namespace ldpgraph

#endif  // LDPGRAPH_TESTS_SUPPORT_TEMP_DIR_H_
