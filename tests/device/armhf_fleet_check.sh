#!/usr/bin/env bash
# A fleet of 32-bit ARM boards against a real ldpgraphd: the C sample
# (examples/iot_device) cross-built for armhf runs under qemu-arm as DEVICES
# devices (default 300) of a generated social graph. Each uploads her report
# over TLS (certificate verified, her own token); the daemon trains a GCN on
# what arrived; then each device fetches her own result, which must be the
# admin API's prediction for her (same class, probabilities within 1e-6).
#   armhf_fleet_check.sh LDPGRAPHD LDPGRAPH IOT_DEVICE EMULATOR...
# Prints key=value lines; exits 1 at the first mismatch.
set -euo pipefail
ldpgraphd=$1
ldpgraph=$2
device=$3
shift 3
emulator=("$@")
devices=${DEVICES:-300}
parallel=${PARALLEL:-$(($(nproc) * 2))}
work=$(mktemp -d /tmp/ldpgraph_armhf_fleet_XXXXXX)
daemon_pid=""
cleanup() {
  [[ -n "$daemon_pid" ]] && kill "$daemon_pid" 2>/dev/null && wait "$daemon_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "armhf_fleet_check: $*" >&2
  exit 1
}
start=$SECONDS

source "$(dirname "$0")/../../examples/scratch_daemon.sh"
start_scratch_daemon "$ldpgraphd" "$work" || fail "ldpgraphd did not start"

# The users: a generated social graph of two classes, 16 binary features each.
"$ldpgraph" generate --kind sbm --nodes "$devices" --degree 8 --classes 2 --homophily 0.8 --features 16 --words 4 \
  --seed 7 --output "$work/graph" >/dev/null
cat > "$work/graph.json" <<JSON
{"graph_id": 1, "num_users": $devices, "edges": {"mechanism": "dprr", "epsilon": 1.0},
 "features": {"dims": 16, "epsilon": 4.0, "ranges": [[0, 1]]}, "label": {"classes": 2, "epsilon": 2.0}}
JSON
"$ldpgraph" daemon create-graph "${admin[@]}" --config "$work/graph.json" >/dev/null
"$ldpgraph" daemon tokens "${admin[@]}" --graph 1 --count "$devices" > "$work/tokens.txt"
[[ $(wc -l < "$work/tokens.txt") -eq $devices ]] || fail "expected $devices tokens"

# Each device's own files: her token, friends, dense features and label.
mkdir -p "$work/devices"
awk -v dir="$work/devices" '{ print $2 > (dir "/" $1 ".token") }' "$work/tokens.txt"
awk -F, -v dir="$work/devices" 'NR > 1 { printf "%s ", $2 >> (dir "/" $1 ".friends") }' "$work/graph/edges.csv"
awk -F, -v dir="$work/devices" -v n="$devices" '
  NR > 1 { x[$1 "," $2] = $3 }
  END { for (u = 0; u < n; ++u) { line = ""; for (f = 0; f < 16; ++f) line = line ((u "," f) in x ? x[u "," f] : 0) " ";
                                  print line > (dir "/" u ".features") } }' "$work/graph/features.csv"
awk -F, -v dir="$work/devices" 'NR > 1 { print $2 > (dir "/" $1 ".label") }' "$work/graph/labels.csv"
for ((u = 0; u < devices; ++u)); do touch "$work/devices/$u.friends"; done

run_device() {
  local u=$1 command=$2
  local d=$work/devices/$u
  local args=(--daemon "127.0.0.1:$port" --ca "$pki/ca.crt" --graph 1 --token-file "$d.token")
  if [[ $command == report ]]; then
    args+=(--user "$u" --friends "$d.friends" --features "$d.features" --label "$(cat "$d.label")" --ledger "$d.ledger")
  fi
  "${emulator[@]}" "$device" "$command" "${args[@]}" > "$d.$command" 2> "$d.$command.err" || {
    echo "device $u ($command): $(cat "$d.$command.err")" >&2
    return 1
  }
}
export -f run_device
export work port device pki
export EMULATOR="${emulator[*]}"
emulated() { read -r -a emulator <<<"$EMULATOR"; run_device "$@"; }
export -f emulated

upload_start=$SECONDS
seq 0 $((devices - 1)) | xargs -P "$parallel" -I{} bash -c 'emulated {} report' || fail "a device failed to report"
echo "armhf_devices=$devices"
echo "armhf_uploaded=$(grep -l '^uploaded=1$' "$work"/devices/*.report | wc -l)"
echo "armhf_upload_seconds=$((SECONDS - upload_start))"
reports=$("$ldpgraph" daemon graphs "${admin[@]}" | sed -n 's/.* reports=\([0-9]*\).*/\1/p')
[[ "$reports" -eq $devices ]] || fail "the daemon holds $reports reports, not $devices"

"$ldpgraph" daemon train "${admin[@]}" --graph 1 --model gcn --label-method fc --epochs 60 --seed 1 --wait \
  > "$work/job.txt" || { cat "$work/job.txt" >&2; fail "training failed"; }
version=$(sed -n 's/^model_version=//p' "$work/job.txt")
[[ -n "$version" ]] || fail "no model version in: $(cat "$work/job.txt")"
echo "armhf_model_version=$version test_accuracy=$(sed -n 's/^test_accuracy=//p' "$work/job.txt")"
"$ldpgraph" daemon predict "${admin[@]}" --model "$version" --nodes "$(seq -s, 0 $((devices - 1)))" > "$work/predicted.txt"

result_start=$SECONDS
seq 0 $((devices - 1)) | xargs -P "$parallel" -I{} bash -c 'emulated {} result' || fail "a device failed to fetch her result"
echo "armhf_result_seconds=$((SECONDS - result_start))"
matching=0
for ((u = 0; u < devices; ++u)); do
  line=$(grep "^node=$u " "$work/predicted.txt") || fail "no admin prediction for user $u"
  admin_class=$(sed 's/.* class=\([0-9]*\) .*/\1/' <<<"$line")
  admin_p=$(sed 's/.*probabilities=\[\(.*\)\]/\1/' <<<"$line")
  d=$work/devices/$u.result
  device_class=$(sed -n 's/^class_label=//p' "$d")
  device_p=$(sed -n 's/^probabilities=//p' "$d")
  [[ "$(sed -n 's/^user_id=//p' "$d")" == "$u" ]] || fail "device $u was answered for another user: $(cat "$d")"
  [[ "$device_class" == "$admin_class" ]] || fail "user $u: the device reads class $device_class, the admin API says $admin_class"
  awk -v a="$admin_p" -v b="$device_p" 'BEGIN { n = split(a, x, ","); m = split(b, y, ",");
      if (n != m) exit 1; for (i = 1; i <= n; ++i) if (x[i] - y[i] > 1e-6 || y[i] - x[i] > 1e-6) exit 1 }' ||
    fail "user $u: probabilities $device_p on the device, $admin_p from the admin API"
  matching=$((matching + 1))
done
echo "armhf_results_matching_admin_api=$matching"
echo "armhf_fleet_seconds=$((SECONDS - start))"
