/* The reference KMD's GpuMmu model (issue 6, common.md "The shared model"): with the shipped
 * configs/gpummu.caps it reports DXGK_GPUMMUCAPS and the two page-table levels (and refuses
 * them without); UPDATE_PAGE_TABLE built by the KMD and run on the paging engine gives exactly
 * the translations VidMm's DXGK_PTEs describe (non-contiguous pages, system pages, Repeat,
 * ReadOnly, the multipass split); FLUSH_TLB makes a changed entry visible; SubmitCommandVirtual
 * runs a buffer fetched at a VA; a fault is reported as DXGK_INTERRUPT_DMA_PAGE_FAULTED before
 * the DMA_COMPLETED of its fence. The test plays VidMm and the scheduler through the DDI table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "kmd/kmd_test_util.h"

#include <stdio.h>

#define PG SWGPU_PAGE_SIZE
#define ROOT_OFF (1u << 20)
#define ROOT_ENTRIES 4u               /* VA < 8 MiB */
#define LEAF_OFF(i) (ROOT_OFF + PG * (1u + (i)))
#define DATA_OFF (2u << 20)
#define VA_LEAF(i) ((UINT64)(i) << 21) /* first VA of leaf table i */
#define VA_DMA VA_LEAF(2)

static HANDLE g_dev, g_ctx, g_ctx2, g_proc;
static UINT32 g_fence[SWKMD_NODE_COUNT];

static UINT64 local_addr(UINT64 off) { return SWGPU_SEGMENT_BASE(SWKMD_SEGMENT_LOCAL) + off; }
static UINT64 data_off(UINT32 page) { return DATA_OFF + (UINT64)page * PG; }
static BYTE *local_host(UINT64 off)
{
    struct swkmd_adapter *a = fk.adapter;
    return (BYTE *)swgpu_segment_host(a->gpu, SWKMD_SEGMENT_LOCAL) + off;
}
static UINT32 local_u32(UINT64 off)
{
    UINT32 v;
    memcpy(&v, local_host(off), 4);
    return v;
}

/* The shipped caps file, found beside this source file (tests/kmd/ -> configs/). */
static void use_shipped_gpummu_caps(void)
{
    static char path[4096];
    const char *me = __FILE__;
    const char *cut = strstr(me, "tests/kmd/test_kmd_gpummu.c");
    assert_non_null(cut);
    snprintf(path, sizeof path, "%.*sconfigs/gpummu.caps", (int)(cut - me), me);
    setenv("WDDM_KMD_CAPS", path, 1);
}

static void start_gpummu(void)
{
    use_shipped_gpummu_caps();
    assert_int_equal(fk_start(), STATUS_SUCCESS);
    unsetenv("WDDM_KMD_CAPS");
    DXGK_DEVICEINFO di;
    DXGKARG_CREATEDEVICE cd;
    memset(&cd, 0, sizeof cd);
    cd.pInfo = &di;
    assert_int_equal(fk.ddi.DxgkDdiCreateDevice(fk.adapter, &cd), STATUS_SUCCESS);
    g_dev = cd.hDevice;
    DXGKARG_CREATECONTEXT cc;
    memset(&cc, 0, sizeof cc);
    cc.NodeOrdinal = SWKMD_NODE_3D;
    cc.Flags.VirtualAddressing = 1;
    assert_int_equal(fk.ddi.DxgkDdiCreateContext(g_dev, &cc), STATUS_SUCCESS);
    g_ctx = cc.hContext;
    memset(&cc, 0, sizeof cc);
    cc.NodeOrdinal = SWKMD_NODE_3D;
    cc.Flags.VirtualAddressing = 1;
    assert_int_equal(fk.ddi.DxgkDdiCreateContext(g_dev, &cc), STATUS_SUCCESS);
    g_ctx2 = cc.hContext;
    static int kernel_process;
    DXGKARG_CREATEPROCESS cp;
    memset(&cp, 0, sizeof cp);
    cp.hDxgkProcess = &kernel_process;
    assert_int_equal(fk.ddi.DxgkDdiCreateProcess(fk.adapter, &cp), STATUS_SUCCESS);
    assert_non_null(cp.hKmdProcess);
    g_proc = cp.hKmdProcess;
    memset(g_fence, 0, sizeof g_fence);
}

static void stop_gpummu(void)
{
    assert_int_equal(fk.ddi.DxgkDdiDestroyProcess(fk.adapter, g_proc), STATUS_SUCCESS);
    fk.ddi.DxgkDdiDestroyContext(g_ctx);
    fk.ddi.DxgkDdiDestroyContext(g_ctx2);
    fk.ddi.DxgkDdiDestroyDevice(g_dev);
    fk_stop();
}

/* A paging buffer on the paging node, as VidMm submits it (physical mode). */
static void submit_paging(BYTE *dma, UINT32 used)
{
    UINT32 fence = ++g_fence[SWKMD_NODE_COPY];
    DXGKARG_SUBMITCOMMAND s;
    memset(&s, 0, sizeof s);
    s.DmaBufferPhysicalAddress.QuadPart = (LONGLONG)(uintptr_t)dma;
    s.DmaBufferSize = used;
    s.DmaBufferSubmissionEndOffset = used;
    s.SubmissionFenceId = fence;
    s.NodeOrdinal = SWKMD_NODE_COPY;
    s.Flags.Paging = 1;
    assert_int_equal(fk.ddi.DxgkDdiSubmitCommand(fk.adapter, &s), STATUS_SUCCESS);
    fk_wait_completed(SWKMD_NODE_COPY, fence);
}

/* VidMm's loop (docs/semantics.md §2.4) for one paging operation with paging buffers of
 * `dma_size` bytes: each STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER submits what was written and
 * calls again with a fresh buffer, MultipassOffset untouched. Returns the number of buffers. */
static UINT32 run_paging_op(DXGKARG_BUILDPAGINGBUFFER *op, UINT32 dma_size)
{
    BYTE *dma = aligned_alloc(PG, SWKMD_PAGING_BUFFER_SIZE);
    UINT32 passes = 0, last_offset = 0;
    op->MultipassOffset = 0;
    for (;;) {
        op->pDmaBuffer = dma;
        op->DmaSize = dma_size;
        NTSTATUS st = fk.ddi.DxgkDdiBuildPagingBuffer(fk.adapter, op);
        UINT32 used = (UINT32)((BYTE *)op->pDmaBuffer - dma);
        assert_int_equal(used + op->DmaSize, dma_size);
        passes++;
        if (st == STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER) {
            assert_true(used > 0);                       /* progress in every buffer */
            assert_true(op->MultipassOffset > last_offset); /* ... recorded for the next call */
            last_offset = op->MultipassOffset;
            submit_paging(dma, used);
            continue;
        }
        assert_int_equal(st, STATUS_SUCCESS);
        if (used)
            submit_paging(dma, used);
        break;
    }
    free(dma);
    return passes;
}

static UINT32 update_page_table(UINT32 level, UINT64 table_off, UINT32 start, UINT32 count, DXGK_PTE *ptes,
                                int repeat, UINT32 dma_size)
{
    DXGKARG_BUILDPAGINGBUFFER op;
    memset(&op, 0, sizeof op);
    op.Operation = DXGK_OPERATION_UPDATE_PAGE_TABLE;
    op.UpdatePageTable.PageTableLevel = level;
    op.UpdatePageTable.PageTableAddress.GpuPhysical = local_addr(table_off);
    op.UpdatePageTable.pPageTableEntries = ptes;
    op.UpdatePageTable.StartIndex = start;
    op.UpdatePageTable.NumPageTableEntries = count;
    op.UpdatePageTable.Flags.Repeat = repeat ? 1 : 0;
    op.UpdatePageTable.hProcess = g_proc;
    op.UpdatePageTable.UpdateMode = DXGK_PAGETABLEUPDATE_GPU_PHYSICAL;
    return run_paging_op(&op, dma_size);
}

static void flush_tlb(void)
{
    DXGKARG_BUILDPAGINGBUFFER op;
    memset(&op, 0, sizeof op);
    op.Operation = DXGK_OPERATION_FLUSH_TLB;
    op.FlushTlb.hProcess = g_proc;
    op.FlushTlb.RootPageTableAddress = local_addr(ROOT_OFF);
    assert_int_equal(run_paging_op(&op, SWKMD_PAGING_BUFFER_SIZE), 1);
}

static DXGK_PTE pte(UINT32 segment, UINT64 addr, int read_only)
{
    DXGK_PTE p;
    memset(&p, 0, sizeof p);
    p.Valid = 1;
    p.Segment = segment;
    p.ReadOnly = read_only ? 1 : 0;
    p.PageAddress = addr >> 12;
    return p;
}

static NTSTATUS submit_virtual(HANDLE ctx, UINT64 va, UINT32 size, UINT32 *fence_out)
{
    UINT32 fence = g_fence[SWKMD_NODE_3D] + 1;
    DXGKARG_SUBMITCOMMANDVIRTUAL s;
    memset(&s, 0, sizeof s);
    s.hContext = ctx;
    s.DmaBufferVirtualAddress = va;
    s.DmaBufferSize = size;
    s.SubmissionFenceId = fence;
    s.NodeOrdinal = SWKMD_NODE_3D;
    NTSTATUS st = fk.ddi.DxgkDdiSubmitCommandVirtual(fk.adapter, &s);
    if (NT_SUCCESS(st)) {
        g_fence[SWKMD_NODE_3D] = fence;
        fk_wait_completed(SWKMD_NODE_3D, fence);
    }
    if (fence_out)
        *fence_out = fence;
    return st;
}

/* The process's command buffer: CMD_PAGES system pages mapped at VA_DMA (leaf table 2). */
#define CMD_PAGES 4u
static BYTE *g_cmd;
static UINT32 g_cmd_len;
static void cmd_reset(void) { g_cmd_len = 0; memset(g_cmd, 0, CMD_PAGES * PG); }
static void cmd_put(const void *p, UINT32 n) { assert_true(g_cmd_len + n <= CMD_PAGES * PG); memcpy(g_cmd + g_cmd_len, p, n); g_cmd_len += n; }
static void cmd_write(UINT64 va, const void *data, UINT32 n)
{
    struct swgpu_cmd_write c;
    memset(&c, 0, sizeof c);
    c.hdr.opcode = SWGPU_OP_WRITE;
    c.hdr.size_bytes = (UINT32)sizeof c + swgpu_align8(n);
    c.dst.addr = va;
    c.row_bytes = n;
    c.rows = 1;
    c.slices = 1;
    cmd_put(&c, sizeof c);
    memcpy(g_cmd + g_cmd_len, data, n);
    g_cmd_len += swgpu_align8(n);
}
static void cmd_copy(UINT64 dst, UINT64 src, UINT32 n)
{
    struct swgpu_cmd_copy c;
    memset(&c, 0, sizeof c);
    c.hdr.opcode = SWGPU_OP_COPY;
    c.hdr.size_bytes = sizeof c;
    c.dst.addr = dst;
    c.src.addr = src;
    c.row_bytes = n;
    c.rows = 1;
    c.slices = 1;
    cmd_put(&c, sizeof c);
}
static NTSTATUS cmd_run(UINT32 *fence) { return submit_virtual(g_ctx, VA_DMA, g_cmd_len, fence); }

static UINT32 perm(UINT32 i) { return i ^ 5u; } /* VA page i of leaf 0 -> data page perm(i) */

/* Root entries 0..2, leaf 0 (16 pages, page 3 read-only, built in 80-byte paging buffers),
 * leaf 1 (8 entries by Repeat, all on data page 100), leaf 2 (the command buffer's system
 * pages); then the context's root. */
static void build_address_space(void)
{
    /* Fresh tables hold garbage (here: all ones, valid-looking entries): VidMm invalidates
     * them whole with Repeat, as it does for new page tables. */
    DXGK_PTE none, root[3];
    memset(&none, 0, sizeof none);
    memset(local_host(ROOT_OFF), 0xFF, ROOT_ENTRIES * 8);
    assert_int_equal(update_page_table(0, ROOT_OFF, 0, ROOT_ENTRIES, &none, 1, SWKMD_PAGING_BUFFER_SIZE), 1);
    for (UINT32 i = 0; i < 3; i++) {
        root[i] = pte(SWKMD_SEGMENT_LOCAL, LEAF_OFF(i), 0);
        memset(local_host(LEAF_OFF(i)), 0xFF, PG);
        assert_int_equal(update_page_table(1, LEAF_OFF(i), 0, 512, &none, 1, SWKMD_PAGING_BUFFER_SIZE), 1);
    }
    assert_int_equal(update_page_table(0, ROOT_OFF, 0, 3, root, 0, SWKMD_PAGING_BUFFER_SIZE), 1);
    DXGK_PTE leaf0[16];
    for (UINT32 i = 0; i < 16; i++)
        leaf0[i] = pte(SWKMD_SEGMENT_LOCAL, data_off(perm(i)), i == 3);
    /* 40-byte WRITE header + 5 entries per buffer: 16 entries need 4 buffers. */
    assert_int_equal(update_page_table(1, LEAF_OFF(0), 0, 16, leaf0, 0, 40 + 5 * 8), 4);
    DXGK_PTE rep = pte(SWKMD_SEGMENT_LOCAL, data_off(100), 0);
    assert_int_equal(update_page_table(1, LEAF_OFF(1), 0, 8, &rep, 1, SWKMD_PAGING_BUFFER_SIZE), 1);
    DXGK_PTE sys[CMD_PAGES];
    for (UINT32 i = 0; i < CMD_PAGES; i++)
        sys[i] = pte(0, (UINT64)(uintptr_t)g_cmd + (UINT64)i * PG, 0);
    assert_int_equal(update_page_table(1, LEAF_OFF(2), 0, CMD_PAGES, sys, 0, SWKMD_PAGING_BUFFER_SIZE), 1);
    DXGKARG_SETROOTPAGETABLE sr = {g_ctx, local_addr(ROOT_OFF), ROOT_ENTRIES};
    fk.ddi.DxgkDdiSetRootPageTable(fk.adapter, &sr);
}

/* rule: kmd.gpummu-model-only-wddmversion-0x2000 */
/* rule: kmd.dxgk-gpummucaps-readonlymemorysupported */
static void gpummu_caps_are_reported_only_in_the_gpummu_model(void **state)
{
    DXGK_GPUMMUCAPS caps;
    DXGK_PAGE_TABLE_LEVEL_DESC desc;
    DXGK_QUERYGPUMMUCAPSIN cin = {0};
    DXGK_QUERYPAGETABLELEVELIN lin = {0};
    DXGKARG_QUERYADAPTERINFO qc = {DXGKQAITYPE_GPUMMUCAPS, &cin, sizeof cin, &caps, sizeof caps, 0, NULL};
    DXGKARG_QUERYADAPTERINFO ql = {DXGKQAITYPE_PAGETABLELEVELDESC, &lin, sizeof lin, &desc, sizeof desc, 0, NULL};

    /* WDDM 1.3 (default caps): none of it. */
    unsetenv("WDDM_KMD_CAPS");
    assert_int_equal(fk_start(), STATUS_SUCCESS);
    assert_int_equal(fk.ddi.DxgkDdiQueryAdapterInfo(fk.adapter, &qc), STATUS_NOT_SUPPORTED);
    assert_int_equal(fk.ddi.DxgkDdiQueryAdapterInfo(fk.adapter, &ql), STATUS_NOT_SUPPORTED);
    DXGKARG_GETROOTPAGETABLESIZE rs = {100, 0};
    assert_int_equal(fk.ddi.DxgkDdiGetRootPageTableSize(fk.adapter, &rs), 0);
    DXGKARG_CREATEPROCESS cp;
    memset(&cp, 0, sizeof cp);
    assert_int_equal(fk.ddi.DxgkDdiCreateProcess(fk.adapter, &cp), STATUS_NOT_SUPPORTED);
    DXGKARG_SUBMITCOMMANDVIRTUAL sv;
    memset(&sv, 0, sizeof sv);
    assert_int_equal(fk.ddi.DxgkDdiSubmitCommandVirtual(fk.adapter, &sv), STATUS_NOT_SUPPORTED);
    fk_stop();

    /* configs/gpummu.caps: the values of common.md. */
    start_gpummu();
    DXGK_DRIVERCAPS dc;
    DXGKARG_QUERYADAPTERINFO qd = {DXGKQAITYPE_DRIVERCAPS, NULL, 0, &dc, sizeof dc, 0, NULL};
    assert_int_equal(fk.ddi.DxgkDdiQueryAdapterInfo(fk.adapter, &qd), STATUS_SUCCESS);
    assert_int_equal(dc.WDDMVersion, DXGKDDI_WDDMv2);
    assert_int_equal(dc.MemoryManagementCaps.VirtualAddressingSupported, 1);
    assert_int_equal(dc.MemoryManagementCaps.GpuMmuSupported, 1);
    memset(&caps, 0xCD, sizeof caps);
    assert_int_equal(fk.ddi.DxgkDdiQueryAdapterInfo(fk.adapter, &qc), STATUS_SUCCESS);
    assert_int_equal(caps.Value, 1); /* ReadOnlyMemorySupported only */
    assert_int_equal(caps.ReadOnlyMemorySupported, 1);
    assert_int_equal(caps.PageTableUpdateMode, DXGK_PAGETABLEUPDATE_GPU_PHYSICAL);
    assert_int_equal(caps.VirtualAddressBitCount, 40);
    assert_int_equal(caps.PageTableLevelCount, 2);
    assert_int_equal(caps.LeafPageTableSizeFor64KPagesInBytes, 0);
    qc.OutputDataSize = sizeof caps - 1;
    assert_int_equal(fk.ddi.DxgkDdiQueryAdapterInfo(fk.adapter, &qc), STATUS_BUFFER_TOO_SMALL);
    qc.OutputDataSize = sizeof caps;
    cin.PhysicalAdapterIndex = 1;
    assert_int_equal(fk.ddi.DxgkDdiQueryAdapterInfo(fk.adapter, &qc), STATUS_INVALID_PARAMETER);

    lin.PageTableLevel = 0;
    assert_int_equal(fk.ddi.DxgkDdiQueryAdapterInfo(fk.adapter, &ql), STATUS_SUCCESS);
    assert_int_equal(desc.PageTableIndexBitCount, 19);
    assert_int_equal(desc.PageTableSegmentId, SWKMD_SEGMENT_LOCAL);
    assert_int_equal(desc.PagingProcessPageTableSegmentId, SWKMD_SEGMENT_LOCAL);
    assert_int_equal(desc.PageTableSizeInBytes, 0); /* resizable root */
    assert_int_equal(desc.PageTableAlignmentInBytes, 4096);
    lin.PageTableLevel = 1;
    assert_int_equal(fk.ddi.DxgkDdiQueryAdapterInfo(fk.adapter, &ql), STATUS_SUCCESS);
    assert_int_equal(desc.PageTableIndexBitCount, 9);
    assert_int_equal(desc.PageTableSegmentId, SWKMD_SEGMENT_LOCAL);
    assert_int_equal(desc.PageTableSizeInBytes, 4096);
    assert_int_equal(desc.PageTableAlignmentInBytes, 4096);
    lin.PageTableLevel = 2;
    assert_int_equal(fk.ddi.DxgkDdiQueryAdapterInfo(fk.adapter, &ql), STATUS_INVALID_PARAMETER);
    ql.pInputData = NULL;
    assert_int_equal(fk.ddi.DxgkDdiQueryAdapterInfo(fk.adapter, &ql), STATUS_INVALID_PARAMETER);

    /* Root size: 8 bytes per entry, at most 2^19 entries. */
    rs.NumberOfPte = 100;
    assert_int_equal(fk.ddi.DxgkDdiGetRootPageTableSize(fk.adapter, &rs), 800);
    rs.NumberOfPte = 1u << 19;
    assert_int_equal(fk.ddi.DxgkDdiGetRootPageTableSize(fk.adapter, &rs), 4u << 20);
    rs.NumberOfPte = (1u << 19) + 1;
    assert_int_equal(fk.ddi.DxgkDdiGetRootPageTableSize(fk.adapter, &rs), 4u << 20);
    assert_int_equal(rs.NumberOfPte, 1u << 19);
    stop_gpummu();
}

/* rule: kmd.update-page-table-dxgk-pte-valid */
/* rule: kmd.flush-tlb-emits-swgpu-op-flush */
/* rule: kmd.dxgkddisetrootpagetable-stores-address */
static void page_tables_built_by_the_kmd_translate_as_the_dxgk_ptes_say(void **state)
{
    start_gpummu();
    g_cmd = aligned_alloc(PG, CMD_PAGES * PG);
    cmd_reset();
    build_address_space();

    /* 12 KiB over VA pages 4..7 of leaf 0: each lands on its own data page perm(i). */
    static BYTE data[3 * PG];
    for (UINT32 i = 0; i < sizeof data; i++)
        data[i] = (BYTE)(i * 13 + 1);
    cmd_write(4 * PG + 0x100, data, sizeof data);
    /* Leaf 1 (Repeat): VA pages 0..7 are all data page 100. */
    for (UINT32 k = 0; k < 8; k++)
        cmd_write(VA_LEAF(1) + (UINT64)k * PG + 4 * k, &k, 4);
    /* The read-only page can be read. */
    const UINT32 ro = 0x0DDBA11u;
    memcpy(local_host(data_off(perm(3))), &ro, 4);
    cmd_copy(8 * PG, 3 * PG, 4);
    assert_true(g_cmd_len > 3 * PG && g_cmd_len <= CMD_PAGES * PG); /* the buffer spans all its pages */
    UINT32 fence;
    assert_int_equal(cmd_run(&fence), STATUS_SUCCESS);
    assert_int_equal(fk.npage_faults, 0);

    for (UINT32 k = 0; k < sizeof data; k++) {
        UINT64 va = 4 * PG + 0x100 + k;
        if (*local_host(data_off(perm((UINT32)(va / PG))) + va % PG) != data[k])
            fail_msg("byte %u at VA 0x%llx is not on the page its DXGK_PTE names", k, (unsigned long long)va);
    }
    for (UINT32 k = 0; k < 8; k++)
        assert_int_equal(local_u32(data_off(100) + 4 * k), k);
    assert_int_equal(local_u32(data_off(perm(8))), ro);

    /* A changed entry is not seen until FLUSH_TLB: the engine cached VA page 4. */
    DXGK_PTE moved = pte(SWKMD_SEGMENT_LOCAL, data_off(200), 0);
    update_page_table(1, LEAF_OFF(0), 4, 1, &moved, 0, SWKMD_PAGING_BUFFER_SIZE);
    const UINT32 x = 0xA5A5A5A5u, y = 0x5A5A5A5Au;
    cmd_reset();
    cmd_write(4 * PG, &x, 4);
    assert_int_equal(cmd_run(NULL), STATUS_SUCCESS);
    assert_int_equal(local_u32(data_off(perm(4))), x);
    assert_int_equal(local_u32(data_off(200)), 0);
    flush_tlb();
    cmd_reset();
    cmd_write(4 * PG, &y, 4);
    assert_int_equal(cmd_run(NULL), STATUS_SUCCESS);
    assert_int_equal(local_u32(data_off(200)), y);
    assert_int_equal(local_u32(data_off(perm(4))), x);

    /* Repeat with an invalid entry unmaps the range (after a flush): an access faults. */
    DXGK_PTE none;
    memset(&none, 0, sizeof none);
    update_page_table(1, LEAF_OFF(1), 0, 8, &none, 1, SWKMD_PAGING_BUFFER_SIZE);
    flush_tlb();
    cmd_reset();
    cmd_write(VA_LEAF(1) + 5 * PG, &x, 4);
    assert_int_equal(cmd_run(&fence), STATUS_SUCCESS);
    assert_int_equal(fk.npage_faults, 1);
    assert_int_equal(fk.page_faults[0].DmaPageFaulted.FaultedFenceId, fence);
    assert_true(fk.page_faults[0].DmaPageFaulted.FaultedVirtualAddress == VA_LEAF(1) + 5 * PG);
    assert_int_equal(local_u32(data_off(100) + 0), 0); /* (k = 0 wrote 0 there) unchanged */
    assert_int_equal(local_u32(data_off(100) + 4 * 5), 5);

    free(g_cmd);
    stop_gpummu();
}

/* The index of the first event of `type` for `fence` on node 0, or -1. */
static int event_index(DXGK_INTERRUPT_TYPE type, UINT32 fence)
{
    for (UINT32 i = 0; i < fk.nevents && i < FK_MAX_EVENTS; i++)
        if (fk.events[i].type == type && fk.events[i].node == SWKMD_NODE_3D && fk.events[i].fence == fence)
            return (int)i;
    return -1;
}

/* rule: kmd.fault-va-buffer-reported-dxgk-interrupt */
static void page_fault_is_reported_before_its_fence_completes(void **state)
{
    start_gpummu();
    g_cmd = aligned_alloc(PG, CMD_PAGES * PG);
    cmd_reset();
    build_address_space();
    const UINT32 v = 0x12345678u;

    /* A write to the read-only page. */
    cmd_write(3 * PG + 0x10, &v, 4);
    cmd_write(9 * PG, &v, 4); /* skipped */
    UINT32 f1;
    assert_int_equal(cmd_run(&f1), STATUS_SUCCESS);
    assert_int_equal(fk.npage_faults, 1);
    const DXGKARGCB_NOTIFY_INTERRUPT_DATA *n = &fk.page_faults[0];
    assert_int_equal(n->InterruptType, DXGK_INTERRUPT_DMA_PAGE_FAULTED);
    assert_int_equal(n->DmaPageFaulted.FaultedFenceId, f1);
    assert_true(n->DmaPageFaulted.FaultedVirtualAddress == 3 * PG + 0x10);
    assert_int_equal(n->DmaPageFaulted.PageFaultFlags & DXGK_PAGE_FAULT_WRITE, DXGK_PAGE_FAULT_WRITE);
    assert_int_equal(n->DmaPageFaulted.PageFaultFlags & DXGK_PAGE_FAULT_FENCE_INVALID, 0);
    assert_int_equal(n->DmaPageFaulted.NodeOrdinal, SWKMD_NODE_3D);
    assert_int_equal(n->DmaPageFaulted.PageTableLevel, 1);
    assert_int_equal(n->DmaPageFaulted.FaultErrorCode.IsDeviceSpecificCode, 0);
    assert_int_equal(n->DmaPageFaulted.FaultErrorCode.GeneralErrorCode, DXGK_GENERAL_ERROR_PAGE_FAULT);
    int pf = event_index(DXGK_INTERRUPT_DMA_PAGE_FAULTED, f1), done = event_index(DXGK_INTERRUPT_DMA_COMPLETED, f1);
    assert_true(pf >= 0 && done > pf); /* PAGE_FAULTED, then DMA_COMPLETED of the same fence */
    assert_int_equal(local_u32(data_off(perm(9))), 0);
    assert_int_equal(local_u32(data_off(perm(3)) + 0x10), 0);

    /* A read of a page never mapped (leaf entry 20 of leaf 0): no WRITE flag. */
    cmd_reset();
    cmd_copy(9 * PG, 20 * PG + 0x40, 8);
    UINT32 f2;
    assert_int_equal(cmd_run(&f2), STATUS_SUCCESS);
    assert_int_equal(fk.npage_faults, 2);
    n = &fk.page_faults[1];
    assert_int_equal(n->DmaPageFaulted.FaultedFenceId, f2);
    assert_true(n->DmaPageFaulted.FaultedVirtualAddress == 20 * PG + 0x40);
    assert_int_equal(n->DmaPageFaulted.PageFaultFlags & DXGK_PAGE_FAULT_WRITE, 0);
    assert_int_equal(n->DmaPageFaulted.PageTableLevel, 1);

    /* Root entry 3 was never written: a level-0 fault. */
    cmd_reset();
    cmd_write(VA_LEAF(3) + 8, &v, 4);
    UINT32 f3;
    assert_int_equal(cmd_run(&f3), STATUS_SUCCESS);
    assert_int_equal(fk.npage_faults, 3);
    assert_int_equal(fk.page_faults[2].DmaPageFaulted.PageTableLevel, 0);
    assert_true(fk.page_faults[2].DmaPageFaulted.FaultedVirtualAddress == VA_LEAF(3) + 8);

    /* A paging-only command in the process's buffer: not an address fault. */
    cmd_reset();
    struct swgpu_cmd_flush_tlb ft = {{SWGPU_OP_FLUSH_TLB, sizeof ft}, 0};
    cmd_put(&ft, sizeof ft);
    UINT32 f4;
    assert_int_equal(cmd_run(&f4), STATUS_SUCCESS);
    assert_int_equal(fk.npage_faults, 4);
    assert_int_equal(fk.page_faults[3].DmaPageFaulted.FaultedFenceId, f4);
    assert_true(fk.page_faults[3].DmaPageFaulted.FaultedVirtualAddress == 0);
    assert_int_equal(fk.page_faults[3].DmaPageFaulted.FaultErrorCode.GeneralErrorCode,
                     DXGK_GENERAL_ERROR_INVALID_INSTRUCTION);

    /* The same GPU keeps working for good buffers. */
    cmd_reset();
    cmd_write(9 * PG, &v, 4);
    assert_int_equal(cmd_run(NULL), STATUS_SUCCESS);
    assert_int_equal(fk.npage_faults, 4);
    assert_int_equal(local_u32(data_off(perm(9))), v);
    free(g_cmd);
    stop_gpummu();
}

/* rule: kmd.dxgkddisetrootpagetable-stores-address */
/* rule: kmd.dxgkddicreateprocess-destroyprocess-kmd */
/* rule: kmd.update-page-table-refusals-updatemode */
static void bad_gpummu_requests_are_refused(void **state)
{
    start_gpummu();
    g_cmd = aligned_alloc(PG, CMD_PAGES * PG);
    cmd_reset();
    const UINT32 v = 1;
    cmd_write(0, &v, 4);
    /* No root page table yet: refused, nothing runs. */
    assert_int_equal(submit_virtual(g_ctx, VA_DMA, g_cmd_len, NULL), STATUS_INVALID_PARAMETER);
    /* A root outside any memory segment, or too large, is not installed. */
    DXGKARG_SETROOTPAGETABLE sr = {g_ctx, SWGPU_SEGMENT_BASE(SWKMD_SEGMENT_APERTURE), 4};
    fk.ddi.DxgkDdiSetRootPageTable(fk.adapter, &sr);
    sr = (DXGKARG_SETROOTPAGETABLE){g_ctx, local_addr(ROOT_OFF), (1u << 19) + 1};
    fk.ddi.DxgkDdiSetRootPageTable(fk.adapter, &sr);
    sr = (DXGKARG_SETROOTPAGETABLE){g_ctx, local_addr(ROOT_OFF) + 8, 4};
    fk.ddi.DxgkDdiSetRootPageTable(fk.adapter, &sr);
    assert_int_equal(submit_virtual(g_ctx, VA_DMA, g_cmd_len, NULL), STATUS_INVALID_PARAMETER);
    /* The other context's root does not make this one's. */
    sr = (DXGKARG_SETROOTPAGETABLE){g_ctx2, local_addr(ROOT_OFF), 4};
    fk.ddi.DxgkDdiSetRootPageTable(fk.adapter, &sr);
    assert_int_equal(submit_virtual(g_ctx, VA_DMA, g_cmd_len, NULL), STATUS_INVALID_PARAMETER);
    /* Paging buffers never run virtually; the node must be the context's. */
    DXGKARG_SUBMITCOMMANDVIRTUAL s;
    memset(&s, 0, sizeof s);
    s.hContext = g_ctx2;
    s.NodeOrdinal = SWKMD_NODE_3D;
    s.Flags.Paging = 1;
    assert_int_equal(fk.ddi.DxgkDdiSubmitCommandVirtual(fk.adapter, &s), STATUS_INVALID_PARAMETER);
    s.Flags.Paging = 0;
    s.NodeOrdinal = SWKMD_NODE_COPY;
    assert_int_equal(fk.ddi.DxgkDdiSubmitCommandVirtual(fk.adapter, &s), STATUS_INVALID_PARAMETER);
    s.hContext = g_dev; /* not a context */
    s.NodeOrdinal = SWKMD_NODE_3D;
    assert_int_equal(fk.ddi.DxgkDdiSubmitCommandVirtual(fk.adapter, &s), STATUS_INVALID_PARAMETER);

    /* UPDATE_PAGE_TABLE / FLUSH_TLB refusals. */
    BYTE *dma = aligned_alloc(PG, SWKMD_PAGING_BUFFER_SIZE);
    DXGK_PTE e = pte(SWKMD_SEGMENT_LOCAL, data_off(0), 0);
    DXGKARG_BUILDPAGINGBUFFER op;
#define UPT_BASE() do { memset(&op, 0, sizeof op); op.pDmaBuffer = dma; op.DmaSize = SWKMD_PAGING_BUFFER_SIZE; \
        op.Operation = DXGK_OPERATION_UPDATE_PAGE_TABLE; op.UpdatePageTable.PageTableLevel = 1; \
        op.UpdatePageTable.PageTableAddress.GpuPhysical = local_addr(LEAF_OFF(0)); \
        op.UpdatePageTable.pPageTableEntries = &e; op.UpdatePageTable.NumPageTableEntries = 1; \
        op.UpdatePageTable.UpdateMode = DXGK_PAGETABLEUPDATE_GPU_PHYSICAL; } while (0)
    UPT_BASE();
    assert_int_equal(fk.ddi.DxgkDdiBuildPagingBuffer(fk.adapter, &op), STATUS_SUCCESS); /* the base is fine */
    UPT_BASE();
    op.UpdatePageTable.UpdateMode = DXGK_PAGETABLEUPDATE_CPU_VIRTUAL;
    assert_int_equal(fk.ddi.DxgkDdiBuildPagingBuffer(fk.adapter, &op), STATUS_INVALID_PARAMETER);
    UPT_BASE();
    op.UpdatePageTable.PageTableLevel = 2;
    assert_int_equal(fk.ddi.DxgkDdiBuildPagingBuffer(fk.adapter, &op), STATUS_INVALID_PARAMETER);
    UPT_BASE();
    op.UpdatePageTable.StartIndex = 511;
    op.UpdatePageTable.NumPageTableEntries = 2;
    op.UpdatePageTable.Flags.Repeat = 1;
    assert_int_equal(fk.ddi.DxgkDdiBuildPagingBuffer(fk.adapter, &op), STATUS_INVALID_PARAMETER);
    UPT_BASE();
    op.UpdatePageTable.PageTableAddress.GpuPhysical = SWGPU_SEGMENT_BASE(SWKMD_SEGMENT_APERTURE);
    assert_int_equal(fk.ddi.DxgkDdiBuildPagingBuffer(fk.adapter, &op), STATUS_INVALID_PARAMETER);
    UPT_BASE();
    op.UpdatePageTable.hProcess = g_dev; /* not a process */
    assert_int_equal(fk.ddi.DxgkDdiBuildPagingBuffer(fk.adapter, &op), STATUS_INVALID_PARAMETER);
    UPT_BASE();
    op.UpdatePageTable.Flags.Use64KBPages = 1;
    assert_int_equal(fk.ddi.DxgkDdiBuildPagingBuffer(fk.adapter, &op), STATUS_INVALID_PARAMETER);
    UPT_BASE();
    e.Segment = 7;
    assert_int_equal(fk.ddi.DxgkDdiBuildPagingBuffer(fk.adapter, &op), STATUS_INVALID_PARAMETER);
#undef UPT_BASE
    memset(&op, 0, sizeof op);
    op.pDmaBuffer = dma;
    op.DmaSize = SWKMD_PAGING_BUFFER_SIZE;
    op.Operation = DXGK_OPERATION_FLUSH_TLB;
    op.FlushTlb.hProcess = g_ctx;
    op.FlushTlb.RootPageTableAddress = local_addr(ROOT_OFF);
    assert_int_equal(fk.ddi.DxgkDdiBuildPagingBuffer(fk.adapter, &op), STATUS_INVALID_PARAMETER);
    op.FlushTlb.hProcess = g_proc;
    op.DmaSize = 8;
    assert_int_equal(fk.ddi.DxgkDdiBuildPagingBuffer(fk.adapter, &op), STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER);
    assert_ptr_equal(op.pDmaBuffer, dma);
    assert_int_equal(fk.ddi.DxgkDdiDestroyProcess(fk.adapter, g_ctx), STATUS_INVALID_PARAMETER);
    free(dma);
    free(g_cmd);
    stop_gpummu();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gpummu_caps_are_reported_only_in_the_gpummu_model),
        cmocka_unit_test(page_tables_built_by_the_kmd_translate_as_the_dxgk_ptes_say),
        cmocka_unit_test(page_fault_is_reported_before_its_fence_completes),
        cmocka_unit_test(bad_gpummu_requests_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
