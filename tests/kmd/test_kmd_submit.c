/* The reference KMD's submission path (docs/semantics.md §8.1, §8.2, §2): Render validates and
 * copies a user command buffer, Patch writes segment addresses, SubmitCommand runs it on the
 * software GPU, the ISR reports the fence; BuildPagingBuffer's operations and retry protocol. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "kmd/kmd_test_util.h"

/* ---- a UMD-style command buffer ------------------------------------------------------------ */
struct cb {
    BYTE buf[8192];
    UINT32 len;
    D3DDDI_PATCHLOCATIONLIST patch[64];
    UINT32 npatch;
};

static void cb_patch(struct cb *c, UINT32 field, UINT32 alloc_index, UINT32 alloc_offset)
{
    D3DDDI_PATCHLOCATIONLIST *p = &c->patch[c->npatch++];
    memset(p, 0, sizeof(*p));
    p->AllocationIndex = alloc_index;
    p->AllocationOffset = alloc_offset;
    p->PatchOffset = field;
}

static void cb_write(struct cb *c, UINT32 ai, UINT32 off, const void *data, UINT32 n)
{
    struct swgpu_cmd_write w;
    memset(&w, 0, sizeof w);
    w.hdr.opcode = SWGPU_OP_WRITE;
    w.hdr.size_bytes = (UINT32)sizeof w + swgpu_align8(n);
    w.row_bytes = n;
    w.rows = 1;
    w.slices = 1;
    cb_patch(c, c->len + (UINT32)offsetof(struct swgpu_cmd_write, dst.addr), ai, off);
    memcpy(c->buf + c->len, &w, sizeof w);
    memset(c->buf + c->len + sizeof w, 0, swgpu_align8(n));
    memcpy(c->buf + c->len + sizeof w, data, n);
    c->len += w.hdr.size_bytes;
}

static void cb_copy(struct cb *c, UINT32 dai, UINT32 doff, UINT32 sai, UINT32 soff, UINT32 row_bytes, UINT32 rows,
                    UINT32 pitch)
{
    struct swgpu_cmd_copy k;
    memset(&k, 0, sizeof k);
    k.hdr.opcode = SWGPU_OP_COPY;
    k.hdr.size_bytes = sizeof k;
    k.dst.row_pitch = pitch;
    k.src.row_pitch = pitch;
    k.row_bytes = row_bytes;
    k.rows = rows;
    k.slices = 1;
    cb_patch(c, c->len + (UINT32)offsetof(struct swgpu_cmd_copy, dst.addr), dai, doff);
    cb_patch(c, c->len + (UINT32)offsetof(struct swgpu_cmd_copy, src.addr), sai, soff);
    memcpy(c->buf + c->len, &k, sizeof k);
    c->len += sizeof k;
}

static void cb_fill(struct cb *c, UINT32 ai, UINT32 off, UINT32 n, BYTE value)
{
    struct swgpu_cmd_fill f = swgpu_cmd_fill_bytes(n, &value, 1);
    cb_patch(c, c->len + (UINT32)offsetof(struct swgpu_cmd_fill, dst.addr), ai, off);
    memcpy(c->buf + c->len, &f, sizeof f);
    c->len += sizeof f;
}

/* ---- the kernel's side of a submission ------------------------------------------------------- */
static HANDLE g_dev, g_ctx[2];
static BYTE *g_visible;     /* CPU address of segment 2 (QUERYSEGMENT CpuTranslatedAddress) */
static UINT32 g_fence[2];

static void setup_device(void)
{
    assert_int_equal(fk_start(), STATUS_SUCCESS);
    DXGK_QUERYSEGMENTOUT out;
    DXGK_SEGMENTDESCRIPTOR seg[3];
    memset(&out, 0, sizeof out);
    out.pSegmentDescriptor = seg;
    DXGKARG_QUERYADAPTERINFO q = {DXGKQAITYPE_QUERYSEGMENT, NULL, 0, &out, sizeof out, 0, NULL};
    assert_int_equal(fk.ddi.DxgkDdiQueryAdapterInfo(fk.adapter, &q), STATUS_SUCCESS);
    g_visible = (BYTE *)(uintptr_t)seg[1].CpuTranslatedAddress.QuadPart;
    DXGK_DEVICEINFO di;
    DXGKARG_CREATEDEVICE cd;
    memset(&cd, 0, sizeof cd);
    cd.pInfo = &di;
    assert_int_equal(fk.ddi.DxgkDdiCreateDevice(fk.adapter, &cd), STATUS_SUCCESS);
    g_dev = cd.hDevice;
    for (UINT32 n = 0; n < 2; n++) {
        DXGKARG_CREATECONTEXT cc;
        memset(&cc, 0, sizeof cc);
        cc.NodeOrdinal = n;
        assert_int_equal(fk.ddi.DxgkDdiCreateContext(g_dev, &cc), STATUS_SUCCESS);
        g_ctx[n] = cc.hContext;
        g_fence[n] = 0;
    }
}

static void teardown_device(void)
{
    fk.ddi.DxgkDdiDestroyContext(g_ctx[0]);
    fk.ddi.DxgkDdiDestroyContext(g_ctx[1]);
    fk.ddi.DxgkDdiDestroyDevice(g_dev);
    fk_stop();
}

static DXGK_ALLOCATIONLIST al_entry(HANDLE h, UINT32 segment, UINT64 offset)
{
    DXGK_ALLOCATIONLIST e;
    memset(&e, 0, sizeof e);
    e.hDeviceSpecificAllocation = h;
    e.SegmentId = segment;
    e.PhysicalAddress.QuadPart = segment ? (LONGLONG)(SWGPU_SEGMENT_BASE(segment) + offset) : 0;
    return e;
}

static void init_render(DXGKARG_RENDER *r, const struct cb *c, DXGK_ALLOCATIONLIST *al, UINT32 nal, BYTE *dma,
                        UINT32 dma_size, D3DDDI_PATCHLOCATIONLIST *out, UINT32 out_size)
{
    memset(r, 0, sizeof(*r));
    r->pCommand = c->buf;
    r->CommandLength = c->len;
    r->pDmaBuffer = dma;
    r->DmaSize = dma_size;
    r->pAllocationList = al;
    r->AllocationListSize = nal;
    r->pPatchLocationListIn = c->patch;
    r->PatchLocationListInSize = c->npatch;
    r->pPatchLocationListOut = out;
    r->PatchLocationListOutSize = out_size;
    r->DmaBufferPhysicalAddress.QuadPart = (LONGLONG)(uintptr_t)dma;
}

/* Patch + SubmitCommand + wait for the KMD's DMA_COMPLETED, as the scheduler does. */
static UINT32 patch_submit_wait(UINT32 node, BYTE *dma, UINT32 used, const DXGK_ALLOCATIONLIST *al, UINT32 nal,
                                const D3DDDI_PATCHLOCATIONLIST *patches, UINT32 npatch, int paging)
{
    UINT32 fence = ++g_fence[node];
    DXGKARG_PATCH p;
    memset(&p, 0, sizeof p);
    p.pDmaBuffer = dma;
    p.DmaBufferSize = SWKMD_DMA_BUFFER_SIZE;
    p.DmaBufferSubmissionStartOffset = 0;
    p.DmaBufferSubmissionEndOffset = used;
    p.pAllocationList = al;
    p.AllocationListSize = nal;
    p.pPatchLocationList = patches;
    p.PatchLocationListSize = npatch;
    p.PatchLocationListSubmissionStart = 0;
    p.PatchLocationListSubmissionLength = npatch;
    p.SubmissionFenceId = fence;
    p.Flags.Paging = paging ? 1 : 0;
    assert_int_equal(fk.ddi.DxgkDdiPatch(fk.adapter, &p), STATUS_SUCCESS);
    DXGKARG_SUBMITCOMMAND s;
    memset(&s, 0, sizeof s);
    s.DmaBufferPhysicalAddress.QuadPart = (LONGLONG)(uintptr_t)dma;
    s.DmaBufferSize = SWKMD_DMA_BUFFER_SIZE;
    s.DmaBufferSubmissionStartOffset = 0;
    s.DmaBufferSubmissionEndOffset = used;
    s.SubmissionFenceId = fence;
    s.NodeOrdinal = node;
    s.Flags.Paging = paging ? 1 : 0;
    assert_int_equal(fk.ddi.DxgkDdiSubmitCommand(fk.adapter, &s), STATUS_SUCCESS);
    fk_wait_completed(node, fence);
    return fence;
}

/* Render + Patch + Submit of a whole command buffer in one DMA buffer. */
static void render_run(UINT32 node, const struct cb *c, DXGK_ALLOCATIONLIST *al, UINT32 nal)
{
    BYTE *dma = aligned_alloc(4096, SWKMD_DMA_BUFFER_SIZE);
    D3DDDI_PATCHLOCATIONLIST out[64];
    DXGKARG_RENDER r;
    init_render(&r, c, al, nal, dma, SWKMD_DMA_BUFFER_SIZE, out, 64);
    assert_int_equal(fk.ddi.DxgkDdiRender(g_ctx[node], &r), STATUS_SUCCESS);
    UINT32 used = (UINT32)((BYTE *)r.pDmaBuffer - dma);
    assert_int_equal(used, c->len);
    assert_int_equal(SWKMD_DMA_BUFFER_SIZE - r.DmaSize, used);
    UINT32 npatch = (UINT32)(r.pPatchLocationListOut - out);
    assert_int_equal(npatch, c->npatch);
    patch_submit_wait(node, dma, used, al, nal, out, npatch, 0);
    free(dma);
}

/* ---- tests ------------------------------------------------------------------------------------ */
/* rule: kmd.patch-writes-segment-address */
/* rule: kmd.submitcommand-queues-dma-buffer-engine */
/* rule: kmd.isr-reports-dma-completed-via */
static void render_patch_submit_runs_user_commands_and_reports_the_fence(void **state)
{
    setup_device();
    HANDLE a = fk_create_allocation(SWGPU_ALLOC_UPLOAD, 8192, NULL);
    HANDLE b = fk_create_allocation(SWGPU_ALLOC_GPU_ONLY, 8192, NULL);
    /* The kernel placed a at segment 2 + 64 KiB and b at segment 2 + 128 KiB. */
    DXGK_ALLOCATIONLIST al[2] = {al_entry(a, 2, 0x10000), al_entry(b, 2, 0x20000)};
    BYTE data[100];
    for (int i = 0; i < 100; i++)
        data[i] = (BYTE)(i + 9);
    struct cb c = {.len = 0};
    cb_write(&c, 0, 16, data, 100);
    cb_copy(&c, 1, 200, 0, 16, 100, 1, 0);
    cb_fill(&c, 1, 1000, 50, 0x7F);
    UINT32 notifications = fk.notifications;
    render_run(0, &c, al, 2);
    assert_memory_equal(g_visible + 0x10000 + 16, data, 100);
    assert_memory_equal(g_visible + 0x20000 + 200, data, 100);
    for (int i = 0; i < 50; i++)
        assert_int_equal(g_visible[0x20000 + 1000 + i], 0x7F);
    assert_int_equal(g_visible[0x20000 + 1050], 0);
    assert_int_equal(fk_completed(0), 1);
    pthread_mutex_lock(&fk.isr_lock);
    assert_true(fk.notifications > notifications);
    assert_true(fk.dpcs >= 1); /* every notification is followed by a DPC */
    pthread_mutex_unlock(&fk.isr_lock);

    DXGKARG_QUERYCURRENTFENCE q = {0, 0, 0};
    assert_int_equal(fk.ddi.DxgkDdiQueryCurrentFence(fk.adapter, &q), STATUS_SUCCESS);
    assert_int_equal(q.CurrentFence, 1);
    q.NodeOrdinal = 2;
    assert_int_equal(fk.ddi.DxgkDdiQueryCurrentFence(fk.adapter, &q), STATUS_INVALID_PARAMETER);

    fk_destroy_allocation(a);
    fk_destroy_allocation(b);
    teardown_device();
}

static void expect_refused(const struct cb *c, DXGK_ALLOCATIONLIST *al, UINT32 nal)
{
    BYTE *dma = aligned_alloc(4096, SWKMD_DMA_BUFFER_SIZE);
    D3DDDI_PATCHLOCATIONLIST out[64];
    DXGKARG_RENDER r;
    init_render(&r, c, al, nal, dma, SWKMD_DMA_BUFFER_SIZE, out, 64);
    assert_int_equal(fk.ddi.DxgkDdiRender(g_ctx[0], &r), STATUS_INVALID_PARAMETER);
    assert_ptr_equal(r.pDmaBuffer, dma); /* nothing written */
    assert_ptr_equal(r.pPatchLocationListOut, out);
    free(dma);
}

/* rule: kmd.render-validates-every-user-command */
/* rule: kmd.every-address-field-user-command-buffer */
static void render_refuses_invalid_command_buffers(void **state)
{
    setup_device();
    HANDLE a = fk_create_allocation(SWGPU_ALLOC_UPLOAD, 8192, NULL);
    int not_an_allocation[16] = {0};
    DXGK_ALLOCATIONLIST al[2] = {al_entry(a, 2, 0), al_entry((HANDLE)not_an_allocation, 2, 0x4000)};
    const UINT32 v = 1;
    struct cb c;

    /* Opcodes a user buffer may not use. */
    UINT32 forbidden[] = {SWGPU_OP_FENCE, SWGPU_OP_GART_MAP, SWGPU_OP_GART_UNMAP, 42};
    for (int i = 0; i < 4; i++) {
        c = (struct cb){.len = 0};
        struct swgpu_cmd_fence f = {{forbidden[i], sizeof f}, 0x10000, 5};
        memcpy(c.buf, &f, sizeof f);
        c.len = sizeof f;
        expect_refused(&c, al, 2);
    }
    /* Sizes: not a multiple of 8; past the end; COPY of the wrong size. */
    c = (struct cb){.len = 16};
    struct swgpu_cmd_header h = {SWGPU_OP_NOP, 12};
    memcpy(c.buf, &h, sizeof h);
    expect_refused(&c, al, 2);
    h.size_bytes = 24;
    memcpy(c.buf, &h, sizeof h);
    expect_refused(&c, al, 2);
    c = (struct cb){.len = 0};
    cb_copy(&c, 0, 0, 0, 4096, 16, 1, 0);
    ((struct swgpu_cmd_header *)c.buf)->size_bytes = 8;
    expect_refused(&c, al, 2);
    /* A WRITE whose size does not match its payload. */
    c = (struct cb){.len = 0};
    cb_write(&c, 0, 0, &v, 4);
    ((struct swgpu_cmd_write *)c.buf)->row_bytes = 64;
    expect_refused(&c, al, 2);

    /* Address field without a patch entry (the GPU would get a raw address). */
    c = (struct cb){.len = 0};
    cb_write(&c, 0, 0, &v, 4);
    c.npatch = 0;
    expect_refused(&c, al, 2);
    /* Patch entry not on an address field; two entries for one field. */
    c = (struct cb){.len = 0};
    cb_write(&c, 0, 0, &v, 4);
    c.patch[0].PatchOffset = 0;
    expect_refused(&c, al, 2);
    c = (struct cb){.len = 0};
    cb_write(&c, 0, 0, &v, 4);
    cb_patch(&c, c.patch[0].PatchOffset, 0, 0);
    expect_refused(&c, al, 2);
    /* Patch entry past the last command. */
    c = (struct cb){.len = 0};
    cb_write(&c, 0, 0, &v, 4);
    cb_patch(&c, c.len + 8, 0, 0);
    expect_refused(&c, al, 2);
    /* AllocationIndex outside the allocation list. */
    c = (struct cb){.len = 0};
    cb_write(&c, 5, 0, &v, 4);
    expect_refused(&c, al, 2);
    /* Allocation list entry that is not a KMD allocation. */
    c = (struct cb){.len = 0};
    cb_write(&c, 1, 0, &v, 4);
    expect_refused(&c, al, 2);
    /* Regions outside the 8 KiB allocation: past the end; pitched rows past the end. */
    c = (struct cb){.len = 0};
    cb_write(&c, 0, 8190, &v, 4);
    expect_refused(&c, al, 2);
    c = (struct cb){.len = 0};
    cb_copy(&c, 0, 0, 0, 4096, 256, 17, 256); /* source rows reach 4096 + 16*256 + 256 > 8192 */
    expect_refused(&c, al, 2);
    /* Overlapping rows (row_pitch < row_bytes) are refused: GPU work stays bounded. */
    c = (struct cb){.len = 0};
    cb_copy(&c, 0, 0, 0, 4096, 64, 4, 16);
    expect_refused(&c, al, 2);

    /* The exact fit is accepted. */
    c = (struct cb){.len = 0};
    cb_write(&c, 0, 8188, &v, 4);
    render_run(0, &c, al, 1);
    assert_memory_equal(g_visible + 8188, &v, 4);
    fk_destroy_allocation(a);
    teardown_device();
}

/* rule: kmd.render-splits-command-boundaries-short */
/* rule: kmd.multipassoffset-units-bytes-transfer */
/* rule: vidmm.dma-buffer-splitting-packet-whose (SplitOffset values) */
static void render_splits_at_command_boundaries_when_the_dma_buffer_is_short(void **state)
{
    setup_device();
    HANDLE a = fk_create_allocation(SWGPU_ALLOC_GPU_ONLY, 4096, NULL);
    DXGK_ALLOCATIONLIST al[1] = {al_entry(a, 2, 0x8000)};
    struct cb c = {.len = 0};
    const UINT64 v[3] = {0x1111111111111111ull, 0x2222222222222222ull, 0x3333333333333333ull};
    for (int i = 0; i < 3; i++)
        cb_write(&c, 0, (UINT32)(i * 8), &v[i], 8); /* 48 bytes each */
    const UINT32 cmd = sizeof(struct swgpu_cmd_write) + 8;

    BYTE *dma = aligned_alloc(4096, SWKMD_DMA_BUFFER_SIZE);
    D3DDDI_PATCHLOCATIONLIST out[8];
    DXGKARG_RENDER r;
    init_render(&r, &c, al, 1, dma, 2 * cmd + 10, out, 8);
    assert_int_equal(fk.ddi.DxgkDdiRender(g_ctx[0], &r), STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER);
    assert_int_equal(r.MultipassOffset, 2 * cmd);
    assert_int_equal((BYTE *)r.pDmaBuffer - dma, 2 * cmd);
    assert_int_equal(r.pPatchLocationListOut - out, 2);
    assert_int_equal(out[1].PatchOffset, cmd + 8);
    /* Each entry's SplitOffset is the start of its command in the DMA buffer: VidMm may split
     * there (docs/semantics.md §9.1). */
    assert_int_equal(out[0].SplitOffset, 0);
    assert_int_equal(out[1].SplitOffset, cmd);
    patch_submit_wait(0, dma, 2 * cmd, al, 1, out, 2, 0);

    /* The kernel calls again with a fresh DMA buffer and the same MultipassOffset. */
    UINT32 mp = r.MultipassOffset;
    init_render(&r, &c, al, 1, dma, SWKMD_DMA_BUFFER_SIZE, out, 8);
    r.MultipassOffset = mp;
    assert_int_equal(fk.ddi.DxgkDdiRender(g_ctx[0], &r), STATUS_SUCCESS);
    assert_int_equal((BYTE *)r.pDmaBuffer - dma, cmd);
    assert_int_equal(r.pPatchLocationListOut - out, 1);
    assert_int_equal(out[0].PatchOffset, 8); /* relative to the new buffer */
    assert_int_equal(out[0].SplitOffset, 0);
    patch_submit_wait(0, dma, cmd, al, 1, out, 1, 0);
    assert_memory_equal(g_visible + 0x8000, v, sizeof v);

    /* A MultipassOffset that is not a command boundary is refused. */
    init_render(&r, &c, al, 1, dma, SWKMD_DMA_BUFFER_SIZE, out, 8);
    r.MultipassOffset = 8;
    assert_int_equal(fk.ddi.DxgkDdiRender(g_ctx[0], &r), STATUS_INVALID_PARAMETER);
    free(dma);
    fk_destroy_allocation(a);
    teardown_device();
}

/* rule: kmd.render-validates-every-user-command */
/* rule: kmd.render-splits-command-boundaries-short */
static void render_accepts_patch_lists_in_any_order_and_splits_on_a_full_patch_list(void **state)
{
    setup_device();
    HANDLE a = fk_create_allocation(SWGPU_ALLOC_UPLOAD, 8192, NULL);
    DXGK_ALLOCATIONLIST al[1] = {al_entry(a, 2, 0x9000)};
    struct cb c = {.len = 0};
    const UINT32 v[4] = {10, 20, 30, 40};
    for (int i = 0; i < 4; i++)
        cb_write(&c, 0, (UINT32)(i * 4), &v[i], 4);
    cb_copy(&c, 0, 4096, 0, 0, 16, 1, 0);
    /* Reverse the patch list: the KMD may not assume the UMD's order. */
    for (UINT32 i = 0; i < c.npatch / 2; i++) {
        D3DDDI_PATCHLOCATIONLIST t = c.patch[i];
        c.patch[i] = c.patch[c.npatch - 1 - i];
        c.patch[c.npatch - 1 - i] = t;
    }
    BYTE *dma = aligned_alloc(4096, SWKMD_DMA_BUFFER_SIZE);
    D3DDDI_PATCHLOCATIONLIST out[8];
    DXGKARG_RENDER r;
    /* Room for 3 output patch entries: the 4th WRITE waits for the next pass. */
    init_render(&r, &c, al, 1, dma, SWKMD_DMA_BUFFER_SIZE, out, 3);
    assert_int_equal(fk.ddi.DxgkDdiRender(g_ctx[0], &r), STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER);
    UINT32 used = (UINT32)((BYTE *)r.pDmaBuffer - dma);
    assert_int_equal(r.pPatchLocationListOut - out, 3);
    assert_int_equal(r.MultipassOffset, used);
    for (int i = 1; i < 3; i++)
        assert_true(out[i].PatchOffset > out[i - 1].PatchOffset);
    patch_submit_wait(0, dma, used, al, 1, out, 3, 0);
    UINT32 mp = r.MultipassOffset;
    init_render(&r, &c, al, 1, dma, SWKMD_DMA_BUFFER_SIZE, out, 8);
    r.MultipassOffset = mp;
    assert_int_equal(fk.ddi.DxgkDdiRender(g_ctx[0], &r), STATUS_SUCCESS);
    used = (UINT32)((BYTE *)r.pDmaBuffer - dma);
    assert_int_equal(r.pPatchLocationListOut - out, 3); /* WRITE + COPY's two fields */
    patch_submit_wait(0, dma, used, al, 1, out, 3, 0);
    assert_memory_equal(g_visible + 0x9000, v, sizeof v);
    assert_memory_equal(g_visible + 0x9000 + 4096, v, sizeof v);
    free(dma);
    fk_destroy_allocation(a);
    teardown_device();
}

/* ---- paging ----------------------------------------------------------------------------------- */
/* Builds (retrying with fresh buffers of `dma_size`) and runs one paging operation on the
 * paging node; returns how many paging buffers it took. */
static int run_paging(DXGKARG_BUILDPAGINGBUFFER *op, UINT32 dma_size)
{
    BYTE *dma = aligned_alloc(4096, SWKMD_PAGING_BUFFER_SIZE);
    int buffers = 0;
    op->MultipassOffset = 0;
    for (;;) {
        op->pDmaBuffer = dma;
        op->DmaSize = dma_size;
        NTSTATUS st = fk.ddi.DxgkDdiBuildPagingBuffer(fk.adapter, op);
        assert_true(st == STATUS_SUCCESS || st == STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER);
        UINT32 used = (UINT32)((BYTE *)op->pDmaBuffer - dma);
        assert_int_equal(dma_size - op->DmaSize, used);
        if (used) {
            patch_submit_wait(SWKMD_NODE_COPY, dma, used, NULL, 0, NULL, 0, 1);
            buffers++;
        }
        if (st == STATUS_SUCCESS)
            break;
        assert_true(used > 0); /* a fresh buffer always makes progress */
    }
    free(dma);
    return buffers;
}

/* rule: kmd.buildpagingbuffer-fill-transfer-map */
static void paging_fill_transfer_map_and_unmap(void **state)
{
    setup_device();
    DXGKARG_BUILDPAGINGBUFFER op;

    /* FILL: a new allocation's initial content, 32-bit pattern. */
    memset(&op, 0, sizeof op);
    op.Operation = DXGK_OPERATION_FILL;
    op.Fill.FillSize = 8192;
    op.Fill.FillPattern = 0xDEADBEEFu;
    op.Fill.Destination.SegmentId = 2;
    op.Fill.Destination.SegmentAddress.QuadPart = (LONGLONG)(SWGPU_SEGMENT_BASE(2) + 0x30000);
    assert_int_equal(run_paging(&op, SWKMD_PAGING_BUFFER_SIZE), 1);
    for (int i = 0; i < 8192; i += 4) {
        UINT32 x;
        memcpy(&x, g_visible + 0x30000 + i, 4);
        assert_int_equal(x, 0xDEADBEEFu);
    }

    /* An MDL of three scattered system pages (pages 0, 2, 4 of a block). */
    BYTE *block = aligned_alloc(4096, 6 * 4096);
    memset(block, 0, 6 * 4096);
    PFN_NUMBER pfn[3] = {(uintptr_t)block >> 12, ((uintptr_t)block >> 12) + 2, ((uintptr_t)block >> 12) + 4};
    MDL mdl = {block, 0, 3 * 4096, 3, pfn};
    for (int i = 0; i < 3 * 4096; i++)
        g_visible[0x40000 + i] = (BYTE)(i * 13 + 1);

    /* TRANSFER segment -> MDL (eviction), one COPY per page; a buffer that holds one command
     * forces the retry protocol: three paging buffers. */
    memset(&op, 0, sizeof op);
    op.Operation = DXGK_OPERATION_TRANSFER;
    op.Transfer.TransferSize = 3 * 4096;
    op.Transfer.Source.SegmentId = 2;
    op.Transfer.Source.SegmentAddress.QuadPart = (LONGLONG)(SWGPU_SEGMENT_BASE(2) + 0x40000);
    op.Transfer.Destination.SegmentId = 0;
    op.Transfer.Destination.pMdl = &mdl;
    op.Transfer.Flags.TransferStart = 1;
    op.Transfer.Flags.TransferEnd = 1;
    assert_int_equal(run_paging(&op, sizeof(struct swgpu_cmd_copy) + 8), 3);
    for (int p = 0; p < 3; p++)
        for (int i = 0; i < 4096; i++)
            assert_int_equal(block[p * 2 * 4096 + i], (BYTE)((p * 4096 + i) * 13 + 1));

    /* TRANSFER MDL -> segment (restore), TransferOffset on the segment side, MdlOffset 1. */
    memset(&op, 0, sizeof op);
    op.Operation = DXGK_OPERATION_TRANSFER;
    op.Transfer.TransferSize = 2 * 4096;
    op.Transfer.TransferOffset = 4096;
    op.Transfer.MdlOffset = 1;
    op.Transfer.Source.SegmentId = 0;
    op.Transfer.Source.pMdl = &mdl;
    op.Transfer.Destination.SegmentId = 2;
    op.Transfer.Destination.SegmentAddress.QuadPart = (LONGLONG)(SWGPU_SEGMENT_BASE(2) + 0x50000);
    assert_int_equal(run_paging(&op, SWKMD_PAGING_BUFFER_SIZE), 1);
    assert_memory_equal(g_visible + 0x50000 + 4096, block + 2 * 4096, 4096);
    assert_memory_equal(g_visible + 0x50000 + 8192, block + 4 * 4096, 4096);
    assert_int_equal(g_visible[0x50000], 0);

    /* MAP_APERTURE_SEGMENT: the MDL's pages at aperture pages 10..12, one page per buffer. */
    memset(&op, 0, sizeof op);
    op.Operation = DXGK_OPERATION_MAP_APERTURE_SEGMENT;
    op.MapApertureSegment.SegmentId = 3;
    op.MapApertureSegment.OffsetInPages = 10;
    op.MapApertureSegment.NumberOfPages = 3;
    op.MapApertureSegment.pMdl = &mdl;
    assert_int_equal(run_paging(&op, sizeof(struct swgpu_cmd_gart_map) + 8), 3);
    /* Segment (aperture) -> segment TRANSFER reads the system pages through the GART. */
    memset(&op, 0, sizeof op);
    op.Operation = DXGK_OPERATION_TRANSFER;
    op.Transfer.TransferSize = 3 * 4096;
    op.Transfer.Source.SegmentId = 3;
    op.Transfer.Source.SegmentAddress.QuadPart = (LONGLONG)(SWGPU_SEGMENT_BASE(3) + 10 * 4096);
    op.Transfer.Destination.SegmentId = 2;
    op.Transfer.Destination.SegmentAddress.QuadPart = (LONGLONG)(SWGPU_SEGMENT_BASE(2) + 0x60000);
    assert_int_equal(run_paging(&op, SWKMD_PAGING_BUFFER_SIZE), 1);
    assert_memory_equal(g_visible + 0x60000, g_visible + 0x40000, 3 * 4096);

    /* UNMAP_APERTURE_SEGMENT: the range now points at the dummy page. */
    BYTE *dummy = aligned_alloc(4096, 4096);
    memset(dummy, 0, 4096);
    memset(&op, 0, sizeof op);
    op.Operation = DXGK_OPERATION_UNMAP_APERTURE_SEGMENT;
    op.UnmapApertureSegment.SegmentId = 3;
    op.UnmapApertureSegment.OffsetInPages = 10;
    op.UnmapApertureSegment.NumberOfPages = 3;
    op.UnmapApertureSegment.DummyPage.QuadPart = (LONGLONG)(uintptr_t)dummy;
    assert_int_equal(run_paging(&op, SWKMD_PAGING_BUFFER_SIZE), 1);
    memset(&op, 0, sizeof op);
    op.Operation = DXGK_OPERATION_TRANSFER;
    op.Transfer.TransferSize = 4096;
    op.Transfer.Source.SegmentId = 2;
    op.Transfer.Source.SegmentAddress.QuadPart = (LONGLONG)(SWGPU_SEGMENT_BASE(2) + 0x30000);
    op.Transfer.Destination.SegmentId = 3;
    op.Transfer.Destination.SegmentAddress.QuadPart = (LONGLONG)(SWGPU_SEGMENT_BASE(3) + 11 * 4096);
    BYTE saved = block[2 * 4096];
    assert_int_equal(run_paging(&op, SWKMD_PAGING_BUFFER_SIZE), 1);
    assert_int_equal(dummy[0], 0xEF);
    assert_int_equal(block[2 * 4096], saved); /* the unmapped system page is safe */

    free(dummy);
    free(block);
    teardown_device();
}

/* rule: kmd.buildpagingbuffer-refuses-fill-aperture */
/* rule: kmd.gpummu-model-only-wddmversion-0x2000 */
static void paging_refuses_what_it_cannot_do(void **state)
{
    setup_device();
    BYTE *dma = aligned_alloc(4096, SWKMD_PAGING_BUFFER_SIZE);
    DXGKARG_BUILDPAGINGBUFFER op;

    memset(&op, 0, sizeof op);
    op.pDmaBuffer = dma;
    op.DmaSize = SWKMD_PAGING_BUFFER_SIZE;
    op.Operation = DXGK_OPERATION_DISCARD_CONTENT;
    assert_int_equal(fk.ddi.DxgkDdiBuildPagingBuffer(fk.adapter, &op), STATUS_SUCCESS);
    assert_ptr_equal(op.pDmaBuffer, dma); /* nothing for the GPU to do */

    op.Operation = DXGK_OPERATION_READ_PHYSICAL;
    assert_int_equal(fk.ddi.DxgkDdiBuildPagingBuffer(fk.adapter, &op), STATUS_NOT_SUPPORTED);
    op.Operation = DXGK_OPERATION_UPDATE_PAGE_TABLE;
    assert_int_equal(fk.ddi.DxgkDdiBuildPagingBuffer(fk.adapter, &op), STATUS_NOT_SUPPORTED);

    /* FILL is for memory segments only, never the aperture. */
    memset(&op, 0, sizeof op);
    op.pDmaBuffer = dma;
    op.DmaSize = SWKMD_PAGING_BUFFER_SIZE;
    op.Operation = DXGK_OPERATION_FILL;
    op.Fill.FillSize = 4096;
    op.Fill.Destination.SegmentId = 3;
    op.Fill.Destination.SegmentAddress.QuadPart = (LONGLONG)SWGPU_SEGMENT_BASE(3);
    assert_int_equal(fk.ddi.DxgkDdiBuildPagingBuffer(fk.adapter, &op), STATUS_INVALID_PARAMETER);
    /* Past the end of segment 2 (8 MiB). */
    op.Fill.Destination.SegmentId = 2;
    op.Fill.Destination.SegmentAddress.QuadPart = (LONGLONG)(SWGPU_SEGMENT_BASE(2) + (8u << 20) - 4096);
    op.Fill.FillSize = 8192;
    assert_int_equal(fk.ddi.DxgkDdiBuildPagingBuffer(fk.adapter, &op), STATUS_INVALID_PARAMETER);

    /* TRANSFER larger than its MDL. */
    BYTE *page = aligned_alloc(4096, 4096);
    PFN_NUMBER pfn[1] = {(uintptr_t)page >> 12};
    MDL mdl = {page, 0, 4096, 1, pfn};
    memset(&op, 0, sizeof op);
    op.pDmaBuffer = dma;
    op.DmaSize = SWKMD_PAGING_BUFFER_SIZE;
    op.Operation = DXGK_OPERATION_TRANSFER;
    op.Transfer.TransferSize = 8192;
    op.Transfer.Source.SegmentId = 2;
    op.Transfer.Source.SegmentAddress.QuadPart = (LONGLONG)SWGPU_SEGMENT_BASE(2);
    op.Transfer.Destination.pMdl = &mdl;
    assert_int_equal(fk.ddi.DxgkDdiBuildPagingBuffer(fk.adapter, &op), STATUS_INVALID_PARAMETER);
    /* MAP beyond the aperture (32 MiB = 8192 pages). */
    memset(&op, 0, sizeof op);
    op.pDmaBuffer = dma;
    op.DmaSize = SWKMD_PAGING_BUFFER_SIZE;
    op.Operation = DXGK_OPERATION_MAP_APERTURE_SEGMENT;
    op.MapApertureSegment.SegmentId = 3;
    op.MapApertureSegment.OffsetInPages = 8192;
    op.MapApertureSegment.NumberOfPages = 1;
    op.MapApertureSegment.pMdl = &mdl;
    assert_int_equal(fk.ddi.DxgkDdiBuildPagingBuffer(fk.adapter, &op), STATUS_INVALID_PARAMETER);
    free(page);
    free(dma);
    teardown_device();
}

/* rule: kmd.patch-writes-segment-address */
/* rule: kmd.gpu-fault-still-completes-fence-node */
static void gpu_fault_still_completes_the_fence(void **state)
{
    setup_device();
    HANDLE a = fk_create_allocation(SWGPU_ALLOC_GPU_ONLY, 4096, NULL);
    /* The kernel (wrongly) left the allocation non-resident: Patch must not hand the GPU a
     * system address; the GPU faults, the buffer's fence still completes. */
    DXGK_ALLOCATIONLIST al[1] = {al_entry(a, 0, 0)};
    const UINT32 v = 0xABCD;
    struct cb c = {.len = 0};
    cb_write(&c, 0, 0, &v, 4);
    render_run(0, &c, al, 1);
    assert_int_equal(fk_completed(0), 1);
    struct swkmd_adapter *ad = fk.adapter;
    assert_int_equal(swgpu_fault_count(ad->gpu, 0), 1);
    /* And the node keeps working. */
    al[0] = al_entry(a, 2, 0x7000);
    render_run(0, &c, al, 1);
    assert_int_equal(fk_completed(0), 2);
    assert_memory_equal(g_visible + 0x7000, &v, 4);
    fk_destroy_allocation(a);
    teardown_device();
}

/* rule: kmd.querycurrentfence-reports-missed */
static void query_current_fence_reports_a_missed_interrupt(void **state)
{
    setup_device();
    atomic_store(&fk.drop_interrupts, 1);
    DXGKARG_SUBMITCOMMAND s;
    memset(&s, 0, sizeof s);
    s.SubmissionFenceId = 5;
    s.NodeOrdinal = 1;
    s.Flags.NullRendering = 1; /* signal the fence, execute nothing */
    assert_int_equal(fk.ddi.DxgkDdiSubmitCommand(fk.adapter, &s), STATUS_SUCCESS);
    struct swkmd_adapter *ad = fk.adapter;
    swgpu_wait_fence(ad->gpu, 1, 5);
    assert_int_equal(fk_completed(1), 0); /* the interrupt was lost */
    DXGKARG_QUERYCURRENTFENCE q = {1, 0, 0};
    assert_int_equal(fk.ddi.DxgkDdiQueryCurrentFence(fk.adapter, &q), STATUS_SUCCESS);
    assert_int_equal(q.CurrentFence, 5);
    assert_int_equal(fk_completed(1), 5); /* reported through DxgkCbNotifyInterrupt */
    atomic_store(&fk.drop_interrupts, 0);
    teardown_device();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(render_patch_submit_runs_user_commands_and_reports_the_fence),
        cmocka_unit_test(render_refuses_invalid_command_buffers),
        cmocka_unit_test(render_splits_at_command_boundaries_when_the_dma_buffer_is_short),
        cmocka_unit_test(render_accepts_patch_lists_in_any_order_and_splits_on_a_full_patch_list),
        cmocka_unit_test(paging_fill_transfer_map_and_unmap),
        cmocka_unit_test(paging_refuses_what_it_cannot_do),
        cmocka_unit_test(gpu_fault_still_completes_the_fence),
        cmocka_unit_test(query_current_fence_reports_a_missed_interrupt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
