// The seed of one experiment run, from the text of its setting and split:
// stable across runs, machines and the order the runs are scheduled in.
#ifndef LDPGRAPH_DAEMON_EXPERIMENTS_SETTING_SEED_H_
#define LDPGRAPH_DAEMON_EXPERIMENTS_SETTING_SEED_H_

#include <cstdint>
#include <string>

namespace ldpgraph {

// FNV-1a, 64 bits.
inline std::uint64_t SettingSeed(const std::string& setting) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : setting) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_EXPERIMENTS_SETTING_SEED_H_
