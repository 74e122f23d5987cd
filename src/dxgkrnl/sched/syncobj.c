/* Synchronization objects: monitored fences (wddm-semantics §8.5, issue 4).
 *
 * A monitored fence is a 64-bit value that only grows by signals. Its page is mapped twice
 * from one memfd: the kernel writes through a writable view, the application reads the current
 * value through FenceValueCPUVirtualAddress, a read-only view (§8.5 rule 1: the CPU signals only
 * through D3DKMTSignalSynchronizationObjectFromCpu). There is no GPU virtual address space in
 * this WDDM 1.x model: FenceValueGPUVirtualAddress is 0 and the GPU signals through
 * D3DKMTSignalSynchronizationObjectFromGpu, a software signal applied when every DMA buffer the
 * context had queued before the call retired (§8.5 rule 4, and the DPC rule 3).
 *
 * Waiting (DESIGN.md "Threads and waiting"): a CPU wait spins briefly, then blocks on one
 * process-wide condition variable; every signal broadcasts it under its lock after writing the
 * values, so a waiter that checked the values with the lock held cannot miss the signal.
 * Lock order: the sync lock is a leaf, taken with no other lock held (the DPC takes it after
 * letting go of node->lock). */
#include "dxgkrnl/dxgkrnl.h"
#include "common/alloc.h"
#include "common/timeline.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define SYNC_SPIN_NS 4000u

static struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;              /* broadcast after every signal and destruction */
} sync_wait = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER };

/* Unsatisfied GPU waits of every context; sync lock. */
static struct sched_gpu_wait *registry;

static bool gpu_wait_satisfied(const struct sched_gpu_wait *w)
{
    for (UINT i = 0; i < w->count; i++)
        if (atomic_load_explicit(w->obj[i]->value, memory_order_acquire) < w->value[i])
            return false;
    return true;
}

/* After values changed (sync lock held): every GPU wait now satisfied leaves the registry and
 * its node's worker is woken to release the held packets (lock order: sync lock -> node->lock). */
static void release_satisfied_waits_locked(void)
{
    struct sched_gpu_wait **pp = &registry;
    while (*pp) {
        struct sched_gpu_wait *w = *pp;
        if (!gpu_wait_satisfied(w)) {
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

static void syncobj_release(struct dxgk_object *obj)
{
    struct dxgk_syncobj *s = (struct dxgk_syncobj *)obj;
    if (s->value)
        munmap((void *)s->value, DXGK_PAGE_SIZE);
    if (s->cpu_va)
        munmap((void *)s->cpu_va, DXGK_PAGE_SIZE);
    free(s);
}

static bool syncobj_map(struct dxgk_syncobj *s)
{
    int fd = memfd_create("wddm-monitored-fence", MFD_CLOEXEC);
    if (fd < 0)
        return false;
    bool ok = ftruncate(fd, DXGK_PAGE_SIZE) == 0;
    void *rw = ok ? mmap(NULL, DXGK_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
    void *ro = ok ? mmap(NULL, DXGK_PAGE_SIZE, PROT_READ, MAP_SHARED, fd, 0) : MAP_FAILED;
    close(fd);
    if (rw != MAP_FAILED)
        s->value = rw;
    if (ro != MAP_FAILED)
        s->cpu_va = ro;
    return rw != MAP_FAILED && ro != MAP_FAILED;
}

static void wake_waiters(void)
{
    pthread_mutex_lock(&sync_wait.lock);
    pthread_cond_broadcast(&sync_wait.cond);
    pthread_mutex_unlock(&sync_wait.lock);
}

NTSTATUS APIENTRY D3DKMTCreateSynchronizationObject2(D3DKMT_CREATESYNCHRONIZATIONOBJECT2 *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTCreateSynchronizationObject2: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_device *d = dxgk_device_get(args->hDevice);
    if (!d) {
        dxgk_refuse("D3DKMTCreateSynchronizationObject2: invalid device handle 0x%08x", args->hDevice);
        return STATUS_INVALID_PARAMETER;
    }
    NTSTATUS st = STATUS_INVALID_PARAMETER;
    D3DDDI_SYNCHRONIZATIONOBJECT_FLAGS f = args->Info.Flags;
    if (args->Info.Type != D3DDDI_MONITORED_FENCE) {
        /* FIXME(syncobj-types): mutexes, semaphores, fences, CPU notifications, periodic and native fences. */
        dxgk_refuse("D3DKMTCreateSynchronizationObject2: type %d not supported (only D3DDDI_MONITORED_FENCE)",
                    (int)args->Info.Type);
        goto out;
    }
    if (f.NoSignal && f.NoWait) {
        dxgk_refuse("D3DKMTCreateSynchronizationObject2: NoSignal and NoWait are mutually exclusive (§8.5 rule 2)");
        goto out;
    }
    if (f.Shared || f.NtSecuritySharing || f.CrossAdapter || f.SignalByKmd || f.Reserved ||
        f.D3DDDI_SYNCHRONIZATIONOBJECT_FLAGS_RESERVED0) {
        /* FIXME(syncobj-sharing): shared and cross-adapter monitored fences. */
        dxgk_refuse("D3DKMTCreateSynchronizationObject2: flags 0x%x not supported (sharing, cross-adapter, "
                    "SignalByKmd is for CPU notifications, reserved bits)", f.Value);
        goto out;
    }
    struct dxgk_syncobj *s = wddm_calloc(1, sizeof *s);
    if (!s) {
        st = STATUS_NO_MEMORY;
        goto out;
    }
    dxgk_object_init(&s->obj, DXGK_TYPE_SYNCOBJECT, syncobj_release);
    s->device = args->hDevice;
    s->flags = f;
    atomic_init(&s->dead, false);
    if (!syncobj_map(s)) {
        dxgk_refuse("D3DKMTCreateSynchronizationObject2: cannot map the fence value page (errno %d)", errno);
        dxgk_object_put(&s->obj);
        st = STATUS_NO_MEMORY;
        goto out;
    }
    atomic_store_explicit(s->value, args->Info.MonitoredFence.InitialFenceValue, memory_order_relaxed);
    s->handle = dxgk_handle_insert(&s->obj);
    if (!s->handle) {
        dxgk_object_put(&s->obj);
        st = STATUS_NO_MEMORY;
        goto out;
    }
    dxgk_handle_publish(s->handle);
    args->hSyncObject = s->handle;
    args->Info.MonitoredFence.FenceValueCPUVirtualAddress = (VOID *)s->cpu_va;
    args->Info.MonitoredFence.FenceValueGPUVirtualAddress = 0; /* no GPU VA space (WDDM 1.x model) */
    st = STATUS_SUCCESS;
out:
    dxgk_device_put(d);
    return st;
}

NTSTATUS APIENTRY D3DKMTDestroySynchronizationObject(const D3DKMT_DESTROYSYNCHRONIZATIONOBJECT *args)
{
    struct dxgk_object *o = args ? dxgk_handle_remove(args->hSyncObject, DXGK_TYPE_SYNCOBJECT) : NULL;
    if (!o) {
        dxgk_refuse("D3DKMTDestroySynchronizationObject: invalid synchronization object handle 0x%08x",
                    args ? args->hSyncObject : 0);
        return STATUS_INVALID_PARAMETER;
    }
    /* Waiters hold references: they wake, see it dead and fail; GPU signals still pending hold
     * references too and write a value nobody reads. */
    atomic_store(&((struct dxgk_syncobj *)o)->dead, true);
    wake_waiters();
    dxgk_object_put(o);
    return STATUS_SUCCESS;
}

/* Looks up count typed handles of hDevice's objects, each with a reference; all or nothing. */
static NTSTATUS get_objects(const char *fn, D3DKMT_HANDLE hDevice, UINT count, const D3DKMT_HANDLE *handles,
                            const UINT64 *values, UINT max, struct dxgk_syncobj **out)
{
    if (count == 0 || count > max || !handles || !values) {
        dxgk_refuse("%s: ObjectCount %u (1..%u) with ObjectHandleArray %p and FenceValueArray %p", fn, count, max,
                    (const void *)handles, (const void *)values);
        return STATUS_INVALID_PARAMETER;
    }
    for (UINT i = 0; i < count; i++) {
        struct dxgk_syncobj *s = (struct dxgk_syncobj *)dxgk_handle_get(handles[i], DXGK_TYPE_SYNCOBJECT);
        if (!s || s->device != hDevice) {
            dxgk_refuse("%s: object %u: invalid synchronization object handle 0x%08x for device 0x%08x", fn, i,
                        handles[i], hDevice);
            if (s)
                dxgk_object_put(&s->obj);
            while (i--)
                dxgk_object_put(&out[i]->obj);
            return STATUS_INVALID_PARAMETER;
        }
        out[i] = s;
    }
    return STATUS_SUCCESS;
}

static void put_objects(struct dxgk_syncobj **objs, UINT count)
{
    for (UINT i = 0; i < count; i++)
        dxgk_object_put(&objs[i]->obj);
}

/* Validates the device handle the way the other D3DKMT calls do (typed, generation-checked). */
static bool device_valid(const char *fn, D3DKMT_HANDLE h)
{
    struct dxgk_device *d = dxgk_device_get(h);
    if (!d) {
        dxgk_refuse("%s: invalid device handle 0x%08x", fn, h);
        return false;
    }
    dxgk_device_put(d);
    return true;
}

NTSTATUS APIENTRY D3DKMTSignalSynchronizationObjectFromCpu(const D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMCPU *args)
{
    static const char fn[] = "D3DKMTSignalSynchronizationObjectFromCpu";
    if (!args) {
        dxgk_refuse("%s: NULL arguments", fn);
        return STATUS_INVALID_PARAMETER;
    }
    if (!device_valid(fn, args->hDevice))
        return STATUS_INVALID_PARAMETER;
    if (args->Flags.Value) {
        dxgk_refuse("%s: Flags 0x%x: no flag applies to a CPU signal", fn, args->Flags.Value);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_syncobj *objs[D3DDDI_MAX_OBJECT_SIGNALED];
    NTSTATUS st = get_objects(fn, args->hDevice, args->ObjectCount, args->ObjectHandleArray, args->FenceValueArray,
                              D3DDDI_MAX_OBJECT_SIGNALED, objs);
    if (!NT_SUCCESS(st))
        return st;
    /* Writes every value, then releases the satisfied waiters at once (§8.5 rule 1). */
    pthread_mutex_lock(&sync_wait.lock);
    for (UINT i = 0; i < args->ObjectCount; i++)
        atomic_store_explicit(objs[i]->value, args->FenceValueArray[i], memory_order_release);
    if (registry)
        release_satisfied_waits_locked();
    pthread_cond_broadcast(&sync_wait.cond);
    pthread_mutex_unlock(&sync_wait.lock);
    put_objects(objs, args->ObjectCount);
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

static NTSTATUS wait_from_cpu(const char *fn, const D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU *args, UINT timeout_ms)
{
    if (!args) {
        dxgk_refuse("%s: NULL arguments", fn);
        return STATUS_INVALID_PARAMETER;
    }
    if (!device_valid(fn, args->hDevice))
        return STATUS_INVALID_PARAMETER;
    if (args->hAsyncEvent) {
        /* FIXME(async-wait): signal an event instead of blocking. */
        dxgk_refuse("%s: hAsyncEvent is not supported: only blocking waits (hAsyncEvent NULL)", fn);
        return STATUS_INVALID_PARAMETER;
    }
    if (args->Flags.Reserved) {
        dxgk_refuse("%s: reserved Flags bits 0x%x", fn, args->Flags.Value);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_syncobj *objs[D3DDDI_MAX_OBJECT_WAITED_ON];
    NTSTATUS st = get_objects(fn, args->hDevice, args->ObjectCount, args->ObjectHandleArray, args->FenceValueArray,
                              D3DDDI_MAX_OBJECT_WAITED_ON, objs);
    if (!NT_SUCCESS(st))
        return st;
    UINT count = args->ObjectCount;
    const UINT64 *values = args->FenceValueArray;
    bool any = args->Flags.WaitAny;
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
        struct timespec deadline;
        clock_gettime(CLOCK_REALTIME, &deadline);
        deadline.tv_sec += timeout_ms / 1000u;
        deadline.tv_nsec += (long)(timeout_ms % 1000u) * 1000000L;
        if (deadline.tv_nsec >= 1000000000L) {
            deadline.tv_sec++;
            deadline.tv_nsec -= 1000000000L;
        }
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
    put_objects(objs, count);
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
 * (vidmm/pagingqueue.c). node->lock held: the DPC advances both under it. */
static bool signal_ready(const struct sched_node *n, const struct sched_gpu_signal *g)
{
    if (g->fence)
        return sched_fence_completed(n, g->fence);
    return sched_ticket_retired(n, g->ticket);
}

/* Raises the value, never lowers it (sync lock held): paging-queue signals of one queue may
 * be applied out of order when several retire in one DPC. */
static void store_at_least(struct dxgk_syncobj *s, UINT64 value)
{
    UINT64 cur = atomic_load_explicit(s->value, memory_order_relaxed);
    if (cur < value)
        atomic_store_explicit(s->value, value, memory_order_release);
}

struct sched_gpu_signal *sched_gpu_signals_take_locked(struct sched_node *n)
{
    WDDM_ASSERT_HELD(&n->lock);
    /* n->signals is newest first (sched_gpu_signal_arm pushes at its head); the ones taken are
     * returned oldest first, so that signals of one context retiring in the same DPC write
     * their values in the order they were issued and the last one stays (§8.5 rule 4). */
    struct sched_gpu_signal *taken = NULL;
    struct sched_gpu_signal **pp = &n->signals;
    while (*pp) {
        struct sched_gpu_signal *g = *pp;
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

void sched_gpu_signals_apply(struct sched_gpu_signal *list)
{
    if (!list)
        return;
    pthread_mutex_lock(&sync_wait.lock);
    for (struct sched_gpu_signal *g = list; g; g = g->next)
        for (UINT i = 0; i < g->count; i++) {
            if (g->fence)
                store_at_least(g->obj[i], g->value[i]);
            else
                atomic_store_explicit(g->obj[i]->value, g->value[i], memory_order_release);
            wddm_tl(WDDM_TL_FENCE_SIGNAL, WDDM_TL_FENCES, g->obj[i]->handle, g->value[i]);
        }
    if (registry)
        release_satisfied_waits_locked();
    pthread_cond_broadcast(&sync_wait.cond);
    pthread_mutex_unlock(&sync_wait.lock);
    while (list) {
        struct sched_gpu_signal *g = list;
        list = g->next;
        put_objects(g->obj, g->count);
        free(g);
    }
}

NTSTATUS APIENTRY D3DKMTSignalSynchronizationObjectFromGpu(const D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMGPU *args)
{
    static const char fn[] = "D3DKMTSignalSynchronizationObjectFromGpu";
    if (!args) {
        dxgk_refuse("%s: NULL arguments", fn);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_context *c = (struct dxgk_context *)dxgk_handle_get(args->hContext, DXGK_TYPE_CONTEXT);
    if (!c) {
        dxgk_refuse("%s: invalid context handle 0x%08x", fn, args->hContext);
        return STATUS_INVALID_PARAMETER;
    }
    struct sched_gpu_signal *g = wddm_calloc(1, sizeof *g);
    if (!g) {
        dxgk_object_put(&c->obj);
        return STATUS_NO_MEMORY;
    }
    NTSTATUS st = get_objects(fn, c->device->handle, args->ObjectCount, args->ObjectHandleArray,
                              args->MonitoredFenceValueArray, D3DDDI_MAX_OBJECT_SIGNALED, g->obj);
    if (!NT_SUCCESS(st)) {
        free(g);
        dxgk_object_put(&c->obj);
        return st;
    }
    g->count = args->ObjectCount;
    for (UINT i = 0; i < g->count; i++) {
        if (g->obj[i]->flags.NoSignal) {
            dxgk_refuse("%s: object 0x%08x was created with NoSignal (§8.5 rule 2)", fn, g->obj[i]->handle);
            put_objects(g->obj, g->count);
            free(g);
            dxgk_object_put(&c->obj);
            return STATUS_ACCESS_DENIED;
        }
        g->value[i] = args->MonitoredFenceValueArray[i];
    }
    struct dxgk_adapter *a = c->device->adapter;
    struct sched_node *n = &a->node[c->node];
    pthread_mutex_lock(&a->lock);
    if (c->dead) {
        pthread_mutex_unlock(&a->lock);
        dxgk_refuse("%s: context 0x%08x is being destroyed", fn, args->hContext);
        put_objects(g->obj, g->count);
        free(g);
        dxgk_object_put(&c->obj);
        return STATUS_INVALID_PARAMETER;
    }
    if (c->waits || c->held || c->held_signals) {
        /* Behind a GPU wait: in the context's stream after what is held (sched/queue.c). */
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
        sched_gpu_signal_arm(n, g);
    }
    dxgk_object_put(&c->obj);
    return STATUS_SUCCESS;
}

void sched_gpu_signal_arm(struct sched_node *n, struct sched_gpu_signal *g)
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
        sched_gpu_signals_apply(g);
}

NTSTATUS sched_gpu_signal_arm_fence(struct sched_node *n, struct dxgk_syncobj *s, UINT64 fence, UINT64 value)
{
    struct sched_gpu_signal *g = wddm_calloc(1, sizeof *g);
    if (!g)
        return STATUS_NO_MEMORY;
    dxgk_object_get(&s->obj); /* dropped by sched_gpu_signals_apply */
    g->fence = fence;
    g->count = 1;
    g->obj[0] = s;
    g->value[0] = value;
    sched_gpu_signal_arm(n, g);
    return STATUS_SUCCESS;
}

void dxgk_syncobj_signal_at_least(struct dxgk_syncobj *s, UINT64 value)
{
    pthread_mutex_lock(&sync_wait.lock);
    store_at_least(s, value);
    if (registry)
        release_satisfied_waits_locked();
    pthread_cond_broadcast(&sync_wait.cond);
    pthread_mutex_unlock(&sync_wait.lock);
}

/* ---- GPU wait --------------------------------------------------------------------------------- */

void sched_gpu_wait_free(struct sched_gpu_wait *w)
{
    pthread_mutex_lock(&sync_wait.lock);
    if (w->registered) {
        struct sched_gpu_wait **pp = &registry;
        while (*pp && *pp != w)
            pp = &(*pp)->reg_next;
        if (*pp)
            *pp = w->reg_next;
        w->registered = false;
    }
    pthread_mutex_unlock(&sync_wait.lock);
    put_objects(w->obj, w->count);
    free(w);
}

/* §8.5 rule 4: records the dependency and returns at once; the context's DMA buffers rendered
 * from now on are held (sched/queue.c) until every object reached its value, while the other
 * contexts of the node keep running. Work queued before the call is not held. */
NTSTATUS APIENTRY D3DKMTWaitForSynchronizationObjectFromGpu(const D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMGPU *args)
{
    static const char fn[] = "D3DKMTWaitForSynchronizationObjectFromGpu";
    if (!args) {
        dxgk_refuse("%s: NULL arguments", fn);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_context *c = (struct dxgk_context *)dxgk_handle_get(args->hContext, DXGK_TYPE_CONTEXT);
    if (!c) {
        dxgk_refuse("%s: invalid context handle 0x%08x", fn, args->hContext);
        return STATUS_INVALID_PARAMETER;
    }
    struct sched_gpu_wait *w = wddm_calloc(1, sizeof *w);
    if (!w) {
        dxgk_object_put(&c->obj);
        return STATUS_NO_MEMORY;
    }
    NTSTATUS st = get_objects(fn, c->device->handle, args->ObjectCount, args->ObjectHandleArray,
                              args->MonitoredFenceValueArray, D3DDDI_MAX_OBJECT_WAITED_ON, w->obj);
    if (!NT_SUCCESS(st)) {
        free(w);
        dxgk_object_put(&c->obj);
        return st;
    }
    w->count = args->ObjectCount;
    for (UINT i = 0; i < w->count; i++)
        wddm_tl(WDDM_TL_GPU_WAIT, c->handle, w->obj[i]->handle, args->MonitoredFenceValueArray[i]);
    for (UINT i = 0; i < w->count; i++) {
        if (w->obj[i]->flags.NoWait) {
            dxgk_refuse("%s: object 0x%08x was created with NoWait (§8.5 rule 2)", fn, w->obj[i]->handle);
            sched_gpu_wait_free(w);
            dxgk_object_put(&c->obj);
            return STATUS_ACCESS_DENIED;
        }
        w->value[i] = args->MonitoredFenceValueArray[i];
    }
    struct dxgk_adapter *a = c->device->adapter;
    w->node = &a->node[c->node];
    atomic_init(&w->satisfied, false);
    pthread_mutex_lock(&a->lock);
    if (c->dead) {
        pthread_mutex_unlock(&a->lock);
        dxgk_refuse("%s: context 0x%08x is being destroyed", fn, args->hContext);
        sched_gpu_wait_free(w);
        dxgk_object_put(&c->obj);
        return STATUS_INVALID_PARAMETER;
    }
    w->seq = ++c->wait_seq;
    if (c->waits_tail)
        c->waits_tail->next = w;
    else
        c->waits = w;
    c->waits_tail = w;
    /* Registered under the sync lock, so a signal either sees it or came before the check. */
    pthread_mutex_lock(&sync_wait.lock);
    if (gpu_wait_satisfied(w)) {
        atomic_store_explicit(&w->satisfied, true, memory_order_release);
    } else {
        w->registered = true;
        w->reg_next = registry;
        registry = w;
    }
    pthread_mutex_unlock(&sync_wait.lock);
    sched_release_held_locked(a, c); /* an already satisfied wait is passed at once */
    pthread_mutex_unlock(&a->lock);
    dxgk_object_put(&c->obj);
    return STATUS_SUCCESS;
}

/* Destroys every synchronization object of a device (D3DKMTDestroyDevice: "destroying it
 * destroys what the application left"); blocked CPU waiters are released with an error.
 * Called by the device's destruction (objects/device.c). */
void dxgk_syncobj_destroy_device(D3DKMT_HANDLE device)
{
    struct dxgk_object **objs;
    D3DKMT_HANDLE *hs;
    size_t n = dxgk_handle_collect(DXGK_TYPE_SYNCOBJECT, &objs, &hs);
    bool woke = false;
    for (size_t i = 0; i < n; i++) {
        struct dxgk_syncobj *s = (struct dxgk_syncobj *)objs[i];
        if (s->device == device) {
            struct dxgk_object *o = dxgk_handle_remove(hs[i], DXGK_TYPE_SYNCOBJECT);
            if (o) {
                atomic_store(&s->dead, true);
                woke = true;
                dxgk_object_put(o);
            }
        }
        dxgk_object_put(objs[i]);
    }
    free(objs);
    free(hs);
    if (woke)
        wake_waiters();
}

/* After a timeout recovery: every monitored fence of a lost device goes to its maximum value so
 * that nothing waits forever for work that will never run (wddm-semantics §8.3), unless it was
 * created NoSignalMaxValueOnTdr. CPU waiters wake; GPU waits on them are satisfied. */
void dxgk_syncobj_signal_max_device(D3DKMT_HANDLE device)
{
    struct dxgk_object **objs;
    D3DKMT_HANDLE *hs;
    size_t n = dxgk_handle_collect(DXGK_TYPE_SYNCOBJECT, &objs, &hs);
    pthread_mutex_lock(&sync_wait.lock);
    for (size_t i = 0; i < n; i++) {
        struct dxgk_syncobj *s = (struct dxgk_syncobj *)objs[i];
        if (s->device == device && !s->flags.NoSignalMaxValueOnTdr)
            atomic_store_explicit(s->value, UINT64_MAX, memory_order_release);
    }
    if (registry)
        release_satisfied_waits_locked();
    pthread_cond_broadcast(&sync_wait.cond);
    pthread_mutex_unlock(&sync_wait.lock);
    for (size_t i = 0; i < n; i++)
        dxgk_object_put(objs[i]);
    free(objs);
    free(hs);
}
