#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Everything GPU in one command, for a lent GPU machine: build, the GPU tests (tests/gpu/run.sh),
# the benchmark against symm and NVSHMEM (bench/gpu/compare.sh). Each step has a time bound, so
# one hang cannot eat the rest; results go under $OUT (default /tmp/symm-gpu-out) in at most
# eight files.
#   bench/gpu/gpu_all.sh [STEP...]    steps: build tests memcheck bench nvcompat x (default: the
#   first four; nvcompat runs NVSHMEM-named programs built against symm under mpirun; x the
#   symm-only experiments of bench_gpu.cu)
set -u
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/symm-gpu-out}
mkdir -p "$out"
steps=${*:-build tests memcheck bench}
export PATH=$PATH:/usr/local/cuda/bin
export NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1
has() { case " $steps " in *" $1 "*) return 0 ;; esac; return 1; }

{
    nvidia-smi
    nvidia-smi topo -m
    nvcc --version | tail -2
} >"$out/machine.txt" 2>&1

if has build; then
    s=$(date +%s)
    { timeout 150 cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CUDA_COMPILER="$(command -v nvcc)" &&
        timeout 250 cmake --build build -j"$(nproc)"; } >"$out/build.log" 2>&1 ||
        { echo "gpu_all.sh: build failed"; tail -40 "$out/build.log"; exit 1; }
    echo "gpu_all.sh: built in $(( $(date +%s) - s )) s"
fi
if has tests; then
    if has memcheck; then
        SYMM_GPU_TEST_LOG=$out/testlogs timeout "${GPU_ALL_TESTS_S:-600}" tests/gpu/run.sh build \
            2>&1 | tee "$out/tests.txt"
    else
        SYMM_GPU_TEST_SKIP_MEMCHECK=1 SYMM_GPU_TEST_LOG=$out/testlogs timeout "${GPU_ALL_TESTS_S:-300}" \
            tests/gpu/run.sh build 2>&1 | tee "$out/tests.txt"
    fi
    tar czf "$out/testlogs.tgz" -C "$out" testlogs && rm -rf "$out/testlogs"
elif has memcheck; then
    SYMM_GPU_TEST_ONLY_MEMCHECK=1 SYMM_GPU_TEST_LOG=$out/testlogs timeout 900 \
        tests/gpu/run.sh build 2>&1 | tee "$out/tests.txt"
    tar czf "$out/testlogs.tgz" -C "$out" testlogs && rm -rf "$out/testlogs"
fi
if has bench; then
    timeout "${GPU_ALL_BENCH_S:-330}" bench/gpu/compare.sh build "$out/bench.md" "$out/bench" 2>&1 | tail -60
    tar czf "$out/bench.tgz" -C "$out" bench && rm -rf "$out/bench"
fi
if has nvcompat; then
    # NVSHMEM source compatibility under mpirun: the NVSHMEM build of the benchmark (the same
    # source compare.sh builds against NVSHMEM) built against symm's nvshmem.h, and the
    # NVSHMEM test program, started by mpirun through the pmix bootstrap.
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    if grep -q "SYMM_HAVE_PMIX 1" build/include/symm/config.h; then
        mpi_i=$(mpicc --showme:incdirs | sed 's/^/-I/; s/ / -I/g')
        mpi_l=$(mpicc --showme:libdirs | sed 's/^/-L/; s/ / -L/g')
        { timeout 300 nvcc -O3 -std=c++17 -arch=sm_90 -DBENCH_NVSHMEM -Iinclude -Ibuild/include \
            $mpi_i bench/gpu/bench_gpu.cu -o build/bench_gpu_nvnames -Lbuild -lsymm \
            -Xlinker -rpath -Xlinker "$PWD/build" $mpi_l -lmpi &&
            timeout 60 mpirun -np 2 build/tests/gpu/gpu_nvshmem &&
            timeout 300 mpirun -np 2 build/bench_gpu_nvnames ${NVCOMPAT_ROWS:-}; } 2>&1 |
            tee "$out/nvcompat.txt"
    else
        echo "nvcompat: skipped (this symm was built without PMIx)" | tee "$out/nvcompat.txt"
    fi
fi
if has x; then
    timeout 120 build/tools/symmrun -n 2 --timeout 110 build/bench/gpu/bench_gpu x 2>&1 |
        tee "$out/x.txt"
fi
