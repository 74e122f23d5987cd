/* VidMm oversubscription benchmarks (issue 3), called by `wddm bench` (tools/wddm/bench.c). */
#ifndef WDDM_BENCH_VIDMM_H
#define WDDM_BENCH_VIDMM_H

/* V1: a recorded access trace over a working set of 2x and 4x local memory replayed through
 * VidMm; bytes paged vs Belady's MIN on the same trace. V2: reading back a 16 MiB DEFAULT
 * texture out of a 1 GiB working set vs memcpy. quick = fewer accesses / iterations; v1 / v2
 * select which run. Returns 0 on success. */
int wddm_bench_vidmm(int quick, int v1, int v2);

#endif
