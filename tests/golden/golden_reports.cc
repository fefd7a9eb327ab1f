#include "golden/golden_reports.h"

#include <cstring>

#include "ldpgraph/graph_config_codec.h"
#include "ldpgraph/graph_summary.h"
#include "ldpgraph/random_source.h"
#include "ldpgraph/report_builder.h"
#include "ldpgraph/wire_format.h"

namespace ldpgraph::golden {
namespace {

enum class Extra { kNone, kFeatures, kFeaturesAndLabel };

struct Case {
  const char* name;
  std::uint64_t seed;
  std::uint32_t num_users;
  EdgeMechanism mechanism;
  BudgetAllocation allocation;
  double edge_epsilon;
  Extra extra;
  std::uint32_t dims;  // features, when extra asks for them
  double feature_epsilon;
  std::uint32_t classes;  // label, when extra asks for it
  double label_epsilon;
  std::uint32_t degree;   // of user 5 (user 123456 in the large graph)
};

constexpr auto kPaper = BudgetAllocation::kPaper;
constexpr auto kFixed = BudgetAllocation::kFixed;
constexpr Extra kNo = Extra::kNone;
constexpr Extra kFx = Extra::kFeatures;
constexpr Extra kFxLabel = Extra::kFeaturesAndLabel;

// Every edge mechanism, DPRR under both allocations, and each with and
// without features and a label; one graph of 10^6 users (the device case the
// Cortex-M image measures). Never edit a line: add a case.
constexpr Case kCases[] = {
    {"dprr-paper", 1, 64, EdgeMechanism::kDprr, kPaper, 1.0, kNo, 0, 0, 0, 0, 6},
    {"dprr-fixed", 2, 64, EdgeMechanism::kDprr, kFixed, 2.0, kNo, 0, 0, 0, 0, 6},
    {"dprr-paper-features-label", 3, 64, EdgeMechanism::kDprr, kPaper, 1.0, kFxLabel, 8, 3.0, 4, 1.0, 6},
    {"dprr-fixed-features", 4, 64, EdgeMechanism::kDprr, kFixed, 4.0, kFx, 64, 8.0, 0, 0, 6},
    {"rr", 5, 64, EdgeMechanism::kRr, kPaper, 1.0, kNo, 0, 0, 0, 0, 6},
    {"rr-features-label", 6, 64, EdgeMechanism::kRr, kPaper, 2.0, kFxLabel, 8, 1.0, 7, 0.5, 6},
    {"rr-degree", 7, 64, EdgeMechanism::kRrDegree, kPaper, 1.0, kNo, 0, 0, 0, 0, 6},
    {"rr-degree-features-label", 8, 64, EdgeMechanism::kRrDegree, kFixed, 3.0, kFxLabel, 16, 5.0, 2, 2.0, 6},
    {"locallap", 9, 64, EdgeMechanism::kLocalLap, kPaper, 1.0, kNo, 0, 0, 0, 0, 6},
    {"locallap-features-label", 10, 64, EdgeMechanism::kLocalLap, kFixed, 2.0, kFxLabel, 8, 2.0, 3, 1.0, 6},
    {"none-features-label", 11, 64, EdgeMechanism::kNone, kPaper, 1.0, kFxLabel, 8, 1.0, 4, 1.0, 6},
    {"dprr-million-degree-100", 12, 1000000, EdgeMechanism::kDprr, kPaper, 1.0, kNo, 0, 0, 0, 0, 100},
};
constexpr std::size_t kReportCases = sizeof kCases / sizeof kCases[0];
// Then the GW encoders: an embedding graph's report with and without its
// class, and a graph summary's cell.
constexpr const char* kGwCases[] = {"embedding-label", "embedding", "gw-summary"};
constexpr std::size_t kGwCaseCount = sizeof kGwCases / sizeof kGwCases[0];

// A value in [0, 1) that depends only on i (no floating-point library call).
double Fraction(std::uint32_t i) { return static_cast<double>((i * 37u + 11u) % 100u) / 100.0; }

Result<std::vector<std::uint8_t>> Encoded(const Result<Report>& report) {
  if (!report.ok()) return report.status();
  std::vector<std::uint8_t> out;
  LDPGRAPH_RETURN_IF_ERROR(EncodeReport(*report, &out));
  return out;
}

Result<std::vector<std::uint8_t>> UserReport(const Case& c) {
  GraphConfig config;
  config.graph_id = 1000 + c.seed;
  config.num_users = c.num_users;
  config.edges.mechanism = c.mechanism;
  config.edges.allocation = c.allocation;
  config.edges.epsilon = c.edge_epsilon;
  if (c.extra != kNo) {
    config.features.enabled = true;
    config.features.params.dims = c.dims;
    config.features.params.epsilon = c.feature_epsilon;
    if (c.dims > 8) {  // one range per dimension
      config.features.params.ranges.clear();
      for (std::uint32_t i = 0; i < c.dims; ++i) config.features.params.ranges.push_back({-1.0 - i, 1.0 + i});
    }
  }
  if (c.extra == kFxLabel) {
    config.label.enabled = true;
    config.label.classes = c.classes;
    config.label.epsilon = c.label_epsilon;
  }
  Result<std::unique_ptr<ReportBuilder>> builder = BuilderThroughTheWire(config);
  if (!builder.ok()) return builder.status();

  const bool large = c.num_users > 64;
  UserData user;
  user.user_id = large ? 123456 : 5;
  std::vector<std::uint32_t> friends;
  // Spread over the graph, in no particular order, never the user herself.
  for (std::uint32_t k = 0; friends.size() < c.degree; ++k) {
    const std::uint32_t v = static_cast<std::uint32_t>((static_cast<std::uint64_t>(k) * 7919u + 3u) % c.num_users);
    if (v != user.user_id) friends.push_back(v);
  }
  user.neighbours = friends;
  std::vector<double> x(c.extra == kNo ? 0 : c.dims);
  for (std::uint32_t i = 0; i < x.size(); ++i) x[i] = c.dims > 8 ? (2.0 * Fraction(i) - 1.0) * (1.0 + i) : Fraction(i);
  user.features = x;
  user.has_label = c.extra == kFxLabel;
  user.label = user.has_label ? c.classes - 1 : 0;
  SeededRandomSource rng(c.seed);
  return Encoded((*builder)->Build(user, rng));
}

Result<std::vector<std::uint8_t>> GwCase(std::size_t i) {
  constexpr std::uint32_t kNodes = 6, kDims = 3;
  std::vector<double> h(kNodes * kDims);
  for (std::uint32_t k = 0; k < h.size(); ++k) h[k] = Fraction(k);
  SeededRandomSource rng(100 + i);
  if (i < 2) {
    GraphConfig config;
    config.graph_id = 2000 + i;
    config.num_users = kNodes;
    config.embedding.enabled = true;
    config.embedding.dims = kDims;
    config.embedding.epsilon = 4.0;
    config.label.enabled = i == 0;
    config.label.classes = 3;
    Result<std::unique_ptr<ReportBuilder>> builder = BuilderThroughTheWire(config);
    if (!builder.ok()) return builder.status();
    return Encoded((*builder)->BuildEmbedding(h, i == 0, 2, rng));
  }
  Result<GraphSummaryEncoder> summary = GraphSummaryEncoder::Create(GraphSummaryParams::ForEpsilon(kDims, 6.0, 1, 64));
  if (!summary.ok()) return summary.status();
  Result<std::uint32_t> cell = summary->Encode(h, kNodes, rng);
  if (!cell.ok()) return cell.status();
  std::vector<std::uint8_t> out(4);
  for (int b = 0; b < 4; ++b) out[b] = static_cast<std::uint8_t>(*cell >> (8 * b));
  return out;
}

}  // namespace

Result<std::unique_ptr<ReportBuilder>> BuilderThroughTheWire(const GraphConfig& config) {
  std::vector<std::uint8_t> bytes;
  LDPGRAPH_RETURN_IF_ERROR(EncodeGraphConfig(config, &bytes));
  Result<GraphConfig> decoded = DecodeGraphConfig(bytes.data(), bytes.size());
  if (!decoded.ok()) return decoded.status();
  return ReportBuilder::Create(*decoded);
}

std::size_t CaseCount() { return kReportCases + kGwCaseCount; }

const char* CaseName(std::size_t i) { return i < kReportCases ? kCases[i].name : kGwCases[i - kReportCases]; }

Result<std::vector<std::uint8_t>> CaseBytes(std::size_t i) {
  return i < kReportCases ? UserReport(kCases[i]) : GwCase(i - kReportCases);
}

std::string Hex(const std::vector<std::uint8_t>& bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes.size());
  for (std::uint8_t b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

std::string ExpectedHex(const char* vectors, const char* name) {
  const std::size_t name_length = std::strlen(name);
  for (const char* line = vectors; *line != '\0';) {
    const char* end = std::strchr(line, '\n');
    if (end == nullptr) end = line + std::strlen(line);
    if (line[0] != '#' && static_cast<std::size_t>(end - line) > name_length &&
        std::strncmp(line, name, name_length) == 0 && line[name_length] == ' ') {
      return std::string(line + name_length + 1, end);
    }
    line = *end == '\0' ? end : end + 1;
  }
  return "";
}

}  // namespace ldpgraph::golden
