// LinkTeller (Wu et al., "LinkTeller: recovering private edges from graph
// neural networks via influence analysis", IEEE S&P 2022): an attacker who
// may query a node model with features of her choosing scales one user's
// features by 1 + delta and watches how the other users' predictions move.
// In a GCN a friend's prediction reads the user's features directly, a
// stranger's at most through a friend in common: the influence
//   I(u -> v) = || p_v(X with row u scaled) - p_v(X) ||_1 / delta
// ranks u's friends first. A model trained on private edges answers such
// queries only if its graph is released with it; GAP's and the denoised
// graphs' models hold their predictions instead and cannot be probed.
#ifndef LDPGRAPH_DAEMON_AUDIT_LINK_TELLER_H_
#define LDPGRAPH_DAEMON_AUDIT_LINK_TELLER_H_

#include <cstdint>
#include <vector>

#include "audit/link_stealing.h"
#include "ldpgraph/status.h"
#include "models/node_gnn.h"
#include "train/task_data.h"

namespace ldpgraph {

class InfluenceProbe {
 public:
  // `model` must outlive the probe; `data` is the graph and features it is
  // queried on. Errors: kInvalidArgument for delta not in (0, 1] or
  // features of another width than the model's.
  static Result<InfluenceProbe> Create(NodeGnnModel* model, NodeTaskData data, double delta);
  InfluenceProbe() = default;  // empty; Create makes a working one

  // I(u -> v) for every v of `targets`: one query of the whole graph.
  std::vector<double> Influence(std::uint32_t u, const std::vector<std::uint32_t>& targets);
  // What the model predicts for every user on the true features.
  const Matrix& probabilities() const { return base_; }

 private:
  Matrix Probabilities();
  void ScaleRow(std::uint32_t u, float factor);

  NodeGnnModel* model_ = nullptr;
  NodeTaskData data_;
  double delta_ = 0;
  Matrix base_;  // the unperturbed probabilities
};

// The attack on `graph` (symmetric, the probe's): at most `max_edges`
// edges, each against a non-edge of the same first user, one query per
// edge. Errors: SampleLinkPairs'.
Result<LinkAttackResult> LinkTellerAuc(InfluenceProbe& probe, const CsrGraph& graph, std::uint64_t max_edges,
                                       std::uint64_t seed);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_AUDIT_LINK_TELLER_H_
