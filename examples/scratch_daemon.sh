# A throwaway ldpgraphd on loopback, for the demos and the device fleet check
# (tests/device/armhf_fleet_check.sh). Source it, then
#   start_scratch_daemon LDPGRAPHD DIR
# makes a CA and a certificate for 127.0.0.1 under DIR/pki, a token secret and
# an admin token, and a config that takes any free port; starts the daemon
# (its JSON log in DIR/ldpgraphd.log) and sets daemon_pid, port, pki, and admin
# (the flags `ldpgraph daemon` needs). The caller stops the daemon.
start_scratch_daemon() {
  local ldpgraphd=$1 dir=$2
  pki=$dir/pki
  mkdir -p "$pki"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj "/CN=ldpgraph scratch CA" \
    -keyout "$pki/ca.key" -out "$pki/ca.crt" 2>/dev/null
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=localhost" \
    -keyout "$pki/server.key" -out "$pki/server.csr" 2>/dev/null
  openssl x509 -req -in "$pki/server.csr" -CA "$pki/ca.crt" -CAkey "$pki/ca.key" -CAcreateserial -days 2 \
    -extfile <(printf "subjectAltName=IP:127.0.0.1,DNS:localhost") -out "$pki/server.crt" 2>/dev/null
  head -c 48 /dev/urandom | base64 -w0 > "$dir/secret"
  head -c 24 /dev/urandom | base64 -w0 | tr '+/' '-_' > "$dir/admin-token"
  chmod 600 "$pki/server.key" "$dir/secret" "$dir/admin-token"
  cat > "$dir/ldpgraphd.toml" <<TOML
[server]
listen_address = "127.0.0.1"
listen_port = 0            # any free port; the log says which
threads = 2
[tls]
certificate = "pki/server.crt"
private_key = "pki/server.key"
[store]
path = "store.db"
[auth]
secret_file = "secret"
admin_token_file = "admin-token"
[limits]
per_address_rate = 0       # every device here shares 127.0.0.1
[log]
format = "json"
TOML
  "$ldpgraphd" --config "$dir/ldpgraphd.toml" 2> "$dir/ldpgraphd.log" &
  daemon_pid=$!
  port=""
  for _ in $(seq 100); do
    port=$(grep -o '"event":"listening"[^}]*"port":"[0-9]*"' "$dir/ldpgraphd.log" 2>/dev/null | grep -o '[0-9]*"$' |
      tr -d '"' || true)
    [[ -n "$port" ]] && break
    sleep 0.1
  done
  if [[ -z "$port" ]]; then
    echo "ldpgraphd did not start:" >&2
    cat "$dir/ldpgraphd.log" >&2
    kill "$daemon_pid" 2>/dev/null || true
    return 1
  fi
  admin=(--daemon "https://127.0.0.1:$port" --ca "$pki/ca.crt" --admin-token-file "$dir/admin-token")
}

# The demos' daemon: a scratch daemon in DIR that is killed if the script
# exits early; stop_demo_daemon stops it with SIGTERM and sets $stop to how
# it exited.
start_demo_daemon() {
  start_scratch_daemon "$1" "$2"
  trap 'kill "$daemon_pid" 2>/dev/null || true' EXIT
}
stop_demo_daemon() {
  kill -TERM "$daemon_pid"
  wait "$daemon_pid" && stop="exit 0" || stop="exit $?"
  trap - EXIT
}
