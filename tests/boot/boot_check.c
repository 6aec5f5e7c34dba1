/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * boot_check: an SPMD program for the bootstrap, run under symmrun (or alone, as a job of one).
 * Without options it checks allgather, barriers and descriptor exchange and finalizes. The
 * options make one PE misbehave in one way each, so the tests can watch symmrun stop the job:
 *   --fault        pe 1 (or 0) leaves two children (one in a new session) and kills itself
 *                  with SIGKILL between barriers while the others keep entering barriers
 *   --exit R:C     pe R exits with C without finalizing while the others wait in a barrier
 *   --abort R:S[:TEXT]  pe R aborts the job with status S (and reason TEXT)
 *   --finalize-exit     every PE finalizes, then exits with 10 + rank (pe 0 with 0)
 *   --finalize-early    pe 0 finalizes while the others enter a barrier
 *   --hang         pe 0 finalizes and exits; the others sleep forever
 *   --print        every PE writes lines to stdout and stderr, ending in an unfinished line
 *   --stdin        every PE reports what it reads from stdin
 *   --plain C      exits with C without touching the bootstrap
 *   --intruders    pe 0 has processes try to join as a second pe 0, with a wrong key, as
 *                  pe 1, and from outside the job (an orphan); all must be refused
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "boot/boot.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define TEST_WITHOUT_SHMEM
#include "../harness.h"

static const symm_boot_ops_t *boot;
static int me = -1, npes, spanned;

/* The settings as the environment has them now (the library's table), for symm_boot_init. */
static const symm_params_t *settings(void)
{
    static symm_params_t p;
    char why[256];

    if (symm_params_load(&p, why, sizeof(why)) != SYMM_OK) {
        fprintf(stderr, "boot_check: %s\n", why);
        exit(2);
    }
    return &p;
}

/* symm_boot_init's note that the job spans hosts. */
static void spans_hosts(void)
{
    spanned++;
}

static void start(void)
{
    const char *env = getenv("SYMM_SIZE");
    /* The start's card: this process, and an odd length, so the records do not line up. */
    char card[13];
    char *cards;

    snprintf(card, sizeof(card), "p%011d", (int)getpid());
    if (symm_boot_init(settings(), card, sizeof(card), spans_hosts, (void **)&cards, &boot)) {
        fprintf(stderr, "boot_check: symm_boot_init failed\n");
        exit(1);
    }
    me = boot->rank;
    npes = boot->size;
    test_pe = me;
    REQUIRE(npes >= 1 && me >= 0 && me < npes, "rank %d of %d", me, npes);
    REQUIRE(!env || atoi(env) == npes, "SYMM_SIZE=%s, the bootstrap says %d", env, npes);
    REQUIRE(cards && !memcmp(cards + (size_t)me * sizeof(card), card, sizeof(card)),
            "the gathered cards hold this rank's own at its place");
    for (int r = 0; r < npes; r++)
        REQUIRE(cards[(size_t)r * sizeof(card)] == 'p', "rank %d's card is missing", r);
    free(cards);
    /* Called at most once, and never for a job on one host. */
    int hosts = 0;
    for (int r = 0; r < npes; r++)
        hosts = boot->host && boot->host[r] + 1 > hosts ? boot->host[r] + 1 : hosts;
    REQUIRE(spanned <= 1 && (hosts > 1 || !spanned), "spans_hosts called %d times on %d hosts",
            spanned, hosts);
}

static uint8_t pattern(int rank, int round, size_t i)
{
    return (uint8_t)(rank * 131 + round * 7 + i * 13);
}

static void check_allgather(void)
{
    static const size_t sizes[] = {1, 3, 8, 100, 4096, 65537, 1 << 20, 0, 17};
    int *ranks = calloc((size_t)npes, sizeof(int));

    REQUIRE(ranks && !boot->allgather(&me, sizeof(me), ranks), "allgather of the ranks");
    for (int i = 0; i < npes; i++)
        REQUIRE(ranks[i] == i, "allgather: rank %d gave %d", i, ranks[i]);
    free(ranks);
    for (int r = 0; r < (int)(sizeof(sizes) / sizeof(sizes[0])); r++) {
        /* The large round only where the answers (npes * len on each PE) stay small. */
        size_t len = npes > 16 && sizes[r] > 4096 ? 4096 : sizes[r];
        uint8_t *in = malloc(len + 1), *out = malloc(len * (size_t)npes + 1);

        REQUIRE(in && out, "malloc");
        for (size_t i = 0; i < len; i++)
            in[i] = pattern(me, r, i);
        REQUIRE(!boot->allgather(in, len, out), "allgather of %zu bytes", len);
        for (int p = 0; p < npes; p++)
            for (size_t i = 0; i < len; i++)
                REQUIRE(out[(size_t)p * len + i] == pattern(p, r, i),
                        "allgather of %zu bytes: byte %zu of rank %d", len, i, p);
        free(in);
        free(out);
    }
}

/* Each PE passes n descriptors of one memfd holding its rank to the PEs of its group (runs
 * of g consecutive ranks); every received one must read back its sender's rank, and no
 * descriptor may come from outside the group. */
static void check_fds_in(int n, int g)
{
    int fd = memfd_create("boot_check", MFD_CLOEXEC), got;
    int first = me / g * g, count = npes - first < g ? npes - first : g;
    int *mine = malloc(sizeof(int) * (size_t)(n + 1));
    int *all = malloc(sizeof(int) * (size_t)(n * npes + 1));

    REQUIRE(fd >= 0 && mine && all, "memfd_create or malloc");
    REQUIRE(pwrite(fd, &me, sizeof(me), 0) == sizeof(me), "pwrite to the memfd");
    for (int i = 0; i < n; i++)
        mine[i] = fd;
    REQUIRE(!boot->exchange_fds(mine, n, first, count, all), "exchange_fds(%d, group of %d)", n, g);
    for (int p = 0; p < npes; p++) {
        for (int i = 0; i < n; i++) {
            int d = all[p * n + i];

            if (p < first || p >= first + count) {
                REQUIRE(d == -1, "descriptor %d from rank %d, outside the group", i, p);
                continue;
            }
            REQUIRE(d >= 0 && d != fd, "descriptor %d from rank %d is %d", i, p, d);
            REQUIRE(pread(d, &got, sizeof(got), 0) == sizeof(got) && got == p,
                    "descriptor %d from rank %d does not read back its rank", i, p);
            close(d);
        }
    }
    close(fd);
    free(mine);
    free(all);
}

static void check_fds(int n)
{
    check_fds_in(n, npes);
}

static int check_all(void)
{
    start();
    check_allgather();
    for (int i = 0; i < 100; i++)
        REQUIRE(!boot->barrier(), "barrier");
    check_fds(1);
    check_fds(0);
    check_fds_in(2, 2);
    check_fds_in(1, 3);
    /* More than one chunk (250) each; kept to few PEs so the descriptor limit holds. */
    if (npes <= 3)
        check_fds(260);
    for (int i = 0; i < 10; i++) {
        check_fds(2);
        REQUIRE(!boot->barrier(), "barrier");
    }
    boot->finalize();
    if (me == 0)
        printf("boot_check: %d PEs ok\n", npes);
    return 0;
}

static void leave_children(void)
{
    for (int i = 0; i < 2; i++) {
        pid_t pid = fork();

        REQUIRE(pid >= 0, "fork");
        if (pid == 0) {
            if (i == 1)
                setsid();
            for (;;)
                pause();
        }
    }
}

static int fault(void)
{
    int victim;

    start();
    victim = npes > 1 ? 1 : 0;
    if (me == victim)
        leave_children();
    for (int i = 0;; i++) {
        if (me == victim && i == 20)
            raise(SIGKILL);
        REQUIRE(!boot->barrier(), "barrier");
    }
}

static int exit_in_barrier(const char *arg)
{
    int rank = -1, code = 0;

    REQUIRE(sscanf(arg, "%d:%d", &rank, &code) == 2, "--exit %s: not RANK:CODE", arg);
    start();
    REQUIRE(!boot->barrier(), "barrier");
    if (me == rank)
        exit(code);
    for (;;)
        REQUIRE(!boot->barrier(), "barrier");
}

static int abort_in_barrier(const char *arg)
{
    int rank = -1, status = 0, k = 0;

    REQUIRE(sscanf(arg, "%d:%d%n", &rank, &status, &k) == 2, "--abort %s: not RANK:STATUS", arg);
    start();
    REQUIRE(!boot->barrier(), "barrier");
    if (me == rank) {
        boot->abort(status, arg[k] == ':' ? arg + k + 1 : NULL);
        fprintf(stderr, "boot_check: pe %d: abort returned\n", me);
        return 99;
    }
    for (;;)
        REQUIRE(!boot->barrier(), "barrier");
}

static int finalize_exit(void)
{
    start();
    REQUIRE(!boot->barrier(), "barrier");
    boot->finalize();
    return me ? 10 + me : 0;
}

static int finalize_early(void)
{
    start();
    REQUIRE(!boot->barrier(), "barrier");
    if (me == 0) {
        boot->finalize();
        return 0;
    }
    for (;;)
        REQUIRE(!boot->barrier(), "barrier");
}

static int hang(void)
{
    start();
    if (me == 0) {
        boot->finalize();
        return 0;
    }
    for (;;)
        pause();
}

static int print(void)
{
    start();
    printf("hello from pe %d\n", me);
    fflush(stdout);
    fprintf(stderr, "complaint from pe %d\n", me);
    REQUIRE(!boot->barrier(), "barrier");
    printf("two\nlines from pe %d\nunfinished from pe %d", me, me);
    fflush(stdout);
    boot->finalize();
    return 0;
}

static int read_stdin(void)
{
    char buf[256];
    size_t n;

    start();
    n = fread(buf, 1, sizeof(buf) - 1, stdin);
    buf[n] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    printf("pe %d read '%s'\n", me, buf);
    fflush(stdout);
    REQUIRE(!boot->barrier(), "barrier");
    boot->finalize();
    return 0;
}

/* 0 if symm_boot_init succeeds in a new process running with env changed by name=value. */
static int try_join(const char *self, const char *name, const char *value)
{
    int status;
    pid_t pid = fork();

    REQUIRE(pid >= 0, "fork");
    if (pid == 0) {
        if (name)
            setenv(name, value, 1);
        execl(self, self, "--init-only", (char *)NULL);
        _exit(127);
    }
    REQUIRE(waitpid(pid, &status, 0) == pid && WIFEXITED(status), "the joining process ended");
    return WEXITSTATUS(status);
}

/* An orphan: its parent exits first, so it belongs to symmrun (the subreaper), not to pe 0. */
static int spawn_orphan(void)
{
    int p[2];
    pid_t pid;

    REQUIRE(pipe(p) == 0, "pipe");
    pid = fork();
    REQUIRE(pid >= 0, "fork");
    if (pid == 0) {
        pid_t mid = getpid();
        char ok;

        if (fork() != 0)
            _exit(0);
        TEST_WAIT(getppid() != mid, "the orphan's parent to exit");
        void *cards;

        ok = symm_boot_init(settings(), NULL, 0, NULL, &cards, &boot) == 0;
        _exit(write(p[1], &ok, 1) == 1 ? 0 : 1);
    }
    close(p[1]);
    REQUIRE(waitpid(pid, NULL, 0) == pid, "waitpid");
    return p[0];
}

static int intruders(const char *self)
{
    char ok = 1, key[64];
    int orphan = getenv("SYMM_RANK") && atoi(getenv("SYMM_RANK")) == 0 ? spawn_orphan() : -1;

    start();
    if (me == 0) {
        snprintf(key, sizeof(key), "%s", getenv("SYMM_BOOT_KEY"));
        key[0] = key[0] == '0' ? '1' : '0';
        REQUIRE(try_join(self, NULL, NULL) == 3, "a second pe 0 was let in");
        REQUIRE(try_join(self, "SYMM_BOOT_KEY", key) == 3, "a process with a wrong key was let in");
        REQUIRE(try_join(self, "SYMM_RANK", "1") == 3, "a process of pe 0 was let in as pe 1");
        REQUIRE(read(orphan, &ok, 1) == 1 && !ok, "a process outside the job was let in");
    }
    REQUIRE(!boot->barrier(), "barrier");
    boot->finalize();
    if (me == 0)
        printf("boot_check: intruders refused\n");
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    const char *arg = argc > 2 ? argv[2] : "";

    if (!strcmp(mode, ""))
        return check_all();
    if (!strcmp(mode, "--fault"))
        return fault();
    if (!strcmp(mode, "--exit"))
        return exit_in_barrier(arg);
    if (!strcmp(mode, "--abort"))
        return abort_in_barrier(arg);
    if (!strcmp(mode, "--finalize-exit"))
        return finalize_exit();
    if (!strcmp(mode, "--finalize-early"))
        return finalize_early();
    if (!strcmp(mode, "--hang"))
        return hang();
    if (!strcmp(mode, "--print"))
        return print();
    if (!strcmp(mode, "--stdin"))
        return read_stdin();
    if (!strcmp(mode, "--plain"))
        return atoi(arg);
    if (!strcmp(mode, "--init-only"))
        return symm_boot_init(settings(), NULL, 0, NULL, (void **)&mode, &boot) ? 3 : 0;
    if (!strcmp(mode, "--intruders"))
        return intruders(argv[0]);
    fprintf(stderr, "boot_check: unknown mode '%s'\n", mode);
    return 2;
}
