/* A device-side program in plain C: configure a graph as the daemon would
 * serve it, perturb one user's data through the budget ledger and print the
 * report bytes that would be uploaded.
 *
 *   c_client [LEDGER_FILE]
 *
 * Run it twice with the same ledger file: the second run prints the same
 * bytes, because the ledger never randomizes the same data twice. */
#include <ldpgraph/ldpgraph.h>

#include <math.h>
#include <stdio.h>

int main(int argc, char** argv) {
  const char* ledger_path = argc > 1 ? argv[1] : "c_client.ledger";

  ldpgraph_graph_params params;
  ldpgraph_graph_params_init(&params); /* DPRR, paper allocation, epsilon 1 */
  params.graph_id = 1;
  params.num_users = 1000;
  params.n_max = 4000;
  params.classes = 2; /* also send a randomized label */
  params.label_epsilon = 1.0;

  ldpgraph_graph* graph = NULL;
  ldpgraph_rng* rng = NULL;
  ldpgraph_ledger* ledger = NULL;
  if (ldpgraph_graph_new(&params, &graph) != LDPGRAPH_OK ||
      ldpgraph_rng_new_os(&rng) != LDPGRAPH_OK ||
      ldpgraph_ledger_open_file(ledger_path, INFINITY, &ledger) != LDPGRAPH_OK) {
    fprintf(stderr, "c_client: %s\n", ldpgraph_last_error());
    return 1;
  }

  const uint32_t friends[] = {3, 17, 256, 999};
  ldpgraph_user_data me = {42, friends, 4, NULL, 0, 1, 1};
  uint8_t report[8192];
  size_t len = 0;
  ldpgraph_status s = ldpgraph_ledger_report(ledger, graph, rng, &me, report, sizeof report, &len);
  if (s != LDPGRAPH_OK) {
    fprintf(stderr, "c_client: %s\n", ldpgraph_last_error());
    return 1;
  }
  printf("report_bytes=%zu\nepsilon_spent=%g\nreport=", len, ldpgraph_ledger_spent(ledger));
  for (size_t i = 0; i < len; ++i) printf("%02x", report[i]);
  printf("\n");

  ldpgraph_ledger_free(ledger);
  ldpgraph_rng_free(rng);
  ldpgraph_graph_free(graph);
  return 0;
}
