# Cross-compiling for 64-bit ARM Linux (phones' CPUs, Linux boards) with
# Debian's crossbuild-essential-arm64; tests run under qemu-aarch64:
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake -DLDPGRAPH_BUILD_DAEMON=OFF
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(LDPGRAPH_CROSS_TRIPLET aarch64-linux-gnu)
set(LDPGRAPH_CROSS_QEMU qemu-aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/linux-cross.cmake)
