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
#include <cmath>
#include <algorithm>
#include <cstdio>
#include <filesystem>
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

// --patience P and --min-epochs M: when training may stop early. Returns a
// usage message, or an empty string once both are stored.
std::string ParseStopping(const Flags& flags, int* patience, int* from) {
  Result<std::uint64_t> p = flags.Unsigned("patience", static_cast<std::uint64_t>(*patience));
  Result<std::uint64_t> m = flags.Unsigned("min-epochs", static_cast<std::uint64_t>(*from));
  if (!p.ok()) return p.status().message();
  if (!m.ok()) return m.status().message();
  if (*p < 1 || *p > 100000 || *m > 100000) return "--patience takes 1 to 100000 epochs, --min-epochs 0 to 100000";
  *patience = static_cast<int>(*p);
  *from = static_cast<int>(*m);
  return "";
}

int RunDprr(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(args, {"dataset", "mechanisms", "epsilons", "alphas", "splits", "out",
                                            "epochs", "jobs", "hidden", "layers", "batch-size", "reuse", "node-input",
                                            "patience", "min-epochs"});
  if (!flags.ok()) return Usage(flags.status().message());
  Result<std::string> path = flags->String("dataset");
  Result<std::string> out = flags->String("out");
  if (!path.ok()) return Usage(path.status().message());
  if (!out.ok()) return Usage(out.status().message());
  DprrExperimentOptions o;
  Result<std::vector<std::string>> mechanisms = flags->StringList("mechanisms", o.mechanisms);
  Result<std::vector<double>> epsilons = flags->DoubleList("epsilons", o.epsilons);
  Result<std::vector<double>> alphas = flags->DoubleList("alphas", o.alphas);
  Result<std::uint64_t> splits = flags->Unsigned("splits", 3);
  Result<std::uint64_t> epochs = flags->Unsigned("epochs", 500);
  Result<std::uint64_t> jobs = flags->Unsigned("jobs", 1);
  Result<std::uint64_t> hidden = flags->Unsigned("hidden", 64);
  Result<std::uint64_t> layers = flags->Unsigned("layers", 5);
  Result<std::uint64_t> batch = flags->Unsigned("batch-size", 32);
  Result<std::vector<std::string>> reuse = flags->StringList("reuse", {});
  for (const Status* s : {&mechanisms.status(), &epsilons.status(), &alphas.status(), &splits.status(),
                          &epochs.status(), &jobs.status(), &hidden.status(), &layers.status(), &batch.status(),
                          &reuse.status()}) {
    if (!s->ok()) return Usage(s->message());
  }
  if (*epochs < 1 || *jobs < 1 || *batch < 1 || *splits > 1000) {
    return Usage("--epochs, --jobs and --batch-size must be positive, --splits at most 1000");
  }
  o.mechanisms = *mechanisms;
  o.epsilons = *epsilons;
  o.alphas = *alphas;
  o.splits = static_cast<int>(*splits);
  o.out_dir = *out;
  o.jobs = static_cast<int>(*jobs);
  o.model.hidden = static_cast<int>(*hidden);
  o.model.layers = static_cast<int>(*layers);
  if (Status s = SetGinNodeInput(flags->StringOr("node-input", "constant"), &o.model); !s.ok()) {
    return Usage(s.message());
  }
  if (std::string bad = ParseStopping(*flags, &o.train.patience, &o.train.early_stop_from); !bad.empty()) {
    return Usage(bad);
  }
  o.train.max_epochs = static_cast<int>(*epochs);
  o.train.batch_size = static_cast<int>(*batch);
  o.reuse_dirs = *reuse;
  Result<GraphDataset> ds = ReadDataset(*path);
  if (!ds.ok()) return Failure(ds.status());
  Status s = RunDprrExperiment(*ds, o);
  if (s.ok()) std::printf("results=%s/results.csv\nsummary=%s/summary.csv\n", out->c_str(), out->c_str());
  return Finish(s);
}

std::vector<int> Steps(const std::vector<double>& values, bool* ok) {
  std::vector<int> out;
  *ok = true;
  for (double v : values) {
    if (!(v >= 0 && v <= 64) || v != std::floor(v)) *ok = false;
    out.push_back(static_cast<int>(v));
  }
  return out;
}

int RunLpgnn(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(
      args, {"dataset", "models", "feature-mechanisms", "feature-epsilons", "label-methods", "label-epsilons",
             "edge-epsilons", "kx", "ky", "splits", "out", "epochs", "jobs", "hidden", "weight-decay", "dropout",
             "select-on", "patience", "min-epochs", "validate-on", "propagate-validation-labels"});
  if (!flags.ok()) return Usage(flags.status().message());
  Result<std::string> path = flags->String("dataset");
  Result<std::string> out = flags->String("out");
  if (!path.ok()) return Usage(path.status().message());
  if (!out.ok()) return Usage(out.status().message());
  LpgnnExperimentOptions o;
  Result<ValidationReference> reference =
      ParseValidationReference(flags->StringOr("validate-on", ValidationReferenceName(o.validation_reference)));
  if (!reference.ok()) return Usage("--validate-on: " + reference.status().message());
  const std::string propagate_val = flags->StringOr("propagate-validation-labels", "yes");
  if (propagate_val != "yes" && propagate_val != "no") {
    return Usage("--propagate-validation-labels takes yes or no, got '" + propagate_val + "'");
  }
  o.validation_reference = *reference;
  o.propagate_validation_labels = propagate_val == "yes";
  Result<std::vector<std::string>> models = flags->StringList("models", o.models);
  Result<std::vector<std::string>> mechanisms = flags->StringList("feature-mechanisms", {"mbm", "1bm", "laplace"});
  Result<std::vector<std::string>> methods = flags->StringList("label-methods", {"ce", "fc", "drop"});
  Result<std::vector<double>> feature_eps = flags->DoubleList("feature-epsilons", o.feature_epsilons);
  Result<std::vector<double>> label_eps = flags->DoubleList("label-epsilons", o.label_epsilons);
  Result<std::vector<double>> edge_eps = flags->DoubleList("edge-epsilons", o.edge_epsilons);
  Result<std::vector<double>> kx = flags->DoubleList("kx", {0, 2, 4, 8, 16});
  Result<std::vector<double>> ky = flags->DoubleList("ky", {0, 2, 4, 8, 16});
  Result<std::uint64_t> splits = flags->Unsigned("splits", 3);
  Result<std::uint64_t> epochs = flags->Unsigned("epochs", 500);
  Result<std::uint64_t> jobs = flags->Unsigned("jobs", 2);
  Result<std::uint64_t> hidden = flags->Unsigned("hidden", 16);
  Result<double> weight_decay = flags->Double("weight-decay", o.train.weight_decay);
  Result<double> dropout = flags->Double("dropout", o.dropout);
  const std::string select_on = flags->StringOr("select-on", "loss");
  for (const Status* s : {&models.status(), &mechanisms.status(), &methods.status(), &feature_eps.status(),
                          &label_eps.status(), &edge_eps.status(), &kx.status(), &ky.status(), &splits.status(),
                          &epochs.status(), &jobs.status(), &hidden.status(), &weight_decay.status(),
                          &dropout.status()}) {
    if (!s->ok()) return Usage(s->message());
  }
  bool kx_ok = false, ky_ok = false;
  o.kx_choices = Steps(*kx, &kx_ok);
  o.ky_choices = Steps(*ky, &ky_ok);
  if (!kx_ok || !ky_ok) return Usage("--kx and --ky take whole numbers of steps from 0 to 64");
  if (*epochs < 1 || *jobs < 1 || *hidden < 1 || *splits > 1000) {
    return Usage("--epochs, --jobs and --hidden must be positive, --splits at most 1000");
  }
  if (!(*weight_decay >= 0 && *weight_decay < 1) || !(*dropout >= 0 && *dropout < 1)) {
    return Usage("--weight-decay and --dropout take values in [0, 1)");
  }
  if (select_on != "loss" && select_on != "accuracy") {
    return Usage("--select-on takes loss or accuracy, got '" + select_on + "'");
  }
  if (std::string bad = ParseStopping(*flags, &o.train.patience, &o.train.early_stop_from); !bad.empty()) {
    return Usage(bad);
  }
  o.train.select_on_accuracy = select_on == "accuracy";
  o.train.weight_decay = static_cast<float>(*weight_decay);
  o.dropout = static_cast<float>(*dropout);
  o.models = *models;
  o.feature_mechanisms = *mechanisms;
  o.label_methods = *methods;
  o.feature_epsilons = *feature_eps;
  o.label_epsilons = *label_eps;
  o.edge_epsilons = *edge_eps;
  o.splits = static_cast<int>(*splits);
  o.out_dir = *out;
  o.jobs = static_cast<int>(*jobs);
  o.hidden = static_cast<int>(*hidden);
  o.train.max_epochs = static_cast<int>(*epochs);
  Result<GraphDataset> ds = ReadDataset(*path);
  if (!ds.ok()) return Failure(ds.status());
  Status s = RunLpgnnExperiment(*ds, o);
  if (s.ok()) std::printf("results=%s/results.csv\nsummary=%s/summary.csv\n", out->c_str(), out->c_str());
  return Finish(s);
}

int RunGap(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(
      args, {"dataset", "out", "epsilons", "splits", "hops", "epochs", "jobs", "levels", "max-degree", "batch-size",
             "models"});
  if (!flags.ok()) return Usage(flags.status().message());
  Result<std::string> path = flags->String("dataset");
  Result<std::string> out = flags->String("out");
  if (!path.ok()) return Usage(path.status().message());
  if (!out.ok()) return Usage(out.status().message());
  GapExperimentOptions o;
  Result<std::vector<std::string>> levels = flags->StringList("levels", {"edge", "node"});
  if (!levels.ok()) return Usage(levels.status().message());
  Result<std::vector<std::string>> models = flags->StringList("models", o.models);
  if (!models.ok()) return Usage(models.status().message());
  o.models = *models;
  o.edge_level = o.node_level = false;
  for (const std::string& level : *levels) {
    if (level != "edge" && level != "node") return Usage("--levels lists edge and/or node, got " + level);
    (level == "edge" ? o.edge_level : o.node_level) = true;
  }
  Result<std::uint64_t> max_degree = flags->Unsigned("max-degree", o.max_degree);
  Result<std::uint64_t> batch = flags->Unsigned("batch-size", 512);
  if (!max_degree.ok()) return Usage(max_degree.status().message());
  if (!batch.ok()) return Usage(batch.status().message());
  if (*max_degree < 1 || *max_degree > 1000000 || *batch < 1 || *batch > 1000000000) {
    return Usage("need 1 <= --max-degree <= 10^6 and 1 <= --batch-size <= 10^9 (default: 512 or every training node)");
  }
  o.max_degree = static_cast<std::uint32_t>(*max_degree);
  o.batch_size = flags->Has("batch-size") ? static_cast<int>(*batch) : 0;
  Result<std::vector<double>> epsilons = flags->DoubleList("epsilons", o.epsilons);
  Result<std::uint64_t> splits = flags->Unsigned("splits", static_cast<std::uint64_t>(o.splits));
  Result<std::uint64_t> hops = flags->Unsigned("hops", static_cast<std::uint64_t>(o.hops));
  Result<std::uint64_t> epochs = flags->Unsigned("epochs", static_cast<std::uint64_t>(o.epochs));
  Result<std::uint64_t> jobs = flags->Unsigned("jobs", 2);
  for (const Status* s : {&epsilons.status(), &splits.status(), &hops.status(), &epochs.status(), &jobs.status()}) {
    if (!s->ok()) return Usage(s->message());
  }
  if (*splits < 1 || *splits > 1000 || *hops < 1 || *hops > 16 || *epochs < 1 || *epochs > 100000 || *jobs < 1) {
    return Usage("need 1 <= --splits <= 1000, 1 <= --hops <= 16, 1 <= --epochs <= 10^5, --jobs >= 1");
  }
  o.epsilons = *epsilons;
  o.splits = static_cast<int>(*splits);
  o.hops = static_cast<int>(*hops);
  o.epochs = static_cast<int>(*epochs);
  o.jobs = static_cast<int>(*jobs);
  o.out_dir = *out;
  Result<GraphDataset> ds = ReadDataset(*path);
  if (!ds.ok()) return Failure(ds.status());
  Status s = RunGapExperiment(*ds, o);
  if (s.ok()) std::printf("results=%s/results.csv\nsummary=%s/summary.csv\n", out->c_str(), out->c_str());
  return Finish(s);
}

int RunLinkLdp(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(args, {"dataset", "out", "models", "methods", "epsilons", "features",
                                            "feature-epsilon", "label-epsilon", "splits", "jobs",
                                            "soft-degree-multiple"});
  if (!flags.ok()) return Usage(flags.status().message());
  Result<std::string> path = flags->String("dataset");
  Result<std::string> out = flags->String("out");
  if (!path.ok()) return Usage(path.status().message());
  if (!out.ok()) return Usage(out.status().message());
  LinkLdpExperimentOptions o;
  Result<double> soft_multiple = flags->Double("soft-degree-multiple", o.soft_degree_multiple);
  if (!soft_multiple.ok()) return Usage(soft_multiple.status().message());
  o.soft_degree_multiple = *soft_multiple;
  Result<std::vector<std::string>> models = flags->StringList("models", o.models);
  Result<std::vector<std::string>> methods = flags->StringList("methods", o.methods);
  Result<std::vector<std::string>> features = flags->StringList("features", o.feature_settings);
  Result<std::vector<double>> epsilons = flags->DoubleList("epsilons", o.edge_epsilons);
  Result<double> feature_epsilon = flags->Double("feature-epsilon", o.feature_epsilon);
  Result<double> label_epsilon = flags->Double("label-epsilon", o.label_epsilon);
  Result<std::uint64_t> splits = flags->Unsigned("splits", static_cast<std::uint64_t>(o.splits));
  Result<std::uint64_t> jobs = flags->Unsigned("jobs", 2);
  for (const Status* s : {&models.status(), &methods.status(), &features.status(), &epsilons.status(),
                          &feature_epsilon.status(), &label_epsilon.status(), &splits.status(), &jobs.status()}) {
    if (!s->ok()) return Usage(s->message());
  }
  if (*splits < 1 || *splits > 1000 || *jobs < 1) return Usage("need 1 <= --splits <= 1000 and --jobs >= 1");
  o.models = *models;
  o.methods = *methods;
  o.feature_settings = *features;
  o.edge_epsilons = *epsilons;
  o.feature_epsilon = *feature_epsilon;
  o.label_epsilon = *label_epsilon;
  o.splits = static_cast<int>(*splits);
  o.jobs = static_cast<int>(*jobs);
  o.out_dir = *out;
  Result<GraphDataset> ds = ReadDataset(*path);
  if (!ds.ok()) return Failure(ds.status());
  Status s = RunLinkLdpExperiment(*ds, o);
  if (s.ok()) std::printf("results=%s/results.csv\nsummary=%s/summary.csv\n", out->c_str(), out->c_str());
  return Finish(s);
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
  Result<std::string> path = flags->String("dataset");
  Result<std::string> out = flags->String("out");
  if (!path.ok()) return Usage(path.status().message());
  if (!out.ok()) return Usage(out.status().message());
  FedCogExperimentOptions o;
  Result<std::vector<std::string>> partitions = flags->StringList("partitions", o.partitions);
  Result<std::vector<std::string>> methods = flags->StringList("methods", o.methods);
  Result<std::vector<double>> parties = flags->DoubleList("parties", {2, 3, 5, 10});
  Result<std::uint64_t> steps = flags->Unsigned("steps", static_cast<std::uint64_t>(o.steps));
  Result<std::uint64_t> splits = flags->Unsigned("splits", static_cast<std::uint64_t>(o.splits));
  Result<std::uint64_t> jobs = flags->Unsigned("jobs", 2);
  for (const Status* s : {&partitions.status(), &methods.status(), &parties.status(), &steps.status(), &splits.status(),
                          &jobs.status()}) {
    if (!s->ok()) return Usage(s->message());
  }
  if (*splits < 1 || *splits > 1000 || *jobs < 1 || *steps < 1 || *steps > 64) {
    return Usage("need 1 <= --splits <= 1000, 1 <= --steps <= 64 and --jobs >= 1");
  }
  o.parties.clear();
  for (double p : *parties) {
    if (!(p >= 2 && p <= 100000) || p != static_cast<double>(static_cast<int>(p))) {
      return Usage("--parties takes whole numbers of at least 2");
    }
    o.parties.push_back(static_cast<int>(p));
  }
  o.partitions = *partitions;
  o.methods = *methods;
  o.steps = static_cast<int>(*steps);
  o.splits = static_cast<int>(*splits);
  o.jobs = static_cast<int>(*jobs);
  o.out_dir = *out;
  Result<GraphDataset> ds = ReadDataset(*path);
  if (!ds.ok()) return Failure(ds.status());
  std::unique_ptr<FedCogParties> real;
  if (std::find(o.methods.begin(), o.methods.end(), "fedcog-tls") != o.methods.end()) {
    real = std::make_unique<FedCogParties>(flags->StringOr("ldpgraphd", SiblingBinary("ldpgraphd")));
    o.over_tls = [&real](const std::vector<HeldGraphParts>& shares, int k, std::uint64_t seed) {
      return real->Run(shares, k, seed);
    };
  }
  Status s = RunFedCogExperiment(*ds, o);
  if (s.ok()) std::printf("results=%s/results.csv\nsummary=%s/summary.csv\n", out->c_str(), out->c_str());
  return Finish(s);
}

int RunDegree(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(args, {"dataset", "mechanisms", "epsilon", "seed", "out"});
  if (!flags.ok()) return Usage(flags.status().message());
  Result<std::string> path = flags->String("dataset");
  Result<std::string> out = flags->String("out");
  if (!path.ok()) return Usage(path.status().message());
  if (!out.ok()) return Usage(out.status().message());
  DegreeExperimentOptions o;
  Result<std::vector<std::string>> mechanisms = flags->StringList("mechanisms", o.mechanisms);
  Result<double> epsilon = flags->Double("epsilon", 1.0);
  Result<std::uint64_t> seed = flags->Unsigned("seed", 0);
  for (const Status* s : {&mechanisms.status(), &epsilon.status(), &seed.status()}) {
    if (!s->ok()) return Usage(s->message());
  }
  o.mechanisms = *mechanisms;
  o.epsilon = *epsilon;
  o.seed = *seed;
  o.out_dir = *out;
  Result<GraphDataset> ds = ReadDataset(*path);
  if (!ds.ok()) return Failure(ds.status());
  Status s = RunDegreeExperiment(*ds, o);
  if (s.ok()) std::printf("degrees=%s/degrees.csv\nsummary=%s/summary.csv\n", out->c_str(), out->c_str());
  return Finish(s);
}

Result<std::vector<std::uint32_t>> Counts(const Flags& flags, const std::string& name,
                                          const std::vector<std::uint32_t>& fallback) {
  std::vector<double> defaults(fallback.begin(), fallback.end());
  Result<std::vector<double>> values = flags.DoubleList(name, defaults);
  if (!values.ok()) return values.status();
  std::vector<std::uint32_t> out;
  for (double v : *values) {
    if (!(v >= 1 && v <= 1e8) || v != std::floor(v)) {
      return Status::InvalidArgument("--" + name + " takes whole numbers from 1 to 1e8");
    }
    out.push_back(static_cast<std::uint32_t>(v));
  }
  return out;
}

int RunScaling(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(args, {"ms", "sizes", "mechanisms", "epsilon", "graphs", "epochs",
                                            "rr-max-nodes", "locallap-max-nodes", "out", "gathers"});
  if (!flags.ok()) return Usage(flags.status().message());
  Result<GatherPrecision> gathers = GathersFlag(*flags);
  if (!gathers.ok()) return Usage(gathers.status().message());
  SetDefaultGatherPrecision(*gathers);
  Result<std::string> out = flags->String("out");
  if (!out.ok()) return Usage(out.status().message());
  ScalingExperimentOptions o;
  Result<std::vector<std::uint32_t>> ms = Counts(*flags, "ms", o.ms);
  Result<std::vector<std::uint32_t>> sizes = Counts(*flags, "sizes", o.sizes);
  Result<std::vector<std::string>> mechanisms = flags->StringList("mechanisms", o.mechanisms);
  Result<double> epsilon = flags->Double("epsilon", o.epsilon);
  Result<std::uint64_t> graphs = flags->Unsigned("graphs", o.graphs);
  Result<std::uint64_t> epochs = flags->Unsigned("epochs", static_cast<std::uint64_t>(o.epochs));
  Result<std::uint64_t> rr_max = flags->Unsigned("rr-max-nodes", o.rr_max_nodes);
  Result<std::uint64_t> ll_max = flags->Unsigned("locallap-max-nodes", o.locallap_max_nodes);
  for (const Status* s : {&ms.status(), &sizes.status(), &mechanisms.status(), &epsilon.status(), &graphs.status(),
                          &epochs.status(), &rr_max.status(), &ll_max.status()}) {
    if (!s->ok()) return Usage(s->message());
  }
  if (*graphs > 100000 || *epochs > 10000) return Usage("--graphs at most 100000, --epochs at most 10000");
  o.ms = *ms;
  o.sizes = *sizes;
  o.mechanisms = *mechanisms;
  o.epsilon = *epsilon;
  o.graphs = static_cast<std::uint32_t>(*graphs);
  o.epochs = static_cast<int>(*epochs);
  o.rr_max_nodes = static_cast<std::uint32_t>(std::min<std::uint64_t>(*rr_max, 1u << 31));
  o.locallap_max_nodes = static_cast<std::uint32_t>(std::min<std::uint64_t>(*ll_max, 1u << 31));
  o.out_dir = *out;
  Status s = RunScalingExperiment(o);
  if (s.ok()) std::printf("results=%s/results.csv\n", out->c_str());
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
