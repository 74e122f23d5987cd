/* DxgkCbCreateContextAllocation / DxgkCbDestroyContextAllocation (seed 000, docs/semantics.md §1.2
 * invariants 4-7): the two flavours, every field recorded, the refusals, implicit destruction. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "dxgkrnl/objects/objects.h"
#include "mock_kmd.h"

#define H(x) ((HANDLE)(uintptr_t)(x))

static DXGKARGCB_CREATECONTEXTALLOCATION gpu_args(const struct mock_env *e)
{
    DXGKARGCB_CREATECONTEXTALLOCATION p = { .hAdapter = mock_started_cb.DeviceHandle, .hDevice = H(e->device),
                                            .hContext = H(e->context), .hDriverAllocation = H(0x1234),
                                            .Size = 8192, .Alignment = 4096,
                                            .SupportedSegmentSet = 0x4, /* the aperture segment */
                                            .EvictionSegmentSet = 0x4 };
    p.PreferredSegment.SegmentId0 = 3;
    p.HintedBank.Bank0 = 1;
    p.Flags.CpuVisible = 1;
    p.Flags.Protected = 1;
    return p;
}

static struct dxgk_context_allocation *lookup(HANDLE h)
{
    return (struct dxgk_context_allocation *)dxgk_handle_get((D3DKMT_HANDLE)(uintptr_t)h,
                                                             DXGK_TYPE_CONTEXT_ALLOCATION);
}

/* rule: runtime.dxgkcbcreatecontextallocation */
static void test_gpu_context_allocation_records_every_field_with_high_priority(void **state)
{
    (void)state;
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    assert_non_null(mock_started_cb.DxgkCbCreateContextAllocation);
    DXGKARGCB_CREATECONTEXTALLOCATION p = gpu_args(&e);
    assert_int_equal(mock_started_cb.DxgkCbCreateContextAllocation(&p), STATUS_SUCCESS);
    assert_non_null(p.hAllocation);
    struct dxgk_context_allocation *ca = lookup(p.hAllocation);
    assert_non_null(ca);
    assert_int_equal(ca->priority, D3DDDI_ALLOCATIONPRIORITY_HIGH);
    assert_non_null(ca->context);
    assert_int_equal(ca->context->handle, e.context);
    assert_int_equal(ca->device->handle, e.device);
    assert_ptr_equal(ca->args.hDriverAllocation, H(0x1234));
    assert_int_equal(ca->args.Size, 8192);
    assert_int_equal(ca->args.Alignment, 4096);
    assert_int_equal(ca->args.SupportedSegmentSet, 0x4);
    assert_int_equal(ca->args.EvictionSegmentSet, 0x4);
    assert_int_equal(ca->args.PreferredSegment.SegmentId0, 3);
    assert_int_equal(ca->args.HintedBank.Bank0, 1);
    assert_int_equal(ca->args.Flags.CpuVisible, 1);
    assert_int_equal(ca->args.Flags.Protected, 1);
    dxgk_object_put(&ca->obj);
    /* Not a D3DKMT allocation handle: the application cannot use it. */
    assert_null(dxgk_handle_get((D3DKMT_HANDLE)(uintptr_t)p.hAllocation, DXGK_TYPE_ALLOCATION));
    assert_int_equal(mock_started_cb.DxgkCbDestroyContextAllocation(mock_started_cb.DeviceHandle, p.hAllocation),
                     STATUS_SUCCESS);
    assert_null(lookup(p.hAllocation));
    mock_close(&e);
}

/* rule: runtime.dxgkcbcreatecontextallocation */
static void test_device_context_allocation_needs_shared_flag_and_null_context(void **state)
{
    (void)state;
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    DXGKARGCB_CREATECONTEXTALLOCATION p = gpu_args(&e);
    p.ContextAllocationFlags.SharedAcrossContexts = 1;
    /* A context with SharedAcrossContexts: refused, nothing created. */
    assert_int_equal(mock_started_cb.DxgkCbCreateContextAllocation(&p), STATUS_INVALID_PARAMETER);
    assert_null(p.hAllocation);
    p.hContext = NULL;
    assert_int_equal(mock_started_cb.DxgkCbCreateContextAllocation(&p), STATUS_SUCCESS);
    struct dxgk_context_allocation *ca = lookup(p.hAllocation);
    assert_non_null(ca);
    assert_null(ca->context);
    assert_int_equal(ca->device->handle, e.device);
    assert_int_equal(ca->priority, D3DDDI_ALLOCATIONPRIORITY_HIGH);
    dxgk_object_put(&ca->obj);
    assert_int_equal(mock_started_cb.DxgkCbDestroyContextAllocation(mock_started_cb.DeviceHandle, p.hAllocation),
                     STATUS_SUCCESS);
    mock_close(&e);
}

/* Each case changes one field of a valid request; each is refused and creates nothing. */
/* rule: kernel.hintedbank-naming-bank-segmentid0-not (cases 19, 20) */
/* rule: vidmm.refused-status-invalid-parameter-one */
/* rule: sched.context-allocation-system-owners-refused (cases 0, 2, 3: the system owners; case 8: MapGpuVirtualAddress) */
static void test_system_owners_and_bad_fields_are_invalid_parameter(void **state)
{
    (void)state;
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_CREATEDEVICE cd2 = { .hAdapter = e.adapter };
    assert_int_equal(D3DKMTCreateDevice(&cd2), STATUS_SUCCESS);
    D3DKMT_CREATECONTEXT cc2 = { .hDevice = cd2.hDevice };
    assert_int_equal(D3DKMTCreateContext(&cc2), STATUS_SUCCESS);
    HANDLE sys = mock_started_cb.DeviceHandle; /* the system device and context's kernel handle */
    for (int k = 0; k < 21; k++) {
        DXGKARGCB_CREATECONTEXTALLOCATION p = gpu_args(&e);
        switch (k) {
        case 0: p.hContext = sys; break;                               /* system context */
        case 1: p.hContext = NULL; break;                              /* GPU flavour without a context */
        case 2: p.hDevice = sys; break;                                /* system device */
        case 3: p.hDevice = sys; p.hContext = NULL;
                p.ContextAllocationFlags.SharedAcrossContexts = 1; break;
        case 4: p.hDevice = NULL; p.hContext = NULL;
                p.ContextAllocationFlags.SharedAcrossContexts = 1; break;
        case 5: p.hContext = H(cc2.hContext); break;                   /* another device's context */
        case 6: p.hContext = H(e.device); break;                       /* wrong type */
        case 7: p.ContextAllocationFlags.Value = 1u << 5; break;       /* reserved bit */
        case 8: p.ContextAllocationFlags.MapGpuVirtualAddress = 1; break;
        case 9: p.Size = 0; break;
        case 10: p.Alignment = 3000; break;
        case 11: p.SupportedSegmentSet = 0; break;
        case 12: p.SupportedSegmentSet = 0x8; break;                   /* segment 4 does not exist */
        case 13: p.EvictionSegmentSet = 0x1; break;                    /* not an aperture segment */
        case 14: p.PreferredSegment.SegmentId0 = 1; break;             /* not in SupportedSegmentSet */
        case 15: p.PhysicalAdapterIndex = 1; break;
        case 16: p.hAdapter = H(0x42); break;                          /* not this adapter */
        case 17: p.hDevice = H(0x7fffffff); break;                     /* forged device */
        case 18: p.hContext = H(e.context + 1); break;                 /* forged context */
        case 19: p.HintedBank.Bank1 = 3; break;                        /* segment 3 has 2 banks */
        case 20: p.PreferredSegment.SegmentId0 = 0; break;             /* HintedBank of no segment */
        }
        assert_int_equal(mock_started_cb.DxgkCbCreateContextAllocation(&p), STATUS_INVALID_PARAMETER);
        assert_null(p.hAllocation);
    }
    assert_int_equal(mock_started_cb.DxgkCbCreateContextAllocation(NULL), STATUS_INVALID_PARAMETER);
    /* The same request on the other device's own context is fine. */
    DXGKARGCB_CREATECONTEXTALLOCATION ok = gpu_args(&e);
    ok.hDevice = H(cd2.hDevice);
    ok.hContext = H(cc2.hContext);
    assert_int_equal(mock_started_cb.DxgkCbCreateContextAllocation(&ok), STATUS_SUCCESS);
    /* Destroy with a bad handle, the wrong adapter or a D3DKMT handle of another type. */
    assert_int_equal(mock_started_cb.DxgkCbDestroyContextAllocation(sys, NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(mock_started_cb.DxgkCbDestroyContextAllocation(H(0x42), ok.hAllocation),
                     STATUS_INVALID_PARAMETER);
    assert_int_equal(mock_started_cb.DxgkCbDestroyContextAllocation(sys, H(e.context)), STATUS_INVALID_PARAMETER);
    assert_int_equal(mock_started_cb.DxgkCbDestroyContextAllocation(sys, ok.hAllocation), STATUS_SUCCESS);
    assert_int_equal(mock_started_cb.DxgkCbDestroyContextAllocation(sys, ok.hAllocation), STATUS_INVALID_PARAMETER);
    D3DKMT_DESTROYDEVICE dd2 = { .hDevice = cd2.hDevice };
    assert_int_equal(D3DKMTDestroyDevice(&dd2), STATUS_SUCCESS);
    mock_close(&e);
}

/* rule: vidmm.context-allocations-kmd-did-not-destroy (ASan: nothing leaks) */
static void test_outstanding_context_allocations_go_with_their_context_and_device(void **state)
{
    (void)state;
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    HANDLE sys = mock_started_cb.DeviceHandle;
    DXGKARGCB_CREATECONTEXTALLOCATION g1 = gpu_args(&e), g2 = gpu_args(&e), dv = gpu_args(&e);
    dv.ContextAllocationFlags.SharedAcrossContexts = 1;
    dv.hContext = NULL;
    assert_int_equal(mock_started_cb.DxgkCbCreateContextAllocation(&g1), STATUS_SUCCESS);
    assert_int_equal(mock_started_cb.DxgkCbCreateContextAllocation(&g2), STATUS_SUCCESS);
    assert_int_equal(mock_started_cb.DxgkCbCreateContextAllocation(&dv), STATUS_SUCCESS);
    /* One destroyed explicitly before its context. */
    assert_int_equal(mock_started_cb.DxgkCbDestroyContextAllocation(sys, g2.hAllocation), STATUS_SUCCESS);
    D3DKMT_DESTROYCONTEXT dc = { .hContext = e.context };
    assert_int_equal(D3DKMTDestroyContext(&dc), STATUS_SUCCESS);
    /* The context took g1 with it; the device allocation stays until its device goes. */
    assert_int_equal(mock_started_cb.DxgkCbDestroyContextAllocation(sys, g1.hAllocation), STATUS_INVALID_PARAMETER);
    struct dxgk_context_allocation *ca = lookup(dv.hAllocation);
    assert_non_null(ca);
    dxgk_object_put(&ca->obj);
    /* A GPU context allocation for a destroyed context is refused. */
    DXGKARGCB_CREATECONTEXTALLOCATION late = gpu_args(&e);
    assert_int_equal(mock_started_cb.DxgkCbCreateContextAllocation(&late), STATUS_INVALID_PARAMETER);
    D3DKMT_DESTROYDEVICE dd = { .hDevice = e.device };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    assert_int_equal(mock_started_cb.DxgkCbDestroyContextAllocation(sys, dv.hAllocation), STATUS_INVALID_PARAMETER);
    e.context = 0;
    e.device = 0;
    mock_close(&e); /* ASan: nothing leaked */
}

static int reset(void **state)
{
    (void)state;
    mock_reset();
    return 0;
}

int main(void)
{
    /* The aperture (segment 3, gpu_args' preferred one) has two banks, so HintedBank is valid. */
    atomic_store(&mock.aperture_banks, 2);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_gpu_context_allocation_records_every_field_with_high_priority, reset),
        cmocka_unit_test_setup(test_device_context_allocation_needs_shared_flag_and_null_context, reset),
        cmocka_unit_test_setup(test_system_owners_and_bad_fields_are_invalid_parameter, reset),
        cmocka_unit_test_setup(test_outstanding_context_allocations_go_with_their_context_and_device, reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
