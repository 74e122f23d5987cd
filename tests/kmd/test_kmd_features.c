/* The reference KMD and seed 002 from the KMD's side: it asks DxgkCbQueryFeatureSupport for
 * DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD at DxgkDdiStartDevice and remembers the answer;
 * it sets DXGK_ALLOCATIONINFO.Flags2.ShareBackingStoreWithKmd (aperture only, no renaming)
 * only when the feature is enabled and the UMD's private data asks for it; it keeps the
 * pointer DxgkDdiSetAllocationBackingStore gives, and its escape reads and writes through it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "kmd/kmd_test_util.h"

static struct {
    int calls;
    DXGKARGCB_QUERYFEATURESUPPORT last;
    BOOLEAN answer;
} q;

static NTSTATUS APIENTRY fake_query(DXGKARGCB_QUERYFEATURESUPPORT *a)
{
    q.calls++;
    q.last = *a;
    a->Enabled = q.answer;
    return STATUS_SUCCESS;
}

static int start_with(BOOLEAN answer, DXGKCB_QUERYFEATURESUPPORT cb)
{
    memset(&q, 0, sizeof q);
    q.answer = answer;
    fk_query_feature_support = cb;
    return NT_SUCCESS(fk_start()) ? 0 : -1;
}

static int start_enabled(void **state) { (void)state; return start_with(TRUE, fake_query); }
static int start_disabled(void **state) { (void)state; return start_with(FALSE, fake_query); }
static int start_without_callback(void **state) { (void)state; return start_with(TRUE, NULL); }
static int stop(void **state)
{
    (void)state;
    fk_stop();
    fk_query_feature_support = NULL;
    return 0;
}

static NTSTATUS create_shared(UINT32 kind, DXGK_ALLOCATIONINFO *info)
{
    struct swgpu_alloc_private p = fk_private(kind, 8192);
    p.flags = SWGPU_ALLOC_FLAG_SHARE_BACKING_STORE_WITH_KMD;
    memset(info, 0, sizeof *info);
    info->pPrivateDriverData = &p;
    info->PrivateDriverDataSize = sizeof p;
    DXGKARG_CREATEALLOCATION ca;
    memset(&ca, 0, sizeof ca);
    ca.NumAllocations = 1;
    ca.pAllocationInfo = info;
    return fk.ddi.DxgkDdiCreateAllocation(fk.adapter, &ca);
}

/* rule: kmd.reference-kmd-queries-share-backing */
/* rule: kmd.umd-asks-sharing-private-data-kmd */
static void kmd_queries_share_backing_store_at_start_and_remembers_the_answer(void **state)
{
    (void)state;
    assert_int_equal(q.calls, 1);
    assert_int_equal(q.last.FeatureId, DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD);
    assert_int_equal(q.last.DriverSupportState, DXGK_FEATURE_SUPPORT_STABLE);
    assert_ptr_equal(q.last.DeviceHandle, &fk);
    q.answer = FALSE; /* a later answer changes nothing: the KMD asked once */
    DXGK_ALLOCATIONINFO info;
    assert_int_equal(create_shared(SWGPU_ALLOC_UPLOAD, &info), STATUS_SUCCESS);
    assert_int_equal(q.calls, 1);
    assert_int_equal(info.Flags2.Value, 0x1); /* ShareBackingStoreWithKmd only */
    assert_true(info.Flags.CpuVisible);
    assert_int_equal(info.SupportedReadSegmentSet, 1u << (SWKMD_SEGMENT_APERTURE - 1));
    assert_int_equal(info.SupportedWriteSegmentSet, 1u << (SWKMD_SEGMENT_APERTURE - 1));
    assert_int_equal(info.PreferredSegment.SegmentId0, SWKMD_SEGMENT_APERTURE);
    assert_int_equal(info.PreferredSegment.SegmentId1, 0);
    assert_int_equal(info.MaximumRenamingListLength, 0);
    fk_destroy_allocation(info.hAllocation);
    /* Without the request in the private data: an ordinary allocation. */
    DXGK_ALLOCATIONINFO plain;
    HANDLE h = fk_create_allocation(SWGPU_ALLOC_UPLOAD, 8192, &plain);
    assert_non_null(h);
    assert_int_equal(plain.Flags2.Value, 0);
    fk_destroy_allocation(h);
}

/* rule: kmd.umd-asks-sharing-private-data-kmd */
static void kmd_never_sets_the_flag_when_the_feature_is_disabled(void **state)
{
    (void)state;
    DXGK_ALLOCATIONINFO info;
    assert_int_equal(create_shared(SWGPU_ALLOC_READBACK, &info), STATUS_NOT_SUPPORTED);
    assert_int_equal(info.Flags2.Value, 0);
}

/* rule: kmd.reference-kmd-queries-share-backing */
static void kmd_without_the_query_callback_treats_the_feature_as_disabled(void **state)
{
    (void)state;
    DXGK_ALLOCATIONINFO info;
    assert_int_equal(create_shared(SWGPU_ALLOC_READBACK, &info), STATUS_NOT_SUPPORTED);
}

/* rule: kmd.umd-asks-sharing-private-data-kmd */
static void kmd_refuses_sharing_for_gpu_only_allocations_and_unknown_flags(void **state)
{
    (void)state;
    DXGK_ALLOCATIONINFO info;
    assert_int_equal(create_shared(SWGPU_ALLOC_GPU_ONLY, &info), STATUS_INVALID_PARAMETER);
    struct swgpu_alloc_private p = fk_private(SWGPU_ALLOC_READBACK, 4096);
    p.flags = 0x80;
    memset(&info, 0, sizeof info);
    info.pPrivateDriverData = &p;
    info.PrivateDriverDataSize = sizeof p;
    DXGKARG_CREATEALLOCATION ca = {.NumAllocations = 1, .pAllocationInfo = &info};
    assert_int_equal(fk.ddi.DxgkDdiCreateAllocation(fk.adapter, &ca), STATUS_INVALID_PARAMETER);
}

static NTSTATUS kmd_escape(UINT32 op, D3DKMT_HANDLE h, UINT32 off, UINT32 size, UINT8 *data)
{
    struct swgpu_escape e = {.magic = SWGPU_PRIVATE_MAGIC, .version = SWGPU_PRIVATE_VERSION, .op = op,
                             .hAllocation = h, .offset = off, .size = size};
    if (op == SWGPU_ESCAPE_WRITE_BACKING_STORE)
        memcpy(e.data, data, size);
    DXGKARG_ESCAPE a = {.pPrivateDriverData = &e, .PrivateDriverDataSize = sizeof e};
    NTSTATUS st = fk.ddi.DxgkDdiEscape(fk.adapter, &a);
    if (NT_SUCCESS(st) && op == SWGPU_ESCAPE_READ_BACKING_STORE)
        memcpy(data, e.data, size);
    return st;
}

/* rule: kernel.d3dkmtescape-dxgkddiescape-d3dkmt-escape */
static void kmd_escape_reads_and_writes_through_the_backing_store_pointer(void **state)
{
    (void)state;
    DXGK_ALLOCATIONINFO info;
    assert_int_equal(create_shared(SWGPU_ALLOC_READBACK, &info), STATUS_SUCCESS);
    fk.handles[3] = info.hAllocation;
    UINT8 *store = aligned_alloc(4096, 8192);
    assert_non_null(store);
    memset(store, 0, 8192);
    UINT8 buf[16];
    /* Before SetAllocationBackingStore the escape has nothing to use. */
    assert_int_equal(kmd_escape(SWGPU_ESCAPE_READ_BACKING_STORE, 3, 0, 16, buf), STATUS_INVALID_PARAMETER);
    DXGKARG_SETALLOCATIONBACKINGSTORE sb = {.hDriverAllocation = info.hAllocation, .pBackingStore = store};
    assert_int_equal(fk.ddi.DxgkDdiSetAllocationBackingStore(fk.adapter, &sb), STATUS_SUCCESS);
    memcpy(store + 100, "written by UMD!", 16);
    assert_int_equal(kmd_escape(SWGPU_ESCAPE_READ_BACKING_STORE, 3, 100, 16, buf), STATUS_SUCCESS);
    assert_memory_equal(buf, "written by UMD!", 16);
    memcpy(buf, "written by KMD!", 16);
    assert_int_equal(kmd_escape(SWGPU_ESCAPE_WRITE_BACKING_STORE, 3, 8192 - 16, 16, buf), STATUS_SUCCESS);
    assert_memory_equal(store + 8192 - 16, "written by KMD!", 16);
    assert_int_equal(kmd_escape(SWGPU_ESCAPE_WRITE_BACKING_STORE, 3, 8192 - 15, 16, buf), STATUS_INVALID_PARAMETER);
    /* SetAllocationBackingStore refuses an allocation that did not ask, and NULL. */
    HANDLE plain = fk_create_allocation(SWGPU_ALLOC_READBACK, 4096, NULL);
    DXGKARG_SETALLOCATIONBACKINGSTORE bad = {.hDriverAllocation = plain, .pBackingStore = store};
    assert_int_equal(fk.ddi.DxgkDdiSetAllocationBackingStore(fk.adapter, &bad), STATUS_INVALID_PARAMETER);
    sb.pBackingStore = NULL;
    assert_int_equal(fk.ddi.DxgkDdiSetAllocationBackingStore(fk.adapter, &sb), STATUS_INVALID_PARAMETER);
    fk_destroy_allocation(plain);
    fk_destroy_allocation(info.hAllocation);
    fk.handles[3] = NULL;
    free(store);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(kmd_queries_share_backing_store_at_start_and_remembers_the_answer,
                                        start_enabled, stop),
        cmocka_unit_test_setup_teardown(kmd_never_sets_the_flag_when_the_feature_is_disabled, start_disabled, stop),
        cmocka_unit_test_setup_teardown(kmd_without_the_query_callback_treats_the_feature_as_disabled,
                                        start_without_callback, stop),
        cmocka_unit_test_setup_teardown(kmd_refuses_sharing_for_gpu_only_allocations_and_unknown_flags,
                                        start_enabled, stop),
        cmocka_unit_test_setup_teardown(kmd_escape_reads_and_writes_through_the_backing_store_pointer,
                                        start_enabled, stop),
    };
    return cmocka_run_group_tests_name("kmd.features", tests, NULL, NULL);
}
