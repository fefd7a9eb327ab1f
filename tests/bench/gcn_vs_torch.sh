#!/usr/bin/env bash
# GCN speed on a large sparse node dataset against the same 2-layer GCN in
# PyTorch (tests/bench/torch_gcn.py), measured in one run on the same machine
# and data, both on all cores: seconds per epoch (a training step and a
# validation pass) and the ratio. Without DATASET it generates the page-page
# sized graph of issue 27 (22,470 nodes, 171k edges, 4,714 binary features,
# about 14 a node) into a temporary folder. Prints key=value lines.
#   tests/bench/gcn_vs_torch.sh BUILD_DIR [DATASET_DIR] [EPOCHS] [PAIRS]
# Needs: apt-get install python3-torch python3-numpy libopenblas0-pthread
set -euo pipefail
build=${1:?build dir}
here=$(cd "$(dirname "$0")" && pwd)
ldpgraph="$build/daemon/ldpgraph"
dataset=${2:-}
epochs=${3:-20}
pairs=${4:-3}
threads=$(nproc)
if [[ -z "$dataset" ]]; then
  dataset=$(mktemp -d)
  trap 'rm -rf "$dataset"' EXIT
  "$ldpgraph" generate --kind sbm --nodes 22470 --degree 15.2 --features 4714 --words 14 --classes 4 \
    --seed 1 --output "$dataset" | sed 's/^/generated_/'
fi
for pair in $(seq 1 "$pairs"); do
  ours=$("$ldpgraph" bench node --dataset "$dataset" --model gcn --epochs "$epochs" --threads "$threads")
  torch_line=$(/usr/bin/python3 -W ignore "$here/torch_gcn.py" "$dataset" --epochs "$epochs" --threads "$threads")
  ours_s=$(echo "$ours" | sed -n 's/^epoch_seconds=//p')
  torch_s=$(echo "$torch_line" | sed -n 's/.*epoch_s_median=\([0-9.]*\).*/\1/p')
  [[ $pair == 1 ]] && echo "$ours" | sed 's/^/ldpgraph_/' && echo "torch_raw=$torch_line"
  echo "pair=$pair ldpgraph_epoch_seconds=$ours_s torch_epoch_seconds=$torch_s" \
    "speedup_vs_torch=$(awk -v t="$torch_s" -v o="$ours_s" 'BEGIN { printf "%.1f", t / o }')" \
    "ldpgraph_peak_rss_mb=$(echo "$ours" | sed -n 's/^peak_rss_mb=//p')"
done
