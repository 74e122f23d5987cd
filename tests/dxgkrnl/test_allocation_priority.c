/* D3DKMTGetAllocationPriority and D3DKMTSetAllocationPriority (vidmm/priority.c; docs/semantics.md
 * §9.4, the WDK's D3DKMT_GETALLOCATIONPRIORITY): what Set gives, Get reads back, per listed
 * allocation or for a resource; bad input is refused with nothing written. Against the reference
 * KMD and the software GPU. The eviction order the priorities make is vidmm.test_vidmm_evict's. */
#include "real_env.h"

#define SZ (64u * 1024u)

static NTSTATUS set_list(struct renv *e, const D3DKMT_HANDLE *h, UINT n, const UINT *prio)
{
    D3DKMT_SETALLOCATIONPRIORITY s = { .hDevice = e->device, .phAllocationList = h, .AllocationCount = n,
                                       .pPriorities = prio };
    return D3DKMTSetAllocationPriority(&s);
}

static NTSTATUS get_raw(D3DKMT_HANDLE device, D3DKMT_HANDLE res, const D3DKMT_HANDLE *h, UINT n, UINT *out)
{
    D3DKMT_GETALLOCATIONPRIORITY g = { .hDevice = device, .hResource = res, .phAllocationList = h,
                                       .AllocationCount = n, .pPriorities = out };
    return D3DKMTGetAllocationPriority(&g);
}

/* Each listed allocation reads back what Set gave it; a resource's one priority applies to each of
 * its allocations and reads back through the resource. */
/* rule: vidmm.d3dkmtgetallocationpriority-one-priority */
static void get_reads_back_what_set_gave(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE h[2] = { renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, SZ), renv_alloc(&e, SWGPU_ALLOC_UPLOAD, SZ) };
    const UINT want[2] = { D3DDDI_ALLOCATIONPRIORITY_HIGH, D3DDDI_ALLOCATIONPRIORITY_LOW };
    assert_int_equal(set_list(&e, h, 2, want), STATUS_SUCCESS);
    UINT got[2] = { 0, 0 };
    assert_int_equal(get_raw(e.device, 0, h, 2, got), STATUS_SUCCESS);
    assert_int_equal(got[0], D3DDDI_ALLOCATIONPRIORITY_HIGH);
    assert_int_equal(got[1], D3DDDI_ALLOCATIONPRIORITY_LOW);
    const UINT again[2] = { D3DDDI_ALLOCATIONPRIORITY_MAXIMUM, D3DDDI_ALLOCATIONPRIORITY_MINIMUM };
    assert_int_equal(set_list(&e, h, 2, again), STATUS_SUCCESS);
    assert_int_equal(get_raw(e.device, 0, h, 2, got), STATUS_SUCCESS);
    assert_int_equal(got[0], D3DDDI_ALLOCATIONPRIORITY_MAXIMUM);
    assert_int_equal(got[1], D3DDDI_ALLOCATIONPRIORITY_MINIMUM);

    D3DKMT_HANDLE al[2];
    D3DKMT_HANDLE r = renv_resource(&e, SWGPU_ALLOC_GPU_ONLY, SZ, al);
    const UINT one = D3DDDI_ALLOCATIONPRIORITY_HIGH + 7;
    D3DKMT_SETALLOCATIONPRIORITY s = { .hDevice = e.device, .hResource = r, .pPriorities = &one };
    assert_int_equal(D3DKMTSetAllocationPriority(&s), STATUS_SUCCESS);
    UINT res = 0;
    assert_int_equal(get_raw(e.device, r, NULL, 0, &res), STATUS_SUCCESS);
    assert_int_equal(res, one);
    assert_int_equal(get_raw(e.device, 0, al, 2, got), STATUS_SUCCESS);
    assert_int_equal(got[0], one);
    assert_int_equal(got[1], one);
    /* Allocations of one resource given two priorities: the resource answers its first's. */
    const UINT two[2] = { D3DDDI_ALLOCATIONPRIORITY_LOW, D3DDDI_ALLOCATIONPRIORITY_MAXIMUM };
    assert_int_equal(set_list(&e, al, 2, two), STATUS_SUCCESS);
    assert_int_equal(get_raw(e.device, r, NULL, 0, &res), STATUS_SUCCESS);
    assert_int_equal(res, D3DDDI_ALLOCATIONPRIORITY_LOW);
    renv_close(&e);
}

/* STATUS_INVALID_PARAMETER and a line for each; the output keeps what it held. */
/* rule: vidmm.d3dkmtgetallocationpriority-one-priority (mutation-checked: every entry answering the first's; a resource answering another allocation's) */
static void bad_gets_are_refused_and_write_nothing(void **state)
{
    (void)state;
    struct renv e, f;
    renv_open(&e);
    renv_open(&f);
    D3DKMT_HANDLE al[2];
    D3DKMT_HANDLE r = renv_resource(&e, SWGPU_ALLOC_GPU_ONLY, SZ, al);
    D3DKMT_HANDLE other = renv_alloc(&f, SWGPU_ALLOC_GPU_ONLY, SZ);
    D3DKMT_HANDLE mixed[2] = { al[0], other };
    UINT out[2] = { 77, 77 };
    RENV_REFUSED(D3DKMTGetAllocationPriority(NULL), STATUS_INVALID_PARAMETER,
                 "D3DKMTGetAllocationPriority: NULL arguments");
    RENV_REFUSED(get_raw(e.device, 0, al, 2, NULL), STATUS_INVALID_PARAMETER, "NULL pPriorities");
    /* both */
    RENV_REFUSED(get_raw(e.device, r, al, 2, out), STATUS_INVALID_PARAMETER,
                 "not exactly one of hResource");
    /* neither */
    RENV_REFUSED(get_raw(e.device, 0, NULL, 0, out), STATUS_INVALID_PARAMETER,
                 "not exactly one of hResource");
    RENV_REFUSED(get_raw(0x1234, 0, al, 2, out), STATUS_INVALID_PARAMETER, "invalid device handle");
    /* f's allocation */
    RENV_REFUSED(get_raw(e.device, 0, mixed, 2, out), STATUS_INVALID_PARAMETER,
                 "entry 1: invalid allocation handle");
    /* e's resource */
    RENV_REFUSED(get_raw(f.device, r, NULL, 0, out), STATUS_INVALID_PARAMETER,
                 "invalid resource handle");
    assert_int_equal(out[0], 77);
    assert_int_equal(out[1], 77);
    /* Set still refuses a priority of 0, before anything changes. */
    UINT before[2];
    assert_int_equal(get_raw(e.device, 0, al, 2, before), STATUS_SUCCESS);
    const UINT zero[2] = { before[0] + 1, 0 };
    RENV_REFUSED(set_list(&e, al, 2, zero), STATUS_INVALID_PARAMETER, "priority 1 is 0");
    assert_int_equal(get_raw(e.device, 0, al, 2, out), STATUS_SUCCESS);
    assert_int_equal(out[0], before[0]);
    assert_int_equal(out[1], before[1]);
    renv_close(&f);
    renv_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(get_reads_back_what_set_gave),
        cmocka_unit_test(bad_gets_are_refused_and_write_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
