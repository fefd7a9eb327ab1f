#!/usr/bin/env bash
# The monitoring files (daemon/monitoring/) against a real Prometheus scraping
# a real ldpgraphd:
#   prometheus_check.sh LDPGRAPHD LDPGRAPH FLEET_SIMULATOR
# A scratch daemon gets a fleet's reports, one refused report and a training
# job; Debian's prometheus scrapes its /metrics over TLS every second with
# the alert rules loaded. Then: promtool accepts the rules and the config,
# every rule evaluates without error, and every query of every dashboard
# panel returns at least one series. Prints key=value lines; exits 1 with the
# reason on the first failure.
set -euo pipefail
cd "$(dirname "$0")/../.."
ldpgraphd=$(realpath "$1") ldpgraph=$(realpath "$2") fleet=$(realpath "$3")
monitoring=$PWD/daemon/monitoring
for tool in prometheus promtool; do
  command -v "$tool" >/dev/null || { echo "prometheus_check: $tool is missing (apt-get install prometheus)" >&2; exit 1; }
done
dir=$(mktemp -d /tmp/ldpgraph_prometheus_XXXXXX)
prometheus_pid=
cleanup() {
  [ -n "$prometheus_pid" ] && kill "$prometheus_pid" 2>/dev/null || true
  [ -n "${daemon_pid:-}" ] && kill "$daemon_pid" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "prometheus_check: $*" >&2; exit 1; }

promtool check rules "$monitoring/ldpgraphd.rules.yml" >/dev/null || fail "promtool rejects ldpgraphd.rules.yml"

source examples/scratch_daemon.sh
start_scratch_daemon "$ldpgraphd" "$dir"
"$ldpgraph" generate --output "$dir/communities.txt" --graphs 20 --seed 1 >/dev/null
"$fleet" "${admin[@]}" --dataset "$dir/communities.txt" --epsilon 1 --clients 32 >"$dir/fleet.txt" ||
  { cat "$dir/fleet.txt"; fail "the fleet failed"; }
# A report with a token that is not one: refused (401), counted by reason.
curl -s -o /dev/null --cacert "$pki/ca.crt" -H "Authorization: Bearer not-a-token" \
  -H "Content-Type: application/x-ldpgraph-report" --data-binary "x" "https://127.0.0.1:$port/v1/reports"
"$ldpgraph" daemon train "${admin[@]}" --epochs 5 --wait >"$dir/job.txt" || { cat "$dir/job.txt"; fail "training failed"; }

prometheus_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$dir/prometheus.yml" <<YAML
global: {scrape_interval: 1s, evaluation_interval: 1s}
rule_files: ["$monitoring/ldpgraphd.rules.yml"]
scrape_configs:
  - job_name: ldpgraphd
    scheme: https
    tls_config: {ca_file: "$pki/ca.crt"}
    static_configs: [{targets: ["127.0.0.1:$port"]}]
YAML
promtool check config "$dir/prometheus.yml" >/dev/null || fail "promtool rejects the scrape config"
prometheus --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/tsdb" \
  --web.listen-address="127.0.0.1:$prometheus_port" >"$dir/prometheus.log" 2>&1 &
prometheus_pid=$!
api=http://127.0.0.1:$prometheus_port/api/v1

# The daemon scraped (up == 1), then 6 s more: rate() and increase() need two samples.
for _ in $(seq 150); do
  up=$(curl -s "$api/query" --data-urlencode 'query=up{job="ldpgraphd"}' |
    python3 -c 'import json, sys; r = json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "")' \
    2>/dev/null || true)
  [ "$up" = 1 ] && break
  kill -0 "$prometheus_pid" 2>/dev/null || { cat "$dir/prometheus.log"; fail "prometheus exited"; }
  sleep 0.2
done
[ "$up" = 1 ] || { tail -20 "$dir/prometheus.log"; fail "prometheus never scraped ldpgraphd (up is '$up')"; }
sleep 6

python3 - "$api" "$monitoring/ldpgraphd.dashboard.json" <<'PY'
import json, sys, urllib.parse, urllib.request

api, dashboard = sys.argv[1], sys.argv[2]

def get(path, **params):
    with urllib.request.urlopen(api + path + ("?" + urllib.parse.urlencode(params) if params else "")) as r:
        answer = json.load(r)
    if answer.get("status") != "success":
        sys.exit("prometheus_check: %s %s: %s" % (path, params, answer))
    return answer["data"]

panels = json.load(open(dashboard))["panels"]
queries = 0
for panel in panels:
    for target in panel["targets"]:
        series = get("/query", query=target["expr"])["result"]
        if not series:
            sys.exit("prometheus_check: panel '%s' query %s returns no series" % (panel["title"], target["expr"]))
        queries += 1
print("dashboard_panels=%d" % len(panels))
print("dashboard_queries_with_data=%d" % queries)

rules = [r for group in get("/rules")["groups"] for r in group["rules"]]
bad = [r["name"] for r in rules if r.get("health") != "ok"]
if len(rules) != 10 or bad:
    sys.exit("prometheus_check: %d rules loaded (10 expected), unhealthy: %s" % (len(rules), bad))
print("alert_rules_healthy=%d" % len(rules))
firing = sorted({a["labels"]["alertname"] for a in get("/alerts")["alerts"] if a["state"] == "firing"})
print("alerts_firing=%s" % (",".join(firing) or "none"))
PY
