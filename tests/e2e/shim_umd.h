/* A shim UMD for end-to-end tests: it sits between the runtime and the reference UMD, the way
 * a filter driver would on Windows. The runtime opens it with wddm_set_umd_entry(); it opens
 * the reference UMD and wraps what a test needs to observe or disturb at the DDI boundary:
 * the D3DDDI_DEVICECALLBACKS the reference UMD receives (every pfnLockCb recorded and
 * forwarded), the handle-memory protocol of seed 001 §3, and errors the UMD reports through
 * the runtime's pfnSetErrorCb (injected on demand). */
#ifndef WDDM_TESTS_SHIM_UMD_H
#define WDDM_TESTS_SHIM_UMD_H

#include "e2e/e2e.h"

#include <wddm/wddm.h>

static struct shim {
    D3D10DDI_HRTCORELAYER core;          /* the runtime core layer of the device */
    const D3D11DDI_CORELAYER_DEVICECALLBACKS *core_cb;
    PFND3D10DDI_RESOURCECOPY real_resource_copy;
    HRESULT copy_error;                  /* reported by the next ResourceCopy, then cleared */
    PFND3D10DDI_CREATEDEVICE real_create_device;
    PFND3D11DDI_CREATERESOURCE real_create_resource;
    PFND3D11DDI_CALCPRIVATERESOURCESIZE real_calc_size;
    PFND3D10DDI_DESTROYRESOURCE real_destroy_resource;
    SIZE_T last_size;            /* what CalcPrivateResourceSize answered last */
    UINT calcs, creates, destroys;
    BOOL create_before_calc;     /* a CreateResource came without a CalcPrivateResourceSize */
    void *destroyed;             /* pDrvPrivate of the last DestroyResource */
    D3DDDI_DEVICECALLBACKS wrapped;       /* what the reference UMD calls */
    const D3DDDI_DEVICECALLBACKS *real;   /* the runtime's */
    D3D11DDI_DEVICEFUNCS ctx;             /* the reference UMD's table (its 11.0 slots) */
    D3D10DDI_HDEVICE hdev;
    D3D10DDI_HRESOURCE last_resource;
    UINT locks;
    UINT last_flags;
    UINT lock2s;                          /* pfnLock2Cb calls (the WDDM 2.x / GpuMmu map path) */
    UINT last_lock2_flags;
    /* D3D10 devices (issue 15 §1): what OpenAdapter10 and CreateDevice were asked, the UMD's
     * D3D10.0 / 10.1 table, and the map calls the runtime made through it. */
    UINT open10_calls, open10_interface;  /* OpenAdapter10 calls and the Interface of the last */
    UINT open_calls;                      /* OpenAdapter10_2 calls */
    UINT device_interface;                /* D3D10DDIARG_CREATEDEVICE.Interface of the last device */
    D3D10DDI_DEVICEFUNCS f10;             /* the UMD's 10.x table (10.1: same members, shim.f10 is
                                           * only used for the members both share) */
    PFND3D10DDI_CREATEDEVICE real_create_device10;
    PFND3D10DDI_CREATERESOURCE real_create_resource10;
    PFND3D10DDI_RESOURCEMAP real_map10[5];
    UINT maps10;                          /* map calls through the 10.x table's five map slots */
    /* D3D11.1 (issue 15 §4): hide the 11.1 DDI from GetSupportedVersions, as a UMD written
     * before Windows 8 would list its versions. */
    BOOL hide_11_1;
    PFND3D10_2DDI_GETSUPPORTEDVERSIONS real_versions;
} shim;

static struct {
    UINT renders, submits, maps_va;       /* pfnRenderCb / pfnSubmitCommandCb / pfnMapGpuVirtualAddressCb */
    D3DKMT_HANDLE contexts[8];            /* kernel contexts the UMD created (pfnCreateContextCb) */
    UINT context_count;
    D3DKMT_HANDLE last_allocation;        /* the first allocation of the last pfnAllocateCb */
    D3DKMT_HANDLE last_km_resource;       /* and its kernel resource (0: none) */
} shim_sub;

static inline HRESULT APIENTRY shim_allocate_cb(HANDLE hDevice, D3DDDICB_ALLOCATE *a)
{
    HRESULT hr = shim.real->pfnAllocateCb(hDevice, a);
    if (SUCCEEDED(hr) && a->NumAllocations) {
        shim_sub.last_allocation = a->pAllocationInfo[0].hAllocation;
        shim_sub.last_km_resource = a->hKMResource;
    }
    return hr;
}

static inline HRESULT APIENTRY shim_create_context_cb(HANDLE hDevice, D3DDDICB_CREATECONTEXT *c)
{
    HRESULT hr = shim.real->pfnCreateContextCb(hDevice, c);
    if (SUCCEEDED(hr) && shim_sub.context_count < 8)
        shim_sub.contexts[shim_sub.context_count++] = (D3DKMT_HANDLE)(uintptr_t)c->hContext;
    return hr;
}

static inline HRESULT APIENTRY shim_render_cb(HANDLE hDevice, D3DDDICB_RENDER *r)
{
    shim_sub.renders++;
    return shim.real->pfnRenderCb(hDevice, r);
}

static inline HRESULT APIENTRY shim_submit_cb(HANDLE hDevice, const D3DDDICB_SUBMITCOMMAND *s)
{
    shim_sub.submits++;
    return shim.real->pfnSubmitCommandCb(hDevice, s);
}

static inline HRESULT APIENTRY shim_map_va_cb(HANDLE hDevice, D3DDDI_MAPGPUVIRTUALADDRESS *m)
{
    shim_sub.maps_va++;
    return shim.real->pfnMapGpuVirtualAddressCb(hDevice, m);
}

static inline HRESULT APIENTRY shim_lock2_cb(HANDLE hDevice, D3DDDICB_LOCK2 *lock)
{
    shim.lock2s++;
    shim.last_lock2_flags = lock->Flags.Value;
    return shim.real->pfnLock2Cb(hDevice, lock);
}

static inline HRESULT APIENTRY shim_lock_cb(HANDLE hDevice, D3DDDICB_LOCK *lock)
{
    shim.locks++;
    shim.last_flags = lock->Flags.Value;
    return shim.real->pfnLockCb(hDevice, lock);
}

/* Seed 001 §3: the runtime asks the size, allocates that much, then creates into it. The
 * shim asks for 64 more bytes than the UMD and writes every one of them before the UMD
 * runs: memory the runtime did not really allocate is an ASan error. */
enum { SHIM_EXTRA = 64 };

static inline SIZE_T APIENTRY shim_calc_size(D3D10DDI_HDEVICE d, const D3D11DDIARG_CREATERESOURCE *a)
{
    shim.calcs++;
    shim.last_size = shim.real_calc_size(d, a) + SHIM_EXTRA;
    return shim.last_size;
}

static inline VOID APIENTRY shim_create_resource(D3D10DDI_HDEVICE d, const D3D11DDIARG_CREATERESOURCE *a, D3D10DDI_HRESOURCE r,
                                          D3D10DDI_HRTRESOURCE rt)
{
    shim.creates++;
    if (shim.creates != shim.calcs)
        shim.create_before_calc = TRUE;
    shim.last_resource = r;
    memset(r.pDrvPrivate, 0xA5, shim.last_size);
    shim.real_create_resource(d, a, r, rt);
}

static inline VOID APIENTRY shim_destroy_resource(D3D10DDI_HDEVICE d, D3D10DDI_HRESOURCE r)
{
    shim.destroys++;
    shim.destroyed = r.pDrvPrivate;
    shim.real_destroy_resource(d, r);
}

/* ResourceCopy may report only D3DDDIERR_DEVICEREMOVED (docs/semantics.md §4.4): the tests make
 * it report something else, through the real core-layer callback, as a broken UMD would. */
static inline VOID APIENTRY shim_resource_copy(D3D10DDI_HDEVICE d, D3D10DDI_HRESOURCE dst, D3D10DDI_HRESOURCE src)
{
    shim.real_resource_copy(d, dst, src);
    if (shim.copy_error) {
        HRESULT hr = shim.copy_error;
        shim.copy_error = S_OK;
        shim.core_cb->pfnSetErrorCb(shim.core, hr);
    }
}

static inline HRESULT APIENTRY shim_create_device(D3D10DDI_HADAPTER a, D3D10DDIARG_CREATEDEVICE *args)
{
    shim.real = args->pKTCallbacks;
    shim.wrapped = *args->pKTCallbacks;
    shim.wrapped.pfnLockCb = shim_lock_cb;
    if (shim.wrapped.pfnLock2Cb)
        shim.wrapped.pfnLock2Cb = shim_lock2_cb;
    shim.wrapped.pfnRenderCb = shim_render_cb;
    shim.wrapped.pfnCreateContextCb = shim_create_context_cb;
    shim.wrapped.pfnAllocateCb = shim_allocate_cb;
    if (shim.wrapped.pfnSubmitCommandCb)
        shim.wrapped.pfnSubmitCommandCb = shim_submit_cb;
    if (shim.wrapped.pfnMapGpuVirtualAddressCb)
        shim.wrapped.pfnMapGpuVirtualAddressCb = shim_map_va_cb;
    args->pKTCallbacks = &shim.wrapped;
    shim.device_interface = args->Interface;
    HRESULT hr = shim.real_create_device(a, args);
    if (SUCCEEDED(hr)) {
        /* The slots the tests read and hook have one type and one place in the 11.0 and 11.1
         * tables (the 11.1 one starts with the 11.0 one's slots). */
        D3D11DDI_DEVICEFUNCS *f = args->p11DeviceFuncs;
        memcpy(&shim.ctx, f, sizeof shim.ctx);
        shim.core = args->hRTCoreLayer;
        shim.core_cb = args->p11UMCallbacks;
        shim.real_resource_copy = f->pfnResourceCopy;
        f->pfnResourceCopy = shim_resource_copy;
        shim.hdev = args->hDrvDevice;
        shim.real_create_resource = f->pfnCreateResource;
        f->pfnCreateResource = shim_create_resource;
        shim.real_calc_size = f->pfnCalcPrivateResourceSize;
        f->pfnCalcPrivateResourceSize = shim_calc_size;
        shim.real_destroy_resource = f->pfnDestroyResource;
        f->pfnDestroyResource = shim_destroy_resource;
    }
    return hr;
}

/* The 10.x table's map slots, each counted then forwarded to the UMD's function for it. */
#define SHIM_MAP10(i)                                                                                     \
    static inline VOID APIENTRY shim_map10_##i(D3D10DDI_HDEVICE d, D3D10DDI_HRESOURCE r, UINT s, D3D10_DDI_MAP t, \
                                               UINT f, D3D10DDI_MAPPED_SUBRESOURCE *m)                    \
    { shim.maps10++; shim.real_map10[i](d, r, s, t, f, m); }
SHIM_MAP10(0)
SHIM_MAP10(1)
SHIM_MAP10(2)
SHIM_MAP10(3)
SHIM_MAP10(4)

static inline VOID APIENTRY shim_create_resource10(D3D10DDI_HDEVICE d, const D3D10DDIARG_CREATERESOURCE *a,
                                                   D3D10DDI_HRESOURCE r, D3D10DDI_HRTRESOURCE rt)
{
    shim.creates++;
    shim.last_resource = r;
    shim.real_create_resource10(d, a, r, rt);
}

static inline HRESULT APIENTRY shim_create_device10(D3D10DDI_HADAPTER a, D3D10DDIARG_CREATEDEVICE *args)
{
    shim.real = args->pKTCallbacks;
    shim.wrapped = *args->pKTCallbacks;
    shim.wrapped.pfnLockCb = shim_lock_cb;
    if (shim.wrapped.pfnLock2Cb)
        shim.wrapped.pfnLock2Cb = shim_lock2_cb;
    args->pKTCallbacks = &shim.wrapped;
    shim.device_interface = args->Interface;
    HRESULT hr = shim.real_create_device10(a, args);
    if (SUCCEEDED(hr)) {
        D3D10DDI_DEVICEFUNCS *f = args->pDeviceFuncs; /* the members below sit alike in the 10.1 table */
        shim.f10 = *f;
        shim.hdev = args->hDrvDevice;
        shim.real_create_resource10 = f->pfnCreateResource;
        f->pfnCreateResource = shim_create_resource10;
        PFND3D10DDI_RESOURCEMAP *slots[5] = { &f->pfnResourceMap, &f->pfnStagingResourceMap,
                                               &f->pfnDynamicIABufferMapDiscard, &f->pfnDynamicIABufferMapNoOverwrite,
                                               &f->pfnDynamicResourceMapDiscard };
        PFND3D10DDI_RESOURCEMAP wraps[5] = { shim_map10_0, shim_map10_1, shim_map10_2, shim_map10_3, shim_map10_4 };
        for (int i = 0; i < 5; i++) {
            shim.real_map10[i] = *slots[i];
            *slots[i] = wraps[i];
        }
    }
    return hr;
}

/* The D3D10 runtime's entry (wddm_set_umd_entry10): the reference UMD's OpenAdapter10, wrapped. */
static inline HRESULT APIENTRY shim_open_adapter10(D3D10DDIARG_OPENADAPTER *args)
{
    shim.open10_calls++;
    shim.open10_interface = args->Interface;
    HRESULT hr = OpenAdapter10(args);
    if (SUCCEEDED(hr)) {
        shim.real_create_device10 = args->pAdapterFuncs->pfnCreateDevice;
        args->pAdapterFuncs->pfnCreateDevice = shim_create_device10;
    }
    return hr;
}

static inline HRESULT APIENTRY shim_versions(D3D10DDI_HADAPTER a, UINT32 *n, UINT64 *v)
{
    UINT64 all[16];
    UINT32 count = 16;
    HRESULT hr = shim.real_versions(a, &count, all);
    if (FAILED(hr))
        return hr;
    UINT32 kept = 0;
    for (UINT32 i = 0; i < count; i++)
        if (!shim.hide_11_1 || all[i] != D3D11_1_DDI_SUPPORTED)
            all[kept++] = all[i];
    if (v) {
        if (*n < kept)
            return E_INVALIDARG;
        memcpy(v, all, kept * sizeof *v);
    }
    *n = kept;
    return S_OK;
}

static inline HRESULT APIENTRY shim_open_adapter(D3D10DDIARG_OPENADAPTER *args)
{
    shim.open_calls++;
    HRESULT hr = OpenAdapter10_2(args);
    if (SUCCEEDED(hr)) {
        shim.real_create_device = args->pAdapterFuncs_2->pfnCreateDevice;
        args->pAdapterFuncs_2->pfnCreateDevice = shim_create_device;
        shim.real_versions = args->pAdapterFuncs_2->pfnGetSupportedVersions;
        args->pAdapterFuncs_2->pfnGetSupportedVersions = shim_versions;
    }
    return hr;
}

static inline int shim_setup(void **state)
{
    memset(&shim, 0, sizeof shim);
    memset(&shim_sub, 0, sizeof shim_sub);
    wddm_set_umd_entry(shim_open_adapter);
    int rc = e2e_setup(state);
    wddm_set_umd_entry(NULL);
    return rc;
}

#endif
