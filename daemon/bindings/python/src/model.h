// A trained model in Python: the engine's AnyModel (what a model file
// holds) and, for LPGNN models, how their inputs are made from features.
#ifndef LDPGRAPH_DAEMON_BINDINGS_PYTHON_MODEL_H_
#define LDPGRAPH_DAEMON_BINDINGS_PYTHON_MODEL_H_

#include <memory>
#include <string>

#include "models/node_gnn.h"
#include "store/model_file.h"

namespace ldpgraph_python {

struct Model {
  std::shared_ptr<ldpgraph::AnyModel> any;
  // LPGNN (train_lpgnn): the feature KProp steps taken before the model,
  // and whether (rectified) features are standardised after them. Model
  // files do not hold these (the daemon keeps them in its model summary).
  int kx = 0;
  bool standardised = false;
};

// "gcn" or "sage"; ValueError naming `model` otherwise.
ldpgraph::NodeGnnKind NodeKind(const std::string& name);
// The model file kind of a node model.
inline ldpgraph::ModelKind ModelKindOf(ldpgraph::NodeGnnKind kind) {
  return kind == ldpgraph::NodeGnnKind::kGcn ? ldpgraph::ModelKind::kGcn : ldpgraph::ModelKind::kSage;
}

}  // namespace ldpgraph_python

#endif  // LDPGRAPH_DAEMON_BINDINGS_PYTHON_MODEL_H_
