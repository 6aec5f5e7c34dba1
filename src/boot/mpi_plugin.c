/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * libsymm_mpi.so: the part of the `mpi` bootstrap that speaks MPI, built against the MPI the
 * program uses and loaded by libsymm only when a program hands over a communicator
 * (shmemx_init_attr with SHMEMX_INIT_WITH_MPI_COMM), so that libsymm itself depends on no MPI.
 * The library's collectives run on a duplicate of the communicator, apart from the program's.
 */
#include "boot/boot.h"

#include <mpi.h>
#include <stdio.h>

static MPI_Comm comm = MPI_COMM_NULL;

static int mpi_allgather(const void *in, size_t len, void *out)
{
    if (len > (size_t)0x7fffffff)
        return -1;
    return MPI_Allgather(len ? in : MPI_IN_PLACE, (int)len, MPI_BYTE, out, (int)len, MPI_BYTE,
                         comm) == MPI_SUCCESS
               ? 0
               : -1;
}

static int mpi_barrier(void)
{
    return MPI_Barrier(comm) == MPI_SUCCESS ? 0 : -1;
}

static void mpi_abort(int status)
{
    MPI_Abort(comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm, status ? status : 1);
}

static void mpi_finalize(void)
{
    int done = 0;

    MPI_Finalized(&done);
    if (!done && comm != MPI_COMM_NULL)
        MPI_Comm_free(&comm);
    comm = MPI_COMM_NULL;
}

__attribute__((visibility("default"))) int symm_boot_mpi_open(void *user, symm_boot_mpi_fns_t *out,
                                                              char *why, size_t why_len)
{
    int up = 0, rc;

    MPI_Initialized(&up);
    if (!up) {
        snprintf(why, why_len, "MPI is not initialized: call MPI_Init before shmemx_init_attr");
        return -1;
    }
    if (!user || *(MPI_Comm *)user == MPI_COMM_NULL) {
        snprintf(why, why_len, "the communicator is %s", user ? "MPI_COMM_NULL" : "NULL");
        return -1;
    }
    rc = MPI_Comm_dup(*(MPI_Comm *)user, &comm);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_rank(comm, &out->rank);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_size(comm, &out->size);
    if (rc != MPI_SUCCESS) {
        snprintf(why, why_len, "MPI_Comm_dup/rank/size failed (%d)", rc);
        return -1;
    }
    out->allgather = mpi_allgather;
    out->barrier = mpi_barrier;
    out->abort = mpi_abort;
    out->finalize = mpi_finalize;
    return 0;
}
