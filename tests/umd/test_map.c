/* Map / Unmap of the reference UMD, observed at the pfnLockCb boundary: seed 001 §6.3
 * (both tables: D3D10_DDI_MAP with and without D3D10_DDI_MAP_FLAG_DONOTWAIT), §7 (pitches),
 * §8 (flush before lock, WASSTILLDRAWING), docs/semantics.md §3.4 (no NoOverwrite bit),
 * §4.3 (allowed map errors). */
/* rule: umd.cpu-pointers-only-through-pfnlockcb (every test counts lock/unlock calls) */
/* rule: umd.seed-001-6-3-additional-flags (READ/WRITE/READWRITE/DISCARD rows with DNW) */
#include "umd/umd_fake.h"
#include "umd/umd.h" /* UMD_RENAMED_BYTES_PER_FLUSH */

#define DNW D3D10_DDI_MAP_FLAG_DONOTWAIT

/* Map `map` (+flags) on a fresh resource of the right usage; returns the recorded lock flags. */
static UINT lock_flags_for(D3D10_DDI_MAP map, UINT flags)
{
    struct fake *f = fake_setup();
    BOOL dynamic = map == D3D10_DDI_MAP_WRITE_DISCARD || map == D3D10_DDI_MAP_WRITE_NOOVERWRITE;
    struct fake_res *r = fake_buffer(f, dynamic ? D3D10_DDI_USAGE_DYNAMIC : D3D10_DDI_USAGE_STAGING, 64,
                                     dynamic ? D3D10_DDI_CPU_ACCESS_WRITE
                                             : D3D10_DDI_CPU_ACCESS_READ | D3D10_DDI_CPU_ACCESS_WRITE,
                                     NULL);
    D3D10DDI_MAPPED_SUBRESOURCE m = { 0 };
    f->df.pfnResourceMap(f->hDevice, r->h, 0, map, flags, &m);
    assert_int_equal(f->n_errors, 0);
    assert_int_equal(f->lock_calls, 1);
    assert_non_null(m.pData);
    UINT v = f->lock_log[0].Value;
    f->df.pfnResourceUnmap(f->hDevice, r->h, 0);
    assert_int_equal(f->unlock_calls, 1);
    fake_res_destroy(f, r);
    fake_teardown(f);
    return v;
}

/* Seed 001 §6.3 row READ: ReadOnly = 1 (+ DoNotWait with DO_NOT_WAIT). */
/* rule: umd.seed-001-6-3-row-read */
static void test_map_read_locks_readonly(void **state)
{
    assert_int_equal(lock_flags_for(D3D10_DDI_MAP_READ, 0), 0x001);
    assert_int_equal(lock_flags_for(D3D10_DDI_MAP_READ, DNW), 0x001 | 0x004);
}

/* Row WRITE: WriteOnly = 1. */
/* rule: umd.seed-001-6-3-row-write */
static void test_map_write_locks_writeonly(void **state)
{
    assert_int_equal(lock_flags_for(D3D10_DDI_MAP_WRITE, 0), 0x002);
    assert_int_equal(lock_flags_for(D3D10_DDI_MAP_WRITE, DNW), 0x002 | 0x004);
}

/* Row READWRITE: ReadOnly = 0, WriteOnly = 0. */
/* rule: umd.seed-001-6-3-row-read-2 */
static void test_map_readwrite_locks_neither_readonly_nor_writeonly(void **state)
{
    assert_int_equal(lock_flags_for(D3D10_DDI_MAP_READWRITE, 0), 0x000);
    assert_int_equal(lock_flags_for(D3D10_DDI_MAP_READWRITE, DNW), 0x004);
}

/* Row WRITE_DISCARD: WriteOnly = 1, Discard = 1; nothing queued names the resource here, so the
 * UMD also says NoExistingReference (0x100, docs/semantics.md §3.3): VidMm may keep an idle instance. */
/* rule: umd.seed-001-6-3-row-write-2 */
static void test_map_write_discard_locks_writeonly_discard(void **state)
{
    assert_int_equal(lock_flags_for(D3D10_DDI_MAP_WRITE_DISCARD, 0), 0x002 | 0x080 | 0x100);
    assert_int_equal(lock_flags_for(D3D10_DDI_MAP_WRITE_DISCARD, DNW), 0x002 | 0x080 | 0x100 | 0x004);
}

/* Row WRITE_NOOVERWRITE: WriteOnly = 1 + "NoOverwrite", which D3DDDICB_LOCKFLAGS spells
 * IgnoreSync + DonotWait (docs/semantics.md §3.2, §3.4). */
/* rule: umd.seed-001-6-3-row-write-3 */
/* rule: umd.nooverwrite-ignoresync-donotwait-seed */
static void test_map_write_nooverwrite_locks_writeonly_ignoresync_donotwait(void **state)
{
    assert_int_equal(lock_flags_for(D3D10_DDI_MAP_WRITE_NOOVERWRITE, 0), 0x002 | 0x008 | 0x004);
    assert_int_equal(lock_flags_for(D3D10_DDI_MAP_WRITE_NOOVERWRITE, DNW), 0x002 | 0x008 | 0x004);
}

/* Seed 001 §8 / docs/semantics.md §3.6: D3DDDIERR_WASSTILLDRAWING from pfnLockCb under
 * DO_NOT_WAIT is reported as DXGI_DDI_ERR_WASSTILLDRAWING, and nothing stays locked. */
/* rule: umd.d3dddierr-wasstilldrawing-under */
static void test_map_donotwait_still_drawing_reports_dxgi_ddi_err_wasstilldrawing(void **state)
{
    struct fake *f = fake_setup();
    struct fake_res *r = fake_buffer(f, D3D10_DDI_USAGE_STAGING, 64, D3D10_DDI_CPU_ACCESS_READ, NULL);
    f->lock_result = D3DDDIERR_WASSTILLDRAWING;
    f->lock_fail_count = -1;
    D3D10DDI_MAPPED_SUBRESOURCE m = { (void *)1, 1, 1 };
    f->df.pfnStagingResourceMap(f->hDevice, r->h, 0, D3D10_DDI_MAP_READ, DNW, &m);
    assert_int_equal(f->n_errors, 1);
    assert_int_equal(f->errors[0], DXGI_DDI_ERR_WASSTILLDRAWING);
    assert_null(m.pData);
    assert_int_equal(f->lock_log[0].DonotWait, 1);
    /* a later successful map works normally */
    f->lock_result = S_OK;
    f->df.pfnStagingResourceMap(f->hDevice, r->h, 0, D3D10_DDI_MAP_READ, 0, &m);
    assert_int_equal(f->n_errors, 1);
    assert_non_null(m.pData);
    f->df.pfnStagingResourceUnmap(f->hDevice, r->h, 0);
    assert_int_equal(f->locked, 0);
    fake_res_destroy(f, r);
    fake_teardown(f);
}

/* WASSTILLDRAWING is legal only for DONOTWAIT maps (docs/semantics.md §4.3): a no-overwrite
 * lock the kernel refuses as busy is retried as a plain waiting WriteOnly lock. */
/* rule: umd.wasstilldrawing-legal-only-donotwait */
/* rule: umd.nooverwrite-ignoresync-donotwait-seed */
static void test_map_nooverwrite_refused_busy_retries_waiting_without_error(void **state)
{
    struct fake *f = fake_setup();
    struct fake_res *r = fake_buffer(f, D3D10_DDI_USAGE_DYNAMIC, 64, D3D10_DDI_CPU_ACCESS_WRITE, NULL);
    f->lock_result = D3DDDIERR_WASSTILLDRAWING;
    f->lock_fail_count = 1;
    D3D10DDI_MAPPED_SUBRESOURCE m = { 0 };
    f->df.pfnDynamicIABufferMapNoOverwrite(f->hDevice, r->h, 0, D3D10_DDI_MAP_WRITE_NOOVERWRITE, 0, &m);
    assert_int_equal(f->n_errors, 0);
    assert_int_equal(f->lock_calls, 2);
    assert_int_equal(f->lock_log[1].Value, 0x002);
    assert_non_null(m.pData);
    f->df.pfnDynamicIABufferUnmap(f->hDevice, r->h, 0);
    fake_res_destroy(f, r);
    fake_teardown(f);
}

/* pfnLockCb D3DDDIERR_DEVICEREMOVED -> pfnSetErrorCb(D3DDDIERR_DEVICEREMOVED);
 * E_OUTOFMEMORY -> E_OUTOFMEMORY. */
/* rule: umd.lock-errors-d3dddierr-deviceremoved-e */
static void test_map_lock_errors_are_propagated(void **state)
{
    HRESULT codes[] = { D3DDDIERR_DEVICEREMOVED, E_OUTOFMEMORY };
    for (int i = 0; i < 2; i++) {
        struct fake *f = fake_setup();
        struct fake_res *r = fake_buffer(f, D3D10_DDI_USAGE_STAGING, 64, D3D10_DDI_CPU_ACCESS_READ, NULL);
        f->lock_result = codes[i];
        f->lock_fail_count = -1;
        D3D10DDI_MAPPED_SUBRESOURCE m = { 0 };
        f->df.pfnStagingResourceMap(f->hDevice, r->h, 0, D3D10_DDI_MAP_READ, 0, &m);
        assert_int_equal(f->n_errors, 1);
        assert_int_equal(f->errors[0], codes[i]);
        assert_null(m.pData);
        f->lock_result = S_OK;
        fake_res_destroy(f, r);
        fake_teardown(f);
    }
}

/* Seed 001 §4.3/§5: DEFAULT and IMMUTABLE are GPU-only: Map fails with E_INVALIDARG and
 * pfnLockCb is never called. */
/* rule: umd.map-default-resource-fails-cleanly-e */
static void test_map_of_default_or_immutable_fails_without_locking(void **state)
{
    struct fake *f = fake_setup();
    BYTE init[64] = { 1 };
    struct fake_res *d = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 64, 0, NULL);
    struct fake_res *i = fake_buffer(f, D3D10_DDI_USAGE_IMMUTABLE, 64, 0, init);
    D3D10DDI_MAPPED_SUBRESOURCE m = { 0 };
    f->df.pfnResourceMap(f->hDevice, d->h, 0, D3D10_DDI_MAP_WRITE, 0, &m);
    f->df.pfnResourceMap(f->hDevice, i->h, 0, D3D10_DDI_MAP_READ, 0, &m);
    assert_int_equal(f->n_errors, 2);
    assert_int_equal(f->errors[0], E_INVALIDARG);
    assert_int_equal(f->errors[1], E_INVALIDARG);
    assert_int_equal(f->lock_calls, 0);
    assert_null(m.pData);
    fake_res_destroy(f, d);
    fake_res_destroy(f, i);
    fake_teardown(f);
}

/* Seed 001 §7: pData = lock pointer + subresource offset; RowPitch = align(row bytes, 256),
 * DepthPitch = RowPitch * rows, never 0. */
/* rule: umd.pdata-lock-pointer-subresource-offset */
static void test_map_returns_subresource_pointer_and_pitches(void **state)
{
    struct fake *f = fake_setup();
    struct fake_res *r = fake_tex2d(f, D3D10_DDI_USAGE_STAGING, DXGI_FORMAT_R8G8B8A8_UNORM, 257, 129, 3, 2,
                                    D3D10_DDI_CPU_ACCESS_READ);
    struct fake_alloc *a = fake_mem(f, r);
    /* subresource 4 = mip 1 of slice 1 (index = mip + slice * MipLevels) */
    D3D10DDI_MAPPED_SUBRESOURCE m = { 0 };
    f->df.pfnStagingResourceMap(f->hDevice, r->h, 4, D3D10_DDI_MAP_READ, 0, &m);
    assert_int_equal(f->n_errors, 0);
    UINT s0 = 1280 * 129, s1 = 512 * 64, s2 = 256 * 32; /* mips 257x129, 128x64, 64x32 */
    UINT slice = s0 + s1 + s2;
    assert_ptr_equal(m.pData, a->mem + slice + s0);
    assert_int_equal(m.RowPitch, 512);
    assert_int_equal(m.DepthPitch, 512 * 64);
    f->df.pfnStagingResourceUnmap(f->hDevice, r->h, 4);
    assert_int_equal(f->unlock_calls, 1);
    assert_int_equal(a->size, 2 * slice);
    fake_res_destroy(f, r);
    fake_teardown(f);
}

/* docs/semantics.md §8.1 / seed 001 §8: a lock of an allocation the unsubmitted command buffer
 * references is preceded by pfnRenderCb, so the kernel's implicit sync sees the copy; the
 * copied data is then what Map(READ) returns. */
/* rule: umd.work-queued-against-allocation-submitted */
static void test_map_flushes_queued_work_on_the_allocation_first(void **state)
{
    struct fake *f = fake_setup();
    BYTE data[256];
    for (int i = 0; i < 256; i++)
        data[i] = (BYTE)(i * 7);
    struct fake_res *src = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 256, 0, data);
    struct fake_res *st = fake_buffer(f, D3D10_DDI_USAGE_STAGING, 256, D3D10_DDI_CPU_ACCESS_READ, NULL);
    f->df.pfnResourceCopy(f->hDevice, st->h, src->h);
    assert_int_equal(f->render_calls, 0); /* queued, not yet submitted */
    D3D10DDI_MAPPED_SUBRESOURCE m = { 0 };
    f->df.pfnStagingResourceMap(f->hDevice, st->h, 0, D3D10_DDI_MAP_READ, 0, &m);
    assert_int_equal(f->render_calls, 1);
    assert_memory_equal(m.pData, data, 256);
    f->df.pfnStagingResourceUnmap(f->hDevice, st->h, 0);
    /* nothing queued now: the next map does not flush */
    f->df.pfnStagingResourceMap(f->hDevice, st->h, 0, D3D10_DDI_MAP_READ, 0, &m);
    assert_int_equal(f->render_calls, 1);
    f->df.pfnStagingResourceUnmap(f->hDevice, st->h, 0);
    fake_res_destroy(f, src);
    fake_res_destroy(f, st);
    fake_teardown(f);
}

/* docs/semantics.md §3.3: a Discard lock may return a new instance handle; the unlock and every
 * later command name the new handle. */
/* rule: umd.discard-lock-may-return-new-instance */
static void test_map_discard_rename_switches_to_the_new_instance(void **state)
{
    struct fake *f = fake_setup();
    f->rename_on_discard = 1;
    struct fake_res *dyn = fake_buffer(f, D3D10_DDI_USAGE_DYNAMIC, 128, D3D10_DDI_CPU_ACCESS_WRITE, NULL);
    struct fake_res *dst = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 128, 0, NULL);
    D3D10DDI_MAPPED_SUBRESOURCE m = { 0 };
    f->df.pfnDynamicResourceMapDiscard(f->hDevice, dyn->h, 0, D3D10_DDI_MAP_WRITE_DISCARD, 0, &m);
    memset(m.pData, 0x5A, 128);
    f->df.pfnDynamicResourceUnmap(f->hDevice, dyn->h, 0); /* fake_UnlockCb asserts the handle is live */
    f->df.pfnResourceCopy(f->hDevice, dst->h, dyn->h);
    fake_flush(f);
    BYTE expect[128];
    memset(expect, 0x5A, 128);
    assert_memory_equal(fake_mem(f, dst)->mem, expect, 128);
    assert_int_equal(f->n_errors, 0);
    fake_res_destroy(f, dyn);
    fake_res_destroy(f, dst);
    assert_int_equal(f->live_allocs, 0);
    fake_teardown(f);
}

/* Map(WRITE_DISCARD) + Unmap + copy of dyn into dst: returns the map's flags. */
static UINT discard_and_copy(struct fake *f, struct fake_res *dyn, struct fake_res *dst, BYTE value)
{
    D3D10DDI_MAPPED_SUBRESOURCE m = { 0 };
    int before = f->lock_calls;
    f->df.pfnDynamicResourceMapDiscard(f->hDevice, dyn->h, 0, D3D10_DDI_MAP_WRITE_DISCARD, 0, &m);
    assert_non_null(m.pData);
    memset(m.pData, value, (size_t)fake_mem(f, dyn)->size);
    f->df.pfnDynamicResourceUnmap(f->hDevice, dyn->h, 0);
    f->df.pfnResourceCopy(f->hDevice, dst->h, dyn->h);
    assert_int_equal(f->lock_calls, before + 1);
    return f->lock_log[before].Value;
}

/* docs/semantics.md §3.3 and pfnLockCb remarks: a Discard lock that fails (no instance can be
 * created or reused) is retried after a flush with Discard | NoExistingReference. */
/* rule: umd.failed-discard-lock-retried-after-flush */
static void test_map_discard_failure_retries_with_noexistingreference(void **state)
{
    struct fake *f = fake_setup();
    f->rename_on_discard = 1;
    struct fake_res *dyn = fake_buffer(f, D3D10_DDI_USAGE_DYNAMIC, 64, D3D10_DDI_CPU_ACCESS_WRITE, NULL);
    struct fake_res *dst = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 64, 0, NULL);
    (void)discard_and_copy(f, dyn, dst, 1); /* queued, naming the instance the lock returned */
    int renders = f->render_calls;
    f->lock_result = E_OUTOFMEMORY;
    f->lock_fail_count = 1;
    D3D10DDI_MAPPED_SUBRESOURCE m = { 0 };
    f->df.pfnDynamicResourceMapDiscard(f->hDevice, dyn->h, 0, D3D10_DDI_MAP_WRITE_DISCARD, 0, &m);
    assert_int_equal(f->n_errors, 0);
    assert_int_equal(f->lock_calls, 3);
    assert_int_equal(f->lock_log[1].Value, 0x002 | 0x080);
    assert_int_equal(f->lock_log[2].Value, 0x002 | 0x080 | 0x100);
    assert_int_equal(f->render_calls, renders + 1); /* the flush between the two */
    assert_non_null(m.pData);
    f->df.pfnDynamicResourceUnmap(f->hDevice, dyn->h, 0);
    f->lock_result = S_OK;
    fake_res_destroy(f, dyn);
    fake_res_destroy(f, dst);
    fake_teardown(f);
}

/* pfnLockCb remarks (docs/semantics.md §3.3): a Discard map of a resource that queued commands
 * name does not flush; VidMm hands out another instance and the queued copy keeps reading the
 * one it names. No NoExistingReference then: a queued command names an instance. */
/* rule: umd.seed-001-6-3-row-write-2 (queued: no NoExistingReference) */
/* rule: umd.except-discard-lock-no-flush-queued (two copies, one buffer, each sees its own data) */
static void test_map_discard_of_a_queued_resource_does_not_flush(void **state)
{
    struct fake *f = fake_setup();
    f->rename_on_discard = 1;
    struct fake_res *dyn = fake_buffer(f, D3D10_DDI_USAGE_DYNAMIC, 128, D3D10_DDI_CPU_ACCESS_WRITE, NULL);
    struct fake_res *dst1 = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 128, 0, NULL);
    struct fake_res *dst2 = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 128, 0, NULL);
    assert_int_equal(discard_and_copy(f, dyn, dst1, 0x11), 0x002 | 0x080 | 0x100);
    int renders = f->render_calls;
    assert_int_equal(discard_and_copy(f, dyn, dst2, 0x22), 0x002 | 0x080);
    assert_int_equal(f->render_calls, renders);
    fake_flush(f);
    assert_int_equal(f->render_calls, renders + 1);
    assert_int_equal(f->last_num_allocs, 4); /* two instances of dyn, dst1, dst2 */
    BYTE want[128];
    memset(want, 0x11, sizeof want);
    assert_memory_equal(fake_mem(f, dst1)->mem, want, sizeof want);
    memset(want, 0x22, sizeof want);
    assert_memory_equal(fake_mem(f, dst2)->mem, want, sizeof want);
    assert_int_equal(f->n_errors, 0);
    fake_res_destroy(f, dyn);
    fake_res_destroy(f, dst1);
    fake_res_destroy(f, dst2);
    assert_int_equal(f->live_allocs, 0);
    fake_teardown(f);
}

/* ... except when a queued command names the allocation's own handle, which names whichever
 * instance is current when the buffer is submitted: that buffer is submitted first. */
/* rule: umd.unless-queued-command-names-allocation */
static void test_map_discard_flushes_first_when_the_own_handle_is_queued(void **state)
{
    struct fake *f = fake_setup();
    f->rename_on_discard = 1;
    struct fake_res *dyn = fake_buffer(f, D3D10_DDI_USAGE_DYNAMIC, 128, D3D10_DDI_CPU_ACCESS_WRITE, NULL);
    struct fake_res *dst = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 128, 0, NULL);
    f->df.pfnResourceCopy(f->hDevice, dst->h, dyn->h); /* names dyn's own handle */
    int renders = f->render_calls;
    assert_int_equal(discard_and_copy(f, dyn, dst, 0x33), 0x002 | 0x080 | 0x100);
    assert_int_equal(f->render_calls, renders + 1);
    fake_res_destroy(f, dyn);
    fake_res_destroy(f, dst);
    fake_teardown(f);
}

/* The buffer is still submitted once the resources renamed under it reach
 * UMD_RENAMED_BYTES_PER_FLUSH (umd.h): 64 KiB renames without a flush up to that total, the
 * next one flushes first. */
/* rule: umd.buffer-still-submitted-before-discard */
/* rule: umd.umd-submits-buffer-before-discard-once */
static void test_map_discard_flushes_after_the_renamed_bytes_bound(void **state)
{
    enum { TEST_BYTES = 64 * 1024 };
    struct fake *f = fake_setup();
    f->rename_on_discard = 1;
    struct fake_res *dyn = fake_buffer(f, D3D10_DDI_USAGE_DYNAMIC, TEST_BYTES, D3D10_DDI_CPU_ACCESS_WRITE, NULL);
    struct fake_res *dst = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, TEST_BYTES, 0, NULL);
    (void)discard_and_copy(f, dyn, dst, 0);
    int renders = f->render_calls;
    for (UINT i = 0; i < UMD_RENAMED_BYTES_PER_FLUSH / TEST_BYTES; i++)
        (void)discard_and_copy(f, dyn, dst, (BYTE)(i + 1));
    assert_int_equal(f->render_calls, renders);
    assert_int_equal(discard_and_copy(f, dyn, dst, 0x77), 0x002 | 0x080 | 0x100);
    assert_int_equal(f->render_calls, renders + 1);
    fake_flush(f);
    assert_int_equal(fake_mem(f, dst)->mem[TEST_BYTES - 1], 0x77);
    assert_int_equal(f->n_errors, 0);
    fake_res_destroy(f, dyn);
    fake_res_destroy(f, dst);
    fake_teardown(f);
}

/* ResourceIsStagingBusy: queued work means busy; otherwise the kernel is asked with a
 * DonotWait lock that is given back at once. */
/* rule: umd.resourceisstagingbusy-queued-work-busy */
static void test_staging_busy_reflects_queued_and_gpu_work(void **state)
{
    struct fake *f = fake_setup();
    struct fake_res *src = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 64, 0, NULL);
    struct fake_res *st = fake_buffer(f, D3D10_DDI_USAGE_STAGING, 64, D3D10_DDI_CPU_ACCESS_READ, NULL);
    f->df.pfnResourceCopy(f->hDevice, st->h, src->h);
    assert_true(f->df.pfnResourceIsStagingBusy(f->hDevice, st->h));
    fake_flush(f);
    assert_false(f->df.pfnResourceIsStagingBusy(f->hDevice, st->h));
    assert_int_equal(f->locked, 0);
    f->lock_result = D3DDDIERR_WASSTILLDRAWING;
    f->lock_fail_count = -1;
    assert_true(f->df.pfnResourceIsStagingBusy(f->hDevice, st->h));
    assert_int_equal(f->n_errors, 0);
    f->lock_result = S_OK;
    fake_res_destroy(f, src);
    fake_res_destroy(f, st);
    fake_teardown(f);
}

/* Every map slot of D3D11DDI_DEVICEFUNCS is filled (docs/semantics.md §4.3 table). */
/* rule: umd.createdevice-creates-context */
/* rule: umd.every-map-unmap-slot-d3d11ddi */
static void test_every_map_slot_is_filled(void **state)
{
    struct fake *f = fake_setup();
    assert_non_null(f->df.pfnDynamicIABufferMapNoOverwrite);
    assert_non_null(f->df.pfnDynamicIABufferMapDiscard);
    assert_non_null(f->df.pfnDynamicConstantBufferMapDiscard);
    assert_non_null(f->df.pfnDynamicResourceMapDiscard);
    assert_non_null(f->df.pfnStagingResourceMap);
    assert_non_null(f->df.pfnResourceMap);
    assert_non_null(f->df.pfnDynamicIABufferUnmap);
    assert_non_null(f->df.pfnDynamicConstantBufferUnmap);
    assert_non_null(f->df.pfnDynamicResourceUnmap);
    assert_non_null(f->df.pfnStagingResourceUnmap);
    assert_non_null(f->df.pfnResourceUnmap);
    fake_teardown(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_map_read_locks_readonly),
        cmocka_unit_test(test_map_write_locks_writeonly),
        cmocka_unit_test(test_map_readwrite_locks_neither_readonly_nor_writeonly),
        cmocka_unit_test(test_map_write_discard_locks_writeonly_discard),
        cmocka_unit_test(test_map_write_nooverwrite_locks_writeonly_ignoresync_donotwait),
        cmocka_unit_test(test_map_donotwait_still_drawing_reports_dxgi_ddi_err_wasstilldrawing),
        cmocka_unit_test(test_map_nooverwrite_refused_busy_retries_waiting_without_error),
        cmocka_unit_test(test_map_lock_errors_are_propagated),
        cmocka_unit_test(test_map_of_default_or_immutable_fails_without_locking),
        cmocka_unit_test(test_map_returns_subresource_pointer_and_pitches),
        cmocka_unit_test(test_map_flushes_queued_work_on_the_allocation_first),
        cmocka_unit_test(test_map_discard_rename_switches_to_the_new_instance),
        cmocka_unit_test(test_map_discard_failure_retries_with_noexistingreference),
        cmocka_unit_test(test_map_discard_of_a_queued_resource_does_not_flush),
        cmocka_unit_test(test_map_discard_flushes_first_when_the_own_handle_is_queued),
        cmocka_unit_test(test_map_discard_flushes_after_the_renamed_bytes_bound),
        cmocka_unit_test(test_staging_busy_reflects_queued_and_gpu_work),
        cmocka_unit_test(test_every_map_slot_is_filled),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
