#include "linkldp/link_denoiser.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <optional>

#include "engine/parallel.h"
#include "util/named_values.h"

namespace ldpgraph {
namespace {

int ThisThread() {
#ifdef _OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}

// A kept pair, i < j, with its posterior's log-odds.
struct KeptPair {
  std::uint32_t i, j;
  float log_odds;
};

// The symmetric graph of the kept pairs (a pair kept twice counts once),
// weighted by their posteriors or, for `weighted` false, by 1.
DenoisedGraph FromPairs(std::uint32_t n, std::vector<std::vector<KeptPair>> per_thread, bool weighted) {
  std::vector<KeptPair> pairs;
  std::size_t total = 0;
  for (const auto& t : per_thread) total += t.size();
  pairs.reserve(total);
  for (auto& t : per_thread) {
    for (const KeptPair& p : t) {
      if (!weighted || PosteriorOf(p.log_odds) > 0.0f) pairs.push_back(p);  // a weight of 0 is no entry
    }
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
    const float w = weighted ? PosteriorOf(p.log_odds) : 1.0f;
    targets[above[p.i]] = p.j;
    out.weights[above[p.i]++] = w;
    targets[below[p.j]] = p.i;
    out.weights[below[p.j]++] = w;
  }
  out.graph = CsrGraph::FromCsr(std::move(offsets), std::move(targets));
  return out;
}

// The float's bits, mapped so that unsigned order is the floats' order.
std::uint32_t OrderedKey(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return (u & 0x80000000u) != 0 ? ~u : u | 0x80000000u;
}

}  // namespace

constexpr NamedValue<DenoisedOutput> kDenoisedOutputs[] = {
    {DenoisedOutput::kHard, "hard"}, {DenoisedOutput::kSoft, "soft"}, {DenoisedOutput::kHybrid, "hybrid"}};

const char* DenoisedOutputName(DenoisedOutput output) { return NameIn(kDenoisedOutputs, output); }

Result<DenoisedOutput> ParseDenoisedOutput(const std::string& name) {
  return ParseIn(kDenoisedOutputs, name, "denoised graph");
}

LinkDenoiser::LinkDenoiser(const LinkReports& reports, const DenoiseOptions& options,
                           std::shared_ptr<const CandidatePairs> candidates)
    : reports_(&reports),
      options_(options),
      candidates_(std::move(candidates)),
      ratios_(reports),
      degree_(std::make_shared<const DegreePrior>(DegreePrior::Fit(reports.degree))) {
  for (double d : reports.degree) expected_edges_ += d;
  expected_edges_ /= 2;
}

template <typename F>
std::uint64_t LinkDenoiser::ForEachLogOdds(bool whole_rows, F&& f) const {
  const auto n = static_cast<std::int64_t>(candidates_->num_users());
  const bool cached = !whole_rows && !cells_.empty();
  std::uint64_t visited = 0;
#pragma omp parallel reduction(+ : visited)
  {
    const int thread = ThisThread();
    std::optional<LearnedPrior::Row> cells;
    if (learned_ && !cached) cells.emplace(*learned_);
#pragma omp for schedule(dynamic, 16)
    for (std::int64_t r = 0; r < n; ++r) {
      const auto i = static_cast<std::uint32_t>(r);
      if (cells) cells->Reset(i);
      const double beta_i = degree_->Beta(i);
      const std::uint8_t* cell_of = cached ? cells_.data() + cell_offsets_[i] : nullptr;
      candidates_->ForEach(i, whole_rows ? 0 : i + 1, [&](std::uint32_t j, std::uint8_t bits) {
        const int cell = cached ? *cell_of++ : cells ? cells->Cell(j) : 0;
        double log_odds = beta_i + degree_->Beta(j) + ratios_.Log(i, j, bits);
        if (learned_) log_odds += learned_->LogFactor(cell);
        f(thread, i, j, cell, static_cast<float>(log_odds));
        ++visited;
      });
      f(thread, i, i, -1, 0.0f);  // the row is done
    }
  }
  return visited;
}

void LinkDenoiser::CacheCells() {
  const std::uint32_t n = candidates_->num_users();
  std::vector<std::uint64_t> offsets(static_cast<std::size_t>(n) + 1, 0);
#pragma omp parallel for schedule(dynamic, 64)
  for (std::int64_t r = 0; r < static_cast<std::int64_t>(n); ++r) {
    const auto i = static_cast<std::uint32_t>(r);
    std::uint64_t count = 0;
    candidates_->ForEach(i, i + 1, [&](std::uint32_t, std::uint8_t) { ++count; });
    offsets[i + 1] = count;
  }
  for (std::uint32_t i = 0; i < n; ++i) offsets[i + 1] += offsets[i];
  std::vector<std::uint8_t> cells(offsets[n]);
#pragma omp parallel
  {
    LearnedPrior::Row row(*learned_);
#pragma omp for schedule(dynamic, 16)
    for (std::int64_t r = 0; r < static_cast<std::int64_t>(n); ++r) {
      const auto i = static_cast<std::uint32_t>(r);
      row.Reset(i);
      std::uint8_t* out = cells.data() + offsets[i];
      candidates_->ForEach(i, i + 1, [&](std::uint32_t j, std::uint8_t) { *out++ = static_cast<std::uint8_t>(row.Cell(j)); });
    }
  }
  cell_offsets_ = std::move(offsets);
  cells_ = std::move(cells);
}

Result<LinkDenoiser> LinkDenoiser::Fit(const LinkReports& reports, const DenoiseOptions& o) {
  return Fit(reports, o, nullptr);
}

Result<LinkDenoiser> LinkDenoiser::Fit(const LinkReports& reports, const DenoiseOptions& o,
                                       std::shared_ptr<const CandidatePairs> candidates) {
  if (candidates != nullptr && candidates->num_users() != reports.num_users()) {
    return Status::InvalidArgument("the candidates were made from other reports");
  }
  if (o.em_iterations < 0 || o.em_iterations > 100) {
    return Status::InvalidArgument("em_iterations must be in [0, 100]");
  }
  if (!(o.min_weight >= 0 && o.min_weight < 1)) return Status::InvalidArgument("min_weight must be in [0, 1)");
  if (!(o.soft_degree_multiple >= 1 && o.soft_degree_multiple <= o.soft_max_multiple && o.soft_max_multiple <= 1e6)) {
    return Status::InvalidArgument("need 1 <= soft_degree_multiple <= soft_max_multiple <= 1e6");
  }
  const std::uint32_t n = reports.num_users();
  const auto* probs = o.side.class_probabilities;
  if ((probs != nullptr && probs->rows() != static_cast<Eigen::Index>(n)) ||
      (o.side.features != nullptr && o.side.features->rows() != static_cast<Eigen::Index>(n))) {
    return Status::InvalidArgument("the side information does not have one row per user");
  }
  if (candidates == nullptr) candidates = std::make_shared<const CandidatePairs>(reports);
  LinkDenoiser d(reports, o, std::move(candidates));
  if (probs == nullptr && o.side.features == nullptr) return d;
  // EM: each pass adds up the candidates' posterior mass per cell under the
  // current factor (the first under the degree prior alone), then refits it.
  auto learned = std::make_shared<LearnedPrior>(o.side, n, o.background_pairs, o.seed);
  const auto cells = static_cast<std::size_t>(learned->cells());
  const int threads = EngineThreads();
  if (o.em_iterations > 0) {
    d.learned_ = learned;  // its factor starts at 1: the degree prior
    if (learned->cells() <= 256) d.CacheCells();
  }
  for (int it = 0; it < o.em_iterations; ++it) {
    std::vector<std::vector<double>> mass(static_cast<std::size_t>(threads), std::vector<double>(cells, 0.0));
    d.ForEachLogOdds(false, [&](int t, std::uint32_t, std::uint32_t, int cell, float log_odds) {
      if (cell >= 0) mass[static_cast<std::size_t>(t)][static_cast<std::size_t>(cell)] += PosteriorOf(log_odds);
    });
    for (int t = 1; t < threads; ++t) {
      for (std::size_t c = 0; c < cells; ++c) mass[0][c] += mass[static_cast<std::size_t>(t)][c];
    }
    learned->Fit(mass[0]);
  }
  return d;
}

double LinkDenoiser::soft_multiple() const {
  const double by_budget = static_cast<double>(options_.soft_entry_budget) / std::max(1.0, 2 * expected_edges_);
  return std::clamp(by_budget, options_.soft_degree_multiple, options_.soft_max_multiple);
}

float LinkDenoiser::LogOdds(std::uint32_t i, std::uint32_t j) const {
  double log_odds = degree_->LogOdds(i, j) + ratios_.Log(i, j, candidates_->Bits(i, j));
  if (learned_) log_odds += learned_->LogFactor(learned_->Cell(i, j));
  return static_cast<float>(log_odds);
}

DenoisedGraph LinkDenoiser::Graph(DenoisedOutput output) const {
  // Pairs are ranked by their posterior's log-odds (the same order, and no
  // exponential for the pairs left out); the kept ones get their posterior.
  const auto start = std::chrono::steady_clock::now();
  const std::uint32_t n = candidates_->num_users();
  const auto threads = static_cast<std::size_t>(EngineThreads());
  std::vector<std::vector<KeptPair>> kept(threads);
  std::uint64_t candidates = 0;
  auto keep_from = [&](std::uint32_t bar) {  // keys at or above the bar's
    return ForEachLogOdds(false, [&](int t, std::uint32_t i, std::uint32_t j, int, float log_odds) {
      if (j != i && OrderedKey(log_odds) >= bar) kept[static_cast<std::size_t>(t)].push_back({i, j, log_odds});
    });
  };
  switch (output) {
    case DenoisedOutput::kHard:
      candidates = keep_from(OrderedKey(0.0f) + 1);  // more likely friends than not
      break;
    case DenoisedOutput::kSoft: {
      // Each row's top entries, chosen when the row is done. The weight's
      // floor is applied after the choice: with the order the same, the
      // entries it removes from the top k are the only ones it would.
      const float floor = options_.min_weight > 0
                              ? static_cast<float>(std::log(options_.min_weight / (1.0 - options_.min_weight))) - 1e-3f
                              : -INFINITY;
      std::vector<std::vector<std::pair<float, std::uint32_t>>> row(threads);
      const double multiple = soft_multiple();
      candidates = ForEachLogOdds(true, [&](int t, std::uint32_t i, std::uint32_t j, int, float log_odds) {
        auto& r = row[static_cast<std::size_t>(t)];
        if (j != i) {
          if (log_odds >= floor) r.emplace_back(log_odds, j);
          return;
        }
        const double limit = std::ceil(multiple * std::max(1.0, reports_->degree[i]));
        const auto k = static_cast<std::size_t>(std::min<double>(limit, static_cast<double>(r.size())));
        std::nth_element(r.begin(), r.begin() + static_cast<std::ptrdiff_t>(k), r.end(), std::greater<>());
        for (std::size_t e = 0; e < k; ++e) {
          if (PosteriorOf(r[e].first) < options_.min_weight) continue;
          const std::uint32_t other = r[e].second;
          kept[static_cast<std::size_t>(t)].push_back({std::min(i, other), std::max(i, other), r[e].first});
        }
        r.clear();
      }) / 2;
      break;
    }
    case DenoisedOutput::kHybrid: {
      // The k-th largest log-odds as the bar (ties at it all kept), found by
      // a radix select on the ordered keys: the high 16 bits in one pass, the
      // low 16 among the pairs sharing them in a second, which also keeps
      // the pairs.
      constexpr std::size_t kBuckets = 1 << 16;
      std::vector<std::vector<std::uint64_t>> hist(threads, std::vector<std::uint64_t>(kBuckets, 0));
      candidates = ForEachLogOdds(false, [&](int t, std::uint32_t i, std::uint32_t j, int, float log_odds) {
        if (j != i) ++hist[static_cast<std::size_t>(t)][OrderedKey(log_odds) >> 16];
      });
      const auto k = static_cast<std::uint64_t>(std::llround(expected_edges_));
      if (k == 0) break;
      if (k >= candidates) {
        keep_from(0);
        break;
      }
      // Walks the buckets down from the top until `wanted` keys are covered.
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
      std::uint64_t in_bucket = 0;
      for (const auto& h : hist) in_bucket += h[high];
      // Unless the pairs in the bar's bucket are too many to hold, the second
      // pass keeps those above it and holds those in it until the bar is
      // known; else a third pass keeps them.
      const bool hold = in_bucket <= options_.hybrid_held_pairs;
      std::vector<std::vector<KeptPair>> at_bar(threads);
      for (auto& h : hist) std::fill(h.begin(), h.end(), 0);
      ForEachLogOdds(false, [&](int t, std::uint32_t i, std::uint32_t j, int, float log_odds) {
        const std::uint32_t key = OrderedKey(log_odds);
        if (j == i || (key >> 16) < high) return;
        const auto ut = static_cast<std::size_t>(t);
        if ((key >> 16) > high) {
          if (hold) kept[ut].push_back({i, j, log_odds});
        } else {
          ++hist[ut][key & 0xffffu];
          if (hold) at_bar[ut].push_back({i, j, log_odds});
        }
      });
      std::uint64_t unused = 0;
      const std::uint32_t bar = high << 16 | find(k - before, &unused);
      if (!hold) {
        keep_from(bar);
        break;
      }
      for (std::size_t t = 0; t < threads; ++t) {
        for (const KeptPair& p : at_bar[t]) {
          if (OrderedKey(p.log_odds) >= bar) kept[t].push_back(p);
        }
      }
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
