/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Errors and the logger (log.c): every line starts as base/logfmt.h says.
 */
#ifndef SYMM_CORE_LOG_H
#define SYMM_CORE_LOG_H

#include "base/base.h"

/* symm_fatal prints "symm: [pe N host pid] <message>" and brings the whole job down. */
void symm_fatal(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void symm_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void symm_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Fails with "call: called before shmem_init" unless the library is initialised. */
void symm_check_init(const char *call);

#endif
