# The documentation against the tree (label docs; included from tests/CMakeLists.txt).
#
#   docs.readme_tree           README.md's "What is here": every path in its first column
#                              exists, and every top-level folder and every folder under
#                              src/, bench/ and tools/ that holds a file has a row
#                              (tests/check_readme_tree.sh; the rule is in that section)
#   docs.readme_tree_control   negative controls: a README with a row for a path that does
#                              not exist, and one without a folder's row, must each fail
#                              with the message naming it
#   docs.arch_example          docs/architecture.md, "Adding a variant": its example's
#                              blocks applied to a copy of the tree, built (-Werror), and
#                              the page's claims about it checked: `altmem info` lists it,
#                              a pin binds it, test_memcpy passes on it, man.tunables and
#                              test_select name it (tests/check_arch_example.sh; label
#                              build too: a build of its own, a few minutes)
#   docs.arch_example_control  negative control, on that build: the example's loop broken,
#                              the sweep must fail
#
# Run just these: ctest -L docs.  Not in the nested builds (cross, sanitizer, binding,
# the example's own): they would check the same files again.
if(ALTMEM_NESTED OR CMAKE_CROSSCOMPILING)
  return()
endif()

add_test(NAME docs.readme_tree
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/check_readme_tree.sh ${PROJECT_SOURCE_DIR}/README.md
                 ${PROJECT_SOURCE_DIR})
add_test(NAME docs.readme_tree_control
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/check_readme_tree.sh --control ${PROJECT_SOURCE_DIR}/README.md
                 ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/docs-readme-control)
set_tests_properties(docs.readme_tree docs.readme_tree_control PROPERTIES LABELS docs TIMEOUT 120)

if(TARGET altmem_cli AND NOT ALTMEM_SANITIZE)
  set(_docs_example_dir ${CMAKE_BINARY_DIR}/docs-arch-example)
  add_test(NAME docs.arch_example
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/check_arch_example.sh ${PROJECT_SOURCE_DIR}
                   ${_docs_example_dir} ${CMAKE_C_COMPILER} ${CMAKE_GENERATOR})
  add_test(NAME docs.arch_example_control
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/check_arch_example.sh --control ${PROJECT_SOURCE_DIR}
                   ${_docs_example_dir} ${CMAKE_C_COMPILER} ${CMAKE_GENERATOR})
  # A build of its own with both cores: let CTest count that.
  set_tests_properties(docs.arch_example PROPERTIES LABELS "docs;build" TIMEOUT 1200 PROCESSORS 2
                       FIXTURES_SETUP altmem_docs_example)
  set_tests_properties(docs.arch_example_control PROPERTIES LABELS "docs;build" TIMEOUT 600 PROCESSORS 2
                       FIXTURES_REQUIRED altmem_docs_example)
endif()
