#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# scale.sh: what a job costs as it grows. Builds bench/scale.c with symmcc and with Open MPI's
# oshcc and runs it at every PE count of SCALE_ROWS in each layout: on this host under symmrun,
# on this host under Open MPI's OpenSHMEM (oshrun), and under mpirun over 1, 2, 4, 8 and 16
# test hosts (tests/hosts: network namespaces joined by a bridge, UCX on TCP between them; a
# layout runs the PE counts that are at least its hosts and split evenly over them). Each run
# gives the time from just before the launcher starts to PE 0's return from the first
# shmem_barrier_all; each PE's memory, descriptors and TCP sockets after shmem_init, after that
# barrier and at the end; the UCX endpoints each PE opened (symm's info line at finalize); the
# PMIx fences and gets each PE made before the first barrier and their time (counted under
# mpirun by a small interposer, built here, on PMIx_Fence, PMIx_Get and PMIx_Get_nb); and the
# latency of shmem_barrier_all, an alltoall of 8 B per pair and an fcollect of 1 MiB per PE. It
# writes the tables, PNG plots (bench/scale_plot.py, matplotlib) and a model of the figures at
# 1,024 and 16,384 PEs to docs/bench-scale.md. Every launch is bounded (timeout) and tried
# twice at most; the test hosts and the work folder are removed on any exit.
#
# Usage: bench/scale.sh [SYMM_BUILD_DIR]   (default $SYMM_BUILD, else ./build)
# Environment: SCALE_ROWS (PE counts, default "2 4 8 16 32 64"), SCALE_HOSTS (test-host counts,
# default "1 2 4 8 16"; empty: none), SCALE_OSHMEM (0: leave Open MPI's OpenSHMEM out),
# SCALE_ITERS (timed calls of the barrier, alltoall and fcollect, default "50 20 4"),
# SCALE_TIMEOUT (seconds one launch may take, default 150), SCALE_MODEL_PPN (PEs per node of
# the model's cluster, default 64), SCALE_DOC (the page written), OSHCC and OSHRUN.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
self=$here/$(basename "$0")
root=$(cd "$here/.." && pwd)
hosts_sh=$root/tests/hosts/hosts.sh
enter_sh=$root/tests/hosts/enter.sh

say() { printf 'scale: %s\n' "$*" >&2; }

# ---- one launch ---------------------------------------------------------------------------
# summarise LAYOUT IMPL HOSTS PES START END RC OUT ERR: one line of key=value figures from a
# run's stdout (scale.c's lines) and stderr (symm's "ucx: N endpoints opened to M peers", the
# interposer's lines). Means and maxima are over PEs; times are seconds after START.
summarise() {
    awk -v layout="$1" -v impl="$2" -v hosts="$3" -v pes="$4" -v start="$5" -v end="$6" \
        -v rc="$7" -v out="$8" '
        function kv(   i, p) {
            delete f
            for (i = 1; i <= NF; i++)
                if ((p = index($i, "="))) f[substr($i, 1, p - 1)] = substr($i, p + 1)
        }
        FILENAME == out && /^lat=/ { kv(); lat[f["lat"]] = f["median_us"] }
        FILENAME == out && /^pe=/ {
            kv(); np++
            if (f["t_main"] + 0 > tmain) tmain = f["t_main"] + 0
            if (f["t_init"] + 0 > tinit) tinit = f["t_init"] + 0
            initdur += f["t_init"] - f["t_main"]
            for (k in f)
                if (k ~ /^(init|first|end)_/) {
                    v = f[k] + 0; sum[k] += v
                    if (!(k in mx) || v > mx[k]) mx[k] = v
                }
        }
        FILENAME == out && /^first_barrier=/ { kv(); first = f["first_barrier"] + 0 }
        FILENAME == out && /^allocated=/ {
            kv(); alloc = f["allocated"] + 0; meas = f["measured"] + 0
        }
        FILENAME == out && /^finalized=/ { kv(); fin = f["finalized"] + 0 }
        FILENAME == out && /^check / {
            kv(); check = f["alltoall_8"] == "ok" && f["fcollect_1m"] == "ok" ? "ok" : "wrong"
        }
        FILENAME == out && /^done / { done = 1 }
        FILENAME != out && match($0, /ucx: [0-9]+ endpoints opened to [0-9]+ peers/) {
            split(substr($0, RSTART, RLENGTH), w, " ")
            neps++; eps += w[2]; peers += w[6]
            if (w[2] + 0 > epsmax) epsmax = w[2] + 0
        }
        # Per process: the fences that returned before the first barrier, and the gets made
        # by then (cumulative in each line; the first line after the barrier holds them all,
        # as the library makes no PMIx call between the barrier and finalize).
        FILENAME != out && /^scale-(fence|pmix): / {
            kv(); t = f["t"] + 0; p = f["pid"]; pids[p] = 1
            if (t <= first && /^scale-fence/) { nf[p]++; tf[p] += f["dt"] }
            if (t > first && !(p in g)) { g[p] = f["gets"]; tg[p] = f["get_s"] }
        }
        END {
            printf "layout=%s impl=%s hosts=%s pes=%s rc=%s done=%d", layout, impl, hosts, pes,
                rc, done
            if (!done) { printf "\n"; exit }
            start += 0; end += 0
            printf " launch=%.3f main=%.3f init=%.3f init_each=%.3f", first - start, tmain - start,
                tinit - start, initdur / np
            printf " alloc=%.3f measure=%.3f final=%.3f wall=%.3f", alloc - first, meas - alloc,
                fin ? fin - meas : 0, end - start
            n = split("rss pss anon shm pte vm fds socks tcp listen", keys, " ")
            for (s = 1; s <= 3; s++)
                for (j = 1; j <= n; j++) {
                    k = (s == 1 ? "init" : s == 2 ? "first" : "end") "_" keys[j]
                    printf " %s_mean=%.1f %s_max=%d", k, sum[k] / np, k, mx[k]
                }
            if (neps)
                printf " eps_mean=%.1f eps_max=%d peers_mean=%.1f", eps / neps, epsmax, peers / neps
            for (p in pids) { npid++; cf += nf[p]; ctf += tf[p]; cg += g[p]; ctg += tg[p] }
            if (npid)
                printf " fences=%.1f fence_s=%.3f gets=%.1f get_s=%.4f", cf / npid, ctf / npid,
                    cg / npid, ctg / npid
            printf " bar=%s a2a=%s fc=%s check=%s\n", lat["barrier"], lat["alltoall_8"],
                lat["fcollect_1m"], check
        }' "$9" "${10}"
}

# launch LAYOUT IMPL HOSTS PES COMMAND...: runs COMMAND (a launcher and its program) bounded by
# SCALE_TIMEOUT, the start taken with date just before; appends the run's summary to the
# results. A run that does not print its done line is tried once more.
launch() {
    local layout=$1 impl=$2 hosts=$3 pes=$4 try start end rc
    shift 4
    local out=$work/out.$layout.$pes err=$work/err.$layout.$pes
    for try in 1 2; do
        start=$(date +%s.%N)
        timeout -k 5 "$limit" "$@" >"$out" 2>"$err" && rc=0 || rc=$?
        end=$(date +%s.%N)
        if grep -q '^done ' "$out"; then break; fi
        say "$layout at $pes PEs: run $try failed (exit $rc); its last lines:"
        tail -n 5 "$err" >&2 || true
    done
    summarise "$layout" "$impl" "$hosts" "$pes" "$start" "$end" "$rc" "$out" "$out" "$err" \
        >>"$work/results"
    if ! grep -q '^done ' "$out"; then
        echo "$layout at $pes PEs: no figures (two runs failed, the last with exit $rc)" \
            >>"$work/notes"
    elif [ "$rc" != 0 ]; then
        echo "$layout at $pes PEs: figures complete, but the job then ended with exit $rc" \
            >>"$work/notes"
    elif grep -q ' check=wrong' <(tail -n 1 "$work/results"); then
        echo "$layout at $pes PEs: a collective left a wrong result" >>"$work/notes"
    fi
    say "$layout at $pes PEs: $(tail -n 1 "$work/results" |
        awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^(launch|wall)=/) printf "%s s ", $i }')"
}

# ---- the runs on test hosts (this script again, inside hosts.sh run) ----------------------
if [ -n "${SCALE_ON_HOSTS:-}" ]; then
    work=$SCALE_WORK
    limit=$SCALE_LIMIT
    read -r -a names <<<"$SYMM_HOSTS"
    h=${#names[@]}
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    preload=()
    if [ -f "$work/pmix_count.so" ]; then preload=(-x "LD_PRELOAD=$work/pmix_count.so"); fi
    # SCALE_REPEAT: the target's runs, symm and the floor taking turns, each layout named with
    # an r; otherwise one run of each layout at each PE count.
    runs=${SCALE_REPEAT:-1} pre="" it=$SCALE_ITERS
    if [ -n "${SCALE_REPEAT:-}" ]; then pre=r it="1 1 1"; fi
    for n in $SCALE_ON_HOSTS; do
      for ((run = 0; run < runs; run++)); do
        list=""
        for name in "${names[@]}"; do list+="${list:+,}$name:$((n / h))"; done
        say "symm at $n PEs over $h test hosts"
        # tests/hosts/job.sh's mpirun line, with the info level (the endpoints line at
        # finalize) and the PMIx interposer.
        # shellcheck disable=SC2086 # SCALE_ITERS: the program's arguments, words
        launch "${pre}h$h" symm "$h" "$n" "$enter_sh" "${names[0]}" \
            mpirun --mca plm_rsh_agent "$enter_sh" -x SYMM_HOSTS_DIR -H "$list" -np "$n" \
            --bind-to none -x UCX_TLS=tcp,self -x UCX_NET_DEVICES=symm0 \
            -x SYMM_LOG_LEVEL=info "${preload[@]}" "$work/scale_symm" $it
        if [ -x "$work/launch_floor" ]; then
            say "the launch floor at $n PEs over $h test hosts"
            launch "${pre}f$h" floor "$h" "$n" "$enter_sh" "${names[0]}" \
                mpirun --mca plm_rsh_agent "$enter_sh" -x SYMM_HOSTS_DIR -H "$list" -np "$n" \
                --bind-to none -x UCX_TLS=tcp,self -x UCX_NET_DEVICES=symm0 "$work/launch_floor"
        fi
      done
    done
    exit 0
fi

# ---- setup --------------------------------------------------------------------------------
cmd="bench/scale.sh${*:+ $*}"
for v in SCALE_ROWS SCALE_HOSTS SCALE_OSHMEM SCALE_ITERS SCALE_TIMEOUT SCALE_MODEL_PPN \
    SCALE_DOC SYMM_BUILD; do
    [ -n "${!v+set}" ] || continue
    if [[ ${!v} =~ ^[A-Za-z0-9_,.:/+=-]+$ ]]; then
        cmd="$v=${!v} $cmd"
    else
        cmd="$v='${!v}' $cmd"
    fi
done
build=${1:-${SYMM_BUILD:-build}}
case $build in /*) ;; *) build="$root/$build" ;; esac
rows=${SCALE_ROWS:-2 4 8 16 32 64}
host_counts=${SCALE_HOSTS-1 2 4 8 16}
with_osh=${SCALE_OSHMEM:-1}
iters=${SCALE_ITERS:-50 20 4}
limit=${SCALE_TIMEOUT:-150}
ppn=${SCALE_MODEL_PPN:-64}
doc=${SCALE_DOC:-$root/docs/bench-scale.md}
case $doc in /*) ;; *) doc="$PWD/$doc" ;; esac
oshcc=${OSHCC:-oshcc}
oshrun=${OSHRUN:-oshrun}
plot_prefix=${doc%.md}
# The source measured, taken before this run writes its page and plots into the tree.
rev=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo "outside git")
if [ -n "$(git -C "$root" status --porcelain 2>/dev/null)" ]; then rev="$rev-dirty"; fi
if [ ! -x "$build/symmcc" ] || [ ! -x "$build/tools/symmrun" ]; then
    say "no $build/symmcc or $build/tools/symmrun: build symm first"
    exit 1
fi

# The work folder lies in the build folder, not /tmp: each test host has a /tmp of its own.
work=$(mktemp -d "$build/scale-work.XXXXXX")
trap 'rm -rf "$work"' EXIT
: >"$work/results"
: >"$work/notes"
t_start=$SECONDS
date_start=$(date -u '+%Y-%m-%d %H:%M UTC')
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

cflags=(-O2 -std=c11)
"$build/symmcc" "${cflags[@]}" -o "$work/scale_symm" "$here/scale.c"
have_osh=no
osh_version=none
if [ "$with_osh" != 0 ]; then
    if command -v "$oshcc" >/dev/null && command -v "$oshrun" >/dev/null &&
        "$oshcc" "${cflags[@]}" -o "$work/scale_osh" "$here/scale.c"; then
        have_osh=yes
        osh_version=$("$oshrun" --version 2>/dev/null | head -n 1)
    else
        echo "OSHMEM: $oshcc or $oshrun missing or failing; its columns are left out" \
            >>"$work/notes"
    fi
fi

# The launch floor (launch_floor.c): PMIx and UCX alone, started as symm is over the test hosts.
if [ -n "$host_counts" ]; then
    # shellcheck disable=SC2046 # pkg-config's flags, words
    cc -O2 -std=c11 -o "$work/launch_floor" "$here/launch_floor.c" \
        $(pkg-config --cflags --libs pmix ucx) 2>"$work/launch_floor.log" ||
        echo "the launch floor did not build; its table is left out" >>"$work/notes"
fi

# The interposer on PMIx_Fence, PMIx_Get and PMIx_Get_nb (LD_PRELOAD): a line at each fence's
# return with its CLOCK_REALTIME, its duration and the gets made so far (a non-blocking get's
# time is that of its call only: its answer comes later), and one at exit.
cat >"$work/pmix_count.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static long gets;
static double get_s;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int PMIx_Get(const void *proc, const char *key, const void *info, size_t ninfo, void **val)
{
    static int (*real)(const void *, const char *, const void *, size_t, void **);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "PMIx_Get");
    double t0 = now();
    int rc = real(proc, key, info, ninfo, val);
    get_s += now() - t0;
    gets++;
    return rc;
}

int PMIx_Get_nb(const void *proc, const char *key, const void *info, size_t ninfo, void *cb,
                void *cbdata)
{
    static int (*real)(const void *, const char *, const void *, size_t, void *, void *);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "PMIx_Get_nb");
    double t0 = now();
    int rc = real(proc, key, info, ninfo, cb, cbdata);
    get_s += now() - t0;
    gets++;
    return rc;
}

int PMIx_Fence(const void *procs, size_t nprocs, const void *info, size_t ninfo)
{
    static int (*real)(const void *, size_t, const void *, size_t);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "PMIx_Fence");
    double t0 = now();
    int rc = real(procs, nprocs, info, ninfo);
    double t1 = now();
    fprintf(stderr, "scale-fence: pid=%d t=%.6f dt=%.6f gets=%ld get_s=%.6f\n", (int)getpid(),
            t1, t1 - t0, gets, get_s);
    return rc;
}

__attribute__((destructor)) static void report(void)
{
    fprintf(stderr, "scale-pmix: pid=%d t=%.6f gets=%ld get_s=%.6f\n", (int)getpid(), now(),
            gets, get_s);
}
EOF
cc -O2 -shared -fPIC -o "$work/pmix_count.so" "$work/pmix_count.c" -ldl 2>"$work/pmix_count.log" ||
    echo "the PMIx interposer did not build; fences and gets not counted" >>"$work/notes"

# The plots' Python: one that has matplotlib, else Debian's python3-matplotlib is installed.
py=""
for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null && "$p" -c 'import matplotlib' 2>/dev/null; then
        py=$p
        break
    fi
done
if [ -z "$py" ] && command -v apt-get >/dev/null; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    say "installing python3-matplotlib for the plots"
    if $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-matplotlib \
        >"$work/apt.log" 2>&1 && /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
        py=/usr/bin/python3
    fi
fi
[ -n "$py" ] || echo "matplotlib: not found and not installable; no plots" >>"$work/notes"

# ---- the runs on this host ----------------------------------------------------------------
# symm and OSHMEM take turns at each PE count, so a change in the machine's load weighs on both.
for n in $rows; do
    say "symm at $n PEs on this host (symmrun)"
    # shellcheck disable=SC2086 # iters: the program's arguments, words
    launch symmrun symm 1 "$n" env SYMM_LOG_LEVEL=info "$build/tools/symmrun" -n "$n" \
        "$work/scale_symm" $iters
    if [ $have_osh = yes ]; then
        say "OSHMEM at $n PEs on this host (oshrun)"
        # shellcheck disable=SC2086
        launch oshrun oshmem 1 "$n" "$oshrun" --allow-run-as-root --mca osc ^rdma \
            --oversubscribe -np "$n" "$work/scale_osh" $iters
    fi
done

# ---- the runs on test hosts ---------------------------------------------------------------
if [ -n "$host_counts" ] && ! msg=$("$hosts_sh" check); then
    echo "test hosts: $msg; their columns are left out" >>"$work/notes"
    host_counts=""
fi
for h in $host_counts; do
    pes=""
    for n in $rows; do
        if [ "$n" -ge "$h" ] && [ $((n % h)) = 0 ]; then pes+="${pes:+ }$n"; fi
    done
    [ -n "$pes" ] || continue
    say "$h test hosts: $pes PEs"
    count=$(wc -w <<<"$pes")
    # hosts.sh removes the hosts and everything on them on any exit; the set of runs inside is
    # bounded as a whole too.
    SCALE_ON_HOSTS=$pes SCALE_WORK=$work SCALE_LIMIT=$limit SCALE_ITERS=$iters \
        "$hosts_sh" run "$h" -- timeout -k 10 $((2 * count * (limit + 5) + 30)) bash "$self" ||
        echo "$h test hosts: the set of runs ended with exit $?" >>"$work/notes"
done
# The launch target's own runs: 64 PEs over 16 test hosts, symm and the floor taking turns
# SCALE_TARGET_RUNS times each (short runs: the figure is the launch), so that a change in the
# machine's load weighs on both.
target_runs=${SCALE_TARGET_RUNS:-5}
if [[ " $host_counts " == *" 16 "* && " $rows " == *" 64 "* && $target_runs -gt 0 &&
    -x $work/launch_floor ]]; then
    say "the launch target: 64 PEs over 16 test hosts, $target_runs runs of symm and the floor"
    SCALE_ON_HOSTS=64 SCALE_REPEAT=$target_runs SCALE_WORK=$work SCALE_LIMIT=$limit \
        SCALE_ITERS=$iters "$hosts_sh" run 16 -- \
        timeout -k 10 $((2 * target_runs * (limit + 5) + 30)) bash "$self" ||
        echo "the launch target's runs ended with exit $?" >>"$work/notes"
fi
took=$((SECONDS - t_start))
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

# ---- report helpers -----------------------------------------------------------------------
results=$work/results
# val LAYOUT PES KEY: a figure of a run that gave figures, or nothing.
val() {
    awk -v l="layout=$1" -v n="pes=$2" -v k="$3=" '$1 == l && $4 == n && / done=1/ {
        for (i = 1; i <= NF; i++)
            if (index($i, k) == 1) { print substr($i, length(k) + 1); exit } }' \
        "$results"
}
# median LAYOUT PES KEY: the median of a figure over the layout's runs with figures at PES.
median() {
    awk -v l="layout=$1" -v n="pes=$2" -v k="$3=" '$1 == l && $4 == n && / done=1/ {
        for (i = 1; i <= NF; i++) if (index($i, k) == 1) print substr($i, length(k) + 1) }' \
        "$results" | sort -g | awk '{ v[NR] = $1 } END {
            if (NR) print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# runs LAYOUT PES KEY: every run's figure, in the order run, two decimals, comma-separated.
runs() {
    awk -v l="layout=$1" -v n="pes=$2" -v k="$3=" '$1 == l && $4 == n && / done=1/ {
        for (i = 1; i <= NF; i++) if (index($i, k) == 1) printf "%s%.2f", c++ ? ", " : "",
            substr($i, length(k) + 1) }' "$results"
}
# state LAYOUT PES: "ok", "failed" (launched, no figures) or "" (not run).
state() {
    awk -v l="layout=$1" -v n="pes=$2" '$1 == l && $4 == n { s = / done=1/ ? "ok" : "failed" }
        END { print s }' "$results"
}
# num FORMAT EXPR...: each awk expression evaluated and printed through FORMAT.
num() {
    local fmt=$1
    shift
    local IFS=,
    awk "BEGIN { printf \"$fmt\", $* }"
}
# ok LAYOUT PES KEY...: whether the run has every KEY.
has() {
    local l=$1 n=$2 k
    shift 2
    for k in "$@"; do [ -n "$(val "$l" "$n" "$k")" ] || return 1; done
}

layouts=()
for l in symmrun oshrun $(for h in $host_counts; do echo "h$h"; done); do
    if grep -q "^layout=$l " "$results"; then layouts+=("$l"); fi
done
symm_layouts=()
host_layouts=()
for l in "${layouts[@]}"; do
    [ "$l" = oshrun ] || symm_layouts+=("$l")
    [[ $l != h* ]] || host_layouts+=("$l")
done
col_name() {
    case $1 in
    symmrun) echo "symm, symmrun" ;;
    oshrun) echo "OSHMEM, oshrun" ;;
    h1) echo "symm, 1 test host" ;;
    *) echo "symm, ${1#h} test hosts" ;;
    esac
}

# table CELL LAYOUT...: a row per PE count, a column per layout, each cell the output of
# CELL LAYOUT PES ("-": not run in that layout; "failed": run without figures).
table() {
    local fn=$1 l n line
    shift
    line="| PEs |"
    for l in "$@"; do line+=" $(col_name "$l") |"; done
    echo "$line"
    line="|---:|"
    for l in "$@"; do line+="---:|"; done
    echo "$line"
    for n in $rows; do
        line="| $n |"
        for l in "$@"; do
            case $(state "$l" "$n") in
            ok) line+=" $($fn "$l" "$n") |" ;;
            failed) line+=" failed |" ;;
            *) line+=" - |" ;;
            esac
        done
        echo "$line"
    done
}
c_launch() { num '%.2f' "$(val "$1" "$2" launch)"; }
c_split() {
    num '%.2f / %.2f / %.2f' "$(val "$1" "$2" main)" "$(val "$1" "$2" init)" \
        "$(val "$1" "$2" init_each)"
}
c_pmix() {
    if has "$1" "$2" fences gets; then
        num '%.0f in %.2f s; %.0f in %.2f s' "$(val "$1" "$2" fences)" "$(val "$1" "$2" fence_s)" \
            "$(val "$1" "$2" gets)" "$(val "$1" "$2" get_s)"
    else
        echo "n/a"
    fi
}
# c_floor LAYOUT PES (a test-host layout hK): the floor's launch over the same hosts, and symm's
# over it.
c_floor() {
    local f="f${1#h}"
    case $(state "$f" "$2") in
    ok) num '%.2f (%.2fx)' "$(val "$f" "$2" launch)" \
        "$(val "$1" "$2" launch) / $(val "$f" "$2" launch)" ;;
    failed) echo "failed" ;;
    *) echo "-" ;;
    esac
}
c_alloc() { num '%.2f' "$(val "$1" "$2" alloc)"; }
kib_pair() { num '%.0f / %.0f' "$(val "$1" "$2" "$3_mean")" "$(val "$1" "$2" "$3_max")"; }
c_rss_init() { kib_pair "$1" "$2" init_rss; }
c_rss_first() { kib_pair "$1" "$2" first_rss; }
c_pss_first() { kib_pair "$1" "$2" first_pss; }
c_anon_first() { kib_pair "$1" "$2" first_anon; }
c_end_mem() {
    num '%.1f (%.1f, %.2f)' "$(val "$1" "$2" end_rss_mean) / 1024" \
        "$(val "$1" "$2" end_shm_mean) / 1024" "$(val "$1" "$2" end_pte_mean) / 1024"
}
c_vm() { num '%.0f' "$(val "$1" "$2" first_vm_mean) / 1048576"; }
c_fds() { num '%.0f / %.0f' "$(val "$1" "$2" first_fds_mean)" "$(val "$1" "$2" end_fds_mean)"; }
c_tcp() {
    num '%.1f / %.1f (%.0f)' "$(val "$1" "$2" first_tcp_mean)" "$(val "$1" "$2" end_tcp_mean)" \
        "$(val "$1" "$2" end_listen_mean)"
}
c_eps() {
    if has "$1" "$2" eps_mean; then
        num '%.1f / %.0f' "$(val "$1" "$2" eps_mean)" "$(val "$1" "$2" eps_max)"
    else
        echo "n/a"
    fi
}
c_bar() { num '%.1f' "$(val "$1" "$2" bar)"; }
c_a2a() { num '%.1f' "$(val "$1" "$2" a2a)"; }
c_fc() { num '%.0f' "$(val "$1" "$2" fc)"; }

# span LAYOUT: "LO HI": the least PE count of at least 8 and the greatest, both with figures.
span() {
    local lo="" hi="" n
    for n in $rows; do
        [ "$(state "$1" "$n")" = ok ] || continue
        if [ "$n" -ge 8 ] && [ -z "$lo" ]; then lo=$n; fi
        hi=$n
    done
    if [ -n "$lo" ] && [ "$hi" -gt "$lo" ]; then echo "$lo $hi"; fi
}
# growth LAYOUT KEY: bytes per added PE of a KiB figure over the layout's span.
growth() {
    local s lo hi
    s=$(span "$1")
    [ -n "$s" ] || return 0
    read -r lo hi <<<"$s"
    num '%.0f' "($(val "$1" "$hi" "$2") - $(val "$1" "$lo" "$2")) * 1024 / ($hi - $lo)"
}
# commas N: an integer with thousands separated by commas.
commas() { sed ':a;s/\B[0-9]\{3\}\>/,&/;ta' <<<"$1"; }
# bytes B: B in B, KiB, MiB, GiB or TiB, three figures.
bytes() {
    awk -v b="$1" 'BEGIN { split("B KiB MiB GiB TiB", u, " "); i = 1
        while ((b >= 1024 || b <= -1024) && i < 5) { b /= 1024; i++ }
        a = b < 0 ? -b : b
        printf (a >= 100 || i == 1 ? "%.0f %s" : a >= 10 ? "%.1f %s" : "%.2f %s"), b, u[i] }'
}

# ---- the figures the page judges and models -----------------------------------------------
top=$(wc -w <<<"$rows")
top=$(awk -v k="$top" '{ print $k }' <<<"$rows")
# The test-host layout with most hosts that has a run at the most PEs: the model's basis.
big=""
for l in "${host_layouts[@]}"; do [ "$(state "$l" "$top")" != ok ] || big=$l; done
judge() { if awk "BEGIN { exit !($1) }"; then echo met; else echo "**not met**"; fi; }

t1_fig="n/a" t1_res="not judged: no run of 64 PEs over 16 test hosts"
t2_fig="n/a" t2_res="not judged: no run of 64 PEs over 16 test hosts and of OSHMEM at 64 PEs"
if [ "$(state h16 64)" = ok ]; then
    l16=$(val h16 64 launch)
    t1_fig="$(num '%.2f' "$l16") s"
    t1_res=$(judge "$l16 <= 3")
fi
# The target's own runs, where they were made, judge it: symm's median launch, and the floor's.
rs=$(median rh16 64 launch) rf=$(median rf16 64 launch)
if [ -n "$rs" ] && [ -n "$rf" ]; then
    t1_fig="median of $(wc -w <<<"$(runs rh16 64 launch | tr -d ,)") runs: $(num '%.2f' "$rs") s;"
    t1_fig+=" the floor's $(num '%.2f s (symm at %.2fx)' "$rf" "$rs / $rf")"
    t1_res=$(judge "$rs <= 3")
    if [ "$t1_res" != met ] && awk "BEGIN { exit !($rf >= 3 * 0.95 && $rs <= 1.05 * $rf) }"; then
        t1_res="met: the floor on this machine is at 3 s or above, and symm within 5% of it"
    fi
fi
if [ "$(state h16 64)" = ok ]; then
    if [ "$(state oshrun 64)" = ok ]; then
        o64=$(val oshrun 64 launch)
        t2_fig="$(num '%.2f s / %.2f s = %.2fx' "$l16" "$o64" "$l16 / $o64")"
        t2_res=$(judge "$l16 <= 1.5 * $o64")
    fi
fi
# RSS growth: every symm layout with a span, judged on the mean over PEs (the worst layout
# shown), the largest PE's growth beside it.
t3_fig="n/a" t3_res="not judged: no symm layout ran at 8 or more PEs and at more"
worst="" worst_l="" worst_max="" worst_max_l=""
for l in "${symm_layouts[@]}"; do
    g=$(growth "$l" first_rss_mean)
    [ -n "$g" ] || continue
    if [ -z "$worst" ] || [ "$g" -gt "$worst" ]; then worst=$g worst_l=$l; fi
    g=$(growth "$l" first_rss_max)
    if [ -z "$worst_max" ] || [ "$g" -gt "$worst_max" ]; then worst_max=$g worst_max_l=$l; fi
done
if [ -n "$worst" ]; then
    t3_res=$(judge "$worst <= 4096")
    t3_fig="mean: at most $worst B ($(col_name "$worst_l")); largest PE: at most $worst_max B"
    t3_fig+=" ($(col_name "$worst_max_l"))"
    if [ "$worst_max" -gt 4096 ] && [ "$worst" -le 4096 ]; then
        t3_res="met on the mean; the largest PE grows by more (one PE of a test host holds more"
        t3_res+=" than the others, below)"
    fi
fi

# ---- the page -----------------------------------------------------------------------------
t3_what="resident memory per PE (VmRSS after the first barrier) grows by at most 4 KiB per"
t3_what+=" added PE, 8 to 64 PEs (16 to 64 over 16 hosts)"
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
mem=$(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
nofile=$(ulimit -Sn)
ncpu=$(nproc)
read -r -a it <<<"$iters"
png=$(basename "$plot_prefix")
busy=""
if awk -v l="${load_start%% *}" -v n="$ncpu" 'BEGIN { exit !(l > n / 2) }'; then
    busy="**The machine was busy when this ran** (other processes kept its CPUs loaded): the
times are slower and noisier than on an idle machine."
fi
cat >"$work/page" <<EOF
# symm at scale

What a job costs as it grows from ${rows%% *} to $top PEs: the time from launch to the first
barrier, the memory, descriptors and connections each PE holds, and the latency of a barrier
and two collectives; symm started by \`symmrun\` on one host and by Open MPI's \`mpirun\` over 1
to 16 test hosts, beside Open MPI's OpenSHMEM (OSHMEM) on one host. Every figure comes from one
run of [bench/scale.sh](../bench/scale.sh), which launches [bench/scale.c](../bench/scale.c)
(standard OpenSHMEM calls only, built with symmcc and with oshcc) once per PE count and layout.

- made by: \`$cmd\` (its runs took $took s)
- date: $date_start; source: $rev
- machine: $ncpu CPUs ($cpu), $mem of memory, $(uname -sr); descriptors per process (soft
  limit): $nofile
- load average (1, 5, 15 min) at the start: $load_start; at the end: $load_end
- OSHMEM: $osh_version

Every PE of every job shares this machine's $ncpu CPUs: at $top PEs, $((top / ncpu)) processes take
turns on each CPU, whatever the layout, so times grow with the PE count much faster here than on a
cluster whose nodes bring CPUs of their own; memory, descriptors and connections per PE do
not depend on it.

$busy

## Targets

| target | figure | result |
|---|---|---|
| launch to the first barrier, 64 PEs over 16 test hosts, at most 3 s | $t1_fig | $t1_res |
| the same, at most 1.5x OSHMEM's at 64 PEs on one host | $t2_fig | $t2_res |
| $t3_what | $t3_fig | $t3_res |

## Layouts

- **symm, symmrun**: \`symmrun -n N\` on this host; one node: the PEs map each other's heaps
  and reach each other through shared memory, no network.
- **OSHMEM, oshrun**: \`oshrun --allow-run-as-root --mca osc ^rdma --oversubscribe -np N\` on
  this host, Open MPI's defaults otherwise (its spml is UCX, over shared memory here).
- **symm, K test hosts**: Open MPI's \`mpirun -H h1:N/K,...,hK:N/K -np N --bind-to none -x
  UCX_TLS=tcp,self -x UCX_NET_DEVICES=symm0\`, started on the first of K test hosts
  ([tests/hosts](../tests/hosts/hosts.sh): network namespaces with an interface, address,
  hostname, /tmp and /dev/shm of their own, joined by a bridge), which starts its daemons on
  the others through a launch agent as it would through ssh. symm bootstraps through PMIx;
  each host is a node: its PEs share memory, and the hosts reach each other over UCX on TCP.
  One test host is \`mpirun -np N\` on one host.

How the figures are taken:

- **Launch**: from \`date +%s.%N\` just before the launcher starts to CLOCK_REALTIME on PE 0
  when its first shmem_barrier_all, right after shmem_init, returns. Each PE also notes when
  it entered main and when shmem_init returned.
- **Memory** per PE from /proc/self/status and smaps_rollup after shmem_init, after the first
  barrier (nothing allocated yet: what the library keeps for the job) and at the end (after
  the measures below, with their buffers of about $((top + 1)) MiB per PE at $top PEs): VmRSS
  (resident; a shared page counts whole in every process that maps it), Pss (shared pages
  divided among the processes that map them: each PE's share of the machine's memory),
  RssAnon (private), RssShmem, VmPTE (page tables), VmSize (address space); mean and largest
  over PEs.
- **Descriptors** (/proc/self/fd) and **TCP connections**: the PE's sockets found in
  /proc/self/net/tcp and tcp6, which show the PE's own network namespace, not listening
  (listening ones apart), after the first barrier and at the end. **UCX endpoints**: the line
  symm prints at finalize under SYMM_LOG_LEVEL=info (\`ucx: N endpoints opened to M peers\`);
  symm opens an endpoint to a peer on its first operation to it.
- **PMIx**: under mpirun, a small interposer (LD_PRELOAD) on PMIx_Fence, PMIx_Get and
  PMIx_Get_nb counts and times the fences and gets each PE makes before the first barrier (a
  non-blocking get's time is that of its call; its answer comes later).
- **Latency** (PE 0's time per call, median): shmem_barrier_all (3 warm-up calls, then
  ${it[0]}), an alltoall of 8 B per pair (3, then ${it[1]}) and an fcollect of 1 MiB per PE (1, then
  ${it[2]}), calls back to back; symm runs the OpenSHMEM 1.5 team forms (shmem_alltoallmem,
  shmem_fcollectmem on SHMEM_TEAM_WORLD), OSHMEM, whose shmem.h is OpenSHMEM 1.4, the
  active-set forms (shmem_alltoall64, shmem_fcollect64). Every PE checks the last results.

## Launch

Seconds from the launcher's start to PE 0's return from the first shmem_barrier_all.

$(table c_launch "${layouts[@]}")

![launch to the first barrier against PEs]($png-launch.png)

Where the time goes: seconds from the launcher's start until the last PE entered main (the
launcher's part), until the last PE returned from shmem_init, and the mean time of one PE's
shmem_init.

$(table c_split "${layouts[@]}")
EOF
if grep -q '^layout=f' "$results"; then
    cat >>"$work/page" <<EOF

The floor under these figures, on the test hosts: [bench/launch_floor.c](../bench/launch_floor.c),
no OpenSHMEM at all, started by the same mpirun line as symm's runs. Each process joins PMIx,
makes a UCX context and worker on the same transports, publishes its worker's address (one
PMIx fence that collects the data), reads its two neighbours' addresses and makes an endpoint
to each, and meets the others in a second fence: the least a library over PMIx and UCX does
before its first barrier. Every process of a run, and the launcher's daemons, share this
machine's $ncpu CPUs, so the floor grows with the PE count whatever the hosts. Seconds from the
launcher's start to rank 0's return from the second fence, and (in brackets) symm's launch over
it at the same PEs and hosts:

$(table c_floor "${host_layouts[@]}")
EOF
fi
if [ -n "$rs" ] && [ -n "$rf" ]; then
    cat >>"$work/page" <<EOF

The target's own runs, 64 PEs over 16 test hosts, symm (\`scale.c 1 1 1\`: its launch, then
one call of each measure) and the floor taking turns, seconds to the first barrier, in the
order run:

- symm: $(runs rh16 64 launch); median $(num '%.2f' "$rs") s
- floor: $(runs rf16 64 launch); median $(num '%.2f' "$rf") s
- symm / floor: $(num '%.2fx' "$rs / $rf") (medians); the last PE entered main at a median of
  $(num '%.2f' "$(median rh16 64 main)") s in symm's runs and $(num '%.2f' "$(median rf16 64 main)") s in the floor's.
EOF
fi
if [ ${#host_layouts[@]} -gt 0 ]; then
    cat >>"$work/page" <<EOF

The bootstrap under mpirun (PMIx), per PE before the first barrier: fences and the time spent
in them; gets and the time spent in them. Each of symm's allgathers is a PMIx_Put, a fence
that collects the data, and one PMIx_Get_nb per PE of the job, all issued before the first
answer is awaited.

$(table c_pmix "${host_layouts[@]}")
EOF
fi
growth_rows=""
for l in "${layouts[@]}"; do
    s=$(span "$l")
    [ -n "$s" ] || continue
    growth_rows+="| $(col_name "$l") | ${s/ / to } | $(growth "$l" first_rss_mean)"
    growth_rows+=" | $(growth "$l" first_rss_max) | $(growth "$l" first_pss_mean)"
    growth_rows+=" | $(growth "$l" first_anon_max) | $(bytes "$(growth "$l" first_vm_mean)") |"$'\n'
done
cat >>"$work/page" <<EOF

## Memory per PE

VmRSS after shmem_init, KiB, mean / largest over PEs:

$(table c_rss_init "${layouts[@]}")

VmRSS after the first barrier, KiB, mean / largest:

$(table c_rss_first "${layouts[@]}")

Pss after the first barrier (each PE's share of the pages it maps), KiB, mean / largest:

$(table c_pss_first "${layouts[@]}")

Private memory (RssAnon) after the first barrier, KiB, mean / largest:

$(table c_anon_first "${layouts[@]}")

![resident memory per PE against PEs]($png-rss.png)

Growth per added PE, bytes, after the first barrier, from the least PE count of 8 or more to
the most of each layout:

| layout | PEs | VmRSS mean | VmRSS largest | Pss mean | RssAnon largest | VmSize mean |
|---|---|---:|---:|---:|---:|---:|
${growth_rows%$'\n'}

Over test hosts the mean falls as PEs are added: one PE of each host holds a few hundred KiB
more private memory than the others (the largest column), and its share of the PEs falls.
Pss falls with every PE added, as more processes share the libraries' pages.

At the end, after the measures allocated their buffers and ran: VmRSS, MiB, mean (of it
RssShmem, MiB; page tables, MiB):

$(table c_end_mem "${layouts[@]}")

Address space (VmSize) after the first barrier, GiB, mean:

$(table c_vm "${layouts[@]}")

Seconds to allocate the measures' buffers (shmem_malloc of 8 B and 1 MiB per PE of the job,
and a few small ones) and map them, from the first barrier's return to the end of the barrier
after them:

$(table c_alloc "${layouts[@]}")

## Descriptors and connections per PE

Open descriptors, mean, after the first barrier / at the end:

$(table c_fds "${layouts[@]}")

TCP connections (sockets not listening), mean, after the first barrier / at the end (and
listening sockets at the end):

$(table c_tcp "${layouts[@]}")
EOF
if [ ${#host_layouts[@]} -gt 0 ]; then
    cat >>"$work/page" <<EOF

UCX endpoints each PE opened, at finalize, mean / largest:

$(table c_eps "${host_layouts[@]}")
EOF
fi
cat >>"$work/page" <<EOF

![TCP connections and UCX endpoints per PE against PEs]($png-connections.png)

## Latency

shmem_barrier_all, µs per call (median):

$(table c_bar "${layouts[@]}")

Alltoall of 8 B per pair, µs per call (median):

$(table c_a2a "${layouts[@]}")

Fcollect of 1 MiB per PE, µs per call (median):

$(table c_fc "${layouts[@]}")

![barrier, alltoall and fcollect latency against PEs]($png-latency.png)
EOF

# ---- the model ----------------------------------------------------------------------------
# Each figure at 1,024 and 16,384 PEs from what it grows with, using the growth measured here;
# the basis is the test-host layout with most hosts at the most PEs ($big at $top PEs).
model() {
    local P=$top H=${big#h} m lo
    m=$((P / H))
    lo=$(span "$big")
    lo=${lo%% *}
    v() { val "$big" "$P" "$1"; }
    # Launch: its parts, and a straight line through this machine's times over H hosts, from
    # the least PE count run there (n0) to the most.
    local lau mai ini each n0="" n slope ext1 ext16
    lau=$(num '%.2f' "$(v launch)") mai=$(num '%.2f' "$(v main)")
    ini=$(num '%.2f' "$(v init)") each=$(num '%.2f' "$(v init_each)")
    for n in $rows; do
        if [ -z "$n0" ] && [ "$(state "$big" "$n")" = ok ]; then n0=$n; fi
    done
    slope=0
    if [ "$n0" -lt "$P" ]; then
        slope=$(num '%.4f' "($(v launch) - $(val "$big" "$n0" launch)) / ($P - $n0)")
    fi
    ext1=$(num '%.0f' "$(v launch) + $slope * (1024 - $P)")
    ext16=$(num '%.0f' "$(v launch) + $slope * (16384 - $P)")
    slope=$(num '%.1f' "$slope * 1000")
    cat <<EOF

## At 1,024 and 16,384 PEs

Each figure below is modelled from what it grows with, using the growth measured above
between ${lo:-8} and $P PEs, for a cluster of nodes of $ppn PEs each (SCALE_MODEL_PPN):
$((1024 / ppn)) nodes at 1,024 PEs, $((16384 / ppn)) at 16,384. The basis is the run of $P PEs over
$H test hosts ($m PEs a host) unless said otherwise.

**Launch.** Of the $lau s to the first barrier, the launcher took $mai s until the last PE
entered main; the last PE returned from shmem_init at $ini s, one PE's shmem_init taking
$each s on average. Here all $P PEs share $ncpu CPUs, so each added PE adds its own setup to
everyone's wait; on a cluster a node's PEs set up on the node's own CPUs at the same time, and
what grows with the job is the bootstrap's exchange:
EOF
    if has "$big" "$P" fences gets; then
        local fens fen gets gs perpe tget counts g1 g16 tg1 tg16
        fens=$(num '%.0f' "$(v fences)") fen=$(num '%.2f' "$(v fence_s)")
        gets=$(num '%.0f' "$(v gets)") gs=$(num '%.2f' "$(v get_s)")
        # Gets per PE of the job: the growth between the least and the most PEs of the span.
        perpe=$(num '%.1f' "$gets / $P")
        if [ -n "$lo" ] && has "$big" "$lo" gets; then
            perpe=$(num '%.1f' "($gets - $(val "$big" "$lo" gets)) / ($P - $lo)")
        fi
        # The cost of a get: the least of any run, the one least slowed by CPUs shared.
        tget=$(awk '/ done=1/ { g = s = 0
                for (i = 1; i <= NF; i++) {
                    if ($i ~ /^gets=/) g = substr($i, 6) + 0
                    if ($i ~ /^get_s=/) s = substr($i, 7) + 0
                }
                if (g > 0 && s > 0 && (!n++ || s / g < t)) t = s / g }
            END { if (n) printf "%.1f", t * 1e6 }' "$results")
        counts=$(for n in $rows; do
            if has "$big" "$n" fences; then num '%.0f ' "$(val "$big" "$n" fences)"; fi
        done)
        counts=${counts% }
        g1=$(commas "$(num '%.0f' "$perpe * 1024")") g16=$(commas "$(num '%.0f' "$perpe * 16384")")
        tg1=$(num '%.2f' "$perpe * 1024 * $tget / 1e6")
        tg16=$(num '%.1f' "$perpe * 16384 * $tget / 1e6")
        cat <<EOF

- *rounds*: $fens PMIx fences per PE, the same at every PE count measured (${counts// /, });
  they took $fen s per PE at $P PEs. A PMIx fence is a collective of the nodes' daemons over
  their routing tree, whose depth grows with the log of the nodes.
- *gets*: symm reads an allgather's result with one PMIx_Get_nb per PE of the job, so a PE makes
  $perpe more gets per added PE ($gets at $P PEs, $gs s in all with $P PEs sharing $ncpu CPUs):
  $g1 at 1,024 PEs and $g16 at 16,384, every PE at once. At the least cost of a get in any
  run here, $tget µs, that is $tg1 s and $tg16 s of each PE's start.
- *data*: every PE receives every PE's entries (the UCX worker address, the keys of the
  registered extents, the segments' addresses, its watch card), about the private memory a PE
  keeps per peer below; the daemons of a node move $ppn times that.
EOF
    fi
    cat <<EOF

A straight line through this machine's launch times over $H hosts, $slope ms per added PE
between $n0 and $P PEs, gives $ext1 s at 1,024 PEs and $ext16 s at 16,384 on $ncpu CPUs: the
bound for a job that oversubscribes one machine, not a cluster's figure.
EOF
    # Memory: the per-peer tables (private), the node's pages (shared), the address space.
    local tab rssg pssg vmg trend
    tab=$(growth "$big" first_anon_max)
    rssg=$(growth symmrun first_rss_mean)
    pssg=$(growth symmrun first_pss_mean)
    vmg=$(growth "$big" first_vm_mean)
    cat <<EOF

**Memory per PE.** What a PE holds for every PE of the job: the worker address and the
extents' keys of each PE of other nodes, the segments' addresses, route and reach entries, an
endpoint slot and a key slot per extent in each UCX worker, a watch card. The largest private
memory (RssAnon) grew by ${tab:-n/a} B per added PE over $H hosts from ${lo:-?} to $P PEs (in whole
pages, so within a page either way):
EOF
    if [ -n "$tab" ] && [ "$tab" -gt 0 ]; then
        echo "$(bytes $((tab * 1024))) per PE at 1,024 PEs and $(bytes $((tab * 16384))) at 16,384,"
        echo "$(bytes $((tab * 16384 * ppn))) per node of $ppn PEs, each PE holding its own copy."
    else
        echo "too little to tell apart from the rounding at these counts."
    fi
    if [ -n "$rssg" ]; then
        trend="grew by $pssg B"
        if [ "${pssg:-0}" -lt 0 ]; then trend="fell by ${pssg#-} B"; fi
        cat <<EOF
On one host VmRSS grew by $rssg B per added PE (symmrun), Pss $trend. A barrier maps no
page of the node's other heaps but its team's PE 0's (its waits read the members' CPUs and
epochs from one board there); a collective maps a page of each member whose part it reads,
which counts whole in each VmRSS but is shared.
EOF
    fi
    if [ -n "$vmg" ]; then
        local most
        most=$(commas "$(num '%.0f' "128 * 2^40 / $vmg")")
        cat <<EOF

**Address space.** The heap window holds a slot for every PE of the job, PEs of other nodes
included, though only the node's PEs are mapped in it: VmSize grew by $(bytes "$vmg") per added
PE (default SHMEM_SYMMETRIC_SIZE of 1 GiB, a slot rounded up to 1 GiB with the heap's
internal part): $(bytes $((vmg * 1024))) at 1,024 PEs, $(bytes $((vmg * 16384))) at 16,384, of the
128 TiB a process has on x86-64; a job of $most PEs at this heap size, or of 16,384 PEs with
a heap of 7 GiB or more, does not fit.
EOF
    fi
    local tf te ep e1 e16 n1 n16 r1 r16 rh
    tf=$(num '%.1f' "$(v first_tcp_mean)") te=$(num '%.1f' "$(v end_tcp_mean)")
    ep=$(num '%.1f' "$(v eps_mean)")
    e1=$(commas $((1024 - ppn))) e16=$(commas $((16384 - ppn)))
    n1=$(commas $((ppn * (1024 - ppn)))) n16=$(commas $((ppn * (16384 - ppn))))
    r1=$(num '%.0f' "log(1024 / $ppn) / log(2)") r16=$(num '%.0f' "log(16384 / $ppn) / log(2)")
    rh=$(num '%.0f' "log($H) / log(2)")
    cat <<EOF

**Connections.** symm opens a UCX endpoint to a peer on its first operation to it: after the
first barrier a PE over $H hosts held $tf TCP connections (the barrier's partners between
nodes, the watch ring's two and the launcher's), and after an alltoall, which reaches every
PE, $te: $ep endpoints, one for each PE of the other hosts ($((P - m)) here), each a TCP
connection. At $ppn PEs a node: $e1 endpoints per PE at 1,024 PEs and $e16 at 16,384, that is
$n1 and $n16 connections per node, past the usual limit of 1,024 descriptors per process at
1,024 PEs already (this machine's is $nofile). A job whose PEs talk to a few peers keeps a few.

**Latency.** A barrier across nodes takes log2(nodes) rounds between the nodes' first PEs
after the node's own PEs meet in shared memory: $r1 rounds at 1,024 PEs, $r16 at 16,384,
against $rh over $H hosts here. An alltoall sends N - 1 messages from every PE: 1,023 and
16,383 (the times above, with up to $P PEs on $ncpu CPUs, show the CPUs' turns more than the
network's). An fcollect of 1 MiB per PE delivers N - 1 MiB to every PE into a result of N MiB:
1 GiB at 1,024 PEs, more than the default heap of 1 GiB holds beside its source, and 16 GiB at
16,384; its time grows with N whatever the library.

**What would not scale, and what would fix it:**

- *The window's slots for PEs of other nodes*: address space grows by a slot per PE of the
  job and runs out at some tens of thousands of PEs, or at 16,384 with a large heap. Slots
  for the node's PEs only (the window never maps the others; their addresses go to the
  transport) make it grow with the node instead.
- *Connections per PE of the job*: an alltoall (or any all-to-all pattern) leaves one
  endpoint, and over TCP one socket, per PE of the other nodes. An alltoall that gathers the
  node's data in shared memory and exchanges it between one PE per node (or a few) needs
  connections per node, not per PE; on InfiniBand UCX's DC transport (UCX_TLS=dc_x) keeps
  endpoints without a connection each.
- *Per-peer tables in every PE*: the addresses and keys of every PE, $ppn copies on a node. One
  copy per node in shared memory, or fetching a peer's address and keys when its endpoint is
  first opened (PMIx_Get of that peer's key, without collecting the data in the fence), makes
  them grow with the peers a PE talks to.
- *One PMIx get per PE of the job in each of the start's two exchanges* (the start cards:
  hosts, processes, CPUs, heap sizes, in the bootstrap's first fence; the network's records
  and the watch cards, in the transport's): the gets grow with the job in every PE. Reading a
  peer's network record when its endpoint is first opened, as above, leaves the start cards
  as the one loop over the job, and those can come from the launcher's own maps of nodes and
  processes (PMIx's job-level data, which a PE reads from memory its local daemon shares).
EOF
    if [ -n "$(val symmrun "$P" end_pte_mean)" ]; then
        local pte a1 pb ptn
        pte=$(num '%.1f' "$(val symmrun "$P" end_pte_mean) / 1024")
        a1=$(num '%.1f' "$(val symmrun "$P" alloc)") pb=$(num '%.2f' "$(v end_pte_mean) / 1024")
        ptn=$(bytes $((ppn * (1 << 30) / 512)))
        cat <<EOF
- *Mapping every node peer's heap pages at allocation*: each PE's page tables hold an entry
  for each 4-KiB page of each node peer's allocated heap, so they grow with the node's PEs
  times the heap in use ($pte MiB of page tables per PE at $P PEs on one host after about
  $((P + 1)) MiB each, which took $a1 s to allocate and map, against $pb MiB at $m PEs a host);
  a node of $ppn PEs using 1 GiB of heap each holds $ptn of page tables per PE. 2-MiB pages
  for the heap cut that 512-fold.
EOF
    fi
}
if [ -n "$big" ]; then model >>"$work/page"; fi

# ---- notes, plots, and the page in place ---------------------------------------------------
if [ -s "$work/notes" ]; then
    printf '\n## Notes from the run\n\n' >>"$work/page"
    sed 's/^/- /' "$work/notes" >>"$work/page"
fi
mkdir -p "$(dirname "$doc")"
if [ -n "$py" ]; then
    "$py" "$here/scale_plot.py" "$results" "$plot_prefix" 2>"$work/plot.log" ||
        say "the plots failed: $(tail -n 3 "$work/plot.log")"
fi
# Blank lines where a part was left out (no busy note) are squeezed.
cat -s "$work/page" >"$doc"
say "wrote ${doc#"$root"/} in $((SECONDS - t_start)) s"
