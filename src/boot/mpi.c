/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The `mpi` bootstrap: a program that called MPI_Init hands symm a communicator
 * (shmemx_init_attr or nvshmemx_init_attr with the MPI-communicator flag), a subset of
 * MPI_COMM_WORLD or all of it; its ranks are the PEs. libsymm depends on no MPI: it loads
 * libsymm_mpi.so, built against the MPI at hand (SYMM_MPI_PLUGIN names another), which runs
 * the collectives; descriptors go between the PEs of a host over Unix sockets (fdx.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "boot/boot.h"
#include "boot/fdx.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#define PLUGIN "libsymm_mpi.so"

static symm_boot_mpi_fns_t fns;
static symm_boot_ops_t mpi_ops;
static symm_fdx_t fdx = {.ops = &mpi_ops, .what = "mpi", .listen_fd = -1};

static symm_status_t mpi_allgather(const void *in, size_t len, void *out)
{
    if (fns.allgather(in, len, out) == 0)
        return SYMM_OK;
    symm_boot_error(&mpi_ops, "MPI_Allgather of %zu bytes failed", len);
    return SYMM_ERR_BOOT;
}

static symm_status_t mpi_barrier(void)
{
    if (fns.barrier() == 0)
        return SYMM_OK;
    symm_boot_error(&mpi_ops, "MPI_Barrier failed");
    return SYMM_ERR_BOOT;
}

static symm_status_t mpi_exchange_fds(const int *fds, int n, int first, int count, int *out)
{
    return symm_fdx_exchange(&fdx, fds, n, first, count, out);
}

/* MPI_Abort ends every process of the communicator's job. */
__attribute__((noreturn)) static void mpi_abort(int status, const char *why)
{
    symm_boot_error(&mpi_ops, "pe %d aborts the job (status %d): %s", mpi_ops.rank, status,
                    why ? why : "a PE failed");
    fns.abort(status);
    _exit(status ? status : 1);
}

static void mpi_finalize(void)
{
    symm_fdx_close(&fdx);
    fns.finalize();
}

static symm_boot_ops_t mpi_ops = {
    .name = "mpi",
    .allgather = mpi_allgather,
    .barrier = mpi_barrier,
    .exchange_fds = mpi_exchange_fds,
    .abort = mpi_abort,
    .finalize = mpi_finalize,
};

/* The plugin: SYMM_MPI_PLUGIN, else the one beside libsymm, else the loader's search. */
static void *load_plugin(char *tried, size_t len)
{
    const char *env = symm_boot_params->mpi_plugin;
    Dl_info self;
    void *h;

    if (env && *env) {
        snprintf(tried, len, "%s", env);
        return dlopen(env, RTLD_NOW | RTLD_LOCAL);
    }
    if (dladdr((void *)symm_boot_mpi_init, &self) && self.dli_fname) {
        const char *slash = strrchr(self.dli_fname, '/');

        if (slash) {
            snprintf(tried, len, "%.*s/%s", (int)(slash - self.dli_fname), self.dli_fname, PLUGIN);
            if ((h = dlopen(tried, RTLD_NOW | RTLD_LOCAL)))
                return h;
        }
    }
    snprintf(tried, len, "%s", PLUGIN);
    return dlopen(PLUGIN, RTLD_NOW | RTLD_LOCAL);
}

symm_status_t symm_boot_mpi_init(const symm_boot_ops_t **out)
{
    char tried[512], why[256] = "";
    void *h;
    symm_boot_mpi_open_t open_fn;
    uint64_t key = 0, *keys;

    if (symm_boot_req.how != SYMM_BOOT_MPI) {
        symm_boot_error(&mpi_ops, "chosen by shmemx_init_attr with an MPI communicator only");
        return SYMM_ERR_INVALID;
    }
    h = load_plugin(tried, sizeof(tried));
    open_fn = h ? (symm_boot_mpi_open_t)dlsym(h, SYMM_BOOT_MPI_OPEN) : NULL;
    if (!open_fn) {
        symm_boot_error(&mpi_ops,
                        "cannot load %s, symm's MPI part (%s): build symm where "
                        "MPI's headers are (libopenmpi-dev), or set SYMM_MPI_PLUGIN",
                        tried, dlerror());
        return SYMM_ERR_INVALID;
    }
    if (open_fn(symm_boot_req.mpi_comm, &fns, why, sizeof(why)) != 0) {
        symm_boot_error(&mpi_ops, "%s", why);
        return SYMM_ERR_INVALID;
    }
    mpi_ops.rank = fns.rank;
    mpi_ops.size = fns.size;
    /* The job's key (names of the descriptor sockets): rank 0's random number. */
    keys = malloc(sizeof(uint64_t) * (size_t)fns.size);
    if (!keys || getrandom(&key, sizeof(key), 0) != (ssize_t)sizeof(key) ||
        mpi_allgather(&key, sizeof(key), keys) != SYMM_OK)
        mpi_abort(1, "symm: the bootstrap cannot start");
    fdx.key = keys[0];
    free(keys);
    if (symm_fdx_start(&fdx) != SYMM_OK)
        mpi_abort(1, "symm: the bootstrap cannot start");
    *out = &mpi_ops;
    return SYMM_OK;
}
