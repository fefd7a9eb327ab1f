// Rounds on the daemon (docs/rounds.md): the admin's resource of a graph
// collected in rounds, and the one way a round closes, by the admin or by
// the graph's schedule (round_clock.h).
//
//   POST /v1/admin/graphs/{id}/rounds   {"close": r} (optional: the open round)
//        closes the open round and opens the next: 201 with the round state
//        and the retraining job queued on the closed round, if the schedule
//        asks for one. 409 round_not_open when r is not the open round
//        (another admin, daemon or the schedule closed it first).
//   GET  /v1/admin/graphs/{id}/rounds   the round state.
#ifndef LDPGRAPH_DAEMON_API_ROUND_API_H_
#define LDPGRAPH_DAEMON_API_ROUND_API_H_

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "api/service_context.h"
#include "net/http_types.h"

namespace ldpgraph {

// The answer for `path` when it is a rounds resource; nullopt otherwise.
std::optional<HttpResponse> HandleRounds(ServiceContext& ctx, const HttpRequest& request, const std::string& path);

// Closes round `open` of `graph` and opens the next (GraphStore::OpenRound),
// then queues the schedule's retraining on the closed round; `by` ("admin",
// "schedule") is logged. The job's id, or its refusal, is in
// `retrain` ({"job_id": ...} or {"error": ...}; null without one).
// Errors: OpenRound's.
Result<RoundState> CloseRound(ServiceContext& ctx, const RegisteredGraph& graph, std::uint32_t open, const char* by,
                              nlohmann::json* retrain);

// A graph's round state as the API shows it: {"open": r, "opened_unix",
// "oldest_kept", "history", and "closes_unix" for a timed schedule}.
nlohmann::json RoundStateJson(const RegisteredGraph& graph, const RoundState& state);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_API_ROUND_API_H_
