/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The loop: one epoll set for the output pipes, the terminal, the socket and its connections,
 * and the signals (a signalfd; SIGCHLD reaps); the deadlines (the job's timeout, SIGKILL after
 * the grace period, a lost PE's exit status, a held line) set the wait's timeout.
 */
#include "symmrun.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#define LOST_GRACE_MS 200 /* a PE's socket closed early: wait this long for its exit status */
#define EXIT_TIMEOUT 124

int watch(int op, int fd, uint32_t events, struct src *src)
{
    struct epoll_event ev = {.events = events, .data.ptr = src};

    return epoll_ctl(job.ep, op, fd, &ev);
}

static void on_signal(int sig)
{
    if (sig == SIGCHLD)
        reap();
    else if (sig == SIGCONT)
        relay_listen(true);
    else if (job.stopping)
        kill_now();
    else
        stop(128 + sig, sig, "got signal %d (%s); stopping the job", sig, strsignal(sig));
}

static void read_signals(void)
{
    struct signalfd_siginfo si;

    while (read(job.sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
        on_signal((int)si.ssi_signo);
}

static void dispatch(struct src *src, uint32_t events)
{
    struct stream *s = (struct stream *)src;
    struct conn *c = (struct conn *)src;

    switch (src->kind) {
    case SRC_LISTEN:
        accept_conns();
        break;
    case SRC_STREAM:
        if (s->fd >= 0)
            stream_read(s);
        break;
    case SRC_CONN:
        if (events & EPOLLOUT)
            conn_write(c);
        if (events & ~EPOLLOUT)
            conn_read(c);
        break;
    case SRC_STDIN:
        relay_read();
        break;
    case SRC_STDIN_PIPE:
        relay_write();
        break;
    case SRC_SIGNALS:
        break;
    }
}

static void timed_out(void)
{
    static char running[sizeof(job.report) - 128];

    list_ranks(running, sizeof(running), false);
    stop(EXIT_TIMEOUT, SIGTERM, "timeout after %g s; stopping the job (pes still running: %s)",
         job.timeout, running);
}

static void check_lost(int64_t t)
{
    for (int i = 0; i < job.n && job.lost && !job.stopping; i++) {
        struct pe *p = &job.pe[i];

        if (p->lost_at && !p->exited && t >= p->lost_at + LOST_GRACE_MS)
            stop(1, SIGTERM,
                 "pe %d (pid %d) closed its bootstrap connection without calling "
                 "shmem_finalize; stopping the job",
                 i, (int)p->pid);
    }
}

static void timers(void)
{
    int64_t t = symm_boot_now_ms();

    if (!job.stopping && job.deadline && t >= job.deadline)
        timed_out();
    if (!job.stopping && job.lost)
        check_lost(t);
    if (job.stopping && job.kill_at && t >= job.kill_at)
        kill_now();
    if (job.partials)
        flush_old_parts(t);
}

static int next_wait(void)
{
    int64_t t = symm_boot_now_ms(), next = INT64_MAX;

    if (!job.stopping && job.deadline)
        next = job.deadline;
    if (job.stopping && job.kill_at && job.kill_at < next)
        next = job.kill_at;
    if (job.give_up_at && job.give_up_at < next)
        next = job.give_up_at;
    if (job.partials && oldest_part() + FLUSH_MS < next)
        next = oldest_part() + FLUSH_MS;
    for (int i = 0; i < job.n && job.lost && !job.stopping; i++)
        if (job.pe[i].lost_at && job.pe[i].lost_at + LOST_GRACE_MS < next)
            next = job.pe[i].lost_at + LOST_GRACE_MS;
    if (next == INT64_MAX)
        return -1;
    return next <= t ? 0 : (int)(next - t < INT_MAX ? next - t : INT_MAX);
}

/* Every PE has been reaped: end once their leftovers are gone and the pipes are empty. */
static bool job_done(void)
{
    if (job.live)
        return false;
    if (!job.swept) {
        job.swept = true;
        job.give_up_at = symm_boot_now_ms() + REAP_LIMIT_MS;
        if (!job.nochild)
            kill_children(SIGKILL);
    }
    if (job.nochild && !job.streams)
        return true;
    return symm_boot_now_ms() >= job.give_up_at;
}

void loop(void)
{
    struct epoll_event ev[64];

    while (!job_done()) {
        int n = epoll_wait(job.ep, ev, 64, next_wait());

        if (n < 0 && errno != EINTR) {
            say("epoll_wait: %s; stopping the job", strerror(errno));
            kill_all_and_wait();
            exit(1);
        }
        /* Sockets before child exits: a PE's last messages precede its death. */
        for (int i = 0; i < n; i++)
            dispatch(ev[i].data.ptr, ev[i].events);
        for (int i = 0; i < n; i++)
            if (((struct src *)ev[i].data.ptr)->kind == SRC_SIGNALS)
                read_signals();
        timers();
        empty_trash();
    }
}
