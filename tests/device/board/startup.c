/* Reset, vector table, semihosting and SysTick for QEMU's MPS2 AN386. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "board.h"

extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss, _sstack, _estack;
extern void __libc_init_array(void);
extern int main(void);

#define SCB_CPACR (*(volatile uint32_t*)0xE000ED88u)
#define SYST_CSR (*(volatile uint32_t*)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t*)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t*)0xE000E018u)
#define kStackPaint 0xA5A5A5A5u
#define kSysTickReload 0xFFFFFFu
/* QEMU's MPS2 clocks SysTick at the board's 25 MHz: 40 ns a tick, and under
 * -icount shift=0 one instruction takes 1 ns. Checked at run time by
 * device_board_test against a loop of known length. */
#define kInstructionsPerTick 40u

static volatile uint32_t systick_wraps;

static int semihost(int op, const void* arg) {
  register int r0 __asm__("r0") = op;
  register const void* r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

void board_print(const char* text) { semihost(0x04, text); /* SYS_WRITE0 */ }

void board_exit(int status) {
  /* SYS_EXIT: ADP_Stopped_ApplicationExit for success, RunTimeErrorUnknown otherwise. */
  semihost(0x18, (const void*)(uintptr_t)(status == 0 ? 0x20026u : 0x20023u));
  for (;;) {
  }
}

uint64_t board_instructions(void) {
  uint32_t wraps, value;
  do {  /* a wrap between the two reads would tear the count */
    wraps = systick_wraps;
    value = SYST_CVR;
  } while (wraps != systick_wraps);
  return ((uint64_t)wraps * (kSysTickReload + 1u) + (kSysTickReload - value)) * kInstructionsPerTick;
}

uint32_t board_instructions_per_tick(void) { return kInstructionsPerTick; }

size_t board_stack_high_water(void) {
  const uint32_t* p = &_sstack;
  while (p < &_estack && *p == kStackPaint) ++p;
  return (size_t)((const char*)&_estack - (const char*)p);
}

/* newlib's output and exit, through semihosting. */
int _write(int fd, const char* data, int length) {
  if (fd != 1 && fd != 2) {
    errno = EBADF;
    return -1;
  }
  char chunk[65];
  for (int done = 0; done < length;) {
    int n = length - done < 64 ? length - done : 64;
    memcpy(chunk, data + done, (size_t)n);
    chunk[n] = '\0';
    board_print(chunk);
    done += n;
  }
  return length;
}

void _exit(int status) { board_exit(status); }

static void Fault(void) {
  board_print("device: fault (hard fault, memory or usage fault)\n");
  board_exit(1);
}

void SysTick_Handler(void) { ++systick_wraps; }

__attribute__((noreturn)) void Reset_Handler(void) {
  /* The FPU first: the C library's start-up code may already use it. */
  SCB_CPACR |= 0xFu << 20;
  __asm__ volatile("dsb\n isb");
  memcpy(&_sdata, &_sidata, (size_t)((char*)&_edata - (char*)&_sdata));
  memset(&_sbss, 0, (size_t)((char*)&_ebss - (char*)&_sbss));
  /* Paint the stack below the current frame, for board_stack_high_water(). */
  uint32_t* sp;
  __asm__ volatile("mov %0, sp" : "=r"(sp));
  for (uint32_t* p = &_sstack; p < sp - 16; ++p) *p = kStackPaint;
  SYST_RVR = kSysTickReload;
  SYST_CVR = 0;
  SYST_CSR = 7u; /* processor clock, interrupt on wrap, enabled */
  __libc_init_array();
  board_exit(main());
}

/* Initial stack pointer, then the handlers: reset, NMI, the four faults,
 * reserved slots, SVCall, debug monitor, PendSV, SysTick. */
typedef union {
  void* stack;
  void (*handler)(void);
} Vector;
__attribute__((section(".isr_vector"), used)) static const Vector vectors[16] = {
    {.stack = &_estack},     {.handler = Reset_Handler}, {.handler = Fault}, {.handler = Fault},
    {.handler = Fault},      {.handler = Fault},         {.handler = Fault}, {0},
    {0},                     {0},                        {0},                {.handler = Fault},
    {.handler = Fault},      {0},                        {.handler = Fault}, {.handler = SysTick_Handler}};
