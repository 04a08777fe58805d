# The instruction-count cost measure under qemu (scripts/qemu-cost.sh,
# docs/arch-notes.md "Instruction counts under qemu"); included from
# tests/CMakeLists.txt.
#
#   altmem-qemucost   the driver (bench/qemucost.c: a measuring program, so its
#                     source sits with the other benchmarks; built here because the
#                     freestanding loongarch64 build has no bench/): hosted, linked
#                     with the static library, on aarch64 and riscv64; on the
#                     freestanding build with the test runtime of tests/freestanding
# In cross builds (label cost; they assert no speed, only that the counting works):
#   cost.plugin       counts through the TCG plugin (qemu 7.2): positive, identical
#                     in two runs, the planted loop exactly 2n + 2, and --extra grows
#                     every count (the negative control)
#   cost.log          the same through the one-instruction-per-TB exec log (qemu 10
#                     when unpacked), and equal to the plugin's counts on every row
#                     both measured (the two methods must agree exactly)
# (not in the -static twins of aarch64 and riscv64: the same code, the same counts)
if(ALTMEM_ARCH MATCHES "^(aarch64|riscv64|loongarch64)$" AND NOT ALTMEM_SANITIZE)
  set(_qc_src ${PROJECT_SOURCE_DIR}/bench/qemucost.c)
  if(ALTMEM_FREESTANDING)
    set(_qc_fs ${CMAKE_CURRENT_LIST_DIR}/freestanding)
    add_executable(altmem_qemucost ${_qc_src} ${_qc_fs}/fs_rt.c ${_qc_fs}/fs_start.c)
    target_include_directories(altmem_qemucost PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src ${_qc_fs})
    target_compile_definitions(altmem_qemucost PRIVATE QEMUCOST_FREESTANDING)
    target_compile_options(altmem_qemucost PRIVATE ${ALTMEM_NOLIBC_FLAGS} -fno-stack-protector)
    target_link_options(altmem_qemucost PRIVATE -nostdlib -static $<$<C_COMPILER_ID:GNU>:-no-pie>)
    target_link_libraries(altmem_qemucost PRIVATE altmem_freestanding)
    if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
      target_link_libraries(altmem_qemucost PRIVATE gcc)
    endif()
  elseif(TARGET altmem_static)
    # The C library's routine of each, from the registry: bench/routines.c.
    add_executable(altmem_qemucost ${_qc_src} ${PROJECT_SOURCE_DIR}/bench/routines.c)
    target_include_directories(altmem_qemucost PRIVATE ${PROJECT_SOURCE_DIR}/src)
    target_link_libraries(altmem_qemucost PRIVATE altmem_static)
  endif()
endif()

if(TARGET altmem_qemucost)
  set_target_properties(altmem_qemucost PROPERTIES OUTPUT_NAME altmem-qemucost)
  # Not again in the -static twins: the same variants, the same counts.
  if(CMAKE_CROSSCOMPILING AND NOT ALTMEM_CROSS_STATIC)
    set(_qc_tests "")
    foreach(_m plugin log)
      add_test(NAME cost.${_m}
               COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/qemu-plugin/cost-check.sh ${_m} ${ALTMEM_ARCH}
                       $<TARGET_FILE:altmem_qemucost> ${PROJECT_SOURCE_DIR})
      list(APPEND _qc_tests cost.${_m})
    endforeach()
    set_tests_properties(${_qc_tests} PROPERTIES LABELS cost SKIP_RETURN_CODE 77 TIMEOUT 600)
  endif()
endif()
