#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs every GPU test on a machine with GPUs: the SPMD tests at 1 and 2 PEs (the heap test
# also on a small heap and on one larger than the GPU), device operations across 2 virtual
# nodes through the proxy, over UCX and over libfabric (2 PEs, on one GPU when there is one),
# the MoE example (moe_gpu --check) and the Python interface on torch tensors (where PyTorch
# is installed), the NVSHMEM program under mpirun too (where the build has PMIx), the bad
# calls (each must end the job with its message, through tests/run_expect_fail.sh), the demo,
# and a compute-sanitizer memcheck run of the tests at 2 PEs that must be clean.
#   tests/gpu/run.sh [BUILD_DIR]     (default build/; configured and built when missing)
# Exit status: 0 all passed, 1 a failure, 77 no GPU here. SYMM_GPU_TEST_LOG=DIR keeps logs;
# SYMM_GPU_TEST_SKIP_PYTHON=1 and SYMM_GPU_TEST_SKIP_MEMCHECK=1 leave those parts out.
set -u
cd "$(dirname "$0")/../.."
build=${1:-build}
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "tests/gpu/run.sh: no GPU here: skipped"
    exit 77
fi
if [ ! -x "$build/tests/gpu/gpu_rma" ]; then
    cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null || exit 1
    cmake --build "$build" -j"$(nproc)" >/dev/null || exit 1
fi
ngpus=$(nvidia-smi -L | wc -l)
symmrun=$build/tools/symmrun
t=$build/tests/gpu
expect=tests/run_expect_fail.sh
# The start of a fatal line: symm: [pe N host pid]
F='symm: \[pe [0-9]+ [^]]*\] '
logs=${SYMM_GPU_TEST_LOG:-$(mktemp -d)}
mkdir -p "$logs"
export NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0
passed=0
failed=()

# run NAME COMMAND...: one case, its output in $logs/NAME.log.
run() {
    local name=$1 log
    shift
    log=$logs/$(echo "$name" | tr ' /=' '___').log
    if timeout "${case_timeout:-120}" "$@" >"$log" 2>&1; then
        passed=$((passed + 1))
        printf 'ok    %s\n' "$name"
    else
        failed+=("$name")
        printf 'FAIL  %s (%s)\n' "$name" "$log"
        tail -n 15 "$log" | sed 's/^/      /'
    fi
}

only_memcheck=${SYMM_GPU_TEST_ONLY_MEMCHECK:-0}
nps="1 2"
[ "$only_memcheck" = 1 ] && nps=""
[ "$ngpus" -ge 2 ] || [ -z "$nps" ] || nps=1
for np in $nps; do
    for prog in gpu_rma gpu_amo gpu_coll gpu_scope gpu_team gpu_heap gpu_demo gpu_nvshmem; do
        run "$prog np$np" "$symmrun" -n "$np" --timeout 110 "$t/$prog"
    done
    run "gpu_nvcompat np$np" "$symmrun" -n "$np" --timeout 110 "$t/gpu_nvcompat" \
        "$t/nvshmem_module.cubin"
    run "gpu_heap small np$np" env SYMM_DEVICE_HEAP_SIZE=256M \
        "$symmrun" -n "$np" --timeout 110 "$t/gpu_heap" --small
    run "gpu_heap oom np$np" env SYMM_DEVICE_HEAP_SIZE=512G \
        "$symmrun" -n "$np" --timeout 110 "$t/gpu_heap"
    # MoE dispatch and combine (examples/moe, docs/ep.md): the CPU tests' cases, a large
    # shape, and the Python interface's torch path where PyTorch is installed.
    for args in "" "--routing one --counts uneven" "--routing local --channels 3" \
        "--counts zero" "--counts uneven --topk 3 --channels 1 --hidden 40" \
        "--tokens 1024 --hidden 7168 --experts 256 --topk 8 --channels 16 --iters 2"; do
        run "moe_gpu $args np$np" "$symmrun" -n "$np" --timeout 110 \
            "$build/examples/moe/moe_gpu" --check $args
    done
    if python3 -c "import numpy, torch" 2>/dev/null; then
        run "ep_test.py torch np$np" env PYTHONPATH=python SYMM_LIB="$build/libsymm.so" \
            PYTHONDONTWRITEBYTECODE=1 "$symmrun" -n "$np" --timeout 110 python3 \
            tests/ep/ep_test.py --device cuda
    else
        echo "ep_test.py torch np$np: skipped (no python3 with NumPy and PyTorch)"
    fi
done
# Two PEs on one GPU (where the machine has one GPU, the only 2-PE run of these).
[ "$only_memcheck" = 1 ] || run "gpu_nvcompat np2 one GPU" env SYMM_GPU_DEVICE=0 \
    "$symmrun" -n 2 --timeout 110 "$t/gpu_nvcompat" "$t/nvshmem_module.cubin"
[ "$only_memcheck" = 1 ] || [ "$ngpus" -ge 2 ] ||
    run "gpu_scope np2 one GPU" env SYMM_GPU_DEVICE=0 "$symmrun" -n 2 --timeout 110 \
        "$t/gpu_scope"
# PEs of other nodes through the proxy: 2 PEs in 2 virtual nodes, one GPU each where there
# are two, else both on GPU 0 (with --nodes 2 neither maps the other's heap either way); and
# the same program through the window on one node.
if [ "$only_memcheck" != 1 ]; then
    gpu_env=$([ "$ngpus" -ge 2 ] || echo SYMM_GPU_DEVICE=0)
    for np in $nps; do
        run "gpu_proxy np$np" "$symmrun" -n "$np" --timeout 110 "$t/gpu_proxy"
    done
    # Over UCX, then again over libfabric (its tcp provider) where the build has the ofi
    # transport. Each step's time goes to the log (SYMM_TEST_TRACE): where a slow run stands.
    nets=ucx
    "$build/tools/symminfo" 2>/dev/null | grep -q ', ofi (' && nets="ucx ofi"
    for net in $nets; do
        net_env=("SYMM_NET=$net") tag=""
        if [ "$net" = ofi ]; then
            net_env+=(FI_PROVIDER=tcp) tag=" ofi"
        fi
        for prog in gpu_proxy gpu_rma gpu_coll gpu_team gpu_scope gpu_nvshmem gpu_demo; do
            run "$prog 2 nodes$tag" env $gpu_env "${net_env[@]}" SYMM_TEST_TRACE=1 "$symmrun" \
                -n 2 --nodes 2 --timeout 110 "$t/$prog"
        done
        run "gpu_nvcompat 2 nodes$tag" env $gpu_env "${net_env[@]}" SYMM_TEST_TRACE=1 \
            "$symmrun" -n 2 --nodes 2 --timeout 110 "$t/gpu_nvcompat" "$t/nvshmem_module.cubin"
        # A PE of the other node whose kernel faults, or that dies, while PE 0's kernel waits
        # for it in a barrier: the job ends with the report (the start included, within 20 s).
        run "bad far_fault 2 nodes$tag" env $gpu_env "${net_env[@]}" "$expect" \
            --regex "${F}cudaDeviceSynchronize: .*illegal memory access" -- \
            "$symmrun" -n 2 --nodes 2 --timeout 20 "$t/gpu_bad" far_fault
        run "bad far_kill 2 nodes$tag" env $gpu_env "${net_env[@]}" "$expect" \
            --regex "pe 1 \(pid [0-9]+\) killed by signal 9" -- \
            "$symmrun" -n 2 --nodes 2 --timeout 20 "$t/gpu_bad" far_kill
    done
fi
# A program started alone is a job of one PE.
[ "$only_memcheck" = 1 ] || run "gpu_demo alone" "$t/gpu_demo"
# The NVSHMEM program started as NVSHMEM programs are, by mpirun (the pmix bootstrap), where
# this build has PMIx and mpirun is installed.
if [ "$only_memcheck" != 1 ] && command -v mpirun >/dev/null 2>&1 &&
    grep -q "SYMM_HAVE_PMIX 1" "$build/include/symm/config.h"; then
    for np in $nps; do
        run "gpu_nvshmem mpirun np$np" env OMPI_ALLOW_RUN_AS_ROOT=1 \
            OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -np "$np" "$t/gpu_nvshmem"
    done
fi

# Bad calls: MODE|REGEX|ENV (the job: 2 PEs, or 1 where one GPU).
np=$([ "$ngpus" -ge 2 ] && echo 2 || echo 1)
last=$((np - 1))
bad_cases=(
    "before_init|${F}shmemx_malloc_device: called before shmem_init|"
    "gpu_off|${F}shmemx_malloc_device: the GPU part is off \(SYMM_GPU=0\)|SYMM_GPU=0"
    "host_out_of_heap|${F}shmem_putmem\(addr=0x[0-9a-f]+, bytes=8, pe=0\): .* is not symmetric memory|"
    "stream_pe|${F}shmemx_putmem_on_stream\(addr=0x[0-9a-f]+, pe=$np\): pe $np is out of range|"
    "stream_addr|${F}shmemx_putmem_on_stream\(dest=0x[0-9a-f]+, bytes=8\): .* is not in the device heap|"
    "host_coll_device|${F}shmem_collectmem\(dest=0x[0-9a-f]+, source=0x[0-9a-f]+\): a buffer in the device heap|"
    "host_reduce_device_type|${F}shmem_longdouble_sum_reduce\(dest=0x[0-9a-f]+, source=0x[0-9a-f]+\): this type has no reduction on the GPU|"
    "register_symmetric_bad|${F}shmemx_buffer_register_symmetric\(buf_ptr=0x[0-9a-f]+, size=4096\): not memory mapped with cuMemCreate|"
    "free_bad|${F}shmemx_free_device\(ptr=0x[0-9a-f]+\): not a block returned by a device heap allocation|"
    "device_pe|${F}shmem_int_p\(addr=0x[0-9a-f]+, pe=$np\) in a kernel: pe $np is out of range \(the job has $np PEs|"
    "device_addr|${F}shmem_int_p\(addr=0x[0-9a-f]+, bytes=4, pe=0\) in a kernel: .* is not in the device heap|"
    "device_team|${F}shmemx_int_sum_reduce_block\(team=0x[0-9a-f]+\) in a kernel: not a team of this PE|"
    "device_team_destroyed|${F}shmem_team_sync\(team=0x[0-9a-f]+\) in a kernel: not a team of this PE \(SHMEM_TEAM_INVALID, destroyed|"
    "kernel_fault|${F}cudaDeviceSynchronize: .*illegal memory access|"
    "kernel_fault_unchecked|${F}.*a kernel on this PE \(GPU [0-9]+\) faulted: CUDA_ERROR_ILLEGAL_ADDRESS|"
    "malloc_mismatch|${F}shmemx_malloc_device: collective allocation #[0-9]+ differs across PEs|SHMEM_DEBUG=1"
)
[ "$only_memcheck" = 1 ] && bad_cases=()
for case in "${bad_cases[@]}"; do
    IFS='|' read -r mode re envs <<<"$case"
    [ "$np" -ge 2 ] || [ "$mode" != malloc_mismatch ] || continue
    run "bad $mode" env $envs "$expect" --regex "$re" -- \
        "$symmrun" -n "$np" --timeout 60 "$t/gpu_bad" "$mode"
done
[ "$only_memcheck" = 1 ] || run "bad no_gpu" env CUDA_VISIBLE_DEVICES= "$expect" \
    --regex "${F}shmem_init: this PE needs a GPU and sees none \(CUDA_VISIBLE_DEVICES=\)" -- \
    "$symmrun" -n 1 --timeout 60 "$t/gpu_bad" stream_pe
[ "$only_memcheck" = 1 ] || run "bad too_many_pes" env CUDA_VISIBLE_DEVICES=0 "$expect" \
    --regex "${F}shmem_init: 2 PEs run on this node and it has 1 visible GPUs" -- \
    "$symmrun" -n 2 --timeout 60 "$t/gpu_bad" stream_pe

# The Python interface on torch and CuPy (tests/python/gpu.sh; 77: neither is installed).
if [ "${SYMM_GPU_TEST_SKIP_PYTHON:-0}" = 1 ]; then
    echo "python tests/python/gpu.sh: skipped (SYMM_GPU_TEST_SKIP_PYTHON=1)"
elif [ "$only_memcheck" != 1 ]; then
    case_timeout=1800 run "python tests/python/gpu.sh" sh -c \
        'SYMM_GPU_TEST_LOG="$2" tests/python/gpu.sh "$1"; s=$?; [ $s -eq 77 ] || exit $s' _ \
        "$build" "$logs"
fi

# compute-sanitizer memcheck: every test at the largest PE count, clean.
if [ "${SYMM_GPU_TEST_SKIP_MEMCHECK:-0}" = 1 ]; then
    echo "memcheck: skipped (SYMM_GPU_TEST_SKIP_MEMCHECK=1)"
elif case_timeout=${SYMM_GPU_MEMCHECK_TIMEOUT:-400} && cs=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null |
    head -1) && [ -n "$cs" ]; then
    for prog in gpu_rma gpu_amo gpu_coll gpu_scope gpu_team gpu_demo gpu_nvshmem; do
        run "memcheck $prog np$np" "$symmrun" -n "$np" --timeout $((case_timeout - 10)) "$cs" \
            --tool memcheck --error-exitcode 99 "$t/$prog"
    done
    run "memcheck gpu_heap small np$np" env SYMM_DEVICE_HEAP_SIZE=256M "$symmrun" -n "$np" \
        --timeout $((case_timeout - 10)) "$cs" --tool memcheck --error-exitcode 99 "$t/gpu_heap" --small
else
    failed+=("compute-sanitizer not found")
fi

echo "tests/gpu/run.sh: ${passed} passed, ${#failed[@]} failed; logs in $logs"
for f in "${failed[@]}"; do
    echo "  failed: $f"
done
[ ${#failed[@]} -eq 0 ]
