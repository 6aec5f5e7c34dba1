/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Bootstrap selection: SYMM_BOOT names the bootstrap of this process (symmrun sets "launcher");
 * unset or empty means `pmix` when a PMIx launcher (mpirun, srun) started the process
 * (PMIX_RANK is set), else a job of one PE. The table below is the only list of bootstraps.
 */
#include "boot/boot.h"

#include "symm/config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

symm_boot_request_t symm_boot_req;
symm_boot_cards_t symm_boot_cards;

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

symm_status_t symm_boot_allgatherv(const symm_boot_ops_t *ops, const void *in, size_t len,
                                   void **out, size_t *lens)
{
    const size_t n = (size_t)ops->size;
    uint64_t mine = len, *all = malloc(n * sizeof(*all));
    size_t max = 1, at = 0;
    char *pad = NULL, *got = NULL;
    symm_status_t st = SYMM_ERR_NOMEM;

    if (ops->allgatherv) {
        free(all);
        return ops->allgatherv(in, len, out, lens);
    }
    if (!all || (st = ops->allgather(&mine, sizeof(mine), all)) != SYMM_OK)
        goto out;
    for (size_t r = 0; r < n; r++)
        max = all[r] > max ? (size_t)all[r] : max;
    pad = calloc(1, max);
    got = malloc(n * max);
    st = SYMM_ERR_NOMEM;
    if (!pad || !got)
        goto out;
    memcpy(pad, in, len);
    if ((st = ops->allgather(pad, max, got)) != SYMM_OK)
        goto out;
    for (size_t r = 0; r < n; r++) {
        memmove(got + at, got + r * max, (size_t)all[r]);
        lens[r] = (size_t)all[r];
        at += lens[r];
    }
    *out = got;
    got = NULL;
out:
    free(all);
    free(pad);
    free(got);
    return st;
}

/* Every rank's card, unless the bootstrap's start gathered them already. */
static symm_status_t gather_cards(const symm_boot_ops_t *ops)
{
    if (symm_boot_cards.all || !symm_boot_cards.len)
        return SYMM_OK;
    symm_boot_cards.all = malloc((size_t)ops->size * symm_boot_cards.len);
    if (!symm_boot_cards.all)
        return SYMM_ERR_NOMEM;
    return ops->allgather(symm_boot_cards.mine, symm_boot_cards.len, symm_boot_cards.all);
}

static symm_status_t start(const char *name, const symm_boot_ops_t **out)
{
    symm_status_t st;

    for (size_t i = 0; i < sizeof(boots) / sizeof(boots[0]); i++) {
        if (strcmp(name, boots[i].name))
            continue;
        st = boots[i].init(out);
        return st == SYMM_OK ? gather_cards(*out) : st;
    }
    fprintf(stderr, "symm: unknown bootstrap SYMM_BOOT='%s' (known: single, launcher%s; uid "
                    "and mpi are chosen by shmemx_init_attr)\n", name,
            SYMM_HAVE_PMIX ? ", pmix" : "");
    return SYMM_ERR_INVALID;
}

const symm_params_t *symm_boot_params;

symm_status_t symm_boot_init(const symm_params_t *params, const void *card, size_t len,
                             void (*spans_hosts)(void), void **cards,
                             const symm_boot_ops_t **out)
{
    const char *name = params->boot;
    symm_status_t st;

    symm_boot_params = params;
    *cards = NULL;
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
    symm_boot_cards = (symm_boot_cards_t){.mine = card, .len = len, .spans_hosts = spans_hosts};
    st = start(name, out);
    *cards = symm_boot_cards.all;
    symm_boot_cards.all = NULL;
    if (st != SYMM_OK) {
        free(*cards);
        *cards = NULL;
    }
    return st;
}
