/* Instances of a renamed allocation (issue 3; docs/semantics.md §3.3): the handle a Discard lock
 * returns, DXGK_VIDMMCAPS.OutOfOrderLock (which instance may be locked), and the instance
 * ordering invariant of DMA buffers with D3DDDI_ALLOCATIONLIST.DoNotRetireInstance. Driven
 * through D3DKMTLock / D3DKMTRender against the mock KMD, whose GPU thread can be paused (so an
 * instance stays busy for as long as a test needs) and really writes the value of a DMA buffer
 * into the allocations it lists with WriteOperation (vidmm/lock.c, vidmm/rename.c,
 * sched/queue.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <unistd.h>

#include <wddm/d3dkmddi.h>
#include <wddm/d3dkmthk.h>

/* The test's KMD is the mock with one change: DXGK_DRIVERCAPS.MemoryManagementCaps.OutOfOrderLock
 * = ooo_cap (what a KMD that supports out-of-order locks reports). mock_kmd.h's DriverEntry
 * calls DxgkInitialize: it is routed through wrap_initialize, which swaps in the wrapping
 * DxgkDdiQueryAdapterInfo. */
static NTSTATUS wrap_initialize(PDRIVER_OBJECT drv, PVOID reg, DRIVER_INITIALIZATION_DATA *d);
#define DxgkInitialize wrap_initialize
#include "mock_kmd.h"
#undef DxgkInitialize

static UINT ooo_cap;
static PDXGKDDI_QUERYADAPTERINFO inner_query;

static NTSTATUS APIENTRY wrap_query(const HANDLE h, const DXGKARG_QUERYADAPTERINFO *q)
{
    NTSTATUS st = inner_query(h, q);
    if (NT_SUCCESS(st) && q->Type == DXGKQAITYPE_DRIVERCAPS)
        ((DXGK_DRIVERCAPS *)q->pOutputData)->MemoryManagementCaps.OutOfOrderLock = ooo_cap;
    return st;
}

static NTSTATUS wrap_initialize(PDRIVER_OBJECT drv, PVOID reg, DRIVER_INITIALIZATION_DATA *d)
{
    inner_query = d->DxgkDdiQueryAdapterInfo;
    d->DxgkDdiQueryAdapterInfo = wrap_query;
    return DxgkInitialize(drv, reg, d);
}

#define SEG2 0x2u /* CPU-visible memory window */

/* One DMA buffer writing `value` at offset 0 of the instance `h` names (allocation-list entry
 * with WriteOperation and, when asked, DoNotRetireInstance). */
static NTSTATUS render_entry(struct mock_env *e, D3DKMT_HANDLE h, UINT32 value, bool do_not_retire)
{
    memcpy(e->cc.pCommandBuffer, &value, 4);
    memset((UINT8 *)e->cc.pCommandBuffer + 4, 0, 4);
    e->cc.pAllocationList[0].hAllocation = h;
    e->cc.pAllocationList[0].Value = 0;
    e->cc.pAllocationList[0].WriteOperation = 1;
    e->cc.pAllocationList[0].DoNotRetireInstance = do_not_retire ? 1 : 0;
    D3DKMT_RENDER r = { .hContext = e->context, .CommandLength = 8, .AllocationCount = 1 };
    return D3DKMTRender(&r);
}

/* A lock with the given flags that must succeed; returns the handle it hands back. */
static D3DKMT_HANDLE lock_as(struct mock_env *e, D3DKMT_HANDLE h, UINT flags, void **p)
{
    D3DKMT_LOCK l = { .hDevice = e->device, .hAllocation = h };
    l.Flags.Value = flags;
    assert_int_equal(D3DKMTLock(&l), STATUS_SUCCESS);
    *p = l.pData;
    return l.hAllocation;
}

/* A Discard lock of h; returns the handle the lock hands back (the instance it locked). */
static D3DKMT_HANDLE discard_lock(struct mock_env *e, D3DKMT_HANDLE h, void **p)
{
    return lock_as(e, h, LOCK_WRITEONLY | LOCK_DISCARD, p);
}

/* A 4 KiB CPU-visible allocation, placed by a first lock (*p: its memory) with nothing queued. */
static D3DKMT_HANDLE placed_alloc(struct mock_env *e, void **p)
{
    D3DKMT_HANDLE a = mock_alloc(e, 4096, true, 0, 0, SEG2, NULL);
    assert_int_equal(mock_lock(e, a, LOCK_WRITEONLY, p), STATUS_SUCCESS);
    assert_int_equal(mock_unlock(e, a), STATUS_SUCCESS);
    return a;
}

static UINT32 read32(const void *p)
{
    UINT32 v;
    memcpy(&v, p, 4);
    return v;
}

/* Three instances, the GPU paused: instance 0 (the allocation handle `a` before any rename) and
 * instance 1 (`*h1`) each have a GPU write queued; instance 2 (`*h2`) is current, unused. */
static D3DKMT_HANDLE three_instances(struct mock_env *e, D3DKMT_HANDLE *h1, D3DKMT_HANDLE *h2, void **p1, void **p2)
{
    void *p0;
    D3DKMT_HANDLE a = placed_alloc(e, &p0);
    atomic_store(&mock.paused, true);
    assert_int_equal(render_entry(e, a, 0x10, false), STATUS_SUCCESS);
    *h1 = discard_lock(e, a, p1);
    assert_int_not_equal(*h1, a); /* D3DDDICB_LOCK.hAllocation: the new instance's handle */
    assert_ptr_not_equal(*p1, p0);
    assert_int_equal(mock_unlock(e, *h1), STATUS_SUCCESS);
    assert_int_equal(render_entry(e, *h1, 0x11, false), STATUS_SUCCESS);
    *h2 = discard_lock(e, *h1, p2);
    assert_int_not_equal(*h2, *h1);
    assert_int_not_equal(*h2, a);
    assert_ptr_not_equal(*p2, *p1);
    assert_int_equal(mock_unlock(e, *h2), STATUS_SUCCESS);
    return a;
}

/* D3DDDICB_LOCK.hAllocation after a renaming Discard names the new instance: a DMA buffer
 * listing that handle writes into the memory the lock returned, and a lock of it (the newest
 * instance) returns that memory again. The allocation's own handle names the current one. */
/* rule: vidmm.discard-lock-renames-returns-new */
static void test_discard_returns_the_new_instance_handle_and_it_names_that_instance(void **state)
{
    ooo_cap = 0;
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE h1, h2;
    void *p1, *p2, *q;
    D3DKMT_HANDLE a = three_instances(&e, &h1, &h2, &p1, &p2);
    assert_int_equal(render_entry(&e, h2, 0x22, false), STATUS_SUCCESS);
    atomic_store(&mock.paused, false);
    assert_int_equal(mock_lock(&e, h2, LOCK_READONLY, &q), STATUS_SUCCESS); /* waits for 0x22 */
    assert_ptr_equal(q, p2);
    assert_int_equal(read32(q), 0x22);
    assert_int_equal(read32(p1), 0x11); /* each buffer wrote the instance it named */
    assert_int_equal(mock_unlock(&e, h2), STATUS_SUCCESS);
    assert_int_equal(mock_lock(&e, a, LOCK_READONLY, &q), STATUS_SUCCESS);
    assert_ptr_equal(q, p2); /* the allocation's handle: the current instance */
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    mock_close(&e);
}

/* DXGK_VIDMMCAPS.OutOfOrderLock = 0: only the newest instance may be locked; a lock naming an
 * older instance is refused with STATUS_INVALID_PARAMETER, even with DonotWait, and locks
 * nothing (an unlock of it fails). */
/* rule: vidmm.dxgk-vidmmcaps-outoforderlock-0-lock */
static void test_out_of_order_lock_without_the_cap_is_refused(void **state)
{
    ooo_cap = 0;
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE h1, h2;
    void *p1, *p2, *q = NULL;
    (void)three_instances(&e, &h1, &h2, &p1, &p2);
    assert_int_equal(mock_lock(&e, h1, LOCK_READONLY, &q), STATUS_INVALID_PARAMETER);
    assert_int_equal(mock_lock(&e, h1, LOCK_READONLY | LOCK_DONOTWAIT, &q), STATUS_INVALID_PARAMETER);
    assert_int_equal(mock_unlock(&e, h1), STATUS_INVALID_PARAMETER);
    assert_int_equal(mock_lock(&e, h2, LOCK_WRITEONLY | LOCK_DONOTWAIT, &q), STATUS_SUCCESS); /* newest: idle */
    assert_ptr_equal(q, p2);
    assert_int_equal(mock_unlock(&e, h2), STATUS_SUCCESS);
    atomic_store(&mock.paused, false);
    mock_close(&e);
}

struct locker {
    struct mock_env *e;
    D3DKMT_HANDLE h;
    atomic_bool done;
    NTSTATUS st;
    void *p;
    UINT32 value;
};

static void *locker_thread(void *arg)
{
    struct locker *l = arg;
    l->st = mock_lock(l->e, l->h, LOCK_READONLY, &l->p);
    if (NT_SUCCESS(l->st))
        l->value = read32(l->p);
    atomic_store(&l->done, true);
    return NULL;
}

/* DXGK_VIDMMCAPS.OutOfOrderLock = 1: an older instance may be locked, and the lock is
 * synchronised with that instance's own GPU use: busy (DonotWait) while its write is queued
 * though the newest instance is idle; a blocking lock returns after that write, in the memory
 * the GPU wrote. While it is locked, renaming never recycles it. */
/* rule: vidmm.outoforderlock-1-older-instance-may */
static void test_out_of_order_lock_with_the_cap_locks_the_older_instance_synchronised(void **state)
{
    ooo_cap = 1;
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE h1, h2;
    void *p1, *p2, *q;
    D3DKMT_HANDLE a = three_instances(&e, &h1, &h2, &p1, &p2);
    assert_int_equal(mock_lock(&e, h1, LOCK_READONLY | LOCK_DONOTWAIT, &q), STATUS_GRAPHICS_ALLOCATION_BUSY);
    assert_int_equal(mock_lock(&e, h2, LOCK_WRITEONLY | LOCK_DONOTWAIT, &q), STATUS_SUCCESS); /* newest: idle */
    assert_int_equal(mock_unlock(&e, h2), STATUS_SUCCESS);
    struct locker l = { .e = &e, .h = h1 };
    pthread_t t;
    pthread_create(&t, NULL, locker_thread, &l);
    usleep(30000);
    assert_false(atomic_load(&l.done)); /* waits for instance 1's GPU write (the GPU is paused) */
    atomic_store(&mock.paused, false);
    pthread_join(t, NULL);
    assert_int_equal(l.st, STATUS_SUCCESS);
    assert_ptr_equal(l.p, p1);
    assert_int_equal(l.value, 0x11);
    /* Locked out of order, instance 1 is never recycled by a rename though the GPU is done
     * with it. Renaming recycles the oldest idle instance: first instance 0 (busy newest 2 ->
     * 0), then, with 0 busy, instance 1 would be next: a new instance is made instead. */
    atomic_store(&mock.paused, true);
    assert_int_equal(render_entry(&e, h2, 0x22, false), STATUS_SUCCESS);
    void *p3, *p4;
    D3DKMT_HANDLE h3 = discard_lock(&e, h2, &p3);
    assert_ptr_not_equal(p3, p1);
    assert_ptr_not_equal(p3, p2);
    assert_int_equal(mock_unlock(&e, h3), STATUS_SUCCESS);
    assert_int_equal(render_entry(&e, h3, 0x33, false), STATUS_SUCCESS);
    D3DKMT_HANDLE h4 = discard_lock(&e, h3, &p4);
    assert_ptr_not_equal(p4, p1);
    assert_int_not_equal(h4, h1);
    assert_int_equal(mock_unlock(&e, h4), STATUS_SUCCESS);
    assert_int_equal(read32(p1), 0x11); /* still the content the lock holds */
    assert_int_equal(mock_unlock(&e, h1), STATUS_SUCCESS);
    assert_int_equal(mock_unlock(&e, h1), STATUS_INVALID_PARAMETER); /* one lock, one unlock */
    /* Discard of an older instance: only the newest is renamed. */
    assert_int_equal(mock_lock(&e, h1, LOCK_WRITEONLY | LOCK_DISCARD, &q), STATUS_INVALID_PARAMETER);
    atomic_store(&mock.paused, false);
    (void)a;
    mock_close(&e);
}

/* Instance ordering (docs/semantics.md §3.3): once a DMA buffer referenced the newest instance, a
 * later buffer naming an older one is refused (STATUS_INVALID_PARAMETER) and nothing reaches
 * the KMD; the allocation's handle (the current instance) and the newest instance stay fine. */
/* rule: kernel.instance-ordering-once-dma-buffer */
static void test_dma_buffer_naming_a_retired_instance_is_refused(void **state)
{
    ooo_cap = 0;
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE h1, h2;
    void *p1, *p2;
    D3DKMT_HANDLE a = three_instances(&e, &h1, &h2, &p1, &p2);
    /* Nothing named instance 2 yet: instance 1, last referenced, may still be referenced. */
    assert_int_equal(render_entry(&e, h1, 0x12, false), STATUS_SUCCESS);
    assert_int_equal(render_entry(&e, h2, 0x22, false), STATUS_SUCCESS); /* retires 0 and 1 */
    UINT renders = atomic_load(&mock.renders);
    assert_int_equal(render_entry(&e, h1, 0x13, false), STATUS_INVALID_PARAMETER);
    assert_int_equal(atomic_load(&mock.renders), renders); /* refused before DxgkDdiRender */
    assert_int_equal(render_entry(&e, h2, 0x23, false), STATUS_SUCCESS);
    assert_int_equal(render_entry(&e, a, 0x24, false), STATUS_SUCCESS); /* current = instance 2 */
    atomic_store(&mock.paused, false);
    void *q;
    assert_int_equal(mock_lock(&e, h2, LOCK_READONLY, &q), STATUS_SUCCESS);
    assert_int_equal(read32(q), 0x24);
    assert_int_equal(read32(p1), 0x12); /* the refused 0x13 never ran */
    assert_int_equal(mock_unlock(&e, h2), STATUS_SUCCESS);
    mock_close(&e);
}

/* D3DDDI_ALLOCATIONLIST.DoNotRetireInstance keeps the instance valid for a later buffer after a
 * newer instance was referenced (a manual broadcast); that later reference, without the flag,
 * lets it retire: the one after is refused. */
/* rule: vidmm.d3dddi-allocationlist */
static void test_do_not_retire_instance_keeps_an_instance_valid_for_a_later_buffer(void **state)
{
    ooo_cap = 0;
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE h1, h2;
    void *p1, *p2;
    (void)three_instances(&e, &h1, &h2, &p1, &p2);
    assert_int_equal(render_entry(&e, h1, 0x12, true), STATUS_SUCCESS);  /* DoNotRetireInstance */
    assert_int_equal(render_entry(&e, h2, 0x22, false), STATUS_SUCCESS); /* newer: 1 is kept */
    assert_int_equal(render_entry(&e, h1, 0x13, false), STATUS_SUCCESS); /* the promised reference */
    assert_int_equal(render_entry(&e, h2, 0x23, false), STATUS_SUCCESS);
    assert_int_equal(render_entry(&e, h1, 0x14, false), STATUS_INVALID_PARAMETER); /* now retired */
    atomic_store(&mock.paused, false);
    void *q;
    assert_int_equal(mock_lock(&e, h2, LOCK_READONLY, &q), STATUS_SUCCESS);
    assert_int_equal(read32(q), 0x23);
    assert_int_equal(read32(p1), 0x13);
    assert_int_equal(mock_unlock(&e, h2), STATUS_SUCCESS);
    mock_close(&e);
}

/* An instance locked out of order keeps its memory: when room is needed, VidMm evicts other
 * instances (the idle current one, the retired one) and never the locked one, whose CPU pointer
 * stays valid with its content (vidmm/evict.c: a locked instance is not a victim). */
/* rule: vidmm.outoforderlock-1-older-instance-may */
static void test_an_instance_locked_out_of_order_is_never_evicted(void **state)
{
    ooo_cap = 1;
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE h1, h2;
    void *p1, *p2, *q;
    (void)three_instances(&e, &h1, &h2, &p1, &p2);
    atomic_store(&mock.paused, false);
    assert_int_equal(mock_lock(&e, h1, LOCK_READONLY, &q), STATUS_SUCCESS);
    assert_ptr_equal(q, p1);
    /* The CPU-visible segment but two pages: the instances after the locked one must go. */
    D3DKMT_HANDLE big = mock_alloc(&e, MOCK_SEG2_SIZE - 8192, true, 0, 0, SEG2, NULL);
    assert_int_not_equal(big, 0);
    void *pb;
    assert_int_equal(mock_lock(&e, big, LOCK_WRITEONLY, &pb), STATUS_SUCCESS);
    memset(pb, 0x5A, MOCK_SEG2_SIZE - 8192);
    assert_int_equal(read32(p1), 0x11); /* the locked instance kept its page and content */
    assert_int_equal(mock_unlock(&e, big), STATUS_SUCCESS);
    assert_int_equal(mock_unlock(&e, h1), STATUS_SUCCESS);
    mock_close(&e);
}

static UINT64 renames(void)
{
    struct wddm_counters c;
    assert_int_equal(wddm_get_counters(&c), STATUS_SUCCESS);
    return c.renames;
}

/* pfnLockCb remarks, docs/semantics.md §3.3: without NoExistingReference the caller may have
 * commands it has not submitted naming the current instance, so a Discard moves to another one
 * even when the GPU is idle; with NoExistingReference the idle current instance is kept. */
/* rule: vidmm.without-noexistingreference-discard */
/* rule: vidmm.without-noexistingreference-discard-2 */
static void test_discard_without_no_existing_reference_never_reuses_the_current_instance(void **state)
{
    ooo_cap = 0;
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    void *p0, *p1, *p2;
    D3DKMT_HANDLE a = placed_alloc(&e, &p0);
    UINT64 r0 = renames();
    D3DKMT_HANDLE h1 = discard_lock(&e, a, &p1);
    assert_int_not_equal(h1, a);
    assert_ptr_not_equal(p1, p0);
    assert_int_equal(renames(), r0 + 1);
    assert_int_equal(mock_unlock(&e, h1), STATUS_SUCCESS);
    D3DKMT_HANDLE h2 = lock_as(&e, h1, LOCK_WRITEONLY | LOCK_DISCARD | LOCK_NOEXISTINGREFERENCE, &p2);
    assert_int_equal(h2, h1);
    assert_ptr_equal(p2, p1);
    assert_int_equal(renames(), r0 + 1);
    assert_int_equal(mock_unlock(&e, h2), STATUS_SUCCESS);
    mock_close(&e);
}

/* An instance is recycled only once a submitted DMA buffer named a newer one (it is retired for
 * references) and the GPU is done with it: before that, unsubmitted commands may still name it. */
/* rule: vidmm.instance-recycled-only-once-submitted */
static void test_an_instance_is_recycled_only_once_retired_for_references(void **state)
{
    ooo_cap = 0;
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    void *p0, *p1, *p2, *p3;
    D3DKMT_HANDLE a = placed_alloc(&e, &p0);
    D3DKMT_HANDLE h1 = discard_lock(&e, a, &p1);
    assert_int_equal(mock_unlock(&e, h1), STATUS_SUCCESS);
    /* Instance 0 is idle but no buffer named a newer instance: not recycled. */
    D3DKMT_HANDLE h2 = discard_lock(&e, h1, &p2);
    assert_ptr_not_equal(p2, p0);
    assert_ptr_not_equal(p2, p1);
    assert_int_equal(mock_unlock(&e, h2), STATUS_SUCCESS);
    /* A buffer naming h2 retires instances 0 and 1; once it ran, the oldest comes back. */
    assert_int_equal(render_entry(&e, h2, 0x22, false), STATUS_SUCCESS);
    assert_int_equal(mock_lock(&e, h2, LOCK_READONLY, &p3), STATUS_SUCCESS); /* waits for it */
    assert_int_equal(mock_unlock(&e, h2), STATUS_SUCCESS);
    D3DKMT_HANDLE h3 = discard_lock(&e, h2, &p3);
    assert_ptr_equal(p3, p0);
    assert_int_equal(mock_unlock(&e, h3), STATUS_SUCCESS);
    mock_close(&e);
}

/* Nothing is lost: an instance that is no longer current but that no submitted buffer retired
 * (the caller's unsubmitted commands may still name it) keeps its content through an eviction;
 * only a retired one is evicted with DISCARD_CONTENT (vidmm/evict.c). */
/* rule: vidmm.only-instance-retired-references-evicted */
static void test_an_instance_not_retired_keeps_its_content_when_evicted(void **state)
{
    ooo_cap = 1;
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    void *p0, *p1, *p2, *q;
    D3DKMT_HANDLE a = placed_alloc(&e, &p0);
    D3DKMT_HANDLE h1 = discard_lock(&e, a, &p1);
    memset(p1, 0xAB, 4096);
    assert_int_equal(mock_unlock(&e, h1), STATUS_SUCCESS);
    D3DKMT_HANDLE h2 = discard_lock(&e, h1, &p2);
    assert_int_equal(mock_unlock(&e, h2), STATUS_SUCCESS);
    /* The CPU-visible segment but one page: every instance of `a` but one must leave it. */
    D3DKMT_HANDLE big = mock_alloc(&e, MOCK_SEG2_SIZE - 4096, true, 0, 0, SEG2, NULL);
    void *pb;
    assert_int_equal(mock_lock(&e, big, LOCK_WRITEONLY, &pb), STATUS_SUCCESS);
    assert_int_equal(mock_unlock(&e, big), STATUS_SUCCESS);
    mock_free(&e, big);
    assert_int_equal(mock_lock(&e, h1, LOCK_READONLY, &q), STATUS_SUCCESS); /* out of order: h1 is older */
    for (int i = 0; i < 4096; i++)
        if (((const UINT8 *)q)[i] != 0xAB)
            fail_msg("byte %d of the evicted instance is 0x%02x, want 0xab", i, ((const UINT8 *)q)[i]);
    assert_int_equal(mock_unlock(&e, h1), STATUS_SUCCESS);
    mock_close(&e);
}

/* Instance handles live as long as the allocation: destroying it through an instance handle
 * destroys the allocation; afterwards every handle of it is refused. */
/* rule: vidmm.instance-handles-die-allocation */
static void test_instance_handles_die_with_their_allocation(void **state)
{
    ooo_cap = 1;
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE h1, h2;
    void *p1, *p2, *q;
    D3DKMT_HANDLE a = three_instances(&e, &h1, &h2, &p1, &p2);
    atomic_store(&mock.paused, false);
    int live = atomic_load(&mock.live_allocations);
    assert_int_equal(mock_free(&e, h2), STATUS_SUCCESS);
    assert_int_equal(mock_free(&e, a), STATUS_INVALID_PARAMETER); /* the same allocation, gone */
    D3DKMT_HANDLE hs[] = { a, h1, h2 };
    for (UINT i = 0; i < 3; i++) {
        /* Gone or being destroyed (deferred until the GPU is done with it): never locked. */
        assert_int_not_equal(mock_lock(&e, hs[i], LOCK_READONLY, &q), STATUS_SUCCESS);
        assert_int_not_equal(render_entry(&e, hs[i], 1, false), STATUS_SUCCESS);
    }
    mock_close(&e);
    assert_int_equal(atomic_load(&mock.live_allocations), live - 1);
}

static int reset(void **state)
{
    mock_reset();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_discard_returns_the_new_instance_handle_and_it_names_that_instance, reset),
        cmocka_unit_test_setup(test_out_of_order_lock_without_the_cap_is_refused, reset),
        cmocka_unit_test_setup(test_out_of_order_lock_with_the_cap_locks_the_older_instance_synchronised, reset),
        cmocka_unit_test_setup(test_dma_buffer_naming_a_retired_instance_is_refused, reset),
        cmocka_unit_test_setup(test_do_not_retire_instance_keeps_an_instance_valid_for_a_later_buffer, reset),
        cmocka_unit_test_setup(test_an_instance_locked_out_of_order_is_never_evicted, reset),
        cmocka_unit_test_setup(test_instance_handles_die_with_their_allocation, reset),
        cmocka_unit_test_setup(test_discard_without_no_existing_reference_never_reuses_the_current_instance, reset),
        cmocka_unit_test_setup(test_an_instance_is_recycled_only_once_retired_for_references, reset),
        cmocka_unit_test_setup(test_an_instance_not_retired_keeps_its_content_when_evicted, reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
