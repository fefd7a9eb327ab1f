# What the Linux cross toolchain files share (aarch64-linux-gnu.cmake,
# arm-linux-gnueabihf.cmake): Debian's crossbuild-essential compilers for
# LDPGRAPH_CROSS_TRIPLET and their sysroot, the target's OpenSSL for the TLS
# uploader (a sysroot .ci/target-openssl unpacked, -DLDPGRAPH_TARGET_OPENSSL=DIR),
# and qemu-user (package qemu-user) when it is installed: ctest then starts
# each test binary through it, with the target's libraries from the sysroot.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_C_COMPILER ${LDPGRAPH_CROSS_TRIPLET}-gcc)
set(CMAKE_CXX_COMPILER ${LDPGRAPH_CROSS_TRIPLET}-g++)
set(CMAKE_FIND_ROOT_PATH /usr/${LDPGRAPH_CROSS_TRIPLET})
if(LDPGRAPH_TARGET_OPENSSL)
  list(APPEND CMAKE_FIND_ROOT_PATH ${LDPGRAPH_TARGET_OPENSSL}/usr)
endif()
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
find_program(LDPGRAPH_QEMU_USER ${LDPGRAPH_CROSS_QEMU})
if(LDPGRAPH_QEMU_USER)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${LDPGRAPH_QEMU_USER} -L /usr/${LDPGRAPH_CROSS_TRIPLET})
endif()
