/* D3DKMTQueryStatistics (objects/query_statistics.c, vidmm/statistics.c; the WDK's
 * D3DKMT_QUERYSTATISTICS): the ADAPTER and SEGMENT answers follow what VidMm placed and evicted,
 * by adapter LUID, segments counted from 0 as monitoring tools count them; the queries not modeled
 * and bad input are refused with QueryResult untouched. Against the reference KMD and the
 * software GPU: local 1 MiB, CPU-visible 1 MiB, aperture 2 MiB. */
#include "real_env.h"

#include "kernel_peek.h"

#define KIB 1024u
#define SZ (256u * KIB)

/* The one adapter's LUID (the enumeration's own handles closed again; the renv keeps its). */
static LUID adapter_luid(void)
{
    D3DKMT_ADAPTERINFO info[4];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
    for (UINT i = 0; i < en.NumAdapters; i++) {
        D3DKMT_CLOSEADAPTER c = { .hAdapter = info[i].hAdapter };
        assert_int_equal(D3DKMTCloseAdapter(&c), STATUS_SUCCESS);
    }
    assert_int_equal(en.NumAdapters, 1);
    return info[0].AdapterLuid;
}

static D3DKMT_QUERYSTATISTICS_SEGMENT_INFORMATION segment(LUID luid, UINT id)
{
    D3DKMT_QUERYSTATISTICS q = { .Type = D3DKMT_QUERYSTATISTICS_SEGMENT, .AdapterLuid = luid };
    q.QuerySegment.SegmentId = id;
    assert_int_equal(D3DKMTQueryStatistics(&q), STATUS_SUCCESS);
    return q.QueryResult.SegmentInformation;
}

/* The adapter's segments and nodes, and each segment's limit and kind, as the memory statistics
 * of the same adapter give them. */
/* rule: kernel.d3dkmtquerystatistics-adapter-luid */
static void adapter_and_segments_describe_the_adapter(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    LUID luid = adapter_luid();
    D3DKMT_QUERYSTATISTICS q = { .Type = D3DKMT_QUERYSTATISTICS_ADAPTER, .AdapterLuid = luid };
    assert_int_equal(D3DKMTQueryStatistics(&q), STATUS_SUCCESS);
    const D3DKMT_QUERYSTATISTICS_ADAPTER_INFORMATION *ai = &q.QueryResult.AdapterInformation;
    struct wddm_memory_statistics ms;
    assert_int_equal(wddm_query_memory_statistics(e.adapter, 0, &ms), STATUS_SUCCESS);
    assert_int_equal(ai->NbSegments, 3);
    assert_int_equal(ai->NbSegments, ms.segment_count);
    assert_true(ai->NodeCount >= 1);
    assert_int_equal(ai->VidPnSourceCount, 0);
    UINT apertures = 0;
    for (UINT i = 0; i < ai->NbSegments; i++) {
        D3DKMT_QUERYSTATISTICS_SEGMENT_INFORMATION s = segment(luid, i);
        assert_int_equal(s.CommitLimit, ms.segment[i].size);
        assert_int_equal(s.Aperture, ms.segment[i].aperture ? 1 : 0);
        apertures += s.Aperture;
    }
    assert_int_equal(segment(luid, 0).CommitLimit, 1024u * KIB); /* WDDM_SEGMENT_LOCAL_MB=1 */
    assert_int_equal(apertures, 1);
    renv_close(&e);
}

/* An allocation made resident counts in its segment's committed and resident bytes and
 * instances; evicted at priority LOW, its bytes count in that segment's Low class. */
/* rule: kernel.d3dkmtquerystatistics-adapter-luid */
static void placement_and_eviction_show_in_the_segment(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    LUID luid = adapter_luid();
    D3DKMT_HANDLE h = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, SZ);
    D3DDDI_MAKERESIDENT mr = { .hPagingQueue = e.device, .NumAllocations = 1, .AllocationList = &h };
    NTSTATUS st = D3DKMTMakeResident(&mr);
    assert_true(st == STATUS_SUCCESS || st == STATUS_PENDING);
    UINT id = kpeek_segment(h) - 1; /* counted from 0 */
    D3DKMT_QUERYSTATISTICS_SEGMENT_INFORMATION before = segment(luid, id);
    assert_true(before.BytesResident >= SZ);
    assert_int_equal(before.BytesCommitted, before.BytesResident);
    assert_true(before.Memory.AllocsResident >= 1);
    const UINT low = D3DDDI_ALLOCATIONPRIORITY_LOW;
    D3DKMT_SETALLOCATIONPRIORITY sp = { .hDevice = e.device, .phAllocationList = &h, .AllocationCount = 1,
                                        .pPriorities = &low };
    assert_int_equal(D3DKMTSetAllocationPriority(&sp), STATUS_SUCCESS);
    D3DKMT_EVICT ev = { .hDevice = e.device, .NumAllocations = 1, .AllocationList = &h };
    assert_int_equal(D3DKMTEvict(&ev), STATUS_SUCCESS); /* count 0, unreferenced: evicted at once */
    assert_int_equal(kpeek_segment(h), 0);
    D3DKMT_QUERYSTATISTICS_SEGMENT_INFORMATION after = segment(luid, id);
    assert_int_equal(after.BytesResident, before.BytesResident - SZ);
    assert_int_equal(after.Memory.AllocsResident, before.Memory.AllocsResident - 1);
    assert_int_equal(after.TotalBytesEvictedByPriority[D3DKMT_AllocationPriorityClassLow] -
                         before.TotalBytesEvictedByPriority[D3DKMT_AllocationPriorityClassLow], SZ);
    assert_int_equal(after.Memory.TotalBytesEvicted - before.Memory.TotalBytesEvicted, SZ);
    renv_close(&e);
}

/* rule: kernel.d3dkmtquerystatistics-adapter-luid (mutation-checked: evictions not counted; segments counted from 1) */
static void unmodeled_and_bad_queries_are_refused_and_write_nothing(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    LUID luid = adapter_luid();
    RENV_REFUSED(D3DKMTQueryStatistics(NULL), STATUS_INVALID_PARAMETER, "D3DKMTQueryStatistics: NULL arguments");
    D3DKMT_QUERYSTATISTICS q;
    memset(&q, 0x5A, sizeof q);
    q.Type = (D3DKMT_QUERYSTATISTICS_TYPE)99;
    q.AdapterLuid = luid;
    RENV_REFUSED(D3DKMTQueryStatistics(&q), STATUS_INVALID_PARAMETER, "Type 99 is no");
    q.Type = D3DKMT_QUERYSTATISTICS_NODE;
    RENV_REFUSED(D3DKMTQueryStatistics(&q), STATUS_NOT_SUPPORTED, "not modeled");
    q.Type = D3DKMT_QUERYSTATISTICS_PROCESS;
    RENV_REFUSED(D3DKMTQueryStatistics(&q), STATUS_NOT_SUPPORTED, "not modeled");
    q.Type = D3DKMT_QUERYSTATISTICS_SEGMENT;
    q.QuerySegment.SegmentId = 3; /* three segments: 0..2 */
    RENV_REFUSED(D3DKMTQueryStatistics(&q), STATUS_INVALID_PARAMETER, "SegmentId 3");
    q.QuerySegment.SegmentId = 0;
    q.AdapterLuid.LowPart ^= 0x777;
    RENV_REFUSED(D3DKMTQueryStatistics(&q), STATUS_INVALID_PARAMETER, "no adapter with LUID");
    const unsigned char *r = (const unsigned char *)&q.QueryResult;
    for (size_t i = 0; i < sizeof q.QueryResult; i++)
        assert_int_equal(r[i], 0x5A);
    renv_close(&e);
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "1", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "1", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "2", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(adapter_and_segments_describe_the_adapter),
        cmocka_unit_test(placement_and_eviction_show_in_the_segment),
        cmocka_unit_test(unmodeled_and_bad_queries_are_refused_and_write_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
