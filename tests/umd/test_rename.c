/* The reference UMD's own renaming (src/umd/rename.c; docs/semantics.md §3.3 "WDDM 2.x", §8.5;
 * issue 3), observed at the runtime-callback boundary with a fake monitored fence whose
 * "GPU" completes only when the test says so (or when the UMD waits on it):
 *  - CreateDevice makes one monitored fence, every pfnRenderCb is followed by a GPU signal of
 *    the next value on the rendering context, DestroyDevice destroys the fence;
 *  - a Map never calls pfnLockCb (no Discard asked of VidMm): pfnLock2Cb / pfnUnlock2Cb only;
 *  - WRITE_DISCARD of a busy DYNAMIC buffer takes new allocations of the same resource up to
 *    the bound; at the bound D3D10_DDI_MAP_FLAG_DONOTWAIT gives DXGI_DDI_ERR_WASSTILLDRAWING
 *    (after submitting the buffer that names the oldest instance), without DONOTWAIT the UMD
 *    waits on the fence and hands out the oldest instance; DestroyResource frees them all;
 *  - ResourceIsStagingBusy answers from the stamp, with no kernel call. */
#include "umd/umd_fake.h"
#include "umd/rename.h"
#include "umd/umd.h"

#define DNW D3D10_DDI_MAP_FLAG_DONOTWAIT
#define FENCE_HANDLE 0x77u

static struct {
    _Alignas(8) UINT64 page;   /* the fence's CPU-visible value */
    UINT64 signalled;          /* the last value signalled from the "GPU" */
    int creates, destroys, signals, waits, lock2, unlock2;
} fence;

static HRESULT APIENTRY fake_CreateSynchronizationObject2Cb(HANDLE hDevice, D3DDDICB_CREATESYNCHRONIZATIONOBJECT2 *c)
{
    (void)hDevice;
    assert_int_equal(c->Info.Type, D3DDDI_MONITORED_FENCE);
    fence.creates++;
    fence.page = c->Info.MonitoredFence.InitialFenceValue;
    c->Info.MonitoredFence.FenceValueCPUVirtualAddress = &fence.page;
    c->hSyncObject = FENCE_HANDLE;
    return S_OK;
}

static HRESULT APIENTRY fake_DestroySynchronizationObjectCb(HANDLE hDevice, const D3DDDICB_DESTROYSYNCHRONIZATIONOBJECT *d)
{
    (void)hDevice;
    assert_int_equal(d->hSyncObject, FENCE_HANDLE);
    fence.destroys++;
    return S_OK;
}

static HRESULT APIENTRY fake_SignalFromGpuCb(HANDLE hDevice, const D3DDDICB_SIGNALSYNCHRONIZATIONOBJECTFROMGPU *s)
{
    (void)hDevice;
    assert_int_equal((uintptr_t)s->hContext, 0xC0);
    assert_int_equal(s->ObjectCount, 1);
    assert_int_equal(s->ObjectHandleArray[0], FENCE_HANDLE);
    assert_true(s->MonitoredFenceValueArray[0] > fence.signalled); /* monotonic */
    fence.signalled = s->MonitoredFenceValueArray[0];
    fence.signals++;
    return S_OK;
}

static HRESULT APIENTRY fake_WaitFromCpuCb(HANDLE hDevice, const D3DDDICB_WAITFORSYNCHRONIZATIONOBJECTFROMCPU *w)
{
    (void)hDevice;
    assert_int_equal(w->ObjectCount, 1);
    assert_int_equal(w->ObjectHandleArray[0], FENCE_HANDLE);
    assert_null(w->hAsyncEvent);
    /* A wait for a value nobody signalled would never end: the UMD must submit first. */
    assert_true(w->FenceValueArray[0] <= fence.signalled);
    fence.waits++;
    fence.page = fence.signalled; /* the GPU finishes what was submitted */
    return S_OK;
}

static HRESULT APIENTRY fake_Lock2Cb(HANDLE hDevice, D3DDDICB_LOCK2 *l)
{
    struct fake *f = hDevice;
    assert_int_equal(l->Flags.Value, 0);
    fence.lock2++;
    l->pData = fake_alloc_of(f, l->hAllocation)->mem;
    return S_OK;
}

static HRESULT APIENTRY fake_Unlock2Cb(HANDLE hDevice, const D3DDDICB_UNLOCK2 *u)
{
    (void)fake_alloc_of(hDevice, u->hAllocation);
    fence.unlock2++;
    return S_OK;
}

static struct fake *rename_setup(const char *max_instances)
{
    memset(&fence, 0, sizeof fence);
    struct fake *f = fake_new_sized(64 * 1024, 64, 64);
    f->kt.pfnCreateSynchronizationObject2Cb = fake_CreateSynchronizationObject2Cb;
    f->kt.pfnDestroySynchronizationObjectCb = fake_DestroySynchronizationObjectCb;
    f->kt.pfnSignalSynchronizationObjectFromGpuCb = fake_SignalFromGpuCb;
    f->kt.pfnWaitForSynchronizationObjectFromCpuCb = fake_WaitFromCpuCb;
    f->kt.pfnLock2Cb = fake_Lock2Cb;
    f->kt.pfnUnlock2Cb = fake_Unlock2Cb;
    setenv("WDDM_UMD_RENAMING", "1", 1);
    if (max_instances)
        setenv("WDDM_UMD_RENAME_MAX_INSTANCES", max_instances, 1);
    assert_int_equal(fake_open_adapter(f), S_OK);
    assert_int_equal(fake_create_device(f), S_OK);
    unsetenv("WDDM_UMD_RENAMING");
    unsetenv("WDDM_UMD_RENAME_MAX_INSTANCES");
    return f;
}

/* One queued GPU read of `src` (a copy into `dst`). */
static void gpu_reads(struct fake *f, struct fake_res *dst, struct fake_res *src)
{
    f->df.pfnResourceCopy(f->hDevice, dst->h, src->h);
}

static void *map(struct fake *f, struct fake_res *r, D3D10_DDI_MAP type, UINT flags)
{
    D3D10DDI_MAPPED_SUBRESOURCE m = { 0 };
    f->df.pfnResourceMap(f->hDevice, r->h, 0, type, flags, &m);
    return m.pData;
}

/* rule: umd.one-monitored-fence-device-after-every */
static void test_renaming_device_signals_its_fence_after_every_submission(void **state)
{
    struct fake *f = rename_setup(NULL);
    assert_int_equal(fence.creates, 1);
    BYTE data[64] = { 1, 2, 3 };
    struct fake_res *r = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 64, 0, data);
    fake_flush(f);
    fake_flush(f); /* nothing queued: no submission, no signal */
    struct fake_res *s = fake_buffer(f, D3D10_DDI_USAGE_STAGING, 64, D3D10_DDI_CPU_ACCESS_READ, NULL);
    gpu_reads(f, s, r);
    fake_flush(f);
    assert_int_equal(f->render_calls, 2);
    assert_int_equal(fence.signals, 2);
    assert_int_equal(fence.signalled, 2); /* the generations the UMD submitted: 1, 2 */
    fake_res_destroy(f, s);
    fake_res_destroy(f, r);
    fake_teardown(f);
    assert_int_equal(fence.destroys, 1);
}

/* rule: umd.map-busy-dynamic-resource-never-waits (no `pfnLockCb` at all) */
/* rule: umd.bound-8-allocations-resource-64-mib */
/* rule: umd.wait-stamp-command-buffer-still-being (fake fails a wait for an unsignalled value) */
/* rule: umd.all-pool-allocations-freed-resource (live allocations drop by 3) */
static void test_discard_renames_up_to_the_bound_then_waits_for_the_oldest(void **state)
{
    struct fake *f = rename_setup("3");
    struct fake_res *dyn = fake_buffer(f, D3D10_DDI_USAGE_DYNAMIC, 64, D3D10_DDI_CPU_ACCESS_WRITE, NULL);
    struct fake_res *dst = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 64, 0, NULL);
    int allocs0 = f->allocate_calls;
    struct wddm_umd_rename_counters c0;
    wddm_umd_get_rename_counters(&c0);

    void *p[3];
    for (int i = 0; i < 3; i++) {
        p[i] = map(f, dyn, D3D10_DDI_MAP_WRITE_DISCARD, 0);
        assert_non_null(p[i]);
        f->df.pfnResourceUnmap(f->hDevice, dyn->h, 0);
        gpu_reads(f, dst, dyn); /* queued, not submitted: the GPU "still has to read" it */
    }
    assert_ptr_not_equal(p[0], p[1]);
    assert_ptr_not_equal(p[1], p[2]);
    assert_int_equal(f->allocate_calls - allocs0, 2); /* bound 3: the current one + 2 */
    assert_int_equal(f->lock_calls, 0);                /* never pfnLockCb, never Discard */
    assert_int_equal(fence.waits, 0);
    assert_int_equal(f->render_calls, 0);               /* a discard needs no submission */

    /* At the bound, DONOTWAIT: still drawing, after submitting what names the oldest instance. */
    assert_null(map(f, dyn, D3D10_DDI_MAP_WRITE_DISCARD, DNW));
    assert_int_equal(f->n_errors, 1);
    assert_int_equal(f->errors[0], DXGI_DDI_ERR_WASSTILLDRAWING);
    assert_int_equal(f->render_calls, 1);
    assert_int_equal(fence.waits, 0);

    /* Without DONOTWAIT: the monitored-fence CPU wait, then the oldest instance comes back. */
    void *q = map(f, dyn, D3D10_DDI_MAP_WRITE_DISCARD, 0);
    assert_int_equal(fence.waits, 1);
    assert_ptr_equal(q, p[0]);
    f->df.pfnResourceUnmap(f->hDevice, dyn->h, 0);
    assert_int_equal(f->allocate_calls - allocs0, 2);
    assert_int_equal(fence.lock2, fence.unlock2);
    struct wddm_umd_rename_counters c1;
    wddm_umd_get_rename_counters(&c1);
    assert_int_equal(c1.renames - c0.renames, 3);
    assert_int_equal(c1.instances_created - c0.instances_created, 2);
    assert_int_equal(c1.still_drawing - c0.still_drawing, 1);

    /* Every instance belongs to the resource and goes with it. */
    int live = f->live_allocs;
    fake_res_destroy(f, dyn);
    assert_int_equal(f->live_allocs, live - 3);
    assert_int_equal(f->lock_calls, 0);
    fake_res_destroy(f, dst);
    fake_teardown(f);
}

/* After a flush, `quiet` discards of dyn, each read by a GPU copy into dst, submit nothing; the
 * next discard submits the open buffer first, and nothing waits on the fence. */
static void expect_submit_at_discard(struct fake *f, struct fake_res *dyn, struct fake_res *dst, UINT quiet)
{
    fake_flush(f);
    int renders = f->render_calls;
    for (UINT i = 0; i < quiet; i++) {
        assert_non_null(map(f, dyn, D3D10_DDI_MAP_WRITE_DISCARD, 0));
        f->df.pfnResourceUnmap(f->hDevice, dyn->h, 0);
        gpu_reads(f, dst, dyn);
    }
    assert_int_equal(f->render_calls, renders);
    assert_non_null(map(f, dyn, D3D10_DDI_MAP_WRITE_DISCARD, 0));
    f->df.pfnResourceUnmap(f->hDevice, dyn->h, 0);
    assert_int_equal(f->render_calls, renders + 1);
    assert_int_equal(fence.waits, 0);
}

/* Issue 17 aim 2 (docs/rules/umd.md): a discard submits the open buffer first once the renamed
 * bytes it names would pass UMD_RENAMED_BYTES_PER_FLUSH (1 MiB), as the WDDM 1.x path does, so
 * the GPU copies the earlier instances while the CPU fills the next; no wait is involved. */
/* rule: umd.renaming-mode-write-discard-submits-open */
static void test_discard_submits_the_open_buffer_once_its_renamed_bytes_pass_1_mib(void **state)
{
    struct fake *f = rename_setup(NULL);
    const UINT size = UMD_RENAMED_BYTES_PER_FLUSH / 2;
    struct fake_res *dyn = fake_buffer(f, D3D10_DDI_USAGE_DYNAMIC, size, D3D10_DDI_CPU_ACCESS_WRITE, NULL);
    struct fake_res *dst = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, size, 0, NULL);
    /* The first keeps the idle allocation; the next two rename: 1 MiB named, not past it; the
     * fourth (1.5 MiB) is submitted first. */
    expect_submit_at_discard(f, dyn, dst, 3);
    fake_res_destroy(f, dyn);
    fake_res_destroy(f, dst);
    fake_teardown(f);
}

/* ... and once half the pool (the default bound, 8) would be instances only the open buffer
 * names, however small they are. */
/* rule: umd.renaming-mode-write-discard-submits-open (each mutated: its rule off) */
static void test_discard_submits_the_open_buffer_once_half_the_pool_waits_in_it(void **state)
{
    struct fake *f = rename_setup(NULL);
    struct fake_res *dyn = fake_buffer(f, D3D10_DDI_USAGE_DYNAMIC, 64, D3D10_DDI_CPU_ACCESS_WRITE, NULL);
    struct fake_res *dst = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 64, 0, NULL);
    /* The first keeps the idle allocation; then the open buffer names 2, 3, 4 of the pool; the
     * 4th rename would be half of it: submitted first. */
    expect_submit_at_discard(f, dyn, dst, UMD_RENAME_MAX_INSTANCES / 2);
    fake_res_destroy(f, dyn);
    fake_res_destroy(f, dst);
    fake_teardown(f);
}

/* rule: umd.map-current-allocation-no-wait-no */
static void test_no_overwrite_and_idle_discard_keep_the_current_allocation(void **state)
{
    struct fake *f = rename_setup(NULL);
    struct fake_res *dyn = fake_buffer(f, D3D10_DDI_USAGE_DYNAMIC, 64, D3D10_DDI_CPU_ACCESS_WRITE, NULL);
    struct fake_res *dst = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 64, 0, NULL);
    int allocs0 = f->allocate_calls;
    void *p = map(f, dyn, D3D10_DDI_MAP_WRITE_DISCARD, 0); /* never used by the GPU: no rename */
    f->df.pfnResourceUnmap(f->hDevice, dyn->h, 0);
    gpu_reads(f, dst, dyn);
    fake_flush(f);
    assert_ptr_equal(map(f, dyn, D3D10_DDI_MAP_WRITE_NOOVERWRITE, 0), p); /* busy, but no wait */
    f->df.pfnResourceUnmap(f->hDevice, dyn->h, 0);
    assert_int_equal(fence.waits, 0);
    fence.page = fence.signalled; /* the GPU caught up */
    assert_ptr_equal(map(f, dyn, D3D10_DDI_MAP_WRITE_DISCARD, 0), p);
    f->df.pfnResourceUnmap(f->hDevice, dyn->h, 0);
    assert_int_equal(f->allocate_calls, allocs0);
    assert_int_equal(f->n_errors, 0);
    fake_res_destroy(f, dyn);
    fake_res_destroy(f, dst);
    fake_teardown(f);
}

/* rule: umd.each-allocation-stamped-last-submission */
/* rule: umd.map-staging-monitored-fence-cpu-wait */
static void test_staging_busy_and_map_read_follow_the_stamp(void **state)
{
    struct fake *f = rename_setup(NULL);
    BYTE data[64] = { 9, 8, 7 };
    struct fake_res *src = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 64, 0, data);
    struct fake_res *s = fake_buffer(f, D3D10_DDI_USAGE_STAGING, 64, D3D10_DDI_CPU_ACCESS_READ, NULL);
    gpu_reads(f, s, src);
    assert_true(f->df.pfnResourceIsStagingBusy(f->hDevice, s->h)); /* queued */
    fake_flush(f);
    assert_true(f->df.pfnResourceIsStagingBusy(f->hDevice, s->h)); /* submitted, fence not there */
    assert_null(map(f, s, D3D10_DDI_MAP_READ, DNW));
    assert_int_equal(f->errors[0], DXGI_DDI_ERR_WASSTILLDRAWING);
    BYTE *p = map(f, s, D3D10_DDI_MAP_READ, 0); /* waits on the fence */
    assert_non_null(p);
    assert_int_equal(fence.waits, 1);
    assert_memory_equal(p, data, 3);
    f->df.pfnResourceUnmap(f->hDevice, s->h, 0);
    assert_false(f->df.pfnResourceIsStagingBusy(f->hDevice, s->h));
    assert_int_equal(f->lock_calls, 0); /* no kernel-side synchronisation asked for */
    fake_res_destroy(f, s);
    fake_res_destroy(f, src);
    fake_teardown(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_renaming_device_signals_its_fence_after_every_submission),
        cmocka_unit_test(test_discard_renames_up_to_the_bound_then_waits_for_the_oldest),
        cmocka_unit_test(test_discard_submits_the_open_buffer_once_its_renamed_bytes_pass_1_mib),
        cmocka_unit_test(test_discard_submits_the_open_buffer_once_half_the_pool_waits_in_it),
        cmocka_unit_test(test_no_overwrite_and_idle_discard_keep_the_current_allocation),
        cmocka_unit_test(test_staging_busy_and_map_read_follow_the_stamp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
