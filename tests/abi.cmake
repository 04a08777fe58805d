# The ABI against the committed baseline abi/ (docs/abi.md).  Label: abi (ctest -L abi).
#
#   abi.symbols                 libaltmem.so.0 and libaltmem-preload.so export exactly the
#                               symbols of abi/<soname>.symbols (name, version node, kind),
#                               and libaltmem.so has SONAME libaltmem.so.0
#   abi.layout                  sizeof/offsetof of every public struct member, enum values,
#                               integer constants, prototypes and the ALTMEM_ALTERNATIVE
#                               text (scripts/abi-layout.py) equal abi/structs.txt
#   abi.exports                 every ALTMEM_API function the headers declare is exported
#                               (src/libaltmem.map), nothing internal is (nm -D)
#   abi.control_extra_export    negative control: a copy of libaltmem.so with one more
#                               function in its version script must fail abi.symbols' check,
#                               naming it
#   abi.control_no_version_script  negative control: the same objects linked without the
#                               version script export the section bounds: abi.exports fails
#   abi.control_field           negative control: headers with a member added to
#                               struct altmem_policy_info fail the layout check
#   abi.control_function        negative control: a header declaring a function the library
#                               does not export fails abi.exports
#
# `make abi-update` (the target abi-update) rewrites abi/ from this build: for a
# deliberate change, after following docs/abi.md.
#
# Native LP64 builds only: the baseline is of the 64-bit Linux targets (x86_64,
# aarch64, riscv64, loongarch64 have the same layout); cross builds are checked by
# their own architecture's tests, not this one.

if(CMAKE_CROSSCOMPILING OR NOT CMAKE_SIZEOF_VOID_P EQUAL 8 OR NOT CMAKE_SYSTEM_NAME STREQUAL "Linux")
  message(STATUS "altmem: ABI tests need a native 64-bit Linux build: not registered")
  return()
endif()

find_program(ALTMEM_NM NAMES nm llvm-nm-19 llvm-nm)
find_program(ALTMEM_PYTHON3 NAMES python3)
find_program(ALTMEM_READELF NAMES readelf llvm-readelf-19 llvm-readelf)
mark_as_advanced(ALTMEM_NM ALTMEM_PYTHON3 ALTMEM_READELF)
set(_abi_python ${ALTMEM_PYTHON3})
if(NOT _abi_python)
  set(_abi_python python3)            # the scripts report the skip, naming it
endif()

set(_abi ${PROJECT_SOURCE_DIR}/scripts/abi.sh)
set(_abi_dir ${CMAKE_CURRENT_SOURCE_DIR}/abi)
set(_abi_base ${PROJECT_SOURCE_DIR}/abi)
set(_abi_work ${CMAKE_CURRENT_BINARY_DIR}/abi-work)
set(_abi_headers ${PROJECT_SOURCE_DIR}/include/altmem.h ${PROJECT_SOURCE_DIR}/include/altmem_alternative.h)
set(_abi_env ${CMAKE_COMMAND} -E env PYTHON=${_abi_python} READELF=${ALTMEM_READELF})

function(altmem_abi_test name)
  add_test(NAME ${name} COMMAND ${_abi_env} ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS abi SKIP_RETURN_CODE 77 TIMEOUT 120)
endfunction()

# ---- the layout (any build: it needs only the compiler) ----------------------------
altmem_abi_test(abi.layout bash ${_abi} check-layout ${_abi_base} ${CMAKE_C_COMPILER} ${_abi_work}/layout
                ${_abi_headers})
altmem_abi_test(abi.control_field sh -c
  "sh \"$0\" field \"$1/field\" \"$2\" \"$3\" && sh \"$4\" '^    \\+  abi_canary +offset' bash \"$5\" check-layout \"$6\" \"$7\" \"$1/field-layout\" \"$1/field/altmem.h\" \"$1/field/altmem_alternative.h\""
  ${_abi_dir}/mutate_headers.sh ${_abi_work} ${_abi_headers} ${_abi_dir}/expect_fail.sh ${_abi} ${_abi_base}
  ${CMAKE_C_COMPILER})

if(NOT ALTMEM_NM OR NOT ALTMEM_READELF OR NOT TARGET altmem_shared)
  message(STATUS "altmem: no nm/readelf or no libaltmem.so: only the ABI layout tests are registered")
  return()
endif()

# ---- the symbols ---------------------------------------------------------------------
set(_abi_libs $<TARGET_FILE:altmem_shared>)
if(TARGET altmem_preload)
  list(APPEND _abi_libs $<TARGET_FILE:altmem_preload>)
endif()
altmem_abi_test(abi.symbols bash ${_abi} check-symbols ${_abi_base} ${ALTMEM_NM} ${_abi_libs})
altmem_abi_test(abi.exports bash ${_abi} check-exports ${ALTMEM_NM} ${ALTMEM_VERSION_SCRIPT}
                $<TARGET_FILE:altmem_shared> ${_abi_headers})
altmem_abi_test(abi.control_function sh -c
  "sh \"$0\" function \"$1/function\" \"$2\" \"$3\" && sh \"$4\" 'altmem_abi_undeclared is declared ALTMEM_API' bash \"$5\" check-exports \"$6\" \"$7\" \"$8\" \"$1/function/altmem.h\" \"$1/function/altmem_alternative.h\""
  ${_abi_dir}/mutate_headers.sh ${_abi_work} ${_abi_headers} ${_abi_dir}/expect_fail.sh ${_abi} ${ALTMEM_NM}
  ${ALTMEM_VERSION_SCRIPT} $<TARGET_FILE:altmem_shared>)

# The negative controls' libraries: libaltmem.so's own objects
# (ALTMEM_SHARED_OBJECTS, src/CMakeLists.txt), linked as libaltmem.so.0 twice more.
set(_abi_objects ${ALTMEM_SHARED_OBJECTS})

#   1. one function more, listed in ALTMEM_0 of a copy of the version script
file(READ ${ALTMEM_VERSION_SCRIPT} _abi_map)
string(FIND "${_abi_map}" "\nALTMEM_0 {\n  global:" _abi_at)
if(_abi_at EQUAL -1)
  message(FATAL_ERROR "tests/abi.cmake: no line 'ALTMEM_0 {' followed by '  global:' in ${ALTMEM_VERSION_SCRIPT}")
endif()
math(EXPR _abi_at "${_abi_at} + 21")   # past "\nALTMEM_0 {\n  global:"
string(SUBSTRING "${_abi_map}" 0 ${_abi_at} _abi_head)
string(SUBSTRING "${_abi_map}" ${_abi_at} -1 _abi_tail)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/abi-control/extra.map
     "${_abi_head}\n    altmem_abi_canary;   /* tests/abi/canary.c */${_abi_tail}")
add_library(altmem_abi_control_extra SHARED ${_abi_objects} ${_abi_dir}/canary.c)
target_link_options(altmem_abi_control_extra PRIVATE
  "LINKER:--version-script=${CMAKE_CURRENT_BINARY_DIR}/abi-control/extra.map")
#   2. no version script
add_library(altmem_abi_control_noscript SHARED ${_abi_objects})
foreach(t altmem_abi_control_extra altmem_abi_control_noscript)
  set_target_properties(${t} PROPERTIES OUTPUT_NAME altmem VERSION ${PROJECT_VERSION}
    SOVERSION ${PROJECT_VERSION_MAJOR} C_VISIBILITY_PRESET hidden
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/abi-control/${t})
endforeach()

altmem_abi_test(abi.control_extra_export sh ${_abi_dir}/expect_fail.sh
  "^    \\+altmem_abi_canary@@ALTMEM_0 FUNC$"
  bash ${_abi} check-symbols ${_abi_base} ${ALTMEM_NM} $<TARGET_FILE:altmem_abi_control_extra>)
altmem_abi_test(abi.control_no_version_script sh ${_abi_dir}/expect_fail.sh
  "exports __start_altmem_[a-z_]+, which is internal"
  bash ${_abi} check-exports ${ALTMEM_NM} ${ALTMEM_VERSION_SCRIPT}
       $<TARGET_FILE:altmem_abi_control_noscript> ${_abi_headers})

# ---- make abi-update -----------------------------------------------------------------
add_custom_target(abi-update
  COMMAND ${_abi_env} bash ${_abi} update ${_abi_base} ${ALTMEM_NM} ${CMAKE_C_COMPILER} ${_abi_work}/update
          ${_abi_libs} -- ${_abi_headers}
  DEPENDS altmem_shared
  COMMENT "Rewriting abi/ from this build (docs/abi.md)"
  VERBATIM)
if(TARGET altmem_preload)
  add_dependencies(abi-update altmem_preload)
endif()
