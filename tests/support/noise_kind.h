// One round's randomization done either way a device can: with fresh noise,
// or memoised under a fresh secret key drawn from the same source (as a new
// device's ledger does). In any one round both have the mechanism's law, so
// the statistical tier runs its checks both ways.
#ifndef LDPGRAPH_TESTS_SUPPORT_NOISE_KIND_H_
#define LDPGRAPH_TESTS_SUPPORT_NOISE_KIND_H_

#include <vector>

#include "ldpgraph/edge_mechanism.h"
#include "ldpgraph/edge_randomizers.h"
#include "ldpgraph/label_rr.h"
#include "ldpgraph/multibit.h"
#include "ldpgraph/permanent_coins.h"

namespace ldpgraph {
namespace testing {

enum class NoiseKind { kFresh, kMemoised };
inline const std::vector<NoiseKind> kBothNoiseKinds = {NoiseKind::kFresh, NoiseKind::kMemoised};

inline const char* NoiseKindName(NoiseKind kind) { return kind == NoiseKind::kFresh ? "fresh" : "memoised"; }

inline PermanentCoins FreshCoins(RandomSource& rng) {
  CoinKey key;
  rng.FillBytes(key.data(), key.size());
  return PermanentCoins(key);
}

inline Status PerturbAs(NoiseKind kind, const EdgeRandomizer& m, std::uint32_t user,
                        Span<const std::uint32_t> neighbours, RandomSource& rng, NoisyEdges* out) {
  if (kind == NoiseKind::kFresh) return m.Perturb(user, neighbours, rng, out);
  return PerturbMemoised(m, user, neighbours, FreshCoins(rng), out);
}

inline Status EncodeAs(NoiseKind kind, const MultiBitEncoder& e, Span<const double> x, RandomSource& rng,
                       std::vector<EncodedFeature>* out) {
  if (kind == NoiseKind::kFresh) return e.Encode(x, rng, out);
  return e.EncodeMemoised(x, FreshCoins(rng), out);
}

inline Result<std::uint32_t> PerturbLabelAs(NoiseKind kind, const LabelRandomizer& r, std::uint32_t label,
                                            RandomSource& rng) {
  if (kind == NoiseKind::kFresh) return r.Perturb(label, rng);
  return r.PerturbMemoised(label, FreshCoins(rng));
}

}  // namespace testing
}  // namespace ldpgraph

#endif  // LDPGRAPH_TESTS_SUPPORT_NOISE_KIND_H_
