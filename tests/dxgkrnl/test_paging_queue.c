/* Device paging queues (WDDM 2.0; docs/semantics.md §8.5 rule 6, §9.2; vidmm/pagingqueue.c):
 * D3DKMTCreatePagingQueue / D3DKMTDestroyPagingQueue, and D3DKMTMakeResident on a queue whose
 * PagingFenceValue is a value of the queue's monitored fence, raised once the paging is done.
 * Against the reference KMD and the software GPU: local 1 MiB, CPU-visible 1 MiB, aperture
 * 4 MiB. The GPU is paused (wddm_swgpu_set_paused) while a test checks that the value is not
 * reached before the paging ran. */
#include "real_env.h"

#include "dxgkrnl/objects/objects.h"
#include "kernel_peek.h"

#define KIB 1024u
#define SZ (256u * KIB)


/* Packets of the context held behind a GPU wait (sched/queue.c). */
static bool context_holds_work(D3DKMT_HANDLE hctx)
{
    struct dxgk_context *c = (struct dxgk_context *)dxgk_handle_get(hctx, DXGK_TYPE_CONTEXT);
    assert_non_null(c);
    struct dxgk_adapter *a = c->device->adapter;
    pthread_mutex_lock(&a->lock);
    bool held = c->held != NULL;
    pthread_mutex_unlock(&a->lock);
    dxgk_object_put(&c->obj);
    return held;
}

static D3DKMT_CREATEPAGINGQUEUE create_queue(D3DKMT_HANDLE device)
{
    D3DKMT_CREATEPAGINGQUEUE cq = { .hDevice = device, .Priority = D3DDDI_PAGINGQUEUE_PRIORITY_NORMAL };
    assert_int_equal(D3DKMTCreatePagingQueue(&cq), STATUS_SUCCESS);
    assert_int_not_equal(cq.hPagingQueue, 0);
    assert_int_not_equal(cq.hSyncObject, 0);
    assert_non_null(cq.FenceValueCPUVirtualAddress);
    return cq;
}

static NTSTATUS destroy_queue(D3DKMT_HANDLE q)
{
    D3DKMT_DESTROYPAGINGQUEUE dq = { .hPagingQueue = q };
    return D3DKMTDestroyPagingQueue(&dq);
}

static UINT64 fence_value(const D3DKMT_CREATEPAGINGQUEUE *cq)
{
    return *(const volatile UINT64 *)cq->FenceValueCPUVirtualAddress;
}

static NTSTATUS cpu_wait(D3DKMT_HANDLE device, D3DKMT_HANDLE f, UINT64 v, UINT timeout_ms)
{
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU w = { .hDevice = device, .ObjectCount = 1, .ObjectHandleArray = &f,
                                                     .FenceValueArray = &v };
    return wddm_wait_for_synchronization_object_from_cpu_timeout(&w, timeout_ms);
}

static NTSTATUS make_resident(D3DKMT_HANDLE queue, const D3DKMT_HANDLE *h, UINT n, D3DDDI_MAKERESIDENT *out)
{
    *out = (D3DDDI_MAKERESIDENT){ .hPagingQueue = queue, .NumAllocations = n, .AllocationList = h };
    return D3DKMTMakeResident(out);
}

static void evict(struct renv *e, D3DKMT_HANDLE h)
{
    D3DKMT_EVICT ev = { .hDevice = e->device, .NumAllocations = 1, .AllocationList = &h };
    assert_int_equal(D3DKMTEvict(&ev), STATUS_SUCCESS);
}

/* A GPU-only allocation holding pattern `seed`, then evicted to its backing store: MakeResident
 * (device handle) pins it, the last Evict of an idle allocation evicts it at once. */
static D3DKMT_HANDLE evicted_with_content(struct renv *e, D3DKMT_HANDLE up, D3DKMT_HANDLE rb, uint32_t seed,
                                          uint64_t *sum)
{
    D3DKMT_HANDLE g = renv_alloc(e, SWGPU_ALLOC_GPU_ONLY, SZ);
    void *p;
    assert_int_equal(renv_lock(e, up, LOCK_DISCARD | LOCK_WRITEONLY, &p), STATUS_SUCCESS);
    renv_pattern(p, SZ, seed);
    *sum = renv_checksum(p, SZ);
    renv_unlock(e, up);
    assert_int_equal(renv_copy(e, g, up, SZ), STATUS_SUCCESS);
    assert_int_equal(renv_copy(e, rb, g, SZ), STATUS_SUCCESS);
    assert_int_equal(renv_lock(e, rb, LOCK_READONLY, &p), STATUS_SUCCESS); /* waits for both copies */
    assert_true(renv_checksum(p, SZ) == *sum);
    renv_unlock(e, rb);
    D3DDDI_MAKERESIDENT mr;
    NTSTATUS st = make_resident(e->device, &g, 1, &mr);
    assert_true(st == STATUS_SUCCESS || st == STATUS_PENDING);
    evict(e, g);
    assert_int_equal(kpeek_segment(g), 0);
    return g;
}

static uint64_t read_back(struct renv *e, D3DKMT_HANDLE rb, D3DKMT_HANDLE g)
{
    assert_int_equal(renv_copy(e, rb, g, SZ), STATUS_SUCCESS);
    void *p;
    assert_int_equal(renv_lock(e, rb, LOCK_READONLY, &p), STATUS_SUCCESS);
    uint64_t sum = renv_checksum(p, SZ);
    renv_unlock(e, rb);
    return sum;
}

/* rule: vidmm.d3dkmtcreatepagingqueue-device-may */
/* rule: vidmm.d3dkmtdestroypagingqueue-destroys-queue */
static void test_paging_queue_create_and_destroy(void **state)
{
    struct renv e;
    renv_open(&e);
    /* A device may have several queues, each with its own fence starting at 0. */
    D3DKMT_CREATEPAGINGQUEUE q1 = create_queue(e.device), q2 = create_queue(e.device);
    assert_int_not_equal(q1.hPagingQueue, q2.hPagingQueue);
    assert_int_not_equal(q1.hSyncObject, q2.hSyncObject);
    assert_int_equal(fence_value(&q1), 0);
    assert_int_equal(cpu_wait(e.device, q1.hSyncObject, 0, 0), STATUS_SUCCESS); /* a monitored fence of the device */
    assert_int_equal(cpu_wait(e.device, q1.hSyncObject, 1, 0), STATUS_TIMEOUT);
    D3DKMT_CREATEPAGINGQUEUE lo = { .hDevice = e.device, .Priority = D3DDDI_PAGINGQUEUE_PRIORITY_BELOW_NORMAL };
    assert_int_equal(D3DKMTCreatePagingQueue(&lo), STATUS_SUCCESS);
    D3DKMT_CREATEPAGINGQUEUE hi = { .hDevice = e.device, .Priority = D3DDDI_PAGINGQUEUE_PRIORITY_ABOVE_NORMAL };
    assert_int_equal(D3DKMTCreatePagingQueue(&hi), STATUS_SUCCESS);
    /* Refused: a priority outside the enum, a linked-adapter index, a bad device, NULL. */
    D3DKMT_CREATEPAGINGQUEUE bad = { .hDevice = e.device, .Priority = 2 };
    assert_int_equal(D3DKMTCreatePagingQueue(&bad), STATUS_INVALID_PARAMETER);
    bad.Priority = -2;
    assert_int_equal(D3DKMTCreatePagingQueue(&bad), STATUS_INVALID_PARAMETER);
    bad = (D3DKMT_CREATEPAGINGQUEUE){ .hDevice = e.device, .PhysicalAdapterIndex = 1 };
    assert_int_equal(D3DKMTCreatePagingQueue(&bad), STATUS_INVALID_PARAMETER);
    bad = (D3DKMT_CREATEPAGINGQUEUE){ .hDevice = e.context };
    assert_int_equal(D3DKMTCreatePagingQueue(&bad), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTCreatePagingQueue(NULL), STATUS_INVALID_PARAMETER);
    /* Destroying a queue destroys its fence; the handles are invalid after. */
    assert_int_equal(destroy_queue(q1.hPagingQueue), STATUS_SUCCESS);
    assert_int_equal(destroy_queue(q1.hPagingQueue), STATUS_INVALID_PARAMETER);
    assert_int_equal(cpu_wait(e.device, q1.hSyncObject, 0, 0), STATUS_INVALID_PARAMETER);
    D3DKMT_DESTROYSYNCHRONIZATIONOBJECT ds = { .hSyncObject = q1.hSyncObject };
    assert_int_equal(D3DKMTDestroySynchronizationObject(&ds), STATUS_INVALID_PARAMETER);
    assert_int_equal(destroy_queue(e.device), STATUS_INVALID_PARAMETER); /* wrong type */
    assert_int_equal(destroy_queue(q2.hSyncObject), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTDestroyPagingQueue(NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(fence_value(&q2), 0); /* the other queue is untouched */
    assert_int_equal(destroy_queue(q2.hPagingQueue), STATUS_SUCCESS);
    assert_int_equal(destroy_queue(lo.hPagingQueue), STATUS_SUCCESS);
    /* hi is left to the device's destruction (renv_close). */
    renv_close(&e);
}

/* rule: vidmm.d3dkmtmakeresident-queue-whose-paging (GPU paused: value not reached, timed-out poll, held work; resumed: wait returns, segment ≠ 0, checksums of both allocations) */
/* rule: vidmm.device-handle-stands-for-paging-queue (the device handle accepted as hPagingQueue) */
static void test_make_resident_on_a_queue_signals_its_fence_when_the_paging_completed(void **state)
{
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, SZ), rb = renv_alloc(&e, SWGPU_ALLOC_READBACK, SZ);
    uint64_t sum1, sum2;
    D3DKMT_HANDLE g1 = evicted_with_content(&e, up, rb, 11, &sum1);
    D3DKMT_HANDLE g2 = evicted_with_content(&e, up, rb, 22, &sum2);
    D3DKMT_CREATEPAGINGQUEUE q = create_queue(e.device);

    wddm_swgpu_set_paused(1);
    D3DDDI_MAKERESIDENT mr;
    assert_int_equal(make_resident(q.hPagingQueue, &g1, 1, &mr), STATUS_PENDING); /* its restore waits on the GPU */
    assert_int_equal(mr.NumAllocations, 1);
    UINT64 v1 = mr.PagingFenceValue;
    assert_true(v1 >= 1);
    /* Not reached while the paging has not run. */
    assert_true(fence_value(&q) < v1);
    assert_int_equal(cpu_wait(e.device, q.hSyncObject, v1, 0), STATUS_TIMEOUT);
    /* Values grow per queue. */
    assert_int_equal(make_resident(q.hPagingQueue, &g2, 1, &mr), STATUS_PENDING);
    UINT64 v2 = mr.PagingFenceValue;
    assert_true(v2 > v1);
    /* A GPU wait on it holds the context's work (a read of g1) until then. */
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMGPU gw = { .hContext = e.context, .ObjectCount = 1,
                                                      .ObjectHandleArray = &q.hSyncObject };
    gw.MonitoredFenceValueArray = &v1;
    assert_int_equal(D3DKMTWaitForSynchronizationObjectFromGpu(&gw), STATUS_SUCCESS);
    assert_int_equal(renv_copy(&e, rb, g1, SZ), STATUS_SUCCESS);
    assert_true(context_holds_work(e.context));
    /* `done` follows the held copy in the context's stream: a lock does not wait for work
     * held behind a GPU wait (it has no ticket yet), so the test waits for `done`. */
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 cs = { .hDevice = e.device };
    cs.Info.Type = D3DDDI_MONITORED_FENCE;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&cs), STATUS_SUCCESS);
    UINT64 one = 1;
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMGPU sg = { .hContext = e.context, .ObjectCount = 1,
                                                     .ObjectHandleArray = &cs.hSyncObject };
    sg.MonitoredFenceValueArray = &one;
    assert_int_equal(D3DKMTSignalSynchronizationObjectFromGpu(&sg), STATUS_SUCCESS);
    assert_true(fence_value(&q) < v1);
    wddm_swgpu_set_paused(0);

    /* The CPU wait returns once the paging ran; then the allocations are resident and right. */
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU w = { .hDevice = e.device, .ObjectCount = 1,
                                                     .ObjectHandleArray = &q.hSyncObject, .FenceValueArray = &v2 };
    assert_int_equal(D3DKMTWaitForSynchronizationObjectFromCpu(&w), STATUS_SUCCESS);
    assert_true(fence_value(&q) >= v2);
    assert_int_not_equal(kpeek_segment(g1), 0);
    assert_int_not_equal(kpeek_segment(g2), 0);
    assert_int_equal(cpu_wait(e.device, cs.hSyncObject, 1, WDDM_WAIT_INFINITE), STATUS_SUCCESS);
    void *p;
    assert_int_equal(renv_lock(&e, rb, LOCK_READONLY, &p), STATUS_SUCCESS); /* the held copy ran */
    assert_true(renv_checksum(p, SZ) == sum1);
    renv_unlock(&e, rb);
    assert_false(context_holds_work(e.context));
    assert_true(read_back(&e, rb, g2) == sum2);
    /* Nothing left to page: STATUS_SUCCESS and 0 ("already done", §8.5 rule 6). */
    assert_int_equal(make_resident(q.hPagingQueue, &g1, 1, &mr), STATUS_SUCCESS);
    assert_int_equal(mr.PagingFenceValue, 0);
    /* The device handle still stands for its paging queue (WDDM 1.x-era callers). */
    NTSTATUS st = make_resident(e.device, &g2, 1, &mr);
    assert_true(st == STATUS_SUCCESS || st == STATUS_PENDING);
    assert_int_equal(destroy_queue(q.hPagingQueue), STATUS_SUCCESS);
    renv_close(&e);
}

/* rule: vidmm.hpagingqueue-naming-another-device-queue */
static void test_make_resident_refuses_bad_paging_queue_handles(void **state)
{
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE g = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, SZ);
    D3DKMT_CREATEPAGINGQUEUE mine = create_queue(e.device);
    D3DKMT_CREATEDEVICE cd = { .hAdapter = e.adapter };
    assert_int_equal(D3DKMTCreateDevice(&cd), STATUS_SUCCESS);
    D3DKMT_CREATEPAGINGQUEUE other = create_queue(cd.hDevice);
    D3DDDI_MAKERESIDENT mr;
    /* Another device's queue: the allocation is not that device's. */
    assert_int_equal(make_resident(other.hPagingQueue, &g, 1, &mr), STATUS_INVALID_PARAMETER);
    /* Wrong types: the queue's fence, a context, an allocation, a forged value. */
    assert_int_equal(make_resident(mine.hSyncObject, &g, 1, &mr), STATUS_INVALID_PARAMETER);
    assert_int_equal(make_resident(e.context, &g, 1, &mr), STATUS_INVALID_PARAMETER);
    assert_int_equal(make_resident(g, &g, 1, &mr), STATUS_INVALID_PARAMETER);
    assert_int_equal(make_resident(0x999, &g, 1, &mr), STATUS_INVALID_PARAMETER);
    /* A destroyed queue. */
    assert_int_equal(destroy_queue(mine.hPagingQueue), STATUS_SUCCESS);
    assert_int_equal(make_resident(mine.hPagingQueue, &g, 1, &mr), STATUS_INVALID_PARAMETER);
    /* The other device's queue fence cannot be waited for through this device. */
    assert_int_equal(cpu_wait(e.device, other.hSyncObject, 0, 0), STATUS_INVALID_PARAMETER);
    /* Nothing was made resident by the refusals: no reference to evict. */
    D3DKMT_EVICT ev = { .hDevice = e.device, .NumAllocations = 1, .AllocationList = &g };
    assert_int_equal(D3DKMTEvict(&ev), STATUS_INVALID_PARAMETER);
    D3DKMT_DESTROYDEVICE dd = { .hDevice = cd.hDevice };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    renv_close(&e);
}

/* rule: kernel.destroying-device-destroys-paging-queues */
static void test_destroying_the_device_destroys_its_paging_queues(void **state)
{
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, SZ), rb = renv_alloc(&e, SWGPU_ALLOC_READBACK, SZ);
    uint64_t sum;
    D3DKMT_HANDLE g = evicted_with_content(&e, up, rb, 33, &sum);
    D3DKMT_CREATEPAGINGQUEUE q1 = create_queue(e.device), q2 = create_queue(e.device);
    /* One of them with a signal still armed when the device goes. */
    wddm_swgpu_set_paused(1);
    D3DDDI_MAKERESIDENT mr;
    assert_int_equal(make_resident(q1.hPagingQueue, &g, 1, &mr), STATUS_PENDING);
    D3DKMT_HANDLE device = e.device;
    renv_close(&e); /* resumes the GPU, destroys the device */
    /* Every handle of the queues went with it (ASan reports a leaked queue or fence). */
    assert_int_equal(destroy_queue(q1.hPagingQueue), STATUS_INVALID_PARAMETER);
    assert_int_equal(destroy_queue(q2.hPagingQueue), STATUS_INVALID_PARAMETER);
    D3DKMT_DESTROYSYNCHRONIZATIONOBJECT ds = { .hSyncObject = q1.hSyncObject };
    assert_int_equal(D3DKMTDestroySynchronizationObject(&ds), STATUS_INVALID_PARAMETER);
    ds.hSyncObject = q2.hSyncObject;
    assert_int_equal(D3DKMTDestroySynchronizationObject(&ds), STATUS_INVALID_PARAMETER);
    D3DKMT_CREATEPAGINGQUEUE late = { .hDevice = device };
    assert_int_equal(D3DKMTCreatePagingQueue(&late), STATUS_INVALID_PARAMETER);
}

/* One paging node serves every queue: a high-priority queue's paging built after a low-priority
 * one's does not run first - when the high queue's value is reached, the low one's is too. The
 * application may destroy a queue's fence itself; destroying the queue then still succeeds. */
/* rule: vidmm.paging-queue-priority-reorders-nothing */
/* rule: vidmm.application-may-destroy-queue-fence */
static void test_priorities_reorder_no_paging_and_the_queue_fence_is_the_applications(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, SZ), rb = renv_alloc(&e, SWGPU_ALLOC_READBACK, SZ);
    uint64_t sum1, sum2;
    D3DKMT_HANDLE g1 = evicted_with_content(&e, up, rb, 31, &sum1);
    D3DKMT_HANDLE g2 = evicted_with_content(&e, up, rb, 32, &sum2);
    D3DKMT_CREATEPAGINGQUEUE lo = { .hDevice = e.device, .Priority = D3DDDI_PAGINGQUEUE_PRIORITY_BELOW_NORMAL };
    D3DKMT_CREATEPAGINGQUEUE hi = { .hDevice = e.device, .Priority = D3DDDI_PAGINGQUEUE_PRIORITY_ABOVE_NORMAL };
    assert_int_equal(D3DKMTCreatePagingQueue(&lo), STATUS_SUCCESS);
    assert_int_equal(D3DKMTCreatePagingQueue(&hi), STATUS_SUCCESS);
    wddm_swgpu_set_paused(1);
    D3DDDI_MAKERESIDENT mr;
    assert_int_equal(make_resident(lo.hPagingQueue, &g1, 1, &mr), STATUS_PENDING);
    UINT64 vlo = mr.PagingFenceValue;
    assert_int_equal(make_resident(hi.hPagingQueue, &g2, 1, &mr), STATUS_PENDING);
    UINT64 vhi = mr.PagingFenceValue;
    wddm_swgpu_set_paused(0);
    assert_int_equal(cpu_wait(e.device, hi.hSyncObject, vhi, 20000), STATUS_SUCCESS);
    assert_true(fence_value(&lo) >= vlo); /* built first, run first */
    assert_true(read_back(&e, rb, g1) == sum1);
    assert_true(read_back(&e, rb, g2) == sum2);
    /* The low queue's fence, destroyed by the application, then the queue. */
    D3DKMT_DESTROYSYNCHRONIZATIONOBJECT ds = { .hSyncObject = lo.hSyncObject };
    assert_int_equal(D3DKMTDestroySynchronizationObject(&ds), STATUS_SUCCESS);
    assert_int_equal(destroy_queue(lo.hPagingQueue), STATUS_SUCCESS);
    assert_int_equal(destroy_queue(hi.hPagingQueue), STATUS_SUCCESS);
    renv_close(&e);
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "1", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "1", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "4", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paging_queue_create_and_destroy),
        cmocka_unit_test(test_make_resident_on_a_queue_signals_its_fence_when_the_paging_completed),
        cmocka_unit_test(test_make_resident_refuses_bad_paging_queue_handles),
        cmocka_unit_test(test_destroying_the_device_destroys_its_paging_queues),
        cmocka_unit_test(test_priorities_reorder_no_paging_and_the_queue_fence_is_the_applications),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
