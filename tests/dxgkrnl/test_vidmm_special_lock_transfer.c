/* DXGK_OPERATION_SPECIAL_LOCK_TRANSFER against the reference KMD and the software GPU (issue 20
 * item 7; docs/semantics.md §2.3 SpecialLockTransfer, §3.2 UseAlternateVA). A caps file gives
 * the KMD two swizzling ranges (src/kmd/swizzle.c; the default is none). An allocation locked
 * with AcquireAperture | UseAlternateVA and without DonotEvict may be moved while the CPU holds
 * it (D3DDDICB_LOCKFLAGS: the alternate VA is released when "the allocation is being paged in
 * after it was evicted while under lock"; Locking Swizzled Allocations: such an eviction is
 * "invisible to the application"); the move is a SPECIAL_LOCK_TRANSFER, which the KMD builds as
 * a transfer whose range follows the allocation. The CPU's pointer keeps showing the content and
 * what it writes after the move is the allocation's content after the unlock. The operation is
 * WDDM 1.x only (DXGK_BUILDPAGINGBUFFER_OPERATION "WDDMv1 only"): in the GpuMmu model the lock
 * keeps the allocation in place, as every lock does. (vidmm/evict.c, vidmm/lock.c) */
#include "real_env.h"

#include "kernel_peek.h"
#include "kmd/kmd.h"

#define SIZE 65536u
#define LOCK_DONOTEVICT 0x20u
#define LOCK_ACQUIREAPERTURE 0x40u
#define LOCK_USEALTERNATEVA 0x200u

static const char ranges_caps[] = "DXGK_DRIVERCAPS.NumberOfSwizzlingRanges = 2\n";

/* An UPLOAD allocation (CPU-visible, prefers the aperture) holding pattern(seed), paged into the
 * CPU-visible memory segment by an AcquireAperture lock without UseAlternateVA (Locking Swizzled
 * Allocations case 2). */
static D3DKMT_HANDLE in_visible_memory(struct renv *e, uint32_t seed)
{
    D3DKMT_HANDLE up = renv_alloc(e, SWGPU_ALLOC_UPLOAD, SIZE);
    void *p;
    assert_int_equal(renv_lock(e, up, LOCK_WRITEONLY | LOCK_ACQUIREAPERTURE, &p), STATUS_SUCCESS);
    assert_int_equal(kpeek_segment(up), SWKMD_SEGMENT_VISIBLE);
    renv_pattern(p, SIZE, seed);
    renv_unlock(e, up);
    return up;
}

static void gpu_check(struct renv *e, D3DKMT_HANDLE src, const BYTE *want)
{
    D3DKMT_HANDLE rb = renv_alloc(e, SWGPU_ALLOC_READBACK, SIZE);
    assert_int_equal(renv_copy(e, rb, src, SIZE), STATUS_SUCCESS);
    void *q;
    assert_int_equal(renv_lock(e, rb, LOCK_READONLY, &q), STATUS_SUCCESS);
    assert_memory_equal(q, want, SIZE);
    renv_unlock(e, rb);
    renv_free(e, rb);
}

/* Trimming everything (the walk a power transition uses too) moves the allocation out of the
 * memory segment under the lock; the pointer shows the same bytes, a write after the move is
 * kept, and the GPU's next use reads it all. */
/* rule: kmd.reference-kmd-swizzling-ranges-range-cpu (mutation-checked: the KMD not building the operation; the range not following it; VidMm issuing a plain TRANSFER) */
static void test_a_use_alternate_va_lock_keeps_its_view_through_a_move(void **state)
{
    (void)state;
    renv_caps(ranges_caps);
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE up = in_visible_memory(&e, 11);
    static BYTE want[SIZE];
    renv_pattern(want, SIZE, 11);
    void *p;
    assert_int_equal(renv_lock(&e, up, LOCK_ACQUIREAPERTURE | LOCK_USEALTERNATEVA, &p), STATUS_SUCCESS);
    assert_memory_equal(p, want, SIZE);
    assert_int_equal(wddm_test_vidmm_trim(e.adapter, NULL), STATUS_SUCCESS);
    assert_int_equal(kpeek_segment(up), 0); /* out of the segment, the lock outstanding */
    assert_memory_equal(p, want, SIZE);
    memset(p, 0xA5, 64);
    memset(want, 0xA5, 64);
    renv_unlock(&e, up);
    gpu_check(&e, up, want);
    renv_close(&e);
    renv_caps_remove();
}

/* With DonotEvict the same lock holds the allocation where it is. */
/* rule: vidmm.lock-donotevict-without-usealternateva */
static void test_donotevict_keeps_a_use_alternate_va_lock_in_place(void **state)
{
    (void)state;
    renv_caps(ranges_caps);
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE up = in_visible_memory(&e, 12);
    void *p;
    assert_int_equal(renv_lock(&e, up, LOCK_ACQUIREAPERTURE | LOCK_USEALTERNATEVA | LOCK_DONOTEVICT, &p),
                     STATUS_SUCCESS);
    assert_int_equal(wddm_test_vidmm_trim(e.adapter, NULL), STATUS_SUCCESS);
    assert_int_equal(kpeek_segment(up), SWKMD_SEGMENT_VISIBLE);
    renv_unlock(&e, up);
    static BYTE want[SIZE];
    renv_pattern(want, SIZE, 12);
    gpu_check(&e, up, want);
    renv_close(&e);
    renv_caps_remove();
}

/* The GpuMmu model: SPECIAL_LOCK_TRANSFER is a WDDM 1.x operation, so the lock keeps the
 * allocation in place there, DonotEvict or not. */
/* rule: vidmm.lock-donotevict-without-usealternateva (mutation-checked: without the GpuMmu gate the allocation leaves its segment) */
static void test_the_gpummu_model_keeps_a_use_alternate_va_lock_in_place(void **state)
{
    (void)state;
    renv_gpummu_caps(ranges_caps);
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE up = in_visible_memory(&e, 13);
    void *p;
    assert_int_equal(renv_lock(&e, up, LOCK_ACQUIREAPERTURE | LOCK_USEALTERNATEVA, &p), STATUS_SUCCESS);
    assert_int_equal(wddm_test_vidmm_trim(e.adapter, NULL), STATUS_SUCCESS);
    assert_int_equal(kpeek_segment(up), SWKMD_SEGMENT_VISIBLE);
    static BYTE want[SIZE];
    renv_pattern(want, SIZE, 13);
    assert_memory_equal(p, want, SIZE);
    renv_unlock(&e, up);
    renv_close(&e);
    renv_caps_remove();
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "4", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "4", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "8", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_use_alternate_va_lock_keeps_its_view_through_a_move),
        cmocka_unit_test(test_donotevict_keeps_a_use_alternate_va_lock_in_place),
        cmocka_unit_test(test_the_gpummu_model_keeps_a_use_alternate_va_lock_in_place),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
