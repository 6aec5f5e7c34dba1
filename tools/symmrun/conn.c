/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The bootstrap socket's connections: accepting them (this user's processes of this job only),
 * sending replies that may not fit the socket at once, and closing them; a PE whose connection
 * goes away before it finalizes fails the job.
 */
#include "symmrun.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

static void reply_put(struct reply *rep)
{
    if (!rep || --rep->refs)
        return;
    for (int i = 0; i < rep->nfds; i++)
        close(rep->fds[i]);
    free(rep->fds);
    free(rep->data);
    free(rep);
}

static void conn_close(struct conn *c)
{
    if (c->fd < 0)
        return;
    watch(EPOLL_CTL_DEL, c->fd, 0, NULL);
    close(c->fd);
    c->fd = -1;
    if (c->prev)
        c->prev->next = c->next;
    else
        job.conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    if (c->rank >= 0 && job.pe[c->rank].conn == c)
        job.pe[c->rank].conn = NULL;
    reply_put(c->rep);
    c->rep = NULL;
    for (int i = 0; i < c->nfds; i++)
        close(c->fds[i]);
    free(c->fds);
    c->fds = NULL;
    /* Freed after this loop pass: its event may still be in the batch being handled. */
    c->next = job.trash;
    job.trash = c;
}

void empty_trash(void)
{
    while (job.trash) {
        struct conn *c = job.trash;

        job.trash = c->next;
        free(c);
    }
}

void reject(struct conn *c, const char *fmt, ...)
{
    char why[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    say("rejected a bootstrap connection from pid %d: %s", (int)c->pid, why);
    conn_close(c);
}

/* The PE went away from its socket (EOF, or a send to it failed). */
void conn_gone(struct conn *c)
{
    struct pe *p = c->rank >= 0 ? &job.pe[c->rank] : NULL;

    conn_close(c);
    if (!p || p->finalized || p->exited || p->lost_at || job.stopping)
        return;
    /* Dying (its exit may take long, e.g. while a GPU context is torn down): stop the others
     * now, and let its exit status name the cause once it comes. */
    if (c->pid == p->pid && exiting(c->pid)) {
        stop(1, SIGTERM,
             "pe %d (pid %d) lost its bootstrap connection without calling "
             "shmem_finalize; stopping the job",
             c->rank, (int)p->pid);
        job.refine = c->rank;
        return;
    }
    /* A descendant held the connection, or the PE closed it and lives on: give its exit
     * status a moment to come, it makes the better report. */
    p->lost_at = symm_boot_now_ms();
    job.lost++;
}

void conn_send(struct conn *c, struct reply *rep)
{
    if (!c || c->fd < 0) {
        reply_put(rep);
        return;
    }
    c->out = (struct symm_boot_hdr){.type = rep->type, .rank = (uint32_t)c->rank, .len = rep->len};
    c->sent = 0;
    c->rep = rep;
    conn_write(c);
}

struct reply *reply_new(uint32_t type, int refs)
{
    struct reply *rep = calloc(1, sizeof(*rep));

    if (!rep) {
        stop(1, SIGTERM, "out of memory serving the bootstrap; stopping the job");
        return NULL;
    }
    rep->type = type;
    rep->refs = refs;
    return rep;
}

static int write_fd_chunk(struct conn *c)
{
    struct reply *rep = c->rep;
    int first = (int)(c->sent - sizeof(c->out)) * SYMM_BOOT_FDS_PER_MSG;
    int cnt = rep->nfds - first < SYMM_BOOT_FDS_PER_MSG ? rep->nfds - first : SYMM_BOOT_FDS_PER_MSG;
    int err = symm_boot_send_fds(c->fd, rep->fds + first, cnt);

    if (!err)
        c->sent++;
    return err;
}

/* Sends as much of the pending reply as the socket takes: header and bytes, then descriptor
 * chunks one by one. */
static int conn_write_some(struct conn *c)
{
    const uint64_t hl = sizeof(c->out);
    struct reply *rep = c->rep;
    uint64_t done = c->sent > hl ? c->sent - hl : 0;
    struct iovec iov[2] = {
        {.iov_base = (char *)&c->out + (c->sent < hl ? c->sent : hl),
         .iov_len = c->sent < hl ? hl - c->sent : 0},
        {.iov_base = rep->data ? rep->data + done : NULL,
         .iov_len = rep->data ? rep->len - done : 0},
    };
    ssize_t n;

    if (c->sent >= hl && rep->type == SYMM_BOOT_FDS)
        return write_fd_chunk(c);
    n = sendmsg(c->fd, &(struct msghdr){.msg_iov = iov, .msg_iovlen = 2},
                MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0)
        return -errno;
    c->sent += (uint64_t)n;
    return 0;
}

static void conn_arm(struct conn *c, bool out)
{
    if (c->writing == out)
        return;
    if (!watch(EPOLL_CTL_MOD, c->fd, EPOLLIN | (out ? EPOLLOUT : 0), &c->src))
        c->writing = out;
}

void conn_write(struct conn *c)
{
    while (c->fd >= 0 && c->rep && !job.stopping) {
        int err = conn_write_some(c);

        if (err == -EAGAIN) {
            conn_arm(c, true);
            return;
        }
        if (err == -ETOOMANYREFS) {
            stop(1, SIGTERM,
                 "too many descriptors in flight to the PEs (ulimit -n is %llu); "
                 "stopping the job",
                 (unsigned long long)job.nofile.rlim_max);
            return;
        }
        if (err && err != -EINTR) {
            conn_gone(c);
            return;
        }
        if (c->sent == sizeof(c->out) + c->rep->len) {
            reply_put(c->rep);
            c->rep = NULL;
            conn_arm(c, false);
        }
    }
}

static void accept_one(int fd)
{
    struct ucred cr;
    socklen_t len = sizeof(cr);
    struct conn *c;

    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) < 0 || cr.uid != job.uid) {
        say("rejected a bootstrap connection from pid %d: not this user's process",
            len == sizeof(cr) ? (int)cr.pid : -1);
        close(fd);
        return;
    }
    c = calloc(1, sizeof(*c));
    if (!c) {
        close(fd);
        return;
    }
    *c = (struct conn){.src = {SRC_CONN}, .fd = fd, .rank = -1, .pid = cr.pid};
    c->owner = owner_of(cr.pid);
    c->next = job.conns;
    if (job.conns)
        job.conns->prev = c;
    job.conns = c;
    if (c->owner < 0)
        reject(c, "not a process of this job");
    else if (watch(EPOLL_CTL_ADD, fd, EPOLLIN, &c->src) < 0)
        reject(c, "epoll: %s", strerror(errno));
}

void accept_conns(void)
{
    while (!job.stopping) {
        int fd = accept4(job.lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

        if (fd >= 0) {
            accept_one(fd);
            continue;
        }
        if (errno == EINTR || errno == ECONNABORTED)
            continue;
        if (errno != EAGAIN)
            stop(1, SIGTERM, "accept on the bootstrap socket: %s; stopping the job",
                 strerror(errno));
        return;
    }
}
