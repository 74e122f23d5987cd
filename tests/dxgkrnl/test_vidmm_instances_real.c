/* DXGK_VIDMMCAPS.OutOfOrderLock and the instance ordering of DMA buffers (issue 3; docs/semantics.md
 * §3.3) against the reference KMD and the software GPU: real copies into the instances of a
 * renamed UPLOAD allocation, the GPU paused while a test needs an instance busy. The reference
 * KMD reports OutOfOrderLock 0; a caps file (WDDM_KMD_CAPS, docs: caps) sets it to 1 for the
 * tests that need it. (vidmm/lock.c, vidmm/rename.c, sched/queue.c) */
#include "real_env.h"

#include <stdio.h>
#include <unistd.h>

#define SIZE 4096u

static void out_of_order_caps(bool on)
{
    if (!on) {
        unsetenv("WDDM_KMD_CAPS");
        return;
    }
    static char path[64];
    snprintf(path, sizeof path, "/tmp/wddm-ooo-%d.caps", (int)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("DXGK_VIDMMCAPS.OutOfOrderLock = 1\n", f);
    fclose(f);
    setenv("WDDM_KMD_CAPS", path, 1);
}

/* A READBACK (CPU-visible, never renamed) allocation holding pattern(seed). */
static D3DKMT_HANDLE source(struct renv *e, uint32_t seed)
{
    D3DKMT_HANDLE s = renv_alloc(e, SWGPU_ALLOC_READBACK, SIZE);
    void *p;
    assert_int_equal(renv_lock(e, s, LOCK_WRITEONLY, &p), STATUS_SUCCESS);
    renv_pattern(p, SIZE, seed);
    renv_unlock(e, s);
    return s;
}

static D3DKMT_HANDLE discard(struct renv *e, D3DKMT_HANDLE h)
{
    D3DKMT_LOCK l = { .hDevice = e->device, .hAllocation = h };
    l.Flags.WriteOnly = 1;
    l.Flags.Discard = 1;
    assert_int_equal(D3DKMTLock(&l), STATUS_SUCCESS);
    renv_unlock(e, l.hAllocation);
    return l.hAllocation;
}

/* The GPU paused; instance 0 of `a` and instance 1 (*h1) each have a queued GPU copy
 * (pattern 1 and 2), instance 2 (*h2) is current. */
static D3DKMT_HANDLE three_instances(struct renv *e, D3DKMT_HANDLE *h1, D3DKMT_HANDLE *h2)
{
    D3DKMT_HANDLE s1 = source(e, 1), s2 = source(e, 2);
    D3DKMT_HANDLE a = renv_alloc(e, SWGPU_ALLOC_UPLOAD, SIZE);
    void *p;
    assert_int_equal(renv_lock(e, a, LOCK_WRITEONLY, &p), STATUS_SUCCESS); /* placed */
    renv_unlock(e, a);
    wddm_swgpu_set_paused(1);
    assert_int_equal(renv_copy(e, a, s1, SIZE), STATUS_SUCCESS);
    *h1 = discard(e, a);
    assert_int_not_equal(*h1, a);
    assert_int_equal(renv_copy(e, *h1, s2, SIZE), STATUS_SUCCESS);
    *h2 = discard(e, *h1);
    assert_int_not_equal(*h2, *h1);
    return a;
}

/* rule: vidmm.dxgk-vidmmcaps-outoforderlock-0-lock */
static void real_out_of_order_lock_is_refused_without_the_cap(void **state)
{
    out_of_order_caps(false);
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE h1, h2;
    (void)three_instances(&e, &h1, &h2);
    void *p;
    assert_int_equal(renv_lock(&e, h1, LOCK_READONLY | LOCK_DONOTWAIT, &p), STATUS_INVALID_PARAMETER);
    assert_int_equal(renv_lock(&e, h2, LOCK_WRITEONLY | LOCK_DONOTWAIT, &p), STATUS_SUCCESS);
    renv_unlock(&e, h2);
    renv_close(&e);
}

/* With the cap the older instance is locked as itself: busy while its own copy is queued (the
 * newest is idle), then the bytes the GPU copied into it. */
/* rule: vidmm.outoforderlock-1-older-instance-may */
static void real_out_of_order_lock_with_the_cap_sees_that_instance_s_gpu_copy(void **state)
{
    out_of_order_caps(true);
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE h1, h2;
    (void)three_instances(&e, &h1, &h2);
    void *p;
    assert_int_equal(renv_lock(&e, h1, LOCK_READONLY | LOCK_DONOTWAIT, &p), STATUS_GRAPHICS_ALLOCATION_BUSY);
    assert_int_equal(renv_lock(&e, h2, LOCK_WRITEONLY | LOCK_DONOTWAIT, &p), STATUS_SUCCESS);
    renv_unlock(&e, h2);
    wddm_swgpu_set_paused(0);
    assert_int_equal(renv_lock(&e, h1, LOCK_READONLY, &p), STATUS_SUCCESS);
    UINT8 want[SIZE];
    renv_pattern(want, SIZE, 2);
    assert_memory_equal(p, want, SIZE);
    renv_unlock(&e, h1);
    renv_close(&e);
    out_of_order_caps(false);
}

/* A copy into the newest instance retires the older ones: a later copy naming one is refused,
 * nothing reaches the GPU, and the newest holds the last accepted copy. */
/* rule: kernel.instance-ordering-once-dma-buffer */
static void real_dma_buffer_naming_a_retired_instance_is_refused(void **state)
{
    out_of_order_caps(false);
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE h1, h2;
    (void)three_instances(&e, &h1, &h2);
    D3DKMT_HANDLE s3 = source(&e, 3), s4 = source(&e, 4);
    assert_int_equal(renv_copy(&e, h2, s3, SIZE), STATUS_SUCCESS);
    assert_int_equal(renv_copy(&e, h1, s4, SIZE), STATUS_INVALID_PARAMETER);
    wddm_swgpu_set_paused(0);
    void *p;
    assert_int_equal(renv_lock(&e, h2, LOCK_READONLY, &p), STATUS_SUCCESS);
    UINT8 want[SIZE];
    renv_pattern(want, SIZE, 3);
    assert_memory_equal(p, want, SIZE);
    renv_unlock(&e, h2);
    renv_close(&e);
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "4", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "4", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(real_out_of_order_lock_is_refused_without_the_cap),
        cmocka_unit_test(real_out_of_order_lock_with_the_cap_sees_that_instance_s_gpu_copy),
        cmocka_unit_test(real_dma_buffer_naming_a_retired_instance_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
