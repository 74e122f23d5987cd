/* wddm bench: issue 2's benchmarks, each measured in the same run as its physical limit and
 * reported as a ratio (medians over >= 20 repetitions after a warm-up):
 *  W1  Map(WRITE_DISCARD) + write + Unmap of a DYNAMIC buffer, then a GPU CopyResource into a
 *      DEFAULT buffer, per iteration; vs memcpy of the same bytes. 64 KiB and 4 MiB, and in a
 *      full run 4 KiB (the fixed cost) and 16 MiB.
 *  W2  1920x1080 RGBA8 readback: CopyResource DEFAULT -> STAGING, Map(READ), read every byte
 *      through RowPitch, Unmap; vs memcpy of the same bytes.
 *  U1  UpdateSubresource of a 16 MiB texture until the GPU wrote it; vs memcpy of the same bytes.
 *  W3  CreateBuffer(4 KiB, DEFAULT) + Release, per pair; vs malloc(4096) + free; again with
 *      10^3 .. 10^5 buffers alive.
 * `wddm bench quick` runs fewer iterations (a smoke run, same code). */
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <d3d11.h>
#include <wddm/wddm.h>

#include "bench_deferred.h"
#include "bench_sched.h"
#include "bench_segment.h"
#include "bench_vidmm.h"
#include "bench_report.h"
#include "tool.h"

#define REPS 21
#define WARMUP_NS 200000000ull
#define SAFE_RELEASE(p) do { if (p) (p)->lpVtbl->Release(p); } while (0)

static volatile uint64_t sink;

/* What the stack did per operation over the measured repetitions (issue 17 aim 2): DMA buffers,
 * locks (and those that waited), renames, and the process's context switches from getrusage
 * (voluntary + involuntary; a futex wait that blocks is one voluntary switch, so this counts the
 * blocking futex calls of every thread, the GPU's and the kernel's included). */
struct op_cost {
    struct wddm_counters c0, c1;
    long csw0, csw1;
};

static long context_switches(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) ? 0 : ru.ru_nvcsw + ru.ru_nivcsw;
}

static void op_cost_start(struct op_cost *o)
{
    wddm_get_counters(&o->c0);
    o->csw0 = context_switches();
}

static void op_cost_stop(struct op_cost *o)
{
    wddm_get_counters(&o->c1);
    o->csw1 = context_switches();
}

static void op_cost_print(const struct op_cost *o, const char *per_what, double ops)
{
    const struct wddm_counters *a = &o->c0, *b = &o->c1;
    wddm_bench_printf("   per %s: %.2f DMA buffers, %.2f locks (%.2f waited, %.3f ms), %.2f renames, %.2f context switches\n",
                      per_what, (double)(b->dma_buffers_submitted - a->dma_buffers_submitted) / ops,
                      (double)(b->locks - a->locks) / ops, (double)(b->lock_waits - a->lock_waits) / ops,
                      (double)(b->lock_wait_ns - a->lock_wait_ns) / ops / 1e6, (double)(b->renames - a->renames) / ops,
                      (double)(o->csw1 - o->csw0) / ops);
}

/* Median ns of one memcpy of `bytes`, `iters` per repetition. */
static double bench_memcpy(size_t bytes, int iters)
{
    BYTE *a = malloc(bytes), *b = malloc(bytes);
    memset(a, 1, bytes);
    memset(b, 2, bytes);
    uint64_t t[REPS];
    for (int r = -2; r < REPS; r++) {
        uint64_t t0 = wddm_tool_now_ns();
        for (int i = 0; i < iters; i++) {
            memcpy(b, a, bytes);
            a[i % bytes] ^= b[(i * 7) % bytes]; /* keep the copy observable */
        }
        uint64_t dt = wddm_tool_now_ns() - t0;
        if (r >= 0)
            t[r] = dt / (uint64_t)iters;
    }
    sink += b[bytes - 1];
    free(a);
    free(b);
    return (double)wddm_tool_median(t, REPS);
}

/* W2's physical floor on this machine: the same bytes copied once and then read once through
 * the same loop, by one thread with no API in between (a copy plus a read is two passes). */
static double bench_copy_read(UINT w, UINT h, int iters)
{
    size_t pitch = (size_t)w * 4u, bytes = pitch * h;
    BYTE *a = malloc(bytes), *b = malloc(bytes);
    memset(a, 1, bytes);
    memset(b, 2, bytes);
    uint64_t t[REPS];
    for (int r = -2; r < REPS; r++) {
        uint64_t t0 = wddm_tool_now_ns();
        for (int i = 0; i < iters; i++) {
            memcpy(b, a, bytes);
            uint64_t sum = 0;
            for (UINT y = 0; y < h; y++) {
                const uint64_t *row = (const uint64_t *)(b + (size_t)y * pitch);
                for (UINT x = 0; x < w / 2u; x++)
                    sum += row[x];
            }
            sink += sum;
        }
        uint64_t dt = wddm_tool_now_ns() - t0;
        if (r >= 0)
            t[r] = dt / (uint64_t)iters;
    }
    free(a);
    free(b);
    return (double)wddm_tool_median(t, REPS);
}

/* Waits until the GPU has executed everything queued so far: a copy of `box` of src into a
 * small staging resource is ordered after the earlier work on the same engine. False when the
 * staging resource could not be mapped. */
static bool gpu_sync(ID3D11DeviceContext *ctx, ID3D11Resource *src, ID3D11Resource *probe, const D3D11_BOX *box)
{
    ID3D11DeviceContext_CopySubresourceRegion(ctx, probe, 0, 0, 0, 0, src, 0, box);
    D3D11_MAPPED_SUBRESOURCE m;
    if (FAILED(ID3D11DeviceContext_Map(ctx, probe, 0, D3D11_MAP_READ, 0, &m)))
        return false;
    sink += *(const BYTE *)m.pData;
    ID3D11DeviceContext_Unmap(ctx, probe, 0);
    return true;
}

/* A w x h RGBA8 DEFAULT texture with `bind` (unless def is NULL), and a STAGING one the CPU
 * reads, of the same size. */
static HRESULT make_rgba8_pair(ID3D11Device *dev, UINT w, UINT h, UINT bind, ID3D11Texture2D **def,
                               ID3D11Texture2D **stg)
{
    D3D11_TEXTURE2D_DESC td = {.Width = w, .Height = h, .MipLevels = 1, .ArraySize = 1,
                               .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = {1, 0},
                               .Usage = D3D11_USAGE_DEFAULT, .BindFlags = bind};
    HRESULT hr = def ? ID3D11Device_CreateTexture2D(dev, &td, NULL, def) : S_OK;
    td.Usage = D3D11_USAGE_STAGING;
    td.BindFlags = 0;
    td.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    if (SUCCEEDED(hr))
        hr = ID3D11Device_CreateTexture2D(dev, &td, NULL, stg);
    return hr;
}

static int bench_w1(ID3D11Device *dev, ID3D11DeviceContext *ctx, UINT bytes, int iters)
{
    ID3D11Buffer *dyn = NULL, *def = NULL, *probe = NULL;
    D3D11_BUFFER_DESC bd = {.ByteWidth = bytes, .Usage = D3D11_USAGE_DYNAMIC, .BindFlags = D3D11_BIND_VERTEX_BUFFER,
                            .CPUAccessFlags = D3D11_CPU_ACCESS_WRITE};
    D3D11_BUFFER_DESC dd = {.ByteWidth = bytes, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER};
    D3D11_BUFFER_DESC pd = {.ByteWidth = 16, .Usage = D3D11_USAGE_STAGING, .CPUAccessFlags = D3D11_CPU_ACCESS_READ};
    if (FAILED(ID3D11Device_CreateBuffer(dev, &bd, NULL, &dyn)) || FAILED(ID3D11Device_CreateBuffer(dev, &dd, NULL, &def)) ||
        FAILED(ID3D11Device_CreateBuffer(dev, &pd, NULL, &probe))) {
        fprintf(stderr, "W1: resource creation failed\n");
        SAFE_RELEASE(dyn); SAFE_RELEASE(def); SAFE_RELEASE(probe);
        return 1;
    }
    BYTE *src = malloc(bytes);
    memset(src, 0x5a, bytes);
    uint64_t t[REPS];
    int failed = 0;
    /* Warm-up: repetitions for at least 200 ms (and at least 2). The GPU engine and scheduler
     * threads were just created, and the OS may keep one of them on the application's CPU for
     * the first tens of milliseconds; W1 64 KiB lasts ~15 ms in all, so measured from the start
     * one run in three came out ~2.5x slower for that alone (as `taskset -c 0` does). */
    uint64_t w0 = wddm_tool_now_ns();
    struct op_cost cost = {0};
    for (int r = -2; r < REPS && !failed; r++) {
        if (r == 0)
            op_cost_start(&cost);
        uint64_t t0 = wddm_tool_now_ns();
        for (int i = 0; i < iters; i++) {
            D3D11_MAPPED_SUBRESOURCE m;
            if (FAILED(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)dyn, 0, D3D11_MAP_WRITE_DISCARD, 0, &m))) {
                failed = 1;
                break;
            }
            src[0] = (BYTE)i;
            memcpy(m.pData, src, bytes);
            ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)dyn, 0);
            ID3D11DeviceContext_CopyResource(ctx, (ID3D11Resource *)def, (ID3D11Resource *)dyn);
        }
        static const D3D11_BOX first16 = {0, 0, 0, 16, 1, 1};
        gpu_sync(ctx, (ID3D11Resource *)def, (ID3D11Resource *)probe, &first16);
        uint64_t dt = wddm_tool_now_ns() - t0;
        if (r == -1 && wddm_tool_now_ns() - w0 < WARMUP_NS)
            r = -2; /* still warming up */
        if (r >= 0)
            t[r] = dt / (uint64_t)iters;
    }
    op_cost_stop(&cost);
    free(src);
    SAFE_RELEASE(dyn); SAFE_RELEASE(def); SAFE_RELEASE(probe);
    if (failed) {
        fprintf(stderr, "W1: Map(WRITE_DISCARD) failed\n");
        return 1;
    }
    double w1 = (double)wddm_tool_median(t, REPS), mc = bench_memcpy(bytes, iters);
    wddm_bench_printf("W1 dynamic upload %7u KiB: %10.0f ns/iter   memcpy %9.0f ns   ratio %5.2fx  (%d iterations x %d; "
                      "min-max %.0f-%.0f ns)\n",
                      bytes / 1024u, w1, mc, w1 / mc, iters, REPS, (double)t[0], (double)t[REPS - 1]);
    op_cost_print(&cost, "iteration", (double)REPS * iters);
    char name[32];
    snprintf(name, sizeof name, "W1 %u KiB", bytes / 1024u);
    wddm_bench_result(name, "ns/iter", w1, (double)t[0], (double)t[REPS - 1], "memcpy", mc);
    return 0;
}

static int bench_w2(ID3D11Device *dev, ID3D11DeviceContext *ctx, int iters)
{
    const UINT w = 1920, h = 1080;
    ID3D11Texture2D *def = NULL, *stg = NULL;
    HRESULT hr = make_rgba8_pair(dev, w, h, D3D11_BIND_RENDER_TARGET, &def, &stg);
    if (FAILED(hr)) {
        fprintf(stderr, "W2: texture creation failed 0x%08x\n", (unsigned)hr);
        SAFE_RELEASE(def); SAFE_RELEASE(stg);
        return 1;
    }
    uint32_t *img = malloc((size_t)w * h * 4u);
    for (size_t i = 0; i < (size_t)w * h; i++)
        img[i] = (uint32_t)(i * 2654435761u);
    ID3D11DeviceContext_UpdateSubresource(ctx, (ID3D11Resource *)def, 0, NULL, img, w * 4u, 0);
    free(img);
    uint64_t t[REPS];
    struct op_cost cost = {0};
    for (int r = -2; r < REPS; r++) {
        if (r == 0)
            op_cost_start(&cost);
        uint64_t t0 = wddm_tool_now_ns();
        for (int i = 0; i < iters; i++) {
            ID3D11DeviceContext_CopyResource(ctx, (ID3D11Resource *)stg, (ID3D11Resource *)def);
            D3D11_MAPPED_SUBRESOURCE m;
            if (FAILED(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m))) {
                fprintf(stderr, "W2: Map(READ) failed\n");
                SAFE_RELEASE(def); SAFE_RELEASE(stg);
                return 1;
            }
            uint64_t sum = 0;
            for (UINT y = 0; y < h; y++) {
                const uint64_t *row = (const uint64_t *)((const BYTE *)m.pData + (size_t)y * m.RowPitch);
                for (UINT x = 0; x < w / 2u; x++)
                    sum += row[x];
            }
            sink += sum;
            ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)stg, 0);
        }
        uint64_t dt = wddm_tool_now_ns() - t0;
        if (r >= 0)
            t[r] = dt / (uint64_t)iters;
    }
    op_cost_stop(&cost);
    SAFE_RELEASE(def); SAFE_RELEASE(stg);
    double w2 = (double)wddm_tool_median(t, REPS), mc = bench_memcpy((size_t)w * h * 4u, iters);
    double cr = bench_copy_read(w, h, iters);
    wddm_bench_printf("W2 1920x1080 RGBA8 readback:  %10.0f ns/iter   memcpy %9.0f ns   ratio %5.2fx  (%d iterations x %d; "
                      "min-max %.0f-%.0f ns)\n",
                      w2, mc, w2 / mc, iters, REPS, (double)t[0], (double)t[REPS - 1]);
    wddm_bench_printf("   same bytes copied + read by one thread, no API: %9.0f ns   W2 / that %5.2fx\n", cr, w2 / cr);
    op_cost_print(&cost, "readback", (double)REPS * iters);
    wddm_bench_result("W2 1080p readback", "ns/iter", w2, (double)t[0], (double)t[REPS - 1], "memcpy", mc);
    wddm_bench_result("W2 1080p readback / copy+read", "ns/iter", w2, NAN, NAN, "copy + read by one thread", cr);
    return 0;
}

/* U1: UpdateSubresource of a whole 2048x2048 RGBA8 DEFAULT texture (16 MiB), per iteration, until
 * the GPU has written it (a 1x1 copy into a staging texture, mapped, closes each repetition);
 * vs memcpy of the same bytes. Issue 17 aim 3: at most two passes over the bytes. Every byte of
 * the last update is checked afterwards through a full readback. */
static int bench_u1(ID3D11Device *dev, ID3D11DeviceContext *ctx, int iters)
{
    const UINT w = 2048, h = 2048;
    const size_t bytes = (size_t)w * h * 4u;
    ID3D11Texture2D *def = NULL, *stg = NULL, *probe = NULL;
    HRESULT hr = make_rgba8_pair(dev, w, h, D3D11_BIND_SHADER_RESOURCE, &def, &stg);
    if (SUCCEEDED(hr))
        hr = make_rgba8_pair(dev, 1, 1, 0, NULL, &probe);
    uint32_t *img = malloc(bytes);
    if (FAILED(hr) || !img) {
        fprintf(stderr, "U1: texture creation failed 0x%08x\n", (unsigned)hr);
        SAFE_RELEASE(def); SAFE_RELEASE(stg); SAFE_RELEASE(probe);
        free(img);
        return 1;
    }
    for (size_t i = 0; i < (size_t)w * h; i++)
        img[i] = (uint32_t)(i * 2654435761u);
    D3D11_BOX one = {0, 0, 0, 1, 1, 1};
    uint64_t t[REPS];
    int failed = 0;
    struct op_cost cost = {0};
    for (int r = -2; r < REPS && !failed; r++) {
        if (r == 0)
            op_cost_start(&cost);
        uint64_t t0 = wddm_tool_now_ns();
        for (int i = 0; i < iters; i++) {
            img[(size_t)(r + 2) * 7919u % ((size_t)w * h)] ^= (uint32_t)i + 1u; /* every update differs */
            ID3D11DeviceContext_UpdateSubresource(ctx, (ID3D11Resource *)def, 0, NULL, img, w * 4u, 0);
        }
        if (!gpu_sync(ctx, (ID3D11Resource *)def, (ID3D11Resource *)probe, &one)) {
            failed = 1;
            break;
        }
        if (r >= 0)
            t[r] = (wddm_tool_now_ns() - t0) / (uint64_t)iters;
    }
    op_cost_stop(&cost);
    double per = (double)REPS * iters;
    size_t wrong = 0;
    D3D11_MAPPED_SUBRESOURCE m;
    ID3D11DeviceContext_CopyResource(ctx, (ID3D11Resource *)stg, (ID3D11Resource *)def);
    if (!failed && SUCCEEDED(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m))) {
        for (UINT y = 0; y < h; y++)
            wrong += memcmp((const BYTE *)m.pData + (size_t)y * m.RowPitch, img + (size_t)y * w, w * 4u) != 0;
        ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)stg, 0);
    } else {
        failed = 1;
    }
    free(img);
    SAFE_RELEASE(def); SAFE_RELEASE(stg); SAFE_RELEASE(probe);
    if (failed || wrong) {
        fprintf(stderr, "U1: %s\n", failed ? "Map(READ) failed" : "the texture does not hold the last update");
        return 1;
    }
    double u1 = (double)wddm_tool_median(t, REPS), mc = bench_memcpy(bytes, iters);
    wddm_bench_printf("U1 UpdateSubresource 16 MiB:  %10.0f ns/iter   memcpy %9.0f ns   ratio %5.2fx  (%d iterations x %d; "
                      "min-max %.0f-%.0f ns)\n",
                      u1, mc, u1 / mc, iters, REPS, (double)t[0], (double)t[REPS - 1]);
    op_cost_print(&cost, "update", per);
    wddm_bench_result("U1 UpdateSubresource 16 MiB", "ns/iter", u1, (double)t[0], (double)t[REPS - 1], "memcpy", mc);
    return 0;
}

/* W3 with `live` buffers alive around the pairs (issue 17 aim 7: no cliff as objects pile up in
 * the handle tables, VidMm's lists and the runtime's maps). */
static int bench_w3(ID3D11Device *dev, int iters, unsigned live)
{
    D3D11_BUFFER_DESC bd = {.ByteWidth = 4096, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER};
    ID3D11Buffer **keep = live ? calloc(live, sizeof *keep) : NULL;
    int rc = 0;
    for (unsigned i = 0; i < live && !rc; i++)
        if (FAILED(ID3D11Device_CreateBuffer(dev, &bd, NULL, &keep[i]))) {
            fprintf(stderr, "W3: CreateBuffer failed with %u buffers alive\n", i);
            rc = 1;
        }
    uint64_t t[REPS], m[REPS];
    for (int r = -2; r < REPS && !rc; r++) {
        uint64_t t0 = wddm_tool_now_ns();
        for (int i = 0; i < iters; i++) {
            ID3D11Buffer *b = NULL;
            if (FAILED(ID3D11Device_CreateBuffer(dev, &bd, NULL, &b))) {
                fprintf(stderr, "W3: CreateBuffer failed\n");
                rc = 1;
                break;
            }
            ID3D11Buffer_Release(b);
        }
        uint64_t t1 = wddm_tool_now_ns();
        for (int i = 0; i < iters; i++) {
            void *p = malloc(4096);
            sink += (uintptr_t)p;
            free(p);
        }
        uint64_t t2 = wddm_tool_now_ns();
        if (r >= 0) {
            t[r] = (t1 - t0) / (uint64_t)iters;
            m[r] = (t2 - t1) / (uint64_t)iters;
        }
    }
    for (unsigned i = 0; i < live; i++)
        SAFE_RELEASE(keep[i]);
    free(keep);
    if (rc)
        return rc;
    double w3 = (double)wddm_tool_median(t, REPS), mm = (double)wddm_tool_median(m, REPS);
    char name[48] = "W3 create+release 4 KiB";
    if (live)
        snprintf(name, sizeof name, "W3 create+release 4 KiB, %u live", live);
    wddm_bench_printf("%-40s %8.0f ns/pair   malloc+free %5.0f ns   ratio %5.1fx  (%d pairs x %d; min-max %.0f-%.0f ns)\n",
                      name, w3, mm, w3 / mm, iters, REPS, (double)t[0], (double)t[REPS - 1]);
    wddm_bench_result(name, "ns/pair", w3, (double)t[0], (double)t[REPS - 1], "malloc+free", mm);
    return 0;
}

/* The machine's cross-CPU latency, measured before every run: two threads hand one cache line
 * back and forth (median of the round trips). Every W and S figure moves with it: on a VM the
 * host may place the two vCPUs on cores that share a cache or on distant ones, and this changes
 * within minutes (docs/performance.md "Session 12"), so each run says which placement it had.
 * A spinning thread yields after a while, so two threads sharing one vCPU still finish. */
enum { PINGPONG_ROUNDS = 2001 };
static _Atomic unsigned pingpong_turn;

static void *pingpong_ponger(void *arg)
{
    (void)arg;
    for (unsigned i = 1; i < 2 * PINGPONG_ROUNDS; i += 2) {
        for (unsigned spins = 0; atomic_load_explicit(&pingpong_turn, memory_order_acquire) != i;)
            if (++spins % 4096 == 0)
                sched_yield();
        atomic_store_explicit(&pingpong_turn, i + 1, memory_order_release);
    }
    return NULL;
}

static double cacheline_round_trip_ns(void)
{
    static uint64_t t[PINGPONG_ROUNDS];
    atomic_store(&pingpong_turn, 0);
    pthread_t th;
    if (pthread_create(&th, NULL, pingpong_ponger, NULL) != 0)
        return 0;
    for (unsigned r = 0; r < PINGPONG_ROUNDS; r++) {
        uint64_t t0 = wddm_tool_now_ns();
        atomic_store_explicit(&pingpong_turn, 2 * r + 1, memory_order_release);
        for (unsigned spins = 0; atomic_load_explicit(&pingpong_turn, memory_order_acquire) != 2 * r + 2;)
            if (++spins % 4096 == 0)
                sched_yield();
        t[r] = wddm_tool_now_ns() - t0;
    }
    pthread_join(th, NULL);
    return (double)wddm_tool_median(t, PINGPONG_ROUNDS);
}

static void print_machine(bool json, bool progress)
{
    char model[256] = "unknown CPU";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f))
            if (strncmp(line, "model name", 10) == 0) {
                const char *c = strchr(line, ':');
                if (c) {
                    snprintf(model, sizeof model, "%s", c + 2);
                    model[strcspn(model, "\n")] = 0;
                }
                break;
            }
        fclose(f);
    }
    double load = 0;
    f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &load) != 1)
            load = 0;
        fclose(f);
    }
    wddm_bench_begin(json, progress, model, sysconf(_SC_NPROCESSORS_ONLN), load, cacheline_round_trip_ns());
}

static const char bench_usage[] =
    "usage: wddm bench [--json] [--quiet] [quick] [W1 W2 W3 U1 V V1 V2 D S A1 ...]\n"
    "  W1 dynamic upload, W2 1080p readback, U1 UpdateSubresource 16 MiB (as ratios to\n"
    "  memcpy), W3 create+release,\n"
    "  V VidMm paging (V1 and V2), D deferred recording, S scheduling,\n"
    "  A1 the segment range allocator with 10^2 to 10^5 live blocks.\n"
    "  Names pick the groups to run (all without names); quick runs fewer iterations.\n"
    "  --json: one JSON object, every figure with its median, min, max, limit and ratio.\n"
    "  On a terminal the group running is shown on stderr unless --quiet or --json.\n";

static const char *const bench_groups[] = {"W1", "W2", "W3", "U1", "V", "V1", "V2", "D", "S", "A1"};

/* `wddm bench [quick] [W1|W2|W3|U1|V|V1|V2|D|S|A1 ...]`: with names, only those groups run (for
 * profiling one of them); without, all of them. V is V1 and V2. */
static int selected(int argc, char **argv, const char *name)
{
    int named = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "quick") == 0)
            continue;
        named = 1;
        if (strcmp(argv[i], name) == 0)
            return 1;
    }
    return !named;
}

struct bench_opts {
    bool json, quiet;
};

static int bench_option(int opt, const char *arg, void *ctx)
{
    struct bench_opts *o = ctx;
    if (opt == 'J')
        o->json = true;
    else
        o->quiet = true;
    return 0;
}

int wddm_tool_bench(int argc, char **argv)
{
    static const struct option opts[] = {{"json", no_argument, NULL, 'J'}, {"quiet", no_argument, NULL, 'Q'}, {0}};
    struct bench_opts bo = {0};
    int first;
    int rc = wddm_tool_options("bench", bench_usage, argc, argv, opts, bench_option, &bo, &first);
    if (rc)
        return rc;
    /* Every name is checked before the first benchmark runs. */
    int quick = 0;
    for (int i = first; i < argc; i++) {
        int known = strcmp(argv[i], "quick") == 0;
        quick |= known;
        for (size_t g = 0; !known && g < sizeof bench_groups / sizeof bench_groups[0]; g++)
            known = strcmp(argv[i], bench_groups[g]) == 0;
        if (!known)
            return wddm_tool_usage_error("bench", "unknown benchmark group '%.40s'", argv[i]);
    }
    argc -= first - 1; /* selected() looks at argv[1..] */
    argv += first - 1;
    ID3D11Device *dev = NULL;
    ID3D11DeviceContext *ctx = NULL;
    if (FAILED(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev, NULL, &ctx))) {
        fprintf(stderr, "wddm bench: D3D11CreateDevice failed\n");
        return 1;
    }
    print_machine(bo.json, !bo.quiet && isatty(STDERR_FILENO));
    if (selected(argc, argv, "W1")) {
        wddm_bench_progress("W1");
        /* 20 x 500 = 10,000 measured iterations for 64 KiB (issue 2 W1). */
        rc |= bench_w1(dev, ctx, 64u * 1024u, quick ? 20 : 500);
        rc |= bench_w1(dev, ctx, 4u * 1024u * 1024u, quick ? 2 : 25);
        if (!quick) { /* issue 17 aim 3: the fixed cost, and the large end */
            rc |= bench_w1(dev, ctx, 4u * 1024u, 2000);
            rc |= bench_w1(dev, ctx, 16u * 1024u * 1024u, 6);
        }
    }
    if (selected(argc, argv, "W2")) {
        wddm_bench_progress("W2");
        rc |= bench_w2(dev, ctx, quick ? 1 : 5);
    }
    if (selected(argc, argv, "U1")) {
        wddm_bench_progress("U1");
        rc |= bench_u1(dev, ctx, quick ? 1 : 4);
    }
    if (selected(argc, argv, "W3")) {
        wddm_bench_progress("W3");
        rc |= bench_w3(dev, quick ? 100 : 10000, 0);
        /* Issue 17 aim 7: the same pair with 10^3 .. 10^5 buffers alive. */
        for (unsigned live = 1000; live <= (quick ? 1000u : 1000000u); live *= 10)
            rc |= bench_w3(dev, quick ? 100 : 10000, live);
    }
    ID3D11DeviceContext_Release(ctx);
    ID3D11Device_Release(dev);
    /* Issue 3: oversubscription trace vs Belady's MIN, readback out of a large working set. */
    int v = selected(argc, argv, "V"), v1 = v || selected(argc, argv, "V1"), v2 = v || selected(argc, argv, "V2");
    if (v1 || v2) {
        wddm_bench_progress("V");
        rc |= wddm_bench_vidmm(quick, v1, v2);
    }
    /* Issue 5: deferred-context recording throughput on 1 and 2 threads. */
    if (selected(argc, argv, "D")) {
        wddm_bench_progress("D");
        rc |= wddm_bench_deferred(quick);
    }
    /* Issue 4: submission rate (1 and 8 contexts), submit-to-fence latency, CPU wake-up. */
    if (selected(argc, argv, "S")) {
        wddm_bench_progress("S");
        rc |= wddm_bench_sched(quick);
    }
    /* Issue 17 aim 7: the segment range allocator from 10^2 to 10^5 live blocks. */
    if (selected(argc, argv, "A1")) {
        wddm_bench_progress("A1");
        rc |= wddm_bench_segment(quick);
    }
    wddm_bench_progress(NULL);
    wddm_bench_end(rc == 0);
    return rc;
}
