/* wddm stats: every adapter's memory statistics (issue 18 §2; include/wddm/wddm.h
 * wddm_query_memory_statistics), as text or as JSON for scripts. The tool's own process has
 * allocated nothing, so this shows the segments as a program starts with them; a program calls
 * wddm_query_memory_statistics itself for its own moment. --device shows the device part of the
 * statistics too: the tool opens a device of its own on each adapter and does a little work on
 * it first (see device_work), then asks for that device's statistics. */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <wddm/d3dkmthk.h>
#include <wddm/wddm.h>

#include "drv/swgpu_private.h"
#include "kmt_client.h"
#include "report.h"
#include "tool.h"

static const char stats_usage[] =
    "usage: wddm stats [--json] [--device]\n"
    "  every adapter's memory: per segment its size, bytes used and free, the largest free range\n"
    "  and the number of free ranges (fragmentation), the instances placed; the backing-store\n"
    "  budget. --json prints one JSON object instead of text.\n"
    "  --device  also a device's part: the tool creates a device on each adapter, makes three\n"
    "            allocations (GPU-only, upload written through a lock, readback) and shows that\n"
    "            device's allocations, bytes, resident and evicted ones, and their kinds.\n";

struct stats_opts {
    struct wddm_report rep;
    bool device;
};

static int stats_option(int opt, const char *arg, void *ctx)
{
    (void)arg;
    struct stats_opts *o = ctx;
    if (opt == 'D')
        o->device = true;
    else
        o->rep.json = true;
    return 0;
}

/* The little work --device does on its own device: one allocation of each kind a UMD makes for
 * the D3D11 usages (DEFAULT: GPU-only; DYNAMIC: upload; STAGING: readback), the upload one
 * written through D3DKMTLock (which places it) and the readback one locked for reading. A
 * program's own device is its own business: wddm_query_memory_statistics answers for the
 * devices of the calling process only (issue 18 §2). */
static NTSTATUS device_work(struct wddm_kmt *k)
{
    D3DKMT_CREATEDEVICE cd = {.hAdapter = k->adapter};
    NTSTATUS st = D3DKMTCreateDevice(&cd);
    if (!NT_SUCCESS(st))
        return st;
    k->device = cd.hDevice;
    D3DKMT_HANDLE gpu = wddm_kmt_alloc(k, SWGPU_ALLOC_GPU_ONLY, 256u << 10);
    D3DKMT_HANDLE up = wddm_kmt_alloc(k, SWGPU_ALLOC_UPLOAD, 64u << 10);
    D3DKMT_HANDLE rb = wddm_kmt_alloc(k, SWGPU_ALLOC_READBACK, 64u << 10);
    if (!gpu || !up || !rb)
        return STATUS_NO_MEMORY;
    void *p = NULL;
    if (!NT_SUCCESS(st = wddm_kmt_lock(k, up, 0, &p)))
        return st;
    memset(p, 0x5a, 64u << 10);
    wddm_kmt_unlock(k, up);
    D3DDDICB_LOCKFLAGS ro = {.ReadOnly = 1};
    if (!NT_SUCCESS(st = wddm_kmt_lock(k, rb, ro.Value, &p)))
        return st;
    wddm_kmt_unlock(k, rb);
    return STATUS_SUCCESS;
}

static void print_device(struct wddm_report *r, const struct wddm_device_memory_statistics *d)
{
    if (!r->json) {
        printf("  device 0x%x: %u allocations, %.1f KiB; %u resident (%.1f KiB), %u evicted\n"
               "    kinds: %u CPU-visible, %u primary, %u swizzled, %u system memory, %u shared, %u opened\n",
               (unsigned)d->hDevice, d->allocations, d->bytes / 1024.0, d->resident_allocations,
               d->resident_bytes / 1024.0, d->evicted_allocations, d->kinds.cpu_visible, d->kinds.primary,
               d->kinds.swizzled, d->kinds.system_memory, d->kinds.shared, d->kinds.opened);
        return;
    }
    printf(",\"device\":{");
    r->any = false;
    wddm_report_u64(r, "handle", d->hDevice);
    wddm_report_u64(r, "allocations", d->allocations);
    wddm_report_u64(r, "bytes", d->bytes);
    wddm_report_u64(r, "resident allocations", d->resident_allocations);
    wddm_report_u64(r, "resident bytes", d->resident_bytes);
    wddm_report_u64(r, "evicted allocations", d->evicted_allocations);
    printf(",\"kinds\":{");
    r->any = false;
    wddm_report_u64(r, "cpu visible", d->kinds.cpu_visible);
    wddm_report_u64(r, "primary", d->kinds.primary);
    wddm_report_u64(r, "swizzled", d->kinds.swizzled);
    wddm_report_u64(r, "system memory", d->kinds.system_memory);
    wddm_report_u64(r, "shared", d->kinds.shared);
    wddm_report_u64(r, "opened", d->kinds.opened);
    printf("}}");
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
        if (s->device.hDevice)
            print_device(r, &s->device);
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
    if (s->device.hDevice)
        print_device(r, &s->device);
}

int wddm_tool_stats(int argc, char **argv)
{
    static const struct option opts[] = {{"json", no_argument, NULL, 'J'}, {"device", no_argument, NULL, 'D'}, {0}};
    struct stats_opts o = {0};
    struct wddm_report *rep = &o.rep;
    int first;
    int rc = wddm_tool_options("stats", stats_usage, argc, argv, opts, stats_option, &o, &first);
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
    if (rep->json)
        printf("{\"adapters\":[");
    rc = 0;
    for (ULONG a = 0; a < e.NumAdapters; a++) {
        struct wddm_kmt k = {.adapter = adapters[a].hAdapter};
        struct wddm_memory_statistics s;
        if (o.device && !NT_SUCCESS(st = device_work(&k))) {
            fprintf(stderr, "wddm stats: the device's work on adapter %lu failed (NTSTATUS 0x%08x)\n",
                    (unsigned long)a, (unsigned)st);
            rc = 1;
        } else if (NT_SUCCESS(wddm_query_memory_statistics(k.adapter, k.device, &s))) {
            print_adapter(rep, a, &s);
        } else {
            fprintf(stderr, "wddm stats: adapter %lu answers no statistics\n", (unsigned long)a);
            rc = 1;
        }
        wddm_kmt_close(&k); /* the device (and its allocations), then the adapter */
    }
    if (rep->json)
        printf("]}\n");
    return rc;
}
