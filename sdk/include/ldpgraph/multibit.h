// LPGNN's multi-bit mechanism for node features (Sajadmanesh and
// Gatica-Perez): the device encodes (MultiBitEncoder), the server rectifies
// (MultiBitRectifier). Features x in [lo, hi]^d; epsilon-LDP for the whole
// feature vector.
//
// Encoder: m = max(1, min(d, floor(eps / 2.18))) dimensions are sampled
// uniformly without replacement; each sampled i sends the sign 2t - 1 with
// t ~ Bernoulli(1/(e^(eps/m) + 1) + (x_i - lo)/(hi - lo) * (e^(eps/m) - 1)/(e^(eps/m) + 1)).
// Rectifier (unbiased): x'_i = d (hi - lo) / (2m) * (e^(eps/m) + 1)/(e^(eps/m) - 1) * x*_i + (lo + hi)/2.
// Thread-safety: immutable after creation; concurrent calls are safe with
// distinct RandomSources and outputs.
#ifndef LDPGRAPH_MULTIBIT_H_
#define LDPGRAPH_MULTIBIT_H_

#include <cstdint>
#include <vector>

#include "ldpgraph/permanent_coins.h"
#include "ldpgraph/random_source.h"
#include "ldpgraph/span.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

struct FeatureRange {
  double lo = 0.0;
  double hi = 1.0;
};

// One sampled dimension on the wire: its index and the sign x*_i in {-1, +1}.
struct EncodedFeature {
  std::uint32_t index = 0;
  std::int8_t sign = 1;
  bool operator==(const EncodedFeature& o) const { return index == o.index && sign == o.sign; }
};

// The public parameters both sides share. `ranges` holds one range for all
// dimensions or one per dimension.
struct MultiBitParams {
  std::uint32_t dims = 0;
  double epsilon = 1.0;
  std::vector<FeatureRange> ranges = {FeatureRange{}};
  // How many dimensions are sampled: 0 for LPGNN's rule below; otherwise
  // this many (GW-LDP fixes m itself and spreads epsilon over a matrix,
  // embedding_encoder.h).
  std::uint32_t sampled_dims = 0;

  // Errors: kInvalidArgument for dims = 0 or > 2^24, a bad epsilon, a range
  // count other than 1 or dims, a range with lo >= hi or a non-finite end,
  // or sampled_dims > dims.
  Status Validate() const;
  // m = sampled_dims if set, else max(1, min(d, floor(eps / 2.18))).
  std::uint32_t SampledDims() const;
  const FeatureRange& RangeOf(std::uint32_t i) const { return ranges.size() == 1 ? ranges[0] : ranges[i]; }
};

class MultiBitEncoder {
 public:
  static Result<MultiBitEncoder> Create(MultiBitParams params);
  MultiBitEncoder() = default;  // only for Result<>; use Create()

  // Encodes `x` (exactly dims values, each finite and in its range) into m
  // pairs, increasing by index, written to `out`. Errors: kInvalidArgument for
  // a wrong length or a NaN value, kOutOfRange for a value outside its range;
  // on error no randomness is used.
  Status Encode(Span<const double> x, RandomSource& rng, std::vector<EncodedFeature>* out) const;
  // The memoised form (docs/rounds.md): the sampled dimensions are a
  // permanent choice (kFeatureDims), and dimension i's sign a permanent coin
  // of (i, x_i) (kFeatureSign), so an unchanged value sends the same sign
  // every round. Errors: Encode()'s.
  Status EncodeMemoised(Span<const double> x, const PermanentCoins& coins, std::vector<EncodedFeature>* out) const;
  // The dimensions EncodeMemoised() sends (increasing): where its signs come from.
  std::vector<std::uint32_t> MemoisedDims(const PermanentCoins& coins) const;
  // The 64 bits that name the coin of value x (-0 and +0 are one value).
  static std::uint64_t ValueBits(double x);
  // The input checks of Encode(), without encoding.
  Status CheckInput(Span<const double> x) const;

  const MultiBitParams& params() const { return params_; }
  std::uint32_t sampled_dims() const { return m_; }
  // Pr[t = 1] for a value x of dimension i (what Encode draws with).
  double SignProbability(std::uint32_t i, double x) const;

 private:
  MultiBitParams params_;
  std::uint32_t m_ = 1;
  double e_ = 1.0;  // e^(eps/m)
};

class MultiBitRectifier {
 public:
  static Result<MultiBitRectifier> Create(MultiBitParams params);
  MultiBitRectifier() = default;  // only for Result<>; use Create()

  // Writes the unbiased estimate of all dims features into `out` (resized to
  // dims). Errors: kInvalidArgument if the pairs are not exactly m, strictly
  // increasing by index, each < dims with sign +1 or -1.
  Status Rectify(Span<const EncodedFeature> encoded, std::vector<double>* out) const;
  // The same estimate in its sparse form: Midpoint(i) for every dimension,
  // plus out[k] (resized to m) at dimension encoded[k].index. A server
  // holding many users' features keeps m values a user, not dims. Errors:
  // Rectify's.
  Status RectifyDeviations(Span<const EncodedFeature> encoded, std::vector<double>* out) const;
  double Midpoint(std::uint32_t i) const;  // (lo + hi) / 2 of dimension i

 private:
  Status Check(Span<const EncodedFeature> encoded) const;


  MultiBitParams params_;
  std::uint32_t m_ = 1;
  double scale_ = 1.0;  // d / (2m) * (e + 1)/(e - 1); times (hi - lo) per dimension
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_MULTIBIT_H_
