#include "ldpgraph/multibit.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "ldpgraph/label_rr.h"

using namespace ldpgraph;

namespace {
MultiBitParams Params(std::uint32_t dims, double eps) {
  MultiBitParams p;
  p.dims = dims;
  p.epsilon = eps;
  return p;
}
}  // namespace

TEST_CASE("MultiBit.FailsDimsZero") {
  CHECK(MultiBitEncoder::Create(Params(0, 1.0)).status().code() == StatusCode::kInvalidArgument);
}
TEST_CASE("MultiBit.FailsEpsilonNan") {
  CHECK(MultiBitEncoder::Create(Params(5, std::nan(""))).status().code() == StatusCode::kInvalidArgument);
}
TEST_CASE("MultiBit.FailsEpsilonInfinite") {
  CHECK(MultiBitEncoder::Create(Params(5, std::numeric_limits<double>::infinity())).status().code() ==
        StatusCode::kInvalidArgument);
}
TEST_CASE("MultiBit.FailsEpsilonZero") {
  CHECK(MultiBitEncoder::Create(Params(5, 0.0)).status().code() == StatusCode::kInvalidArgument);
}
TEST_CASE("MultiBit.FailsEpsilonNegative") {
  CHECK(MultiBitEncoder::Create(Params(5, -1.0)).status().code() == StatusCode::kInvalidArgument);
}
TEST_CASE("MultiBit.FailsEmptyRange") {
  auto p = Params(5, 1.0);
  p.ranges = {FeatureRange{1.0, 1.0}};
  CHECK(MultiBitEncoder::Create(p).status().code() == StatusCode::kInvalidArgument);
}
TEST_CASE("MultiBit.FailsWrongRangeCount") {
  auto p = Params(5, 1.0);
  p.ranges = {FeatureRange{}, FeatureRange{}};
  CHECK(MultiBitEncoder::Create(p).status().code() == StatusCode::kInvalidArgument);
}
TEST_CASE("MultiBit.FailsFeatureOutsideRange") {
  auto enc = MultiBitEncoder::Create(Params(3, 1.0));
  SeededRandomSource rng(1);
  std::vector<EncodedFeature> out;
  CHECK(enc->Encode(std::vector<double>{0.5, 1.5, 0.0}, rng, &out).code() == StatusCode::kOutOfRange);
  CHECK(enc->Encode(std::vector<double>{0.5, -0.1, 0.0}, rng, &out).code() == StatusCode::kOutOfRange);
}
TEST_CASE("MultiBit.FailsFeatureNan") {
  auto enc = MultiBitEncoder::Create(Params(3, 1.0));
  SeededRandomSource rng(1);
  std::vector<EncodedFeature> out;
  CHECK(enc->Encode(std::vector<double>{0.5, std::nan(""), 0.0}, rng, &out).code() ==
        StatusCode::kInvalidArgument);
}
TEST_CASE("MultiBit.FailsWrongFeatureCount") {
  auto enc = MultiBitEncoder::Create(Params(3, 1.0));
  SeededRandomSource rng(1);
  std::vector<EncodedFeature> out;
  CHECK(enc->Encode(std::vector<double>{0.5, 0.5}, rng, &out).code() == StatusCode::kInvalidArgument);
}
TEST_CASE("MultiBit.SampledDimsRule") {
  CHECK(Params(100, 1.0).SampledDims() == 1u);   // floor(1/2.18) = 0 -> 1
  CHECK(Params(100, 4.36).SampledDims() == 2u);
  CHECK(Params(100, 21.8).SampledDims() == 10u);
  CHECK(Params(3, 100.0).SampledDims() == 3u);   // capped at d
}
TEST_CASE("MultiBit.EncodesMSortedSignedDimensions") {
  auto enc = MultiBitEncoder::Create(Params(50, 22.0));
  REQUIRE(enc.ok());
  SeededRandomSource rng(2);
  std::vector<double> x(50, 0.25);
  std::vector<EncodedFeature> out;
  REQUIRE(enc->Encode(x, rng, &out).ok());
  CHECK(out.size() == 10u);
  for (std::size_t i = 0; i < out.size(); ++i) {
    CHECK((out[i].sign == 1 || out[i].sign == -1));
    if (i > 0) CHECK(out[i].index > out[i - 1].index);
  }
}
TEST_CASE("MultiBitRectifier.RejectsMalformedEncodings") {
  auto rect = MultiBitRectifier::Create(Params(10, 4.5));  // m = 2
  REQUIRE(rect.ok());
  std::vector<double> out;
  CHECK(rect->Rectify(std::vector<EncodedFeature>{{1, 1}}, &out).code() == StatusCode::kInvalidArgument);
  CHECK(rect->Rectify(std::vector<EncodedFeature>{{3, 1}, {3, -1}}, &out).code() == StatusCode::kInvalidArgument);
  CHECK(rect->Rectify(std::vector<EncodedFeature>{{3, 1}, {10, -1}}, &out).code() == StatusCode::kInvalidArgument);
  CHECK(rect->Rectify(std::vector<EncodedFeature>{{3, 1}, {4, 0}}, &out).code() == StatusCode::kInvalidArgument);
  REQUIRE(rect->Rectify(std::vector<EncodedFeature>{{3, 1}, {4, -1}}, &out).ok());
  CHECK(out.size() == 10u);
  CHECK(out[0] == doctest::Approx(0.5));
  CHECK(out[3] > 0.5);
  CHECK(out[4] < 0.5);
}

TEST_CASE("MultiBitRectifier.DeviationsAreTheEstimateLessItsMidpoints") {
  MultiBitParams params = Params(6, 4.5);  // m = 2
  params.ranges = {{0, 1}, {-2, 2}, {0, 1}, {0, 1}, {10, 30}, {0, 1}};
  auto rect = MultiBitRectifier::Create(params);
  REQUIRE(rect.ok());
  const std::vector<EncodedFeature> encoded = {{1, -1}, {4, 1}};
  std::vector<double> dense, deviations;
  REQUIRE(rect->Rectify(encoded, &dense).ok());
  REQUIRE(rect->RectifyDeviations(encoded, &deviations).ok());
  REQUIRE(deviations.size() == 2u);
  CHECK(rect->Midpoint(1) == 0.0);
  CHECK(rect->Midpoint(4) == 20.0);
  for (std::uint32_t i : {0u, 2u, 3u, 5u}) CHECK(dense[i] == rect->Midpoint(i));
  CHECK(dense[1] == doctest::Approx(rect->Midpoint(1) + deviations[0]));
  CHECK(dense[4] == doctest::Approx(rect->Midpoint(4) + deviations[1]));
  CHECK(deviations[1] == doctest::Approx(-5 * deviations[0]));  // range 20 against 4, opposite signs
  // The same checks as Rectify's, and nothing written on error.
  CHECK(rect->RectifyDeviations(std::vector<EncodedFeature>{{4, 1}, {1, 1}}, &deviations).code() ==
        StatusCode::kInvalidArgument);
  CHECK(rect->RectifyDeviations(std::vector<EncodedFeature>{{1, 1}}, &deviations).code() ==
        StatusCode::kInvalidArgument);
  CHECK(deviations.size() == 2u);
}

TEST_CASE("LabelRr.FailsClassesBelowTwo") {
  CHECK(LabelRandomizer::Create(1, 1.0).status().code() == StatusCode::kInvalidArgument);
}
TEST_CASE("LabelRr.FailsEpsilonNan") {
  CHECK(LabelRandomizer::Create(3, std::nan("")).status().code() == StatusCode::kInvalidArgument);
}
TEST_CASE("LabelRr.FailsEpsilonZero") {
  CHECK(LabelRandomizer::Create(3, 0.0).status().code() == StatusCode::kInvalidArgument);
}
TEST_CASE("LabelRr.FailsLabelOutOfRange") {
  auto rr = LabelRandomizer::Create(3, 1.0);
  SeededRandomSource rng(1);
  CHECK(rr->Perturb(3, rng).status().code() == StatusCode::kOutOfRange);
}
TEST_CASE("LabelRr.TransitionRowsSumToOne") {
  auto rr = LabelRandomizer::Create(7, 1.0);
  REQUIRE(rr.ok());
  for (std::uint32_t from = 0; from < 7; ++from) {
    double sum = 0;
    for (std::uint32_t to = 0; to < 7; ++to) sum += rr->TransitionProbability(from, to);
    CHECK(sum == doctest::Approx(1.0));
  }
  CHECK(rr->keep_probability() == doctest::Approx(std::exp(1.0) / (std::exp(1.0) + 6.0)));
}
