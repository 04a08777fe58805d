# altmem as the C library's memcpy/memmove/memset (docs/dropin.md): libaltmem-preload.so
# under `altmem run`, libaltmem-libc.a in static programs.  Label: dropin
# (ctest -L dropin).  Scripts and programs are in tests/dropin/.
#
#   dropin.exports          the preload library exports exactly exports.map + altmem_*,
#                           matching the C library's family of names; preload.c calls no libc
#   dropin.run_status       `altmem run`: exit status and signals pass through (exec), 127 for
#                           a missing command, 126 not executable, 127 missing library, usage 2,
#                           LD_PRELOAD appended once
#   dropin.probe            an ordinary program finds all 22 names in libaltmem-preload.so under
#                           `altmem run` and none without (negative control); results right;
#                           a fortified overflow ends in the C library's __chk_fail
#   dropin.cp .tar .sort .gzip .python .git
#                           real programs of this machine, output byte for byte equal with
#                           and without `altmem run`; LD_DEBUG=bindings, or the preload's
#                           debug=1 lines (PLT slots it wrote), show their calls reaching
#                           libaltmem-preload.so, and the plain run shows neither
#   dropin.programs_control the same check on an `altmem run` that preloads nothing fails
#   dropin.dlopen_threads   libaltmem.so dlopen()ed while 4 threads copy; then they all use it
#   dropin.fallback_pointer ALTMEM_TUNABLES=bind=pointer        } `altmem info` says pointer and why,
#   dropin.deny_write       mprotect(PROT_WRITE) refused (seccomp) } the probe, dlopen and all
#   dropin.deny_exec        mprotect(PROT_EXEC) refused (seccomp)  } programs still give equal output
#   dropin.plt_slots[_now,_nopie]  under the preload, the program's and its linked library's
#                           PLT slots hold the bound variant (lazy, BIND_NOW with the RELRO
#                           page read-only again, non-PIE), a dlopen()ed library's the stub;
#                           calls through each at 0-600 B x 8 alignments right
#   dropin.plt_slots_own    a program that exports its own memcpy keeps it for its libraries
#   dropin.plt_slots_noplt  a -fno-plt program: its GOT slots keep the stub, which is patched
#   dropin.plt_slots_dlopened  the preload dlopen()ed, not preloaded, writes no slot
#   dropin.plt_slots_patch  bind=patch: the slots hold the stub (patched), calls right
#   dropin.plt_slots_refused  BIND_NOW under mprotect(PROT_WRITE) refused: stub, note says so
#   dropin.plt_slots_control  bind=pointer checked as "variant" must fail
#   dropin.plt_slots_debug  debug=1 prints a line per slot written
#   dropin.plt_slots_verbose  verbose ends with "bound by PLT slots: N PLT slots in M objects"
#   dropin.startup_layout   the preload and libaltmem.so: no DT_FINI (a fault at every exit),
#                           writable data after RELRO within 2 pages (no large static buffer
#                           splitting what start-up writes); _control: a library with both fails
#   dropin.startup_pages    under the preload, and linked with libaltmem.so: after start-up no
#                           page of the writable segment past RELRO and the page after it has
#                           been written (/proc/self/pagemap; start-up writes only pages the
#                           loader wrote); _control: after an altmem_copy_user call (state kept
#                           past start-up's) it must fail
#   dropin.static_glibc     gcc -static with libaltmem-libc.a: memcpy is altmem_memcpy, patched
#   dropin.static_musl      musl-gcc -static, the same (+ negative controls with libaltmem.a)
#   dropin.startup_cost_smoke  scripts/startup-cost.sh end to end, every row with figures
#   dropin.readme_musl      the README's "static musl program" recipe, run as written
#   dropin.installed_run    the installed, moved prefix's altmem finds its own preload library
#
# A test whose tool is missing (git, python3, musl-gcc, libc.a, seccomp) exits 77 and says
# why on its last line.  Together: about 20 s of test time, 11 s wall with ctest -j2, on an
# idle 2-core machine (the full-size cp/sort/gzip/git runs are most of it).

if(CMAKE_CROSSCOMPILING OR NOT CMAKE_SYSTEM_NAME STREQUAL "Linux")
  # They run this machine's programs with the library just built.
  message(STATUS "altmem: drop-in tests need a native Linux build: not registered")
  return()
endif()
if(NOT TARGET altmem_preload OR NOT TARGET altmem_cli)
  message(STATUS "altmem: no libaltmem-preload.so or altmem CLI (ALTMEM_BUILD_SHARED/TOOLS off): "
                 "drop-in tests not registered")
  return()
endif()

set(_dropin ${CMAKE_CURRENT_SOURCE_DIR}/dropin)
set(_dropin_work ${CMAKE_CURRENT_BINARY_DIR}/dropin)
if(ALTMEM_BIND_MODE EQUAL 1)
  set(_dropin_bound "patched branch")
  # The preload gives its callers' PLT slots the variants (src/preload/plt_bind.c).
  set(_dropin_preload_bound "PLT slots")
elseif(ALTMEM_BIND_MODE EQUAL 3)
  set(_dropin_bound "ifunc")
else()
  set(_dropin_bound "pointer")
endif()
if(NOT DEFINED _dropin_preload_bound)
  set(_dropin_preload_bound "${_dropin_bound}")
endif()

# libaltmem.so itself (dlopen_threads): its IFUNC entries in the default build;
# the preload and the static archives keep the stubs.
if(ALTMEM_SHARED_IFUNC)
  set(_dropin_shared_bound "ifunc")
else()
  set(_dropin_shared_bound "${_dropin_bound}")
endif()

# Test programs that know nothing of altmem at build time (probe, dlopen_threads) or
# only launch others (deny_mprotect).  The byte-loop references must stay loops.
set(_dropin_flags -fno-builtin)
if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
  list(APPEND _dropin_flags -fno-tree-loop-distribute-patterns)
endif()
add_executable(dropin_probe dropin/probe.c)
# Fortified, so the program calls __memcpy_chk and friends as distribution binaries do.
target_compile_options(dropin_probe PRIVATE ${_dropin_flags} -O2 -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=2)
target_include_directories(dropin_probe PRIVATE ${_dropin} ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(dropin_probe PRIVATE ${CMAKE_DL_LIBS})
find_package(Threads REQUIRED)
add_executable(dropin_dlopen_threads dropin/dlopen_threads.c)
target_compile_options(dropin_dlopen_threads PRIVATE ${_dropin_flags})
target_include_directories(dropin_dlopen_threads PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(dropin_dlopen_threads PRIVATE Threads::Threads ${CMAKE_DL_LIBS})
add_executable(dropin_deny_mprotect dropin/deny_mprotect.c)

# altmem_dropin_test(NAME [UNDER_SANITIZERS] COMMAND ...): a dropin test, or, in a
# sanitized build, a skip that says why (unless it can run there).
function(altmem_dropin_test name)
  cmake_parse_arguments(PARSE_ARGV 1 T "UNDER_SANITIZERS" "" "COMMAND")
  if(ALTMEM_SANITIZE AND NOT T_UNDER_SANITIZERS)
    # A sanitized libaltmem-preload.so references the sanitizer runtime, which only
    # an instrumented executable carries, so it cannot be preloaded into cp or git;
    # static links with the runtime are not supported by clang's ASan.
    add_test(NAME ${name} COMMAND sh -c "echo 'SKIPPED: sanitized build (ALTMEM_SANITIZE=${ALTMEM_SANITIZE}): a sanitized libaltmem-preload.so cannot be preloaded into, or libaltmem-libc.a statically linked with, programs without the sanitizer runtime; the plain build runs this test'; exit 77")
  else()
    add_test(NAME ${name} COMMAND ${T_COMMAND})
  endif()
  set_tests_properties(${name} PROPERTIES LABELS dropin SKIP_RETURN_CODE 77 TIMEOUT 300)
endfunction()

set(_altmem $<TARGET_FILE:altmem_cli>)
set(_probe $<TARGET_FILE:dropin_probe>)

if(ALTMEM_NM)
  set(_san_opt "")
  if(ALTMEM_SANITIZE)
    set(_san_opt --allow-sanitizer)
  endif()
  altmem_dropin_test(dropin.exports UNDER_SANITIZERS COMMAND
    sh ${_dropin}/exports.sh ${_san_opt} ${ALTMEM_NM} ${CMAKE_C_COMPILER} $<TARGET_FILE:altmem_preload>
       $<TARGET_FILE:altmem_libc> $<TARGET_OBJECTS:altmem_preload_glue>)
endif()

if(CMAKE_READELF)
  # 2 pages: .data and .bss are about 4 KiB together, so they may straddle a page.
  set(_layout_opt "")
  if(NOT ALTMEM_STARTUP_LAYOUT_LD)
    set(_layout_opt --no-layout-script)   # not GNU ld (src/CMakeLists.txt)
  endif()
  altmem_dropin_test(dropin.startup_layout COMMAND sh ${_dropin}/startup_layout.sh ${CMAKE_READELF} 2 ${_layout_opt}
    $<TARGET_FILE:altmem_preload> $<$<TARGET_EXISTS:altmem_shared>:$<TARGET_FILE:altmem_shared>>)
  altmem_dropin_test(dropin.startup_layout_control COMMAND sh ${_dropin}/startup_layout.sh ${CMAKE_READELF} 2
    --control ${CMAKE_C_COMPILER})
  if(NOT ALTMEM_SANITIZE)
    set_tests_properties(dropin.startup_layout_control PROPERTIES WILL_FAIL TRUE)
  endif()
endif()

add_executable(dropin_startup_pages dropin/startup_pages.c)
target_link_libraries(dropin_startup_pages PRIVATE ${CMAKE_DL_LIBS})
altmem_dropin_test(dropin.startup_pages COMMAND env LD_PRELOAD=$<TARGET_FILE:altmem_preload>
  $<TARGET_FILE:dropin_startup_pages> $<TARGET_FILE_NAME:altmem_preload>)
altmem_dropin_test(dropin.startup_pages_control COMMAND env LD_PRELOAD=$<TARGET_FILE:altmem_preload>
  $<TARGET_FILE:dropin_startup_pages> $<TARGET_FILE_NAME:altmem_preload> --touch)
if(NOT ALTMEM_SANITIZE)
  set_tests_properties(dropin.startup_pages_control PROPERTIES WILL_FAIL TRUE)
endif()
if(TARGET altmem_shared)
  add_executable(dropin_startup_pages_linked dropin/startup_pages.c)
  target_link_libraries(dropin_startup_pages_linked PRIVATE altmem_shared ${CMAKE_DL_LIBS})
  target_compile_definitions(dropin_startup_pages_linked PRIVATE LINKED)
  altmem_dropin_test(dropin.startup_pages_linked COMMAND
    $<TARGET_FILE:dropin_startup_pages_linked> $<TARGET_SONAME_FILE_NAME:altmem_shared>)
endif()

if(ALTMEM_NM AND ALTMEM_BIND_MODE EQUAL 1)
  altmem_dropin_test(dropin.stub_aliases UNDER_SANITIZERS COMMAND
    sh ${_dropin}/stub_aliases.sh ${ALTMEM_NM} $<TARGET_FILE:altmem_preload>)
  # Negative control: libaltmem.so has the stubs but no C names.
  add_test(NAME dropin.stub_aliases_control
           COMMAND sh ${_dropin}/stub_aliases.sh ${ALTMEM_NM} $<TARGET_FILE:altmem_shared>)
  set_tests_properties(dropin.stub_aliases_control PROPERTIES LABELS dropin WILL_FAIL TRUE)
endif()

if(ALTMEM_SANITIZE)
  # The sanitized CLI runs its commands with a harmless library preloaded instead.
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libc.so.6
                  OUTPUT_VARIABLE _dropin_libc OUTPUT_STRIP_TRAILING_WHITESPACE)
  altmem_dropin_test(dropin.run_status UNDER_SANITIZERS COMMAND
    sh ${_dropin}/run_cli.sh status ${_altmem} ${_dropin_libc})
else()
  altmem_dropin_test(dropin.run_status COMMAND sh ${_dropin}/run_cli.sh status ${_altmem})
endif()
altmem_dropin_test(dropin.probe COMMAND sh ${_dropin}/run_cli.sh probe ${_altmem} ${_probe} "${_dropin_preload_bound}")

foreach(prog cp tar sort gzip python git)
  altmem_dropin_test(dropin.${prog} COMMAND
    bash ${_dropin}/programs.sh --altmem ${_altmem} --work ${_dropin_work}/${prog} ${prog})
endforeach()

# Negative control: an `altmem run` that preloads nothing must be caught by the binding
# check (the pass condition is that message, not merely a failure).
altmem_dropin_test(dropin.programs_control COMMAND
  bash ${_dropin}/programs.sh --altmem ${_dropin}/fake_altmem.sh --work ${_dropin_work}/control --scale small sort)
if(NOT ALTMEM_SANITIZE)
  set_tests_properties(dropin.programs_control PROPERTIES
    PASS_REGULAR_EXPRESSION "FAIL: the altmem run shows no binding to libaltmem-preload.so")
endif()

# An instrumented program may dlopen the instrumented library: this one runs there too.
altmem_dropin_test(dropin.dlopen_threads UNDER_SANITIZERS COMMAND
  $<TARGET_FILE:dropin_dlopen_threads> $<TARGET_FILE:altmem_shared> "${_dropin_shared_bound}")

# Forcing the fallback only means something where there is a branch to patch.
if(ALTMEM_BIND_MODE EQUAL 1)
  foreach(mode pointer write exec)
    set(name dropin.deny_${mode})
    if(mode STREQUAL "pointer")
      set(name dropin.fallback_pointer)
    endif()
    altmem_dropin_test(${name} COMMAND
      sh ${_dropin}/fallback.sh ${mode} ${_altmem} ${_probe} $<TARGET_FILE:dropin_deny_mprotect>
         $<TARGET_FILE:dropin_dlopen_threads> $<TARGET_FILE:altmem_shared> ${_dropin}/programs.sh
         ${_dropin_work}/fallback-${mode})
  endforeach()
endif()

# The preload's PLT slots (src/preload/plt_bind.c): a program linked as distributions
# link them (lazy PIE), BIND_NOW with RELRO, non-PIE, and one that defines memcpy.
if(ALTMEM_BIND_MODE EQUAL 1)
  foreach(lib plt-lib plt-late)
    string(REPLACE "-" "_" _t dropin_${lib})
    add_library(${_t} SHARED dropin/plt_lib.c)
    target_compile_options(${_t} PRIVATE ${_dropin_flags})
    set_target_properties(${_t} PROPERTIES OUTPUT_NAME altmem-${lib})
  endforeach()
  foreach(form lazy now nopie own noplt)
    add_executable(dropin_plt_slots_${form} dropin/plt_slots.c)
    target_compile_options(dropin_plt_slots_${form} PRIVATE ${_dropin_flags})
    target_include_directories(dropin_plt_slots_${form} PRIVATE ${PROJECT_SOURCE_DIR}/include)
    target_link_libraries(dropin_plt_slots_${form} PRIVATE dropin_plt_lib ${CMAKE_DL_LIBS})
  endforeach()
  target_link_options(dropin_plt_slots_lazy PRIVATE -Wl,-z,lazy)
  target_link_options(dropin_plt_slots_now PRIVATE -Wl,-z,now -Wl,-z,relro)
  set_target_properties(dropin_plt_slots_nopie PROPERTIES POSITION_INDEPENDENT_CODE OFF)
  target_compile_options(dropin_plt_slots_nopie PRIVATE -fno-pie)
  target_link_options(dropin_plt_slots_nopie PRIVATE -no-pie -Wl,-z,lazy)
  target_compile_definitions(dropin_plt_slots_own PRIVATE OWN_MEMCPY)
  target_compile_options(dropin_plt_slots_noplt PRIVATE -fno-plt)
  target_link_options(dropin_plt_slots_own PRIVATE -rdynamic -Wl,-z,lazy)
  set(_late $<TARGET_FILE:dropin_plt_late>)
  set(_pre LD_PRELOAD=$<TARGET_FILE:altmem_preload>)
  foreach(t "plt_slots|lazy|variant|" "plt_slots_now|now|variant|" "plt_slots_nopie|nopie|variant|"
            "plt_slots_own|own|own|" "plt_slots_noplt|noplt|noplt|" "plt_slots_patch|now|stub|ALTMEM_TUNABLES=bind=patch"
            "plt_slots_control|lazy|variant|ALTMEM_TUNABLES=bind=pointer")
    string(REPLACE "|" ";" t "${t}")
    list(GET t 0 name)
    list(GET t 1 form)
    list(GET t 2 expect)
    list(GET t 3 extra)
    altmem_dropin_test(dropin.${name} COMMAND env ${_pre} ${extra}
      $<TARGET_FILE:dropin_plt_slots_${form}> ${expect} ${_late})
  endforeach()
  # debug=1: a line per slot written, the lazy ones said so.
  altmem_dropin_test(dropin.plt_slots_debug COMMAND env ${_pre} ALTMEM_TUNABLES=debug=1
    $<TARGET_FILE:dropin_plt_slots_lazy> variant ${_late})
  # verbose: the last line says how calls reach the variants, and how many slots.
  altmem_dropin_test(dropin.plt_slots_verbose COMMAND env ${_pre} ALTMEM_TUNABLES=verbose
    $<TARGET_FILE:dropin_plt_slots_lazy> variant ${_late})
  if(NOT ALTMEM_SANITIZE)
    set_tests_properties(dropin.plt_slots_verbose PROPERTIES PASS_REGULAR_EXPRESSION
      "altmem: clear_user -> [a-z0-9_]+ [^\n]*\naltmem: bound by PLT slots: [1-9][0-9]* PLT slots? in [1-9][0-9]* objects?; other calls: stub, pointer\n.*plt_slots variant: passed")
    set_tests_properties(dropin.plt_slots_control PROPERTIES WILL_FAIL TRUE)
    set_tests_properties(dropin.plt_slots_debug PROPERTIES PASS_REGULAR_EXPRESSION
      "altmem: PLT slot memcpy in \\(the program\\) at 0x[0-9a-f]+: 0x[0-9a-f]+ \\(not yet resolved\\) -> 0x[0-9a-f]+\n.*plt_slots variant: passed")
  endif()
  altmem_dropin_test(dropin.plt_slots_dlopened COMMAND
    $<TARGET_FILE:dropin_plt_slots_lazy> dlopened $<TARGET_FILE:altmem_preload>)
  altmem_dropin_test(dropin.plt_slots_refused COMMAND $<TARGET_FILE:dropin_deny_mprotect> write
    env ${_pre} $<TARGET_FILE:dropin_plt_slots_now> refused ${_late})
endif()

# A static program's entries hold the bound variants' code where the
# architecture copies (x86_64: src/arch/x86_64/copy.h), else the branch.
set(_dropin_static_bound "${_dropin_bound}")
if(ALTMEM_BIND_MODE EQUAL 1 AND ALTMEM_ARCH STREQUAL "x86_64" AND NOT ALTMEM_SANITIZE)
  set(_dropin_static_bound "copied")
endif()
foreach(flavour glibc musl)
  altmem_dropin_test(dropin.static_${flavour} COMMAND
    sh ${_dropin}/static.sh ${flavour} ${CMAKE_C_COMPILER} ${_dropin} ${PROJECT_SOURCE_DIR}/include
       $<TARGET_FILE:altmem_libc> $<TARGET_FILE:altmem_static> ${_dropin_work}/static-${flavour}
       "${_dropin_static_bound}")
endforeach()

# scripts/startup-cost.sh end to end (tiny loops; the figures are not checked).
altmem_dropin_test(dropin.startup_cost_smoke COMMAND
  sh ${_dropin}/startup_cost_smoke.sh ${PROJECT_SOURCE_DIR}/scripts/startup-cost.sh ${CMAKE_BINARY_DIR})

# The README's static musl recipe, its lines run as written against this build.
altmem_dropin_test(dropin.readme_musl COMMAND
  sh ${_dropin}/readme_musl.sh ${PROJECT_SOURCE_DIR}/README.md ${CMAKE_BINARY_DIR} ${_dropin_work}/readme-musl)

# The installed tree (tests/build.cmake installs it, then moves it): its altmem must
# find its own libaltmem-preload.so through /proc/self/exe, not the build tree's.
if(TEST build.install)
  altmem_dropin_test(dropin.installed_run COMMAND
    sh ${_dropin}/run_cli.sh installed ${CMAKE_BINARY_DIR}/install-test/prefix ${CMAKE_INSTALL_BINDIR}
       ${_probe} "${_dropin_preload_bound}")
  set_tests_properties(dropin.installed_run PROPERTIES FIXTURES_REQUIRED altmem_prefix)
endif()
