# Other architectures and C libraries (included from tests/CMakeLists.txt); what runs
# where is in docs/arch-notes.md.
#
# In every build (native, cross, freestanding), unless sanitizing:
#   freestanding.sweep           tests/freestanding/fs_test: altmem linked -nostdlib with
#                                its raw-syscall flavour and started by our own _start
#   freestanding.selftest        ... its checker against broken routines
#   freestanding.detect_*        altmem_init_freestanding() with the real envp/auxv:
#                                default, hwcaps=-UAL, hwcaps=+UAL bindings
# In cross builds (CMAKE_CROSSCOMPILING: the tests run under qemu-user):
#   cross_info_*                 the hosted `altmem info` under the emulator: the
#                                binding its CPU model must give, and the overrides
#   misalign.generic_<routine>   the QEMU TCG plugin (tests/qemu-plugin/) counts
#                                misaligned accesses made by each generic variant over
#                                the offset matrix: must be 0
#   misalign.ual_control         ... and by the ual variants: must be > 0
#   qemu_bpo.*                   the same detection under the newer qemu from
#                                bookworm-backports (LSX/LASX, riscv_hwprobe)
# In the native build only (not in the nested builds it starts):
#   cross.<target>               scripts/cross-check.sh <target>: configure, build and run
#                                this whole suite for aarch64, aarch64-static, riscv64,
#                                riscv64-static, loongarch64 (freestanding) and musl;
#                                exits 77 (skipped, reason on the last line) when a
#                                compiler, C library or emulator is missing
#
# Run just these: ctest -R '^(freestanding|cross|misalign|qemu_bpo)'

# ---- The freestanding test program -------------------------------------------------

set(ALTMEM_FS_DIR ${CMAKE_CURRENT_LIST_DIR}/freestanding)
if(TARGET altmem_freestanding AND NOT ALTMEM_SANITIZE)
  add_executable(fs_test ${ALTMEM_FS_DIR}/fs_test.c ${ALTMEM_FS_DIR}/fs_rt.c ${ALTMEM_FS_DIR}/fs_start.c)
  target_include_directories(fs_test PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src ${ALTMEM_FS_DIR})
  # No C library anywhere: the runtime's byte loops must stay loops, and nothing may
  # expect a stack-protector guard or libc start-up.  Static and not PIE: addresses
  # from nm are run-time addresses (the misalignment proof relies on it).
  target_compile_options(fs_test PRIVATE ${ALTMEM_NOLIBC_FLAGS} -fno-stack-protector)
  target_link_options(fs_test PRIVATE -nostdlib -static $<$<C_COMPILER_ID:GNU>:-no-pie>)
  target_link_libraries(fs_test PRIVATE altmem_freestanding)
  if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
    # libgcc: the compiler's own helpers (not a C library), should it call any.
    target_link_libraries(fs_test PRIVATE gcc)
  endif()

  # Emulators are slow: the smaller sweep (every offset residue mod 16 still).
  set(_fs_quick "")
  if(CMAKE_CROSSCOMPILING)
    set(_fs_quick --quick)
  endif()

  # What the CPU (or the emulator's CPU model) must give by default.
  set(_fs_default "")
  if(ALTMEM_ARCH MATCHES "^(x86_64|aarch64)$")
    set(_fs_default --expect-bind ual --expect-has UAL)        # UAL is architectural
  elseif(ALTMEM_ARCH STREQUAL "loongarch64" AND CMAKE_CROSSCOMPILING)
    set(_fs_default --expect-bind ual --expect-has UAL)        # qemu la464: CPUCFG1.UAL = 1
  elseif(ALTMEM_ARCH STREQUAL "riscv64" AND CMAKE_CROSSCOMPILING)
    if(ALTMEM_EMULATOR_HAS_HWPROBE)
      set(_fs_default --expect-bind ual --expect-has UAL)      # CPUPERF_0 = FAST
    else()
      set(_fs_default --expect-bind generic --expect-lacks UAL --expect-note "riscv_hwprobe failed (errno 38)")
    endif()
  endif()

  add_test(NAME freestanding.sweep COMMAND fs_test ${_fs_quick})
  add_test(NAME freestanding.selftest COMMAND fs_test --self-test --quick)
  add_test(NAME freestanding.detect_default COMMAND fs_test --part detect ${_fs_default})
  add_test(NAME freestanding.detect_mask COMMAND fs_test --part detect --expect-bind generic)
  add_test(NAME freestanding.detect_force COMMAND fs_test --part detect --expect-bind ual)
  set_tests_properties(freestanding.sweep freestanding.selftest freestanding.detect_default
                       PROPERTIES ENVIRONMENT "ALTMEM_TUNABLES=")
  set_tests_properties(freestanding.detect_mask PROPERTIES ENVIRONMENT "ALTMEM_TUNABLES=hwcaps=-UAL")
  set_tests_properties(freestanding.detect_force PROPERTIES ENVIRONMENT "ALTMEM_TUNABLES=hwcaps=+UAL")
  set_tests_properties(freestanding.sweep freestanding.selftest freestanding.detect_default
                       freestanding.detect_mask freestanding.detect_force
                       PROPERTIES LABELS "freestanding" TIMEOUT 900)
endif()
