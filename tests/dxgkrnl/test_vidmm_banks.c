/* Placement inside a segment (issue 3 "Placement honours ... PreferredSegment (and its bank
 * hints where present)"): DXGK_SEGMENTPREFERENCE directions and DXGK_SEGMENTBANKPREFERENCE bank
 * hints (vidmm/placement.c alloc_in_segment_locked, vidmm/segment.c), and the verifier's rules
 * for DXGK_SEGMENTFLAGS.UseBanking / pBankRangeTable and HintedBank (verifier.c).
 *
 * Against the reference KMD and the software GPU with real paging, content checked byte for
 * byte. The reference KMD uses neither, so the test's KMD wraps it: its QueryAdapterInfo
 * splits local memory (segment 1, 1 MiB) into `banks` equal banks (with `bad_table`, a table
 * that does not ascend), and its CreateAllocation gives every GPU_ONLY allocation the
 * PreferredSegment direction `from_top` for segment 1 and the HintedBank `hint`. */
/* rule: vidmm.bank-hints-preferences-not-pins-when */
#include "real_env.h"

#include <pthread.h>

#include <wddm/d3dkmddi.h>

#include "dxgkrnl/objects/objects.h"
#include "kernel_peek.h"
#include "kmd/kmd.h"

#define KIB 1024u
#define LOCAL 1u
#define VISIBLE 2u

static UINT banks;      /* NbOfBanks of segment 1 (0: no banking) */
static int bad_table;   /* the table's second end is below its first */
static int from_top;    /* PreferredSegment.Direction0 */
static UINT32 hint;     /* HintedBank.Value */
static SIZE_T table[8];

static NTSTATUS APIENTRY wrap_query(const HANDLE a, const DXGKARG_QUERYADAPTERINFO *q)
{
    NTSTATUS st = SwKmdQueryAdapterInfo(a, q);
    if (NT_SUCCESS(st) && q->Type == DXGKQAITYPE_QUERYSEGMENT && banks) {
        DXGK_QUERYSEGMENTOUT *o = q->pOutputData;
        if (o->pSegmentDescriptor) {
            DXGK_SEGMENTDESCRIPTOR *d = &o->pSegmentDescriptor[LOCAL - 1];
            for (UINT b = 0; b + 1 < banks; b++)
                table[b] = d->Size / banks * (b + 1);
            if (bad_table)
                table[1] = table[0] / 2;
            d->Flags.UseBanking = 1;
            d->NbOfBanks = banks;
            d->pBankRangeTable = table;
        }
    }
    return st;
}

static NTSTATUS APIENTRY wrap_create(const HANDLE a, DXGKARG_CREATEALLOCATION *args)
{
    NTSTATUS st = SwKmdCreateAllocation(a, args);
    for (UINT i = 0; NT_SUCCESS(st) && i < args->NumAllocations; i++) {
        DXGK_ALLOCATIONINFO *info = &args->pAllocationInfo[i];
        if (info->PreferredSegment.SegmentId0 != LOCAL)
            continue; /* UPLOAD / READBACK: the aperture */
        info->PreferredSegment.Direction0 = from_top ? 1 : 0;
        info->HintedBank.Value = hint;
    }
    return st;
}

static NTSTATUS wrap_entry(PDRIVER_OBJECT drv, PVOID reg)
{
    DRIVER_INITIALIZATION_DATA d;
    SwKmdGetDriverInitializationData(&d);
    d.DxgkDdiQueryAdapterInfo = wrap_query;
    d.DxgkDdiCreateAllocation = wrap_create;
    return DxgkInitialize(drv, reg, &d);
}

static struct renv env;
static D3DKMT_HANDLE up, rb;
enum { SZ = 64 * KIB };

static int setup(void **state)
{
    banks = 4;
    bad_table = 0;
    from_top = 0;
    hint = 0;
    wddm_set_kmd_entry(wrap_entry);
    renv_open_kmd(&env);
    up = renv_alloc(&env, SWGPU_ALLOC_UPLOAD, SZ);
    rb = renv_alloc(&env, SWGPU_ALLOC_READBACK, SZ);
    *state = &env;
    return 0;
}

static int teardown(void **state)
{
    renv_close(*state);
    wddm_set_kmd_entry(NULL);
    return 0;
}

static DXGK_SEGMENTBANKPREFERENCE bank_pref(UINT b0, UINT d0, UINT b1, UINT d1)
{
    DXGK_SEGMENTBANKPREFERENCE h = { .Value = 0 };
    h.Bank0 = b0;
    h.Direction0 = d0;
    h.Bank1 = b1;
    h.Direction1 = d1;
    return h;
}

/* A GPU_ONLY allocation of `size` bytes created with the current knobs, written by the GPU
 * (which places it) and checked; returns it with its segment and offset. */
static D3DKMT_HANDLE placed(struct renv *e, UINT32 size, uint32_t seed, UINT *seg, UINT64 *off)
{
    D3DKMT_HANDLE h = renv_alloc(e, SWGPU_ALLOC_GPU_ONLY, size);
    UINT32 n = size < SZ ? size : SZ; /* what the upload buffer carries */
    renv_gpu_write(e, h, up, n, seed);
    renv_gpu_check(e, h, rb, n, seed);
    *seg = kpeek_segment(h);
    *off = kpeek_offset(h);
    return h;
}

/* HintedBank.Bank0 with its direction: bottom-up starts at the bank's first byte, top-down ends
 * at its last. Bank 3 of 4 over 1 MiB is [512 KiB, 768 KiB). */
/* rule: vidmm.hintedbank-applies-preferredsegment */
static void a_hinted_bank_is_searched_in_its_direction(void **state)
{
    struct renv *e = *state;
    UINT seg;
    UINT64 off;
    hint = bank_pref(3, 0, 0, 0).Value;
    placed(e, SZ, 1, &seg, &off);
    assert_int_equal(seg, LOCAL);
    assert_int_equal(off, 512 * KIB);
    hint = bank_pref(3, 1, 0, 0).Value;
    placed(e, SZ, 2, &seg, &off);
    assert_int_equal(seg, LOCAL);
    assert_int_equal(off, 768 * KIB - SZ);
}

/* A full hinted bank: the next hint, then anywhere in the segment (in the preference's
 * direction), with no eviction; only then other segments. */
/* rule: vidmm.hintedbank-applies-preferredsegment (no eviction counted; mutation-checked: hints ignored, bank bounds off) */
static void a_full_hinted_bank_falls_to_the_next_hint_then_to_the_whole_segment(void **state)
{
    struct renv *e = *state;
    UINT seg;
    UINT64 off;
    struct wddm_counters c0 = renv_counters();
    hint = bank_pref(2, 0, 0, 0).Value;
    placed(e, 256 * KIB, 10, &seg, &off); /* fills bank 2: [256, 512) KiB */
    assert_int_equal(off, 256 * KIB);
    hint = bank_pref(2, 0, 4, 1).Value;
    placed(e, SZ, 11, &seg, &off); /* bank 2 full: bank 4, from its top */
    assert_int_equal(seg, LOCAL);
    assert_int_equal(off, 1024 * KIB - SZ);
    hint = bank_pref(2, 0, 0, 0).Value;
    placed(e, SZ, 12, &seg, &off); /* no hinted bank has room: the segment, bottom-up */
    assert_int_equal(seg, LOCAL);
    assert_int_equal(off, 0);
    from_top = 1;
    placed(e, SZ, 13, &seg, &off); /* ... or top-down: below bank 4's allocation */
    assert_int_equal(seg, LOCAL);
    assert_int_equal(off, 1024 * KIB - 2 * SZ);
    assert_int_equal(renv_counters().evictions, c0.evictions);
}

/* Without hints, PreferredSegment's Direction0 places from the top of the segment. */
/* rule: vidmm.inside-segment-dxgk-segmentpreference (mutation-checked: direction ignored → fails) */
static void the_segment_preference_direction_places_from_the_top(void **state)
{
    struct renv *e = *state;
    UINT seg;
    UINT64 off;
    placed(e, SZ, 20, &seg, &off);
    assert_int_equal(off, 0);
    from_top = 1;
    placed(e, SZ, 21, &seg, &off);
    assert_int_equal(seg, LOCAL);
    assert_int_equal(off, 1024 * KIB - SZ);
    placed(e, SZ, 22, &seg, &off);
    assert_int_equal(off, 1024 * KIB - 2 * SZ);
}

/* A bank id beyond the segment's banks is refused at creation with one verifier line. */
/* rule: kernel.hintedbank-naming-bank-segmentid0-not */
static void a_hint_naming_a_bank_the_segment_lacks_is_refused(void **state)
{
    struct renv *e = *state;
    hint = bank_pref(1, 0, 5, 0).Value;
    D3DKMT_HANDLE h = 0;
    assert_int_equal(renv_try_alloc(e, SWGPU_ALLOC_GPU_ONLY, SZ, &h), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("HintedBank.Bank1 = 5");
}

/* A HintedBank whose SegmentId0 does not use banking is refused. */
/* rule: kernel.hintedbank-naming-bank-segmentid0-not */
static void a_hint_for_a_segment_without_banks_is_refused(void **state)
{
    struct renv *e = *state;
    renv_close(e);
    banks = 0; /* restart the adapter without banking */
    renv_open_kmd(e);
    hint = bank_pref(1, 0, 0, 0).Value;
    D3DKMT_HANDLE h = 0;
    assert_int_equal(renv_try_alloc(e, SWGPU_ALLOC_GPU_ONLY, SZ, &h), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("does not use banking");
    up = rb = 0;
}

/* A bank table that does not ascend fails the adapter's start with one verifier line. */
/* rule: kernel.usebanking-segment-nbofbanks-1-127 (mutation-checked) */
static void a_bank_table_that_does_not_ascend_fails_the_start(void **state)
{
    struct renv *e = *state;
    renv_close(e);
    bad_table = 1;
    D3DKMT_ADAPTERINFO info[4];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
    assert_true(!NT_SUCCESS(D3DKMTEnumAdapters2(&en)) || en.NumAdapters == 0);
    renv_expect_refusal("bank ends must ascend");
    bad_table = 0;
    renv_open_kmd(e);
    up = rb = 0;
}

#define RULE(t) cmocka_unit_test_setup_teardown(t, setup, teardown)

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "1", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "1", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "4", 1);
    const struct CMUnitTest tests[] = {
        RULE(a_hinted_bank_is_searched_in_its_direction),
        RULE(a_full_hinted_bank_falls_to_the_next_hint_then_to_the_whole_segment),
        RULE(the_segment_preference_direction_places_from_the_top),
        RULE(a_hint_naming_a_bank_the_segment_lacks_is_refused),
        RULE(a_hint_for_a_segment_without_banks_is_refused),
        RULE(a_bank_table_that_does_not_ascend_fails_the_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
