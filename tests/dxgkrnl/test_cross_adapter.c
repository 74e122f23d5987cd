/* Two adapters in one process and cross-adapter resources (issue 6, seed 003, docs/semantics.md
 * §6.5): WDDM_ADAPTER_COUNT=2 starts two reference adapters (each its own KMD instance and
 * software GPU); a resource created CrossAdapter on one is opened with D3DKMTOpenResource on
 * the other, and both GPUs reach the same system pages through their own apertures. Every
 * listed property, each tier's refusals, each verifier refusal and the pages' lifetime. */
/* rule: kernel.d3dkmtcreateallocation-createshared-2 */
/* rule: kernel.d3dkmtopenresource-numallocations (its short buffer: changed to `STATUS_NO_MEMORY`) */
#include "real_env.h"

#include <dxgiformat.h>

#include "dxgkrnl/objects/objects.h"
#include "kmd/kmd.h"

#define APERTURE_BIT (1u << (SWKMD_SEGMENT_APERTURE - 1))

static void close_pair(struct renv *a, struct renv *b)
{
    renv_close(a);
    renv_close(b);
}

struct xa {
    D3DKMT_HANDLE alloc, res, share;
    struct swgpu_alloc_private priv; /* with the KMD's layout */
};

static NTSTATUS xa_try_create(struct renv *e, UINT32 w, UINT32 h, UINT32 bpp, UINT32 format, UINT32 usage,
                              D3DKMT_CREATEALLOCATIONFLAGS flags, struct xa *out)
{
    memset(out, 0, sizeof *out);
    out->priv = (struct swgpu_alloc_private){ .magic = SWGPU_PRIVATE_MAGIC, .version = SWGPU_PRIVATE_VERSION,
                                              .kind = SWGPU_ALLOC_CROSS_ADAPTER, .format = format, .dimension = 3,
                                              .width = w, .height = h, .depth = 1, .mip_levels = 1,
                                              .array_size = 1, .xa_usage = usage, .xa_bytes_per_pixel = bpp };
    D3DDDI_ALLOCATIONINFO ai = { .pPrivateDriverData = &out->priv, .PrivateDriverDataSize = sizeof out->priv };
    D3DKMT_CREATEALLOCATION ca = { .hDevice = e->device, .NumAllocations = 1, .pAllocationInfo = &ai,
                                   .Flags = flags };
    NTSTATUS st = D3DKMTCreateAllocation(&ca);
    out->alloc = ai.hAllocation;
    out->res = ca.hResource;
    out->share = ca.hGlobalShare;
    return st;
}

static D3DKMT_CREATEALLOCATIONFLAGS xa_flags(void)
{
    D3DKMT_CREATEALLOCATIONFLAGS f = { 0 };
    f.CreateResource = 1;
    f.CreateShared = 1;
    f.CrossAdapter = 1;
    return f;
}

static void xa_create(struct renv *e, UINT32 w, UINT32 h, struct xa *out)
{
    assert_int_equal(xa_try_create(e, w, h, 4, DXGI_FORMAT_B8G8R8A8_UNORM, SWGPU_XA_USAGE_COPY, xa_flags(), out),
                     STATUS_SUCCESS);
    assert_int_not_equal(out->share, 0);
}

static NTSTATUS xa_try_open(struct renv *e, D3DKMT_HANDLE share, struct xa *out)
{
    memset(out, 0, sizeof *out);
    D3DKMT_QUERYRESOURCEINFO q = { .hDevice = e->device, .hGlobalShare = share };
    NTSTATUS st = D3DKMTQueryResourceInfo(&q);
    if (!NT_SUCCESS(st))
        return st;
    assert_int_equal(q.NumAllocations, 1);
    assert_int_equal(q.TotalPrivateDriverDataSize, sizeof out->priv);
    UINT8 total[sizeof out->priv];
    D3DDDI_OPENALLOCATIONINFO oi = { 0 };
    D3DKMT_OPENRESOURCE o = { .hDevice = e->device, .hGlobalShare = share, .NumAllocations = 1,
                              .pOpenAllocationInfo = &oi, .pTotalPrivateDriverDataBuffer = total,
                              .TotalPrivateDriverDataBufferSize = sizeof total };
    st = D3DKMTOpenResource(&o);
    if (!NT_SUCCESS(st))
        return st;
    assert_int_not_equal(oi.hAllocation, 0);
    assert_int_equal(oi.PrivateDriverDataSize, sizeof out->priv);
    memcpy(&out->priv, oi.pPrivateDriverData, sizeof out->priv);
    out->alloc = oi.hAllocation;
    out->res = o.hResource;
    out->share = share;
    return STATUS_SUCCESS;
}

static void xa_destroy(struct renv *e, const struct xa *x)
{
    D3DKMT_DESTROYALLOCATION da = { .hDevice = e->device, .hResource = x->res };
    assert_int_equal(D3DKMTDestroyAllocation(&da), STATUS_SUCCESS);
}

/* Waits until the GPU's writes of an allocation are done (a lock waits for them) and checks
 * the bytes the CPU sees there. */
static void settle_and_check_cpu(struct renv *e, D3DKMT_HANDLE a, UINT32 size, uint32_t seed)
{
    void *p;
    assert_int_equal(renv_lock(e, a, LOCK_READONLY, &p), STATUS_SUCCESS);
    UINT8 *want = malloc(size);
    assert_non_null(want);
    renv_pattern(want, size, seed);
    assert_memory_equal(p, want, size);
    free(want);
    renv_unlock(e, a);
}

static struct dxgk_allocation *kernel_alloc(D3DKMT_HANDLE h)
{
    struct dxgk_allocation *al = (struct dxgk_allocation *)dxgk_handle_get(h, DXGK_TYPE_ALLOCATION);
    assert_non_null(al);
    return al;
}

/* ---- two adapters ------------------------------------------------------------------------ */

/* rule: kernel.wddm-adapter-count-starts-many-reference */
static void adapter_count_two_starts_two_adapters_with_distinct_luids(void **state)
{
    (void)state;
    D3DKMT_ADAPTERINFO info[4];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
    assert_int_equal(en.NumAdapters, 2);
    assert_false(info[0].AdapterLuid.LowPart == info[1].AdapterLuid.LowPart &&
                 info[0].AdapterLuid.HighPart == info[1].AdapterLuid.HighPart);
    /* Each LUID opens its own adapter; each has its own segments (its own software GPU). */
    for (int i = 0; i < 2; i++) {
        D3DKMT_OPENADAPTERFROMLUID ol = { .AdapterLuid = info[i].AdapterLuid };
        assert_int_equal(D3DKMTOpenAdapterFromLuid(&ol), STATUS_SUCCESS);
        struct dxgk_adapter *x = dxgk_adapter_get(ol.hAdapter), *y = dxgk_adapter_get(info[i].hAdapter);
        assert_ptr_equal(x, y);
        dxgk_adapter_put(x);
        dxgk_adapter_put(y);
        D3DKMT_CLOSEADAPTER c = { .hAdapter = ol.hAdapter };
        assert_int_equal(D3DKMTCloseAdapter(&c), STATUS_SUCCESS);
    }
    struct dxgk_adapter *a0 = dxgk_adapter_get(info[0].hAdapter), *a1 = dxgk_adapter_get(info[1].hAdapter);
    assert_ptr_not_equal(a0, a1);
    assert_ptr_not_equal(a0->miniport, a1->miniport); /* two KMD instances */
    dxgk_adapter_put(a0);
    dxgk_adapter_put(a1);
    for (int i = 0; i < 2; i++) {
        D3DKMT_CLOSEADAPTER c = { .hAdapter = info[i].hAdapter };
        assert_int_equal(D3DKMTCloseAdapter(&c), STATUS_SUCCESS);
    }
}

/* rule: kernel.bad-wddm-adapter-count-fails-enumeration */
/* An adapter stops when nothing holds it, and the next enumeration starts it again under the
 * same LUID, even while another adapter is still held (a device on adapter 0 does not hide
 * adapter 1 from a later D3DKMTEnumAdapters2). */
/* rule: kernel.adapter-stopped-unheld-restarted-same-luid */
static void an_unheld_adapter_is_started_again_while_another_is_held(void **state)
{
    (void)state;
    D3DKMT_ADAPTERINFO info[4], again[4];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
    assert_int_equal(en.NumAdapters, 2);
    D3DKMT_CLOSEADAPTER c = { .hAdapter = info[1].hAdapter };
    assert_int_equal(D3DKMTCloseAdapter(&c), STATUS_SUCCESS); /* adapter 1 stops: nothing holds it */
    D3DKMT_ENUMADAPTERS2 en2 = { .NumAdapters = 4, .pAdapters = again };
    assert_int_equal(D3DKMTEnumAdapters2(&en2), STATUS_SUCCESS); /* adapter 0 still held by info[0] */
    assert_int_equal(en2.NumAdapters, 2);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(again[i].AdapterLuid.LowPart, info[i].AdapterLuid.LowPart);
        assert_int_equal(again[i].AdapterLuid.HighPart, info[i].AdapterLuid.HighPart);
    }
    struct dxgk_adapter *a0 = dxgk_adapter_get(info[0].hAdapter), *b0 = dxgk_adapter_get(again[0].hAdapter);
    assert_ptr_equal(a0, b0); /* the held one is the same adapter */
    dxgk_adapter_put(a0);
    dxgk_adapter_put(b0);
    for (int i = 0; i < 2; i++) {
        c.hAdapter = again[i].hAdapter;
        assert_int_equal(D3DKMTCloseAdapter(&c), STATUS_SUCCESS);
    }
    c.hAdapter = info[0].hAdapter;
    assert_int_equal(D3DKMTCloseAdapter(&c), STATUS_SUCCESS);
}

static void adapter_count_out_of_range_is_refused_with_a_line(void **state)
{
    (void)state;
    const char *bad[] = { "0", "5", "two", "-1" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        setenv("WDDM_ADAPTER_COUNT", bad[i], 1);
        wddm_clear_refusals();
        D3DKMT_ADAPTERINFO info[4];
        D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
        assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_INVALID_PARAMETER);
        renv_expect_refusal("WDDM_ADAPTER_COUNT");
    }
    setenv("WDDM_ADAPTER_COUNT", "2", 1);
}

/* ---- data across adapters ---------------------------------------------------------------- */

/* Seed 003 / issue 6: render (copy) on A into the cross-adapter resource, read on B. */
/* rule: kernel.gpu-copy-adapter-cross-adapter-resource */
/* rule: kernel.d3dkmtqueryresourceinfo */
static void copy_on_a_is_read_by_a_gpu_copy_on_b(void **state)
{
    (void)state;
    struct renv a, b;
    renv_open_pair(&a, &b);
    struct xa made, opened;
    xa_create(&a, 300, 50, &made);
    assert_int_equal(xa_try_open(&b, made.share, &opened), STATUS_SUCCESS);
    UINT32 size = (UINT32)made.priv.size;
    D3DKMT_HANDLE upload = renv_alloc(&a, SWGPU_ALLOC_UPLOAD, size);
    D3DKMT_HANDLE readback = renv_alloc(&b, SWGPU_ALLOC_READBACK, size);
    renv_gpu_write(&a, made.alloc, upload, size, 31);
    settle_and_check_cpu(&a, made.alloc, size, 31); /* A's GPU wrote it (cross-adapter sync: the app's) */
    renv_gpu_check(&b, opened.alloc, readback, size, 31);
    xa_destroy(&b, &opened);
    xa_destroy(&a, &made);
    close_pair(&a, &b);
}

/* The reverse: the opener (B) writes with its GPU, the creator (A) reads with its GPU. */
/* rule: kernel.gpu-copy-adapter-cross-adapter-resource */
static void copy_on_b_into_the_opened_resource_is_read_by_a(void **state)
{
    (void)state;
    struct renv a, b;
    renv_open_pair(&a, &b);
    struct xa made, opened;
    xa_create(&a, 64, 64, &made);
    assert_int_equal(xa_try_open(&b, made.share, &opened), STATUS_SUCCESS);
    UINT32 size = (UINT32)made.priv.size;
    D3DKMT_HANDLE upload = renv_alloc(&b, SWGPU_ALLOC_UPLOAD, size);
    D3DKMT_HANDLE readback = renv_alloc(&a, SWGPU_ALLOC_READBACK, size);
    renv_gpu_write(&b, opened.alloc, upload, size, 77);
    settle_and_check_cpu(&b, opened.alloc, size, 77);
    renv_gpu_check(&a, made.alloc, readback, size, 77);
    xa_destroy(&a, &made);
    xa_destroy(&b, &opened);
    close_pair(&a, &b);
}

/* ---- layout and properties --------------------------------------------------------------- */

/* rule: kmd.row-pitch-smallest-multiple-d3dkmt-cross */
/* rule: kmd.aperture-segment-only-cpu-visible-write */
static void layout_is_pitch_128_height_4_page_aligned_aperture_only_on_both_adapters(void **state)
{
    (void)state;
    struct renv a, b;
    renv_open_pair(&a, &b);
    /* 33 px * 4 B = 132 B -> 256; 5 rows -> 8; 2048 B -> one page. 1000 px * 3 B = 3000 -> 3072,
     * 3 rows -> 4: 12288 B, three pages. 32 px * 4 B = 128 exactly, 4 rows exactly. */
    const struct { UINT32 w, h, bpp, pitch, rows; UINT64 size; } cases[] = {
        { 33, 5, 4, 256, 8, 4096 }, { 1000, 3, 3, 3072, 4, 12288 }, { 32, 4, 4, 128, 4, 4096 },
        { 1920, 1081, 4, 7680, 1084, 8327168 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct xa made, opened;
        assert_int_equal(xa_try_create(&a, cases[i].w, cases[i].h, cases[i].bpp, DXGI_FORMAT_UNKNOWN,
                                       SWGPU_XA_USAGE_COPY, xa_flags(), &made),
                         STATUS_SUCCESS);
        assert_int_equal(made.priv.xa_row_pitch % D3DKMT_CROSS_ADAPTER_RESOURCE_PITCH_ALIGNMENT, 0);
        assert_int_equal(made.priv.xa_height % D3DKMT_CROSS_ADAPTER_RESOURCE_HEIGHT_ALIGNMENT, 0);
        assert_int_equal(made.priv.xa_row_pitch, cases[i].pitch); /* the smallest multiple */
        assert_int_equal(made.priv.xa_height, cases[i].rows);
        assert_int_equal(made.priv.size, cases[i].size);
        assert_int_equal(xa_try_open(&b, made.share, &opened), STATUS_SUCCESS);
        assert_int_equal(opened.priv.xa_row_pitch, cases[i].pitch);
        struct dxgk_allocation *x = kernel_alloc(made.alloc), *y = kernel_alloc(opened.alloc);
        const struct dxgk_allocation *both[2] = { x, y };
        for (int k = 0; k < 2; k++) {
            const DXGK_ALLOCATIONINFO *in = &both[k]->info;
            assert_int_equal(in->SupportedWriteSegmentSet, APERTURE_BIT);
            assert_int_equal(in->SupportedReadSegmentSet | in->SupportedWriteSegmentSet, APERTURE_BIT);
            assert_int_equal(in->Flags.CpuVisible, 1);
            assert_int_equal(in->Flags.Cached, 0); /* write-combined */
            assert_int_equal(in->Alignment % DXGK_PAGE_SIZE, 0);
            assert_int_equal(in->Size, cases[i].size);
            assert_int_equal((uintptr_t)both[k]->first.backing % DXGK_PAGE_SIZE, 0); /* page-aligned start */
        }
        /* One set of pages, two adapters. */
        assert_ptr_equal(x->first.backing, y->first.backing);
        dxgk_object_put(&x->obj);
        dxgk_object_put(&y->obj);
        xa_destroy(&b, &opened);
        xa_destroy(&a, &made);
    }
    close_pair(&a, &b);
}

/* rule: kernel.cross-adapter-resource-created-shared */
static void creation_needs_shared_resource_and_one_allocation(void **state)
{
    (void)state;
    struct renv a, b;
    renv_open_pair(&a, &b);
    struct xa x;
    D3DKMT_CREATEALLOCATIONFLAGS f = xa_flags();
    f.CreateShared = 0;
    wddm_clear_refusals();
    assert_int_equal(xa_try_create(&a, 16, 16, 4, 0, SWGPU_XA_USAGE_COPY, f, &x), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("CreateShared");
    /* Two allocations in one cross-adapter resource. */
    struct swgpu_alloc_private p[2];
    D3DDDI_ALLOCATIONINFO ai[2];
    for (int i = 0; i < 2; i++) {
        p[i] = (struct swgpu_alloc_private){ .magic = SWGPU_PRIVATE_MAGIC, .version = SWGPU_PRIVATE_VERSION,
                                             .kind = SWGPU_ALLOC_CROSS_ADAPTER, .width = 16, .height = 16,
                                             .xa_usage = SWGPU_XA_USAGE_COPY, .xa_bytes_per_pixel = 4 };
        ai[i] = (D3DDDI_ALLOCATIONINFO){ .pPrivateDriverData = &p[i], .PrivateDriverDataSize = sizeof p[i] };
    }
    D3DKMT_CREATEALLOCATION ca = { .hDevice = a.device, .NumAllocations = 2, .pAllocationInfo = ai, .Flags = xa_flags() };
    wddm_clear_refusals();
    assert_int_equal(D3DKMTCreateAllocation(&ca), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("exactly one allocation");
    close_pair(&a, &b);
}

/* ---- tiers ------------------------------------------------------------------------------- */

static void expect_create(struct renv *a, UINT32 w, UINT32 h, UINT32 format, UINT32 usage, NTSTATUS want,
                          const char *needle)
{
    struct xa x;
    wddm_clear_refusals();
    UINT32 bpp = format == DXGI_FORMAT_R16G16B16A16_FLOAT ? 8 : 4;
    NTSTATUS st = xa_try_create(a, w, h, bpp, format, usage, xa_flags(), &x);
    assert_int_equal(st, want);
    if (NT_SUCCESS(st))
        xa_destroy(a, &x);
    else
        renv_expect_refusal(needle);
}

/* rule: kernel.tier-0-no-cross-adapter-resource */
static void tier_0_refuses_every_cross_adapter_resource(void **state)
{
    (void)state;
    renv_caps("DXGK_VIDMMCAPS.CrossAdapterResource = 0\n");
    struct renv a, b;
    renv_open_pair(&a, &b);
    expect_create(&a, 16, 16, DXGI_FORMAT_B8G8R8A8_UNORM, SWGPU_XA_USAGE_COPY, STATUS_NOT_SUPPORTED,
                  "DXGK_VIDMMCAPS.CrossAdapterResource");
    close_pair(&a, &b);
    renv_caps_remove();
}

/* rule: kmd.tier-1-copy-usage-only-texture */
static void tier_1_copies_only(void **state)
{
    (void)state;
    struct renv a, b;
    renv_open_pair(&a, &b); /* the reference KMD's default: tier 1 */
    expect_create(&a, 16, 16, DXGI_FORMAT_B8G8R8A8_UNORM, SWGPU_XA_USAGE_COPY, STATUS_SUCCESS, NULL);
    expect_create(&a, 16, 16, DXGI_FORMAT_B8G8R8A8_UNORM, SWGPU_XA_USAGE_COPY | SWGPU_XA_USAGE_TEXTURE,
                  STATUS_NOT_SUPPORTED, "DXGK_VIDMMCAPS.CrossAdapterResourceTexture");
    expect_create(&a, 16, 16, DXGI_FORMAT_B8G8R8A8_UNORM, SWGPU_XA_USAGE_SCANOUT, STATUS_NOT_SUPPORTED,
                  "DXGK_VIDMMCAPS.CrossAdapterResourceScanout");
    close_pair(&a, &b);
}

/* Tier 2 used for real, as far as this GPU reads textures (it has no sampler): the other adapter's
 * GPU reads a texture-usage resource as a 2-D texture, row by row at the row pitch both KMDs
 * agreed on (D3DKMT_CROSS_ADAPTER_RESOURCE_PITCH_ALIGNMENT), into a tightly packed READBACK. */
static void other_adapter_reads_the_texture_rows(struct renv *a, struct renv *b, UINT32 w, UINT32 h)
{
    struct xa made, opened;
    assert_int_equal(xa_try_create(a, w, h, 4, DXGI_FORMAT_B8G8R8A8_UNORM, SWGPU_XA_USAGE_TEXTURE, xa_flags(), &made),
                     STATUS_SUCCESS);
    assert_int_equal(xa_try_open(b, made.share, &opened), STATUS_SUCCESS);
    UINT32 size = (UINT32)made.priv.size, pitch = made.priv.xa_row_pitch, row = w * 4;
    assert_int_equal(opened.priv.xa_row_pitch, pitch);
    assert_true(pitch > row); /* the rows do not follow each other: the pitch matters */
    D3DKMT_HANDLE upload = renv_alloc(a, SWGPU_ALLOC_UPLOAD, size);
    renv_gpu_write(a, made.alloc, upload, size, 41);
    settle_and_check_cpu(a, made.alloc, size, 41);
    D3DKMT_HANDLE rb = renv_alloc(b, SWGPU_ALLOC_READBACK, row * h);
    struct swgpu_cmd_copy c = swgpu_cmd_copy_bytes(row);
    c.rows = h;
    c.dst.row_pitch = row;
    c.src.row_pitch = pitch;
    memcpy(b->cc.pCommandBuffer, &c, sizeof c);
    b->cc.pAllocationList[0] = (D3DDDI_ALLOCATIONLIST){ .hAllocation = rb, .WriteOperation = 1 };
    b->cc.pAllocationList[1] = (D3DDDI_ALLOCATIONLIST){ .hAllocation = opened.alloc };
    b->cc.pPatchLocationList[0] = (D3DDDI_PATCHLOCATIONLIST){
        .AllocationIndex = 0, .PatchOffset = (UINT)offsetof(struct swgpu_cmd_copy, dst.addr) };
    b->cc.pPatchLocationList[1] = (D3DDDI_PATCHLOCATIONLIST){
        .AllocationIndex = 1, .PatchOffset = (UINT)offsetof(struct swgpu_cmd_copy, src.addr) };
    D3DKMT_RENDER r = { .hContext = b->context, .CommandLength = sizeof c, .AllocationCount = 2,
                        .PatchLocationCount = 2 };
    assert_int_equal(D3DKMTRender(&r), STATUS_SUCCESS);
    UINT8 *want = malloc(size);
    assert_non_null(want);
    renv_pattern(want, size, 41);
    void *p;
    assert_int_equal(renv_lock(b, rb, LOCK_READONLY, &p), STATUS_SUCCESS);
    for (UINT32 y = 0; y < h; y++)
        if (memcmp((const UINT8 *)p + (size_t)y * row, want + (size_t)y * pitch, row))
            fail_msg("row %u of the texture read on the other adapter differs", y);
    renv_unlock(b, rb);
    free(want);
    xa_destroy(b, &opened);
    xa_destroy(a, &made);
}

/* rule: kmd.tier-2-texture-usage-accepted-scan */
static void tier_2_textures_but_does_not_scan_out(void **state)
{
    (void)state;
    renv_caps("DXGK_VIDMMCAPS.CrossAdapterResourceTexture = 1\n");
    struct renv a, b;
    renv_open_pair(&a, &b);
    expect_create(&a, 16, 16, DXGI_FORMAT_B8G8R8A8_UNORM, SWGPU_XA_USAGE_TEXTURE, STATUS_SUCCESS, NULL);
    expect_create(&a, 16, 16, DXGI_FORMAT_B8G8R8A8_UNORM, SWGPU_XA_USAGE_SCANOUT, STATUS_NOT_SUPPORTED,
                  "DXGK_VIDMMCAPS.CrossAdapterResourceScanout");
    other_adapter_reads_the_texture_rows(&a, &b, 100, 20);
    close_pair(&a, &b);
    renv_caps_remove();
}

/* rule: kmd.tier-3-scan-out-seven-listed */
static void tier_3_scans_out_listed_formats_at_1920x1080_and_beyond(void **state)
{
    (void)state;
    renv_caps("DXGK_VIDMMCAPS.CrossAdapterResourceTexture = 1\nDXGK_VIDMMCAPS.CrossAdapterResourceScanout = 1\n");
    setenv("WDDM_SEGMENT_APERTURE_MB", "32", 1); /* a 1920x1080 surface */
    struct renv a, b;
    renv_open_pair(&a, &b);
    const UINT32 listed[] = { DXGI_FORMAT_R16G16B16A16_FLOAT, DXGI_FORMAT_R10G10B10A2_UNORM,
                              DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB,
                              DXGI_FORMAT_B8G8R8A8_UNORM, DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM,
                              DXGI_FORMAT_B8G8R8A8_UNORM_SRGB };
    for (size_t i = 0; i < sizeof listed / sizeof listed[0]; i++)
        expect_create(&a, 64, 64, listed[i], SWGPU_XA_USAGE_SCANOUT, STATUS_SUCCESS, NULL);
    /* 1920x1080 is the minimum tier 3 must scan out (seed 003), not a maximum: the reference KMD
     * scans out larger surfaces too (issue 20 §5). */
    expect_create(&a, 1920, 1080, DXGI_FORMAT_B8G8R8A8_UNORM, SWGPU_XA_USAGE_SCANOUT, STATUS_SUCCESS, NULL);
    expect_create(&a, 1921, 1080, DXGI_FORMAT_B8G8R8A8_UNORM, SWGPU_XA_USAGE_SCANOUT, STATUS_SUCCESS, NULL);
    expect_create(&a, 2560, 1440, DXGI_FORMAT_B8G8R8A8_UNORM, SWGPU_XA_USAGE_SCANOUT, STATUS_SUCCESS, NULL);
    expect_create(&a, 64, 64, DXGI_FORMAT_R32_FLOAT, SWGPU_XA_USAGE_SCANOUT, STATUS_NOT_SUPPORTED,
                  "DisplayScanOut format");
    /* The same surface for copies only is not held to the scan-out list. */
    expect_create(&a, 64, 64, DXGI_FORMAT_R32_FLOAT, SWGPU_XA_USAGE_COPY, STATUS_SUCCESS, NULL);
    close_pair(&a, &b);
    setenv("WDDM_SEGMENT_APERTURE_MB", "4", 1);
    renv_caps_remove();
}

/* ---- the verifier: a KMD that breaks one property ---------------------------------------- */

static atomic_int breakage;

static NTSTATUS APIENTRY wrap_create_allocation(const HANDLE h, DXGKARG_CREATEALLOCATION *args)
{
    NTSTATUS st = SwKmdCreateAllocation(h, args);
    if (!NT_SUCCESS(st))
        return st;
    DXGK_ALLOCATIONINFO *i = &args->pAllocationInfo[0];
    switch (atomic_load(&breakage)) {
    case 1: /* local memory too */
        i->SupportedWriteSegmentSet |= 1u << (SWKMD_SEGMENT_LOCAL - 1);
        break;
    case 2:
        i->Flags.CpuVisible = 0;
        break;
    case 3:
        i->Flags.Cached = 1;
        break;
    case 4:
        i->Alignment = 64;
        break;
    case 5:
        i->Size += 128;
        break;
    case 6: /* read from local memory */
        i->SupportedReadSegmentSet |= 1u << (SWKMD_SEGMENT_VISIBLE - 1);
        break;
    default:
        break;
    }
    return st;
}

static NTSTATUS wrap_entry(PDRIVER_OBJECT drv, PVOID reg)
{
    DRIVER_INITIALIZATION_DATA d;
    SwKmdGetDriverInitializationData(&d);
    d.DxgkDdiCreateAllocation = wrap_create_allocation;
    return DxgkInitialize(drv, reg, &d);
}

/* rule: kernel.verifier-refuses-kmd-whose-cross-adapter */
static void verifier_refuses_a_kmd_breaking_each_property(void **state)
{
    (void)state;
    wddm_set_kmd_entry(wrap_entry);
    struct renv a, b;
    renv_open_pair(&a, &b);
    const char *names[] = { NULL, "aperture", "CPU visible", "write-combined", "page aligned", "whole pages",
                            "aperture" };
    for (int k = 1; k <= 6; k++) {
        atomic_store(&breakage, k);
        struct xa x;
        wddm_clear_refusals();
        assert_int_equal(xa_try_create(&a, 16, 16, 4, 0, SWGPU_XA_USAGE_COPY, xa_flags(), &x),
                         STATUS_INVALID_PARAMETER);
        renv_expect_refusal("cross-adapter allocation 0");
        renv_expect_refusal(names[k]);
    }
    /* The same wrapper, unbroken, is accepted (the refusals above are the breakages'). */
    atomic_store(&breakage, 0);
    struct xa x;
    assert_int_equal(xa_try_create(&a, 16, 16, 4, 0, SWGPU_XA_USAGE_COPY, xa_flags(), &x), STATUS_SUCCESS);
    xa_destroy(&a, &x);
    close_pair(&a, &b);
    wddm_set_kmd_entry(NULL);
}

/* ---- opening ----------------------------------------------------------------------------- */

/* rule: kernel.non-shared-allocation-handle-forged */
static void open_refuses_unshared_and_non_cross_adapter_elsewhere(void **state)
{
    (void)state;
    struct renv a, b;
    renv_open_pair(&a, &b);
    struct xa made, x;
    xa_create(&a, 16, 16, &made);
    /* The creator's own adapter opens it too (tests/dxgkrnl/test_share.c: the same memory). */
    assert_int_equal(xa_try_open(&a, made.share, &x), STATUS_SUCCESS);
    xa_destroy(&a, &x);
    /* A plain allocation has no global share: its handle is not one. */
    D3DKMT_HANDLE plain = renv_alloc(&a, SWGPU_ALLOC_UPLOAD, 4096);
    wddm_clear_refusals();
    assert_int_equal(xa_try_open(&b, plain, &x), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("not a global share handle");
    assert_int_equal(xa_try_open(&b, made.share ^ 0x100, &x), STATUS_INVALID_PARAMETER);
    /* Shared, but not cross-adapter (seed 002: a backing store shared with the KMD). */
    struct swgpu_alloc_private p = { .magic = SWGPU_PRIVATE_MAGIC, .version = SWGPU_PRIVATE_VERSION,
                                     .kind = SWGPU_ALLOC_UPLOAD, .size = 4096, .dimension = 1, .width = 4096,
                                     .height = 1, .depth = 1, .mip_levels = 1, .array_size = 1,
                                     .flags = SWGPU_ALLOC_FLAG_SHARE_BACKING_STORE_WITH_KMD };
    D3DDDI_ALLOCATIONINFO ai = { .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p };
    D3DKMT_CREATEALLOCATION ca = { .hDevice = a.device, .NumAllocations = 1, .pAllocationInfo = &ai };
    ca.Flags.CreateShared = 1;
    ca.Flags.CreateResource = 1; /* WDK: CreateShared needs CreateResource (Windows refuses it alone) */
    assert_int_equal(D3DKMTCreateAllocation(&ca), STATUS_SUCCESS);
    assert_int_not_equal(ca.hGlobalShare, 0);
    wddm_clear_refusals();
    assert_int_equal(xa_try_open(&b, ca.hGlobalShare, &x), STATUS_NOT_SUPPORTED);
    renv_expect_refusal("opens only on the adapter that created it");
    /* A too small private-data buffer: STATUS_NO_MEMORY, as Windows answers (Wine win32u d3dkmt
     * tests, run on Windows). */
    D3DDDI_OPENALLOCATIONINFO oi = { 0 };
    UINT8 small[8];
    D3DKMT_OPENRESOURCE o = { .hDevice = b.device, .hGlobalShare = made.share, .NumAllocations = 1,
                              .pOpenAllocationInfo = &oi, .pTotalPrivateDriverDataBuffer = small,
                              .TotalPrivateDriverDataBufferSize = sizeof small };
    assert_int_equal(D3DKMTOpenResource(&o), STATUS_NO_MEMORY);
    o.TotalPrivateDriverDataBufferSize = 0;
    o.NumAllocations = 2;
    assert_int_equal(D3DKMTOpenResource(&o), STATUS_INVALID_PARAMETER);
    xa_destroy(&a, &made);
    close_pair(&a, &b);
}

/* ---- lifetime ---------------------------------------------------------------------------- */

/* The pages live until the creator and every opener destroyed theirs: with the creator gone
 * (its device too), the opener still reads the content with its GPU; destroying the opener
 * then frees them (ASan: nothing leaks, nothing is read after free). */
/* rule: kernel.shared-pages-live-until-creator-every */
static void creator_destroyed_first_the_opener_still_reads(void **state)
{
    (void)state;
    struct renv a, b;
    renv_open_pair(&a, &b);
    struct xa made, opened, second;
    xa_create(&a, 128, 40, &made);
    assert_int_equal(xa_try_open(&b, made.share, &opened), STATUS_SUCCESS);
    assert_int_equal(xa_try_open(&b, made.share, &second), STATUS_SUCCESS); /* two openers */
    UINT32 size = (UINT32)made.priv.size;
    D3DKMT_HANDLE upload = renv_alloc(&a, SWGPU_ALLOC_UPLOAD, size);
    renv_gpu_write(&a, made.alloc, upload, size, 5);
    settle_and_check_cpu(&a, made.alloc, size, 5);
    xa_destroy(&a, &made);
    renv_close(&a); /* the creator's device and adapter handle: adapter A stops */
    D3DKMT_HANDLE readback = renv_alloc(&b, SWGPU_ALLOC_READBACK, size);
    renv_gpu_check(&b, opened.alloc, readback, size, 5);
    xa_destroy(&b, &opened);
    renv_gpu_check(&b, second.alloc, readback, size, 5);
    /* The global share is gone with the last one. */
    xa_destroy(&b, &second);
    struct xa x;
    wddm_clear_refusals();
    assert_int_equal(xa_try_open(&b, made.share, &x), STATUS_INVALID_PARAMETER);
    renv_close(&b);
}

/* rule: kernel.shared-pages-live-until-creator-every (ASan: no leak, no use after free) */
static void opener_destroyed_first_the_creator_keeps_its_content(void **state)
{
    (void)state;
    struct renv a, b;
    renv_open_pair(&a, &b);
    struct xa made, opened;
    xa_create(&a, 64, 8, &made);
    assert_int_equal(xa_try_open(&b, made.share, &opened), STATUS_SUCCESS);
    UINT32 size = (UINT32)made.priv.size;
    D3DKMT_HANDLE upload = renv_alloc(&b, SWGPU_ALLOC_UPLOAD, size);
    renv_gpu_write(&b, opened.alloc, upload, size, 9);
    settle_and_check_cpu(&b, opened.alloc, size, 9);
    close_pair(&b, &a); /* B's device destroys the opened one; then A's */
    (void)made;
}

/* ---- the GpuMmu model (issue 6): both adapters address the resource through GPU VAs ---- */

#define VA_BYTES 8192u

static void gpu_va_copy(struct renv *e, D3DKMT_HANDLE cmd, D3DGPU_VIRTUAL_ADDRESS cmd_va, D3DGPU_VIRTUAL_ADDRESS dst,
                    D3DGPU_VIRTUAL_ADDRESS src)
{
    UINT8 *p = renv_lock2(e->device, cmd);
    UINT len = renv_va_copy_cmd(p, dst, src, VA_BYTES);
    renv_unlock2(e->device, cmd);
    assert_int_equal(renv_submit(e->context, cmd_va, len), STATUS_SUCCESS);
    renv_finish(e->device, e->context);
}

/* rule: kernel.gpummu-model-too-creator-maps-cross */
static void gpummu_copy_on_a_through_va_is_read_through_va_on_b(void **state)
{
    (void)state;
    renv_gpummu_caps(NULL); /* WDDM 2.0 GpuMmu on both adapters, tier 1 by default */
    struct renv a, b;
    renv_open_pair(&a, &b);
    struct xa made, opened;
    xa_create(&a, 512, 4, &made); /* pitch 2048, 4 rows: 8192 bytes */
    assert_int_equal(made.priv.size, VA_BYTES);
    assert_int_equal(xa_try_open(&b, made.share, &opened), STATUS_SUCCESS);

    D3DKMT_HANDLE cmd_a = renv_alloc(&a, SWGPU_ALLOC_UPLOAD, 4096), src = renv_alloc(&a, SWGPU_ALLOC_UPLOAD, VA_BYTES);
    D3DKMT_HANDLE list_a[3] = { cmd_a, src, made.alloc };
    assert_true(NT_SUCCESS(renv_make_resident(a.device, list_a, 3)));
    D3DGPU_VIRTUAL_ADDRESS cmd_a_va = renv_map(a.device, cmd_a, 1, false);
    D3DGPU_VIRTUAL_ADDRESS src_va = renv_map(a.device, src, VA_BYTES / 4096, false);
    D3DGPU_VIRTUAL_ADDRESS xa_a_va = renv_map(a.device, made.alloc, VA_BYTES / 4096, true);
    void *p = renv_lock2(a.device, src);
    renv_pattern(p, VA_BYTES, 23);
    renv_unlock2(a.device, src);
    gpu_va_copy(&a, cmd_a, cmd_a_va, xa_a_va, src_va);

    D3DKMT_HANDLE cmd_b = renv_alloc(&b, SWGPU_ALLOC_UPLOAD, 4096), rb = renv_alloc(&b, SWGPU_ALLOC_READBACK, VA_BYTES);
    D3DKMT_HANDLE list_b[3] = { cmd_b, rb, opened.alloc };
    assert_true(NT_SUCCESS(renv_make_resident(b.device, list_b, 3)));
    D3DGPU_VIRTUAL_ADDRESS cmd_b_va = renv_map(b.device, cmd_b, 1, false);
    D3DGPU_VIRTUAL_ADDRESS rb_va = renv_map(b.device, rb, VA_BYTES / 4096, true);
    D3DGPU_VIRTUAL_ADDRESS xa_b_va = renv_map(b.device, opened.alloc, VA_BYTES / 4096, false);
    gpu_va_copy(&b, cmd_b, cmd_b_va, rb_va, xa_b_va);
    UINT8 want[VA_BYTES];
    renv_pattern(want, VA_BYTES, 23);
    p = renv_lock2(b.device, rb);
    assert_memory_equal(p, want, VA_BYTES);
    renv_unlock2(b.device, rb);
    assert_int_equal(renv_exec_state(a.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    assert_int_equal(renv_exec_state(b.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    close_pair(&a, &b);
    unsetenv("WDDM_KMD_CAPS");
}

/* Destroyed while the paging engine is paused: VidMm unmaps the pages' aperture range
 * (vidmm/placement.c) and holds them until that UNMAP ran, though the global share handle goes
 * with the last allocation at once (an open fails); once it ran, the next free releases them. */
/* rule: vidmm.freeing-aperture-placement-points-range */
static void destroyed_cross_adapter_pages_outlive_the_unmap_of_their_range(void **state)
{
    (void)state;
    struct renv a, b;
    renv_open_pair(&a, &b);
    struct xa made;
    xa_create(&a, 128, 40, &made);
    UINT32 size = (UINT32)made.priv.size;
    void *p;
    assert_int_equal(renv_lock(&a, made.alloc, 0, &p), STATUS_SUCCESS);
    memset(p, 0x6B, size);
    renv_unlock(&a, made.alloc);
    struct dxgk_allocation *al = kernel_alloc(made.alloc);
    struct dxgk_adapter *ad = al->device->adapter;
    pthread_mutex_lock(&ad->lock);
    const UINT8 *pages = al->first.backing;
    pthread_mutex_unlock(&ad->lock);
    dxgk_object_put(&al->obj);
    gsched_wait_node_idle(&ad->node[ad->paging_node]); /* the placement's MAP ran: idle */
    wddm_swgpu_set_paused(1);
    xa_destroy(&a, &made);
    pthread_mutex_lock(&ad->lock);
    bool parked = ad->retiring && ad->retiring->release; /* a hold on the share's pages */
    UINT8 first = pages[0], last = pages[size - 1]; /* still the share's: readable */
    pthread_mutex_unlock(&ad->lock);
    struct xa x;
    wddm_clear_refusals();
    NTSTATUS open = xa_try_open(&b, made.share, &x);
    wddm_swgpu_set_paused(0); /* before any assertion */
    assert_true(parked);
    assert_int_equal(first, 0x6B);
    assert_int_equal(last, 0x6B);
    assert_int_equal(open, STATUS_INVALID_PARAMETER); /* the handle is gone */
    gsched_wait_node_idle(&ad->node[ad->paging_node]);
    renv_free(&a, renv_alloc(&a, SWGPU_ALLOC_GPU_ONLY, 4096)); /* reaps what the GPU is done with */
    pthread_mutex_lock(&ad->lock);
    bool none = ad->retiring == NULL;
    pthread_mutex_unlock(&ad->lock);
    assert_true(none);
    close_pair(&a, &b);
}

int main(void)
{
    setenv("WDDM_ADAPTER_COUNT", "2", 1);
    setenv("WDDM_SEGMENT_LOCAL_MB", "1", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "1", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "4", 1);
    unsetenv("WDDM_KMD_CAPS");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(adapter_count_two_starts_two_adapters_with_distinct_luids),
        cmocka_unit_test(an_unheld_adapter_is_started_again_while_another_is_held),
        cmocka_unit_test(destroyed_cross_adapter_pages_outlive_the_unmap_of_their_range),
        cmocka_unit_test(adapter_count_out_of_range_is_refused_with_a_line),
        cmocka_unit_test(copy_on_a_is_read_by_a_gpu_copy_on_b),
        cmocka_unit_test(copy_on_b_into_the_opened_resource_is_read_by_a),
        cmocka_unit_test(layout_is_pitch_128_height_4_page_aligned_aperture_only_on_both_adapters),
        cmocka_unit_test(creation_needs_shared_resource_and_one_allocation),
        cmocka_unit_test(tier_0_refuses_every_cross_adapter_resource),
        cmocka_unit_test(tier_1_copies_only),
        cmocka_unit_test(tier_2_textures_but_does_not_scan_out),
        cmocka_unit_test(tier_3_scans_out_listed_formats_at_1920x1080_and_beyond),
        cmocka_unit_test(verifier_refuses_a_kmd_breaking_each_property),
        cmocka_unit_test(open_refuses_unshared_and_non_cross_adapter_elsewhere),
        cmocka_unit_test(creator_destroyed_first_the_opener_still_reads),
        cmocka_unit_test(opener_destroyed_first_the_creator_keeps_its_content),
        cmocka_unit_test(gpummu_copy_on_a_through_va_is_read_through_va_on_b),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    renv_caps_remove(); /* also after a failed assertion left a caps file */
    return rc;
}
