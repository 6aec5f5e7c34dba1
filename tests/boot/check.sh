#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
#
# Runs one command (a symmrun job) and checks how it ended: its exit status, patterns in its
# combined output, and that no process of the job is left afterwards. Every process of the job
# carries a unique SYMM_TEST_MARK in its environment; that is how leftovers are found.
#
# usage: check.sh [-s STATUS] [-e REGEX]... [-x REGEX]... [-1 REGEX] [-i TEXT]
#                 [-k SIGNAL -w REGEX] -- command [args...]
#   -s  expected exit status (default 0)
#   -e  must appear in the output        -x  must not appear
#   -1  must match exactly one line      -i  TEXT (and a newline) on stdin, else /dev/null
#   -k  send SIGNAL to the command once its output matches the -w REGEX
status=0 input= sig= waitre= must= mustnot= once=
nl='
'
while [ $# -gt 0 ]; do
    case $1 in
    -s) status=$2; shift 2 ;;
    -e) must="$must$2$nl"; shift 2 ;;
    -x) mustnot="$mustnot$2$nl"; shift 2 ;;
    -1) once=$2; shift 2 ;;
    -i) input=$2; shift 2 ;;
    -k) sig=$2; shift 2 ;;
    -w) waitre=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "check.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
done

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out in=/dev/null
if [ -n "$input" ]; then
    in=$tmp/in
    printf '%s\n' "$input" >"$in"
fi
mark=symm-test-$$-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')

fail() {
    echo "check.sh: FAILED: $*" >&2
    echo "---- output of: $cmd" >&2
    cat "$out" >&2
    exit 1
}

cmd="$*"
env SYMM_TEST_MARK="$mark" "$@" <"$in" >"$out" 2>&1 &
pid=$!
if [ -n "$sig" ]; then
    tries=0
    until grep -Eq -- "$waitre" "$out"; do
        tries=$((tries + 1))
        [ $tries -gt 600 ] && { kill -KILL $pid; fail "output never matched '$waitre'"; }
        sleep 0.05
    done
    kill -s "$sig" $pid
fi
wait $pid
got=$?

left=$(grep -las -- "SYMM_TEST_MARK=$mark" /proc/[0-9]*/environ)
[ -z "$left" ] || fail "processes of the job are still there: $left"
[ "$got" -eq "$status" ] || fail "exit status $got, expected $status"
printf '%s' "$must" | while IFS= read -r re; do
    grep -Eq -- "$re" "$out" || { echo "missing: $re" >&2; exit 1; }
done || fail "output lacks a pattern"
printf '%s' "$mustnot" | while IFS= read -r re; do
    ! grep -Eq -- "$re" "$out" || { echo "unexpected: $re" >&2; exit 1; }
done || fail "output has an unexpected pattern"
if [ -n "$once" ]; then
    n=$(grep -Ec -- "$once" "$out")
    [ "$n" -eq 1 ] || fail "$n lines match '$once', expected exactly one"
fi
cat "$out"
exit 0
