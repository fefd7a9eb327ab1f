// What a test daemon logged: its JSON lines in order, or those of one event.
#ifndef LDPGRAPH_TESTS_SUPPORT_DAEMON_LOG_H_
#define LDPGRAPH_TESTS_SUPPORT_DAEMON_LOG_H_

#include <chrono>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/admin_daemon.h"

namespace ldpgraph {
namespace testing {

// Every JSON object the daemon wrote, in the order written (other lines skipped).
inline std::vector<nlohmann::json> LogLines(const AdminDaemon& d) {
  std::vector<nlohmann::json> out;
  std::istringstream in(d.process.log());
  for (std::string line; std::getline(in, line);) {
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_object()) out.push_back(std::move(j));
  }
  return out;
}

// The lines whose event is `event`.
inline std::vector<nlohmann::json> Events(const AdminDaemon& d, const std::string& event) {
  std::vector<nlohmann::json> out;
  for (nlohmann::json& j : LogLines(d)) {
    if (j.value("event", "") == event) out.push_back(std::move(j));
  }
  return out;
}

// The lines of `event` once there are at least `count` of them, or those
// there are after `patience`: what a daemon logs of a client it saw fail (a
// handshake cut short) may be written after the client has given up.
inline std::vector<nlohmann::json> AwaitEvents(const AdminDaemon& d, const std::string& event, std::size_t count,
                                               std::chrono::milliseconds patience = std::chrono::seconds(10)) {
  const auto deadline = std::chrono::steady_clock::now() + patience;
  for (;;) {
    std::vector<nlohmann::json> lines = Events(d, event);
    if (lines.size() >= count || std::chrono::steady_clock::now() >= deadline) return lines;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace testing
}  // namespace ldpgraph

#endif  // LDPGRAPH_TESTS_SUPPORT_DAEMON_LOG_H_
