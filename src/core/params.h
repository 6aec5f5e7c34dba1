/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/* Settings read from the environment (params.def is the table). */
#ifndef SYMM_PARAMS_H
#define SYMM_PARAMS_H

#include <stdio.h>
#include <stddef.h>

#include "base/status.h"

typedef struct symm_params {
#define SYMM_PARAM_SIZE size_t
#define SYMM_PARAM_BOOL int
#define SYMM_PARAM_INT long
#define SYMM_PARAM_STR const char *
#define SYMM_PARAM(field, kind, var, def, help) SYMM_PARAM_##kind field;
#include "core/params.def"
#undef SYMM_PARAM
} symm_params_t;

/* Reads every setting; on a bad value names the variable and the value in *why. */
symm_status_t symm_params_load(symm_params_t *out, char *why, size_t why_len);
void symm_params_print(const symm_params_t *p, FILE *f, const char *prefix);

symm_status_t symm_parse_size(const char *s, size_t *out);
symm_status_t symm_parse_bool(const char *s, int *out);

#endif
