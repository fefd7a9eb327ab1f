// libFuzzer target: DecodeReport on arbitrary bytes must never crash, and
// whatever decodes must re-encode to exactly the same bytes (the encoding is
// canonical, which retries and idempotency rely on). Also fuzzes the budget
// ledger's state parser, the other untrusted-bytes decoder of the SDK.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "ldpgraph/budget_ledger.h"
#include "ldpgraph/wire_format.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ldpgraph::Result<ldpgraph::Report> report = ldpgraph::DecodeReport(data, size);
  if (report.ok()) {
    std::vector<std::uint8_t> again;
    if (!ldpgraph::EncodeReport(*report, &again).ok()) std::abort();
    if (again.size() != size || std::memcmp(again.data(), data, size) != 0) std::abort();
  }
  std::vector<std::uint8_t> state(data, data + size);
  (void)ldpgraph::BudgetLedger::Parse(state);
  return 0;
}
