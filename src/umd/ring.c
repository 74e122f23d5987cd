/* ring.c - the upload ring: small DYNAMIC buffers are slices of a few large upload allocations
 * the UMD keeps locked (issue 17 aim 3; docs/architecture.md "The upload ring").
 *
 * A Map(WRITE_DISCARD) of a DYNAMIC buffer must hand out memory the GPU no longer reads while
 * the commands already queued keep the old contents (docs/semantics.md §3.3). Asking the kernel
 * for it on every Map - a Discard lock VidMm renames, or the UMD's own renaming with an
 * allocation per instance - costs two kernel calls per Map, which is the whole cost of a small
 * upload. What D3D11 drivers do instead (and D3D12 translation layers, as "upload heaps"): the
 * buffer's bytes are a slice of a large upload allocation, and a discard just takes the next
 * slice. Here:
 *  - a chunk is an upload allocation of UMD_RING_CHUNK_BYTES (CPU-visible, write-combined, like a
 *    DYNAMIC buffer's own), locked once when made and kept locked for its life. The GPU may read
 *    a locked allocation that lives in system or aperture memory (docs/semantics.md §3.2 rule
 *    13, §4.3 "Dynamic resources ... the UMD can keep them locked"), and VidMm never evicts it
 *    while locked;
 *  - a ring-backed buffer (umd_ring_wanted: DYNAMIC, at most UMD_RING_MAX_BYTES) has no
 *    allocation of its own: res->chunk and res->chunk_offset name its current slice, which
 *    umd_cmd_address (cmdbuf.c) turns into the chunk's address as for a pooled DEFAULT buffer;
 *  - Map(WRITE_DISCARD) takes a fresh slice from the current chunk: no kernel call. The old
 *    slice is abandoned; commands queued before keep reading it;
 *  - Map(WRITE_NOOVERWRITE) returns the current slice (the application's promise);
 *  - any other map type (a D3D11 runtime lets none through for DYNAMIC) waits until the GPU is
 *    done with the whole chunk;
 *  - when the current chunk is full, the open command buffer is submitted (it names the chunk, so
 *    the GPU copies out of it while the CPU fills the next - the cadence of
 *    UMD_RENAMED_BYTES_PER_FLUSH) and the ring moves to the oldest chunk no buffer lives in
 *    (`live` 0) once the GPU is done with it: in the WDDM 1.x model a second, nested lock of it
 *    with DonotWait asks VidMm (implicit synchronisation), in renaming mode the device's
 *    monitored fence says (rename.c). If it is still busy a new chunk is made, up to
 *    UMD_RING_CHUNKS; at the bound the CPU waits for it (DXGI_DDI_ERR_WASSTILLDRAWING with
 *    DONOTWAIT). Chunks are taken in a circle, so when the oldest free one is busy the later
 *    ones are too, and one look suffices.
 * A buffer that is never discarded keeps its chunk from being reused; when every chunk holds
 * one, a new chunk is made past the bound, so the memory is bounded by the live buffers, as a
 * buffer's own allocation would be. Chunks are freed with the device.
 *
 * WDDM_UMD_RING=0 (read at CreateDevice) gives every DYNAMIC buffer its own allocation again
 * (VidMm's renaming in the 1.x model, rename.c's in renaming mode).
 * Threading: immediate-context calls only, serialised by the runtime (umd.h). */
#include "umd/umd.h"
#include "common/alloc.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct umd_ring_chunk {
    struct umd_ring_chunk *next;  /* a circle in the order the chunks are taken (dev->dyn_ring_cur) */
    UINT head;                    /* bytes handed out since it was last taken */
    UINT live;                    /* ring-backed buffers whose current slice is in it */
    /* The chunk's allocation, described as a one-subresource buffer (umd_own_buffer_create). */
    _Alignas(16) BYTE res[];
};

static struct umd_resource *res_of(struct umd_ring_chunk *c) { return (struct umd_resource *)c->res; }

static struct umd_ring_chunk *chunk_of(struct umd_resource *r)
{
    return (struct umd_ring_chunk *)((BYTE *)r - offsetof(struct umd_ring_chunk, res));
}

BOOL umd_ring_wanted(const struct umd_device *dev, const D3D11DDIARG_CREATERESOURCE *args, UINT64 size)
{
    const UINT misc_ok = D3D11_DDI_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS | D3D11_DDI_RESOURCE_MISC_BUFFER_STRUCTURED;
    BOOL buffer = args->ResourceDimension == D3D10DDIRESOURCE_BUFFER ||
                  args->ResourceDimension == D3D11DDIRESOURCE_BUFFEREX;
    return dev->dyn_ring && buffer && args->Usage == D3D10_DDI_USAGE_DYNAMIC && (args->MiscFlags & ~misc_ok) == 0 &&
           size > 0 && size <= UMD_RING_MAX_BYTES;
}

/* The chunk's one lock, kept for its life: pfnLockCb (a plain write lock; nothing has used the
 * new allocation, so VidMm does not wait) or, in renaming mode, pfnLock2Cb. */
static HRESULT chunk_lock(struct umd_device *dev, struct umd_resource *r)
{
    HRESULT hr;
    void *data;
    if (dev->renaming) {
        D3DDDICB_LOCK2 l2 = { .hAllocation = r->hAllocation };
        hr = dev->kt.pfnLock2Cb(dev->hRTDevice.handle, &l2);
        data = l2.pData;
    } else {
        D3DDDICB_LOCK l = { .hAllocation = r->hAllocation, .Flags = { .WriteOnly = 1 } };
        hr = dev->kt.pfnLockCb(dev->hRTDevice.handle, &l);
        data = l.pData;
    }
    if (FAILED(hr))
        return hr;
    r->lock_data = data;
    r->lock_count = 1;
    return S_OK;
}

static void chunk_destroy(struct umd_device *dev, struct umd_ring_chunk *c)
{
    struct umd_resource *r = res_of(c);
    if (r->lock_count)
        (void)umd_map_end(dev, r);
    r->lock_count = 0;
    umd_own_buffer_destroy(dev, r);
    dev->dyn_ring_count--;
    free(c);
}

/* A new chunk, locked, placed after the current one in the circle (it becomes the newest). */
static HRESULT chunk_create(struct umd_device *dev, struct umd_ring_chunk **out)
{
    struct umd_ring_chunk *c = wddm_malloc(sizeof *c + sizeof(struct umd_resource) + sizeof(struct umd_subresource));
    if (!c) {
        UMD_REFUSE("upload ring: no host memory for a chunk");
        return E_OUTOFMEMORY;
    }
    memset(c, 0, sizeof *c);
    /* Not on the GpuMmu residency list: a locked allocation is not the UMD's to trim. */
    HRESULT hr = umd_own_buffer_create(dev, res_of(c), UMD_RING_CHUNK_BYTES, SWGPU_ALLOC_UPLOAD,
                                       D3D10_DDI_USAGE_DYNAMIC, D3D10_DDI_CPU_ACCESS_WRITE, FALSE);
    if (FAILED(hr)) {
        free(c);
        return hr;
    }
    dev->dyn_ring_count++;
    hr = chunk_lock(dev, res_of(c));
    if (FAILED(hr)) {
        UMD_REFUSE("upload ring: locking a new chunk failed (0x%08x)", (unsigned)hr);
        chunk_destroy(dev, c);
        return hr;
    }
    if (dev->dyn_ring_cur) {
        c->next = dev->dyn_ring_cur->next;
        dev->dyn_ring_cur->next = c;
    } else {
        c->next = c;
    }
    *out = c;
    return S_OK;
}

/* S_OK once the GPU is done with every command naming the chunk (waiting for it unless
 * donotwait: in the WDDM 1.x model VidMm's implicit synchronisation answers, in renaming mode
 * the device's monitored fence), DXGI_DDI_ERR_WASSTILLDRAWING while it is not and donotwait, or
 * the error. */
static HRESULT chunk_idle(struct umd_device *dev, struct umd_ring_chunk *c, BOOL donotwait)
{
    dev->dyn_ring_waits += !donotwait;
    return umd_map_wait_idle(dev, res_of(c), (D3DDDICB_LOCKFLAGS){ .WriteOnly = 1 }, donotwait);
}

/* The current chunk has no room left: move to the next one (see the file comment). */
static HRESULT ring_advance(struct umd_device *dev, BOOL donotwait)
{
    struct umd_ring_chunk *cur = dev->dyn_ring_cur, *next = NULL;
    HRESULT hr;
    if (cur && umd_is_queued(dev, res_of(cur))) {
        hr = umd_flush(dev);
        if (FAILED(hr))
            return hr;
    }
    for (struct umd_ring_chunk *c = cur ? cur->next : NULL; c; c = c == cur ? NULL : c->next)
        if (c->live == 0) {
            next = c;
            break;
        }
    hr = next ? chunk_idle(dev, next, TRUE) : DXGI_DDI_ERR_WASSTILLDRAWING;
    if (hr == DXGI_DDI_ERR_WASSTILLDRAWING && (dev->dyn_ring_count < UMD_RING_CHUNKS || !next))
        hr = chunk_create(dev, &next); /* every chunk busy below the bound, or every one lived in */
    else if (hr == DXGI_DDI_ERR_WASSTILLDRAWING && !donotwait)
        hr = chunk_idle(dev, next, FALSE);
    if (FAILED(hr))
        return hr;
    next->head = 0;
    dev->dyn_ring_cur = next;
    dev->dyn_ring_switches++;
    return S_OK;
}

/* A fresh slice of the current chunk for res (its old one, if any, is let go after). */
static HRESULT slice_take(struct umd_device *dev, struct umd_resource *res, BOOL donotwait)
{
    UINT bytes = (UINT)((res->size + UMD_RING_ALIGN - 1u) & ~(UINT64)(UMD_RING_ALIGN - 1u));
    if (!dev->dyn_ring_cur || dev->dyn_ring_cur->head + bytes > UMD_RING_CHUNK_BYTES) {
        HRESULT hr = ring_advance(dev, donotwait);
        if (FAILED(hr))
            return hr;
    }
    if (res->chunk)
        chunk_of(res->chunk)->live--;
    struct umd_ring_chunk *c = dev->dyn_ring_cur;
    res->chunk = res_of(c);
    res->chunk_offset = c->head;
    c->head += bytes;
    c->live++;
    dev->dyn_ring_slices++;
    return S_OK;
}

HRESULT umd_ring_place(struct umd_device *dev, struct umd_resource *res)
{
    HRESULT hr = slice_take(dev, res, FALSE);
    if (FAILED(hr))
        UMD_REFUSE("CreateResource: no slice of the upload ring for a DYNAMIC buffer (0x%08x)", (unsigned)hr);
    return hr;
}

HRESULT umd_ring_map(struct umd_device *dev, struct umd_resource *res, D3D10_DDI_MAP map, UINT flags, BYTE **data)
{
    BOOL donotwait = (flags & D3D10_DDI_MAP_FLAG_DONOTWAIT) != 0;
    HRESULT hr = S_OK;
    if (map == D3D10_DDI_MAP_WRITE_DISCARD)
        hr = slice_take(dev, res, donotwait);
    else if (map != D3D10_DDI_MAP_WRITE_NOOVERWRITE)
        hr = chunk_idle(dev, chunk_of(res->chunk), donotwait);
    if (FAILED(hr)) {
        if (hr != DXGI_DDI_ERR_WASSTILLDRAWING && hr != D3DDDIERR_DEVICEREMOVED && hr != E_OUTOFMEMORY)
            UMD_REFUSE("Map: the upload ring failed (0x%08x)", (unsigned)hr);
        return hr;
    }
    *data = res->chunk->lock_data + res->chunk_offset;
    return S_OK;
}

void umd_ring_free(struct umd_device *dev, struct umd_resource *res)
{
    (void)dev;
    chunk_of(res->chunk)->live--;
    res->chunk = NULL;
}

void umd_ring_device_fini(struct umd_device *dev)
{
    while (dev->dyn_ring_cur) {
        struct umd_ring_chunk *c = dev->dyn_ring_cur->next;
        if (c == dev->dyn_ring_cur)
            dev->dyn_ring_cur = NULL;
        else
            dev->dyn_ring_cur->next = c->next;
        chunk_destroy(dev, c);
    }
}
