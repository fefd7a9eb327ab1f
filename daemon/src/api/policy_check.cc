#include "api/policy_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "ldpgraph/dprr.h"
#include "ldpgraph/randomized_response.h"
#include "ldpgraph/rr_with_degree.h"

namespace ldpgraph {
namespace {

bool Close(double a, double b) {
  if (a == b) return true;  // infinities
  return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b));
}

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

Status Mismatch(const char* what, double got, double want) {
  return Status::InvalidArgument(std::string(what) + " is " + Num(got) + "; the graph's policy needs " + Num(want));
}

Status Expect(const char* what, double got, double want) {
  return Close(got, want) ? Status::Ok() : Mismatch(what, got, want);
}

Status CheckEdgePolicy(const NoisyEdges& e, const GraphConfig& g, const PolicyExpectation& want) {
  const EdgePolicy& policy = g.edges;
  if (e.mechanism != policy.mechanism) {
    return Status::InvalidArgument(std::string("edge mechanism is ") + EdgeMechanismName(e.mechanism) +
                                   "; the graph's policy needs " + EdgeMechanismName(policy.mechanism));
  }
  if (e.mechanism == EdgeMechanism::kNone) return Status::Ok();
  LDPGRAPH_RETURN_IF_ERROR(Expect("edge epsilon", e.epsilon, policy.epsilon));
  if (e.mechanism == EdgeMechanism::kRr) return Expect("p", e.p, want.p);
  if (e.allocation != policy.allocation) {
    return Status::InvalidArgument(std::string("budget allocation is ") + BudgetAllocationName(e.allocation) +
                                   "; the graph's policy needs " + BudgetAllocationName(policy.allocation));
  }
  LDPGRAPH_RETURN_IF_ERROR(Expect("eps1", e.eps1, want.eps1));
  LDPGRAPH_RETURN_IF_ERROR(Expect("eps2", e.eps2, want.eps2));
  if (e.mechanism == EdgeMechanism::kLocalLap) {
    if (e.resolution != policy.locallap_resolution) {
      return Mismatch("LocalLap resolution", e.resolution, policy.locallap_resolution);
    }
    return Status::Ok();
  }
  // q follows from the device's noisy degree, which stays on the device: any
  // value eq. 5 can produce, i.e. anything in [0, 1] the decoder accepted.
  return Expect("p", e.p, want.p);
}

}  // namespace

Result<PolicyExpectation> ExpectPolicy(const GraphConfig& g) {
  PolicyExpectation want;
  const EdgePolicy& policy = g.edges;
  const std::uint32_t n_max = policy.n_max ? policy.n_max : g.num_users;
  if (policy.mechanism == EdgeMechanism::kRr) {
    auto rr = RandomizedResponse::Create(g.num_users, policy.epsilon);
    if (!rr.ok()) return rr.status();
    want.p = rr->p();
  } else if (policy.mechanism == EdgeMechanism::kDprr || policy.mechanism == EdgeMechanism::kLocalLap ||
             policy.mechanism == EdgeMechanism::kRrDegree) {
    auto split = AllocateBudget(policy.epsilon, policy.allocation, n_max);
    if (!split.ok()) return split.status();
    want.eps1 = split->eps1;
    want.eps2 = split->eps2;
    if (policy.mechanism == EdgeMechanism::kDprr) {
      auto dprr = Dprr::Create(g.num_users, policy.epsilon, policy.allocation, n_max);
      if (!dprr.ok()) return dprr.status();
      want.p = dprr->p();
    }
    if (policy.mechanism == EdgeMechanism::kRrDegree) {
      auto rr = RrWithDegree::Create(g.num_users, policy.epsilon, policy.allocation, n_max);
      if (!rr.ok()) return rr.status();
      want.p = rr->p();
    }
  }
  if (g.features.enabled) want.sampled_feature_dims = g.features.params.SampledDims();
  return want;
}

Status CheckReportRanges(const Report& r, const GraphConfig& g) {
  if (r.user_id >= g.num_users) {
    return Status::OutOfRange("user id " + std::to_string(r.user_id) + " is not below the graph's n = " +
                              std::to_string(g.num_users));
  }
  for (std::uint32_t id : r.edges.neighbours) {
    if (id >= g.num_users) {
      return Status::OutOfRange("neighbour id " + std::to_string(id) + " is not below the graph's n = " +
                                std::to_string(g.num_users));
    }
  }
  return Status::Ok();
}

Status CheckReportPolicy(const Report& r, const GraphConfig& g, const PolicyExpectation& want) {
  if (r.num_users != g.num_users) {
    return Status::InvalidArgument("the report was made for n = " + std::to_string(r.num_users) +
                                   "; the graph has n = " + std::to_string(g.num_users));
  }
  const bool owner_report = r.has_embedding || r.has_summary;
  if (owner_report != g.embedding.enabled) {
    return Status::InvalidArgument(g.embedding.enabled ? "the graph is an embedding graph: its owner's report "
                                                         "carries the embeddings and nothing else"
                                                       : "the graph takes users' reports, not embeddings");
  }
  const bool summary_graph = g.embedding.encoding == EmbeddingEncoding::kSummary;
  if (owner_report && r.has_summary != summary_graph) {
    return Status::InvalidArgument(summary_graph ? "the graph takes a summary of the embeddings (one grid cell), not rows"
                                                 : "the graph takes the embeddings' rows, not a summary");
  }
  if (r.has_summary) {
    const ReportSummary& s = r.summary;
    const EmbeddingPolicy& grid = g.embedding;
    if (s.dims != grid.dims) return Mismatch("summary dims", s.dims, grid.dims);
    if (s.value_bins != grid.value_bins) return Mismatch("summary value bins", s.value_bins, grid.value_bins);
    if (s.size_bins != grid.size_bins) return Mismatch("summary size bins", s.size_bins, grid.size_bins);
    if (s.min_nodes != grid.min_nodes) return Mismatch("summary min nodes", s.min_nodes, grid.min_nodes);
    if (s.max_nodes != grid.max_nodes) return Mismatch("summary max nodes", s.max_nodes, grid.max_nodes);
    LDPGRAPH_RETURN_IF_ERROR(Expect("summary epsilon", s.epsilon, grid.epsilon));
  } else if (r.has_embedding) {
    // The decoder checked the rows against the report's own dims and
    // epsilon (m follows from both); these must be the graph's.
    if (r.embedding.dims != g.embedding.dims) return Mismatch("embedding dims", r.embedding.dims, g.embedding.dims);
    LDPGRAPH_RETURN_IF_ERROR(Expect("embedding epsilon", r.embedding.epsilon, g.embedding.epsilon));
  } else {
    LDPGRAPH_RETURN_IF_ERROR(CheckEdgePolicy(r.edges, g, want));
  }
  if (r.has_features != g.features.enabled) {
    return Status::InvalidArgument(g.features.enabled ? "the graph's policy needs features"
                                                      : "the graph's policy takes no features");
  }
  if (r.has_features) {
    const MultiBitParams& params = g.features.params;
    if (r.features.dims != params.dims) return Mismatch("feature dims", r.features.dims, params.dims);
    LDPGRAPH_RETURN_IF_ERROR(Expect("feature epsilon", r.features.epsilon, params.epsilon));
    if (r.features.encoded.size() != want.sampled_feature_dims) {
      return Mismatch("number of sampled feature dims", static_cast<double>(r.features.encoded.size()),
                      want.sampled_feature_dims);
    }
  }
  if (r.has_label != g.label.enabled) {
    return Status::InvalidArgument(g.label.enabled ? "the graph's policy needs a label"
                                                   : "the graph's policy takes no label");
  }
  if (r.has_label) {
    if (r.label.classes != g.label.classes) return Mismatch("label classes", r.label.classes, g.label.classes);
    LDPGRAPH_RETURN_IF_ERROR(Expect("label epsilon", r.label.epsilon, g.label.epsilon));
  }
  return Status::Ok();
}

Status CheckReportRound(const Report& report, bool in_rounds) {
  const std::string graph = "graph " + std::to_string(report.graph_id);
  if (in_rounds && report.round == 0) {
    return Status::InvalidArgument(graph + " is collected in rounds: a report names its round (the ledger's "
                                           "ReportRound), this one is a one-shot report");
  }
  if (!in_rounds && report.round != 0) {
    return Status::InvalidArgument(graph + " is collected once: this report is of round " +
                                   std::to_string(report.round) + " (send it with ReportOnce)");
  }
  return Status::Ok();
}

}  // namespace ldpgraph
