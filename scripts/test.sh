#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds symm from scratch into build/ and runs every test: unit tests, the API tests at
# 1, 2, 3, 4 and 8 PEs, the launcher, error and fault tests; then builds the library and the
# thread tests with ThreadSanitizer (build-tsan/) and runs those.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
jobs=$(nproc)
# Everything, the GPU part too where nvcc is found (scripts/demo.sh may have left it out).
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSYMM_WERROR="${SYMM_WERROR:-ON}" \
    -DSYMM_CUDA="${SYMM_CUDA:-ON}" >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs" --timeout 120

# ThreadSanitizer: the library and the multi-threaded test programs.
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSYMM_SANITIZE=thread \
    -DSYMM_CUDA=OFF >/dev/null
cmake --build build-tsan -j"$jobs" --target symm symmrun sync_threads sync_ctx
ctest --test-dir build-tsan --output-on-failure -j"$jobs" --timeout 300 -R '^sync_(threads|ctx)_'
