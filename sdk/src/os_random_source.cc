// The operating system's CSPRNG: getrandom(2), or /dev/urandom where the
// system call is missing. Not in bare-metal builds (CallbackRandomSource or
// ChaCha20RandomSource there).
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/random.h>
#endif

#include "ldpgraph/random_source.h"

namespace ldpgraph {
namespace {

// Reads exactly `len` bytes of OS randomness; false if the OS cannot give them.
bool ReadOsRandom(void* out, std::size_t len) {
  auto* p = static_cast<unsigned char*>(out);
#if defined(__linux__)
  while (len > 0) {
    ssize_t got = getrandom(p, len, 0);  // blocks only until the pool is seeded at boot
    if (got < 0) {
      if (errno == EINTR) continue;
      if (errno == ENOSYS) break;  // pre-3.17 kernel: fall back to the device
      return false;
    }
    p += got;
    len -= static_cast<std::size_t>(got);
  }
  if (len == 0) return true;
#endif
  int fd = ::open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  while (len > 0) {
    ssize_t got = ::read(fd, p, len);
    if (got <= 0) {
      if (got < 0 && errno == EINTR) continue;
      ::close(fd);
      return false;
    }
    p += got;
    len -= static_cast<std::size_t>(got);
  }
  ::close(fd);
  return true;
}

}  // namespace

Result<std::unique_ptr<OsRandomSource>> OsRandomSource::Create() {
  std::uint64_t probe;
  if (!ReadOsRandom(&probe, sizeof probe)) {
    return Status::Unavailable(std::string("cannot read the OS random source: ") +
                               std::strerror(errno));
  }
  return std::unique_ptr<OsRandomSource>(new OsRandomSource());
}

void OsRandomSource::Refill(std::uint64_t* out, std::size_t count) {
  // Returning predictable bits here would silently void every privacy
  // guarantee, so a source that worked at Create() and then fails aborts.
  if (!ReadOsRandom(out, count * sizeof(std::uint64_t))) {
    std::fprintf(stderr, "ldpgraph: the OS random source failed: %s\n", std::strerror(errno));
    std::abort();
  }
}

}  // namespace ldpgraph
