#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The folders of src/ form one order with no way back up: api -> coll -> sync -> core -> tl and
# boot (those two side by side). This reads the library's object files (each in a folder named
# as its source folder; a transport's, under tl/NAME, counts as tl) and fails, naming the symbol
# and the files, where a folder refers to a symbol defined in a folder above it or beside it,
# or where an object lies in a folder that has no place in the order.
#   tests/layers/check.sh OBJECT...
set -eu
[ $# -gt 0 ] || { echo "usage: check.sh OBJECT..." >&2; exit 2; }
nm=${NM:-nm}
for f in "$@"; do
    # The folder below the last src/ of the object's path.
    p=/$f
    rest=${p##*/src/}
    folder=${rest%%/*}
    [ "$rest" != "$p" ] && [ "$folder" != "$rest" ] || folder=none
    echo "O $folder x $f"
    "$nm" -g --defined-only "$f" | awk -v d="$folder" -v f="$f" 'NF == 3 {print "D", d, $3, f}'
    "$nm" -u "$f" | awk -v d="$folder" -v f="$f" '{print "U", d, $NF, f}'
done | awk '
BEGIN { rank["api"] = 0; rank["coll"] = 1; rank["sync"] = 2; rank["core"] = 3;
        rank["tl"] = 4; rank["boot"] = 4 }
$1 == "O" { if (!($2 in rank)) stray[$4] = $2; next }
$1 == "D" { def[$3] = $2; where[$3] = $4; next }
{ use[++n] = $0 }
END {
    bad = 0
    for (f in stray) {
        if (stray[f] == "none")
            printf "layers: %s lies in no folder of src/\n", f
        else
            printf "layers: %s lies in folder %s, which has no place in the order\n", f, stray[f]
        bad++
    }
    for (i = 1; i <= n; i++) {
        split(use[i], u, " ")
        from = u[2]; sym = u[3]
        if (!(sym in def) || !(from in rank)) continue
        to = def[sym]
        if (to == from || !(to in rank)) continue
        if (rank[to] <= rank[from]) {
            printf "layers: %s refers to %s, defined in %s (%s), a folder %s it\n", \
                u[4], sym, to, where[sym], rank[to] < rank[from] ? "above" : "beside"
            bad++
        }
    }
    if (bad) exit 1
    print "layers: api -> coll -> sync -> core -> tl, boot: no reference back up"
}'
