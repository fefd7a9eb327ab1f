#include "ldpgraph/edge_randomizers.h"
#include "ldpgraph/graph_config.h"

#include "ldpgraph/label_rr.h"

namespace ldpgraph {

const char* EmbeddingEncodingName(EmbeddingEncoding encoding) {
  return encoding == EmbeddingEncoding::kSummary ? "summary" : "multibit";
}

EmbeddingParams EmbeddingPolicy::RowsParams(std::uint32_t nodes) const {
  EmbeddingParams p;
  p.nodes = nodes;
  p.dims = dims;
  p.epsilon = epsilon;
  return p;
}

GraphSummaryParams EmbeddingPolicy::SummaryParams() const {
  GraphSummaryParams p;
  p.dims = dims;
  p.value_bins = value_bins;
  p.size_bins = size_bins;
  p.min_nodes = min_nodes;
  p.max_nodes = max_nodes;
  p.epsilon = epsilon;
  return p;
}

Status GraphConfig::Validate() const {
  if (!embedding.enabled) {  // nobody sends edges to an embedding graph: its edge policy is unused
    Result<std::unique_ptr<EdgeRandomizer>> edges_ok = MakeEdgeRandomizer(num_users, edges);
    if (!edges_ok.ok()) return edges_ok.status();
  }
  if (features.enabled) LDPGRAPH_RETURN_IF_ERROR(features.params.Validate());
  if (embedding.enabled) {
    // As every report: n >= 2 (a one-node graph has no structure to compare).
    if (num_users < 2) return Status::InvalidArgument("an embedding graph needs at least 2 nodes");
    if (features.enabled) return Status::InvalidArgument("an embedding graph collects no features");
    if (embedding.encoding == EmbeddingEncoding::kSummary) {
      LDPGRAPH_RETURN_IF_ERROR(embedding.SummaryParams().Validate());
    } else if (embedding.encoding == EmbeddingEncoding::kMultiBit) {
      LDPGRAPH_RETURN_IF_ERROR(embedding.RowsParams(num_users).Validate());
    } else {
      return Status::InvalidArgument("unknown embedding encoding");
    }
  }
  if (label.enabled) {
    Result<LabelRandomizer> label_ok = LabelRandomizer::Create(label.classes, label.epsilon);
    if (!label_ok.ok()) return label_ok.status();
  }
  return Status::Ok();
}

}  // namespace ldpgraph
