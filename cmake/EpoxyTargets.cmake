# SPDX-License-Identifier: Apache-2.0
# Helpers that keep every component's CMakeLists.txt to a few lines.

# epoxy_library(NAME SOURCES ... DEPS ...): one library per component folder, linked only to the
# layers below it.
function(epoxy_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
endfunction()

# epoxy_test(NAME SOURCES ... DEPS ...): one GoogleTest binary per component, registered with CTest.
function(epoxy_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  if(NOT EPOXY_BUILD_TESTS)
    return()
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} epoxy_testing GTest::gmock GTest::gtest_main)
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60
    PROPERTIES ENVIRONMENT "EPOXY_SHARED_DIR=${PROJECT_SOURCE_DIR}/../shared")
endfunction()

# epoxy_benchmark(NAME SOURCES ... DEPS ...): Google Benchmark binaries, only with
# -DEPOXY_BUILD_BENCHMARKS=ON.
function(epoxy_benchmark name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  if(NOT EPOXY_BUILD_BENCHMARKS)
    return()
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} benchmark::benchmark)
endfunction()

# epoxy_fuzzer(NAME SOURCES ... DEPS ...): libFuzzer targets, only with -DEPOXY_BUILD_FUZZERS=ON.
function(epoxy_fuzzer name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  if(NOT EPOXY_BUILD_FUZZERS)
    return()
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS})
  target_link_options(${name} PRIVATE -fsanitize=fuzzer)
endfunction()
