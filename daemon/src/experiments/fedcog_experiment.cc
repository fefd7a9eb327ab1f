#include "experiments/fedcog_experiment.h"

#include <chrono>
#include <memory>

#include "experiments/job_runner.h"
#include "experiments/results_table.h"
#include "experiments/summary.h"
#include "experiments/summary_charts.h"
#include "federation/federated_sgc.h"
#include "federation/lnnc.h"
#include "federation/party_inputs.h"
#include "federation/partition.h"
#include "federation/share_split.h"
#include "gap/held_graph_dataset.h"
#include "graph/graph_batch.h"
#include "models/node_gnn.h"
#include "train/node_trainer.h"
#include "train/splits.h"
#include "train/task_data.h"

namespace ldpgraph {
namespace {

const CsvRow kColumns = {"dataset",  "partition",   "parties",     "method",           "split",      "accuracy",
                         "val_accuracy", "cross_edges", "propagation_bytes", "round_bytes", "seconds"};
const std::vector<std::size_t> kKeyColumns = {0, 1, 2, 3, 4};

struct Setting {
  std::string partition;
  int parties;
  std::string method;
};

class FedCogRunner {
 public:
  FedCogRunner(const GraphDataset& dataset, NodeTaskData data, const FedCogExperimentOptions& options,
               ResultsTable* table)
      : dataset_(dataset), options_(options), table_(table), features_(data.features.ToDense()),
        labels_(data.labels), classes_(data.classes), data_(std::move(data)) {}

  CsvRow Key(const Setting& s, int split) const {
    return {dataset_.name, s.partition, std::to_string(s.parties), s.method, std::to_string(split)};
  }

  Status Run(const Setting& s, int split) const {
    if (s.method == "fedcog-tls") return RunOverTls(s, split);
    if (s.method == "gcn") return RunGcn(s, split);
    const auto start = std::chrono::steady_clock::now();
    const CsrGraph& graph = dataset_.graphs[0];
    const std::uint32_t n = graph.num_nodes();
    const Split roles = StratifiedSplit(labels_, 0.50, 0.25, static_cast<std::uint64_t>(split));
    Result<std::vector<int>> party_of = s.method == "centralised"
                                            ? Result<std::vector<int>>(std::vector<int>(n, 0))
                                            : PartitionUsers(graph, s.partition, s.parties, static_cast<std::uint64_t>(split));
    if (!party_of.ok()) return party_of.status();
    const int parties = s.method == "centralised" ? 1 : s.parties;
    const std::uint64_t cross = CrossEdges(graph, *party_of);
    // Local-only parties drop the friendships that cross: each is alone.
    CsrGraph kept;
    if (s.method == "local") {
      std::vector<std::vector<std::uint32_t>> rows(n);
      for (std::uint32_t u = 0; u < n; ++u) {
        for (std::uint32_t v : graph.neighbours(u)) {
          if ((*party_of)[u] == (*party_of)[v]) rows[u].push_back(v);
        }
      }
      kept = CsrGraph::FromRows(rows);
    }
    Result<std::vector<PartyGraph>> split_graph = DecoupleGraph(s.method == "local" ? kept : graph, *party_of, parties);
    if (!split_graph.ok()) return split_graph.status();
    PartyInputs inputs = MakePartyInputs(*split_graph, features_, labels_, roles);
    std::vector<Matrix>& local = inputs.features;
    const std::vector<PartyTask>& tasks = inputs.tasks;
    if (s.method == "fedcog-lnnc") {  // the privacy-enhanced variant
      for (std::size_t p = 0; p < split_graph->size(); ++p) ConnectLoneBorderUsers(local[p], &(*split_graph)[p]);
    }
    std::uint64_t propagation_bytes = 0;
    Result<std::vector<Matrix>> propagated = DecoupledPropagate(*split_graph, local, options_.steps, &propagation_bytes);
    if (!propagated.ok()) return propagated.status();
    FederatedSgcOptions o;
    o.seed = static_cast<std::uint64_t>(split);
    double test = 0, val = 0;
    std::uint64_t round_bytes = 0;
    if (s.method == "local") {
      // Every party its own model; accuracy over all parties' users.
      std::size_t test_users = 0, val_users = 0;
      for (std::size_t p = 0; p < tasks.size(); ++p) {
        if (tasks[p].train.empty()) continue;  // nothing to learn from: its users count as wrong
        Result<FederatedSgcRun> r = TrainFederatedSgc({(*propagated)[p]}, {tasks[p]}, classes_, o);
        if (!r.ok()) return r.status();
        test += r->test_accuracy * static_cast<double>(tasks[p].test.size());
        val += r->val_accuracy * static_cast<double>(tasks[p].val.size());
      }
      for (const PartyTask& t : tasks) {
        test_users += t.test.size();
        val_users += t.val.size();
      }
      test /= static_cast<double>(test_users);
      val /= static_cast<double>(val_users);
    } else {
      Result<FederatedSgcRun> r = TrainFederatedSgc(*propagated, tasks, classes_, o);
      if (!r.ok()) return r.status();
      test = r->test_accuracy;
      val = r->val_accuracy;
      round_bytes = r->training_bytes / static_cast<std::uint64_t>(o.max_epochs);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CsvRow row = Key(s, split);
    for (const std::string& v : {FormatNumber(test), FormatNumber(val), std::to_string(cross),
                                 std::to_string(propagation_bytes), std::to_string(round_bytes), FormatNumber(seconds)}) {
      row.push_back(v);
    }
    return table_->Append(row);
  }

  // The dataset dealt to the parties as their shares, run by real daemons.
  Status RunOverTls(const Setting& s, int split) const {
    const CsrGraph& graph = dataset_.graphs[0];
    Result<std::vector<int>> party_of = PartitionUsers(graph, s.partition, s.parties, static_cast<std::uint64_t>(split));
    if (!party_of.ok()) return party_of.status();
    std::vector<std::string> names;
    for (int p = 0; p < s.parties; ++p) names.push_back("p" + std::to_string(p));
    Result<std::vector<HeldGraphParts>> shares = SplitIntoShares(whole_, *party_of, names);
    if (!shares.ok()) return shares.status();
    Result<FedCogTlsResult> r = options_.over_tls(*shares, options_.steps, static_cast<std::uint64_t>(split));
    if (!r.ok()) return r.status();
    CsvRow row = Key(s, split);
    for (const std::string& v : {FormatNumber(r->test_accuracy), FormatNumber(r->val_accuracy),
                                 std::to_string(CrossEdges(graph, *party_of)), std::to_string(r->propagation_bytes),
                                 std::to_string(r->round_bytes), FormatNumber(r->seconds)}) {
      row.push_back(v);
    }
    return table_->Append(row);
  }

  // Centralised GCN as `ldpgraph train` trains it, on the same split: the
  // bar the issue sets FedCog against.
  Status RunGcn(const Setting& s, int split) const {
    NodeGnnConfig config;
    config.kind = NodeGnnKind::kGcn;
    config.input_dim = static_cast<int>(data_.features.cols());
    config.classes = data_.classes;
    Result<NodeGnnModel> gnn = NodeGnnModel::Create(config, static_cast<std::uint64_t>(split));
    if (!gnn.ok()) return gnn.status();
    const PreparedGraph graph = PrepareGraph(dataset_.graphs[0], Aggregation::kGcn);
    NodeTrainOptions o;
    o.seed = static_cast<std::uint64_t>(split);
    const Split roles = StratifiedSplit(labels_, 0.50, 0.25, static_cast<std::uint64_t>(split));
    const NodeTrainResult r = TrainNodeClassifier(&*gnn, graph, data_.features, data_.labels, roles, o, {});
    CsvRow row = Key(s, split);
    for (const std::string& v : {FormatNumber(r.test.accuracy), FormatNumber(r.val.accuracy), std::string("0"),
                                 std::string("0"), std::string("0"), FormatNumber(r.seconds)}) {
      row.push_back(v);
    }
    return table_->Append(row);
  }

  HeldGraphParts whole_;  // for fedcog-tls

 private:
  const GraphDataset& dataset_;
  const FedCogExperimentOptions& options_;
  ResultsTable* table_;
  Matrix features_;
  std::vector<int> labels_;
  int classes_;
  NodeTaskData data_;
};

}  // namespace

Status SummariseFedCogExperiment(const std::string& out_dir) {
  return SummariseStudy(out_dir, kColumns, kKeyColumns, {"dataset", "partition", "parties", "method"},
                        {"accuracy", "val_accuracy", "cross_edges", "propagation_bytes", "round_bytes", "seconds"},
                        {{"parties", "method", "accuracy", "parties", true, false}});
}

Status RunFedCogExperiment(const GraphDataset& dataset, const FedCogExperimentOptions& o) {
  for (const std::string& p : o.partitions) {
    if (p != "random" && p != "community") return Status::InvalidArgument("unknown partition '" + p + "' (random or community)");
  }
  for (const std::string& m : o.methods) {
    if (m != "fedcog" && m != "local" && m != "centralised" && m != "fedcog-tls" && m != "fedcog-lnnc" && m != "gcn") {
      return Status::InvalidArgument("unknown method '" + m +
                                     "' (fedcog, fedcog-lnnc, fedcog-tls, local, centralised or gcn)");
    }
    if (m == "fedcog-tls" && !o.over_tls) return Status::InvalidArgument("fedcog-tls needs real parties (the CLI)");
  }
  for (int p : o.parties) {
    if (p < 2) return Status::InvalidArgument("at least 2 parties, got " + std::to_string(p));
  }
  if (o.steps < 1 || o.splits < 1) return Status::InvalidArgument("need steps >= 1 and splits >= 1");
  if (dataset.graphs.size() != 1 || dataset.feature_dims == 0) {
    return Status::InvalidArgument("experiment fedcog needs one node-classification graph with features.csv");
  }
  Result<NodeTaskData> data = MakeNodeTaskData(dataset, Aggregation::kGcn);
  if (!data.ok()) return data.status();
  LDPGRAPH_RETURN_IF_ERROR(MakeOutputDirectory(o.out_dir));
  Result<std::unique_ptr<ResultsTable>> table = ResultsTable::Open(o.out_dir + "/results.csv", kColumns, kKeyColumns);
  if (!table.ok()) return table.status();
  auto runner = std::make_shared<FedCogRunner>(dataset, std::move(data).value(), o, table->get());
  if (o.over_tls) {
    Result<HeldGraphParts> whole = HeldGraphFromDataset(dataset);
    if (!whole.ok()) return whole.status();
    runner->whole_ = std::move(whole).value();
  }
  std::vector<ExperimentJob> jobs;
  std::size_t skipped = 0;
  for (int split = 0; split < o.splits; ++split) {
    for (const std::string& method : o.methods) {
      // The centralised models have no parties: one row per split.
      const bool whole = method == "centralised" || method == "gcn";
      const std::vector<std::string> partitions = whole ? std::vector<std::string>{"none"} : o.partitions;
      const std::vector<int> counts = whole ? std::vector<int>{1} : o.parties;
      for (const std::string& partition : partitions) {
        for (int parties : counts) {
          const Setting s{partition, parties, method};
          if ((*table)->Has(runner->Key(s, split))) {
            ++skipped;
            continue;
          }
          jobs.push_back({method + " " + partition + " parties=" + std::to_string(parties) + " split=" + std::to_string(split),
                          [runner, s, split](const RunProgress&) { return runner->Run(s, split); }});
        }
      }
    }
  }
  LDPGRAPH_RETURN_IF_ERROR(RunJobs("experiment fedcog", std::move(jobs), o.jobs, skipped));
  return SummariseFedCogExperiment(o.out_dir);
}

}  // namespace ldpgraph
