// The q-quantile of a benchmark's samples (nearest rank, q in [0, 1]); 0 for
// none. Reorders `v`.
#ifndef LDPGRAPH_DAEMON_BENCH_PERCENTILE_H_
#define LDPGRAPH_DAEMON_BENCH_PERCENTILE_H_

#include <algorithm>
#include <cstddef>
#include <vector>

namespace ldpgraph {

inline double Percentile(std::vector<double>& v, double q) {
  if (v.empty()) return 0;
  const std::size_t k = std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_BENCH_PERCENTILE_H_
