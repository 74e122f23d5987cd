/*
 * test_callback_args.c - the argument structures of the runtime callbacks this model does not
 * implement (include/wddm/d3dumddi.h, dxgiddi.h, and the types they hold in d3dukmdt.h; issue 19
 * §2) have the WDK's members, in its order and with its types (the ns-d3dumddi-_d3dddicb_*,
 * ns-d3dukmdt-* and ns-dxgiddi-dxgiddicb_* reference pages), and their enumerations the WDK's
 * values. A UMD written for Windows fills one before calling the callback, as it would there: the
 * call goes through the runtime's real D3DDDI_DEVICECALLBACKS, D3DDDI_ADAPTERCALLBACKS and
 * DXGI_DDI_BASE_CALLBACKS (handed to the UMD at OpenAdapter and CreateDevice), answers E_NOTIMPL,
 * leaves a refusal naming the callback, and touches nothing the driver filled. pfnQueryResidencyCb,
 * modeled since (D3DKMTQueryAllocationResidency), refuses the same call's forged handles.
 * docs/rules/runtime.md.
 */
#include "e2e/e2e.h"

#include <stddef.h>

#include <wddm/wddm.h>

#define AT(type, member) offsetof(type, member)

/* ---- Layouts on x86-64, worked out from the reference pages' member lists ---------------------- */

/* rule: runtime.argument-structures-runtime-callbacks */
static void device_callback_arguments_have_the_wdk_layout(void **state)
{
    (void)state;
    /* HANDLE, a 4-byte flags union, a pointer, a UINT, a HANDLE. */
    assert_int_equal(AT(D3DDDICB_ESCAPE, hDevice), 0);
    assert_int_equal(AT(D3DDDICB_ESCAPE, Flags), 8);
    assert_int_equal(AT(D3DDDICB_ESCAPE, pPrivateDriverData), 16);
    assert_int_equal(AT(D3DDDICB_ESCAPE, PrivateDriverDataSize), 24);
    assert_int_equal(AT(D3DDDICB_ESCAPE, hContext), 32);
    assert_int_equal(sizeof(D3DDDICB_ESCAPE), 40);

    /* Two kernel handles, the context, the broadcast count and 64 context handles, then the
     * WDDM 2.0 members (two handle arrays, the private data, a BOOLEAN) and 2.2's override. */
    assert_int_equal(AT(D3DDDICB_PRESENT, hDstAllocation), 4);
    assert_int_equal(AT(D3DDDICB_PRESENT, hContext), 8);
    assert_int_equal(AT(D3DDDICB_PRESENT, BroadcastContextCount), 16);
    assert_int_equal(AT(D3DDDICB_PRESENT, BroadcastContext), 24);
    assert_int_equal(AT(D3DDDICB_PRESENT, BroadcastSrcAllocation), 24 + 64 * 8);
    assert_int_equal(AT(D3DDDICB_PRESENT, BroadcastDstAllocation), 544);
    assert_int_equal(AT(D3DDDICB_PRESENT, PrivateDriverDataSize), 552);
    assert_int_equal(AT(D3DDDICB_PRESENT, pPrivateDriverData), 560);
    assert_int_equal(AT(D3DDDICB_PRESENT, bOptimizeForComposition), 568);
    assert_int_equal(AT(D3DDDICB_PRESENT, SyncIntervalOverrideValid), 572);
    assert_int_equal(AT(D3DDDICB_PRESENT, SyncIntervalOverride), 576);
    assert_int_equal(sizeof(D3DDDICB_PRESENT), 584);

    /* Priorities and residency: a HANDLE, a count, two pointers. */
    assert_int_equal(AT(D3DDDICB_SETPRIORITY, hResource), 0);
    assert_int_equal(AT(D3DDDICB_SETPRIORITY, NumAllocations), 8);
    assert_int_equal(AT(D3DDDICB_SETPRIORITY, HandleList), 16);
    assert_int_equal(AT(D3DDDICB_SETPRIORITY, pPriorities), 24);
    assert_int_equal(sizeof(D3DDDICB_SETPRIORITY), 32);
    assert_int_equal(AT(D3DDDICB_QUERYRESIDENCY, HandleList), 16);
    assert_int_equal(AT(D3DDDICB_QUERYRESIDENCY, pResidencyStatus), 24);
    assert_int_equal(sizeof(D3DDDICB_QUERYRESIDENCY), 32);
    assert_int_equal(AT(D3DDDICB_SETDISPLAYMODE, PrivateDriverFormatAttribute), 4);
    assert_int_equal(AT(D3DDDICB_SETDISPLAYPRIVATEDRIVERFORMAT, PrivateDriverFormatAttribute), 4);

    /* Overlays: the kernel overlay info is a handle, two 16-byte rectangles, a pointer, a size. */
    assert_int_equal(AT(D3DDDI_KERNELOVERLAYINFO, DstRect), 4);
    assert_int_equal(AT(D3DDDI_KERNELOVERLAYINFO, SrcRect), 20);
    assert_int_equal(AT(D3DDDI_KERNELOVERLAYINFO, pPrivateDriverData), 40);
    assert_int_equal(AT(D3DDDI_KERNELOVERLAYINFO, PrivateDriverDataSize), 48);
    assert_int_equal(sizeof(D3DDDI_KERNELOVERLAYINFO), 56);
    assert_int_equal(AT(D3DDDICB_CREATEOVERLAY, OverlayInfo), 8);
    assert_int_equal(AT(D3DDDICB_CREATEOVERLAY, hKernelOverlay), 64);
    assert_int_equal(sizeof(D3DDDICB_CREATEOVERLAY), 72);
    assert_int_equal(AT(D3DDDICB_UPDATEOVERLAY, OverlayInfo), 8);
    assert_int_equal(AT(D3DDDICB_FLIPOVERLAY, hSource), 4);
    assert_int_equal(AT(D3DDDICB_FLIPOVERLAY, pPrivateDriverData), 8);
    assert_int_equal(sizeof(D3DDDICB_FLIPOVERLAY), 24);
    assert_int_equal(sizeof(D3DDDICB_DESTROYOVERLAY), 4);

    /* The first synchronization objects: the 68-byte info, then the handle; a context, a count
     * and a fixed array of 32 handles, the 2 forms' fence value (8-aligned) or flags after it. */
    assert_int_equal(AT(D3DDDICB_CREATESYNCHRONIZATIONOBJECT, hSyncObject), 68);
    assert_int_equal(AT(D3DDDICB_WAITFORSYNCHRONIZATIONOBJECT, ObjectHandleArray), 12);
    assert_int_equal(sizeof(D3DDDICB_WAITFORSYNCHRONIZATIONOBJECT), 144);
    assert_int_equal(AT(D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT, Flags), 140);
    assert_int_equal(AT(D3DDDICB_WAITFORSYNCHRONIZATIONOBJECT2, FenceValue), 144);
    assert_int_equal(sizeof(D3DDDICB_WAITFORSYNCHRONIZATIONOBJECT2), 152);
    assert_int_equal(AT(D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT2, Flags), 140);
    assert_int_equal(AT(D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT2, BroadcastContextCount), 144);
    assert_int_equal(AT(D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT2, BroadcastContext), 152);
    assert_int_equal(AT(D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT2, FenceValue), 152 + 64 * 8);
    assert_int_equal(AT(D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT2, CpuEventHandle), 664);
    assert_int_equal(sizeof(D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT2), 672);
    assert_int_equal(AT(D3DDDICB_SIGNALSYNCHRONIZATIONOBJECTFROMGPU2, ObjectHandleArray), 8);
    assert_int_equal(AT(D3DDDICB_SIGNALSYNCHRONIZATIONOBJECTFROMGPU2, Flags), 16);
    assert_int_equal(AT(D3DDDICB_SIGNALSYNCHRONIZATIONOBJECTFROMGPU2, BroadcastContextCount), 20);
    assert_int_equal(AT(D3DDDICB_SIGNALSYNCHRONIZATIONOBJECTFROMGPU2, BroadcastContextArray), 24);
    assert_int_equal(AT(D3DDDICB_SIGNALSYNCHRONIZATIONOBJECTFROMGPU2, MonitoredFenceValueArray), 32);
    assert_int_equal(sizeof(D3DDDICB_SIGNALSYNCHRONIZATIONOBJECTFROMGPU2), 96);

    /* Offers and reclaims: the runtime-handle array first, then the kernel-handle list. */
    assert_int_equal(AT(D3DDDICB_OFFERALLOCATIONS, pResources), 0);
    assert_int_equal(AT(D3DDDICB_OFFERALLOCATIONS, HandleList), 8);
    assert_int_equal(AT(D3DDDICB_OFFERALLOCATIONS, NumAllocations), 16);
    assert_int_equal(AT(D3DDDICB_OFFERALLOCATIONS, Priority), 20);
    assert_int_equal(sizeof(D3DDDICB_OFFERALLOCATIONS), 24);
    assert_int_equal(AT(D3DDDICB_OFFERALLOCATIONS2, HandleList), 8);
    assert_int_equal(AT(D3DDDICB_OFFERALLOCATIONS2, Flags), 24);
    assert_int_equal(sizeof(D3DDDICB_OFFERALLOCATIONS2), 32);
    assert_int_equal(AT(D3DDDICB_RECLAIMALLOCATIONS, HandleList), 8);
    assert_int_equal(AT(D3DDDICB_RECLAIMALLOCATIONS, pDiscarded), 16);
    assert_int_equal(AT(D3DDDICB_RECLAIMALLOCATIONS, NumAllocations), 24);
    assert_int_equal(AT(D3DDDICB_RECLAIMALLOCATIONS2, NumAllocations), 4);
    assert_int_equal(AT(D3DDDICB_RECLAIMALLOCATIONS2, pResources), 8);
    assert_int_equal(AT(D3DDDICB_RECLAIMALLOCATIONS2, HandleList), 16);
    assert_int_equal(AT(D3DDDICB_RECLAIMALLOCATIONS2, pDiscarded), 24);
    assert_int_equal(AT(D3DDDICB_RECLAIMALLOCATIONS2, PagingFenceValue), 32);
    assert_int_equal(AT(D3DDDICB_RECLAIMALLOCATIONS3, pResources), 8);
    assert_int_equal(AT(D3DDDICB_RECLAIMALLOCATIONS3, HandleList), 16);
    assert_int_equal(AT(D3DDDICB_RECLAIMALLOCATIONS3, pResults), 24);
    assert_int_equal(sizeof(D3DDDICB_RECLAIMALLOCATIONS3), 40);

    /* GPU virtual addressing: a batch of 64-byte operations (a 4-byte type, then 8-aligned). */
    assert_int_equal(AT(D3DDDI_UPDATEGPUVIRTUALADDRESS_OPERATION, Map), 8);
    assert_int_equal(AT(D3DDDI_UPDATEGPUVIRTUALADDRESS_OPERATION, MapProtect.hAllocation), 24);
    assert_int_equal(AT(D3DDDI_UPDATEGPUVIRTUALADDRESS_OPERATION, MapProtect.AllocationOffsetInBytes), 32);
    assert_int_equal(AT(D3DDDI_UPDATEGPUVIRTUALADDRESS_OPERATION, MapProtect.DriverProtection), 56);
    assert_int_equal(AT(D3DDDI_UPDATEGPUVIRTUALADDRESS_OPERATION, Copy.DestAddress), 24);
    assert_int_equal(sizeof(D3DDDI_UPDATEGPUVIRTUALADDRESS_OPERATION), 64);
    assert_int_equal(AT(D3DDDICB_UPDATEGPUVIRTUALADDRESS, hFenceObject), 8);
    assert_int_equal(AT(D3DDDICB_UPDATEGPUVIRTUALADDRESS, NumOperations), 12);
    assert_int_equal(AT(D3DDDICB_UPDATEGPUVIRTUALADDRESS, Operations), 16);
    assert_int_equal(AT(D3DDDICB_UPDATEGPUVIRTUALADDRESS, Reserved1), 32);
    assert_int_equal(AT(D3DDDICB_UPDATEGPUVIRTUALADDRESS, FenceValue), 40);
    assert_int_equal(AT(D3DDDICB_UPDATEGPUVIRTUALADDRESS, Flags), 48);
    assert_int_equal(sizeof(D3DDDICB_UPDATEGPUVIRTUALADDRESS), 56);
    assert_int_equal(AT(D3DDDICB_CREATECONTEXTVIRTUAL, Flags), 8);
    assert_int_equal(AT(D3DDDICB_CREATECONTEXTVIRTUAL, pPrivateDriverData), 16);
    assert_int_equal(AT(D3DDDICB_CREATECONTEXTVIRTUAL, hContext), 32);
    assert_int_equal(sizeof(D3DDDICB_CREATECONTEXTVIRTUAL), 40);
    assert_int_equal(AT(D3DDDICB_DEALLOCATE2, HandleList), 16);
    assert_int_equal(AT(D3DDDICB_DEALLOCATE2, Flags), 24);
    assert_int_equal(AT(D3DDDI_UPDATEALLOCPROPERTY, PreferredSegment), 12);
    assert_int_equal(AT(D3DDDI_UPDATEALLOCPROPERTY, Flags), 16);
    assert_int_equal(AT(D3DDDI_UPDATEALLOCPROPERTY, PagingFenceValue), 24);
    assert_int_equal(AT(D3DDDI_UPDATEALLOCPROPERTY, PropertyMaskValue), 32);
    assert_int_equal(sizeof(D3DDDI_UPDATEALLOCPROPERTY), 40);
    assert_int_equal(AT(D3DDDI_GETRESOURCEPRESENTPRIVATEDRIVERDATA, pPrivateDriverData), 8);

    /* Multiplane overlays, markers, caches, adapter queries. */
    assert_int_equal(AT(D3DDDICB_PRESENTMULTIPLANEOVERLAY, BroadcastContext), 16);
    assert_int_equal(AT(D3DDDICB_PRESENTMULTIPLANEOVERLAY, AllocationInfoCount), 16 + 64 * 8);
    assert_int_equal(AT(D3DDDICB_PRESENTMULTIPLANEOVERLAY, AllocationInfo), 532);
    assert_int_equal(sizeof(D3DDDICB_PRESENTMULTIPLANEOVERLAY), 664);
    assert_int_equal(AT(D3DDDICB_LOGUMDMARKER, APISequenceNumber), 8);
    assert_int_equal(AT(D3DDDICB_LOGUMDMARKER, StringIndex), 20);
    assert_int_equal(AT(D3DDDICB_LOGUMDMARKER, Info), 24);
    assert_int_equal(AT(D3DDDICB_INVALIDATECACHE, Offset), 8);
    assert_int_equal(AT(D3DDDICB_INVALIDATECACHE, Length), 16);
    assert_int_equal(AT(D3DDDICB_QUERYADAPTERINFO2, pPrivateDriverData), 8);
    assert_int_equal(AT(D3DDDICB_QUERYADAPTERINFO2, PrivateDriverDataSize), 16);
    assert_int_equal(AT(D3DDDICB_GETMULTISAMPLEMETHODLIST, Format), 12);
    assert_int_equal(AT(D3DDDICB_GETMULTISAMPLEMETHODLIST, pMethodList), 16);
    assert_int_equal(AT(D3DDDICB_GETMULTISAMPLEMETHODLIST, MethodCount), 24);
}

/* rule: runtime.argument-structures-runtime-callbacks */
static void dxgi_callback_arguments_have_the_wdk_layout(void **state)
{
    (void)state;
    /* D3DDDICB_PRESENT with DXGI's context pointer after the two allocations. */
    assert_int_equal(AT(DXGIDDICB_PRESENT, pDXGIContext), 8);
    assert_int_equal(AT(DXGIDDICB_PRESENT, hContext), 16);
    assert_int_equal(AT(DXGIDDICB_PRESENT, BroadcastContext), 32);
    assert_int_equal(AT(DXGIDDICB_PRESENT, BroadcastSrcAllocation), 32 + 64 * 8);
    assert_int_equal(AT(DXGIDDICB_PRESENT, pPrivateDriverData), 568);
    assert_int_equal(AT(DXGIDDICB_PRESENT, bOptimizeForComposition), 576);
    assert_int_equal(AT(DXGIDDICB_PRESENT, SyncIntervalOverride), 584);
    assert_int_equal(sizeof(DXGIDDICB_PRESENT), 592);
    assert_int_equal(AT(DXGIDDICB_PRESENT_MULTIPLANE_OVERLAY, BroadcastContext), 24);
    assert_int_equal(AT(DXGIDDICB_PRESENT_MULTIPLANE_OVERLAY, AllocationInfoCount), 24 + 64 * 8);
    assert_int_equal(AT(DXGIDDICB_PRESENT_MULTIPLANE_OVERLAY, AllocationInfo), 540);
    assert_int_equal(AT(DXGIDDICB_PRESENT_MULTIPLANE_OVERLAY, AllocationInfo[1].SubResourceIndex), 552);
    assert_int_equal(sizeof(DXGIDDICB_PRESENT_MULTIPLANE_OVERLAY), 672);
}

/* Values and bit positions (the ne-* pages, the structures' pages for the bits). */
/* rule: runtime.argument-structures-runtime-callbacks */
static void enumerations_and_flags_have_the_wdk_values(void **state)
{
    (void)state;
    assert_int_equal(D3DDDI_OFFER_PRIORITY_NONE, 0);
    assert_int_equal(D3DDDI_OFFER_PRIORITY_LOW, 1);
    assert_int_equal(D3DDDI_OFFER_PRIORITY_AUTO, 4);
    assert_int_equal(D3DDDI_RESIDENCYSTATUS_RESIDENTINGPUMEMORY, 1);   /* unconfirmed */
    assert_int_equal(D3DDDI_RESIDENCYSTATUS_NOTRESIDENT, 3);           /* unconfirmed */
    assert_int_equal(D3DDDI_UPDATEGPUVIRTUALADDRESS_COPY, 2);
    assert_int_equal(D3DDDI_UPDATEGPUVIRTUALADDRESS_MAP_PROTECT, 3);
    assert_int_equal(D3DDDI_FLIPINTERVAL_FOUR, 4);
    assert_int_equal(DXGI_DDI_FLIP_INTERVAL_TWO, 2);
    assert_int_equal(D3DDDI_QUERYADAPTERTYPE_QUERYREGISTRY, 1);        /* unconfirmed */
    assert_int_equal(D3DDDI_MAX_MULTIPLANE_OVERLAY_ALLOCATIONS, 16);
    assert_int_equal(DXGI_DDI_MAX_MULTIPLANE_OVERLAY_ALLOCATIONS, 16);

    D3DDDI_OFFER_FLAGS offer = { .AllowDecommit = 1 };
    assert_int_equal(offer.Value, 0x1);
    D3DDDI_UPDATEALLOCPROPERTY prop = { .SetPreferredSegment = 1 };
    assert_int_equal(prop.PropertyMaskValue, 0x4);
    D3DDDICB_UPDATEGPUVIRTUALADDRESS update = { .Flags.DoNotWait = 1 };
    assert_int_equal(update.Flags.Value, 0x1);
    D3DDDICB_DEALLOCATE2 dealloc = { .Flags.SynchronousDestroy = 1 };
    assert_int_equal(dealloc.Flags.Value, 0x2);
    D3DDDICB_ESCAPE escape = { .Flags.HardwareAccess = 1 };
    assert_int_equal(escape.Flags.Value, 0x1);
}

/* ---- A Windows UMD fills the arguments and calls the runtime's callbacks ----------------------- */

static struct {
    PFND3D10DDI_CREATEDEVICE real_create_device;
    BOOL called;
    HRESULT escape, set_priority, residency, present, create_overlay, flip_overlay, wait2, signal2, offer2,
        reclaim3, update_va, context_virtual, marker, multisample, dxgi_present, dxgi_mpo;
    D3DDDI_RESIDENCYSTATUS residency_status[2];
    BOOL untouched;                     /* every out member the driver preset is as it left it */
    int unnamed;                        /* calls whose refusal did not name the callback */
} u;

/* Each call leaves a refusal naming its callback (the runtime keeps the last four lines). */
static HRESULT named(const char *slot, HRESULT hr)
{
    char why[1024];
    wddm_last_refusals(why, sizeof why);
    if (!strstr(why, slot))
        u.unnamed++;
    wddm_clear_refusals();
    return hr;
}
#define CALL(table, slot, ...) named(#slot, (table)->slot(__VA_ARGS__))

static UINT driver_blob[4] = { 0x57444D31u, 2, 3, 4 };

static void call_device_callbacks(const D3DDDI_DEVICECALLBACKS *cb, HANDLE hDevice, HANDLE hContext)
{
    const D3DKMT_HANDLE allocations[2] = { 0x40000101, 0x40000102 };
    const UINT priorities[2] = { D3DDDI_ALLOCATIONPRIORITY_HIGH, D3DDDI_ALLOCATIONPRIORITY_LOW };

    /* As a Windows UMD reaches its KMD's DxgkDdiEscape. */
    D3DDDICB_ESCAPE escape = { 0 };
    escape.hDevice = hDevice;
    escape.Flags.HardwareAccess = 1;
    escape.pPrivateDriverData = driver_blob;
    escape.PrivateDriverDataSize = sizeof driver_blob;
    escape.hContext = hContext;
    u.escape = CALL(cb, pfnEscapeCb, hDevice, &escape);

    D3DDDICB_SETPRIORITY priority = { .hResource = NULL, .NumAllocations = 2, .HandleList = allocations,
                                      .pPriorities = priorities };
    u.set_priority = CALL(cb, pfnSetPriorityCb, hDevice, &priority);

    u.residency_status[0] = u.residency_status[1] = D3DDDI_RESIDENCYSTATUS_NOTRESIDENT;
    D3DDDICB_QUERYRESIDENCY residency = { .NumAllocations = 2, .HandleList = allocations,
                                          .pResidencyStatus = u.residency_status };
    u.residency = CALL(cb, pfnQueryResidencyCb, hDevice, &residency);

    D3DKMT_HANDLE src[1] = { allocations[0] };
    D3DDDICB_PRESENT present = { .hSrcAllocation = allocations[0], .hContext = hContext, .BroadcastContextCount = 1,
                                 .BroadcastContext = { hContext }, .BroadcastSrcAllocation = src,
                                 .SyncIntervalOverrideValid = TRUE, .SyncIntervalOverride = D3DDDI_FLIPINTERVAL_ONE };
    u.present = CALL(cb, pfnPresentCb, hDevice, &present);

    D3DDDICB_CREATEOVERLAY overlay = { .VidPnSourceId = 0,
                                       .OverlayInfo = { .hAllocation = allocations[1],
                                                        .DstRect = { 0, 0, 640, 480 }, .SrcRect = { 0, 0, 320, 240 } },
                                       .hKernelOverlay = 0xdead };
    u.create_overlay = CALL(cb, pfnCreateOverlayCb, hDevice, &overlay);
    D3DDDICB_FLIPOVERLAY flip = { .hKernelOverlay = 0xdead, .hSource = allocations[1] };
    u.flip_overlay = CALL(cb, pfnFlipOverlayCb, hDevice, &flip);

    D3DDDICB_WAITFORSYNCHRONIZATIONOBJECT2 wait = { .hContext = hContext, .ObjectCount = 1,
                                                    .ObjectHandleArray = { 0x40000201 }, .FenceValue = 7 };
    u.wait2 = CALL(cb, pfnWaitForSynchronizationObject2Cb, hDevice, &wait);
    D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT2 signal = { .hContext = hContext, .ObjectCount = 1,
                                                     .ObjectHandleArray = { 0x40000201 },
                                                     .BroadcastContextCount = 1, .BroadcastContext = { hContext },
                                                     .FenceValue = 8 };
    u.signal2 = CALL(cb, pfnSignalSynchronizationObject2Cb, hDevice, &signal);

    D3DDDICB_OFFERALLOCATIONS2 offer = { .HandleList = allocations, .NumAllocations = 2,
                                         .Priority = D3DDDI_OFFER_PRIORITY_LOW, .Flags.AllowDecommit = 1 };
    u.offer2 = CALL(cb, pfnOfferAllocations2Cb, hDevice, &offer);
    D3DDDI_RECLAIM_RESULT results[2] = { D3DDDI_RECLAIM_RESULT_NOT_COMMITTED, D3DDDI_RECLAIM_RESULT_NOT_COMMITTED };
    D3DDDICB_RECLAIMALLOCATIONS3 reclaim = { .PagingQueue = 0x40000301, .NumAllocations = 2, .HandleList = allocations,
                                             .pResults = results, .PagingFenceValue = 99 };
    u.reclaim3 = CALL(cb, pfnReclaimAllocations3Cb, hDevice, &reclaim);

    D3DDDI_UPDATEGPUVIRTUALADDRESS_OPERATION ops[1] = { { .OperationType = D3DDDI_UPDATEGPUVIRTUALADDRESS_MAP,
                                                          .Map = { .BaseAddress = 0x100000, .SizeInBytes = 0x10000,
                                                                   .hAllocation = allocations[0],
                                                                   .AllocationSizeInBytes = 0x10000 } } };
    D3DDDICB_UPDATEGPUVIRTUALADDRESS update = { .hContext = hContext, .hFenceObject = 0x40000201, .NumOperations = 1,
                                                .Operations = ops, .FenceValue = 9, .Flags.DoNotWait = 1 };
    u.update_va = CALL(cb, pfnUpdateGpuVirtualAddressCb, hDevice, &update);

    D3DDDICB_CREATECONTEXTVIRTUAL context = { .NodeOrdinal = 0, .Flags.NullRendering = 1, .hContext = (HANDLE)0x5a };
    u.context_virtual = CALL(cb, pfnCreateContextVirtualCb, hDevice, &context);

    static const WCHAR info[] = { 'f', 'r', 'a', 'm', 'e', 0 };
    D3DDDICB_LOGUMDMARKER marker = { .hContext = hContext, .APISequenceNumber = 42, .Index = -1, .Info = info };
    u.marker = CALL(cb, pfnLogUMDMarkerCb, hDevice, &marker);

    u.untouched = overlay.hKernelOverlay == 0xdead && context.hContext == (HANDLE)0x5a &&
                  results[1] == D3DDDI_RECLAIM_RESULT_NOT_COMMITTED &&
                  reclaim.PagingFenceValue == 99 && escape.PrivateDriverDataSize == sizeof driver_blob &&
                  driver_blob[0] == 0x57444D31u;
}

static HRESULT APIENTRY calling_create_device(D3D10DDI_HADAPTER a, D3D10DDIARG_CREATEDEVICE *args)
{
    HRESULT hr = u.real_create_device(a, args);
    if (FAILED(hr) || !args->pKTCallbacks || !args->DXGIBaseDDI.pDXGIBaseCallbacks)
        return hr;
    u.called = TRUE;
    HANDLE hDevice = args->hRTDevice.handle;
    HANDLE hContext = (HANDLE)0x1; /* any: the callbacks read nothing */
    wddm_clear_refusals();
    call_device_callbacks(args->pKTCallbacks, hDevice, hContext);

    const DXGI_DDI_BASE_CALLBACKS *dxgi = args->DXGIBaseDDI.pDXGIBaseCallbacks;
    DXGIDDICB_PRESENT present = { .hSrcAllocation = 0x40000101, .pDXGIContext = &u, .hContext = hContext,
                                  .BroadcastContextCount = 1, .BroadcastContext = { hContext } };
    u.dxgi_present = CALL(dxgi, pfnPresentCb, hDevice, &present);
    DXGIDDICB_PRESENT_MULTIPLANE_OVERLAY mpo = { .pDXGIContext = &u, .hContext = hContext, .AllocationInfoCount = 2,
                                                 .AllocationInfo = { { 0x40000101, 0 }, { 0x40000102, 1 } } };
    u.dxgi_mpo = CALL(dxgi, pfnPresentMultiplaneOverlayCb, hDevice, &mpo);
    return hr;
}

static HRESULT APIENTRY calling_open_adapter(D3D10DDIARG_OPENADAPTER *args)
{
    HRESULT hr = OpenAdapter10_2(args);
    if (SUCCEEDED(hr)) {
        u.real_create_device = args->pAdapterFuncs_2->pfnCreateDevice;
        args->pAdapterFuncs_2->pfnCreateDevice = calling_create_device;
        D3DDDI_MULTISAMPLINGMETHOD methods[4];
        D3DDDICB_GETMULTISAMPLEMETHODLIST list = { .VidPnSourceId = 0, .Width = 1920, .Height = 1080,
                                                   .Format = D3DDDIFMT_X8R8G8B8, .pMethodList = methods,
                                                   .MethodCount = 4 };
        wddm_clear_refusals();
        u.multisample = CALL(args->pAdapterCallbacks, pfnGetMultisampleMethodListCb, args->hRTAdapter.handle, &list);
        if (list.MethodCount != 4)
            u.multisample = E_FAIL; /* the count was written */
    }
    return hr;
}

/* rule: runtime.pfnqueryresidencycb (forged handles: `E_INVALIDARG`, the array untouched) */
/* rule: runtime.argument-structures-runtime-callbacks (mutation-checked: two `D3DDDICB_ESCAPE`, `D3DDDICB_SETPRIORITY` or `D3DDDICB_RECLAIMALLOCATIONS3` members swapped, a BOOL narrowed to BOOLEAN, the kernel overlay's handle moved, `DXGIDDICB_PRESENT`'s context pointer moved, an offer or destroy flag bit moved, an offer priority changed, a stub answering S_OK, writing an out member or naming another callback: each fails it; the broadcast array of `D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT2` as D3DKMT_HANDLEs fails its build) */
static void a_windows_driver_fills_the_arguments_and_learns_e_notimpl(void **state)
{
    (void)state;
    memset(&u, 0, sizeof u);
    wddm_set_umd_entry(calling_open_adapter);
    ID3D11Device *dev = NULL;
    ID3D11DeviceContext *ctx = NULL;
    HRESULT hr = D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev, NULL, &ctx);
    wddm_set_umd_entry(NULL);
    assert_int_equal(hr, S_OK);
    assert_true(u.called);

    /* pfnQueryResidencyCb is modeled (D3DKMTQueryAllocationResidency): the forged handles are
     * refused with the status array as the driver left it. */
    assert_int_equal(u.residency, E_INVALIDARG);
    assert_int_equal(u.residency_status[0], D3DDDI_RESIDENCYSTATUS_NOTRESIDENT);
    assert_int_equal(u.residency_status[1], D3DDDI_RESIDENCYSTATUS_NOTRESIDENT);
    const HRESULT answers[] = { u.escape, u.set_priority, u.present, u.create_overlay, u.flip_overlay,
                                u.wait2, u.signal2, u.offer2, u.reclaim3, u.update_va, u.context_virtual, u.marker,
                                u.multisample, u.dxgi_present, u.dxgi_mpo };
    for (size_t i = 0; i < sizeof answers / sizeof answers[0]; i++)
        assert_int_equal(answers[i], E_NOTIMPL);
    assert_true(u.untouched);
    assert_int_equal(u.unnamed, 0);

    ID3D11DeviceContext_Release(ctx);
    assert_int_equal(ID3D11Device_Release(dev), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(device_callback_arguments_have_the_wdk_layout),
        cmocka_unit_test(dxgi_callback_arguments_have_the_wdk_layout),
        cmocka_unit_test(enumerations_and_flags_have_the_wdk_values),
        cmocka_unit_test(a_windows_driver_fills_the_arguments_and_learns_e_notimpl),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
