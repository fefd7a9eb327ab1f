// What a test daemon logged: its JSON lines in order, or those of one event.
#ifndef LDPGRAPH_TESTS_SUPPORT_DAEMON_LOG_H_
#define LDPGRAPH_TESTS_SUPPORT_DAEMON_LOG_H_

#include <sstream>
#include <string>
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

}  // namespace testing
}  // namespace ldpgraph

#endif  // LDPGRAPH_TESTS_SUPPORT_DAEMON_LOG_H_
