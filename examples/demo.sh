#!/usr/bin/env bash
# The main job of ldpgraph today, end to end on its embedded defaults:
# builds everything, then
#   1. an app embeds the SDK through its C ABI: perturbs one user's friend
#      list and label through the budget ledger (twice: the same bytes come
#      back, no second randomization);
#   2. the SDK's DPRR on a million-user graph against the per-bit baseline;
#   3. what privacy costs: a generated dataset of two kinds of community,
#      every user perturbed by DPRR at epsilon 1 as on her device, and GIN-0
#      trained on the true and on the noisy graphs;
#   4. the edge mechanisms on the real REDDIT-BINARY dataset (if ../shared/data
#      is beside the clone), with the degree each one leaves. LocalLap is left
#      out here: it draws one noise value per pair of users (1.5e9 on REDDIT,
#      minutes); run it with `ldpgraph perturb --mechanism locallap`;
#   5. the server side: ldpgraphd on loopback with a throwaway CA, 64 TLS
#      clients (the SDK's uploader) sending 50000 DPRR reports, each durable
#      in SQLite before its acknowledgement.
# Installs the Debian packages it needs (run as root on a fresh Debian 12).
set -euo pipefail
cd "$(dirname "$0")/.."
.ci/install-deps
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DLDPGRAPH_BUILD_TESTS=OFF >/dev/null
cmake --build build/release -j "$(nproc)"
bin=build/release
out=$(mktemp -d /tmp/ldpgraph_demo_XXXXXX)

echo
echo "== 1. a device: the C ABI, one report through the budget ledger (run twice)"
"$bin/examples/c_client" "$out/device.ledger" | tee "$out/first.txt"
"$bin/examples/c_client" "$out/device.ledger" > "$out/second.txt"
if cmp -s "$out/first.txt" "$out/second.txt"; then
  echo "second run: identical report bytes (the ledger refused to randomize again)"
else
  echo "second run differs: the ledger failed" >&2
  exit 1
fi

echo
echo "== 2. DPRR on 10^6 users of degree 100 vs a per-bit implementation"
"$bin/daemon/ldpgraph" bench perturb --users 1000000 --degree 100 --epsilon 1 --reports 100000 --baseline-reports 20

echo
echo "== 3. GIN-0 on 300 generated graphs (hubs vs two dense groups), without and with DPRR at epsilon 1"
"$bin/daemon/ldpgraph" generate --output "$out/communities.txt" --graphs 300 --seed 1 | tr '\n' ' '
echo
"$bin/daemon/ldpgraph" perturb --input "$out/communities.txt" --mechanism dprr --epsilon 1 \
  --output "$out/communities_dprr.txt" | grep -E "^(mean_true_degree|mean_noisy_degree)=" | tr '\n' ' '
echo
for input in communities communities_dprr; do
  echo "$input: $("$bin/daemon/ldpgraph" train --dataset "$out/$input.txt" --model gin --seed 0 \
    --out "$out/$input.model" | grep -E "^(test_accuracy|test_auc|epochs)=" | tr '\n' ' ')"
done

data=../shared/data/graphs/REDDIT-BINARY.txt
echo
if [[ -f "$data" ]]; then
  echo "== 4. edge mechanisms on REDDIT-BINARY (2000 graphs, 859254 users), epsilon 1"
  for m in none dprr rr; do
    "$bin/daemon/ldpgraph" perturb --input "$data" --mechanism "$m" --epsilon 1 \
      --output "$out/reddit_$m.txt" | grep -E "^(mechanism|mean_true_degree|mean_noisy_degree|noisy_edges|seconds)=" | tr '\n' ' '
    echo
  done
else
  echo "== 4. skipped: $data not found (the shared datasets sit beside the clone in CI)"
fi
echo
echo "== 5. ldpgraphd: 50000 reports from 64 TLS clients through the SDK's uploader"
"$bin/daemon/ldpgraph" bench ingest --connections 64 --reports 50000 --handshakes 64 | \
  grep -E "^(handshakes_per_s|acknowledged|stored|lost|reports_per_s|p50_ms|p99_ms)=" | tr '\n' ' '
echo
echo
echo "outputs in $out"
