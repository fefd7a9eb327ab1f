// The longitudinal edge game (audit/longitudinal_game.h) through the SDK's
// real memoised mechanisms: 100 unchanged rounds tell an attacker no more
// than one; a friend added at round 50 against one removed then stays within
// 2 eps2; added against never shows, at the exact AUC the docs state; and
// with fresh noise every round the same attack wins, so the game can fail.
#include <doctest/doctest.h>

#include "audit/longitudinal_game.h"

using namespace ldpgraph;

namespace {

const LongitudinalRound& Find(const std::vector<LongitudinalRound>& rounds, const std::string& game,
                              std::uint32_t t) {
  for (const LongitudinalRound& r : rounds) {
    if (r.game == game && r.rounds == t) return r;
  }
  FAIL("no round " << game << " " << t);
  return rounds[0];
}

}  // namespace

TEST_CASE("LongitudinalGame.MemoisedRoundsTellNoMoreThanOne") {
  for (EdgeMechanism m : {EdgeMechanism::kRr, EdgeMechanism::kDprr, EdgeMechanism::kRrDegree}) {
    INFO(std::string(EdgeMechanismName(m)));
    LongitudinalOptions o;
    o.mechanism = m;
    o.trials = 2000;
    auto rounds = PlayLongitudinalGames(o);
    REQUIRE_MESSAGE(rounds.ok(), rounds.status().ToString());
    std::string why;
    CHECK_MESSAGE(LongitudinalVerdict(*rounds, true, &why), why);
    const LongitudinalRound& one = Find(*rounds, "unchanged", 1);
    const LongitudinalRound& hundred = Find(*rounds, "unchanged", 100);
    CHECK(hundred.auc == doctest::Approx(one.auc).epsilon(0.05));
    CHECK(one.auc <= *one.bound + 0.03);
    if (m == EdgeMechanism::kRr) {
      const LongitudinalRound& flip = Find(*rounds, "added-vs-never", 100);
      REQUIRE(flip.exact.has_value());
      CHECK(*flip.exact == doctest::Approx(0.849).epsilon(0.002));  // epsilon 1
      CHECK(flip.interval.low <= *flip.exact);
      CHECK(flip.interval.high >= *flip.exact);
    }
    MESSAGE(std::string(EdgeMechanismName(m)) << ": unchanged T=1 " << one.auc << ", T=100 " << hundred.auc << ", swap "
                                 << Find(*rounds, "swap", 100).auc << " (bound "
                                 << *Find(*rounds, "swap", 100).bound << ")");
  }
}

TEST_CASE("LongitudinalGame.FreshNoiseEveryRoundLosesTheGame") {
  LongitudinalOptions o;
  o.memoised = false;
  o.trials = 1000;
  auto rounds = PlayLongitudinalGames(o);
  REQUIRE(rounds.ok());
  std::string why;
  CHECK_MESSAGE(LongitudinalVerdict(*rounds, false, &why), why);
  CHECK(Find(*rounds, "unchanged", 100).auc > 0.99);
  // The memoised verdict on these rounds refuses them.
  CHECK_FALSE(LongitudinalVerdict(*rounds, true, &why));
}

TEST_CASE("LongitudinalGame.RefusesWhatItCannotPlay") {
  LongitudinalOptions o;
  o.mechanism = EdgeMechanism::kLocalLap;
  CHECK(PlayLongitudinalGames(o).status().code() == StatusCode::kInvalidArgument);
  o.mechanism = EdgeMechanism::kRr;
  o.trials = 10;
  CHECK(PlayLongitudinalGames(o).status().code() == StatusCode::kInvalidArgument);
}
