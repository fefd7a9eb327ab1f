// Checks of FedCog (federation/) against the same computation on the whole
// graph, shared by the unit test (synthetic graphs) and the Cora test.
#ifndef LDPGRAPH_TESTS_SUPPORT_DECOUPLED_CHECK_H_
#define LDPGRAPH_TESTS_SUPPORT_DECOUPLED_CHECK_H_

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/tape.h"
#include "federation/decoupled_gcn.h"
#include "federation/federated_sgc.h"
#include "graph/graph_batch.h"
#include "models/node_gnn.h"

namespace ldpgraph {
namespace testing {

// Splits `graph` by `party_of` and each party's users' rows of `x`.
inline std::vector<PartyGraph> SplitParties(const CsrGraph& graph, const std::vector<int>& party_of, int parties) {
  Result<std::vector<PartyGraph>> split = DecoupleGraph(graph, party_of, parties);
  REQUIRE(split.ok());
  return std::move(split).value();
}

inline std::vector<Matrix> LocalRows(const std::vector<PartyGraph>& parties, const Matrix& x) {
  std::vector<Matrix> local;
  for (const PartyGraph& p : parties) {
    Matrix rows(static_cast<Eigen::Index>(p.num_users()), x.cols());
    for (std::uint32_t v = 0; v < p.num_users(); ++v) rows.row(v) = x.row(p.users[v]);
    local.push_back(std::move(rows));
  }
  return local;
}

// The largest difference between a GCN's class scores on the whole graph
// and the same model's computed by the parties of `party_of` together: 0 up
// to float rounding if the decoupling is right.
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

  const std::vector<PartyGraph> parts = SplitParties(graph, party_of, parties);
  const auto params = model->Parameters();  // weight, bias per layer
  std::vector<const Matrix*> weights, biases;
  for (std::size_t k = 0; k < params.size(); k += 2) {
    weights.push_back(&params[k]->value);
    biases.push_back(&params[k + 1]->value);
  }
  Result<std::vector<Matrix>> scores = DecoupledGcnForward(parts, LocalRows(parts, x), weights, biases, selu);
  REQUIRE(scores.ok());
  double gap = 0;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const PartyGraph& party = parts[p];
    for (std::uint32_t v = 0; v < party.num_users(); ++v) {
      gap = std::max(gap, static_cast<double>((whole.row(party.users[v]) - (*scores)[p].row(v)).cwiseAbs().maxCoeff()));
    }
  }
  return gap;
}

// FedCog-SGC's test accuracy with the users split by `party_of`, and the
// largest difference between the parties' propagated features and SGC's
// on the whole graph. `split` holds every user's 0 (train), 1 (validation)
// or 2 (test).
struct FederatedCheck {
  double propagation_gap = 0;
  FederatedSgcRun run;
};

inline FederatedCheck CheckFederatedSgc(const CsrGraph& graph, const Matrix& x, const std::vector<int>& labels,
                                        const std::vector<int>& split, const std::vector<int>& party_of, int parties,
                                        int classes, int steps, const FederatedSgcOptions& options) {
  const std::vector<PartyGraph> parts = SplitParties(graph, party_of, parties);
  Result<std::vector<Matrix>> propagated = DecoupledPropagate(parts, LocalRows(parts, x), steps);
  REQUIRE(propagated.ok());
  const PreparedGraph prepared = PrepareGraph(graph, Aggregation::kGcn);
  Matrix whole = x, next;
  for (int k = 0; k < steps; ++k) {
    SpMM(prepared.agg, whole, &next);
    whole.swap(next);
  }
  FederatedCheck check;
  std::vector<PartyTask> tasks(parts.size());
  for (std::size_t p = 0; p < parts.size(); ++p) {
    for (std::uint32_t v = 0; v < parts[p].num_users(); ++v) {
      const std::uint32_t u = parts[p].users[v];
      check.propagation_gap = std::max(
          check.propagation_gap, static_cast<double>((whole.row(u) - (*propagated)[p].row(v)).cwiseAbs().maxCoeff()));
      tasks[p].labels.push_back(labels[u]);
      (split[u] == 0 ? tasks[p].train : split[u] == 1 ? tasks[p].val : tasks[p].test).push_back(v);
    }
  }
  Result<FederatedSgcRun> run = TrainFederatedSgc(*propagated, tasks, classes, options);
  REQUIRE(run.ok());
  check.run = *run;
  return check;
}

}  // namespace testing
}  // namespace ldpgraph

#endif  // LDPGRAPH_TESTS_SUPPORT_DECOUPLED_CHECK_H_
