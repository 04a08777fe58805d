# The alternatives engine: branch encoders (against an assembler) and patching.

altmem_test_exe(test_encode test_encode.c ${PROJECT_SOURCE_DIR}/src/patch/encode.c)
add_test(NAME encode COMMAND test_encode)
add_test(NAME encode_vs_assembler COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_encode_asm.sh $<TARGET_FILE:test_encode>)
add_test(NAME encode_vs_assembler_control
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_encode_asm.sh $<TARGET_FILE:test_encode> --self-test)
set_tests_properties(encode encode_vs_assembler encode_vs_assembler_control PROPERTIES LABELS alternatives)
set_tests_properties(encode_vs_assembler encode_vs_assembler_control PROPERTIES SKIP_RETURN_CODE 77)
