// The one reader of JSON request bodies: every route of the admin and
// federation APIs reads its body through it, so that the same fault gets
// the same answer everywhere.
//   - Not JSON: 400 invalid_json, the message naming line and column.
//   - A key twice in one object ({"epsilon": -1, "epsilon": 8}): 400
//     invalid_json. Readers differ on which one counts (a proxy or an audit
//     log that keeps the first would see another request than the daemon).
//   - Not an object where the route takes one: 400 invalid_json.
//   - A key the route does not know: 400 unknown_field, naming it.
//   - Nested deeper than kMaxJsonDepth: 400 invalid_json, before the value
//     is built (issue 66: 100,000 nested arrays crashed the daemon).
#ifndef LDPGRAPH_DAEMON_NET_JSON_BODY_H_
#define LDPGRAPH_DAEMON_NET_JSON_BODY_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "ldpgraph/status.h"
#include "net/http_types.h"

namespace ldpgraph {

// How deep arrays and objects may nest in a request body. The deepest
// body any route takes nests 4 levels (a held graph's edge list in its
// object); the rest is room.
constexpr int kMaxJsonDepth = 32;

// JSON text to a value, refusing syntax errors, duplicate keys and
// nesting deeper than kMaxJsonDepth.
// Errors: kInvalidArgument, "body is not JSON: parse error at line 1,
// column 9: ..." or "body has the key \"epsilon\" twice in one object".
Result<nlohmann::json> ParseStrictJson(const std::string& text);

// A value as a message may quote it: a number, boolean or null as written,
// a string of up to 40 characters, an array or object by its kind and size
// only (never rendered: it may be huge or nest deeply).
std::string JsonShown(const nlohmann::json& value);

// The keys a route's body may have (none listed: any).
using JsonKeys = std::vector<std::string_view>;

// The library's message without its tag ("[json.exception.type_error.302] "):
// what a client is told.
std::string JsonErrorText(const nlohmann::json::exception& e);

// 400 unknown_field for the first key of `object` not in `known` (none
// listed: any key), `context` appended to the message (" for a GAP job").
std::optional<HttpResponse> CheckKnownFields(const nlohmann::json& object, const JsonKeys& known,
                                             const std::string& context = "");

// A body that must be a JSON object with only `known` keys: the object in
// `*out`, or the 400 answer (invalid_json, unknown_field).
// `empty_is_object`: an empty body reads as {}.
std::optional<HttpResponse> ReadJsonBody(const std::string& text, const JsonKeys& known, nlohmann::json* out,
                                         bool empty_is_object = false);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_NET_JSON_BODY_H_
