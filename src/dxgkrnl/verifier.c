/* The verifier: the documented MUST rules for what a KMD reports, checked at adapter start,
 * context creation and allocation creation. Every failure prints the rule it broke. */
#include "dxgkrnl/dxgkrnl.h"

#define VERIFY(cond, ...)                   \
    do {                                    \
        if (!(cond)) {                      \
            dxgk_refuse("verifier: " __VA_ARGS__); \
            return false;                   \
        }                                   \
    } while (0)

bool dxgk_verify_driver_init(const DRIVER_INITIALIZATION_DATA *d)
{
    VERIFY(d->DxgkDdiAddDevice && d->DxgkDdiStartDevice && d->DxgkDdiQueryAdapterInfo &&
               d->DxgkDdiCreateDevice && d->DxgkDdiDestroyDevice && d->DxgkDdiCreateContext &&
               d->DxgkDdiDestroyContext && d->DxgkDdiCreateAllocation && d->DxgkDdiDestroyAllocation &&
               d->DxgkDdiOpenAllocation && d->DxgkDdiCloseAllocation && d->DxgkDdiRender && d->DxgkDdiPatch &&
               d->DxgkDdiSubmitCommand && d->DxgkDdiBuildPagingBuffer && d->DxgkDdiInterruptRoutine &&
               d->DxgkDdiDpcRoutine,
           "DRIVER_INITIALIZATION_DATA: a mandatory WDDM 1.x DDI is NULL");
    return true;
}

bool dxgk_verify_driver_caps(const DXGK_DRIVERCAPS *c)
{
    const DXGK_VIDMMCAPS *mm = &c->MemoryManagementCaps;
    const DXGK_VIDSCHCAPS *s = &c->SchedulingCaps;
    /* Seed 003 / wddm-semantics §6.1, checked at adapter start: each message names the
     * members involved, and the adapter does not start. */
    VERIFY(!mm->DedicatedPagingEngine, "DXGK_VIDMMCAPS.DedicatedPagingEngine is reserved and must be 0");
    VERIFY(!mm->PagingEngineCanSwizzle, "DXGK_VIDMMCAPS.PagingEngineCanSwizzle is reserved and must be 0");
    VERIFY(!mm->Reserved, "DXGK_VIDMMCAPS.Reserved must be 0 (Value 0x%08x)", mm->Value);
    VERIFY(!(mm->GpuMmuSupported && mm->IoMmuSupported),
           "DXGK_VIDMMCAPS.GpuMmuSupported and DXGK_VIDMMCAPS.IoMmuSupported are both set: an adapter "
           "cannot support the GpuMmu and the IoMmu models at the same time");
    VERIFY(!mm->VirtualAddressingSupported || mm->GpuMmuSupported || mm->IoMmuSupported,
           "DXGK_VIDMMCAPS.VirtualAddressingSupported is set without DXGK_VIDMMCAPS.GpuMmuSupported or "
           "DXGK_VIDMMCAPS.IoMmuSupported");
    VERIFY(!mm->CrossAdapterResourceTexture || mm->CrossAdapterResource,
           "DXGK_VIDMMCAPS.CrossAdapterResourceTexture (tier 2) is set without DXGK_VIDMMCAPS.CrossAdapterResource "
           "(tier 1)");
    VERIFY(!mm->CrossAdapterResourceScanout || (mm->CrossAdapterResource && mm->CrossAdapterResourceTexture),
           "DXGK_VIDMMCAPS.CrossAdapterResourceScanout (tier 3) needs DXGK_VIDMMCAPS.CrossAdapterResource and "
           "DXGK_VIDMMCAPS.CrossAdapterResourceTexture");
    VERIFY(!mm->IoMmuSecureModeRequired || mm->IoMmuSecureModeSupported,
           "DXGK_VIDMMCAPS.IoMmuSecureModeRequired is set without DXGK_VIDMMCAPS.IoMmuSecureModeSupported");
    /* Seed 003: "required or the OS will otherwise not start the adapter". This platform gives a
     * KMD no IOMMU isolation (its GPU reaches system memory directly), so it never starts such
     * an adapter (issue 20 §5). */
    VERIFY(!mm->IoMmuSecureModeRequired || !mm->IoMmuSecureModeSupported,
           "DXGK_VIDMMCAPS.IoMmuSecureModeRequired: the KMD requires IOMMU isolation, which this platform does not "
           "provide, so the adapter is not started");
    /* "The host KMD needs to set the cap if all DDIs are implemented" (seed 003): the GPU-PV
     * DDIs are not part of this model's DRIVER_INITIALIZATION_DATA, so no KMD has them all. */
    VERIFY(!mm->ParavirtualizationSupported,
           "DXGK_VIDMMCAPS.ParavirtualizationSupported is set but the KMD implements none of the GPU "
           "paravirtualization DDIs the cap requires");
    /* Issue 6: GPU virtual addressing is a WDDM 2.0 model: the GpuMmu model is implemented
     * (vidmm/vaspace.c); the IoMmu model is not (FIXME(iommu): refused, docs/architecture.md). */
    VERIFY(!mm->VirtualAddressingSupported || c->WDDMVersion >= DXGKDDI_WDDMv2,
           "DXGK_VIDMMCAPS.VirtualAddressingSupported needs DXGK_DRIVERCAPS.WDDMVersion >= 0x2000 "
           "(DXGKDDI_WDDMv2), got 0x%x", (unsigned)c->WDDMVersion);
    VERIFY(!mm->IoMmuSupported,
           "DXGK_VIDMMCAPS.IoMmuSupported: the IoMmu model is not supported yet by this kernel (use "
           "DXGK_VIDMMCAPS.GpuMmuSupported)");
    VERIFY(!mm->GpuMmuSupported || mm->VirtualAddressingSupported,
           "DXGK_VIDMMCAPS.GpuMmuSupported is set without DXGK_VIDMMCAPS.VirtualAddressingSupported");
    VERIFY(!s->Reserved, "DXGK_VIDSCHCAPS.Reserved must be 0 (Value 0x%08x)", s->Value);
    /* wddm-semantics §6.2 */
    VERIFY(!s->PreemptionAware || s->MultiEngineAware, "DXGK_VIDSCHCAPS.PreemptionAware is set without DXGK_VIDSCHCAPS.MultiEngineAware");
    VERIFY(!s->NoDmaPatching || (s->PreemptionAware && s->MultiEngineAware),
           "DXGK_VIDSCHCAPS.NoDmaPatching needs DXGK_VIDSCHCAPS.PreemptionAware and DXGK_VIDSCHCAPS.MultiEngineAware");
    VERIFY(!s->CancelCommandAware || s->MultiEngineAware,
           "DXGK_VIDSCHCAPS.CancelCommandAware is set without DXGK_VIDSCHCAPS.MultiEngineAware");
    UINT nodes = c->GpuEngineTopology.NbAsymetricProcessingNodes;
    VERIFY(nodes >= 1 && nodes <= DXGK_MAX_NODES, "NbAsymetricProcessingNodes %u not in 1..%u", nodes,
           DXGK_MAX_NODES);
    VERIFY(!s->MultiEngineAware || mm->PagingNode < nodes, "DXGK_VIDMMCAPS.PagingNode %u >= %u nodes",
           mm->PagingNode, nodes);
    return true;
}

bool dxgk_verify_segments(const DXGK_QUERYSEGMENTOUT *out)
{
    UINT agp = 0;
    VERIFY(out->PagingBufferSize >= 64, "DXGK_QUERYSEGMENTOUT.PagingBufferSize %u too small", out->PagingBufferSize);
    /* docs/architecture.md: paging buffers live in system memory. */
    VERIFY(out->PagingBufferSegmentId == 0, "PagingBufferSegmentId %u: only system memory (0) is supported",
           out->PagingBufferSegmentId);
    for (UINT i = 0; i < out->NbSegment; i++) {
        const DXGK_SEGMENTDESCRIPTOR *d = &out->pSegmentDescriptor[i];
        DXGK_SEGMENTFLAGS f = d->Flags;
        UINT id = i + 1;
        VERIFY(!f.Reserved, "segment %u: reserved DXGK_SEGMENTFLAGS bits set (0x%08x)", id, f.Value);
        VERIFY(d->Size > 0 && d->Size % DXGK_PAGE_SIZE == 0, "segment %u: Size %zu not a positive page multiple",
               id, (size_t)d->Size);
        VERIFY(!f.Agp || f.Value == 0x2, "segment %u: Agp must be the only flag", id);
        agp += f.Agp;
        VERIFY(!f.CacheCoherent || f.Aperture, "segment %u: CacheCoherent only with Aperture", id);
        VERIFY(!(f.Aperture && f.PopulatedFromSystemMemory), "segment %u: PopulatedFromSystemMemory on an aperture",
               id);
        UINT power = (f.PreservedDuringStandby << 2) | (f.PreservedDuringHibernate << 1) |
                     f.PartiallyPreservedDuringHibernate;
        VERIFY(power == 6 || power == 5 || power == 4 || power == 0,
               "segment %u: invalid Standby/Hibernate/PartiallyPreserved combination", id);
        VERIFY(!(f.SupportsCpuHostAperture && f.CpuVisible), "segment %u: SupportsCpuHostAperture with CpuVisible",
               id);
        VERIFY(!f.SupportsCachedCpuHostAperture || f.SupportsCpuHostAperture,
               "segment %u: SupportsCachedCpuHostAperture needs SupportsCpuHostAperture", id);
        VERIFY(!f.CpuVisible || f.Aperture || d->CpuTranslatedAddress.QuadPart != 0,
               "segment %u: CpuVisible memory segment without CpuTranslatedAddress", id);
        VERIFY(f.Aperture || d->CommitLimit == 0 || d->CommitLimit == d->Size,
               "segment %u: a memory segment's CommitLimit must equal Size", id);
        /* DXGK_SEGMENTDESCRIPTOR.pBankRangeTable: the end offsets of banks 1..n-1, contiguous
         * from offset 0, the last bank ending at Size; bank ids are 1..127 (HintedBank). */
        if (f.UseBanking) {
            VERIFY(d->NbOfBanks >= 1 && d->NbOfBanks <= 127, "segment %u: UseBanking with NbOfBanks %u (1..127)", id,
                   d->NbOfBanks);
            VERIFY(d->NbOfBanks == 1 || d->pBankRangeTable, "segment %u: UseBanking without pBankRangeTable", id);
            for (UINT b = 0; b + 1 < d->NbOfBanks; b++)
                VERIFY(d->pBankRangeTable[b] > (b ? d->pBankRangeTable[b - 1] : 0) && d->pBankRangeTable[b] < d->Size,
                       "segment %u: pBankRangeTable[%u] = %zu: bank ends must ascend inside the segment", id, b,
                       (size_t)d->pBankRangeTable[b]);
        }
    }
    VERIFY(agp == 0, "AGP segments are not supported");
    return true;
}

bool dxgk_verify_context_info(DXGK_CONTEXTINFO *info)
{
    /* A KMD that leaves a size at 0 gets the kernel's default (and a debug line). */
    if (!info->DmaBufferSize) {
        dxgk_refuse("verifier: DXGK_CONTEXTINFO.DmaBufferSize 0, using 64 KiB");
        info->DmaBufferSize = 64u << 10;
    }
    if (!info->AllocationListSize) {
        dxgk_refuse("verifier: DXGK_CONTEXTINFO.AllocationListSize 0, using 256");
        info->AllocationListSize = 256;
    }
    if (!info->PatchLocationListSize) {
        dxgk_refuse("verifier: DXGK_CONTEXTINFO.PatchLocationListSize 0, using 1024");
        info->PatchLocationListSize = 1024;
    }
    if (info->DmaBufferSegmentSet) {
        dxgk_refuse("verifier: DXGK_CONTEXTINFO.DmaBufferSegmentSet 0x%x ignored: DMA buffers live in system memory",
                    info->DmaBufferSegmentSet);
        info->DmaBufferSegmentSet = 0;
    }
    return true;
}

bool dxgk_verify_hinted_bank(const struct dxgk_adapter *a, const DXGK_SEGMENTPREFERENCE *p,
                             DXGK_SEGMENTBANKPREFERENCE h, const char *who)
{
    /* HintedBank names banks of SegmentId0, "the most preferred segment", which must use banking
     * (DXGK_ALLOCATIONINFO.HintedBank, DXGK_SEGMENTBANKPREFERENCE: ids 1..127, 0 = none). */
    if (!h.Value)
        return true;
    UINT banks = p->SegmentId0 && p->SegmentId0 <= a->segment_count ? a->seg[p->SegmentId0 - 1].bank_count : 0;
    VERIFY(banks, "%s: HintedBank 0x%08x but preferred segment %u does not use banking", who, h.Value,
           p->SegmentId0);
    UINT bank[4] = { h.Bank0, h.Bank1, h.Bank2, h.Bank3 };
    for (UINT k = 0; k < 4; k++)
        VERIFY(bank[k] <= banks, "%s: HintedBank.Bank%u = %u, segment %u has %u banks", who, k, bank[k],
               p->SegmentId0, banks);
    return true;
}

bool dxgk_verify_allocation_info(const struct dxgk_adapter *a, const DXGK_ALLOCATIONINFO *i, UINT index)
{
    UINT valid = a->segment_count >= 32 ? ~0u : ((1u << a->segment_count) - 1u);
    VERIFY(i->Size > 0, "allocation %u: DXGK_ALLOCATIONINFO.Size is 0", index);
    VERIFY(i->AllocationPriority != 0, "allocation %u: AllocationPriority 0 is invalid (wddm-semantics §6.4)", index);
    VERIFY(i->SupportedWriteSegmentSet != 0, "allocation %u: empty SupportedWriteSegmentSet", index);
    VERIFY(!(i->SupportedWriteSegmentSet & ~valid) && !(i->SupportedReadSegmentSet & ~valid),
           "allocation %u: supported segment sets 0x%x/0x%x name segments that do not exist (valid 0x%x)", index,
           i->SupportedReadSegmentSet, i->SupportedWriteSegmentSet, valid);
    UINT aperture = 0;
    for (UINT s = 0; s < a->segment_count; s++)
        if (a->seg[s].aperture)
            aperture |= 1u << s;
    VERIFY(!(i->EvictionSegmentSet & ~aperture),
           "allocation %u: EvictionSegmentSet 0x%x names segments that are not aperture segments or do not exist "
           "(aperture 0x%x; wddm-semantics §6.4: aperture segments only)", index, i->EvictionSegmentSet, aperture);
    VERIFY(i->Alignment == 0 || (i->Alignment & (i->Alignment - 1)) == 0,
           "allocation %u: Alignment %u not a power of two", index, i->Alignment);
    UINT supported = i->SupportedWriteSegmentSet | i->SupportedReadSegmentSet;
    const D3DDDI_SEGMENTPREFERENCE *p = &i->PreferredSegment;
    UINT ids[5] = { p->SegmentId0, p->SegmentId1, p->SegmentId2, p->SegmentId3, p->SegmentId4 };
    for (UINT k = 0; k < 5 && ids[k]; k++) {
        VERIFY(ids[k] <= a->segment_count, "allocation %u: preferred segment %u does not exist", index, ids[k]);
        VERIFY(supported & (1u << (ids[k] - 1)),
               "allocation %u: preferred segment %u not in the supported set 0x%x (wddm-semantics §6.4)", index,
               ids[k], supported);
    }
    if (!dxgk_verify_hinted_bank(a, p, i->HintedBank, "DXGK_ALLOCATIONINFO"))
        return false;
    const DXGK_ALLOCATIONINFOFLAGS f = i->Flags;
    VERIFY(!f.PermanentSysMem || f.CpuVisible, "allocation %u: PermanentSysMem needs CpuVisible", index);
    VERIFY(!f.Cached || f.CpuVisible, "allocation %u: Cached needs CpuVisible", index);
    VERIFY(!f.ExplicitResidencyNotification || f.AccessedPhysically,
           "allocation %u: ExplicitResidencyNotification needs AccessedPhysically", index);
    VERIFY(!(f.Protected && (f.PermanentSysMem || f.ExistingSysMem || f.ExistingKernelSysMem)),
           "allocation %u: Protected with a system-memory flag", index);
    if (f.CpuVisible) {
        UINT cpu = 0;
        for (UINT s = 0; s < a->segment_count; s++)
            if (a->seg[s].cpu_accessible)
                cpu |= 1u << s;
        VERIFY(i->SupportedWriteSegmentSet & cpu,
               "allocation %u: CpuVisible but no supported segment is CPU-accessible", index);
    }
    return true;
}

/* A primary (D3DDDI_ALLOCATIONINFO.Flags.Primary; the kernel knows it, the WDK has no
 * DXGK_ALLOCATIONINFOFLAGS bit for it). wddm-semantics §3.5: the KMD may not set
 * PermanentSysMem, Cached, Protected, ExistingSysMem or ExistingKernelSysMem on it, and every
 * segment of its write set must be CPU-accessible. Seed 003: DXGK_VIDMMCAPS.NonCpuVisiblePrimary
 * lifts the last rule (and the CpuVisible flag it implies). */
bool dxgk_verify_primary(const struct dxgk_adapter *a, const DXGK_ALLOCATIONINFO *i, UINT index)
{
    const DXGK_ALLOCATIONINFOFLAGS f = i->Flags;
    VERIFY(!(f.PermanentSysMem || f.Cached || f.Protected || f.ExistingSysMem || f.ExistingKernelSysMem),
           "allocation %u: a primary with PermanentSysMem, Cached, Protected, ExistingSysMem or "
           "ExistingKernelSysMem (flags 0x%x; wddm-semantics §3.5)", index, f.Value);
    if (a->caps.MemoryManagementCaps.NonCpuVisiblePrimary)
        return true;
    UINT cpu = 0;
    for (UINT s = 0; s < a->segment_count; s++)
        if (a->seg[s].cpu_accessible)
            cpu |= 1u << s;
    UINT sets = i->SupportedWriteSegmentSet | i->SupportedReadSegmentSet;
    VERIFY(f.CpuVisible && !(sets & ~cpu),
           "allocation %u: a primary must be CpuVisible and placed only in CPU-accessible segments (supported "
           "0x%x, CPU-accessible 0x%x, CpuVisible %u) unless DXGK_VIDMMCAPS.NonCpuVisiblePrimary is set "
           "(wddm-semantics §3.5, seed 003)", index, sets, cpu, f.CpuVisible);
    return true;
}

/* DXGK_ALLOCATIONINFO.Flags2.ShareBackingStoreWithKmd (seed 002, wddm-semantics §7 rules 1, 2
 * and 6): only when the OS enabled DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD and THIS KMD asked
 * (DxgkCbQueryFeatureSupport or DxgkCbIsFeatureEnabled) and was last answered Enabled TRUE -
 * which a KMD older than WDDM 3.1 never is (objects/feature.c) -, only on an allocation
 * created shared and CPU-visible, never with existing system memory as backing store, and
 * placed only in the aperture (system memory) segment. Without the flag: nothing to check. */
bool dxgk_verify_share_backing_store(const struct dxgk_adapter *a, const DXGK_ALLOCATIONINFO *i, UINT index,
                                     bool shared, bool existing_sysmem)
{
    if (!i->Flags2.ShareBackingStoreWithKmd)
        return true;
    VERIFY(dxgk_feature_enabled(a, DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD),
           "allocation %u: Flags2.ShareBackingStoreWithKmd set but DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD "
           "is not enabled (seed 002: the KMD must not set it)", index);
    VERIFY(dxgk_feature_granted(a, DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD),
           "allocation %u: Flags2.ShareBackingStoreWithKmd set but this KMD never queried the feature or was "
           "last told Enabled FALSE (seed 002: usable only if the callback succeeds and Enable is TRUE)", index);
    VERIFY(shared, "allocation %u: Flags2.ShareBackingStoreWithKmd on an allocation not created shared "
           "(seed 002: must be created as shared)", index);
    VERIFY(!existing_sysmem && !i->Flags.ExistingSysMem && !i->Flags.ExistingKernelSysMem,
           "allocation %u: Flags2.ShareBackingStoreWithKmd with existing system memory "
           "(seed 002: cannot use existing system memory as backing store)", index);
    VERIFY(i->Flags.CpuVisible, "allocation %u: Flags2.ShareBackingStoreWithKmd needs CpuVisible (seed 002)", index);
    UINT aperture = 0;
    for (UINT s = 0; s < a->segment_count; s++)
        if (a->seg[s].aperture)
            aperture |= 1u << s;
    UINT supported = i->SupportedReadSegmentSet | i->SupportedWriteSegmentSet;
    VERIFY(aperture && supported && !(supported & ~aperture),
           "allocation %u: Flags2.ShareBackingStoreWithKmd with supported segment set 0x%x: only the aperture "
           "segment 0x%x is allowed (seed 002: system memory segment only)", index, supported, aperture);
    return true;
}

/* A cross-adapter resource (D3DKMT_CREATEALLOCATIONFLAGS.CrossAdapter; seed 003, wddm-semantics
 * §6.5): what the KMD answered must keep every listed property the kernel can see. The row
 * pitch (128) and height (4 rows) granularity live in the resource's layout, which only the
 * driver package knows (private data): the reference KMD computes them (kmd/allocation.c) and
 * tests/dxgkrnl/test_cross_adapter.c checks them; here the size must at least be whole pages. */
bool dxgk_verify_cross_adapter(const struct dxgk_adapter *a, const DXGK_ALLOCATIONINFO *i, UINT index)
{
    UINT aperture = 0;
    for (UINT s = 0; s < a->segment_count; s++)
        if (a->seg[s].aperture)
            aperture |= 1u << s;
    UINT supported = i->SupportedReadSegmentSet | i->SupportedWriteSegmentSet;
    VERIFY(aperture && i->SupportedWriteSegmentSet && !(supported & ~aperture) && !(i->EvictionSegmentSet & ~aperture),
           "cross-adapter allocation %u: supported segment set 0x%x (eviction 0x%x) is not aperture-only 0x%x "
           "(seed 003: paged in only to the aperture segment)", index, supported, i->EvictionSegmentSet, aperture);
    VERIFY(i->Flags.CpuVisible, "cross-adapter allocation %u: CpuVisible is not set (seed 003: must be marked "
           "CPU visible)", index);
    VERIFY(!i->Flags.Cached, "cross-adapter allocation %u: Cached is set (seed 003: the OS creates it "
           "write-combined)", index);
    VERIFY(i->Alignment % DXGK_PAGE_SIZE == 0, "cross-adapter allocation %u: Alignment %u is not a multiple of "
           "the page (seed 003: the start address is page aligned)", index, (unsigned)i->Alignment);
    VERIFY(i->Size && i->Size % DXGK_PAGE_SIZE == 0, "cross-adapter allocation %u: Size %zu is not whole pages "
           "(seed 003: one linear, page-aligned allocation)", index, (size_t)i->Size);
    VERIFY(!i->Flags.Protected && !i->Flags.ExistingSysMem && !i->Flags.ExistingKernelSysMem &&
               !i->Flags.PermanentSysMem && !i->Flags2.ShareBackingStoreWithKmd,
           "cross-adapter allocation %u: Protected, PermanentSysMem, ExistingSysMem, ExistingKernelSysMem or "
           "Flags2.ShareBackingStoreWithKmd is set (the kernel owns its shared pages)", index);
    return true;
}

/* The GpuMmu model (issue 6, common brief): the five DDIs the model calls must exist. */
bool dxgk_verify_gpummu_ddi(const DRIVER_INITIALIZATION_DATA *d)
{
    VERIFY(d->DxgkDdiSetRootPageTable && d->DxgkDdiGetRootPageTableSize && d->DxgkDdiSubmitCommandVirtual &&
               d->DxgkDdiCreateProcess && d->DxgkDdiDestroyProcess,
           "DXGK_VIDMMCAPS.VirtualAddressingSupported + GpuMmuSupported need DxgkDdiSetRootPageTable, "
           "DxgkDdiGetRootPageTableSize, DxgkDdiSubmitCommandVirtual, DxgkDdiCreateProcess and "
           "DxgkDdiDestroyProcess: one is NULL");
    return true;
}

/* DXGK_GPUMMUCAPS (issue 6): the level count, the VA width and the update mode this kernel
 * drives. Only GPU_PHYSICAL updates (the paging engine writes the tables by physical
 * address, common brief) are implemented. */
bool dxgk_verify_gpummu_caps(const DXGK_GPUMMUCAPS *c)
{
    VERIFY(c->PageTableLevelCount >= 2 && c->PageTableLevelCount <= 4,
           "DXGK_GPUMMUCAPS.PageTableLevelCount %u not in 2..4", c->PageTableLevelCount);
    /* FIXME(gpummu): 3 and 4 levels are valid but not implemented (vidmm/vaspace.c). */
    VERIFY(c->PageTableLevelCount == 2,
           "DXGK_GPUMMUCAPS.PageTableLevelCount %u: only 2 levels are supported yet", c->PageTableLevelCount);
    VERIFY(c->VirtualAddressBitCount >= 32 && c->VirtualAddressBitCount <= 48,
           "DXGK_GPUMMUCAPS.VirtualAddressBitCount %u not in 32..48", c->VirtualAddressBitCount);
    VERIFY(c->PageTableUpdateMode == DXGK_PAGETABLEUPDATE_GPU_PHYSICAL,
           "DXGK_GPUMMUCAPS.PageTableUpdateMode %d: only DXGK_PAGETABLEUPDATE_GPU_PHYSICAL is supported",
           (int)c->PageTableUpdateMode);
    VERIFY(!c->Reserved, "DXGK_GPUMMUCAPS.Reserved must be 0");
    VERIFY(!c->LargePageSupported && !c->DualPteSupported,
           "DXGK_GPUMMUCAPS.LargePageSupported / DualPteSupported: 64 KiB pages are not supported yet");
    return true;
}

/* DXGK_PAGE_TABLE_LEVEL_DESC of one level: sizes a multiple of 4 KiB (the root may start at
 * 0: resizable with 2 levels), an alignment that is a power of two, segments that exist. */
bool dxgk_verify_page_table_level(const struct dxgk_adapter *a, const DXGK_PAGE_TABLE_LEVEL_DESC *l, UINT level,
                                  UINT levels)
{
    bool root = level == 0;
    VERIFY(l->PageTableIndexBitCount >= 1 && l->PageTableIndexBitCount <= 30,
           "DXGK_PAGE_TABLE_LEVEL_DESC[%u].PageTableIndexBitCount %u not in 1..30", level, l->PageTableIndexBitCount);
    VERIFY(l->PageTableSizeInBytes % DXGK_PAGE_SIZE == 0 && (l->PageTableSizeInBytes || (root && levels == 2)),
           "DXGK_PAGE_TABLE_LEVEL_DESC[%u].PageTableSizeInBytes %llu is not a positive multiple of 4096", level,
           (unsigned long long)l->PageTableSizeInBytes);
    VERIFY(l->PageTableAlignmentInBytes && !(l->PageTableAlignmentInBytes & (l->PageTableAlignmentInBytes - 1)),
           "DXGK_PAGE_TABLE_LEVEL_DESC[%u].PageTableAlignmentInBytes %llu is not a power of two", level,
           (unsigned long long)l->PageTableAlignmentInBytes);
    VERIFY(l->PageTableSegmentId >= 1 && l->PageTableSegmentId <= a->segment_count &&
               !a->seg[l->PageTableSegmentId - 1].aperture,
           "DXGK_PAGE_TABLE_LEVEL_DESC[%u].PageTableSegmentId %u is not a memory segment of this adapter", level,
           l->PageTableSegmentId);
    return true;
}
