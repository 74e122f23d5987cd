/* Standard allocations: allocations the kernel makes itself (docs/semantics.md §6.5, issue 6,
 * seed 003). On Windows dxgkrnl creates GDI / DWM surfaces, shared primaries and, for the
 * hybrid present path, cross-adapter surfaces without a UMD: it asks the KMD for the private
 * data of a standard type (DxgkDdiGetStandardAllocationDriverData: the sizes first, then the
 * data) and creates the allocation with it like any other (DxgkDdiCreateAllocation ...).
 * Modelled: the cross-adapter GDI surface (D3DKMDT_GDISURFACE_TEXTURE_CROSSADAPTER), created
 * shared so that another adapter's UMD opens it (objects/share.c). */
#include "dxgkrnl/objects/objects.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>

#define STANDARD_DATA_MAX 4096u /* bounds what a KMD may ask the kernel to hold */

NTSTATUS dxgk_create_standard_cross_adapter(D3DKMT_HANDLE hDevice, UINT width, UINT height, D3DDDIFORMAT format,
                                            const void *pPrivateRuntimeData, UINT PrivateRuntimeDataSize,
                                            D3DKMT_HANDLE *hGlobalShare, D3DKMT_HANDLE *hResource,
                                            D3DKMT_HANDLE *hAllocation, UINT *pitch)
{
    const char *who = "dxgk_create_standard_cross_adapter";
    if (!hGlobalShare) {
        dxgk_refuse("%s: NULL hGlobalShare", who);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_device *d = dxgk_device_get(hDevice);
    if (!d) {
        dxgk_refuse("%s: invalid device handle 0x%08x", who, hDevice);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_adapter *a = d->adapter;
    NTSTATUS st;
    void *alloc_priv = NULL, *res_priv = NULL;
    if (!a->driver.ddi.DxgkDdiGetStandardAllocationDriverData) {
        dxgk_refuse("%s: the KMD has no DxgkDdiGetStandardAllocationDriverData", who);
        st = STATUS_NOT_SUPPORTED;
        goto out;
    }
    D3DKMDT_GDISURFACEDATA gdi = { .Width = width, .Height = height, .Format = format,
                                   .Type = D3DKMDT_GDISURFACE_TEXTURE_CROSSADAPTER };
    DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA q = { .StandardAllocationType = D3DKMDT_STANDARDALLOCATION_GDISURFACE,
                                                  .pCreateGdiSurfaceData = &gdi };
    st = a->driver.ddi.DxgkDdiGetStandardAllocationDriverData(a->miniport, &q); /* the sizes */
    if (!NT_SUCCESS(st)) {
        dxgk_refuse("%s: DxgkDdiGetStandardAllocationDriverData refused the %ux%u surface of format %d: 0x%08x", who,
                    width, height, (int)format, (unsigned)st);
        goto out;
    }
    if (!q.AllocationPrivateDriverDataSize || q.AllocationPrivateDriverDataSize > STANDARD_DATA_MAX ||
        q.ResourcePrivateDriverDataSize > STANDARD_DATA_MAX) {
        dxgk_refuse("%s: the KMD asks %u / %u bytes of allocation / resource data (1..%u / 0..%u)", who,
                    q.AllocationPrivateDriverDataSize, q.ResourcePrivateDriverDataSize, STANDARD_DATA_MAX,
                    STANDARD_DATA_MAX);
        st = STATUS_INVALID_PARAMETER;
        goto out;
    }
    UINT alloc_size = q.AllocationPrivateDriverDataSize, res_size = q.ResourcePrivateDriverDataSize;
    alloc_priv = wddm_calloc(1, alloc_size);
    res_priv = res_size ? wddm_calloc(1, res_size) : NULL;
    if (!alloc_priv || (res_size && !res_priv)) {
        st = STATUS_NO_MEMORY;
        goto out;
    }
    q.pAllocationPrivateDriverData = alloc_priv;
    q.pResourcePrivateDriverData = res_priv;
    st = a->driver.ddi.DxgkDdiGetStandardAllocationDriverData(a->miniport, &q); /* the data */
    if (!NT_SUCCESS(st) || q.AllocationPrivateDriverDataSize != alloc_size || q.ResourcePrivateDriverDataSize != res_size) {
        dxgk_refuse("%s: DxgkDdiGetStandardAllocationDriverData's second call failed 0x%08x or changed the sizes", who,
                    (unsigned)st);
        st = NT_SUCCESS(st) ? STATUS_UNSUCCESSFUL : st;
        goto out;
    }
    if (!gdi.Pitch) {
        /* D3DKMDT_GDISURFACEDATA: the KMD must return the pitch of a cross-adapter surface. */
        dxgk_refuse("%s: the KMD returned no Pitch for a D3DKMDT_GDISURFACE_TEXTURE_CROSSADAPTER surface", who);
        st = STATUS_INVALID_PARAMETER;
        goto out;
    }
    D3DDDI_ALLOCATIONINFO ai = { .pPrivateDriverData = alloc_priv, .PrivateDriverDataSize = alloc_size };
    D3DKMT_CREATEALLOCATION ca = { .hDevice = hDevice, .NumAllocations = 1, .pAllocationInfo = &ai,
                                   .pPrivateDriverData = res_priv, .PrivateDriverDataSize = res_size,
                                   .pPrivateRuntimeData = pPrivateRuntimeData,
                                   .PrivateRuntimeDataSize = pPrivateRuntimeData ? PrivateRuntimeDataSize : 0 };
    ca.Flags.CreateResource = 1;
    ca.Flags.CreateShared = 1;
    ca.Flags.CrossAdapter = 1;
    st = D3DKMTCreateAllocation(&ca); /* the usual path: DxgkDdiCreateAllocation, the verifier ... */
    if (!NT_SUCCESS(st))
        goto out;
    *hGlobalShare = ca.hGlobalShare;
    if (hResource)
        *hResource = ca.hResource;
    if (hAllocation)
        *hAllocation = ai.hAllocation;
    if (pitch)
        *pitch = gdi.Pitch;
out:
    free(alloc_priv);
    free(res_priv);
    dxgk_device_put(d);
    return st;
}
