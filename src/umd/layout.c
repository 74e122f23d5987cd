/* layout.c - the linear layout of a resource inside its one allocation (seed 001 §4.3, §7).
 *
 * Rules (seed 001 §7.2, brief for this UMD):
 *   - one allocation holds every subresource, in subresource-index order
 *     (index = mip + slice * MipLevels, docs/semantics.md §4.2), each starting where the previous
 *     ends (every texture subresource is a multiple of the row pitch, so offsets stay aligned);
 *   - textures: RowPitch = align(row bytes, 256), row bytes counting 4x4 blocks for BC formats;
 *     DepthPitch = RowPitch * rows (rows of blocks for BC); a 3-D mip holds TexelDepth slices;
 *   - buffers: RowPitch = DepthPitch = ByteWidth (docs/semantics.md §5.3: never 0).
 */
#include "umd/umd.h"

static BOOL umd_is_buffer(UINT dim)
{
    return dim == D3D10DDIRESOURCE_BUFFER || dim == D3D11DDIRESOURCE_BUFFEREX;
}

UINT umd_subresource_count(const D3D11DDIARG_CREATERESOURCE *args)
{
    if (umd_is_buffer(args->ResourceDimension))
        return 1;
    UINT mips = args->MipLevels ? args->MipLevels : 1;
    UINT slices = args->ArraySize ? args->ArraySize : 1;
    if (args->ResourceDimension == D3D10DDIRESOURCE_TEXTURE3D)
        slices = 1;
    /* D3D11 caps are 15 mips x 2048 slices; anything far beyond is not a real request. */
    if (mips > 32 || slices > 65536)
        return 0;
    return mips * slices;
}

static UINT64 umd_align64(UINT64 v, UINT a) { return (v + a - 1) & ~(UINT64)(a - 1); }

HRESULT umd_layout(const D3D11DDIARG_CREATERESOURCE *args, UINT align, struct umd_subresource *sub, UINT64 *size)
{
    const D3D10DDI_MIPINFO *mi = args->pMipInfoList;
    if (!mi) {
        UMD_REFUSE("CreateResource: pMipInfoList is NULL (no dimensions to lay out)");
        return DXGI_DDI_ERR_UNSUPPORTED;
    }
    if (umd_is_buffer(args->ResourceDimension)) {
        UINT bytes = mi[0].TexelWidth;
        if (bytes == 0) {
            UMD_REFUSE("CreateResource: buffer of 0 bytes");
            return DXGI_DDI_ERR_UNSUPPORTED;
        }
        sub[0] = (struct umd_subresource){ .offset = 0, .row_pitch = bytes, .depth_pitch = bytes, .row_bytes = bytes,
                                           .rows = 1, .depth = 1, .width = bytes, .height = 1 };
        *size = bytes;
        return S_OK;
    }

    UINT dim = args->ResourceDimension;
    if (dim != D3D10DDIRESOURCE_TEXTURE1D && dim != D3D10DDIRESOURCE_TEXTURE2D &&
        dim != D3D10DDIRESOURCE_TEXTURE3D && dim != D3D10DDIRESOURCE_TEXTURECUBE) {
        UMD_REFUSE("CreateResource: unknown resource dimension %u", dim);
        return DXGI_DDI_ERR_UNSUPPORTED;
    }
    if (!wddm_format_info(args->Format)) {
        UMD_REFUSE("CreateResource: format %d has no entry in the format table", (int)args->Format);
        return DXGI_DDI_ERR_UNSUPPORTED;
    }
    UINT mips = args->MipLevels ? args->MipLevels : 1;
    UINT count = umd_subresource_count(args);
    UINT64 offset = 0;
    for (UINT s = 0; s < count; s++) {
        const D3D10DDI_MIPINFO *m = &mi[s % mips];
        UINT w = m->TexelWidth ? m->TexelWidth : 1;
        UINT h = (dim == D3D10DDIRESOURCE_TEXTURE1D || !m->TexelHeight) ? 1 : m->TexelHeight;
        UINT d = (dim == D3D10DDIRESOURCE_TEXTURE3D && m->TexelDepth) ? m->TexelDepth : 1;
        UINT row_bytes = wddm_format_row_bytes(args->Format, w);
        UINT rows = wddm_format_rows(args->Format, h);
        UINT64 row_pitch = umd_align64(row_bytes, align);
        UINT64 depth_pitch = row_pitch * rows;
        if (row_pitch > UINT32_MAX || depth_pitch > UINT32_MAX || offset > UINT32_MAX) {
            UMD_REFUSE("CreateResource: layout exceeds 4 GiB");
            return E_OUTOFMEMORY;
        }
        sub[s] = (struct umd_subresource){ .offset = (UINT)offset, .row_pitch = (UINT)row_pitch,
                                           .depth_pitch = (UINT)depth_pitch, .row_bytes = row_bytes, .rows = rows,
                                           .depth = d, .width = w, .height = h };
        offset += depth_pitch * d;
    }
    if (offset > UINT32_MAX) {
        /* Patch-location AllocationOffset is 32-bit: the UMD cannot address beyond 4 GiB. */
        UMD_REFUSE("CreateResource: layout exceeds 4 GiB");
        return E_OUTOFMEMORY;
    }
    *size = offset;
    return S_OK;
}

BOOL umd_clip_box(const struct umd_subresource *s, const D3D10_DDI_BOX *box, struct umd_box *out)
{
    *out = (struct umd_box){0, 0, 0, s->width, s->height, s->depth};
    if (box) {
        out->left = box->left > 0 ? box->left : 0;
        out->top = box->top > 0 ? box->top : 0;
        out->front = box->front > 0 ? box->front : 0;
        out->right = box->right < (INT64)s->width ? box->right : (INT64)s->width;
        out->bottom = box->bottom < (INT64)s->height ? box->bottom : (INT64)s->height;
        out->back = box->back < (INT64)s->depth ? box->back : (INT64)s->depth;
    }
    return out->left < out->right && out->top < out->bottom && out->front < out->back;
}
