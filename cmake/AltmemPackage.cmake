# Debian packages with CPack's DEB generator (`make deb`, scripts/make-deb.sh;
# docs/packaging.md).  Split the way Debian splits a library:
#
#   libaltmem0      libaltmem.so.0 (+ .so.0.1.0), libaltmem-preload.so      Section libs
#                   Depends: the C library (dpkg-shlibdeps); DEBIAN/shlibs
#                   "libaltmem 0 libaltmem0 (>= 0.1.0)", ldconfig on install/remove
#   libaltmem-dev   altmem.h, altmem_alternative.h, libaltmem.so, libaltmem.a,
#                   libaltmem-libc.a, altmem.pc, lib/<multiarch>/cmake/altmem/, altmem(3)
#                   Depends: libaltmem0 (= version), libc6-dev | libc-dev    Section libdevel
#                   Recommends: pkgconf
#   altmem          /usr/bin/altmem, altmem(1), altmem-tunables(7)           Section utils
#                   Depends: libaltmem0 (= version), the C library
#                   purge removes the system profile `altmem tune --write` made
#
# Each package carries /usr/share/doc/<package>/copyright.  The names come from the
# SONAME: an incompatible ABI change (docs/abi.md) renames libaltmem0 with it.
#
# Only the configuration that scripts/make-deb.sh makes is meant for packaging
# (prefix /usr, ALTMEM_PROFILE_PATH /etc/altmem/profile, no RUNPATH, altmem.pc with
# prefix=/usr); `cpack` in an ordinary build tree makes packages of that tree as it is.

set(ALTMEM_PACKAGE_MAINTAINER "altmem maintainers <altmem-maintainers@localhost>" CACHE STRING
  "Maintainer field of the Debian packages")
set(ALTMEM_PACKAGE_RELEASE 1 CACHE STRING "Debian revision of the packages (the -N of 0.1.0-N)")
mark_as_advanced(ALTMEM_PACKAGE_MAINTAINER ALTMEM_PACKAGE_RELEASE)

set(_pkg_soversion ${PROJECT_VERSION_MAJOR})
set(_pkg_runtime libaltmem${_pkg_soversion})
set(_pkg_version "${PROJECT_VERSION}-${ALTMEM_PACKAGE_RELEASE}")

# /usr/share/doc/<package>/copyright for each package (Debian policy 12.5).
set(_pkg_doc ${PROJECT_BINARY_DIR}/packaging)
foreach(_c runtime dev tool)
  if(_c STREQUAL "runtime")
    set(_n ${_pkg_runtime})
  elseif(_c STREQUAL "dev")
    set(_n libaltmem-dev)
  else()
    set(_n altmem)
  endif()
  configure_file(${PROJECT_SOURCE_DIR}/packaging/copyright ${_pkg_doc}/${_n}/copyright COPYONLY)
  if(_c STREQUAL "tool" AND NOT TARGET altmem_cli)
    continue()
  endif()
  install(FILES ${_pkg_doc}/${_n}/copyright DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${_n} COMPONENT ${_c})
endforeach()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME altmem)
set(CPACK_PACKAGE_VENDOR altmem)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${ALTMEM_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev)
if(TARGET altmem_cli)
  list(APPEND CPACK_COMPONENTS_ALL tool)
endif()

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)                   # <name>_<version>-<release>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_RELEASE ${ALTMEM_PACKAGE_RELEASE})
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${ALTMEM_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# The C library dependency of every ELF file, by dpkg-shlibdeps (libc6 (>= 2.x)).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# ... which must find libaltmem.so.0 (for bin/altmem) in this build tree.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR}/src)
# DEBIAN/shlibs of the runtime package, so that programs built against it get
# "Depends: libaltmem0 (>= 0.1.0)" from their own dpkg-shlibdeps.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME ${_pkg_runtime})
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION
"memory routines bound at start-up to the best variant for this CPU
altmem provides memcpy, memmove, memset and the fault-tolerant copy_user and
clear_user (which return the bytes they could not copy instead of dying of
SIGSEGV or SIGBUS), each in several variants: strict-alignment, unaligned-access,
and on x86_64 SSE2, AVX2 and AVX-512. At load time every entry point is rewritten,
as the Linux kernel's alternatives are, into one direct branch to the best variant
this CPU can run.
.
This package contains the shared library libaltmem.so.0 and libaltmem-preload.so,
which puts altmem under the C library's names in any dynamically linked program
(LD_PRELOAD, or `altmem run` from the package altmem).")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libaltmem-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "${_pkg_runtime} (= ${_pkg_version}), libc6-dev | libc-dev")
set(CPACK_DEBIAN_DEV_PACKAGE_RECOMMENDS "pkgconf")
set(CPACK_DEBIAN_DEV_PACKAGE_SUGGESTS "cmake, altmem")
set(CPACK_DEBIAN_DEV_DESCRIPTION
"memory routines bound at start-up to the best variant for this CPU (development files)
altmem provides memcpy, memmove, memset and the fault-tolerant copy_user and
clear_user, each bound at load time to the best variant this CPU can run, and
ALTMEM_ALTERNATIVE, which binds routines of your own the same way.
.
This package contains the headers, the static libraries libaltmem.a and
libaltmem-libc.a (altmem as the C library's memcpy in static programs), the
pkg-config file altmem.pc, the CMake package (find_package(altmem)) and altmem(3).")

set(CPACK_DEBIAN_TOOL_PACKAGE_NAME altmem)
set(CPACK_DEBIAN_TOOL_PACKAGE_SECTION utils)
# dpkg-shlibdeps finds libaltmem.so.0 in no installed package (it is being built),
# so the dependency is written here; `altmem run` preloads the libaltmem-preload.so
# of the same build, hence "=".
set(CPACK_DEBIAN_TOOL_PACKAGE_DEPENDS "${_pkg_runtime} (= ${_pkg_version})")
set(CPACK_DEBIAN_TOOL_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/packaging/altmem/postrm)
set(CPACK_DEBIAN_TOOL_DESCRIPTION
"inspect, benchmark, tune and preload altmem's memory routines
altmem binds memcpy, memmove, memset, copy_user and clear_user at load time to the
best variant this CPU can run. The altmem command shows what was detected and bound
and why (altmem info), benchmarks every variant against the C library (altmem bench),
runs unmodified programs with altmem as their memcpy (altmem run), and measures a
profile of this machine that the library applies at start-up (altmem tune).")

# What the packages hold, for scripts/make-deb.sh to build (nothing else: no benchmark
# helpers, no tests).  CPack installs without building (CMAKE_SKIP_INSTALL_ALL_DEPENDENCY).
add_custom_target(altmem_packaged)
foreach(_t altmem_shared altmem_static altmem_preload altmem_libc altmem_cli altmem_man)
  if(TARGET ${_t})
    add_dependencies(altmem_packaged ${_t})
  endif()
endforeach()

include(CPack)
