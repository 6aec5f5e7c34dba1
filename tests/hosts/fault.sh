#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A network fault under a running job over test hosts (job.sh), and what must follow:
#   fault.sh MODE HxP BOUND PROGRAM [ARGS]
#   link   the last host's link goes down at the switch: the job ends non-zero within BOUND
#          seconds, with symm's report naming that host and its PEs;
#   kill   every process of the last host is killed (SIGKILL): the same, where the report may
#          instead be mpirun's, naming the host whose daemon it lost: the launcher's daemon dies
#          with the PEs, and mpirun, hearing of it at once, may end the job before a PE of the
#          other hosts has heard of the loss;
#   flap   the last host's link goes down for 1 s and comes back: the job either completes
#          (status 0, the program's closing line) or ends as under `link`, never with a wrong
#          value, within BOUND seconds of the fault;
#   stop   one PE of the last host is stopped (SIGSTOP) under mpirun's --timeout BOUND: the job
#          ends at the timeout with mpirun's report.
# In every mode no process of the job may be left on any host afterwards. The program must
# print "stream: pe N round R" lines (tests/hosts/stream.c) so the fault comes while it streams.
# Every wait is bounded; the hosts and anything on them are removed on any exit (hosts.sh run).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=$1 shape=$2 bound=$3
shift 3
[[ "$shape" =~ ^([0-9]+)x([0-9]+)$ ]] || { echo "fault.sh: shape HxP, not '$shape'" >&2; exit 2; }
nhosts=${BASH_REMATCH[1]} ppn=${BASH_REMATCH[2]}
prog=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
if [ -z "${SYMM_HOSTS_DIR:-}" ]; then
    exec "$here/hosts.sh" run "$nhosts" -- "$0" "$mode" "$shape" "$bound" "$prog" "$@"
fi
read -r -a names <<<"$SYMM_HOSTS"
victim=${names[$((nhosts - 1))]}
first_pe=$(( (nhosts - 1) * ppn )) last_pe=$(( nhosts * ppn - 1 ))
log=$(mktemp)
trap 'rm -f "$log"' EXIT

fail() {
    echo "fault.sh: $mode: $*"
    echo "---- the job's output"
    tail -n 40 "$log"
    exit 1
}

now() { date +%s.%N; }
elapsed() { awk -v a="$(now)" -v b="$1" 'BEGIN { printf "%.2f", a - b }'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }

# Processes on a host other than the one that holds its namespaces.
left_on() {
    local holder
    holder=$(awk -v h="$1" '$1 == h {print $3}' "$SYMM_HOSTS_DIR/names")
    "$here/hosts.sh" pids "$SYMM_HOSTS_DIR" "$1" | grep -vx "$holder" || true
}

pes_on() {
    for h in "$@"; do
        left_on "$h"
    done | while read -r p; do
        cmd=$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null || true)
        [[ "$cmd" == "$prog "* ]] && echo "$p"
    done
}
limit=$((bound * 4 + 60))
start=$(now)
if [ "$mode" = stop ]; then
    "$here/job.sh" "$shape" -t "$limit" --mpirun-timeout "$bound" "$prog" "$@" >"$log" 2>&1 &
else
    "$here/job.sh" "$shape" -t "$limit" "$prog" "$@" >"$log" 2>&1 &
fi
job=$!

# The fault comes once every PE of the victim host has streamed a while.
for _ in $(seq 1 600); do
    seen=0
    for pe in $(seq "$first_pe" "$last_pe"); do
        grep -q "^stream: pe $pe round 16$" "$log" && seen=$((seen + 1))
    done
    [ "$seen" -eq "$ppn" ] && break
    kill -0 "$job" 2>/dev/null || fail "the job ended before the fault"
    sleep 0.05
done
[ "$seen" -eq "$ppn" ] || fail "the job did not stream within 30 s"

t0=$(now)
case "$mode" in
link) "$here/hosts.sh" cut "$SYMM_HOSTS_DIR" "$victim" ;;
flap)
    "$here/hosts.sh" cut "$SYMM_HOSTS_DIR" "$victim"
    sleep 1
    "$here/hosts.sh" uncut "$SYMM_HOSTS_DIR" "$victim"
    ;;
kill) left_on "$victim" | xargs -r kill -9 ;;
stop)
    pid=$(pes_on "$victim" | awk 'NR == 1')
    [ -n "$pid" ] || fail "no PE found on $victim"
    kill -STOP "$pid"
    ;;
*) echo "fault.sh: mode link, kill, flap or stop, not '$mode'" >&2; exit 2 ;;
esac

# The PEs must stop within the bound (those of the lost host aside, which may not hear of
# it), and the job end soon after (mpirun waits for its daemon on a lost host as long as TCP
# retransmits, hosts.sh bounds that); the stop mode: at its timeout, counted from its start.
survivors=("${names[@]}")
[ "$mode" = link ] && unset "survivors[$((nhosts - 1))]"
status="" took=""
for _ in $(seq 1 $((limit * 10))); do
    if [ -z "$took" ] && [ -z "$(pes_on "${survivors[@]}")" ]; then
        took=$(elapsed "$t0")
    fi
    if ! kill -0 "$job" 2>/dev/null; then
        set +e
        wait "$job"
        status=$?
        set -e
        break
    fi
    sleep 0.1
done
ended=$(elapsed "$t0")
[ -n "$took" ] || took=$ended
[ -n "$status" ] || { kill -9 "$job" 2>/dev/null; fail "the job still ran $ended s after the fault"; }
grep -q "wrong value" "$log" && fail "a wrong value was read"
echo "fault.sh: $mode on $victim (pes $first_pe-$last_pe): the PEs stopped $took s after the fault, the job $ended s after it, status $status"

case "$mode" in
link | kill)
    [ "$status" -ne 0 ] || fail "the job exited 0"
    le "$took" "$bound" || fail "the PEs stopped $took s after the fault, more than $bound"
    report="^symm: \[pe [0-9]+ .*\] .*host $victim \(pes? $first_pe(-$last_pe)?\)"
    [ "$mode" = kill ] && report+="|^ *Remote daemon: .* on node $victim\$"
    grep -Eq "$report" "$log" || fail "no report naming host $victim and its PEs"
    ;;
flap)
    if [ "$status" -eq 0 ]; then
        grep -q "all checks right" "$log" || fail "status 0 without the closing line"
    else
        grep -Eq "^symm: \[pe [0-9]+ .*\] .*host $victim \(pes? $first_pe(-$last_pe)?\)" "$log" ||
            fail "the job failed without a report naming host $victim"
    fi
    ;;
stop)
    [ "$status" -ne 0 ] || fail "the job exited 0"
    total=$(elapsed "$start")
    grep -qi "timeout\|timed out" "$log" || fail "no timeout report"
    le "$total" "$((bound + 15))" || fail "the job ended $total s after it started, its timeout $bound s"
    ;;
esac

# Nothing of the job is left on any host.
for _ in $(seq 1 50); do
    left=""
    for h in "${names[@]}"; do
        [ -n "$(left_on "$h")" ] && left+=" $h"
    done
    [ -z "$left" ] && break
    sleep 0.1
done
[ -z "$left" ] || fail "processes left on$left: $(for h in $left; do left_on "$h"; done | xargs)"
tail -n 3 "$log"
echo "fault.sh: $mode: passed"
