/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * uid_start: a program started as torchrun or mp.spawn start theirs (RANK and WORLD_SIZE in
 * the environment, no symm launcher), joined through a unique id that rank 0 makes and hands
 * over in a file (SYMM_TEST_ID_FILE), as a program would through torch.distributed.
 *   uid_start            checks the job (job_check.h)
 *   uid_start --die R    rank R leaves without finalizing once the job runs: the others must
 *                        end with a report naming it
 *   uid_start --forge R  rank R joins with an id whose secret differs: refused
 */
#define _GNU_SOURCE
#include "job_check.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

static int env_int(const char *name)
{
    const char *v = getenv(name);

    if (!v) {
        fprintf(stderr, "uid_start: %s is not set\n", name);
        exit(2);
    }
    return atoi(v);
}

/* Rank 0 writes the id and renames it into place; the others wait for it (at most 60 s). */
static void pass_id(int rank, shmemx_uniqueid_t *id)
{
    const char *path = getenv("SYMM_TEST_ID_FILE");
    char tmp[4096];
    FILE *f;

    if (!path) {
        fprintf(stderr, "uid_start: SYMM_TEST_ID_FILE is not set\n");
        exit(2);
    }
    if (rank == 0) {
        snprintf(tmp, sizeof(tmp), "%s.tmp", path);
        f = shmemx_get_uniqueid(id) == 0 ? fopen(tmp, "wb") : NULL;
        if (!f || fwrite(id, sizeof(*id), 1, f) != 1 || fclose(f) != 0 || rename(tmp, path) != 0) {
            fprintf(stderr, "uid_start: rank 0 cannot pass the id through %s\n", path);
            exit(2);
        }
        return;
    }
    for (int tries = 0; tries < 6000; tries++) {
        f = fopen(path, "rb");
        if (f) {
            size_t got = fread(id, sizeof(*id), 1, f);

            fclose(f);
            if (got == 1)
                return;
        }
        usleep(10000);
    }
    fprintf(stderr, "uid_start: rank %d: no id in %s after 60 s\n", rank, path);
    exit(2);
}

int main(int argc, char **argv)
{
    int rank = env_int("RANK"), size = env_int("WORLD_SIZE");
    int die = argc > 2 && !strcmp(argv[1], "--die") ? atoi(argv[2]) : -1;
    int forge = argc > 2 && !strcmp(argv[1], "--forge") ? atoi(argv[2]) : -1, status;
    shmemx_uniqueid_t id;
    shmemx_init_attr_t attr;

    pass_id(rank, &id);
    if (rank == forge)
        id.internal[30] ^= 1; /* inside the half of the secret it shows the hub */
    shmemx_set_attr_uniqueid_args(rank, size, &id, &attr);
    shmemx_init_attr(SHMEMX_INIT_WITH_UNIQUEID, &attr);
    status = job_check("uid_start", rank, size);
    /* Status 0: the job's status (uid_run.sh's first non-zero one) is then the others' report,
     * however late they notice. */
    if (rank == die)
        _exit(0);
    shmem_barrier_all();
    shmem_finalize();
    return status;
}
