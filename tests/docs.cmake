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
#   docs.include_layers        docs/architecture.md, "Folders and includes": no folder of src/
#                              includes, through any chain, a folder that includes it
#                              (tests/check_include_layers.py)
#   docs.include_layers_control  negative control: a copy of src/ with os/os.h including a
#                              header of src/ must fail naming the edge
#   docs.rules_table           docs/tunables.md's table of per-CPU rules names the rows of
#                              src/policy.c, in their order (tests/check_rules_table.sh)
#   docs.rules_table_control   negative controls: the page without a row, and with a row
#                              for a rule that does not exist, must each fail naming it
#   docs.bench_options         docs/performance.md's table of `altmem bench` options: a row
#                              for every option `altmem bench --help` prints, and no row for
#                              one it does not (tests/check_bench_options_doc.sh)
#   docs.bench_options_control negative control: the table without the first option's row
#                              must fail naming that option
#   docs.rule_example          docs/architecture.md, "Adding a per-CPU rule": its blocks
#                              applied to a copy of the tree, test_select built (-Werror)
#                              and passing with the rule's case, the rules table's check
#                              passing on the copy (tests/check_rule_example.sh)
#   docs.rule_example_control  negative control, on that build: the rule's value changed,
#                              test_select must fail naming the example's CPU
#   docs.subcommand_example    "Adding a subcommand": `altmem bound` built (-Werror) and
#                              run: it prints the bindings of `altmem info`, `altmem help`
#                              lists it, man.cli names the missing section
#                              (tests/check_subcommand_example.sh)
#   docs.subcommand_example_control  negative control: its lines' words swapped, the
#                              first check must fail
#   docs.bench_mode_example    "Adding a bench mode": its file and row applied to a copy of
#                              the tree, altmem built (-Werror), `altmem bench FLAG` runs the
#                              mode (tests/check_bench_mode_example.sh)
#   docs.bench_mode_example_control  negative control: without its row, altmem bench must
#                              refuse the flag as an unknown option
#
# The examples share tests/doc_example.sh (the blocks' format, the copy of the tree).
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
add_test(NAME docs.rules_table COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/check_rules_table.sh ${PROJECT_SOURCE_DIR})
add_test(NAME docs.rules_table_control
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/check_rules_table.sh --control ${PROJECT_SOURCE_DIR}
                 ${CMAKE_CURRENT_BINARY_DIR}/docs-rules-control)
add_test(NAME docs.include_layers
         COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/check_include_layers.py ${PROJECT_SOURCE_DIR}/src)
add_test(NAME docs.include_layers_control
         COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/check_include_layers.py --control ${PROJECT_SOURCE_DIR}/src
                 ${CMAKE_CURRENT_BINARY_DIR}/docs-include-control)
set_tests_properties(docs.readme_tree docs.readme_tree_control docs.rules_table docs.rules_table_control
                     docs.include_layers docs.include_layers_control PROPERTIES LABELS docs TIMEOUT 120)

if(TARGET altmem_cli)
  add_test(NAME docs.bench_options
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/check_bench_options_doc.sh $<TARGET_FILE:altmem_cli>
                   ${PROJECT_SOURCE_DIR}/docs/performance.md)
  add_test(NAME docs.bench_options_control
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/check_bench_options_doc.sh $<TARGET_FILE:altmem_cli>
                   ${PROJECT_SOURCE_DIR}/docs/performance.md --control)
  set_tests_properties(docs.bench_options docs.bench_options_control PROPERTIES LABELS docs TIMEOUT 120)
endif()

# altmem_docs_example(NAME SCRIPT): docs.NAME_example, a build of its own with both
# cores (let CTest count that), and docs.NAME_example_control on that build.
function(altmem_docs_example name script)
  set(_dir ${CMAKE_BINARY_DIR}/docs-${name}-example)
  add_test(NAME docs.${name}_example
           COMMAND bash ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/${script} ${PROJECT_SOURCE_DIR} ${_dir}
                   ${CMAKE_C_COMPILER} ${CMAKE_GENERATOR})
  add_test(NAME docs.${name}_example_control
           COMMAND bash ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/${script} --control ${PROJECT_SOURCE_DIR} ${_dir}
                   ${CMAKE_C_COMPILER} ${CMAKE_GENERATOR})
  set_tests_properties(docs.${name}_example PROPERTIES LABELS "docs;build" TIMEOUT 1200 PROCESSORS 2
                       FIXTURES_SETUP altmem_docs_${name}_example)
  set_tests_properties(docs.${name}_example_control PROPERTIES LABELS "docs;build" TIMEOUT 600 PROCESSORS 2
                       FIXTURES_REQUIRED altmem_docs_${name}_example)
endfunction()

if(TARGET altmem_cli AND NOT ALTMEM_SANITIZE)
  altmem_docs_example(arch check_arch_example.sh)
  altmem_docs_example(rule check_rule_example.sh)
  altmem_docs_example(subcommand check_subcommand_example.sh)
  altmem_docs_example(bench_mode check_bench_mode_example.sh)
endif()
