/* copy.c - ResourceCopy and ResourceCopyRegion as SWGPU_OP_COPY commands
 * (docs/semantics.md §4.4; seed 001 §9 step 3). Boxes are in texels for textures (converted to
 * 4x4 blocks for BC formats) and in bytes for buffers; a NULL box is the whole source
 * subresource. */
#include "umd/umd.h"

static BOOL umd_is_buffer_res(const struct umd_resource *r)
{
    return r->dimension == D3D10DDIRESOURCE_BUFFER || r->dimension == D3D11DDIRESOURCE_BUFFEREX;
}

BOOL umd_emit_copy(struct umd_device *dev, struct umd_resource *dst, UINT dst_off, UINT dst_rp, UINT dst_sp,
                   struct umd_resource *src, UINT src_off, UINT src_rp, UINT src_sp, UINT row_bytes, UINT rows,
                   UINT slices)
{
    if (!row_bytes || !rows || !slices)
        return TRUE;
    struct swgpu_cmd_copy *c = umd_cmd_begin(dev, sizeof *c, 2, 2);
    if (!c)
        return FALSE;
    c->hdr.opcode = SWGPU_OP_COPY;
    c->hdr.size_bytes = sizeof *c;
    umd_cmd_address(dev, c, &c->dst.addr, dst, dst_off, TRUE);
    c->dst.row_pitch = dst_rp;
    c->dst.slice_pitch = dst_sp;
    umd_cmd_address(dev, c, &c->src.addr, src, src_off, FALSE);
    c->src.row_pitch = src_rp;
    c->src.slice_pitch = src_sp;
    c->row_bytes = row_bytes;
    c->rows = rows;
    c->slices = slices;
    umd_cmd_end(dev, c);
    return TRUE;
}

static UINT umd_min(UINT a, UINT b) { return a < b ? a : b; }

VOID APIENTRY umd_ResourceCopy(D3D10DDI_HDEVICE hDevice, D3D10DDI_HRESOURCE hDst, D3D10DDI_HRESOURCE hSrc)
{
    struct umd_device *dev = umd_device(hDevice);
    struct umd_resource *dst = umd_resource(hDst);
    struct umd_resource *src = umd_resource(hSrc);
    /* The runtime guarantees same type, dimensions and copy-compatible formats
     * (docs/semantics.md §4.4), so the layouts match subresource by subresource; min() keeps a
     * violated guarantee from reading or writing outside either allocation. */
    UINT n = umd_min(dst->subresource_count, src->subresource_count);
    for (UINT s = 0; s < n; s++) {
        const struct umd_subresource *d = &dst->sub[s], *r = &src->sub[s];
        umd_emit_copy(dev, dst, d->offset, d->row_pitch, d->depth_pitch, src, r->offset, r->row_pitch,
                      r->depth_pitch, umd_min(d->row_bytes, r->row_bytes), umd_min(d->rows, r->rows),
                      umd_min(d->depth, r->depth));
    }
}

VOID APIENTRY umd_ResourceCopyRegion(D3D10DDI_HDEVICE hDevice, D3D10DDI_HRESOURCE hDst, UINT DstSubresource,
                                     UINT DstX, UINT DstY, UINT DstZ, D3D10DDI_HRESOURCE hSrc, UINT SrcSubresource,
                                     const D3D10_DDI_BOX *pSrcBox)
{
    struct umd_device *dev = umd_device(hDevice);
    struct umd_resource *dst = umd_resource(hDst);
    struct umd_resource *src = umd_resource(hSrc);
    if (DstSubresource >= dst->subresource_count || SrcSubresource >= src->subresource_count) {
        UMD_REFUSE("CopyRegion: subresource %u / %u out of range", DstSubresource, SrcSubresource);
        return;
    }
    if (dst->bytes_per_elem != src->bytes_per_elem || dst->block_width != src->block_width ||
        umd_is_buffer_res(dst) != umd_is_buffer_res(src)) {
        UMD_REFUSE("CopyRegion: element sizes differ (%u vs %u bytes)", dst->bytes_per_elem, src->bytes_per_elem);
        return;
    }
    const struct umd_subresource *ds = &dst->sub[DstSubresource], *ss = &src->sub[SrcSubresource];

    /* Source box in texels (bytes for buffers), clipped to the source subresource. */
    struct umd_box bx;
    if (!umd_clip_box(ss, pSrcBox, &bx))
        return; /* empty box: no-op (docs/semantics.md §4.4) */
    INT64 l = bx.left, t = bx.top, f = bx.front, r = bx.right, b = bx.bottom, k = bx.back;

    /* Texels -> elements (4x4 blocks for BC; a box edge at the mip edge covers a partial block). */
    UINT bw = src->block_width, bh = src->block_height, bpe = src->bytes_per_elem;
    UINT sx = (UINT)l / bw, sy = (UINT)t / bh;
    UINT cols = (UINT)((r + bw - 1) / bw) - sx, rows = (UINT)((b + bh - 1) / bh) - sy, slices = (UINT)(k - f);
    UINT dx = DstX / bw, dy = DstY / bh;
    /* Clip to the destination subresource (the runtime validates; the GPU must never run
     * outside the allocation even if it did not). */
    UINT dcols = ds->row_bytes / bpe;
    if (dx >= dcols || dy >= ds->rows || DstZ >= ds->depth)
        return;
    cols = umd_min(cols, dcols - dx);
    rows = umd_min(rows, ds->rows - dy);
    slices = umd_min(slices, ds->depth - DstZ);

    UINT src_off = ss->offset + (UINT)f * ss->depth_pitch + sy * ss->row_pitch + sx * bpe;
    UINT dst_off = ds->offset + DstZ * ds->depth_pitch + dy * ds->row_pitch + dx * bpe;
    umd_emit_copy(dev, dst, dst_off, ds->row_pitch, ds->depth_pitch, src, src_off, ss->row_pitch, ss->depth_pitch,
                  cols * bpe, rows, slices);
}
