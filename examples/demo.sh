#!/usr/bin/env bash
# The product's main job, end to end on its embedded defaults:
#   1. builds everything (installing the Debian packages it needs; run as
#      root on a fresh Debian 12);
#   2. makes a throwaway CA, a server certificate, secrets and a config, and
#      starts ldpgraphd on loopback with its embedded SQLite store;
#   3. generates 300 graphs of two kinds of community whose structure differs
#      (hubs vs two dense groups) and creates one graph on the daemon for each,
#      with its label and its symmetrisation policy ("or", see 5);
#   4. replays every user as her own device: her own TLS connection through
#      the SDK's uploader, 256 devices at a time, the friend list randomized
#      by DPRR at epsilon 1 on the device;
#   5. trains GIN-0 in the daemon on the noisy graphs it assembled (made
#      undirected by OR: an edge when either end reported it, post-processing
#      that costs no privacy; here it lifts accuracy from chance to ~0.8,
#      because a hub's incoming noisy edges no longer tell her apart, her own
#      list does), and the same model on the true graphs (no privacy) with the
#      same splits and seeds: 5 splits each, since one split's 46 test graphs
#      move its accuracy by about 0.05 (one standard deviation);
#   6. prints both accuracies (the mean over the splits, their standard
#      deviation and range), a few predictions, and where the logs and the
#      metrics are; then stops the daemon with SIGTERM.
# The devices' noise is seeded (LDPGRAPH_DEMO_SEED, default 1) so that the
# same seed prints the same figures; real phones draw from the OS CSPRNG.
set -euo pipefail
cd "$(dirname "$0")/.."
.ci/install-deps
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DLDPGRAPH_BUILD_TESTS=OFF >/dev/null
cmake --build build/release -j "$(nproc)"
bin=build/release
ldpgraph=$bin/daemon/ldpgraph
out=$(mktemp -d /tmp/ldpgraph_demo_XXXXXX)
start=$SECONDS
seed=${LDPGRAPH_DEMO_SEED:-1}
splits=5
# mean, standard deviation and range of the numbers on stdin, one a line
spread() { awk '{ s += $1; q += $1 * $1; if (NR == 1 || $1 < lo) lo = $1; if (NR == 1 || $1 > hi) hi = $1 }
  END { m = s / NR; v = NR > 1 ? (q - NR * m * m) / (NR - 1) : 0; if (v < 0) v = 0;
        printf "%.3f (sd %.3f over %d splits, range %.3f-%.3f)", m, sqrt(v), NR, lo, hi }'; }

echo
echo "== 1. ldpgraphd on 127.0.0.1 with a throwaway CA ($out)"
source examples/scratch_daemon.sh
start_demo_daemon "$bin/daemon/ldpgraphd" "$out"
url=https://127.0.0.1:$port
echo "ldpgraphd listens on $url (pid $daemon_pid)"

echo
echo "== 2. 300 generated graphs of two kinds of community"
"$ldpgraph" generate --output "$out/communities.txt" --graphs 300 --seed 1 | grep -E "^(graphs|nodes|edges)=" | tr '\n' ' '
echo

echo
echo "== 3. every user a device: own TLS connection, DPRR at epsilon 1 on the device (seed $seed), 256 at a time"
"$bin/examples/fleet_simulator" "${admin[@]}" --dataset "$out/communities.txt" --epsilon 1 --clients 256 --symmetrise or \
  --seed "$seed" \
  | tee "$out/fleet.txt" | grep -E "^(graphs|devices|clients|delivered|handshakes|seconds|reports_per_s)=" | tr '\n' ' '
echo

echo
echo "== 4. GIN-0 trained by the daemon on the noisy graphs it assembled (OR-symmetrised), $splits splits"
for split in $(seq 0 $((splits - 1))); do
  "$ldpgraph" daemon train "${admin[@]}" --seed "$split" --wait > "$out/job-$split.txt"
  grep -E "^(model_version|test_accuracy|seconds)=" "$out/job-$split.txt" | tr '\n' ' '
  echo
done
private_acc=$(grep -h '^test_accuracy=' "$out"/job-*.txt | cut -d= -f2 | spread)
echo
echo "== 5. the same model on the true graphs (no privacy): same splits, same seeds"
for split in $(seq 0 $((splits - 1))); do
  "$ldpgraph" train --dataset "$out/communities.txt" --model gin --seed "$split" > "$out/nonprivate-$split.txt"
  grep -E "^(seed|test_accuracy)=" "$out/nonprivate-$split.txt" | tr '\n' ' '
  echo
done
public_acc=$(grep -h '^test_accuracy=' "$out"/nonprivate-*.txt | cut -d= -f2 | spread)
echo
echo "== 6. predictions of model version 1 for three graphs"
"$ldpgraph" daemon predict "${admin[@]}" --model 1 --graphs 1,2,3
"$ldpgraph" daemon metrics "${admin[@]}" > "$out/metrics.txt"

stop_demo_daemon
echo
echo "accuracy with DPRR at epsilon 1 (the daemon, OR-symmetrised): $private_acc"
echo "accuracy without privacy (same model, splits, seeds): $public_acc"
echo "took $((SECONDS - start)) s after the build"
echo "daemon log (JSON lines): $out/ldpgraphd.log; stopped on SIGTERM with $stop"
echo "metrics (Prometheus text): $out/metrics.txt; models: $out/models/"
echo "plots of the research studies: docs/results.md (regenerate: bash examples/reproduce-results.sh)"
