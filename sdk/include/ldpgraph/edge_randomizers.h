// The one place that knows every edge mechanism: picks a graph policy's
// randomizer, and runs a randomizer's memoised form. The concrete mechanisms
// build on edge_mechanism.h alone, so this header stands above all of them.
#ifndef LDPGRAPH_EDGE_RANDOMIZERS_H_
#define LDPGRAPH_EDGE_RANDOMIZERS_H_

#include <cstdint>
#include <memory>

#include "ldpgraph/edge_mechanism.h"
#include "ldpgraph/permanent_coins.h"

namespace ldpgraph {

// Builds the randomizer `policy` names for a graph of `num_users` users.
// Errors: those of the concrete factories (kInvalidArgument).
Result<std::unique_ptr<EdgeRandomizer>> MakeEdgeRandomizer(std::uint32_t num_users,
                                                           const EdgePolicy& policy);

// The memoised form of `randomizer`'s Perturb() (docs/rounds.md): the same
// output distribution in any one round, with every random choice a
// permanent coin named by what it perturbs, so an unchanged list gives the
// same output in every round and a change moves only what it touches.
// Errors: Perturb()'s. Each mechanism's own PerturbMemoised() does the work;
// this dispatch (not a virtual, and in its own source file) keeps it out of
// images that never memoise.
Status PerturbMemoised(const EdgeRandomizer& randomizer, std::uint32_t user, Span<const std::uint32_t> neighbours,
                       const PermanentCoins& coins, NoisyEdges* out);

}  // namespace ldpgraph

#endif  // LDPGRAPH_EDGE_RANDOMIZERS_H_
