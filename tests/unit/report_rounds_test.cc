// Reports over rounds through the ledger: memoised reports, the loss that
// counts distinct values, and every refusal leaving the ledger as it was.
#include <doctest/doctest.h>

#include <cmath>

#include "ldpgraph/budget_ledger.h"
#include "ldpgraph/dprr.h"
#include "ldpgraph/wire_format.h"
#include "support/memory_ledger_storage.h"

using namespace ldpgraph;
using ldpgraph::testing::MemoryStore;

namespace {

GraphConfig Config(EdgeMechanism mechanism = EdgeMechanism::kRrDegree) {
  GraphConfig c;
  c.graph_id = 21;
  c.num_users = 200;
  c.edges.mechanism = mechanism;
  c.edges.epsilon = 2.0;
  c.edges.allocation = BudgetAllocation::kFixed;
  c.features.enabled = true;
  c.features.params.dims = 6;
  c.features.params.epsilon = 4.5;  // two sampled dimensions
  c.label.enabled = true;
  c.label.classes = 4;
  c.label.epsilon = 1.0;
  return c;
}

std::unique_ptr<ReportBuilder> Builder(const GraphConfig& config) {
  auto b = ReportBuilder::Create(config);
  REQUIRE(b.ok());
  return std::move(b).value();
}

// A report without its id (fresh every round): what the randomization made.
Report Body(const std::vector<std::uint8_t>& bytes) {
  auto r = DecodeReport(bytes.data(), bytes.size());
  REQUIRE(r.ok());
  Report body = std::move(r).value();
  body.report_id = ReportId{};
  return body;
}

bool SameBody(const Report& a, const Report& b) {
  return a.edges.neighbours == b.edges.neighbours && a.edges.noisy_degree == b.edges.noisy_degree &&
         a.edges.q == b.edges.q && a.features.encoded == b.features.encoded && a.label.value == b.label.value;
}

struct User {
  std::vector<std::uint32_t> friends = {3, 17, 40, 41, 99, 150};
  std::vector<double> features = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
  std::uint32_t label = 2;
  UserData Data() const { return UserData{7, friends, features, true, label}; }
};

}  // namespace

TEST_CASE("ReportRound.AnUnchangedUserSendsOneReportAndSpendsOneRoundForEver") {
  const GraphConfig config = Config();
  auto builder = Builder(config);
  MemoryStore store;
  auto ledger = BudgetLedger::Open(store.Storage(), std::numeric_limits<double>::infinity());
  REQUIRE(ledger.ok());
  SeededRandomSource rng(5);
  User user;
  auto first = (*ledger)->ReportRound(*builder, user.Data(), 1, rng);
  REQUIRE(first.ok());
  const Report body = Body(*first);
  const double one_round = ReportEpsilon(body);
  CHECK(one_round == doctest::Approx(2.0 + 4.5 + 1.0));
  for (std::uint64_t round = 2; round <= 100; ++round) {
    auto bytes = (*ledger)->ReportRound(*builder, user.Data(), round, rng);
    REQUIRE(bytes.ok());
    CHECK(SameBody(Body(*bytes), body));
    CHECK(Body(*bytes).round == round);  // on the wire: version 2
    CHECK(*bytes != *first);  // a fresh report id
  }
  CHECK(body.round == 1u);
  CHECK((*ledger)->ReportRound(*builder, user.Data(), 0, rng).status().code() == StatusCode::kInvalidArgument);
  CHECK((*ledger)->ReportRound(*builder, user.Data(), 1ull << 32, rng).status().code() ==
        StatusCode::kInvalidArgument);
  auto loss = (*ledger)->Loss(config.graph_id);
  REQUIRE(loss.ok());
  CHECK(loss->rounds == 100u);
  CHECK(loss->last_round == 100u);
  CHECK(loss->epsilon == doctest::Approx(one_round));
  CHECK(loss->naive_epsilon == doctest::Approx(100 * one_round));
  CHECK((*ledger)->spent() == doctest::Approx(one_round));
}

TEST_CASE("ReportRound.EachNewValueCostsItsOwnCoin") {
  const GraphConfig config = Config();
  auto split = AllocateBudget(2.0, BudgetAllocation::kFixed, 200);
  REQUIRE(split.ok());
  auto builder = Builder(config);
  MemoryStore store;
  auto ledger = BudgetLedger::Open(store.Storage(), 100.0);
  SeededRandomSource rng(6);
  User user;
  REQUIRE((*ledger)->ReportRound(*builder, user.Data(), 1, rng).ok());
  // A friend added: her edge shows both bits, and the degree a new value.
  user.friends.push_back(60);
  REQUIRE((*ledger)->ReportRound(*builder, user.Data(), 2, rng).ok());
  auto loss = (*ledger)->Loss(config.graph_id);
  CHECK(loss->parts.edges == doctest::Approx(2 * split->eps2 + 2 * split->eps1));
  CHECK(loss->parts.features == doctest::Approx(4.5));
  CHECK(loss->parts.label == doctest::Approx(1.0));
  // Back to the first list: no new value, so nothing more.
  user.friends.pop_back();
  REQUIRE((*ledger)->ReportRound(*builder, user.Data(), 3, rng).ok());
  CHECK((*ledger)->Loss(config.graph_id)->epsilon == doctest::Approx(loss->epsilon));
  // A new label and one new value in every feature: a label coin, and a
  // coin per sampled dimension (2 of 6: eps / 2 each).
  user.label = 0;
  for (double& x : user.features) x += 0.05;
  REQUIRE((*ledger)->ReportRound(*builder, user.Data(), 4, rng).ok());
  auto after = (*ledger)->Loss(config.graph_id);
  CHECK(after->parts.label == doctest::Approx(2.0));
  CHECK(after->parts.features == doctest::Approx(9.0));
  CHECK(after->naive_epsilon == doctest::Approx(4 * 7.5));
}

TEST_CASE("ReportRound.ARetryOfTheRoundReturnsTheSameBytes") {
  auto builder = Builder(Config());
  MemoryStore store;
  auto ledger = BudgetLedger::Open(store.Storage(), 100.0);
  SeededRandomSource rng(7);
  User user;
  auto first = (*ledger)->ReportRound(*builder, user.Data(), 4, rng);
  user.friends.push_back(1);  // not read on a retry
  auto again = (*ledger)->ReportRound(*builder, user.Data(), 4, rng);
  REQUIRE(again.ok());
  CHECK(*again == *first);
  CHECK(store.stores == 1);
}

TEST_CASE("ReportRound.RefusalsChangeNothing") {
  const GraphConfig config = Config();
  auto builder = Builder(config);
  MemoryStore store;
  auto ledger = BudgetLedger::Open(store.Storage(), 100.0);
  SeededRandomSource rng(8);
  User user;
  REQUIRE((*ledger)->ReportRound(*builder, user.Data(), 5, rng).ok());
  const std::vector<std::uint8_t> state = store.state;

  SUBCASE("an earlier round") {
    auto r = (*ledger)->ReportRound(*builder, user.Data(), 4, rng);
    CHECK(r.status().code() == StatusCode::kFailedPrecondition);
    CHECK(r.status().message().find("not after the last reported round 5") != std::string::npos);
  }
  SUBCASE("a changed policy") {
    GraphConfig changed = config;
    changed.label.epsilon = 2.0;
    auto r = (*ledger)->ReportRound(*Builder(changed), user.Data(), 6, rng);
    CHECK(r.status().code() == StatusCode::kFailedPrecondition);
    CHECK(r.status().message().find("policy differs") != std::string::npos);
  }
  SUBCASE("bad data") {
    user.friends.push_back(7);  // herself
    CHECK((*ledger)->ReportRound(*builder, user.Data(), 6, rng).status().code() == StatusCode::kInvalidArgument);
    user.friends.back() = 500;
    CHECK((*ledger)->ReportRound(*builder, user.Data(), 6, rng).status().code() == StatusCode::kOutOfRange);
  }
  SUBCASE("a one-shot report of a graph in rounds") {
    auto r = (*ledger)->ReportOnce(config.graph_id, [] { return Result<BudgetLedger::NewReport>(BudgetLedger::NewReport{}); });
    CHECK(r.status().code() == StatusCode::kFailedPrecondition);
  }
  SUBCASE("a failed store") {
    store.fail_store = true;
    CHECK((*ledger)->ReportRound(*builder, user.Data(), 6, rng).status().code() == StatusCode::kUnavailable);
    store.fail_store = false;
    CHECK((*ledger)->Loss(config.graph_id)->last_round == 5u);
  }
  CHECK(store.state == state);
  CHECK((*ledger)->Loss(config.graph_id)->rounds == 1u);
}

TEST_CASE("ReportRound.RefusesARoundBeyondTheCap") {
  const GraphConfig config = Config();
  auto builder = Builder(config);
  MemoryStore store;
  auto ledger = BudgetLedger::Open(store.Storage(), 8.0);  // one round costs 7.5
  SeededRandomSource rng(9);
  User user;
  REQUIRE((*ledger)->ReportRound(*builder, user.Data(), 1, rng).ok());
  REQUIRE((*ledger)->ReportRound(*builder, user.Data(), 2, rng).ok());  // unchanged: free
  user.label = 1;  // one more label coin: 8.5 > 8
  auto r = (*ledger)->ReportRound(*builder, user.Data(), 3, rng);
  CHECK(r.status().code() == StatusCode::kResourceExhausted);
  CHECK(r.status().message().find("would bring it to 8.5") != std::string::npos);
  CHECK((*ledger)->spent() == doctest::Approx(7.5));
}

TEST_CASE("ReportRound.AGraphReportedOnceTakesNoRounds") {
  const GraphConfig config = Config();
  auto builder = Builder(config);
  MemoryStore store;
  auto ledger = BudgetLedger::Open(store.Storage(), 100.0);
  SeededRandomSource rng(10);
  REQUIRE((*ledger)->ReportOnce(config.graph_id, [] { return Result<BudgetLedger::NewReport>(BudgetLedger::NewReport{{1}, 1.0}); }).ok());
  User user;
  auto r = (*ledger)->ReportRound(*builder, user.Data(), 1, rng);
  CHECK(r.status().code() == StatusCode::kFailedPrecondition);
  CHECK(r.status().message().find("without rounds") != std::string::npos);
}

TEST_CASE("ReportRound.AnEmbeddingGraphHasNoRounds") {
  GraphConfig config;
  config.graph_id = 4;
  config.num_users = 10;
  config.embedding.enabled = true;
  auto builder = Builder(config);
  MemoryStore store;
  auto ledger = BudgetLedger::Open(store.Storage(), 100.0);
  SeededRandomSource rng(11);
  auto r = (*ledger)->ReportRound(*builder, UserData{}, 1, rng);
  CHECK(r.status().code() == StatusCode::kFailedPrecondition);
  CHECK(store.stores == 0);
}

TEST_CASE("ReportRound.TheKeyAndHistorySurviveARestart") {
  const GraphConfig config = Config(EdgeMechanism::kDprr);
  auto builder = Builder(config);
  MemoryStore store;
  User user;
  std::vector<std::uint8_t> first;
  {
    auto ledger = BudgetLedger::Open(store.Storage(), 100.0);
    SeededRandomSource rng(12);
    first = *(*ledger)->ReportRound(*builder, user.Data(), 1, rng);
    user.friends.push_back(80);
    REQUIRE((*ledger)->ReportRound(*builder, user.Data(), 2, rng).ok());
  }
  auto reopened = BudgetLedger::Open(store.Storage(), 100.0);
  REQUIRE(reopened.ok());
  SeededRandomSource other(99);  // a new process: another random source
  user.friends.pop_back();
  auto third = (*reopened)->ReportRound(*builder, user.Data(), 3, other);
  REQUIRE(third.ok());
  CHECK(SameBody(Body(*third), Body(first)));  // the same coins after the restart
  auto loss = (*reopened)->Loss(config.graph_id);
  CHECK(loss->rounds == 3u);
  // Every truncation of a state holding rounds is data loss, never a reset.
  for (std::size_t len = 1; len < store.state.size(); ++len) {
    std::vector<std::uint8_t> cut(store.state.begin(), store.state.begin() + static_cast<std::ptrdiff_t>(len));
    CHECK(BudgetLedger::Parse(cut).status().code() == StatusCode::kDataLoss);
  }
}
