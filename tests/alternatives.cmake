# The alternatives engine: branch encoders (against an assembler) and patching.

altmem_test_exe(test_encode test_encode.c ${PROJECT_SOURCE_DIR}/src/patch/encode.c)
add_test(NAME encode COMMAND test_encode)
add_test(NAME encode_vs_assembler COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_encode_asm.sh $<TARGET_FILE:test_encode>)
add_test(NAME encode_vs_assembler_control
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_encode_asm.sh $<TARGET_FILE:test_encode> --self-test)
set_tests_properties(encode encode_vs_assembler encode_vs_assembler_control PROPERTIES LABELS alternatives)
set_tests_properties(encode_vs_assembler encode_vs_assembler_control PROPERTIES SKIP_RETURN_CODE 77)

# A user's routine declared with ALTMEM_ALTERNATIVE (include/altmem_alternative.h).
altmem_test_exe(test_alternative test_alternative.c)
if(ALTMEM_BIND_MODE EQUAL 1)
  set(_bound "patched branch")
else()
  set(_bound "pointer")
endif()
# The CPU's features decide the first case; the others mask them away.
add_test(NAME alternative_detected COMMAND test_alternative auto "${_bound}")
add_test(NAME alternative_masked COMMAND test_alternative count_zeros_words "${_bound}")
set_tests_properties(alternative_masked PROPERTIES ENVIRONMENT "ALTMEM_TUNABLES=hwcaps=-SIMD256,+UAL")
add_test(NAME alternative_fallback COMMAND test_alternative count_zeros_bytes "${_bound}")
set_tests_properties(alternative_fallback PROPERTIES ENVIRONMENT "ALTMEM_TUNABLES=hwcaps=-UAL")
add_test(NAME alternative_pointer COMMAND test_alternative count_zeros_words pointer)
set_tests_properties(alternative_pointer PROPERTIES ENVIRONMENT "ALTMEM_TUNABLES=hwcaps=-SIMD256,+UAL:bind=pointer")
# Negative control: a wrong expectation must be reported.
add_test(NAME alternative_control COMMAND test_alternative count_zeros_bytes "${_bound}")
set_tests_properties(alternative_control PROPERTIES WILL_FAIL TRUE)
set_tests_properties(alternative_detected alternative_masked alternative_fallback alternative_pointer
                     alternative_control PROPERTIES LABELS alternatives)
