// The golden report vectors (tests/golden) on the Cortex-M4F: every case's
// bytes as on x86-64, aarch64 and armhf. Also prints the arena each case's
// report took (device_cases_arena_bytes).
#include <string>

#include "board.h"
#include "golden/golden_reports.h"
#include "golden/golden_reports_vectors.h"
#include "ldpgraph/embedded_arena.h"

namespace {
alignas(8) unsigned char arena[512 * 1024] __attribute__((section(".arena")));
}

int main() {
  if (ldpgraph_arena_install(arena, sizeof arena) != 0) return 1;
  using namespace ldpgraph::golden;
  int failures = 0;
  for (std::size_t i = 0; i < CaseCount(); ++i) {
    ldpgraph_arena_reset_high_water();
    auto bytes = CaseBytes(i);
    const std::size_t arena_bytes = ldpgraph_arena_high_water();
    std::string line = std::string("golden ") + CaseName(i) + ": ";
    if (!bytes.ok()) {
      line += "error " + bytes.status().ToString();
      ++failures;
    } else if (Hex(*bytes) != ExpectedHex(kVectors, CaseName(i))) {
      line += "DIFFERS: " + Hex(*bytes);
      ++failures;
    } else {
      line += "identical, " + std::to_string(bytes->size()) + " bytes, arena high water " +
              std::to_string(arena_bytes) + " bytes";
    }
    board_print((line + "\n").c_str());
  }
  board_print(("device_golden_cases=" + std::to_string(CaseCount()) + "\ndevice_golden_failures=" +
               std::to_string(failures) + "\n").c_str());
  return failures == 0 ? 0 : 1;
}
