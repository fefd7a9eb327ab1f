// Held graphs: what an owner sends is checked item by item, repeated edges
// merge, and the storage encoding round-trips and refuses corruption.
#include "gap/held_graph.h"

#include <doctest/doctest.h>

using namespace ldpgraph;

namespace {

HeldGraphParts Small() {
  HeldGraphParts p;
  p.id = 3;
  p.num_nodes = 4;
  p.classes = 2;
  p.feature_dims = 3;
  p.edges = {{0, 1}, {1, 0}, {1, 2}, {2, 3}, {0, 1}};  // one edge both ways and twice
  p.features = {{2, 1, 0.5}, {0, 0, 1.0}, {0, 2, -2.0}};
  p.labels = {0, 1, -1, 1};
  return p;
}

}  // namespace

TEST_CASE("HeldGraph.MergesRepeatedEdgesAndSortsFeatures") {
  Result<HeldGraph> g = MakeHeldGraph(Small());
  REQUIRE(g.ok());
  CHECK(g->edges() == 3);
  CHECK(g->graph.degree(1) == 2);
  CHECK(g->labelled() == 3);
  CHECK(g->features.offsets == std::vector<std::int64_t>{0, 2, 2, 3, 3});
  CHECK(g->features.indices == std::vector<std::int32_t>{0, 2, 1});
  CHECK(g->features.values == std::vector<float>{1.0f, -2.0f, 0.5f});
}

TEST_CASE("HeldGraph.RefusesEachBadItem") {
  struct Case {
    const char* what;
    void (*spoil)(HeldGraphParts&);
  };
  const Case cases[] = {
      {"one node", [](HeldGraphParts& p) { p.num_nodes = 1; }},
      {"one class", [](HeldGraphParts& p) { p.classes = 1; }},
      {"no features", [](HeldGraphParts& p) { p.feature_dims = 0; }},
      {"self-loop", [](HeldGraphParts& p) { p.edges.push_back({2, 2}); }},
      {"edge out of range", [](HeldGraphParts& p) { p.edges.push_back({0, 4}); }},
      {"feature out of range", [](HeldGraphParts& p) { p.features.push_back({1, 3, 1.0}); }},
      {"feature twice", [](HeldGraphParts& p) { p.features.push_back({0, 2, 1.0}); }},
      {"NaN feature", [](HeldGraphParts& p) { p.features[0].value = std::nan(""); }},
      {"label out of range", [](HeldGraphParts& p) { p.labels[1] = 2; }},
      {"label below -1", [](HeldGraphParts& p) { p.labels[1] = -2; }},
      {"labels short", [](HeldGraphParts& p) { p.labels.pop_back(); }},
  };
  for (const Case& c : cases) {
    HeldGraphParts p = Small();
    c.spoil(p);
    INFO(std::string(c.what));
    CHECK(MakeHeldGraph(p).status().code() == StatusCode::kInvalidArgument);
  }
}

TEST_CASE("HeldGraph.EncodingRoundTripsAndRefusesCorruption") {
  Result<HeldGraph> g = MakeHeldGraph(Small());
  REQUIRE(g.ok());
  std::vector<std::uint8_t> bytes = EncodeHeldGraph(*g);
  Result<HeldGraph> back = DecodeHeldGraph(bytes);
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CHECK(back->id == 3);
  CHECK(back->graph.offsets() == g->graph.offsets());
  CHECK(back->graph.targets() == g->graph.targets());
  CHECK(back->features.offsets == g->features.offsets);
  CHECK(back->features.indices == g->features.indices);
  CHECK(back->features.values == g->features.values);
  CHECK(back->labels == g->labels);
  CHECK(back->classes == 2);
  for (std::size_t at : {std::size_t{0}, std::size_t{20}, bytes.size() - 9}) {
    std::vector<std::uint8_t> bad = bytes;
    bad[at] ^= 0x40;
    CHECK(DecodeHeldGraph(bad).status().code() == StatusCode::kDataLoss);
  }
  bytes.pop_back();
  CHECK(DecodeHeldGraph(bytes).status().code() == StatusCode::kDataLoss);
}
