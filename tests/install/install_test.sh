#!/usr/bin/env bash
# Installs the build tree into a temporary prefix and builds a consumer
# project against it twice: with find_package(ldpgraph) and with pkg-config.
#   install_test.sh BUILD_DIR CONSUMER_SOURCE_DIR
set -euo pipefail
build_dir=$1
consumer=$2
work=$(mktemp -d /tmp/ldpgraph_install_XXXXXX)
trap 'rm -rf "$work"' EXIT

cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
# lib/, or lib/<multiarch>/ in a build configured for the /usr prefix (Debian's layout, as CI's is).
libdir=$(cd "$work/prefix" && dirname "$(dirname "$(ls -d lib/cmake/ldpgraph lib/*/cmake/ldpgraph 2>/dev/null | head -1)")")
for f in bin/ldpgraph bin/ldpgraphd include/ldpgraph/ldpgraph.h include/ldpgraph/dprr.h "$libdir/libldpgraph.a" \
         include/ldpgraph/transport/uploader.h include/ldpgraph/ldpgraph_transport.h "$libdir/libldpgraph_transport.a" \
         "$libdir/libldpgraph.so" "$libdir/cmake/ldpgraph/ldpgraphConfig.cmake" "$libdir/pkgconfig/ldpgraph.pc" \
         etc/ldpgraph/ldpgraphd.toml share/ldpgraph/monitoring/ldpgraphd.rules.yml; do
  [[ -e "$work/prefix/$f" ]] || { echo "missing after install: $f"; exit 1; }
done
"$work/prefix/bin/ldpgraph" version
"$work/prefix/bin/ldpgraphd" --version

# find_package
cmake -S "$consumer" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/cmake-build" >/dev/null
"$work/cmake-build/consumer"
"$work/cmake-build/uploader_consumer"

# pkg-config (the .pc file names the real prefix, so point at the temporary one)
export PKG_CONFIG_PATH="$work/prefix/$libdir/pkgconfig"
flags=$(pkg-config --define-variable=prefix="$work/prefix" --cflags --libs ldpgraph)
c++ -std=c++17 "$consumer/main.cc" $flags -o "$work/pc-consumer"
# -lldpgraph links the shared SDK, found at run time outside the system's library path.
LD_LIBRARY_PATH="$work/prefix/$libdir" "$work/pc-consumer"

echo "install_test: find_package and pkg-config consumers built and ran"
