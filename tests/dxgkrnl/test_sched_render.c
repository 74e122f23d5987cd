/* Scheduler and D3DKMTRender rules (docs/semantics.md §8.1, §8.2, §9.1), adapter queries and the
 * cost of the hot paths, against the mock KMD. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "mock_kmd.h"

static void wait_submits(unsigned n)
{
    for (int i = 0; i < 2000 && atomic_load(&mock.submits) < n; i++)
        usleep(500);
}

/* rule: sched.d3dkmtrender-validates-counts-against */
static void test_render_counts_beyond_the_lists_are_refused(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    unsigned renders = atomic_load(&mock.renders);
    D3DKMT_RENDER r = { .hContext = e.context, .CommandLength = e.cc.CommandBufferSize + 1 };
    assert_int_equal(D3DKMTRender(&r), STATUS_INVALID_PARAMETER);
    r = (D3DKMT_RENDER){ .hContext = e.context, .CommandOffset = 8, .CommandLength = e.cc.CommandBufferSize - 4 };
    assert_int_equal(D3DKMTRender(&r), STATUS_INVALID_PARAMETER);
    r = (D3DKMT_RENDER){ .hContext = e.context, .CommandLength = 8, .AllocationCount = e.cc.AllocationListSize + 1 };
    assert_int_equal(D3DKMTRender(&r), STATUS_INVALID_PARAMETER);
    r = (D3DKMT_RENDER){ .hContext = e.context, .CommandLength = 8,
                         .PatchLocationCount = e.cc.PatchLocationListSize + 1 };
    assert_int_equal(D3DKMTRender(&r), STATUS_INVALID_PARAMETER);
    /* a patch location naming an allocation index beyond AllocationCount */
    e.cc.pPatchLocationList[0] = (D3DDDI_PATCHLOCATIONLIST){ .AllocationIndex = 1 };
    r = (D3DKMT_RENDER){ .hContext = e.context, .CommandLength = 8, .AllocationCount = 0, .PatchLocationCount = 1 };
    assert_int_equal(D3DKMTRender(&r), STATUS_INVALID_PARAMETER);
    assert_int_equal(atomic_load(&mock.renders), renders); /* nothing reached the KMD */
    mock_close(&e);
}

/* rule: sched.d3dkmtrender-hands-back-command-buffer */
static void test_render_hands_back_the_same_buffers(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = mock_alloc(&e, 4096, false, 0, 0, 0, NULL);
    memset(e.cc.pCommandBuffer, 0, 8);
    e.cc.pAllocationList[0] = (D3DDDI_ALLOCATIONLIST){ .hAllocation = a };
    D3DKMT_RENDER r = { .hContext = e.context, .CommandLength = 8, .AllocationCount = 1 };
    assert_int_equal(D3DKMTRender(&r), STATUS_SUCCESS);
    assert_ptr_equal(r.pNewCommandBuffer, e.cc.pCommandBuffer);
    assert_int_equal(r.NewCommandBufferSize, e.cc.CommandBufferSize);
    assert_ptr_equal(r.pNewAllocationList, e.cc.pAllocationList);
    assert_ptr_equal(r.pNewPatchLocationList, e.cc.pPatchLocationList);
    assert_true(e.cc.CommandBufferSize >= 4096); /* ContextInfo.DmaBufferSize, or more */
    mock_close(&e);
}

/* rule: vidmm.residency-lazy-nothing-placed-creation */
/* rule: vidmm.new-placement-memory-segment-zero-filled */
/* rule: kernel.lazy-residency-createallocation-places */
/* rule: sched.dxgkddipatch-also-called-paging-buffers */
static void test_first_reference_makes_a_local_allocation_resident_with_a_fill(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = mock_alloc(&e, 64 << 10, false, 0, 0, 0, NULL);
    D3DKMT_WDDM_SEGMENTS segs;
    D3DKMT_QUERYADAPTERINFO q = { .hAdapter = e.adapter, .Type = KMTQAITYPE_WDDM_SEGMENTS,
                                  .pPrivateDriverData = &segs, .PrivateDriverDataSize = sizeof segs };
    assert_int_equal(D3DKMTQueryAdapterInfo(&q), STATUS_SUCCESS);
    assert_int_equal(segs.NbSegment, 3);
    assert_int_equal(segs.Segment[0].BytesResident, 0); /* lazy: nothing placed at creation */
    assert_int_equal(atomic_load(&mock.fills), 0);
    assert_int_equal(mock_render_write(&e, a, 1, true), STATUS_SUCCESS);
    wait_submits(1);
    assert_int_equal(atomic_load(&mock.submits), 1);
    assert_int_equal(atomic_load(&mock.fills), 1);
    assert_true(atomic_load(&mock.paging_submits) >= 1);
    /* The paging buffer went through DxgkDdiPatch too: Paging set, nothing to patch. */
    assert_true(atomic_load(&mock.paging_patches) >= 1);
    assert_int_equal(D3DKMTQueryAdapterInfo(&q), STATUS_SUCCESS);
    assert_int_equal(segs.Segment[0].BytesResident, 64 << 10);
    /* Resident now: a second reference pages nothing. */
    assert_int_equal(mock_render_write(&e, a, 2, true), STATUS_SUCCESS);
    wait_submits(2);
    assert_int_equal(atomic_load(&mock.fills), 1);
    mock_close(&e);
}

/* rule: sched.dxgkddirender-called-d3dkmtrender */
static void test_insufficient_dma_buffer_splits_into_several_packets(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = mock_alloc(&e, 4096, false, 0, 0, 0, NULL);
    atomic_store(&mock.render_split, 1);
    assert_int_equal(mock_render_write(&e, a, 3, true), STATUS_SUCCESS);
    wait_submits(2);
    assert_int_equal(atomic_load(&mock.submits), 2);
    assert_int_equal(atomic_load(&mock.renders), 2);
    mock_close(&e);
}

/* rule: sched.node-submissionfenceids-1-2-3 (50 submissions retired, last write wins) */
static void test_fences_retire_every_submission(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    struct wddm_counters c0, c1;
    assert_int_equal(wddm_get_counters(&c0), STATUS_SUCCESS);
    D3DKMT_HANDLE a = mock_alloc(&e, 4096, true, 0, 0, 0x2, NULL);
    for (int i = 0; i < 50; i++)
        assert_int_equal(mock_render_write(&e, a, (UINT32)i, true), STATUS_SUCCESS);
    void *p;
    assert_int_equal(mock_lock(&e, a, LOCK_READONLY, &p), STATUS_SUCCESS);
    UINT32 v;
    memcpy(&v, p, 4);
    assert_int_equal(v, 49); /* in order: the last write wins */
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    assert_int_equal(wddm_get_counters(&c1), STATUS_SUCCESS);
    assert_int_equal(c1.dma_buffers_submitted - c0.dma_buffers_submitted, 50);
    assert_true(c1.fences_retired - c0.fences_retired >= 50);
    assert_true(c1.allocations_created - c0.allocations_created == 1);
    mock_close(&e);
}

static UINT32 read_first_word(struct mock_env *e, D3DKMT_HANDLE a)
{
    void *p;
    assert_int_equal(mock_lock(e, a, LOCK_READONLY, &p), STATUS_SUCCESS); /* waits for the GPU's writes */
    UINT32 v;
    memcpy(&v, p, 4);
    assert_int_equal(mock_unlock(e, a), STATUS_SUCCESS);
    return v;
}

/* Direct submission (sched/queue.c): a packet whose allocations are resident, on a node with
 * nothing queued or being readied, is handed to DxgkDdiSubmitCommand by the thread calling
 * D3DKMTRender; a first reference (its placement first) goes through the node worker, and so
 * does a resident packet queued behind one the worker is readying (it may not pass it). */
/* rule: kernel.direct-submission-single-resident-packet (WDDM 1.x: the thread that called DxgkDdiSubmitCommand) */
static void test_a_resident_packet_on_an_idle_node_is_submitted_by_the_caller(void **state)
{
    (void)state;
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    unsigned long me = (unsigned long)pthread_self();
    D3DKMT_HANDLE a = mock_alloc(&e, 4096, true, 0, 0, 0x2, NULL);
    assert_int_equal(mock_render_write(&e, a, 1, true), STATUS_SUCCESS);
    assert_int_equal(read_first_word(&e, a), 1);
    assert_true(atomic_load(&mock.submitter) != 0 && atomic_load(&mock.submitter) != me); /* placed first */
    /* Idle means the worker also let go of its last packet, a moment after the GPU may have
     * finished it: a few tries, each read back. */
    bool direct = false;
    for (UINT32 i = 0; i < 50 && !direct; i++) {
        atomic_store(&mock.submitter, 0);
        assert_int_equal(mock_render_write(&e, a, 10 + i, true), STATUS_SUCCESS);
        direct = atomic_load(&mock.submitter) == me; /* before D3DKMTRender returned */
        assert_int_equal(read_first_word(&e, a), 10 + i);
    }
    assert_true(direct);
    /* b's first reference waits for its placement behind the paused GPU; a's packet after it
     * queues for the worker. */
    D3DKMT_HANDLE b = mock_alloc(&e, 4096, true, 0, 0, 0x2, NULL);
    atomic_store(&mock.paused, true);
    assert_int_equal(mock_render_write(&e, b, 100, true), STATUS_SUCCESS);
    atomic_store(&mock.submitter, 0);
    assert_int_equal(mock_render_write(&e, a, 200, true), STATUS_SUCCESS);
    assert_true(atomic_load(&mock.submitter) != me);
    atomic_store(&mock.paused, false);
    assert_int_equal(read_first_word(&e, a), 200);
    assert_int_equal(read_first_word(&e, b), 100);
    assert_true(atomic_load(&mock.submitter) != 0 && atomic_load(&mock.submitter) != me);
    mock_close(&e);
}

/* rule: kernel.d3dkmtqueryadapterinfo-reports-caps */
static void test_query_adapter_info_reports_caps_segments_and_counters(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    DXGK_DRIVERCAPS caps;
    D3DKMT_QUERYADAPTERINFO q = { .hAdapter = e.adapter, .Type = KMTQAITYPE_WDDM_DRIVERCAPS,
                                  .pPrivateDriverData = &caps, .PrivateDriverDataSize = sizeof caps };
    assert_int_equal(D3DKMTQueryAdapterInfo(&q), STATUS_SUCCESS);
    assert_int_equal(caps.GpuEngineTopology.NbAsymetricProcessingNodes, 2);
    D3DKMT_SEGMENTSIZEINFO ssi;
    q = (D3DKMT_QUERYADAPTERINFO){ .hAdapter = e.adapter, .Type = KMTQAITYPE_GETSEGMENTSIZE,
                                   .pPrivateDriverData = &ssi, .PrivateDriverDataSize = sizeof ssi };
    assert_int_equal(D3DKMTQueryAdapterInfo(&q), STATUS_SUCCESS);
    assert_int_equal(ssi.DedicatedVideoMemorySize, MOCK_SEG1_SIZE + MOCK_SEG2_SIZE);
    assert_int_equal(ssi.SharedSystemMemorySize, MOCK_SEG3_SIZE);
    char blob[4];
    q = (D3DKMT_QUERYADAPTERINFO){ .hAdapter = e.adapter, .Type = KMTQAITYPE_UMDRIVERPRIVATE,
                                   .pPrivateDriverData = blob, .PrivateDriverDataSize = sizeof blob };
    assert_int_equal(D3DKMTQueryAdapterInfo(&q), STATUS_SUCCESS);
    assert_memory_equal(blob, "MOCK", 4);
    struct wddm_counters c;
    q = (D3DKMT_QUERYADAPTERINFO){ .hAdapter = e.adapter, .Type = KMTQAITYPE_WDDM_COUNTERS,
                                   .pPrivateDriverData = &c, .PrivateDriverDataSize = sizeof c };
    assert_int_equal(D3DKMTQueryAdapterInfo(&q), STATUS_SUCCESS);
    q.PrivateDriverDataSize = sizeof c - 1;
    assert_int_equal(D3DKMTQueryAdapterInfo(&q), STATUS_INVALID_PARAMETER);
    mock_close(&e);
}

/* rule: kernel.createallocation-dxgkddicreateallocation */
static void test_verifier_refuses_bad_allocation_info(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    NTSTATUS st;
    /* a preferred segment outside the supported set */
    assert_int_equal(mock_alloc(&e, 4096, false, 0, 2, 0x1, &st), 0);
    assert_int_equal(st, STATUS_INVALID_PARAMETER);
    /* a segment that does not exist */
    assert_int_equal(mock_alloc(&e, 4096, false, 0, 0, 0x10, &st), 0);
    assert_int_equal(st, STATUS_INVALID_PARAMETER);
    /* priority 0 */
    struct mock_alloc_priv p = { .magic = MOCK_ALLOC_MAGIC, .size = 4096, .zero_priority = 1 };
    D3DDDI_ALLOCATIONINFO ai = { .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p };
    D3DKMT_CREATEALLOCATION ca = { .hDevice = e.device, .NumAllocations = 1, .pAllocationInfo = &ai };
    assert_int_equal(D3DKMTCreateAllocation(&ca), STATUS_INVALID_PARAMETER);
    /* what the KMD created for the refused ones was destroyed again */
    assert_int_equal(atomic_load(&mock.live_allocations), 0);
    mock_close(&e);
}

/* rule: vidmm.no-room-allowed-segment-lock-fails */
static void test_render_without_room_puts_the_device_in_error(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    /* 32 MiB that may only live in the 16 MiB local segment: no placement possible.
     * FIXME(eviction): with eviction this still fails (it exceeds the segment). */
    D3DKMT_HANDLE a = mock_alloc(&e, 32u << 20, false, 0, 0, 0x1, NULL);
    assert_int_not_equal(a, 0);
    assert_int_equal(mock_render_write(&e, a, 1, true), STATUS_SUCCESS); /* queued */
    NTSTATUS st = STATUS_SUCCESS;
    for (int i = 0; i < 1000 && NT_SUCCESS(st); i++) {
        usleep(1000);
        D3DKMT_RENDER r = { .hContext = e.context, .CommandLength = 8 };
        st = D3DKMTRender(&r);
    }
    assert_int_equal(st, STATUS_NO_MEMORY);
    assert_int_equal(atomic_load(&mock.submits), 0); /* the packet never reached the GPU */
    mock_close(&e);
}

struct worker_arg {
    struct mock_env *e;
    int id;
};

static void *hammer_thread(void *arg)
{
    struct worker_arg *w = arg;
    struct mock_env me = *w->e;
    me.cc = (D3DKMT_CREATECONTEXT){ .hDevice = me.device, .NodeOrdinal = (UINT)(w->id & 1) };
    if (!NT_SUCCESS(D3DKMTCreateContext(&me.cc)))
        return (void *)1;
    me.context = me.cc.hContext;
    for (int i = 0; i < 300; i++) {
        D3DKMT_HANDLE h = mock_alloc(&me, 4096 * (1 + (i & 3)), (i & 1) != 0, 0, 0, (i & 1) ? 0x6 : 0, NULL);
        if (!h)
            return (void *)2;
        if (!NT_SUCCESS(mock_render_write(&me, h, (UINT32)i, true)))
            return (void *)3;
        if (i & 1) {
            void *p;
            if (!NT_SUCCESS(mock_lock(&me, h, (i & 2) ? LOCK_DISCARD | LOCK_WRITEONLY : 0, &p)))
                return (void *)4;
            memset(p, 0x5a, 64);
            if (!NT_SUCCESS(mock_unlock(&me, h)))
                return (void *)5;
        }
        if (!NT_SUCCESS(mock_free(&me, h)))
            return (void *)6;
    }
    D3DKMT_DESTROYCONTEXT dc = { .hContext = me.context };
    return NT_SUCCESS(D3DKMTDestroyContext(&dc)) ? NULL : (void *)7;
}

/* rule: kernel.create-render-lock-destroy-several */
static void test_concurrent_create_render_lock_destroy_is_thread_safe(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    pthread_t t[4];
    struct worker_arg w[4];
    for (int i = 0; i < 4; i++) {
        w[i] = (struct worker_arg){ .e = &e, .id = i };
        pthread_create(&t[i], NULL, hammer_thread, &w[i]);
    }
    for (int i = 0; i < 4; i++) {
        void *r;
        pthread_join(t[i], &r);
        assert_null(r);
    }
    mock_close(&e);
    assert_int_equal(atomic_load(&mock.live_allocations), 0);
}

static int reset(void **state)
{
    mock_reset();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_render_counts_beyond_the_lists_are_refused, reset),
        cmocka_unit_test_setup(test_render_hands_back_the_same_buffers, reset),
        cmocka_unit_test_setup(test_first_reference_makes_a_local_allocation_resident_with_a_fill, reset),
        cmocka_unit_test_setup(test_insufficient_dma_buffer_splits_into_several_packets, reset),
        cmocka_unit_test_setup(test_fences_retire_every_submission, reset),
        cmocka_unit_test_setup(test_a_resident_packet_on_an_idle_node_is_submitted_by_the_caller, reset),
        cmocka_unit_test_setup(test_query_adapter_info_reports_caps_segments_and_counters, reset),
        cmocka_unit_test_setup(test_verifier_refuses_bad_allocation_info, reset),
        cmocka_unit_test_setup(test_render_without_room_puts_the_device_in_error, reset),
        cmocka_unit_test_setup(test_concurrent_create_render_lock_destroy_is_thread_safe, reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
