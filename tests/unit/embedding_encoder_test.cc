// GW-LDP's embedding encoder (sdk/include/ldpgraph/embedding_encoder.h):
// the paper's m*, the budget per entry, m sorted entries per node, and
// every bad input refused before any randomness is drawn.
#include "ldpgraph/embedding_encoder.h"

#include <doctest/doctest.h>

#include <cmath>

#include "support/counting_source.h"

using namespace ldpgraph;
using ldpgraph::testing::CountingSource;

namespace {

EmbeddingParams Params(std::uint32_t nodes, std::uint32_t dims, double epsilon) {
  EmbeddingParams p;
  p.nodes = nodes;
  p.dims = dims;
  p.epsilon = epsilon;
  return p;
}


}  // namespace

TEST_CASE("EmbeddingEncoder.SpreadsEpsilonOverEveryEntrySent") {
  auto enc = EmbeddingEncoder::Create(Params(10, 7, 9.0));  // m* = floor(9 / 2.18) = 4
  REQUIRE(enc.ok());
  CHECK(enc->sampled_per_node() == 4);
  CHECK(enc->entry_epsilon() == doctest::Approx(9.0 / 40));
  const double e = std::exp(9.0 / 40);
  CHECK(enc->SignProbability(0.0) == doctest::Approx(1 / (e + 1)));
  CHECK(enc->SignProbability(1.0) == doctest::Approx(e / (e + 1)));
  EmbeddingParams fixed = Params(10, 7, 9.0);
  fixed.sampled_per_node = 7;
  CHECK(EmbeddingEncoder::Create(fixed)->entry_epsilon() == doctest::Approx(9.0 / 70));
  CHECK(EmbeddingEncoder::Create(Params(3, 7, 0.5))->sampled_per_node() == 1);   // m* at least 1
  CHECK(EmbeddingEncoder::Create(Params(3, 2, 50.0))->sampled_per_node() == 2);  // and at most h

  std::vector<double> h(70);
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = static_cast<double>(i % 11) / 10;
  SeededRandomSource rng(1);
  std::vector<std::vector<EncodedFeature>> out;
  REQUIRE(enc->Encode(h, rng, &out).ok());
  REQUIRE(out.size() == 10);
  for (const auto& row : out) {
    REQUIRE(row.size() == 4);
    for (std::size_t k = 1; k < row.size(); ++k) CHECK(row[k - 1].index < row[k].index);
    for (const auto& f : row) CHECK((f.sign == 1 || f.sign == -1));
  }
}

TEST_CASE("EmbeddingEncoder.RefusesBadInputWithoutDrawing") {
  CHECK(EmbeddingEncoder::Create(Params(0, 3, 1)).status().code() == StatusCode::kInvalidArgument);
  CHECK(EmbeddingEncoder::Create(Params(3, 0, 1)).status().code() == StatusCode::kInvalidArgument);
  CHECK(EmbeddingEncoder::Create(Params(3, 3, NAN)).status().code() == StatusCode::kInvalidArgument);
  CHECK(EmbeddingEncoder::Create(Params(3, 3, -1)).status().code() == StatusCode::kInvalidArgument);
  CHECK(EmbeddingEncoder::Create(Params(1u << 20, 1u << 9, 1)).status().code() == StatusCode::kInvalidArgument);
  EmbeddingParams too_many = Params(3, 3, 1);
  too_many.sampled_per_node = 4;
  CHECK(EmbeddingEncoder::Create(too_many).status().code() == StatusCode::kInvalidArgument);
  EmbeddingParams bad_range = Params(3, 3, 1);
  bad_range.range = {1.0, 1.0};
  CHECK(EmbeddingEncoder::Create(bad_range).status().code() == StatusCode::kInvalidArgument);

  auto enc = EmbeddingEncoder::Create(Params(3, 2, 1.0));
  REQUIRE(enc.ok());
  CountingSource rng;
  std::vector<std::vector<EncodedFeature>> out;
  CHECK(enc->Encode(std::vector<double>(5, 0.5), rng, &out).code() == StatusCode::kInvalidArgument);
  std::vector<double> h(6, 0.5);
  h[5] = 1.5;  // node 2, past the range: refused before node 0 is encoded
  Status s = enc->Encode(h, rng, &out);
  CHECK(s.code() == StatusCode::kOutOfRange);
  CHECK(s.message().rfind("node 2: ", 0) == 0);
  h[5] = NAN;
  CHECK(enc->Encode(h, rng, &out).code() == StatusCode::kInvalidArgument);
  CHECK(rng.words == 0);
}
