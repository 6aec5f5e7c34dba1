# SPDX-License-Identifier: BSD-3-Clause
# Checks that every library kernel the host looks up by name is defined by exactly one of the
# modules of the library's kernels (cmake/gpu.cmake builds one per unit and definitions): the
# names come from tests/gpu/kernel_names.c (NAMES, the program), the kernels each module
# defines from nvcc's preprocessor over its unit with its definitions.
# Run as: cmake -DNAMES=<program> -DNVCC=<nvcc> -DARCH=<arch> -DSRC=<source dir>
#   -DMODULES=<name|unit|definition...,...> -DOUT=<scratch file> -P this (the test
#   gpu_kernel_names)
cmake_minimum_required(VERSION 3.20)
execute_process(COMMAND ${NAMES} OUTPUT_VARIABLE names RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "kernel_names: ${NAMES} failed")
endif()
string(REGEX MATCHALL "symm_k_[a-z0-9_]+" names "${names}")
list(REMOVE_DUPLICATES names)
list(LENGTH names nnames)
string(REPLACE "," ";" modules "${MODULES}")
foreach(m IN LISTS modules)
  string(REPLACE "|" ";" m "${m}")
  list(POP_FRONT m name unit)
  execute_process(COMMAND ${NVCC} -E -x cu -std=c++17 -arch=sm_${ARCH} -I${SRC}/include
                          -I${SRC}/src ${m} ${SRC}/src/tl/cuda/${unit} -o ${OUT}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "kernel_names: nvcc -E failed on ${unit} (${name}):\n${err}")
  endif()
  file(READ ${OUT} text)
  file(REMOVE ${OUT})
  string(REGEX MATCHALL "symm_k_[a-z0-9_]+[ \t]*\\(" defs "${text}")
  list(TRANSFORM defs REPLACE "[ \t]*\\($" "")
  list(REMOVE_DUPLICATES defs)
  foreach(d IN LISTS defs)
    list(APPEND where_${d} ${name})
  endforeach()
endforeach()
set(bad "")
foreach(k IN LISTS names)
  list(LENGTH where_${k} n)
  if(NOT n EQUAL 1)
    list(JOIN where_${k} ", " in)
    list(APPEND bad "${k}: defined by ${n} modules (${in})")
  endif()
endforeach()
if(nnames LESS 100 OR bad)
  list(JOIN bad "\n  " bad)
  message(FATAL_ERROR "kernel_names: of the ${nnames} kernels the host looks up:\n  ${bad}")
endif()
list(LENGTH modules nmodules)
message(STATUS "kernel_names: each of the ${nnames} kernels the host looks up is in one of the "
        "${nmodules} modules")
