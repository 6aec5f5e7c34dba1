#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Starts a program over test hosts as torchrun starts one on each machine of a job: P processes
# on each of H hosts, RANK, WORLD_SIZE, LOCAL_RANK and LOCAL_WORLD_SIZE in their environment,
# and a file (in the run's folder, which the hosts share as machines share a file system; not
# /tmp, which each host has of its own) through which rank 0's unique id reaches the others.
# Exits with the first non-zero status among them, or 124 when they outlive SECONDS.
#   uid.sh HxP [-t SECONDS] PROGRAM [ARGS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shape=$1
shift
[[ "$shape" =~ ^([0-9]+)x([0-9]+)$ ]] || { echo "uid.sh: shape HxP, not '$shape'" >&2; exit 2; }
hosts=${BASH_REMATCH[1]} ppn=${BASH_REMATCH[2]}
limit=60
if [ "${1:-}" = -t ]; then
    limit=$2
    shift 2
fi
prog=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
if [ -z "${SYMM_HOSTS_DIR:-}" ]; then
    exec "$here/hosts.sh" run "$hosts" -- "$0" "$shape" -t "$limit" "$prog" "$@"
fi
read -r -a names <<<"$SYMM_HOSTS"
n=$((hosts * ppn))
pids=()
for ((r = 0; r < n; r++)); do
    env="RANK=$r WORLD_SIZE=$n LOCAL_RANK=$((r % ppn)) LOCAL_WORLD_SIZE=$ppn"
    env+=" SYMM_TEST_ID_FILE=$SYMM_HOSTS_DIR/uid SYMM_TEST_HOSTS=$hosts"
    "$here/enter.sh" "${names[$((r / ppn))]}" "exec env $env $prog $*" &
    pids+=($!)
done
status=0
for _ in $(seq 1 $((limit * 20))); do
    left=0
    for i in "${!pids[@]}"; do
        if kill -0 "${pids[$i]}" 2>/dev/null; then
            left=$((left + 1))
            continue
        fi
        set +e
        wait "${pids[$i]}"
        s=$?
        set -e
        unset "pids[$i]"
        [ "$s" -ne 0 ] && [ "$status" -eq 0 ] && status=$s
    done
    [ "$left" -eq 0 ] && exit "$status"
    sleep 0.05
done
echo "uid.sh: processes still running after $limit s" >&2
exit 124
