# Cross build for loongarch64 Linux without a C library: Debian 12 has no LoongArch
# gcc or libc, so clang-19 and lld-19 build the freestanding flavour
# (ALTMEM_FREESTANDING: raw system calls, docs/freestanding.md) and the
# freestanding test program, which CTest runs under qemu-loongarch64.
#
#   cmake -S . -B build-loongarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/loongarch64-freestanding.cmake
#         [-DALTMEM_QEMU=/path/to/qemu-loongarch64] [-DALTMEM_LSX=ON]
#
# -mno-lsx unless ALTMEM_LSX: clang-19's default (la64v1.0) includes LSX, which
# Debian 12's qemu 7.2 (la464 without LSX) does not emulate.  scripts/cross-check.sh
# loongarch64 (or `make check-loongarch64`) does all of this and runs the suite.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR loongarch64)
set(ALTMEM_CROSS_TARGET loongarch64-unknown-linux-gnu)

find_program(ALTMEM_CLANG NAMES clang-19 clang DOC "clang that targets loongarch64")
set(CMAKE_C_COMPILER ${ALTMEM_CLANG})
set(CMAKE_ASM_COMPILER ${ALTMEM_CLANG})
set(CMAKE_C_COMPILER_TARGET ${ALTMEM_CROSS_TARGET})
set(CMAKE_ASM_COMPILER_TARGET ${ALTMEM_CROSS_TARGET})
find_program(CMAKE_NM NAMES llvm-nm-19 llvm-nm nm)
find_program(CMAKE_OBJDUMP NAMES llvm-objdump-19 llvm-objdump objdump)

set(ALTMEM_LSX OFF CACHE BOOL "Let clang use LSX (needs an emulator with LSX: qemu >= 8)")
set(_altmem_flags "-ffreestanding")
if(NOT ALTMEM_LSX)
  string(APPEND _altmem_flags " -mno-lsx")
endif()
set(CMAKE_C_FLAGS_INIT "${_altmem_flags}")
set(CMAKE_ASM_FLAGS_INIT "${_altmem_flags}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-nostdlib -static -fuse-ld=lld")
# No C library to link a test program against: check the compiler with a library.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES ALTMEM_CLANG ALTMEM_CROSS_TARGET ALTMEM_LSX)

set(ALTMEM_FREESTANDING ON CACHE BOOL "No C library: raw system calls" FORCE)

find_program(ALTMEM_QEMU NAMES qemu-loongarch64 DOC "qemu-user emulator for the test programs")
if(ALTMEM_QEMU)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${ALTMEM_QEMU})
endif()
# What detection must report under this emulator (tests/cross.cmake checks it):
# qemu's default CPU, la464, has CPUCFG1.UAL = 1, so ual; LSX and LASX appear in
# AT_HWCAP from qemu 8.1 on (checked with 10.0.2; 7.2 has neither).
set(ALTMEM_EXPECT_VARIANT ual)
if(ALTMEM_QEMU)
  execute_process(COMMAND ${ALTMEM_QEMU} --version OUTPUT_VARIABLE _altmem_qv ERROR_QUIET)
  string(REGEX MATCH "version ([0-9]+\\.[0-9]+)" _altmem_qm "${_altmem_qv}")
  set(ALTMEM_EMULATOR_VERSION "${CMAKE_MATCH_1}")
  if(ALTMEM_EMULATOR_VERSION VERSION_GREATER_EQUAL 8.1)
    set(ALTMEM_EMULATOR_HAS_LSX ON)
  else()
    set(ALTMEM_EMULATOR_HAS_LSX OFF)
  endif()
endif()
