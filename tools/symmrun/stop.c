/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Stopping the job: the first failure (a PE's death or abort, a timeout, a signal, a broken
 * protocol) names the cause and signals every PE, SIGKILL follows after a grace period; and
 * reaping the PEs, whose exit statuses decide the job's.
 */
#include "symmrun.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/wait.h>

#define TERM_GRACE_MS 300 /* SIGTERM first; SIGKILL for whatever is left after this */

static void mute_conns(void)
{
    for (struct conn *c = job.conns; c; c = c->next)
        watch(EPOLL_CTL_DEL, c->fd, 0, NULL);
    watch(EPOLL_CTL_DEL, job.lfd, 0, NULL);
}

/* The first failure stops the job and names it; later ones are its consequences. The PEs'
 * sockets stay open until we exit, so none of them sees a broken bootstrap before the signal. */
void stop(int code, int sig, const char *fmt, ...)
{
    va_list ap;

    if (job.stopping)
        return;
    job.stopping = true;
    job.code = code;
    va_start(ap, fmt);
    vsnprintf(job.report, sizeof(job.report), fmt, ap);
    va_end(ap);
    signal_pes(sig);
    job.kill_at = symm_boot_now_ms() + TERM_GRACE_MS;
    mute_conns();
}

void kill_now(void)
{
    signal_pes(SIGKILL);
    kill_children(SIGKILL);
    job.kill_at = 0;
    job.give_up_at = symm_boot_now_ms() + REAP_LIMIT_MS;
}

/* The report line for a PE that ended before finalizing; returns the job's exit status. */
static int describe_exit(int rank, char *buf, size_t size)
{
    struct pe *p = &job.pe[rank];
    int sig = p->status - 128;

    if (p->status > 128) {
        snprintf(buf, size, "pe %d (pid %d) killed by signal %d (%s); stopping the job", rank,
                 (int)p->pid, sig, strsignal(sig));
        return p->status;
    }
    if (p->status) {
        snprintf(buf, size, "pe %d exited with status %d; stopping the job", rank, p->status);
        return p->status;
    }
    snprintf(buf, size, "pe %d (pid %d) exited without calling shmem_finalize; stopping the job",
             rank, (int)p->pid);
    return 1;
}

static void stop_for_status(int rank)
{
    char why[256];
    int code = describe_exit(rank, why, sizeof(why));

    stop(code, SIGTERM, "%s", why);
}

static void pe_exited(int rank, const siginfo_t *si)
{
    struct pe *p = &job.pe[rank];

    p->exited = true;
    p->status = si->si_code == CLD_EXITED ? si->si_status : 128 + si->si_status;
    job.live--;
    if (p->lost_at)
        job.lost--;
    if (rank == 0)
        relay_close();
    if (job.stopping && rank == job.refine)
        job.code = describe_exit(rank, job.report, sizeof(job.report));
    if (job.stopping)
        return;
    /* Whatever it sent before exiting (FINALIZE, ABORT) is still in the socket. */
    if (p->conn)
        conn_read(p->conn);
    if (p->conn)
        conn_gone(p->conn);
    if (job.stopping)
        return;
    if (p->status > job.worst)
        job.worst = p->status;
    /* After FINALIZE nobody can wait for this PE any more, so its exit stops nothing; a
     * failure is still reported. */
    if (!p->finalized && (p->hello || p->status)) {
        stop_for_status(rank);
        return;
    }
    if (p->status)
        say("pe %d (pid %d) %s %d after shmem_finalize", rank, (int)p->pid,
            p->status > 128 ? "was killed by signal" : "exited with status",
            p->status > 128 ? p->status - 128 : p->status);
    round_check();
}

void reap(void)
{
    for (;;) {
        siginfo_t si = {0};
        int rank;

        if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0) {
            if (errno == EINTR)
                continue;
            if (errno == ECHILD)
                job.nochild = true;
            return;
        }
        if (!si.si_pid)
            return;
        rank = pe_of_pid(si.si_pid);
        /* The zombie still holds the group id, so the group cannot be a stranger's yet. */
        if (rank >= 0)
            kill(-si.si_pid, SIGKILL);
        while (waitpid(si.si_pid, NULL, 0) < 0 && errno == EINTR)
            ;
        if (rank >= 0)
            pe_exited(rank, &si);
    }
}
