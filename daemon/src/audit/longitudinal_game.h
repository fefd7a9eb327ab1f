// The longitudinal edge game (docs/rounds.md): an attacker who sees a user's
// reports over many rounds tries to tell whether one friendship (target
// user 0, friend v) is in her list. Each trial is a new device (a fresh
// permanent key), playing one of two histories; the reports are built
// through the SDK's real code (ReportBuilder::BuildMemoised, or Build for
// the fresh-noise control), and the attack reads bit v of each round.
//
//   unchanged T   with the edge in all T rounds, against without it; the
//                 attack averages the T bits. Memoised, T = 100 must stay
//                 within T = 1's interval; with fresh noise it must not
//                 (the control that shows the game can fail).
//   swap          the edge added at round T/2 against removed at T/2: the
//                 attack is bit(after) - bit(before); bound 2 eps2.
//   added-vs-never  added at T/2 against never a friend: the likelihood-
//                 ratio attack on (bit before, bit after), with flips
//                 first. Under memoisation this has no finite epsilon (a
//                 change shows); for RR its exact AUC is
//                 f + p^2 (1 - p) + p (1 - p) / 2, f = p^2 + (1 - p)^2.
#ifndef LDPGRAPH_DAEMON_AUDIT_LONGITUDINAL_GAME_H_
#define LDPGRAPH_DAEMON_AUDIT_LONGITUDINAL_GAME_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "audit/auc_bounds.h"
#include "ldpgraph/edge_mechanism.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

struct LongitudinalOptions {
  EdgeMechanism mechanism = EdgeMechanism::kRr;  // rr, dprr or rr-degree
  double epsilon = 1;
  std::uint32_t users = 200;   // n of the graph
  std::uint32_t degree = 10;   // the target's other friends
  std::uint32_t trials = 2000;  // devices per history
  bool memoised = true;         // false: fresh noise every round (the control)
  std::uint64_t seed = 1;
};

struct LongitudinalRound {
  std::string game;  // "unchanged", "swap", "added-vs-never"
  std::uint32_t rounds = 0;
  double auc = 0.5;
  AucInterval interval;
  std::optional<double> bound;  // the AUC the docs' guarantee allows
  std::optional<double> exact;  // the attack's exact AUC, where it has a formula
};

// Plays the games for T in {1, 10, 100} (unchanged) and T = 100 (the two
// with a change). Errors: kInvalidArgument for a mechanism other than rr,
// dprr or rr-degree, or options the mechanism refuses.
Result<std::vector<LongitudinalRound>> PlayLongitudinalGames(const LongitudinalOptions& options);

// The verdict `ldpgraph audit rounds` prints: memoised, the unchanged AUC
// at T = 100 lies within T = 1's interval and the swap's interval reaches
// down to its bound; fresh noise, T = 100's AUC is above T = 1's interval.
bool LongitudinalVerdict(const std::vector<LongitudinalRound>& rounds, bool memoised, std::string* why);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_AUDIT_LONGITUDINAL_GAME_H_
