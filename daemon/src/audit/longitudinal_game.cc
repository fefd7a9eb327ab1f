#include "audit/longitudinal_game.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "audit/link_pairs.h"
#include "ldpgraph/dprr.h"
#include "ldpgraph/permanent_coins.h"
#include "ldpgraph/report_builder.h"

namespace ldpgraph {
namespace {

constexpr std::uint32_t kTarget = 0;  // the user whose reports are attacked
constexpr std::uint32_t kFriend = 1;  // the friendship in question: (0, 1)

// One device: its builder, and for the memoised game its permanent coins.
class Device {
 public:
  Device(const ReportBuilder& builder, const LongitudinalOptions& o, std::uint64_t trial)
      : builder_(builder), memoised_(o.memoised), rng_(o.seed * 0x9E3779B97F4A7C15ull + trial) {
    CoinKey key;
    rng_.FillBytes(key.data(), key.size());
    coins_ = std::make_unique<PermanentCoins>(key);
    for (std::uint32_t k = 0; k < o.degree; ++k) others_.push_back(2 + k * ((o.users - 2) / o.degree));
  }

  // Bit v of one round's report, with or without the friendship.
  Result<int> Bit(bool friends) {
    std::vector<std::uint32_t> list;
    if (friends) list.push_back(kFriend);
    list.insert(list.end(), others_.begin(), others_.end());
    UserData data;
    data.user_id = kTarget;
    data.neighbours = Span<const std::uint32_t>(list.data(), list.size());
    Result<Report> r = memoised_ ? builder_.BuildMemoised(data, *coins_, rng_) : builder_.Build(data, rng_);
    if (!r.ok()) return r.status();
    const auto& ids = r->edges.neighbours;
    return std::binary_search(ids.begin(), ids.end(), kFriend) ? 1 : 0;
  }

 private:
  const ReportBuilder& builder_;
  bool memoised_;
  SeededRandomSource rng_;
  std::unique_ptr<PermanentCoins> coins_;
  std::vector<std::uint32_t> others_;
};

// A history: whether the friendship holds in round t (0-based) of T.
using History = bool (*)(std::uint32_t t, std::uint32_t rounds);
bool Always(std::uint32_t, std::uint32_t) { return true; }
bool Never(std::uint32_t, std::uint32_t) { return false; }
bool AddedHalfway(std::uint32_t t, std::uint32_t rounds) { return t >= rounds / 2; }
bool RemovedHalfway(std::uint32_t t, std::uint32_t rounds) { return t < rounds / 2; }

// Each trial's T bits under `history`, from its own device.
Result<std::vector<std::vector<int>>> Play(const ReportBuilder& builder, const LongitudinalOptions& o,
                                           std::uint64_t salt, std::uint32_t rounds, History history) {
  std::vector<std::vector<int>> bits(o.trials);
  for (std::uint32_t i = 0; i < o.trials; ++i) {
    Device device(builder, o, salt * 1000003ull + i);
    for (std::uint32_t t = 0; t < rounds; ++t) {
      Result<int> b = device.Bit(history(t, rounds));
      if (!b.ok()) return b.status();
      bits[i].push_back(*b);
    }
  }
  return bits;
}

template <typename Score>
std::vector<double> Scores(const std::vector<std::vector<int>>& bits, Score score) {
  std::vector<double> s;
  for (const auto& b : bits) s.push_back(score(b));
  return s;
}

LongitudinalRound Measured(const std::string& game, std::uint32_t rounds, const std::vector<double>& positive,
                           const std::vector<double>& negative) {
  LongitudinalRound r;
  r.game = game;
  r.rounds = rounds;
  r.auc = ScoreAuc(positive, negative);
  r.interval = AucConfidenceInterval(r.auc, positive.size(), negative.size());
  return r;
}

}  // namespace

Result<std::vector<LongitudinalRound>> PlayLongitudinalGames(const LongitudinalOptions& o) {
  if (o.mechanism != EdgeMechanism::kRr && o.mechanism != EdgeMechanism::kDprr &&
      o.mechanism != EdgeMechanism::kRrDegree) {
    return Status::InvalidArgument("the longitudinal game attacks rr, dprr or rr-degree reports");
  }
  if (o.trials < 100 || o.users < o.degree + 2 || o.degree == 0) {
    return Status::InvalidArgument("need at least 100 trials and users >= degree + 2 > 2");
  }
  GraphConfig config;
  config.graph_id = 1;
  config.num_users = o.users;
  config.edges.mechanism = o.mechanism;
  config.edges.epsilon = o.epsilon;
  Result<std::unique_ptr<ReportBuilder>> builder = ReportBuilder::Create(config);
  if (!builder.ok()) return builder.status();
  const ReportBuilder& b = **builder;
  // Bits' share of the edge budget: the whole of RR's, eps2 of a split.
  const double eps2 = o.mechanism == EdgeMechanism::kRr ? o.epsilon
                                                         : AllocateBudget(o.epsilon, config.edges.allocation,
                                                                          o.users)->eps2;
  std::vector<LongitudinalRound> out;
  auto mean = [](const std::vector<int>& bits) {
    double s = 0;
    for (int x : bits) s += x;
    return s / static_cast<double>(bits.size());
  };
  std::uint64_t salt = 1;
  for (std::uint32_t rounds : {1u, 10u, 100u}) {
    auto with = Play(b, o, salt++, rounds, Always), without = Play(b, o, salt++, rounds, Never);
    if (!with.ok()) return with.status();
    if (!without.ok()) return without.status();
    LongitudinalRound r = Measured("unchanged", rounds, Scores(*with, mean), Scores(*without, mean));
    r.bound = MaxAucUnderDp(eps2, 0);
    out.push_back(r);
  }
  constexpr std::uint32_t kRounds = 100;
  auto added = Play(b, o, salt++, kRounds, AddedHalfway), removed = Play(b, o, salt++, kRounds, RemovedHalfway);
  auto never = Play(b, o, salt++, kRounds, Never);
  if (!added.ok()) return added.status();
  if (!removed.ok()) return removed.status();
  if (!never.ok()) return never.status();
  // Before and after the change: the last round before it and the first after.
  auto swap_score = [](const std::vector<int>& bits) {
    return static_cast<double>(bits[kRounds / 2] - bits[kRounds / 2 - 1]);
  };
  LongitudinalRound swap = Measured("swap", kRounds, Scores(*added, swap_score), Scores(*removed, swap_score));
  swap.bound = MaxAucUnderDp(2 * eps2, 0);
  out.push_back(swap);
  // Likelihood ratio of (before, after) for "added" against "never": a flip
  // only happens to an added friend; otherwise (1, 1) before (0, 0).
  auto flip_score = [](const std::vector<int>& bits) {
    const int before = bits[kRounds / 2 - 1], after = bits[kRounds / 2];
    return before != after ? 2.0 : (after == 1 ? 1.0 : 0.0);
  };
  LongitudinalRound flip = Measured("added-vs-never", kRounds, Scores(*added, flip_score), Scores(*never, flip_score));
  if (o.mechanism == EdgeMechanism::kRr) {
    const double p = std::exp(o.epsilon) / (1 + std::exp(o.epsilon));
    const double f = p * p + (1 - p) * (1 - p);
    // Memoised: a flip only under "added". Fresh noise: rounds apart are independent.
    if (o.memoised) flip.exact = f + p * p * (1 - p) + p * (1 - p) / 2;
  }
  out.push_back(flip);
  return out;
}

bool LongitudinalVerdict(const std::vector<LongitudinalRound>& rounds, bool memoised, std::string* why) {
  const LongitudinalRound* one = nullptr;
  const LongitudinalRound* hundred = nullptr;
  const LongitudinalRound* swap = nullptr;
  for (const LongitudinalRound& r : rounds) {
    if (r.game == "unchanged" && r.rounds == 1) one = &r;
    if (r.game == "unchanged" && r.rounds == 100) hundred = &r;
    if (r.game == "swap") swap = &r;
  }
  if (one == nullptr || hundred == nullptr || swap == nullptr) {
    *why = "the games did not all run";
    return false;
  }
  if (!memoised) {
    const bool refuted = hundred->auc > one->interval.high;
    *why = refuted ? "fresh noise: 100 rounds beat one round, as they must"
                   : "fresh noise: 100 rounds did not beat one round: the game has no power";
    return refuted;
  }
  if (hundred->auc < one->interval.low || hundred->auc > one->interval.high) {
    *why = "memoised: 100 unchanged rounds left one round's interval";
    return false;
  }
  if (swap->interval.low > *swap->bound) {
    *why = "memoised: the swap attack beat its 2 eps2 bound";
    return false;
  }
  *why = "memoised: 100 unchanged rounds within one round's interval, the swap within 2 eps2";
  return true;
}

}  // namespace ldpgraph
