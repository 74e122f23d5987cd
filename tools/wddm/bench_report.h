/* bench_report.h - what `wddm bench` prints: its text lines for a person, or with --json one
 * object whose "results" hold every figure (name, unit, median, min and max where the benchmark
 * keeps them, and the physical limit measured in the same run with the ratio to it). */
#ifndef WDDM_TOOL_BENCH_REPORT_H
#define WDDM_TOOL_BENCH_REPORT_H

#include <math.h>
#include <stdbool.h>

/* JSON: opens the object with the machine; text: the machine line (and the load warning).
 * progress: say on stderr which group runs (a terminal, neither --quiet nor --json). */
void wddm_bench_begin(bool json, bool progress, const char *model, long cpus, double load, double cacheline_ns);
/* The group about to run, on stderr when progress is on; NULL clears the line. */
void wddm_bench_progress(const char *group);
/* A text line; nothing in JSON mode. */
void wddm_bench_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* One figure. min / max / limit: NAN when the benchmark has none (JSON null). */
void wddm_bench_result(const char *name, const char *unit, double median, double min, double max,
                       const char *limit_name, double limit);
/* JSON: "ok" and closes the object. */
void wddm_bench_end(bool ok);

#endif
