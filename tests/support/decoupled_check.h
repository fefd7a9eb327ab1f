// The largest difference between a GCN's class scores on the whole graph
// and the same model's computed by the parties of `party_of` together
// (federation/decoupled_gcn.h): 0 up to float rounding if the decoupling is
// right. Shared by the unit test (synthetic graphs) and the Cora test.
#ifndef LDPGRAPH_TESTS_SUPPORT_DECOUPLED_CHECK_H_
#define LDPGRAPH_TESTS_SUPPORT_DECOUPLED_CHECK_H_

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/tape.h"
#include "federation/decoupled_gcn.h"
#include "graph/graph_batch.h"
#include "models/node_gnn.h"

namespace ldpgraph {
namespace testing {

inline double DecoupledGcnGap(const CsrGraph& graph, const Matrix& x, const std::vector<int>& party_of, int parties,
                              bool selu, int hidden, int classes, std::uint64_t seed) {
  NodeGnnConfig c;
  c.kind = NodeGnnKind::kGcn;
  c.input_dim = static_cast<int>(x.cols());
  c.hidden = hidden;
  c.classes = classes;
  c.selu = selu;
  Result<NodeGnnModel> model = NodeGnnModel::Create(c, seed);
  REQUIRE(model.ok());
  const PreparedGraph prepared = PrepareGraph(graph, Aggregation::kGcn);
  const NodeFeatures features = NodeFeatures::Dense(x);
  Tape tape(false, nullptr);  // evaluation: no dropout
  const Matrix whole = tape.value(model->Forward(tape, prepared, features));

  Result<std::vector<PartyGraph>> split = DecoupleGraph(graph, party_of, parties);
  REQUIRE(split.ok());
  std::vector<Matrix> local;
  for (const PartyGraph& p : *split) {
    Matrix rows(static_cast<Eigen::Index>(p.num_users()), x.cols());
    for (std::uint32_t v = 0; v < p.num_users(); ++v) rows.row(v) = x.row(p.users[v]);
    local.push_back(std::move(rows));
  }
  const auto params = model->Parameters();  // weight, bias per layer
  std::vector<const Matrix*> weights, biases;
  for (std::size_t k = 0; k < params.size(); k += 2) {
    weights.push_back(&params[k]->value);
    biases.push_back(&params[k + 1]->value);
  }
  Result<std::vector<Matrix>> scores = DecoupledGcnForward(*split, local, weights, biases, selu);
  REQUIRE(scores.ok());
  double gap = 0;
  for (std::size_t p = 0; p < split->size(); ++p) {
    const PartyGraph& party = (*split)[p];
    for (std::uint32_t v = 0; v < party.num_users(); ++v) {
      gap = std::max(gap, static_cast<double>((whole.row(party.users[v]) - (*scores)[p].row(v)).cwiseAbs().maxCoeff()));
    }
  }
  return gap;
}

}  // namespace testing
}  // namespace ldpgraph

#endif  // LDPGRAPH_TESTS_SUPPORT_DECOUPLED_CHECK_H_
