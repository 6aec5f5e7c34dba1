/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Start-up: the CPUs the PEs are bound to, the launcher's own setup (descriptor limit, signals,
 * the job's key and socket, the epoll set), and the PEs themselves: fork, the environment that
 * tells each PE where the bootstrap is and who it is, exec, and the check that every exec ran.
 */
#include "symmrun.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define EXIT_NOEXEC 127

/* The CPUs the launcher may run on, and the PEs bound to them (unless --bind none). With a CPU
 * for every PE, PE i gets the i-th: unbound, the scheduler may wake a PE on the CPU where its
 * partner spins. With more PEs than CPUs, consecutive PEs share one, in blocks as even as they
 * can be: unbound, the scheduler may put three PEs on one CPU of two and one on the other (4 PEs
 * on 2 CPUs, a barrier of 15 us instead of 6 until it moves one), and the library's waits know
 * which PEs share their CPU only while nobody moves. */
void plan_binding(void)
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
        job.bind = 1;
}

static void bind_pe(int rank)
{
    cpu_set_t set;

    if (!job.bind || job.ncpus < 1)
        return;
    CPU_ZERO(&set);
    CPU_SET(job.cpus[job.n <= job.ncpus ? rank : (int)((long)rank * job.ncpus / job.n)], &set);
    sched_setaffinity(0, sizeof(set), &set);
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

int setup(void)
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
        job.deadline = symm_boot_now_ms() + (int64_t)(job.timeout * 1000 + 0.999);
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

int start_pes(void)
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
