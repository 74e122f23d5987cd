/* update.c - ResourceUpdateSubresourceUP and DefaultConstantBufferUpdateSubresourceUP: the
 * application's data travels inline in SWGPU_OP_WRITE commands (split across commands and
 * command buffers when large, cmdbuf.c), so the call returns without waiting for the GPU and
 * the data no longer depends on the application's memory once queued (docs/semantics.md §4.4). */
#include "umd/umd.h"

VOID APIENTRY umd_ResourceUpdateSubresourceUP(D3D10DDI_HDEVICE hDevice, D3D10DDI_HRESOURCE hDst, UINT DstSubresource,
                                              const D3D10_DDI_BOX *pDstBox, const VOID *pSysMemUP, UINT RowPitch,
                                              UINT DepthPitch)
{
    struct umd_device *dev = umd_device(hDevice);
    struct umd_resource *res = umd_resource(hDst);
    if (DstSubresource >= res->subresource_count || !pSysMemUP) {
        UMD_REFUSE("UpdateSubresourceUP: subresource %u (of %u) or data pointer invalid", DstSubresource,
                   res->subresource_count);
        return;
    }
    const struct umd_subresource *sr = &res->sub[DstSubresource];
    BOOL buffer = res->dimension == D3D10DDIRESOURCE_BUFFER || res->dimension == D3D11DDIRESOURCE_BUFFEREX;

    /* Destination box in texels (bytes for buffers), clipped to the subresource. */
    struct umd_box bx;
    if (!umd_clip_box(sr, pDstBox, &bx))
        return; /* empty box: nothing to do */
    INT64 l = bx.left, t = bx.top, f = bx.front, r = bx.right, b = bx.bottom, k = bx.back;

    UINT bw = res->block_width, bh = res->block_height, bpe = res->bytes_per_elem;
    UINT x = (UINT)l / bw, y = (UINT)t / bh;
    UINT cols = (UINT)((r + bw - 1) / bw) - x, rows = (UINT)((b + bh - 1) / bh) - y, slices = (UINT)(k - f);
    UINT row_bytes = cols * bpe;
    /* Buffers are one row: the application's pitches do not apply (and may be 0). */
    UINT src_rp = buffer ? row_bytes : RowPitch;
    UINT src_sp = buffer ? row_bytes : DepthPitch;
    UINT off = sr->offset + (UINT)f * sr->depth_pitch + y * sr->row_pitch + x * bpe;
    (void)umd_emit_write(dev, res, off, sr->row_pitch, sr->depth_pitch, row_bytes, rows, slices, pSysMemUP, src_rp,
                         src_sp);
}
