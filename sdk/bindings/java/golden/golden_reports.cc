// Reports the C++ SDK builds from seeded sources, one line each
// ("name hex"), for the Java library's golden test: the same inputs through
// JNI must give the same bytes. Every edge mechanism, with and without
// features and labels.
#include <cstdio>
#include <string>
#include <vector>

#include "ldpgraph/report_builder.h"
#include "ldpgraph/wire_format.h"

namespace {

struct Case {
  const char* name;
  ldpgraph::EdgeMechanism mechanism;
  bool features;
  bool label;
};

}  // namespace

int main() {
  const Case cases[] = {
      {"dprr", ldpgraph::EdgeMechanism::kDprr, false, false},
      {"dprr-features-label", ldpgraph::EdgeMechanism::kDprr, true, true},
      {"rr", ldpgraph::EdgeMechanism::kRr, false, true},
      {"rr-degree", ldpgraph::EdgeMechanism::kRrDegree, true, false},
      {"locallap", ldpgraph::EdgeMechanism::kLocalLap, false, false},
      {"none-features-label", ldpgraph::EdgeMechanism::kNone, true, true},
  };
  for (const Case& c : cases) {
    ldpgraph::GraphConfig config;
    config.graph_id = 11;
    config.num_users = 50;
    config.edges.mechanism = c.mechanism;
    config.edges.epsilon = 2;
    if (c.features) {
      config.features.enabled = true;
      config.features.params.dims = 6;
      config.features.params.epsilon = 1.5;
      config.features.params.ranges = {ldpgraph::FeatureRange{0, 1}};
    }
    if (c.label) {
      config.label.enabled = true;
      config.label.classes = 3;
      config.label.epsilon = 1;
    }
    auto builder = ldpgraph::ReportBuilder::Create(config);
    if (!builder.ok()) {
      std::fprintf(stderr, "%s: %s\n", c.name, builder.status().ToString().c_str());
      return 1;
    }
    ldpgraph::SeededRandomSource rng(42);
    const std::vector<std::uint32_t> friends = {1, 4, 9, 16, 25, 36};
    const std::vector<double> x = {0.1, 0.5, 0.9, 0.3, 0.7, 0.2};
    ldpgraph::UserData user;
    user.user_id = 7;
    user.neighbours = ldpgraph::Span<const std::uint32_t>(friends.data(), friends.size());
    if (c.features) user.features = ldpgraph::Span<const double>(x.data(), x.size());
    user.has_label = c.label;
    user.label = 2;
    auto report = (*builder)->Build(user, rng);
    std::vector<std::uint8_t> bytes;
    if (!report.ok() || !ldpgraph::EncodeReport(*report, &bytes).ok()) {
      std::fprintf(stderr, "%s: cannot build\n", c.name);
      return 1;
    }
    std::string hex;
    for (std::uint8_t b : bytes) {
      static const char kDigits[] = "0123456789abcdef";
      hex += kDigits[b >> 4];
      hex += kDigits[b & 15];
    }
    std::printf("%s %s\n", c.name, hex.c_str());
  }
  return 0;
}
