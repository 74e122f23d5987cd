/* Sub-commands of the wddm tool, one file each. */
#ifndef WDDM_TOOL_H
#define WDDM_TOOL_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

int wddm_tool_demo(int argc, char **argv);
int wddm_tool_info(int argc, char **argv);
int wddm_tool_bench(int argc, char **argv);
int wddm_tool_soak(int argc, char **argv);
int wddm_tool_trace(int argc, char **argv);
int wddm_tool_stats(int argc, char **argv);
int wddm_tool_check(int argc, char **argv);

/* args.c: the command line's rules (docs/rules/tool.md). Exit codes: 0 done, 1 the work failed,
 * 2 a usage error (one line on stderr, nothing done). */
#define WDDM_TOOL_USAGE 2
#define WDDM_TOOL_HELP (-1) /* wddm_tool_options printed the usage: exit 0 */
struct option;
/* Prints "wddm <cmd>: <what is wrong> (see 'wddm <cmd> --help')" on stderr; returns 2. */
int wddm_tool_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A decimal number of plain digits in min..max; otherwise a usage error (returns 2). */
int wddm_tool_parse_u64(const char *cmd, const char *what, const char *text, uint64_t min, uint64_t max,
                        uint64_t *out);
/* getopt_long over argv (argv[0] is the command): -h/--help (prints usage on stdout, returns
 * WDDM_TOOL_HELP), the command's long options in extra (up to 6, {0}-terminated, or NULL),
 * handed to on_option; an unknown option or a missing value is a usage error. Options stop at
 * the first non-option argument, whose index is stored in *first_arg. Returns 0 to go on. */
int wddm_tool_options(const char *cmd, const char *usage, int argc, char **argv, const struct option *extra,
                      int (*on_option)(int opt, const char *arg, void *ctx), void *ctx, int *first_arg);

static inline uint64_t wddm_tool_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline int wddm_tool_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Median of n samples (sorts them in place): every benchmark reports medians. */
static inline uint64_t wddm_tool_median(uint64_t *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, wddm_tool_cmp_u64);
    return v[n / 2];
}

#endif
