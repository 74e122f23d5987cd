/* D3DKMTQueryAllocationResidency (vidmm/residency_query.c; the WDK's
 * D3DKMT_QUERYALLOCATIONRESIDENCY): each allocation's answer follows where VidMm placed its
 * current instance, a resource answers once (not resident if any allocation is not), and bad
 * input is refused with the status array untouched. Against the reference KMD and the software
 * GPU: local 1 MiB, CPU-visible 1 MiB, aperture 2 MiB. Each answer is compared with the segment
 * the kernel holds the instance in, read under the adapter lock. */
#include "real_env.h"

#include "dxgkrnl/objects/objects.h"
#include "kernel_peek.h"

#define KIB 1024u
#define SZ (256u * KIB)

enum { GPU = D3DKMT_ALLOCATIONRESIDENCYSTATUS_RESIDENTINGPUMEMORY,
       SHARED = D3DKMT_ALLOCATIONRESIDENCYSTATUS_RESIDENTINSHAREDMEMORY,
       NOT = D3DKMT_ALLOCATIONRESIDENCYSTATUS_NOTRESIDENT };

/* What the kernel's own state says the answer must be: the segment of the current instance. */
static int expected_from_kernel(D3DKMT_HANDLE h)
{
    return !kpeek_segment(h) ? NOT : kpeek_in_aperture(h) ? SHARED : GPU;
}

static NTSTATUS query_list(struct renv *e, const D3DKMT_HANDLE *h, UINT n, D3DKMT_ALLOCATIONRESIDENCYSTATUS *out)
{
    D3DKMT_QUERYALLOCATIONRESIDENCY q = { .hDevice = e->device, .phAllocationList = h, .AllocationCount = n,
                                          .pResidencyStatus = out };
    return D3DKMTQueryAllocationResidency(&q);
}

static int query_one(struct renv *e, D3DKMT_HANDLE h)
{
    D3DKMT_ALLOCATIONRESIDENCYSTATUS s = 0;
    assert_int_equal(query_list(e, &h, 1, &s), STATUS_SUCCESS);
    assert_int_equal(s, expected_from_kernel(h));
    return s;
}

static void make_resident(struct renv *e, const D3DKMT_HANDLE *h, UINT n)
{
    D3DDDI_MAKERESIDENT mr = { .hPagingQueue = e->device, .NumAllocations = n, .AllocationList = h };
    NTSTATUS st = D3DKMTMakeResident(&mr);
    assert_true(st == STATUS_SUCCESS || st == STATUS_PENDING);
}

static void evict(struct renv *e, const D3DKMT_HANDLE *h, UINT n)
{
    D3DKMT_EVICT ev = { .hDevice = e->device, .NumAllocations = n, .AllocationList = h };
    assert_int_equal(D3DKMTEvict(&ev), STATUS_SUCCESS);
}

static int query_resource(struct renv *e, D3DKMT_HANDLE r)
{
    D3DKMT_ALLOCATIONRESIDENCYSTATUS s = 0;
    D3DKMT_QUERYALLOCATIONRESIDENCY q = { .hDevice = e->device, .hResource = r, .pResidencyStatus = &s };
    assert_int_equal(D3DKMTQueryAllocationResidency(&q), STATUS_SUCCESS);
    return s;
}

/* Created (placed at first use), made resident in local video memory, evicted back to its
 * backing store; an upload allocation used by the GPU lives in the aperture (shared memory). */
/* rule: vidmm.d3dkmtqueryallocationresidency-each */
static void answers_follow_where_vidmm_placed_the_instance(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE g = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, SZ), up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, SZ);
    assert_int_equal(query_one(&e, g), NOT);
    make_resident(&e, &g, 1);
    assert_int_equal(query_one(&e, g), GPU);
    evict(&e, &g, 1); /* count 0, nothing references it: evicted at once */
    assert_int_equal(query_one(&e, g), NOT);
    void *p;
    assert_int_equal(renv_lock(&e, up, LOCK_DISCARD | LOCK_WRITEONLY, &p), STATUS_SUCCESS);
    renv_pattern(p, SZ, 3);
    renv_unlock(&e, up);
    assert_int_equal(renv_copy(&e, g, up, SZ), STATUS_SUCCESS); /* the worker places both */
    /* A write lock of the source waits for the copy that reads it: both are placed by then. */
    assert_int_equal(renv_lock(&e, up, LOCK_WRITEONLY, &p), STATUS_SUCCESS);
    renv_unlock(&e, up);
    D3DKMT_HANDLE both[2] = { g, up };
    D3DKMT_ALLOCATIONRESIDENCYSTATUS s[2] = { 0, 0 };
    assert_int_equal(query_list(&e, both, 2, s), STATUS_SUCCESS);
    assert_int_equal(s[0], GPU);
    assert_int_equal(s[0], expected_from_kernel(g));
    assert_int_equal(s[1], expected_from_kernel(up));
    assert_int_not_equal(s[1], NOT);
    renv_close(&e);
}

/* The WDK: "If any allocation that belongs to the resource is not resident, the entire resource
 * is considered not resident." */
/* rule: vidmm.d3dkmtqueryallocationresidency-each */
static void a_resource_is_resident_only_when_every_allocation_is(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE al[2];
    D3DKMT_HANDLE r = renv_resource(&e, SWGPU_ALLOC_GPU_ONLY, SZ, al);
    assert_int_equal(query_resource(&e, r), NOT);
    make_resident(&e, &al[0], 1);
    assert_int_equal(query_one(&e, al[0]), GPU);
    assert_int_equal(query_one(&e, al[1]), NOT);
    assert_int_equal(query_resource(&e, r), NOT);
    make_resident(&e, &al[1], 1);
    assert_int_equal(query_resource(&e, r), GPU);
    evict(&e, &al[0], 1);
    assert_int_equal(query_resource(&e, r), NOT);
    renv_close(&e);
}

static NTSTATUS query_raw(D3DKMT_HANDLE device, D3DKMT_HANDLE res, const D3DKMT_HANDLE *h, UINT n,
                          D3DKMT_ALLOCATIONRESIDENCYSTATUS *out)
{
    D3DKMT_QUERYALLOCATIONRESIDENCY q = { .hDevice = device, .hResource = res, .phAllocationList = h,
                                          .AllocationCount = n, .pResidencyStatus = out };
    return D3DKMTQueryAllocationResidency(&q);
}

/* STATUS_INVALID_PARAMETER and a line for each; the status array keeps what it held. A lost
 * device answers STATUS_DEVICE_REMOVED. */
/* rule: vidmm.d3dkmtqueryallocationresidency-each (mutation-checked: the best answer for a resource, statuses written before every handle is checked, an aperture counted as GPU memory) */
static void bad_queries_are_refused_and_write_nothing(void **state)
{
    (void)state;
    struct renv e, f;
    renv_open(&e);
    renv_open(&f);
    D3DKMT_HANDLE al[2];
    D3DKMT_HANDLE r = renv_resource(&e, SWGPU_ALLOC_GPU_ONLY, SZ, al);
    D3DKMT_HANDLE other = renv_alloc(&f, SWGPU_ALLOC_GPU_ONLY, SZ);
    D3DKMT_ALLOCATIONRESIDENCYSTATUS s[2] = { 77, 77 };
    RENV_REFUSED(D3DKMTQueryAllocationResidency(NULL), STATUS_INVALID_PARAMETER,
                 "D3DKMTQueryAllocationResidency: NULL arguments");
    RENV_REFUSED(query_raw(e.device, 0, al, 2, NULL), STATUS_INVALID_PARAMETER, "NULL pResidencyStatus");
    /* both */
    RENV_REFUSED(query_raw(e.device, r, al, 2, s), STATUS_INVALID_PARAMETER,
                 "not exactly one of hResource");
    /* neither */
    RENV_REFUSED(query_raw(e.device, 0, NULL, 0, s), STATUS_INVALID_PARAMETER,
                 "not exactly one of hResource");
    /* a list of none */
    RENV_REFUSED(query_raw(e.device, 0, al, 0, s), STATUS_INVALID_PARAMETER,
                 "not exactly one of hResource");
    RENV_REFUSED(query_raw(0x1234, 0, al, 2, s), STATUS_INVALID_PARAMETER, "invalid device handle");
    D3DKMT_HANDLE mixed[2] = { al[0], other };                                       /* f's allocation */
    RENV_REFUSED(query_raw(e.device, 0, mixed, 2, s), STATUS_INVALID_PARAMETER,
                 "entry 1: invalid allocation handle");
    /* e's resource */
    RENV_REFUSED(query_raw(f.device, r, NULL, 0, s), STATUS_INVALID_PARAMETER,
                 "invalid resource handle");
    /* not a resource */
    RENV_REFUSED(query_raw(e.device, al[0], NULL, 0, s), STATUS_INVALID_PARAMETER,
                 "invalid resource handle");
    assert_int_equal(s[0], 77);
    assert_int_equal(s[1], 77);
    /* A lost device (a MustSucceed MakeResident that cannot fit, docs/semantics.md §9.2). */
    D3DKMT_HANDLE big[9];
    for (int i = 0; i < 9; i++)
        big[i] = renv_alloc(&f, SWGPU_ALLOC_GPU_ONLY, SZ);
    D3DDDI_MAKERESIDENT mr = { .hPagingQueue = f.device, .NumAllocations = 9, .AllocationList = big };
    mr.Flags.Value = 0x3; /* CantTrimFurther | MustSucceed: 2.25 MiB where local and visible hold 2 */
    assert_int_equal(D3DKMTMakeResident(&mr), STATUS_NO_MEMORY);
    RENV_REFUSED(query_raw(f.device, 0, big, 1, s), STATUS_DEVICE_REMOVED, "is lost");
    assert_int_equal(s[0], 77);
    renv_close(&f);
    renv_close(&e);
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "1", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "1", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "2", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(answers_follow_where_vidmm_placed_the_instance),
        cmocka_unit_test(a_resource_is_resident_only_when_every_allocation_is),
        cmocka_unit_test(bad_queries_are_refused_and_write_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
