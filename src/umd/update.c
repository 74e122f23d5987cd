/* update.c - ResourceUpdateSubresourceUP and DefaultConstantBufferUpdateSubresourceUP. The call
 * returns without waiting for the GPU, and the data no longer depends on the application's
 * memory once it returns (docs/semantics.md §4.4).
 *
 * Small updates travel inline in SWGPU_OP_WRITE commands (split across commands and command
 * buffers when large, cmdbuf.c). From UMD_UPDATE_UPLOAD_MIN bytes the data goes the way drivers
 * send it (issue 17 aim 3): the CPU copies it into a CPU-visible upload buffer, a piece of
 * UMD_UPLOAD_BYTES at a time, and a SWGPU_OP_COPY takes each piece into the resource. Each piece
 * maps the upload buffer with Discard, so VidMm (or, in renaming mode, the UMD) hands out a fresh
 * instance while the GPU still copies from the last one: the CPU fills the next piece while the
 * GPU copies the previous. Two passes over the bytes instead of three, and the application's
 * thread and the GPU engine share the work. A piece whose map or unmap fails is sent inline. */
#include "umd/umd.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>

void umd_update_device_fini(struct umd_device *dev)
{
    if (!dev->upload)
        return;
    umd_own_buffer_destroy(dev, dev->upload);
    free(dev->upload);
    dev->upload = NULL;
}

/* The upload buffer, made on first use (CPU-visible write-combined system memory, like a DYNAMIC
 * buffer); NULL when it cannot be made (the update then goes inline). */
static struct umd_resource *upload_buffer(struct umd_device *dev)
{
    if (dev->upload)
        return dev->upload;
    struct umd_resource *res = wddm_calloc(1, sizeof *res + sizeof(struct umd_subresource));
    if (!res)
        return NULL;
    if (FAILED(umd_own_buffer_create(dev, res, UMD_UPLOAD_BYTES, SWGPU_ALLOC_UPLOAD, D3D10_DDI_USAGE_DYNAMIC,
                                     D3D10_DDI_CPU_ACCESS_WRITE, TRUE))) {
        free(res);
        return NULL;
    }
    return dev->upload = res;
}

/* One piece of the box: into the upload buffer, packed, then a COPY into res; inline WRITE
 * commands when the upload buffer cannot be mapped. */
static BOOL send_piece(struct umd_device *dev, struct umd_resource *res, UINT dst_offset, UINT dst_row_pitch,
                       UINT dst_slice_pitch, UINT row_bytes, UINT rows, UINT slices, const BYTE *src,
                       UINT src_row_pitch, UINT src_slice_pitch)
{
    struct umd_resource *up = upload_buffer(dev);
    if (!up || FAILED(umd_map_begin(dev, up, D3D10_DDI_MAP_WRITE_DISCARD, 0)))
        return umd_emit_write(dev, res, dst_offset, dst_row_pitch, dst_slice_pitch, row_bytes, rows, slices, src,
                              src_row_pitch, src_slice_pitch);
    BYTE *out = up->lock_data;
    for (UINT z = 0; z < slices; z++)
        for (UINT y = 0; y < rows; y++, out += row_bytes)
            memcpy(out, src + (size_t)z * src_slice_pitch + (size_t)y * src_row_pitch, row_bytes);
    HRESULT hr = umd_map_end(dev, up);
    if (FAILED(hr)) {
        /* As an Unmap would: only a removed device is the application's to hear of. The bytes
         * still go, inline. */
        UMD_REFUSE("UpdateSubresourceUP: the upload buffer's unlock failed (0x%08x); sending inline", (unsigned)hr);
        if (hr == D3DDDIERR_DEVICEREMOVED)
            umd_set_error(dev, hr);
        return umd_emit_write(dev, res, dst_offset, dst_row_pitch, dst_slice_pitch, row_bytes, rows, slices, src,
                              src_row_pitch, src_slice_pitch);
    }
    dev->uploads++;
    return umd_emit_copy(dev, res, dst_offset, dst_row_pitch, dst_slice_pitch, up, 0, row_bytes, row_bytes * rows,
                         row_bytes, rows, slices);
}

/* The box in pieces of at most UMD_UPLOAD_BYTES: whole slices, else whole rows, else part of a
 * row (a large buffer is one row). */
static BOOL send_by_upload(struct umd_device *dev, struct umd_resource *res, UINT dst_offset, UINT dst_row_pitch,
                           UINT dst_slice_pitch, UINT row_bytes, UINT rows, UINT slices, const BYTE *src,
                           UINT src_row_pitch, UINT src_slice_pitch)
{
    UINT64 slice_bytes = (UINT64)row_bytes * rows;
    UINT x = 0, y = 0, z = 0; /* next byte / row / slice to send */
    while (z < slices) {
        const BYTE *s = src + (size_t)z * src_slice_pitch + (size_t)y * src_row_pitch + x;
        UINT off = dst_offset + z * dst_slice_pitch + y * dst_row_pitch + x;
        BOOL ok;
        if (x == 0 && y == 0 && slice_bytes <= UMD_UPLOAD_BYTES) {
            UINT n = (UINT)(UMD_UPLOAD_BYTES / slice_bytes);
            n = n < slices - z ? n : slices - z;
            ok = send_piece(dev, res, off, dst_row_pitch, dst_slice_pitch, row_bytes, rows, n, s, src_row_pitch,
                            src_slice_pitch);
            z += n;
        } else if (x == 0 && row_bytes <= UMD_UPLOAD_BYTES) {
            UINT n = UMD_UPLOAD_BYTES / row_bytes;
            n = n < rows - y ? n : rows - y;
            ok = send_piece(dev, res, off, dst_row_pitch, dst_slice_pitch, row_bytes, n, 1, s, src_row_pitch,
                            src_slice_pitch);
            y += n;
        } else {
            UINT n = row_bytes - x < UMD_UPLOAD_BYTES ? row_bytes - x : UMD_UPLOAD_BYTES;
            ok = send_piece(dev, res, off, dst_row_pitch, dst_slice_pitch, n, 1, 1, s, src_row_pitch,
                            src_slice_pitch);
            x += n;
            if (x == row_bytes) {
                x = 0;
                y++;
            }
        }
        if (!ok)
            return FALSE;
        if (y == rows) {
            y = 0;
            z++;
        }
        /* Each piece but the last goes to the GPU now, so it copies while the CPU fills the next
         * (the Discard map does not always submit: not in renaming mode, nor when the pieces
         * queued are few enough). */
        if (z < slices) {
            HRESULT hr = umd_flush(dev);
            if (FAILED(hr)) {
                umd_set_error(dev, hr);
                return FALSE;
            }
        }
    }
    return TRUE;
}

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
    if ((UINT64)row_bytes * rows * slices >= UMD_UPDATE_UPLOAD_MIN)
        (void)send_by_upload(dev, res, off, sr->row_pitch, sr->depth_pitch, row_bytes, rows, slices, pSysMemUP,
                             src_rp, src_sp);
    else
        (void)umd_emit_write(dev, res, off, sr->row_pitch, sr->depth_pitch, row_bytes, rows, slices, pSysMemUP,
                             src_rp, src_sp);
}
