/* suballoc.c - small DEFAULT buffers share pooled allocations (issue 3 "Create+destroy of 4 KiB
 * buffers"; docs/architecture.md "Buffer suballocation").
 *
 * What D3D11 drivers do for constant, vertex and index buffers: one pfnAllocateCb per chunk of
 * slots rather than per buffer. The chunk is an allocation like any other to VidMm (resident,
 * evicted, paged and, in the GpuMmu model, trimmed by the UMD as a whole); a suballocated
 * resource has no allocation of its own, and umd_cmd_address (cmdbuf.c) turns every address of
 * it into its chunk's at chunk_offset, so the allocation list names the chunk once per command
 * buffer however many of its buffers the commands use.
 *
 * Which resources: DEFAULT buffers of at most UMD_SUBALLOC_MAX_BYTES with no CPU access that
 * are not shared (umd_suballoc_wanted). Size classes are powers of two from 256 bytes; a chunk
 * holds 16 slots of its class, at least 64 KiB and at most 256 KiB (umd.h).
 *
 * A freed slot is reusable at once, with no fence: only the GPU ever touches these bytes
 * (no CPU access, so no Map; initial data and UpdateSubresource are GPU commands: WRITE,
 * cmdbuf.c, or a COPY out of the upload buffer, update.c),
 * and it does so only through commands of this device's one rendering context, which runs them
 * in submission order. Every command naming the next occupant of a slot is queued after every
 * command naming the last one, so it can neither be overtaken by an old read nor overwrite
 * bytes an old command still reads. The contents of a new slot are those of its last occupant
 * (D3D11: a buffer created without initial data has undefined contents).
 *
 * A chunk whose last slot is freed stays while it is its class's only empty chunk (a
 * create/destroy loop never reaches the kernel); a second empty chunk is freed with
 * pfnDeallocateCb, which VidMm defers until queued work naming it retired.
 *
 * WDDM_UMD_SUBALLOC=0 (read at CreateDevice) gives every buffer its own allocation again.
 * Threading: immediate-context calls only, serialised by the runtime (umd.h). */
#include "umd/umd.h"
#include "common/alloc.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define UMD_SLAB_SLOTS_MAX (UMD_SUBALLOC_CHUNK_MIN / UMD_SUBALLOC_MIN_BYTES) /* 256 */
#define UMD_SLAB_WORDS (UMD_SLAB_SLOTS_MAX / 64u)

struct umd_slab {
    struct umd_slab *prev, *next;  /* list_of(): dev->slabs[cls] or dev->slabs_full */
    UINT cls, slot_bytes, slots, used;
    UINT64 taken[UMD_SLAB_WORDS];  /* bit i: slot i holds a live buffer */
    /* The chunk's allocation, described as a one-subresource buffer (umd_own_buffer_create). */
    _Alignas(16) BYTE chunk[];
};

static struct umd_slab *slab_of(struct umd_resource *chunk)
{
    return (struct umd_slab *)((BYTE *)chunk - offsetof(struct umd_slab, chunk));
}

static struct umd_resource *chunk_of(struct umd_slab *s) { return (struct umd_resource *)s->chunk; }

static UINT class_of(UINT64 size)
{
    UINT cls = 0;
    while ((UINT64)UMD_SUBALLOC_MIN_BYTES << cls < size)
        cls++;
    return cls;
}

static UINT chunk_bytes(UINT slot_bytes)
{
    UINT b = slot_bytes * 16u;
    return b < UMD_SUBALLOC_CHUNK_MIN ? UMD_SUBALLOC_CHUNK_MIN : b > UMD_SUBALLOC_CHUNK_MAX ? UMD_SUBALLOC_CHUNK_MAX : b;
}

BOOL umd_suballoc_wanted(const struct umd_device *dev, const D3D11DDIARG_CREATERESOURCE *args, UINT64 size)
{
    /* Only what the GPU alone touches through this device's context (see the file comment). */
    const UINT misc_ok = D3D11_DDI_RESOURCE_MISC_DRAWINDIRECT_ARGS | D3D11_DDI_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS |
                         D3D11_DDI_RESOURCE_MISC_BUFFER_STRUCTURED;
    BOOL buffer = args->ResourceDimension == D3D10DDIRESOURCE_BUFFER ||
                  args->ResourceDimension == D3D11DDIRESOURCE_BUFFEREX;
    return dev->suballoc && buffer && args->Usage == D3D10_DDI_USAGE_DEFAULT && args->MapFlags == 0 &&
           (args->MiscFlags & ~misc_ok) == 0 && size > 0 && size <= UMD_SUBALLOC_MAX_BYTES;
}

/* The list a chunk is on: its class's while it has a free slot, else the device's full list. */
static struct umd_slab **list_of(struct umd_device *dev, const struct umd_slab *s)
{
    return s->used == s->slots ? &dev->slabs_full : &dev->slabs[s->cls];
}

static void list_unlink(struct umd_slab **head, struct umd_slab *s)
{
    if (s->prev)
        s->prev->next = s->next;
    else
        *head = s->next;
    if (s->next)
        s->next->prev = s->prev;
    s->prev = s->next = NULL;
}

static void list_push(struct umd_slab **head, struct umd_slab *s)
{
    s->prev = NULL;
    s->next = *head;
    if (s->next)
        s->next->prev = s;
    *head = s;
}

static HRESULT slab_create(struct umd_device *dev, UINT cls, struct umd_slab **out)
{
    struct umd_slab *s = wddm_malloc(sizeof *s + sizeof(struct umd_resource) + sizeof(struct umd_subresource));
    if (!s) {
        UMD_REFUSE("CreateResource: no host memory for a buffer pool chunk");
        return E_OUTOFMEMORY;
    }
    memset(s, 0, sizeof *s);
    s->cls = cls;
    s->slot_bytes = UMD_SUBALLOC_MIN_BYTES << cls;
    UINT bytes = chunk_bytes(s->slot_bytes);
    s->slots = bytes / s->slot_bytes;
    /* GPU-only, like the DEFAULT buffers it holds; on the GpuMmu residency list like them. */
    HRESULT hr = umd_own_buffer_create(dev, chunk_of(s), bytes, SWGPU_ALLOC_GPU_ONLY, D3D10_DDI_USAGE_DEFAULT, 0,
                                       TRUE);
    if (FAILED(hr)) {
        free(s);
        return hr;
    }
    dev->slab_count++;
    dev->slabs_empty[cls]++;
    list_push(&dev->slabs[cls], s);
    *out = s;
    return S_OK;
}

static void slab_destroy(struct umd_device *dev, struct umd_slab *s)
{
    list_unlink(list_of(dev, s), s);
    if (s->used == 0)
        dev->slabs_empty[s->cls]--;
    umd_own_buffer_destroy(dev, chunk_of(s));
    dev->slab_count--;
    free(s);
}

static UINT slot_take(struct umd_slab *s)
{
    for (UINT w = 0;; w++) {
        UINT64 free_bits = ~s->taken[w];
        if (w * 64u + 64u > s->slots) /* the last word: only `slots` bits exist */
            free_bits &= (1ull << (s->slots - w * 64u)) - 1u;
        if (free_bits) {
            UINT bit = (UINT)__builtin_ctzll(free_bits);
            s->taken[w] |= 1ull << bit;
            return w * 64u + bit;
        }
    }
}

HRESULT umd_suballoc(struct umd_device *dev, struct umd_resource *res)
{
    UINT cls = class_of(res->size);
    struct umd_slab *s = dev->slabs[cls]; /* every chunk on it has a free slot */
    if (!s) {
        HRESULT hr = slab_create(dev, cls, &s);
        if (FAILED(hr))
            return hr;
    }
    UINT slot = slot_take(s);
    if (s->used++ == 0)
        dev->slabs_empty[cls]--;
    if (s->used == s->slots) {
        list_unlink(&dev->slabs[cls], s);
        list_push(&dev->slabs_full, s);
    }
    res->chunk = chunk_of(s);
    res->chunk_offset = slot * s->slot_bytes;
    dev->suballocs++;
    return S_OK;
}

void umd_suballoc_free(struct umd_device *dev, struct umd_resource *res)
{
    struct umd_slab *s = slab_of(res->chunk);
    UINT slot = res->chunk_offset / s->slot_bytes;
    res->chunk = NULL;
    if (s->used == s->slots) {
        list_unlink(&dev->slabs_full, s);
        list_push(&dev->slabs[s->cls], s);
    }
    s->taken[slot / 64u] &= ~(1ull << (slot % 64u));
    if (--s->used == 0 && dev->slabs_empty[s->cls]++ > 0)
        slab_destroy(dev, s); /* the class already keeps an empty chunk */
}

void umd_suballoc_device_fini(struct umd_device *dev)
{
    /* The runtime destroyed every resource first; a full chunk left means one was not. */
    while (dev->slabs_full)
        slab_destroy(dev, dev->slabs_full);
    for (UINT c = 0; c < UMD_SUBALLOC_CLASSES; c++)
        while (dev->slabs[c])
            slab_destroy(dev, dev->slabs[c]);
}
