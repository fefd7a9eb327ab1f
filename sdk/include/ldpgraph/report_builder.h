// ReportBuilder: runs a graph's mechanisms on one user's true data and
// assembles the Report her device sends. The one place where the edge,
// feature and label mechanisms meet.
// Thread-safety: immutable after creation; Build() may run concurrently with
// distinct RandomSources.
#ifndef LDPGRAPH_REPORT_BUILDER_H_
#define LDPGRAPH_REPORT_BUILDER_H_

#include <memory>

#include "ldpgraph/graph_config.h"
#include "ldpgraph/label_rr.h"
#include "ldpgraph/report.h"

namespace ldpgraph {

// One user's true data. Features and label are required exactly when the
// graph's policy enables them.
struct UserData {
  std::uint32_t user_id = 0;
  Span<const std::uint32_t> neighbours;
  Span<const double> features;  // dims values, or empty when features are off
  bool has_label = false;
  std::uint32_t label = 0;
};

class ReportBuilder {
 public:
  // Errors: those of GraphConfig::Validate().
  static Result<std::unique_ptr<ReportBuilder>> Create(const GraphConfig& config);

  // Randomizes `data` and returns the report, with a fresh random report id.
  // Errors (no randomness is used when the input is rejected): those of the
  // mechanisms, kInvalidArgument for features or a label the policy does not
  // expect or that is missing.
  Result<Report> Build(const UserData& data, RandomSource& rng) const;

  // The memoised form for a graph reported in rounds (docs/rounds.md):
  // every mechanism draws from `coins` (the graph's permanent coins, kept by
  // the BudgetLedger), so unchanged data gives the same report every round;
  // only the report id is fresh from `rng`. Errors: Build()'s, and
  // kFailedPrecondition on an embedding graph (its owner reports it once).
  Result<Report> BuildMemoised(const UserData& data, const PermanentCoins& coins, RandomSource& rng) const;

  // An embedding graph's one report (config().embedding.enabled): its
  // owner's n x dims node embeddings `h` (row after row, each in [0, 1])
  // through the policy's encoder, and the graph's class through RR when
  // the label policy asks for it. The multi-bit encoder takes n =
  // num_users rows; the summary encoder any n >= 1 (h.size() / dims: the
  // size stays on the device). Errors, before any randomness:
  // kFailedPrecondition on a graph that is not an embedding graph (and
  // Build() on one that is), the encoder's, and those of a label as in Build().
  Result<Report> BuildEmbedding(Span<const double> h, bool has_label, std::uint32_t label, RandomSource& rng) const;

  // The checks Build() and BuildMemoised() make before any randomness (the
  // neighbour list's are the edge mechanism's, in Perturb()).
  Status CheckUserData(const UserData& data) const;

  const GraphConfig& config() const { return config_; }
  // The feature encoder (meaningful when config().features.enabled).
  const MultiBitEncoder& feature_encoder() const { return features_; }

 private:
  ReportBuilder() = default;
  GraphConfig config_;
  std::unique_ptr<EdgeRandomizer> edges_;
  MultiBitEncoder features_;
  LabelRandomizer label_;

  Status CheckLabel(bool has_label, std::uint32_t label) const;
  // The report's fields that are not random: ids and the policy's parameters.
  Report Header(const UserData& data) const;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_REPORT_BUILDER_H_
