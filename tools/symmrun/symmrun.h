/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * What the parts of symmrun share: the one job it runs (struct job, a single global), the
 * things registered with its epoll loop, and the calls each part makes into the others.
 */
#ifndef SYMMRUN_H
#define SYMMRUN_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "boot/proto.h"

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#define MAX_PES 4096
#define REAP_LIMIT_MS 1500 /* stop waiting for processes stuck in the kernel after SIGKILL */
#define FLUSH_MS 100       /* an unfinished line waits at most this long for its end */

enum src_kind { SRC_SIGNALS, SRC_LISTEN, SRC_STDIN, SRC_STDIN_PIPE, SRC_STREAM, SRC_CONN };

/* First member of everything registered with epoll; epoll_event.data.ptr points to it. */
struct src {
    enum src_kind kind;
};

/* One PE's stdout or stderr pipe. */
struct stream {
    struct src src;
    int fd;       /* read end; -1 after EOF */
    int to;       /* where its lines go: 1 or 2 */
    bool midline; /* the last piece forwarded did not end its line */
    size_t keep;  /* bytes of an unfinished line held in part */
    size_t cap;
    char *part;
    int64_t since; /* when part began */
    char tag[24];
};

/* The answer to one collective round, shared by all PEs; freed when the last has it. */
struct reply {
    int refs;
    uint32_t type;
    uint64_t len; /* payload: bytes (allgather), count bytes (fds) */
    uint8_t *data;
    int nfds;
    int *fds;
};

struct conn {
    struct src src;
    int fd;    /* -1 once closed */
    int rank;  /* -1 until HELLO is accepted */
    int owner; /* the PE whose process this is, by ancestry */
    pid_t pid;
    bool writing; /* EPOLLOUT armed */
    struct conn *next, *prev;
    struct symm_boot_hdr in;
    uint64_t got; /* of the message being read: header bytes, then payload units */
    uint8_t *dst; /* where payload bytes go */
    uint8_t small[sizeof(int32_t) + SYMM_BOOT_ABORT_TEXT_MAX];
    int *fds; /* descriptors of an FDS request being read */
    int nfds;
    struct symm_boot_hdr out;
    uint64_t sent;
    struct reply *rep;
};

struct pe {
    pid_t pid;
    bool exited, hello, finalized, in_round;
    int status;      /* shell style: exit code, or 128 + signal */
    int64_t lost_at; /* its socket closed without FINALIZE; 0 if not */
    struct conn *conn;
    struct stream so, se;
};

/* The collective being gathered. At most one is open: a PE asks for the next only after it
 * has the answer to this one, and that answer goes out only when everybody has asked. */
struct round {
    uint32_t type; /* 0: none open */
    int first;     /* the PE that opened it */
    int arrived;
    bool sized;   /* fds: count per PE known */
    uint64_t len; /* bytes or descriptors per PE */
    uint8_t *data;
    int *fds;
};

/* The stdin relay, used only when stdin is a terminal: PE 0 runs in its own process group,
 * and a background group that reads the terminal would be stopped by SIGTTIN. */
struct relay {
    struct src src, pipe_src;
    int wfd; /* PE 0's stdin pipe; -1 when done */
    bool reading, writing;
    size_t len, off;
    char buf[4096];
};

struct job {
    int n;
    int nodes;    /* virtual nodes: groups of consecutive PEs that reach each other over UCX */
    bool tag;
    int bind;     /* -1: by default (core), 0: none, 1: core (PEs share CPUs past their count) */
    int ncpus;    /* CPUs this launcher may use, in cpus[] */
    int *cpus;
    double timeout;
    char **argv;
    struct pe *pe;
    pid_t self;
    uid_t uid;
    int ep, sigfd, lfd;
    struct src sig_src, listen_src;
    sigset_t watched, oldmask;
    struct sigaction old_pipe, old_ttin;
    struct rlimit nofile; /* the caller's limit, handed back to the PEs */
    uint8_t key[SYMM_BOOT_KEY_LEN];
    char keyhex[2 * SYMM_BOOT_KEY_LEN + 1];
    char addr[64];
    struct round round;
    struct conn *conns, *trash;
    struct relay relay;
    int live;     /* PEs not yet reaped */
    int lost;     /* PEs within LOST_GRACE_MS */
    int streams;  /* open output pipes */
    int partials; /* streams holding an unfinished line */
    bool nochild, swept, stopping;
    bool out_dead[3];
    struct stream *open[3]; /* --tag: whose unfinished line ends our stdout, stderr */
    int worst;
    int code;
    int refine; /* the PE whose exit status, still to come, names the cause of the stop */
    int64_t deadline, kill_at, give_up_at;
    char report[32768];
};

extern struct job job;

/* main.c */
__attribute__((format(printf, 1, 2))) void say(const char *fmt, ...);

/* loop.c */
int watch(int op, int fd, uint32_t events, struct src *src);
void loop(void);

/* output.c: the PEs' stdout and stderr */
int stream_open(struct stream *s, int fd, int to, int rank);
int stream_read(struct stream *s);
void drain_streams(void);
void flush_old_parts(int64_t t);
int64_t oldest_part(void);

/* stdin.c: the relay to PE 0 */
int stdin_for(int rank, int *in);
void relay_close(void);
void relay_listen(bool on);
void relay_read(void);
void relay_write(void);

/* process.c */
int pe_of_pid(pid_t pid);
int owner_of(pid_t pid);
bool exiting(pid_t pid);
void signal_pes(int sig);
void kill_children(int sig);
void kill_all_and_wait(void);

/* stop.c: stopping the job, reaping the PEs */
__attribute__((format(printf, 3, 4))) void stop(int code, int sig, const char *fmt, ...);
void kill_now(void);
void reap(void);

/* conn.c: the bootstrap socket's connections */
void accept_conns(void);
struct reply *reply_new(uint32_t type, int refs);
void conn_send(struct conn *c, struct reply *rep);
void conn_write(struct conn *c);
void conn_gone(struct conn *c);
__attribute__((format(printf, 2, 3))) void reject(struct conn *c, const char *fmt, ...);
void empty_trash(void);

/* protocol.c: the bootstrap's messages and collective rounds */
void conn_read(struct conn *c);
void round_check(void);
void list_ranks(char *buf, size_t size, bool waiting);

/* start.c */
void plan_binding(void);
int setup(void);
int start_pes(void);

#endif
