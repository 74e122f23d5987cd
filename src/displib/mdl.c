/* Memory descriptor lists (include/wddm/wdm.h). One address space: a page frame number here is
 * the virtual page number, and a locked buffer's system address is its own address. An MDL of
 * IoAllocateMdl is a non-paged pool block of tag "Mdl ", so IoFreeMdl knows a live one without
 * reading it; one whose pages are still locked is reported and kept (MmProbeAndLockPages
 * reference: locked pages are unlocked with MmUnlockPages before the MDL is freed). */
#include "displib/wdk_shim.h"

#define MDL_TAG 0x206C644Du /* "Mdl " in memory order */
#define MDL_MAX_BYTES (0xFFFFFFFFull + 1 - PAGE_SIZE) /* IoAllocateMdl: 4 GB - PAGE_SIZE */

SIZE_T MmSizeOfMdl(PVOID Base, SIZE_T Length)
{
    return sizeof(MDL) + ADDRESS_AND_SIZE_TO_SPAN_PAGES(Base, Length) * sizeof(PFN_NUMBER);
}

static int irql_at_most(const char *who, KIRQL most)
{
    KIRQL level = KeGetCurrentIrql();
    if (level <= most)
        return 1;
    char a[16], b[16];
    displib_report("%s: called at %s: the caller must be at IRQL <= %s: nothing done", who,
                   displib_irql_name(level, a), displib_irql_name(most, b));
    return 0;
}

PMDL IoAllocateMdl(PVOID VirtualAddress, ULONG Length, BOOLEAN SecondaryBuffer, BOOLEAN ChargeQuota, PIRP Irp)
{
    static const char who[] = "IoAllocateMdl";
    if (!irql_at_most(who, DISPATCH_LEVEL))
        return NULL;
    const char *refusal = NULL;
    if (!Length || Length > MDL_MAX_BYTES)
        refusal = "Length must be 1 .. 4 GB - PAGE_SIZE";
    else if (Irp || SecondaryBuffer)
        refusal = "there are no IRPs here: Irp must be NULL and SecondaryBuffer FALSE";
    else if (ChargeQuota)
        refusal = "ChargeQuota is reserved: FALSE";
    if (refusal) {
        displib_report("%s: %u bytes at %p: %s: NULL", who, (unsigned)Length, VirtualAddress, refusal);
        return NULL;
    }
    SIZE_T size = MmSizeOfMdl(VirtualAddress, Length);
    MDL *mdl = displib_pool_allocate(who, 0, size, MDL_TAG);
    if (!mdl)
        return NULL;
    mdl->Size = (CSHORT)(size <= 0x7FFF ? size : 0x7FFF);
    mdl->StartVa = PAGE_ALIGN(VirtualAddress);
    mdl->ByteOffset = BYTE_OFFSET(VirtualAddress);
    mdl->ByteCount = Length;
    mdl->PageCount = ADDRESS_AND_SIZE_TO_SPAN_PAGES(VirtualAddress, Length);
    mdl->PfnArray = (PPFN_NUMBER)(mdl + 1); /* where the WDK's MDL has it */
    return mdl;
}

static void describe_pages(PMDL mdl)
{
    PPFN_NUMBER pfn = MmGetMdlPfnArray(mdl);
    SIZE_T pages = ADDRESS_AND_SIZE_TO_SPAN_PAGES(MmGetMdlVirtualAddress(mdl), mdl->ByteCount);
    if (!pfn || pages > mdl->PageCount)
        return; /* not an MDL of IoAllocateMdl (or the kernel's): no room for the page numbers */
    for (SIZE_T i = 0; i < pages; i++)
        pfn[i] = ((ULONG_PTR)mdl->StartVa >> PAGE_SHIFT) + i;
}

VOID IoFreeMdl(PMDL Mdl)
{
    if (displib_pool_tag_of(Mdl) != MDL_TAG) {
        displib_report("IoFreeMdl: %p is not a live MDL of IoAllocateMdl (never allocated, or freed): not freed",
                       (void *)Mdl);
        return;
    }
    if (Mdl->MdlFlags & MDL_PAGES_LOCKED) {
        displib_report("IoFreeMdl: MDL %p still has its pages locked (MmUnlockPages first; Driver Verifier stops "
                       "on it on Windows): not freed",
                       (void *)Mdl);
        return;
    }
    ExFreePoolWithTag(Mdl, MDL_TAG);
}

VOID MmBuildMdlForNonPagedPool(PMDL MemoryDescriptorList)
{
    if (MemoryDescriptorList->MdlFlags & (MDL_PAGES_LOCKED | MDL_MAPPED_TO_SYSTEM_VA | MDL_PARTIAL)) {
        displib_report("MmBuildMdlForNonPagedPool: MDL %p describes locked, mapped or partial pages already: "
                       "nothing changes",
                       (void *)MemoryDescriptorList);
        return;
    }
    describe_pages(MemoryDescriptorList);
    MemoryDescriptorList->MappedSystemVa = MmGetMdlVirtualAddress(MemoryDescriptorList);
    MemoryDescriptorList->MdlFlags |= MDL_SOURCE_IS_NONPAGED_POOL;
}

VOID MmProbeAndLockPages(PMDL MemoryDescriptorList, KPROCESSOR_MODE AccessMode, LOCK_OPERATION Operation)
{
    (void)AccessMode; /* one address space: nothing to probe against */
    static const char who[] = "MmProbeAndLockPages";
    /* Pageable memory at <= APC_LEVEL; non-paged is all this shim can tell from nothing, so
     * DISPATCH_LEVEL is allowed as for non-paged memory. */
    if (!irql_at_most(who, DISPATCH_LEVEL))
        return;
    if (MemoryDescriptorList->MdlFlags & (MDL_PAGES_LOCKED | MDL_SOURCE_IS_NONPAGED_POOL)) {
        displib_report("%s: MDL %p %s: nothing changes", who, (void *)MemoryDescriptorList,
                       (MemoryDescriptorList->MdlFlags & MDL_PAGES_LOCKED)
                           ? "has its pages locked already"
                           : "describes non-paged pool (MmBuildMdlForNonPagedPool): there is nothing to lock");
        return;
    }
    if ((unsigned)Operation > IoModifyAccess) {
        displib_report("%s: Operation %d is not a LOCK_OPERATION: nothing locked", who, (int)Operation);
        return;
    }
    describe_pages(MemoryDescriptorList);
    MemoryDescriptorList->MdlFlags |= MDL_PAGES_LOCKED;
    if (Operation != IoReadAccess)
        MemoryDescriptorList->MdlFlags |= MDL_WRITE_OPERATION;
}

VOID MmUnlockPages(PMDL MemoryDescriptorList)
{
    if (!irql_at_most("MmUnlockPages", DISPATCH_LEVEL))
        return;
    if (!(MemoryDescriptorList->MdlFlags & MDL_PAGES_LOCKED)) {
        displib_report("MmUnlockPages: MDL %p does not have its pages locked (MmProbeAndLockPages): nothing done",
                       (void *)MemoryDescriptorList);
        return;
    }
    /* Unlocking also ends a system mapping of the pages. */
    MemoryDescriptorList->MdlFlags &= (CSHORT) ~(MDL_PAGES_LOCKED | MDL_WRITE_OPERATION | MDL_MAPPED_TO_SYSTEM_VA);
    MemoryDescriptorList->MappedSystemVa = NULL;
}

PVOID MmMapLockedPagesSpecifyCache(PMDL MemoryDescriptorList, KPROCESSOR_MODE AccessMode,
                                   MEMORY_CACHING_TYPE CacheType, PVOID RequestedAddress, ULONG BugCheckOnFailure,
                                   ULONG Priority)
{
    (void)CacheType;
    (void)RequestedAddress;
    (void)BugCheckOnFailure;
    (void)Priority;
    static const char who[] = "MmMapLockedPagesSpecifyCache";
    if (!irql_at_most(who, DISPATCH_LEVEL))
        return NULL;
    PMDL m = MemoryDescriptorList;
    if (AccessMode != KernelMode) {
        displib_report("%s: MDL %p: only KernelMode mappings here (there is no user address space): NULL", who,
                       (void *)m);
        return NULL;
    }
    if (m->MdlFlags & MDL_SOURCE_IS_NONPAGED_POOL)
        return m->MappedSystemVa;
    if (!(m->MdlFlags & MDL_PAGES_LOCKED)) {
        displib_report("%s: MDL %p does not have its pages locked (MmProbeAndLockPages first): NULL", who,
                       (void *)m);
        return NULL;
    }
    if (m->MdlFlags & MDL_MAPPED_TO_SYSTEM_VA) {
        displib_report("%s: MDL %p is mapped already (MmGetSystemAddressForMdlSafe reuses the mapping): the same "
                       "address",
                       who, (void *)m);
        return m->MappedSystemVa;
    }
    m->MappedSystemVa = MmGetMdlVirtualAddress(m);
    m->MdlFlags |= MDL_MAPPED_TO_SYSTEM_VA;
    return m->MappedSystemVa;
}

VOID MmUnmapLockedPages(PVOID BaseAddress, PMDL MemoryDescriptorList)
{
    PMDL m = MemoryDescriptorList;
    if (!(m->MdlFlags & MDL_MAPPED_TO_SYSTEM_VA) || BaseAddress != m->MappedSystemVa) {
        displib_report("MmUnmapLockedPages: %p is not MDL %p's system mapping: nothing done", BaseAddress,
                       (void *)m);
        return;
    }
    m->MdlFlags &= (CSHORT)~MDL_MAPPED_TO_SYSTEM_VA;
    m->MappedSystemVa = NULL;
}
