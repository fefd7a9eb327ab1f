// ReadJsonBody: the one reader of the daemon's JSON bodies. A key twice in
// any object is refused (readers disagree on which one counts), errors name
// the place, and the answer's shape is the same for every fault.
#include "net/json_body.h"

#include <doctest/doctest.h>

using ldpgraph::ParseStrictJson;
using ldpgraph::ReadJsonBody;
using nlohmann::json;

TEST_CASE("JsonBody.RefusesAKeyTwiceInAnyObject") {
  const char* twice[] = {
      R"({"epsilon": -1, "epsilon": 8})",
      R"({"a": {"b": 1, "b": 1}})",
      R"({"a": [{"x": 1}, {"x": 2, "y": 1, "x": 3}]})",
      R"([{"k": 1, "k": 1}])",
      R"({"a": 1, "b": {"c": {"d": 1}}, "a": 1})",
  };
  for (const char* text : twice) {
    INFO(text);
    auto parsed = ParseStrictJson(text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.status().message().find("twice in one object") != std::string::npos);
  }
  // The same key in different objects, or as a value, is no duplicate.
  for (const char* text :
       {R"({"a": {"x": 1}, "b": {"x": 2}})", R"([{"x": 1}, {"x": 2}])", R"({"x": "x", "y": {"x": 1}})"}) {
    INFO(text);
    CHECK(ParseStrictJson(text).ok());
  }
}

TEST_CASE("JsonBody.NamesWhereTheTextStopsBeingJson") {
  auto parsed = ParseStrictJson("{\"a\": 1,\n \"b\": tru}");
  REQUIRE_FALSE(parsed.ok());
  const std::string& message = parsed.status().message();
  CHECK(message.rfind("body is not JSON: parse error at line 2, column", 0) == 0);
  CHECK(message.find("json.exception") == std::string::npos);
  CHECK_FALSE(ParseStrictJson("").ok());
  CHECK_FALSE(ParseStrictJson("{} {}").ok());
}

TEST_CASE("JsonBody.AnswersEveryFaultInOneShape") {
  struct Case {
    std::string body;
    const char* error;
    const char* message;
  };
  const Case cases[] = {
      {"{\"epsilon\": 1", "invalid_json", "line 1, column 14"},
      {"{\"epsilon\": 1, \"epsilon\": 2}", "invalid_json", "\"epsilon\" twice"},
      {"[1, 2]", "invalid_json", "must be a JSON object"},
      {"", "invalid_json", "body is not JSON"},
      {"{\"epsilon\": 1, \"colour\": 2}", "unknown_field", "unknown field \"colour\""},
  };
  for (const Case& c : cases) {
    INFO(c.body);
    json out;
    auto refused = ReadJsonBody(c.body, {"epsilon"}, &out);
    REQUIRE(refused.has_value());
    CHECK(refused->status == 400);
    const json answer = json::parse(refused->body);
    CHECK(answer.size() == 2);
    CHECK(answer["error"] == c.error);
    CHECK(answer["message"].get<std::string>().find(c.message) != std::string::npos);
  }
  json out;
  CHECK_FALSE(ReadJsonBody("{\"epsilon\": 1}", {"epsilon"}, &out).has_value());
  CHECK(out["epsilon"] == 1);
  CHECK_FALSE(ReadJsonBody("", {}, &out, /*empty_is_object=*/true).has_value());
  CHECK(out == json::object());
  CHECK_FALSE(ReadJsonBody("{\"anything\": [1]}", {}, &out).has_value());
}

// Issue 66: 100,000 nested arrays (200 KB) crashed the daemon. Nesting is
// refused while reading, before any deep value exists, at every depth past
// the limit; a value in a message is shown by its kind, never rendered.
TEST_CASE("JsonBody.RefusesDeepNestingBeforeBuildingIt") {
  for (int depth : {ldpgraph::kMaxJsonDepth + 1, 1000, 100000}) {
    INFO(depth);
    const std::string text = "{\"graphs\":" + std::string(depth - 1, '[') + std::string(depth - 1, ']') + "}";
    auto parsed = ParseStrictJson(text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.status().message() == "body nests arrays and objects deeper than 32 levels");
    json out;
    auto refused = ReadJsonBody(text, {"graphs"}, &out);
    REQUIRE(refused.has_value());
    CHECK(refused->status == 400);
    CHECK(refused->body.size() < 200);
  }
  // The deepest body allowed reads, objects and arrays alike.
  std::string deepest;
  for (int i = 0; i < ldpgraph::kMaxJsonDepth; ++i) deepest += i % 2 ? "[" : "{\"k\":";
  deepest += "1";
  for (int i = ldpgraph::kMaxJsonDepth - 1; i >= 0; --i) deepest += i % 2 ? "]" : "}";
  CHECK_MESSAGE(ParseStrictJson(deepest).ok(), deepest);
  // Unclosed nesting is refused too, whether it is too deep or only unfinished.
  CHECK_FALSE(ParseStrictJson(std::string(100000, '[')).ok());
  CHECK_FALSE(ParseStrictJson(std::string(10, '[')).ok());
}

TEST_CASE("JsonBody.ShowsAValueWithoutRenderingIt") {
  using ldpgraph::JsonShown;
  CHECK(JsonShown(json(12)) == "12");
  CHECK(JsonShown(json(-1.5)) == "-1.5");
  CHECK(JsonShown(json(nullptr)) == "null");
  CHECK(JsonShown(json("short")) == "\"short\"");
  CHECK(JsonShown(json(std::string(1000, 'x'))) == "\"" + std::string(40, 'x') + "\"...");
  CHECK(JsonShown(json::parse("[[[[1]]], 2]")) == "an array of 2 items");
  CHECK(JsonShown(json::parse(R"({"a": {"b": [1]}})")) == "an object of 1 keys");
}
