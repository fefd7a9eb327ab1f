// ldpgraph as a real process: exit codes, key=value output, files, help.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
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

TEST_CASE("Cli.PerturbPrintsItsFiguresAndWritesTheOutput") {
  TempDir dir;
  const auto in = dir.Write("tiny.txt", kTinyDataset);
  const auto out = dir.path() + "/noisy.txt";
  Run r = Ldpgraph("perturb --input " + in + " --mechanism dprr-fixed --epsilon 2 --seed 4 --output " + out);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  for (const char* key : {"graphs=3\n", "users=9\n", "true_edges=10\n", "noisy_edges=", "mean_true_degree=",
                          "mean_noisy_degree=", "seconds="}) {
    CHECK(r.output.find(key) != std::string::npos);
  }
  Run again = Ldpgraph("perturb --input " + out + " --mechanism none --output " + dir.path() + "/copy.txt");
  CHECK(again.exit_code == 0);
  // dprr-disclosed with everyone non-private: every row is its true list.
  Run disclosed = Ldpgraph("perturb --input " + in + " --mechanism dprr-disclosed --epsilon 4 --non-private-fraction 1 " +
                           "--seed 4 --output " + dir.path() + "/disclosed.txt");
  INFO(disclosed.output);
  CHECK(disclosed.exit_code == 0);
  CHECK(disclosed.output.find("noisy_edges=10\n") != std::string::npos);
}

TEST_CASE("Cli.BadInputsGetPreciseErrors") {
  TempDir dir;
  const auto in = dir.Write("tiny.txt", kTinyDataset);
  const auto out = dir.path() + "/x.txt";
  struct Case {
    std::string args;
    int code;
    const char* message;
  } cases[] = {
      {"perturb --input " + in + " --mechanism dprr --output " + out, 2, "--epsilon is required"},
      {"perturb --input " + in + " --mechanism magic --epsilon 1 --output " + out, 2, "unknown --mechanism"},
      {"perturb --input " + in + " --mechanism rr --epsilon abc --output " + out, 2, "expects a number"},
      {"perturb --input " + in + " --mechanism rr --epsilon nan --output " + out, 1, "NaN"},
      {"perturb --input " + in + " --mechanism rr --epsilon 0 --output " + out, 1, "must be positive"},
      {"perturb --input " + in + " --mechanism rr --epsilon 1 --non-private-fraction 2 --output " + out, 1,
       "fraction"},
      {"perturb --input " + in + " --mechanism rr --epsilon 1 --bogus 1 --output " + out, 2, "unknown option --bogus"},
      {"perturb --input /nonexistent --mechanism rr --epsilon 1 --output " + out, 1, "no such file"},
      {"perturb --input " + dir.Write("bad.txt", "1\n2 0\n0 1 7\n") + " --mechanism rr --epsilon 1 --output " + out,
       1, "bad.txt:3:"},
      {"frobnicate", 2, "unknown command"},
  };
  for (const auto& c : cases) {
    Run r = Ldpgraph(c.args);
    INFO(c.args << "\n" << r.output);
    CHECK(r.exit_code == c.code);
    CHECK(r.output.find(c.message) != std::string::npos);
  }
  // Nothing was written by any failed run.
  FILE* f = std::fopen(out.c_str(), "r");
  CHECK(f == nullptr);
  if (f) std::fclose(f);
}

TEST_CASE("Cli.BenchPerturbPrintsKeyValues") {
  Run r = Ldpgraph("bench perturb --users 20000 --degree 20 --reports 2000 --baseline-reports 3");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  for (const char* key : {"per_report_us=", "per_bit_us=", "speedup=", "report_bytes=", "peak_rss_mb="}) {
    CHECK(r.output.find(key) != std::string::npos);
  }
}

TEST_CASE("Cli.BenchGemmPrintsItsShareOfThePeak") {
  Run r = Ldpgraph("bench gemm --rows 2000 --seconds 0.05");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  for (const char* key : {"rows=2000\n", "forward_gflops=", "weight_gradient_gflops=", "fma_peak_gflops=",
                          "forward_share_of_peak=", "bf16_tile_peak_gflops=", "forward_bf16_gflops=",
                          "weight_gradient_bf16_gflops="}) {
    CHECK(r.output.find(key) != std::string::npos);
  }
  CHECK(Ldpgraph("bench gemm --rows 10").exit_code == 2);
  CHECK(Ldpgraph("bench gemm --seconds 0").exit_code == 2);
  CHECK(Ldpgraph("bench gemm --columns 3").exit_code == 2);
}

// The value of `key=` in key=value output, or -1 when absent or not a number.
double Figure(const std::string& output, const std::string& key) {
  const std::size_t at = output.find("\n" + key + "=");
  if (at == std::string::npos) return -1;
  return std::strtod(output.c_str() + at + key.size() + 2, nullptr);
}

TEST_CASE("Cli.BenchRooflineBoundsEveryKernelItTimes") {
  TempDir dir;
  const std::string svg = dir.path() + "/roofline.svg";
  Run r = Ldpgraph("bench roofline --nodes 5000 --degree 8 --graphs 40 --epochs 1 --seconds 0.02 --big-mb 16 --svg " +
                   svg);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  // The machine's limits, measured in the same run (only their presence:
  // CI shares the cores with other tests, which skews any comparison).
  CHECK(Figure(r.output, "machine_fma_gflops_all") > 0);
  CHECK(Figure(r.output, "machine_fma_gflops_core") > 0);
  CHECK(Figure(r.output, "machine_latency_ns") > 0);
  CHECK(Figure(r.output, "machine_read_gbs_16mb") > 0);
  CHECK(Figure(r.output, "machine_gather_ns_per_line_1mb") > 0);
  // Each epoch's operations account for it: their shares and the time outside them.
  for (const char* model : {"lpgnn", "gcn", "gin"}) {
    CAPTURE(model);
    CHECK(Figure(r.output, std::string("epoch_") + model + "_seconds") > 0);
    const double outside = Figure(r.output, std::string("epoch_") + model + "_outside_operations_share");
    CHECK(outside >= 0);
    CHECK(outside < 0.5);
  }
  CHECK(Figure(r.output, "epoch_lpgnn_op_AggregateBy_16_share") > 0);
  // Every kernel: a time, an intensity, a bound and the fraction of it reached.
  for (const char* kernel : {"neighbour_sum_w4", "neighbour_sum_w16", "gin_neighbour_sum_w64", "gin_neighbour_sum_w128",
                             "gin_readout",
                             "sparse_input_product", "sparse_input_gradient", "sparse_input_dropout", "linear_last_layer", "linear_gin", "selu", "dropout", "add",
                             "add_bias", "softmax_cross_entropy", "gin_mlp", "gin_mlp_part_first_product",
                             "gin_mlp_part_second_product", "gin_mlp_part_last_normalisation", "batch_norm_gin"}) {
    CAPTURE(kernel);
    const std::string k = std::string("kernel_") + kernel + "_";
    CHECK(Figure(r.output, k + "seconds") > 0);
    CHECK(Figure(r.output, k + "intensity") > 0);
    CHECK(Figure(r.output, k + "bound_seconds") > 0);
    CHECK(Figure(r.output, k + "fraction_of_bound") > 0);
    CHECK(r.output.find("\n" + k + "bound_by=") != std::string::npos);
    // The bound's two sides, so that a kernel short of it shows which side stops it.
    CHECK(Figure(r.output, k + "memory_seconds") > 0);
    CHECK(Figure(r.output, k + "compute_seconds") > 0);
    // Their sum, what the kernel would take if the two did not overlap: never below the bound.
    CHECK(Figure(r.output, k + "serial_seconds") >= Figure(r.output, k + "bound_seconds"));
    CHECK(Figure(r.output, k + "fraction_of_serial") >= Figure(r.output, k + "fraction_of_bound"));
  }
  // On AMX, AVX2 or AVX-512 the LPGNN epoch's first layer reads packed inputs, timed as kernels of their own.
  const bool packed = r.output.find("\npacked_inputs=amx\n") != std::string::npos ||
                      r.output.find("\npacked_inputs=vectors\n") != std::string::npos;
  CHECK((packed || r.output.find("\npacked_inputs=none\n") != std::string::npos));
  // (Its share is printed only above 1% of the epoch, which a 5000-user epoch need not reach.)
  const std::size_t ops = r.output.find("\nepoch_lpgnn_operations=");
  REQUIRE(ops != std::string::npos);
  const std::string lpgnn_ops = r.output.substr(ops, r.output.find('\n', ops + 1) - ops);
  CHECK((lpgnn_ops.find("PackedProduct/16") != std::string::npos) == packed);
  for (const char* kernel : {"packed_input_product", "packed_input_gradient", "packed_input_product_in_cache",
                             "packed_input_gradient_in_cache"}) {
    CAPTURE(kernel);
    CHECK((r.output.find(std::string("\nkernel_") + kernel + "_fraction_of_bound=") != std::string::npos) == packed);
    // Their stream alone, timed beside them.
    CHECK((r.output.find(std::string("\nkernel_") + kernel + "_paired_stream_seconds=") != std::string::npos) == packed);
  }
  CHECK(r.output.find("\nhot_kernels_below_60pct_of_bound=") != std::string::npos);
  CHECK(r.output.find("\nhot_kernels_below_60pct_of_serial=") != std::string::npos);
  CHECK(r.output.find("\nhot_operations_without_kernel=") != std::string::npos);
  std::ifstream chart(svg);
  std::stringstream text;
  text << chart.rdbuf();
  CHECK(text.str().find("<svg") != std::string::npos);
  CHECK(text.str().find("neighbour_sum_w16") != std::string::npos);
  // Bad settings: usage errors that write nothing.
  const std::string other = dir.path() + "/other.svg";
  for (const char* bad : {"--nodes 10", "--degree 0", "--epochs 0", "--seconds 0", "--big-mb 4", "--kx 65",
                          "--gathers half", "--rows 3"}) {
    CAPTURE(bad);
    CHECK(Ldpgraph(std::string("bench roofline ") + bad + " --svg " + other).exit_code == 2);
  }
  struct stat st{};
  CHECK(stat(other.c_str(), &st) != 0);
}

TEST_CASE("Cli.BenchLpgnnComparesItsPathsInOneRun") {
  TempDir dir;
  const std::string data = dir.path() + "/sbm";
  REQUIRE(Ldpgraph("generate --kind sbm --nodes 3000 --degree 10 --features 100 --words 8 --seed 3 --output " + data)
              .exit_code == 0);
  // By default the path TrainLpgnn takes on this CPU: packed on AMX tiles, else factored.
  Run chosen = Ldpgraph("bench lpgnn --dataset " + data + " --epochs 5");
  INFO(chosen.output);
  REQUIRE(chosen.exit_code == 0);
  const bool packed = chosen.output.find("\npaths=packed\n") != std::string::npos;
  CHECK((packed || chosen.output.find("\npaths=factored\n") != std::string::npos));
  // Where packing runs, both routes in one run: the same epochs, accuracies within bfloat16's rounding.
  Run r = Ldpgraph("bench lpgnn --dataset " + data + " --epochs 40 --paths " + (packed ? "factored,packed" : "factored"));
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  for (const char* path : {"factored", "packed"}) {
    if (!packed && std::string(path) == "packed") continue;
    CAPTURE(path);
    const std::string p = std::string(path) + "_";
    CHECK(Figure(r.output, p + "train_seconds") > 0);
    CHECK(Figure(r.output, p + "epochs") > 0);
    CHECK(Figure(r.output, p + "accuracy") > 0.3);  // 4 classes: a quarter by chance
    CHECK(Figure(r.output, p + "peak_rss_mb") > 0);
  }
  if (packed) {
    CHECK(Figure(r.output, "packed_over_factored_seconds") > 0);
    CHECK(std::abs(Figure(r.output, "packed_accuracy") - Figure(r.output, "factored_accuracy")) < 0.05);
  } else {
    CHECK(Ldpgraph("bench lpgnn --dataset " + data + " --paths packed").exit_code == 2);
  }
  for (const char* bad : {"--paths sparse", "--kx 65", "--model gat", "--epochs 0", "--feature-epsilon 0"}) {
    CAPTURE(bad);
    CHECK(Ldpgraph("bench lpgnn --dataset " + data + " " + bad).exit_code == 2);
  }
}

TEST_CASE("Cli.BenchIngestRunsItsOwnDaemon") {
  // A small run of the real thing: daemon, TLS, uploader and SQLite.
  Run r = Ldpgraph("bench ingest --connections 4 --reports 400 --handshakes 10");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(r.output.find("lost=0\n") != std::string::npos);
  for (const char* key : {"reports_per_s=", "p50_ms=", "p99_ms=", "handshakes_per_s="}) {
    CHECK(r.output.find(key) != std::string::npos);
  }
  CHECK(Ldpgraph("bench ingest --connections 0").exit_code == 2);
}

TEST_CASE("Cli.BenchAssembleFromARealStore") {
  Run r = Ldpgraph("bench assemble --users 5000 --degree 8 --symmetrise or");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(r.output.find("reporters=5000\n") != std::string::npos);
  CHECK(r.output.find("labelled=5000\n") != std::string::npos);
  for (const char* key : {"reported_entries=", "edges=", "assemble_seconds=", "peak_rss_mb="}) {
    CHECK(r.output.find(key) != std::string::npos);
  }
  CHECK(Ldpgraph("bench assemble --users 1").exit_code == 2);
  CHECK(Ldpgraph("bench assemble --symmetrise both").exit_code == 2);
}

TEST_CASE("Cli.TrainAndPredictRoundTrip") {
  TempDir dir;
  const auto data = dir.path() + "/communities.txt";
  Run gen = Ldpgraph("generate --output " + data + " --graphs 60 --min-nodes 20 --max-nodes 30 --seed 3");
  REQUIRE(gen.exit_code == 0);
  const auto model = dir.path() + "/gin.bin";
  Run train = Ldpgraph("train --dataset " + data + " --model gin --epochs 30 --hidden 16 --seed 1 --out " + model);
  INFO(train.output);
  CHECK(train.exit_code == 0);
  for (const char* key : {"test_accuracy=", "test_auc=", "best_epoch=", "model_file="}) {
    CHECK(train.output.find(key) != std::string::npos);
  }
  Run predict = Ldpgraph("predict --model " + model + " --dataset " + data + " --output " + dir.path() + "/p.csv");
  INFO(predict.output);
  CHECK(predict.exit_code == 0);
  CHECK(predict.output.find("predictions=60\n") != std::string::npos);
  CHECK(predict.output.find("accuracy=") != std::string::npos);
  // The node path, asked for by name, trains too.
  Run nodes = Ldpgraph("train --dataset " + data + " --model gin --epochs 5 --hidden 16 --colour-classes off");
  INFO(nodes.output);
  CHECK(nodes.exit_code == 0);
  CHECK(nodes.output.find("test_accuracy=") != std::string::npos);
}

TEST_CASE("Cli.GenerateSbmThenTrainBenchAndPredictANodeModel") {
  // A node dataset with sparse bag-of-words features, end to end: the files
  // the generator writes are what train, bench node and predict read.
  TempDir dir;
  const auto data = dir.path() + "/sbm";
  Run gen = Ldpgraph("generate --kind sbm --nodes 3000 --degree 8 --features 800 --words 12 --seed 2 --output " + data);
  INFO(gen.output);
  REQUIRE(gen.exit_code == 0);
  CHECK(gen.output.find("nodes=3000\n") != std::string::npos);
  CHECK(gen.output.find("features=800\n") != std::string::npos);
  for (const char* file : {"/edges.csv", "/features.csv", "/labels.csv"}) {
    struct stat st;
    CHECK(::stat((data + file).c_str(), &st) == 0);
  }
  const auto model = dir.path() + "/gcn.bin";
  Run train = Ldpgraph("train --dataset " + data + " --model gcn --epochs 60 --seed 1 --out " + model);
  INFO(train.output);
  REQUIRE(train.exit_code == 0);
  const auto at = train.output.find("test_accuracy=");
  REQUIRE(at != std::string::npos);
  CHECK(std::stod(train.output.substr(at + 14)) > 0.6);  // 4 classes: chance is 0.25
  Run bench = Ldpgraph("bench node --dataset " + data + " --model sage --epochs 3");
  INFO(bench.output);
  CHECK(bench.exit_code == 0);
  CHECK(bench.output.find("feature_storage=sparse\n") != std::string::npos);
  for (const char* key : {"epoch_seconds=", "epoch_seconds_min=", "peak_rss_mb=", "load_seconds=", "feature_mb="}) {
    CHECK(bench.output.find(key) != std::string::npos);
  }
  Run predict = Ldpgraph("predict --model " + model + " --dataset " + data + " --output " + dir.path() + "/p.csv");
  INFO(predict.output);
  CHECK(predict.exit_code == 0);
  CHECK(predict.output.find("predictions=3000\n") != std::string::npos);

  // Bad requests: a precise message and exit code 2, nothing written.
  const auto untouched = dir.path() + "/never";
  for (const char* args : {"--kind sbm --graphs 2", "--kind sbm --classes 1", "--kind sbm --nodes 5 --classes 4",
                           "--kind sbm --features 10 --words 11", "--kind sbm --homophily 1.5", "--kind sbm --signal -0.1",
                           "--kind sbm --degree 0", "--kind sbm --features 3"}) {
    Run bad = Ldpgraph(std::string("generate ") + args + " --output " + untouched);
    INFO(args << ": " << bad.output);
    CHECK(bad.exit_code == 2);
    CHECK(bad.output.find("ldpgraph generate: --") != std::string::npos);
  }
  struct stat st;
  CHECK(::stat(untouched.c_str(), &st) != 0);
  CHECK(Ldpgraph("bench node --dataset " + data + " --model gin").exit_code == 2);
  CHECK(Ldpgraph("bench node --dataset " + data + " --epochs 0").exit_code == 2);
  CHECK(Ldpgraph("bench node --dataset " + dir.path() + "/missing").exit_code == 1);
}

TEST_CASE("Cli.TrainGapWithEdgeAndNodeLevelPrivacy") {
  TempDir dir;
  const auto data = dir.path() + "/sbm";
  REQUIRE(Ldpgraph("generate --kind sbm --nodes 600 --degree 6 --features 50 --words 5 --seed 4 --output " + data)
              .exit_code == 0);
  Run r = Ldpgraph("train --dataset " + data + " --model gap --privacy edge --epsilon 4 --epochs 20");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  for (const char* key : {"model=gap\n", "privacy=edge\n", "hops=2\n", "epsilon=", "delta=", "noise_multiplier=",
                          "noise_stddev=", "sensitivity=", "test_accuracy=", "train_seconds="}) {
    CHECK(r.output.find(key) != std::string::npos);
  }
  Run node = Ldpgraph("train --dataset " + data + " --model gap --privacy node --epsilon 8 --epochs 5 " +
                      "--max-degree 4 --batch-size 100 --residual off --classifier-epochs 3");
  INFO(node.output);
  REQUIRE(node.exit_code == 0);
  for (const char* key : {"privacy=node\n", "max_degree=4\n", "dp_sgd_steps=", "noise_multiplier=", "residual=off\n",
                          "test_accuracy="}) {
    CHECK(node.output.find(key) != std::string::npos);
  }
  const std::string base = "train --dataset " + data + " --model gap ";
  for (const char* args : {"--privacy vertex", "--epsilon 0", "--epsilon nan", "--epsilon -1", "--delta 1",
                           "--delta 0", "--hops 0", "--privacy node --max-degree 0", "--privacy node --batch-size 0",
                           "--privacy node --batch-size 100000", "--privacy node --clip 0", "--max-degree 5",
                           "--residual maybe", "--classifier-epochs 0", "--epsilon 0 --out NEVER"}) {
    std::string bad_args = args;
    if (const auto at = bad_args.find("NEVER"); at != std::string::npos) bad_args.replace(at, 5, dir.path() + "/never.bin");
    Run bad = Ldpgraph(base + bad_args);
    INFO(args << ": " << bad.output);
    CHECK(bad.exit_code == 2);
    CHECK(bad.output.find("ldpgraph train: ") != std::string::npos);
  }
  CHECK(Ldpgraph("train --dataset " + data + " --model gcn --epsilon 1").exit_code == 2);  // gap's flag
  CHECK(Ldpgraph("train --dataset " + data + " --model gcn --products bf16").exit_code == 2);  // gin's flag
  CHECK(Ldpgraph("train --dataset " + data + " --model gin --products half").exit_code == 2);
  CHECK(Ldpgraph("train --dataset " + data + " --model gcn --colour-classes off").exit_code == 2);  // gin's flag
  Run maybe = Ldpgraph("train --dataset " + data + " --model gin --colour-classes maybe");
  CHECK(maybe.exit_code == 2);
  CHECK(maybe.output.find("--colour-classes must be on or off, got 'maybe'") != std::string::npos);
  CHECK(::access((dir.path() + "/never.bin").c_str(), F_OK) != 0);

  // A model file keeps the guarantee and the predictions made from the release.
  const std::string model = dir.path() + "/gap.bin";
  Run saved = Ldpgraph(base + "--privacy edge --epsilon 2 --epochs 10 --out " + model);
  REQUIRE(saved.exit_code == 0);
  Run predicted = Ldpgraph("predict --model " + model + " --dataset " + data + " --output " + dir.path() + "/p.csv");
  INFO(predicted.output);
  REQUIRE(predicted.exit_code == 0);
  for (const char* key : {"model=gap\n", "privacy=edge\n", "noise_multiplier=", "predictions=600\n", "accuracy="}) {
    CHECK(predicted.output.find(key) != std::string::npos);
  }
  CHECK(Lines(dir.path() + "/p.csv") == 601);
  const auto other = dir.path() + "/other";
  REQUIRE(Ldpgraph("generate --kind sbm --nodes 300 --degree 6 --features 50 --words 5 --seed 4 --output " + other)
              .exit_code == 0);
  Run wrong = Ldpgraph("predict --model " + model + " --dataset " + other);
  CHECK(wrong.exit_code == 2);
  CHECK(wrong.output.find("predicts for that graph only") != std::string::npos);
}

TEST_CASE("Cli.TrainRejectsBadInputs") {
  TempDir dir;
  const auto one_class = dir.Write("one.txt", "2\n2 7\n0 1 1\n0 1 0\n2 7\n0 1 1\n0 1 0\n");
  struct Case {
    std::string args;
    int code;
    const char* message;
  } cases[] = {
      {"train --dataset " + one_class + " --model gin", 2, "at least 2 classes"},
      {"train --dataset " + one_class + " --model transformer", 2, "--model must be gin, gcn, sage, gap or progap"},
      {"train --dataset " + one_class + " --model sage", 2, "gcn and sage classify nodes"},
      {"train --dataset " + one_class + " --model progap --residual on", 2, "--residual is for --model gap"},
      {"train --dataset " + one_class + " --model progap --gathers bf16", 2,
       "--gathers is not for --model gap or progap"},
      {"train --dataset " + one_class + " --epochs 0", 2, "must be positive"},
      {"train --model gin", 2, "--dataset is required"},
      {"predict --model " + dir.Write("junk.bin", "not a model") + " --dataset " + one_class, 1,
       "not an ldpgraph model file"},
  };
  for (const auto& c : cases) {
    Run r = Ldpgraph(c.args);
    INFO(c.args << "\n" << r.output);
    CHECK(r.exit_code == c.code);
    CHECK(r.output.find(c.message) != std::string::npos);
  }
}

// ---- ldpgraph experiment: the fast versions CI runs (tiny synthetic data) ----

TEST_CASE("Cli.EveryCommandExplainsItselfWithHelp") {
  const Run overview = Ldpgraph("help");
  REQUIRE(overview.exit_code == 0);
  CHECK(Ldpgraph("--help").output == overview.output);
  CHECK(Ldpgraph("").exit_code == 2);  // no command: the overview on stderr, a usage error
  // Every command the overview lists: "  <words>  <summary>" up to the blank line.
  std::vector<std::string> commands;
  std::istringstream lines(overview.output.substr(overview.output.find("commands:\n") + 10));
  for (std::string line; std::getline(lines, line) && !line.empty();) {
    const std::size_t end = line.find("  ", 2);
    REQUIRE(end != std::string::npos);
    commands.push_back(line.substr(2, end - 2));
    while (commands.back().back() == ' ') commands.back().pop_back();
  }
  REQUIRE(commands.size() >= 25);
  for (const std::string& c : commands) {
    for (const char* flag : {"--help", "-h"}) {
      INFO("ldpgraph " << c << " " << std::string(flag));
      const Run r = Ldpgraph(c + " " + flag);
      CHECK(r.exit_code == 0);
      CHECK(r.output.rfind("ldpgraph " + c + ": ", 0) == 0);  // its own entry, not another's
      const std::size_t example = r.output.find("example:\n  ldpgraph " + c);
      CHECK(example != std::string::npos);
    }
  }
  // Anywhere after the command, as users type it; and the ones that failed before.
  CHECK(Ldpgraph("experiment linkldp --dataset x --help").exit_code == 0);
  CHECK(Ldpgraph("help experiment fedcog").output.rfind("ldpgraph experiment fedcog: ", 0) == 0);
  CHECK(Ldpgraph("daemon graphs --help").output.rfind("ldpgraph daemon: ", 0) == 0);
  const Run unknown = Ldpgraph("frobnicate --help");
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.output.find("unknown command 'frobnicate'") != std::string::npos);
}
