#include "models/graph_gcn.h"

namespace ldpgraph {

Result<GraphGcnModel> GraphGcnModel::Create(const GraphGcnConfig& c, std::uint64_t seed) {
  if (c.input_dim < 1 || c.hidden < 1 || c.classes < 2 || !(c.dropout >= 0 && c.dropout < 1)) {
    return Status::InvalidArgument("graph GCN needs input_dim >= 1, hidden >= 1, classes >= 2, dropout in [0, 1)");
  }
  SeededRandomSource rng(seed);
  GraphGcnModel m;
  m.config_ = c;
  m.first_ = LinearLayer("gcn.0", c.input_dim, c.hidden, rng);
  m.second_ = LinearLayer("gcn.1", c.hidden, c.classes, rng);
  return m;
}

Tape::Var GraphGcnModel::NodeScores(Tape& tape, const GraphBatch& batch, Tape::Var x) {
  // A (x W) + b: the product first, so the aggregation runs on the narrow side.
  Tape::Var h = first_.AddBias(tape, tape.Aggregate(&batch.agg, &batch.agg_t, first_.Product(tape, x)));
  h = tape.Dropout(tape.Relu(h), config_.dropout);
  return second_.AddBias(tape, tape.Aggregate(&batch.agg, &batch.agg_t, second_.Product(tape, h)));
}

Tape::Var GraphGcnModel::Forward(Tape& tape, const GraphBatch& batch, Tape::Var x) {
  return tape.Pool(&batch.offsets, NodeScores(tape, batch, x), true);
}

std::vector<Parameter*> GraphGcnModel::Parameters() {
  std::vector<Parameter*> params;
  first_.Collect(&params);
  second_.Collect(&params);
  return params;
}

}  // namespace ldpgraph
