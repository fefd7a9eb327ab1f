#include "privacy/perturb_dataset.h"

#include <chrono>
#include <cmath>
#include <memory>

#include "graph/disclosed_lists.h"
#include "ldpgraph/edge_randomizers.h"
#include "ldpgraph/non_private.h"
#include "ldpgraph/samplers.h"
#include "privacy/local_lap_server.h"
#include "util/seed_mix.h"

namespace ldpgraph {
namespace {

// The policy every device of a graph runs under these options.
EdgePolicy PolicyOf(const PerturbOptions& options, std::uint32_t n_max) {
  EdgePolicy policy;
  policy.mechanism = options.mechanism;
  policy.epsilon = options.epsilon;
  policy.allocation = options.allocation;
  policy.n_max = n_max;
  policy.locallap_resolution = options.locallap_resolution;
  return policy;
}

// What one worker thread keeps between graphs: LocalLap's reports hold n - 1
// values each, and reusing their memory saves most of the mechanism's time
// (fresh pages cost more to fault in than the noise costs to draw).
struct WorkerScratch {
  std::vector<NoisyEdges> reports;
  NoisyEdges report;
};

Result<CsrGraph> PerturbGraph(const CsrGraph& graph, const PerturbOptions& options, std::uint32_t n_max,
                              RandomSource& rng, WorkerScratch* scratch, PerturbSummary* summary) {
  const std::uint32_t n = graph.num_nodes();
  summary->users += n;
  summary->true_edges += graph.num_entries();
  if (n < 2) {  // nobody to be friends with: nothing to protect or perturb
    summary->noisy_edges += graph.num_entries();
    return graph;
  }
  Result<std::unique_ptr<EdgeRandomizer>> mechanism = MakeEdgeRandomizer(n, PolicyOf(options, n_max));
  if (!mechanism.ok()) return mechanism.status();
  Result<NonPrivateEdges> open = NonPrivateEdges::Create(n);
  if (!open.ok()) return open.status();

  // The non-private users of the customized setting: a uniform subset.
  const auto k = static_cast<std::uint64_t>(std::llround(options.non_private_fraction * n));
  std::vector<std::uint32_t> non_private;
  LDPGRAPH_RETURN_IF_ERROR(SampleSubsetAvoiding(rng, n, {}, k, &non_private));
  summary->non_private_users += k;
  std::vector<bool> is_open(n, false);
  for (auto u : non_private) is_open[u] = true;

  const bool local_lap = options.mechanism == EdgeMechanism::kLocalLap;
  std::vector<NoisyEdges>& reports = scratch->reports;
  if (local_lap && reports.size() < n) reports.resize(n);
  CsrGraph noisy;
  // The rows' total is known only at the end. Growing by doubling copies the
  // array each time into fresh pages (RR at epsilon 1 on 22,470 users makes
  // 540 MB: 18% of the run went to those copies and their page faults), so
  // room for the whole graph is reserved once the first rows show the rate.
  const std::uint32_t sample = std::min<std::uint32_t>(n, 256);
  if (!local_lap) noisy.Reserve(n, 0);
  for (std::uint32_t u = 0; u < n; ++u) {
    const EdgeRandomizer& m = is_open[u] ? static_cast<const EdgeRandomizer&>(*open) : **mechanism;
    NoisyEdges& out = local_lap ? reports[u] : scratch->report;
    LDPGRAPH_RETURN_IF_ERROR(m.Perturb(u, graph.neighbours(u), rng, &out));
    if (local_lap) continue;
    noisy.AppendRow(out.neighbours);
    if (u + 1 == sample && sample < n) {
      const double rate = static_cast<double>(noisy.num_entries()) / sample;
      noisy.Reserve(n, static_cast<std::uint64_t>(rate * n * 1.1) + 1024);
    }
  }
  if (local_lap) {
    Result<CsrGraph> assembled = AssembleLocalLap(Span<const NoisyEdges>(reports.data(), n), rng);
    if (!assembled.ok()) return assembled.status();
    noisy = std::move(assembled).value();
  } else if (options.use_disclosed_lists) {
    noisy = UseDisclosedLists(noisy, is_open);
  }
  summary->noisy_edges += noisy.num_entries();
  return noisy;
}

}  // namespace

const char* const kPerturbMechanisms = "dprr, dprr-fixed, dprr-disclosed, rr, locallap, none";

Status ParsePerturbMechanism(const std::string& name, PerturbOptions* options) {
  if (name == "dprr-fixed" || name == "dprr-disclosed") {
    options->mechanism = EdgeMechanism::kDprr;
    options->allocation = name == "dprr-fixed" ? BudgetAllocation::kFixed : BudgetAllocation::kPaper;
    options->use_disclosed_lists = name == "dprr-disclosed";
    return Status::Ok();
  }
  Result<EdgeMechanism> m = ParseEdgeMechanism(name);
  if (!m.ok()) return Status::InvalidArgument("unknown mechanism '" + name + "' (" + kPerturbMechanisms + ")");
  options->mechanism = *m;
  options->allocation = *m == EdgeMechanism::kLocalLap ? BudgetAllocation::kFixed : BudgetAllocation::kPaper;
  return Status::Ok();
}

Result<GraphDataset> PerturbDataset(const GraphDataset& input, const PerturbOptions& options,
                                    PerturbSummary* summary) {
  if (!(options.non_private_fraction >= 0.0 && options.non_private_fraction <= 1.0)) {
    return Status::InvalidArgument("the non-private fraction must be in [0, 1]");
  }
  const auto start = std::chrono::steady_clock::now();
  *summary = PerturbSummary{};
  const std::uint32_t n_max = options.n_max != 0 ? options.n_max : std::max(2u, input.max_nodes());
  if (n_max < input.max_nodes()) {
    return Status::InvalidArgument("n_max = " + std::to_string(n_max) + " is below the largest graph (" +
                                   std::to_string(input.max_nodes()) + " users)");
  }
  // Check the policy once, on the largest graph, so a bad parameter is
  // reported as itself and not as the first graph's failure.
  if (input.max_nodes() >= 2) {
    Result<std::unique_ptr<EdgeRandomizer>> check =
        MakeEdgeRandomizer(input.max_nodes(), PolicyOf(options, n_max));
    if (!check.ok()) return check.status();
  }
  // Graphs are independent (one stream each), so they run in parallel; the
  // output does not depend on the number of threads.
  const auto count = static_cast<std::int64_t>(input.graphs.size());
  std::vector<CsrGraph> noisy(input.graphs.size());
  std::vector<PerturbSummary> parts(input.graphs.size());
  std::vector<Status> failures(input.graphs.size());
  std::size_t done = 0;
#pragma omp parallel
  {
    WorkerScratch scratch;
    std::unique_ptr<RandomSource> os_rng;
    Status os_status;
    if (!options.seeded) {
      Result<std::unique_ptr<OsRandomSource>> created = OsRandomSource::Create();
      if (created.ok()) {
        os_rng = std::move(created).value();
      } else {
        os_status = created.status();
      }
    }
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t g = 0; g < count; ++g) {
      const auto i = static_cast<std::size_t>(g);
      if (!os_status.ok()) {
        failures[i] = os_status;
        continue;
      }
      SeededRandomSource seeded(MixSeed(options.seed, i));
      RandomSource& rng = options.seeded ? static_cast<RandomSource&>(seeded) : *os_rng;
      Result<CsrGraph> result = PerturbGraph(input.graphs[i], options, n_max, rng, &scratch, &parts[i]);
      if (result.ok()) {
        noisy[i] = std::move(result).value();
      } else {
        failures[i] = result.status();
      }
#pragma omp critical(ldpgraph_perturb_progress)
      {
        ++done;
        if (options.progress) options.progress(done, input.graphs.size());
      }
    }
  }
  for (std::size_t g = 0; g < input.graphs.size(); ++g) {
    if (!failures[g].ok()) {
      return Status(failures[g].code(), "graph " + std::to_string(g) + ": " + failures[g].message());
    }
  }
  GraphDataset out = input;
  out.graphs = std::move(noisy);
  for (const PerturbSummary& part : parts) {
    summary->users += part.users;
    summary->true_edges += part.true_edges;
    summary->noisy_edges += part.noisy_edges;
    summary->non_private_users += part.non_private_users;
  }
  summary->graphs = input.graphs.size();
  summary->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace ldpgraph
