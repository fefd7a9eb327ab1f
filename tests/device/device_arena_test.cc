// The arena a DPRR report takes on the Cortex-M4F, over graph sizes and
// degrees: the high water mark of the builder and 32 reports of one user,
// printed as device_arena_bytes_n<N>_d<D>=... lines, and held to the formula
// docs/sdk.md gives: 2 KB + 40 bytes per id in the largest report. Every
// block is given back when the builder goes.
#include <string>
#include <vector>

#include "board.h"
#include "ldpgraph/embedded_arena.h"
#include "ldpgraph/random_source.h"
#include "ldpgraph/report_builder.h"
#include "ldpgraph/wire_format.h"

using namespace ldpgraph;

namespace {
alignas(8) unsigned char arena[256 * 1024] __attribute__((section(".arena")));
constexpr std::size_t kFixedBytes = 2048;
constexpr std::size_t kBytesPerId = 40;
}

int main() {
  if (ldpgraph_arena_install(arena, sizeof arena) != 0) return 1;
  const std::uint8_t key[32] = {9};
  ChaCha20RandomSource rng(key, 3);
  for (std::uint32_t n : {1000u, 10000u, 100000u, 1000000u}) {
    for (std::uint32_t d : {10u, 100u, 1000u}) {
      if (d >= n / 2) continue;
      ldpgraph_arena_reset_high_water();
      const std::size_t before = ldpgraph_arena_in_use();
      {
        GraphConfig config;
        config.num_users = n;
        config.edges.mechanism = EdgeMechanism::kDprr;
        config.edges.epsilon = 1.0;
        Result<std::unique_ptr<ReportBuilder>> builder = ReportBuilder::Create(config);
        if (!builder.ok()) return 1;
        std::vector<std::uint32_t> friends;
        for (std::uint32_t k = 0; k < d; ++k) friends.push_back(1 + (k * 7919u) % (n - 1));
        UserData user;
        user.user_id = 0;
        user.neighbours = friends;
        std::size_t most_ids = 0;
        for (int r = 0; r < 32; ++r) {
          Result<Report> report = (*builder)->Build(user, rng);
          std::vector<std::uint8_t> bytes;
          if (!report.ok() || !EncodeReport(*report, &bytes).ok()) return 1;
          if (report->edges.neighbours.size() > most_ids) most_ids = report->edges.neighbours.size();
        }
        const std::size_t used = ldpgraph_arena_high_water();
        const std::size_t formula = kFixedBytes + kBytesPerId * most_ids;
        board_print(("device_arena_bytes_n" + std::to_string(n) + "_d" + std::to_string(d) + "=" +
                     std::to_string(used) + " most_ids=" + std::to_string(most_ids) + " formula=" +
                     std::to_string(formula) + "\n").c_str());
        if (used > formula) {
          board_print("arena: above the formula\n");
          return 1;
        }
      }
      if (ldpgraph_arena_in_use() != before) {
        board_print("arena: blocks left behind\n");
        return 1;
      }
    }
  }
  return 0;
}
