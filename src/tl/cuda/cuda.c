/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The CUDA transport (cuda.h): the error path, the thread's binding to the device, the
 * library's kernels, the mapping of the peers' device heaps and the host's copies.
 *
 * Mapping. Each piece of a PE's device heap is a cuMemCreate allocation (POSIX file
 * descriptor handle) that its owner maps into its own slot, exports as a descriptor and passes
 * to every PE of the node through the bootstrap; each imports it and maps it into the owner's
 * slot, then grants its own GPU access to the mapping. A peer address is then
 * addr + (pe - me) * stride on host and device alike.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl/cuda/cuda.h"

symm_cuda_t symm_cuda_g = {.ordinal = -1};

/* ---- Errors ------------------------------------------------------------------------------ */
const char *symm_cuda_report(char *buf, size_t len)
{
    const symm_dev_err_t *e = symm_cuda_g.err;

    if (!e || e->set != 1)
        return NULL;
    switch (e->what) {
    case SYMM_DEV_ERR_PE:
        snprintf(buf, len, "%s(addr=%#llx, pe=%d) in a kernel: pe %d is out of range (the job "
                 "has %d PEs, 0..%d)", e->call, e->addr, e->pe, e->pe, e->n_pes, e->n_pes - 1);
        break;
    case SYMM_DEV_ERR_ADDR:
        snprintf(buf, len, "%s(addr=%#llx, bytes=%llu, pe=%d) in a kernel: [%#llx, %#llx) is not "
                 "in the device heap (%p..%p)", e->call, e->addr, e->bytes, e->pe, e->addr,
                 e->addr + e->bytes, (void *)symm_cuda_g.base,
                 (void *)(symm_cuda_g.base + symm_cuda_g.stride));
        break;
    case SYMM_DEV_ERR_INIT:
        snprintf(buf, len, "%s in a kernel: the device state of its module is not set "
                 "(called before shmem_init, or the module was not registered)", e->call);
        break;
    case SYMM_DEV_ERR_ALIGN:
        snprintf(buf, len, "%s(addr=%#llx) in a kernel: the address is not %llu-byte aligned",
                 e->call, e->addr, e->bytes);
        break;
    case SYMM_DEV_ERR_TEAM:
        snprintf(buf, len, "%s(team=%#llx) in a kernel: not a team of this PE (SHMEM_TEAM_INVALID, "
                 "destroyed, or not a team handle)", e->call, e->addr);
        break;
    case SYMM_DEV_ERR_FAR:
        snprintf(buf, len, "%s(addr=%#llx) in a kernel: pe %d is on another node, and this "
                 "routine reaches the PEs of this node only", e->call, e->addr, e->pe);
        break;
    default:
        snprintf(buf, len, "%s(addr=%#llx) in a kernel: bad argument %llu", e->call, e->addr,
                 e->bytes);
        break;
    }
    return buf;
}

void symm_cuda_fail(const char *call, const char *what, CUresult r)
{
    char err[160], dev[400];

    if (symm_cuda_report(dev, sizeof(dev)))
        symm_cuda_g.env.fatal("%s", dev);
    symm_cu_str(r, err, sizeof(err));
    if (r == CUDA_ERROR_ILLEGAL_ADDRESS || r == CUDA_ERROR_LAUNCH_FAILED ||
        r == CUDA_ERROR_ILLEGAL_INSTRUCTION || r == CUDA_ERROR_MISALIGNED_ADDRESS ||
        r == CUDA_ERROR_HARDWARE_STACK_ERROR || r == CUDA_ERROR_ASSERT)
        symm_cuda_g.env.fatal("%s: a kernel on this PE (GPU %d) faulted: %s", call,
                              symm_cuda_g.ordinal, err);
    symm_cuda_g.env.fatal("%s: %s failed: %s", call, what, err);
}

/* ---- The device and the kernels -------------------------------------------------------------- */
int symm_cuda_gone(void)
{
    CUcontext cur = NULL;

    return symm_cu.cuCtxGetCurrent(&cur) == CUDA_ERROR_DEINITIALIZED;
}

void symm_cuda_bind(const char *call)
{
    CUcontext cur = NULL;

    if (symm_cu.cuCtxGetCurrent(&cur) != CUDA_SUCCESS || cur != symm_cuda_g.ctx)
        SYMM_CU_CHECK(call, symm_cu.cuCtxSetCurrent(symm_cuda_g.ctx));
}

/* Every kernel of module m, loaded now, and kept with its name. Under lazy loading (CUDA's
 * default since 12.2) a kernel's first launch may wait until the context's running kernels end;
 * a kernel of this PE that waits for the proxy (which launches the atomics' kernel) or for a
 * stream operation of a peer (whose library kernel is being launched behind a kernel waiting
 * for this one) would then wait forever. A driver without cuFuncLoad (before CUDA 12.4) loads
 * at cuModuleGetFunction. */
static void load_all(const char *call, CUmodule m)
{
    unsigned n = 0, at = symm_cuda_g.nfns;
    CUfunction *f;
    const char **names;

    if (!symm_cu.cuModuleGetFunctionCount || !symm_cu.cuModuleEnumerateFunctions ||
        !symm_cu.cuFuncLoad || !symm_cu.cuFuncGetName)
        return;
    SYMM_CU_CHECK(call, symm_cu.cuModuleGetFunctionCount(&n, m));
    f = realloc(symm_cuda_g.fns, sizeof(*f) * (at + n + 1));
    if (f)
        symm_cuda_g.fns = f;
    names = realloc(symm_cuda_g.fn_names, sizeof(*names) * (at + n + 1));
    if (names)
        symm_cuda_g.fn_names = names;
    if (!f || !names)
        symm_cuda_g.env.fatal("%s: out of host memory", call);
    SYMM_CU_CHECK(call, symm_cu.cuModuleEnumerateFunctions(f + at, n, m));
    for (unsigned i = at; i < at + n; i++) {
        SYMM_CU_CHECK(call, symm_cu.cuFuncLoad(f[i]));
        SYMM_CU_CHECK(call, symm_cu.cuFuncGetName(&names[i], f[i]));
    }
    symm_cuda_g.nfns = at + n;
}

/* From the modules' lists where the driver gives them (a lookup that fails is an error to
 * compute-sanitizer), else from each module in turn. */
CUfunction symm_cuda_kernel(const char *call, const char *name)
{
    CUfunction f;

    for (unsigned i = 0; i < symm_cuda_g.nfns; i++)
        if (!strcmp(symm_cuda_g.fn_names[i], name))
            return symm_cuda_g.fns[i];
    for (int i = 0; !symm_cuda_g.nfns && i < symm_cuda_g.nmodules; i++) {
        CUresult r = symm_cu.cuModuleGetFunction(&f, symm_cuda_g.modules[i], name);
        if (r == CUDA_SUCCESS)
            return f;
        if (r != CUDA_ERROR_NOT_FOUND)
            symm_cuda_fail(call, "cuModuleGetFunction", r);
    }
    symm_cuda_g.env.fatal("%s: no module of the library's GPU kernels holds %s", call, name);
}

/* The modules come from the fat binaries in turn (the kernel-by-name lookups try them all, and
 * cuda.h's SYMM_CUDA_KERNELS are each found once here). */
void symm_cuda_load_kernels(const char *call)
{
    for (const symm_cuda_fatbin_t *b = symm_cuda_fatbins; b->name; b++) {
        CUmodule *m = &symm_cuda_g.modules[symm_cuda_g.nmodules];
        CUresult r;

        if (symm_cuda_g.nmodules == SYMM_CUDA_MODULES_MAX)
            symm_cuda_g.env.fatal("%s: libsymm carries more than %d modules of GPU kernels",
                                  call, SYMM_CUDA_MODULES_MAX);
        r = symm_cu.cuModuleLoadData(m, b->image);
        if (r != CUDA_SUCCESS) {
            char err[160];
            symm_cuda_g.env.fatal("%s: the library's GPU kernels (%s, built for %s) do not load "
                                  "on GPU %d: %s", call, b->name, SYMM_CUDA_ARCH,
                                  symm_cuda_g.ordinal, symm_cu_str(r, err, sizeof(err)));
        }
        symm_cuda_g.nmodules++;
        load_all(call, *m);
    }
#define SYMM_CUDA_LOAD(k) symm_cuda_g.k_##k = symm_cuda_kernel(call, "symm_k_" #k);
    SYMM_CUDA_KERNELS(SYMM_CUDA_LOAD)
#undef SYMM_CUDA_LOAD
}

void symm_cuda_unload_kernels(const char *call)
{
    free(symm_cuda_g.fns);
    free(symm_cuda_g.fn_names);
    symm_cuda_g.fns = NULL;
    symm_cuda_g.fn_names = NULL;
    symm_cuda_g.nfns = 0;
    while (symm_cuda_g.nmodules > 0)
        SYMM_CU_CHECK(call, symm_cu.cuModuleUnload(symm_cuda_g.modules[--symm_cuda_g.nmodules]));
}

void symm_cuda_launch(const char *call, CUfunction f, unsigned grid, unsigned block, CUstream s,
                      void **args)
{
    SYMM_CU_CHECK(call, symm_cu.cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, s, args, NULL));
}

/* ---- Mapping the peers' heaps ------------------------------------------------------------- */
/* The node's PEs only: those of other nodes are reached through the proxy (tl/proxy), and
 * their slots of the window stay unmapped. */
void symm_cuda_share(const char *call, CUmemGenericAllocationHandle h, size_t off, size_t len)
{
    const symm_cuda_env_t *env = &symm_cuda_g.env;
    int n = env->size, me = env->rank, fd = -1, *all = malloc(sizeof(int) * n);
    const CUmemAccessDesc acc = {.location = {.type = CU_MEM_LOCATION_TYPE_DEVICE,
                                              .id = symm_cuda_g.dev},
                                 .flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
    symm_status_t st;

    if (!all)
        env->fatal("%s: out of host memory", call);
    SYMM_CU_CHECK(call, symm_cu.cuMemExportToShareableHandle(
                            &fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    st = env->exchange_fds(&fd, 1, env->first, env->count, all);
    if (st != SYMM_OK)
        env->fatal("%s: cannot pass the device heap to the other PEs: %s", call,
                   env->status_str(st));
    for (int pe = env->first; pe < env->first + env->count; pe++) {
        char *at = symm_cuda_g.win + (size_t)pe * symm_cuda_g.stride + off;
        CUmemGenericAllocationHandle ph;
        CUresult r;

        if (pe == me)
            continue;
        r = symm_cu.cuMemImportFromShareableHandle(&ph, (void *)(uintptr_t)all[pe],
                                                   CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
        if (r != CUDA_SUCCESS) {
            char err[160];
            env->fatal("%s: cannot import the device heap of pe %d: %s", call, pe,
                       symm_cu_str(r, err, sizeof(err)));
        }
        SYMM_CU_CHECK(call, symm_cu.cuMemMap((CUdeviceptr)at, len, 0, ph, 0));
        SYMM_CU_CHECK(call, symm_cu.cuMemRelease(ph));
        r = symm_cu.cuMemSetAccess((CUdeviceptr)at, len, &acc, 1);
        if (r != CUDA_SUCCESS) {
            char err[160];
            env->fatal("%s: GPU %d of this PE cannot reach the GPU memory of pe %d (no peer "
                       "access between them): %s", call, symm_cuda_g.ordinal, pe,
                       symm_cu_str(r, err, sizeof(err)));
        }
    }
    for (int pe = env->first; pe < env->first + env->count; pe++)
        close(all[pe]);
    close(fd);
    free(all);
}

void symm_cuda_unmap(const char *call, size_t off, size_t len)
{
    for (int pe = symm_cuda_g.env.first; pe < symm_cuda_g.env.first + symm_cuda_g.env.count; pe++)
        SYMM_CU_CHECK(call, symm_cu.cuMemUnmap(
                                (CUdeviceptr)(symm_cuda_g.win + (size_t)pe * symm_cuda_g.stride +
                                              off),
                                len));
}

/* ---- Copies -------------------------------------------------------------------------------- */
symm_status_t symm_cuda_copy(void *dest, const void *src, size_t n, int pe, symm_rma_op_t op)
{
    const int put = symm_rma_is_put(op);
    const char *sym = put ? dest : src;
    const char *call = put ? "a host put to the device heap" : "a host get from the device heap";
    char *peer;

    if (!symm_cuda_local(sym, n))
        return SYMM_ERR_INVALID;
    if (n == 0)
        return SYMM_OK;
    peer = symm_cuda_xlate(sym, pe);
    symm_cuda_bind(call);
    SYMM_CU_CHECK(call, symm_cu.cuMemcpyAsync((CUdeviceptr)(put ? peer : dest),
                                              (CUdeviceptr)(put ? src : peer), n,
                                              symm_cuda_g.copy));
    symm_cuda_g.queued = 1;
    if (symm_rma_mode(op) == SYMM_TL_WAIT)
        symm_cuda_quiet();
    return SYMM_OK;
}

void symm_cuda_quiet(void)
{
    if (!symm_cuda_g.queued)
        return;
    symm_cuda_bind("shmem_quiet");
    SYMM_CU_CHECK("shmem_quiet", symm_cu.cuStreamSynchronize(symm_cuda_g.copy));
    symm_cuda_g.queued = 0;
}
