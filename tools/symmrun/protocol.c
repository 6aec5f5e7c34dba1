/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The bootstrap protocol (src/boot/proto.h) on the launcher's side: reading messages, HELLO
 * with the job's key, ABORT, FINALIZE, and the collective rounds (allgather, barrier,
 * descriptor exchange) that are answered once every PE has asked.
 */
#include "symmrun.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

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
void list_ranks(char *buf, size_t size, bool waiting)
{
    size_t k = 0;

    buf[0] = '\0';
    for (int i = 0; i < job.n && k + 16 < size; i++)
        if (!job.pe[i].exited && (!waiting || job.pe[i].in_round))
            k += (size_t)snprintf(buf + k, size - k, "%s%d", k ? " " : "", i);
}

/* A PE that can no longer join the open round would leave the others waiting forever. */
void round_check(void)
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

void conn_read(struct conn *c)
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
