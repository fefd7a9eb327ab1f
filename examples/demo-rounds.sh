#!/usr/bin/env bash
# The demo's second step: an app that reports for months (docs/rounds.md).
#   1. builds as demo.sh does (or uses LDPGRAPH_DEMO_BIN, a build folder
#      that already holds ldpgraphd, ldpgraph and the examples);
#   2. starts a throwaway ldpgraphd on loopback, as demo.sh does;
#   3. generates a social graph of 2,000 users in 4 communities, with
#      features and labels;
#   4. runs three collection rounds of examples/fleet_simulator/rounds_fleet:
#      between rounds 10% of the users change 10% of their friends; each
#      round every phone asks the daemon which round is open, makes that
#      round's memoised report through her budget ledger (a file, reopened
#      each round) and uploads it; the admin closes the round and the daemon
#      retrains its GCN on it;
#   5. prints per round what changed, the round's model, and what the
#      ledgers say: a user whose friends never changed has spent one round's
#      epsilon, however many rounds; fresh noise would have spent it each time.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -n "${LDPGRAPH_DEMO_BIN:-}" ]]; then
  bin=$LDPGRAPH_DEMO_BIN
else
  .ci/install-deps
  cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DLDPGRAPH_BUILD_TESTS=OFF >/dev/null
  cmake --build build/release -j "$(nproc)"
  bin=build/release
fi
out=$(mktemp -d /tmp/ldpgraph_rounds_XXXXXX)
start=$SECONDS

echo
echo "== 1. ldpgraphd on 127.0.0.1 with a throwaway CA ($out)"
source examples/scratch_daemon.sh
start_demo_daemon "$bin/daemon/ldpgraphd" "$out"
echo "ldpgraphd listens on https://127.0.0.1:$port (pid $daemon_pid)"

echo
echo "== 2. a social graph of 2,000 users in 4 communities, with features and labels"
"$bin/daemon/ldpgraph" generate --kind sbm --nodes 2000 --degree 10 --classes 4 --homophily 0.8 --features 64 \
  --words 8 --signal 0.3 --seed 1 --output "$out/social" | grep -E "^(nodes|edges)=" | tr '\n' ' '
echo

echo
echo "== 3. three rounds: friends change, every phone reports the open round through her ledger, the daemon retrains"
mkdir -p "$out/phones"
"$bin/examples/rounds_fleet" "${admin[@]}" --dataset "$out/social" --ledgers "$out/phones" --rounds 3 \
  --epsilon 4 --feature-epsilon 4 --label-epsilon 4 | tee "$out/rounds.txt"

stop_demo_daemon
last=$(tail -n 1 "$out/rounds.txt")
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$last"; }
echo
echo "after 3 rounds, a user whose friends never changed has spent epsilon $(field loss_never_changed);" \
  "the mean user $(field loss_mean), the most $(field loss_max); fresh noise every round: $(field naive)"
echo "took $((SECONDS - start)) s after the build; the phones' ledgers: $out/phones; daemon stopped with $stop"
