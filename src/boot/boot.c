/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Bootstrap selection: SYMM_BOOT names the bootstrap of this process (symmrun sets "launcher");
 * unset or empty means `pmix` when a PMIx launcher (mpirun, srun) started the process
 * (PMIX_RANK is set), else a job of one PE. The table below is the only list of bootstraps.
 */
#include "boot/boot.h"

#include "symm/config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

symm_boot_request_t symm_boot_req;

static const struct {
    const char *name;
    symm_status_t (*init)(const symm_boot_ops_t **out);
} boots[] = {
    {"single", symm_boot_single_init},
    {"launcher", symm_boot_launcher_init},
    {"uid", symm_boot_uid_init},
    {"mpi", symm_boot_mpi_init},
#if SYMM_HAVE_PMIX
    {"pmix", symm_boot_pmix_init},
#endif
};

static int env_gt1(const char *name)
{
    const char *v = getenv(name);

    return v && atol(v) > 1;
}

symm_status_t symm_boot_init(const symm_boot_ops_t **out)
{
    const char *name = getenv("SYMM_BOOT");

    if (symm_boot_req.how != SYMM_BOOT_ENV)
        name = symm_boot_req.how == SYMM_BOOT_UID ? "uid" : "mpi";
    else if (!name || !*name) {
        name = "single";
        if (!getenv("PMIX_RANK") && (env_gt1("PMI_SIZE") || env_gt1("OMPI_COMM_WORLD_SIZE") ||
                                     env_gt1("SLURM_STEP_NUM_TASKS"))) {
            fprintf(stderr, "symm: started by a launcher of several processes without PMIx "
                            "(PMI_SIZE, OMPI_COMM_WORLD_SIZE or SLURM_STEP_NUM_TASKS is above "
                            "1, PMIX_RANK is not set): each would run alone; start the program "
                            "with symmrun, or with mpirun or srun --mpi=pmix\n");
            return SYMM_ERR_INVALID;
        }
        if (getenv("PMIX_RANK")) {
            name = "pmix";
            if (!SYMM_HAVE_PMIX) {
                fprintf(stderr, "symm: started by a PMIx launcher (mpirun or srun: PMIX_RANK is "
                                "set), but this symm was built without PMIx (libpmix-dev); "
                                "start the program with symmrun\n");
                return SYMM_ERR_INVALID;
            }
        }
    }
    for (size_t i = 0; i < sizeof(boots) / sizeof(boots[0]); i++)
        if (!strcmp(name, boots[i].name))
            return boots[i].init(out);
    fprintf(stderr, "symm: unknown bootstrap SYMM_BOOT='%s' (known: single, launcher%s; uid "
                    "and mpi are chosen by shmemx_init_attr)\n", name,
            SYMM_HAVE_PMIX ? ", pmix" : "");
    return SYMM_ERR_INVALID;
}
