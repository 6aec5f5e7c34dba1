#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The Python interface on GPU PEs: the pytest suite of tests/python on torch tensors and CuPy
# arrays (whichever are installed) in the device heap, every call on a stream: at 1 PE, at 2
# PEs sharing GPU 0, at 2 PEs on two GPUs where there are two, under torchrun --nproc_per_node
# 2, and 2 PEs in 2 virtual nodes (the proxy); then the examples on the GPU. tests/gpu/run.sh
# calls it.
#   tests/python/gpu.sh [BUILD_DIR]     (default build/)
# Exit status: 0 all passed, 1 a failure, 77 no GPU or no torch/CuPy here.
# SYMM_GPU_TEST_LOG=DIR keeps the logs.
set -u
cd "$(dirname "$0")/../.."
build=${1:-build}
py=${PYTHON:-python3}
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "tests/python/gpu.sh: no GPU here: skipped"
    exit 77
fi
kinds=""
"$py" -c "import torch; assert torch.cuda.is_available()" 2>/dev/null && kinds=torch
"$py" -c "import cupy" 2>/dev/null && kinds=${kinds:+$kinds,}cupy
if [ -z "$kinds" ] || ! "$py" -c "import numpy, pytest" 2>/dev/null; then
    echo "tests/python/gpu.sh: no python3 with pytest and torch or CuPy: skipped"
    exit 77
fi
ngpus=$(nvidia-smi -L | wc -l)
symmrun=$build/tools/symmrun
logs=${SYMM_GPU_TEST_LOG:-$(mktemp -d)}
mkdir -p "$logs"
export PYTHONPATH=$PWD/python SYMM_LIB=$PWD/$build/libsymm.so PYTHONDONTWRITEBYTECODE=1
export SYMM_PY_KINDS=$kinds NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0
pytest=("$py" -m pytest -q -p no:cacheprovider tests/python)
passed=0
failed=()

# run NAME COMMAND...: one case, its output in $logs/NAME.log.
run() {
    local name=$1 log
    shift
    log=$logs/python_$(echo "$name" | tr ' /=,' '____').log
    if timeout 400 "$@" >"$log" 2>&1; then
        passed=$((passed + 1))
        printf 'ok    %s\n' "$name"
    else
        failed+=("$name")
        printf 'FAIL  %s (%s)\n' "$name" "$log"
        tail -n 20 "$log" | sed 's/^/      /'
    fi
}

run "pytest $kinds np1" "$symmrun" -n 1 --timeout 380 "${pytest[@]}"
run "pytest $kinds alone" "${pytest[@]}"
run "pytest $kinds np2 one GPU" env SYMM_GPU_DEVICE=0 "$symmrun" -n 2 --timeout 380 "${pytest[@]}"
[ "$ngpus" -ge 2 ] && run "pytest $kinds np2" "$symmrun" -n 2 --timeout 380 "${pytest[@]}"
gpu_env=$([ "$ngpus" -ge 2 ] || echo SYMM_GPU_DEVICE=0)
if command -v torchrun >/dev/null 2>&1 && [[ $kinds == *torch* ]]; then
    run "pytest torchrun 2" env $gpu_env SYMM_PY_INIT=torchrun SYMM_PY_KINDS=torch \
        torchrun --standalone --nproc_per_node 2 -m pytest -q -p no:cacheprovider tests/python
else
    echo "pytest torchrun 2: skipped (no torchrun)"
fi
run "pytest $kinds 2 nodes" env $gpu_env "$symmrun" -n 2 --nodes 2 --timeout 380 "${pytest[@]}"
if [[ $kinds == *torch* ]]; then
    run "example ring np2" env $gpu_env "$symmrun" -n 2 --timeout 120 "$py" \
        examples/python/ring.py --device cuda
    run "example torch_collectives np2" env $gpu_env "$symmrun" -n 2 --timeout 120 "$py" \
        examples/python/torch_collectives.py --device cuda
fi
echo "tests/python/gpu.sh: ${passed} passed, ${#failed[@]} failed; logs in $logs"
[ ${#failed[@]} -eq 0 ]
