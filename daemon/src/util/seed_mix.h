// Independent random streams from one seed: stream `index` (a graph, a node)
// gets MixSeed(seed, index), a SplitMix64 finaliser of the pair, so one
// stream's draws never depend on how many another used.
#ifndef LDPGRAPH_DAEMON_UTIL_SEED_MIX_H_
#define LDPGRAPH_DAEMON_UTIL_SEED_MIX_H_

#include <cstdint>

namespace ldpgraph {

inline std::uint64_t MixSeed(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (index + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_UTIL_SEED_MIX_H_
