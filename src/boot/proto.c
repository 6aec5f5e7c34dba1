/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Message and descriptor transfer for the symmrun bootstrap protocol (see proto.h), used by
 * both symmrun and the PE side. Sends use MSG_NOSIGNAL so a dead peer is an error code, never
 * a SIGPIPE in the user's program.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "boot/proto.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

/* Room for the kernel's SCM_MAX_FD, so an oversized chunk is seen whole and rejected. */
#define FDS_ROOM 253

int symm_boot_send_msg(int fd, const struct symm_boot_hdr *hdr, const void *payload)
{
    struct iovec iov[2] = {
        {.iov_base = (void *)hdr, .iov_len = sizeof(*hdr)},
        {.iov_base = (void *)payload, .iov_len = payload ? hdr->len : 0},
    };
    struct msghdr msg = {.msg_iov = iov, .msg_iovlen = 2};

    while (iov[0].iov_len + iov[1].iov_len) {
        ssize_t n = sendmsg(fd, &msg, MSG_NOSIGNAL);

        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        for (int i = 0; i < 2; i++) {
            size_t k = (size_t)n < iov[i].iov_len ? (size_t)n : iov[i].iov_len;

            iov[i].iov_base = (char *)iov[i].iov_base + k;
            iov[i].iov_len -= k;
            n -= (ssize_t)k;
        }
        if (!iov[0].iov_len) {
            msg.msg_iov = &iov[1];
            msg.msg_iovlen = 1;
        }
    }
    return 0;
}

int symm_boot_recv_all(int fd, void *buf, size_t len)
{
    char *p = buf;

    while (len) {
        ssize_t n = recv(fd, p, len, 0);

        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        if (n == 0)
            return -ECONNRESET;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int symm_boot_send_fds(int fd, const int *fds, int n)
{
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int) * SYMM_BOOT_FDS_PER_MSG)];
    } ctl;
    unsigned char count = (unsigned char)n;
    struct iovec iov = {.iov_base = &count, .iov_len = 1};
    struct msghdr msg = {
        .msg_iov = &iov,
        .msg_iovlen = 1,
        .msg_control = ctl.buf,
        .msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)n),
    };
    struct cmsghdr *c;

    if (n < 1 || n > SYMM_BOOT_FDS_PER_MSG)
        return -EINVAL;
    memset(&ctl, 0, sizeof(ctl));
    c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)n);
    memcpy(CMSG_DATA(c), fds, sizeof(int) * (size_t)n);
    for (;;) {
        if (sendmsg(fd, &msg, MSG_NOSIGNAL) == 1)
            return 0;
        if (errno != EINTR)
            return -errno;
    }
}

/* Moves the descriptors of every SCM_RIGHTS header into fds; returns how many, or -1 when
 * there were more than max (all of them closed then). */
static int take_fds(struct msghdr *msg, int *fds, int max)
{
    int got = 0, over = 0;

    for (struct cmsghdr *c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c)) {
        int k;

        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
            continue;
        k = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        for (int i = 0; i < k; i++) {
            int d;

            memcpy(&d, CMSG_DATA(c) + sizeof(int) * (size_t)i, sizeof(d));
            if (got < max)
                fds[got++] = d;
            else {
                close(d);
                over = 1;
            }
        }
    }
    if (!over)
        return got;
    for (int i = 0; i < got; i++)
        close(fds[i]);
    return -1;
}

int symm_boot_recv_fds(int fd, int *fds, int max, int *n)
{
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int) * FDS_ROOM)];
    } ctl;
    unsigned char count;
    struct iovec iov = {.iov_base = &count, .iov_len = 1};
    struct msghdr msg = {
        .msg_iov = &iov,
        .msg_iovlen = 1,
        .msg_control = ctl.buf,
        .msg_controllen = sizeof(ctl.buf),
    };
    ssize_t r;
    int got;

    do
        r = recvmsg(fd, &msg, MSG_CMSG_CLOEXEC);
    while (r < 0 && errno == EINTR);
    if (r < 0)
        return -errno;
    got = take_fds(&msg, fds, max);
    if (r == 0 && got == 0)
        return -ECONNRESET;
    if (got >= 0 && got == count && count > 0 && !(msg.msg_flags & MSG_CTRUNC)) {
        *n = got;
        return 0;
    }
    for (int i = 0; i < got; i++)
        close(fds[i]);
    return -EBADMSG;
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int symm_boot_key_parse(const char *hex, uint8_t key[SYMM_BOOT_KEY_LEN])
{
    if (!hex || strlen(hex) != 2 * SYMM_BOOT_KEY_LEN)
        return -EINVAL;
    for (int i = 0; i < SYMM_BOOT_KEY_LEN; i++) {
        int hi = hex_value(hex[2 * i]), lo = hex_value(hex[2 * i + 1]);

        if (hi < 0 || lo < 0)
            return -EINVAL;
        key[i] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}

void symm_boot_key_format(const uint8_t key[SYMM_BOOT_KEY_LEN], char hex[2 * SYMM_BOOT_KEY_LEN + 1])
{
    static const char digits[] = "0123456789abcdef";

    for (int i = 0; i < SYMM_BOOT_KEY_LEN; i++) {
        hex[2 * i] = digits[key[i] >> 4];
        hex[2 * i + 1] = digits[key[i] & 15];
    }
    hex[2 * SYMM_BOOT_KEY_LEN] = '\0';
}

int64_t symm_boot_now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
