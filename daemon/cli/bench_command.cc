// ldpgraph bench <what>: benchmarks that print key=value figures.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <limits>

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
#include "bench/roofline_bench.h"
#include "cli/commands.h"
#include "util/flag_reader.h"
#include "util/flags.h"

namespace ldpgraph {

namespace {

// A bad flag: 2, said under the bench's name.
int Refuse(const char* bench, const std::string& message) {
  std::fprintf(stderr, "ldpgraph bench %s: %s\n", bench, message.c_str());
  return 2;
}

// The bench's outcome: 0, or its error with 2 for bad settings the bench
// itself found (when `invalid_is_usage`) and 1 for a failure while running.
int Done(const char* bench, const Status& s, bool invalid_is_usage = true) {
  if (s.ok()) return 0;
  std::fprintf(stderr, "ldpgraph bench %s: %s\n", bench, s.ToString().c_str());
  return invalid_is_usage && s.code() == StatusCode::kInvalidArgument ? 2 : 1;
}

// --gathers auto|float|bf16, set for the whole process; false after refusing.
bool SetGathers(const char* bench, const Flags& flags, int* refused) {
  Result<GatherPrecision> gathers = GathersFlag(flags);
  if (!gathers.ok()) {
    *refused = Refuse(bench, gathers.status().message());
    return false;
  }
  SetDefaultGatherPrecision(*gathers);
  return true;
}

int RunGin(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(args, {"dataset", "epochs", "threads", "products", "colour-classes", "gathers"});
  if (!flags.ok()) return Refuse("gin", flags.status().message());
  int refused = 0;
  if (!SetGathers("gin", *flags, &refused)) return refused;
  GinBenchOptions o;
  Result<bool> bf16 = Bf16ProductsFlag(*flags);
  if (!bf16.ok()) return Refuse("gin", bf16.status().message());
  o.bf16_products = *bf16;
  Result<bool> classes = ColourClassesFlag(*flags);
  if (!classes.ok()) return Refuse("gin", classes.status().message());
  o.colour_classes = *classes;
  FlagReader read(*flags);
  read.Required("dataset", &o.dataset).Int("epochs", &o.epochs, 1, 100000).Int("threads", &o.threads, 0, 1024);
  if (!read.ok()) return Refuse("gin", read.status().message());
  return Done("gin", RunGinBench(o, std::cout), /*invalid_is_usage=*/false);
}

int RunNode(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(args, {"dataset", "model", "epochs", "hidden", "threads", "gathers"});
  if (!flags.ok()) return Refuse("node", flags.status().message());
  int refused = 0;
  if (!SetGathers("node", *flags, &refused)) return refused;
  NodeBenchOptions o;
  FlagReader read(*flags);
  read.Required("dataset", &o.dataset)
      .Choice("model", &o.model, {"gcn", "sage"})
      .Int("epochs", &o.epochs, 1, 100000)
      .Int("hidden", &o.hidden, 1, 4096)
      .Int("threads", &o.threads, 0, 1024);
  if (!read.ok()) return Refuse("node", read.status().message());
  return Done("node", RunNodeBench(o, std::cout), /*invalid_is_usage=*/false);  // flags were checked above
}

int RunLpgnn(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(
      args, {"dataset", "model", "feature-epsilon", "label-epsilon", "kx", "epochs", "paths", "threads", "shuffle",
             "node-order"});
  if (!flags.ok()) return Refuse("lpgnn", flags.status().message());
  LpgnnBenchOptions o;
  const double kInf = std::numeric_limits<double>::infinity();
  FlagReader read(*flags);
  read.Required("dataset", &o.dataset)
      .Choice("model", &o.model, {"gcn", "sage"})
      .Double("feature-epsilon", &o.feature_epsilon, 0, kInf)
      .Double("label-epsilon", &o.label_epsilon, 0, kInf)
      .Int("kx", &o.kx, 0, 64)
      .Int("epochs", &o.epochs, 1, 100000)
      .Int("threads", &o.threads, 0, 1024)
      .Strings("paths", &o.paths)
      .Switch("shuffle", &o.shuffle)
      .Choice("node-order", &o.node_order, {"auto", "as-given", "rcm", "degree"});
  if (!read.ok()) return Refuse("lpgnn", read.status().message());
  return Done("lpgnn", RunLpgnnBench(o, std::cout));
}

int RunGemm(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(args, {"rows", "seconds"});
  if (!flags.ok()) return Refuse("gemm", flags.status().message());
  GemmBenchOptions o;
  std::uint64_t rows = static_cast<std::uint64_t>(o.rows);
  FlagReader read(*flags);
  read.Unsigned("rows", &rows, 0, 1ull << 40).Double("seconds", &o.seconds, 0, 3600);
  if (!read.ok()) return Refuse("gemm", read.status().message());
  o.rows = static_cast<std::int64_t>(rows);
  return Done("gemm", RunGemmBench(o, std::cout));
}

int RunRoofline(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(args, {"nodes", "degree", "features", "words", "graphs", "kx", "epochs",
                                            "seconds", "big-mb", "threads", "svg", "seed", "gathers"});
  if (!flags.ok()) return Refuse("roofline", flags.status().message());
  int refused = 0;
  if (!SetGathers("roofline", *flags, &refused)) return refused;
  RooflineBenchOptions o;
  FlagReader read(*flags);
  read.Unsigned("nodes", &o.nodes, 1000, 100'000'000)
      .Double("degree", &o.degree, 0, 1000)
      .Unsigned("features", &o.features, 8, 1u << 20)
      .Unsigned("words", &o.words, 1, 1u << 20)
      .Unsigned("graphs", &o.graphs, 20, 1u << 20)
      .Int("kx", &o.kx, 0, 64)
      .Int("epochs", &o.epochs, 1, 100)
      .Double("seconds", &o.seconds, 0, 60)
      .Int("big-mb", &o.big_mb, 16, 16384)
      .Int("threads", &o.threads, 0, 1024)
      .String("svg", &o.svg)
      .Unsigned("seed", &o.seed, 0, UINT64_MAX);
  if (!read.ok()) return Refuse("roofline", read.status().message());
  return Done("roofline", RunRooflineBench(o, std::cout));
}

int RunGw(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(args, {"dataset", "pairs", "threads", "seed"});
  if (!flags.ok()) return Refuse("gw", flags.status().message());
  GwBenchOptions o;
  FlagReader read(*flags);
  read.Required("dataset", &o.dataset)
      .Int("pairs", &o.pairs, 1, 1 << 30)
      .Int("threads", &o.threads, 1, 1024)
      .Unsigned("seed", &o.seed, 0, UINT64_MAX);
  if (!read.ok()) return Refuse("gw", read.status().message());
  return Done("gw", RunGwBench(o, std::cout));
}

int RunIngest(const std::vector<std::string>& args) {
  Result<Flags> flags =
      Flags::Parse(args, {"connections", "reports", "degree", "epsilon", "server-threads", "handshakes", "dir",
                          "pipeline", "store", "daemons", "store-connection"});
  if (!flags.ok()) return Refuse("ingest", flags.status().message());
  IngestBenchOptions o;
  std::vector<std::string> stores = {"sqlite"};
  std::vector<std::uint32_t> daemon_counts = {1};
  FlagReader read(*flags);
  read.Unsigned("connections", &o.connections, 1, 4096)
      .Unsigned("reports", &o.reports, 0, UINT64_MAX)
      .Unsigned("degree", &o.degree, 0, 100000)
      .Double("epsilon", &o.epsilon, 0, std::numeric_limits<double>::infinity())
      .Unsigned("server-threads", &o.server_threads, 1, 256)
      .Unsigned("handshakes", &o.handshakes, 0, 100000)
      .Unsigned("pipeline", &o.pipeline, 1, 64)
      .String("dir", &o.dir)
      .String("store-connection", &o.store_connection)
      .Strings("store", &stores)
      .Ints("daemons", &daemon_counts, 1, 16);
  if (!read.ok()) return Refuse("ingest", read.status().message());
  if (const char* password = std::getenv("LDPGRAPH_STORE_PASSWORD")) o.store_password = password;
  // Every store with every daemon count it supports (SQLite: one), in one
  // run, so that their figures compare; a summary line per setting at the end.
  std::vector<std::pair<std::string, unsigned>> settings;
  for (const std::string& store : stores) {
    if (store != "sqlite" && store != "postgresql") {
      return Refuse("ingest", "--store lists sqlite and/or postgresql, got " + store);
    }
    for (const std::uint32_t n : daemon_counts) {
      if (store == "sqlite" && n != 1) continue;  // one file, one daemon
      settings.emplace_back(store, n);
    }
  }
  if (settings.empty()) return Refuse("ingest", "no setting to run (sqlite runs with one daemon only)");
  std::vector<IngestBenchFigures> figures(settings.size());
  for (std::size_t i = 0; i < settings.size(); ++i) {
    o.store = settings[i].first;
    o.daemons = settings[i].second;
    if (settings.size() > 1) std::cout << "# store=" << o.store << " daemons=" << o.daemons << "\n";
    if (int failed = Done("ingest", RunIngestBench(o, std::cout, &figures[i]))) return failed;
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
  if (!flags.ok()) return Refuse("admin", flags.status().message());
  AdminLoadBenchOptions o;
  FlagReader read(*flags);
  read.Unsigned("users", &o.users, 0, 10000000)
      .Unsigned("held-nodes", &o.held_nodes, 0, 10000000)
      .Unsigned("gap-nodes", &o.gap_nodes, 0, 10000000)
      .Unsigned("gw-nodes", &o.gw_nodes, 0, 5000)  // the daemon's gw_max_nodes
      .Unsigned("probe-ms", &o.probe_ms, 0, 10000)
      .Unsigned("dense-users", &o.dense_users, 0, 100000)
      .String("dir", &o.dir);
  if (!read.ok()) return Refuse("admin", read.status().message());
  return Done("admin", RunAdminLoadBench(o, std::cout));
}

int RunAssemble(const std::vector<std::string>& args) {
  Result<Flags> flags =
      Flags::Parse(args, {"users", "degree", "epsilon", "symmetrise", "dir", "store", "store-connection"});
  if (!flags.ok()) return Refuse("assemble", flags.status().message());
  AssembleBenchOptions o;
  FlagReader read(*flags);
  read.Unsigned("users", &o.users, 2, 0xFFFFFFFFull)
      .Unsigned("degree", &o.degree, 0, 0xFFFFFFFEull)
      .Double("epsilon", &o.epsilon, 0, std::numeric_limits<double>::infinity())
      .String("dir", &o.dir)
      .Choice("store", &o.store, {"sqlite", "postgresql"})
      .String("store-connection", &o.store_connection);
  if (!read.ok()) return Refuse("assemble", read.status().message());
  if (o.degree >= o.users) return Refuse("assemble", "--degree must be below --users");
  Result<Symmetrisation> rule = ParseSymmetrisation(flags->StringOr("symmetrise", "none"));
  if (!rule.ok()) return Refuse("assemble", rule.status().message());
  o.rule = *rule;
  if (const char* password = std::getenv("LDPGRAPH_STORE_PASSWORD")) o.store_password = password;
  return Done("assemble", RunAssembleBench(o, std::cout), /*invalid_is_usage=*/false);
}

int RunLinkLdp(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(
      args, {"users", "degree", "mechanism", "epsilon", "output", "threads", "dataset", "train", "model"});
  if (!flags.ok()) return Refuse("linkldp", flags.status().message());
  LinkLdpBenchOptions o;
  FlagReader read(*flags);
  read.Unsigned("users", &o.users, 0, 1u << 30)
      .Unsigned("degree", &o.degree, 0, 1u << 20)
      .Double("epsilon", &o.epsilon, 0, std::numeric_limits<double>::infinity())
      .Int("threads", &o.threads, 0, 1024)
      .Choice("mechanism", &o.mechanism, {"dprr", "rr-degree"})
      .Choice("output", &o.output, {"hard", "soft", "hybrid"})
      .String("dataset", &o.dataset)
      .Choice("train", &o.train, {"ours", "blink", "none"})
      .Choice("model", &o.model, {"gcn", "sage"});
  if (!read.ok()) return Refuse("linkldp", read.status().message());
  return Done("linkldp", RunLinkLdpBench(o, std::cout), /*invalid_is_usage=*/false);
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
  if (!args.empty() && args[0] == "roofline") return RunRoofline({args.begin() + 1, args.end()});
  if (args.empty() || args[0] != "perturb") {
    std::fprintf(stderr, "usage: ldpgraph bench perturb [--users N] [--degree D] [--epsilon E] "
                         "[--reports R] [--baseline-reports B]\n"
                         "       ldpgraph bench gin --dataset PATH [--epochs E] [--threads T] [--products float|bf16]\n"
                         "                          [--colour-classes on|off] [--gathers auto|float|bf16]\n"
                         "       ldpgraph bench node --dataset PATH [--model gcn|sage] [--epochs E] [--hidden H] "
                         "[--threads T] [--gathers auto|float|bf16]\n"
                         "       ldpgraph bench lpgnn --dataset PATH [--model gcn|sage] [--feature-epsilon E] "
                         "[--label-epsilon E] [--kx K] [--epochs E] [--paths factored,packed,dense] [--threads T] "
                         "[--shuffle yes|no] [--node-order auto|as-given|rcm|degree]\n"
                         "       ldpgraph bench gemm [--rows N] [--seconds S]\n"
                         "       ldpgraph bench roofline [--nodes N] [--degree D] [--features F] [--words W] "
                         "[--graphs G] [--kx K] [--epochs E] [--seconds S] [--big-mb MB] [--threads T] "
                         "[--svg PATH] [--seed S] [--gathers auto|float|bf16]\n"
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
  if (!flags.ok()) return Refuse("perturb", flags.status().message());
  PerturbBenchOptions o;
  FlagReader read(*flags);
  read.Unsigned("users", &o.users, 0, 0xFFFFFFFFull)
      .Unsigned("degree", &o.degree, 0, 0xFFFFFFFFull)
      .Double("epsilon", &o.epsilon, 0, std::numeric_limits<double>::infinity())
      .Unsigned("reports", &o.reports, 1, UINT64_MAX)
      .Unsigned("baseline-reports", &o.baseline_reports, 1, UINT64_MAX);
  if (!read.ok()) return Refuse("perturb", read.status().message());
  return Done("perturb", RunPerturbBench(o, std::cout), /*invalid_is_usage=*/false);
}

}  // namespace ldpgraph
