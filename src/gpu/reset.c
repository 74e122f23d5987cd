/* Engine reset on the software GPU (DxgkDdiResetEngine / DxgkDdiResetFromTimeout's hardware
 * side, docs/semantics.md §8.3), what the KMD's timeout detection reads (progress, hang), and the
 * loss of power (DxgkDdiSetPowerState to D3: swgpu_power_off).
 *
 * swgpu_reset_engine asks the engine's thread to abandon what it executes — a buffer stopped in
 * an injected hang, or a running one at its next command boundary — and to drop its ring; it
 * returns only when the engine is idle and can take new work, as ResetEngine must. The
 * abandoned buffer's fence (or, when nothing was executing, the last completed fence) becomes
 * the last-completed-fence register: LastAbortedFenceId, within [last completed, last
 * submitted] as §8.3 requires. No interrupt is raised for the abandoned buffer: the KMD
 * updates its own record of the reported fence under interrupt synchronization instead. */
#include "gpu/gpu_internal.h"

#include <sys/mman.h>

void swgpu_finish_reset_locked(struct swgpu_engine *e, const struct swgpu_ring_entry *abandoned)
{
    UINT32 aborted = abandoned ? abandoned->fence_id : atomic_load_explicit(&e->last_completed, memory_order_acquire);
    e->ring_count = 0;
    /* The loaded context's registers are lost with the work (context_state.c): it resumes from
     * its last save. */
    swgpu_state_unload(e, 0);
    /* Pending preemption requests die with the work they were about (the kernel asks again
     * after recovery if it needs to). */
    e->preempt_pending_count = 0;
    e->preempt_mid_count = 0;
    atomic_store_explicit(&e->last_completed, aborted, memory_order_release);
    e->reset_aborted = aborted;
    e->busy = 0;
    e->hung = 0;
    e->drops++;
    e->reset_done = e->reset_requested;
    swgpu_update_stop_request_locked(e);
    pthread_cond_broadcast(&e->done_cv);
}

int swgpu_reset_engine(struct swgpu *gpu, UINT32 engine, UINT32 *last_aborted)
{
    if (!gpu || engine >= gpu->engine_count)
        return -1;
    struct swgpu_engine *e = &gpu->engines[engine];
    pthread_mutex_lock(&e->lock);
    UINT64 gen = ++e->reset_requested;
    swgpu_update_stop_request_locked(e);
    atomic_fetch_add_explicit(&e->doorbell, 1, memory_order_release);
    pthread_cond_broadcast(&e->work_cv);
    while (!e->stop && (INT64)(e->reset_done - gen) < 0)
        pthread_cond_wait(&e->done_cv, &e->lock);
    UINT32 aborted = e->stop ? atomic_load_explicit(&e->last_completed, memory_order_acquire) : e->reset_aborted;
    pthread_mutex_unlock(&e->lock);
    if (last_aborted)
        *last_aborted = aborted;
    return 0;
}

void swgpu_power_off(struct swgpu *gpu, UINT32 lost_segments)
{
    if (!gpu)
        return;
    for (UINT32 i = 0; i < gpu->engine_count; i++) {
        struct swgpu_engine *e = &gpu->engines[i];
        pthread_mutex_lock(&e->lock); /* idle: its thread waits for work under this lock */
        swgpu_state_unload(e, 0);
        pthread_mutex_unlock(&e->lock);
    }
    for (UINT32 i = 0; i < gpu->segment_count; i++) {
        struct swgpu_segment *s = &gpu->segments[i];
        /* Unpowered DRAM forgets: the lazily committed pages go back, and read zero again. */
        if ((lost_segments & (1u << i)) && s->host)
            (void)madvise(s->host, s->size, MADV_DONTNEED);
    }
}

void swgpu_force_completed_fence(struct swgpu *gpu, UINT32 engine, UINT32 fence_id)
{
    if (!gpu || engine >= gpu->engine_count)
        return;
    struct swgpu_engine *e = &gpu->engines[engine];
    pthread_mutex_lock(&e->lock);
    atomic_store_explicit(&e->last_completed, fence_id, memory_order_release);
    pthread_cond_broadcast(&e->done_cv);
    pthread_mutex_unlock(&e->lock);
}

UINT64 swgpu_engine_progress(struct swgpu *gpu, UINT32 engine)
{
    if (!gpu || engine >= gpu->engine_count)
        return 0;
    return atomic_load_explicit(&gpu->engines[engine].progress, memory_order_relaxed);
}

int swgpu_engine_hung(struct swgpu *gpu, UINT32 engine)
{
    if (!gpu || engine >= gpu->engine_count)
        return 0;
    struct swgpu_engine *e = &gpu->engines[engine];
    pthread_mutex_lock(&e->lock);
    int hung = e->hung;
    pthread_mutex_unlock(&e->lock);
    return hung;
}

int swgpu_engine_paused(struct swgpu *gpu, UINT32 engine)
{
    if (!gpu || engine >= gpu->engine_count)
        return 0;
    return swgpu_control_paused(); /* pause is process-wide: every engine of every GPU */
}
