// ldpgraph bench <what>: benchmarks that print key=value figures.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "bench/assemble_bench.h"
#include "bench/gemm_bench.h"
#include "bench/gin_bench.h"
#include "bench/gw_bench.h"
#include "bench/admin_load_bench.h"
#include "bench/ingest_bench.h"
#include "bench/linkldp_bench.h"
#include "bench/lpgnn_bench.h"
#include "bench/node_bench.h"
#include "bench/perturb_bench.h"
#include "cli/commands.h"
#include "util/flags.h"

namespace ldpgraph {

namespace {

int RunGin(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(args, {"dataset", "epochs", "threads", "products", "colour-classes", "gathers"});
  Result<GatherPrecision> gathers = flags.ok() ? GathersFlag(*flags) : Result<GatherPrecision>(flags.status());
  if (!gathers.ok()) {
    std::fprintf(stderr, "ldpgraph bench gin: %s\n", gathers.status().message().c_str());
    return 2;
  }
  SetDefaultGatherPrecision(*gathers);
  GinBenchOptions o;
  Result<bool> bf16 = Bf16ProductsFlag(*flags);
  if (!bf16.ok()) {
    std::fprintf(stderr, "ldpgraph bench gin: %s\n", bf16.status().message().c_str());
    return 2;
  }
  o.bf16_products = *bf16;
  Result<std::string> dataset = flags->String("dataset");
  Result<std::uint64_t> epochs = flags->Unsigned("epochs", 3);
  Result<std::uint64_t> threads = flags->Unsigned("threads", 0);
  for (const Status* s : {&dataset.status(), &epochs.status(), &threads.status()}) {
    if (!s->ok()) {
      std::fprintf(stderr, "ldpgraph bench gin: %s\n", s->message().c_str());
      return 2;
    }
  }
  o.dataset = *dataset;
  o.epochs = static_cast<int>(*epochs);
  o.threads = static_cast<int>(*threads);
  Result<bool> classes = ColourClassesFlag(*flags);
  if (!classes.ok()) {
    std::fprintf(stderr, "ldpgraph bench gin: %s\n", classes.status().message().c_str());
    return 2;
  }
  o.colour_classes = *classes;
  Status s = RunGinBench(o, std::cout);
  if (!s.ok()) {
    std::fprintf(stderr, "ldpgraph bench gin: %s\n", s.ToString().c_str());
    return 1;
  }
  return 0;
}

int RunNode(const std::vector<std::string>& args) {
  auto usage = [](const std::string& message) {
    std::fprintf(stderr, "ldpgraph bench node: %s\n", message.c_str());
    return 2;
  };
  Result<Flags> flags = Flags::Parse(args, {"dataset", "model", "epochs", "hidden", "threads", "gathers"});
  if (!flags.ok()) return usage(flags.status().message());
  Result<GatherPrecision> gathers = GathersFlag(*flags);
  if (!gathers.ok()) return usage(gathers.status().message());
  SetDefaultGatherPrecision(*gathers);
  NodeBenchOptions o;
  Result<std::string> dataset = flags->String("dataset");
  Result<std::uint64_t> epochs = flags->Unsigned("epochs", static_cast<std::uint64_t>(o.epochs));
  Result<std::uint64_t> hidden = flags->Unsigned("hidden", static_cast<std::uint64_t>(o.hidden));
  Result<std::uint64_t> threads = flags->Unsigned("threads", 0);
  for (const Status* s : {&dataset.status(), &epochs.status(), &hidden.status(), &threads.status()}) {
    if (!s->ok()) return usage(s->message());
  }
  if (*epochs < 1 || *epochs > 100000 || *hidden < 1 || *hidden > 4096 || *threads > 1024) {
    return usage("need 1 <= --epochs <= 100000, 1 <= --hidden <= 4096, --threads <= 1024");
  }
  o.dataset = *dataset;
  o.model = flags->StringOr("model", o.model);
  if (o.model != "gcn" && o.model != "sage") return usage("--model must be gcn or sage");
  o.epochs = static_cast<int>(*epochs);
  o.hidden = static_cast<int>(*hidden);
  o.threads = static_cast<int>(*threads);
  Status s = RunNodeBench(o, std::cout);
  if (!s.ok()) {
    std::fprintf(stderr, "ldpgraph bench node: %s\n", s.ToString().c_str());
    return 1;  // the dataset's error: flags were checked above
  }
  return 0;
}

int RunLpgnn(const std::vector<std::string>& args) {
  auto usage = [](const std::string& message) {
    std::fprintf(stderr, "ldpgraph bench lpgnn: %s\n", message.c_str());
    return 2;
  };
  Result<Flags> flags = Flags::Parse(
      args, {"dataset", "model", "feature-epsilon", "label-epsilon", "kx", "epochs", "paths", "threads"});
  if (!flags.ok()) return usage(flags.status().message());
  LpgnnBenchOptions o;
  Result<std::string> dataset = flags->String("dataset");
  Result<double> feature_epsilon = flags->Double("feature-epsilon", o.feature_epsilon);
  Result<double> label_epsilon = flags->Double("label-epsilon", o.label_epsilon);
  Result<std::uint64_t> kx = flags->Unsigned("kx", static_cast<std::uint64_t>(o.kx));
  Result<std::uint64_t> epochs = flags->Unsigned("epochs", static_cast<std::uint64_t>(o.epochs));
  Result<std::uint64_t> threads = flags->Unsigned("threads", 0);
  Result<std::vector<std::string>> paths = flags->StringList("paths", o.paths);
  for (const Status* s : {&dataset.status(), &feature_epsilon.status(), &label_epsilon.status(), &kx.status(),
                          &epochs.status(), &threads.status(), &paths.status()}) {
    if (!s->ok()) return usage(s->message());
  }
  if (*kx > 64 || *epochs < 1 || *epochs > 100000 || *threads > 1024) {
    return usage("need --kx <= 64, 1 <= --epochs <= 100000, --threads <= 1024");
  }
  o.dataset = *dataset;
  o.model = flags->StringOr("model", o.model);
  o.feature_epsilon = *feature_epsilon;
  o.label_epsilon = *label_epsilon;
  o.kx = static_cast<int>(*kx);
  o.epochs = static_cast<int>(*epochs);
  o.threads = static_cast<int>(*threads);
  o.paths = *paths;
  Status s = RunLpgnnBench(o, std::cout);
  if (!s.ok()) {
    std::fprintf(stderr, "ldpgraph bench lpgnn: %s\n", s.ToString().c_str());
    return s.code() == StatusCode::kInvalidArgument ? 2 : 1;
  }
  return 0;
}

int RunGemm(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(args, {"rows", "seconds"});
  if (!flags.ok()) {
    std::fprintf(stderr, "ldpgraph bench gemm: %s\n", flags.status().message().c_str());
    return 2;
  }
  GemmBenchOptions o;
  Result<std::uint64_t> rows = flags->Unsigned("rows", static_cast<std::uint64_t>(o.rows));
  Result<double> seconds = flags->Double("seconds", o.seconds);
  for (const Status* s : {&rows.status(), &seconds.status()}) {
    if (!s->ok()) {
      std::fprintf(stderr, "ldpgraph bench gemm: %s\n", s->message().c_str());
      return 2;
    }
  }
  o.rows = static_cast<std::int64_t>(std::min<std::uint64_t>(*rows, 1ull << 40));
  o.seconds = *seconds;
  Status s = RunGemmBench(o, std::cout);
  if (!s.ok()) {
    std::fprintf(stderr, "ldpgraph bench gemm: %s\n", s.ToString().c_str());
    return s.code() == StatusCode::kInvalidArgument ? 2 : 1;
  }
  return 0;
}

int RunGw(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(args, {"dataset", "pairs", "threads", "seed"});
  GwBenchOptions o;
  Result<std::uint64_t> pairs = flags.ok() ? flags->Unsigned("pairs", 2000) : Result<std::uint64_t>(flags.status());
  Result<std::uint64_t> threads = flags.ok() ? flags->Unsigned("threads", 2) : Result<std::uint64_t>(flags.status());
  Result<std::uint64_t> seed = flags.ok() ? flags->Unsigned("seed", 0) : Result<std::uint64_t>(flags.status());
  Result<std::string> dataset = flags.ok() ? flags->String("dataset") : Result<std::string>(flags.status());
  for (const Status* s : {&pairs.status(), &threads.status(), &seed.status(), &dataset.status()}) {
    if (!s->ok()) {
      std::fprintf(stderr, "ldpgraph bench gw: %s\n", s->message().c_str());
      return 2;
    }
  }
  o.dataset = *dataset;
  o.pairs = static_cast<int>(std::min<std::uint64_t>(*pairs, 1u << 30));
  o.threads = static_cast<int>(std::min<std::uint64_t>(*threads, 1024));
  o.seed = *seed;
  Status s = RunGwBench(o, std::cout);
  if (!s.ok()) {
    std::fprintf(stderr, "ldpgraph bench gw: %s\n", s.ToString().c_str());
    return s.code() == StatusCode::kInvalidArgument ? 2 : 1;
  }
  return 0;
}

int RunIngest(const std::vector<std::string>& args) {
  Result<Flags> flags =
      Flags::Parse(args, {"connections", "reports", "degree", "epsilon", "server-threads", "handshakes", "dir",
                          "pipeline", "store", "daemons", "store-connection"});
  if (!flags.ok()) {
    std::fprintf(stderr, "ldpgraph bench ingest: %s\n", flags.status().message().c_str());
    return 2;
  }
  IngestBenchOptions o;
  Result<std::uint64_t> connections = flags->Unsigned("connections", o.connections);
  Result<std::uint64_t> reports = flags->Unsigned("reports", o.reports);
  Result<std::uint64_t> degree = flags->Unsigned("degree", o.degree);
  Result<double> epsilon = flags->Double("epsilon", o.epsilon);
  Result<std::uint64_t> server_threads = flags->Unsigned("server-threads", o.server_threads);
  Result<std::uint64_t> handshakes = flags->Unsigned("handshakes", o.handshakes);
  Result<std::uint64_t> pipeline = flags->Unsigned("pipeline", o.pipeline);
  for (const Status* s : {&connections.status(), &reports.status(), &degree.status(), &epsilon.status(),
                          &server_threads.status(), &handshakes.status(), &pipeline.status()}) {
    if (!s->ok()) {
      std::fprintf(stderr, "ldpgraph bench ingest: %s\n", s->message().c_str());
      return 2;
    }
  }
  if (*connections == 0 || *connections > 4096 || *server_threads == 0 || *server_threads > 256 ||
      *degree > 100000 || *handshakes > 100000 || *pipeline == 0 || *pipeline > 64) {
    std::fprintf(stderr, "ldpgraph bench ingest: need 1 <= --connections <= 4096, 1 <= --server-threads <= 256, "
                         "--degree <= 100000, --handshakes <= 100000, 1 <= --pipeline <= 64\n");
    return 2;
  }
  o.connections = static_cast<unsigned>(*connections);
  o.reports = *reports;
  o.degree = static_cast<std::uint32_t>(*degree);
  o.epsilon = *epsilon;
  o.server_threads = static_cast<unsigned>(*server_threads);
  o.handshakes = static_cast<unsigned>(*handshakes);
  o.pipeline = static_cast<unsigned>(*pipeline);
  o.dir = flags->StringOr("dir", "");
  o.store_connection = flags->StringOr("store-connection", "");
  if (const char* password = std::getenv("LDPGRAPH_STORE_PASSWORD")) o.store_password = password;
  Result<std::vector<std::string>> stores = flags->StringList("store", {"sqlite"});
  Result<std::vector<std::string>> daemon_counts = flags->StringList("daemons", {"1"});
  if (!stores.ok() || !daemon_counts.ok()) {
    std::fprintf(stderr, "ldpgraph bench ingest: %s\n",
                 (!stores.ok() ? stores.status() : daemon_counts.status()).message().c_str());
    return 2;
  }
  // Every store with every daemon count it supports (SQLite: one), in one
  // run, so that their figures compare; a summary line per setting at the end.
  std::vector<std::pair<std::string, unsigned>> settings;
  for (const std::string& store : *stores) {
    if (store != "sqlite" && store != "postgresql") {
      std::fprintf(stderr, "ldpgraph bench ingest: --store lists sqlite and/or postgresql, got %s\n", store.c_str());
      return 2;
    }
    for (const std::string& count : *daemon_counts) {
      const int n = std::atoi(count.c_str());
      if (n < 1 || n > 16 || std::to_string(n) != count) {
        std::fprintf(stderr, "ldpgraph bench ingest: --daemons lists counts in [1, 16], got %s\n", count.c_str());
        return 2;
      }
      if (store == "sqlite" && n != 1) continue;  // one file, one daemon
      settings.emplace_back(store, static_cast<unsigned>(n));
    }
  }
  if (settings.empty()) {
    std::fprintf(stderr, "ldpgraph bench ingest: no setting to run (sqlite runs with one daemon only)\n");
    return 2;
  }
  std::vector<IngestBenchFigures> figures(settings.size());
  for (std::size_t i = 0; i < settings.size(); ++i) {
    o.store = settings[i].first;
    o.daemons = settings[i].second;
    if (settings.size() > 1) std::cout << "# store=" << o.store << " daemons=" << o.daemons << "\n";
    Status s = RunIngestBench(o, std::cout, &figures[i]);
    if (!s.ok()) {
      std::fprintf(stderr, "ldpgraph bench ingest: %s\n", s.ToString().c_str());
      return s.code() == StatusCode::kInvalidArgument ? 2 : 1;
    }
  }
  if (settings.size() > 1) {
    for (std::size_t i = 0; i < settings.size(); ++i) {
      const std::string key = settings[i].first + "_" + std::to_string(settings[i].second);
      std::cout << key << "_reports_per_s=" << static_cast<std::uint64_t>(figures[i].reports_per_s) << "\n"
                << key << "_p99_ms=" << figures[i].p99_ms << "\n" << key << "_lost=" << figures[i].lost << "\n";
    }
  }
  return 0;
}

int RunAdmin(const std::vector<std::string>& args) {
  Result<Flags> flags =
      Flags::Parse(args, {"users", "held-nodes", "gap-nodes", "gw-nodes", "probe-ms", "dense-users", "dir"});
  if (!flags.ok()) {
    std::fprintf(stderr, "ldpgraph bench admin: %s\n", flags.status().message().c_str());
    return 2;
  }
  AdminLoadBenchOptions o;
  Result<std::uint64_t> users = flags->Unsigned("users", o.users);
  Result<std::uint64_t> held = flags->Unsigned("held-nodes", o.held_nodes);
  Result<std::uint64_t> gap = flags->Unsigned("gap-nodes", o.gap_nodes);
  Result<std::uint64_t> gw = flags->Unsigned("gw-nodes", o.gw_nodes);
  Result<std::uint64_t> probe = flags->Unsigned("probe-ms", o.probe_ms);
  Result<std::uint64_t> dense = flags->Unsigned("dense-users", o.dense_users);
  for (const Status* s :
       {&users.status(), &held.status(), &gap.status(), &gw.status(), &probe.status(), &dense.status()}) {
    if (!s->ok()) {
      std::fprintf(stderr, "ldpgraph bench admin: %s\n", s->message().c_str());
      return 2;
    }
  }
  if (*users > 10000000 || *held > 10000000 || *gap > 10000000 || *gw > 5000 || *probe > 10000 || *dense > 100000) {
    std::fprintf(stderr, "ldpgraph bench admin: need --users, --held-nodes, --gap-nodes <= 10^7, --gw-nodes <= 5000 "
                         "(the daemon's gw_max_nodes), --probe-ms <= 10000, --dense-users <= 10^5\n");
    return 2;
  }
  o.users = static_cast<std::uint32_t>(*users);
  o.held_nodes = static_cast<std::uint32_t>(*held);
  o.gap_nodes = static_cast<std::uint32_t>(*gap);
  o.gw_nodes = static_cast<std::uint32_t>(*gw);
  o.probe_ms = static_cast<unsigned>(*probe);
  o.dense_users = static_cast<std::uint32_t>(*dense);
  o.dir = flags->StringOr("dir", "");
  Status s = RunAdminLoadBench(o, std::cout);
  if (!s.ok()) {
    std::fprintf(stderr, "ldpgraph bench admin: %s\n", s.ToString().c_str());
    return s.code() == StatusCode::kInvalidArgument ? 2 : 1;
  }
  return 0;
}

int RunAssemble(const std::vector<std::string>& args) {
  Result<Flags> flags =
      Flags::Parse(args, {"users", "degree", "epsilon", "symmetrise", "dir", "store", "store-connection"});
  if (!flags.ok()) {
    std::fprintf(stderr, "ldpgraph bench assemble: %s\n", flags.status().message().c_str());
    return 2;
  }
  AssembleBenchOptions o;
  Result<std::uint64_t> users = flags->Unsigned("users", o.users);
  Result<std::uint64_t> degree = flags->Unsigned("degree", o.degree);
  Result<double> epsilon = flags->Double("epsilon", o.epsilon);
  Result<Symmetrisation> rule = ParseSymmetrisation(flags->StringOr("symmetrise", "none"));
  for (const Status* s : {&users.status(), &degree.status(), &epsilon.status(), &rule.status()}) {
    if (!s->ok()) {
      std::fprintf(stderr, "ldpgraph bench assemble: %s\n", s->message().c_str());
      return 2;
    }
  }
  if (*users < 2 || *users > 0xFFFFFFFFull || *degree >= *users) {
    std::fprintf(stderr, "ldpgraph bench assemble: need 2 <= --users < 2^32 and --degree < --users\n");
    return 2;
  }
  o.users = static_cast<std::uint32_t>(*users);
  o.degree = static_cast<std::uint32_t>(*degree);
  o.epsilon = *epsilon;
  o.rule = *rule;
  o.dir = flags->StringOr("dir", "");
  o.store = flags->StringOr("store", "sqlite");
  o.store_connection = flags->StringOr("store-connection", "");
  if (const char* password = std::getenv("LDPGRAPH_STORE_PASSWORD")) o.store_password = password;
  Status s = RunAssembleBench(o, std::cout);
  if (!s.ok()) {
    std::fprintf(stderr, "ldpgraph bench assemble: %s\n", s.ToString().c_str());
    return 1;
  }
  return 0;
}

int RunLinkLdp(const std::vector<std::string>& args) {
  auto fail = [](const std::string& message) {
    std::fprintf(stderr, "ldpgraph bench linkldp: %s\n", message.c_str());
    return 2;
  };
  Result<Flags> flags = Flags::Parse(
      args, {"users", "degree", "mechanism", "epsilon", "output", "threads", "dataset", "train", "model"});
  if (!flags.ok()) return fail(flags.status().message());
  LinkLdpBenchOptions o;
  Result<std::uint64_t> users = flags->Unsigned("users", o.users);
  Result<std::uint64_t> degree = flags->Unsigned("degree", o.degree);
  Result<double> epsilon = flags->Double("epsilon", o.epsilon);
  Result<std::uint64_t> threads = flags->Unsigned("threads", 0);
  for (const Status* s : {&users.status(), &degree.status(), &epsilon.status(), &threads.status()}) {
    if (!s->ok()) return fail(s->message());
  }
  if (*users > (1u << 30) || *degree > (1u << 20)) return fail("--users must be at most 2^30, --degree 2^20");
  o.users = static_cast<std::uint32_t>(*users);
  o.degree = static_cast<std::uint32_t>(*degree);
  o.epsilon = *epsilon;
  o.mechanism = flags->StringOr("mechanism", o.mechanism);
  o.output = flags->StringOr("output", o.output);
  o.threads = static_cast<int>(*threads);
  o.dataset = flags->StringOr("dataset", "");
  o.train = flags->StringOr("train", o.train);
  o.model = flags->StringOr("model", o.model);
  Status s = RunLinkLdpBench(o, std::cout);
  if (!s.ok()) {
    std::fprintf(stderr, "ldpgraph bench linkldp: %s\n", s.ToString().c_str());
    return 1;
  }
  return 0;
}

}  // namespace

int RunBenchCommand(const std::vector<std::string>& args) {
  if (!args.empty() && args[0] == "gin") return RunGin({args.begin() + 1, args.end()});
  if (!args.empty() && args[0] == "node") return RunNode({args.begin() + 1, args.end()});
  if (!args.empty() && args[0] == "lpgnn") return RunLpgnn({args.begin() + 1, args.end()});
  if (!args.empty() && args[0] == "gemm") return RunGemm({args.begin() + 1, args.end()});
  if (!args.empty() && args[0] == "ingest") return RunIngest({args.begin() + 1, args.end()});
  if (!args.empty() && args[0] == "admin") return RunAdmin({args.begin() + 1, args.end()});
  if (!args.empty() && args[0] == "assemble") return RunAssemble({args.begin() + 1, args.end()});
  if (!args.empty() && args[0] == "linkldp") return RunLinkLdp({args.begin() + 1, args.end()});
  if (!args.empty() && args[0] == "gw") return RunGw({args.begin() + 1, args.end()});
  if (args.empty() || args[0] != "perturb") {
    std::fprintf(stderr, "usage: ldpgraph bench perturb [--users N] [--degree D] [--epsilon E] "
                         "[--reports R] [--baseline-reports B]\n"
                         "       ldpgraph bench gin --dataset PATH [--epochs E] [--threads T] [--products float|bf16]\n"
                         "                          [--colour-classes on|off] [--gathers auto|float|bf16]\n"
                         "       ldpgraph bench node --dataset PATH [--model gcn|sage] [--epochs E] [--hidden H] "
                         "[--threads T] [--gathers auto|float|bf16]\n"
                         "       ldpgraph bench lpgnn --dataset PATH [--model gcn|sage] [--feature-epsilon E] "
                         "[--label-epsilon E] [--kx K] [--epochs E] [--paths factored,dense] [--threads T]\n"
                         "       ldpgraph bench gemm [--rows N] [--seconds S]\n"
                         "       ldpgraph bench gw --dataset PATH [--pairs 2000] [--threads 2] [--seed S]\n"
                         "       ldpgraph bench ingest [--connections C] [--reports R] [--degree D] "
                         "[--server-threads T] [--handshakes H] [--dir DIR] [--store LIST] [--daemons LIST]\n"
                         "       ldpgraph bench admin [--users N] [--held-nodes N] [--gap-nodes N] [--gw-nodes N] "
                         "[--probe-ms MS] [--dense-users N] [--dir DIR]\n"
                         "       ldpgraph bench assemble [--users N] [--degree D] [--epsilon E] "
                         "[--symmetrise none|or|and] [--dir DIR] [--store sqlite|postgresql]\n"
                         "       ldpgraph bench linkldp [--users N] [--degree D] [--mechanism dprr|rr-degree] "
                         "[--epsilon E] [--output hard|soft|hybrid] [--threads T] [--dataset PATH] "
                         "[--train ours|blink|none] [--model gcn|sage]\n");
    return 2;
  }
  Result<Flags> flags = Flags::Parse({args.begin() + 1, args.end()},
                                     {"users", "degree", "epsilon", "reports", "baseline-reports"});
  if (!flags.ok()) {
    std::fprintf(stderr, "ldpgraph bench perturb: %s\n", flags.status().message().c_str());
    return 2;
  }
  PerturbBenchOptions o;
  Result<std::uint64_t> users = flags->Unsigned("users", o.users);
  Result<std::uint64_t> degree = flags->Unsigned("degree", o.degree);
  Result<double> epsilon = flags->Double("epsilon", o.epsilon);
  Result<std::uint64_t> reports = flags->Unsigned("reports", o.reports);
  Result<std::uint64_t> baseline = flags->Unsigned("baseline-reports", o.baseline_reports);
  for (const Status* s : {&users.status(), &degree.status(), &epsilon.status(), &reports.status(),
                          &baseline.status()}) {
    if (!s->ok()) {
      std::fprintf(stderr, "ldpgraph bench perturb: %s\n", s->message().c_str());
      return 2;
    }
  }
  if (*users > 0xFFFFFFFFull || *degree > 0xFFFFFFFFull || *reports == 0 || *baseline == 0) {
    std::fprintf(stderr, "ldpgraph bench perturb: --users and --degree must fit 32 bits; "
                         "--reports and --baseline-reports must be positive\n");
    return 2;
  }
  o.users = static_cast<std::uint32_t>(*users);
  o.degree = static_cast<std::uint32_t>(*degree);
  o.epsilon = *epsilon;
  o.reports = *reports;
  o.baseline_reports = *baseline;
  Status s = RunPerturbBench(o, std::cout);
  if (!s.ok()) {
    std::fprintf(stderr, "ldpgraph bench perturb: %s\n", s.ToString().c_str());
    return 1;
  }
  return 0;
}

}  // namespace ldpgraph
