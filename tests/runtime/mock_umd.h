/*
 * mock_umd.h - a recording user-mode driver for the runtime's tests (header-only: every
 * tests/runtime/test_*.c is its own program).
 *
 * Installed with wddm_set_umd_entry() (the registry's role, docs/architecture.md), it lets the
 * tests prove that a refused call never reaches the UMD, that the runtime picks the right
 * DDI slot, and that errors the UMD reports through pfnSetErrorCb come back as the documented
 * API codes. It never calls the kernel callbacks: resources are plain host memory.
 */
#ifndef TESTS_RUNTIME_MOCK_UMD_H
#define TESTS_RUNTIME_MOCK_UMD_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "d3d11.h"
#include "wddm/d3d10umddi.h"
#include "wddm/wddm.h"

enum mock_slot {
    MOCK_MAP_IA_NOOVERWRITE, MOCK_MAP_IA_DISCARD, MOCK_MAP_CB_DISCARD, MOCK_MAP_STAGING, MOCK_MAP_DYNAMIC_DISCARD,
    MOCK_MAP_RESOURCE,
    MOCK_UNMAP_IA, MOCK_UNMAP_CB, MOCK_UNMAP_STAGING, MOCK_UNMAP_DYNAMIC, MOCK_UNMAP_RESOURCE,
    MOCK_SLOT_COUNT
};

struct mock_umd {
    /* counters */
    int create_resource, destroy_resource, create_rtv, destroy_rtv;
    int live_resources;         /* created successfully and not destroyed yet */
    int slot[MOCK_SLOT_COUNT];
    int copy, copy_region, update, update_cb, clear, flush, destroy_device;
    /* last arguments */
    D3D11DDIARG_CREATERESOURCE last_create;
    D3D10DDI_MIPINFO last_mip0;
    D3D10_DDI_MAP last_map_type;
    UINT last_map_flags, last_map_sub;
    BOOL last_copy_region_box_null;
    D3D10_DDI_BOX last_box;
    FLOAT last_clear[4];
    /* behaviour */
    HRESULT create_error;       /* pfnSetErrorCb from the next CreateResource */
    HRESULT map_error;          /* pfnSetErrorCb from the next map */
    HRESULT flush_error;        /* pfnSetErrorCb from the next flush */
    UINT threading_caps;
    /* the runtime's callbacks */
    D3D10DDI_HRTCORELAYER core;
    const D3D11DDI_CORELAYER_DEVICECALLBACKS *core_cb;
};

static struct mock_umd mock;

#define MOCK_RES_MAGIC 0x4d4f434bu
#define MOCK_RES_BYTES 65536u
struct mock_resource { UINT magic; BYTE *mem; };

static void mock_set_error(HRESULT hr)
{
    mock.core_cb->pfnSetErrorCb(mock.core, hr);
}

static SIZE_T APIENTRY mock_CalcPrivateResourceSize(D3D10DDI_HDEVICE d, const D3D11DDIARG_CREATERESOURCE *a)
{
    return sizeof(struct mock_resource);
}

static VOID APIENTRY mock_CreateResource(D3D10DDI_HDEVICE d, const D3D11DDIARG_CREATERESOURCE *a, D3D10DDI_HRESOURCE h,
                                         D3D10DDI_HRTRESOURCE rt)
{
    mock.create_resource++;
    mock.last_create = *a;
    mock.last_mip0 = a->pMipInfoList[0];
    if (mock.create_error) {
        HRESULT e = mock.create_error;
        mock.create_error = S_OK;
        mock_set_error(e);
        return;
    }
    struct mock_resource *r = h.pDrvPrivate;
    r->magic = MOCK_RES_MAGIC;
    r->mem = calloc(1, MOCK_RES_BYTES);
    mock.live_resources++;
}

static VOID APIENTRY mock_DestroyResource(D3D10DDI_HDEVICE d, D3D10DDI_HRESOURCE h)
{
    struct mock_resource *r = h.pDrvPrivate;
    assert_int_equal(r->magic, MOCK_RES_MAGIC);
    r->magic = 0;
    free(r->mem);
    mock.destroy_resource++;
    mock.live_resources--;
}

static SIZE_T APIENTRY mock_CalcPrivateRTVSize(D3D10DDI_HDEVICE d, const D3D10DDIARG_CREATERENDERTARGETVIEW *a)
{
    return 16;
}
static VOID APIENTRY mock_CreateRTV(D3D10DDI_HDEVICE d, const D3D10DDIARG_CREATERENDERTARGETVIEW *a,
                                    D3D10DDI_HRENDERTARGETVIEW h, D3D10DDI_HRTRENDERTARGETVIEW rt)
{
    mock.create_rtv++;
}
static VOID APIENTRY mock_DestroyRTV(D3D10DDI_HDEVICE d, D3D10DDI_HRENDERTARGETVIEW h)
{
    mock.destroy_rtv++;
}
static VOID APIENTRY mock_CheckFormatSupport(D3D10DDI_HDEVICE d, DXGI_FORMAT f, UINT *s)
{
    *s = 0xffffffffu;
}
static VOID APIENTRY mock_DestroyDevice(D3D10DDI_HDEVICE d)
{
    mock.destroy_device++;
}

static void mock_map(enum mock_slot slot, D3D10DDI_HRESOURCE h, UINT sub, D3D10_DDI_MAP t, UINT flags,
                     D3D10DDI_MAPPED_SUBRESOURCE *out)
{
    mock.slot[slot]++;
    mock.last_map_type = t;
    mock.last_map_flags = flags;
    mock.last_map_sub = sub;
    if (mock.map_error) {
        HRESULT e = mock.map_error;
        mock.map_error = S_OK;
        mock_set_error(e);
        return;
    }
    struct mock_resource *r = h.pDrvPrivate;
    assert_int_equal(r->magic, MOCK_RES_MAGIC);
    out->pData = r->mem;
    out->RowPitch = 256;
    out->DepthPitch = MOCK_RES_BYTES;
}

#define MOCK_MAP_FN(name, slot)                                                                                   \
    static VOID APIENTRY name(D3D10DDI_HDEVICE d, D3D10DDI_HRESOURCE h, UINT sub, D3D10_DDI_MAP t, UINT f,       \
                              D3D10DDI_MAPPED_SUBRESOURCE *o)                                                     \
    { mock_map(slot, h, sub, t, f, o); }
#define MOCK_UNMAP_FN(name, which)                                                                                 \
    static VOID APIENTRY name(D3D10DDI_HDEVICE d, D3D10DDI_HRESOURCE h, UINT sub) { mock.slot[which]++; }

MOCK_MAP_FN(mock_MapIANoOverwrite, MOCK_MAP_IA_NOOVERWRITE)
MOCK_MAP_FN(mock_MapIADiscard, MOCK_MAP_IA_DISCARD)
MOCK_MAP_FN(mock_MapCBDiscard, MOCK_MAP_CB_DISCARD)
MOCK_MAP_FN(mock_MapStaging, MOCK_MAP_STAGING)
MOCK_MAP_FN(mock_MapDynamicDiscard, MOCK_MAP_DYNAMIC_DISCARD)
MOCK_MAP_FN(mock_MapResource, MOCK_MAP_RESOURCE)
MOCK_UNMAP_FN(mock_UnmapIA, MOCK_UNMAP_IA)
MOCK_UNMAP_FN(mock_UnmapCB, MOCK_UNMAP_CB)
MOCK_UNMAP_FN(mock_UnmapStaging, MOCK_UNMAP_STAGING)
MOCK_UNMAP_FN(mock_UnmapDynamic, MOCK_UNMAP_DYNAMIC)
MOCK_UNMAP_FN(mock_UnmapResource, MOCK_UNMAP_RESOURCE)

static VOID APIENTRY mock_Flush(D3D10DDI_HDEVICE d)
{
    mock.flush++;
    if (mock.flush_error) {
        HRESULT e = mock.flush_error;
        mock.flush_error = S_OK;
        mock_set_error(e);
    }
}
static VOID APIENTRY mock_Copy(D3D10DDI_HDEVICE d, D3D10DDI_HRESOURCE dst, D3D10DDI_HRESOURCE src)
{
    mock.copy++;
}
static VOID APIENTRY mock_CopyRegion(D3D10DDI_HDEVICE d, D3D10DDI_HRESOURCE dst, UINT ds, UINT x, UINT y, UINT z,
                                     D3D10DDI_HRESOURCE src, UINT ss, const D3D10_DDI_BOX *box)
{
    mock.copy_region++;
    mock.last_copy_region_box_null = box == NULL;
    if (box)
        mock.last_box = *box;
}
static VOID APIENTRY mock_Update(D3D10DDI_HDEVICE d, D3D10DDI_HRESOURCE dst, UINT s, const D3D10_DDI_BOX *box,
                                 const VOID *p, UINT rp, UINT dp)
{
    mock.update++;
}
static VOID APIENTRY mock_UpdateCB(D3D10DDI_HDEVICE d, D3D10DDI_HRESOURCE dst, UINT s, const D3D10_DDI_BOX *box,
                                   const VOID *p, UINT rp, UINT dp)
{
    mock.update_cb++;
}
static VOID APIENTRY mock_Clear(D3D10DDI_HDEVICE d, D3D10DDI_HRENDERTARGETVIEW v, FLOAT c[4])
{
    mock.clear++;
    memcpy(mock.last_clear, c, sizeof(mock.last_clear));
}

static SIZE_T APIENTRY mock_CalcPrivateDeviceSize(D3D10DDI_HADAPTER a, const D3D10DDIARG_CALCPRIVATEDEVICESIZE *c)
{
    return 64;
}

static HRESULT APIENTRY mock_CreateDevice(D3D10DDI_HADAPTER a, D3D10DDIARG_CREATEDEVICE *c)
{
    mock.core = c->hRTCoreLayer;
    mock.core_cb = c->p11UMCallbacks;
    D3D11DDI_DEVICEFUNCS *f = c->p11DeviceFuncs;
    f->pfnCalcPrivateResourceSize = mock_CalcPrivateResourceSize;
    f->pfnCreateResource = mock_CreateResource;
    f->pfnDestroyResource = mock_DestroyResource;
    f->pfnCalcPrivateRenderTargetViewSize = mock_CalcPrivateRTVSize;
    f->pfnCreateRenderTargetView = mock_CreateRTV;
    f->pfnDestroyRenderTargetView = mock_DestroyRTV;
    f->pfnCheckFormatSupport = mock_CheckFormatSupport;
    f->pfnDestroyDevice = mock_DestroyDevice;
    D3D11DDI_DEVICEFUNCS *x = f; /* one table: the context slots too */
    x->pfnDynamicIABufferMapNoOverwrite = mock_MapIANoOverwrite;
    x->pfnDynamicIABufferUnmap = mock_UnmapIA;
    x->pfnDynamicConstantBufferMapDiscard = mock_MapCBDiscard;
    x->pfnDynamicIABufferMapDiscard = mock_MapIADiscard;
    x->pfnDynamicConstantBufferUnmap = mock_UnmapCB;
    x->pfnDefaultConstantBufferUpdateSubresourceUP = mock_UpdateCB;
    x->pfnFlush = mock_Flush;
    x->pfnResourceCopyRegion = mock_CopyRegion;
    x->pfnResourceCopy = mock_Copy;
    x->pfnResourceUpdateSubresourceUP = mock_Update;
    x->pfnResourceMap = mock_MapResource;
    x->pfnResourceUnmap = mock_UnmapResource;
    x->pfnStagingResourceMap = mock_MapStaging;
    x->pfnStagingResourceUnmap = mock_UnmapStaging;
    x->pfnDynamicResourceMapDiscard = mock_MapDynamicDiscard;
    x->pfnDynamicResourceUnmap = mock_UnmapDynamic;
    x->pfnClearRenderTargetView = mock_Clear;
    return S_OK;
}

static HRESULT APIENTRY mock_CloseAdapter(D3D10DDI_HADAPTER a)
{
    return S_OK;
}

static HRESULT APIENTRY mock_GetSupportedVersions(D3D10DDI_HADAPTER a, UINT32 *n, UINT64 *v)
{
    if (v && *n >= 1)
        v[0] = D3D11_0_DDI_SUPPORTED;
    *n = 1;
    return S_OK;
}

static HRESULT APIENTRY mock_GetCaps(D3D10DDI_HADAPTER a, const D3D10_2DDIARG_GETCAPS *c)
{
    if (c->Type == D3D11DDICAPS_THREADING && c->DataSize >= sizeof(D3D11DDI_THREADING_CAPS)) {
        ((D3D11DDI_THREADING_CAPS *)c->pData)->Caps = mock.threading_caps;
        return S_OK;
    }
    return E_INVALIDARG;
}

static HRESULT APIENTRY mock_OpenAdapter(D3D10DDIARG_OPENADAPTER *o)
{
    static int adapter_token;
    o->hAdapter.pDrvPrivate = &adapter_token;
    o->pAdapterFuncs_2->pfnCalcPrivateDeviceSize = mock_CalcPrivateDeviceSize;
    o->pAdapterFuncs_2->pfnCreateDevice = mock_CreateDevice;
    o->pAdapterFuncs_2->pfnCloseAdapter = mock_CloseAdapter;
    o->pAdapterFuncs_2->pfnGetSupportedVersions = mock_GetSupportedVersions;
    o->pAdapterFuncs_2->pfnGetCaps = mock_GetCaps;
    return S_OK;
}

/* A device on the mock UMD (the kernel side is the real one). */
struct mock_env {
    ID3D11Device *dev;
    ID3D11DeviceContext *ctx;
};

static int mock_setup(void **state)
{
    static struct mock_env env;
    memset(&mock, 0, sizeof(mock));
    wddm_set_umd_entry(mock_OpenAdapter);
    D3D_FEATURE_LEVEL fl;
    HRESULT hr = D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &env.dev, &fl,
                                   &env.ctx);
    if (FAILED(hr))
        return -1;
    *state = &env;
    return 0;
}

static int mock_teardown(void **state)
{
    struct mock_env *env = *state;
    ID3D11DeviceContext_Release(env->ctx);
    ULONG left = ID3D11Device_Release(env->dev);
    wddm_set_umd_entry(NULL);
    /* Every object a test created must be gone with the device. */
    if (left != 0 || mock.destroy_device != 1 || mock.live_resources != 0 || mock.create_rtv != mock.destroy_rtv)
        return -1;
    return 0;
}

#endif /* TESTS_RUNTIME_MOCK_UMD_H */
