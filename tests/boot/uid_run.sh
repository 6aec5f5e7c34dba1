#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Starts N processes of a program as torchrun does (RANK, WORLD_SIZE, LOCAL_RANK,
# LOCAL_WORLD_SIZE in the environment), with a fresh file to pass the unique id through, and
# exits with the first non-zero status among them (0 when all succeed).
#   uid_run.sh [--kill] N program [args]
# --kill: when one process fails, stop the others (as torchrun does). Without it the job must
# end by itself: processes still running after 20 s are killed and the status is 124.
kill_rest=0
if [ "$1" = "--kill" ]; then
    kill_rest=1
    shift
fi
n=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export SYMM_TEST_ID_FILE="$dir/id" WORLD_SIZE="$n" LOCAL_WORLD_SIZE="$n"
pids=()
for ((r = 0; r < n; r++)); do
    RANK=$r LOCAL_RANK=$r "$@" &
    pids+=($!)
done
# bash reaps its children as they end and keeps their status for wait.
status=0
left=$n
while [ "$left" -gt 0 ]; do
    if [ "$SECONDS" -ge 20 ]; then
        echo "uid_run.sh: processes still running after 20 s" >&2
        kill -9 "${pids[@]}" 2>/dev/null
        wait 2>/dev/null
        exit 124
    fi
    sleep 0.05
    for i in "${!pids[@]}"; do
        kill -0 "${pids[$i]}" 2>/dev/null && continue
        wait "${pids[$i]}"
        s=$?
        unset "pids[$i]"
        left=$((left - 1))
        if [ "$s" -ne 0 ] && [ "$status" -eq 0 ]; then
            status=$s
            [ "$kill_rest" = 1 ] && kill -9 "${pids[@]}" 2>/dev/null
        fi
    done
done
exit "$status"
