#!/usr/bin/env bash
# Each per-level copy of the engine's hot loops (engine/kernels/isa_kernels.cc),
# and the AMX products (amx_kernels.cc), must export its table and nothing else. Any other exported symbol, an
# inline function or template instantiation compiled with -march=x86-64-v3 or
# -v4, could be the one the linker keeps for every caller, and the portable
# binary would die with SIGILL on an older CPU.
#   kernel_symbols_check.sh NAMESPACE OBJECT [NAMESPACE OBJECT ...]
set -euo pipefail
status=0
while [ $# -ge 2 ]; do
  ns=$1 obj=$2
  shift 2
  # "ADDRESS TYPE NAME": the defined, external symbols, demangled.
  exported=$(nm -C --defined-only --extern-only "$obj" | cut -d' ' -f3-)
  # Data that no -march can change is allowed: AddressSanitizer adds one symbol
  # per global (__odr_asan.<mangled name>), and clang's UndefinedBehaviorSanitizer
  # the typeinfo of the function types it checks calls against (-fsanitize=function).
  stray=$(grep -v "^ldpgraph::${ns}::" <<<"$exported" | grep -v "^__odr_asan\._ZN8ldpgraph[0-9]*${ns}[0-9]" |
          grep -v "^typeinfo \(name \)\?for .*(.*)$" || true)
  if [ -n "$stray" ]; then
    echo "$obj exports symbols outside ldpgraph::${ns}:"
    echo "$stray"
    status=1
  fi
  if ! grep -qx "ldpgraph::${ns}::kTable" <<<"$exported"; then
    echo "$obj does not export ldpgraph::${ns}::kTable"
    status=1
  fi
  echo "$ns: $(wc -l <<<"$exported") exported symbol(s), all in ldpgraph::${ns}"
done
exit $status
