#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# faults.sh: how fast a job over test hosts ends after a network fault, over several runs
# (tests/hosts/fault.sh does one run and checks it). Each run starts PEs streaming puts and gets
# with checks over H hosts of P PEs (mpirun, UCX on TCP over the hosts' interfaces), then either
# takes the last host's link down at the switch or kills every process of that host, and times
# until every PE of the other hosts has stopped (and until mpirun exits). Writes the table, with
# median and worst, to docs/bench-faults.md (FAULTS_DOC overrides).
#   bench/faults.sh [BUILD_DIR]   (default ./build)
# Environment: FAULTS_RUNS (default 5), FAULTS_SHAPES (default "2x2 4x2").
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
runs=${FAULTS_RUNS:-5}
shapes=${FAULTS_SHAPES:-2x2 4x2}
doc=${FAULTS_DOC:-docs/bench-faults.md}
prog=$build/tests/hosts_stream
[ -x "$prog" ] || { echo "faults.sh: $prog is not built" >&2; exit 1; }
msg=$(tests/hosts/hosts.sh check) || { echo "$msg"; exit 1; }
rev=$(git rev-parse --short HEAD)
git diff --quiet HEAD -- src tests bench || rev="$rev-dirty"
timeout_s=$("$build/tools/symminfo" 2>/dev/null | awk '/SYMM_NET_TIMEOUT/ {print $2; exit}')

stats() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) { print "- -"; exit }
    m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f %.2f\n", m, v[NR] }'; }

rows=()
for shape in $shapes; do
    ppn=${shape#*x}
    for mode in link kill; do
        pes=() jobs=() bad=0
        for r in $(seq 1 "$runs"); do
            out=$(timeout -k 5 200 tests/hosts/fault.sh "$mode" "$shape" 60 "$prog" "$ppn" 1000000 2>&1 || true)
            line=$(grep "^fault.sh: $mode on" <<<"$out" || true)
            if ! grep -q "^fault.sh: $mode: passed" <<<"$out"; then
                bad=$((bad + 1))
                echo "faults.sh: $mode $shape run $r failed:" >&2
                tail -n 5 <<<"$out" >&2
            fi
            [ -n "$line" ] || continue
            pes+=("$(sed 's/.*PEs stopped \([0-9.]*\) s.*/\1/' <<<"$line")")
            jobs+=("$(sed 's/.*the job \([0-9.]*\) s after.*/\1/' <<<"$line")")
            echo "faults.sh: $shape $mode run $r: ${pes[-1]} s (mpirun ${jobs[-1]} s)" >&2
        done
        read -r pm pw < <(printf '%s\n' "${pes[@]}" | stats)
        read -r jm jw < <(printf '%s\n' "${jobs[@]}" | stats)
        rows+=("| $shape | $mode | ${#pes[@]} | $pm | $pw | $jm | $jw | $bad | $(echo "${pes[@]}" | tr ' ' ',') |")
    done
done

{
    echo "# Network faults: how fast a job ends"
    echo
    echo "Made by \`bench/faults.sh build\` on $(date -u +%Y-%m-%d) at $rev, $(nproc) CPUs,"
    echo "SYMM_NET_TIMEOUT=${timeout_s:-3} (the default). Each run: PEs streaming 64 KiB puts and gets"
    echo "with checks over test hosts (\`tests/hosts/hosts.sh\`: network namespaces joined by a"
    echo "bridge, started by Open MPI's mpirun through its own remote launch, UCX on TCP over the"
    echo "hosts' interfaces); then the last host's link goes down at the switch (\`link\`) or every"
    echo "process of that host is killed (\`kill\`). *PEs stopped*: seconds from the fault until no PE"
    echo "of the other hosts runs (the lost host's own PEs end themselves, unheard); *mpirun*: until"
    echo "the launcher exits, which for a lost link waits for TCP to give up on its daemon there"
    echo "(the test hosts set \`tcp_retries2=4\`, about 6 s)."
    echo
    echo "| hosts x PEs | fault | runs | PEs stopped, median (s) | worst (s) | mpirun exits, median (s) | worst (s) | failed runs | each run (s) |"
    echo "|---|---|---|---|---|---|---|---|---|"
    printf '%s\n' "${rows[@]}"
    echo
    echo "Targets: a lost link ends every surviving PE within 5 s (median), the worst run under"
    echo "8 s; a killed host within 3 s. How: \`docs/architecture.md\`, *Host watch*."
} >"$doc"
echo "faults.sh: wrote $doc"
