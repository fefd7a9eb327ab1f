#include "ldpgraph/round_history.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <string>

#include "internal/validation.h"
#include "ldpgraph/dprr.h"

namespace ldpgraph {
namespace {

template <typename T>
void InsertSorted(std::vector<T>* values, const T& v) {
  auto it = std::lower_bound(values->begin(), values->end(), v);
  if (it == values->end() || !(*it == v)) values->insert(it, v);
}

template <typename T>
std::vector<T> Union(const std::vector<T>& a, const std::vector<T>& b) {
  std::vector<T> out;
  out.reserve(a.size() + b.size());
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

template <typename T>
std::vector<T> Difference(const std::vector<T>& a, const std::vector<T>& b) {
  std::vector<T> out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

}  // namespace

Result<RoundHistory> AfterRound(const ReportBuilder& builder, const PermanentCoins& coins,
                                const RoundHistory& before, const UserData& data, std::uint64_t round) {
  const GraphConfig& config = builder.config();
  LDPGRAPH_RETURN_IF_ERROR(builder.CheckUserData(data));  // refuses an embedding graph too
  if (before.rounds > 0 && round <= before.last_round) {
    return Status::FailedPrecondition("round " + std::to_string(round) + " of graph " +
                                      std::to_string(config.graph_id) + " is not after the last reported round " +
                                      std::to_string(before.last_round));
  }
  // The edge mechanism's own checks, so that a history is never made of a list it refuses.
  std::vector<std::uint32_t> friends;
  LDPGRAPH_RETURN_IF_ERROR(
      internal::SortAndCheckNeighbours(config.num_users, data.user_id, data.neighbours, &friends));
  RoundHistory after = before;
  after.rounds = before.rounds + 1;
  after.last_round = round;
  // A friend new since an earlier round showed her 0 bit then; a friend gone
  // now shows his 0 bit: either way both of that edge's coins are out.
  std::vector<std::uint32_t> shown_both = Difference(before.friends_ever, friends);
  if (before.rounds > 0) shown_both = Union(shown_both, Difference(friends, before.friends_ever));
  after.both_bits = Union(before.both_bits, shown_both);
  after.friends_ever = Union(before.friends_ever, friends);
  if (config.edges.mechanism != EdgeMechanism::kNone && config.edges.mechanism != EdgeMechanism::kRr) {
    InsertSorted(&after.degrees, static_cast<std::uint64_t>(friends.size()));
  }
  if (config.features.enabled) {
    for (std::uint32_t i : builder.feature_encoder().MemoisedDims(coins)) {
      InsertSorted(&after.feature_values, std::make_pair(i, MultiBitEncoder::ValueBits(data.features[i])));
    }
  }
  if (config.label.enabled) InsertSorted(&after.labels, data.label);
  return after;
}

RoundLoss LossOf(const GraphConfig& config, const RoundHistory& history) {
  RoundLoss loss;
  if (history.rounds == 0) return loss;
  const double bit_coins = history.both_bits.empty() ? 1.0 : 2.0;
  const EdgePolicy& e = config.edges;
  switch (e.mechanism) {
    case EdgeMechanism::kNone:
      loss.edges = std::numeric_limits<double>::infinity();
      break;
    case EdgeMechanism::kRr:
      loss.edges = bit_coins * e.epsilon;
      break;
    case EdgeMechanism::kDprr:
    case EdgeMechanism::kLocalLap:
    case EdgeMechanism::kRrDegree: {
      Result<BudgetSplit> split = AllocateBudget(e.epsilon, e.allocation, e.n_max == 0 ? config.num_users : e.n_max);
      // A config that builds has a valid split; an invalid one counts as unbounded.
      loss.edges = split.ok() ? bit_coins * split->eps2 + static_cast<double>(history.degrees.size()) * split->eps1
                              : std::numeric_limits<double>::infinity();
      break;
    }
  }
  if (config.features.enabled) {
    const double per_value = config.features.params.epsilon / config.features.params.SampledDims();
    loss.features = per_value * static_cast<double>(history.feature_values.size());
  }
  if (config.label.enabled) loss.label = config.label.epsilon * static_cast<double>(history.labels.size());
  return loss;
}

}  // namespace ldpgraph
