// The C ABI over the C++ SDK. No C++ type or error crosses this boundary.
#include "ldpgraph/edge_randomizers.h"
#include "ldpgraph/ldpgraph.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>

#include "internal/c_error.h"
#include "ldpgraph/budget_ledger.h"
#include "ldpgraph/graph_config_codec.h"
#include "ldpgraph/label_rr.h"
#include "ldpgraph/random_source.h"
#include "ldpgraph/report_builder.h"
#include "ldpgraph/wire_format.h"

using ldpgraph::Status;

struct ldpgraph_rng {
  std::unique_ptr<ldpgraph::RandomSource> source;
};

struct ldpgraph_graph {
  std::unique_ptr<ldpgraph::ReportBuilder> builder;
  std::unique_ptr<ldpgraph::EdgeRandomizer> edges;  // null for an embedding graph
  ldpgraph::MultiBitEncoder features;
  ldpgraph::LabelRandomizer label;
};

struct ldpgraph_ledger {
  std::unique_ptr<ldpgraph::BudgetLedger> ledger;
};

struct ldpgraph_sink {
  std::vector<std::uint8_t>* bytes;
};

namespace ldpgraph {
namespace internal {
std::string& LastCError() {
#if defined(LDPGRAPH_BARE_METAL)
  static std::string message;  // one thread of control, and no thread-local storage
#else
  thread_local std::string message;
#endif
  return message;
}
}  // namespace internal
}  // namespace ldpgraph

namespace {

ldpgraph_status Fail(ldpgraph_status code, std::string message) {
  ldpgraph::internal::LastCError() = std::move(message);
  return code;
}

ldpgraph_status FromStatus(const Status& s) {
  if (s.ok()) return LDPGRAPH_OK;
  return Fail(static_cast<ldpgraph_status>(s.code()), s.message());
}

ldpgraph_status NullArgument(const char* name) {
  return Fail(LDPGRAPH_INVALID_ARGUMENT, std::string(name) + " must not be NULL");
}

ldpgraph::UserData ToUserData(const ldpgraph_user_data& u) {
  ldpgraph::UserData d;
  d.user_id = u.user_id;
  d.neighbours = ldpgraph::Span<const std::uint32_t>(u.neighbours, u.neighbours ? u.neighbour_count : 0);
  d.features = ldpgraph::Span<const double>(u.features, u.features ? u.feature_count : 0);
  d.has_label = u.has_label != 0;
  d.label = u.label;
  return d;
}

ldpgraph_status CheckUser(const ldpgraph_user_data* user) {
  if (user == nullptr) return NullArgument("user");
  if (user->neighbours == nullptr && user->neighbour_count != 0) return NullArgument("user->neighbours");
  if (user->features == nullptr && user->feature_count != 0) return NullArgument("user->features");
  return LDPGRAPH_OK;
}

}  // namespace

extern "C" {

const char* ldpgraph_last_error(void) { return ldpgraph::internal::LastCError().c_str(); }

#if !defined(LDPGRAPH_BARE_METAL)
ldpgraph_status ldpgraph_rng_new_os(ldpgraph_rng** out) {
  if (out == nullptr) return NullArgument("out");
  auto source = ldpgraph::OsRandomSource::Create();
  if (!source.ok()) return FromStatus(source.status());
  *out = new ldpgraph_rng{std::move(source).value()};
  return LDPGRAPH_OK;
}
#endif

ldpgraph_status ldpgraph_rng_new_chacha20(const uint8_t key[32], uint64_t stream, ldpgraph_rng** out) {
  if (key == nullptr) return NullArgument("key");
  if (out == nullptr) return NullArgument("out");
  std::uint8_t copy[32];
  std::memcpy(copy, key, sizeof copy);
  *out = new ldpgraph_rng{std::make_unique<ldpgraph::ChaCha20RandomSource>(copy, stream)};
  return LDPGRAPH_OK;
}

ldpgraph_status ldpgraph_rng_new_callback(ldpgraph_fill_random fill, void* context, ldpgraph_rng** out) {
  if (fill == nullptr) return NullArgument("fill");
  if (out == nullptr) return NullArgument("out");
  *out = new ldpgraph_rng{std::make_unique<ldpgraph::CallbackRandomSource>(fill, context)};
  return LDPGRAPH_OK;
}

ldpgraph_status ldpgraph_rng_new_seeded_not_private(uint64_t seed, ldpgraph_rng** out) {
  if (out == nullptr) return NullArgument("out");
  *out = new ldpgraph_rng{std::make_unique<ldpgraph::SeededRandomSource>(seed)};
  return LDPGRAPH_OK;
}

void ldpgraph_rng_free(ldpgraph_rng* rng) { delete rng; }

void ldpgraph_graph_params_init(ldpgraph_graph_params* p) {
  if (p == nullptr) return;
  std::memset(p, 0, sizeof *p);
  p->struct_size = sizeof *p;
  p->edge_mechanism = LDPGRAPH_EDGES_DPRR;
  p->allocation = LDPGRAPH_ALLOCATION_PAPER;
  p->edge_epsilon = 1.0;
  p->feature_epsilon = 1.0;
  p->feature_lo = 0.0;
  p->feature_hi = 1.0;
  p->label_epsilon = 1.0;
}

namespace {

// A graph handle for a configuration ReportBuilder accepts.
ldpgraph_status MakeGraph(const ldpgraph::GraphConfig& c, ldpgraph_graph** out) {
  auto builder = ldpgraph::ReportBuilder::Create(c);
  if (!builder.ok()) return FromStatus(builder.status());
  auto g = std::make_unique<ldpgraph_graph>();
  g->builder = std::move(builder).value();
  if (!c.embedding.enabled) {  // an embedding graph takes no edges: its edge policy is unused
    auto edges = ldpgraph::MakeEdgeRandomizer(c.num_users, c.edges);
    if (!edges.ok()) return FromStatus(edges.status());
    g->edges = std::move(edges).value();
  }
  if (c.features.enabled) g->features = *ldpgraph::MultiBitEncoder::Create(c.features.params);
  if (c.label.enabled) g->label = *ldpgraph::LabelRandomizer::Create(c.label.classes, c.label.epsilon);
  *out = g.release();
  return LDPGRAPH_OK;
}

}  // namespace

ldpgraph_status ldpgraph_graph_new(const ldpgraph_graph_params* p, ldpgraph_graph** out) {
  if (p == nullptr) return NullArgument("params");
  if (out == nullptr) return NullArgument("out");
  if (p->struct_size != sizeof *p) {
    return Fail(LDPGRAPH_INVALID_ARGUMENT,
                "params->struct_size does not match this library: call ldpgraph_graph_params_init");
  }
  if (p->edge_mechanism > LDPGRAPH_EDGES_RR_DEGREE) {
    return Fail(LDPGRAPH_INVALID_ARGUMENT, "unknown edge mechanism " + std::to_string(p->edge_mechanism));
  }
  if (p->allocation > LDPGRAPH_ALLOCATION_FIXED) {
    return Fail(LDPGRAPH_INVALID_ARGUMENT, "unknown allocation " + std::to_string(p->allocation));
  }
  ldpgraph::GraphConfig c;
  c.graph_id = p->graph_id;
  c.num_users = p->num_users;
  c.edges.mechanism = static_cast<ldpgraph::EdgeMechanism>(p->edge_mechanism);
  c.edges.allocation = static_cast<ldpgraph::BudgetAllocation>(p->allocation);
  c.edges.epsilon = p->edge_epsilon;
  c.edges.n_max = p->n_max;
  c.features.enabled = p->feature_dims > 0;
  c.features.params.dims = p->feature_dims;
  c.features.params.epsilon = p->feature_epsilon;
  c.features.params.ranges = {ldpgraph::FeatureRange{p->feature_lo, p->feature_hi}};
  c.label.enabled = p->classes > 0;
  c.label.classes = p->classes;
  c.label.epsilon = p->label_epsilon;
  return MakeGraph(c, out);
}

ldpgraph_status ldpgraph_graph_from_config(const uint8_t* config, size_t config_len, ldpgraph_graph** out) {
  if (config == nullptr) return NullArgument("config");
  if (out == nullptr) return NullArgument("out");
  auto decoded = ldpgraph::DecodeGraphConfig(config, config_len);
  if (!decoded.ok()) return FromStatus(decoded.status());
  return MakeGraph(*decoded, out);
}

uint64_t ldpgraph_graph_id(const ldpgraph_graph* g) { return g ? g->builder->config().graph_id : 0; }

uint32_t ldpgraph_graph_num_users(const ldpgraph_graph* g) { return g ? g->builder->config().num_users : 0; }

void ldpgraph_graph_free(ldpgraph_graph* graph) { delete graph; }

size_t ldpgraph_graph_max_neighbours(const ldpgraph_graph* g) {
  return g && g->edges ? g->edges->max_output_neighbours() : 0;
}

size_t ldpgraph_graph_encoded_features(const ldpgraph_graph* g) {
  return g && g->builder->config().features.enabled ? g->features.sampled_dims() : 0;
}

uint32_t ldpgraph_graph_embedding_dims(const ldpgraph_graph* g) {
  return g && g->builder->config().embedding.enabled ? g->builder->config().embedding.dims : 0;
}

size_t ldpgraph_graph_max_report_bytes(const ldpgraph_graph* g) {
  if (g == nullptr) return 0;
  const ldpgraph::GraphConfig& c = g->builder->config();
  if (c.embedding.enabled) {
    // Header, ids, epsilons and label; a summary's three varints; or n
    // rows of m pairs, 5 bytes each at most.
    std::uint64_t bytes = 128;
    if (c.embedding.encoding == ldpgraph::EmbeddingEncoding::kMultiBit) {
      const ldpgraph::EmbeddingParams p = c.embedding.RowsParams(c.num_users);
      bytes += 5 * static_cast<std::uint64_t>(c.num_users) * p.RowParams().sampled_dims;
    }
    return bytes > SIZE_MAX ? SIZE_MAX : static_cast<size_t>(bytes);
  }
  const std::uint64_t others = c.num_users - 1;
  // Header, ids and mechanism parameters, then the worst case per item:
  // 5 bytes per 32-bit varint, 10 per 64-bit zigzag value. Counted in 64
  // bits: on a 32-bit device a large graph's bound does not fit size_t.
  std::uint64_t bytes = 128 + (c.edges.mechanism == ldpgraph::EdgeMechanism::kLocalLap ? 10 : 5) * others;
  if (c.features.enabled) bytes += 32 + 5 * static_cast<std::uint64_t>(g->features.sampled_dims());
  if (c.label.enabled) bytes += 32;
  return bytes > SIZE_MAX ? SIZE_MAX : static_cast<size_t>(bytes);
}

ldpgraph_status ldpgraph_perturb_edges(const ldpgraph_graph* g, ldpgraph_rng* rng, uint32_t user,
                                       const uint32_t* neighbours, size_t count, uint32_t* out,
                                       size_t out_capacity, size_t* out_count) {
  if (g == nullptr) return NullArgument("graph");
  if (rng == nullptr) return NullArgument("rng");
  if (neighbours == nullptr && count != 0) return NullArgument("neighbours");
  if (out == nullptr) return NullArgument("out");
  if (out_count == nullptr) return NullArgument("out_count");
  if (g->builder->config().embedding.enabled) {
    return Fail(LDPGRAPH_FAILED_PRECONDITION, "an embedding graph takes no edges: use ldpgraph_ledger_report_embedding");
  }
  if (g->edges->mechanism() == ldpgraph::EdgeMechanism::kLocalLap) {
    return Fail(LDPGRAPH_FAILED_PRECONDITION, "LocalLap outputs no neighbour list: build a report");
  }
  *out_count = g->edges->max_output_neighbours();
  if (out_capacity < *out_count) {
    return Fail(LDPGRAPH_BUFFER_TOO_SMALL, "out_capacity must be at least n - 1 = " +
                                               std::to_string(*out_count));
  }
  ldpgraph::NoisyEdges noisy;
  Status s = g->edges->Perturb(user, {neighbours, count}, *rng->source, &noisy);
  if (!s.ok()) return FromStatus(s);
  // std::copy, not memcpy: an empty vector's data() may be null.
  std::copy(noisy.neighbours.begin(), noisy.neighbours.end(), out);
  *out_count = noisy.neighbours.size();
  return LDPGRAPH_OK;
}

ldpgraph_status ldpgraph_encode_features(const ldpgraph_graph* g, ldpgraph_rng* rng,
                                         const double* features, size_t dims, uint32_t* out_index,
                                         int8_t* out_sign, size_t out_capacity, size_t* out_count) {
  if (g == nullptr) return NullArgument("graph");
  if (rng == nullptr) return NullArgument("rng");
  if (features == nullptr && dims != 0) return NullArgument("features");
  if (out_index == nullptr || out_sign == nullptr) return NullArgument("out_index/out_sign");
  if (out_count == nullptr) return NullArgument("out_count");
  if (!g->builder->config().features.enabled) {
    return Fail(LDPGRAPH_FAILED_PRECONDITION, "this graph collects no features");
  }
  *out_count = g->features.sampled_dims();
  if (out_capacity < *out_count) {
    return Fail(LDPGRAPH_BUFFER_TOO_SMALL, "out_capacity must be at least m = " +
                                               std::to_string(*out_count));
  }
  std::vector<ldpgraph::EncodedFeature> encoded;
  Status s = g->features.Encode({features, dims}, *rng->source, &encoded);
  if (!s.ok()) return FromStatus(s);
  for (size_t i = 0; i < encoded.size(); ++i) {
    out_index[i] = encoded[i].index;
    out_sign[i] = encoded[i].sign;
  }
  *out_count = encoded.size();
  return LDPGRAPH_OK;
}

ldpgraph_status ldpgraph_perturb_label(const ldpgraph_graph* g, ldpgraph_rng* rng, uint32_t label,
                                       uint32_t* out_label) {
  if (g == nullptr) return NullArgument("graph");
  if (rng == nullptr) return NullArgument("rng");
  if (out_label == nullptr) return NullArgument("out_label");
  if (!g->builder->config().label.enabled) {
    return Fail(LDPGRAPH_FAILED_PRECONDITION, "this graph collects no label");
  }
  auto y = g->label.Perturb(label, *rng->source);
  if (!y.ok()) return FromStatus(y.status());
  *out_label = *y;
  return LDPGRAPH_OK;
}

ldpgraph_status ldpgraph_report_new(const ldpgraph_graph* g, ldpgraph_rng* rng,
                                    const ldpgraph_user_data* user, uint8_t* out,
                                    size_t out_capacity, size_t* out_len) {
  if (g == nullptr) return NullArgument("graph");
  if (rng == nullptr) return NullArgument("rng");
  if (ldpgraph_status s = CheckUser(user); s != LDPGRAPH_OK) return s;
  if (out == nullptr) return NullArgument("out");
  if (out_len == nullptr) return NullArgument("out_len");
  *out_len = ldpgraph_graph_max_report_bytes(g);
  if (out_capacity < *out_len) {
    return Fail(LDPGRAPH_BUFFER_TOO_SMALL, "out_capacity must be at least " +
                                               std::to_string(*out_len) + " bytes");
  }
  auto report = g->builder->Build(ToUserData(*user), *rng->source);
  if (!report.ok()) return FromStatus(report.status());
  std::vector<std::uint8_t> bytes;
  if (Status s = ldpgraph::EncodeReport(*report, &bytes); !s.ok()) return FromStatus(s);
  std::copy(bytes.begin(), bytes.end(), out);
  *out_len = bytes.size();
  return LDPGRAPH_OK;
}

void ldpgraph_sink_append(ldpgraph_sink* sink, const uint8_t* data, size_t len) {
  if (sink == nullptr || data == nullptr) return;
  sink->bytes->insert(sink->bytes->end(), data, data + len);
}

ldpgraph_status ldpgraph_ledger_open(const ldpgraph_ledger_callbacks* cb, double epsilon_cap,
                                     ldpgraph_ledger** out) {
  if (cb == nullptr || cb->load == nullptr || cb->store == nullptr) return NullArgument("callbacks");
  if (out == nullptr) return NullArgument("out");
  ldpgraph::LedgerStorage storage;
  const ldpgraph_ledger_callbacks callbacks = *cb;
  storage.load = [callbacks](std::vector<std::uint8_t>* state) {
    state->clear();
    ldpgraph_sink sink{state};
    if (callbacks.load(callbacks.context, &sink) != 0) {
      return Status::Unavailable("the app's ledger load callback failed");
    }
    return Status::Ok();
  };
  storage.store = [callbacks](const std::vector<std::uint8_t>& state) {
    if (callbacks.store(callbacks.context, state.data(), state.size()) != 0) {
      return Status::Unavailable("the app's ledger store callback failed");
    }
    return Status::Ok();
  };
  auto ledger = ldpgraph::BudgetLedger::Open(std::move(storage), epsilon_cap);
  if (!ledger.ok()) return FromStatus(ledger.status());
  *out = new ldpgraph_ledger{std::move(ledger).value()};
  return LDPGRAPH_OK;
}

#if !defined(LDPGRAPH_BARE_METAL)
ldpgraph_status ldpgraph_ledger_open_file(const char* path, double epsilon_cap,
                                          ldpgraph_ledger** out) {
  if (path == nullptr) return NullArgument("path");
  if (out == nullptr) return NullArgument("out");
  auto ledger = ldpgraph::BudgetLedger::Open(ldpgraph::FileLedgerStorage(path), epsilon_cap);
  if (!ledger.ok()) return FromStatus(ledger.status());
  *out = new ldpgraph_ledger{std::move(ledger).value()};
  return LDPGRAPH_OK;
}
#endif

void ldpgraph_ledger_free(ldpgraph_ledger* ledger) { delete ledger; }

double ldpgraph_ledger_spent(const ldpgraph_ledger* ledger) {
  return ledger ? ledger->ledger->spent() : NAN;
}

// The arguments every ledger report call checks first.
static ldpgraph_status CheckLedgerCall(const ldpgraph_ledger* ledger, const ldpgraph_graph* g, const ldpgraph_rng* rng,
                                       const ldpgraph_user_data* user, const uint8_t* out, size_t out_capacity,
                                       const size_t* out_len) {
  if (ledger == nullptr) return NullArgument("ledger");
  if (g == nullptr) return NullArgument("graph");
  if (rng == nullptr) return NullArgument("rng");
  if (ldpgraph_status s = CheckUser(user); s != LDPGRAPH_OK) return s;
  if (out == nullptr && out_capacity != 0) return NullArgument("out");
  if (out_len == nullptr) return NullArgument("out_len");
  return LDPGRAPH_OK;
}

// Hands the ledger's recorded bytes to the caller's buffer.
static ldpgraph_status CopyRecorded(const ldpgraph::Result<std::vector<std::uint8_t>>& bytes, uint8_t* out,
                                    size_t out_capacity, size_t* out_len) {
  if (!bytes.ok()) return FromStatus(bytes.status());
  *out_len = bytes->size();
  if (out_capacity < bytes->size()) {
    return Fail(LDPGRAPH_BUFFER_TOO_SMALL, "the report needs " + std::to_string(bytes->size()) +
                                               " bytes; it is recorded, call again");
  }
  std::copy(bytes->begin(), bytes->end(), out);
  return LDPGRAPH_OK;
}

ldpgraph_status ldpgraph_ledger_report(ldpgraph_ledger* ledger, const ldpgraph_graph* g,
                                       ldpgraph_rng* rng, const ldpgraph_user_data* user,
                                       uint8_t* out, size_t out_capacity, size_t* out_len) {
  if (ldpgraph_status s = CheckLedgerCall(ledger, g, rng, user, out, out_capacity, out_len); s != LDPGRAPH_OK) {
    return s;
  }
  const ldpgraph::UserData data = ToUserData(*user);
  auto bytes = ledger->ledger->ReportOnce(
      g->builder->config().graph_id, [&]() -> ldpgraph::Result<ldpgraph::BudgetLedger::NewReport> {
        auto report = g->builder->Build(data, *rng->source);
        if (!report.ok()) return report.status();
        ldpgraph::BudgetLedger::NewReport made;
        LDPGRAPH_RETURN_IF_ERROR(ldpgraph::EncodeReport(*report, &made.bytes));
        made.epsilon = ldpgraph::ReportEpsilon(*report);
        return made;
      });
  return CopyRecorded(bytes, out, out_capacity, out_len);
}

ldpgraph_status ldpgraph_ledger_report_round(ldpgraph_ledger* ledger, const ldpgraph_graph* g, ldpgraph_rng* rng,
                                             const ldpgraph_user_data* user, uint64_t round, uint8_t* out,
                                             size_t out_capacity, size_t* out_len) {
  if (ldpgraph_status s = CheckLedgerCall(ledger, g, rng, user, out, out_capacity, out_len); s != LDPGRAPH_OK) {
    return s;
  }
  return CopyRecorded(ledger->ledger->ReportRound(*g->builder, ToUserData(*user), round, *rng->source), out,
                      out_capacity, out_len);
}

ldpgraph_status ldpgraph_ledger_report_embedding(ldpgraph_ledger* ledger, const ldpgraph_graph* g, ldpgraph_rng* rng,
                                                 const double* h, size_t rows, size_t dims, int has_label,
                                                 uint32_t label, uint8_t* out, size_t out_capacity, size_t* out_len) {
  if (ledger == nullptr) return NullArgument("ledger");
  if (g == nullptr) return NullArgument("graph");
  if (rng == nullptr) return NullArgument("rng");
  if (h == nullptr && rows != 0) return NullArgument("h");
  if (out == nullptr && out_capacity != 0) return NullArgument("out");
  if (out_len == nullptr) return NullArgument("out_len");
  const ldpgraph::GraphConfig& c = g->builder->config();
  if (!c.embedding.enabled) {
    return Fail(LDPGRAPH_FAILED_PRECONDITION, "graph " + std::to_string(c.graph_id) +
                                                  " takes users' reports, not embeddings: use ldpgraph_ledger_report");
  }
  if (dims != c.embedding.dims) {
    return Fail(LDPGRAPH_INVALID_ARGUMENT, "graph " + std::to_string(c.graph_id) + " has embeddings of " +
                                               std::to_string(c.embedding.dims) + " columns, got " +
                                               std::to_string(dims));
  }
  if (rows != 0 && dims > SIZE_MAX / rows) return Fail(LDPGRAPH_INVALID_ARGUMENT, "rows x dims overflows");
  const ldpgraph::Span<const double> values(h, rows * dims);
  auto bytes = ledger->ledger->ReportOnce(c.graph_id, [&]() -> ldpgraph::Result<ldpgraph::BudgetLedger::NewReport> {
    auto report = g->builder->BuildEmbedding(values, has_label != 0, label, *rng->source);
    if (!report.ok()) return report.status();
    ldpgraph::BudgetLedger::NewReport made;
    LDPGRAPH_RETURN_IF_ERROR(ldpgraph::EncodeReport(*report, &made.bytes));
    made.epsilon = ldpgraph::ReportEpsilon(*report);
    return made;
  });
  return CopyRecorded(bytes, out, out_capacity, out_len);
}

ldpgraph_status ldpgraph_ledger_loss(const ldpgraph_ledger* ledger, uint64_t graph_id, ldpgraph_loss* out) {
  if (ledger == nullptr) return NullArgument("ledger");
  if (out == nullptr) return NullArgument("out");
  auto loss = ledger->ledger->Loss(graph_id);
  if (!loss.ok()) return FromStatus(loss.status());
  *out = ldpgraph_loss{loss->epsilon,      loss->naive_epsilon,   loss->rounds,     loss->last_round,
                       loss->parts.edges, loss->parts.features, loss->parts.label};
  return LDPGRAPH_OK;
}

}  // extern "C"
