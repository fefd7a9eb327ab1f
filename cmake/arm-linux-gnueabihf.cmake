# Cross-compiling the SDK for 32-bit ARM (armhf: ARMv7-A, hard float) with Debian's crossbuild-essential-armhf:
#   cmake -S . -B build-armhf -DCMAKE_TOOLCHAIN_FILE=cmake/arm-linux-gnueabihf.cmake \
#         -DLDPGRAPH_BUILD_DAEMON=OFF -DLDPGRAPH_BUILD_TESTS=OFF -DLDPGRAPH_BUILD_EXAMPLES=OFF
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR armv7l)
set(CMAKE_C_COMPILER arm-linux-gnueabihf-gcc)
set(CMAKE_CXX_COMPILER arm-linux-gnueabihf-g++)
set(CMAKE_FIND_ROOT_PATH /usr/arm-linux-gnueabihf)
# The target's OpenSSL, for the TLS uploader: a sysroot .ci/target-openssl unpacked.
if(LDPGRAPH_TARGET_OPENSSL)
  list(APPEND CMAKE_FIND_ROOT_PATH ${LDPGRAPH_TARGET_OPENSSL}/usr)
endif()
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
# Tests built here run under Debian's qemu-user (package qemu-user) when it is
# installed: ctest starts each test binary through it, with the target's
# libraries from the cross toolchain's sysroot.
find_program(LDPGRAPH_QEMU_arm qemu-arm)
if(LDPGRAPH_QEMU_arm)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${LDPGRAPH_QEMU_arm} -L /usr/arm-linux-gnueabihf)
endif()
