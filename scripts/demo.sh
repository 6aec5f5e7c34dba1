#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds symm and runs the demo job on 4 PEs.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
exec build/tools/symmrun -n "${1:-4}" build/examples/demo
