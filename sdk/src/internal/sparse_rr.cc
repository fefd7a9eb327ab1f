#include "internal/sparse_rr.h"

#include <algorithm>

#include "ldpgraph/samplers.h"

namespace ldpgraph {
namespace internal {

Status SparseRandomizedResponse(RandomSource& rng, std::uint32_t n, std::uint32_t user,
                                const std::vector<std::uint32_t>& sorted, double keep,
                                double spurious, std::vector<std::uint32_t>* out) {
  out->clear();
  out->reserve(sorted.size());
  for (std::uint32_t v : sorted) {
    if (Bernoulli(rng, keep)) out->push_back(v);
  }
  const std::size_t kept = out->size();
  const std::uint64_t non_neighbours = static_cast<std::uint64_t>(n) - 1 - sorted.size();
  const std::uint64_t k = Binomial(rng, non_neighbours, spurious);
  if (k == 0) return Status::Ok();
  // The output's final size, allocated once: growing by doubling would leave
  // a microcontroller's arena with holes the size of the report.
  out->reserve(kept + k);

  // The values to avoid: the true neighbours and the user herself, sorted.
  std::vector<std::uint32_t> avoid;
  avoid.reserve(sorted.size() + 1);
  const auto split = std::lower_bound(sorted.begin(), sorted.end(), user);
  avoid.insert(avoid.end(), sorted.begin(), split);
  avoid.push_back(user);
  avoid.insert(avoid.end(), split, sorted.end());

  LDPGRAPH_RETURN_IF_ERROR(SampleSubsetAvoiding(rng, n, avoid, k, out));
  std::inplace_merge(out->begin(), out->begin() + static_cast<std::ptrdiff_t>(kept), out->end());
  return Status::Ok();
}

}  // namespace internal
}  // namespace ldpgraph
