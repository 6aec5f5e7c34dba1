#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# compare.sh: the CPU benchmark of symm beside Open MPI's OpenSHMEM (OSHMEM), in one run. Builds
# bench.c and startup.c with symmcc and with oshcc, runs the hardware floors, the benchmark under
# each launcher at every PE count the table asks for, and times a job from launch to exit; then
# writes the figures, their ratios symm/OSHMEM and the targets to docs/bench-cpu.md (BENCH_DOC
# overrides). Which figure is judged against which target is the table ROWS below; a new row is
# one line there (and a case in bench.c); the jobs to run follow from it. Which optional calls
# each implementation has (put with signal, the OpenSHMEM 1.5 team collectives) is found by
# compiling a probe with its compiler, and bench.c is built to match. A side that cannot be built
# or run is reported and left out.
#
# Rows may also run across virtual nodes: N PEs split into K groups of consecutive PEs that reach
# each other only over UCX (symm's `symmrun -n N --nodes K`), beside OSHMEM started with the
# same UCX transports (BENCH_UCX_TLS, given to both as UCX_TLS). The job of 2 PEs in 2 nodes also
# runs bench.c's size sweep, drawn with gnuplot (Debian's gnuplot-nox, installed when missing)
# into a PNG beside the doc: latency and bandwidth against message size, both libraries.
#
# The machine may be shared, and a busy neighbour only ever makes a figure worse: so the whole
# set runs BENCH_ROUNDS times (default 5), symm and OSHMEM taking turns at each configuration,
# and each side's figure is its best round (each round's figure being the median of its trials);
# a collective, the difference of two timed loops, takes each loop's best round.
#
# A third set of rows runs across virtual nodes over libfabric: symm over libfabric, symm over UCX
# and Sandia OpenSHMEM (built by bench/sos.sh) on one provider, beside the provider's own
# figures (bench/ofi_rtt.c); bench/compare_ofi.sh says how. They run after the others, or alone
# as `compare.sh ofi`, and write their own section of the page.
#
# Usage: bench/compare.sh [ofi] [SYMM_BUILD_DIR]   (default $SYMM_BUILD, else ./build)
# Environment: BENCH_DOC, BENCH_ROUNDS, BENCH_JOB_RUNS, BENCH_TIMEOUT (seconds one job may take),
# BENCH_COLL_API (auto: each side's team collectives where it has them, else the active-set
# forms; active-set: the active-set forms on both sides), BENCH_UCX_TLS (UCX's transports across
# virtual nodes, default tcp,self), BENCH_ROWS (words, each a case or a PEs column of ROWS: only
# the rows that match one run, e.g. "2n2 4n2" for those across virtual nodes, or CASE:PEs, e.g.
# "putmem_16m:2"; default all; a run with BENCH_ROWS leaves the rows over libfabric out), OSHCC
# and OSHRUN (Open MPI's compiler wrapper and launcher, default from PATH), BENCH_FI_PROVIDER (the
# provider of the rows over libfabric, default tcp;ofi_rxm), SOS_PREFIX (Sandia OpenSHMEM's
# installation, default bench/.sos/install). symm's own settings reach its PEs as they are;
# SYMM_CACHE_INFO is also written into the command line the page shows.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
cmd="bench/compare.sh${*:+ $*}"
for v in OSHRUN OSHCC BENCH_TIMEOUT BENCH_JOB_RUNS BENCH_ROUNDS BENCH_COLL_API BENCH_UCX_TLS \
    BENCH_OSH_BTL BENCH_ROWS BENCH_FI_PROVIDER SOS_PREFIX OFI_PROBES SYMM_BUILD SYMM_CACHE_INFO; do
    if [ -z "${!v:-}" ]; then continue; fi
    if [[ ${!v} =~ ^[A-Za-z0-9_,.:/^+=-]+$ ]]; then cmd="$v=${!v} $cmd"; else cmd="$v='${!v}' $cmd"; fi
done
part=all
if [ "${1:-}" = ofi ]; then
    part=ofi
    shift
fi
build=${1:-${SYMM_BUILD:-build}}
case $build in /*) ;; *) build="$root/$build" ;; esac
doc=${BENCH_DOC:-$root/docs/bench-cpu.md}
# The source measured, taken before this run writes its page and plots into the tree.
source_rev=$(git -C "$root" describe --always --dirty 2>/dev/null || echo "outside git")
rounds=${BENCH_ROUNDS:-5}
job_runs=${BENCH_JOB_RUNS:-7}
run_limit=${BENCH_TIMEOUT:-150}
coll_api=${BENCH_COLL_API:-auto}
case $coll_api in auto | active-set) ;; *) echo "compare: BENCH_COLL_API is auto or active-set" >&2; exit 1 ;; esac
oshcc=${OSHCC:-oshcc}
oshrun=${OSHRUN:-oshrun}
ucx_tls=${BENCH_UCX_TLS:-tcp,self}
# OSHMEM's barrier and collectives go through Open MPI's own collectives, whose byte transfer
# layers (BTLs) ignore UCX_TLS and use shared memory between all the PEs of a host. Across
# virtual nodes over UCX's TCP, OSHMEM's MPI layer gets TCP as well (BENCH_OSH_BTL overrides;
# empty keeps Open MPI's choice), so that neither side crosses between groups by shared memory.
if [ -n "${BENCH_OSH_BTL+set}" ]; then
    osh_btl=$BENCH_OSH_BTL
elif [[ ,$ucx_tls, == *,tcp,* ]] && ! [[ ,$ucx_tls, =~ ,(sm|posix|sysv|cma|knem|xpmem), ]]; then
    osh_btl=self,tcp
else
    osh_btl=
fi
plot=${doc%.md}-nodes.png
cflags=(-O2 -std=c11)

# case|PEs|targets|what is measured. PEs: N on one node, or NnK for N PEs in K virtual nodes.
# A collective's case written CASE+barrier is its call followed by a barrier, the first of the
# two timed loops whose difference is the row CASE.
# Targets, all of which must hold (none: the row is shown, not judged): osh<=R (symm/OSHMEM at
# most R; >= for figures where higher is better), self<L or self<=L (symm's own figure),
# floor:NAME<=R (symm over the floor NAME of this run), flat<=R (symm over symm's own figure with
# every PE a node of its own, NnN, all over the network: a row of its own in ROWS). A target
# written or:TARGET is an alternative: met, it stands for all the others (a figure at a floor of
# the machine, where the ratio asked for lies below that floor; a job of groups that is not
# slower than the same PEs all over the network).
ROWS='put8_quiet|2|osh<=0.50|shmem_long_p of 8 B + shmem_quiet, latency
g8|2|osh<=0.35|shmem_long_g of 8 B, latency
putmem_4k|2|osh>=1.0|shmem_putmem of 4 KiB, bandwidth
putmem_64k|2|osh>=1.0|shmem_putmem of 64 KiB, bandwidth
putmem_1m|2|osh>=1.0|shmem_putmem of 1 MiB, bandwidth
putmem_4m|2|osh>=1.0|shmem_putmem of 4 MiB, bandwidth
putmem_16m|2|osh>=1.0|shmem_putmem of 16 MiB, bandwidth
putmem_64m|2|osh>=1.0|shmem_putmem of 64 MiB, bandwidth
fetch_add|2|osh<=0.5|shmem_long_atomic_fetch_add on PE 1, latency
compare_swap|2|osh<=0.5|shmem_long_atomic_compare_swap on PE 1, latency
put_signal_rt|2|floor:flag_pingpong<=1.5|shmem_long_put_signal of 8 B + shmem_signal_wait_until, answered alike, round trip
barrier_all|2|osh<=0.55|shmem_barrier_all, latency
barrier_all|4|osh<=0.75|shmem_barrier_all, latency
lock|4||shmem_set_lock + shmem_clear_lock, every PE on one lock, time per acquisition
lock_fair|4|self<=2|acquisitions of the most over the least served PE in 50 ms of contention
broadcast_8|2|osh<=0.5|broadcast of 8 B from PE 0
broadcast_8+barrier|2||broadcast of 8 B from PE 0 followed by shmem_barrier_all (the row above before the barrier is taken off)
broadcast_4k|2||broadcast of 4 KiB from PE 0
broadcast_1m|2|osh<=0.6|broadcast of 1 MiB from PE 0
fcollect_8|2|osh<=0.5|fcollect of 8 B per PE
fcollect_4k|2||fcollect of 4 KiB per PE
fcollect_1m|2|osh<=0.6|fcollect of 1 MiB per PE
alltoall_8|2|osh<=0.5|alltoall of 8 B per PE (8 B per pair at least)
alltoall_4k|2||alltoall of 4 KiB per PE (4 KiB / PEs per pair)
alltoall_1m|2|osh<=0.6 or:floor:copy_1m<=1.05|alltoall of 1 MiB per PE (1 MiB / PEs per pair)
sum_reduce_8|2|osh<=0.5|sum reduction of 8 B of longs
sum_reduce_4k|2||sum reduction of 4 KiB of longs
sum_reduce_1m|2|osh<=0.6|sum reduction of 1 MiB of longs
sum_reduce_1m|2|floor:sum_1m<=2|sum reduction of 1 MiB of longs, against one core summing 1 MiB
broadcast_8|4|osh<=0.5 or:floor:yield_bcast_add<=1.05|broadcast of 8 B from PE 0
broadcast_8+barrier|4||broadcast of 8 B from PE 0 followed by shmem_barrier_all (the row above before the barrier is taken off)
broadcast_4k|4||broadcast of 4 KiB from PE 0
broadcast_1m|4|osh<=0.6|broadcast of 1 MiB from PE 0
fcollect_8|4|osh<=0.5|fcollect of 8 B per PE
fcollect_4k|4||fcollect of 4 KiB per PE
fcollect_1m|4|osh<=0.6|fcollect of 1 MiB per PE
alltoall_8|4|osh<=0.5|alltoall of 8 B per PE (8 B per pair at least)
alltoall_4k|4||alltoall of 4 KiB per PE (4 KiB / PEs per pair)
alltoall_1m|4|osh<=0.6 or:floor:copy_2m<=1.05|alltoall of 1 MiB per PE (1 MiB / PEs per pair)
sum_reduce_8|4|osh<=0.5|sum reduction of 8 B of longs
sum_reduce_4k|4||sum reduction of 4 KiB of longs
sum_reduce_1m|4|osh<=0.6|sum reduction of 1 MiB of longs
sum_reduce_1m|4|floor:sum_1m<=2|sum reduction of 1 MiB of longs, against one core summing 1 MiB
job|2|osh<=0.10 self<50|job start to finish (init + finalize)
put8_quiet|2n2|osh<=0.9 or:floor:ucx_rtt<=1.05|shmem_long_p of 8 B + shmem_quiet, latency
g8|2n2|osh<=0.9 or:floor:ucx_rtt<=1.05|shmem_long_g of 8 B, latency
fetch_add|2n2|osh<=0.9 or:floor:ucx_rtt<=1.05|shmem_long_atomic_fetch_add on PE 1, latency
putmem_4k|2n2|osh>=1.0|shmem_putmem of 4 KiB, bandwidth
putmem_1m|2n2|osh>=1.0|shmem_putmem of 1 MiB, bandwidth
putmem_16m|2n2|osh>=1.0|shmem_putmem of 16 MiB, bandwidth
barrier_all|4n2|osh<=0.7|shmem_barrier_all, latency
broadcast_8|4n2|osh<=1.0 or:flat<=1.0|broadcast of 8 B from PE 0
fcollect_8|4n2|osh<=1.0 or:flat<=1.0|fcollect of 8 B per PE
alltoall_8|4n2|osh<=1.0 or:flat<=1.0|alltoall of 8 B per PE (8 B per pair at least)
sum_reduce_8|4n2|osh<=1.0 or:flat<=1.0|sum reduction of 8 B of longs
broadcast_1m|4n2|osh<=1.0 or:flat<=1.0|broadcast of 1 MiB from PE 0
fcollect_1m|4n2|osh<=1.0 or:flat<=1.0|fcollect of 1 MiB per PE
alltoall_1m|4n2|osh<=1.0 or:flat<=1.0|alltoall of 1 MiB per PE (1 MiB / PEs per pair)
sum_reduce_1m|4n2|osh<=1.0 or:flat<=1.0|sum reduction of 1 MiB of longs
barrier_all|4n4||shmem_barrier_all, latency, every PE a node of its own
broadcast_8|4n4||broadcast of 8 B from PE 0, every PE a node of its own
fcollect_8|4n4||fcollect of 8 B per PE, every PE a node of its own
alltoall_8|4n4||alltoall of 8 B per PE, every PE a node of its own
sum_reduce_8|4n4||sum reduction of 8 B of longs, every PE a node of its own
broadcast_1m|4n4||broadcast of 1 MiB from PE 0, every PE a node of its own
fcollect_1m|4n4||fcollect of 1 MiB per PE, every PE a node of its own
alltoall_1m|4n4||alltoall of 1 MiB per PE, every PE a node of its own
sum_reduce_1m|4n4||sum reduction of 1 MiB of longs, every PE a node of its own'

# The configuration whose job also runs bench.c's size sweep, the data of the plot.
sweep_at=2n2

# The floors and the figures they bound: floor|case|PEs|what it is
FLOORS='store_fence|put8_quiet|2|a store plus a full fence to a shared page
cached_load|g8|2|a load that hits the cache (dependent loads)
flag_pingpong|put_signal_rt|2|two processes each writing 8 B and then a flag into the other'"'"'s half of a shared page, round trip
flag_barrier|barrier_all|2|two processes raising and spinning on flags in one shared page
sum_1m|sum_reduce_1m|2|one core computing c[i] = a[i] + b[i] over 1 MiB of longs (2 MiB read, 1 MiB written)
sum_1m|sum_reduce_1m|4|the same
copy_1m|alltoall_1m|2|one core copying 1 MiB into 1 MiB, every other pass backwards (what each PE of a 2-PE alltoall of 1 MiB copies)
copy_2m|alltoall_1m|4|one core copying 2 MiB into 2 MiB, the same way (what each CPU copies in a 4-PE alltoall of 1 MiB on 2 CPUs)
flag_turns|broadcast_8+barrier|2|two processes on two CPUs taking turns on one flag, each raising it and spinning until the other has: the round trip of one cache line, what a broadcast and a barrier cost at the least between two PEs (the data goes out, the arrival comes back)
yield_pingpong|broadcast_8+barrier|4|two processes sharing one CPU, each yielding it until the other has taken its turn: two context switches, what a broadcast and a barrier cost the root'"'"'s CPU at the least when 4 PEs share 2 CPUs
yield_bcast_add|broadcast_8|4|four processes, two on each of two CPUs: a loop of broadcasts of 8 B each followed by a barrier less a loop of barriers alone, both with the steps of the calls and nothing else (a barrier that switches each CPU once): one context switch on the root'"'"'s CPU and the broadcast'"'"'s own steps, what a broadcast adds at the least to such a barrier
ucx_rtt|put8_quiet|2n2|a round trip over the network: twice the one-way latency of UCX'"'"'s 8-B active-message ping-pong between two processes on the same transports (ucx_perftest ucp_am_lat)
ucx_rtt|g8|2n2|the same round trip
ucx_rtt|fetch_add|2n2|the same round trip
ucx_oneway|barrier_all|4n2|one way over the network, which a barrier across two nodes needs at least once'

# BENCH_ROWS keeps the rows whose case or PEs column it names (or both, as CASE:PEs), and the
# floors that bound them.
if [ -n "${BENCH_ROWS:-}" ] && [ $part = all ]; then
    ROWS=$(awk -F'|' -v want=" ${BENCH_ROWS//[[:space:]]/ } " \
        'index(want, " " $1 " ") || index(want, " " $2 " ") || index(want, " " $1 ":" $2 " ")' \
        <<<"$ROWS")
    if [ -z "$ROWS" ]; then
        echo "compare: BENCH_ROWS names no case or PEs column of ROWS: $BENCH_ROWS" >&2
        exit 1
    fi
    FLOORS=$(awk -F'|' 'NR == FNR { row[$1 "|" $2] = 1; next } row[$2 "|" $3]' \
        <(echo "$ROWS") <(echo "$FLOORS"))
fi
while IFS='|' read -r _ n _; do
    if ! [[ $n =~ ^[0-9]+(n[0-9]+)?$ ]]; then
        echo "compare: ROWS: PEs '$n' is not N or NnK" >&2
        exit 1
    fi
done <<<"$ROWS"

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
t_start=$SECONDS
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
results=$work/results
: >"$results"
: >"$work/notes"

say() { printf 'compare: %s\n' "$*" >&2; }

exit_why() {
    case $1 in
    124 | 137) echo "timed out after $run_limit s" ;;
    *) echo "see its output" ;;
    esac
}

# note TEXT: said now and listed under the table (once, however often it is said).
note() {
    say "$*"
    grep -qxF -- "$*" "$work/notes" || echo "$*" >>"$work/notes"
}

now_ns() {
    if [ -n "${EPOCHREALTIME:-}" ]; then
        local t=${EPOCHREALTIME/[.,]/}
        echo "${t}000"
    else
        date +%s%N
    fi
}

name_of() {
    case $1 in
    symm) echo symm ;;
    osh) echo OSHMEM ;;
    ofi) echo "symm over libfabric" ;;
    ucx) echo "symm over UCX" ;;
    sos) echo SOS ;;
    esac
}

# pes_of SPEC, nodes_of SPEC: the PEs and the virtual nodes of a PEs column, N or NnK.
pes_of() { echo "${1%%n*}"; }
nodes_of() { if [[ $1 == *n* ]]; then echo "${1#*n}"; else echo 1; fi; }
# where SPEC: a PEs column in words, after "at".
where() {
    if [[ $1 == *n* ]]; then
        echo "$(pes_of "$1") PEs in $(nodes_of "$1") virtual nodes"
    else
        echo "$1 PEs"
    fi
}

# ---- launchers ---------------------------------------------------------------------------
# launcher IMPL SPEC: sets the array launch to the command that starts a job of IMPL with the
# PEs (and virtual nodes) of SPEC. Across virtual nodes both sides get UCX_TLS. The sides of the
# rows over libfabric: symm over libfabric (ofi) or over UCX (ucx), and SOS (sos).
launcher() {
    local n k
    n=$(pes_of "$2")
    k=$(nodes_of "$2")
    case $1 in
    ofi | ucx)
        launch=(env "SYMM_NET=$1" "$build/tools/symmrun" -n "$n" --nodes "$k")
        if [ "$1" = ofi ]; then launch=(env "FI_PROVIDER=$fi_prov" "${launch[@]}"); fi
        if [ "$1" = ucx ]; then launch=(env "UCX_TLS=$ucx_tls" "${launch[@]}"); fi
        return
        ;;
    sos)
        launch=(env "FI_PROVIDER=$fi_prov" "$sos_prefix/bin/oshrun" --allow-run-as-root
            -x FI_PROVIDER)
        if [ "$n" -gt "$(nproc)" ]; then launch+=(--oversubscribe); fi
        launch+=(-np "$n")
        return
        ;;
    esac
    if [ "$1" = symm ]; then
        launch=("$build/tools/symmrun" -n "$n")
        if [ "$k" -gt 1 ]; then launch=(env "UCX_TLS=$ucx_tls" "${launch[@]}" --nodes "$k"); fi
        return
    fi
    launch=("$oshrun" --allow-run-as-root --mca osc ^rdma)
    if [ "$n" -gt "$(nproc)" ]; then launch+=(--oversubscribe); fi
    if [ "$k" -gt 1 ]; then
        launch+=(-x "UCX_TLS=$ucx_tls")
        if [ -n "$osh_btl" ]; then launch+=(--mca btl "$osh_btl"); fi
    fi
    launch+=(-np "$n")
}

# ---- helpers -----------------------------------------------------------------------------
# has CC CALLS: whether CC compiles and links a program making CALLS.
has() {
    printf '#include <shmem.h>\n#include <stdint.h>\nstatic long d[2];\nstatic uint64_t s;\n%s\n' \
        "int main(void) { $2 return 0; }" >"$work/probe.c"
    "$1" "${cflags[@]}" -Werror=implicit-function-declaration -o "$work/probe" "$work/probe.c" \
        >/dev/null 2>&1
}
signal_calls='shmem_long_put_signal(d, d, 1, &s, 1, SHMEM_SIGNAL_SET, 0);
    shmem_signal_wait_until(&s, SHMEM_CMP_GE, 1);'
team_calls='shmem_broadcastmem(SHMEM_TEAM_WORLD, d, d, 8, 0);
    shmem_fcollectmem(SHMEM_TEAM_WORLD, d, d, 8);
    shmem_alltoallmem(SHMEM_TEAM_WORLD, d, d, 8);
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, d, d, 1);'

# features IMPL CC: sets defs (bench.c's build flags for IMPL) and IMPL_api (the collective
# forms it is measured with).
features() {
    local sig=0 teams=0
    if has "$2" "$signal_calls"; then sig=1; fi
    if [ "$coll_api" != active-set ] && has "$2" "$team_calls"; then teams=1; fi
    defs=(-DBENCH_HAVE_SIGNAL=$sig -DBENCH_HAVE_TEAMS=$teams)
    if [ $teams = 1 ]; then printf -v "$1_api" team; else printf -v "$1_api" active-set; fi
    [ $sig = 1 ] || note "$(name_of "$1"): its shmem.h has no shmem_long_put_signal (OpenSHMEM 1.5); the put with signal is not measured there"
}

# spec_of CC: the OpenSHMEM version CC's shmem.h declares.
spec_of() {
    printf '#include <shmem.h>\nSHMEM_MAJOR_VERSION.SHMEM_MINOR_VERSION\n' |
        "$1" -E -P -x c - 2>/dev/null | tail -n 1 | tr -d ' '
}

# need COMMAND PACKAGE WHY LOSS: whether COMMAND is here, after installing Debian's PACKAGE when
# it is missing (as root, or through sudo), as scripts/deps.sh does for the build; when it cannot
# be had, a note says what is lost.
need() {
    command -v "$1" >/dev/null && return 0
    if ! command -v apt-get >/dev/null; then
        note "$1: missing and $2 could not be installed; $4"
        return 1
    fi
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    say "installing $2 $3"
    if ! { $sudo apt-get update -q &&
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
            "$2"; } >"$work/apt.log" 2>&1 || ! command -v "$1" >/dev/null; then
        tail -n 5 "$work/apt.log" >&2
        note "$1: missing and $2 could not be installed; $4"
        return 1
    fi
}

# run ROUND IMPL SPEC CASE...: the benchmark under IMPL's launcher with the PEs of SPEC; lines
# tagged with IMPL, ROUND and, across virtual nodes, their count.
# The figures count once the program has printed its done line, even if the job then fails to
# exit cleanly (that is reported); a run that fails before is tried once more, then reported and
# left out.
run() {
    local round=$1 impl=$2 n=$3 try rc t0=$SECONDS
    shift 3
    local out=$work/out.$impl.$n err=$work/err.$impl.$n tag="impl=$impl round=$round" at
    at=$(where "$n")
    if [ "$(nodes_of "$n")" -gt 1 ]; then tag="$tag nodes=$(nodes_of "$n")"; fi
    launcher "$impl" "$n"
    for try in 1 2; do
        timeout -k 5 "$run_limit" "${launch[@]}" "$work/bench_$impl" "$@" >"$out" 2>"$err" &&
            rc=0 || rc=$?
        if grep -q '^done' "$out"; then
            grep '^case=' "$out" | sed "s/^/$tag /" >>"$results"
            grep '^case=.* check=wrong' "$out" | while read -r line; do
                note "$(name_of "$impl") at $at: $(sed 's/^case=\([^ ]*\).*/\1/' <<<"$line") left a wrong result (figure left out); $(grep -m1 '^bench:' "$err" || true)"
            done
            [ $rc = 0 ] ||
                note "$(name_of "$impl") at $at: figures complete, but the job then ended with exit $rc ($(exit_why $rc))"
            say "$impl at $at: done in $((SECONDS - t0)) s"
            return 0
        fi
        say "$impl at $at: run $try failed (exit $rc, $(exit_why $rc)); its last lines:"
        tail -n 5 "$err" >&2 || true
    done
    note "$(name_of "$impl") at $at: no figures (two runs failed)"
}

# value IMPL CASE [SPEC]: the best figure of all rounds (the highest bandwidth, the lowest time
# or ratio), or nothing. A collective's figure is the difference of two timed loops, and the
# least difference over rounds would pick the round whose barrier loop a busy neighbour slowed
# most: so each loop keeps its best round, and the figure is their difference (for CASE+barrier,
# the first loop's). A collective whose result was wrong gives no figure, nor does a time that
# is not positive (a barrier loop slower than its collective loop, on a busy machine).
value() {
    awk -v impl="$1" -v c="$2" -v n="${3:-}" '
        BEGIN { whole = sub(/\+barrier$/, "", c) }
        { delete f; for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
        { spec = f["pes"] (f["nodes"] > 1 ? "n" f["nodes"] : "") }
        f["impl"] == impl && f["case"] == c && (n == "" || spec == n) && f["check"] != "wrong" {
            if ("with_barrier" in f) {
                w = f["with_barrier"] + 0; b = f["barrier"] + 0
                if (!loops || w < bw) bw = w
                if (!loops || b < bb) bb = b
                loops = 1
                next
            }
            v = f["value"] + 0; up = f["unit"] == "GB/s"
            if (v <= 0) next
            if (!seen || (up && v > best) || (!up && v < best)) best = v
            seen = 1
        }
        END {
            if (loops) { best = whole ? bw : bw - bb; seen = best > 0 }
            if (seen) print best
        }' "$results"
}
unit_of() {
    awk -v c="${1%+barrier}" '{ for (i = 1; i <= NF; i++) if ($i == "case=" c) for (j = 1; j <= NF; j++)
        if ($j ~ /^unit=/) { sub(/^unit=/, "", $j); print $j; exit } }' "$results"
}
# fmt V: three significant digits, without exponents.
fmt() {
    if [ -z "$1" ]; then
        printf 'n/a'
        return
    fi
    awk -v v="$1" 'BEGIN { printf (v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f"), v }'
}
div() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4g", a / b }'; }
two() { awk -v v="$1" 'BEGIN { printf "%.2f", v }'; }
holds() { awk -v q="$1" -v op="$2" -v t="$3" \
    'BEGIN { exit !(op == "<=" ? q <= t : op == ">=" ? q >= t : op == "<" ? q < t : q > t) }'; }

pes_cell() {
    if [[ $1 == *n* ]]; then echo "$(pes_of "$1") in $(nodes_of "$1") nodes"; else echo "$1"; fi
}

# sweep_points DIR IMPL SPEC: the sweep's best figure of all rounds at each size, for IMPL at
# SPEC, one file per kernel (DIR/IMPL.sweep_KERNEL, lines `bytes value`), as sweep.gp reads them.
sweep_points() {
    local c
    for c in sweep_put_quiet sweep_get sweep_putmem; do
        awk -v impl="$2" -v c="$c" -v n="$3" '
            { delete f; for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
            { spec = f["pes"] (f["nodes"] > 1 ? "n" f["nodes"] : "") }
            f["impl"] == impl && f["case"] == c && spec == n && f["value"] > 0 {
                b = f["bytes"]; v = f["value"] + 0; up = f["unit"] == "GB/s"
                if (!(b in best) || (up && v > best[b]) || (!up && v < best[b])) best[b] = v
            }
            END { for (b in best) print b, best[b] }' "$results" | sort -n >"$1/$2.$c"
    done
}

# ---- over libfabric -----------------------------------------------------------------------
# shellcheck source=bench/compare_ofi.sh
. "$here/compare_ofi.sh"
if [ $part = ofi ]; then
    ofi_part
    exit
fi

# ---- build -------------------------------------------------------------------------------
have_symm=no
have_osh=no
cc "${cflags[@]}" -o "$work/bench_floors" "$here/floors.c"

symm_api=none
osh_api=none
symm_spec=unknown
osh_spec=unknown
if [ ! -x "$build/symmcc" ] || [ ! -x "$build/tools/symmrun" ]; then
    note "symm: no $build/symmcc or $build/tools/symmrun; build symm first (cmake -S . -B build && cmake --build build); symm figures left out"
else
    features symm "$build/symmcc"
    symm_spec=$(spec_of "$build/symmcc")
    if "$build/symmcc" "${cflags[@]}" "${defs[@]}" -o "$work/bench_symm" "$here/bench.c" &&
        "$build/symmcc" "${cflags[@]}" -o "$work/startup_symm" "$here/startup.c"; then
        have_symm=yes
    else
        note "symm: symmcc failed to build the benchmark; symm figures left out"
    fi
fi

if ! command -v "$oshcc" >/dev/null || ! command -v "$oshrun" >/dev/null; then
    note "OSHMEM: $oshcc or $oshrun not found (Open MPI's OpenSHMEM); OSHMEM figures left out"
else
    features osh "$oshcc"
    osh_spec=$(spec_of "$oshcc")
    if "$oshcc" "${cflags[@]}" "${defs[@]}" -o "$work/bench_osh" "$here/bench.c" &&
        "$oshcc" "${cflags[@]}" -o "$work/startup_osh" "$here/startup.c"; then
        have_osh=yes
    else
        note "OSHMEM: $oshcc failed to build the benchmark; OSHMEM figures left out"
    fi
fi
[ $have_symm = yes ] || [ $have_osh = yes ] || { say "neither symm nor OSHMEM can run"; exit 1; }

have_plot=no
if grep -q "|$sweep_at|" <<<"$ROWS" && need gnuplot gnuplot-nox "to draw the plot" \
    "the plot is not drawn"; then
    have_plot=yes
fi

# The network's own floor across virtual nodes: UCX's active-message ping-pong between two
# processes on the same transports (ucx_perftest, Debian's ucx-utils), 8 B: its one-way latency
# (ucx_oneway) and twice that (ucx_rtt), what any round trip over the network costs.
have_ucx_floor=no
if grep -q "^ucx_" <<<"$FLOORS" && need ucx_perftest ucx-utils "for the network's floor" \
    "the UCX floors are left out"; then
    have_ucx_floor=yes
fi
ucx_floor() {
    local port=$((20000 + RANDOM % 20000)) srv us
    UCX_TLS=$ucx_tls ucx_perftest -p "$port" -t ucp_am_lat -s 8 -n 100000 >/dev/null 2>&1 &
    srv=$!
    for _ in $(seq 50); do
        us=$(UCX_TLS=$ucx_tls timeout 60 ucx_perftest -p "$port" 127.0.0.1 -t ucp_am_lat -s 8 \
            -n 100000 2>/dev/null | awk '/^Final:/ { print $3 }')
        [ -n "$us" ] && break
        sleep 0.1
    done
    kill "$srv" 2>/dev/null
    wait "$srv" 2>/dev/null
    [ -n "$us" ] || return 1
    awk -v us="$us" 'BEGIN { printf "case=ucx_oneway value=%.4g unit=ns\ncase=ucx_rtt value=%.4g unit=ns\n", us * 1000, us * 2000 }'
}

# ---- runs --------------------------------------------------------------------------------
# time_job IMPL N: one launch of the init/finalize job; its wall time in microseconds is added
# to $work/jobs.IMPL.
time_job() {
    local impl=$1 n=$2 t0 t1
    launcher "$impl" "$n"
    t0=$(now_ns)
    if ! timeout -k 5 "$run_limit" "${launch[@]}" "$work/startup_$impl" >/dev/null 2>&1; then
        note "$(name_of "$impl"): a launch of the init/finalize job failed"
        return 0
    fi
    t1=$(now_ns)
    echo $(((t1 - t0) / 1000)) >>"$work/jobs.$impl"
}

# job_line IMPL N: the median of the job times as a result line.
job_line() {
    [ -s "$work/jobs.$1" ] || return 0
    sort -n "$work/jobs.$1" | awk -v impl="$1" -v n="$2" '{ v[NR] = $1 }
        END { printf "impl=%s round=1 case=job pes=%d value=%.4g unit=ms stat=median",
                     impl, n, v[int((NR + 1) / 2)] / 1000
              printf " trials=%d best=%.4g worst=%.4g\n", NR, v[1] / 1000, v[NR] / 1000 }' \
        >>"$results"
}

# The jobs of a round follow from ROWS: one job per PEs column, running the cases of that
# column's rows in table order (the job row is timed apart), and the sweep where it belongs.
pe_counts=$(awk -F'|' '$1 != "job" && !seen[$2]++ { print $2 }' <<<"$ROWS")
cases_at() {
    awk -F'|' -v n="$1" '$1 != "job" && $2 == n { sub(/\+barrier$/, "", $1) }
        $1 != "job" && $2 == n && !seen[$1]++ { print $1 }' <<<"$ROWS"
    if [ "$1" = "$sweep_at" ]; then echo sweep; fi
}

# The two implementations take turns at each configuration, so that a change in the machine's
# load during the run weighs on both sides of a ratio alike.
impls=()
[ $have_symm = no ] || impls+=(symm)
[ $have_osh = no ] || impls+=(osh)
for round in $(seq "$rounds"); do
    if [ -n "$FLOORS" ]; then
        say "round $round of $rounds: floors"
        "$work/bench_floors" >"$work/out.floors" || note "floors: ended with exit $?"
        if [ $have_ucx_floor = yes ]; then
            ucx_floor >>"$work/out.floors" || note "ucx_perftest: no figure"
        fi
        sed "s/^/impl=floor round=$round /" "$work/out.floors" >>"$results"
    fi
    for n in $pe_counts; do
        mapfile -t list < <(cases_at "$n")
        for impl in "${impls[@]}"; do
            say "round $round: $impl at $(where "$n"), ${#list[@]} cases"
            run "$round" "$impl" "$n" "${list[@]}"
        done
    done
done
if grep -q '^job|' <<<"$ROWS"; then
    say "job start to finish, $job_runs launches each"
    for _ in $(seq "$job_runs"); do
        for impl in "${impls[@]}"; do time_job "$impl" 2; done
    done
    for impl in "${impls[@]}"; do job_line "$impl" 2; done
fi

# ---- plot --------------------------------------------------------------------------------
# draw_plot: the sweep's best figure of all rounds at each size, per library and kernel, drawn by
# sweep.gp into $plot; whether it was drawn.
draw_plot() {
    local d=$work/sweep impl
    [ $have_plot = yes ] && grep -q 'case=sweep_' "$results" || return 1
    mkdir -p "$d"
    for impl in symm osh; do sweep_points "$d" "$impl" "$sweep_at"; done
    if ! gnuplot -e "dir='$d'; out='$plot'; title='$(where "$sweep_at"), UCX_TLS=$ucx_tls'" \
        "$here/sweep.gp" 2>"$work/gnuplot.log"; then
        note "gnuplot: failed to draw the plot ($(head -n 3 "$work/gnuplot.log" | tr '\n' ' '))"
        return 1
    fi
}
plotted=no
if draw_plot; then plotted=yes; fi

# ---- report ------------------------------------------------------------------------------
# table_row CASE PES TARGETS WHAT: one row of the figures table; every target is judged on the
# quantity it names (symm/OSHMEM, symm's own figure, or symm over a floor).
table_row() {
    local c=$1 n=$2 targets=$3 what=$4
    local s o f unit ratio=n/a verdict goal="" term q text ok=1 known=1 alt alt_ok=0
    s=$(value symm "$c" "$n")
    o=$(value osh "$c" "$n")
    unit=$(unit_of "$c")
    if [ -n "$s" ] && [ -n "$o" ]; then ratio=$(two "$(div "$s" "$o")"); fi
    for term in $targets; do
        alt=0
        if [[ $term == or:* ]]; then
            alt=1
            term=${term#or:}
        fi
        if ! [[ $term =~ ^(osh|self|flat|floor:([a-z0-9_]+))(<=|>=|<|>)([0-9.]+)$ ]]; then
            say "ROWS: target '$term' of $c is not osh<=R, self<L, flat<=R or floor:NAME<=R"
            exit 1
        fi
        local who=${BASH_REMATCH[1]} fl=${BASH_REMATCH[2]}
        local op=${BASH_REMATCH[3]} t=${BASH_REMATCH[4]}
        q=""
        case $who in
        osh)
            if [ -n "$s" ] && [ -n "$o" ]; then q=$(div "$s" "$o"); fi
            text="$op ${t}x OSHMEM"
            ;;
        self)
            q=$s
            if [ "$unit" = x ]; then text="$op ${t}x"; else text="$op $t $unit"; fi
            ;;
        flat)
            f=$(value symm "$c" "$(pes_of "$n")n$(pes_of "$n")")
            if [ -n "$s" ] && [ -n "$f" ]; then q=$(div "$s" "$f"); fi
            text="$op ${t}x symm with every PE a node of its own"
            if [ -n "$q" ]; then text="$text (is $(two "$q")x)"; fi
            ;;
        *)
            f=$(value floor "$fl")
            if [ -n "$s" ] && [ -n "$f" ]; then q=$(div "$s" "$f"); fi
            text="$op ${t}x floor $fl"
            if [ -n "$q" ]; then text="$text (is $(two "$q")x)"; fi
            ;;
        esac
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
    # An alternative target (or:...) met stands for the others: a figure at a floor of the
    # machine cannot go lower, whatever a ratio asks.
    if [ $alt_ok = 1 ]; then
        ok=1
        known=1
    fi
    if [ -z "$targets" ]; then
        goal="none (shown)"
        verdict="-"
    elif [ $known = 0 ]; then
        verdict=n/a
    elif [ $ok = 1 ]; then
        verdict=PASS
    else
        verdict=MISS
    fi
    printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$what" "$(pes_cell "$n")" "$unit" \
        "$(fmt "$s")" "$(fmt "$o")" "$ratio" "$goal" "$verdict"
}
# figures_table ROWS: the table of those rows, and how many of their targets symm meets.
figures_table() {
    echo "| measure | PEs | unit | symm | OSHMEM | symm/OSHMEM | target | result |"
    echo "|---|---|---|---|---|---|---|---|"
    while IFS='|' read -r c n targets what; do
        table_row "$c" "$n" "$targets" "$what"
    done <<<"$1" >"$work/table"
    cat "$work/table"
    echo
    pass=$(grep -c '| PASS |$' "$work/table" || true)
    judged=$(grep -c '| \(PASS\|MISS\|n/a\) |$' "$work/table" || true)
    unjudged=$(grep -c '| n/a |$' "$work/table" || true)
    printf 'symm meets %s of %s targets' "$pass" "$judged"
    if [ "$unjudged" -gt 0 ]; then printf '; %s not judged (a figure is missing)' "$unjudged"; fi
    echo .
}

floor_row() {
    local f=$1 c=$2 n=$3 what=$4 v s r=n/a
    v=$(value floor "$f")
    s=$(value symm "$c" "$n")
    if [ -n "$v" ] && [ -n "$s" ]; then
        r=$(awk -v s="$s" -v v="$v" 'BEGIN { printf "%.1f", s / v }')
    fi
    printf '| %s | %s | %s, %s PEs | %s | %s |\n' "$what" "$(fmt "$v")" "$c" "$n" "$(fmt "$s")" "$r"
}

api_text() {
    case $1 in
    team) echo "the OpenSHMEM 1.5 team forms on SHMEM_TEAM_WORLD (shmem_broadcastmem with root 0, shmem_fcollectmem, shmem_alltoallmem, shmem_long_sum_reduce)" ;;
    active-set) echo "the active-set forms over all PEs (shmem_broadcast64 with root 0, shmem_fcollect64, shmem_alltoall64, shmem_long_sum_to_all), each with a pSync of its own" ;;
    *) echo "not run" ;;
    esac
}

cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
osh_version=$(command -v "$oshrun" >/dev/null && "$oshrun" --version 2>/dev/null | head -n 1 || echo none)
{
    echo "# symm CPU benchmark"
    echo
    echo "symm beside Open MPI's OpenSHMEM (OSHMEM) on one machine, both running the same source,"
    echo "[bench/bench.c](../bench/bench.c), in one run of [bench/compare.sh](../bench/compare.sh)."
    echo "Point-to-point figures are PE 0's against PE 1 while the other PEs wait in a barrier;"
    echo "collectives, barriers and the lock involve every PE. A run of the benchmark gives each"
    echo "figure as the median of 7 trials of about 10 ms, after warm-up; the set runs $rounds"
    echo "times, symm and OSHMEM taking turns, and each side keeps its best round (a busy machine"
    echo "only makes figures worse; a collective keeps the best round of each of its two timed"
    echo "loops, below). A job's start to finish is the median wall time of $job_runs"
    echo "launches of an init/finalize program, the two sides alternating. Ratios are symm/OSHMEM;"
    echo "for latencies and times lower is better, for bandwidths (GB/s, decimal) higher."
    echo
    echo "How some figures are made:"
    echo
    echo "- **Collectives** (sizes are per PE: the part each PE contributes, what each PE sends in"
    echo "  all in an alltoall (split evenly over the PEs, at least 8 B per pair; the reading under"
    echo "  which OSHMEM's alltoall takes about half its fcollect's time, as in the figures the"
    echo "  targets were set with), the array reduced): each call is followed by shmem_barrier_all, and"
    echo "  each trial by a trial of shmem_barrier_all alone with the same count. Each loop's time is"
    echo "  the median over its trials and keeps its best round; the figure is the difference, the"
    echo "  collective's own time (the least difference of a round would be the round whose barrier"
    echo "  loop a neighbour slowed most). A difference that is not positive (possible only when the"
    echo "  machine is busy) gives no figure. After the trials every PE checks the last result; a"
    echo "  wrong one gives no figure. A row named \"followed by"
    echo "  shmem_barrier_all\" shows the first loop alone, and has a floor whatever the library:"
    echo "  - 2 PEs on 2 CPUs: the round trip of one cache line (floor flag_turns), since the"
    echo "    data must reach the other PE before it arrives at the barrier, and its arrival must"
    echo "    come back; a barrier alone needs the line to cross once, both ways at the same time;"
    echo "  - 4 PEs on 2 CPUs: two context switches on the root's CPU (floor yield_pingpong): the"
    echo "    root posts, its CPU-mate copies and arrives, and the root needs the CPU again once"
    echo "    the barrier releases it; a barrier alone needs one switch per CPU."
    echo ""
    echo "  So a broadcast's own figure is at least that floor less the barrier's time: the"
    echo "  faster the barrier, the less of the broadcast it can hide. At 4 PEs a barrier switches"
    echo "  each CPU once at the least (each of its PEs must run), and then a broadcast adds one"
    echo "  switch on the root's CPU and its own steps: floor yield_bcast_add, the two calls' steps"
    echo "  run by four processes with nothing else. A barrier slower than that floor's hides part"
    echo "  of the broadcast and shows less. The calls measured:"
    echo "  - symm: $(api_text "$symm_api");"
    echo "  - OSHMEM: $(api_text "$osh_api")."
    if [ "$symm_api" != "$osh_api" ]; then
        echo
        echo "  OSHMEM's shmem.h (OpenSHMEM $osh_spec) has no team collectives, so each side is"
        echo "  measured with the forms a program written for it calls. symm implements the two"
        echo "  forms apart; \`BENCH_COLL_API=active-set\` measures symm's active-set forms instead,"
        echo "  like for like."
    fi
    echo "- **Put with signal**: PE 0 puts 8 B with shmem_long_put_signal (SHMEM_SIGNAL_SET) and"
    echo "  waits in shmem_signal_wait_until for PE 1's answer, the same call back; the figure is the"
    echo "  round trip, judged against a floor of two processes doing the same through plain"
    echo "  stores to a shared page. A side whose OpenSHMEM lacks the call shows n/a."
    echo "- **Lock**: every PE takes and releases one symmetric lock (shmem_set_lock,"
    echo "  shmem_clear_lock) in a loop; the time per acquisition is the trial's time over the"
    echo "  acquisitions of all PEs. Fairness: every PE counts its acquisitions for 50 ms, and the"
    echo "  figure is the most served PE's count over the least served one's (median of 7 windows)."
    echo "- **Reduction floor**: one core computing c[i] = a[i] + b[i] over 1 MiB of longs, arrays"
    echo "  as warm as a loop leaves them (2 MiB read, 1 MiB written): about the traffic each PE of"
    echo "  a 1 MiB sum reduction moves through its core, whether it combines the whole array or"
    echo "  its slice of it and then gathers the rest."
    echo "- **Copy floors**: one core copying 1 MiB (or 2 MiB) into a buffer as large, every other"
    echo "  pass backwards so that each pass starts on the lines the last one left in the cache:"
    echo "  the copying each PE of a 2-PE alltoall of 1 MiB does (its own block and its peer's),"
    echo "  and what each CPU does when 4 PEs share 2 CPUs. They bound an alltoall whose PEs copy"
    echo "  with their CPUs, as both libraries' do."
    echo
    echo "Made by: \`$cmd\` (took $((SECONDS - t_start)) s)"
    echo
    echo "## Machine"
    echo
    echo "- CPUs: $(nproc) ($cpu)"
    echo "- kernel: $(uname -sr)"
    echo "- load average (1, 5, 15 min) at start: $load_start; at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "- OSHMEM: $osh_version (shmem.h: OpenSHMEM $osh_spec), launched with \`oshrun --allow-run-as-root --mca osc ^rdma -np N\` (\`--oversubscribe\` past $(nproc) PEs)"
    echo "- symm (shmem.h: OpenSHMEM $symm_spec): \`$(basename "$build")/tools/symmrun -n N\` (each PE bound to a CPU of its own when they fit, else consecutive PEs sharing one), source $source_rev"
    most_pes=$(awk -F'|' '$2 + 0 > m { m = $2 + 0 } END { print m + 0 }' <<<"$ROWS")
    if [ "$most_pes" -gt "$(nproc)" ]; then
        echo "- rows at more PEs than the $(nproc) CPUs run oversubscribed: PEs share CPUs on both"
        echo "  sides, and a waiting PE must give its CPU up for the others to progress"
    fi
    if awk -v l="${load_start%% *}" -v n="$(nproc)" 'BEGIN { exit !(l > n / 2) }'; then
        echo
        echo "**The machine was busy when this ran** (other processes kept its CPUs loaded): both"
        echo "sides' figures are noisy and the ratios uncertain; rerun on an idle machine to judge"
        echo "the targets."
    fi
    one_node=$(awk -F'|' '$2 !~ /n/' <<<"$ROWS")
    if [ -n "$one_node" ]; then
        echo
        echo "## Figures"
        echo
        figures_table "$one_node"
    fi
    across=$(awk -F'|' '$2 ~ /n/' <<<"$ROWS")
    if [ -n "$across" ]; then
        echo
        echo "## Across virtual nodes"
        echo
        echo "N PEs in K virtual nodes: symm splits the job into K groups of consecutive PEs that"
        echo "reach each other only over UCX, the PEs of one group sharing memory as on one node."
        echo "OSHMEM has no virtual nodes: its PEs all reach each other over UCX (its spml is ucx),"
        echo "so where a node holds more than one PE it goes through UCX also between PEs that symm"
        echo "keeps in one group. Both libraries get the same UCX transports and run the same"
        echo "bench.c cases."
        if [ -n "$osh_btl" ]; then
            echo "OSHMEM's barrier and collectives run on Open MPI's own collectives, whose transfer"
            echo "layers (BTLs) do not follow UCX_TLS: left alone they use shared memory between all"
            echo "the PEs of the host, so its barrier would cross no network at all. They get"
            echo "\`--mca btl $osh_btl\`, the same network as UCX's (BENCH_OSH_BTL; empty keeps Open"
            echo "MPI's choice)."
        fi
        echo
        echo "A target written \"A, or B\" is met when either holds: the round-trip figures may"
        echo "instead sit within 5% of the network's round trip measured in the same run (the"
        echo "floors below), which no library on this network goes under."
        echo
        echo "- UCX transports: \`UCX_TLS=$ucx_tls\` for both (BENCH_UCX_TLS; default tcp,self)"
        echo "- symm: \`UCX_TLS=$ucx_tls $(basename "$build")/tools/symmrun -n N --nodes K\`"
        echo "- OSHMEM: \`oshrun --allow-run-as-root --mca osc ^rdma -x UCX_TLS=$ucx_tls${osh_btl:+ --mca btl $osh_btl} -np N\` (\`--oversubscribe\` past $(nproc) PEs)"
        echo "- made by: \`$cmd\`"
        echo
        figures_table "$across"
        if [ $plotted = yes ]; then
            echo
            echo "![latency and bandwidth against message size, symm and OSHMEM, $(where "$sweep_at")]($(basename "$plot"))"
            echo
            echo "The size sweep at $(where "$sweep_at") (bench.c's case sweep), PE 0"
            echo "against PE 1, each point its side's best round like the figures above: on the left"
            echo "the latency of shmem_putmem followed by shmem_quiet and of shmem_getmem, 8 B to"
            echo "64 KiB; on the right the bandwidth of a stream of shmem_putmem ended by one"
            echo "shmem_quiet, 8 B to 16 MiB. The sweep's lines are among the raw lines below."
        fi
    fi
    if [ -s "$work/notes" ]; then
        echo
        echo "Notes from the run:"
        echo
        sed 's/^/- /' "$work/notes"
    fi
    if [ -n "$FLOORS" ]; then
        echo
        echo "## Floors"
        echo
        echo "The same machine without any OpenSHMEM, measured in the same run by"
        echo "[bench/floors.c](../bench/floors.c) (one process, or two or four sharing one page,"
        echo "pinned to CPUs)."
        echo
        echo "| floor | ns | bounds | symm | symm/floor |"
        echo "|---|---|---|---|---|"
        while IFS='|' read -r f c n what; do
            floor_row "$f" "$c" "$n" "$what"
        done <<<"$FLOORS"
    fi
    echo
    echo "## Raw lines"
    echo
    echo '```'
    cat "$results"
    echo '```'
} >"$doc"

sed -n '/^## \(Figures\|Across virtual nodes\)/,/^## \(Floors\|Raw lines\)/p' "$doc" | sed '$d'
if [ $plotted = yes ]; then say "drew ${plot#"$root"/}"; fi
say "wrote ${doc#"$root"/} in $((SECONDS - t_start)) s"
if [ -z "${BENCH_ROWS:-}" ]; then ofi_part || true; fi
