/* Eviction under oversubscription (docs/semantics.md §9.1, vidmm/evict.c) against the reference
 * KMD and the software GPU: real TRANSFER / UNMAP_APERTURE_SEGMENT paging, content checked
 * byte for byte after every restore. Small segments: local 1 MiB, CPU-visible 1 MiB,
 * aperture 4 MiB (set before the adapter starts). */
/* rule: vidmm.counters-evictions-bytes-paged-bytes (counter deltas) */
#include "real_env.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>
#include <stdio.h>

#include "dxgkrnl/objects/objects.h"
#include "kernel_peek.h"

#define KIB 1024u
#define MIB (1024u * 1024u)
#define LOCAL 1u
#define VISIBLE 2u
#define APERTURE 3u

/* rule: vidmm.when-no-allowed-segment-room-vidmm */
static void test_oversubscribed_memory_segments_evict_and_restore_content(void **state)
{
    struct renv e;
    renv_open(&e);
    const UINT32 sz = 256 * KIB;
    enum { N = 16 }; /* 4 MiB of GPU_ONLY over 2 MiB of local + visible memory */
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, sz), rb = renv_alloc(&e, SWGPU_ALLOC_READBACK, sz);
    D3DKMT_HANDLE a[N];
    struct wddm_counters c0 = renv_counters();
    for (int i = 0; i < N; i++) {
        a[i] = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, sz);
        renv_gpu_write(&e, a[i], up, sz, 100 + i);
    }
    for (int i = 0; i < N; i++)
        renv_gpu_check(&e, a[i], rb, sz, 100 + i);
    struct wddm_counters c1 = renv_counters();
    assert_true(c1.evictions - c0.evictions >= N / 2);
    assert_true(c1.bytes_paged_out - c0.bytes_paged_out >= (UINT64)(N / 2) * sz);
    bool ev = false;
    int out = 0;
    for (int i = 0; i < N; i++) {
        UINT s = kpeek_where(a[i], &ev);
        assert_true(s == LOCAL || s == VISIBLE || (s == 0 && ev)); /* never in the aperture */
        out += s == 0;
    }
    assert_true(out >= N / 2);
    renv_close(&e);
}

/* rule: vidmm.victim-order-lower-d3dddi */
static void test_lower_priority_allocation_is_evicted_first(void **state)
{
    struct renv e;
    renv_open(&e);
    const UINT32 sz = 256 * KIB;
    enum { N = 8 }; /* exactly local + visible */
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, sz), rb = renv_alloc(&e, SWGPU_ALLOC_READBACK, sz);
    D3DKMT_HANDLE a[N];
    for (int i = 0; i < N; i++) {
        a[i] = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, sz);
        renv_gpu_write(&e, a[i], up, sz, 7 + i);
    }
    renv_gpu_check(&e, a[N - 1], rb, sz, 7 + N - 1); /* all idle now; a[0] is the LRU */
    /* Placement order: a[0..3] fill local (preferred), a[4..7] the visible window; eviction
     * starts in the preferred segment, local, where a[0] is the least recently used. */
    for (int i = 0; i < N; i++)
        assert_int_equal(kpeek_where(a[i], NULL), i < 4 ? LOCAL : VISIBLE);
    /* a[2] drops to LOW: it goes before the least recently used a[0]. */
    UINT low = D3DDDI_ALLOCATIONPRIORITY_LOW;
    D3DKMT_SETALLOCATIONPRIORITY sp = { .hDevice = e.device, .phAllocationList = &a[2], .AllocationCount = 1,
                                        .pPriorities = &low };
    assert_int_equal(D3DKMTSetAllocationPriority(&sp), STATUS_SUCCESS);
    D3DKMT_HANDLE extra = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, sz);
    renv_gpu_write(&e, extra, up, sz, 99);
    renv_gpu_check(&e, extra, rb, sz, 99);
    bool ev;
    assert_int_equal(kpeek_where(a[2], &ev), 0);
    assert_true(ev);
    for (int i = 0; i < N; i++)
        if (i != 2)
            assert_int_not_equal(kpeek_where(a[i], NULL), 0);
    /* Among equal priorities the least recently used goes: a[0]. */
    D3DKMT_HANDLE extra2 = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, sz);
    renv_gpu_write(&e, extra2, up, sz, 98);
    renv_gpu_check(&e, extra2, rb, sz, 98);
    assert_int_equal(kpeek_where(a[0], NULL), 0);
    for (int i = 1; i < N; i++)
        if (i != 2)
            assert_int_not_equal(kpeek_where(a[i], NULL), 0);
    renv_gpu_check(&e, a[2], rb, sz, 7 + 2); /* restored by TRANSFER, content intact */
    renv_gpu_check(&e, a[0], rb, sz, 7);
    renv_close(&e);
}

/* rule: vidmm.d3dkmtsetallocationpriority-one */
static void test_set_allocation_priority_refuses_bad_handles(void **state)
{
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE a = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, 4096);
    UINT pr[2] = { D3DDDI_ALLOCATIONPRIORITY_HIGH, D3DDDI_ALLOCATIONPRIORITY_LOW };
    D3DKMT_HANDLE list[2] = { a, 0x1234 };
    D3DKMT_SETALLOCATIONPRIORITY sp = { .hDevice = e.device, .phAllocationList = list, .AllocationCount = 2,
                                        .pPriorities = pr };
    assert_int_equal(D3DKMTSetAllocationPriority(&sp), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTSetAllocationPriority(NULL), STATUS_INVALID_PARAMETER);
    sp.AllocationCount = 1;
    sp.hDevice = 0x5678;
    assert_int_equal(D3DKMTSetAllocationPriority(&sp), STATUS_INVALID_PARAMETER);
    renv_close(&e);
}

/* rule: vidmm.nothing-referenced-queued-flight-packet */
static void test_allocation_referenced_by_queued_work_is_never_evicted(void **state)
{
    struct renv e;
    renv_open(&e);
    const UINT32 sz = 256 * KIB;
    enum { N = 8 };
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, sz), rb = renv_alloc(&e, SWGPU_ALLOC_READBACK, sz);
    D3DKMT_HANDLE a[N + 1];
    for (int i = 0; i < N; i++) {
        a[i] = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, sz);
        renv_gpu_write(&e, a[i], up, sz, 300 + i);
    }
    renv_gpu_check(&e, a[0], rb, sz, 300);
    for (int i = 0; i < N; i++)
        assert_int_not_equal(kpeek_where(a[i], NULL), 0);
    a[N] = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, sz);
    struct wddm_counters c0 = renv_counters();
    wddm_swgpu_set_paused(1);
    /* Every resident allocation is referenced by work that cannot retire while the GPU is
     * paused, then a packet needs one more: nothing may be evicted. */
    for (int i = 0; i < N; i++)
        assert_int_equal(renv_copy(&e, a[i], a[i], 16), STATUS_SUCCESS);
    assert_int_equal(renv_copy(&e, a[N], up, sz), STATUS_SUCCESS);
    usleep(50000);
    struct wddm_counters c1 = renv_counters();
    assert_int_equal(c1.evictions, c0.evictions);
    assert_int_equal(kpeek_where(a[N], NULL), 0);
    wddm_swgpu_set_paused(0); /* the worker waits for the work in flight, then evicts */
    void *p;
    assert_int_equal(renv_lock(&e, up, LOCK_READONLY, &p), STATUS_SUCCESS); /* waits for the copy */
    renv_unlock(&e, up);
    for (int i = 0; i < N; i++)
        renv_gpu_check(&e, a[i], rb, sz, 300 + i);
    assert_true(renv_counters().evictions > c0.evictions);
    renv_close(&e);
}

/* rule: vidmm.aperture-eviction-unmap-aperture-segment */
/* rule: vidmm.retired-renamed-instance-not-current (DISCARD of renamed upload instances happens there) */
static void test_lock_of_evicted_cpu_visible_allocation_restores_content(void **state)
{
    struct renv e;
    renv_open(&e);
    const UINT32 sz = 512 * KIB;
    enum { N = 14 }; /* 7 MiB of UPLOAD over 1 MiB visible + 4 MiB aperture */
    D3DKMT_HANDLE a[N];
    struct wddm_counters c0 = renv_counters();
    for (int i = 0; i < N; i++) {
        a[i] = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, sz);
        void *p;
        assert_int_equal(renv_lock(&e, a[i], 0, &p), STATUS_SUCCESS);
        renv_pattern(p, sz, 500 + i);
        renv_unlock(&e, a[i]);
    }
    UINT8 *want = malloc(sz);
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < N; i++) {
            void *p;
            assert_int_equal(renv_lock(&e, a[i], LOCK_READONLY, &p), STATUS_SUCCESS);
            UINT s = kpeek_where(a[i], NULL);
            assert_true(s == VISIBLE || s == APERTURE); /* the CPU never gets GPU-only memory */
            renv_pattern(want, sz, 500 + i);
            assert_memory_equal(p, want, sz);
            renv_unlock(&e, a[i]);
        }
    }
    free(want);
    assert_true(renv_counters().evictions - c0.evictions >= N - 10);
    renv_close(&e);
}

/* rule: vidmm.no-room-allowed-segment-lock-fails-2 */
static void test_no_space_in_any_allowed_segment_fails_the_lock(void **state)
{
    struct renv e;
    renv_open(&e);
    /* READBACK lives only in the aperture (4 MiB): four locked 1 MiB allocations fill it, and
     * locked allocations are never evicted. */
    D3DKMT_HANDLE a[5];
    void *p;
    for (int i = 0; i < 5; i++)
        a[i] = renv_alloc(&e, SWGPU_ALLOC_READBACK, MIB);
    for (int i = 0; i < 4; i++)
        assert_int_equal(renv_lock(&e, a[i], 0, &p), STATUS_SUCCESS);
    assert_int_equal(renv_lock(&e, a[4], 0, &p), STATUS_NO_MEMORY);
    /* An allocation larger than every allowed segment can never be placed. */
    D3DKMT_HANDLE big = renv_alloc(&e, SWGPU_ALLOC_READBACK, 8 * MIB);
    assert_int_equal(renv_lock(&e, big, 0, &p), STATUS_NO_MEMORY);
    renv_unlock(&e, a[1]);
    assert_int_equal(renv_lock(&e, a[4], 0, &p), STATUS_SUCCESS); /* a[1] evicted (UNMAP) */
    assert_int_equal(kpeek_where(a[1], NULL), 0);
    renv_unlock(&e, a[4]);
    for (int i = 0; i < 4; i++)
        if (i != 1)
            renv_unlock(&e, a[i]);
    renv_close(&e);
}

/* 6 MiB of UPLOAD allocations written with pattern(seed + i) over 1 MiB visible + 4 MiB
 * aperture: some are evicted. Returns the index of one that is. */
enum { EVICTED_N = 12, EVICTED_SZ = 512 * KIB };
static int evicted_upload(struct renv *e, D3DKMT_HANDLE a[EVICTED_N], uint32_t seed)
{
    for (int i = 0; i < EVICTED_N; i++) {
        a[i] = renv_alloc(e, SWGPU_ALLOC_UPLOAD, EVICTED_SZ);
        void *p;
        assert_int_equal(renv_lock(e, a[i], 0, &p), STATUS_SUCCESS);
        renv_pattern(p, EVICTED_SZ, seed + (uint32_t)i);
        renv_unlock(e, a[i]);
    }
    for (int i = 0; i < EVICTED_N; i++) {
        bool ev = false;
        if (kpeek_where(a[i], &ev) == 0 && ev)
            return i;
    }
    fail_msg("no UPLOAD allocation was evicted");
    return -1;
}

/* rule: vidmm.donotwait-during-eviction-lock-whose */
/* rule: vidmm.donotwait-lock-evicted-starts-restore */
static void test_donotwait_lock_during_restore_returns_busy_then_succeeds(void **state)
{
    struct renv e;
    renv_open(&e);
    const UINT32 sz = EVICTED_SZ;
    D3DKMT_HANDLE a[EVICTED_N];
    int victim = evicted_upload(&e, a, 700);
    wddm_swgpu_set_paused(1);
    void *p;
    /* The restore's paging buffer cannot run: the CPU may not wait for it. */
    assert_int_equal(renv_lock(&e, a[victim], LOCK_DONOTWAIT, &p), STATUS_GRAPHICS_ALLOCATION_BUSY);
    wddm_swgpu_set_paused(0);
    assert_int_equal(renv_lock(&e, a[victim], 0, &p), STATUS_SUCCESS);
    UINT8 *want = malloc(sz);
    renv_pattern(want, sz, 700 + victim);
    assert_memory_equal(p, want, sz);
    free(want);
    renv_unlock(&e, a[victim]);
    renv_close(&e);
}

struct lock2_call {
    struct renv *e;
    D3DKMT_HANDLE a;
    NTSTATUS st;
    void *p;
    atomic_bool done;
};

static void *lock2_thread(void *arg)
{
    struct lock2_call *c = arg;
    D3DKMT_LOCK2 l = { .hDevice = c->e->device, .hAllocation = c->a };
    c->st = D3DKMTLock2(&l);
    c->p = l.pData;
    atomic_store(&c->done, true);
    return NULL;
}

/* D3DKMTLock2 skips only the GPU-use sync (docs/semantics.md §3.3 "WDDM 2.x"): VidMm's own restore
 * of an evicted allocation is waited for by the CPU, not answered "busy" (pfnLock2Cb documents no
 * such answer), and the pointer shows the restored content. */
/* rule: vidmm.but-vidmm-own-paging-waited-d3dkmtlock2 (mutation-checked) */
static void test_lock2_of_an_evicted_allocation_waits_for_its_restore(void **state)
{
    struct renv e;
    renv_open(&e);
    const UINT32 sz = EVICTED_SZ;
    D3DKMT_HANDLE a[EVICTED_N];
    int victim = evicted_upload(&e, a, 900);
    wddm_swgpu_set_paused(1);
    struct lock2_call c = { .e = &e, .a = a[victim] };
    pthread_t t;
    pthread_create(&t, NULL, lock2_thread, &c);
    usleep(30000);
    bool early = atomic_load(&c.done); /* it must be waiting for the restore's paging buffer */
    wddm_swgpu_set_paused(0);
    pthread_join(t, NULL);
    assert_false(early);
    assert_int_equal(c.st, STATUS_SUCCESS);
    UINT8 *want = malloc(sz);
    renv_pattern(want, sz, 900 + victim);
    assert_memory_equal(c.p, want, sz);
    free(want);
    D3DKMT_UNLOCK2 u = { .hDevice = e.device, .hAllocation = a[victim] };
    assert_int_equal(D3DKMTUnlock2(&u), STATUS_SUCCESS);
    renv_close(&e);
}

/* rule: vidmm.backing-stores-evicted-allocations-freed (ASan leak check) */
static void test_destroying_evicted_allocations_frees_their_backing_store(void **state)
{
    struct renv e;
    renv_open(&e);
    const UINT32 sz = 256 * KIB;
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, sz);
    for (int round = 0; round < 3; round++) {
        D3DKMT_HANDLE a[12];
        for (int i = 0; i < 12; i++) {
            a[i] = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, sz);
            renv_gpu_write(&e, a[i], up, sz, i);
        }
        for (int i = 0; i < 12; i++)
            renv_free(&e, a[i]); /* ASan's leak check proves the backing stores are freed */
    }
    renv_close(&e);
}

/* rule: vidmm.clean-instance-evicted-discard-content */
static void test_clean_allocation_is_evicted_without_a_copy(void **state)
{
    struct renv e;
    renv_open(&e);
    const UINT32 sz = 256 * KIB;
    enum { N = 12 };
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, sz), rb = renv_alloc(&e, SWGPU_ALLOC_READBACK, sz);
    D3DKMT_HANDLE a[N];
    for (int i = 0; i < N; i++) {
        a[i] = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, sz);
        renv_gpu_write(&e, a[i], up, sz, 900 + i);
    }
    for (int i = 0; i < N; i++) /* every one saved once by now, and read back */
        renv_gpu_check(&e, a[i], rb, sz, 900 + i);
    /* Only read from now on: restores, but evictions of clean allocations copy nothing. */
    struct wddm_counters c0 = renv_counters();
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < N; i++)
            renv_gpu_check(&e, a[i], rb, sz, 900 + i);
    struct wddm_counters c1 = renv_counters();
    assert_true(c1.evictions - c0.evictions >= N);
    assert_int_equal(c1.bytes_paged_out, c0.bytes_paged_out);
    /* A GPU write makes it dirty again: its next eviction copies it out, content intact. */
    renv_gpu_write(&e, a[0], up, sz, 77);
    for (int i = 1; i < N; i++)
        renv_gpu_check(&e, a[i], rb, sz, 900 + i);
    assert_true(renv_counters().bytes_paged_out > c1.bytes_paged_out);
    renv_gpu_check(&e, a[0], rb, sz, 77);
    renv_close(&e);
}

/* rule: vidmm.queue-referencing-more-segments-hold */
static void test_queue_referencing_more_than_the_segments_hold_still_runs(void **state)
{
    struct renv e;
    renv_open(&e);
    const UINT32 sz = 256 * KIB;
    enum { N = 16 }; /* 4 MiB referenced by queued packets, 2 MiB of memory segments */
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, sz), rb = renv_alloc(&e, SWGPU_ALLOC_READBACK, sz);
    D3DKMT_HANDLE a[N];
    for (int i = 0; i < N; i++)
        a[i] = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, sz);
    void *p;
    assert_int_equal(renv_lock(&e, up, 0, &p), STATUS_SUCCESS);
    renv_pattern(p, sz, 4242);
    renv_unlock(&e, up);
    wddm_swgpu_set_paused(1);
    for (int i = 0; i < N; i++) /* all queued before any runs */
        assert_int_equal(renv_copy(&e, a[i], up, sz), STATUS_SUCCESS);
    wddm_swgpu_set_paused(0);
    /* Allocations of packets not yet made ready were evicted and restored in turn: nothing was
     * dropped (a dropped packet would put the device in error and fail these calls). */
    for (int i = 0; i < N; i++)
        renv_gpu_check(&e, a[i], rb, sz, 4242);
    renv_close(&e);
}

/* Placement order (docs/rules/vidmm.md): the PreferredSegment ids in order, then the rest
 * of the supported set; eviction only when none has room. The reference KMD prefers local (1)
 * then the CPU-visible window (2) for GPU-only allocations: 1 MiB each here. */
/* rule: vidmm.placement-follows-preferredsegment (KMD recipes: `kmd.test_kmd_adapter` `allocation_placement_follows_the_kind`) */
/* rule: vidmm.placement-order-preferredsegment-ids */
static void test_placement_follows_the_preferred_segments_in_order(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    const UINT32 sz = 256 * KIB;
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, sz), rb = renv_alloc(&e, SWGPU_ALLOC_READBACK, sz);
    D3DKMT_HANDLE a[8];
    struct wddm_counters c0 = renv_counters();
    for (int i = 0; i < 8; i++) {
        a[i] = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, sz);
        renv_gpu_write(&e, a[i], up, sz, 700 + i);
        renv_gpu_check(&e, a[i], rb, sz, 700 + i); /* waits: placed and written */
        bool evicted = false;
        assert_int_equal(kpeek_where(a[i], &evicted), i < 4 ? 1 : 2); /* local fills first */
    }
    assert_int_equal(renv_counters().evictions, c0.evictions); /* room was found without evicting */
    renv_close(&e);
}

/* Among equal priorities, the allocation the queued work needs last goes first (vidmm/evict.c
 * better_victim: the next reference by a queued packet, then LRU). Memory is full of idle
 * allocations a[0..N-1]; behind x's packet the queue reads a[0], a[1], ... a[N-1] in that order,
 * so every candidate is referenced by queued work and D3DKMTRender touched them in that order
 * (a[0] is the least recently used). VidMm evicts a[N-1] for x; a[N-1]'s own packet later needs
 * one more eviction: 2 in all. LRU evicts a[0], whose packet comes next and takes a[1], and so
 * on: 3 or more. Deterministic: a first packet waits for a paging operation while the GPU is
 * paused, so the whole queue is in place before x's packet is prepared; x's copy is slowed down
 * (bandwidth limit) so it is still running, not evictable, when the next choices are made. */
/* rule: vidmm.among-equal-priorities-allocation-whose (every candidate referenced by queued work: 2 evictions; plain LRU evicts the one needed next: 3) */
static void test_allocation_needed_last_by_queued_work_is_evicted_first(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    const UINT32 sz = 256 * KIB;
    enum { N = 8 }; /* exactly local + visible */
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, sz), rb = renv_alloc(&e, SWGPU_ALLOC_READBACK, sz);
    D3DKMT_HANDLE a[N];
    for (int i = 0; i < N; i++) {
        a[i] = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, sz);
        renv_gpu_write(&e, a[i], up, sz, 600 + i);
    }
    renv_gpu_check(&e, a[N - 1], rb, sz, 600 + N - 1); /* all idle and resident */
    D3DKMT_HANDLE x = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, sz);
    D3DKMT_HANDLE fresh = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, 4096); /* never placed: needs a MAP */
    struct wddm_counters c0 = renv_counters();
    wddm_swgpu_set_paused(1);
    assert_int_equal(renv_copy(&e, fresh, fresh, 16), STATUS_SUCCESS); /* its worker waits for the MAP */
    assert_int_equal(renv_copy(&e, x, up, sz), STATUS_SUCCESS);
    for (int i = 0; i < N; i++)
        assert_int_equal(renv_copy(&e, rb, a[i], 16), STATUS_SUCCESS);
    wddm_swgpu_set_bandwidth(1u << 20); /* x's 256 KiB copy: ~250 ms */
    wddm_swgpu_set_paused(0);
    void *p;
    assert_int_equal(renv_lock(&e, rb, LOCK_READONLY, &p), STATUS_SUCCESS); /* waits for all of it */
    renv_unlock(&e, rb);
    wddm_swgpu_set_bandwidth(0);
    assert_int_equal(renv_counters().evictions - c0.evictions, 2);
    for (int i = 0; i < N; i++)
        renv_gpu_check(&e, a[i], rb, sz, 600 + i);
    renv_close(&e);
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "1", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "1", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "4", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oversubscribed_memory_segments_evict_and_restore_content),
        cmocka_unit_test(test_lower_priority_allocation_is_evicted_first),
        cmocka_unit_test(test_set_allocation_priority_refuses_bad_handles),
        cmocka_unit_test(test_allocation_referenced_by_queued_work_is_never_evicted),
        cmocka_unit_test(test_lock_of_evicted_cpu_visible_allocation_restores_content),
        cmocka_unit_test(test_no_space_in_any_allowed_segment_fails_the_lock),
        cmocka_unit_test(test_donotwait_lock_during_restore_returns_busy_then_succeeds),
        cmocka_unit_test(test_lock2_of_an_evicted_allocation_waits_for_its_restore),
        cmocka_unit_test(test_destroying_evicted_allocations_frees_their_backing_store),
        cmocka_unit_test(test_clean_allocation_is_evicted_without_a_copy),
        cmocka_unit_test(test_queue_referencing_more_than_the_segments_hold_still_runs),
        cmocka_unit_test(test_placement_follows_the_preferred_segments_in_order),
        cmocka_unit_test(test_allocation_needed_last_by_queued_work_is_evicted_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
