#include "ldpgraph/multibit.h"

#include <cmath>
#include <cstring>
#include <string>

#include "internal/validation.h"
#include "ldpgraph/samplers.h"

namespace ldpgraph {
namespace {
constexpr std::uint32_t kMaxDims = 1u << 24;
}  // namespace

Status MultiBitParams::Validate() const {
  if (dims == 0 || dims > kMaxDims) {
    return Status::InvalidArgument("feature dims must be in [1, 2^24], got " +
                                   std::to_string(dims));
  }
  LDPGRAPH_RETURN_IF_ERROR(internal::CheckEpsilon(epsilon, "feature epsilon"));
  if (ranges.size() != 1 && ranges.size() != dims) {
    return Status::InvalidArgument("feature ranges: expected 1 or " + std::to_string(dims) +
                                   ", got " + std::to_string(ranges.size()));
  }
  if (sampled_dims > dims) {
    return Status::InvalidArgument("sampled dims " + std::to_string(sampled_dims) + " exceed the " +
                                   std::to_string(dims) + " feature dims");
  }
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    const FeatureRange& r = ranges[i];
    if (!std::isfinite(r.lo) || !std::isfinite(r.hi) || !(r.lo < r.hi)) {
      return Status::InvalidArgument("feature range " + std::to_string(i) + " = [" +
                                     internal::FormatDouble(r.lo) + ", " +
                                     internal::FormatDouble(r.hi) +
                                     "] must be finite with lo < hi");
    }
  }
  return Status::Ok();
}

std::uint32_t MultiBitParams::SampledDims() const {
  if (sampled_dims != 0) return sampled_dims;
  const double m = std::floor(epsilon / 2.18);
  if (m < 1.0) return 1;
  if (m >= static_cast<double>(dims)) return dims;
  return static_cast<std::uint32_t>(m);
}

Result<MultiBitEncoder> MultiBitEncoder::Create(MultiBitParams params) {
  LDPGRAPH_RETURN_IF_ERROR(params.Validate());
  MultiBitEncoder e;
  e.m_ = params.SampledDims();
  e.e_ = std::exp(params.epsilon / e.m_);
  e.params_ = std::move(params);
  return e;
}

double MultiBitEncoder::SignProbability(std::uint32_t i, double x) const {
  const FeatureRange& r = params_.RangeOf(i);
  return 1.0 / (e_ + 1.0) + (x - r.lo) / (r.hi - r.lo) * (e_ - 1.0) / (e_ + 1.0);
}

Status MultiBitEncoder::CheckInput(Span<const double> x) const {
  if (x.size() != params_.dims) {
    return Status::InvalidArgument("expected " + std::to_string(params_.dims) +
                                   " feature values, got " + std::to_string(x.size()));
  }
  for (std::uint32_t i = 0; i < params_.dims; ++i) {
    const FeatureRange& r = params_.RangeOf(i);
    if (std::isnan(x[i])) {
      return Status::InvalidArgument("feature " + std::to_string(i) + " is NaN");
    }
    if (x[i] < r.lo || x[i] > r.hi) {
      return Status::OutOfRange("feature " + std::to_string(i) + " = " +
                                internal::FormatDouble(x[i]) + " is outside [" +
                                internal::FormatDouble(r.lo) + ", " +
                                internal::FormatDouble(r.hi) + "]");
    }
  }
  return Status::Ok();
}

Status MultiBitEncoder::Encode(Span<const double> x, RandomSource& rng,
                               std::vector<EncodedFeature>* out) const {
  LDPGRAPH_RETURN_IF_ERROR(CheckInput(x));
  std::vector<std::uint32_t> sampled;
  sampled.reserve(m_);
  LDPGRAPH_RETURN_IF_ERROR(SampleSubsetAvoiding(rng, params_.dims, {}, m_, &sampled));
  out->clear();
  out->reserve(m_);
  for (std::uint32_t i : sampled) {
    const bool t = Bernoulli(rng, SignProbability(i, x[i]));
    out->push_back(EncodedFeature{i, static_cast<std::int8_t>(t ? 1 : -1)});
  }
  return Status::Ok();
}

std::vector<std::uint32_t> MultiBitEncoder::MemoisedDims(const PermanentCoins& coins) const {
  std::vector<std::uint32_t> sampled;
  sampled.reserve(m_);
  CoinStream coin = coins.Coin(CoinPurpose::kFeatureDims, 0, 0);
  // Cannot fail: m <= dims and nothing to avoid.
  (void)SampleSubsetAvoiding(coin, params_.dims, {}, m_, &sampled);
  return sampled;
}

std::uint64_t MultiBitEncoder::ValueBits(double x) {
  if (x == 0.0) x = 0.0;  // one coin for -0 and +0
  std::uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

Status MultiBitEncoder::EncodeMemoised(Span<const double> x, const PermanentCoins& coins,
                                       std::vector<EncodedFeature>* out) const {
  LDPGRAPH_RETURN_IF_ERROR(CheckInput(x));
  out->clear();
  out->reserve(m_);
  for (std::uint32_t i : MemoisedDims(coins)) {
    CoinStream coin = coins.Coin(CoinPurpose::kFeatureSign, i, ValueBits(x[i]));
    const bool t = Bernoulli(coin, SignProbability(i, x[i]));
    out->push_back(EncodedFeature{i, static_cast<std::int8_t>(t ? 1 : -1)});
  }
  return Status::Ok();
}

Result<MultiBitRectifier> MultiBitRectifier::Create(MultiBitParams params) {
  LDPGRAPH_RETURN_IF_ERROR(params.Validate());
  MultiBitRectifier r;
  r.m_ = params.SampledDims();
  const double e = std::exp(params.epsilon / r.m_);
  r.scale_ = static_cast<double>(params.dims) / (2.0 * r.m_) * (e + 1.0) / (e - 1.0);
  r.params_ = std::move(params);
  return r;
}

Status MultiBitRectifier::Check(Span<const EncodedFeature> encoded) const {
  if (encoded.size() != m_) {
    return Status::InvalidArgument("expected " + std::to_string(m_) + " encoded features, got " +
                                   std::to_string(encoded.size()));
  }
  for (std::size_t k = 0; k < encoded.size(); ++k) {
    const EncodedFeature& f = encoded[k];
    if (f.index >= params_.dims) {
      return Status::InvalidArgument("encoded feature index " + std::to_string(f.index) +
                                     " is not below dims = " + std::to_string(params_.dims));
    }
    if (k > 0 && f.index <= encoded[k - 1].index) {
      return Status::InvalidArgument("encoded feature indices must be strictly increasing");
    }
    if (f.sign != 1 && f.sign != -1) {
      return Status::InvalidArgument("encoded feature sign must be +1 or -1, got " +
                                     std::to_string(f.sign));
    }
  }
  return Status::Ok();
}

double MultiBitRectifier::Midpoint(std::uint32_t i) const {
  const FeatureRange& r = params_.RangeOf(i);
  return (r.lo + r.hi) / 2.0;
}

Status MultiBitRectifier::RectifyDeviations(Span<const EncodedFeature> encoded,
                                            std::vector<double>* out) const {
  LDPGRAPH_RETURN_IF_ERROR(Check(encoded));
  out->resize(encoded.size());
  for (std::size_t k = 0; k < encoded.size(); ++k) {
    const FeatureRange& r = params_.RangeOf(encoded[k].index);
    (*out)[k] = scale_ * (r.hi - r.lo) * encoded[k].sign;
  }
  return Status::Ok();
}

Status MultiBitRectifier::Rectify(Span<const EncodedFeature> encoded,
                                  std::vector<double>* out) const {
  LDPGRAPH_RETURN_IF_ERROR(Check(encoded));
  out->resize(params_.dims);
  for (std::uint32_t i = 0; i < params_.dims; ++i) {
    const FeatureRange& r = params_.RangeOf(i);
    (*out)[i] = (r.lo + r.hi) / 2.0;  // x*_i = 0 for unsampled dimensions
  }
  for (const EncodedFeature& f : encoded) {
    const FeatureRange& r = params_.RangeOf(f.index);
    (*out)[f.index] += scale_ * (r.hi - r.lo) * f.sign;
  }
  return Status::Ok();
}

}  // namespace ldpgraph
