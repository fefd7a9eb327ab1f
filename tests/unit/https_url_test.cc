// The tools' daemon address: https://HOST[:PORT][/].
#include "util/https_url.h"

#include <doctest/doctest.h>

using ldpgraph::ParseHttpsUrl;

TEST_CASE("HttpsUrl.HostAndPort") {
  auto a = ParseHttpsUrl("https://127.0.0.1:8443/");
  REQUIRE(a);
  CHECK(a->host == "127.0.0.1");
  CHECK(a->port == 8443);
  CHECK(a->port_given);
  auto b = ParseHttpsUrl("https://reports.example.org");
  REQUIRE(b);
  CHECK(b->host == "reports.example.org");
  CHECK(b->port == 443);
  CHECK_FALSE(b->port_given);
}

TEST_CASE("HttpsUrl.Refusals") {
  for (const char* bad : {"http://x:1", "https://", "https://x:", "https://x:abc", "https://x:0", "https://x:65536",
                          "https://x:123456", "x:8443"}) {
    CAPTURE(bad);
    CHECK_FALSE(ParseHttpsUrl(bad));
  }
}
