// What training and evaluation need of a graph classifier: GIN (the DPRR
// classifier, and GW-LDP's embedding model) and the small graph GCN of the
// GW-LDP paper's Table 1 both are one.
#ifndef LDPGRAPH_DAEMON_MODELS_GRAPH_MODEL_H_
#define LDPGRAPH_DAEMON_MODELS_GRAPH_MODEL_H_

#include <vector>

#include "engine/parameter.h"
#include "engine/tape.h"
#include "graph/graph_batch.h"

namespace ldpgraph {

class GraphModel {
 public:
  virtual ~GraphModel() = default;

  // Class scores (graphs x classes) for `batch` with node inputs `x`.
  virtual Tape::Var Forward(Tape& tape, const GraphBatch& batch, Tape::Var x) = 0;
  // Class scores per node (nodes x classes): what each node contributes to
  // its graph's scores. With a mean readout a graph's scores are exactly
  // the mean of its nodes'. GW-LDP's node embeddings are their softmax.
  virtual Tape::Var NodeScores(Tape& tape, const GraphBatch& batch, Tape::Var x) = 0;
  virtual std::vector<Parameter*> Parameters() = 0;
  virtual std::vector<BatchNormStats*> Stats() = 0;
  virtual int classes() const = 0;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_MODELS_GRAPH_MODEL_H_
