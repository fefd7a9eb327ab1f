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
  virtual ~RandomSource() = default;
  RandomSource(const RandomSource&) = delete;
  RandomSource& operator=(const RandomSource&) = delete;

  // A uniformly distributed 64-bit word.
  std::uint64_t NextU64() {
    if (next_ == words_) {
      Refill(buffer_, words_);
      next_ = 0;
    }
    return buffer_[next_++];
  }

  // Fills `out` with `len` uniformly random bytes (report ids, keys).
  void FillBytes(std::uint8_t* out, std::size_t len);

 protected:
  // `buffer` (owned by the subclass, `words` >= 1 long) holds the words
  // handed out between refills. It is not read before the first Refill().
  RandomSource(std::uint64_t* buffer, std::size_t words) : buffer_(buffer), words_(words), next_(words) {}

  // Writes `count` uniformly random words into `out`. Must not fail: a source
  // that cannot produce randomness aborts rather than return weak bits.
  virtual void Refill(std::uint64_t* out, std::size_t count) = 0;

 private:
  std::uint64_t* buffer_;
  std::size_t words_;
  std::size_t next_;
};

// The base of the sources that refill in bulk: a buffer of 4 KiB, one
// getrandom() per ~2 reports. A microcontroller's build sets
// LDPGRAPH_RANDOM_BUFFER_WORDS lower (RAM is scarce, a TRNG read is cheap).
// The stream a source yields does not depend on the buffer's size.
class BufferedRandomSource : public RandomSource {
 protected:
  BufferedRandomSource() : RandomSource(storage_, kBufferWords) {}

 private:
#if defined(LDPGRAPH_RANDOM_BUFFER_WORDS)
  static constexpr std::size_t kBufferWords = LDPGRAPH_RANDOM_BUFFER_WORDS;
#else
  static constexpr std::size_t kBufferWords = 512;
#endif
  std::uint64_t storage_[kBufferWords];
};

// The production source: the operating system's CSPRNG through getrandom(2)
// (falling back to /dev/urandom where the system call is missing).
class OsRandomSource final : public BufferedRandomSource {
 public:
  // Probes the OS source once; returns kUnavailable when it cannot be read.
  static Result<std::unique_ptr<OsRandomSource>> Create();

 protected:
  void Refill(std::uint64_t* out, std::size_t count) override;

 private:
  OsRandomSource() = default;
};

// A device's own generator through a callback: a microcontroller's TRNG
// peripheral, a secure element. `fill` writes `len` uniformly random bytes
// and must not fail (abort rather than return weak bits, as Refill()).
class CallbackRandomSource final : public BufferedRandomSource {
 public:
  using Fill = void (*)(void* context, std::uint8_t* out, std::size_t len);
  CallbackRandomSource(Fill fill, void* context) : fill_(fill), context_(context) {}

 protected:
  void Refill(std::uint64_t* out, std::size_t count) override;

 private:
  Fill fill_;
  void* context_;
};

// ChaCha20 (RFC 8439) as a keystream: a cryptographic generator seeded once,
// for a device whose entropy source is slow or scarce. The words are the
// keystream of (key, nonce = the 64-bit stream number, little-endian, then 4
// zero bytes), block counter from 0, read as little-endian 64-bit words. Key
// it from a TRNG at every boot, or keep a provisioned key and never use one
// stream number twice (a boot counter in flash): one keystream perturbing two
// different inputs would let the server compare them. Aborts after 2^32
// blocks (256 GiB) rather than repeat a block.
class ChaCha20RandomSource final : public BufferedRandomSource {
 public:
  ChaCha20RandomSource(const std::uint8_t (&key)[32], std::uint64_t stream);

 protected:
  void Refill(std::uint64_t* out, std::size_t count) override;

 private:
  std::uint32_t state_[16];        // constants, key, counter, nonce
  std::uint64_t block_[8];         // the current block's keystream words
  std::size_t next_ = 8;           // words of block_ not yet handed out
  bool exhausted_ = false;         // the 32-bit block counter wrapped
};

// A deterministic source (xoshiro256** seeded through splitmix64) for tests,
// benchmarks and reproducible experiments. Not cryptographic: NOT private,
// never use it for a real user's report.
class SeededRandomSource final : public BufferedRandomSource {
 public:
  explicit SeededRandomSource(std::uint64_t seed);

 protected:
  void Refill(std::uint64_t* out, std::size_t count) override;

 private:
  std::uint64_t state_[4];
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_RANDOM_SOURCE_H_
