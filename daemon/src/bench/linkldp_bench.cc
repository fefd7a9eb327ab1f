#include "bench/linkldp_bench.h"

#include <chrono>

#include "dataset/generators.h"
#include "dataset/graph_dataset.h"
#include "engine/parallel.h"
#include "ldpgraph/edge_randomizers.h"
#include "ldpgraph/random_source.h"
#include "linkldp/denoised_training.h"
#include "linkldp/link_denoiser.h"
#include "privacy/feature_mechanisms.h"
#include "train/task_data.h"
#include "util/flags.h"

namespace ldpgraph {
namespace {

using Clock = std::chrono::steady_clock;
double Since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

Status Train(const LinkReports& link, const LinkLdpBenchOptions& o, const NodeTaskData& data,
             const CsrGraph& truth, std::ostream& out) {
  LpgnnInputs in;
  in.features = &data.features;
  in.labels = &data.labels;
  in.classes = data.classes;
  in.split = StratifiedSplit(data.labels, 0.50, 0.25, 0);
  in.test_labels = &data.labels;
  in.rectified_features = false;  // true features: used as they are
  in.graph = &truth;  // replaced by each denoised graph
  LpgnnOptions lo;
  lo.kind = o.model == "gcn" ? NodeGnnKind::kGcn : NodeGnnKind::kSage;
  lo.label_method = LabelMethod::kCrossEntropy;
  lo.kx_choices = {0};  // true features: as experiment linkldp trains them
  DenoisedTrainingOptions d;
  Result<LinkDenoising> denoising = ParseLinkDenoising(o.train);
  if (!denoising.ok()) return denoising.status();
  d.denoising = *denoising;
  d.feature_similarity = true;
  const auto start = Clock::now();
  Result<DenoisedRun> run = TrainOnLinkReports(link, in, lo, d);
  if (!run.ok()) return run.status();
  out << "train_seconds=" << Since(start) << "\ntrainings=" << run->trainings << "\nchosen_graph=" << run->graph
      << "\nchosen_edges=" << run->chosen_graph.graph.num_entries() / 2
      << "\ntest_accuracy=" << run->chosen.run.test_accuracy << "\ntrain_peak_rss_mb=" << PeakRssMb() << "\n";
  return Status::Ok();
}

}  // namespace

Status RunLinkLdpBench(const LinkLdpBenchOptions& o, std::ostream& out) {
  const bool synthetic = o.dataset.empty();
  if (synthetic && o.users < 100) return Status::InvalidArgument("--users must be at least 100");
  if (synthetic && (o.degree < 2 || o.degree >= o.users)) return Status::InvalidArgument("--degree must be in [2, users)");
  if (o.model != "gcn" && o.model != "sage") return Status::InvalidArgument("--model must be gcn or sage");
  if (o.train != "none" && !ParseLinkDenoising(o.train).ok()) {
    return Status::InvalidArgument("--train must be ours, blink or none");
  }
  Result<EdgeMechanism> mechanism = ParseEdgeMechanism(o.mechanism);
  if (!mechanism.ok()) return mechanism.status();
  if (*mechanism != EdgeMechanism::kDprr && *mechanism != EdgeMechanism::kRrDegree) {
    return Status::InvalidArgument("--mechanism must be dprr or rr-degree");
  }
  Result<DenoisedOutput> output = ParseDenoisedOutput(o.output);
  if (!output.ok()) return output.status();
  const int threads = SetEngineThreads(o.threads);

  SeededRandomSource rng(1);
  NodeTaskData data;
  CsrGraph graph;
  if (synthetic) {
    graph = BarabasiAlbert(o.users, o.degree / 2, rng);
  } else {
    Result<GraphDataset> ds = ReadDataset(o.dataset);
    if (!ds.ok()) return ds.status();
    if (ds->graphs.size() != 1 || ds->feature_dims == 0) {
      return Status::InvalidArgument("--dataset needs one node-classification graph with features.csv");
    }
    Result<NodeTaskData> task = MakeNodeTaskData(*ds, Aggregation::kMean);
    if (!task.ok()) return task.status();
    data = std::move(task).value();
    ScaleColumnsToUnit(&data.features);
    graph = std::move(ds->graphs[0]);
  }
  const std::uint32_t n = graph.num_nodes();
  EdgePolicy policy;
  policy.mechanism = *mechanism;
  policy.epsilon = o.epsilon;
  Result<std::unique_ptr<EdgeRandomizer>> randomizer = MakeEdgeRandomizer(n, policy);
  if (!randomizer.ok()) return randomizer.status();
  // Every report made on its device, then collected as ingest hands them
  // over: one at a time, so the server never holds them as NoisyEdges.
  double perturb_seconds = 0, collect_seconds = 0;
  std::uint64_t entries = 0;
  LinkReportsBuilder builder(n);
  NoisyEdges report;
  for (std::uint32_t u = 0; u < n; ++u) {
    auto t = Clock::now();
    LDPGRAPH_RETURN_IF_ERROR((*randomizer)->Perturb(u, graph.neighbours(u), rng, &report));
    perturb_seconds += Since(t);
    t = Clock::now();
    entries += report.neighbours.size();
    LDPGRAPH_RETURN_IF_ERROR(builder.Add(u, report));
    collect_seconds += Since(t);
  }
  auto t = Clock::now();
  const LinkReports link = builder.Finish();
  collect_seconds += Since(t);
  DenoiseOptions d;
  d.output = *output;
  Result<DenoisedGraph> denoised = DenoiseLinks(link, d);
  if (!denoised.ok()) return denoised.status();
  out << "users=" << n << "\nmean_degree=" << static_cast<double>(graph.num_entries()) / n
      << "\nmechanism=" << o.mechanism << "\nepsilon=" << o.epsilon << "\nthreads=" << threads
      << "\ntrue_entries=" << graph.num_entries() << "\nreported_entries=" << entries
      << "\nperturb_seconds=" << perturb_seconds << "\ncollect_seconds=" << collect_seconds
      << "\nreport_mb=" << static_cast<double>(link.rows.bytes()) / 1e6 << "\ndenoise_seconds=" << denoised->seconds
      << "\ntotal_seconds=" << collect_seconds + denoised->seconds << "\ncandidate_pairs=" << denoised->candidate_pairs
      << "\nexpected_edges=" << static_cast<std::uint64_t>(denoised->expected_edges)
      << "\nkept_edges=" << denoised->graph.num_entries() / 2 << "\npeak_rss_mb=" << PeakRssMb() << "\n";
  out.flush();
  if (synthetic || o.train == "none") return Status::Ok();
  denoised = DenoisedGraph();  // the training makes its own graphs
  return Train(link, o, data, graph, out);
}

}  // namespace ldpgraph
