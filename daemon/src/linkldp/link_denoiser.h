// Link denoising: from every user's edge report to the graph a node model
// trains on (issue 25). The posterior of every candidate pair
// (edge_posterior.h) under a prior from the degrees (Blink) or learned from
// side information as well (learned_prior.h), then one of three outputs:
// Pairs are ranked by their posterior (its log-odds, in float):
//   hard:   the pairs more likely friends than not, unweighted;
//   soft:   each user's most probable pairs, a multiple of her estimated
//           degree (and none below min_weight), weighted by their
//           posterior; a pair either end keeps is kept;
//   hybrid: the k most probable pairs weighted by their posterior, k the
//           number of edges the degree estimates imply (sum / 2).
// Time linear in the candidate pairs, a few passes over them; memory that
// of the reports and of the graph kept, never of the candidates: a
// candidate's posterior is made when a pass needs it and then dropped (at
// edge epsilon 1 half of all pairs are candidates).
#ifndef LDPGRAPH_DAEMON_LINKLDP_LINK_DENOISER_H_
#define LDPGRAPH_DAEMON_LINKLDP_LINK_DENOISER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "graph/csr_graph.h"
#include "linkldp/degree_prior.h"
#include "linkldp/edge_posterior.h"
#include "linkldp/learned_prior.h"
#include "linkldp/link_reports.h"

namespace ldpgraph {

enum class DenoisedOutput { kHard, kSoft, kHybrid };
const char* DenoisedOutputName(DenoisedOutput output);
// "hard", "soft", "hybrid". Errors: kInvalidArgument naming the choices.
Result<DenoisedOutput> ParseDenoisedOutput(const std::string& name);

struct DenoiseOptions {
  DenoisedOutput output = DenoisedOutput::kHybrid;
  // Side information for the learned prior; with neither, the degree prior
  // alone (Blink's).
  PairSideInformation side;
  int em_iterations = 3;
  std::size_t background_pairs = 200000;
  std::uint64_t seed = 0;  // the background sample only
  float min_weight = 1e-3f;
  // Soft: pairs kept per user, as a multiple m of her estimated degree (at
  // least 1 pair). m is as large as `soft_entry_budget` pairs in all allow
  // (budget / the sum of the degree estimates), within [soft_degree_multiple,
  // soft_max_multiple]. Far beyond the degree the posteriors are those of
  // strangers, each tiny, but together they still weigh: on Cora at edge
  // epsilon 2 GraphSAGE's weighted mean over 64 times the degree gives 0.769,
  // over 4 times 0.751 (the edge-free model: 0.753). On large graphs the
  // budget keeps the graph, and the trainings over it, near n times the
  // degree (kept at every user's top entries, never a dense row).
  double soft_degree_multiple = 4.0;
  double soft_max_multiple = 64.0;
  std::uint64_t soft_entry_budget = std::uint64_t{1} << 21;
  // Hybrid: pairs its second pass may hold at the bar before it falls back
  // to a third pass (12 bytes each).
  std::uint64_t hybrid_held_pairs = std::uint64_t{1} << 24;
};

struct DenoisedGraph {
  CsrGraph graph;              // symmetric
  std::vector<float> weights;  // per entry of `graph`; all 1 for kHard
  // What it took.
  std::uint64_t candidate_pairs = 0;
  double expected_edges = 0;   // sum of the degree estimates / 2
  double seconds = 0;
};

// The posterior of every pair under a prior fitted once: the degree prior,
// times the learned prior's factor after `em_iterations` EM steps when the
// options give side information. The reports and side information must
// outlive it. Thread-safety: const access is safe from many threads.
class LinkDenoiser {
 public:
  LinkDenoiser() = default;  // empty: for Result; use Fit
  // Errors: kInvalidArgument for options out of range or side information
  // without one row per user.
  static Result<LinkDenoiser> Fit(const LinkReports& reports, const DenoiseOptions& options);
  // The same over candidates already made from `reports` (they cost a
  // transpose of the reports: denoisers of the same reports share them).
  static Result<LinkDenoiser> Fit(const LinkReports& reports, const DenoiseOptions& options,
                                  std::shared_ptr<const CandidatePairs> candidates);

  // Any pair i != j, candidate or not: the posterior's log-odds (what the
  // graphs rank pairs by), and the posterior.
  float LogOdds(std::uint32_t i, std::uint32_t j) const;
  float Posterior(std::uint32_t i, std::uint32_t j) const { return PosteriorOf(LogOdds(i, j)); }
  // The graph the output asks for (options.output is Fit's default only).
  DenoisedGraph Graph(DenoisedOutput output) const;
  double expected_edges() const { return expected_edges_; }
  // The soft graph's multiple of the degree (DenoiseOptions).
  double soft_multiple() const;

 private:
  LinkDenoiser(const LinkReports& reports, const DenoiseOptions& options,
               std::shared_ptr<const CandidatePairs> candidates);
  // Calls f(thread, i, j, cell, log_odds) for the candidates of every row
  // i with j > i (pairs: each once) or every j (rows: each pair from both
  // ends), then f(thread, i, i, -1, 0) when row i is done; rows are spread
  // over the threads, and f runs on many at once. `cell` is the learned
  // prior's (0 without one). Returns the number of candidates visited.
  template <typename F>
  std::uint64_t ForEachLogOdds(bool whole_rows, F&& f) const;
  // Every pair's cell, made once (a byte a pair: the passes over pairs
  // would otherwise spend a third of their time remaking them).
  void CacheCells();

  const LinkReports* reports_ = nullptr;
  DenoiseOptions options_;
  std::shared_ptr<const CandidatePairs> candidates_;
  LikelihoodRatios ratios_;
  std::shared_ptr<const DegreePrior> degree_;
  std::shared_ptr<LearnedPrior> learned_;  // null: the degree prior alone
  std::vector<std::uint64_t> cell_offsets_;  // per row, into cells_
  std::vector<std::uint8_t> cells_;          // per pair (j > i), in ForEach order
  double expected_edges_ = 0;
};

// LinkDenoiser::Fit, then Graph(options.output).
Result<DenoisedGraph> DenoiseLinks(const LinkReports& reports, const DenoiseOptions& options);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_LINKLDP_LINK_DENOISER_H_
