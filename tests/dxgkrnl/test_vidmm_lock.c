/* VidMm lock rules (docs/semantics.md §3.2, §3.3, seed 001 §8), residency and deferred
 * destruction, driven through the D3DKMT entry points against the mock KMD. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <time.h>
#include <unistd.h>

#include "mock_kmd.h"
#include "kernel_peek.h"

#define SEG1 0x1u /* local memory: GPU only */
#define SEG2 0x2u /* CPU-visible memory window */
#define SEG3 0x4u /* aperture */

static struct wddm_counters counters(void)
{
    struct wddm_counters c;
    assert_int_equal(wddm_get_counters(&c), STATUS_SUCCESS);
    return c;
}

static void wait_gpu_idle(struct mock_env *e, D3DKMT_HANDLE alloc)
{
    void *p;
    assert_int_equal(mock_lock(e, alloc, 0, &p), STATUS_SUCCESS);
    assert_int_equal(mock_unlock(e, alloc), STATUS_SUCCESS);
}

/* A CpuVisible allocation is placed only where the CPU reaches (the visible window or the
 * aperture), even with local memory preferred and in its supported set, so a lock never has to
 * move it; the same description without CpuVisible goes to local memory. */
/* rule: vidmm.cpuvisible-allocations-placed-only-cpu */
static void test_a_cpu_visible_allocation_is_never_placed_in_gpu_only_memory(void **state)
{
    (void)state;
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE visible = mock_alloc(&e, 4096, true, 0, 1, SEG1 | SEG2 | SEG3, NULL);
    D3DKMT_HANDLE gpu_only = mock_alloc(&e, 4096, false, 0, 1, SEG1 | SEG2 | SEG3, NULL);
    assert_int_equal(mock_render_write(&e, gpu_only, 2, true), STATUS_SUCCESS);
    assert_int_equal(mock_render_write(&e, visible, 1, true), STATUS_SUCCESS);
    wait_gpu_idle(&e, visible); /* and gpu_only's packet, queued before it on the same context */
    UINT s = kpeek_segment(visible);
    assert_true(s == 2 || s == 3);
    assert_int_equal(kpeek_segment(gpu_only), 1); /* the preference holds where it may */
    mock_close(&e);
}

/* rule: vidmm.lock-flag-algebra-readonly-writeonly */
/* rule: vidmm.lockentire-excludes-page-list */
/* rule: vidmm.discard-neutralises-ignoresync-donotwait */
static void test_lock_flag_algebra_is_validated(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = mock_alloc(&e, 4096, true, 0, 0, SEG2, NULL);
    void *p;
    /* rule 1, 2, 3 and reserved bits */
    assert_int_equal(mock_lock(&e, a, LOCK_READONLY | LOCK_WRITEONLY, &p), STATUS_INVALID_PARAMETER);
    assert_int_equal(mock_lock(&e, a, LOCK_IGNORESYNC | LOCK_ACQUIREAPERTURE, &p), STATUS_INVALID_PARAMETER);
    assert_int_equal(mock_lock(&e, a, LOCK_USEALTERNATEVA, &p), STATUS_INVALID_PARAMETER);
    assert_int_equal(mock_lock(&e, a, 1u << 11, &p), STATUS_INVALID_PARAMETER);
    assert_int_equal(mock_lock(&e, a, 1u << 31, &p), STATUS_INVALID_PARAMETER);
    /* LockEntire excludes a page list; GpuVirtualAddress is reserved */
    UINT page = 0;
    D3DKMT_LOCK l = { .hDevice = e.device, .hAllocation = a, .NumPages = 1, .pPages = &page };
    l.Flags.LockEntire = 1;
    assert_int_equal(D3DKMTLock(&l), STATUS_INVALID_PARAMETER);
    l = (D3DKMT_LOCK){ .hDevice = e.device, .hAllocation = a, .GpuVirtualAddress = 0x1000 };
    assert_int_equal(D3DKMTLock(&l), STATUS_INVALID_PARAMETER);
    l = (D3DKMT_LOCK){ .hDevice = e.device, .hAllocation = a, .NumPages = 1, .pPages = NULL };
    assert_int_equal(D3DKMTLock(&l), STATUS_INVALID_PARAMETER);
    page = 1; /* beyond a one-page allocation */
    l = (D3DKMT_LOCK){ .hDevice = e.device, .hAllocation = a, .NumPages = 1, .pPages = &page };
    assert_int_equal(D3DKMTLock(&l), STATUS_INVALID_PARAMETER);
    /* rules 4 and 5: neutralised flags are not errors */
    assert_int_equal(mock_lock(&e, a, LOCK_DISCARD | LOCK_IGNORESYNC | LOCK_DONOTWAIT, &p), STATUS_SUCCESS);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    assert_int_equal(mock_lock(&e, a, LOCK_IGNORESYNC, &p), STATUS_SUCCESS);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    mock_close(&e);
}

/* rule: vidmm.only-cpuvisible-allocations-lock */
static void test_lock_of_non_cpuvisible_allocation_is_refused(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = mock_alloc(&e, 4096, false, 0, 0, 0, NULL);
    void *p = (void *)1;
    assert_int_equal(mock_lock(&e, a, 0, &p), STATUS_INVALID_PARAMETER);
    assert_int_equal(mock_unlock(&e, a), STATUS_INVALID_PARAMETER);
    mock_close(&e);
}

/* rule: vidmm.unlock-allocation-not-locked-status */
static void test_unlock_of_unlocked_allocation_is_refused(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = mock_alloc(&e, 4096, true, 0, 0, SEG2, NULL);
    D3DKMT_HANDLE b = mock_alloc(&e, 4096, true, 0, 0, SEG2, NULL);
    void *p;
    assert_int_equal(mock_unlock(&e, a), STATUS_INVALID_PARAMETER);
    assert_int_equal(mock_lock(&e, a, 0, &p), STATUS_SUCCESS);
    /* all or nothing: b is not locked, so a stays locked */
    D3DKMT_HANDLE list[2] = { a, b };
    D3DKMT_UNLOCK u = { .hDevice = e.device, .NumAllocations = 2, .phAllocations = list };
    assert_int_equal(D3DKMTUnlock(&u), STATUS_INVALID_PARAMETER);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    assert_int_equal(mock_unlock(&e, a), STATUS_INVALID_PARAMETER);
    mock_close(&e);
}

/* rule: vidmm.new-placement-memory-segment-zero-filled */
/* rule: vidmm.new-placement-memory-segment-zero-filled-2 (memory segment) */
static void test_fresh_memory_placement_is_zero_filled_by_paging(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = mock_alloc(&e, 8192, true, 0, 0, SEG2, NULL);
    UINT8 *p;
    assert_int_equal(mock_lock(&e, a, LOCK_READONLY, (void **)&p), STATUS_SUCCESS);
    for (int i = 0; i < 8192; i++) /* the mock's segment 2 starts as 0xAB garbage */
        assert_int_equal(p[i], 0);
    assert_true(atomic_load(&mock.fills) >= 1);
    assert_true(counters().bytes_paged_in >= 8192);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    mock_close(&e);
}

struct locker {
    struct mock_env *e;
    D3DKMT_HANDLE a;
    UINT flags;
    atomic_bool done;
    NTSTATUS st;
    void *p;
    UINT32 value;
};

static void *locker_thread(void *arg)
{
    struct locker *l = arg;
    l->st = mock_lock(l->e, l->a, l->flags, &l->p);
    if (NT_SUCCESS(l->st))
        memcpy(&l->value, l->p, 4);
    atomic_store(&l->done, true);
    return NULL;
}

/* rule: vidmm.lock-without-donotwait-blocks-until-last */
static void test_lock_without_donotwait_blocks_until_gpu_write_retires(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = mock_alloc(&e, 4096, true, 0, 0, SEG2, NULL);
    wait_gpu_idle(&e, a); /* placed and filled */
    UINT64 waits = counters().lock_waits;
    atomic_store(&mock.paused, true);
    assert_int_equal(mock_render_write(&e, a, 0x1234abcd, true), STATUS_SUCCESS);
    struct locker l = { .e = &e, .a = a, .flags = LOCK_READONLY };
    pthread_t t;
    pthread_create(&t, NULL, locker_thread, &l);
    usleep(50000);
    assert_false(atomic_load(&l.done)); /* seed 001 §8: Map(READ) waits for the copy */
    atomic_store(&mock.paused, false);
    pthread_join(t, NULL);
    assert_int_equal(l.st, STATUS_SUCCESS);
    assert_int_equal(l.value, 0x1234abcd);
    assert_true(counters().lock_waits > waits);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    mock_close(&e);
}

/* rule: vidmm.readonly-waits-only-gpu-writes-write */
static void test_readonly_lock_does_not_wait_for_gpu_reads(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = mock_alloc(&e, 4096, true, 0, 0, SEG2, NULL);
    wait_gpu_idle(&e, a);
    atomic_store(&mock.paused, true);
    assert_int_equal(mock_render_write(&e, a, 1, false), STATUS_SUCCESS); /* a GPU read */
    void *p;
    assert_int_equal(mock_lock(&e, a, LOCK_READONLY | LOCK_DONOTWAIT, &p), STATUS_SUCCESS);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    /* a write lock must wait for the read */
    assert_int_equal(mock_lock(&e, a, LOCK_WRITEONLY | LOCK_DONOTWAIT, &p), STATUS_GRAPHICS_ALLOCATION_BUSY);
    mock_close(&e);
}

/* rule: vidmm.donotwait-busy-allocation-status */
/* rule: vidmm.ignoresync-donotwait-not-synchronise-all */
/* rule: vidmm.not-wait-lock-busy-allocation-answers */
static void test_donotwait_on_busy_allocation_returns_busy_immediately(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = mock_alloc(&e, 4096, true, 0, 0, SEG2, NULL);
    wait_gpu_idle(&e, a);
    UINT64 busy = counters().lock_still_drawing;
    atomic_store(&mock.paused, true);
    assert_int_equal(mock_render_write(&e, a, 5, true), STATUS_SUCCESS);
    void *p = NULL;
    wddm_clear_refusals();
    assert_int_equal(mock_lock(&e, a, LOCK_DONOTWAIT, &p), STATUS_GRAPHICS_ALLOCATION_BUSY);
    assert_int_equal(mock_lock(&e, a, LOCK_READONLY | LOCK_DONOTWAIT, &p), STATUS_GRAPHICS_ALLOCATION_BUSY);
    char why[256];
    wddm_last_refusals(why, sizeof why);
    assert_string_equal(why, ""); /* an expected answer, not a broken rule: no refusal line */
    /* The GPU is paused: a call that blocked would never return (the test would time out). */
    assert_int_equal(counters().lock_still_drawing, busy + 2);
    /* IgnoreSync + DonotWait does not synchronise at all */
    assert_int_equal(mock_lock(&e, a, LOCK_IGNORESYNC | LOCK_DONOTWAIT, &p), STATUS_SUCCESS);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    mock_close(&e);
}

/* rule: vidmm.discard-busy-instance-renames-without */
/* rule: kernel.dma-buffers-snapshot-current-instance (old instance got the earlier write) */
/* rule: vidmm.discard-instances-not-zero-filled (the recycled instance still holds the GPU's last write) */
static void test_discard_on_busy_allocation_renames_without_waiting(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = mock_alloc(&e, 4096, true, 0, 0, SEG2, NULL);
    void *first, *second, *third;
    assert_int_equal(mock_lock(&e, a, LOCK_WRITEONLY, &first), STATUS_SUCCESS);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    UINT64 renames = counters().renames;
    UINT created = atomic_load(&mock.live_allocations);
    atomic_store(&mock.paused, true);
    assert_int_equal(mock_render_write(&e, a, 0x11, true), STATUS_SUCCESS);
    assert_int_equal(mock_lock(&e, a, LOCK_WRITEONLY | LOCK_DISCARD, &second), STATUS_SUCCESS);
    /* The GPU is paused: a call that blocked would never return (the test would time out). */
    assert_ptr_not_equal(first, second);
    assert_int_equal(counters().renames, renames + 1);
    assert_int_equal(atomic_load(&mock.live_allocations), created); /* no new DxgkDdiCreateAllocation */
    memcpy(second, "\x22\0\0\0", 4);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    /* The same handle now names the new instance: a later GPU write lands there. */
    assert_int_equal(mock_render_write(&e, a, 0x33, true), STATUS_SUCCESS);
    atomic_store(&mock.paused, false);
    UINT32 v;
    assert_int_equal(mock_lock(&e, a, LOCK_READONLY, &third), STATUS_SUCCESS);
    assert_ptr_equal(third, second);
    memcpy(&v, third, 4);
    assert_int_equal(v, 0x33);
    memcpy(&v, first, 4);
    assert_int_equal(v, 0x11); /* the old instance got the earlier write */
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    /* An idle instance is recycled rather than a third one created. */
    atomic_store(&mock.paused, true);
    assert_int_equal(mock_render_write(&e, a, 0x44, true), STATUS_SUCCESS);
    assert_int_equal(mock_lock(&e, a, LOCK_WRITEONLY | LOCK_DISCARD, &third), STATUS_SUCCESS);
    assert_ptr_equal(third, first);
    /* A recycled instance is not zero-filled: it still holds what the GPU last wrote into it
     * (a WRITE_DISCARD map's content is undefined; VidMm spends no FILL on it). */
    memcpy(&v, third, 4);
    assert_int_equal(v, 0x11);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    mock_close(&e);
}

/* docs/semantics.md §3.3: after a failed Discard the UMD retries with Discard | NoExistingReference,
 * which lets VidMm reuse any idle instance, the current one included; a busy current instance is
 * still renamed without waiting while another instance can be had. */
static void test_discard_with_no_existing_reference_renames_a_busy_instance_without_waiting(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = mock_alloc(&e, 4096, true, 0, 0, SEG2, NULL);
    void *first, *second;
    assert_int_equal(mock_lock(&e, a, LOCK_WRITEONLY, &first), STATUS_SUCCESS);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    UINT64 renames = counters().renames;
    atomic_store(&mock.paused, true);
    assert_int_equal(mock_render_write(&e, a, 0x55, true), STATUS_SUCCESS);
    /* The GPU is paused: a lock that waited would never return. */
    assert_int_equal(mock_lock(&e, a, LOCK_WRITEONLY | LOCK_DISCARD | LOCK_NOEXISTINGREFERENCE, &second),
                     STATUS_SUCCESS);
    assert_ptr_not_equal(first, second);
    assert_int_equal(counters().renames, renames + 1);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    atomic_store(&mock.paused, false);
    mock_close(&e);
}

/* lock.c: a Discard of an allocation that is already locked must not rename (the pointer the
 * first lock returned stays valid and names the current instance); it synchronises like a
 * plain lock: it waits for the GPU and returns the same memory. */
/* rule: vidmm.without-noexistingreference-discard-2 */
static void test_discard_of_a_locked_allocation_waits_and_does_not_rename(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = mock_alloc(&e, 4096, true, 0, 0, SEG2, NULL);
    wait_gpu_idle(&e, a); /* placed and filled */
    void *first;
    assert_int_equal(mock_lock(&e, a, LOCK_WRITEONLY, &first), STATUS_SUCCESS);
    UINT64 renames = counters().renames;
    atomic_store(&mock.paused, true);
    assert_int_equal(mock_render_write(&e, a, 0x66, true), STATUS_SUCCESS);
    struct locker l = { .e = &e, .a = a, .flags = LOCK_WRITEONLY | LOCK_DISCARD };
    pthread_t t;
    pthread_create(&t, NULL, locker_thread, &l);
    usleep(30000);
    assert_false(atomic_load(&l.done)); /* waiting for the GPU write, not renaming */
    atomic_store(&mock.paused, false);
    pthread_join(t, NULL);
    assert_int_equal(l.st, STATUS_SUCCESS);
    assert_ptr_equal(l.p, first);
    assert_int_equal(l.value, 0x66); /* the GPU's write landed in the memory the lock names */
    assert_int_equal(counters().renames, renames);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    mock_close(&e);
}

/* vidmm/lock.c, pfnLockCb remarks: at MaximumRenamingListLength a Discard without
 * NoExistingReference cannot reuse the current instance (the caller's unsubmitted commands may
 * name it), and waiting for the GPU would not change that: it fails at once, renaming nothing. */
/* rule: vidmm.maximumrenaminglistlength-caps-instances */
static void test_discard_at_renaming_cap_fails_without_no_existing_reference(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = mock_alloc(&e, 4096, true, 1 /* MaximumRenamingListLength */, 0, SEG2, NULL);
    void *p;
    assert_int_equal(mock_lock(&e, a, 0, &p), STATUS_SUCCESS);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    UINT64 renames = counters().renames;
    wddm_clear_refusals();
    assert_int_equal(mock_lock(&e, a, LOCK_WRITEONLY | LOCK_DISCARD, &p), STATUS_NO_MEMORY); /* GPU idle */
    char why[1100];
    wddm_last_refusals(why, sizeof why);
    assert_non_null(strstr(why, "NoExistingReference"));
    assert_int_equal(counters().renames, renames);
    mock_close(&e);
}

/* ... and the retry the caller makes after flushing, Discard | NoExistingReference, waits for
 * the busy current instance and reuses it. */
/* rule: vidmm.maximumrenaminglistlength-caps-instances */
static void test_discard_at_renaming_cap_waits_with_no_existing_reference(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = mock_alloc(&e, 4096, true, 1 /* MaximumRenamingListLength */, 0, SEG2, NULL);
    void *first;
    assert_int_equal(mock_lock(&e, a, 0, &first), STATUS_SUCCESS);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    atomic_store(&mock.paused, true);
    assert_int_equal(mock_render_write(&e, a, 9, true), STATUS_SUCCESS);
    struct locker l = { .e = &e, .a = a, .flags = LOCK_WRITEONLY | LOCK_DISCARD | LOCK_NOEXISTINGREFERENCE };
    pthread_t t;
    pthread_create(&t, NULL, locker_thread, &l);
    usleep(30000);
    assert_false(atomic_load(&l.done));
    atomic_store(&mock.paused, false);
    pthread_join(t, NULL);
    assert_int_equal(l.st, STATUS_SUCCESS);
    assert_ptr_equal(l.p, first);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    mock_close(&e);
}

/* rule: vidmm.aperture-placement-maps-backing-store */
/* rule: vidmm.paging-retry-insufficient-dma-buffer (`paging_retries >= 1`) */
/* rule: vidmm.new-placement-memory-segment-zero-filled-2 (last byte of a fresh aperture placement is 0) */
static void test_aperture_placement_maps_its_backing_store(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    /* 4 MiB: the MAP's PFN list needs several 4 KiB paging buffers (MultipassOffset). */
    D3DKMT_HANDLE a = mock_alloc(&e, 4u << 20, true, 0, 0, SEG3, NULL);
    UINT8 *p;
    assert_int_equal(mock_lock(&e, a, 0, (void **)&p), STATUS_SUCCESS);
    assert_int_equal((uintptr_t)p % 4096, 0);
    assert_int_equal(p[(4u << 20) - 1], 0);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    assert_true(atomic_load(&mock.paging_retries) >= 1);
    assert_int_equal(mock_render_write(&e, a, 0xfeedf00d, true), STATUS_SUCCESS);
    UINT32 v;
    assert_int_equal(mock_lock(&e, a, LOCK_READONLY, (void **)&p), STATUS_SUCCESS);
    memcpy(&v, p, 4);
    assert_int_equal(v, 0xfeedf00d); /* the GPU wrote through the aperture into the backing store */
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    mock_close(&e);
}

/* rule: vidmm.no-room-allowed-segment-lock-fails */
static void test_lock_without_room_returns_no_memory(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = mock_alloc(&e, 8u << 20, true, 0, 0, SEG2, NULL); /* segment 2 has 4 MiB */
    void *p;
    assert_int_equal(mock_lock(&e, a, 0, &p), STATUS_NO_MEMORY);
    mock_close(&e);
}

/* rule: kernel.allocation-destruction-deferred-until */
static void test_destruction_is_deferred_until_the_gpu_is_done(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = mock_alloc(&e, 4096, true, 0, 0, SEG2, NULL);
    wait_gpu_idle(&e, a);
    atomic_store(&mock.paused, true);
    assert_int_equal(mock_render_write(&e, a, 1, true), STATUS_SUCCESS);
    UINT calls = atomic_load(&mock.destroy_calls);
    assert_int_equal(mock_free(&e, a), STATUS_SUCCESS);
    void *p;
    assert_int_equal(mock_lock(&e, a, 0, &p), STATUS_INVALID_PARAMETER); /* the handle is gone */
    usleep(20000);
    assert_int_equal(atomic_load(&mock.destroy_calls), calls); /* still in use by the GPU */
    atomic_store(&mock.paused, false);
    for (int i = 0; i < 1000 && atomic_load(&mock.destroy_calls) == calls; i++)
        usleep(1000);
    assert_int_equal(atomic_load(&mock.destroy_calls), calls + 1);
    /* An idle allocation is freed at once. */
    D3DKMT_HANDLE b = mock_alloc(&e, 4096, true, 0, 0, SEG2, NULL);
    assert_int_equal(mock_free(&e, b), STATUS_SUCCESS);
    assert_int_equal(atomic_load(&mock.destroy_calls), calls + 2);
    mock_close(&e);
}

static int reset(void **state)
{
    mock_reset();
    return 0;
}

struct evicter {
    struct mock_env *e;
    D3DKMT_HANDLE a;
    atomic_bool done;
    NTSTATUS st;
};

static void *evicter_thread(void *arg)
{
    struct evicter *v = arg;
    D3DKMT_EVICT ev = { .hDevice = v->e->device, .NumAllocations = 1, .AllocationList = &v->a };
    v->st = D3DKMTEvict(&ev);
    atomic_store(&v->done, true);
    return NULL;
}

/* docs/semantics.md §2.4: an eviction TRANSFER of an allocation whose own FILL is still pending
 * is built without AllocationIsIdle; the KMD answers ALLOCATION_BUSY; VidMm submits what it
 * built, waits until the allocation is idle (the GPU is paused: it must block), and calls again
 * with AllocationIsIdle = 1. The content survives the round trip. */
/* rule: vidmm.paging-retry-allocation-busy-wait-idle (issue 3) */
static void test_paging_allocation_busy_waits_then_retries_with_allocation_is_idle(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = mock_alloc(&e, 64u << 10, true, 0, 0, SEG2, NULL);
    atomic_store(&mock.paused, true);
    D3DDDI_MAKERESIDENT mr = { .hPagingQueue = e.device, .NumAllocations = 1, .AllocationList = &a };
    assert_int_equal(D3DKMTMakeResident(&mr), STATUS_PENDING); /* its FILL cannot run */
    assert_true(mr.PagingFenceValue > 0);
    atomic_store(&mock.transfer_busy, 1);
    struct evicter v = { .e = &e, .a = a };
    pthread_t t;
    pthread_create(&t, NULL, evicter_thread, &v);
    for (int i = 0; i < 2000 && atomic_load(&mock.busy_returned) == 0; i++)
        usleep(1000);
    assert_int_equal(atomic_load(&mock.busy_returned), 1);
    usleep(20000);
    assert_false(atomic_load(&v.done)); /* waiting for the FILL: the GPU is paused */
    assert_int_equal(atomic_load(&mock.transfers_idle), 0);
    atomic_store(&mock.paused, false);
    pthread_join(t, NULL);
    assert_int_equal(v.st, STATUS_SUCCESS);
    assert_int_equal(atomic_load(&mock.transfers_idle), 1); /* the second call said idle */
    UINT8 *p;
    assert_int_equal(mock_lock(&e, a, LOCK_READONLY, (void **)&p), STATUS_SUCCESS); /* restored */
    for (int i = 0; i < (64 << 10); i += 4096) /* the FILL's zeros came back, not 0xAB garbage */
        assert_int_equal(p[i], 0);
    assert_true(atomic_load(&mock.transfers) >= 2); /* out, and back in */
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    mock_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_lock_flag_algebra_is_validated, reset),
        cmocka_unit_test_setup(test_lock_of_non_cpuvisible_allocation_is_refused, reset),
        cmocka_unit_test_setup(test_unlock_of_unlocked_allocation_is_refused, reset),
        cmocka_unit_test_setup(test_fresh_memory_placement_is_zero_filled_by_paging, reset),
        cmocka_unit_test_setup(test_lock_without_donotwait_blocks_until_gpu_write_retires, reset),
        cmocka_unit_test_setup(test_readonly_lock_does_not_wait_for_gpu_reads, reset),
        cmocka_unit_test_setup(test_donotwait_on_busy_allocation_returns_busy_immediately, reset),
        cmocka_unit_test_setup(test_a_cpu_visible_allocation_is_never_placed_in_gpu_only_memory, reset),
        cmocka_unit_test_setup(test_discard_on_busy_allocation_renames_without_waiting, reset),
        cmocka_unit_test_setup(test_discard_at_renaming_cap_fails_without_no_existing_reference, reset),
        cmocka_unit_test_setup(test_discard_at_renaming_cap_waits_with_no_existing_reference, reset),
        cmocka_unit_test_setup(test_discard_with_no_existing_reference_renames_a_busy_instance_without_waiting, reset),
        cmocka_unit_test_setup(test_discard_of_a_locked_allocation_waits_and_does_not_rename, reset),
        cmocka_unit_test_setup(test_aperture_placement_maps_its_backing_store, reset),
        cmocka_unit_test_setup(test_lock_without_room_returns_no_memory, reset),
        cmocka_unit_test_setup(test_destruction_is_deferred_until_the_gpu_is_done, reset),
        cmocka_unit_test_setup(test_paging_allocation_busy_waits_then_retries_with_allocation_is_idle, reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
