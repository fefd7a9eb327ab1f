// JsonQuote: every answer and log line the daemon writes is valid JSON,
// whatever bytes a client sent: well-formed UTF-8 passes as it is, anything
// else becomes U+FFFD.
#include "net/logger.h"

#include <doctest/doctest.h>

using ldpgraph::JsonQuote;

TEST_CASE("JsonQuote.EscapesControlsAndKeepsUtf8") {
  CHECK(JsonQuote("a\"b\\c\n\t\x01") == "\"a\\\"b\\\\c\\n\\t\\u0001\"");
  CHECK(JsonQuote("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x99\x82") == "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x99\x82\"");
  CHECK(JsonQuote("\x7f") == "\"\x7f\"");
}

TEST_CASE("JsonQuote.ReplacesBytesThatAreNotUtf8") {
  struct Case {
    const char* what;
    std::string in, out;
  };
  const Case cases[] = {
      {"stray bytes", "/\xff\xfe", "\"/\\ufffd\\ufffd\""},
      {"a lone continuation byte", "a\x80z", "\"a\\ufffdz\""},
      {"an overlong slash", "\xc0\xaf", "\"\\ufffd\\ufffd\""},
      {"an overlong three-byte form", "\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\""},
      {"a surrogate", "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""},
      {"above U+10FFFF", "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""},
      {"a truncated sequence", "\xe2\x82", "\"\\ufffd\\ufffd\""},
      {"a truncated sequence before ASCII", "\xe2\x82z", "\"\\ufffd\\ufffdz\""},
  };
  for (const Case& c : cases) {
    INFO(std::string(c.what));
    CHECK(JsonQuote(c.in) == c.out);
  }
}
