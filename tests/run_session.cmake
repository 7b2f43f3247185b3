# Runs `parlour engine` on a scripted session and compares its output with
# the expected transcript. Usage: cmake -DBIN= -DIN= -DEXPECTED= -DACTUAL= -P run_session.cmake
execute_process(COMMAND ${BIN} engine INPUT_FILE ${IN} OUTPUT_FILE ${ACTUAL}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "parlour engine exited with ${rc} on ${IN}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${ACTUAL} ${EXPECTED} RESULT_VARIABLE diff)
if(NOT diff EQUAL 0)
  execute_process(COMMAND diff -u ${EXPECTED} ${ACTUAL})
  message(FATAL_ERROR "session ${IN}: output differs from ${EXPECTED}")
endif()
