/*
 * context1.c - the Direct3D 11.1 context methods (ID3D11DeviceContext1; issue 15 §4) that the
 * reference stack executes, on the immediate and on deferred contexts alike.
 *
 * - CopySubresourceRegion1 / UpdateSubresource1 take D3D11_COPY_NO_OVERWRITE or
 *   D3D11_COPY_DISCARD (never both, no other bit: refused, nothing copied) and hand them to the
 *   driver's 11.1 copies (ddi11_1.c). Through an 11.0 driver they are dropped: both only give
 *   the driver leave to skip a wait or to drop what the copy does not write, so the plain copy
 *   is a correct answer (FlagsForUpdateAndCopySeenByDriver FALSE).
 * - DiscardResource / DiscardView / DiscardView1 reach the driver's Discard(D3D11_1) with the
 *   resource's or the view's handle; a resource not DEFAULT or DYNAMIC is dropped with a debug
 *   message (ID3D11DeviceContext1::DiscardResource reference), as is a NULL argument. Through
 *   an 11.0 driver the runtime ends the call: the content stays, one of the contents a
 *   discarded resource may have (DiscardAPIsSeenByDriver FALSE).
 */
#include "runtime/runtime.h"

static BOOL copy_flags_valid(const char *what, UINT flags)
{
    if (flags & ~(UINT)(D3D11_COPY_NO_OVERWRITE | D3D11_COPY_DISCARD)) {
        RT_REFUSE("%s: CopyFlags 0x%x has bits other than D3D11_COPY_NO_OVERWRITE and D3D11_COPY_DISCARD", what, flags);
        return FALSE;
    }
    if (flags == (D3D11_COPY_NO_OVERWRITE | D3D11_COPY_DISCARD)) {
        RT_REFUSE("%s: D3D11_COPY_NO_OVERWRITE and D3D11_COPY_DISCARD exclude each other", what);
        return FALSE;
    }
    return TRUE;
}

void STDMETHODCALLTYPE rt_context_CopySubresourceRegion1(ID3D11DeviceContext1 *This, ID3D11Resource *dst,
                                                         UINT dst_sub, UINT x, UINT y, UINT z, ID3D11Resource *src,
                                                         UINT src_sub, const D3D11_BOX *box, UINT flags)
{
    if (!copy_flags_valid("CopySubresourceRegion1", flags))
        return;
    rt_context_copy_region((ID3D11DeviceContext *)This, dst, dst_sub, x, y, z, src, src_sub, box, flags,
                           "CopySubresourceRegion1");
}

void STDMETHODCALLTYPE rt_context_UpdateSubresource1(ID3D11DeviceContext1 *This, ID3D11Resource *dst, UINT dst_sub,
                                                     const D3D11_BOX *box, const void *data, UINT row_pitch,
                                                     UINT depth_pitch, UINT flags)
{
    if (!copy_flags_valid("UpdateSubresource1", flags))
        return;
    rt_context_update((ID3D11DeviceContext *)This, dst, dst_sub, box, data, row_pitch, depth_pitch, flags,
                      "UpdateSubresource1");
}

/* The driver handle a discard names. */
static void *discard_handle(const struct rt_discard *d)
{
    switch (d->type) {
    case D3D10DDI_HT_RESOURCE:
        return ((struct rt_resource *)d->object)->drv.pDrvPrivate;
    case D3D10DDI_HT_RENDERTARGETVIEW:
        return ((struct rt_rtv *)d->object)->drv.pDrvPrivate;
    default:
        return ((struct rt_sview *)d->object)->drv;
    }
}

void rt_context_discard(ID3D11DeviceContext *iface, const struct rt_discard *d)
{
    struct rt_context *ctx = rt_context_from_iface(iface);
    if (ctx->dc) {
        rt_dc_discard(ctx->dc, d);
        return;
    }
    struct rt_device *dev = ctx->device;
    const D3D11_1DDI_DEVICEFUNCS *f1 = rt_device_funcs1(dev);
    if (!f1 || !f1->pfnDiscard || rt_device_is_removed(dev))
        return; /* an 11.0 driver: the runtime ends the discard here (top of this file) */
    static const HRESULT allowed[] = { D3DDDIERR_DEVICEREMOVED };
    rt_ddi_begin(dev);
    f1->pfnDiscard(dev->drv_device, d->type, discard_handle(d), (const D3D10_DDI_RECT *)d->rects, d->rect_count);
    HRESULT err = rt_ddi_end(dev);
    (void)rt_ddi_error_to_api(dev, err, allowed, 1, "pfnDiscard");
}

/* The usage rule of both discards: only DEFAULT and DYNAMIC content may be discarded. */
static BOOL discard_usage_ok(const struct rt_resource *res, const char *what)
{
    if (res->usage == D3D11_USAGE_DEFAULT || res->usage == D3D11_USAGE_DYNAMIC)
        return TRUE;
    RT_REFUSE("%s: only USAGE_DEFAULT or USAGE_DYNAMIC content can be discarded (usage %u): the call is dropped",
              what, (UINT)res->usage);
    return FALSE;
}

void STDMETHODCALLTYPE rt_context_DiscardResource(ID3D11DeviceContext1 *This, ID3D11Resource *res_iface)
{
    struct rt_device *dev = rt_context_from_iface((ID3D11DeviceContext *)This)->device;
    struct rt_resource *res = rt_resource_from_iface(res_iface);
    if (!res || res->device != dev) {
        RT_REFUSE("DiscardResource: pResource is NULL, not a resource, or of another device");
        return;
    }
    if (!discard_usage_ok(res, "DiscardResource"))
        return;
    struct rt_discard d = { .type = D3D10DDI_HT_RESOURCE, .object = res };
    rt_context_discard((ID3D11DeviceContext *)This, &d);
}

/* An ID3D11View of this device: a render-target, shader-resource or unordered-access view. */
static void discard_view(ID3D11DeviceContext1 *This, ID3D11View *view, const D3D11_RECT *rects, UINT count,
                         const char *what)
{
    struct rt_device *dev = rt_context_from_iface((ID3D11DeviceContext *)This)->device;
    struct rt_discard d = { .rect_count = count, .rects = count ? rects : NULL };
    struct rt_resource *res = NULL;
    struct rt_rtv *rtv = rt_rtv_from_iface((ID3D11RenderTargetView *)view);
    struct rt_sview *sv = rtv ? NULL : rt_sview_from_iface(view);
    if (rtv) {
        d.type = D3D10DDI_HT_RENDERTARGETVIEW;
        d.object = rtv;
        res = rtv->resource;
    } else if (sv) {
        d.type = sv->is_uav ? D3D11DDI_HT_UNORDEREDACCESSVIEW : D3D10DDI_HT_SHADERRESOURCEVIEW;
        d.object = sv;
        res = sv->resource;
    }
    if (!res || res->device != dev) {
        RT_REFUSE("%s: pResourceView is NULL, not a view, or of another device", what);
        return;
    }
    if (count && !rects) {
        RT_REFUSE("%s: NumRects is %u but pRects is NULL", what, count);
        return;
    }
    if (!discard_usage_ok(res, what))
        return;
    rt_context_discard((ID3D11DeviceContext *)This, &d);
}

void STDMETHODCALLTYPE rt_context_DiscardView(ID3D11DeviceContext1 *This, ID3D11View *view)
{
    discard_view(This, view, NULL, 0, "DiscardView");
}

void STDMETHODCALLTYPE rt_context_DiscardView1(ID3D11DeviceContext1 *This, ID3D11View *view, const D3D11_RECT *rects,
                                               UINT count)
{
    discard_view(This, view, rects, count, "DiscardView1");
}
