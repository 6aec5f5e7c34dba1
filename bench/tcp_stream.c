/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * tcp_stream: one TCP stream's bandwidth, the kernel's path with no library on it, as the floor
 * under bench/hosts.sh's bandwidth rows. The receiver listens, takes one connection and reads
 * until it has TOTAL bytes (rounded down to whole messages), then answers one byte; the sender
 * connects (retrying while the receiver starts), writes messages of SIZE bytes until TOTAL,
 * waits for the answer and prints `case=tcp_SIZE value=GB/s unit=GB/s`.
 *   tcp_stream recv ADDR PORT SIZE TOTAL
 *   tcp_stream send ADDR PORT SIZE TOTAL
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int fail(const char *what)
{
    perror(what);
    return 1;
}

static int receive(int fd, size_t total)
{
    static char buf[1 << 20];
    int c;
    size_t got = 0;

    if (listen(fd, 1) != 0)
        return fail("tcp_stream: listen");
    c = accept(fd, NULL, NULL);
    if (c < 0)
        return fail("tcp_stream: accept");
    while (got < total) {
        ssize_t n = read(c, buf, sizeof(buf));

        if (n <= 0)
            return fail("tcp_stream: read");
        got += (size_t)n;
    }
    if (write(c, "k", 1) != 1)
        return fail("tcp_stream: write");
    close(c);
    return 0;
}

static int send_all(int fd, const struct sockaddr_in *to, size_t size, size_t total)
{
    char *msg = calloc(1, size), k;
    size_t sent = 0;
    double t0;
    int tries = 0;

    if (!msg)
        return fail("tcp_stream: calloc");
    while (connect(fd, (const struct sockaddr *)to, sizeof(*to)) != 0) {
        if (++tries > 200)
            return fail("tcp_stream: connect");
        close(fd);
        fd = socket(AF_INET, SOCK_STREAM, 0);
        usleep(20000);
    }
    t0 = now();
    while (sent < total) {
        ssize_t n = write(fd, msg + sent % size, size - sent % size);

        if (n <= 0)
            return fail("tcp_stream: write");
        sent += (size_t)n;
    }
    if (read(fd, &k, 1) != 1)
        return fail("tcp_stream: read");
    printf("case=tcp_%zu value=%.4g unit=GB/s\n", size, (double)total / (now() - t0) / 1e9);
    free(msg);
    return 0;
}

int main(int argc, char **argv)
{
    struct sockaddr_in a = {.sin_family = AF_INET};
    size_t size, total;
    int fd, one = 1;

    if (argc != 6 || (strcmp(argv[1], "recv") && strcmp(argv[1], "send")) ||
        inet_pton(AF_INET, argv[2], &a.sin_addr) != 1) {
        fprintf(stderr, "usage: tcp_stream recv|send ADDR PORT SIZE TOTAL\n");
        return 2;
    }
    a.sin_port = htons((uint16_t)atoi(argv[3]));
    size = strtoull(argv[4], NULL, 0);
    total = strtoull(argv[5], NULL, 0) / size * size;
    if (!size || !total)
        return 2;
    fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return fail("tcp_stream: socket");
    if (!strcmp(argv[1], "send"))
        return send_all(fd, &a, size, total);
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0)
        return fail("tcp_stream: bind");
    return receive(fd, total);
}
