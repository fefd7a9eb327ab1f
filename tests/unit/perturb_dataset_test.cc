#include "privacy/perturb_dataset.h"

#include <doctest/doctest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>

#include "privacy/local_lap_server.h"

using namespace ldpgraph;

namespace {
// Ten graphs, each a ring of 30 users plus a chord.
GraphDataset Rings() {
  GraphDataset ds;
  for (int g = 0; g < 10; ++g) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
    for (std::uint32_t i = 0; i < 30; ++i) edges.emplace_back(i, (i + 1) % 30);
    edges.emplace_back(0, 15);
    ds.graphs.push_back(CsrGraph::FromUndirectedEdges(30, edges));
    ds.raw_labels.push_back(g % 2);
  }
  MapLabels(&ds);
  return ds;
}
}  // namespace

TEST_CASE("PerturbDataset.SameSeedSameNoisyGraphs") {
  PerturbOptions o;
  o.seeded = true;
  o.seed = 7;
  PerturbSummary s1, s2;
  auto a = PerturbDataset(Rings(), o, &s1);
  auto b = PerturbDataset(Rings(), o, &s2);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  for (std::size_t g = 0; g < 10; ++g) CHECK(a->graphs[g].targets() == b->graphs[g].targets());
  CHECK(s1.users == 300u);
  CHECK(s1.true_edges == 620u);
  CHECK(a->raw_labels == Rings().raw_labels);
}

TEST_CASE("PerturbDataset.ThreadCountDoesNotChangeTheOutput") {
  // Graphs run in parallel, each on its own stream: one thread or two must
  // give the same noisy graphs, for the list mechanisms and for LocalLap.
  for (const char* name : {"dprr", "rr", "locallap"}) {
    PerturbOptions o;
    REQUIRE(ParsePerturbMechanism(name, &o).ok());
    o.seeded = true;
    o.seed = 11;
    PerturbSummary s1, s2;
    const int before = omp_get_max_threads();
    omp_set_num_threads(1);
    auto one = PerturbDataset(Rings(), o, &s1);
    omp_set_num_threads(2);
    auto two = PerturbDataset(Rings(), o, &s2);
    omp_set_num_threads(before);
    REQUIRE(one.ok());
    REQUIRE(two.ok());
    for (std::size_t g = 0; g < 10; ++g) CHECK(one->graphs[g].targets() == two->graphs[g].targets());
    CHECK(s1.noisy_edges == s2.noisy_edges);
    CHECK(s1.graphs == 10u);
  }
}

TEST_CASE("PerturbDataset.AllNonPrivateKeepsTheGraph") {
  PerturbOptions o;
  o.seeded = true;
  o.non_private_fraction = 1.0;
  PerturbSummary s;
  auto noisy = PerturbDataset(Rings(), o, &s);
  REQUIRE(noisy.ok());
  CHECK(s.non_private_users == 300u);
  for (std::size_t g = 0; g < 10; ++g) CHECK(noisy->graphs[g].targets() == Rings().graphs[g].targets());
}

TEST_CASE("PerturbDataset.NonPrivateFractionIsExactPerGraph") {
  PerturbOptions o;
  o.seeded = true;
  o.non_private_fraction = 0.2;
  PerturbSummary s;
  REQUIRE(PerturbDataset(Rings(), o, &s).ok());
  CHECK(s.non_private_users == 60u);  // 6 of 30 in each of 10 graphs
}

TEST_CASE("PerturbDataset.DisclosedListsOnlyCorrectEntries") {
  // The same reports with and without the server's use of the disclosed
  // lists: every entry it adds is a true edge, every entry it drops a false
  // one, and at this size it does both.
  PerturbOptions o;
  o.seeded = true;
  o.seed = 7;
  o.non_private_fraction = 0.5;
  PerturbSummary s1, s2;
  auto plain = PerturbDataset(Rings(), o, &s1);
  o.use_disclosed_lists = true;
  auto used = PerturbDataset(Rings(), o, &s2);
  REQUIRE(plain.ok());
  REQUIRE(used.ok());
  const GraphDataset truth = Rings();
  auto has = [](const CsrGraph& g, std::uint32_t u, std::uint32_t v) {
    const auto row = g.neighbours(u);
    return std::binary_search(row.begin(), row.end(), v);
  };
  int added = 0, dropped = 0, wrong = 0;
  for (std::size_t g = 0; g < truth.graphs.size(); ++g) {
    for (std::uint32_t u = 0; u < 30; ++u) {
      for (std::uint32_t v = 0; v < 30; ++v) {
        const bool before = has(plain->graphs[g], u, v), after = has(used->graphs[g], u, v);
        if (before == after) continue;
        const bool real = has(truth.graphs[g], u, v);
        (after ? added : dropped) += 1;
        wrong += after != real;
      }
    }
  }
  CHECK(wrong == 0);
  CHECK(added > 0);
  CHECK(dropped > 0);
}

TEST_CASE("PerturbDataset.FailsFractionOutsideUnitInterval") {
  PerturbOptions o;
  o.non_private_fraction = 1.5;
  PerturbSummary s;
  CHECK(PerturbDataset(Rings(), o, &s).status().code() == StatusCode::kInvalidArgument);
  o.non_private_fraction = std::nan("");
  CHECK(PerturbDataset(Rings(), o, &s).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("PerturbDataset.FailsNmaxBelowLargestGraph") {
  PerturbOptions o;
  o.n_max = 10;
  PerturbSummary s;
  CHECK(PerturbDataset(Rings(), o, &s).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("PerturbDataset.EveryMechanismRuns") {
  for (auto m : {EdgeMechanism::kDprr, EdgeMechanism::kRr, EdgeMechanism::kLocalLap, EdgeMechanism::kNone}) {
    PerturbOptions o;
    o.mechanism = m;
    o.allocation = BudgetAllocation::kFixed;
    o.epsilon = 2.0;
    o.seeded = true;
    o.non_private_fraction = 0.1;
    PerturbSummary s;
    auto noisy = PerturbDataset(Rings(), o, &s);
    REQUIRE_MESSAGE(noisy.ok(), noisy.status().ToString());
    CHECK(noisy->graphs.size() == 10u);
    CHECK(s.noisy_edges > 0u);
  }
}

TEST_CASE("LocalLap.KeepsTheTopTAndEveryKnownEdge") {
  // 4 users; user 3 is non-private with true list {0}. Private users 0, 1, 2
  // report noisy degrees summing (with the known edge 3-0 subtracted) to 2T = 2.
  std::vector<NoisyEdges> reports(4);
  for (int i = 0; i < 3; ++i) {
    reports[i].mechanism = EdgeMechanism::kLocalLap;
    reports[i].values.assign(3, 0);
  }
  reports[0].noisy_degree = 2;  // 2 + 1 + 0 - 1 known = 2 -> T = 1
  reports[1].noisy_degree = 1;
  reports[2].noisy_degree = 0;
  reports[0].values = {/*1*/ 5, /*2*/ 30, /*3*/ 0};  // pair (0,2) is the largest
  reports[1].values = {/*0*/ 0, /*2*/ 7, /*3*/ 0};
  reports[3].mechanism = EdgeMechanism::kNone;
  reports[3].neighbours = {0};
  SeededRandomSource rng(1);
  auto g = AssembleLocalLap(reports, rng);
  REQUIRE(g.ok());
  CHECK(g->num_entries() == 4u);  // 0-2 selected, 0-3 known
  CHECK(g->degree(0) == 2u);
  CHECK(g->degree(1) == 0u);
}

TEST_CASE("LocalLap.RejectsOtherMechanisms") {
  std::vector<NoisyEdges> reports(2);
  reports[0].mechanism = EdgeMechanism::kDprr;
  SeededRandomSource rng(1);
  CHECK(AssembleLocalLap(reports, rng).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("PerturbDataset.MechanismNamesSetTheAllocationTheirDefinitionsUse") {
  PerturbOptions o;
  REQUIRE(ParsePerturbMechanism("dprr", &o).ok());
  CHECK(o.mechanism == EdgeMechanism::kDprr);
  CHECK(o.allocation == BudgetAllocation::kPaper);
  REQUIRE(ParsePerturbMechanism("dprr-fixed", &o).ok());
  CHECK(o.mechanism == EdgeMechanism::kDprr);
  CHECK(o.allocation == BudgetAllocation::kFixed);
  REQUIRE(ParsePerturbMechanism("locallap", &o).ok());  // the paper's LocalLap: eps1 = eps / 10
  CHECK(o.mechanism == EdgeMechanism::kLocalLap);
  CHECK(o.allocation == BudgetAllocation::kFixed);
  REQUIRE(ParsePerturbMechanism("rr", &o).ok());
  CHECK(o.mechanism == EdgeMechanism::kRr);
  REQUIRE(ParsePerturbMechanism("none", &o).ok());
  CHECK(o.mechanism == EdgeMechanism::kNone);
  Status bad = ParsePerturbMechanism("magic", &o);
  CHECK(bad.code() == StatusCode::kInvalidArgument);
  CHECK(bad.message().find("magic") != std::string::npos);
}
