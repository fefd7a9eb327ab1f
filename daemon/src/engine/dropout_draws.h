// Dropout's masks as a function of where an element is, not of when it is
// drawn. A dropout call takes one word of the tape's seeded stream as its
// key; element (r, c) of its rows x cols matrix is dropped when its 16-bit
// draw, chunk e % 4 of Mix(key, e / 4) with e = id(r) cols + c, falls below
// the threshold. id(r) is the user row r stands for (Tape::SetRowIds), so a
// user keeps her masks however the users are numbered (graph/node_order.h),
// and any row range can be drawn on any thread: a seed gives the same masks
// on any number of threads, as the one serial stream before did, at the
// speed of the rest of the pass (10^6 x 16: 19 ms, 0.7 of its bound with the
// stream's rate in it, before). Mix is SplitMix64's output function over
// the key plus the word index times its odd constant: training noise, not a
// privacy mechanism.
#ifndef LDPGRAPH_DAEMON_ENGINE_DROPOUT_DRAWS_H_
#define LDPGRAPH_DAEMON_ENGINE_DROPOUT_DRAWS_H_

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace ldpgraph {

class DropoutDraws {
 public:
  static constexpr std::int64_t kMaxRowWords = 64;  // mixed at a time by Run

  // Dropout with probability p over rows of `cols` elements; `row_ids` (one
  // per row, or null: row r is r) must outlive this. p is quantised down to
  // a multiple of 2^-16 and survivors are scaled by the quantised keep
  // probability, so E[output] = input exactly.
  DropoutDraws(std::uint64_t key, float p, std::int64_t cols, const std::uint32_t* row_ids)
      : key_(key),
        threshold_(static_cast<std::uint16_t>(std::min(p * 65536.0f, 65535.0f))),
        keep_scale_(65536.0f / static_cast<float>(65536u - threshold_)),
        cols_(cols),
        row_ids_(row_ids) {}

  float keep_scale() const { return keep_scale_; }

  bool Kept(std::int64_t row, std::int64_t col) const {
    const std::uint64_t e = Element(row, col);
    return Draw(Mix(e >> 2), e) >= threshold_;
  }
  // Row r's multipliers (0 or keep_scale()) into out[0, cols).
  void Row(std::int64_t row, float* out) const { Run(row, cols_, out); }
  // The same for the row's first `count` elements (count <= cols): also a
  // sparse row's stored entries, whose draws are taken in storage order from
  // a row as wide as any (cols 2^32). The row's draws are its elements'
  // 16-bit chunks, which lie in order in the words' memory (little-endian):
  // a block of words is mixed into a buffer, then read as chunks.
  void Run(std::int64_t row, std::int64_t count, float* out) const {
    static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "16-bit chunks are read in memory order");
    const std::uint64_t first = Element(row, 0);
    std::uint64_t words[kMaxRowWords];
    std::uint16_t draws[4 * kMaxRowWords];
    for (std::int64_t begin = 0; begin < count;) {
      // Only the first block starts inside a word.
      const std::uint64_t at = first + static_cast<std::uint64_t>(begin), offset = at & 3;
      const std::int64_t n = std::min<std::int64_t>(count - begin, 4 * kMaxRowWords - static_cast<std::int64_t>(offset));
      const std::int64_t mixed = (static_cast<std::int64_t>(offset) + n + 3) / 4;
      for (std::int64_t w = 0; w < mixed; ++w) words[w] = Mix((at >> 2) + static_cast<std::uint64_t>(w));
      std::memcpy(draws, words, static_cast<std::size_t>(mixed) * sizeof(std::uint64_t));
      const std::uint16_t* d = draws + offset;
      // A product, not a select: GCC made the select a branch, taken at
      // random half the time (3 ns an element).
      for (std::int64_t c = 0; c < n; ++c) out[begin + c] = static_cast<float>(d[c] >= threshold_) * keep_scale_;
      begin += n;
    }
  }

 private:
  std::uint64_t Element(std::int64_t row, std::int64_t col) const {
    const std::uint64_t id = row_ids_ != nullptr ? row_ids_[row] : static_cast<std::uint64_t>(row);
    return id * static_cast<std::uint64_t>(cols_) + static_cast<std::uint64_t>(col);
  }
  std::uint64_t Mix(std::uint64_t word) const {
    std::uint64_t z = key_ + (word + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  static std::uint16_t Draw(std::uint64_t word, std::uint64_t e) {
    return static_cast<std::uint16_t>(word >> (16 * (e & 3)));
  }

  std::uint64_t key_;
  std::uint16_t threshold_;
  float keep_scale_;
  std::int64_t cols_;
  const std::uint32_t* row_ids_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_DROPOUT_DRAWS_H_
