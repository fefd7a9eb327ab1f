// RoundHistory: what a user's memoised reports to one graph have revealed
// over its rounds, and the privacy loss that follows (docs/rounds.md).
//
// A memoised report reveals one permanent coin per value it perturbs (a
// friend's bit, a degree, a feature value, a label). A value sent again
// reveals nothing new; a new value reveals its own coin. So the loss after
// any number of rounds counts the distinct values, not the rounds:
//   edges     eps2 x (1, or 2 once some friend has been both added and
//             absent) + eps1 x (distinct degrees)      [RR: eps2 = eps]
//   features  eps / m x (distinct (dimension, value) pairs sent)
//   label     eps x (distinct labels)
// An unchanged user therefore spends one round's epsilon for ever.
#ifndef LDPGRAPH_ROUND_HISTORY_H_
#define LDPGRAPH_ROUND_HISTORY_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "ldpgraph/graph_config.h"
#include "ldpgraph/permanent_coins.h"
#include "ldpgraph/report_builder.h"

namespace ldpgraph {

struct RoundHistory {
  std::uint64_t rounds = 0;      // rounds reported
  std::uint64_t last_round = 0;  // the latest one's number (when rounds > 0)
  // Sorted, distinct. Friends whose 1 coin has been used, and those of them
  // whose 0 coin has been used too (absent in some round): both bits shown.
  std::vector<std::uint32_t> friends_ever;
  std::vector<std::uint32_t> both_bits;
  std::vector<std::uint64_t> degrees;  // true degrees whose noise was sent
  std::vector<std::pair<std::uint32_t, std::uint64_t>> feature_values;  // (dimension, value bits)
  std::vector<std::uint32_t> labels;
};

// The loss by part, in epsilon (+infinity for a part sent without privacy).
struct RoundLoss {
  double edges = 0;
  double features = 0;
  double label = 0;
  double total() const { return edges + features + label; }
};

// The history after one more round of `data` numbered `round`, which must
// be above the last one. Pure: no randomness, nothing sent. Errors: the
// builder's CheckUserData() (kFailedPrecondition for an embedding graph),
// kFailedPrecondition for a round not above the last, and the edge
// mechanism's for a bad neighbour list.
Result<RoundHistory> AfterRound(const ReportBuilder& builder, const PermanentCoins& coins,
                                const RoundHistory& before, const UserData& data, std::uint64_t round);

// The loss a history stands for under the graph's policy.
RoundLoss LossOf(const GraphConfig& config, const RoundHistory& history);

}  // namespace ldpgraph

#endif  // LDPGRAPH_ROUND_HISTORY_H_
