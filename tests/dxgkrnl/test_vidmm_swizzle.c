/* Swizzling ranges (issue 3; docs/semantics.md §3.2 AcquireAperture, rules 6 and 11; MicrosoftDocs
 * "Locking Swizzled Allocations", DxgkDdiAcquireSwizzlingRange / DxgkDdiReleaseSwizzlingRange):
 * D3DKMTLock with AcquireAperture against the mock KMD, wrapped into a KMD with a tiled memory
 * layout and DXGK_DRIVERCAPS.NumberOfSwizzlingRanges = 2 (vidmm/lock.c).
 *
 * The test KMD's layout: in a memory segment, the two 2 KiB halves of every 4 KiB page are
 * swapped (raw[j] = linear[j ^ 0x800]); the GPU reads and writes raw bytes. Its paging TRANSFER
 * between a segment and system memory swaps the halves (the KMD stores a CPU-visible allocation
 * linear in system memory, docs/semantics.md §2.4), and its swizzling range is a window holding
 * the linear form: filled from the segment at the acquire, written back at the release (the
 * software stand-in for an aperture that untiles on the fly). It learns where an allocation
 * lives from its paging operations, as a real KMD does. In an aperture segment an allocation is
 * its system pages, linear: a range over it copies without swapping (UseAlternateVA, "redirects
 * the memory access to the system memory pages"). With grow_range set it answers a range of that
 * size (UseAlternateVA lets the KMD change RangeSize); alt_next makes its next allocation
 * DXGK_ALLOCATIONINFOFLAGS.UseAlternateVA. swizzled_next makes it DXGK_ALLOCATIONINFOFLAGS.Swizzled
 * instead: such an allocation is stored linear in system memory only when a TRANSFER says
 * Unswizzle, and read back tiled only when it says Swizzle; other TRANSFERs copy the raw bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <unistd.h>

#include <wddm/d3dkmddi.h>
#include <wddm/d3dkmthk.h>

static NTSTATUS wrap_initialize(PDRIVER_OBJECT drv, PVOID reg, DRIVER_INITIALIZATION_DATA *d);
#define DxgkInitialize wrap_initialize
#include "mock_kmd.h"
#undef DxgkInitialize

#include "kernel_peek.h"

#define SEG2 0x2u /* CPU-visible memory segment */
#define SEG3 0x4u /* aperture */
#define HALF 0x800u
#define RANGES 2u

static PDXGKDDI_QUERYADAPTERINFO inner_query;
static PDXGKDDI_BUILDPAGINGBUFFER inner_paging;
static PDXGKDDI_CREATEALLOCATION inner_create;

static struct {
    struct { HANDLE kalloc; UINT8 *raw; bool linear; } where[16]; /* last placement per KMD allocation */
    struct { UINT8 *window, *raw; SIZE_T size; bool linear; } range[RANGES];
    SIZE_T grow_range;    /* non-zero: the RangeSize every acquire answers */
    bool alt_next;        /* the next allocation is created UseAlternateVA */
    bool swizzled_next;   /* the next allocation is created Swizzled */
    HANDLE swizzled[4];   /* the KMD allocations created Swizzled */
    UINT swizzles, unswizzles, raw_transfers; /* TRANSFERs of Swizzled allocations, by flag */
    UINT last_segment;    /* SegmentId of the last acquire */
    int unavailable;      /* range id answering UNAVAILABLE, -1: none */
    UINT acquires, releases;
    UINT last_private;
    UINT specials;        /* SPECIAL_LOCK_TRANSFERs built */
    DXGK_BUILDPAGINGBUFFER_SPECIAL_LOCK_TRANSFER last_special;
} kmd;

static void swap_halves(UINT8 *dst, const UINT8 *src, SIZE_T size)
{
    for (SIZE_T j = 0; j < size; j++)
        dst[j] = src[j ^ HALF];
}

static void remember(HANDLE kalloc, UINT8 *raw, bool linear)
{
    UINT free_slot = 16;
    for (UINT i = 0; i < 16; i++) {
        if (kmd.where[i].kalloc == kalloc) {
            kmd.where[i].raw = raw;
            kmd.where[i].linear = linear;
            return;
        }
        if (!kmd.where[i].kalloc && free_slot == 16)
            free_slot = i;
    }
    assert_true(free_slot < 16);
    kmd.where[free_slot].kalloc = kalloc;
    kmd.where[free_slot].raw = raw;
    kmd.where[free_slot].linear = linear;
}

static UINT8 *placement(HANDLE kalloc, bool *linear)
{
    for (UINT i = 0; i < 16; i++)
        if (kmd.where[i].kalloc == kalloc) {
            *linear = kmd.where[i].linear;
            return kmd.where[i].raw;
        }
    return NULL;
}

static NTSTATUS APIENTRY wrap_query(const HANDLE h, const DXGKARG_QUERYADAPTERINFO *q)
{
    NTSTATUS st = inner_query(h, q);
    if (NT_SUCCESS(st) && q->Type == DXGKQAITYPE_DRIVERCAPS)
        ((DXGK_DRIVERCAPS *)q->pOutputData)->NumberOfSwizzlingRanges = RANGES;
    return st;
}

/* One mock GPU copy record (the mock's paging format). */
static void emit_copy(DXGKARG_BUILDPAGINGBUFFER *a, UINT8 *dst, const UINT8 *src, UINT64 size)
{
    struct mock_pg_hdr hdr = { .op = MOCK_PG_COPY, .addr = (UINT64)(uintptr_t)dst, .size = size };
    UINT64 s64 = (UINT64)(uintptr_t)src;
    memcpy(a->pDmaBuffer, &hdr, sizeof hdr);
    memcpy((UINT8 *)a->pDmaBuffer + sizeof hdr, &s64, 8);
    a->pDmaBuffer = (UINT8 *)a->pDmaBuffer + sizeof hdr + 8;
    a->DmaSize -= (UINT)(sizeof hdr + 8);
}

static NTSTATUS APIENTRY wrap_paging(const HANDLE h, DXGKARG_BUILDPAGINGBUFFER *a)
{
    struct mock_adapter *m = h;
    if (a->Operation == DXGK_OPERATION_FILL && a->Fill.hAllocation)
        remember(a->Fill.hAllocation, mock_host(m, (UINT64)a->Fill.Destination.SegmentAddress.QuadPart), false);
    if (a->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT && a->MapApertureSegment.hAllocation)
        remember(a->MapApertureSegment.hAllocation,
                 (UINT8 *)(uintptr_t)(a->MapApertureSegment.pMdl->PfnArray[a->MapApertureSegment.MdlOffset] << 12), true);
    if (a->Operation == DXGK_OPERATION_TRANSFER && a->Transfer.Source.SegmentId == 3 &&
        a->Transfer.Destination.SegmentId && a->Transfer.Destination.SegmentId != 3) {
        /* Aperture (linear system pages: the ones its MAP named) -> memory segment (tiled), the
         * halves swapped. */
        const DXGK_BUILDPAGINGBUFFER_TRANSFER *t = &a->Transfer;
        UINT pages = (UINT)((t->TransferSize + 4095) / 4096);
        if (a->DmaSize < pages * 2 * (sizeof(struct mock_pg_hdr) + 8))
            return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
        bool linear = false;
        UINT8 *src = placement(t->hAllocation, &linear);
        UINT8 *dst = mock_host(m, (UINT64)t->Destination.SegmentAddress.QuadPart);
        if (!src || !linear || !dst)
            return STATUS_INVALID_PARAMETER;
        for (UINT k = 0; k < pages; k++) {
            emit_copy(a, dst + 4096 * k, src + 4096 * k + HALF, HALF);
            emit_copy(a, dst + 4096 * k + HALF, src + 4096 * k, HALF);
        }
        remember(t->hAllocation, dst, false);
        return STATUS_SUCCESS;
    }
    if (a->Operation == DXGK_OPERATION_SPECIAL_LOCK_TRANSFER) {
        /* A move of an allocation the CPU holds through a range: copied as a TRANSFER (tiled in
         * the segment, linear in system memory), and the range now shows the destination, so
         * the window is written back there at the release. The window itself stays the CPU's. */
        const DXGK_BUILDPAGINGBUFFER_SPECIAL_LOCK_TRANSFER *t = &a->SpecialLockTransfer;
        __atomic_fetch_add(&kmd.specials, 1, __ATOMIC_SEQ_CST); /* read while other threads run */
        kmd.last_special = *t;
        if (t->SwizzlingRangeId >= RANGES || !kmd.range[t->SwizzlingRangeId].window ||
            (t->Source.SegmentId != 0) == (t->Destination.SegmentId != 0))
            return STATUS_INVALID_PARAMETER;
        UINT pages = (UINT)((t->TransferSize + 4095) / 4096);
        if (a->DmaSize < pages * 2 * (sizeof(struct mock_pg_hdr) + 8))
            return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
        UINT8 *src = t->Source.SegmentId ? mock_host(m, (UINT64)t->Source.SegmentAddress.QuadPart)
                                         : (UINT8 *)(uintptr_t)(t->Source.pMdl->PfnArray[0] << 12);
        UINT8 *dst = t->Destination.SegmentId ? mock_host(m, (UINT64)t->Destination.SegmentAddress.QuadPart)
                                              : (UINT8 *)(uintptr_t)(t->Destination.pMdl->PfnArray[0] << 12);
        if (!src || !dst)
            return STATUS_INVALID_PARAMETER;
        for (UINT k = 0; k < pages; k++) {
            emit_copy(a, dst + 4096 * k, src + 4096 * k + HALF, HALF);
            emit_copy(a, dst + 4096 * k + HALF, src + 4096 * k, HALF);
        }
        bool linear = !t->Destination.SegmentId;
        kmd.range[t->SwizzlingRangeId].raw = dst;
        kmd.range[t->SwizzlingRangeId].linear = linear;
        remember(t->hAllocation, dst, linear);
        return STATUS_SUCCESS;
    }
    if (a->Operation != DXGK_OPERATION_TRANSFER || (a->Transfer.Source.SegmentId && a->Transfer.Destination.SegmentId))
        return inner_paging(h, a);
    bool swizzled = false;
    for (UINT i = 0; i < 4; i++)
        swizzled |= kmd.swizzled[i] && kmd.swizzled[i] == a->Transfer.hAllocation;
    if (swizzled) {
        /* Swizzled allocations: the flags say whether the form changes on the way. */
        kmd.swizzles += a->Transfer.Flags.Swizzle;
        kmd.unswizzles += a->Transfer.Flags.Unswizzle;
        if (!a->Transfer.Flags.Swizzle && !a->Transfer.Flags.Unswizzle) {
            kmd.raw_transfers++;
            if (a->Transfer.Destination.SegmentId)
                remember(a->Transfer.hAllocation,
                         mock_host(m, (UINT64)a->Transfer.Destination.SegmentAddress.QuadPart), false);
            return inner_paging(h, a);
        }
    }
    /* Segment <-> system memory: the halves are swapped on the way (tiled <-> linear). */
    const DXGK_BUILDPAGINGBUFFER_TRANSFER *t = &a->Transfer;
    UINT pages = (UINT)((t->TransferSize + 4095) / 4096);
    if (a->DmaSize < pages * 2 * (sizeof(struct mock_pg_hdr) + 8))
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    UINT8 *src = t->Source.SegmentId ? mock_host(m, (UINT64)t->Source.SegmentAddress.QuadPart)
                                     : (UINT8 *)(uintptr_t)(t->Source.pMdl->PfnArray[0] << 12);
    UINT8 *dst = t->Destination.SegmentId ? mock_host(m, (UINT64)t->Destination.SegmentAddress.QuadPart)
                                          : (UINT8 *)(uintptr_t)(t->Destination.pMdl->PfnArray[0] << 12);
    if (!src || !dst)
        return STATUS_INVALID_PARAMETER;
    if (t->Destination.SegmentId)
        remember(t->hAllocation, dst, false);
    for (UINT k = 0; k < pages; k++) {
        emit_copy(a, dst + 4096 * k, src + 4096 * k + HALF, HALF);
        emit_copy(a, dst + 4096 * k + HALF, src + 4096 * k, HALF);
    }
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY kmd_acquire(const HANDLE h, DXGKARG_ACQUIRESWIZZLINGRANGE *a)
{
    (void)h;
    if ((int)a->RangeId == kmd.unavailable)
        return STATUS_GRAPHICS_UNSWIZZLING_APERTURE_UNAVAILABLE;
    bool linear = false;
    UINT8 *raw = placement(a->hAllocation, &linear);
    if (!raw || a->RangeId >= RANGES || kmd.range[a->RangeId].window)
        return STATUS_GRAPHICS_UNSWIZZLING_APERTURE_UNSUPPORTED;
    SIZE_T size = a->RangeSize, window = kmd.grow_range ? kmd.grow_range : size;
    UINT8 *w = aligned_alloc(4096, window);
    memset(w, 0, window);
    if (linear)
        memcpy(w, raw, size);
    else
        swap_halves(w, raw, size);
    kmd.range[a->RangeId].window = w;
    kmd.range[a->RangeId].raw = raw;
    kmd.range[a->RangeId].size = size;
    kmd.range[a->RangeId].linear = linear;
    a->RangeSize = window;
    a->CPUTranslatedAddress.QuadPart = (LONGLONG)(uintptr_t)w;
    kmd.last_segment = a->SegmentId;
    kmd.acquires++;
    kmd.last_private = a->PrivateDriverData;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY kmd_release(const HANDLE h, const DXGKARG_RELEASESWIZZLINGRANGE *a)
{
    (void)h;
    if (a->RangeId >= RANGES || !kmd.range[a->RangeId].window)
        return STATUS_INVALID_PARAMETER;
    if (kmd.range[a->RangeId].linear)
        memcpy(kmd.range[a->RangeId].raw, kmd.range[a->RangeId].window, kmd.range[a->RangeId].size);
    else
        swap_halves(kmd.range[a->RangeId].raw, kmd.range[a->RangeId].window, kmd.range[a->RangeId].size);
    free(kmd.range[a->RangeId].window);
    kmd.range[a->RangeId].window = NULL;
    __atomic_fetch_add(&kmd.releases, 1, __ATOMIC_SEQ_CST);
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY wrap_create(const HANDLE h, DXGKARG_CREATEALLOCATION *a)
{
    NTSTATUS st = inner_create(h, a);
    if (NT_SUCCESS(st) && kmd.swizzled_next) {
        kmd.swizzled_next = false;
        for (UINT i = 0; i < 4; i++)
            if (!kmd.swizzled[i]) {
                a->pAllocationInfo[0].Flags.Swizzled = 1;
                kmd.swizzled[i] = a->pAllocationInfo[0].hAllocation;
                break;
            }
    }
    if (NT_SUCCESS(st) && kmd.alt_next) {
        kmd.alt_next = false;
        for (UINT i = 0; i < a->NumAllocations; i++)
            a->pAllocationInfo[i].Flags.UseAlternateVA = 1;
    }
    return st;
}

static NTSTATUS wrap_initialize(PDRIVER_OBJECT drv, PVOID reg, DRIVER_INITIALIZATION_DATA *d)
{
    inner_query = d->DxgkDdiQueryAdapterInfo;
    inner_create = d->DxgkDdiCreateAllocation;
    d->DxgkDdiCreateAllocation = wrap_create;
    inner_paging = d->DxgkDdiBuildPagingBuffer;
    d->DxgkDdiQueryAdapterInfo = wrap_query;
    d->DxgkDdiBuildPagingBuffer = wrap_paging;
    d->DxgkDdiAcquireSwizzlingRange = kmd_acquire;
    d->DxgkDdiReleaseSwizzlingRange = kmd_release;
    return DxgkInitialize(drv, reg, d);
}

#define LOCK_DONOTEVICT 0x20u

static NTSTATUS lock_pd(struct mock_env *e, D3DKMT_HANDLE h, UINT flags, UINT private_data, UINT8 **p)
{
    D3DKMT_LOCK l = { .hDevice = e->device, .hAllocation = h, .PrivateDriverData = private_data };
    l.Flags.Value = flags;
    NTSTATUS st = D3DKMTLock(&l);
    *p = l.pData;
    return st;
}

static D3DKMT_HANDLE placed(struct mock_env *e, UINT supported)
{
    D3DKMT_HANDLE a = mock_alloc(e, 4096, true, 0, 0, supported, NULL);
    assert_int_not_equal(a, 0);
    void *p;
    assert_int_equal(mock_lock(e, a, LOCK_READONLY, &p), STATUS_SUCCESS); /* placed, zero-filled */
    assert_int_equal(mock_unlock(e, a), STATUS_SUCCESS);
    return a;
}

static UINT8 pattern(UINT j)
{
    return (UINT8)(j * 7u + (j >> 8));
}

/* An AcquireAperture lock returns the KMD's range (CPUTranslatedAddress), the allocation in
 * linear form; what the CPU writes there lands tiled in the segment at the unlock (range
 * released), and a GPU write at raw offset 0 shows at linear offset 0x800 in the next view.
 * While the view is outstanding no other lock and no DMA buffer may use the allocation. */
/* rule: vidmm.acquireaperture-numberofswizzlingranges */
/* rule: vidmm.while-acquireaperture-view-outstanding */
static void test_acquire_aperture_gives_a_linear_view_the_gpu_sees_swizzled(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = placed(&e, SEG2);
    UINT8 *raw, *v;
    assert_int_equal(lock_pd(&e, a, 0, 0, &raw), STATUS_SUCCESS); /* the segment's bytes */
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    assert_int_equal(lock_pd(&e, a, LOCK_WRITEONLY | LOCK_ACQUIREAPERTURE, 7, &v), STATUS_SUCCESS);
    assert_int_equal(kmd.acquires, 1);
    assert_int_equal(kmd.last_private, 7); /* D3DDDICB_LOCK.PrivateDriverData reaches the KMD */
    assert_ptr_not_equal(v, raw);
    for (UINT j = 0; j < 4096; j++)
        v[j] = pattern(j);
    /* Rule 11: no second view, no DMA buffer while it is outstanding. */
    UINT8 *q;
    assert_int_equal(lock_pd(&e, a, LOCK_READONLY, 0, &q), STATUS_INVALID_PARAMETER);
    assert_int_equal(mock_render_write(&e, a, 1, true), STATUS_INVALID_PARAMETER);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    assert_int_equal(kmd.releases, 1);
    for (UINT j = 0; j < 4096; j++)
        assert_int_equal(raw[j], pattern(j ^ HALF)); /* tiled in the segment */
    assert_int_equal(mock_render_write(&e, a, 0xC0FFEE11u, true), STATUS_SUCCESS); /* raw offset 0 */
    assert_int_equal(lock_pd(&e, a, LOCK_READONLY | LOCK_ACQUIREAPERTURE, 0, &v), STATUS_SUCCESS);
    UINT32 w;
    memcpy(&w, v + HALF, 4);
    assert_int_equal(w, 0xC0FFEE11u);
    for (UINT j = 0; j < 4096; j++)
        if (j < HALF || j >= HALF + 4)
            assert_int_equal(v[j], pattern(j));
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    assert_int_equal(kmd.releases, 2);
    mock_close(&e);
}

/* Ranges are limited (NumberOfSwizzlingRanges 2, both held by outstanding locks): a third
 * AcquireAperture lock with DonotEvict fails with STATUS_GRAPHICS_UNSWIZZLING_APERTURE_UNAVAILABLE
 * (D3DERR_NOTAVAILABLE) without a KMD call; without DonotEvict the allocation is evicted to
 * system memory and the CPU gets it there, linear; the GPU gets it back tiled. An unlock frees
 * a range for the next lock. */
/* rule: vidmm.ranges-limited-limit-donotevict-fails */
static void test_at_the_range_limit_donotevict_fails_and_otherwise_the_lock_evicts(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = placed(&e, SEG2), b = placed(&e, SEG2), c = placed(&e, SEG2);
    UINT8 *pa, *pb, *pc, *raw;
    assert_int_equal(lock_pd(&e, a, LOCK_ACQUIREAPERTURE, 0, &pa), STATUS_SUCCESS);
    assert_int_equal(lock_pd(&e, b, LOCK_ACQUIREAPERTURE, 0, &pb), STATUS_SUCCESS);
    assert_int_equal(kmd.acquires, 2);
    assert_int_equal(lock_pd(&e, c, LOCK_ACQUIREAPERTURE | LOCK_DONOTEVICT, 0, &pc),
                     STATUS_GRAPHICS_UNSWIZZLING_APERTURE_UNAVAILABLE);
    assert_int_equal(kmd.acquires, 2);
    assert_int_not_equal(kpeek_segment(c), 0); /* DonotEvict: left where it was */
    assert_int_equal(lock_pd(&e, c, LOCK_WRITEONLY | LOCK_ACQUIREAPERTURE, 0, &pc), STATUS_SUCCESS);
    assert_int_equal(kmd.acquires, 2);
    assert_int_equal(kpeek_segment(c), 0); /* evicted: the view is its system-memory copy */
    for (UINT j = 0; j < 4096; j++)
        pc[j] = pattern(j);
    assert_int_equal(mock_unlock(&e, c), STATUS_SUCCESS);
    assert_int_equal(kmd.releases, 0);
    assert_int_equal(lock_pd(&e, c, LOCK_READONLY, 0, &raw), STATUS_SUCCESS); /* paged back in */
    assert_int_equal(kpeek_segment(c), 2);
    for (UINT j = 0; j < 4096; j++)
        assert_int_equal(raw[j], pattern(j ^ HALF));
    assert_int_equal(mock_unlock(&e, c), STATUS_SUCCESS);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    assert_int_equal(kmd.releases, 1);
    assert_int_equal(lock_pd(&e, c, LOCK_READONLY | LOCK_ACQUIREAPERTURE | LOCK_DONOTEVICT, 0, &pc), STATUS_SUCCESS);
    assert_int_equal(kmd.acquires, 3);
    for (UINT j = 0; j < 4096; j++)
        assert_int_equal(pc[j], pattern(j));
    assert_int_equal(mock_unlock(&e, c), STATUS_SUCCESS);
    assert_int_equal(mock_unlock(&e, b), STATUS_SUCCESS);
    assert_int_equal(kmd.releases, 3);
    mock_close(&e);
}

/* A range the KMD answers UNAVAILABLE for is skipped for the next free one; when every free
 * range is unavailable the lock is at the limit (DonotEvict: UNAVAILABLE). */
/* rule: vidmm.range-kmd-answers-status-graphics */
static void test_a_range_the_kmd_cannot_program_is_skipped(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = placed(&e, SEG2), b = placed(&e, SEG2);
    kmd.unavailable = 0;
    UINT8 *pa, *pb;
    assert_int_equal(lock_pd(&e, a, LOCK_ACQUIREAPERTURE, 0, &pa), STATUS_SUCCESS);
    assert_ptr_equal(pa, kmd.range[1].window);
    assert_int_equal(lock_pd(&e, b, LOCK_ACQUIREAPERTURE | LOCK_DONOTEVICT, 0, &pb),
                     STATUS_GRAPHICS_UNSWIZZLING_APERTURE_UNAVAILABLE);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    mock_close(&e);
}

/* docs/semantics.md §3.2 rules 6, 11: AcquireAperture on an allocation that can only live in an
 * aperture, or that is already locked, is refused; destroying an allocation whose view is
 * outstanding gives its range back. */
/* rule: vidmm.while-acquireaperture-view-outstanding */
/* rule: vidmm.destroying-allocation-whose */
static void test_acquire_aperture_refusals_and_destruction(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE ap = placed(&e, SEG3), a = placed(&e, SEG2);
    UINT8 *p;
    assert_int_equal(lock_pd(&e, ap, LOCK_ACQUIREAPERTURE, 0, &p), STATUS_INVALID_PARAMETER);
    assert_int_equal(lock_pd(&e, a, LOCK_READONLY, 0, &p), STATUS_SUCCESS);
    assert_int_equal(lock_pd(&e, a, LOCK_READONLY | LOCK_ACQUIREAPERTURE, 0, &p), STATUS_INVALID_PARAMETER);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    assert_int_equal(lock_pd(&e, a, LOCK_USEALTERNATEVA, 0, &p), STATUS_INVALID_PARAMETER); /* rule 3 */
    assert_int_equal(kmd.acquires, 0);
    assert_int_equal(lock_pd(&e, a, LOCK_ACQUIREAPERTURE, 0, &p), STATUS_SUCCESS);
    assert_int_equal(mock_free(&e, a), STATUS_SUCCESS);
    assert_int_equal(kmd.releases, 1);
    mock_close(&e);
}

/* D3DDDICB_LOCKFLAGS.UseAlternateVA: the KMD may give a view of another footprint (RangeSize),
 * which VidMm refuses without the flag; an allocation resident in an aperture segment is locked
 * through a range where it is ("redirects the memory access to the system memory pages"); what
 * the CPU writes there is the allocation's content after the unlock. */
/* rule: vidmm.usealternateva-kmd-may-change-rangesize */
static void test_use_alternate_va_may_change_the_range_and_reach_an_aperture(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = placed(&e, SEG2);
    UINT8 *p;
    kmd.grow_range = 8192;
    assert_int_equal(lock_pd(&e, a, LOCK_ACQUIREAPERTURE, 0, &p), STATUS_UNSUCCESSFUL); /* verifier */
    assert_int_equal(kmd.releases, 1); /* the refused range was given back */
    assert_int_equal(lock_pd(&e, a, LOCK_WRITEONLY | LOCK_ACQUIREAPERTURE | LOCK_USEALTERNATEVA, 0, &p),
                     STATUS_SUCCESS);
    assert_int_equal(kmd.last_segment, 2);
    for (UINT j = 0; j < 8192; j++) /* the whole footprint the KMD answered is the CPU's */
        p[j] = pattern(j);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    kmd.grow_range = 0;

    /* Supported in memory and aperture, preferring the aperture: resident there. */
    D3DKMT_HANDLE ap = mock_alloc(&e, 4096, true, 0, 3, SEG2 | SEG3, NULL);
    assert_int_equal(lock_pd(&e, ap, LOCK_READONLY, 0, &p), STATUS_SUCCESS);
    assert_int_equal(mock_unlock(&e, ap), STATUS_SUCCESS);
    assert_int_equal(kpeek_segment(ap), 3);
    UINT acquires = kmd.acquires;
    assert_int_equal(lock_pd(&e, ap, LOCK_WRITEONLY | LOCK_ACQUIREAPERTURE | LOCK_USEALTERNATEVA, 0, &p),
                     STATUS_SUCCESS);
    assert_int_equal(kmd.acquires, acquires + 1);
    assert_int_equal(kmd.last_segment, 3);
    for (UINT j = 0; j < 4096; j++)
        p[j] = pattern(j);
    UINT8 *q;
    assert_int_equal(lock_pd(&e, ap, LOCK_READONLY, 0, &q), STATUS_INVALID_PARAMETER); /* locked with it: once */
    assert_int_equal(mock_unlock(&e, ap), STATUS_SUCCESS);
    assert_int_equal(lock_pd(&e, ap, LOCK_READONLY, 0, &q), STATUS_SUCCESS);
    for (UINT j = 0; j < 4096; j++)
        assert_int_equal(q[j], pattern(j));
    assert_int_equal(mock_unlock(&e, ap), STATUS_SUCCESS);
    mock_close(&e);
}

/* Locking Swizzled Allocations, case 2: without UseAlternateVA, an AcquireAperture lock of an
 * allocation resident in an aperture segment, or evicted, first pages it into a memory segment
 * (the KMD's range is over memory-segment bytes: SegmentId 2), and the view shows its content. */
/* rule: vidmm.locking-swizzled-allocations-case-2 (mutation-checked) */
static void test_acquire_aperture_pages_an_aperture_or_evicted_allocation_into_memory_first(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE ap = mock_alloc(&e, 4096, true, 0, 3, SEG2 | SEG3, NULL);
    UINT8 *p;
    assert_int_equal(lock_pd(&e, ap, LOCK_WRITEONLY, 0, &p), STATUS_SUCCESS);
    assert_int_equal(kpeek_segment(ap), 3);
    for (UINT j = 0; j < 4096; j++)
        p[j] = pattern(j);
    assert_int_equal(mock_unlock(&e, ap), STATUS_SUCCESS);
    assert_int_equal(lock_pd(&e, ap, LOCK_READONLY | LOCK_ACQUIREAPERTURE, 0, &p), STATUS_SUCCESS);
    assert_int_equal(kpeek_segment(ap), 2);
    assert_int_equal(kmd.last_segment, 2);
    for (UINT j = 0; j < 4096; j++)
        assert_int_equal(p[j], pattern(j));
    assert_int_equal(mock_unlock(&e, ap), STATUS_SUCCESS);

    /* Evicted (its content in system memory, linear): placed in a memory segment, not the
     * aperture it prefers. */
    D3DKMT_HANDLE ev = mock_alloc(&e, 4096, true, 0, 3, SEG2 | SEG3, NULL);
    assert_int_equal(lock_pd(&e, ev, LOCK_WRITEONLY, 0, &p), STATUS_SUCCESS);
    for (UINT j = 0; j < 4096; j++)
        p[j] = pattern(j + 1);
    assert_int_equal(mock_unlock(&e, ev), STATUS_SUCCESS);
    D3DDDI_MAKERESIDENT mr = { .hPagingQueue = e.device, .NumAllocations = 1, .AllocationList = &ev };
    NTSTATUS st = D3DKMTMakeResident(&mr);
    assert_true(st == STATUS_SUCCESS || st == STATUS_PENDING);
    D3DKMT_EVICT ek = { .hDevice = e.device, .NumAllocations = 1, .AllocationList = &ev };
    assert_int_equal(D3DKMTEvict(&ek), STATUS_SUCCESS); /* the last reference: paged out */
    assert_int_equal(kpeek_segment(ev), 0);
    assert_int_equal(lock_pd(&e, ev, LOCK_READONLY | LOCK_ACQUIREAPERTURE, 0, &p), STATUS_SUCCESS);
    assert_int_equal(kpeek_segment(ev), 2);
    for (UINT j = 0; j < 4096; j++)
        assert_int_equal(p[j], pattern(j + 1));
    assert_int_equal(mock_unlock(&e, ev), STATUS_SUCCESS);
    mock_close(&e);
}

/* At the range limit a UseAlternateVA lock fails (no other view to fall back to) and leaves the
 * allocation where it was, DonotEvict or not. */
/* rule: vidmm.range-limit-usealternateva-lock-fails */
static void test_use_alternate_va_at_the_range_limit_fails_without_evicting(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = placed(&e, SEG2), b = placed(&e, SEG2), c = placed(&e, SEG2);
    UINT8 *pa, *pb, *pc;
    assert_int_equal(lock_pd(&e, a, LOCK_ACQUIREAPERTURE, 0, &pa), STATUS_SUCCESS);
    assert_int_equal(lock_pd(&e, b, LOCK_ACQUIREAPERTURE, 0, &pb), STATUS_SUCCESS);
    assert_int_equal(lock_pd(&e, c, LOCK_ACQUIREAPERTURE | LOCK_USEALTERNATEVA, 0, &pc),
                     STATUS_GRAPHICS_UNSWIZZLING_APERTURE_UNAVAILABLE);
    assert_int_equal(kpeek_segment(c), 2);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    assert_int_equal(mock_unlock(&e, b), STATUS_SUCCESS);
    mock_close(&e);
}

/* The lock that pins a whole memory segment: a plain lock of an allocation as large as SEG2,
 * which needs every other allocation there out. */
static NTSTATUS lock_whole_segment(struct mock_env *e, D3DKMT_HANDLE *big)
{
    *big = mock_alloc(e, MOCK_SEG2_SIZE, true, 0, 0, SEG2, NULL);
    assert_int_not_equal(*big, 0);
    UINT8 *p;
    return lock_pd(e, *big, LOCK_READONLY, 0, &p);
}

/* D3DDDICB_LOCKFLAGS.UseAlternateVA without DonotEvict: VidMm may move the allocation while the
 * CPU holds it ("the allocation is not accessible to the CPU and is being evicted" ... "being
 * paged in after it was evicted while under lock"; Locking Swizzled Allocations: "it can still
 * be evicted before the user-mode display driver terminates the CPU access ... invisible to the
 * application"). The move is DXGK_OPERATION_SPECIAL_LOCK_TRANSFER ("transferred from or to the
 * alternate virtual address"): the TRANSFER fields plus SwizzlingRangeId and SwizzlingRangeData
 * (the lock's range and PrivateDriverData). The CPU's pointer keeps showing the content, what
 * it writes after the move is the content after the unlock, and the GPU's next use gets it back
 * tiled. */
/* rule: vidmm.dxgk-operation-special-lock-transfer */
static void test_use_alternate_va_lock_moves_by_special_lock_transfer(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = placed(&e, SEG2);
    UINT8 *p, *raw;
    assert_int_equal(lock_pd(&e, a, LOCK_ACQUIREAPERTURE | LOCK_USEALTERNATEVA, 9, &p), STATUS_SUCCESS);
    for (UINT j = 0; j < 4096; j++)
        p[j] = pattern(j);
    D3DKMT_HANDLE big;
    assert_int_equal(lock_whole_segment(&e, &big), STATUS_SUCCESS); /* a had to leave SEG2 */
    assert_int_equal(kpeek_segment(a), 0);
    assert_int_equal(kmd.specials, 1);
    const DXGK_BUILDPAGINGBUFFER_SPECIAL_LOCK_TRANSFER *t = &kmd.last_special;
    assert_int_equal(t->SwizzlingRangeId, 0);
    assert_int_equal(t->SwizzlingRangeData, 9);
    assert_int_equal(t->Source.SegmentId, 2);
    assert_int_equal(t->Destination.SegmentId, 0);
    assert_non_null(t->Destination.pMdl);
    assert_int_equal(t->TransferOffset, 0);
    assert_int_equal(t->TransferSize, 4096);
    assert_true(t->Flags.TransferStart && t->Flags.TransferEnd && !t->Flags.Swizzle && !t->Flags.Unswizzle);
    for (UINT j = 0; j < 4096; j++) /* the same pointer, the same content */
        assert_int_equal(p[j], pattern(j));
    for (UINT j = 0; j < 16; j++)
        p[j] = 0xA5; /* written after the move */
    assert_int_equal(kmd.releases, 0);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    assert_int_equal(kmd.releases, 1);
    assert_int_equal(mock_unlock(&e, big), STATUS_SUCCESS);
    assert_int_equal(mock_free(&e, big), STATUS_SUCCESS);
    /* The GPU's next use restores it (an ordinary TRANSFER: the lock is over), tiled. */
    assert_int_equal(mock_render_write(&e, a, 0x600Du, true), STATUS_SUCCESS); /* raw offset 0 */
    assert_int_equal(lock_pd(&e, a, LOCK_READONLY, 0, &raw), STATUS_SUCCESS);
    assert_int_equal(kpeek_segment(a), 2);
    assert_int_equal(kmd.specials, 1);
    UINT32 w;
    memcpy(&w, raw, 4);
    assert_int_equal(w, 0x600Du);
    for (UINT j = 4; j < 4096; j++)
        assert_int_equal(raw[j], (j ^ HALF) < 16 ? 0xA5 : pattern(j ^ HALF));
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    mock_close(&e);
}

/* The unlock of a lock whose allocation moved under it gives the range back only once the
 * SPECIAL_LOCK_TRANSFER ran (vidmm/lock.c D3DKMTUnlock), so nothing the CPU wrote through the
 * range reaches the allocation before the copy (Locking Swizzled Allocations: the eviction is
 * invisible to the application). With the GPU paused: the move is built, a lock that needs the
 * room waits, and so does the unlock, with the range still held; both end when the GPU runs. */
struct unlock_job { struct mock_env *e; D3DKMT_HANDLE h; NTSTATUS st; atomic_bool done; D3DKMT_HANDLE big; };

static void *unlock_thread(void *arg)
{
    struct unlock_job *j = arg;
    j->st = mock_unlock(j->e, j->h);
    atomic_store(&j->done, true);
    return NULL;
}

static void *lock_big_thread(void *arg)
{
    struct unlock_job *j = arg;
    j->st = lock_whole_segment(j->e, &j->big);
    atomic_store(&j->done, true);
    return NULL;
}

/* rule: vidmm.dxgk-operation-special-lock-transfer (the GPU paused: the unlock waits with the range held until the move ran; mutation-checked: no wait in D3DKMTUnlock) */
static void test_the_unlock_keeps_the_range_until_the_move_ran(void **state)
{
    (void)state;
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = placed(&e, SEG2);
    UINT8 *p;
    assert_int_equal(lock_pd(&e, a, LOCK_ACQUIREAPERTURE | LOCK_USEALTERNATEVA, 9, &p), STATUS_SUCCESS);
    for (UINT j = 0; j < 4096; j++)
        p[j] = pattern(j);
    atomic_store(&mock.paused, true);
    struct unlock_job big = {.e = &e}, un = {.e = &e, .h = a};
    atomic_init(&big.done, false);
    atomic_init(&un.done, false);
    pthread_t tb, tu;
    assert_int_equal(pthread_create(&tb, NULL, lock_big_thread, &big), 0);
    for (int i = 0; i < 2000 && !__atomic_load_n(&kmd.specials, __ATOMIC_SEQ_CST); i++) /* built, not run */
        usleep(1000);
    assert_int_equal(__atomic_load_n(&kmd.specials, __ATOMIC_SEQ_CST), 1);
    assert_int_equal(pthread_create(&tu, NULL, unlock_thread, &un), 0);
    usleep(50000);
    assert_false(atomic_load(&un.done));                                 /* waits for the copy */
    assert_int_equal(__atomic_load_n(&kmd.releases, __ATOMIC_SEQ_CST), 0); /* the range still held */
    atomic_store(&mock.paused, false);
    pthread_join(tu, NULL);
    pthread_join(tb, NULL);
    assert_int_equal(un.st, STATUS_SUCCESS);
    assert_int_equal(big.st, STATUS_SUCCESS);
    assert_int_equal(kmd.releases, 1);
    assert_int_equal(kpeek_segment(a), 0);
    assert_int_equal(mock_unlock(&e, big.big), STATUS_SUCCESS);
    assert_int_equal(mock_free(&e, big.big), STATUS_SUCCESS);
    mock_close(&e);
}

/* Under the same lock, D3DKMTMakeResident brings it back (no DMA buffer may name it, rule 11):
 * a SPECIAL_LOCK_TRANSFER from system memory, and the range follows it into the segment. */
/* rule: vidmm.dxgk-operation-special-lock-transfer */
static void test_a_move_back_under_the_lock_is_a_special_lock_transfer_too(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = placed(&e, SEG2);
    UINT8 *p, *raw;
    assert_int_equal(lock_pd(&e, a, LOCK_ACQUIREAPERTURE | LOCK_USEALTERNATEVA, 3, &p), STATUS_SUCCESS);
    for (UINT j = 0; j < 4096; j++)
        p[j] = pattern(j + 5);
    D3DKMT_HANDLE big;
    assert_int_equal(lock_whole_segment(&e, &big), STATUS_SUCCESS);
    assert_int_equal(kpeek_segment(a), 0);
    assert_int_equal(mock_unlock(&e, big), STATUS_SUCCESS);
    assert_int_equal(mock_free(&e, big), STATUS_SUCCESS);
    D3DDDI_MAKERESIDENT mr = { .hPagingQueue = e.device, .NumAllocations = 1, .AllocationList = &a };
    NTSTATUS st = D3DKMTMakeResident(&mr);
    assert_true(st == STATUS_SUCCESS || st == STATUS_PENDING);
    assert_int_equal(kpeek_segment(a), 2);
    assert_int_equal(kmd.specials, 2);
    const DXGK_BUILDPAGINGBUFFER_SPECIAL_LOCK_TRANSFER *t = &kmd.last_special;
    assert_int_equal(t->SwizzlingRangeData, 3);
    assert_int_equal(t->Source.SegmentId, 0);
    assert_int_equal(t->Destination.SegmentId, 2);
    p[0] = 0x5A;
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    /* Evicted again, lock over: what the CPU wrote through the range in the segment is copied
     * out (not discarded as if the backing store still held it), then restored. */
    D3DKMT_EVICT ek = { .hDevice = e.device, .NumAllocations = 1, .AllocationList = &a };
    assert_int_equal(D3DKMTEvict(&ek), STATUS_SUCCESS);
    assert_int_equal(kpeek_segment(a), 0);
    assert_int_equal(lock_pd(&e, a, LOCK_READONLY, 0, &raw), STATUS_SUCCESS);
    assert_int_equal(kpeek_segment(a), 2);
    assert_int_equal(raw[HALF], 0x5A); /* linear offset 0 is raw 0x800 */
    for (UINT j = 1; j < 4096; j++)
        assert_int_equal(raw[j ^ HALF], pattern(j + 5));
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    mock_close(&e);
}

/* Even when its backing store already holds its content (restored, then locked ReadOnly), a
 * move under the lock is a SPECIAL_LOCK_TRANSFER, never a DISCARD_CONTENT: the KMD must point
 * the range at the destination, and only that operation says so. */
/* rule: vidmm.dxgk-operation-special-lock-transfer */
static void test_a_clean_allocation_held_through_the_range_is_still_transferred(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = placed(&e, SEG2);
    UINT8 *p;
    assert_int_equal(lock_pd(&e, a, LOCK_WRITEONLY, 0, &p), STATUS_SUCCESS);
    for (UINT j = 0; j < 4096; j++)
        p[j] = pattern(j + 9);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    D3DDDI_MAKERESIDENT mr = { .hPagingQueue = e.device, .NumAllocations = 1, .AllocationList = &a };
    NTSTATUS st = D3DKMTMakeResident(&mr);
    assert_true(st == STATUS_SUCCESS || st == STATUS_PENDING);
    D3DKMT_EVICT ek = { .hDevice = e.device, .NumAllocations = 1, .AllocationList = &a };
    assert_int_equal(D3DKMTEvict(&ek), STATUS_SUCCESS); /* copied out: the backing store is the content */
    assert_int_equal(lock_pd(&e, a, LOCK_READONLY | LOCK_ACQUIREAPERTURE | LOCK_USEALTERNATEVA, 0, &p),
                     STATUS_SUCCESS); /* restored: still clean, and a ReadOnly lock keeps it so */
    assert_int_equal(kpeek_segment(a), 2);
    D3DKMT_HANDLE big;
    assert_int_equal(lock_whole_segment(&e, &big), STATUS_SUCCESS);
    assert_int_equal(kpeek_segment(a), 0);
    assert_int_equal(kmd.specials, 1);
    for (UINT j = 0; j < 4096; j++) /* a plain lock wrote the segment's bytes: the view swaps them */
        assert_int_equal(p[j], pattern((j ^ HALF) + 9));
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    assert_int_equal(mock_unlock(&e, big), STATUS_SUCCESS);
    mock_close(&e);
}

/* Taking everything out of the segments (wddm_test_vidmm_trim: the walk a power transition
 * uses too, vidmm/purge.c) moves an allocation a UseAlternateVA lock holds, by
 * SPECIAL_LOCK_TRANSFER, and leaves one locked with DonotEvict where it is. */
/* rule: vidmm.dxgk-operation-special-lock-transfer */
static void test_a_trim_moves_a_use_alternate_va_lock_and_keeps_a_donotevict_one(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = placed(&e, SEG2), b = placed(&e, SEG2);
    UINT8 *pa, *pb;
    assert_int_equal(lock_pd(&e, a, LOCK_ACQUIREAPERTURE | LOCK_USEALTERNATEVA, 1, &pa), STATUS_SUCCESS);
    assert_int_equal(lock_pd(&e, b, LOCK_ACQUIREAPERTURE | LOCK_USEALTERNATEVA | LOCK_DONOTEVICT, 2, &pb),
                     STATUS_SUCCESS);
    for (UINT j = 0; j < 4096; j++)
        pa[j] = pattern(j + 3);
    assert_int_equal(wddm_test_vidmm_trim(e.adapter, NULL), STATUS_SUCCESS);
    assert_int_equal(kpeek_segment(a), 0);
    assert_int_equal(kpeek_segment(b), 2);
    assert_int_equal(kmd.specials, 1);
    assert_int_equal(kmd.last_special.SwizzlingRangeData, 1);
    for (UINT j = 0; j < 4096; j++)
        assert_int_equal(pa[j], pattern(j + 3));
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    assert_int_equal(mock_unlock(&e, b), STATUS_SUCCESS);
    mock_close(&e);
}

/* A lock that did not allow a move keeps the allocation where it is: UseAlternateVA with
 * DonotEvict, or a plain AcquireAperture view (whose range is over the segment bytes); the
 * segment cannot be emptied for another, and nothing is transferred. */
/* rule: vidmm.dxgk-operation-special-lock-transfer (mutation-checked: locked instances never movable; the move a plain TRANSFER; the move back a plain TRANSFER; DonotEvict ignored; a restore under the lock left clean; a clean instance discarded; the segment walk skipping every locked instance) */
/* rule: vidmm.lock-donotevict-without-usealternateva */
static void test_donotevict_or_a_plain_acquire_aperture_lock_holds_the_allocation_in_place(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    static const UINT flags[2] = { LOCK_ACQUIREAPERTURE | LOCK_USEALTERNATEVA | LOCK_DONOTEVICT, LOCK_ACQUIREAPERTURE };
    for (UINT k = 0; k < 2; k++) {
        D3DKMT_HANDLE a = placed(&e, SEG2);
        UINT8 *p;
        assert_int_equal(lock_pd(&e, a, flags[k], 0, &p), STATUS_SUCCESS);
        D3DKMT_HANDLE big;
        assert_int_equal(lock_whole_segment(&e, &big), STATUS_NO_MEMORY);
        assert_int_equal(kpeek_segment(a), 2);
        assert_int_equal(kmd.specials, 0);
        assert_int_equal(mock_free(&e, big), STATUS_SUCCESS);
        assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
        assert_int_equal(mock_free(&e, a), STATUS_SUCCESS);
    }
    mock_close(&e);
}

static NTSTATUS create_primary(struct mock_env *e, D3DKMT_HANDLE *h)
{
    struct mock_alloc_priv p = { .magic = MOCK_ALLOC_MAGIC, .size = 4096, .cpu_visible = true, .supported = SEG2 };
    D3DDDI_ALLOCATIONINFO ai = { .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p, .VidPnSourceId = 0 };
    ai.Flags.Primary = 1;
    D3DKMT_CREATEALLOCATION ca = { .hDevice = e->device, .NumAllocations = 1, .pAllocationInfo = &ai };
    NTSTATUS st = D3DKMTCreateAllocation(&ca);
    *h = ai.hAllocation;
    return st;
}

/* Rule 7: a primary uses UseAlternateVA exactly when the KMD created it with
 * DXGK_ALLOCATIONINFOFLAGS.UseAlternateVA ("can only be locked with the UseAlternateVA flag"). */
/* rule: vidmm.rule-7-usealternateva-refused-shared */
static void test_use_alternate_va_on_a_primary_follows_its_creation_flag(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE plain, alt;
    assert_int_equal(create_primary(&e, &plain), STATUS_SUCCESS);
    kmd.alt_next = true;
    assert_int_equal(create_primary(&e, &alt), STATUS_SUCCESS);
    UINT8 *p;
    assert_int_equal(lock_pd(&e, plain, LOCK_READONLY, 0, &p), STATUS_SUCCESS); /* placed */
    assert_int_equal(mock_unlock(&e, plain), STATUS_SUCCESS);
    assert_int_equal(lock_pd(&e, plain, LOCK_ACQUIREAPERTURE | LOCK_USEALTERNATEVA, 0, &p), STATUS_INVALID_PARAMETER);
    assert_int_equal(lock_pd(&e, alt, LOCK_READONLY, 0, &p), STATUS_INVALID_PARAMETER);
    assert_int_equal(lock_pd(&e, alt, LOCK_ACQUIREAPERTURE, 0, &p), STATUS_INVALID_PARAMETER);
    assert_int_equal(kmd.acquires, 0);
    assert_int_equal(lock_pd(&e, alt, LOCK_READONLY | LOCK_ACQUIREAPERTURE | LOCK_USEALTERNATEVA, 0, &p),
                     STATUS_SUCCESS);
    assert_int_equal(kmd.acquires, 1);
    assert_int_equal(mock_unlock(&e, alt), STATUS_SUCCESS);
    mock_close(&e);
}

/* Rule 7: "UseAlternateVA cannot be used on a shared allocation". */
/* rule: vidmm.rule-7-usealternateva-refused-shared */
static void test_use_alternate_va_on_a_shared_allocation_is_refused(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    struct mock_alloc_priv p = { .magic = MOCK_ALLOC_MAGIC, .size = 4096, .cpu_visible = true, .supported = SEG2 };
    D3DDDI_ALLOCATIONINFO ai = { .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p };
    D3DKMT_CREATEALLOCATION ca = { .hDevice = e.device, .NumAllocations = 1, .pAllocationInfo = &ai };
    ca.Flags.CreateResource = 1;
    ca.Flags.CreateShared = 1;
    assert_int_equal(D3DKMTCreateAllocation(&ca), STATUS_SUCCESS);
    UINT8 *q;
    assert_int_equal(lock_pd(&e, ai.hAllocation, LOCK_READONLY, 0, &q), STATUS_SUCCESS); /* placed */
    assert_int_equal(mock_unlock(&e, ai.hAllocation), STATUS_SUCCESS);
    assert_int_equal(lock_pd(&e, ai.hAllocation, LOCK_ACQUIREAPERTURE | LOCK_USEALTERNATEVA, 0, &q),
                     STATUS_INVALID_PARAMETER);
    assert_int_equal(kmd.acquires, 0);
    assert_int_equal(lock_pd(&e, ai.hAllocation, LOCK_ACQUIREAPERTURE, 0, &q), STATUS_SUCCESS); /* without: fine */
    assert_int_equal(mock_unlock(&e, ai.hAllocation), STATUS_SUCCESS);
    mock_close(&e);
}

/* Locking Swizzled Allocations for an allocation the KMD created Swizzled: an ordinary eviction
 * keeps it swizzled (a raw TRANSFER); at the range limit (no DonotEvict) VidMm evicts it asking
 * the KMD to unswizzle, and the CPU gets the linear form in system memory; locked again while it
 * is still evicted, it is handed out at once (case 3: no paging, no range); the GPU's next use
 * restores it into the memory segment with Swizzle, tiled again. IgnoreSync on it is refused. */
/* rule: vidmm.allocations-kmd-creates-swizzled-vidmm (mutation-checked: no Unswizzle, no Swizzle, no case 3, no IgnoreSync refusal, Unswizzle on every eviction) */
static void test_a_swizzled_allocation_is_unswizzled_only_at_the_range_limit_and_swizzled_back(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    kmd.swizzled_next = true;
    D3DKMT_HANDLE s = placed(&e, SEG2);
    D3DKMT_HANDLE a = placed(&e, SEG2), b = placed(&e, SEG2);
    UINT8 *ps, *pa, *pb, *raw;
    assert_int_equal(lock_pd(&e, s, LOCK_IGNORESYNC | LOCK_DONOTWAIT, 0, &ps), STATUS_INVALID_PARAMETER);
    /* The GPU writes its tiled form: word W at raw offset 0 (linear offset 0x800). */
    assert_int_equal(mock_render_write(&e, s, 0xABCD1234u, true), STATUS_SUCCESS);
    /* An ordinary eviction (the whole segment wanted by another) keeps the tiled form. */
    D3DKMT_HANDLE big = mock_alloc(&e, MOCK_SEG2_SIZE, true, 0, 0, SEG2, NULL);
    assert_int_equal(lock_pd(&e, big, LOCK_READONLY, 0, &raw), STATUS_SUCCESS);
    assert_int_equal(kpeek_segment(s), 0);
    assert_int_equal(kmd.raw_transfers, 1);
    assert_int_equal(kmd.unswizzles, 0);
    assert_int_equal(mock_unlock(&e, big), STATUS_SUCCESS);
    assert_int_equal(mock_free(&e, big), STATUS_SUCCESS);
    assert_int_equal(lock_pd(&e, a, LOCK_ACQUIREAPERTURE, 0, &pa), STATUS_SUCCESS);
    assert_int_equal(lock_pd(&e, b, LOCK_ACQUIREAPERTURE, 0, &pb), STATUS_SUCCESS);
    /* Both ranges held: the lock pages it in (case 2, raw), then evicts it unswizzled. */
    assert_int_equal(lock_pd(&e, s, LOCK_ACQUIREAPERTURE, 0, &ps), STATUS_SUCCESS);
    assert_int_equal(kpeek_segment(s), 0);
    assert_int_equal(kmd.unswizzles, 1);
    assert_int_equal(kmd.raw_transfers, 2);
    UINT32 w;
    memcpy(&w, ps + HALF, 4);
    assert_int_equal(w, 0xABCD1234u); /* linear */
    for (UINT j = 0; j < 4; j++)
        ps[j] = 0x77;
    assert_int_equal(mock_unlock(&e, s), STATUS_SUCCESS);
    /* Case 3: still evicted unswizzled: the same backing store, nothing paged, no range. */
    UINT8 *again;
    UINT acquires = kmd.acquires;
    assert_int_equal(lock_pd(&e, s, LOCK_READONLY | LOCK_ACQUIREAPERTURE, 0, &again), STATUS_SUCCESS);
    assert_ptr_equal(again, ps);
    assert_int_equal(kpeek_segment(s), 0);
    assert_int_equal(kmd.acquires, acquires);
    assert_int_equal(kmd.swizzles + kmd.unswizzles + kmd.raw_transfers, 3);
    assert_int_equal(again[0], 0x77);
    assert_int_equal(mock_render_write(&e, s, 1, true), STATUS_INVALID_PARAMETER); /* no DMA buffer meanwhile */
    assert_int_equal(mock_unlock(&e, s), STATUS_SUCCESS);
    /* The GPU's use restores it with Swizzle into the memory segment: tiled again. */
    assert_int_equal(mock_render_write(&e, s, 0x5EEDu, true), STATUS_SUCCESS);
    assert_int_equal(lock_pd(&e, s, LOCK_READONLY, 0, &raw), STATUS_SUCCESS);
    assert_int_equal(kpeek_segment(s), 2);
    assert_int_equal(kmd.swizzles, 1);
    assert_int_equal(raw[HALF], 0x77); /* linear offset 0 is raw 0x800 */
    memcpy(&w, raw, 4);
    assert_int_equal(w, 0x5EEDu);
    assert_int_equal(mock_unlock(&e, s), STATUS_SUCCESS);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    assert_int_equal(mock_unlock(&e, b), STATUS_SUCCESS);
    mock_close(&e);
}

/* A Swizzled allocation evicted unswizzled "cannot be mapped into an aperture segment" (case 3):
 * with its memory segment full of locked allocations, a lock that needs it resident fails with
 * STATUS_NO_MEMORY although its supported set names the aperture, which has room; once the
 * memory segment has room it is restored there, with Swizzle. */
/* rule: vidmm.allocations-kmd-creates-swizzled-vidmm (mutation-checked: without the exclusion the lock lands in the aperture) */
static void test_a_linear_backing_store_is_never_mapped_into_an_aperture(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE a = placed(&e, SEG2), b = placed(&e, SEG2); /* first: the free space stays one range */
    kmd.swizzled_next = true;
    D3DKMT_HANDLE s = placed(&e, SEG2 | SEG3);
    assert_int_equal(kpeek_segment(s), 2);
    UINT8 *ps, *pa, *pb, *p;
    assert_int_equal(lock_pd(&e, a, LOCK_ACQUIREAPERTURE, 0, &pa), STATUS_SUCCESS);
    assert_int_equal(lock_pd(&e, b, LOCK_ACQUIREAPERTURE, 0, &pb), STATUS_SUCCESS);
    assert_int_equal(lock_pd(&e, s, LOCK_ACQUIREAPERTURE, 0, &ps), STATUS_SUCCESS); /* evicted, linear */
    assert_int_equal(kmd.unswizzles, 1);
    assert_int_equal(mock_unlock(&e, s), STATUS_SUCCESS);
    /* The rest of the memory segment, locked (not evictable). */
    D3DKMT_HANDLE big = mock_alloc(&e, MOCK_SEG2_SIZE - 2 * 4096, true, 0, 0, SEG2, NULL);
    assert_int_equal(lock_pd(&e, big, LOCK_READONLY, 0, &p), STATUS_SUCCESS);
    assert_int_equal(lock_pd(&e, s, LOCK_READONLY, 0, &p), STATUS_NO_MEMORY);
    assert_int_equal(kpeek_segment(s), 0);
    assert_int_equal(mock_unlock(&e, big), STATUS_SUCCESS);
    assert_int_equal(mock_free(&e, big), STATUS_SUCCESS);
    assert_int_equal(lock_pd(&e, s, LOCK_READONLY, 0, &p), STATUS_SUCCESS);
    assert_int_equal(kpeek_segment(s), 2);
    assert_int_equal(kmd.swizzles, 1);
    assert_int_equal(mock_unlock(&e, s), STATUS_SUCCESS);
    assert_int_equal(mock_unlock(&e, a), STATUS_SUCCESS);
    assert_int_equal(mock_unlock(&e, b), STATUS_SUCCESS);
    mock_close(&e);
}

static int reset(void **state)
{
    mock_reset();
    for (UINT r = 0; r < RANGES; r++)
        assert_null(kmd.range[r].window); /* every range was released */
    memset(&kmd, 0, sizeof kmd);
    kmd.unavailable = -1;
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_acquire_aperture_gives_a_linear_view_the_gpu_sees_swizzled, reset, reset),
        cmocka_unit_test_setup_teardown(test_at_the_range_limit_donotevict_fails_and_otherwise_the_lock_evicts, reset,
                                        reset),
        cmocka_unit_test_setup_teardown(test_a_range_the_kmd_cannot_program_is_skipped, reset, reset),
        cmocka_unit_test_setup_teardown(test_acquire_aperture_refusals_and_destruction, reset, reset),
        cmocka_unit_test_setup_teardown(test_use_alternate_va_may_change_the_range_and_reach_an_aperture, reset, reset),
        cmocka_unit_test_setup_teardown(test_acquire_aperture_pages_an_aperture_or_evicted_allocation_into_memory_first,
                                        reset, reset),
        cmocka_unit_test_setup_teardown(test_use_alternate_va_at_the_range_limit_fails_without_evicting, reset, reset),
        cmocka_unit_test_setup_teardown(test_use_alternate_va_on_a_primary_follows_its_creation_flag, reset, reset),
        cmocka_unit_test_setup_teardown(test_use_alternate_va_on_a_shared_allocation_is_refused, reset, reset),
        cmocka_unit_test_setup_teardown(test_a_swizzled_allocation_is_unswizzled_only_at_the_range_limit_and_swizzled_back,
                                        reset, reset),
        cmocka_unit_test_setup_teardown(test_a_linear_backing_store_is_never_mapped_into_an_aperture, reset, reset),
        cmocka_unit_test_setup_teardown(test_use_alternate_va_lock_moves_by_special_lock_transfer, reset, reset),
        cmocka_unit_test_setup_teardown(test_a_move_back_under_the_lock_is_a_special_lock_transfer_too, reset, reset),
        cmocka_unit_test_setup_teardown(test_the_unlock_keeps_the_range_until_the_move_ran, reset, reset),
        cmocka_unit_test_setup_teardown(test_a_clean_allocation_held_through_the_range_is_still_transferred, reset,
                                        reset),
        cmocka_unit_test_setup_teardown(test_a_trim_moves_a_use_alternate_va_lock_and_keeps_a_donotevict_one, reset,
                                        reset),
        cmocka_unit_test_setup_teardown(test_donotevict_or_a_plain_acquire_aperture_lock_holds_the_allocation_in_place,
                                        reset, reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
