/* device.c - the UMD device: CreateDevice (function tables, runtime callbacks, rendering
 * context), DestroyDevice, CheckFormatSupport, Flush, and error reporting. */
#include "umd/umd.h"
#include "umd/deferred.h"

#include <stdlib.h>
#include <string.h>

void umd_set_error(struct umd_device *dev, HRESULT hr)
{
    /* docs/semantics.md §4: void DDIs report errors only through pfnSetErrorCb. */
    if (dev->pfnSetErrorCb)
        dev->pfnSetErrorCb(dev->hRTCoreLayer, hr);
}

void APIENTRY umd_CheckFormatSupport(D3D10DDI_HDEVICE hDevice, DXGI_FORMAT format, UINT *pSupport)
{
    const struct wddm_format_info *fi = wddm_format_info(format);
    if (pSupport)
        *pSupport = fi ? fi->support : 0;
}

/* Single sampling on every format this driver knows; no multisampled resources
 * (CreateResource refuses SampleDesc.Count > 1: the software GPU has no resolve yet). */
void APIENTRY umd_CheckMultisampleQualityLevels(D3D10DDI_HDEVICE hDevice, DXGI_FORMAT format, UINT count,
                                                       UINT *pLevels)
{
    (void)hDevice;
    if (pLevels)
        *pLevels = (count == 1 && wddm_format_info(format)) ? 1 : 0;
}

VOID APIENTRY umd_Flush(D3D10DDI_HDEVICE hDevice)
{
    /* Seed 001 §8: Flush must really submit so a later Map(READ) can complete. */
    struct umd_device *dev = umd_device(hDevice);
    HRESULT hr = umd_flush(dev);
    if (FAILED(hr))
        umd_set_error(dev, hr);
}

VOID APIENTRY umd_DestroyDevice(D3D10DDI_HDEVICE hDevice)
{
    struct umd_device *dev = umd_device(hDevice);
    /* Queued work is the application's; submit it before the context goes away. */
    (void)umd_flush(dev);
    umd_suballoc_device_fini(dev); /* before the GpuMmu state its chunks' VAs belong to */
    umd_update_device_fini(dev);   /* the same for the upload buffer */
    umd_ring_device_fini(dev);     /* ... and the upload ring's chunks */
    umd_va_device_fini(dev); /* the command ring needs the fence until here */
    umd_rename_device_fini(dev);
    if (dev->context_created && dev->kt.pfnDestroyContextCb) {
        D3DDDICB_DESTROYCONTEXT dc = { .hContext = dev->hContext };
        (void)dev->kt.pfnDestroyContextCb(dev->hRTDevice.handle, &dc);
    }
    dev->context_created = FALSE;
    dev->cmd = NULL;
    dev->alloc_list = NULL;
    dev->patch_list = NULL;
}

static void umd_fill_funcs11(D3D11DDI_DEVICEFUNCS *f)
{
    UMD_FILL_FUNCS11_COMMON(f);
    f->pfnDefaultConstantBufferUpdateSubresourceUP = umd_ResourceUpdateSubresourceUP;
    f->pfnFlush = umd_Flush;
    f->pfnResourceCopyRegion = umd_ResourceCopyRegion;
    f->pfnResourceUpdateSubresourceUP = umd_ResourceUpdateSubresourceUP;
}

HRESULT APIENTRY umd_CreateDevice(D3D10DDI_HADAPTER hAdapter, D3D10DDIARG_CREATEDEVICE *args)
{
    struct umd_adapter *ad = hAdapter.pDrvPrivate;
    if (!ad || !args || !args->hDrvDevice.pDrvPrivate || !args->pKTCallbacks || !args->p11DeviceFuncs) {
        UMD_REFUSE("CreateDevice: missing device memory, callbacks or function tables");
        return E_INVALIDARG;
    }
    /* The DDI the runtime asks for picks the table (D3D10DDIARG_CREATEDEVICE: pDeviceFuncs,
     * p10_1DeviceFuncs, p11DeviceFuncs or p11_1DeviceFuncs, one table with every slot); one
     * implementation behind all. */
    BOOL ddi11 = args->Interface == D3D11_0_DDI_INTERFACE_VERSION || args->Interface == D3D11_1_DDI_INTERFACE_VERSION;
    if (!ddi11 && args->Interface != D3D10_0_DDI_INTERFACE_VERSION && args->Interface != D3D10_1_DDI_INTERFACE_VERSION) {
        UMD_REFUSE("CreateDevice: DDI interface version 0x%08x is not D3D10.0, D3D10.1, D3D11.0 or D3D11.1",
                   args->Interface);
        return E_INVALIDARG;
    }
    const D3DDDI_DEVICECALLBACKS *kt = args->pKTCallbacks;
    if (!kt->pfnAllocateCb || !kt->pfnDeallocateCb || !kt->pfnRenderCb || !kt->pfnLockCb || !kt->pfnUnlockCb ||
        !kt->pfnCreateContextCb) {
        UMD_REFUSE("CreateDevice: a required runtime callback is NULL");
        return E_INVALIDARG;
    }

    struct umd_device *dev = args->hDrvDevice.pDrvPrivate;
    memset(dev, 0, sizeof *dev);
    dev->adapter = ad;
    dev->hRTDevice = args->hRTDevice;
    dev->kt = *kt;
    dev->hRTCoreLayer = args->hRTCoreLayer;
    dev->ddi_interface = args->Interface;
    /* pUMCallbacks (10.x) and p11UMCallbacks (11.0) share the slot and start with pfnSetErrorCb. */
    dev->pfnSetErrorCb = ddi11 ? (args->p11UMCallbacks ? args->p11UMCallbacks->pfnSetErrorCb : NULL)
                               : (args->pUMCallbacks ? args->pUMCallbacks->pfnSetErrorCb : NULL);
    dev->row_pitch_alignment = ad->info.row_pitch_alignment;
    dev->cb_gen = 1; /* resources start at 0: not queued */
    const char *sub = getenv("WDDM_UMD_SUBALLOC");
    dev->suballoc = !(sub && sub[0] == '0' && sub[1] == '\0'); /* suballoc.c */
    const char *ring = getenv("WDDM_UMD_RING");
    dev->dyn_ring = !(ring && ring[0] == '0' && ring[1] == '\0'); /* ring.c */

    /* One rendering context on the 3D engine's node; the kernel hands back the first command
     * buffer and lists (WDDM 1.x patching model, docs/architecture.md "Submission path"). */
    D3DDDICB_CREATECONTEXT cc = { .NodeOrdinal = ad->info.render_node, .EngineAffinity = 0 };
    HRESULT hr = dev->kt.pfnCreateContextCb(dev->hRTDevice.handle, &cc);
    if (FAILED(hr)) {
        UMD_REFUSE("CreateDevice: pfnCreateContextCb on node %u failed (0x%08x)", (unsigned)ad->info.render_node,
                   (unsigned)hr);
        return hr;
    }
    dev->hContext = cc.hContext;
    dev->context_created = TRUE;
    dev->cmd = cc.pCommandBuffer;
    dev->cmd_size = cc.CommandBufferSize;
    dev->alloc_list = cc.pAllocationList;
    dev->alloc_size = cc.AllocationListSize;
    dev->patch_list = cc.pPatchLocationList;
    dev->patch_size = cc.PatchLocationListSize;

    /* The UMD renames and synchronises itself on a WDDM 2.x adapter, or when forced by
     * WDDM_UMD_RENAMING=1 (rename.c, docs/semantics.md §3.3). */
    if (umd_renaming_wanted(ad)) {
        hr = umd_rename_device_init(dev);
        if (FAILED(hr)) {
            D3DDDICB_DESTROYCONTEXT dc = { .hContext = dev->hContext };
            if (dev->kt.pfnDestroyContextCb)
                (void)dev->kt.pfnDestroyContextCb(dev->hRTDevice.handle, &dc);
            dev->context_created = FALSE;
            return hr;
        }
    }
    /* GpuMmu and IoMmu models (gpuva.c, issue 6): the kernel gave no command buffer; the UMD's
     * own ring, paging queue and VAs replace it. The renaming mode above is always on then. */
    if (ad->info.gpummu || ad->info.iommu) {
        dev->iommu = ad->info.iommu != 0;
        hr = umd_va_device_init(dev);
        if (FAILED(hr)) {
            umd_rename_device_fini(dev);
            D3DDDICB_DESTROYCONTEXT dc = { .hContext = dev->hContext };
            if (dev->kt.pfnDestroyContextCb)
                (void)dev->kt.pfnDestroyContextCb(dev->hRTDevice.handle, &dc);
            dev->context_created = FALSE;
            return hr;
        }
    }

    if (args->Interface == D3D10_0_DDI_INTERFACE_VERSION) {
        umd_fill_device_funcs10(args->pDeviceFuncs);
    } else if (args->Interface == D3D10_1_DDI_INTERFACE_VERSION) {
        umd_fill_device_funcs10_1(args->p10_1DeviceFuncs);
    } else if (args->Interface == D3D11_1_DDI_INTERFACE_VERSION) {
        umd_fill_funcs11_1(args->p11_1DeviceFuncs);
    } else {
        umd_fill_funcs11(args->p11DeviceFuncs);
    }
    return S_OK;
}
