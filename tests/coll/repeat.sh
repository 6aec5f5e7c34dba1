#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# repeat.sh [--load] [--count N] BUILD_DIR [CTEST_ARGS...]
# Runs the collective tests (ctest label coll) N times (default 20) in BUILD_DIR, optionally
# with both cores kept busy by two spinning shells for the whole time, and prints each run's
# slowest test and how often each test failed. Extra arguments go to ctest (e.g. -E NAME to leave a test out). Exits
# non-zero when any run failed.

set -u
count=20
load=0
while [ $# -gt 0 ]; do
    case $1 in
    --load) load=1; shift ;;
    --count) count=$2; shift 2 ;;
    *) break ;;
    esac
done
if [ $# -eq 0 ]; then
    echo "usage: repeat.sh [--load] [--count N] BUILD_DIR [CTEST_ARGS...]" >&2
    exit 2
fi
build=$1
shift

spinners=""
child=""
stop_spinners() {
    for pid in $spinners; do kill "$pid" 2>/dev/null; done
    spinners=""
}
cleanup() {
    [ -n "$child" ] && kill "$child" 2>/dev/null
    stop_spinners
    [ -n "${log:-}" ] && rm -f "$log" "$log.run"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if [ $load -eq 1 ]; then
    for i in 1 2; do
        sh -c 'while :; do :; done' &
        spinners="$spinners $!"
    done
fi

log=$(mktemp "${TMPDIR:-/tmp}/symm-coll-repeat.XXXXXX") || exit 2
bad=0
i=1
while [ $i -le "$count" ]; do
    start=$(date +%s)
    ctest --test-dir "$build" -L coll -j2 "$@" >"$log.run" 2>&1 &
    child=$!
    if wait "$child"; then
        verdict=ok
    else
        verdict=FAILED
        bad=$((bad + 1))
        grep -E '^ *[0-9]+ - ' "$log.run" | sed 's/^ *[0-9]* - //' >>"$log"
    fi
    child=""
    slowest=$(grep -E 'Test +#' "$log.run" | awk '{print $(NF-1), $4}' | sort -rn | head -1 |
        awk '{print $2 ", " $1 " s"}')
    echo "run $i/$count: $verdict ($(($(date +%s) - start)) s, load $load; slowest $slowest)"
    i=$((i + 1))
done
stop_spinners
if [ -s "$log" ]; then
    echo "failures by test:"
    sort "$log" | uniq -c | sort -rn
fi
echo "repeat.sh: $bad of $count runs failed"
[ $bad -eq 0 ]
