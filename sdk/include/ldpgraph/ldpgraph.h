/* ldpgraph C ABI: the SDK for JNI, Swift and plain C firmware.
 *
 * Conventions: every function returns an ldpgraph_status (0 = OK); on failure
 * ldpgraph_last_error() gives a message for the calling thread. Objects are
 * opaque handles created by *_new and released by *_free (NULL is accepted).
 * Outputs go to caller-provided buffers whose required sizes are published
 * up front, so a call never randomizes and then fails for lack of room.
 * Thread-safety: a graph handle may be shared between threads; an rng handle
 * may not; a ledger handle may (it locks).
 */
#ifndef LDPGRAPH_LDPGRAPH_H_
#define LDPGRAPH_LDPGRAPH_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ldpgraph_status {
  LDPGRAPH_OK = 0,
  LDPGRAPH_INVALID_ARGUMENT = 1,
  LDPGRAPH_OUT_OF_RANGE = 2,
  LDPGRAPH_FAILED_PRECONDITION = 3,
  LDPGRAPH_RESOURCE_EXHAUSTED = 4, /* the ledger's epsilon cap */
  LDPGRAPH_DATA_LOSS = 5,          /* corrupt stored ledger */
  LDPGRAPH_UNAVAILABLE = 6,        /* OS randomness or storage failed */
  LDPGRAPH_INTERNAL = 7,
  LDPGRAPH_BUFFER_TOO_SMALL = 100  /* *out_len or *out_count: size needed */
} ldpgraph_status;

/* The message of the last failure on this thread ("" if none). Valid until
 * the next ldpgraph call on this thread. */
const char* ldpgraph_last_error(void);

/* ---- Randomness ------------------------------------------------------- */
typedef struct ldpgraph_rng ldpgraph_rng;
/* The OS CSPRNG (getrandom). Use this for real users. Not in bare-metal
 * builds (no OS): use one of the next two there. */
ldpgraph_status ldpgraph_rng_new_os(ldpgraph_rng** out);
/* ChaCha20 keyed once (RFC 8439; random_source.h says how the words are
 * drawn): key it from a TRNG at every boot, or from a provisioned key with a
 * `stream` number never used twice. The key is copied. */
ldpgraph_status ldpgraph_rng_new_chacha20(const uint8_t key[32], uint64_t stream, ldpgraph_rng** out);
/* A device's TRNG: `fill` writes `len` uniformly random bytes and must not
 * fail (halt the device rather than return weak bits). */
typedef void (*ldpgraph_fill_random)(void* context, uint8_t* out, size_t len);
ldpgraph_status ldpgraph_rng_new_callback(ldpgraph_fill_random fill, void* context, ldpgraph_rng** out);
/* Deterministic, for tests only: NOT private. */
ldpgraph_status ldpgraph_rng_new_seeded_not_private(uint64_t seed, ldpgraph_rng** out);
void ldpgraph_rng_free(ldpgraph_rng* rng);

/* ---- Graph configuration (public, served by the daemon) ---------------- */
enum {
  LDPGRAPH_EDGES_NONE = 0, /* non-private user: sends her true list */
  LDPGRAPH_EDGES_DPRR = 1,
  LDPGRAPH_EDGES_RR = 2,
  LDPGRAPH_EDGES_LOCALLAP = 3,
  LDPGRAPH_EDGES_RR_DEGREE = 4 /* RR with the degree (link LDP): the server denoises it */
};
enum { LDPGRAPH_ALLOCATION_PAPER = 0, LDPGRAPH_ALLOCATION_FIXED = 1 };

typedef struct ldpgraph_graph_params {
  uint32_t struct_size; /* = sizeof(ldpgraph_graph_params); set by _init */
  uint64_t graph_id;
  uint32_t num_users;   /* n >= 2 */
  uint32_t n_max;       /* largest graph of the deployment; 0 = n */
  uint32_t edge_mechanism;
  uint32_t allocation;
  double edge_epsilon;
  uint32_t feature_dims; /* 0: the graph collects no features */
  double feature_epsilon;
  double feature_lo, feature_hi; /* one range for every dimension */
  uint32_t classes;      /* 0: the graph collects no label */
  double label_epsilon;
} ldpgraph_graph_params;

/* Defaults: DPRR, paper allocation, epsilon 1, no features, no label. */
void ldpgraph_graph_params_init(ldpgraph_graph_params* params);

typedef struct ldpgraph_graph ldpgraph_graph;
ldpgraph_status ldpgraph_graph_new(const ldpgraph_graph_params* params, ldpgraph_graph** out);
void ldpgraph_graph_free(ldpgraph_graph* graph);
/* The graph as the daemon serves it, from its binary configuration
 * (GET /v1/graphs/{id} with Accept: application/x-ldpgraph-config, or
 * ldpgraph_uploader_fetch_config). LDPGRAPH_INVALID_ARGUMENT names what does
 * not decode. An embedding graph (GW-LDP) takes only
 * ldpgraph_ledger_report_embedding. */
ldpgraph_status ldpgraph_graph_from_config(const uint8_t* config, size_t config_len, ldpgraph_graph** out);
uint64_t ldpgraph_graph_id(const ldpgraph_graph* graph);
uint32_t ldpgraph_graph_num_users(const ldpgraph_graph* graph);
/* Capacity ldpgraph_perturb_edges needs: n - 1. */
size_t ldpgraph_graph_max_neighbours(const ldpgraph_graph* graph);
/* Capacity ldpgraph_encode_features needs: m of the multi-bit encoder. */
size_t ldpgraph_graph_encoded_features(const ldpgraph_graph* graph);
/* Capacity ldpgraph_report_new (or for an embedding graph
 * ldpgraph_ledger_report_embedding) needs: an upper bound on the encoded size. */
size_t ldpgraph_graph_max_report_bytes(const ldpgraph_graph* graph);
/* An embedding graph's embedding columns; 0 for a graph of users' reports. */
uint32_t ldpgraph_graph_embedding_dims(const ldpgraph_graph* graph);

/* ---- Single mechanisms ------------------------------------------------- */
/* Randomizes a neighbour list with the graph's edge mechanism (DPRR, RR or
 * none; LocalLap outputs no list: use a report). Output ids are increasing.
 * Requires out_capacity >= ldpgraph_graph_max_neighbours(), checked first. */
ldpgraph_status ldpgraph_perturb_edges(const ldpgraph_graph* graph, ldpgraph_rng* rng,
                                       uint32_t user, const uint32_t* neighbours, size_t count,
                                       uint32_t* out, size_t out_capacity, size_t* out_count);
/* Multi-bit encoding of dims features: out_index/out_sign receive m pairs. */
ldpgraph_status ldpgraph_encode_features(const ldpgraph_graph* graph, ldpgraph_rng* rng,
                                         const double* features, size_t dims, uint32_t* out_index,
                                         int8_t* out_sign, size_t out_capacity, size_t* out_count);
/* k-ary randomized response on a label in [0, classes). */
ldpgraph_status ldpgraph_perturb_label(const ldpgraph_graph* graph, ldpgraph_rng* rng,
                                       uint32_t label, uint32_t* out_label);

/* ---- Reports ------------------------------------------------------------ */
typedef struct ldpgraph_user_data {
  uint32_t user_id;
  const uint32_t* neighbours;
  size_t neighbour_count;
  const double* features; /* feature_dims values, or NULL */
  size_t feature_count;
  int has_label;
  uint32_t label;
} ldpgraph_user_data;

/* Builds and encodes a fresh report (wire format v1). Without a ledger every
 * call spends the budget again: prefer ldpgraph_ledger_report. Requires
 * out_capacity >= ldpgraph_graph_max_report_bytes(), checked first. */
ldpgraph_status ldpgraph_report_new(const ldpgraph_graph* graph, ldpgraph_rng* rng,
                                    const ldpgraph_user_data* user, uint8_t* out,
                                    size_t out_capacity, size_t* out_len);

/* ---- Budget ledger ------------------------------------------------------ */
typedef struct ldpgraph_ledger ldpgraph_ledger;
typedef struct ldpgraph_sink ldpgraph_sink;
/* Appends bytes to a sink handed to a load callback. */
void ldpgraph_sink_append(ldpgraph_sink* sink, const uint8_t* data, size_t len);

typedef struct ldpgraph_ledger_callbacks {
  void* context;
  /* Append the whole stored state to `sink` (nothing if none); 0 on success. */
  int (*load)(void* context, ldpgraph_sink* sink);
  /* Replace the stored state atomically and durably; 0 on success. */
  int (*store)(void* context, const uint8_t* state, size_t len);
} ldpgraph_ledger_callbacks;

/* epsilon_cap: total budget over all graphs; INFINITY for none. */
ldpgraph_status ldpgraph_ledger_open(const ldpgraph_ledger_callbacks* callbacks,
                                     double epsilon_cap, ldpgraph_ledger** out);
/* A ledger in one file (not in bare-metal builds: use the callbacks). */
ldpgraph_status ldpgraph_ledger_open_file(const char* path, double epsilon_cap,
                                          ldpgraph_ledger** out);
void ldpgraph_ledger_free(ldpgraph_ledger* ledger);
double ldpgraph_ledger_spent(const ldpgraph_ledger* ledger);

/* The report for the graph: the bytes sent before if there are any, else a
 * new report, recorded before it is returned. If out_capacity is too small,
 * returns LDPGRAPH_BUFFER_TOO_SMALL with *out_len = the size needed; the
 * report is recorded, so calling again returns the same bytes. */
ldpgraph_status ldpgraph_ledger_report(ldpgraph_ledger* ledger, const ldpgraph_graph* graph,
                                       ldpgraph_rng* rng, const ldpgraph_user_data* user,
                                       uint8_t* out, size_t out_capacity, size_t* out_len);

/* ---- Rounds (docs/rounds.md) ------------------------------------------- */
/* The memoised report of round `round` of the graph: every random choice is
 * a permanent coin of the graph's secret key (drawn from rng at its first
 * round, kept in the ledger), so unchanged data sends the same report and
 * spends nothing more. The same round again returns the same bytes. Rounds
 * only go forward; a graph reported with ldpgraph_ledger_report takes no
 * rounds (LDPGRAPH_FAILED_PRECONDITION), nor does an embedding graph. Buffer
 * rules as ldpgraph_ledger_report. */
ldpgraph_status ldpgraph_ledger_report_round(ldpgraph_ledger* ledger, const ldpgraph_graph* graph,
                                             ldpgraph_rng* rng, const ldpgraph_user_data* user,
                                             uint64_t round, uint8_t* out, size_t out_capacity,
                                             size_t* out_len);

/* ---- Embedding graphs (GW-LDP, docs/gw.md) ------------------------------ */
/* The one report of an embedding graph: its owner's node embeddings h
 * (rows x dims, row after row, every entry in [0, 1]) through the graph's
 * encoder, and the graph's class by RR when the graph asks for a label
 * (has_label; label is read only then). The multi-bit encoding needs rows = n
 * of the graph; the summary encoding any rows >= 1, and its report is one
 * grid cell whatever rows is (the size stays private too). Recorded as
 * ldpgraph_ledger_report records: a retry returns the same bytes and spends
 * nothing. LDPGRAPH_FAILED_PRECONDITION for a graph that is no embedding
 * graph; buffer rules as ldpgraph_ledger_report. */
ldpgraph_status ldpgraph_ledger_report_embedding(ldpgraph_ledger* ledger, const ldpgraph_graph* graph,
                                                 ldpgraph_rng* rng, const double* h, size_t rows, size_t dims,
                                                 int has_label, uint32_t label, uint8_t* out,
                                                 size_t out_capacity, size_t* out_len);

/* What one graph has cost its user, for an app to show. */
typedef struct ldpgraph_loss {
  double epsilon;          /* spent: for rounds, the loss of the distinct values revealed */
  double naive_epsilon;    /* what fresh noise every round would have spent */
  uint64_t rounds;         /* rounds reported (1 for a one-shot report) */
  uint64_t last_round;
  double edges_epsilon;    /* the parts of epsilon, for a graph in rounds (0 otherwise) */
  double features_epsilon;
  double label_epsilon;
} ldpgraph_loss;

/* LDPGRAPH_FAILED_PRECONDITION if the graph has no report in the ledger. */
ldpgraph_status ldpgraph_ledger_loss(const ldpgraph_ledger* ledger, uint64_t graph_id, ldpgraph_loss* out);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif  /* LDPGRAPH_LDPGRAPH_H_ */
