# SPDX-License-Identifier: BSD-3-Clause
# The GPU part, included by the top-level CMakeLists.txt when nvcc is found: the CUDA transport
# (src/tl/cuda) and the files of the other folders that run on it. libsymm links no CUDA
# library: the driver is loaded at run time (src/tl/cuda/driver.c), and the library's kernels
# are a fat binary built here by nvcc and carried inside libsymm (fatbin.c, generated into the
# build's src/tl/cuda, so that its object sits in the transport's folder). Only sm_90
# machine code plus compute_90 PTX (which newer GPUs compile at load) is built, to keep CI
# builds short; SYMM_CUDA_ARCH changes the architecture.
set(SYMM_CUDA_ARCH "90" CACHE STRING "CUDA architecture of the GPU code (machine code + PTX)")
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES OR CMAKE_CUDA_ARCHITECTURES STREQUAL "52")
  set(CMAKE_CUDA_ARCHITECTURES ${SYMM_CUDA_ARCH})
endif()
find_package(CUDAToolkit REQUIRED)

set(SYMM_GPU_FATBIN ${CMAKE_CURRENT_BINARY_DIR}/src/tl/cuda/kernels.fatbin)
set(SYMM_GPU_FATBIN_C ${CMAKE_CURRENT_BINARY_DIR}/src/tl/cuda/fatbin.c)
file(GLOB SYMM_GPU_DEVICE_HEADERS ${CMAKE_CURRENT_SOURCE_DIR}/include/symm/impl/*)
add_custom_command(OUTPUT ${SYMM_GPU_FATBIN}
  COMMAND ${CMAKE_CUDA_COMPILER} -fatbin -std=c++17 -O3 -lineinfo -Xfatbin=-compress-all
          -gencode arch=compute_${SYMM_CUDA_ARCH},code=sm_${SYMM_CUDA_ARCH}
          -gencode arch=compute_${SYMM_CUDA_ARCH},code=compute_${SYMM_CUDA_ARCH}
          -I${CMAKE_CURRENT_SOURCE_DIR}/include
          -o ${SYMM_GPU_FATBIN} ${CMAKE_CURRENT_SOURCE_DIR}/src/tl/cuda/kernels.cu
  DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/tl/cuda/kernels.cu ${SYMM_GPU_DEVICE_HEADERS}
          ${CMAKE_CURRENT_SOURCE_DIR}/include/shmem.h
          ${CMAKE_CURRENT_SOURCE_DIR}/include/symm/types.def
          ${CMAKE_CURRENT_SOURCE_DIR}/include/symm/gen/type_table.h
  COMMENT "Building the library's GPU kernels (sm_${SYMM_CUDA_ARCH} + PTX)"
  VERBATIM)
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/src/tl/cuda/fatbin.c.in ${SYMM_GPU_FATBIN_C} @ONLY)
set_source_files_properties(${SYMM_GPU_FATBIN_C} PROPERTIES OBJECT_DEPENDS ${SYMM_GPU_FATBIN})

set(SYMM_GPU_HOST_SOURCES src/tl/cuda/driver.c src/tl/cuda/cuda.c src/tl/proxy/proxy.c
  src/core/gpu.c src/coll/devheap.c src/coll/devalloc.c src/coll/on_stream.c src/api/stream.c
  src/api/register.c src/api/module.c)
set_source_files_properties(${SYMM_GPU_HOST_SOURCES} PROPERTIES
  INCLUDE_DIRECTORIES "${CUDAToolkit_INCLUDE_DIRS}")
list(APPEND SYMM_SOURCES ${SYMM_GPU_HOST_SOURCES} ${SYMM_GPU_FATBIN_C})
set(SYMM_GPU_LIBS ${CMAKE_DL_LIBS})
