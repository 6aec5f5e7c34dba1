/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Bootstrap selection: SYMM_BOOT names the bootstrap of this process (symmrun sets "launcher");
 * unset or empty means a job of one PE. The table below is the only list of bootstraps.
 */
#include "boot/boot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "pmix" (mpirun, srun) and "mpi" (a communicator handed over) join this table. */
static const struct {
    const char *name;
    symm_status_t (*init)(const symm_boot_ops_t **out);
} boots[] = {
    {"single", symm_boot_single_init},
    {"launcher", symm_boot_launcher_init},
};

symm_status_t symm_boot_init(const symm_boot_ops_t **out)
{
    const char *name = getenv("SYMM_BOOT");

    if (!name || !*name)
        name = "single";
    for (size_t i = 0; i < sizeof(boots) / sizeof(boots[0]); i++)
        if (!strcmp(name, boots[i].name))
            return boots[i].init(out);
    fprintf(stderr, "symm: unknown bootstrap SYMM_BOOT='%s' (known: single, launcher)\n", name);
    return SYMM_ERR_INVALID;
}
