// ldpgraph experiment and ldpgraph audit as real processes: the rows they
// write, resuming, their summaries and charts.
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <string>
#include <fstream>
#include <sstream>
#include <vector>
#include <sys/stat.h>
#include <sys/wait.h>

#include "support/cli_process.h"
#include "support/temp_dir.h"

using ldpgraph::testing::TempDir;
using ldpgraph::testing::Ldpgraph;
using ldpgraph::testing::Run;
using ldpgraph::testing::Lines;
using ldpgraph::testing::kTinyDataset;

namespace {

// A node dataset whose two classes differ in features and in who links to
// whom: 80 nodes, 6 binary features, a dense block per class.
void WriteTinyNodeDataset(const TempDir& dir) {
  std::string edges = "source,target\n", features = "node,feature,value\n", labels = "node,label\n";
  for (int u = 0; u < 80; ++u) {
    labels += std::to_string(u) + "," + std::to_string(u % 2) + "\n";
    for (int f = 0; f < 6; ++f) {
      if ((f % 2 == u % 2) || ((u * 7 + f * 3) % 11 == 0)) features += std::to_string(u) + "," + std::to_string(f) + ",1\n";
    }
    for (int v = u + 1; v < 80; ++v) {
      const bool same = u % 2 == v % 2;
      if ((same && (u * 31 + v * 17) % 9 == 0) || (!same && (u * 13 + v * 7) % 37 == 0)) {
        edges += std::to_string(u) + "," + std::to_string(v) + "\n";
      }
    }
  }
  ::mkdir((dir.path() + "/nodes").c_str(), 0755);
  dir.Write("nodes/edges.csv", edges);
  dir.Write("nodes/features.csv", features);
  dir.Write("nodes/labels.csv", labels);
}

bool Exists(const std::string& path) { return std::ifstream(path).good(); }

// The first line of the file that starts with `prefix` ("" if none).
std::string LineStarting(const std::string& path, const std::string& prefix) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) == 0) return line;
  }
  return "";
}

}  // namespace

TEST_CASE("Cli.ExperimentDprrWritesResumesAndCharts") {
  TempDir dir;
  const std::string data = dir.path() + "/communities.txt";
  REQUIRE(Ldpgraph("generate --output " + data + " --graphs 40 --min-nodes 20 --max-nodes 30 --seed 3").exit_code == 0);
  const std::string out = dir.path() + "/dprr";
  const std::string args = "experiment dprr --dataset " + data + " --mechanisms dprr,rr,nonpriv-part,nonpriv-full " +
                           "--epsilons 1,2 --alphas 0,0.5 --splits 2 --epochs 3 --jobs 2 --out " + out;
  Run r = Ldpgraph(args);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  // 4 mechanisms x 2 epsilons x 2 alphas x 2 splits, plus the header.
  CHECK(Lines(out + "/results.csv") == 1 + 32);
  CHECK(Lines(out + "/summary.csv") == 1 + 16);
  CHECK(Exists(out + "/accuracy_vs_epsilon__communities_0.5.svg"));
  CHECK(Exists(out + "/auc_vs_alpha__communities_1.svg"));
  // A rerun finds everything done and trains nothing.
  Run again = Ldpgraph(args);
  CHECK(again.exit_code == 0);
  CHECK(again.output.find("32 row(s) already in the results, 0 run(s) to do") != std::string::npos);
  CHECK(Lines(out + "/results.csv") == 1 + 32);
  // Bad settings are refused before any work, and change nothing.
  for (const std::string& bad : {std::string("--mechanisms magic"), std::string("--epsilons 0"),
                                 std::string("--alphas 1.5"), std::string("--epsilons a,b"),
                                 std::string("--node-input sizes"), std::string("--patience 0"),
                                 std::string("--min-epochs -5")}) {
    Run b = Ldpgraph("experiment dprr --dataset " + data + " --out " + out + " " + bad);
    CHECK(b.exit_code == 2);
  }
  CHECK(Lines(out + "/results.csv") == 1 + 32);
  // Eq. 8 spends at least sqrt(8 / (n_max - 1)) = 0.53 on the degree of
  // graphs of up to 30 users: epsilon 0.1 is refused before any row is
  // written, even the ones nonpriv-full could copy.
  Run small = Ldpgraph("experiment dprr --dataset " + data + " --mechanisms nonpriv-full,dprr --epsilons 3,0.1 " +
                       "--alphas 0 --splits 2 --epochs 3 --out " + out);
  CHECK(small.exit_code == 2);
  CHECK(small.output.find("dprr: epsilon 0.1 is too small for the paper allocation") != std::string::npos);
  CHECK(Lines(out + "/results.csv") == 1 + 32);

  // Another study reuses the finished settings and trains only the new
  // ones: dprr at epsilon 4 (whose training is dprr-disclosed's too, at
  // alpha 0), dprr-or (DPRR then OR-symmetrised) at both epsilons (each
  // also dprr-disclosed-or's), nothing for nonpriv-full (one training
  // serves every epsilon), one training for no-edges. The copied rows are
  // the original ones.
  const std::string second = dir.path() + "/second";
  Run reused = Ldpgraph("experiment dprr --dataset " + data + " --mechanisms dprr,dprr-or,dprr-disclosed,dprr-disclosed-or,nonpriv-full,no-edges " +
                        "--epsilons 2,4 --alphas 0 --splits 1 --epochs 3 --reuse " + out + " --out " + second);
  INFO(reused.output);
  REQUIRE(reused.exit_code == 0);
  CHECK(reused.output.find("4 rows copied from finished trainings") != std::string::npos);
  CHECK(reused.output.find("4 run(s) to do") != std::string::npos);
  const std::string copied = LineStarting(second + "/results.csv", "communities,dprr,2,0,0,");
  CHECK(!copied.empty());
  CHECK(copied == LineStarting(out + "/results.csv", "communities,dprr,2,0,0,"));
  CHECK(Lines(second + "/results.csv") == 1 + 12);
  // OR keeps every reported entry and adds the reverse of the one-sided ones.
  const std::string dprr2 = LineStarting(second + "/results.csv", "communities,dprr,2,0,0,");
  const std::string or2 = LineStarting(second + "/results.csv", "communities,dprr-or,2,0,0,");
  REQUIRE(!or2.empty());
  auto noisy_edges = [](const std::string& row) {  // column 9 of 10
    std::size_t at = 0;
    for (int i = 0; i < 8; ++i) at = row.find(',', at) + 1;
    return std::stoull(row.substr(at, row.find(',', at) - at));
  };
  CHECK(noisy_edges(or2) > noisy_edges(dprr2));
  // no-edges: every user, not one edge, one training for both epsilons.
  const std::string edgeless2 = LineStarting(second + "/results.csv", "communities,no-edges,2,0,0,");
  const std::string edgeless4 = LineStarting(second + "/results.csv", "communities,no-edges,4,0,0,");
  REQUIRE(!edgeless2.empty());
  CHECK(noisy_edges(edgeless2) == 0);
  CHECK(edgeless2.substr(edgeless2.find(",0,0,")) == edgeless4.substr(edgeless4.find(",0,0,")));
  // With nobody non-private (alpha 0) dprr-disclosed has nothing to use:
  // dprr's finished row is copied (epsilon 2); at epsilon 4 one training
  // writes both rows.
  auto measurements = [](const std::string& row) {  // accuracy to train_seconds: columns 6-10
    std::size_t from = 0;
    for (int i = 0; i < 5; ++i) from = row.find(',', from) + 1;
    return row.substr(from);
  };
  const std::string disclosed2 = LineStarting(second + "/results.csv", "communities,dprr-disclosed,2,0,0,");
  REQUIRE(!disclosed2.empty());
  CHECK(measurements(disclosed2) == measurements(dprr2));
  const std::string dprr4 = LineStarting(second + "/results.csv", "communities,dprr,4,0,0,");
  const std::string disclosed4 = LineStarting(second + "/results.csv", "communities,dprr-disclosed,4,0,0,");
  REQUIRE(!disclosed4.empty());
  CHECK(measurements(disclosed4) == measurements(dprr4));
  // Likewise dprr-disclosed-or is dprr-or at alpha 0.
  const std::string disclosed_or4 = LineStarting(second + "/results.csv", "communities,dprr-disclosed-or,4,0,0,");
  const std::string or4 = LineStarting(second + "/results.csv", "communities,dprr-or,4,0,0,");
  REQUIRE(!disclosed_or4.empty());
  CHECK(measurements(disclosed_or4) == measurements(or4));
  CHECK(Ldpgraph("experiment dprr --dataset " + data + " --reuse " + dir.path() + "/nowhere --out " + second)
            .exit_code == 2);
  // nonpriv-full and no-edges depend on neither epsilon nor alpha: a study
  // at settings no other one ran copies their rows and trains nothing.
  // (Outside the reports' folder: the report below counts its studies.)
  TempDir elsewhere;
  const std::string third = elsewhere.path() + "/third";
  Run baselines = Ldpgraph("experiment dprr --dataset " + data + " --mechanisms nonpriv-full,no-edges --epsilons 8 " +
                           "--alphas 0.3 --splits 1 --epochs 3 --reuse " + second + " --out " + third);
  INFO(baselines.output);
  REQUIRE(baselines.exit_code == 0);
  CHECK(baselines.output.find("2 rows copied from finished trainings") != std::string::npos);
  CHECK(baselines.output.find("0 run(s) to do") != std::string::npos);
  CHECK(measurements(LineStarting(third + "/results.csv", "communities,no-edges,8,0.3,0,")) == measurements(edgeless2));

  // The report: a section per study with its table, links, charts and the
  // trainings it took. dprr and rr: 2 x 2 x 2 each; nonpriv-part: one per
  // alpha and split; nonpriv-full: one per split.
  Run report = Ldpgraph("experiment report --results " + dir.path() + " --link-prefix r");
  INFO(report.output);
  REQUIRE(report.exit_code == 0);
  CHECK(report.output.find("## dprr\n\nTraining: 22 runs, ") != std::string::npos);
  CHECK(report.output.find("## second\n\nTraining: ") != std::string::npos);
  CHECK(report.output.find("| communities | no-edges | 4 | 0 | 1 |") != std::string::npos);
  CHECK(report.output.find("[results.csv](r/dprr/results.csv)") != std::string::npos);
  CHECK(report.output.find("![auc_vs_alpha__communities_1.svg](r/dprr/auc_vs_alpha__communities_1.svg)") !=
        std::string::npos);
  CHECK(Ldpgraph("experiment report --results " + dir.path() + "/nowhere").exit_code != 0);
}

TEST_CASE("Cli.ExperimentDegreeAndScaling") {
  TempDir dir;
  const std::string data = dir.path() + "/communities.txt";
  REQUIRE(Ldpgraph("generate --output " + data + " --graphs 10 --min-nodes 20 --max-nodes 30 --seed 3").exit_code == 0);
  Run d = Ldpgraph("experiment degree --dataset " + data + " --out " + dir.path() + "/degree");
  INFO(d.output);
  REQUIRE(d.exit_code == 0);
  CHECK(Lines(dir.path() + "/degree/summary.csv") == 1 + 3);
  CHECK(Exists(dir.path() + "/degree/degree_dprr.svg"));
  CHECK(Exists(dir.path() + "/degree/degree_binned.svg"));
  Run s = Ldpgraph("experiment scaling --out " + dir.path() + "/scaling --ms 3 --sizes 100,200 --graphs 4 --epochs 1");
  INFO(s.output);
  REQUIRE(s.exit_code == 0);
  CHECK(Lines(dir.path() + "/scaling/results.csv") == 1 + 6);
  CHECK(Exists(dir.path() + "/scaling/train_seconds_per_epoch_vs_n__3_1_4.svg"));
  CHECK(Ldpgraph("experiment scaling --out " + dir.path() + "/s2 --ms 300 --sizes 100").exit_code == 2);
}

// A generated node dataset (ldpgraph generate --kind sbm ARGS) in DIR/sbm.
std::string GenerateSbm(const TempDir& dir, const std::string& args) {
  const std::string data = dir.path() + "/sbm";
  Run gen = Ldpgraph("generate --kind sbm " + args + " --output " + data);
  INFO(gen.output);
  REQUIRE(gen.exit_code == 0);
  return data;
}

TEST_CASE("Cli.ExperimentGapWritesRowsSummaryAndChart") {
  TempDir dir;
  const auto data = GenerateSbm(dir, "--nodes 400 --degree 6 --features 40 --words 5 --seed 5");
  const auto out = dir.path() + "/gap";
  const std::string command =
      "experiment gap --dataset " + data + " --out " + out + " --epsilons 1,2,inf --splits 2 --epochs 10 --batch-size 64";
  Run r = Ldpgraph(command);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  // Per split: gap-edp, gap-edp-res, gap-ndp and gap-ndp-res at 1, 2 and
  // inf (two trainings each, gap-edp-res three; the MLP's row comes with
  // inf), mlp-dp at 1 and 2, gcn and sage.
  CHECK(r.output.find("experiment gap: 32 run(s) to do, 62 trainings") != std::string::npos);
  CHECK(Lines(out + "/results.csv") == 1 + 2 * 17);
  CHECK(Lines(out + "/summary.csv") == 1 + 17);
  CHECK(Exists(out + "/accuracy_vs_epsilon__sbm.svg"));
  Run again = Ldpgraph(command);
  CHECK(again.exit_code == 0);
  CHECK(again.output.find("32 row(s) already in the results, 0 run(s) to do") != std::string::npos);
  CHECK(Lines(out + "/results.csv") == 1 + 2 * 17);  // resumed: nothing to do
  for (const char* args : {"--epsilons 0", "--epsilons -1,2", "--splits 0", "--hops 0", "--levels vertex",
                           "--max-degree 0", "--batch-size 0"}) {
    Run bad = Ldpgraph("experiment gap --dataset " + data + " --out " + out + " " + args);
    INFO(args << ": " << bad.output);
    CHECK(bad.exit_code == 2);
  }
}

// The AUC in results.csv of one system's attack (-1 when absent).
double AuditAuc(const std::string& results, const std::string& system, const std::string& attack,
                const std::string& epsilon) {
  std::ifstream in(results);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream fields(line);
    for (std::string x; std::getline(fields, x, ',');) f.push_back(x);
    if (f.size() > 5 && f[1] == system && f[2] == attack && f[3] == epsilon) return std::stod(f[5]);
  }
  return -1;
}

TEST_CASE("Cli.AuditModelAttacksANodeModelThreeWays") {
  TempDir dir;
  const auto data = GenerateSbm(dir, "--nodes 600 --degree 6 --features 60 --words 6 --seed 3");
  const auto gcn = dir.path() + "/gcn.bin", gap = dir.path() + "/gap.bin";
  REQUIRE(Ldpgraph("train --dataset " + data + " --model gcn --epochs 60 --out " + gcn).exit_code == 0);
  REQUIRE(Ldpgraph("train --dataset " + data + " --model gap --privacy node --epsilon 4 --epochs 10 --out " + gap)
              .exit_code == 0);
  for (const char* attack : {"lsa", "linkteller", "mia"}) {
    Run r = Ldpgraph("audit model --model " + gcn + " --dataset " + data + " --attack " + attack);
    INFO(attack << ": " << r.output);
    REQUIRE(r.exit_code == 0);
    const auto at = r.output.find("\nauc=");
    REQUIRE(at != std::string::npos);
    const double auc = std::stod(r.output.substr(at + 5));
    CHECK(auc > 0.5);
    if (std::string(attack) == "linkteller") CHECK(auc > 0.9);  // a GCN answers feature queries: edges show
  }
  Run mia = Ldpgraph("audit model --model " + gap + " --dataset " + data + " --attack mia --split-seed 0");
  INFO(mia.output);
  CHECK(mia.exit_code == 0);
  CHECK(mia.output.find("uncalibrated_auc=") != std::string::npos);
  // GAP holds its predictions: it answers no feature query.
  Run teller = Ldpgraph("audit model --model " + gap + " --dataset " + data + " --attack linkteller");
  CHECK(teller.exit_code == 2);
  CHECK(teller.output.find("holds its predictions") != std::string::npos);
  for (const std::string args : {"--attack steal", "--pairs 0", "--seed x"}) {
    Run bad = Ldpgraph("audit model --model " + gcn + " --dataset " + data + " " + args);
    INFO(args << ": " << bad.output);
    CHECK(bad.exit_code == 2);
  }
  CHECK(Ldpgraph("audit model --model " + dir.path() + "/none.bin --dataset " + data).exit_code == 2);
}

TEST_CASE("Cli.ExperimentAuditPlaysTheEdgeGameAndJudgesEveryRow") {
  TempDir dir;
  const auto data = GenerateSbm(dir, "--nodes 800 --degree 6 --features 60 --words 6 --seed 4");
  const auto out = dir.path() + "/audit";
  const std::string command = "experiment audit --dataset " + data + " --out " + out +
                              " --epsilons 1,4 --splits 1 --targets 300 --epochs 10";
  Run r = Ldpgraph(command);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  // gcn and mlp 3 attacks each; at each epsilon dprr, rr, blink, ours and
  // gap-edp 1, gap-ndp 2, mlp-dp 1.
  CHECK(r.output.find("rows=22\nrefuted_rows=0\n") != std::string::npos);
  CHECK(Lines(out + "/results.csv") == 1 + 22);
  CHECK(Exists(out + "/edge_attacks__sbm.svg"));
  CHECK(Exists(out + "/membership__sbm.svg"));
  const std::string results = out + "/results.csv";
  // Power: randomized response at epsilon 4 gives kept targets away; an
  // edge-free model gives nothing (every influence is 0: ties, 1/2).
  CHECK(AuditAuc(results, "rr", "report", "4") > 0.95);
  CHECK(AuditAuc(results, "mlp", "linkteller", "inf") == doctest::Approx(0.5));
  CHECK(AuditAuc(results, "gcn", "linkteller", "inf") > 0.7);
  Run again = Ldpgraph(command);
  CHECK(again.exit_code == 0);
  CHECK(again.output.find("0 run(s) to do") != std::string::npos);
  for (const char* args : {"--epsilons inf", "--epsilons 0", "--systems gcn,steal", "--targets 1", "--splits 0"}) {
    Run bad = Ldpgraph("experiment audit --dataset " + data + " --out " + dir.path() + "/bad " + args);
    INFO(args << ": " << bad.output);
    CHECK(bad.exit_code == 2);
  }
}

TEST_CASE("Cli.ExperimentLpgnnCombinesPrivateFeaturesLabelsAndEdges") {
  TempDir dir;
  WriteTinyNodeDataset(dir);
  const std::string out = dir.path() + "/lpgnn";
  Run r = Ldpgraph("experiment lpgnn --dataset " + dir.path() + "/nodes --feature-mechanisms mbm,1bm " +
                   "--feature-epsilons 1,inf --label-methods ce,drop --label-epsilons 2,inf --edge-epsilons 1,inf " +
                   "--kx 0,2 --ky 0,2 --splits 1 --epochs 20 --out " + out);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  // (mbm@1, 1bm@1, none@inf) x (ce@2, drop@2, ce@inf: true labels need no
  // label method) x 2 edge settings x 1 split.
  CHECK(Lines(out + "/results.csv") == 1 + 18);
  CHECK(Exists(out + "/summary.csv"));
  // 12 runs train 2 models (one per kx), the 6 with Drop 3 (then ky 2 too): said up front.
  CHECK(r.output.find("experiment lpgnn: 18 run(s) to do, 42 trainings\n") != std::string::npos);
  CHECK(r.output.find("/18 runs, ") != std::string::npos);
  CHECK(Ldpgraph("experiment lpgnn --dataset " + dir.path() + "/nodes --label-methods magic --out " + out).exit_code == 2);
  CHECK(Ldpgraph("experiment lpgnn --dataset " + dir.path() + "/nodes --kx 1.5 --out " + out).exit_code == 2);
  CHECK(Ldpgraph("experiment lpgnn --dataset " + dir.path() + "/nodes --select-on best --out " + out).exit_code == 2);
  CHECK(Ldpgraph("experiment lpgnn --dataset " + dir.path() + "/nodes --patience 0 --out " + out).exit_code == 2);
  CHECK(Lines(out + "/results.csv") == 1 + 18);  // the refused runs changed nothing
  // LPGNN's own trainer rule: keep the epoch of best validation accuracy.
  Run by_accuracy = Ldpgraph("experiment lpgnn --dataset " + dir.path() + "/nodes --feature-mechanisms mbm " +
                             "--feature-epsilons 1 --label-methods drop --label-epsilons 2 --kx 0 --ky 2 " +
                             "--splits 1 --epochs 20 --select-on accuracy --patience 5 --min-epochs 0 --out " +
                             dir.path() + "/by-accuracy");
  INFO(by_accuracy.output);
  CHECK(by_accuracy.exit_code == 0);
  CHECK(Lines(dir.path() + "/by-accuracy/results.csv") == 2);
  CHECK(Ldpgraph("experiment nope").exit_code == 2);
}

TEST_CASE("Cli.ExperimentRoundsFollowsAccuracyAndEachUsersLossAsFriendsChange") {
  TempDir dir;
  WriteTinyNodeDataset(dir);
  const std::string out = dir.path() + "/rounds";
  const std::string command = "experiment rounds --dataset " + dir.path() + "/nodes --rounds 3 --splits 1 " +
                              "--epsilons 4 --mechanisms rr-degree,dprr --epochs 20 --change-users 0.2 --out " + out;
  Run r = Ldpgraph(command);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  // Edge-free once, the true graph each round, memoised and fresh each
  // round for both mechanisms.
  CHECK(Lines(out + "/results.csv") == 1 + 1 + 3 + 2 * 3 * 2);
  for (const char* mechanism : {"rr-degree", "dprr"}) {
    const std::string setting = std::string("setting=nodes/gcn/") + mechanism + "/4 ";
    const std::size_t at = r.output.find(setting);
    REQUIRE(at != std::string::npos);
    const std::string line = r.output.substr(at, r.output.find('\n', at) - at);
    CHECK(line.find(" rounds=3 ") != std::string::npos);
    CHECK(line.find(" loss_first_round=4 ") != std::string::npos);
    CHECK(line.find(" loss_naive=12") != std::string::npos);  // fresh noise: 3 rounds x 4
    CHECK(Exists(out + "/accuracy_vs_round__nodes_gcn_" + mechanism + "_4.svg"));
    CHECK(Exists(out + "/loss_vs_round__nodes_gcn_" + mechanism + "_4.svg"));
  }
  // Friends changed, so some users spent more than one round's epsilon,
  // and none more than both bits and three degrees (DPRR: eq. 8's split).
  const std::string memoised = LineStarting(out + "/results.csv", "nodes,gcn,rr-degree,4,memoised,3,0,");
  REQUIRE(!memoised.empty());
  CHECK(memoised.find(",8.4,") != std::string::npos);
  Run again = Ldpgraph(command);
  CHECK(again.exit_code == 0);
  CHECK(again.output.find("0 run(s) to do") != std::string::npos);
  for (const char* args : {"--mechanisms locallap", "--epsilons inf", "--change-users 0", "--change-friends 1.5",
                           "--rounds 0", "--model gat", "--splits 0", "--frobnicate 1"}) {
    Run bad = Ldpgraph("experiment rounds --dataset " + dir.path() + "/nodes --out " + out + " " + args);
    INFO(args << ": " << bad.output);
    CHECK(bad.exit_code == 2);
  }
  CHECK(Lines(out + "/results.csv") == 1 + 1 + 3 + 2 * 3 * 2);  // the refused runs changed nothing
}
