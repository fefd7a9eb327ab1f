#include "bench/perturb_bench.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include "ldpgraph/dprr.h"
#include "ldpgraph/report_builder.h"
#include "ldpgraph/samplers.h"
#include "ldpgraph/wire_format.h"
#include "util/flags.h"

namespace ldpgraph {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

// The baseline, kept here only: Algorithm 1 literally, one draw per bit for
// RR and one per surviving 1 for the sampling. Uses a fast float compare,
// not the exact Bernoulli, to be generous to it.
std::size_t PerBitDprr(const Dprr& dprr, std::uint32_t user, const std::vector<std::uint32_t>& sorted,
                       RandomSource& rng, const DiscreteLaplace& noise, std::vector<std::uint32_t>* out) {
  const std::uint32_t n = dprr.num_users();
  const double q = dprr.SamplingProbability(static_cast<std::int64_t>(sorted.size()) + noise.Sample(rng));
  const double p = dprr.p();
  out->clear();
  std::size_t next = 0;
  for (std::uint32_t j = 0; j < n; ++j) {
    if (j == user) continue;
    bool bit = next < sorted.size() && sorted[next] == j;
    if (bit) ++next;
    if (UniformUnit(rng) >= p) bit = !bit;          // RR
    if (bit && UniformUnit(rng) < q) out->push_back(j);  // edge sampling
  }
  return out->size();
}

}  // namespace

Status RunPerturbBench(const PerturbBenchOptions& o, std::ostream& out) {
  if (o.users < 2 || o.degree >= o.users) {
    return Status::InvalidArgument("need users >= 2 and degree < users");
  }
  Result<Dprr> dprr = Dprr::Create(o.users, o.epsilon);
  if (!dprr.ok()) return dprr.status();
  Result<std::unique_ptr<OsRandomSource>> os = OsRandomSource::Create();
  if (!os.ok()) return os.status();
  RandomSource& rng = **os;  // the production source, as on a device

  // A pool of true neighbour lists, generated before timing starts.
  SeededRandomSource setup(1);
  const std::size_t pool = 1024;
  std::vector<std::uint32_t> users(pool);
  std::vector<std::vector<std::uint32_t>> lists(pool);
  for (std::size_t i = 0; i < pool; ++i) {
    users[i] = static_cast<std::uint32_t>(UniformBelow(setup, o.users));
    std::vector<std::uint32_t> self = {users[i]};
    LDPGRAPH_RETURN_IF_ERROR(SampleSubsetAvoiding(setup, o.users, self, o.degree, &lists[i]));
  }

  // The SDK path: DPRR from an unsorted-or-sorted list to sorted noisy ids.
  NoisyEdges noisy;
  std::uint64_t total_out = 0;
  for (std::size_t i = 0; i < 1000; ++i) {  // warm-up
    LDPGRAPH_RETURN_IF_ERROR(dprr->Perturb(users[i % pool], lists[i % pool], rng, &noisy));
  }
  auto start = Clock::now();
  for (std::uint64_t r = 0; r < o.reports; ++r) {
    const std::size_t i = r % pool;
    LDPGRAPH_RETURN_IF_ERROR(dprr->Perturb(users[i], lists[i], rng, &noisy));
    total_out += noisy.neighbours.size();
  }
  const double per_report_us = Seconds(start) / static_cast<double>(o.reports) * 1e6;

  // Wire size and encode cost of the same reports.
  Report report;
  report.graph_id = 1;
  report.num_users = o.users;
  std::vector<std::uint8_t> bytes;
  std::uint64_t total_bytes = 0;
  const std::uint64_t encoded = std::min<std::uint64_t>(o.reports, 20000);
  start = Clock::now();
  for (std::uint64_t r = 0; r < encoded; ++r) {
    const std::size_t i = r % pool;
    report.user_id = users[i];
    LDPGRAPH_RETURN_IF_ERROR(dprr->Perturb(users[i], lists[i], rng, &report.edges));
    rng.FillBytes(report.report_id.data(), report.report_id.size());
    bytes.clear();
    LDPGRAPH_RETURN_IF_ERROR(EncodeReport(report, &bytes));
    total_bytes += bytes.size();
  }
  const double report_with_encoding_us = Seconds(start) / static_cast<double>(encoded) * 1e6;

  // The per-bit baseline on a few users (each costs O(n)).
  Result<DiscreteLaplace> noise = DiscreteLaplace::Create(dprr->eps1());
  if (!noise.ok()) return noise.status();
  std::vector<std::uint32_t> baseline_out;
  std::uint64_t baseline_total = 0;
  start = Clock::now();
  for (std::uint64_t r = 0; r < o.baseline_reports; ++r) {
    const std::size_t i = r % pool;
    baseline_total += PerBitDprr(*dprr, users[i], lists[i], rng, *noise, &baseline_out);
  }
  const double per_bit_us = Seconds(start) / static_cast<double>(o.baseline_reports) * 1e6;

  out << "users=" << o.users << "\n"
      << "degree=" << o.degree << "\n"
      << "epsilon=" << o.epsilon << "\n"
      << "eps1=" << dprr->eps1() << "\n"
      << "eps2=" << dprr->eps2() << "\n"
      << "reports=" << o.reports << "\n"
      << "per_report_us=" << per_report_us << "\n"
      << "per_report_with_encoding_us=" << report_with_encoding_us << "\n"
      << "baseline_reports=" << o.baseline_reports << "\n"
      << "per_bit_us=" << per_bit_us << "\n"
      << "speedup=" << per_bit_us / per_report_us << "\n"
      << "mean_noisy_degree=" << static_cast<double>(total_out) / static_cast<double>(o.reports) << "\n"
      << "baseline_mean_noisy_degree="
      << static_cast<double>(baseline_total) / static_cast<double>(o.baseline_reports) << "\n"
      << "report_bytes=" << static_cast<double>(total_bytes) / static_cast<double>(encoded) << "\n"
      << "peak_rss_mb=" << PeakRssMb() << "\n";
  return Status::Ok();
}

}  // namespace ldpgraph
