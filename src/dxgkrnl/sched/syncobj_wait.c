/* Waiting on and signalling synchronization objects (docs/semantics.md §8.5; issues 4 and 20).
 * The objects themselves: sched/syncobj.c.
 *
 * From the CPU (monitored fences only, §8.5 rule 1): D3DKMTSignalSynchronizationObjectFromCpu
 * writes the values, D3DKMTWaitForSynchronizationObjectFromCpu blocks until they are reached.
 * The CPU reads a monitored fence through its read-only page and never writes it.
 *
 * From the GPU, in a context's stream: a signal is applied when every DMA buffer the context
 * had queued before the call retired (§8.5 rule 4, and the DPC rule 3); a wait holds the
 * context's later DMA buffers (sched/queue.c) until every object is available at once, and
 * then takes the mutexes and semaphores it waited on. Monitored fences go through the FromGpu
 * calls; mutexes, semaphores, fences and CPU notifications through
 * D3DKMTSignalSynchronizationObject(2) / D3DKMTWaitForSynchronizationObject(2). There is no GPU
 * virtual address space in the WDDM 1.x model: a monitored fence's FenceValueGPUVirtualAddress
 * is 0 and the GPU signals it in software, at retirement.
 *
 * Waiting (docs/architecture.md "Threads and waiting"): a CPU wait spins briefly, then blocks on one
 * process-wide condition variable; every signal broadcasts it under its lock after writing the
 * values, so a waiter that checked the values with the lock held cannot miss the signal.
 * Unsatisfied GPU waits sit on a registry in the order they were made, so the oldest wait on a
 * mutex or a semaphore takes it first. Lock order: the sync lock is taken with no lock but
 * possibly the adapter lock held (the DPC takes it after letting go of node->lock). */
#include "dxgkrnl/sched/sched.h"
#include "common/alloc.h"
#include "common/deadline.h"
#include "common/event.h"
#include "common/timeline.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SYNC_SPIN_NS 4000u

static struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;              /* broadcast after every signal and destruction */
} sync_wait = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER };

/* Unsatisfied GPU waits of every context; sync lock. */
static struct gsched_gpu_wait *registry;

/* Takes what a GPU wait needs of one object, if it is available (sync lock held): a fence
 * reached the value, a mutex is free (now owned), a semaphore counts above 0 (now one less). */
static bool take_one(struct dxgk_syncobj *o, UINT64 value)
{
    UINT64 cur = atomic_load_explicit(o->value, memory_order_acquire);
    switch (o->type) {
    case D3DDDI_SYNCHRONIZATION_MUTEX:
        if (cur)
            return false;
        atomic_store_explicit(o->value, 1, memory_order_relaxed);
        return true;
    case D3DDDI_SEMAPHORE:
        if (!cur)
            return false;
        atomic_store_explicit(o->value, cur - 1, memory_order_relaxed);
        return true;
    default:
        return cur >= value;
    }
}

static void give_back_one(struct dxgk_syncobj *o)
{
    if (o->type == D3DDDI_SYNCHRONIZATION_MUTEX)
        atomic_store_explicit(o->value, 0, memory_order_relaxed);
    else if (o->type == D3DDDI_SEMAPHORE)
        atomic_fetch_add_explicit(o->value, 1, memory_order_relaxed);
}

/* All or nothing (sync lock held): a wait takes every object at once or none of them. */
static bool gpu_wait_take(const struct gsched_gpu_wait *w)
{
    WDDM_ASSERT_HELD(&sync_wait.lock);
    for (UINT i = 0; i < w->count; i++) {
        if (!take_one(w->obj[i], w->value[i])) {
            while (i--)
                give_back_one(w->obj[i]);
            return false;
        }
    }
    return true;
}

/* After values changed (sync lock held): every GPU wait that can now take its objects leaves
 * the registry, oldest first, and its node's worker is woken to release the held packets (lock
 * order: sync lock -> node->lock). */
static void release_satisfied_waits_locked(void)
{
    WDDM_ASSERT_HELD(&sync_wait.lock);
    struct gsched_gpu_wait **pp = &registry;
    while (*pp) {
        struct gsched_gpu_wait *w = *pp;
        if (!gpu_wait_take(w)) {
            pp = &w->reg_next;
            continue;
        }
        *pp = w->reg_next;
        w->registered = false;
        atomic_store_explicit(&w->satisfied, true, memory_order_release);
        pthread_mutex_lock(&w->node->lock);
        w->node->release_waits = true;
        pthread_cond_signal(&w->node->work_cond);
        pthread_mutex_unlock(&w->node->lock);
    }
}

/* A CPU wait with hAsyncEvent: the call returned at once; the event is set when the wait is
 * satisfied, or when one of its objects is destroyed (so that nothing waits forever on an event
 * that can no longer come). */
struct async_wait {
    struct async_wait *next;          /* async_waits; sync lock */
    struct wddm_event *event;         /* one reference */
    bool any;
    UINT count;
    struct dxgk_syncobj *obj[D3DDDI_MAX_OBJECT_WAITED_ON]; /* each holds a reference */
    UINT64 value[D3DDDI_MAX_OBJECT_WAITED_ON];
};
static struct async_wait *async_waits; /* sync lock */

static int wait_state(struct dxgk_syncobj **objs, const UINT64 *values, UINT count, bool any);

/* Sets and frees every async wait that is over (sync lock held). */
static void finish_async_waits_locked(void)
{
    WDDM_ASSERT_HELD(&sync_wait.lock);
    struct async_wait **pp = &async_waits;
    while (*pp) {
        struct async_wait *w = *pp;
        if (wait_state(w->obj, w->value, w->count, w->any) == 0) {
            pp = &w->next;
            continue;
        }
        *pp = w->next;
        wddm_event_signal(w->event);
        wddm_event_put(w->event);
        dxgk_syncobj_put_n(w->obj, w->count);
        free(w);
    }
}

/* After values changed or an object was destroyed (sync lock held): the GPU waits that can
 * now take their objects, the async waits that are over, and every blocked CPU waiter, which
 * re-checks its own objects. */
static void values_changed_locked(void)
{
    WDDM_ASSERT_HELD(&sync_wait.lock);
    if (registry)
        release_satisfied_waits_locked();
    if (async_waits)
        finish_async_waits_locked();
    pthread_cond_broadcast(&sync_wait.cond);
}

void dxgk_sync_wake_all(void)
{
    pthread_mutex_lock(&sync_wait.lock);
    values_changed_locked();
    pthread_mutex_unlock(&sync_wait.lock);
}

#define MONITORED_ONLY (1u << D3DDDI_MONITORED_FENCE)

/* The monitored fences a FromCpu call names, each with a reference, usable by hDevice. */
static NTSTATUS cpu_objects(const char *fn, D3DKMT_HANDLE hDevice, UINT count, const D3DKMT_HANDLE *handles,
                            const UINT64 *values, UINT max, struct dxgk_syncobj **out)
{
    struct dxgk_device *d = dxgk_device_get(hDevice);
    if (!d) {
        dxgk_refuse("%s: invalid device handle 0x%08x", fn, hDevice);
        return STATUS_INVALID_PARAMETER;
    }
    NTSTATUS st = STATUS_INVALID_PARAMETER;
    if (!values)
        dxgk_refuse("%s: FenceValueArray is NULL", fn);
    else
        st = dxgk_syncobj_get_n(fn, d, count, handles, max, MONITORED_ONLY, out);
    dxgk_device_put(d);
    return st;
}

NTSTATUS APIENTRY D3DKMTSignalSynchronizationObjectFromCpu(const D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMCPU *args)
{
    static const char fn[] = "D3DKMTSignalSynchronizationObjectFromCpu";
    if (!args) {
        dxgk_refuse("%s: NULL arguments", fn);
        return STATUS_INVALID_PARAMETER;
    }
    if (args->Flags.Value) {
        dxgk_refuse("%s: Flags 0x%x: no flag applies to a CPU signal", fn, args->Flags.Value);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_syncobj *objs[D3DDDI_MAX_OBJECT_SIGNALED];
    NTSTATUS st = cpu_objects(fn, args->hDevice, args->ObjectCount, args->ObjectHandleArray, args->FenceValueArray,
                              D3DDDI_MAX_OBJECT_SIGNALED, objs);
    if (!NT_SUCCESS(st))
        return st;
    /* Writes every value, then releases the satisfied waiters at once (§8.5 rule 1). */
    pthread_mutex_lock(&sync_wait.lock);
    for (UINT i = 0; i < args->ObjectCount; i++)
        atomic_store_explicit(objs[i]->value, args->FenceValueArray[i], memory_order_release);
    values_changed_locked();
    pthread_mutex_unlock(&sync_wait.lock);
    dxgk_syncobj_put_n(objs, args->ObjectCount);
    return STATUS_SUCCESS;
}

/* 1 = satisfied, 0 = not yet, -1 = an object was destroyed (the wait cannot be satisfied). */
static int wait_state(struct dxgk_syncobj **objs, const UINT64 *values, UINT count, bool any)
{
    UINT done = 0;
    bool dead = false;
    for (UINT i = 0; i < count; i++) {
        if (atomic_load_explicit(objs[i]->value, memory_order_acquire) >= values[i])
            done++;
        else if (atomic_load_explicit(&objs[i]->dead, memory_order_relaxed))
            dead = true;
    }
    if (any ? done > 0 : done == count)
        return 1;
    return dead ? -1 : 0;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* hAsyncEvent: returns at once; the event is set when the wait is satisfied (at once if it
 * already is). Takes the objects' references over. */
static NTSTATUS wait_async(const char *fn, const D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU *args,
                           struct dxgk_syncobj **objs)
{
    struct async_wait *w = wddm_calloc(1, sizeof *w);
    struct wddm_event *ev = w ? wddm_event_get(args->hAsyncEvent) : NULL;
    if (!ev) {
        if (w)
            dxgk_refuse("%s: hAsyncEvent %p is not an event handle", fn, args->hAsyncEvent);
        free(w);
        dxgk_syncobj_put_n(objs, args->ObjectCount);
        return w ? STATUS_INVALID_HANDLE : STATUS_NO_MEMORY;
    }
    w->event = ev;
    w->any = args->Flags.WaitAny;
    w->count = args->ObjectCount;
    for (UINT i = 0; i < w->count; i++) {
        w->obj[i] = objs[i];
        w->value[i] = args->FenceValueArray[i];
    }
    pthread_mutex_lock(&sync_wait.lock);
    w->next = async_waits;
    async_waits = w;
    finish_async_waits_locked(); /* already satisfied: set now */
    pthread_mutex_unlock(&sync_wait.lock);
    return STATUS_SUCCESS;
}

static NTSTATUS wait_from_cpu(const char *fn, const D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU *args, UINT timeout_ms)
{
    if (!args) {
        dxgk_refuse("%s: NULL arguments", fn);
        return STATUS_INVALID_PARAMETER;
    }
    if (args->Flags.Reserved) {
        dxgk_refuse("%s: reserved Flags bits 0x%x", fn, args->Flags.Value);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_syncobj *objs[D3DDDI_MAX_OBJECT_WAITED_ON];
    NTSTATUS st = cpu_objects(fn, args->hDevice, args->ObjectCount, args->ObjectHandleArray, args->FenceValueArray,
                              D3DDDI_MAX_OBJECT_WAITED_ON, objs);
    if (!NT_SUCCESS(st))
        return st;
    UINT count = args->ObjectCount;
    const UINT64 *values = args->FenceValueArray;
    bool any = args->Flags.WaitAny;
    if (args->hAsyncEvent)
        return wait_async(fn, args, objs);
    int state = wait_state(objs, values, count, any);
    if (state == 0 && timeout_ms != 0) { /* spin briefly: most waits end within a wake-up's cost */
        UINT64 t0 = dxgk_now_ns();
        do {
            for (int i = 0; i < 64; i++)
                cpu_relax();
            state = wait_state(objs, values, count, any);
        } while (state == 0 && dxgk_now_ns() - t0 < SYNC_SPIN_NS);
    }
    if (state == 0 && timeout_ms != 0) {
        struct timespec deadline = wddm_deadline_after_ms(CLOCK_REALTIME, timeout_ms);
        pthread_mutex_lock(&sync_wait.lock);
        while ((state = wait_state(objs, values, count, any)) == 0) {
            if (timeout_ms == WDDM_WAIT_INFINITE)
                pthread_cond_wait(&sync_wait.cond, &sync_wait.lock);
            else if (pthread_cond_timedwait(&sync_wait.cond, &sync_wait.lock, &deadline) == ETIMEDOUT) {
                state = wait_state(objs, values, count, any);
                break;
            }
        }
        pthread_mutex_unlock(&sync_wait.lock);
    }
    dxgk_syncobj_put_n(objs, count);
    if (state < 0) {
        dxgk_refuse("%s: a synchronization object was destroyed before the wait was satisfied", fn);
        return STATUS_INVALID_PARAMETER;
    }
    return state ? STATUS_SUCCESS : STATUS_TIMEOUT;
}

NTSTATUS APIENTRY D3DKMTWaitForSynchronizationObjectFromCpu(const D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU *args)
{
    wddm_tl_begin(WDDM_TL_CALL_FENCE_WAIT);
    NTSTATUS st = wait_from_cpu("D3DKMTWaitForSynchronizationObjectFromCpu", args, WDDM_WAIT_INFINITE);
    wddm_tl_end(WDDM_TL_CALL_FENCE_WAIT, (UINT64)(UINT32)st);
    return st;
}

NTSTATUS wddm_wait_for_synchronization_object_from_cpu_timeout(const D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU *args,
                                                               UINT timeout_ms)
{
    return wait_from_cpu("wddm_wait_for_synchronization_object_from_cpu_timeout", args, timeout_ms);
}

/* ---- GPU signal ------------------------------------------------------------------------------ */

/* A context's signal waits for a ticket; a paging queue's for a fence of the paging node
 * (vidmm/pagingqueue.c). node->lock held: the DPC advances both under it. The context's last
 * ticket itself is enough (gsched_ticket_done): a context's packets retire in their order, so
 * a higher-priority context's signal comes as soon as its own work is done, not when a
 * preempted lower-priority packet with an older ticket is (issue 20 §2). */
static bool signal_ready(const struct gsched_node *n, const struct gsched_gpu_signal *g)
{
    if (g->fence)
        return gsched_fence_completed(n, g->fence);
    return gsched_ticket_done(n, g->ticket);
}

/* Raises the value, never lowers it (sync lock held): paging-queue signals of one queue may
 * be applied out of order when several retire in one DPC. */
static void store_at_least(struct dxgk_syncobj *s, UINT64 value)
{
    UINT64 cur = atomic_load_explicit(s->value, memory_order_relaxed);
    if (cur < value)
        atomic_store_explicit(s->value, value, memory_order_release);
}

struct gsched_gpu_signal *gsched_gpu_signals_take_locked(struct gsched_node *n)
{
    WDDM_ASSERT_HELD(&n->lock);
    /* n->signals is newest first (gsched_gpu_signal_arm pushes at its head); the ones taken are
     * returned oldest first, so that signals of one context retiring in the same DPC write
     * their values in the order they were issued and the last one stays (§8.5 rule 4). */
    struct gsched_gpu_signal *taken = NULL;
    struct gsched_gpu_signal **pp = &n->signals;
    while (*pp) {
        struct gsched_gpu_signal *g = *pp;
        if (signal_ready(n, g)) {
            *pp = g->next;
            g->next = taken;
            taken = g;
        } else {
            pp = &g->next;
        }
    }
    return taken;
}

/* Applies one object's part of a GPU signal (sync lock held). */
static void signal_one(const struct gsched_gpu_signal *g, struct dxgk_syncobj *o, UINT64 value)
{
    /* A lost device runs nothing more: a signal it queued before the loss, released later (by a
     * wait the loss satisfied), would take back the maximum value its fences were given. */
    if (atomic_load_explicit(&o->lost, memory_order_acquire))
        return;
    UINT64 cur = atomic_load_explicit(o->value, memory_order_relaxed);
    switch (o->type) {
    case D3DDDI_SYNCHRONIZATION_MUTEX:
        atomic_store_explicit(o->value, 0, memory_order_release);
        break;
    case D3DDDI_SEMAPHORE:
        if (cur < o->shared->max_count)
            atomic_store_explicit(o->value, cur + 1, memory_order_release);
        break;
    case D3DDDI_CPU_NOTIFICATION:
        wddm_event_signal(o->shared->event);
        break;
    case D3DDDI_FENCE:
        if (value > cur || g->rewind)
            atomic_store_explicit(o->value, value, memory_order_release);
        break;
    default: /* monitored fence: a paging queue's signals only raise it (store_at_least) */
        if (g->fence)
            store_at_least(o, value);
        else
            atomic_store_explicit(o->value, value, memory_order_release);
        break;
    }
    wddm_tl(WDDM_TL_FENCE_SIGNAL, WDDM_TL_FENCES, o->handle, value);
}

void gsched_gpu_signal_free(struct gsched_gpu_signal *g)
{
    dxgk_syncobj_put_n(g->obj, g->count);
    if (g->event)
        wddm_event_put(g->event);
    free(g);
}

void gsched_gpu_signals_apply(struct gsched_gpu_signal *list)
{
    if (!list)
        return;
    pthread_mutex_lock(&sync_wait.lock);
    for (struct gsched_gpu_signal *g = list; g; g = g->next) {
        for (UINT i = 0; i < g->count; i++)
            signal_one(g, g->obj[i], g->value[i]);
        if (g->event)
            wddm_event_signal(g->event);
    }
    values_changed_locked();
    pthread_mutex_unlock(&sync_wait.lock);
    while (list) {
        struct gsched_gpu_signal *g = list;
        list = g->next;
        gsched_gpu_signal_free(g);
    }
}

/* What a GPU call names, checked before anything is queued. */
struct gpu_call {
    const char *fn;
    D3DKMT_HANDLE hContext;
    UINT count;
    const D3DKMT_HANDLE *handles;
    const UINT64 *values;             /* one value per object, or NULL: ... */
    UINT64 value;                     /* ... this value for every object */
    UINT types;                       /* the object types the call takes (mask) */
};

/* The context with a reference and the objects with theirs, NoGPUAccess and the monitored
 * fences' NoSignal / NoWait refused (§8.5 rule 2). */
static NTSTATUS gpu_call_objects(const struct gpu_call *call, bool signal, struct dxgk_context **pc,
                                 struct dxgk_syncobj **objs, UINT64 *values)
{
    const char *fn = call->fn;
    struct dxgk_context *c = (struct dxgk_context *)dxgk_handle_get(call->hContext, DXGK_TYPE_CONTEXT);
    if (!c) {
        dxgk_refuse("%s: invalid context handle 0x%08x", fn, call->hContext);
        return STATUS_INVALID_PARAMETER;
    }
    NTSTATUS st = STATUS_SUCCESS;
    UINT max = signal ? D3DDDI_MAX_OBJECT_SIGNALED : D3DDDI_MAX_OBJECT_WAITED_ON;
    if (call->count || !signal)
        st = dxgk_syncobj_get_n(fn, c->device, call->count, call->handles, max, call->types, objs);
    for (UINT i = 0; NT_SUCCESS(st) && i < call->count; i++) {
        struct dxgk_syncobj *o = objs[i];
        if (o->flags.NoGPUAccess || (signal ? o->flags.NoSignal : o->flags.NoWait)) {
            dxgk_refuse("%s: object 0x%08x was created with %s (§8.5 rule 2)", fn, o->handle,
                        o->flags.NoGPUAccess ? "NoGPUAccess" : signal ? "NoSignal" : "NoWait");
            dxgk_syncobj_put_n(objs, call->count);
            st = STATUS_ACCESS_DENIED;
        }
        values[i] = call->values ? call->values[i] : call->value;
    }
    if (NT_SUCCESS(st))
        *pc = c;
    else
        dxgk_object_put(&c->obj);
    return st;
}

/* Queues a GPU signal in its context's stream: behind the context's held work if a GPU wait
 * holds it (sched/queue.c), else after everything the context queued so far. Takes g over. */
static NTSTATUS gpu_signal_queue(const char *fn, struct dxgk_context *c, struct gsched_gpu_signal *g)
{
    struct dxgk_adapter *a = c->device->adapter;
    struct gsched_node *n = &a->node[c->node];
    pthread_mutex_lock(&a->lock);
    if (c->dead) {
        pthread_mutex_unlock(&a->lock);
        dxgk_refuse("%s: context 0x%08x is being destroyed", fn, c->handle);
        gsched_gpu_signal_free(g);
        return STATUS_INVALID_PARAMETER;
    }
    if (c->waits || c->held || c->held_signals) {
        g->wait_seq = c->wait_seq;
        g->hold_seq = ++c->hold_seq;
        if (c->held_signals_tail)
            c->held_signals_tail->next = g;
        else
            c->held_signals = g;
        c->held_signals_tail = g;
        pthread_mutex_unlock(&a->lock);
    } else {
        g->ticket = c->last_ticket; /* everything the context queued so far */
        pthread_mutex_unlock(&a->lock);
        gsched_gpu_signal_arm(n, g);
    }
    return STATUS_SUCCESS;
}

static NTSTATUS gpu_signal(const struct gpu_call *call, D3DDDICB_SIGNALFLAGS flags, HANDLE event)
{
    struct gsched_gpu_signal *g = wddm_calloc(1, sizeof *g);
    if (!g)
        return STATUS_NO_MEMORY;
    struct dxgk_context *c;
    NTSTATUS st = gpu_call_objects(call, true, &c, g->obj, g->value);
    if (!NT_SUCCESS(st)) {
        free(g);
        return st;
    }
    g->count = call->count;
    g->rewind = flags.AllowFenceRewind;
    if (event && !(g->event = wddm_event_get(event))) {
        dxgk_refuse("%s: CpuEventHandle %p is not an event handle", call->fn, event);
        gsched_gpu_signal_free(g);
        dxgk_object_put(&c->obj);
        return STATUS_INVALID_HANDLE;
    }
    st = gpu_signal_queue(call->fn, c, g);
    dxgk_object_put(&c->obj);
    return st;
}

NTSTATUS APIENTRY D3DKMTSignalSynchronizationObjectFromGpu(const D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMGPU *args)
{
    static const char fn[] = "D3DKMTSignalSynchronizationObjectFromGpu";
    if (!args || !args->MonitoredFenceValueArray) {
        dxgk_refuse("%s: NULL arguments or MonitoredFenceValueArray", fn);
        return STATUS_INVALID_PARAMETER;
    }
    const struct gpu_call call = { fn, args->hContext, args->ObjectCount, args->ObjectHandleArray,
                                   args->MonitoredFenceValueArray, 0, MONITORED_ONLY };
    return gpu_signal(&call, (D3DDDICB_SIGNALFLAGS){ 0 }, NULL);
}

#define LEGACY_WAIT_TYPES ((1u << D3DDDI_SYNCHRONIZATION_MUTEX) | (1u << D3DDDI_SEMAPHORE))
#define LEGACY_SIGNAL_TYPES (LEGACY_WAIT_TYPES | (1u << D3DDDI_CPU_NOTIFICATION))
#define FENCE_TYPE (1u << D3DDDI_FENCE)

/* Flags of the mutex / semaphore / fence signals: AllowFenceRewind lets a fence go down;
 * EnqueueCpuEvent (second form) sets an event; SignalAtSubmission is not modelled. */
static bool signal_flags_ok(const char *fn, D3DDDICB_SIGNALFLAGS f, bool second_form)
{
    D3DDDICB_SIGNALFLAGS allowed = { .AllowFenceRewind = 1, .EnqueueCpuEvent = second_form };
    if (f.Value & ~allowed.Value) {
        dxgk_refuse("%s: Flags 0x%x: only AllowFenceRewind%s apply here (SignalAtSubmission is not modelled: "
                    "a signal is applied when the context's earlier work completed)", fn, f.Value,
                    second_form ? " and EnqueueCpuEvent" : "");
        return false;
    }
    return true;
}

NTSTATUS APIENTRY D3DKMTSignalSynchronizationObject(const D3DKMT_SIGNALSYNCHRONIZATIONOBJECT *args)
{
    static const char fn[] = "D3DKMTSignalSynchronizationObject";
    if (!args) {
        dxgk_refuse("%s: NULL arguments", fn);
        return STATUS_INVALID_PARAMETER;
    }
    if (!signal_flags_ok(fn, args->Flags, false))
        return STATUS_INVALID_PARAMETER;
    if (args->ObjectCount == 0) {
        dxgk_refuse("%s: ObjectCount 0", fn);
        return STATUS_INVALID_PARAMETER;
    }
    const struct gpu_call call = { fn, args->hContext, args->ObjectCount, args->ObjectHandleArray, NULL, 0,
                                   LEGACY_SIGNAL_TYPES };
    return gpu_signal(&call, args->Flags, NULL);
}

/* The second form adds fences (Fence.FenceValue for every fence named) and EnqueueCpuEvent,
 * which sets CpuEventHandle at the same point of the stream (with or without objects). */
NTSTATUS APIENTRY D3DKMTSignalSynchronizationObject2(const D3DKMT_SIGNALSYNCHRONIZATIONOBJECT2 *args)
{
    static const char fn[] = "D3DKMTSignalSynchronizationObject2";
    if (!args) {
        dxgk_refuse("%s: NULL arguments", fn);
        return STATUS_INVALID_PARAMETER;
    }
    if (!signal_flags_ok(fn, args->Flags, true))
        return STATUS_INVALID_PARAMETER;
    if (args->BroadcastContextCount) {
        /* FIXME(syncobj-broadcast): a signal that waits for several contexts. */
        dxgk_refuse("%s: BroadcastContextCount %u: broadcasting to other contexts is not supported", fn,
                    (unsigned)args->BroadcastContextCount);
        return STATUS_NOT_SUPPORTED;
    }
    bool event = args->Flags.EnqueueCpuEvent;
    if (args->ObjectCount == 0 && !event) {
        dxgk_refuse("%s: ObjectCount 0 without EnqueueCpuEvent", fn);
        return STATUS_INVALID_PARAMETER;
    }
    if (event && !args->CpuEventHandle) {
        dxgk_refuse("%s: EnqueueCpuEvent with a NULL CpuEventHandle", fn);
        return STATUS_INVALID_HANDLE;
    }
    const struct gpu_call call = { fn, args->hContext, args->ObjectCount, args->ObjectHandleArray, NULL,
                                   event ? 0 : args->Fence.FenceValue, LEGACY_SIGNAL_TYPES | (event ? 0 : FENCE_TYPE) };
    return gpu_signal(&call, args->Flags, event ? args->CpuEventHandle : NULL);
}

void gsched_gpu_signal_arm(struct gsched_node *n, struct gsched_gpu_signal *g)
{
    /* Checked under node->lock: the DPC retires tickets under it, so the signal is either seen
     * retired here or found on the list by the retirement. */
    g->next = NULL;
    pthread_mutex_lock(&n->lock);
    bool now = signal_ready(n, g);
    if (!now) {
        g->next = n->signals;
        n->signals = g;
    }
    pthread_mutex_unlock(&n->lock);
    if (now)
        gsched_gpu_signals_apply(g);
}

NTSTATUS gsched_gpu_signal_arm_fence(struct gsched_node *n, struct dxgk_syncobj *s, UINT64 fence, UINT64 value)
{
    struct gsched_gpu_signal *g = wddm_calloc(1, sizeof *g);
    if (!g)
        return STATUS_NO_MEMORY;
    dxgk_object_get(&s->obj); /* dropped by gsched_gpu_signals_apply */
    g->fence = fence;
    g->count = 1;
    g->obj[0] = s;
    g->value[0] = value;
    gsched_gpu_signal_arm(n, g);
    return STATUS_SUCCESS;
}

void dxgk_syncobj_signal_at_least(struct dxgk_syncobj *s, UINT64 value)
{
    pthread_mutex_lock(&sync_wait.lock);
    store_at_least(s, value);
    values_changed_locked();
    pthread_mutex_unlock(&sync_wait.lock);
}

/* ---- GPU wait --------------------------------------------------------------------------------- */

void gsched_gpu_wait_free(struct gsched_gpu_wait *w)
{
    pthread_mutex_lock(&sync_wait.lock);
    if (w->registered) {
        struct gsched_gpu_wait **pp = &registry;
        while (*pp && *pp != w)
            pp = &(*pp)->reg_next;
        if (*pp)
            *pp = w->reg_next;
        w->registered = false;
    }
    pthread_mutex_unlock(&sync_wait.lock);
    dxgk_syncobj_put_n(w->obj, w->count);
    free(w);
}

/* §8.5 rule 4: records the dependency and returns at once; the context's DMA buffers rendered
 * from now on are held (sched/queue.c) until the wait took its objects, while the other
 * contexts of the node keep running. Work queued before the call is not held. */
static NTSTATUS gpu_wait(const struct gpu_call *call)
{
    const char *fn = call->fn;
    struct gsched_gpu_wait *w = wddm_calloc(1, sizeof *w);
    if (!w)
        return STATUS_NO_MEMORY;
    struct dxgk_context *c;
    NTSTATUS st = gpu_call_objects(call, false, &c, w->obj, w->value);
    if (!NT_SUCCESS(st)) {
        free(w);
        return st;
    }
    w->count = call->count;
    for (UINT i = 0; i < w->count; i++)
        wddm_tl(WDDM_TL_GPU_WAIT, c->handle, w->obj[i]->handle, w->value[i]);
    struct dxgk_adapter *a = c->device->adapter;
    w->node = &a->node[c->node];
    atomic_init(&w->satisfied, false);
    pthread_mutex_lock(&a->lock);
    if (c->dead) {
        pthread_mutex_unlock(&a->lock);
        dxgk_refuse("%s: context 0x%08x is being destroyed", fn, c->handle);
        gsched_gpu_wait_free(w);
        dxgk_object_put(&c->obj);
        return STATUS_INVALID_PARAMETER;
    }
    w->seq = ++c->wait_seq;
    if (c->waits_tail)
        c->waits_tail->next = w;
    else
        c->waits = w;
    c->waits_tail = w;
    /* Registered under the sync lock, so a signal either sees it or came before the check;
     * appended, so that older waits take a mutex or a semaphore first. */
    pthread_mutex_lock(&sync_wait.lock);
    if (!registry && gpu_wait_take(w)) {
        atomic_store_explicit(&w->satisfied, true, memory_order_release);
    } else {
        struct gsched_gpu_wait **pp = &registry;
        while (*pp)
            pp = &(*pp)->reg_next;
        w->registered = true;
        w->reg_next = NULL;
        *pp = w;
        release_satisfied_waits_locked(); /* it may take its objects at once, after older waits */
    }
    pthread_mutex_unlock(&sync_wait.lock);
    gsched_release_held_locked(a, c); /* an already satisfied wait is passed at once */
    pthread_mutex_unlock(&a->lock);
    dxgk_object_put(&c->obj);
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY D3DKMTWaitForSynchronizationObjectFromGpu(const D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMGPU *args)
{
    static const char fn[] = "D3DKMTWaitForSynchronizationObjectFromGpu";
    if (!args || !args->MonitoredFenceValueArray) {
        dxgk_refuse("%s: NULL arguments or MonitoredFenceValueArray", fn);
        return STATUS_INVALID_PARAMETER;
    }
    const struct gpu_call call = { fn, args->hContext, args->ObjectCount, args->ObjectHandleArray,
                                   args->MonitoredFenceValueArray, 0, MONITORED_ONLY };
    return gpu_wait(&call);
}

NTSTATUS APIENTRY D3DKMTWaitForSynchronizationObject(const D3DKMT_WAITFORSYNCHRONIZATIONOBJECT *args)
{
    static const char fn[] = "D3DKMTWaitForSynchronizationObject";
    if (!args) {
        dxgk_refuse("%s: NULL arguments", fn);
        return STATUS_INVALID_PARAMETER;
    }
    const struct gpu_call call = { fn, args->hContext, args->ObjectCount, args->ObjectHandleArray, NULL, 0,
                                   LEGACY_WAIT_TYPES };
    return gpu_wait(&call);
}

/* The second form adds fences: the wait lasts until each fence named reached Fence.FenceValue. */
NTSTATUS APIENTRY D3DKMTWaitForSynchronizationObject2(const D3DKMT_WAITFORSYNCHRONIZATIONOBJECT2 *args)
{
    static const char fn[] = "D3DKMTWaitForSynchronizationObject2";
    if (!args) {
        dxgk_refuse("%s: NULL arguments", fn);
        return STATUS_INVALID_PARAMETER;
    }
    const struct gpu_call call = { fn, args->hContext, args->ObjectCount, args->ObjectHandleArray, NULL,
                                   args->Fence.FenceValue, LEGACY_WAIT_TYPES | FENCE_TYPE };
    return gpu_wait(&call);
}

/* Every handle of a lost device: marked lost (no signal its contexts queued is applied any more),
 * and, with `max`, its fences and monitored fences set to their maximum value. */
static void device_handles_lost(D3DKMT_HANDLE device, bool max)
{
    struct dxgk_object **objs;
    D3DKMT_HANDLE *hs;
    size_t n = dxgk_handle_collect(DXGK_TYPE_SYNCOBJECT, &objs, &hs);
    pthread_mutex_lock(&sync_wait.lock);
    for (size_t i = 0; i < n; i++) {
        struct dxgk_syncobj *s = (struct dxgk_syncobj *)objs[i];
        if (s->device != device)
            continue;
        atomic_store_explicit(&s->lost, true, memory_order_release);
        bool fence = s->type == D3DDDI_MONITORED_FENCE || s->type == D3DDDI_FENCE;
        if (max && fence && !s->flags.NoSignalMaxValueOnTdr)
            atomic_store_explicit(s->value, UINT64_MAX, memory_order_release);
    }
    if (max)
        values_changed_locked();
    pthread_mutex_unlock(&sync_wait.lock);
    for (size_t i = 0; i < n; i++)
        dxgk_object_put(objs[i]);
    free(objs);
    free(hs);
}

/* As soon as a device is lost, before the packets a reset aborts retire: a signal queued behind
 * them (or behind a wait the loss will satisfy) would otherwise still be applied. */
void dxgk_syncobj_mark_lost(D3DKMT_HANDLE device)
{
    device_handles_lost(device, false);
}

/* After a timeout recovery: every fence and monitored fence of a lost device goes to its maximum value so
 * that nothing waits forever for work that will never run (docs/semantics.md §8.3), unless it was
 * created NoSignalMaxValueOnTdr. CPU waiters wake; GPU waits on them are satisfied. */
void dxgk_syncobj_signal_max_device(D3DKMT_HANDLE device)
{
    device_handles_lost(device, true);
}
