#include "api/gw_api.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "api/summary_graphs.h"
#include "gw/graph_space.h"
#include "gw/gromov_wasserstein.h"
#include "gw/pairwise_gw.h"
#include "gw/private_embedding.h"
#include "gw/private_summary.h"
#include "ldpgraph/wire_format.h"
#include "net/json_body.h"
#include "net/json_response.h"

namespace ldpgraph {
namespace {

using nlohmann::json;

// An error with the HTTP status it answers with.
struct Refusal {
  int status;
  std::string reason, message;
};

// What the server knows of an embedding graph: the space of its rectified
// embeddings.
Result<GraphSpace> LoadSpace(ServiceContext& ctx, std::uint64_t id, Refusal* refusal) {
  auto graph = ctx.graphs.Find(id);
  if (!graph) {
    *refusal = {404, "unknown_graph", "no graph " + std::to_string(id)};
    return Status::FailedPrecondition(refusal->message);
  }
  const GraphConfig& c = graph->config;
  if (!c.embedding.enabled) {
    *refusal = {409, "not_an_embedding_graph", "graph " + std::to_string(id) + " takes users' reports, not embeddings"};
    return Status::FailedPrecondition(refusal->message);
  }
  std::vector<std::uint8_t> bytes;
  Status read = ctx.store->ForEachReport(id, [&](const ReportRecord& r) { bytes = r.bytes; });
  if (!read.ok()) {
    *refusal = {503, "unavailable", read.message()};
    return read;
  }
  if (bytes.empty()) {
    *refusal = {409, "no_embeddings", "graph " + std::to_string(id) + " has no embedding report yet"};
    return Status::FailedPrecondition(refusal->message);
  }
  Result<Report> report = DecodeReport(bytes.data(), bytes.size());
  Result<Eigen::MatrixXd> h =
      report.ok() ? RectifyEmbedding(c.embedding.RowsParams(c.num_users), report->embedding.rows) : Result<Eigen::MatrixXd>(report.status());
  if (!h.ok()) {  // stored only after these very checks: the store is damaged
    *refusal = {500, "internal", "graph " + std::to_string(id) + "'s stored report: " + h.status().message()};
    return h.status();
  }
  return EmbeddingSpace(*h);
}

// GW between graphs of `a` and `b` users holds both n x n structures and
// up to 16 a x b matrices of doubles: the starting couplings, the coupling,
// gradient and products of each step, the line search's trial (measured:
// 129 MB at 1000 x 1000, `ldpgraph bench admin`).
std::uint64_t GwMemoryEstimate(std::uint64_t a, std::uint64_t b) { return 8 * (a * a + b * b + 16 * a * b); }

// The users of graph `id` in *users (0 for an unknown graph: LoadSpace
// refuses it), or 422 for an embedding graph with more users than GW
// compares here.
std::optional<HttpResponse> GwSize(const ServiceContext& ctx, std::uint64_t id, std::uint64_t* users) {
  auto graph = ctx.graphs.Find(id);
  *users = graph ? graph->config.num_users : 0;
  if (!graph || !graph->config.embedding.enabled || *users <= ctx.gw_max_nodes) return std::nullopt;
  return ErrorResponse(422, "too_large",
                       "graph " + std::to_string(id) + " has " + std::to_string(*users) +
                           " users; GW compares graphs of at most " + std::to_string(ctx.gw_max_nodes) +
                           " ([limits] gw_max_nodes): it holds n x n matrices");
}

Result<double> Discrepancy(const GraphSpace& a, const GraphSpace& b, double alpha) {
  Result<GwResult> r = SpaceGw(a, b, alpha, GwOptions::ProductStartOnly());  // as `ldpgraph gw` by default
  if (!r.ok()) return r.status();
  return r->value;
}

bool GraphId(const json& body, const char* key, std::uint64_t* id) {
  if (!body.contains(key) || !body[key].is_number_unsigned()) return false;
  *id = body[key].get<std::uint64_t>();
  return true;
}

// "alpha" in [0, 1], 0.5 when absent.
bool Alpha(const json& body, double* alpha) {
  *alpha = 0.5;
  if (!body.contains("alpha")) return true;
  if (!body["alpha"].is_number()) return false;
  *alpha = body["alpha"].get<double>();
  return *alpha >= 0 && *alpha <= 1;
}

HttpResponse Refuse(const Refusal& r) { return ErrorResponse(r.status, r.reason, r.message); }

// The embedding policy of graph `id`, or the refusal for an unknown graph
// or one that is no embedding graph.
std::optional<EmbeddingPolicy> EmbeddingOf(ServiceContext& ctx, std::uint64_t id, Refusal* refusal) {
  auto graph = ctx.graphs.Find(id);
  if (!graph) {
    *refusal = {404, "unknown_graph", "no graph " + std::to_string(id)};
    return std::nullopt;
  }
  if (!graph->config.embedding.enabled) {
    *refusal = {409, "not_an_embedding_graph", "graph " + std::to_string(id) + " takes users' reports, not embeddings"};
    return std::nullopt;
  }
  return graph->config.embedding;
}

bool IsSummary(const EmbeddingPolicy& e) { return e.encoding == EmbeddingEncoding::kSummary; }

// The space of summary graph `id` among its grid's denoised points.
std::optional<GraphSpace> SummarySpaceOf(const SummaryPoints& points, std::uint64_t id, Refusal* refusal) {
  const Eigen::Index row = points.RowOf(id);
  if (row < 0) {
    *refusal = {409, "no_embeddings", "graph " + std::to_string(id) + " has no summary report yet"};
    return std::nullopt;
  }
  return SummarySpace(points.points.row(row));
}

HttpResponse StoreRefusal(const Status& s) {
  return s.code() == StatusCode::kUnavailable ? ErrorResponse(503, "unavailable", s.message())
                                              : ErrorResponse(500, "internal", s.message());
}

// Every point of `grid` (LoadSummaryPoints) under a lease of the memory
// budget held in *lease: each graph's cell, id, report bytes while read,
// and point (dims + 1 doubles), twice over for the posterior's products;
// generously 64 bytes per value. The refusal when the budget or the store
// says no.
std::optional<HttpResponse> LeasedSummaryPoints(ServiceContext& ctx, const EmbeddingPolicy& grid,
                                                MemoryBudget::Lease* lease, SummaryPoints* points) {
  const std::uint64_t bytes = 64 * (static_cast<std::uint64_t>(grid.dims) + 4) * ctx.graphs.All().size();
  if (auto refused = LeaseForRequest(ctx.memory, "this GW query", bytes, lease)) return refused;
  Result<SummaryPoints> loaded = LoadSummaryPoints(ctx, grid);
  if (!loaded.ok()) return StoreRefusal(loaded.status());
  *points = std::move(loaded).value();
  return std::nullopt;
}

// POST /v1/admin/gw between two summary graphs: of the same grid, their
// points denoised together with every other report of that grid.
HttpResponse SummaryPair(ServiceContext& ctx, std::uint64_t a, std::uint64_t b, const EmbeddingPolicy& grid,
                         const EmbeddingPolicy& other, double alpha) {
  if (!SameSummaryGrid(grid, other)) {
    return ErrorResponse(409, "different_grids",
                         "graphs " + std::to_string(a) + " and " + std::to_string(b) +
                             " are summarised on different grids (dims, epsilon, bins or size range): "
                             "their points do not compare");
  }
  const auto start = std::chrono::steady_clock::now();
  MemoryBudget::Lease lease;
  SummaryPoints points;
  if (auto refused = LeasedSummaryPoints(ctx, grid, &lease, &points)) return *refused;
  Refusal refusal;
  std::optional<GraphSpace> x = SummarySpaceOf(points, a, &refusal);
  if (!x) return Refuse(refusal);
  std::optional<GraphSpace> y = SummarySpaceOf(points, b, &refusal);
  if (!y) return Refuse(refusal);
  Result<double> gw = Discrepancy(*x, *y, alpha);
  if (!gw.ok()) return ErrorResponse(500, "internal", gw.status().message());
  json out = {{"a", a},
              {"b", b},
              {"gw", *gw},
              {"encoding", "summary"},
              {"denoised_with", points.ids.size()},
              {"seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()}};
  return JsonResponse(200, out.dump());
}

HttpResponse Pair(ServiceContext& ctx, const HttpRequest& request) {
  Refusal refusal;
  json body;
  if (auto refused = ReadJsonBody(request.body, {"a", "b", "alpha"}, &body)) return *refused;
  std::uint64_t a = 0, b = 0;
  double alpha = 0;
  if (!GraphId(body, "a", &a) || !GraphId(body, "b", &b)) {
    return ErrorResponse(400, "invalid_request", "\"a\" and \"b\" must be graph ids (unsigned integers)");
  }
  if (!Alpha(body, &alpha)) return ErrorResponse(400, "invalid_request", "\"alpha\" must be a number in [0, 1]");
  {
    std::optional<EmbeddingPolicy> ea = EmbeddingOf(ctx, a, &refusal);
    if (!ea) return Refuse(refusal);
    std::optional<EmbeddingPolicy> eb = EmbeddingOf(ctx, b, &refusal);
    if (!eb) return Refuse(refusal);
    if (IsSummary(*ea) || IsSummary(*eb)) {
      if (IsSummary(*ea) != IsSummary(*eb)) {
        return ErrorResponse(409, "different_encodings",
                             "one graph sent a summary, the other its embeddings' rows: they do not compare");
      }
      return SummaryPair(ctx, a, b, *ea, *eb, alpha);
    }
  }
  std::uint64_t users_a = 0, users_b = 0;
  if (auto large = GwSize(ctx, a, &users_a)) return *large;
  if (auto large = GwSize(ctx, b, &users_b)) return *large;
  MemoryBudget::Lease lease;
  if (auto refused = LeaseForRequest(ctx.memory, "this GW query", GwMemoryEstimate(users_a, users_b), &lease)) {
    return *refused;
  }
  const auto start = std::chrono::steady_clock::now();
  Result<GraphSpace> x = LoadSpace(ctx, a, &refusal);
  if (!x.ok()) return Refuse(refusal);
  Result<GraphSpace> y = LoadSpace(ctx, b, &refusal);
  if (!y.ok()) return Refuse(refusal);
  Result<double> gw = Discrepancy(*x, *y, alpha);
  if (!gw.ok()) return ErrorResponse(500, "internal", gw.status().message());
  json out = {{"a", a},
              {"b", b},
              {"gw", *gw},
              {"nodes_a", x->structure.rows()},
              {"nodes_b", y->structure.rows()},
              {"encoding", "multibit"},
              {"seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()}};
  return JsonResponse(200, out.dump());
}

using Found = std::vector<std::pair<double, std::uint64_t>>;

// The summary graphs of `grid` other than `id`, by GW to it (its grid's points).
std::optional<HttpResponse> NearestSummaries(ServiceContext& ctx, std::uint64_t id, const EmbeddingPolicy& grid,
                                             double alpha, Found* found) {
  MemoryBudget::Lease lease;
  SummaryPoints points;
  if (auto refused = LeasedSummaryPoints(ctx, grid, &lease, &points)) return *refused;
  Refusal refusal;
  std::optional<GraphSpace> query = SummarySpaceOf(points, id, &refusal);
  if (!query) return Refuse(refusal);
  for (std::size_t row = 0; row < points.ids.size(); ++row) {
    if (points.ids[row] == id) continue;
    Result<double> gw = Discrepancy(*query, SummarySpace(points.points.row(static_cast<Eigen::Index>(row))), alpha);
    if (!gw.ok()) return ErrorResponse(500, "internal", gw.status().message());
    found->emplace_back(*gw, points.ids[row]);
  }
  return std::nullopt;
}

// The multi-bit embedding graphs other than `id`, by GW to it; those too
// large to compare are left out (and listed), not allowed to make every
// query as slow as they would be.
std::optional<HttpResponse> NearestEmbeddings(ServiceContext& ctx, std::uint64_t id, double alpha, Found* found,
                                              json* too_large) {
  std::uint64_t users = 0;
  if (auto large = GwSize(ctx, id, &users)) return *large;
  std::vector<std::uint64_t> comparable;
  std::uint64_t largest = 0;
  for (const auto& graph : ctx.graphs.All()) {
    const EmbeddingPolicy& e = graph->config.embedding;
    if (graph->config.graph_id == id || !e.enabled || IsSummary(e)) continue;
    if (graph->config.num_users > ctx.gw_max_nodes) {
      too_large->push_back(graph->config.graph_id);
    } else {
      comparable.push_back(graph->config.graph_id);
      largest = std::max<std::uint64_t>(largest, graph->config.num_users);
    }
  }
  MemoryBudget::Lease lease;
  if (auto refused = LeaseForRequest(ctx.memory, "this GW query", GwMemoryEstimate(users, largest), &lease)) {
    return *refused;
  }
  Refusal refusal;
  Result<GraphSpace> query = LoadSpace(ctx, id, &refusal);
  if (!query.ok()) return Refuse(refusal);
  for (std::uint64_t other : comparable) {
    // A query over many graphs must not hold up the daemon's stop.
    if (ctx.draining.load()) return ErrorResponse(503, "draining", "the daemon is stopping");
    Refusal skipped;
    Result<GraphSpace> space = LoadSpace(ctx, other, &skipped);
    if (!space.ok()) {
      if (skipped.status == 409) continue;  // not reported yet
      return Refuse(skipped);
    }
    Result<double> gw = Discrepancy(*query, *space, alpha);
    if (!gw.ok()) return ErrorResponse(500, "internal", gw.status().message());
    found->emplace_back(*gw, other);
  }
  return std::nullopt;
}

HttpResponse Nearest(ServiceContext& ctx, const HttpRequest& request) {
  Refusal refusal;
  json body;
  if (auto refused = ReadJsonBody(request.body, {"graph", "k", "alpha", "among"}, &body)) return *refused;
  std::uint64_t id = 0;
  double alpha = 0;
  if (!GraphId(body, "graph", &id)) return ErrorResponse(400, "invalid_request", "\"graph\" must be a graph id");
  // "labelled": only graphs with a label vote and are listed (k-NN
  // classification, as `ldpgraph gw` scores it); "all" (the default): every
  // graph that has reported.
  bool labelled_only = false;
  if (body.contains("among")) {
    const json& among = body["among"];
    if (!among.is_string() || (among != "all" && among != "labelled")) {
      return ErrorResponse(400, "invalid_request", "\"among\" must be \"all\" or \"labelled\"");
    }
    labelled_only = among == "labelled";
  }
  if (!Alpha(body, &alpha)) return ErrorResponse(400, "invalid_request", "\"alpha\" must be a number in [0, 1]");
  std::uint64_t k = 5;
  if (body.contains("k")) {
    const json& k_value = body["k"];
    if (!k_value.is_number_unsigned() || k_value.get<std::uint64_t>() < 1 || k_value.get<std::uint64_t>() > 10000) {
      return ErrorResponse(400, "invalid_request", "\"k\" must be an integer in [1, 10000]");
    }
    k = k_value.get<std::uint64_t>();
  }
  std::optional<EmbeddingPolicy> policy = EmbeddingOf(ctx, id, &refusal);
  if (!policy) return Refuse(refusal);
  Found found;
  json too_large = json::array();
  const bool summary = IsSummary(*policy);
  if (auto refused = summary ? NearestSummaries(ctx, id, *policy, alpha, &found)
                             : NearestEmbeddings(ctx, id, alpha, &found, &too_large)) {
    return *refused;
  }
  Result<std::map<std::uint64_t, std::uint32_t>> labels = ctx.store->GraphLabels();
  if (!labels.ok()) return ErrorResponse(503, "unavailable", labels.status().message());
  if (labelled_only) {
    found.erase(std::remove_if(found.begin(), found.end(),
                               [&](const std::pair<double, std::uint64_t>& f) { return !labels->count(f.second); }),
                found.end());
  }
  // By discrepancy, then id: `ldpgraph gw`'s k-NN order (gw/kernel_svm.h).
  std::sort(found.begin(), found.end());
  json nearest = json::array();
  std::map<std::uint32_t, int> votes;
  for (std::size_t i = 0; i < found.size() && i < k; ++i) {
    json item = {{"graph", found[i].second}, {"gw", found[i].first}};
    auto label = labels->find(found[i].second);
    if (label != labels->end()) {
      item["label"] = label->second;
      ++votes[label->second];
    }
    nearest.push_back(item);
  }
  json out = {{"graph", id},
              {"compared", found.size()},
              {"encoding", EmbeddingEncodingName(policy->encoding)},
              {"nearest", nearest}};
  if (!too_large.empty()) out["skipped_too_large"] = too_large;
  if (!votes.empty()) {
    auto best = votes.begin();  // ties: the smaller label
    for (auto it = votes.begin(); it != votes.end(); ++it) {
      if (it->second > best->second) best = it;
    }
    out["predicted_label"] = best->first;
  }
  return JsonResponse(200, out.dump());
}

}  // namespace

namespace {

constexpr const char* kPairPath = "/v1/admin/gw";
constexpr const char* kNearestPath = "/v1/admin/gw/nearest";

}  // namespace

bool IsGwPath(const std::string& path) { return path == kPairPath || path == kNearestPath; }

std::optional<HttpResponse> HandleGw(ServiceContext& ctx, const HttpRequest& request, const std::string& path) {
  if (path == kPairPath) {
    if (request.method != "POST") return MethodNotAllowed(request, path, "POST");
    return Pair(ctx, request);
  }
  if (path == kNearestPath) {
    if (request.method != "POST") return MethodNotAllowed(request, path, "POST");
    return Nearest(ctx, request);
  }
  return std::nullopt;
}

}  // namespace ldpgraph
