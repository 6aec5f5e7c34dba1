/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The `pmix` bootstrap: PEs started by a PMIx launcher (Open MPI's mpirun, Slurm's srun), one
 * PE a process, the PMIx rank the PE number. Collectives go through the PMIx server:
 * allgather puts this PE's bytes under a key of its own (one per call), fences with data
 * collection and reads every rank's; a barrier is a fence. File descriptors (the heaps'
 * memfds, the device heap's chunks) cannot travel through PMIx: each PE listens on a Unix
 * socket in the abstract namespace, named by the job and its rank; in round k of an exchange
 * each PE sends its descriptors to the PE k ahead (SCM_RIGHTS) and then takes one sender's,
 * and a fence ends it, so that the next exchange cannot meet this one's connections. A
 * connection is taken only from the process that the rank it names announced at start-up
 * (SO_PEERCRED), so no other process can slip descriptors in. The PEs of a job
 * must share one node (the ucx transport will reach other nodes); init checks the host names
 * and says so. Abort is PMIx_Abort: the launcher stops the job.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "boot/boot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <pmix.h>

#define HOST_LEN 64
#define MAX_FDS 8

static pmix_proc_t me;
static unsigned seq;
static int listen_fd = -1;
static pid_t *pids; /* every rank's process, from the start-up allgather */
static symm_boot_ops_t pmix_ops;

static void boot_error(const char *fmt, ...)
{
    char host[HOST_LEN] = "?", line[512];
    int k;
    va_list ap;

    gethostname(host, sizeof(host));
    host[sizeof(host) - 1] = '\0';
    k = snprintf(line, sizeof(line), "symm: [pe %d %s %d] bootstrap (pmix): ", pmix_ops.rank,
                 host, (int)getpid());
    va_start(ap, fmt);
    vsnprintf(line + k, sizeof(line) - (size_t)k, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", line);
}

static symm_status_t pmix_failed(const char *what, pmix_status_t rc)
{
    boot_error("%s failed: %s", what, PMIx_Error_string(rc));
    return SYMM_ERR_BOOT;
}

/* The abstract socket of rank r: the job's namespace hashed (it may be longer than a socket
 * name), the user, the rank. */
static socklen_t sock_name(int r, struct sockaddr_un *a)
{
    uint64_t h = 1469598103934665603ull;
    int n;

    for (const char *p = me.nspace; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    memset(a, 0, sizeof(*a));
    a->sun_family = AF_UNIX;
    n = snprintf(a->sun_path + 1, sizeof(a->sun_path) - 1, "symm-pmix-%u-%016llx-%d",
                 (unsigned)getuid(), (unsigned long long)h, r);
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
}

static symm_status_t pmix_barrier(void)
{
    pmix_status_t rc = PMIx_Fence(NULL, 0, NULL, 0);

    return rc == PMIX_SUCCESS ? SYMM_OK : pmix_failed("PMIx_Fence", rc);
}

static symm_status_t pmix_allgather(const void *in, size_t len, void *out)
{
    char key[PMIX_MAX_KEYLEN + 1];
    pmix_value_t v;
    pmix_info_t info;
    bool collect = true;
    pmix_status_t rc;

    snprintf(key, sizeof(key), "symm.ag.%u", ++seq);
    PMIX_VALUE_CONSTRUCT(&v);
    v.type = PMIX_BYTE_OBJECT;
    v.data.bo.bytes = (char *)in;
    v.data.bo.size = len;
    rc = PMIx_Put(PMIX_GLOBAL, key, &v);
    if (rc != PMIX_SUCCESS)
        return pmix_failed("PMIx_Put", rc);
    rc = PMIx_Commit();
    if (rc != PMIX_SUCCESS)
        return pmix_failed("PMIx_Commit", rc);
    PMIX_INFO_CONSTRUCT(&info);
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    rc = PMIx_Fence(NULL, 0, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (rc != PMIX_SUCCESS)
        return pmix_failed("PMIx_Fence", rc);
    for (int r = 0; r < pmix_ops.size; r++) {
        pmix_proc_t p;
        pmix_value_t *got = NULL;

        PMIX_PROC_LOAD(&p, me.nspace, (pmix_rank_t)r);
        rc = PMIx_Get(&p, key, NULL, 0, &got);
        if (rc != PMIX_SUCCESS)
            return pmix_failed("PMIx_Get", rc);
        if (got->type != PMIX_BYTE_OBJECT || got->data.bo.size != len) {
            boot_error("allgather #%u: rank %d gave %zu bytes, this PE %zu", seq, r,
                       got->type == PMIX_BYTE_OBJECT ? got->data.bo.size : (size_t)0, len);
            PMIX_VALUE_RELEASE(got);
            return SYMM_ERR_BOOT;
        }
        if (len)
            memcpy((char *)out + (size_t)r * len, got->data.bo.bytes, len);
        PMIX_VALUE_RELEASE(got);
    }
    return SYMM_OK;
}

/* One message: the sender's rank and count, its descriptors attached. */
struct fd_msg {
    int32_t rank;
    int32_t n;
};

static symm_status_t send_fds(int to, const int *fds, int n)
{
    struct sockaddr_un a;
    socklen_t alen = sock_name(to, &a);
    struct fd_msg m = {.rank = pmix_ops.rank, .n = n};
    struct iovec iov = {.iov_base = &m, .iov_len = sizeof(m)};
    union {
        char buf[CMSG_SPACE(sizeof(int) * MAX_FDS)];
        struct cmsghdr align;
    } ctl;
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
    struct cmsghdr *c;
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

    if (s < 0 || connect(s, (struct sockaddr *)&a, alen) != 0) {
        boot_error("cannot reach pe %d on this node (%s): every PE of the job must run on one "
                   "node", to, strerror(errno));
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
        boot_error("sending descriptors to pe %d: %s", to, strerror(errno));
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

/* Whether pid is one of the job's processes. */
static int job_pid(pid_t pid)
{
    for (int r = 0; r < pmix_ops.size; r++)
        if (pids[r] == pid)
            return 1;
    return 0;
}

/* Accepts the next sender and stores its descriptors at out[rank * n]. A connection from a
 * process outside the job is dropped unread (any local process can reach an abstract
 * socket); one that names another rank than its own, or sends nothing for RECV_WAIT_S, ends
 * the exchange. PIDs are compared as this PE sees them: the job's processes share a PID
 * namespace. */
#define RECV_WAIT_S 60

static symm_status_t recv_fds(int n, int *out)
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
    int s;

    for (;;) {
        s = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
        if (s < 0) {
            if (errno == EINTR)
                continue;
            boot_error("accepting a peer's descriptors: %s", strerror(errno));
            return SYMM_ERR_BOOT;
        }
        clen = sizeof(cred);
        if (getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cred, &clen) == 0 && job_pid(cred.pid))
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
        boot_error("receiving a peer's descriptors: %s", strerror(errno));
        return SYMM_ERR_BOOT;
    }
    c = CMSG_FIRSTHDR(&msg);
    if (got != (ssize_t)sizeof(m) || (msg.msg_flags & MSG_CTRUNC) || m.n != n || m.rank < 0 ||
        m.rank >= pmix_ops.size || m.rank == pmix_ops.rank || cred.pid != pids[m.rank] ||
        (n > 0 && out[(size_t)m.rank * (size_t)n] >= 0) ||
        (n > 0 && (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
                   c->cmsg_len != CMSG_LEN(sizeof(int) * (size_t)n)))) {
        boot_error("a descriptor message out of step (%zd bytes from process %d, naming pe %d "
                   "and %d descriptors; expected %d)", got, (int)cred.pid, (int)m.rank,
                   (int)m.n, n);
        close_carried(&msg);
        return SYMM_ERR_BOOT;
    }
    if (n > 0)
        memcpy(out + (size_t)m.rank * (size_t)n, CMSG_DATA(c), sizeof(int) * (size_t)n);
    return SYMM_OK;
}

/* Round k sends to the PE k ahead and then accepts one sender: a PE is never more than one
 * send ahead of what it has taken, so few descriptors are in flight at once (the kernel
 * limits them per user) and listen queues stay short. Every PE sends in round k before it
 * waits in round k, so each round's accept finds a sender. */
static symm_status_t pmix_exchange_fds(const int *fds, int n, int *out)
{
    const int size = pmix_ops.size, mine = pmix_ops.rank;
    symm_status_t st = SYMM_OK;

    if (n < 0 || n > MAX_FDS)
        return SYMM_ERR_INVALID;
    for (int i = 0; i < size * n; i++)
        out[i] = -1;
    for (int k = 1; k < size && st == SYMM_OK; k++) {
        st = send_fds((mine + k) % size, fds, n);
        if (st == SYMM_OK)
            st = recv_fds(n, out);
    }
    for (int i = 0; i < n && st == SYMM_OK; i++) {
        out[(size_t)mine * n + i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 0);
        if (out[(size_t)mine * n + i] < 0)
            st = SYMM_ERR_BOOT;
    }
    if (st == SYMM_OK)
        st = pmix_barrier();
    if (st != SYMM_OK) {
        for (int i = 0; i < size * n; i++) {
            if (out[i] >= 0)
                close(out[i]);
            out[i] = -1;
        }
    }
    return st;
}

/* The launcher stops the job; this PE says why first (mpirun prints only the status). */
__attribute__((noreturn)) static void pmix_abort(int status, const char *why)
{
    boot_error("pe %d aborts the job (status %d): %s", pmix_ops.rank, status,
               why ? why : "a PE failed");
    PMIx_Abort(status, why ? why : "symm: a PE failed", NULL, 0);
    _exit(status ? status : 1);
}

static void pmix_finalize(void)
{
    if (listen_fd >= 0)
        close(listen_fd);
    listen_fd = -1;
    free(pids);
    pids = NULL;
    PMIx_Finalize(NULL, 0);
}

static symm_boot_ops_t pmix_ops = {
    .name = "pmix",
    .allgather = pmix_allgather,
    .barrier = pmix_barrier,
    .exchange_fds = pmix_exchange_fds,
    .abort = pmix_abort,
    .finalize = pmix_finalize,
};

/* Every rank's host and process: all on this PE's node (or a message naming one that is
 * not), and the processes kept for the descriptor exchange's check. */
struct whoami {
    char host[HOST_LEN];
    int64_t pid;
};

static symm_status_t check_one_node(void)
{
    struct whoami mine = {.pid = (int64_t)getpid()};
    struct whoami *all = malloc((size_t)pmix_ops.size * sizeof(*all));
    symm_status_t st;

    pids = malloc((size_t)pmix_ops.size * sizeof(*pids));
    if (!all || !pids) {
        free(all);
        return SYMM_ERR_NOMEM;
    }
    gethostname(mine.host, sizeof(mine.host) - 1);
    st = pmix_allgather(&mine, sizeof(mine), all);
    for (int r = 0; r < pmix_ops.size && st == SYMM_OK; r++) {
        pids[r] = (pid_t)all[r].pid;
        if (strncmp(all[r].host, mine.host, HOST_LEN) != 0) {
            boot_error("pe %d runs on %s and this PE on %s: PEs on several nodes need the ucx "
                       "transport, which this build has not", r, all[r].host, mine.host);
            st = SYMM_ERR_BOOT;
        }
    }
    free(all);
    return st;
}

symm_status_t symm_boot_pmix_init(const symm_boot_ops_t **out)
{
    pmix_proc_t wild;
    pmix_value_t *v = NULL;
    pmix_status_t rc;
    struct sockaddr_un a;
    socklen_t alen;

    rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS)
        return pmix_failed("PMIx_Init (is this process started by mpirun or srun?)", rc);
    /* From here on a failure aborts the job: the other PEs may already wait in a fence. */
    pmix_ops.rank = (int)me.rank;
    PMIX_PROC_LOAD(&wild, me.nspace, PMIX_RANK_WILDCARD);
    rc = PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v);
    if (rc != PMIX_SUCCESS) {
        pmix_failed("PMIx_Get(PMIX_JOB_SIZE)", rc);
        pmix_abort(1, "symm: the job size is unknown");
    }
    pmix_ops.size = v->type == PMIX_UINT32 ? (int)v->data.uint32 : -1;
    PMIX_VALUE_RELEASE(v);
    if (pmix_ops.size < 1 || pmix_ops.rank >= pmix_ops.size) {
        boot_error("the launcher gave rank %d of a job of %d", pmix_ops.rank, pmix_ops.size);
        pmix_abort(1, "symm: a rank outside the job");
    }
    listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    alen = sock_name(pmix_ops.rank, &a);
    if (listen_fd < 0 || bind(listen_fd, (struct sockaddr *)&a, alen) != 0 ||
        listen(listen_fd, SOMAXCONN) != 0) {
        boot_error("cannot listen for descriptors: %s", strerror(errno));
        pmix_abort(1, "symm: no socket for the descriptor exchange");
    }
    /* The host check's fence also has every socket listening before any exchange. */
    if (check_one_node() != SYMM_OK)
        pmix_abort(1, "symm: PEs on several nodes");
    *out = &pmix_ops;
    return SYMM_OK;
}
