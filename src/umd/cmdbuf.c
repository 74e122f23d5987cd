/* cmdbuf.c - the command buffer, allocation list and patch-location list of the device's
 * rendering context, and their submission through pfnRenderCb (WDDM 1.x patching model,
 * docs/architecture.md "Submission path", docs/semantics.md §8.1, §9.1).
 *
 * Address convention (src/gpu/swgpu_isa.h, agreed with the KMD): for every address field the
 * UMD writes 0 into the field and records a D3DDDI_PATCHLOCATIONLIST entry with
 *   AllocationIndex  = the allocation's index in this buffer's allocation list,
 *   PatchOffset      = byte offset of the 64-bit field in the command buffer,
 *   AllocationOffset = the byte offset inside the allocation the field names;
 * DxgkDdiPatch then stores the allocation's segment address + AllocationOffset in the field.
 * Allocation-list entries are deduplicated per command buffer (one entry per allocation,
 * WriteOperation set if any command writes it), which VidMm's residency pass relies on
 * (docs/semantics.md §9.1).
 *
 * GpuMmu model (dev->gpuva, gpuva.c; issue 6): the same writers, no lists. umd_cmd_address is the
 * one place that decides what an address field holds: there it is the VA of the resource's
 * current allocation + offset (res->va follows renames, so a command list replayed later names
 * the allocation current at execution); the buffer is a slot of the UMD's own ring, submitted
 * with pfnSubmitCommandCb.
 */
#include "umd/umd.h"

#include <string.h>

/* GpuMmu model: submit the ring slot, signal the generation, move to the next slot. */
static HRESULT umd_flush_va(struct umd_device *dev)
{
    HRESULT hr = umd_va_submit(dev);
    dev->flushes++;
    if (FAILED(hr))
        UMD_REFUSE("flush: pfnSubmitCommandCb failed (0x%08x); %u bytes of commands dropped", (unsigned)hr,
                   (unsigned)dev->cmd_used);
    umd_rename_signal(dev, dev->cb_gen); /* the slot's stamp (rename.c, gpuva.c) */
    dev->cmd_used = 0;
    dev->queued_rename_bytes = 0;
    dev->cb_gen++;
    HRESULT nhr = umd_va_next_slot(dev);
    return FAILED(hr) ? hr : nhr;
}

HRESULT umd_flush(struct umd_device *dev)
{
    if (dev->cmd_used == 0)
        return S_OK;
    if (dev->gpuva)
        return umd_flush_va(dev);
    D3DDDICB_RENDER r = {
        .CommandLength = dev->cmd_used,
        .CommandOffset = 0,
        .NumAllocations = dev->alloc_used,
        .NumPatchLocations = dev->patch_used,
        .NewCommandBufferSize = dev->cmd_size,
        .NewAllocationListSize = dev->alloc_size,
        .NewPatchLocationListSize = dev->patch_size,
        .hContext = dev->hContext,
    };
    HRESULT hr = dev->kt.pfnRenderCb(dev->hRTDevice.handle, &r);
    dev->flushes++;
    if (FAILED(hr))
        UMD_REFUSE("flush: pfnRenderCb failed (0x%08x); %u bytes of commands dropped", (unsigned)hr,
                   (unsigned)dev->cmd_used);
    /* After pfnRenderCb the UMD must use the buffers it returns (the old ones belong to the
     * kernel now). Keep the old ones only if the runtime returned none (failure). */
    if (r.pNewCommandBuffer) {
        dev->cmd = r.pNewCommandBuffer;
        dev->cmd_size = r.NewCommandBufferSize;
    }
    if (r.pNewAllocationList) {
        dev->alloc_list = r.pNewAllocationList;
        dev->alloc_size = r.NewAllocationListSize;
    }
    if (r.pNewPatchLocationList) {
        dev->patch_list = r.pNewPatchLocationList;
        dev->patch_size = r.NewPatchLocationListSize;
    }
    /* UMD renaming: the fence value dev->cb_gen means "this buffer retired" (rename.c). */
    if (dev->renaming)
        umd_rename_signal(dev, dev->cb_gen);
    /* Either submitted or dropped: nothing is queued any more, and every resource's
     * allocation-list index is stale. */
    dev->cmd_used = 0;
    dev->alloc_used = 0;
    dev->patch_used = 0;
    dev->queued_rename_bytes = 0;
    dev->cb_gen++;
    return hr;
}

static BOOL umd_cmd_fits(const struct umd_device *dev, UINT bytes, UINT allocs, UINT patches)
{
    if (dev->gpuva) /* no lists: only the buffer's room counts */
        return dev->cmd && (UINT64)dev->cmd_used + bytes <= dev->cmd_size;
    return dev->cmd && (UINT64)dev->cmd_used + bytes <= dev->cmd_size &&
           (UINT64)dev->alloc_used + allocs <= dev->alloc_size &&
           (UINT64)dev->patch_used + patches <= dev->patch_size;
}

void *umd_cmd_begin(struct umd_device *dev, UINT bytes, UINT allocs, UINT patches)
{
    if (!umd_cmd_fits(dev, bytes, allocs, patches)) {
        /* Full: submit and continue in the new buffer (docs/semantics.md §8.1 "a full buffer"). */
        HRESULT hr = umd_flush(dev);
        if (FAILED(hr)) {
            umd_set_error(dev, hr);
            return NULL;
        }
        if (!umd_cmd_fits(dev, bytes, allocs, patches)) {
            UMD_REFUSE("command of %u bytes / %u allocations / %u patches does not fit an empty command buffer "
                       "(%u bytes / %u / %u)", bytes, allocs, patches, dev->cmd_size, dev->alloc_size, dev->patch_size);
            umd_set_error(dev, E_OUTOFMEMORY);
            return NULL;
        }
    }
    void *cmd = dev->cmd + dev->cmd_used;
    /* Zero the fixed part only (every command struct is at most a FILL); a WRITE's payload is
     * overwritten by the data, and its padding is zeroed by umd_write_one. */
    memset(cmd, 0, bytes < sizeof(struct swgpu_cmd_fill) ? bytes : sizeof(struct swgpu_cmd_fill));
    return cmd;
}

void umd_cmd_end(struct umd_device *dev, void *cmd)
{
    dev->cmd_used += ((const struct swgpu_cmd_header *)cmd)->size_bytes;
}

/* The allocation's index in the current allocation list, adding it on first use. O(1):
 * res->cb_gen tells whether res is already in this buffer's list. */
static UINT umd_cmd_ref(struct umd_device *dev, struct umd_resource *res, BOOL write)
{
    /* After a Discard rename the resource names a new instance: a new entry (map.c). */
    if (res->cb_gen == dev->cb_gen && dev->alloc_list[res->cb_index].hAllocation == res->hAllocation) {
        if (write)
            dev->alloc_list[res->cb_index].WriteOperation = 1;
        return res->cb_index;
    }
    UINT idx = dev->alloc_used++;
    D3DDDI_ALLOCATIONLIST *e = &dev->alloc_list[idx];
    e->hAllocation = res->hAllocation;
    e->Value = 0;
    e->WriteOperation = write ? 1 : 0;
    res->cb_gen = dev->cb_gen;
    res->cb_index = idx;
    return idx;
}

void umd_cmd_address(struct umd_device *dev, void *cmd, UINT64 *field, struct umd_resource *res, UINT offset,
                     BOOL write)
{
    if (res->chunk) {
        /* A suballocated buffer (suballoc.c): its bytes are its chunk's. The chunk is what the
         * allocation list (once per buffer) and the residency list hold. The buffer's own stamp
         * keeps umd_is_queued meaningful for it. */
        res->cb_gen = dev->cb_gen;
        offset += res->chunk_offset;
        res = res->chunk;
    }
    if (dev->gpuva) {
        /* WDDM 2.x GpuMmu (issue 6): the field holds the GPU VA itself; no allocation-list or
         * patch entry. The stamp still marks the allocation as used by this generation
         * (renaming, ResourceIsStagingBusy, destruction flush). */
        (void)write;
        /* The UMD owns residency (gpuva.c): what a command names is resident when submitted. */
        if (res->evicted && FAILED(umd_va_ensure_resident(dev, res))) {
            UMD_REFUSE("command names a resource that cannot be made resident: every other one is in use");
            umd_set_error(dev, E_OUTOFMEMORY);
        }
        res->cb_gen = dev->cb_gen;
        *field = res->va + offset;
        return;
    }
    UINT idx = umd_cmd_ref(dev, res, write);
    D3DDDI_PATCHLOCATIONLIST *p = &dev->patch_list[dev->patch_used++];
    memset(p, 0, sizeof *p);
    p->AllocationIndex = idx;
    p->AllocationOffset = offset;
    p->PatchOffset = (UINT)((BYTE *)field - dev->cmd);
    *field = 0; /* the KMD writes segment address + AllocationOffset here */
}

/* Payload bytes a WRITE command could carry in what is left of the current buffer. */
static UINT umd_write_room(const struct umd_device *dev)
{
    if (!dev->cmd)
        return 0;
    if (!dev->gpuva && (dev->alloc_used + 1 > dev->alloc_size || dev->patch_used + 1 > dev->patch_size))
        return 0;
    UINT left = dev->cmd_size - dev->cmd_used;
    if (left <= sizeof(struct swgpu_cmd_write))
        return 0;
    return (left - (UINT)sizeof(struct swgpu_cmd_write)) & ~7u;
}

/* Below this a byte-split chunk is not worth a command: flush and start a fresh buffer. */
#define UMD_MIN_WRITE_CHUNK 256u

static BOOL umd_write_one(struct umd_device *dev, struct umd_resource *res, UINT dst_offset, UINT dst_row_pitch,
                          UINT dst_slice_pitch, UINT row_bytes, UINT rows, UINT slices, const BYTE *src,
                          UINT src_row_pitch, UINT src_slice_pitch)
{
    UINT payload = row_bytes * rows * slices; /* bounded by umd_write_room */
    UINT bytes = (UINT)sizeof(struct swgpu_cmd_write) + swgpu_align8(payload);
    struct swgpu_cmd_write *w = umd_cmd_begin(dev, bytes, 1, 1);
    if (!w)
        return FALSE;
    w->hdr.opcode = SWGPU_OP_WRITE;
    w->hdr.size_bytes = bytes;
    umd_cmd_address(dev, w, &w->dst.addr, res, dst_offset, TRUE);
    w->dst.row_pitch = dst_row_pitch;
    w->dst.slice_pitch = dst_slice_pitch;
    w->row_bytes = row_bytes;
    w->rows = rows;
    w->slices = slices;
    BYTE *out = (BYTE *)(w + 1);
    memset((BYTE *)w + bytes - 8, 0, 8); /* the align8 padding: deterministic DMA contents */
    for (UINT z = 0; z < slices; z++)
        for (UINT y = 0; y < rows; y++, out += row_bytes)
            memcpy(out, src + (size_t)z * src_slice_pitch + (size_t)y * src_row_pitch, row_bytes);
    umd_cmd_end(dev, w);
    return TRUE;
}

BOOL umd_emit_write(struct umd_device *dev, struct umd_resource *res, UINT dst_offset, UINT dst_row_pitch,
                    UINT dst_slice_pitch, UINT row_bytes, UINT rows, UINT slices, const BYTE *src,
                    UINT src_row_pitch, UINT src_slice_pitch)
{
    if (!row_bytes || !rows || !slices)
        return TRUE;
    UINT64 slice_bytes = (UINT64)row_bytes * rows;
    UINT x = 0, y = 0, z = 0; /* next byte / row / slice to send */
    BOOL fresh = FALSE;       /* the buffer was just flushed: no point flushing again */
    while (z < slices) {
        UINT room = umd_write_room(dev);
        const BYTE *s = src + (size_t)z * src_slice_pitch + (size_t)y * src_row_pitch + x;
        UINT off = dst_offset + z * dst_slice_pitch + y * dst_row_pitch + x;
        if (x == 0 && y == 0 && slice_bytes <= room) {
            /* Whole slices. */
            UINT n = (UINT)(room / slice_bytes);
            if (n > slices - z)
                n = slices - z;
            if (!umd_write_one(dev, res, off, dst_row_pitch, dst_slice_pitch, row_bytes, rows, n, s, src_row_pitch,
                               src_slice_pitch))
                return FALSE;
            z += n;
        } else if (x == 0 && row_bytes <= room) {
            /* Whole rows of the current slice. */
            UINT n = room / row_bytes;
            if (n > rows - y)
                n = rows - y;
            if (!umd_write_one(dev, res, off, dst_row_pitch, dst_slice_pitch, row_bytes, n, 1, s, src_row_pitch,
                               src_slice_pitch))
                return FALSE;
            y += n;
        } else if (room >= UMD_MIN_WRITE_CHUNK || (room && room >= row_bytes - x) || (fresh && room)) {
            /* Part of one row (a large buffer is one row). */
            UINT n = row_bytes - x;
            if (n > room)
                n = room;
            if (!umd_write_one(dev, res, off, dst_row_pitch, dst_slice_pitch, n, 1, 1, s, src_row_pitch,
                               src_slice_pitch))
                return FALSE;
            x += n;
            if (x == row_bytes) {
                x = 0;
                y++;
            }
        } else {
            if (fresh) {
                UMD_REFUSE("write: the command buffer (%u bytes) cannot hold a WRITE command", dev->cmd_size);
                umd_set_error(dev, E_OUTOFMEMORY);
                return FALSE;
            }
            HRESULT hr = umd_flush(dev);
            if (FAILED(hr)) {
                umd_set_error(dev, hr);
                return FALSE;
            }
            fresh = TRUE;
            continue;
        }
        fresh = FALSE;
        if (y == rows) {
            y = 0;
            z++;
        }
    }
    return TRUE;
}
