#include "net/json_body.h"

#include <algorithm>
#include <set>
#include <vector>

#include "net/json_response.h"

namespace ldpgraph {

using nlohmann::json;

std::string JsonErrorText(const json::exception& e) {
  std::string what = e.what();
  if (!what.empty() && what[0] == '[') what.erase(0, std::min(what.find("] ") + 2, what.size()));
  return what;
}

std::optional<HttpResponse> CheckKnownFields(const json& object, const JsonKeys& known, const std::string& context) {
  if (known.empty()) return std::nullopt;
  for (const auto& [key, value] : object.items()) {
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      return ErrorResponse(400, "unknown_field", "unknown field " + json(key).dump() + context);
    }
  }
  return std::nullopt;
}

namespace {

// Thrown by the parser's callback to stop at the first level too deep.
struct TooDeep {};

}  // namespace

std::string JsonShown(const json& value) {
  if (value.is_array()) return "an array of " + std::to_string(value.size()) + " items";
  if (value.is_object()) return "an object of " + std::to_string(value.size()) + " keys";
  if (value.is_string() && value.get_ref<const std::string&>().size() > 40) {
    return json(value.get_ref<const std::string&>().substr(0, 40)).dump() + "...";
  }
  return value.dump();
}

Result<json> ParseStrictJson(const std::string& text) {
  // The keys of each object being read, innermost last.
  std::vector<std::set<std::string>> open;
  std::string duplicate;
  const json::parser_callback_t check_keys = [&](int depth, json::parse_event_t event, json& parsed) {
    if ((event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) &&
        depth >= kMaxJsonDepth) {
      throw TooDeep{};
    }
    if (event == json::parse_event_t::object_start) {
      open.emplace_back();
    } else if (event == json::parse_event_t::object_end) {
      open.pop_back();
    } else if (event == json::parse_event_t::key && !open.back().insert(parsed.get<std::string>()).second &&
               duplicate.empty()) {
      duplicate = parsed.get<std::string>();
    }
    return true;
  };
  json value;
  try {
    value = json::parse(text, check_keys);
  } catch (const json::exception& e) {  // "parse error at line 1, column 9: ...": names the place
    return Status::InvalidArgument("body is not JSON: " + JsonErrorText(e));
  } catch (const TooDeep&) {
    return Status::InvalidArgument("body nests arrays and objects deeper than " + std::to_string(kMaxJsonDepth) +
                                   " levels");
  }
  if (!duplicate.empty()) {
    return Status::InvalidArgument("body has the key " + json(duplicate).dump() + " twice in one object");
  }
  return value;
}

std::optional<HttpResponse> ReadJsonBody(const std::string& text, const JsonKeys& known, json* out,
                                         bool empty_is_object) {
  if (text.empty() && empty_is_object) {
    *out = json::object();
    return std::nullopt;
  }
  Result<json> parsed = ParseStrictJson(text);
  if (!parsed.ok()) return ErrorResponse(400, "invalid_json", parsed.status().message());
  if (!parsed->is_object()) return ErrorResponse(400, "invalid_json", "body must be a JSON object");
  if (auto unknown = CheckKnownFields(*parsed, known)) return unknown;
  *out = std::move(parsed).value();
  return std::nullopt;
}

}  // namespace ldpgraph
