// GraphConfig <-> JSON: the public form served at GET /v1/graphs/{id}, taken
// by the admin API when a graph is created, and kept in the store.
//
// {"graph_id": 7, "num_users": 1000,
//  "edges": {"mechanism": "dprr", "epsilon": 1, "allocation": "paper", "n_max": 1000,
//            "locallap_resolution": 16},
//  "features": {"dims": 8, "epsilon": 1, "ranges": [[0, 1]]},   (optional)
//  "label": {"classes": 2, "epsilon": 1},                        (optional)
//  "rounds": {...}}              (optional: the daemon's schedule, api/round_schedule.h)
#ifndef LDPGRAPH_DAEMON_REQUESTS_GRAPH_CONFIG_JSON_H_
#define LDPGRAPH_DAEMON_REQUESTS_GRAPH_CONFIG_JSON_H_

#include <string>

#include <nlohmann/json.hpp>

#include "ldpgraph/graph_config.h"

namespace ldpgraph {

std::string GraphConfigToJson(const GraphConfig& config);

// Errors: kInvalidArgument naming the field (a missing required field, a
// wrong type, an unknown field, or what GraphConfig::Validate() refuses).
Result<GraphConfig> GraphConfigFromJson(const std::string& text);
// The same from JSON already read (a request body, by ReadJsonBody).
Result<GraphConfig> GraphConfigFromJsonValue(const nlohmann::json& config);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_REQUESTS_GRAPH_CONFIG_JSON_H_
