/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The stdin relay: when our stdin is a terminal, what is typed goes to PE 0 through a pipe (see
 * struct relay); the other PEs read /dev/null. Otherwise PE 0 inherits our stdin as it is.
 */
#include "symmrun.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/epoll.h>
#include <unistd.h>

/* The stdin of PE rank (-1: ours, inherited); for PE 0 on a terminal, the relay's pipe. */
int stdin_for(int rank, int *in)
{
    int p[2];

    *in = -1;
    if (rank > 0) {
        *in = open("/dev/null", O_RDONLY | O_CLOEXEC);
        return *in < 0;
    }
    if (!isatty(STDIN_FILENO))
        return 0;
    if (pipe2(p, O_CLOEXEC) < 0)
        return 1;
    *in = p[0];
    job.relay = (struct relay){.src = {SRC_STDIN}, .pipe_src = {SRC_STDIN_PIPE}, .wfd = p[1]};
    fcntl(p[1], F_SETFL, O_NONBLOCK);
    return 0;
}

void relay_close(void)
{
    struct relay *r = &job.relay;

    if (r->wfd < 0)
        return;
    if (r->reading)
        watch(EPOLL_CTL_DEL, STDIN_FILENO, 0, NULL);
    close(r->wfd);
    r->wfd = -1;
    r->reading = r->writing = false;
}

void relay_listen(bool on)
{
    struct relay *r = &job.relay;

    if (r->wfd < 0 || r->reading == on || (on && r->len))
        return;
    if (!watch(on ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, STDIN_FILENO, EPOLLIN, &r->src) || !on)
        r->reading = on;
}

/* Passes the buffered input on to PE 0; while the pipe is full, waits for EPOLLOUT. */
void relay_write(void)
{
    struct relay *r = &job.relay;
    ssize_t n = write(r->wfd, r->buf + r->off, r->len - r->off);

    if (n < 0 && errno != EINTR && errno != EAGAIN) {
        relay_close();
        return;
    }
    r->off += n > 0 ? (size_t)n : 0;
    if (r->off < r->len) {
        if (!r->writing && !watch(EPOLL_CTL_ADD, r->wfd, EPOLLOUT, &r->pipe_src))
            r->writing = true;
        return;
    }
    r->len = r->off = 0;
    if (r->writing && !watch(EPOLL_CTL_DEL, r->wfd, 0, NULL))
        r->writing = false;
    relay_listen(true);
}

void relay_read(void)
{
    struct relay *r = &job.relay;
    ssize_t n = read(STDIN_FILENO, r->buf, sizeof(r->buf));

    if (n > 0) {
        r->len = (size_t)n;
        relay_listen(false);
        relay_write();
    } else if (n == 0) {
        relay_close();
    } else if (errno == EIO) {
        /* We are a background job now; resume on SIGCONT. */
        relay_listen(false);
    } else if (errno != EINTR && errno != EAGAIN) {
        relay_close();
    }
}
