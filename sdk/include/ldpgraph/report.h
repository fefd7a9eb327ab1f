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

// An embedding graph's one report (GraphConfig::embedding): every node's m
// (index, sign) pairs, row after row, as EmbeddingEncoder produced them.
struct ReportEmbedding {
  double epsilon = 0;  // for the whole matrix
  std::uint32_t dims = 0;
  std::vector<std::vector<EncodedFeature>> rows;  // num_users rows of m pairs
};

// An embedding graph's one report by the summary encoder (graph_summary.h):
// one cell of the grid, through k-ary randomized response over its cells,
// with the grid it was made on (public, so that a report made on a stale
// grid is refused rather than read on the wrong one).
struct ReportSummary {
  double epsilon = 0;  // for the whole report
  std::uint32_t dims = 0, value_bins = 0, size_bins = 0;
  std::uint32_t min_nodes = 0, max_nodes = 0;
  std::uint32_t cell = 0;  // the randomized cell, below value_bins^dims x size_bins
};

struct Report {
  std::uint64_t graph_id = 0;
  std::uint32_t num_users = 0;  // n of the graph configuration the device used
  std::uint32_t user_id = 0;
  // The collection round of a graph collected in rounds (numbered from 1);
  // 0 for a one-shot report.
  std::uint32_t round = 0;
  ReportId report_id{};         // random; a retry resends the same id
  NoisyEdges edges;
  bool has_features = false;
  ReportFeatures features;
  bool has_label = false;
  ReportLabel label;
  // An embedding report has no user (user_id 0), edges (mechanism none, no
  // neighbours) or features: the graph's owner reports the whole graph.
  bool has_embedding = false;
  ReportEmbedding embedding;
  // The same for a summary report (at most one of the two).
  bool has_summary = false;
  ReportSummary summary;
};

// The privacy budget the report spends: edge + feature + label epsilon;
// +infinity if any part is sent without privacy.
double ReportEpsilon(const Report& report);

// 32 lower-case hex digits.
std::string ReportIdToHex(const ReportId& id);

}  // namespace ldpgraph

#endif  // LDPGRAPH_REPORT_H_
