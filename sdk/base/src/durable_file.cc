#include "base/durable_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ldpgraph {
namespace base {
namespace {

Status Errno(const std::string& what, const std::string& path) {
  return Status::Unavailable(what + " " + path + ": " + std::strerror(errno));
}

// Closes the descriptor on every path out.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  int release() {
    int f = fd_;
    fd_ = -1;
    return f;
  }

 private:
  int fd_;
};

}  // namespace

Status ReadWholeFile(const std::string& path, std::vector<std::uint8_t>* out, bool* exists) {
  out->clear();
  *exists = false;
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) {
    if (errno == ENOENT) return Status::Ok();
    return Errno("cannot open", path);
  }
  *exists = true;
  std::uint8_t buf[65536];
  for (;;) {
    ssize_t got = ::read(fd.get(), buf, sizeof buf);
    if (got < 0) {
      if (errno == EINTR) continue;
      return Errno("cannot read", path);
    }
    if (got == 0) break;
    out->insert(out->end(), buf, buf + got);
  }
  return Status::Ok();
}

Status WriteFileDurably(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  const std::string tmp = path + ".tmp";
  Fd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
  if (fd.get() < 0) return Errno("cannot create", tmp);
  // A failed write (a full disk) leaves no temporary file behind (fd
  // closes it as it goes out of scope).
  auto fail = [&](const char* what, const std::string& name) {
    Status s = Errno(what, name);
    ::unlink(tmp.c_str());
    return s;
  };
  std::size_t done = 0;
  while (done < bytes.size()) {
    ssize_t put = ::write(fd.get(), bytes.data() + done, bytes.size() - done);
    if (put < 0) {
      if (errno == EINTR) continue;
      return fail("cannot write", tmp);
    }
    done += static_cast<std::size_t>(put);
  }
  if (::fsync(fd.get()) != 0) return fail("cannot fsync", tmp);
  if (::close(fd.release()) != 0) return fail("cannot close", tmp);
  if (::rename(tmp.c_str(), path.c_str()) != 0) return fail("cannot rename onto", path);
  // Make the rename itself durable.
  const std::size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  Fd dfd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dfd.get() >= 0) (void)::fsync(dfd.get());
  return Status::Ok();
}

}  // namespace base
}  // namespace ldpgraph
