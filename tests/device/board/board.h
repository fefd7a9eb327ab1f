/* The device tests' board (QEMU's MPS2 AN386, a Cortex-M4F): output and exit
 * status through semihosting, the stack's high water mark, and an
 * instruction counter (SysTick under QEMU's -icount shift=0, one instruction
 * per nanosecond of the board's clock). */
#ifndef LDPGRAPH_TESTS_DEVICE_BOARD_BOARD_H_
#define LDPGRAPH_TESTS_DEVICE_BOARD_BOARD_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Writes a NUL-terminated string to the host's standard output. */
void board_print(const char* text);

/* Ends the run: QEMU exits with status 0 for 0, 1 otherwise. */
void board_exit(int status) __attribute__((noreturn));

/* Instructions executed since reset, to the resolution of one SysTick
 * tick (board_instructions_per_tick()). Deterministic under -icount. */
uint64_t board_instructions(void);
uint32_t board_instructions_per_tick(void);

/* Bytes of the stack ever used (the stack is painted at reset). */
size_t board_stack_high_water(void);

#ifdef __cplusplus
}
#endif

#endif /* LDPGRAPH_TESTS_DEVICE_BOARD_BOARD_H_ */
