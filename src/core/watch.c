/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The host watch. A job's network transport sees a lost host only when TCP gives up on data
 * it could not deliver, which takes minutes (a PE blocked in a get to a host whose link went
 * down waited 495 s), and a host that is merely quiet is never noticed. So in a job of several
 * hosts each PE opens one TCP connection of its own to a PE of the next host (PE j of a host
 * to PE j mod m of the next, m PEs there: a ring of hosts, two connections a PE whatever the
 * job's size) and asks the kernel to probe it: keepalives every second once it is idle, and
 * the connection fails when SYMM_NET_TIMEOUT - 1 probes, or any data, go unanswered that long.
 * A kernel answers probes whatever its process does, so a PE that computes for an hour, or is
 * stopped in a debugger, keeps its host in the job; a host whose link is down, or that is
 * gone, does not. A PE's end comes as the connection's close: the peers are told first when
 * the PE leaves (finalize, or a fatal error that brings the job down anyway), so only an end
 * without a word (a process killed with its host) counts as a loss.
 *
 * A loss ends the job through the one fatal path, naming the host and its PEs; where the
 * launcher cannot be reached to stop this PE (it is on the lost side), the PE ends itself
 * shortly after.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "core/watch.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "core/core.h"

#define MAX_ADDRS 4
/* A connect to one address of a peer gives up after this long and tries the next. */
#define CONNECT_MS 2000
/* After a loss, the PE ends itself this long after asking the launcher to end the job. */
#define REAP_S 1

/* What a PE publishes: where it listens, and a token a connection must show. */
typedef struct card {
    char host[64];
    uint32_t addr[MAX_ADDRS]; /* IPv4, network order */
    uint64_t token;
    uint16_t port;
    uint16_t naddr;
} card_t;

/* The first message on a connection: who connects, and the token of the PE it meant. */
typedef struct hello {
    int32_t rank;
    uint32_t pad;
    uint64_t token;
} hello_t;

#define BYE 'b'

typedef struct conn {
    int peer;      /* -1 until its hello came */
    int bye;       /* the peer leaves the job: its close is no loss */
    size_t got;    /* bytes of the hello read */
    hello_t hello;
} conn_t;

static struct {
    int on;
    int timeout_s;
    int listen_fd;
    int wake[2];
    int target;             /* the PE this one connects to */
    card_t *cards;          /* [pe] */
    struct pollfd *pfd;     /* [0] wake, [1] listen, then connections */
    conn_t *conn;           /* [i] for pfd[i], i >= 2 */
    int n, cap;
    pthread_t thread;
    /* The set of connections, changed by the thread only; held by it while it serves, and by
     * a goodbye written from another thread. Recursive: a loss the thread finds goes through
     * the fatal path, which says goodbye. */
    pthread_mutex_t lock;
    _Atomic int leaving;
} W = {.listen_fd = -1, .wake = {-1, -1}, .lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP};

static int hosts_in_job(void)
{
    int hosts = 1;

    for (int pe = 0; symm_g.boot->host && pe < symm_g.n_pes; pe++)
        if (symm_g.boot->host[pe] + 1 > hosts)
            hosts = symm_g.boot->host[pe] + 1;
    return hosts;
}

/* The PEs of pe's node: [*first, *first + *count). Nodes are runs of consecutive PEs. */
static void node_span(int pe, int *first, int *count)
{
    int a = pe, b = pe;

    while (a > 0 && symm_g.node[a - 1] == symm_g.node[pe])
        a--;
    while (b + 1 < symm_g.n_pes && symm_g.node[b + 1] == symm_g.node[pe])
        b++;
    *first = a;
    *count = b - a + 1;
}

/* This host's IPv4 addresses, the device UCX is told to use first, loopback only if there is
 * nothing else. */
static void own_addrs(card_t *c)
{
    const char *dev = getenv("UCX_NET_DEVICES");
    struct ifaddrs *all = NULL;
    uint32_t lo = 0;

    if (getifaddrs(&all) != 0)
        return;
    for (int pass = 0; pass < 2; pass++)
        for (struct ifaddrs *i = all; i && c->naddr < MAX_ADDRS; i = i->ifa_next) {
            if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !(i->ifa_flags & IFF_UP))
                continue;
            uint32_t a = ((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr;
            int named = dev && strstr(dev, i->ifa_name) != NULL;

            if (i->ifa_flags & IFF_LOOPBACK)
                lo = a;
            else if (named == (pass == 0))
                c->addr[c->naddr++] = a;
        }
    if (c->naddr == 0 && lo)
        c->addr[c->naddr++] = lo;
    freeifaddrs(all);
}

/* Keepalives every second once idle; the connection fails when it goes unanswered for about
 * the timeout, probes or data alike. */
static void set_probes(int fd)
{
    int one = 1, idle = 1, cnt = W.timeout_s > 1 ? W.timeout_s - 1 : 1;
    unsigned ms = (unsigned)W.timeout_s * 1000u;

    setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &one, sizeof(one));
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt));
    setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &ms, sizeof(ms));
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

static int add_fd(int fd, int peer)
{
    if (W.n == W.cap) {
        int cap = W.cap ? 2 * W.cap : 8;
        struct pollfd *p = realloc(W.pfd, (size_t)cap * sizeof(*p));
        conn_t *c = p ? realloc(W.conn, (size_t)cap * sizeof(*c)) : NULL;

        if (p)
            W.pfd = p;
        if (!c)
            return -1;
        W.conn = c;
        W.cap = cap;
    }
    W.pfd[W.n] = (struct pollfd){.fd = fd, .events = POLLIN};
    W.conn[W.n] = (conn_t){.peer = peer, .got = peer >= 0 ? sizeof(hello_t) : 0};
    return W.n++;
}

static void drop(int i)
{
    close(W.pfd[i].fd);
    W.pfd[i] = W.pfd[W.n - 1];
    W.conn[i] = W.conn[W.n - 1];
    W.n--;
}

static void *reap_main(void *arg)
{
    (void)arg;
    sleep(REAP_S);
    _exit(1);
}

/* The host of pe is lost: the job ends, with one line naming it. */
static __attribute__((noreturn)) void lost(int pe, int err)
{
    int first, count;
    char pes[32], why[160];
    pthread_t t;

    node_span(pe, &first, &count);
    if (count > 1)
        snprintf(pes, sizeof(pes), "pes %d-%d", first, first + count - 1);
    else
        snprintf(pes, sizeof(pes), "pe %d", first);
    if (err == 0 || err == ECONNRESET || err == EPIPE)
        snprintf(why, sizeof(why), "pe %d there ended without leaving the job", pe);
    else
        snprintf(why, sizeof(why), "no answer from pe %d for %d s (%s)", pe, W.timeout_s,
                 strerror(err));
    if (pthread_create(&t, NULL, reap_main, NULL) == 0)
        pthread_detach(t);
    symm_fatal("host watch: lost host %s (%s): %s", W.cards[first].host, pes, why);
}

/* The target PE cannot be reached at start: no route, or something between the hosts refuses
 * the connection (a firewall). */
static __attribute__((noreturn)) void unreachable(int pe, int err)
{
    int first, count;
    char addrs[MAX_ADDRS * 20] = "";
    size_t k = 0;

    node_span(pe, &first, &count);
    for (int i = 0; i < W.cards[pe].naddr && k < sizeof(addrs); i++) {
        struct in_addr a = {.s_addr = W.cards[pe].addr[i]};

        k += (size_t)snprintf(addrs + k, sizeof(addrs) - k, "%s%s", i ? ", " : "", inet_ntoa(a));
    }
    symm_fatal("host watch: cannot reach pe %d on host %s at %s port %u: %s (SYMM_NET_TIMEOUT=0 "
               "runs the job without the watch)", pe, W.cards[first].host, addrs,
               (unsigned)ntohs(W.cards[pe].port), strerror(err));
}

/* Connects to the target PE, trying its addresses in turn; -1 and errno when none answers. */
static int connect_to(int pe)
{
    const card_t *c = &W.cards[pe];
    hello_t h = {.rank = symm_g.my_pe, .token = c->token};
    int err = EHOSTUNREACH;

    for (int k = 0; k < c->naddr; k++) {
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = c->port,
                                .sin_addr.s_addr = c->addr[k]};
        int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        struct pollfd p = {.fd = fd, .events = POLLOUT};
        socklen_t len = sizeof(err);

        if (fd < 0)
            return -1;
        set_probes(fd);
        if (connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0 && errno != EINPROGRESS) {
            err = errno;
        } else if (poll(&p, 1, CONNECT_MS) != 1) {
            err = ETIMEDOUT;
        } else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0 &&
                   send(fd, &h, sizeof(h), MSG_NOSIGNAL) == (ssize_t)sizeof(h)) {
            return fd;
        } else if (err == 0) {
            err = errno;
        }
        close(fd);
    }
    errno = err;
    return -1;
}

/* What came on connection i: its hello, a goodbye, its end or its failure. */
static void serve(int i)
{
    conn_t *c = &W.conn[i];
    char buf[64];
    ssize_t n = recv(W.pfd[i].fd, buf, sizeof(buf), 0);

    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    if (n <= 0) {
        int err = n == 0 ? 0 : errno;

        if (c->peer < 0 || c->bye || atomic_load(&W.leaving))
            drop(i);
        else
            lost(c->peer, err);
        return;
    }
    for (ssize_t k = 0; k < n; k++) {
        if (c->got < sizeof(hello_t)) {
            ((char *)&c->hello)[c->got++] = buf[k];
            if (c->got == sizeof(hello_t)) {
                if (c->hello.token != W.cards[symm_g.my_pe].token || c->hello.rank < 0 ||
                    c->hello.rank >= symm_g.n_pes) {
                    drop(i);
                    return;
                }
                c->peer = c->hello.rank;
            }
        } else if (buf[k] == BYE) {
            c->bye = 1;
        }
    }
}

static void *watch_main(void *arg)
{
    int fd;

    (void)arg;
    fd = connect_to(W.target);
    if (fd < 0) {
        if (!atomic_load(&W.leaving))
            unreachable(W.target, errno);
    } else {
        pthread_mutex_lock(&W.lock);
        if (add_fd(fd, W.target) < 0)
            close(fd);
        pthread_mutex_unlock(&W.lock);
    }
    for (;;) {
        if (poll(W.pfd, (nfds_t)W.n, -1) < 0)
            continue;
        if (W.pfd[0].revents)
            return NULL;
        pthread_mutex_lock(&W.lock);
        if (W.pfd[1].revents & POLLIN) {
            fd = accept4(W.listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
            if (fd >= 0) {
                set_probes(fd);
                if (add_fd(fd, -1) < 0)
                    close(fd);
            }
        }
        for (int i = W.n - 1; i >= 2; i--)
            if (W.pfd[i].revents)
                serve(i);
        pthread_mutex_unlock(&W.lock);
    }
}

size_t symm_watch_card(void *card, size_t cap)
{
    card_t mine = {.token = 0};
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY)};
    socklen_t alen = sizeof(a);
    const char *name = symm_g.params.host_name;
    struct timespec t;

    if (symm_g.params.net_timeout <= 0 || symm_g.params.nodes > 1 || hosts_in_job() < 2 ||
        cap < sizeof(mine))
        return 0;
    snprintf(mine.host, sizeof(mine.host), "%s", name && *name ? name : symm_g.host);
    clock_gettime(CLOCK_REALTIME, &t);
    mine.token = ((uint64_t)t.tv_nsec << 32) ^ (uint64_t)t.tv_sec ^ ((uint64_t)getpid() << 16) ^
                 (uint64_t)(uintptr_t)&mine;
    W.listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (W.listen_fd < 0 || bind(W.listen_fd, (struct sockaddr *)&a, sizeof(a)) != 0 ||
        listen(W.listen_fd, SOMAXCONN) != 0 ||
        getsockname(W.listen_fd, (struct sockaddr *)&a, &alen) != 0 ||
        pipe2(W.wake, O_CLOEXEC) != 0)
        symm_fatal("shmem_init: cannot open the host watch's socket: %s", strerror(errno));
    mine.port = a.sin_port;
    own_addrs(&mine);
    memcpy(card, &mine, sizeof(mine));
    return sizeof(mine);
}

void symm_watch_start(const void *cards)
{
    int first, count, next;

    if (!cards)
        return;
    W.timeout_s = (int)symm_g.params.net_timeout;
    W.cards = malloc((size_t)symm_g.n_pes * sizeof(card_t));
    if (!W.cards)
        symm_fatal("shmem_init: out of memory for the host watch of %d PEs", symm_g.n_pes);
    memcpy(W.cards, cards, (size_t)symm_g.n_pes * sizeof(card_t));
    /* PE j of this node watches PE j mod m of the next node. */
    node_span(symm_g.my_pe, &first, &count);
    next = first + count < symm_g.n_pes ? first + count : 0;
    node_span(next, &next, &count);
    W.target = next + (symm_g.my_pe - first) % count;
    if (add_fd(W.wake[0], -1) < 0 || add_fd(W.listen_fd, -1) < 0)
        symm_fatal("shmem_init: out of memory for the host watch");
    if (pthread_create(&W.thread, NULL, watch_main, NULL) != 0)
        symm_fatal("shmem_init: cannot start the host watch's thread");
    W.on = 1;
}

void symm_watch_leave(int wait)
{
    char bye = BYE;

    if (!W.on || atomic_exchange(&W.leaving, 1))
        return;
    pthread_mutex_lock(&W.lock);
    for (int i = 2; i < W.n; i++)
        if (send(W.pfd[i].fd, &bye, 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
            /* The peer is gone already. */
        }
    pthread_mutex_unlock(&W.lock);
    if (!wait)
        return;
    if (write(W.wake[1], &bye, 1) < 0) {
        /* The thread is gone already. */
    }
    pthread_join(W.thread, NULL);
    while (W.n > 0)
        drop(W.n - 1);
    close(W.wake[1]);
    free(W.pfd);
    free(W.conn);
    free(W.cards);
    W.on = 0;
}
