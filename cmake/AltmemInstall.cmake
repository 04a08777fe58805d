# Installation: `cmake --install <build> --prefix P` (or `make install PREFIX=P`) lays out
#
#   P/include/altmem.h, altmem_alternative.h
#   P/lib/libaltmem.a  libaltmem.so -> .so.0 -> .so.0.1.0
#   P/bin/altmem                                   (tools/CMakeLists.txt)
#   P/lib/pkgconfig/altmem.pc                      pkg-config --cflags --libs [--static] altmem
#   P/lib/cmake/altmem/altmemConfig.cmake          find_package(altmem 0.1 REQUIRED)
#                      altmemConfigVersion.cmake
#                      altmemTargets.cmake (+ altmemTargets-<config>.cmake)
#
# ("lib" is CMAKE_INSTALL_LIBDIR from GNUInstallDirs: lib/<multiarch> when the prefix is
# /usr on Debian.)  find_package gives two imported targets:
#   altmem::altmem         libaltmem.so (libaltmem.a when built with ALTMEM_BUILD_SHARED=OFF)
#   altmem::altmem_static  libaltmem.a
#
# The installed tree is relocatable: the CMake files locate themselves
# (${CMAKE_CURRENT_LIST_DIR}, @PACKAGE_INIT@), altmem.pc uses ${pcfiledir}, and
# bin/altmem finds libaltmem.so through RUNPATH $ORIGIN/../lib.  tests/build.cmake
# installs, moves the prefix, and builds examples/ against the moved copy to prove it.
# A distribution package (scripts/make-deb.sh) is not moved: it sets
# ALTMEM_PKGCONFIG_RELOCATABLE=OFF (prefix=/usr in altmem.pc, so pkg-config prints
# just -laltmem) and an empty CMAKE_INSTALL_RPATH (the library is in the loader's path).
#
# Components, one per Debian package (cmake/AltmemPackage.cmake, docs/packaging.md):
#   runtime   libaltmem.so.0*, libaltmem-preload.so                    -> libaltmem0
#   dev       headers, libaltmem.so, libaltmem.a, libaltmem-libc.a,
#             altmem.pc, the CMake package, altmem(3)                    -> libaltmem-dev
#   tool      bin/altmem, altmem(1), altmem-tunables(7)                  -> altmem

include(CMakePackageConfigHelpers)

# (tests/build.cmake, included before this file, spells these two the same way.)
set(ALTMEM_CMAKE_INSTALL_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/altmem")
set(ALTMEM_PKGCONFIG_INSTALL_DIR "${CMAKE_INSTALL_LIBDIR}/pkgconfig")

# ---- Libraries, header, exported targets -------------------------------------------

set(_altmem_install_targets altmem_static)
if(TARGET altmem_shared)
  # Exported as altmem::altmem, the name users link.
  set_target_properties(altmem_shared PROPERTIES EXPORT_NAME altmem)
  list(APPEND _altmem_install_targets altmem_shared)
endif()

install(TARGETS ${_altmem_install_targets}
  EXPORT altmemTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tool)
# (The include directory travels with the targets: src/CMakeLists.txt gives both
# $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>.)
install(FILES ${PROJECT_SOURCE_DIR}/include/altmem.h ${PROJECT_SOURCE_DIR}/include/altmem_alternative.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev)

install(EXPORT altmemTargets
  NAMESPACE altmem::
  FILE altmemTargets.cmake
  DESTINATION ${ALTMEM_CMAKE_INSTALL_DIR}
  COMPONENT dev)

configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/altmemConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/altmemConfig.cmake
  INSTALL_DESTINATION ${ALTMEM_CMAKE_INSTALL_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR)
# 0.x: the soname is libaltmem.so.0 for every 0.y, so any 0.y >= the requested one will do.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/altmemConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMajorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/altmemConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/altmemConfigVersion.cmake
  DESTINATION ${ALTMEM_CMAKE_INSTALL_DIR}
  COMPONENT dev)

# ---- pkg-config ------------------------------------------------------------------------

# prefix is computed from the .pc file's own directory, so the tree can be moved.  An
# absolute CMAKE_INSTALL_<dir> (outside the prefix by definition) is written as is.
function(_altmem_pc_dir out dir)
  if(IS_ABSOLUTE "${dir}")
    set(${out} "${dir}" PARENT_SCOPE)
  else()
    set(${out} "\${prefix}/${dir}" PARENT_SCOPE)
  endif()
endfunction()
option(ALTMEM_PKGCONFIG_RELOCATABLE "altmem.pc finds its prefix from its own location (OFF: the prefix as configured, for distribution packages)" ON)
mark_as_advanced(ALTMEM_PKGCONFIG_RELOCATABLE)
set(ALTMEM_PC_PREFIX_NOTE "prefix is found from this file's own location, so the installed\n# tree can be moved (set PKG_CONFIG_PATH=<prefix>/${ALTMEM_PKGCONFIG_INSTALL_DIR}).")
if(IS_ABSOLUTE "${ALTMEM_PKGCONFIG_INSTALL_DIR}" OR NOT ALTMEM_PKGCONFIG_RELOCATABLE)
  set(ALTMEM_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(ALTMEM_PC_PREFIX_NOTE "prefix is where this build installs (ALTMEM_PKGCONFIG_RELOCATABLE=OFF:\n# a distribution package, which is never moved).")
else()
  # Relative walk from <prefix>/<pkgconfigdir> up to <prefix>, e.g. "../..".
  file(RELATIVE_PATH _altmem_up "/altmem-prefix/${ALTMEM_PKGCONFIG_INSTALL_DIR}" "/altmem-prefix")
  string(REGEX REPLACE "/$" "" _altmem_up "${_altmem_up}")
  set(ALTMEM_PC_PREFIX "\${pcfiledir}/${_altmem_up}")
endif()
_altmem_pc_dir(ALTMEM_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
_altmem_pc_dir(ALTMEM_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
# Libs.private: what a static link needs besides libaltmem.a (the library itself calls
# only the C library).  Extend this when the library gains a dependency.
set(ALTMEM_PC_LIBS_PRIVATE "")
# ... and the symbol that takes glibc's CPUID leaves into it (cmake/AltmemFlags.cmake).
if(ALTMEM_STATIC_UNDEFINED)
  set(ALTMEM_PC_LIBS_PRIVATE "-Wl,-u,${ALTMEM_STATIC_UNDEFINED}")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/altmem.pc.in ${PROJECT_BINARY_DIR}/cmake/altmem.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/cmake/altmem.pc DESTINATION ${ALTMEM_PKGCONFIG_INSTALL_DIR} COMPONENT dev)

# ---- bin/altmem finds the installed libaltmem.so wherever the prefix is moved ----------

if(TARGET altmem_cli AND NOT DEFINED CMAKE_INSTALL_RPATH AND NOT IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}"
   AND NOT IS_ABSOLUTE "${CMAKE_INSTALL_BINDIR}")
  file(RELATIVE_PATH _altmem_bin_to_lib "/altmem-prefix/${CMAKE_INSTALL_BINDIR}"
       "/altmem-prefix/${CMAKE_INSTALL_LIBDIR}")
  set_target_properties(altmem_cli PROPERTIES INSTALL_RPATH "\$ORIGIN/${_altmem_bin_to_lib}")
endif()
