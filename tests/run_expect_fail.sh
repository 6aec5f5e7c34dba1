#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run_expect_fail.sh [--regex RE]... [--reject RE]... [--status N] -- COMMAND [ARGS...]
# Runs a job that must fail: COMMAND must exit non-zero (N exactly, with --status), its combined
# output must have a line matching every --regex (grep -E) and none matching any --reject, and
# when it is over no process of the job may be left (every process started from here carries a
# unique SYMM_TEST_MARKER in its environment) and nothing may be left in /dev/shm. Where a
# private mount namespace can be made (unshare -m), the job gets a /dev/shm of its own that
# must be empty when it ends; elsewhere the shared /dev/shm is compared before and after, and
# a new file that no process holds counts as left behind (SYMM_EXPECT_SHARED_SHM=1 forces
# this way).

set -u
regexes=""
rejects=""
want_status=""
nl='
'
while [ $# -gt 0 ]; do
    case $1 in
    --regex) regexes="$regexes$2$nl"; shift 2 ;;
    --reject) rejects="$rejects$2$nl"; shift 2 ;;
    --status) want_status=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "run_expect_fail.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[ $# -gt 0 ] || { echo "run_expect_fail.sh: no command" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/symm-expect.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
marker="symm-expect-$$-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')"
ls -A /dev/shm 2>/dev/null | sort >"$tmp/shm.before"

private=0
if [ -z "${SYMM_EXPECT_SHARED_SHM:-}" ] &&
    unshare -m sh -c 'mount -t tmpfs tmpfs /dev/shm' 2>/dev/null; then
    private=1
    SYMM_EXPECT_SHM_LEFT="$tmp/shm.left" unshare -m sh -c '
        mount -t tmpfs -o mode=1777,size=50% symm-test-shm /dev/shm
        "$@"
        status=$?
        ls -A /dev/shm >"$SYMM_EXPECT_SHM_LEFT"
        exit $status' sh env SYMM_TEST_MARKER="$marker" "$@" >"$tmp/out" 2>&1 </dev/null
    status=$?
else
    env SYMM_TEST_MARKER="$marker" "$@" >"$tmp/out" 2>&1 </dev/null
    status=$?
fi
cat "$tmp/out"
echo "run_expect_fail.sh: exit status $status"

fail=0
problem() {
    echo "run_expect_fail.sh: FAIL: $*"
    fail=1
}

if [ "$status" -eq 0 ]; then
    problem "the command succeeded"
elif [ -n "$want_status" ] && [ "$status" -ne "$want_status" ]; then
    problem "exit status $status, want $want_status"
fi
printf '%s' "$regexes" | while IFS= read -r re; do
    grep -Eq -e "$re" "$tmp/out" || echo "no line matches: $re"
done >"$tmp/missing"
printf '%s' "$rejects" | while IFS= read -r re; do
    grep -Eq -e "$re" "$tmp/out" && echo "a line matches the rejected: $re"
done >>"$tmp/missing"
if [ -s "$tmp/missing" ]; then
    while IFS= read -r line; do problem "$line"; done <"$tmp/missing"
fi

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

[ $fail -eq 0 ] && echo "run_expect_fail.sh: ok"
exit $fail
