# SPDX-License-Identifier: BSD-3-Clause
# sweep.gp: the plot of bench.c's size sweep, drawn by compare.sh: on the left the latency of a
# put completed by a quiet and of a get against message size, on the right put bandwidth against
# message size, up to three sides (libraries, or one library over different networks) side by
# side. compare.sh sets `dir` (one file per side and kernel, SIDE.sweep_KERNEL, of lines
# `bytes value`, sorted by bytes), `out` (the PNG) and `title` (the configuration it was measured
# in), and may set `sides` (the SIDE names, default "symm osh") and `names` (how the key names
# them, in the same order, a name of several words in double quotes; default "symm OSHMEM") and
# `colors` (each side's colour, 1 blue, 2 orange, 3 green; default "1 2 3"), so that a side keeps
# its colour in a plot where another is missing.

if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 1400,560 font "Sans,11" noenhanced
} else {
    set terminal png size 1400,560 noenhanced
}
set output out
if (!exists("sides")) sides = "symm osh"
if (!exists("names")) names = "symm OSHMEM"
if (!exists("colors")) colors = "1 2 3"

# The first side in blue, the second in orange, the third in green; puts solid (linetypes 1-3),
# gets dashed (4-6).
set linetype 1 lc rgb "#1f5fa8" lw 2 pt 7 ps 0.8 dt solid
set linetype 2 lc rgb "#e07b00" lw 2 pt 7 ps 0.8 dt solid
set linetype 3 lc rgb "#2a9d4b" lw 2 pt 7 ps 0.8 dt solid
set linetype 4 lc rgb "#1f5fa8" lw 2 pt 9 ps 0.9 dt (6, 4)
set linetype 5 lc rgb "#e07b00" lw 2 pt 9 ps 0.9 dt (6, 4)
set linetype 6 lc rgb "#2a9d4b" lw 2 pt 9 ps 0.9 dt (6, 4)

f(i, kernel) = dir . "/" . word(sides, i) . "." . kernel
n = words(sides)
c(i) = int(word(colors, i))

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
plot for [i = 1:n] f(i, "sweep_put_quiet") using 1:($2 / 1000) with linespoints lt c(i) \
         title word(names, i) . " putmem + quiet", \
     for [i = 1:n] f(i, "sweep_get") using 1:($2 / 1000) with linespoints lt c(i) + 3 \
         title word(names, i) . " getmem"

set title "putmem bandwidth (higher is better)"
set ylabel "GB/s (decimal)"
set xrange [6:22369621]
set xtics ("8" 8, "64" 64, "512" 512, "4K" 4096, "32K" 32768, "256K" 262144, "2M" 2097152, \
    "16M" 16777216)
plot for [i = 1:n] f(i, "sweep_putmem") using 1:2 with linespoints lt c(i) \
         title word(names, i) . " putmem"

unset multiplot
