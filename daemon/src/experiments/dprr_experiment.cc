#include "experiments/dprr_experiment.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string_view>

#include "experiments/job_runner.h"
#include "experiments/results_table.h"
#include "experiments/setting_seed.h"
#include "experiments/summary.h"
#include "experiments/summary_charts.h"
#include "graph/symmetrise.h"
#include "ldpgraph/dprr.h"
#include "privacy/non_private_part.h"
#include "privacy/perturb_dataset.h"
#include "train/gin_pipeline.h"

namespace ldpgraph {

const char* const kDprrExperimentMechanisms =
    "dprr, dprr-or, dprr-disclosed, dprr-disclosed-or, dprr-fixed, rr, locallap, nonpriv-part, nonpriv-full, "
    "no-edges";

namespace {

const CsvRow kColumns = {"dataset", "mechanism", "epsilon", "alpha", "split", "accuracy",
                         "auc", "true_edges", "noisy_edges", "train_seconds"};
const std::vector<std::size_t> kKeyColumns = {0, 1, 2, 3, 4};

struct Setting {
  double epsilon;
  double alpha;
};

// One requested row of the study (its split aside).
struct Row {
  std::string mechanism;
  Setting setting;
};

// The mechanism whose training `mechanism` at `s` is: with nobody
// non-private (alpha 0) dprr-disclosed has no list to use and is dprr (the
// same draws), and dprr-disclosed-or is dprr-or.
std::string TrainedAs(const std::string& mechanism, const Setting& s) {
  if (s.alpha == 0 && mechanism == "dprr-disclosed") return "dprr";
  if (s.alpha == 0 && mechanism == "dprr-disclosed-or") return "dprr-or";
  return mechanism;
}

// Rows with the same key share one training (training is deterministic):
// nonpriv-full and no-edges depend on neither epsilon nor alpha,
// nonpriv-part not on epsilon, and the aliases of TrainedAs.
std::string TrainingKey(const Row& r) {
  const std::string m = TrainedAs(r.mechanism, r.setting);
  if (m == "nonpriv-full" || m == "no-edges") return m;
  if (m == "nonpriv-part") return m + "|" + FormatNumber(r.setting.alpha);
  return m + "|" + FormatNumber(r.setting.epsilon) + "|" + FormatNumber(r.setting.alpha);
}

class DprrRunner {
 public:
  DprrRunner(const GraphDataset& dataset, const DprrExperimentOptions& options, ResultsTable* table)
      : dataset_(dataset), options_(options), table_(table) {}

  CsvRow Key(const std::string& mechanism, const Setting& s, int split) const {
    return {dataset_.name, mechanism, FormatNumber(s.epsilon), FormatNumber(s.alpha), std::to_string(split)};
  }

  // The noisy dataset a mechanism yields for one setting and split.
  Result<GraphDataset> Noisy(const std::string& mechanism, const Setting& s, int split,
                             std::uint64_t* noisy_edges) const {
    // dprr-disclosed: DPRR's reports (the same draws as "dprr"), then the
    // server's use of the non-private users' lists.
    const std::string drawn = mechanism == "dprr-disclosed" ? "dprr" : mechanism;
    const std::uint64_t seed = SettingSeed(drawn + "|" + FormatNumber(s.epsilon) + "|" +
                                           FormatNumber(s.alpha) + "|" + std::to_string(split));
    if (mechanism == "nonpriv-full") {
      *noisy_edges = dataset_.num_entries();
      return dataset_;
    }
    if (mechanism == "no-edges") {  // every user, no friend list: only what is public
      GraphDataset edgeless = dataset_;
      for (CsrGraph& g : edgeless.graphs) g = CsrGraph::FromUndirectedEdges(g.num_nodes(), {});
      *noisy_edges = 0;
      return edgeless;
    }
    if (mechanism == "nonpriv-part") return KeepNonPrivateUsers(dataset_, s.alpha, seed, noisy_edges);
    if (mechanism == "dprr-or" || mechanism == "dprr-disclosed-or") {
      // DPRR's reports (the same draws as "dprr"), then the server's OR rule;
      // after the disclosed lists, every pair that touches a non-private
      // user is then the truth in both directions.
      Result<GraphDataset> noisy = Noisy(mechanism == "dprr-or" ? "dprr" : "dprr-disclosed", s, split, noisy_edges);
      if (!noisy.ok()) return noisy;
      *noisy_edges = 0;
      for (CsrGraph& g : noisy->graphs) {
        g = Symmetrise(g, Symmetrisation::kOr);
        *noisy_edges += g.num_entries();
      }
      return noisy;
    }
    PerturbOptions p;
    LDPGRAPH_RETURN_IF_ERROR(ParsePerturbMechanism(mechanism, &p));
    p.epsilon = s.epsilon;
    p.non_private_fraction = s.alpha;
    p.seeded = true;
    p.seed = seed;
    PerturbSummary summary;
    Result<GraphDataset> noisy = PerturbDataset(dataset_, p, &summary);
    *noisy_edges = summary.noisy_edges;
    return noisy;
  }

  // Trains once on `mechanism`'s output for `setting` and records the
  // outcome as the row of each of `rows` (several when one training serves
  // them: see TrainingKey).
  Status Run(const std::string& mechanism, const Setting& setting, const std::vector<Row>& rows, int split,
             const RunProgress& progress) const {
    std::uint64_t noisy_edges = 0;
    Result<GraphDataset> noisy = Noisy(mechanism, setting, split, &noisy_edges);
    if (!noisy.ok()) return noisy.status();
    GinRunOptions run_options;
    run_options.model = options_.model;
    run_options.train = options_.train;
    run_options.seed = static_cast<std::uint64_t>(split);
    const int max_epochs = options_.train.max_epochs;
    run_options.on_epoch = [&](const EpochReport& e) {
      progress("epoch " + std::to_string(e.epoch) + "/" + std::to_string(max_epochs));
    };
    Result<GinRun> run = TrainGinOnDataset(*noisy, run_options);
    if (!run.ok()) return run.status();
    for (const Row& r : rows) {
      CsvRow row = Key(r.mechanism, r.setting, split);
      row.push_back(FormatNumber(run->result.test.accuracy));
      row.push_back(FormatNumber(run->result.test.auc));
      row.push_back(std::to_string(dataset_.num_entries()));
      row.push_back(std::to_string(noisy_edges));
      row.push_back(FormatNumber(run->result.seconds));
      LDPGRAPH_RETURN_IF_ERROR(table_->Append(row));
    }
    return Status::Ok();
  }

 private:
  const GraphDataset& dataset_;
  const DprrExperimentOptions& options_;
  ResultsTable* table_;
};

std::string Label(const std::string& mechanism, const Setting& s, int split) {
  return mechanism + " eps=" + FormatNumber(s.epsilon) + " alpha=" + FormatNumber(s.alpha) +
         " split=" + std::to_string(split);
}

}  // namespace

const std::vector<std::string>& DprrResultsColumns() { return kColumns; }

Status SummariseDprrExperiment(const std::string& out_dir) {
  std::vector<ChartRequest> charts;
  for (const char* metric : {"accuracy", "auc"}) {
    charts.push_back({"epsilon", "mechanism", metric, "epsilon (edge LDP)", true});
    charts.push_back({"alpha", "mechanism", metric, "alpha (fraction of non-private users)", false});
  }
  return SummariseStudy(out_dir, kColumns, kKeyColumns, {"dataset", "mechanism", "epsilon", "alpha"},
                        {"accuracy", "auc", "noisy_edges", "train_seconds"}, charts);
}

Status RunDprrExperiment(const GraphDataset& dataset, const DprrExperimentOptions& o) {
  std::set<std::string> known;  // the names of kDprrExperimentMechanisms
  for (std::string_view rest = kDprrExperimentMechanisms; !rest.empty();) {
    const std::size_t comma = rest.find(", ");
    known.emplace(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 2);
  }
  if (o.mechanisms.empty()) return Status::InvalidArgument("no mechanism given");
  for (const std::string& m : o.mechanisms) {
    if (!known.count(m)) {
      return Status::InvalidArgument("unknown mechanism '" + m + "' (one of " + kDprrExperimentMechanisms + ")");
    }
  }
  if (o.epsilons.empty() || o.alphas.empty()) return Status::InvalidArgument("no epsilon or no alpha given");
  for (double e : o.epsilons) {
    if (!(e > 0) || std::isinf(e)) return Status::InvalidArgument("epsilon must be positive and finite, got " + FormatNumber(e));
  }
  for (double a : o.alphas) {
    if (!(a >= 0 && a <= 1)) return Status::InvalidArgument("alpha must be in [0, 1], got " + FormatNumber(a));
  }
  if (o.splits < 1) return Status::InvalidArgument("at least one split is needed");
  if (dataset.num_classes < 2) return Status::InvalidArgument("the dataset needs graph labels of at least 2 classes");
  // DPRR's budget split is checked before any work, not at its first run:
  // eq. 8 refuses an epsilon too small for the largest graph.
  const std::uint32_t n_max = std::max(2u, dataset.max_nodes());
  for (const std::string& m : o.mechanisms) {
    if (m.rfind("dprr", 0) != 0) continue;
    const BudgetAllocation allocation = m == "dprr-fixed" ? BudgetAllocation::kFixed : BudgetAllocation::kPaper;
    for (double e : o.epsilons) {
      const Result<BudgetSplit> budget = AllocateBudget(e, allocation, n_max);
      if (!budget.ok()) return Status::InvalidArgument(m + ": " + budget.status().message());
    }
  }
  LDPGRAPH_RETURN_IF_ERROR(MakeOutputDirectory(o.out_dir));
  Result<std::unique_ptr<ResultsTable>> table = ResultsTable::Open(o.out_dir + "/results.csv", kColumns, kKeyColumns);
  if (!table.ok()) return table.status();
  auto runner = std::make_shared<DprrRunner>(dataset, o, table->get());
  std::vector<std::unique_ptr<ResultsTable>> reused_tables;
  for (const std::string& dir : o.reuse_dirs) {
    Result<std::unique_ptr<ResultsTable>> other = ResultsTable::OpenReadOnly(dir + "/results.csv", kColumns, kKeyColumns);
    if (!other.ok()) return other.status();
    reused_tables.push_back(std::move(other).value());
  }
  // Every finished row by split and the training it holds, this study's
  // first: a row of a reused study serves any setting of the same training
  // (nonpriv-full trained at one epsilon is the row of every epsilon).
  // nonpriv-part's draw of who is non-private is seeded with the epsilon it
  // was trained at, so its rows are matched with their epsilon.
  auto reuse_key = [](const Row& r, const std::string& split) {
    std::string key = split + "|" + TrainingKey(r);
    if (r.mechanism == "nonpriv-part") key += "|" + FormatNumber(r.setting.epsilon);
    return key;
  };
  std::map<std::string, CsvRow> finished;
  auto index = [&](const ResultsTable& t) {
    for (CsvRow& row : t.Rows()) {
      if (row[0] != dataset.name) continue;
      const std::string key = reuse_key({row[1], {ParseNumber(row[2]), ParseNumber(row[3])}}, row[4]);
      finished.emplace(key, std::move(row));
    }
  };
  index(**table);
  for (const auto& other : reused_tables) index(*other);

  std::vector<ExperimentJob> jobs;
  std::size_t skipped = 0, copied = 0;
  // Split by split, so an interrupted study has every setting at a few splits.
  for (int split = 0; split < o.splits; ++split) {
    // The requested rows grouped by the training that serves them, in the
    // order of the mechanisms asked for.
    std::vector<std::vector<Row>> groups;
    std::map<std::string, std::size_t> group_of;
    for (const std::string& mechanism : o.mechanisms) {
      for (double a : o.alphas) {
        for (double e : o.epsilons) {
          const Row r{mechanism, {e, a}};
          auto [it, added] = group_of.emplace(TrainingKey(r), groups.size());
          if (added) groups.emplace_back();
          groups[it->second].push_back(r);
        }
      }
    }
    for (const std::vector<Row>& group : groups) {
      auto done = finished.end();
      for (auto r = group.begin(); r != group.end() && done == finished.end(); ++r) {
        done = finished.find(reuse_key(*r, std::to_string(split)));
      }
      std::vector<Row> todo;
      for (const Row& r : group) {
        CsvRow key = runner->Key(r.mechanism, r.setting, split);
        if ((*table)->Has(key)) {
          ++skipped;
        } else if (done != finished.end()) {  // the same training: copy its measurements
          const CsvRow& measured = done->second;
          key.insert(key.end(), measured.begin() + static_cast<std::ptrdiff_t>(kKeyColumns.size()), measured.end());
          LDPGRAPH_RETURN_IF_ERROR((*table)->Append(key));
          ++copied;
        } else {
          todo.push_back(r);
        }
      }
      if (todo.empty()) continue;
      const std::string trained = TrainedAs(todo[0].mechanism, todo[0].setting);
      const Setting setting = todo[0].setting;
      jobs.push_back({Label(trained, setting, split),
                      [runner, trained, setting, todo, split](const RunProgress& progress) {
                        return runner->Run(trained, setting, todo, split, progress);
                      }});
    }
  }
  if (copied > 0) std::fprintf(stderr, "experiment dprr: %zu rows copied from finished trainings\n", copied);
  LDPGRAPH_RETURN_IF_ERROR(RunJobs("experiment dprr", std::move(jobs), o.jobs, skipped + copied));
  return SummariseDprrExperiment(o.out_dir);
}

}  // namespace ldpgraph
