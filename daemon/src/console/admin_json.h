// What the console shows comes from the admin API itself: each page asks
// HandleAdmin for the same JSON `ldpgraph daemon` gets, so the two never
// disagree.
#ifndef LDPGRAPH_DAEMON_CONSOLE_ADMIN_JSON_H_
#define LDPGRAPH_DAEMON_CONSOLE_ADMIN_JSON_H_

#include <string>

#include <nlohmann/json.hpp>

#include "api/service_context.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

// GET `path` (/v1/admin/...) as the admin. Errors: kUnavailable with the
// API's own message when it does not answer 200.
Result<nlohmann::json> AdminJson(ServiceContext& ctx, const std::string& path);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_CONSOLE_ADMIN_JSON_H_
