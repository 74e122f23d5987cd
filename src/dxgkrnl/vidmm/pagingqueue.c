/* Device paging queues: D3DKMTCreatePagingQueue / D3DKMTDestroyPagingQueue and the paging
 * fence of D3DKMTMakeResident (WDDM 2.0; docs/semantics.md §8.5 rule 6, §9.2; WDK
 * D3DKMT_CREATEPAGINGQUEUE).
 *
 * A paging queue is a device's channel for VidMm's paging work: each one owns a monitored fence
 * (hSyncObject, a regular one of sched/syncobj.c, destroyed with the queue), and a
 * MakeResident on the queue whose paging is still running returns STATUS_PENDING with a
 * PagingFenceValue of that fence. The kernel raises the fence to the value once the paging
 * operations of that call completed on the GPU: a signal armed on the paging node's fence
 * (gsched_gpu_signal_arm_fence), applied by the DPC that retires it, so a CPU wait
 * (D3DKMTWaitForSynchronizationObjectFromCpu) returns then and a GPU wait
 * (D3DKMTWaitForSynchronizationObjectFromGpu) holds the context's work until then.
 *   - Values grow per queue (1, 2, ...); each one waits for the paging-node fence of its call
 *     or of any earlier call on the queue, whichever is later, so a waiter for value v also
 *     knows every earlier value's paging done. A call with nothing left to page returns
 *     STATUS_SUCCESS and PagingFenceValue 0 (§8.5 rule 6: "0 = already done").
 *   - Every queue of the adapter feeds the one paging node: Priority (checked against the
 *     enum) does not reorder anything here (choice: one paging engine, paging runs in the order
 *     it was built).
 *   - PhysicalAdapterIndex must be 0 (no linked adapters).
 *   - Destroying the device destroys its queues and their fences (objects/device.c); a signal
 *     still armed keeps its own reference to the fence and writes a value nobody reads.
 *   - hPagingQueue may still be the device handle (callers of the WDDM 1.x-era model here,
 *     vidmm/makeresident.c): the WDK names a paging queue, but this kernel runs a WDDM 1.3 KMD
 *     where no queue need exist; the fence is then the paging node's own. */
#include "dxgkrnl/vidmm/vidmm.h"
#include "common/alloc.h"

#include <stdlib.h>

static void queue_release(struct dxgk_object *obj)
{
    struct dxgk_paging_queue *q = (struct dxgk_paging_queue *)obj;
    if (q->fence)
        dxgk_object_put((struct dxgk_object *)q->fence); /* its first member: the handle's object */
    free(q);
}

void dxgk_paging_queue_put(struct dxgk_paging_queue *q)
{
    if (q)
        dxgk_object_put(&q->obj);
}

static void queue_destroy(struct dxgk_paging_queue *q);
static struct dxgk_device *dxgk_paging_queue_resolve_nowait(D3DKMT_HANDLE h, struct dxgk_paging_queue **q,
                                                            const char *who);

NTSTATUS APIENTRY D3DKMTCreatePagingQueue(D3DKMT_CREATEPAGINGQUEUE *args)
{
    static const char fn[] = "D3DKMTCreatePagingQueue";
    if (!args) {
        dxgk_refuse("%s: NULL arguments", fn);
        return STATUS_INVALID_PARAMETER;
    }
    if (args->Priority < D3DDDI_PAGINGQUEUE_PRIORITY_BELOW_NORMAL ||
        args->Priority > D3DDDI_PAGINGQUEUE_PRIORITY_ABOVE_NORMAL) {
        dxgk_refuse("%s: Priority %d is not a D3DDDI_PAGINGQUEUE_PRIORITY (-1..1)", fn, (int)args->Priority);
        return STATUS_INVALID_PARAMETER;
    }
    if (args->PhysicalAdapterIndex != 0) {
        dxgk_refuse("%s: PhysicalAdapterIndex %u (no linked adapters)", fn, args->PhysicalAdapterIndex);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_device *d = dxgk_device_get(args->hDevice);
    if (!d) {
        dxgk_refuse("%s: invalid device handle 0x%08x", fn, args->hDevice);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_paging_queue *q = wddm_calloc(1, sizeof *q);
    if (!q) {
        dxgk_device_put(d);
        return STATUS_NO_MEMORY;
    }
    dxgk_object_init(&q->obj, DXGK_TYPE_PAGING_QUEUE, queue_release);
    q->device = args->hDevice;
    q->priority = args->Priority;
    /* The queue's fence: a regular monitored fence of the device, starting at 0. */
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 cs = { .hDevice = args->hDevice };
    cs.Info.Type = D3DDDI_MONITORED_FENCE;
    NTSTATUS st = D3DKMTCreateSynchronizationObject2(&cs);
    if (!NT_SUCCESS(st)) {
        dxgk_refuse("%s: cannot create the queue's monitored fence (0x%08x)", fn, (unsigned)st);
        dxgk_object_put(&q->obj);
        dxgk_device_put(d);
        return st;
    }
    q->fence_handle = cs.hSyncObject;
    q->fence_cpu_va = cs.Info.MonitoredFence.FenceValueCPUVirtualAddress;
    q->fence = (struct dxgk_syncobj *)dxgk_handle_get(cs.hSyncObject, DXGK_TYPE_SYNCOBJECT);
    q->handle = q->fence ? dxgk_handle_insert(&q->obj) : 0;
    if (!q->handle) {
        D3DKMT_DESTROYSYNCHRONIZATIONOBJECT ds = { .hSyncObject = cs.hSyncObject };
        (void)D3DKMTDestroySynchronizationObject(&ds);
        dxgk_object_put(&q->obj);
        dxgk_device_put(d);
        return STATUS_NO_MEMORY;
    }
    /* Published before the device's state is read: D3DKMTDestroyDevice marks the device dead
     * (adapter lock) before it collects the queues, so a queue is either collected or sees
     * the device dead and goes here (dxgk_handle_remove decides who destroys it). */
    D3DKMT_HANDLE hq = q->handle;
    dxgk_object_get(&q->obj); /* q stays readable below even if its handle is destroyed */
    dxgk_handle_publish(hq);
    pthread_mutex_lock(&d->adapter->lock);
    bool dead = d->dead;
    pthread_mutex_unlock(&d->adapter->lock);
    if (dead) {
        struct dxgk_object *o = dxgk_handle_remove(hq, DXGK_TYPE_PAGING_QUEUE);
        if (o)
            queue_destroy((struct dxgk_paging_queue *)o);
        dxgk_paging_queue_put(q);
        dxgk_device_put(d);
        dxgk_refuse("%s: device 0x%08x is being destroyed", fn, args->hDevice);
        return STATUS_INVALID_PARAMETER;
    }
    args->hPagingQueue = hq;
    args->hSyncObject = q->fence_handle;
    args->FenceValueCPUVirtualAddress = q->fence_cpu_va;
    dxgk_paging_queue_put(q);
    dxgk_device_put(d);
    return STATUS_SUCCESS;
}

/* Takes the queue's handle's reference over: destroys its fence, then drops it. */
static void queue_destroy(struct dxgk_paging_queue *q)
{
    /* The fence goes with the queue (WDK: "will automatically destroy this sync object"),
     * unless the application destroyed it already; its waiters are released with an error. */
    struct dxgk_object *f = dxgk_handle_get(q->fence_handle, DXGK_TYPE_SYNCOBJECT);
    if (f == (struct dxgk_object *)q->fence) {
        D3DKMT_DESTROYSYNCHRONIZATIONOBJECT ds = { .hSyncObject = q->fence_handle };
        (void)D3DKMTDestroySynchronizationObject(&ds);
    }
    if (f)
        dxgk_object_put(f);
    dxgk_object_put(&q->obj);
}

NTSTATUS APIENTRY D3DKMTDestroyPagingQueue(D3DKMT_DESTROYPAGINGQUEUE *args)
{
    struct dxgk_object *o = args ? dxgk_handle_remove(args->hPagingQueue, DXGK_TYPE_PAGING_QUEUE) : NULL;
    if (!o) {
        dxgk_refuse("D3DKMTDestroyPagingQueue: invalid paging queue handle 0x%08x", args ? args->hPagingQueue : 0);
        return STATUS_INVALID_PARAMETER;
    }
    queue_destroy((struct dxgk_paging_queue *)o);
    return STATUS_SUCCESS;
}

void dxgk_paging_queues_destroy_device(D3DKMT_HANDLE device)
{
    struct dxgk_object **objs;
    D3DKMT_HANDLE *hs;
    size_t n = dxgk_handle_collect(DXGK_TYPE_PAGING_QUEUE, &objs, &hs);
    for (size_t i = 0; i < n; i++) {
        if (((struct dxgk_paging_queue *)objs[i])->device == device) {
            struct dxgk_object *o = dxgk_handle_remove(hs[i], DXGK_TYPE_PAGING_QUEUE);
            if (o)
                queue_destroy((struct dxgk_paging_queue *)o);
        }
        dxgk_object_put(objs[i]);
    }
    free(objs);
    free(hs);
}

struct dxgk_device *dxgk_paging_queue_resolve(D3DKMT_HANDLE h, struct dxgk_paging_queue **q, const char *who)
{
    struct dxgk_device *d = dxgk_paging_queue_resolve_nowait(h, q, who);
    if (d)
        vidmm_paging_wait_room(d->adapter); /* the paging pool's bound (vidmm/paging.c) */
    return d;
}

static struct dxgk_device *dxgk_paging_queue_resolve_nowait(D3DKMT_HANDLE h, struct dxgk_paging_queue **q,
                                                            const char *who)
{
    *q = (struct dxgk_paging_queue *)dxgk_handle_get(h, DXGK_TYPE_PAGING_QUEUE);
    if (!*q) {
        struct dxgk_device *d = dxgk_device_get(h); /* the device stands for its paging node */
        if (!d)
            dxgk_refuse("%s: hPagingQueue 0x%08x is neither a paging queue nor a device", who, h);
        return d;
    }
    struct dxgk_device *d = dxgk_device_get((*q)->device);
    if (!d) {
        dxgk_refuse("%s: paging queue 0x%08x: its device 0x%08x is being destroyed", who, h, (*q)->device);
        dxgk_paging_queue_put(*q);
        *q = NULL;
    }
    return d;
}

UINT64 dxgk_paging_queue_fence_locked(struct dxgk_adapter *a, struct dxgk_paging_queue *q, UINT64 paging_fence)
{
    WDDM_ASSERT_HELD(&a->lock);
    struct gsched_node *n = &a->node[a->paging_node];
    if (!paging_fence || gsched_fence_completed(n, paging_fence))
        return 0;
    /* Paging fences complete in order: waiting for the later of this call's and the queue's
     * last keeps the queue's values monotonic in time as well as in number. */
    if (paging_fence < q->last_paging_fence)
        paging_fence = q->last_paging_fence;
    q->last_paging_fence = paging_fence;
    UINT64 value = ++q->last_value;
    if (!NT_SUCCESS(gsched_gpu_signal_arm_fence(n, q->fence, paging_fence, value))) {
        /* No memory to record the signal: wait for the paging here instead (the adapter lock
         * is never held across a GPU wait), then raise the fence ourselves. */
        pthread_mutex_unlock(&a->lock);
        gsched_wait_fence(n, paging_fence);
        dxgk_syncobj_signal_at_least(q->fence, value);
        pthread_mutex_lock(&a->lock);
    }
    return value;
}
