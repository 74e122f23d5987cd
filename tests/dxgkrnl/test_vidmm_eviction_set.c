/* Where an eviction goes and who goes last (issue 3; docs/semantics.md §6.4 EvictionSegmentSet,
 * §9.4 MAXIMUM = soft-pinned, §9.5 #2), against the reference KMD and the software GPU with
 * real paging and content checked byte for byte (vidmm/evict.c, vidmm/residency.c).
 *
 * The reference KMD returns EvictionSegmentSet 0. To get an allocation with a set, the test's
 * KMD wraps the reference one and, after its DxgkDdiCreateAllocation, sets
 * DXGK_ALLOCATIONINFO.EvictionSegmentSet to `eviction_set` (0 = leave the KMD's 0): exactly what
 * a KMD that names an eviction aperture returns. Small segments: local 1 MiB, CPU-visible
 * 1 MiB, aperture 4 MiB (set before the adapter starts). */
/* rule: vidmm.allocations-device-made-resident-evicted */
#include "real_env.h"

#include <pthread.h>

#include <wddm/d3dkmddi.h>

#include "dxgkrnl/objects/objects.h"
#include "kernel_peek.h"
#include "kmd/kmd.h"

#define KIB 1024u
#define LOCAL 1u
#define VISIBLE 2u
#define APERTURE 3u
#define BIT(id) (1u << ((id) - 1u))

static UINT eviction_set; /* what the wrapping KMD puts in EvictionSegmentSet */

static NTSTATUS APIENTRY wrap_create(const HANDLE a, DXGKARG_CREATEALLOCATION *args)
{
    NTSTATUS st = SwKmdCreateAllocation(a, args);
    if (NT_SUCCESS(st))
        for (UINT i = 0; i < args->NumAllocations; i++)
            args->pAllocationInfo[i].EvictionSegmentSet = eviction_set;
    return st;
}

static NTSTATUS wrap_entry(PDRIVER_OBJECT drv, PVOID reg)
{
    DRIVER_INITIALIZATION_DATA d;
    SwKmdGetDriverInitializationData(&d);
    d.DxgkDdiCreateAllocation = wrap_create;
    return DxgkInitialize(drv, reg, &d);
}

/* renv_open with the wrapping KMD. */
static void env_open(struct renv *e)
{
    eviction_set = 0;
    wddm_set_kmd_entry(wrap_entry);
    renv_open_kmd(e);
}

static void env_close(struct renv *e)
{
    renv_close(e);
    wddm_set_kmd_entry(NULL);
    eviction_set = 0;
}

/* Per test, so that a failing test (cmocka jumps out of it) leaves nothing to the next. */
static struct renv env;
static int setup(void **state)
{
    env_open(&env);
    *state = &env;
    return 0;
}

static int teardown(void **state)
{
    env_close(*state);
    return 0;
}

/* Checksum of the allocation's backing store when it is the aperture placement's pages
 * (cpu == backing), 0 otherwise. Only read once the paging that filled it has retired. */
static uint64_t aperture_pages_checksum(D3DKMT_HANDLE h, size_t size)
{
    struct dxgk_allocation *al = (struct dxgk_allocation *)dxgk_handle_get(h, DXGK_TYPE_ALLOCATION);
    assert_non_null(al);
    struct dxgk_adapter *a = al->device->adapter;
    pthread_mutex_lock(&a->lock);
    const struct vidmm_instance *in = al->current;
    uint64_t sum = in->backing && in->cpu == in->backing ? renv_checksum(in->backing, size) : 0;
    pthread_mutex_unlock(&a->lock);
    dxgk_object_put(&al->obj);
    return sum;
}

static uint64_t pattern_checksum(size_t size, uint32_t seed)
{
    UINT8 *b = malloc(size);
    assert_non_null(b);
    renv_pattern(b, size, seed);
    uint64_t sum = renv_checksum(b, size);
    free(b);
    return sum;
}

static void set_priority(struct renv *e, D3DKMT_HANDLE h, UINT priority)
{
    D3DKMT_SETALLOCATIONPRIORITY sp = { .hDevice = e->device, .phAllocationList = &h, .AllocationCount = 1,
                                        .pPriorities = &priority };
    assert_int_equal(D3DKMTSetAllocationPriority(&sp), STATUS_SUCCESS);
}

enum { N = 8 }; /* 8 x 256 KiB GPU_ONLY = local + CPU-visible local exactly */
static const UINT32 SZ = 256 * KIB;

/* UPLOAD + READBACK (in the aperture, no eviction set), then N GPU_ONLY allocations with the
 * given eviction set, written with seeds base+i; all idle at return, a[0] the least recently
 * used, a[0..3] in local and a[4..7] in the visible window (placement order). */
static void fill_local_memory(struct renv *e, D3DKMT_HANDLE *up, D3DKMT_HANDLE *rb, D3DKMT_HANDLE *a, UINT set,
                              uint32_t base)
{
    eviction_set = 0;
    *up = renv_alloc(e, SWGPU_ALLOC_UPLOAD, SZ);
    *rb = renv_alloc(e, SWGPU_ALLOC_READBACK, SZ);
    eviction_set = set;
    for (int i = 0; i < N; i++) {
        a[i] = renv_alloc(e, SWGPU_ALLOC_GPU_ONLY, SZ);
        renv_gpu_write(e, a[i], *up, SZ, base + (uint32_t)i);
    }
    renv_gpu_check(e, a[N - 1], *rb, SZ, base + N - 1);
    for (int i = 0; i < N; i++)
        assert_int_equal(kpeek_where(a[i], NULL), i < 4 ? LOCAL : VISIBLE);
}

/* rule: vidmm.evictionsegmentset-evicting-allocation (segment, counters, checksum of the aperture pages; the clean case: no bytes paged out) */
/* rule: vidmm.use-dma-buffer-allocation-sitting (segment after the use, checksums of every allocation after every move) */
static void test_eviction_segment_set_moves_the_evicted_allocation_into_the_aperture(void **state)
{
    struct renv *e = *state;
    D3DKMT_HANDLE up, rb, a[N];
    fill_local_memory(e, &up, &rb, a, BIT(APERTURE), 40);
    struct wddm_counters c0 = renv_counters();
    /* One more needs room in local: the least recently used a[0] goes, into the aperture. */
    D3DKMT_HANDLE extra = renv_alloc(e, SWGPU_ALLOC_GPU_ONLY, SZ);
    renv_gpu_write(e, extra, up, SZ, 90);
    renv_gpu_check(e, extra, rb, SZ, 90); /* waits for the copy, which waited for the paging */
    struct wddm_counters c1 = renv_counters();
    bool ev = true;
    assert_int_equal(kpeek_where(a[0], &ev), APERTURE);
    assert_false(ev); /* resident: the GPU can reach it */
    assert_int_equal(c1.evictions - c0.evictions, 1);
    assert_int_equal(c1.bytes_paged_out - c0.bytes_paged_out, SZ); /* a real TRANSFER out */
    /* The TRANSFER went into the aperture range, whose pages are the backing store's. */
    assert_true(aperture_pages_checksum(a[0], SZ) == pattern_checksum(SZ, 40));
    for (int i = 1; i < N; i++)
        assert_int_equal(kpeek_where(a[i], NULL), i < 4 ? LOCAL : VISIBLE);
    /* Its next use needs a segment of its supported set (local or visible): a TRANSFER brings
     * it back (the next least recently used, a[1], moves to the aperture for it). */
    renv_gpu_check(e, a[0], rb, SZ, 40);
    UINT s = kpeek_where(a[0], NULL);
    assert_true(s == LOCAL || s == VISIBLE);
    assert_int_equal(kpeek_where(a[1], NULL), APERTURE);
    struct wddm_counters c2 = renv_counters();
    assert_true(c2.bytes_paged_in - c1.bytes_paged_in >= SZ);
    /* Brought back and only read since: its backing store (the aperture pages it came from)
     * still holds it. Evicted again (LOW: the first victim), it moves into the aperture with no
     * copy: the backing store is mapped there and the memory range discarded. */
    set_priority(e, a[0], D3DDDI_ALLOCATIONPRIORITY_LOW);
    D3DKMT_HANDLE extra2 = renv_alloc(e, SWGPU_ALLOC_GPU_ONLY, SZ);
    renv_gpu_write(e, extra2, up, SZ, 92);
    renv_gpu_check(e, extra2, rb, SZ, 92);
    struct wddm_counters c3 = renv_counters();
    assert_int_equal(kpeek_where(a[0], NULL), APERTURE);
    assert_int_equal(c3.evictions - c2.evictions, 1);
    assert_int_equal(c3.bytes_paged_out, c2.bytes_paged_out);
    assert_true(aperture_pages_checksum(a[0], SZ) == pattern_checksum(SZ, 40));
    renv_gpu_check(e, a[0], rb, SZ, 40); /* and back again, by TRANSFER from the aperture */
    /* Nothing lost anywhere, through every move back and forth. */
    for (int i = 0; i < N; i++)
        renv_gpu_check(e, a[i], rb, SZ, 40 + (uint32_t)i);
    renv_gpu_check(e, extra, rb, SZ, 90);
    renv_gpu_check(e, extra2, rb, SZ, 92);
}

/* Takes every free byte of the aperture with READBACK allocations (placed by a lock, no
 * eviction set); returns how many it made. */
static int fill_aperture(struct renv *e, D3DKMT_HANDLE *fill, int max)
{
    struct dxgk_adapter *ad = NULL;
    {
        struct dxgk_device *d = dxgk_device_get(e->device);
        assert_non_null(d);
        ad = d->adapter;
        dxgk_device_put(d);
    }
    int n = 0;
    eviction_set = 0;
    for (; n < max; n++) {
        pthread_mutex_lock(&ad->lock);
        const struct vidmm_segment *s = &ad->seg[APERTURE - 1];
        UINT64 largest = free_ranges_largest(&s->holes);
        if (largest > s->limit - s->bytes_used)
            largest = s->limit - s->bytes_used;
        pthread_mutex_unlock(&ad->lock);
        if (!largest)
            break;
        fill[n] = renv_alloc(e, SWGPU_ALLOC_READBACK, largest);
        void *p;
        assert_int_equal(renv_lock(e, fill[n], 0, &p), STATUS_SUCCESS);
        renv_unlock(e, fill[n]);
        assert_int_equal(kpeek_where(fill[n], NULL), APERTURE);
    }
    pthread_mutex_lock(&ad->lock);
    assert_int_equal(ad->seg[APERTURE - 1].bytes_used, ad->seg[APERTURE - 1].limit);
    pthread_mutex_unlock(&ad->lock);
    return n;
}

/* rule: vidmm.every-aperture-set-full-eviction-goes */
/* rule: vidmm.eviction-never-causes-another-eviction (full aperture: nothing evicted from it, the eviction goes to system memory) */
static void test_eviction_into_a_full_aperture_falls_back_to_system_memory(void **state)
{
    struct renv *e = *state;
    D3DKMT_HANDLE up, rb, a[N], fill[64];
    fill_local_memory(e, &up, &rb, a, BIT(APERTURE), 60);
    int nf = fill_aperture(e, fill, 64);
    assert_true(nf >= 1);
    struct wddm_counters c0 = renv_counters();
    eviction_set = BIT(APERTURE);
    D3DKMT_HANDLE extra = renv_alloc(e, SWGPU_ALLOC_GPU_ONLY, SZ);
    renv_gpu_write(e, extra, up, SZ, 91);
    renv_gpu_check(e, extra, rb, SZ, 91);
    struct wddm_counters c1 = renv_counters();
    /* No room in the aperture and nothing evicted for an eviction: a[0] went to system memory
     * by TRANSFER, as without a set, and the aperture's occupants stayed. */
    bool ev = false;
    assert_int_equal(kpeek_where(a[0], &ev), 0);
    assert_true(ev);
    assert_int_equal(c1.evictions - c0.evictions, 1);
    assert_int_equal(c1.bytes_paged_out - c0.bytes_paged_out, SZ);
    for (int i = 0; i < nf; i++)
        assert_int_equal(kpeek_where(fill[i], NULL), APERTURE);
    renv_gpu_check(e, a[0], rb, SZ, 60); /* restored from system memory, content intact */
    for (int i = 1; i < N; i++)
        renv_gpu_check(e, a[i], rb, SZ, 60 + (uint32_t)i);
}

/* rule: kernel.evictionsegmentset-naming-segment-not */
static void test_eviction_segment_set_naming_non_aperture_segments_is_refused(void **state)
{
    struct renv *e = *state;
    D3DKMT_HANDLE h = 0;
    const UINT bad[] = { BIT(LOCAL), BIT(VISIBLE), BIT(APERTURE) | BIT(LOCAL), BIT(6), 0x80000000u };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        eviction_set = bad[k];
        assert_int_equal(renv_try_alloc(e, SWGPU_ALLOC_GPU_ONLY, SZ, &h), STATUS_INVALID_PARAMETER);
    }
    eviction_set = BIT(APERTURE);
    assert_int_equal(renv_try_alloc(e, SWGPU_ALLOC_GPU_ONLY, SZ, &h), STATUS_SUCCESS);
    assert_int_not_equal(h, 0);
}

static void pin(struct renv *e, const D3DKMT_HANDLE *h, UINT n)
{
    D3DDDI_MAKERESIDENT mr = { .hPagingQueue = e->device, .NumAllocations = n, .AllocationList = h };
    NTSTATUS st = D3DKMTMakeResident(&mr);
    assert_true(st == STATUS_SUCCESS || st == STATUS_PENDING);
}

/* rule: vidmm.d3dddi-allocationpriority-maximum-above (LRU alone would take it; HIGH goes before it; it goes once everything else is pinned by MakeResident) */
static void test_soft_pinned_allocation_is_evicted_only_after_every_lower_priority_one(void **state)
{
    struct renv *e = *state;
    D3DKMT_HANDLE up, rb, a[N];
    fill_local_memory(e, &up, &rb, a, 0, 70);
    /* a[0] is the least recently used: LRU alone would take it first. It is MAXIMUM
     * (soft-pinned), a[1] HIGH. */
    set_priority(e, a[0], D3DDDI_ALLOCATIONPRIORITY_MAXIMUM);
    set_priority(e, a[1], D3DDDI_ALLOCATIONPRIORITY_HIGH);
    D3DKMT_HANDLE x[3];
    x[0] = renv_alloc(e, SWGPU_ALLOC_GPU_ONLY, SZ);
    renv_gpu_write(e, x[0], up, SZ, 80);
    renv_gpu_check(e, x[0], rb, SZ, 80);
    assert_int_equal(kpeek_where(a[2], NULL), 0); /* the least recently used NORMAL one */
    assert_int_not_equal(kpeek_where(a[0], NULL), 0);
    assert_int_not_equal(kpeek_where(a[1], NULL), 0);
    /* Every NORMAL one pinned by MakeResident: the HIGH a[1] goes, still not a[0]. */
    D3DKMT_HANDLE normal[N - 2] = { a[3], a[4], a[5], a[6], a[7], x[0] };
    pin(e, normal, N - 2);
    x[1] = renv_alloc(e, SWGPU_ALLOC_GPU_ONLY, SZ);
    renv_gpu_write(e, x[1], up, SZ, 81);
    renv_gpu_check(e, x[1], rb, SZ, 81);
    assert_int_equal(kpeek_where(a[1], NULL), 0);
    assert_int_not_equal(kpeek_where(a[0], NULL), 0);
    /* Nothing else can make room: the soft-pinned a[0] is evicted, content saved. */
    pin(e, &x[1], 1);
    x[2] = renv_alloc(e, SWGPU_ALLOC_GPU_ONLY, SZ);
    renv_gpu_write(e, x[2], up, SZ, 82);
    renv_gpu_check(e, x[2], rb, SZ, 82);
    bool ev = false;
    assert_int_equal(kpeek_where(a[0], &ev), 0);
    assert_true(ev);
    renv_gpu_check(e, a[0], rb, SZ, 70);
    renv_gpu_check(e, a[1], rb, SZ, 71);
    renv_gpu_check(e, a[2], rb, SZ, 72);
}

#define RULE(t) cmocka_unit_test_setup_teardown(t, setup, teardown)

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "1", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "1", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "4", 1);
    const struct CMUnitTest tests[] = {
        RULE(test_eviction_segment_set_moves_the_evicted_allocation_into_the_aperture),
        RULE(test_eviction_into_a_full_aperture_falls_back_to_system_memory),
        RULE(test_eviction_segment_set_naming_non_aperture_segments_is_refused),
        RULE(test_soft_pinned_allocation_is_evicted_only_after_every_lower_priority_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
