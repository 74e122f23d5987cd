/* The reference KMD's adapter-level contract: the DDI table DriverEntry registers, adapter
 * start, QueryAdapterInfo (docs/semantics.md §6), devices, contexts and allocation placement
 * (seed 001 §4.3/§5). */
/* rule: kmd.caps-defaults-schedulingcaps (updated) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "kmd/kmd_test_util.h"

/* rule: kmd.driverentry-calls-dxgkinitialize-driver */
static void driver_entry_table_has_every_ddi_and_the_wddm31_version(void **state)
{
    DRIVER_INITIALIZATION_DATA d;
    SwKmdGetDriverInitializationData(&d);
    assert_int_equal(d.Version, DXGKDDI_INTERFACE_VERSION_WDDM3_1); /* seed 002 needs 3.1 */
    void *p[] = {(void *)d.DxgkDdiAddDevice, (void *)d.DxgkDdiStartDevice, (void *)d.DxgkDdiStopDevice,
                 (void *)d.DxgkDdiRemoveDevice, (void *)d.DxgkDdiInterruptRoutine, (void *)d.DxgkDdiDpcRoutine,
                 (void *)d.DxgkDdiQueryAdapterInfo, (void *)d.DxgkDdiCreateDevice, (void *)d.DxgkDdiCreateAllocation,
                 (void *)d.DxgkDdiDestroyAllocation, (void *)d.DxgkDdiPatch, (void *)d.DxgkDdiSubmitCommand,
                 (void *)d.DxgkDdiBuildPagingBuffer, (void *)d.DxgkDdiQueryCurrentFence,
                 (void *)d.DxgkDdiDestroyDevice, (void *)d.DxgkDdiOpenAllocation, (void *)d.DxgkDdiCloseAllocation,
                 (void *)d.DxgkDdiRender, (void *)d.DxgkDdiCreateContext, (void *)d.DxgkDdiDestroyContext,
                 (void *)d.DxgkDdiPreemptCommand, (void *)d.DxgkDdiResetFromTimeout,
                 (void *)d.DxgkDdiRestartFromTimeout, (void *)d.DxgkDdiQueryDependentEngineGroup,
                 (void *)d.DxgkDdiQueryEngineStatus, (void *)d.DxgkDdiResetEngine};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        assert_non_null(p[i]);
}

/* rule: kmd.queryadapterinfo-wddm-1-3-two-asymmetric */
static void driver_caps_describe_a_wddm13_two_node_patching_gpu(void **state)
{
    assert_int_equal(fk_start(), STATUS_SUCCESS);
    DXGK_DRIVERCAPS caps;
    DXGKARG_QUERYADAPTERINFO q = {DXGKQAITYPE_DRIVERCAPS, NULL, 0, &caps, sizeof caps, 0, NULL};
    assert_int_equal(fk.ddi.DxgkDdiQueryAdapterInfo(fk.adapter, &q), STATUS_SUCCESS);
    assert_int_equal(caps.WDDMVersion, DXGKDDI_WDDMv1_3);
    assert_int_equal(caps.SchedulingCaps.MultiEngineAware, 1);
    assert_int_equal(caps.SchedulingCaps.PreemptionAware, 1); /* issue 4 (test_kmd_preempt_reset) */
    assert_int_equal(caps.MemoryManagementCaps.Value, 0x10); /* CrossAdapterResource: tier 1 (seed 003) */
    assert_int_equal(caps.MemoryManagementCaps.PagingNode, 1);
    assert_int_equal(caps.GpuEngineTopology.NbAsymetricProcessingNodes, 2);
    assert_int_equal(caps.PreemptionCaps.GraphicsPreemptionGranularity, D3DKMDT_GRAPHICS_PREEMPTION_PRIMITIVE_BOUNDARY);
    assert_int_equal(caps.PreemptionCaps.ComputePreemptionGranularity, D3DKMDT_COMPUTE_PREEMPTION_DISPATCH_BOUNDARY);
    assert_int_equal(caps.ApertureSegmentCommitLimit, 32u << 20);
    assert_int_equal(caps.HighestAcceptableAddress.QuadPart, -1);
    assert_true(caps.MaxAllocationListSlotId >= SWKMD_ALLOCATION_LIST_SIZE);

    q.OutputDataSize = sizeof caps - 1;
    assert_int_equal(fk.ddi.DxgkDdiQueryAdapterInfo(fk.adapter, &q), STATUS_BUFFER_TOO_SMALL);
    q.OutputDataSize = sizeof caps;
    q.Type = (DXGK_QUERYADAPTERINFOTYPE)77;
    assert_int_equal(fk.ddi.DxgkDdiQueryAdapterInfo(fk.adapter, &q), STATUS_INVALID_PARAMETER);
    q.Type = DXGKQAITYPE_DRIVERCAPS;
    q.pOutputData = NULL;
    assert_int_equal(fk.ddi.DxgkDdiQueryAdapterInfo(fk.adapter, &q), STATUS_INVALID_PARAMETER);
    fk_stop();
}

/* rule: kmd.segments-two-call-protocol-ids-1 */
/* rule: kmd.segment-layout-1-local-not-cpu (with test sizes) */
static void segments_follow_the_two_call_protocol(void **state)
{
    assert_int_equal(fk_start(), STATUS_SUCCESS);
    DXGK_QUERYSEGMENTOUT out;
    memset(&out, 0, sizeof out);
    DXGKARG_QUERYADAPTERINFO q = {DXGKQAITYPE_QUERYSEGMENT, NULL, 0, &out, sizeof out, 0, NULL};
    assert_int_equal(fk.ddi.DxgkDdiQueryAdapterInfo(fk.adapter, &q), STATUS_SUCCESS);
    assert_int_equal(out.NbSegment, 3);

    DXGK_SEGMENTDESCRIPTOR seg[3];
    memset(seg, 0xCC, sizeof seg);
    out.pSegmentDescriptor = seg;
    assert_int_equal(fk.ddi.DxgkDdiQueryAdapterInfo(fk.adapter, &q), STATUS_SUCCESS);
    assert_int_equal(out.PagingBufferSegmentId, 0);
    assert_int_equal(out.PagingBufferSize, 64 * 1024);
    for (UINT32 i = 0; i < 3; i++) {
        assert_int_equal((UINT64)seg[i].BaseAddress.QuadPart, (UINT64)(i + 1) << 56);
        assert_int_equal(seg[i].CommitLimit, seg[i].Size);
    }
    assert_int_equal(seg[0].Size, 16u << 20); /* WDDM_SEGMENT_LOCAL_MB */
    assert_int_equal(seg[1].Size, 8u << 20);
    assert_int_equal(seg[2].Size, 32u << 20);
    /* Local memory: self-refreshing VRAM, nothing else (issue 20 §5); the aperture is system
     * memory and claims no power preservation. */
    DXGK_SEGMENTFLAGS local = { .Value = 0 };
    local.PreservedDuringStandby = 1;
    assert_int_equal(seg[0].Flags.Value, local.Value);
    assert_int_equal(seg[1].Flags.PreservedDuringStandby, 1);
    assert_int_equal(seg[2].Flags.PreservedDuringStandby, 0);
    assert_int_equal(seg[1].Flags.CpuVisible, 1);
    assert_int_equal(seg[1].Flags.Aperture, 0);
    assert_true(seg[1].CpuTranslatedAddress.QuadPart != 0);
    assert_int_equal(seg[2].Flags.Aperture, 1);
    assert_int_equal(seg[2].Flags.CacheCoherent, 1);
    assert_int_equal(seg[2].Flags.CpuVisible, 0);
    /* The CPU-visible segment's CPU address really is GPU memory: a byte written there by
     * the CPU is what the GPU sees at offset 0 of segment 2. */
    *(volatile BYTE *)(uintptr_t)seg[1].CpuTranslatedAddress.QuadPart = 0x5A;

    out.NbSegment = 2;
    assert_int_equal(fk.ddi.DxgkDdiQueryAdapterInfo(fk.adapter, &q), STATUS_BUFFER_TOO_SMALL);
    q.OutputDataSize = sizeof out - 1;
    assert_int_equal(fk.ddi.DxgkDdiQueryAdapterInfo(fk.adapter, &q), STATUS_BUFFER_TOO_SMALL);
    fk_stop();
}

/* rule: kmd.umd-private-adapter-data-names-nodes */
static void umd_private_data_names_the_nodes(void **state)
{
    assert_int_equal(fk_start(), STATUS_SUCCESS);
    struct swgpu_umd_adapter_info info;
    DXGKARG_QUERYADAPTERINFO q = {DXGKQAITYPE_UMDRIVERPRIVATE, NULL, 0, &info, sizeof info, 0, NULL};
    assert_int_equal(fk.ddi.DxgkDdiQueryAdapterInfo(fk.adapter, &q), STATUS_SUCCESS);
    assert_int_equal(info.magic, SWGPU_PRIVATE_MAGIC);
    assert_int_equal(info.version, SWGPU_PRIVATE_VERSION);
    assert_int_equal(info.node_count, 2);
    assert_int_equal(info.render_node, 0);
    assert_int_equal(info.copy_node, 1);
    assert_int_equal(info.row_pitch_alignment, 256);
    q.OutputDataSize = 4;
    assert_int_equal(fk.ddi.DxgkDdiQueryAdapterInfo(fk.adapter, &q), STATUS_BUFFER_TOO_SMALL);
    fk_stop();
}

/* rule: kmd.contexts-report-dma-buffer-list-sizes */
static void contexts_report_dma_limits_and_check_the_node(void **state)
{
    assert_int_equal(fk_start(), STATUS_SUCCESS);
    DXGK_DEVICEINFO di;
    DXGKARG_CREATEDEVICE cd = {(HANDLE)0x1234, {.Value = 0}, &di};
    assert_int_equal(fk.ddi.DxgkDdiCreateDevice(fk.adapter, &cd), STATUS_SUCCESS);
    HANDLE dev = cd.hDevice;
    assert_non_null(dev);
    assert_ptr_not_equal(dev, (HANDLE)0x1234);

    DXGKARG_CREATECONTEXT cc;
    memset(&cc, 0, sizeof cc);
    cc.NodeOrdinal = 1;
    cc.EngineAffinity = 1;
    assert_int_equal(fk.ddi.DxgkDdiCreateContext(dev, &cc), STATUS_SUCCESS);
    assert_int_equal(cc.ContextInfo.DmaBufferSize, 256 * 1024);
    assert_int_equal(cc.ContextInfo.DmaBufferSegmentSet, 0);
    assert_int_equal(cc.ContextInfo.AllocationListSize, 1024);
    assert_int_equal(cc.ContextInfo.PatchLocationListSize, 4096);
    HANDLE ctx = cc.hContext;

    DXGKARG_CREATECONTEXT bad;
    memset(&bad, 0, sizeof bad);
    bad.NodeOrdinal = 2;
    assert_int_equal(fk.ddi.DxgkDdiCreateContext(dev, &bad), STATUS_INVALID_PARAMETER);
    /* A context handle is not a device handle. */
    assert_int_equal(fk.ddi.DxgkDdiCreateContext(ctx, &bad), STATUS_INVALID_PARAMETER);

    assert_int_equal(fk.ddi.DxgkDdiDestroyContext(ctx), STATUS_SUCCESS);
    assert_int_equal(fk.ddi.DxgkDdiDestroyDevice(dev), STATUS_SUCCESS);
    fk_stop();
}

/* rule: umd.recipe-usage-default-immutable-gpu-only */
/* rule: kmd.createallocation-reads-umd-private-data */
/* rule: kmd.upload-allocations-prefer-aperture */
static void allocation_placement_follows_the_kind(void **state)
{
    assert_int_equal(fk_start(), STATUS_SUCCESS);
    DXGK_ALLOCATIONINFO gi, ui, ri;
    HANDLE g = fk_create_allocation(SWGPU_ALLOC_GPU_ONLY, 1000, &gi);
    HANDLE u = fk_create_allocation(SWGPU_ALLOC_UPLOAD, 4097, &ui);
    HANDLE r = fk_create_allocation(SWGPU_ALLOC_READBACK, 65536, &ri);
    assert_non_null(g);
    assert_non_null(u);
    assert_non_null(r);

    assert_int_equal(gi.Size, 4096);
    assert_int_equal(gi.Alignment, 4096);
    assert_int_equal(gi.AllocationPriority, D3DDDI_ALLOCATIONPRIORITY_NORMAL);
    assert_int_equal(gi.Flags.CpuVisible, 0);
    assert_int_equal(gi.PreferredSegment.SegmentId0, 1);
    assert_int_equal(gi.PreferredSegment.SegmentId1, 2);
    assert_int_equal(gi.SupportedReadSegmentSet, 0x3);
    assert_int_equal(gi.SupportedWriteSegmentSet, 0x3);

    assert_int_equal(ui.Size, 8192);
    assert_int_equal(ui.Flags.CpuVisible, 1);
    assert_int_equal(ui.Flags.Cached, 0);
    assert_int_equal(ui.PreferredSegment.SegmentId0, 3);
    assert_int_equal(ui.PreferredSegment.SegmentId1, 2);
    assert_int_equal(ui.SupportedReadSegmentSet, 0x6);
    assert_int_equal(ui.SupportedWriteSegmentSet, 0x6);
    assert_int_equal(ui.MaximumRenamingListLength, 64);
    /* The list's bytes are bounded too (kmd.h SWKMD_RENAMING_BYTES, 12 MiB): 1 MiB -> 12
     * instances, 4 MiB -> the floor of 3. */
    DXGK_ALLOCATIONINFO bi;
    HANDLE big = fk_create_allocation(SWGPU_ALLOC_UPLOAD, 1u << 20, &bi);
    assert_non_null(big);
    assert_int_equal(bi.MaximumRenamingListLength, 12);
    fk_destroy_allocation(big);
    big = fk_create_allocation(SWGPU_ALLOC_UPLOAD, 4u << 20, &bi);
    assert_non_null(big);
    assert_int_equal(bi.MaximumRenamingListLength, 3);
    fk_destroy_allocation(big);

    assert_int_equal(ri.Size, 65536);
    assert_int_equal(ri.Flags.CpuVisible, 1);
    assert_int_equal(ri.Flags.Cached, 1);
    assert_int_equal(ri.PreferredSegment.SegmentId0, 3);
    assert_int_equal(ri.SupportedReadSegmentSet, 0x4);
    assert_int_equal(ri.SupportedWriteSegmentSet, 0x4);

    /* Preferred segments are members of the supported sets (docs/semantics.md §6.4). */
    DXGK_ALLOCATIONINFO *all[3] = {&gi, &ui, &ri};
    for (int i = 0; i < 3; i++) {
        assert_true(all[i]->SupportedWriteSegmentSet & (1u << (all[i]->PreferredSegment.SegmentId0 - 1)));
        if (all[i]->PreferredSegment.SegmentId1)
            assert_true(all[i]->SupportedWriteSegmentSet & (1u << (all[i]->PreferredSegment.SegmentId1 - 1)));
    }

    /* OpenAllocation gives back the KMD object the kernel's handle data names. */
    DXGK_DEVICEINFO di;
    DXGKARG_CREATEDEVICE cd = {NULL, {.Value = 0}, &di};
    assert_int_equal(fk.ddi.DxgkDdiCreateDevice(fk.adapter, &cd), STATUS_SUCCESS);
    fk.handles[5] = u;
    DXGK_OPENALLOCATIONINFO oi = {5, NULL, 0, NULL};
    DXGKARG_OPENALLOCATION oa = {1, &oi, NULL, 0, 0};
    assert_int_equal(fk.ddi.DxgkDdiOpenAllocation(cd.hDevice, &oa), STATUS_SUCCESS);
    assert_ptr_equal(oi.hDeviceSpecificAllocation, u);
    DXGK_OPENALLOCATIONINFO bad_oi = {9, NULL, 0, NULL};
    DXGKARG_OPENALLOCATION bad_oa = {1, &bad_oi, NULL, 0, 0};
    assert_int_equal(fk.ddi.DxgkDdiOpenAllocation(cd.hDevice, &bad_oa), STATUS_INVALID_PARAMETER);
    HANDLE opened = oi.hDeviceSpecificAllocation;
    DXGKARG_CLOSEALLOCATION cl = {1, &opened};
    assert_int_equal(fk.ddi.DxgkDdiCloseAllocation(cd.hDevice, &cl), STATUS_SUCCESS);
    fk.ddi.DxgkDdiDestroyDevice(cd.hDevice);

    fk_destroy_allocation(g);
    fk_destroy_allocation(u);
    fk_destroy_allocation(r);
    fk_stop();
}

/* swgpu_private.h SWGPU_ALLOC_FLAG_SAMPLED_TEXTURE: a texture the GPU only samples may live in
 * the aperture (system memory) after local and visible memory; the flag means nothing on a
 * CPU-visible kind and is refused there. */
/* rule: umd.sampled-texture-may-live-system-memory */
static void a_sampled_texture_may_live_in_the_aperture_after_video_memory(void **state)
{
    assert_int_equal(fk_start(), STATUS_SUCCESS);
    DXGK_ALLOCATIONINFO ti;
    HANDLE t = fk_create_allocation_flags(SWGPU_ALLOC_GPU_ONLY, 65536, SWGPU_ALLOC_FLAG_SAMPLED_TEXTURE, &ti);
    assert_non_null(t);
    assert_int_equal(ti.Flags.CpuVisible, 0);
    assert_int_equal(ti.PreferredSegment.SegmentId0, 1);
    assert_int_equal(ti.PreferredSegment.SegmentId1, 2);
    assert_int_equal(ti.PreferredSegment.SegmentId2, 3);
    assert_int_equal(ti.SupportedReadSegmentSet, 0x7);
    assert_int_equal(ti.SupportedWriteSegmentSet, 0x7);
    assert_int_equal(ti.EvictionSegmentSet, 0);
    fk_destroy_allocation(t);
    assert_null(fk_create_allocation_flags(SWGPU_ALLOC_UPLOAD, 65536, SWGPU_ALLOC_FLAG_SAMPLED_TEXTURE, NULL));
    assert_null(fk_create_allocation_flags(SWGPU_ALLOC_READBACK, 65536, SWGPU_ALLOC_FLAG_SAMPLED_TEXTURE, NULL));
    assert_null(fk_create_allocation_flags(SWGPU_ALLOC_GPU_ONLY, 65536, 0x80, NULL)); /* unknown flag */
    fk_stop();
}

/* rule: kmd.bad-private-driver-data-status-invalid */
static void allocation_private_data_is_validated(void **state)
{
    assert_int_equal(fk_start(), STATUS_SUCCESS);
    struct swgpu_alloc_private p[4];
    p[0] = fk_private(SWGPU_ALLOC_GPU_ONLY, 4096);
    p[0].magic = 0x1234;
    p[1] = fk_private(SWGPU_ALLOC_GPU_ONLY, 4096);
    p[1].version = 9;
    p[2] = fk_private(7, 4096);
    p[3] = fk_private(SWGPU_ALLOC_UPLOAD, 0);
    for (int i = 0; i < 4; i++) {
        DXGK_ALLOCATIONINFO info;
        memset(&info, 0, sizeof info);
        info.pPrivateDriverData = &p[i];
        info.PrivateDriverDataSize = sizeof p[i];
        DXGKARG_CREATEALLOCATION ca = {NULL, 0, 1, &info, NULL, {.Value = 0}};
        assert_int_equal(fk.ddi.DxgkDdiCreateAllocation(fk.adapter, &ca), STATUS_INVALID_PARAMETER);
    }
    /* Too small a blob; and all-or-nothing for a batch with one bad entry. */
    struct swgpu_alloc_private good = fk_private(SWGPU_ALLOC_GPU_ONLY, 4096);
    DXGK_ALLOCATIONINFO two[2];
    memset(two, 0, sizeof two);
    two[0].pPrivateDriverData = &good;
    two[0].PrivateDriverDataSize = sizeof good;
    two[1].pPrivateDriverData = &good;
    two[1].PrivateDriverDataSize = 8;
    DXGKARG_CREATEALLOCATION ca = {NULL, 0, 2, two, NULL, {.Value = 0}};
    assert_int_equal(fk.ddi.DxgkDdiCreateAllocation(fk.adapter, &ca), STATUS_INVALID_PARAMETER);
    assert_null(two[0].hAllocation);
    fk_stop();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(driver_entry_table_has_every_ddi_and_the_wddm31_version),
        cmocka_unit_test(driver_caps_describe_a_wddm13_two_node_patching_gpu),
        cmocka_unit_test(segments_follow_the_two_call_protocol),
        cmocka_unit_test(umd_private_data_names_the_nodes),
        cmocka_unit_test(contexts_report_dma_limits_and_check_the_node),
        cmocka_unit_test(allocation_placement_follows_the_kind),
        cmocka_unit_test(a_sampled_texture_may_live_in_the_aperture_after_video_memory),
        cmocka_unit_test(allocation_private_data_is_validated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
