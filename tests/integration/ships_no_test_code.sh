#!/bin/bash
# Fails when the daemon's binary holds code meant for tests and benchmarks:
# the testbed (throwaway PKI, scratch PostgreSQL, loopback federation), the
# benchmarks, doctest. Static linking drops what nothing calls, so this
# catches a call from the daemon into them, not only a link line.
#   ships_no_test_code.sh LDPGRAPHD
set -euo pipefail
binary=$1
symbols=$(nm -C "$binary" 2>/dev/null || true)
if [ -z "$symbols" ]; then
  # A stripped binary: its dynamic symbols are all nm can read.
  symbols=$(nm -C -D "$binary")
fi
count=$(printf '%s\n' "$symbols" | wc -l)
if [ "$count" -lt 1000 ]; then
  echo "only $count symbols in $binary: too few to tell (is it stripped?)" >&2
  exit 1
fi
pattern='WriteTestPki|WriteTestFederationPki|ScratchPostgres|LoopbackFederation|ldpgraph::Run[A-Za-z]*Bench\(|FmaPeakPerCore|doctest'
found=$(printf '%s\n' "$symbols" | grep -E "$pattern" || true)
if [ -n "$found" ]; then
  echo "$binary holds test or benchmark code:" >&2
  printf '%s\n' "$found" | head -20 >&2
  exit 1
fi
echo "ldpgraphd_test_symbols=0 (of $count symbols; pattern $pattern)"
