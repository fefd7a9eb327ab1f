// The edge randomizers a device runs on its owner's neighbour list, and what
// they output. Concrete mechanisms: dprr.h, rr_with_degree.h,
// randomized_response.h, local_lap.h, non_private.h; edge_randomizers.h picks
// one from a policy.
#ifndef LDPGRAPH_EDGE_MECHANISM_H_
#define LDPGRAPH_EDGE_MECHANISM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ldpgraph/permanent_coins.h"
#include "ldpgraph/random_source.h"
#include "ldpgraph/span.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

// Wire values: never renumber.
enum class EdgeMechanism : std::uint8_t {
  kNone = 0,      // non-private user: the true list (epsilon = infinity)
  kDprr = 1,      // degree-preserving randomized response (Hidano and Murakami, Alg. 1)
  kRr = 2,        // Warner's randomized response on every bit
  kLocalLap = 3,  // noisy degree and a noisy value per bit (client part of LocalLap)
  kRrDegree = 4,  // RR on every bit and the noisy degree (Blink's report; rr_with_degree.h)
};

// How DPRR (and LocalLap) split epsilon into eps1 (degree) and eps2 (bits).
enum class BudgetAllocation : std::uint8_t {
  kPaper = 0,  // eq. 8: eps1 = max(sqrt(8 / (n_max - 1)), (1 - 0.9) epsilon)
  kFixed = 1,  // eps1 = epsilon / 10, as the DPRR reference code does
};

// "none", "dprr", "rr", "locallap", "rr-degree".
const char* EdgeMechanismName(EdgeMechanism mechanism);
Result<EdgeMechanism> ParseEdgeMechanism(const std::string& name);
// "paper", "fixed".
const char* BudgetAllocationName(BudgetAllocation allocation);
Result<BudgetAllocation> ParseBudgetAllocation(const std::string& name);

// What a device's edge randomizer produces. Which fields are meaningful
// depends on `mechanism`; the others keep their defaults.
struct NoisyEdges {
  EdgeMechanism mechanism = EdgeMechanism::kNone;
  BudgetAllocation allocation = BudgetAllocation::kPaper;
  double epsilon = 0;  // total edge epsilon; +infinity for kNone
  double eps1 = 0;     // DPRR, LocalLap, RR with degree: spent on the degree
  double eps2 = 0;     // DPRR, LocalLap, RR with degree: spent on the bits
  double p = 1;        // DPRR, RR, RR with degree: probability that RR keeps a bit
  double q = 1;        // DPRR: edge sampling probability (eq. 5 with the clamps)
  // DPRR, RR, RR with degree, kNone: the reported neighbour ids, strictly increasing.
  std::vector<std::uint32_t> neighbours;
  // LocalLap, RR with degree: d + DiscreteLaplace(eps1), unclamped.
  std::int64_t noisy_degree = 0;
  // LocalLap: values are on a lattice of 1/resolution: value_j =
  // resolution * a_j + DiscreteLaplace(eps2 / resolution), which is eps2-DP per bit.
  std::uint32_t resolution = 1;
  // LocalLap: one value per other user j != user, in increasing j (n - 1 values).
  std::vector<std::int64_t> values;
};

// An edge randomizer bound to one graph of n users and one privacy setting.
// Thread-safety: immutable after creation; Perturb() may run concurrently
// with distinct RandomSources and outputs.
class EdgeRandomizer {
 public:
  virtual ~EdgeRandomizer() = default;

  // Randomizes the neighbour list of `user`. `neighbours` may be in any order;
  // ids must be < n, distinct and != user. `out` is overwritten; its buffers
  // are reused, so calling in a loop with one NoisyEdges allocates little.
  // Memory O(d + output). Errors: kOutOfRange (user or id >= n),
  // kInvalidArgument (duplicate id, or the user in her own list). On error no
  // randomness has been used and `out` is unspecified.
  virtual Status Perturb(std::uint32_t user, Span<const std::uint32_t> neighbours,
                         RandomSource& rng, NoisyEdges* out) const = 0;

  virtual EdgeMechanism mechanism() const = 0;
  virtual std::uint32_t num_users() const = 0;
  // The largest number of neighbour ids Perturb() can output (n - 1).
  std::uint32_t max_output_neighbours() const { return num_users() - 1; }
};

// A graph's public edge policy: what every device of that graph runs.
struct EdgePolicy {
  EdgeMechanism mechanism = EdgeMechanism::kDprr;
  double epsilon = 1.0;                                // ignored for kNone
  BudgetAllocation allocation = BudgetAllocation::kPaper;
  std::uint32_t n_max = 0;                             // largest graph of the deployment; 0 = n
  std::uint32_t locallap_resolution = 16;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_EDGE_MECHANISM_H_
