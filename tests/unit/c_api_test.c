/* The C ABI used from C: every entry point, the error paths and the ledger. */
#include "ldpgraph/ldpgraph.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures = 0;
static int checks = 0;

#define EXPECT(cond)                                                      \
  do {                                                                    \
    ++checks;                                                             \
    if (!(cond)) {                                                        \
      ++failures;                                                         \
      fprintf(stderr, "%s:%d: expected %s (last error: %s)\n", __FILE__, \
              __LINE__, #cond, ldpgraph_last_error());                    \
    }                                                                     \
  } while (0)

/* An app-owned store for the ledger callbacks. */
struct memory_store {
  unsigned char data[1 << 16];
  size_t len;
  int stores;
};

static int store_load(void* ctx, ldpgraph_sink* sink) {
  struct memory_store* s = (struct memory_store*)ctx;
  ldpgraph_sink_append(sink, s->data, s->len);
  return 0;
}

static int store_store(void* ctx, const uint8_t* state, size_t len) {
  struct memory_store* s = (struct memory_store*)ctx;
  if (len > sizeof s->data) return 1;
  memcpy(s->data, state, len);
  s->len = len;
  s->stores++;
  return 0;
}

static ldpgraph_graph* make_graph(uint32_t mechanism, double epsilon) {
  ldpgraph_graph_params p;
  ldpgraph_graph_params_init(&p);
  p.graph_id = 77;
  p.num_users = 50;
  p.edge_mechanism = mechanism;
  p.edge_epsilon = epsilon;
  p.feature_dims = 4;
  p.feature_epsilon = 1.0;
  p.classes = 3;
  p.label_epsilon = 1.0;
  ldpgraph_graph* g = NULL;
  EXPECT(ldpgraph_graph_new(&p, &g) == LDPGRAPH_OK);
  return g;
}

static void test_rejects_bad_parameters(void) {
  ldpgraph_graph_params p;
  ldpgraph_graph* g = NULL;
  ldpgraph_graph_params_init(&p);
  p.num_users = 1;
  EXPECT(ldpgraph_graph_new(&p, &g) == LDPGRAPH_INVALID_ARGUMENT);
  EXPECT(strstr(ldpgraph_last_error(), "at least 2 users") != NULL);
  ldpgraph_graph_params_init(&p);
  p.num_users = 10;
  p.edge_epsilon = NAN;
  EXPECT(ldpgraph_graph_new(&p, &g) == LDPGRAPH_INVALID_ARGUMENT);
  p.edge_epsilon = -1;
  EXPECT(ldpgraph_graph_new(&p, &g) == LDPGRAPH_INVALID_ARGUMENT);
  ldpgraph_graph_params_init(&p);
  p.num_users = 10;
  p.struct_size = 3;
  EXPECT(ldpgraph_graph_new(&p, &g) == LDPGRAPH_INVALID_ARGUMENT);
  EXPECT(g == NULL);
  EXPECT(ldpgraph_graph_new(NULL, &g) == LDPGRAPH_INVALID_ARGUMENT);
}

static void test_single_mechanisms(void) {
  ldpgraph_rng* rng = NULL;
  EXPECT(ldpgraph_rng_new_seeded_not_private(1, &rng) == LDPGRAPH_OK);
  ldpgraph_graph* g = make_graph(LDPGRAPH_EDGES_DPRR, 2.0);
  uint32_t neighbours[] = {3, 1, 40};
  uint32_t out[64];
  size_t count = 0;
  EXPECT(ldpgraph_graph_max_neighbours(g) == 49);
  EXPECT(ldpgraph_perturb_edges(g, rng, 0, neighbours, 3, out, 10, &count) ==
         LDPGRAPH_BUFFER_TOO_SMALL);
  EXPECT(count == 49);
  EXPECT(ldpgraph_perturb_edges(g, rng, 0, neighbours, 3, out, 64, &count) == LDPGRAPH_OK);
  for (size_t i = 1; i < count; ++i) EXPECT(out[i] > out[i - 1]);
  EXPECT(ldpgraph_perturb_edges(g, rng, 50, neighbours, 3, out, 64, &count) ==
         LDPGRAPH_OUT_OF_RANGE);
  uint32_t self[] = {0};
  EXPECT(ldpgraph_perturb_edges(g, rng, 0, self, 1, out, 64, &count) == LDPGRAPH_INVALID_ARGUMENT);

  double x[] = {0.0, 0.5, 1.0, 0.25};
  uint32_t idx[4];
  int8_t sign[4];
  EXPECT(ldpgraph_graph_encoded_features(g) == 1);
  EXPECT(ldpgraph_encode_features(g, rng, x, 4, idx, sign, 4, &count) == LDPGRAPH_OK);
  EXPECT(count == 1 && idx[0] < 4 && (sign[0] == 1 || sign[0] == -1));
  x[2] = 1.5;
  EXPECT(ldpgraph_encode_features(g, rng, x, 4, idx, sign, 4, &count) == LDPGRAPH_OUT_OF_RANGE);

  uint32_t y = 99;
  EXPECT(ldpgraph_perturb_label(g, rng, 2, &y) == LDPGRAPH_OK);
  EXPECT(y < 3);
  EXPECT(ldpgraph_perturb_label(g, rng, 3, &y) == LDPGRAPH_OUT_OF_RANGE);

  ldpgraph_graph_free(g);
  ldpgraph_rng_free(rng);
}

static void test_report_and_ledger(void) {
  ldpgraph_rng* rng = NULL;
  EXPECT(ldpgraph_rng_new_os(&rng) == LDPGRAPH_OK);
  ldpgraph_graph* g = make_graph(LDPGRAPH_EDGES_DPRR, 1.0);
  uint32_t neighbours[] = {5, 6, 7};
  double x[] = {0.1, 0.2, 0.3, 0.4};
  ldpgraph_user_data u = {2, neighbours, 3, x, 4, 1, 1};

  size_t len = 0;
  unsigned char* buf = malloc(ldpgraph_graph_max_report_bytes(g));
  EXPECT(ldpgraph_report_new(g, rng, &u, buf, 8, &len) == LDPGRAPH_BUFFER_TOO_SMALL);
  EXPECT(ldpgraph_report_new(g, rng, &u, buf, ldpgraph_graph_max_report_bytes(g), &len) ==
         LDPGRAPH_OK);
  EXPECT(len > 20 && buf[0] == 'L' && buf[1] == 'G');
  free(buf);

  static struct memory_store store;
  ldpgraph_ledger_callbacks cb = {&store, store_load, store_store};
  ldpgraph_ledger* ledger = NULL;
  EXPECT(ldpgraph_ledger_open(&cb, 1.5, &ledger) == LDPGRAPH_OK);
  unsigned char first[4096], second[4096], tiny[4];
  size_t first_len = 0, second_len = 0;
  /* The cap 1.5 is below the report's cost 3 (edges 1, features 1, label 1). */
  EXPECT(ldpgraph_ledger_report(ledger, g, rng, &u, first, sizeof first, &first_len) ==
         LDPGRAPH_RESOURCE_EXHAUSTED);
  EXPECT(store.stores == 0);
  ldpgraph_ledger_free(ledger);

  /* With room in the budget: too small a buffer returns the size needed and
   * records the report, so the next call returns the same bytes. */
  EXPECT(ldpgraph_ledger_open(&cb, 10.0, &ledger) == LDPGRAPH_OK);
  EXPECT(ldpgraph_ledger_report(ledger, g, rng, &u, tiny, sizeof tiny, &first_len) ==
         LDPGRAPH_BUFFER_TOO_SMALL);
  EXPECT(first_len > sizeof tiny);
  EXPECT(ldpgraph_ledger_report(ledger, g, rng, &u, first, sizeof first, &first_len) == LDPGRAPH_OK);
  EXPECT(store.stores == 1);
  EXPECT(fabs(ldpgraph_ledger_spent(ledger) - 3.0) < 1e-12);
  ldpgraph_ledger_free(ledger);
  EXPECT(ldpgraph_ledger_open(&cb, 10.0, &ledger) == LDPGRAPH_OK);
  EXPECT(ldpgraph_ledger_report(ledger, g, rng, &u, second, sizeof second, &second_len) == LDPGRAPH_OK);
  EXPECT(first_len == second_len && memcmp(first, second, first_len) == 0);
  ldpgraph_ledger_free(ledger);

  /* The file-backed ledger. */
  char path[64];
  snprintf(path, sizeof path, "/tmp/ldpgraph_c_api_%d.ledger", (int)getpid());
  remove(path);
  EXPECT(ldpgraph_ledger_open_file(path, INFINITY, &ledger) == LDPGRAPH_OK);
  EXPECT(ldpgraph_ledger_report(ledger, g, rng, &u, first, sizeof first, &first_len) == LDPGRAPH_OK);
  ldpgraph_ledger_free(ledger);
  EXPECT(ldpgraph_ledger_open_file(path, INFINITY, &ledger) == LDPGRAPH_OK);
  EXPECT(ldpgraph_ledger_report(ledger, g, rng, &u, second, sizeof second, &second_len) == LDPGRAPH_OK);
  EXPECT(first_len == second_len && memcmp(first, second, first_len) == 0);
  ldpgraph_ledger_free(ledger);
  remove(path);

  ldpgraph_graph_free(g);
  ldpgraph_rng_free(rng);
}

static void test_cap_refusal(void) {
  ldpgraph_rng* rng = NULL;
  EXPECT(ldpgraph_rng_new_seeded_not_private(3, &rng) == LDPGRAPH_OK);
  ldpgraph_graph* g = make_graph(LDPGRAPH_EDGES_RR, 1.0);
  double x[] = {0.1, 0.2, 0.3, 0.4};
  ldpgraph_user_data u = {2, NULL, 0, x, 4, 1, 1};
  static struct memory_store store;
  ldpgraph_ledger_callbacks cb = {&store, store_load, store_store};
  ldpgraph_ledger* ledger = NULL;
  unsigned char out[4096];
  size_t len = 0;
  EXPECT(ldpgraph_ledger_open(&cb, 1.5, &ledger) == LDPGRAPH_OK);
  EXPECT(ldpgraph_ledger_report(ledger, g, rng, &u, out, sizeof out, &len) ==
         LDPGRAPH_RESOURCE_EXHAUSTED);
  EXPECT(strstr(ldpgraph_last_error(), "cap") != NULL);
  EXPECT(store.stores == 0);
  EXPECT(ldpgraph_ledger_spent(ledger) == 0.0);
  ldpgraph_ledger_free(ledger);
  ldpgraph_graph_free(g);
  ldpgraph_rng_free(rng);
}

/* Rounds: an unchanged user's rounds cost one round; a changed friend list
 * costs its new coins; bad calls are refused with precise errors. */
static void test_rounds(void) {
  ldpgraph_rng* rng = NULL;
  EXPECT(ldpgraph_rng_new_os(&rng) == LDPGRAPH_OK);
  ldpgraph_graph* g = make_graph(LDPGRAPH_EDGES_DPRR, 1.0);
  uint32_t neighbours[] = {5, 6, 7, 8};
  double x[] = {0.1, 0.2, 0.3, 0.4};
  ldpgraph_user_data u = {2, neighbours, 3, x, 4, 1, 1};
  static struct memory_store store;
  ldpgraph_ledger_callbacks cb = {&store, store_load, store_store};
  ldpgraph_ledger* ledger = NULL;
  EXPECT(ldpgraph_ledger_open(&cb, INFINITY, &ledger) == LDPGRAPH_OK);
  unsigned char out[4096], tiny[4];
  size_t len = 0;
  ldpgraph_loss loss;
  EXPECT(ldpgraph_ledger_loss(ledger, ldpgraph_graph_id(g), &loss) == LDPGRAPH_FAILED_PRECONDITION);
  for (uint64_t round = 1; round <= 20; ++round) {
    EXPECT(ldpgraph_ledger_report_round(ledger, g, rng, &u, round, out, sizeof out, &len) == LDPGRAPH_OK);
  }
  EXPECT(ldpgraph_ledger_loss(ledger, ldpgraph_graph_id(g), &loss) == LDPGRAPH_OK);
  EXPECT(loss.rounds == 20 && loss.last_round == 20);
  EXPECT(fabs(loss.epsilon - 3.0) < 1e-12);  /* edges 1, features 1, label 1: once */
  EXPECT(fabs(loss.naive_epsilon - 60.0) < 1e-9);
  EXPECT(fabs(loss.edges_epsilon + loss.features_epsilon + loss.label_epsilon - loss.epsilon) < 1e-12);
  EXPECT(fabs(ldpgraph_ledger_spent(ledger) - 3.0) < 1e-12);

  /* One friend more: a new degree coin and both bits of her edge. */
  u.neighbour_count = 4;
  EXPECT(ldpgraph_ledger_report_round(ledger, g, rng, &u, 21, tiny, sizeof tiny, &len) ==
         LDPGRAPH_BUFFER_TOO_SMALL);  /* recorded: the retry returns it */
  EXPECT(ldpgraph_ledger_report_round(ledger, g, rng, &u, 21, out, sizeof out, &len) == LDPGRAPH_OK);
  EXPECT(ldpgraph_ledger_loss(ledger, ldpgraph_graph_id(g), &loss) == LDPGRAPH_OK);
  EXPECT(loss.epsilon > 3.0 && loss.rounds == 21);

  EXPECT(ldpgraph_ledger_report_round(ledger, g, rng, &u, 3, out, sizeof out, &len) == LDPGRAPH_FAILED_PRECONDITION);
  EXPECT(strstr(ldpgraph_last_error(), "not after the last reported round 21") != NULL);
  EXPECT(ldpgraph_ledger_report(ledger, g, rng, &u, out, sizeof out, &len) == LDPGRAPH_FAILED_PRECONDITION);
  EXPECT(ldpgraph_ledger_report_round(NULL, g, rng, &u, 22, out, sizeof out, &len) == LDPGRAPH_INVALID_ARGUMENT);
  EXPECT(ldpgraph_ledger_loss(ledger, ldpgraph_graph_id(g), NULL) == LDPGRAPH_INVALID_ARGUMENT);
  ldpgraph_ledger_free(ledger);
  ldpgraph_graph_free(g);
  ldpgraph_rng_free(rng);
}

/* A stand-in TRNG whose bytes the test knows: it counts up, and counts what it gave. */
struct counting_trng {
  uint8_t next;
  size_t given;
};
static void counting_fill(void* context, uint8_t* out, size_t len) {
  struct counting_trng* trng = (struct counting_trng*)context;
  for (size_t i = 0; i < len; ++i) out[i] = trng->next++;
  trng->given += len;
}

/* A report's bytes from a graph and a fresh source, for comparing sources. */
static size_t report_with(ldpgraph_graph* g, ldpgraph_rng* rng, uint8_t* out, size_t capacity) {
  const uint32_t friends[] = {1, 9, 17};
  const double x[] = {0.1, 0.2, 0.3, 0.4};
  ldpgraph_user_data u = {5, friends, 3, x, 4, 1, 2};
  size_t len = 0;
  EXPECT(ldpgraph_report_new(g, rng, &u, out, capacity, &len) == LDPGRAPH_OK);
  return len;
}

/* The sources of a device without an OS: ChaCha20 keyed once, and a TRNG
 * callback. One key and stream give one report; another stream another. */
static void test_device_sources(void) {
  uint8_t key[32] = {1, 2, 3};
  ldpgraph_rng* rng = NULL;
  EXPECT(ldpgraph_rng_new_chacha20(NULL, 0, &rng) == LDPGRAPH_INVALID_ARGUMENT);
  EXPECT(strstr(ldpgraph_last_error(), "key") != NULL);
  EXPECT(ldpgraph_rng_new_chacha20(key, 0, NULL) == LDPGRAPH_INVALID_ARGUMENT);
  EXPECT(ldpgraph_rng_new_callback(NULL, NULL, &rng) == LDPGRAPH_INVALID_ARGUMENT);
  EXPECT(strstr(ldpgraph_last_error(), "fill") != NULL);
  EXPECT(rng == NULL);

  ldpgraph_graph* g = make_graph(LDPGRAPH_EDGES_DPRR, 1.0);
  const size_t capacity = ldpgraph_graph_max_report_bytes(g);
  uint8_t* a = malloc(capacity);
  uint8_t* b = malloc(capacity);
  uint8_t* c = malloc(capacity);
  ldpgraph_rng *ra = NULL, *rb = NULL, *rc = NULL;
  EXPECT(ldpgraph_rng_new_chacha20(key, 7, &ra) == LDPGRAPH_OK);
  key[0] = 99; /* the source kept its own copy of the key */
  const size_t la = report_with(g, ra, a, capacity);
  key[0] = 1;
  EXPECT(ldpgraph_rng_new_chacha20(key, 7, &rb) == LDPGRAPH_OK);
  EXPECT(ldpgraph_rng_new_chacha20(key, 8, &rc) == LDPGRAPH_OK);
  const size_t lb = report_with(g, rb, b, capacity);
  const size_t lc = report_with(g, rc, c, capacity);
  EXPECT(la == lb && memcmp(a, b, la) == 0);
  EXPECT(la != lc || memcmp(a, c, la) != 0);
  ldpgraph_rng_free(ra);
  ldpgraph_rng_free(rb);
  ldpgraph_rng_free(rc);

  struct counting_trng counter = {0, 0};
  ldpgraph_rng* trng = NULL;
  EXPECT(ldpgraph_rng_new_callback(counting_fill, &counter, &trng) == LDPGRAPH_OK);
  EXPECT(report_with(g, trng, a, capacity) > 0);
  EXPECT(counter.given > 0); /* the report drew from the callback */
  ldpgraph_rng_free(trng);
  free(a);
  free(b);
  free(c);
  ldpgraph_graph_free(g);
}

int main(void) {
  test_rejects_bad_parameters();
  test_device_sources();
  test_single_mechanisms();
  test_report_and_ledger();
  test_cap_refusal();
  test_rounds();
  printf("c_api_test: %d checks, %d failed\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
