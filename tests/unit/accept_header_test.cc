// AcceptsMediaType: content negotiation on Accept. Issue 66: "type;q=0"
// names a type to refuse it, and still got the binary form.
#include "net/accept_header.h"

#include <doctest/doctest.h>

using ldpgraph::AcceptsMediaType;

TEST_CASE("AcceptHeader.NamedWithAWeightAboveZero") {
  const std::string type = "application/x-ldpgraph-result";
  CHECK(AcceptsMediaType(type, type));
  CHECK(AcceptsMediaType("Application/X-Ldpgraph-Result", type));
  CHECK(AcceptsMediaType("application/json, application/x-ldpgraph-result", type));
  CHECK(AcceptsMediaType("application/json;q=0.9, application/x-ldpgraph-result ; q=0.5", type));
  CHECK(AcceptsMediaType("application/x-ldpgraph-result;version=1;q=1", type));
  CHECK(AcceptsMediaType("application/x-ldpgraph-result;q=0.001", type));
}

TEST_CASE("AcceptHeader.RefusedOrNotNamed") {
  const std::string type = "application/x-ldpgraph-result";
  CHECK_FALSE(AcceptsMediaType("", type));
  CHECK_FALSE(AcceptsMediaType("*/*", type));
  CHECK_FALSE(AcceptsMediaType("application/*", type));
  CHECK_FALSE(AcceptsMediaType("application/json", type));
  CHECK_FALSE(AcceptsMediaType("application/x-ldpgraph-result;q=0", type));
  CHECK_FALSE(AcceptsMediaType("application/x-ldpgraph-result; Q=0.000", type));
  CHECK_FALSE(AcceptsMediaType("application/json, application/x-ldpgraph-result;q=0", type));
  CHECK_FALSE(AcceptsMediaType("application/x-ldpgraph-result;q=", type));
  CHECK_FALSE(AcceptsMediaType("application/x-ldpgraph-result-v2", type));
  CHECK_FALSE(AcceptsMediaType("text/application/x-ldpgraph-result", type));
}
