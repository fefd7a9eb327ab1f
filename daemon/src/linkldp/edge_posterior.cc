#include "linkldp/edge_posterior.h"

#include <cmath>

namespace ldpgraph {
namespace {

// log f(b; t1, t0): the bit's likelihood ratio, friends against not.
double LogBitRatio(bool bit, double t1, double t0) {
  if (bit) return t0 > 0 ? std::log(t1 / t0) : 50.0;         // a non-private user's bit is the truth
  return t1 < 1 ? std::log1p(-t1) - std::log1p(-t0) : -50.0;  // likewise its absence
}

}  // namespace

double LogLikelihoodRatio(const LinkReports& r, std::uint32_t i, std::uint32_t j, std::uint8_t bits) {
  return LogBitRatio(bits & 1, r.keep_edge[i], r.keep_non_edge[i]) +
         LogBitRatio(bits & 2, r.keep_edge[j], r.keep_non_edge[j]);
}

LikelihoodRatios::LikelihoodRatios(const LinkReports& r) : reported_(r.num_users()), silent_(r.num_users()) {
  for (std::uint32_t i = 0; i < r.num_users(); ++i) {
    reported_[i] = LogBitRatio(true, r.keep_edge[i], r.keep_non_edge[i]);
    silent_[i] = LogBitRatio(false, r.keep_edge[i], r.keep_non_edge[i]);
  }
}

CandidatePairs::CandidatePairs(const LinkReports& reports)
    : reported_(&reports.rows), reported_by_(reports.rows.Transposed()) {}

std::uint64_t* ScratchBitRow(std::size_t words) {
  thread_local std::vector<std::uint64_t> scratch;
  if (scratch.size() < words) scratch.assign(words, 0);
  return scratch.data();
}

}  // namespace ldpgraph
