#!/usr/bin/env bash
# A portable build's binaries must run on any x86-64: every function that
# uses an instruction beyond the baseline (VEX or EVEX encodings, ymm/zmm/k
# registers, BMI, LZCNT, MOVBE) must be one of the per-level kernel copies,
# which run only after CPUID said the CPU has them, or the AMX products
# (amx_bf16::), which run only after CPUID and Linux said the tiles are there.
#   portable_binary_check.sh BINARY...
set -euo pipefail
status=0
for binary in "$@"; do
  # Functions ("<name>:" headers of objdump -d) and their first beyond-baseline instruction.
  beyond=$(objdump -d --no-show-raw-insn -C "$binary" | awk '
    /^[0-9a-f]+ <.*>:$/ { fn = $0; next }
    /%[yz]mm|%k[0-7]|\tv[a-z0-9]+ |\t(andn|bextr|blsi|blsmsk|blsr|bzhi|lzcnt|tzcnt|movbe|mulx|pdep|pext|rorx|sarx|shlx|shrx) / {
      if (!(fn in seen)) { seen[fn] = 1; print fn " " $0 }
    }')
  kernels=$(grep -c "isa_x86_64_v[34]::\|amx_bf16::" <<<"$beyond" || true)
  stray=$(grep -v "isa_x86_64_v[34]::\|amx_bf16::" <<<"$beyond" | grep -v '^$' || true)
  if [ -n "$stray" ]; then
    echo "$binary: beyond-baseline instructions outside the kernel copies:"
    head -20 <<<"$stray"
    status=1
  fi
  echo "$(basename "$binary"): $kernels kernel functions use AVX2/AVX-512, nothing else does"
done
exit $status
