/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The `uid` bootstrap: processes started by a launcher symm does not know (torchrun,
 * mp.spawn, a shell loop) join one job through a unique id, as NVSHMEM's unique-id start
 * does. One process makes the id (shmemx_get_uniqueid): it listens on a TCP port and writes
 * its address, the port, a job key and a 32-byte secret drawn from the kernel into the id.
 * The program passes the id to every process (through torch.distributed, a file, MPI); each
 * calls shmemx_init_attr with it, its rank and the job size.
 *
 * The maker is the hub of a star. Every other process connects and opens with the first half
 * of the secret; the hub answers with the second half, so each side knows the other holds the
 * id: a connection without it is refused and named. Allgathers go up to the hub and come back
 * whole. A reader thread in every process owns its sockets' incoming side: it hands results
 * to the collective waiting for them, and it ends the job when a peer aborts or its connection
 * closes before that peer finalized, so a process that dies brings the others down at once.
 * Descriptors go between the PEs of a host over Unix sockets (fdx.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "boot/boot.h"
#include "boot/fdx.h"
#include "boot/proto.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define SECRET_LEN 32
#define HALF (SECRET_LEN / 2)
/* How long the processes of a job may take to arrive, and to finalize after the hub. */
#define JOIN_WAIT_S 120
#define FINAL_WAIT_MS 10000

/* The id's bytes (shmemx_uniqueid_t's internal part). */
struct uid_wire {
    char magic[4];
    uint16_t family;
    uint16_t port; /* network order */
    uint8_t addr[16];
    uint8_t secret[SECRET_LEN];
    uint64_t key;
};
_Static_assert(sizeof(struct uid_wire) <= SYMM_BOOT_UID_BYTES, "the id fits shmemx_uniqueid_t");

/* The id this process made: it is the hub of the job that starts with it. */
static struct {
    int fd;
    pid_t pid;
    struct uid_wire id;
} made = {.fd = -1};

static symm_boot_ops_t uid_ops;
static symm_fdx_t fdx = {.ops = &uid_ops, .what = "uid", .listen_fd = -1};

static struct {
    int hub;   /* this process is the hub */
    int *peer; /* hub: every rank's socket (-1 at its own); else peer[0] is the hub's */
    pthread_t reader;
    pthread_mutex_t lock;
    pthread_cond_t done;
    /* The collective in flight: every rank's contribution (hub) and the whole result; at the
     * hub, contributions that came before its own wait in `early`. */
    char *buf, **early;
    size_t len, *early_len;
    int have, ready, finalizing, *final;
    char *result;
} st = {.lock = PTHREAD_MUTEX_INITIALIZER, .done = PTHREAD_COND_INITIALIZER};

/* ---- The id ------------------------------------------------------------------------------ */

/* The address others reach the maker at: SYMM_BOOT_ADDR (a numeric address), else the first
 * non-loopback IPv4 interface that is up, else loopback. */
static int pick_addr(const char *want, struct sockaddr_storage *sa, socklen_t *len)
{
    struct sockaddr_in *v4 = (struct sockaddr_in *)sa;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)sa;
    struct ifaddrs *ifs, *i;

    memset(sa, 0, sizeof(*sa));
    if (want && *want) {
        if (inet_pton(AF_INET, want, &v4->sin_addr) == 1) {
            v4->sin_family = AF_INET;
            *len = sizeof(*v4);
            return 0;
        }
        if (inet_pton(AF_INET6, want, &v6->sin6_addr) == 1) {
            v6->sin6_family = AF_INET6;
            *len = sizeof(*v6);
            return 0;
        }
        fprintf(stderr,
                "symm: shmemx_get_uniqueid: SYMM_BOOT_ADDR='%s' is not a numeric IPv4 "
                "or IPv6 address\n",
                want);
        return -1;
    }
    v4->sin_family = AF_INET;
    v4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    *len = sizeof(*v4);
    if (getifaddrs(&ifs) != 0)
        return 0;
    for (i = ifs; i; i = i->ifa_next)
        if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET && (i->ifa_flags & IFF_UP) &&
            !(i->ifa_flags & IFF_LOOPBACK)) {
            v4->sin_addr = ((struct sockaddr_in *)i->ifa_addr)->sin_addr;
            break;
        }
    freeifaddrs(ifs);
    return 0;
}

symm_status_t symm_boot_uid_make(void *out, const char *addr)
{
    struct sockaddr_storage sa;
    socklen_t len;
    struct uid_wire *id = &made.id;

    if (made.fd >= 0)
        close(made.fd);
    made.fd = -1;
    memset(id, 0, sizeof(*id));
    if (pick_addr(addr, &sa, &len) != 0)
        return SYMM_ERR_INVALID;
    if (getrandom(id->secret, sizeof(id->secret), 0) != (ssize_t)sizeof(id->secret) ||
        getrandom(&id->key, sizeof(id->key), 0) != (ssize_t)sizeof(id->key))
        return SYMM_ERR_SYS;
    made.fd = socket(sa.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (made.fd < 0 || bind(made.fd, (struct sockaddr *)&sa, len) != 0 ||
        listen(made.fd, SOMAXCONN) != 0 || getsockname(made.fd, (struct sockaddr *)&sa, &len)) {
        fprintf(stderr, "symm: shmemx_get_uniqueid: cannot listen on a TCP port: %s\n",
                strerror(errno));
        return SYMM_ERR_SYS;
    }
    memcpy(id->magic, "symm", 4);
    id->family = (uint16_t)sa.ss_family;
    if (sa.ss_family == AF_INET) {
        id->port = ((struct sockaddr_in *)&sa)->sin_port;
        memcpy(id->addr, &((struct sockaddr_in *)&sa)->sin_addr, 4);
    } else {
        id->port = ((struct sockaddr_in6 *)&sa)->sin6_port;
        memcpy(id->addr, &((struct sockaddr_in6 *)&sa)->sin6_addr, 16);
    }
    made.pid = getpid();
    memset(out, 0, SYMM_BOOT_UID_BYTES);
    memcpy(out, id, sizeof(*id));
    return SYMM_OK;
}

/* ---- Messages ---------------------------------------------------------------------------- */

static int send_to(int fd, uint32_t type, const void *p, size_t len)
{
    struct symm_boot_hdr h = {.type = type, .rank = (uint32_t)uid_ops.rank, .len = len};

    return fd < 0 ? -ENOTCONN : symm_boot_send_msg(fd, &h, p);
}

/* The job ends here: tell the others why (the hub tells everyone, a process the hub), then
 * leave. */
__attribute__((noreturn)) static void end_job(int status, const char *why)
{
    char msg[sizeof(int32_t) + SYMM_BOOT_ABORT_TEXT_MAX];
    size_t len = strnlen(why, SYMM_BOOT_ABORT_TEXT_MAX);
    int32_t s = status ? status : 1;

    memcpy(msg, &s, sizeof(s));
    memcpy(msg + sizeof(s), why, len);
    for (int r = 0; st.peer && r < (st.hub ? uid_ops.size : 1); r++)
        send_to(st.peer[r], SYMM_BOOT_ABORT, msg, sizeof(s) + len);
    _exit(s);
}

/* An ABORT message arrived: print its reason and end the job. */
__attribute__((noreturn)) static void take_abort(const char *p, size_t len)
{
    int32_t s = 1;
    char why[SYMM_BOOT_ABORT_TEXT_MAX + 1] = "";

    if (len >= sizeof(s)) {
        memcpy(&s, p, sizeof(s));
        len -= sizeof(s);
        memcpy(why, p + sizeof(s), len < sizeof(why) - 1 ? len : sizeof(why) - 1);
    }
    if (st.hub) /* pass it on, then go */
        end_job(s, why);
    symm_boot_error(&uid_ops, "the job ends: %s", why[0] ? why : "a PE aborted");
    _exit(s ? s : 1);
}

/* A peer's connection closed or broke before it finalized. */
__attribute__((noreturn)) static void lost(int r)
{
    char why[160];

    snprintf(why, sizeof(why), "pe %d ended or lost its connection without finalizing", r);
    symm_boot_error(&uid_ops, "%s; the job ends",
                    st.hub ? why
                           : "the hub of the job ended or "
                             "lost its connection without finalizing");
    end_job(1, why);
}

/* ---- The reader thread --------------------------------------------------------------------- */

/* The collective is complete when every contribution is in (hub) or the result came back. */
static void complete_locked(void)
{
    st.ready = 1;
    pthread_cond_broadcast(&st.done);
}

static void hub_gathered_locked(void)
{
    for (int r = 0; r < uid_ops.size; r++)
        if (r != uid_ops.rank &&
            send_to(st.peer[r], SYMM_BOOT_ALLGATHER, st.buf, st.len * (size_t)uid_ops.size) != 0)
            lost(r);
    st.result = st.buf;
    st.buf = NULL; /* a contribution to the next collective is early now */
    complete_locked();
}

/* Rank r's contribution of len bytes to the hub's collective in flight. */
static void hub_take_locked(int r, const char *p, size_t len)
{
    if (len != st.len) {
        pthread_mutex_unlock(&st.lock);
        symm_boot_error(&uid_ops,
                        "pe %d is out of step (a collective of %zu bytes, this PE's "
                        "has %zu)",
                        r, len, st.len);
        end_job(1, "the PEs' bootstrap collectives are out of step");
    }
    if (len)
        memcpy(st.buf + (size_t)r * len, p, len);
    if (++st.have == uid_ops.size)
        hub_gathered_locked();
}

/* One message from rank r's socket (the hub's, at a process). */
static void take(int r, int fd)
{
    struct symm_boot_hdr h;
    char *p = NULL;

    if (symm_boot_recv_all(fd, &h, sizeof(h)) != 0) {
        int gone;

        pthread_mutex_lock(&st.lock);
        gone = st.finalizing || (st.hub && st.final[r]);
        if (gone) {
            close(fd);
            st.peer[st.hub ? r : 0] = -1;
        }
        pthread_mutex_unlock(&st.lock);
        if (gone)
            return;
        lost(r);
    }
    if (h.len > ((size_t)1 << 30) || (h.len && !(p = malloc(h.len))) ||
        (h.len && symm_boot_recv_all(fd, p, h.len) != 0))
        lost(r);
    pthread_mutex_lock(&st.lock);
    switch (h.type) {
    case SYMM_BOOT_ABORT:
        pthread_mutex_unlock(&st.lock);
        take_abort(p, h.len);
    case SYMM_BOOT_FINALIZE:
        if (st.hub)
            st.final[r] = 1;
        pthread_cond_broadcast(&st.done);
        break;
    case SYMM_BOOT_ALLGATHER:
        if (!st.hub) {
            st.result = p;
            p = NULL;
            complete_locked();
        } else if (st.buf) {
            hub_take_locked(r, p, h.len);
        } else if (!st.early[r]) {
            st.early[r] = p ? p : malloc(1);
            st.early_len[r] = h.len;
            p = NULL;
        } else {
            pthread_mutex_unlock(&st.lock);
            symm_boot_error(&uid_ops, "pe %d is two collectives ahead", r);
            end_job(1, "the PEs' bootstrap collectives are out of step");
        }
        break;
    default:
        pthread_mutex_unlock(&st.lock);
        end_job(1, "a bootstrap message of an unknown type");
    }
    pthread_mutex_unlock(&st.lock);
    free(p);
}

static void *reader(void *arg)
{
    const int n = st.hub ? uid_ops.size : 1;
    struct pollfd *p = calloc((size_t)n + 1, sizeof(*p));

    (void)arg;
    if (!p)
        end_job(1, "out of memory in the bootstrap");
    for (;;) {
        int k = 0;

        for (int r = 0; r < n; r++)
            if (st.peer[r] >= 0)
                p[k++] = (struct pollfd){.fd = st.peer[r], .events = POLLIN};
        if (k == 0)
            break;
        if (poll(p, (nfds_t)k, -1) < 0 && errno != EINTR)
            end_job(1, "poll failed in the bootstrap");
        for (int i = 0; i < k; i++)
            if (p[i].revents) {
                int r = 0;

                while (r < n && st.peer[r] != p[i].fd)
                    r++;
                if (r < n)
                    take(r, p[i].fd);
            }
    }
    free(p);
    return NULL;
}

/* ---- Collectives ------------------------------------------------------------------------ */

static symm_status_t uid_allgather(const void *in, size_t len, void *out)
{
    size_t total;

    if (__builtin_mul_overflow(len, (size_t)uid_ops.size, &total))
        return SYMM_ERR_INVALID;
    pthread_mutex_lock(&st.lock);
    st.ready = 0;
    st.result = NULL;
    if (uid_ops.size == 1) {
        if (len)
            memmove(out, in, len);
        pthread_mutex_unlock(&st.lock);
        return SYMM_OK;
    }
    if (st.hub) {
        /* Contributions of faster processes may already wait in their sockets: the reader
         * takes them once the buffer is there. */
        st.buf = malloc(total ? total : 1);
        if (!st.buf) {
            pthread_mutex_unlock(&st.lock);
            return SYMM_ERR_NOMEM;
        }
        st.len = len;
        st.have = 0;
        hub_take_locked(uid_ops.rank, in, len);
        for (int r = 0; r < uid_ops.size; r++)
            if (st.early[r]) {
                hub_take_locked(r, st.early[r], st.early_len[r]);
                free(st.early[r]);
                st.early[r] = NULL;
            }
    } else if (send_to(st.peer[0], SYMM_BOOT_ALLGATHER, in, len) != 0) {
        pthread_mutex_unlock(&st.lock);
        lost(0);
    }
    while (!st.ready)
        pthread_cond_wait(&st.done, &st.lock);
    if (total)
        memcpy(out, st.result, total);
    free(st.result);
    st.result = NULL;
    pthread_mutex_unlock(&st.lock);
    return SYMM_OK;
}

static symm_status_t uid_barrier(void)
{
    return uid_allgather(NULL, 0, NULL);
}

static symm_status_t uid_exchange_fds(const int *fds, int n, int first, int count, int *out)
{
    return symm_fdx_exchange(&fdx, fds, n, first, count, out);
}

__attribute__((noreturn)) static void uid_abort(int status, const char *why)
{
    end_job(status, why ? why : "a PE failed");
}

/* A process says it finalized and closes; the hub waits until every process has said so (or
 * FINAL_WAIT_MS passed), so that none takes the hub's leaving for a failure. */
static void uid_finalize(void)
{
    pthread_mutex_lock(&st.lock);
    st.finalizing = 1;
    if (!st.hub && st.peer)
        send_to(st.peer[0], SYMM_BOOT_FINALIZE, NULL, 0);
    for (int64_t end = symm_boot_now_ms() + FINAL_WAIT_MS; st.hub;) {
        struct timespec ts;
        int all = 1;

        for (int r = 0; r < uid_ops.size; r++)
            all &= r == uid_ops.rank || st.final[r];
        if (all || symm_boot_now_ms() >= end)
            break;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 10 * 1000000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&st.done, &st.lock, &ts);
    }
    pthread_mutex_unlock(&st.lock);
    for (int r = 0; st.peer && r < (st.hub ? uid_ops.size : 1); r++)
        if (st.peer[r] >= 0)
            shutdown(st.peer[r], SHUT_RDWR);
    if (uid_ops.size > 1)
        pthread_join(st.reader, NULL); /* it closes each socket at its end */
    for (int r = 0; r < uid_ops.size; r++)
        free(st.early[r]);
    free(st.early);
    free(st.early_len);
    free(st.peer);
    free(st.final);
    st.peer = NULL;
    st.final = NULL;
    symm_fdx_close(&fdx);
}

static symm_boot_ops_t uid_ops = {
    .name = "uid",
    .allgather = uid_allgather,
    .barrier = uid_barrier,
    .exchange_fds = uid_exchange_fds,
    .abort = uid_abort,
    .finalize = uid_finalize,
};

/* ---- Joining ----------------------------------------------------------------------------- */

/* Opening of a connection: rank, job size, the first half of the secret. */
struct hello {
    int32_t rank;
    int32_t size;
    uint8_t half[HALF];
};

static int secret_eq(const uint8_t *a, const uint8_t *b)
{
    uint8_t d = 0;

    for (int i = 0; i < HALF; i++)
        d |= (uint8_t)(a[i] ^ b[i]);
    return d == 0;
}

/* The hub takes the other size - 1 processes, each once, each with the secret. */
static symm_status_t hub_join(const struct uid_wire *id)
{
    int64_t end = symm_boot_now_ms() + JOIN_WAIT_S * 1000;
    int joined = 1;

    while (joined < uid_ops.size) {
        struct pollfd p = {.fd = made.fd, .events = POLLIN};
        struct timeval tv = {.tv_sec = 10};
        struct symm_boot_hdr h;
        struct hello m;
        char from[INET6_ADDRSTRLEN + 8] = "?";
        struct sockaddr_storage sa;
        socklen_t salen = sizeof(sa);
        int s, one = 1;

        if (poll(&p, 1, (int)(end - symm_boot_now_ms() > 0 ? end - symm_boot_now_ms() : 0)) <= 0) {
            symm_boot_error(&uid_ops,
                            "%d of %d processes joined in %d s; the others did not "
                            "call shmemx_init_attr with this id",
                            joined, uid_ops.size, JOIN_WAIT_S);
            return SYMM_ERR_BOOT;
        }
        s = accept4(made.fd, (struct sockaddr *)&sa, &salen, SOCK_CLOEXEC);
        if (s < 0)
            continue;
        getnameinfo((struct sockaddr *)&sa, salen, from, sizeof(from), NULL, 0, NI_NUMERICHOST);
        setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
        setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
        if (symm_boot_recv_all(s, &h, sizeof(h)) != 0 || h.type != SYMM_BOOT_HELLO ||
            h.len != sizeof(m) || symm_boot_recv_all(s, &m, sizeof(m)) != 0 ||
            !secret_eq(m.half, id->secret)) {
            symm_boot_error(&uid_ops,
                            "refused a connection from %s: it does not hold this "
                            "job's unique id",
                            from);
            close(s);
            continue;
        }
        if (m.size != uid_ops.size || m.rank < 0 || m.rank >= uid_ops.size ||
            st.peer[m.rank] >= 0 || m.rank == uid_ops.rank) {
            symm_boot_error(&uid_ops,
                            "a process at %s joins as rank %d of %d, and this job has "
                            "%d ranks with rank %d %s",
                            from, (int)m.rank, (int)m.size, uid_ops.size, (int)m.rank,
                            m.rank == uid_ops.rank ||
                                    (m.rank >= 0 && m.rank < uid_ops.size && st.peer[m.rank] >= 0)
                                ? "taken already"
                                : "outside it");
            close(s);
            return SYMM_ERR_INVALID;
        }
        tv.tv_sec = 0;
        setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
        st.peer[m.rank] = s;
        if (send_to(s, SYMM_BOOT_HELLO, id->secret + HALF, HALF) != 0)
            return SYMM_ERR_BOOT;
        joined++;
    }
    close(made.fd);
    made.fd = -1;
    return SYMM_OK;
}

/* A process reaches the hub (retrying while it is not yet there) and checks it holds the id. */
static symm_status_t join_hub(const struct uid_wire *id)
{
    struct sockaddr_storage sa = {0};
    socklen_t len;
    struct hello m = {.rank = uid_ops.rank, .size = uid_ops.size};
    struct symm_boot_hdr h;
    uint8_t half[HALF];
    int64_t end = symm_boot_now_ms() + JOIN_WAIT_S * 1000;
    int s = -1, one = 1;
    char where[INET6_ADDRSTRLEN] = "?";

    sa.ss_family = id->family;
    if (id->family == AF_INET) {
        ((struct sockaddr_in *)&sa)->sin_port = id->port;
        memcpy(&((struct sockaddr_in *)&sa)->sin_addr, id->addr, 4);
        len = sizeof(struct sockaddr_in);
    } else {
        ((struct sockaddr_in6 *)&sa)->sin6_port = id->port;
        memcpy(&((struct sockaddr_in6 *)&sa)->sin6_addr, id->addr, 16);
        len = sizeof(struct sockaddr_in6);
    }
    inet_ntop(id->family, id->addr, where, sizeof(where));
    for (;;) {
        s = socket(id->family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (s >= 0 && connect(s, (struct sockaddr *)&sa, len) == 0)
            break;
        if (s >= 0)
            close(s);
        if (symm_boot_now_ms() >= end) {
            symm_boot_error(&uid_ops,
                            "cannot reach the process that made the unique id at "
                            "%s port %u: %s",
                            where, ntohs(id->port), strerror(errno));
            return SYMM_ERR_BOOT;
        }
        usleep(20000);
    }
    setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    memcpy(m.half, id->secret, HALF);
    st.peer[0] = s;
    if (send_to(s, SYMM_BOOT_HELLO, &m, sizeof(m)) != 0 || symm_boot_recv_all(s, &h, sizeof(h)) ||
        h.type != SYMM_BOOT_HELLO || h.len != HALF || symm_boot_recv_all(s, half, HALF) ||
        !secret_eq(half, id->secret + HALF)) {
        symm_boot_error(&uid_ops,
                        "the process at %s port %u did not admit rank %d (it holds "
                        "another id, or another process joined as rank %d)",
                        where, ntohs(id->port), uid_ops.rank, uid_ops.rank);
        return SYMM_ERR_BOOT;
    }
    return SYMM_OK;
}

symm_status_t symm_boot_uid_init(const symm_boot_ops_t **out)
{
    struct uid_wire id;
    symm_status_t rc;
    int n;

    if (symm_boot_req.how != SYMM_BOOT_UID || !symm_boot_req.uid) {
        symm_boot_error(&uid_ops, "chosen by shmemx_init_attr with a unique id only");
        return SYMM_ERR_INVALID;
    }
    memcpy(&id, symm_boot_req.uid, sizeof(id));
    uid_ops.rank = symm_boot_req.rank;
    uid_ops.size = symm_boot_req.size;
    if (memcmp(id.magic, "symm", 4) != 0 || (id.family != AF_INET && id.family != AF_INET6)) {
        symm_boot_error(&uid_ops, "the unique id was not made by shmemx_get_uniqueid (or "
                                  "nvshmemx_get_uniqueid) of this library");
        return SYMM_ERR_INVALID;
    }
    if (uid_ops.size < 1 || uid_ops.rank < 0 || uid_ops.rank >= uid_ops.size) {
        symm_boot_error(&uid_ops, "rank %d of a job of %d ranks", uid_ops.rank, uid_ops.size);
        return SYMM_ERR_INVALID;
    }
    st.hub = made.fd >= 0 && made.pid == getpid() && !memcmp(&made.id, &id, sizeof(id));
    n = st.hub ? uid_ops.size : 1;
    st.peer = malloc(sizeof(int) * (size_t)n);
    st.final = calloc((size_t)uid_ops.size, sizeof(int));
    st.early = calloc((size_t)uid_ops.size, sizeof(char *));
    st.early_len = calloc((size_t)uid_ops.size, sizeof(size_t));
    if (!st.peer || !st.final || !st.early || !st.early_len)
        return SYMM_ERR_NOMEM;
    for (int r = 0; r < n; r++)
        st.peer[r] = -1;
    if (uid_ops.size > 1) {
        rc = st.hub ? hub_join(&id) : join_hub(&id);
        if (rc != SYMM_OK)
            end_job(1, "the job could not form");
        if (pthread_create(&st.reader, NULL, reader, NULL) != 0)
            end_job(1, "no thread for the bootstrap");
    }
    fdx.key = id.key;
    if (symm_fdx_start(&fdx) != SYMM_OK)
        end_job(1, "the bootstrap cannot start");
    *out = &uid_ops;
    return SYMM_OK;
}
