/* Offers (vidmm/offer.c): D3DKMTOfferAllocations, D3DKMTReclaimAllocations(2) against the
 * reference KMD and the software GPU. An offered allocation is the first victim under pressure
 * and loses its content without being paged out; without pressure it keeps it; reclaim says
 * which happened; an offered allocation cannot be locked (D3DKMTOfferAllocations /
 * D3DKMTReclaimAllocations2 reference: the content of an offered allocation may be discarded;
 * the allocation must be reclaimed before it is used). Small segments: local 1 MiB, CPU-visible
 * 1 MiB, aperture 4 MiB. */
/* rule: vidmm.d3dkmtreclaimallocations (both forms) */
#include "real_env.h"

#include "dxgkrnl/objects/objects.h"
#include "kernel_peek.h"

#define KIB 1024u

static NTSTATUS offer(struct renv *e, D3DKMT_HANDLE *list, UINT n, D3DKMT_OFFER_PRIORITY prio)
{
    D3DKMT_OFFERALLOCATIONS o = { .hDevice = e->device, .HandleList = list, .NumAllocations = n, .Priority = prio };
    return D3DKMTOfferAllocations(&o);
}

static NTSTATUS reclaim(struct renv *e, D3DKMT_HANDLE *list, UINT n, BOOL *discarded)
{
    D3DKMT_RECLAIMALLOCATIONS r = { .hDevice = e->device, .HandleList = list, .pDiscarded = discarded,
                                    .NumAllocations = n };
    return D3DKMTReclaimAllocations(&r);
}

/* Fills the segments exactly (8 x 256 KiB over local + visible), every allocation written. */
static void fill(struct renv *e, D3DKMT_HANDLE *a, int n, UINT32 sz, D3DKMT_HANDLE up, D3DKMT_HANDLE rb)
{
    for (int i = 0; i < n; i++) {
        a[i] = renv_alloc(e, SWGPU_ALLOC_GPU_ONLY, sz);
        renv_gpu_write(e, a[i], up, sz, 40 + i);
    }
    renv_gpu_check(e, a[n - 1], rb, sz, 40 + n - 1); /* all idle */
}

/* Under pressure the offered allocation goes first - before the least recently used one - and
 * its content is dropped, not paged out: it is not resident and holds nothing (not "evicted");
 * reclaim reports DISCARDED; its next use finds it zero-filled. The others keep their bytes. */
/* rule: vidmm.under-pressure-offered-allocation-first (0 bytes paged out; mutation-checked: keeping the content fails it) */
static void test_offered_allocation_is_discarded_first_under_pressure(void **state)
{
    struct renv e;
    renv_open(&e);
    const UINT32 sz = 256 * KIB;
    enum { N = 8 };
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, sz), rb = renv_alloc(&e, SWGPU_ALLOC_READBACK, sz);
    D3DKMT_HANDLE a[N];
    fill(&e, a, N, sz, up, rb);
    assert_int_equal(offer(&e, &a[5], 1, D3DKMT_OFFER_PRIORITY_NORMAL), STATUS_SUCCESS);
    struct wddm_counters c0 = renv_counters();
    D3DKMT_HANDLE extra = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, sz);
    renv_gpu_write(&e, extra, up, sz, 99);
    renv_gpu_check(&e, extra, rb, sz, 99);
    struct wddm_counters c1 = renv_counters();
    bool ev = true;
    assert_int_equal(kpeek_where(a[5], &ev), 0);
    assert_false(ev);                                     /* no content kept anywhere */
    assert_int_equal(c1.bytes_paged_out - c0.bytes_paged_out, 0); /* nothing was copied out */
    for (int i = 0; i < N; i++)
        if (i != 5)
            assert_int_not_equal(kpeek_where(a[i], NULL), 0);

    BOOL discarded = FALSE;
    assert_int_equal(reclaim(&e, &a[5], 1, &discarded), STATUS_SUCCESS);
    assert_true(discarded);
    /* Reclaimed, used again: a new allocation as far as the content goes (zero-filled). */
    assert_int_equal(renv_copy(&e, rb, a[5], sz), STATUS_SUCCESS);
    void *p;
    assert_int_equal(renv_lock(&e, rb, LOCK_READONLY, &p), STATUS_SUCCESS);
    for (UINT32 i = 0; i < sz; i++)
        if (((UINT8 *)p)[i])
            fail_msg("byte %u of the discarded allocation is 0x%02x, not 0", i, ((UINT8 *)p)[i]);
    renv_unlock(&e, rb);
    for (int i = 0; i < N; i++)
        if (i != 5)
            renv_gpu_check(&e, a[i], rb, sz, 40 + i);
    /* A second reclaim: not offered any more, nothing lost. */
    assert_int_equal(reclaim(&e, &a[5], 1, &discarded), STATUS_SUCCESS);
    assert_false(discarded);
    renv_close(&e);
}

/* Without pressure nothing is lost: reclaim says OK (through the 2.x form too) and every byte
 * is still there. While offered, the allocation cannot be locked. */
/* rule: vidmm.under-pressure-offered-allocation-first */
/* rule: vidmm.offered-allocation-cannot-locked */
static void test_offered_allocation_keeps_its_content_without_pressure(void **state)
{
    struct renv e;
    renv_open(&e);
    const UINT32 sz = 64 * KIB;
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, sz), rb = renv_alloc(&e, SWGPU_ALLOC_READBACK, sz);
    D3DKMT_HANDLE a = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, sz);
    renv_gpu_write(&e, a, up, sz, 7);
    renv_gpu_check(&e, a, rb, sz, 7);
    assert_int_equal(offer(&e, &rb, 1, D3DKMT_OFFER_PRIORITY_HIGH), STATUS_SUCCESS);
    void *p = NULL;
    assert_int_equal(renv_lock(&e, rb, LOCK_READONLY, &p), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("offered");
    assert_int_equal(offer(&e, &a, 1, D3DKMT_OFFER_PRIORITY_LOW), STATUS_SUCCESS);

    D3DKMT_HANDLE list[2] = { a, rb };
    D3DDDI_RECLAIM_RESULT res[2] = { 9, 9 };
    D3DKMT_RECLAIMALLOCATIONS2 r2 = { .hPagingQueue = e.device, .NumAllocations = 2, .HandleList = list,
                                      .pResults = res, .PagingFenceValue = 77 };
    assert_int_equal(D3DKMTReclaimAllocations2(&r2), STATUS_SUCCESS);
    assert_int_equal(res[0], D3DDDI_RECLAIM_RESULT_OK);
    assert_int_equal(res[1], D3DDDI_RECLAIM_RESULT_OK);
    assert_int_equal(r2.PagingFenceValue, 0);
    renv_gpu_check(&e, a, rb, sz, 7);
    renv_close(&e);
}

/* The arguments: exactly one of pResources and HandleList, a count, a D3DKMT_OFFER_PRIORITY,
 * handles of the device; nothing changes when one entry is bad. By resource: every allocation
 * of each resource. */
/* rule: vidmm.d3dkmtofferallocations-exactly-one */
static void test_offer_and_reclaim_check_their_arguments(void **state)
{
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE a = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, 4096);
    D3DKMT_HANDLE bad[2] = { a, 0x7777 };
    D3DKMT_OFFERALLOCATIONS o = { .hDevice = e.device, .HandleList = &a, .NumAllocations = 1,
                                  .Priority = (D3DKMT_OFFER_PRIORITY)0 };
    assert_int_equal(D3DKMTOfferAllocations(&o), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("Priority");
    o.Priority = D3DKMT_OFFER_PRIORITY_AUTO;
    o.NumAllocations = 0;
    assert_int_equal(D3DKMTOfferAllocations(&o), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("NumAllocations");
    D3DKMT_HANDLE res = 0x1234;
    o.NumAllocations = 1;
    o.pResources = &res;
    assert_int_equal(D3DKMTOfferAllocations(&o), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("exactly one");
    o.pResources = NULL;
    o.HandleList = bad;
    o.NumAllocations = 2;
    assert_int_equal(D3DKMTOfferAllocations(&o), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("not an allocation");
    void *p = NULL; /* the refused offer changed nothing: `a` still locks */
    assert_int_equal(renv_lock(&e, a, LOCK_WRITEONLY, &p), STATUS_SUCCESS);
    renv_unlock(&e, a);
    o.hDevice = 0x4242;
    o.HandleList = &a;
    o.NumAllocations = 1;
    assert_int_equal(D3DKMTOfferAllocations(&o), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("device");
    BOOL d = TRUE;
    assert_int_equal(reclaim(&e, &a, 1, &d), STATUS_SUCCESS); /* never offered: OK */
    assert_false(d);
    D3DKMT_RECLAIMALLOCATIONS r = { .hDevice = e.device, .pResources = &res, .pDiscarded = &d, .NumAllocations = 1 };
    assert_int_equal(D3DKMTReclaimAllocations(&r), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("not a resource");
    renv_close(&e);
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "1", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "1", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "4", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_offered_allocation_is_discarded_first_under_pressure),
        cmocka_unit_test(test_offered_allocation_keeps_its_content_without_pressure),
        cmocka_unit_test(test_offer_and_reclaim_check_their_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
