// The shared datasets: the readers reproduce their published counts, and
// the perturbation runs on them. Skips without ../shared/data.
#include <doctest/doctest.h>

#include <set>

#include "dataset/graph_dataset.h"
#include "privacy/perturb_dataset.h"
#include "ldpgraph/samplers.h"
#include "support/decoupled_check.h"
#include "train/splits.h"
#include "support/shared_data.h"

using namespace ldpgraph;
using ldpgraph::testing::SharedDataDir;

TEST_CASE("SharedData.RedditBinaryCounts") {
  auto ds = ReadDataset(SharedDataDir() + "/graphs/REDDIT-BINARY.txt");
  REQUIRE_MESSAGE(ds.ok(), ds.status().ToString());
  CHECK(ds->format == DatasetFormat::kS2v);
  CHECK(ds->graphs.size() == 2000u);
  CHECK(ds->num_classes == 2u);
  CHECK(ds->max_nodes() == 3782u);
  CHECK(ds->num_nodes() / 2000.0 == doctest::Approx(429.6).epsilon(0.001));
  CHECK(static_cast<double>(ds->num_entries()) / ds->num_nodes() == doctest::Approx(2.32).epsilon(0.005));
}

TEST_CASE("SharedData.ImdbBinaryCounts") {
  auto ds = ReadDataset(SharedDataDir() + "/graphs/IMDB-BINARY");
  REQUIRE_MESSAGE(ds.ok(), ds.status().ToString());
  CHECK(ds->format == DatasetFormat::kTu);
  CHECK(ds->graphs.size() == 1000u);
  CHECK(ds->num_classes == 2u);
  CHECK(ds->max_nodes() == 136u);
  CHECK(ds->num_nodes() / 1000.0 == doctest::Approx(19.8).epsilon(0.005));
  CHECK(static_cast<double>(ds->num_entries()) / ds->num_nodes() == doctest::Approx(9.76).epsilon(0.005));
}

TEST_CASE("SharedData.CoraCounts") {
  auto ds = ReadDataset(SharedDataDir() + "/nodes/cora");
  REQUIRE_MESSAGE(ds.ok(), ds.status().ToString());
  CHECK(ds->format == DatasetFormat::kCsv);
  CHECK(ds->graphs.size() == 1u);
  CHECK(ds->graphs[0].num_nodes() == 2708u);
  CHECK(ds->graphs[0].num_entries() == 2u * 5278u);
  std::set<std::int64_t> classes(ds->node_labels.begin(), ds->node_labels.end());
  CHECK(classes.size() == 7u);
}

TEST_CASE("SharedData.CoraInThreePartiesDecoupledGcnEqualsCentralised") {
  // FedCog (issue 24): Cora's users dealt at random to 3 parties; the
  // parties' decoupled forward pass gives the centralised GCN's scores.
  auto ds = ReadDataset(SharedDataDir() + "/nodes/cora");
  REQUIRE(ds.ok());
  const Matrix x = NodeFeatures::Sparse(ds->node_features).ToDense();
  SeededRandomSource rng(24);
  std::vector<int> party_of(ds->graphs[0].num_nodes());
  for (int& p : party_of) p = static_cast<int>(UniformBelow(rng, 3));
  for (bool selu : {true, false}) {
    const double gap = testing::DecoupledGcnGap(ds->graphs[0], x, party_of, 3, selu, 16, 7, 1);
    MESSAGE("largest difference, " << (selu ? "SELU" : "ReLU") << ": " << gap);
    CHECK(gap < 1e-5);
  }
}

TEST_CASE("SharedData.CoraInThreePartiesFederatedSgcEqualsCentralised") {
  // FedCog-SGC on Cora (50/25/25 split): 3 parties at random and the whole
  // graph in one party give the same propagation and the same model.
  auto ds = ReadDataset(SharedDataDir() + "/nodes/cora");
  REQUIRE(ds.ok());
  const Matrix x = NodeFeatures::Sparse(ds->node_features).ToDense();
  const std::uint32_t n = ds->graphs[0].num_nodes();
  std::vector<int> labels(ds->node_labels.begin(), ds->node_labels.end());
  const Split split = StratifiedSplit(labels, 0.50, 0.25, 0);
  std::vector<int> role(n, 2);
  for (std::uint32_t u : split.train) role[u] = 0;
  for (std::uint32_t u : split.val) role[u] = 1;
  SeededRandomSource rng(24);
  std::vector<int> party_of(n);
  for (int& p : party_of) p = static_cast<int>(UniformBelow(rng, 3));
  FederatedSgcOptions o;
  const auto one = testing::CheckFederatedSgc(ds->graphs[0], x, labels, role, std::vector<int>(n, 0), 1, 7, 2, o);
  const auto three = testing::CheckFederatedSgc(ds->graphs[0], x, labels, role, party_of, 3, 7, 2, o);
  MESSAGE("SGC (K = 2) test accuracy: centralised " << one.run.test_accuracy << ", 3 parties "
          << three.run.test_accuracy << "; propagation differs by at most " << three.propagation_gap);
  CHECK(three.propagation_gap < 1e-5);
  CHECK(three.run.test_accuracy == one.run.test_accuracy);
  CHECK(one.run.test_accuracy > 0.8);
}

TEST_CASE("SharedData.DprrOnImdbKeepsTheGraphSparse") {
  auto ds = ReadDataset(SharedDataDir() + "/graphs/IMDB-BINARY");
  REQUIRE(ds.ok());
  PerturbOptions o;
  o.epsilon = 2.0;  // eq. 8 with n_max = 136 needs epsilon > sqrt(8/135) / 0.9... here eps1 = 0.243
  o.seeded = true;
  PerturbSummary dprr, rr;
  REQUIRE(PerturbDataset(*ds, o, &dprr).ok());
  o.mechanism = EdgeMechanism::kRr;
  REQUIRE(PerturbDataset(*ds, o, &rr).ok());
  MESSAGE("IMDB-BINARY at epsilon 2: true entries " << dprr.true_edges << ", DPRR " << dprr.noisy_edges
                                                    << ", RR " << rr.noisy_edges);
  CHECK(dprr.noisy_edges < 1.5 * dprr.true_edges);
  CHECK(rr.noisy_edges > dprr.noisy_edges);
}
