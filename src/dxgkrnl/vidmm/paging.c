/* Paging buffers (docs/semantics.md §2): system-memory buffers of PagingBufferSize, filled by
 * DxgkDdiBuildPagingBuffer and submitted on the paging node (DXGK_VIDMMCAPS.PagingNode)
 * through DxgkDdiSubmitCommand with Flags.Paging = 1 and no context (sched/node.c).
 *
 * The retry protocol (docs/semantics.md §2.4):
 *   STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER -> submit the filled part, take a fresh buffer and
 *     call again with the same operation and the MultipassOffset the KMD left;
 *   STATUS_GRAPHICS_ALLOCATION_BUSY -> wait until the allocation is idle, call again with
 *     Flags.AllocationIsIdle = 1 (BUSY although AllocationIsIdle was set is a KMD bug). The wait
 *     lets the adapter lock go: the caller keeps its instance alive through it (in_batch or
 *     evicting: vidmm_instance_retired_locked) and re-checks what it relies on (vidmm/evict.c);
 *   anything else is a KMD bug (a real OS bug-checks): refused with a debug line.
 * A TRANSFER carries TransferStart on its first call and TransferEnd on every call (one
 * transfer per allocation: see vidmm_paging_build_locked). */
#include "dxgkrnl/vidmm/vidmm.h"
#include "common/alloc.h"

#include <stdlib.h>

void vidmm_batch_init(struct vidmm_paging_batch *b, struct dxgk_adapter *a)
{
    b->adapter = a;
    b->pkt = NULL;
    b->fence = 0;
    b->stamp = NULL;
    b->evicted = false;
}

struct dxgk_packet *vidmm_paging_packet_get_locked(struct dxgk_adapter *a)
{
    WDDM_ASSERT_HELD(&a->lock);
    struct dxgk_packet *p = a->paging_pool;
    if (p) {
        a->paging_pool = p->next;
    } else {
        p = wddm_calloc(1, sizeof *p);
        if (!p)
            return NULL;
        p->paging = true;
        p->node = a->paging_node;
        p->dma_capacity = a->paging_buffer_size;
        p->dma = dxgk_page_alloc(a, p->dma_capacity);
        p->priv_size = a->paging_priv_size;
        p->priv = p->priv_size ? wddm_calloc(1, p->priv_size) : NULL;
        if (!p->dma || (p->priv_size && !p->priv)) {
            gsched_packet_free(a, p);
            return NULL;
        }
    }
    p->next = NULL;
    p->dma_used = 0;
    p->fence = 0;
    p->ctx_switch = false;
    atomic_fetch_add(&a->paging_out, 1);
    return p;
}

/* Back-pressure on the GpuMmu paging queues (issue 14 §4): VidMm builds paging buffers holding
 * the adapter lock, which is never held across a wait, so a UMD that maps and makes resident
 * faster than the paging engine runs would grow the paging pool without limit. Its paging-queue
 * calls wait here first, on the caller's thread, as its render submissions wait for their
 * context's queue (sched/queue.c). Retirement and recycling broadcast the paging node's
 * done_cond under its lock after changing what this reads. */
void vidmm_paging_wait_room(struct dxgk_adapter *a)
{
    struct gsched_node *n = &a->node[a->paging_node];
    while (atomic_load(&a->paging_out) >= VIDMM_PAGING_QUEUE_DEPTH) {
        pthread_mutex_lock(&n->lock);
        while (atomic_load(&a->paging_out) >= VIDMM_PAGING_QUEUE_DEPTH && !n->retired && !n->stop)
            pthread_cond_wait(&n->done_cond, &n->lock);
        bool stop = n->stop;
        pthread_mutex_unlock(&n->lock);
        if (stop)
            return;
        pthread_mutex_lock(&a->lock);
        gsched_recycle_retired_locked(a, n);
        pthread_mutex_unlock(&a->lock);
    }
}

void vidmm_paging_pool_fini(struct dxgk_adapter *a)
{
    while (a->paging_pool) {
        struct dxgk_packet *p = a->paging_pool;
        a->paging_pool = p->next;
        gsched_packet_free(a, p);
    }
}

static void submit_current_locked(struct vidmm_paging_batch *b)
{
    WDDM_ASSERT_HELD(&b->adapter->lock);
    struct dxgk_adapter *a = b->adapter;
    struct dxgk_packet *p = b->pkt;
    b->pkt = NULL;
    if (!p)
        return;
    if (!p->dma_used) {
        p->next = a->paging_pool;
        a->paging_pool = p;
        atomic_fetch_sub(&a->paging_out, 1);
        return;
    }
    b->fence = gsched_submit(&a->node[a->paging_node], p);
    DXGK_COUNT(a, paging_buffers_submitted, 1);
}

/* wddm_vidmm_set_paging_room: the most room one call is offered (0: the rest of the buffer). */
static atomic_uint paging_room;

void wddm_vidmm_set_paging_room(UINT bytes)
{
    atomic_store(&paging_room, bytes);
}

/* The DXGK_TRANSFERFLAGS of a TRANSFER or a SPECIAL_LOCK_TRANSFER (the answers BUSY is allowed
 * for, docs/semantics.md §2.4, with DISCARD_CONTENT); NULL for any other operation. */
static DXGK_TRANSFERFLAGS *transfer_flags(DXGKARG_BUILDPAGINGBUFFER *args)
{
    if (args->Operation == DXGK_OPERATION_TRANSFER)
        return &args->Transfer.Flags;
    if (args->Operation == DXGK_OPERATION_SPECIAL_LOCK_TRANSFER)
        return &args->SpecialLockTransfer.Flags;
    return NULL;
}

NTSTATUS vidmm_paging_build_locked(struct vidmm_paging_batch *b, DXGKARG_BUILDPAGINGBUFFER *args,
                                   const struct vidmm_instance *inst)
{
    WDDM_ASSERT_HELD(&b->adapter->lock);
    struct dxgk_adapter *a = b->adapter;
    args->MultipassOffset = 0;
    args->hSystemContext = a->kmd_system_context;
    UINT room = atomic_load_explicit(&paging_room, memory_order_relaxed);
    for (;;) {
        if (!b->pkt) {
            b->pkt = vidmm_paging_packet_get_locked(a);
            if (!b->pkt)
                return STATUS_NO_MEMORY;
        }
        struct dxgk_packet *p = b->pkt;
        UINT8 *start = p->dma + p->dma_used;
        args->pDmaBuffer = start;
        args->DmaSize = p->dma_capacity - p->dma_used;
        if (room && room < args->DmaSize)
            args->DmaSize = room;
        UINT offered = args->DmaSize;
        args->pDmaBufferPrivateData = p->priv;
        args->DmaBufferPrivateDataSize = p->priv_size;
        args->DmaBufferWriteOffset = p->dma_used;
        /* DXGK_TRANSFERFLAGS: VidMm moves an allocation in one transfer (TransferOffset 0, the
         * whole size), so each is its own start and end; a multipass call that goes on where the
         * KMD stopped (MultipassOffset set) is not a new start. */
        DXGK_TRANSFERFLAGS *tf = transfer_flags(args);
        if (tf) {
            tf->TransferStart = args->MultipassOffset == 0;
            tf->TransferEnd = 1;
        }
        NTSTATUS st = a->driver.ddi.DxgkDdiBuildPagingBuffer(a->miniport, args);
        UINT8 *end = args->pDmaBuffer;
        if (end < start || end > p->dma + p->dma_capacity) {
            dxgk_refuse("verifier: DxgkDdiBuildPagingBuffer moved pDmaBuffer outside the paging buffer");
            return STATUS_UNSUCCESSFUL;
        }
        if ((UINT)(end - start) > offered) {
            /* The room past DmaSize may hold what the next operation writes (or, on Windows,
             * what VidMm already batched): writing there corrupts it. */
            dxgk_verifier_report(a, "DxgkDdiBuildPagingBuffer", "Paging.DmaSize", false,
                                 "operation %d wrote %u bytes where DmaSize offered %u: a KMD must stop at DmaSize "
                                 "and answer STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER with MultipassOffset set",
                                 (int)args->Operation, (UINT)(end - start), offered);
            return STATUS_UNSUCCESSFUL;
        }
        p->dma_used += (UINT)(end - start);
        if (NT_SUCCESS(st))
            return STATUS_SUCCESS;
        if (st == STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER) {
            DXGK_COUNT(a, paging_multipass, 1);
            if (p->dma_used == 0) {
                if (offered < p->dma_capacity) { /* a stress room too small for one step: grow it */
                    room = offered > p->dma_capacity / 2 ? p->dma_capacity : offered * 2;
                    continue;
                }
                dxgk_refuse("verifier: DxgkDdiBuildPagingBuffer op %d does not fit an empty %u-byte paging buffer",
                            (int)args->Operation, p->dma_capacity);
                return STATUS_UNSUCCESSFUL;
            }
            submit_current_locked(b); /* MultipassOffset is left as the KMD set it */
            continue;
        }
        bool said_idle = tf ? tf->AllocationIsIdle : args->DiscardContent.Flags.AllocationIsIdle;
        if (st == STATUS_GRAPHICS_ALLOCATION_BUSY && inst && !said_idle &&
            (tf || args->Operation == DXGK_OPERATION_DISCARD_CONTENT)) {
            /* Submit what is built first (the wait may need it) and stamp the instances of the
             * batch so far with its fence: while the lock is let go, others must see the real
             * paging fences of what this batch placed. */
            vidmm_paging_flush_locked(b);
            vidmm_instance_wait_locked(a, inst, false);
            if (tf)
                tf->AllocationIsIdle = 1;
            else
                args->DiscardContent.Flags.AllocationIsIdle = 1;
            continue;
        }
        dxgk_refuse("verifier: DxgkDdiBuildPagingBuffer op %d failed 0x%08x", (int)args->Operation, (unsigned)st);
        return st;
    }
}

void vidmm_paging_flush_locked(struct vidmm_paging_batch *b)
{
    WDDM_ASSERT_HELD(&b->adapter->lock);
    submit_current_locked(b);
    /* Fences are cumulative per node: the last one covers every buffer of the batch. */
    while (b->stamp) {
        struct vidmm_instance *in = b->stamp;
        b->stamp = in->paging_next;
        in->paging_next = NULL;
        in->in_batch = false;
        in->gpu_fence = b->fence;
        if (in->stamp_fill)
            in->paging_fence = b->fence;
        in->stamp_fill = false;
    }
}
