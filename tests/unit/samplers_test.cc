#include "ldpgraph/samplers.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace ldpgraph;

TEST_CASE("UniformBelow.StaysBelowBound") {
  SeededRandomSource rng(1);
  for (std::uint64_t bound : {1ull, 2ull, 3ull, 7ull, 1000ull, (1ull << 63) + 5}) {
    for (int i = 0; i < 1000; ++i) CHECK(UniformBelow(rng, bound) < bound);
  }
}

TEST_CASE("Bernoulli.ExtremesAreCertain") {
  SeededRandomSource rng(2);
  for (int i = 0; i < 1000; ++i) {
    CHECK_FALSE(Bernoulli(rng, 0.0));
    CHECK_FALSE(Bernoulli(rng, -1.0));
    CHECK_FALSE(Bernoulli(rng, std::nan("")));
    CHECK(Bernoulli(rng, 1.0));
    CHECK(Bernoulli(rng, 2.0));
  }
}

TEST_CASE("Bernoulli.DenormalProbabilityIsNeverDrawnInPractice") {
  SeededRandomSource rng(3);
  for (int i = 0; i < 10000; ++i) CHECK_FALSE(Bernoulli(rng, 1e-300));
}

TEST_CASE("Binomial.DegenerateCases") {
  SeededRandomSource rng(4);
  CHECK(Binomial(rng, 0, 0.5) == 0);
  CHECK(Binomial(rng, 100, 0.0) == 0);
  CHECK(Binomial(rng, 100, 1.0) == 100);
  CHECK(Binomial(rng, 100, std::nan("")) == 0);
  for (int i = 0; i < 1000; ++i) {
    CHECK(Binomial(rng, 1000000000ull, 0.5) <= 1000000000ull);
    CHECK(Binomial(rng, 20, 0.99) <= 20);
  }
}

TEST_CASE("SampleSubsetAvoiding.ReturnsSortedDistinctValuesOutsideTheAvoidSet") {
  SeededRandomSource rng(5);
  const std::vector<std::uint32_t> avoid = {0, 3, 4, 9, 17, 18, 19};
  for (std::uint64_t k : {0u, 1u, 5u, 6u, 12u, 13u}) {
    std::vector<std::uint32_t> out;
    REQUIRE(SampleSubsetAvoiding(rng, 20, avoid, k, &out).ok());
    CHECK(out.size() == k);
    CHECK(std::is_sorted(out.begin(), out.end()));
    CHECK(std::adjacent_find(out.begin(), out.end()) == out.end());
    for (auto v : out) {
      CHECK(v < 20);
      CHECK_FALSE(std::binary_search(avoid.begin(), avoid.end(), v));
    }
  }
}

TEST_CASE("SampleSubsetAvoiding.AllRemainingValuesWhenKIsMaximal") {
  SeededRandomSource rng(6);
  std::vector<std::uint32_t> out;
  REQUIRE(SampleSubsetAvoiding(rng, 6, std::vector<std::uint32_t>{1, 4}, 4, &out).ok());
  CHECK(out == std::vector<std::uint32_t>{0, 2, 3, 5});
}

TEST_CASE("SampleSubsetAvoiding.FailsWhenKExceedsAvailable") {
  SeededRandomSource rng(7);
  std::vector<std::uint32_t> out;
  CHECK(SampleSubsetAvoiding(rng, 5, std::vector<std::uint32_t>{1}, 5, &out).code() ==
        StatusCode::kInvalidArgument);
}

TEST_CASE("SampleSubsetAvoiding.FailsOnUnsortedAvoidSet") {
  SeededRandomSource rng(8);
  std::vector<std::uint32_t> out;
  CHECK(SampleSubsetAvoiding(rng, 10, std::vector<std::uint32_t>{3, 1}, 2, &out).code() ==
        StatusCode::kInvalidArgument);
}

TEST_CASE("SampleSubsetAvoiding.FailsOnAvoidValueOutOfRange") {
  SeededRandomSource rng(9);
  std::vector<std::uint32_t> out;
  CHECK(SampleSubsetAvoiding(rng, 10, std::vector<std::uint32_t>{10}, 2, &out).code() ==
        StatusCode::kInvalidArgument);
}

TEST_CASE("DiscreteLaplace.FailsEpsilonNan") {
  CHECK(DiscreteLaplace::Create(std::nan("")).status().code() == StatusCode::kInvalidArgument);
}
TEST_CASE("DiscreteLaplace.FailsEpsilonInfinite") {
  CHECK(DiscreteLaplace::Create(std::numeric_limits<double>::infinity()).status().code() ==
        StatusCode::kInvalidArgument);
}
TEST_CASE("DiscreteLaplace.FailsEpsilonZero") {
  CHECK(DiscreteLaplace::Create(0.0).status().code() == StatusCode::kInvalidArgument);
}
TEST_CASE("DiscreteLaplace.FailsEpsilonNegative") {
  CHECK(DiscreteLaplace::Create(-0.5).status().code() == StatusCode::kInvalidArgument);
}
TEST_CASE("DiscreteLaplace.FailsEpsilonBelowResolution") {
  CHECK(DiscreteLaplace::Create(1e-12).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("DiscreteLaplace.RoundsEpsilonDownWithinResolution") {
  auto d = DiscreteLaplace::Create(0.1);
  REQUIRE(d.ok());
  CHECK(d->effective_epsilon() <= 0.1);
  CHECK(d->effective_epsilon() > 0.1 - std::ldexp(1.0, -32));
}

TEST_CASE("SeededRandomSource.SameSeedSameStream") {
  SeededRandomSource a(42), b(42), c(43);
  bool differs = false;
  for (int i = 0; i < 200; ++i) {
    const auto x = a.NextU64();
    CHECK(x == b.NextU64());
    differs |= x != c.NextU64();
  }
  CHECK(differs);
}

TEST_CASE("OsRandomSource.ProducesVaryingWords") {
  auto os = OsRandomSource::Create();
  REQUIRE(os.ok());
  const auto first = (*os)->NextU64();
  bool differs = false;
  for (int i = 0; i < 100; ++i) differs |= (*os)->NextU64() != first;
  CHECK(differs);
}
