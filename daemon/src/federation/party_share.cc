#include "federation/party_share.h"

#include <algorithm>
#include <map>
#include <numeric>

#include "ldpgraph/random_source.h"
#include "ldpgraph/samplers.h"
#include "util/seed_mix.h"

namespace ldpgraph {

Result<PartyShare> MakePartyShare(const HeldGraph& held, const std::vector<std::string>& parties,
                                  const std::string& self) {
  if (!held.is_party_share()) {
    return Status::InvalidArgument("held graph " + std::to_string(held.id) + " has no keys: it is not a party's share");
  }
  std::map<std::string, int> index;
  for (const std::string& name : parties) {
    if (!index.emplace(name, static_cast<int>(index.size())).second) {
      return Status::InvalidArgument("party \"" + name + "\" is named twice");
    }
  }
  if (!index.count(self)) return Status::InvalidArgument("this party (\"" + self + "\") is not in the run");
  std::vector<int> party_of(held.border_parties.size());
  for (std::size_t i = 0; i < held.border_parties.size(); ++i) {
    const auto it = index.find(held.border_parties[i]);
    if (it == index.end() || held.border_parties[i] == self) {
      return Status::InvalidArgument("held graph " + std::to_string(held.id) + " has friends in party \"" +
                                     held.border_parties[i] + "\", which is not another party of the run");
    }
    party_of[i] = it->second;
  }
  const std::uint32_t n = held.graph.num_nodes();
  PartyShare share;
  share.node.resize(n);
  std::iota(share.node.begin(), share.node.end(), 0u);
  std::sort(share.node.begin(), share.node.end(),
            [&](std::uint32_t a, std::uint32_t b) { return held.keys[a] < held.keys[b]; });
  std::vector<std::uint32_t> local(n);
  for (std::uint32_t i = 0; i < n; ++i) local[share.node[i]] = i;

  PartyGraph& g = share.graph;
  g.party = index[self];
  std::vector<std::vector<std::uint32_t>> rows(n);
  // Border edges are sorted by (node, key): gather each node's run.
  std::vector<std::size_t> first(static_cast<std::size_t>(n) + 1, 0);
  for (const HeldGraph::BorderEdge& b : held.border) ++first[b.node + 1];
  for (std::uint32_t u = 0; u < n; ++u) first[u + 1] += first[u];
  g.border_offsets.assign(1, 0);
  share.features = Matrix::Zero(n, held.features.cols);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t u = share.node[i];
    g.users.push_back(held.keys[u]);
    for (std::uint32_t v : held.graph.neighbours(u)) rows[i].push_back(local[v]);
    std::sort(rows[i].begin(), rows[i].end());
    for (std::size_t e = first[u]; e < first[u + 1]; ++e) {
      g.border_targets.push_back(held.border[e].key);
      g.border_party.push_back(party_of[held.border[e].party]);
    }
    g.border_offsets.push_back(g.border_targets.size());
    g.degree.push_back(static_cast<std::uint32_t>(held.graph.degree(u) + (first[u + 1] - first[u])));
    for (std::int64_t k = held.features.offsets[u]; k < held.features.offsets[u + 1]; ++k) {
      share.features(i, held.features.indices[static_cast<std::size_t>(k)]) = held.features.values[static_cast<std::size_t>(k)];
    }
    share.labels.push_back(held.labels[u]);
  }
  g.internal = CsrGraph::FromRows(rows);
  return share;
}

PartyTask SplitPartyUsers(const PartyShare& share, const std::string& self, std::uint64_t seed, double train_fraction,
                          double val_fraction) {
  std::uint64_t name_hash = 1469598103934665603ull;  // FNV-1a: each party its own stream
  for (char c : self) name_hash = (name_hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  SeededRandomSource rng(MixSeed(seed, name_hash));
  PartyTask task;
  task.labels = share.labels;
  std::vector<std::uint32_t> labelled;
  for (std::uint32_t u = 0; u < share.labels.size(); ++u) {
    if (share.labels[u] >= 0) labelled.push_back(u);
  }
  for (std::size_t i = labelled.size(); i > 1; --i) {
    std::swap(labelled[i - 1], labelled[UniformBelow(rng, i)]);
  }
  const auto train = static_cast<std::size_t>(train_fraction * static_cast<double>(labelled.size()));
  const auto val = static_cast<std::size_t>(val_fraction * static_cast<double>(labelled.size()));
  for (std::size_t i = 0; i < labelled.size(); ++i) {
    (i < train ? task.train : i < train + val ? task.val : task.test).push_back(labelled[i]);
  }
  return task;
}

}  // namespace ldpgraph
