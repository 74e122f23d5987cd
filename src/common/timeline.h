/* timeline.h - the timeline: timestamped events from every layer, for a GPUView-like view of a
 * run (include/wddm/wddm.h "The timeline"; docs/timeline.md).
 *
 * A layer records an event with one call; while the timeline is off that call costs one relaxed
 * load and a branch. While on, each thread writes into a ring of its own (no lock, no shared
 * cache line), and wddm_timeline_write() merges the rings into Chrome / Perfetto trace-event
 * JSON. An event names its lane (`track`: an engine, a context queue, a CPU thread, a segment
 * counter) and carries two numbers whose meaning its kind gives (table in timeline.c). */
#ifndef WDDM_COMMON_TIMELINE_H
#define WDDM_COMMON_TIMELINE_H

#include <stdatomic.h>
#include <stdint.h>

enum wddm_tl_kind {
    /* The GPU, one lane per engine (track = WDDM_TL_ENGINE(adapter, node)). */
    WDDM_TL_DMA_START = 1,     /* a = fence, b = context handle (0: paging buffer) */
    WDDM_TL_DMA_COMPLETE,      /* a = fence */
    WDDM_TL_DMA_PREEMPTED,     /* a = last completed fence: the running buffer stopped */
    WDDM_TL_ENGINE_RESET,      /* a = guilty context, b = last aborted fence (node ~0: adapter) */
    WDDM_TL_CONTEXT_SWITCH,    /* a = to context, b = from context */
    WDDM_TL_PREEMPT_REQUEST,   /* a = preemption fence, b = the context it is for */
    /* Into the hardware queue (track = the engine lane): a = fence, b = context (0: paging). The
     * packet is drawn on its context's queue lane (paging: WDDM_TL_PAGING_QUEUE) until it
     * completes. */
    WDDM_TL_SUBMIT,
    /* Out of the software queue (track = the context): a = fence, b = when the packet joined
     * its context's software queue (wddm_tl_now). Drawn on the context's queue lane as the time
     * it waited there, up to its hardware-queue span. */
    WDDM_TL_QUEUED,
    /* VidMm (track = WDDM_TL_VIDMM(adapter)). */
    WDDM_TL_EVICT,             /* a = allocation handle, b = bytes */
    WDDM_TL_PAGE_IN,           /* a = allocation handle, b = bytes */
    WDDM_TL_RENAME,            /* a = allocation handle, b = bytes */
    WDDM_TL_DEVICE_LOST,       /* a = device handle, b = reason (the device's error state) */
    WDDM_TL_RESERVATION,       /* a = bytes reserved, b = D3DKMT_MEMORY_SEGMENT_GROUP: a counter and an instant */
    /* Synchronization objects. */
    WDDM_TL_FENCE_SIGNAL,      /* track = WDDM_TL_FENCES: a = object, b = the value the GPU wrote */
    WDDM_TL_GPU_WAIT,          /* track = the waiting context: a = object, b = value waited for */
    /* Counters (track = WDDM_TL_SEGMENT(adapter, segment id)). */
    WDDM_TL_SEGMENT_USED,      /* a = bytes placed in the segment */
    /* CPU threads (track = the thread's id, filled in by the recorder). */
    WDDM_TL_CPU_BEGIN,         /* a = WDDM_TL_CALL_*: a span on the calling thread */
    WDDM_TL_CPU_END,           /* a = WDDM_TL_CALL_*, b = result (HRESULT / NTSTATUS) */
    WDDM_TL_KIND_COUNT
};

/* The calls a CPU span names (timeline.c has their names). */
enum wddm_tl_call {
    WDDM_TL_CALL_MAP = 1,      /* ID3D11DeviceContext::Map */
    WDDM_TL_CALL_FLUSH,        /* ID3D11DeviceContext::Flush */
    WDDM_TL_CALL_RENDER,       /* D3DKMTRender / D3DKMTSubmitCommand: a UMD submission */
    WDDM_TL_CALL_LOCK_WAIT,    /* D3DKMTLock waiting for the GPU */
    WDDM_TL_CALL_FENCE_WAIT,   /* a CPU wait for a fence or synchronisation object */
    WDDM_TL_CALL_COPY,         /* CopyResource (runtime/traced.c) */
    WDDM_TL_CALL_COPY_REGION,  /* CopySubresourceRegion */
    WDDM_TL_CALL_UPDATE,       /* UpdateSubresource */
    WDDM_TL_CALL_CLEAR,        /* ClearRenderTargetView */
    WDDM_TL_CALL_EXECUTE,      /* ExecuteCommandList */
    WDDM_TL_CALL_CREATE,       /* CreateBuffer / CreateTexture1D / 2D / 3D */
    WDDM_TL_CALL_CREATE_VIEW,  /* CreateRenderTargetView / ShaderResourceView / UnorderedAccessView */
    WDDM_TL_CALL_QUERY_END,    /* ID3D11DeviceContext::End of a query */
    WDDM_TL_CALL_GET_DATA,     /* ID3D11DeviceContext::GetData */
    WDDM_TL_CALL_FINISH,       /* FinishCommandList: the end of a deferred context's recording */
    WDDM_TL_CALL_COUNT
};

/* Lanes: the high byte says what the lane is; CPU threads and context handles use the rest. */
#define WDDM_TL_ENGINE(adapter, node)      (0x01000000u | ((uint32_t)(adapter) & 0xFFFu) << 8 | ((node) & 0xFFu))
#define WDDM_TL_PAGING_QUEUE(adapter, node) (0x02000000u | ((uint32_t)(adapter) & 0xFFFu) << 8 | ((node) & 0xFFu))
#define WDDM_TL_VIDMM(adapter)             (0x03000000u | ((uint32_t)(adapter) & 0xFFFu) << 8)
#define WDDM_TL_SEGMENT(adapter, segment)  (0x04000000u | ((uint32_t)(adapter) & 0xFFFu) << 8 | ((segment) & 0xFFu))
#define WDDM_TL_FENCES                     0x05000000u /* process-wide, as the objects are */

extern atomic_bool wddm_tl_on;
void wddm_tl_record(enum wddm_tl_kind kind, uint32_t track, uint64_t a, uint64_t b);
/* The timeline's clock now (what an event's own time is taken from), for an event that names a
 * second moment (WDDM_TL_QUEUED). */
uint64_t wddm_tl_now(void);

static inline void wddm_tl(enum wddm_tl_kind kind, uint32_t track, uint64_t a, uint64_t b)
{
    if (atomic_load_explicit(&wddm_tl_on, memory_order_relaxed))
        wddm_tl_record(kind, track, a, b);
}

/* A span on the calling thread's lane. */
static inline void wddm_tl_begin(enum wddm_tl_call call) { wddm_tl(WDDM_TL_CPU_BEGIN, 0, call, 0); }
static inline void wddm_tl_end(enum wddm_tl_call call, uint64_t result) { wddm_tl(WDDM_TL_CPU_END, 0, call, result); }

/* A poll (GetData) as a span on the calling thread's lane, recorded when it returns: t0 is
 * wddm_tl_poll_start()'s value before the call (0: the timeline was off, nothing is recorded),
 * `key` what was polled (the query), `pending` whether the answer was "not yet" (S_FALSE). A
 * pending poll right after a pending poll of the same key, with nothing recorded on the thread
 * in between, does not add a span: the previous one is stretched to now and its count of polls
 * grows (the end event's args.polls), so a program polling thousands of times keeps one span
 * instead of overwriting its ring (issue 18 §1: the timeline must not lose what came before). */
void wddm_tl_record_poll(enum wddm_tl_call call, uintptr_t key, uint64_t t0, uint32_t result, int pending);
static inline uint64_t wddm_tl_poll_start(void)
{
    return atomic_load_explicit(&wddm_tl_on, memory_order_relaxed) ? wddm_tl_now() | 1u : 0; /* never 0 */
}
static inline void wddm_tl_poll_end(enum wddm_tl_call call, uintptr_t key, uint64_t t0, uint32_t result, int pending)
{
    if (t0 && atomic_load_explicit(&wddm_tl_on, memory_order_relaxed))
        wddm_tl_record_poll(call, key, t0, result, pending);
}

#endif
