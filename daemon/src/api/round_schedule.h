// RoundSchedule: how a graph collected in rounds (docs/rounds.md) opens
// them, part of its policy as the admin created it:
//
//   "rounds": {"every_hours": 168,   (optional: opened by the admin when absent)
//              "history": 4,         (closed rounds kept for retraining; default 4)
//              "retrain": {"model": "gcn", "epochs": 200}}   (optional)
//
// "retrain" is a node job's options (POST /v1/admin/jobs, "task": "node",
// without "graph" or "round"): when a round closes the daemon queues that
// job on the round that closed, so each round gives a new model version.
#ifndef LDPGRAPH_DAEMON_API_ROUND_SCHEDULE_H_
#define LDPGRAPH_DAEMON_API_ROUND_SCHEDULE_H_

#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include "ldpgraph/graph_config.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

struct RoundSchedule {
  bool enabled = false;     // false: the graph is collected once (round 0)
  double every_hours = 0;   // 0: rounds are opened by the admin
  std::uint32_t history = 4;  // closed rounds kept for retraining, besides the open one
  nlohmann::json retrain;   // null: no job when a round closes
};

// Bounds of a schedule: a round lasts at least a second; a store keeps at
// most this many rounds of each user's reports.
constexpr double kMinRoundHours = 1.0 / 3600;
constexpr std::uint32_t kMaxRoundHistory = 1000;

// The keys "retrain" may hold (a node job's options).
const std::vector<std::string_view>& RetrainKeys();

// The "rounds" member of a graph's policy (absent or null: collected once),
// for the graph `config`. Errors: kInvalidArgument naming the field (an
// unknown key, a value out of range, "retrain" on a graph without features
// and labels to train on, or on an embedding graph).
Result<RoundSchedule> ParseRoundSchedule(const nlohmann::json* rounds, const GraphConfig& config);

// The "rounds" member as the graph's policy shows it.
nlohmann::json RoundScheduleJson(const RoundSchedule& schedule);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_API_ROUND_SCHEDULE_H_
