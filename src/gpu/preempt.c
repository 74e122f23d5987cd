/* Preemption on the software GPU (DxgkDdiPreemptCommand's hardware side, docs/semantics.md §8.2
 * invariant 4, "GPU preemption" in the WDK guide).
 *
 * A request is only recorded here; the engine's own thread answers it, never the caller's
 * (the kernel calls PreemptCommand with its own locks held, and the answer is an interrupt).
 * The engine stops
 *  - mid_buffer: at the next command boundary (a command is this GPU's primitive, so this is
 *    PRIMITIVE_BOUNDARY granularity). If the buffer has a save record (csa_addr) the engine
 *    writes where it stopped into it and leaves the buffer's fence uncompleted; without one it
 *    finishes the buffer (it has nowhere to keep the state);
 *  - otherwise: at the end of the buffer it is executing (DMA_BUFFER_BOUNDARY).
 * Then it drops every entry still in its ring (the scheduler resubmits them), records
 * {PreemptionFenceId, last completed fence} and raises the interrupt. An idle engine answers
 * at once; a hung engine never does (the kernel then resets it, §8.3).
 *
 * The save record is the context's whole state (the command processor's position): a
 * resubmitted buffer (DXGK_SUBMITCOMMANDFLAGS.Resubmission) whose record names it starts where
 * it stopped. Every entry with a save area consumes (clears) the record when it starts, so a
 * stale record is never used twice. */
#include "gpu/gpu_internal.h"

#include <string.h>

/* What names a buffer in its save record: the host address in physical mode, the VA (with the
 * root beside it) in VA mode, where the host address is not the buffer's (issue 6). */
static UINT64 buffer_id(const struct swgpu_ring_entry *en)
{
    return en->root ? en->dma_va : (UINT64)(uintptr_t)en->dma;
}

static void csa_fault(struct swgpu_engine *e, const struct swgpu_exec_run *run, UINT32 offset,
                      struct swgpu_fault *f)
{
    memset(f, 0, sizeof *f);
    f->engine = e->index;
    f->fence_id = run->entry->fence_id;
    f->opcode = SWGPU_OP_COUNT;
    f->command_offset = offset;
    f->address = run->entry->csa_addr;
    f->reason = "context save area outside its segment or unmapped: the buffer runs to its end";
}

int swgpu_csa_begin(struct swgpu_engine *e, struct swgpu_exec_run *run, struct swgpu_fault *fault)
{
    const struct swgpu_ring_entry *en = run->entry;
    run->from = en->start;
    run->commands_done = 0;
    run->csa_addr = en->csa_addr;
    if (!en->csa_addr)
        return 0;
    struct swgpu_csa_record rec;
    if (swgpu_mem_copy(e->gpu, en->csa_addr, &rec, sizeof rec, 0) != 0) {
        csa_fault(e, run, en->start, fault);
        run->csa_addr = 0;
        return 1;
    }
    if (en->resubmission && rec.magic == SWGPU_CSA_RECORD_MAGIC && rec.dma == buffer_id(en) && rec.root == en->root &&
        rec.end == en->end && rec.resume_offset >= en->start && rec.resume_offset < en->end) {
        run->from = rec.resume_offset;
        run->commands_done = rec.commands_done;
    }
    /* Consumed, used or not: a later buffer never resumes from a stale record. */
    if (rec.magic != 0) {
        UINT32 zero = 0;
        if (swgpu_mem_copy(e->gpu, en->csa_addr, &zero, sizeof zero, 1) != 0) {
            csa_fault(e, run, en->start, fault);
            run->csa_addr = 0;
            return 1;
        }
    }
    return 0;
}

int swgpu_engine_boundary(struct swgpu_engine *e, struct swgpu_exec_run *run, UINT32 next_offset)
{
    int stop = 0;
    pthread_mutex_lock(&e->lock);
    if (swgpu_reset_pending_locked(e)) {
        run->stop_reason = SWGPU_STOP_RESET;
        stop = 1;
    } else if (e->preempt_mid_count && run->csa_addr) {
        struct swgpu_csa_record rec = {.magic = SWGPU_CSA_RECORD_MAGIC,
                                       .resume_offset = next_offset,
                                       .dma = buffer_id(run->entry),
                                       .end = run->entry->end,
                                       .commands_done = run->commands_done,
                                       .root = run->entry->root};
        if (swgpu_mem_copy(e->gpu, run->csa_addr, &rec, sizeof rec, 1) == 0) {
            run->stop_reason = SWGPU_STOP_PREEMPT_MID;
            stop = 1;
        } else {
            /* Nowhere to save the state: finish the buffer instead (its fence completes). */
            struct swgpu_fault f;
            csa_fault(e, run, next_offset, &f);
            swgpu_record_fault_locked(e, &f);
            run->csa_addr = 0;
        }
    }
    pthread_mutex_unlock(&e->lock);
    return stop;
}

void swgpu_answer_preemptions_locked(struct swgpu_engine *e)
{
    /* Drop what is still queued: the scheduler resubmits it (§8.2 invariant 4). A dropped
     * injected hang goes to the engine's next non-paging submission. */
    for (size_t i = 0; i < e->ring_count; i++)
        if (e->ring[(e->ring_head + i) % e->ring_cap].hang)
            e->rearm_hangs++;
    e->ring_count = 0;
    /* The engine stops in the null context: the loaded context's registers go to its state
     * area, from which it resumes when its buffers come back (context_state.c). */
    swgpu_state_unload(e, 1);
    UINT32 last = atomic_load_explicit(&e->last_completed, memory_order_acquire);
    for (UINT32 i = 0; i < e->preempt_pending_count; i++) {
        if (e->preempt_count == SWGPU_PREEMPT_QUEUE) {
            e->preempt_head = (e->preempt_head + 1) % SWGPU_PREEMPT_QUEUE;
            e->preempt_count--;
        }
        struct swgpu_preemption *p = &e->preemptions[(e->preempt_head + e->preempt_count) % SWGPU_PREEMPT_QUEUE];
        p->preemption_fence_id = e->preempt_pending[i];
        p->last_completed = last;
        e->preempt_count++;
    }
    e->preempt_pending_count = 0;
    e->preempt_mid_count = 0;
    swgpu_update_stop_request_locked(e);
    pthread_cond_broadcast(&e->done_cv); /* the ring is empty: idle waiters may go */
    if (e->stop)
        return;
    pthread_mutex_unlock(&e->lock);
    swgpu_raise_interrupt(e->gpu);
    pthread_mutex_lock(&e->lock);
}

void swgpu_preempt(struct swgpu *gpu, UINT32 engine, UINT32 preemption_fence_id, int mid_buffer)
{
    if (!gpu || engine >= gpu->engine_count)
        return;
    struct swgpu_engine *e = &gpu->engines[engine];
    pthread_mutex_lock(&e->lock);
    if (e->preempt_pending_count == SWGPU_PREEMPT_QUEUE)
        e->preempt_pending[SWGPU_PREEMPT_QUEUE - 1] = preemption_fence_id; /* merged */
    else
        e->preempt_pending[e->preempt_pending_count++] = preemption_fence_id;
    if (mid_buffer)
        e->preempt_mid_count++;
    swgpu_update_stop_request_locked(e);
    atomic_fetch_add_explicit(&e->doorbell, 1, memory_order_release);
    pthread_cond_broadcast(&e->work_cv);
    pthread_mutex_unlock(&e->lock);
}

int swgpu_take_preemption(struct swgpu *gpu, UINT32 engine, struct swgpu_preemption *out)
{
    if (!gpu || engine >= gpu->engine_count || !out)
        return 0;
    struct swgpu_engine *e = &gpu->engines[engine];
    int taken = 0;
    pthread_mutex_lock(&e->lock);
    if (e->preempt_count) {
        *out = e->preemptions[e->preempt_head];
        e->preempt_head = (e->preempt_head + 1) % SWGPU_PREEMPT_QUEUE;
        e->preempt_count--;
        taken = 1;
    }
    pthread_mutex_unlock(&e->lock);
    return taken;
}
