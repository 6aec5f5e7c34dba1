#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
#
# Whether symm's nvshmem.h and nvshmemx.h give each NVSHMEM routine of prototypes-3.4.5.txt
# NVSHMEM's return type and parameter types. A C++ program is written from the list: for each
# prototype, a call of the name with one argument of each NVSHMEM parameter type (an object
# that converts to that type and to no other, so a parameter of any other type, const or not,
# fails the call) whose type must be NVSHMEM's return type; the call is made through symm's
# name as a program makes it (a function, or a macro over one). Each check is a static_assert,
# in the host pass (H and HD lines) and, compiled by nvcc, in the device pass (D and HD); the
# compiler only checks, nothing runs. A function-like macro that takes another number of
# arguments differs without a call (the preprocessor would stop there).
#
# differences.txt lists the deliberate differences, one a line: the pass (host or device) and
# the prototype as prototypes-3.4.5.txt writes it, less its kind. Every other prototype must
# match and every listed one must still differ (take it out once symm matches), so the list
# only shrinks. Names that missing.txt lists are not checked. Prototypes that need CUDA's
# types (dim3, CUmodule, ...) are checked where the CUDA headers are found: --cuda names
# their folder for the host compiler; --nvcc adds the device pass.
#   prototypes.sh CXX [--nvcc NVCC] [--cuda DIR] -I<dir>...
# SYMM_PROTO_KEEP=FILE keeps the program written.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -lt 1 ]; then
    echo "usage: prototypes.sh CXX [--nvcc NVCC] [--cuda DIR] -I<dir>..." >&2
    exit 2
fi
cxx=$1
shift
nvcc=""
cuda=""
while [ "${1:-}" = "--nvcc" ] || [ "${1:-}" = "--cuda" ]; do
    case $1 in
    --nvcc) nvcc=$2 ;;
    --cuda) cuda="-I$2 -I$2/cccl" ;;
    esac
    shift 2
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -n "${SYMM_PROTO_KEEP:-}" ] && trap 'cp "$tmp/check.cc" "$SYMM_PROTO_KEEP"; rm -rf "$tmp"' EXIT
export LC_ALL=C

# The arity of every function-like macro of the headers.
printf '#include <nvshmem.h>\n#include <nvshmemx.h>\n' >"$tmp/n.cc"
"$cxx" -E -dM -x c++ "$@" "$tmp/n.cc" |
    awk '$1 == "#define" && $2 ~ /^nvshmemx?_[a-z0-9_]*\(/ {
        name = $2; sub(/\(.*/, "", name)
        args = $0; sub(/^#define [^(]*\(/, "", args); sub(/\).*/, "", args)
        n = args == "" ? 0 : gsub(/,/, ",", args) + 1
        if (args ~ /\.\.\./) n = -1
        print name, n }' >"$tmp/arity"

# The program.
grep -v '^#' "$here/missing.txt" | sort -u >"$tmp/missing"
grep -v '^#' "$here/differences.txt" | sed '/^$/d' >"$tmp/listed"
awk -v arity="$tmp/arity" -v missing="$tmp/missing" -v listed="$tmp/listed" '
BEGIN {
    while ((getline l < arity) > 0) { split(l, f, " "); ar[f[1]] = f[2] }
    while ((getline l < missing) > 0) miss[l] = 1
    while ((getline l < listed) > 0) known[l] = 1
    print "#include <type_traits>"
    print "#include <nvshmem.h>"
    print "#include <nvshmemx.h>"
    print "#ifndef CUDART_VERSION"
    print "typedef struct CUstream_st *cudaStream_t;"
    print "#endif"
    print "#ifdef __CUDA_ARCH__"
    print "#define SYMM_PASS \"device\""
    print "#define SYMM_PASS_H 0"
    print "#define SYMM_PASS_D 1"
    print "#else"
    print "#define SYMM_PASS \"host\""
    print "#define SYMM_PASS_H 1"
    print "#define SYMM_PASS_D 0"
    print "#endif"
    # The names of routines with a team parameter pass it through SHMEMX_TEAM_OF_INDEX, a cast
    # of NVSHMEM'"'"'s integer team: here the same conversion of an nvshmem_team_t in a function
    # template, so that the call stays dependent.
    print "template <class T>"
    print "auto symm_team_of(T t) -> decltype((shmem_team_t)(intptr_t)(static_cast<nvshmem_team_t>(t) + 1));"
    print "#undef SHMEMX_TEAM_OF_INDEX"
    print "#define SHMEMX_TEAM_OF_INDEX(index) symm_team_of(index)"
    print "template <class P> struct symm_arg {"
    print "    template <class U, class = typename std::enable_if<std::is_same<U, P>::value>::type>"
    print "    operator U() const;"
    print "};"
}
/^#/ { next }
{
    kind = $1
    proto = substr($0, length(kind) + 2)
    match(proto, /[A-Za-z_][A-Za-z0-9_]*\(/)
    name = substr(proto, RSTART, RLENGTH - 1)
    ret = substr(proto, 1, RSTART - 1); sub(/ +$/, "", ret)
    plist = substr(proto, RSTART + RLENGTH); sub(/\)$/, "", plist)
    if (name in miss) next
    np = plist == "" ? 0 : split(plist, p, ", ")
    n++
    cuda = (" " proto) ~ /[(, ](dim3|CU[a-z][A-Za-z0-9_]*|[a-z]+[1-4])[ ,)*]/
    cond = kind == "HD" ? "1" : "SYMM_PASS_" kind
    if (cuda) cond = cond " && defined(CUDART_VERSION)"
    print "#if " cond
    if (name in ar && ar[name] != np && ar[name] >= 0) {
        ok = "false"
    } else {
        # A function template whose call depends on its parameters, one an NVSHMEM parameter
        # (a pack where there are none), so that a call that does not compile only drops it.
        if (np == 0) {
            tparams = "class... A"; call = name "(A()...)"; targs = ""
        } else {
            tparams = ""; call = name "("; targs = ""
            for (i = 1; i <= np; i++) {
                tparams = tparams (i > 1 ? ", " : "") "class A" i
                call = call (i > 1 ? ", " : "") "A" i "()"
                targs = targs (i > 1 ? ", " : "") "symm_arg<" p[i] ">"
            }
            call = call ")"
        }
        print "template <" tparams "> auto p" n "(int) -> std::is_same<decltype(" call "), " ret ">;"
        print "template <" tparams "> std::false_type p" n "(...);"
        ok = "decltype(p" n "<" targs ">(0))::value"
    }
    # Listed for the pass this is compiled in: it must still differ.
    print "#if SYMM_PASS_H"
    print "static_assert(" ((("host " proto) in known) ? "!" : "") "(" ok "), \"symm-proto: " \
          ((("host " proto) in known) ? "matches now: " : "") "host " proto "\");"
    print "#else"
    print "static_assert(" ((("device " proto) in known) ? "!" : "") "(" ok "), \"symm-proto: " \
          ((("device " proto) in known) ? "matches now: " : "") "device " proto "\");"
    print "#endif"
    print "#endif"
}' "$here/prototypes-3.4.5.txt" >"$tmp/check.cc"
count=$(grep -vc '^#' "$here/prototypes-3.4.5.txt")

# A compile whose only errors are the checks' assertions: the prototypes they name.
run() {
    if "$@" >"$tmp/out" 2>&1; then
        return 0
    fi
    grep -o 'symm-proto: [^"]*' "$tmp/out" | sed 's/^symm-proto: //' >>"$tmp/failed" || true
    if grep 'error' "$tmp/out" | grep -v 'symm-proto: ' | grep -Ev 'errors? detected in the compilation' |
        grep -q .; then
        echo "nvshmem prototypes: the check program does not compile:"
        grep 'error' "$tmp/out" | grep -v 'symm-proto: ' | head -40
        exit 1
    fi
}
: >"$tmp/failed"
# shellcheck disable=SC2086
run "$cxx" -std=c++11 -fsyntax-only -w -fno-diagnostics-show-caret -x c++ $cuda "$@" "$tmp/check.cc"
passes="host pass"
if [ -n "$nvcc" ]; then
    # The device pass alone (to PTX).
    run "$nvcc" -std=c++17 -x cu -arch=sm_90 -w --ptx "$@" "$tmp/check.cc" -o "$tmp/check.ptx"
    passes="host and device passes"
fi
sort -u "$tmp/failed" -o "$tmp/failed"
grep -v '^matches now: ' "$tmp/failed" >"$tmp/differ" || true
grep '^matches now: ' "$tmp/failed" | sed 's/^matches now: //' >"$tmp/fixed" || true
echo "nvshmem prototypes: $count of NVSHMEM 3.4.5, checked in the $passes," \
     "$(wc -l <"$tmp/listed") deliberate differences"
status=0
if [ -s "$tmp/differ" ]; then
    echo "nvshmem prototypes: symm differs from NVSHMEM (and differences.txt does not list it):"
    sed 's/^/  /' "$tmp/differ"
    status=1
fi
if [ -s "$tmp/fixed" ]; then
    echo "nvshmem prototypes: symm matches NVSHMEM now, take out of differences.txt:"
    sed 's/^/  /' "$tmp/fixed"
    status=1
fi
exit $status
