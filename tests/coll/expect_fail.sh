#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# expect_fail.sh [--regex RE]... [--reject RE]... -- COMMAND [ARGS...]
# Runs a job that must fail: COMMAND must exit non-zero, and its combined output must have a
# line matching every --regex (grep -E) and none matching any --reject (a job that only ran
# into its time limit did not fail the way a test wants). Prints the output and the verdict.

set -u
regexes=""
rejects=""
nl='
'
while [ $# -gt 0 ]; do
    case $1 in
    --regex) regexes="$regexes$2$nl"; shift 2 ;;
    --reject) rejects="$rejects$2$nl"; shift 2 ;;
    --) shift; break ;;
    *) echo "expect_fail.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[ $# -gt 0 ] || { echo "expect_fail.sh: no command" >&2; exit 2; }

out=$(mktemp "${TMPDIR:-/tmp}/symm-coll-fail.XXXXXX") || exit 2
trap 'rm -f "$out"' EXIT
"$@" >"$out" 2>&1 </dev/null
status=$?
cat "$out"
echo "expect_fail.sh: exit status $status"

fail=0
if [ "$status" -eq 0 ]; then
    echo "expect_fail.sh: FAIL: the command succeeded"
    fail=1
fi
while IFS= read -r re; do
    [ -n "$re" ] || continue
    if ! grep -Eq -e "$re" "$out"; then
        echo "expect_fail.sh: FAIL: no line matches: $re"
        fail=1
    fi
done <<EOF
$regexes
EOF
while IFS= read -r re; do
    [ -n "$re" ] || continue
    if grep -Eq -e "$re" "$out"; then
        echo "expect_fail.sh: FAIL: a line matches the rejected: $re"
        fail=1
    fi
done <<EOF
$rejects
EOF
[ $fail -eq 0 ] && echo "expect_fail.sh: ok"
exit $fail
