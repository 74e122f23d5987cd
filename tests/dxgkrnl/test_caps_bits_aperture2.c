/* DXGK_VIDMMCAPS.MapAperture2Supported (seed 003, docs/semantics.md §2.1, issue 6), against the
 * reference KMD and the software GPU: with the cap VidMm maps every aperture range with
 * DXGK_OPERATION_MAP_APERTURE_SEGMENT2 (17) and an ADL, never with MAP_APERTURE_SEGMENT (5);
 * without it only 5, and the reference KMD refuses 17. Either way the bytes the GPU reads and
 * writes through the aperture are the allocation's.
 *
 * The test's KMD wraps the reference one's DxgkDdiBuildPagingBuffer and counts the operations
 * it is given (and its DxgkDdiCreateAllocation, to name an eviction aperture when asked); without the cap it also hands every op 5 to the reference KMD again as an op 17
 * with the same pages (in a scratch buffer), which must be refused. */
#include "real_env.h"

#include <stdio.h>
#include <unistd.h>

#include <wddm/d3dkmddi.h>

#include "dxgkrnl/objects/objects.h"
#include "kernel_peek.h"
#include "kmd/kmd.h"

#define APERTURE 3u

static PDXGKDDI_BUILDPAGINGBUFFER real_build;
static atomic_int ops5, ops17, ops17_refused, ops17_accepted, adl_bad;

static NTSTATUS APIENTRY wrap_build(const HANDLE h, DXGKARG_BUILDPAGINGBUFFER *a)
{
    if (a->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT && a->MultipassOffset == 0) {
        atomic_fetch_add(&ops5, 1);
        /* The same map as an op 17: a KMD without the cap must not take it. */
        UINT8 scratch[4096];
        DXGKARG_BUILDPAGINGBUFFER b = *a;
        const DXGK_BUILDPAGINGBUFFER_MAPAPERTURESEGMENT m = a->MapApertureSegment;
        memset(&b.MapApertureSegment2, 0, sizeof b.MapApertureSegment2);
        b.Operation = DXGK_OPERATION_MAP_APERTURE_SEGMENT2;
        b.pDmaBuffer = scratch;
        b.DmaSize = sizeof scratch;
        b.MapApertureSegment2.hAllocation = m.hAllocation;
        b.MapApertureSegment2.SegmentId = m.SegmentId;
        b.MapApertureSegment2.OffsetInPages = m.OffsetInPages;
        b.MapApertureSegment2.NumberOfPages = m.NumberOfPages;
        b.MapApertureSegment2.Adl.PageCount = (UINT32)m.pMdl->PageCount;
        b.MapApertureSegment2.Adl.Pages = m.pMdl->PfnArray;
        if (real_build(h, &b) == STATUS_SUCCESS)
            atomic_fetch_add(&ops17_accepted, 1);
        else
            atomic_fetch_add(&ops17_refused, 1);
    }
    if (a->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT2 && a->MultipassOffset == 0) {
        atomic_fetch_add(&ops17, 1);
        /* The ADL describes exactly the pages mapped, and the kernel's CPU view of them. */
        const DXGK_BUILDPAGINGBUFFER_MAPAPERTURESEGMENT2 *m = &a->MapApertureSegment2;
        UINT64 first = m->Adl.Flags.Contiguous ? m->Adl.BasePageNumber : m->Adl.Pages[0];
        if (m->Adl.PageCount != m->NumberOfPages || m->AdlOffset != 0 || !m->CpuVisibleAddress ||
            first != ((uintptr_t)m->CpuVisibleAddress >> 12))
            atomic_fetch_add(&adl_bad, 1);
    }
    return real_build(h, a);
}

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
    real_build = d.DxgkDdiBuildPagingBuffer;
    d.DxgkDdiBuildPagingBuffer = wrap_build;
    d.DxgkDdiCreateAllocation = wrap_create;
    return DxgkInitialize(drv, reg, &d);
}


/* The test's environment, closed by the teardown even when an assertion jumped out of the
 * test (so that the next test starts its own adapter). */
static struct renv env;
static bool env_is_open;


static void env_open(struct renv *e)
{
    atomic_store(&ops5, 0);
    atomic_store(&ops17, 0);
    atomic_store(&ops17_refused, 0);
    atomic_store(&ops17_accepted, 0);
    atomic_store(&adl_bad, 0);
    wddm_set_kmd_entry(wrap_entry);
    renv_open_kmd(e);
    env_is_open = true;
}

static int teardown(void **state)
{
    (void)state;
    if (env_is_open) {
        wddm_swgpu_set_paused(0);
        D3DKMT_DESTROYDEVICE dd = { .hDevice = env.device };
        D3DKMTDestroyDevice(&dd);
        D3DKMT_CLOSEADAPTER ca = { .hAdapter = env.adapter };
        D3DKMTCloseAdapter(&ca);
        env_is_open = false;
    }
    wddm_set_kmd_entry(NULL);
    eviction_set = 0;
    renv_caps_remove();
    return 0;
}

enum { SZ = 64 * 1024 };

/* CPU pattern -> UPLOAD (aperture) -> GPU copy into GPU_ONLY -> GPU copy into READBACK
 * (aperture) -> CPU compare: the GPU read and wrote the aperture pages VidMm mapped. */
static void round_trip_through_the_aperture(struct renv *e)
{
    D3DKMT_HANDLE up = renv_alloc(e, SWGPU_ALLOC_UPLOAD, SZ);
    D3DKMT_HANDLE rb = renv_alloc(e, SWGPU_ALLOC_READBACK, SZ);
    D3DKMT_HANDLE dst = renv_alloc(e, SWGPU_ALLOC_GPU_ONLY, SZ);
    renv_gpu_write(e, dst, up, SZ, 0x5eed);
    renv_gpu_check(e, dst, rb, SZ, 0x5eed);
    assert_int_equal(kpeek_segment(up), APERTURE);
    assert_int_equal(kpeek_segment(rb), APERTURE);
    renv_free(e, dst);
    renv_free(e, rb);
    renv_free(e, up);
}

/* rule: vidmm.dxgk-vidmmcaps-mapaperture2supported */
/* rule: kmd.reference-kmd-implements-op-17-refuses (data round trip) */
static void map_aperture2_supported_maps_only_with_operation_17(void **state)
{
    (void)state;
    renv_caps("DXGK_VIDMMCAPS.MapAperture2Supported = 1\n");
    env_open(&env);
    round_trip_through_the_aperture(&env);
    assert_true(atomic_load(&ops17) >= 2); /* the UPLOAD and the READBACK buffer at least */
    assert_int_equal(atomic_load(&ops5), 0);
    assert_int_equal(atomic_load(&adl_bad), 0);
    renv_close(&env);
    env_is_open = false;
}

/* rule: vidmm.without-cap-only-op-5-maps */
/* rule: kmd.reference-kmd-implements-op-17-refuses (every op 5 re-offered as op 17 is refused) */
static void without_map_aperture2_supported_only_operation_5_and_17_is_refused(void **state)
{
    (void)state;
    renv_caps("DXGK_VIDMMCAPS.MapAperture2Supported = 0\n");
    env_open(&env);
    round_trip_through_the_aperture(&env);
    assert_true(atomic_load(&ops5) >= 2);
    assert_int_equal(atomic_load(&ops17), 0);
    /* The reference KMD without the cap refuses every op 17 it was offered. */
    assert_int_equal(atomic_load(&ops17_refused), atomic_load(&ops5));
    assert_int_equal(atomic_load(&ops17_accepted), 0);
    renv_close(&env);
    env_is_open = false;
}

/* The GpuMmu model too: aperture placements map with op 17 (page tables live in segment 1 and
 * are written with UPDATE_PAGE_TABLE, not mapped). */
/* rule: vidmm.dxgk-vidmmcaps-mapaperture2supported */
static void map_aperture2_supported_in_the_gpummu_model(void **state)
{
    (void)state;
    renv_gpummu_caps("DXGK_VIDMMCAPS.MapAperture2Supported = 1\n");
    struct renv e;
    env_open(&env);
    e = env;
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, SZ);
    void *p;
    assert_int_equal(renv_lock(&e, up, LOCK_WRITEONLY, &p), STATUS_SUCCESS);
    memset(p, 0xA5, SZ);
    renv_unlock(&e, up);
    assert_int_equal(renv_make_resident(e.device, &up, 1) >= 0, 1);
    assert_int_equal(kpeek_segment(up), APERTURE);
    assert_true(atomic_load(&ops17) >= 1);
    assert_int_equal(atomic_load(&ops5), 0);
    assert_int_equal(atomic_load(&adl_bad), 0);
    renv_free(&e, up);
    renv_close(&env);
    env_is_open = false;
}

/* An eviction into an aperture of the allocation's EvictionSegmentSet (vidmm/evict.c) maps
 * the backing store there with op 17 too, and the content survives the move. */
/* rule: vidmm.dxgk-vidmmcaps-mapaperture2supported */
static void map_aperture2_supported_eviction_into_the_aperture(void **state)
{
    (void)state;
    renv_caps("DXGK_VIDMMCAPS.MapAperture2Supported = 1\n");
    env_open(&env);
    enum { BIG = 256 * 1024, N = 8 }; /* N x 256 KiB fill local + visible (1 MiB each) */
    D3DKMT_HANDLE up = renv_alloc(&env, SWGPU_ALLOC_UPLOAD, BIG);
    D3DKMT_HANDLE rb = renv_alloc(&env, SWGPU_ALLOC_READBACK, BIG);
    D3DKMT_HANDLE a[N + 1];
    eviction_set = 1u << (APERTURE - 1);
    for (int i = 0; i <= N; i++) {
        a[i] = renv_alloc(&env, SWGPU_ALLOC_GPU_ONLY, BIG);
        renv_gpu_write(&env, a[i], up, BIG, 100 + (uint32_t)i);
    }
    renv_gpu_check(&env, a[N], rb, BIG, 100 + N); /* the last one evicted a[0] for its room */
    assert_int_equal(kpeek_segment(a[0]), APERTURE);
    assert_true(atomic_load(&ops17) >= 3); /* UPLOAD, READBACK, the evicted a[0] */
    assert_int_equal(atomic_load(&ops5), 0);
    assert_int_equal(atomic_load(&adl_bad), 0);
    for (int i = 0; i <= N; i++)
        renv_gpu_check(&env, a[i], rb, BIG, 100 + (uint32_t)i);
    assert_int_equal(atomic_load(&ops5), 0);
    renv_close(&env);
    env_is_open = false;
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "1", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "1", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "4", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(map_aperture2_supported_maps_only_with_operation_17, teardown),
        cmocka_unit_test_teardown(without_map_aperture2_supported_only_operation_5_and_17_is_refused, teardown),
        cmocka_unit_test_teardown(map_aperture2_supported_in_the_gpummu_model, teardown),
        cmocka_unit_test_teardown(map_aperture2_supported_eviction_into_the_aperture, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
