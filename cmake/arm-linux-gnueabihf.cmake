# Cross-compiling for 32-bit ARM Linux (armhf: ARMv7-A, hard float; IoT
# boards) with Debian's crossbuild-essential-armhf; tests run under qemu-arm:
#   cmake -S . -B build-armhf -DCMAKE_TOOLCHAIN_FILE=cmake/arm-linux-gnueabihf.cmake -DLDPGRAPH_BUILD_DAEMON=OFF
set(CMAKE_SYSTEM_PROCESSOR armv7l)
set(LDPGRAPH_CROSS_TRIPLET arm-linux-gnueabihf)
set(LDPGRAPH_CROSS_QEMU qemu-arm)
include(${CMAKE_CURRENT_LIST_DIR}/linux-cross.cmake)
