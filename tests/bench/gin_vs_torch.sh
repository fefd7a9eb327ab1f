#!/usr/bin/env bash
# GIN-0 speed against the same architecture in PyTorch, measured in one run
# on the same machine and data (../shared/anchors/torch_gin.py), both on all
# cores. Prints key=value lines, then the ratio; also ours on the node path
# (bench gin --colour-classes off: every layer on every node, as PyTorch
# runs it) and its ratio; on a CPU with AMX also ours with bfloat16 products
# (bench gin --products bf16) and its ratio, all in the same run. PyTorch
# stays in float32 either way.
#   tests/bench/gin_vs_torch.sh BUILD_DIR [DATASET] [EPOCHS]
# Needs: apt-get install python3-torch python3-numpy libopenblas0-pthread
# (without OpenBLAS, Debian's PyTorch uses a reference BLAS 7x slower, which
# would flatter us).
set -euo pipefail
build=${1:?build dir}
here=$(cd "$(dirname "$0")/../.." && pwd)
dataset=${2:-$here/../shared/data/graphs/REDDIT-BINARY.txt}
epochs=${3:-3}
threads=$(nproc)

ours=$("$build/daemon/ldpgraph" bench gin --dataset "$dataset" --epochs "$epochs" --threads "$threads")
echo "$ours" | sed 's/^/ldpgraph_/'
nodes=$("$build/daemon/ldpgraph" bench gin --dataset "$dataset" --epochs "$epochs" --threads "$threads" --colour-classes off)
echo "$nodes" | sed 's/^/ldpgraph_node_path_/'
bf16=$("$build/daemon/ldpgraph" bench gin --dataset "$dataset" --epochs "$epochs" --threads "$threads" --products bf16)
echo "$bf16" | sed 's/^/ldpgraph_bf16_/'
torch_line=$(/usr/bin/python3 "$here/../shared/anchors/torch_gin.py" "$dataset" --epochs "$epochs" --threads "$threads")
echo "torch_raw=$torch_line"
ours_s=$(echo "$ours" | sed -n 's/^epoch_seconds=//p')
torch_s=$(echo "$torch_line" | sed -n 's/.*epoch_s_median=\([0-9.]*\).*/\1/p')
echo "torch_epoch_seconds=$torch_s"
echo "ldpgraph_epoch_seconds=$ours_s"
awk -v t="$torch_s" -v o="$ours_s" 'BEGIN { printf "speedup_vs_torch=%.2f\n", t / o }'
nodes_s=$(echo "$nodes" | sed -n 's/^epoch_seconds=//p')
echo "ldpgraph_node_path_epoch_seconds=$nodes_s"
awk -v t="$torch_s" -v o="$nodes_s" 'BEGIN { printf "speedup_vs_torch_node_path=%.2f\n", t / o }'
if grep -qx "products=bf16" <<<"$bf16"; then
  bf16_s=$(echo "$bf16" | sed -n 's/^epoch_seconds=//p')
  echo "ldpgraph_bf16_epoch_seconds=$bf16_s"
  awk -v t="$torch_s" -v o="$bf16_s" 'BEGIN { printf "speedup_vs_torch_bf16=%.2f\n", t / o }'
fi
