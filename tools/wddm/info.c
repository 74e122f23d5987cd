/* wddm info: the adapter as the KMD describes it (issue 2 "The main job"; the line format
 * `DXGK_VIDMMCAPS.<Member> = 0|1` / `DXGK_DRIVERCAPS.<Field> = value` is issue 6's). */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wddm/d3dkmddi.h>
#include <wddm/d3dkmthk.h>

#include <wddm/wddm.h>

#include "common/caps.h"
#include "common/wide.h"
#include "report.h"
#include "tool.h"

static const char *const segment_bits[] = {
    "Aperture", "Agp", "CpuVisible", "UseBanking", "CacheCoherent", "PitchAlignment",
    "PopulatedFromSystemMemory", "PreservedDuringStandby", "PreservedDuringHibernate",
    "PartiallyPreservedDuringHibernate", "DirectFlip", "Use64KBPages", "ReservedSysMem",
    "SupportsCpuHostAperture", "SupportsCachedCpuHostAperture", "ApplicationTarget",
    "VprSupported", "VprPreservedDuringStandby", "EncryptedPagingSupported", "LocalBudgetGroup",
    "NonLocalBudgetGroup", "PopulatedByReservedDDRByFirmware",
};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static NTSTATUS query(D3DKMT_HANDLE hAdapter, KMTQUERYADAPTERINFOTYPE type, void *out, UINT size)
{
    D3DKMT_QUERYADAPTERINFO q = {.hAdapter = hAdapter, .Type = type, .pPrivateDriverData = out,
                                 .PrivateDriverDataSize = size};
    return D3DKMTQueryAdapterInfo(&q);
}

static void print_segments(const D3DKMT_WDDM_SEGMENTS *s)
{
    for (UINT i = 0; i < s->NbSegment && i < D3DKMT_WDDM_MAX_SEGMENTS; i++) {
        const D3DKMT_WDDM_SEGMENTINFO *g = &s->Segment[i];
        printf("Segment %u: BaseAddress = 0x%016" PRIx64 ", Size = %" PRIu64 " MiB, CommitLimit = %" PRIu64
               " MiB, resident = %" PRIu64 " KiB, Flags =",
               g->SegmentId, g->BaseAddress, g->Size >> 20, g->CommitLimit >> 20, g->BytesResident >> 10);
        for (unsigned b = 0; b < COUNT(segment_bits); b++)
            if (g->Flags & (1u << b))
                printf(" %s", segment_bits[b]);
        if (!(g->Flags & 0x5u))
            printf(" (local, not CPU-visible)");
        printf("\n");
    }
}

static const char info_usage[] =
    "usage: wddm info [--caps FILE] [--json | --summary]\n"
    "  the adapter as the KMD describes it: DXGK_DRIVERCAPS, every DXGK_VIDMMCAPS and\n"
    "  DXGK_VIDSCHCAPS bit, the segments.\n"
    "  --caps FILE  start the adapter with that caps file (as WDDM_KMD_CAPS=FILE does) and show\n"
    "               the result, or the reason the file is refused (exit 1).\n"
    "  --json       the same as one JSON object (every caps field by name, the segments).\n"
    "  --summary    one short block per adapter: LUID, driver model, nodes, segments, and the\n"
    "               caps that differ from the KMD's defaults.\n";

enum info_form { INFO_FULL, INFO_JSON, INFO_SUMMARY };

/* The adapter's UMD module as the kernel names it (KMTQAITYPE_UMDRIVERNAME, WDDM_UMD / --umd),
 * malloc'ed; "" for the reference UMD built into libwddm, NULL when the query fails. */
static char *umd_name(D3DKMT_HANDLE adapter)
{
    D3DKMT_UMDFILENAMEINFO info = {.Version = KMTUMDVERSION_DX11};
    if (!NT_SUCCESS(query(adapter, KMTQAITYPE_UMDRIVERNAME, &info, sizeof info)))
        return NULL;
    return wddm_utf16_to_utf8(info.UmdFileName, MAX_PATH);
}

/* The drivers lines of the text forms: which modules serve the adapter, as the kernel answers
 * (docs/drivers.md). */
static void print_drivers(D3DKMT_HANDLE adapter)
{
    D3DKMT_WDDM_KMDNAME kmd;
    char *umd = umd_name(adapter);
    if (!NT_SUCCESS(query(adapter, KMTQAITYPE_WDDM_KMDNAME, &kmd, sizeof kmd)))
        printf("  KMD: (no answer)\n");
    else
        printf("  KMD: %s\n", *kmd.KmdName ? kmd.KmdName : "the built-in reference KMD");
    printf("  UMD: %s\n", !umd ? "(no answer)" : *umd ? umd : "the built-in reference UMD");
    free(umd);
}

static void print_json(ULONG index, const D3DKMT_ADAPTERINFO *ai, const DXGK_DRIVERCAPS *caps,
                       const D3DKMT_WDDM_SEGMENTS *segs)
{
    printf("%s{\"index\":%lu,\"luid\":\"%08x:%08x\",\"caps\":{", index ? "," : "", (unsigned long)index,
           (unsigned)ai->AdapterLuid.HighPart, (unsigned)ai->AdapterLuid.LowPart);
    for (size_t i = 0; i < wddm_caps_count(); i++) {
        const struct wddm_cap_field *f = wddm_caps_at(i);
        printf("%s\"%s\":%" PRIu64, i ? "," : "", f->name, wddm_caps_get(caps, f));
    }
    printf("},\"segments\":[");
    for (UINT i = 0; i < segs->NbSegment && i < D3DKMT_WDDM_MAX_SEGMENTS; i++) {
        const D3DKMT_WDDM_SEGMENTINFO *g = &segs->Segment[i];
        printf("%s{\"id\":%u,\"base_address\":%" PRIu64 ",\"size\":%" PRIu64 ",\"commit_limit\":%" PRIu64
               ",\"flags\":%u,\"bytes_resident\":%" PRIu64 ",\"flag_names\":[",
               i ? "," : "", g->SegmentId, g->BaseAddress, g->Size, g->CommitLimit, g->Flags, g->BytesResident);
        int n = 0;
        for (unsigned b = 0; b < COUNT(segment_bits); b++)
            if (g->Flags & (1u << b))
                printf("%s\"%s\"", n++ ? "," : "", segment_bits[b]);
        printf("]}");
    }
    printf("],\"umd\":");
    char *umd = umd_name(ai->hAdapter);
    wddm_report_json_string(umd ? umd : "");
    free(umd);
    printf("}");
}

/* The caps that differ from what the KMD reports without a caps file (like vulkaninfo --summary,
 * the interesting part is what is not the default), or why that cannot be said. */
static void print_caps_changes(D3DKMT_HANDLE adapter, const DXGK_DRIVERCAPS *caps)
{
    DXGK_DRIVERCAPS defaults;
    if (!NT_SUCCESS(query(adapter, KMTQAITYPE_WDDM_DEFAULT_DRIVERCAPS, &defaults, sizeof defaults))) {
        printf("  caps: the KMD does not report its defaults\n");
        return;
    }
    size_t changed = 0;
    for (size_t i = 0; i < wddm_caps_count(); i++) {
        const struct wddm_cap_field *f = wddm_caps_at(i);
        UINT64 now = wddm_caps_get(caps, f), was = wddm_caps_get(&defaults, f);
        if (now == was)
            continue;
        if (!changed++)
            printf("  caps that differ from the KMD's defaults:\n");
        printf("    %s = 0x%" PRIx64 " (default 0x%" PRIx64 ")\n", f->name, now, was);
    }
    if (!changed)
        printf("  caps: the KMD's defaults\n");
}

static void print_summary(ULONG index, const D3DKMT_ADAPTERINFO *ai, const DXGK_DRIVERCAPS *caps,
                          const D3DKMT_WDDM_SEGMENTS *segs)
{
    const struct wddm_cap_field *gpummu = wddm_caps_find("DXGK_VIDMMCAPS.GpuMmuSupported");
    bool va = gpummu && wddm_caps_get(caps, gpummu);
    printf("Adapter %lu: LUID %08x:%08x, WDDM version 0x%04x, %s model, %u nodes\n", (unsigned long)index,
           (unsigned)ai->AdapterLuid.HighPart, (unsigned)ai->AdapterLuid.LowPart, (unsigned)caps->WDDMVersion,
           va ? "WDDM 2.x GpuMmu" : "WDDM 1.x patching", (unsigned)caps->GpuEngineTopology.NbAsymetricProcessingNodes);
    for (UINT i = 0; i < segs->NbSegment && i < D3DKMT_WDDM_MAX_SEGMENTS; i++) {
        const D3DKMT_WDDM_SEGMENTINFO *g = &segs->Segment[i];
        printf("  segment %u: %" PRIu64 " MiB, %s\n", g->SegmentId, g->Size >> 20,
               (g->Flags & 0x1u) ? "aperture" : (g->Flags & 0x4u) ? "CPU-visible memory" : "local memory");
    }
    const char *file = getenv("WDDM_KMD_CAPS");
    if (file && *file)
        printf("  caps overridden by WDDM_KMD_CAPS=%s\n", file);
    print_drivers(ai->hAdapter);
    print_caps_changes(ai->hAdapter, caps);
}

static int info_option(int opt, const char *arg, void *ctx)
{
    enum info_form *form = ctx;
    if (opt == 'J' || opt == 'S') {
        if (*form != INFO_FULL)
            return wddm_tool_usage_error("info", "--json and --summary exclude each other");
        *form = opt == 'J' ? INFO_JSON : INFO_SUMMARY;
        return 0;
    }
    /* `wddm info --caps FILE`: what that caps file would do — start the adapter with it (the
     * reference KMD reads WDDM_KMD_CAPS) and show the result or the exact reason it fails. */
    if (!*arg)
        return wddm_tool_usage_error("info", "--caps needs a file name");
    setenv("WDDM_KMD_CAPS", arg, 1);
    return 0;
}

int wddm_tool_info(int argc, char **argv)
{
    static const struct option opts[] = {{"caps", required_argument, NULL, 'c'},
                                         {"json", no_argument, NULL, 'J'},
                                         {"summary", no_argument, NULL, 'S'},
                                         {0}};
    enum info_form form = INFO_FULL;
    int first;
    int rc = wddm_tool_options("info", info_usage, argc, argv, opts, info_option, &form, &first);
    if (rc)
        return rc;
    if (first < argc)
        return wddm_tool_usage_error("info", "unexpected argument '%.40s'", argv[first]);
    D3DKMT_ADAPTERINFO adapters[4];
    D3DKMT_ENUMADAPTERS2 e = {.NumAdapters = 4, .pAdapters = adapters};
    wddm_clear_refusals();
    NTSTATUS st = D3DKMTEnumAdapters2(&e);
    if (!NT_SUCCESS(st)) {
        char why[1100];
        wddm_last_refusals(why, sizeof why);
        fprintf(stderr, "wddm info: the adapter did not start (NTSTATUS 0x%08x):\n%s\n", (unsigned)st, why);
        return 1;
    }
    rc = 0;
    if (form == INFO_JSON)
        printf("{\"adapters\":[");
    for (ULONG a = 0; a < e.NumAdapters; a++) {
        DXGK_DRIVERCAPS caps;
        D3DKMT_WDDM_SEGMENTS segs;
        if (!NT_SUCCESS(query(adapters[a].hAdapter, KMTQAITYPE_WDDM_DRIVERCAPS, &caps, sizeof caps)) ||
            !NT_SUCCESS(query(adapters[a].hAdapter, KMTQAITYPE_WDDM_SEGMENTS, &segs, sizeof segs))) {
            fprintf(stderr, "wddm info: adapter %lu does not answer its queries\n", (unsigned long)a);
            rc = 1;
        } else if (form == INFO_JSON) {
            print_json(a, &adapters[a], &caps, &segs);
        } else if (form == INFO_SUMMARY) {
            print_summary(a, &adapters[a], &caps, &segs);
        } else {
            printf("Adapter %lu: LUID %08x:%08x\n", (unsigned long)a, (unsigned)adapters[a].AdapterLuid.HighPart,
                   (unsigned)adapters[a].AdapterLuid.LowPart);
            print_drivers(adapters[a].hAdapter);
            wddm_caps_print(stdout, &caps);
            print_segments(&segs);
        }
        D3DKMT_CLOSEADAPTER c = {.hAdapter = adapters[a].hAdapter};
        D3DKMTCloseAdapter(&c);
    }
    if (form == INFO_JSON)
        printf("]}\n");
    return rc;
}
