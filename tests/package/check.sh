#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
#
# usage: check.sh CMAKE CC BUILD EXAMPLE LIBDIR [configure arguments...]
# Installs the build BUILD into a fresh prefix and uses it as a project outside would: the CMake
# package (EXAMPLE, a project calling find_package(symm), configured with the arguments given and
# built against the prefix; its programs, linked to libsymm.so and to libsymm.a, must report
# success under the installed symmrun), the package's targets, and pkg-config.
set -u
cmake=$1 cc=$2 build=$3 example=$4 libdir=$5
shift 5
tmp=$(mktemp -d "${TMPDIR:-/tmp}/symm-package.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
fail() {
    echo "check.sh: FAIL: $*"
    exit 1
}

# Runs a program of the ring example under the installed symmrun; it must say it is ok.
ring() {
    out=$("$prefix/bin/symmrun" -n 2 --timeout 60 "$@" 2>&1)
    status=$?
    printf '%s\n' "$out"
    [ "$status" -eq 0 ] || fail "$* under symmrun -n 2 exited with status $status"
    printf '%s\n' "$out" | grep -q "^ring: 2 PEs ok$" || fail "$* did not report its result"
}

"$cmake" --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; fail "cmake --install $build"; }
for f in symmConfig.cmake symmConfigVersion.cmake symmTargets.cmake; do
    [ -f "$prefix/$libdir/cmake/symm/$f" ] || fail "$libdir/cmake/symm/$f is not installed"
done

# The example, against the prefix only.
"$cmake" -S "$example" -B "$tmp/ring" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" "$@" ||
    fail "configuring $example"
"$cmake" --build "$tmp/ring" || fail "building $example"
ring "$tmp/ring/ring"
ring "$tmp/ring/ring_static"
readelf -d "$tmp/ring/ring" | grep -q "NEEDED.*libsymm\.so" || fail "ring does not load libsymm.so"
if readelf -d "$tmp/ring/ring_static" | grep -q "NEEDED.*libsymm"; then
    fail "ring_static loads libsymm.so"
fi

# The targets a project sees: symm::device carries the folder of the device headers.
mkdir -p "$tmp/targets"
cat >"$tmp/targets/CMakeLists.txt" <<'END'
cmake_minimum_required(VERSION 3.20)
project(symm_targets LANGUAGES C)
find_package(symm 0.1 REQUIRED)
foreach(t symm::symm symm::symm_static symm::device)
  if(NOT TARGET ${t})
    message(FATAL_ERROR "find_package(symm) gives no ${t}")
  endif()
endforeach()
get_target_property(inc symm::device INTERFACE_INCLUDE_DIRECTORIES)
if(NOT EXISTS "${inc}/symm/device.cuh" OR NOT EXISTS "${inc}/shmem.h")
  message(FATAL_ERROR "symm::device's include folder '${inc}' has no symm/device.cuh")
endif()
get_target_property(libs symm::symm INTERFACE_LINK_LIBRARIES)
if(NOT "Threads::Threads" IN_LIST libs)
  message(FATAL_ERROR "symm::symm does not bring Threads (it links '${libs}')")
endif()
END
"$cmake" -S "$tmp/targets" -B "$tmp/targets/build" -DCMAKE_PREFIX_PATH="$prefix" ||
    fail "the package's targets"

# pkg-config, with the prefix moved to where the package is now.
if command -v pkg-config >/dev/null; then
    flags=$(PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig" pkg-config --define-variable=prefix="$prefix" \
        --cflags --libs symm) || fail "pkg-config symm"
    "$cc" "$example/ring.c" -o "$tmp/ring_pc" $flags -Wl,-rpath,"$prefix/$libdir" ||
        fail "building with pkg-config's flags: $flags"
    ring "$tmp/ring_pc"
fi
echo "check.sh: ok"
