/*
 * context1.c - the Direct3D 11.1 context methods (ID3D11DeviceContext1; issue 15 §4) that the
 * reference stack executes, on the immediate and on deferred contexts alike.
 *
 * The UMD implements no D3D11.1 DDI, so CheckFeatureSupport(D3D11_OPTIONS) answers
 * DiscardAPIsSeenByDriver and FlagsForUpdateAndCopySeenByDriver FALSE, and the runtime does
 * what Windows' runtime does then (D3D11_FEATURE_DATA_D3D11_OPTIONS reference):
 * - CopySubresourceRegion1 / UpdateSubresource1 with D3D11_COPY_NO_OVERWRITE or
 *   D3D11_COPY_DISCARD perform the plain copy: both flags only give the driver leave to skip a
 *   wait or to drop what the copy does not write, so the plain copy is a correct answer. Any
 *   other bit, or the two together, is refused (nothing copied, a debug line).
 * - DiscardResource / DiscardView / DiscardView1 change nothing: discarded content is undefined,
 *   and keeping it is one of the contents it may have. A NULL argument is refused.
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
    ID3D11DeviceContext *ctx = (ID3D11DeviceContext *)This;
    ctx->lpVtbl->CopySubresourceRegion(ctx, dst, dst_sub, x, y, z, src, src_sub, box);
}

void STDMETHODCALLTYPE rt_context_UpdateSubresource1(ID3D11DeviceContext1 *This, ID3D11Resource *dst, UINT dst_sub,
                                                     const D3D11_BOX *box, const void *data, UINT row_pitch,
                                                     UINT depth_pitch, UINT flags)
{
    if (!copy_flags_valid("UpdateSubresource1", flags))
        return;
    ID3D11DeviceContext *ctx = (ID3D11DeviceContext *)This;
    ctx->lpVtbl->UpdateSubresource(ctx, dst, dst_sub, box, data, row_pitch, depth_pitch);
}

void STDMETHODCALLTYPE rt_context_DiscardResource(ID3D11DeviceContext1 *This, ID3D11Resource *res)
{
    if (!res)
        RT_REFUSE("DiscardResource: pResource is NULL");
}

void STDMETHODCALLTYPE rt_context_DiscardView(ID3D11DeviceContext1 *This, ID3D11View *view)
{
    if (!view)
        RT_REFUSE("DiscardView: pResourceView is NULL");
}

void STDMETHODCALLTYPE rt_context_DiscardView1(ID3D11DeviceContext1 *This, ID3D11View *view, const D3D11_RECT *rects,
                                               UINT count)
{
    if (!view)
        RT_REFUSE("DiscardView1: pResourceView is NULL");
    else if (count && !rects)
        RT_REFUSE("DiscardView1: NumRects is %u but pRects is NULL", count);
}
