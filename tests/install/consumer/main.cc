// Uses the installed SDK through both its C++ API and its C ABI. The C++
// part is the embedding example of docs/sdk.md, so CI proves that it builds.
#include <ldpgraph/budget_ledger.h>
#include <ldpgraph/ldpgraph.h>
#include <ldpgraph/report_builder.h>
#include <ldpgraph/wire_format.h>

#include <cstdio>
#include <string>
#include <unistd.h>
#include <vector>

int main() {
  const std::string app_dir = "/tmp";
  const std::string ledger_path = app_dir + "/ldpgraph_consumer_" + std::to_string(::getpid()) + ".ledger";

  ldpgraph::GraphConfig config;  // public: n, n_max, the privacy policy
  config.graph_id = 1;
  config.num_users = 1000;
  config.edges.epsilon = 1.0;  // DPRR with eq. 8 by default
  config.edges.n_max = 4000;
  auto builder = ldpgraph::ReportBuilder::Create(config);  // validates everything
  auto rng = ldpgraph::OsRandomSource::Create();
  auto ledger = ldpgraph::BudgetLedger::Open(ldpgraph::FileLedgerStorage(ledger_path), /*epsilon_cap=*/10.0);
  if (!builder.ok() || !rng.ok() || !ledger.ok()) return 1;

  std::vector<uint32_t> friends = {3, 17, 256};
  auto make = [&]() -> ldpgraph::Result<ldpgraph::BudgetLedger::NewReport> {
    auto report = (*builder)->Build({/*user_id=*/42, friends}, **rng);
    if (!report.ok()) return report.status();
    ldpgraph::BudgetLedger::NewReport made;
    made.epsilon = ldpgraph::ReportEpsilon(*report);
    if (auto s = ldpgraph::EncodeReport(*report, &made.bytes); !s.ok()) return s;
    return made;
  };
  auto bytes = (*ledger)->ReportOnce(config.graph_id, make);
  auto again = (*ledger)->ReportOnce(config.graph_id, make);
  std::remove(ledger_path.c_str());
  if (!bytes.ok() || !again.ok() || *bytes != *again) return 1;

  ldpgraph_graph_params params;
  ldpgraph_graph_params_init(&params);
  params.num_users = 1000;
  ldpgraph_graph* graph = nullptr;
  if (ldpgraph_graph_new(&params, &graph) != LDPGRAPH_OK) return 1;
  std::printf("consumer ok: %zu report bytes, spent %g, C ABI max neighbours %zu\n", bytes->size(),
              (*ledger)->spent(), ldpgraph_graph_max_neighbours(graph));
  ldpgraph_graph_free(graph);
  return 0;
}
