/* deferred.c - deferred contexts, context-local handles and command lists in the reference
 * UMD (docs/semantics.md §4.5, seed 004).
 *
 * Recording: a deferred context (DC) records its calls into a CPU list of ops (struct
 * umd_rec) naming the immediate-context (IC) driver handles; CommandListExecute replays the
 * ops on the IC through the IC's own DDI functions, so a list does on the GPU exactly what the
 * same calls made on the IC do (byte-identical results, tests/e2e/test_deferred_lists.c).
 *
 * Map(WRITE_DISCARD) on a DC (docs/semantics.md §4.5 rule 5): the DC gets a CPU alias owned by
 * the list; the op replays as "IC Map(WRITE_DISCARD) + copy alias + Unmap", so every
 * execution renames the resource afresh and uploads the same bytes: renaming happens per
 * execution, not per recording (the hard case). NO_OVERWRITE after a DISCARD in the
 * same list returns the same alias: the application promised not to touch bytes in use, so
 * uploading the final alias once at the DISCARD point gives the same results.
 *
 * Threading: one thread per DC (the D3D11 rule); a DC only writes its own handle memory and
 * list, and reads the IC objects' read-only blocks (umd_resource_ro), which never change after
 * CreateResource. The IC is entered only by CommandListExecute (runtime's device lock).
 */
#include "umd/umd.h"
#include "common/alloc.h"
#include "umd/deferred.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

int wddm_umd_command_lists_enabled(void)
{
    const char *e = getenv("WDDM_UMD_NO_COMMANDLISTS");
    return !(e && e[0] == '1');
}

/* ---- ops --------------------------------------------------------------------------------------- */
enum umd_op_type {
    OP_COPY = 1, OP_COPY_REGION, OP_UPDATE, OP_CLEAR_RTV, OP_DISCARD_UPLOAD, OP_EXECUTE, OP_CLEAR_UAV,
    OP_DISCARD, /* Discard(D3D11_1) */
    OP_TYPE_COUNT
};

struct umd_op {
    UINT type;
    UINT size;                      /* bytes of this op including trailing data, 8-aligned */
    void *a, *b;                    /* IC handles: dst/src resource, rtv, or nested list */
    UINT dst_sub, src_sub, x, y, z, has_box;
    D3D10_DDI_BOX box;
    UINT row_pitch, depth_pitch;    /* UPDATE: source pitches; DISCARD: alias pitches */
    FLOAT color[4];
    UINT values[4];                 /* CLEAR_UAV */
    BYTE *alias;                    /* DISCARD_UPLOAD: the list's alias (owned by the list) */
    UINT alias_size;
    UINT data_size;                 /* UPDATE: bytes following the op */
    UINT copy_flags;                /* COPY_REGION, UPDATE: D3D11_1_DDI_COPY_FLAGS (0 through 11.0) */
    D3D11DDI_HANDLETYPE handle_type; /* DISCARD: what a names */
};

/* Aliases are separate blocks so pointers stay valid while the op array grows. */
struct umd_alias {
    struct umd_alias *next;
    BYTE data[];
};

/* ---- structures in runtime-allocated handle memory ----------------------------------------- */
#define UMD_DC_MAGIC 0x55444343u /* "UDCC" */

struct umd_dc {
    UINT magic;
    struct umd_device *ic;                  /* the immediate context; read-only after creation */
    D3D10DDI_HRTCORELAYER hRTCoreLayer;     /* this DC's own: errors go to this context (seed 004) */
    PFND3D10DDI_SETERROR_CB pfnSetErrorCb;
    struct umd_rec rec;                     /* the list being recorded; only this DC's thread */
};

/* DC-local resource handle: per-context data only (seed 004). */
struct umd_dc_resource {
    struct umd_resource *ic;                /* IC handle (read-only link) */
    const struct umd_resource_ro *ro;       /* read-only block after the IC handle data */
    UINT64 uses;                            /* commands this context recorded naming it */
    BYTE *alias;                            /* last discard alias in the list being recorded */
    UINT alias_sub;
    UINT alias_row_pitch, alias_depth_pitch;
};

/* DC-local view handle (render-target, shader-resource and unordered-access views alike). */
struct umd_dc_view {
    struct umd_rtv *ic;
    struct umd_dc_resource *resource;       /* the DC-local resource handle (dependency) */
    UINT64 uses;
};

struct umd_cmdlist {
    struct umd_rec rec;                     /* moved from the DC by CreateCommandList */
};

/* ---- recording helpers ------------------------------------------------------------------- */
static void rec_free(struct umd_rec *r)
{
    free(r->ops);
    for (struct umd_alias *a = r->aliases; a;) {
        struct umd_alias *n = a->next;
        free(a);
        a = n;
    }
    memset(r, 0, sizeof *r);
}

static void dc_oom(struct umd_dc *dc, const char *what)
{
    /* seed 004 "Issues with pfnSetErrorCb": a DC may report E_OUTOFMEMORY from any call; the
     * runtime then drops the partial list. */
    UMD_REFUSE("%s on a deferred context: out of memory", what);
    if (dc->pfnSetErrorCb)
        dc->pfnSetErrorCb(dc->hRTCoreLayer, E_OUTOFMEMORY);
}

static struct umd_op *rec_op(struct umd_dc *dc, UINT type, UINT extra, const char *what)
{
    struct umd_rec *r = &dc->rec;
    SIZE_T size = (sizeof(struct umd_op) + (SIZE_T)extra + 7) & ~(SIZE_T)7;
    if (r->used + size > r->cap) {
        SIZE_T cap = r->cap ? r->cap : 4096;
        while (cap < r->used + size)
            cap *= 2;
        BYTE *n = wddm_realloc(r->ops, cap);
        if (!n) {
            dc_oom(dc, what);
            return NULL;
        }
        r->ops = n;
        r->cap = cap;
    }
    struct umd_op *op = (struct umd_op *)(r->ops + r->used);
    memset(op, 0, sizeof *op);
    op->type = type;
    op->size = (UINT)size;
    r->used += size;
    r->count++;
    return op;
}

static inline struct umd_dc *umd_dc(D3D10DDI_HDEVICE h) { return (struct umd_dc *)h.pDrvPrivate; }
static inline struct umd_dc_resource *dc_res(D3D10DDI_HRESOURCE h) { return h.pDrvPrivate; }

/* ---- IC-side size queries (docs/semantics.md §4.5 rule 1) ------------------------------------- */
/* One size per handle type: resources vary only in their IC data, the DC data is fixed. */
static const D3D11DDI_HANDLESIZE umd_handle_sizes[] = {
    { D3D10DDI_HT_RESOURCE, sizeof(struct umd_dc_resource) },
    { D3D10DDI_HT_RENDERTARGETVIEW, sizeof(struct umd_dc_view) },
    { D3D10DDI_HT_SHADERRESOURCEVIEW, sizeof(struct umd_dc_view) },
    { D3D11DDI_HT_UNORDEREDACCESSVIEW, sizeof(struct umd_dc_view) },
    { D3D11DDI_HT_COMMANDLIST, sizeof(struct umd_cmdlist) },
};

VOID APIENTRY umd_CheckDeferredContextHandleSizes(D3D10DDI_HDEVICE hDevice, UINT *pHSizes,
                                                         D3D11DDI_HANDLESIZE *pHandleSize)
{
    UINT n = (UINT)(sizeof umd_handle_sizes / sizeof umd_handle_sizes[0]);
    if (!pHSizes)
        return;
    if (pHandleSize) {
        UINT m = *pHSizes < n ? *pHSizes : n;
        memcpy(pHandleSize, umd_handle_sizes, m * sizeof *pHandleSize);
    }
    *pHSizes = n;
}

SIZE_T APIENTRY umd_CalcDeferredContextHandleSize(D3D10DDI_HDEVICE hDevice, D3D11DDI_HANDLETYPE type,
                                                         VOID *pICObject)
{
    switch (type) {
    case D3D10DDI_HT_RESOURCE: return sizeof(struct umd_dc_resource);
    case D3D10DDI_HT_RENDERTARGETVIEW:
    case D3D10DDI_HT_SHADERRESOURCEVIEW:
    case D3D11DDI_HT_UNORDEREDACCESSVIEW: return sizeof(struct umd_dc_view);
    default: return 0;
    }
}

SIZE_T APIENTRY umd_CalcPrivateDeferredContextSize(D3D10DDI_HDEVICE hDevice,
                                                          const D3D11DDIARG_CALCPRIVATEDEFERREDCONTEXTSIZE *a)
{
    return sizeof(struct umd_dc);
}

SIZE_T APIENTRY umd_CalcPrivateCommandListSize(D3D10DDI_HDEVICE hDevice, const D3D11DDIARG_CREATECOMMANDLIST *a)
{
    return sizeof(struct umd_cmdlist);
}

/* ---- DC object functions: context-local handles (seed 004 "Using Context-Local DDI Handles") */
static VOID APIENTRY dc_CreateResource(D3D10DDI_HDEVICE hDevice, const D3D11DDIARG_CREATERESOURCE *args,
                                       D3D10DDI_HRESOURCE hRes, D3D10DDI_HRTRESOURCE hRT)
{
    /* args is NULL (no dependency) and hRT is the IC driver handle (docs/semantics.md §4.5 rule 2). */
    struct umd_dc *dc = umd_dc(hDevice);
    struct umd_dc_resource *r = hRes.pDrvPrivate;
    memset(r, 0, sizeof *r);
    r->ic = hRT.handle;
    r->ro = r->ic ? umd_resource_ro(r->ic) : NULL;
    if (args || !r->ic) {
        UMD_REFUSE("CreateResource on a deferred context: needs a NULL description and the IC handle");
        if (dc->pfnSetErrorCb)
            dc->pfnSetErrorCb(dc->hRTCoreLayer, E_INVALIDARG);
        return;
    }
}

static VOID APIENTRY dc_DestroyResource(D3D10DDI_HDEVICE hDevice, D3D10DDI_HRESOURCE hRes)
{
    memset(hRes.pDrvPrivate, 0, sizeof(struct umd_dc_resource));
}

static VOID APIENTRY dc_CreateRenderTargetView(D3D10DDI_HDEVICE hDevice, const D3D10DDIARG_CREATERENDERTARGETVIEW *args,
                                               D3D10DDI_HRENDERTARGETVIEW hView, D3D10DDI_HRTRENDERTARGETVIEW hRT)
{
    /* Dependency-only description: only hDrvResource (the DC-local resource handle) is valid. */
    struct umd_dc *dc = umd_dc(hDevice);
    struct umd_dc_view *v = hView.pDrvPrivate;
    memset(v, 0, sizeof *v);
    v->ic = hRT.handle;
    v->resource = args ? dc_res(args->hDrvResource) : NULL;
    if (!v->ic || !v->resource || !v->resource->ic || v->resource->ic != v->ic->resource || args->Format ||
        args->ResourceDimension) {
        UMD_REFUSE("CreateRenderTargetView on a deferred context: needs a dependency-only description naming "
                   "this context's handle of the view's resource");
        if (dc->pfnSetErrorCb)
            dc->pfnSetErrorCb(dc->hRTCoreLayer, E_INVALIDARG);
        return;
    }
}

static VOID APIENTRY dc_DestroyRenderTargetView(D3D10DDI_HDEVICE hDevice, D3D10DDI_HRENDERTARGETVIEW hView)
{
    memset(hView.pDrvPrivate, 0, sizeof(struct umd_dc_view));
}

/* Dependency-only view creation shared by SRVs and UAVs: only the DC resource handle is valid. */
static void dc_open_view(struct umd_dc *dc, struct umd_dc_view *v, void *ic_view, D3D10DDI_HRESOURCE dep,
                         const void *rest, SIZE_T rest_size, const char *what)
{
    memset(v, 0, sizeof *v);
    v->ic = ic_view;
    v->resource = dc_res(dep);
    BOOL zero = TRUE;
    for (SIZE_T i = 0; i < rest_size; i++)
        zero &= ((const BYTE *)rest)[i] == 0;
    if (!v->ic || !v->resource || !v->resource->ic || v->resource->ic != v->ic->resource || !zero) {
        UMD_REFUSE("%s on a deferred context: needs a dependency-only description naming this context's handle "
                   "of the view's resource", what);
        if (dc->pfnSetErrorCb)
            dc->pfnSetErrorCb(dc->hRTCoreLayer, E_INVALIDARG);
        return;
    }
}

static VOID APIENTRY dc_CreateShaderResourceView(D3D10DDI_HDEVICE hDevice, const D3D11DDIARG_CREATESHADERRESOURCEVIEW *a,
                                                 D3D10DDI_HSHADERRESOURCEVIEW hView, D3D10DDI_HRTSHADERRESOURCEVIEW hRT)
{
    D3D11DDIARG_CREATESHADERRESOURCEVIEW z;
    memset(&z, 0, sizeof z);
    if (a) {
        z = *a;
        z.hDrvResource.pDrvPrivate = NULL;
    }
    dc_open_view(umd_dc(hDevice), hView.pDrvPrivate, hRT.handle, a ? a->hDrvResource : (D3D10DDI_HRESOURCE){ 0 }, &z,
                 sizeof z, "CreateShaderResourceView");
}

static VOID APIENTRY dc_CreateUnorderedAccessView(D3D10DDI_HDEVICE hDevice, const D3D11DDIARG_CREATEUNORDEREDACCESSVIEW *a,
                                                  D3D11DDI_HUNORDEREDACCESSVIEW hView, D3D11DDI_HRTUNORDEREDACCESSVIEW hRT)
{
    D3D11DDIARG_CREATEUNORDEREDACCESSVIEW z;
    memset(&z, 0, sizeof z);
    if (a) {
        z = *a;
        z.hDrvResource.pDrvPrivate = NULL;
    }
    dc_open_view(umd_dc(hDevice), hView.pDrvPrivate, hRT.handle, a ? a->hDrvResource : (D3D10DDI_HRESOURCE){ 0 }, &z,
                 sizeof z, "CreateUnorderedAccessView");
}

static VOID APIENTRY dc_DestroyShaderResourceView(D3D10DDI_HDEVICE hDevice, D3D10DDI_HSHADERRESOURCEVIEW hView)
{
    memset(hView.pDrvPrivate, 0, sizeof(struct umd_dc_view));
}

static VOID APIENTRY dc_DestroyUnorderedAccessView(D3D10DDI_HDEVICE hDevice, D3D11DDI_HUNORDEREDACCESSVIEW hView)
{
    memset(hView.pDrvPrivate, 0, sizeof(struct umd_dc_view));
}

/* ---- DC recording functions ---------------------------------------------------------------- */
static VOID APIENTRY dc_ResourceCopy(D3D10DDI_HDEVICE hDevice, D3D10DDI_HRESOURCE hDst, D3D10DDI_HRESOURCE hSrc)
{
    struct umd_dc_resource *d = dc_res(hDst), *s = dc_res(hSrc);
    struct umd_op *op = rec_op(umd_dc(hDevice), OP_COPY, 0, "ResourceCopy");
    if (!op)
        return;
    op->a = d->ic;
    op->b = s->ic;
    d->uses++;
    s->uses++;
}

static VOID APIENTRY dc_ResourceCopyRegion11_1(D3D10DDI_HDEVICE hDevice, D3D10DDI_HRESOURCE hDst, UINT DstSub,
                                               UINT x, UINT y, UINT z, D3D10DDI_HRESOURCE hSrc, UINT SrcSub,
                                               const D3D10_DDI_BOX *box, UINT flags)
{
    struct umd_dc_resource *d = dc_res(hDst), *s = dc_res(hSrc);
    struct umd_op *op = rec_op(umd_dc(hDevice), OP_COPY_REGION, 0, "ResourceCopyRegion");
    if (!op)
        return;
    op->copy_flags = flags;
    op->a = d->ic;
    op->b = s->ic;
    op->dst_sub = DstSub;
    op->src_sub = SrcSub;
    op->x = x;
    op->y = y;
    op->z = z;
    if (box) {
        op->has_box = 1;
        op->box = *box;
    }
    d->uses++;
    s->uses++;
}

static VOID APIENTRY dc_ResourceCopyRegion(D3D10DDI_HDEVICE hDevice, D3D10DDI_HRESOURCE hDst, UINT DstSub, UINT x,
                                           UINT y, UINT z, D3D10DDI_HRESOURCE hSrc, UINT SrcSub,
                                           const D3D10_DDI_BOX *box)
{
    dc_ResourceCopyRegion11_1(hDevice, hDst, DstSub, x, y, z, hSrc, SrcSub, box, 0);
}

static VOID APIENTRY dc_ResourceUpdateSubresourceUP11_1(D3D10DDI_HDEVICE hDevice, D3D10DDI_HRESOURCE hDst, UINT sub,
                                                        const D3D10_DDI_BOX *box, const VOID *data, UINT rp, UINT dp,
                                                        UINT flags)
{
    struct umd_dc *dc = umd_dc(hDevice);
    struct umd_dc_resource *d = dc_res(hDst);
    const struct umd_resource_ro *ro = d->ro;
    if (sub >= ro->subresource_count)
        return;
    /* The source bytes the update reads: rows x slices of the box (or the subresource) at the
     * caller's pitches; copied into the list now (the caller may reuse its memory). */
    const struct umd_subresource *sr = &ro->sub[sub];
    UINT64 w = sr->width, h = sr->height, dd = sr->depth;
    if (box) {
        w = box->right > box->left ? (UINT64)(box->right - box->left) : 0;
        h = box->bottom > box->top ? (UINT64)(box->bottom - box->top) : 0;
        dd = box->back > box->front ? (UINT64)(box->back - box->front) : 0;
    }
    UINT64 row_bytes = (ro->dimension == D3D10DDIRESOURCE_BUFFER || ro->dimension == D3D11DDIRESOURCE_BUFFEREX)
                           ? w
                           : (w + ro->block_width - 1) / ro->block_width * ro->bytes_per_elem;
    UINT64 rows = (h + ro->block_height - 1) / ro->block_height;
    UINT64 bytes = 0;
    if (row_bytes && rows && dd)
        bytes = (dd - 1) * (UINT64)dp + (rows - 1) * (UINT64)rp + row_bytes;
    if (bytes > 0x40000000ull) {
        dc_oom(dc, "ResourceUpdateSubresourceUP");
        return;
    }
    struct umd_op *op = rec_op(dc, OP_UPDATE, (UINT)bytes, "ResourceUpdateSubresourceUP");
    if (!op)
        return;
    op->a = d->ic;
    op->copy_flags = flags;
    op->dst_sub = sub;
    if (box) {
        op->has_box = 1;
        op->box = *box;
    }
    op->row_pitch = rp;
    op->depth_pitch = dp;
    op->data_size = (UINT)bytes;
    if (bytes)
        memcpy(op + 1, data, (SIZE_T)bytes);
    d->uses++;
}

static VOID APIENTRY dc_ResourceUpdateSubresourceUP(D3D10DDI_HDEVICE hDevice, D3D10DDI_HRESOURCE hDst, UINT sub,
                                                    const D3D10_DDI_BOX *box, const VOID *data, UINT rp, UINT dp)
{
    dc_ResourceUpdateSubresourceUP11_1(hDevice, hDst, sub, box, data, rp, dp, 0);
}

/* Discard(D3D11_1) on a deferred context: recorded with the immediate context's handle of the
 * resource or view, replayed on execution (ddi11_1.c says what the discard does). Rectangles
 * are not kept: the immediate discard ignores them too. */
static VOID APIENTRY dc_Discard(D3D10DDI_HDEVICE hDevice, D3D11DDI_HANDLETYPE type, VOID *h,
                                const D3D10_DDI_RECT *rects, UINT count)
{
    struct umd_dc *dc = umd_dc(hDevice);
    if (!umd_discard_args_valid(type, h, rects, count)) {
        if (dc->pfnSetErrorCb)
            dc->pfnSetErrorCb(dc->hRTCoreLayer, E_INVALIDARG);
        return;
    }
    struct umd_op *op = rec_op(dc, OP_DISCARD, 0, "Discard");
    if (!op)
        return;
    op->handle_type = type;
    if (type == D3D10DDI_HT_RESOURCE) {
        struct umd_dc_resource *r = h;
        op->a = r->ic;
        r->uses++;
    } else {
        struct umd_dc_view *v = h;
        op->a = v->ic;
        v->uses++;
    }
}

static VOID APIENTRY dc_ClearRenderTargetView(D3D10DDI_HDEVICE hDevice, D3D10DDI_HRENDERTARGETVIEW hView,
                                              FLOAT rgba[4])
{
    struct umd_dc_view *v = hView.pDrvPrivate;
    struct umd_op *op = rec_op(umd_dc(hDevice), OP_CLEAR_RTV, 0, "ClearRenderTargetView");
    if (!op)
        return;
    op->a = v->ic;
    memcpy(op->color, rgba, sizeof op->color);
    v->uses++;
}

static VOID APIENTRY dc_ClearUnorderedAccessViewUint(D3D10DDI_HDEVICE hDevice, D3D11DDI_HUNORDEREDACCESSVIEW hView,
                                                      const UINT values[4])
{
    struct umd_dc_view *v = hView.pDrvPrivate;
    struct umd_op *op = rec_op(umd_dc(hDevice), OP_CLEAR_UAV, 0, "ClearUnorderedAccessViewUint");
    if (!op)
        return;
    op->a = v->ic;
    memcpy(op->values, values, sizeof op->values);
    v->uses++;
}

static void dc_map_fail(D3D10DDI_MAPPED_SUBRESOURCE *m)
{
    if (m)
        memset(m, 0, sizeof *m);
}

/* Every DC map slot (pfnDynamic*Map{Discard,NoOverwrite}): docs/semantics.md §4.5 rule 5. */
static VOID APIENTRY dc_DynamicMap(D3D10DDI_HDEVICE hDevice, D3D10DDI_HRESOURCE hRes, UINT sub, D3D10_DDI_MAP type,
                                   UINT flags, D3D10DDI_MAPPED_SUBRESOURCE *out)
{
    struct umd_dc *dc = umd_dc(hDevice);
    struct umd_dc_resource *r = dc_res(hRes);
    const struct umd_resource_ro *ro = r->ro;
    if (!out || sub >= ro->subresource_count || ro->usage != D3D10_DDI_USAGE_DYNAMIC ||
        (type != D3D10_DDI_MAP_WRITE_DISCARD && type != D3D10_DDI_MAP_WRITE_NOOVERWRITE) ||
        (type == D3D10_DDI_MAP_WRITE_NOOVERWRITE && (!r->alias || r->alias_sub != sub))) {
        UMD_REFUSE("Map on a deferred context: only DISCARD (then NO_OVERWRITE) of a DYNAMIC resource");
        dc_map_fail(out);
        if (dc->pfnSetErrorCb)
            dc->pfnSetErrorCb(dc->hRTCoreLayer, E_INVALIDARG);
        return;
    }
    const struct umd_subresource *sr = &ro->sub[sub];
    if (type == D3D10_DDI_MAP_WRITE_NOOVERWRITE) {
        out->pData = r->alias;
        out->RowPitch = r->alias_row_pitch;
        out->DepthPitch = r->alias_depth_pitch;
        return;
    }
    /* DISCARD: a fresh alias of the subresource's size, uploaded on each execution. */
    UINT size = sr->depth_pitch * sr->depth;
    struct umd_op *op = rec_op(dc, OP_DISCARD_UPLOAD, 0, "Map(WRITE_DISCARD)");
    if (!op) {
        dc_map_fail(out);
        return;
    }
    struct umd_alias *a = wddm_malloc(sizeof *a + (size ? size : 1));
    if (!a) {
        dc->rec.used -= op->size; /* drop the op just added */
        dc->rec.count--;
        dc_map_fail(out);
        dc_oom(dc, "Map(WRITE_DISCARD)");
        return;
    }
    memset(a->data, 0, size);
    a->next = dc->rec.aliases;
    dc->rec.aliases = a;
    op->a = r->ic;
    op->dst_sub = sub;
    op->alias = a->data;
    op->alias_size = size;
    op->row_pitch = sr->row_pitch;
    op->depth_pitch = sr->depth_pitch;
    r->alias = a->data;
    r->alias_sub = sub;
    r->alias_row_pitch = sr->row_pitch;
    r->alias_depth_pitch = sr->depth_pitch;
    r->uses++;
    out->pData = a->data;
    out->RowPitch = sr->row_pitch;
    out->DepthPitch = sr->depth_pitch;
}

static VOID APIENTRY dc_DynamicUnmap(D3D10DDI_HDEVICE hDevice, D3D10DDI_HRESOURCE hRes, UINT sub)
{
    /* Nothing to do: the alias is read at execution time. */
}

static VOID APIENTRY dc_CommandListExecute(D3D10DDI_HDEVICE hDevice, D3D11DDI_HCOMMANDLIST hList)
{
    /* A list executed from a deferred context: recorded as a nested execution. */
    struct umd_op *op = rec_op(umd_dc(hDevice), OP_EXECUTE, 0, "CommandListExecute");
    if (op)
        op->a = hList.pDrvPrivate;
}

/* ---- DC lifetime ----------------------------------------------------------------------------- */
static VOID APIENTRY dc_AbandonCommandList(D3D10DDI_HDEVICE hDevice)
{
    rec_free(&umd_dc(hDevice)->rec);
}

static VOID APIENTRY dc_DestroyDevice(D3D10DDI_HDEVICE hDevice)
{
    struct umd_dc *dc = umd_dc(hDevice);
    rec_free(&dc->rec);
    dc->magic = 0;
}

static VOID APIENTRY dc_CreateCommandList(D3D10DDI_HDEVICE hDevice, const D3D11DDIARG_CREATECOMMANDLIST *args,
                                          D3D11DDI_HCOMMANDLIST hList, D3D11DDI_HRTCOMMANDLIST hRT)
{
    struct umd_dc *dc = umd_dc(hDevice);
    struct umd_cmdlist *cl = hList.pDrvPrivate;
    memset(cl, 0, sizeof *cl);
    cl->rec = dc->rec; /* the list takes the ops and aliases; the DC starts empty */
    memset(&dc->rec, 0, sizeof dc->rec);
}

VOID APIENTRY umd_DestroyCommandList(D3D10DDI_HDEVICE hDevice, D3D11DDI_HCOMMANDLIST hList)
{
    rec_free(&((struct umd_cmdlist *)hList.pDrvPrivate)->rec);
}

/* ---- execution on the immediate context: one handler per op type ---------------------------- */
static void ic_execute(D3D10DDI_HDEVICE hIC, const struct umd_cmdlist *cl, UINT depth);

static void ic_copy(D3D10DDI_HDEVICE hIC, const struct umd_op *op, UINT depth)
{
    D3D10DDI_HRESOURCE a = { op->a }, b = { op->b };
    umd_ResourceCopy(hIC, a, b);
}

static void ic_copy_region(D3D10DDI_HDEVICE hIC, const struct umd_op *op, UINT depth)
{
    D3D10DDI_HRESOURCE a = { op->a }, b = { op->b };
    umd_ResourceCopyRegion11_1(hIC, a, op->dst_sub, op->x, op->y, op->z, b, op->src_sub,
                               op->has_box ? &op->box : NULL, op->copy_flags);
}

static void ic_update(D3D10DDI_HDEVICE hIC, const struct umd_op *op, UINT depth)
{
    D3D10DDI_HRESOURCE a = { op->a };
    umd_ResourceUpdateSubresourceUP11_1(hIC, a, op->dst_sub, op->has_box ? &op->box : NULL, op + 1, op->row_pitch,
                                        op->depth_pitch, op->copy_flags);
}

static void ic_discard(D3D10DDI_HDEVICE hIC, const struct umd_op *op, UINT depth)
{
    umd_Discard(hIC, op->handle_type, op->a, NULL, 0);
}

static void ic_clear_rtv(D3D10DDI_HDEVICE hIC, const struct umd_op *op, UINT depth)
{
    D3D10DDI_HRENDERTARGETVIEW v = { op->a };
    FLOAT c[4];
    memcpy(c, op->color, sizeof c);
    umd_ClearRenderTargetView(hIC, v, c);
}

/* Rename now, on this execution (the hard case): fresh backing every time. */
static void ic_discard_upload(D3D10DDI_HDEVICE hIC, const struct umd_op *op, UINT depth)
{
    D3D10DDI_HRESOURCE a = { op->a };
    D3D10DDI_MAPPED_SUBRESOURCE m = { 0 };
    umd_ResourceMap(hIC, a, op->dst_sub, D3D10_DDI_MAP_WRITE_DISCARD, 0, &m);
    if (!m.pData)
        return; /* the IC map reported its error through the IC's pfnSetErrorCb */
    if (m.RowPitch == op->row_pitch && m.DepthPitch == op->depth_pitch) {
        memcpy(m.pData, op->alias, op->alias_size);
    } else {
        const struct umd_subresource *sr = &umd_resource(a)->sub[op->dst_sub];
        for (UINT z = 0; z < sr->depth; z++)
            for (UINT y = 0; y < sr->rows; y++)
                memcpy((BYTE *)m.pData + (SIZE_T)z * m.DepthPitch + (SIZE_T)y * m.RowPitch,
                       op->alias + (SIZE_T)z * op->depth_pitch + (SIZE_T)y * op->row_pitch, sr->row_bytes);
    }
    umd_ResourceUnmap(hIC, a, op->dst_sub);
}

static void ic_clear_uav(D3D10DDI_HDEVICE hIC, const struct umd_op *op, UINT depth)
{
    D3D11DDI_HUNORDEREDACCESSVIEW v = { op->a };
    umd_ClearUnorderedAccessViewUint(hIC, v, op->values);
}

static void ic_nested(D3D10DDI_HDEVICE hIC, const struct umd_op *op, UINT depth)
{
    ic_execute(hIC, op->a, depth + 1);
}

static void (*const ic_handlers[OP_TYPE_COUNT])(D3D10DDI_HDEVICE, const struct umd_op *, UINT) = {
    [OP_COPY] = ic_copy,
    [OP_COPY_REGION] = ic_copy_region,
    [OP_UPDATE] = ic_update,
    [OP_DISCARD] = ic_discard,
    [OP_CLEAR_RTV] = ic_clear_rtv,
    [OP_DISCARD_UPLOAD] = ic_discard_upload,
    [OP_CLEAR_UAV] = ic_clear_uav,
    [OP_EXECUTE] = ic_nested,
};

static void ic_execute(D3D10DDI_HDEVICE hIC, const struct umd_cmdlist *cl, UINT depth)
{
    if (depth > 8)
        return; /* nested lists: the runtime cannot build a cycle; bound the recursion anyway */
    for (SIZE_T off = 0; off < cl->rec.used;) {
        const struct umd_op *op = (const struct umd_op *)(cl->rec.ops + off);
        off += op->size;
        if (op->type < OP_TYPE_COUNT && ic_handlers[op->type])
            ic_handlers[op->type](hIC, op, depth);
    }
}

VOID APIENTRY umd_CommandListExecute(D3D10DDI_HDEVICE hDevice, D3D11DDI_HCOMMANDLIST hList)
{
    ic_execute(hDevice, hList.pDrvPrivate, 0);
}

/* ---- CreateDeferredContext ------------------------------------------------------------------ */
VOID APIENTRY umd_CreateDeferredContext(D3D10DDI_HDEVICE hDevice, const D3D11DDIARG_CREATEDEFERREDCONTEXT *a)
{
    struct umd_device *ic = umd_device(hDevice);
    if (!a || !a->hDrvContext.pDrvPrivate || !a->p11ContextFuncs /* p11_1ContextFuncs: the same slot */) {
        UMD_REFUSE("CreateDeferredContext: missing context memory or function tables");
        umd_set_error(ic, E_INVALIDARG);
        return;
    }
    struct umd_dc *dc = a->hDrvContext.pDrvPrivate;
    memset(dc, 0, sizeof *dc);
    dc->magic = UMD_DC_MAGIC;
    dc->ic = ic;
    dc->hRTCoreLayer = a->hRTCoreLayer;
    dc->pfnSetErrorCb = a->p11UMCallbacks ? a->p11UMCallbacks->pfnSetErrorCb : NULL;

    /* docs/semantics.md §4.5 rule 3: the excluded slots stay NULL on a DC's table. The table has
     * the immediate context's DDI version (the device's Interface). */
#define FILL_DC_COMMON(f)                                                                          \
    do {                                                                                           \
        memset((f), 0, sizeof *(f));                                                               \
        (f)->pfnCreateResource = dc_CreateResource;                                                \
        (f)->pfnDestroyResource = dc_DestroyResource;                                              \
        (f)->pfnCreateRenderTargetView = dc_CreateRenderTargetView;                                \
        (f)->pfnDestroyRenderTargetView = dc_DestroyRenderTargetView;                              \
        (f)->pfnDestroyDevice = dc_DestroyDevice;                                                  \
        (f)->pfnAbandonCommandList = dc_AbandonCommandList;                                        \
        (f)->pfnCreateCommandList = dc_CreateCommandList;                                          \
        (f)->pfnDestroyCommandList = umd_DestroyCommandList;                                       \
        (f)->pfnCreateShaderResourceView = dc_CreateShaderResourceView;                            \
        (f)->pfnDestroyShaderResourceView = dc_DestroyShaderResourceView;                          \
        (f)->pfnCreateUnorderedAccessView = dc_CreateUnorderedAccessView;                          \
        (f)->pfnDestroyUnorderedAccessView = dc_DestroyUnorderedAccessView;                        \
        (f)->pfnDynamicIABufferMapNoOverwrite = dc_DynamicMap;                                     \
        (f)->pfnDynamicIABufferUnmap = dc_DynamicUnmap;                                            \
        (f)->pfnDynamicConstantBufferMapDiscard = dc_DynamicMap;                                   \
        (f)->pfnDynamicIABufferMapDiscard = dc_DynamicMap;                                         \
        (f)->pfnDynamicConstantBufferUnmap = dc_DynamicUnmap;                                      \
        (f)->pfnResourceCopy = dc_ResourceCopy;                                                    \
        (f)->pfnDynamicResourceMapDiscard = dc_DynamicMap;                                         \
        (f)->pfnDynamicResourceUnmap = dc_DynamicUnmap;                                            \
        (f)->pfnClearRenderTargetView = dc_ClearRenderTargetView;                                  \
        (f)->pfnCommandListExecute = dc_CommandListExecute;                                        \
        (f)->pfnClearUnorderedAccessViewUint = dc_ClearUnorderedAccessViewUint;                    \
    } while (0)
    if (ic->ddi_interface == D3D11_1_DDI_INTERFACE_VERSION) {
        D3D11_1DDI_DEVICEFUNCS *f = a->p11_1ContextFuncs;
        FILL_DC_COMMON(f);
        f->pfnDefaultConstantBufferUpdateSubresourceUP = dc_ResourceUpdateSubresourceUP11_1;
        f->pfnResourceCopyRegion = dc_ResourceCopyRegion11_1;
        f->pfnResourceUpdateSubresourceUP = dc_ResourceUpdateSubresourceUP11_1;
        f->pfnDiscard = dc_Discard;
        f->pfnDynamicConstantBufferMapNoOverwrite = dc_DynamicMap;
    } else {
        D3D11DDI_DEVICEFUNCS *f = a->p11ContextFuncs;
        FILL_DC_COMMON(f);
        f->pfnDefaultConstantBufferUpdateSubresourceUP = dc_ResourceUpdateSubresourceUP;
        f->pfnResourceCopyRegion = dc_ResourceCopyRegion;
        f->pfnResourceUpdateSubresourceUP = dc_ResourceUpdateSubresourceUP;
    }
#undef FILL_DC_COMMON
}
