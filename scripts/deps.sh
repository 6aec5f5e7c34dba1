#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Installs the Debian packages a fresh machine lacks to build symm (as root, or through sudo):
# the toolchain, PMIx (the bootstrap of PEs started by mpirun or srun), UCX and libfabric (the
# two transports to PEs of other nodes, real or virtual), Open MPI's mpirun (its tests, and the
# CPU benchmark's peer), Open MPI's headers (libsymm_mpi.so, for programs that hand symm an MPI
# communicator), Python's NumPy and pytest (the tests of the Python interface), its venv module
# (the test of the pip-built wheel), and ip and pgrep (the test hosts).
set -euo pipefail
need=()
for p in build-essential cmake pkg-config libpmix-dev libucx-dev openmpi-bin libopenmpi-dev \
    libfabric-dev python3-numpy python3-pytest python3-venv iproute2 procps; do
    dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
[ ${#need[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${need[@]}"
