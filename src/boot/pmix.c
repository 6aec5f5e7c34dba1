/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The `pmix` bootstrap: PEs started by a PMIx launcher (Open MPI's mpirun, Slurm's srun), one
 * PE a process, the PMIx rank the PE number. Collectives go through the PMIx server:
 * allgather puts this PE's bytes under a key of its own (one per call), fences with data
 * collection and reads every rank's; a barrier is a fence. File descriptors (the heaps'
 * memfds, the device heap's chunks) cannot travel through PMIx: they go between the PEs of a
 * host over Unix sockets (fdx.h), named by the job's namespace. Abort is PMIx_Abort: the
 * launcher stops the job.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "boot/boot.h"
#include "boot/fdx.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pmix.h>

static pmix_proc_t me;
static unsigned seq;
static symm_boot_ops_t pmix_ops;
static symm_fdx_t fdx = {.ops = &pmix_ops, .what = "pmix", .listen_fd = -1};

static symm_status_t pmix_failed(const char *what, pmix_status_t rc)
{
    symm_boot_error(&pmix_ops, "%s failed: %s", what, PMIx_Error_string(rc));
    return SYMM_ERR_BOOT;
}

static symm_status_t pmix_barrier(void)
{
    pmix_status_t rc = PMIx_Fence(NULL, 0, NULL, 0);

    return rc == PMIX_SUCCESS ? SYMM_OK : pmix_failed("PMIx_Fence", rc);
}

/* Puts this PE's bytes under the next key and fences with data collection: every rank's
 * bytes are then readable under it. */
static symm_status_t publish(const void *in, size_t len, char *key)
{
    pmix_value_t v;
    pmix_info_t info;
    bool collect = true;
    pmix_status_t rc;

    snprintf(key, PMIX_MAX_KEYLEN + 1, "symm.ag.%u", ++seq);
    PMIX_VALUE_CONSTRUCT(&v);
    v.type = PMIX_BYTE_OBJECT;
    v.data.bo.bytes = (char *)in;
    v.data.bo.size = len;
    rc = PMIx_Put(PMIX_GLOBAL, key, &v);
    if (rc != PMIX_SUCCESS)
        return pmix_failed("PMIx_Put", rc);
    rc = PMIx_Commit();
    if (rc != PMIX_SUCCESS)
        return pmix_failed("PMIx_Commit", rc);
    PMIX_INFO_CONSTRUCT(&info);
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    rc = PMIx_Fence(NULL, 0, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    return rc == PMIX_SUCCESS ? SYMM_OK : pmix_failed("PMIx_Fence", rc);
}

/* The gets of one allgather: one PMIx_Get_nb per rank, all issued before any answer is
 * awaited, so that the local PMIx server answers them together rather than one round trip
 * after another (a job's start on a crowded host paid a scheduling delay per get). Each answer
 * copies its rank's bytes in PMIx's progress thread. */
typedef struct gets gets_t;
typedef struct got {
    gets_t *all;
    char *bytes; /* malloc'd */
    size_t len;
} got_t;
struct gets {
    pthread_mutex_t lock;
    pthread_cond_t done;
    int left;
    int bad;                /* a rank whose answer failed, or -1 */
    pmix_status_t rc;       /* its status (PMIX_SUCCESS: it gave no bytes) */
    got_t *ranks;
};

static void got_one(pmix_status_t status, pmix_value_t *kv, void *cbdata)
{
    got_t *g = cbdata;
    gets_t *all = g->all;
    int ok = status == PMIX_SUCCESS && kv && kv->type == PMIX_BYTE_OBJECT;

    if (ok) {
        g->len = kv->data.bo.size;
        g->bytes = malloc(g->len ? g->len : 1);
        if (g->bytes && g->len)
            memcpy(g->bytes, kv->data.bo.bytes, g->len);
        ok = g->bytes != NULL;
    }
    pthread_mutex_lock(&all->lock);
    if (!ok && all->bad < 0) {
        all->bad = (int)(g - all->ranks);
        all->rc = status;
    }
    if (--all->left == 0)
        pthread_cond_signal(&all->done);
    pthread_mutex_unlock(&all->lock);
}

static void gets_free(gets_t *all)
{
    for (int r = 0; r < pmix_ops.size; r++)
        free(all->ranks[r].bytes);
    free(all->ranks);
}

/* Every rank's bytes under key into all->ranks (gets_free releases them). */
static symm_status_t fetch_all(const char *key, gets_t *all)
{
    const int n = pmix_ops.size;

    *all = (gets_t){.lock = PTHREAD_MUTEX_INITIALIZER, .done = PTHREAD_COND_INITIALIZER,
                    .left = n, .bad = -1, .ranks = calloc((size_t)n, sizeof(got_t))};
    if (!all->ranks)
        return SYMM_ERR_NOMEM;
    for (int r = 0; r < n; r++) {
        pmix_proc_t p;
        pmix_status_t rc;

        all->ranks[r].all = all;
        PMIX_PROC_LOAD(&p, me.nspace, (pmix_rank_t)r);
        rc = PMIx_Get_nb(&p, key, NULL, 0, got_one, &all->ranks[r]);
        if (rc != PMIX_SUCCESS)
            got_one(rc, NULL, &all->ranks[r]);
    }
    pthread_mutex_lock(&all->lock);
    while (all->left > 0)
        pthread_cond_wait(&all->done, &all->lock);
    pthread_mutex_unlock(&all->lock);
    if (all->bad < 0)
        return SYMM_OK;
    if (all->rc != PMIX_SUCCESS)
        pmix_failed("PMIx_Get_nb", all->rc);
    else
        symm_boot_error(&pmix_ops, "allgather #%u: rank %d gave no bytes", seq, all->bad);
    gets_free(all);
    return SYMM_ERR_BOOT;
}

static symm_status_t pmix_allgather(const void *in, size_t len, void *out)
{
    char key[PMIX_MAX_KEYLEN + 1];
    symm_status_t st = publish(in, len, key);
    gets_t all;

    if (st == SYMM_OK)
        st = fetch_all(key, &all);
    if (st != SYMM_OK)
        return st;
    for (int r = 0; r < pmix_ops.size && st == SYMM_OK; r++) {
        if (all.ranks[r].len != len) {
            symm_boot_error(&pmix_ops, "allgather #%u: rank %d gave %zu bytes, this PE %zu", seq, r,
                            all.ranks[r].len, len);
            st = SYMM_ERR_BOOT;
        } else if (len) {
            memcpy((char *)out + (size_t)r * len, all.ranks[r].bytes, len);
        }
    }
    gets_free(&all);
    return st;
}

static symm_status_t pmix_allgatherv(const void *in, size_t len, void **out, size_t *lens)
{
    char key[PMIX_MAX_KEYLEN + 1], *buf;
    size_t at = 0, total = 0;
    symm_status_t st = publish(in, len, key);
    gets_t all;

    if (st == SYMM_OK)
        st = fetch_all(key, &all);
    if (st != SYMM_OK)
        return st;
    for (int r = 0; r < pmix_ops.size; r++)
        total += lens[r] = all.ranks[r].len;
    buf = malloc(total + 1);
    if (!buf) {
        gets_free(&all);
        return SYMM_ERR_NOMEM;
    }
    for (int r = 0; r < pmix_ops.size; r++) {
        memcpy(buf + at, all.ranks[r].bytes, lens[r]);
        at += lens[r];
    }
    gets_free(&all);
    *out = buf;
    return SYMM_OK;
}

static symm_status_t pmix_exchange_fds(const int *fds, int n, int first, int count, int *out)
{
    return symm_fdx_exchange(&fdx, fds, n, first, count, out);
}

/* The launcher stops the job; this PE says why first (mpirun prints only the status). */
__attribute__((noreturn)) static void pmix_abort(int status, const char *why)
{
    symm_boot_error(&pmix_ops, "pe %d aborts the job (status %d): %s", pmix_ops.rank, status,
                    why ? why : "a PE failed");
    PMIx_Abort(status, why ? why : "symm: a PE failed", NULL, 0);
    _exit(status ? status : 1);
}

static void pmix_finalize(void)
{
    symm_fdx_close(&fdx);
    PMIx_Finalize(NULL, 0);
}

static symm_boot_ops_t pmix_ops = {
    .name = "pmix",
    .allgather = pmix_allgather,
    .allgatherv = pmix_allgatherv,
    .barrier = pmix_barrier,
    .exchange_fds = pmix_exchange_fds,
    .abort = pmix_abort,
    .finalize = pmix_finalize,
};

symm_status_t symm_boot_pmix_init(const symm_boot_ops_t **out)
{
    pmix_proc_t wild;
    pmix_value_t *v = NULL;
    pmix_status_t rc;

    rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS)
        return pmix_failed("PMIx_Init (is this process started by mpirun or srun?)", rc);
    /* From here on a failure aborts the job: the other PEs may already wait in a fence. */
    pmix_ops.rank = (int)me.rank;
    PMIX_PROC_LOAD(&wild, me.nspace, PMIX_RANK_WILDCARD);
    rc = PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v);
    if (rc != PMIX_SUCCESS) {
        pmix_failed("PMIx_Get(PMIX_JOB_SIZE)", rc);
        pmix_abort(1, "symm: the job size is unknown");
    }
    pmix_ops.size = v->type == PMIX_UINT32 ? (int)v->data.uint32 : -1;
    PMIX_VALUE_RELEASE(v);
    if (pmix_ops.size < 1 || pmix_ops.rank >= pmix_ops.size) {
        symm_boot_error(&pmix_ops, "the launcher gave rank %d of a job of %d", pmix_ops.rank,
                        pmix_ops.size);
        pmix_abort(1, "symm: a rank outside the job");
    }
    /* The launcher knows how many of the job's processes run on this host: where that is not
     * all, the job spans hosts, known before the first fence. */
    rc = PMIx_Get(&wild, PMIX_LOCAL_SIZE, NULL, 0, &v);
    if (rc == PMIX_SUCCESS) {
        if (v->type == PMIX_UINT32 && (int)v->data.uint32 < pmix_ops.size &&
            symm_boot_cards.spans_hosts)
            symm_boot_cards.spans_hosts();
        PMIX_VALUE_RELEASE(v);
    }
    /* The job's key: its namespace, hashed (it may be longer than a socket name). */
    fdx.key = 1469598103934665603ull;
    for (const char *p = me.nspace; *p; p++)
        fdx.key = (fdx.key ^ (unsigned char)*p) * 1099511628211ull;
    if (symm_fdx_start(&fdx) != SYMM_OK)
        pmix_abort(1, "symm: the bootstrap cannot start");
    *out = &pmix_ops;
    return SYMM_OK;
}
