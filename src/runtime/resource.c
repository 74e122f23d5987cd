/*
 * resource.c - what buffers and textures share: creation through the DDI (seed 001 §3),
 * reference counting, QueryInterface, destruction, the subresource arithmetic and the
 * per-subresource map bits.
 */
#include "runtime/runtime.h"

#include <stdlib.h>

struct rt_resource *rt_resource_from_iface(ID3D11Resource *iface)
{
    if (!iface)
        return NULL;
    /* Recognise our objects by their vtable before reading anything else: a view or a foreign
     * object passed where a resource is expected is refused, not dereferenced further. */
    const void *vt = iface->lpVtbl;
    if (vt != (const void *)&rt_buffer_vtbl && vt != (const void *)&rt_texture1d_vtbl &&
        vt != (const void *)&rt_texture2d_vtbl && vt != (const void *)&rt_texture3d_vtbl)
        return NULL;
    struct rt_resource *res = (struct rt_resource *)iface;
    return res->magic == RT_RESOURCE_MAGIC ? res : NULL;
}

UINT rt_mip_dim(UINT top, UINT mip)
{
    UINT v = mip >= 32 ? 0 : top >> mip;
    return v ? v : 1;
}

void rt_subresource_split(const struct rt_resource *res, UINT sub, UINT *mip, UINT *slice)
{
    /* wddm-semantics §4.2: mip = s % MipLevels, slice = s / MipLevels. */
    *mip = sub % res->mip_levels;
    *slice = sub / res->mip_levels;
}

void rt_subresource_dims(const struct rt_resource *res, UINT sub, UINT *w, UINT *h, UINT *d)
{
    UINT mip, slice;
    rt_subresource_split(res, sub, &mip, &slice);
    *w = rt_mip_dim(res->width, mip);
    *h = rt_mip_dim(res->height, mip);
    *d = rt_mip_dim(res->depth, mip);
}

BOOL rt_resource_is_mapped(const struct rt_resource *res, UINT sub)
{
    return (res->mapped_bits[sub / 64] >> (sub % 64)) & 1;
}

void rt_resource_set_mapped(struct rt_resource *res, UINT sub, BOOL mapped)
{
    UINT64 bit = 1ull << (sub % 64);
    BOOL was = (res->mapped_bits[sub / 64] & bit) != 0;
    if (mapped && !was) {
        res->mapped_bits[sub / 64] |= bit;
        res->mapped_count++;
    } else if (!mapped && was) {
        res->mapped_bits[sub / 64] &= ~bit;
        res->mapped_count--;
    }
}

/* API bind flags -> DDI bind flags: equal except UNORDERED_ACCESS (API 0x80, DDI 0x100). */
static UINT ddi_bind_flags(UINT api)
{
    UINT ddi = api & (D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_INDEX_BUFFER | D3D11_BIND_CONSTANT_BUFFER |
                      D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_STREAM_OUTPUT | D3D11_BIND_RENDER_TARGET |
                      D3D11_BIND_DEPTH_STENCIL);
    if (api & D3D11_BIND_UNORDERED_ACCESS)
        ddi |= D3D11_DDI_BIND_UNORDERED_ACCESS;
    if (api & D3D11_BIND_DECODER)
        ddi |= D3D11_DDI_BIND_DECODER;
    return ddi;
}

/* API misc flags -> DDI misc flags: TEXTURECUBE becomes the TEXTURECUBE resource dimension. */
static UINT ddi_misc_flags(UINT api)
{
    UINT ddi = 0;
    if (api & D3D11_RESOURCE_MISC_GENERATE_MIPS) ddi |= D3D10_DDI_RESOURCE_MISC_GENERATE_MIPS;
    if (api & D3D11_RESOURCE_MISC_SHARED) ddi |= D3D10_DDI_RESOURCE_MISC_SHARED;
    if (api & D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS) ddi |= D3D11_DDI_RESOURCE_MISC_DRAWINDIRECT_ARGS;
    if (api & D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS) ddi |= D3D11_DDI_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS;
    if (api & D3D11_RESOURCE_MISC_BUFFER_STRUCTURED) ddi |= D3D11_DDI_RESOURCE_MISC_BUFFER_STRUCTURED;
    if (api & D3D11_RESOURCE_MISC_RESOURCE_CLAMP) ddi |= D3D11_DDI_RESOURCE_MISC_RESOURCE_CLAMP;
    return ddi;
}

static D3D10DDIRESOURCE_TYPE ddi_dimension(const struct rt_resource *res)
{
    switch (res->dimension) {
    case D3D11_RESOURCE_DIMENSION_BUFFER: return D3D10DDIRESOURCE_BUFFER;
    case D3D11_RESOURCE_DIMENSION_TEXTURE1D: return D3D10DDIRESOURCE_TEXTURE1D;
    case D3D11_RESOURCE_DIMENSION_TEXTURE2D:
        return (res->misc_flags & D3D11_RESOURCE_MISC_TEXTURECUBE) ? D3D10DDIRESOURCE_TEXTURECUBE
                                                                    : D3D10DDIRESOURCE_TEXTURE2D;
    case D3D11_RESOURCE_DIMENSION_TEXTURE3D: return D3D10DDIRESOURCE_TEXTURE3D;
    default: return D3D10DDIRESOURCE_BUFFER;
    }
}

/* Kernel allocations a failed CreateResource left behind (the handle is dead and no
 * DestroyResource follows, wddm-semantics §4.2): release them so nothing leaks. */
static void drop_kernel_resource(struct rt_device *dev, struct rt_resource *res)
{
    if (!res->km_resource)
        return;
    D3DKMT_DESTROYALLOCATION da = { .hDevice = dev->km_device, .hResource = res->km_resource };
    (void)D3DKMTDestroyAllocation(&da);
    res->km_resource = 0;
}

HRESULT rt_resource_create(struct rt_device *dev, struct rt_resource *tmpl,
                           const D3D11_SUBRESOURCE_DATA *initial_data, struct rt_resource **out)
{
    *out = NULL;
    if (rt_device_is_removed(dev)) {
        RT_REFUSE("resource creation on a removed device");
        return DXGI_ERROR_DEVICE_REMOVED;
    }
    HRESULT hr = E_OUTOFMEMORY;
    struct rt_resource *res = malloc(sizeof(*res));
    D3D10DDI_MIPINFO *mips = NULL;
    D3D10_DDIARG_SUBRESOURCE_UP *init = NULL;
    if (!res)
        return E_OUTOFMEMORY;
    *res = *tmpl;
    res->magic = RT_RESOURCE_MAGIC;
    atomic_init(&res->refs, 1);
    res->device = dev;
    res->mapped_count = 0;
    res->drv_mem = NULL;
    res->km_resource = 0;
    res->eviction_priority = 0;
    res->mapped_bits = calloc((res->subresource_count + 63) / 64, sizeof(UINT64));
    mips = calloc(res->mip_levels, sizeof(*mips));
    if (!res->mapped_bits || !mips)
        goto fail;

    /* pMipInfoList: texel sizes per level and physical sizes rounded to whole blocks
     * (wddm-semantics §4.2). Buffers: one level of ByteWidth x 1 x 1. */
    const struct wddm_format_info *fi = wddm_format_info(res->format);
    UINT bw = fi ? fi->block_width : 1, bh = fi ? fi->block_height : 1;
    for (UINT m = 0; m < res->mip_levels; m++) {
        mips[m].TexelWidth = rt_mip_dim(res->width, m);
        mips[m].TexelHeight = rt_mip_dim(res->height, m);
        mips[m].TexelDepth = rt_mip_dim(res->depth, m);
        mips[m].PhysicalWidth = (mips[m].TexelWidth + bw - 1) / bw * bw;
        mips[m].PhysicalHeight = (mips[m].TexelHeight + bh - 1) / bh * bh;
        mips[m].PhysicalDepth = mips[m].TexelDepth;
    }
    if (initial_data) {
        init = calloc(res->subresource_count, sizeof(*init));
        if (!init)
            goto fail;
        for (UINT s = 0; s < res->subresource_count; s++) {
            init[s].pSysMem = initial_data[s].pSysMem;
            init[s].SysMemPitch = initial_data[s].SysMemPitch;
            init[s].SysMemSlicePitch = initial_data[s].SysMemSlicePitch;
        }
    }

    D3D11DDIARG_CREATERESOURCE args = { 0 };
    args.pMipInfoList = mips;
    args.pInitialDataUP = init;
    args.ResourceDimension = ddi_dimension(res);
    args.Usage = (UINT)res->usage;                 /* D3D10_DDI_USAGE_* = D3D11_USAGE_* */
    args.BindFlags = ddi_bind_flags(res->bind_flags);
    args.MapFlags = res->cpu_access >> 16;         /* wddm-semantics §10 #4: CPU-access bitmask */
    args.MiscFlags = ddi_misc_flags(res->misc_flags);
    args.Format = res->format;
    args.SampleDesc.Count = res->sample_count;
    args.SampleDesc.Quality = res->sample_quality;
    args.MipLevels = res->mip_levels;
    args.ArraySize = res->array_size;
    args.pPrimaryDesc = NULL;
    args.ByteStride = res->dimension == D3D11_RESOURCE_DIMENSION_BUFFER ? res->desc.buffer.StructureByteStride : 0;

    /* seed 001 §3: CalcPrivateResourceSize -> runtime allocates hResource.pDrvPrivate ->
     * CreateResource(hDevice, pCreate, hResource, hRTResource). */
    rt_ddi_begin(dev);
    SIZE_T size = dev->funcs.pfnCalcPrivateResourceSize(dev->drv_device, &args);
    HRESULT err = dev->call_error;
    if (err == S_OK) {
        res->drv_mem = calloc(1, size ? size : 1);
        if (!res->drv_mem) {
            (void)rt_ddi_end(dev);
            goto fail;
        }
        res->drv.pDrvPrivate = res->drv_mem;
        D3D10DDI_HRTRESOURCE hrt = { .handle = res };
        dev->funcs.pfnCreateResource(dev->drv_device, &args, res->drv, hrt);
    }
    err = rt_ddi_end(dev);
    if (err != S_OK) {
        /* wddm-semantics §4.2: any error makes the handle dead; no DestroyResource follows. */
        static const HRESULT allowed[] = { E_OUTOFMEMORY, DXGI_DDI_ERR_UNSUPPORTED };
        hr = rt_ddi_error_to_api(dev, err, allowed, 2, "pfnCreateResource");
        RT_REFUSE("resource creation failed in the driver (0x%08x)", (UINT)err);
        drop_kernel_resource(dev, res);
        goto fail;
    }
    free(mips);
    free(init);
    rt_device_addref(dev); /* every child holds the device */
    *out = res;
    return S_OK;

fail:
    free(mips);
    free(init);
    if (res) {
        free(res->drv_mem);
        free(res->mapped_bits);
        res->magic = 0;
        free(res);
    }
    return hr;
}

ULONG rt_resource_addref(struct rt_resource *res)
{
    return atomic_fetch_add(&res->refs, 1) + 1;
}

static void resource_destroy(struct rt_resource *res)
{
    struct rt_device *dev = res->device;
    rt_ddi_begin(dev);
    /* An application may release a resource it still has mapped: unmap first so every
     * pfnLockCb stays paired with pfnUnlockCb (wddm-semantics §3.2 rule 13). */
    for (UINT s = 0; res->mapped_count && s < res->subresource_count; s++) {
        if (rt_resource_is_mapped(res, s)) {
            rt_unmap_ddi_locked(dev, res, s);
            rt_resource_set_mapped(res, s, FALSE);
        }
    }
    dev->funcs.pfnDestroyResource(dev->drv_device, res->drv);
    HRESULT err = rt_ddi_end(dev);
    static const HRESULT allowed[] = { D3DDDIERR_DEVICEREMOVED };
    (void)rt_ddi_error_to_api(dev, err, allowed, 1, "pfnDestroyResource");
    /* The runtime frees the private memory after Destroy* (wddm-semantics §4.1). */
    free(res->drv_mem);
    free(res->mapped_bits);
    res->magic = 0;
    free(res);
    rt_device_release(dev);
}

ULONG rt_resource_release(struct rt_resource *res)
{
    ULONG n = atomic_fetch_sub(&res->refs, 1) - 1;
    if (n == 0)
        resource_destroy(res);
    return n;
}

void rt_resource_get_device(struct rt_resource *res, ID3D11Device **out)
{
    if (!out)
        return;
    rt_device_addref(res->device);
    *out = &res->device->iface;
}

HRESULT rt_resource_query_interface(struct rt_resource *res, REFIID riid, void **ppv)
{
    if (!ppv)
        return E_POINTER;
    *ppv = NULL;
    if (!riid)
        return E_INVALIDARG;
    const IID *own;
    switch (res->dimension) {
    case D3D11_RESOURCE_DIMENSION_BUFFER: own = &IID_ID3D11Buffer; break;
    case D3D11_RESOURCE_DIMENSION_TEXTURE1D: own = &IID_ID3D11Texture1D; break;
    case D3D11_RESOURCE_DIMENSION_TEXTURE2D: own = &IID_ID3D11Texture2D; break;
    default: own = &IID_ID3D11Texture3D; break;
    }
    /* Single inheritance: IUnknown <- ID3D11DeviceChild <- ID3D11Resource <- the kind; one
     * pointer serves them all (the vtables share their prefix). */
    if (rt_iid_equal(riid, &IID_IUnknown) || rt_iid_equal(riid, &IID_ID3D11DeviceChild) ||
        rt_iid_equal(riid, &IID_ID3D11Resource) || rt_iid_equal(riid, own)) {
        rt_resource_addref(res);
        *ppv = res;
        return S_OK;
    }
    return E_NOINTERFACE;
}
