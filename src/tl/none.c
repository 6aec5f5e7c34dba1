/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The network transport of a build without UCX's and libfabric's headers: a job whose PEs
 * span nodes stops at start with a line saying so. The other ops are never reached (no PE is marked for them).
 */
#include <stdio.h>

#include "tl/tl.h"

static symm_status_t none_init(const symm_tl_env_t *env, char *why, size_t why_len)
{
    (void)env;
    snprintf(why, why_len, "PEs on other nodes need UCX or libfabric, and this symm was built "
             "without either (install libucx-dev or libfabric-dev and rebuild)");
    return SYMM_ERR_UNSUPPORTED;
}

static void none_fini(void)
{
}

static symm_status_t none_extent_reg(const symm_tl_range_t *r, void *key, size_t key_cap,
                                     size_t *key_len, char *why, size_t why_len)
{
    return SYMM_ERR_UNSUPPORTED;
}

static symm_status_t none_extent_keys(const void *const *keys, const size_t *lens, char *why,
                                      size_t why_len)
{
    return SYMM_ERR_UNSUPPORTED;
}

static void none_extent_drop(void)
{
}

static size_t none_registered(symm_tl_seg_t seg)
{
    return 0;
}

static void none_put(void **chan, const char *call, int pe, symm_tl_seg_t seg, uint64_t off,
                     const void *src, size_t n, symm_tl_mode_t mode)
{
}

static void none_get(void **chan, const char *call, int pe, symm_tl_seg_t seg, uint64_t off,
                     void *dest, size_t n, symm_tl_mode_t mode)
{
}

static uint64_t none_amo(void **chan, const char *call, const symm_tl_amo_t *a,
                         symm_tl_mode_t mode)
{
    return 0;
}

static void none_chan(void **chan)
{
}

static int none_progress(void)
{
    return 0;
}

static void none_rest(int on)
{
}

static void none_quiet(void **chan, int all)
{
    (void)chan;
    (void)all;
}

static symm_status_t none_open(const char *lib)
{
    (void)lib;
    return SYMM_OK;
}

static const char *none_describe(void)
{
    return "none";
}

const symm_tl_ops_t symm_tl_none = {
    .name = "none",
    .init = none_init,
    .open = none_open,
    .fini = none_fini,
    .extent_reg = none_extent_reg,
    .extent_keys = none_extent_keys,
    .extent_drop = none_extent_drop,
    .registered = none_registered,
    .put = none_put,
    .get = none_get,
    .amo = none_amo,
    .fence = none_chan,
    .quiet = none_quiet,
    .progress = none_progress,
    .rest = none_rest,
    .chan_release = none_chan,
    .describe = none_describe,
};
