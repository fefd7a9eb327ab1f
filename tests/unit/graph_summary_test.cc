// GW-LDP's graph summary encoder (sdk/include/ldpgraph/graph_summary.h):
// the cell a graph falls in (its column means and its size on the grid),
// the cells' centres, the grids by epsilon, and every bad input refused
// before any randomness is drawn.
#include "ldpgraph/graph_summary.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "support/counting_source.h"

using namespace ldpgraph;
using ldpgraph::testing::CountingSource;

namespace {

GraphSummaryParams Params(std::uint32_t dims, std::uint32_t value_bins, std::uint32_t size_bins) {
  GraphSummaryParams p;
  p.dims = dims;
  p.value_bins = value_bins;
  p.size_bins = size_bins;
  p.min_nodes = 2;
  p.max_nodes = 128;
  p.epsilon = 2;
  return p;
}


}  // namespace

TEST_CASE("GraphSummary.ACellIsTheColumnMeansAndTheSizeOnTheGrid") {
  auto enc = GraphSummaryEncoder::Create(Params(2, 4, 3));
  REQUIRE(enc.ok());
  CHECK(enc->params().cells() == 48u);
  // 4 nodes: column means 0.3 (bin 1) and 0.9 (bin 3); log 4 on [log 2, log 128] is 1/6 (bin 0).
  const std::vector<double> h = {0.1, 1.0, 0.5, 0.8, 0.2, 0.9, 0.4, 0.9};
  Result<std::uint32_t> cell = enc->Cell(h, 4);
  REQUIRE(cell.ok());
  CHECK(*cell == (1u * 4 + 3) * 3 + 0);
  const std::vector<double> centre = enc->CellCentre(*cell);
  REQUIRE(centre.size() == 3u);
  CHECK(centre[0] == doctest::Approx(0.375));
  CHECK(centre[1] == doctest::Approx(0.875));
  CHECK(centre[2] == doctest::Approx(1.0 / 6));
  // Sizes beyond the range are clamped: 1 node to the first size bin, 1000 to the last.
  CHECK(*enc->Cell(std::vector<double>{0.0, 0.0}, 1) == 0u);
  CHECK(*enc->Cell(std::vector<double>(2000, 1.0), 1000) == 47u);
  // Every cell's centre lies in its own cell.
  for (std::uint32_t c = 0; c < 48; ++c) {
    const std::vector<double> x = enc->CellCentre(c);
    const auto nodes = static_cast<std::uint32_t>(std::lround(std::exp(std::log(2.0) + x[2] * std::log(64.0))));
    CHECK(*enc->Cell(std::vector<double>{x[0], x[1]}, 1) / 3 == c / 3);
    std::vector<double> rows;
    for (std::uint32_t i = 0; i < nodes; ++i) rows.insert(rows.end(), {x[0], x[1]});
    CHECK(*enc->Cell(rows, nodes) == c);
  }
  CHECK(enc->CellCentre(48).empty());
}

TEST_CASE("GraphSummary.ReportsACellByRandomizedResponse") {
  auto enc = GraphSummaryEncoder::Create(Params(1, 2, 2));
  REQUIRE(enc.ok());
  const double keep = std::exp(2.0) / (std::exp(2.0) + 3);
  CHECK(enc->keep_probability() == doctest::Approx(keep));
  CHECK(enc->TransitionProbability(1, 1) == doctest::Approx(keep));
  CHECK(enc->TransitionProbability(1, 2) == doctest::Approx((1 - keep) / 3));
  SeededRandomSource rng(5);
  int kept = 0;
  for (int r = 0; r < 4000; ++r) {
    Result<std::uint32_t> y = enc->Encode(std::vector<double>{0.2, 0.3, 0.1}, 3, rng);
    REQUIRE(y.ok());
    REQUIRE(*y < 4u);
    kept += *y == 0;
  }
  CHECK(kept / 4000.0 == doctest::Approx(keep).epsilon(0.05));  // the exact law is in the statistical tier
}

TEST_CASE("GraphSummary.GridsGrowWithEpsilon") {
  // The finest grid whose cell survives with Pr >= 0.9.
  CHECK(GraphSummaryParams::ForEpsilon(1, 8, 2, 100).cells() == 64u);
  CHECK(GraphSummaryParams::ForEpsilon(1, 6.3, 2, 100).cells() == 16u);
  CHECK(GraphSummaryParams::ForEpsilon(1, 5, 2, 100).cells() == 16u);
  CHECK(GraphSummaryParams::ForEpsilon(1, 4.9, 2, 100).cells() == 4u);
  CHECK(GraphSummaryParams::ForEpsilon(1, 1, 2, 100).cells() == 4u);
  CHECK(GraphSummaryParams::ForEpsilon(2, 8, 2, 100).cells() == 64u);  // 4^2 x 4: 8^3 would keep less
  for (double eps : {1.0, 5.0, 6.34, 8.0, 20.0}) {
    const GraphSummaryParams p = GraphSummaryParams::ForEpsilon(1, eps, 2, 100);
    auto enc = GraphSummaryEncoder::Create(p);
    REQUIRE(enc.ok());
    if (p.cells() > 4) CHECK(enc->keep_probability() >= 0.9);
  }
  CHECK(GraphSummaryParams::ForEpsilon(1, 8, 2, 100).Validate().ok());
}

TEST_CASE("GraphSummary.BadInputsAreRefusedBeforeAnyRandomness") {
  CHECK(GraphSummaryEncoder::Create(Params(0, 4, 4)).status().code() == StatusCode::kInvalidArgument);
  CHECK(GraphSummaryEncoder::Create(Params(1, 0, 4)).status().code() == StatusCode::kInvalidArgument);
  CHECK(GraphSummaryEncoder::Create(Params(1, 1, 1)).status().code() == StatusCode::kInvalidArgument);  // one cell
  CHECK(GraphSummaryEncoder::Create(Params(3, 64, 2)).status().message().find("65536") != std::string::npos);
  GraphSummaryParams p = Params(1, 4, 4);
  p.min_nodes = 0;
  CHECK(GraphSummaryEncoder::Create(p).status().code() == StatusCode::kInvalidArgument);
  p = Params(1, 4, 4);
  p.min_nodes = 200;
  CHECK(GraphSummaryEncoder::Create(p).status().message().find("min_nodes <= max_nodes") != std::string::npos);
  p = Params(1, 4, 4);
  p.epsilon = std::numeric_limits<double>::quiet_NaN();
  CHECK(GraphSummaryEncoder::Create(p).status().code() == StatusCode::kInvalidArgument);
  p = Params(1, 4, 4);
  p.range = {1.0, 1.0};
  CHECK(GraphSummaryEncoder::Create(p).status().code() == StatusCode::kInvalidArgument);

  auto enc = GraphSummaryEncoder::Create(Params(2, 4, 4));
  REQUIRE(enc.ok());
  CountingSource rng;
  // 3 entries, not 4
  CHECK(enc->Encode(std::vector<double>{0.1, 0.2, 0.3}, 2, rng).status().code() == StatusCode::kInvalidArgument);
  CHECK(enc->Encode(std::vector<double>{}, 0, rng).status().code() == StatusCode::kInvalidArgument);
  // 2^31 nodes x 2 columns wraps a 32-bit size_t to 0: no entries must not pass for them.
  CHECK(enc->Encode(std::vector<double>{}, 1u << 31, rng).status().code() == StatusCode::kInvalidArgument);
  const std::vector<double> nan_entry = {0.1, std::nan(""), 0.3, 0.4};
  CHECK(enc->Encode(nan_entry, 2, rng).status().code() == StatusCode::kInvalidArgument);
  const Status out = enc->Encode(std::vector<double>{0.1, 0.2, 1.5, 0.4}, 2, rng).status();
  CHECK(out.code() == StatusCode::kOutOfRange);
  CHECK(out.message().find("entry 2") != std::string::npos);
  CHECK(rng.words == 0);
}
