#include "linkldp/link_denoiser.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "linkldp/degree_prior.h"
#include "linkldp/edge_posterior.h"

namespace ldpgraph {
namespace {

// The entries of `c` whose posterior passes `keep`, as a symmetric graph.
template <typename Keep>
DenoisedGraph Select(const CandidatePairs& c, const std::vector<float>& posterior, bool weighted, const Keep& keep) {
  const CsrGraph& g = c.pairs;
  const std::uint32_t n = g.num_nodes();
  std::vector<std::uint64_t> offsets(static_cast<std::size_t>(n) + 1, 0);
  std::vector<std::uint32_t> targets;
  DenoisedGraph out;
  for (std::uint32_t i = 0; i < n; ++i) {
    for (std::uint64_t e = g.offsets()[i]; e < g.offsets()[i + 1]; ++e) {
      if (!keep(e)) continue;
      targets.push_back(g.targets()[e]);
      out.weights.push_back(weighted ? posterior[e] : 1.0f);
    }
    offsets[i + 1] = targets.size();
  }
  out.graph = CsrGraph::FromCsr(std::move(offsets), std::move(targets));
  return out;
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

Result<DenoisedGraph> DenoiseLinks(const LinkReports& reports, const DenoiseOptions& o) {
  if (o.em_iterations < 0 || o.em_iterations > 100) {
    return Status::InvalidArgument("em_iterations must be in [0, 100]");
  }
  if (!(o.min_weight >= 0 && o.min_weight < 1)) return Status::InvalidArgument("min_weight must be in [0, 1)");
  const std::uint32_t n = reports.num_users();
  const auto* probs = o.side.class_probabilities;
  if ((probs != nullptr && probs->rows() != static_cast<Eigen::Index>(n)) ||
      (o.side.features != nullptr && o.side.features->rows() != static_cast<Eigen::Index>(n))) {
    return Status::InvalidArgument("the side information does not have one row per user");
  }
  const auto start = std::chrono::steady_clock::now();
  const CandidatePairs candidates = CollectCandidates(reports);
  const DegreePrior degree = DegreePrior::Fit(reports.degree);
  std::vector<float> posterior =
      EdgePosterior(reports, candidates, [&](std::uint32_t i, std::uint32_t j, std::uint64_t) { return degree.LogOdds(i, j); });
  if (probs != nullptr || o.side.features != nullptr) {
    LearnedPrior learned(candidates, o.side, n, o.background_pairs, o.seed);
    for (int it = 0; it < o.em_iterations; ++it) {
      learned.Fit(posterior);
      posterior = EdgePosterior(reports, candidates, [&](std::uint32_t i, std::uint32_t j, std::uint64_t e) {
        return degree.LogOdds(i, j) + learned.LogFactor(e);
      });
    }
  }
  double expected = 0;
  for (double d : reports.degree) expected += d;
  expected /= 2;

  DenoisedGraph out;
  switch (o.output) {
    case DenoisedOutput::kHard:
      out = Select(candidates, posterior, false, [&](std::uint64_t e) { return posterior[e] > 0.5f; });
      break;
    case DenoisedOutput::kSoft:
      out = Select(candidates, posterior, true, [&](std::uint64_t e) { return posterior[e] >= o.min_weight; });
      break;
    case DenoisedOutput::kHybrid: {
      // The k-th largest pair posterior (each pair counted once) as the bar;
      // ties at the bar are all kept.
      std::vector<float> pair_posterior;
      pair_posterior.reserve(posterior.size() / 2);
      for (std::uint32_t i = 0; i < n; ++i) {
        for (std::uint64_t e = candidates.pairs.offsets()[i]; e < candidates.pairs.offsets()[i + 1]; ++e) {
          if (candidates.pairs.targets()[e] > i) pair_posterior.push_back(posterior[e]);
        }
      }
      const auto k = static_cast<std::size_t>(std::llround(expected));
      float bar = 2.0f;  // nothing
      if (k >= pair_posterior.size()) {
        bar = 0.0f;
      } else if (k > 0) {
        std::nth_element(pair_posterior.begin(), pair_posterior.begin() + static_cast<std::ptrdiff_t>(k - 1),
                         pair_posterior.end(), std::greater<float>());
        bar = pair_posterior[k - 1];
      }
      out = Select(candidates, posterior, true,
                   [&](std::uint64_t e) { return posterior[e] >= bar && posterior[e] > 0.0f; });
      break;
    }
  }
  out.candidate_pairs = candidates.pairs.num_entries() / 2;
  out.expected_edges = expected;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace ldpgraph
