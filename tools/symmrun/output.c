/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The PEs' output: each PE's stdout and stderr come through pipes and go out on ours line by
 * line, so lines of different PEs never mix; --tag puts "[pe N] " before each. An unfinished
 * line (a prompt) is held back a moment for its end, then passed on as it is.
 */
#include "symmrun.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/uio.h>
#include <unistd.h>

#define KEEP_MAX (1 << 20) /* longest unfinished line held back; longer ones go out in pieces */
#define READ_CHUNK 65536

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
        s->since = symm_boot_now_ms();
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

void flush_old_parts(int64_t t)
{
    for (int i = 0; i < job.n && job.partials; i++) {
        struct pe *p = &job.pe[i];

        if (p->so.keep && t >= p->so.since + FLUSH_MS)
            flush_part(&p->so);
        if (p->se.keep && t >= p->se.since + FLUSH_MS)
            flush_part(&p->se);
    }
}

int64_t oldest_part(void)
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

/* Starts forwarding PE rank's pipe fd to our stdout (to = 1) or stderr (to = 2). */
int stream_open(struct stream *s, int fd, int to, int rank)
{
    *s = (struct stream){.src = {SRC_STREAM}, .fd = fd, .to = to};
    snprintf(s->tag, sizeof(s->tag), "[pe %d] ", rank);
    fcntl(fd, F_SETFL, O_NONBLOCK);
    job.streams++;
    return watch(EPOLL_CTL_ADD, fd, EPOLLIN, &s->src);
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
int stream_read(struct stream *s)
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

void drain_streams(void)
{
    for (int i = 0; i < job.n; i++) {
        struct pe *p = &job.pe[i];

        while (p->so.fd >= 0 && stream_read(&p->so))
            ;
        while (p->se.fd >= 0 && stream_read(&p->se))
            ;
    }
}
