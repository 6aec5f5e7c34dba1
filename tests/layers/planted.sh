#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# check.sh must fail on what it is there to catch: a copy of src/ with a core header planted
# in it that includes a header of coll and declares a function of sync, and two headers of
# core that include each other, is checked against the library's objects; each fault must be
# named.
#   tests/layers/planted.sh SRC_DIR OBJECT...
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cp -R "$src" "$tmp/src"
printf '#include "coll/coll.h"\nvoid symm_team_barrier(symm_team_t *t);\n' > "$tmp/src/core/planted.h"
printf '#include "core/planted_b.h"\n' > "$tmp/src/core/planted_a.h"
printf '#include "core/planted_a.h"\n' > "$tmp/src/core/planted_b.h"
if "$here/check.sh" --src "$tmp/src" "$@" > "$tmp/out" 2>&1; then
    cat "$tmp/out"
    echo "planted: check.sh passed a tree with planted faults" >&2
    exit 1
fi
status=0
for want in \
    'core/planted.h includes coll/coll.h, a header of folder coll above it' \
    'core/planted.h declares symm_team_barrier, defined in sync' \
    'core/planted_[ab].h includes core/planted_[ab].h, which includes it back'; do
    if ! grep -q "layers: $want" "$tmp/out"; then
        echo "planted: check.sh did not say: $want" >&2
        status=1
    fi
done
[ "$(wc -l < "$tmp/out")" -eq 3 ] || { echo "planted: more than the planted faults:" >&2; status=1; }
cat "$tmp/out"
exit $status
