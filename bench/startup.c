/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * startup: the smallest OpenSHMEM job, shmem_init then shmem_finalize, written against the
 * standard API only. compare.sh times its launch, from the launcher's start to its exit, as the
 * cost a job pays before and after any work of its own.
 */
#include <shmem.h>

int main(void)
{
    shmem_init();
    shmem_finalize();
    return 0;
}
