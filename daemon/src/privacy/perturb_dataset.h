// Perturbs every user of every graph of a dataset as her device would, with
// the SDK's own mechanisms in-process: the same code the phones run.
#ifndef LDPGRAPH_DAEMON_PRIVACY_PERTURB_DATASET_H_
#define LDPGRAPH_DAEMON_PRIVACY_PERTURB_DATASET_H_

#include <cstdint>
#include <functional>
#include <string>

#include "dataset/graph_dataset.h"
#include "ldpgraph/edge_mechanism.h"

namespace ldpgraph {

struct PerturbOptions {
  EdgeMechanism mechanism = EdgeMechanism::kDprr;
  BudgetAllocation allocation = BudgetAllocation::kPaper;
  double epsilon = 1.0;
  // Fraction of each graph's users (chosen uniformly) who send their true list.
  double non_private_fraction = 0.0;
  // Server side, row-stacking mechanisms only: replace what private users
  // reported about non-private users by the non-private users' own lists
  // (graph/disclosed_lists.h). The reports, and so the draws, are unchanged.
  bool use_disclosed_lists = false;
  bool seeded = false;  // false: the OS CSPRNG
  std::uint64_t seed = 0;
  std::uint32_t n_max = 0;  // 0: the largest graph of the dataset
  std::uint32_t locallap_resolution = 16;
  // Called after each graph with (graphs done, graphs total).
  std::function<void(std::size_t, std::size_t)> progress;
};

// The names ParsePerturbMechanism takes, for messages.
extern const char* const kPerturbMechanisms;

// Sets options->mechanism and options->allocation from a mechanism's name,
// the one place these names are read: "none", "dprr" (eq. 8), "dprr-fixed"
// (eps1 = epsilon / 10, the reference code), "dprr-disclosed" (dprr, then
// the non-private users' true lists put in), "rr", "locallap" (eps1 =
// epsilon / 10, as the paper defines LocalLap).
// Errors: kInvalidArgument naming the unknown mechanism and the choices.
Status ParsePerturbMechanism(const std::string& name, PerturbOptions* options);

struct PerturbSummary {
  std::uint64_t graphs = 0;
  std::uint64_t users = 0;
  std::uint64_t non_private_users = 0;
  std::uint64_t true_edges = 0;   // row entries before (each undirected edge twice)
  std::uint64_t noisy_edges = 0;  // row entries after
  double seconds = 0;
};

// Returns the noisy dataset: same format, names and labels; rows as the
// users reported them (directed), except LocalLap whose server step outputs
// an undirected graph. Errors: the mechanisms' (e.g. an epsilon too small for
// eq. 8 with this n_max), kInvalidArgument for a fraction outside [0, 1].
Result<GraphDataset> PerturbDataset(const GraphDataset& input, const PerturbOptions& options,
                                    PerturbSummary* summary);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_PRIVACY_PERTURB_DATASET_H_
