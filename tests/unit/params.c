/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Settings parsing: sizes with K/M/G/T suffixes (powers of 1024, optional "i" and "B"),
 * booleans in their spellings, and the table loader: defaults when nothing is set, every
 * variable read, a bad value rejected with a reason naming the variable and the value, and the
 * output left untouched on error.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/params.h"
#define TEST_WITHOUT_SHMEM
#include "../harness.h"

static void size_ok(const char *s, size_t want)
{
    size_t got = 1234567;

    EXPECT(symm_parse_size(s, &got) == SYMM_OK && got == want, "'%s' -> %zu, want %zu", s, got,
           want);
}

static void size_bad(const char *s)
{
    size_t got = 1234567;

    EXPECT(symm_parse_size(s, &got) == SYMM_ERR_INVALID && got == 1234567,
           "'%s' accepted (%zu)", s, got);
}

static void bool_is(const char *s, int want)
{
    int got = 42;

    EXPECT(symm_parse_bool(s, &got) == SYMM_OK && got == want, "'%s' -> %d, want %d", s, got, want);
}

static void bool_bad(const char *s)
{
    int got = 42;

    EXPECT(symm_parse_bool(s, &got) == SYMM_ERR_INVALID && got == 42, "'%s' accepted (%d)", s,
           got);
}

static void test_sizes(void)
{
    size_ok("0", 0);
    size_ok("1", 1);
    size_ok("4096", 4096);
    size_ok("1K", 1024);
    size_ok("1k", 1024);
    size_ok("12K", 12 * 1024);
    size_ok("16M", 16u << 20);
    size_ok("16m", 16u << 20);
    size_ok("2G", (size_t)2 << 30);
    size_ok("3g", (size_t)3 << 30);
    size_ok("1T", (size_t)1 << 40);
    size_ok("1KiB", 1024);
    size_ok("1kib", 1024);
    size_ok("1KB", 1024);
    size_ok("1MiB", 1 << 20);
    size_ok("64B", 64);
    size_ok("  8M", 8 << 20);
    size_ok("8M  ", 8 << 20);
    size_ok("007", 7);
    size_ok("18446744073709551615", SIZE_MAX);
    size_ok("16777215T", (size_t)16777215 << 40);

    size_bad("");
    size_bad("   ");
    size_bad("12Q");
    size_bad("Q");
    size_bad("K");
    size_bad("1.5G");
    size_bad("-1");
    size_bad("+1");
    size_bad("1KK");
    size_bad("1 K");
    size_bad("1iB");
    size_bad("1Bi");
    size_bad("0x10");
    size_bad("1G1");
    size_bad("18446744073709551616");
    size_bad("99999999999999999999999");
    size_bad("16777216T");
    size_bad("17179869184G");
}

static void test_bools(void)
{
    const char *yes[] = {"1", "y", "Y", "yes", "YES", "Yes", "on", "ON", "true", "True"};
    const char *no[] = {"0", "n", "N", "no", "NO", "off", "Off", "false", "FALSE", ""};
    const char *bad[] = {"2", "-1", "maybe", "yess", " 1", "1 ", "t", "f", "enable", "00"};

    for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
        bool_is(yes[i], 1);
    for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
        bool_is(no[i], 0);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        bool_bad(bad[i]);
}

static const char *vars[] = {"SHMEM_SYMMETRIC_SIZE", "SHMEM_DEBUG",        "SHMEM_INFO",
                             "SHMEM_VERSION",        "SYMM_LOG_LEVEL",     "SYMM_HEAP_PREFAULT",
                             "SYMM_SPIN_US",         "SYMM_STATIC_DATA",   "SYMM_CPUS"};

static void clear_env(void)
{
    for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
        unsetenv(vars[i]);
}

/* Loading with one bad variable fails, names the variable and the value, keeps *out. */
static void load_bad(const char *var, const char *value)
{
    symm_params_t p;
    char why[256] = "";

    clear_env();
    setenv(var, value, 1);
    memset(&p, 0x5a, sizeof(p));
    EXPECT(symm_params_load(&p, why, sizeof(why)) == SYMM_ERR_INVALID, "%s='%s' accepted", var,
           value);
    EXPECT(strstr(why, var) != NULL && strstr(why, value) != NULL,
           "reason for %s='%s' does not name both: '%s'", var, value, why);
    EXPECT(p.symmetric_size == (size_t)0x5a5a5a5a5a5a5a5aull,
           "output written on error (%s='%s')", var, value);
    clear_env();
}

static void test_load(void)
{
    symm_params_t p;
    char why[256] = "";

    clear_env();
    EXPECT(symm_params_load(&p, why, sizeof(why)) == SYMM_OK, "defaults: %s", why);
    EXPECT(p.symmetric_size == (size_t)1 << 30, "default heap %zu", p.symmetric_size);
    EXPECT(p.debug == 0 && p.info == 0 && p.version == 0, "default flags %d %d %d", p.debug,
           p.info, p.version);
    EXPECT(p.prefault == 1 && p.static_data == 1 && p.spin_us == -1, "defaults %d %d %ld",
           p.prefault, p.static_data, p.spin_us);
    EXPECT(p.log_level == SYMM_LEVEL_WARN, "default log level %d", (int)p.log_level);

    setenv("SHMEM_SYMMETRIC_SIZE", "48M", 1);
    setenv("SHMEM_DEBUG", "yes", 1);
    setenv("SHMEM_INFO", "on", 1);
    setenv("SHMEM_VERSION", "1", 1);
    setenv("SYMM_LOG_LEVEL", "debug", 1);
    setenv("SYMM_HEAP_PREFAULT", "off", 1);
    setenv("SYMM_SPIN_US", "250", 1);
    setenv("SYMM_STATIC_DATA", "false", 1);
    EXPECT(symm_params_load(&p, why, sizeof(why)) == SYMM_OK, "all set: %s", why);
    EXPECT(p.symmetric_size == 48u << 20, "heap %zu", p.symmetric_size);
    EXPECT(p.debug == 1 && p.info == 1 && p.version == 1, "flags %d %d %d", p.debug, p.info,
           p.version);
    EXPECT(p.prefault == 0 && p.static_data == 0 && p.spin_us == 250, "set %d %d %ld", p.prefault,
           p.static_data, p.spin_us);
    EXPECT(p.log_level == SYMM_LEVEL_DEBUG, "log level %d", (int)p.log_level);

    /* The printout lists every variable. */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f) {
        symm_params_print(&p, f, "  ");
        fclose(f);
        for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
            EXPECT(strstr(text, vars[i]) != NULL, "printout lacks %s", vars[i]);
        EXPECT(strstr(text, "50331648") != NULL, "printout lacks the heap size in bytes");
        free(text);
    }
    clear_env();

    load_bad("SHMEM_SYMMETRIC_SIZE", "12Q");
    load_bad("SHMEM_SYMMETRIC_SIZE", "-5M");
    load_bad("SHMEM_DEBUG", "maybe");
    load_bad("SHMEM_INFO", "2");
    load_bad("SYMM_HEAP_PREFAULT", "sometimes");
    load_bad("SYMM_SPIN_US", "fast");
    load_bad("SYMM_SPIN_US", "12x");
    load_bad("SYMM_STATIC_DATA", "nope");
    load_bad("SYMM_LOG_LEVEL", "verbose");
    load_bad("SYMM_CPUS", "two");
}

/* Every level the table's help names parses to its own value, in order, and back to its
 * name; the printout shows a secret only as set. */
static void test_levels(void)
{
    const char *names[] = {"error", "warn", "info", "debug", "trace"};
    symm_level_t got, last = SYMM_LEVEL_ERROR;
    symm_params_t p;
    char why[256] = "", *text = NULL;
    size_t len = 0;
    FILE *f;

    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        EXPECT(symm_parse_level(names[i], &got) == SYMM_OK, "level '%s' refused", names[i]);
        EXPECT(i == 0 || got > last, "level '%s' is not above the one before", names[i]);
        EXPECT(!strcmp(symm_level_name(got), names[i]), "level '%s' named '%s'", names[i],
               symm_level_name(got));
        last = got;
    }
    EXPECT(symm_parse_level("TRACE", &got) == SYMM_OK && got == SYMM_LEVEL_TRACE,
           "level names are not case-blind");
    clear_env();
    setenv("SYMM_BOOT_KEY", "00112233445566778899aabbccddeeff", 1);
    EXPECT(symm_params_load(&p, why, sizeof(why)) == SYMM_OK, "with a key: %s", why);
    f = open_memstream(&text, &len);
    if (f) {
        symm_params_print(&p, f, "");
        fclose(f);
        EXPECT(strstr(text, "SYMM_BOOT_KEY") && !strstr(text, "00112233"),
               "the printout shows the key's value");
        free(text);
    }
    unsetenv("SYMM_BOOT_KEY");
}

int main(void)
{
    test_sizes();
    test_bools();
    test_load();
    test_levels();
    return test_finish("unit_params");
}
