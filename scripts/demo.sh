#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds only what the demo runs into build/ (libsymm, symmrun and the demo; on a machine with
# GPUs also the library's GPU part and the GPU demo) and runs the demo on 4 PEs (and the GPU
# demo on up to 2 GPUs). A fresh build/ on a machine without GPUs leaves the GPU part out even
# where nvcc is installed; scripts/test.sh builds everything.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
gpus=0
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
    gpus=$(nvidia-smi -L | grep -c '^GPU' || true)
fi
args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
[ -f build/CMakeCache.txt ] || [ "$gpus" -gt 0 ] || args+=(-DSYMM_CUDA=OFF)
cmake -S . -B build "${args[@]}" >/dev/null
# One target (demo_parts, gpu_demo_parts: libsymm, symmrun, the demo and maybe the GPU demo),
# whose parts make builds side by side.
target=demo_parts
what="libsymm, symmrun and the demo"
if [ "$gpus" -gt 0 ] && [ -d build/tests/gpu/CMakeFiles/gpu_demo.dir ]; then
    target=gpu_demo_parts
    what="libsymm with its GPU part, symmrun, the demo and the GPU demo"
fi
echo "demo.sh: building $what into build/ (scripts/test.sh builds everything)"
cmake --build build -j"$(nproc)" --target "$target"
build/tools/symmrun -n "${1:-4}" build/examples/demo
# With GPUs: the same runtime on GPU PEs (one PE per GPU, at most 2).
if [ "$target" = gpu_demo_parts ]; then
    build/tools/symmrun -n $((gpus < 2 ? gpus : 2)) build/tests/gpu/gpu_demo
fi
