// ldpgraph perturb as a real process: exit codes, key=value output, files.
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

#include "support/temp_dir.h"

using ldpgraph::testing::TempDir;

namespace {
struct Run {
  int exit_code;
  std::string output;  // stdout and stderr
};

Run Ldpgraph(const std::string& args) {
  const std::string command = std::string(LDPGRAPH_CLI) + " " + args + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  std::array<char, 4096> buf;
  while (std::size_t n = std::fread(buf.data(), 1, buf.size(), pipe)) out.append(buf.data(), n);
  const int status = ::pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

const char kTiny[] = "3\n4 0\n0 2 1 3\n0 1 0\n0 1 3\n0 2 0 2\n3 1\n0 1 1\n0 1 0\n0 0\n2 1\n0 1 1\n0 1 0\n";
}  // namespace

TEST_CASE("Cli.PerturbPrintsItsFiguresAndWritesTheOutput") {
  TempDir dir;
  const auto in = dir.Write("tiny.txt", kTiny);
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
}

TEST_CASE("Cli.BadInputsGetPreciseErrors") {
  TempDir dir;
  const auto in = dir.Write("tiny.txt", kTiny);
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
      {"train --dataset " + one_class + " --model transformer", 2, "--model must be gin, gcn or sage"},
      {"train --dataset " + one_class + " --model sage", 2, "gcn and sage classify nodes"},
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
