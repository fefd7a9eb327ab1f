// ldpgraph gw: graph classification by Gromov-Wasserstein discrepancy
// (seed 000): every pair's (F)GW, on the graphs themselves or on node
// embeddings from a federated GIN/GCN (LDP-encoded with --epsilon), then an
// SVM on exp(-gamma GW) per fold (C and gamma cross-validated on the fold's
// training graphs) and k-NN. Prints key=value lines; writes the distance
// matrices with --out.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <thread>
#include <tuple>
#include <unistd.h>

#include "cli/commands.h"
#include "dataset/graph_dataset.h"
#include "gw/graph_folds.h"
#include "experiments/gw_experiment.h"
#include "gw/gw_classification.h"
#include "util/flags.h"

namespace ldpgraph {
namespace {

const char kUsage[] =
    "usage: ldpgraph gw --dataset PATH [--embeddings adjacency|shortest-path|gin|gcn|blind] [--epsilon E]\n"
    "                   [--encoder multibit|summary] [--summary-bins V,S] [--size-range MIN,MAX]\n"
    "                   [--alpha 0.5] [--folds DIR] [--threads N] [--knn 5] [--inner-folds 5] [--starts 0]\n"
    "                   [--clients 10] [--dirichlet-alpha 0.5] [--rounds 100] [--local-epochs 5]\n"
    "                   [--seed 0] [--kmeans] [--train-on-test-graphs] [--out DIR]\n"
    "  GW between every pair of graphs, then an SVM on exp(-gamma GW) and k-NN on each of 10 folds (the\n"
    "  GIN paper's from DATASET_DIR/10fold_idx, or 10 stratified folds).\n"
    "  adjacency, shortest-path: the graphs' own structure, fused with the one-hot node tags when the\n"
    "    dataset has them. gin, gcn: node embeddings of a GIN/GCN trained by FedAvg over --clients\n"
    "    clients (graphs split by Dirichlet(--dirichlet-alpha)), per fold on its training graphs; fused\n"
    "    GW on their distances and values. --epsilon E: each graph's embeddings LDP-encoded at E (the\n"
    "    whole matrix) before the server sees them; default none. blind (a control, needs --epsilon):\n"
    "    every node's embedding the same, so the server learns only each graph's size.\n"
    "  --encoder summary: each client sends one cell of a grid over its graph's pooled embedding (V bins\n"
    "    a column) and its size (S bins over MIN..MAX on a log scale; default the 5th to 95th percentile\n"
    "    of the dataset's sizes, the others clamped into it) by\n"
    "    randomized response, eps-LDP for the whole graph, its size included; the server denoises the\n"
    "    reports together (docs/gw.md). Default bins: the finest of 8,8, 4,4 and 2,2 whose cell\n"
    "    survives randomized response with Pr >= 0.9 (one column: 8,8 from eps 6.34, 4,4 from 4.91).\n"
    "  --kmeans also clusters by k-means in GW space, each centre a GW barycentre with the mean node\n"
    "    count of its cluster (the paper's clustering; several GW solves per graph and round).\n"
    "  --train-on-test-graphs (a diagnostic, not a valid accuracy): gin and gcn trained on every graph,\n"
    "    test labels included, as the paper's figures suggest it was.\n"
    "  --out DIR writes DIR/distances.csv (embeddings: DIR/distances-fold-K.csv, one per fold).\n";

int Usage(const std::string& why) {
  std::fprintf(stderr, "ldpgraph gw: %s\n\n%s", why.c_str(), kUsage);
  return 2;
}

int Failure(const Status& s) {
  std::fprintf(stderr, "ldpgraph gw: %s\n", s.ToString().c_str());
  return 1;
}

double Mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0 : s / static_cast<double>(v.size());
}

double Std(const std::vector<double>& v) {
  const double m = Mean(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return v.size() < 2 ? 0 : std::sqrt(s / static_cast<double>(v.size()));
}


// The flags both `gw` and `experiment gw` take for the pipeline: solver,
// classifiers and federated training. Returns a usage message, or "".
std::string ParsePipelineFlags(const Flags& flags, GwClassificationOptions* o) {
  Result<double> alpha = flags.Double("alpha", 0.5);
  Result<double> dirichlet = flags.Double("dirichlet-alpha", 0.5);
  Result<std::uint64_t> threads = flags.Unsigned("threads", std::max(1u, std::thread::hardware_concurrency()));
  Result<std::uint64_t> knn = flags.Unsigned("knn", 5);
  Result<std::uint64_t> inner = flags.Unsigned("inner-folds", 5);
  // Starts of the GW local search besides the product coupling: 0 (fast),
  // 2 (the two sorted starts), more (random ones on top).
  Result<std::uint64_t> starts = flags.Unsigned("starts", 0);
  Result<std::uint64_t> clients = flags.Unsigned("clients", 10);
  Result<std::uint64_t> rounds = flags.Unsigned("rounds", 100);
  Result<std::uint64_t> local_epochs = flags.Unsigned("local-epochs", 5);
  Result<std::uint64_t> seed = flags.Unsigned("seed", 0);
  for (const Status* s : {&alpha.status(), &dirichlet.status(), &threads.status(), &knn.status(), &inner.status(),
                          &starts.status(), &clients.status(), &rounds.status(), &local_epochs.status(),
                          &seed.status()}) {
    if (!s->ok()) return s->message();
  }
  if (!(*alpha >= 0 && *alpha <= 1)) return "--alpha must be in [0, 1]";
  if (!(*dirichlet > 0 && std::isfinite(*dirichlet))) return "--dirichlet-alpha must be positive and finite";
  if (*threads < 1 || *threads > 1024 || *knn < 1 || *inner < 2) {
    return "need 1 <= --threads <= 1024, --knn >= 1 and --inner-folds >= 2";
  }
  if (*clients < 1 || *clients > 10000 || *rounds < 1 || *rounds > 100000 || *local_epochs < 1 || *local_epochs > 1000) {
    return "need 1 <= --clients <= 10000, 1 <= --rounds <= 100000 and 1 <= --local-epochs <= 1000";
  }
  o->pairwise.alpha = *alpha;
  o->pairwise.threads = static_cast<int>(*threads);
  o->pairwise.gw.extra_starts = static_cast<int>(std::min<std::uint64_t>(*starts, 2));
  o->pairwise.gw.random_starts = static_cast<int>(std::min<std::uint64_t>(*starts > 2 ? *starts - 2 : 0, 1000));
  o->federated.clients = static_cast<int>(*clients);
  o->federated.dirichlet_alpha = *dirichlet;
  o->federated.rounds = static_cast<int>(*rounds);
  o->federated.local_epochs = static_cast<int>(*local_epochs);
  o->federated.seed = *seed;
  o->seed = *seed;
  o->knn = static_cast<int>(*knn);
  o->inner_folds = static_cast<int>(*inner);
  // The summary encoder's grid: two whole numbers each.
  for (const auto& [flag, lo, hi, first, second] :
       {std::tuple<const char*, double, double, std::uint32_t*, std::uint32_t*>{
            "summary-bins", 1, 65536, &o->summary_value_bins, &o->summary_size_bins},
        {"size-range", 1, 1 << 30, &o->summary_min_nodes, &o->summary_max_nodes}}) {
    if (!flags.Has(flag)) continue;
    Result<std::vector<double>> v = flags.DoubleList(flag, {});
    if (!v.ok()) return v.status().message();
    if (v->size() != 2 || (*v)[0] != std::floor((*v)[0]) || (*v)[1] != std::floor((*v)[1]) || (*v)[0] < lo ||
        (*v)[1] < lo || (*v)[0] > hi || (*v)[1] > hi) {
      return std::string("--") + flag + " must be two whole numbers A,B in [" + std::to_string(static_cast<long>(lo)) +
             ", " + std::to_string(static_cast<long>(hi)) + "]";
    }
    *first = static_cast<std::uint32_t>((*v)[0]);
    *second = static_cast<std::uint32_t>((*v)[1]);
  }
  return "";
}

const std::set<std::string> kPipelineFlags = {"alpha",  "folds",  "threads",      "knn",  "inner-folds",
                                                 "starts", "clients", "dirichlet-alpha", "rounds", "local-epochs",
                                                 "seed", "summary-bins", "size-range"};

std::set<std::string> With(std::set<std::string> a, const std::set<std::string>& b) {
  a.insert(b.begin(), b.end());
  return a;
}

Result<GraphDataset> ReadLabelledGraphs(const std::string& path) {
  Result<GraphDataset> ds = ReadDataset(path);
  if (!ds.ok()) return ds.status();
  if (ds->graphs.size() < 2 || ds->labels.size() != ds->graphs.size()) {
    return Status::InvalidArgument(path + ": the dataset must hold at least 2 labelled graphs");
  }
  return ds;
}

}  // namespace

int RunGwCommand(const std::vector<std::string>& args) {
  Result<Flags> flags =
      Flags::Parse(args, With({"dataset", "embeddings", "epsilon", "out", "kmeans", "train-on-test-graphs", "encoder"},
                              kPipelineFlags),
                   {"kmeans", "train-on-test-graphs"});
  if (!flags.ok()) return Usage(flags.status().message());
  Result<std::string> path = flags->String("dataset");
  if (!path.ok()) return Usage(path.status().message());
  GwClassificationOptions o;
  o.kmeans = flags->Has("kmeans");
  o.train_on_test_graphs = flags->Has("train-on-test-graphs");
  o.embeddings = flags->StringOr("embeddings", "adjacency");
  const bool learned = o.embeddings == "gin" || o.embeddings == "gcn" || o.embeddings == "blind";
  if (!learned && !ParseGwStructure(o.embeddings).ok()) {
    return Usage("--embeddings must be adjacency, shortest-path, gin, gcn or blind, got '" + o.embeddings + "'");
  }
  Result<double> epsilon = flags->Double("epsilon", 0);
  if (!epsilon.ok()) return Usage(epsilon.status().message());
  if (flags->Has("epsilon") && !learned) return Usage("--epsilon encodes embeddings: use --embeddings gin, gcn or blind");
  if (flags->Has("epsilon") && !(*epsilon > 0)) return Usage("--epsilon must be positive (inf: no LDP)");
  o.epsilon = std::isfinite(*epsilon) ? *epsilon : 0;
  o.encoder = flags->StringOr("encoder", "multibit");
  if (o.encoder != "multibit" && o.encoder != "summary") {
    return Usage("--encoder must be multibit or summary, got '" + o.encoder + "'");
  }
  if (o.encoder == "summary" && !learned) {
    return Usage("--encoder summary encodes embeddings: use --embeddings gin, gcn or blind");
  }
  const std::string bad = ParsePipelineFlags(*flags, &o);
  if (!bad.empty()) return Usage(bad);
  if ((flags->Has("summary-bins") || flags->Has("size-range")) && o.encoder != "summary") {
    return Usage("--summary-bins and --size-range are for --encoder summary");
  }
  Result<GraphDataset> ds = ReadLabelledGraphs(*path);
  if (!ds.ok()) return ds.status().code() == StatusCode::kInvalidArgument ? Usage(ds.status().message()) : Failure(ds.status());
  Result<DatasetFolds> folds = FoldsForDataset(*path, flags->StringOr("folds", ""), ds->labels);
  if (!folds.ok()) return Failure(folds.status());

  const bool tty = isatty(STDERR_FILENO);
  const auto start = std::chrono::steady_clock::now();
  o.pairwise.progress = [&](std::size_t done, std::size_t total) {
    if (!tty) return;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "\rgw: %zu/%zu pairs, %.0f s", done, total, s);
    if (done == total) std::fprintf(stderr, "\n");
  };
  o.svm_progress = [&](std::size_t fold, std::size_t done, std::size_t total) {
    if (!tty) return;
    std::fprintf(stderr, "\rgw: SVM grid %zu/%zu of fold %zu", done, total, fold + 1);
    if (done == total) std::fprintf(stderr, "\n");
  };
  o.log = [](const std::string& line) { std::fprintf(stderr, "gw: %s\n", line.c_str()); };
  Result<GwClassification> r = ClassifyByGw(*ds, folds->folds, o);
  if (!r.ok()) return Failure(r.status());

  const std::size_t pairs = ds->graphs.size() * (ds->graphs.size() - 1) / 2 * r->distances.size();
  std::cout << "graphs=" << ds->graphs.size() << "\nembeddings=" << o.embeddings << "\nencoder=" << o.encoder
            << "\nepsilon="
            << (o.epsilon > 0 ? std::to_string(o.epsilon) : std::string("inf")) << "\npairs=" << pairs
            << "\nfused=" << (r->fused ? 1 : 0) << "\ngw_seconds=" << r->gw_seconds
            << "\npairs_per_second=" << static_cast<double>(pairs) / r->gw_seconds << "\n";
  if (flags->Has("out")) {
    const std::string out = flags->StringOr("out", "");
    std::filesystem::create_directories(out);
    for (std::size_t k = 0; k < r->distances.size(); ++k) {
      const std::string file =
          out + (r->distances.size() == 1 ? std::string("/distances.csv") : "/distances-fold-" + std::to_string(k + 1) + ".csv");
      std::ofstream f(file);
      f.precision(17);
      const Eigen::MatrixXd& d = r->distances[k];
      for (Eigen::Index i = 0; i < d.rows(); ++i) {
        for (Eigen::Index j = 0; j < d.cols(); ++j) f << (j ? "," : "") << d(i, j);
        f << "\n";
      }
      if (!f) return Failure(Status::Unavailable("cannot write " + file));
      std::cout << "distances=" << file << "\n";
    }
  }
  std::vector<double> svm, nn, model, spectral, medoids, kmeans;
  double svm_seconds = 0;
  for (std::size_t f = 0; f < r->folds.size(); ++f) {
    const GwFoldResult& fr = r->folds[f];
    svm.push_back(fr.svm_accuracy);
    nn.push_back(fr.knn_accuracy);
    spectral.push_back(fr.spectral_nmi);
    medoids.push_back(fr.kmedoids_nmi);
    svm_seconds += fr.svm_seconds;
    std::cout << "fold=" << f + 1 << " svm_accuracy=" << fr.svm_accuracy << " c=" << fr.c << " gamma=" << fr.gamma
              << " svm_seconds=" << fr.svm_seconds << " knn_accuracy=" << fr.knn_accuracy
              << " spectral_nmi=" << fr.spectral_nmi
              << " kmedoids_nmi=" << fr.kmedoids_nmi;
    if (fr.kmeans_nmi >= 0) {
      kmeans.push_back(fr.kmeans_nmi);
      std::cout << " kmeans_nmi=" << fr.kmeans_nmi;
    }
    if (fr.model_accuracy >= 0) {
      model.push_back(fr.model_accuracy);
      std::cout << " model_accuracy=" << fr.model_accuracy;
    }
    std::cout << "\n";
  }
  std::cout << "folds=" << (folds->from_gin_paper ? "gin" : "stratified") << "\nsvm_accuracy_mean=" << Mean(svm)
            << "\nsvm_accuracy_std=" << Std(svm) << "\nknn_accuracy_mean=" << Mean(nn) << "\nknn_accuracy_std=" << Std(nn)
            << "\nspectral_nmi_mean=" << Mean(spectral) << "\nkmedoids_nmi_mean=" << Mean(medoids) << "\n";
  if (!kmeans.empty()) std::cout << "kmeans_nmi_mean=" << Mean(kmeans) << "\n";
  if (!model.empty()) std::cout << "model_accuracy_mean=" << Mean(model) << "\n";
  std::cout << "svm_seconds=" << svm_seconds << "\n";
  return 0;
}

int RunGwExperimentCommand(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(args, With({"dataset", "out", "methods", "epsilons"}, kPipelineFlags));
  if (!flags.ok()) return Usage(flags.status().message());
  Result<std::string> path = flags->String("dataset");
  Result<std::string> out = flags->String("out");
  if (!path.ok()) return Usage(path.status().message());
  if (!out.ok()) return Usage(out.status().message());
  GwExperimentOptions o;
  Result<std::vector<std::string>> methods = flags->StringList("methods", o.methods);
  Result<std::vector<double>> epsilons = flags->DoubleList("epsilons", o.epsilons);
  if (!methods.ok()) return Usage(methods.status().message());
  if (!epsilons.ok()) return Usage(epsilons.status().message());
  o.methods = *methods;
  o.epsilons = *epsilons;
  o.folds_dir = flags->StringOr("folds", "");
  o.out_dir = *out;
  const std::string bad = ParsePipelineFlags(*flags, &o.classification);
  if (!bad.empty()) return Usage(bad);
  Result<GraphDataset> ds = ReadLabelledGraphs(*path);
  if (!ds.ok()) return ds.status().code() == StatusCode::kInvalidArgument ? Usage(ds.status().message()) : Failure(ds.status());
  Status s = RunGwExperiment(*path, *ds, o);
  if (!s.ok()) return s.code() == StatusCode::kInvalidArgument ? Usage(s.message()) : Failure(s);
  std::printf("results=%s/results.csv\nsummary=%s/summary.csv\n", out->c_str(), out->c_str());
  return 0;
}

const char* GwUsage() { return kUsage; }

}  // namespace ldpgraph
