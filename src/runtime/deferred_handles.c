/*
 * deferred_handles.c - the context-local handle protocol of seed 004 ("Using Context-Local DDI
 * Handles"): the handle sizes polled at device creation, the per-DC table from API object to
 * context-local handle (each entry holds an API reference), the per-size handle allocator, and
 * the lazy creation of a handle on an object's first use in a deferred context.
 */
#include "runtime/deferred_internal.h"
#include "common/alloc.h"

#include <stdlib.h>

/* ---- device creation: CheckDeferredContextHandleSizes double poll --------------------------- */
void rt_deferred_device_init(struct rt_device *dev)
{
    const D3D11DDI_DEVICEFUNCS *f = &dev->funcs;
    dev->drv_command_lists = (dev->threading_caps & (D3D11DDICAPS_COMMANDLISTS | D3D11DDICAPS_COMMANDLISTS_BUILD_2)) &&
                             f->pfnCheckDeferredContextHandleSizes && f->pfnCalcDeferredContextHandleSize &&
                             f->pfnCalcPrivateDeferredContextSize && f->pfnCreateDeferredContext &&
                             f->pfnCalcPrivateCommandListSize && dev->funcs.pfnCommandListExecute;
    if (!dev->drv_command_lists)
        return;
    /* seed 004 "Device Create": first poll = how many sizes, second = the sizes. */
    UINT n = 0;
    rt_ddi_begin(dev);
    f->pfnCheckDeferredContextHandleSizes(dev->drv_device, &n, NULL);
    if (n > RT_DC_MAX_SIZES) {
        RT_REFUSE("CheckDeferredContextHandleSizes: %u sizes; the runtime keeps the first %u", n, RT_DC_MAX_SIZES);
        n = RT_DC_MAX_SIZES;
    }
    UINT m = n;
    if (n)
        f->pfnCheckDeferredContextHandleSizes(dev->drv_device, &m, dev->dc_sizes);
    (void)rt_ddi_end(dev);
    dev->dc_size_count = m < n ? m : n;
}

SIZE_T rt_deferred_handle_size_locked(struct rt_device *dev, D3D11DDI_HANDLETYPE type, void *ic_object)
{
    if (!dev->drv_command_lists)
        return 0;
    SIZE_T s = dev->funcs.pfnCalcDeferredContextHandleSize(dev->drv_device, type, ic_object);
    for (UINT i = 0; i < dev->dc_size_count; i++)
        if (dev->dc_sizes[i].HandleType == type && dev->dc_sizes[i].DriverPrivateSize == s)
            return s;
    /* seed 004: "it is undefined for the driver to ever return a value from
     * CalcDeferredContextHandleSize that was not also correspondingly returned in the
     * CheckDeferredContextHandleSizes array". The runtime stays safe (the allocator serves
     * unlisted sizes from the heap) and says so. */
    atomic_fetch_add(&dev->dc_size_violations, 1);
    wddm_debug("verifier", "UMD bug: CalcDeferredContextHandleSize returned %zu bytes for handle type %u, a size "
               "CheckDeferredContextHandleSizes never listed (undefined behaviour)", (size_t)s, (UINT)type);
    return s;
}

/* ---- the API reference an entry holds --------------------------------------------------------- */
static void local_obj_addref(void *obj, UINT type)
{
    if (type == D3D10DDI_HT_RESOURCE)
        rt_resource_addref(obj);
    else if (type == D3D10DDI_HT_RENDERTARGETVIEW)
        ID3D11RenderTargetView_AddRef(&((struct rt_rtv *)obj)->iface);
    else if (type == D3D11DDI_HT_UNORDEREDACCESSVIEW || type == D3D10DDI_HT_SHADERRESOURCEVIEW)
        atomic_fetch_add(&((struct rt_sview *)obj)->refs, 1);
    else
        ID3D11CommandList_AddRef(&((struct rt_cmdlist *)obj)->iface);
}

void rt_local_obj_release(void *obj, UINT type)
{
    if (type == D3D10DDI_HT_RESOURCE)
        rt_resource_release(obj);
    else if (type == D3D10DDI_HT_RENDERTARGETVIEW)
        ID3D11RenderTargetView_Release(&((struct rt_rtv *)obj)->iface);
    else if (type == D3D11DDI_HT_UNORDEREDACCESSVIEW)
        ID3D11UnorderedAccessView_Release((ID3D11UnorderedAccessView *)obj);
    else if (type == D3D10DDI_HT_SHADERRESOURCEVIEW)
        ID3D11ShaderResourceView_Release((ID3D11ShaderResourceView *)obj);
    else
        ID3D11CommandList_Release(&((struct rt_cmdlist *)obj)->iface);
}

/* ---- per-size handle allocator --------------------------------------------------------------- */
static INT size_class_of(const struct rt_device *dev, UINT type, SIZE_T size)
{
    for (UINT i = 0; i < dev->dc_size_count; i++)
        if (dev->dc_sizes[i].HandleType == (D3D11DDI_HANDLETYPE)type && dev->dc_sizes[i].DriverPrivateSize == size)
            return (INT)i;
    return -1;
}

static void *handle_alloc(struct rt_deferred *dc, INT cls, SIZE_T size)
{
    if (cls < 0)
        return wddm_calloc(1, size ? size : 1); /* unlisted size (verifier reported it) */
    struct rt_free_block *b = dc->free_lists[cls];
    if (b) {
        dc->free_lists[cls] = b->next;
        memset(b, 0, size);
        return b;
    }
    SIZE_T need = (size + 15) & ~(SIZE_T)15;
    if (need < sizeof(struct rt_free_block))
        need = sizeof(struct rt_free_block);
    struct rt_arena_chunk *c = dc->chunks;
    if (!c || c->used + need > c->size) {
        SIZE_T sz = need > RT_ARENA_CHUNK ? need : RT_ARENA_CHUNK;
        c = wddm_aligned_alloc(64, (sizeof *c + sz + 63) & ~(SIZE_T)63);
        if (!c)
            return NULL;
        c->used = 0;
        c->size = sz;
        c->next = dc->chunks;
        dc->chunks = c;
    }
    void *p = c->data + c->used;
    c->used += need;
    memset(p, 0, size);
    return p;
}

static void handle_free(struct rt_deferred *dc, INT cls, void *p)
{
    if (!p)
        return;
    if (cls < 0) {
        free(p);
        return;
    }
    struct rt_free_block *b = p;
    b->next = dc->free_lists[cls];
    dc->free_lists[cls] = b;
}

/* ---- local table --------------------------------------------------------------------------- */
static UINT hash_ptr(const void *p, UINT cap)
{
    uintptr_t v = (uintptr_t)p;
    v ^= v >> 17;
    v *= 0x9E3779B97F4A7C15ull;
    return (UINT)(v >> 32) & (cap - 1);
}

struct rt_local *rt_local_find(struct rt_deferred *dc, const void *obj)
{
    if (!dc->local_cap)
        return NULL;
    for (UINT i = hash_ptr(obj, dc->local_cap);; i = (i + 1) & (dc->local_cap - 1)) {
        if (dc->locals[i].obj == obj)
            return &dc->locals[i];
        if (!dc->locals[i].obj)
            return NULL;
    }
}

static BOOL local_grow(struct rt_deferred *dc)
{
    UINT cap = dc->local_cap ? dc->local_cap * 2 : 64;
    struct rt_local *n = wddm_calloc(cap, sizeof *n);
    if (!n)
        return FALSE;
    for (UINT i = 0; i < dc->local_cap; i++) {
        if (!dc->locals[i].obj)
            continue;
        UINT j = hash_ptr(dc->locals[i].obj, cap);
        while (n[j].obj)
            j = (j + 1) & (cap - 1);
        n[j] = dc->locals[i];
    }
    free(dc->locals);
    dc->locals = n;
    dc->local_cap = cap;
    return TRUE;
}

struct rt_local *rt_local_insert(struct rt_deferred *dc, void *obj, UINT type)
{
    if ((dc->local_count + 1) * 2 > dc->local_cap && !local_grow(dc))
        return NULL;
    UINT i = hash_ptr(obj, dc->local_cap);
    while (dc->locals[i].obj)
        i = (i + 1) & (dc->local_cap - 1);
    struct rt_local *l = &dc->locals[i];
    memset(l, 0, sizeof *l);
    l->obj = obj;
    l->type = type;
    l->size_class = -1;
    dc->local_count++;
    local_obj_addref(obj, type);
    return l;
}

/* ---- handle closing ------------------------------------------------------------------------ */
/* Close every context-local handle: views before their resources (seed 004 ordering), then
 * drop the references (the IC handle outlives them: it is destroyed last). If `keep` is not
 * NULL the references move to it instead of being dropped. */
void rt_dc_close_handles(struct rt_deferred *dc, struct rt_cmdlist *keep)
{
    for (int pass = 0; pass < 2; pass++) {
        for (UINT i = 0; i < dc->local_cap; i++) {
            struct rt_local *l = &dc->locals[i];
            if (!l->obj || !l->created)
                continue;
            BOOL view = l->type == D3D10DDI_HT_RENDERTARGETVIEW || l->type == D3D11DDI_HT_UNORDEREDACCESSVIEW ||
                        l->type == D3D10DDI_HT_SHADERRESOURCEVIEW;
            if ((pass == 0) != view)
                continue;
            if (l->type == D3D10DDI_HT_RENDERTARGETVIEW) {
                D3D10DDI_HRENDERTARGETVIEW h = { l->mem };
                dc->funcs.pfnDestroyRenderTargetView(dc->drv, h);
            } else if (l->type == D3D11DDI_HT_UNORDEREDACCESSVIEW) {
                D3D11DDI_HUNORDEREDACCESSVIEW h = { l->mem };
                dc->funcs.pfnDestroyUnorderedAccessView(dc->drv, h);
            } else if (l->type == D3D10DDI_HT_SHADERRESOURCEVIEW) {
                D3D10DDI_HSHADERRESOURCEVIEW h = { l->mem };
                dc->funcs.pfnDestroyShaderResourceView(dc->drv, h);
            } else if (l->type == D3D10DDI_HT_RESOURCE) {
                D3D10DDI_HRESOURCE h = { l->mem };
                dc->funcs.pfnDestroyResource(dc->drv, h);
            }
            l->created = FALSE;
        }
    }
    UINT n = 0;
    for (UINT i = 0; i < dc->local_cap; i++) {
        struct rt_local *l = &dc->locals[i];
        if (!l->obj)
            continue;
        handle_free(dc, l->size_class, l->mem);
        l->mem = NULL;
        if (keep) {
            keep->objs[n++] = *l;
        } else {
            rt_local_obj_release(l->obj, l->type);
        }
        l->obj = NULL;
    }
    if (keep)
        keep->obj_count = n;
    dc->local_count = 0;
}

void rt_dc_handles_free(struct rt_deferred *dc)
{
    for (struct rt_arena_chunk *c = dc->chunks; c;) {
        struct rt_arena_chunk *next = c->next;
        free(c);
        c = next;
    }
    free(dc->locals);
}

/* ---- lazy creation of context-local handles (seed 004) --------------------------------------- */
/* The steps every context-local handle shares: its table entry and, when the driver records the
 * list, its handle memory (the caller then asks the driver's Create into l->mem; an emulated
 * list needs only the entry, which holds the object). NULL: the context was lost. */
static struct rt_local *local_open(struct rt_deferred *dc, void *obj, D3D11DDI_HANDLETYPE type, SIZE_T size)
{
    struct rt_local *l = rt_local_insert(dc, obj, type);
    if (!l) {
        rt_dc_mark_lost(dc, E_OUTOFMEMORY, "context-local handle table");
        return NULL;
    }
    if (dc->emulate)
        return l;
    l->size_class = size_class_of(dc->device, type, size);
    l->mem = handle_alloc(dc, l->size_class, size);
    if (!l->mem) {
        rt_dc_mark_lost(dc, E_OUTOFMEMORY, "context-local handle memory");
        return NULL;
    }
    return l;
}

struct rt_local *rt_dc_use_resource(struct rt_deferred *dc, struct rt_resource *res)
{
    struct rt_local *l = rt_local_find(dc, res);
    if (l)
        return l;
    l = local_open(dc, res, D3D10DDI_HT_RESOURCE, res->dc_handle_size);
    if (!l || dc->emulate)
        return l;
    /* seed 004 "Deferred Context Resource Usage": DC::pfnCreateResource(hDC, NULL, pDCRHandle, pICRHandle). */
    D3D10DDI_HRESOURCE h = { l->mem };
    D3D10DDI_HRTRESOURCE ic = { res->drv.pDrvPrivate };
    rt_dc_call_begin(dc);
    dc->funcs.pfnCreateResource(dc->drv, NULL, h, ic);
    if (!rt_dc_call_end(dc, "CreateResource (context-local handle)"))
        return NULL; /* dead handle: no destroy follows (docs/semantics.md §4.2) */
    l->created = TRUE;
    return l;
}

struct rt_local *rt_dc_use_rtv(struct rt_deferred *dc, struct rt_rtv *rtv)
{
    struct rt_local *l = rt_local_find(dc, rtv);
    if (l)
        return l;
    /* The dependency first: the resource's context-local handle exists before the view's. */
    struct rt_local *rl = rt_dc_use_resource(dc, rtv->resource);
    if (!rl)
        return NULL;
    void *res_mem = rl->mem;
    l = local_open(dc, rtv, D3D10DDI_HT_RENDERTARGETVIEW, rtv->dc_handle_size);
    if (!l || dc->emulate)
        return l;
    /* Dependency-only description: hDrvResource is the context-local resource handle, the rest zero. */
    D3D10DDIARG_CREATERENDERTARGETVIEW args;
    memset(&args, 0, sizeof args);
    args.hDrvResource.pDrvPrivate = res_mem;
    D3D10DDI_HRENDERTARGETVIEW h = { l->mem };
    D3D10DDI_HRTRENDERTARGETVIEW ic = { rtv->drv.pDrvPrivate };
    rt_dc_call_begin(dc);
    dc->funcs.pfnCreateRenderTargetView(dc->drv, &args, h, ic);
    if (!rt_dc_call_end(dc, "CreateRenderTargetView (context-local handle)"))
        return NULL;
    l->created = TRUE;
    return l;
}

/* A shader-resource or unordered-access view's context-local handle. */
struct rt_local *rt_dc_use_sview(struct rt_deferred *dc, struct rt_sview *v)
{
    struct rt_local *l = rt_local_find(dc, v);
    if (l)
        return l;
    struct rt_local *rl = rt_dc_use_resource(dc, v->resource); /* dependency first (seed 004) */
    if (!rl)
        return NULL;
    void *res_mem = rl->mem;
    D3D11DDI_HANDLETYPE type = v->is_uav ? D3D11DDI_HT_UNORDEREDACCESSVIEW : D3D10DDI_HT_SHADERRESOURCEVIEW;
    l = local_open(dc, v, type, v->dc_handle_size);
    if (!l || dc->emulate)
        return l;
    rt_dc_call_begin(dc); /* dependency-only descriptions: hDrvResource, the rest zero */
    if (v->is_uav) {
        D3D11DDIARG_CREATEUNORDEREDACCESSVIEW args;
        memset(&args, 0, sizeof args);
        args.hDrvResource.pDrvPrivate = res_mem;
        D3D11DDI_HUNORDEREDACCESSVIEW h = { l->mem };
        D3D11DDI_HRTUNORDEREDACCESSVIEW ic = { v->drv };
        dc->funcs.pfnCreateUnorderedAccessView(dc->drv, &args, h, ic);
    } else {
        D3D11DDIARG_CREATESHADERRESOURCEVIEW args;
        memset(&args, 0, sizeof args);
        args.hDrvResource.pDrvPrivate = res_mem;
        D3D10DDI_HSHADERRESOURCEVIEW h = { l->mem };
        D3D10DDI_HRTSHADERRESOURCEVIEW ic = { v->drv };
        dc->funcs.pfnCreateShaderResourceView(dc->drv, &args, h, ic);
    }
    if (!rt_dc_call_end(dc, v->is_uav ? "CreateUnorderedAccessView (context-local handle)"
                                   : "CreateShaderResourceView (context-local handle)"))
        return NULL;
    l->created = TRUE;
    return l;
}
