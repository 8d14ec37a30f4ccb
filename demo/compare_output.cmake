# Runs `DEMO BACKEND --only NAME` and compares what it prints after its first line (the backend
# line, which names the machine) with the file EXPECTED, byte for byte. On a difference it names
# the first line that differs and leaves the whole output in ACTUAL.
#
#   cmake -DDEMO=... -DBACKEND=--cpu -DNAME=sorted_search -DEXPECTED=... -DACTUAL=... -P compare_output.cmake
cmake_minimum_required(VERSION 3.24)  # policies as the project's: lists keep empty elements (blank lines)
foreach(var DEMO BACKEND NAME EXPECTED ACTUAL)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "compare_output.cmake: -D${var}=... is required")
  endif()
endforeach()

execute_process(COMMAND ${DEMO} ${BACKEND} --only ${NAME}
  OUTPUT_VARIABLE output ERROR_VARIABLE errors RESULT_VARIABLE status)
file(WRITE ${ACTUAL} "${output}")
if(NOT status EQUAL 0)
  # The demo's own message (e.g. "--gpu: no usable CUDA device") reaches CTest, whose skip
  # pattern can then match it.
  message(FATAL_ERROR "${DEMO} ${BACKEND} --only ${NAME} failed (${status}):\n${errors}")
endif()

string(FIND "${output}" "\n" first_newline)
math(EXPR after_first_line "${first_newline} + 1")
string(SUBSTRING "${output}" ${after_first_line} -1 output)
file(READ ${EXPECTED} expected)
if(output STREQUAL expected)
  message(STATUS "${NAME} (${BACKEND}): output equals ${EXPECTED}")
  return()
endif()

# Not equal: find the first line that differs. Lines are compared as text, so a ';' in a line
# (CMake's list separator) cannot split it: replace them first.
string(REPLACE ";" "<semicolon>" output_lines "${output}")
string(REPLACE ";" "<semicolon>" expected_lines "${expected}")
string(REPLACE "\n" ";" output_lines "${output_lines}")
string(REPLACE "\n" ";" expected_lines "${expected_lines}")
list(LENGTH output_lines output_count)
list(LENGTH expected_lines expected_count)
set(line 0)
while(line LESS output_count AND line LESS expected_count)
  list(GET output_lines ${line} got)
  list(GET expected_lines ${line} want)
  if(NOT got STREQUAL want)
    break()
  endif()
  math(EXPR line "${line} + 1")
endwhile()
set(got "<end of output>")
set(want "<end of file>")
if(line LESS output_count)
  list(GET output_lines ${line} got)
endif()
if(line LESS expected_count)
  list(GET expected_lines ${line} want)
endif()
math(EXPR line_number "${line} + 2")  # 1-based, counting the backend line
message(FATAL_ERROR "${NAME} (${BACKEND}): the output differs from ${EXPECTED} at output line ${line_number}:\n"
  "  expected: '${want}'\n  got:      '${got}'\nwhole output: ${ACTUAL}")
