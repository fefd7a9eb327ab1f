// Random sources. Every mechanism takes one by reference: there is no global RNG.
//
// RandomSource buffers 64-bit words produced by a subclass's Refill(), so the
// per-draw cost is a load, not a virtual call or a system call.
// Thread-safety: a RandomSource is NOT thread-safe; give each thread its own.
#ifndef LDPGRAPH_RANDOM_SOURCE_H_
#define LDPGRAPH_RANDOM_SOURCE_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "ldpgraph/status.h"

namespace ldpgraph {

class RandomSource {
 public:
  RandomSource() = default;
  virtual ~RandomSource() = default;
  RandomSource(const RandomSource&) = delete;
  RandomSource& operator=(const RandomSource&) = delete;

  // A uniformly distributed 64-bit word.
  std::uint64_t NextU64() {
    if (next_ == kBufferWords) {
      Refill(buffer_, kBufferWords);
      next_ = 0;
    }
    return buffer_[next_++];
  }

  // Fills `out` with `len` uniformly random bytes (report ids, keys).
  void FillBytes(std::uint8_t* out, std::size_t len);

 protected:
  // Writes `count` uniformly random words into `out`. Must not fail: a source
  // that cannot produce randomness aborts rather than return weak bits.
  virtual void Refill(std::uint64_t* out, std::size_t count) = 0;

 private:
  static constexpr std::size_t kBufferWords = 512;  // 4 KiB: one getrandom() per ~2 reports
  std::uint64_t buffer_[kBufferWords] = {};
  std::size_t next_ = kBufferWords;
};

// The production source: the operating system's CSPRNG through getrandom(2)
// (falling back to /dev/urandom where the system call is missing).
class OsRandomSource final : public RandomSource {
 public:
  // Probes the OS source once; returns kUnavailable when it cannot be read.
  static Result<std::unique_ptr<OsRandomSource>> Create();

 protected:
  void Refill(std::uint64_t* out, std::size_t count) override;

 private:
  OsRandomSource() = default;
};

// A deterministic source (xoshiro256** seeded through splitmix64) for tests,
// benchmarks and reproducible experiments. Not cryptographic: NOT private,
// never use it for a real user's report.
class SeededRandomSource final : public RandomSource {
 public:
  explicit SeededRandomSource(std::uint64_t seed);

 protected:
  void Refill(std::uint64_t* out, std::size_t count) override;

 private:
  std::uint64_t state_[4];
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_RANDOM_SOURCE_H_
