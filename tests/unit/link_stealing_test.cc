// Link stealing's score and AUC: posteriors that follow the graph's
// communities rank its edges first; posteriors that say nothing give 1/2.
#include "audit/link_stealing.h"

#include <doctest/doctest.h>

#include "ldpgraph/samplers.h"

using namespace ldpgraph;

namespace {

// Two communities of 100 users, dense inside, one edge across.
CsrGraph TwoCommunities() {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  for (std::uint32_t u = 0; u < 200; ++u) {
    for (std::uint32_t v = u + 1; v < 200; ++v) {
      if ((u < 100) == (v < 100) && (u * 7 + v * 13) % 5 == 0) edges.emplace_back(u, v);
    }
  }
  edges.emplace_back(0, 199);
  return CsrGraph::FromUndirectedEdges(200, edges);
}

}  // namespace

TEST_CASE("LinkStealing.PosteriorsThatFollowTheCommunitiesGiveTheEdgesAway") {
  const CsrGraph g = TwoCommunities();
  Matrix p(200, 2);
  for (int u = 0; u < 200; ++u) p.row(u) << (u < 100 ? 0.9f : 0.1f), (u < 100 ? 0.1f : 0.9f);
  Result<LinkAttackResult> r = LinkStealingAuc(p, g, 100000, 1);
  REQUIRE(r.ok());
  CHECK(r->edges == g.num_entries() / 2);
  CHECK(r->non_edges == r->edges);
  CHECK(r->auc > 0.7);  // every edge but one is inside a community; half the random pairs are across
  CHECK(RowCorrelation(p, 0, 1) == doctest::Approx(1.0));
  CHECK(RowCorrelation(p, 0, 199) == doctest::Approx(-1.0));
}

TEST_CASE("LinkStealing.PosteriorsThatSayNothingGiveAHalf") {
  const CsrGraph g = TwoCommunities();
  SeededRandomSource rng(3);
  Matrix p(200, 4);
  for (Eigen::Index i = 0; i < p.size(); ++i) p.data()[i] = static_cast<float>(UniformUnit(rng));
  Result<LinkAttackResult> r = LinkStealingAuc(p, g, 100000, 2);
  REQUIRE(r.ok());
  CHECK(r->auc == doctest::Approx(0.5).epsilon(0.1));
  CHECK(LinkStealingAuc(Matrix(10, 2), g, 10, 1).status().code() == StatusCode::kInvalidArgument);
}
