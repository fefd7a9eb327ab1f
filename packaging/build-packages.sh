#!/usr/bin/env bash
# Builds ldpgraph's Debian packages and its Python wheel:
#   bash packaging/build-packages.sh [BUILD_DIR] [OUT_DIR]
# BUILD_DIR (default build/package) is configured for the /usr prefix with
# the Java library and the Python package, and built unless it already is
# (CI passes its release build, reconfigured only in its install prefix);
# OUT_DIR (default BUILD_DIR/packages) gets
#   ldpgraphd_V-1_ARCH.deb  ldpgraph_V-1_ARCH.deb  libldpgraph0_V-1_ARCH.deb
#   libldpgraph-dev_V-1_ARCH.deb  libldpgraph-java_V-1_ARCH.deb
#   ldpgraph-V-cpXY-cpXY-linux_ARCH.whl   (pip install it offline; numpy and
#                                          scipy from Debian or the index)
# Installs the Debian packages it needs first (.ci/install-deps --packages).
set -euo pipefail
cd "$(dirname "$0")/.."
.ci/install-deps --packages
build=${1:-build/package}
out=${2:-$build/packages}

# A fresh build folder builds no tests (what the packages hold only); one
# that exists keeps its settings but the prefix (CI's release build).
fresh=()
[ -f "$build/CMakeCache.txt" ] || fresh=(-DLDPGRAPH_BUILD_TESTS=OFF)
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr "${fresh[@]}" \
  -DLDPGRAPH_BUILD_JAVA=ON -DLDPGRAPH_BUILD_PYTHON=ON -DPython3_EXECUTABLE=/usr/bin/python3 >/dev/null
cmake --build "$build" -j "$(nproc)" --target ldpgraphd ldpgraph_cli fleet_simulator ldpgraph_sdk ldpgraph_sdk_shared \
  ldpgraph_transport ldpgraph_jni ldpgraph_java _ldpgraph

build=$(realpath "$build")
mkdir -p "$out"
rm -f "$out"/*.deb "$out"/*.whl
(cd "$build" && cpack -G DEB -B "$build/cpack" >/dev/null)
mv "$build"/cpack/*.deb "$out"/
rm -rf "$build/cpack"

# The wheel holds the native module this build made; pip builds nothing else.
LDPGRAPH_CMAKE_BUILD_DIR="$build" /usr/bin/python3 -m pip wheel -q --no-build-isolation --no-index --no-deps \
  -w "$out" daemon/bindings/python
rm -rf daemon/bindings/python/build daemon/bindings/python/ldpgraph.egg-info

for f in "$out"/*; do
  echo "package=$(basename "$f") bytes=$(stat -c %s "$f")"
done
