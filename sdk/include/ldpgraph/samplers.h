// Exact samplers on top of a RandomSource.
//
// "Exact" means the algorithm's output distribution is the stated one, not an
// approximation of it (no normal approximation to the binomial, no rounding of
// a continuous Laplace). Integer-valued noise is sampled from integer
// arithmetic only; see DiscreteLaplace for why that matters.
// Thread-safety: free functions; as thread-safe as the RandomSource passed in.
#ifndef LDPGRAPH_SAMPLERS_H_
#define LDPGRAPH_SAMPLERS_H_

#include <cstdint>
#include <vector>

#include "ldpgraph/random_source.h"
#include "ldpgraph/span.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

// Uniform integer in [0, bound). Requires bound >= 1. Unbiased (rejection).
std::uint64_t UniformBelow(RandomSource& rng, std::uint64_t bound);

// Uniform double in [0, 1) with 53 random bits.
double UniformUnit(RandomSource& rng);

// True with probability exactly p (the real number the double p denotes):
// the random bits are compared lazily with p's finite binary expansion.
// p <= 0 (or NaN) gives false, p >= 1 gives true.
bool Bernoulli(RandomSource& rng, double p);

// Binomial(n, p) for n up to 2^63 without O(n) work: inversion (BINV) when
// n*min(p,1-p) < 10, otherwise Hormann's transformed rejection with
// decomposition (BTRD, 1993), an exact rejection sampler whose expected cost
// is O(1). p outside [0, 1] is clamped; NaN gives 0.
std::uint64_t Binomial(RandomSource& rng, std::uint64_t n, double p);

// Appends to `out`, in increasing order, k distinct values drawn uniformly
// from [0, n) minus `avoid`. `avoid` must be strictly increasing with every
// element < n. Expected cost O(k log k + |avoid|) when 2k <= n - |avoid|, and
// O(n - |avoid|) otherwise; memory O(k).
// Errors: kInvalidArgument if avoid is unsorted or out of range or k exceeds
// the number of values available.
Status SampleSubsetAvoiding(RandomSource& rng, std::uint32_t n, Span<const std::uint32_t> avoid,
                            std::uint64_t k, std::vector<std::uint32_t>* out);

// The discrete Laplace (two-sided geometric) distribution on the integers,
// Pr[X = x] proportional to exp(-epsilon * |x|): adding it to an integer of
// sensitivity 1 gives epsilon-DP.
//
// Why not the textbook -b*log(u): a floating-point Laplace sample has gaps and
// uneven spacing in its low bits, and which doubles can occur depends on the
// true value, so the noisy output can reveal the input exactly (Mironov,
// "On significance of the least significant bits for differential privacy",
// CCS 2012). This sampler uses integer arithmetic only (Canonne, Kamath and
// Steinke, "The discrete Gaussian for differential privacy", NeurIPS 2020,
// Algorithms 1 and 2).
//
// epsilon is rounded DOWN to a multiple of 2^-32 so that every step is an
// exact integer operation; rounding down only adds noise (the guarantee holds
// for the epsilon asked for). Construct with Create(), which rejects NaN,
// infinite, non-positive and below-2^-32 epsilon.
class DiscreteLaplace {
 public:
  static Result<DiscreteLaplace> Create(double epsilon);
  DiscreteLaplace() = default;  // only for Result<>; use Create()

  std::int64_t Sample(RandomSource& rng) const;
  // The epsilon actually used: <= the requested one, within 2^-32.
  double effective_epsilon() const;

 private:
  explicit DiscreteLaplace(std::uint64_t numerator) : numerator_(numerator) {}
  std::uint64_t numerator_ = 1;  // epsilon = numerator_ / 2^32
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_SAMPLERS_H_
