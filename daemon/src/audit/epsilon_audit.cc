#include "audit/epsilon_audit.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "audit/binomial_bounds.h"
#include "engine/parallel.h"

namespace ldpgraph {
namespace {

using Counts = std::unordered_map<std::string, std::uint64_t>;

struct Halves {
  Counts select_a, select_b, test_a, test_b;
};

std::unique_ptr<RandomSource> ThreadSource(const EpsilonAuditOptions& o, int thread, int input) {
  if (o.seeded) {
    return std::make_unique<SeededRandomSource>(o.seed * 1000003u + static_cast<std::uint64_t>(thread) * 2 +
                                                static_cast<std::uint64_t>(input));
  }
  Result<std::unique_ptr<OsRandomSource>> os = OsRandomSource::Create();
  if (os.ok()) return std::move(os).value();
  return nullptr;
}

void Merge(const Counts& from, Counts* into) {
  for (const auto& [key, count] : from) (*into)[key] += count;
}

// Every run of both inputs, counted per half. Errors: kUnavailable when a
// thread cannot open the OS CSPRNG (its runs would be missing).
Result<Halves> Run(const AuditSampler& a, const AuditSampler& b, const EpsilonAuditOptions& o) {
  const std::uint64_t half = o.trials / 2;
  const int threads = EngineThreads();
  std::vector<Halves> parts(static_cast<std::size_t>(threads));
  std::atomic<bool> no_source{false};
  OnThreads(threads, [&] {
    int t = 0;
#ifdef _OPENMP
    t = omp_get_thread_num();
#endif
    Halves& mine = parts[static_cast<std::size_t>(t)];
    std::unique_ptr<RandomSource> rng_a = ThreadSource(o, t, 0), rng_b = ThreadSource(o, t, 1);
    if (rng_a == nullptr || rng_b == nullptr) {
      no_source = true;
      return;
    }
    // Thread t runs every threads-th trial of each half.
    for (std::uint64_t i = static_cast<std::uint64_t>(t); i < 2 * half; i += static_cast<std::uint64_t>(threads)) {
      const bool select = i < half;
      ++(select ? mine.select_a : mine.test_a)[a(*rng_a)];
      ++(select ? mine.select_b : mine.test_b)[b(*rng_b)];
    }
  });
  if (no_source) return Status::Unavailable("the audit cannot read the OS random source");
  Halves all;
  for (const Halves& p : parts) {
    Merge(p.select_a, &all.select_a);
    Merge(p.select_b, &all.select_b);
    Merge(p.test_a, &all.test_a);
    Merge(p.test_b, &all.test_b);
  }
  return all;
}

std::uint64_t CountOf(const Counts& c, const std::string& key) {
  auto it = c.find(key);
  return it == c.end() ? 0 : it->second;
}

double Bound(std::uint64_t in_a, std::uint64_t in_b, std::uint64_t n, double alpha, double delta) {
  const double low = BinomialLowerBound(in_a, n, alpha) - delta;
  const double high = BinomialUpperBound(in_b, n, alpha);
  return low > 0 ? std::log(low / high) : -INFINITY;
}

// The event that separates `a` from `b` best on the selection half: a prefix
// of the outputs ordered by their count ratio.
std::vector<std::string> ChooseEvent(const Counts& a, const Counts& b, std::uint64_t n, double alpha, double delta) {
  std::vector<std::pair<double, std::string>> order;
  for (const auto& [key, count] : a) {
    order.emplace_back((static_cast<double>(count) + 0.5) / (static_cast<double>(CountOf(b, key)) + 0.5), key);
  }
  std::sort(order.begin(), order.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  std::uint64_t in_a = 0, in_b = 0;
  double best = -INFINITY;
  std::size_t best_size = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    in_a += CountOf(a, order[k].second);
    in_b += CountOf(b, order[k].second);
    const double bound = Bound(in_a, in_b, n, alpha, delta);
    if (bound > best) {
      best = bound;
      best_size = k + 1;
    }
  }
  std::vector<std::string> event;
  for (std::size_t k = 0; k < best_size; ++k) event.push_back(order[k].second);
  return event;
}

}  // namespace

Result<EpsilonAuditResult> AuditEpsilon(const AuditSampler& sample_a, const AuditSampler& sample_b,
                                        const EpsilonAuditOptions& options) {
  if (options.trials < 4) return Status::InvalidArgument("an audit needs at least 4 trials");
  if (!(options.confidence > 0 && options.confidence < 1)) {
    return Status::InvalidArgument("the confidence must be in (0, 1)");
  }
  Result<Halves> run = Run(sample_a, sample_b, options);
  if (!run.ok()) return run.status();
  const Halves& h = *run;
  const std::uint64_t n = options.trials / 2;
  // Two directions, two bounds each: Bonferroni keeps the whole at the confidence asked for.
  const double alpha = (1.0 - options.confidence) / 4.0;
  EpsilonAuditResult result;
  std::unordered_set<std::string> seen;
  for (const auto& kv : h.select_a) seen.insert(kv.first);
  for (const auto& kv : h.select_b) seen.insert(kv.first);
  result.outputs = seen.size();
  for (int direction = 0; direction < 2; ++direction) {
    const Counts& sel_x = direction == 0 ? h.select_a : h.select_b;
    const Counts& sel_y = direction == 0 ? h.select_b : h.select_a;
    const Counts& test_x = direction == 0 ? h.test_a : h.test_b;
    const Counts& test_y = direction == 0 ? h.test_b : h.test_a;
    const std::vector<std::string> event = ChooseEvent(sel_x, sel_y, n, alpha, options.delta);
    std::uint64_t in_x = 0, in_y = 0;
    for (const std::string& key : event) {
      in_x += CountOf(test_x, key);
      in_y += CountOf(test_y, key);
    }
    const double bound = Bound(in_x, in_y, n, alpha, options.delta);
    if (bound > result.lower_bound || (result.event.empty() && !event.empty())) {
      result.lower_bound = std::max(0.0, bound);
      result.estimate = in_x == 0 ? 0
                        : in_y == 0 ? INFINITY
                                    : std::log(static_cast<double>(in_x) / static_cast<double>(in_y));
      result.event_count_a = direction == 0 ? in_x : in_y;
      result.event_count_b = direction == 0 ? in_y : in_x;
      result.event.clear();
      for (const std::string& key : event) {
        if (result.event.size() > 200) break;
        result.event += (result.event.empty() ? "" : " ") + key;
      }
      if (direction == 1) result.event = "(B over A) " + result.event;
    }
  }
  return result;
}

}  // namespace ldpgraph
