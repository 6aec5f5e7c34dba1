#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# before_after.sh: one source change's cost, in one sitting. Runs bench/compare.sh (this
# checkout's benchmark, so both sides run the same bench.c) against the symm of OLD_BUILD, then
# against that of NEW_BUILD, each beside Open MPI's OpenSHMEM as usual, and writes every row
# of the two runs side by side to docs/bench-before-after.md (BA_DOC overrides): symm before
# and after and their ratio, OSHMEM's figure in each run and its ratio, which is the run-to-run
# noise of that row on this machine at that time.
#   bench/before_after.sh OLD_BUILD NEW_BUILD [LABEL_OLD LABEL_NEW]
# Environment: what bench/compare.sh takes (BENCH_ROUNDS, BENCH_ROWS, ...); BA_DOC; BA_PAGES=
# "OLD_PAGE NEW_PAGE" joins two pages compare.sh wrote before instead of running it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
[ $# -ge 2 ] || { echo "usage: bench/before_after.sh OLD_BUILD NEW_BUILD [LABEL_OLD LABEL_NEW]" >&2; exit 2; }
old=$1 new=$2 lold=${3:-before} lnew=${4:-after}
doc=${BA_DOC:-$root/docs/bench-before-after.md}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "${BA_PAGES:-}" ]; then
    read -r pold pnew <<<"$BA_PAGES"
else
    pold=$work/old.md pnew=$work/new.md
    BENCH_DOC=$pold "$here/compare.sh" "$old"
    BENCH_DOC=$pnew "$here/compare.sh" "$new"
fi
# The figures table of a page: measure|PEs|unit|symm|OSHMEM, one row a line.
rows() {
    awk -F'|' '/^\| measure \| PEs \|/ { on = 1; next } on && /^\|---/ { next }
        on && /^\|/ { for (i = 2; i <= 6; i++) gsub(/^ +| +$/, "", $i);
                      print $2 "|" $3 "|" $4 "|" $5 "|" $6; next }
        on { on = 0 }' "$1"
}
rows "$pold" >"$work/a"
rows "$pnew" >"$work/b"
{
    cat <<EOT
# One change's cost: symm $lold and $lnew, in one sitting

Every row of [bench/compare.sh](../bench/compare.sh) (see [bench-cpu.md](bench-cpu.md) for how
each figure is made), run once against symm $lold and once against symm $lnew, one after the
other on the same machine, both runs building the same benchmark source; Open MPI's
OpenSHMEM (OSHMEM) runs in both, unchanged, so its ratio is the run-to-run noise of each row.
For latencies and times lower is better, for bandwidths higher. Made by

    ${BENCH_ROUNDS:+BENCH_ROUNDS=$BENCH_ROUNDS }bench/before_after.sh OLD_BUILD NEW_BUILD "$lold" "$lnew"

| measure | PEs | unit | symm $lold | symm $lnew | $lnew/$lold | OSHMEM, 1st run | OSHMEM, 2nd run | 2nd/1st |
|---|---|---|---|---|---|---|---|---|
EOT
    awk -F'|' 'function r(x, y) { return (x + 0 > 0 && y + 0 > 0) ? sprintf("%.2f", y / x) : "n/a" }
        NR == FNR { k = $1 "|" $2; s[k] = $4; o[k] = $5; next }
        { k = $1 "|" $2; if (!(k in s)) next
          printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, s[k], $4,
                 r(s[k], $4), o[k], $5, r(o[k], $5) }' "$work/a" "$work/b"
} >"$doc"
echo "before_after: wrote $doc ($(grep -c '^| ' "$doc") lines)"
