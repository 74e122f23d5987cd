/* bench_report.c - `wddm bench`'s output as text or as one JSON object (bench_report.h). */
#include "bench_report.h"

#include <stdarg.h>
#include <stdio.h>

static bool json, progress;
static int results;

static void number(double v)
{
    if (isnan(v))
        printf("null");
    else
        printf("%.6g", v);
}

void wddm_bench_begin(bool as_json, bool show_progress, const char *model, long cpus, double load, double cacheline_ns)
{
    json = as_json;
    progress = show_progress && !as_json;
    results = 0;
    bool busy = cpus > 0 && load > 0.5 * (double)cpus;
    if (json) {
        printf("{\"command\":\"bench\",\"machine\":\"");
        for (const char *c = model; *c; c++)
            if (*c != '"' && *c != '\\' && (unsigned char)*c >= 0x20)
                putchar(*c);
        printf("\",\"cpus\":%ld,\"load_average\":%.2f,\"load_warning\":%s,\"cacheline_round_trip_ns\":%.0f,"
               "\"results\":[",
               cpus, load, busy ? "true" : "false", cacheline_ns);
        return;
    }
    printf("machine: %s, %ld CPUs; cache line between two threads: %.0f ns round trip\n", model, cpus, cacheline_ns);
    /* The benchmarks measure one engine thread beside the application thread: other runnable
     * work on the machine moves the figures more than any change under test. */
    if (busy)
        printf("warning: load average %.2f on %ld CPUs: other work is running; these figures may be skewed\n",
               load, cpus);
}

void wddm_bench_progress(const char *group)
{
    if (!progress)
        return;
    if (group)
        fprintf(stderr, "\rwddm bench: running %-4s", group);
    else
        fprintf(stderr, "\r%30s\r", "");
    fflush(stderr);
}

void wddm_bench_printf(const char *fmt, ...)
{
    if (json)
        return;
    wddm_bench_progress(NULL); /* the result line replaces the progress line */
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
}

void wddm_bench_result(const char *name, const char *unit, double median, double min, double max,
                       const char *limit_name, double limit)
{
    if (!json)
        return;
    printf("%s{\"name\":\"%s\",\"unit\":\"%s\",\"median\":", results++ ? "," : "", name, unit);
    number(median);
    printf(",\"min\":");
    number(min);
    printf(",\"max\":");
    number(max);
    printf(",\"limit\":");
    if (limit_name)
        printf("\"%s\"", limit_name);
    else
        printf("null");
    printf(",\"limit_median\":");
    number(limit);
    printf(",\"ratio\":");
    number(limit_name && limit > 0 ? median / limit : NAN);
    printf("}");
}

void wddm_bench_end(bool ok)
{
    if (json)
        printf("],\"ok\":%s}\n", ok ? "true" : "false");
}
