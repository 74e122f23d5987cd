/*
 * copy.c - CopyResource, CopySubresourceRegion, UpdateSubresource, ClearRenderTargetView.
 *
 * These are void at the API: a refused call does nothing and, with the debug switch, prints
 * one line naming the rule. The rules are those the runtime guarantees to the driver
 * (docs/semantics.md §4.4); the box + offset fit is validated here (model decision, §4.4).
 * Allowed DDI errors for all of them: only D3DDDIERR_DEVICEREMOVED.
 */
#include "runtime/runtime.h"

static const HRESULT allowed_removed_only[] = { D3DDDIERR_DEVICEREMOVED };

static BOOL is_depth(const struct rt_resource *res)
{
    const struct wddm_format_info *fi = wddm_format_info(res->format);
    return (fi && fi->is_depth) || (res->bind_flags & D3D11_BIND_DEPTH_STENCIL);
}

static BOOL is_msaa(const struct rt_resource *res)
{
    return res->sample_count > 1;
}

static void block_size(const struct rt_resource *res, UINT *bw, UINT *bh)
{
    const struct wddm_format_info *fi = wddm_format_info(res->format);
    *bw = fi ? fi->block_width : 1;
    *bh = fi ? fi->block_height : 1;
}

/* The size a box may reach in a subresource: texels, rounded up to whole blocks for
 * block-compressed formats (a 2x2 BC mip is one 4x4 block). */
static void subresource_extent(const struct rt_resource *res, UINT sub, UINT *w, UINT *h, UINT *d)
{
    UINT bw, bh;
    rt_subresource_dims(res, sub, w, h, d);
    block_size(res, &bw, &bh);
    *w = (*w + bw - 1) / bw * bw;
    *h = (*h + bh - 1) / bh * bh;
}

/* A box is empty if left >= right, top >= bottom or front >= back (docs/semantics.md §4.4). */
static BOOL box_empty(const D3D11_BOX *b)
{
    return b->left >= b->right || b->top >= b->bottom || b->front >= b->back;
}

/* Box inside the subresource, and block-aligned for BC formats. */
static BOOL box_valid(const struct rt_resource *res, UINT sub, const D3D11_BOX *b, const char *what)
{
    UINT w, h, d, bw, bh;
    subresource_extent(res, sub, &w, &h, &d);
    block_size(res, &bw, &bh);
    if (b->right > w || b->bottom > h || b->back > d) {
        RT_REFUSE("%s: box [%u,%u)x[%u,%u)x[%u,%u) exceeds subresource %u (%ux%ux%u)", what, b->left, b->right, b->top,
                  b->bottom, b->front, b->back, sub, w, h, d);
        return FALSE;
    }
    if (b->left % bw || b->top % bh || b->right % bw || b->bottom % bh) {
        RT_REFUSE("%s: box must be aligned to the %ux%u blocks of a block-compressed format", what, bw, bh);
        return FALSE;
    }
    return TRUE;
}

static D3D10_DDI_BOX ddi_box(const D3D11_BOX *b)
{
    D3D10_DDI_BOX r = { (INT)b->left, (INT)b->top, (INT)b->front, (INT)b->right, (INT)b->bottom, (INT)b->back };
    return r;
}

/* Common checks on a resource argument of a context method. */
static struct rt_resource *context_resource(struct rt_device *dev, ID3D11Resource *iface, const char *what,
                                            const char *arg)
{
    struct rt_resource *res = rt_resource_from_iface(iface);
    if (!res) {
        RT_REFUSE("%s: %s is NULL or not a resource", what, arg);
        return NULL;
    }
    if (res->device != dev) {
        RT_REFUSE("%s: %s belongs to another device", what, arg);
        return NULL;
    }
    return res;
}

static BOOL copy_formats_ok(const struct rt_resource *dst, const struct rt_resource *src, const char *what)
{
    if (dst->dimension != src->dimension) {
        RT_REFUSE("%s: source and destination must be the same resource type", what);
        return FALSE;
    }
    if (dst->dimension != D3D11_RESOURCE_DIMENSION_BUFFER && !wddm_formats_copy_compatible(dst->format, src->format)) {
        const struct wddm_format_info *fd = wddm_format_info(dst->format), *fs = wddm_format_info(src->format);
        RT_REFUSE("%s: formats %s and %s are not in the same typeless group", what,
                  fd ? fd->name : "?", fs ? fs->name : "?");
        return FALSE;
    }
    if (dst->sample_count != src->sample_count ||
        (dst->sample_count > 1 && dst->sample_quality != src->sample_quality)) {
        RT_REFUSE("%s: source and destination must have the same sample count and quality", what);
        return FALSE;
    }
    if (dst->usage == D3D11_USAGE_IMMUTABLE) {
        RT_REFUSE("%s: the destination is USAGE_IMMUTABLE", what);
        return FALSE;
    }
    return TRUE;
}

void STDMETHODCALLTYPE rt_context_CopyResource(ID3D11DeviceContext *iface, ID3D11Resource *dst_iface,
                                               ID3D11Resource *src_iface)
{
    const char *what = "CopyResource";
    struct rt_device *dev = rt_context_from_iface(iface)->device;
    struct rt_resource *dst = context_resource(dev, dst_iface, what, "pDstResource");
    struct rt_resource *src = context_resource(dev, src_iface, what, "pSrcResource");
    if (!dst || !src)
        return;
    if (dst == src) {
        RT_REFUSE("%s: source and destination are the same resource", what);
        return;
    }
    if (!copy_formats_ok(dst, src, what))
        return;
    if (dst->width != src->width || dst->height != src->height || dst->depth != src->depth ||
        dst->mip_levels != src->mip_levels || dst->array_size != src->array_size) {
        RT_REFUSE("%s: source and destination must have the same dimensions, mip levels and array size", what);
        return;
    }
    if (rt_context_from_iface(iface)->dc) {
        rt_dc_copy_resource(rt_context_from_iface(iface)->dc, dst, src);
        return;
    }
    rt_ddi_begin(dev);
    if (dst->mapped_count || src->mapped_count) {
        (void)rt_ddi_end(dev);
        RT_REFUSE("%s: neither resource may be mapped (model decision #10)", what);
        return;
    }
    if (rt_device_is_removed(dev) || !dev->funcs.pfnResourceCopy) {
        (void)rt_ddi_end(dev);
        return;
    }
    dev->funcs.pfnResourceCopy(dev->drv_device, dst->drv, src->drv);
    HRESULT err = rt_ddi_end(dev);
    (void)rt_ddi_error_to_api(dev, err, allowed_removed_only, 1, "pfnResourceCopy");
}

void STDMETHODCALLTYPE rt_context_CopySubresourceRegion(ID3D11DeviceContext *iface, ID3D11Resource *dst_iface,
                                                        UINT dst_sub, UINT x, UINT y, UINT z,
                                                        ID3D11Resource *src_iface, UINT src_sub, const D3D11_BOX *box)
{
    rt_context_copy_region(iface, dst_iface, dst_sub, x, y, z, src_iface, src_sub, box, 0, "CopySubresourceRegion");
}

/* CopySubresourceRegion(1): flags are D3D11_COPY_FLAGS, checked by the caller (context1.c). */
void rt_context_copy_region(ID3D11DeviceContext *iface, ID3D11Resource *dst_iface, UINT dst_sub, UINT x, UINT y,
                            UINT z, ID3D11Resource *src_iface, UINT src_sub, const D3D11_BOX *box, UINT flags,
                            const char *what)
{
    struct rt_device *dev = rt_context_from_iface(iface)->device;
    struct rt_resource *dst = context_resource(dev, dst_iface, what, "pDstResource");
    struct rt_resource *src = context_resource(dev, src_iface, what, "pSrcResource");
    if (!dst || !src)
        return;
    if (!copy_formats_ok(dst, src, what))
        return;
    if (dst_sub >= dst->subresource_count || src_sub >= src->subresource_count) {
        RT_REFUSE("%s: subresource out of range (dst %u of %u, src %u of %u)", what, dst_sub, dst->subresource_count,
                  src_sub, src->subresource_count);
        return;
    }
    if (box && box_empty(box))
        return; /* an empty box is a valid no-op (docs/semantics.md §4.4) */

    UINT sw, sh, sd, dw, dh, dd, bw, bh;
    subresource_extent(src, src_sub, &sw, &sh, &sd);
    subresource_extent(dst, dst_sub, &dw, &dh, &dd);
    block_size(dst, &bw, &bh);
    if (is_depth(dst) || is_depth(src) || is_msaa(dst) || is_msaa(src)) {
        /* Depth-stencil and multisampled resources copy whole subresources only. */
        if (box || x || y || z) {
            RT_REFUSE("%s: depth-stencil or multisampled resources need pSrcBox NULL and DstX/Y/Z 0", what);
            return;
        }
        if (sw != dw || sh != dh || sd != dd) {
            RT_REFUSE("%s: depth-stencil or multisampled subresources must have the same size", what);
            return;
        }
    }
    D3D11_BOX whole = { 0, 0, 0, sw, sh, sd };
    const D3D11_BOX *b = box ? box : &whole;
    if (box && !box_valid(src, src_sub, box, what))
        return;
    UINT64 ex = (UINT64)x + (b->right - b->left), ey = (UINT64)y + (b->bottom - b->top),
           ez = (UINT64)z + (b->back - b->front);
    if (ex > dw || ey > dh || ez > dd) {
        RT_REFUSE("%s: the copied region at (%u,%u,%u) does not fit destination subresource %u (%ux%ux%u)", what, x,
                  y, z, dst_sub, dw, dh, dd);
        return;
    }
    if (x % bw || y % bh) {
        RT_REFUSE("%s: DstX/DstY must be aligned to the %ux%u blocks of a block-compressed format", what, bw, bh);
        return;
    }

    if (rt_context_from_iface(iface)->dc) {
        rt_dc_copy_region(rt_context_from_iface(iface)->dc, dst, dst_sub, x, y, z, src, src_sub, box, flags);
        return;
    }
    rt_ddi_begin(dev);
    if (rt_resource_is_mapped(dst, dst_sub) || rt_resource_is_mapped(src, src_sub)) {
        (void)rt_ddi_end(dev);
        RT_REFUSE("%s: source or destination subresource is mapped", what);
        return;
    }
    if (rt_device_is_removed(dev) || !rt_ddi_has_copy_region(&dev->funcs, rt_device_funcs1(dev))) {
        (void)rt_ddi_end(dev);
        return;
    }
    D3D10_DDI_BOX db;
    if (box)
        db = ddi_box(box);
    rt_ddi_copy_region(&dev->funcs, rt_device_funcs1(dev), dev->drv_device, dst->drv, dst_sub, x, y, z,
                       src->drv, src_sub, box ? &db : NULL, flags);
    HRESULT err = rt_ddi_end(dev);
    (void)rt_ddi_error_to_api(dev, err, allowed_removed_only, 1, "pfnResourceCopyRegion");
}

void STDMETHODCALLTYPE rt_context_UpdateSubresource(ID3D11DeviceContext *iface, ID3D11Resource *dst_iface,
                                                    UINT dst_sub, const D3D11_BOX *box, const void *data,
                                                    UINT row_pitch, UINT depth_pitch)
{
    rt_context_update(iface, dst_iface, dst_sub, box, data, row_pitch, depth_pitch, 0, "UpdateSubresource");
}

/* UpdateSubresource(1): flags are D3D11_COPY_FLAGS, checked by the caller (context1.c). */
void rt_context_update(ID3D11DeviceContext *iface, ID3D11Resource *dst_iface, UINT dst_sub, const D3D11_BOX *box,
                       const void *data, UINT row_pitch, UINT depth_pitch, UINT flags, const char *what)
{
    struct rt_device *dev = rt_context_from_iface(iface)->device;
    struct rt_resource *dst = context_resource(dev, dst_iface, what, "pDstResource");
    if (!dst)
        return;
    if (dst->usage != D3D11_USAGE_DEFAULT) {
        /* docs/semantics.md §4.4: UpdateSubresourceUP is used only on DEFAULT resources. */
        RT_REFUSE("%s: the destination must be USAGE_DEFAULT (IMMUTABLE cannot change; DYNAMIC/STAGING use Map)",
                  what);
        return;
    }
    if (is_depth(dst) || is_msaa(dst)) {
        RT_REFUSE("%s: the destination cannot be a depth-stencil or multisampled resource", what);
        return;
    }
    if (dst_sub >= dst->subresource_count) {
        RT_REFUSE("%s: DstSubresource %u out of range (the resource has %u)", what, dst_sub, dst->subresource_count);
        return;
    }
    if (!data) {
        RT_REFUSE("%s: pSrcData is NULL", what);
        return;
    }
    if (box && (dst->bind_flags & D3D11_BIND_CONSTANT_BUFFER) && !rt_device_funcs1(dev)) {
        /* A constant buffer is updated whole unless the driver has the D3D11.1 DDI
         * (D3D11_FEATURE_DATA_D3D11_OPTIONS.ConstantBufferPartialUpdate). */
        RT_REFUSE("%s: a constant buffer cannot be partially updated without the D3D11.1 DDI (pDstBox must be NULL)",
                  what);
        return;
    }
    if (box) {
        if (box_empty(box))
            return; /* empty box: nothing to do */
        if (!box_valid(dst, dst_sub, box, what))
            return;
    }

    if (rt_context_from_iface(iface)->dc) {
        rt_dc_update(rt_context_from_iface(iface)->dc, dst, dst_sub, box, data, row_pitch, depth_pitch, flags);
        return;
    }
    rt_ddi_begin(dev);
    if (rt_resource_is_mapped(dst, dst_sub)) {
        (void)rt_ddi_end(dev);
        RT_REFUSE("%s: the destination subresource is mapped", what);
        return;
    }
    BOOL cb = (dst->bind_flags & D3D11_BIND_CONSTANT_BUFFER) != 0;
    if (rt_device_is_removed(dev) || !rt_ddi_has_update(&dev->funcs, rt_device_funcs1(dev))) {
        (void)rt_ddi_end(dev);
        return;
    }
    D3D10_DDI_BOX db;
    if (box)
        db = ddi_box(box);
    rt_ddi_update(&dev->funcs, rt_device_funcs1(dev), cb, dev->drv_device, dst->drv, dst_sub,
                  box ? &db : NULL, data, row_pitch, depth_pitch, flags);
    HRESULT err = rt_ddi_end(dev);
    (void)rt_ddi_error_to_api(dev, err, allowed_removed_only, 1, "pfnResourceUpdateSubresourceUP");
}

void STDMETHODCALLTYPE rt_context_ClearRenderTargetView(ID3D11DeviceContext *iface, ID3D11RenderTargetView *rtv_iface,
                                                        const FLOAT color[4])
{
    const char *what = "ClearRenderTargetView";
    struct rt_device *dev = rt_context_from_iface(iface)->device;
    struct rt_rtv *rtv = rt_rtv_from_iface(rtv_iface);
    if (!rtv) {
        RT_REFUSE("%s: pRenderTargetView is NULL or not a render target view", what);
        return;
    }
    if (rtv->device != dev) {
        RT_REFUSE("%s: the view belongs to another device", what);
        return;
    }
    if (!color) {
        RT_REFUSE("%s: ColorRGBA is NULL", what);
        return;
    }
    if (rt_context_from_iface(iface)->dc) {
        rt_dc_clear_rtv(rt_context_from_iface(iface)->dc, rtv, color);
        return;
    }
    FLOAT c[4] = { color[0], color[1], color[2], color[3] };
    rt_ddi_begin(dev);
    if (rt_device_is_removed(dev) || !dev->funcs.pfnClearRenderTargetView) {
        (void)rt_ddi_end(dev);
        return;
    }
    dev->funcs.pfnClearRenderTargetView(dev->drv_device, rtv->drv, c);
    HRESULT err = rt_ddi_end(dev);
    (void)rt_ddi_error_to_api(dev, err, allowed_removed_only, 1, "pfnClearRenderTargetView");
}
