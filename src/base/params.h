/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/* Settings read from the environment (params.def is the table). */
#ifndef SYMM_PARAMS_H
#define SYMM_PARAMS_H

#include <stdio.h>
#include <stddef.h>

#include "base/status.h"

/* Whose a setting is (params.def's who column). */
enum { SYMM_WHO_USER, SYMM_WHO_LAUNCHER, SYMM_WHO_TOOL };

/* The logger's levels (SYMM_LOG_LEVEL); a fatal error is always written. Zero, the value of
 * settings not yet loaded, is the default. */
typedef enum symm_level {
    SYMM_LEVEL_ERROR = -1,
    SYMM_LEVEL_WARN = 0,
    SYMM_LEVEL_INFO,
    SYMM_LEVEL_DEBUG,
    SYMM_LEVEL_TRACE
} symm_level_t;

typedef struct symm_params {
#define SYMM_PARAM_SIZE size_t
#define SYMM_PARAM_BOOL int
#define SYMM_PARAM_INT long
#define SYMM_PARAM_STR const char *
#define SYMM_PARAM_LEVEL symm_level_t
#define SYMM_PARAM_SECRET const char *
#define SYMM_PARAM(field, kind, who, var, def, help) SYMM_PARAM_##kind field;
#include "base/params.def"
#undef SYMM_PARAM
} symm_params_t;

/* Reads every setting; on a bad value names the variable and the value in *why. */
symm_status_t symm_params_load(symm_params_t *out, char *why, size_t why_len);
void symm_params_print(const symm_params_t *p, FILE *f, const char *prefix);

symm_status_t symm_parse_size(const char *s, size_t *out);
symm_status_t symm_parse_bool(const char *s, int *out);
symm_status_t symm_parse_level(const char *s, symm_level_t *out);
const char *symm_level_name(symm_level_t level);

#endif
