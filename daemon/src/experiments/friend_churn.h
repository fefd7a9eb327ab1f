// FriendChurn: a social graph whose friend lists change between collection
// rounds, for the experiment over rounds (`ldpgraph experiment rounds`).
//
// Each round a fraction of the users who have friends (chosen uniformly)
// each drop a fraction of their friends and make as many new ones. A new
// friend is of her own class with probability h, the starting graph's edge
// homophily, and of another class otherwise (uniformly among the users of
// that kind who are not her friends yet), so the graph keeps its homophily
// and its size while ever more of it is new: a model trained on an old
// round's graph is not simply worse, and every round's true graph is as
// learnable as the first. Friendship is mutual: a dropped or new friend's
// own list changes too.
// Thread-safety: none (one churn per experiment run).
#ifndef LDPGRAPH_DAEMON_EXPERIMENTS_FRIEND_CHURN_H_
#define LDPGRAPH_DAEMON_EXPERIMENTS_FRIEND_CHURN_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "graph/csr_graph.h"
#include "ldpgraph/random_source.h"

namespace ldpgraph {

struct ChurnOptions {
  double user_fraction = 0.1;    // of the users with a friend, changing each round
  double friend_fraction = 0.1;  // of a changing user's friends (at least one)
  std::uint64_t seed = 1;
};

struct ChurnStep {
  std::uint64_t users_changing = 0;  // users who dropped and made friends
  std::uint64_t edges_dropped = 0;
  std::uint64_t edges_made = 0;
  std::vector<std::uint32_t> changed;  // users whose list differs from the last round's, increasing
};

class FriendChurn {
 public:
  // `graph` must be symmetric without self-loops; `labels` one class per
  // user (0 .. classes - 1; a user of a negative label is never chosen as a
  // new friend's class). Errors: kInvalidArgument for fractions outside
  // (0, 1], a label list of another length, or a graph that is not symmetric.
  static Result<std::unique_ptr<FriendChurn>> Create(const CsrGraph& graph, std::vector<int> labels, const ChurnOptions& options);

  // One round's changes.
  ChurnStep Step();

  // The friend lists now (symmetric, each row sorted).
  CsrGraph Graph() const { return CsrGraph::FromRows(lists_); }

  // The share of friendships within a class, now and at the start.
  double Homophily() const;
  double target_homophily() const { return target_homophily_; }

 private:
  FriendChurn(std::vector<std::vector<std::uint32_t>> lists, std::vector<int> labels, const ChurnOptions& options);
  bool AreFriends(std::uint32_t a, std::uint32_t b) const;
  void Drop(std::uint32_t a, std::uint32_t b);
  void Make(std::uint32_t a, std::uint32_t b);
  // A user who is not `u` nor her friend: of her class when `same`, else of
  // another; none (returns false) after many tries on a dense class.
  bool NewFriend(std::uint32_t u, bool same, std::uint32_t* out);

  std::vector<std::vector<std::uint32_t>> lists_;
  std::vector<int> labels_;
  std::vector<std::vector<std::uint32_t>> by_class_;
  std::vector<std::uint32_t> labelled_;  // users with a class, for "another class"
  ChurnOptions options_;
  double target_homophily_ = 0;
  std::unique_ptr<RandomSource> rng_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_EXPERIMENTS_FRIEND_CHURN_H_
