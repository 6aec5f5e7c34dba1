#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Runs a program as if its process were on one of K hosts (SYMM_HOST_NAME), so that a job of
# several hosts runs on one machine. The rank comes from mpirun (OMPI_COMM_WORLD_RANK) or a
# torchrun-like launcher (RANK).
#   as_host.sh K block|cyclic program [args]
# block: ranks in K runs of consecutive ranks, as mpirun --map-by slot places them;
# cyclic: rank r on host r mod K, as --map-by node does.
k=$1 how=$2
shift 2
rank=${OMPI_COMM_WORLD_RANK:-${RANK:?no rank in the environment}}
size=${OMPI_COMM_WORLD_SIZE:-${WORLD_SIZE:?no job size in the environment}}
if [ "$how" = cyclic ]; then
    host=$((rank % k))
else
    host=$((rank * k / size))
fi
SYMM_HOST_NAME=host$host SYMM_TEST_HOSTS=$k exec "$@"
