/* resource.c - CalcPrivateResourceSize, CreateResource, DestroyResource (seed 001 §3, §4).
 *
 * One allocation per resource holding every subresource (seed 001 §4.3 "minimal, one
 * allocation per resource"), laid out by layout.c; allocated only with pfnAllocateCb and freed
 * only with pfnDeallocateCb (docs/architecture.md "The house"). The exception: small DEFAULT buffers take
 * a slot of a pooled allocation (suballoc.c), as D3D11 drivers do. */
#include "umd/umd.h"
#include "umd/deferred.h"

#include <stdint.h>

#include <string.h>

SIZE_T APIENTRY umd_CalcPrivateResourceSize(D3D10DDI_HDEVICE hDevice, const D3D11DDIARG_CREATERESOURCE *args)
{
    UINT n = args ? umd_subresource_count(args) : 0;
    /* An absurd request still gets a valid handle; CreateResource then refuses it. */
    n = n ? n : 1;
    /* IC handle data, then (cache-line aligned) the read-only block (seed 004, umd.h). */
    return umd_resource_ro_offset(n) + sizeof(struct umd_resource_ro) + (SIZE_T)n * sizeof(struct umd_subresource);
}

struct umd_resource_ro *umd_resource_ro(const struct umd_resource *res)
{
    UINT n = res->subresource_count ? res->subresource_count : 1;
    uintptr_t end = (uintptr_t)res + sizeof(struct umd_resource) + (SIZE_T)n * sizeof(struct umd_subresource);
    /* Next cache line after the IC data (8-byte alignment only under WDDM_UMD_NO_PADDING). */
    uintptr_t ro = (end + UMD_RO_ALIGN - 1) & ~(uintptr_t)(UMD_RO_ALIGN - 1);
    return (struct umd_resource_ro *)ro;
}

/* Seed 001 §4.3 / swgpu_private.h: usage decides what the KMD must place the allocation as. */
static UINT umd_alloc_kind(UINT usage)
{
    switch (usage) {
    case D3D10_DDI_USAGE_DYNAMIC: return SWGPU_ALLOC_UPLOAD;   /* CPU-visible, write-combined */
    case D3D10_DDI_USAGE_STAGING: return SWGPU_ALLOC_READBACK; /* CPU-visible, cached, linear */
    default:                      return SWGPU_ALLOC_GPU_ONLY; /* DEFAULT, IMMUTABLE */
    }
}

/* SWGPU_ALLOC_FLAG_SAMPLED_TEXTURE (swgpu_private.h): a texture the GPU only reads through its
 * samplers may live in system memory when video memory is full. */
static UINT32 umd_alloc_flags(const D3D11DDIARG_CREATERESOURCE *args)
{
    BOOL texture = args->ResourceDimension != D3D10DDIRESOURCE_BUFFER &&
                   args->ResourceDimension != D3D11DDIRESOURCE_BUFFEREX;
    BOOL gpu_only = args->Usage == D3D10_DDI_USAGE_DEFAULT || args->Usage == D3D10_DDI_USAGE_IMMUTABLE;
    UINT written = D3D10_DDI_BIND_RENDER_TARGET | D3D10_DDI_BIND_DEPTH_STENCIL | D3D11_DDI_BIND_UNORDERED_ACCESS |
                   D3D10_DDI_BIND_STREAM_OUTPUT;
    return texture && gpu_only && !(args->BindFlags & written) && !(args->MiscFlags & D3D10_DDI_RESOURCE_MISC_SHARED)
               ? SWGPU_ALLOC_FLAG_SAMPLED_TEXTURE
               : 0;
}

static void umd_free_allocation(struct umd_device *dev, struct umd_resource *res)
{
    /* A queued command that references the allocation must reach the kernel before the
     * allocation dies (the brief: flush first; VidMm then defers the destruction until that
     * work retires). */
    if (umd_is_queued(dev, res)) {
        HRESULT hr = umd_flush(dev);
        if (FAILED(hr))
            umd_set_error(dev, hr);
    }
    /* hResource set: frees every allocation of the resource and the kernel resource
     * (docs/semantics.md §3.5); the handle list is given as well for a runtime that frees by list. */
    D3DDDICB_DEALLOCATE d = { .hResource = res->hRTResource.handle, .NumAllocations = 1, .HandleList = &res->hAllocation };
    HRESULT hr = dev->kt.pfnDeallocateCb(dev->hRTDevice.handle, &d);
    if (FAILED(hr)) {
        UMD_REFUSE("pfnDeallocateCb failed (0x%08x)", (unsigned)hr);
        if (hr == D3DDDIERR_DEVICEREMOVED)
            umd_set_error(dev, hr); /* the only error DestroyResource may report (docs/semantics.md §4.2) */
    }
    res->hAllocation = 0;
}

/* pfnAllocateCb with res->priv: an allocation of res's hRTResource, or a device allocation (no
 * kernel resource, docs/semantics.md §3.5) when that is NULL. In the GpuMmu model also its VA over
 * the whole allocation (read-only for IMMUTABLE, whose initial data goes through a temporary
 * writable mapping) and its residency; with `track` it joins the residency list and may stay
 * evicted for now (made resident when a command names it). S_OK or the HRESULT for
 * pfnSetErrorCb (refusal logged); nothing is left on failure. */
static HRESULT umd_allocate(struct umd_device *dev, struct umd_resource *res, BOOL track)
{
    /* Larger than every segment the KMD may place this kind in (adapter private data): it could
     * be created but never made resident, and the first command naming it would lose the
     * device. Refused now, as out of memory (D3D11: E_OUTOFMEMORY from Create*; issue 14). */
    const struct swgpu_umd_adapter_info *ai = &dev->adapter->info;
    UINT64 max = 0;
    switch (res->priv.kind) {
    case SWGPU_ALLOC_GPU_ONLY:
        max = (res->priv.flags & SWGPU_ALLOC_FLAG_SAMPLED_TEXTURE) ? ai->max_sampled_texture_bytes
                                                                   : ai->max_gpu_only_bytes;
        break;
    case SWGPU_ALLOC_UPLOAD: max = ai->max_upload_bytes; break;
    case SWGPU_ALLOC_READBACK: max = ai->max_readback_bytes; break;
    default: break;
    }
    if (max && res->priv.size > max) {
        UMD_REFUSE("allocation of %llu bytes (kind %u) is larger than every segment it may live in (%llu bytes): "
                   "out of memory", (unsigned long long)res->priv.size, (unsigned)res->priv.kind,
                   (unsigned long long)max);
        return E_OUTOFMEMORY;
    }
    D3DDDI_ALLOCATIONINFO info = {
        .pPrivateDriverData = &res->priv,
        .PrivateDriverDataSize = sizeof res->priv,
        .VidPnSourceId = D3DDDI_ID_NOTAPPLICABLE,
    };
    D3DDDICB_ALLOCATE a = {
        .hResource = res->hRTResource.handle,
        .NumAllocations = 1,
        .pAllocationInfo = &info,
    };
    HRESULT hr = dev->kt.pfnAllocateCb(dev->hRTDevice.handle, &a);
    if (FAILED(hr)) {
        /* Allowed: E_OUTOFMEMORY, DEVICEREMOVED (docs/semantics.md §4.2); video memory
         * exhaustion is out of memory to the application. */
        UMD_REFUSE("pfnAllocateCb(%llu bytes) failed (0x%08x)", (unsigned long long)res->size, (unsigned)hr);
        return hr == D3DDDIERR_DEVICEREMOVED ? hr : E_OUTOFMEMORY;
    }
    res->hAllocation = res->hAllocationOwn = info.hAllocation;
    res->hKMResource = a.hKMResource;
    if (dev->gpuva) {
        hr = umd_va_prepare(dev, res->hAllocation, res->size, res->usage != D3D10_DDI_USAGE_IMMUTABLE, &res->va,
                            track);
        res->evicted = hr == S_FALSE;
        if (SUCCEEDED(hr) && track)
            umd_va_track(dev, res);
        if (FAILED(hr)) {
            umd_free_allocation(dev, res);
            return hr;
        }
    }
    return S_OK;
}

/* The resource's memory goes: its slot, or its allocation (off the residency list first). */
static void umd_release_memory(struct umd_device *dev, struct umd_resource *res)
{
    if (umd_ring_backed(res)) {
        umd_ring_free(dev, res);
        return;
    }
    if (res->chunk) {
        umd_suballoc_free(dev, res);
        return;
    }
    if (!res->hAllocation)
        return;
    if (dev->gpuva)
        umd_va_resource_fini(dev, res); /* the kernel unmaps every VA with the allocation */
    umd_free_allocation(dev, res);
}

/* ---- allocations the UMD makes for itself (umd.h) ------------------------------------------- */

HRESULT umd_own_buffer_create(struct umd_device *dev, struct umd_resource *res, UINT bytes, UINT kind, UINT usage,
                              UINT cpu_access, BOOL track)
{
    memset(res, 0, sizeof *res + sizeof(struct umd_subresource));
    res->device = dev;
    res->dimension = D3D10DDIRESOURCE_BUFFER;
    res->usage = usage;
    res->cpu_access = cpu_access;
    res->format = DXGI_FORMAT_UNKNOWN;
    res->bytes_per_elem = res->block_width = res->block_height = 1;
    res->mip_levels = res->array_size = res->subresource_count = 1;
    res->size = bytes;
    res->sub[0] = (struct umd_subresource){ .row_pitch = bytes, .depth_pitch = bytes, .row_bytes = bytes, .rows = 1,
                                            .depth = 1, .width = bytes, .height = 1 };
    res->priv = (struct swgpu_alloc_private){
        .magic = SWGPU_PRIVATE_MAGIC,
        .version = SWGPU_PRIVATE_VERSION,
        .kind = kind,
        .format = DXGI_FORMAT_UNKNOWN,
        .size = bytes,
        .dimension = D3D10DDIRESOURCE_BUFFER,
        .width = bytes,
        .height = 1,
        .depth = 1,
        .mip_levels = 1,
        .array_size = 1,
        .usage = usage,
        .cpu_access = cpu_access,
    };
    return umd_allocate(dev, res, track); /* hRTResource NULL: a device allocation */
}

void umd_own_buffer_destroy(struct umd_device *dev, struct umd_resource *res)
{
    umd_rename_resource_fini(dev, res); /* renaming mode: its other instances (a DYNAMIC one's) */
    umd_release_memory(dev, res);
}

/* The UMD's view of a resource from its creation arguments: layout, read-only block, the KMD's
 * private data. FALSE: the error is reported (pfnSetErrorCb). */
static BOOL describe(struct umd_device *dev, struct umd_resource *res, const D3D11DDIARG_CREATERESOURCE *args,
                     D3D10DDI_HRTRESOURCE hRTResource)
{
    UINT count = umd_subresource_count(args);
    /* Header only: sub[] is filled by umd_layout and is count entries long. */
    memset(res, 0, sizeof *res);
    res->device = dev;
    res->hRTResource = hRTResource;
    if (count == 0) {
        UMD_REFUSE("CreateResource: %u mips x %u slices is beyond any D3D11 limit", args->MipLevels, args->ArraySize);
        umd_set_error(dev, DXGI_DDI_ERR_UNSUPPORTED);
        return FALSE;
    }
    if (args->SampleDesc.Count > 1) {
        /* FIXME: multisampled resources (no resolve in the software GPU yet). */
        UMD_REFUSE("CreateResource: multisampled resources are not supported");
        umd_set_error(dev, DXGI_DDI_ERR_UNSUPPORTED);
        return FALSE;
    }
    HRESULT hr = umd_layout(args, dev->row_pitch_alignment, res->sub, &res->size);
    if (FAILED(hr)) {
        umd_set_error(dev, hr);
        return FALSE;
    }
    BOOL buffer = args->ResourceDimension == D3D10DDIRESOURCE_BUFFER ||
                  args->ResourceDimension == D3D11DDIRESOURCE_BUFFEREX;
    const struct wddm_format_info *fi = buffer ? NULL : wddm_format_info(args->Format);
    res->dimension = args->ResourceDimension;
    res->usage = args->Usage;
    res->bind_flags = args->BindFlags;
    res->cpu_access = args->MapFlags;
    res->format = args->Format;
    res->bytes_per_elem = fi ? fi->bytes_per_elem : 1;
    res->block_width = fi ? fi->block_width : 1;
    res->block_height = fi ? fi->block_height : 1;
    res->mip_levels = buffer ? 1 : (args->MipLevels ? args->MipLevels : 1);
    res->array_size = buffer || args->ResourceDimension == D3D10DDIRESOURCE_TEXTURE3D
                          ? 1 : (args->ArraySize ? args->ArraySize : 1);
    res->subresource_count = count;
    struct umd_resource_ro *ro = umd_resource_ro(res);
    ro->dimension = res->dimension;
    ro->usage = res->usage;
    ro->bind_flags = res->bind_flags;
    ro->format = res->format;
    ro->bytes_per_elem = res->bytes_per_elem;
    ro->block_width = res->block_width;
    ro->block_height = res->block_height;
    ro->subresource_count = count;
    ro->size = res->size;
    memcpy(ro->sub, res->sub, (SIZE_T)count * sizeof(struct umd_subresource));

    /* The driver package's private data: everything the KMD needs to place it (seed 001 §4.2). */
    res->priv = (struct swgpu_alloc_private){
        .magic = SWGPU_PRIVATE_MAGIC,
        .version = SWGPU_PRIVATE_VERSION,
        .kind = umd_alloc_kind(args->Usage),
        .format = (UINT32)args->Format,
        .size = res->size,
        .dimension = args->ResourceDimension,
        .width = res->sub[0].width,
        .height = res->sub[0].height,
        .depth = res->sub[0].depth,
        .mip_levels = res->mip_levels,
        .array_size = res->array_size,
        .usage = args->Usage,
        .bind_flags = args->BindFlags,
        .cpu_access = args->MapFlags,
        .misc_flags = args->MiscFlags,
        .flags = umd_alloc_flags(args),
    };
    return TRUE;
}

VOID APIENTRY umd_CreateResource(D3D10DDI_HDEVICE hDevice, const D3D11DDIARG_CREATERESOURCE *args,
                                 D3D10DDI_HRESOURCE hResource, D3D10DDI_HRTRESOURCE hRTResource)
{
    struct umd_device *dev = umd_device(hDevice);
    struct umd_resource *res = umd_resource(hResource);
    if (!describe(dev, res, args, hRTResource))
        return;
    UINT count = res->subresource_count;
    BOOL buffer = args->ResourceDimension == D3D10DDIRESOURCE_BUFFER ||
                  args->ResourceDimension == D3D11DDIRESOURCE_BUFFEREX;
    HRESULT hr;
    BOOL upload = FALSE;
    if (umd_suballoc_wanted(dev, args, res->size) || umd_ring_wanted(dev, args, res->size)) {
        /* A slot of a pooled chunk (suballoc.c) or a slice of the upload ring (ring.c): no
         * allocation of its own. */
        hr = args->Usage == D3D10_DDI_USAGE_DYNAMIC ? umd_ring_place(dev, res) : umd_suballoc(dev, res);
        if (FAILED(hr)) {
            umd_set_error(dev, hr);
            return;
        }
    } else {
        hr = umd_allocate(dev, res, TRUE);
        if (SUCCEEDED(hr) && dev->gpuva && args->Usage == D3D10_DDI_USAGE_IMMUTABLE && args->pInitialDataUP) {
            hr = umd_va_upload_begin(dev, res); /* a writable mapping for the WRITEs below */
            upload = SUCCEEDED(hr);
            if (FAILED(hr))
                umd_release_memory(dev, res);
        }
        if (FAILED(hr)) {
            umd_set_error(dev, hr);
            return;
        }
    }

    /* Initial data: SWGPU_OP_WRITE commands into the new allocation (seed 001 §4.3: DEFAULT
     * resources are not CPU-visible, so the GPU writes it). Rows of blocks for BC formats. */
    if (args->pInitialDataUP) {
        for (UINT s = 0; s < count; s++) {
            const D3D10_DDIARG_SUBRESOURCE_UP *up = &args->pInitialDataUP[s];
            const struct umd_subresource *sr = &res->sub[s];
            if (!up->pSysMem)
                continue;
            if (!umd_emit_write(dev, res, sr->offset, sr->row_pitch, sr->depth_pitch, sr->row_bytes, sr->rows,
                                sr->depth, up->pSysMem, buffer ? sr->row_bytes : up->SysMemPitch,
                                buffer ? sr->depth_pitch : up->SysMemSlicePitch)) {
                /* The error is reported; the runtime will not call DestroyResource, so
                 * free what was created here (docs/semantics.md §4.2). */
                if (upload)
                    umd_va_upload_end(dev, res);
                umd_release_memory(dev, res);
                return;
            }
        }
        if (upload)
            umd_va_upload_end(dev, res);
    } else if (args->Usage == D3D10_DDI_USAGE_IMMUTABLE) {
        UMD_REFUSE("CreateResource: IMMUTABLE resource without initial data (contents stay zero)");
    }
}

/* ---- opened shared resources (issue 6) -------------------------------------------------------- */

/* The creator's private data (what its pfnAllocateCb carried; the KMD wrote the cross-adapter
 * layout into it): a Texture2D of one subresource. NULL: not one this UMD can open. */
static const struct swgpu_alloc_private *opened_priv(const D3D10DDIARG_OPENRESOURCE *args)
{
    if (!args || args->NumAllocations != 1 || !args->pOpenAllocationInfo)
        return NULL;
    const D3DDDI_OPENALLOCATIONINFO *oi = &args->pOpenAllocationInfo[0];
    const struct swgpu_alloc_private *p = oi->pPrivateDriverData;
    if (!p || oi->PrivateDriverDataSize != sizeof *p || p->magic != SWGPU_PRIVATE_MAGIC ||
        p->version != SWGPU_PRIVATE_VERSION || p->dimension != D3D10DDIRESOURCE_TEXTURE2D || p->mip_levels != 1 ||
        p->array_size != 1)
        return NULL;
    return p;
}

SIZE_T APIENTRY umd_CalcPrivateOpenedResourceSize(D3D10DDI_HDEVICE hDevice, const D3D10DDIARG_OPENRESOURCE *args)
{
    (void)hDevice, (void)args;
    /* One subresource (opened_priv); OpenResource refuses anything else. */
    return umd_resource_ro_offset(1) + sizeof(struct umd_resource_ro) + sizeof(struct umd_subresource);
}

/* pfnOpenResource: the resource another device (or the kernel) created, from the creator's
 * private data. Its allocation is the opened one (D3DKMTOpenResource's hAllocation); in the
 * GpuMmu model this UMD maps it and makes it resident like its own. A cross-adapter
 * allocation keeps the KMD's layout (pitch a multiple of 128, seed 003). */
VOID APIENTRY umd_OpenResource(D3D10DDI_HDEVICE hDevice, const D3D10DDIARG_OPENRESOURCE *args,
                               D3D10DDI_HRESOURCE hResource, D3D10DDI_HRTRESOURCE hRTResource)
{
    struct umd_device *dev = umd_device(hDevice);
    struct umd_resource *res = umd_resource(hResource);
    memset(res, 0, sizeof *res);
    const struct swgpu_alloc_private *p = opened_priv(args);
    if (!p) {
        UMD_REFUSE("OpenResource: not one allocation with this driver's Texture2D private data of one subresource");
        umd_set_error(dev, E_INVALIDARG);
        return;
    }
    const struct wddm_format_info *fi = wddm_format_info((DXGI_FORMAT)p->format);
    UINT bw = fi ? fi->block_width : 1, bh = fi ? fi->block_height : 1;
    D3D10DDI_MIPINFO mip = { .TexelWidth = p->width, .TexelHeight = p->height, .TexelDepth = 1,
                             .PhysicalWidth = (p->width + bw - 1) / bw * bw,
                             .PhysicalHeight = (p->height + bh - 1) / bh * bh, .PhysicalDepth = 1 };
    D3D11DDIARG_CREATERESOURCE c = { .pMipInfoList = &mip, .ResourceDimension = D3D10DDIRESOURCE_TEXTURE2D,
                                     .Usage = p->usage, .BindFlags = p->bind_flags, .MapFlags = p->cpu_access,
                                     .MiscFlags = p->misc_flags, .Format = (DXGI_FORMAT)p->format,
                                     .SampleDesc = { .Count = 1 }, .MipLevels = 1, .ArraySize = 1 };
    if (!describe(dev, res, &c, hRTResource))
        return;
    struct umd_resource_ro *ro = umd_resource_ro(res);
    if (p->kind == SWGPU_ALLOC_CROSS_ADAPTER) {
        /* Seed 003: both adapters read the same bytes at the same place: the KMD's layout. */
        res->sub[0].row_pitch = ro->sub[0].row_pitch = p->xa_row_pitch;
        res->sub[0].depth_pitch = ro->sub[0].depth_pitch = (UINT64)p->xa_row_pitch * p->xa_height;
        res->size = ro->size = p->size;
    } else if (res->size != p->size) {
        UMD_REFUSE("OpenResource: the creator's layout (%llu bytes) is not this driver's (%llu bytes)",
                   (unsigned long long)p->size, (unsigned long long)res->size);
        umd_set_error(dev, E_INVALIDARG);
        return;
    }
    res->priv = *p;
    res->hAllocation = res->hAllocationOwn = args->pOpenAllocationInfo[0].hAllocation;
    res->hKMResource = args->hKMResource;
    if (dev->gpuva) {
        HRESULT hr = umd_va_prepare(dev, res->hAllocation, res->size, TRUE, &res->va, TRUE);
        res->evicted = hr == S_FALSE;
        if (SUCCEEDED(hr))
            umd_va_track(dev, res);
        if (FAILED(hr)) {
            umd_set_error(dev, hr);
            umd_release_memory(dev, res);
        }
    }
}

VOID APIENTRY umd_DestroyResource(D3D10DDI_HDEVICE hDevice, D3D10DDI_HRESOURCE hResource)
{
    struct umd_device *dev = umd_device(hDevice);
    struct umd_resource *res = umd_resource(hResource);
    if (res->lock_count) {
        /* Every pfnLockCb must be paired with pfnUnlockCb (docs/semantics.md §3.2 rule 13). */
        (void)umd_map_end(dev, res);
        res->lock_count = 0;
    }
    /* UMD renaming: the pool's allocations belong to the same hRTResource and are freed with it. */
    umd_rename_resource_fini(dev, res);
    umd_release_memory(dev, res);
}
