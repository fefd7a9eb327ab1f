#include "models/node_gnn.h"

#include <string>

namespace ldpgraph {

Aggregation AggregationFor(NodeGnnKind kind) {
  return kind == NodeGnnKind::kGcn ? Aggregation::kGcn : Aggregation::kMean;
}

Tape::Var KProp(Tape& tape, const PreparedGraph& graph, Tape::Var x, int steps) {
  for (int k = 0; k < steps; ++k) x = tape.Aggregate(&graph.agg, &graph.agg_t, x);
  return x;
}

namespace {

// Dense features as a tape constant: held ones in place; borrowed ones
// (NodeFeatures::DenseView) copied, since the tape's constants are
// matrices. Only in-model KProp and inputs narrower than the first layer
// come here, and both make a matrix of the same size right after.
Tape::Var DenseConstant(Tape& tape, const NodeFeatures& x) {
  return x.is_view() ? tape.Constant(Matrix(x.dense())) : tape.ConstantView(&x.dense_matrix());
}

}  // namespace

Result<NodeGnnModel> NodeGnnModel::Create(const NodeGnnConfig& c, std::uint64_t seed) {
  if (c.kprop_steps < 0) return Status::InvalidArgument("KProp steps must be >= 0");
  if (c.layers < 1 || c.hidden < 1 || c.classes < 2 || c.input_dim < 1 || !(c.dropout >= 0 && c.dropout < 1)) {
    return Status::InvalidArgument("node GNN needs layers >= 1, hidden >= 1, classes >= 2, input_dim >= 1, "
                                   "dropout in [0, 1)");
  }
  if (c.kind != NodeGnnKind::kGcn && c.kind != NodeGnnKind::kSage) {
    return Status::InvalidArgument("unknown node GNN kind");
  }
  SeededRandomSource rng(seed);
  NodeGnnModel m;
  m.config_ = c;
  for (int k = 0; k < c.layers; ++k) {
    const int in = k == 0 ? c.input_dim : c.hidden;
    const int out = k + 1 == c.layers ? c.classes : c.hidden;
    const std::string p = "conv." + std::to_string(k);
    m.root_.emplace_back(p + (c.kind == NodeGnnKind::kSage ? ".root" : ".lin"), in, out, rng);
    if (c.kind == NodeGnnKind::kSage) m.neigh_.emplace_back(p + ".neigh", in, out, rng);
  }
  return m;
}

Tape::Var NodeGnnModel::Forward(Tape& tape, const PreparedGraph& graph, const NodeFeatures& x,
                                const PreparedGraph* kprop_graph, PropagatedProductCache* cache) {
  if (config_.kprop_steps > 0) {
    if (x.is_factored()) return Forward(tape, graph, tape.Constant(x.ToDense()), kprop_graph);
    if (!x.is_sparse()) return Forward(tape, graph, DenseConstant(tape, x), kprop_graph);
    // In-model KProp of sparse features: dense from the first step on (the
    // pipelines propagate features once, before training, instead).
    const PreparedGraph& prop = kprop_graph != nullptr ? *kprop_graph : graph;
    Matrix first;
    SpMM(prop.agg, x.sparse(), &first);
    Tape::Var h = KProp(tape, prop, tape.Constant(std::move(first)), config_.kprop_steps - 1);
    return Convolutions(tape, graph, h, nullptr, nullptr);
  }
  // A dense input narrower than the first layer's output is aggregated before its product.
  if (!x.is_sparse() && !x.is_factored() && root_[0].out() >= root_[0].in()) {
    return Convolutions(tape, graph, DenseConstant(tape, x), nullptr, nullptr);
  }
  return Convolutions(tape, graph, Tape::kNone, &x, cache);
}

Tape::Var NodeGnnModel::Forward(Tape& tape, const PreparedGraph& graph, Tape::Var x,
                                const PreparedGraph* kprop_graph) {
  Tape::Var h = KProp(tape, kprop_graph != nullptr ? *kprop_graph : graph, x, config_.kprop_steps);
  return Convolutions(tape, graph, h, nullptr, nullptr);
}

Tape::Var NodeGnnModel::Convolutions(Tape& tape, const PreparedGraph& graph, Tape::Var h, const NodeFeatures* input,
                                     PropagatedProductCache* cache) {
  auto aggregate = [&](Tape::Var v) { return tape.Aggregate(&graph.agg, &graph.agg_t, v); };
  for (std::size_t k = 0; k < root_.size(); ++k) {
    // The features themselves: read only by the layer's products, never copied or made dense.
    const bool from_input = k == 0 && input != nullptr;
    Tape::InputVar x = Tape::kNone;
    if (from_input) {
      x = input->is_factored() ? tape.Input(&input->factored().sparse, 0.0f)  // dropped after its product
          : input->is_sparse() ? tape.Input(&input->sparse(), config_.dropout)
                               : tape.Input(input->dense(), config_.dropout);
    } else {
      if (k > 0) h = config_.selu ? tape.Selu(h) : tape.Relu(h);
      h = tape.Dropout(h, config_.dropout);
    }
    auto product = [&](LinearLayer& layer, int slot) {
      if (!from_input) return layer.Product(tape, h);
      if (!input->is_factored()) return layer.InputProduct(tape, x);
      // Dropout cannot fall on the n x d inputs, which are never made: it
      // falls on the product's units. Not on the reported entries before
      // KProp: after k steps a standardised column is as sensitive to any
      // one report as to the signal, and training on such inputs fails at
      // large k (GraphSAGE, kx 16, a 22,470-user social graph: 0.26 against
      // the dense path's 0.82; units only: 0.82). Neither does Gaussian
      // noise of dense dropout's variance (0.39).
      PropagatedProductCache::Entry* kept = cache != nullptr ? &cache->slot(slot) : nullptr;
      return tape.Dropout(layer.FactoredProduct(tape, x, input->factored(), kept), config_.dropout);
    };
    // A h W = A (h W): aggregate the narrower of h and h W.
    const bool aggregate_after = from_input || root_[k].out() < root_[k].in();
    if (config_.kind == NodeGnnKind::kGcn) {
      h = aggregate_after ? root_[k].AddBias(tape, aggregate(product(root_[k], 0)))
                          : root_[k].Forward(tape, aggregate(h));
      continue;
    }
    Tape::Var self = from_input ? root_[k].AddBias(tape, product(root_[k], 0)) : root_[k].Forward(tape, h);
    Tape::Var neighbours = aggregate_after ? neigh_[k].AddBias(tape, aggregate(product(neigh_[k], 1)))
                                           : neigh_[k].Forward(tape, aggregate(h));
    h = tape.Add(self, neighbours);
  }
  return h;
}

void NodeGnnModel::SetConstantScores(const std::vector<float>& scores) {
  for (Parameter* p : Parameters()) p->value.setZero();
  Matrix& bias = root_.back().bias()->value;
  for (Eigen::Index c = 0; c < bias.size(); ++c) bias(c) = scores[static_cast<std::size_t>(c)];
}

std::vector<Parameter*> NodeGnnModel::Parameters() {
  std::vector<Parameter*> params;
  for (std::size_t k = 0; k < root_.size(); ++k) {
    root_[k].Collect(&params);
    if (k < neigh_.size()) neigh_[k].Collect(&params);
  }
  return params;
}

}  // namespace ldpgraph
