/* Sub-commands of the wddm tool, one file each. */
#ifndef WDDM_TOOL_H
#define WDDM_TOOL_H

#include <stdint.h>
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

#endif
