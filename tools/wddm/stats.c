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

#include "report.h"
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
    ((struct wddm_report *)ctx)->json = true;
    return 0;
}

static void print_adapter(struct wddm_report *r, ULONG index, const struct wddm_memory_statistics *s)
{
    if (r->json) {
        printf("%s{", index ? "," : "");
        r->any = false;
        wddm_report_u64(r, "index", index);
        printf(",\"luid\":\"%08x:%08x\"", (unsigned)s->AdapterLuid.HighPart, (unsigned)s->AdapterLuid.LowPart);
        wddm_report_u64(r, "backing budget", s->backing_budget);
        wddm_report_u64(r, "backing committed", s->backing_committed);
        wddm_report_segments(r, s);
        printf("}");
        return;
    }
    printf("Adapter %lu: LUID %08x:%08x\n", (unsigned long)index, (unsigned)s->AdapterLuid.HighPart,
           (unsigned)s->AdapterLuid.LowPart);
    wddm_report_segments(r, s);
    if (s->backing_budget)
        printf("  backing stores: %" PRIu64 " of %" PRIu64 " KiB committed\n", s->backing_committed >> 10,
               s->backing_budget >> 10);
    else
        printf("  backing stores: no budget (WDDM_SYSMEM_BUDGET_MB unset)\n");
}

int wddm_tool_stats(int argc, char **argv)
{
    static const struct option opts[] = {{"json", no_argument, NULL, 'J'}, {0}};
    struct wddm_report rep = {0};
    int first;
    int rc = wddm_tool_options("stats", stats_usage, argc, argv, opts, stats_option, &rep, &first);
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
    if (rep.json)
        printf("{\"adapters\":[");
    rc = 0;
    for (ULONG a = 0; a < e.NumAdapters; a++) {
        struct wddm_memory_statistics s;
        if (NT_SUCCESS(wddm_query_memory_statistics(adapters[a].hAdapter, 0, &s))) {
            print_adapter(&rep, a, &s);
        } else {
            fprintf(stderr, "wddm stats: adapter %lu answers no statistics\n", (unsigned long)a);
            rc = 1;
        }
        D3DKMT_CLOSEADAPTER c = {.hAdapter = adapters[a].hAdapter};
        D3DKMTCloseAdapter(&c);
    }
    if (rep.json)
        printf("]}\n");
    return rc;
}
