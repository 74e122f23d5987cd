/*
 * deferred.c - the deferred context (seed 004; docs/semantics.md §4.5, §5.2): its COM object and
 * driver context, the recording calls copy.c and context1.c hand it after their API checks,
 * Map/Unmap on it, and its error slot.
 *
 * Errors (seed 004 "Issues with pfnSetErrorCb"): the DC's pfnSetErrorCb lands in
 * rt_deferred.call_error; any error from a DC call removes the context locally: the partial
 * list is abandoned (pfnAbandonCommandList), later calls are accepted and dropped, and
 * FinishCommandList returns E_OUTOFMEMORY and starts a fresh recording.
 */
#include "runtime/deferred_internal.h"
#include "runtime/api_stubs.h"
#include "common/alloc.h"

#include <stdlib.h>

/* ---- error slot and local removal --------------------------------------------------------- */
void rt_dc_mark_lost(struct rt_deferred *dc, HRESULT why, const char *what)
{
    if (dc->lost)
        return;
    dc->lost = TRUE;
    RT_REFUSE("%s on a deferred context failed (0x%08x): context removed locally, the partial command list is "
              "dropped and FinishCommandList will return E_OUTOFMEMORY", what, (UINT)why);
    if (!dc->emulate && dc->drv_created && dc->funcs.pfnAbandonCommandList)
        dc->funcs.pfnAbandonCommandList(dc->drv);
}

BOOL rt_dc_call_end(struct rt_deferred *dc, const char *what)
{
    HRESULT hr = dc->call_error;
    dc->call_error = S_OK;
    if (hr == S_OK)
        return TRUE;
    if (hr == D3DDDIERR_DEVICEREMOVED)
        rt_device_set_removed(dc->device, DXGI_ERROR_DEVICE_REMOVED);
    rt_dc_mark_lost(dc, hr, what);
    return FALSE;
}

static VOID APIENTRY dc_SetErrorCb(D3D10DDI_HRTCORELAYER h, HRESULT hr)
{
    struct rt_deferred *dc = h.handle;
    /* Called from inside this DC's DDI call, on its thread (seed 004: errors go to the
     * context that made the call). */
    if (dc && dc->call_error == S_OK)
        dc->call_error = hr;
}

/* ---- driver context lifetime ------------------------------------------------------------ */
static HRESULT dc_driver_create(struct rt_deferred *dc)
{
    struct rt_device *dev = dc->device;
    D3D11DDIARG_CALCPRIVATEDEFERREDCONTEXTSIZE cs = { .Flags = dc->flags };
    D3D11DDIARG_CREATEDEFERREDCONTEXT a = { 0 };
    rt_ddi_begin(dev);
    if (!dc->drv_mem) {
        SIZE_T size = dev->funcs.pfnCalcPrivateDeferredContextSize(dev->drv_device, &cs);
        dc->drv_mem = wddm_calloc(1, size ? size : 1);
        if (!dc->drv_mem) {
            (void)rt_ddi_end(dev);
            return E_OUTOFMEMORY;
        }
    }
    dc->drv.pDrvPrivate = dc->drv_mem;
    if (rt_device_funcs1(dev))
        a.p11_1ContextFuncs = &dc->funcs1;
    else
        a.p11ContextFuncs = &dc->funcs;
    a.hDrvContext = dc->drv;
    a.hRTCoreLayer.handle = dc;
    a.p11UMCallbacks = &dc->core_callbacks;
    a.Flags = dc->flags;
    dev->funcs.pfnCreateDeferredContext(dev->drv_device, &a);
    HRESULT err = rt_ddi_end(dev);
    if (err != S_OK) {
        static const HRESULT allowed[] = { E_OUTOFMEMORY };
        return rt_ddi_error_to_api(dev, err, allowed, 1, "pfnCreateDeferredContext");
    }
    if (rt_device_funcs1(dev))
        rt_ddi11_1_adopt(&dc->funcs, &dc->funcs1);
    dc->drv_created = TRUE;
    return S_OK;
}

static void dc_driver_destroy(struct rt_deferred *dc)
{
    if (dc->drv_created && dc->funcs.pfnDestroyDevice)
        dc->funcs.pfnDestroyDevice(dc->drv);
    dc->drv_created = FALSE;
}

/* The Map buffers handed out while the context was lost (deferred_map_scratch). */
static void dc_free_scratch(struct rt_deferred *dc)
{
    for (UINT i = 0; i < dc->scratch_count; i++)
        free(dc->scratch[i]);
    free(dc->scratch);
    dc->scratch = NULL;
    dc->scratch_count = 0;
}

/* Start a fresh recording after Finish (docs/semantics.md §4.5 rule 7: close the DC's handles,
 * destroy the DC and create it again). */
void rt_dc_reset(struct rt_deferred *dc, struct rt_cmdlist *keep)
{
    rt_dc_close_handles(dc, keep);
    dc_free_scratch(dc);
    rt_emu_free(&dc->emu);
    rt_query_ends_free(&dc->ends); /* moved to `keep` on success; dropped with a failed list */
    if (!dc->emulate) {
        dc_driver_destroy(dc);
        if (FAILED(dc_driver_create(dc)))
            dc->lost = TRUE; /* the next Finish reports it */
        else
            dc->lost = FALSE;
    } else {
        dc->lost = FALSE;
    }
}

/* The deferred context's 11.1 table, NULL below 11.1 (ddi11_1.c). */
static const D3D11_1DDI_DEVICEFUNCS *dc_funcs1(const struct rt_deferred *dc)
{
    return rt_device_funcs1(dc->device) ? &dc->funcs1 : NULL;
}

/* Tight layout of one subresource as the runtime lays out its own copies. */
static void tight_layout(const struct rt_resource *res, UINT sub, const D3D11_BOX *box, UINT *row_bytes, UINT *rows,
                         UINT *depth)
{
    UINT w, h, d;
    rt_subresource_dims(res, sub, &w, &h, &d);
    if (box) {
        w = box->right - box->left;
        h = box->bottom - box->top;
        d = box->back - box->front;
    }
    if (res->dimension == D3D11_RESOURCE_DIMENSION_BUFFER) {
        *row_bytes = w;
        *rows = 1;
        *depth = 1;
    } else {
        *row_bytes = wddm_format_row_bytes(res->format, w);
        *rows = wddm_format_rows(res->format, h);
        *depth = d;
    }
}

/* ---- recording entry points (copy.c calls these after its API checks) ------------------------- */
void rt_dc_copy_resource(struct rt_deferred *dc, struct rt_resource *dst, struct rt_resource *src)
{
    if (dc->lost)
        return;
    struct rt_local *d = rt_dc_use_resource(dc, dst), *s = d ? rt_dc_use_resource(dc, src) : NULL;
    if (!d || !s)
        return;
    if (dc->emulate) {
        struct rt_emu_op *op = rt_emu_add(dc, EMU_COPY);
        if (op) {
            op->a = dst;
            op->b = src;
        }
        return;
    }
    D3D10DDI_HRESOURCE hd = { d->mem }, hs = { s->mem };
    rt_dc_call_begin(dc);
    dc->funcs.pfnResourceCopy(dc->drv, hd, hs);
    (void)rt_dc_call_end(dc, "ResourceCopy");
}

void rt_dc_copy_region(struct rt_deferred *dc, struct rt_resource *dst, UINT dst_sub, UINT x, UINT y, UINT z,
                       struct rt_resource *src, UINT src_sub, const D3D11_BOX *box, UINT flags)
{
    if (dc->lost)
        return;
    struct rt_local *d = rt_dc_use_resource(dc, dst), *s = d ? rt_dc_use_resource(dc, src) : NULL;
    if (!d || !s)
        return;
    if (dc->emulate) {
        struct rt_emu_op *op = rt_emu_add(dc, EMU_COPY_REGION);
        if (op) {
            op->a = dst;
            op->b = src;
            op->dst_sub = dst_sub;
            op->src_sub = src_sub;
            op->copy_flags = flags;
            op->x = x;
            op->y = y;
            op->z = z;
            if (box) {
                op->has_box = 1;
                op->box = *box;
            }
        }
        return;
    }
    D3D10DDI_HRESOURCE hd = { d->mem }, hs = { s->mem };
    D3D10_DDI_BOX db;
    if (box) {
        db = (D3D10_DDI_BOX){ (INT)box->left, (INT)box->top, (INT)box->front, (INT)box->right, (INT)box->bottom,
                              (INT)box->back };
    }
    rt_dc_call_begin(dc);
    rt_ddi_copy_region(&dc->funcs, dc_funcs1(dc), dc->drv, hd, dst_sub, x, y, z, hs, src_sub, box ? &db : NULL,
                       flags);
    (void)rt_dc_call_end(dc, "ResourceCopyRegion");
}

void rt_dc_update(struct rt_deferred *dc, struct rt_resource *dst, UINT dst_sub, const D3D11_BOX *box,
                  const void *data, UINT row_pitch, UINT depth_pitch, UINT flags)
{
    if (dc->lost)
        return;
    struct rt_local *d = rt_dc_use_resource(dc, dst);
    if (!d)
        return;
    if (dc->emulate) {
        UINT rb, rows, depth;
        tight_layout(dst, dst_sub, box, &rb, &rows, &depth);
        UINT64 bytes = (UINT64)rb * rows * depth;
        struct rt_emu_op *op = rt_emu_add(dc, EMU_UPDATE);
        if (!op)
            return;
        op->data = bytes ? wddm_malloc(bytes) : NULL;
        if (bytes && !op->data) {
            dc->emu.count--;
            rt_dc_mark_lost(dc, E_OUTOFMEMORY, "UpdateSubresource");
            return;
        }
        /* Copy the caller's bytes now (it may reuse its memory), repacked tight. */
        for (UINT zz = 0; zz < depth; zz++)
            for (UINT yy = 0; yy < rows; yy++)
                memcpy(op->data + ((UINT64)zz * rows + yy) * rb,
                       (const BYTE *)data + (SIZE_T)zz * depth_pitch + (SIZE_T)yy * row_pitch, rb);
        op->a = dst;
        op->dst_sub = dst_sub;
        if (box) {
            op->has_box = 1;
            op->box = *box;
        }
        op->row_pitch = rb;
        op->depth_pitch = rb * rows;
        op->copy_flags = flags;
        return;
    }
    D3D10DDI_HRESOURCE hd = { d->mem };
    D3D10_DDI_BOX db;
    if (box) {
        db = (D3D10_DDI_BOX){ (INT)box->left, (INT)box->top, (INT)box->front, (INT)box->right, (INT)box->bottom,
                              (INT)box->back };
    }
    rt_dc_call_begin(dc);
    rt_ddi_update(&dc->funcs, dc_funcs1(dc), (dst->bind_flags & D3D11_BIND_CONSTANT_BUFFER) != 0, dc->drv, hd,
                  dst_sub, box ? &db : NULL, data, row_pitch, depth_pitch, flags);
    (void)rt_dc_call_end(dc, "ResourceUpdateSubresourceUP");
}

void rt_dc_clear_rtv(struct rt_deferred *dc, struct rt_rtv *rtv, const FLOAT color[4])
{
    if (dc->lost)
        return;
    struct rt_local *v = rt_dc_use_rtv(dc, rtv);
    if (!v)
        return;
    if (dc->emulate) {
        struct rt_emu_op *op = rt_emu_add(dc, EMU_CLEAR_RTV);
        if (op) {
            op->a = rtv;
            memcpy(op->color, color, sizeof op->color);
        }
        return;
    }
    FLOAT c[4] = { color[0], color[1], color[2], color[3] };
    D3D10DDI_HRENDERTARGETVIEW h = { v->mem };
    rt_dc_call_begin(dc);
    dc->funcs.pfnClearRenderTargetView(dc->drv, h, c);
    (void)rt_dc_call_end(dc, "ClearRenderTargetView");
}

void rt_dc_clear_uav(struct rt_deferred *dc, struct rt_sview *uav, const UINT values[4])
{
    if (dc->lost)
        return;
    struct rt_local *v = rt_dc_use_sview(dc, uav);
    if (!v)
        return;
    if (dc->emulate) {
        struct rt_emu_op *op = rt_emu_add(dc, EMU_CLEAR_UAV);
        if (op) {
            op->a = uav;
            memcpy(op->values, values, sizeof op->values);
        }
        return;
    }
    UINT vals[4] = { values[0], values[1], values[2], values[3] };
    D3D11DDI_HUNORDEREDACCESSVIEW h = { v->mem };
    rt_dc_call_begin(dc);
    dc->funcs.pfnClearUnorderedAccessViewUint(dc->drv, h, vals);
    (void)rt_dc_call_end(dc, "ClearUnorderedAccessViewUint");
}

/* A discard the API accepted (context1.c), recorded: replayed through the immediate context when
 * the runtime emulates the list, else handed to the driver's deferred context with the object's
 * context-local handle. Without the 11.1 DDI it ends here, as on the immediate context (an
 * emulated list would only replay it into that same end). */
void rt_dc_discard(struct rt_deferred *dc, const struct rt_discard *d)
{
    if (dc->lost || !dc_funcs1(dc))
        return;
    struct rt_local *l;
    if (d->type == D3D10DDI_HT_RESOURCE)
        l = rt_dc_use_resource(dc, d->object);
    else if (d->type == D3D10DDI_HT_RENDERTARGETVIEW)
        l = rt_dc_use_rtv(dc, d->object);
    else
        l = rt_dc_use_sview(dc, d->object);
    if (!l)
        return;
    if (dc->emulate) {
        struct rt_emu_op *op = rt_emu_add(dc, EMU_DISCARD_API);
        if (!op)
            return;
        SIZE_T bytes = (SIZE_T)d->rect_count * sizeof(D3D11_RECT);
        op->data = bytes ? wddm_malloc(bytes) : NULL;
        if (bytes && !op->data) {
            dc->emu.count--;
            rt_dc_mark_lost(dc, E_OUTOFMEMORY, "DiscardView1");
            return;
        }
        if (bytes)
            memcpy(op->data, d->rects, bytes);
        op->a = d->object;
        op->handle_type = d->type;
        op->rows = d->rect_count;
        return;
    }
    const D3D11_1DDI_DEVICEFUNCS *f1 = dc_funcs1(dc);
    if (!f1->pfnDiscard)
        return;
    rt_dc_call_begin(dc);
    f1->pfnDiscard(dc->drv, d->type, l->mem, (const D3D10_DDI_RECT *)d->rects, d->rect_count);
    (void)rt_dc_call_end(dc, "Discard");
}

/* ---- Map / Unmap on a deferred context (docs/semantics.md §5.2 "Deferred context") ---------------- */
/* The deferred Map's rules, in the order Windows checks them. */
static HRESULT deferred_map_check(struct rt_deferred *dc, const struct rt_resource *res, UINT sub, D3D11_MAP type,
                                  UINT flags, const D3D11_MAPPED_SUBRESOURCE *mapped)
{
    if (!res || res->device != dc->device) {
        RT_REFUSE("Map (deferred): pResource is NULL, not a resource, or of another device");
        return E_INVALIDARG;
    }
    if (res->usage != D3D11_USAGE_DYNAMIC || !(res->cpu_access & D3D11_CPU_ACCESS_WRITE)) {
        RT_REFUSE("Map (deferred): only USAGE_DYNAMIC resources with CPU_ACCESS_WRITE");
        return E_INVALIDARG;
    }
    if (type != D3D11_MAP_WRITE_DISCARD && type != D3D11_MAP_WRITE_NO_OVERWRITE) {
        /* Wine d3d11 tests (run on Windows), test_deferred_context_map: READ, READ_WRITE and
         * WRITE answer E_INVALIDARG on a deferred context, first map or not. */
        RT_REFUSE("Map (deferred): map type %u; a deferred context accepts only WRITE_DISCARD and WRITE_NO_OVERWRITE",
                  (UINT)type);
        return E_INVALIDARG;
    }
    if (flags) {
        RT_REFUSE("Map (deferred): MapFlags 0x%x (DO_NOT_WAIT cannot be combined with DISCARD/NO_OVERWRITE)", flags);
        return E_INVALIDARG;
    }
    if (sub >= res->subresource_count || !mapped) {
        RT_REFUSE("Map (deferred): Subresource %u out of range or pMappedResource NULL", sub);
        return E_INVALIDARG;
    }
    /* The immediate context's rule first (map.c). */
    if (type == D3D11_MAP_WRITE_NO_OVERWRITE && !rt_map_no_overwrite_allowed(dc->device, res, "Map (deferred)"))
        return E_INVALIDARG;
    struct rt_local *known = rt_local_find(dc, res);
    if (type == D3D11_MAP_WRITE_NO_OVERWRITE && (!known || !known->discarded)) {
        /* D3D11 return codes: "The first call to ID3D11DeviceContext::Map after either
         * ID3D11Device::CreateDeferredContext or ID3D11DeviceContext::FinishCommandList per
         * Resource was not D3D11_MAP_WRITE_DISCARD" (Wine test_deferred_context_map). */
        RT_REFUSE("Map (deferred): the first map of a resource in a command list must be WRITE_DISCARD "
                  "(D3D11_ERROR_DEFERRED_CONTEXT_MAP_WITHOUT_INITIAL_DISCARD)");
        return D3D11_ERROR_DEFERRED_CONTEXT_MAP_WITHOUT_INITIAL_DISCARD;
    }
    if (known && known->mapped) {
        RT_REFUSE("Map (deferred): subresource %u is already mapped in this context", known->mapped_sub);
        return E_INVALIDARG;
    }
    return S_OK;
}

/* On a context removed locally the call is accepted (the application keeps recording); it
 * writes to scratch memory that no list will ever read. */
static HRESULT deferred_map_scratch(struct rt_deferred *dc, UINT rb, UINT rows, UINT depth,
                                    D3D11_MAPPED_SUBRESOURCE *mapped)
{
    void **n = wddm_realloc(dc->scratch, (dc->scratch_count + 1) * sizeof *n);
    void *p = wddm_calloc(1, (SIZE_T)rb * rows * depth + 1);
    if (!n || !p) {
        free(p);
        if (n)
            dc->scratch = n;
        return E_OUTOFMEMORY;
    }
    dc->scratch = n;
    dc->scratch[dc->scratch_count++] = p;
    mapped->pData = p;
    mapped->RowPitch = rb;
    mapped->DepthPitch = rb * rows;
    return S_OK;
}

/* The runtime's emulated list: a DISCARD records fresh memory the replay copies in; a
 * NO_OVERWRITE hands out the same memory again. False: the context was lost meanwhile. */
static bool deferred_map_emulated(struct rt_deferred *dc, struct rt_local *l, struct rt_resource *res, UINT sub,
                                  D3D11_MAP type, UINT rb, UINT rows, UINT depth, D3D11_MAPPED_SUBRESOURCE *mapped)
{
    if (type == D3D11_MAP_WRITE_DISCARD) {
        struct rt_emu_op *op = rt_emu_add(dc, EMU_DISCARD);
        if (!op)
            return false;
        op->data = wddm_calloc(1, (SIZE_T)rb * rows * depth + 1);
        if (!op->data) {
            dc->emu.count--;
            rt_dc_mark_lost(dc, E_OUTOFMEMORY, "Map(WRITE_DISCARD)");
            return false;
        }
        op->a = res;
        op->dst_sub = sub;
        op->row_bytes = rb;
        op->rows = rows;
        op->depth = depth;
        op->row_pitch = rb;
        op->depth_pitch = rb * rows;
        l->alias = op->data;
        l->alias_row_pitch = rb;
        l->alias_depth_pitch = rb * rows;
    }
    mapped->pData = l->alias;
    mapped->RowPitch = l->alias_row_pitch;
    mapped->DepthPitch = l->alias_depth_pitch;
    return true;
}

/* The driver's command list: the dynamic-map DDI that fits the resource's binding. False: the
 * context was lost. */
static bool deferred_map_ddi(struct rt_deferred *dc, struct rt_local *l, const struct rt_resource *res, UINT sub,
                             D3D11_MAP type, D3D11_MAPPED_SUBRESOURCE *mapped)
{
    UINT ia = D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_INDEX_BUFFER;
    PFND3D10DDI_RESOURCEMAP fn;
    if (type == D3D11_MAP_WRITE_NO_OVERWRITE && res->bind_flags == D3D11_BIND_CONSTANT_BUFFER && dc_funcs1(dc) &&
        dc->funcs1.pfnDynamicConstantBufferMapNoOverwrite)
        fn = dc->funcs1.pfnDynamicConstantBufferMapNoOverwrite; /* 11.1 only (rt_map_no_overwrite_allowed) */
    else if (type == D3D11_MAP_WRITE_NO_OVERWRITE)
        fn = dc->funcs.pfnDynamicIABufferMapNoOverwrite; /* a DC's one other NO_OVERWRITE slot */
    else if (res->bind_flags && !(res->bind_flags & ~ia))
        fn = dc->funcs.pfnDynamicIABufferMapDiscard;
    else if (res->bind_flags == D3D11_BIND_CONSTANT_BUFFER)
        fn = dc->funcs.pfnDynamicConstantBufferMapDiscard;
    else
        fn = dc->funcs.pfnDynamicResourceMapDiscard;
    D3D10DDI_HRESOURCE h = { l->mem };
    D3D10DDI_MAPPED_SUBRESOURCE m = { 0 };
    rt_dc_call_begin(dc);
    fn(dc->drv, h, sub, type == D3D11_MAP_WRITE_DISCARD ? D3D10_DDI_MAP_WRITE_DISCARD : D3D10_DDI_MAP_WRITE_NOOVERWRITE,
       0, &m);
    if (!rt_dc_call_end(dc, "Map") || !m.pData)
        return false;
    mapped->pData = m.pData;
    mapped->RowPitch = m.RowPitch;
    mapped->DepthPitch = m.DepthPitch;
    return true;
}

HRESULT STDMETHODCALLTYPE rt_deferred_Map(ID3D11DeviceContext *iface, ID3D11Resource *resource, UINT sub,
                                        D3D11_MAP type, UINT flags, D3D11_MAPPED_SUBRESOURCE *mapped)
{
    struct rt_deferred *dc = rt_context_from_iface(iface)->dc;
    /* As on the immediate context (map.c): a failed Map sets pData to NULL and leaves the
     * pitches alone (Wine d3d11 tests (run on Windows), test_deferred_context_map). */
    if (mapped)
        mapped->pData = NULL;
    struct rt_resource *res = rt_resource_from_iface(resource);
    HRESULT hr = deferred_map_check(dc, res, sub, type, flags, mapped);
    if (FAILED(hr))
        return hr;
    UINT rb, rows, depth;
    tight_layout(res, sub, NULL, &rb, &rows, &depth);
    if (dc->lost)
        return deferred_map_scratch(dc, rb, rows, depth, mapped);
    struct rt_local *l = rt_dc_use_resource(dc, res);
    if (!l)
        return dc->lost ? rt_deferred_Map(iface, resource, sub, type, flags, mapped) : E_OUTOFMEMORY;
    bool ok = dc->emulate ? deferred_map_emulated(dc, l, res, sub, type, rb, rows, depth, mapped)
                          : deferred_map_ddi(dc, l, res, sub, type, mapped);
    if (!ok) /* lost meanwhile: asked again, on a lost context (scratch) */
        return rt_deferred_Map(iface, resource, sub, type, flags, mapped);
    if (type == D3D11_MAP_WRITE_DISCARD)
        l->discarded = TRUE;
    l->mapped = TRUE;
    l->mapped_sub = sub;
    return S_OK;
}

void rt_dc_unmap_entry(struct rt_deferred *dc, struct rt_local *l)
{
    struct rt_resource *res = l->obj;
    l->mapped = FALSE;
    if (dc->emulate || dc->lost || !l->created)
        return;
    UINT ia = D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_INDEX_BUFFER;
    PFND3D10DDI_RESOURCEUNMAP fn;
    if (res->bind_flags && !(res->bind_flags & ~ia))
        fn = dc->funcs.pfnDynamicIABufferUnmap;
    else if (res->bind_flags == D3D11_BIND_CONSTANT_BUFFER)
        fn = dc->funcs.pfnDynamicConstantBufferUnmap;
    else
        fn = dc->funcs.pfnDynamicResourceUnmap;
    D3D10DDI_HRESOURCE h = { l->mem };
    rt_dc_call_begin(dc);
    fn(dc->drv, h, l->mapped_sub);
    (void)rt_dc_call_end(dc, "Unmap");
}

void STDMETHODCALLTYPE rt_deferred_Unmap(ID3D11DeviceContext *iface, ID3D11Resource *resource, UINT sub)
{
    struct rt_deferred *dc = rt_context_from_iface(iface)->dc;
    struct rt_resource *res = rt_resource_from_iface(resource);
    struct rt_local *l = res ? rt_local_find(dc, res) : NULL;
    if (!l || !l->mapped || l->mapped_sub != sub) {
        if (!dc->lost)
            RT_REFUSE("Unmap (deferred): subresource %u is not mapped in this context", sub);
        return;
    }
    rt_dc_unmap_entry(dc, l);
}

struct rt_query_ends *rt_dc_query_ends(struct rt_deferred *dc)
{
    return dc->lost ? NULL : &dc->ends;
}

void STDMETHODCALLTYPE rt_context_ClearState(ID3D11DeviceContext *iface)
{
    /* No pipeline state exists in this model (no Set* methods), so there is nothing to
     * unbind; a deferred context starts "as the IC after ClearState" trivially. */
}

/* ---- the deferred context object ---------------------------------------------------------- */
static ULONG STDMETHODCALLTYPE dc_AddRef(ID3D11DeviceContext *iface)
{
    return atomic_fetch_add(&rt_context_from_iface(iface)->refs, 1) + 1;
}

static ULONG STDMETHODCALLTYPE dc_Release(ID3D11DeviceContext *iface)
{
    struct rt_deferred *dc = rt_context_from_iface(iface)->dc;
    ULONG n = atomic_fetch_sub(&dc->ctx.refs, 1) - 1;
    if (n)
        return n;
    struct rt_device *dev = dc->device;
    rt_private_clear(&dc->ctx.private_data);
    if (!dc->emulate && dc->drv_created && !dc->lost && dc->funcs.pfnAbandonCommandList)
        dc->funcs.pfnAbandonCommandList(dc->drv); /* an unfinished recording is dropped */
    rt_dc_close_handles(dc, NULL);
    dc_free_scratch(dc);
    rt_emu_free(&dc->emu);
    rt_query_ends_free(&dc->ends);
    dc_driver_destroy(dc);
    rt_dc_handles_free(dc);
    free(dc->drv_mem);
    free(dc);
    RT_LIVE_ADD(dev, RT_LIVE_CONTEXT, -1);
    rt_device_release(dev);
    return 0;
}

static void STDMETHODCALLTYPE dc_GetDevice(ID3D11DeviceContext *iface, ID3D11Device **out)
{
    if (!out)
        return;
    struct rt_device *dev = rt_context_from_iface(iface)->device;
    rt_device_addref(dev);
    *out = &dev->iface;
}

static void STDMETHODCALLTYPE dc_Flush(ID3D11DeviceContext *iface)
{
    /* Flush is an immediate-context operation (pfnFlush is excluded from a DC's table). */
}

static D3D11_DEVICE_CONTEXT_TYPE STDMETHODCALLTYPE dc_GetType(ID3D11DeviceContext *iface)
{
    return D3D11_DEVICE_CONTEXT_DEFERRED;
}

static UINT STDMETHODCALLTYPE dc_GetContextFlags(ID3D11DeviceContext *iface)
{
    return rt_context_from_iface(iface)->dc->flags;
}

/* As the immediate context's (context.c): the base vtable, then ID3D11DeviceContext1's slots. */
static const struct {
    struct ID3D11DeviceContextVtbl base;
    struct rt_own_ID3D11DeviceContext1 ext;
    RT_CONTEXT_VTBL_EXT;
} deferred_vtbl = {
    .base = {
        RT_API_STUBS_ID3D11DeviceContext, /* every slot answers "not implemented" until named below */
        .QueryInterface = rt_context_QueryInterface,
        RT_PRIVATE_DATA_SLOTS(rt_context),
        .AddRef = dc_AddRef,
        .Release = dc_Release,
        .GetDevice = dc_GetDevice,
        .Map = rt_traced_Map,
        .Unmap = rt_traced_Unmap,
        .CopySubresourceRegion = rt_traced_CopySubresourceRegion,
        .CopyResource = rt_traced_CopyResource,
        .UpdateSubresource = rt_traced_UpdateSubresource,
        .ClearRenderTargetView = rt_traced_ClearRenderTargetView,
        .Flush = dc_Flush,
        .GetType = dc_GetType,
        .ClearState = rt_context_ClearState,
        .ExecuteCommandList = rt_traced_ExecuteCommandList,
        .FinishCommandList = rt_traced_FinishCommandList,
        .GetContextFlags = dc_GetContextFlags,
        .ClearUnorderedAccessViewUint = rt_traced_ClearUnorderedAccessViewUint,
        .Begin = rt_traced_Begin,
        .End = rt_traced_End,
        .GetData = rt_traced_GetData,
    },
    .ext = { RT_API_OWN_STUBS_ID3D11DeviceContext1, RT_CONTEXT1_SLOTS },
    .ext2 = { RT_API_OWN_STUBS_ID3D11DeviceContext2 },
    .ext3 = { RT_API_OWN_STUBS_ID3D11DeviceContext3, .Flush1 = rt_context_Flush1 },
    .ext4 = { RT_API_OWN_STUBS_ID3D11DeviceContext4, RT_CONTEXT4_SLOTS },
};

HRESULT STDMETHODCALLTYPE rt_device_CreateDeferredContext(ID3D11Device *iface, UINT flags,
                                                          ID3D11DeviceContext **out)
{
    struct rt_device *dev = rt_device_from_iface(iface);
    if (out)
        *out = NULL;
    if (flags) {
        RT_REFUSE("CreateDeferredContext: ContextFlags must be 0");
        return E_INVALIDARG;
    }
    if (dev->create_flags & D3D11_CREATE_DEVICE_SINGLETHREADED) {
        /* D3D11: a single-threaded device cannot create deferred contexts. */
        RT_REFUSE("CreateDeferredContext: the device was created with D3D11_CREATE_DEVICE_SINGLETHREADED");
        return DXGI_ERROR_INVALID_CALL;
    }
    if (!out)
        return S_FALSE; /* validate only */
    if (rt_device_is_removed(dev))
        return DXGI_ERROR_DEVICE_REMOVED;
    struct rt_deferred *dc = wddm_calloc(1, sizeof *dc);
    if (!dc)
        return E_OUTOFMEMORY;
    dc->ctx.iface.lpVtbl = &deferred_vtbl.base;
    atomic_init(&dc->ctx.refs, 1);
    dc->ctx.device = dev;
    dc->ctx.dc = dc;
    dc->device = dev;
    dc->flags = flags;
    dc->emulate = !dev->drv_command_lists;
    dc->core_callbacks.pfnSetErrorCb = dc_SetErrorCb;
    rt_callbacks_not_modeled_init(NULL, NULL, NULL, &dc->core_callbacks, NULL);
    if (!dc->emulate) {
        HRESULT hr = dc_driver_create(dc);
        if (FAILED(hr)) {
            free(dc->drv_mem);
            free(dc);
            return hr;
        }
    }
    rt_device_addref(dev);
    RT_LIVE_ADD(dev, RT_LIVE_CONTEXT, 1);
    *out = &dc->ctx.iface;
    return S_OK;
}
