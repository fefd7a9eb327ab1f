#include "ldpgraph/graph_config.h"

#include "ldpgraph/embedding_encoder.h"
#include "ldpgraph/label_rr.h"

namespace ldpgraph {

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
    EmbeddingParams p;
    p.nodes = num_users;
    p.dims = embedding.dims;
    p.epsilon = embedding.epsilon;
    LDPGRAPH_RETURN_IF_ERROR(p.Validate());
  }
  if (label.enabled) {
    Result<LabelRandomizer> label_ok = LabelRandomizer::Create(label.classes, label.epsilon);
    if (!label_ok.ok()) return label_ok.status();
  }
  return Status::Ok();
}

}  // namespace ldpgraph
