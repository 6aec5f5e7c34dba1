/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Wire protocol between symmrun and the `launcher` bootstrap of its PEs, over one abstract Unix
 * stream socket per PE. Every message is a 16-byte header and `len` payload bytes:
 *
 *   HELLO      PE -> symmrun: the 16-byte job key; the header's rank is the PE's rank.
 *              symmrun -> PE: empty, the connection is accepted (refused: closed).
 *   ALLGATHER  PE: its `len` bytes. Reply: size * len bytes in rank order. Barrier is len 0.
 *   FDS        `len` chunk bytes; each byte counts the descriptors (1..250) that travel with it
 *              as SCM_RIGHTS. Reply: all size * n descriptors in rank order, chunked alike.
 *   ABORT      PE: int32 status, then the reason text (may be empty). No reply: symmrun stops
 *              the job.
 *   FINALIZE   PE: empty. No reply; the PE closes the socket next.
 *
 * A collective round completes when every PE has sent the same kind of request; one PE per
 * round, one request per PE. Both ends run on one host, so integers travel in host order.
 */
#ifndef SYMM_BOOT_PROTO_H
#define SYMM_BOOT_PROTO_H

#include <stddef.h>
#include <stdint.h>

enum {
    SYMM_BOOT_HELLO = 1,
    SYMM_BOOT_ALLGATHER = 2,
    SYMM_BOOT_FDS = 3,
    SYMM_BOOT_ABORT = 4,
    SYMM_BOOT_FINALIZE = 5,
};

#define SYMM_BOOT_KEY_LEN 16
/* Below the kernel's SCM_MAX_FD (253), so one chunk never truncates. */
#define SYMM_BOOT_FDS_PER_MSG 250
#define SYMM_BOOT_ABORT_TEXT_MAX 1024
/* Longest abstract socket name: sun_path less its leading NUL. */
#define SYMM_BOOT_ADDR_MAX 107

struct symm_boot_hdr {
    uint32_t type;
    uint32_t rank;
    uint64_t len;
};

_Static_assert(sizeof(struct symm_boot_hdr) == 16, "the header is 16 bytes on the wire");

/* Chunks needed to carry n descriptors. */
static inline uint64_t symm_boot_fd_chunks(uint64_t n)
{
    return (n + SYMM_BOOT_FDS_PER_MSG - 1) / SYMM_BOOT_FDS_PER_MSG;
}

/* All return 0 on success or a negative errno; -ECONNRESET means the peer closed the socket. */

/* Blocking: the header and its payload, whole, retried over EINTR and short writes. */
int symm_boot_send_msg(int fd, const struct symm_boot_hdr *hdr, const void *payload);
/* Blocking: exactly len bytes. */
int symm_boot_recv_all(int fd, void *buf, size_t len);
/* One chunk: one count byte carrying n (1..SYMM_BOOT_FDS_PER_MSG) descriptors. One sendmsg of
 * one byte, so a non-blocking socket sends all of it or nothing (-EAGAIN). */
int symm_boot_send_fds(int fd, const int *fds, int n);
/* One chunk: reads its count byte and descriptors into fds (room for max), close-on-exec.
 * *n is the count; a chunk that does not match its count byte is -EBADMSG, its descriptors
 * closed. */
int symm_boot_recv_fds(int fd, int *fds, int max, int *n);

/* Milliseconds of the monotonic clock. */
int64_t symm_boot_now_ms(void);

/* The key travels in the environment as 32 hex digits. */
int symm_boot_key_parse(const char *hex, uint8_t key[SYMM_BOOT_KEY_LEN]);
void symm_boot_key_format(const uint8_t key[SYMM_BOOT_KEY_LEN],
                          char hex[2 * SYMM_BOOT_KEY_LEN + 1]);

#endif
