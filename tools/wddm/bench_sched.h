/* Issue 4's scheduler benchmarks for `wddm bench` (bench_sched.c). */
#ifndef WDDM_TOOL_BENCH_SCHED_H
#define WDDM_TOOL_BENCH_SCHED_H

int wddm_bench_sched(int quick);

#endif
