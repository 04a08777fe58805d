# Selection, strict-alignment and security tests (included from tests/CMakeLists.txt).
#
#   strict_align            generic variants never make a misaligned access (x86_64, EFLAGS.AC)
#   novector_generic        generic variants' objects contain no SIMD register (x86_64)
#   novector_control        ... and that check does fire on an object that uses xmm
#   select                  altmem__decide()/tunables with made-up CPUs, table invariants
#   profile                 the profile: parsing, bad input, precedence, the file reader
#   profile_selftest        ... and that its bad-input table fails a parser accepting anything
#   profile_cli             altmem tune --quick, then altmem info with that profile, edited, foreign, a FIFO
#   decode                  LoongArch / RISC-V / AArch64 feature decoders; glibc 2.36's x86 cache figures
#   glibc_nt                ... those figures computed on this machine against its ld.so --list-diagnostics
#   glibc_nt_models         ... and under qemu-x86_64 for AMD and Intel models, leaf 4 or only leaf 2
#   caches_glibc            altmem info's L1d/L2/L3 against the newest glibc's ld.so --list-diagnostics
#   caches_glibc_control    ... and that comparison does fail on a mismatch
#   caches_glibc_models     the same under qemu-x86_64 for each CPU model of the script's list:
#                           AMD with 0x8000001D present and hidden (xlevel), Intel without
#                           leaf 4 (level=2, 3); Intel models with leaf 4 printed
#   caches_glibc_models-control  altmem under one model, glibc under another: must fail
#   info_*                  the real `altmem info` under ALTMEM_TUNABLES
#   setuid                  AT_SECURE: a setuid copy ignores ALTMEM_TUNABLES (root only)
#   nolibc_core             the core objects reference nothing outside altmem
#   nolibc_control          ... and that check does fire on an object that calls memcpy

# ---- Strict alignment -------------------------------------------------------

altmem_test_exe(test_strict_align test_strict_align.c)
# The sanitizer runtimes make misaligned accesses of their own; GCC has no
# macro for UBSan, so the build tells the test.
if(ALTMEM_SANITIZE)
  target_compile_definitions(test_strict_align PRIVATE ALTMEM_TEST_SANITIZED=1)
endif()
add_test(NAME strict_align COMMAND test_strict_align)
set_tests_properties(strict_align PROPERTIES SKIP_RETURN_CODE 77 LABELS "selection;strict-align")

if(ALTMEM_ARCH STREQUAL "x86_64")
  find_program(ALTMEM_OBJDUMP NAMES objdump llvm-objdump-19 llvm-objdump)
  if(ALTMEM_OBJDUMP)
    add_test(NAME novector_generic
      COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_novector.sh --objdump ${ALTMEM_OBJDUMP}
              --expect altmem_memcpy_generic --expect altmem_memmove_generic --expect altmem_memset_generic
              "$<FILTER:$<TARGET_OBJECTS:altmem_core>,INCLUDE,/variants/generic/>"
      COMMAND_EXPAND_LISTS)
    add_test(NAME novector_control
      COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_novector.sh --objdump ${ALTMEM_OBJDUMP}
              --self-test ${CMAKE_C_COMPILER})
    set_tests_properties(novector_generic novector_control PROPERTIES LABELS "selection;strict-align")
  endif()
endif()

# ---- Selection and decoding -------------------------------------------------

altmem_test_exe(test_select test_select.c)
add_test(NAME select COMMAND test_select)
altmem_test_exe(test_profile test_profile.c)
add_test(NAME profile COMMAND test_profile)
add_test(NAME profile_selftest COMMAND test_profile --self-test)
set_tests_properties(profile profile_selftest PROPERTIES LABELS "selection;profile")
add_test(NAME profile_cli COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_profile_cli.sh $<TARGET_FILE:altmem_cli>
                                   $<TARGET_FILE:altmem_profile_cost>)
set_tests_properties(profile_cli PROPERTIES LABELS "selection;profile" TIMEOUT 300 SKIP_RETURN_CODE 77)
altmem_test_exe(test_decode test_decode.c ${ALTMEM_ALL_DECODERS})   # every architecture's, on any host
add_test(NAME decode COMMAND test_decode)
set_tests_properties(select decode PROPERTIES LABELS "selection")
# Native x86_64 only: the value is the CPU's and glibc 2.36's, whatever C library
# the test program itself uses; under an emulator the CPUID would be qemu's.
if(ALTMEM_ARCH STREQUAL "x86_64" AND NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME glibc_nt COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_glibc_nt.sh $<TARGET_FILE:test_decode>)
  # ... and the comparison does fail on values that are not this machine's.
  add_test(NAME glibc_nt_control COMMAND test_decode --glibc-here 0x4040 0x4040)
  # The same under qemu-x86_64, per CPU model (AMD with and without 0x8000001D,
  # Intel with leaf 4 and with its highest basic leaf below 4).  Not in the
  # sanitizer build: its programs do not run under qemu-user (the shadow memory).
  if(NOT ALTMEM_SANITIZE)
    add_test(NAME glibc_nt_models
             COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_glibc_nt.sh --models $<TARGET_FILE:test_decode>)
    set_tests_properties(glibc_nt_models PROPERTIES LABELS "selection" SKIP_RETURN_CODE 77 TIMEOUT 300)
  endif()
  set_tests_properties(glibc_nt_control PROPERTIES WILL_FAIL TRUE)
  set_tests_properties(glibc_nt glibc_nt_control PROPERTIES LABELS "selection" SKIP_RETURN_CODE 77)
endif()
# The rule intel-rtm: the bound copies and memset let an RTM transaction commit
# where the CPU has RTM and AVX-512 (elsewhere: the rule must not have applied, a
# check on every CPU, so that CI on AMD does not skip it); the control runs the avx2
# memcpy variant, whose vzeroupper aborts every transaction (elsewhere: claims the
# rule applied), and must fail.  Not
# in the sanitizer build: its instrumented code aborts every transaction (0 of
# 200 commit at 1 B through avx512 there).
if(ALTMEM_ARCH STREQUAL "x86_64" AND NOT CMAKE_CROSSCOMPILING_EMULATOR AND NOT ALTMEM_SANITIZE)
  altmem_test_exe(test_rtm test_rtm.c)
  add_test(NAME rtm COMMAND test_rtm)
  add_test(NAME rtm_control COMMAND test_rtm --control)
  set_tests_properties(rtm_control PROPERTIES WILL_FAIL TRUE)
  set_tests_properties(rtm rtm_control PROPERTIES LABELS "selection" SKIP_RETURN_CODE 77)
endif()
# CPUID instructions detection executes where glibc keeps leaves (issue 30); musl
# keeps none, so there every leaf is CPUID's and there is nothing to count.
if(ALTMEM_ARCH STREQUAL "x86_64" AND NOT CMAKE_CROSSCOMPILING_EMULATOR AND NOT ALTMEM_MUSL)
  altmem_test_exe(test_cpuid_count test_cpuid_count.c)
  add_test(NAME cpuid_count COMMAND test_cpuid_count)
  add_test(NAME cpuid_count_control COMMAND test_cpuid_count --control)
  set_tests_properties(cpuid_count_control PROPERTIES WILL_FAIL TRUE)
  set_tests_properties(cpuid_count cpuid_count_control PROPERTIES LABELS "selection" SKIP_RETURN_CODE 77)
  # The same as a static glibc program linked as docs/dropin.md says (glibc's libc.a
  # keeps the leaves too, taken with -Wl,-u,__x86_get_cpuid_feature_leaf).
  if(NOT ALTMEM_SANITIZE)
    set(_cc_static sh ${CMAKE_CURRENT_SOURCE_DIR}/check_cpuid_count_static.sh ${CMAKE_C_COMPILER}
        ${CMAKE_CURRENT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src ${ALTMEM_ARCH_INCLUDE}
        -- $<TARGET_FILE:altmem_static>)
    add_test(NAME cpuid_count_static COMMAND ${_cc_static} ${CMAKE_CURRENT_BINARY_DIR}/cpuid-count-static)
    add_test(NAME cpuid_count_static_control
             COMMAND ${_cc_static} ${CMAKE_CURRENT_BINARY_DIR}/cpuid-count-static-control --control)
    add_test(NAME cpuid_count_static_no_u
             COMMAND ${_cc_static} ${CMAKE_CURRENT_BINARY_DIR}/cpuid-count-static-no-u --no-u)
    set_tests_properties(cpuid_count_static_control cpuid_count_static_no_u PROPERTIES WILL_FAIL TRUE)
    set_tests_properties(cpuid_count_static cpuid_count_static_control cpuid_count_static_no_u PROPERTIES
                         LABELS "selection" SKIP_RETURN_CODE 77)
  endif()
endif()
# The cache leaves read late, by the first call that reaches a streaming branch
# (issue 30): none at start-up, the final policy after that call, per variant.
if(ALTMEM_ARCH STREQUAL "x86_64" AND NOT CMAKE_CROSSCOMPILING_EMULATOR)
  altmem_test_exe(test_late_caches test_late_caches.c)
  target_link_libraries(test_late_caches PRIVATE Threads::Threads)
  add_test(NAME late_caches COMMAND test_late_caches)
  add_test(NAME late_caches_control COMMAND test_late_caches --control)
  set_tests_properties(late_caches_control PROPERTIES WILL_FAIL TRUE)
  set_tests_properties(late_caches late_caches_control PROPERTIES LABELS "selection"
                       ENVIRONMENT "ALTMEM_PROFILE=none;ALTMEM_TUNABLES=")
endif()
if(ALTMEM_ARCH STREQUAL "x86_64" AND NOT CMAKE_CROSSCOMPILING_EMULATOR AND NOT ALTMEM_MUSL AND TARGET altmem_cli)
  add_test(NAME caches_glibc
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_caches_glibc.sh ${PROJECT_SOURCE_DIR}/scripts/newer-glibc.sh
                   $<TARGET_FILE:altmem_cli> ${CMAKE_BINARY_DIR}/glibc-cache)
  add_test(NAME caches_glibc_control
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_caches_glibc.sh --compare "32768 1048576 0" "32768 1048576 33554432")
  set_tests_properties(caches_glibc_control PROPERTIES WILL_FAIL TRUE)
  set_tests_properties(caches_glibc caches_glibc_control PROPERTIES LABELS "selection" SKIP_RETURN_CODE 77 TIMEOUT 300)
  # The same per CPU model under qemu-x86_64, and its control (altmem and glibc
  # under models whose caches differ); not in the sanitizer build, whose programs
  # do not run under qemu-user.
  set(_cache_modes "")
  if(NOT ALTMEM_SANITIZE)
    set(_cache_modes models models-control)
  endif()
  foreach(_m IN LISTS _cache_modes)
    add_test(NAME caches_glibc_${_m}
             COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_caches_glibc.sh --${_m}
                     ${PROJECT_SOURCE_DIR}/scripts/newer-glibc.sh $<TARGET_FILE:altmem_cli> ${CMAKE_BINARY_DIR}/glibc-cache)
    set_tests_properties(caches_glibc_${_m} PROPERTIES LABELS "selection" SKIP_RETURN_CODE 77 TIMEOUT 300)
  endforeach()
  # One fetch into the build tree's cache at a time (bench_newer_glibc uses it too).
  set_tests_properties(caches_glibc PROPERTIES RESOURCE_LOCK altmem_glibc_cache)
  foreach(_m IN LISTS _cache_modes)
    set_tests_properties(caches_glibc_${_m} PROPERTIES RESOURCE_LOCK altmem_glibc_cache)
  endforeach()
endif()

# ---- A per-CPU rule under a CPU model that matches it (qemu-x86_64) -----------
#   rule_model_zen5          amd-zen5 (family 0x1A): its later starts of rep movsb for
#                            memmove's forward overlaps (per width), as the library installs
#                            them, through the memmove sweeps' far part (forward overlaps at
#                            6-64 KiB among them); `altmem info` must name it
#   rule_model_zen5-control  ... and that the check fails under a model it does not match
if(ALTMEM_ARCH STREQUAL "x86_64" AND NOT CMAKE_CROSSCOMPILING_EMULATOR AND NOT ALTMEM_MUSL AND NOT ALTMEM_SANITIZE
   AND TARGET altmem_cli AND TARGET test_memmove)
  set(_zen5_regex "^  amd-zen5 .*a forward overlap from 8 / 40 / 64 KiB")
  add_test(NAME rule_model_zen5
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/check_rule_model.sh "qemu-x86_64 -cpu EPYC-Milan,family=26,model=2"
                   $<TARGET_FILE:altmem_cli> "${_zen5_regex}" $<TARGET_FILE:test_memmove> --quick --part far)
  add_test(NAME rule_model_zen5-control
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/check_rule_model.sh "qemu-x86_64 -cpu EPYC-Milan"
                   $<TARGET_FILE:altmem_cli> "${_zen5_regex}" $<TARGET_FILE:test_memmove> --quick --part far)
  set_tests_properties(rule_model_zen5 rule_model_zen5-control PROPERTIES LABELS "selection" SKIP_RETURN_CODE 77
                       TIMEOUT 300)
  set_tests_properties(rule_model_zen5-control PROPERTIES WILL_FAIL TRUE)
endif()

# ---- The real library path: `altmem info` under ALTMEM_TUNABLES ---------------

if(TARGET altmem_cli)
  # On these architectures UAL is architectural.
  if(ALTMEM_ARCH STREQUAL "aarch64")
    # The vector row that binds depends on the emulator's CPU model and on the
    # kernel release qemu-user passes through (the SVE rule, src/arch/aarch64/decode.c):
    # qemu 7.2's max binds sve on a 6.2+ host, advsimd on 4.15-6.1.  Any row
    # here; the CPU-model matrix (tests/qemu-models/aarch64.list) pins -cpu and
    # -r and checks each binding exactly.
    set(_default_variant "[a-z0-9_]+")
    set(_has_ual ON)
  elseif(ALTMEM_ARCH STREQUAL "x86_64")
    # memcpy/memmove/memset: the best SIMD row this CPU runs (avx512 ... sse2;
    # test_select checks which for every feature set); copy_user and clear_user
    # have only ual and generic.  UAL is architectural here too.
    set(_default_variant "[a-z0-9_]+")
    set(_has_ual ON)
  elseif(ALTMEM_EXPECT_VARIANT)
    # Cross builds: what the emulator's CPU model gives (cmake/toolchains/).
    set(_default_variant ${ALTMEM_EXPECT_VARIANT})
  else()
    set(_default_variant "[a-z0-9_]+")
  endif()
  # Masking UAL names it only where there was a UAL to mask.
  set(_masked "features masked: +UAL[^\n]*\n.*memcpy +generic +detected[^\n]*masked by ALTMEM_TUNABLES: UAL")
  if(NOT _default_variant STREQUAL "ual" AND NOT _has_ual)
    set(_masked "memcpy +generic +detected")
  endif()
  # name | ALTMEM_TUNABLES | expected stdout | stderr ("" = must be empty)
  set(_info_cases
    "default|<unset>|memcpy +${_default_variant} +detected[^\n]*\nmemmove +${_default_variant} +detected[^\n]*\nmemset +${_default_variant} +detected|"
    "mask_ual|hwcaps=-UAL|${_masked}[^\n]*\nmemmove +generic +detected[^\n]*\nmemset +generic +detected|"
    "pin_memcpy|memcpy=generic|memcpy +generic +overridden[^\n]*pinned by ALTMEM_TUNABLES[^\n]*\nmemmove +${_default_variant} +detected[^\n]*\nmemset +${_default_variant} +detected|"
    "malformed|bogus=1:hwcaps=UAL|memcpy +${_default_variant} +detected[^\n]*\nmemmove +${_default_variant} +detected[^\n]*\nmemset +${_default_variant} +detected|^altmem: ALTMEM_TUNABLES: unknown setting 'bogus'[^\n]*\naltmem: ALTMEM_TUNABLES: hwcaps: 'UAL' needs a sign[^\n]*\n$"
    "verbose|verbose|memcpy +${_default_variant} +detected|^altmem: memcpy -> ${_default_variant} [^\n]*\naltmem: memmove -> ${_default_variant} [^\n]*\naltmem: memset -> ${_default_variant} [^\n]*\naltmem: copy_user -> ${_default_variant} [^\n]*\naltmem: clear_user -> ${_default_variant} [^\n]*\n$"
    "malformed_keeps_valid|memset=generic:memcpy=nope|memcpy +${_default_variant} +detected[^\n]*\nmemmove +${_default_variant} +detected[^\n]*\nmemset +generic +overridden|^altmem: ALTMEM_TUNABLES: memcpy: unknown variant 'nope'[^\n]*\n$"
  )
  foreach(_case IN LISTS _info_cases)
    string(REPLACE "|" ";" _f "${_case}")
    list(GET _f 0 _name)
    list(GET _f 1 _tun)
    list(GET _f 2 _out)
    list(GET _f 3 _err)
    add_test(NAME info_${_name}
      COMMAND ${CMAKE_COMMAND} -DALTMEM=$<TARGET_FILE:altmem_cli> -DCASE=${_name}
              "-DTUNABLES=${_tun}" "-DEXPECT_OUT=${_out}" "-DEXPECT_ERR=${_err}"
              -P ${CMAKE_CURRENT_SOURCE_DIR}/info_cases.cmake)
    set_tests_properties(info_${_name} PROPERTIES LABELS "selection;info")
  endforeach()
  # Negative control: a wrong expectation must be reported as a mismatch (the
  # pass condition is the mismatch message, not merely a non-zero exit).
  add_test(NAME info_control
    COMMAND ${CMAKE_COMMAND} -DALTMEM=$<TARGET_FILE:altmem_cli> -DCASE=control
            "-DTUNABLES=hwcaps=-UAL" "-DEXPECT_OUT=memcpy +ual +detected" "-DEXPECT_ERR="
            -P ${CMAKE_CURRENT_SOURCE_DIR}/info_cases.cmake)
  set_tests_properties(info_control PROPERTIES LABELS "selection;info"
    PASS_REGULAR_EXPRESSION "info control: FAIL: stdout does not match")
endif()

# ---- AT_SECURE: a real setuid process -----------------------------------------

altmem_test_exe(secure_probe secure_probe.c)
add_test(NAME setuid COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_setuid.sh $<TARGET_FILE:secure_probe>)
set_tests_properties(setuid PROPERTIES SKIP_RETURN_CODE 77 LABELS "selection;security")

# ---- No libc in the core ------------------------------------------------------

find_program(ALTMEM_NM NAMES nm llvm-nm-19 llvm-nm)
if(ALTMEM_NM)
  set(_nolibc_opts --nm ${ALTMEM_NM})
  # Instrumented objects call into the sanitizer runtime by design.
  if(ALTMEM_SANITIZE)
    list(APPEND _nolibc_opts --allow-sanitizer)
  endif()
  add_test(NAME nolibc_core
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_nolibc.sh ${_nolibc_opts} $<TARGET_OBJECTS:altmem_core>
    COMMAND_EXPAND_LISTS)
  add_test(NAME nolibc_control
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_nolibc.sh --nm ${ALTMEM_NM} --self-test ${CMAKE_C_COMPILER} ${ALTMEM_NOLIBC_FLAGS})
  set_tests_properties(nolibc_core nolibc_control PROPERTIES LABELS "selection;nolibc")
endif()

# ---- No x86 variant entry across a page (x86_vec.h, ENTRY_ALIGNED) ----------------
# A performance property of the plain build's layout: a sanitized build's entries
# are larger and are not timed.
if(ALTMEM_NM AND ALTMEM_ARCH STREQUAL "x86_64" AND TARGET altmem_shared AND NOT ALTMEM_SANITIZE)
  set(_entry_libs $<TARGET_FILE:altmem_shared>)
  if(TARGET altmem_preload)
    list(APPEND _entry_libs $<TARGET_FILE:altmem_preload>)
  endif()
  add_test(NAME entry_pages COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_entry_pages.sh ${ALTMEM_NM} ${_entry_libs})
  # The same check with 256-byte "pages": every entry is larger, so it must fail.
  add_test(NAME entry_pages_control
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_entry_pages.sh --page 256 ${ALTMEM_NM} $<TARGET_FILE:altmem_shared>)
  set_tests_properties(entry_pages_control PROPERTIES WILL_FAIL TRUE)
  # The alignment clause alone: an entry inside its page but below its size's
  # alignment must be named, and the aligned one beside it not.
  add_test(NAME entry_pages_misaligned
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_entry_pages.sh
            ${CMAKE_CURRENT_SOURCE_DIR}/entry_pages_fake_nm.sh fake-library)
  set_tests_properties(entry_pages_misaligned PROPERTIES
    PASS_REGULAR_EXPRESSION "FAIL: fake-library: altmem_memset_evex at 0x10a00, 581 bytes, not 1024-aligned"
    FAIL_REGULAR_EXPRESSION "altmem_memset_avx2|crosses")
  set_tests_properties(entry_pages entry_pages_control entry_pages_misaligned PROPERTIES LABELS "selection;layout")
  # No size class's short last block across a 64-byte line: what GCC's layout flags
  # (src/CMakeLists.txt, ALTMEM_X86_LAYOUT_FLAGS) give; clang has no such flags.
  if(ALTMEM_OBJDUMP AND CMAKE_C_COMPILER_ID STREQUAL "GNU")
    add_test(NAME entry_lines COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_entry_lines.sh ${ALTMEM_OBJDUMP} ${_entry_libs})
    # The block the flags left across a line before (a 30-byte one at +0x1b5) must be
    # named, the same block from a 32-byte boundary not.
    add_test(NAME entry_lines_control
      COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_entry_lines.sh --disassembly
              ${CMAKE_CURRENT_SOURCE_DIR}/entry_lines_fake.dis)
    set_tests_properties(entry_lines_control PROPERTIES
      PASS_REGULAR_EXPRESSION "FAIL: entry_lines_fake.dis: altmem_memset_avx512\\+0x1b5: a 30-byte block"
      FAIL_REGULAR_EXPRESSION "altmem_memset_avx2")
    set_tests_properties(entry_lines entry_lines_control PROPERTIES LABELS "selection;layout")
  endif()
endif()
