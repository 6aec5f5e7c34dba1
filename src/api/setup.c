/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Public entry points for setup, queries, memory management, ordering and barriers: thin
 * shells over core/ and sync/.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "boot/boot.h"
#include "coll/coll.h"
#include "coll/gpu_coll.h"
#include "api/api.h"
#include "core/gpu.h"
#include "core/core.h"
#include "core/watch.h"
#include "shmemx.h"


SYMM_EXPORT void shmem_init(void)
{
    symm_init("shmem_init", SHMEM_THREAD_SINGLE);
}

SYMM_EXPORT int shmem_init_thread(int requested, int *provided)
{
    if (requested < SHMEM_THREAD_SINGLE || requested > SHMEM_THREAD_MULTIPLE)
        symm_fatal("shmem_init_thread(requested=%d): not a thread level (SHMEM_THREAD_SINGLE "
                   "%d .. SHMEM_THREAD_MULTIPLE %d)", requested, SHMEM_THREAD_SINGLE,
                   SHMEM_THREAD_MULTIPLE);
    symm_init("shmem_init_thread", requested);
    if (provided)
        *provided = symm_g.thread_level;
    return 0;
}

SYMM_EXPORT int shmemx_get_uniqueid(shmemx_uniqueid_t *id)
{
    symm_params_t p;
    char why[256];
    symm_status_t st;

    if (!id)
        symm_fatal("shmemx_get_uniqueid(id=NULL): no id to fill");
    if (symm_params_load(&p, why, sizeof(why)) != SYMM_OK)
        symm_fatal("shmemx_get_uniqueid: %s", why);
    id->version = (1 << 16) + (int)sizeof(*id);
    st = symm_boot_uid_make(id->internal, p.boot_addr);
    if (st != SYMM_OK)
        symm_fatal("shmemx_get_uniqueid: cannot make a unique id: %s", symm_status_str(st));
    return 0;
}

SYMM_EXPORT int shmemx_set_attr_uniqueid_args(int myrank, int nranks,
                                              const shmemx_uniqueid_t *id,
                                              shmemx_init_attr_t *attr)
{
    if (!attr || !id)
        symm_fatal("shmemx_set_attr_uniqueid_args(myrank=%d, nranks=%d): %s is NULL", myrank,
                   nranks, attr ? "id" : "attr");
    attr->version = (1 << 16) + (int)sizeof(*attr);
    attr->args.version = (1 << 16) + (int)sizeof(attr->args);
    attr->args.uid_args.version = (1 << 16) + (int)sizeof(attr->args.uid_args);
    attr->args.uid_args.id = (shmemx_uniqueid_t *)id; /* read only: the layout is NVSHMEM's */
    attr->args.uid_args.myrank = myrank;
    attr->args.uid_args.nranks = nranks;
    return 0;
}

SYMM_EXPORT int shmemx_init_attr(unsigned int flags, shmemx_init_attr_t *attr)
{
    const unsigned known = SHMEMX_INIT_THREAD_PES | SHMEMX_INIT_WITH_MPI_COMM |
                           SHMEMX_INIT_WITH_SHMEM | SHMEMX_INIT_WITH_UNIQUEID;

    if (flags & ~known)
        symm_fatal("shmemx_init_attr(flags=%#x): unknown flags %#x", flags, flags & ~known);
    if ((flags & SHMEMX_INIT_WITH_UNIQUEID) && (flags & SHMEMX_INIT_WITH_MPI_COMM))
        symm_fatal("shmemx_init_attr(flags=%#x): a unique id and an MPI communicator at once",
                   flags);
    if ((flags & (SHMEMX_INIT_WITH_UNIQUEID | SHMEMX_INIT_WITH_MPI_COMM)) && !attr)
        symm_fatal("shmemx_init_attr(flags=%#x): attr is NULL", flags);
    if (flags & SHMEMX_INIT_WITH_UNIQUEID) {
        const shmemx_uniqueid_args_t *u = &attr->args.uid_args;

        if (!u->id)
            symm_fatal("shmemx_init_attr: no unique id in attr (call "
                       "shmemx_set_attr_uniqueid_args)");
        if (u->nranks < 1 || u->myrank < 0 || u->myrank >= u->nranks)
            symm_fatal("shmemx_init_attr: rank %d of a job of %d ranks", u->myrank, u->nranks);
        symm_boot_req = (symm_boot_request_t){.how = SYMM_BOOT_UID, .uid = u->id->internal,
                                              .rank = u->myrank, .size = u->nranks};
    } else if (flags & SHMEMX_INIT_WITH_MPI_COMM) {
        if (!attr->mpi_comm)
            symm_fatal("shmemx_init_attr: attr->mpi_comm is NULL (point it to an MPI_Comm)");
        symm_boot_req = (symm_boot_request_t){.how = SYMM_BOOT_MPI, .mpi_comm = attr->mpi_comm};
    }
    symm_init("shmemx_init_attr", SHMEM_THREAD_SINGLE);
    return 0;
}

SYMM_EXPORT void shmem_query_thread(int *provided)
{
    symm_check_init("shmem_query_thread");
    *provided = symm_g.thread_level;
}

SYMM_EXPORT void shmemx_query_initialized(int *initialized)
{
    *initialized = __atomic_load_n(&symm_g.initialized, __ATOMIC_ACQUIRE);
}

SYMM_EXPORT void shmem_finalize(void)
{
    symm_finalize();
}

SYMM_EXPORT void shmem_global_exit(int status)
{
    char why[64];

    fflush(NULL);
    snprintf(why, sizeof(why), "shmem_global_exit(%d)", status);
    symm_watch_leave(0);
    if (symm_g.boot)
        symm_g.boot->abort(status, why);
    _exit(status);
}

SYMM_EXPORT int shmem_my_pe(void)
{
    symm_check_init("shmem_my_pe");
    return symm_g.my_pe;
}

SYMM_EXPORT int shmem_n_pes(void)
{
    symm_check_init("shmem_n_pes");
    return symm_g.n_pes;
}

SYMM_EXPORT int shmem_pe_accessible(int pe)
{
    symm_check_init("shmem_pe_accessible");
    return (unsigned)pe < (unsigned)symm_g.n_pes && symm_g.reach[pe];
}

SYMM_EXPORT int shmem_addr_accessible(const void *addr, int pe)
{
    symm_check_init("shmem_addr_accessible");
    return (unsigned)pe < (unsigned)symm_g.n_pes && symm_g.reach[pe] &&
           (symm_xlate(addr, 1, pe) != NULL || symm_gpu_ptr(addr, pe) != NULL);
}

SYMM_EXPORT void *shmem_ptr(const void *dest, int pe)
{
    symm_check_init("shmem_ptr");
    if ((unsigned)pe >= (unsigned)symm_g.n_pes)
        symm_fatal("shmem_ptr(dest=%p, pe=%d): pe %d is out of range (the job has %d PEs, 0..%d)",
                   dest, pe, pe, symm_g.n_pes, symm_g.n_pes - 1);
    return symm_ptr(dest, pe);
}

SYMM_EXPORT void shmem_info_get_version(int *major, int *minor)
{
    *major = SHMEM_MAJOR_VERSION;
    *minor = SHMEM_MINOR_VERSION;
}

SYMM_EXPORT void shmem_info_get_name(char *name)
{
    strncpy(name, SHMEM_VENDOR_STRING, SHMEM_MAX_NAME_LEN - 1);
    name[SHMEM_MAX_NAME_LEN - 1] = '\0';
}

SYMM_EXPORT void start_pes(int npes)
{
    (void)npes;
    symm_init("start_pes", SHMEM_THREAD_SINGLE);
}

SYMM_EXPORT int _my_pe(void)
{
    symm_check_init("_my_pe");
    return symm_g.my_pe;
}

SYMM_EXPORT int _num_pes(void)
{
    symm_check_init("_num_pes");
    return symm_g.n_pes;
}

/* ---- Memory management ------------------------------------------------------------------ */
SYMM_EXPORT void *shmem_malloc(size_t size)
{
    return symm_heap_malloc("shmem_malloc", size, 0);
}

SYMM_EXPORT void *shmem_calloc(size_t count, size_t size)
{
    void *p;

    if (size && count > SIZE_MAX / size)
        symm_fatal("shmem_calloc(count=%zu, size=%zu): the product overflows", count, size);
    p = symm_heap_malloc("shmem_calloc", count * size, 0);
    /* Fresh blocks may hold a freed block's bytes; the barrier inside malloc ran before this
     * memset, so a second one keeps peers from writing before the block is zero. */
    if (p) {
        memset(p, 0, count * size);
        symm_barrier_world();
    }
    return p;
}

SYMM_EXPORT void *shmem_align(size_t alignment, size_t size)
{
    if (alignment == 0)
        symm_fatal("shmem_align(alignment=0, size=%zu): alignment must be a power of two", size);
    return symm_heap_malloc("shmem_align", size, alignment);
}

/* Hints are advice. The standard ones change nothing here (every block takes atomics and
 * signals from any PE at full speed), and bits symm does not know are ignored, as in other
 * implementations, so a program written with another library's hints runs. Only
 * SHMEMX_MALLOC_DEVICE changes where the block lives, and only beside known bits: a word with
 * unknown bits as well (~SHMEM_MALLOC_ATOMICS_REMOTE, say) comes from a program that does not
 * know the extension and means host memory. */
SYMM_EXPORT void *shmem_malloc_with_hints(size_t size, long hints)
{
    long known = SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE | SHMEMX_MALLOC_DEVICE;

    if ((hints & SHMEMX_MALLOC_DEVICE) && !(hints & ~known))
        return symm_gpu_malloc("shmem_malloc_with_hints", size, 0);
    return symm_heap_malloc("shmem_malloc_with_hints", size, 0);
}

SYMM_EXPORT void *shmem_realloc(void *ptr, size_t size)
{
    return symm_heap_realloc("shmem_realloc", ptr, size);
}

SYMM_EXPORT void shmem_free(void *ptr)
{
    symm_heap_free("shmem_free", ptr);
}

SYMM_EXPORT void *shmalloc(size_t size)
{
    return symm_heap_malloc("shmalloc", size, 0);
}

SYMM_EXPORT void *shmemalign(size_t alignment, size_t size)
{
    return symm_heap_malloc("shmemalign", size, alignment);
}

SYMM_EXPORT void *shrealloc(void *ptr, size_t size)
{
    return symm_heap_realloc("shrealloc", ptr, size);
}

SYMM_EXPORT void shfree(void *ptr)
{
    symm_heap_free("shfree", ptr);
}

/* ---- Ordering and barriers ---------------------------------------------------------------
 * Every transfer to a load/store peer is complete when its call returns (memcpy, including
 * glibc's streaming stores, which it fences itself), so for them quiet and fence are one full
 * fence. Operations to other nodes are completed by the transport's flush (quiet) or ordered
 * by its fence. */
static inline void quiet(shmem_ctx_t ctx)
{
    symm_full_fence();
    if (SYMM_UNLIKELY(symm_g.gpu_queued))
        symm_gpu_quiet();
    symm_net_quiet(ctx);
}

static inline void fence(shmem_ctx_t ctx)
{
    symm_full_fence();
    if (SYMM_UNLIKELY(symm_g.gpu_queued))
        symm_gpu_quiet();
    symm_net_fence(ctx);
}

SYMM_EXPORT void shmem_quiet(void)
{
    quiet(SHMEM_CTX_DEFAULT);
}

SYMM_EXPORT void shmem_fence(void)
{
    fence(SHMEM_CTX_DEFAULT);
}

SYMM_EXPORT void shmem_ctx_quiet(shmem_ctx_t ctx)
{
    if (symm_ctx_ok(ctx, "shmem_ctx_quiet"))
        quiet(ctx);
}

SYMM_EXPORT void shmem_ctx_fence(shmem_ctx_t ctx)
{
    if (symm_ctx_ok(ctx, "shmem_ctx_fence"))
        fence(ctx);
}

/* The barrier starts with the full fence that quiet would add (the dissemination barrier's
 * fence before its first signal; the central barrier's atomic add). */
SYMM_EXPORT void shmem_barrier_all(void)
{
    symm_check_init("shmem_barrier_all");
    if (SYMM_UNLIKELY(symm_g.gpu_queued))
        symm_gpu_quiet();
    symm_net_quiet(SHMEM_CTX_DEFAULT);
    symm_barrier_world();
}

SYMM_EXPORT void shmem_sync_all(void)
{
    symm_check_init("shmem_sync_all");
    symm_barrier_world();
}

/* ---- Profiling interface ----------------------------------------------------------------
 * A profiling tool defines shmem_pcontrol; this one does nothing, so a program may call it
 * with any level and arguments whether a tool is there or not. */
SYMM_EXPORT void shmem_pcontrol(const int level, ...)
{
}

/* ---- Extensions ------------------------------------------------------------------------- */
SYMM_EXPORT void *shmemx_heap_base(int pe)
{
    symm_check_init("shmemx_heap_base");
    if ((unsigned)pe >= (unsigned)symm_g.n_pes)
        symm_fatal("shmemx_heap_base(pe=%d): pe %d is out of range (the job has %d PEs, 0..%d)",
                   pe, pe, symm_g.n_pes, symm_g.n_pes - 1);
    return symm_g.reach[pe] == SYMM_REACH_WINDOW ? symm_g.heap_win + (size_t)pe * symm_g.stride
                                                 : NULL;
}

SYMM_EXPORT size_t shmemx_heap_size(void)
{
    symm_check_init("shmemx_heap_size");
    return symm_g.alloc.size;
}
