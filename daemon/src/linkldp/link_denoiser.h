// Link denoising: from every user's edge report to the graph a node model
// trains on (issue 25). The posterior of every candidate pair
// (edge_posterior.h) under a prior from the degrees (Blink) or learned from
// side information as well (learned_prior.h), then one of three outputs:
//   hard:   the pairs more likely friends than not, unweighted;
//   soft:   every candidate weighted by its posterior (below min_weight dropped);
//   hybrid: the k most probable pairs weighted by their posterior, k the
//           number of edges the degree estimates imply (sum / 2).
// Time and memory linear in the reported entries (plus the prior's fit).
#ifndef LDPGRAPH_DAEMON_LINKLDP_LINK_DENOISER_H_
#define LDPGRAPH_DAEMON_LINKLDP_LINK_DENOISER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "graph/csr_graph.h"
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
};

struct DenoisedGraph {
  CsrGraph graph;              // symmetric
  std::vector<float> weights;  // per entry of `graph`; all 1 for kHard
  // What it took.
  std::uint64_t candidate_pairs = 0;
  double expected_edges = 0;   // sum of the degree estimates / 2
  double seconds = 0;
};

// Errors: kInvalidArgument for options out of range.
Result<DenoisedGraph> DenoiseLinks(const LinkReports& reports, const DenoiseOptions& options);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_LINKLDP_LINK_DENOISER_H_
