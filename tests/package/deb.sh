#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
#
# usage: deb.sh SOURCE [configure arguments...]
# The Debian packages as a user meets them: scripts/package.sh makes them from SOURCE (a build
# of its own, for /usr, with the arguments given), `apt-get install ./...deb` installs them into
# the system, and a program is then built against the system alone and run under the installed
# symmrun: with symmcc, with find_package(symm) (examples/cmake, on libsymm.so and libsymm.a) and
# with pkg-config. The packages are removed on every way out, and nothing of them may remain.
# Runs only as root with apt-get and dpkg, and where no package of symm is installed already
# (it would remove it): exit 77 (skipped) otherwise.
set -u
src=$1
shift
pkgs="libsymm-dev libsymm-mpi libsymm"
skip() {
    echo "deb.sh: SKIP: $*"
    exit 77
}
[ "$(id -u)" -eq 0 ] || skip "not root: cannot install packages"
for t in apt-get dpkg dpkg-deb dpkg-shlibdeps cpack; do
    command -v "$t" >/dev/null || skip "$t is missing"
done
for p in $pkgs; do
    if dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q "installed"; then
        skip "$p is installed already; this test would remove it"
    fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/symm-deb.XXXXXX") || exit 2
chmod 755 "$tmp"
installed=no

# Removes what the test installed and checks that nothing of it is left.
remove() {
    [ $installed = yes ] || return 0
    installed=no
    timeout 300 dpkg --purge $pkgs >"$tmp/purge.log" 2>&1 || cat "$tmp/purge.log"
    left=""
    for f in /usr/bin/symmcc /usr/bin/symmrun /usr/bin/symminfo /usr/include/shmem.h \
        /usr/include/symm /usr/lib/*/libsymm.so.0 /usr/lib/*/libsymm.a /usr/lib/*/cmake/symm \
        /usr/lib/*/pkgconfig/symm.pc; do
        [ -e "$f" ] && left="$left $f"
    done
    [ -z "$left" ] || { echo "deb.sh: FAIL: left after removing the packages:$left"; return 1; }
    ldconfig -p | grep -q "libsymm\.so" &&
        { echo "deb.sh: FAIL: the loader still lists libsymm"; return 1; }
    return 0
}
finish() {
    status=$?
    remove || status=1
    rm -rf "$tmp"
    exit $status
}
trap finish EXIT
trap 'exit 1' INT TERM HUP
fail() {
    echo "deb.sh: FAIL: $*"
    exit 1
}

# Runs a ring program under the installed symmrun; it must say it is ok.
ring() {
    out=$(/usr/bin/symmrun -n 2 --timeout 60 "$@" 2>&1)
    status=$?
    printf '%s\n' "$out"
    [ "$status" -eq 0 ] || fail "$* under symmrun -n 2 exited with status $status"
    printf '%s\n' "$out" | grep -q "^ring: 2 PEs ok$" || fail "$* did not report its result"
}

SYMM_PACKAGE_BUILD=$tmp/build SYMM_PACKAGE_OUT=$tmp/debs timeout 1200 \
    "$src/scripts/package.sh" "$@" >"$tmp/package.log" 2>&1 ||
    { cat "$tmp/package.log"; fail "scripts/package.sh"; }
ls "$tmp"/debs/*.deb
for p in libsymm libsymm-dev; do
    [ -f "$tmp/debs/${p}_"*.deb ] || fail "no package $p was made"
done
dpkg-deb -f "$tmp"/debs/libsymm-dev_*.deb Depends | grep -q "libsymm (= " ||
    fail "libsymm-dev does not depend on its libsymm"

installed=yes
DEBIAN_FRONTEND=noninteractive timeout 300 apt-get install -y -q --no-install-recommends \
    "$tmp"/debs/*.deb >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "apt-get install"; }
for f in /usr/bin/symmcc /usr/bin/symmrun /usr/bin/symminfo /usr/include/shmem.h; do
    [ -e "$f" ] || fail "$f is not installed"
done
ldconfig -p | grep -q "libsymm\.so\.0 " || fail "the loader does not list libsymm.so.0"
/usr/bin/symminfo | grep -q "SYMM_CACHE_INFO" || fail "symminfo does not print the settings"

# symmcc: the program loads the system's libsymm.
cd "$tmp" || exit 2
/usr/bin/symmcc -O2 "$src/examples/cmake/ring.c" -o ring_cc || fail "symmcc"
ring ./ring_cc
ldd ./ring_cc | grep -q "libsymm\.so\.0 => /usr/lib/" || fail "ring_cc does not load /usr/lib's libsymm"

# find_package(symm) with no hint: the system's CMake package.
timeout 300 cmake -S "$src/examples/cmake" -B "$tmp/ring" >"$tmp/cmake.log" 2>&1 ||
    { cat "$tmp/cmake.log"; fail "configuring examples/cmake against the system"; }
grep -q "^symm_DIR:PATH=/usr/lib/.*/cmake/symm$" "$tmp/ring/CMakeCache.txt" ||
    fail "find_package(symm) did not take the system's package"
timeout 300 cmake --build "$tmp/ring" >"$tmp/build.log" 2>&1 ||
    { cat "$tmp/build.log"; fail "building examples/cmake"; }
ring "$tmp/ring/ring"
ring "$tmp/ring/ring_static"

# pkg-config.
if command -v pkg-config >/dev/null; then
    flags=$(pkg-config --cflags --libs symm) || fail "pkg-config symm"
    cc "$src/examples/cmake/ring.c" -o ring_pc $flags || fail "building with pkg-config's: $flags"
    ring ./ring_pc
fi
cd / || exit 2
remove || exit 1
echo "deb.sh: ok"
