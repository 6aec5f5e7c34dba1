/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Parsing of the settings table. Values come from the environment only; a bad value is an
 * error at start, never silently replaced by the default.
 */
#include "base/params.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

symm_status_t symm_parse_size(const char *s, size_t *out)
{
    char *end;
    unsigned long long v, mul = 1;
    int shift = 0;

    while (isspace((unsigned char)*s))
        s++;
    if (!isdigit((unsigned char)*s))
        return SYMM_ERR_INVALID;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno)
        return SYMM_ERR_INVALID;
    switch (toupper((unsigned char)*end)) {
    case 'K': shift = 10; break;
    case 'M': shift = 20; break;
    case 'G': shift = 30; break;
    case 'T': shift = 40; break;
    default: break;
    }
    if (shift) {
        end++;
        mul = 1ULL << shift;
        if (toupper((unsigned char)*end) == 'I')
            end++;
    }
    if (toupper((unsigned char)*end) == 'B')
        end++;
    while (isspace((unsigned char)*end))
        end++;
    if (*end || (v && mul > UINT64_MAX / v) || v * mul > SIZE_MAX)
        return SYMM_ERR_INVALID;
    *out = (size_t)(v * mul);
    return SYMM_OK;
}

symm_status_t symm_parse_bool(const char *s, int *out)
{
    static const char *yes[] = {"1", "y", "yes", "on", "true"};
    static const char *no[] = {"0", "n", "no", "off", "false", ""};

    for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
        if (!strcasecmp(s, yes[i])) {
            *out = 1;
            return SYMM_OK;
        }
    for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
        if (!strcasecmp(s, no[i])) {
            *out = 0;
            return SYMM_OK;
        }
    return SYMM_ERR_INVALID;
}

static symm_status_t parse_int(const char *s, long *out)
{
    char *end;

    errno = 0;
    *out = strtol(s, &end, 10);
    return (errno || end == s || *end) ? SYMM_ERR_INVALID : SYMM_OK;
}

static symm_status_t parse_str(const char *s, const char **out)
{
    *out = s;
    return SYMM_OK;
}

static const char *const levels[] = {"error", "warn", "info", "debug", "trace"};

symm_status_t symm_parse_level(const char *s, symm_level_t *out)
{
    for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
        if (!strcasecmp(s, levels[i])) {
            *out = (symm_level_t)((int)i + SYMM_LEVEL_ERROR);
            return SYMM_OK;
        }
    return SYMM_ERR_INVALID;
}

const char *symm_level_name(symm_level_t level)
{
    unsigned i = (unsigned)(level - SYMM_LEVEL_ERROR);

    return i < sizeof(levels) / sizeof(levels[0]) ? levels[i] : "?";
}

#define parse_SIZE symm_parse_size
#define parse_BOOL symm_parse_bool
#define parse_INT parse_int
#define parse_STR parse_str
#define parse_LEVEL symm_parse_level
#define parse_SECRET parse_str

symm_status_t symm_params_load(symm_params_t *out, char *why, size_t why_len)
{
    symm_params_t p;
    const char *v;

#define SYMM_PARAM(field, kind, who, var, def, help)                                             \
    v = getenv(var);                                                                            \
    if (parse_##kind(def, &p.field) != SYMM_OK)                                                 \
        abort();                                                                                \
    if (v && parse_##kind(v, &p.field) != SYMM_OK) {                                            \
        snprintf(why, why_len, "bad value %s='%s' (%s)", var, v, help);                         \
        return SYMM_ERR_INVALID;                                                                \
    }
#include "base/params.def"
#undef SYMM_PARAM
    *out = p;
    return SYMM_OK;
}

static void print_SIZE(FILE *f, size_t v) { fprintf(f, "%zu", v); }
static void print_BOOL(FILE *f, int v) { fprintf(f, "%d", v); }
static void print_INT(FILE *f, long v) { fprintf(f, "%ld", v); }
static void print_STR(FILE *f, const char *v) { fprintf(f, "%s", *v ? v : "(empty)"); }
static void print_LEVEL(FILE *f, symm_level_t v) { fprintf(f, "%s", symm_level_name(v)); }
static void print_SECRET(FILE *f, const char *v) { fprintf(f, "%s", *v ? "(secret)" : "(empty)"); }

static const char *const whose[] = {[SYMM_WHO_USER] = "",
                                    [SYMM_WHO_LAUNCHER] = " [the launcher's]",
                                    [SYMM_WHO_TOOL] = " [symmcc's or Python's]"};

/* Every row: the variable, its value (a secret as set or unset), whether it is set, whose it
 * is, its default and what it does. */
void symm_params_print(const symm_params_t *p, FILE *f, const char *prefix)
{
#define SYMM_PARAM(field, kind, who, var, def, help)                                             \
    fprintf(f, "%s%-22s ", prefix, var);                                                        \
    print_##kind(f, p->field);                                                                  \
    fprintf(f, "%s%s  (default %s) %s\n", getenv(var) ? " [set]" : "", whose[SYMM_WHO_##who],    \
            *def ? def : "none", help);
#include "base/params.def"
#undef SYMM_PARAM
}
