// Random graph generators for tests, benchmarks, the scaling experiments and
// the demo. All run in O(n + edges) using the SDK's exact samplers.
#ifndef LDPGRAPH_DAEMON_DATASET_GENERATORS_H_
#define LDPGRAPH_DAEMON_DATASET_GENERATORS_H_

#include <cstdint>
#include <vector>

#include "dataset/graph_dataset.h"
#include "ldpgraph/random_source.h"

namespace ldpgraph {

// Barabasi-Albert preferential attachment as NetworkX builds it: a star on
// m + 1 nodes, then each new node links to m distinct earlier nodes chosen
// with probability proportional to their degree. Requires 1 <= m < n.
CsrGraph BarabasiAlbert(std::uint32_t n, std::uint32_t m, RandomSource& rng);

// G(n, p): every pair independently with probability p.
CsrGraph ErdosRenyi(std::uint32_t n, double p, RandomSource& rng);

// Stochastic block model: blocks of the given sizes (nodes numbered block by
// block), pair probability probs[a][b] (symmetric) between blocks a and b.
CsrGraph StochasticBlockModel(const std::vector<std::uint32_t>& sizes,
                              const std::vector<std::vector<double>>& probs, RandomSource& rng);

struct SyntheticSpec {
  std::uint32_t graphs = 200;
  std::uint32_t min_nodes = 60;
  std::uint32_t max_nodes = 140;
  double mean_degree = 4.0;
};

// A graph-classification dataset with two kinds of community whose structure
// differs while their size and mean degree match: class 0 is preferential
// attachment (hubs, heavy-tailed degrees), class 1 a two-block stochastic
// block model (two dense groups, homogeneous degrees). s2v format.
GraphDataset SyntheticCommunities(const SyntheticSpec& spec, RandomSource& rng);

struct NodeDatasetSpec {
  std::uint32_t nodes = 10000;
  std::uint32_t classes = 4;
  double mean_degree = 10.0;
  // Fraction of a node's links inside its own community (the SBM's p_in
  // against p_out).
  double homophily = 0.6;
  std::uint32_t features = 500;  // 0: no features.csv
  std::uint32_t words = 10;      // draws per node (repeats merge): about this many non-zeros
  // Probability that a draw comes from the node's class's own block of
  // features[c F / C, (c+1) F / C) rather than from all F.
  double signal = 0.1;
  // Each class's share of the nodes (summing to 1); empty: equal shares.
  std::vector<double> class_shares;
  // Degree-corrected (0: the plain SBM, every node the same expected
  // degree): each node's expected degree drawn from a power law of this
  // exponent (> 2, so that the mean exists; social networks: 2-3), capped at
  // max_degree (0: n - 1), scaled to the mean degree.
  double degree_exponent = 0;
  std::uint32_t max_degree = 0;
  // Degree-corrected only: this fraction of the users (drawn at random)
  // pick friends regardless of class, as bridges between groups do; the
  // others keep to their class more, so the edge homophily stays about
  // `homophily` (as far as keeping to their class entirely allows). Those
  // the others pick still share their class, so about half of a bridge's
  // friends do. Without bridges every user's friends are alike in the same
  // proportion, and her class follows from theirs almost surely.
  double bridge_fraction = 0;
  // About this fraction of the users take a label drawn from the class
  // shares instead of their community's, while their friends and their
  // features still follow the community and the label respectively: pages
  // whose friends are of one kind while they are of another, whose class
  // cannot be read off their friends. A user is one with probability
  // inversely proportional to her degree + 1 (the few-friend users, as in
  // social networks, where the hubs that hold most edges keep the edge
  // homophily high).
  double misfit_fraction = 0;
};

// Whether `spec` can be generated; kInvalidArgument names what is wrong.
Status CheckNodeDatasetSpec(const NodeDatasetSpec& spec);

// A node-classification dataset (CSV format): a stochastic block model with
// one community per class (nodes numbered community by community), binary
// bag-of-words features and the community as the label (but for misfits,
// whose features follow their label). Degree-corrected,
// it is a Chung-Lu graph inside the blocks: each edge joins a node drawn
// in proportion to its weight to, with probability homophily, a node of its
// class, else one of another class, each again in proportion to weight; so
// degrees follow the weights and the edge homophily is about `homophily`.
// O(nodes * classes + edges + nodes * words). `spec` must pass
// CheckNodeDatasetSpec.
GraphDataset SyntheticNodeDataset(const NodeDatasetSpec& spec, RandomSource& rng);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_DATASET_GENERATORS_H_
