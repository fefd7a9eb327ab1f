#include "ldpgraph/random_source.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/random.h>
#endif

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

std::uint64_t SplitMix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

inline std::uint64_t Rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

void RandomSource::FillBytes(std::uint8_t* out, std::size_t len) {
  while (len > 0) {
    std::uint64_t w = NextU64();
    std::size_t n = len < 8 ? len : 8;
    std::memcpy(out, &w, n);
    out += n;
    len -= n;
  }
}

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

SeededRandomSource::SeededRandomSource(std::uint64_t seed) {
  for (auto& s : state_) s = SplitMix64(seed);
}

void SeededRandomSource::Refill(std::uint64_t* out, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {  // xoshiro256** (Blackman and Vigna)
    out[i] = Rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = Rotl(state_[3], 45);
  }
}

}  // namespace ldpgraph
