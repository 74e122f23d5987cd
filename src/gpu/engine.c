/* GPU engines: one thread per engine executing its ring in order (docs/architecture.md "Threads and
 * waiting"). After each DMA buffer the engine writes the buffer's fence to its
 * last-completed-fence register, then raises the interrupt line (docs/semantics.md §8.1 step 5,
 * §8.2 invariant 1: completion is in submission order per node).
 *
 * Preemption (preempt.c) and reset (reset.c) requests are handled here, on the engine's own
 * thread: between two buffers by the main loop, between two commands through the command
 * processor's boundary check (exec.c).
 *
 * Waiting: an idle engine polls for up to SWGPU_SPIN_NS before
 * blocking on its condition variable, so back-to-back submissions do not pay a futex wake-up
 * each, and nothing busy-waits for long. */
#include "gpu/gpu_internal.h"
#include "common/alloc.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

/* An idle engine polls this long before blocking. Work submitted back to back (a frame
 * loop's DMA buffers are a few µs apart) then starts without a futex wake-up, which costs the
 * submitter a system call and the engine ~20 µs to wake on this VM (issue 2 benchmark note);
 * past it the engine sleeps, so nothing busy-waits for long. */
#define SWGPU_SPIN_NS 50000ull

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static UINT64 now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (UINT64)ts.tv_sec * 1000000000ull + (UINT64)ts.tv_nsec;
}

void swgpu_raise_interrupt(struct swgpu *gpu)
{
    swgpu_stat_add(SWGPU_STAT_INTERRUPTS, 1);
    if (gpu->interrupt)
        gpu->interrupt(gpu->interrupt_context);
}

/* Something for the engine thread to do: a reset (even while paused: it is the hardware being
 * reset), or, unless paused, a ring entry or a preemption request to answer. A paused engine
 * answers nothing ("finishes nothing new", include/wddm/swgpu.h): a preemption requested
 * while paused is answered when it resumes, before it takes any entry. */
static int has_work_locked(struct swgpu_engine *e)
{
    if (swgpu_reset_pending_locked(e))
        return 1;
    return (e->ring_count > 0 || e->preempt_pending_count > 0) && !swgpu_control_paused();
}

/* Waits (lock held) until `ready` holds or the engine stops; spins briefly first. */
static void wait_locked(struct swgpu_engine *e, pthread_cond_t *cv, int (*ready)(struct swgpu_engine *))
{
    UINT64 t0 = 0;
    while (!e->stop && !ready(e)) {
        UINT64 t = now_ns();
        if (!t0)
            t0 = t;
        if (t - t0 < SWGPU_SPIN_NS) {
            /* Poll the doorbell, not the lock: re-taking the lock here would contend with
             * the submitter it is waiting for. */
            unsigned bell = atomic_load_explicit(&e->doorbell, memory_order_acquire);
            pthread_mutex_unlock(&e->lock);
            for (int i = 0; i < 64 && atomic_load_explicit(&e->doorbell, memory_order_acquire) == bell; i++)
                cpu_relax();
            pthread_mutex_lock(&e->lock);
            continue;
        }
        pthread_cond_wait(cv, &e->lock);
    }
}

static int unpaused_or_reset(struct swgpu_engine *e)
{
    return !swgpu_control_paused() || swgpu_reset_pending_locked(e);
}

static int reset_requested(struct swgpu_engine *e)
{
    return swgpu_reset_pending_locked(e);
}

void swgpu_record_fault_locked(struct swgpu_engine *e, const struct swgpu_fault *f)
{
    UINT32 slot;
    if (e->fault_count == SWGPU_FAULT_QUEUE) {
        /* Queue full: drop the oldest; faults_total still counts it. */
        e->fault_head = (e->fault_head + 1) % SWGPU_FAULT_QUEUE;
        e->fault_count--;
    }
    slot = (e->fault_head + e->fault_count) % SWGPU_FAULT_QUEUE;
    e->faults[slot] = *f;
    e->fault_count++;
    atomic_fetch_add_explicit(&e->faults_total, 1, memory_order_relaxed);
}

void swgpu_update_stop_request_locked(struct swgpu_engine *e)
{
    unsigned bits = (swgpu_reset_pending_locked(e) ? SWGPU_STOP_RESET : 0u) |
                    (e->preempt_mid_count ? SWGPU_STOP_PREEMPT_MID : 0u);
    atomic_store_explicit(&e->stop_request, bits, memory_order_relaxed);
}

/* Runs one entry taken from the ring (lock not held); returns with the lock held. */
static void run_entry(struct swgpu_engine *e, const struct swgpu_ring_entry *entry)
{
    struct swgpu_exec_run run = {.entry = entry, .from = entry->start};
    struct swgpu_fault state_fault, csa_fault, fault;
    memset(&state_fault, 0, sizeof state_fault);
    memset(&csa_fault, 0, sizeof csa_fault);
    memset(&fault, 0, sizeof fault);
    fault.engine = e->index;
    fault.fence_id = entry->fence_id;
    /* The context's registers first (context_state.c), then where its command processor was. */
    int state_faulted = swgpu_state_switch(e, entry, &state_fault);
    int csa_faulted = swgpu_csa_begin(e, &run, &csa_fault);
    /* GpuMmu: the command processor reads the buffer through the MMU (issue 6). */
    if (entry->root)
        swgpu_mmu_fetch(e, &run);
    int rc = swgpu_exec_buffer(e, &run, &fault);

    pthread_mutex_lock(&e->lock);
    /* Paused while executing: hold the completion too ("finishes nothing new"); a reset
     * still gets through. */
    wait_locked(e, &e->work_cv, unpaused_or_reset);
    if (state_faulted)
        swgpu_record_fault_locked(e, &state_fault);
    if (csa_faulted)
        swgpu_record_fault_locked(e, &csa_fault);
    if (e->stop)
        return;
    if (swgpu_reset_pending_locked(e)) {
        /* Stopped at a boundary for the reset, or finished while the reset waited: either
         * way abandoned, its fence is not completed by an interrupt (docs/semantics.md §8.3). */
        swgpu_finish_reset_locked(e, entry);
        return;
    }
    if (rc == SWGPU_EXEC_STOPPED) {
        /* Preempted in the middle with its state in the save record: the fence does not
         * complete; the scheduler resubmits the buffer (§8.2 invariant 4). The answer is
         * raised by the main loop (the request is still pending). */
        e->busy = 0;
        pthread_cond_broadcast(&e->done_cv);
        return;
    }
    if (rc == SWGPU_EXEC_FAULT)
        swgpu_record_fault_locked(e, &fault);
    /* The register is written before the interrupt so the ISR reads the new value; the
     * release pairs with the ISR's acquire load and publishes the buffer's memory effects to
     * whoever observes the fence. */
    /* Counted before the fence: whoever sees the fence also sees the buffer counted. */
    swgpu_stat_add(SWGPU_STAT_DMA_BUFFERS, 1);
    atomic_store_explicit(&e->last_completed, entry->fence_id, memory_order_release);
    atomic_store_explicit(&e->progress, atomic_load_explicit(&e->progress, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    e->busy = 0;
    pthread_cond_broadcast(&e->done_cv);
    pthread_mutex_unlock(&e->lock);

    swgpu_raise_interrupt(e->gpu);
    pthread_mutex_lock(&e->lock);
}

static void *engine_main(void *arg)
{
    struct swgpu_engine *e = arg;
    pthread_mutex_lock(&e->lock);
    for (;;) {
        wait_locked(e, &e->work_cv, has_work_locked);
        if (e->stop)
            break;
        /* Between buffers: a reset has nothing to abandon; a preemption stops here. */
        if (swgpu_reset_pending_locked(e)) {
            swgpu_finish_reset_locked(e, NULL);
            continue;
        }
        if (e->preempt_pending_count) {
            swgpu_answer_preemptions_locked(e);
            continue;
        }
        struct swgpu_ring_entry entry = e->ring[e->ring_head];
        e->ring_head = (e->ring_head + 1) % e->ring_cap;
        e->ring_count--;
        e->busy = 1;
        if (entry.hang) {
            /* Injected hang: no command runs and preemption is not answered; only a reset
             * (or the GPU's destruction) gets the engine out (docs/semantics.md §8.3). Blocks on
             * the condition variable, no busy-wait. */
            e->hung = 1;
            wait_locked(e, &e->work_cv, reset_requested);
            e->hung = 0;
            if (e->stop)
                break;
            swgpu_finish_reset_locked(e, &entry);
            continue;
        }
        pthread_mutex_unlock(&e->lock);
        run_entry(e, &entry);
        if (e->stop)
            break;
    }
    e->busy = 0;
    e->hung = 0;
    pthread_cond_broadcast(&e->done_cv);
    pthread_mutex_unlock(&e->lock);
    return NULL;
}

int swgpu_engines_start(struct swgpu *gpu)
{
    for (UINT32 i = 0; i < gpu->engine_count; i++) {
        struct swgpu_engine *e = &gpu->engines[i];
        e->gpu = gpu;
        e->index = i;
        e->ring_cap = 64;
        e->ring = wddm_calloc(e->ring_cap, sizeof(*e->ring));
        if (!e->ring)
            return -1;
        pthread_mutex_init(&e->lock, NULL);
        pthread_cond_init(&e->work_cv, NULL);
        pthread_cond_init(&e->done_cv, NULL);
        atomic_init(&e->last_completed, 0);
        atomic_init(&e->doorbell, 0);
        atomic_init(&e->faults_total, 0);
        atomic_init(&e->stop_request, 0);
        atomic_init(&e->progress, 0);
        atomic_init(&e->tlb_hits, 0);
        atomic_init(&e->tlb_misses, 0);
        atomic_init(&e->loaded_context, 0);
        atomic_init(&e->state_saves, 0);
        atomic_init(&e->state_loads, 0);
    }
    if (swgpu_copy_unit_start(gpu))
        return -1;
    for (UINT32 i = 0; i < gpu->engine_count; i++) {
        struct swgpu_engine *e = &gpu->engines[i];
        if (pthread_create(&e->thread, NULL, engine_main, e) != 0)
            return -1;
        e->thread_started = 1;
    }
    return 0;
}

void swgpu_engines_stop(struct swgpu *gpu)
{
    for (UINT32 i = 0; i < gpu->engine_count; i++) {
        struct swgpu_engine *e = &gpu->engines[i];
        if (!e->ring)
            continue;
        pthread_mutex_lock(&e->lock);
        e->stop = 1;
        pthread_cond_broadcast(&e->work_cv);
        pthread_cond_broadcast(&e->done_cv);
        pthread_mutex_unlock(&e->lock);
    }
    for (UINT32 i = 0; i < gpu->engine_count; i++) {
        struct swgpu_engine *e = &gpu->engines[i];
        if (e->thread_started)
            pthread_join(e->thread, NULL);
        e->thread_started = 0;
        if (e->ring) {
            pthread_mutex_destroy(&e->lock);
            pthread_cond_destroy(&e->work_cv);
            pthread_cond_destroy(&e->done_cv);
            swgpu_mmu_engine_fini(e);
            free(e->ring);
            e->ring = NULL;
        }
    }
    swgpu_copy_unit_stop(gpu); /* no engine posts to it any more */
}

void swgpu_engine_kick(struct swgpu_engine *e)
{
    pthread_mutex_lock(&e->lock);
    pthread_cond_broadcast(&e->work_cv);
    pthread_mutex_unlock(&e->lock);
}

int swgpu_submit(struct swgpu *gpu, UINT32 engine, const void *dma, UINT32 start, UINT32 end,
                 UINT32 fence_id, int paging)
{
    struct swgpu_submission s = {.dma = dma, .start = start, .end = end, .fence_id = fence_id, .paging = paging};
    return swgpu_submit2(gpu, engine, &s);
}

int swgpu_submit2(struct swgpu *gpu, UINT32 engine, const struct swgpu_submission *s)
{
    if (!gpu || !s || engine >= gpu->engine_count)
        return -1;
    struct swgpu_engine *e = &gpu->engines[engine];
    UINT32 end = s->end;
    if (end < s->start)
        end = s->start; /* an empty buffer still completes its fence */
    pthread_mutex_lock(&e->lock);
    if (e->ring_count == e->ring_cap) {
        /* Grow instead of failing: DxgkDdiSubmitCommand must not fail (docs/semantics.md §8.1). */
        size_t cap = e->ring_cap * 2;
        struct swgpu_ring_entry *r = wddm_malloc(cap * sizeof(*r));
        while (!r && !e->stop) {
            /* Out of memory: wait for the engine to drain one entry instead. */
            pthread_cond_wait(&e->done_cv, &e->lock);
            if (e->ring_count < e->ring_cap)
                break;
            r = wddm_malloc(cap * sizeof(*r));
        }
        if (r) {
            for (size_t i = 0; i < e->ring_count; i++)
                r[i] = e->ring[(e->ring_head + i) % e->ring_cap];
            free(e->ring);
            e->ring = r;
            e->ring_cap = cap;
            e->ring_head = 0;
        }
        if (e->ring_count == e->ring_cap) { /* stopping */
            pthread_mutex_unlock(&e->lock);
            return 0;
        }
    }
    struct swgpu_ring_entry *slot = &e->ring[(e->ring_head + e->ring_count) % e->ring_cap];
    slot->dma = s->dma;
    slot->start = s->start;
    slot->end = end;
    slot->fence_id = s->fence_id;
    slot->paging = s->paging;
    slot->csa_addr = s->csa_addr;
    slot->resubmission = s->resubmission;
    slot->context_id = s->context_id;
    slot->state_addr = s->state_addr;
    slot->switch_to_null = s->switch_to_null;
    slot->hang = 0;
    /* A root page table makes this a VA-mode buffer (issue 6); root 0 keeps WDDM 1.x exactly.
     * More root entries than the VA bits can index would only name VAs that fault anyway. */
    slot->root = s->root_page_table & SWGPU_PTE_ADDR_MASK;
    slot->root_entries = s->root_entries > SWGPU_PT_ROOT_MAX_ENTRIES ? SWGPU_PT_ROOT_MAX_ENTRIES : s->root_entries;
    if (s->pasid) { /* IoMmu: the process's address space, translated by the platform's IOMMU */
        slot->root = SWGPU_ROOT_IOMMU | s->pasid;
        slot->root_entries = 0;
    }
    slot->dma_va = slot->root ? s->dma_va : 0;
    if (slot->root)
        slot->dma = NULL;
    /* wddm_swgpu_inject_hang arms the next non-paging buffer: paging buffers never hang (a
     * hung paging engine would take every device down, not the test's), nor do the kernel's
     * zero-length context switches. A hang dropped by a
     * preemption goes to this engine's next one (the resubmission). */
    if (!s->paging && !s->switch_to_null) {
        if (e->rearm_hangs) {
            e->rearm_hangs--;
            slot->hang = 1;
        } else {
            slot->hang = swgpu_control_take_hang();
        }
    }
    e->ring_count++;
    atomic_fetch_add_explicit(&e->doorbell, 1, memory_order_release);
    pthread_cond_signal(&e->work_cv);
    pthread_mutex_unlock(&e->lock);
    return 0;
}

UINT32 swgpu_last_completed_fence(struct swgpu *gpu, UINT32 engine)
{
    if (!gpu || engine >= gpu->engine_count)
        return 0;
    return atomic_load_explicit(&gpu->engines[engine].last_completed, memory_order_acquire);
}

static int idle(struct swgpu_engine *e)
{
    return e->ring_count == 0 && !e->busy;
}

void swgpu_wait_idle(struct swgpu *gpu, UINT32 engine)
{
    if (!gpu || engine >= gpu->engine_count)
        return;
    struct swgpu_engine *e = &gpu->engines[engine];
    pthread_mutex_lock(&e->lock);
    wait_locked(e, &e->done_cv, idle);
    pthread_mutex_unlock(&e->lock);
}

void swgpu_wait_fence(struct swgpu *gpu, UINT32 engine, UINT32 fence_id)
{
    if (!gpu || engine >= gpu->engine_count)
        return;
    struct swgpu_engine *e = &gpu->engines[engine];
    pthread_mutex_lock(&e->lock);
    int spins = 0;
    /* A reset drops work whose fences never complete: the wait ends there too, so no waiter
     * hangs forever around a reset. */
    UINT64 drops = e->drops;
    while (!e->stop && e->drops == drops &&
           (INT32)(atomic_load_explicit(&e->last_completed, memory_order_acquire) - fence_id) < 0) {
        if (spins++ < 8) { /* a few yields: this wait is for tests and teardown, not a hot path */
            pthread_mutex_unlock(&e->lock);
            sched_yield();
            pthread_mutex_lock(&e->lock);
            continue;
        }
        pthread_cond_wait(&e->done_cv, &e->lock);
    }
    pthread_mutex_unlock(&e->lock);
}

int swgpu_take_fault(struct swgpu *gpu, UINT32 engine, struct swgpu_fault *out)
{
    if (!gpu || engine >= gpu->engine_count)
        return 0;
    struct swgpu_engine *e = &gpu->engines[engine];
    int taken = 0;
    pthread_mutex_lock(&e->lock);
    if (e->fault_count) {
        *out = e->faults[e->fault_head];
        e->fault_head = (e->fault_head + 1) % SWGPU_FAULT_QUEUE;
        e->fault_count--;
        taken = 1;
    }
    pthread_mutex_unlock(&e->lock);
    return taken;
}

UINT64 swgpu_fault_count(struct swgpu *gpu, UINT32 engine)
{
    if (!gpu || engine >= gpu->engine_count)
        return 0;
    return atomic_load_explicit(&gpu->engines[engine].faults_total, memory_order_relaxed);
}

UINT32 swgpu_engine_count(const struct swgpu *gpu)
{
    return gpu ? gpu->engine_count : 0;
}
