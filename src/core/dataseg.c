/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Symmetric global and static variables. At start the main program's writable data (from the
 * end of its read-only-after-relocation part to the end of .bss) is copied into a memfd and
 * the memfd is mapped over the same range, MAP_SHARED: the program sees the same bytes at the
 * same addresses, and node peers map the memfd into the data window. A put to a global is then
 * a memcpy like any other. Peers never assume equal addresses (address-space randomisation
 * differs per process): a global is named by its offset from the segment start.
 */
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/core.h"

typedef struct seg_range {
    uintptr_t lo;
    uintptr_t hi;
} seg_range_t;

static int find_main(struct dl_phdr_info *info, size_t size, void *arg)
{
    seg_range_t *r = arg;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), relro_end = 0, lo = 0, hi = 0;

    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_W)) {
            lo = info->dlpi_addr + ph->p_vaddr;
            hi = lo + ph->p_memsz;
        } else if (ph->p_type == PT_GNU_RELRO) {
            relro_end = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
        }
    }
    if (hi == 0)
        return 1;
    lo &= ~(page - 1);
    /* The loader write-protects the relro pages up to the page holding its end. */
    if (relro_end > lo && relro_end < hi)
        lo = relro_end & ~(page - 1);
    r->lo = lo;
    r->hi = (hi + page - 1) & ~(page - 1);
    return 1; /* the first object is the main program */
}

symm_status_t symm_dataseg_share(int *fd, char **lo, size_t *len)
{
    seg_range_t r = {0, 0};
    size_t n;
    int f;

    dl_iterate_phdr(find_main, &r);
    if (r.hi <= r.lo)
        return SYMM_ERR_UNSUPPORTED;
    n = r.hi - r.lo;
    f = memfd_create("symm-data", MFD_CLOEXEC);
    if (f < 0)
        return SYMM_ERR_SYS;
    /* Between the copy and the map nothing may write the segment: no store to a global here. */
    if (ftruncate(f, n) != 0 || pwrite(f, (void *)r.lo, n, 0) != (ssize_t)n ||
        mmap((void *)r.lo, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, f, 0) == MAP_FAILED) {
        close(f);
        return SYMM_ERR_SYS;
    }
    *fd = f;
    *lo = (char *)r.lo;
    *len = n;
    return SYMM_OK;
}

symm_status_t symm_dataseg_map_peers(const int *fds, const size_t *lens)
{
    int n = symm_g.n_pes;
    size_t len = symm_g.data_len, stride = (len + SYMM_HEAP_ALIGN - 1) & ~(size_t)(SYMM_HEAP_ALIGN - 1);
    char *win;

    for (int pe = 0; pe < n; pe++)
        if (lens[pe] != len || len == 0) {
            /* Different programs (or none shared): globals are not symmetric in this job. */
            symm_g.data_len = 0;
            return SYMM_OK;
        }
    win = mmap(NULL, (size_t)n * stride, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
               -1, 0);
    if (win == MAP_FAILED)
        return SYMM_ERR_NOMEM;
    for (int pe = 0; pe < n; pe++) {
        if (pe == symm_g.my_pe || symm_g.node[pe] != symm_g.my_node)
            continue;
        if (mmap(win + (size_t)pe * stride, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
                 fds[2 * pe + 1], 0) == MAP_FAILED)
            return SYMM_ERR_SYS;
    }
    symm_g.data_win = win;
    symm_g.data_stride = stride;
    return SYMM_OK;
}

void symm_dataseg_fini(void)
{
    /* The program's own segment stays shared-backed: its globals must keep their values. */
    if (symm_g.data_win)
        munmap(symm_g.data_win, (size_t)symm_g.n_pes * symm_g.data_stride);
    symm_g.data_win = NULL;
    symm_g.data_len = 0;
}
