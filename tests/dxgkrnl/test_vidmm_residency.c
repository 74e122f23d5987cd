/* D3DKMTMakeResident / D3DKMTEvict (reference counted, atomic), D3DKMTQueryVideoMemoryInfo and
 * the system-memory budget of backing stores (docs/semantics.md §9.2, §9.3; vidmm/makeresident.c,
 * vidmm/budget.c) against the reference KMD and the software GPU. Local 1 MiB, CPU-visible
 * 1 MiB, aperture 4 MiB, system-memory budget 24 MiB. */
/* rule: vidmm.allocations-device-made-resident-evicted */
#include "real_env.h"

#include <unistd.h>

#include "dxgkrnl/objects/objects.h"
#include "kernel_peek.h"

#define KIB 1024u
#define MIB (1024u * 1024u)


static NTSTATUS make_resident(struct renv *e, const D3DKMT_HANDLE *h, UINT n, D3DDDI_MAKERESIDENT *out)
{
    *out = (D3DDDI_MAKERESIDENT){ .hPagingQueue = e->device, .NumAllocations = n, .AllocationList = h };
    return D3DKMTMakeResident(out);
}

static NTSTATUS evict(struct renv *e, const D3DKMT_HANDLE *h, UINT n, UINT flags)
{
    D3DKMT_EVICT ev = { .hDevice = e->device, .NumAllocations = n, .AllocationList = h };
    ev.Flags.Value = flags;
    return D3DKMTEvict(&ev);
}

static D3DKMT_QUERYVIDEOMEMORYINFO query(struct renv *e, D3DKMT_MEMORY_SEGMENT_GROUP g)
{
    D3DKMT_QUERYVIDEOMEMORYINFO q = { .hAdapter = e->adapter, .MemorySegmentGroup = g };
    assert_int_equal(D3DKMTQueryVideoMemoryInfo(&q), STATUS_SUCCESS);
    return q;
}

/* rule: vidmm.d3dkmtqueryvideomemoryinfo-group-budget */
static void test_query_video_memory_info_matches_what_the_segments_hold(void **state)
{
    struct renv e;
    renv_open(&e);
    D3DKMT_QUERYVIDEOMEMORYINFO l0 = query(&e, D3DKMT_MEMORY_SEGMENT_GROUP_LOCAL);
    D3DKMT_QUERYVIDEOMEMORYINFO n0 = query(&e, D3DKMT_MEMORY_SEGMENT_GROUP_NON_LOCAL);
    assert_int_equal(l0.Budget, 2 * MIB); /* local + CPU-visible local */
    assert_int_equal(n0.Budget, 4 * MIB); /* the aperture */
    assert_int_equal(l0.CurrentReservation, 0);
    D3DKMT_HANDLE g = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, 256 * KIB);
    D3DKMT_HANDLE r = renv_alloc(&e, SWGPU_ALLOC_READBACK, 512 * KIB);
    D3DDDI_MAKERESIDENT mr;
    D3DKMT_HANDLE both[2] = { g, r };
    NTSTATUS st = make_resident(&e, both, 2, &mr);
    assert_true(st == STATUS_SUCCESS || st == STATUS_PENDING);
    assert_int_equal(mr.NumAllocations, 2);
    assert_int_equal(query(&e, D3DKMT_MEMORY_SEGMENT_GROUP_LOCAL).CurrentUsage, l0.CurrentUsage + 256 * KIB);
    assert_int_equal(query(&e, D3DKMT_MEMORY_SEGMENT_GROUP_NON_LOCAL).CurrentUsage, n0.CurrentUsage + 512 * KIB);
    assert_int_equal(evict(&e, both, 2, 0), STATUS_SUCCESS); /* idle: evicted at once */
    assert_int_equal(query(&e, D3DKMT_MEMORY_SEGMENT_GROUP_LOCAL).CurrentUsage, l0.CurrentUsage);
    assert_int_equal(query(&e, D3DKMT_MEMORY_SEGMENT_GROUP_NON_LOCAL).CurrentUsage, n0.CurrentUsage);
    D3DKMT_QUERYVIDEOMEMORYINFO bad = { .hAdapter = e.adapter, .MemorySegmentGroup = 2 };
    assert_int_equal(D3DKMTQueryVideoMemoryInfo(&bad), STATUS_INVALID_PARAMETER);
    bad = (D3DKMT_QUERYVIDEOMEMORYINFO){ .hAdapter = 0x777 };
    assert_int_equal(D3DKMTQueryVideoMemoryInfo(&bad), STATUS_INVALID_PARAMETER);
    renv_close(&e);
}

/* rule: vidmm.d3dkmtmakeresident-d3dkmtevict-reference */
static void test_make_resident_is_reference_counted_and_pins(void **state)
{
    struct renv e;
    renv_open(&e);
    const UINT32 sz = 256 * KIB;
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, sz), rb = renv_alloc(&e, SWGPU_ALLOC_READBACK, sz);
    D3DKMT_HANDLE pinned = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, sz);
    D3DDDI_MAKERESIDENT mr;
    NTSTATUS st = make_resident(&e, &pinned, 1, &mr);
    assert_true(st == STATUS_SUCCESS || st == STATUS_PENDING);
    st = make_resident(&e, &pinned, 1, &mr);
    assert_true(st == STATUS_SUCCESS || st == STATUS_PENDING); /* PENDING while its FILL runs */
    assert_int_equal(evict(&e, &pinned, 1, 0), STATUS_SUCCESS); /* one reference left */
    /* 3 MiB through 2 MiB of memory segments: everything but the pinned one cycles. */
    D3DKMT_HANDLE a[12];
    for (int i = 0; i < 12; i++) {
        a[i] = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, sz);
        void *p;
        assert_int_equal(renv_lock(&e, up, LOCK_DISCARD | LOCK_WRITEONLY, &p), STATUS_SUCCESS);
        renv_pattern(p, sz, i);
        renv_unlock(&e, up);
        assert_int_equal(renv_copy(&e, a[i], up, sz), STATUS_SUCCESS);
        assert_int_not_equal(kpeek_segment(pinned), 0);
    }
    assert_int_equal(renv_copy(&e, rb, a[0], sz), STATUS_SUCCESS);
    void *p;
    assert_int_equal(renv_lock(&e, rb, LOCK_READONLY, &p), STATUS_SUCCESS);
    renv_unlock(&e, rb);
    assert_int_not_equal(kpeek_segment(pinned), 0);
    assert_int_equal(evict(&e, &pinned, 1, 0), STATUS_SUCCESS); /* the last reference: evicted now */
    assert_int_equal(kpeek_segment(pinned), 0);
    assert_int_equal(evict(&e, &pinned, 1, 0), STATUS_INVALID_PARAMETER); /* no reference left */
    /* EvictOnlyIfNecessary keeps it resident until pressure. */
    st = make_resident(&e, &pinned, 1, &mr);
    assert_true(st == STATUS_SUCCESS || st == STATUS_PENDING);
    assert_int_equal(evict(&e, &pinned, 1, 0x1), STATUS_SUCCESS);
    assert_int_not_equal(kpeek_segment(pinned), 0);
    renv_close(&e);
}

/* rule: vidmm.makeresident-atomic-failure-nothing */
static void test_make_resident_is_atomic_and_reports_bytes_to_trim(void **state)
{
    struct renv e;
    renv_open(&e);
    const UINT32 sz = 256 * KIB;
    D3DKMT_HANDLE a[7], b[2];
    for (int i = 0; i < 7; i++)
        a[i] = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, sz);
    D3DDDI_MAKERESIDENT mr;
    NTSTATUS st = make_resident(&e, a, 7, &mr); /* 1.75 of 2 MiB pinned */
    assert_true(st == STATUS_SUCCESS || st == STATUS_PENDING);
    for (int i = 0; i < 2; i++)
        b[i] = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, sz);
    assert_int_equal(make_resident(&e, b, 2, &mr), STATUS_NO_MEMORY);
    assert_int_equal(mr.NumAllocations, 0);
    assert_int_equal(mr.NumBytesToTrim, sz); /* the second one did not fit */
    /* Nothing was counted: neither can be evicted by reference. */
    assert_int_equal(evict(&e, &b[0], 1, 0), STATUS_INVALID_PARAMETER);
    assert_int_equal(evict(&e, &b[1], 1, 0), STATUS_INVALID_PARAMETER);
    /* After the app trims (Evict), the same call succeeds. */
    assert_int_equal(evict(&e, a, 2, 0), STATUS_SUCCESS);
    st = make_resident(&e, b, 2, &mr);
    assert_true(st == STATUS_SUCCESS || st == STATUS_PENDING);
    assert_int_equal(mr.NumAllocations, 2);
    /* Bad input: flags, handles, a foreign paging queue. */
    mr = (D3DDDI_MAKERESIDENT){ .hPagingQueue = e.device, .NumAllocations = 1, .AllocationList = b };
    mr.Flags.MustSucceed = 1;
    assert_int_equal(D3DKMTMakeResident(&mr), STATUS_INVALID_PARAMETER);
    D3DKMT_HANDLE junk = 0x4242;
    mr = (D3DDDI_MAKERESIDENT){ .hPagingQueue = e.device, .NumAllocations = 1, .AllocationList = &junk };
    assert_int_equal(D3DKMTMakeResident(&mr), STATUS_INVALID_PARAMETER);
    mr = (D3DDDI_MAKERESIDENT){ .hPagingQueue = 0x999, .NumAllocations = 1, .AllocationList = b };
    assert_int_equal(D3DKMTMakeResident(&mr), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTMakeResident(NULL), STATUS_INVALID_PARAMETER);
    renv_close(&e);
}

/* rule: vidmm.system-memory-budget-past */
/* rule: vidmm.backing-budget-process-wide-charged-creation (allocations never placed fail creation past the budget) */
static void test_system_memory_budget_exceeded_fails_creation_only(void **state)
{
    struct renv e;
    renv_open(&e);
    const UINT32 sz = 256 * KIB;
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, sz), rb = renv_alloc(&e, SWGPU_ALLOC_READBACK, sz);
    D3DKMT_HANDLE g = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, sz);
    void *p;
    assert_int_equal(renv_lock(&e, up, 0, &p), STATUS_SUCCESS);
    renv_pattern(p, sz, 42);
    renv_unlock(&e, up);
    D3DKMT_HANDLE big[64];
    int n = 0;
    NTSTATUS st = STATUS_SUCCESS;
    while (n < 64 && (st = renv_try_alloc(&e, SWGPU_ALLOC_GPU_ONLY, 2 * MIB, &big[n])) == STATUS_SUCCESS)
        n++;
    assert_int_equal(st, STATUS_NO_MEMORY); /* 24 MiB of backing store at most */
    assert_true(n >= 8 && n < 12);
    /* Every other object keeps working: a GPU copy through g, checked. */
    assert_int_equal(renv_copy(&e, g, up, sz), STATUS_SUCCESS);
    assert_int_equal(renv_copy(&e, rb, g, sz), STATUS_SUCCESS);
    assert_int_equal(renv_lock(&e, rb, LOCK_READONLY, &p), STATUS_SUCCESS);
    UINT8 *want = malloc(sz);
    renv_pattern(want, sz, 42);
    assert_memory_equal(p, want, sz);
    free(want);
    renv_unlock(&e, rb);
    /* Giving memory back makes room again (destruction is deferred until idle: wait for it). */
    renv_free(&e, big[--n]);
    D3DKMT_HANDLE again = 0;
    for (int i = 0; i < 2000 && renv_try_alloc(&e, SWGPU_ALLOC_GPU_ONLY, 2 * MIB, &again) != STATUS_SUCCESS; i++)
        usleep(1000);
    assert_int_not_equal(again, 0);
    renv_close(&e);
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "1", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "1", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "4", 1);
    setenv("WDDM_SYSMEM_BUDGET_MB", "24", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_query_video_memory_info_matches_what_the_segments_hold),
        cmocka_unit_test(test_make_resident_is_reference_counted_and_pins),
        cmocka_unit_test(test_make_resident_is_atomic_and_reports_bytes_to_trim),
        cmocka_unit_test(test_system_memory_budget_exceeded_fails_creation_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
