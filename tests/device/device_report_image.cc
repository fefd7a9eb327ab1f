// The smallest useful firmware: what a microcontroller links to send one
// DPRR report. The graph's configuration as GET /v1/graphs/{id} serves it to
// devices (application/vnd.ldpgraph.graph-config), decoded; a ReportBuilder;
// the budget ledger behind a storage callback (a flash page, here RAM); a
// ChaCha20 source keyed once. Measured on the board model: flash and static
// RAM (report_image_check.sh reads the sections), the stack's and the
// arena's high water, and instructions per report for a user of degree 100
// in a graph of 10^6 users, counted under QEMU's -icount (an instruction
// count, not a device time: a real Cortex-M4 takes more than one cycle for
// loads, branches and soft-float doubles).
#include <string>
#include <vector>

#include "board.h"
#include "ldpgraph/budget_ledger.h"
#include "ldpgraph/embedded_arena.h"
#include "ldpgraph/graph_config_codec.h"
#include "ldpgraph/random_source.h"
#include "ldpgraph/report_builder.h"
#include "ldpgraph/wire_format.h"

using namespace ldpgraph;

namespace {
// The report's arena: what docs/sdk.md's formula gives for this graph and
// degree, with room to spare; the high water mark below is the measure.
alignas(8) unsigned char arena[16 * 1024] __attribute__((section(".arena")));

// Graph 7: 10^6 users, DPRR at epsilon 1, paper allocation, no features or label.
const std::uint8_t kConfig[] = {0x4c, 0x43, 0x01, 0x00, 0x07, 0xc0, 0x84, 0x3d, 0x01, 0x00,
                                0x00, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x3f, 0x00, 0x00, 0x10};
constexpr std::uint32_t kUser = 123456;
constexpr std::uint32_t kDegree = 100;
constexpr int kMeasuredReports = 16;

// The ledger's flash page.
std::uint8_t ledger_page[1024];
std::size_t ledger_page_used = 0;

void Print(const std::string& key, std::uint64_t value) {
  board_print((key + "=" + std::to_string(value) + "\n").c_str());
}
}  // namespace

int main() {
  if (ldpgraph_arena_install(arena, sizeof arena) != 0) return 1;
  const std::uint64_t boot = board_instructions();
  Result<GraphConfig> config = DecodeGraphConfig(kConfig, sizeof kConfig);
  if (!config.ok()) return 1;
  Result<std::unique_ptr<ReportBuilder>> builder = ReportBuilder::Create(*config);
  if (!builder.ok()) return 1;
  LedgerStorage storage;
  storage.load = [](std::vector<std::uint8_t>* out) {
    out->assign(ledger_page, ledger_page + ledger_page_used);
    return Status::Ok();
  };
  storage.store = [](const std::vector<std::uint8_t>& state) {
    if (state.size() > sizeof ledger_page) return Status::ResourceExhausted("ledger page full");
    for (std::size_t i = 0; i < state.size(); ++i) ledger_page[i] = state[i];
    ledger_page_used = state.size();
    return Status::Ok();
  };
  Result<std::unique_ptr<BudgetLedger>> ledger = BudgetLedger::Open(storage, 8.0);
  if (!ledger.ok()) return 1;
  Print("device_init_instructions", board_instructions() - boot);

  // The board has no TRNG: a fixed key stands in for the one drawn at boot.
  const std::uint8_t key[32] = {1, 2, 3, 4, 5, 6, 7, 8};
  ChaCha20RandomSource rng(key, 0);
  std::vector<std::uint32_t> friends;
  friends.reserve(kDegree);
  for (std::uint32_t k = 0; k < kDegree; ++k) friends.push_back((k * 9973u + 17u) % 1000000u);
  UserData user;
  user.user_id = kUser;
  user.neighbours = friends;

  // The report the device sends: once, through the ledger.
  ldpgraph_arena_reset_high_water();
  const std::uint64_t before = board_instructions();
  Result<std::vector<std::uint8_t>> sent = (*ledger)->ReportOnce(config->graph_id, [&]() -> Result<BudgetLedger::NewReport> {
    Result<Report> report = (*builder)->Build(user, rng);
    if (!report.ok()) return report.status();
    BudgetLedger::NewReport made;
    made.epsilon = ReportEpsilon(*report);
    LDPGRAPH_RETURN_IF_ERROR(EncodeReport(*report, &made.bytes));
    return made;
  });
  if (!sent.ok()) return 1;
  Print("device_ledgered_report_instructions", board_instructions() - before);
  Print("device_report_bytes", sent->size());
  Print("device_ledger_bytes", ledger_page_used);

  // More reports of the same user, fresh randomness each (as a benchmark
  // would; a device sends one): the mean instructions and the arena's peak.
  std::uint64_t instructions = 0;
  for (int r = 0; r < kMeasuredReports; ++r) {
    const std::uint64_t start = board_instructions();
    Result<Report> report = (*builder)->Build(user, rng);
    std::vector<std::uint8_t> bytes;
    if (!report.ok() || !EncodeReport(*report, &bytes).ok()) return 1;
    instructions += board_instructions() - start;
  }
  Print("device_dprr_report_instructions_mean", instructions / kMeasuredReports);
  Print("device_instructions_resolution", board_instructions_per_tick());
  Print("device_arena_high_water_bytes", ldpgraph_arena_high_water());
  Print("device_arena_bytes", sizeof arena);
  Print("device_stack_high_water_bytes", board_stack_high_water());
  return 0;
}
