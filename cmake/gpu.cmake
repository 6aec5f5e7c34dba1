# SPDX-License-Identifier: BSD-3-Clause
# The GPU part, included by the top-level CMakeLists.txt when nvcc is found: the CUDA transport
# (src/tl/cuda) and the files of the other folders that run on it. libsymm links no CUDA
# library: the driver is loaded at run time (src/tl/cuda/driver.c), and the library's kernels
# are fat binaries built here by nvcc and carried inside libsymm (fatbin.c, generated into the
# build's src/tl/cuda, so that its object sits in the transport's folder), one module each.
# Only sm_90 machine code plus compute_90 PTX (which newer GPUs compile at load) is built, to
# keep CI builds short; SYMM_CUDA_ARCH changes the architecture.
# Why nine modules: as one file the kernels were one nvcc run of 95 s (cicc 34 s, ptxas 66 s)
# on one CPU of a 2-CPU machine, and the build of libsymm, symmrun, the demo and the GPU demo
# took 119-132 s. As nine units they take 99 s of CPU time in all (the reductions' three
# 21-22 s, the reduce-scatters' three 10 s, the others 1-2 s), side by side with each other and
# the C files, and that build 82 s from a fresh clone (demo.sh's target gpu_demo_parts,
# configuring included). -split-compile=0 made it slower (86 s): the two CPUs are busy already.
set(SYMM_CUDA_ARCH "90" CACHE STRING "CUDA architecture of the GPU code (machine code + PTX)")
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES OR CMAKE_CUDA_ARCHITECTURES STREQUAL "52")
  set(CMAKE_CUDA_ARCHITECTURES ${SYMM_CUDA_ARCH})
endif()
find_package(CUDAToolkit REQUIRED)

# The library's kernels, one module per unit: a fat binary that nvcc builds by a command of its
# own, so that a parallel build runs them side by side and beside the C files (the reductions,
# 72 kernels and 72 reduce-scatters, are most of the work: one file built six times, one
# operator family of one kind of kernel each). The largest come first: make starts them first.
file(GLOB SYMM_GPU_DEVICE_HEADERS ${CMAKE_CURRENT_SOURCE_DIR}/include/symm/impl/*)
set(SYMM_GPU_FATBINS "")
set(SYMM_GPU_FATBIN_ASM "")
set(SYMM_GPU_FATBIN_TABLE "")
function(symm_gpu_module name source)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/src/tl/cuda/kernels_${name}.fatbin)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_CUDA_COMPILER} -fatbin -std=c++17 -O3 -lineinfo -Xfatbin=-compress-all
            -gencode arch=compute_${SYMM_CUDA_ARCH},code=sm_${SYMM_CUDA_ARCH}
            -gencode arch=compute_${SYMM_CUDA_ARCH},code=compute_${SYMM_CUDA_ARCH}
            -I${CMAKE_CURRENT_SOURCE_DIR}/include -I${CMAKE_CURRENT_SOURCE_DIR}/src ${ARGN}
            -o ${out} ${CMAKE_CURRENT_SOURCE_DIR}/src/tl/cuda/${source}
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/tl/cuda/${source}
            ${CMAKE_CURRENT_SOURCE_DIR}/src/tl/cuda/kernels.cuh ${SYMM_GPU_DEVICE_HEADERS}
            ${CMAKE_CURRENT_SOURCE_DIR}/include/shmem.h
            ${CMAKE_CURRENT_SOURCE_DIR}/include/symm/types.def
            ${CMAKE_CURRENT_SOURCE_DIR}/include/symm/gen/type_table.h
    COMMENT "Building the library's GPU kernels: ${name} (sm_${SYMM_CUDA_ARCH} + PTX)"
    VERBATIM)
  list(JOIN ARGN "|" defs)
  set_property(GLOBAL APPEND PROPERTY SYMM_GPU_MODULES "${name}|${source}|${defs}")
  set(SYMM_GPU_FATBINS ${SYMM_GPU_FATBINS} ${out} PARENT_SCOPE)
  set(SYMM_GPU_FATBIN_ASM "${SYMM_GPU_FATBIN_ASM}SYMM_FATBIN(${name}, \"${out}\")\n"
      PARENT_SCOPE)
  set(SYMM_GPU_FATBIN_TABLE "${SYMM_GPU_FATBIN_TABLE}    {\"${name}\", symm_cuda_fatbin_${name}},\n"
      PARENT_SCOPE)
endfunction()
foreach(stem REDUCE RSCATTER)
  foreach(ops BITWISE MINMAX SUMPROD)
    string(TOLOWER "${stem}_${ops}" name)
    symm_gpu_module(${name} kernels_reduce.cu -DSYMM_K_STEM=SYMM_K_${stem}
                    -DSYMM_K_OPS=SYMM_K_${ops})
  endforeach()
endforeach()
symm_gpu_module(coll kernels_coll.cu)
symm_gpu_module(rma kernels_rma.cu)
symm_gpu_module(sync kernels_sync.cu)
set(SYMM_GPU_FATBIN_C ${CMAKE_CURRENT_BINARY_DIR}/src/tl/cuda/fatbin.c)
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/src/tl/cuda/fatbin.c.in ${SYMM_GPU_FATBIN_C} @ONLY)
set_source_files_properties(${SYMM_GPU_FATBIN_C} PROPERTIES OBJECT_DEPENDS "${SYMM_GPU_FATBINS}")

set(SYMM_GPU_HOST_SOURCES src/tl/cuda/driver.c src/tl/cuda/cuda.c src/tl/proxy/proxy.c
  src/core/gpu.c src/coll/devheap.c src/coll/devalloc.c src/coll/on_stream.c src/api/stream.c
  src/api/register.c src/api/module.c)
set_source_files_properties(${SYMM_GPU_HOST_SOURCES} ${SYMM_GPU_FATBIN_C} PROPERTIES
  INCLUDE_DIRECTORIES "${CUDAToolkit_INCLUDE_DIRS}")
# fatbin.c first: make then starts the kernels' commands, the longest, before the C files.
list(PREPEND SYMM_SOURCES ${SYMM_GPU_FATBIN_C})
list(APPEND SYMM_SOURCES ${SYMM_GPU_HOST_SOURCES})
# The kernels' load error names the architecture they were built for.
set_source_files_properties(src/tl/cuda/cuda.c PROPERTIES
  COMPILE_DEFINITIONS SYMM_CUDA_ARCH="sm_${SYMM_CUDA_ARCH}")
set(SYMM_GPU_LIBS ${CMAKE_DL_LIBS})
