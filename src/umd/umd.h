/* umd.h - the reference user-mode driver's private interface (src/umd/).
 *
 * The UMD sits between the D3D11 runtime (which calls the D3D10/11 DDI tables it fills in,
 * include/wddm/d3d10umddi.h) and the runtime callbacks that reach the kernel
 * (include/wddm/d3dumddi.h). It gets memory only through pfnAllocateCb and CPU pointers only
 * through pfnLockCb (docs/architecture.md "The house"), and writes GPU work in the software GPU's
 * command format (src/gpu/swgpu_isa.h) into the command buffer the kernel handed it.
 *
 * Threading: the UMD reports command lists but not free-threaded creates
 * (D3D11DDICAPS_COMMANDLISTS | _BUILD_2, deferred.c), so the runtime serialises every call
 * into the immediate context with its device lock; no field below has its own lock. A deferred
 * context is driven by one thread and touches only its own memory plus the read-only blocks
 * (umd_resource_ro), which are written once at creation (deferred.c).
 *
 * Handle memory: struct umd_device, umd_resource and umd_rtv live in memory the runtime
 * allocated with the size the matching CalcPrivate*Size returned (seed 001 §3,
 * docs/semantics.md §4.1); the UMD itself never mallocs on the immediate context's resource or
 * map paths, which is what keeps CreateResource/DestroyResource and Map/Unmap cheap (three
 * exceptions: a buffer pool's chunk header, once per 16 buffers at most (suballoc.c), an upload
 * ring chunk's, once per 1 MiB chunk the ring grows by (ring.c), and deferred-context
 * recording: a command list grows with every call, seed 004).
 */
#ifndef WDDM_UMD_UMD_H
#define WDDM_UMD_UMD_H

#include "wddm/d3d10umddi.h"
#include "drv/swgpu_private.h"
#include "gpu/swgpu_isa.h"
#include "common/debug.h"
#include "common/format.h"

/* One refusal line (docs/architecture.md "Errors and bad input"): "wddm: umd: <rule>". */
#define UMD_REFUSE(...) wddm_debug("umd", __VA_ARGS__)

/* Row pitch alignment when the KMD does not say (seed 001 §7.2: Align(width_in_bytes, 256)). */
#define UMD_DEFAULT_ROW_PITCH_ALIGNMENT 256u

/* ---- adapter.c -------------------------------------------------------------------------------- */
struct umd_adapter {
    D3D10DDI_HRTADAPTER hRTAdapter;
    D3DDDI_ADAPTERCALLBACKS callbacks;     /* copied: the runtime's table may be on its stack */
    struct swgpu_umd_adapter_info info;    /* DXGKQAITYPE_UMDRIVERPRIVATE, read at open */
};

/* ---- gpuva.c: the command ring of the GpuMmu model ------------------------------------------- */
/* Command buffers are the UMD's own allocations (docs/semantics.md §3.3 "WDDM 2.x"): a small ring of
 * CPU-visible, mapped, resident allocations, each locked once with pfnLock2Cb. A slot is written
 * again only after the monitored fence passed the generation submitted from it (`stamp`). */
#define UMD_VA_RING_SLOTS 4u          /* created with the device */
#define UMD_VA_RING_MAX 256u          /* grown to while the GPU lags (then the CPU waits) */
#define UMD_VA_SLOT_BYTES (64u * 1024u)
/* IMMUTABLE resources whose writable upload mapping waits to be freed (gpuva.c). */
#define UMD_VA_UPLOAD_PENDING 32u
struct umd_cmd_slot {
    D3DKMT_HANDLE hAllocation;
    D3DGPU_VIRTUAL_ADDRESS va;             /* read-only GPU mapping: the engine only fetches it */
    BYTE *cpu;                             /* pfnLock2Cb's pointer, held for the slot's life */
    UINT64 stamp;                          /* generation last submitted from it (0: never) */
};

/* ---- device.c --------------------------------------------------------------------------------- */
/* ---- suballoc.c: the bounds (functions below) ---------------------------------------------- */
/* Buffers of at most UMD_SUBALLOC_MAX_BYTES take a slot of a size class (a power of two from
 * UMD_SUBALLOC_MIN_BYTES) in a chunk allocation of that class (docs/architecture.md "Buffer
 * suballocation"). */
#define UMD_SUBALLOC_MIN_BYTES 256u
#define UMD_SUBALLOC_MAX_BYTES (64u * 1024u)
#define UMD_SUBALLOC_CLASSES 9u                /* 256 B .. 64 KiB */
#define UMD_SUBALLOC_CHUNK_MIN (64u * 1024u)   /* a chunk: 16 slots, at least 64 KiB, */
#define UMD_SUBALLOC_CHUNK_MAX (256u * 1024u)  /*   at most 256 KiB (so 4 slots of 64 KiB) */
struct umd_slab;
/* ---- ring.c: the bounds (functions below) ----------------------------------------------------- */
/* DYNAMIC buffers of at most UMD_RING_MAX_BYTES are slices, UMD_RING_ALIGN-aligned, of chunks of
 * UMD_RING_CHUNK_BYTES the UMD keeps locked (docs/architecture.md "The upload ring"). A full chunk
 * submits the open buffer: 1 MiB per DMA buffer, as UMD_RENAMED_BYTES_PER_FLUSH. UMD_RING_CHUNKS
 * are made before the CPU waits for the oldest: enough for the GPU to lag a few DMA buffers. */
#define UMD_RING_MAX_BYTES (64u * 1024u)
#define UMD_RING_ALIGN 256u                    /* a constant buffer's alignment, and a cache line's */
#define UMD_RING_CHUNK_BYTES (1024u * 1024u)
#define UMD_RING_CHUNKS 8u
struct umd_ring_chunk;

struct umd_device {
    struct umd_adapter *adapter;
    D3D10DDI_HRTDEVICE hRTDevice;          /* hDevice of every D3DDDI callback */
    D3DDDI_DEVICECALLBACKS kt;             /* pKTCallbacks, copied (one indirection less per call) */
    D3D10DDI_HRTCORELAYER hRTCoreLayer;
    PFND3D10DDI_SETERROR_CB pfnSetErrorCb; /* p11UMCallbacks->pfnSetErrorCb */
    UINT ddi_interface;                    /* D3D10DDIARG_CREATEDEVICE.Interface: which tables it filled */
    UINT row_pitch_alignment;

    /* The rendering context (pfnCreateContextCb on the adapter's render node) and the
     * buffers the kernel handed out for it; replaced after every pfnRenderCb. */
    HANDLE hContext;
    BOOL context_created;
    BYTE *cmd;                             /* command buffer */
    UINT cmd_size;
    UINT cmd_used;                         /* bytes of commands written */
    D3DDDI_ALLOCATIONLIST *alloc_list;
    UINT alloc_size;
    UINT alloc_used;
    D3DDDI_PATCHLOCATIONLIST *patch_list;
    UINT patch_size;
    UINT patch_used;
    /* Generation of the command buffer being filled: bumped by every flush. A resource whose
     * cb_gen equals it is in the current allocation list at cb_index (O(1) deduplication and
     * "is it referenced by unflushed work" test, no list scan). */
    UINT64 cb_gen;
    UINT64 flushes;                        /* pfnRenderCb calls made (tests, debugging) */
    UINT64 queued_rename_bytes;            /* bytes of the resources this buffer names that a
                                              Discard lock renamed without a flush (map.c) */

    /* UMD renaming (rename.c; docs/semantics.md §3.3 "WDDM 2.x", issue 3). The monitored fence's
     * value N means "the command buffer of generation N retired": umd_flush signals it from the
     * GPU with the generation it submitted, so a resource's cb_gen is its allocation's stamp. */
    BOOL renaming;                         /* the UMD renames and synchronises itself */
    D3DKMT_HANDLE hFence;                  /* the rendering context's monitored fence */
    const void *fence_cpu;                 /* its read-only CPU mapping (an UINT64) */
    UINT64 signalled_gen;                  /* the highest generation whose GPU signal the kernel
                                              took (a failed one is covered by a later one) */
    UINT rename_max_instances;             /* per resource, current one included */
    UINT64 rename_bytes;                   /* bytes of this device's extra pool instances */

    /* WDDM 2.x GpuMmu model (gpuva.c; docs/semantics.md §3.3 "WDDM 2.x", §9.2; issue 6): no
     * allocation or patch list; `cmd` is the current slot of the UMD's own command ring. */
    BOOL gpuva;                            /* adapter info says gpummu or iommu: commands carry VAs */
    BOOL iommu;                            /* ... iommu: a VA is the CPU's pointer, nothing is mapped */
    struct umd_resource *residency;        /* GpuMmu: resources the UMD may trim (gpuva.c) */
    D3DKMT_HANDLE hPagingQueue;            /* pfnCreatePagingQueueCb: Map/MakeResident go here */
    D3DKMT_HANDLE hPagingFence;            /*   ... its monitored fence */
    const void *paging_fence_cpu;          /*   ... read-only CPU view of its value (UINT64) */
    UINT64 paging_fence_pending;           /* highest PagingFenceValue not yet waited for */
    UINT64 paging_gpu_waited;              /* highest paging value a GPU wait was queued for */
    struct umd_cmd_slot ring[UMD_VA_RING_MAX];
    UINT ring_cur;                         /* the slot `cmd` points into */
    UINT ring_count;                       /* slots created */
    struct umd_resource *upload_pending[UMD_VA_UPLOAD_PENDING]; /* IMMUTABLE upload VAs to free */
    UINT upload_pending_count;

    /* Buffer suballocation (suballoc.c). */
    BOOL suballoc;                         /* on (WDDM_UMD_SUBALLOC=0 turns it off) */
    struct umd_slab *slabs[UMD_SUBALLOC_CLASSES]; /* per size class: chunks with a free slot */
    struct umd_slab *slabs_full;           /* chunks with none, every class */
    UINT slabs_empty[UMD_SUBALLOC_CLASSES]; /* chunks with no live buffer (at most one kept) */
    UINT slab_count;                       /* chunks allocated now */
    UINT64 suballocs;                      /* slots handed out (tests, debugging) */

    /* The upload ring (ring.c). */
    BOOL dyn_ring;                         /* on (WDDM_UMD_RING=0 turns it off) */
    struct umd_ring_chunk *dyn_ring_cur;   /* the chunk slices come from; NULL before the first */
    UINT dyn_ring_count;                   /* chunks allocated now */
    UINT64 dyn_ring_slices, dyn_ring_switches, dyn_ring_waits; /* slices taken, chunks moved to,
                                              waits for a chunk (tests, debugging) */

    /* Large UpdateSubresource data goes through this CPU-visible buffer and a GPU copy (update.c);
     * made at the first such update, NULL before. */
    struct umd_resource *upload;
    UINT64 uploads;                        /* pieces sent that way (tests, debugging) */
};

/* ---- layout.c --------------------------------------------------------------------------------- */
/* Linear layout of one subresource inside the resource's single allocation (seed 001 §4.3, §7). */
struct umd_subresource {
    UINT offset;        /* bytes from the start of the allocation */
    UINT row_pitch;     /* align(row_bytes, 256); buffers: ByteWidth */
    UINT depth_pitch;   /* row_pitch * rows; buffers: ByteWidth */
    UINT row_bytes;     /* bytes of one row of blocks/texels actually used */
    UINT rows;          /* rows of blocks (BC) or texels */
    UINT depth;         /* slices (3-D textures), else 1 */
    UINT width;         /* texels (buffers: bytes) */
    UINT height;        /* texels */
};

/* A box in texels (bytes for buffers), D3D10_DDI_BOX order. */
struct umd_box {
    INT64 left, top, front, right, bottom, back;
};
/* layout.c: `box` (NULL = the whole subresource) clipped to subresource s; FALSE when the
 * result is empty, which copies and updates treat as a no-op (docs/semantics.md §4.4). */
BOOL umd_clip_box(const struct umd_subresource *s, const D3D10_DDI_BOX *box, struct umd_box *out);

/* ---- resource.c ------------------------------------------------------------------------------- */
struct umd_resource {
    struct umd_device *device;
    D3D10DDI_HRTRESOURCE hRTResource;
    D3DKMT_HANDLE hAllocation;             /* the one allocation; updated when Discard renames */
    D3DKMT_HANDLE hAllocationOwn;          /* the handle pfnAllocateCb (or the open) returned:
                                              it names whichever instance is current at
                                              pfnRenderCb, an instance handle names its own */
    D3DKMT_HANDLE hKMResource;
    UINT dimension;                        /* D3D10DDIRESOURCE_TYPE */
    UINT usage;                            /* D3D10_DDI_RESOURCE_USAGE */
    UINT bind_flags;
    UINT cpu_access;                       /* D3D10_DDI_CPU_ACCESS */
    DXGI_FORMAT format;
    UINT bytes_per_elem;                   /* per texel or BC block; 1 for buffers */
    UINT block_width, block_height;        /* 4x4 for BC, else 1x1 */
    UINT mip_levels, array_size;
    UINT subresource_count;
    UINT64 size;                           /* bytes of the allocation */
    UINT64 cb_gen;                         /* == device->cb_gen: in the current allocation list */
    UINT cb_index;                         /*   ... at this index */
    UINT lock_count;                       /* Maps outstanding (one pfnLockCb for all of them) */
    BYTE *lock_data;                       /* pfnLockCb's pointer while lock_count > 0 */
    struct umd_pool *pool;                 /* UMD renaming: the retired allocations (rename.c) */
    D3DGPU_VIRTUAL_ADDRESS va;             /* GpuMmu: VA of hAllocation (follows renames) */
    BOOL trimmable;                        /* GpuMmu: on the device's residency list (gpuva.c) */
    BOOL evicted;                          /*   ... trimmed (pfnEvictCb): made resident again on use */
    struct umd_resource *res_prev, *res_next; /*   ... the list */
    D3DGPU_VIRTUAL_ADDRESS upload_va;      /* GpuMmu IMMUTABLE: writable mapping for the initial data */
    UINT64 upload_stamp;                   /*   ... freed once the fence passed this generation */
    struct swgpu_alloc_private priv;       /* what pfnAllocateCb carried to the KMD */
    struct umd_resource *chunk;            /* suballocated (suballoc.c) or, if DYNAMIC, a slice of
                                              the upload ring (ring.c): no allocation of its
                                              own; its bytes are chunk's at chunk_offset */
    UINT chunk_offset;
    struct umd_subresource sub[];          /* subresource_count entries, index = mip + slice * MipLevels */
};

/* Read-only data shared by the IC handle and every DC handle of a resource (seed 004 "Driver
 * Data Organization"): written once by CreateResource, then only read (by any context's
 * thread). It lives after the IC handle data (umd_resource + sub[]), contiguous, starting on a
 * new cache line (UMD_RO_ALIGN, deferred.h) so the IC thread's writes to umd_resource never
 * share a line with DC threads reading this. */
struct umd_resource_ro {
    UINT dimension, usage, bind_flags;
    DXGI_FORMAT format;
    UINT bytes_per_elem, block_width, block_height;
    UINT subresource_count;
    UINT64 size;
    struct umd_subresource sub[];          /* replicated layout (read by DC recording) */
};
/* Offset of the read-only block for a resource of n subresources (deferred.h UMD_RO_ALIGN). */
static inline SIZE_T umd_resource_ro_offset(UINT n)
{
    SIZE_T ic = sizeof(struct umd_resource) + (SIZE_T)n * sizeof(struct umd_subresource);
    return ic + 64; /* worst case: room to align the block to the next line (see umd_resource_ro) */
}
struct umd_resource_ro *umd_resource_ro(const struct umd_resource *res);
/* An allocation the UMD makes for itself (an event query's, a buffer pool's chunk): `res`, with
 * room for one umd_subresource, is filled in as a one-subresource buffer of `bytes` so the
 * command-buffer helpers treat it like any resource. It is a device allocation (no kernel
 * resource). In the GpuMmu model it gets a VA; with `track` it joins the residency list (the UMD
 * may trim it) as a resource does. S_OK, or the HRESULT for pfnSetErrorCb (refusal logged). */
HRESULT umd_own_buffer_create(struct umd_device *dev, struct umd_resource *res, UINT bytes, UINT kind, UINT usage,
                              UINT cpu_access, BOOL track);
/* Free it (after submitting queued commands that name it; VidMm defers the rest). */
void umd_own_buffer_destroy(struct umd_device *dev, struct umd_resource *res);

/* ---- suballoc.c: small DEFAULT buffers share pooled allocations ------------------------------ */
/* Whether CreateResource puts this resource in a pool rather than an allocation of its own. */
BOOL umd_suballoc_wanted(const struct umd_device *dev, const D3D11DDIARG_CREATERESOURCE *args, UINT64 size);
/* Give res (described, size set) a slot: S_OK, or the HRESULT for pfnSetErrorCb (refusal
 * logged). */
HRESULT umd_suballoc(struct umd_device *dev, struct umd_resource *res);
/* DestroyResource of a suballocated resource: its slot is free at once (see suballoc.c). */
void umd_suballoc_free(struct umd_device *dev, struct umd_resource *res);
/* DestroyDevice: free the chunks (every slot is free by then). */
void umd_suballoc_device_fini(struct umd_device *dev);

/* A recording: ops (deferred.c struct umd_op) and the discard aliases they name. Owned by a
 * deferred context while recording, then by its command list. Touched by one thread at a time
 * (the recording thread, then whoever executes or destroys the list under the runtime). */
struct umd_rec {
    BYTE *ops;
    SIZE_T used, cap;
    UINT64 count;
    struct umd_alias *aliases;
};
/* The immediate context's deferred-context and command-list slots (UMD_FILL_FUNCS11_COMMON);
 * without WDDM_UMD_COMMAND_LISTS they stay NULL and the runtime emulates command lists. */
VOID APIENTRY umd_CheckDeferredContextHandleSizes(D3D10DDI_HDEVICE, UINT *, D3D11DDI_HANDLESIZE *);
SIZE_T APIENTRY umd_CalcDeferredContextHandleSize(D3D10DDI_HDEVICE, D3D11DDI_HANDLETYPE, VOID *);
SIZE_T APIENTRY umd_CalcPrivateDeferredContextSize(D3D10DDI_HDEVICE, const D3D11DDIARG_CALCPRIVATEDEFERREDCONTEXTSIZE *);
VOID APIENTRY umd_CreateDeferredContext(D3D10DDI_HDEVICE, const D3D11DDIARG_CREATEDEFERREDCONTEXT *);
SIZE_T APIENTRY umd_CalcPrivateCommandListSize(D3D10DDI_HDEVICE, const D3D11DDIARG_CREATECOMMANDLIST *);
VOID APIENTRY umd_DestroyCommandList(D3D10DDI_HDEVICE, D3D11DDI_HCOMMANDLIST);
VOID APIENTRY umd_CommandListExecute(D3D10DDI_HDEVICE, D3D11DDI_HCOMMANDLIST);

static inline struct umd_device *umd_device(D3D10DDI_HDEVICE h) { return (struct umd_device *)h.pDrvPrivate; }
static inline struct umd_resource *umd_resource(D3D10DDI_HRESOURCE h) { return (struct umd_resource *)h.pDrvPrivate; }

/* ---- view.c ----------------------------------------------------------------------------------- */
/* A render-target, shader-resource or unordered-access view: the elements/subresources it names. */
struct umd_rtv {
    struct umd_resource *resource;
    DXGI_FORMAT format;                    /* the view's format (what ClearRenderTargetView converts to) */
    UINT dimension;
    UINT mip;
    UINT first_slice, slice_count;         /* array slices, or W slices of a 3-D mip */
    UINT first_element, element_count;     /* buffer views */
};

/* ---- device.c helpers ------------------------------------------------------------------------- */
/* Report an error from a void DDI (docs/semantics.md §4: errors only through pfnSetErrorCb). */
void umd_set_error(struct umd_device *dev, HRESULT hr);

/* ---- layout.c --------------------------------------------------------------------------------- */
/* Subresource count of a create request (MipLevels * ArraySize; 0 if the request is absurd). */
UINT umd_subresource_count(const D3D11DDIARG_CREATERESOURCE *args);
/* Fills sub[] (umd_subresource_count entries) and *size. S_OK, DXGI_DDI_ERR_UNSUPPORTED
 * (format/dimension the UMD cannot lay out) or E_OUTOFMEMORY (larger than 4 GiB). */
HRESULT umd_layout(const D3D11DDIARG_CREATERESOURCE *args, UINT row_pitch_alignment,
                   struct umd_subresource *sub, UINT64 *size);

/* ---- cmdbuf.c --------------------------------------------------------------------------------- */
/* Make room for a command of `bytes` bytes referencing up to `allocs` allocations with
 * `patches` address fields, flushing first when the buffer or a list is full. Returns the
 * command's memory (fixed fields zeroed), or NULL after reporting the error. */
void *umd_cmd_begin(struct umd_device *dev, UINT bytes, UINT allocs, UINT patches);
/* Finish the command begun last (advances the write pointer by its header's size). */
void umd_cmd_end(struct umd_device *dev, void *cmd);
/* Address field `field` (inside the command begun last) names `offset` bytes into res's
 * allocation: adds the allocation-list entry (deduplicated) and the patch-location entry; in the
 * GpuMmu model (dev->gpuva) writes res->va + offset instead, with no list entry (issue 6). */
void umd_cmd_address(struct umd_device *dev, void *cmd, UINT64 *field, struct umd_resource *res,
                     UINT offset, BOOL write);
/* A Discard map of a resource queued commands name does not flush (map.c) while the instances
 * renamed so far under the current buffer, this one included, total at most this: enough work
 * per DMA buffer to amortise the submission, few enough bytes in flight to stay in the CPU's
 * caches (W1 of `wddm bench`, 64 KiB, in its usual mode: 1.00-1.07 us per frame with 1 MiB,
 * 1.16-1.24 us with 512 KiB; 2 MiB was no better). A resource larger than it flushes before
 * every Discard of it. */
#define UMD_RENAMED_BYTES_PER_FLUSH (1024u * 1024u)
/* Submit what is queued (pfnRenderCb) and take the new buffers. S_OK when nothing is queued. */
HRESULT umd_flush(struct umd_device *dev);
/* True while res is referenced by the command buffer not yet submitted. */
static inline BOOL umd_is_queued(const struct umd_device *dev, const struct umd_resource *res)
{
    return res->cb_gen == dev->cb_gen;
}
/* Queue SWGPU_OP_WRITE commands copying a row_bytes x rows x slices box from system memory
 * (src, src_row_pitch, src_slice_pitch) to dst_offset in res with res's pitches, splitting it
 * across commands and command buffers as needed. FALSE after reporting an error. */
BOOL umd_emit_write(struct umd_device *dev, struct umd_resource *res, UINT dst_offset,
                    UINT dst_row_pitch, UINT dst_slice_pitch, UINT row_bytes, UINT rows, UINT slices,
                    const BYTE *src, UINT src_row_pitch, UINT src_slice_pitch);

/* ---- update.c --------------------------------------------------------------------------------- */
/* From this many bytes an UpdateSubresource goes through the upload buffer (two passes over the
 * bytes: the CPU's copy into it, the GPU's copy out of it) instead of inline WRITE commands (three
 * in the WDDM 1.x model: into the command buffer, into the DMA buffer, into the resource). */
#define UMD_UPDATE_UPLOAD_MIN (64u * 1024u)
/* The upload buffer's size: a piece written by the CPU while the GPU copies the one before, small
 * enough to stay in the CPU's caches between the two. */
#define UMD_UPLOAD_BYTES (1024u * 1024u)
/* DestroyDevice: free the upload buffer (after the commands naming it). */
void umd_update_device_fini(struct umd_device *dev);

/* ---- copy.c ----------------------------------------------------------------------------------- */
/* One SWGPU_OP_COPY command: row_bytes x rows x slices from src_off in src (src_rp, src_sp) to
 * dst_off in dst (dst_rp, dst_sp). FALSE after reporting an error. */
BOOL umd_emit_copy(struct umd_device *dev, struct umd_resource *dst, UINT dst_off, UINT dst_rp, UINT dst_sp,
                   struct umd_resource *src, UINT src_off, UINT src_rp, UINT src_sp, UINT row_bytes, UINT rows,
                   UINT slices);

/* ---- map.c ------------------------------------------------------------------------------------ */
/* A resource's first map: pfnLockCb with the map type's flags (flushing first when the lock's
 * synchronization must see queued work), or in renaming mode the UMD's own rename; S_OK with
 * res->lock_data set, or the HRESULT (DXGI_DDI_ERR_WASSTILLDRAWING only with DONOTWAIT). */
HRESULT umd_map_begin(struct umd_device *dev, struct umd_resource *res, D3D10_DDI_MAP map, UINT flags);
/* The matching unlock (pfnUnlockCb, or pfnUnlock2Cb in renaming mode). */
HRESULT umd_map_end(struct umd_device *dev, struct umd_resource *res);
/* Until the GPU is done with res's allocation, which the UMD holds locked: in renaming mode the
 * device's fence, else a nested pfnLockCb with `flags` given back at once (after submitting the
 * open buffer if it names res). S_OK, DXGI_DDI_ERR_WASSTILLDRAWING at once with donotwait, or
 * the error for pfnSetErrorCb. */
HRESULT umd_map_wait_idle(struct umd_device *dev, struct umd_resource *res, D3DDDICB_LOCKFLAGS flags, BOOL donotwait);

/* ---- gpuva.c: the WDDM 2.x GpuMmu model (docs/semantics.md §3.3 "WDDM 2.x", §9.2; issue 6) ------ */
/* CreateDevice (after umd_rename_device_init: the ring waits on its fence) / DestroyDevice. */
HRESULT umd_va_device_init(struct umd_device *dev);
void umd_va_device_fini(struct umd_device *dev);
/* Give allocation h (size bytes) a GPU VA over its whole size and make it resident (trimming the
 * residency list when it does not fit); the paging fence value is waited for before the next
 * submission. Write protection unless !writable. With may_stay_evicted, S_FALSE when it is
 * mapped but could not be made resident (the caller marks it evicted). */
HRESULT umd_va_prepare(struct umd_device *dev, D3DKMT_HANDLE h, UINT64 size, BOOL writable,
                       D3DGPU_VIRTUAL_ADDRESS *va, BOOL may_stay_evicted);
/* umd_flush in the GpuMmu model: pfnSubmitCommandCb of the current slot (after the paging wait). */
HRESULT umd_va_submit(struct umd_device *dev);
/* umd_flush, after the generation was signalled and bumped: move to the next ring slot (waits
 * for its stamp) and free the upload mappings whose writes retired. */
HRESULT umd_va_next_slot(struct umd_device *dev);
/* DestroyResource: forget a pending upload mapping (the kernel unmaps with the allocation). */
/* GpuMmu residency (docs/semantics.md §9.2: the UMD owns it): a resource joins the device's
 * residency list at creation; when MakeResident fails for lack of room the UMD evicts the least
 * recently used resources no command being written names, and retries; a resource that still
 * does not fit stays evicted and is made resident when a command names it. */
void umd_va_track(struct umd_device *dev, struct umd_resource *res);
HRESULT umd_va_ensure_resident(struct umd_device *dev, struct umd_resource *res);
void umd_va_resource_fini(struct umd_device *dev, struct umd_resource *res);
/* IMMUTABLE initial data in the GpuMmu model: a writable mapping for the WRITE commands. */
HRESULT umd_va_upload_begin(struct umd_device *dev, struct umd_resource *res);
void umd_va_upload_end(struct umd_device *dev, struct umd_resource *res);

/* ---- rename.c: the UMD renames and synchronises itself (docs/semantics.md §3.3 "WDDM 2.x") ------- */
/* Whether a new device of this adapter runs the mode (WDDM 2.x adapter or WDDM_UMD_RENAMING=1). */
BOOL umd_renaming_wanted(const struct umd_adapter *ad);
/* CreateDevice / DestroyDevice: the monitored fence. */
HRESULT umd_rename_device_init(struct umd_device *dev);
void umd_rename_device_fini(struct umd_device *dev);
/* umd_flush, after pfnRenderCb of generation `gen`: signal the fence with gen from the GPU. */
void umd_rename_signal(struct umd_device *dev, UINT64 gen);
/* Map in renaming mode (map.c calls it instead of pfnLockCb): S_OK with *data, or the HRESULT
 * for pfnSetErrorCb (DXGI_DDI_ERR_WASSTILLDRAWING only when DONOTWAIT was given). */
HRESULT umd_rename_map(struct umd_device *dev, struct umd_resource *res, D3D10_DDI_MAP map, UINT flags, BYTE **data);
/* Until the monitored fence reached `stamp` (CPU wait; submits first if stamp is the generation
 * being filled). S_OK, the wait's error, or DXGI_DDI_ERR_WASSTILLDRAWING at once with donotwait. */
HRESULT umd_rename_wait(struct umd_device *dev, UINT64 stamp, BOOL donotwait);
/* The monitored fence's CPU-visible value (no kernel call). */
UINT64 umd_rename_completed(const struct umd_device *dev);
/* True while the GPU may still use res's current allocation (ResourceIsStagingBusy). */
BOOL umd_rename_busy(struct umd_device *dev, struct umd_resource *res);
/* DestroyResource: forget the pool (its allocations die with the resource's hResource). */
void umd_rename_resource_fini(struct umd_device *dev, struct umd_resource *res);

/* ---- ring.c: small DYNAMIC buffers are slices of the upload ring ------------------------------ */
/* Whether CreateResource makes this resource a slice of the ring rather than an allocation. */
BOOL umd_ring_wanted(const struct umd_device *dev, const D3D11DDIARG_CREATERESOURCE *args, UINT64 size);
/* A DYNAMIC buffer with a slice of the ring (res->chunk names the ring's chunk). */
static inline BOOL umd_ring_backed(const struct umd_resource *res)
{
    return res->chunk && res->usage == D3D10_DDI_USAGE_DYNAMIC;
}
/* CreateResource: res's first slice. S_OK, or the HRESULT for pfnSetErrorCb (refusal logged). */
HRESULT umd_ring_place(struct umd_device *dev, struct umd_resource *res);
/* Map of a ring-backed buffer (map.c calls it instead of locking): S_OK with *data, or the
 * HRESULT for pfnSetErrorCb (DXGI_DDI_ERR_WASSTILLDRAWING only with DONOTWAIT). */
HRESULT umd_ring_map(struct umd_device *dev, struct umd_resource *res, D3D10_DDI_MAP map, UINT flags, BYTE **data);
/* DestroyResource: its slice is let go. */
void umd_ring_free(struct umd_device *dev, struct umd_resource *res);
/* DestroyDevice: unlock and free the chunks. */
void umd_ring_device_fini(struct umd_device *dev);

/* ---- DDI entry points (filled into the tables by device.c) -------------------------------------- */
/* device.c */
VOID APIENTRY umd_CheckFormatSupport(D3D10DDI_HDEVICE, DXGI_FORMAT, UINT *);
VOID APIENTRY umd_CheckMultisampleQualityLevels(D3D10DDI_HDEVICE, DXGI_FORMAT, UINT, UINT *);
VOID APIENTRY umd_Flush(D3D10DDI_HDEVICE);
VOID APIENTRY umd_DestroyDevice(D3D10DDI_HDEVICE);
/* The slots the D3D11.0 and D3D11.1 tables share with one type (the two tables hold the same
 * names in the same places); device.c and ddi11_1.c add the ones whose types differ. */
#define UMD_FILL_FUNCS11_COMMON(f)                                                                 \
    do {                                                                                           \
        /* docs/semantics.md §4.3: "A driver may point all of them at one implementation": every   \
         * map slot is umd_ResourceMap, every unmap slot umd_ResourceUnmap; the map type and    \
         * the resource's usage carry all the information the slot name would. */                \
        (f)->pfnDynamicIABufferMapNoOverwrite = umd_ResourceMap;                                   \
        (f)->pfnDynamicIABufferUnmap = umd_ResourceUnmap;                                          \
        (f)->pfnDynamicConstantBufferMapDiscard = umd_ResourceMap;                                 \
        (f)->pfnDynamicIABufferMapDiscard = umd_ResourceMap;                                       \
        (f)->pfnDynamicConstantBufferUnmap = umd_ResourceUnmap;                                    \
        (f)->pfnResourceCopy = umd_ResourceCopy;                                                   \
        (f)->pfnResourceMap = umd_ResourceMap;                                                     \
        (f)->pfnResourceUnmap = umd_ResourceUnmap;                                                 \
        (f)->pfnResourceIsStagingBusy = umd_ResourceIsStagingBusy;                                 \
        (f)->pfnStagingResourceMap = umd_ResourceMap;                                              \
        (f)->pfnStagingResourceUnmap = umd_ResourceUnmap;                                          \
        (f)->pfnDynamicResourceMapDiscard = umd_ResourceMap;                                       \
        (f)->pfnDynamicResourceUnmap = umd_ResourceUnmap;                                          \
        (f)->pfnClearRenderTargetView = umd_ClearRenderTargetView;                                 \
        (f)->pfnClearUnorderedAccessViewUint = umd_ClearUnorderedAccessViewUint;                   \
        (f)->pfnQueryBegin = umd_QueryBegin;                                                       \
        (f)->pfnQueryEnd = umd_QueryEnd;                                                           \
        (f)->pfnQueryGetData = umd_QueryGetData;                                                   \
        (f)->pfnCalcPrivateResourceSize = umd_CalcPrivateResourceSize;                             \
        (f)->pfnCreateResource = umd_CreateResource;                                               \
        (f)->pfnCalcPrivateOpenedResourceSize = umd_CalcPrivateOpenedResourceSize;                 \
        (f)->pfnOpenResource = umd_OpenResource;                                                   \
        (f)->pfnDestroyResource = umd_DestroyResource;                                             \
        (f)->pfnCalcPrivateRenderTargetViewSize = umd_CalcPrivateRenderTargetViewSize;             \
        (f)->pfnCreateRenderTargetView = umd_CreateRenderTargetView;                               \
        (f)->pfnDestroyRenderTargetView = umd_DestroyRenderTargetView;                             \
        (f)->pfnCheckFormatSupport = umd_CheckFormatSupport;                                       \
        (f)->pfnCheckMultisampleQualityLevels = umd_CheckMultisampleQualityLevels;                 \
        (f)->pfnDestroyDevice = umd_DestroyDevice;                                                 \
        (f)->pfnCalcPrivateShaderResourceViewSize = umd_CalcPrivateShaderResourceViewSize;         \
        (f)->pfnCreateShaderResourceView = umd_CreateShaderResourceView;                           \
        (f)->pfnDestroyShaderResourceView = umd_DestroyShaderResourceView;                         \
        (f)->pfnCalcPrivateUnorderedAccessViewSize = umd_CalcPrivateUnorderedAccessViewSize;       \
        (f)->pfnCreateUnorderedAccessView = umd_CreateUnorderedAccessView;                         \
        (f)->pfnDestroyUnorderedAccessView = umd_DestroyUnorderedAccessView;                       \
        (f)->pfnCalcPrivateQuerySize = umd_CalcPrivateQuerySize;                                   \
        (f)->pfnCreateQuery = umd_CreateQuery;                                                     \
        (f)->pfnDestroyQuery = umd_DestroyQuery;                                                   \
        if (wddm_umd_command_lists_enabled()) {                                                    \
            (f)->pfnCheckDeferredContextHandleSizes = umd_CheckDeferredContextHandleSizes;         \
            (f)->pfnCalcDeferredContextHandleSize = umd_CalcDeferredContextHandleSize;             \
            (f)->pfnCalcPrivateDeferredContextSize = umd_CalcPrivateDeferredContextSize;           \
            (f)->pfnCreateDeferredContext = umd_CreateDeferredContext;                             \
            (f)->pfnCalcPrivateCommandListSize = umd_CalcPrivateCommandListSize;                   \
            (f)->pfnDestroyCommandList = umd_DestroyCommandList;                                   \
            (f)->pfnCommandListExecute = umd_CommandListExecute;                                   \
        }                                                                                          \
    } while (0)
/* ddi11_1.c: the D3D11.1 DDI (issue 15 §4) */
void umd_fill_funcs11_1(D3D11_1DDI_DEVICEFUNCS *f);
BOOL umd_discard_args_valid(D3D11DDI_HANDLETYPE type, const VOID *handle, const D3D10_DDI_RECT *rects, UINT count);
VOID APIENTRY umd_Discard(D3D10DDI_HDEVICE, D3D11DDI_HANDLETYPE, VOID *, const D3D10_DDI_RECT *, UINT);
VOID APIENTRY umd_ResourceCopyRegion11_1(D3D10DDI_HDEVICE, D3D10DDI_HRESOURCE, UINT, UINT, UINT, UINT,
                                         D3D10DDI_HRESOURCE, UINT, const D3D10_DDI_BOX *, UINT);
VOID APIENTRY umd_ResourceUpdateSubresourceUP11_1(D3D10DDI_HDEVICE, D3D10DDI_HRESOURCE, UINT, const D3D10_DDI_BOX *,
                                                  const VOID *, UINT, UINT, UINT);
/* ddi10.c: the D3D10.0 / 10.1 device tables over the same implementation (issue 15 §1) */
void umd_fill_device_funcs10(D3D10DDI_DEVICEFUNCS *f);
void umd_fill_device_funcs10_1(D3D10_1DDI_DEVICEFUNCS *f);
SIZE_T APIENTRY umd_CalcPrivateResourceSize(D3D10DDI_HDEVICE, const D3D11DDIARG_CREATERESOURCE *);
VOID APIENTRY umd_CreateResource(D3D10DDI_HDEVICE, const D3D11DDIARG_CREATERESOURCE *, D3D10DDI_HRESOURCE, D3D10DDI_HRTRESOURCE);
SIZE_T APIENTRY umd_CalcPrivateOpenedResourceSize(D3D10DDI_HDEVICE, const D3D10DDIARG_OPENRESOURCE *);
VOID APIENTRY umd_OpenResource(D3D10DDI_HDEVICE, const D3D10DDIARG_OPENRESOURCE *, D3D10DDI_HRESOURCE, D3D10DDI_HRTRESOURCE);
VOID APIENTRY umd_DestroyResource(D3D10DDI_HDEVICE, D3D10DDI_HRESOURCE);
SIZE_T APIENTRY umd_CalcPrivateRenderTargetViewSize(D3D10DDI_HDEVICE, const D3D10DDIARG_CREATERENDERTARGETVIEW *);
VOID APIENTRY umd_CreateRenderTargetView(D3D10DDI_HDEVICE, const D3D10DDIARG_CREATERENDERTARGETVIEW *, D3D10DDI_HRENDERTARGETVIEW, D3D10DDI_HRTRENDERTARGETVIEW);
VOID APIENTRY umd_DestroyRenderTargetView(D3D10DDI_HDEVICE, D3D10DDI_HRENDERTARGETVIEW);
VOID APIENTRY umd_ResourceMap(D3D10DDI_HDEVICE, D3D10DDI_HRESOURCE, UINT, D3D10_DDI_MAP, UINT, D3D10DDI_MAPPED_SUBRESOURCE *);
VOID APIENTRY umd_ResourceUnmap(D3D10DDI_HDEVICE, D3D10DDI_HRESOURCE, UINT);
BOOL APIENTRY umd_ResourceIsStagingBusy(D3D10DDI_HDEVICE, D3D10DDI_HRESOURCE);
VOID APIENTRY umd_ResourceCopy(D3D10DDI_HDEVICE, D3D10DDI_HRESOURCE, D3D10DDI_HRESOURCE);
VOID APIENTRY umd_ResourceCopyRegion(D3D10DDI_HDEVICE, D3D10DDI_HRESOURCE, UINT, UINT, UINT, UINT,
                                     D3D10DDI_HRESOURCE, UINT, const D3D10_DDI_BOX *);
VOID APIENTRY umd_ResourceUpdateSubresourceUP(D3D10DDI_HDEVICE, D3D10DDI_HRESOURCE, UINT, const D3D10_DDI_BOX *,
                                              const VOID *, UINT, UINT);
VOID APIENTRY umd_ClearRenderTargetView(D3D10DDI_HDEVICE, D3D10DDI_HRENDERTARGETVIEW, FLOAT[4]);
SIZE_T APIENTRY umd_CalcPrivateShaderResourceViewSize(D3D10DDI_HDEVICE, const D3D11DDIARG_CREATESHADERRESOURCEVIEW *);
VOID APIENTRY umd_CreateShaderResourceView(D3D10DDI_HDEVICE, const D3D11DDIARG_CREATESHADERRESOURCEVIEW *,
                                           D3D10DDI_HSHADERRESOURCEVIEW, D3D10DDI_HRTSHADERRESOURCEVIEW);
VOID APIENTRY umd_DestroyShaderResourceView(D3D10DDI_HDEVICE, D3D10DDI_HSHADERRESOURCEVIEW);
SIZE_T APIENTRY umd_CalcPrivateUnorderedAccessViewSize(D3D10DDI_HDEVICE, const D3D11DDIARG_CREATEUNORDEREDACCESSVIEW *);
VOID APIENTRY umd_CreateUnorderedAccessView(D3D10DDI_HDEVICE, const D3D11DDIARG_CREATEUNORDEREDACCESSVIEW *,
                                            D3D11DDI_HUNORDEREDACCESSVIEW, D3D11DDI_HRTUNORDEREDACCESSVIEW);
VOID APIENTRY umd_DestroyUnorderedAccessView(D3D10DDI_HDEVICE, D3D11DDI_HUNORDEREDACCESSVIEW);
VOID APIENTRY umd_ClearUnorderedAccessViewUint(D3D10DDI_HDEVICE, D3D11DDI_HUNORDEREDACCESSVIEW, const UINT[4]);
/* query.c (issue 4: D3D10DDI_QUERY_EVENT) */
SIZE_T APIENTRY umd_CalcPrivateQuerySize(D3D10DDI_HDEVICE, const D3D10DDIARG_CREATEQUERY *);
VOID APIENTRY umd_CreateQuery(D3D10DDI_HDEVICE, const D3D10DDIARG_CREATEQUERY *, D3D10DDI_HQUERY, D3D10DDI_HRTQUERY);
VOID APIENTRY umd_DestroyQuery(D3D10DDI_HDEVICE, D3D10DDI_HQUERY);
VOID APIENTRY umd_QueryBegin(D3D10DDI_HDEVICE, D3D10DDI_HQUERY);
VOID APIENTRY umd_QueryEnd(D3D10DDI_HDEVICE, D3D10DDI_HQUERY);
VOID APIENTRY umd_QueryGetData(D3D10DDI_HDEVICE, D3D10DDI_HQUERY, VOID *, UINT, UINT);

/* ---- clear.c ---------------------------------------------------------------------------------- */
/* Convert an RGBA float colour to one element of `format` (seed 001 brief: UNORM round+clamp,
 * UNORM_SRGB linear->sRGB, SNORM, UINT, SINT, FLOAT, BGRA order). Returns the element size
 * (bytes written to out[16]) or 0 for a format the UMD cannot clear. */
UINT umd_pack_color(DXGI_FORMAT format, const FLOAT rgba[4], BYTE out[16]);

#endif /* WDDM_UMD_UMD_H */
