#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Every level SYMM_LOG_LEVEL lists works: tests/nodes/levels.c on 2 PEs in 2 virtual nodes at
# each level, under SHMEM_DEBUG=1; each level's own line appears at that level and above and
# never below it (error: no line of symm's at all).
#   levels.sh SYMMRUN PROG
set -u
symmrun=$1
prog=$2
# level:the line it adds (a basic regular expression on a "symm: [pe N ...]" line)
cases='warn:shmem_malloc(size=[0-9]*): symmetric heap exhausted on pe
info:shmem_init: pe [0-9]* of 2 on
info:ucx: [0-9]* endpoints opened to
debug:the [a-z]* bootstrap started pe
debug:shmem_malloc(size=8): the block at offset
debug:shmem_team_split: a team of 2 PEs
trace:ucx endpoint [0-9]* opened, to pe'
rank() {
    case $1 in error) echo 0 ;; warn) echo 1 ;; info) echo 2 ;; debug) echo 3 ;; trace) echo 4 ;; esac
}
fail=0
for level in error warn info debug trace; do
    out=$(SHMEM_DEBUG=1 SYMM_LOG_LEVEL=$level UCX_TLS=${UCX_TLS:-tcp,self} \
        "$symmrun" -n 2 --nodes 2 --timeout 60 "$prog" 2>&1)
    status=$?
    if [ "$status" -ne 0 ] || [ "$(printf '%s\n' "$out" | grep -c '^levels: pe [01]: done$')" -ne 2 ]; then
        echo "FAIL: level $level: the job failed (status $status):"
        printf '%s\n' "$out"
        fail=1
        continue
    fi
    symm_lines=$(printf '%s\n' "$out" | grep -c '^symm: \[pe ')
    if [ "$level" = error ] && [ "$symm_lines" -ne 0 ]; then
        echo "FAIL: level error: symm wrote $symm_lines lines:"
        printf '%s\n' "$out"
        fail=1
    fi
    printf '%s\n' "$cases" | while IFS=: read -r at re; do
        n=$(printf '%s\n' "$out" | grep -c "^symm: \[pe [01] .*\] .*$re")
        if [ "$(rank "$at")" -le "$(rank "$level")" ]; then
            [ "$n" -gt 0 ] || { echo "FAIL: level $level: no $at line '$re'"; exit 1; }
        else
            [ "$n" -eq 0 ] || { echo "FAIL: level $level: $n $at lines '$re'"; exit 1; }
        fi
    done || fail=1
    echo "level $level: $symm_lines lines of symm's, as the level asks"
done
exit $fail
