#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Turns the output of bench/perftest/run.sh (OUT: nvshmem/ and symm/, each with build.log and
# results.txt) into a page and a plot: one row per program, arguments, measure and size, with
# NVSHMEM's figure, symm's and symm's advantage (symm/NVSHMEM for bandwidths, NVSHMEM/symm for
# latencies and times: above 1 symm is better). Needs awk; the plot needs gnuplot.
#   bench/perftest/report.sh OUT [DOC]
set -u
out=${1:?usage: bench/perftest/report.sh OUT [DOC]}
doc=${2:-docs/bench-nvshmem-perftest.md}
png=${doc%.md}.png
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# rows SIDE: "program|args|measure|size<TAB>value<TAB>unit<TAB>better" for every figure.
rows() {
    [ -f "$out/$1/results.txt" ] || return 0
    awk -F'\t' '
        /^#### exit/ { next }
        /^#### / { prog = $0; sub(/^#### /, "", prog); args = prog; sub(/^[^ ]* ?/, "", args)
                   sub(/ .*/, "", prog); next }
        /^&&&& PERF / {
            n = split($0, w, " ")
            key = w[3]; value = w[4]; unit = w[5]
            better = substr(unit, 1, 1); unit = substr(unit, 2)
            split(key, part, "___")
            size = part[3]; sub(/^size__/, "", size)
            measure = part[1] "/" part[2] "/" part[4]
            printf "%s|%s|%s|%s\t%s\t%s\t%s\n", prog, args, measure, size, value, unit, better
        }' "$out/$1/results.txt"
}
rows nvshmem | sort -t'	' -k1,1 >"$work/nv"
rows symm | sort -t'	' -k1,1 >"$work/sy"
join -t'	' -a1 -a2 -e '-' -o 0,1.2,2.2,1.3,2.3,1.4,2.4 "$work/nv" "$work/sy" |
    awk -F'\t' '{
        split($1, k, "|")
        unit = $4 != "-" ? $4 : $5; better = $6 != "-" ? $6 : $7
        adv = "-"
        if ($2 != "-" && $3 != "-" && $2 > 0 && $3 > 0)
            adv = sprintf("%.2f", better == "+" ? $3 / $2 : $2 / $3)
        printf "%s\t%s\t%s\t%012d\t%s\t%s\t%s\t%s\t%s\n", k[1], k[2], k[3], k[4], unit, $2, $3, adv, better
    }' | sort -t'	' -k1,1 -k2,2 -k3,3 -k4,4 >"$work/table"

built() { grep -c "^OK" "$out/$1/build.log" 2>/dev/null || echo 0; }
failed() { grep "^FAIL" "$out/$1/build.log" 2>/dev/null | sed 's/^FAIL *//' | tr '\n' ' '; }
{
    echo "# NVSHMEM's perftests, NVSHMEM 3.4.5 and symm"
    echo
    echo "NVSHMEM's own performance tests (the \`perftest/\` folder of its source at the tag of the"
    echo "installed release), built unchanged against the installed NVSHMEM and against symm's"
    echo "\`nvshmem.h\`, run one after the other on the same GPUs in one call of"
    echo "[bench/perftest/run.sh](../bench/perftest/run.sh); this page is written by"
    echo "[bench/perftest/report.sh](../bench/perftest/report.sh). *Advantage* is symm's figure over"
    echo "NVSHMEM's for bandwidths and NVSHMEM's over symm's for latencies: above 1, symm is faster."
    echo
    echo "## Machine and run"
    echo
    sed 's/^/    /' "$out/machine.txt"
    echo
    echo "## Builds"
    echo
    echo "| side | built | failed to build |"
    echo "|---|---|---|"
    for s in nvshmem symm; do echo "| $s | $(built $s) | $(failed $s) |"; done
    echo
    echo "## Summary per program"
    echo
    echo "| program | arguments | rows with both | advantage: least | median | most |"
    echo "|---|---|---|---|---|---|"
    awk -F'\t' '$8 != "-" { k = $1 "\t" $2; v[k] = v[k] " " $8 } END { for (k in v) print k "\t" v[k] }' \
        "$work/table" | sort | while IFS='	' read -r prog args vals; do
        # shellcheck disable=SC2086 # one value a word
        printf '%s\n' $vals | sort -g | awk -v p="$prog" -v a="$args" '{ x[NR] = $1 }
            END { printf "| %s | %s | %d | %.2f | %.2f | %.2f |\n", p, a, NR, x[1], x[int((NR + 1) / 2)], x[NR] }'
    done
    echo
    echo "## Every row"
    echo
    echo "| program | arguments | measure | size (B) | unit | NVSHMEM | symm | advantage |"
    echo "|---|---|---|---|---|---|---|---|"
    awk -F'\t' '{ printf "| %s | %s | %s | %d | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8 }' "$work/table"
} >"$doc"

# The plot: put bandwidth and the ping-pong latencies against size, both sides.
pick() { awk -F'\t' -v p="$1" -v a="$2" -v col="$3" '$1 == p && $2 == a && $col != "-" { print $4 + 0, $col }' "$work/table" | sort -n; }
pick shmem_put_bw "-n 200 -w 20 -c 4 -t 1024 -e 32M" 6 >"$work/bw.nv"
pick shmem_put_bw "-n 200 -w 20 -c 4 -t 1024 -e 32M" 7 >"$work/bw.sy"
pick shmem_put_signal_ping_pong_latency "$(awk -F'\t' '$1 == "shmem_put_signal_ping_pong_latency" { print $2; exit }' "$work/table")" 6 >"$work/lat.nv"
pick shmem_put_signal_ping_pong_latency "$(awk -F'\t' '$1 == "shmem_put_signal_ping_pong_latency" { print $2; exit }' "$work/table")" 7 >"$work/lat.sy"
if command -v gnuplot >/dev/null && [ -s "$work/bw.sy" ]; then
    gnuplot <<EOF
set terminal pngcairo size 1200,480 font ",10"
set output "$png"
set multiplot layout 1,2
set logscale x 2
set format x "%.0s%cB"
set key top left
set grid
set title "shmem\\_put\\_bw: device put bandwidth (4 blocks x 1024 threads)"
set xlabel "message size"
set ylabel "GB/s"
plot "$work/bw.nv" using 1:2 with linespoints title "NVSHMEM 3.4.5", \
     "$work/bw.sy" using 1:2 with linespoints title "symm"
set title "shmem\\_put\\_signal\\_ping\\_pong\\_latency: round trip"
set ylabel "us"
set logscale y
plot "$work/lat.nv" using 1:2 with linespoints title "NVSHMEM 3.4.5", \
     "$work/lat.sy" using 1:2 with linespoints title "symm"
unset multiplot
EOF
fi
echo "report.sh: wrote $doc$( [ -f "$png" ] && echo " and $png")" >&2
