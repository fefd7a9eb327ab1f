// ldpgraph gw: graph classification by Gromov-Wasserstein discrepancy
// (seed 000): every pair's (F)GW, then an SVM on exp(-gamma GW) per fold
// (C and gamma cross-validated on the fold's training graphs) and k-NN.
// Prints key=value lines; writes the distance matrix with --out.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>
#include <unistd.h>

#include "cli/commands.h"
#include "dataset/graph_dataset.h"
#include "gw/graph_folds.h"
#include "gw/graph_space.h"
#include "gw/kernel_svm.h"
#include "gw/pairwise_gw.h"
#include "util/flags.h"

namespace ldpgraph {
namespace {

const char kUsage[] =
    "usage: ldpgraph gw --dataset PATH [--embeddings adjacency|shortest-path] [--alpha 0.5] [--folds DIR]\n"
    "                   [--threads N] [--knn 5] [--inner-folds 5] [--starts 0] [--out DIR]\n"
    "  GW between every pair of graphs (fused GW with the one-hot node tags when the dataset has them),\n"
    "  then an SVM on exp(-gamma GW) and k-NN on each of 10 folds (the GIN paper's from\n"
    "  DATASET_DIR/10fold_idx, or 10 stratified folds). --out DIR writes DIR/distances.csv.\n";

int Usage(const std::string& why) {
  std::fprintf(stderr, "ldpgraph gw: %s\n\n%s", why.c_str(), kUsage);
  return 2;
}

int Failure(const Status& s) {
  std::fprintf(stderr, "ldpgraph gw: %s\n", s.ToString().c_str());
  return 1;
}

std::string DatasetDir(const std::string& path) {
  if (std::filesystem::is_directory(path)) return path;
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
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

}  // namespace

int RunGwCommand(const std::vector<std::string>& args) {
  Result<Flags> flags =
      Flags::Parse(args, {"dataset", "embeddings", "alpha", "folds", "threads", "knn", "inner-folds", "out", "starts"});
  if (!flags.ok()) return Usage(flags.status().message());
  Result<std::string> path = flags->String("dataset");
  if (!path.ok()) return Usage(path.status().message());
  const std::string embeddings = flags->StringOr("embeddings", "adjacency");
  if (embeddings == "gin" || embeddings == "gcn") {
    return Failure(Status::FailedPrecondition("--embeddings " + embeddings +
                                              " (federated embeddings) is not built yet; use adjacency or shortest-path"));
  }
  Result<GwStructure> structure = ParseGwStructure(embeddings);
  if (!structure.ok()) return Usage(structure.status().message());
  Result<double> alpha = flags->Double("alpha", 0.5);
  Result<std::uint64_t> threads = flags->Unsigned("threads", std::max(1u, std::thread::hardware_concurrency()));
  Result<std::uint64_t> knn = flags->Unsigned("knn", 5);
  Result<std::uint64_t> inner = flags->Unsigned("inner-folds", 5);
  // Starts of the GW local search besides the product coupling: 0 (fast),
  // 2 (the two sorted starts), more (random ones on top).
  Result<std::uint64_t> starts = flags->Unsigned("starts", 0);
  for (const Status* s : {&alpha.status(), &threads.status(), &knn.status(), &inner.status(), &starts.status()}) {
    if (!s->ok()) return Usage(s->message());
  }
  if (!(*alpha >= 0 && *alpha <= 1)) return Usage("--alpha must be in [0, 1]");
  if (*threads < 1 || *threads > 1024 || *knn < 1 || *inner < 2) {
    return Usage("need 1 <= --threads <= 1024, --knn >= 1 and --inner-folds >= 2");
  }
  Result<GraphDataset> ds = ReadDataset(*path);
  if (!ds.ok()) return Failure(ds.status());
  if (ds->graphs.size() < 2 || ds->labels.size() != ds->graphs.size()) {
    return Usage("the dataset must hold at least 2 labelled graphs");
  }
  Result<std::vector<GraphSpace>> spaces = GraphSpaces(*ds, *structure);
  if (!spaces.ok()) return Failure(spaces.status());

  PairwiseGwOptions o;
  o.alpha = *alpha;
  o.threads = static_cast<int>(*threads);
  o.gw.extra_starts = static_cast<int>(std::min<std::uint64_t>(*starts, 2));
  o.gw.random_starts = static_cast<int>(std::min<std::uint64_t>(*starts > 2 ? *starts - 2 : 0, 1000));
  const bool tty = isatty(STDERR_FILENO);
  const auto start = std::chrono::steady_clock::now();
  o.progress = [&](std::size_t done, std::size_t total) {
    if (!tty) return;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "\rgw: %zu/%zu pairs, %.0f s", done, total, s);
  };
  Result<Eigen::MatrixXd> d = PairwiseGw(*spaces, o);
  if (tty) std::fprintf(stderr, "\n");
  if (!d.ok()) return Failure(d.status());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::size_t pairs = ds->graphs.size() * (ds->graphs.size() - 1) / 2;
  std::cout << "graphs=" << ds->graphs.size() << "\npairs=" << pairs << "\nfused=" << (ds->node_tags.empty() ? 0 : 1)
            << "\ngw_seconds=" << seconds << "\npairs_per_second=" << static_cast<double>(pairs) / seconds << "\n";
  if (flags->Has("out")) {
    const std::string out = flags->StringOr("out", "");
    std::filesystem::create_directories(out);
    std::ofstream f(out + "/distances.csv");
    f.precision(17);
    for (Eigen::Index i = 0; i < d->rows(); ++i) {
      for (Eigen::Index j = 0; j < d->cols(); ++j) f << (j ? "," : "") << (*d)(i, j);
      f << "\n";
    }
    if (!f) return Failure(Status::Unavailable("cannot write " + out + "/distances.csv"));
    std::cout << "distances=" << out << "/distances.csv\n";
  }

  Result<std::vector<GraphFold>> folds =
      ReadGraphFolds(flags->StringOr("folds", DatasetDir(*path) + "/10fold_idx"), static_cast<std::uint32_t>(ds->graphs.size()));
  if (!folds.ok()) return Failure(folds.status());
  const bool gin_folds = !folds->empty();
  if (folds->empty()) *folds = StratifiedGraphFolds(ds->labels, 10, 0);
  std::vector<double> svm, nn;
  for (std::size_t f = 0; f < folds->size(); ++f) {
    const GraphFold& fold = (*folds)[f];
    Result<SvmFit> fit = FitKernelSvm(*d, ds->labels, fold.train, fold.test, SvmGrid::Paper(), static_cast<int>(*inner), f);
    if (!fit.ok()) return Failure(fit.status());
    svm.push_back(fit->test_accuracy);
    nn.push_back(KnnAccuracy(*d, ds->labels, fold.train, fold.test, static_cast<int>(*knn)));
    std::cout << "fold=" << f + 1 << " svm_accuracy=" << fit->test_accuracy << " c=" << fit->c << " gamma=" << fit->gamma
              << " knn_accuracy=" << nn.back() << "\n";
  }
  std::cout << "folds=" << (gin_folds ? "gin" : "stratified") << "\nsvm_accuracy_mean=" << Mean(svm)
            << "\nsvm_accuracy_std=" << Std(svm) << "\nknn_accuracy_mean=" << Mean(nn) << "\nknn_accuracy_std=" << Std(nn)
            << "\n";
  return 0;
}

}  // namespace ldpgraph
