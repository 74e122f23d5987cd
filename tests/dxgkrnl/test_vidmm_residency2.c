/* WDDM 2.x residency rules, second part (docs/semantics.md §9.2, §9.3; vidmm/makeresident.c,
 * vidmm/reservation.c): MakeResident's MustSucceed puts the device in error when it fails,
 * Evict's NotWrittenTo discards instead of copying back (only when that is safe), and
 * D3DKMTChangeVideoMemoryReservation with what D3DKMTQueryVideoMemoryInfo reports of it.
 * Against the reference KMD and the software GPU: local 1 MiB, CPU-visible 1 MiB, aperture
 * 2 MiB; content checked by checksum. */
/* rule: vidmm.d3dkmtqueryvideomemoryinfo-both-groups (the reservation's bogus hProcess, changed from `STATUS_INVALID_PARAMETER`) */
/* rule: vidmm.allocations-device-made-resident-evicted */
#include "real_env.h"

#include "dxgkrnl/objects/objects.h"
#include "kernel_peek.h"

#define KIB 1024u
#define MIB (1024u * 1024u)
#define SZ (256u * KIB)

static NTSTATUS make_resident_flags(struct renv *e, const D3DKMT_HANDLE *h, UINT n, UINT flags,
                                    D3DDDI_MAKERESIDENT *out)
{
    *out = (D3DDDI_MAKERESIDENT){ .hPagingQueue = e->device, .NumAllocations = n, .AllocationList = h };
    out->Flags.Value = flags;
    return D3DKMTMakeResident(out);
}

static void make_resident_ok(struct renv *e, const D3DKMT_HANDLE *h, UINT n)
{
    D3DDDI_MAKERESIDENT mr;
    NTSTATUS st = make_resident_flags(e, h, n, 0, &mr);
    assert_true(st == STATUS_SUCCESS || st == STATUS_PENDING);
    assert_int_equal(mr.NumAllocations, n);
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

static NTSTATUS reserve(struct renv *e, D3DKMT_MEMORY_SEGMENT_GROUP g, UINT64 bytes)
{
    D3DKMT_CHANGEVIDEOMEMORYRESERVATION r = { .hAdapter = e->adapter, .MemorySegmentGroup = g,
                                              .Reservation = bytes };
    return D3DKMTChangeVideoMemoryReservation(&r);
}

static uint64_t pattern_sum(uint32_t seed)
{
    UINT8 *p = malloc(SZ);
    assert_non_null(p);
    renv_pattern(p, SZ, seed);
    uint64_t s = renv_checksum(p, SZ);
    free(p);
    return s;
}

static void fill_upload(struct renv *e, D3DKMT_HANDLE up, uint32_t seed)
{
    void *p;
    assert_int_equal(renv_lock(e, up, LOCK_DISCARD | LOCK_WRITEONLY, &p), STATUS_SUCCESS);
    renv_pattern(p, SZ, seed);
    renv_unlock(e, up);
}

/* Checksum of src as the GPU copies it into the READBACK rb (cleared first). */
static uint64_t gpu_read_sum(struct renv *e, D3DKMT_HANDLE rb, D3DKMT_HANDLE src)
{
    void *p;
    assert_int_equal(renv_lock(e, rb, LOCK_WRITEONLY, &p), STATUS_SUCCESS);
    memset(p, 0, SZ);
    renv_unlock(e, rb);
    assert_int_equal(renv_copy(e, rb, src, SZ), STATUS_SUCCESS);
    assert_int_equal(renv_lock(e, rb, LOCK_READONLY, &p), STATUS_SUCCESS); /* waits for the copy */
    uint64_t s = renv_checksum(p, SZ);
    renv_unlock(e, rb);
    return s;
}

/* A GPU copy src -> dst whose allocation list marks src as written too (a UMD that does not know
 * better): VidMm must then assume src changed, unless the app says otherwise (NotWrittenTo). */
static void gpu_copy_src_marked_written(struct renv *e, D3DKMT_HANDLE dst, D3DKMT_HANDLE src)
{
    struct swgpu_cmd_copy c = swgpu_cmd_copy_bytes(SZ);
    memcpy(e->cc.pCommandBuffer, &c, sizeof c);
    e->cc.pAllocationList[0] = (D3DDDI_ALLOCATIONLIST){ .hAllocation = dst };
    e->cc.pAllocationList[0].WriteOperation = 1;
    e->cc.pAllocationList[1] = (D3DDDI_ALLOCATIONLIST){ .hAllocation = src };
    e->cc.pAllocationList[1].WriteOperation = 1;
    e->cc.pPatchLocationList[0] = (D3DDDI_PATCHLOCATIONLIST){
        .AllocationIndex = 0, .PatchOffset = (UINT)offsetof(struct swgpu_cmd_copy, dst.addr) };
    e->cc.pPatchLocationList[1] = (D3DDDI_PATCHLOCATIONLIST){
        .AllocationIndex = 1, .PatchOffset = (UINT)offsetof(struct swgpu_cmd_copy, src.addr) };
    D3DKMT_RENDER r = { .hContext = e->context, .CommandLength = sizeof c, .AllocationCount = 2,
                        .PatchLocationCount = 2 };
    assert_int_equal(D3DKMTRender(&r), STATUS_SUCCESS);
    void *p;
    assert_int_equal(renv_lock(e, dst, LOCK_READONLY, &p), STATUS_SUCCESS); /* the copy retired */
    renv_unlock(e, dst);
}

/* docs/semantics.md §9.2: "if the MustSucceed attempt fails the device is put in error and no
 * further submissions from any of its contexts are accepted"; without MustSucceed the failure
 * is only the atomic STATUS_NO_MEMORY with NumBytesToTrim. Another device keeps working. */
/* rule: vidmm.makeresident-mustsucceed-cannot-place (second device's copy checked by checksum) */
/* rule: vidmm.failed-mustsucceed-records-device-removed */
static void test_must_succeed_make_resident_that_fails_puts_only_its_device_in_error(void **state)
{
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, SZ);
    D3DKMT_HANDLE a[7], b[2];
    for (int i = 0; i < 7; i++)
        a[i] = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, SZ);
    for (int i = 0; i < 2; i++)
        b[i] = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, SZ);
    D3DDDI_MAKERESIDENT mr;
    /* MustSucceed that fits: an ordinary success. */
    NTSTATUS st = make_resident_flags(&e, a, 7, 0x3, &mr); /* 1.75 of 2 MiB pinned */
    assert_true(st == STATUS_SUCCESS || st == STATUS_PENDING);
    assert_int_equal(mr.NumAllocations, 7);
    assert_int_equal(renv_exec_state(e.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    /* CantTrimFurther alone that does not fit: atomic failure, the device stays usable. */
    assert_int_equal(make_resident_flags(&e, b, 2, 0x1, &mr), STATUS_NO_MEMORY);
    assert_int_equal(mr.NumAllocations, 0);
    assert_int_equal(mr.NumBytesToTrim, SZ);
    assert_int_equal(renv_exec_state(e.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    fill_upload(&e, up, 5);
    assert_int_equal(renv_copy(&e, a[0], up, SZ), STATUS_SUCCESS);
    /* MustSucceed that does not fit: the same atomic failure, and the device is in error. */
    assert_int_equal(make_resident_flags(&e, b, 2, 0x3, &mr), STATUS_NO_MEMORY);
    assert_int_equal(mr.NumAllocations, 0);
    assert_int_equal(mr.NumBytesToTrim, SZ);
    assert_int_equal(renv_exec_state(e.device), D3DKMT_DEVICEEXECUTION_ERROR_OUTOFMEMORY);
    assert_int_equal(evict(&e, &b[0], 1, 0), STATUS_INVALID_PARAMETER); /* nothing was counted */
    /* No further submission of its context is accepted, nor residency work. */
    assert_int_not_equal(renv_copy(&e, a[1], up, SZ), STATUS_SUCCESS);
    assert_int_equal(make_resident_flags(&e, &a[0], 1, 0, &mr), STATUS_DEVICE_REMOVED);
    /* Only that device: a second device on the adapter copies and reads back right. */
    struct renv f;
    renv_open(&f);
    assert_int_equal(renv_exec_state(f.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    D3DKMT_HANDLE fup = renv_alloc(&f, SWGPU_ALLOC_UPLOAD, SZ), frb = renv_alloc(&f, SWGPU_ALLOC_READBACK, SZ);
    D3DKMT_HANDLE fg = renv_alloc(&f, SWGPU_ALLOC_GPU_ONLY, SZ);
    fill_upload(&f, fup, 6);
    assert_int_equal(renv_copy(&f, fg, fup, SZ), STATUS_SUCCESS);
    assert_true(gpu_read_sum(&f, frb, fg) == pattern_sum(6));
    renv_close(&f);
    renv_close(&e);
}

/* docs/semantics.md §9.2 NotWrittenTo: "GPU didn't write since MakeResident -> VidMm may discard
 * instead of copying back". The allocation list marks it written (as a cautious UMD does); with
 * the flag the eviction copies nothing and the content is still right afterwards; without it the
 * copy happens. */
/* rule: vidmm.d3dkmtevict-notwrittento-eviction (`bytes_paged_out` delta 0 vs 256 KiB, checksums after every restore) */
/* rule: vidmm.notwrittento-taken-only-when-safe (discarded when clean; a GPU write before MakeResident still copied) */
static void test_evict_not_written_to_discards_instead_of_copying_back(void **state)
{
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, SZ), rb = renv_alloc(&e, SWGPU_ALLOC_READBACK, SZ);
    D3DKMT_HANDLE g = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, SZ);
    const uint64_t want = pattern_sum(7);
    fill_upload(&e, up, 7);
    assert_int_equal(renv_copy(&e, g, up, SZ), STATUS_SUCCESS);
    assert_true(gpu_read_sum(&e, rb, g) == want);
    /* Written by the GPU: the last Evict copies it out (its backing store is now the content). */
    make_resident_ok(&e, &g, 1);
    struct wddm_counters c0 = renv_counters();
    assert_int_equal(evict(&e, &g, 1, 0), STATUS_SUCCESS);
    assert_int_equal(kpeek_segment(g), 0);
    struct wddm_counters c1 = renv_counters();
    assert_int_equal(c1.bytes_paged_out - c0.bytes_paged_out, SZ);
    for (int flagged = 1; flagged >= 0; flagged--) {
        make_resident_ok(&e, &g, 1); /* restored from the backing store */
        assert_int_not_equal(kpeek_segment(g), 0);
        gpu_copy_src_marked_written(&e, rb, g); /* read only, but marked written */
        c0 = renv_counters();
        assert_int_equal(evict(&e, &g, 1, flagged ? 0x2u : 0u), STATUS_SUCCESS);
        assert_int_equal(kpeek_segment(g), 0);
        c1 = renv_counters();
        assert_int_equal(c1.evictions - c0.evictions, 1);
        assert_int_equal(c1.bytes_paged_out - c0.bytes_paged_out, flagged ? 0 : SZ);
        assert_true(gpu_read_sum(&e, rb, g) == want); /* restored on use, intact */
    }
    /* Written by the GPU before the MakeResident: NotWrittenTo says nothing about that write,
     * the eviction still copies it out, and the new content comes back. */
    fill_upload(&e, up, 8);
    assert_int_equal(renv_copy(&e, g, up, SZ), STATUS_SUCCESS);
    assert_true(gpu_read_sum(&e, rb, g) == pattern_sum(8));
    make_resident_ok(&e, &g, 1);
    c0 = renv_counters();
    assert_int_equal(evict(&e, &g, 1, 0x2), STATUS_SUCCESS);
    assert_int_equal(kpeek_segment(g), 0);
    c1 = renv_counters();
    assert_int_equal(c1.bytes_paged_out - c0.bytes_paged_out, SZ);
    assert_true(gpu_read_sum(&e, rb, g) == pattern_sum(8));
    renv_close(&e);
}

/* NotWrittenTo only vouches for the GPU: an allocation the CPU may have written since
 * MakeResident (a CpuVisible one, locked for writing) is still copied back, and comes back with
 * what the CPU wrote, not the older backing store. */
/* rule: vidmm.notwrittento-vouches-only-gpu-cpuvisible (upload in the CPU-visible memory segment, checksum of the CPU-written pattern after restore) */
/* rule: vidmm.notwrittento-taken-only-when-safe (CpuVisible: still copied) */
static void test_evict_not_written_to_still_copies_what_the_cpu_wrote(void **state)
{
    struct renv e;
    renv_open(&e);
    /* Fill the aperture with pinned allocations so that the CpuVisible upload lives in the
     * CPU-visible memory segment (an aperture placement's backing store is the content). */
    D3DKMT_HANDLE pins[16];
    UINT npins = 0;
    D3DDDI_MAKERESIDENT mr;
    for (; npins < 16; npins++) {
        pins[npins] = renv_alloc(&e, SWGPU_ALLOC_READBACK, SZ);
        NTSTATUS st = make_resident_flags(&e, &pins[npins], 1, 0, &mr);
        if (st == STATUS_NO_MEMORY)
            break;
        assert_true(st == STATUS_SUCCESS || st == STATUS_PENDING);
    }
    assert_true(npins >= 4 && npins < 16);
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, SZ);
    void *p;
    assert_int_equal(renv_lock(&e, up, LOCK_WRITEONLY, &p), STATUS_SUCCESS);
    renv_pattern(p, SZ, 11);
    renv_unlock(&e, up);
    assert_int_not_equal(kpeek_segment(up), 0);
    assert_false(kpeek_in_aperture(up));
    make_resident_ok(&e, &up, 1);
    assert_int_equal(evict(&e, &up, 1, 0), STATUS_SUCCESS); /* copied out: backing = pattern 11 */
    assert_int_equal(kpeek_segment(up), 0);
    make_resident_ok(&e, &up, 1); /* restored: clean at MakeResident */
    assert_false(kpeek_in_aperture(up));
    assert_int_equal(renv_lock(&e, up, 0, &p), STATUS_SUCCESS);
    renv_pattern(p, SZ, 12); /* the CPU writes after MakeResident */
    renv_unlock(&e, up);
    struct wddm_counters c0 = renv_counters();
    assert_int_equal(evict(&e, &up, 1, 0x2), STATUS_SUCCESS);
    assert_int_equal(kpeek_segment(up), 0);
    struct wddm_counters c1 = renv_counters();
    assert_int_equal(c1.bytes_paged_out - c0.bytes_paged_out, SZ);
    assert_int_equal(renv_lock(&e, up, LOCK_READONLY, &p), STATUS_SUCCESS); /* restores it */
    assert_true(renv_checksum(p, SZ) == pattern_sum(12));
    renv_unlock(&e, up);
    renv_close(&e);
}

/* docs/semantics.md §9.3: CurrentReservation / AvailableForReservation back the app-reserved
 * minimum. AvailableForReservation is half the group's Budget; above it is refused and changes
 * nothing; the reservation is per group, outlives the device, 0 clears it. */
/* rule: vidmm.d3dkmtqueryvideomemoryinfo-group-budget */
/* rule: vidmm.d3dkmtchangevideomemoryreservation */
/* rule: vidmm.reservation-half-budget-no-eviction-effect (AvailableForReservation half the Budget; a bogus hProcess refused) */
static void test_video_memory_reservation_is_reported_validated_and_cleared(void **state)
{
    struct renv e;
    renv_open(&e);
    D3DKMT_QUERYVIDEOMEMORYINFO l = query(&e, D3DKMT_MEMORY_SEGMENT_GROUP_LOCAL);
    D3DKMT_QUERYVIDEOMEMORYINFO n = query(&e, D3DKMT_MEMORY_SEGMENT_GROUP_NON_LOCAL);
    assert_int_equal(l.Budget, 2 * MIB);
    assert_int_equal(n.Budget, 2 * MIB);
    assert_int_equal(l.AvailableForReservation, MIB);
    assert_int_equal(n.AvailableForReservation, MIB);
    assert_int_equal(l.CurrentReservation, 0);
    assert_int_equal(reserve(&e, D3DKMT_MEMORY_SEGMENT_GROUP_LOCAL, 512 * KIB), STATUS_SUCCESS);
    assert_int_equal(query(&e, D3DKMT_MEMORY_SEGMENT_GROUP_LOCAL).CurrentReservation, 512 * KIB);
    assert_int_equal(query(&e, D3DKMT_MEMORY_SEGMENT_GROUP_NON_LOCAL).CurrentReservation, 0);
    /* Exactly AvailableForReservation is allowed; one byte more is refused, nothing changes. */
    assert_int_equal(reserve(&e, D3DKMT_MEMORY_SEGMENT_GROUP_NON_LOCAL, MIB), STATUS_SUCCESS);
    assert_int_equal(reserve(&e, D3DKMT_MEMORY_SEGMENT_GROUP_NON_LOCAL, MIB + 1), STATUS_INVALID_PARAMETER);
    n = query(&e, D3DKMT_MEMORY_SEGMENT_GROUP_NON_LOCAL);
    assert_int_equal(n.CurrentReservation, MIB);
    assert_true(n.Budget >= n.CurrentReservation);
    /* Usage is what the segments hold, reservation or not. */
    D3DKMT_HANDLE g = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, SZ);
    make_resident_ok(&e, &g, 1);
    assert_int_equal(query(&e, D3DKMT_MEMORY_SEGMENT_GROUP_LOCAL).CurrentUsage, l.CurrentUsage + SZ);
    assert_int_equal(evict(&e, &g, 1, 0), STATUS_SUCCESS);
    /* Per adapter for the process: a device going away does not take it along. */
    D3DKMT_DESTROYDEVICE dd = { .hDevice = e.device };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    D3DKMT_CREATEDEVICE cd = { .hAdapter = e.adapter };
    assert_int_equal(D3DKMTCreateDevice(&cd), STATUS_SUCCESS);
    e.device = cd.hDevice;
    assert_int_equal(query(&e, D3DKMT_MEMORY_SEGMENT_GROUP_LOCAL).CurrentReservation, 512 * KIB);
    /* Bad input: refused, nothing changed. */
    D3DKMT_CHANGEVIDEOMEMORYRESERVATION bad = { .hAdapter = e.adapter, .MemorySegmentGroup = 2, .Reservation = 1 };
    assert_int_equal(D3DKMTChangeVideoMemoryReservation(&bad), STATUS_INVALID_PARAMETER);
    bad = (D3DKMT_CHANGEVIDEOMEMORYRESERVATION){ .hAdapter = e.adapter, .PhysicalAdapterIndex = 1 };
    assert_int_equal(D3DKMTChangeVideoMemoryReservation(&bad), STATUS_INVALID_PARAMETER);
    bad = (D3DKMT_CHANGEVIDEOMEMORYRESERVATION){ .hAdapter = 0x777 };
    assert_int_equal(D3DKMTChangeVideoMemoryReservation(&bad), STATUS_INVALID_PARAMETER);
    /* A handle that is no process: STATUS_INVALID_HANDLE, as D3DKMTQueryVideoMemoryInfo answers
     * (Wine win32u d3dkmt tests, run on Windows). */
    bad = (D3DKMT_CHANGEVIDEOMEMORYRESERVATION){ .hAdapter = e.adapter, .hProcess = (HANDLE)(uintptr_t)0x1234 };
    assert_int_equal(D3DKMTChangeVideoMemoryReservation(&bad), STATUS_INVALID_HANDLE);
    assert_int_equal(D3DKMTChangeVideoMemoryReservation(NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(query(&e, D3DKMT_MEMORY_SEGMENT_GROUP_LOCAL).CurrentReservation, 512 * KIB);
    /* 0 clears it. */
    assert_int_equal(reserve(&e, D3DKMT_MEMORY_SEGMENT_GROUP_LOCAL, 0), STATUS_SUCCESS);
    assert_int_equal(reserve(&e, D3DKMT_MEMORY_SEGMENT_GROUP_NON_LOCAL, 0), STATUS_SUCCESS);
    assert_int_equal(query(&e, D3DKMT_MEMORY_SEGMENT_GROUP_LOCAL).CurrentReservation, 0);
    assert_int_equal(query(&e, D3DKMT_MEMORY_SEGMENT_GROUP_NON_LOCAL).CurrentReservation, 0);
    D3DKMT_DESTROYDEVICE dd2 = { .hDevice = e.device };
    assert_int_equal(D3DKMTDestroyDevice(&dd2), STATUS_SUCCESS);
    D3DKMT_CLOSEADAPTER ca = { .hAdapter = e.adapter };
    assert_int_equal(D3DKMTCloseAdapter(&ca), STATUS_SUCCESS);
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "1", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "1", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "2", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_must_succeed_make_resident_that_fails_puts_only_its_device_in_error),
        cmocka_unit_test(test_evict_not_written_to_discards_instead_of_copying_back),
        cmocka_unit_test(test_evict_not_written_to_still_copies_what_the_cpu_wrote),
        cmocka_unit_test(test_video_memory_reservation_is_reported_validated_and_cleared),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
