# Build-area tests: the installed library works for a user, and the whole suite passes
# under AddressSanitizer + UndefinedBehaviorSanitizer with clang-19.
#
#   build.install              cmake --install into <build>/install-test/stage, check the
#                              file list and that no installed text file names the
#                              build or source tree, then move stage -> prefix (so every
#                              test below also proves the tree is relocatable)
#   build.installed_cli        <prefix>/bin/altmem info runs (RUNPATH $ORIGIN/../lib)
#   build.example_cmake        examples/ configured with find_package(altmem 0.1) against
#                              the prefix (CMAKE_PREFIX_PATH), built, the demos run
#   build.example_pkgconfig    examples/Makefile with pkg-config: shared build, run
#   build.example_pkgconfig_static   the same with -static and pkg-config --static
#   build.check_summary        scripts/check-summary.sh: a skip fails the run in CI
#   build.musl_programs_args   scripts/musl-programs.sh: bad arguments, sources that are
#                              not the program named, a missing musl-gcc or valgrind are
#                              one line and exit 2, before anything is built (no sources)
#   build.sanitize             scripts/sanitize.sh: a clang-19 build in <build>/sanitize
#                              with ALTMEM_SANITIZE=address,undefined and -Werror, and
#                              its ctest; skipped (exit 77) without clang-19 or its
#                              sanitizer runtime
#
# build.install sets up the fixture altmem_prefix that the next four require, so CTest
# always installs first (also when only one of them is selected).
# Run just these: ctest -L build   (or ctest -R '^build\.')
#
# This file has two modes.  Included from tests/CMakeLists.txt it registers the tests;
# run as `cmake -DSTEP=<step> ... -P tests/build.cmake` it performs one step (that is
# what the registered tests run).
#
# ALTMEM_NESTED=ON (set by scripts/sanitize.sh for its inner build) registers none of
# these: the inner build must not install, nor start another sanitizer build.

# ======================================================================================
# Script mode: one step.
# ======================================================================================
if(CMAKE_SCRIPT_MODE_FILE)
  cmake_minimum_required(VERSION 3.20)

  # altmem_run([ENV VAR=value...] COMMAND cmd args...): runs cmd, echoing it, in a clean
  # environment plus the given variables; fails the test when it exits non-zero.
  # Nothing from the caller leaks in: not the jobserver of `make check` (not ours to
  # use), nor a loader path or a search path that could find another altmem.
  function(altmem_run)
    cmake_parse_arguments(PARSE_ARGV 0 R "" "" "ENV;COMMAND")
    string(REPLACE ";" " " _shown "${R_ENV};${R_COMMAND}")
    string(STRIP "${_shown}" _shown)
    message("+ ${_shown}")
    execute_process(
      COMMAND ${CMAKE_COMMAND} -E env --unset=MAKEFLAGS --unset=MFLAGS --unset=MAKELEVEL
              --unset=LD_LIBRARY_PATH --unset=LD_PRELOAD --unset=CMAKE_PREFIX_PATH
              --unset=PKG_CONFIG_PATH --unset=PKG_CONFIG_LIBDIR --unset=PKG_CONFIG_SYSROOT_DIR
              ${R_ENV} ${R_COMMAND}
      RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "command failed (${_rc}): ${_shown}")
    endif()
  endfunction()

  set(PREFIX ${ROOT}/prefix)

  if(STEP STREQUAL "install")
    set(STAGE ${ROOT}/stage)
    file(REMOVE_RECURSE ${ROOT})
    altmem_run(COMMAND ${CMAKE_COMMAND} --install ${BIN} --prefix ${STAGE})

    set(expected
      ${INCLUDEDIR}/altmem.h
      ${INCLUDEDIR}/altmem_alternative.h
      ${LIBDIR}/libaltmem.a
      ${PCDIR}/altmem.pc
      ${CMAKEDIR}/altmemConfig.cmake
      ${CMAKEDIR}/altmemConfigVersion.cmake
      ${CMAKEDIR}/altmemTargets.cmake)
    if(HAVE_SHARED)
      list(APPEND expected ${LIBDIR}/libaltmem.so ${LIBDIR}/libaltmem.so.${SOVERSION}
                           ${LIBDIR}/libaltmem.so.${VERSION})
    endif()
    if(HAVE_CLI)
      list(APPEND expected ${BINDIR}/altmem)
    endif()
    set(missing "")
    foreach(f IN LISTS expected)
      if(NOT EXISTS ${STAGE}/${f})
        list(APPEND missing ${f})
      endif()
    endforeach()
    file(GLOB_RECURSE installed RELATIVE ${STAGE} LIST_DIRECTORIES false ${STAGE}/*)
    list(SORT installed)
    string(REPLACE ";" "\n  " _list "${installed}")
    message("installed:\n  ${_list}")
    if(missing)
      message(FATAL_ERROR "not installed: ${missing}")
    endif()

    # Relocatable: no installed text file may name the build tree, the source tree or
    # the prefix it was installed to.  (Binaries are not scanned: their debug info names
    # the sources, which is harmless.)
    file(GLOB_RECURSE texts ${STAGE}/*.cmake ${STAGE}/*.pc ${STAGE}/*.h)
    foreach(f IN LISTS texts)
      file(READ ${f} body)
      foreach(path IN ITEMS ${BIN} ${SRC} ${STAGE})
        string(FIND "${body}" "${path}" at)
        if(NOT at EQUAL -1)
          message(FATAL_ERROR "${f} names the absolute path ${path}: the install is not relocatable")
        endif()
      endforeach()
    endforeach()

    file(RENAME ${STAGE} ${PREFIX})
    message("moved ${STAGE} -> ${PREFIX}; the other build.* tests use the moved copy")

  elseif(STEP STREQUAL "cli")
    altmem_run(COMMAND ${PREFIX}/${BINDIR}/altmem version)
    altmem_run(COMMAND ${PREFIX}/${BINDIR}/altmem info)

  elseif(STEP STREQUAL "example_cmake")
    set(B ${ROOT}/example-cmake)
    file(REMOVE_RECURSE ${B})
    # CMAKE_PREFIX_PATH is searched before the system paths; the check of altmem_DIR
    # below makes sure an altmem installed elsewhere did not stand in for this one.
    altmem_run(COMMAND ${CMAKE_COMMAND} -S ${SRC}/examples -B ${B} -G ${GENERATOR}
      -DCMAKE_C_COMPILER=${CC} -DCMAKE_BUILD_TYPE=Release
      "-DCMAKE_C_FLAGS=-Wall -Wextra -Wpedantic -Werror"
      -DCMAKE_PREFIX_PATH=${PREFIX}
      -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
    file(STRINGS ${B}/CMakeCache.txt found REGEX "^altmem_DIR:")
    string(REGEX REPLACE "^[^=]*=" "" found "${found}")
    if(NOT found STREQUAL "${PREFIX}/${CMAKEDIR}")
      message(FATAL_ERROR "find_package(altmem) found '${found}', not ${PREFIX}/${CMAKEDIR}")
    endif()
    altmem_run(COMMAND ${CMAKE_COMMAND} --build ${B})
    # No LD_LIBRARY_PATH: CMake's build RPATH points at <prefix>/lib.
    altmem_run(COMMAND ${B}/altmem_demo)
    altmem_run(COMMAND ${B}/altmem_demo_static)
    altmem_run(COMMAND ${B}/alternative_demo)
    altmem_run(COMMAND ${B}/truncate_demo)

  elseif(STEP STREQUAL "example_pkgconfig" OR STEP STREQUAL "example_pkgconfig_static")
    if(NOT MAKE OR NOT PKG_CONFIG)
      message("ALTMEM-SKIP: needs make and pkg-config (found make='${MAKE}', pkg-config='${PKG_CONFIG}')")
      return()
    endif()
    set(B ${ROOT}/${STEP})
    file(REMOVE_RECURSE ${B})
    file(MAKE_DIRECTORY ${B})
    # PKG_CONFIG_PATH as a user would set it; PKG_CONFIG_LIBDIR so that only the test
    # prefix is searched.
    set(pcenv ENV PKG_CONFIG_PATH=${PREFIX}/${PCDIR} PKG_CONFIG_LIBDIR=${PREFIX}/${PCDIR})
    altmem_run(${pcenv} COMMAND ${PKG_CONFIG} --cflags --libs altmem)
    altmem_run(${pcenv} COMMAND ${PKG_CONFIG} --static --libs altmem)
    altmem_run(${pcenv} COMMAND ${PKG_CONFIG} --modversion altmem)
    set(make ${pcenv} COMMAND ${MAKE} -f ${SRC}/examples/Makefile -C ${B} CC=${CC} PKG_CONFIG=${PKG_CONFIG}
             "CFLAGS=-O2 -std=c11 -Wall -Wextra -Wpedantic -Werror")
    if(STEP STREQUAL "example_pkgconfig")
      altmem_run(${make} altmem_demo)
      altmem_run(ENV LD_LIBRARY_PATH=${PREFIX}/${LIBDIR} COMMAND ${B}/altmem_demo)
    else()
      altmem_run(${make} static)
      altmem_run(COMMAND ${B}/altmem_demo_static)
    endif()

  else()
    message(FATAL_ERROR "tests/build.cmake: unknown STEP '${STEP}'")
  endif()
  return()
endif()

# ======================================================================================
# Configure mode: register the tests.
# ======================================================================================
option(ALTMEM_NESTED "Inner build of scripts/sanitize.sh: skip the install and sanitizer tests" OFF)
mark_as_advanced(ALTMEM_NESTED)
if(ALTMEM_NESTED)
  return()
endif()

# --- install + examples ---------------------------------------------------------------
if(ALTMEM_SANITIZE)
  # A sanitized libaltmem needs the sanitizer runtime in every program that links it;
  # the examples are plain programs.  scripts/sanitize.sh covers this configuration.
  message(STATUS "altmem: ALTMEM_SANITIZE is set: install/example tests not registered")
else()
  find_program(ALTMEM_PKG_CONFIG NAMES pkg-config pkgconf)
  find_program(ALTMEM_MAKE NAMES gmake make)
  mark_as_advanced(ALTMEM_PKG_CONFIG ALTMEM_MAKE)

  set(_altmem_step_args
    -DROOT=${CMAKE_BINARY_DIR}/install-test
    -DBIN=${CMAKE_BINARY_DIR}
    -DSRC=${PROJECT_SOURCE_DIR}
    -DCC=${CMAKE_C_COMPILER}
    -DGENERATOR=${CMAKE_GENERATOR}
    -DMAKE=${ALTMEM_MAKE}
    -DPKG_CONFIG=${ALTMEM_PKG_CONFIG}
    -DINCLUDEDIR=${CMAKE_INSTALL_INCLUDEDIR}
    -DLIBDIR=${CMAKE_INSTALL_LIBDIR}
    -DBINDIR=${CMAKE_INSTALL_BINDIR}
    -DPCDIR=${CMAKE_INSTALL_LIBDIR}/pkgconfig           # as in cmake/AltmemInstall.cmake,
    -DCMAKEDIR=${CMAKE_INSTALL_LIBDIR}/cmake/altmem     # which is included after this file
    -DVERSION=${PROJECT_VERSION}
    -DSOVERSION=${PROJECT_VERSION_MAJOR}
    -DHAVE_SHARED=$<TARGET_EXISTS:altmem_shared>
    -DHAVE_CLI=$<TARGET_EXISTS:altmem_cli>)

  set(_altmem_steps install example_cmake example_pkgconfig example_pkgconfig_static)
  if(TARGET altmem_cli)
    list(APPEND _altmem_steps cli)
  endif()
  foreach(step IN LISTS _altmem_steps)
    set(name build.${step})
    if(step STREQUAL "cli")
      set(name build.installed_cli)
    endif()
    add_test(NAME ${name}
             COMMAND ${CMAKE_COMMAND} -DSTEP=${step} ${_altmem_step_args}
                     -P ${CMAKE_CURRENT_LIST_DIR}/build.cmake)
    set_tests_properties(${name} PROPERTIES LABELS build TIMEOUT 600
                         SKIP_REGULAR_EXPRESSION "ALTMEM-SKIP:")
    if(step STREQUAL "install")
      set_tests_properties(${name} PROPERTIES FIXTURES_SETUP altmem_prefix)
    else()
      set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED altmem_prefix)
    endif()
  endforeach()
endif()

# --- the sanitizer build --------------------------------------------------------------
# CTest prints no reason for a skipped test (it is in Testing/Temporary/LastTest.log), so
# say it here too.
find_program(ALTMEM_CLANG19 clang-19)
mark_as_advanced(ALTMEM_CLANG19)
if(NOT ALTMEM_CLANG19)
  message(STATUS "altmem: clang-19 not found: build.sanitize will be skipped "
                 "(scripts/install-deps.sh installs clang-19 and libclang-rt-19-dev)")
endif()
add_test(NAME build.sanitize
         COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/sanitize.sh ${PROJECT_SOURCE_DIR}
                 ${CMAKE_BINARY_DIR}/sanitize)
# It builds and runs a whole second suite with both cores (nproc jobs): let CTest count
# that, so it does not run alongside the other tests and disturb their timings.
set_tests_properties(build.sanitize PROPERTIES LABELS "build;sanitize" SKIP_RETURN_CODE 77
                     TIMEOUT 2700 PROCESSORS 2)

# The closing summary of `make check`: in CI (ALTMEM_SKIPS_FATAL=1) a skipped test
# is a failure, since the install scripts provide every tool (checked on made-up output).
add_test(NAME build.check_summary
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/check_summary_selftest.sh ${PROJECT_SOURCE_DIR}/scripts)
set_tests_properties(build.check_summary PROPERTIES LABELS build)

# The musl real-program benchmark's argument checks (the benchmark itself needs program
# sources fetched by hand and minutes of machine time: it is run by hand, not here).
add_test(NAME build.musl_programs_args
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/musl_programs_args.sh ${PROJECT_SOURCE_DIR}/scripts)
set_tests_properties(build.musl_programs_args PROPERTIES LABELS build)
