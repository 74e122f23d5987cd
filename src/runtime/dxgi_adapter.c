/*
 * dxgi_adapter.c - the adapter object (IDXGIAdapter .. IDXGIAdapter3): one kernel adapter, its
 * description and VidMm's budgets (issue 15 §3).
 *
 * Windows' answers (DXGI reference; Wine's dxgi tests, run on Windows):
 * - GetDesc*: NULL → E_INVALIDARG. The memory sizes are the kernel's segment sizes
 *   (KMTQAITYPE_GETSEGMENTSIZE), the LUID the kernel's.
 * - EnumOutputs: NULL → E_INVALIDARG; an adapter without outputs → DXGI_ERROR_NOT_FOUND (here
 *   always: libwddm presents nothing on a screen).
 * - CheckInterfaceSupport: IDXGIDevice → S_OK with the UMD's version (the library's, the
 *   reference UMD being part of it); ID3D11Device →
 *   DXGI_ERROR_UNSUPPORTED (the method predates D3D11 and answers so on Windows); ID3D10Device →
 *   S_OK on Windows, DXGI_ERROR_UNSUPPORTED here until the D3D10 API exists (issue 15 §1).
 * - QueryVideoMemoryInfo: node 0 only; a group past NON_LOCAL → E_INVALIDARG; the answer is
 *   D3DKMTQueryVideoMemoryInfo's (Budget ≥ AvailableForReservation, no reservation at first).
 *   SetVideoMemoryReservation → D3DKMTChangeVideoMemoryReservation.
 * - RegisterVideoMemoryBudgetChangeNotificationEvent / Unregister…: dxgi_budget.c.
 */
#include "runtime/runtime.h"
#include "runtime/api_stubs.h"
#include "common/alloc.h"

#include <stdio.h>
#include <stdlib.h>

static const struct IDXGIAdapter3Vtbl adapter_vtbl;

static struct rt_adapter *adapter_from(IDXGIAdapter3 *iface)
{
    return (struct rt_adapter *)iface;
}

struct rt_adapter *rt_adapter_from_iface(IDXGIAdapter *iface)
{
    return iface && (const void *)iface->lpVtbl == (const void *)&adapter_vtbl ? (struct rt_adapter *)iface : NULL;
}

static HRESULT STDMETHODCALLTYPE adapter_QueryInterface(IDXGIAdapter3 *This, REFIID riid, void **out)
{
    if (!out)
        return E_POINTER;
    *out = NULL;
    if (!riid)
        return E_NOINTERFACE;
    if (rt_iid_equal(riid, &IID_IUnknown) || rt_iid_equal(riid, &IID_IDXGIObject) ||
        rt_iid_equal(riid, &IID_IDXGIAdapter) || rt_iid_equal(riid, &IID_IDXGIAdapter1) ||
        rt_iid_equal(riid, &IID_IDXGIAdapter2) || rt_iid_equal(riid, &IID_IDXGIAdapter3)) {
        atomic_fetch_add(&adapter_from(This)->refs, 1);
        *out = This;
        return S_OK;
    }
    return E_NOINTERFACE;
}

static ULONG STDMETHODCALLTYPE adapter_AddRef(IDXGIAdapter3 *This)
{
    return atomic_fetch_add(&adapter_from(This)->refs, 1) + 1;
}

static ULONG STDMETHODCALLTYPE adapter_Release(IDXGIAdapter3 *This)
{
    struct rt_adapter *a = adapter_from(This);
    ULONG n = atomic_fetch_sub(&a->refs, 1) - 1;
    if (n)
        return n;
    rt_private_clear(&a->private_data);
    rt_adapter_budget_events_close(a); /* dxgi_budget.c */
    if (a->km_adapter) {
        D3DKMT_CLOSEADAPTER ca = { .hAdapter = a->km_adapter };
        (void)D3DKMTCloseAdapter(&ca);
    }
    pthread_mutex_destroy(&a->private_lock);
    rt_factory_release(a->factory);
    free(a);
    return 0;
}

RT_PRIVATE_DATA_METHODS(adapter, IDXGIAdapter3, &adapter_from(This)->private_lock, &adapter_from(This)->private_data)

static HRESULT STDMETHODCALLTYPE adapter_GetParent(IDXGIAdapter3 *This, REFIID riid, void **parent)
{
    if (!parent)
        return E_INVALIDARG;
    IDXGIFactory4 *f = &adapter_from(This)->factory->iface;
    return f->lpVtbl->QueryInterface(f, riid, parent);
}

static HRESULT STDMETHODCALLTYPE adapter_EnumOutputs(IDXGIAdapter3 *This, UINT index, IDXGIOutput **out)
{
    if (!out) {
        RT_REFUSE_DXGI(ADAPTER, "IDXGIAdapter::EnumOutputs: ppOutput is NULL");
        return E_INVALIDARG;
    }
    *out = NULL;
    return DXGI_ERROR_NOT_FOUND; /* no outputs: nothing is presented on a screen */
}

static HRESULT STDMETHODCALLTYPE adapter_GetDesc(IDXGIAdapter3 *This, DXGI_ADAPTER_DESC *desc)
{
    if (!desc)
        return E_INVALIDARG;
    memcpy(desc, &adapter_from(This)->desc, sizeof *desc); /* DESC is DESC2's first part */
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE adapter_GetDesc1(IDXGIAdapter3 *This, DXGI_ADAPTER_DESC1 *desc)
{
    if (!desc)
        return E_INVALIDARG;
    memcpy(desc, &adapter_from(This)->desc, sizeof *desc); /* DESC1 is DESC2's first part */
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE adapter_GetDesc2(IDXGIAdapter3 *This, DXGI_ADAPTER_DESC2 *desc)
{
    if (!desc)
        return E_INVALIDARG;
    *desc = adapter_from(This)->desc;
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE adapter_CheckInterfaceSupport(IDXGIAdapter3 *This, REFGUID guid,
                                                               LARGE_INTEGER *umd_version)
{
    if (!guid || !rt_iid_equal(guid, &IID_IDXGIDevice))
        return DXGI_ERROR_UNSUPPORTED; /* ID3D11Device too, as on Windows; ID3D10Device until issue 15 §1 */
    if (umd_version) {
        /* The UMD's file version as four 16-bit words, major first: the reference UMD is part of
         * the library, so the library's version. */
        unsigned major = 0, minor = 0, patch = 0;
        (void)sscanf(wddm_version(), "%u.%u.%u", &major, &minor, &patch);
        umd_version->HighPart = (LONG)((major & 0xffffu) << 16 | (minor & 0xffffu));
        umd_version->LowPart = (UINT32)((patch & 0xffffu) << 16);
    }
    return S_OK;
}

static HRESULT check_node_group(const char *what, UINT node, DXGI_MEMORY_SEGMENT_GROUP group)
{
    if (node != 0) {
        RT_REFUSE_DXGI(ADAPTER, "%s: NodeIndex %u: the adapter has one physical node (0)", what, node);
        return E_INVALIDARG;
    }
    if ((UINT)group > DXGI_MEMORY_SEGMENT_GROUP_NON_LOCAL) {
        RT_REFUSE_DXGI(ADAPTER, "%s: MemorySegmentGroup %u is neither LOCAL nor NON_LOCAL", what, (UINT)group);
        return E_INVALIDARG;
    }
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE adapter_QueryVideoMemoryInfo(IDXGIAdapter3 *This, UINT node,
                                                              DXGI_MEMORY_SEGMENT_GROUP group,
                                                              DXGI_QUERY_VIDEO_MEMORY_INFO *info)
{
    HRESULT hr = check_node_group("IDXGIAdapter3::QueryVideoMemoryInfo", node, group);
    if (FAILED(hr))
        return hr;
    if (!info) {
        RT_REFUSE_DXGI(ADAPTER, "IDXGIAdapter3::QueryVideoMemoryInfo: pVideoMemoryInfo is NULL");
        return E_INVALIDARG;
    }
    D3DKMT_QUERYVIDEOMEMORYINFO q = { .hAdapter = adapter_from(This)->km_adapter,
                                      .MemorySegmentGroup = (D3DKMT_MEMORY_SEGMENT_GROUP)group };
    NTSTATUS st = D3DKMTQueryVideoMemoryInfo(&q);
    if (!NT_SUCCESS(st))
        return rt_ntstatus_to_hresult(st);
    info->Budget = q.Budget;
    info->CurrentUsage = q.CurrentUsage;
    info->AvailableForReservation = q.AvailableForReservation;
    info->CurrentReservation = q.CurrentReservation;
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE adapter_SetVideoMemoryReservation(IDXGIAdapter3 *This, UINT node,
                                                                   DXGI_MEMORY_SEGMENT_GROUP group, UINT64 bytes)
{
    HRESULT hr = check_node_group("IDXGIAdapter3::SetVideoMemoryReservation", node, group);
    if (FAILED(hr))
        return hr;
    D3DKMT_CHANGEVIDEOMEMORYRESERVATION c = { .hAdapter = adapter_from(This)->km_adapter,
                                              .MemorySegmentGroup = (D3DKMT_MEMORY_SEGMENT_GROUP)group,
                                              .Reservation = bytes };
    NTSTATUS st = D3DKMTChangeVideoMemoryReservation(&c);
    if (st == STATUS_INVALID_PARAMETER) {
        RT_REFUSE_DXGI(ADAPTER, "IDXGIAdapter3::SetVideoMemoryReservation: %llu bytes exceed AvailableForReservation",
                  (unsigned long long)bytes);
        return E_INVALIDARG;
    }
    return NT_SUCCESS(st) ? S_OK : rt_ntstatus_to_hresult(st);
}

static HRESULT STDMETHODCALLTYPE adapter_RegisterVideoMemoryBudgetChangeNotificationEvent(IDXGIAdapter3 *This,
                                                                                          HANDLE event, DWORD *cookie)
{
    return rt_adapter_register_budget_event(adapter_from(This), event, cookie);
}

static void STDMETHODCALLTYPE adapter_UnregisterVideoMemoryBudgetChangeNotification(IDXGIAdapter3 *This, DWORD cookie)
{
    rt_adapter_unregister_budget_event(adapter_from(This), cookie);
}

static const struct IDXGIAdapter3Vtbl adapter_vtbl = {
    RT_API_STUBS_IDXGIAdapter3, /* every slot answers "not implemented" until named below */
    .QueryInterface = adapter_QueryInterface,
    .AddRef = adapter_AddRef,
    .Release = adapter_Release,
    RT_PRIVATE_DATA_SLOTS(adapter),
    .GetParent = adapter_GetParent,
    .EnumOutputs = adapter_EnumOutputs,
    .GetDesc = adapter_GetDesc,
    .CheckInterfaceSupport = adapter_CheckInterfaceSupport,
    .GetDesc1 = adapter_GetDesc1,
    .GetDesc2 = adapter_GetDesc2,
    .QueryVideoMemoryInfo = adapter_QueryVideoMemoryInfo,
    .RegisterVideoMemoryBudgetChangeNotificationEvent = adapter_RegisterVideoMemoryBudgetChangeNotificationEvent,
    .UnregisterVideoMemoryBudgetChangeNotification = adapter_UnregisterVideoMemoryBudgetChangeNotification,
    .SetVideoMemoryReservation = adapter_SetVideoMemoryReservation,
};

/* The description: the kernel's LUID and segment sizes; no PCI identity (the reference KMD
 * reports none), not a software adapter (it is driven through WDDM like hardware). */
static void describe(struct rt_adapter *a)
{
    static const char name[] = "libwddm reference adapter";
    DXGI_ADAPTER_DESC2 *d = &a->desc;
    for (size_t i = 0; i < sizeof name; i++)
        d->Description[i] = (WCHAR)name[i];
    D3DKMT_SEGMENTSIZEINFO sizes = { 0 };
    D3DKMT_QUERYADAPTERINFO q = { .hAdapter = a->km_adapter, .Type = KMTQAITYPE_GETSEGMENTSIZE,
                                  .pPrivateDriverData = &sizes, .PrivateDriverDataSize = sizeof sizes };
    if (NT_SUCCESS(D3DKMTQueryAdapterInfo(&q))) {
        d->DedicatedVideoMemory = (SIZE_T)sizes.DedicatedVideoMemorySize;
        d->DedicatedSystemMemory = (SIZE_T)sizes.DedicatedSystemMemorySize;
        d->SharedSystemMemory = (SIZE_T)sizes.SharedSystemMemorySize;
    }
    d->AdapterLuid = a->luid;
    d->Flags = DXGI_ADAPTER_FLAG_NONE;
    /* Preemption granularity: the KMD's (KMTQAITYPE_WDDM_1_2_CAPS). D3DKMDT_*_PREEMPTION_* count
     * in hundreds from DMA_BUFFER_BOUNDARY (100), DXGI_*_PREEMPTION_* from 0; NONE (a KMD that
     * cannot preempt) is reported as the coarsest DXGI level, DMA_BUFFER_BOUNDARY. */
    D3DKMT_WDDM_1_2_CAPS caps = { 0 };
    q = (D3DKMT_QUERYADAPTERINFO){ .hAdapter = a->km_adapter, .Type = KMTQAITYPE_WDDM_1_2_CAPS,
                                   .pPrivateDriverData = &caps, .PrivateDriverDataSize = sizeof caps };
    UINT g = 0, c = 0;
    if (NT_SUCCESS(D3DKMTQueryAdapterInfo(&q))) {
        UINT kg = (UINT)caps.PreemptionCaps.GraphicsPreemptionGranularity;
        UINT kc = (UINT)caps.PreemptionCaps.ComputePreemptionGranularity;
        g = kg >= 100 && kg <= 500 ? kg / 100 - 1 : 0;
        c = kc >= 100 && kc <= 500 ? kc / 100 - 1 : 0;
    }
    d->GraphicsPreemptionGranularity = (DXGI_GRAPHICS_PREEMPTION_GRANULARITY)g;
    d->ComputePreemptionGranularity = (DXGI_COMPUTE_PREEMPTION_GRANULARITY)c;
}

HRESULT rt_adapter_create(struct rt_factory *f, LUID luid, struct rt_adapter **out)
{
    *out = NULL;
    D3DKMT_OPENADAPTERFROMLUID oa = { .AdapterLuid = luid };
    NTSTATUS st = D3DKMTOpenAdapterFromLuid(&oa);
    if (!NT_SUCCESS(st)) {
        RT_REFUSE_DXGI(ADAPTER, "DXGI: the adapter is gone (D3DKMTOpenAdapterFromLuid 0x%08x)", (UINT)st);
        return DXGI_ERROR_NOT_FOUND;
    }
    struct rt_adapter *a = wddm_calloc(1, sizeof *a);
    if (!a) {
        D3DKMT_CLOSEADAPTER ca = { .hAdapter = oa.hAdapter };
        (void)D3DKMTCloseAdapter(&ca);
        return E_OUTOFMEMORY;
    }
    a->iface.lpVtbl = &adapter_vtbl;
    atomic_init(&a->refs, 1);
    atomic_fetch_add(&f->refs, 1);
    a->factory = f;
    a->luid = luid;
    a->km_adapter = oa.hAdapter;
    pthread_mutex_init(&a->private_lock, NULL);
    describe(a);
    *out = a;
    return S_OK;
}
