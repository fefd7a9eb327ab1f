// Little-endian, LEB128 varint and zigzag primitives for the wire format and
// the ledger file. ByteReader never reads past its end and rejects
// non-minimal varints, so every value has exactly one encoding.
#ifndef LDPGRAPH_BASE_BYTE_IO_H_
#define LDPGRAPH_BASE_BYTE_IO_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace ldpgraph {
namespace base {

inline void PutU8(std::vector<std::uint8_t>* out, std::uint8_t v) { out->push_back(v); }

inline void PutVarint(std::vector<std::uint8_t>* out, std::uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<std::uint8_t>(v));
}

// The bytes PutVarint writes for `v`.
inline std::size_t VarintSize(std::uint64_t v) {
  std::size_t bytes = 1;
  for (; v >= 0x80; v >>= 7) ++bytes;
  return bytes;
}

inline std::uint64_t ZigZag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
inline std::int64_t UnZigZag(std::uint64_t v) {
  return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

inline void PutFixed64(std::vector<std::uint8_t>* out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
inline void PutFixed32(std::vector<std::uint8_t>* out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

inline void PutDouble(std::vector<std::uint8_t>* out, double v) {
  std::uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  PutFixed64(out, bits);
}

class ByteReader {
 public:
  ByteReader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  std::size_t offset() const { return pos_; }
  std::size_t remaining() const { return size_ - pos_; }

  bool ReadU8(std::uint8_t* v) {
    if (pos_ >= size_) return false;
    *v = data_[pos_++];
    return true;
  }
  bool ReadBytes(std::uint8_t* out, std::size_t n) {
    if (remaining() < n) return false;
    if (n != 0) std::memcpy(out, data_ + pos_, n);  // out may be null when n == 0
    pos_ += n;
    return true;
  }
  bool ReadFixed64(std::uint64_t* v) {
    if (remaining() < 8) return false;
    std::uint64_t r = 0;
    for (int i = 0; i < 8; ++i) r |= static_cast<std::uint64_t>(data_[pos_ + i]) << (8 * i);
    pos_ += 8;
    *v = r;
    return true;
  }
  bool ReadFixed32(std::uint32_t* v) {
    if (remaining() < 4) return false;
    std::uint32_t r = 0;
    for (int i = 0; i < 4; ++i) r |= static_cast<std::uint32_t>(data_[pos_ + i]) << (8 * i);
    pos_ += 4;
    *v = r;
    return true;
  }
  bool ReadDouble(double* v) {
    std::uint64_t bits;
    if (!ReadFixed64(&bits)) return false;
    std::memcpy(v, &bits, sizeof bits);
    return true;
  }
  // A minimal LEB128 varint of at most 64 bits.
  bool Skip(std::size_t n) {
    if (remaining() < n) return false;
    pos_ += n;
    return true;
  }
  bool ReadVarint(std::uint64_t* v) {
    std::uint64_t r = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      std::uint8_t b;
      if (!ReadU8(&b)) return false;
      if (shift == 63 && b > 1) return false;  // would overflow 64 bits
      r |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        if (b == 0 && shift > 0) return false;  // non-minimal: a trailing zero group
        *v = r;
        return true;
      }
    }
    return false;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

}  // namespace base
}  // namespace ldpgraph

#endif  // LDPGRAPH_BASE_BYTE_IO_H_
