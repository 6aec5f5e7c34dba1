/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The GPU part of a PE: start (settings, device, context, device window, library kernels,
 * device state), the device heap and its collective allocation calls, host RMA on device
 * memory, and the registry of modules that hold a copy of the device state.
 *
 * Device heap. The window is one cuMemAddressReserve of n_pes * stride device addresses;
 * this PE's heap is its slot, and every peer's heap is mapped into the peer's slot (the CUDA
 * transport maps them, tl/cuda/cuda.c). The heap is backed by chunks (cuMemCreate) mapped
 * into the own slot and shared with every PE. Allocation is
 * deterministic (the same offsets on every PE), so every PE grows its heap in the same call
 * by the same chunk: the chunk is created before the allocation's agreement barrier (a PE
 * whose GPU is short of memory makes the call fail on every PE) and shared after it.
 * Chunks grow the heap by at least a quarter of its backed size, which keeps their number
 * logarithmic, and are not given back before finalize.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu/gpu_int.h"

symm_gpu_t symm_gpu_g = {.mode = -1};

#define MAX_MODULES 256
static struct {
    const char *(*set_state)(const void *state, size_t len);
} modules[MAX_MODULES];
static int nmodules;
static int bad_abi; /* a module compiled against another device state layout */

static size_t round_up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

/* ---- Errors ------------------------------------------------------------------------------ */
SYMM_EXPORT void shmemx_gpu_fail(const char *call, const char *what)
{
    char dev[400];

    if (symm_cuda_report(dev, sizeof(dev)))
        symm_fatal("%s (seen by %s: %s)", dev, call, what);
    symm_fatal("%s: %s", call, what);
}

/* ---- Settings ------------------------------------------------------------------------------
 * SYMM_GPU, SYMM_GPU_DEVICE, SYMM_DEVICE_HEAP_SIZE. */
static void load_params(const char *call)
{
    static int loaded;
    const char *mode = symm_g.params.gpu;
    int on;

    if (loaded)
        return;
    loaded = 1;
    symm_gpu_g.mode = -1;
    if (mode && *mode && strcmp(mode, "auto") != 0) {
        if (symm_parse_bool(mode, &on) != SYMM_OK)
            symm_fatal("%s: SYMM_GPU='%s' is not auto, 0 or 1", call, mode);
        symm_gpu_g.mode = on;
    }
    symm_gpu_g.heap_size = symm_g.params.device_heap_size;
    symm_gpu_g.device_list = symm_g.params.gpu_device;
    if (symm_gpu_g.device_list && !*symm_gpu_g.device_list)
        symm_gpu_g.device_list = NULL;
}

/* This PE's rank among the PEs of its host, whose GPUs they share: symmrun says it
 * (SYMM_LOCAL_RANK, per virtual node), else the bootstrap's hosts tell, whatever started the
 * job (mpirun, srun, a unique id, an MPI communicator that is a part of the world). */
static int local_rank(int *local_size)
{
    const char *r = getenv("SYMM_LOCAL_RANK"), *s = getenv("SYMM_LOCAL_SIZE");
    const int *host = symm_g.boot->host;
    int rank = 0, size = 0;

    if (r && *r) {
        *local_size = s && *s ? atoi(s) : symm_g.n_pes;
        return atoi(r);
    }
    for (int pe = 0; pe < symm_g.n_pes; pe++)
        if (!host || host[pe] == host[symm_g.my_pe]) {
            rank += pe < symm_g.my_pe;
            size++;
        }
    *local_size = size;
    return rank;
}

/* The device the program made current before symm started (cudaSetDevice), or -1. */
static int chosen_device(int count)
{
    CUcontext c = NULL;
    CUdevice d, di;

    if (symm_gpu_g.device_list || symm_cu.cuCtxGetCurrent(&c) != CUDA_SUCCESS || !c ||
        symm_cu.cuCtxGetDevice(&d) != CUDA_SUCCESS)
        return -1;
    for (int i = 0; i < count; i++)
        if (symm_cu.cuDeviceGet(&di, i) == CUDA_SUCCESS && di == d)
            return i;
    return -1;
}

/* The CUDA device index this PE takes among `count` visible ones. */
static int pick_device(const char *call, int count)
{
    const char *visible = getenv("CUDA_VISIBLE_DEVICES");
    int lsize, lrank = local_rank(&lsize), ordinal = lrank;

    if (!visible)
        visible = "(not set)";
    if (count == 0)
        symm_fatal("%s: this PE needs a GPU and sees none (CUDA_VISIBLE_DEVICES=%s)", call,
                   visible);
    if (symm_gpu_g.device_list) {
        const char *p = symm_gpu_g.device_list;
        char *end;
        long v = -1;
        int i = 0;

        for (;; i++) {
            errno = 0;
            v = strtol(p, &end, 10);
            if (end == p || errno || v < 0 || (*end != ',' && *end != '\0'))
                symm_fatal("%s: SYMM_GPU_DEVICE='%s' is not a device index or a comma-separated "
                           "list of them", call, symm_gpu_g.device_list);
            if (i == lrank || *end == '\0')
                break;
            p = end + 1;
        }
        if (i != lrank && strchr(symm_gpu_g.device_list, ','))
            symm_fatal("%s: SYMM_GPU_DEVICE='%s' names %d devices, but this PE is rank %d on its "
                       "node", call, symm_gpu_g.device_list, i + 1, lrank);
        ordinal = (int)v;
        if (ordinal >= count)
            symm_fatal("%s: SYMM_GPU_DEVICE='%s' asks for device %d, but this PE sees %d GPUs "
                       "(CUDA_VISIBLE_DEVICES=%s)", call, symm_gpu_g.device_list, ordinal, count,
                       visible);
        return ordinal;
    }
    if (ordinal >= count)
        symm_fatal("%s: %d PEs run on this node and it has %d visible GPUs "
                   "(CUDA_VISIBLE_DEVICES=%s): each PE needs a GPU of its own; run at most %d "
                   "PEs a node, or share GPUs with SYMM_GPU_DEVICE", call, lsize, count, visible,
                   count);
    return ordinal;
}

/* ---- Chunks ---------------------------------------------------------------------------------- */
static void set_access(const char *call, char *at, size_t len)
{
    CUmemAccessDesc acc = {.location = {.type = CU_MEM_LOCATION_TYPE_DEVICE,
                                        .id = symm_cuda_g.dev},
                           .flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE};

    SYMM_CU_CHECK(call, symm_cu.cuMemSetAccess((CUdeviceptr)at, len, &acc, 1));
}

/* Creates [backed, top) of this PE's heap and maps it in the own slot. SYMM_ERR_NOMEM when the
 * GPU has not the memory (nothing changed then); *why says so. */
static symm_status_t grow_local(const char *call, size_t top, char *why, size_t why_len)
{
    CUmemAllocationProp prop = {.type = CU_MEM_ALLOCATION_TYPE_PINNED,
                                .requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
                                .location = {.type = CU_MEM_LOCATION_TYPE_DEVICE,
                                             .id = symm_cuda_g.dev}};
    size_t off = symm_cuda_g.backed, len = top - off;
    CUmemGenericAllocationHandle h;
    CUresult r;

    if (symm_gpu_g.nchunks == symm_gpu_g.chunks_cap) {
        size_t cap = symm_gpu_g.chunks_cap ? 2 * symm_gpu_g.chunks_cap : 16;
        symm_gpu_chunk_t *c = realloc(symm_gpu_g.chunks, cap * sizeof(*c));
        if (!c) {
            snprintf(why, why_len, "out of host memory");
            return SYMM_ERR_NOMEM;
        }
        symm_gpu_g.chunks = c;
        symm_gpu_g.chunks_cap = cap;
    }
    r = symm_cu.cuMemCreate(&h, len, &prop, 0);
    if (r == CUDA_ERROR_OUT_OF_MEMORY) {
        size_t free_b = 0, total = 0;
        symm_cu.cuMemGetInfo(&free_b, &total);
        snprintf(why, why_len, "GPU %d has %zu MiB free, %zu MiB more were needed",
                 symm_cuda_g.ordinal, free_b >> 20, len >> 20);
        return SYMM_ERR_NOMEM;
    }
    SYMM_CU_CHECK(call, r);
    SYMM_CU_CHECK(call, symm_cu.cuMemMap((CUdeviceptr)(symm_cuda_g.base + off), len, 0, h, 0));
    set_access(call, symm_cuda_g.base + off, len);
    symm_gpu_g.chunks[symm_gpu_g.nchunks++] = (symm_gpu_chunk_t){.off = off, .len = len,
                                                                 .handle = h};
    symm_cuda_g.backed = top;
    return SYMM_OK;
}

/* Undoes the last grow_local (an allocation that failed on another PE). */
static void shrink_local(const char *call)
{
    symm_gpu_chunk_t *c = &symm_gpu_g.chunks[--symm_gpu_g.nchunks];

    SYMM_CU_CHECK(call, symm_cu.cuMemUnmap((CUdeviceptr)(symm_cuda_g.base + c->off), c->len));
    SYMM_CU_CHECK(call, symm_cu.cuMemRelease(c->handle));
    symm_cuda_g.backed = c->off;
}

/* Collective: every PE passes its last chunk to every other, which maps it into the owner's
 * slot. */
static void share_last(const char *call)
{
    const symm_gpu_chunk_t *c = &symm_gpu_g.chunks[symm_gpu_g.nchunks - 1];

    symm_cuda_share(call, c->handle, c->off, c->len);
}

/* ---- Teams on the device -------------------------------------------------------------------
 * The teams this PE belongs to, besides the world and shared teams: the host's copy of the
 * table in the internal part (symm_dev_team_t), written to the device whenever it changes.
 * A new team's slot starts from zero on the device (its barrier and collective epochs, flags
 * and scratch): the split that creates it ends with a barrier of the parent, after which
 * members may signal into it; the team that used the slot before has finished its kernels
 * (a team is destroyed only after them). */
_Static_assert(SYMM_DEV_TEAMS == SYMM_TEAM_SLOTS, "a team slot on the host is one on the device");
static symm_dev_team_t dev_teams[SYMM_DEV_TEAM_TABLE];

static void teams_upload(const char *call)
{
    SYMM_CU_CHECK(call, symm_cu.cuMemcpyHtoD((CUdeviceptr)(symm_cuda_g.base +
                                                           offsetof(symm_dev_internal_t, teams)),
                                             dev_teams, sizeof(dev_teams)));
}

/* {offset, bytes} of element `slot` of the internal part's array `field`. */
#define SLOT_SIZE(field) sizeof(((symm_dev_internal_t *)0)->field[0])
#define SLOT_RANGE(field, slot)                                                                  \
    {offsetof(symm_dev_internal_t, field) + (size_t)(slot) * SLOT_SIZE(field), SLOT_SIZE(field)}

static void slot_reset(const char *call, int slot)
{
    const size_t ranges[][2] = {SLOT_RANGE(bar_epoch, slot), SLOT_RANGE(coll_epoch, slot),
                                SLOT_RANGE(bar, slot),       SLOT_RANGE(tready, slot),
                                SLOT_RANGE(tdone, slot),     SLOT_RANGE(team_scratch, slot),
                                SLOT_RANGE(tch_epoch, slot), SLOT_RANGE(tch_ready, slot),
                                SLOT_RANGE(tch_done, slot)};

    for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
        SYMM_CU_CHECK(call, symm_cu.cuMemsetD8Async((CUdeviceptr)(symm_cuda_g.base + ranges[i][0]),
                                                    0, ranges[i][1], symm_cuda_g.copy));
    SYMM_CU_CHECK(call, symm_cu.cuStreamSynchronize(symm_cuda_g.copy));
}

void symm_gpu_team_add(const symm_team_t *t)
{
    const char *call = "shmem_team_split";
    const unsigned long long h = (unsigned long long)(uintptr_t)t;
    unsigned i = SYMM_DEV_TEAM_HASH(h);

    while (dev_teams[i].handle > 1)
        i = (i + 1) & (SYMM_DEV_TEAM_TABLE - 1);
    dev_teams[i] = (symm_dev_team_t){.handle = h, .slot = t->slot, .start = t->start,
                                     .stride = t->stride, .size = t->size, .me = t->me};
    if (!symm_cuda_g.started)
        return;
    symm_cuda_bind(call);
    slot_reset(call, t->slot);
    teams_upload(call);
}

void symm_gpu_team_remove(const symm_team_t *t)
{
    const unsigned long long h = (unsigned long long)(uintptr_t)t;
    unsigned i = SYMM_DEV_TEAM_HASH(h);

    for (int k = 0; k < SYMM_DEV_TEAM_TABLE && dev_teams[i].handle != 0;
         k++, i = (i + 1) & (SYMM_DEV_TEAM_TABLE - 1)) {
        if (dev_teams[i].handle == h) {
            dev_teams[i].handle = 1;
            if (symm_cuda_g.started) {
                symm_cuda_bind("shmem_team_destroy");
                teams_upload("shmem_team_destroy");
            }
            return;
        }
    }
}

/* ---- Start ---------------------------------------------------------------------------------- */
static void publish_state(const char *call)
{
    CUdeviceptr g;
    size_t len;

    SYMM_CU_CHECK(call, symm_cu.cuModuleGetGlobal(&g, &len, symm_cuda_g.module, "symm_dev_c"));
    if (len != sizeof(symm_dev_state_t))
        symm_fatal("%s: the library's kernels were built against another device state", call);
    SYMM_CU_CHECK(call, symm_cu.cuMemcpyHtoD(g, &symm_gpu_g.state, len));
    for (int i = 0; i < nmodules; i++) {
        const char *err = modules[i].set_state(&symm_gpu_g.state, sizeof(symm_gpu_g.state));
        if (err)
            symm_fatal("%s: cannot set the device state of a module of this program: %s", call,
                       err);
    }
}

static void check_device(const char *call)
{
    static const struct {
        CUdevice_attribute attr;
        const char *what;
    } need[] = {
        {CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, "virtual memory management"},
        {CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED,
         "POSIX file descriptor memory handles"},
        {CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, "unified addressing"},
    };
    char name[128] = "?";

    symm_cu.cuDeviceGetName(name, sizeof(name), symm_cuda_g.dev);
    for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
        int v = 0;
        SYMM_CU_CHECK(call, symm_cu.cuDeviceGetAttribute(&v, need[i].attr, symm_cuda_g.dev));
        if (!v)
            symm_fatal("%s: GPU %d (%s) does not support %s", call, symm_cuda_g.ordinal, name,
                       need[i].what);
    }
    SYMM_CU_CHECK(call, symm_cu.cuDeviceGetAttribute(
                            &symm_cuda_g.sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                            symm_cuda_g.dev));
}

/* Every PE must reserve the same heap size. */
static void agree_size(const char *call)
{
    uint64_t mine = symm_gpu_g.heap_size, *all = malloc(sizeof(uint64_t) * symm_g.n_pes);

    if (!all || symm_g.boot->allgather(&mine, sizeof(mine), all) != SYMM_OK)
        symm_fatal("%s: cannot agree on the device heap size with the other PEs", call);
    for (int pe = 0; pe < symm_g.n_pes; pe++)
        if (all[pe] != mine)
            symm_fatal("%s: SYMM_DEVICE_HEAP_SIZE differs across PEs: this PE has %llu bytes, "
                       "pe %d %llu", call, (unsigned long long)mine, pe,
                       (unsigned long long)all[pe]);
    free(all);
}

void symm_gpu_start(const char *call)
{
    CUmemAllocationProp prop = {.type = CU_MEM_ALLOCATION_TYPE_PINNED,
                                .requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
                                .location = {.type = CU_MEM_LOCATION_TYPE_DEVICE}};
    char why[256];
    int count = 0;
    CUdeviceptr win, err_dev;
    void *err_host;

    if (symm_cuda_g.started) {
        symm_cuda_bind(call);
        return;
    }
    symm_check_init(call);
    load_params(call);
    if (symm_gpu_g.mode == 0)
        symm_fatal("%s: the GPU part is off (SYMM_GPU=0)", call);
    if (bad_abi)
        symm_fatal("%s: a module of this program was compiled against another symm device API "
                   "(device state version %d); rebuild it with this symm", call, bad_abi);
    for (int pe = 0; pe < symm_g.n_pes; pe++)
        if (symm_g.reach[pe] != SYMM_REACH_WINDOW)
            symm_fatal("%s: pe %d runs on another node; GPU jobs span one node so far", call, pe);
    if (symm_g.n_pes > SYMM_DEV_MAX_PES)
        symm_fatal("%s: %d PEs; GPU jobs have at most %d PEs so far", call, symm_g.n_pes,
                   SYMM_DEV_MAX_PES);
    if (symm_cu_load(why, sizeof(why)) != SYMM_OK)
        symm_fatal("%s: this PE needs a GPU: %s", call, why);
    symm_cuda_g.env = (symm_cuda_env_t){
        .rank = symm_g.my_pe,
        .size = symm_g.n_pes,
        .first = symm_g.win_first,
        .count = symm_g.win_n,
        .exchange_fds = symm_g.boot->exchange_fds,
        .status_str = symm_status_str,
        .fatal = symm_fatal,
    };
    CUresult r = symm_cu.cuInit(0);
    if (r != CUDA_ERROR_NO_DEVICE) {
        SYMM_CU_CHECK(call, r);
        SYMM_CU_CHECK(call, symm_cu.cuDeviceGetCount(&count));
    }
    /* A GPU the program chose before symm started is this PE's (as NVSHMEM takes it); else
     * SYMM_GPU_DEVICE, else the PE's rank on its host. */
    symm_cuda_g.ordinal = chosen_device(count);
    if (symm_cuda_g.ordinal < 0)
        symm_cuda_g.ordinal = pick_device(call, count);
    SYMM_CU_CHECK(call, symm_cu.cuDeviceGet(&symm_cuda_g.dev, symm_cuda_g.ordinal));
    check_device(call);
    SYMM_CU_CHECK(call, symm_cu.cuDevicePrimaryCtxRetain(&symm_cuda_g.ctx, symm_cuda_g.dev));
    SYMM_CU_CHECK(call, symm_cu.cuCtxSetCurrent(symm_cuda_g.ctx));

    prop.location.id = symm_cuda_g.dev;
    SYMM_CU_CHECK(call, symm_cu.cuMemGetAllocationGranularity(
                            &symm_gpu_g.gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    symm_gpu_g.heap_size = round_up(symm_gpu_g.heap_size < SYMM_DEV_INTERNAL_SIZE + symm_gpu_g.gran
                                        ? SYMM_DEV_INTERNAL_SIZE + symm_gpu_g.gran
                                        : symm_gpu_g.heap_size,
                                    symm_gpu_g.gran);
    agree_size(call);
    symm_cuda_g.stride = symm_gpu_g.heap_size;
    SYMM_CU_CHECK(call, symm_cu.cuMemAddressReserve(&win, (size_t)symm_g.n_pes * symm_cuda_g.stride,
                                                    symm_gpu_g.gran, 0, 0));
    symm_cuda_g.win = (char *)win;
    symm_cuda_g.base = symm_cuda_g.win + (size_t)symm_g.my_pe * symm_cuda_g.stride;
    if (symm_alloc_init(&symm_gpu_g.alloc, SYMM_DEV_INTERNAL_SIZE,
                        symm_gpu_g.heap_size - SYMM_DEV_INTERNAL_SIZE) != SYMM_OK)
        symm_fatal("%s: out of host memory", call);

    /* The internal part: zero before any peer can see it. */
    if (grow_local(call, round_up(SYMM_DEV_INTERNAL_SIZE, symm_gpu_g.gran), why, sizeof(why)) !=
        SYMM_OK)
        symm_fatal("%s: cannot back the device heap's first %u bytes: %s", call,
                   SYMM_DEV_INTERNAL_SIZE, why);
    SYMM_CU_CHECK(call, symm_cu.cuStreamCreate(&symm_cuda_g.copy, CU_STREAM_NON_BLOCKING));
    SYMM_CU_CHECK(call, symm_cu.cuMemsetD8Async((CUdeviceptr)symm_cuda_g.base, 0,
                                                symm_cuda_g.backed, symm_cuda_g.copy));
    SYMM_CU_CHECK(call, symm_cu.cuStreamSynchronize(symm_cuda_g.copy));
    teams_upload(call);
    share_last(call);

    SYMM_CU_CHECK(call,
                  symm_cu.cuMemHostAlloc(&err_host, sizeof(symm_dev_err_t),
                                         CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
    memset(err_host, 0, sizeof(symm_dev_err_t));
    SYMM_CU_CHECK(call, symm_cu.cuMemHostGetDevicePointer(&err_dev, err_host, 0));
    symm_cuda_g.err = err_host;
    symm_cuda_load_kernels(call);

    symm_gpu_g.state = (symm_dev_state_t){
        .win = symm_cuda_g.win,
        .base = symm_cuda_g.base,
        .stride = symm_cuda_g.stride,
        .size = symm_gpu_g.heap_size,
        .err = (symm_dev_err_t *)err_dev,
        .team_world = SHMEM_TEAM_WORLD,
        .team_shared = SHMEM_TEAM_SHARED,
        .my_pe = symm_g.my_pe,
        .n_pes = symm_g.n_pes,
        .abi = SYMM_DEV_ABI,
    };
    symm_cuda_g.started = 1;
    publish_state(call);
    symm_info("%s: GPU %d of %d, device heap of %zu MiB a PE at %p", call, symm_cuda_g.ordinal,
              count, symm_gpu_g.heap_size >> 20, (void *)symm_cuda_g.win);
}

void symm_gpu_need(const char *call)
{
    symm_check_init(call);
    if (!symm_cuda_g.started)
        symm_fatal("%s: the GPU part has not started: allocate device memory "
                   "(shmemx_malloc_device) first, or set SYMM_GPU=1", call);
    symm_cuda_bind(call);
}

/* ---- Hooks of the core -------------------------------------------------------------------- */
symm_status_t symm_gpu_init(void)
{
    load_params("shmem_init");
    if (symm_gpu_g.mode == 1 || (symm_gpu_g.mode == -1 && nmodules > 0))
        symm_gpu_start("shmem_init");
    return SYMM_OK;
}

void symm_gpu_fini(void)
{
    const char *call = "shmem_finalize";

    if (!symm_cuda_g.started || symm_cuda_gone())
        return;
    symm_cuda_bind(call);
    SYMM_CU_CHECK(call, symm_cu.cuCtxSynchronize());
    for (size_t i = symm_gpu_g.nchunks; i-- > 0;) {
        const symm_gpu_chunk_t *c = &symm_gpu_g.chunks[i];
        symm_cuda_unmap(call, c->off, c->len);
        SYMM_CU_CHECK(call, symm_cu.cuMemRelease(c->handle));
    }
    SYMM_CU_CHECK(call, symm_cu.cuMemAddressFree((CUdeviceptr)symm_cuda_g.win,
                                                 (size_t)symm_g.n_pes * symm_cuda_g.stride));
    SYMM_CU_CHECK(call, symm_cu.cuModuleUnload(symm_cuda_g.module));
    SYMM_CU_CHECK(call, symm_cu.cuStreamDestroy(symm_cuda_g.copy));
    SYMM_CU_CHECK(call, symm_cu.cuMemFreeHost(symm_cuda_g.err));
    symm_cuda_g.err = NULL;
    symm_alloc_fini(&symm_gpu_g.alloc);
    free(symm_gpu_g.chunks);
    symm_gpu_g.chunks = NULL;
    symm_gpu_g.nchunks = symm_gpu_g.chunks_cap = 0;
    symm_cuda_g.backed = 0;
    symm_cuda_g.queued = 0;
    symm_cuda_g.started = 0;
    symm_cu.cuDevicePrimaryCtxRelease(symm_cuda_g.dev);
    symm_cuda_g.ordinal = -1;
}

/* Host RMA on the device heap: a copy on the transport's stream. */
symm_status_t symm_gpu_rma(void *dest, const void *src, size_t n, int pe, int put)
{
    symm_status_t st = symm_cuda_copy(dest, src, n, pe, put, 0);

    symm_g.gpu_queued = symm_cuda_g.queued;
    return st;
}

symm_status_t symm_gpu_rma_nbi(void *dest, const void *src, size_t n, int pe, int put)
{
    symm_status_t st = symm_cuda_copy(dest, src, n, pe, put, 1);

    symm_g.gpu_queued = symm_cuda_g.queued;
    return st;
}

void symm_gpu_quiet(void)
{
    symm_cuda_quiet();
    symm_g.gpu_queued = 0;
}

void *symm_gpu_ptr(const void *addr, int pe)
{
    uintptr_t off = (uintptr_t)addr - (uintptr_t)symm_cuda_g.base;

    if (!symm_cuda_g.started || off >= symm_gpu_g.heap_size ||
        (unsigned)pe >= (unsigned)symm_g.n_pes)
        return NULL;
    return symm_cuda_xlate(addr, pe);
}

/* ---- Device heap ---------------------------------------------------------------------------- */
static void *dev_malloc(const char *call, size_t size, size_t align)
{
    size_t off = 0, top, target;
    int64_t result;
    int grown = 0, short_pe;
    char why[256] = "";

    symm_check_init(call);
    symm_gpu_start(call);
    if (align & (align - 1))
        symm_fatal("%s(alignment=%zu, size=%zu): alignment is not a power of two", call, align,
                   size);
    if (size == 0) {
        symm_barrier_world();
        return NULL;
    }
    result = symm_alloc_get(&symm_gpu_g.alloc, size, align, &off) == SYMM_OK ? (int64_t)off : -1;
    if (result < 0)
        snprintf(why, sizeof(why), "SYMM_DEVICE_HEAP_SIZE is %zu bytes, %zu in use",
                 symm_gpu_g.heap_size, symm_gpu_g.alloc.in_use);
    top = off + size;
    if (result >= 0 && top > symm_cuda_g.backed) {
        size_t quarter = symm_cuda_g.backed / 4;
        target = round_up(top, symm_gpu_g.gran);
        if (target < symm_cuda_g.backed + quarter)
            target = round_up(symm_cuda_g.backed + quarter, symm_gpu_g.gran);
        if (target > symm_gpu_g.heap_size)
            target = symm_gpu_g.heap_size;
        if (grow_local(call, target, why, sizeof(why)) == SYMM_OK) {
            grown = 1;
        } else {
            symm_alloc_put(&symm_gpu_g.alloc, off);
            result = -1;
        }
    }
    short_pe = symm_heap_agree(call, size, align, result);
    if (short_pe >= 0) {
        if (grown)
            shrink_local(call);
        if (result >= 0)
            symm_alloc_put(&symm_gpu_g.alloc, off);
        if (short_pe == symm_g.my_pe)
            symm_warn("%s(size=%zu): the device heap of pe %d cannot hold the block (%s); the "
                      "call returns NULL on every PE", call, size, short_pe, why);
        else if (symm_g.params.debug)
            symm_warn("%s(size=%zu): the device heap of pe %d cannot hold the block; the call "
                      "returns NULL on every PE", call, size, short_pe);
        return NULL;
    }
    if (grown)
        share_last(call);
    return symm_cuda_g.base + off;
}

void *symm_gpu_malloc(const char *call, size_t size, size_t align)
{
    return dev_malloc(call, size, align);
}

void symm_gpu_poll(const char *call)
{
    CUresult r;

    if (!symm_cuda_g.started || symm_cuda_gone())
        return;
    if (symm_cuda_g.err && symm_cuda_g.err->set == 1)
        symm_cuda_fail(call, "a device check", CUDA_ERROR_ASSERT);
    symm_cuda_bind(call);
    r = symm_cu.cuStreamQuery(symm_cuda_g.copy);
    if (r != CUDA_SUCCESS && r != CUDA_ERROR_NOT_READY)
        symm_cuda_fail(call, "cuStreamQuery", r);
}

SYMM_EXPORT void *shmemx_malloc_device(size_t size)
{
    return dev_malloc("shmemx_malloc_device", size, 0);
}

SYMM_EXPORT void *shmemx_align_device(size_t alignment, size_t size)
{
    if (alignment == 0)
        symm_fatal("shmemx_align_device(alignment=0, size=%zu): alignment must be a power of two",
                   size);
    return dev_malloc("shmemx_align_device", size, alignment);
}

SYMM_EXPORT void *shmemx_calloc_device(size_t count, size_t size)
{
    const char *call = "shmemx_calloc_device";
    void *p;

    if (size && count > SIZE_MAX / size)
        symm_fatal("%s(count=%zu, size=%zu): the product overflows", call, count, size);
    p = dev_malloc(call, count * size, 0);
    if (p) {
        /* Zero before any peer may write: the barrier inside malloc ran before this. */
        SYMM_CU_CHECK(call, symm_cu.cuMemsetD8Async((CUdeviceptr)p, 0, count * size,
                                                    symm_cuda_g.copy));
        SYMM_CU_CHECK(call, symm_cu.cuStreamSynchronize(symm_cuda_g.copy));
        symm_barrier_world();
    }
    return p;
}

SYMM_EXPORT void shmemx_free_device(void *ptr)
{
    const char *call = "shmemx_free_device";
    uintptr_t off = (uintptr_t)ptr - (uintptr_t)symm_cuda_g.base;

    symm_check_init(call);
    if (ptr != NULL && (!symm_cuda_g.started || off >= symm_gpu_g.heap_size ||
                        symm_alloc_size_of(&symm_gpu_g.alloc, off) == 0))
        symm_fatal("%s(ptr=%p): not a block returned by a device heap allocation", call, ptr);
    if (symm_cuda_g.started) {
        symm_cuda_bind(call);
        SYMM_CU_CHECK(call, symm_cu.cuCtxSynchronize());
    }
    symm_barrier_world();
    if (ptr != NULL)
        symm_alloc_put(&symm_gpu_g.alloc, off);
}

SYMM_EXPORT void *shmemx_device_heap_base(int pe)
{
    symm_check_init("shmemx_device_heap_base");
    if ((unsigned)pe >= (unsigned)symm_g.n_pes)
        symm_fatal("shmemx_device_heap_base(pe=%d): pe %d is out of range (the job has %d PEs, "
                   "0..%d)", pe, pe, symm_g.n_pes, symm_g.n_pes - 1);
    return symm_cuda_g.started ? symm_cuda_g.win + (size_t)pe * symm_cuda_g.stride : NULL;
}

SYMM_EXPORT size_t shmemx_device_heap_size(void)
{
    symm_check_init("shmemx_device_heap_size");
    load_params("shmemx_device_heap_size");
    return symm_gpu_g.heap_size > SYMM_DEV_INTERNAL_SIZE
               ? symm_gpu_g.heap_size - SYMM_DEV_INTERNAL_SIZE
               : 0;
}

SYMM_EXPORT int shmemx_gpu_device(void)
{
    return symm_cuda_g.started ? symm_cuda_g.ordinal : -1;
}

/* ---- Modules ------------------------------------------------------------------------------ */
SYMM_EXPORT int shmemx_gpu_register_module(const char *(*set_state)(const void *, size_t),
                                           int abi)
{
    if (abi != SYMM_DEV_ABI) {
        bad_abi = abi;
        return -1;
    }
    if (nmodules == MAX_MODULES) {
        static const char msg[] = "symm: more than 256 modules use the device API\n";
        if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0) {
            /* Nowhere to report. */
        }
        abort();
    }
    modules[nmodules++].set_state = set_state;
    if (symm_cuda_g.started) {
        const char *err = set_state(&symm_gpu_g.state, sizeof(symm_gpu_g.state));
        if (err)
            symm_fatal("shmemx_gpu_register_module: cannot set the device state of a module "
                       "loaded after the GPU part started: %s", err);
    }
    return 0;
}
