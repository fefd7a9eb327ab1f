// ldpgraph experiment: the studies of docs/results.md.
//   dprr     accuracy of GIN-0 on graphs perturbed by each edge mechanism
//   degree   true vs noisy degree of every user (DPRR, RR, LocalLap)
//   scaling  training and classification time vs n on Barabasi-Albert graphs
//   lpgnn    node classification with private features, labels and edges
//   gap      GAP under edge- and node-level DP against the MLP (plain and DP-SGD) and non-private GCN / GraphSAGE
//   linkldp  node classification on a graph every user reports under edge LDP, denoised by the server (Blink and ours)
//   fedcog   several parties, each holding part of one graph, train one classifier (FedCog-SGC) vs each alone
//   gw       graph classification by GW on graphs and on (LDP) federated node embeddings (GW-LDP)
//   rounds   a graph collected in rounds while friend lists change: accuracy and each user's loss
// Every study appends to DIR/results.csv as runs finish (a rerun resumes),
// then writes DIR/summary.csv and its SVG charts.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "experiments/degree_experiment.h"
#include "experiments/dprr_experiment.h"
#include "experiments/fedcog_experiment.h"
#include "experiments/gap_experiment.h"
#include "experiments/linkldp_experiment.h"
#include "experiments/lpgnn_experiment.h"
#include "experiments/results_report.h"
#include "experiments/scaling_experiment.h"
#include "testbed/loopback_federation.h"
#include "util/flag_reader.h"
#include "util/flags.h"

namespace ldpgraph {
namespace {

int Usage(const std::string& message) {
  std::fprintf(stderr, "ldpgraph experiment: %s\n", message.c_str());
  return 2;
}

int Failure(const Status& s) {
  std::fprintf(stderr, "ldpgraph experiment: %s\n", s.ToString().c_str());
  return 1;
}

// A bad flag is a usage error (2); a failure while running is 1.
int Finish(const Status& s) {
  if (s.ok()) return 0;
  return s.code() == StatusCode::kInvalidArgument ? Usage(s.message()) : Failure(s);
}

// --patience P and --min-epochs M: when training may stop early.
template <typename TrainOptions>
void ReadStopping(FlagReader& read, TrainOptions* train) {
  read.Int("patience", &train->patience, 1, 100000).Int("min-epochs", &train->early_stop_from, 0, 100000);
}

// "results=..." and "summary=..." once a study is done; its status otherwise.
int Finished(const Status& s, const std::string& out) {
  if (s.ok()) std::printf("results=%s/results.csv\nsummary=%s/summary.csv\n", out.c_str(), out.c_str());
  return Finish(s);
}

int RunDprr(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(args, {"dataset", "mechanisms", "epsilons", "alphas", "splits", "out",
                                            "epochs", "jobs", "hidden", "layers", "batch-size", "reuse", "node-input",
                                            "patience", "min-epochs"});
  if (!flags.ok()) return Usage(flags.status().message());
  DprrExperimentOptions o;
  o.train.max_epochs = 500;
  o.train.batch_size = 32;
  std::string path;
  FlagReader read(*flags);
  read.Required("dataset", &path)
      .Required("out", &o.out_dir)
      .Strings("mechanisms", &o.mechanisms)
      .Doubles("epsilons", &o.epsilons)
      .Doubles("alphas", &o.alphas)
      .Int("splits", &o.splits, 1, 1000)
      .Int("epochs", &o.train.max_epochs, 1, 1000000)
      .Int("jobs", &o.jobs, 1, 256)
      .Int("hidden", &o.model.hidden, 1, 65536)
      .Int("layers", &o.model.layers, 1, 64)
      .Int("batch-size", &o.train.batch_size, 1, 1000000000)
      .Strings("reuse", &o.reuse_dirs);
  ReadStopping(read, &o.train);
  if (!read.ok()) return Usage(read.status().message());
  if (Status s = SetGinNodeInput(flags->StringOr("node-input", "constant"), &o.model); !s.ok()) {
    return Usage(s.message());
  }
  Result<GraphDataset> ds = ReadDataset(path);
  if (!ds.ok()) return Failure(ds.status());
  return Finished(RunDprrExperiment(*ds, o), o.out_dir);
}

int RunLpgnn(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(
      args, {"dataset", "models", "feature-mechanisms", "feature-epsilons", "label-methods", "label-epsilons",
             "edge-epsilons", "kx", "ky", "splits", "out", "epochs", "jobs", "hidden", "weight-decay", "dropout",
             "select-on", "patience", "min-epochs", "validate-on", "propagate-validation-labels", "node-order"});
  if (!flags.ok()) return Usage(flags.status().message());
  LpgnnExperimentOptions o;
  o.feature_mechanisms = {"mbm", "1bm", "laplace"};
  o.label_methods = {"ce", "fc", "drop"};
  o.jobs = 2;
  std::string path, select_on = "loss", node_order = "auto";
  FlagReader read(*flags);
  read.Required("dataset", &path)
      .Required("out", &o.out_dir)
      .Choice("node-order", &node_order, {"auto", "as-given", "rcm", "degree"})
      .Strings("models", &o.models)
      .Strings("feature-mechanisms", &o.feature_mechanisms)
      .Strings("label-methods", &o.label_methods)
      .Doubles("feature-epsilons", &o.feature_epsilons)
      .Doubles("label-epsilons", &o.label_epsilons)
      .Doubles("edge-epsilons", &o.edge_epsilons)
      .Ints("kx", &o.kx_choices, 0, 64)
      .Ints("ky", &o.ky_choices, 0, 64)
      .Int("splits", &o.splits, 1, 1000)
      .Int("epochs", &o.train.max_epochs, 1, 1000000)
      .Int("jobs", &o.jobs, 1, 256)
      .Int("hidden", &o.hidden, 1, 65536)
      .Fraction("weight-decay", &o.train.weight_decay)
      .Fraction("dropout", &o.dropout)
      .Choice("select-on", &select_on, {"loss", "accuracy"})
      .Switch("propagate-validation-labels", &o.propagate_validation_labels);
  ReadStopping(read, &o.train);
  if (!read.ok()) return Usage(read.status().message());
  o.train.select_on_accuracy = select_on == "accuracy";
  if (node_order != "auto") {  // a named order at any size
    o.node_order = *ParseNodeOrder(node_order);
    o.node_order_from = 0;
  }
  Result<ValidationReference> reference =
      ParseValidationReference(flags->StringOr("validate-on", ValidationReferenceName(o.validation_reference)));
  if (!reference.ok()) return Usage("--validate-on: " + reference.status().message());
  o.validation_reference = *reference;
  Result<GraphDataset> ds = ReadDataset(path);
  if (!ds.ok()) return Failure(ds.status());
  return Finished(RunLpgnnExperiment(*ds, o), o.out_dir);
}

int RunGap(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(
      args, {"dataset", "out", "epsilons", "splits", "hops", "epochs", "jobs", "levels", "max-degree", "batch-size",
             "models"});
  if (!flags.ok()) return Usage(flags.status().message());
  GapExperimentOptions o;
  o.jobs = 2;
  std::string path;
  std::vector<std::string> levels = {"edge", "node"};
  FlagReader read(*flags);
  read.Required("dataset", &path)
      .Required("out", &o.out_dir)
      .Strings("levels", &levels)
      .Strings("models", &o.models)
      .Unsigned("max-degree", &o.max_degree, 1, 1000000)
      .Int("batch-size", &o.batch_size, 1, 1000000000)  // default 0: 512, or every training node
      .Doubles("epsilons", &o.epsilons)
      .Int("splits", &o.splits, 1, 1000)
      .Int("hops", &o.hops, 1, 16)
      .Int("epochs", &o.epochs, 1, 100000)
      .Int("jobs", &o.jobs, 1, 256);
  if (!read.ok()) return Usage(read.status().message());
  o.edge_level = o.node_level = false;
  for (const std::string& level : levels) {
    if (level != "edge" && level != "node") return Usage("--levels lists edge and/or node, got " + level);
    (level == "edge" ? o.edge_level : o.node_level) = true;
  }
  Result<GraphDataset> ds = ReadDataset(path);
  if (!ds.ok()) return Failure(ds.status());
  return Finished(RunGapExperiment(*ds, o), o.out_dir);
}

int RunLinkLdp(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(args, {"dataset", "out", "models", "methods", "epsilons", "features",
                                            "feature-epsilon", "label-epsilon", "splits", "jobs",
                                            "soft-degree-multiple"});
  if (!flags.ok()) return Usage(flags.status().message());
  LinkLdpExperimentOptions o;
  o.jobs = 2;
  std::string path;
  const double kInf = std::numeric_limits<double>::infinity();
  FlagReader read(*flags);
  read.Required("dataset", &path)
      .Required("out", &o.out_dir)
      .Double("soft-degree-multiple", &o.soft_degree_multiple, 0, 1e6)
      .Strings("models", &o.models)
      .Strings("methods", &o.methods)
      .Strings("features", &o.feature_settings)
      .Doubles("epsilons", &o.edge_epsilons)
      .Double("feature-epsilon", &o.feature_epsilon, 0, kInf)
      .Double("label-epsilon", &o.label_epsilon, 0, kInf)
      .Int("splits", &o.splits, 1, 1000)
      .Int("jobs", &o.jobs, 1, 256);
  if (!read.ok()) return Usage(read.status().message());
  Result<GraphDataset> ds = ReadDataset(path);
  if (!ds.ok()) return Failure(ds.status());
  return Finished(RunLinkLdpExperiment(*ds, o), o.out_dir);
}

// The path of `name` beside this binary (ldpgraphd next to ldpgraph).
std::string SiblingBinary(const std::string& name) {
  char self[4096];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return name;
  std::string path(self, static_cast<std::size_t>(n));
  return path.substr(0, path.rfind('/') + 1) + name;
}

// fedcog-tls: the parties as real daemons on loopback, one federation per
// party count (started at its first run, stopped at the end), one run at
// a time so that each is timed alone.
class FedCogParties {
 public:
  explicit FedCogParties(std::string ldpgraphd) : ldpgraphd_(std::move(ldpgraphd)) {
    char dir[] = "/tmp/ldpgraph-fedcog-XXXXXX";
    if (::mkdtemp(dir) != nullptr) dir_ = dir;
  }
  ~FedCogParties() {
    federations_.clear();  // stops the daemons before their folders go
    std::error_code error;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, error);
  }

  Result<FedCogTlsResult> Run(const std::vector<HeldGraphParts>& shares, int steps, std::uint64_t seed) {
    std::lock_guard<std::mutex> lock(mu_);
    if (dir_.empty()) return Status::Unavailable("cannot make a folder for the parties under /tmp");
    const int parties = static_cast<int>(shares.size());
    auto& federation = federations_[parties];
    if (!federation) {
      Result<std::unique_ptr<LoopbackFederation>> started =
          LoopbackFederation::Start(ldpgraphd_, dir_ + "/" + std::to_string(parties), parties);
      if (!started.ok()) return started.status();
      federation = std::move(started).value();
    }
    const std::uint64_t id = ++uploads_;
    for (std::size_t p = 0; p < shares.size(); ++p) LDPGRAPH_RETURN_IF_ERROR(federation->Upload(p, id, shares[p]));
    Result<std::string> status = federation->Run(
        nlohmann::json{{"held_graph", id}, {"steps", steps}, {"seed", seed}}.dump());
    if (!status.ok()) return status.status();
    const nlohmann::json s = nlohmann::json::parse(*status);
    if (s.value("state", "") != "succeeded") return Status::Unavailable("run failed: " + s.value("error", *status));
    FedCogTlsResult r;
    r.test_accuracy = s["test_accuracy"];
    r.val_accuracy = s["val_accuracy"];
    r.seconds = s["seconds"];
    std::uint64_t total = 0;
    for (const nlohmann::json& p : s["party_traffic"]) {
      r.propagation_bytes += p["propagation_bytes_sent"].get<std::uint64_t>();
      total += p["bytes_sent"].get<std::uint64_t>() + p["bytes_received"].get<std::uint64_t>();
    }
    // Training's bodies both ways (weights down, gradients up) per round:
    // all bodies less the partial sums, each counted going up and relayed
    // down (open and finish are small beside them).
    const std::uint64_t training = total > 2 * r.propagation_bytes ? total - 2 * r.propagation_bytes : 0;
    r.round_bytes = training / static_cast<std::uint64_t>(s["rounds"].get<int>() + 1);
    return r;
  }

 private:
  std::string ldpgraphd_, dir_;
  std::mutex mu_;
  std::map<int, std::unique_ptr<LoopbackFederation>> federations_;
  std::uint64_t uploads_ = 0;
};

int RunFedCog(const std::vector<std::string>& args) {
  Result<Flags> flags =
      Flags::Parse(args, {"dataset", "out", "partitions", "parties", "methods", "steps", "splits", "jobs", "ldpgraphd"});
  if (!flags.ok()) return Usage(flags.status().message());
  FedCogExperimentOptions o;
  std::string path;
  FlagReader read(*flags);
  read.Required("dataset", &path)
      .Required("out", &o.out_dir)
      .Strings("partitions", &o.partitions)
      .Strings("methods", &o.methods)
      .Ints("parties", &o.parties, 2, 100000)
      .Int("steps", &o.steps, 1, 64)
      .Int("splits", &o.splits, 1, 1000)
      .Int("jobs", &o.jobs, 1, 256);
  if (!read.ok()) return Usage(read.status().message());
  Result<GraphDataset> ds = ReadDataset(path);
  if (!ds.ok()) return Failure(ds.status());
  std::unique_ptr<FedCogParties> real;
  if (std::find(o.methods.begin(), o.methods.end(), "fedcog-tls") != o.methods.end()) {
    real = std::make_unique<FedCogParties>(flags->StringOr("ldpgraphd", SiblingBinary("ldpgraphd")));
    o.over_tls = [&real](const std::vector<HeldGraphParts>& shares, int k, std::uint64_t seed) {
      return real->Run(shares, k, seed);
    };
  }
  return Finished(RunFedCogExperiment(*ds, o), o.out_dir);
}

int RunDegree(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(args, {"dataset", "mechanisms", "epsilon", "seed", "out"});
  if (!flags.ok()) return Usage(flags.status().message());
  DegreeExperimentOptions o;
  std::string path;
  FlagReader read(*flags);
  read.Required("dataset", &path)
      .Required("out", &o.out_dir)
      .Strings("mechanisms", &o.mechanisms)
      .Double("epsilon", &o.epsilon, 0, std::numeric_limits<double>::infinity())
      .Unsigned("seed", &o.seed, 0, UINT64_MAX);
  if (!read.ok()) return Usage(read.status().message());
  Result<GraphDataset> ds = ReadDataset(path);
  if (!ds.ok()) return Failure(ds.status());
  Status s = RunDegreeExperiment(*ds, o);
  if (s.ok()) std::printf("degrees=%s/degrees.csv\nsummary=%s/summary.csv\n", o.out_dir.c_str(), o.out_dir.c_str());
  return Finish(s);
}

int RunScaling(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(args, {"ms", "sizes", "mechanisms", "epsilon", "graphs", "epochs",
                                            "rr-max-nodes", "locallap-max-nodes", "out", "gathers"});
  if (!flags.ok()) return Usage(flags.status().message());
  Result<GatherPrecision> gathers = GathersFlag(*flags);
  if (!gathers.ok()) return Usage(gathers.status().message());
  SetDefaultGatherPrecision(*gathers);
  ScalingExperimentOptions o;
  FlagReader read(*flags);
  read.Required("out", &o.out_dir)
      .Ints("ms", &o.ms, 1, 100000000)
      .Ints("sizes", &o.sizes, 1, 100000000)
      .Strings("mechanisms", &o.mechanisms)
      .Double("epsilon", &o.epsilon, 0, std::numeric_limits<double>::infinity())
      .Unsigned("graphs", &o.graphs, 0, 100000)
      .Int("epochs", &o.epochs, 0, 10000)
      .Unsigned("rr-max-nodes", &o.rr_max_nodes, 0, 1u << 31)
      .Unsigned("locallap-max-nodes", &o.locallap_max_nodes, 0, 1u << 31);
  if (!read.ok()) return Usage(read.status().message());
  Status s = RunScalingExperiment(o);
  if (s.ok()) std::printf("results=%s/results.csv\n", o.out_dir.c_str());
  return Finish(s);
}

// Markdown of every experiment folder under --results, to stdout.
int RunReport(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(args, {"results", "link-prefix"});
  if (!flags.ok()) return Usage(flags.status().message());
  Result<std::string> results = flags->String("results");
  if (!results.ok()) return Usage(results.status().message());
  Result<std::string> md = RenderResultsReport(*results, flags->StringOr("link-prefix", *results));
  if (!md.ok()) return Finish(md.status());
  std::fputs(md->c_str(), stdout);
  return 0;
}

}  // namespace

int RunExperimentCommand(const std::vector<std::string>& args) {
  const std::string usage =
      "usage: ldpgraph experiment dprr|degree|scaling|lpgnn|gap|linkldp|fedcog|gw|audit|rounds|report [options] (see ldpgraph help)";
  if (args.empty()) return Usage(usage);
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (args[0] == "dprr") return RunDprr(rest);
  if (args[0] == "lpgnn") return RunLpgnn(rest);
  if (args[0] == "gap") return RunGap(rest);
  if (args[0] == "linkldp") return RunLinkLdp(rest);
  if (args[0] == "fedcog") return RunFedCog(rest);
  if (args[0] == "gw") return RunGwExperimentCommand(rest);
  if (args[0] == "audit") return RunAuditExperimentCommand(rest);
  if (args[0] == "rounds") return RunRoundsExperimentCommand(rest);
  if (args[0] == "degree") return RunDegree(rest);
  if (args[0] == "scaling") return RunScaling(rest);
  if (args[0] == "report") return RunReport(rest);
  return Usage("unknown experiment '" + args[0] + "'; " + usage);
}

}  // namespace ldpgraph
