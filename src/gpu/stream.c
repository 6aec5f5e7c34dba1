/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Operations on a CUDA stream: the host checks the arguments (always), then enqueues one
 * launch of a library kernel (kernels.cu) or one copy. Small puts and gets are a kernel of
 * stores or loads through the window; from 64 KiB on, the copy engines (cuMemcpyAsync to the
 * peer's window address) move the data faster than SMs. Collectives pick their protocol and
 * grid from the byte count alone, so every PE makes the same choice.
 */
#include <stdio.h>
#include <string.h>

#include "gpu/gpu_int.h"

#define COPY_ENGINE_MIN (64u << 10)
/* Collectives: bytes a channel (block) of the large protocol moves, at least. */
#define CHANNEL_BYTES (256u << 10)

/* [addr, addr + n) must lie in this PE's device heap. */
static void check_dev(const char *call, const char *what, const void *addr, size_t n)
{
    if (!symm_cuda_local(addr, n))
        symm_fatal("%s(%s=%p, bytes=%zu): [%p, %p) is not in the device heap (%p..%p)", call, what,
                   addr, n, addr, (const void *)((const char *)addr + n),
                   (void *)symm_cuda_g.base, (void *)(symm_cuda_g.base + symm_cuda_g.backed));
}

static void check_pe(const char *call, const void *addr, int pe)
{
    if ((unsigned)pe >= (unsigned)symm_g.n_pes)
        symm_fatal("%s(addr=%p, pe=%d): pe %d is out of range (the job has %d PEs, 0..%d)", call,
                   addr, pe, pe, symm_g.n_pes, symm_g.n_pes - 1);
}

static void check_signal(const char *call, const uint64_t *sig_addr, int sig_op)
{
    if ((uintptr_t)sig_addr & 7)
        symm_fatal("%s(sig_addr=%p): signal address is not 8-byte aligned", call,
                   (const void *)sig_addr);
    check_dev(call, "sig_addr", sig_addr, 8);
    if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD)
        symm_fatal("%s(sig_addr=%p, sig_op=%d): unknown signal operation (SHMEM_SIGNAL_SET %d, "
                   "SHMEM_SIGNAL_ADD %d)", call, (const void *)sig_addr, sig_op,
                   SHMEM_SIGNAL_SET, SHMEM_SIGNAL_ADD);
}

/* The device's view of team t. */
static symm_dev_tv_t team_view(const symm_team_t *t)
{
    return (symm_dev_tv_t){.slot = t->slot, .start = t->start, .stride = t->stride,
                           .size = t->size, .me = t->me};
}

/* ---- RMA ------------------------------------------------------------------------------------ */
static void rma(const char *call, void *dest, const void *source, size_t n, int pe, int put,
                CUstream s)
{
    const void *sym = put ? dest : source;
    char *peer;

    symm_gpu_need(call);
    check_pe(call, sym, pe);
    check_dev(call, put ? "dest" : "source", sym, n);
    if (n == 0)
        return;
    peer = symm_cuda_xlate(sym, pe);
    if (n >= COPY_ENGINE_MIN) {
        SYMM_CU_CHECK(call, symm_cu.cuMemcpyAsync((CUdeviceptr)(put ? peer : dest),
                                                  (CUdeviceptr)(put ? source : peer), n, s));
        return;
    }
    void *d = put ? peer : dest;
    const void *src = put ? source : peer;
    void *args[] = {&d, &src, &n};
    symm_cuda_launch(call, put ? symm_cuda_g.k_put : symm_cuda_g.k_get, 1, 512, s, args);
}

SYMM_EXPORT void shmemx_putmem_on_stream(void *dest, const void *source, size_t nelems, int pe,
                                         struct CUstream_st *stream)
{
    rma("shmemx_putmem_on_stream", dest, source, nelems, pe, 1, stream);
}

SYMM_EXPORT void shmemx_getmem_on_stream(void *dest, const void *source, size_t nelems, int pe,
                                         struct CUstream_st *stream)
{
    rma("shmemx_getmem_on_stream", dest, source, nelems, pe, 0, stream);
}

/* Data (kernel stores, or a copy-engine copy that the stream completes before the next
 * work), then the signal in one kernel. */
static void put_signal(const char *call, void *dest, const void *source, size_t n,
                       uint64_t *sig_addr, uint64_t signal, int sig_op, int pe, CUstream s)
{
    char *peer = NULL, *sig;
    unsigned long long value = signal;

    symm_gpu_need(call);
    check_pe(call, sig_addr, pe);
    check_signal(call, sig_addr, sig_op);
    if (dest) {
        check_dev(call, "dest", dest, n);
        peer = symm_cuda_xlate(dest, pe);
    }
    if (n >= COPY_ENGINE_MIN) {
        SYMM_CU_CHECK(call, symm_cu.cuMemcpyAsync((CUdeviceptr)peer, (CUdeviceptr)source, n, s));
        n = 0;
    }
    sig = symm_cuda_xlate(sig_addr, pe);
    void *args[] = {&peer, &source, &n, &sig, &value, &sig_op};
    symm_cuda_launch(call, symm_cuda_g.k_put_signal, 1, n ? 512 : 32, s, args);
}

SYMM_EXPORT void shmemx_putmem_signal_on_stream(void *dest, const void *source, size_t nelems,
                                                uint64_t *sig_addr, uint64_t signal, int sig_op,
                                                int pe, struct CUstream_st *stream)
{
    put_signal("shmemx_putmem_signal_on_stream", dest, source, nelems, sig_addr, signal, sig_op,
               pe, stream);
}

SYMM_EXPORT void shmemx_signal_op_on_stream(uint64_t *sig_addr, uint64_t signal, int sig_op,
                                            int pe, struct CUstream_st *stream)
{
    put_signal("shmemx_signal_op_on_stream", NULL, NULL, 0, sig_addr, signal, sig_op, pe, stream);
}

SYMM_EXPORT void shmemx_signal_wait_until_on_stream(uint64_t *sig_addr, int cmp,
                                                    uint64_t cmp_value,
                                                    struct CUstream_st *stream)
{
    const char *call = "shmemx_signal_wait_until_on_stream";
    unsigned long long value = cmp_value;

    symm_gpu_need(call);
    if ((uintptr_t)sig_addr & 7)
        symm_fatal("%s(sig_addr=%p): signal address is not 8-byte aligned", call,
                   (void *)sig_addr);
    check_dev(call, "sig_addr", sig_addr, 8);
    if (cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_LE)
        symm_fatal("%s(sig_addr=%p, cmp=%d): unknown comparison (SHMEM_CMP_EQ..SHMEM_CMP_LE)",
                   call, (void *)sig_addr, cmp);
    void *args[] = {&sig_addr, &cmp, &value};
    symm_cuda_launch(call, symm_cuda_g.k_signal_wait, 1, 32, stream, args);
}

SYMM_EXPORT void shmemx_quiet_on_stream(struct CUstream_st *stream)
{
    /* Every put enqueued before on the stream is complete when its kernel or copy finishes,
     * which is before anything later on the stream starts. */
    symm_gpu_need("shmemx_quiet_on_stream");
}

static void barrier(const char *call, shmem_team_t team, int quiet, CUstream s)
{
    symm_check_init(call);
    symm_gpu_start(call);
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

SYMM_EXPORT void shmemx_barrier_on_stream(shmem_team_t team, struct CUstream_st *stream)
{
    barrier("shmemx_barrier_on_stream", team, 1, stream);
}

SYMM_EXPORT void shmemx_team_sync_on_stream(shmem_team_t team, struct CUstream_st *stream)
{
    barrier("shmemx_team_sync_on_stream", team, 0, stream);
}

/* ---- Collectives ------------------------------------------------------------------------------
 * The world (SHMEM_TEAM_WORLD, or SHMEM_TEAM_SHARED: the same PEs): small data (every PE's part
 * fits the LL buffer, as symm_dev_ll_fits decides on the device) takes the LL protocol, its
 * epoch counted here (every PE enqueues the same collectives in the same order), one block of
 * LL_THREADS per LL_PAIRS pairs so that more SMs push at once; large data one channel (block)
 * per CHANNEL_BYTES received, at most SYMM_DEV_CHANNELS. A split team: small data (as the
 * team's LL buffer takes it) in one block of 1024 threads running the team's block-scope
 * collective (in sequence with the team's collectives in kernels); large data over the team's
 * channels, two at least and at most SYMM_DEV_TEAM_CHANNELS. */
#define LL_THREADS 256
#define LL_PAIRS 512

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
    if (t != &symm_team_world && t != &symm_team_shared) {
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
                                .ll = ++symm_gpu_g.ll_epoch,
                                .tv = world};
    }
    g = received / CHANNEL_BYTES;
    return (launch_shape_t){.grid = g < 1 ? 1 : g > SYMM_DEV_CHANNELS ? SYMM_DEV_CHANNELS
                                                                       : (unsigned)g,
                            .block = 1024,
                            .ll = 0,
                            .tv = world};
}

/* a * b bytes, or a fatal error naming the call when that overflows. */
static size_t bytes_of(const char *call, size_t a, size_t b)
{
    size_t r;

    if (__builtin_mul_overflow(a, b, &r))
        symm_fatal("%s(nelems=%zu): %zu times %zu bytes overflow the address space", call, a, a,
                   b);
    return r;
}

static symm_team_t *start_coll(const char *call, shmem_team_t team)
{
    symm_check_init(call);
    symm_gpu_start(call);
    return symm_team_get(team, call);
}

/* alltoall (src_parts: the team's size) and fcollect (1). */
static int exchange(const char *call, shmem_team_t team, CUfunction f, void *dest,
                    const void *source, size_t nbytes, int alltoall, CUstream s)
{
    const symm_team_t *t = start_coll(call, team);
    size_t recv = bytes_of(call, nbytes, (size_t)t->size);
    launch_shape_t sh;

    check_dev(call, "dest", dest, recv);
    check_dev(call, "source", source, alltoall ? recv : nbytes);
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
    check_dev(call, "dest", dest, nelems);
    check_dev(call, "source", source, nelems);
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

/* Reductions: kernel symm_k_reduce_KIND_OP, looked up on first use. A row of the type table
 * with device forms reduces as the kind (SYMM_GPU_KINDS) of its size, signedness and class. */
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
static const char *const kind_names[SYMM_GPU_NKINDS] = {SYMM_GPU_KINDS(KIND_NAME, _)};
static const elem_t row_elems[SYMM_TYPE_COUNT] = {SYMM_TYPE_TABLE(ROW_ELEM, _)};
static const char *const op_names[SYMM_OP_COUNT] = {SYMM_OPS(OP_NAME, _, _)};

/* The kind of a row, or -1 for a row without device forms. */
static int kind_of(symm_type_t type)
{
    const elem_t *e = &row_elems[type];

    for (int k = 0; k < SYMM_GPU_NKINDS && e->size; k++)
        if (kind_elems[k].size == e->size && kind_elems[k].is_signed == e->is_signed &&
            kind_elems[k].is_float == e->is_float)
            return k;
    return -1;
}

static int reduce(const char *call, shmem_team_t team, void *dest, const void *source,
                  size_t nreduce, symm_type_t type, symm_op_t op, CUstream s)
{
    const symm_team_t *t = start_coll(call, team);
    size_t nbytes = bytes_of(call, nreduce, symm_type_size[type]);
    size_t recv = bytes_of(call, nbytes, (size_t)t->size);
    int kind = kind_of(type);
    CUfunction *f;

    if (kind < 0)
        symm_fatal("%s(dest=%p, source=%p): this type has no reduction on the GPU: device-heap "
                   "buffers take the reductions of integers, float and double", call, dest,
                   source);
    check_dev(call, "dest", dest, nbytes);
    check_dev(call, "source", source, nbytes);
    f = &symm_gpu_g.k_reduce[kind][op];
    if (!*f) {
        char name[64];
        snprintf(name, sizeof(name), "symm_k_reduce_%s_%s", kind_names[kind], op_names[op]);
        SYMM_CU_CHECK(call, symm_cu.cuModuleGetFunction(f, symm_cuda_g.module, name));
    }
    launch_shape_t sh = shape(t, nbytes, recv);
    void *args[] = {&dest, &source, &nreduce, &sh.ll, &sh.tv};
    symm_cuda_launch(call, *f, sh.grid, sh.block, s, args);
    return 0;
}

#define REDUCE_ON_STREAM(NAME, T, OP)                                                            \
    SYMM_EXPORT int shmemx_##NAME##_##OP##_reduce_on_stream(                                    \
        shmem_team_t team, T *dest, const T *source, size_t nreduce, struct CUstream_st *stream) \
    {                                                                                           \
        return reduce("shmemx_" #NAME "_" #OP "_reduce_on_stream", team, dest, source, nreduce, \
                      SYMM_TYPE_##NAME, SYMM_OP_##OP, stream);                                  \
    }
#define REDUCE_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN, BGEN, SCAN, \
                   TOALL, TOBIT, OLD, DEV)                                                      \
    SYMM_IF_##DEV(SYMM_IF_##BITRED(SYMM_OPS_BITWISE(REDUCE_ON_STREAM, NAME, T))                 \
                  SYMM_IF_##MINMAX(SYMM_OPS_MINMAX(REDUCE_ON_STREAM, NAME, T))                  \
                  SYMM_IF_##SUMPROD(SYMM_OPS_SUMPROD(REDUCE_ON_STREAM, NAME, T)))
SYMM_TYPE_TABLE(REDUCE_ROW, _)

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
    symm_gpu_start(call);
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
