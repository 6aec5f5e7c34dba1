#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# expect_fail.sh [--regex RE]... -- COMMAND [ARGS...]
# Runs a job that must fail: COMMAND must exit non-zero, and not by running into the launcher's
# timeout (status 124), and its combined output must have, for every --regex, a line that
# matches it (grep -E). The output is printed either way, then the verdict.

set -u
regexes=""
nl='
'
while [ $# -gt 0 ]; do
    case $1 in
    --regex) regexes="$regexes$2$nl"; shift 2 ;;
    --) shift; break ;;
    *) echo "expect_fail.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[ $# -gt 0 ] || { echo "expect_fail.sh: no command" >&2; exit 2; }

out=$(mktemp "${TMPDIR:-/tmp}/symm-sync-expect.XXXXXX") || exit 2
trap 'rm -f "$out"' EXIT
"$@" >"$out" 2>&1 </dev/null
status=$?
cat "$out"
echo "expect_fail.sh: exit status $status"

fail=0
if [ "$status" -eq 0 ]; then
    echo "expect_fail.sh: FAIL: the command succeeded"
    fail=1
elif [ "$status" -eq 124 ]; then
    echo "expect_fail.sh: FAIL: the job hung until its timeout instead of failing"
    fail=1
fi
missing=$(printf '%s' "$regexes" | while IFS= read -r re; do
    grep -Eq -e "$re" "$out" || echo "expect_fail.sh: FAIL: no line matches: $re"
done)
if [ -n "$missing" ]; then
    echo "$missing"
    fail=1
fi
[ $fail -eq 0 ] && echo "expect_fail.sh: ok"
exit $fail
