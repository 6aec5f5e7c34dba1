#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The folders of src/ form one order with no way back up: api -> coll -> sync -> core -> tl and
# boot (those two side by side) -> base, which every folder may use and which uses nothing of
# symm. This checks the order three ways and fails, naming the files, where:
#   - symbols: a library object (each in a folder named as its source folder; a transport's,
#     under tl/NAME, counts as tl) refers to a symbol defined in a folder above it or beside
#     it, or lies in a folder that has no place in the order;
#   - includes (with --src DIR, the src/ folder): a source or header includes a header of a
#     folder above it or beside it, or the files of one folder include each other in a circle;
#   - prototypes (with --src): a header declares a function that an object of a folder above
#     the header's defines (what lives above core is declared in that folder's own header).
#   tests/layers/check.sh [--src DIR] OBJECT...
set -eu
src=""
if [ "${1:-}" = --src ]; then
    src=$2
    shift 2
fi
[ $# -gt 0 ] || { echo "usage: check.sh [--src DIR] OBJECT..." >&2; exit 2; }
nm=${NM:-nm}
{
for f in "$@"; do
    # The folder below the last src/ of the object's path.
    p=/$f
    rest=${p##*/src/}
    folder=${rest%%/*}
    [ "$rest" != "$p" ] && [ "$folder" != "$rest" ] || folder=none
    echo "O $folder x $f"
    "$nm" -g --defined-only "$f" | awk -v d="$folder" -v f="$f" 'NF == 3 {print "D", d, $3, f}'
    "$nm" -u "$f" | awk -v d="$folder" -v f="$f" '{print "U", d, $NF, f}'
done
if [ -n "$src" ]; then
    # I folder file included: every quoted include of a file under src/.
    # P folder file function: every function a header declares at file scope.
    find "$src" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.in' \) |
        sort | xargs awk -v root="$src" '
            FNR == 1 { f = substr(FILENAME, length(root) + 2); d = f; sub(/\/.*/, "", d) }
            /^[ \t]*#[ \t]*include[ \t]*"/ {
                s = $0; sub(/^[^"]*"/, "", s); sub(/".*/, "", s)
                if (index(s, "/") && (getline junk < (root "/" s)) >= 0) {
                    close(root "/" s); print "I", d, f, s
                }
                next
            }
            f ~ /\.h$/ && /^(extern )?[A-Za-z_][A-Za-z0-9_ \t\*]*[ \t\*]symm_[A-Za-z0-9_]+\(/ &&
                !/^(static|typedef|#)/ {
                s = $0; sub(/\(.*/, "", s); sub(/.*[ \t\*]/, "", s)
                print "P", d, f, s
            }'
fi
} | awk '
BEGIN { rank["api"] = 0; rank["coll"] = 1; rank["sync"] = 2; rank["core"] = 3;
        rank["tl"] = 4; rank["boot"] = 4; rank["base"] = 5 }
function where_of(to, from) { return rank[to] < rank[from] ? "above" : "beside" }
# Depth-first search of the include graph of one folder: a file met again on the path closes
# a circle.
function visit(v, path,    i, w) {
    state[v] = 1
    for (i = 1; i <= nout[v]; i++) {
        w = out[v, i]
        if (state[w] == 1) {
            printf "layers: %s includes %s, which includes it back (%s -> %s)\n", v, w, path, w
            bad++
        } else if (state[w] == 0) {
            visit(w, path " -> " w)
        }
    }
    state[v] = 2
}
$1 == "O" { if (!($2 in rank)) stray[$4] = $2; next }
$1 == "D" { def[$3] = $2; where[$3] = $4; next }
$1 == "I" { inc[++ni] = $0; next }
$1 == "P" { proto[++np] = $0; next }
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
                u[4], sym, to, where[sym], where_of(to, from)
            bad++
        }
    }
    for (i = 1; i <= ni; i++) {
        split(inc[i], u, " ")
        from = u[2]; file = u[3]; h = u[4]; to = h; sub(/\/.*/, "", to)
        if (!(from in rank)) {
            printf "layers: %s lies in folder %s, which has no place in the order\n", file, from
            bad++
            continue
        }
        if (to == from) {
            if (!((file, h) in seen)) {
                seen[file, h] = 1; out[file, ++nout[file]] = h
            }
            continue
        }
        if (!(to in rank) || rank[to] <= rank[from]) {
            printf "layers: %s includes %s, a header of folder %s %s it\n", file, h, to, \
                (to in rank) ? where_of(to, from) : "outside the order, not below"
            bad++
        }
    }
    for (i = 1; i <= ni; i++) {
        split(inc[i], u, " ")
        if (state[u[3]] == 0) visit(u[3], u[3])
    }
    for (i = 1; i <= np; i++) {
        split(proto[i], u, " ")
        from = u[2]; file = u[3]; sym = u[4]
        if (!(sym in def) || !(from in rank) || !(def[sym] in rank)) continue
        if (rank[def[sym]] < rank[from]) {
            printf "layers: %s declares %s, defined in %s (%s), a folder above it\n", file, \
                sym, def[sym], where[sym]
            bad++
        }
    }
    if (bad) exit 1
    print "layers: api -> coll -> sync -> core -> tl, boot -> base: no reference, include or", \
        "declaration back up"
}'
