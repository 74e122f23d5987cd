/* Issue 17 aim 7's segment range allocator benchmark for `wddm bench` (bench_segment.c). */
#ifndef WDDM_TOOL_BENCH_SEGMENT_H
#define WDDM_TOOL_BENCH_SEGMENT_H

int wddm_bench_segment(int quick);

#endif
