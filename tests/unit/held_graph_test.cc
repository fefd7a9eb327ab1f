// Held graphs: what an owner sends is checked item by item, repeated edges
// merge, and the storage encoding round-trips and refuses corruption.
#include "gap/held_graph.h"

#include <doctest/doctest.h>

#include <cstring>

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

// CRC-32 (IEEE, reflected), bit by bit: the storage encoding's checksum.
std::uint32_t Crc32(const std::vector<std::uint8_t>& bytes) {
  std::uint32_t crc = 0xffffffffu;
  for (std::uint8_t b : bytes) {
    crc ^= b;
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

// Small() as party "a"'s share of a coupled graph: keys 10-13, friends in b and c.
HeldGraphParts Share() {
  HeldGraphParts p = Small();
  p.keys = {10, 11, 12, 13};
  p.border = {{0, "c", 30}, {0, "b", 20}, {3, "b", 20}, {0, "b", 20}};  // the last repeats the second
  return p;
}

}  // namespace

TEST_CASE("HeldGraph.PartyShareKeepsKeysAndBorderSorted") {
  Result<HeldGraph> g = MakeHeldGraph(Share());
  REQUIRE_MESSAGE(g.ok(), g.status().ToString());
  CHECK(g->is_party_share());
  CHECK(g->keys == std::vector<std::uint32_t>{10, 11, 12, 13});
  CHECK(g->border_parties == std::vector<std::string>{"b", "c"});
  REQUIRE(g->border.size() == 3);
  CHECK((g->border[0].node == 0 && g->border[0].key == 20 && g->border[0].party == 0));
  CHECK((g->border[1].node == 0 && g->border[1].key == 30 && g->border[1].party == 1));
  CHECK((g->border[2].node == 3 && g->border[2].key == 20 && g->border[2].party == 0));
  Result<HeldGraph> back = DecodeHeldGraph(EncodeHeldGraph(*g));
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CHECK(back->keys == g->keys);
  CHECK(back->border_parties == g->border_parties);
  CHECK(back->border.size() == 3);
  CHECK(back->border[1].key == 30);
  CHECK(!MakeHeldGraph(Small())->is_party_share());
}

TEST_CASE("HeldGraph.RefusesEachBadShareItem") {
  struct Case {
    const char* what;
    void (*spoil)(HeldGraphParts&);
  };
  const Case cases[] = {
      {"border without keys", [](HeldGraphParts& p) { p.keys.clear(); }},
      {"keys short", [](HeldGraphParts& p) { p.keys.pop_back(); }},
      {"key repeated", [](HeldGraphParts& p) { p.keys[1] = 10; }},
      {"key above 2^32", [](HeldGraphParts& p) { p.keys[1] = 1ull << 32; }},
      {"border node out of range", [](HeldGraphParts& p) { p.border[0].node = 4; }},
      {"empty party", [](HeldGraphParts& p) { p.border[0].party = ""; }},
      {"party with a capital", [](HeldGraphParts& p) { p.border[0].party = "B"; }},
      {"own key", [](HeldGraphParts& p) { p.border[0].key = 12; }},
      {"key in two parties", [](HeldGraphParts& p) { p.border[0].key = 20; }},
  };
  for (const Case& c : cases) {
    HeldGraphParts p = Share();
    c.spoil(p);
    INFO(std::string(c.what));
    CHECK(MakeHeldGraph(p).status().code() == StatusCode::kInvalidArgument);
  }
}

TEST_CASE("HeldGraph.DecodesVersionOneFiles") {
  // A version 2 file of a graph held whole, less the empty share fields
  // (keyed 0, parties 0, border edges 0: 16 bytes), is a version 1 file.
  std::vector<std::uint8_t> bytes = EncodeHeldGraph(*MakeHeldGraph(Small()));
  bytes.resize(bytes.size() - 4 - 16);
  const std::uint32_t one = 1;
  std::memcpy(bytes.data() + 8, &one, 4);
  const std::uint32_t crc = Crc32(bytes);
  for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<std::uint8_t>(crc >> (8 * i)));
  Result<HeldGraph> g = DecodeHeldGraph(bytes);
  REQUIRE_MESSAGE(g.ok(), g.status().ToString());
  CHECK(g->edges() == 3);
  CHECK(!g->is_party_share());
}

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
