/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * launch_floor: the least a library over PMIx and UCX does before its first barrier, with no
 * OpenSHMEM at all: the floor under bench/scale.sh's launch figure. Each process started by
 * mpirun joins PMIx, makes a UCX context and worker on the transports the environment names,
 * publishes its worker's address (PMIx_Put, PMIx_Commit, one PMIx_Fence that collects the
 * data), reads the addresses of its two neighbours in rank order and makes an endpoint to
 * each, and then meets the others in a second fence (the first barrier). Its lines are those
 * of bench/scale.c that scale.sh reads for the launch: `pe=R t_main=S t_init=S` from every
 * process (t_init: after the exchange), `first_barrier=S pes=N` and `done pes=N` from rank 0.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pmix.h>
#include <ucp/api/ucp.h>

static double realtime(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what, int rc)
{
    fprintf(stderr, "launch_floor: %s failed (%d)\n", what, rc);
    exit(1);
}

/* Reads rank r's worker address and makes an endpoint to it. */
static void connect_to(const pmix_proc_t *me, pmix_rank_t r, ucp_worker_h w, ucp_ep_h *ep)
{
    pmix_proc_t p;
    pmix_value_t *v = NULL;
    ucp_ep_params_t ep_params = {.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS};
    int rc;

    PMIX_PROC_LOAD(&p, me->nspace, r);
    rc = PMIx_Get(&p, "floor.addr", NULL, 0, &v);
    if (rc != PMIX_SUCCESS || v->type != PMIX_BYTE_OBJECT)
        die("PMIx_Get", rc);
    ep_params.address = (const ucp_address_t *)v->data.bo.bytes;
    if (ucp_ep_create(w, &ep_params, ep) != UCS_OK)
        die("ucp_ep_create", 0);
    PMIX_VALUE_RELEASE(v);
}

int main(void)
{
    double t_main = realtime(), t_init;
    ucp_params_t params = {.field_mask = UCP_PARAM_FIELD_FEATURES,
                           .features = UCP_FEATURE_RMA | UCP_FEATURE_AMO64};
    ucp_worker_params_t wp = {.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
                              .thread_mode = UCS_THREAD_MODE_SINGLE};
    pmix_proc_t me, wild;
    pmix_value_t *v = NULL, val;
    pmix_info_t info;
    bool collect = true;
    ucp_config_t *cfg;
    ucp_context_h ctx;
    ucp_worker_h w;
    ucp_address_t *addr;
    ucp_ep_h ep[2];
    size_t addr_len;
    uint32_t n;
    int rc;

    if ((rc = PMIx_Init(&me, NULL, 0)) != PMIX_SUCCESS)
        die("PMIx_Init", rc);
    PMIX_PROC_LOAD(&wild, me.nspace, PMIX_RANK_WILDCARD);
    if ((rc = PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v)) != PMIX_SUCCESS)
        die("PMIx_Get(PMIX_JOB_SIZE)", rc);
    n = v->data.uint32;
    PMIX_VALUE_RELEASE(v);
    if (ucp_config_read(NULL, NULL, &cfg) != UCS_OK || ucp_init(&params, cfg, &ctx) != UCS_OK)
        die("ucp_init", 0);
    ucp_config_release(cfg);
    if (ucp_worker_create(ctx, &wp, &w) != UCS_OK ||
        ucp_worker_get_address(w, &addr, &addr_len) != UCS_OK)
        die("ucp_worker_create", 0);
    PMIX_VALUE_CONSTRUCT(&val);
    val.type = PMIX_BYTE_OBJECT;
    val.data.bo.bytes = (char *)addr;
    val.data.bo.size = addr_len;
    if ((rc = PMIx_Put(PMIX_GLOBAL, "floor.addr", &val)) != PMIX_SUCCESS ||
        (rc = PMIx_Commit()) != PMIX_SUCCESS)
        die("PMIx_Put", rc);
    PMIX_INFO_CONSTRUCT(&info);
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    if ((rc = PMIx_Fence(NULL, 0, &info, 1)) != PMIX_SUCCESS)
        die("PMIx_Fence", rc);
    PMIX_INFO_DESTRUCT(&info);
    connect_to(&me, (me.rank + 1) % n, w, &ep[0]);
    connect_to(&me, (me.rank + n - 1) % n, w, &ep[1]);
    t_init = realtime();
    printf("pe=%u t_main=%.6f t_init=%.6f\n", me.rank, t_main, t_init);
    fflush(stdout);
    if ((rc = PMIx_Fence(NULL, 0, NULL, 0)) != PMIX_SUCCESS)
        die("PMIx_Fence", rc);
    if (me.rank == 0) {
        printf("first_barrier=%.6f pes=%u\n", realtime(), n);
        printf("done pes=%u\n", n);
        fflush(stdout);
    }
    for (int i = 0; i < 2; i++)
        ucp_ep_destroy(ep[i]);
    ucp_worker_release_address(w, addr);
    ucp_worker_destroy(w);
    ucp_cleanup(ctx);
    PMIx_Finalize(NULL, 0);
    return 0;
}
