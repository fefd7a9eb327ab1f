#include "experiments/audit_experiment.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <utility>

#include "audit/auc_bounds.h"
#include "audit/edge_game.h"
#include "audit/link_stealing.h"
#include "audit/link_teller.h"
#include "audit/membership_inference.h"
#include "experiments/audit_experiment_chart.h"
#include "experiments/job_runner.h"
#include "experiments/results_table.h"
#include "experiments/setting_seed.h"
#include "experiments/summary.h"
#include "gap/gap_pipeline.h"
#include "linkldp/denoised_training.h"
#include "linkldp/simulated_reports.h"
#include "privacy/feature_mechanisms.h"
#include "train/node_pipeline.h"
#include "train/task_data.h"

namespace ldpgraph {

const char* const kAuditSystems = "gcn, mlp, dprr, rr, blink, ours, gap-edp, gap-ndp, mlp-dp";

namespace {

const CsvRow kColumns = {"dataset", "system", "attack",        "epsilon",   "split",     "auc",     "auc_low",
                         "auc_high", "bound", "bound_epsilon", "positives", "negatives", "seconds"};
const std::vector<std::size_t> kKeyColumns = {0, 1, 2, 3, 4};
const std::vector<std::string> kGroup = {"dataset", "system", "attack", "epsilon"};
const std::vector<std::string> kMetrics = {"auc", "auc_low", "bound", "seconds"};

// The attacks each system's release is open to.
std::vector<std::string> AttacksOn(const std::string& system) {
  if (system == "gcn" || system == "mlp") return {"lsa", "linkteller", "mia"};
  if (system == "dprr" || system == "rr") return {"report"};
  if (system == "blink" || system == "ours") return {"posterior"};
  if (system == "gap-edp") return {"lsa"};
  if (system == "gap-ndp") return {"lsa", "mia"};
  if (system == "mlp-dp") return {"mia"};
  return {};
}

bool Private(const std::string& system) { return system != "gcn" && system != "mlp"; }

// One attack's scores, kept (or member) first.
struct Scores {
  std::vector<double> positive, negative;
};

struct AttackRow {
  std::string attack;
  Scores scores;
  DpGuarantee guarantee;  // epsilon inf: no bound
};

// Scores every target of `game` by `score(u, v)`.
Scores ScoreTargets(const EdgeGame& game, const std::function<double(std::uint32_t, std::uint32_t)>& score) {
  return {ScorePairs(game.kept, score), ScorePairs(game.removed, score)};
}

class AuditRunner {
 public:
  AuditRunner(const GraphDataset& dataset, NodeTaskData data, std::vector<EdgeGame> games,
              const AuditExperimentOptions& options, ResultsTable* table)
      : dataset_(dataset), data_(std::move(data)), games_(std::move(games)), options_(options), table_(table) {
    scaled_features_ = data_.features;
    ScaleColumnsToUnit(&scaled_features_);
  }

  CsvRow Key(const std::string& system, const std::string& attack, double epsilon, int split) const {
    return {dataset_.name, system, attack, FormatNumber(epsilon), std::to_string(split)};
  }

  bool Done(const std::string& system, double epsilon, int split) const {
    for (const std::string& attack : AttacksOn(system)) {
      if (!table_->Has(Key(system, attack, epsilon, split))) return false;
    }
    return true;
  }

  Status Run(const std::string& system, double epsilon, int split, const RunProgress& progress) const {
    const auto start = std::chrono::steady_clock::now();
    std::vector<AttackRow> rows;
    if (system == "gcn" || system == "mlp") {
      LDPGRAPH_RETURN_IF_ERROR(AttackGcn(system == "mlp", split, &rows));
    } else if (system == "dprr" || system == "rr") {
      LDPGRAPH_RETURN_IF_ERROR(AttackReports(system == "rr" ? EdgeMechanism::kRr : EdgeMechanism::kDprr, epsilon,
                                             split, &rows));
    } else if (system == "blink" || system == "ours") {
      LDPGRAPH_RETURN_IF_ERROR(AttackDenoised(system == "ours", epsilon, split, &rows));
    } else if (system == "mlp-dp") {
      LDPGRAPH_RETURN_IF_ERROR(AttackPrivateMlp(epsilon, split, &rows));
    } else {
      LDPGRAPH_RETURN_IF_ERROR(
          AttackGap(system == "gap-edp" ? GapPrivacy::kEdge : GapPrivacy::kNode, epsilon, split, progress, &rows));
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (const AttackRow& r : rows) {
      const double auc = ScoreAuc(r.scores.positive, r.scores.negative);
      const AucInterval ci = AucConfidenceInterval(auc, r.scores.positive.size(), r.scores.negative.size());
      CsvRow row = Key(system, r.attack, epsilon, split);
      for (double value : {auc, ci.low, ci.high, MaxAucUnderDp(r.guarantee.epsilon, r.guarantee.delta),
                           r.guarantee.epsilon}) {
        row.push_back(FormatNumber(value));
      }
      row.push_back(std::to_string(r.scores.positive.size()));
      row.push_back(std::to_string(r.scores.negative.size()));
      row.push_back(FormatNumber(seconds));
      LDPGRAPH_RETURN_IF_ERROR(table_->Append(row));
    }
    return Status::Ok();
  }

 private:
  Split SplitOf(int split) const { return DefaultNodeSplit(data_.labels, static_cast<std::uint64_t>(split)); }

  // Non-private GCN on the game's graph, or (mlp) on no edges at all.
  Status AttackGcn(bool edge_free, int split, std::vector<AttackRow>* rows) const {
    const EdgeGame& game = games_[static_cast<std::size_t>(split)];
    const std::uint32_t n = game.graph.num_nodes();
    const CsrGraph empty = CsrGraph::FromRows(std::vector<std::vector<std::uint32_t>>(n));
    NodeTaskData data;
    data.graph = PrepareGraph(edge_free ? empty : game.graph, AggregationFor(NodeGnnKind::kGcn));
    data.features = data_.features;
    data.labels = data_.labels;
    data.classes = data_.classes;
    NodeRunOptions o;
    o.kind = NodeGnnKind::kGcn;
    o.seed = static_cast<std::uint64_t>(split);
    const Split s = SplitOf(split);
    Result<NodeRun> run = TrainNodeModel(data, s, o);
    if (!run.ok()) return run.status();
    Result<InfluenceProbe> probe = InfluenceProbe::Create(run->model.get(), std::move(data), 0.05);
    if (!probe.ok()) return probe.status();
    const Matrix& p = probe->probabilities();
    const DpGuarantee none{INFINITY, 0};
    // Without edges the model reads none: epsilon 0 for any edge.
    const DpGuarantee edges = edge_free ? DpGuarantee{0, 0} : none;
    const auto correlation = [&](std::uint32_t u, std::uint32_t v) { return RowCorrelation(p, u, v); };
    rows->push_back({"lsa", ScoreTargets(game, correlation), edges});
    const auto influence = [&](std::uint32_t u, std::uint32_t v) { return probe->Influence(u, {v})[0]; };
    rows->push_back({"linkteller", ScoreTargets(game, influence), edges});
    Result<Scores> mia = MemberScores(p, s);
    if (!mia.ok()) return mia.status();
    rows->push_back({"mia", std::move(mia).value(), none});
    return Status::Ok();
  }

  // The calibrated membership scores of the split's training (members) and
  // test users.
  Result<Scores> MemberScores(const Matrix& probabilities, const Split& split) const {
    Result<MembershipScores> scores = ScoreMembership(probabilities, data_.labels, split.train, split.test);
    if (!scores.ok()) return scores.status();
    Scores s;
    for (std::uint32_t u : split.train) s.positive.push_back(scores->calibrated[u]);
    for (std::uint32_t u : split.test) s.negative.push_back(scores->calibrated[u]);
    return s;
  }

  Result<LinkReports> Reports(EdgeMechanism mechanism, double epsilon, int split) const {
    EdgePolicy policy;
    policy.mechanism = mechanism;
    policy.epsilon = epsilon;
    // As experiment linkldp: Blink gives the degree a tenth, DPRR its paper's eq. 8.
    policy.allocation = mechanism == EdgeMechanism::kRrDegree ? BudgetAllocation::kFixed : BudgetAllocation::kPaper;
    return SimulateLinkReports(games_[static_cast<std::size_t>(split)].graph, policy,
                               SettingSeed(std::string("audit edges ") + EdgeMechanismName(mechanism) + " " +
                                           FormatNumber(epsilon) + " split=" + std::to_string(split)));
  }

  // Every user reports her row under edge LDP: a target is in two reports.
  Status AttackReports(EdgeMechanism mechanism, double epsilon, int split, std::vector<AttackRow>* rows) const {
    Result<LinkReports> reports = Reports(mechanism, epsilon, split);
    if (!reports.ok()) return reports.status();
    const ReportRows& r = reports->rows;
    const auto reported = [&](std::uint32_t u, std::uint32_t v) {
      return static_cast<double>(r.Contains(u, v)) + static_cast<double>(r.Contains(v, u));
    };
    rows->push_back({"report", ScoreTargets(games_[static_cast<std::size_t>(split)], reported), {2 * epsilon, 0}});
    return Status::Ok();
  }

  // The posterior the denoiser gives each target, under the degree prior
  // (Blink) or the learned one (ours: a first model on Blink's graph, its
  // classes and the features' similarity), as experiment linkldp builds them.
  Status AttackDenoised(bool ours, double epsilon, int split, std::vector<AttackRow>* rows) const {
    Result<LinkReports> reports = Reports(EdgeMechanism::kRrDegree, epsilon, split);
    if (!reports.ok()) return reports.status();
    const auto seed = static_cast<std::uint64_t>(split);
    PairSideInformation side;
    Matrix probabilities;
    if (ours) {
      LpgnnInputs li;
      li.features = &scaled_features_;
      li.labels = &data_.labels;
      li.classes = data_.classes;
      li.split = SplitOf(split);
      li.rectified_features = false;
      LpgnnOptions lo;
      lo.kind = NodeGnnKind::kGcn;
      lo.label_method = LabelMethod::kCrossEntropy;
      lo.kx_choices = {0};
      lo.validation_reference = ValidationReference::kNoisy;
      lo.seed = seed;
      DenoisedTrainingOptions blink_options;
      blink_options.seed = seed;
      Result<WeightedGraph> blink = DenoisedTrainingGraph(*reports, DenoisedOutput::kHybrid, {}, blink_options);
      if (!blink.ok()) return blink.status();
      Result<GraphRun> first = TrainOnGraph(li, lo, *blink);
      if (!first.ok()) return first.status();
      probabilities = FirstModelProbabilities(li, *first);
      side.class_probabilities = &probabilities;
      side.features = &scaled_features_;
    }
    DenoiseOptions o;
    o.side = side;
    o.seed = seed;
    Result<LinkDenoiser> denoiser = LinkDenoiser::Fit(*reports, o);
    if (!denoiser.ok()) return denoiser.status();
    const auto posterior = [&](std::uint32_t u, std::uint32_t v) { return double{denoiser->Posterior(u, v)}; };
    rows->push_back({"posterior", ScoreTargets(games_[static_cast<std::size_t>(split)], posterior), {2 * epsilon, 0}});
    return Status::Ok();
  }

  GapInputs Inputs(int split) const {
    GapInputs in;
    in.graph = &games_[static_cast<std::size_t>(split)].graph;
    in.features = &data_.features;
    in.labels = &data_.labels;
    in.classes = data_.classes;
    in.split = SplitOf(split);
    return in;
  }

  GapOptions Options(GapPrivacy level, double epsilon, int split) const {
    GapOptions o;
    o.privacy = level;
    o.epsilon = epsilon;
    o.encoder_epochs = options_.epochs;
    o.seed = static_cast<std::uint64_t>(split);
    return o;
  }

  Status AttackGap(GapPrivacy level, double epsilon, int split, const RunProgress& progress,
                   std::vector<AttackRow>* rows) const {
    const GapInputs in = Inputs(split);
    GapOptions o = Options(level, epsilon, split);
    SeededRandomSource noise(SettingSeed("audit gap " + std::string(GapPrivacyName(level)) + " " +
                                         FormatNumber(epsilon) + " split=" + std::to_string(split)));
    o.noise = &noise;
    o.on_progress = [&](int done, int total) { progress(std::to_string(done) + "/" + std::to_string(total)); };
    Result<GapRun> run = TrainGap(in, o);
    if (!run.ok()) return run.status();
    const Matrix& p = run->model->node_probabilities;
    const EdgeGame& game = games_[static_cast<std::size_t>(split)];
    const Scores lsa = ScoreTargets(game, [&](std::uint32_t u, std::uint32_t v) { return RowCorrelation(p, u, v); });
    if (level == GapPrivacy::kEdge) {
      rows->push_back({"lsa", lsa, {run->epsilon, run->delta}});
      return Status::Ok();
    }
    // Node level: one edge is two steps (the user removed, then added back
    // without it); one user's label is one.
    rows->push_back({"lsa", lsa, GroupPrivacy(run->epsilon, run->delta, 2)});
    Result<Scores> mia = MemberScores(p, in.split);
    if (!mia.ok()) return mia.status();
    rows->push_back({"mia", std::move(mia).value(), {run->epsilon, run->delta}});
    return Status::Ok();
  }

  Status AttackPrivateMlp(double epsilon, int split, std::vector<AttackRow>* rows) const {
    const GapInputs in = Inputs(split);
    GapOptions o = Options(GapPrivacy::kNode, epsilon, split);
    SeededRandomSource noise(SettingSeed("audit mlp-dp " + FormatNumber(epsilon) + " split=" + std::to_string(split)));
    o.noise = &noise;
    Result<PrivateMlpRun> run = TrainPrivateMlp(in, o);
    if (!run.ok()) return run.status();
    Result<Scores> mia = MemberScores(run->probabilities, in.split);
    if (!mia.ok()) return mia.status();
    rows->push_back({"mia", std::move(mia).value(), {run->epsilon, run->delta}});
    return Status::Ok();
  }

  const GraphDataset& dataset_;
  NodeTaskData data_;
  NodeFeatures scaled_features_;  // LPGNN's inputs (ours' first model)
  std::vector<EdgeGame> games_;   // one per split
  const AuditExperimentOptions& options_;
  ResultsTable* table_;
};

bool IsSystem(const std::string& s) { return !AttacksOn(s).empty(); }

}  // namespace

Status SummariseAuditExperiment(const std::string& out_dir) {
  Result<std::unique_ptr<ResultsTable>> table =
      ResultsTable::OpenReadOnly(out_dir + "/results.csv", kColumns, kKeyColumns);
  if (!table.ok()) return table.status();
  Result<std::vector<SummaryRow>> summary = Summarise(kColumns, (*table)->Rows(), kGroup, kMetrics);
  if (!summary.ok()) return summary.status();
  LDPGRAPH_RETURN_IF_ERROR(WriteSummary(out_dir + "/summary.csv", kGroup, kMetrics, *summary));
  return WriteAuditCharts(out_dir, kMetrics, *summary);
}

Result<AuditVerdict> JudgeAuditExperiment(const std::string& out_dir) {
  Result<std::unique_ptr<ResultsTable>> table =
      ResultsTable::OpenReadOnly(out_dir + "/results.csv", kColumns, kKeyColumns);
  if (!table.ok()) return table.status();
  AuditVerdict verdict;
  for (const CsvRow& row : (*table)->Rows()) {
    ++verdict.rows;
    const double low = ParseNumber(row[6]), bound = ParseNumber(row[8]);
    if (low > bound) {
      verdict.refuted.push_back(row[1] + " " + row[2] + " epsilon=" + row[3] + " split=" + row[4] + ": AUC " + row[5] +
                                ", its 95% interval from " + row[6] + ", above the bound " + row[8]);
    }
  }
  return verdict;
}

Result<AuditVerdict> RunAuditExperiment(const GraphDataset& dataset, const AuditExperimentOptions& o) {
  for (const std::string& s : o.systems) {
    if (!IsSystem(s)) return Status::InvalidArgument("unknown system '" + s + "' (" + kAuditSystems + ")");
  }
  if (o.systems.empty() || o.epsilons.empty()) return Status::InvalidArgument("an empty list of systems or epsilons");
  for (double e : o.epsilons) {
    if (!(e > 0) || std::isinf(e)) {
      return Status::InvalidArgument(
          "epsilon must be positive and finite (gcn and mlp are the non-private systems), got " + FormatNumber(e));
    }
  }
  if (o.splits < 1 || o.epochs < 1) return Status::InvalidArgument("splits and epochs must be >= 1");
  if (o.targets < 2) return Status::InvalidArgument("the game needs at least 2 target edges");
  if (dataset.graphs.size() != 1) return Status::InvalidArgument("the audit needs a dataset of one graph");
  if (dataset.feature_dims == 0) return Status::InvalidArgument("the dataset has no node features (features.csv)");
  Result<NodeTaskData> data = MakeNodeTaskData(dataset, Aggregation::kMean);
  if (!data.ok()) return data.status();
  std::vector<EdgeGame> games;
  for (int split = 0; split < o.splits; ++split) {
    Result<EdgeGame> game = PlayEdgeGame(dataset.graphs[0], o.targets,
                                         SettingSeed("audit game " + dataset.name + " split=" + std::to_string(split)));
    if (!game.ok()) return game.status();
    games.push_back(std::move(game).value());
  }
  LDPGRAPH_RETURN_IF_ERROR(MakeOutputDirectory(o.out_dir));
  Result<std::unique_ptr<ResultsTable>> table = ResultsTable::Open(o.out_dir + "/results.csv", kColumns, kKeyColumns);
  if (!table.ok()) return table.status();
  auto runner = std::make_shared<AuditRunner>(dataset, std::move(data).value(), std::move(games), o, table->get());
  std::vector<ExperimentJob> jobs;
  std::size_t skipped = 0;
  for (int split = 0; split < o.splits; ++split) {
    for (const std::string& system : o.systems) {
      const std::vector<double> epsilons = Private(system) ? o.epsilons : std::vector<double>{INFINITY};
      for (double epsilon : epsilons) {
        if (runner->Done(system, epsilon, split)) {
          ++skipped;
          continue;
        }
        jobs.push_back({system + " eps=" + FormatNumber(epsilon) + " split=" + std::to_string(split),
                        [runner, system, epsilon, split](const RunProgress& p) {
                          return runner->Run(system, epsilon, split, p);
                        },
                        1});
      }
    }
  }
  LDPGRAPH_RETURN_IF_ERROR(RunJobs("audit", std::move(jobs), o.jobs, skipped));
  LDPGRAPH_RETURN_IF_ERROR(SummariseAuditExperiment(o.out_dir));
  return JudgeAuditExperiment(o.out_dir);
}

}  // namespace ldpgraph
