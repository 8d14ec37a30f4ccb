# Script mode: configure, build and run tests/consumer against mergepath, by MODE.
file(REMOVE_RECURSE ${WORK_DIR})
if(MODE STREQUAL "find_package")
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/lib -DMERGEPATH_BUILD_TESTS=OFF
                          -DMERGEPATH_BUILD_BENCH=OFF -DMERGEPATH_BUILD_DEMO=OFF -DMERGEPATH_DISABLE_CUDA=ON
                  COMMAND_ERROR_IS_FATAL ANY)
  execute_process(COMMAND ${CMAKE_COMMAND} --install ${WORK_DIR}/lib --prefix ${WORK_DIR}/prefix
                  COMMAND_ERROR_IS_FATAL ANY)
  set(extra -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
else()
  set(extra -DMERGEPATH_SOURCE_DIR=${SOURCE_DIR} -DMERGEPATH_DISABLE_CUDA=ON)
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/consumer -B ${WORK_DIR}/build ${extra}
                COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${WORK_DIR}/build/consumer COMMAND_ERROR_IS_FATAL ANY)
