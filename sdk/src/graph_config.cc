#include "ldpgraph/graph_config.h"

#include "ldpgraph/label_rr.h"

namespace ldpgraph {

Status GraphConfig::Validate() const {
  Result<std::unique_ptr<EdgeRandomizer>> edges_ok = MakeEdgeRandomizer(num_users, edges);
  if (!edges_ok.ok()) return edges_ok.status();
  if (features.enabled) LDPGRAPH_RETURN_IF_ERROR(features.params.Validate());
  if (label.enabled) {
    Result<LabelRandomizer> label_ok = LabelRandomizer::Create(label.classes, label.epsilon);
    if (!label_ok.ok()) return label_ok.status();
  }
  return Status::Ok();
}

}  // namespace ldpgraph
