#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A public OpenSHMEM test suite against symm: the C and C++ programs of tests-sos
# (github.com/openshmem-org/tests-sos, the suite Sandia OpenSHMEM ships) in test/unit,
# test/spec-example (the examples of the OpenSHMEM specification) and test/apps, built with
# the suite's default configuration (no deprecated or shmemx tests) by symmcc and run by
# symmrun at each PE count (programs that use MPI too: mpicc and mpirun). The suite is fetched
# by the user and never part of this repository.
#   tests/conformance/sos.sh SUITE BUILD [OUT] [PES]
# SUITE: a checkout of tests-sos; BUILD: symm's build folder; OUT: where binaries and logs go
# (a temporary folder); PES: "1 2 3 4". Prints one line per failing build or run and a summary;
# exits non-zero when anything failed. Environment: SOS_TIMEOUT (seconds per run, 60), CXX,
# MPICC, MPIRUN.
set -u
suite=$(cd "${1:?usage: tests/conformance/sos.sh SUITE BUILD [OUT] [PES]}" && pwd)
build=$(cd "${2:?usage: tests/conformance/sos.sh SUITE BUILD [OUT] [PES]}" && pwd)
out=${3:-$(mktemp -d)}
pes=${4:-1 2 3 4}
timeout_s=${SOS_TIMEOUT:-60}
mkdir -p "$out/bin"
out=$(cd "$out" && pwd)
[ -d "$suite/test/unit" ] || { echo "sos.sh: $suite/test/unit is missing: SUITE must be a tests-sos checkout" >&2; exit 2; }

# programs DIR: the C and C++ programs that DIR/Makefile.am lists (check_PROGRAMS, those under
# the suite's feature conditions too: C++, threads, profiling, MPI), without the Fortran ones.
programs() {
    sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$1/Makefile.am" |
        sed -n 's/^ *check_PROGRAMS *+\{0,1\}= *//p' | tr ' \t' '\n\n' | grep -v -e '^$' -e '_f$' | sort -u
}

# source DIR PROGRAM: the source files and extra flags of PROGRAM, as its Makefile.am says.
source_of() {
    case $2 in
    rma_coverage_pshmem) echo "rma_coverage.c -DTEST_PSHMEM" ;;
    query_thread_funneled) echo "query_thread.c -DENABLE_THREADS" ;;
    mt_lock_test) echo "mt_lock_test.c mt_lock.c" ;;
    *) if [ -f "$1/$2.c" ]; then echo "$2.c"; else echo "$2.cpp"; fi ;;
    esac
}

built=0 build_failed=0 passed=0 failed=0
: >"$out/log.txt"
for dir in unit spec-example apps; do
    d=$suite/test/$dir
    [ -f "$d/Makefile.am" ] || continue
    for p in $(programs "$d"); do
        read -r -a src <<<"$(source_of "$d" "$p")"
        cc=("$build/symmcc")
        run=("$build/tools/symmrun" -n)
        case ${src[0]} in *.cpp) cc=(env SYMM_CC="${CXX:-c++}" "$build/symmcc") ;; esac
        # Programs of MPI and OpenSHMEM together: built with mpicc, started by mpirun.
        if grep -q '^#include <mpi.h>' "$d/${src[0]}"; then
            cc=(env SYMM_CC="${MPICC:-mpicc}" "$build/symmcc")
            run=("${MPIRUN:-mpirun}" --allow-run-as-root --oversubscribe -np)
        fi
        if (cd "$d" && "${cc[@]}" -O1 -I"$suite/test/include" "${src[@]}" -o "$out/bin/$p" \
            -lpthread -lm) >"$out/build-$p.txt" 2>&1; then
            built=$((built + 1))
        else
            build_failed=$((build_failed + 1))
            echo "BUILD FAIL $dir/$p: $(grep -m1 -E 'error' "$out/build-$p.txt")" | tee -a "$out/log.txt"
            continue
        fi
        for n in $pes; do
            if timeout "$timeout_s" "${run[@]}" "$n" "$out/bin/$p" >"$out/run-$p-$n.txt" 2>&1; then
                passed=$((passed + 1))
            else
                failed=$((failed + 1))
                echo "RUN FAIL $dir/$p at $n PEs: $(grep -m1 -E 'symm|error|Error|fail' "$out/run-$p-$n.txt")" |
                    tee -a "$out/log.txt"
            fi
        done
    done
done
echo "sos: $built programs built, $build_failed failed to build; runs at PEs $pes: $passed passed, $failed failed (logs in $out)"
[ $build_failed -eq 0 ] && [ $failed -eq 0 ]
