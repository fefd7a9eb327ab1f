// The dispatch to each mechanism's memoised form (edge_randomizers.h).
#include "ldpgraph/dprr.h"
#include "ldpgraph/edge_randomizers.h"
#include "ldpgraph/local_lap.h"
#include "ldpgraph/non_private.h"
#include "ldpgraph/randomized_response.h"
#include "ldpgraph/rr_with_degree.h"

namespace ldpgraph {

Status PerturbMemoised(const EdgeRandomizer& randomizer, std::uint32_t user, Span<const std::uint32_t> neighbours,
                       const PermanentCoins& coins, NoisyEdges* out) {
  // mechanism() names the concrete class: MakeEdgeRandomizer() builds one per value.
  switch (randomizer.mechanism()) {
    case EdgeMechanism::kNone:
      return static_cast<const NonPrivateEdges&>(randomizer).PerturbMemoised(user, neighbours, coins, out);
    case EdgeMechanism::kDprr:
      return static_cast<const Dprr&>(randomizer).PerturbMemoised(user, neighbours, coins, out);
    case EdgeMechanism::kRr:
      return static_cast<const RandomizedResponse&>(randomizer).PerturbMemoised(user, neighbours, coins, out);
    case EdgeMechanism::kLocalLap:
      return static_cast<const LocalLapClient&>(randomizer).PerturbMemoised(user, neighbours, coins, out);
    case EdgeMechanism::kRrDegree:
      return static_cast<const RrWithDegree&>(randomizer).PerturbMemoised(user, neighbours, coins, out);
  }
  return Status::InvalidArgument("unknown edge mechanism value " +
                                 std::to_string(static_cast<int>(randomizer.mechanism())));
}

}  // namespace ldpgraph
