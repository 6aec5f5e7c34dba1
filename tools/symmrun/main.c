/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * symmrun, the job launcher: starts the N PEs of a program on this host, serves their bootstrap
 * (protocol in src/boot/proto.h) over a private abstract Unix socket, forwards their output line
 * by line, and brings the whole job down as soon as one PE fails or aborts, the job times out,
 * or symmrun itself is signalled. One thread and one epoll loop serve everything: the output
 * pipes, the socket and its connections, child exits and signals (signalfd), and the deadlines
 * (the loop's timeout). It only forks and execs: nothing here may initialise CUDA.
 *
 * This file holds the job, the command line and the order of it all. The parts: output.c (the
 * PEs' output), stdin.c (the terminal's input to PE 0), process.c (finding and signalling
 * processes), stop.c (stopping the job, reaping the PEs), conn.c (the bootstrap socket's
 * connections), protocol.c (the bootstrap's messages and collective rounds), loop.c (the epoll
 * loop and its deadlines), start.c (setting up and starting the PEs).
 */
#include "symmrun.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXIT_USAGE 2

static const char usage[] =
    "usage: symmrun [-n N | -np N] [--nodes K] [--tag] [--timeout S] [--bind core|none] [--] "
    "prog [args...]";

struct job job = {.ep = -1, .sigfd = -1, .lfd = -1, .refine = -1, .relay = {.wfd = -1}};

void say(const char *fmt, ...)
{
    char line[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    fprintf(stderr, "symmrun: %s\n", line);
}

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

/* A number of PEs or nodes: 1 to MAX_PES. *out is set only when s is one. */
static bool parse_count(const char *s, int *out)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < 1 || v > MAX_PES)
        return false;
    *out = (int)v;
    return true;
}

static int parse_n(const char *s)
{
    if (!parse_count(s, &job.n))
        return usage_error("invalid number of PEs '%s' (1 to %d)", s, MAX_PES);
    return 0;
}

static int parse_nodes(const char *s)
{
    if (!parse_count(s, &job.nodes))
        return usage_error("invalid number of nodes '%s' (1 to %d)", s, MAX_PES);
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
