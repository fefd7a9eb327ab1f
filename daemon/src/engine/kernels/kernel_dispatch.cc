#include "engine/kernels/kernel_table.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#if defined(LDPGRAPH_KERNELS_AMX)
#include <cpuid.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

// One table per level CMake compiled (LDPGRAPH_KERNELS_V3/V4 say which).
namespace ldpgraph {
namespace isa_x86_64 {
extern const KernelTable kTable;
}
#if defined(LDPGRAPH_KERNELS_V3)
namespace isa_x86_64_v3 {
extern const KernelTable kTable;
}
#endif
#if defined(LDPGRAPH_KERNELS_V4)
namespace isa_x86_64_v4 {
extern const KernelTable kTable;
}
#endif
#if defined(LDPGRAPH_KERNELS_AMX)
namespace amx_bf16 {
extern const Bf16KernelTable kTable;
}
#endif

namespace {

const KernelTable* Choose() {
  const std::vector<const KernelTable*> supported = SupportedKernelTables();
  const char* wanted = std::getenv("LDPGRAPH_ISA");
  if (wanted == nullptr || *wanted == '\0') return supported.back();
  for (const KernelTable* t : supported) {
    if (std::strcmp(t->isa, wanted) == 0) return t;
  }
  // Not a reason to stop a daemon: say so once and use the best there is.
  std::fprintf(stderr, "ldpgraph: LDPGRAPH_ISA=%s is not a level this CPU and build support; using %s\n", wanted,
               supported.back()->isa);
  return supported.back();
}

#if defined(LDPGRAPH_KERNELS_AMX)
bool AmxUsable() {
  if (Kernels().float_lanes != 16) return false;  // the conversions are AVX-512
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  const bool tile = (d >> 24) & 1u, bf16_tiles = (d >> 22) & 1u;
  if (!tile || !bf16_tiles || !__get_cpuid_count(7, 1, &a, &b, &c, &d)) return false;
  if (((a >> 5) & 1u) == 0) return false;  // AVX512-BF16, for rounding the inputs
  // Linux (5.16 on) enables the 8 KB tile state per process on request:
  // arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA).
  constexpr long kRequestPermission = 0x1023, kTileData = 18;
  return syscall(SYS_arch_prctl, kRequestPermission, kTileData) == 0;
}
#endif

}  // namespace

const Bf16KernelTable* Bf16Kernels() {
#if defined(LDPGRAPH_KERNELS_AMX)
  static const Bf16KernelTable* const table = AmxUsable() ? &amx_bf16::kTable : nullptr;
  return table;
#else
  return nullptr;
#endif
}

std::vector<const KernelTable*> SupportedKernelTables() {
  std::vector<const KernelTable*> out = {&isa_x86_64::kTable};
#if defined(LDPGRAPH_KERNELS_V3)
  __builtin_cpu_init();
  // x86-64-v3: AVX2, FMA, BMI1/2, F16C, LZCNT, MOVBE on top of v2.
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2")) {
    out.push_back(&isa_x86_64_v3::kTable);
#if defined(LDPGRAPH_KERNELS_V4)
    // x86-64-v4: AVX-512 F, BW, CD, DQ, VL.
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512cd")) {
      out.push_back(&isa_x86_64_v4::kTable);
    }
#endif
  }
#endif
  return out;
}

const KernelTable& Kernels() {
  static const KernelTable* const chosen = Choose();
  return *chosen;
}

}  // namespace ldpgraph
