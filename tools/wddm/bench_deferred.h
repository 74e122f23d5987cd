/* wddm bench: deferred-context recording throughput (issue 5), called from bench.c. */
#ifndef WDDM_TOOL_BENCH_DEFERRED_H
#define WDDM_TOOL_BENCH_DEFERRED_H

/* Prints recording throughput with 1 and 2 recording threads (each into its own deferred
 * context, lists replayed on the immediate context by the calling thread meanwhile) and the
 * 2-thread / 1-thread ratio. Returns 0 on success. */
int wddm_bench_deferred(int quick);

#endif
