#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# sos.sh: builds Sandia OpenSHMEM (SOS) 1.5, the peer of bench/compare.sh's rows over libfabric,
# into bench/.sos/ (ignored by git: its source, build and installation are never committed),
# against the system's libfabric, started by Open MPI's mpirun through PMIx; then runs a check
# program of 2 PEs over each provider of SOS_CHECK_PROVIDERS.
#
# SOS is configured to reach every PE, those of its own host included, through libfabric alone,
# as PEs on different nodes would be: no on-node transport (--without-xpmem --without-cma, and
# no memcpy to itself). The provider it is measured on, tcp;ofi_rxm, has neither automatic data
# progress nor remote counters (FI_RMA_EVENT), so SOS asks libfabric for manual progress
# (--enable-ofi-manual-progress), drives it while it waits (--enable-manual-progress) and polls
# memory in its waits instead of counting remote writes (--enable-hard-polling). No Fortran.
#
# Usage: bench/sos.sh SOURCE   (or SOS_SRC=SOURCE bench/sos.sh)
#   SOURCE: a release tarball (sandia-openshmem-1.5.x.tar.gz from the project's GitHub
#   releases, configure included) or a source tree with its tests-sos submodule, e.g.
#   `git clone -b v1.5.3 --recurse-submodules https://github.com/Sandia-OpenSHMEM/SOS`.
#   A tree without the submodule (`git archive` of a tag) takes SOS_TESTS, a tests-sos tree at
#   the commit the tag names (`git ls-tree TAG modules/tests-sos`).
# Environment: SOS_TESTS; SOS_CONFIGURE (more configure options); SOS_CHECK_PROVIDERS (default
# "tcp;ofi_rxm shm"; empty: no check).
# Needs: a C compiler and make; libfabric, PMIx and Open MPI (Debian: libfabric-dev libpmix-dev
# openmpi-bin); pkg-config; a tree without a configure script also needs autoconf, automake and
# libtool (Debian: autoconf automake libtool).
# Leaves: bench/.sos/install/bin/oshcc and oshrun (what compare.sh looks for), and
# bench/.sos/install/share/sos-build.txt (the version and configure options, for the page).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
dest=$here/.sos
source=${1:-${SOS_SRC:-}}
say() { printf 'sos: %s\n' "$*" >&2; }
die() {
    say "$*"
    exit 1
}
[ -n "$source" ] || die "no source given: bench/sos.sh SOURCE, a release tarball or a tree from \`git clone -b v1.5.3 --recurse-submodules https://github.com/Sandia-OpenSHMEM/SOS\`"
[ -e "$source" ] || die "no such source: $source"
source=$(cd "$(dirname "$source")" && pwd)/$(basename "$source")
for t in pkg-config make cc mpirun; do
    command -v "$t" >/dev/null || die "$t is missing"
done
pkg-config --exists libfabric || die "pkg-config finds no libfabric (Debian: libfabric-dev)"
pkg-config --exists pmix || die "pkg-config finds no pmix (Debian: libpmix-dev)"

src=$dest/src
build=$dest/build
prefix=$dest/install
rm -rf "$build" "$prefix"
mkdir -p "$build"
# A source given as bench/.sos/src (the copy of an earlier run) is built where it is.
if [ "$source" != "$src" ]; then
    rm -rf "$src"
    mkdir -p "$src"
    case $source in
    *.tar.gz | *.tgz | *.tar.bz2 | *.tar.xz) tar -xf "$source" -C "$src" --strip-components=1 ;;
    *)
        [ -d "$source" ] || die "$source is neither a folder nor a tarball"
        tar -C "$source" --exclude=.git -cf - . | tar -C "$src" -xf -
        ;;
    esac
fi
[ -f "$src/configure.ac" ] || die "$source holds no SOS source (no configure.ac)"
if [ ! -f "$src/modules/tests-sos/test/Makefile.am" ] && [ ! -x "$src/configure" ]; then
    [ -n "${SOS_TESTS:-}" ] ||
        die "the source lacks its tests-sos submodule, which its configure needs: clone with --recurse-submodules, or set SOS_TESTS to a tests-sos tree"
    [ -f "$SOS_TESTS/test/Makefile.am" ] || die "SOS_TESTS=$SOS_TESTS holds no test/Makefile.am"
    mkdir -p "$src/modules/tests-sos"
    tar -C "$SOS_TESTS" --exclude=.git -cf - . | tar -C "$src/modules/tests-sos" -xf -
fi
version=$(sed -n 's/^AC_INIT(\[[^]]*\], *\[\([^]]*\)\].*/\1/p' "$src/configure.ac")
if [ ! -x "$src/configure" ]; then
    for t in autoconf automake libtoolize; do
        command -v "$t" >/dev/null || die "$t is missing, which a source without configure needs (Debian: autoconf automake libtool)"
    done
    say "generating configure (autogen.sh)"
    (cd "$src" && ./autogen.sh) >"$dest/autogen.log" 2>&1 || die "autogen.sh failed; see $dest/autogen.log"
fi

# The options as the page shows them (no paths of this machine), and as configure gets them.
# shellcheck disable=SC2016 # the page shows the command that finds PMIx, not its answer
shown=(--with-ofi '--with-pmix=$(pkg-config --variable=prefix pmix)' --without-xpmem
    --without-cma --enable-ofi-manual-progress --enable-manual-progress --enable-hard-polling
    --disable-fortran)
read -ra extra <<<"${SOS_CONFIGURE:-}"
shown+=("${extra[@]}")
opts=(--prefix="$prefix" --with-ofi --with-pmix="$(pkg-config --variable=prefix pmix)"
    "${shown[@]:2}")
say "configuring SOS $version: ${shown[*]}"
(cd "$build" && CPPFLAGS="$(pkg-config --cflags-only-I libfabric)" \
    LDFLAGS="$(pkg-config --libs-only-L libfabric)" "$src/configure" "${opts[@]}") \
    >"$dest/configure.log" 2>&1 || die "configure failed; see $dest/configure.log"
say "building (make -j$(nproc))"
make -C "$build" -j"$(nproc)" >"$dest/make.log" 2>&1 || die "make failed; see $dest/make.log"
make -C "$build" install >>"$dest/make.log" 2>&1 || die "make install failed; see $dest/make.log"
mkdir -p "$prefix/share"
printf 'version=%s\nconfigure=%s\n' "$version" "${shown[*]}" >"$prefix/share/sos-build.txt"

# The check: every PE puts to the next, gets from it and adds to it; each PE checks what it got.
cat >"$dest/check.c" <<'EOF'
#include <shmem.h>
#include <stdio.h>

static long x;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), next = (me + 1) % n, prev = (me + n - 1) % n;
    shmem_long_p(&x, 100 + me, next);
    shmem_barrier_all();
    long got = shmem_long_g(&x, next);
    shmem_barrier_all();
    long old = shmem_long_atomic_fetch_add(&x, 1, next);
    shmem_barrier_all();
    int ok = x == 101 + prev && got == 100 + me && old == 100 + me;
    printf("PE %d of %d: %s\n", me, n, ok ? "ok" : "wrong");
    shmem_finalize();
    return !ok;
}
EOF
"$prefix/bin/oshcc" -O2 -o "$dest/check" "$dest/check.c" || die "oshcc failed to build the check"
read -ra providers <<<"${SOS_CHECK_PROVIDERS-tcp;ofi_rxm shm}"
for prov in "${providers[@]}"; do
    if out=$(FI_PROVIDER=$prov timeout 60 "$prefix/bin/oshrun" --allow-run-as-root \
        -x FI_PROVIDER -np 2 "$dest/check" 2>&1) && [ "$(grep -c ': ok$' <<<"$out")" = 2 ]; then
        say "2 PEs over FI_PROVIDER='$prov': ok"
    else
        say "2 PEs over FI_PROVIDER='$prov' failed:"
        tail -n 8 <<<"$out" >&2
        [ "$prov" != "tcp;ofi_rxm" ] || exit 1
    fi
done
say "SOS $version in ${prefix#"$(cd "$here/.." && pwd)"/}"
