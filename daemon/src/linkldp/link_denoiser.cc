#include "linkldp/link_denoiser.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <optional>

#include "engine/parallel.h"

namespace ldpgraph {
namespace {

int ThisThread() {
#ifdef _OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}

// A kept pair, i < j, with its posterior.
struct KeptPair {
  std::uint32_t i, j;
  float weight;
};

// The symmetric graph of the kept pairs (a pair kept twice counts once),
// weighted by their posteriors or, for `weighted` false, by 1.
DenoisedGraph FromPairs(std::uint32_t n, std::vector<std::vector<KeptPair>> per_thread, bool weighted) {
  std::vector<KeptPair> pairs;
  std::size_t total = 0;
  for (const auto& t : per_thread) total += t.size();
  pairs.reserve(total);
  for (auto& t : per_thread) {
    pairs.insert(pairs.end(), t.begin(), t.end());
    std::vector<KeptPair>().swap(t);
  }
  std::sort(pairs.begin(), pairs.end(), [](const KeptPair& a, const KeptPair& b) {
    return a.i != b.i ? a.i < b.i : a.j < b.j;
  });
  pairs.erase(std::unique(pairs.begin(), pairs.end(),
                          [](const KeptPair& a, const KeptPair& b) { return a.i == b.i && a.j == b.j; }),
              pairs.end());
  // Row v: its pairs with smaller ends (met in increasing i), then those
  // with larger ends (met in increasing j): sorted as they are written.
  std::vector<std::uint64_t> lower(n, 0), offsets(static_cast<std::size_t>(n) + 1, 0);
  for (const KeptPair& p : pairs) {
    ++lower[p.j];
    ++offsets[p.i + 1];
    ++offsets[p.j + 1];
  }
  for (std::uint32_t v = 0; v < n; ++v) offsets[v + 1] += offsets[v];
  std::vector<std::uint64_t> below(offsets.begin(), offsets.end() - 1), above(n);
  for (std::uint32_t v = 0; v < n; ++v) above[v] = offsets[v] + lower[v];
  std::vector<std::uint32_t> targets(offsets[n]);
  DenoisedGraph out;
  out.weights.resize(offsets[n]);
  for (const KeptPair& p : pairs) {
    const float w = weighted ? p.weight : 1.0f;
    targets[above[p.i]] = p.j;
    out.weights[above[p.i]++] = w;
    targets[below[p.j]] = p.i;
    out.weights[below[p.j]++] = w;
  }
  out.graph = CsrGraph::FromCsr(std::move(offsets), std::move(targets));
  return out;
}

std::uint32_t FloatBits(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

float BitsFloat(std::uint32_t u) {
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

}  // namespace

const char* DenoisedOutputName(DenoisedOutput output) {
  switch (output) {
    case DenoisedOutput::kHard: return "hard";
    case DenoisedOutput::kSoft: return "soft";
    case DenoisedOutput::kHybrid: return "hybrid";
  }
  return "?";
}

Result<DenoisedOutput> ParseDenoisedOutput(const std::string& name) {
  for (auto o : {DenoisedOutput::kHard, DenoisedOutput::kSoft, DenoisedOutput::kHybrid}) {
    if (name == DenoisedOutputName(o)) return o;
  }
  return Status::InvalidArgument("unknown denoised graph '" + name + "' (hard, soft or hybrid)");
}

LinkDenoiser::LinkDenoiser(const LinkReports& reports, const DenoiseOptions& options)
    : reports_(&reports),
      options_(options),
      candidates_(std::make_shared<const CandidatePairs>(reports)),
      ratios_(reports),
      degree_(std::make_shared<const DegreePrior>(DegreePrior::Fit(reports.degree))) {
  for (double d : reports.degree) expected_edges_ += d;
  expected_edges_ /= 2;
}

template <typename F>
std::uint64_t LinkDenoiser::ForEachPosterior(bool whole_rows, F&& f) const {
  const auto n = static_cast<std::int64_t>(candidates_->num_users());
  std::uint64_t visited = 0;
#pragma omp parallel reduction(+ : visited)
  {
    const int thread = ThisThread();
    std::optional<LearnedPrior::Row> cells;
    if (learned_) cells.emplace(*learned_);
#pragma omp for schedule(dynamic, 16)
    for (std::int64_t r = 0; r < n; ++r) {
      const auto i = static_cast<std::uint32_t>(r);
      if (cells) cells->Reset(i);
      const double beta_i = degree_->Beta(i);
      candidates_->ForEach(i, whole_rows ? 0 : i + 1, [&](std::uint32_t j, std::uint8_t bits) {
        const int cell = cells ? cells->Cell(j) : 0;
        double log_odds = beta_i + degree_->Beta(j) + ratios_.Log(i, j, bits);
        if (cells) log_odds += learned_->LogFactor(cell);
        f(thread, i, j, cell, PosteriorOf(log_odds));
        ++visited;
      });
      f(thread, i, i, -1, 0.0f);  // the row is done
    }
  }
  return visited;
}

Result<LinkDenoiser> LinkDenoiser::Fit(const LinkReports& reports, const DenoiseOptions& o) {
  if (o.em_iterations < 0 || o.em_iterations > 100) {
    return Status::InvalidArgument("em_iterations must be in [0, 100]");
  }
  if (!(o.min_weight >= 0 && o.min_weight < 1)) return Status::InvalidArgument("min_weight must be in [0, 1)");
  if (!(o.soft_degree_multiple >= 1 && o.soft_degree_multiple <= 1e6)) {
    return Status::InvalidArgument("soft_degree_multiple must be in [1, 1e6]");
  }
  const std::uint32_t n = reports.num_users();
  const auto* probs = o.side.class_probabilities;
  if ((probs != nullptr && probs->rows() != static_cast<Eigen::Index>(n)) ||
      (o.side.features != nullptr && o.side.features->rows() != static_cast<Eigen::Index>(n))) {
    return Status::InvalidArgument("the side information does not have one row per user");
  }
  LinkDenoiser d(reports, o);
  if (probs == nullptr && o.side.features == nullptr) return d;
  // EM: each pass adds up the candidates' posterior mass per cell under the
  // current factor (the first under the degree prior alone), then refits it.
  auto learned = std::make_shared<LearnedPrior>(o.side, n, o.background_pairs, o.seed);
  const auto cells = static_cast<std::size_t>(learned->cells());
  const int threads = EngineThreads();
  if (o.em_iterations > 0) d.learned_ = learned;  // its factor starts at 1: the degree prior
  for (int it = 0; it < o.em_iterations; ++it) {
    std::vector<std::vector<double>> mass(static_cast<std::size_t>(threads), std::vector<double>(cells, 0.0));
    d.ForEachPosterior(false, [&](int t, std::uint32_t, std::uint32_t, int cell, float p) {
      if (cell >= 0) mass[static_cast<std::size_t>(t)][static_cast<std::size_t>(cell)] += p;
    });
    for (int t = 1; t < threads; ++t) {
      for (std::size_t c = 0; c < cells; ++c) mass[0][c] += mass[static_cast<std::size_t>(t)][c];
    }
    learned->Fit(mass[0]);
  }
  return d;
}

float LinkDenoiser::Posterior(std::uint32_t i, std::uint32_t j) const {
  double log_odds = degree_->LogOdds(i, j) + ratios_.Log(i, j, candidates_->Bits(i, j));
  if (learned_) log_odds += learned_->LogFactor(learned_->Cell(i, j));
  return PosteriorOf(log_odds);
}

DenoisedGraph LinkDenoiser::Graph(DenoisedOutput output) const {
  const auto start = std::chrono::steady_clock::now();
  const std::uint32_t n = candidates_->num_users();
  const auto threads = static_cast<std::size_t>(EngineThreads());
  std::vector<std::vector<KeptPair>> kept(threads);
  std::uint64_t candidates = 0;
  auto keep_above = [&](float bar, bool strictly) {
    return ForEachPosterior(false, [&](int t, std::uint32_t i, std::uint32_t j, int, float p) {
      if (j != i && (strictly ? p > bar : p >= bar) && p > 0.0f) {
        kept[static_cast<std::size_t>(t)].push_back({i, j, p});
      }
    });
  };
  switch (output) {
    case DenoisedOutput::kHard:
      candidates = keep_above(0.5f, true);
      break;
    case DenoisedOutput::kSoft: {
      // Each row's top entries, chosen when the row is done.
      std::vector<std::vector<std::pair<float, std::uint32_t>>> row(threads);
      candidates = ForEachPosterior(true, [&](int t, std::uint32_t i, std::uint32_t j, int, float p) {
        auto& r = row[static_cast<std::size_t>(t)];
        if (j != i) {
          if (p >= options_.min_weight && p > 0.0f) r.emplace_back(p, j);
          return;
        }
        const double limit = std::ceil(options_.soft_degree_multiple * std::max(1.0, reports_->degree[i]));
        const auto k = static_cast<std::size_t>(std::min<double>(limit, static_cast<double>(r.size())));
        std::nth_element(r.begin(), r.begin() + static_cast<std::ptrdiff_t>(k), r.end(), std::greater<>());
        for (std::size_t e = 0; e < k; ++e) {
          const std::uint32_t other = r[e].second;
          kept[static_cast<std::size_t>(t)].push_back({std::min(i, other), std::max(i, other), r[e].first});
        }
        r.clear();
      }) / 2;
      break;
    }
    case DenoisedOutput::kHybrid: {
      // The k-th largest pair posterior as the bar (ties at it all kept),
      // found by a radix select on the floats' bits: the high 16 bits in one
      // pass, the low 16 among the values sharing them in a second.
      constexpr std::size_t kBuckets = 1 << 16;
      std::vector<std::vector<std::uint64_t>> hist(threads, std::vector<std::uint64_t>(kBuckets, 0));
      candidates = ForEachPosterior(false, [&](int t, std::uint32_t i, std::uint32_t j, int, float p) {
        if (j != i) ++hist[static_cast<std::size_t>(t)][FloatBits(p) >> 16];
      });
      const auto k = static_cast<std::uint64_t>(std::llround(expected_edges_));
      float bar = 2.0f;  // nothing
      if (k >= candidates) {
        bar = 0.0f;
      } else if (k > 0) {
        // Walks the buckets down from the top until k values are covered.
        auto find = [&](std::uint64_t wanted, std::uint64_t* before) {
          std::uint64_t covered = 0;
          for (std::size_t b = kBuckets; b-- > 0;) {
            std::uint64_t count = 0;
            for (const auto& h : hist) count += h[b];
            if (covered + count >= wanted) {
              *before = covered;
              return static_cast<std::uint32_t>(b);
            }
            covered += count;
          }
          *before = covered;
          return std::uint32_t{0};
        };
        std::uint64_t before = 0;
        const std::uint32_t high = find(k, &before);
        for (auto& h : hist) std::fill(h.begin(), h.end(), 0);
        ForEachPosterior(false, [&](int t, std::uint32_t i, std::uint32_t j, int, float p) {
          const std::uint32_t u = FloatBits(p);
          if (j != i && (u >> 16) == high) ++hist[static_cast<std::size_t>(t)][u & 0xffffu];
        });
        std::uint64_t unused = 0;
        bar = BitsFloat(high << 16 | find(k - before, &unused));
      }
      keep_above(bar, false);
      break;
    }
  }
  DenoisedGraph out = FromPairs(n, std::move(kept), output != DenoisedOutput::kHard);
  out.candidate_pairs = candidates;
  out.expected_edges = expected_edges_;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

Result<DenoisedGraph> DenoiseLinks(const LinkReports& reports, const DenoiseOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  Result<LinkDenoiser> d = LinkDenoiser::Fit(reports, o);
  if (!d.ok()) return d.status();
  DenoisedGraph out = d->Graph(o.output);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace ldpgraph
