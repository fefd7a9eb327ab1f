#include "bench/linkldp_bench.h"

#include <chrono>

#include "dataset/generators.h"
#include "engine/parallel.h"
#include "ldpgraph/random_source.h"
#include "linkldp/link_denoiser.h"
#include "util/flags.h"

namespace ldpgraph {

Status RunLinkLdpBench(const LinkLdpBenchOptions& o, std::ostream& out) {
  if (o.users < 100) return Status::InvalidArgument("--users must be at least 100");
  if (o.degree < 2 || o.degree >= o.users) return Status::InvalidArgument("--degree must be in [2, users)");
  Result<EdgeMechanism> mechanism = ParseEdgeMechanism(o.mechanism);
  if (!mechanism.ok()) return mechanism.status();
  if (*mechanism != EdgeMechanism::kDprr && *mechanism != EdgeMechanism::kRrDegree) {
    return Status::InvalidArgument("--mechanism must be dprr or rr-degree");
  }
  Result<DenoisedOutput> output = ParseDenoisedOutput(o.output);
  if (!output.ok()) return output.status();
  const int threads = SetEngineThreads(o.threads);
  using Clock = std::chrono::steady_clock;
  auto seconds_since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };

  SeededRandomSource rng(1);
  const CsrGraph graph = BarabasiAlbert(o.users, o.degree / 2, rng);
  EdgePolicy policy;
  policy.mechanism = *mechanism;
  policy.epsilon = o.epsilon;
  Result<std::unique_ptr<EdgeRandomizer>> randomizer = MakeEdgeRandomizer(o.users, policy);
  if (!randomizer.ok()) return randomizer.status();
  // The reports as the daemon would hold them after ingest.
  auto start = Clock::now();
  std::vector<NoisyEdges> reports(o.users);
  for (std::uint32_t u = 0; u < o.users; ++u) {
    LDPGRAPH_RETURN_IF_ERROR((*randomizer)->Perturb(u, graph.neighbours(u), rng, &reports[u]));
  }
  const double perturb_seconds = seconds_since(start);
  std::uint64_t entries = 0;
  for (const NoisyEdges& r : reports) entries += r.neighbours.size();

  const auto total_start = Clock::now();
  LinkReportsBuilder builder(o.users);
  for (std::uint32_t u = 0; u < o.users; ++u) {
    LDPGRAPH_RETURN_IF_ERROR(builder.Add(u, reports[u]));
    NoisyEdges().neighbours.swap(reports[u].neighbours);  // handed over: free as we go
  }
  std::vector<NoisyEdges>().swap(reports);
  const LinkReports link = builder.Finish();
  const double collect_seconds = seconds_since(total_start);
  DenoiseOptions d;
  d.output = *output;
  Result<DenoisedGraph> denoised = DenoiseLinks(link, d);
  if (!denoised.ok()) return denoised.status();
  const double total_seconds = seconds_since(total_start);
  out << "users=" << o.users << "\nmean_degree=" << o.degree << "\nmechanism=" << o.mechanism
      << "\nepsilon=" << o.epsilon << "\nthreads=" << threads << "\ntrue_entries=" << graph.num_entries()
      << "\nreported_entries=" << entries << "\nperturb_seconds=" << perturb_seconds
      << "\ncollect_seconds=" << collect_seconds << "\ndenoise_seconds=" << denoised->seconds
      << "\ntotal_seconds=" << total_seconds << "\ncandidate_pairs=" << denoised->candidate_pairs
      << "\nexpected_edges=" << static_cast<std::uint64_t>(denoised->expected_edges)
      << "\nkept_edges=" << denoised->graph.num_entries() / 2 << "\npeak_rss_mb=" << PeakRssMb() << "\n";
  return Status::Ok();
}

}  // namespace ldpgraph
