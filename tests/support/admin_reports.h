// What the admin-surface tests do against a real daemon (AdminDaemon): read
// an answer's JSON, send a user's report through the report endpoint.
#ifndef LDPGRAPH_TESTS_SUPPORT_ADMIN_REPORTS_H_
#define LDPGRAPH_TESTS_SUPPORT_ADMIN_REPORTS_H_

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ldpgraph/report_builder.h"
#include "ldpgraph/wire_format.h"
#include "net/token_authority.h"
#include "support/admin_daemon.h"

namespace ldpgraph {
namespace testing {

inline nlohmann::json Body(const ldpgraph::transport::HttpAnswer& answer) { return nlohmann::json::parse(answer.body); }

// User u's report to graph `graph` (her friends, her features, label u % 2),
// sent and acknowledged.
inline void SendReport(AdminDaemon& d, ldpgraph::ReportBuilder& builder, std::uint64_t graph, std::uint32_t u,
                const std::vector<std::uint32_t>& friends, const std::vector<double>& x, ldpgraph::RandomSource& rng) {
  static const ldpgraph::TokenAuthority tokens =
      ldpgraph::TokenAuthority::Create(ldpgraph::testing::DaemonProcess::kSecret).value();
  ldpgraph::UserData data;
  data.user_id = u;
  data.neighbours = ldpgraph::Span<const std::uint32_t>(friends.data(), friends.size());
  data.features = ldpgraph::Span<const double>(x.data(), x.size());
  data.has_label = true;
  data.label = u % 2;
  auto report = builder.Build(data, rng);
  REQUIRE(report.ok());
  std::vector<std::uint8_t> bytes;
  REQUIRE(ldpgraph::EncodeReport(*report, &bytes).ok());
  REQUIRE(d.Call("POST", "/v1/reports", std::string(bytes.begin(), bytes.end()), tokens.Issue(graph, u)).status == 200);
}

}  // namespace testing
}  // namespace ldpgraph

#endif  // LDPGRAPH_TESTS_SUPPORT_ADMIN_REPORTS_H_
