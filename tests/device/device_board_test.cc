// The board's own measures, checked before anything relies on them: the
// instruction counter against a loop of known length (two instructions an
// iteration), the stack's high water mark against a frame of known size,
// and the arena: nothing before it is installed, then only from it.
#include <string>

#include "board.h"
#include "ldpgraph/embedded_arena.h"

namespace {
alignas(8) unsigned char arena[4096] __attribute__((section(".arena")));

int failures = 0;

void Expect(bool ok, const char* what) {
  if (!ok) {
    ++failures;
    board_print((std::string("FAILED: ") + what + "\n").c_str());
  }
}

__attribute__((noinline)) void Spin(std::uint32_t iterations) {
  __asm__ volatile("1: subs %0, %0, #1\n bne 1b" : "+r"(iterations) : : "cc");
}

__attribute__((noinline)) std::uint32_t UseStack(std::uint32_t bytes) {
  volatile unsigned char frame[8192];
  for (std::uint32_t i = 0; i < bytes && i < sizeof frame; ++i) frame[i] = static_cast<unsigned char>(i);
  return frame[bytes / 2];
}
}  // namespace

int main() {
  // Before anything allocates (there is no memory until the arena is installed).
  if (ldpgraph_arena_install(nullptr, 4096) != -1 || ldpgraph_arena_install(arena, 32) != -1) return 1;
  if (malloc(16) != nullptr) return 1;
  if (ldpgraph_arena_install(arena, sizeof arena) != 0) return 1;

  constexpr std::uint32_t kIterations = 1000000;
  const std::uint64_t before = board_instructions();
  Spin(kIterations);
  const std::uint64_t counted = board_instructions() - before;
  board_print(("device_spin_instructions=" + std::to_string(counted) + " expected=" +
               std::to_string(2 * kIterations) + "\n").c_str());
  // The loop, the call and the two reads of the counter, to the counter's resolution.
  Expect(counted + 2 * board_instructions_per_tick() >= 2 * kIterations &&
             counted <= 2 * kIterations + 2 * board_instructions_per_tick() + 64,
         "the instruction counter counts the loop's instructions");

  const std::size_t stack_before = board_stack_high_water();
  (void)UseStack(8000);
  const std::size_t stack_after = board_stack_high_water();
  board_print(("device_stack_high_water_bytes=" + std::to_string(stack_after) + "\n").c_str());
  Expect(stack_after >= stack_before + 8000 && stack_after < stack_before + 8400,
         "the stack's high water mark grows by the frame used");

  std::string* held = new std::string(100, 'x');
  Expect(ldpgraph_arena_in_use() >= 100, "new allocates in the arena");
  Expect(ldpgraph_arena_install(arena, sizeof arena) == -1, "an arena in use cannot be replaced");
  Expect(malloc(8192) == nullptr, "malloc beyond the arena returns NULL");
  delete held;
  Expect(ldpgraph_arena_in_use() == 0, "delete gives the block back");
  return failures == 0 ? 0 : 1;
}
