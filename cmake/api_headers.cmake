# SPDX-License-Identifier: BSD-3-Clause
# The generated public headers and sources, committed so that grep and editors find every
# routine:
#   include/symm/gen/*    the typed declarations, written by cmake/gen_api.c from the type table
#   src/*/gen/*           the typed definitions, by the same (each included by the file of its
#                         folder whose bodies it calls)
#   include/symm/nvshmem_names.h   the NVSHMEM names, by cmake/nvshmem_names.cmake
#   include/pshmem.h      the profiling names, by cmake/pshmem.cmake
#
# Included by the top-level CMakeLists.txt: builds the generator (symm_gen_api) and the target
# symm_api_headers, which writes them all afresh into the source tree:
#   cmake --build <build dir> --target symm_api_headers
#
# Run as a script (the test api_headers_fresh), it writes all but pshmem.h into OUT and fails
# when a committed file differs from what it wrote, or a generated file is not committed:
#   cmake -DGEN=<symm_gen_api> -DCC=<C compiler> -DSRC=<source dir> -DOUT=<dir> -P this

if(NOT CMAKE_SCRIPT_MODE_FILE)
  add_executable(symm_gen_api ${CMAKE_CURRENT_SOURCE_DIR}/cmake/gen_api.c)
  target_include_directories(symm_gen_api PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include)
  # Its tables leave the body and guard of a routine out where the library does not define it.
  target_compile_options(symm_gen_api PRIVATE
    $<$<C_COMPILER_ID:GNU,Clang>:-Wno-missing-field-initializers>)
  add_custom_target(symm_api_headers
    COMMAND symm_gen_api ${CMAKE_CURRENT_SOURCE_DIR}/include/symm/gen
            ${CMAKE_CURRENT_SOURCE_DIR}/src
    COMMAND ${CMAKE_COMMAND} -DCC=${CMAKE_C_COMPILER} -DSRC=${CMAKE_CURRENT_SOURCE_DIR}
            -DBIN=${CMAKE_CURRENT_BINARY_DIR}
            -DOUT=${CMAKE_CURRENT_SOURCE_DIR}/include/symm/nvshmem_names.h
            -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/nvshmem_names.cmake
    COMMAND ${CMAKE_COMMAND} -DCC=${CMAKE_C_COMPILER} -DSRC=${CMAKE_CURRENT_SOURCE_DIR}
            -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/pshmem.cmake
    COMMENT "Writing include/symm/gen, src/*/gen, include/symm/nvshmem_names.h and include/pshmem.h"
    VERBATIM)
  return()
endif()

cmake_minimum_required(VERSION 3.20)
# The folders of src/ that hold generated definitions.
set(src_gen api/gen coll/gen sync/gen)
file(REMOVE_RECURSE ${OUT}/gen ${OUT}/src)
file(MAKE_DIRECTORY ${OUT}/gen)
foreach(d IN LISTS src_gen)
  file(MAKE_DIRECTORY ${OUT}/src/${d})
endforeach()
execute_process(COMMAND ${GEN} ${OUT}/gen ${OUT}/src RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "api_headers: ${GEN} failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -DCC=${CC} -DSRC=${SRC} -DBIN=${OUT}
                        -DOUT=${OUT}/nvshmem_names.h -P ${SRC}/cmake/nvshmem_names.cmake
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "api_headers: cmake/nvshmem_names.cmake failed")
endif()

set(stale "")
file(GLOB written RELATIVE ${OUT}/gen ${OUT}/gen/*)
file(GLOB committed RELATIVE ${SRC}/include/symm/gen ${SRC}/include/symm/gen/*)
foreach(f IN LISTS written committed)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/gen/${f}
                          ${SRC}/include/symm/gen/${f} RESULT_VARIABLE differs)
  if(differs)
    list(APPEND stale include/symm/gen/${f})
  endif()
endforeach()
set(nsrc 0)
foreach(d IN LISTS src_gen)
  file(GLOB written_src RELATIVE ${OUT}/src/${d} ${OUT}/src/${d}/*)
  file(GLOB committed_src RELATIVE ${SRC}/src/${d} ${SRC}/src/${d}/*)
  list(LENGTH written_src k)
  math(EXPR nsrc "${nsrc} + ${k}")
  foreach(f IN LISTS written_src committed_src)
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/src/${d}/${f}
                            ${SRC}/src/${d}/${f} RESULT_VARIABLE differs)
    if(differs)
      list(APPEND stale src/${d}/${f})
    endif()
  endforeach()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/nvshmem_names.h
                        ${SRC}/include/symm/nvshmem_names.h RESULT_VARIABLE differs)
if(differs)
  list(APPEND stale include/symm/nvshmem_names.h)
endif()
list(REMOVE_DUPLICATES stale)
if(stale)
  list(JOIN stale "\n  " stale)
  message(FATAL_ERROR "api_headers: not what the generators write now (fresh copies in ${OUT}):"
          "\n  ${stale}\nwrite them afresh: cmake --build <build dir> --target symm_api_headers")
endif()
list(LENGTH written n)
message(STATUS "api_headers: include/symm/gen (${n} files), src/*/gen (${nsrc} files) and "
               "nvshmem_names.h are fresh")
