// Uses the installed SDK through both its C++ API and its C ABI.
#include <ldpgraph/dprr.h>
#include <ldpgraph/ldpgraph.h>

#include <cstdio>
#include <vector>

int main() {
  auto dprr = ldpgraph::Dprr::Create(1000, 1.0);
  if (!dprr.ok()) return 1;
  auto rng = ldpgraph::OsRandomSource::Create();
  if (!rng.ok()) return 1;
  ldpgraph::NoisyEdges out;
  const std::vector<std::uint32_t> friends = {1, 2, 3};
  if (!dprr->Perturb(0, friends, **rng, &out).ok()) return 1;

  ldpgraph_graph_params params;
  ldpgraph_graph_params_init(&params);
  params.num_users = 1000;
  ldpgraph_graph* graph = nullptr;
  if (ldpgraph_graph_new(&params, &graph) != LDPGRAPH_OK) return 1;
  std::printf("consumer ok: %zu noisy neighbours, max %zu\n", out.neighbours.size(),
              ldpgraph_graph_max_neighbours(graph));
  ldpgraph_graph_free(graph);
  return 0;
}
