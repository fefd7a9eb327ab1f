#!/usr/bin/env bash
# The Cortex-M4F image that builds one DPRR report, held to its budget:
# flash (code, read-only data, and the initial values of .data) at most
# 64 KB; RAM (.data, .bss and the stack's high water) at most 16 KB beside
# the report's arena, whose high water is printed with it.
#   report_image_check.sh SIZE_TOOL IMAGE EMULATOR...
set -euo pipefail
size_tool=$1
image=$2
shift 2
section() { "$size_tool" -A "$image" | awk -v s="$1" '$1 == s { print $2; found = 1 } END { if (!found) print 0 }'; }
flash=0
for s in .isr_vector .text .ARM.extab .ARM.exidx .preinit_array .init_array .fini_array .data; do
  flash=$((flash + $(section "$s")))
done
data=$(section .data)
bss=$(section .bss)
run=$("$@" "$image")
echo "$run"
value() { sed -n "s/^$1=\([0-9]*\)$/\1/p" <<<"$run"; }
stack=$(value device_stack_high_water_bytes)
arena=$(value device_arena_high_water_bytes)
if [[ -z "$stack" || -z "$arena" ]]; then
  echo "report_image_check: the image did not report its stack and arena" >&2
  exit 1
fi
ram=$((data + bss + stack))
echo "device_flash_bytes=$flash"
echo "device_static_ram_bytes=$((data + bss))"
echo "device_ram_bytes=$ram (data $data + bss $bss + stack $stack; the arena's $arena beside it)"
status=0
if ((flash > 65536)); then
  echo "report_image_check: flash $flash bytes exceeds 64 KB" >&2
  status=1
fi
if ((ram > 16384)); then
  echo "report_image_check: RAM $ram bytes exceeds 16 KB" >&2
  status=1
fi
exit $status
