#!/usr/bin/env bash
# The portable build (x86-64 baseline, kernels picked at run time) against a
# build for this machine's CPU (-DLDPGRAPH_NATIVE=ON): GIN epochs on
# REDDIT-BINARY, the two binaries alternated in one run so that both see the
# same machine noise. Prints each pair and the median of the ratios.
#   tests/bench/portable_vs_native.sh NATIVE_BUILD PORTABLE_BUILD [PAIRS] [DATASET]
set -euo pipefail
native=${1:?native build dir} portable=${2:?portable build dir}
pairs=${3:-5}
here=$(cd "$(dirname "$0")/../.." && pwd)
dataset=${4:-$here/../shared/data/graphs/REDDIT-BINARY.txt}
threads=$(nproc)

epoch() {  # the fastest of 3 epochs: the least disturbed by other work
  "$1/daemon/ldpgraph" bench gin --dataset "$dataset" --epochs 3 --threads "$threads" |
    sed -n 's/^epoch_seconds_min=//p'
}
echo "kernel_isa=$("$portable/daemon/ldpgraph" bench gemm --rows 64 --seconds 0.01 | sed -n 's/^kernel_isa=//p')"
ratios=()
for i in $(seq "$pairs"); do
  n=$(epoch "$native")
  p=$(epoch "$portable")
  r=$(awk -v p="$p" -v n="$n" 'BEGIN { printf "%.4f", p / n }')
  echo "pair=$i native_epoch_seconds=$n portable_epoch_seconds=$p portable_over_native=$r"
  ratios+=("$r")
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '{ r[NR] = $1 } END { printf "median_portable_over_native=%.4f\n", (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2 }'
