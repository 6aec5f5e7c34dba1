/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * symminfo: what this symm build is and how a job sees itself. Alone it prints the version,
 * the build, the transports and every setting; run as a job (symmrun -n N symminfo) PE 0 also
 * prints which PEs reach which by load/store.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shmem.h>
#include <symm/config.h>

static void print_build(void)
{
    char name[SHMEM_MAX_NAME_LEN];
    int major, minor;

    shmem_info_get_name(name);
    shmem_info_get_version(&major, &minor);
    printf("symm %s, OpenSHMEM %d.%d (%s)\n", SYMM_VERSION_STRING, major, minor, name);
    printf("build:       %s, %s%s%s\n", SYMM_BUILD_TYPE, SYMM_BUILD_CC,
           SYMM_BUILD_SANITIZE[0] ? ", sanitizer " : "", SYMM_BUILD_SANITIZE);
    printf("transports:  shm (PEs of one node: load/store)%s%s (SYMM_NET picks)\n",
           SYMM_HAVE_UCX ? ", ucx (PEs of other nodes; libucp loaded at start, SYMM_UCX_LIB)" : "",
           SYMM_HAVE_OFI ? ", ofi (PEs of other nodes through libfabric; loaded at start, "
                           "SYMM_OFI_LIB; its provider FI_PROVIDER's or libfabric's choice)" : "");
    printf("bootstrap:   launcher (symmrun), %suid (shmemx_init_attr with a unique id), mpi "
           "(shmemx_init_attr with an MPI communicator), single (a program started alone)\n",
           SYMM_HAVE_PMIX ? "pmix (mpirun, srun), " : "");
}

int main(int argc, char **argv)
{
    static char probe;
    unsigned char *rows;
    int me, n;

    if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        printf("usage: symminfo            this build and its settings\n"
               "       symmrun -n N symminfo  also the load/store reachability of a job\n");
        return 0;
    }
    /* PE 0 prints every setting with its value at start. */
    setenv("SHMEM_INFO", "1", 0);
    shmem_init();
    me = shmem_my_pe();
    n = shmem_n_pes();
    rows = shmem_malloc((size_t)n * n);
    for (int pe = 0; pe < n; pe++)
        rows[(size_t)me * n + pe] = shmem_ptr(&probe, pe) != NULL;
    shmem_barrier_all();
    if (me == 0) {
        print_build();
        for (int pe = 1; pe < n; pe++)
            shmem_getmem(rows + (size_t)pe * n, rows + (size_t)pe * n, n, pe);
        printf("job:         %d PEs (the settings above: SHMEM_SYMMETRIC_SIZE is each PE's heap)\n",
               n);
        printf("load/store reachability (row: from PE, column: to PE; 1 = shmem_ptr works):\n");
        printf("      ");
        for (int pe = 0; pe < n; pe++)
            printf("%3d", pe);
        printf("\n");
        for (int i = 0; i < n; i++) {
            printf("  %3d ", i);
            for (int j = 0; j < n; j++)
                printf("%3d", rows[(size_t)i * n + j]);
            printf("\n");
        }
    }
    shmem_free(rows);
    shmem_finalize();
    return 0;
}
