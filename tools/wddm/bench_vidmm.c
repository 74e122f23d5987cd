/* VidMm under oversubscription (issue 3's performance section).
 *
 * V1  A recorded access trace over a working set of 2x and 4x local memory (LOCAL segment group:
 *     local + CPU-visible local, as D3DKMTQueryVideoMemoryInfo reports it) of 4 MiB GPU_ONLY
 *     allocations, replayed on the D3DKMT interface (one small GPU copy out of the allocation
 *     per access, so VidMm must make it resident). Bytes paged = bytes copied out by evictions
 *     + bytes restored, from wddm_get_counters, minus the first-touch zero FILLs (content
 *     creation, not paging). Belady's MIN is computed on the same trace with the same capacity
 *     (free bytes of the group / 4 MiB) and the same cost model (a restore costs its size; an
 *     eviction costs its size only when the content changed since it was last saved: a clean
 *     allocation's backing store is still valid). The trace: frames of 64 accesses drawn from a
 *     hot window of 90% of the capacity that slides by 2 allocations a frame, 10% of accesses
 *     uniformly over the whole working set (a streaming working set with a cold tail).
 *     The replay keeps at most V1_FRAMES_AHEAD frames queued ahead of the GPU, as a maximum frame
 *     latency of 3 allows (a monitored fence signalled after each frame, waited for three frames
 *     later; issue 17 aim 5), V1_BATCH accesses to a DMA buffer: VidMm's victim choice sees that
 *     much of the future, not the whole trace. Plain LRU is simulated beside it.
 * V2  Reading back a 16 MiB DEFAULT texture (2048x2048 RGBA8) chosen at random out of 1 GiB of
 *     DEFAULT textures (64), and in a full run out of 2 GiB (128: more than local memory and the
 *     aperture together, so the restores are real paging), through the D3D11 API: CopyResource DEFAULT -> STAGING, Map(READ),
 *     read every byte, Unmap; vs memcpy of 16 MiB. Twice: sampled textures (BIND_SHADER_RESOURCE)
 *     may live in the aperture (system memory) once video memory is full, so VidMm places them
 *     there instead of evicting and the GPU copies out of system memory; render targets stay in
 *     video memory, so most picks are evicted and the restore is part of the readback. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <d3d11.h>
#include <wddm/d3dkmthk.h>
#include <wddm/wddm.h>

#include "bench_vidmm.h"
#include "kmt_client.h"
#include "drv/swgpu_private.h"
#include "gpu/swgpu_isa.h"
#include "bench_report.h"
#include "tool.h"

#define V1_SIZE (4u << 20)
#define V1_FRAME 64u       /* accesses per frame (make_trace slides its window per frame) */
#define V1_FRAMES_AHEAD 3u
/* Accesses per DMA buffer. A D3D11 UMD puts a frame's draws into a few DMA buffers; one buffer per
 * access would fill the context's queue (GSCHED_CONTEXT_QUEUE_DEPTH, 64 buffers) with a single
 * frame, and the back-pressure would hold the replay to one frame ahead instead of three. */
#define V1_BATCH 8u
_Static_assert(V1_FRAME % V1_BATCH == 0, "a frame is whole DMA buffers");
#define SAFE_RELEASE(p) do { if (p) (p)->lpVtbl->Release(p); } while (0)

static volatile uint64_t v_sink;

static unsigned *make_trace(unsigned n, unsigned capacity, unsigned len)
{
    unsigned *t = malloc((size_t)len * sizeof *t);
    if (!t)
        return NULL;
    unsigned hot = capacity * 9 / 10 ? capacity * 9 / 10 : 1, base = 0;
    uint32_t x = 0xC0FFEEu;
    for (unsigned i = 0; i < len; i++) {
        if (i && i % V1_FRAME == 0)
            base = (base + 2) % n;
        t[i] = wddm_tool_rnd(&x) % 10 == 0 ? wddm_tool_rnd(&x) % n : (base + wddm_tool_rnd(&x) % hot) % n;
    }
    return t;
}

/* Belady's MIN with write-back of dirty blocks only; every access is a read, a block is dirty
 * from its first touch (zero fill) until it is saved once. Returns bytes paged. */
static uint64_t belady_bytes(const unsigned *t, unsigned len, unsigned n, unsigned capacity)
{
    unsigned *next = malloc((size_t)len * sizeof *next), *last = malloc((size_t)n * sizeof *last);
    unsigned char *resident = calloc(n, 1), *seen = calloc(n, 1), *dirty = calloc(n, 1);
    unsigned *slots = malloc((size_t)capacity * sizeof *slots);
    uint64_t bytes = 0;
    if (!next || !last || !resident || !seen || !dirty || !slots)
        goto out;
    for (unsigned b = 0; b < n; b++)
        last[b] = len;
    for (unsigned i = len; i-- > 0;) {
        next[i] = last[t[i]];
        last[t[i]] = i;
    }
    /* nextuse[b] of a resident block: its next access after now. */
    unsigned *nextuse = last; /* reuse: rewritten below as we go */
    unsigned used = 0;
    for (unsigned i = 0; i < len; i++) {
        unsigned b = t[i];
        if (!resident[b]) {
            if (used == capacity) {
                unsigned far = 0;
                for (unsigned k = 1; k < used; k++)
                    if (nextuse[slots[k]] > nextuse[slots[far]])
                        far = k;
                unsigned v = slots[far];
                resident[v] = 0;
                if (dirty[v])
                    bytes += V1_SIZE;
                dirty[v] = 0;
                slots[far] = slots[--used];
            }
            if (seen[b])
                bytes += V1_SIZE; /* restore */
            else
                dirty[b] = 1;     /* first touch: zero content, never saved */
            seen[b] = 1;
            resident[b] = 1;
            slots[used++] = b;
        }
        nextuse[b] = next[i];
    }
out:
    free(next);
    free(last);
    free(resident);
    free(seen);
    free(dirty);
    free(slots);
    return bytes;
}

/* Plain LRU on the same trace and cost model: tells the policy's share of the gap to MIN from
 * the implementation's. */
static uint64_t lru_bytes(const unsigned *t, unsigned len, unsigned n, unsigned capacity)
{
    uint64_t *stamp = calloc(n, sizeof *stamp), bytes = 0;
    unsigned char *resident = calloc(n, 1), *seen = calloc(n, 1), *dirty = calloc(n, 1);
    unsigned used = 0;
    if (!stamp || !resident || !seen || !dirty)
        goto out;
    for (unsigned i = 0; i < len; i++) {
        unsigned b = t[i];
        if (!resident[b]) {
            if (used == capacity) {
                unsigned v = n;
                for (unsigned k = 0; k < n; k++)
                    if (resident[k] && (v == n || stamp[k] < stamp[v]))
                        v = k;
                resident[v] = 0;
                if (dirty[v])
                    bytes += V1_SIZE;
                dirty[v] = 0;
                used--;
            }
            if (seen[b])
                bytes += V1_SIZE;
            else
                dirty[b] = 1;
            seen[b] = 1;
            resident[b] = 1;
            used++;
        }
        stamp[b] = i + 1;
    }
out:
    free(stamp);
    free(resident);
    free(seen);
    free(dirty);
    return bytes;
}

static int bench_v1(int factor, int quick)
{
    struct wddm_kmt k;
    int o = wddm_kmt_open(&k);
    if (o <= 0) {
        if (o == 0)
            fprintf(stderr, "V1: no adapter\n");
        return o == 0; /* -1: the GpuMmu model, skipped with a line */
    }
    D3DKMT_QUERYVIDEOMEMORYINFO q = { .hAdapter = k.adapter, .MemorySegmentGroup = D3DKMT_MEMORY_SEGMENT_GROUP_LOCAL };
    D3DKMTQueryVideoMemoryInfo(&q);
    unsigned capacity = (unsigned)((q.Budget - q.CurrentUsage) / V1_SIZE);
    unsigned n = (unsigned)((UINT64)factor * q.Budget / V1_SIZE);
    unsigned len = quick ? 1500 : 6000;
    unsigned *trace = make_trace(n, capacity, len);
    D3DKMT_HANDLE *a = calloc(n, sizeof *a);
    D3DKMT_HANDLE sink_alloc = wddm_kmt_alloc(&k, SWGPU_ALLOC_READBACK, 4096);
    int ok = trace && a && sink_alloc && capacity > 1;
    for (unsigned i = 0; ok && i < n; i++)
        ok = (a[i] = wddm_kmt_alloc(&k, SWGPU_ALLOC_GPU_ONLY, V1_SIZE)) != 0;
    struct wddm_counters c0, c1;
    wddm_get_counters(&c0);
    uint64_t t0 = wddm_tool_now_ns();
    unsigned touched = 0;
    unsigned char *seen = calloc(n, 1);
    D3DKMT_HANDLE frame_fence = ok ? wddm_kmt_fence_create(k.device) : 0;
    ok = ok && frame_fence;
    for (unsigned i = 0; ok && i < len; i += V1_BATCH) {
        if (i % V1_FRAME == 0 && i / V1_FRAME >= V1_FRAMES_AHEAD) {
            UINT64 done = i / V1_FRAME - V1_FRAMES_AHEAD + 1; /* frames that must have retired */
            ok = wddm_kmt_cpu_wait(k.device, &frame_fence, &done, 1) == STATUS_SUCCESS;
        }
        D3DKMT_HANDLE srcs[V1_BATCH];
        unsigned count = len - i < V1_BATCH ? len - i : V1_BATCH;
        for (unsigned j = 0; j < count; j++) {
            if (!seen[trace[i + j]]) {
                seen[trace[i + j]] = 1;
                touched++;
            }
            srcs[j] = a[trace[i + j]];
        }
        ok = ok && wddm_kmt_copy_many(&k, sink_alloc, srcs, count, 256) == STATUS_SUCCESS;
        if (ok && (i + count) % V1_FRAME == 0)
            ok = wddm_kmt_gpu_signal(k.context, frame_fence, (i + count) / V1_FRAME) == STATUS_SUCCESS;
    }
    D3DKMT_LOCK l = { .hDevice = k.device, .hAllocation = sink_alloc };
    l.Flags.ReadOnly = 1;
    if (ok && D3DKMTLock(&l) == STATUS_SUCCESS) { /* waits for the last copy: the replay is done */
        D3DKMT_UNLOCK u = { .hDevice = k.device, .NumAllocations = 1, .phAllocations = &sink_alloc };
        D3DKMTUnlock(&u);
    }
    uint64_t t1 = wddm_tool_now_ns();
    wddm_get_counters(&c1);
    if (ok) {
        uint64_t fills = (uint64_t)touched * V1_SIZE;
        uint64_t in = c1.bytes_paged_in - c0.bytes_paged_in, out = c1.bytes_paged_out - c0.bytes_paged_out;
        uint64_t paged = in + out - (in >= fills ? fills : in);
        uint64_t opt = belady_bytes(trace, len, n, capacity), lru = lru_bytes(trace, len, n, capacity);
        wddm_bench_printf("V1 trace %dx local (%u x 4 MiB over %u slots, %u accesses, %u frames ahead): "
                          "VidMm %8.1f MiB paged, "
                          "Belady MIN %8.1f MiB, ratio %5.2fx (plain LRU simulated: %.2fx), %llu evictions, %.2f s\n",
                          factor, n, capacity, len, V1_FRAMES_AHEAD, paged / 1048576.0, opt / 1048576.0,
                          opt ? (double)paged / (double)opt : 0.0, opt ? (double)lru / (double)opt : 0.0,
                          (unsigned long long)(c1.evictions - c0.evictions), (double)(t1 - t0) / 1e9);
        char name[40];
        snprintf(name, sizeof name, "V1 %dx local", factor);
        wddm_bench_result(name, "bytes paged", (double)paged, NAN, NAN, "Belady MIN", (double)opt);
        snprintf(name, sizeof name, "V1 %dx local, plain LRU", factor);
        wddm_bench_result(name, "bytes paged", (double)lru, NAN, NAN, "Belady MIN", (double)opt);
    } else {
        fprintf(stderr, "V1: the replay failed\n");
    }
    free(seen);
    free(a);
    free(trace);
    wddm_kmt_close(&k); /* destroys every allocation of the run */
    return ok ? 0 : 1;
}

static int bench_v2(int quick, UINT bind, const char *what, int count)
{
    ID3D11Device *dev = NULL;
    ID3D11DeviceContext *ctx = NULL;
    if (FAILED(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev, NULL,
                                 &ctx))) {
        fprintf(stderr, "V2: D3D11CreateDevice failed\n");
        return 1;
    }
    enum { W = 2048, H = 2048, COUNT_MAX = 128 }; /* 64 x 16 MiB = 1 GiB, 128 = 2 GiB */
    const int COUNT = count;
    D3D11_TEXTURE2D_DESC td = {.Width = W, .Height = H, .MipLevels = 1, .ArraySize = 1,
                               .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = {1, 0},
                               .Usage = D3D11_USAGE_DEFAULT, .BindFlags = bind};
    ID3D11Texture2D *tex[COUNT_MAX] = { 0 }, *stg = NULL;
    uint32_t *img = malloc((size_t)W * H * 4u);
    int ok = img != NULL;
    for (int i = 0; ok && i < COUNT; i++) {
        for (size_t p = 0; p < (size_t)W * H; p += 1024)
            img[p] = (uint32_t)(i * 2654435761u + p);
        D3D11_SUBRESOURCE_DATA init = { .pSysMem = img, .SysMemPitch = W * 4u };
        ok = SUCCEEDED(ID3D11Device_CreateTexture2D(dev, &td, &init, &tex[i]));
    }
    td.Usage = D3D11_USAGE_STAGING;
    td.BindFlags = 0;
    td.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    ok = ok && SUCCEEDED(ID3D11Device_CreateTexture2D(dev, &td, NULL, &stg));
    struct wddm_counters c0, c1;
    int iters = quick ? 8 : 40;
    uint64_t *t = calloc((size_t)iters, sizeof *t);
    uint32_t x = 0xBEEF;
    unsigned bad = 0;
    /* Warm-up: every texture read back once (each is saved to its backing store once, and the
     * segments' pages are touched once), then the steady state is measured. */
    for (int r = -COUNT; ok && r < iters; r++) {
        int i = r < 0 ? r + COUNT : (int)(wddm_tool_rnd(&x) % COUNT);
        uint64_t t0 = wddm_tool_now_ns();
        ID3D11DeviceContext_CopyResource(ctx, (ID3D11Resource *)stg, (ID3D11Resource *)tex[i]);
        D3D11_MAPPED_SUBRESOURCE m;
        if (FAILED(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m))) {
            ok = 0;
            break;
        }
        uint64_t sum = 0;
        for (UINT y = 0; y < H; y++) {
            const uint64_t *row = (const uint64_t *)((const BYTE *)m.pData + (size_t)y * m.RowPitch);
            for (UINT c = 0; c < W / 2u; c++)
                sum += row[c];
        }
        bad += ((const uint32_t *)m.pData)[0] != (uint32_t)(i * 2654435761u);
        v_sink += sum;
        ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)stg, 0);
        if (r >= 0)
            t[r] = wddm_tool_now_ns() - t0;
        if (r == -1)
            wddm_get_counters(&c0);
    }
    wddm_get_counters(&c1);
    if (ok) {
        /* Two memcpy baselines of 16 MiB, medians of as many runs, into one reused buffer (the
         * staging texture's role). The ratio of the aim is against the hot one, which recopies
         * one source that stays partly in the L3 (32 MiB on the reference machine). The cold
         * one picks its source at random out of a 1 GiB pool, as V2 picks a texture out of 1 GiB
         * of textures, so the caches hold none of it: the physical limit of this readback. */
        size_t bytes = (size_t)W * H * 4u;
        BYTE *s = malloc(bytes), *d = malloc(bytes), *pool = malloc(bytes * COUNT);
        uint64_t *cold = calloc((size_t)iters, sizeof *cold), *hot = calloc((size_t)iters, sizeof *hot);
        ok = s && d && pool && cold && hot;
        for (int r = -2; ok && r < iters; r++) {
            BYTE *src = pool + (size_t)(wddm_tool_rnd(&x) % COUNT) * bytes;
            if (r == -2)
                for (int i = 0; i < COUNT; i++)
                    memset(pool + (size_t)i * bytes, i, bytes);
            uint64_t t0 = wddm_tool_now_ns();
            memcpy(d, src, bytes);
            uint64_t t1 = wddm_tool_now_ns();
            if (r == -2) {
                memset(s, 1, bytes);
                memset(d, 2, bytes);
            }
            uint64_t t2 = wddm_tool_now_ns();
            memcpy(d, s, bytes);
            s[r & 1023] ^= d[(r * 7) & 1023];
            if (r >= 0) {
                cold[r] = t1 - t0;
                hot[r] = wddm_tool_now_ns() - t2;
            }
        }
        if (ok) {
            v_sink += d[bytes - 1];
            double v2 = (double)wddm_tool_median(t, iters), mc = (double)wddm_tool_median(cold, iters);
            double mh = (double)wddm_tool_median(hot, iters);
            wddm_bench_printf("V2 16 MiB readback out of %d GiB of %s: %10.0f ns/iter   memcpy %9.0f ns   ratio %5.2fx  "
                              "(memcpy out of %d GiB %.0f ns: %.2fx; %d iterations, %llu evictions, %.0f MiB paged in, "
                              "%.0f MiB out, %u wrong texels)\n",
                              count / 64, what, v2, mh, v2 / mh, count / 64, mc, v2 / mc, iters,
                              (unsigned long long)(c1.evictions - c0.evictions),
                              (double)(c1.bytes_paged_in - c0.bytes_paged_in) / 1048576.0,
                              (double)(c1.bytes_paged_out - c0.bytes_paged_out) / 1048576.0, bad);
            char name[64];
            snprintf(name, sizeof name, "V2 readback out of %d GiB of %s", count / 64, what);
            wddm_bench_result(name, "ns/iter", v2, NAN, NAN, "memcpy", mh);
        } else {
            fprintf(stderr, "V2: no memory for the memcpy baselines\n");
        }
        free(cold);
        free(hot);
        free(pool);
        free(s);
        free(d);
        ok = ok && bad == 0;
    } else {
        fprintf(stderr, "V2: texture creation, Map or the working set failed\n");
    }
    free(t);
    free(img);
    for (int i = 0; i < COUNT; i++)
        SAFE_RELEASE(tex[i]);
    SAFE_RELEASE(stg);
    SAFE_RELEASE(ctx);
    SAFE_RELEASE(dev);
    return ok ? 0 : 1;
}

int wddm_bench_vidmm(int quick, int v1, int v2)
{
    int rc = 0;
    if (v1) {
        rc |= bench_v1(2, quick);
        rc |= bench_v1(4, quick);
    }
    if (v2) {
        rc |= bench_v2(quick, D3D11_BIND_SHADER_RESOURCE, "DEFAULT textures", 64);
        rc |= bench_v2(quick, D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET, "render targets", 64);
        if (!quick) { /* issue 17 aim 4: beyond local memory and the aperture together */
            rc |= bench_v2(quick, D3D11_BIND_SHADER_RESOURCE, "DEFAULT textures", 128);
            rc |= bench_v2(quick, D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET, "render targets", 128);
        }
    }
    return rc;
}
