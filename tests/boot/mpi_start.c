/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * mpi_start: an MPI program hands symm a communicator (shmemx_init_attr with
 * SHMEMX_INIT_WITH_MPI_COMM) and the communicator's ranks become the PEs.
 *   mpi_start world    MPI_COMM_WORLD
 *   mpi_start subset   the ranks but the last of MPI_COMM_WORLD, numbered backwards (the last
 *                      rank stays out of symm and only meets the others in MPI)
 */
#include "job_check.h"

#include <mpi.h>
#include <string.h>

int main(int argc, char **argv)
{
    int wrank, wsize, in = 1, rank, size, status = 0;
    MPI_Comm comm = MPI_COMM_WORLD;
    shmemx_init_attr_t attr = SHMEMX_INIT_ATTR_INITIALIZER;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (argc > 1 && !strcmp(argv[1], "subset") && wsize > 1) {
        in = wrank < wsize - 1;
        MPI_Comm_split(MPI_COMM_WORLD, in ? 0 : MPI_UNDEFINED, wsize - wrank, &comm);
    }
    if (in) {
        MPI_Comm_rank(comm, &rank);
        MPI_Comm_size(comm, &size);
        attr.mpi_comm = &comm;
        shmemx_init_attr(SHMEMX_INIT_WITH_MPI_COMM, &attr);
        status = job_check("mpi_start", rank, size);
        shmem_finalize();
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (wrank == wsize - 1)
        printf("mpi_start: world of %d done\n", wsize);
    MPI_Finalize();
    return status;
}
