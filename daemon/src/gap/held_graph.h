// HeldGraph: a graph its owner uploads whole to ldpgraphd, GAP's trust model.
// Unlike the LDP graphs, whose every report is randomized on the device
// before it leaves, this graph reaches the server as it is: true edges,
// features and labels, trusted to the server like any personal data it
// stores. What the server releases from it (a GAP model and its
// predictions) is edge- or node-level DP; the graph itself never leaves.
//
// Storage encoding (little-endian): "LGHELD\0\0" | u32 version = 1 |
// u64 id | u32 nodes | u32 classes | u32 feature dims | u64 edges, each
// u32 u, u32 v (u < v) | u64 feature entries, each u32 node, u32 feature,
// f32 value | nodes x i32 label (-1: none) | [version 2: u32 keyed (0/1) |
// keyed ? nodes x u32 key | u32 parties, each u32 length + name bytes |
// u64 border edges, each u32 node, u32 key, u32 party] | u32 CRC-32 of all
// before. Version 1 files (no keys) still decode.
#ifndef LDPGRAPH_DAEMON_GAP_HELD_GRAPH_H_
#define LDPGRAPH_DAEMON_GAP_HELD_GRAPH_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/sparse_matrix.h"
#include "graph/csr_graph.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

struct HeldGraph {
  std::uint64_t id = 0;
  CsrGraph graph;           // undirected: every edge both ways
  SparseMatrix features;    // nodes x dims, rows sorted, one value per entry
  std::vector<int> labels;  // per node, -1 when unknown
  int classes = 0;

  // A party's share of a coupled graph (federation/, FedCog): every node's
  // key, the id all parties know her by, and her friends that other parties
  // hold (by key and party). Empty for a graph held whole.
  std::vector<std::uint32_t> keys;
  std::vector<std::string> border_parties;  // names, increasing
  struct BorderEdge {
    std::uint32_t node = 0, key = 0, party = 0;  // party: index into border_parties
  };
  std::vector<BorderEdge> border;  // sorted by (node, key), no repeats

  std::uint64_t edges() const { return graph.num_entries() / 2; }
  std::size_t labelled() const;
  bool is_party_share() const { return !keys.empty(); }
};

// What an owner sends, before it is checked.
struct HeldGraphParts {
  std::uint64_t id = 0;
  std::uint64_t num_nodes = 0;
  std::uint64_t classes = 0;
  std::uint64_t feature_dims = 0;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> edges;  // each edge once or both ways
  struct Entry {
    std::uint64_t node = 0, feature = 0;
    double value = 0;
  };
  std::vector<Entry> features;
  std::vector<std::int64_t> labels;  // num_nodes of them
  std::vector<std::uint64_t> keys;   // empty, or num_nodes distinct keys below 2^32
  struct Border {
    std::uint64_t node = 0;
    std::string party;
    std::uint64_t key = 0;
  };
  std::vector<Border> border;  // needs keys; repeats are merged
};

// A party name: 1-64 characters from [a-z0-9_-].
bool ValidPartyName(const std::string& name);

// Limits of one held graph.
inline constexpr std::uint64_t kMaxHeldNodes = 1u << 30;
inline constexpr std::uint64_t kMaxHeldClasses = 1u << 16;
inline constexpr std::uint64_t kMaxHeldFeatureDims = 1u << 24;

// Checks every part and builds the graph: repeated edges are merged.
// Errors: kInvalidArgument naming the first offending item: nodes outside
// [2, 2^30], classes outside [2, 2^16], feature dims outside [1, 2^24], an
// edge or entry out of range, a self-loop, a feature entry given twice or
// not finite, labels not one per node or outside [-1, classes), keys not
// one per node, repeated or above 2^32 - 1, a border edge without keys,
// naming a node out of range, a bad party name, one of the share's own keys,
// or a key that another border edge puts in another party.
Result<HeldGraph> MakeHeldGraph(const HeldGraphParts& parts);

std::vector<std::uint8_t> EncodeHeldGraph(const HeldGraph& graph);
// Errors: kDataLoss for a wrong magic, version or checksum, or contents
// MakeHeldGraph refuses.
Result<HeldGraph> DecodeHeldGraph(const std::vector<std::uint8_t>& bytes);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GAP_HELD_GRAPH_H_
