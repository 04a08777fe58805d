# The ABI of libaltmem.so.0 (docs/abi.md): the linker version script src/libaltmem.map
# fixes what it exports (the ALTMEM_API functions in node ALTMEM_0, everything else
# local), and tests/abi.cmake compares the result with the baseline in abi/.
#
# Applied here rather than in src/CMakeLists.txt so that the ABI's rules live in one
# place with the baseline's tooling (scripts/abi.sh); the target is altmem_shared.
set(ALTMEM_VERSION_SCRIPT ${PROJECT_SOURCE_DIR}/src/libaltmem.map)
if(TARGET altmem_shared)
  target_link_options(altmem_shared PRIVATE "LINKER:--version-script=${ALTMEM_VERSION_SCRIPT}")
  set_property(TARGET altmem_shared APPEND PROPERTY LINK_DEPENDS ${ALTMEM_VERSION_SCRIPT})
endif()
