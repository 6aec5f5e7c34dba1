/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The `launcher` bootstrap: the PE side of symmrun's socket (protocol in proto.h). symmrun
 * serves every collective, so a PE holds one blocking connection and makes one round trip per
 * call. A broken connection means symmrun is gone or the stream is out of step; the socket is
 * closed then and every later call fails with SYMM_ERR_BOOT.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "base/logfmt.h"
#include "boot/boot.h"
#include "boot/proto.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* abort waits this long for symmrun to stop the job, then exits by itself. */
#define ABORT_WAIT_MS 1000

static int sock = -1;
/* Whole messages go out under this lock: abort may come from another thread while a collective
 * is in flight, and its message must not land inside the collective's. */
static pthread_mutex_t send_lock = PTHREAD_MUTEX_INITIALIZER;
static symm_boot_ops_t launcher_ops;

static void boot_error(const char *fmt, ...)
{
    char line[512];
    int k;
    va_list ap;

    k = symm_log_prefix(line, sizeof(line), launcher_ops.rank, NULL);
    k += snprintf(line + k, sizeof(line) - (size_t)k, "bootstrap: ");
    va_start(ap, fmt);
    vsnprintf(line + k, sizeof(line) - (size_t)k, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", line);
}

static void drop(void)
{
    pthread_mutex_lock(&send_lock);
    if (sock >= 0)
        close(sock);
    sock = -1;
    pthread_mutex_unlock(&send_lock);
}

/* The stream can no longer be trusted: report, drop the connection. */
static symm_status_t broken(const char *call, int err)
{
    if (err == -ECONNRESET || err == -EPIPE)
        boot_error("%s: lost the connection to symmrun", call);
    else
        boot_error("%s: %s", call, strerror(-err));
    drop();
    return SYMM_ERR_BOOT;
}

static symm_status_t not_connected(const char *call)
{
    boot_error("%s: not connected to symmrun (finalized, or the connection broke)", call);
    return SYMM_ERR_BOOT;
}

static symm_status_t send_request(const char *call, const struct symm_boot_hdr *h,
                                  const void *payload, const int *fds, int nfds)
{
    int err = 0, fd;

    pthread_mutex_lock(&send_lock);
    fd = sock;
    if (fd >= 0)
        err = symm_boot_send_msg(fd, h, payload);
    for (int i = 0; fd >= 0 && !err && i < nfds; i += SYMM_BOOT_FDS_PER_MSG) {
        int k = nfds - i < SYMM_BOOT_FDS_PER_MSG ? nfds - i : SYMM_BOOT_FDS_PER_MSG;

        err = symm_boot_send_fds(fd, fds + i, k);
    }
    pthread_mutex_unlock(&send_lock);
    if (fd < 0)
        return not_connected(call);
    return err ? broken(call, err) : SYMM_OK;
}

static symm_status_t recv_reply(const char *call, uint32_t type, uint64_t len)
{
    struct symm_boot_hdr h;
    int err = symm_boot_recv_all(sock, &h, sizeof(h));

    if (err)
        return broken(call, err);
    if (h.type != type || h.len != len) {
        boot_error("%s: symmrun answered message %u of %llu bytes, expected %u of %llu", call,
                   h.type, (unsigned long long)h.len, type, (unsigned long long)len);
        return broken(call, -EPROTO);
    }
    return SYMM_OK;
}

static symm_status_t launcher_allgather(const void *in, size_t len, void *out)
{
    struct symm_boot_hdr h = {.type = SYMM_BOOT_ALLGATHER, .rank = launcher_ops.rank, .len = len};
    size_t total;
    symm_status_t st;
    int err;

    if (__builtin_mul_overflow(len, (size_t)launcher_ops.size, &total)) {
        boot_error("allgather: %zu bytes from each of %d PEs is too much", len, launcher_ops.size);
        return SYMM_ERR_INVALID;
    }
    st = send_request("allgather", &h, in, NULL, 0);
    if (st)
        return st;
    st = recv_reply("allgather", SYMM_BOOT_ALLGATHER, total);
    if (st)
        return st;
    err = symm_boot_recv_all(sock, out, total);
    return err ? broken("allgather", err) : SYMM_OK;
}

static symm_status_t launcher_barrier(void)
{
    return launcher_allgather(NULL, 0, NULL);
}

static symm_status_t recv_fds(int *out, int total)
{
    uint64_t chunks = symm_boot_fd_chunks((uint64_t)total);
    int got = 0, k, err = 0;

    for (uint64_t c = 0; c < chunks && !err; c++) {
        err = symm_boot_recv_fds(sock, out + got, total - got, &k);
        if (!err)
            got += k;
    }
    if (!err && got == total)
        return SYMM_OK;
    while (got--)
        close(out[got]);
    return broken("exchange_fds", err ? err : -EBADMSG);
}

/* symmrun passes every PE's descriptors to every PE (one host); those of other groups are
 * closed here. */
static symm_status_t launcher_exchange_fds(const int *fds, int n, int first, int count, int *out)
{
    struct symm_boot_hdr h = {.type = SYMM_BOOT_FDS, .rank = launcher_ops.rank};
    long long total = (long long)n * launcher_ops.size;
    symm_status_t st;

    if (n < 0 || total > INT_MAX) {
        boot_error("exchange_fds: cannot exchange %d descriptors from each of %d PEs", n,
                   launcher_ops.size);
        return SYMM_ERR_INVALID;
    }
    h.len = symm_boot_fd_chunks((uint64_t)n);
    st = send_request("exchange_fds", &h, NULL, fds, n);
    if (st)
        return st;
    st = recv_reply("exchange_fds", SYMM_BOOT_FDS, symm_boot_fd_chunks((uint64_t)total));
    if (st == SYMM_OK)
        st = recv_fds(out, (int)total);
    for (int r = 0; st == SYMM_OK && r < launcher_ops.size; r++)
        for (int i = 0; (r < first || r >= first + count) && i < n; i++) {
            close(out[(size_t)r * n + i]);
            out[(size_t)r * n + i] = -1;
        }
    return st;
}

/* symmrun answers ABORT by stopping the job, this process included; wait for that so the job
 * ends with one report, and exit by ourselves only if it does not come. */
static void wait_for_stop(int fd)
{
    int64_t end = symm_boot_now_ms() + ABORT_WAIT_MS, left;
    struct pollfd p = {.fd = fd, .events = POLLRDHUP};

    while ((left = end - symm_boot_now_ms()) > 0)
        if (poll(&p, 1, (int)left) > 0)
            return;
}

static void launcher_abort(int status, const char *why)
{
    char msg[sizeof(int32_t) + SYMM_BOOT_ABORT_TEXT_MAX];
    size_t len = why ? strnlen(why, SYMM_BOOT_ABORT_TEXT_MAX) : 0;
    int32_t st = status;
    struct symm_boot_hdr h = {
        .type = SYMM_BOOT_ABORT, .rank = launcher_ops.rank, .len = sizeof(st) + len};
    int err = -ENOTCONN, fd;

    memcpy(msg, &st, sizeof(st));
    if (len)
        memcpy(msg + sizeof(st), why, len);
    pthread_mutex_lock(&send_lock);
    fd = sock;
    if (fd >= 0)
        err = symm_boot_send_msg(fd, &h, msg);
    pthread_mutex_unlock(&send_lock);
    if (err)
        return;
    wait_for_stop(fd);
    _exit(status);
}

static void launcher_finalize(void)
{
    struct symm_boot_hdr h = {.type = SYMM_BOOT_FINALIZE, .rank = launcher_ops.rank};

    pthread_mutex_lock(&send_lock);
    if (sock >= 0) {
        symm_boot_send_msg(sock, &h, NULL);
        close(sock);
        sock = -1;
    }
    pthread_mutex_unlock(&send_lock);
}

static symm_boot_ops_t launcher_ops = {
    .name = "launcher",
    .rank = -1,
    .size = 0,
    .allgather = launcher_allgather,
    .barrier = launcher_barrier,
    .exchange_fds = launcher_exchange_fds,
    .abort = launcher_abort,
    .finalize = launcher_finalize,
};

static int env_int(const char *name, const char *s, long lo, long hi)
{
    char *end;
    long v;

    if (!s || !*s) {
        boot_error("%s is not set; start the program with symmrun", name);
        return -1;
    }
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > hi) {
        boot_error("%s='%s' is not a number from %ld to %ld", name, s, lo, hi);
        return -1;
    }
    return (int)v;
}

static symm_status_t read_env(const char **addr, uint8_t key[SYMM_BOOT_KEY_LEN])
{
    const symm_params_t *p = symm_boot_params;
    int size = env_int("SYMM_SIZE", p->size, 1, INT_MAX), rank;

    if (size < 0)
        return SYMM_ERR_INVALID;
    rank = env_int("SYMM_RANK", p->rank, 0, size - 1);
    if (rank < 0)
        return SYMM_ERR_INVALID;
    launcher_ops.rank = rank;
    launcher_ops.size = size;
    *addr = p->boot_addr;
    if (!*addr || !**addr || strlen(*addr) > SYMM_BOOT_ADDR_MAX) {
        boot_error("SYMM_BOOT_ADDR='%s' is not a socket name", *addr ? *addr : "");
        return SYMM_ERR_INVALID;
    }
    if (symm_boot_key_parse(p->boot_key, key)) {
        boot_error("SYMM_BOOT_KEY is not %d hex digits", 2 * SYMM_BOOT_KEY_LEN);
        return SYMM_ERR_INVALID;
    }
    return SYMM_OK;
}

static int connect_to(const char *name)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    size_t len = strlen(name);
    socklen_t salen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + len);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

    if (fd < 0) {
        boot_error("socket: %s", strerror(errno));
        return -1;
    }
    /* Abstract name: sun_path[0] stays NUL, nothing appears in the file system. */
    memcpy(sa.sun_path + 1, name, len);
    while (connect(fd, (struct sockaddr *)&sa, salen) < 0) {
        if (errno == EINTR)
            continue;
        boot_error("cannot reach symmrun at @%s: %s", name, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

symm_status_t symm_boot_launcher_init(const symm_boot_ops_t **out)
{
    uint8_t key[SYMM_BOOT_KEY_LEN];
    struct symm_boot_hdr h = {.type = SYMM_BOOT_HELLO, .len = sizeof(key)};
    const char *addr;
    symm_status_t st;
    int err;

    if (sock >= 0) {
        *out = &launcher_ops;
        return SYMM_OK;
    }
    st = read_env(&addr, key);
    if (st)
        return st;
    sock = connect_to(addr);
    if (sock < 0)
        return SYMM_ERR_BOOT;
    h.rank = (uint32_t)launcher_ops.rank;
    err = symm_boot_send_msg(sock, &h, key);
    if (!err)
        err = symm_boot_recv_all(sock, &h, sizeof(h));
    if (err == -ECONNRESET || err == -EPIPE) {
        boot_error("symmrun refused this process as pe %d (its message says why)",
                   launcher_ops.rank);
        drop();
        return SYMM_ERR_BOOT;
    }
    if (err || h.type != SYMM_BOOT_HELLO || h.len != 0)
        return broken("init", err ? err : -EPROTO);
    *out = &launcher_ops;
    return SYMM_OK;
}
