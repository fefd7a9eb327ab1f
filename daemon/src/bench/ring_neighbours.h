// The benchmarks' true friend lists: user u's `degree` friends found by a
// stride walk around a ring of n users, cheap to make for millions of users
// and the same on every run.
#ifndef LDPGRAPH_DAEMON_BENCH_RING_NEIGHBOURS_H_
#define LDPGRAPH_DAEMON_BENCH_RING_NEIGHBOURS_H_

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ldpgraph {

// Writes u's friends (sorted, distinct, never u) into `out`.
inline void RingNeighbours(std::uint32_t u, std::uint32_t n, std::uint32_t degree, std::vector<std::uint32_t>* out) {
  out->clear();
  for (std::uint32_t k = 1; k <= degree && k < n; ++k) out->push_back((u + k * 7919u % (n - 1) + 1) % n);
  std::sort(out->begin(), out->end());
  out->erase(std::unique(out->begin(), out->end()), out->end());
  out->erase(std::remove(out->begin(), out->end(), u), out->end());
}

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_BENCH_RING_NEIGHBOURS_H_
