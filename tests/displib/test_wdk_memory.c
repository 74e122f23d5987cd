/*
 * test_wdk_memory.c - the WDK's lookaside lists, counted strings and MDLs as libwddm_displib.a
 * gives them to a KMD module (include/wddm/wdm.h; docs/drivers.md "WDK services for driver
 * code", docs/rules/wdk.md), linked alone: lookaside entries from the pool under the list's
 * tag, freed entries reused, every pool block back after the delete, misuse reported;
 * UNICODE_STRING and ANSI_STRING lengths in bytes, never written past MaximumLength
 * (STATUS_BUFFER_TOO_SMALL), compared with and without case, converted; MDLs describing a
 * buffer's pages, locked, mapped, a locked one's free reported and refused. The rules follow
 * Microsoft's reference pages (ExInitializeNPagedLookasideList, ExFreeToNPagedLookasideList,
 * RtlInitUnicodeString, RtlCopyUnicodeString, RtlAppendUnicodeStringToString,
 * RtlCompareUnicodeString, RtlUnicodeStringToAnsiString, IoAllocateMdl, IoFreeMdl,
 * MmBuildMdlForNonPagedPool, MmProbeAndLockPages, MmUnlockPages, MmGetSystemAddressForMdlSafe).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <string.h>

#include <wddm/wdm.h>

#include "stderr_capture.h"

#define TAG_L 'LdmW'
#define STRING_TAG 0x67727453u /* "Strg" */
#define MDL_TAG 0x206C644Du    /* "Mdl " */

/* ---- Lookaside lists ------------------------------------------------------------------------ */
static int custom_allocations, custom_frees;

static PVOID custom_allocate(POOL_TYPE PoolType, SIZE_T NumberOfBytes, ULONG Tag)
{
    custom_allocations++;
    return ExAllocatePoolWithTag(PoolType, NumberOfBytes, Tag);
}

static VOID custom_free(PVOID Buffer)
{
    custom_frees++;
    ExFreePool(Buffer);
}

/* rule: wdk.lookaside-list-entries-pool-blocks-size (mutation-checked: a delete that keeps the kept entries, or no reuse, fails it) */
static void lookaside_entries_come_from_the_pool_and_are_reused(void **state)
{
    (void)state;
    NPAGED_LOOKASIDE_LIST list;
    SIZE_T live0 = wddm_pool_outstanding(TAG_L);
    ExInitializeNPagedLookasideList(&list, NULL, NULL, POOL_NX_ALLOCATION, 48, TAG_L, 0);
    KIRQL old;
    KeRaiseIrql(DISPATCH_LEVEL, &old); /* a non-paged list serves DPCs */
    void *a = ExAllocateFromNPagedLookasideList(&list), *b = ExAllocateFromNPagedLookasideList(&list);
    KeLowerIrql(old);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(wddm_pool_outstanding(TAG_L), live0 + 2); /* pool blocks of the list's tag */
    memset(a, 0x5A, 48);
    memset(b, 0x5A, 48);
    ExFreeToNPagedLookasideList(&list, a);
    assert_int_equal(wddm_pool_outstanding(TAG_L), live0 + 2); /* kept, still a pool block */
    assert_ptr_equal(ExAllocateFromNPagedLookasideList(&list), a); /* reused */
    assert_int_equal(list.L.TotalAllocates, 3);
    assert_int_equal(list.L.AllocateMisses, 2);
    ExFreeToNPagedLookasideList(&list, a);
    ExFreeToNPagedLookasideList(&list, b);
    assert_int_equal(list.L.TotalFrees, 3);
    ExDeleteNPagedLookasideList(&list);
    assert_int_equal(wddm_pool_outstanding(TAG_L), live0); /* every entry back */

    /* The driver's own allocate and free, and the paged kind. */
    PAGED_LOOKASIDE_LIST paged;
    custom_allocations = custom_frees = 0;
    ExInitializePagedLookasideList(&paged, custom_allocate, custom_free, 0, 4, TAG_L, 0);
    void *p = ExAllocateFromPagedLookasideList(&paged);
    assert_non_null(p);
    assert_true(paged.L.Size >= sizeof(SINGLE_LIST_ENTRY)); /* room for the link while kept */
    ExFreeToPagedLookasideList(&paged, p);
    ExDeletePagedLookasideList(&paged);
    assert_int_equal(custom_allocations, 1);
    assert_int_equal(custom_frees, 1);
    assert_int_equal(wddm_pool_outstanding(TAG_L), live0);
}

/* rule: wdk.entry-freed-list-twice-not-live (mutation-checked: keeping an entry twice fails it) */
/* rule: wdk.objects-known-by-address-not-links (a list never initialized, one deleted twice) */
static void lookaside_misuse_is_reported(void **state)
{
    (void)state;
    NPAGED_LOOKASIDE_LIST list, never;
    PAGED_LOOKASIDE_LIST paged;
    memset(&never, 0, sizeof never);
    SIZE_T live0 = wddm_pool_outstanding(TAG_L);
    ExInitializeNPagedLookasideList(&list, NULL, NULL, 0, 32, TAG_L, 0);
    ExInitializePagedLookasideList(&paged, NULL, NULL, 0, 32, TAG_L, 0);
    void *a = ExAllocateFromNPagedLookasideList(&list), *leaked = ExAllocateFromNPagedLookasideList(&list);
    int on_stack;
    KIRQL old;
    SIZE_T reports = wddm_wdk_reports();
    capture_start();
    ExFreeToNPagedLookasideList(&list, a);
    ExFreeToNPagedLookasideList(&list, a);         /* freed twice */
    ExFreeToNPagedLookasideList(&list, &on_stack); /* never the pool's */
    assert_null(ExAllocateFromNPagedLookasideList(&never));
    KeRaiseIrql(DISPATCH_LEVEL, &old);
    assert_null(ExAllocateFromPagedLookasideList(&paged)); /* paged: up to APC_LEVEL */
    KeLowerIrql(old);
    ExDeleteNPagedLookasideList(&list); /* one entry still out */
    ExDeleteNPagedLookasideList(&list); /* deleted already */
    const char *out = capture_end();
    assert_non_null(strstr(out, "the entry was freed to it already (a kept entry: Windows corrupts the list)"));
    assert_non_null(strstr(out, "the entry is not a live pool block of the list's tag"));
    assert_non_null(strstr(out, "is not a live non-paged lookaside list (never initialized, or deleted): NULL"));
    assert_non_null(strstr(out, "ExAllocateFromPagedLookasideList: called at DISPATCH_LEVEL"));
    assert_non_null(strstr(out, "is deleted with 1 entries allocated from it and not freed back"));
    assert_non_null(strstr(out, "deleted already): nothing done"));
    assert_int_equal(wddm_wdk_reports(), reports + 6);
    ExDeletePagedLookasideList(&paged);
    assert_int_equal(wddm_pool_outstanding(TAG_L), live0 + 1); /* the one never freed back */
    ExFreePoolWithTag(leaked, TAG_L);
    assert_int_equal(wddm_pool_outstanding(TAG_L), live0);
}

/* ---- Counted strings ------------------------------------------------------------------------ */
/* rule: wdk.unicode-string-ansi-string-lengths-bytes (mutation-checked: an append past MaximumLength, or a length in characters, fails it) */
static void unicode_strings_count_bytes_and_never_overflow(void **state)
{
    (void)state;
    UNICODE_STRING s, empty;
    RtlInitUnicodeString(&s, u"Display");
    assert_int_equal(s.Length, 14); /* bytes, without the NUL */
    assert_int_equal(s.MaximumLength, 16);
    RtlInitUnicodeString(&empty, NULL);
    assert_int_equal(empty.Length, 0);
    assert_null(empty.Buffer);
    UNICODE_STRING constant = RTL_CONSTANT_STRING(u"Display");
    assert_int_equal(constant.Length, 14);
    assert_true(RtlEqualUnicodeString(&s, &constant, FALSE));

    /* Appending within MaximumLength, then past it: STATUS_BUFFER_TOO_SMALL, nothing written. */
    WCHAR buffer[12];
    for (size_t i = 0; i < 12; i++)
        buffer[i] = 0xBEEF;
    UNICODE_STRING d;
    RtlInitEmptyUnicodeString(&d, buffer, 10 * sizeof(WCHAR)); /* the last two stay sentinels */
    assert_int_equal(RtlAppendUnicodeStringToString(&d, &s), STATUS_SUCCESS);
    assert_int_equal(d.Length, 14);
    assert_int_equal(buffer[7], 0); /* a NUL when it fits */
    assert_int_equal(RtlAppendUnicodeToString(&d, u"ab"), STATUS_SUCCESS);
    assert_int_equal(d.Length, 18);
    assert_int_equal(buffer[9], 0);
    assert_int_equal(RtlAppendUnicodeToString(&d, u"c"), STATUS_SUCCESS); /* exactly full: no NUL */
    assert_int_equal(d.Length, 20);
    assert_int_equal(RtlAppendUnicodeToString(&d, u"d"), STATUS_BUFFER_TOO_SMALL);
    assert_int_equal(RtlAppendUnicodeStringToString(&d, &s), STATUS_BUFFER_TOO_SMALL);
    assert_int_equal(d.Length, 20);
    assert_int_equal(buffer[10], 0xBEEF);
    assert_int_equal(buffer[11], 0xBEEF);
    assert_int_equal(memcmp(buffer, u"Displayabc", 20), 0);

    /* A copy is cut to the destination's buffer. */
    WCHAR small[5] = {0xBEEF, 0xBEEF, 0xBEEF, 0xBEEF, 0xBEEF};
    UNICODE_STRING c;
    RtlInitEmptyUnicodeString(&c, small, 4 * sizeof(WCHAR));
    RtlCopyUnicodeString(&c, &s);
    assert_int_equal(c.Length, 8);
    assert_int_equal(memcmp(small, u"Disp", 8), 0);
    assert_int_equal(small[4], 0xBEEF);
    RtlCopyUnicodeString(&c, NULL);
    assert_int_equal(c.Length, 0);
}

/* rule: wdk.rtlequalunicodestring (mutation-checked: ignoring CaseInSensitive fails it) */
static void unicode_strings_compare_with_and_without_case(void **state)
{
    (void)state;
    UNICODE_STRING a, b, prefix, greek_lower, greek_upper;
    RtlInitUnicodeString(&a, u"Adapter\u00e9");
    RtlInitUnicodeString(&b, u"ADAPTER\u00c9");
    RtlInitUnicodeString(&prefix, u"ADAPT");
    RtlInitUnicodeString(&greek_lower, u"\u03b1\u03b2\u0444");
    RtlInitUnicodeString(&greek_upper, u"\u0391\u0392\u0424");
    assert_false(RtlEqualUnicodeString(&a, &b, FALSE));
    assert_true(RtlEqualUnicodeString(&a, &b, TRUE));
    assert_true(RtlEqualUnicodeString(&greek_lower, &greek_upper, TRUE));
    assert_int_equal(RtlCompareUnicodeString(&a, &b, TRUE), 0);
    assert_true(RtlCompareUnicodeString(&a, &b, FALSE) > 0); /* 'd' after 'D' */
    assert_true(RtlCompareUnicodeString(&prefix, &b, TRUE) < 0); /* the shorter first */
    assert_true(RtlCompareUnicodeString(&b, &prefix, FALSE) > 0);
    assert_int_equal(RtlUpcaseUnicodeChar(u'z'), u'Z');
    assert_int_equal(RtlUpcaseUnicodeChar(0x00FF), 0x0178);
    assert_int_equal(RtlUpcaseUnicodeChar(0x00F7), 0x00F7); /* the division sign has no case */
    assert_int_equal(RtlUpcaseUnicodeChar(0x0101), 0x0100);
    assert_int_equal(RtlUpcaseUnicodeChar(0x013A), 0x0139);
    /* A string whose fields contradict each other is reported, never read. */
    UNICODE_STRING broken = {.Length = 8, .MaximumLength = 4, .Buffer = NULL};
    capture_start();
    assert_false(RtlEqualUnicodeString(&broken, &broken, FALSE));
    const char *out = capture_end();
    assert_non_null(strstr(out, "Length must be even, at most MaximumLength, with a Buffer"));
}

/* rule: wdk.rtlunicodestringtoansistring-converts (mutation-checked: a conversion that writes into a buffer too small fails it) */
static void strings_convert_between_ansi_and_unicode(void **state)
{
    (void)state;
    SIZE_T strings0 = wddm_pool_outstanding(STRING_TAG);
    UNICODE_STRING u;
    RtlInitUnicodeString(&u, u"caf\u00e9 \u20ac");
    ANSI_STRING a;
    assert_int_equal(RtlUnicodeStringToAnsiString(&a, &u, TRUE), STATUS_SUCCESS);
    assert_int_equal(a.Length, 6);
    assert_int_equal(a.MaximumLength, 7);
    assert_int_equal(memcmp(a.Buffer, "caf\xe9 ?", 7), 0); /* Latin-1, '?' for the euro sign, NUL */
    assert_int_equal(wddm_pool_outstanding(STRING_TAG), strings0 + 1);
    UNICODE_STRING back;
    assert_int_equal(RtlAnsiStringToUnicodeString(&back, &a, TRUE), STATUS_SUCCESS);
    assert_int_equal(back.Length, 12);
    assert_int_equal(back.Buffer[3], 0xE9);
    RtlFreeAnsiString(&a);
    RtlFreeUnicodeString(&back);
    assert_null(a.Buffer);
    assert_int_equal(wddm_pool_outstanding(STRING_TAG), strings0);

    /* Into the caller's buffer: it must hold the result and its NUL, else nothing is written. */
    char out[7];
    memset(out, 'x', sizeof out);
    ANSI_STRING fixed = {0, 6, out};
    assert_int_equal(RtlUnicodeStringToAnsiString(&fixed, &u, FALSE), STATUS_BUFFER_OVERFLOW);
    assert_int_equal(out[0], 'x');
    fixed.MaximumLength = 7;
    assert_int_equal(RtlUnicodeStringToAnsiString(&fixed, &u, FALSE), STATUS_SUCCESS);
    assert_int_equal(fixed.Length, 6);
    ANSI_STRING init;
    RtlInitAnsiString(&init, "abc");
    assert_int_equal(init.Length, 3);
    assert_int_equal(init.MaximumLength, 4);

    /* Freeing a buffer no conversion allocated: reported, not freed. */
    ANSI_STRING foreign = {3, 4, out};
    capture_start();
    RtlFreeAnsiString(&foreign);
    const char *text = capture_end();
    assert_non_null(strstr(text, "was not allocated by a conversion"));
}

/* ---- MDLs ----------------------------------------------------------------------------------- */
/* rule: wdk.ioallocatemdl-describes-length-bytes (mutation-checked: page numbers off by one, or a mapping without the flag, fails it) */
static void an_mdl_describes_the_pages_of_its_buffer(void **state)
{
    (void)state;
    SIZE_T mdls0 = wddm_pool_outstanding(MDL_TAG);
    unsigned char *buffer = ExAllocatePool2(POOL_FLAG_NON_PAGED, 3 * PAGE_SIZE, TAG_L);
    unsigned char *va = buffer + 100; /* spans pages 0..3 of the buffer: 100 + 3 pages */
    ULONG length = 3 * PAGE_SIZE;
    PMDL mdl = IoAllocateMdl(va, length, FALSE, FALSE, NULL);
    assert_non_null(mdl);
    assert_int_equal(wddm_pool_outstanding(MDL_TAG), mdls0 + 1);
    assert_ptr_equal(MmGetMdlVirtualAddress(mdl), va);
    assert_int_equal(MmGetMdlByteCount(mdl), length);
    assert_int_equal(MmGetMdlByteOffset(mdl), 100);
    assert_ptr_equal(mdl->StartVa, PAGE_ALIGN(va));
    assert_int_equal(ADDRESS_AND_SIZE_TO_SPAN_PAGES(va, length), 4);
    assert_true(MmSizeOfMdl(va, length) >= sizeof(MDL) + 4 * sizeof(PFN_NUMBER));

    MmBuildMdlForNonPagedPool(mdl);
    assert_true(mdl->MdlFlags & MDL_SOURCE_IS_NONPAGED_POOL);
    PPFN_NUMBER pfn = MmGetMdlPfnArray(mdl);
    for (int i = 0; i < 4; i++) /* the virtual page numbers, in order */
        assert_int_equal(pfn[i], ((uintptr_t)buffer >> PAGE_SHIFT) + (uintptr_t)i);
    assert_ptr_equal(MmGetSystemAddressForMdlSafe(mdl, NormalPagePriority | MdlMappingNoExecute), va);
    IoFreeMdl(mdl);
    assert_int_equal(wddm_pool_outstanding(MDL_TAG), mdls0);

    /* Locked, mapped, unlocked. */
    mdl = IoAllocateMdl(va, 64, FALSE, FALSE, NULL);
    MmProbeAndLockPages(mdl, KernelMode, IoWriteAccess);
    assert_true(mdl->MdlFlags & MDL_PAGES_LOCKED);
    assert_true(mdl->MdlFlags & MDL_WRITE_OPERATION);
    assert_int_equal(MmGetMdlPfnArray(mdl)[0], (uintptr_t)va >> PAGE_SHIFT);
    unsigned char *system = MmGetSystemAddressForMdlSafe(mdl, NormalPagePriority);
    assert_ptr_equal(system, va);
    assert_true(mdl->MdlFlags & MDL_MAPPED_TO_SYSTEM_VA);
    assert_ptr_equal(MmGetSystemAddressForMdlSafe(mdl, NormalPagePriority), system); /* the same mapping */
    system[0] = 0x42;
    assert_int_equal(va[0], 0x42);
    MmUnlockPages(mdl);
    assert_int_equal(mdl->MdlFlags & (MDL_PAGES_LOCKED | MDL_MAPPED_TO_SYSTEM_VA), 0);
    IoFreeMdl(mdl);
    ExFreePoolWithTag(buffer, TAG_L);
    assert_int_equal(wddm_pool_outstanding(MDL_TAG), mdls0);
}

/* rule: wdk.iofreemdl-mdl-whose-pages-still-locked (mutation-checked: freeing a locked MDL fails it) */
/* rule: wdk.objects-known-by-address-not-links (an MDL IoAllocateMdl did not give) */
static void mdl_misuse_is_reported(void **state)
{
    (void)state;
    SIZE_T mdls0 = wddm_pool_outstanding(MDL_TAG);
    static unsigned char buffer[256];
    PMDL mdl = IoAllocateMdl(buffer, sizeof buffer, FALSE, FALSE, NULL), unlocked = IoAllocateMdl(buffer, 16, FALSE, FALSE, NULL);
    MDL on_stack;
    memset(&on_stack, 0, sizeof on_stack);
    MmProbeAndLockPages(mdl, KernelMode, IoReadAccess);
    SIZE_T reports = wddm_wdk_reports();
    capture_start();
    IoFreeMdl(mdl);                                  /* still locked */
    MmProbeAndLockPages(mdl, KernelMode, IoReadAccess); /* locked twice */
    MmUnlockPages(unlocked);                        /* never locked */
    assert_null(MmGetSystemAddressForMdlSafe(unlocked, NormalPagePriority));
    assert_null(IoAllocateMdl(buffer, 0, FALSE, FALSE, NULL));
    IoFreeMdl(&on_stack); /* not IoAllocateMdl's */
    const char *out = capture_end();
    assert_non_null(strstr(out, "still has its pages locked (MmUnlockPages first"));
    assert_non_null(strstr(out, "has its pages locked already: nothing changes"));
    assert_non_null(strstr(out, "MmUnlockPages: MDL"));
    assert_non_null(strstr(out, "does not have its pages locked (MmProbeAndLockPages first): NULL"));
    assert_non_null(strstr(out, "Length must be 1 .. 4 GB - PAGE_SIZE"));
    assert_non_null(strstr(out, "is not a live MDL of IoAllocateMdl"));
    assert_int_equal(wddm_wdk_reports(), reports + 6);
    assert_int_equal(wddm_pool_outstanding(MDL_TAG), mdls0 + 2); /* the locked one was kept */
    assert_true(mdl->MdlFlags & MDL_PAGES_LOCKED);
    MmUnlockPages(mdl);
    IoFreeMdl(mdl);
    IoFreeMdl(unlocked);
    assert_int_equal(wddm_pool_outstanding(MDL_TAG), mdls0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lookaside_entries_come_from_the_pool_and_are_reused),
        cmocka_unit_test(lookaside_misuse_is_reported),
        cmocka_unit_test(unicode_strings_count_bytes_and_never_overflow),
        cmocka_unit_test(unicode_strings_compare_with_and_without_case),
        cmocka_unit_test(strings_convert_between_ansi_and_unicode),
        cmocka_unit_test(an_mdl_describes_the_pages_of_its_buffer),
        cmocka_unit_test(mdl_misuse_is_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
