// Report: everything one device sends about one graph, and nothing more.
#ifndef LDPGRAPH_REPORT_H_
#define LDPGRAPH_REPORT_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "ldpgraph/edge_mechanism.h"
#include "ldpgraph/multibit.h"

namespace ldpgraph {

using ReportId = std::array<std::uint8_t, 16>;

struct ReportFeatures {
  double epsilon = 0;
  std::uint32_t dims = 0;
  std::vector<EncodedFeature> encoded;  // m pairs, strictly increasing index
};

struct ReportLabel {
  double epsilon = 0;
  std::uint32_t classes = 0;
  std::uint32_t value = 0;  // the randomized label
};

struct Report {
  std::uint64_t graph_id = 0;
  std::uint32_t num_users = 0;  // n of the graph configuration the device used
  std::uint32_t user_id = 0;
  ReportId report_id{};         // random; a retry resends the same id
  NoisyEdges edges;
  bool has_features = false;
  ReportFeatures features;
  bool has_label = false;
  ReportLabel label;
};

// The privacy budget the report spends: edge + feature + label epsilon;
// +infinity if any part is sent without privacy.
double ReportEpsilon(const Report& report);

// 32 lower-case hex digits.
std::string ReportIdToHex(const ReportId& id);

}  // namespace ldpgraph

#endif  // LDPGRAPH_REPORT_H_
