/* report.c - the end-of-command report as text or JSON (report.h). */
#include "report.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>

#include <wddm/wddm.h>

static void key(struct wddm_report *r, const char *label)
{
    printf("%s\"", r->any ? "," : "");
    r->any = true;
    bool sep = false;
    for (const char *c = label; *c; c++) {
        if (isalnum((unsigned char)*c)) {
            if (sep)
                putchar('_');
            putchar(tolower((unsigned char)*c));
            sep = false;
        } else {
            sep = c != label;
        }
    }
    printf("\":");
}

void wddm_report_begin(struct wddm_report *r, const char *command)
{
    r->any = false;
    if (!r->json)
        return;
    printf("{");
    key(r, "command");
    printf("\"%s\"", command);
}

void wddm_report_u64(struct wddm_report *r, const char *label, uint64_t v)
{
    if (!r->json) {
        printf("  %-28s %12" PRIu64 "\n", label, v);
        return;
    }
    key(r, label);
    printf("%" PRIu64, v);
}

void wddm_report_f64(struct wddm_report *r, const char *label, double v)
{
    if (!r->json)
        return;
    key(r, label);
    printf("%.6g", v);
}

void wddm_report_segments(struct wddm_report *r, const struct wddm_memory_statistics *s)
{
    if (r->json) {
        key(r, "segments");
        printf("[");
    }
    for (unsigned i = 0; i < s->segment_count; i++) {
        const struct wddm_segment_statistics *g = &s->segment[i];
        if (r->json)
            printf("%s{\"id\":%u,\"aperture\":%s,\"cpu_visible\":%s,\"size\":%" PRIu64 ",\"used\":%" PRIu64
                   ",\"free\":%" PRIu64 ",\"largest_free\":%" PRIu64 ",\"free_ranges\":%u,\"instances\":%u}",
                   i ? "," : "", g->id, g->aperture ? "true" : "false", g->cpu_visible ? "true" : "false", g->size,
                   g->used, g->free, g->largest_free, g->free_ranges, g->instances);
        else
            printf("  segment %u (%s%s): %.1f of %.1f MiB free in %u ranges, largest %.1f MiB, %u instances\n",
                   g->id, g->aperture ? "aperture" : "memory", g->cpu_visible ? ", CPU-visible" : "",
                   g->free / 1048576.0, g->size / 1048576.0, g->free_ranges, g->largest_free / 1048576.0,
                   g->instances);
    }
    if (r->json)
        printf("]");
}

void wddm_report_end(struct wddm_report *r, const char *command, bool ok, const char *ok_text)
{
    if (r->json) {
        key(r, "ok");
        printf("%s}\n", ok ? "true" : "false");
        return;
    }
    printf("wddm %s: %s\n", command, ok ? ok_text : "FAILED");
}

void wddm_report_json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}
