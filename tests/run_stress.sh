#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run_stress.sh BUILD_DIR [ROUNDS] [--load] [ctest options...]
# Runs the whole suite ROUNDS times (default 10) with ctest -j2 and reports every round that
# had a failure; with --load, one busy loop per CPU runs beside it the whole time. Exits
# non-zero when any round failed. The tests must not depend on timing, so a loaded machine
# may make them slower but never make them fail.

set -u
build=${1:?usage: run_stress.sh BUILD_DIR [ROUNDS] [--load] [ctest options...]}
shift
rounds=10
case ${1:-} in [0-9]*) rounds=$1; shift ;; esac
load=0
if [ "${1:-}" = "--load" ]; then load=1; shift; fi

hogs=""
stop_hogs() {
    for pid in $hogs; do kill "$pid" 2>/dev/null; done
}
trap stop_hogs EXIT
trap 'exit 130' INT TERM
if [ $load -eq 1 ]; then
    cpus=$(getconf _NPROCESSORS_ONLN)
    i=0
    while [ $i -lt "$cpus" ]; do
        sh -c 'while :; do :; done' &
        hogs="$hogs $!"
        i=$((i + 1))
    done
fi

failed=0
r=1
while [ $r -le "$rounds" ]; do
    start=$(date +%s)
    if ctest --test-dir "$build" -j2 --output-on-failure "$@" >"$build/stress-$r.log" 2>&1; then
        echo "round $r: ok ($(( $(date +%s) - start )) s)"
        rm -f "$build/stress-$r.log"
    else
        echo "round $r: FAILED ($(( $(date +%s) - start )) s), see $build/stress-$r.log:"
        grep -E '^\s+[0-9]+ - ' "$build/stress-$r.log"
        failed=$((failed + 1))
    fi
    r=$((r + 1))
done
echo "$failed of $rounds rounds failed"
[ $failed -eq 0 ]
