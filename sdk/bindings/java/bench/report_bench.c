/* The C side of the Java overhead benchmark: the same call the Java library
 * makes (ldpgraph_report_new on a DPRR graph of n users, one user of degree
 * d, the OS CSPRNG), `reports` times. Prints c_us_per_report=.
 *   report_bench N DEGREE REPORTS */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ldpgraph/ldpgraph.h"

static double Now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: report_bench N DEGREE REPORTS\n");
    return 2;
  }
  const unsigned n = (unsigned)strtoul(argv[1], NULL, 10);
  const unsigned degree = (unsigned)strtoul(argv[2], NULL, 10);
  const long reports = strtol(argv[3], NULL, 10);
  ldpgraph_graph_params p;
  ldpgraph_graph_params_init(&p);
  p.graph_id = 1;
  p.num_users = n;
  p.edge_epsilon = 1;
  ldpgraph_graph* graph = NULL;
  ldpgraph_rng* rng = NULL;
  if (ldpgraph_graph_new(&p, &graph) != LDPGRAPH_OK || ldpgraph_rng_new_os(&rng) != LDPGRAPH_OK) {
    fprintf(stderr, "report_bench: %s\n", ldpgraph_last_error());
    return 1;
  }
  uint32_t* friends = malloc(degree * sizeof *friends);
  for (unsigned i = 0; i < degree; ++i) friends[i] = 1 + i * (n / (degree + 1));
  size_t capacity = ldpgraph_graph_max_report_bytes(graph), len = 0;
  uint8_t* out = malloc(capacity);
  ldpgraph_user_data user = {0};
  user.user_id = 0;
  user.neighbours = friends;
  user.neighbour_count = degree;
  size_t bytes = 0;
  const double start = Now();
  for (long r = 0; r < reports; ++r) {
    if (ldpgraph_report_new(graph, rng, &user, out, capacity, &len) != LDPGRAPH_OK) return 1;
    bytes += len;
  }
  const double seconds = Now() - start;
  printf("c_us_per_report=%.2f\nc_report_bytes=%zu\n", 1e6 * seconds / (double)reports, bytes / (size_t)reports);
  free(out);
  free(friends);
  ldpgraph_rng_free(rng);
  ldpgraph_graph_free(graph);
  return 0;
}
