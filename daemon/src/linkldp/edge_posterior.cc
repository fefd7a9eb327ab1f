#include "linkldp/edge_posterior.h"

#include <algorithm>
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

CandidatePairs CollectCandidates(const LinkReports& reports) {
  const CsrGraph& rows = reports.rows;
  const CsrGraph cols = rows.Transposed();  // row i: the users who reported i
  const std::uint32_t n = rows.num_nodes();
  CandidatePairs c;
  // Row i: the sorted union of the ids i reported and the ids that reported i.
  std::vector<std::uint64_t> offsets(static_cast<std::size_t>(n) + 1, 0);
  std::vector<std::uint32_t> targets;
  targets.reserve(2 * rows.num_entries());
  c.bits.reserve(2 * rows.num_entries());
  for (std::uint32_t i = 0; i < n; ++i) {
    auto a = rows.neighbours(i), b = cols.neighbours(i);
    std::size_t x = 0, y = 0;
    while (x < a.size() || y < b.size()) {
      if (y == b.size() || (x < a.size() && a[x] < b[y])) {
        targets.push_back(a[x++]);
        c.bits.push_back(1);
      } else if (x == a.size() || b[y] < a[x]) {
        targets.push_back(b[y++]);
        c.bits.push_back(2);
      } else {
        targets.push_back(a[x]);
        c.bits.push_back(3);
        ++x, ++y;
      }
    }
    offsets[i + 1] = targets.size();
  }
  // Mirrors: walking rows in order, the entries (j, i) of row j are met in
  // increasing i, so a cursor per row finds each one in O(1).
  c.mirror.resize(offsets[n]);
  std::vector<std::uint64_t> cursor(offsets.begin(), offsets.end() - 1);
  for (std::uint32_t i = 0; i < n; ++i) {
    for (std::uint64_t e = offsets[i]; e < offsets[i + 1]; ++e) {
      c.mirror[e] = cursor[targets[e]]++;
    }
  }
  c.pairs = CsrGraph::FromCsr(std::move(offsets), std::move(targets));
  return c;
}

}  // namespace ldpgraph
