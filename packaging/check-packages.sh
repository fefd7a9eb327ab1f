#!/usr/bin/env bash
# The packages as an operator gets them, in a clean Debian 12 root:
#   bash packaging/check-packages.sh PACKAGES_DIR
# (run as root: debootstrap, chroot and bind mounts; PACKAGES_DIR as
# packaging/build-packages.sh leaves it). In a fresh minimal root it
#   1. installs the five packages with apt (their dependencies from Debian);
#   2. checks each package's file list against packaging/file-lists/
#      (LDPGRAPH_UPDATE_FILE_LISTS=1 rewrites them instead), the
#      system user, and the secrets and certificate the postinst made;
#   3. checks the installed configuration with the installed ldpgraphd, starts
#      it as its user, sends it the reports of 1,000+ devices with the
#      installed ldpgraph-fleet, and trains a model with the installed CLI;
#   4. builds C programs against libldpgraph-dev (pkg-config and the shared
#      library; CMake's find_package and the static SDK with the uploader)
#      and runs them in the root, one uploading a report to the daemon;
#   5. runs a Java phone on the installed jar and JNI library under the
#      root's own JRE, and the wheel pip-installed into a venv there, both
#      uploading reports to the daemon;
#   6. stops the daemon with SIGTERM (exit 0), then purges ldpgraphd.
# Prints key=value lines; the first failure stops it with the reason.
# LDPGRAPH_DEBIAN_MIRROR: the mirror (deb.debian.org); LDPGRAPH_BASE_ROOT: a
# debootstrap --variant=minbase bookworm root to copy instead of making one.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
pkgs=$(realpath "${1:?usage: check-packages.sh PACKAGES_DIR}")
mirror=${LDPGRAPH_DEBIAN_MIRROR:-http://deb.debian.org/debian}
arch=$(dpkg --print-architecture)
triplet=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
version=$(sed -n '1s/^ldpgraph (\([^)]*\)).*/\1/p' packaging/changelog)
root=$(mktemp -d /tmp/ldpgraph_clean_root_XXXXXX)
work=$(mktemp -d /tmp/ldpgraph_package_check_XXXXXX)
start=$SECONDS

fail() { echo "check-packages: $*" >&2; exit 1; }
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }
cleanup() {
  if [ -n "${daemon_pid:-}" ] && kill -0 "$daemon_pid" 2>/dev/null; then kill -KILL "$daemon_pid" || true; fi
  for m in dev/pts dev proc; do mountpoint -q "$root/$m" && umount -l "$root/$m"; done
  rm -rf "$root" "$work"
}
trap cleanup EXIT

debs=()
for p in ldpgraphd ldpgraph libldpgraph0 libldpgraph-dev libldpgraph-java; do
  [ -f "$pkgs/${p}_${version}-1_${arch}.deb" ] || fail "$pkgs has no ${p}_${version}-1_${arch}.deb"
  debs+=("/tmp/packages/${p}_${version}-1_${arch}.deb")
done
wheel=$(ls "$pkgs"/ldpgraph-"$version"-*.whl 2>/dev/null | head -1)
[ -n "$wheel" ] || fail "$pkgs has no ldpgraph-$version wheel"

echo "== a clean Debian 12 root ($root)"
chmod 0755 "$root"  # apt's _apt user reads its lists under it
if [ -n "${LDPGRAPH_BASE_ROOT:-}" ]; then  # a minbase root made before, copied (quicker when iterating)
  cp -a "$LDPGRAPH_BASE_ROOT"/. "$root"/
else
  debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log"; fail "debootstrap failed"; }
fi
echo "deb $mirror bookworm-updates main" >>"$root/etc/apt/sources.list"
echo "deb ${mirror%/debian}/debian-security bookworm-security main" >>"$root/etc/apt/sources.list"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
mount -t proc proc "$root/proc"
echo "clean_root_seconds=$((SECONDS - start))"

echo "== apt install of the packages"
mkdir -p "$root/tmp/packages"
cp "$pkgs"/*.deb "$wheel" "$root/tmp/packages/"
in_root apt-get update -q >"$work/apt.log" 2>&1 || { tail -20 "$work/apt.log"; fail "apt-get update failed"; }
if ! in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    "${debs[@]}" >>"$work/apt.log" 2>&1; then
  tail -30 "$work/apt.log"
  fail "apt-get install of the packages failed"
fi
echo "installed_seconds=$((SECONDS - start))"

echo "== file lists, user, secrets"
for p in ldpgraphd ldpgraph libldpgraph0 libldpgraph-dev libldpgraph-java; do
  # Files and links only (dpkg -L lists directories too), the triplet as @TRIPLET@.
  in_root dpkg -L "$p" | while read -r f; do [ -d "$root$f" ] && [ ! -L "$root$f" ] || echo "$f"; done |
    sed "s/$triplet/@TRIPLET@/g; s/$version/@VERSION@/g" | sort >"$work/$p.files"
  if [ "${LDPGRAPH_UPDATE_FILE_LISTS:-0}" = 1 ]; then  # after a deliberate change to what a package holds
    mkdir -p packaging/file-lists && cp "$work/$p.files" "packaging/file-lists/$p.txt"
  elif ! diff -u "packaging/file-lists/$p.txt" "$work/$p.files"; then
    fail "package $p does not hold the files packaging/file-lists/$p.txt lists (diff above)"
  fi
done
echo "file_lists=match"
in_root getent passwd ldpgraph | grep -q ':/var/lib/ldpgraph:/usr/sbin/nologin$' || fail "no system user ldpgraph"
for f in /etc/ldpgraph/secret /etc/ldpgraph/admin-token /etc/ldpgraph/tls/server.key; do
  mode=$(in_root stat -c "%a %U %G" "$f")  # names as the root resolves them
  [ "$mode" = "440 root ldpgraph" ] || fail "$f is $mode, not 440 root ldpgraph"
done
in_root openssl x509 -in /etc/ldpgraph/tls/server.crt -noout -checkend 86400 >/dev/null || fail "no certificate"
[ "$(in_root dpkg-query -W -f='${Conffiles}' ldpgraphd | awk '{print $1}')" = /etc/ldpgraph/ldpgraphd.toml ] ||
  fail "/etc/ldpgraph/ldpgraphd.toml is not a conffile"
echo "secrets=made"

echo "== the installed daemon on its installed configuration"
in_root runuser -u ldpgraph -- ldpgraphd --check-config /etc/ldpgraph/ldpgraphd.toml || fail "--check-config refused it"
# As the unit runs it: its user, its config. setpriv execs (one pid from chroot
# to ldpgraphd, not through a function's subshell), so the SIGTERM below
# reaches the daemon itself.
chroot "$root" env -i PATH=/usr/bin:/bin LANG=C.UTF-8 setpriv --reuid=ldpgraph --regid=ldpgraph --init-groups \
  ldpgraphd --config /etc/ldpgraph/ldpgraphd.toml >"$work/ldpgraphd.log" 2>&1 &
daemon_pid=$!
admin=(--daemon https://127.0.0.1:8443 --ca /etc/ldpgraph/tls/server.crt --admin-token-file /etc/ldpgraph/admin-token)
for _ in $(seq 100); do
  in_root ldpgraph daemon graphs "${admin[@]}" >/dev/null 2>&1 && break
  kill -0 "$daemon_pid" 2>/dev/null || { cat "$work/ldpgraphd.log"; fail "ldpgraphd exited"; }
  sleep 0.1
done
in_root ldpgraph daemon graphs "${admin[@]}" >/dev/null || { cat "$work/ldpgraphd.log"; fail "ldpgraphd does not answer"; }

# 1,000+ devices: 60 generated graphs of 20-30 users, each user her own TLS connection.
in_root ldpgraph generate --output /tmp/communities.txt --graphs 60 --seed 1 >/dev/null
in_root ldpgraph-fleet "${admin[@]}" --dataset /tmp/communities.txt --epsilon 1 --clients 64 --symmetrise or \
  >"$work/fleet.txt" || { cat "$work/fleet.txt"; fail "ldpgraph-fleet failed"; }
grep -E "^(graphs|seconds|reports_per_s)=" "$work/fleet.txt" | sed "s/^/fleet_/"
delivered=$(sed -n 's/^delivered=//p' "$work/fleet.txt")
[ "${delivered:-0}" -ge 1000 ] || fail "the fleet delivered ${delivered:-no} reports, not 1,000 or more"
echo "fleet_reports_delivered=$delivered"
in_root ldpgraph daemon train "${admin[@]}" --seed 0 --epochs 30 --wait >"$work/train.txt" ||
  { cat "$work/train.txt"; fail "training failed"; }
grep -q '^state=succeeded' "$work/train.txt" || { cat "$work/train.txt"; fail "the job did not succeed"; }
echo "model_$(grep '^test_accuracy=' "$work/train.txt")"

echo "== libldpgraph-dev: C programs built against the installed files, run in the root"
gcc -std=c99 -O2 -o "$root/tmp/c_client_shared" examples/c_client/c_client.c \
  $(PKG_CONFIG_SYSROOT_DIR="$root" PKG_CONFIG_LIBDIR="$root/usr/lib/$triplet/pkgconfig" pkg-config --cflags --libs ldpgraph) -lm
in_root /tmp/c_client_shared /tmp/c_client.ledger >"$work/c_client.txt" || fail "c_client on libldpgraph.so failed"
in_root ldd /tmp/c_client_shared | grep -Eq "libldpgraph.so.0 => (/usr)?/lib/$triplet/libldpgraph.so.0" ||
  fail "c_client does not run on the installed libldpgraph.so.0"
cmake -S packaging/tests/cmake_consumer -B "$work/consumer" -DCMAKE_PREFIX_PATH="$root/usr" \
  -DLDPGRAPH_EXAMPLES="$repo/examples" >"$work/consumer.log" 2>&1 &&
  cmake --build "$work/consumer" >>"$work/consumer.log" 2>&1 || { cat "$work/consumer.log"; fail "find_package(ldpgraph) build failed"; }
cp "$work/consumer/iot_device" "$root/tmp/iot_device"
in_root ldpgraph daemon create-graph "${admin[@]}" --config /dev/stdin >/dev/null \
  <<<'{"graph_id": 900, "num_users": 4, "edges": {"mechanism": "dprr", "epsilon": 2.0}}'
in_root ldpgraph daemon tokens "${admin[@]}" --graph 900 --count 4 >"$work/tokens.txt"
awk 'NR==1 {print $2}' "$work/tokens.txt" >"$root/tmp/token-0"
echo "1 2" >"$root/tmp/friends-0"
in_root /tmp/iot_device report --daemon 127.0.0.1:8443 --ca /etc/ldpgraph/tls/server.crt --graph 900 --user 0 \
  --token-file /tmp/token-0 --friends /tmp/friends-0 --ledger /tmp/iot.ledger >"$work/iot.txt" ||
  { cat "$work/iot.txt"; fail "iot_device (static SDK and uploader) failed"; }
echo "dev_programs=ran"

echo "== libldpgraph-java under the root's JRE"
javac --release 17 -cp "$root/usr/share/java/ldpgraph.jar" -d "$root/tmp/java" examples/java_client/JavaClient.java
awk 'NR > 1 {print $1, $2, "0", "-", "-"}' "$work/tokens.txt" >"$root/tmp/phones.txt"  # users 1-3, each a friend of 0
in_root java -cp /usr/share/java/ldpgraph.jar:/tmp/java JavaClient report 127.0.0.1 8443 /etc/ldpgraph/tls/server.crt 900 \
  /tmp/phones.txt /tmp/java-storage >"$work/java.txt" 2>&1 || { cat "$work/java.txt"; fail "the Java phone failed"; }
echo "java_phones=ran"

echo "== the wheel, pip-installed offline into a venv in the root"
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends python3-venv python3-numpy \
  python3-scipy >>"$work/apt.log" 2>&1 || { tail -20 "$work/apt.log"; fail "python3 for the wheel"; }
in_root python3 -m venv --system-site-packages /opt/wheel-check
in_root /opt/wheel-check/bin/pip install -q --no-index "/tmp/packages/$(basename "$wheel")" || fail "pip install of the wheel"
cp packaging/tests/installed_wheel.py "$root/tmp/"
in_root /opt/wheel-check/bin/python /tmp/installed_wheel.py https://127.0.0.1:8443 /etc/ldpgraph/tls/server.crt \
  /etc/ldpgraph/admin-token 901 || fail "the wheel's device and client failed"

echo "== SIGTERM, then purge"
kill -TERM "$daemon_pid"
set +e
wait "$daemon_pid"
status=$?
set -e
daemon_pid=
[ "$status" -eq 0 ] || { tail -20 "$work/ldpgraphd.log"; fail "ldpgraphd exited $status on SIGTERM"; }
in_root env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q ldpgraphd >>"$work/apt.log" 2>&1 || fail "purge failed"
[ ! -e "$root/etc/ldpgraph" ] && [ ! -e "$root/var/lib/ldpgraph" ] || fail "purge left /etc/ldpgraph or /var/lib/ldpgraph"
echo "purged=clean"
echo "check_packages_seconds=$((SECONDS - start))"
