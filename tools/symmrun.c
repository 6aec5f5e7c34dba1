/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * symmrun, the job launcher: starts the N PEs of a program on this host, serves their bootstrap
 * (protocol in src/boot/proto.h) over a private abstract Unix socket, forwards their output line
 * by line, and brings the whole job down as soon as one PE fails or aborts, the job times out,
 * or symmrun itself is signalled. One thread and one epoll loop serve everything: the output
 * pipes, the socket and its connections, child exits and signals (signalfd), and the deadlines
 * (the loop's timeout). It only forks and execs: nothing here may initialise CUDA.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "boot/proto.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_PES 4096
#define TERM_GRACE_MS 300  /* SIGTERM first; SIGKILL for whatever is left after this */
#define LOST_GRACE_MS 200  /* a PE's socket closed early: wait this long for its exit status */
#define REAP_LIMIT_MS 1500 /* stop waiting for processes stuck in the kernel after SIGKILL */
#define KEEP_MAX (1 << 20) /* longest unfinished line held back; longer ones go out in pieces */
#define FLUSH_MS 100       /* an unfinished line waits at most this long for its end */
#define READ_CHUNK 65536
#define EXIT_USAGE 2
#define EXIT_NOEXEC 127
#define EXIT_TIMEOUT 124

static const char usage[] =
    "usage: symmrun [-n N | -np N] [--nodes K] [--tag] [--timeout S] [--bind core|none] [--] "
    "prog [args...]";

enum src_kind { SRC_SIGNALS, SRC_LISTEN, SRC_STDIN, SRC_STDIN_PIPE, SRC_STREAM, SRC_CONN };

/* First member of everything registered with epoll; epoll_event.data.ptr points to it. */
struct src {
    enum src_kind kind;
};

/* One PE's stdout or stderr pipe. */
struct stream {
    struct src src;
    int fd;       /* read end; -1 after EOF */
    int to;       /* where its lines go: 1 or 2 */
    bool midline; /* the last piece forwarded did not end its line */
    size_t keep;  /* bytes of an unfinished line held in part */
    size_t cap;
    char *part;
    int64_t since; /* when part began */
    char tag[24];
};

/* The answer to one collective round, shared by all PEs; freed when the last has it. */
struct reply {
    int refs;
    uint32_t type;
    uint64_t len; /* payload: bytes (allgather), count bytes (fds) */
    uint8_t *data;
    int nfds;
    int *fds;
};

struct conn {
    struct src src;
    int fd;    /* -1 once closed */
    int rank;  /* -1 until HELLO is accepted */
    int owner; /* the PE whose process this is, by ancestry */
    pid_t pid;
    bool writing; /* EPOLLOUT armed */
    struct conn *next, *prev;
    struct symm_boot_hdr in;
    uint64_t got; /* of the message being read: header bytes, then payload units */
    uint8_t *dst; /* where payload bytes go */
    uint8_t small[sizeof(int32_t) + SYMM_BOOT_ABORT_TEXT_MAX];
    int *fds; /* descriptors of an FDS request being read */
    int nfds;
    struct symm_boot_hdr out;
    uint64_t sent;
    struct reply *rep;
};

struct pe {
    pid_t pid;
    bool exited, hello, finalized, in_round;
    int status;      /* shell style: exit code, or 128 + signal */
    int64_t lost_at; /* its socket closed without FINALIZE; 0 if not */
    struct conn *conn;
    struct stream so, se;
};

/* The collective being gathered. At most one is open: a PE asks for the next only after it
 * has the answer to this one, and that answer goes out only when everybody has asked. */
struct round {
    uint32_t type; /* 0: none open */
    int first;     /* the PE that opened it */
    int arrived;
    bool sized;   /* fds: count per PE known */
    uint64_t len; /* bytes or descriptors per PE */
    uint8_t *data;
    int *fds;
};

/* The stdin relay, used only when stdin is a terminal: PE 0 runs in its own process group,
 * and a background group that reads the terminal would be stopped by SIGTTIN. */
struct relay {
    struct src src, pipe_src;
    int wfd; /* PE 0's stdin pipe; -1 when done */
    bool reading, writing;
    size_t len, off;
    char buf[4096];
};

static struct job {
    int n;
    int nodes;    /* virtual nodes: groups of consecutive PEs that reach each other over UCX */
    bool tag;
    int bind;     /* -1: by default (core when PEs fit the CPUs), 0: none, 1: core */
    int ncpus;    /* CPUs this launcher may use, in cpus[] */
    int *cpus;
    double timeout;
    char **argv;
    struct pe *pe;
    pid_t self;
    uid_t uid;
    int ep, sigfd, lfd;
    struct src sig_src, listen_src;
    sigset_t watched, oldmask;
    struct sigaction old_pipe, old_ttin;
    struct rlimit nofile; /* the caller's limit, handed back to the PEs */
    uint8_t key[SYMM_BOOT_KEY_LEN];
    char keyhex[2 * SYMM_BOOT_KEY_LEN + 1];
    char addr[64];
    struct round round;
    struct conn *conns, *trash;
    struct relay relay;
    int live;     /* PEs not yet reaped */
    int lost;     /* PEs within LOST_GRACE_MS */
    int streams;  /* open output pipes */
    int partials; /* streams holding an unfinished line */
    bool nochild, swept, stopping;
    bool out_dead[3];
    struct stream *open[3]; /* --tag: whose unfinished line ends our stdout, stderr */
    int worst;
    int code;
    int refine; /* the PE whose exit status, still to come, names the cause of the stop */
    int64_t deadline, kill_at, give_up_at;
    char report[32768];
} job = {.ep = -1, .sigfd = -1, .lfd = -1, .refine = -1, .relay = {.wfd = -1}};

static void conn_read(struct conn *c);
static void conn_write(struct conn *c);
static void conn_gone(struct conn *c);
static void round_check(void);

static int64_t now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

__attribute__((format(printf, 1, 2))) static void say(const char *fmt, ...)
{
    char line[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    fprintf(stderr, "symmrun: %s\n", line);
}

static int watch(int op, int fd, uint32_t events, struct src *src)
{
    struct epoll_event ev = {.events = events, .data.ptr = src};

    return epoll_ctl(job.ep, op, fd, &ev);
}

/* ---- output forwarding ---- */

/* Writes all of iov to our own stdout or stderr. That descriptor is shared with whoever started
 * us, so it stays blocking; a reader that went away only silences the stream. */
static void out_writev(int to, struct iovec *iov, int cnt)
{
    while (cnt && !job.out_dead[to]) {
        ssize_t n = writev(to, iov, cnt);

        if (n < 0) {
            if (errno == EAGAIN)
                poll(&(struct pollfd){.fd = to, .events = POLLOUT}, 1, -1);
            else if (errno != EINTR)
                job.out_dead[to] = true;
            continue;
        }
        while (cnt && (size_t)n >= iov->iov_len) {
            n -= (ssize_t)iov->iov_len;
            iov++;
            cnt--;
        }
        if (cnt) {
            iov->iov_base = (char *)iov->iov_base + n;
            iov->iov_len -= (size_t)n;
        }
    }
}

static void out_write(int to, const char *p, size_t len)
{
    struct iovec iov = {.iov_base = (void *)p, .iov_len = len};

    if (len)
        out_writev(to, &iov, 1);
}

/* Forwards p[0..len), prefixing every line start with the PE's tag; one writev per batch. An
 * unfinished line of another PE (a prompt) is ended first, and its rest gets a new tag. */
static void emit_tagged(struct stream *s, const char *p, size_t len)
{
    struct stream *open = job.open[s->to];
    struct iovec iov[256];
    int cnt = 0;

    if (open && open != s) {
        iov[cnt++] = (struct iovec){.iov_base = "\n", .iov_len = 1};
        open->midline = false;
    }
    while (len) {
        const char *nl = memchr(p, '\n', len);
        size_t k = nl ? (size_t)(nl - p) + 1 : len;

        if (cnt + 2 > 256) {
            out_writev(s->to, iov, cnt);
            cnt = 0;
        }
        if (!s->midline)
            iov[cnt++] = (struct iovec){.iov_base = s->tag, .iov_len = strlen(s->tag)};
        iov[cnt++] = (struct iovec){.iov_base = (void *)p, .iov_len = k};
        s->midline = !nl;
        p += k;
        len -= k;
    }
    out_writev(s->to, iov, cnt);
    job.open[s->to] = s->midline ? s : NULL;
}

static void emit(struct stream *s, const char *p, size_t len)
{
    if (job.tag)
        emit_tagged(s, p, len);
    else
        out_write(s->to, p, len);
}

static void flush_part(struct stream *s)
{
    if (!s->keep)
        return;
    emit(s, s->part, s->keep);
    s->keep = 0;
    job.partials--;
}

/* Holds back the start of an unfinished line; without memory for it, passes it on now. */
static void hold(struct stream *s, const char *p, size_t len)
{
    size_t cap = s->cap ? s->cap : 256;

    while (cap < s->keep + len)
        cap *= 2;
    if (cap != s->cap) {
        char *part = realloc(s->part, cap);

        if (!part) {
            flush_part(s);
            emit(s, p, len);
            return;
        }
        s->part = part;
        s->cap = cap;
    }
    if (!s->keep) {
        s->since = now_ms();
        job.partials++;
    }
    memcpy(s->part + s->keep, p, len);
    s->keep += len;
}

/* Passes on the complete lines of buf and holds back an unfinished last one, until its end
 * comes, it grows past KEEP_MAX, FLUSH_MS pass (a prompt must show), or the pipe closes. */
static void forward(struct stream *s, const char *buf, size_t len)
{
    const char *nl = memchr(buf, '\n', len);
    size_t end = len;

    if (s->keep) {
        size_t head = nl ? (size_t)(nl - buf) + 1 : len;

        hold(s, buf, head);
        if (nl || s->keep > KEEP_MAX)
            flush_part(s);
        buf += head;
        len -= head;
        end = len;
    }
    while (end && buf[end - 1] != '\n')
        end--;
    emit(s, buf, end);
    if (len > end)
        hold(s, buf + end, len - end);
}

static void flush_old_parts(int64_t t)
{
    for (int i = 0; i < job.n && job.partials; i++) {
        struct pe *p = &job.pe[i];

        if (p->so.keep && t >= p->so.since + FLUSH_MS)
            flush_part(&p->so);
        if (p->se.keep && t >= p->se.since + FLUSH_MS)
            flush_part(&p->se);
    }
}

static int64_t oldest_part(void)
{
    int64_t t = INT64_MAX;

    for (int i = 0; i < job.n && job.partials; i++) {
        struct pe *p = &job.pe[i];

        if (p->so.keep && p->so.since < t)
            t = p->so.since;
        if (p->se.keep && p->se.since < t)
            t = p->se.since;
    }
    return t;
}

static void stream_close(struct stream *s)
{
    watch(EPOLL_CTL_DEL, s->fd, 0, NULL);
    close(s->fd);
    s->fd = -1;
    job.streams--;
    flush_part(s);
    if (job.tag && s->midline) {
        out_write(s->to, "\n", 1);
        s->midline = false;
        job.open[s->to] = NULL;
    }
    free(s->part);
    s->part = NULL;
    s->cap = 0;
}

/* Returns 1 when it read something, 0 when the pipe is empty or closed. */
static int stream_read(struct stream *s)
{
    static char buf[READ_CHUNK];
    ssize_t n = read(s->fd, buf, sizeof(buf));

    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return 0;
    if (n <= 0) {
        stream_close(s);
        return 0;
    }
    forward(s, buf, (size_t)n);
    return 1;
}

static void drain_streams(void)
{
    for (int i = 0; i < job.n; i++) {
        struct pe *p = &job.pe[i];

        while (p->so.fd >= 0 && stream_read(&p->so))
            ;
        while (p->se.fd >= 0 && stream_read(&p->se))
            ;
    }
}

/* ---- stdin relay ---- */

static void relay_close(void)
{
    struct relay *r = &job.relay;

    if (r->wfd < 0)
        return;
    if (r->reading)
        watch(EPOLL_CTL_DEL, STDIN_FILENO, 0, NULL);
    close(r->wfd);
    r->wfd = -1;
    r->reading = r->writing = false;
}

static void relay_listen(bool on)
{
    struct relay *r = &job.relay;

    if (r->wfd < 0 || r->reading == on || (on && r->len))
        return;
    if (!watch(on ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, STDIN_FILENO, EPOLLIN, &r->src) || !on)
        r->reading = on;
}

/* Passes the buffered input on to PE 0; while the pipe is full, waits for EPOLLOUT. */
static void relay_write(void)
{
    struct relay *r = &job.relay;
    ssize_t n = write(r->wfd, r->buf + r->off, r->len - r->off);

    if (n < 0 && errno != EINTR && errno != EAGAIN) {
        relay_close();
        return;
    }
    r->off += n > 0 ? (size_t)n : 0;
    if (r->off < r->len) {
        if (!r->writing && !watch(EPOLL_CTL_ADD, r->wfd, EPOLLOUT, &r->pipe_src))
            r->writing = true;
        return;
    }
    r->len = r->off = 0;
    if (r->writing && !watch(EPOLL_CTL_DEL, r->wfd, 0, NULL))
        r->writing = false;
    relay_listen(true);
}

static void relay_read(void)
{
    struct relay *r = &job.relay;
    ssize_t n = read(STDIN_FILENO, r->buf, sizeof(r->buf));

    if (n > 0) {
        r->len = (size_t)n;
        relay_listen(false);
        relay_write();
    } else if (n == 0) {
        relay_close();
    } else if (errno == EIO) {
        /* We are a background job now; resume on SIGCONT. */
        relay_listen(false);
    } else if (errno != EINTR && errno != EAGAIN) {
        relay_close();
    }
}

/* ---- processes ---- */

static int pe_of_pid(pid_t pid)
{
    for (int i = 0; i < job.n; i++)
        if (job.pe[i].pid == pid && !job.pe[i].exited)
            return i;
    return -1;
}

static pid_t parent_of(pid_t pid)
{
    char path[64], line[256];
    pid_t ppid = -1;
    FILE *f;

    snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
    f = fopen(path, "re");
    if (!f)
        return -1;
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "PPid: %d", &ppid) == 1)
            break;
    fclose(f);
    return ppid;
}

/* The PE whose process pid is, or a descendant of; -1 for anyone else. */
static int owner_of(pid_t pid)
{
    for (int depth = 0; pid > 1 && depth < 64; depth++) {
        int rank = pe_of_pid(pid);

        if (rank >= 0)
            return rank;
        pid = parent_of(pid);
    }
    return -1;
}

/* In do_exit (PF_EXITING) or a zombie: its exit status is settled, no signal can change it. */
static bool exiting(pid_t pid)
{
    char path[64], buf[512], *p, state = 'X';
    unsigned flags = 0;
    FILE *f;

    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    f = fopen(path, "re");
    if (!f)
        return true;
    p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
    fclose(f);
    if (p && sscanf(p + 1, " %c %*d %*d %*d %*d %*d %u", &state, &flags) != 2)
        return false;
    return state == 'Z' || state == 'X' || (flags & 0x4);
}

static void signal_pes(int sig)
{
    for (int i = 0; i < job.n; i++)
        if (job.pe[i].pid > 0 && !job.pe[i].exited)
            kill(-job.pe[i].pid, sig);
}

/* Our children now include orphans we adopted as subreaper, in whatever group they moved to.
 * Each is still unreaped, so its pid cannot have been reused. */
static void kill_children(int sig)
{
    DIR *d = opendir("/proc");
    struct dirent *e;

    if (!d)
        return;
    while ((e = readdir(d))) {
        pid_t pid = (pid_t)atoi(e->d_name);

        if (pid > 1 && parent_of(pid) == job.self)
            kill(pid, sig);
    }
    closedir(d);
}

static void kill_all_and_wait(void)
{
    signal_pes(SIGKILL);
    kill_children(SIGKILL);
    while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
        ;
}

/* ---- stopping the job ---- */

static void mute_conns(void)
{
    for (struct conn *c = job.conns; c; c = c->next)
        watch(EPOLL_CTL_DEL, c->fd, 0, NULL);
    watch(EPOLL_CTL_DEL, job.lfd, 0, NULL);
}

/* The first failure stops the job and names it; later ones are its consequences. The PEs'
 * sockets stay open until we exit, so none of them sees a broken bootstrap before the signal. */
__attribute__((format(printf, 3, 4))) static void stop(int code, int sig, const char *fmt, ...)
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
    job.kill_at = now_ms() + TERM_GRACE_MS;
    mute_conns();
}

static void kill_now(void)
{
    signal_pes(SIGKILL);
    kill_children(SIGKILL);
    job.kill_at = 0;
    job.give_up_at = now_ms() + REAP_LIMIT_MS;
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
        fprintf(stderr, "symmrun: pe %d (pid %d) %s %d after shmem_finalize\n", rank,
                (int)p->pid, p->status > 128 ? "was killed by signal" : "exited with status",
                p->status > 128 ? p->status - 128 : p->status);
    round_check();
}

static void reap(void)
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

/* ---- connections ---- */

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

static void empty_trash(void)
{
    while (job.trash) {
        struct conn *c = job.trash;

        job.trash = c->next;
        free(c);
    }
}

__attribute__((format(printf, 2, 3))) static void reject(struct conn *c, const char *fmt, ...)
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
static void conn_gone(struct conn *c)
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
    p->lost_at = now_ms();
    job.lost++;
}

static void conn_send(struct conn *c, struct reply *rep)
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

static struct reply *reply_new(uint32_t type, int refs)
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

static void conn_write(struct conn *c)
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

static void accept_conns(void)
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

/* ---- the protocol ---- */

static const char *msg_name(uint32_t type, uint64_t len)
{
    if (type == SYMM_BOOT_FDS)
        return "exchange_fds";
    return len ? "allgather" : "a barrier";
}

static void hello(struct conn *c)
{
    uint32_t rank = c->in.rank;
    uint8_t diff = 0;
    struct reply *rep;

    for (int i = 0; i < SYMM_BOOT_KEY_LEN; i++)
        diff |= c->small[i] ^ job.key[i];
    if (diff) {
        reject(c, "wrong job key");
        return;
    }
    if (rank != (uint32_t)c->owner) {
        reject(c, "claims pe %u but is a process of pe %d", rank, c->owner);
        return;
    }
    if (job.pe[rank].hello) {
        reject(c, "pe %u has connected before", rank);
        return;
    }
    c->rank = (int)rank;
    job.pe[rank].hello = true;
    job.pe[rank].conn = c;
    rep = reply_new(SYMM_BOOT_HELLO, 1);
    if (rep)
        conn_send(c, rep);
}

/* One line, whatever the PE put in its reason. */
static void print_safe(char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)s[i] < ' ')
            s[i] = ' ';
    while (len && s[len - 1] == ' ')
        len--;
    s[len] = '\0';
}

/* No reason, or the call itself, is shmem_global_exit; anything else is a fatal error. */
static void aborted(struct conn *c)
{
    int32_t status;
    char text[SYMM_BOOT_ABORT_TEXT_MAX + 1], exit_call[32];
    size_t len = (size_t)c->in.len - sizeof(status);

    memcpy(&status, c->small, sizeof(status));
    memcpy(text, c->small + sizeof(status), len);
    print_safe(text, len);
    snprintf(exit_call, sizeof(exit_call), "shmem_global_exit(%d)", (int)status);
    if (!text[0] || !strcmp(text, exit_call))
        stop(status & 0xff, SIGTERM, "pe %d called shmem_global_exit(%d); stopping the job",
             c->rank, (int)status);
    else
        stop(status & 0xff, SIGTERM, "pe %d aborted the job (status %d): %s; stopping the job",
             c->rank, (int)status, text);
}

static void round_reset(void)
{
    job.round = (struct round){0};
    for (int i = 0; i < job.n; i++)
        job.pe[i].in_round = false;
}

static void round_complete(void)
{
    struct round *r = &job.round;
    struct reply *rep = reply_new(r->type, job.n);

    if (!rep)
        return;
    if (r->type == SYMM_BOOT_ALLGATHER) {
        rep->data = r->data;
        rep->len = r->len * (uint64_t)job.n;
    } else {
        rep->fds = r->fds;
        rep->nfds = (int)r->len * job.n;
        rep->len = symm_boot_fd_chunks((uint64_t)rep->nfds);
    }
    round_reset();
    for (int i = 0; i < job.n; i++)
        conn_send(job.pe[i].conn, rep);
}

/* The ranks of the PEs still running, or of those waiting in the open round. */
static void list_ranks(char *buf, size_t size, bool waiting)
{
    size_t k = 0;

    buf[0] = '\0';
    for (int i = 0; i < job.n && k + 16 < size; i++)
        if (!job.pe[i].exited && (!waiting || job.pe[i].in_round))
            k += (size_t)snprintf(buf + k, size - k, "%s%d", k ? " " : "", i);
}

/* A PE that can no longer join the open round would leave the others waiting forever. */
static void round_check(void)
{
    char waiting[256];

    if (!job.round.type || job.stopping)
        return;
    for (int i = 0; i < job.n; i++) {
        struct pe *p = &job.pe[i];

        if (p->in_round || !(p->finalized || p->exited))
            continue;
        list_ranks(waiting, sizeof(waiting), true);
        stop(1, SIGTERM,
             "pe %d %s while others wait for it in %s (waiting: %s); stopping the "
             "job",
             i, p->finalized ? "called shmem_finalize" : "exited",
             msg_name(job.round.type, job.round.len), waiting);
        return;
    }
}

/* A request's header arrived: join the round it opens or belongs to. */
static int round_join(struct conn *c)
{
    struct round *r = &job.round;
    uint64_t len = c->in.len;
    uint64_t bytes;

    if (job.pe[c->rank].in_round) {
        stop(1, SIGTERM, "pe %d sent two requests in one collective; stopping the job", c->rank);
        return -1;
    }
    if (r->type && r->type != c->in.type) {
        stop(1, SIGTERM, "pe %d called %s while pe %d is in %s; stopping the job", c->rank,
             msg_name(c->in.type, c->in.len), r->first, msg_name(r->type, r->len));
        return -1;
    }
    if (c->in.type == SYMM_BOOT_FDS) {
        if (len > INT_MAX / SYMM_BOOT_FDS_PER_MSG / MAX_PES) {
            stop(1, SIGTERM, "pe %d: too many descriptors; stopping the job", c->rank);
            return -1;
        }
    } else if (!r->type) {
        if (__builtin_mul_overflow(len, (uint64_t)job.n, &bytes) || bytes > SIZE_MAX ||
            (bytes && !(r->data = malloc(bytes)))) {
            stop(1, SIGTERM, "pe %d: no memory for an allgather of %llu bytes; stopping the job",
                 c->rank, (unsigned long long)len);
            return -1;
        }
        r->len = len;
    } else if (r->len != len) {
        stop(1, SIGTERM, "pe %d gave %llu bytes to allgather, pe %d gave %llu; stopping the job",
             c->rank, (unsigned long long)len, r->first, (unsigned long long)r->len);
        return -1;
    }
    if (!r->type)
        r->first = c->rank;
    r->type = c->in.type;
    c->dst = r->data ? r->data + (uint64_t)c->rank * r->len : NULL;
    return 0;
}

static int round_take_fds(struct conn *c)
{
    struct round *r = &job.round;

    if (!r->sized) {
        r->sized = true;
        r->len = (uint64_t)c->nfds;
        if (c->nfds && !(r->fds = malloc(sizeof(int) * (size_t)c->nfds * (size_t)job.n))) {
            stop(1, SIGTERM, "out of memory serving exchange_fds; stopping the job");
            return -1;
        }
    } else if (r->len != (uint64_t)c->nfds) {
        stop(1, SIGTERM,
             "pe %d passed %d descriptors to exchange_fds, pe %d passed %llu; "
             "stopping the job",
             c->rank, c->nfds, r->first, (unsigned long long)r->len);
        return -1;
    }
    if (c->nfds)
        memcpy(r->fds + (size_t)c->rank * r->len, c->fds, sizeof(int) * (size_t)c->nfds);
    free(c->fds);
    c->fds = NULL;
    c->nfds = 0;
    return 0;
}

static void round_arrive(struct conn *c)
{
    if (c->in.type == SYMM_BOOT_FDS && round_take_fds(c))
        return;
    job.pe[c->rank].in_round = true;
    if (++job.round.arrived == job.n)
        round_complete();
    else
        round_check();
}

/* Header complete: check it and say where the payload goes. Nonzero: the connection is done. */
static int begin_message(struct conn *c)
{
    const struct symm_boot_hdr *h = &c->in;

    if (c->rank < 0) {
        if (h->type != SYMM_BOOT_HELLO || h->len != SYMM_BOOT_KEY_LEN) {
            reject(c, "did not introduce itself");
            return -1;
        }
        c->dst = c->small;
        return 0;
    }
    switch (h->type) {
    case SYMM_BOOT_ALLGATHER:
    case SYMM_BOOT_FDS:
        return round_join(c);
    case SYMM_BOOT_ABORT:
        if (h->len >= sizeof(int32_t) && h->len <= sizeof(c->small)) {
            c->dst = c->small;
            return 0;
        }
        break;
    case SYMM_BOOT_FINALIZE:
        if (!h->len)
            return 0;
        break;
    }
    stop(1, SIGTERM,
         "pe %d broke the bootstrap protocol (message %u of %llu bytes); stopping "
         "the job",
         c->rank, h->type, (unsigned long long)h->len);
    return -1;
}

static void end_message(struct conn *c)
{
    c->got = 0;
    switch (c->in.type) {
    case SYMM_BOOT_HELLO:
        hello(c);
        break;
    case SYMM_BOOT_ALLGATHER:
    case SYMM_BOOT_FDS:
        round_arrive(c);
        break;
    case SYMM_BOOT_ABORT:
        aborted(c);
        break;
    case SYMM_BOOT_FINALIZE:
        job.pe[c->rank].finalized = true;
        round_check();
        break;
    }
}

static int read_fd_chunk(struct conn *c)
{
    int tmp[SYMM_BOOT_FDS_PER_MSG], k, *fds;
    int err = symm_boot_recv_fds(c->fd, tmp, SYMM_BOOT_FDS_PER_MSG, &k);

    if (err)
        return err;
    fds = realloc(c->fds, sizeof(int) * (size_t)(c->nfds + k));
    if (!fds) {
        for (int i = 0; i < k; i++)
            close(tmp[i]);
        return -ENOMEM;
    }
    memcpy(fds + c->nfds, tmp, sizeof(int) * (size_t)k);
    c->fds = fds;
    c->nfds += k;
    c->got++;
    return 0;
}

/* One step of reading: part of a header, of a payload, or one descriptor chunk. */
static int conn_read_some(struct conn *c)
{
    const uint64_t hl = sizeof(c->in);
    ssize_t n;

    if (c->got >= hl && c->in.type == SYMM_BOOT_FDS)
        return read_fd_chunk(c);
    if (c->got < hl)
        n = recv(c->fd, (char *)&c->in + c->got, hl - c->got, MSG_DONTWAIT);
    else
        n = recv(c->fd, c->dst + (c->got - hl), c->in.len - (c->got - hl), MSG_DONTWAIT);
    if (n < 0)
        return -errno;
    if (n == 0)
        return -ECONNRESET;
    c->got += (uint64_t)n;
    return 0;
}

static void conn_read(struct conn *c)
{
    while (c->fd >= 0 && !job.stopping) {
        int err = conn_read_some(c);

        if (err == -EINTR)
            continue;
        if (err == -EAGAIN)
            return;
        if (err == -EBADMSG || err == -ENOMEM) {
            stop(1, SIGTERM, "pe %d: bad descriptor message (%s); stopping the job", c->rank,
                 strerror(-err));
            return;
        }
        if (err) {
            conn_gone(c);
            return;
        }
        if (c->got == sizeof(c->in) && begin_message(c))
            return;
        if (c->got >= sizeof(c->in) && c->got == sizeof(c->in) + c->in.len)
            end_message(c);
    }
}

/* ---- the loop ---- */

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
    int64_t t = now_ms();

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
    int64_t t = now_ms(), next = INT64_MAX;

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
        job.give_up_at = now_ms() + REAP_LIMIT_MS;
        if (!job.nochild)
            kill_children(SIGKILL);
    }
    if (job.nochild && !job.streams)
        return true;
    return now_ms() >= job.give_up_at;
}

static void loop(void)
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

/* ---- start-up ---- */

__attribute__((format(printf, 1, 2))) static int usage_error(const char *fmt, ...)
{
    char what[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    fprintf(stderr, "symmrun: %s; %s\n", what, usage);
    return EXIT_USAGE;
}

static int parse_n(const char *s)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < 1 || v > MAX_PES)
        return usage_error("invalid number of PEs '%s' (1 to %d)", s, MAX_PES);
    job.n = (int)v;
    return 0;
}

static int parse_nodes(const char *s)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < 1 || v > MAX_PES)
        return usage_error("invalid number of nodes '%s' (1 to %d)", s, MAX_PES);
    job.nodes = (int)v;
    return 0;
}

static int parse_timeout(const char *s)
{
    char *end;
    double v;

    errno = 0;
    v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v) || v <= 0 || v > 1e9)
        return usage_error("invalid timeout '%s' (seconds, more than 0)", s);
    job.timeout = v;
    return 0;
}

static int parse_bind(const char *s)
{
    if (!strcmp(s, "core"))
        job.bind = 1;
    else if (!strcmp(s, "none"))
        job.bind = 0;
    else
        return usage_error("invalid binding '%s' (core or none)", s);
    return 0;
}

/* The CPUs the launcher may run on. PE i is bound to the i-th of them when every PE gets a CPU
 * of its own: unbound, the scheduler may wake a PE on the CPU where its partner spins. */
static void plan_binding(void)
{
    cpu_set_t set;

    job.ncpus = 0;
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        return;
    job.cpus = calloc(CPU_SETSIZE, sizeof(int));
    if (!job.cpus)
        return;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set))
            job.cpus[job.ncpus++] = c;
    if (job.bind < 0)
        job.bind = job.n <= job.ncpus;
    if (job.bind && job.n > job.ncpus) {
        fprintf(stderr, "symmrun: --bind core: %d PEs but only %d CPUs; not binding\n", job.n,
                job.ncpus);
        job.bind = 0;
    }
}

static void bind_pe(int rank)
{
    cpu_set_t set;

    if (!job.bind)
        return;
    CPU_ZERO(&set);
    CPU_SET(job.cpus[rank], &set);
    sched_setaffinity(0, sizeof(set), &set);
}

static int parse_args(int argc, char **argv)
{
    int i = 1, rc = 0;

    job.n = 1;
    job.bind = -1;
    for (; i < argc && !rc && argv[i][0] == '-'; i++) {
        const char *a = argv[i];

        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            printf("%s\n", usage);
            exit(0);
        }
        if (!strcmp(a, "--tag"))
            job.tag = true;
        else if (!strncmp(a, "--timeout=", 10))
            rc = parse_timeout(a + 10);
        else if (!strncmp(a, "--bind=", 7))
            rc = parse_bind(a + 7);
        else if (!strncmp(a, "--nodes=", 8))
            rc = parse_nodes(a + 8);
        else if (strcmp(a, "-n") && strcmp(a, "-np") && strcmp(a, "--np") &&
                 strcmp(a, "--timeout") && strcmp(a, "--bind") && strcmp(a, "--nodes"))
            rc = usage_error("unknown option '%s'", a);
        else if (i + 1 >= argc)
            rc = usage_error("option '%s' needs a value", a);
        else if (!strcmp(a, "--timeout"))
            rc = parse_timeout(argv[++i]);
        else if (!strcmp(a, "--bind"))
            rc = parse_bind(argv[++i]);
        else if (!strcmp(a, "--nodes"))
            rc = parse_nodes(argv[++i]);
        else
            rc = parse_n(argv[++i]);
    }
    if (!rc && i >= argc)
        rc = usage_error("no program to run");
    if (!rc && job.nodes > job.n)
        rc = usage_error("%d nodes for %d PEs: every node needs a PE", job.nodes, job.n);
    job.argv = argv + i;
    return rc;
}

/* Descriptors 0-2 must exist, or our pipes would land on them and vanish at exec. */
static void hold_std_fds(void)
{
    for (int fd = 0; fd < 3; fd++)
        if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", O_RDWR) < 0)
            return;
}

static int raise_fd_limit(void)
{
    struct rlimit r;
    rlim_t need = (rlim_t)job.n * 4 + 64;

    if (getrlimit(RLIMIT_NOFILE, &job.nofile) < 0)
        return 0;
    r = job.nofile;
    /* The hard limit, within reason: descriptor exchange holds every PE's descriptors here. */
    r.rlim_cur = r.rlim_max == RLIM_INFINITY || r.rlim_max > (1 << 20) ? (1 << 20) : r.rlim_max;
    if (r.rlim_cur < need) {
        say("%d PEs need %llu file descriptors, the limit is %llu (ulimit -n)", job.n,
            (unsigned long long)need, (unsigned long long)r.rlim_cur);
        return 1;
    }
    if (r.rlim_cur > job.nofile.rlim_cur)
        setrlimit(RLIMIT_NOFILE, &r);
    return 0;
}

static int setup_signals(void)
{
    static const int sigs[] = {SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCONT};
    struct sigaction ign = {.sa_handler = SIG_IGN}, old;

    sigemptyset(&job.watched);
    for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
        /* A signal the caller ignores (nohup, a background job of a script) stays ignored. */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN && sigs[i] != SIGCHLD)
            continue;
        sigaddset(&job.watched, sigs[i]);
    }
    sigprocmask(SIG_BLOCK, &job.watched, &job.oldmask);
    sigaction(SIGPIPE, &ign, &job.old_pipe);
    sigaction(SIGTTIN, &ign, &job.old_ttin);
    job.sigfd = signalfd(-1, &job.watched, SFD_CLOEXEC | SFD_NONBLOCK);
    if (job.sigfd < 0) {
        say("signalfd: %s", strerror(errno));
        return 1;
    }
    job.sig_src.kind = SRC_SIGNALS;
    return watch(EPOLL_CTL_ADD, job.sigfd, EPOLLIN, &job.sig_src) < 0;
}

/* A random key and name per job; only processes of this job learn them. */
static int make_secrets(void)
{
    uint8_t r[SYMM_BOOT_KEY_LEN + 8];
    uint64_t tag;
    size_t got = 0;

    while (got < sizeof(r)) {
        ssize_t n = getrandom(r + got, sizeof(r) - got, 0);

        if (n < 0 && errno != EINTR) {
            say("getrandom: %s", strerror(errno));
            return 1;
        }
        got += n > 0 ? (size_t)n : 0;
    }
    memcpy(job.key, r, SYMM_BOOT_KEY_LEN);
    memcpy(&tag, r + SYMM_BOOT_KEY_LEN, sizeof(tag));
    symm_boot_key_format(job.key, job.keyhex);
    snprintf(job.addr, sizeof(job.addr), "symm-%d-%016llx", (int)job.self, (unsigned long long)tag);
    return 0;
}

static int setup_socket(void)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    size_t len = strlen(job.addr);

    job.lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (job.lfd < 0) {
        say("socket: %s", strerror(errno));
        return 1;
    }
    /* Abstract: sun_path[0] stays NUL, nothing to clean up in the file system. */
    memcpy(sa.sun_path + 1, job.addr, len);
    if (bind(job.lfd, (struct sockaddr *)&sa,
             (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + len)) < 0 ||
        listen(job.lfd, job.n < SOMAXCONN ? SOMAXCONN : job.n) < 0) {
        say("bootstrap socket @%s: %s", job.addr, strerror(errno));
        return 1;
    }
    job.listen_src.kind = SRC_LISTEN;
    return watch(EPOLL_CTL_ADD, job.lfd, EPOLLIN, &job.listen_src) < 0;
}

static int setup(void)
{
    job.self = getpid();
    job.uid = geteuid();
    hold_std_fds();
    if (raise_fd_limit() || make_secrets())
        return 1;
    job.ep = epoll_create1(EPOLL_CLOEXEC);
    if (job.ep < 0) {
        say("epoll_create1: %s", strerror(errno));
        return 1;
    }
    /* Orphans of the PEs come to us, so none outlives the job unseen. */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    if (job.timeout > 0)
        job.deadline = now_ms() + (int64_t)(job.timeout * 1000 + 0.999);
    return setup_signals() || setup_socket();
}

struct child_fds {
    int in; /* -1: inherit ours */
    int out, err, errpipe;
};

static void set_env_int(const char *name, int v)
{
    char s[16];

    snprintf(s, sizeof(s), "%d", v);
    setenv(name, s, 1);
}

/* In the child, between fork and exec. Failures go to the parent through errpipe. */
static void child_exec(int rank, const struct child_fds *f)
{
    int report[2] = {rank, 0};

    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != job.self)
        _exit(EXIT_NOEXEC);
    sigprocmask(SIG_SETMASK, &job.oldmask, NULL);
    sigaction(SIGPIPE, &job.old_pipe, NULL);
    sigaction(SIGTTIN, &job.old_ttin, NULL);
    setrlimit(RLIMIT_NOFILE, &job.nofile);
    if ((f->in >= 0 && dup2(f->in, 0) < 0) || dup2(f->out, 1) < 0 || dup2(f->err, 2) < 0)
        goto fail;
    setenv("SYMM_BOOT", "launcher", 1);
    setenv("SYMM_BOOT_ADDR", job.addr, 1);
    setenv("SYMM_BOOT_KEY", job.keyhex, 1);
    set_env_int("SYMM_RANK", rank);
    set_env_int("SYMM_SIZE", job.n);
    if (job.nodes > 1) {
        /* Node k holds PEs [k * n / K, (k + 1) * n / K), as the library computes it. */
        int node = (int)((long)rank * job.nodes / job.n);
        int first = (int)(((long)node * job.n + job.nodes - 1) / job.nodes);
        int next = (int)(((long)(node + 1) * job.n + job.nodes - 1) / job.nodes);
        set_env_int("SYMM_NODES", job.nodes);
        set_env_int("SYMM_LOCAL_RANK", rank - first);
        set_env_int("SYMM_LOCAL_SIZE", next - first);
    } else {
        set_env_int("SYMM_LOCAL_RANK", rank);
        set_env_int("SYMM_LOCAL_SIZE", job.n);
    }
    if (job.ncpus > 0)
        set_env_int("SYMM_CPUS", job.ncpus);
    bind_pe(rank);
    execvp(job.argv[0], job.argv);
fail:
    report[1] = errno;
    if (write(f->errpipe, report, sizeof(report)) < 0)
        _exit(EXIT_NOEXEC);
    _exit(EXIT_NOEXEC);
}

static int stream_open(struct stream *s, int fd, int to, int rank)
{
    *s = (struct stream){.src = {SRC_STREAM}, .fd = fd, .to = to};
    snprintf(s->tag, sizeof(s->tag), "[pe %d] ", rank);
    fcntl(fd, F_SETFL, O_NONBLOCK);
    job.streams++;
    return watch(EPOLL_CTL_ADD, fd, EPOLLIN, &s->src);
}

static int stdin_for(int rank, int *in)
{
    int p[2];

    *in = -1;
    if (rank > 0) {
        *in = open("/dev/null", O_RDONLY | O_CLOEXEC);
        return *in < 0;
    }
    if (!isatty(STDIN_FILENO))
        return 0;
    if (pipe2(p, O_CLOEXEC) < 0)
        return 1;
    *in = p[0];
    job.relay = (struct relay){.src = {SRC_STDIN}, .pipe_src = {SRC_STDIN_PIPE}, .wfd = p[1]};
    fcntl(p[1], F_SETFL, O_NONBLOCK);
    return 0;
}

static int start_pe(int rank, int errpipe)
{
    struct pe *p = &job.pe[rank];
    struct child_fds f = {.errpipe = errpipe};
    int o[2] = {-1, -1}, e[2] = {-1, -1}, rc = 1;

    if (stdin_for(rank, &f.in) || pipe2(o, O_CLOEXEC) < 0 || pipe2(e, O_CLOEXEC) < 0)
        goto out;
    f.out = o[1];
    f.err = e[1];
    p->pid = fork();
    if (p->pid == 0)
        child_exec(rank, &f);
    if (p->pid < 0)
        goto out;
    /* Also here: a stop may signal the group before the child has run at all. */
    setpgid(p->pid, p->pid);
    job.live++;
    rc = stream_open(&p->so, o[0], 1, rank) || stream_open(&p->se, e[0], 2, rank);
    o[0] = e[0] = -1;
out:
    if (rc)
        say("cannot start pe %d: %s", rank, strerror(errno));
    for (int i = 0; i < 2; i++) {
        if (o[i] >= 0)
            close(o[i]);
        if (e[i] >= 0)
            close(e[i]);
    }
    if (f.in >= 0)
        close(f.in);
    return rc;
}

/* Every exec either succeeds, closing its copy of errpipe, or reports; EOF means all ran. */
static int check_exec(int fd)
{
    int report[2], first[2] = {-1, 0};
    ssize_t n;

    while ((n = read(fd, report, sizeof(report))) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n != (ssize_t)sizeof(report))
            break;
        if (first[0] < 0)
            memcpy(first, report, sizeof(first));
    }
    if (first[0] < 0)
        return 0;
    say("cannot run '%s': %s", job.argv[0], strerror(first[1]));
    return EXIT_NOEXEC;
}

static int start_pes(void)
{
    int errpipe[2], rc = 0;

    job.pe = calloc((size_t)job.n, sizeof(*job.pe));
    if (!job.pe || pipe2(errpipe, O_CLOEXEC) < 0) {
        say("cannot start the job: %s", strerror(errno));
        return 1;
    }
    for (int i = 0; i < job.n && !rc; i++)
        rc = start_pe(i, errpipe[1]);
    close(errpipe[1]);
    if (!rc)
        rc = check_exec(errpipe[0]);
    close(errpipe[0]);
    if (rc) {
        kill_all_and_wait();
        return rc;
    }
    if (job.relay.wfd >= 0)
        relay_listen(true);
    return 0;
}

static int finish(void)
{
    drain_streams();
    if (job.stopping) {
        fprintf(stderr, "symmrun: %s\n", job.report);
        return job.code;
    }
    return job.worst;
}

int main(int argc, char **argv)
{
    int rc = parse_args(argc, argv);

    if (rc)
        return rc;
    plan_binding();
    if (setup())
        return 1;
    rc = start_pes();
    if (rc)
        return rc;
    loop();
    return finish();
}
