// The O(d + K) sampler behind DPRR and RR.
#ifndef LDPGRAPH_INTERNAL_SPARSE_RR_H_
#define LDPGRAPH_INTERNAL_SPARSE_RR_H_

#include <cstdint>
#include <vector>

#include "ldpgraph/random_source.h"
#include "ldpgraph/status.h"

namespace ldpgraph {
namespace internal {

// Per-bit randomization where a true neighbour's bit ends up 1 with
// probability `keep` and a non-neighbour's with probability `spurious`,
// every bit independently. Exactly that distribution, without touching the
// n bits: each true neighbour is kept by a Bernoulli(keep); the number of
// spurious ones is K ~ Binomial(n - 1 - d, spurious) and they are a uniform
// K-subset of the non-neighbours (every K-subset is equally likely under
// i.i.d. bits). `sorted` holds the true neighbours, strictly increasing,
// without `user`. Writes the output ids, increasing, into `out`.
Status SparseRandomizedResponse(RandomSource& rng, std::uint32_t n, std::uint32_t user,
                                const std::vector<std::uint32_t>& sorted, double keep,
                                double spurious, std::vector<std::uint32_t>* out);

}  // namespace internal
}  // namespace ldpgraph

#endif  // LDPGRAPH_INTERNAL_SPARSE_RR_H_
