/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The layouts of symm/ep.h on CPU PEs: a measuring pass and the pass over the block carve the
 * same offsets, aligned as asked, and the block is aligned to the largest alignment; the slots
 * and signals of a channel buffer lie where the layout says and are symmetric (every PE fills
 * its slot of channel ch on every peer, through puts with signals and, inside a node, through
 * the view, and finds the peers' data in its own slots); a view holds exactly the PEs of this
 * node (virtual nodes included) and agrees with shmem_ptr; a carve that does not fit or that
 * has a bad alignment or channel buffer fails, and nothing is carved after it.
 *
 *   layout            the checks above (any number of PEs, any node layout)
 *   layout MODE       a bad call that must end the job with its message (tests/ep/CMakeLists)
 */
#include <stdint.h>
#include <string.h>

#include <shmemx.h>
#include <symm/ep.h>

#include "../harness.h"
#include "../nodes.h"

#define CHANNELS 3
#define SLOT 200 /* bytes a slot holds (rounded up to SHMEMX_EP_ALIGN) */

typedef struct layout {
    uint64_t *words; /* 5 words */
    char *page;      /* 100 bytes at a 4096-byte boundary */
    shmemx_ep_chan_t chan;
    shmemx_ep_chan_t direct; /* receive half only: filled through the view */
} layout_t;

static void carve(shmemx_ep_cursor_t *c, layout_t *l, int n, int me)
{
    l->words = shmemx_ep_carve(c, 5 * sizeof(uint64_t), 8);
    l->page = shmemx_ep_carve(c, 100, 4096);
    l->chan = shmemx_ep_chan(c, CHANNELS, n, me, SLOT, SHMEMX_EP_SEND);
    l->direct = shmemx_ep_chan(c, CHANNELS, n, me, SLOT, 0);
}

static unsigned char pattern(int from, int to, int ch, int i)
{
    return (unsigned char)(from * 31 + to * 7 + ch * 3 + i);
}

/* Offsets the regions must have: 40 bytes at 0, 100 at 4096, then 128-aligned regions. */
static void check_offsets(const layout_t *l, const char *block, int n, size_t used)
{
    size_t slots = (size_t)CHANNELS * n, slot = 256, off = 4096 + 128;

    EXPECT((char *)l->words == block, "words at offset %td", (char *)l->words - block);
    EXPECT(l->page == block + 4096, "page at offset %td", l->page - block);
    EXPECT(((uintptr_t)l->page & 4095) == 0, "page at %p, not 4096-aligned", (void *)l->page);
    EXPECT(l->chan.slot == slot, "slot of %zu bytes, expected %zu", l->chan.slot, slot);
    EXPECT(l->chan.send == block + off, "send half at %td, expected %zu", l->chan.send - block,
           off);
    off += slots * slot;
    EXPECT(l->chan.recv == block + off, "receive half at %td, expected %zu",
           l->chan.recv - block, off);
    off += slots * slot;
    EXPECT((char *)l->chan.sig == block + off, "signals at %td, expected %zu",
           (char *)l->chan.sig - block, off);
    off += (slots * 8 + 127) / 128 * 128;
    EXPECT(l->direct.send == NULL, "a channel buffer without SHMEMX_EP_SEND has a send half");
    EXPECT(l->direct.recv == block + off, "second receive half at %td, expected %zu",
           l->direct.recv - block, off);
    off += slots * slot;
    EXPECT((char *)l->direct.sig == block + off, "second signals at %td, expected %zu",
           (char *)l->direct.sig - block, off);
    EXPECT(used == off + slots * 8, "the layout measured %zu bytes, expected %zu", used,
           off + slots * 8);
    for (int ch = 0; ch < CHANNELS; ch++)
        for (int r = 0; r < n; r++) {
            size_t i = (size_t)ch * n + r;
            EXPECT((char *)shmemx_ep_send_slot(&l->chan, ch, r) == l->chan.send + i * slot &&
                       (char *)shmemx_ep_recv_slot(&l->chan, ch, r) == l->chan.recv + i * slot &&
                       shmemx_ep_signal(&l->chan, ch, r) == l->chan.sig + i,
                   "slot (%d, %d) out of place", ch, r);
        }
}

static void check_measure(int n, int me, shmemx_ep_cursor_t *c)
{
    layout_t l;

    *c = shmemx_ep_cursor(NULL, 0);
    carve(c, &l, n, me);
    EXPECT(l.words == NULL && l.page == NULL && l.chan.recv == NULL && l.chan.sig == NULL,
           "a measuring pass returned addresses");
    EXPECT(c->error == SHMEMX_EP_OK && c->regions == 7 && c->align == 4096,
           "measured: error %d, %d regions, alignment %zu", c->error, c->regions, c->align);
}

/* Every PE fills its slot of each channel on every PE (put with signal: any PE), then its slot
 * of the second buffer on the PEs of its node (stores through the view, then a signal). */
static void exchange(const layout_t *l, const shmemx_ep_view_t *v, int n, int me)
{
    for (int ch = 0; ch < CHANNELS; ch++)
        for (int pe = 0; pe < n; pe++) {
            unsigned char *s = shmemx_ep_send_slot(&l->chan, ch, pe);
            for (int i = 0; i < SLOT; i++)
                s[i] = pattern(me, pe, ch, i);
            shmem_putmem_signal(shmemx_ep_remote_slot(&l->chan, ch), s, SLOT,
                                shmemx_ep_remote_signal(&l->chan, ch), 1, SHMEM_SIGNAL_SET, pe);
            unsigned char *d = shmemx_ep_peer(v, shmemx_ep_remote_slot(&l->direct, ch), pe);
            EXPECT((d != NULL) == (shmem_ptr(l->direct.recv, pe) != NULL),
                   "the view %s pe %d, shmem_ptr %s", d ? "reaches" : "does not reach", pe,
                   d ? "not" : "does");
            if (d == NULL)
                continue;
            for (int i = 0; i < SLOT; i++)
                d[i] = pattern(me, pe, ch, i + 1);
            shmem_fence();
            shmem_signal_set(shmemx_ep_remote_signal(&l->direct, ch), 2, pe);
        }
    for (int ch = 0; ch < CHANNELS; ch++)
        for (int src = 0; src < n; src++) {
            const unsigned char *r = shmemx_ep_recv_slot(&l->chan, ch, src);
            int bad = -1;
            shmem_signal_wait_until(shmemx_ep_signal(&l->chan, ch, src), SHMEM_CMP_EQ, 1);
            for (int i = 0; i < SLOT && bad < 0; i++)
                if (r[i] != pattern(src, me, ch, i))
                    bad = i;
            EXPECT(bad < 0, "put: slot (%d, %d) byte %d is %d", ch, src, bad, bad < 0 ? 0 : r[bad]);
            if (test_node_of(src, n) != test_node_of(me, n))
                continue;
            r = shmemx_ep_recv_slot(&l->direct, ch, src);
            shmem_signal_wait_until(shmemx_ep_signal(&l->direct, ch, src), SHMEM_CMP_EQ, 2);
            for (int i = 0; i < SLOT && bad < 0; i++)
                if (r[i] != pattern(src, me, ch, i + 1))
                    bad = i;
            EXPECT(bad < 0, "view: slot (%d, %d) byte %d is %d", ch, src, bad,
                   bad < 0 ? 0 : r[bad]);
        }
}

static void check_view(const shmemx_ep_view_t *v, char *block, size_t used, int n, int me)
{
    int node = test_node_of(me, n), first = test_node_first(node, n);
    int last = test_node_first(node + 1, n);

    EXPECT(v->base == block && v->size == used, "view of %p, %zu bytes", (void *)v->base,
           v->size);
    EXPECT(v->first == first && v->n == last - first, "view of PEs %d..%d, this node has %d..%d",
           v->first, v->first + v->n - 1, first, last - 1);
    for (int pe = -1; pe <= n; pe++) {
        char *want = pe >= 0 && pe < n ? shmem_ptr(block + 4096, pe) : NULL;
        EXPECT(shmemx_ep_peer(v, block + 4096, pe) == want, "view of pe %d: %p, shmem_ptr %p",
               pe, shmemx_ep_peer(v, block + 4096, pe), (void *)want);
        EXPECT((want != NULL) == (pe >= first && pe < last), "pe %d %s by load and store", pe,
               want ? "reached" : "not reached");
    }
}

static void check_errors(char *block, int n)
{
    shmemx_ep_cursor_t c = shmemx_ep_cursor(block, 1024);
    shmemx_ep_chan_t b;

    EXPECT(shmemx_ep_carve(&c, 1000, 8) == block, "the first region is not at the block");
    EXPECT(shmemx_ep_carve(&c, 100, 8) == NULL && c.error == SHMEMX_EP_EFIT && c.bad_region == 1 &&
               c.bad_bytes == 100 && c.used == 1000,
           "a region past the block: error %d at region %d (%zu bytes), used %zu", c.error,
           c.bad_region, c.bad_bytes, c.used);
    EXPECT(shmemx_ep_carve(&c, 8, 8) == NULL && c.bad_region == 1,
           "a region after a failed one was carved");
    c = shmemx_ep_cursor(block, 1024);
    EXPECT(shmemx_ep_carve(&c, 8, 3) == NULL && c.error == SHMEMX_EP_EALIGN,
           "alignment 3: error %d", c.error);
    c = shmemx_ep_cursor(block + 8, 1024);
    EXPECT(shmemx_ep_carve(&c, 8, 64) == NULL && c.error == SHMEMX_EP_EALIGN,
           "alignment 64 on a block at 8 past a boundary: error %d", c.error);
    c = shmemx_ep_cursor(NULL, 0);
    shmemx_ep_carve(&c, SIZE_MAX - 4, 1);
    EXPECT(c.error == SHMEMX_EP_OK && c.used == SIZE_MAX - 4,
           "a measuring cursor refused a large region: error %d", c.error);
    EXPECT(shmemx_ep_carve(&c, 64, 128) == NULL && c.error == SHMEMX_EP_EFIT,
           "a region past SIZE_MAX: error %d", c.error);
    c = shmemx_ep_cursor(NULL, 0);
    b = shmemx_ep_chan(&c, 2, n, n, 64, SHMEMX_EP_SEND);
    EXPECT(c.error == SHMEMX_EP_EARG && b.recv == NULL, "me = ranks: error %d", c.error);
    c = shmemx_ep_cursor(NULL, 0);
    b = shmemx_ep_chan(&c, 0, n, 0, 64, 0);
    EXPECT(c.error == SHMEMX_EP_EARG && c.regions == 0, "no channels: error %d", c.error);
    c = shmemx_ep_cursor(NULL, 0);
    b = shmemx_ep_chan(&c, 1 << 30, 1 << 30, 0, 1 << 30, 0);
    EXPECT(c.error != SHMEMX_EP_OK, "a channel buffer of 2^90 bytes was carved");
}

/* Bad calls: each must end the job with its message. */
static int bad(const char *mode, int n, int me)
{
    shmemx_ep_cursor_t c = shmemx_ep_cursor(NULL, 0);
    char local[64];

    if (strcmp(mode, "differs") == 0) {
        /* The same bytes, split differently on the last PE. */
        shmemx_ep_carve(&c, me == n - 1 ? 64 : 128, 64);
        shmemx_ep_carve(&c, me == n - 1 ? 128 : 64, 64);
        shmemx_ep_malloc(&c, 0);
    } else if (strcmp(mode, "extra") == 0) {
        shmemx_ep_carve(&c, 256, 64);
        if (me == n - 1)
            shmemx_ep_carve(&c, 8, 8);
        shmemx_ep_malloc(&c, 0);
    } else if (strcmp(mode, "overflow") == 0) {
        c = shmemx_ep_cursor(shmem_malloc(1024), 1024);
        shmemx_ep_carve(&c, 512, 128);
        shmemx_ep_carve(&c, 4096, 128);
        shmemx_ep_check("layout", &c);
    } else if (strcmp(mode, "align") == 0) {
        shmemx_ep_carve(&c, 64, 24);
        shmemx_ep_malloc(&c, 0);
    } else if (strcmp(mode, "on_block") == 0) {
        c = shmemx_ep_cursor(shmem_malloc(64), 64);
        shmemx_ep_malloc(&c, 0);
    } else if (strcmp(mode, "view_stack") == 0) {
        shmemx_ep_view_t v;
        shmemx_ep_view_init(&v, local, sizeof(local));
    } else {
        fprintf(stderr, "layout: unknown mode %s\n", mode);
        return 2;
    }
    shmem_finalize();
    return 0;
}

int main(int argc, char **argv)
{
    shmemx_ep_cursor_t c;
    shmemx_ep_view_t v;
    layout_t l;
    char *block;
    int n, me;

    shmem_init();
    n = shmem_n_pes();
    me = shmem_my_pe();
    if (argc > 1)
        return bad(argv[1], n, me);
    check_measure(n, me, &c);
    block = shmemx_ep_malloc(&c, 0);
    EXPECT(block != NULL && ((uintptr_t)block & 4095) == 0, "block at %p, not 4096-aligned",
           (void *)block);
    if (block != NULL) {
        size_t used = c.used;
        c = shmemx_ep_cursor(block, used);
        carve(&c, &l, n, me);
        shmemx_ep_check("layout", &c);
        EXPECT(c.used == used && c.regions == 7, "the pass over the block carved %zu bytes in %d "
               "regions, the measuring pass %zu", c.used, c.regions, used);
        check_offsets(&l, block, n, used);
        memset(l.chan.sig, 0, (size_t)CHANNELS * n * sizeof(uint64_t));
        memset(l.direct.sig, 0, (size_t)CHANNELS * n * sizeof(uint64_t));
        shmemx_ep_view_init(&v, block, used);
        check_view(&v, block, used, n, me);
        shmem_barrier_all();
        exchange(&l, &v, n, me);
        shmem_barrier_all();
        check_errors(block, n);
        shmem_free(block);
    }
    /* A layout of no bytes: no block, on every PE. */
    c = shmemx_ep_cursor(NULL, 0);
    EXPECT(shmemx_ep_malloc(&c, 0) == NULL, "a layout of no bytes got a block");
    return test_finish("layout");
}
