#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# hosts.sh: point-to-point figures of 2 PEs on 2 test hosts (tests/hosts/hosts.sh: network
# namespaces joined by a bridge), in one run beside the same 2 PEs as virtual nodes on one host
# (symmrun --nodes 2, loopback), Open MPI's OpenSHMEM started the same way across the same hosts
# (oshrun -H through the same launch agent), and the floor: one network round trip between the
# hosts, twice the one-way latency of UCX's 8-byte active-message ping-pong (ucx_perftest
# ucp_am_lat) between them; and for bandwidth, one TCP stream between the hosts against one
# over this host's loopback (tcp_stream.c, messages of the case's size): how much of the
# loopback path the veth pairs and the bridge keep, with no library on it. Every side runs on UCX's TCP over the hosts' interface (symm0); the
# benchmark is bench.c, built with symmcc and with oshcc. The set runs HOSTS_ROUNDS times
# (default 3), the sides taking turns, and each side's figure is its best round. Writes
# docs/bench-hosts.md (HOSTS_DOC overrides).
#   bench/hosts.sh [BUILD_DIR]   (default ./build)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=$(cd "${1:-build}" && pwd)
rounds=${HOSTS_ROUNDS:-3}
doc=${HOSTS_DOC:-docs/bench-hosts.md}
cases="put8_quiet g8 fetch_add putmem_4k putmem_1m putmem_16m"
tls=tcp,self
# Not under /tmp: each test host has a /tmp of its own.
work=$build/bench-hosts
enter=$root/tests/hosts/enter.sh

if [ -z "${SYMM_HOSTS_DIR:-}" ]; then
    msg=$(tests/hosts/hosts.sh check) || { echo "$msg"; exit 1; }
    for t in oshcc oshrun ucx_perftest; do
        command -v "$t" >/dev/null || { echo "hosts.sh: $t is missing" >&2; exit 1; }
    done
    rm -rf "$work"
    mkdir -p "$work"
    "$build/symmcc" -O2 -std=c11 -o "$work/bench_symm" bench/bench.c
    cc -O2 -std=c11 -o "$work/tcp_stream" bench/tcp_stream.c
    oshcc -O2 -std=c11 -DBENCH_HAVE_SIGNAL=0 -DBENCH_HAVE_TEAMS=0 -o "$work/bench_osh" bench/bench.c
    exec tests/hosts/hosts.sh run 2 -- "$0" "$@"
fi
read -r h1 h2 <<<"$SYMM_HOSTS"
addr2=$(awk -v h="$h2" '$2 == h {print $1}' "$SYMM_HOSTS_DIR/hosts")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

run_vnodes() {
    UCX_TLS=$tls timeout -k 5 300 "$build/tools/symmrun" -n 2 --nodes 2 "$work/bench_symm" $cases
}
run_hosts() {
    timeout -k 5 300 "$enter" "$h1" mpirun --mca plm_rsh_agent "$enter" -x SYMM_HOSTS_DIR \
        -H "$h1:1,$h2:1" -np 2 --bind-to none -x UCX_TLS=$tls -x UCX_NET_DEVICES=symm0 \
        "$work/bench_symm" $cases
}
run_osh() {
    timeout -k 5 300 "$enter" "$h1" oshrun --allow-run-as-root --mca osc ^rdma \
        --mca plm_rsh_agent "$enter" -x SYMM_HOSTS_DIR -H "$h1:1,$h2:1" -np 2 \
        -x UCX_TLS=$tls -x UCX_NET_DEVICES=symm0 --mca btl self,tcp "$work/bench_osh" $cases
}
# One round trip between the hosts: twice ucx_perftest's one-way active-message latency.
run_floor() {
    local port=$((20000 + RANDOM % 20000)) us
    "$enter" "$h2" "UCX_TLS=$tls UCX_NET_DEVICES=symm0 timeout 120 ucx_perftest -p $port \
        -t ucp_am_lat -s 8 -n 100000" >/dev/null 2>&1 &
    for _ in $(seq 50); do
        us=$("$enter" "$h1" "UCX_TLS=$tls UCX_NET_DEVICES=symm0 timeout 60 ucx_perftest -p $port \
            $addr2 -t ucp_am_lat -s 8 -n 100000" 2>/dev/null | awk '/^Final:/ { print $3 }')
        [ -n "$us" ] && break
        sleep 0.2
    done
    wait
    [ -n "$us" ] && awk -v us="$us" 'BEGIN { printf "case=ucx_rtt value=%.4g unit=ns\n", us * 2000 }'
}

# stream WHERE SIZE: one TCP stream's bandwidth in messages of SIZE bytes (tcp_stream.c), the
# receiver on the second host and the sender on the first (WHERE hosts) or both on this host
# over loopback (WHERE lo).
stream() {
    local port=$((20000 + RANDOM % 20000)) to=$addr2 total=$(($2 >= 1048576 ? 1 << 31 : 1 << 29))
    local srv=("$enter" "$h2") cli=("$enter" "$h1")
    if [ "$1" = lo ]; then srv=(bash -c) cli=(bash -c) to=127.0.0.1; fi
    "${srv[@]}" "timeout 60 $work/tcp_stream recv $to $port $2 $total" >/dev/null 2>&1 &
    "${cli[@]}" "timeout 60 $work/tcp_stream send $to $port $2 $total" |
        sed "s/^case=tcp_[0-9]*/case=tcp_${1}_$3/"
    wait
}
run_bwfloor() {
    local c where
    for c in 4k:4096 1m:1048576 16m:16777216; do
        for where in hosts lo; do stream "$where" "${c#*:}" "${c%%:*}"; done
    done
}

for r in $(seq 1 "$rounds"); do
    for side in vnodes hosts osh floor bwfloor; do
        "run_$side" >"$work/out.$side.$r" 2>"$work/err.$side.$r" ||
            echo "hosts.sh: round $r, $side failed: $(tail -n 2 "$work/err.$side.$r" | xargs)" >&2
    done
    echo "hosts.sh: round $r of $rounds done" >&2
done

# best SIDE CASE: the side's best figure over the rounds (latency: least; bandwidth: most).
best() {
    cat "$work"/out."$1".* 2>/dev/null | awk -v c="$2" '
        { v = ""; u = ""; for (i = 1; i <= NF; i++) { split($i, kv, "=");
            if (kv[1] == "case" && kv[2] != c) next; if (kv[1] == "value") v = kv[2];
            if (kv[1] == "unit") u = kv[2] } if (v == "") next
          if (b == "" || (u == "GB/s" ? v > b : v < b)) b = v }
        END { print b == "" ? "-" : b }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2f", a / b }'; }

floor=$(best floor ucx_rtt)
# show VALUE UNIT: latencies in microseconds, bandwidths in GB/s, two decimals.
show() { awk -v v="$1" -v u="$2" 'BEGIN { if (v == "-") print "-"; else printf "%.2f", u == "ns" ? v / 1000 : v }'; }
rev=$(git rev-parse --short HEAD)
git diff --quiet HEAD -- src bench tests || rev="$rev-dirty"
{
    echo "# 2 PEs on 2 test hosts"
    echo
    echo "Made by \`bench/hosts.sh build\` on $(date -u +%Y-%m-%d) at $rev, $(nproc) CPUs, best of"
    echo "$rounds rounds, the sides taking turns. Every side on UCX's TCP (\`UCX_TLS=$tls\`):"
    echo
    echo "- *virtual nodes*: \`symmrun -n 2 --nodes 2\` on one host, over loopback;"
    echo "- *test hosts*: symm's same 2 PEs on 2 test hosts (\`tests/hosts/hosts.sh\`: network"
    echo "  namespaces joined by a bridge), started by \`mpirun -H h1:1,h2:1\` through the launch"
    echo "  agent \`tests/hosts/enter.sh\`, \`UCX_NET_DEVICES=symm0\`;"
    echo "- *OSHMEM*: Open MPI's OpenSHMEM started the same way across the same hosts"
    echo "  (\`oshrun -H h1:1,h2:1 --mca osc ^rdma --mca btl self,tcp\`, the same UCX settings);"
    echo "- *floor*: one network round trip between the hosts, twice the one-way latency of"
    echo "  \`ucx_perftest -t ucp_am_lat -s 8\` between them: $(show "$floor" ns) us; for"
    echo "  bandwidth, one TCP stream between the hosts over one on this host's loopback, in"
    echo "  messages of the case's size (\`bench/tcp_stream.c\`: the kernel's path alone)."
    echo
    echo "| case | unit | virtual nodes | test hosts | hosts / virtual nodes | floor: hosts / loopback | OSHMEM | symm / OSHMEM | symm / floor |"
    echo "|---|---|---|---|---|---|---|---|---|"
    for c in $cases; do
        unit=ns
        [[ $c == putmem_* ]] && unit=GB/s
        v=$(best vnodes "$c") h=$(best hosts "$c") o=$(best osh "$c")
        f="-" fr="-"
        [ "$unit" = ns ] && f=$(ratio "$h" "$floor")
        if [ "$unit" = GB/s ]; then
            fr=$(ratio "$(best bwfloor "tcp_hosts_${c#putmem_}")" "$(best bwfloor "tcp_lo_${c#putmem_}")")
            f=$(ratio "$(ratio "$h" "$v")" "$fr")
        fi
        echo "| $c | ${unit/ns/us} | $(show "$v" "$unit") | $(show "$h" "$unit") | $(ratio "$h" "$v") | $fr | $(show "$o" "$unit") | $(ratio "$h" "$o") | $f |"
    done
    echo
    echo "Targets: on test hosts against virtual nodes, put + quiet, g and fetch-add within 1.1x and"
    echo "bandwidth at least 0.9x; against OSHMEM on the same hosts, latency at most 0.9x or within"
    echo "1.05x of the floor, bandwidth at least 1.0x (bandwidth: a ratio above 1 is faster;"
    echo "latency: below 1). For bandwidth the last column is symm's hosts / virtual nodes over"
    echo "the TCP streams' hosts / loopback."
} >"$doc"
echo "hosts.sh: wrote $doc"
