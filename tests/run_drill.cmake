# Runs `parlour karuta drill DRILL --script IN --progress ACTUAL.json` (no
# terminal, answers and times from the script), then `parlour karuta drill
# weakest` on the record it kept, and compares the two outputs and the record
# itself with the expected file. The script's first line is
# "# args: DRILL [options]" (e.g. "# args: listen --cards 6 --lang ja").
# Usage: cmake -DBIN= -DIN= -DEXPECTED= -DACTUAL= -P run_drill.cmake
file(STRINGS ${IN} first LIMIT_COUNT 1)
if(NOT first MATCHES "^# args: (.*)$")
  message(FATAL_ERROR "${IN}: the first line must be '# args: DRILL [options]'")
endif()
separate_arguments(args UNIX_COMMAND "${CMAKE_MATCH_1}")
set(lang "")
if(first MATCHES "--lang ([a-z][a-z])")
  set(lang --lang ${CMAKE_MATCH_1})
endif()
file(REMOVE ${ACTUAL}.json)
execute_process(COMMAND ${BIN} karuta drill ${args} --script ${IN} --progress ${ACTUAL}.json
                OUTPUT_VARIABLE out1 RESULT_VARIABLE rc1)
execute_process(COMMAND ${BIN} karuta drill weakest ${lang} --progress ${ACTUAL}.json
                OUTPUT_VARIABLE out2 RESULT_VARIABLE rc2)
if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
  message(FATAL_ERROR "parlour karuta drill exited with ${rc1}, weakest with ${rc2}, on ${IN}")
endif()
file(READ ${ACTUAL}.json rec)
file(WRITE ${ACTUAL} "${out1}--- weakest ---\n${out2}--- record ---\n${rec}")
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${ACTUAL} ${EXPECTED} RESULT_VARIABLE diff)
if(NOT diff EQUAL 0)
  execute_process(COMMAND diff -u ${EXPECTED} ${ACTUAL})
  message(FATAL_ERROR "drill ${IN}: output differs from ${EXPECTED}")
endif()
