#include "gap/held_graph.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstring>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>

#include "base/byte_io.h"
#include "base/crc32.h"

namespace ldpgraph {
namespace {

constexpr char kMagic[8] = {'L', 'G', 'H', 'E', 'L', 'D', '\0', '\0'};
constexpr std::uint32_t kVersion = 2;  // 1: no keys or border

std::string Pair(std::uint64_t a, std::uint64_t b) {
  return "(" + std::to_string(a) + ", " + std::to_string(b) + ")";
}

// Checks a party share's keys and border edges and stores them in `g`.
Status SetPartyShare(const HeldGraphParts& p, HeldGraph* g) {
  if (p.keys.empty()) {
    if (!p.border.empty()) return Status::InvalidArgument("border edges need keys for the nodes");
    return Status::Ok();
  }
  if (p.keys.size() != p.num_nodes) {
    return Status::InvalidArgument("keys must have one entry per node (" + std::to_string(p.num_nodes) + "), got " +
                                   std::to_string(p.keys.size()));
  }
  std::unordered_map<std::uint64_t, std::size_t> own;
  for (std::size_t i = 0; i < p.keys.size(); ++i) {
    if (p.keys[i] > 0xffffffffull) return Status::InvalidArgument("key of node " + std::to_string(i) + " is above 2^32 - 1");
    if (!own.emplace(p.keys[i], i).second) {
      return Status::InvalidArgument("key " + std::to_string(p.keys[i]) + " is given to nodes " +
                                     std::to_string(own[p.keys[i]]) + " and " + std::to_string(i));
    }
    g->keys.push_back(static_cast<std::uint32_t>(p.keys[i]));
  }
  std::map<std::string, std::uint32_t> party_index;
  std::unordered_map<std::uint64_t, std::string> party_of_key;
  for (std::size_t i = 0; i < p.border.size(); ++i) {
    const HeldGraphParts::Border& b = p.border[i];
    const std::string where = "border edge " + std::to_string(i) + ": ";
    if (b.node >= p.num_nodes) return Status::InvalidArgument(where + "node " + std::to_string(b.node) + " is not below num_nodes");
    if (!ValidPartyName(b.party)) return Status::InvalidArgument(where + "party \"" + b.party + "\" is not 1-64 of [a-z0-9_-]");
    if (b.key > 0xffffffffull) return Status::InvalidArgument(where + "key is above 2^32 - 1");
    if (own.count(b.key)) return Status::InvalidArgument(where + "key " + std::to_string(b.key) + " is this share's own node");
    auto [it, fresh] = party_of_key.emplace(b.key, b.party);
    if (!fresh && it->second != b.party) {
      return Status::InvalidArgument(where + "key " + std::to_string(b.key) + " is put in parties \"" + it->second +
                                     "\" and \"" + b.party + "\"");
    }
    party_index.emplace(b.party, 0);
  }
  for (auto& [name, index] : party_index) {
    index = static_cast<std::uint32_t>(g->border_parties.size());
    g->border_parties.push_back(name);
  }
  for (const HeldGraphParts::Border& b : p.border) {
    g->border.push_back({static_cast<std::uint32_t>(b.node), static_cast<std::uint32_t>(b.key), party_index[b.party]});
  }
  std::sort(g->border.begin(), g->border.end(), [](const HeldGraph::BorderEdge& a, const HeldGraph::BorderEdge& b) {
    return std::tie(a.node, a.key) < std::tie(b.node, b.key);
  });
  g->border.erase(std::unique(g->border.begin(), g->border.end(),
                              [](const HeldGraph::BorderEdge& a, const HeldGraph::BorderEdge& b) {
                                return a.node == b.node && a.key == b.key;
                              }),
                  g->border.end());
  return Status::Ok();
}

}  // namespace

bool ValidPartyName(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) return false;
  }
  return true;
}

std::size_t HeldGraph::labelled() const {
  return static_cast<std::size_t>(std::count_if(labels.begin(), labels.end(), [](int y) { return y >= 0; }));
}

Result<HeldGraph> MakeHeldGraph(const HeldGraphParts& p) {
  if (p.num_nodes < 2 || p.num_nodes > kMaxHeldNodes) {
    return Status::InvalidArgument("num_nodes must be in [2, 2^30], got " + std::to_string(p.num_nodes));
  }
  if (p.classes < 2 || p.classes > kMaxHeldClasses) {
    return Status::InvalidArgument("classes must be in [2, 65536], got " + std::to_string(p.classes));
  }
  if (p.feature_dims < 1 || p.feature_dims > kMaxHeldFeatureDims) {
    return Status::InvalidArgument("feature_dims must be in [1, 2^24], got " + std::to_string(p.feature_dims));
  }
  const auto n = static_cast<std::uint32_t>(p.num_nodes);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  edges.reserve(p.edges.size());
  for (std::size_t i = 0; i < p.edges.size(); ++i) {
    const auto [u, v] = p.edges[i];
    if (u >= n || v >= n) {
      return Status::InvalidArgument("edge " + std::to_string(i) + " " + Pair(u, v) + " names a node not below num_nodes = " +
                                     std::to_string(n));
    }
    if (u == v) return Status::InvalidArgument("edge " + std::to_string(i) + " " + Pair(u, v) + " is a self-loop");
    edges.emplace_back(static_cast<std::uint32_t>(u), static_cast<std::uint32_t>(v));
  }
  std::vector<std::tuple<std::uint32_t, std::uint32_t, float>> entries;
  entries.reserve(p.features.size());
  for (std::size_t i = 0; i < p.features.size(); ++i) {
    const HeldGraphParts::Entry& e = p.features[i];
    if (e.node >= n || e.feature >= p.feature_dims) {
      return Status::InvalidArgument("feature entry " + std::to_string(i) + " " + Pair(e.node, e.feature) +
                                     " is outside num_nodes x feature_dims");
    }
    // The float bound itself: a value once stored as a float must pass this
    // check again when the graph is loaded (3.0e38 as a float is above 3.0e38).
    if (!std::isfinite(e.value) || std::fabs(e.value) > std::numeric_limits<float>::max()) {
      return Status::InvalidArgument("feature entry " + std::to_string(i) + " has a value that is not a finite float");
    }
    entries.emplace_back(static_cast<std::uint32_t>(e.node), static_cast<std::uint32_t>(e.feature),
                         static_cast<float>(e.value));
  }
  std::sort(entries.begin(), entries.end());
  for (std::size_t i = 1; i < entries.size(); ++i) {
    if (std::get<0>(entries[i]) == std::get<0>(entries[i - 1]) && std::get<1>(entries[i]) == std::get<1>(entries[i - 1])) {
      return Status::InvalidArgument("feature " + Pair(std::get<0>(entries[i]), std::get<1>(entries[i])) +
                                     " is given twice");
    }
  }
  if (p.labels.size() != p.num_nodes) {
    return Status::InvalidArgument("labels must have one entry per node (" + std::to_string(n) + "), got " +
                                   std::to_string(p.labels.size()));
  }
  HeldGraph g;
  g.id = p.id;
  g.classes = static_cast<int>(p.classes);
  for (std::size_t i = 0; i < p.labels.size(); ++i) {
    if (p.labels[i] < -1 || p.labels[i] >= static_cast<std::int64_t>(p.classes)) {
      return Status::InvalidArgument("label of node " + std::to_string(i) + " is " + std::to_string(p.labels[i]) +
                                     ", not in [-1, classes)");
    }
    g.labels.push_back(static_cast<int>(p.labels[i]));
  }
  g.graph = CsrGraph::FromUndirectedEdges(n, edges);
  g.features.rows = n;
  g.features.cols = static_cast<std::int64_t>(p.feature_dims);
  g.features.offsets.assign(static_cast<std::size_t>(n) + 1, 0);
  for (const auto& [node, feature, value] : entries) {
    ++g.features.offsets[node + 1];
    g.features.indices.push_back(static_cast<std::int32_t>(feature));
    g.features.values.push_back(value);
  }
  for (std::size_t r = 0; r < n; ++r) g.features.offsets[r + 1] += g.features.offsets[r];
  LDPGRAPH_RETURN_IF_ERROR(SetPartyShare(p, &g));
  return g;
}

std::vector<std::uint8_t> EncodeHeldGraph(const HeldGraph& g) {
  std::vector<std::uint8_t> out(kMagic, kMagic + sizeof kMagic);
  base::PutFixed32(&out, kVersion);
  base::PutFixed64(&out, g.id);
  base::PutFixed32(&out, g.graph.num_nodes());
  base::PutFixed32(&out, static_cast<std::uint32_t>(g.classes));
  base::PutFixed32(&out, static_cast<std::uint32_t>(g.features.cols));
  base::PutFixed64(&out, g.edges());
  for (std::uint32_t u = 0; u < g.graph.num_nodes(); ++u) {
    for (std::uint32_t v : g.graph.neighbours(u)) {
      if (u >= v) continue;
      base::PutFixed32(&out, u);
      base::PutFixed32(&out, v);
    }
  }
  base::PutFixed64(&out, static_cast<std::uint64_t>(g.features.nnz()));
  for (std::int64_t r = 0; r < g.features.rows; ++r) {
    for (std::int64_t k = g.features.offsets[r]; k < g.features.offsets[r + 1]; ++k) {
      std::uint32_t bits;
      std::memcpy(&bits, &g.features.values[k], sizeof bits);
      base::PutFixed32(&out, static_cast<std::uint32_t>(r));
      base::PutFixed32(&out, static_cast<std::uint32_t>(g.features.indices[k]));
      base::PutFixed32(&out, bits);
    }
  }
  for (int y : g.labels) base::PutFixed32(&out, static_cast<std::uint32_t>(y));
  base::PutFixed32(&out, g.is_party_share() ? 1 : 0);
  for (std::uint32_t key : g.keys) base::PutFixed32(&out, key);
  base::PutFixed32(&out, static_cast<std::uint32_t>(g.border_parties.size()));
  for (const std::string& name : g.border_parties) {
    base::PutFixed32(&out, static_cast<std::uint32_t>(name.size()));
    out.insert(out.end(), name.begin(), name.end());
  }
  base::PutFixed64(&out, g.border.size());
  for (const HeldGraph::BorderEdge& b : g.border) {
    base::PutFixed32(&out, b.node);
    base::PutFixed32(&out, b.key);
    base::PutFixed32(&out, b.party);
  }
  base::PutFixed32(&out, base::Crc32(out.data(), out.size()));
  return out;
}

Result<HeldGraph> DecodeHeldGraph(const std::vector<std::uint8_t>& bytes) {
  if (bytes.size() < sizeof kMagic + 4 + 4 || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) {
    return Status::DataLoss("not a held graph file");
  }
  base::ByteReader crc(bytes.data() + bytes.size() - 4, 4);
  std::uint32_t stored = 0;
  (void)crc.ReadFixed32(&stored);
  if (stored != base::Crc32(bytes.data(), bytes.size() - 4)) return Status::DataLoss("held graph fails its checksum");
  base::ByteReader in(bytes.data() + sizeof kMagic, bytes.size() - sizeof kMagic - 4);
  std::uint32_t version = 0, nodes = 0, classes = 0, dims = 0;
  std::uint64_t edges = 0, entries = 0;
  HeldGraphParts p;
  if (!in.ReadFixed32(&version) || version < 1 || version > kVersion) return Status::DataLoss("unsupported held graph version");
  if (!in.ReadFixed64(&p.id) || !in.ReadFixed32(&nodes) || !in.ReadFixed32(&classes) || !in.ReadFixed32(&dims) ||
      !in.ReadFixed64(&edges) || edges > in.remaining() / 8) {
    return Status::DataLoss("held graph truncated");
  }
  p.num_nodes = nodes;
  p.classes = classes;
  p.feature_dims = dims;
  p.edges.resize(edges);
  for (auto& [u, v] : p.edges) {
    std::uint32_t a = 0, b = 0;
    (void)in.ReadFixed32(&a);
    (void)in.ReadFixed32(&b);
    u = a;
    v = b;
  }
  if (!in.ReadFixed64(&entries) || entries > in.remaining() / 12) return Status::DataLoss("held graph truncated");
  p.features.resize(entries);
  for (HeldGraphParts::Entry& e : p.features) {
    std::uint32_t node = 0, feature = 0, bits = 0;
    (void)in.ReadFixed32(&node);
    (void)in.ReadFixed32(&feature);
    (void)in.ReadFixed32(&bits);
    float value;
    std::memcpy(&value, &bits, sizeof value);
    e = {node, feature, value};
  }
  if (in.remaining() < static_cast<std::size_t>(nodes) * 4) return Status::DataLoss("held graph has bad labels");
  p.labels.resize(nodes);
  for (std::int64_t& y : p.labels) {
    std::uint32_t raw = 0;
    (void)in.ReadFixed32(&raw);
    y = static_cast<std::int32_t>(raw);
  }
  if (version >= 2) {
    std::uint32_t keyed = 0, parties = 0;
    if (!in.ReadFixed32(&keyed) || keyed > 1 || (keyed && in.remaining() < static_cast<std::size_t>(nodes) * 4)) {
      return Status::DataLoss("held graph has bad keys");
    }
    if (keyed) p.keys.resize(nodes);
    for (std::uint64_t& key : p.keys) {
      std::uint32_t raw = 0;
      (void)in.ReadFixed32(&raw);
      key = raw;
    }
    std::vector<std::string> names;
    if (!in.ReadFixed32(&parties) || parties > in.remaining() / 4) return Status::DataLoss("held graph truncated");
    for (std::uint32_t i = 0; i < parties; ++i) {
      std::uint32_t length = 0;
      if (!in.ReadFixed32(&length) || length > in.remaining()) return Status::DataLoss("held graph truncated");
      std::vector<std::uint8_t> name(length);
      (void)in.ReadBytes(name.data(), length);
      names.emplace_back(name.begin(), name.end());
    }
    std::uint64_t border = 0;
    if (!in.ReadFixed64(&border) || border > in.remaining() / 12) return Status::DataLoss("held graph truncated");
    p.border.resize(border);
    for (HeldGraphParts::Border& b : p.border) {
      std::uint32_t node = 0, key = 0, party = 0;
      (void)in.ReadFixed32(&node);
      (void)in.ReadFixed32(&key);
      (void)in.ReadFixed32(&party);
      if (party >= names.size()) return Status::DataLoss("held graph names an unknown party");
      b = {node, names[party], key};
    }
  }
  if (in.remaining() != 0) return Status::DataLoss("held graph has trailing bytes");
  Result<HeldGraph> g = MakeHeldGraph(p);
  if (!g.ok()) return Status::DataLoss("held graph: " + g.status().message());
  return g;
}

}  // namespace ldpgraph
