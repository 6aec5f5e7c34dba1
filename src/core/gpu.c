/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The GPU part of a PE: its settings, the two halves of its start (device, context and stream;
 * then the library's kernels, the proxy and the device state) and of its end, the table of
 * teams on the device, the core's hooks into it (host RMA on device memory, shmem_ptr, the
 * waits' watch for a failed kernel), and the registry of modules that hold a copy of the
 * device state. The device heap, which the start sets up between its halves, is
 * coll/devheap.c's; what reaches the GPU, the CUDA transport's (tl/cuda).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/gpu_cuda.h"
#include "tl/proxy/proxy.h"
#include <shmemx.h>
#include <shmemx_gpu.h>

static int mode = -1;              /* SYMM_GPU: -1 auto, 0 off, 1 at init */
static const char *device_list;    /* SYMM_GPU_DEVICE, or NULL */
static symm_dev_state_t dev_state; /* what the library's and every module's copy hold */

#define MAX_MODULES 256
static struct {
    const char *(*set_state)(const void *state, size_t len);
} modules[MAX_MODULES];
static int nmodules;
static int bad_abi; /* a module compiled against another device state layout */

/* ---- Kernel loading -----------------------------------------------------------------------
 * Under lazy loading (CUDA's default since 12.2) a kernel's first launch can hold the process's
 * other CUDA calls until the running kernels end. Across nodes that hangs: a kernel waiting
 * for a PE of another node needs the proxy's copies, which wait for the launch, which waits
 * for the kernel. So a job that spans nodes asks CUDA for eager loading, before the program's
 * first CUDA call (when libsymm is loaded), unless the program chose a mode itself; the
 * launchers' variables say whether it spans nodes (symmrun, Open MPI, Slurm, MPICH, torchrun:
 * fewer PEs here than in the job). */
static long env_long(const char *name)
{
    const char *v = getenv(name);

    return v && *v ? strtol(v, NULL, 10) : -1;
}

static int spans_nodes(void)
{
    static const char *const pairs[][2] = {
        {"SYMM_LOCAL_SIZE", "SYMM_SIZE"},
        {"OMPI_COMM_WORLD_LOCAL_SIZE", "OMPI_COMM_WORLD_SIZE"},
        {"MPI_LOCALNRANKS", "PMI_SIZE"},
        {"LOCAL_WORLD_SIZE", "WORLD_SIZE"},
    };

    for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
        long local = env_long(pairs[i][0]), all = env_long(pairs[i][1]);
        if (local > 0 && all > local)
            return 1;
    }
    return env_long("SLURM_STEP_NUM_NODES") > 1 || env_long("SLURM_NNODES") > 1;
}

__attribute__((constructor)) static void eager_loading(void)
{
    if (!getenv("CUDA_MODULE_LOADING") && spans_nodes())
        setenv("CUDA_MODULE_LOADING", "EAGER", 0);
}

/* At the start of a job that spans nodes: one line when kernels still load lazily (the
 * program set CUDA_MODULE_LOADING=LAZY, or started CUDA before libsymm was loaded). */
static void check_loading(const char *call)
{
    CUmoduleLoadingMode m;

    if (symm_cu.cuModuleGetLoadingMode && symm_cu.cuModuleGetLoadingMode(&m) == CUDA_SUCCESS &&
        m == CU_MODULE_LAZY_LOADING)
        symm_warn("%s: CUDA loads kernels lazily here (CUDA_MODULE_LOADING=%s), and this job "
                  "spans nodes: a kernel launched while another kernel waits for a PE of another "
                  "node can hang both; set CUDA_MODULE_LOADING=EAGER", call,
                  getenv("CUDA_MODULE_LOADING") ? getenv("CUDA_MODULE_LOADING") : "unset");
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
 * SYMM_GPU, SYMM_GPU_DEVICE (the device heap's sizes are coll/devheap.c's). */
static void load_params(const char *call)
{
    static int loaded;
    const char *setting = symm_g.params.gpu;
    int on;

    if (loaded)
        return;
    loaded = 1;
    mode = -1;
    if (setting && *setting && strcmp(setting, "auto") != 0) {
        if (symm_parse_bool(setting, &on) != SYMM_OK)
            symm_fatal("%s: SYMM_GPU='%s' is not auto, 0 or 1", call, setting);
        mode = on;
    }
    device_list = symm_g.params.gpu_device;
    if (device_list && !*device_list)
        device_list = NULL;
}

/* This PE's rank among the PEs of its host, whose GPUs they share: symmrun says it
 * (SYMM_LOCAL_RANK, per virtual node), else the bootstrap's hosts tell, whatever started the
 * job (mpirun, srun, a unique id, an MPI communicator that is a part of the world). */
static int local_rank(int *local_size)
{
    const char *r = symm_g.params.local_rank, *s = symm_g.params.local_size;
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

    if (device_list || symm_cu.cuCtxGetCurrent(&c) != CUDA_SUCCESS || !c ||
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
    if (device_list) {
        const char *p = device_list;
        char *end;
        long v = -1;
        int i = 0;

        for (;; i++) {
            errno = 0;
            v = strtol(p, &end, 10);
            if (end == p || errno || v < 0 || (*end != ',' && *end != '\0'))
                symm_fatal("%s: SYMM_GPU_DEVICE='%s' is not a device index or a comma-separated "
                           "list of them", call, device_list);
            if (i == lrank || *end == '\0')
                break;
            p = end + 1;
        }
        if (i != lrank && strchr(device_list, ','))
            symm_fatal("%s: SYMM_GPU_DEVICE='%s' names %d devices, but this PE is rank %d on its "
                       "node", call, device_list, i + 1, lrank);
        ordinal = (int)v;
        if (ordinal >= count)
            symm_fatal("%s: SYMM_GPU_DEVICE='%s' asks for device %d, but this PE sees %d GPUs "
                       "(CUDA_VISIBLE_DEVICES=%s)", call, device_list, ordinal, count,
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

/* ---- Start ---------------------------------------------------------------------------------- */
static void publish_state(const char *call)
{
    /* Every module of the library's kernels has its own copy. */
    for (int i = 0; i < symm_cuda_g.nmodules; i++) {
        CUdeviceptr g;
        size_t len;

        SYMM_CU_CHECK(call, symm_cu.cuModuleGetGlobal(&g, &len, symm_cuda_g.modules[i],
                                                      "symm_dev_c"));
        if (len != sizeof(symm_dev_state_t))
            symm_fatal("%s: the library's kernels were built against another device state",
                       call);
        SYMM_CU_CHECK(call, symm_cu.cuMemcpyHtoD(g, &dev_state, len));
    }
    for (int i = 0; i < nmodules; i++) {
        const char *err = modules[i].set_state(&dev_state, sizeof(dev_state));
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

/* A device heap's pieces pass between the PEs of a host; the barrier after it has every peer
 * map them before any PE goes on. */
static symm_status_t exchange_fds(const int *fds, int n, int first, int count, int *out)
{
    symm_status_t st = symm_g.boot->exchange_fds(fds, n, first, count, out);

    return st == SYMM_OK ? symm_g.boot->barrier() : st;
}

int symm_gpu_open(const char *call, int *ngpus)
{
    char why[256];
    int count = 0;

    if (symm_cuda_g.started) {
        symm_cuda_bind(call);
        return 1;
    }
    symm_check_init(call);
    load_params(call);
    if (mode == 0)
        symm_fatal("%s: the GPU part is off (SYMM_GPU=0)", call);
    if (bad_abi)
        symm_fatal("%s: a module of this program was compiled against another symm device API "
                   "(device state version %d); rebuild it with this symm", call, bad_abi);
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
        .exchange_fds = exchange_fds,
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

    SYMM_CU_CHECK(call, symm_cu.cuStreamCreate(&symm_cuda_g.copy, CU_STREAM_NON_BLOCKING));
    *ngpus = count;
    return 0;
}

void symm_gpu_ready(const char *call)
{
    CUdeviceptr err_dev;
    void *err_host;

    SYMM_CU_CHECK(call,
                  symm_cu.cuMemHostAlloc(&err_host, sizeof(symm_dev_err_t),
                                         CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
    memset(err_host, 0, sizeof(symm_dev_err_t));
    SYMM_CU_CHECK(call, symm_cu.cuMemHostGetDevicePointer(&err_dev, err_host, 0));
    symm_cuda_g.err = err_host;
    symm_cuda_load_kernels(call);

    /* PEs of other nodes: the proxy carries the kernels' requests to them. */
    symm_px_ring_t *ring = NULL;
    unsigned long long *ring_head = NULL;
    if (symm_g.win_n < symm_g.n_pes) {
        check_loading(call);
        symm_px_env_t px = {.rank = symm_g.my_pe, .size = symm_g.n_pes,
                            .first = symm_g.win_first, .count = symm_g.win_n,
                            .net = symm_g.net ? symm_tl_net : NULL,
                            .chan = &symm_ctx_default.net, .fatal = symm_fatal};
        symm_px_start(call, &px, &ring, &ring_head);
        symm_g.gpu_queued = 1;
    }
    dev_state = (symm_dev_state_t){
        .win = symm_cuda_g.win,
        .base = symm_cuda_g.base,
        .stride = symm_cuda_g.stride,
        .size = symm_cuda_g.stride,
        .err = (symm_dev_err_t *)err_dev,
        .team_world = SHMEM_TEAM_WORLD,
        .team_shared = SHMEM_TEAM_SHARED,
        .ring = ring,
        .ring_head = ring_head,
        .my_pe = symm_g.my_pe,
        .n_pes = symm_g.n_pes,
        .node_first = symm_g.win_first,
        .node_count = symm_g.win_n,
        .abi = SYMM_DEV_ABI,
    };
    symm_cuda_g.started = 1;
    publish_state(call);
}

void symm_gpu_need(const char *call)
{
    symm_check_init(call);
    if (!symm_cuda_g.started)
        symm_fatal("%s: the GPU part has not started: allocate device memory "
                   "(shmemx_malloc_device) first, or set SYMM_GPU=1", call);
    symm_cuda_bind(call);
}

/* ---- End --------------------------------------------------------------------------------- */
int symm_gpu_stop(const char *call)
{
    if (!symm_cuda_g.started || symm_cuda_gone())
        return 0;
    symm_cuda_bind(call);
    SYMM_CU_CHECK(call, symm_cu.cuCtxSynchronize());
    if (symm_px_running()) {
        /* Every PE's requests are complete before any proxy stops serving its peers. */
        symm_px_quiet(call);
        if (symm_g.boot->barrier() != SYMM_OK)
            symm_fatal("%s: the PEs could not meet before stopping the GPU proxy", call);
        symm_px_stop(call);
        symm_g.gpu_queued = 0;
    }
    return 1;
}

void symm_gpu_close(const char *call)
{
    symm_cuda_unload_kernels(call);
    SYMM_CU_CHECK(call, symm_cu.cuStreamDestroy(symm_cuda_g.copy));
    SYMM_CU_CHECK(call, symm_cu.cuMemFreeHost(symm_cuda_g.err));
    symm_cuda_g.err = NULL;
    symm_cuda_g.queued = 0;
    symm_cuda_g.started = 0;
    symm_cu.cuDevicePrimaryCtxRelease(symm_cuda_g.dev);
    symm_cuda_g.ordinal = -1;
}

/* ---- Hooks of the core -------------------------------------------------------------------- */
int symm_gpu_at_init(void)
{
    load_params("shmem_init");
    return mode == 1 || (mode == -1 && nmodules > 0);
}

/* Host RMA on the device heap: a copy on the transport's stream, or through the proxy to a
 * PE of another node. */
symm_status_t symm_gpu_rma(symm_rma_op_t op, void *dest, const void *src, size_t n, int pe)
{
    const int put = symm_rma_is_put(op);
    symm_status_t st;

    if (SYMM_UNLIKELY((unsigned)(pe - symm_g.win_first) >= (unsigned)symm_g.win_n)) {
        if (!symm_cuda_local(put ? dest : src, n))
            return SYMM_ERR_INVALID;
        symm_cuda_bind(put ? "shmem_put" : "shmem_get");
        symm_px_rma(put ? "shmem_put" : "shmem_get", dest, src, n, pe, op);
        return SYMM_OK;
    }
    st = symm_cuda_copy(dest, src, n, pe, op);
    symm_g.gpu_queued = symm_cuda_g.queued || symm_px_running();
    return st;
}

/* With the proxy running, every quiet waits for what the kernels posted (a kernel may have
 * ended with requests in flight). */
void symm_gpu_quiet(void)
{
    symm_cuda_quiet();
    symm_px_quiet("shmem_quiet");
    symm_g.gpu_queued = symm_px_running();
}

void *symm_gpu_ptr(const void *addr, int pe)
{
    uintptr_t off = (uintptr_t)addr - (uintptr_t)symm_cuda_g.base;

    if (!symm_cuda_g.started || off >= symm_cuda_g.stride ||
        (unsigned)(pe - symm_g.win_first) >= (unsigned)symm_g.win_n)
        return NULL;
    return symm_cuda_xlate(addr, pe);
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

/* ---- Teams on the device -------------------------------------------------------------------
 * The teams this PE belongs to, besides the world and shared teams: the host's copy of the
 * table in the internal part (symm_dev_team_t), written to the device whenever it changes.
 * A new team's slot starts from zero on the device (its barrier and collective epochs, flags
 * and scratch): the split that creates it ends with a barrier of the parent, after which
 * members may signal into it; the team that used the slot before has finished its kernels
 * (a team is destroyed only after them). */
_Static_assert(SYMM_DEV_TEAMS == SYMM_TEAM_SLOTS, "a team slot on the host is one on the device");
static symm_dev_team_t dev_teams[SYMM_DEV_TEAM_TABLE];

void symm_gpu_team_upload(const char *call)
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

/* A team is in the table twice: by its handle, and by SHMEMX_TEAM_OF_INDEX of its index (the
 * handle NVSHMEM's names pass). */
static unsigned long long index_handle(const symm_team_t *t)
{
    return (unsigned long long)(uintptr_t)SHMEMX_TEAM_OF_INDEX(symm_team_index(t));
}

static void table_put(unsigned long long h, const symm_team_t *t)
{
    unsigned i = SYMM_DEV_TEAM_HASH(h);

    while (dev_teams[i].handle > 1)
        i = (i + 1) & (SYMM_DEV_TEAM_TABLE - 1);
    dev_teams[i] = (symm_dev_team_t){.handle = h, .slot = t->slot, .start = t->start,
                                     .stride = t->stride, .size = t->size, .me = t->me};
}

static void table_drop(unsigned long long h)
{
    unsigned i = SYMM_DEV_TEAM_HASH(h);

    for (int k = 0; k < SYMM_DEV_TEAM_TABLE && dev_teams[i].handle != 0;
         k++, i = (i + 1) & (SYMM_DEV_TEAM_TABLE - 1))
        if (dev_teams[i].handle == h) {
            dev_teams[i].handle = 1;
            return;
        }
}

void symm_gpu_team_add(const symm_team_t *t)
{
    const char *call = "shmem_team_split";

    table_put((unsigned long long)(uintptr_t)t, t);
    table_put(index_handle(t), t);
    if (!symm_cuda_g.started)
        return;
    symm_cuda_bind(call);
    slot_reset(call, t->slot);
    symm_gpu_team_upload(call);
}

void symm_gpu_team_remove(const symm_team_t *t)
{
    table_drop((unsigned long long)(uintptr_t)t);
    table_drop(index_handle(t));
    if (symm_cuda_g.started) {
        symm_cuda_bind("shmem_team_destroy");
        symm_gpu_team_upload("shmem_team_destroy");
    }
}

/* ---- Queries ------------------------------------------------------------------------------ */
SYMM_EXPORT int shmemx_gpu_device(void)
{
    return symm_cuda_g.started ? symm_cuda_g.ordinal : -1;
}

/* ---- Modules ------------------------------------------------------------------------------
 * A module built with the device API registers its copy of the device state from a static
 * initialiser; modules loaded through the driver get theirs from api/module.c. */
const symm_dev_state_t *symm_gpu_state(void)
{
    return &dev_state;
}

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
        const char *err = set_state(&dev_state, sizeof(dev_state));
        if (err)
            symm_fatal("shmemx_gpu_register_module: cannot set the device state of a module "
                       "loaded after the GPU part started: %s", err);
    }
    return 0;
}
