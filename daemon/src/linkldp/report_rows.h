// Every user's reported ids, each row held in whichever form is smaller:
// a sorted id list (4 bytes an id) or a bit row (n / 8 bytes).
//
// Why two forms: DPRR keeps a report near its owner's degree, but plain RR
// (and Blink's RR with degree) reports every stranger with probability
// 1 / (1 + e^eps), 27% of all users at epsilon 1. On 22,470 users that is
// 6,000 ids a user, 584 MB as ids against 63 MB as bits; on 10^6 users,
// a few dozen ids against 125 KB of bits. A row is a bit row exactly when
// it holds at least n / 32 ids.
// Thread-safety: a value; const access is safe from many threads.
#ifndef LDPGRAPH_DAEMON_LINKLDP_REPORT_ROWS_H_
#define LDPGRAPH_DAEMON_LINKLDP_REPORT_ROWS_H_

#include <cstdint>
#include <vector>

#include "graph/csr_graph.h"
#include "ldpgraph/span.h"

namespace ldpgraph {

// Calls f(base + b) for every set bit b of `word`, in increasing order. A
// byte at a time through a table: __builtin_ctzll (and the de Bruijn idiom,
// which GCC recognises) compile to tzcnt, which the portable build may not
// use (tests/integration/portable_binary_check.sh).
template <typename F>
inline void ForEachSetBit(std::uint64_t word, std::size_t base, F&& f) {
  struct LowestBits {
    unsigned char index[256] = {};
    constexpr LowestBits() {
      for (int v = 1; v < 256; ++v) {
        int b = 0;
        while (((v >> b) & 1) == 0) ++b;
        index[v] = static_cast<unsigned char>(b);
      }
    }
  };
  static constexpr LowestBits kLowest{};
  for (std::size_t byte = 0; word != 0; ++byte, word >>= 8) {
    for (unsigned v = static_cast<unsigned>(word & 0xff); v != 0; v &= v - 1) f(base + byte * 8 + kLowest.index[v]);
  }
}

class ReportRows {
 public:
  ReportRows() = default;
  // From one sorted, duplicate-free row per user (ids < rows.size()).
  static ReportRows FromRows(const std::vector<std::vector<std::uint32_t>>& rows);

  std::uint32_t num_users() const { return n_; }
  std::uint64_t num_entries() const { return entries_; }
  std::uint64_t count(std::uint32_t i) const { return counts_[i]; }
  // The 64-bit words of row i when it is a bit row (bit j of the row: i
  // reported j), else null.
  const std::uint64_t* bit_row(std::uint32_t i) const {
    return slot_[i] == kList ? nullptr : bits_.data() + static_cast<std::size_t>(slot_[i]) * words_;
  }
  // Row i's ids when it is a list row (empty for a bit row).
  Span<const std::uint32_t> ids(std::uint32_t i) const { return lists_.neighbours(i); }
  std::size_t words_per_row() const { return words_; }

  bool Contains(std::uint32_t i, std::uint32_t j) const;
  // Calls f(j) for every id of row i, in increasing order.
  template <typename F>
  void ForEach(std::uint32_t i, F&& f) const;
  // Row j of the result lists every i whose row lists j.
  ReportRows Transposed() const;
  // Every row as ids (for uses that want the raw report, such as training
  // on it as it is).
  CsrGraph ToCsr() const;
  // Bytes held.
  std::size_t bytes() const;

 private:
  friend class ReportRowsBuilder;
  static constexpr std::uint32_t kList = 0xffffffffu;
  // f(j) for the ids of row i in [lo, hi), lo a multiple of 64.
  template <typename F>
  void ForEachIn(std::uint32_t i, std::uint32_t lo, std::uint32_t hi, F&& f) const;

  std::uint32_t n_ = 0;
  std::uint64_t entries_ = 0;
  std::size_t words_ = 0;              // per bit row
  std::vector<std::uint64_t> counts_;  // ids per row
  std::vector<std::uint32_t> slot_;    // bit row index, or kList
  std::vector<std::uint64_t> bits_;    // bit rows, words_ each
  CsrGraph lists_;                     // list rows; bit rows empty here
};

// Takes rows one at a time, each already in its final form, so that a
// dense report never exists as ids for longer than its own row.
class ReportRowsBuilder {
 public:
  explicit ReportRowsBuilder(std::uint32_t num_users);
  // Row i (sorted, duplicate-free, ids < n); replaces an earlier one.
  void SetRow(std::uint32_t i, Span<const std::uint32_t> ids);
  ReportRows Finish();

  static bool IsBitRow(std::uint64_t count, std::uint32_t n) { return count > 0 && count * 32 >= n; }

 private:
  std::uint32_t n_;
  std::vector<std::vector<std::uint32_t>> lists_;
  std::vector<std::vector<std::uint64_t>> bits_;
  std::vector<std::uint64_t> counts_;
};

template <typename F>
void ReportRows::ForEach(std::uint32_t i, F&& f) const {
  if (const std::uint64_t* row = bit_row(i)) {
    for (std::size_t w = 0; w < words_; ++w) {
      ForEachSetBit(row[w], w * 64, [&](std::size_t j) { f(static_cast<std::uint32_t>(j)); });
    }
    return;
  }
  for (std::uint32_t j : ids(i)) f(j);
}

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_LINKLDP_REPORT_ROWS_H_
