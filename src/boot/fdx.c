/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/* Who runs where, and the descriptor exchange between the PEs of one host (see fdx.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "base/logfmt.h"
#include "boot/fdx.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#define HOST_LEN 64
#define MAX_FDS 8
/* A member that sends nothing for this long ends the exchange. */
#define RECV_WAIT_S 60

void symm_boot_error(const symm_boot_ops_t *ops, const char *fmt, ...)
{
    char line[512];
    int k;
    va_list ap;

    k = symm_log_prefix(line, sizeof(line), ops->rank, NULL);
    k += snprintf(line + k, sizeof(line) - (size_t)k, "bootstrap (%s): ", ops->name);
    va_start(ap, fmt);
    vsnprintf(line + k, sizeof(line) - (size_t)k, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", line);
}

/* The abstract socket of rank r: the job's key, the user, the rank. */
static socklen_t sock_name(const symm_fdx_t *x, int r, struct sockaddr_un *a)
{
    int n;

    memset(a, 0, sizeof(*a));
    a->sun_family = AF_UNIX;
    n = snprintf(a->sun_path + 1, sizeof(a->sun_path) - 1, "symm-%s-%u-%016llx-%d", x->what,
                 (unsigned)getuid(), (unsigned long long)x->key, r);
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
}

/* Every rank's host and process, and the card of its start (symm_boot_cards). */
struct whoami {
    char host[HOST_LEN];
    int64_t pid;
};

symm_status_t symm_fdx_start(symm_fdx_t *x)
{
    const int size = x->ops->size;
    const size_t clen = symm_boot_cards.len, rec = sizeof(struct whoami) + clen;
    struct whoami *mine = calloc(1, rec);
    char *all = malloc((size_t)size * rec), *cards = clen ? malloc((size_t)size * clen) : NULL;
    int *host = malloc((size_t)size * sizeof(int));
    struct sockaddr_un a;
    socklen_t alen = sock_name(x, x->ops->rank, &a);
    symm_status_t st = SYMM_ERR_NOMEM;

    x->pids = malloc((size_t)size * sizeof(*x->pids));
    if (!mine || !all || (clen && !cards) || !host || !x->pids)
        goto out;
    x->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (x->listen_fd < 0 || bind(x->listen_fd, (struct sockaddr *)&a, alen) != 0 ||
        listen(x->listen_fd, SOMAXCONN) != 0) {
        symm_boot_error(x->ops, "cannot listen for descriptors: %s", strerror(errno));
        st = SYMM_ERR_BOOT;
        goto out;
    }
    mine->pid = (int64_t)getpid();
    /* SYMM_HOST_NAME stands in for the host's name: PEs of one machine that say different
     * names form the nodes of a job of several hosts, which is how that job is tested here. */
    if (*symm_boot_params->host_name)
        snprintf(mine->host, sizeof(mine->host), "%s", symm_boot_params->host_name);
    else
        gethostname(mine->host, sizeof(mine->host) - 1);
    if (clen)
        memcpy(mine + 1, symm_boot_cards.mine, clen);
    /* This allgather also has every socket listening before any exchange. */
    st = x->ops->allgather(mine, rec, all);
    for (int r = 0, hosts = 0; r < size && st == SYMM_OK; r++) {
        const struct whoami *w = (const struct whoami *)(all + (size_t)r * rec);

        x->pids[r] = (pid_t)w->pid;
        if (clen)
            memcpy(cards + (size_t)r * clen, w + 1, clen);
        host[r] = -1;
        for (int q = 0; q < r && host[r] < 0; q++)
            if (!strncmp(((const struct whoami *)(all + (size_t)q * rec))->host, w->host,
                         HOST_LEN))
                host[r] = host[q];
        if (host[r] < 0)
            host[r] = hosts++;
    }
out:
    free(mine);
    free(all);
    if (st != SYMM_OK) {
        free(cards);
        free(host);
        return st;
    }
    symm_boot_cards.all = cards;
    x->ops->host = host;
    return st;
}

/* One message: the sender's rank and count, its descriptors attached. */
struct fd_msg {
    int32_t rank;
    int32_t n;
    uint32_t seq; /* the exchange it belongs to */
};

/* A message of the next exchange, taken while this PE still finished the last. */
struct symm_fdx_early {
    uint32_t seq;
    int rank;
    int n;
    int fds[MAX_FDS];
};

static symm_status_t send_fds(const symm_fdx_t *x, int to, const int *fds, int n)
{
    struct sockaddr_un a;
    socklen_t alen = sock_name(x, to, &a);
    struct fd_msg m = {.rank = x->ops->rank, .n = n, .seq = x->seq};
    struct iovec iov = {.iov_base = &m, .iov_len = sizeof(m)};
    union {
        char buf[CMSG_SPACE(sizeof(int) * MAX_FDS)];
        struct cmsghdr align;
    } ctl;
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
    struct cmsghdr *c;
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

    if (s < 0 || connect(s, (struct sockaddr *)&a, alen) != 0) {
        symm_boot_error(x->ops, "cannot reach pe %d of this host (%s)", to, strerror(errno));
        if (s >= 0)
            close(s);
        return SYMM_ERR_BOOT;
    }
    if (n > 0) {
        memset(&ctl, 0, sizeof(ctl));
        msg.msg_control = ctl.buf;
        msg.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)n);
        c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)n);
        memcpy(CMSG_DATA(c), fds, sizeof(int) * (size_t)n);
    }
    if (sendmsg(s, &msg, MSG_NOSIGNAL) != (ssize_t)sizeof(m)) {
        symm_boot_error(x->ops, "sending descriptors to pe %d: %s", to, strerror(errno));
        close(s);
        return SYMM_ERR_BOOT;
    }
    close(s);
    return SYMM_OK;
}

/* Closes the descriptors a message carried (a refused or malformed one). */
static void close_carried(struct msghdr *msg)
{
    for (struct cmsghdr *k = CMSG_FIRSTHDR(msg); k; k = CMSG_NXTHDR(msg, k))
        if (k->cmsg_level == SOL_SOCKET && k->cmsg_type == SCM_RIGHTS)
            for (size_t i = 0; i < (k->cmsg_len - CMSG_LEN(0)) / sizeof(int); i++)
                close(((int *)CMSG_DATA(k))[i]);
}

/* Whether pid is one of the group's processes. */
static int group_pid(const symm_fdx_t *x, int first, int count, pid_t pid)
{
    for (int r = first; r < first + count; r++)
        if (x->pids[r] == pid)
            return 1;
    return 0;
}

/* Takes a message of this exchange that came early, if there is one. */
static int take_early(symm_fdx_t *x, int n, int *out)
{
    for (int i = 0; i < x->n_early; i++) {
        struct symm_fdx_early *e = &x->early[i];

        if (e->seq != x->seq || e->n != n || (n > 0 && out[(size_t)e->rank * (size_t)n] >= 0))
            continue;
        memcpy(out + (size_t)e->rank * (size_t)n, e->fds, sizeof(int) * (size_t)n);
        *e = x->early[--x->n_early];
        return 1;
    }
    return 0;
}

/* Keeps a message of the next exchange (a member that finished this one sends it while this
 * PE still waits for a message of this one). */
static symm_status_t keep_early(symm_fdx_t *x, const struct fd_msg *m, const int *fds)
{
    struct symm_fdx_early *e = realloc(x->early, (size_t)(x->n_early + 1) * sizeof(*e));

    if (!e)
        return SYMM_ERR_NOMEM;
    x->early = e;
    e = &x->early[x->n_early++];
    *e = (struct symm_fdx_early){.seq = m->seq, .rank = m->rank, .n = m->n};
    memcpy(e->fds, fds, sizeof(int) * (size_t)m->n);
    return SYMM_OK;
}

/* Accepts the next sender of the group and stores its descriptors at out[rank * n]. A
 * connection from a process outside the group is dropped unread (any local process can reach
 * an abstract socket); one that names another rank than its own, or sends nothing for
 * RECV_WAIT_S, ends the exchange. A message of the next exchange is kept for it. PIDs are
 * compared as this PE sees them: the PEs of a host share a PID namespace. */
static symm_status_t recv_fds(symm_fdx_t *x, int first, int count, int n, int *out)
{
    struct fd_msg m;
    struct iovec iov = {.iov_base = &m, .iov_len = sizeof(m)};
    union {
        char buf[CMSG_SPACE(sizeof(int) * MAX_FDS)];
        struct cmsghdr align;
    } ctl;
    struct msghdr msg;
    struct cmsghdr *c;
    struct ucred cred;
    struct timeval tv = {.tv_sec = RECV_WAIT_S};
    socklen_t clen;
    ssize_t got;
    int s, mn;

    if (take_early(x, n, out))
        return SYMM_OK;
next:
    for (;;) {
        s = accept4(x->listen_fd, NULL, NULL, SOCK_CLOEXEC);
        if (s < 0) {
            if (errno == EINTR)
                continue;
            symm_boot_error(x->ops, "accepting a peer's descriptors: %s", strerror(errno));
            return SYMM_ERR_BOOT;
        }
        clen = sizeof(cred);
        if (getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cred, &clen) == 0 &&
            group_pid(x, first, count, cred.pid))
            break;
        close(s);
    }
    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    memset(&msg, 0, sizeof(msg));
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = ctl.buf;
    msg.msg_controllen = sizeof(ctl.buf);
    got = recvmsg(s, &msg, MSG_CMSG_CLOEXEC);
    close(s);
    if (got < 0) {
        symm_boot_error(x->ops, "receiving a peer's descriptors: %s", strerror(errno));
        return SYMM_ERR_BOOT;
    }
    c = CMSG_FIRSTHDR(&msg);
    mn = got == (ssize_t)sizeof(m) && m.seq == x->seq + 1 && m.n >= 0 && m.n <= MAX_FDS ? m.n : n;
    if (got != (ssize_t)sizeof(m) || (msg.msg_flags & MSG_CTRUNC) || m.n != mn ||
        (m.seq != x->seq && m.seq != x->seq + 1) || m.rank < first ||
        m.rank >= first + count || m.rank == x->ops->rank || cred.pid != x->pids[m.rank] ||
        (m.seq == x->seq && n > 0 && out[(size_t)m.rank * (size_t)n] >= 0) ||
        (mn > 0 && (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
                    c->cmsg_len != CMSG_LEN(sizeof(int) * (size_t)mn)))) {
        symm_boot_error(x->ops,
                        "a descriptor message out of step (%zd bytes from process %d, "
                        "naming pe %d, exchange %u and %d descriptors; expected exchange %u "
                        "and %d)",
                        got, (int)cred.pid, (int)m.rank, (unsigned)m.seq, (int)m.n,
                        (unsigned)x->seq, n);
        close_carried(&msg);
        return SYMM_ERR_BOOT;
    }
    if (m.seq != x->seq) {
        if (keep_early(x, &m, mn > 0 ? (const int *)CMSG_DATA(c) : NULL) != SYMM_OK) {
            close_carried(&msg);
            return SYMM_ERR_NOMEM;
        }
        goto next;
    }
    if (n > 0)
        memcpy(out + (size_t)m.rank * (size_t)n, CMSG_DATA(c), sizeof(int) * (size_t)n);
    return SYMM_OK;
}

/* Round k sends to the member k ahead and then accepts one sender: a PE is never more than
 * one send ahead of what it has taken, so few descriptors are in flight at once (the kernel
 * limits them per user) and listen queues stay short. Every member sends in round k before
 * it waits in round k, so each round's accept finds a sender. */
symm_status_t symm_fdx_exchange(symm_fdx_t *x, const int *fds, int n, int first, int count,
                                int *out)
{
    const int size = x->ops->size, mine = x->ops->rank;
    symm_status_t st = SYMM_OK;

    if (n < 0 || n > MAX_FDS || first < 0 || count < 1 || first + count > size || mine < first ||
        mine >= first + count)
        return SYMM_ERR_INVALID;
    for (int i = 0; i < size * n; i++)
        out[i] = -1;
    for (int k = 1; k < count && st == SYMM_OK; k++) {
        st = send_fds(x, first + (mine - first + k) % count, fds, n);
        if (st == SYMM_OK)
            st = recv_fds(x, first, count, n, out);
    }
    for (int i = 0; i < n && st == SYMM_OK; i++) {
        out[(size_t)mine * n + i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 0);
        if (out[(size_t)mine * n + i] < 0)
            st = SYMM_ERR_BOOT;
    }
    x->seq++;
    if (st != SYMM_OK) {
        for (int i = 0; i < size * n; i++) {
            if (out[i] >= 0)
                close(out[i]);
            out[i] = -1;
        }
    }
    return st;
}

void symm_fdx_close(symm_fdx_t *x)
{
    if (x->listen_fd >= 0)
        close(x->listen_fd);
    x->listen_fd = -1;
    free(x->pids);
    x->pids = NULL;
    for (int i = 0; i < x->n_early; i++)
        for (int k = 0; k < x->early[i].n; k++)
            close(x->early[i].fds[k]);
    free(x->early);
    x->early = NULL;
    x->n_early = 0;
    free((void *)x->ops->host);
    x->ops->host = NULL;
}
