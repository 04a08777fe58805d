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
#   qemu_model.<arch>.<model>.*  the CPU-model matrix under that qemu: each model of
#                                tests/qemu-models/<arch>.list, its binding and the
#                                sweeps (tests/qemu_models.cmake; dynamic builds only)
# In the native build only (not in the nested builds it starts):
#   cross.<target>               scripts/cross-check.sh <target>: configure, build and run
#                                this whole suite for aarch64, aarch64-static, riscv64,
#                                riscv64-static, loongarch64 (freestanding) and musl;
#                                exits 77 (skipped, reason on the last line) when a
#                                compiler, C library or emulator is missing
#
# Run just these: ctest -R '^(freestanding|cross|misalign|qemu_bpo|qemu_model)'; the matrix
# alone: ctest -L qemu-model

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

  # The full sweep (for loongarch64 under qemu 7.2 it is the only sweep of the scalar
  # variants), except where ALTMEM_TEST_SWEEP is `reduced` (the -static cross targets:
  # the freestanding build is linked -nostdlib -static in the dynamic target of the
  # same architecture too, which sweeps it in full).
  set(_fs_quick "")
  if(ALTMEM_TEST_SWEEP STREQUAL "reduced")
    set(_fs_quick --reduced)
  endif()

  # What the CPU (or the emulator's CPU model) must give by default.
  set(_fs_default "")
  set(_fs_force "hwcaps=+UAL")
  if(ALTMEM_ARCH STREQUAL "x86_64")
    # memcpy/memmove/memset bind the best SIMD row the CPU has (test_select checks
    # which for every feature set): the default is checked by features, and the
    # forced case masks the SIMD rows so that it checks ual as elsewhere.
    set(_fs_default --expect-has UAL,SIMD128)
    set(_fs_force "hwcaps=+UAL,-SIMD128,-SIMD256,-SIMD512")
  elseif(ALTMEM_ARCH STREQUAL "aarch64")
    # UAL is architectural; which vector row binds depends on the model (qemu 7.2's
    # max has SVE, the kernel release decides whether it is preferred), so the
    # default is checked by features and the forced case masks the vector rows.
    set(_fs_default --expect-has UAL,SIMD128)
    set(_fs_force "hwcaps=+UAL,-SIMD128,-SVE,-MOPS")
  elseif(ALTMEM_EXPECT_VARIANT STREQUAL "ual")
    # Emulators (cmake/toolchains/): qemu's loongarch64 la464 has CPUCFG1.UAL = 1,
    # qemu >= 8.1 answers riscv_hwprobe with CPUPERF_0 = FAST.
    set(_fs_default --expect-bind ual --expect-has UAL)
    if(ALTMEM_ARCH STREQUAL "loongarch64" AND ALTMEM_EMULATOR_HAS_LSX)
      set(_fs_default --expect-bind lasx --expect-has UAL,SIMD128,SIMD256)
      set(_fs_force "hwcaps=+UAL,-SIMD128,-SIMD256")
    elseif(ALTMEM_ARCH STREQUAL "loongarch64")
      set(_fs_default --expect-bind ual --expect-has UAL --expect-lacks SIMD128,SIMD256)
    endif()
  elseif(ALTMEM_EXPECT_VARIANT STREQUAL "generic")
    # riscv64 under qemu 7.2: no riscv_hwprobe, so no UAL.
    set(_fs_default --expect-bind generic --expect-lacks UAL --expect-note "riscv_hwprobe failed (errno 38)")
  endif()

  add_test(NAME freestanding.sweep COMMAND fs_test ${_fs_quick})
  add_test(NAME freestanding.selftest COMMAND fs_test --self-test --quick)
  # --reduced must still catch bugs planted at the boundaries it claims.
  add_test(NAME freestanding.selftest_reduced COMMAND fs_test --self-test --reduced)
  add_test(NAME freestanding.detect_default COMMAND fs_test --part detect ${_fs_default})
  add_test(NAME freestanding.detect_mask COMMAND fs_test --part detect --expect-bind generic)
  add_test(NAME freestanding.detect_force COMMAND fs_test --part detect --expect-bind ual)
  # A profile handed over as a string (altmem_init_freestanding_profile): it pins
  # every routine to generic on this CPU; the same text for another model is ignored.
  add_test(NAME freestanding.profile
           COMMAND sh -c "id=$($ALTMEM_TEST_EMULATOR \"$0\" --print-identity) || exit 1
                          FS_PROFILE=$(printf 'cpu: %s\\nmemcpy=generic\\nmemmove=generic\\nmemset=generic\\ncopy_user=generic\\nclear_user=generic\\n' \"$id\") $ALTMEM_TEST_EMULATOR \"$0\" --part detect --expect-bind generic || exit 1
                          o=$(printf 'cpu: %s\\nmemcpy=generic\\n' \"$id\" | sed 's/ model=[0-9]*/ model=9999/')
                          FS_PROFILE=$o $ALTMEM_TEST_EMULATOR \"$0\" --part detect 2>&1 | grep -q 'measured on another CPU'"
                   $<TARGET_FILE:fs_test>)
  set_tests_properties(freestanding.profile PROPERTIES ENVIRONMENT "ALTMEM_TUNABLES=")
  set(_fs_tests freestanding.sweep freestanding.selftest freestanding.selftest_reduced freestanding.detect_default freestanding.detect_mask
                freestanding.detect_force freestanding.profile)
  if(ALTMEM_EXPECT_VARIANT STREQUAL "generic")
    # The CPU model lacks UAL, so the sweep above skipped the ual variants; the
    # emulator runs them anyway.
    add_test(NAME freestanding.sweep_ual COMMAND fs_test ${_fs_quick})
    set_tests_properties(freestanding.sweep_ual PROPERTIES ENVIRONMENT "ALTMEM_TUNABLES=hwcaps=+UAL")
    list(APPEND _fs_tests freestanding.sweep_ual)
  endif()
  set_tests_properties(freestanding.sweep freestanding.selftest freestanding.selftest_reduced
                       freestanding.detect_default PROPERTIES ENVIRONMENT "ALTMEM_TUNABLES=")
  set_tests_properties(freestanding.detect_mask PROPERTIES ENVIRONMENT "ALTMEM_TUNABLES=hwcaps=-UAL")
  set_tests_properties(freestanding.detect_force PROPERTIES ENVIRONMENT "ALTMEM_TUNABLES=${_fs_force}")
  # The freestanding flavour references nothing outside altmem (fs_test would not
  # show it: its runtime defines memcpy and friends for the compiler's sake).
  if(CMAKE_NM)
    if(TARGET altmem_os_raw)
      set(_fs_objs $<TARGET_OBJECTS:altmem_core> $<TARGET_OBJECTS:altmem_os_raw>)
    else()
      set(_fs_objs $<TARGET_OBJECTS:altmem_core> $<TARGET_OBJECTS:altmem_os>)
    endif()
    add_test(NAME freestanding.nolibc
      COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/check_nolibc.sh --nm ${CMAKE_NM} ${_fs_objs} COMMAND_EXPAND_LISTS)
    list(APPEND _fs_tests freestanding.nolibc)
  endif()
  # loongarch64 under qemu 7.2 (no LSX): a pin to lasx / lsx is refused with its
  # reason and ual stays, rather than a SIGILL.
  if(ALTMEM_ARCH STREQUAL "loongarch64" AND NOT ALTMEM_EMULATOR_HAS_LSX)
    add_test(NAME freestanding.pin_refused
             COMMAND fs_test --part detect --expect-bind "memcpy=ual,memmove=ual,memset=ual,copy_user=ual,clear_user=ual")
    set_tests_properties(freestanding.pin_refused PROPERTIES
      ENVIRONMENT "ALTMEM_TUNABLES=memcpy=lasx:memmove=lsx:copy_user=lasx:clear_user=lsx"
      PASS_REGULAR_EXPRESSION "refusing memcpy=lasx: needs SIMD128\\+SIMD256.*detect: as expected")
    list(APPEND _fs_tests freestanding.pin_refused)
  endif()
  # loongarch64: vector registers only in the lsx / lasx variants' objects (every
  # other file is built -mno-lsx), and those do use them.
  if(ALTMEM_ARCH STREQUAL "loongarch64" AND CMAKE_OBJDUMP)
    add_test(NAME freestanding.novector
      COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/check_novector.sh --objdump ${CMAKE_OBJDUMP}
              --expect altmem_memcpy_ual --expect altmem_copy_user_ual --expect altmem_memcpy_generic
              "$<FILTER:$<TARGET_OBJECTS:altmem_core>,EXCLUDE,_lsx\\.c|_lasx\\.c>"
      COMMAND_EXPAND_LISTS)
    add_test(NAME freestanding.novector_control
      COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/check_novector.sh --objdump ${CMAKE_OBJDUMP} --want-vector
              "$<FILTER:$<TARGET_OBJECTS:altmem_core>,INCLUDE,_lsx\\.c|_lasx\\.c>"
      COMMAND_EXPAND_LISTS)
    list(APPEND _fs_tests freestanding.novector freestanding.novector_control)
  endif()
  set_tests_properties(${_fs_tests} PROPERTIES LABELS "freestanding" TIMEOUT 900)
endif()

# ---- The misalignment proof (tests/qemu-plugin/) --------------------------------------

# Under the cross build's emulator; natively under qemu-x86_64 when there is one (on
# x86_64 test_strict_align's EFLAGS.AC proof is the primary one).
set(_mis_qemu "")
if(CMAKE_CROSSCOMPILING)
  string(REPLACE ";" " " _mis_qemu "${CMAKE_CROSSCOMPILING_EMULATOR}")
elseif(ALTMEM_ARCH MATCHES "^(x86_64|aarch64|riscv64|loongarch64)$")
  find_program(ALTMEM_QEMU_NATIVE qemu-${ALTMEM_ARCH})
  mark_as_advanced(ALTMEM_QEMU_NATIVE)
  if(ALTMEM_QEMU_NATIVE)
    set(_mis_qemu ${ALTMEM_QEMU_NATIVE})
  else()
    set(_mis_qemu qemu-${ALTMEM_ARCH}) # not found: the test says so and skips
  endif()
endif()
if(TARGET fs_test AND _mis_qemu AND CMAKE_NM)
  foreach(_v generic ual)
    if(_v STREQUAL "generic")
      set(_name misalign.generic)
      set(_expect zero)
    else()
      set(_name misalign.ual_control)
      set(_expect nonzero)
    endif()
    add_test(NAME ${_name}
      COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/qemu-plugin/misalign.sh ${_expect} ${_v} $<TARGET_FILE:fs_test>
              ${CMAKE_NM} ${CMAKE_BINARY_DIR}/qemu-plugin "${_mis_qemu}"
              "$<FILTER:$<TARGET_OBJECTS:altmem_core>,INCLUDE,/variants/${_v}/|/uaccess/[a-z_]+_${_v}\\.c>"
      COMMAND_EXPAND_LISTS)
    set_tests_properties(${_name} PROPERTIES LABELS "misalign;strict-align" SKIP_RETURN_CODE 77 TIMEOUT 600)
  endforeach()
endif()

# ---- Cross builds: the hosted library's detection under the emulator -----------------

if(CMAKE_CROSSCOMPILING AND TARGET altmem_cli AND ALTMEM_EXPECT_VARIANT)
  # hwcaps=+UAL must bind ual on any CPU model (the emulator runs it either way).
  set(_ci_force "hwcaps=+UAL")
  if(ALTMEM_ARCH STREQUAL "aarch64")
    set(_ci_force "hwcaps=+UAL,-SIMD128,-SVE,-MOPS")   # the vector rows masked
  endif()
  set(_cross_info_cases
    "cross_info_force_ual|${_ci_force}|features in use: +UAL[^\n]*\n.*memcpy +ual +detected[^\n]*\nmemmove +ual +detected[^\n]*\nmemset +ual +detected|")
  if(ALTMEM_EXPECT_VARIANT STREQUAL "generic")
    # ... and without it, the reason is the emulator's missing riscv_hwprobe.
    list(APPEND _cross_info_cases
      "cross_info_no_hwprobe|<unset>|cpu: +riscv_hwprobe failed \\(errno 38\\)[^\n]*\n.*memcpy +generic +detected|")
  endif()
  foreach(_case IN LISTS _cross_info_cases)
    string(REPLACE "|" ";" _f "${_case}")
    list(GET _f 0 _name)
    list(GET _f 1 _tun)
    list(GET _f 2 _out)
    list(GET _f 3 _err)
    add_test(NAME ${_name}
      COMMAND ${CMAKE_COMMAND} -DALTMEM=$<TARGET_FILE:altmem_cli> -DCASE=${_name}
              "-DTUNABLES=${_tun}" "-DEXPECT_OUT=${_out}" "-DEXPECT_ERR=${_err}"
              -P ${CMAKE_CURRENT_LIST_DIR}/info_cases.cmake)
    set_tests_properties(${_name} PROPERTIES LABELS "cross;info")
  endforeach()
endif()

# ---- The newer emulator: qemu 10 from bookworm-backports --------------------------------

# Debian 12's qemu 7.2 has no LSX/LASX and no riscv_hwprobe, so detection's
# positive paths for those need the newer one (scripts/install-cross-deps.sh unpacks
# it without installing it; scripts/cross-check.sh passes ALTMEM_QEMU_BPO).  It is a
# static build: it runs programs, it cannot load the misalignment plugin.
if(CMAKE_CROSSCOMPILING AND ALTMEM_ARCH MATCHES "^(aarch64|riscv64|loongarch64)$")
  set(ALTMEM_QEMU_BPO "" CACHE FILEPATH
      "qemu-user 10 from bookworm-backports, for LSX/LASX, riscv_hwprobe and the CPU-model matrix")
endif()
if(CMAKE_CROSSCOMPILING AND TARGET fs_test AND ALTMEM_ARCH MATCHES "^(riscv64|loongarch64)$")
  if(ALTMEM_ARCH STREQUAL "riscv64")
    # hwprobe: CPUPERF_0 = FAST.  qemu 10's default rv64 also has Zicboz (memset
    # and clear_user would bind zicboz): without it every routine binds ual.  The
    # other CPU models are the model matrix's (tests/qemu-models/riscv64.list).
    set(_bpo_expect --expect-bind ual --expect-has UAL --expect-lacks RVV,ZICBOZ)
    set(_bpo_what "riscv_hwprobe")
  else()
    # la464 with LSX, LASX: lasx binds (tests/qemu-models/loongarch64.list runs the
    # models without them)
    set(_bpo_expect --expect-bind lasx --expect-has UAL,SIMD128,SIMD256
                    --expect-note "LSX (AT_HWCAP bit 4), LASX (AT_HWCAP bit 5)")
    set(_bpo_what "LSX/LASX")
  endif()
  if(ALTMEM_QEMU_BPO)
    set(_bpo ${ALTMEM_QEMU_BPO})
    if(ALTMEM_ARCH STREQUAL "riscv64")
      list(APPEND _bpo -cpu rv64,zicboz=false -L /usr/riscv64-linux-gnu)
    endif()
    add_test(NAME qemu_bpo.detect COMMAND ${_bpo} $<TARGET_FILE:fs_test> --part detect ${_bpo_expect})
    set(_bpo_tests qemu_bpo.detect)
    if(NOT ALTMEM_ARCH STREQUAL "loongarch64")
      # (On loongarch64 the CPU-model matrix's la464 model runs this same sweep.)
      # --reduced: the variants it can run here (ual, generic) are the ones
      # freestanding.sweep_ual sweeps in full under qemu 7.2; what qemu 10 adds is
      # the detection (riscv_hwprobe) and the binding it leads to.
      add_test(NAME qemu_bpo.sweep COMMAND ${_bpo} $<TARGET_FILE:fs_test> --reduced)
      list(APPEND _bpo_tests qemu_bpo.sweep)
    endif()
    if(TARGET altmem_cli)
      # The hosted flavour's detection too: riscv_hwprobe through the C library.
      string(REPLACE ";" " " _bpo_str "${_bpo}")
      add_test(NAME qemu_bpo.info
        COMMAND ${CMAKE_COMMAND} -DALTMEM=$<TARGET_FILE:altmem_cli> -DCASE=qemu_bpo "-DTUNABLES=<unset>"
                "-DEXPECT_OUT=features detected: +UAL[^\n]*\n.*memcpy +ual +detected[^\n]*\nmemmove +ual +detected[^\n]*\nmemset +ual +detected"
                "-DEXPECT_ERR=" -P ${CMAKE_CURRENT_LIST_DIR}/info_cases.cmake)
      set_tests_properties(qemu_bpo.info PROPERTIES ENVIRONMENT "ALTMEM_TEST_EMULATOR=${_bpo_str}")
      list(APPEND _bpo_tests qemu_bpo.info)
    endif()
    # 1800: loongarch64's full sweep runs five implementations per routine (lasx,
    # lsx, ual, generic, the entry) and took 210 s on a quiet machine, over 600 s
    # with other builds alongside.
    set_tests_properties(${_bpo_tests} PROPERTIES LABELS "cross;qemu-bpo" TIMEOUT 1800)
  else()
    add_test(NAME qemu_bpo.detect
      COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/cross-skip.sh --ci-fails
              "qemu 10 from bookworm-backports is not unpacked (scripts/install-cross-deps.sh puts it in /opt/altmem/qemu-bpo), so detection of ${_bpo_what} is not tested")
    set_tests_properties(qemu_bpo.detect PROPERTIES LABELS "cross;qemu-bpo" SKIP_RETURN_CODE 77)
  endif()
endif()

# ---- The CPU-model matrix under qemu 10 (tests/qemu-models/) ---------------------------

include(${CMAKE_CURRENT_LIST_DIR}/qemu_models.cmake)

# ---- Cross builds: programs run under the emulator -----------------------------------

if(CMAKE_CROSSCOMPILING AND CMAKE_CROSSCOMPILING_EMULATOR)
  # CTest puts the emulator in front of commands that name a target; scripts that run
  # a built program (info_cases.cmake, test_setuid.sh, ...) find it here.  This file
  # is included last, so every test of this directory is registered by now.
  string(REPLACE ";" " " _altmem_emu "${CMAKE_CROSSCOMPILING_EMULATOR}")
  get_property(_altmem_all_tests DIRECTORY PROPERTY TESTS)
  foreach(_t IN LISTS _altmem_all_tests)
    if(NOT _t MATCHES "^qemu_(bpo|model)\\.") # those name their own emulator
      set_property(TEST ${_t} APPEND PROPERTY ENVIRONMENT "ALTMEM_TEST_EMULATOR=${_altmem_emu}")
    endif()
  endforeach()
endif()

# ---- musl (cmake/toolchains/x86_64-linux-musl.cmake) ----------------------------------

if(ALTMEM_MUSL)
  # What this run cannot do, said where `make check` shows it (the last line of a
  # skipped test is its reason).
  add_test(NAME musl.no_shared_library
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/cross-skip.sh
            "musl-gcc (Debian musl-tools) links static programs only, so libaltmem.so, its IFUNC binding, entry_shared and the LD_PRELOAD drop-in (dropin.*) are not built here; the glibc run tests them")
  set_tests_properties(musl.no_shared_library PROPERTIES SKIP_RETURN_CODE 77 LABELS musl)
endif()

# ---- The other targets' whole suites, from the native build ---------------------------

# Each is a build of its own (scripts/cross-check.sh) running this suite with two jobs,
# so CTest runs one at a time (PROCESSORS 2).  x86_64 hosts only: the toolchain files
# name Debian's x86_64-hosted cross compilers and musl-gcc.
if(NOT ALTMEM_NESTED AND NOT CMAKE_CROSSCOMPILING AND NOT ALTMEM_FREESTANDING AND NOT ALTMEM_SANITIZE
   AND ALTMEM_ARCH STREQUAL "x86_64")
  foreach(_target aarch64 aarch64-static riscv64 riscv64-static loongarch64 musl)
    add_test(NAME cross.${_target}
             COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/cross-check.sh ${_target} ${PROJECT_SOURCE_DIR}
                     ${CMAKE_BINARY_DIR}/cross-${_target})
    set_tests_properties(cross.${_target} PROPERTIES LABELS cross SKIP_RETURN_CODE 77 TIMEOUT 3600
                         PROCESSORS 2)
  endforeach()
endif()
