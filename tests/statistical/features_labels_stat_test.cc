// The multi-bit encoder, its rectifier and label RR against their formulas.
// Fixed seeds; each check rejects at p < 1e-6.
#include "ldpgraph/multibit.h"

#include <doctest/doctest.h>

#include <cmath>

#include "ldpgraph/embedding_encoder.h"
#include "ldpgraph/graph_summary.h"
#include "ldpgraph/label_rr.h"
#include "support/noise_kind.h"
#include "support/stats.h"

using namespace ldpgraph;
using namespace ldpgraph::testing;

namespace {
constexpr double kAlpha = 1e-6;

MultiBitParams Params() {
  MultiBitParams p;
  p.dims = 8;
  p.epsilon = 7.0;  // m = 3
  p.ranges = {FeatureRange{-1.0, 3.0}};
  return p;
}
const std::vector<double> kX = {-1.0, -0.5, 0.0, 0.7, 1.0, 1.9, 2.5, 3.0};
}  // namespace

TEST_CASE("MultiBit.SamplingAndSignsFollowTheEncoder") {
  auto enc = MultiBitEncoder::Create(Params());
  REQUIRE(enc.ok());
  REQUIRE(enc->sampled_dims() == 3u);
  for (NoiseKind kind : kBothNoiseKinds) {
  CAPTURE(NoiseKindName(kind));
  SeededRandomSource rng(50);
  const int runs = 200000;
  std::vector<std::uint64_t> sampled(8, 0), plus(8, 0);
  std::vector<EncodedFeature> out;
  for (int r = 0; r < runs; ++r) {
    REQUIRE(EncodeAs(kind, *enc, kX, rng, &out).ok());
    for (const auto& f : out) {
      ++sampled[f.index];
      plus[f.index] += f.sign > 0;
    }
  }
  // Each dimension is sampled with probability m / d.
  CHECK(ChiSquarePValue(sampled, std::vector<double>(8, 1.0 / 8)) > kAlpha);
  // Given sampled, +1 has the encoder's probability.
  double chi2 = 0;
  for (std::uint32_t i = 0; i < 8; ++i) {
    const double pr = enc->SignProbability(i, kX[i]);
    const double z = (plus[i] - sampled[i] * pr) / std::sqrt(sampled[i] * pr * (1 - pr));
    chi2 += z * z;
  }
  CHECK(ChiSquareSurvival(chi2, 8) > kAlpha);
  }
}

TEST_CASE("MultiBitRectifier.IsUnbiased") {
  auto enc = MultiBitEncoder::Create(Params());
  auto rect = MultiBitRectifier::Create(Params());
  REQUIRE(enc.ok());
  REQUIRE(rect.ok());
  SeededRandomSource rng(51);
  const int runs = 200000;
  std::vector<double> sum(8, 0), sumsq(8, 0), x_hat;
  std::vector<EncodedFeature> out;
  for (int r = 0; r < runs; ++r) {
    REQUIRE(enc->Encode(kX, rng, &out).ok());
    REQUIRE(rect->Rectify(out, &x_hat).ok());
    for (int i = 0; i < 8; ++i) {
      sum[i] += x_hat[i];
      sumsq[i] += x_hat[i] * x_hat[i];
    }
  }
  double chi2 = 0;
  for (int i = 0; i < 8; ++i) {
    const double mean = sum[i] / runs, var = sumsq[i] / runs - mean * mean;
    const double z = (mean - kX[i]) / std::sqrt(var / runs);
    chi2 += z * z;
  }
  const double pv = ChiSquareSurvival(chi2, 8);
  INFO("chi2 " << chi2 << " p " << pv);
  CHECK(pv > kAlpha);
}

TEST_CASE("LabelRr.MatchesItsTransitionMatrix") {
  auto rr = LabelRandomizer::Create(4, 1.0);
  REQUIRE(rr.ok());
  SeededRandomSource rng(52);
  for (NoiseKind kind : kBothNoiseKinds)
  for (std::uint32_t y = 0; y < 4; ++y) {
    CAPTURE(NoiseKindName(kind));
    std::vector<std::uint64_t> counts(4, 0);
    std::vector<double> probs(4);
    for (std::uint32_t k = 0; k < 4; ++k) probs[k] = rr->TransitionProbability(y, k);
    for (int r = 0; r < 200000; ++r) ++counts[*PerturbLabelAs(kind, *rr, y, rng)];
    const double pv = ChiSquarePValue(counts, probs);
    INFO("true label " << y << " p-value " << pv);
    CHECK(pv > kAlpha);
  }
}

TEST_CASE("GraphSummary.ReportsFollowRandomizedResponseOverTheCells") {
  // 2 columns x 3 bins x 2 size bins = 18 cells at epsilon 2.5: the true
  // cell with e^eps / (e^eps + 17), each other with 1 / (e^eps + 17).
  GraphSummaryParams p;
  p.dims = 2;
  p.value_bins = 3;
  p.size_bins = 2;
  p.min_nodes = 2;
  p.max_nodes = 32;
  p.epsilon = 2.5;
  auto enc = GraphSummaryEncoder::Create(p);
  REQUIRE(enc.ok());
  SeededRandomSource rng(53);
  const std::vector<std::pair<std::vector<double>, std::uint32_t>> graphs = {
      {{0.1, 0.9, 0.2, 0.8}, 2}, {std::vector<double>(40, 0.5), 20}};
  for (const auto& [h, nodes] : graphs) {
    const std::uint32_t cell = *enc->Cell(h, nodes);
    std::vector<std::uint64_t> counts(18, 0);
    std::vector<double> probs(18);
    for (std::uint32_t k = 0; k < 18; ++k) probs[k] = enc->TransitionProbability(cell, k);
    CHECK(probs[cell] == doctest::Approx(std::exp(2.5) / (std::exp(2.5) + 17)));
    for (int r = 0; r < 200000; ++r) ++counts[*enc->Encode(h, nodes, rng)];
    const double pv = ChiSquarePValue(counts, probs);
    INFO("cell " << cell << " p-value " << pv);
    CHECK(pv > kAlpha);
  }
}

TEST_CASE("EmbeddingEncoder.SamplingAndSignsFollowAlgorithmOne") {
  // 3 nodes x 4 dims at epsilon 4.5: m* = 2 entries per node, eps / 6 each.
  EmbeddingParams p;
  p.nodes = 3;
  p.dims = 4;
  p.epsilon = 4.5;
  auto enc = EmbeddingEncoder::Create(p);
  REQUIRE(enc.ok());
  REQUIRE(enc->sampled_per_node() == 2u);
  const std::vector<double> h = {0.0, 0.1, 0.5, 1.0, 0.9, 0.3, 0.2, 0.7, 1.0, 0.0, 0.4, 0.6};
  SeededRandomSource rng(52);
  const int runs = 200000;
  std::vector<std::uint64_t> sampled(12, 0), plus(12, 0);
  std::vector<std::vector<EncodedFeature>> out;
  for (int r = 0; r < runs; ++r) {
    REQUIRE(enc->Encode(h, rng, &out).ok());
    for (std::size_t i = 0; i < out.size(); ++i) {
      for (const auto& f : out[i]) {
        ++sampled[i * 4 + f.index];
        plus[i * 4 + f.index] += f.sign > 0;
      }
    }
  }
  // Every entry of a row is sampled with probability m / h.
  for (int i = 0; i < 3; ++i) {
    CHECK(ChiSquarePValue(std::vector<std::uint64_t>(sampled.begin() + 4 * i, sampled.begin() + 4 * i + 4),
                          std::vector<double>(4, 0.25)) > kAlpha);
  }
  // Given sampled, +1 with Algorithm 1's probability at eps / (m n).
  const double e = std::exp(4.5 / 6);
  double chi2 = 0;
  for (std::size_t k = 0; k < 12; ++k) {
    const double pr = 1 / (e + 1) + h[k] * (e - 1) / (e + 1);
    const double z = (static_cast<double>(plus[k]) - static_cast<double>(sampled[k]) * pr) /
                     std::sqrt(static_cast<double>(sampled[k]) * pr * (1 - pr));
    chi2 += z * z;
  }
  CHECK(ChiSquareSurvival(chi2, 12) > kAlpha);
}
