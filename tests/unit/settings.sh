#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Every setting is in the table (src/base/params.def) and shown by symminfo: no source of the
# library or its tools reads a SYMM_ or SHMEM_ variable by name (only the table's parser reads
# the environment), every such variable that symmcc and the Python package read is a row,
# and symminfo prints every row.
#   settings.sh SOURCE_DIR SYMMINFO
set -u
src=$1
symminfo=$2
fail=0
table=$(sed -n 's/^SYMM_PARAM([a-z_]*, [A-Z]*, [A-Z]*, "\([A-Z_]*\)".*/\1/p' "$src/src/base/params.def")
[ "$(printf '%s\n' "$table" | grep -c .)" -ge 20 ] || { echo "FAIL: the table has too few rows"; exit 1; }
bare=$(grep -rnE 'getenv\("(SYMM|SHMEM)_' "$src/src" "$src/tools" || true)
if [ -n "$bare" ]; then
    echo "FAIL: read by name, not through the table:"
    printf '%s\n' "$bare"
    fail=1
fi
used=$( (grep -ohE '\$\{?SYMM_[A-Z_]+' "$src/tools/symmcc.in" | tr -d '${'
    grep -ohE 'environ(\.get|\.setdefault)?[[(]"(SYMM|SHMEM)_[A-Z_]+' "$src"/python/symm/*.py |
        sed 's/.*"//') | sort -u)
[ -n "$used" ] || { echo "FAIL: found no variable read by symmcc or the Python package"; exit 1; }
for v in $used; do
    printf '%s\n' "$table" | grep -qx "$v" || { echo "FAIL: $v is read but not in the table"; fail=1; }
done
info=$("$symminfo" 2>&1) || { echo "FAIL: symminfo failed: $info"; exit 1; }
for v in $table; do
    printf '%s\n' "$info" | grep -q "^  $v " || { echo "FAIL: symminfo does not show $v"; fail=1; }
done
[ $fail -eq 0 ] && echo "settings: $(printf '%s\n' "$table" | wc -l) rows, every one shown; $(echo $used | wc -w) read by the tools, all in the table"
exit $fail
