// k-means in GW space (gw/gw_kmeans.h): barycentres as centres, on graphs
// GW tells apart and on relabelled copies of one graph.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "gw/graph_space.h"
#include "gw/gw_clustering.h"
#include "gw/gw_kmeans.h"
#include "gw/pairwise_gw.h"
#include "support/graph_fixtures.h"

using namespace ldpgraph;

namespace {

std::vector<GraphSpace> Spaces(bool tagged) {
  Result<std::vector<GraphSpace>> s = GraphSpaces(testing::PathsAndStars(24, tagged), GwStructure::kShortestPath);
  REQUIRE(s.ok());
  return *s;
}

}  // namespace

TEST_CASE("GwKMeans.SeparatesPathsFromStarsWithCentresOfTheMeanSize") {
  for (bool tagged : {false, true}) {
    CAPTURE(tagged);
    const std::vector<GraphSpace> spaces = Spaces(tagged);
    std::vector<int> truth;
    for (int g = 0; g < 24; ++g) truth.push_back(g % 2);
    GwKMeansOptions o;
    o.seed = 3;
    Result<GwKMeansResult> r = GwKMeans(spaces, o);
    REQUIRE(r.ok());
    CHECK(NormalizedMutualInformation(r->clusters, truth) == doctest::Approx(1.0));
    CHECK(r->rounds >= 2);  // centres moved to barycentres and the partition held
    // Paths have 5 and 7 nodes (mean 6), stars 6 and 8 (mean 7).
    const int path_centre = r->clusters[0], star_centre = r->clusters[1];
    CHECK(r->centres[static_cast<std::size_t>(path_centre)].structure.rows() == 6);
    CHECK(r->centres[static_cast<std::size_t>(star_centre)].structure.rows() == 7);
    CHECK(r->centres[0].structure.isApprox(r->centres[0].structure.transpose()));
    for (const GraphSpace& centre : r->centres) {
      CHECK(centre.features.rows() == (tagged ? centre.structure.rows() : 0));
      CHECK(centre.features.cols() == (tagged ? 2 : 0));  // one-hot tags 3 and 7
    }
    Result<GwKMeansResult> again = GwKMeans(spaces, o);
    REQUIRE(again.ok());
    CHECK(again->clusters == r->clusters);  // deterministic for a seed
    CHECK(again->cost == r->cost);
  }
}

TEST_CASE("GwKMeans.TheBarycentreOfRelabelledCopiesIsTheGraph") {
  // A path of 6 nodes with a pendant on node 2, by hop distances, and 4
  // relabelled copies.
  Eigen::MatrixXd a = Eigen::MatrixXd::Constant(7, 7, 99);
  for (int u = 0; u < 7; ++u) a(u, u) = 0;
  for (int u = 0; u + 1 < 6; ++u) a(u, u + 1) = a(u + 1, u) = 1;
  a(2, 6) = a(6, 2) = 1;
  for (int via = 0; via < 7; ++via) {
    for (int u = 0; u < 7; ++u) {
      for (int v = 0; v < 7; ++v) a(u, v) = std::min(a(u, v), a(u, via) + a(via, v));
    }
  }
  std::vector<GraphSpace> copies;
  std::vector<int> order(7);
  std::iota(order.begin(), order.end(), 0);
  for (int c = 0; c < 5; ++c) {
    std::rotate(order.begin(), order.begin() + 2, order.end());
    if (c % 2 == 1) std::reverse(order.begin(), order.end());
    GraphSpace g;
    g.structure.resize(7, 7);
    for (int u = 0; u < 7; ++u) {
      for (int v = 0; v < 7; ++v) g.structure(u, v) = a(order[static_cast<std::size_t>(u)], order[static_cast<std::size_t>(v)]);
    }
    copies.push_back(g);
  }
  GwKMeansOptions o;
  o.k = 1;
  o.gw = GwOptions{};  // the solver's several starts find each copy's relabelling
  Result<GwKMeansResult> r = GwKMeans(copies, o);
  REQUIRE(r.ok());
  CHECK(r->cost < 1e-9);
  Result<GwResult> to_graph = SpaceGw(r->centres[0], copies[0], 1.0, GwOptions{});
  REQUIRE(to_graph.ok());
  CHECK(to_graph->value < 1e-9);
}

TEST_CASE("GwKMeans.RefusesBadInput") {
  const std::vector<GraphSpace> spaces = Spaces(true);
  GwKMeansOptions o;
  CHECK(GwKMeans({}, o).status().code() == StatusCode::kInvalidArgument);
  o.k = 0;
  CHECK(GwKMeans(spaces, o).status().code() == StatusCode::kInvalidArgument);
  o.k = 25;
  CHECK(GwKMeans(spaces, o).status().code() == StatusCode::kInvalidArgument);
  o.k = 2;
  o.threads = 0;
  CHECK(GwKMeans(spaces, o).status().code() == StatusCode::kInvalidArgument);
  o.threads = 2;
  std::vector<GraphSpace> mixed = spaces;
  mixed[3].features.resize(0, 0);
  Result<GwKMeansResult> r = GwKMeans(mixed, o);
  CHECK(r.status().code() == StatusCode::kInvalidArgument);
  CHECK(r.status().message().find("graph 3") != std::string::npos);
  std::vector<GraphSpace> broken = spaces;
  broken[5].structure(0, 1) = std::nan("");
  r = GwKMeans(broken, o);
  CHECK(r.status().code() == StatusCode::kInvalidArgument);
}
