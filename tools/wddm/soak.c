/* wddm soak [ops] [local-MiB]: nothing is lost under oversubscription (issue 3). A working set
 * of 4x the local segment (GPU_ONLY allocations of 16 to 128 KiB, eight size classes, so the
 * first-fit range allocator fragments) is cycled through GPU copies (upload
 * -> allocation, allocation -> allocation, allocation -> readback) on the D3DKMT interface of
 * the kernel, the reference KMD and the software GPU; VidMm evicts and restores all the time.
 * Every read back is checksummed against what the allocation must hold. Segment sizes are set
 * through WDDM_SEGMENT_*_MB before the adapter starts (local = visible = local-MiB, aperture =
 * 8x), unless the environment already sets them. The CI version is
 * tests/dxgkrnl/test_vidmm_soak.c. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <wddm/d3dkmthk.h>
#include <wddm/swgpu.h>
#include <wddm/wddm.h>

#include "drv/swgpu_private.h"
#include "gpu/swgpu_isa.h"
#include "kmt_client.h"
#include "report.h"
#include "tool.h"

#define SOAK_SIZE (128u * 1024u)  /* the upload and readback buffers: the largest class */
#define SOAK_CLASSES 8u
#define SOAK_CLASS_SIZE(i) ((1u + (i) % SOAK_CLASSES) * 16u * 1024u) /* allocation i's size */

static uint64_t checksum(const uint8_t *b, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static void set_default_env(const char *name, unsigned long long mb)
{
    char v[32];
    snprintf(v, sizeof v, "%llu", mb);
    setenv(name, v, 0); /* an explicit environment wins */
}

static const char soak_usage[] =
    "usage: wddm soak [--json] [--quiet] [ops] [local-MiB]\n"
    "  a working set of 4x the local segment cycled through GPU copies, evictions and restores,\n"
    "  every read back checksummed. ops: 1..10^12 (default 200000); local-MiB: 1..1024\n"
    "  (default 4; WDDM_SEGMENT_LOCAL_MB, if set, wins). --json: the report as one JSON object.\n"
    "  On a terminal the progress is shown on stderr unless --quiet or --json.\n"
    "  Exit 1 if anything is lost.\n";

struct soak_opts {
    struct wddm_report rep;
    bool quiet;
};

static int soak_option(int opt, const char *arg, void *ctx)
{
    struct soak_opts *o = ctx;
    if (opt == 'J')
        o->rep.json = true;
    else
        o->quiet = true;
    return 0;
}

int wddm_tool_soak(int argc, char **argv)
{
    static const struct option opts[] = {{"json", no_argument, NULL, 'J'}, {"quiet", no_argument, NULL, 'Q'}, {0}};
    struct soak_opts so = {0};
    int first;
    int rc = wddm_tool_options("soak", soak_usage, argc, argv, opts, soak_option, &so, &first);
    if (rc)
        return rc;
    uint64_t ops64 = 200000, local64 = 4;
    if (argc - first > 2)
        return wddm_tool_usage_error("soak", "unexpected argument '%.40s'", argv[first + 2]);
    if (argc - first > 0 && (rc = wddm_tool_parse_u64("soak", "ops", argv[first], 1, 1000000000000ull, &ops64)))
        return rc;
    if (argc - first > 1 && (rc = wddm_tool_parse_u64("soak", "local-MiB", argv[first + 1], 1, 1024, &local64)))
        return rc;
    unsigned long long ops = ops64, local_mb = local64;
    set_default_env("WDDM_SEGMENT_LOCAL_MB", local_mb);
    set_default_env("WDDM_SEGMENT_VISIBLE_MB", local_mb);
    set_default_env("WDDM_SEGMENT_APERTURE_MB", 8 * local_mb);
    if ((rc = wddm_tool_parse_u64("soak", "WDDM_SEGMENT_LOCAL_MB", getenv("WDDM_SEGMENT_LOCAL_MB"), 1, 1024,
                                  &local64)))
        return rc;
    local_mb = local64;
    /* Average size 72 KiB: n allocations of 4x the local segment in all. */
    unsigned n = (unsigned)(4 * (local_mb << 20) / (72u * 1024u)) / SOAK_CLASSES * SOAK_CLASSES;

    struct wddm_kmt s;
    if (wddm_kmt_open(&s) <= 0) {
        fprintf(stderr, "wddm soak: no adapter (or the GpuMmu model, which this D3DKMT client does not drive)\n");
        return 1;
    }

    D3DKMT_HANDLE up = wddm_kmt_alloc(&s, SWGPU_ALLOC_UPLOAD, SOAK_SIZE), rb = wddm_kmt_alloc(&s, SWGPU_ALLOC_READBACK, SOAK_SIZE);
    D3DKMT_HANDLE *a = calloc(n, sizeof *a);
    uint64_t *sum = calloc(n, sizeof *sum);
    uint8_t *zero = calloc(1, SOAK_SIZE);
    int ok = up && rb && a && sum && zero && n >= SOAK_CLASSES;
    for (unsigned i = 0; ok && i < n; i++) {
        a[i] = wddm_kmt_alloc(&s, SWGPU_ALLOC_GPU_ONLY, SOAK_CLASS_SIZE(i));
        sum[i] = checksum(zero, SOAK_CLASS_SIZE(i)); /* a fresh placement is zero-filled */
        ok = a[i] != 0;
    }
    struct wddm_counters c0, c1;
    wddm_get_counters(&c0);
    uint64_t t0 = wddm_tool_now_ns();
    unsigned long long errors = 0, reads = 0, failed_calls = 0;
    uint32_t x = 0x5eed;
    /* Progress for a person watching: a terminal on stderr, and neither --quiet nor --json. */
    bool progress = !so.quiet && !so.rep.json && isatty(STDERR_FILENO);
    for (unsigned long long op = 0; ok && op < ops; op++) {
        if (progress && op % 4096 == 0)
            fprintf(stderr, "\rwddm soak: %llu of %llu ops", op, ops);
        uint32_t r = wddm_tool_rnd(&x) % 10;
        unsigned i = wddm_tool_rnd(&x) % n;
        UINT32 size = SOAK_CLASS_SIZE(i);
        void *p;
        if (r < 3) {
            if (wddm_kmt_lock(&s, up, 0x80 /* Discard */ | 0x2 /* WriteOnly */, &p) != STATUS_SUCCESS) {
                failed_calls++;
                continue;
            }
            uint32_t y = (uint32_t)op * 2654435761u + 1u;
            uint8_t *b = p;
            for (unsigned k = 0; k < size; k++)
                b[k] = (uint8_t)wddm_tool_rnd(&y);
            sum[i] = checksum(b, size);
            wddm_kmt_unlock(&s, up);
            failed_calls += wddm_kmt_copy(&s, a[i], up, size) != STATUS_SUCCESS;
        } else if (r < 7) {
            /* Another allocation of the same size class. */
            unsigned j = (wddm_tool_rnd(&x) % (n / SOAK_CLASSES)) * SOAK_CLASSES + i % SOAK_CLASSES;
            if (wddm_kmt_copy(&s, a[i], a[j], size) == STATUS_SUCCESS)
                sum[i] = sum[j];
            else
                failed_calls++;
        } else {
            if (wddm_kmt_copy(&s, rb, a[i], size) != STATUS_SUCCESS ||
                wddm_kmt_lock(&s, rb, 0x1 /* ReadOnly */, &p) != STATUS_SUCCESS) {
                failed_calls++;
                continue;
            }
            uint64_t got = checksum(p, size);
            wddm_kmt_unlock(&s, rb);
            reads++;
            if (got != sum[i]) {
                errors++;
                fprintf(stderr, "wddm soak: op %llu: allocation %u checksum %016llx, expected %016llx\n", op, i,
                        (unsigned long long)got, (unsigned long long)sum[i]);
                sum[i] = got;
            }
        }
    }
    if (progress)
        fprintf(stderr, "\r%60s\r", "");
    uint64_t t1 = wddm_tool_now_ns();
    wddm_get_counters(&c1);
    double secs = (double)(t1 - t0) / 1e9;
    if (!so.rep.json)
        printf("wddm soak: %llu ops over %u allocations of 16-128 KiB (%.1f MiB, 4x the %llu MiB local segment) in "
               "%.2f s\n", ops, n, n * 72.0 / 1024.0, local_mb, secs);
    wddm_report_begin(&so.rep, "soak");
    wddm_report_u64(&so.rep, "ops", ops);
    wddm_report_u64(&so.rep, "allocations", n);
    wddm_report_u64(&so.rep, "local MiB", local_mb);
    wddm_report_f64(&so.rep, "seconds", secs);
    wddm_report_u64(&so.rep, "read backs checked", reads);
    wddm_report_u64(&so.rep, "checksum errors", errors);
    wddm_report_u64(&so.rep, "failed calls", failed_calls);
    wddm_report_u64(&so.rep, "evictions", c1.evictions - c0.evictions);
    wddm_report_u64(&so.rep, "bytes paged in", c1.bytes_paged_in - c0.bytes_paged_in);
    wddm_report_u64(&so.rep, "bytes paged out", c1.bytes_paged_out - c0.bytes_paged_out);
    wddm_report_u64(&so.rep, "renames (Discard)", c1.renames - c0.renames);
    /* The segment allocator's fragmentation after the run (vidmm/segment.c): free bytes, free
     * ranges and the largest one, per segment, through the public statistics. */
    struct wddm_memory_statistics ms;
    if (NT_SUCCESS(wddm_query_memory_statistics(s.adapter, 0, &ms)))
        wddm_report_segments(&so.rep, &ms);
    free(zero);
    free(sum);
    free(a);
    wddm_kmt_close(&s);
    ok = ok && !errors && !failed_calls;
    wddm_report_end(&so.rep, "soak", ok, "nothing lost");
    return ok ? 0 : 1;
}
