/*
 * resource.c - what buffers and textures share: creation through the DDI (seed 001 §3),
 * reference counting, QueryInterface, destruction, the subresource arithmetic and the
 * per-subresource map bits.
 */
#include "runtime/runtime.h"
#include "common/alloc.h"

#include <stddef.h>
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
    /* docs/semantics.md §4.2: mip = s % MipLevels, slice = s / MipLevels. */
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
    if (api & RT_MISC_SHARED_ANY) ddi |= D3D10_DDI_RESOURCE_MISC_SHARED; /* keyed mutex: runtime's own */
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
 * DestroyResource follows, docs/semantics.md §4.2): release them so nothing leaks. */
static void drop_kernel_resource(struct rt_device *dev, struct rt_resource *res)
{
    if (!res->km_resource)
        return;
    D3DKMT_DESTROYALLOCATION da = { .hDevice = dev->km_device, .hResource = res->km_resource };
    (void)D3DKMTDestroyAllocation(&da);
    res->km_resource = 0;
}

/* The driver's handle memory sits right behind the rt_resource, aligned for any type. */
#define RT_DRV_OFFSET                                                                              \
    ((sizeof(struct rt_resource) + _Alignof(max_align_t) - 1) / _Alignof(max_align_t) * _Alignof(max_align_t))

/* A block for one resource with drv_size bytes of driver memory: a recycled one when the
 * memory fits RT_RESOURCE_DRV_INLINE (the common case: CreateBuffer + Release in a loop
 * reuses the same block, no malloc), else a fresh exact-size one. Caller holds dev->lock. */
static struct rt_resource *block_get_locked(struct rt_device *dev, SIZE_T drv_size)
{
    struct rt_resource *res;
    BOOL cacheable = drv_size <= RT_RESOURCE_DRV_INLINE;
    if (cacheable && dev->res_cache) {
        res = dev->res_cache;
        dev->res_cache = res->cache_next;
        dev->res_cache_count--;
    } else {
        res = wddm_malloc(RT_DRV_OFFSET + (cacheable ? RT_RESOURCE_DRV_INLINE : drv_size));
        if (!res)
            return NULL;
    }
    res->drv_mem = (char *)res + RT_DRV_OFFSET;
    res->drv_inline = cacheable;
    return res;
}

/* block_get_locked, then the runtime object from tmpl, live (one reference, this device), its
 * Map bits (mapped_heap, or the inline word) and zeroed driver memory, as calloc gave it before:
 * a recycled block shows the driver nothing of the resource that used it last. For
 * CreateResource and OpenResource alike. Caller holds dev->lock. */
static struct rt_resource *block_init_locked(struct rt_device *dev, SIZE_T drv_size, const struct rt_resource *tmpl,
                                             UINT64 *mapped_heap)
{
    struct rt_resource *res = block_get_locked(dev, drv_size ? drv_size : 1);
    if (!res)
        return NULL;
    void *drv_mem = res->drv_mem;
    BOOL drv_inline = res->drv_inline;
    *res = *tmpl;
    res->drv_mem = drv_mem;
    res->drv_inline = drv_inline;
    res->cache_next = NULL;
    res->magic = RT_RESOURCE_MAGIC;
    atomic_init(&res->refs, 1);
    res->device = dev;
    res->mapped_inline = 0;
    res->mapped_bits = mapped_heap ? mapped_heap : &res->mapped_inline;
    res->mapped_count = 0;
    res->offered = FALSE;
    res->km_resource = 0;
    res->eviction_priority = 0;
    res->private_data.head = NULL;
    res->dxgi.lpVtbl = rt_dxgi_resource_vtbl;
    res->surface.lpVtbl = &rt_dxgi_surface_vtbl;
    res->keyed_mutex.lpVtbl = &rt_keyed_mutex_vtbl; /* handed out only when km is set */
    res->d3d10.lpVtbl = rt_d3d10_resource_vtbl(tmpl->dimension);
    memset(drv_mem, 0, drv_size ? drv_size : 1);
    res->drv.pDrvPrivate = drv_mem;
    return res;
}

/* Gives a resource's block back (after DestroyResource, or on a failed creation): the runtime
 * frees the private memory after Destroy* (docs/semantics.md §4.1) - recycling it is freeing it
 * as far as the driver can tell, since it never sees the block again until a new
 * CalcPrivateResourceSize/CreateResource hands it out zeroed. Caller holds dev->lock. */
static void block_put_locked(struct rt_device *dev, struct rt_resource *res)
{
    if (res->mapped_bits != &res->mapped_inline)
        free(res->mapped_bits);
    res->mapped_bits = NULL;
    res->magic = 0; /* a stale pointer is no longer recognised (callbacks.c) */
    if (res->drv_inline && dev->res_cache_count < RT_RESOURCE_CACHE_MAX) {
        res->cache_next = dev->res_cache;
        dev->res_cache = res;
        dev->res_cache_count++;
    } else {
        free(res);
    }
}

void rt_resource_cache_trim(struct rt_device *dev)
{
    pthread_mutex_lock(&dev->lock);
    while (dev->res_cache) {
        struct rt_resource *res = dev->res_cache;
        dev->res_cache = res->cache_next;
        free(res);
    }
    dev->res_cache_count = 0;
    pthread_mutex_unlock(&dev->lock);
}

/* D3D11 allows at most 15 mip levels (16384 texels, D3D11_REQ_MIP_LEVELS); the mip list of
 * every valid resource fits on the stack. */
#define RT_STACK_MIPS 16u

/* pMipInfoList: texel sizes per level and physical sizes rounded to whole blocks
 * (docs/semantics.md §4.2). Buffers: one level of ByteWidth x 1 x 1. */
static void fill_mip_info(const struct rt_resource *tmpl, D3D10DDI_MIPINFO *mips)
{
    const struct wddm_format_info *fi = wddm_format_info(tmpl->format);
    UINT bw = fi ? fi->block_width : 1, bh = fi ? fi->block_height : 1;
    for (UINT m = 0; m < tmpl->mip_levels; m++) {
        mips[m].TexelWidth = rt_mip_dim(tmpl->width, m);
        mips[m].TexelHeight = rt_mip_dim(tmpl->height, m);
        mips[m].TexelDepth = rt_mip_dim(tmpl->depth, m);
        mips[m].PhysicalWidth = (mips[m].TexelWidth + bw - 1) / bw * bw;
        mips[m].PhysicalHeight = (mips[m].TexelHeight + bh - 1) / bh * bh;
        mips[m].PhysicalDepth = mips[m].TexelDepth;
    }
}

HRESULT rt_resource_create(struct rt_device *dev, struct rt_resource *tmpl,
                           const D3D11_SUBRESOURCE_DATA *initial_data, struct rt_resource **out)
{
    *out = NULL;
    if (rt_device_is_removed(dev)) {
        RT_REFUSE("resource creation on a removed device");
        return DXGI_ERROR_DEVICE_REMOVED;
    }
    /* A D3D10 device's UMD speaks the D3D10 DDI (ddi10.c), which has no unordered-access views,
     * structured or raw buffers, indirect arguments or clamped resources. */
    const UINT misc10 = D3D11_RESOURCE_MISC_GENERATE_MIPS | D3D11_RESOURCE_MISC_SHARED |
                        D3D11_RESOURCE_MISC_TEXTURECUBE | D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX |
                        D3D11_RESOURCE_MISC_GDI_COMPATIBLE;
    if (rt_device_is_d3d10(dev) && ((tmpl->misc_flags & ~misc10) || (tmpl->bind_flags & D3D11_BIND_UNORDERED_ACCESS))) {
        RT_REFUSE("resource creation: MiscFlags 0x%x / BindFlags 0x%x need the D3D11 DDI; this device drives "
                  "the D3D10 one (%s)", tmpl->misc_flags, tmpl->bind_flags, rt_device_creator(dev));
        return E_INVALIDARG;
    }
    HRESULT hr = E_OUTOFMEMORY;
    struct rt_resource *res = NULL;
    D3D10DDI_MIPINFO stack_mips[RT_STACK_MIPS];
    D3D10DDI_MIPINFO *mips = tmpl->mip_levels <= RT_STACK_MIPS ? stack_mips : wddm_calloc(tmpl->mip_levels, sizeof(*mips));
    D3D10_DDIARG_SUBRESOURCE_UP *init = NULL;
    /* Map bits: one inline word covers 64 subresources (every buffer); more get an array. */
    UINT64 *mapped_heap = NULL;
    if (tmpl->subresource_count > 64) {
        mapped_heap = wddm_calloc((tmpl->subresource_count + 63) / 64, sizeof(UINT64));
        if (!mapped_heap)
            goto fail;
    }
    if (!mips)
        goto fail;
    if (tmpl->misc_flags & D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX) {
        /* Its keyed mutex and fence exist before the UMD allocates: pfnAllocateCb names them in
         * the shared resource's runtime data (callbacks.c). The resource owns them from here. */
        hr = rt_keyed_mutex_create(dev, (tmpl->misc_flags & D3D11_RESOURCE_MISC_SHARED_NTHANDLE) != 0, &tmpl->km);
        if (FAILED(hr))
            goto fail;
    }

    fill_mip_info(tmpl, mips);
    if (initial_data) {
        init = wddm_calloc(tmpl->subresource_count, sizeof(*init));
        if (!init)
            goto fail;
        for (UINT s = 0; s < tmpl->subresource_count; s++) {
            init[s].pSysMem = initial_data[s].pSysMem;
            init[s].SysMemPitch = initial_data[s].SysMemPitch;
            init[s].SysMemSlicePitch = initial_data[s].SysMemSlicePitch;
        }
    }

    D3D11DDIARG_CREATERESOURCE args = { 0 };
    args.pMipInfoList = mips;
    args.pInitialDataUP = init;
    args.ResourceDimension = ddi_dimension(tmpl);
    args.Usage = (UINT)tmpl->usage;                /* D3D10_DDI_USAGE_* = D3D11_USAGE_* */
    args.BindFlags = ddi_bind_flags(tmpl->bind_flags);
    args.MapFlags = tmpl->cpu_access >> 16;        /* docs/semantics.md §10 #4: CPU-access bitmask */
    args.MiscFlags = ddi_misc_flags(tmpl->misc_flags);
    args.Format = tmpl->format;
    args.SampleDesc.Count = tmpl->sample_count;
    args.SampleDesc.Quality = tmpl->sample_quality;
    args.MipLevels = tmpl->mip_levels;
    args.ArraySize = tmpl->array_size;
    args.pPrimaryDesc = NULL;
    args.ByteStride = tmpl->dimension == D3D11_RESOURCE_DIMENSION_BUFFER ? tmpl->desc.buffer.StructureByteStride : 0;

    /* seed 001 §3: CalcPrivateResourceSize -> runtime allocates hResource.pDrvPrivate ->
     * CreateResource(hDevice, pCreate, hResource, hRTResource). The runtime object and the
     * driver memory are one block, taken under the device lock the DDI calls hold anyway. */
    rt_ddi_begin(dev);
    SIZE_T size = rt_ddi_calc_resource_size(dev, &args);
    HRESULT err = dev->call_error;
    if (err == S_OK) {
        res = block_init_locked(dev, size, tmpl, mapped_heap);
        if (!res) {
            (void)rt_ddi_end(dev);
            goto fail;
        }
        mapped_heap = NULL;
        res->global_share = 0; /* MISC_SHARED: set by pfnAllocateCb (callbacks.c) */
        void *drv_mem = res->drv_mem;
        D3D10DDI_HRTRESOURCE hrt = { .handle = res };
        rt_ddi_create_resource(dev, &args, res->drv, hrt);
        /* seed 004: right after the IC object exists, ask its deferred-context handle size. */
        res->dc_handle_size = dev->call_error == S_OK
                                  ? rt_deferred_handle_size_locked(dev, D3D10DDI_HT_RESOURCE, drv_mem) : 0;
    }
    err = rt_ddi_end(dev);
    if (err != S_OK) {
        /* docs/semantics.md §4.2: any error makes the handle dead; no DestroyResource follows. */
        static const HRESULT allowed[] = { E_OUTOFMEMORY, DXGI_DDI_ERR_UNSUPPORTED };
        hr = rt_ddi_error_to_api(dev, err, allowed, 2, "pfnCreateResource");
        RT_REFUSE("resource creation failed in the driver (0x%08x)", (UINT)err);
        if (res) {
            drop_kernel_resource(dev, res);
            pthread_mutex_lock(&dev->lock);
            block_put_locked(dev, res);
            pthread_mutex_unlock(&dev->lock);
        }
        goto fail;
    }
    if (mips != stack_mips)
        free(mips);
    free(init);
    rt_device_addref(dev); /* every child holds the device */
    RT_LIVE_ADD(dev, rt_live_kind_of(res), 1);
    *out = res;
    return S_OK;

fail:
    if (mips != stack_mips)
        free(mips);
    free(init);
    free(mapped_heap);
    rt_keyed_mutex_free(tmpl->km);
    tmpl->km = NULL;
    return hr;
}

ULONG rt_resource_addref(struct rt_resource *res)
{
    return atomic_fetch_add(&res->refs, 1) + 1;
}

static void resource_destroy(struct rt_resource *res)
{
    struct rt_device *dev = res->device;
    /* Before the device lock: a stored interface's release may call into this device. */
    rt_private_clear(&res->private_data);
    rt_ddi_begin(dev);
    /* An application may release a resource it still has mapped: unmap first so every
     * pfnLockCb stays paired with pfnUnlockCb (docs/semantics.md §3.2 rule 13). */
    for (UINT s = 0; res->mapped_count && s < res->subresource_count; s++) {
        if (rt_resource_is_mapped(res, s)) {
            rt_unmap_ddi_locked(dev, res, s);
            rt_resource_set_mapped(res, s, FALSE);
        }
    }
    dev->funcs.pfnDestroyResource(dev->drv_device, res->drv);
    RT_LIVE_ADD(dev, rt_live_kind_of(res), -1);
    struct rt_keyed_mutex *km = res->km; /* the block is recycled below; destroyed after the lock */
    /* The runtime frees the private memory after Destroy* (docs/semantics.md §4.1): the block
     * goes back to the device's cache while the lock is still held. */
    block_put_locked(dev, res);
    HRESULT err = rt_ddi_end(dev);
    static const HRESULT allowed[] = { D3DDDIERR_DEVICEREMOVED };
    (void)rt_ddi_error_to_api(dev, err, allowed, 1, "pfnDestroyResource");
    rt_keyed_mutex_free(km);
    rt_device_release(dev);
}

ULONG rt_resource_release(struct rt_resource *res)
{
    /* COM: a reference is only ever gained from a holder (AddRef, QueryInterface, a view
     * taking one). If the caller's is the only one, nobody can add one concurrently, so the
     * last Release needs no atomic read-modify-write (the acquire load orders the other
     * holders' earlier Releases before the destruction). One locked instruction less per
     * CreateBuffer + Release (W3). */
    if (atomic_load_explicit(&res->refs, memory_order_acquire) == 1) {
        atomic_store_explicit(&res->refs, 0, memory_order_relaxed);
        resource_destroy(res);
        return 0;
    }
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

/* The priority is VidMm's for the resource's allocations (D3DKMTSetAllocationPriority with the
 * kernel resource: DXGI_RESOURCE_PRIORITY_* are the D3DDDI_ALLOCATIONPRIORITY_* values). A
 * resource without a kernel resource of its own (a buffer the UMD placed inside a shared
 * allocation) keeps the value at the API only: its allocation is its neighbours' too. 0 is no
 * priority VidMm knows: kept at the API only. */
void rt_resource_set_eviction_priority(struct rt_resource *res, UINT prio)
{
    res->eviction_priority = prio;
    if (!res->km_resource || !prio)
        return;
    D3DKMT_SETALLOCATIONPRIORITY p = { .hDevice = res->device->km_device, .hResource = res->km_resource,
                                       .pPriorities = &prio };
    NTSTATUS st = D3DKMTSetAllocationPriority(&p);
    if (!NT_SUCCESS(st))
        RT_REFUSE("SetEvictionPriority: D3DKMTSetAllocationPriority answered 0x%08x", (UINT)st);
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
    /* ID3D11Texture2D1 / 3D1 (Direct3D 11.3): the same pointer, their GetDesc1 after GetDesc. */
    const IID *own1 = res->dimension == D3D11_RESOURCE_DIMENSION_TEXTURE2D   ? &IID_ID3D11Texture2D1
                      : res->dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D ? &IID_ID3D11Texture3D1
                                                                             : own;
    /* Single inheritance: IUnknown <- ID3D11DeviceChild <- ID3D11Resource <- the kind; one
     * pointer serves them all (the vtables share their prefix). */
    if (rt_iid_equal(riid, &IID_IUnknown) || rt_iid_equal(riid, &IID_ID3D11DeviceChild) ||
        rt_iid_equal(riid, &IID_ID3D11Resource) || rt_iid_equal(riid, own) || rt_iid_equal(riid, own1)) {
        rt_resource_addref(res);
        *ppv = res;
        return S_OK;
    }
    if (rt_iid_equal(riid, &IID_IDXGIResource) || rt_iid_equal(riid, &IID_IDXGIResource1) ||
        rt_iid_equal(riid, &IID_IDXGIDeviceSubObject) ||
        rt_iid_equal(riid, &IID_IDXGIObject)) { /* issue 6: its DXGI face (share.c) */
        rt_resource_addref(res);
        *ppv = &res->dxgi;
        return S_OK;
    }
    if (rt_iid_equal(riid, &IID_IDXGIKeyedMutex) && res->km) { /* keyed_mutex.c */
        rt_resource_addref(res);
        *ppv = &res->keyed_mutex;
        return S_OK;
    }
    if ((rt_iid_equal(riid, &IID_IDXGISurface) || rt_iid_equal(riid, &IID_IDXGISurface1)) &&
        rt_resource_is_surface(res)) { /* issue 15 §3: surface.c */
        rt_resource_addref(res);
        *ppv = &res->surface;
        return S_OK;
    }
    void *face = rt_d3d10_resource_face(res, riid); /* issue 15 §1: d3d10_resource.c */
    if (face) {
        rt_resource_addref(res);
        *ppv = face;
        return S_OK;
    }
    return E_NOINTERFACE;
}

HRESULT rt_resource_open(struct rt_device *dev, struct rt_resource *tmpl, const D3D10DDIARG_OPENRESOURCE *args,
                         struct rt_resource **out)
{
    *out = NULL;
    HRESULT hr = E_OUTOFMEMORY;
    struct rt_resource *res = NULL;
    if (!dev->funcs.pfnCalcPrivateOpenedResourceSize || !dev->funcs.pfnOpenResource) {
        RT_REFUSE("OpenSharedResource: the driver has no pfnOpenResource");
        hr = E_NOTIMPL;
        goto fail;
    }
    /* Seed 001 §3's pattern, for an opened resource: CalcPrivateOpenedResourceSize -> the
     * runtime's block -> OpenResource(hDevice, pOpen, hResource, hRTResource). */
    rt_ddi_begin(dev);
    SIZE_T size = dev->funcs.pfnCalcPrivateOpenedResourceSize(dev->drv_device, args);
    HRESULT err = dev->call_error;
    if (err == S_OK) {
        res = block_init_locked(dev, size, tmpl, NULL); /* one subresource (validate.c: shared = 1 mip) */
        if (!res) {
            (void)rt_ddi_end(dev);
            goto fail;
        }
        res->km_resource = args->hKMResource; /* pfnDeallocateCb destroys it with the resource */
        void *drv_mem = res->drv_mem;
        D3D10DDI_HRTRESOURCE hrt = { .handle = res };
        dev->funcs.pfnOpenResource(dev->drv_device, args, res->drv, hrt);
        res->dc_handle_size = dev->call_error == S_OK
                                  ? rt_deferred_handle_size_locked(dev, D3D10DDI_HT_RESOURCE, drv_mem) : 0;
    }
    err = rt_ddi_end(dev);
    if (err != S_OK) {
        static const HRESULT allowed[] = { E_OUTOFMEMORY, DXGI_DDI_ERR_UNSUPPORTED, E_INVALIDARG };
        hr = rt_ddi_error_to_api(dev, err, allowed, 3, "pfnOpenResource");
        RT_REFUSE("OpenSharedResource: the driver failed to open the resource (0x%08x)", (UINT)err);
        if (res) {
            drop_kernel_resource(dev, res); /* unless the UMD's pfnDeallocateCb already did */
            pthread_mutex_lock(&dev->lock);
            block_put_locked(dev, res);
            pthread_mutex_unlock(&dev->lock);
            return hr;
        }
        goto fail;
    }
    rt_device_addref(dev);
    RT_LIVE_ADD(dev, rt_live_kind_of(res), 1);
    *out = res;
    return S_OK;

fail: {
        /* The opened kernel resource goes with the failed open. */
        D3DKMT_DESTROYALLOCATION da = { .hDevice = dev->km_device, .hResource = args->hKMResource };
        (void)D3DKMTDestroyAllocation(&da);
    }
    return hr;
}
