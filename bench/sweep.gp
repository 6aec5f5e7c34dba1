# SPDX-License-Identifier: BSD-3-Clause
# sweep.gp: the plot of bench.c's size sweep, drawn by compare.sh: on the left the latency of a
# put completed by a quiet and of a get against message size, on the right put bandwidth against
# message size, symm and OSHMEM side by side. compare.sh sets `dir` (one file per library and
# kernel, IMPL.sweep_KERNEL, of lines `bytes value`, sorted by bytes), `out` (the PNG) and
# `title` (the configuration it was measured in).

if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 1400,560 font "Sans,11" noenhanced
} else {
    set terminal png size 1400,560 noenhanced
}
set output out

# symm in blue, OSHMEM in orange; puts solid, gets dashed.
set linetype 1 lc rgb "#1f5fa8" lw 2 pt 7 ps 0.8 dt solid
set linetype 2 lc rgb "#e07b00" lw 2 pt 7 ps 0.8 dt solid
set linetype 3 lc rgb "#1f5fa8" lw 2 pt 9 ps 0.9 dt (6, 4)
set linetype 4 lc rgb "#e07b00" lw 2 pt 9 ps 0.9 dt (6, 4)

f(name) = dir . "/" . name

set multiplot layout 1, 2 title title
set logscale x 2
set logscale y 10
# Tics at 1, 2 and 5 of each decade.
set ytics ()
do for [e = -4:4] {
    set ytics add (10.0**e, 2 * 10.0**e, 5 * 10.0**e)
}
set grid xtics ytics lc rgb "#cccccc"
set key top left box opaque reverse Left width 2
set xlabel "message size (bytes)"
set format y "%g"

set title "latency (lower is better)"
set ylabel "microseconds"
set xrange [6:87381]
set xtics ("8" 8, "64" 64, "512" 512, "4K" 4096, "32K" 32768, "64K" 65536)
plot f("symm.sweep_put_quiet") using 1:($2 / 1000) with linespoints lt 1 title "symm putmem + quiet", \
     f("osh.sweep_put_quiet") using 1:($2 / 1000) with linespoints lt 2 title "OSHMEM putmem + quiet", \
     f("symm.sweep_get") using 1:($2 / 1000) with linespoints lt 3 title "symm getmem", \
     f("osh.sweep_get") using 1:($2 / 1000) with linespoints lt 4 title "OSHMEM getmem"

set title "putmem bandwidth (higher is better)"
set ylabel "GB/s (decimal)"
set xrange [6:22369621]
set xtics ("8" 8, "64" 64, "512" 512, "4K" 4096, "32K" 32768, "256K" 262144, "2M" 2097152, \
    "16M" 16777216)
plot f("symm.sweep_putmem") using 1:2 with linespoints lt 1 title "symm putmem", \
     f("osh.sweep_putmem") using 1:2 with linespoints lt 2 title "OSHMEM putmem"

unset multiplot
