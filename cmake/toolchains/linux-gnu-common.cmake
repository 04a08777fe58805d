# Shared part of the hosted (glibc) cross toolchain files: aarch64-linux-gnu.cmake and
# riscv64-linux-gnu.cmake set ALTMEM_CROSS_TRIPLE and ALTMEM_CROSS_QEMU, then include this.
#
# Compiler: <triple>-gcc.  Sysroot: Debian's /usr/<triple> (libc6-dev-*-cross).
# Emulator: the dynamic qemu-<arch> from Debian's qemu-user (it can load TCG plugins;
# the -static build cannot), with -L /usr/<triple> so it finds the guest's dynamic
# loader.  ALTMEM_QEMU overrides the emulator.
set(CMAKE_SYSTEM_NAME Linux)
string(REGEX REPLACE "-.*" "" CMAKE_SYSTEM_PROCESSOR "${ALTMEM_CROSS_TRIPLE}")
set(CMAKE_C_COMPILER ${ALTMEM_CROSS_TRIPLE}-gcc)
set(CMAKE_FIND_ROOT_PATH /usr/${ALTMEM_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# Toolchain files are read once per try_compile too: pass our settings along.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES ALTMEM_CROSS_TRIPLE ALTMEM_CROSS_QEMU ALTMEM_CROSS_STATIC)

set(ALTMEM_CROSS_STATIC OFF CACHE BOOL "Link the programs -static (glibc static) instead of dynamically")
if(ALTMEM_CROSS_STATIC)
  # Every program static, so nothing can use a libaltmem.so: do not build one.
  set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
  set(ALTMEM_BUILD_SHARED OFF CACHE BOOL "Static programs only (ALTMEM_CROSS_STATIC)" FORCE)
endif()

find_program(ALTMEM_QEMU NAMES ${ALTMEM_CROSS_QEMU} DOC "qemu-user emulator for the test programs")
if(ALTMEM_QEMU)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${ALTMEM_QEMU} -L /usr/${ALTMEM_CROSS_TRIPLE})
  execute_process(COMMAND ${ALTMEM_QEMU} --version OUTPUT_VARIABLE _altmem_qv0 ERROR_QUIET)
  string(REGEX MATCH "version ([0-9]+)\\." _altmem_qm0 "${_altmem_qv0}")
  if(CMAKE_SYSTEM_PROCESSOR STREQUAL "aarch64" AND CMAKE_MATCH_1 AND CMAKE_MATCH_1 LESS 8)
    # qemu 7.2 reports a wrong PC for some faults of SVE loads and stores (a
    # SIGBUS from a file page past EOF, a SIGSEGV from a page another thread
    # has just protected: the signal arrives with the PC of an earlier
    # instruction), so the exception table cannot claim them; qemu 10 reports
    # the faulting instruction (docs/arch-notes.md, "aarch64 vector variants").
    # The SVE variants are tested under qemu 10 (the CPU-model matrix); under
    # 7.2 the CPU has no SVE and advsimd binds.
    list(APPEND CMAKE_CROSSCOMPILING_EMULATOR -cpu max,sve=off)
  endif()
endif()

# What detection must report under this emulator (tests/selection.cmake and
# tests/cross.cmake check it).  aarch64: UAL is architectural.  riscv64: qemu-user
# answers riscv_hwprobe from 8.1 on, with CPUPERF_0 = FAST (checked with 10.0.2);
# 7.2 (Debian 12) returns ENOSYS, so no UAL and the generic variants.
if(ALTMEM_QEMU AND NOT DEFINED ALTMEM_EXPECT_VARIANT)
  execute_process(COMMAND ${ALTMEM_QEMU} --version OUTPUT_VARIABLE _altmem_qv ERROR_QUIET)
  string(REGEX MATCH "version ([0-9]+\\.[0-9]+)" _altmem_qm "${_altmem_qv}")
  set(ALTMEM_EMULATOR_VERSION "${CMAKE_MATCH_1}")
  if(CMAKE_SYSTEM_PROCESSOR STREQUAL "riscv64" AND ALTMEM_EMULATOR_VERSION VERSION_LESS 8.1)
    set(ALTMEM_EXPECT_VARIANT generic)
    set(ALTMEM_EMULATOR_HAS_HWPROBE OFF)
  else()
    set(ALTMEM_EXPECT_VARIANT ual)
    set(ALTMEM_EMULATOR_HAS_HWPROBE ON)
  endif()
endif()
