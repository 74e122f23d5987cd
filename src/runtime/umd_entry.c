/*
 * umd_entry.c - which UMD the runtime opens for a device: the in-process override
 * (wddm_set_umd_entry, include/wddm/wddm.h), else the module the adapter names to
 * KMTQAITYPE_UMDRIVERNAME (WDDM_UMD, issue 19 §1), else the reference UMD built into libwddm.
 * On Windows the runtime asks the kernel the same question and loads that DLL.
 */
#include "runtime/runtime.h"
#include "common/module.h"
#include "common/wide.h"

#include <stdlib.h>

/* A UMD's two exports: OpenAdapter10_2, which D3D11 devices open, and OpenAdapter10, which
 * D3D10CreateDevice(1) open (issue 15 §1). NULL: no override. */
enum { ENTRY_10_2, ENTRY_10, ENTRIES };
static const char *const export_names[ENTRIES] = { "OpenAdapter10_2", "OpenAdapter10" };
static _Atomic(PFND3D10DDI_OPENADAPTER) overrides[ENTRIES];

static PFND3D10DDI_OPENADAPTER entry(int which)
{
    PFND3D10DDI_OPENADAPTER e = atomic_load(&overrides[which]);
    return e ? e : which == ENTRY_10 ? OpenAdapter10 : OpenAdapter10_2;
}

void wddm_set_umd_entry(PFND3D10DDI_OPENADAPTER pfnOpenAdapter)
{
    atomic_store(&overrides[ENTRY_10_2], pfnOpenAdapter);
}

PFND3D10DDI_OPENADAPTER wddm_get_umd_entry(void)
{
    return entry(ENTRY_10_2);
}

void wddm_set_umd_entry10(PFND3D10DDI_OPENADAPTER pfnOpenAdapter10)
{
    atomic_store(&overrides[ENTRY_10], pfnOpenAdapter10);
}

PFND3D10DDI_OPENADAPTER wddm_get_umd_entry10(void)
{
    return entry(ENTRY_10);
}

/* The module's export (common/module.c: loaded for good). */
static HRESULT load_export(struct rt_device *dev, const char *path, int which, PFND3D10DDI_OPENADAPTER *open)
{
    void (*fn)(void);
    char why[256];
    switch (wddm_module_export(path, export_names[which], &fn, why, sizeof why)) {
    case WDDM_MODULE_NOT_LOADED:
        RT_REFUSE("%s: cannot load the adapter's UMD module \"%s\" (WDDM_UMD): %s", rt_device_creator(dev), path,
                  why);
        return E_FAIL;
    case WDDM_MODULE_NO_EXPORT:
        RT_REFUSE("%s: the UMD module \"%s\" exports no %s (the entry point this device opens)",
                  rt_device_creator(dev), path, export_names[which]);
        return E_FAIL;
    case WDDM_MODULE_OK:
        break;
    }
    *open = (PFND3D10DDI_OPENADAPTER)fn;
    return S_OK;
}

HRESULT rt_umd_entry_for(struct rt_device *dev, BOOL ddi10, PFND3D10DDI_OPENADAPTER *open)
{
    int which = ddi10 ? ENTRY_10 : ENTRY_10_2;
    *open = atomic_load(&overrides[which]);
    if (*open)
        return S_OK;
    D3DKMT_UMDFILENAMEINFO info = { .Version = ddi10 ? KMTUMDVERSION_DX10 : KMTUMDVERSION_DX11 };
    D3DKMT_QUERYADAPTERINFO q = { .hAdapter = dev->km_adapter, .Type = KMTQAITYPE_UMDRIVERNAME,
                                  .pPrivateDriverData = &info, .PrivateDriverDataSize = sizeof info };
    NTSTATUS st = D3DKMTQueryAdapterInfo(&q);
    if (!NT_SUCCESS(st)) {
        RT_REFUSE("%s: the adapter names no UMD (KMTQAITYPE_UMDRIVERNAME 0x%08x)", rt_device_creator(dev), (UINT)st);
        return DXGI_ERROR_UNSUPPORTED;
    }
    if (!info.UmdFileName[0]) {
        *open = entry(which); /* the reference UMD built into libwddm */
        return S_OK;
    }
    char *path = wddm_utf16_to_utf8(info.UmdFileName, MAX_PATH);
    if (!path)
        return E_OUTOFMEMORY; /* the kernel checked the name when the adapter started */
    HRESULT hr = load_export(dev, path, which, open);
    free(path);
    return hr;
}
