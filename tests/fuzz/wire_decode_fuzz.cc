// libFuzzer target: DecodeReport on arbitrary bytes must never crash, and
// whatever decodes must re-encode to exactly the same bytes (the encoding is
// canonical, which retries and idempotency rely on). Also fuzzes the budget
// ledger's state parser and the graph configuration decoder, the other
// untrusted-bytes decoders of the SDK.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "ldpgraph/budget_ledger.h"
#include "ldpgraph/graph_config_codec.h"
#include "ldpgraph/wire_format.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ldpgraph::Result<ldpgraph::Report> report = ldpgraph::DecodeReport(data, size);
  if (report.ok()) {
    std::vector<std::uint8_t> again;
    if (!ldpgraph::EncodeReport(*report, &again).ok()) std::abort();
    if (again.size() != size || std::memcmp(again.data(), data, size) != 0) std::abort();
  }
  // The graph configuration a device fetches: canonical too.
  ldpgraph::Result<ldpgraph::GraphConfig> config = ldpgraph::DecodeGraphConfig(data, size);
  if (config.ok()) {
    std::vector<std::uint8_t> again;
    if (!ldpgraph::EncodeGraphConfig(*config, &again).ok()) std::abort();
    if (again.size() != size || std::memcmp(again.data(), data, size) != 0) std::abort();
  }
  std::vector<std::uint8_t> state(data, data + size);
  (void)ldpgraph::BudgetLedger::Parse(state);
  return 0;
}
