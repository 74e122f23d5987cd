/* The checks of `wddm check` (check.h): what a UMD and KMD pair must do, seen only through the
 * public doors (D3DKMT, the D3D11 API, the kernel's counters), so they hold for any driver loaded
 * by path as for the reference ones. Data checks compare every byte read back with what was
 * written; nothing is taken on the driver's word. One exception, Backing.Share: no API asks for
 * a backing store shared with the KMD, so it speaks the reference drivers' private data and
 * escape, and is skipped for a KMD that does not. */
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dxgi.h>
#include <wddm/wddm.h>

#include "drv/swgpu_private.h"

#include "check.h"

#define RELEASE(p)                                   \
    do {                                             \
        if (p) {                                     \
            (p)->lpVtbl->Release(p);                 \
            (p) = NULL;                              \
        }                                            \
    } while (0)

static enum check_result fail(char *detail, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static enum check_result fail(char *detail, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, size, fmt, ap);
    va_end(ap);
    return CHECK_FAIL;
}

static NTSTATUS query(D3DKMT_HANDLE adapter, KMTQUERYADAPTERINFOTYPE type, void *out, UINT size)
{
    D3DKMT_QUERYADAPTERINFO q = {.hAdapter = adapter, .Type = type, .pPrivateDriverData = out,
                                 .PrivateDriverDataSize = size};
    return D3DKMTQueryAdapterInfo(&q);
}

static uint8_t pattern(uint32_t seed, size_t i)
{
    uint32_t x = seed * 0x9E3779B1u ^ (uint32_t)i * 0x85EBCA77u;
    return (uint8_t)(x ^ x >> 13 ^ x >> 24);
}

static void fill(uint8_t *p, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = pattern(seed, i);
}

/* The first byte of p[0..n) that differs from the pattern, or n. */
static size_t first_wrong(const uint8_t *p, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != pattern(seed, i))
            return i;
    return n;
}

/* ---- the adapter ------------------------------------------------------------------------ */

static enum check_result adapter_start(struct check_env *e, char *detail, size_t size)
{
    UINT64 before = wddm_verifier_violations(NULL);
    wddm_clear_refusals();
    D3DKMT_ADAPTERINFO ai[4];
    D3DKMT_ENUMADAPTERS2 en = {.NumAdapters = 4, .pAdapters = ai};
    NTSTATUS st = D3DKMTEnumAdapters2(&en);
    if (!NT_SUCCESS(st) || !en.NumAdapters) {
        char why[1100];
        wddm_last_refusals(why, sizeof why);
        return fail(detail, size, "D3DKMTEnumAdapters2 0x%08x: %s", (unsigned)st, why);
    }
    e->adapter = ai[0].hAdapter;
    e->adapters = en.NumAdapters;
    for (ULONG i = 1; i < en.NumAdapters; i++)
        e->others[i - 1] = ai[i].hAdapter;
    if (wddm_verifier_violations(NULL) != before)
        return fail(detail, size, "the adapter started with verifier violations (WDDM_VERIFIER=1 lists them)");
    e->started = true;
    return CHECK_PASS;
}

static enum check_result adapter_queries(struct check_env *e, char *detail, size_t size)
{
    NTSTATUS st = query(e->adapter, KMTQAITYPE_WDDM_DRIVERCAPS, &e->caps, sizeof e->caps);
    if (!NT_SUCCESS(st))
        return fail(detail, size, "DXGK_DRIVERCAPS not answered (0x%08x)", (unsigned)st);
    st = query(e->adapter, KMTQAITYPE_WDDM_SEGMENTS, &e->segments, sizeof e->segments);
    if (!NT_SUCCESS(st) || !e->segments.NbSegment)
        return fail(detail, size, "the segments are not answered (0x%08x, %u segments)", (unsigned)st,
                    e->segments.NbSegment);
    D3DKMT_SEGMENTSIZEINFO sizes;
    st = query(e->adapter, KMTQAITYPE_GETSEGMENTSIZE, &sizes, sizeof sizes);
    if (!NT_SUCCESS(st))
        return fail(detail, size, "KMTQAITYPE_GETSEGMENTSIZE 0x%08x", (unsigned)st);
    /* GETSEGMENTSIZE is the sum of the segments the KMD described: local memory is dedicated
     * video memory, apertures are shared system memory. */
    UINT64 local = 0, aperture = 0;
    for (UINT i = 0; i < e->segments.NbSegment && i < D3DKMT_WDDM_MAX_SEGMENTS; i++)
        *((e->segments.Segment[i].Flags & 0x1u) ? &aperture : &local) += e->segments.Segment[i].Size;
    if (sizes.DedicatedVideoMemorySize != local)
        return fail(detail, size, "DedicatedVideoMemorySize %llu is not the %llu bytes of the memory segments",
                    (unsigned long long)sizes.DedicatedVideoMemorySize, (unsigned long long)local);
    return CHECK_PASS;
}

/* ---- through the UMD ---------------------------------------------------------------------- */

/* A device on the checks' adapter, the first one (D3D11CreateDevice(NULL) opens it). */
static HRESULT open_device(ID3D11Device **dev, ID3D11DeviceContext **ctx)
{
    return D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, dev, NULL, ctx);
}

bool wddm_check_device_usable(struct check_env *e)
{
    if (!e->dev || ID3D11Device_GetDeviceRemovedReason(e->dev) == S_OK)
        return e->dev != NULL;
    RELEASE(e->ctx);
    RELEASE(e->dev);
    return SUCCEEDED(open_device(&e->dev, &e->ctx));
}

static enum check_result umd_open(struct check_env *e, char *detail, size_t size)
{
    wddm_clear_refusals();
    HRESULT hr = open_device(&e->dev, &e->ctx);
    if (FAILED(hr)) {
        char why[1100];
        wddm_last_refusals(why, sizeof why);
        return fail(detail, size, "D3D11CreateDevice 0x%08x: %s", (unsigned)hr, why);
    }
    return CHECK_PASS;
}

static HRESULT buffer(ID3D11Device *dev, UINT bytes, D3D11_USAGE usage, UINT cpu, const void *init,
                      ID3D11Buffer **out)
{
    D3D11_BUFFER_DESC d = {.ByteWidth = bytes, .Usage = usage, .CPUAccessFlags = cpu,
                           .BindFlags = usage == D3D11_USAGE_STAGING ? 0u : (UINT)D3D11_BIND_SHADER_RESOURCE};
    D3D11_SUBRESOURCE_DATA data = {.pSysMem = init};
    return ID3D11Device_CreateBuffer(dev, &d, init ? &data : NULL, out);
}

/* GPU copy of src into a new staging buffer, read back and compared with the pattern. */
static enum check_result read_back(struct check_env *e, ID3D11Buffer *src, UINT bytes, uint32_t seed,
                                   const char *what, char *detail, size_t size)
{
    ID3D11Buffer *rb = NULL;
    HRESULT hr = buffer(e->dev, bytes, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ, NULL, &rb);
    if (FAILED(hr))
        return fail(detail, size, "%s: staging buffer of %u bytes: 0x%08x", what, bytes, (unsigned)hr);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)rb, (ID3D11Resource *)src);
    D3D11_MAPPED_SUBRESOURCE m;
    hr = ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)rb, 0, D3D11_MAP_READ, 0, &m);
    enum check_result r = CHECK_PASS;
    if (FAILED(hr)) {
        r = fail(detail, size, "%s: Map(READ) 0x%08x", what, (unsigned)hr);
    } else {
        size_t at = first_wrong(m.pData, bytes, seed);
        if (at != bytes)
            r = fail(detail, size, "%s: byte %zu of %u read back 0x%02x, written 0x%02x", what, at, bytes,
                     ((const uint8_t *)m.pData)[at], pattern(seed, at));
        ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)rb, 0);
    }
    RELEASE(rb);
    return r;
}

/* Upload, GPU copy, readback (seed 001 §9). */
static enum check_result copy_readback(struct check_env *e, char *detail, size_t size)
{
    enum { BYTES = 1u << 20 };
    uint8_t *data = malloc(BYTES);
    if (!data)
        return fail(detail, size, "out of memory");
    fill(data, BYTES, 1);
    ID3D11Buffer *src = NULL;
    HRESULT hr = buffer(e->dev, BYTES, D3D11_USAGE_DEFAULT, 0, data, &src);
    free(data);
    if (FAILED(hr))
        return fail(detail, size, "a DEFAULT buffer with initial data: 0x%08x", (unsigned)hr);
    enum check_result r = read_back(e, src, BYTES, 1, "DEFAULT -> STAGING", detail, size);
    RELEASE(src);
    return r;
}

/* Map(WRITE_DISCARD) while the GPU still reads the last contents: each discard must give the
 * CPU memory the GPU no longer needs (a rename, or a wait), so every copy sees what was written
 * just before it (seed 001: Discard renaming). */
static enum check_result map_discard(struct check_env *e, char *detail, size_t size)
{
    enum { CHUNK = 16u << 10, COUNT = 64 };
    ID3D11Buffer *dyn = NULL, *dst = NULL;
    HRESULT hr = buffer(e->dev, CHUNK, D3D11_USAGE_DYNAMIC, D3D11_CPU_ACCESS_WRITE, NULL, &dyn);
    if (SUCCEEDED(hr))
        hr = buffer(e->dev, CHUNK * COUNT, D3D11_USAGE_DEFAULT, 0, NULL, &dst);
    if (FAILED(hr)) {
        RELEASE(dyn);
        return fail(detail, size, "DYNAMIC / DEFAULT buffers: 0x%08x", (unsigned)hr);
    }
    enum check_result r = CHECK_PASS;
    for (UINT i = 0; i < COUNT && r == CHECK_PASS; i++) {
        D3D11_MAPPED_SUBRESOURCE m;
        hr = ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)dyn, 0, D3D11_MAP_WRITE_DISCARD, 0, &m);
        if (FAILED(hr)) {
            r = fail(detail, size, "Map(WRITE_DISCARD) %u: 0x%08x", i, (unsigned)hr);
            break;
        }
        /* Chunk i of the destination holds pattern 100+i at offset i*CHUNK of a whole-buffer
         * pattern, so one comparison checks every chunk. */
        uint8_t *p = m.pData;
        for (UINT k = 0; k < CHUNK; k++)
            p[k] = pattern(7, (size_t)i * CHUNK + k);
        ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)dyn, 0);
        D3D11_BOX box = {0, 0, 0, CHUNK, 1, 1};
        ID3D11DeviceContext_CopySubresourceRegion(e->ctx, (ID3D11Resource *)dst, 0, i * CHUNK, 0, 0,
                                                  (ID3D11Resource *)dyn, 0, &box);
    }
    if (r == CHECK_PASS)
        r = read_back(e, dst, CHUNK * COUNT, 7, "64 discards copied out", detail, size);
    RELEASE(dyn);
    RELEASE(dst);
    return r;
}

/* Fences retire in submission order: once the last EVENT query of a series is done, every one
 * before it is done too (DXGKARGCB_NOTIFY_INTERRUPT_DATA: the fence IDs a node completes only
 * grow). */
static enum check_result fence_order(struct check_env *e, char *detail, size_t size)
{
    enum { COUNT = 32, BYTES = 256u << 10 };
    ID3D11Query *q[COUNT] = {0};
    ID3D11Buffer *a = NULL, *b = NULL;
    HRESULT hr = buffer(e->dev, BYTES, D3D11_USAGE_DEFAULT, 0, NULL, &a);
    if (SUCCEEDED(hr))
        hr = buffer(e->dev, BYTES, D3D11_USAGE_DEFAULT, 0, NULL, &b);
    D3D11_QUERY_DESC qd = {.Query = D3D11_QUERY_EVENT};
    for (UINT i = 0; i < COUNT && SUCCEEDED(hr); i++)
        hr = ID3D11Device_CreateQuery(e->dev, &qd, &q[i]);
    enum check_result r = CHECK_PASS;
    if (FAILED(hr))
        r = fail(detail, size, "buffers or EVENT queries: 0x%08x", (unsigned)hr);
    for (UINT i = 0; i < COUNT && r == CHECK_PASS; i++) {
        ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)(i & 1 ? a : b), (ID3D11Resource *)(i & 1 ? b : a));
        ID3D11DeviceContext_End(e->ctx, (ID3D11Asynchronous *)q[i]);
        ID3D11DeviceContext_Flush(e->ctx);
    }
    if (r == CHECK_PASS) {
        BOOL done = FALSE;
        for (UINT spin = 0; spin < 20000000u; spin++) {
            hr = ID3D11DeviceContext_GetData(e->ctx, (ID3D11Asynchronous *)q[COUNT - 1], &done, sizeof done, 0);
            if (hr == S_OK)
                break;
        }
        if (hr != S_OK)
            r = fail(detail, size, "the last EVENT query never completed (0x%08x)", (unsigned)hr);
        for (UINT i = 0; i + 1 < COUNT && r == CHECK_PASS; i++) {
            hr = ID3D11DeviceContext_GetData(e->ctx, (ID3D11Asynchronous *)q[i], &done, sizeof done,
                                             D3D11_ASYNC_GETDATA_DONOTFLUSH);
            if (hr != S_OK || !done)
                r = fail(detail, size, "query %u of %u is not done after the last one is (0x%08x)", i, COUNT,
                         (unsigned)hr);
        }
    }
    for (UINT i = 0; i < COUNT; i++)
        RELEASE(q[i]);
    RELEASE(a);
    RELEASE(b);
    return r;
}

/* More than the local memory the KMD described, each buffer filled with its own pattern and
 * then used by the GPU, so VidMm must evict and page back in through the KMD's
 * DxgkDdiBuildPagingBuffer transfers; every byte read back must be the byte written. */
/* The bytes of the adapter's memory segments (local video memory; apertures are system memory). */
static UINT64 local_memory(const struct check_env *e)
{
    UINT64 local = 0;
    for (UINT i = 0; i < e->segments.NbSegment && i < D3DKMT_WDDM_MAX_SEGMENTS; i++)
        if (!(e->segments.Segment[i].Flags & 0x1u))
            local += e->segments.Segment[i].Size;
    return local;
}

static enum check_result paging_oversubscribe(struct check_env *e, char *detail, size_t size)
{
    UINT64 local = local_memory(e);
    if (!local || e->caps.MemoryManagementCaps.IoMmuSupported) {
        /* In the IoMmu model the GPU reaches system memory only: its memory segments hold nothing. */
        snprintf(detail, size, "the adapter %s (system memory only): nothing to evict",
                 local ? "runs the IoMmu model" : "has no memory segment");
        return CHECK_SKIP;
    }
    if (local > (1ull << 30)) {
        snprintf(detail, size, "%llu MiB of local memory is too much to oversubscribe in a check; give the KMD "
                               "smaller segments to run it", (unsigned long long)(local >> 20));
        return CHECK_SKIP;
    }
    enum { BYTES = 4u << 20 };
    UINT count = (UINT)((local * 3 / 2 + BYTES - 1) / BYTES);
    ID3D11Buffer **bufs = calloc(count, sizeof *bufs);
    uint8_t *data = malloc(BYTES);
    struct wddm_counters c0, c1;
    wddm_get_counters(&c0);
    enum check_result r = bufs && data ? CHECK_PASS : fail(detail, size, "out of memory");
    for (UINT i = 0; i < count && r == CHECK_PASS; i++) {
        fill(data, BYTES, 1000 + i);
        HRESULT hr = buffer(e->dev, BYTES, D3D11_USAGE_DEFAULT, 0, data, &bufs[i]);
        if (FAILED(hr))
            r = fail(detail, size, "buffer %u of %u (%u MiB each): 0x%08x", i, count, BYTES >> 20, (unsigned)hr);
    }
    for (UINT i = 0; i < count && r == CHECK_PASS; i++) {
        char what[64];
        snprintf(what, sizeof what, "buffer %u of %u", i, count);
        r = read_back(e, bufs[i], BYTES, 1000 + i, what, detail, size);
    }
    wddm_get_counters(&c1);
    if (r == CHECK_PASS && c1.evictions == c0.evictions)
        r = fail(detail, size, "%u MiB through %llu MiB of local memory caused no eviction", count * (BYTES >> 20),
                 (unsigned long long)(local >> 20));
    for (UINT i = 0; bufs && i < count; i++)
        RELEASE(bufs[i]);
    free(bufs);
    free(data);
    return r;
}

/* Buffers with initial data, copied and read back: VidMm pages them into their segments (and,
 * in the GpuMmu model, writes their page tables) through the KMD's paging buffers. */
static enum check_result upload_copy_read(struct check_env *e, UINT count, UINT bytes, uint32_t seed, char *detail,
                                          size_t size)
{
    uint8_t *data = malloc(bytes);
    if (!data)
        return fail(detail, size, "out of memory");
    enum check_result r = CHECK_PASS;
    for (UINT i = 0; i < count && r == CHECK_PASS; i++) {
        ID3D11Buffer *src = NULL, *dst = NULL;
        fill(data, bytes, seed + i);
        HRESULT hr = buffer(e->dev, bytes, D3D11_USAGE_DEFAULT, 0, data, &src);
        if (SUCCEEDED(hr))
            hr = buffer(e->dev, bytes, D3D11_USAGE_DEFAULT, 0, NULL, &dst);
        if (FAILED(hr)) {
            r = fail(detail, size, "buffer %u of %u: 0x%08x", i, count, (unsigned)hr);
        } else {
            ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)dst, (ID3D11Resource *)src);
            char what[48];
            snprintf(what, sizeof what, "buffer %u of %u", i, count);
            r = read_back(e, dst, bytes, seed + i, what, detail, size);
        }
        RELEASE(dst);
        RELEASE(src);
    }
    free(data);
    return r;
}

/* Every paging operation offered 16 bytes of room at first (wddm_vidmm_set_paging_room): the
 * KMD must stop at DmaSize, answer STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER and go on at its
 * MultipassOffset in the next buffer, keeping every byte (DXGKARG_BUILDPAGINGBUFFER reference). */
static enum check_result paging_multipass(struct check_env *e, char *detail, size_t size)
{
    enum { ROOM = 16, COUNT = 8, BYTES = 256u << 10 };
    UINT64 v0 = wddm_verifier_violations("Paging.DmaSize");
    struct wddm_counters c0, c1;
    wddm_get_counters(&c0);
    wddm_vidmm_set_paging_room(ROOM);
    enum check_result r = upload_copy_read(e, COUNT, BYTES, 2000, detail, size);
    wddm_vidmm_set_paging_room(0);
    wddm_get_counters(&c1);
    if (wddm_verifier_violations("Paging.DmaSize") != v0)
        return fail(detail, size, "DxgkDdiBuildPagingBuffer wrote past DmaSize (Paging.DmaSize; WDDM_VERIFIER=1 "
                                  "names the operation)");
    if (r != CHECK_PASS)
        return r;
    if (c1.paging_buffers_submitted == c0.paging_buffers_submitted) {
        snprintf(detail, size, "no paging buffer was built for %u new buffers: nothing to split", COUNT);
        return CHECK_SKIP;
    }
    if (c1.paging_multipass == c0.paging_multipass)
        return fail(detail, size, "%llu paging buffers with %u bytes of room each and never "
                                  "STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER: the KMD does not stop at DmaSize",
                    (unsigned long long)(c1.paging_buffers_submitted - c0.paging_buffers_submitted), ROOM);
    return CHECK_PASS;
}

/* A KMD that claims the GpuMmu model (DXGK_VIDMMCAPS.GpuMmuSupported) is given page-table updates
 * (DXGK_OPERATION_UPDATE_PAGE_TABLE) for the allocations' GPU virtual addresses, and the copies
 * through those addresses read back right. */
static enum check_result gpummu_page_tables(struct check_env *e, char *detail, size_t size)
{
    if (!e->caps.MemoryManagementCaps.GpuMmuSupported) {
        snprintf(detail, size, "the KMD does not claim DXGK_VIDMMCAPS.GpuMmuSupported");
        return CHECK_SKIP;
    }
    struct wddm_counters c0, c1;
    wddm_get_counters(&c0);
    enum check_result r = upload_copy_read(e, 4, 1u << 20, 3000, detail, size);
    wddm_get_counters(&c1);
    if (r == CHECK_PASS && c1.page_table_updates == c0.page_table_updates)
        r = fail(detail, size, "the copies through GPU virtual addresses needed no page-table update: the "
                               "allocations were not mapped through the KMD's page tables");
    return r;
}

static enum check_result iommu_translations(struct check_env *e, char *detail, size_t size)
{
    if (!e->caps.MemoryManagementCaps.IoMmuSupported) {
        snprintf(detail, size, "the KMD does not claim DXGK_VIDMMCAPS.IoMmuSupported");
        return CHECK_SKIP;
    }
    struct wddm_counters c0, c1;
    wddm_get_counters(&c0);
    enum check_result r = upload_copy_read(e, 4, 1u << 20, 3000, detail, size);
    wddm_get_counters(&c1);
    if (r == CHECK_PASS && c1.iommu_pages_mapped == c0.iommu_pages_mapped)
        r = fail(detail, size, "the copies read back but VidMm mapped no page in the IOMMU: nothing was made resident");
    else if (r == CHECK_PASS && c1.iommu_translations == c0.iommu_translations)
        r = fail(detail, size, "the copies read back but the device asked the IOMMU for no translation: its GPU "
                               "did not address memory by the process's PASID (DXGKARG_CREATEDEVICE.Pasid, "
                               "WddmIoMmuTranslate)");
    return r;
}

/* ---- textures, sharing, threads ------------------------------------------------------------ */

enum { TEX_W = 301, TEX_H = 67 }; /* odd sizes: the KMD's pitch, not the width, lays out rows */

static HRESULT texture(ID3D11Device *dev, D3D11_USAGE usage, UINT misc, uint32_t seed, ID3D11Texture2D **out)
{
    D3D11_TEXTURE2D_DESC td = {.Width = TEX_W, .Height = TEX_H, .MipLevels = 1, .ArraySize = 1,
                               .Format = DXGI_FORMAT_B8G8R8A8_UNORM, .SampleDesc = {.Count = 1}, .Usage = usage,
                               .MiscFlags = misc};
    if (usage == D3D11_USAGE_STAGING)
        td.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    else
        td.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    uint8_t *data = seed ? malloc((size_t)TEX_W * TEX_H * 4) : NULL;
    if (data)
        fill(data, (size_t)TEX_W * TEX_H * 4, seed);
    D3D11_SUBRESOURCE_DATA init = {.pSysMem = data, .SysMemPitch = TEX_W * 4};
    HRESULT hr = seed && !data ? E_OUTOFMEMORY : ID3D11Device_CreateTexture2D(dev, &td, data ? &init : NULL, out);
    free(data);
    return hr;
}

/* `src` copied to a STAGING texture on (dev, ctx) and every row compared with the pattern. */
static enum check_result texture_read_back(ID3D11Device *dev, ID3D11DeviceContext *ctx, ID3D11Texture2D *src,
                                           uint32_t seed, const char *what, char *detail, size_t size)
{
    ID3D11Texture2D *stg = NULL;
    HRESULT hr = texture(dev, D3D11_USAGE_STAGING, 0, 0, &stg);
    if (FAILED(hr))
        return fail(detail, size, "%s: STAGING texture: 0x%08x", what, (unsigned)hr);
    ID3D11DeviceContext_CopyResource(ctx, (ID3D11Resource *)stg, (ID3D11Resource *)src);
    D3D11_MAPPED_SUBRESOURCE m;
    hr = ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m);
    enum check_result r = CHECK_PASS;
    if (FAILED(hr)) {
        r = fail(detail, size, "%s: Map(READ) 0x%08x", what, (unsigned)hr);
    } else {
        if (m.RowPitch < TEX_W * 4)
            r = fail(detail, size, "%s: RowPitch %u is less than a row's %u bytes", what, m.RowPitch, TEX_W * 4);
        for (UINT y = 0; y < TEX_H && r == CHECK_PASS; y++) {
            const uint8_t *row = (const uint8_t *)m.pData + (size_t)y * m.RowPitch;
            for (UINT x = 0; x < TEX_W * 4; x++)
                if (row[x] != pattern(seed, (size_t)y * TEX_W * 4 + x)) {
                    r = fail(detail, size, "%s: row %u byte %u read back 0x%02x, written 0x%02x (RowPitch %u)", what,
                             y, x, row[x], pattern(seed, (size_t)y * TEX_W * 4 + x), m.RowPitch);
                    break;
                }
        }
        ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)stg, 0);
    }
    RELEASE(stg);
    return r;
}

/* A texture's rows, laid out by the KMD's pitch, survive upload, GPU copy and readback. */
static enum check_result texture_readback(struct check_env *e, char *detail, size_t size)
{
    ID3D11Texture2D *t = NULL;
    HRESULT hr = texture(e->dev, D3D11_USAGE_DEFAULT, 0, 21, &t);
    if (FAILED(hr))
        return fail(detail, size, "a %ux%u DEFAULT texture with initial data: 0x%08x", TEX_W, TEX_H, (unsigned)hr);
    enum check_result r = texture_read_back(e->dev, e->ctx, t, 21, "texture", detail, size);
    RELEASE(t);
    return r;
}

/* A shared resource (D3D11_RESOURCE_MISC_SHARED) opened by another device: the KMD's
 * DxgkDdiOpenAllocation describes the creator's allocation to the opener, and each device reads
 * what the other's GPU wrote. */
static enum check_result share_open(struct check_env *e, char *detail, size_t size)
{
    ID3D11Device *dev2 = NULL;
    ID3D11DeviceContext *ctx2 = NULL;
    ID3D11Texture2D *made = NULL, *opened = NULL, *src = NULL;
    IDXGIResource *dr = NULL;
    HANDLE h = NULL;
    enum check_result r = CHECK_PASS;
    HRESULT hr = open_device(&dev2, &ctx2);
    if (FAILED(hr))
        r = fail(detail, size, "a second D3D11 device: 0x%08x", (unsigned)hr);
    if (r == CHECK_PASS && FAILED(hr = texture(e->dev, D3D11_USAGE_DEFAULT, D3D11_RESOURCE_MISC_SHARED, 31, &made)))
        r = fail(detail, size, "a MISC_SHARED texture: 0x%08x", (unsigned)hr);
    if (r == CHECK_PASS)
        r = texture_read_back(e->dev, e->ctx, made, 31, "the creator", detail, size);
    if (r == CHECK_PASS &&
        (FAILED(hr = ID3D11Texture2D_QueryInterface(made, &IID_IDXGIResource, (void **)&dr)) ||
         FAILED(hr = IDXGIResource_GetSharedHandle(dr, &h))))
        r = fail(detail, size, "IDXGIResource::GetSharedHandle: 0x%08x", (unsigned)hr);
    if (r == CHECK_PASS &&
        FAILED(hr = ID3D11Device_OpenSharedResource(dev2, h, &IID_ID3D11Texture2D, (void **)&opened)))
        r = fail(detail, size, "OpenSharedResource on a second device: 0x%08x", (unsigned)hr);
    if (r == CHECK_PASS)
        r = texture_read_back(dev2, ctx2, opened, 31, "the opener", detail, size);
    /* The opener's GPU writes; the creator reads. */
    if (r == CHECK_PASS && FAILED(hr = texture(dev2, D3D11_USAGE_DEFAULT, 0, 32, &src)))
        r = fail(detail, size, "a texture on the second device: 0x%08x", (unsigned)hr);
    if (r == CHECK_PASS) {
        ID3D11DeviceContext_CopyResource(ctx2, (ID3D11Resource *)opened, (ID3D11Resource *)src);
        ID3D11DeviceContext_Flush(ctx2);
        r = texture_read_back(dev2, ctx2, opened, 32, "the opener after its copy", detail, size);
    }
    if (r == CHECK_PASS)
        r = texture_read_back(e->dev, e->ctx, made, 32, "the creator after the opener's copy", detail, size);
    RELEASE(src);
    RELEASE(opened);
    RELEASE(dr);
    RELEASE(made);
    RELEASE(ctx2);
    RELEASE(dev2);
    return r;
}

/* Two devices, each on its own thread, uploading, copying and reading back at once: the
 * scheduler interleaves their contexts and the KMD completes both streams of fences. */
struct worker {
    pthread_t thread;
    uint32_t seed;
    enum check_result r;
    char detail[512];
};

static void *worker_run(void *arg)
{
    struct worker *w = arg;
    ID3D11Device *dev = NULL;
    ID3D11DeviceContext *ctx = NULL;
    HRESULT hr = open_device(&dev, &ctx);
    w->r = FAILED(hr) ? fail(w->detail, sizeof w->detail, "D3D11CreateDevice: 0x%08x", (unsigned)hr) : CHECK_PASS;
    for (UINT i = 0; i < 40 && w->r == CHECK_PASS; i++) {
        enum { BYTES = 96u << 10 };
        uint8_t *data = malloc(BYTES);
        ID3D11Buffer *b = NULL;
        if (!data) {
            w->r = fail(w->detail, sizeof w->detail, "out of memory");
            break;
        }
        fill(data, BYTES, w->seed + i);
        hr = buffer(dev, BYTES, D3D11_USAGE_DEFAULT, 0, data, &b);
        free(data);
        if (FAILED(hr)) {
            w->r = fail(w->detail, sizeof w->detail, "buffer %u: 0x%08x", i, (unsigned)hr);
            break;
        }
        struct check_env env = {.dev = dev, .ctx = ctx};
        char what[48];
        snprintf(what, sizeof what, "thread %u, round %u", w->seed, i);
        w->r = read_back(&env, b, BYTES, w->seed + i, what, w->detail, sizeof w->detail);
        RELEASE(b);
    }
    RELEASE(ctx);
    RELEASE(dev);
    return NULL;
}

static enum check_result threads_two_devices(struct check_env *e, char *detail, size_t size)
{
    (void)e;
    struct worker w[2] = {{.seed = 5000}, {.seed = 6000}};
    int started = 0;
    for (int i = 0; i < 2; i++)
        if (pthread_create(&w[i].thread, NULL, worker_run, &w[i]) == 0)
            started++;
    for (int i = 0; i < started; i++)
        pthread_join(w[i].thread, NULL);
    if (started < 2)
        return fail(detail, size, "could not start two threads");
    for (int i = 0; i < 2; i++)
        if (w[i].r != CHECK_PASS)
            return fail(detail, size, "%s", w[i].detail);
    return CHECK_PASS;
}

/* When the caps claim preemption (DXGK_VIDSCHCAPS.PreemptionAware), a higher-priority device's
 * work preempts a lower one's queued on the engine: the kernel calls DxgkDdiPreemptCommand, the
 * KMD answers, the preempted buffers run again, and every byte of both devices' work is right. */
/* A second device at GPU thread priority 7 with a small buffer already uploaded: its copies
 * preempt the checks' device (priority 0) when they arrive while that device's work is queued. */
struct high_device {
    ID3D11Device *dev;
    ID3D11DeviceContext *ctx;
    IDXGIDevice *dxgi;
    ID3D11Buffer *buf, *staging; /* staging made beforehand: the copy arrives without an allocation */
};
enum { HIGH_BYTES = 64u << 10, HIGH_SEED = 901 };

static void high_close(struct high_device *h)
{
    RELEASE(h->staging);
    RELEASE(h->buf);
    RELEASE(h->dxgi);
    RELEASE(h->ctx);
    RELEASE(h->dev);
}

static enum check_result high_copy(struct high_device *h, const char *what, char *detail, size_t size);

static enum check_result high_open(struct high_device *h, char *detail, size_t size)
{
    memset(h, 0, sizeof *h);
    HRESULT hr;
    if (FAILED(hr = open_device(&h->dev, &h->ctx)) ||
        FAILED(hr = ID3D11Device_QueryInterface(h->dev, &IID_IDXGIDevice, (void **)&h->dxgi)) ||
        FAILED(hr = IDXGIDevice_SetGPUThreadPriority(h->dxgi, 7)))
        return fail(detail, size, "a second device at GPU thread priority 7: 0x%08x", (unsigned)hr);
    uint8_t *data = malloc(HIGH_BYTES);
    if (!data)
        return fail(detail, size, "out of memory");
    fill(data, HIGH_BYTES, HIGH_SEED);
    hr = buffer(h->dev, HIGH_BYTES, D3D11_USAGE_DEFAULT, 0, data, &h->buf);
    free(data);
    if (SUCCEEDED(hr))
        hr = buffer(h->dev, HIGH_BYTES, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ, NULL, &h->staging);
    if (FAILED(hr))
        return fail(detail, size, "the high-priority buffers: 0x%08x", (unsigned)hr);
    return high_copy(h, "high priority, first", detail, size); /* the upload done before any race */
}

/* The high-priority device's copy, read back: it arrives while the other device's work runs. */
static enum check_result high_copy(struct high_device *h, const char *what, char *detail, size_t size)
{
    ID3D11DeviceContext_CopyResource(h->ctx, (ID3D11Resource *)h->staging, (ID3D11Resource *)h->buf);
    D3D11_MAPPED_SUBRESOURCE m;
    HRESULT hr = ID3D11DeviceContext_Map(h->ctx, (ID3D11Resource *)h->staging, 0, D3D11_MAP_READ, 0, &m);
    if (FAILED(hr))
        return fail(detail, size, "%s: Map(READ) 0x%08x", what, (unsigned)hr);
    size_t at = first_wrong(m.pData, HIGH_BYTES, HIGH_SEED);
    ID3D11DeviceContext_Unmap(h->ctx, (ID3D11Resource *)h->staging, 0);
    return at == HIGH_BYTES ? CHECK_PASS : fail(detail, size, "%s: byte %zu read back wrong", what, at);
}

static enum check_result sched_preemption(struct check_env *e, char *detail, size_t size)
{
    if (!e->caps.SchedulingCaps.PreemptionAware) {
        snprintf(detail, size, "the KMD does not claim DXGK_VIDSCHCAPS.PreemptionAware");
        return CHECK_SKIP;
    }
    enum { BYTES = 4u << 20, COPIES = 64, ROUNDS = 5 };
    struct high_device hi;
    ID3D11Buffer *src = NULL, *a = NULL, *b = NULL;
    uint8_t *data = malloc(BYTES);
    enum check_result r = data ? high_open(&hi, detail, size) : fail(detail, size, "out of memory");
    HRESULT hr = S_OK;
    if (r == CHECK_PASS) {
        fill(data, BYTES, 900);
        if (FAILED(hr = buffer(e->dev, BYTES, D3D11_USAGE_DEFAULT, 0, data, &src)) ||
            FAILED(hr = buffer(e->dev, BYTES, D3D11_USAGE_DEFAULT, 0, NULL, &a)) ||
            FAILED(hr = buffer(e->dev, BYTES, D3D11_USAGE_DEFAULT, 0, NULL, &b)))
            r = fail(detail, size, "three %u MiB buffers: 0x%08x", BYTES >> 20, (unsigned)hr);
    }
    struct wddm_counters c0, c1;
    wddm_get_counters(&c0);
    c1 = c0;
    /* Up to ROUNDS tries: how long the queued copies take is the machine's, so one round can end
     * before the high-priority copy arrives; a KMD that never preempts fails every round. */
    for (UINT round = 0; round < ROUNDS && r == CHECK_PASS && c1.preemptions == c0.preemptions; round++) {
        /* The low-priority device fills the engine's queue ... */
        ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)a, (ID3D11Resource *)src);
        for (UINT i = 0; i < COPIES; i++) {
            ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)(i & 1 ? a : b),
                                             (ID3D11Resource *)(i & 1 ? b : a));
            ID3D11DeviceContext_Flush(e->ctx);
        }
        /* ... and the high-priority one's copy arrives while that work is queued. */
        r = high_copy(&hi, "high priority", detail, size);
        if (r == CHECK_PASS) /* COPIES is even: the last copy wrote a */
            r = read_back(e, a, BYTES, 900, "low priority, after its preemption", detail, size);
        wddm_get_counters(&c1);
    }
    if (r == CHECK_PASS && c1.preemptions == c0.preemptions)
        r = fail(detail, size, "no preemption: in %u rounds the high-priority copy never preempted the %u queued "
                               "copies of %u MiB (DxgkDdiPreemptCommand not called or not answered)", ROUNDS, COPIES,
                 BYTES >> 20);
    RELEASE(src);
    RELEASE(a);
    RELEASE(b);
    high_close(&hi);
    free(data);
    return r;
}

/* The granularity the caps claim is kept: finer than whole DMA buffers
 * (D3DKMDT_GRAPHICS_PREEMPTION_PRIMITIVE_BOUNDARY or finer), a preemption stops the DMA buffer
 * the engine runs before its end, and when it is submitted again it goes on where it stopped. The
 * work shifts STEPS chunks by one through a scratch buffer, right then left, PASSES times, and
 * the check moves each chunk's seed alike: a restart from a buffer's top, or a skipped command,
 * leaves a wrong chunk. */
static enum check_result sched_mid_buffer(struct check_env *e, char *detail, size_t size)
{
    if (!e->caps.SchedulingCaps.PreemptionAware ||
        e->caps.PreemptionCaps.GraphicsPreemptionGranularity < D3DKMDT_GRAPHICS_PREEMPTION_PRIMITIVE_BOUNDARY) {
        snprintf(detail, size, "the caps claim no preemption finer than whole DMA buffers (granularity %d)",
                 (int)e->caps.PreemptionCaps.GraphicsPreemptionGranularity);
        return CHECK_SKIP;
    }
    enum { STEPS = 8, PASSES = 16, ROUNDS = 5 };
    /* Chunks of up to 4 MiB, the buffer a quarter of the local memory at most: the UMD keeps only
     * a few DMA buffers in flight, so each must run long enough for the high-priority copy to
     * arrive during one. */
    UINT64 local = local_memory(e);
    UINT64 fit = local ? local / 4 / (STEPS + 1) : 4u << 20;
    const UINT CHUNK = fit >= (4u << 20) ? 4u << 20 : fit > (64u << 10) ? (UINT)(fit & ~4095ull) : 64u << 10;
    const UINT BYTES = CHUNK * (STEPS + 1);
    struct high_device hi;
    ID3D11Buffer *x = NULL, *tmp = NULL, *rb = NULL;
    ID3D11Query *settled = NULL, *finished = NULL;
    D3D11_QUERY_DESC qd = {.Query = D3D11_QUERY_EVENT};
    UINT idle_rounds = 0, rounds = 0;
    uint8_t *data = malloc(BYTES);
    enum check_result r = data ? high_open(&hi, detail, size) : fail(detail, size, "out of memory");
    HRESULT hr = S_OK;
    if (r == CHECK_PASS &&
        (FAILED(hr = ID3D11Device_CreateQuery(e->dev, &qd, &settled)) ||
         FAILED(hr = ID3D11Device_CreateQuery(e->dev, &qd, &finished)) ||
         FAILED(hr = buffer(e->dev, BYTES, D3D11_USAGE_DEFAULT, 0, NULL, &x)) ||
         FAILED(hr = buffer(e->dev, CHUNK, D3D11_USAGE_DEFAULT, 0, NULL, &tmp)) ||
         FAILED(hr = buffer(e->dev, BYTES, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ, NULL, &rb))))
        r = fail(detail, size, "buffers of %u KiB: 0x%08x", BYTES >> 10, (unsigned)hr);
    struct wddm_counters c0, c1;
    wddm_get_counters(&c0);
    c1 = c0;
    for (UINT round = 0; round < ROUNDS && r == CHECK_PASS && c1.mid_buffer_preemptions == c0.mid_buffer_preemptions;
         round++) {
        rounds++;
        for (UINT i = 0; i <= STEPS; i++)
            fill(data + (size_t)i * CHUNK, CHUNK, 700 + round * 16 + i);
        ID3D11DeviceContext_UpdateSubresource(e->ctx, (ID3D11Resource *)x, 0, NULL, data, BYTES, BYTES);
        /* x and tmp resident and the upload done first: the long work must run, not wait for its
         * paging, when the high-priority copy arrives. */
        D3D11_BOX first = {0, 0, 0, CHUNK, 1, 1};
        ID3D11DeviceContext_CopySubresourceRegion(e->ctx, (ID3D11Resource *)tmp, 0, 0, 0, 0, (ID3D11Resource *)x, 0,
                                                  &first);
        ID3D11DeviceContext_End(e->ctx, (ID3D11Asynchronous *)settled);
        ID3D11DeviceContext_Flush(e->ctx);
        while (ID3D11DeviceContext_GetData(e->ctx, (ID3D11Asynchronous *)settled, NULL, 0, 0) == S_FALSE)
            sched_yield();
        /* Long DMA buffers of 2 * STEPS * PASSES copies, the chunks' seeds moved alike ... */
        uint32_t seeds[STEPS + 1];
        for (UINT i = 0; i <= STEPS; i++)
            seeds[i] = 700 + round * 16 + i;
        for (UINT pass = 0; pass < PASSES; pass++)
            for (UINT k = 0; k < STEPS; k++) {
                UINT from_chunk = pass & 1 ? k + 1 : STEPS - 1 - k, to_chunk = pass & 1 ? k : STEPS - k;
                D3D11_BOX from = {from_chunk * CHUNK, 0, 0, (from_chunk + 1) * CHUNK, 1, 1},
                          all = {0, 0, 0, CHUNK, 1, 1};
                ID3D11DeviceContext_CopySubresourceRegion(e->ctx, (ID3D11Resource *)tmp, 0, 0, 0, 0,
                                                          (ID3D11Resource *)x, 0, &from);
                ID3D11DeviceContext_CopySubresourceRegion(e->ctx, (ID3D11Resource *)x, 0, to_chunk * CHUNK, 0, 0,
                                                          (ID3D11Resource *)tmp, 0, &all);
                seeds[to_chunk] = seeds[from_chunk];
            }
        ID3D11DeviceContext_End(e->ctx, (ID3D11Asynchronous *)finished);
        ID3D11DeviceContext_Flush(e->ctx);
        /* ... running when the high-priority copy arrives - unless the UMD ran them as it went. */
        if (ID3D11DeviceContext_GetData(e->ctx, (ID3D11Asynchronous *)finished, NULL, 0,
                                        D3D11_ASYNC_GETDATA_DONOTFLUSH) == S_OK)
            idle_rounds++;
        r = high_copy(&hi, "high priority", detail, size);
        ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)rb, (ID3D11Resource *)x);
        D3D11_MAPPED_SUBRESOURCE m;
        if (r == CHECK_PASS && FAILED(hr = ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)rb, 0, D3D11_MAP_READ, 0, &m)))
            r = fail(detail, size, "Map(READ) 0x%08x", (unsigned)hr);
        else if (r == CHECK_PASS) {
            for (UINT j = 0; j <= STEPS && r == CHECK_PASS; j++) {
                uint32_t seed = seeds[j];
                size_t at = first_wrong((const uint8_t *)m.pData + (size_t)j * CHUNK, CHUNK, seed);
                if (at != CHUNK)
                    r = fail(detail, size, "round %u: chunk %u byte %zu is 0x%02x, not 0x%02x: the preempted DMA "
                                           "buffer did not go on where it stopped", round, j, at,
                             ((const uint8_t *)m.pData)[(size_t)j * CHUNK + at], pattern(seed, at));
            }
            ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)rb, 0);
        }
        wddm_get_counters(&c1);
    }
    UINT64 buffers = c1.dma_buffers_submitted - c0.dma_buffers_submitted;
    if (r == CHECK_PASS && c1.mid_buffer_preemptions == c0.mid_buffer_preemptions) {
        if (c1.preemptions == c0.preemptions || idle_rounds == rounds ||
            buffers >= (UINT64)rounds * 2 * STEPS * PASSES) {
            /* The situation never arose - how the UMD cuts and orders its DMA buffers (a GPU wait
             * between them, one copy each, all done at Flush) is its own business, not the KMD's
             * granularity; whether the KMD preempts at all is Sched.Preemption's. */
            snprintf(detail, size, "the high-priority copy never preempted a running DMA buffer of several copies "
                                   "(%llu preemptions; %llu DMA buffers for %u copies; %u of %u rounds done at Flush)",
                     (unsigned long long)(c1.preemptions - c0.preemptions), (unsigned long long)buffers,
                     rounds * 2 * STEPS * PASSES, idle_rounds, rounds);
            r = CHECK_SKIP;
        } else {
            r = fail(detail, size, "the caps claim granularity %d, but in %u rounds no preemption stopped the running "
                                   "DMA buffer before its end (%llu preemptions, %llu DMA buffers for %u copies)",
                     (int)e->caps.PreemptionCaps.GraphicsPreemptionGranularity, rounds,
                     (unsigned long long)(c1.preemptions - c0.preemptions), (unsigned long long)buffers,
                     rounds * 2 * STEPS * PASSES);
        }
    }
    RELEASE(rb);
    RELEASE(tmp);
    RELEASE(x);
    RELEASE(settled);
    RELEASE(finished);
    high_close(&hi);
    free(data);
    return r;
}

/* Every adapter listed works, the second like the first: its UMD opens on it (a DXGI adapter
 * given to D3D11CreateDevice) and its copies read back. */
static enum check_result adapter_second(struct check_env *e, char *detail, size_t size)
{
    if (e->adapters < 2) {
        snprintf(detail, size, "one adapter (WDDM_KMD / --kmd lists one driver per adapter)");
        return CHECK_SKIP;
    }
    IDXGIFactory *factory = NULL;
    IDXGIAdapter *adapter = NULL;
    struct check_env second = {0};
    wddm_clear_refusals();
    const char *step = "CreateDXGIFactory";
    HRESULT hr = CreateDXGIFactory(&IID_IDXGIFactory, (void **)&factory);
    if (SUCCEEDED(hr) && (step = "IDXGIFactory::EnumAdapters(1)"))
        hr = IDXGIFactory_EnumAdapters(factory, 1, &adapter);
    if (SUCCEEDED(hr) && (step = "D3D11CreateDevice on it"))
        hr = D3D11CreateDevice(adapter, D3D_DRIVER_TYPE_UNKNOWN, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &second.dev,
                               NULL, &second.ctx);
    enum check_result r = CHECK_PASS;
    if (FAILED(hr)) {
        char why[900];
        wddm_last_refusals(why, sizeof why);
        r = fail(detail, size, "%s: 0x%08x %s", step, (unsigned)hr, why);
    } else {
        r = copy_readback(&second, detail, size);
    }
    RELEASE(second.ctx);
    RELEASE(second.dev);
    RELEASE(adapter);
    RELEASE(factory);
    return r;
}

/* Seed 000: the context allocations a KMD creates (DxgkCbCreateContextAllocation: a GPU
 * context's save area, a device's own data such as page tables) are resident whenever their
 * context runs, and may move while it is not loaded. The check makes all of them move: three
 * devices each upload a buffer and read it back (their contexts run, and are saved when the
 * engine switches away), VidMm then trims everything (wddm_test_vidmm_trim: every node in the
 * null context, every segment emptied), and the devices take turns copying again: each
 * context's allocations come back before it runs, the KMD saves into them at their new place,
 * and every device reads its bytes back. Between the trim and the devices' turns, STAGING
 * buffers the GPU reads take the ranges the trim freed first: a KMD that keeps saving a
 * context's state at its old address writes over them, and their bytes are read back last. */
enum { CA_DEVICES = 3, CA_ROUNDS = 2, CA_BYTES = 256u << 10, CA_SEED = 7000, CA_FILLERS = 16,
       CA_FILLER_BYTES = 64u << 10, CA_FILLER_SEED = 7100 };
struct ca_device {
    struct check_env env; /* dev and ctx only */
    ID3D11Buffer *buf;
};

static enum check_result ca_open(struct ca_device *d, UINT i, uint8_t *data, char *detail, size_t size)
{
    HRESULT hr = open_device(&d->env.dev, &d->env.ctx);
    fill(data, CA_BYTES, CA_SEED + i);
    if (SUCCEEDED(hr))
        hr = buffer(d->env.dev, CA_BYTES, D3D11_USAGE_DEFAULT, 0, data, &d->buf);
    if (FAILED(hr))
        return fail(detail, size, "device %u and its buffer: 0x%08x", i, (unsigned)hr);
    char what[48];
    snprintf(what, sizeof what, "device %u before the trim", i);
    return read_back(&d->env, d->buf, CA_BYTES, CA_SEED + i, what, detail, size);
}

static enum check_result ca_trim(struct check_env *e, char *detail, size_t size)
{
    struct wddm_counters c0, c1;
    wddm_get_counters(&c0);
    if (!c0.context_allocations_created) {
        snprintf(detail, size, "the KMD created no context allocations (DxgkCbCreateContextAllocation): "
                               "nothing to move");
        return CHECK_SKIP;
    }
    UINT64 evicted = 0;
    NTSTATUS st = wddm_test_vidmm_trim(e->adapter, &evicted);
    if (!NT_SUCCESS(st))
        return fail(detail, size, "wddm_test_vidmm_trim: 0x%08x", (unsigned)st);
    wddm_get_counters(&c1);
    if (c1.context_allocation_evictions == c0.context_allocation_evictions)
        return fail(detail, size, "VidMm trimmed %llu allocations with every node in the null context, but none of "
                                  "the %llu context allocations", (unsigned long long)evicted,
                    (unsigned long long)c1.context_allocations_created);
    return CHECK_PASS;
}

/* A STAGING buffer written by the CPU, then read by the GPU (a copy into a DEFAULT buffer on the
 * checks' device), so VidMm places it now, in the lowest free range that takes it. */
static enum check_result ca_filler(struct check_env *e, UINT i, ID3D11Buffer **out, char *detail, size_t size)
{
    ID3D11Buffer *dst = NULL;
    D3D11_MAPPED_SUBRESOURCE m;
    HRESULT hr = buffer(e->dev, CA_FILLER_BYTES, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE,
                        NULL, out);
    if (SUCCEEDED(hr))
        hr = buffer(e->dev, CA_FILLER_BYTES, D3D11_USAGE_DEFAULT, 0, NULL, &dst);
    if (SUCCEEDED(hr))
        hr = ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)*out, 0, D3D11_MAP_WRITE, 0, &m);
    if (FAILED(hr)) {
        RELEASE(dst);
        return fail(detail, size, "STAGING buffer %u after the trim: 0x%08x", i, (unsigned)hr);
    }
    fill(m.pData, CA_FILLER_BYTES, CA_FILLER_SEED + i);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)*out, 0);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)dst, (ID3D11Resource *)*out);
    ID3D11DeviceContext_Flush(e->ctx);
    RELEASE(dst);
    return CHECK_PASS;
}

/* The STAGING buffer's bytes, as the CPU wrote them: nothing the GPU saved landed there. */
static enum check_result ca_filler_check(struct check_env *e, ID3D11Buffer *b, UINT i, char *detail, size_t size)
{
    D3D11_MAPPED_SUBRESOURCE m;
    HRESULT hr = ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)b, 0, D3D11_MAP_READ, 0, &m);
    if (FAILED(hr))
        return fail(detail, size, "STAGING buffer %u: Map(READ) 0x%08x", i, (unsigned)hr);
    size_t at = first_wrong(m.pData, CA_FILLER_BYTES, CA_FILLER_SEED + i);
    enum check_result r = CHECK_PASS;
    if (at != CA_FILLER_BYTES)
        r = fail(detail, size, "STAGING buffer %u placed after the trim: byte %zu reads 0x%02x, written 0x%02x (a "
                               "context's state saved at its old place?)", i, at, ((const uint8_t *)m.pData)[at],
                 pattern(CA_FILLER_SEED + i, at));
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)b, 0);
    return r;
}

static enum check_result context_allocations(struct check_env *e, char *detail, size_t size)
{
    ID3D11Buffer *filler[CA_FILLERS] = {0};
    struct ca_device d[CA_DEVICES] = {0};
    uint8_t *data = malloc(CA_BYTES);
    enum check_result r = data ? CHECK_PASS : fail(detail, size, "out of memory");
    for (UINT i = 0; i < CA_DEVICES && r == CHECK_PASS; i++)
        r = ca_open(&d[i], i, data, detail, size);
    if (r == CHECK_PASS)
        r = ca_trim(e, detail, size);
    for (UINT i = 0; i < CA_FILLERS && r == CHECK_PASS; i++)
        r = ca_filler(e, i, &filler[i], detail, size);
    for (UINT round = 0; round < CA_ROUNDS && r == CHECK_PASS; round++)
        for (UINT i = 0; i < CA_DEVICES && r == CHECK_PASS; i++) {
            char what[64];
            snprintf(what, sizeof what, "device %u, round %u after the trim", i, round);
            r = read_back(&d[i].env, d[i].buf, CA_BYTES, CA_SEED + i, what, detail, size);
        }
    for (UINT i = 0; i < CA_FILLERS && r == CHECK_PASS; i++)
        r = ca_filler_check(e, filler[i], i, detail, size);
    for (UINT i = 0; i < CA_FILLERS; i++)
        RELEASE(filler[i]);
    for (UINT i = 0; i < CA_DEVICES; i++) {
        RELEASE(d[i].buf);
        RELEASE(d[i].env.ctx);
        RELEASE(d[i].env.dev);
    }
    free(data);
    return r;
}

/* Seed 002, sharing the backing store with the KMD: an allocation the UMD asks to share (created
 * shared; here with the reference drivers' private data, SWGPU_ALLOC_FLAG_SHARE_BACKING_STORE_WITH_KMD)
 * and the KMD marks Flags2.ShareBackingStoreWithKmd is one memory for both: what the application
 * writes through D3DKMTLock2 the KMD reads at the address DxgkDdiSetAllocationBackingStore gave
 * it, and the reverse (the KMD reached through the reference escape, SWGPU_ESCAPE_*). The
 * kernel's side of the contract (the feature enabled, the allocation shared, CPU-visible and in
 * system memory only) is the verifier's (its BackingStore.* checks). */
enum { BS_BYTES = 8192u, BS_SEED = 7300 };
struct bs_env {
    D3DKMT_HANDLE adapter, device, alloc;
};

static NTSTATUS bs_escape(const struct bs_env *b, UINT32 op, UINT32 offset, UINT8 *data)
{
    struct swgpu_escape x = {.magic = SWGPU_PRIVATE_MAGIC, .version = SWGPU_PRIVATE_VERSION, .op = op,
                             .hAllocation = b->alloc, .offset = offset, .size = SWGPU_ESCAPE_DATA_MAX};
    if (op == SWGPU_ESCAPE_WRITE_BACKING_STORE)
        memcpy(x.data, data, SWGPU_ESCAPE_DATA_MAX);
    D3DKMT_ESCAPE esc = {.hAdapter = b->adapter, .hDevice = b->device, .Type = D3DKMT_ESCAPE_DRIVERPRIVATE,
                         .pPrivateDriverData = &x, .PrivateDriverDataSize = sizeof x};
    NTSTATUS st = D3DKMTEscape(&esc);
    if (NT_SUCCESS(st) && op == SWGPU_ESCAPE_READ_BACKING_STORE)
        memcpy(data, x.data, SWGPU_ESCAPE_DATA_MAX);
    return st;
}

/* The shared allocation, or SKIP with why. */
static enum check_result bs_create(struct bs_env *b, char *detail, size_t size)
{
    D3DKMT_CREATEDEVICE cd = {.hAdapter = b->adapter};
    NTSTATUS st = D3DKMTCreateDevice(&cd);
    if (!NT_SUCCESS(st))
        return fail(detail, size, "D3DKMTCreateDevice: 0x%08x", (unsigned)st);
    b->device = cd.hDevice;
    struct swgpu_alloc_private p = {.magic = SWGPU_PRIVATE_MAGIC, .version = SWGPU_PRIVATE_VERSION,
                                    .kind = SWGPU_ALLOC_READBACK, .size = BS_BYTES, .dimension = 1,
                                    .width = BS_BYTES, .height = 1, .depth = 1, .mip_levels = 1, .array_size = 1,
                                    .flags = SWGPU_ALLOC_FLAG_SHARE_BACKING_STORE_WITH_KMD};
    D3DDDI_ALLOCATIONINFO ai = {.pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p};
    D3DKMT_CREATEALLOCATION ca = {.hDevice = b->device, .NumAllocations = 1, .pAllocationInfo = &ai};
    ca.Flags.CreateShared = 1;
    ca.Flags.CreateResource = 1; /* CreateShared needs a resource */
    st = D3DKMTCreateAllocation(&ca);
    if (!NT_SUCCESS(st)) {
        snprintf(detail, size, "the KMD refused a shared allocation with the reference private data asking to "
                               "share its backing store (0x%08x): it does not opt in, or speaks its own private "
                               "data", (unsigned)st);
        return CHECK_SKIP;
    }
    b->alloc = ai.hAllocation;
    UINT8 probe[SWGPU_ESCAPE_DATA_MAX];
    if (!NT_SUCCESS(bs_escape(b, SWGPU_ESCAPE_READ_BACKING_STORE, 0, probe))) {
        snprintf(detail, size, "the KMD does not read the allocation's backing store through the reference escape "
                               "(SWGPU_ESCAPE_READ_BACKING_STORE): it did not take it, or speaks its own escape");
        return CHECK_SKIP;
    }
    return CHECK_PASS;
}

/* The application's bytes, as the KMD reads them, at the start and at the end. */
static enum check_result bs_app_to_kmd(struct bs_env *b, UINT8 *cpu, char *detail, size_t size)
{
    fill(cpu, BS_BYTES, BS_SEED);
    const UINT32 at[2] = {0, BS_BYTES - SWGPU_ESCAPE_DATA_MAX};
    for (int i = 0; i < 2; i++) {
        UINT8 seen[SWGPU_ESCAPE_DATA_MAX];
        NTSTATUS st = bs_escape(b, SWGPU_ESCAPE_READ_BACKING_STORE, at[i], seen);
        if (!NT_SUCCESS(st))
            return fail(detail, size, "the KMD's read of bytes %u..: 0x%08x", at[i], (unsigned)st);
        for (UINT32 k = 0; k < SWGPU_ESCAPE_DATA_MAX; k++)
            if (seen[k] != pattern(BS_SEED, at[i] + k))
                return fail(detail, size, "byte %u written through D3DKMTLock2 as 0x%02x, the KMD reads 0x%02x at "
                                          "its backing-store address", at[i] + k, pattern(BS_SEED, at[i] + k),
                            seen[k]);
    }
    return CHECK_PASS;
}

/* The KMD's bytes, as the application reads them. */
static enum check_result bs_kmd_to_app(struct bs_env *b, const UINT8 *cpu, char *detail, size_t size)
{
    enum { AT = 4096 };
    UINT8 data[SWGPU_ESCAPE_DATA_MAX];
    for (UINT32 k = 0; k < SWGPU_ESCAPE_DATA_MAX; k++)
        data[k] = (UINT8)~pattern(BS_SEED, AT + k);
    NTSTATUS st = bs_escape(b, SWGPU_ESCAPE_WRITE_BACKING_STORE, AT, data);
    if (!NT_SUCCESS(st))
        return fail(detail, size, "the KMD's write of bytes %u..: 0x%08x", AT, (unsigned)st);
    for (UINT32 k = 0; k < SWGPU_ESCAPE_DATA_MAX; k++)
        if (cpu[AT + k] != data[k])
            return fail(detail, size, "byte %u written by the KMD as 0x%02x, D3DKMTLock2's pointer reads 0x%02x",
                        AT + k, data[k], cpu[AT + k]);
    return CHECK_PASS;
}

static enum check_result backing_share(struct check_env *e, char *detail, size_t size)
{
    struct bs_env b = {.adapter = e->adapter};
    enum check_result r = bs_create(&b, detail, size);
    if (r == CHECK_PASS) {
        D3DKMT_LOCK2 l = {.hDevice = b.device, .hAllocation = b.alloc};
        NTSTATUS st = D3DKMTLock2(&l);
        if (!NT_SUCCESS(st) || !l.pData) {
            r = fail(detail, size, "D3DKMTLock2 of the shared allocation: 0x%08x", (unsigned)st);
        } else {
            r = bs_app_to_kmd(&b, l.pData, detail, size);
            if (r == CHECK_PASS)
                r = bs_kmd_to_app(&b, l.pData, detail, size);
            D3DKMT_UNLOCK2 u = {.hDevice = b.device, .hAllocation = b.alloc};
            (void)D3DKMTUnlock2(&u);
        }
    }
    if (b.device) {
        D3DKMT_DESTROYDEVICE dd = {.hDevice = b.device}; /* takes the allocation along */
        (void)D3DKMTDestroyDevice(&dd);
    }
    return r;
}

/* Per-engine TDR (DXGK_DRIVERCAPS.SupportPerEngineTDR): a forced engine timeout
 * (D3DKMTEscape D3DKMT_ESCAPE_TDRDBGCTRL, D3DKMT_TDRDBGCTRLTYPE_ENGINETDR, for testing as on
 * Windows) of an idle engine other than the paging one is recovered by DxgkDdiResetEngine alone:
 * one engine reset, no adapter reset, the device not lost (nothing of it ran), and its copies
 * read back afterwards. */
static enum check_result tdr_engine(struct check_env *e, char *detail, size_t size)
{
    UINT nodes = e->caps.GpuEngineTopology.NbAsymetricProcessingNodes;
    UINT paging = e->caps.MemoryManagementCaps.PagingNode;
    if (!e->caps.SupportPerEngineTDR) {
        snprintf(detail, size, "the KMD does not claim DXGK_DRIVERCAPS.SupportPerEngineTDR");
        return CHECK_SKIP;
    }
    UINT node = paging == 0 ? 1 : 0;
    if (node >= nodes) {
        snprintf(detail, size, "one node, the paging node: its timeouts reset the adapter");
        return CHECK_SKIP;
    }
    enum check_result r = copy_readback(e, detail, size); /* the engine ran the device's work and is idle */
    if (r != CHECK_PASS)
        return r;
    struct wddm_counters c0, c1;
    wddm_get_counters(&c0);
    D3DKMT_TDRDBGCTRL_ESCAPE req = {.TdrControl = D3DKMT_TDRDBGCTRLTYPE_ENGINETDR, .NodeOrdinal = node};
    D3DKMT_ESCAPE esc = {.hAdapter = e->adapter, .Type = D3DKMT_ESCAPE_TDRDBGCTRL, .pPrivateDriverData = &req,
                         .PrivateDriverDataSize = sizeof req};
    NTSTATUS st = D3DKMTEscape(&esc);
    if (!NT_SUCCESS(st))
        return fail(detail, size, "D3DKMTEscape(TDRDBGCTRL, ENGINETDR, node %u): 0x%08x", node, (unsigned)st);
    for (int i = 0; i < 1000; i++) {
        wddm_get_counters(&c1);
        if (c1.engine_resets != c0.engine_resets || c1.adapter_resets != c0.adapter_resets)
            break;
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    if (c1.adapter_resets != c0.adapter_resets)
        return fail(detail, size, "the engine timeout of node %u reset the adapter: DxgkDdiResetEngine is missing, "
                                  "failed, or answered a LastAbortedFenceId outside the fences submitted "
                                  "(WDDM_DEBUG=1 says which)", node);
    if (c1.engine_resets != c0.engine_resets + 1)
        return fail(detail, size, "%llu engine resets within 5 s of the forced engine timeout of node %u, not 1",
                    (unsigned long long)(c1.engine_resets - c0.engine_resets), node);
    HRESULT reason = ID3D11Device_GetDeviceRemovedReason(e->dev);
    if (reason != S_OK)
        return fail(detail, size, "the reset of an idle engine lost the device: removed reason 0x%08x",
                    (unsigned)reason);
    return copy_readback(e, detail, size);
}

/* A forced TDR (D3DKMTEscape D3DKMT_ESCAPE_TDRDBGCTRL, FORCETDR, as on Windows): the kernel
 * recovers the adapter through the KMD's DxgkDdiResetFromTimeout and DxgkDdiRestartFromTimeout;
 * the open device is lost (DXGI_ERROR_DEVICE_RESET: it caused nothing), and a device created
 * afterwards works: the KMD brought its GPU back. It runs last: it loses the checks' device. */
static enum check_result tdr_recovery(struct check_env *e, char *detail, size_t size)
{
    struct wddm_counters c0, c1;
    wddm_get_counters(&c0);
    UINT64 resets = wddm_verifier_violations("Tdr.ResetFromTimeout"),
           restarts = wddm_verifier_violations("Tdr.RestartFromTimeout");
    D3DKMT_TDRDBGCTRLTYPE type = D3DKMT_TDRDBGCTRLTYPE_FORCETDR;
    D3DKMT_ESCAPE esc = {.hAdapter = e->adapter, .Type = D3DKMT_ESCAPE_TDRDBGCTRL, .pPrivateDriverData = &type,
                         .PrivateDriverDataSize = sizeof type};
    NTSTATUS st = D3DKMTEscape(&esc);
    if (!NT_SUCCESS(st))
        return fail(detail, size, "D3DKMTEscape(TDRDBGCTRL, FORCETDR): 0x%08x", (unsigned)st);
    /* The device is lost first, the reset is counted when the recovery ends: wait for both. */
    HRESULT reason = S_OK;
    for (int i = 0; i < 1000; i++) {
        reason = ID3D11Device_GetDeviceRemovedReason(e->dev);
        wddm_get_counters(&c1);
        if (reason != S_OK && c1.adapter_resets != c0.adapter_resets)
            break;
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    if (reason != DXGI_ERROR_DEVICE_RESET)
        return fail(detail, size, "after the forced TDR the device's removed reason is 0x%08x, not "
                                  "DXGI_ERROR_DEVICE_RESET (0x887a0007) within 5 s", (unsigned)reason);
    if (wddm_verifier_violations("Tdr.ResetFromTimeout") != resets ||
        wddm_verifier_violations("Tdr.RestartFromTimeout") != restarts)
        return fail(detail, size, "the recovery broke Tdr.ResetFromTimeout or Tdr.RestartFromTimeout: the KMD's "
                                  "DxgkDdiResetFromTimeout / DxgkDdiRestartFromTimeout is missing or failed "
                                  "(WDDM_VERIFIER=1 names it)");
    if (c1.adapter_resets != c0.adapter_resets + 1)
        return fail(detail, size, "%llu adapter resets, not 1", (unsigned long long)(c1.adapter_resets - c0.adapter_resets));
    /* A new device on the recovered adapter. */
    RELEASE(e->ctx);
    RELEASE(e->dev);
    HRESULT hr = open_device(&e->dev, &e->ctx);
    if (FAILED(hr))
        return fail(detail, size, "a device after the recovery: 0x%08x", (unsigned)hr);
    return copy_readback(e, detail, size);
}

const struct check_case wddm_check_cases[] = {
    {"Adapter.Start",
     "The adapter starts: DriverEntry registers a complete DRIVER_INITIALIZATION_DATA, DxgkDdiAddDevice and "
     "DxgkDdiStartDevice succeed, and the caps and segments pass every verifier check",
     adapter_start},
    {"Adapter.Queries",
     "DxgkDdiQueryAdapterInfo answers the driver caps and the segments, and the segment sizes the kernel "
     "derives (KMTQAITYPE_GETSEGMENTSIZE) are the memory segments described",
     adapter_queries},
    {"Umd.Open",
     "The adapter's UMD opens (OpenAdapter10_2), creates a D3D11 device and its immediate context",
     umd_open},
    {"Copy.Readback",
     "A resource's initial data, copied by the GPU to a STAGING resource and read with Map(READ), comes back "
     "byte for byte",
     copy_readback},
    {"Map.Discard",
     "Map(WRITE_DISCARD) of a buffer the GPU still reads never changes what an earlier copy reads: 64 discards "
     "copied out come back each as written",
     map_discard},
    {"Fence.Order",
     "Submissions retire in order: when the last of 32 EVENT queries is done, every earlier one is done",
     fence_order},
    {"Texture.Readback",
     "A texture of odd size comes back row by row at the pitch Map reports: the KMD lays out what it "
     "describes",
     texture_readback},
    {"Share.Open",
     "A MISC_SHARED texture opened by a second device (DxgkDdiOpenAllocation) holds the creator's bytes, and "
     "each device reads what the other's GPU wrote",
     share_open},
    {"Threads.TwoDevices",
     "Two devices on two threads upload, copy and read back at once (40 rounds each): both streams complete "
     "and every byte is right",
     threads_two_devices},
    {"Sched.Preemption",
     "When the caps claim preemption, a higher-priority device's copy preempts queued copies of another device "
     "(DxgkDdiPreemptCommand answered; up to 5 rounds), and both devices' bytes are right",
     sched_preemption},
    {"Sched.MidBuffer",
     "When the caps claim preemption finer than DMA buffers, a preemption stops the running DMA buffer before "
     "its end and its resubmission goes on where it stopped: 64 order-dependent copies come out right "
     "(up to 5 rounds)",
     sched_mid_buffer},
    {"Paging.Oversubscribe",
     "1.5 times the local memory, every buffer filled and read back: VidMm evicts, and the KMD's paging "
     "buffers (DXGK_OPERATION_TRANSFER, FILL) keep every byte",
     paging_oversubscribe},
    {"Paging.Multipass",
     "Every paging operation first offered 16 bytes of room: the KMD stops at DmaSize, answers "
     "STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER and goes on at MultipassOffset in the next buffer, and every "
     "byte of 8 uploaded buffers reads back",
     paging_multipass},
    {"GpuMmu.PageTables",
     "When the caps claim GpuMmu, the allocations' virtual addresses are mapped through the KMD's page tables "
     "(DXGK_OPERATION_UPDATE_PAGE_TABLE) and copies through them read back",
     gpummu_page_tables},
    {"IoMmu.Translations",
     "When the caps claim IoMmu, the device's DMA requests go through the platform's IOMMU under the "
     "process's PASID (WddmIoMmuTranslate), VidMm maps what is resident there, and copies read back",
     iommu_translations},
    {"Adapter.Second",
     "With two adapters, the second one works like the first: a device on it (DXGI adapter 1) copies and "
     "reads back",
     adapter_second},
    {"Context.Allocations",
     "Seed 000: the KMD's context allocations (DxgkCbCreateContextAllocation) may move while their context "
     "is not loaded and are back before it runs: after VidMm trimmed every segment (every node in the null "
     "context), three devices take turns copying and each reads its bytes back",
     context_allocations},
    {"Backing.Share",
     "Seed 002: when the KMD shares an allocation's backing store (Flags2.ShareBackingStoreWithKmd), the bytes "
     "the application writes through D3DKMTLock2 are what the KMD reads at the address "
     "DxgkDdiSetAllocationBackingStore gave, and the reverse (reference private data and escape)",
     backing_share},
    {"Tdr.Engine",
     "When the caps claim SupportPerEngineTDR, a forced timeout of an idle engine (D3DKMT_TDRDBGCTRLTYPE_ENGINETDR) "
     "is recovered by DxgkDdiResetEngine alone: no adapter reset, the device kept, and its copies read back",
     tdr_engine},
    {"Tdr.Recovery",
     "After a forced TDR the adapter recovers through DxgkDdiResetFromTimeout and DxgkDdiRestartFromTimeout: "
     "the open device is lost with DXGI_ERROR_DEVICE_RESET, and a new device's copies read back",
     tdr_recovery},
};
const size_t wddm_check_case_count = sizeof wddm_check_cases / sizeof wddm_check_cases[0];
