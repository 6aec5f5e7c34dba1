/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Barriers and collectives on a CUDA stream, and host collectives on device-heap buffers: the
 * host checks the arguments (always), then enqueues one launch of a library kernel
 * (tl/cuda/kernels_sync.cu, kernels_coll.cu, kernels_reduce.cu). Collectives pick their
 * protocol and grid from the byte count alone, so every PE makes the same choice. RMA and
 * signals on a stream are api/stream.c's.
 */
#include <stdio.h>

#include "coll/coll.h"
#include "coll/gpu_coll.h"
#include "coll/devheap.h"
#include <shmemx_gpu.h>

/* Collectives: bytes a channel (block) of the large protocol moves, at least. */
#define CHANNEL_BYTES (256u << 10)

/* The device's view of team t. */
static symm_dev_tv_t team_view(const symm_team_t *t)
{
    return (symm_dev_tv_t){.slot = t->slot, .start = t->start, .stride = t->stride,
                           .size = t->size, .me = t->me};
}

/* ---- Barriers ------------------------------------------------------------------------------- */
static void barrier(const char *call, shmem_team_t team, int quiet, CUstream s)
{
    symm_check_init(call);
    symm_devheap_start(call);
    symm_dev_tv_t tv = team_view(symm_team_get(team, call));
    void *args[] = {&quiet, &tv};
    symm_cuda_launch(call, symm_cuda_g.k_barrier, 1, 32, s, args);
}

SYMM_EXPORT void shmemx_barrier_all_on_stream(struct CUstream_st *stream)
{
    barrier("shmemx_barrier_all_on_stream", SHMEM_TEAM_WORLD, 1, stream);
}

SYMM_EXPORT void shmemx_sync_all_on_stream(struct CUstream_st *stream)
{
    barrier("shmemx_sync_all_on_stream", SHMEM_TEAM_WORLD, 0, stream);
}

SYMM_EXPORT int shmemx_barrier_on_stream(shmem_team_t team, struct CUstream_st *stream)
{
    barrier("shmemx_barrier_on_stream", team, 1, stream);
    return 0;
}

SYMM_EXPORT int shmemx_team_sync_on_stream(shmem_team_t team, struct CUstream_st *stream)
{
    barrier("shmemx_team_sync_on_stream", team, 0, stream);
    return 0;
}

/* ---- Collectives ------------------------------------------------------------------------------
 * The world (SHMEM_TEAM_WORLD, or SHMEM_TEAM_SHARED on one node): small data (every PE's part
 * fits the LL buffer, as symm_dev_ll_fits decides on the device) takes the LL protocol, its
 * epoch counted here (every PE enqueues the same collectives in the same order), one block of
 * LL_THREADS per LL_PAIRS pairs so that more SMs push at once; large data one channel (block)
 * per CHANNEL_BYTES received, at most SYMM_DEV_CHANNELS. A split team: small data (as the
 * team's LL buffer takes it) in one block of 1024 threads running the team's block-scope
 * collective (in sequence with the team's collectives in kernels); large data over the team's
 * channels, two at least and at most SYMM_DEV_TEAM_CHANNELS. A team with members on other
 * nodes (the world of a job that spans nodes): one block, which moves the data as puts (the
 * proxy's for those members) between team barriers (symm/impl/coll.cuh). */
#define LL_THREADS 256
#define LL_PAIRS 512

static unsigned long long ll_epoch; /* small collectives enqueued on streams so far */

typedef struct launch_shape {
    unsigned grid;
    unsigned block;
    unsigned long long ll; /* the kernel's `ll` argument */
    symm_dev_tv_t tv;      /* the kernel's `tv` argument */
} launch_shape_t;

static launch_shape_t shape(const symm_team_t *t, size_t part, size_t received)
{
    size_t words = (part + 3) / 4, pairs, g;
    const symm_dev_tv_t world = {.slot = 0, .start = 0, .stride = 1, .size = symm_g.n_pes,
                                 .me = symm_g.my_pe};

    words = words < 2 ? 2 : (words + 1) & ~(size_t)1;
    if (t->net) /* a member on another node */
        return (launch_shape_t){.grid = 1, .block = 1024, .ll = 0, .tv = team_view(t)};
    if ((t != &symm_team_world && t != &symm_team_shared) || t->size != symm_g.n_pes) {
        g = 1;
        if ((size_t)t->size * words * 8 > SYMM_DEV_TEAM_SCRATCH / 2) {
            g = received / CHANNEL_BYTES;
            g = g < 2 ? 2 : g > SYMM_DEV_TEAM_CHANNELS ? SYMM_DEV_TEAM_CHANNELS : g;
        }
        return (launch_shape_t){.grid = (unsigned)g, .block = 1024, .ll = 0, .tv = team_view(t)};
    }
    pairs = words / 2 * symm_g.n_pes;
    if ((size_t)symm_g.n_pes * words * 8 <= SYMM_DEV_SCRATCH / 2) {
        g = (pairs + LL_PAIRS - 1) / LL_PAIRS;
        return (launch_shape_t){.grid = g > SYMM_DEV_CHANNELS ? SYMM_DEV_CHANNELS : (unsigned)g,
                                .block = LL_THREADS,
                                .ll = ++ll_epoch,
                                .tv = world};
    }
    g = received / CHANNEL_BYTES;
    return (launch_shape_t){.grid = g < 1 ? 1 : g > SYMM_DEV_CHANNELS ? SYMM_DEV_CHANNELS
                                                                       : (unsigned)g,
                            .block = 1024,
                            .ll = 0,
                            .tv = world};
}

static symm_team_t *start_coll(const char *call, shmem_team_t team)
{
    symm_check_init(call);
    symm_devheap_start(call);
    return symm_team_get(team, call);
}

/* alltoall (src_parts: the team's size) and fcollect (1). */
static int exchange(const char *call, shmem_team_t team, CUfunction f, void *dest,
                    const void *source, size_t nbytes, int alltoall, CUstream s)
{
    const symm_team_t *t = start_coll(call, team);
    size_t recv = symm_coll_bytes(call, nbytes, (size_t)t->size);
    launch_shape_t sh;

    symm_devheap_check(call, "dest", dest, recv);
    symm_devheap_check(call, "source", source, alltoall ? recv : nbytes);
    sh = shape(t, nbytes, recv);
    void *args[] = {&dest, &source, &nbytes, &sh.ll, &sh.tv};
    symm_cuda_launch(call, f, sh.grid, sh.block, s, args);
    return 0;
}

SYMM_EXPORT int shmemx_alltoallmem_on_stream(shmem_team_t team, void *dest, const void *source,
                                             size_t nelems, struct CUstream_st *stream)
{
    return exchange("shmemx_alltoallmem_on_stream", team, symm_cuda_g.k_alltoall, dest, source,
                    nelems, 1, stream);
}

SYMM_EXPORT int shmemx_fcollectmem_on_stream(shmem_team_t team, void *dest, const void *source,
                                             size_t nelems, struct CUstream_st *stream)
{
    return exchange("shmemx_fcollectmem_on_stream", team, symm_cuda_g.k_fcollect, dest, source,
                    nelems, 0, stream);
}

static int bcast(const char *call, shmem_team_t team, void *dest, const void *source,
                 size_t nelems, int PE_root, CUstream stream)
{
    const symm_team_t *t = start_coll(call, team);

    if ((unsigned)PE_root >= (unsigned)t->size)
        symm_fatal("%s(PE_root=%d): the root is out of range (the team has %d PEs, 0..%d)", call,
                   PE_root, t->size, t->size - 1);
    symm_devheap_check(call, "dest", dest, nelems);
    symm_devheap_check(call, "source", source, nelems);
    launch_shape_t sh = shape(t, nelems, nelems);
    void *args[] = {&dest, &source, &nelems, &PE_root, &sh.ll, &sh.tv};
    symm_cuda_launch(call, symm_cuda_g.k_broadcast, sh.grid, sh.block, stream, args);
    return 0;
}

SYMM_EXPORT int shmemx_broadcastmem_on_stream(shmem_team_t team, void *dest, const void *source,
                                              size_t nelems, int PE_root,
                                              struct CUstream_st *stream)
{
    return bcast("shmemx_broadcastmem_on_stream", team, dest, source, nelems, PE_root, stream);
}

/* Reductions and reduce-scatters: kernels symm_k_reduce_KIND_OP and symm_k_rscatter_KIND_OP,
 * looked up on first use. A row of the type table with device forms reduces as the kind
 * (SYMM_GPU_KINDS) of its size, signedness and class. */
#define SYMM_GPU_KIND_ID(A, KIND, T, BIT) SYMM_GPU_KIND_##KIND,
enum { SYMM_GPU_KINDS(SYMM_GPU_KIND_ID, _) SYMM_GPU_KINDS_NV(SYMM_GPU_KIND_ID, _) SYMM_GPU_NKINDS };

typedef struct elem {
    size_t size;
    int is_signed, is_float;
} elem_t;
#define ELEM(T) {sizeof(T), !((T)0 < (T)-1), (T)0.5 != (T)0}
#define KIND_ELEM(A, KIND, T, BIT) [SYMM_GPU_KIND_##KIND] = ELEM(T),
#define KIND_NAME(A, KIND, T, BIT) [SYMM_GPU_KIND_##KIND] = #KIND,
#define ROW_ELEM(_, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN, BGEN, SCAN,  \
                 TOALL, TOBIT, OLD, DEV)                                                        \
    SYMM_IF_##DEV([SYMM_TYPE_##NAME] = ELEM(T), )
#define OP_NAME(A, B, OP) [SYMM_OP_##OP] = #OP,
static const elem_t kind_elems[SYMM_GPU_NKINDS] = {SYMM_GPU_KINDS(KIND_ELEM, _)};
static const char *const kind_names[SYMM_GPU_NKINDS] = {SYMM_GPU_KINDS(KIND_NAME, _)
                                                            SYMM_GPU_KINDS_NV(KIND_NAME, _)};
static const elem_t row_elems[SYMM_TYPE_COUNT] = {SYMM_TYPE_TABLE(ROW_ELEM, _)};
static const char *const op_names[SYMM_OP_COUNT] = {SYMM_OPS(OP_NAME, _, _)};
static CUfunction k_reduce[SYMM_GPU_NKINDS][SYMM_OP_COUNT];
static CUfunction k_rscatter[SYMM_GPU_NKINDS][SYMM_OP_COUNT];

/* The kind of a row, or -1 for a row without device forms. NVSHMEM's rows (half, bfloat16)
 * have the kinds of SYMM_GPU_KINDS_NV, in the same order. */
static int kind_of(symm_type_t type)
{
    const elem_t *e = &row_elems[type];

    if (type >= SYMM_TYPE_half) /* the first of SYMM_TYPE_TABLE_NV */
        return SYMM_GPU_KIND_f16 + (int)(type - SYMM_TYPE_half);

    for (int k = 0; k < SYMM_GPU_NKINDS && e->size; k++)
        if (kind_elems[k].size == e->size && kind_elems[k].is_signed == e->is_signed &&
            kind_elems[k].is_float == e->is_float)
            return k;
    return -1;
}

/* Kernel symm_k_STEM_KIND_OP of row `type`, looked up in the library's modules on first use
 * (cache: one per kind and operator). */
static CUfunction kernel_of(const char *call, CUfunction cache[][SYMM_OP_COUNT],
                            const char *stem, symm_type_t type, symm_op_t op, const void *dest,
                            const void *source)
{
    int kind = kind_of(type);
    CUfunction *f;

    if (kind < 0)
        symm_fatal("%s(dest=%p, source=%p): this type has no reduction on the GPU: device-heap "
                   "buffers take the reductions of integers, float and double", call, dest,
                   source);
    f = &cache[kind][op];
    if (!*f) {
        char name[64];
        snprintf(name, sizeof(name), "symm_k_%s_%s_%s", stem, kind_names[kind], op_names[op]);
        *f = symm_cuda_kernel(call, name);
    }
    return *f;
}

static int reduce(const char *call, shmem_team_t team, void *dest, const void *source,
                  size_t nreduce, symm_type_t type, symm_op_t op, CUstream s)
{
    const symm_team_t *t = start_coll(call, team);
    size_t nbytes = symm_coll_bytes(call, nreduce, symm_type_size[type]);
    size_t recv = symm_coll_bytes(call, nbytes, (size_t)t->size);
    CUfunction f = kernel_of(call, k_reduce, "reduce", type, op, dest, source);

    symm_devheap_check(call, "dest", dest, nbytes);
    symm_devheap_check(call, "source", source, nbytes);
    launch_shape_t sh = shape(t, nbytes, recv);
    void *args[] = {&dest, &source, &nreduce, &sh.ll, &sh.tv};
    symm_cuda_launch(call, f, sh.grid, sh.block, s, args);
    return 0;
}

/* Reduce-scatter: a team barrier (every member's source complete), then each PE's kernel
 * reads its block from every member through the window and combines them in team order, then
 * a barrier that keeps the sources unchanged until every member has read. A team that spans
 * nodes: one block of the kernel runs the device reduce-scatter, barriers included. */
static int rscatter(const char *call, shmem_team_t team, void *dest, const void *source,
                    size_t nreduce, symm_type_t type, symm_op_t op, CUstream s)
{
    const symm_team_t *t = start_coll(call, team);
    size_t nbytes = symm_coll_bytes(call, nreduce, symm_type_size[type]);
    size_t all = symm_coll_bytes(call, nbytes, (size_t)t->size);
    CUfunction f = kernel_of(call, k_rscatter, "rscatter", type, op, dest, source);
    symm_dev_tv_t tv = team_view(t);
    unsigned grid = (unsigned)((nreduce + 1023) / 1024);
    int quiet = 1;

    symm_devheap_check(call, "dest", dest, nbytes);
    symm_devheap_check(call, "source", source, all);
    if ((const char *)dest < (const char *)source + all &&
        (const char *)source < (const char *)dest + nbytes)
        symm_fatal("%s(dest=%p, source=%p, nreduce=%zu): dest overlaps source", call, dest,
                   source, nreduce);
    void *bargs[] = {&quiet, &tv};
    if (t->net) {
        void *args[] = {&dest, &source, &nreduce, &tv};
        symm_cuda_launch(call, f, 1, 1024, s, args);
        return 0;
    }
    symm_cuda_launch(call, symm_cuda_g.k_barrier, 1, 32, s, bargs);
    if (nreduce) {
        void *args[] = {&dest, &source, &nreduce, &tv};
        symm_cuda_launch(call, f, grid < 132 ? grid : 132, 1024, s, args);
    }
    symm_cuda_launch(call, symm_cuda_g.k_barrier, 1, 32, s, bargs);
    return 0;
}

/* The typed collectives, reductions and reduce-scatters (NVSHMEM's half and bfloat16 on 16-bit
 * words), written by cmake/gen_api.c. */
#include "coll/gen/typed_coll_stream.c"

/* ---- Host collectives on device-heap buffers ------------------------------------------------ */
int symm_gpu_holds(const void *addr)
{
    return symm_cuda_local(addr, 1) != NULL;
}

/* A host collective is ordered after all of this PE's earlier GPU work, as a host call of the
 * program is: kernels that write its source, and collectives enqueued on the program's
 * streams, whose small-protocol epochs come before this call's. */
static void host_order(const char *call)
{
    symm_devheap_start(call);
    SYMM_CU_CHECK(call, symm_cu.cuCtxSynchronize());
}

/* The call's kernels done (host_order bound the device to this thread). */
static void host_wait(const char *call)
{
    SYMM_CU_CHECK(call, symm_cu.cuStreamSynchronize(symm_cuda_g.copy));
}

void symm_gpu_host_coll(const char *call, int what, void *team, void *dest, const void *source,
                        size_t nbytes, int root)
{
    shmem_team_t t = (shmem_team_t)team;
    int a2a = what == SYMM_GPU_ALLTOALL;

    host_order(call);
    if (what == SYMM_GPU_BCAST)
        bcast(call, t, dest, source, nbytes, root, symm_cuda_g.copy);
    else
        exchange(call, t, a2a ? symm_cuda_g.k_alltoall : symm_cuda_g.k_fcollect, dest, source,
                 nbytes, a2a, symm_cuda_g.copy);
    host_wait(call);
}

void symm_gpu_host_reduce(const char *call, void *team, void *dest, const void *source,
                          size_t nreduce, int type, int op)
{
    host_order(call);
    reduce(call, (shmem_team_t)team, dest, source, nreduce, type, op, symm_cuda_g.copy);
    host_wait(call);
}

void symm_gpu_host_rscatter(const char *call, void *team, void *dest, const void *source,
                            size_t nreduce, int type, int op)
{
    host_order(call);
    rscatter(call, (shmem_team_t)team, dest, source, nreduce, type, op, symm_cuda_g.copy);
    host_wait(call);
}
