/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Processes: which PE a process belongs to (by ancestry, read from /proc), whether it is past
 * the point where a signal could change its exit status, and signalling or killing the PEs'
 * process groups and every child of the launcher.
 */
#include "symmrun.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int pe_of_pid(pid_t pid)
{
    for (int i = 0; i < job.n; i++)
        if (job.pe[i].pid == pid && !job.pe[i].exited)
            return i;
    return -1;
}

static pid_t parent_of(pid_t pid)
{
    char path[64], line[256];
    pid_t ppid = -1;
    FILE *f;

    snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
    f = fopen(path, "re");
    if (!f)
        return -1;
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "PPid: %d", &ppid) == 1)
            break;
    fclose(f);
    return ppid;
}

/* The PE whose process pid is, or a descendant of; -1 for anyone else. */
int owner_of(pid_t pid)
{
    for (int depth = 0; pid > 1 && depth < 64; depth++) {
        int rank = pe_of_pid(pid);

        if (rank >= 0)
            return rank;
        pid = parent_of(pid);
    }
    return -1;
}

/* In do_exit (PF_EXITING) or a zombie: its exit status is settled, no signal can change it. */
bool exiting(pid_t pid)
{
    char path[64], buf[512], *p, state = 'X';
    unsigned flags = 0;
    FILE *f;

    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    f = fopen(path, "re");
    if (!f)
        return true;
    p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
    fclose(f);
    if (p && sscanf(p + 1, " %c %*d %*d %*d %*d %*d %u", &state, &flags) != 2)
        return false;
    return state == 'Z' || state == 'X' || (flags & 0x4);
}

void signal_pes(int sig)
{
    for (int i = 0; i < job.n; i++)
        if (job.pe[i].pid > 0 && !job.pe[i].exited)
            kill(-job.pe[i].pid, sig);
}

/* Our children now include orphans we adopted as subreaper, in whatever group they moved to.
 * Each is still unreaped, so its pid cannot have been reused. */
void kill_children(int sig)
{
    DIR *d = opendir("/proc");
    struct dirent *e;

    if (!d)
        return;
    while ((e = readdir(d))) {
        pid_t pid = (pid_t)atoi(e->d_name);

        if (pid > 1 && parent_of(pid) == job.self)
            kill(pid, sig);
    }
    closedir(d);
}

void kill_all_and_wait(void)
{
    signal_pes(SIGKILL);
    kill_children(SIGKILL);
    while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
        ;
}
