#include "experiments/gw_experiment.h"

#include <memory>

#include "experiments/job_runner.h"
#include "experiments/results_table.h"
#include "experiments/summary_charts.h"
#include "gw/graph_folds.h"

namespace ldpgraph {
namespace {

const CsvRow kColumns = {"dataset", "method", "epsilon", "fold", "svm_accuracy", "knn_accuracy",
                         "model_accuracy", "spectral_nmi", "kmedoids_nmi", "c", "gamma", "gw_seconds"};
const std::vector<std::size_t> kKeyColumns = {0, 1, 2, 3};

struct GwRun {
  std::string method;
  double epsilon;
};

// "gin-summary" -> "gin": the embeddings a method encodes (with the summary
// encoder when it ends in -summary).
std::string EmbeddingsOf(const std::string& method) {
  const std::string suffix = "-summary";
  if (method.size() > suffix.size() && method.compare(method.size() - suffix.size(), suffix.size(), suffix) == 0) {
    return method.substr(0, method.size() - suffix.size());
  }
  return method;
}

}  // namespace

Status SummariseGwExperiment(const std::string& out_dir) {
  return SummariseStudy(out_dir, kColumns, kKeyColumns, {"dataset", "method", "epsilon"},
                        {"svm_accuracy", "knn_accuracy", "model_accuracy", "spectral_nmi", "kmedoids_nmi", "gw_seconds"},
                        {{"epsilon", "method", "svm_accuracy", "epsilon (each graph's whole embedding matrix)", true},
                         {"epsilon", "method", "knn_accuracy", "epsilon (each graph's whole embedding matrix)", true},
                         {"epsilon", "method", "spectral_nmi", "epsilon (each graph's whole embedding matrix)", true}});
}

Status RunGwExperiment(const std::string& path, const GraphDataset& ds, const GwExperimentOptions& o) {
  for (const std::string& m : o.methods) {
    const std::string base = EmbeddingsOf(m);
    if (base != "adjacency" && base != "gin" && base != "gcn" && base != "blind") {
      return Status::InvalidArgument("unknown method '" + m +
                                     "' (adjacency; gin, gcn or blind, each also with -summary)");
    }
    if (m == "adjacency-summary") return Status::InvalidArgument("adjacency has no embeddings to summarise");
  }
  for (double e : o.epsilons) {
    if (!(e > 0)) return Status::InvalidArgument("epsilon must be positive (inf: no LDP), got " + FormatNumber(e));
  }
  if (ds.graphs.size() < 2 || ds.labels.size() != ds.graphs.size()) {
    return Status::InvalidArgument("experiment gw needs a dataset of at least 2 labelled graphs");
  }
  Result<DatasetFolds> folds = FoldsForDataset(path, o.folds_dir, ds.labels);
  if (!folds.ok()) return folds.status();
  LDPGRAPH_RETURN_IF_ERROR(MakeOutputDirectory(o.out_dir));
  Result<std::unique_ptr<ResultsTable>> opened = ResultsTable::Open(o.out_dir + "/results.csv", kColumns, kKeyColumns);
  if (!opened.ok()) return opened.status();
  std::shared_ptr<ResultsTable> table = std::move(opened).value();
  auto key = [&](const GwRun& r, std::size_t fold) {
    return CsvRow{ds.name, r.method, FormatNumber(r.epsilon), std::to_string(fold + 1)};
  };

  std::vector<GwRun> runs;
  for (const std::string& m : o.methods) {
    if (m == "adjacency") {
      runs.push_back({m, INFINITY});
      continue;
    }
    for (double e : o.epsilons) {
      // Constant and unencoded: nothing to compare. (blind-summary at inf is
      // each graph's exact size alone: the most a size-only control can tell.)
      if (m == "blind" && std::isinf(e)) continue;
      runs.push_back({m, e});
    }
  }
  std::vector<ExperimentJob> jobs;
  std::size_t skipped = 0;
  const std::size_t n_folds = folds->folds.size();
  for (const GwRun& r : runs) {
    bool done = true;
    for (std::size_t f = 0; f < n_folds; ++f) done = done && table->Has(key(r, f));
    if (done) {
      ++skipped;
      continue;
    }
    const std::string label = ds.name + " " + r.method + " eps=" + FormatNumber(r.epsilon);
    jobs.push_back({label, [&ds, &o, &folds, table, key, r](const RunProgress& progress) -> Status {
                      GwClassificationOptions c = o.classification;
                      // All pairs of a large dataset take an hour or more: say how far
                      // (embeddings: one matrix per fold, the fold last not skipped).
                      std::size_t fold_at = 0;
                      c.pairwise.progress = [&](std::size_t pairs_done, std::size_t total) {
                        std::string where = "GW " + std::to_string(pairs_done) + "/" + std::to_string(total) + " pairs";
                        if (r.method != "adjacency") where += " of fold " + std::to_string(fold_at + 1);
                        progress(where);
                      };
                      c.svm_progress = [&](std::size_t fold, std::size_t points, std::size_t total) {
                        progress("SVM grid " + std::to_string(points) + "/" + std::to_string(total) + " of fold " +
                                 std::to_string(fold + 1));
                      };
                      c.embeddings = EmbeddingsOf(r.method);
                      c.encoder = EmbeddingsOf(r.method) == r.method ? "multibit" : "summary";
                      c.epsilon = std::isinf(r.epsilon) ? 0 : r.epsilon;
                      // Each fold is recorded as it ends, and a rerun skips the folds
                      // recorded: an hour-long run cut short loses one fold at most.
                      c.skip_fold = [&](std::size_t f) {
                        if (table->Has(key(r, f))) return true;
                        fold_at = f;
                        return false;
                      };
                      c.fold_scored = [&](std::size_t f, const GwFoldResult& fr) {
                        CsvRow row = key(r, f);
                        for (double v : {fr.svm_accuracy, fr.knn_accuracy}) row.push_back(FormatNumber(v));
                        row.push_back(fr.model_accuracy >= 0 ? FormatNumber(fr.model_accuracy) : "");
                        for (double v : {fr.spectral_nmi, fr.kmedoids_nmi}) row.push_back(FormatNumber(v));
                        for (double v : {fr.c, fr.gamma, fr.gw_seconds}) row.push_back(FormatNumber(v));
                        return table->Append(row);
                      };
                      return ClassifyByGw(ds, folds->folds, c).status();
                    },
                    static_cast<int>(n_folds)});
  }
  // One run at a time: the pairwise GW of each already uses every thread.
  LDPGRAPH_RETURN_IF_ERROR(RunJobs("experiment gw", std::move(jobs), 1, skipped));
  return SummariseGwExperiment(o.out_dir);
}

}  // namespace ldpgraph
