// Wall-clock time as the store and the console keep it: whole seconds
// since the Unix epoch.
#ifndef LDPGRAPH_DAEMON_UTIL_UNIX_CLOCK_H_
#define LDPGRAPH_DAEMON_UTIL_UNIX_CLOCK_H_

#include <chrono>
#include <cstdint>

namespace ldpgraph {

inline std::int64_t UnixSeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_UTIL_UNIX_CLOCK_H_
