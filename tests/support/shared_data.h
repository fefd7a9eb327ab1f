// Where the shared datasets are: LDPGRAPH_SHARED_DATA in the environment, or
// ../shared/data beside the source tree (set at configure time).
#ifndef LDPGRAPH_TESTS_SUPPORT_SHARED_DATA_H_
#define LDPGRAPH_TESTS_SUPPORT_SHARED_DATA_H_

#include <cstdlib>
#include <string>

namespace ldpgraph {
namespace testing {

inline std::string SharedDataDir() {
  if (const char* env = std::getenv("LDPGRAPH_SHARED_DATA")) return env;
  return LDPGRAPH_DEFAULT_SHARED_DATA;
}

}  // namespace testing
}  // namespace ldpgraph

#endif  // LDPGRAPH_TESTS_SUPPORT_SHARED_DATA_H_
