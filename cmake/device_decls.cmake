# SPDX-License-Identifier: BSD-3-Clause
# Checks that every routine symm/gen/device_group.cuh declares is defined by symm/device.cuh
# with the same signature: a declaration that differs would be an overload that nothing
# defines. Reads nvcc's preprocessor output of the device pass over device.cuh.
# Run as: cmake -DNVCC=<nvcc> -DSRC=<source dir> -DOUT=<scratch file> -P this (the test
# gpu_device_decls)
cmake_minimum_required(VERSION 3.20)
execute_process(COMMAND ${NVCC} -E -x cu -std=c++17 -arch=sm_90 -I${SRC}/include
                        ${SRC}/include/symm/device.cuh -o ${OUT}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "device_decls: nvcc -E failed on symm/device.cuh:\n${err}")
endif()
file(READ ${OUT} text)
file(REMOVE ${OUT})
string(REGEX REPLACE "\n#[^\n]*" "\n" text "${text}")
string(REGEX REPLACE "[ \t\r\n]+" " " text "${text}")
string(REGEX REPLACE " ?([*(),]) ?" "\\1" text "${text}")
# CMake lists are split at semicolons: a declaration ends with @ instead.
string(REPLACE ";" "@" text "${text}")
# A device-only routine of the API, declared (@) or defined ({).
set(fn "always_inline\\)\\)[^@{}()]*shmemx_[a-z0-9_]+\\([^()]*\\)[@{]")
string(REGEX MATCHALL "${fn}" all "${text}")
set(decls "")
set(defs "")
foreach(f IN LISTS all)
  string(REGEX REPLACE "^always_inline\\)\\)" "" f "${f}")
  if(f MATCHES "@$")
    string(REGEX REPLACE "@$" "" f "${f}")
    list(APPEND decls "${f}")
  else()
    string(REGEX REPLACE "{$" "" f "${f}")
    list(APPEND defs "${f}")
  endif()
endforeach()
list(LENGTH decls n)
if(n LESS 500)
  message(FATAL_ERROR "device_decls: only ${n} declarations found in symm/gen/device_group.cuh")
endif()
set(bad "")
foreach(d IN LISTS decls)
  list(FIND defs "${d}" at)
  if(at LESS 0)
    list(APPEND bad "${d}")
  endif()
endforeach()
if(bad)
  list(JOIN bad "\n  " bad)
  message(FATAL_ERROR "device_decls: declared in symm/gen/device_group.cuh, not defined with "
          "that signature by symm/device.cuh:\n  ${bad}")
endif()
message(STATUS "device_decls: the ${n} declarations of symm/gen/device_group.cuh are defined")
