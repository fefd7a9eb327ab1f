# Bare-metal Cortex-M4F (arm-none-eabi-gcc, newlib-nano) with Debian's
# gcc-arm-none-eabi, libnewlib-arm-none-eabi and libstdc++-arm-none-eabi-newlib:
# the SDK's report path for microcontrollers and its device tests.
#   cmake -S . -B build-cortex-m4f -DCMAKE_TOOLCHAIN_FILE=cmake/cortex-m4f.cmake -DCMAKE_BUILD_TYPE=MinSizeRel
# The tests run on QEMU's MPS2 AN386 board (a Cortex-M4 with its FPU) with
# semihosting for output and exit status, one instruction per nanosecond of
# the board's clock (-icount shift=0) so that time read on the board counts
# instructions.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR cortex-m4)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(ldpgraph_cpu_flags "-mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard -ffunction-sections -fdata-sections")
set(CMAKE_C_FLAGS_INIT "${ldpgraph_cpu_flags}")
# Embedded rules: no exceptions, no RTTI, no thread-safe statics (no threads).
set(CMAKE_CXX_FLAGS_INIT "${ldpgraph_cpu_flags} -fno-exceptions -fno-rtti -fno-threadsafe-statics")
# newlib-nano; libnosys answers the system calls a board without an OS lacks.
set(CMAKE_EXE_LINKER_FLAGS_INIT "--specs=nano.specs --specs=nosys.specs -Wl,--gc-sections")
find_program(LDPGRAPH_QEMU_SYSTEM_ARM qemu-system-arm)
if(LDPGRAPH_QEMU_SYSTEM_ARM)
  # Semihosting's console on QEMU's standard output (by default it goes to stderr).
  set(CMAKE_CROSSCOMPILING_EMULATOR ${LDPGRAPH_QEMU_SYSTEM_ARM} -M mps2-an386 -display none -monitor none
      -serial null -chardev stdio,id=semihosting -semihosting-config enable=on,target=native,chardev=semihosting
      -icount shift=0 -kernel)
endif()
