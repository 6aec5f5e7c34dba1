/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Errors and the logger (log.c): every line starts as base/logfmt.h says.
 */
#ifndef SYMM_CORE_LOG_H
#define SYMM_CORE_LOG_H

#include "base/base.h"
#include "base/params.h"

/* symm_fatal prints "symm: [pe N host pid] <message>" and brings the whole job down. */
void symm_fatal(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* symm_log writes a message of `level` where SYMM_LOG_LEVEL lets it through (symm_log_on):
 * warn, a call that fails without ending the job; info, what the start chose; debug, each
 * step of the start, allocations and teams; trace, each connection and registration. */
int symm_log_on(symm_level_t level);
void symm_log(symm_level_t level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define symm_warn(...) symm_log(SYMM_LEVEL_WARN, __VA_ARGS__)
#define symm_info(...) symm_log(SYMM_LEVEL_INFO, __VA_ARGS__)
#define symm_debug(...) symm_log(SYMM_LEVEL_DEBUG, __VA_ARGS__)
#define symm_trace(...) symm_log(SYMM_LEVEL_TRACE, __VA_ARGS__)
/* Fails with "call: called before shmem_init" unless the library is initialised. */
void symm_check_init(const char *call);

#endif
