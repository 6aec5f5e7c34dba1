#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Makes symm's Debian packages: libsymm (the library), libsymm-dev (headers, libsymm.a, symmcc,
# symmrun, symminfo, pkg-config and CMake files) and, where MPI's headers are found,
# libsymm-mpi (the MPI plugin); see cmake/package.cmake. Configures a build for the prefix /usr
# in SYMM_PACKAGE_BUILD (default build-deb), builds what the packages hold, and runs
# `cpack -G DEB`, which writes the .deb files into SYMM_PACKAGE_OUT (default
# build-deb/packages). Arguments go to CMake's configure step (e.g. -DSYMM_CUDA=OFF).
# Install them with `apt-get install ./build-deb/packages/*.deb`.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${SYMM_PACKAGE_BUILD:-build-deb}
out=${SYMM_PACKAGE_OUT:-$build/packages}
for tool in cmake cpack dpkg-shlibdeps; do
    if ! command -v "$tool" >/dev/null; then
        echo "package.sh: $tool is missing (Debian: apt-get install cmake dpkg-dev)" >&2
        exit 1
    fi
done
echo "package.sh: building libsymm, symmrun and symminfo for /usr in $build"
cmake -S . -B "$build" -DCMAKE_INSTALL_PREFIX=/usr -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSYMM_BUILD_TESTS=OFF "$@" >/dev/null
targets=(symm symm_static symmrun symminfo)
[ -d "$build/CMakeFiles/symm_mpi.dir" ] && targets+=(symm_mpi)
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}"
mkdir -p "$out"
out=$(cd "$out" && pwd)
(cd "$build" && cpack -G DEB -B "$out" >/dev/null)
rm -rf "$out/_CPack_Packages"
ls "$out"/*.deb
