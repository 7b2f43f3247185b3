# Runs `parlour karuta practice --script IN` (no terminal, virtual clock) and
# compares its output with the expected one. The script's first line may be
# "# args: ..." with the practice's options (e.g. --seed 7 --solo), or
# "# play: ..." to run `parlour play karuta ...` (the real-time game) instead.
# Usage: cmake -DBIN= -DIN= -DEXPECTED= -DACTUAL= -P run_practice.cmake
file(STRINGS ${IN} first LIMIT_COUNT 1)
set(args "")
set(cmd karuta practice)
if(first MATCHES "^# args: (.*)$")
  separate_arguments(args UNIX_COMMAND "${CMAKE_MATCH_1}")
elseif(first MATCHES "^# play: (.*)$")
  separate_arguments(args UNIX_COMMAND "${CMAKE_MATCH_1}")
  set(cmd play karuta)
endif()
execute_process(COMMAND ${BIN} ${cmd} ${args} --script ${IN} OUTPUT_FILE ${ACTUAL}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "parlour ${cmd} exited with ${rc} on ${IN}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${ACTUAL} ${EXPECTED} RESULT_VARIABLE diff)
if(NOT diff EQUAL 0)
  execute_process(COMMAND diff -u ${EXPECTED} ${ACTUAL})
  message(FATAL_ERROR "practice ${IN}: output differs from ${EXPECTED}")
endif()
