#include "experiments/friend_churn.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "ldpgraph/samplers.h"

namespace ldpgraph {

Result<std::unique_ptr<FriendChurn>> FriendChurn::Create(const CsrGraph& graph, std::vector<int> labels, const ChurnOptions& options) {
  if (!(options.user_fraction > 0 && options.user_fraction <= 1) ||
      !(options.friend_fraction > 0 && options.friend_fraction <= 1)) {
    return Status::InvalidArgument("the fractions of users and of friends that change take values in (0, 1]");
  }
  const std::uint32_t n = graph.num_nodes();
  if (labels.size() != n) {
    return Status::InvalidArgument("one label per user is needed: " + std::to_string(labels.size()) + " labels for " +
                                   std::to_string(n) + " users");
  }
  std::vector<std::vector<std::uint32_t>> lists(n);
  for (std::uint32_t u = 0; u < n; ++u) {
    const Span<const std::uint32_t> row = graph.neighbours(u);
    lists[u].assign(row.begin(), row.end());
  }
  for (std::uint32_t u = 0; u < n; ++u) {
    for (std::uint32_t v : lists[u]) {
      if (v == u || !std::binary_search(lists[v].begin(), lists[v].end(), u)) {
        return Status::InvalidArgument("friend lists change only on a symmetric graph without self-loops: user " +
                                       std::to_string(u) + " lists " + std::to_string(v));
      }
    }
  }
  return std::unique_ptr<FriendChurn>(new FriendChurn(std::move(lists), std::move(labels), options));
}

FriendChurn::FriendChurn(std::vector<std::vector<std::uint32_t>> lists, std::vector<int> labels,
                         const ChurnOptions& options)
    : lists_(std::move(lists)),
      labels_(std::move(labels)),
      options_(options),
      rng_(std::make_unique<SeededRandomSource>(options.seed)) {
  for (std::uint32_t u = 0; u < labels_.size(); ++u) {
    if (labels_[u] < 0) continue;
    const auto c = static_cast<std::size_t>(labels_[u]);
    if (by_class_.size() <= c) by_class_.resize(c + 1);
    by_class_[c].push_back(u);
    labelled_.push_back(u);
  }
  target_homophily_ = Homophily();
}

double FriendChurn::Homophily() const {
  std::uint64_t within = 0, labelled = 0;
  for (std::uint32_t u = 0; u < lists_.size(); ++u) {
    if (labels_[u] < 0) continue;
    for (std::uint32_t v : lists_[u]) {
      if (labels_[v] < 0) continue;
      ++labelled;
      within += labels_[u] == labels_[v];
    }
  }
  return labelled == 0 ? 0 : static_cast<double>(within) / static_cast<double>(labelled);
}

bool FriendChurn::AreFriends(std::uint32_t a, std::uint32_t b) const {
  return std::binary_search(lists_[a].begin(), lists_[a].end(), b);
}

void FriendChurn::Drop(std::uint32_t a, std::uint32_t b) {
  for (auto [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
    std::vector<std::uint32_t>& row = lists_[x];
    row.erase(std::lower_bound(row.begin(), row.end(), y));
  }
}

void FriendChurn::Make(std::uint32_t a, std::uint32_t b) {
  for (auto [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
    std::vector<std::uint32_t>& row = lists_[x];
    row.insert(std::lower_bound(row.begin(), row.end(), y), y);
  }
}

bool FriendChurn::NewFriend(std::uint32_t u, bool same, std::uint32_t* out) {
  const int c = labels_[u];
  const std::vector<std::uint32_t>& pool = c >= 0 && same ? by_class_[static_cast<std::size_t>(c)] : labelled_;
  if (pool.empty()) return false;
  // Rejection: classes are large next to a friend list, so a few tries do.
  for (int attempt = 0; attempt < 64; ++attempt) {
    const std::uint32_t v = pool[UniformBelow(*rng_, pool.size())];
    if (v == u || AreFriends(u, v)) continue;
    if (c >= 0 && !same && labels_[v] == c) continue;
    *out = v;
    return true;
  }
  return false;
}

ChurnStep FriendChurn::Step() {
  ChurnStep step;
  std::vector<std::uint32_t> candidates;
  for (std::uint32_t u = 0; u < lists_.size(); ++u) {
    if (!lists_[u].empty()) candidates.push_back(u);
  }
  if (candidates.empty()) return step;
  const auto changing = std::max<std::size_t>(
      1, static_cast<std::size_t>(std::llround(options_.user_fraction * static_cast<double>(candidates.size()))));
  // The lists this step touches, as they were: the users whose list differs
  // are among them (a dropped friend may be made again).
  std::map<std::uint32_t, std::vector<std::uint32_t>> before;
  const auto remember = [&](std::uint32_t a, std::uint32_t b) {
    before.try_emplace(a, lists_[a]);
    before.try_emplace(b, lists_[b]);
  };
  for (std::size_t i = 0; i < changing; ++i) {
    std::swap(candidates[i], candidates[i + UniformBelow(*rng_, candidates.size() - i)]);
    const std::uint32_t u = candidates[i];
    if (lists_[u].empty()) continue;  // an earlier user of this round dropped her last friend
    ++step.users_changing;
    const auto degree = static_cast<double>(lists_[u].size());
    const auto k = std::min<std::size_t>(
        lists_[u].size(), std::max<long long>(1, std::llround(options_.friend_fraction * degree)));
    for (std::size_t d = 0; d < k; ++d) {
      const std::uint32_t v = lists_[u][UniformBelow(*rng_, lists_[u].size())];
      remember(u, v);
      Drop(u, v);
      ++step.edges_dropped;
    }
    for (std::size_t m = 0; m < k; ++m) {
      std::uint32_t v = 0;
      if (!NewFriend(u, Bernoulli(*rng_, target_homophily_), &v)) continue;
      remember(u, v);
      Make(u, v);
      ++step.edges_made;
    }
  }
  for (const auto& [u, list] : before) {
    if (lists_[u] != list) step.changed.push_back(u);
  }
  return step;
}

}  // namespace ldpgraph
