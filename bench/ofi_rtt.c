/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * ofi_rtt: libfabric's own figures between two processes, with no OpenSHMEM on it, as the floor
 * under the rows of bench/compare.sh that run over libfabric (`compare.sh ofi`). The program
 * forks: the parent measures, the child serves; each opens its own fabric, domain and RDM
 * endpoint on the provider libfabric picks (FI_PROVIDER chooses it, e.g. 'tcp;ofi_rxm'), asks
 * for FI_MSG, FI_RMA and FI_ATOMIC, registers one buffer, and the two swap their cards (address,
 * key, the buffer's base as the peer's RMA calls name it) over a socketpair, which then carries
 * the commands that end each phase. The memory registration modes the provider requires are
 * honoured: FI_MR_LOCAL (every call gets the buffer's descriptor), FI_MR_VIRT_ADDR (remote
 * addresses are virtual addresses, else offsets into the region), FI_MR_PROV_KEY (the key is the
 * provider's, else ours), FI_MR_ENDPOINT (the region is bound to the endpoint and enabled) and
 * FI_MR_ALLOCATED (the buffer is allocated and registered whole before use); FI_CONTEXT and
 * FI_CONTEXT2 get a context of their own per operation in flight. The child keeps the provider
 * progressing by reading its completion queue while the parent measures (a provider of manual
 * progress moves no data without it), and echoes messages in the ping-pong.
 *
 * Cases, PE 0's figures against PE 1 as in bench.c:
 * - ofi_write8: an 8-byte fi_write with FI_DELIVERY_COMPLETE, awaited (a put and a quiet);
 * - ofi_read8: an 8-byte fi_read, awaited (a g);
 * - ofi_fetch_add: fi_fetch_atomic of FI_SUM on an FI_UINT64, awaited (a fetch-and-add);
 * - ofi_pingpong: 8 bytes sent with fi_inject and answered alike, the round trip;
 * - ofi_write_4k, _1m, _16m: a stream of fi_write of that size from one source, a window of them
 *   in flight at most, the last with FI_DELIVERY_COMPLETE, all awaited: the bandwidth (a stream
 *   of putmem ended by one quiet), timed with 1, 8 and 64 in flight, the best window's figure.
 * A provider without FI_DELIVERY_COMPLETE gets plain writes, and the info line says so.
 * Trials as in bench.c: warm-up finds an iteration count that lasts about TRIAL_NS, then TRIALS
 * timed trials, the median reported with the best and worst beside it. Each process is pinned to
 * a CPU of its own (0 and 1) where there are two.
 * Output: `info provider=NAME fabric=F domain=D mr_mode=0xM completion=delivery|transmit`, then
 * one line per case, `case=NAME pes=2 value=V unit=ns|GB/s stat=median trials=T iters=I best=B
 * worst=W`, then `done pes=2`.
 *
 * Usage: ofi_rtt [CASE...]   runs the named cases (default: all), in table order.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <inttypes.h>
#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TRIAL_NS 10e6 /* one trial lasts about 10 ms */
#define TRIALS 7
#define MIN_ITERS 16
#define STREAM_MAX (16L << 20) /* the largest write of the stream */
#define CONTEXTS 128           /* operations in flight at most, each with its context */
#define STOP UINT64_MAX        /* the ping-pong's last message: the child answers no more */

/* The buffer: small cases' words on the first page, the stream's source and target after it. */
enum {
    OFF_WORD = 0,
    OFF_AMO = 64,
    OFF_RESULT = 128,
    OFF_SRC = 192,
    OFF_MSG = 256,
    OFF_RECV = 320,
    OFF_STREAM = 4096
};
#define BUF_BYTES (OFF_STREAM + STREAM_MAX)

/* What a process tells its peer: where its buffer is and how to reach it. */
typedef struct {
    uint64_t base; /* the buffer as the peer's RMA calls address it */
    uint64_t key;
    size_t addrlen;
    char addr[256];
} card_t;

static struct {
    struct fi_info *info;
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    struct fid_av *av;
    struct fid_cq *cq;
    struct fid_ep *ep;
    struct fid_mr *mr;
    void *desc;
    char *buf;
    fi_addr_t peer;
    card_t far;        /* the peer's card */
    int sock;          /* the socketpair's end: cards, then one-byte commands */
    int delivery;      /* FI_DELIVERY_COMPLETE is to be had */
    size_t window;     /* writes of a stream in flight at most */
    size_t window_max; /* the transmit queue's size */
    struct fi_context2 ctx[CONTEXTS];
    unsigned long posted; /* operations posted so far, which picks each one's context */
    long pending;         /* completions still to come */
} p;

#define CHECK(call)                                                                                \
    do {                                                                                           \
        long rc_ = (long)(call);                                                                   \
        if (rc_ < 0)                                                                               \
            die(#call, rc_);                                                                       \
    } while (0)

static void die(const char *what, long rc)
{
    fprintf(stderr, "ofi_rtt: %s: %s\n", what, fi_strerror((int)-rc));
    exit(1);
}

static double now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void *next_ctx(void)
{
    return &p.ctx[p.posted++ % CONTEXTS];
}

/* Reads the completion queue once (which progresses the provider); the completions read. */
static long progress(void)
{
    struct fi_cq_entry done[16];
    struct fi_cq_err_entry err = {0};
    ssize_t n = fi_cq_read(p.cq, done, 16);

    if (n > 0) {
        p.pending -= n;
        return n;
    }
    if (n == -FI_EAGAIN)
        return 0;
    if (n == -FI_EAVAIL && fi_cq_readerr(p.cq, &err, 0) > 0) {
        fprintf(stderr, "ofi_rtt: completion error: %s\n",
                fi_cq_strerror(p.cq, err.prov_errno, err.err_data, NULL, 0));
        exit(1);
    }
    die("fi_cq_read", n);
    return 0;
}

/* Waits until at most `left` completions are still to come. */
static void drain(long left)
{
    while (p.pending > left)
        progress();
}

/* Posts an operation, progressing while the provider asks to be retried; counts its completion
 * when it has one. */
#define POST(call, completes)                                                                      \
    do {                                                                                           \
        ssize_t rc_;                                                                               \
        while ((rc_ = (call)) == -FI_EAGAIN)                                                       \
            progress();                                                                            \
        if (rc_ < 0)                                                                               \
            die(#call, rc_);                                                                       \
        p.pending += (completes);                                                                  \
    } while (0)

/* An fi_write from this process's buffer at `from` to the peer's at `to`. */
static void write_msg(size_t from, size_t to, size_t bytes, uint64_t flags)
{
    struct iovec iov = {.iov_base = p.buf + from, .iov_len = bytes};
    struct fi_rma_iov rma = {.addr = p.far.base + to, .len = bytes, .key = p.far.key};
    struct fi_msg_rma msg = {.msg_iov = &iov,
                             .desc = &p.desc,
                             .iov_count = 1,
                             .addr = p.peer,
                             .rma_iov = &rma,
                             .rma_iov_count = 1,
                             .context = next_ctx()};

    POST(fi_writemsg(p.ep, &msg, flags | FI_COMPLETION), 1);
}

/* ---- cases ------------------------------------------------------------------------------- */
typedef struct {
    const char *name;
    const char *unit;
    size_t bytes;
    void (*kernel)(size_t bytes, long iters);
} probe_case_t;

static void k_write8(size_t bytes, long iters)
{
    for (long i = 0; i < iters; i++) {
        write_msg(OFF_SRC, OFF_WORD, bytes, p.delivery ? FI_DELIVERY_COMPLETE : 0);
        drain(0);
    }
}

static void k_read8(size_t bytes, long iters)
{
    for (long i = 0; i < iters; i++) {
        POST(fi_read(p.ep, p.buf + OFF_RESULT, bytes, p.desc, p.peer, p.far.base + OFF_WORD,
                     p.far.key, next_ctx()),
             1);
        drain(0);
    }
}

static void k_fetch_add(size_t bytes, long iters)
{
    *(uint64_t *)(p.buf + OFF_SRC) = 1;
    for (long i = 0; i < iters; i++) {
        POST(fi_fetch_atomic(p.ep, p.buf + OFF_SRC, 1, p.desc, p.buf + OFF_RESULT, p.desc, p.peer,
                             p.far.base + OFF_AMO, p.far.key, FI_UINT64, FI_SUM, next_ctx()),
             1);
        drain(0);
    }
    (void)bytes;
}

/* One message of 8 bytes each way: the receive is posted before the send that it answers. */
static void pingpong_send(uint64_t v)
{
    *(uint64_t *)(p.buf + OFF_MSG) = v;
    POST(fi_inject(p.ep, p.buf + OFF_MSG, sizeof(v), p.peer), 0);
}

static void post_recv(void)
{
    POST(fi_recv(p.ep, p.buf + OFF_RECV, sizeof(uint64_t), p.desc, p.peer, next_ctx()), 1);
}

static void k_pingpong(size_t bytes, long iters)
{
    for (long i = 0; i < iters; i++) {
        post_recv();
        pingpong_send((uint64_t)i);
        drain(0);
    }
    (void)bytes;
}

static void k_stream(size_t bytes, long iters)
{
    for (long i = 0; i < iters; i++) {
        drain((long)p.window - 1);
        write_msg(OFF_STREAM, OFF_STREAM, bytes,
                  i == iters - 1 && p.delivery ? FI_DELIVERY_COMPLETE : 0);
    }
    drain(0);
}

static const probe_case_t cases[] = {
    {"ofi_write8", "ns", 8, k_write8},
    {"ofi_read8", "ns", 8, k_read8},
    {"ofi_fetch_add", "ns", 8, k_fetch_add},
    {"ofi_pingpong", "ns", 8, k_pingpong},
    {"ofi_write_4k", "GB/s", 4096, k_stream},
    {"ofi_write_1m", "GB/s", 1L << 20, k_stream},
    {"ofi_write_16m", "GB/s", 16L << 20, k_stream},
};

/* ---- setup ------------------------------------------------------------------------------- */
static void pin(int cpu)
{
    cpu_set_t set;

    if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
        return;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof(set), &set) != 0)
        perror("ofi_rtt: sched_setaffinity");
}

static void full_io(ssize_t (*io)(int, void *, size_t), void *data, size_t len)
{
    for (char *c = data; len > 0;) {
        ssize_t n = io(p.sock, c, len);

        if (n <= 0) {
            fprintf(stderr, "ofi_rtt: the peer went away\n");
            exit(1);
        }
        c += n;
        len -= (size_t)n;
    }
}

static ssize_t write_io(int fd, void *data, size_t len)
{
    return write(fd, data, len);
}

static void tell(char c)
{
    full_io(write_io, &c, 1);
}

static char hear(void)
{
    char c;

    full_io(read, &c, 1);
    return c;
}

static struct fi_info *find_provider(void)
{
    struct fi_info *hints = fi_allocinfo(), *info = NULL;
    int rc;

    if (!hints)
        die("fi_allocinfo", -FI_ENOMEM);
    hints->caps = FI_MSG | FI_RMA | FI_ATOMIC;
    hints->mode = FI_CONTEXT | FI_CONTEXT2;
    hints->ep_attr->type = FI_EP_RDM;
    hints->domain_attr->mr_mode =
        FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_ENDPOINT;
    hints->domain_attr->threading = FI_THREAD_DOMAIN;
    hints->tx_attr->op_flags = FI_DELIVERY_COMPLETE;
    rc = fi_getinfo(FI_VERSION(FI_MAJOR_VERSION, FI_MINOR_VERSION), NULL, NULL, 0, hints, &info);
    p.delivery = rc == 0;
    if (rc == -FI_ENODATA) {
        hints->tx_attr->op_flags = 0;
        rc =
            fi_getinfo(FI_VERSION(FI_MAJOR_VERSION, FI_MINOR_VERSION), NULL, NULL, 0, hints, &info);
    }
    if (rc != 0)
        die("fi_getinfo (FI_EP_RDM with FI_MSG, FI_RMA and FI_ATOMIC)", rc);
    fi_freeinfo(hints);
    /* Delivery completion is asked per operation; the others complete when sent. */
    info->tx_attr->op_flags = 0;
    return info;
}

static void open_endpoint(void)
{
    struct fi_cq_attr cq_attr = {.format = FI_CQ_FORMAT_CONTEXT, .wait_obj = FI_WAIT_NONE};
    struct fi_av_attr av_attr = {.type = FI_AV_TABLE};
    uint64_t mr_mode;

    p.info = find_provider();
    mr_mode = p.info->domain_attr->mr_mode;
    if (p.info->domain_attr->mr_key_size > sizeof(uint64_t))
        die("raw memory keys are not handled", -FI_ENOSYS);
    if (p.info->tx_attr->inject_size < sizeof(uint64_t))
        die("an inject size below 8 bytes", -FI_ENOSYS);
    if (p.info->domain_attr->av_type != FI_AV_UNSPEC)
        av_attr.type = p.info->domain_attr->av_type;
    p.window_max = p.info->tx_attr->size ? p.info->tx_attr->size : SIZE_MAX;
    CHECK(fi_fabric(p.info->fabric_attr, &p.fabric, NULL));
    CHECK(fi_domain(p.fabric, p.info, &p.domain, NULL));
    CHECK(fi_cq_open(p.domain, &cq_attr, &p.cq, NULL));
    CHECK(fi_av_open(p.domain, &av_attr, &p.av, NULL));
    CHECK(fi_endpoint(p.domain, p.info, &p.ep, NULL));
    CHECK(fi_ep_bind(p.ep, &p.av->fid, 0));
    CHECK(fi_ep_bind(p.ep, &p.cq->fid, FI_TRANSMIT | FI_RECV));
    CHECK(fi_enable(p.ep));

    p.buf = aligned_alloc(4096, BUF_BYTES);
    if (!p.buf)
        die("aligned_alloc", -FI_ENOMEM);
    memset(p.buf, 0, BUF_BYTES);
    CHECK(fi_mr_reg(p.domain, p.buf, BUF_BYTES,
                    FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE | FI_SEND | FI_RECV, 0,
                    0x5359, 0, &p.mr, NULL));
    if (mr_mode & FI_MR_ENDPOINT) {
        CHECK(fi_mr_bind(p.mr, &p.ep->fid, 0));
        CHECK(fi_mr_enable(p.mr));
    }
    p.desc = fi_mr_desc(p.mr);
}

/* Swaps cards with the peer and enters its address. */
static void meet(void)
{
    card_t me = {.addrlen = sizeof(me.addr)};

    CHECK(fi_getname(&p.ep->fid, me.addr, &me.addrlen));
    me.key = fi_mr_key(p.mr);
    if (me.key == FI_KEY_NOTAVAIL)
        die("fi_mr_key", -FI_ENOSYS);
    me.base = p.info->domain_attr->mr_mode & FI_MR_VIRT_ADDR ? (uint64_t)(uintptr_t)p.buf : 0;
    full_io(write_io, &me, sizeof(me));
    full_io(read, &p.far, sizeof(p.far));
    if (fi_av_insert(p.av, p.far.addr, 1, &p.peer, 0, NULL) != 1)
        die("fi_av_insert", -FI_EINVAL);
}

/* ---- the two sides ----------------------------------------------------------------------- */
/* The child: keeps the provider progressing while the parent's RMA and atomics run ('r'),
 * answers the ping-pong ('p') and leaves at 'q'. */
static void serve(void)
{
    for (char cmd = hear(); cmd != 'q';) {
        if (cmd == 'p') {
            post_recv();
            tell('k');
            for (;;) {
                uint64_t v;

                drain(0);
                v = *(uint64_t *)(p.buf + OFF_RECV);
                if (v == STOP)
                    break;
                post_recv();
                pingpong_send(v);
            }
            cmd = hear();
            continue;
        }
        for (unsigned long i = 1;; i++) {
            progress();
            if (i % 256 == 0 && recv(p.sock, &cmd, 1, MSG_DONTWAIT) == 1)
                break;
        }
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

static double trial(const probe_case_t *c, long iters)
{
    double t0 = now_ns();

    c->kernel(c->bytes, iters);
    return now_ns() - t0;
}

/* A figure: the median of the trials, with the best and the worst. */
typedef struct {
    double median, best, worst;
    long iters;
} figure_t;

static figure_t timed(const probe_case_t *c)
{
    double t[TRIALS], v[TRIALS], ns;
    long iters = 1;
    int bw = strcmp(c->unit, "GB/s") == 0;

    trial(c, MIN_ITERS); /* the first operations may open connections */
    while ((ns = trial(c, iters)) < TRIAL_NS / 4)
        iters *= 2;
    iters = (long)(iters * TRIAL_NS / ns);
    if (iters < MIN_ITERS)
        iters = MIN_ITERS;
    for (int i = 0; i < TRIALS; i++)
        t[i] = trial(c, iters);
    for (int i = 0; i < TRIALS; i++)
        v[i] = bw ? (double)c->bytes * iters / t[i] : t[i] / iters;
    qsort(v, TRIALS, sizeof(v[0]), cmp_double);
    return (figure_t){.median = v[TRIALS / 2],
                      .best = bw ? v[TRIALS - 1] : v[0],
                      .worst = bw ? v[0] : v[TRIALS - 1],
                      .iters = iters};
}

/* A stream is timed at each window of `windows` the transmit queue allows, and its figure is the
 * best window's: how many writes in flight serve a provider best depends on the provider. */
static const size_t windows[] = {1, 8, 64};

static void measure(const probe_case_t *c)
{
    figure_t f, best = {0};
    size_t window = 0;

    if (c->kernel == k_pingpong) {
        tell('p');
        if (hear() != 'k')
            die("the peer's answer", -FI_EOTHER);
    } else {
        tell('r');
    }
    if (c->kernel == k_stream) {
        for (size_t i = 0; i < sizeof(windows) / sizeof(windows[0]); i++) {
            p.window = windows[i] < p.window_max ? windows[i] : p.window_max;
            if (p.window == window)
                continue;
            f = timed(c);
            if (window == 0 || f.median > best.median) {
                best = f;
                window = p.window;
            }
        }
    } else {
        best = timed(c);
    }
    if (c->kernel == k_pingpong) {
        /* Sent with a completion, awaited: a provider of manual progress may otherwise keep
         * it until this process next reads its queue, and the child would wait for it. */
        *(uint64_t *)(p.buf + OFF_MSG) = STOP;
        POST(fi_send(p.ep, p.buf + OFF_MSG, sizeof(uint64_t), p.desc, p.peer, next_ctx()), 1);
        drain(0);
    }
    printf("case=%s pes=2 value=%.4g unit=%s stat=median trials=%d iters=%ld best=%.4g "
           "worst=%.4g",
           c->name, best.median, c->unit, TRIALS, best.iters, best.best, best.worst);
    if (window)
        printf(" window=%zu", window);
    printf("\n");
    fflush(stdout);
}

static int wanted(const char *name, int argc, char **argv)
{
    if (argc < 2)
        return 1;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    int sv[2], status;
    pid_t child;
    size_t fetch_count = 0;

    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) {
        perror("ofi_rtt: socketpair");
        return 1;
    }
    child = fork();
    if (child < 0) {
        perror("ofi_rtt: fork");
        return 1;
    }
    p.sock = sv[child == 0];
    close(sv[child != 0]);
    pin(child == 0);
    open_endpoint();
    meet();
    if (child == 0) {
        serve();
        return 0;
    }
    if (fi_fetch_atomicvalid(p.ep, FI_UINT64, FI_SUM, &fetch_count) != 0 || fetch_count < 1)
        die("fi_fetch_atomicvalid (FI_SUM on FI_UINT64)", -FI_EOPNOTSUPP);
    printf("info provider=%s fabric=%s domain=%s mr_mode=0x%" PRIx64 " completion=%s\n",
           p.info->fabric_attr->prov_name, p.info->fabric_attr->name, p.info->domain_attr->name,
           (uint64_t)p.info->domain_attr->mr_mode, p.delivery ? "delivery" : "transmit");
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        if (wanted(cases[i].name, argc, argv))
            measure(&cases[i]);
    tell('q');
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "ofi_rtt: the serving process failed\n");
        return 1;
    }
    printf("done pes=2\n");
    return 0;
}
