# The man pages (man/): they render cleanly, and they name everything the code has.
# Label: man (ctest -L man).  Scripts in tests/man/.
#
#   man.groff.<page>       groff -ww -z -man renders the configured page with no warning
#   man.groff_control      negative control: a page with an undefined macro and a bad
#                          font escape must draw warnings from the same command
#   man.cli                altmem(1) names every subcommand, option and environment
#                          variable of `altmem help` and `altmem help SUB` (and of
#                          `altmem bench --scalar-effect --help`)
#   man.tunables           altmem-tunables(7) names every ALTMEM_TUNABLES setting and
#                          feature the library knows, every variant and routine of
#                          `altmem info`, ALTMEM_PROFILE
#   man.api                altmem(3) names every function, typedef, struct, member, enum
#                          constant and macro of include/altmem.h, altmem_alternative.h
#   man.control_cli, man.control_tunables, man.control_api
#                          negative controls: the page without one name the code has
#                          (taken from the code) must fail, and the message must name it
#
# A new option, setting or function fails man.* until its page mentions it.

find_program(ALTMEM_GROFF groff)
find_program(ALTMEM_PYTHON3 NAMES python3)
mark_as_advanced(ALTMEM_GROFF ALTMEM_PYTHON3)
if(NOT ALTMEM_GROFF)
  message(STATUS "altmem: groff not found: man.groff.* will be skipped (Debian package groff-base)")
  set(ALTMEM_GROFF groff)            # the script reports the skip, naming the package
endif()
set(_man_py ${ALTMEM_PYTHON3})
if(NOT _man_py)
  set(_man_py python3)
endif()
set(_man ${CMAKE_CURRENT_SOURCE_DIR}/man)
set(_man_built ${CMAKE_BINARY_DIR}/man)
set(_man_work ${CMAKE_CURRENT_BINARY_DIR}/man-work)

function(altmem_man_test name)
  add_test(NAME ${name} COMMAND ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS man SKIP_RETURN_CODE 77 TIMEOUT 120)
endfunction()

foreach(page IN LISTS ALTMEM_MAN_PAGES)
  get_filename_component(_name ${page} NAME)
  altmem_man_test(man.groff.${_name} sh ${_man}/groff.sh ${ALTMEM_GROFF} ${page})
endforeach()
altmem_man_test(man.groff_control sh ${_man}/groff.sh --control ${ALTMEM_GROFF} ${_man_work}/groff)

set(_man_headers ${PROJECT_SOURCE_DIR}/include/altmem.h ${PROJECT_SOURCE_DIR}/include/altmem_alternative.h)
altmem_man_test(man.api bash ${_man}/coverage.sh api ${_man_py} ${_man_built}/altmem.3 ${_man_headers})
altmem_man_test(man.control_api bash ${_man}/control.sh api ${_man_py} ${_man_built}/altmem.3
                ${_man_work}/api ${_man_headers})

if(TARGET altmem_cli AND NOT CMAKE_CROSSCOMPILING)
  set(_altmem $<TARGET_FILE:altmem_cli>)
  altmem_man_test(man.cli bash ${_man}/coverage.sh cli ${_altmem} ${_man_built}/altmem.1)
  altmem_man_test(man.tunables bash ${_man}/coverage.sh tunables ${_altmem} ${_man_built}/altmem-tunables.7)
  altmem_man_test(man.control_cli bash ${_man}/control.sh cli ${_altmem} ${_man_built}/altmem.1 ${_man_work}/cli)
  altmem_man_test(man.control_tunables bash ${_man}/control.sh tunables ${_altmem}
                  ${_man_built}/altmem-tunables.7 ${_man_work}/tunables)
endif()
