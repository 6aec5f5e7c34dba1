#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs the GPU benchmark (bench/gpu/bench_gpu.cu) against symm and against NVSHMEM in one go
# on a machine with 2 GPUs, and writes the table of both side by side.
#   bench/gpu/compare.sh [BUILD_DIR] [OUT.md] [WORK_DIR] [ROW...]
# NVSHMEM: the nvidia-nvshmem-cu13 Python package (its headers, libnvshmem_host and the static
# device library), Open MPI's mpirun for the unique-id bootstrap. NVLink multicast stays off.
set -u
cd "$(dirname "$0")/../.."
build=${1:-build}
out=${2:-docs/bench-gpu-table.md}
work=${3:-$(mktemp -d)}
shift $(($# < 3 ? $# : 3)) # the rest: rows for bench_gpu
mkdir -p "$work"
export NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1
symmrun=$build/tools/symmrun

# ---- symm
timeout 400 "$symmrun" -n 2 --timeout 380 "$build/bench/gpu/bench_gpu" "$@" >"$work/symm.txt" \
    2>"$work/symm.err" || echo "compare.sh: the symm run failed (see $work/symm.err)"
for i in 1 2 3; do
    s=$(date +%s%N)
    timeout 60 "$symmrun" -n 2 "$build/bench/gpu/bench_gpu" start >>"$work/symm.err" 2>&1
    e=$(date +%s%N)
    echo "row=start_to_1GiB bytes=1073741824 value=$(( (e - s) / 1000 )) unit=us lib=symm" \
        >>"$work/symm-start.txt"
done

# ---- NVSHMEM: the same source against NVSHMEM's API
loc=$(python3 -m pip show nvidia-nvshmem-cu13 2>/dev/null | awk '/^Location:/ {print $2}')
NV=$loc/nvidia/nvshmem
if [ -n "$loc" ] && [ -d "$NV/include" ]; then
    mkdir -p "$work/lib"
    ln -sf "$NV/lib/libnvshmem_host.so.3" "$work/lib/libnvshmem_host.so"
    mpi_i=$(mpicc --showme:incdirs | sed 's/^/-I/; s/ / -I/g')
    mpi_l=$(mpicc --showme:libdirs | sed 's/^/-L/; s/ / -L/g')
    timeout 300 nvcc -O3 -std=c++17 -rdc=true -arch=sm_90 -DBENCH_NVSHMEM -I"$NV/include" $mpi_i \
        bench/gpu/bench_gpu.cu -o "$work/bench_nv" -L"$work/lib" -lnvshmem_host \
        "$NV/lib/libnvshmem_device.a" -lcuda -lnvidia-ml $mpi_l -lmpi \
        -Xlinker -rpath="$NV/lib" >"$work/nv-build.log" 2>&1 ||
        echo "compare.sh: building against NVSHMEM failed (see $work/nv-build.log)"
    mpirun_nv() {
        mpirun --allow-run-as-root -np 2 -x NVSHMEM_DISABLE_NVLS=1 -x NCCL_NVLS_ENABLE=0 \
            -x NVSHMEM_SYMMETRIC_SIZE=2G -x LD_LIBRARY_PATH "$@"
    }
    if [ -x "$work/bench_nv" ]; then
        timeout 400 bash -c "$(declare -f mpirun_nv); mpirun_nv $work/bench_nv $*" \
            >"$work/nv.txt" 2>"$work/nv.err" || echo "compare.sh: the NVSHMEM run failed"
        for i in 1 2 3; do
            s=$(date +%s%N)
            timeout 60 bash -c "$(declare -f mpirun_nv); mpirun_nv $work/bench_nv start" \
                >>"$work/nv.err" 2>&1
            e=$(date +%s%N)
            echo "row=start_to_1GiB bytes=1073741824 value=$(( (e - s) / 1000 )) unit=us lib=nvshmem" \
                >>"$work/nv-start.txt"
        done
    fi
else
    echo "compare.sh: NVSHMEM (nvidia-nvshmem-cu13) not found: symm only"
fi
touch "$work/nv.txt" "$work/nv-start.txt"

# ---- The table: one line per (row, bytes); start rows keep the median of three jobs.
cat "$work/symm.txt" "$work/symm-start.txt" "$work/nv.txt" "$work/nv-start.txt" | awk '
    /^row=/ {
        for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
        key = f["row"] "|" f["bytes"]
        if (!(key in seen)) { seen[key] = 1; order[++n] = key; unit[key] = f["unit"] }
        v[key "|" f["lib"]] = v[key "|" f["lib"]] " " f["value"]
    }
    function med(s,   a, m, i, j, t) {
        m = split(s, a, " ")
        if (m == 0) return ""
        for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
        return a[int((m + 1) / 2)]
    }
    function human(b) {
        if (b >= 1048576 && b % 1048576 == 0) return b / 1048576 " MiB"
        if (b >= 1024 && b % 1024 == 0) return b / 1024 " KiB"
        return b " B"
    }
    END {
        print "| row | size | unit | symm | NVSHMEM 3.4.5 | symm vs NVSHMEM |"
        print "|---|---|---|---|---|---|"
        for (k = 1; k <= n; k++) {
            key = order[k]; split(key, p, "|")
            s = med(v[key "|symm"]); q = med(v[key "|nvshmem"])
            u = unit[key]
            if (u == "us" && p[1] == "start_to_1GiB") { u = "s"; if (s != "") s = s / 1e6; if (q != "") q = q / 1e6 }
            r = ""
            if (s != "" && q != "" && s + 0 > 0 && q + 0 > 0)
                r = sprintf("%.2fx %s", (u == "GB/s") ? s / q : q / s, "")
            printf "| %s | %s | %s | %s | %s | %s |\n", p[1], (p[2] + 0 ? human(p[2]) : "-"), u, \
                (s == "" ? "-" : sprintf("%.3g", s)), (q == "" ? "-" : sprintf("%.3g", q)), r
        }
    }' >"$out"
cat "$out"
