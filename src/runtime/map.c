/*
 * map.c - ID3D11DeviceContext::Map / Unmap.
 *
 * Validation is the table of docs/semantics.md §5.2; the DDI slot is picked from usage, bind
 * flags and map type as in the table of docs/semantics.md §4.3 (pfnStagingResourceMap for
 * STAGING, pfnDynamicIABufferMap* for dynamic VB/IB-only buffers,
 * pfnDynamicConstantBufferMapDiscard for dynamic constant buffers, pfnDynamicResourceMapDiscard
 * for every other dynamic resource). D3D10_DDI_MAP has the numbers of D3D11_MAP, and
 * D3D10_DDI_MAP_FLAG_DONOTWAIT the number of D3D11_MAP_FLAG_DO_NOT_WAIT.
 */
#include "runtime/runtime.h"
#include "common/timeline.h"

enum map_kind { MAP_KIND_STAGING, MAP_KIND_DYNAMIC_IA, MAP_KIND_DYNAMIC_CB, MAP_KIND_DYNAMIC_OTHER };

static enum map_kind map_kind_of(const struct rt_resource *res)
{
    if (res->usage == D3D11_USAGE_STAGING)
        return MAP_KIND_STAGING;
    if (res->dimension == D3D11_RESOURCE_DIMENSION_BUFFER) {
        UINT ia = D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_INDEX_BUFFER;
        if (res->bind_flags && !(res->bind_flags & ~ia))
            return MAP_KIND_DYNAMIC_IA;
        if (res->bind_flags == D3D11_BIND_CONSTANT_BUFFER)
            return MAP_KIND_DYNAMIC_CB;
    }
    return MAP_KIND_DYNAMIC_OTHER;
}

/* The slot for a map; a NULL slot falls back to pfnResourceMap (a driver may point every map
 * slot at one implementation, docs/semantics.md §4.3). */
static PFND3D10DDI_RESOURCEMAP map_slot(const struct rt_device *dev, const struct rt_resource *res, D3D11_MAP type,
                                        const char **name)
{
    const D3D11DDI_DEVICEFUNCS *f = &dev->funcs;
    PFND3D10DDI_RESOURCEMAP fn = NULL;
    switch (map_kind_of(res)) {
    case MAP_KIND_STAGING:
        fn = f->pfnStagingResourceMap; *name = "pfnStagingResourceMap";
        break;
    case MAP_KIND_DYNAMIC_IA:
        if (type == D3D11_MAP_WRITE_NO_OVERWRITE) {
            fn = f->pfnDynamicIABufferMapNoOverwrite; *name = "pfnDynamicIABufferMapNoOverwrite";
        } else {
            fn = f->pfnDynamicIABufferMapDiscard; *name = "pfnDynamicIABufferMapDiscard";
        }
        break;
    case MAP_KIND_DYNAMIC_CB:
        if (type == D3D11_MAP_WRITE_NO_OVERWRITE) { /* D3D11.1 only (validate_map) */
            const D3D11_1DDI_DEVICEFUNCS *f1 = rt_device_funcs1(dev);
            fn = f1 ? f1->pfnDynamicConstantBufferMapNoOverwrite : NULL;
            *name = "pfnDynamicConstantBufferMapNoOverwrite";
        } else {
            fn = f->pfnDynamicConstantBufferMapDiscard; *name = "pfnDynamicConstantBufferMapDiscard";
        }
        break;
    case MAP_KIND_DYNAMIC_OTHER:
        /* NO_OVERWRITE of a shader-resource buffer (D3D11.1 only) has no slot of its own: the
         * general pfnResourceMap below takes it. */
        if (type != D3D11_MAP_WRITE_NO_OVERWRITE) {
            fn = f->pfnDynamicResourceMapDiscard; *name = "pfnDynamicResourceMapDiscard";
        }
        break;
    }
    if (!fn) {
        fn = f->pfnResourceMap;
        *name = "pfnResourceMap";
    }
    return fn;
}

static PFND3D10DDI_RESOURCEUNMAP unmap_slot(const struct rt_device *dev, const struct rt_resource *res)
{
    const D3D11DDI_DEVICEFUNCS *f = &dev->funcs;
    PFND3D10DDI_RESOURCEUNMAP fn = NULL;
    switch (map_kind_of(res)) {
    case MAP_KIND_STAGING: fn = f->pfnStagingResourceUnmap; break;
    case MAP_KIND_DYNAMIC_IA: fn = f->pfnDynamicIABufferUnmap; break;
    case MAP_KIND_DYNAMIC_CB: fn = f->pfnDynamicConstantBufferUnmap; break;
    case MAP_KIND_DYNAMIC_OTHER: fn = f->pfnDynamicResourceUnmap; break;
    }
    return fn ? fn : f->pfnResourceUnmap;
}

void rt_unmap_ddi_locked(struct rt_device *dev, struct rt_resource *res, UINT sub)
{
    PFND3D10DDI_RESOURCEUNMAP fn = unmap_slot(dev, res);
    if (fn)
        fn(dev->drv_device, res->drv, sub);
}

static const char *map_name(D3D11_MAP t)
{
    switch (t) {
    case D3D11_MAP_READ: return "MAP_READ";
    case D3D11_MAP_WRITE: return "MAP_WRITE";
    case D3D11_MAP_READ_WRITE: return "MAP_READ_WRITE";
    case D3D11_MAP_WRITE_DISCARD: return "MAP_WRITE_DISCARD";
    case D3D11_MAP_WRITE_NO_OVERWRITE: return "MAP_WRITE_NO_OVERWRITE";
    }
    return "?";
}

/* MAP_WRITE_NO_OVERWRITE on a dynamic buffer: vertex/index buffers always; constant and
 * shader-resource buffers when the driver has the D3D11.1 DDI (MapNoOverwriteOnDynamic-
 * ConstantBuffer / ...BufferSRV, ddi11_1.c). The immediate and deferred contexts' rule. */
BOOL rt_map_no_overwrite_allowed(const struct rt_device *dev, const struct rt_resource *res, const char *what)
{
    BOOL ddi11_1 = rt_device_funcs1(dev) != NULL;
    if (res->dimension == D3D11_RESOURCE_DIMENSION_BUFFER &&
        (map_kind_of(res) == MAP_KIND_DYNAMIC_IA ||
         (ddi11_1 && (map_kind_of(res) == MAP_KIND_DYNAMIC_CB || (res->bind_flags & D3D11_BIND_SHADER_RESOURCE)))))
        return TRUE;
    RT_REFUSE("%s: MAP_WRITE_NO_OVERWRITE on a dynamic resource bound as 0x%x needs a buffer bound only as vertex/index "
              "buffer, or a constant / shader-resource buffer with the D3D11.1 DDI (this device's DDI: %s; "
              "D3D11_FEATURE_DATA_D3D11_OPTIONS)",
              what, res->bind_flags, ddi11_1 ? "11.1" : "older");
    return FALSE;
}

/* docs/semantics.md §5.2: is this map type allowed on this resource? */
static HRESULT validate_map(const struct rt_device *dev, const struct rt_resource *res, D3D11_MAP type, UINT flags)
{
    if ((UINT)type < D3D11_MAP_READ || (UINT)type > D3D11_MAP_WRITE_NO_OVERWRITE) {
        RT_REFUSE_ID(D3D11_MESSAGE_ID_RESOURCE_MAP_INVALIDMAPTYPE, "Map: MapType %u is not a D3D11_MAP value",
                     (UINT)type);
        return E_INVALIDARG;
    }
    if (flags & ~(UINT)D3D11_MAP_FLAG_DO_NOT_WAIT) {
        RT_REFUSE_ID(D3D11_MESSAGE_ID_RESOURCE_MAP_INVALIDFLAGS,
                     "Map: MapFlags 0x%x has bits other than D3D11_MAP_FLAG_DO_NOT_WAIT", flags);
        return E_INVALIDARG;
    }
    switch (res->usage) {
    case D3D11_USAGE_DEFAULT:
        RT_REFUSE("Map: a USAGE_DEFAULT resource cannot be mapped (no CPU access; use UpdateSubresource or a "
                  "staging copy)");
        return E_INVALIDARG;
    case D3D11_USAGE_IMMUTABLE:
        RT_REFUSE("Map: a USAGE_IMMUTABLE resource cannot be mapped");
        return E_INVALIDARG;
    case D3D11_USAGE_DYNAMIC:
        if (type != D3D11_MAP_WRITE_DISCARD && type != D3D11_MAP_WRITE_NO_OVERWRITE) {
            RT_REFUSE("Map: %s on a USAGE_DYNAMIC resource; dynamic resources take only MAP_WRITE_DISCARD or "
                      "MAP_WRITE_NO_OVERWRITE", map_name(type));
            return E_INVALIDARG;
        }
        if (type == D3D11_MAP_WRITE_NO_OVERWRITE) {
            if (res->dimension != D3D11_RESOURCE_DIMENSION_BUFFER) {
                RT_REFUSE("Map: MAP_WRITE_NO_OVERWRITE is for dynamic buffers, never dynamic textures");
                return E_INVALIDARG;
            }
            if (!rt_map_no_overwrite_allowed(dev, res, "Map"))
                return E_INVALIDARG;
        }
        if (flags & D3D11_MAP_FLAG_DO_NOT_WAIT) {
            /* Model decision #5 (strict): the API forbids DO_NOT_WAIT with DISCARD/NO_OVERWRITE. */
            RT_REFUSE("Map: D3D11_MAP_FLAG_DO_NOT_WAIT cannot be combined with %s (model "
                      "decision #5)", map_name(type));
            return E_INVALIDARG;
        }
        break;
    case D3D11_USAGE_STAGING:
        if (type == D3D11_MAP_WRITE_DISCARD || type == D3D11_MAP_WRITE_NO_OVERWRITE) {
            RT_REFUSE("Map: %s is for USAGE_DYNAMIC resources, not STAGING", map_name(type));
            return E_INVALIDARG;
        }
        if ((type == D3D11_MAP_READ || type == D3D11_MAP_READ_WRITE) && !(res->cpu_access & D3D11_CPU_ACCESS_READ)) {
            RT_REFUSE("Map: %s needs a resource created with D3D11_CPU_ACCESS_READ",
                      map_name(type));
            return E_INVALIDARG;
        }
        if ((type == D3D11_MAP_WRITE || type == D3D11_MAP_READ_WRITE) && !(res->cpu_access & D3D11_CPU_ACCESS_WRITE)) {
            RT_REFUSE("Map: %s needs a resource created with D3D11_CPU_ACCESS_WRITE",
                      map_name(type));
            return E_INVALIDARG;
        }
        break;
    }
    return S_OK;
}

HRESULT STDMETHODCALLTYPE rt_context_Map(ID3D11DeviceContext *iface, ID3D11Resource *resource, UINT sub,
                                         D3D11_MAP type, UINT flags, D3D11_MAPPED_SUBRESOURCE *mapped)
{
    struct rt_device *dev = rt_context_from_iface(iface)->device;
    /* Wine d3d11 tests (run on Windows), test_resource_map: a Map that fails sets pData to NULL
     * and leaves RowPitch and DepthPitch as the caller had them. Every return below either
     * fails (pData stays NULL) or fills all three fields. */
    if (mapped)
        mapped->pData = NULL;
    struct rt_resource *res = rt_resource_from_iface(resource);
    if (!res) {
        RT_REFUSE("Map: pResource is NULL or not a resource");
        return E_INVALIDARG;
    }
    if (res->device != dev) {
        RT_REFUSE("Map: pResource belongs to another device");
        return E_INVALIDARG;
    }
    HRESULT hr = validate_map(dev, res, type, flags);
    if (FAILED(hr))
        return hr;
    if (sub >= res->subresource_count) {
        RT_REFUSE_ID(D3D11_MESSAGE_ID_RESOURCE_MAP_INVALIDSUBRESOURCE,
                     "Map: Subresource %u out of range (the resource has %u)", sub, res->subresource_count);
        return E_INVALIDARG;
    }
    if (!mapped) {
        /* NULL pMappedResource is only for WDDM 1.3 "map default" textures, not supported here. */
        RT_REFUSE("Map: pMappedResource is NULL");
        return E_INVALIDARG;
    }

    const char *slot_name = "?";
    PFND3D10DDI_RESOURCEMAP fn = map_slot(dev, res, type, &slot_name);
    rt_ddi_begin(dev);
    if (rt_resource_is_mapped(res, sub)) {
        (void)rt_ddi_end(dev);
        RT_REFUSE_ID(D3D11_MESSAGE_ID_RESOURCE_MAP_ALREADYMAPPED,
                     "Map: subresource %u is already mapped; Unmap it first", sub);
        return E_INVALIDARG;
    }
    if (res->offered) {
        (void)rt_ddi_end(dev);
        RT_REFUSE("Map: the resource is offered (IDXGIDevice2::OfferResources); ReclaimResources it first");
        return E_INVALIDARG;
    }
    if (rt_device_is_removed(dev)) {
        (void)rt_ddi_end(dev);
        RT_REFUSE_ID(D3D11_MESSAGE_ID_RESOURCE_MAP_DEVICEREMOVED_RETURN, "Map on a removed device");
        return DXGI_ERROR_DEVICE_REMOVED;
    }
    if (!fn) {
        (void)rt_ddi_end(dev);
        RT_REFUSE("Map: the UMD provides no %s", slot_name);
        return E_NOTIMPL;
    }
    D3D10DDI_MAPPED_SUBRESOURCE out = { 0 };
    UINT ddi_flags = (flags & D3D11_MAP_FLAG_DO_NOT_WAIT) ? D3D10_DDI_MAP_FLAG_DONOTWAIT : 0;
    wddm_tl_begin(WDDM_TL_CALL_MAP);
    fn(dev->drv_device, res->drv, sub, (D3D10_DDI_MAP)type, ddi_flags, &out);
    HRESULT err = dev->call_error;
    wddm_tl_end(WDDM_TL_CALL_MAP, (UINT64)(UINT32)err);
    if (err == S_OK)
        rt_resource_set_mapped(res, sub, TRUE);
    (void)rt_ddi_end(dev);

    if (err != S_OK) {
        /* docs/semantics.md §4.3: WASSTILLDRAWING only with DONOTWAIT; DEVICEREMOVED always (and then
         * no Unmap follows). E_OUTOFMEMORY is accepted too: a Discard lock may fail to rename. */
        HRESULT allowed[2] = { E_OUTOFMEMORY, E_OUTOFMEMORY };
        if (ddi_flags & D3D10_DDI_MAP_FLAG_DONOTWAIT)
            allowed[1] = DXGI_DDI_ERR_WASSTILLDRAWING;
        return rt_ddi_error_to_api(dev, err, allowed, 2, slot_name);
    }
    mapped->pData = out.pData;
    mapped->RowPitch = out.RowPitch;
    mapped->DepthPitch = out.DepthPitch;
    return S_OK;
}

void STDMETHODCALLTYPE rt_context_Unmap(ID3D11DeviceContext *iface, ID3D11Resource *resource, UINT sub)
{
    struct rt_device *dev = rt_context_from_iface(iface)->device;
    struct rt_resource *res = rt_resource_from_iface(resource);
    if (!res) {
        RT_REFUSE("Unmap: pResource is NULL or not a resource");
        return;
    }
    if (res->device != dev) {
        RT_REFUSE("Unmap: pResource belongs to another device");
        return;
    }
    if (sub >= res->subresource_count) {
        RT_REFUSE_ID(D3D11_MESSAGE_ID_RESOURCE_UNMAP_INVALIDSUBRESOURCE,
                     "Unmap: Subresource %u out of range (the resource has %u)", sub, res->subresource_count);
        return;
    }
    rt_ddi_begin(dev);
    if (!rt_resource_is_mapped(res, sub)) {
        (void)rt_ddi_end(dev);
        RT_REFUSE_ID(D3D11_MESSAGE_ID_RESOURCE_UNMAP_NOTMAPPED,
                     "Unmap: subresource %u is not mapped (Unmap must match a successful Map)",
                     sub);
        return;
    }
    rt_unmap_ddi_locked(dev, res, sub);
    rt_resource_set_mapped(res, sub, FALSE);
    HRESULT err = rt_ddi_end(dev);
    static const HRESULT allowed[] = { D3DDDIERR_DEVICEREMOVED };
    (void)rt_ddi_error_to_api(dev, err, allowed, 1, "Unmap");
}
