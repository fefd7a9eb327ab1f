// The evidence two users' reports give about their pair (Blink's Bayesian
// estimation, made near-linear).
//
// For a pair (i, j) the evidence is two bits: whether i reported j, and
// whether j reported i. Each device reports a friend with probability t1
// and anyone else with t0 (LinkReports), independently, so the likelihood
// ratio of "friends" against "not friends" is
//   LR = f(b_ij; t1_i, t0_i) * f(b_ji; t1_j, t0_j),  f(1) = t1/t0, f(0) = (1-t1)/(1-t0),
// and posterior odds = prior odds * LR.
//
// Only pairs that at least one end reported are candidates. A pair neither
// end reported has LR = f(0) f(0) < 1: its posterior is below its prior
// (under 1e-3 on every graph we run), and the n^2 of them would make the
// estimate quadratic. Candidates are visited row by row from the reports
// themselves and never stored, so memory stays that of the reports.
#ifndef LDPGRAPH_DAEMON_LINKLDP_EDGE_POSTERIOR_H_
#define LDPGRAPH_DAEMON_LINKLDP_EDGE_POSTERIOR_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "linkldp/link_reports.h"

namespace ldpgraph {

// Row i's candidates: every j that i reported or that reported i.
// Thread-safety: const access is safe from many threads.
class CandidatePairs {
 public:
  // Holds `reports` (which must outlive it) and their transpose.
  explicit CandidatePairs(const LinkReports& reports);

  std::uint32_t num_users() const { return reported_by_.num_users(); }
  // Calls f(j, bits) for every candidate j >= from of row i, in increasing
  // j; bit 0 of `bits` is set when i reported j, bit 1 when j reported i.
  template <typename F>
  void ForEach(std::uint32_t i, std::uint32_t from, F&& f) const;
  // The two bits of any pair (0 when it is no candidate).
  std::uint8_t Bits(std::uint32_t i, std::uint32_t j) const {
    return static_cast<std::uint8_t>((reported_->Contains(i, j) ? 1 : 0) | (reported_by_.Contains(i, j) ? 2 : 0));
  }

 private:
  const ReportRows* reported_;
  ReportRows reported_by_;  // row i: who reported i
};

// log f of every user's bit, tabled once (a pair then costs two lookups).
class LikelihoodRatios {
 public:
  LikelihoodRatios() = default;
  explicit LikelihoodRatios(const LinkReports& reports);
  // log LR of the pair (i, j) with bits as CandidatePairs gives them.
  double Log(std::uint32_t i, std::uint32_t j, std::uint8_t bits) const {
    return ((bits & 1) ? reported_[i] : silent_[i]) + ((bits & 2) ? reported_[j] : silent_[j]);
  }

 private:
  std::vector<double> reported_;  // log f(1)
  std::vector<double> silent_;    // log f(0)
};

// The same for one pair, straight from the reports.
double LogLikelihoodRatio(const LinkReports& reports, std::uint32_t i, std::uint32_t j, std::uint8_t bits);

// In float: what the graphs keep, and twice as fast as in double.
inline float PosteriorOf(double log_odds) { return 1.0f / (1.0f + std::exp(static_cast<float>(-log_odds))); }

// A zeroed bit row of `words` words for this thread's use; callers clear
// the bits they set before they return.
std::uint64_t* ScratchBitRow(std::size_t words);

template <typename F>
void CandidatePairs::ForEach(std::uint32_t i, std::uint32_t from, F&& f) const {
  const std::uint32_t n = num_users();
  if (from >= n) return;
  const std::uint64_t* out = reported_->bit_row(i);
  const std::uint64_t* in = reported_by_.bit_row(i);
  if (out == nullptr && in == nullptr) {
    // Both lists: merge them.
    const auto a = reported_->ids(i), b = reported_by_.ids(i);
    const std::uint32_t* x = std::lower_bound(a.begin(), a.end(), from);
    const std::uint32_t* y = std::lower_bound(b.begin(), b.end(), from);
    while (x != a.end() || y != b.end()) {
      if (y == b.end() || (x != a.end() && *x < *y)) {
        f(*x++, std::uint8_t{1});
      } else if (x == a.end() || *y < *x) {
        f(*y++, std::uint8_t{2});
      } else {
        f(*x, std::uint8_t{3});
        ++x, ++y;
      }
    }
    return;
  }
  // At least one bit row: the list side, if any, goes into a scratch row.
  const std::size_t words = reported_by_.words_per_row();
  const Span<const std::uint32_t> list = out == nullptr ? reported_->ids(i) : reported_by_.ids(i);
  std::uint64_t* scratch = nullptr;
  if (out == nullptr || in == nullptr) {
    scratch = ScratchBitRow(words);
    for (std::uint32_t j : list) scratch[j / 64] |= std::uint64_t{1} << (j % 64);
    (out == nullptr ? out : in) = scratch;
  }
  for (std::size_t w = from / 64; w < words; ++w) {
    std::uint64_t any = out[w] | in[w];
    if (w == from / 64) any &= ~std::uint64_t{0} << (from % 64);
    ForEachSetBit(any, w * 64, [&](std::size_t j) {
      const std::size_t b = j - w * 64;
      const auto bits = static_cast<std::uint8_t>(((out[w] >> b) & 1) | (((in[w] >> b) & 1) << 1));
      f(static_cast<std::uint32_t>(j), bits);
    });
  }
  if (scratch != nullptr) {
    for (std::uint32_t j : list) scratch[j / 64] = 0;
  }
}

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_LINKLDP_EDGE_POSTERIOR_H_
