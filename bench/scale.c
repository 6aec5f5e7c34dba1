/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * scale: what one PE of a job costs as the job grows, written against the standard OpenSHMEM
 * API only (1.4's shmem.h builds it: the 1.5 team collectives are used where the header
 * promises them, else the active-set forms), so the same source runs on symm and on Open MPI's
 * OpenSHMEM. Every PE records CLOCK_REALTIME on entering main and when shmem_init returns; PE 0
 * records it when the first shmem_barrier_all returns, the end of the job's launch, which
 * scale.sh sets against the moment it started the launcher. Every PE takes a snapshot of its
 * memory (/proc/self/status and smaps_rollup), its open descriptors and its TCP sockets (the
 * inodes of the sockets among /proc/self/fd found in /proc/self/net/tcp and tcp6, which show
 * the PE's own network namespace) after shmem_init, after that first barrier and at the end.
 * Nothing is allocated before the second snapshot, so the first two hold only what the library
 * keeps for the job. Then PE 0 times shmem_barrier_all, an alltoall of 8 B per pair and an
 * fcollect of 1 MiB per PE: a few warm-up calls, then a fixed number of calls, each timed alone
 * (back to back; the active-set forms alternate two pSync arrays), and reports their median and
 * mean. At the end every PE puts its record into PE 0's symmetric array, and PE 0 prints them.
 *
 * Output (PE 0): `lat=NAME median_us=U mean_us=U iters=N wall_ms=T` per latency (wall_ms: the
 * whole measure with its warm-up); per PE `pe=I t_main=S t_init=S` and, for each snapshot SNAP
 * (init, first, end), `SNAP_rss SNAP_pss SNAP_anon SNAP_shm SNAP_pte SNAP_vm` (KiB: VmRSS, Pss,
 * RssAnon, RssShmem, VmPTE, VmSize) and `SNAP_fds SNAP_socks SNAP_tcp SNAP_listen` (descriptors,
 * sockets, TCP sockets not listening, TCP sockets listening); then `first_barrier=S pes=N`,
 * `allocated=S measured=S` (the measures' buffers allocated, the measures done), `check
 * alltoall_8=ok fcollect_1m=ok` (wrong: some PE's last result was), `done pes=N` and, after
 * shmem_finalize, `finalized=S`. S: seconds of CLOCK_REALTIME.
 *
 * Usage: scale [BARRIER_ITERS [ALLTOALL_ITERS [FCOLLECT_ITERS]]]   (default 50 20 4)
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <fcntl.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if SHMEM_MAJOR_VERSION > 1 || SHMEM_MINOR_VERSION >= 5
#define SCALE_HAVE_TEAMS 1
#else
#define SCALE_HAVE_TEAMS 0
#endif

#define A2A_BYTES 8           /* alltoall: bytes per pair */
#define FCOLLECT_BYTES (1L << 20) /* fcollect: bytes per PE */
#define MAX_TCP 65536         /* TCP sockets of a namespace looked at */

enum { SNAP_INIT, SNAP_FIRST, SNAP_END, SNAPS };
static const char *const snap_name[SNAPS] = {"init", "first", "end"};

/* One PE's view of itself at one point. Memory in KiB. */
typedef struct {
    long rss, pss, anon, shm, pte, vm, fds, socks, tcp, listen;
} scale_snap_t;

/* What each PE sends to PE 0 at the end. */
typedef struct {
    double t_main, t_init; /* CLOCK_REALTIME, seconds */
    scale_snap_t snap[SNAPS];
} scale_rec_t;

static double realtime(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double mono_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

/* ---- snapshots -------------------------------------------------------------------------- */
/* A field in KiB of a /proc file of this process ("VmRSS:" of status, "Pss:" of smaps_rollup),
 * or -1. */
static long proc_kib(const char *file, const char *key)
{
    FILE *f = fopen(file, "r");
    char line[256];
    long v = -1;
    size_t n = strlen(key);

    if (!f)
        return -1;
    while (fgets(line, sizeof(line), f))
        if (strncmp(line, key, n) == 0) {
            v = strtol(line + n, NULL, 10);
            break;
        }
    fclose(f);
    return v;
}

/* The inodes of this namespace's TCP sockets (IPv4 and IPv6) and whether each listens. */
static unsigned long tcp_inode[MAX_TCP];
static char tcp_listens[MAX_TCP];
static int tcp_count;

static void read_tcp(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512];

    if (!f)
        return;
    if (!fgets(line, sizeof(line), f)) { /* the header */
        fclose(f);
        return;
    }
    while (tcp_count < MAX_TCP && fgets(line, sizeof(line), f)) {
        unsigned st;
        unsigned long inode;
        /* sl local rem st tx:rx tr:when retrnsmt uid timeout inode */
        if (sscanf(line, "%*s %*s %*s %x %*s %*s %*s %*s %*s %lu", &st, &inode) != 2)
            continue;
        tcp_inode[tcp_count] = inode;
        tcp_listens[tcp_count] = st == 0x0A; /* TCP_LISTEN */
        tcp_count++;
    }
    fclose(f);
}

static void snapshot(scale_snap_t *s)
{
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;

    memset(s, 0, sizeof(*s));
    s->rss = proc_kib("/proc/self/status", "VmRSS:");
    s->pss = proc_kib("/proc/self/smaps_rollup", "Pss:");
    s->anon = proc_kib("/proc/self/status", "RssAnon:");
    s->shm = proc_kib("/proc/self/status", "RssShmem:");
    s->pte = proc_kib("/proc/self/status", "VmPTE:");
    s->vm = proc_kib("/proc/self/status", "VmSize:");
    tcp_count = 0;
    read_tcp("/proc/self/net/tcp");
    read_tcp("/proc/self/net/tcp6");
    if (!d)
        return;
    while ((e = readdir(d))) {
        char link[64];
        unsigned long inode;
        ssize_t n;

        if (e->d_name[0] == '.' || atoi(e->d_name) == dirfd(d))
            continue;
        s->fds++;
        n = readlinkat(dirfd(d), e->d_name, link, sizeof(link) - 1);
        if (n <= 0)
            continue;
        link[n] = 0;
        if (sscanf(link, "socket:[%lu]", &inode) != 1)
            continue;
        s->socks++;
        for (int i = 0; i < tcp_count; i++)
            if (tcp_inode[i] == inode) {
                if (tcp_listens[i])
                    s->listen++;
                else
                    s->tcp++;
                break;
            }
    }
    closedir(d);
}

/* ---- latencies -------------------------------------------------------------------------- */
static long *psync[2]; /* active-set pSync arrays, used in turn */
static char *a2a_src, *a2a_dst;
static long *fc_src, *fc_dst;

static void call_barrier(long i)
{
    (void)i;
    shmem_barrier_all();
}

static void call_alltoall(long i)
{
#if SCALE_HAVE_TEAMS
    (void)i;
    shmem_alltoallmem(SHMEM_TEAM_WORLD, a2a_dst, a2a_src, A2A_BYTES);
#else
    shmem_alltoall64(a2a_dst, a2a_src, A2A_BYTES / 8, 0, 0, shmem_n_pes(), psync[i & 1]);
#endif
}

static void call_fcollect(long i)
{
#if SCALE_HAVE_TEAMS
    (void)i;
    shmem_fcollectmem(SHMEM_TEAM_WORLD, fc_dst, fc_src, FCOLLECT_BYTES);
#else
    shmem_fcollect64(fc_dst, fc_src, FCOLLECT_BYTES / 8, 0, 0, shmem_n_pes(), psync[i & 1]);
#endif
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* WARM untimed calls, then ITERS calls each timed alone on PE 0; PE 0 prints the median and
 * mean. The call number runs on over warm-up and timed calls, so the pSync arrays alternate. */
static void measure(const char *name, void (*call)(long), long warm, long iters)
{
    double *t = malloc(sizeof(double) * (iters > 0 ? iters : 1));
    double sum = 0, t_start;
    long k = 0;

    shmem_barrier_all();
    t_start = mono_us();
    for (long i = 0; i < warm; i++)
        call(k++);
    for (long i = 0; i < iters; i++) {
        double t0 = mono_us();
        call(k++);
        t[i] = mono_us() - t0;
        sum += t[i];
    }
    shmem_barrier_all();
    if (shmem_my_pe() == 0 && iters > 0) {
        qsort(t, iters, sizeof(double), cmp_double);
        printf("lat=%s median_us=%.2f mean_us=%.2f iters=%ld wall_ms=%.1f\n", name, t[iters / 2],
               sum / iters, iters, (mono_us() - t_start) / 1e3);
        fflush(stdout);
    }
    free(t);
}

static long value(int pe, long j)
{
    return ((long)(pe + 1) << 32) + j;
}

int main(int argc, char **argv)
{
    scale_rec_t me_rec;
    long it_bar = argc > 1 ? atol(argv[1]) : 50;
    long it_a2a = argc > 2 ? atol(argv[2]) : 20;
    long it_fc = argc > 3 ? atol(argv[3]) : 4;
    double t_first = 0;

    memset(&me_rec, 0, sizeof(me_rec));
    me_rec.t_main = realtime();
    shmem_init();
    me_rec.t_init = realtime();
    int me = shmem_my_pe(), n = shmem_n_pes();

    snapshot(&me_rec.snap[SNAP_INIT]);
    shmem_barrier_all();
    if (me == 0)
        t_first = realtime();
    snapshot(&me_rec.snap[SNAP_FIRST]);

    /* Everything the measures need, allocated only now. */
    scale_rec_t *recs = shmem_malloc(sizeof(scale_rec_t) * n);
    psync[0] = shmem_malloc(sizeof(long) * SHMEM_COLLECT_SYNC_SIZE * 2);
    psync[1] = psync[0] + SHMEM_COLLECT_SYNC_SIZE;
    a2a_src = shmem_malloc((size_t)A2A_BYTES * n);
    a2a_dst = shmem_malloc((size_t)A2A_BYTES * n);
    fc_src = shmem_malloc(FCOLLECT_BYTES);
    fc_dst = shmem_malloc((size_t)FCOLLECT_BYTES * n);
    long *wrong = shmem_calloc(2, sizeof(long)); /* PEs whose alltoall, fcollect was wrong */
    if (!recs || !wrong || !psync[0] || !a2a_src || !a2a_dst || !fc_src || !fc_dst) {
        fprintf(stderr, "scale: pe %d: shmem_malloc failed\n", me);
        shmem_global_exit(1);
    }
    for (int i = 0; i < SHMEM_COLLECT_SYNC_SIZE * 2; i++)
        psync[0][i] = SHMEM_SYNC_VALUE;
    for (int p = 0; p < n; p++)
        ((long *)a2a_src)[p] = value(me, p);
    for (long j = 0; j < FCOLLECT_BYTES / 8; j++)
        fc_src[j] = value(me, j);
    shmem_barrier_all();
    double t_alloc = realtime();

    measure("barrier", call_barrier, 3, it_bar);
    measure("alltoall_8", call_alltoall, 3, it_a2a);
    int a2a_ok = 1;
    for (int p = 0; p < n; p++)
        a2a_ok &= ((long *)a2a_dst)[p] == value(p, me);
    /* Each PE checks the last fcollect's first and last element of every PE's part. */
    measure("fcollect_1m", call_fcollect, 1, it_fc);
    int fc_ok = 1;
    long per = FCOLLECT_BYTES / 8;
    for (int p = 0; p < n; p++)
        fc_ok &= fc_dst[p * per] == value(p, 0) && fc_dst[p * per + per - 1] == value(p, per - 1);
    double t_measured = realtime();
    snapshot(&me_rec.snap[SNAP_END]);

    /* Every PE's record into PE 0's array, and a wrong result counted there. */
    shmem_putmem(&recs[me], &me_rec, sizeof(me_rec), 0);
    if (!a2a_ok)
        shmem_long_atomic_inc(&wrong[0], 0);
    if (!fc_ok)
        shmem_long_atomic_inc(&wrong[1], 0);
    shmem_barrier_all();

    if (me == 0) {
        for (int p = 0; p < n; p++) {
            printf("pe=%d t_main=%.6f t_init=%.6f", p, recs[p].t_main, recs[p].t_init);
            for (int s = 0; s < SNAPS; s++) {
                const scale_snap_t *v = &recs[p].snap[s];
                const char *m = snap_name[s];
                printf(" %s_rss=%ld %s_pss=%ld %s_anon=%ld %s_shm=%ld %s_pte=%ld %s_vm=%ld"
                       " %s_fds=%ld %s_socks=%ld %s_tcp=%ld %s_listen=%ld",
                       m, v->rss, m, v->pss, m, v->anon, m, v->shm, m, v->pte, m, v->vm, m,
                       v->fds, m, v->socks, m, v->tcp, m, v->listen);
            }
            printf("\n");
        }
        printf("first_barrier=%.6f pes=%d\n", t_first, n);
        printf("allocated=%.6f measured=%.6f\n", t_alloc, t_measured);
        printf("check alltoall_8=%s fcollect_1m=%s\n", wrong[0] ? "wrong" : "ok",
               wrong[1] ? "wrong" : "ok");
        printf("done pes=%d\n", n);
        fflush(stdout);
    }
    shmem_finalize();
    if (me == 0)
        printf("finalized=%.6f\n", realtime());
    return 0;
}
