#include "ldpgraph/edge_randomizers.h"
#include "ldpgraph/report_builder.h"

#include <limits>
#include <string>

#include "ldpgraph/embedding_encoder.h"
#include "ldpgraph/graph_summary.h"

namespace ldpgraph {

Result<std::unique_ptr<ReportBuilder>> ReportBuilder::Create(const GraphConfig& config) {
  LDPGRAPH_RETURN_IF_ERROR(config.Validate());
  std::unique_ptr<ReportBuilder> b(new ReportBuilder());
  b->config_ = config;
  if (!config.embedding.enabled) {
    Result<std::unique_ptr<EdgeRandomizer>> edges = MakeEdgeRandomizer(config.num_users, config.edges);
    if (!edges.ok()) return edges.status();
    b->edges_ = std::move(edges).value();
  }
  if (config.features.enabled) {
    Result<MultiBitEncoder> enc = MultiBitEncoder::Create(config.features.params);
    if (!enc.ok()) return enc.status();
    b->features_ = std::move(enc).value();
  }
  if (config.label.enabled) {
    Result<LabelRandomizer> label = LabelRandomizer::Create(config.label.classes, config.label.epsilon);
    if (!label.ok()) return label.status();
    b->label_ = *label;
  }
  return b;
}

Status ReportBuilder::CheckLabel(bool has_label, std::uint32_t label) const {
  if (config_.label.enabled && !has_label) {
    return Status::InvalidArgument("graph " + std::to_string(config_.graph_id) + " needs a label, none was given");
  }
  if (!config_.label.enabled && has_label) {
    return Status::InvalidArgument("graph " + std::to_string(config_.graph_id) +
                                   " collects no label, but a label was given");
  }
  if (config_.label.enabled && label >= config_.label.classes) {
    return Status::OutOfRange("label " + std::to_string(label) + " is not below classes = " +
                              std::to_string(config_.label.classes));
  }
  return Status::Ok();
}

Status ReportBuilder::CheckUserData(const UserData& data) const {
  if (config_.embedding.enabled) {
    return Status::FailedPrecondition("graph " + std::to_string(config_.graph_id) +
                                      " is an embedding graph: its owner reports it once, with BuildEmbedding");
  }
  if (config_.features.enabled) {
    LDPGRAPH_RETURN_IF_ERROR(features_.CheckInput(data.features));
  } else if (!data.features.empty()) {
    return Status::InvalidArgument("graph " + std::to_string(config_.graph_id) +
                                   " collects no features, but features were given");
  }
  return CheckLabel(data.has_label, data.label);
}

Report ReportBuilder::Header(const UserData& data) const {
  Report r;
  r.graph_id = config_.graph_id;
  r.num_users = config_.num_users;
  r.user_id = data.user_id;
  if (config_.features.enabled) {
    r.has_features = true;
    r.features.epsilon = config_.features.params.epsilon;
    r.features.dims = config_.features.params.dims;
  }
  if (config_.label.enabled) {
    r.has_label = true;
    r.label.epsilon = config_.label.epsilon;
    r.label.classes = config_.label.classes;
  }
  return r;
}

Result<Report> ReportBuilder::Build(const UserData& data, RandomSource& rng) const {
  // Check every input before drawing any randomness: a rejected call must not
  // have produced (and possibly leaked) a partial randomization.
  LDPGRAPH_RETURN_IF_ERROR(CheckUserData(data));
  Report r = Header(data);
  LDPGRAPH_RETURN_IF_ERROR(edges_->Perturb(data.user_id, data.neighbours, rng, &r.edges));
  if (r.has_features) LDPGRAPH_RETURN_IF_ERROR(features_.Encode(data.features, rng, &r.features.encoded));
  if (r.has_label) {
    Result<std::uint32_t> y = label_.Perturb(data.label, rng);
    if (!y.ok()) return y.status();
    r.label.value = *y;
  }
  rng.FillBytes(r.report_id.data(), r.report_id.size());
  return r;
}

Result<Report> ReportBuilder::BuildEmbedding(Span<const double> h, bool has_label, std::uint32_t label,
                                             RandomSource& rng) const {
  if (!config_.embedding.enabled) {
    return Status::FailedPrecondition("graph " + std::to_string(config_.graph_id) + " is not an embedding graph");
  }
  LDPGRAPH_RETURN_IF_ERROR(CheckLabel(has_label, label));
  Report r;
  r.graph_id = config_.graph_id;
  r.num_users = config_.num_users;
  r.edges.epsilon = std::numeric_limits<double>::infinity();
  // The encoders are made here, not in Create(): an app that reports friend
  // lists (a microcontroller's 64 KB image) links neither.
  const EmbeddingPolicy& policy = config_.embedding;
  if (policy.encoding == EmbeddingEncoding::kSummary) {
    Result<GraphSummaryEncoder> summary = GraphSummaryEncoder::Create(policy.SummaryParams());
    if (!summary.ok()) return summary.status();
    if (h.size() == 0 || h.size() % policy.dims != 0) {
      return Status::InvalidArgument("a summary report needs n x dims = " + std::to_string(policy.dims) +
                                     " embedding entries for some n >= 1, got " + std::to_string(h.size()));
    }
    const std::size_t nodes = h.size() / policy.dims;
    if (nodes > 0xFFFFFFFFu) return Status::InvalidArgument("a summary report takes at most 2^32 - 1 nodes");
    r.has_summary = true;
    r.summary.epsilon = policy.epsilon;
    r.summary.dims = policy.dims;
    r.summary.value_bins = policy.value_bins;
    r.summary.size_bins = policy.size_bins;
    r.summary.min_nodes = policy.min_nodes;
    r.summary.max_nodes = policy.max_nodes;
    // Encode checks all of h before it draws anything.
    Result<std::uint32_t> cell = summary->Encode(h, static_cast<std::uint32_t>(nodes), rng);
    if (!cell.ok()) return cell.status();
    r.summary.cell = *cell;
  } else {
    r.has_embedding = true;
    r.embedding.epsilon = policy.epsilon;
    r.embedding.dims = policy.dims;
    Result<EmbeddingEncoder> rows = EmbeddingEncoder::Create(policy.RowsParams(config_.num_users));
    if (!rows.ok()) return rows.status();
    // The encoder checks all of h before it draws anything.
    LDPGRAPH_RETURN_IF_ERROR(rows->Encode(h, rng, &r.embedding.rows));
  }
  if (config_.label.enabled) {
    r.has_label = true;
    r.label.epsilon = config_.label.epsilon;
    r.label.classes = config_.label.classes;
    Result<std::uint32_t> y = label_.Perturb(label, rng);
    if (!y.ok()) return y.status();
    r.label.value = *y;
  }
  rng.FillBytes(r.report_id.data(), r.report_id.size());
  return r;
}

}  // namespace ldpgraph
