#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
#
# Which names of NVSHMEM's public API (api-3.4.5.txt) symm's nvshmem.h and nvshmemx.h define: a
# macro, or an identifier of the preprocessed headers, for the host and for the device. Every
# name must be defined except those missing.txt lists, and every name missing.txt lists must
# still be missing (take it out once symm has it), so the list only shrinks.
#   check.sh CC -I<dir>...
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cc=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
printf '#include <nvshmem.h>\n#include <nvshmemx.h>\n' >"$tmp/n.c"
for pass in host device; do
    defs=""
    [ $pass = device ] && defs="-D__CUDACC__ -D__CUDA_ARCH__=900"
    # shellcheck disable=SC2086
    "$cc" -E -dM -x c $defs "$@" "$tmp/n.c" | awk '$1 == "#define" { sub(/\(.*/, "", $2); print $2 }'
    # shellcheck disable=SC2086
    "$cc" -E -P -x c $defs "$@" "$tmp/n.c" | sed 's/"[^"]*"//g' | grep -oE '\b[A-Za-z_][A-Za-z0-9_]*\b'
done | sort -u >"$tmp/defined"
grep -v '^#' "$here/api-3.4.5.txt" | sort -u >"$tmp/api"
grep -v '^#' "$here/missing.txt" | sort -u >"$tmp/listed"
comm -23 "$tmp/api" "$tmp/defined" >"$tmp/missing"
comm -23 "$tmp/missing" "$tmp/listed" >"$tmp/new"
comm -13 "$tmp/missing" "$tmp/listed" >"$tmp/fixed"
echo "nvshmem api: $(wc -l <"$tmp/api") names of NVSHMEM 3.4.5, $(($(wc -l <"$tmp/api") - $(wc -l <"$tmp/missing"))) defined by symm, $(wc -l <"$tmp/missing") missing"
status=0
if [ -s "$tmp/new" ]; then
    echo "nvshmem api: no longer defined (and not in missing.txt): $(tr '\n' ' ' <"$tmp/new")"
    status=1
fi
if [ -s "$tmp/fixed" ]; then
    echo "nvshmem api: defined now, take out of missing.txt: $(tr '\n' ' ' <"$tmp/fixed")"
    status=1
fi
exit $status
