// A held graph's JSON form, the body of PUT /v1/admin/held-graphs/{id}:
//   {"num_nodes": n, "classes": c, "feature_dims": d, "edges": [[u, v], ...],
//    "features": [[node, feature, value], ...], "labels": [per node, -1: none],
//    and for a federation's share "keys": [per node], "border": [[node, "party", key], ...]}
// Read by the daemon's API; written by the CLI, the loopback federation and
// the tests.
#ifndef LDPGRAPH_DAEMON_GAP_HELD_GRAPH_JSON_H_
#define LDPGRAPH_DAEMON_GAP_HELD_GRAPH_JSON_H_

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "gap/held_graph.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

// The keys the form may have.
inline constexpr const char* kHeldGraphJsonKeys[] = {"num_nodes", "classes", "feature_dims", "edges",
                                                     "features",  "labels",  "keys",         "border"};

// `body` as the parts of held graph `id`. Errors: kInvalidArgument naming
// the first bad item (a missing or mistyped field, a malformed entry);
// what the parts mean together is MakeHeldGraph's to check.
Result<HeldGraphParts> HeldGraphPartsFromJson(const nlohmann::json& body, std::uint64_t id);

// The form of `parts`.
std::string HeldGraphUploadJson(const HeldGraphParts& parts);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GAP_HELD_GRAPH_JSON_H_
