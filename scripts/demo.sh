#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds symm and runs the demo job on 4 PEs (and, on a machine with GPUs, the GPU demo).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
build/tools/symmrun -n "${1:-4}" build/examples/demo
# With GPUs: the same runtime on GPU PEs (one PE per GPU, at most 2).
if [ -x build/tests/gpu/gpu_demo ] && command -v nvidia-smi >/dev/null &&
    nvidia-smi -L >/dev/null 2>&1; then
    g=$(nvidia-smi -L | wc -l)
    build/tools/symmrun -n $((g < 2 ? g : 2)) build/tests/gpu/gpu_demo
fi
