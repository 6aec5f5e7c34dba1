/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Which network transport a job uses: SYMM_NET names one (ucx or ofi), or auto picks libfabric
 * where the user names a provider (FI_PROVIDER) or the host has a network that UCX does not
 * serve, and UCX otherwise. The host's networks are read from sysfs, which costs no start of
 * either library: Slingshot's NICs appear under /sys/class/cxi, EFA and Omni-Path devices
 * under /sys/class/infiniband as efa* and hfi1*.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <symm/config.h>

#include "tl/tl.h"

const symm_tl_ops_t *symm_tl_net = &symm_tl_none;

/* Whether this host has a network that libfabric serves and UCX does not. */
static int ofi_network(void)
{
    DIR *d;
    struct dirent *e;
    int found = 0;

    if (access("/sys/class/cxi", F_OK) == 0)
        return 1;
    d = opendir("/sys/class/infiniband");
    if (!d)
        return 0;
    while (!found && (e = readdir(d)))
        found = !strncmp(e->d_name, "efa", 3) || !strncmp(e->d_name, "hfi1", 4);
    closedir(d);
    return found;
}

symm_status_t symm_tl_choose(const symm_params_t *params, const char **lib, char *why,
                             size_t why_len)
{
    const char *want = params->net;
    const symm_tl_ops_t *ucx = NULL, *ofi = NULL;

#if SYMM_HAVE_UCX
    ucx = &symm_tl_ucx;
#endif
#if SYMM_HAVE_OFI
    ofi = &symm_tl_ofi;
#endif
    if (!strcmp(want, "auto")) {
        const char *prov = getenv("FI_PROVIDER"); /* set empty, it names no provider */
        if (ofi && ((prov && *prov) || ofi_network() || !ucx))
            symm_tl_net = ofi;
        else
            symm_tl_net = ucx ? ucx : &symm_tl_none;
    } else if (!strcmp(want, "ucx") || !strcmp(want, "ofi")) {
        symm_tl_net = want[0] == 'u' ? ucx : ofi;
        if (!symm_tl_net) {
            symm_tl_net = &symm_tl_none;
            snprintf(why, why_len, "SYMM_NET=%s, and this symm was built without %s (install "
                     "%s and rebuild)", want, want[0] == 'u' ? "UCX" : "libfabric",
                     want[0] == 'u' ? "libucx-dev" : "libfabric-dev");
            return SYMM_ERR_UNSUPPORTED;
        }
    } else {
        snprintf(why, why_len, "SYMM_NET=%s: the network is ucx, ofi or auto", want);
        return SYMM_ERR_INVALID;
    }
    *lib = symm_tl_net == ofi && ofi ? params->ofi_lib : params->ucx_lib;
    return SYMM_OK;
}
