# The alternatives engine: branch encoders (against an assembler) and patching.

file(GLOB _altmem_encoders ${PROJECT_SOURCE_DIR}/src/arch/*/encode.c)   # every architecture's, on any host
altmem_test_exe(test_encode test_encode.c ${_altmem_encoders})
add_test(NAME encode COMMAND test_encode)
set_tests_properties(encode PROPERTIES LABELS alternatives)
# Against the assembler: every architecture's encoder in one run, so only in the main
# build (the nested ones, cross, sanitizer and binding builds, would repeat the same
# comparison; each of them still runs `encode`, the encoders' fixed vectors, on its
# own target).
if(NOT ALTMEM_NESTED)
  add_test(NAME encode_vs_assembler COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_encode_asm.sh $<TARGET_FILE:test_encode>)
  add_test(NAME encode_vs_assembler_control
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_encode_asm.sh $<TARGET_FILE:test_encode> --self-test)
  set_tests_properties(encode_vs_assembler encode_vs_assembler_control PROPERTIES LABELS alternatives
                       SKIP_RETURN_CODE 77)
endif()

# The x86-64 decoder and copier behind copied entries (src/arch/x86_64/insn.c,
# copy.c): pure, on any host; against objdump where this build's code is x86-64.
altmem_test_exe(test_x86_insn test_x86_insn.c ${PROJECT_SOURCE_DIR}/src/arch/x86_64/insn.c
                ${PROJECT_SOURCE_DIR}/src/arch/x86_64/copy_plan.c ${PROJECT_SOURCE_DIR}/src/arch/x86_64/copy.c)
target_include_directories(test_x86_insn PRIVATE ${PROJECT_SOURCE_DIR}/src/arch/x86_64)
add_test(NAME x86_insn.copy COMMAND test_x86_insn --copy)
set_tests_properties(x86_insn.copy PROPERTIES LABELS alternatives)
if(ALTMEM_ARCH STREQUAL "x86_64" AND NOT CMAKE_CROSSCOMPILING AND NOT ALTMEM_NESTED)
  add_test(NAME x86_insn.library COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_x86_insn.sh
           $<TARGET_FILE:test_x86_insn> library $<TARGET_FILE:altmem_static>)
  add_test(NAME x86_insn.libc COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_x86_insn.sh
           $<TARGET_FILE:test_x86_insn> libc)
  add_test(NAME x86_insn.control COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_x86_insn.sh
           $<TARGET_FILE:test_x86_insn> control)
  set_tests_properties(x86_insn.library x86_insn.libc x86_insn.control PROPERTIES LABELS alternatives
                       SKIP_RETURN_CODE 77)
endif()

# A fault inside a copied entry unwinds to its caller (the stub's unwind entry);
# the control faults where there is none and must lose the caller.
# (musl has no backtrace(), nor an unwind entry on its signal trampoline: no test there.)
include(CheckIncludeFile)
check_include_file(execinfo.h ALTMEM_HAVE_EXECINFO_H)
if(ALTMEM_BIND_MODE EQUAL 1 AND ALTMEM_ARCH STREQUAL "x86_64" AND NOT ALTMEM_SANITIZE AND ALTMEM_HAVE_EXECINFO_H)
  altmem_test_exe(test_entry_unwind test_entry_unwind.c)
  add_test(NAME entry_copied.unwind COMMAND test_entry_unwind)
  add_test(NAME entry_copied.unwind_control COMMAND test_entry_unwind control)
  set_tests_properties(entry_copied.unwind_control PROPERTIES WILL_FAIL TRUE)
  set_tests_properties(entry_copied.unwind entry_copied.unwind_control PROPERTIES LABELS alternatives
                       SKIP_RETURN_CODE 77)
endif()

# A user's routine declared with ALTMEM_ALTERNATIVE (include/altmem_alternative.h).
altmem_test_exe(test_alternative test_alternative.c)
if(ALTMEM_BIND_MODE EQUAL 1)
  set(_bound "patched branch")
else()
  set(_bound "pointer")
endif()
# The CPU's features decide the first case; the others mask them away.
add_test(NAME alternative_detected COMMAND test_alternative auto "${_bound}")
add_test(NAME alternative_masked COMMAND test_alternative count_zeros_words "${_bound}")
set_tests_properties(alternative_masked PROPERTIES ENVIRONMENT "ALTMEM_TUNABLES=hwcaps=-SIMD256,+UAL")
add_test(NAME alternative_fallback COMMAND test_alternative count_zeros_bytes "${_bound}")
set_tests_properties(alternative_fallback PROPERTIES ENVIRONMENT "ALTMEM_TUNABLES=hwcaps=-UAL")
add_test(NAME alternative_pointer COMMAND test_alternative count_zeros_words pointer)
set_tests_properties(alternative_pointer PROPERTIES ENVIRONMENT "ALTMEM_TUNABLES=hwcaps=-SIMD256,+UAL:bind=pointer")
# Negative control: a wrong expectation must be reported.  (+UAL makes the byte
# fallback wrong on every CPU, also on one without UAL, e.g. riscv64 under qemu.)
add_test(NAME alternative_control COMMAND test_alternative count_zeros_bytes "${_bound}")
set_tests_properties(alternative_control PROPERTIES WILL_FAIL TRUE ENVIRONMENT "ALTMEM_TUNABLES=hwcaps=+UAL")
set_tests_properties(alternative_detected alternative_masked alternative_fallback alternative_pointer
                     alternative_control PROPERTIES LABELS alternatives)

# How calls reach the variants, as `altmem info` reports it (read from the code;
# the CLI is linked with libaltmem.so where there is one, whose default build has
# IFUNC entries over the patched stubs).
if(ALTMEM_SHARED_IFUNC)
  set(_by "ifunc")
elseif(ALTMEM_BIND_MODE EQUAL 1 AND ALTMEM_ARCH STREQUAL "x86_64" AND NOT ALTMEM_SANITIZE)
  set(_by "copied")              # the stubs, each holding its variant's code
elseif(ALTMEM_BIND_MODE EQUAL 1)
  set(_by "patched branch")      # (the sanitizer build's variants open with a frame: no copy)
elseif(ALTMEM_BIND_MODE EQUAL 3)
  set(_by "ifunc")
else()
  set(_by "pointer")
endif()
if(TARGET altmem_cli)
  set(_bind_cases "bound_by|<unset>|memcpy +[a-z0-9_]+ +detected +${_by} [^\n]*\nmemmove +[a-z0-9_]+ +detected +${_by} [^\n]*\nmemset +[a-z0-9_]+ +detected +${_by} |")
  if(ALTMEM_BIND_MODE EQUAL 1)
    list(APPEND _bind_cases
      "bind_pointer|bind=pointer|memcpy +[a-z0-9_]+ +detected +pointer [^\n]*\n.*not patched: bind=pointer in ALTMEM_TUNABLES|"
      "bind_patch|bind=patch|memcpy +[a-z0-9_]+ +detected +patched branch [^\n]*\nmemmove +[a-z0-9_]+ +detected +patched branch |"
      "debug|debug:bind=patch|memcpy +[a-z0-9_]+ +detected +patched branch|^altmem: patch memcpy at 0x[0-9a-f]+: branch 0x[0-9a-f]+ \\(dispatch\\) -> 0x[0-9a-f]+ \\[[0-9a-f ]+ -> [0-9a-f ]+\\]\naltmem: patch memmove [^\n]*\naltmem: patch memset [^\n]*\naltmem: patch copy_user [^\n]*\naltmem: patch clear_user [^\n]*\n$")
    if(ALTMEM_ARCH STREQUAL "x86_64" AND NOT ALTMEM_SANITIZE)
      # The variants' code in the entries (src/arch/x86_64/copy.h); copy_user and
      # clear_user keep the branch, and the legend names both.
      list(APPEND _bind_cases
        "bind_copy|bind=copy|memcpy +[a-z0-9_]+ +detected +copied [^\n]*\nmemmove +[a-z0-9_]+ +detected +copied [^\n]*\nmemset +[a-z0-9_]+ +detected +copied [^\n]*\ncopy_user +[a-z0-9_]+ +detected +patched branch .*bound by copied: the variant's code was copied into the entry.*bound by patched branch: |"
        "debug_copy|debug:bind=copy|memcpy +[a-z0-9_]+ +detected +copied|^altmem: patch memcpy at 0x[0-9a-f]+: branch 0x[0-9a-f]+ \\(dispatch\\) -> copy of 0x[0-9a-f]+, [0-9]+ bytes[^\n]*\naltmem: patch memmove [^\n]*copy of[^\n]*\naltmem: patch memset [^\n]*copy of[^\n]*\naltmem: patch copy_user [^\n]*\naltmem: patch clear_user [^\n]*\n$")
    endif()
  endif()
  foreach(_case IN LISTS _bind_cases)
    string(REPLACE "|" ";" _f "${_case}")
    list(GET _f 0 _name)
    list(GET _f 1 _tun)
    list(GET _f 2 _out)
    list(GET _f 3 _err)
    add_test(NAME info_${_name}
      COMMAND ${CMAKE_COMMAND} -DALTMEM=$<TARGET_FILE:altmem_cli> -DCASE=${_name}
              "-DTUNABLES=${_tun}" "-DEXPECT_OUT=${_out}" "-DEXPECT_ERR=${_err}"
              -P ${CMAKE_CURRENT_SOURCE_DIR}/info_cases.cmake)
    set_tests_properties(info_${_name} PROPERTIES LABELS "alternatives;info")
  endforeach()
endif()

# The other two bindings, each a whole build of its own running the routine,
# alternative and info tests: ALTMEM_BINDING=pointer and =ifunc.
if(NOT ALTMEM_NESTED AND NOT CMAKE_CROSSCOMPILING)
  foreach(_mode pointer ifunc)
    add_test(NAME build.binding_${_mode}
             COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/binding-build.sh ${_mode} ${PROJECT_SOURCE_DIR}
                     ${CMAKE_BINARY_DIR}/binding-${_mode})
    set_tests_properties(build.binding_${_mode} PROPERTIES LABELS "build;alternatives" TIMEOUT 1200
                         PROCESSORS 2)
  endforeach()
endif()

# The entry points as a program linked with libaltmem.so reaches them.
if(TARGET altmem_shared AND NOT ALTMEM_SANITIZE)
  add_executable(test_entry_shared test_entry_shared.c)
  target_link_libraries(test_entry_shared PRIVATE altmem_shared)
  add_test(NAME entry_shared COMMAND test_entry_shared "${_by}")
  add_test(NAME entry_shared_control COMMAND test_entry_shared "no such binding")
  set_tests_properties(entry_shared_control PROPERTIES WILL_FAIL TRUE)
  set_tests_properties(entry_shared entry_shared_control PROPERTIES LABELS alternatives)
  # Resolved while the loader relocates (-z now): ALTMEM_TUNABLES must be seen
  # then too (the pin), and the control shows the check can fail.
  add_executable(test_entry_shared_now test_entry_shared.c)
  target_link_libraries(test_entry_shared_now PRIVATE altmem_shared)
  target_link_options(test_entry_shared_now PRIVATE -Wl,-z,now)
  add_test(NAME entry_shared_pinned COMMAND test_entry_shared_now "${_by}" pin)
  add_test(NAME entry_shared_pinned_control COMMAND test_entry_shared_now "${_by}" pin control)
  set_tests_properties(entry_shared_pinned entry_shared_pinned_control PROPERTIES SKIP_RETURN_CODE 77)
  set_tests_properties(entry_shared_pinned_control PROPERTIES WILL_FAIL TRUE)
  set_tests_properties(entry_shared_pinned entry_shared_pinned_control PROPERTIES LABELS alternatives)
  if(ALTMEM_SHARED_IFUNC)
    # The other bindings of the same library, chosen at run time.
    add_test(NAME entry_shared_patch COMMAND test_entry_shared "patched branch")
    if(ALTMEM_ARCH STREQUAL "x86_64")
      add_test(NAME entry_shared_copy COMMAND test_entry_shared "copied")
      set_tests_properties(entry_shared_copy PROPERTIES ENVIRONMENT "ALTMEM_TUNABLES=bind=copy" LABELS alternatives)
    endif()
    add_test(NAME entry_shared_pointer COMMAND test_entry_shared "pointer")
    set_tests_properties(entry_shared_patch PROPERTIES ENVIRONMENT "ALTMEM_TUNABLES=bind=patch")
    set_tests_properties(entry_shared_pointer PROPERTIES ENVIRONMENT "ALTMEM_TUNABLES=bind=pointer")
    # An object relocated before libaltmem.so (it calls altmem_memcpy without
    # naming the library): its resolver call must not touch what relocation has
    # not yet written, and hands it the patched stub.
    add_library(test_entry_early_lib SHARED entry_early_lib.c)
    target_include_directories(test_entry_early_lib PRIVATE ${PROJECT_SOURCE_DIR}/include)
    target_link_options(test_entry_early_lib PRIVATE -Wl,-z,now)
    add_executable(test_entry_early test_entry_early.c)
    target_link_libraries(test_entry_early PRIVATE altmem_shared test_entry_early_lib)
    target_link_options(test_entry_early PRIVATE -Wl,-z,now)
    add_test(NAME entry_shared_early COMMAND test_entry_early)
    set_tests_properties(entry_shared_patch entry_shared_pointer entry_shared_early PROPERTIES LABELS alternatives)
  endif()
endif()

# A variant whose linked bytes differ from its plan's keeps the branch, and
# altmem_binding() (altmem info) says why: the digest.  The control leaves the
# bytes alone, so the same checks must fail (the entry holds the copy).
if(ALTMEM_BIND_MODE EQUAL 1 AND ALTMEM_ARCH STREQUAL "x86_64" AND NOT ALTMEM_SANITIZE)
  altmem_test_exe(test_copy_refused test_copy_refused.c)
  add_test(NAME entry_copied.digest_refused COMMAND test_copy_refused)
  add_test(NAME entry_copied.digest_refused_control COMMAND test_copy_refused)
  set_tests_properties(entry_copied.digest_refused PROPERTIES ENVIRONMENT "ALTMEM_TUNABLES=memcpy=sse2")
  set_tests_properties(entry_copied.digest_refused_control PROPERTIES WILL_FAIL TRUE
                       ENVIRONMENT "ALTMEM_TUNABLES=memcpy=sse2;TEST_COPY_REFUSED_MODE=control")
  set_tests_properties(entry_copied.digest_refused entry_copied.digest_refused_control PROPERTIES
                       LABELS alternatives SKIP_RETURN_CODE 77)
endif()
