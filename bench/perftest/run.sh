#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# NVSHMEM's own performance tests, built twice with nothing in them edited: against the NVSHMEM
# installed on the machine and against symm's nvshmem.h; then run on the same GPUs in one call,
# the two sides taking turns program by program. Writes each side's machine-readable output
# (NVSHMEM_MACHINE_READABLE_OUTPUT) and the build and run logs under OUT;
# bench/perftest/report.sh turns OUT into docs/bench-nvshmem-perftest.md and its plot.
#   bench/perftest/run.sh SRC BUILD OUT
# SRC holds NVSHMEM's perftest/ folder at the tag of the installed release (for 3.4.5:
# `git archive v3.4.5-0 perftest` of NVIDIA/nvshmem), never committed: bench/perftest/nvshmem-src/
# is ignored by git for it. BUILD is a
# symm build with the GPU part (libsymm). Every program is built as NVSHMEM's CMake builds it
# (its file and perftest/common/utils.cu, -DNVSHMEMTEST_MPI_SUPPORT) and started alike on both
# sides: NVSHMEMTEST_USE_UID_BOOTSTRAP=1 mpirun -np NP, with the arguments of its .args file.
# Environment: NV (NVSHMEM's install: include/ and lib/; default: nvidia/nvshmem of the Python
# on PATH), SIDES ("nvshmem symm"), ONLY (regex of program paths), NP (2), JOBS (parallel
# compiles, nproc), EXTRA_CFLAGS (added to every compile), RUN_TIMEOUT (seconds per run, 120), ARCH (sm_90), MPIRUN (mpirun), STEPS
# ("build run"; "build" alone checks that everything builds, on a machine without a GPU too).
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "${1:?usage: bench/perftest/run.sh SRC BUILD OUT}" && pwd)
build=$(cd "${2:?usage: bench/perftest/run.sh SRC BUILD OUT}" && pwd)
out=${3:?usage: bench/perftest/run.sh SRC BUILD OUT}
repo=$(cd "$here/../.." && pwd)
sides=${SIDES:-nvshmem symm}
only=${ONLY:-.}
np=${NP:-2}
jobs=${JOBS:-$(nproc)}
run_timeout=${RUN_TIMEOUT:-120}
arch=${ARCH:-sm_90}
mpirun=${MPIRUN:-mpirun}
pt=$src/perftest
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
export PT_NVCC=$nvcc
export NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0 NVSHMEM_MACHINE_READABLE_OUTPUT=1
export NVSHMEMTEST_USE_UID_BOOTSTRAP=1

[ -d "$pt/common" ] || { echo "run.sh: $pt/common is missing: SRC must hold NVSHMEM's perftest/" >&2; exit 2; }
[ -e "$build/libsymm.so" ] || { echo "run.sh: $build/libsymm.so is missing" >&2; exit 2; }
if [ -z "${NV:-}" ]; then
    NV=$(python3 -c 'import nvidia.nvshmem, os; print(os.path.dirname(nvidia.nvshmem.__file__))' 2>/dev/null ||
        python3 -c 'import nvidia, os; print(os.path.join(list(nvidia.__path__)[0], "nvshmem"))' 2>/dev/null)
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The programs NVSHMEM's CMake builds (nvshmem_add_perftest), as paths under perftest/.
programs() {
    find "$pt" -name CMakeLists.txt | sort | while read -r f; do
        d=${f%/CMakeLists.txt}
        sed -n 's/^ *nvshmem_add_perftest(\([^)]*\))/\1/p' "$f" | while read -r p; do
            echo "${d#"$pt"/}/$p"
        done
    done | grep -E -- "$only"
}

mpi_inc=$(mpicc --showme:incdirs 2>/dev/null | awk '{ for (i = 1; i <= NF; i++) printf "-I%s ", $i }')
common_flags="-O3 -arch=$arch -std=c++17 -DNVSHMEMTEST_MPI_SUPPORT -I$pt/common $mpi_inc ${EXTRA_CFLAGS:-}"

# flags SIDE: compile flags and link flags of a side, each on a line.
flags() {
    case $1 in
    nvshmem)
        mkdir -p "$out/nvshmem/lib"
        ln -sf "$NV/lib/libnvshmem_host.so.3" "$out/nvshmem/lib/libnvshmem_host.so"
        echo "-rdc=true -I$NV/include"
        echo "-rdc=true -L$out/nvshmem/lib -lnvshmem_host $NV/lib/libnvshmem_device.a -lcuda -lnvidia-ml -Xlinker -rpath=$NV/lib"
        ;;
    symm)
        echo "-I$build/include -I$repo/include"
        echo "-L$build -lsymm -lcuda -ldl -Xlinker -rpath=$build"
        ;;
    esac
}

# build SIDE: every program of the side, JOBS at a time; build.log says which failed and why.
build_side() {
    local side=$1 cflags lflags
    cflags=$(flags "$side" | sed -n 1p)
    lflags=$(flags "$side" | sed -n 2p)
    mkdir -p "$out/$side/bin" "$out/$side/obj"
    : >"$out/$side/build.log"
    # shellcheck disable=SC2086
    "$nvcc" $common_flags $cflags -x cu -c "$pt/common/utils.cu" -o "$out/$side/obj/utils.o" \
        >>"$out/$side/build.log" 2>&1 || echo "FAIL common/utils.cu" >>"$out/$side/build.log"
    programs | xargs -P "$jobs" -I{} sh -c '
        p=$1 side=$2 out=$3 pt=$4 cflags=$5 lflags=$6 common=$7 arch=$8
        name=$(basename "${p%.*}")
        log=$out/$side/obj/$name.log
        if "$PT_NVCC" $common $cflags -I"$pt/$(dirname "$p")" -x cu -c "$pt/$p" -o "$out/$side/obj/$name.o" >"$log" 2>&1 &&
            "$PT_NVCC" -arch=$arch "$out/$side/obj/$name.o" "$out/$side/obj/utils.o" $lflags -o "$out/$side/bin/$name" >>"$log" 2>&1; then
            echo "OK   $p"
        else
            echo "FAIL $p"; sed "s/^/     /" "$log" | grep -E "error" | head -20
        fi' _ {} "$side" "$out" "$pt" "$cflags" "$lflags" "$common_flags" "$arch" >>"$out/$side/build.log"
    echo "run.sh: $side: $(grep -c '^OK' "$out/$side/build.log") built, $(grep -c '^FAIL' "$out/$side/build.log") failed" >&2
}

# The environment every rank gets: the settings above and those of the caller's that the
# libraries read (a GPU shared by two PEs under symm, NVSHMEM's transports, UCX's).
pass_env=()
for v in NVSHMEMTEST_USE_UID_BOOTSTRAP NVSHMEM_MACHINE_READABLE_OUTPUT NVSHMEM_DISABLE_NVLS \
    LD_LIBRARY_PATH SYMM_GPU_DEVICE SYMM_NODES NVSHMEM_DISABLE_P2P NVSHMEM_REMOTE_TRANSPORT UCX_TLS; do
    [ -n "${!v+x}" ] && pass_env+=(-x "$v")
done

# run SIDE PROGRAM: each argument line of the program's .args file (or none), appended to
# OUT/SIDE/results.txt under a line naming the program and its arguments.
run_one() {
    local side=$1 p=$2 name args_file line
    name=$(basename "${p%.*}")
    args_file=$pt/${p%.*}.args
    [ -x "$out/$side/bin/$name" ] || return 0
    { [ -f "$args_file" ] && cat "$args_file" && echo; } | grep -v '^ *$' >"$out/args.txt"
    [ -s "$out/args.txt" ] || echo "" >"$out/args.txt"
    while IFS= read -r line; do
        echo "#### $name $line" >>"$out/$side/results.txt"
        echo "run.sh: $side $name $line" >&2
        # shellcheck disable=SC2086 # the arguments are split into words
        timeout "$run_timeout" "$mpirun" --allow-run-as-root -np "$np" --bind-to none \
            "${pass_env[@]}" "$out/$side/bin/$name" $line </dev/null >>"$out/$side/results.txt" 2>>"$out/$side/run.log" ||
            echo "#### exit $? $name $line" >>"$out/$side/results.txt"
    done <"$out/args.txt"
}

{
    echo "date: $(date -u +%FT%TZ)"
    echo "symm: $(git -C "$repo" rev-parse --short HEAD 2>/dev/null)"
    echo "nvshmem: $NV ($(sed -n 's/.*NVSHMEM_VENDOR_STRING *"\(.*\)"/\1/p' "$NV/include/non_abi/nvshmem_version.h" 2>/dev/null))"
    echo "launch: NVSHMEMTEST_USE_UID_BOOTSTRAP=1 $mpirun --allow-run-as-root -np $np --bind-to none PROGRAM ARGS"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -"$np"
    nvidia-smi topo -m 2>/dev/null | head -$((np + 1))
} >"$out/machine.txt"
steps=${STEPS:-build run}
case " $steps " in *" build "*)
    for side in $sides; do
        rm -rf "${out:?}/$side"
        build_side "$side"
    done ;;
esac
case " $steps " in *" run "*) ;; *) exit 0 ;; esac
for p in $(programs); do
    for side in $sides; do
        run_one "$side" "$p"
    done
done
rm -f "$out/args.txt"
