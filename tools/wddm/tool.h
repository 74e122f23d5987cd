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
