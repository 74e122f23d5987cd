/*
 * deferred_internal.h - what the runtime's deferred-context files share (seed 004;
 * docs/semantics.md §4.5, §5.2):
 *   deferred_handles.c  the context-local handle protocol (size poll, handle table, allocator)
 *   deferred.c          the deferred context (DC) object, its recording calls, Map/Unmap, errors
 *   command_list.c      FinishCommandList, the ID3D11CommandList object, ExecuteCommandList
 *   deferred_emu.c      the runtime's own command lists, when the UMD builds none
 *
 * Two modes, chosen at device creation from the UMD's threading caps:
 *  - the UMD builds command lists (D3D11DDICAPS_COMMANDLISTS_BUILD_2): every DC has its own
 *    driver context (CreateDeferredContext) and context-local handles, created lazily on an
 *    object's first use in that DC; FinishCommandList = CreateCommandList; ExecuteCommandList =
 *    CommandListExecute on the immediate context (IC);
 *  - the UMD does not: the runtime records the API calls itself and replays them on the IC.
 *
 * Threading (D3D11 model): a DC is used by one thread at a time, so nothing in rt_deferred is
 * locked; DC DDI calls do not take the device lock (that is what lets two threads record at
 * once). The IC is entered (device lock, rt_ddi_begin) only for creating/destroying the DC's
 * driver context, CalcPrivateCommandListSize, and executing or destroying a list.
 */
#ifndef WDDM_RUNTIME_DEFERRED_INTERNAL_H
#define WDDM_RUNTIME_DEFERRED_INTERNAL_H

#include "runtime/runtime.h"

/* One context-local handle (UMD mode) or one referenced object (both modes). */
struct rt_local {
    void *obj;                      /* rt_resource / rt_rtv / rt_cmdlist; NULL = free slot */
    UINT type;                      /* D3D11DDI_HANDLETYPE */
    void *mem;                      /* DC handle memory (UMD mode, resources and views) */
    INT size_class;                 /* index in dev->dc_sizes, -1 = heap */
    BOOL created;                   /* the DC's pfnCreate* succeeded: a pfnDestroy* is owed */
    BOOL discarded;                 /* a Map(WRITE_DISCARD) of it is in the list being recorded */
    BOOL mapped;
    UINT mapped_sub;
    BYTE *alias;                    /* emulation: the current discard alias (NO_OVERWRITE returns it) */
    UINT alias_row_pitch, alias_depth_pitch;
};

/* Free list + chunk per size class: the per-size handle allocator (seed 004 "the Direct3D API
 * must tune its CLS memory allocator"). Per DC, so two recording threads never share it. */
struct rt_free_block { struct rt_free_block *next; };
#define RT_ARENA_CHUNK 16384u
struct rt_arena_chunk { struct rt_arena_chunk *next; SIZE_T used, size; _Alignas(64) BYTE data[]; };

enum rt_emu_type {
    EMU_COPY = 1, EMU_COPY_REGION, EMU_UPDATE, EMU_CLEAR_RTV, EMU_DISCARD, EMU_EXECUTE, EMU_CLEAR_UAV,
    EMU_DISCARD_API, /* DiscardResource / DiscardView(1): data holds the rectangles */
    EMU_TYPE_COUNT
};
struct rt_emu_op {
    UINT type;
    void *a, *b;                    /* rt objects (references held by the list's object table) */
    UINT dst_sub, src_sub, x, y, z, has_box;
    D3D11_BOX box;
    FLOAT color[4];
    UINT values[4];                 /* CLEAR_UAV */
    BYTE *data;                     /* UPDATE source copy / DISCARD alias (owned by the op) */
    UINT row_pitch, depth_pitch, row_bytes, rows, depth;
    UINT copy_flags;                /* COPY_REGION, UPDATE: D3D11_COPY_FLAGS */
    D3D11DDI_HANDLETYPE handle_type; /* DISCARD_API: what a is; rows holds the rectangle count */
};

struct rt_emu_list {
    struct rt_emu_op *ops;
    UINT count, cap;
};

struct rt_deferred {
    struct rt_context ctx;          /* first: the COM pointer; ctx.dc points back here */
    struct rt_device *device;
    UINT flags;                     /* ContextFlags */
    BOOL emulate;                   /* !device->drv_command_lists */

    /* UMD mode: the driver's deferred context */
    void *drv_mem;
    D3D10DDI_HDEVICE drv;
    BOOL drv_created;
    D3D11DDI_DEVICEFUNCS funcs;    /* as the device's: the table every path calls */
    D3D11_1DDI_DEVICEFUNCS funcs1; /* as the device's: the UMD's 11.1 table (ddi11_1.c) */
    D3D11DDI_CORELAYER_DEVICECALLBACKS core_callbacks;
    HRESULT call_error;             /* this context's pfnSetErrorCb slot (first error wins) */

    BOOL lost;                      /* removed locally (seed 004): calls dropped until Finish */
    struct rt_local *locals;        /* open-addressing table keyed by obj */
    UINT local_cap, local_count;
    struct rt_free_block *free_lists[RT_DC_MAX_SIZES];
    struct rt_arena_chunk *chunks;
    struct rt_emu_list emu;         /* emulation mode: the list being recorded */
    void **scratch;                 /* Map buffers handed out while lost */
    UINT scratch_count;
    struct rt_query_ends ends;      /* event-query Ends recorded (issue 4, query.c) */
};

/* A finished list: immutable after FinishCommandList (any thread may execute it, the IC's
 * device lock serialises executions); only refs changes, atomically. */
struct rt_cmdlist {
    ID3D11CommandList iface;        /* first */
    atomic_uint refs;
    struct rt_device *device;       /* holds one device reference */
    struct rt_private_data private_data;
    UINT flags;
    void *drv_mem;                  /* UMD mode: CalcPrivateCommandListSize bytes */
    D3D11DDI_HCOMMANDLIST drv;
    BOOL drv_created;
    struct rt_local *objs;          /* objects the list references (one API reference each) */
    UINT obj_count;
    struct rt_emu_list emu;         /* emulation mode */
    struct rt_query_ends ends;      /* event-query Ends, issued after the list runs (query.c) */
};

/* ---- deferred_handles.c ---------------------------------------------------------------------- */
struct rt_local *rt_local_find(struct rt_deferred *dc, const void *obj);
/* A new entry holding one reference on obj. NULL on out of memory. */
struct rt_local *rt_local_insert(struct rt_deferred *dc, void *obj, UINT type);
void rt_local_obj_release(void *obj, UINT type);
/* The object's context-local handle, created on first use (seed 004). NULL: the DC is lost. */
struct rt_local *rt_dc_use_resource(struct rt_deferred *dc, struct rt_resource *res);
struct rt_local *rt_dc_use_rtv(struct rt_deferred *dc, struct rt_rtv *rtv);
struct rt_local *rt_dc_use_sview(struct rt_deferred *dc, struct rt_sview *v);
/* Close every context-local handle; their references move to `keep` if not NULL. */
void rt_dc_close_handles(struct rt_deferred *dc, struct rt_cmdlist *keep);
/* The handle table and allocator memory, at the DC's destruction. */
void rt_dc_handles_free(struct rt_deferred *dc);

/* ---- deferred.c ------------------------------------------------------------------------------ */
/* Removes the context locally (seed 004): the partial list is abandoned, later calls dropped. */
void rt_dc_mark_lost(struct rt_deferred *dc, HRESULT why, const char *what);
/* Begin/end of a DC DDI call: the DC's error slot. */
static inline void rt_dc_call_begin(struct rt_deferred *dc) { dc->call_error = S_OK; }
BOOL rt_dc_call_end(struct rt_deferred *dc, const char *what);
/* A fresh recording after Finish; the closed handles' references move to `keep` if not NULL. */
void rt_dc_reset(struct rt_deferred *dc, struct rt_cmdlist *keep);
/* Unmaps an entry Map left mapped (Unmap, or FinishCommandList for what is still mapped). */
void rt_dc_unmap_entry(struct rt_deferred *dc, struct rt_local *l);

/* ---- deferred_emu.c -------------------------------------------------------------------------- */
/* A zeroed op appended to the list being recorded; NULL (context lost) on out of memory. */
struct rt_emu_op *rt_emu_add(struct rt_deferred *dc, UINT type);
void rt_emu_free(struct rt_emu_list *l);
void rt_emu_replay(struct rt_device *dev, const struct rt_emu_list *e);

#endif
