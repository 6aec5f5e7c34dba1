# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=bash
# compare_ofi.sh: the rows of bench/compare.sh over libfabric, sourced by compare.sh, whose
# settings and helpers (run, value, features, note, need, sweep_points, the number formats) it
# uses; `bench/compare.sh ofi` runs these rows alone, a whole run (without BENCH_ROWS) after its
# own. Three sides in one run, taking turns at each configuration, on bench.c's cases across 2
# virtual nodes (4 PEs for the barrier):
# - symm over libfabric: `SYMM_NET=ofi`, the provider from FI_PROVIDER; left out, with a note,
#   while symminfo lists no ofi transport;
# - symm over UCX: `SYMM_NET=ucx`, UCX_TLS as compare.sh's rows across virtual nodes;
# - Sandia OpenSHMEM (SOS) 1.5, built by bench/sos.sh (SOS_PREFIX names another installation)
#   and started by its oshrun over Open MPI's mpirun, with the same FI_PROVIDER: it has no
#   on-node path, so all of its PEs reach each other through libfabric, as PEs of different
#   nodes would; left out, with a note, while it is not built.
# Beside them the provider's own figures between two processes (bench/ofi_rtt.c), the floor of
# the round-trip rows, run OFI_PROBES times a round (default 1). The provider is
# BENCH_FI_PROVIDER (default tcp;ofi_rxm). Each side's figure is its best round, as in
# compare.sh. Writes the section "## Over libfabric" of the page (replacing the page's own, else
# before its floors): the figures and their ratios, the targets, the floors, a PNG of the size
# sweep of the three sides (bench-cpu-ofi.png beside the page) and the part's raw lines.

fi_prov=${BENCH_FI_PROVIDER:-tcp;ofi_rxm}
sos_prefix=${SOS_PREFIX:-$here/.sos/install}
ofi_probes=${OFI_PROBES:-1}
ofi_plot=${doc%.md}-ofi.png
ofi_sweep_at=2n2

# case|PEs|targets|what is measured, as compare.sh's ROWS; the targets are judged on symm over
# libfabric: sos<=R (over SOS's figure; >= for bandwidths) or floor:NAME<=R (over the floor NAME
# of this run), or:TARGET an alternative that stands for the others when met.
OFI_ROWS='put8_quiet|2n2|sos<=0.9 or:floor:ofi_write8<=1.05|shmem_long_p of 8 B + shmem_quiet, latency
g8|2n2|sos<=0.9 or:floor:ofi_read8<=1.05|shmem_long_g of 8 B, latency
fetch_add|2n2|sos<=0.9 or:floor:ofi_fetch_add<=1.05|shmem_long_atomic_fetch_add on PE 1, latency
putmem_4k|2n2|sos>=1.0|shmem_putmem of 4 KiB, bandwidth
putmem_1m|2n2|sos>=1.0|shmem_putmem of 1 MiB, bandwidth
putmem_16m|2n2|sos>=1.0|shmem_putmem of 16 MiB, bandwidth
barrier_all|4n2|sos<=0.7|shmem_barrier_all, latency'

# floor|case it is shown beside|what it is (bench/ofi_rtt.c's cases)
OFI_FLOORS='ofi_write8|put8_quiet|an 8-B fi_write with FI_DELIVERY_COMPLETE, awaited: a round trip
ofi_read8|g8|an 8-B fi_read, awaited
ofi_fetch_add|fetch_add|fi_fetch_atomic of FI_SUM on an FI_UINT64, awaited
ofi_pingpong||8 B sent with fi_inject and answered alike, the round trip (shown, bounds no row)
ofi_write_4k|putmem_4k|a stream of 4-KiB fi_write, the last with FI_DELIVERY_COMPLETE, all awaited, with 1, 8 or 64 in flight, the best
ofi_write_1m|putmem_1m|the same of 1 MiB
ofi_write_16m|putmem_16m|the same of 16 MiB'

ofi_sides=()
have_probe=no

# ofi_build: builds bench.c for each side that can run (ofi_sides) and the floor's probe.
ofi_build() {
    local nets
    if [ ! -x "$build/symmcc" ] || [ ! -x "$build/tools/symmrun" ]; then
        note "symm: no $build/symmcc or $build/tools/symmrun; build symm first (cmake -S . -B build && cmake --build build); symm's rows over libfabric and UCX left out"
    else
        nets=$("$build/tools/symminfo" 2>/dev/null | grep '^transports:' || true)
        features symm "$build/symmcc"
        if "$build/symmcc" "${cflags[@]}" "${defs[@]}" -o "$work/bench_ucx" "$here/bench.c"; then
            ln -sf bench_ucx "$work/bench_ofi"
            if grep -qw ofi <<<"$nets"; then
                ofi_sides+=(ofi)
            else
                note "symm over libfabric: symminfo lists no ofi transport (this build of symm has none); its figures are left out"
            fi
            if grep -qw ucx <<<"$nets"; then
                ofi_sides+=(ucx)
            else
                note "symm over UCX: symminfo lists no ucx transport; its figures are left out"
            fi
        else
            note "symm: symmcc failed to build the benchmark; symm's figures left out"
        fi
    fi
    if [ ! -x "$sos_prefix/bin/oshcc" ] || [ ! -x "$sos_prefix/bin/oshrun" ]; then
        note "SOS: not built (bench/sos.sh SOURCE builds it into bench/.sos; SOS_PREFIX names another installation); its figures are left out"
    else
        features sos "$sos_prefix/bin/oshcc"
        if "$sos_prefix/bin/oshcc" "${cflags[@]}" "${defs[@]}" -o "$work/bench_sos" \
            "$here/bench.c"; then
            ofi_sides+=(sos)
        else
            note "SOS: its oshcc failed to build the benchmark; its figures are left out"
        fi
    fi
    # shellcheck disable=SC2046 # pkg-config's words are the compiler's arguments
    if pkg-config --exists libfabric && cc "${cflags[@]}" -o "$work/ofi_rtt" "$here/ofi_rtt.c" \
        $(pkg-config --cflags --libs libfabric); then
        have_probe=yes
    else
        note "libfabric floor: bench/ofi_rtt.c not built (pkg-config finds no libfabric, Debian's libfabric-dev); the floor is left out"
    fi
}

# ofi_floor ROUND: the probe's figures, tagged as floors of ROUND, OFI_PROBES times (1). One
# launch's figures may differ from the next's by more than its trials differ from each other
# (11 or 15 us over tcp;ofi_rxm on a 2-CPU virtual machine), and each figure is the best of
# its launches: with one probe a round, the floor is the best of as many launches as each side
# gets, where the best of three times as many sat below them by the spread of launches alone.
ofi_floor() {
    local i
    for i in $(seq "$ofi_probes"); do
        if FI_PROVIDER=$fi_prov timeout -k 5 "$run_limit" "$work/ofi_rtt" >"$work/out.ofi_rtt" \
            2>"$work/err.ofi_rtt" && grep -q '^done' "$work/out.ofi_rtt"; then
            grep '^case=' "$work/out.ofi_rtt" | sed "s/^/impl=floor round=$1 /" >>"$results"
            grep -m1 '^info ' "$work/out.ofi_rtt" >"$work/ofi_info"
        else
            note "libfabric floor: bench/ofi_rtt.c failed over FI_PROVIDER='$fi_prov' ($(tail -n 1 "$work/err.ofi_rtt"))"
        fi
    done
}

# ofi_cases SPEC: the cases of the rows at SPEC, and the sweep where it belongs.
ofi_cases() {
    awk -F'|' -v n="$1" '$2 == n && !seen[$1]++ { print $1 }' <<<"$OFI_ROWS"
    if [ "$1" = "$ofi_sweep_at" ]; then echo sweep; fi
}

ofi_runs() {
    local round n impl list
    for round in $(seq "$rounds"); do
        if [ $have_probe = yes ]; then
            say "round $round of $rounds: the libfabric floor"
            ofi_floor "$round"
        fi
        for n in $(awk -F'|' '!seen[$2]++ { print $2 }' <<<"$OFI_ROWS"); do
            mapfile -t list < <(ofi_cases "$n")
            for impl in "${ofi_sides[@]}"; do
                say "round $round: $(name_of "$impl") at $(where "$n"), ${#list[@]} cases"
                run "$round" "$impl" "$n" "${list[@]}"
            done
        done
    done
}

# ofi_draw: the sweep of the sides that ran it, drawn by sweep.gp into $ofi_plot; whether it was.
ofi_draw() {
    local d=$work/sweep.ofi impl sides="" names="" colors="" title
    [ $have_plot = yes ] || return 1
    mkdir -p "$d"
    for impl in "${ofi_sides[@]}"; do
        grep -q "^impl=$impl .*case=sweep_" "$results" || continue
        sweep_points "$d" "$impl" "$ofi_sweep_at"
        sides="$sides $impl"
        names="$names \"$(name_of "$impl")\""
        case $impl in
        ofi) colors="$colors 1" ;;
        ucx) colors="$colors 2" ;;
        *) colors="$colors 3" ;;
        esac
    done
    [ -n "$sides" ] || return 1
    title="$(where "$ofi_sweep_at"), FI_PROVIDER=$fi_prov (symm over UCX: UCX_TLS=$ucx_tls)"
    if ! gnuplot -e "dir='$d'; out='$ofi_plot'; sides='$sides'; names='$names'" \
        -e "colors='$colors'; title='$title'" "$here/sweep.gp" 2>"$work/gnuplot.log"; then
        note "gnuplot: failed to draw the plot over libfabric ($(head -n 3 "$work/gnuplot.log" | tr '\n' ' '))"
        return 1
    fi
}

# ofi_ratio A B: A over B, two decimals (two significant digits below 0.1).
ofi_ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { v = a / b; printf (v < 0.1 ? "%.2g" : "%.2f"), v }'
}

# ofi_row CASE PES TARGETS WHAT: one row of the table; the targets judge symm over libfabric.
ofi_row() {
    local c=$1 n=$2 targets=$3 what=$4
    local o u s f fl unit r_os=n/a r_us=n/a goal="" term q text ok=1 known=1 alt alt_ok=0 verdict
    o=$(value ofi "$c" "$n")
    u=$(value ucx "$c" "$n")
    s=$(value sos "$c" "$n")
    fl=$(awk -F'|' -v c="$c" '$2 == c { print $1; exit }' <<<"$OFI_FLOORS")
    f=""
    if [ -n "$fl" ]; then f=$(value floor "$fl"); fi
    unit=$(unit_of "$c")
    if [ -n "$o" ] && [ -n "$s" ]; then r_os=$(ofi_ratio "$o" "$s"); fi
    if [ -n "$u" ] && [ -n "$s" ]; then r_us=$(ofi_ratio "$u" "$s"); fi
    for term in $targets; do
        alt=0
        if [[ $term == or:* ]]; then
            alt=1
            term=${term#or:}
        fi
        if ! [[ $term =~ ^(sos|floor:([a-z0-9_]+))(<=|>=)([0-9.]+)$ ]]; then
            say "OFI_ROWS: target '$term' of $c is not sos<=R or floor:NAME<=R"
            exit 1
        fi
        local who=${BASH_REMATCH[1]} name=${BASH_REMATCH[2]} op=${BASH_REMATCH[3]}
        local t=${BASH_REMATCH[4]} base
        q=""
        if [ "$who" = sos ]; then
            base=$s
            text="$op ${t}x SOS"
        else
            base=$(value floor "$name")
            text="$op ${t}x floor $name"
        fi
        if [ -n "$o" ] && [ -n "$base" ]; then q=$(div "$o" "$base"); fi
        if [ "$who" != sos ] && [ -n "$q" ]; then text="$text (is $(ofi_ratio "$q" 1)x)"; fi
        if [ $alt = 1 ]; then
            if [ -n "$q" ] && holds "$q" "$op" "$t"; then alt_ok=1; fi
            goal="$goal, or $text"
            continue
        fi
        if [ -z "$q" ]; then
            known=0
        elif ! holds "$q" "$op" "$t"; then
            ok=0
        fi
        goal="${goal:+$goal; }$text"
    done
    if [ $alt_ok = 1 ]; then
        ok=1
        known=1
    fi
    if [ $known = 0 ]; then
        verdict=n/a
    elif [ $ok = 1 ]; then
        verdict=PASS
    else
        verdict=MISS
    fi
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$what" "$(pes_cell "$n")" \
        "$unit" "$(fmt "$o")" "$(fmt "$u")" "$(fmt "$s")" "$(fmt "$f")" "$r_os" "$r_us" "$goal" \
        "$verdict"
}

# ofi_floor_row FLOOR CASE WHAT: a floor beside the three sides' figures at 2 PEs in 2 nodes.
ofi_floor_row() {
    local v unit impl r cells=""
    v=$(value floor "$1")
    unit=$(unit_of "$1")
    for impl in ofi ucx sos; do
        r=n/a
        if [ -n "$2" ] && [ -n "$v" ]; then
            local x
            x=$(value "$impl" "$2" "$ofi_sweep_at")
            if [ -n "$x" ]; then r=$(ofi_ratio "$x" "$v"); fi
        fi
        cells="$cells | $r"
    done
    printf '| %s | %s | %s | %s%s |\n' "$3" "$(fmt "$v")" "$unit" "${2:--}" "$cells"
}

# ofi_section T0 LOAD0: the section of the page, from its heading to its raw lines.
ofi_section() {
    local build_line info fp="FI_PROVIDER='$fi_prov'" sos_version load1
    load1=$(cut -d' ' -f1-3 /proc/loadavg)
    sos_version=$(sed -n 's/^version=//p' "$sos_prefix/share/sos-build.txt" 2>/dev/null || true)
    build_line=$(sed -n 's/^configure=//p' "$sos_prefix/share/sos-build.txt" 2>/dev/null || true)
    info=$(sed 's/^info //' "$work/ofi_info" 2>/dev/null || true)
    echo "## Over libfabric"
    echo
    echo "2 PEs in 2 virtual nodes (4 PEs for the barrier), three sides taking turns in one run"
    echo "of the same bench.c cases: symm over libfabric, symm over UCX, and Sandia OpenSHMEM"
    echo "(SOS) 1.5, whose transport is libfabric. symm's virtual nodes reach each other only over"
    echo "the network, the PEs of one group sharing memory; SOS is built with no on-node path"
    echo "(no XPMEM, no CMA, no memcpy to itself), so all of its PEs reach each other through"
    echo "libfabric, as PEs of different nodes would. symm over libfabric and SOS get the same"
    echo "provider. Beside them, the provider's own figures between two processes with nothing"
    echo "on top ([bench/ofi_rtt.c](../bench/ofi_rtt.c)): the floor of the round trips. Each"
    echo "side's figure is its best of $rounds rounds, one launch each a round (the floor's, of"
    echo "$((rounds * ofi_probes)) launches); ratios are symm over SOS, and the targets"
    echo "judge symm over libfabric. A latency target written \"A, or B\" is met when either"
    echo "holds: the figure may instead sit within 5% of the provider's own figure for the same"
    echo "operation, measured in the same run."
    echo
    echo "- provider: \`$fp\` (BENCH_FI_PROVIDER)${info:+; as ofi_rtt found it: $info}"
    echo "- symm over libfabric: \`SYMM_NET=ofi $fp $(basename "$build")/tools/symmrun -n N --nodes K\`"
    echo "- symm over UCX: \`SYMM_NET=ucx UCX_TLS=$ucx_tls $(basename "$build")/tools/symmrun -n N --nodes K\`"
    if [ -n "$build_line" ]; then
        echo "- SOS $sos_version, built by [bench/sos.sh](../bench/sos.sh) (configure \`$build_line\`), started by \`$fp oshrun --allow-run-as-root -x FI_PROVIDER -np N\` (its oshrun runs the mpirun of Open MPI; \`--oversubscribe\` past $(nproc) PEs)"
    else
        echo "- SOS: built by [bench/sos.sh](../bench/sos.sh) into bench/.sos (not built for this run)"
    fi
    echo "- made by: \`$cmd\` (this part took $((SECONDS - $1)) s), source $source_rev; machine: $(nproc) CPUs, load average (1, 5, 15 min) at the start of this part: $2; at its end: $load1"
    if awk -v l="${2%% *}" -v n="$(nproc)" 'BEGIN { exit !(l > n / 2) }'; then
        echo
        echo "**The machine was busy when this part ran**: the figures are noisy and the ratios"
        echo "uncertain."
    fi
    if [ "$(nproc)" -lt 4 ]; then
        echo
        echo "The barrier's 4 PEs share the $(nproc) CPUs. A waiting SOS PE spins (a pause"
        echo "instruction, never a yield) until the CPU is taken from it, so that a PE it waits for"
        echo "runs only when the kernel's time slice ends; symm's waits give their CPU up when PEs"
        echo "share CPUs. The barrier row shows that cost, which a machine of a CPU per PE would"
        echo "not."
    fi
    echo
    echo "| measure | PEs in nodes | unit | symm over libfabric | symm over UCX | SOS | libfabric floor | libfabric/SOS | UCX/SOS | target (symm over libfabric) | result |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|"
    while IFS='|' read -r c n targets what; do
        ofi_row "$c" "$n" "$targets" "$what"
    done <<<"$OFI_ROWS" >"$work/table.ofi"
    cat "$work/table.ofi"
    echo
    local pass judged unjudged
    pass=$(grep -c '| PASS |$' "$work/table.ofi" || true)
    judged=$(grep -c '| \(PASS\|MISS\|n/a\) |$' "$work/table.ofi" || true)
    unjudged=$(grep -c '| n/a |$' "$work/table.ofi" || true)
    printf 'symm over libfabric meets %s of %s targets' "$pass" "$judged"
    if [ "$unjudged" -gt 0 ]; then printf '; %s not judged (a figure is missing)' "$unjudged"; fi
    echo .
    if [ "${ofi_plotted:-no}" = yes ]; then
        echo
        echo "![latency and bandwidth against message size over libfabric and UCX, $(where "$ofi_sweep_at")]($(basename "$ofi_plot"))"
        echo
        echo "The size sweep at $(where "$ofi_sweep_at") (bench.c's case sweep), PE 0 against PE 1,"
        echo "each point its side's best round: on the left the latency of shmem_putmem followed by"
        echo "shmem_quiet and of shmem_getmem, 8 B to 64 KiB; on the right the bandwidth of a stream"
        echo "of shmem_putmem ended by one shmem_quiet, 8 B to 16 MiB."
    fi
    echo
    echo "The provider's own figures (bench/ofi_rtt.c, two processes pinned to CPUs 0 and 1), and"
    echo "each side's figure at $(where "$ofi_sweep_at") over them. The round trips bound the"
    echo "latencies; the streams, one way of driving the provider hard, are shown for scale (a"
    echo "library's figure may pass them)."
    echo
    echo "| floor | value | unit | beside | symm over libfabric / floor | symm over UCX / floor | SOS / floor |"
    echo "|---|---|---|---|---|---|---|"
    while IFS='|' read -r f c what; do
        ofi_floor_row "$f" "$c" "$what"
    done <<<"$OFI_FLOORS"
    if [ -s "$work/notes.ofi" ]; then
        echo
        echo "Notes from this part:"
        echo
        sed 's/^/- /' "$work/notes.ofi"
    fi
    echo
    echo "Raw lines of this part:"
    echo
    echo '```'
    cat "$results"
    echo '```'
    echo
}

# ofi_splice SECTION: SECTION in place of the page's "## Over libfabric", else before its
# "## Floors" (or "## Raw lines"), else at its end; a page of its own where there is none.
ofi_splice() {
    if [ ! -f "$doc" ]; then
        printf '# symm CPU benchmark\n\n' >"$doc"
    fi
    awk -v sec="$1" '
        function put(  l) { while ((getline l < sec) > 0) print l; close(sec); done = 1 }
        /^## Over libfabric$/ { put(); skip = 1; next }
        skip && /^## / { skip = 0 }
        skip { next }
        !done && /^## (Floors|Raw lines)$/ { put() }
        { print }
        END { if (!done) { print ""; put() } }' "$doc" >"$work/page" && cat "$work/page" >"$doc"
}

# ofi_part: the whole part: build, runs, plot, section.
ofi_part() {
    local t0=$SECONDS load0
    load0=$(cut -d' ' -f1-3 /proc/loadavg)
    results=$work/results.ofi
    : >"$results"
    # The part's notes apart from the rest of the run's, which its section lists.
    mv "$work/notes" "$work/notes.main"
    : >"$work/notes"
    ofi_build
    if [ ${#ofi_sides[@]} = 0 ] && [ $have_probe = no ]; then
        say "over libfabric: nothing can run"
        mv "$work/notes.main" "$work/notes"
        return 1
    fi
    have_plot=no
    if need gnuplot gnuplot-nox "to draw the plot" "the plot is not drawn"; then have_plot=yes; fi
    ofi_runs
    ofi_plotted=no
    if ofi_draw; then ofi_plotted=yes; fi
    mv "$work/notes" "$work/notes.ofi"
    mv "$work/notes.main" "$work/notes"
    ofi_section "$t0" "$load0" >"$work/section.ofi"
    ofi_splice "$work/section.ofi"
    sed -n '/^| measure | PEs in nodes |/,/^symm over libfabric meets/p' "$work/section.ofi"
    if [ $ofi_plotted = yes ]; then say "drew ${ofi_plot#"$root"/}"; fi
    say "wrote the section over libfabric of ${doc#"$root"/} in $((SECONDS - t0)) s"
}
