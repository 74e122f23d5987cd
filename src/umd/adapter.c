/* adapter.c - the UMD's entry points and adapter functions: OpenAdapter10_2 (and its
 * OpenAdapter11 alias), OpenAdapter10 (the D3D10 runtime's), CalcPrivateDeviceSize, CreateDevice, CloseAdapter,
 * GetSupportedVersions, GetCaps (docs/architecture.md "Process model and entry points"). */
#include "umd/umd.h"
#include "common/alloc.h"
#include "umd/deferred.h"

#include <stdlib.h>
#include <string.h>

HRESULT APIENTRY umd_CreateDevice(D3D10DDI_HADAPTER, D3D10DDIARG_CREATEDEVICE *); /* device.c */

static SIZE_T APIENTRY umd_CalcPrivateDeviceSize(D3D10DDI_HADAPTER hAdapter, const D3D10DDIARG_CALCPRIVATEDEVICESIZE *args)
{
    return sizeof(struct umd_device);
}

static HRESULT APIENTRY umd_CloseAdapter(D3D10DDI_HADAPTER hAdapter)
{
    /* The adapter object is the UMD's own (the runtime only holds hAdapter), so freeing it
     * here is the pair of the calloc in OpenAdapter10_2. */
    free(hAdapter.pDrvPrivate);
    return S_OK;
}

static HRESULT APIENTRY umd_GetSupportedVersions(D3D10DDI_HADAPTER hAdapter, UINT32 *puEntries, UINT64 *pVersions)
{
    /* The WDK protocol: called once with NULL to learn the count, then with an array. */
    if (!puEntries)
        return E_INVALIDARG;
    static const UINT64 supported[] = { D3D10_0_DDI_SUPPORTED, D3D10_1_DDI_SUPPORTED, D3D11_0_DDI_SUPPORTED,
                                        D3D11_1_DDI_SUPPORTED };
    const UINT32 n = sizeof supported / sizeof supported[0];
    if (pVersions) {
        if (*puEntries < n)
            return E_INVALIDARG;
        memcpy(pVersions, supported, sizeof supported);
    }
    *puEntries = n;
    return S_OK;
}

static HRESULT APIENTRY umd_GetCaps(D3D10DDI_HADAPTER hAdapter, const D3D10_2DDIARG_GETCAPS *args)
{
    if (!args)
        return E_INVALIDARG;
    switch (args->Type) {
    case D3D11DDICAPS_THREADING: {
        if (!args->pData || args->DataSize < sizeof(D3D11DDI_THREADING_CAPS))
            return E_INVALIDARG;
        /* Creates share the one command buffer (initial data), so they are not free-threaded
         * (the runtime serialises them). Command lists (deferred.c) unless switched off, which
         * makes the runtime emulate them (WDDM_UMD_NO_COMMANDLISTS, deferred.h). */
        ((D3D11DDI_THREADING_CAPS *)args->pData)->Caps =
            wddm_umd_command_lists_enabled() ? (D3D11DDICAPS_COMMANDLISTS | D3D11DDICAPS_COMMANDLISTS_BUILD_2) : 0;
        return S_OK;
    }
    case D3D10_2DDICAPS_TYPE_GETFORMATCOUNT:
        /* No extended format list beyond CheckFormatSupport. */
        if (!args->pData || args->DataSize < sizeof(UINT))
            return E_INVALIDARG;
        *(UINT *)args->pData = 0;
        return S_OK;
    default:
        /* FIXME: GETFORMATDATA / GETMULTISAMPLEQUALITYLEVELS: no MSAA in this UMD. */
        UMD_REFUSE("GetCaps: caps type %d not implemented", (int)args->Type);
        return E_NOTIMPL;
    }
}

/* Both entry points: the adapter object and its private data (seed 001 §2). */
static HRESULT open_adapter(D3D10DDIARG_OPENADAPTER *args, const char *entry)
{
    if (!args || !args->pAdapterCallbacks || !args->pAdapterCallbacks->pfnQueryAdapterInfoCb || !args->pAdapterFuncs_2) {
        UMD_REFUSE("%s: missing adapter callbacks or function table", entry);
        return E_INVALIDARG;
    }
    struct umd_adapter *ad = wddm_calloc(1, sizeof *ad);
    if (!ad)
        return E_OUTOFMEMORY;
    ad->hRTAdapter = args->hRTAdapter;
    ad->callbacks = *args->pAdapterCallbacks;

    /* The driver package's private adapter data (swgpu_private.h), read through the runtime
     * (seed 001 §2: the UMD reaches the kernel only through callbacks). */
    D3DDDICB_QUERYADAPTERINFO q = { .pPrivateDriverData = &ad->info, .PrivateDriverDataSize = sizeof ad->info };
    HRESULT hr = ad->callbacks.pfnQueryAdapterInfoCb(ad->hRTAdapter.handle, &q);
    if (FAILED(hr)) {
        UMD_REFUSE("%s: pfnQueryAdapterInfoCb failed (0x%08x)", entry, (unsigned)hr);
        free(ad);
        return hr;
    }
    if (ad->info.magic != SWGPU_PRIVATE_MAGIC || ad->info.version != SWGPU_PRIVATE_VERSION) {
        UMD_REFUSE("%s: adapter private data is not the swgpu package's (magic 0x%08x version %u)", entry,
                   (unsigned)ad->info.magic, (unsigned)ad->info.version);
        free(ad);
        return E_FAIL;
    }
    if (ad->info.row_pitch_alignment == 0 || (ad->info.row_pitch_alignment & (ad->info.row_pitch_alignment - 1)))
        ad->info.row_pitch_alignment = UMD_DEFAULT_ROW_PITCH_ALIGNMENT;

    args->hAdapter.pDrvPrivate = ad;
    return S_OK;
}

HRESULT APIENTRY OpenAdapter10_2(D3D10DDIARG_OPENADAPTER *args)
{
    HRESULT hr = open_adapter(args, "OpenAdapter10_2");
    if (FAILED(hr))
        return hr;
    D3D10_2DDI_ADAPTERFUNCS *f = args->pAdapterFuncs_2;
    f->pfnCalcPrivateDeviceSize = umd_CalcPrivateDeviceSize;
    f->pfnCreateDevice = umd_CreateDevice;
    f->pfnCloseAdapter = umd_CloseAdapter;
    f->pfnGetSupportedVersions = umd_GetSupportedVersions;
    f->pfnGetCaps = umd_GetCaps;
    return S_OK;
}

/* The D3D10 runtime's entry (issue 15 §1): Interface names the D3D10.0 or 10.1 DDI, and the
 * table has no version or caps queries. */
HRESULT APIENTRY OpenAdapter10(D3D10DDIARG_OPENADAPTER *args)
{
    if (args && args->Interface != D3D10_0_DDI_INTERFACE_VERSION && args->Interface != D3D10_1_DDI_INTERFACE_VERSION) {
        UMD_REFUSE("OpenAdapter10: interface version 0x%08x is not D3D10.0 or D3D10.1", args->Interface);
        return E_INVALIDARG;
    }
    HRESULT hr = open_adapter(args, "OpenAdapter10");
    if (FAILED(hr))
        return hr;
    D3D10DDI_ADAPTERFUNCS *f = args->pAdapterFuncs;
    f->pfnCalcPrivateDeviceSize = umd_CalcPrivateDeviceSize;
    f->pfnCreateDevice = umd_CreateDevice;
    f->pfnCloseAdapter = umd_CloseAdapter;
    return S_OK;
}

/* "OpenAdapter11" in the issue text is the same entry point (docs/architecture.md). */
HRESULT APIENTRY OpenAdapter11(D3D10DDIARG_OPENADAPTER *args)
{
    return OpenAdapter10_2(args);
}
