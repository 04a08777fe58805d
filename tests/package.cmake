# The Debian packages (docs/packaging.md), built as `make deb` builds them and checked as
# a user meets them.  Label: package (ctest -L package).  Scripts in tests/package/.
#
#   package.build        scripts/make-deb.sh into <build>/package-test/build: a build of
#                        its own (prefix /usr, /etc/altmem/profile), CPack's DEB generator;
#                        sets up the fixture altmem_debs
#   package.contents     each package's file list is exactly tests/package/<name>.list (no
#                        test, no build file), owners and modes, control fields and
#                        dependencies, shlibs and ldconfig, the purge of the system profile,
#                        SONAME, no RUNPATH, stripped, the ABI of abi/, no file naming the
#                        source or a build tree, the profile path /etc/altmem/profile in the
#                        library, the tool and the pages, the pages render (groff -ww)
#   package.install      dpkg -x of all three into <build>/package-test/root; the root's
#                        altmem: --version, help, info, and run (sort under it, its mem*
#                        calls bound to the root's libaltmem-preload.so); sets up the
#                        fixture altmem_debroot
#   package.example_pkgconfig   pkg-config --libs altmem is -laltmem; examples/Makefile
#                        through the root's altmem.pc (sysroot), shared and -static, run
#   package.example_cmake       examples/ through the root's CMake package, run
#   package.control_contents    negative control: the tool's package repacked with a test
#                        program in it must fail package.contents' check, naming the file
#
# Skipped (77, with the reason) without dpkg-deb, dpkg-shlibdeps or file: in CI
# (ALTMEM_SKIPS_FATAL=1) that fails, and scripts/install-deps.sh installs dpkg-dev and
# file.  Time: package.build is one Release build of the library and the tool, about
# 80 CPU-seconds (PROCESSORS 2: 87 s wall on a 2-core machine shared with a CI job),
# the other five about 26 s together.

if(CMAKE_CROSSCOMPILING OR NOT CMAKE_SYSTEM_NAME STREQUAL "Linux" OR ALTMEM_NESTED OR ALTMEM_SANITIZE
   OR NOT TARGET altmem_cli OR NOT TARGET altmem_shared)
  message(STATUS "altmem: package tests need a plain native build with libaltmem.so and the CLI: not registered")
  return()
endif()

find_program(ALTMEM_PKG_CONFIG NAMES pkg-config pkgconf)
find_program(ALTMEM_MAKE NAMES gmake make)
mark_as_advanced(ALTMEM_PKG_CONFIG ALTMEM_MAKE)
set(_pkg_root ${CMAKE_BINARY_DIR}/package-test)
set(_pkg_build ${_pkg_root}/build)
set(_pkg_check ${CMAKE_CURRENT_SOURCE_DIR}/package/check.sh)

add_test(NAME package.build COMMAND ${CMAKE_COMMAND} -E env JOBS=2 --unset=MAKEFLAGS --unset=MFLAGS --unset=MAKELEVEL
                                    bash ${PROJECT_SOURCE_DIR}/scripts/make-deb.sh ${PROJECT_SOURCE_DIR} ${_pkg_build})
set_tests_properties(package.build PROPERTIES FIXTURES_SETUP altmem_debs PROCESSORS 2 TIMEOUT 1200)
add_test(NAME package.contents COMMAND bash ${_pkg_check} contents ${_pkg_build} ${PROJECT_SOURCE_DIR}
                                       ${CMAKE_BINARY_DIR} ${_pkg_root}/contents)
add_test(NAME package.install COMMAND bash ${_pkg_check} install ${_pkg_build} ${_pkg_root})
add_test(NAME package.control_contents COMMAND bash ${_pkg_check} control ${_pkg_build} ${PROJECT_SOURCE_DIR}
                                               ${CMAKE_BINARY_DIR} ${_pkg_root}/control)
set_tests_properties(package.contents package.install package.control_contents PROPERTIES
                     FIXTURES_REQUIRED altmem_debs TIMEOUT 300)
set_tests_properties(package.install PROPERTIES FIXTURES_SETUP altmem_debroot)
add_test(NAME package.example_pkgconfig COMMAND bash ${_pkg_check} pkgconfig ${_pkg_build} ${_pkg_root}
                                                ${PROJECT_SOURCE_DIR} ${CMAKE_C_COMPILER} "${ALTMEM_PKG_CONFIG}"
                                                "${ALTMEM_MAKE}")
add_test(NAME package.example_cmake COMMAND bash ${_pkg_check} cmake ${_pkg_build} ${_pkg_root}
                                            ${PROJECT_SOURCE_DIR} ${CMAKE_C_COMPILER})
set_tests_properties(package.example_pkgconfig package.example_cmake PROPERTIES
                     FIXTURES_REQUIRED "altmem_debs;altmem_debroot" TIMEOUT 300)
set_tests_properties(package.build package.contents package.install package.example_pkgconfig
                     package.example_cmake package.control_contents PROPERTIES LABELS package SKIP_RETURN_CODE 77)
