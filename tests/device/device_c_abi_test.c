/* The C ABI on the Cortex-M4F, as firmware written in C uses it: the graph
 * from its configuration bytes, the ledger on the device's own storage (a
 * flash page, here RAM), ChaCha20 keyed once, one DPRR report of a user of
 * degree 100 in a graph of 10^6 users; asked again, the ledger gives the
 * same bytes; bad input is refused with its reason. */
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "ldpgraph/embedded_arena.h"
#include "ldpgraph/ldpgraph.h"

static unsigned char arena[32 * 1024] __attribute__((section(".arena"), aligned(8)));
/* Graph 7: 10^6 users, DPRR at epsilon 1 (as in device_report_image.cc). */
static const uint8_t kConfig[] = {0x4c, 0x43, 0x01, 0x00, 0x07, 0xc0, 0x84, 0x3d, 0x01, 0x00,
                                  0x00, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x3f, 0x00, 0x00, 0x10};
static uint8_t page[1024];
static size_t page_used;
static int failures;

static void expect(int ok, const char* what) {
  if (!ok) {
    ++failures;
    board_print("FAILED: ");
    board_print(what);
    board_print(" (");
    board_print(ldpgraph_last_error());
    board_print(")\n");
  }
}

static int load(void* context, ldpgraph_sink* sink) {
  (void)context;
  ldpgraph_sink_append(sink, page, page_used);
  return 0;
}

static int store(void* context, const uint8_t* state, size_t len) {
  (void)context;
  if (len > sizeof page) return -1;
  memcpy(page, state, len);
  page_used = len;
  return 0;
}

int main(void) {
  if (ldpgraph_arena_install(arena, sizeof arena) != 0) return 1;
  ldpgraph_graph* graph = NULL;
  expect(ldpgraph_graph_from_config(kConfig, 5, &graph) != LDPGRAPH_OK, "truncated configuration refused");
  expect(ldpgraph_last_error()[0] != '\0', "a refusal says why");
  expect(ldpgraph_graph_from_config(kConfig, sizeof kConfig, &graph) == LDPGRAPH_OK, "configuration decoded");
  expect(ldpgraph_graph_num_users(graph) == 1000000, "10^6 users");

  const uint8_t key[32] = {0x5e, 0xed};
  ldpgraph_rng* rng = NULL;
  expect(ldpgraph_rng_new_chacha20(key, 1, &rng) == LDPGRAPH_OK, "ChaCha20 source");
  ldpgraph_ledger_callbacks callbacks = {NULL, load, store};
  ldpgraph_ledger* ledger = NULL;
  expect(ldpgraph_ledger_open(&callbacks, 8.0, &ledger) == LDPGRAPH_OK, "ledger opened on its page");

  uint32_t friends[100];
  for (uint32_t k = 0; k < 100; ++k) friends[k] = (k * 9973u + 17u) % 1000000u;
  ldpgraph_user_data me = {123456, friends, 100, NULL, 0, 0, 0};
  uint8_t first[2048], again[2048];
  size_t first_len = 0, again_len = 0;
  expect(ldpgraph_ledger_report(ledger, graph, rng, &me, first, sizeof first, &first_len) == LDPGRAPH_OK,
         "report built through the ledger");
  expect(page_used > first_len, "the ledger stored the report on its page");
  expect(ldpgraph_ledger_report(ledger, graph, rng, &me, again, sizeof again, &again_len) == LDPGRAPH_OK,
         "report asked again");
  expect(again_len == first_len && memcmp(first, again, first_len) == 0, "the same bytes the second time");
  uint8_t tiny[8];
  size_t needed = 0;
  expect(ldpgraph_ledger_report(ledger, graph, rng, &me, tiny, sizeof tiny, &needed) == LDPGRAPH_BUFFER_TOO_SMALL &&
             needed == first_len,
         "a small buffer is told the size");

  char line[96];
  snprintf(line, sizeof line, "device_c_abi_report_bytes=%u\ndevice_c_abi_arena_high_water_bytes=%u\n",
           (unsigned)first_len, (unsigned)ldpgraph_arena_high_water());
  board_print(line);
  ldpgraph_ledger_free(ledger);
  ldpgraph_rng_free(rng);
  ldpgraph_graph_free(graph);
  return failures == 0 ? 0 : 1;
}
