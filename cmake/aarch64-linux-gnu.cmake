# Cross-compiling the SDK for 64-bit ARM with Debian's crossbuild-essential-arm64:
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
#         -DLDPGRAPH_BUILD_DAEMON=OFF -DLDPGRAPH_BUILD_TESTS=OFF -DLDPGRAPH_BUILD_EXAMPLES=OFF
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
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
find_program(LDPGRAPH_QEMU_aarch64 qemu-aarch64)
if(LDPGRAPH_QEMU_aarch64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${LDPGRAPH_QEMU_aarch64} -L /usr/aarch64-linux-gnu)
endif()
