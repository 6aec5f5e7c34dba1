#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds symm from scratch into build/ and runs every test: unit tests, the API tests at
# 1, 2, 3, 4 and 8 PEs, the launcher, error and fault tests.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
jobs=$(nproc)
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSYMM_WERROR="${SYMM_WERROR:-ON}" >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs" --timeout 120
