#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
#
# Connections on first use: runs neighbours.c (each PE talks to its ring neighbours only) with
# NP PEs in NODES virtual nodes, one node per PE or more, under SYMM_LOG_LEVEL=info, and checks
# every PE's report line and its transport's count at finalize, `ucx: N endpoints opened to M
# peers`: no PE may have opened more than 1 + ceil(log2 NODES). A PE opens endpoints to the
# neighbours that live on other nodes and, when it leads its node, to its partners in the
# barrier's dissemination rounds among the nodes' first PEs (node j's PE tells node j + 2^k's,
# k < ceil(log2 NODES)). A leader's right neighbour is on its own node or is the next node's
# leader, its first partner; a PE that leads no node has at most one neighbour elsewhere. Hence
# 1 + ceil(log2 NODES) at most, where connecting to every PE of other nodes at start opens
# NP - 1 with one PE a node (8 PEs in 8 nodes: 4, against 7).
#
# Usage: neighbours.sh SYMMRUN PROGRAM NP NODES   (UCX_TLS from the environment, else tcp,self)
set -eu

symmrun=$1 prog=$2 np=$3 nodes=$4
rounds=0 reach=1
while [ "$reach" -lt "$nodes" ]; do
    reach=$((reach * 2))
    rounds=$((rounds + 1))
done
bound=$((1 + rounds))

status=0
out=$(SYMM_LOG_LEVEL=info UCX_TLS=${UCX_TLS:-tcp,self} \
    "$symmrun" -n "$np" --nodes "$nodes" --timeout 60 "$prog" 2>&1) || status=$?
printf '%s\n' "$out"
fail() {
    echo "FAIL: $*"
    exit 1
}
[ "$status" -eq 0 ] || fail "the job exited with status $status"
reports=$(printf '%s\n' "$out" | grep -c '^neighbours: pe [0-9]*: [0-9]* checks, 0 failures$' ||
    true)
[ "$reports" -eq "$np" ] || fail "$reports of $np PEs report their checks passed"
line='^symm: \[pe \([0-9]*\) .*\] ucx: \([0-9]*\) endpoints opened to \([0-9]*\) peers$'
counts=$(printf '%s\n' "$out" | sed -n "s/$line/\\1 \\2 \\3/p")
[ "$(printf '%s\n' "$counts" | grep -c .)" -eq "$np" ] ||
    fail "not every one of $np PEs printed its count of endpoints"
printf '%s\n' "$counts" | {
    most=0
    while read -r pe eps peers; do
        [ "$eps" -le "$bound" ] && [ "$peers" -le "$bound" ] ||
            fail "pe $pe opened $eps endpoints to $peers peers, more than $bound"
        [ "$eps" -gt "$most" ] && most=$eps
    done
    echo "neighbours: at most $most endpoints a PE, bound $bound ($np PEs in $nodes nodes)"
}
