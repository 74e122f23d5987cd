/* wddm demo: the main job (issue 2). A realistic frame loop on the default adapter:
 *  - a DYNAMIC vertex buffer written several times per frame with Map(WRITE_DISCARD) and
 *    copied by the GPU into slices of a DEFAULT buffer (a fresh slice of the UMD's upload ring
 *    per Map while the GPU reads the last);
 *  - a DEFAULT texture cleared on the GPU (ClearRenderTargetView) and partly updated, on even
 *    frames with UpdateSubresource, on odd ones from a DYNAMIC texture written with
 *    Map(WRITE_DISCARD) (a texture is not a slice of the UMD's upload ring, so VidMm renames it
 *    in the WDDM 1.x model) and copied with CopySubresourceRegion;
 *  - GPU copies DEFAULT -> STAGING and readback with Map(READ) (seed 001 §9), every byte
 *    checked against what the CPU expects;
 *  - before the loop, as a game does, the local video memory budget asked of DXGI and the
 *    resources' bytes reserved from it (IDXGIAdapter3::SetVideoMemoryReservation).
 * Prints what happened and exits 1 if any readback is wrong. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <d3d11.h>
#include <dxgi1_4.h>
#include <wddm/swgpu.h>
#include <wddm/wddm.h>

#include "report.h"
#include "tool.h"

#define CHUNKS_PER_FRAME 8u
#define CHUNK_BYTES (8u * 1024u)
#define VB_BYTES (CHUNKS_PER_FRAME * CHUNK_BYTES)
#define TEX_W 257u
#define TEX_H 129u
#define BOX_W 61u
#define BOX_H 37u
/* What create_resources makes, in bytes (texels of 4 bytes): the reservation the demo asks for. */
#define DEMO_RESOURCE_BYTES                                                                        \
    ((UINT64)CHUNK_BYTES + 2ull * VB_BYTES + 2ull * TEX_W * TEX_H * 4u + (UINT64)BOX_W * BOX_H * 4u)

struct demo {
    ID3D11Device *dev;
    ID3D11DeviceContext *ctx;
    ID3D11Buffer *dyn, *vb, *vb_read;
    ID3D11Texture2D *tex, *tex_read, *box_dyn;
    ID3D11RenderTargetView *rtv;
    unsigned long long maps, bytes_uploaded, errors;
};

static uint32_t chunk_word(unsigned frame, unsigned chunk, unsigned i)
{
    uint32_t x = (frame * 0x9E3779B1u) ^ (chunk * 0x85EBCA77u) ^ (i * 0xC2B2AE3Du);
    return x ^ (x >> 15);
}

static uint32_t clear_rgba(unsigned frame)
{
    /* Channel values k/255 are exact in UNORM8: the GPU fill must give back exactly k. */
    unsigned r = frame & 0xffu, g = (frame * 7u) & 0xffu, b = (frame * 13u) & 0xffu, a = 0xffu;
    return r | g << 8 | b << 16 | a << 24;
}

static uint32_t box_pixel(unsigned frame, unsigned x, unsigned y)
{
    return chunk_word(frame, 99u, x * 131u + y) | 0xff000000u;
}

static unsigned box_x(unsigned frame) { return (frame * 17u) % (TEX_W - BOX_W); }
static unsigned box_y(unsigned frame) { return (frame * 5u) % (TEX_H - BOX_H); }

static int check(HRESULT hr, const char *what)
{
    if (FAILED(hr)) {
        fprintf(stderr, "wddm demo: %s failed: 0x%08x\n", what, (unsigned)hr);
        return 0;
    }
    return 1;
}

static int create_resources(struct demo *d)
{
    D3D11_BUFFER_DESC bd = {.ByteWidth = CHUNK_BYTES, .Usage = D3D11_USAGE_DYNAMIC,
                            .BindFlags = D3D11_BIND_VERTEX_BUFFER, .CPUAccessFlags = D3D11_CPU_ACCESS_WRITE};
    if (!check(ID3D11Device_CreateBuffer(d->dev, &bd, NULL, &d->dyn), "CreateBuffer(DYNAMIC)"))
        return 0;
    bd = (D3D11_BUFFER_DESC){.ByteWidth = VB_BYTES, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER};
    if (!check(ID3D11Device_CreateBuffer(d->dev, &bd, NULL, &d->vb), "CreateBuffer(DEFAULT)"))
        return 0;
    bd = (D3D11_BUFFER_DESC){.ByteWidth = VB_BYTES, .Usage = D3D11_USAGE_STAGING, .CPUAccessFlags = D3D11_CPU_ACCESS_READ};
    if (!check(ID3D11Device_CreateBuffer(d->dev, &bd, NULL, &d->vb_read), "CreateBuffer(STAGING)"))
        return 0;
    D3D11_TEXTURE2D_DESC td = {.Width = TEX_W, .Height = TEX_H, .MipLevels = 1, .ArraySize = 1,
                               .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = {1, 0},
                               .Usage = D3D11_USAGE_DEFAULT,
                               .BindFlags = D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE};
    if (!check(ID3D11Device_CreateTexture2D(d->dev, &td, NULL, &d->tex), "CreateTexture2D(DEFAULT)"))
        return 0;
    td.Usage = D3D11_USAGE_STAGING;
    td.BindFlags = 0;
    td.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    if (!check(ID3D11Device_CreateTexture2D(d->dev, &td, NULL, &d->tex_read), "CreateTexture2D(STAGING)"))
        return 0;
    td = (D3D11_TEXTURE2D_DESC){.Width = BOX_W, .Height = BOX_H, .MipLevels = 1, .ArraySize = 1,
                                .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = {1, 0},
                                .Usage = D3D11_USAGE_DYNAMIC, .BindFlags = D3D11_BIND_SHADER_RESOURCE,
                                .CPUAccessFlags = D3D11_CPU_ACCESS_WRITE};
    if (!check(ID3D11Device_CreateTexture2D(d->dev, &td, NULL, &d->box_dyn), "CreateTexture2D(DYNAMIC)"))
        return 0;
    return check(ID3D11Device_CreateRenderTargetView(d->dev, (ID3D11Resource *)d->tex, NULL, &d->rtv),
                 "CreateRenderTargetView");
}

static int upload_chunks(struct demo *d, unsigned frame)
{
    for (unsigned c = 0; c < CHUNKS_PER_FRAME; c++) {
        D3D11_MAPPED_SUBRESOURCE m;
        if (!check(ID3D11DeviceContext_Map(d->ctx, (ID3D11Resource *)d->dyn, 0, D3D11_MAP_WRITE_DISCARD, 0, &m),
                   "Map(WRITE_DISCARD)"))
            return 0;
        uint32_t *w = m.pData;
        for (unsigned i = 0; i < CHUNK_BYTES / 4u; i++)
            w[i] = chunk_word(frame, c, i);
        ID3D11DeviceContext_Unmap(d->ctx, (ID3D11Resource *)d->dyn, 0);
        d->maps++;
        d->bytes_uploaded += CHUNK_BYTES;
        D3D11_BOX box = {0, 0, 0, CHUNK_BYTES, 1, 1};
        ID3D11DeviceContext_CopySubresourceRegion(d->ctx, (ID3D11Resource *)d->vb, 0, c * CHUNK_BYTES, 0, 0,
                                                  (ID3D11Resource *)d->dyn, 0, &box);
    }
    return 1;
}

static int update_texture(struct demo *d, unsigned frame)
{
    FLOAT color[4];
    uint32_t rgba = clear_rgba(frame);
    for (int k = 0; k < 4; k++)
        color[k] = (FLOAT)((rgba >> (8 * k)) & 0xffu) / 255.0f;
    ID3D11DeviceContext_ClearRenderTargetView(d->ctx, d->rtv, color);

    if (frame & 1u) {
        /* The box from the DYNAMIC texture, in two bands of rows: the second Map(WRITE_DISCARD)
         * comes while the first band's copy is queued, so it gets other memory. */
        for (unsigned y0 = 0; y0 < BOX_H; y0 += (BOX_H + 1u) / 2u) {
            unsigned y1 = y0 + (BOX_H + 1u) / 2u < BOX_H ? y0 + (BOX_H + 1u) / 2u : BOX_H;
            D3D11_MAPPED_SUBRESOURCE m;
            if (!check(ID3D11DeviceContext_Map(d->ctx, (ID3D11Resource *)d->box_dyn, 0, D3D11_MAP_WRITE_DISCARD, 0,
                                               &m), "Map(WRITE_DISCARD) texture"))
                return 0;
            for (unsigned y = y0; y < y1; y++)
                for (unsigned x = 0; x < BOX_W; x++)
                    ((uint32_t *)((BYTE *)m.pData + (size_t)y * m.RowPitch))[x] = box_pixel(frame, x, y);
            ID3D11DeviceContext_Unmap(d->ctx, (ID3D11Resource *)d->box_dyn, 0);
            d->maps++;
            D3D11_BOX band = {0, y0, 0, BOX_W, y1, 1};
            ID3D11DeviceContext_CopySubresourceRegion(d->ctx, (ID3D11Resource *)d->tex, 0, box_x(frame),
                                                      box_y(frame) + y0, 0, (ID3D11Resource *)d->box_dyn, 0, &band);
        }
    } else {
        static uint32_t box[BOX_W * BOX_H];
        for (unsigned y = 0; y < BOX_H; y++)
            for (unsigned x = 0; x < BOX_W; x++)
                box[y * BOX_W + x] = box_pixel(frame, x, y);
        D3D11_BOX dst = {box_x(frame), box_y(frame), 0, box_x(frame) + BOX_W, box_y(frame) + BOX_H, 1};
        ID3D11DeviceContext_UpdateSubresource(d->ctx, (ID3D11Resource *)d->tex, 0, &dst, box, BOX_W * 4u, 0);
    }
    d->bytes_uploaded += BOX_W * BOX_H * 4u;
    return 1;
}

static int verify(struct demo *d, unsigned frame)
{
    D3D11_MAPPED_SUBRESOURCE m;
    if (!check(ID3D11DeviceContext_Map(d->ctx, (ID3D11Resource *)d->vb_read, 0, D3D11_MAP_READ, 0, &m), "Map(READ) buffer"))
        return 0;
    d->maps++;
    const uint32_t *w = m.pData;
    unsigned long long bad = 0;
    for (unsigned c = 0; c < CHUNKS_PER_FRAME; c++)
        for (unsigned i = 0; i < CHUNK_BYTES / 4u; i++)
            bad += w[c * CHUNK_BYTES / 4u + i] != chunk_word(frame, c, i);
    ID3D11DeviceContext_Unmap(d->ctx, (ID3D11Resource *)d->vb_read, 0);

    if (!check(ID3D11DeviceContext_Map(d->ctx, (ID3D11Resource *)d->tex_read, 0, D3D11_MAP_READ, 0, &m), "Map(READ) texture"))
        return 0;
    d->maps++;
    for (unsigned y = 0; y < TEX_H; y++) {
        const uint32_t *row = (const uint32_t *)((const BYTE *)m.pData + (size_t)y * m.RowPitch);
        for (unsigned x = 0; x < TEX_W; x++) {
            int in_box = x >= box_x(frame) && x < box_x(frame) + BOX_W && y >= box_y(frame) && y < box_y(frame) + BOX_H;
            uint32_t want = in_box ? box_pixel(frame, x - box_x(frame), y - box_y(frame)) : clear_rgba(frame);
            bad += row[x] != want;
        }
    }
    ID3D11DeviceContext_Unmap(d->ctx, (ID3D11Resource *)d->tex_read, 0);
    if (bad) {
        fprintf(stderr, "wddm demo: frame %u: %llu words read back wrong\n", frame, bad);
        d->errors += bad;
    }
    return 1;
}

/* Each interface's own Release: calling through another interface's vtable type would be
 * undefined behaviour in C. */
#define SAFE_RELEASE(p) do { if (p) (p)->lpVtbl->Release(p); } while (0)

/* The budget DXGI gives the process in local video memory, and a reservation of what the demo's
 * resources take (at most what the adapter lets be reserved): the minimum the application says
 * it needs, which VidMm keeps out of other processes' budgets. The first failure's HRESULT. */
static HRESULT reserve_video_memory(struct demo *d, UINT64 bytes, DXGI_QUERY_VIDEO_MEMORY_INFO *info)
{
    IDXGIDevice *dxgi = NULL;
    IDXGIAdapter *adapter = NULL;
    IDXGIAdapter3 *adapter3 = NULL;
    HRESULT hr = ID3D11Device_QueryInterface(d->dev, &IID_IDXGIDevice, (void **)&dxgi);
    if (SUCCEEDED(hr))
        hr = IDXGIDevice_GetAdapter(dxgi, &adapter);
    if (SUCCEEDED(hr))
        hr = IDXGIAdapter_QueryInterface(adapter, &IID_IDXGIAdapter3, (void **)&adapter3);
    if (SUCCEEDED(hr))
        hr = IDXGIAdapter3_QueryVideoMemoryInfo(adapter3, 0, DXGI_MEMORY_SEGMENT_GROUP_LOCAL, info);
    if (SUCCEEDED(hr)) {
        UINT64 r = bytes < info->AvailableForReservation ? bytes : info->AvailableForReservation;
        hr = IDXGIAdapter3_SetVideoMemoryReservation(adapter3, 0, DXGI_MEMORY_SEGMENT_GROUP_LOCAL, r);
    }
    if (SUCCEEDED(hr))
        hr = IDXGIAdapter3_QueryVideoMemoryInfo(adapter3, 0, DXGI_MEMORY_SEGMENT_GROUP_LOCAL, info);
    SAFE_RELEASE(adapter3);
    SAFE_RELEASE(adapter);
    SAFE_RELEASE(dxgi);
    return hr;
}

static const char demo_usage[] =
    "usage: wddm demo [--json] [frames]\n"
    "  a frame loop on the default adapter: dynamic uploads with Map(WRITE_DISCARD),\n"
    "  UpdateSubresource, GPU clears and copies, every readback checked; the\n"
    "  resources' bytes reserved from the local video memory budget first.\n"
    "  frames: 1..1000000 (default 240). --json: the report as one JSON object.\n"
    "  Exit 1 if a readback is wrong.\n";

static int json_option(int opt, const char *arg, void *ctx)
{
    ((struct wddm_report *)ctx)->json = true;
    return 0;
}

int wddm_tool_demo(int argc, char **argv)
{
    static const struct option opts[] = {{"json", no_argument, NULL, 'J'}, {0}};
    struct wddm_report rep = {0};
    int first;
    int rc = wddm_tool_options("demo", demo_usage, argc, argv, opts, json_option, &rep, &first);
    if (rc)
        return rc;
    uint64_t frames64 = 240;
    if (argc - first > 1)
        return wddm_tool_usage_error("demo", "unexpected argument '%.40s'", argv[first + 1]);
    if (argc - first == 1 && (rc = wddm_tool_parse_u64("demo", "frames", argv[first], 1, 1000000, &frames64)))
        return rc;
    unsigned frames = (unsigned)frames64;
    struct demo d = {0};
    D3D_FEATURE_LEVEL fl;
    HRESULT hr = D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &d.dev, &fl, &d.ctx);
    if (!check(hr, "D3D11CreateDevice"))
        return 1;
    struct wddm_counters c0, c1;
    struct wddm_swgpu_stats g0, g1;
    wddm_get_counters(&c0);
    wddm_swgpu_get_stats(&g0);
    uint64_t t0 = wddm_tool_now_ns();

    int ok = create_resources(&d);
    DXGI_QUERY_VIDEO_MEMORY_INFO vm = {0};
    ok = ok && check(reserve_video_memory(&d, DEMO_RESOURCE_BYTES, &vm),
                     "IDXGIAdapter3::SetVideoMemoryReservation");
    for (unsigned f = 0; ok && f < frames; f++) {
        ok = upload_chunks(&d, f);
        if (!ok)
            break;
        ok = update_texture(&d, f);
        if (!ok)
            break;
        ID3D11DeviceContext_CopyResource(d.ctx, (ID3D11Resource *)d.vb_read, (ID3D11Resource *)d.vb);
        ID3D11DeviceContext_CopyResource(d.ctx, (ID3D11Resource *)d.tex_read, (ID3D11Resource *)d.tex);
        ID3D11DeviceContext_Flush(d.ctx);
        ok = verify(&d, f);
    }

    uint64_t t1 = wddm_tool_now_ns();
    wddm_get_counters(&c1);
    wddm_swgpu_get_stats(&g1);
    double secs = (double)(t1 - t0) / 1e9;
    if (!rep.json)
        printf("wddm demo: %u frames in %.3f s (%.1f frames/s)\n", frames, secs, frames / secs);
    wddm_report_begin(&rep, "demo");
    wddm_report_u64(&rep, "frames", frames);
    wddm_report_f64(&rep, "seconds", secs);
    wddm_report_u64(&rep, "maps", d.maps);
    wddm_report_u64(&rep, "bytes uploaded by the CPU", d.bytes_uploaded);
    wddm_report_u64(&rep, "bytes copied by the GPU", g1.bytes_copied - g0.bytes_copied);
    wddm_report_u64(&rep, "bytes filled by the GPU", g1.bytes_filled - g0.bytes_filled);
    wddm_report_u64(&rep, "DMA buffers submitted", c1.dma_buffers_submitted - c0.dma_buffers_submitted);
    wddm_report_u64(&rep, "paging buffers submitted", c1.paging_buffers_submitted - c0.paging_buffers_submitted);
    wddm_report_u64(&rep, "fences retired", c1.fences_retired - c0.fences_retired);
    wddm_report_u64(&rep, "locks", c1.locks - c0.locks);
    wddm_report_u64(&rep, "lock waits", c1.lock_waits - c0.lock_waits);
    wddm_report_u64(&rep, "renames (Discard)", c1.renames - c0.renames);
    wddm_report_u64(&rep, "evictions", c1.evictions - c0.evictions);
    wddm_report_u64(&rep, "bytes paged in", c1.bytes_paged_in - c0.bytes_paged_in);
    wddm_report_u64(&rep, "bytes paged out", c1.bytes_paged_out - c0.bytes_paged_out);
    wddm_report_u64(&rep, "context switches", c1.context_switches - c0.context_switches);
    wddm_report_u64(&rep, "preemptions", c1.preemptions - c0.preemptions);
    wddm_report_u64(&rep, "engine / adapter resets",
                    c1.engine_resets - c0.engine_resets + c1.adapter_resets - c0.adapter_resets);
    wddm_report_u64(&rep, "readback errors", d.errors);
    wddm_report_u64(&rep, "local video memory budget", vm.Budget);
    wddm_report_u64(&rep, "local video memory reserved", vm.CurrentReservation);

    SAFE_RELEASE(d.rtv);
    SAFE_RELEASE(d.box_dyn);
    SAFE_RELEASE(d.tex_read);
    SAFE_RELEASE(d.tex);
    SAFE_RELEASE(d.vb_read);
    SAFE_RELEASE(d.vb);
    SAFE_RELEASE(d.dyn);
    SAFE_RELEASE(d.ctx);
    SAFE_RELEASE(d.dev);
    ok = ok && !d.errors;
    wddm_report_end(&rep, "demo", ok, "every readback verified");
    return ok ? 0 : 1;
}
