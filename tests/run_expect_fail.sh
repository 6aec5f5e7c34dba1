#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
#
# run_expect_fail.sh [OPTION]... -- COMMAND [ARGS...]
# Runs one job (symmrun, mpirun, another launcher or a program alone) and judges how it ended.
# It must fail, that is exit non-zero, unless --status says which status it must have:
#   --status N            exit status N exactly (0: a job that must succeed)
#   --regex RE            a line of the combined output matches RE (grep -E); any number of these
#   --reject RE           no line matches RE
#   --once RE             exactly one line matches RE
#   --stdin TEXT          TEXT and a newline on the job's stdin (else /dev/null)
#   --signal SIG --when RE  send SIG to COMMAND once a line of its output matches RE
# When it is over no process of the job may be left (every process started from here carries a
# unique SYMM_TEST_MARKER in its environment) and nothing may be left in /dev/shm. Where a
# private mount namespace can be made (unshare -m), the job gets a /dev/shm of its own that
# must be empty when it ends; elsewhere the shared /dev/shm is compared before and after, and
# a new file that no process holds counts as left behind (SYMM_EXPECT_SHARED_SHM=1 forces
# this way).

set -u
me=run_expect_fail.sh
regexes=""
rejects=""
onces=""
want_status=""
input=""
sig=""
when=""
nl='
'
while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || [ "$1" = -- ] || { echo "$me: $1 needs a value" >&2; exit 2; }
    case $1 in
    --regex) regexes="$regexes$2$nl"; shift 2 ;;
    --reject) rejects="$rejects$2$nl"; shift 2 ;;
    --once) onces="$onces$2$nl"; shift 2 ;;
    --status) want_status=$2; shift 2 ;;
    --stdin) input=$2; shift 2 ;;
    --signal) sig=$2; shift 2 ;;
    --when) when=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "$me: unknown option $1" >&2; exit 2 ;;
    esac
done
[ $# -gt 0 ] || { echo "$me: no command" >&2; exit 2; }
case ${sig:+s}${when:+w} in
s | w) echo "$me: --signal and --when go together" >&2; exit 2 ;;
esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/symm-expect.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
marker="symm-expect-$$-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')"
ls -A /dev/shm 2>/dev/null | sort >"$tmp/shm.before"
in=/dev/null
if [ -n "$input" ]; then
    in=$tmp/in
    printf '%s\n' "$input" >"$in"
fi

# The job runs in the background; $tmp/pid names COMMAND's own process, the one a signal is for.
private=0
if [ -z "${SYMM_EXPECT_SHARED_SHM:-}" ] &&
    unshare -m sh -c 'mount -t tmpfs tmpfs /dev/shm' 2>/dev/null; then
    private=1
    SYMM_EXPECT_SHM_LEFT="$tmp/shm.left" SYMM_EXPECT_PID="$tmp/pid" unshare -m sh -c '
        mount -t tmpfs -o mode=1777,size=50% symm-test-shm /dev/shm
        "$@" <&3 3<&- &
        echo $! >"$SYMM_EXPECT_PID"
        wait $!
        status=$?
        ls -A /dev/shm >"$SYMM_EXPECT_SHM_LEFT"
        exit $status' sh env SYMM_TEST_MARKER="$marker" "$@" >"$tmp/out" 2>&1 3<"$in" &
    job=$!
else
    env SYMM_TEST_MARKER="$marker" "$@" >"$tmp/out" 2>&1 <"$in" &
    job=$!
    echo $job >"$tmp/pid"
fi

fail=0
problem() {
    echo "$me: FAIL: $*" >>"$tmp/problems"
    fail=1
}

# Whether process $1 still runs (a zombie does not: it waits for the shell to collect it).
running() {
    state=$(sed -e 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)
    [ -n "$state" ] && [ "$state" != Z ]
}

# --signal: once the output matches (within 30 s), the signal goes to COMMAND.
if [ -n "$sig" ]; then
    tries=0
    until [ -s "$tmp/pid" ] && grep -Eq -e "$when" "$tmp/out"; do
        if ! running $job; then
            problem "the job ended before its output matched '$when'"
            break
        fi
        tries=$((tries + 1))
        if [ $tries -gt 600 ]; then
            problem "the output did not match '$when' within 30 s"
            kill -KILL "$(cat "$tmp/pid")" 2>/dev/null
            break
        fi
        sleep 0.05
    done
    [ $fail -eq 0 ] && kill -s "$sig" "$(cat "$tmp/pid")"
fi
wait $job
status=$?
cat "$tmp/out"
echo "$me: exit status $status"

if [ -z "$want_status" ]; then
    [ "$status" -ne 0 ] || problem "the command succeeded"
elif [ "$status" -ne "$want_status" ]; then
    problem "exit status $status, want $want_status"
fi
printf '%s' "$regexes" | while IFS= read -r re; do
    grep -Eq -e "$re" "$tmp/out" || echo "no line matches: $re"
done >"$tmp/missing"
printf '%s' "$rejects" | while IFS= read -r re; do
    grep -Eq -e "$re" "$tmp/out" && echo "a line matches the rejected: $re"
done >>"$tmp/missing"
printf '%s' "$onces" | while IFS= read -r re; do
    n=$(grep -Ec -e "$re" "$tmp/out")
    [ "$n" -eq 1 ] || echo "$n lines match '$re', want exactly one"
done >>"$tmp/missing"
while IFS= read -r line; do problem "$line"; done <"$tmp/missing"

# Processes of the job: anything still running with the marker. A process killed a moment ago
# may still be on its way out; wait a bounded time for it (SYMM_EXPECT_GRACE tenths of a
# second, 100 unless set).
marked() {
    grep -lsxzF "SYMM_TEST_MARKER=$marker" /proc/[0-9]*/environ |
        sed -e 's|^/proc/||' -e 's|/environ$||'
}
left=$(marked)
tries=0
while [ -n "$left" ] && [ $tries -lt "${SYMM_EXPECT_GRACE:-100}" ]; do
    sleep 0.1
    tries=$((tries + 1))
    left=$(marked)
done
if [ -n "$left" ]; then
    for pid in $left; do
        problem "process $pid of the job is still running: $({ tr '\0' ' ' <"/proc/$pid/cmdline"; } 2>/dev/null)"
    done
    for pid in $left; do kill -9 "$pid" 2>/dev/null; done
fi

# Files the job left in /dev/shm: in its own, anything; in the shared one, files new since the
# start that nobody has open or mapped.
if [ $private -eq 1 ]; then
    while IFS= read -r f; do
        problem "the job left /dev/shm/$f behind"
    done <"$tmp/shm.left"
    [ -f "$tmp/shm.left" ] || problem "the job's /dev/shm was not listed"
    : >"$tmp/shm.new"
else
    ls -A /dev/shm 2>/dev/null | sort >"$tmp/shm.after"
    comm -13 "$tmp/shm.before" "$tmp/shm.after" >"$tmp/shm.new"
fi
while IFS= read -r f; do
    held=0
    for ref in /proc/[0-9]*/fd/* /proc/[0-9]*/maps; do
        case $ref in
        */maps) grep -qF "/dev/shm/$f" "$ref" 2>/dev/null && held=1 ;;
        *) [ "$(readlink "$ref" 2>/dev/null)" = "/dev/shm/$f" ] && held=1 ;;
        esac
        [ $held -eq 1 ] && break
    done
    [ $held -eq 0 ] && problem "the job left /dev/shm/$f behind"
done <"$tmp/shm.new"

[ -f "$tmp/problems" ] && cat "$tmp/problems"
[ $fail -eq 0 ] && echo "$me: ok"
exit $fail
