# The CPU-model matrix (included from tests/cross.cmake; docs/arch-notes.md, "The
# CPU-model matrix").  For every line of tests/qemu-models/<arch>.list (format in
# tests/qemu-models/README.md), in the dynamic cross build of that architecture,
# under qemu 10 (ALTMEM_QEMU_BPO) with the line's options:
#
#   qemu_model.<arch>.<model>.bind       hosted: `altmem info`; every routine binds
#                                        the expected variant, the must / must-not
#                                        features; prints the bindings and the notes
#   qemu_model.<arch>.<model>.fs_bind    the same through fs_test --part detect (the
#                                        freestanding flavour's detection; on
#                                        loongarch64 this is .bind)
#   qemu_model.<arch>.<model>.memcpy     test_memcpy, test_memmove, test_memset:
#            ... .memmove, .memset       every variant the model can run
#   qemu_model.<arch>.<model>.uaccess    test_uaccess: the copy_user / clear_user hole
#   qemu_model.<arch>.<model>.uaccess_nt sweeps, and (full only) non-temporal from 0
#   qemu_model.<arch>.<model>.sweep      loongarch64 (freestanding): fs_test's sweeps
#
# Sweep `full`: --quick (fs_test: its whole sweep); `reduced`: --reduced; `bind`: the
# binding tests only, for a model whose runnable variants execute exactly as on
# another model of the list that sweeps them (the same instructions at the same
# vector length: the list says which).  Without
# ALTMEM_QEMU_BPO one test, qemu_model.<arch>.missing, says why (a failure in CI).
# Label qemu-model: `ctest -L qemu-model` in a cross build dir runs the matrix.

if(NOT CMAKE_CROSSCOMPILING OR NOT ALTMEM_ARCH MATCHES "^(aarch64|riscv64|loongarch64)$" OR ALTMEM_CROSS_STATIC
   OR ALTMEM_SANITIZE)
  return()
endif()

set(_qm_list ${CMAKE_CURRENT_LIST_DIR}/qemu-models/${ALTMEM_ARCH}.list)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_qm_list})

# ---- What a line may name -----------------------------------------------------------
set(_qm_routines memcpy memmove memset copy_user clear_user)
file(STRINGS ${PROJECT_SOURCE_DIR}/src/registry.c _qm_fl REGEX "^ +\"UAL\", ")
string(REGEX MATCHALL "\"[A-Z0-9_]+\"" _qm_features "${_qm_fl}")
string(REPLACE "\"" "" _qm_features "${_qm_features}")
# Variants of this architecture (and portable ones) per routine, from the registry.
file(STRINGS ${PROJECT_SOURCE_DIR}/src/registry.def _qm_rows REGEX "^VARIANT\\(")
foreach(_r IN LISTS _qm_routines)
  set(_qm_variants_${_r} "")
endforeach()
foreach(_row IN LISTS _qm_rows)
  if(_row MATCHES "^VARIANT\\(([a-z_]+), *([a-z0-9_]+), *([a-z0-9_]+),")
    if(CMAKE_MATCH_3 STREQUAL "any" OR CMAKE_MATCH_3 STREQUAL ALTMEM_ARCH)
      list(APPEND _qm_variants_${CMAKE_MATCH_1} ${CMAKE_MATCH_2})
    endif()
  endif()
endforeach()

function(_qm_bad lineno what)
  message(FATAL_ERROR "${_qm_list}:${lineno}: ${what} (format: tests/qemu-models/README.md)")
endfunction()

# ---- Parse the list (every line checked, even without the emulator) -----------------
file(STRINGS ${_qm_list} _qm_lines)
set(_qm_models "")
set(_qm_lineno 0)
foreach(_line IN LISTS _qm_lines)
  math(EXPR _qm_lineno "${_qm_lineno} + 1")
  string(STRIP "${_line}" _line)
  if(_line STREQUAL "" OR _line MATCHES "^#")
    continue()
  endif()
  string(REPLACE ";" "," _line "${_line}") # a list separator would split the fields
  string(REPLACE "|" ";" _f "${_line}")
  list(LENGTH _f _n)
  if(NOT _n EQUAL 6)
    _qm_bad(${_qm_lineno} "${_n} fields separated by '|', expected 6: name | qemu options | sweep | expected binding | must detect | must not detect")
  endif()
  set(_k 0)
  foreach(_v name opts sweep bind has lacks)
    list(GET _f ${_k} _x)
    string(STRIP "${_x}" _${_v})
    math(EXPR _k "${_k} + 1")
  endforeach()
  if(NOT _name MATCHES "^[A-Za-z0-9_-]+$")
    _qm_bad(${_qm_lineno} "model name '${_name}': letters, digits, '-' and '_' only")
  endif()
  if(_name IN_LIST _qm_models)
    _qm_bad(${_qm_lineno} "model name '${_name}' appears twice")
  endif()
  if(NOT _opts MATCHES "^-cpu [^ ]+")
    _qm_bad(${_qm_lineno} "qemu options '${_opts}' do not start with -cpu MODEL")
  endif()
  if(NOT _sweep MATCHES "^(full|reduced|bind)$")
    _qm_bad(${_qm_lineno} "sweep '${_sweep}': full, reduced or bind")
  endif()
  string(REGEX REPLACE " +" ";" _pairs "${_bind}")
  set(_seen "")
  foreach(_p IN LISTS _pairs)
    if(NOT _p MATCHES "^([a-z_]+)=([a-z0-9_]+)$")
      _qm_bad(${_qm_lineno} "expected binding '${_p}' is not routine=variant")
    endif()
    set(_r ${CMAKE_MATCH_1})
    set(_v ${CMAKE_MATCH_2})
    if(NOT _r IN_LIST _qm_routines)
      _qm_bad(${_qm_lineno} "expected binding '${_p}': no routine '${_r}' (${_qm_routines})")
    endif()
    if(_r IN_LIST _seen)
      _qm_bad(${_qm_lineno} "expected binding: ${_r} appears twice")
    endif()
    if(NOT _v IN_LIST _qm_variants_${_r})
      string(REPLACE ";" " " _known "${_qm_variants_${_r}}")
      _qm_bad(${_qm_lineno} "expected binding '${_p}': src/registry.def has no ${_r} variant '${_v}' for ${ALTMEM_ARCH} (${_known})")
    endif()
    list(APPEND _seen ${_r})
  endforeach()
  foreach(_r IN LISTS _qm_routines)
    if(NOT _r IN_LIST _seen)
      _qm_bad(${_qm_lineno} "expected binding names no variant for ${_r} (all five routines: ${_qm_routines})")
    endif()
  endforeach()
  foreach(_v has lacks)
    if(_${_v} STREQUAL "-")
      set(_${_v} "")
      continue()
    endif()
    if(NOT _${_v} MATCHES "^[A-Z0-9_]+(,[A-Z0-9_]+)*$")
      _qm_bad(${_qm_lineno} "feature list '${_${_v}}': comma-separated names without spaces, or -")
    endif()
    string(REPLACE "," ";" _fs "${_${_v}}")
    foreach(_x IN LISTS _fs)
      if(NOT _x IN_LIST _qm_features)
        string(REPLACE ";" " " _known "${_qm_features}")
        _qm_bad(${_qm_lineno} "feature '${_x}' is not one of ${_known}")
      endif()
    endforeach()
  endforeach()
  list(APPEND _qm_models ${_name})
  set(_qm_${_name} "${_opts}|${_sweep}|${_bind}|${_has}|${_lacks}")
endforeach()
if(NOT _qm_models)
  message(FATAL_ERROR "${_qm_list}: no models")
endif()

# ---- The tests -------------------------------------------------------------------------
set(_qm_pre qemu_model.${ALTMEM_ARCH})
if(NOT ALTMEM_QEMU_BPO)
  add_test(NAME ${_qm_pre}.missing
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/cross-skip.sh --ci-fails
            "qemu 10 from bookworm-backports is not unpacked (scripts/install-cross-deps.sh puts it in /opt/altmem/qemu-bpo; ALTMEM_QEMU_BPO names it), so the CPU-model matrix (tests/qemu-models/${ALTMEM_ARCH}.list) is not run")
  set_tests_properties(${_qm_pre}.missing PROPERTIES LABELS "cross;qemu-model" SKIP_RETURN_CODE 77)
  return()
endif()

set(_qm_sysroot "")
if(ALTMEM_ARCH MATCHES "^(aarch64|riscv64)$")
  set(_qm_sysroot -L /usr/${ALTMEM_ARCH}-linux-gnu)
endif()
set(_qm_all "")
foreach(_name IN LISTS _qm_models)
  string(REPLACE "|" ";" _f "${_qm_${_name}}")
  list(GET _f 0 _opts)
  list(GET _f 1 _sweep)
  list(GET _f 2 _bind)
  list(GET _f 3 _has)
  list(GET _f 4 _lacks)
  separate_arguments(_optl UNIX_COMMAND "${_opts}")
  set(_qemu ${ALTMEM_QEMU_BPO} ${_qm_sysroot} ${_optl})
  string(REPLACE ";" " " _qemu_str "${_qemu}")
  set(_t ${_qm_pre}.${_name})
  string(REGEX REPLACE " +" "," _bind_csv "${_bind}")
  set(_fs_expect --expect-bind ${_bind_csv})
  if(_has)
    list(APPEND _fs_expect --expect-has ${_has})
  endif()
  if(_lacks)
    list(APPEND _fs_expect --expect-lacks ${_lacks})
  endif()
  set(_tests "")
  if(TARGET altmem_cli)
    add_test(NAME ${_t}.bind
      COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/qemu_model_bind.sh "${_qemu_str}" $<TARGET_FILE:altmem_cli>
              "${_bind}" "${_has}" "${_lacks}")
    list(APPEND _tests ${_t}.bind)
  endif()
  if(TARGET fs_test)
    if(TARGET altmem_cli)
      set(_b ${_t}.fs_bind)
    else()
      set(_b ${_t}.bind)
    endif()
    add_test(NAME ${_b} COMMAND ${_qemu} $<TARGET_FILE:fs_test> --part detect ${_fs_expect})
    list(APPEND _tests ${_b})
  endif()
  if(_sweep STREQUAL "full")
    set(_level --quick)
  else()
    set(_level --reduced)
  endif()
  if(_sweep STREQUAL "bind")
    # Bindings and features only: the sweeps are another model's (the list says which).
  elseif(TARGET test_memcpy)
    foreach(_r memcpy memmove memset)
      add_test(NAME ${_t}.${_r} COMMAND ${_qemu} $<TARGET_FILE:test_${_r}> ${_level})
      list(APPEND _tests ${_t}.${_r})
    endforeach()
    add_test(NAME ${_t}.uaccess COMMAND ${_qemu} $<TARGET_FILE:test_uaccess> ${_level})
    list(APPEND _tests ${_t}.uaccess)
    if(_sweep STREQUAL "full")
      # The streaming paths from 0 bytes: which path a size takes depends on the
      # threshold, not the model; the full model can run every variant.
      add_test(NAME ${_t}.uaccess_nt COMMAND ${_qemu} $<TARGET_FILE:test_uaccess> ${_level} --nt 0)
      list(APPEND _tests ${_t}.uaccess_nt)
    endif()
  elseif(TARGET fs_test)
    # Freestanding (loongarch64): fs_test is the sweep; its full one is the default.
    set(_fs_level "")
    if(_sweep STREQUAL "reduced")
      set(_fs_level --reduced)
    endif()
    add_test(NAME ${_t}.sweep COMMAND ${_qemu} $<TARGET_FILE:fs_test> ${_fs_level})
    list(APPEND _tests ${_t}.sweep)
  endif()
  # Detection from this model alone: no tunables from the caller's environment.
  set_tests_properties(${_tests} PROPERTIES LABELS "cross;qemu-model;qemu-model-${_name}" TIMEOUT 1800
                       ENVIRONMENT "ALTMEM_TUNABLES=")
  list(APPEND _qm_all ${_tests})
endforeach()

# Negative controls: the binding checks must notice a wrong expectation (the first
# model's, with memcpy's variant swapped).
list(GET _qm_models 0 _name)
string(REPLACE "|" ";" _f "${_qm_${_name}}")
list(GET _f 0 _opts)
list(GET _f 2 _bind)
separate_arguments(_optl UNIX_COMMAND "${_opts}")
set(_qemu ${ALTMEM_QEMU_BPO} ${_qm_sysroot} ${_optl})
string(REPLACE ";" " " _qemu_str "${_qemu}")
if(_bind MATCHES "memcpy=generic")
  string(REPLACE "memcpy=generic" "memcpy=ual" _wrong "${_bind}")
else()
  string(REGEX REPLACE "memcpy=[a-z0-9_]+" "memcpy=generic" _wrong "${_bind}")
endif()
string(REGEX REPLACE " +" "," _wrong_csv "${_wrong}")
set(_ctl "")
if(TARGET altmem_cli)
  add_test(NAME ${_qm_pre}.bind_selftest
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/qemu_model_bind.sh "${_qemu_str}" $<TARGET_FILE:altmem_cli> "${_wrong}" "" "")
  set_tests_properties(${_qm_pre}.bind_selftest PROPERTIES PASS_REGULAR_EXPRESSION "FAIL memcpy bound to [^\n]*\n.*binding: 1 check\\(s\\) FAILED")
  list(APPEND _ctl ${_qm_pre}.bind_selftest)
endif()
if(TARGET fs_test)
  add_test(NAME ${_qm_pre}.fs_bind_selftest COMMAND ${_qemu} $<TARGET_FILE:fs_test> --part detect --expect-bind ${_wrong_csv})
  set_tests_properties(${_qm_pre}.fs_bind_selftest PROPERTIES PASS_REGULAR_EXPRESSION "FAIL detect: memcpy bound to [a-z0-9_]+, expected")
  list(APPEND _ctl ${_qm_pre}.fs_bind_selftest)
endif()
set_tests_properties(${_ctl} PROPERTIES LABELS "cross;qemu-model" TIMEOUT 300 ENVIRONMENT "ALTMEM_TUNABLES=")
