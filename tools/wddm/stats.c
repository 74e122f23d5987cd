/* wddm stats: every adapter's memory statistics (issue 18 §2; include/wddm/wddm.h
 * wddm_query_memory_statistics), as text or as JSON for scripts. The tool's own process has
 * allocated nothing, so this shows the segments as a program starts with them; a program calls
 * wddm_query_memory_statistics itself for its own moment. */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include <wddm/d3dkmthk.h>
#include <wddm/wddm.h>

#include "tool.h"

static const char stats_usage[] =
    "usage: wddm stats [--json]\n"
    "  every adapter's memory: per segment its size, bytes used and free, the largest free range\n"
    "  and the number of free ranges (fragmentation), the instances placed; the backing-store\n"
    "  budget. --json prints one JSON object instead of text.\n";

static int stats_option(int opt, const char *arg, void *ctx)
{
    (void)opt;
    (void)arg;
    *(bool *)ctx = true;
    return 0;
}

static void print_text(ULONG index, const struct wddm_memory_statistics *s)
{
    printf("Adapter %lu: LUID %08x:%08x\n", (unsigned long)index, (unsigned)s->AdapterLuid.HighPart,
           (unsigned)s->AdapterLuid.LowPart);
    for (UINT i = 0; i < s->segment_count; i++) {
        const struct wddm_segment_statistics *g = &s->segment[i];
        printf("  segment %u (%s%s): size %" PRIu64 " KiB, used %" PRIu64 " KiB, free %" PRIu64
               " KiB, largest free range %" PRIu64 " KiB in %u free ranges, %u instances\n",
               g->id, g->aperture ? "aperture" : "memory", g->cpu_visible ? ", CPU-visible" : "", g->size >> 10,
               g->used >> 10, g->free >> 10, g->largest_free >> 10, g->free_ranges, g->instances);
    }
    if (s->backing_budget)
        printf("  backing stores: %" PRIu64 " of %" PRIu64 " KiB committed\n", s->backing_committed >> 10,
               s->backing_budget >> 10);
    else
        printf("  backing stores: no budget (WDDM_SYSMEM_BUDGET_MB unset)\n");
}

static void print_json(ULONG index, const struct wddm_memory_statistics *s)
{
    printf("%s{\"index\":%lu,\"luid\":\"%08x:%08x\",\"backing_budget\":%" PRIu64 ",\"backing_committed\":%" PRIu64
           ",\"segments\":[",
           index ? "," : "", (unsigned long)index, (unsigned)s->AdapterLuid.HighPart, (unsigned)s->AdapterLuid.LowPart,
           s->backing_budget, s->backing_committed);
    for (UINT i = 0; i < s->segment_count; i++) {
        const struct wddm_segment_statistics *g = &s->segment[i];
        printf("%s{\"id\":%u,\"aperture\":%s,\"cpu_visible\":%s,\"size\":%" PRIu64 ",\"used\":%" PRIu64
               ",\"free\":%" PRIu64 ",\"largest_free\":%" PRIu64 ",\"free_ranges\":%u,\"instances\":%u}",
               i ? "," : "", g->id, g->aperture ? "true" : "false", g->cpu_visible ? "true" : "false", g->size,
               g->used, g->free, g->largest_free, g->free_ranges, g->instances);
    }
    printf("]}");
}

int wddm_tool_stats(int argc, char **argv)
{
    static const struct option opts[] = {{"json", no_argument, NULL, 'J'}, {0}};
    bool json = false;
    int first;
    int rc = wddm_tool_options("stats", stats_usage, argc, argv, opts, stats_option, &json, &first);
    if (rc)
        return rc;
    if (first < argc)
        return wddm_tool_usage_error("stats", "unexpected argument '%.40s'", argv[first]);
    D3DKMT_ADAPTERINFO adapters[4];
    D3DKMT_ENUMADAPTERS2 e = {.NumAdapters = 4, .pAdapters = adapters};
    NTSTATUS st = D3DKMTEnumAdapters2(&e);
    if (!NT_SUCCESS(st)) {
        fprintf(stderr, "wddm stats: no adapter started (NTSTATUS 0x%08x)\n", (unsigned)st);
        return 1;
    }
    if (json)
        printf("{\"adapters\":[");
    rc = 0;
    for (ULONG a = 0; a < e.NumAdapters; a++) {
        struct wddm_memory_statistics s;
        if (NT_SUCCESS(wddm_query_memory_statistics(adapters[a].hAdapter, 0, &s))) {
            if (json)
                print_json(a, &s);
            else
                print_text(a, &s);
        } else {
            fprintf(stderr, "wddm stats: adapter %lu answers no statistics\n", (unsigned long)a);
            rc = 1;
        }
        D3DKMT_CLOSEADAPTER c = {.hAdapter = adapters[a].hAdapter};
        D3DKMTCloseAdapter(&c);
    }
    if (json)
        printf("]}\n");
    return rc;
}
