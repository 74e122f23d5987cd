/* The verifier: the documented MUST rules for what a KMD reports, checked at adapter start,
 * context creation and allocation creation (issue 19 §3). Every check has an id ("Caps.VidMmReserved");
 * a failed one is reported (verifier_report.c) with that id, the DDI whose answer it read and the
 * field and rule it broke, and the KMD's call fails. */
#include "dxgkrnl/dxgkrnl.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* A check in a function that has the adapter `a` and the DDI name `ddi` in scope. LIMIT: what the
 * rules allow but this kernel does not implement yet (counted apart from violations). */
#define CHECK_(cond, id, limit, ...)                              \
    do {                                                          \
        if (!(cond)) {                                            \
            dxgk_verifier_report(a, ddi, id, limit, __VA_ARGS__); \
            return false;                                         \
        }                                                         \
    } while (0)
#define VERIFY(cond, id, ...) CHECK_(cond, id, false, __VA_ARGS__)
#define LIMIT(cond, id, ...) CHECK_(cond, id, true, __VA_ARGS__)

/* DDIs a DRIVER_INITIALIZATION_DATA must fill, by name, so a report names each one missing. */
struct ddi_slot {
    const char *name;
    size_t offset;
};
#define SLOT(member) { #member, offsetof(DRIVER_INITIALIZATION_DATA, member) }
static const struct ddi_slot mandatory_ddis[] = {
    SLOT(DxgkDdiAddDevice), SLOT(DxgkDdiStartDevice), SLOT(DxgkDdiQueryAdapterInfo), SLOT(DxgkDdiCreateDevice),
    SLOT(DxgkDdiDestroyDevice), SLOT(DxgkDdiCreateContext), SLOT(DxgkDdiDestroyContext),
    SLOT(DxgkDdiCreateAllocation), SLOT(DxgkDdiDestroyAllocation), SLOT(DxgkDdiOpenAllocation),
    SLOT(DxgkDdiCloseAllocation), SLOT(DxgkDdiRender), SLOT(DxgkDdiPatch), SLOT(DxgkDdiSubmitCommand),
    SLOT(DxgkDdiBuildPagingBuffer), SLOT(DxgkDdiInterruptRoutine), SLOT(DxgkDdiDpcRoutine),
};
static const struct ddi_slot preemption_ddis[] = { SLOT(DxgkDdiPreemptCommand) };
static const struct ddi_slot exclusive_access_ddis[] = { SLOT(DxgkDdiBeginExclusiveAccess), SLOT(DxgkDdiEndExclusiveAccess) };
static const struct ddi_slot engine_tdr_ddis[] = { SLOT(DxgkDdiQueryDependentEngineGroup),
                                                   SLOT(DxgkDdiQueryEngineStatus), SLOT(DxgkDdiResetEngine) };
static const struct ddi_slot gpummu_ddis[] = { SLOT(DxgkDdiSetRootPageTable), SLOT(DxgkDdiGetRootPageTableSize),
                                               SLOT(DxgkDdiSubmitCommandVirtual), SLOT(DxgkDdiCreateProcess),
                                               SLOT(DxgkDdiDestroyProcess) };
static const struct ddi_slot iommu_ddis[] = { SLOT(DxgkDdiSubmitCommandVirtual), SLOT(DxgkDdiCreateProcess),
                                              SLOT(DxgkDdiDestroyProcess) };
/* The DDIs this kernel never calls: the slots typed in include/wddm/d3dkmddi_unmodeled.h and the
 * reserved ones. */
static const struct ddi_slot not_modeled_ddis[] = {
    SLOT(DxgkDdiDispatchIoRequest), SLOT(DxgkDdiQueryChildRelations), SLOT(DxgkDdiQueryChildStatus),
    SLOT(DxgkDdiQueryDeviceDescriptor), SLOT(DxgkDdiNotifyAcpiEvent), SLOT(DxgkDdiResetDevice),
    SLOT(DxgkDdiUnload), SLOT(DxgkDdiQueryInterface), SLOT(DxgkDdiControlEtwLogging),
    SLOT(DxgkDdiDescribeAllocation), SLOT(DxgkDdiSetPalette), SLOT(DxgkDdiSetPointerPosition),
    SLOT(DxgkDdiSetPointerShape), SLOT(DxgkDdiCollectDbgInfo), SLOT(DxgkDdiIsSupportedVidPn),
    SLOT(DxgkDdiRecommendFunctionalVidPn), SLOT(DxgkDdiEnumVidPnCofuncModality),
    SLOT(DxgkDdiSetVidPnSourceAddress), SLOT(DxgkDdiSetVidPnSourceVisibility), SLOT(DxgkDdiCommitVidPn),
    SLOT(DxgkDdiUpdateActiveVidPnPresentPath), SLOT(DxgkDdiRecommendMonitorModes),
    SLOT(DxgkDdiRecommendVidPnTopology), SLOT(DxgkDdiGetScanLine), SLOT(DxgkDdiStopCapture),
    SLOT(DxgkDdiControlInterrupt), SLOT(DxgkDdiCreateOverlay), SLOT(DxgkDdiPresent), SLOT(DxgkDdiUpdateOverlay),
    SLOT(DxgkDdiFlipOverlay), SLOT(DxgkDdiDestroyOverlay), SLOT(DxgkDdiLinkDevice),
    SLOT(DxgkDdiSetDisplayPrivateDriverFormat), SLOT(DxgkDdiDescribePageTable), SLOT(DxgkDdiUpdatePageTable),
    SLOT(DxgkDdiUpdatePageDirectory), SLOT(DxgkDdiMovePageDirectory), SLOT(DxgkDdiSubmitRender),
    SLOT(DxgkDdiCreateAllocation2), SLOT(DxgkDdiRenderKm), SLOT(DxgkDdiQueryVidPnHWCapability),
    SLOT(DxgkDdiSetPowerComponentFState), SLOT(DxgkDdiStopDeviceAndReleasePostDisplayOwnership),
    SLOT(DxgkDdiSystemDisplayEnable), SLOT(DxgkDdiSystemDisplayWrite), SLOT(DxgkDdiCancelCommand),
    SLOT(DxgkDdiGetChildContainerId), SLOT(DxgkDdiPowerRuntimeControlRequest),
    SLOT(DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay), SLOT(DxgkDdiNotifySurpriseRemoval),
    SLOT(DxgkDdiGetNodeMetadata), SLOT(DxgkDdiSetPowerPState), SLOT(DxgkDdiControlInterrupt2),
    SLOT(DxgkDdiCheckMultiPlaneOverlaySupport), SLOT(DxgkDdiCalibrateGpuClock),
    SLOT(DxgkDdiFormatHistoryBuffer), SLOT(DxgkDdiRenderGdi), SLOT(DxgkDdiMapCpuHostAperture),
    SLOT(DxgkDdiUnmapCpuHostAperture), SLOT(DxgkDdiCheckMultiPlaneOverlaySupport2),
    SLOT(DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay2), SLOT(DxgkDdiPowerRuntimeSetDeviceHandle),
    SLOT(DxgkDdiSetStablePowerState), SLOT(DxgkDdiSetVideoProtectedRegion),
    SLOT(DxgkDdiCheckMultiPlaneOverlaySupport3), SLOT(DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay3),
    SLOT(DxgkDdiPostMultiPlaneOverlayPresent), SLOT(DxgkDdiValidateUpdateAllocationProperty),
    SLOT(DxgkDdiControlModeBehavior), SLOT(DxgkDdiUpdateMonitorLinkInfo), SLOT(DxgkDdiCreateHwContext),
    SLOT(DxgkDdiDestroyHwContext), SLOT(DxgkDdiCreateHwQueue), SLOT(DxgkDdiDestroyHwQueue),
    SLOT(DxgkDdiSubmitCommandToHwQueue), SLOT(DxgkDdiSwitchToHwContextList), SLOT(DxgkDdiResetHwEngine),
    SLOT(DxgkDdiCreatePeriodicFrameNotification), SLOT(DxgkDdiDestroyPeriodicFrameNotification),
    SLOT(DxgkDdiSetTimingsFromVidPn), SLOT(DxgkDdiSetTargetGamma), SLOT(DxgkDdiSetTargetContentType),
    SLOT(DxgkDdiSetTargetAnalogCopyProtection), SLOT(DxgkDdiSetTargetAdjustedColorimetry),
    SLOT(DxgkDdiDisplayDetectControl), SLOT(DxgkDdiQueryConnectionChange), SLOT(DxgkDdiExchangePreStartInfo),
    SLOT(DxgkDdiGetMultiPlaneOverlayCaps), SLOT(DxgkDdiGetPostCompositionCaps),
    SLOT(DxgkDdiUpdateHwContextState), SLOT(DxgkDdiCreateProtectedSession),
    SLOT(DxgkDdiDestroyProtectedSession), SLOT(DxgkDdiSetSchedulingLogBuffer), SLOT(DxgkDdiSetupPriorityBands),
    SLOT(DxgkDdiNotifyFocusPresent), SLOT(DxgkDdiSetContextSchedulingProperties), SLOT(DxgkDdiSuspendContext),
    SLOT(DxgkDdiResumeContext), SLOT(DxgkDdiSetVirtualMachineData), SLOT(DxgkDdiQueryDiagnosticTypesSupport),
    SLOT(DxgkDdiControlDiagnosticReporting), SLOT(DxgkDdiResumeHwEngine), SLOT(DxgkDdiSignalMonitoredFence),
    SLOT(DxgkDdiPresentToHwQueue), SLOT(DxgkDdiValidateSubmitCommand),
    SLOT(DxgkDdiSetTargetAdjustedColorimetry2), SLOT(DxgkDdiSetTrackedWorkloadPowerLevel),
};
#define DDI_SET(set) (set), sizeof(set) / sizeof((set)[0])

/* The names of the slots of `set` in d that are NULL (`registered` false) or set (true),
 * ", "-separated, into out; returns how many. */
static UINT ddi_names(const DRIVER_INITIALIZATION_DATA *d, const struct ddi_slot *set, size_t n, bool registered,
                      char *out, size_t size)
{
    UINT missing = 0;
    size_t len = 0;
    out[0] = 0;
    for (size_t k = 0; k < n; k++) {
        void (*fn)(void);
        memcpy(&fn, (const char *)d + set[k].offset, sizeof fn);
        if (!fn != !registered)
            continue;
        int w = snprintf(out + len, size - len, "%s%s", missing++ ? ", " : "", set[k].name);
        if (w > 0 && (size_t)w < size - len)
            len += (size_t)w;
    }
    return missing;
}

bool dxgk_verify_driver_init(const struct dxgk_adapter *a, const DRIVER_INITIALIZATION_DATA *d)
{
    const char *ddi = "DxgkInitialize";
    char names[512];
    VERIFY(!ddi_names(d, DDI_SET(mandatory_ddis), false, names, sizeof names), "Init.MandatoryDdi",
           "DRIVER_INITIALIZATION_DATA lacks %s (mandatory for every WDDM KMD)", names);
    /* Not a violation: the KMD learns which of its DDIs stay unused here. */
    char unused[2048];
    if (ddi_names(d, DDI_SET(not_modeled_ddis), true, unused, sizeof unused))
        dxgk_verifier_report(a, ddi, "Init.NotModeledDdi", true,
                             "DRIVER_INITIALIZATION_DATA registers %s, which this kernel never calls", unused);
    return true;
}

bool dxgk_verify_driver_caps(const struct dxgk_adapter *a)
{
    const char *ddi = "DxgkDdiQueryAdapterInfo(DXGKQAITYPE_DRIVERCAPS)";
    const DXGK_DRIVERCAPS *c = &a->caps;
    const DXGK_VIDMMCAPS *mm = &c->MemoryManagementCaps;
    const DXGK_VIDSCHCAPS *s = &c->SchedulingCaps;
    /* Seed 003 / docs/semantics.md §6.1, checked at adapter start: each message names the
     * members involved, and the adapter does not start. */
    VERIFY(!mm->DedicatedPagingEngine, "Caps.DedicatedPagingEngineReserved",
           "DXGK_VIDMMCAPS.DedicatedPagingEngine is reserved and must be 0");
    VERIFY(!mm->PagingEngineCanSwizzle, "Caps.PagingEngineCanSwizzleReserved",
           "DXGK_VIDMMCAPS.PagingEngineCanSwizzle is reserved and must be 0");
    VERIFY(!mm->Reserved, "Caps.VidMmReserved", "DXGK_VIDMMCAPS.Reserved must be 0 (Value 0x%08x)", mm->Value);
    VERIFY(!(mm->GpuMmuSupported && mm->IoMmuSupported), "Caps.GpuMmuAndIoMmu",
           "DXGK_VIDMMCAPS.GpuMmuSupported and DXGK_VIDMMCAPS.IoMmuSupported are both set: an adapter "
           "cannot support the GpuMmu and the IoMmu models at the same time");
    VERIFY(!mm->VirtualAddressingSupported || mm->GpuMmuSupported || mm->IoMmuSupported, "Caps.VirtualAddressingModel",
           "DXGK_VIDMMCAPS.VirtualAddressingSupported is set without DXGK_VIDMMCAPS.GpuMmuSupported or "
           "DXGK_VIDMMCAPS.IoMmuSupported");
    VERIFY(!mm->CrossAdapterResourceTexture || mm->CrossAdapterResource, "Caps.CrossAdapterTier2",
           "DXGK_VIDMMCAPS.CrossAdapterResourceTexture (tier 2) is set without DXGK_VIDMMCAPS.CrossAdapterResource "
           "(tier 1)");
    VERIFY(!mm->CrossAdapterResourceScanout || (mm->CrossAdapterResource && mm->CrossAdapterResourceTexture),
           "Caps.CrossAdapterTier3",
           "DXGK_VIDMMCAPS.CrossAdapterResourceScanout (tier 3) needs DXGK_VIDMMCAPS.CrossAdapterResource and "
           "DXGK_VIDMMCAPS.CrossAdapterResourceTexture");
    VERIFY(!mm->IoMmuSecureModeRequired || mm->IoMmuSecureModeSupported, "Caps.IoMmuSecureModeRequired",
           "DXGK_VIDMMCAPS.IoMmuSecureModeRequired is set without DXGK_VIDMMCAPS.IoMmuSecureModeSupported");
    /* "The host KMD needs to set the cap if all DDIs are implemented" (seed 003): the GPU-PV
     * DDIs are not part of this model's DRIVER_INITIALIZATION_DATA, so no KMD has them all. */
    LIMIT(!mm->ParavirtualizationSupported, "Caps.Paravirtualization",
           "DXGK_VIDMMCAPS.ParavirtualizationSupported is set but the KMD implements none of the GPU "
           "paravirtualization DDIs the cap requires");
    /* Issue 6: GPU virtual addressing is a WDDM 2.0 model, GpuMmu or IoMmu (vidmm/vaspace.c, the
     * IOMMU in iommu.c). Seed 003: "the driver should set the VirtualAddressingSupported cap and
     * GpuMmuSupported or IoMmuSupported caps": either model without the first is refused. */
    VERIFY(!mm->VirtualAddressingSupported || c->WDDMVersion >= DXGKDDI_WDDMv2, "Caps.VirtualAddressingWddm2",
           "DXGK_VIDMMCAPS.VirtualAddressingSupported needs DXGK_DRIVERCAPS.WDDMVersion >= 0x2000 "
           "(DXGKDDI_WDDMv2), got 0x%x", (unsigned)c->WDDMVersion);
    VERIFY(!mm->GpuMmuSupported || mm->VirtualAddressingSupported, "Caps.GpuMmuVirtualAddressing",
           "DXGK_VIDMMCAPS.GpuMmuSupported is set without DXGK_VIDMMCAPS.VirtualAddressingSupported");
    VERIFY(!mm->IoMmuSupported || mm->VirtualAddressingSupported, "Caps.IoMmuVirtualAddressing",
           "DXGK_VIDMMCAPS.IoMmuSupported is set without DXGK_VIDMMCAPS.VirtualAddressingSupported");
    VERIFY(!s->Reserved, "Caps.VidSchReserved", "DXGK_VIDSCHCAPS.Reserved must be 0 (Value 0x%08x)", s->Value);
    /* docs/semantics.md §6.2 */
    VERIFY(!s->PreemptionAware || s->MultiEngineAware, "Caps.PreemptionAwareMultiEngine",
           "DXGK_VIDSCHCAPS.PreemptionAware is set without DXGK_VIDSCHCAPS.MultiEngineAware");
    VERIFY(!s->NoDmaPatching || (s->PreemptionAware && s->MultiEngineAware), "Caps.NoDmaPatching",
           "DXGK_VIDSCHCAPS.NoDmaPatching needs DXGK_VIDSCHCAPS.PreemptionAware and DXGK_VIDSCHCAPS.MultiEngineAware");
    VERIFY(!s->CancelCommandAware || s->MultiEngineAware, "Caps.CancelCommandAware",
           "DXGK_VIDSCHCAPS.CancelCommandAware is set without DXGK_VIDSCHCAPS.MultiEngineAware");
    UINT nodes = c->GpuEngineTopology.NbAsymetricProcessingNodes;
    VERIFY(nodes >= 1 && nodes <= DXGK_MAX_NODES, "Caps.NodeCount", "NbAsymetricProcessingNodes %u not in 1..%u", nodes,
           DXGK_MAX_NODES);
    VERIFY(!s->MultiEngineAware || mm->PagingNode < nodes, "Caps.PagingNode",
           "DXGK_VIDMMCAPS.PagingNode %u >= %u nodes",
           mm->PagingNode, nodes);
    /* What a cap promises, the DDIs must do. */
    char names[256];
    VERIFY(!s->PreemptionAware || !ddi_names(&a->driver.ddi, DDI_SET(preemption_ddis), false, names, sizeof names),
           "Caps.PreemptionDdi", "DXGK_VIDSCHCAPS.PreemptionAware is set but DRIVER_INITIALIZATION_DATA lacks %s",
           names);
    VERIFY(!c->SupportPerEngineTDR || !ddi_names(&a->driver.ddi, DDI_SET(engine_tdr_ddis), false, names, sizeof names),
           "Caps.PerEngineTdrDdi", "DXGK_DRIVERCAPS.SupportPerEngineTDR is set but DRIVER_INITIALIZATION_DATA lacks %s",
           names);
    /* "a kernel-mode driver must implement the following DDIs" (IOMMU-based GPU isolation). */
    VERIFY(!mm->IoMmuSecureModeSupported ||
               !ddi_names(&a->driver.ddi, DDI_SET(exclusive_access_ddis), false, names, sizeof names),
           "Caps.IsolationDdi", "DXGK_VIDMMCAPS.IoMmuSecureModeSupported is set but DRIVER_INITIALIZATION_DATA lacks %s",
           names);
    return true;
}

bool dxgk_verify_segments(const struct dxgk_adapter *a, const DXGK_QUERYSEGMENTOUT *out)
{
    const char *ddi = "DxgkDdiQueryAdapterInfo(DXGKQAITYPE_QUERYSEGMENT)";
    UINT agp = 0;
    VERIFY(out->PagingBufferSize >= 64, "Segments.PagingBufferSize",
           "DXGK_QUERYSEGMENTOUT.PagingBufferSize %u too small", out->PagingBufferSize);
    /* docs/architecture.md: paging buffers live in system memory. */
    LIMIT(out->PagingBufferSegmentId == 0, "Segments.PagingBufferSegment",
          "PagingBufferSegmentId %u: only system memory (0) is supported",
           out->PagingBufferSegmentId);
    for (UINT i = 0; i < out->NbSegment; i++) {
        const DXGK_SEGMENTDESCRIPTOR *d = &out->pSegmentDescriptor[i];
        DXGK_SEGMENTFLAGS f = d->Flags;
        UINT id = i + 1;
        VERIFY(!f.Reserved, "Segments.FlagsReserved",
               "segment %u: reserved DXGK_SEGMENTFLAGS bits set (0x%08x)", id, f.Value);
        VERIFY(d->Size > 0 && d->Size % DXGK_PAGE_SIZE == 0, "Segments.Size",
               "segment %u: Size %zu not a positive page multiple",
               id, (size_t)d->Size);
        VERIFY(!f.Agp || f.Value == 0x2, "Segments.AgpAlone", "segment %u: Agp must be the only flag", id);
        agp += f.Agp;
        VERIFY(!f.CacheCoherent || f.Aperture, "Segments.CacheCoherent",
               "segment %u: CacheCoherent only with Aperture", id);
        VERIFY(!(f.Aperture && f.PopulatedFromSystemMemory), "Segments.PopulatedFromSystemMemory",
               "segment %u: PopulatedFromSystemMemory on an aperture",
               id);
        UINT power = (f.PreservedDuringStandby << 2) | (f.PreservedDuringHibernate << 1) |
                     f.PartiallyPreservedDuringHibernate;
        VERIFY(power == 6 || power == 5 || power == 4 || power == 0, "Segments.PowerFlags",
               "segment %u: invalid Standby/Hibernate/PartiallyPreserved combination", id);
        VERIFY(!(f.SupportsCpuHostAperture && f.CpuVisible), "Segments.CpuHostAperture",
               "segment %u: SupportsCpuHostAperture with CpuVisible",
               id);
        VERIFY(!f.SupportsCachedCpuHostAperture || f.SupportsCpuHostAperture, "Segments.CachedCpuHostAperture",
               "segment %u: SupportsCachedCpuHostAperture needs SupportsCpuHostAperture", id);
        VERIFY(!f.CpuVisible || f.Aperture || d->CpuTranslatedAddress.QuadPart != 0, "Segments.CpuTranslatedAddress",
               "segment %u: CpuVisible memory segment without CpuTranslatedAddress", id);
        VERIFY(f.Aperture || d->CommitLimit == 0 || d->CommitLimit == d->Size, "Segments.CommitLimit",
               "segment %u: a memory segment's CommitLimit must equal Size", id);
        /* DXGK_SEGMENTDESCRIPTOR.pBankRangeTable: the end offsets of banks 1..n-1, contiguous
         * from offset 0, the last bank ending at Size; bank ids are 1..127 (HintedBank). */
        if (f.UseBanking) {
            VERIFY(d->NbOfBanks >= 1 && d->NbOfBanks <= 127, "Segments.BankCount",
                   "segment %u: UseBanking with NbOfBanks %u (1..127)", id,
                   d->NbOfBanks);
            VERIFY(d->NbOfBanks == 1 || d->pBankRangeTable, "Segments.BankRangeTable",
                   "segment %u: UseBanking without pBankRangeTable", id);
            for (UINT b = 0; b + 1 < d->NbOfBanks; b++)
                VERIFY(d->pBankRangeTable[b] > (b ? d->pBankRangeTable[b - 1] : 0) && d->pBankRangeTable[b] < d->Size,
                       "Segments.BankRangeOrder",
                       "segment %u: pBankRangeTable[%u] = %zu: bank ends must ascend inside the segment", id, b,
                       (size_t)d->pBankRangeTable[b]);
        }
    }
    LIMIT(agp == 0, "Segments.Agp", "AGP segments are not supported");
    /* The IoMmu model: "only system memory can be accessed" (MicrosoftDocs, GPU virtual memory in
     * WDDM 2.0). This kernel keeps every allocation's content in its backing store, placed in an
     * aperture segment (vidmm/placement.c), so it needs one. */
    bool aperture = false;
    for (UINT i = 0; i < out->NbSegment; i++)
        aperture |= out->pSegmentDescriptor[i].Flags.Aperture != 0;
    LIMIT(!dxgk_adapter_iommu(a) || aperture, "IoMmu.ApertureSegment",
          "DXGK_VIDMMCAPS.IoMmuSupported with no aperture segment: in the IoMmu model this kernel places "
          "allocations in aperture segments only");
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
    const char *ddi = who;
    /* HintedBank names banks of SegmentId0, "the most preferred segment", which must use banking
     * (DXGK_ALLOCATIONINFO.HintedBank, DXGK_SEGMENTBANKPREFERENCE: ids 1..127, 0 = none). */
    if (!h.Value)
        return true;
    UINT banks = p->SegmentId0 && p->SegmentId0 <= a->segment_count ? a->seg[p->SegmentId0 - 1].bank_count : 0;
    VERIFY(banks, "Allocation.HintedBankSegment",
           "%s: HintedBank 0x%08x but preferred segment %u does not use banking", who, h.Value,
           p->SegmentId0);
    UINT bank[4] = { h.Bank0, h.Bank1, h.Bank2, h.Bank3 };
    for (UINT k = 0; k < 4; k++)
        VERIFY(bank[k] <= banks, "Allocation.HintedBankRange",
               "%s: HintedBank.Bank%u = %u, segment %u has %u banks", who, k, bank[k],
               p->SegmentId0, banks);
    return true;
}

bool dxgk_verify_allocation_info(const struct dxgk_adapter *a, const DXGK_ALLOCATIONINFO *i, UINT index)
{
    const char *ddi = "DxgkDdiCreateAllocation";
    UINT valid = a->segment_count >= 32 ? ~0u : ((1u << a->segment_count) - 1u);
    VERIFY(i->Size > 0, "Allocation.Size", "allocation %u: DXGK_ALLOCATIONINFO.Size is 0", index);
    VERIFY(i->AllocationPriority != 0, "Allocation.Priority", "allocation %u: AllocationPriority 0 is invalid", index);
    VERIFY(i->SupportedWriteSegmentSet != 0, "Allocation.WriteSegmentSet",
           "allocation %u: empty SupportedWriteSegmentSet", index);
    VERIFY(!(i->SupportedWriteSegmentSet & ~valid) && !(i->SupportedReadSegmentSet & ~valid),
           "Allocation.SegmentSetsExist",
           "allocation %u: supported segment sets 0x%x/0x%x name segments that do not exist (valid 0x%x)", index,
           i->SupportedReadSegmentSet, i->SupportedWriteSegmentSet, valid);
    UINT aperture = dxgk_aperture_segments(a);
    VERIFY(!(i->EvictionSegmentSet & ~aperture), "Allocation.EvictionSegmentSet",
           "allocation %u: EvictionSegmentSet 0x%x names segments that are not aperture segments or do not exist "
           "(aperture 0x%x: aperture segments only)", index, i->EvictionSegmentSet, aperture);
    VERIFY(i->Alignment == 0 || (i->Alignment & (i->Alignment - 1)) == 0, "Allocation.Alignment",
           "allocation %u: Alignment %u not a power of two", index, i->Alignment);
    UINT supported = i->SupportedWriteSegmentSet | i->SupportedReadSegmentSet;
    const D3DDDI_SEGMENTPREFERENCE *p = &i->PreferredSegment;
    UINT ids[5] = { p->SegmentId0, p->SegmentId1, p->SegmentId2, p->SegmentId3, p->SegmentId4 };
    for (UINT k = 0; k < 5 && ids[k]; k++) {
        VERIFY(ids[k] <= a->segment_count, "Allocation.PreferredSegmentExists",
               "allocation %u: preferred segment %u does not exist", index, ids[k]);
        VERIFY(supported & (1u << (ids[k] - 1)), "Allocation.PreferredSegmentSupported",
               "allocation %u: preferred segment %u not in the supported set 0x%x", index,
               ids[k], supported);
    }
    if (!dxgk_verify_hinted_bank(a, p, i->HintedBank, "DXGK_ALLOCATIONINFO"))
        return false;
    const DXGK_ALLOCATIONINFOFLAGS f = i->Flags;
    VERIFY(!f.PermanentSysMem || f.CpuVisible, "Allocation.PermanentSysMem",
           "allocation %u: PermanentSysMem needs CpuVisible", index);
    VERIFY(!f.Cached || f.CpuVisible, "Allocation.Cached", "allocation %u: Cached needs CpuVisible", index);
    VERIFY(!f.ExplicitResidencyNotification || f.AccessedPhysically, "Allocation.ExplicitResidencyNotification",
           "allocation %u: ExplicitResidencyNotification needs AccessedPhysically", index);
    VERIFY(!(f.Protected && (f.PermanentSysMem || f.ExistingSysMem || f.ExistingKernelSysMem)), "Allocation.Protected",
           "allocation %u: Protected with a system-memory flag", index);
    if (f.CpuVisible) {
        UINT cpu = 0;
        for (UINT s = 0; s < a->segment_count; s++)
            if (a->seg[s].cpu_accessible)
                cpu |= 1u << s;
        VERIFY(i->SupportedWriteSegmentSet & cpu, "Allocation.CpuVisibleSegment",
               "allocation %u: CpuVisible but no supported segment is CPU-accessible", index);
    }
    LIMIT(!dxgk_adapter_iommu(a) || (i->SupportedWriteSegmentSet & aperture), "IoMmu.SystemMemoryOnly",
          "allocation %u: supported segments 0x%x name no aperture segment (0x%x): in the IoMmu model the GPU "
          "reaches system memory only, and this kernel places allocations in aperture segments only", index,
          i->SupportedWriteSegmentSet, aperture);
    return true;
}

/* A primary (D3DDDI_ALLOCATIONINFO.Flags.Primary; the kernel knows it, the WDK has no
 * DXGK_ALLOCATIONINFOFLAGS bit for it). docs/semantics.md §3.5: the KMD may not set
 * PermanentSysMem, Cached, Protected, ExistingSysMem or ExistingKernelSysMem on it, and every
 * segment of its write set must be CPU-accessible. Seed 003: DXGK_VIDMMCAPS.NonCpuVisiblePrimary
 * lifts the last rule (and the CpuVisible flag it implies). */
bool dxgk_verify_primary(const struct dxgk_adapter *a, const DXGK_ALLOCATIONINFO *i, UINT index)
{
    const char *ddi = "DxgkDdiCreateAllocation";
    const DXGK_ALLOCATIONINFOFLAGS f = i->Flags;
    VERIFY(!(f.PermanentSysMem || f.Cached || f.Protected || f.ExistingSysMem || f.ExistingKernelSysMem),
           "Primary.Flags",
           "allocation %u: a primary with PermanentSysMem, Cached, Protected, ExistingSysMem or "
           "ExistingKernelSysMem (flags 0x%x)", index, f.Value);
    if (a->caps.MemoryManagementCaps.NonCpuVisiblePrimary)
        return true;
    UINT cpu = 0;
    for (UINT s = 0; s < a->segment_count; s++)
        if (a->seg[s].cpu_accessible)
            cpu |= 1u << s;
    UINT sets = i->SupportedWriteSegmentSet | i->SupportedReadSegmentSet;
    VERIFY(f.CpuVisible && !(sets & ~cpu), "Primary.CpuVisible",
           "allocation %u: a primary must be CpuVisible and placed only in CPU-accessible segments (supported "
           "0x%x, CPU-accessible 0x%x, CpuVisible %u) unless DXGK_VIDMMCAPS.NonCpuVisiblePrimary is set", index,
           sets, cpu, f.CpuVisible);
    return true;
}

/* DXGK_ALLOCATIONINFO.Flags2.ShareBackingStoreWithKmd (seed 002, docs/semantics.md §7 rules 1, 2
 * and 6): only when the OS enabled DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD and THIS KMD asked
 * (DxgkCbQueryFeatureSupport or DxgkCbIsFeatureEnabled) and was last answered Enabled TRUE -
 * which a KMD older than WDDM 3.1 never is (dxgkrnl/feature.c) -, only on an allocation
 * created shared and CPU-visible, never with existing system memory as backing store, and
 * placed only in the aperture (system memory) segment. Without the flag: nothing to check. */
bool dxgk_verify_share_backing_store(const struct dxgk_adapter *a, const DXGK_ALLOCATIONINFO *i, UINT index,
                                     bool shared, bool existing_sysmem)
{
    const char *ddi = "DxgkDdiCreateAllocation";
    if (!i->Flags2.ShareBackingStoreWithKmd)
        return true;
    VERIFY(dxgk_feature_enabled(a, DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD), "BackingStore.FeatureEnabled",
           "allocation %u: Flags2.ShareBackingStoreWithKmd set but DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD "
           "is not enabled (the KMD must not set it)", index);
    VERIFY(dxgk_feature_granted(a, DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD), "BackingStore.FeatureGranted",
           "allocation %u: Flags2.ShareBackingStoreWithKmd set but this KMD never queried the feature or was "
           "last told Enabled FALSE (usable only if the callback succeeds and Enable is TRUE)", index);
    VERIFY(shared, "BackingStore.Shared",
           "allocation %u: Flags2.ShareBackingStoreWithKmd on an allocation not created shared "
           "(must be created as shared)", index);
    VERIFY(!existing_sysmem && !i->Flags.ExistingSysMem && !i->Flags.ExistingKernelSysMem,
           "BackingStore.ExistingSysMem",
           "allocation %u: Flags2.ShareBackingStoreWithKmd with existing system memory "
           "(cannot use existing system memory as backing store)", index);
    VERIFY(i->Flags.CpuVisible, "BackingStore.CpuVisible",
           "allocation %u: Flags2.ShareBackingStoreWithKmd needs CpuVisible", index);
    UINT aperture = 0;
    for (UINT s = 0; s < a->segment_count; s++)
        if (a->seg[s].aperture)
            aperture |= 1u << s;
    UINT supported = i->SupportedReadSegmentSet | i->SupportedWriteSegmentSet;
    VERIFY(aperture && supported && !(supported & ~aperture), "BackingStore.Aperture",
           "allocation %u: Flags2.ShareBackingStoreWithKmd with supported segment set 0x%x: only the aperture "
           "segment 0x%x is allowed (system memory segment only)", index, supported, aperture);
    return true;
}

/* A cross-adapter resource (D3DKMT_CREATEALLOCATIONFLAGS.CrossAdapter; seed 003, docs/semantics.md
 * §6.5): what the KMD answered must keep every listed property the kernel can see. The row
 * pitch (128) and height (4 rows) granularity live in the resource's layout, which only the
 * driver package knows (private data): the reference KMD computes them (kmd/allocation.c) and
 * tests/dxgkrnl/test_cross_adapter.c checks them; here the size must at least be whole pages. */
bool dxgk_verify_cross_adapter(const struct dxgk_adapter *a, const DXGK_ALLOCATIONINFO *i, UINT index)
{
    const char *ddi = "DxgkDdiCreateAllocation";
    UINT aperture = 0;
    for (UINT s = 0; s < a->segment_count; s++)
        if (a->seg[s].aperture)
            aperture |= 1u << s;
    UINT supported = i->SupportedReadSegmentSet | i->SupportedWriteSegmentSet;
    VERIFY(aperture && i->SupportedWriteSegmentSet && !(supported & ~aperture) && !(i->EvictionSegmentSet & ~aperture),
           "CrossAdapter.Aperture",
           "cross-adapter allocation %u: supported segment set 0x%x (eviction 0x%x) is not aperture-only 0x%x "
           "(paged in only to the aperture segment)", index, supported, i->EvictionSegmentSet, aperture);
    VERIFY(i->Flags.CpuVisible, "CrossAdapter.CpuVisible",
           "cross-adapter allocation %u: CpuVisible is not set (must be marked "
           "CPU visible)", index);
    VERIFY(!i->Flags.Cached, "CrossAdapter.Cached", "cross-adapter allocation %u: Cached is set (the OS creates it "
           "write-combined)", index);
    VERIFY(i->Alignment % DXGK_PAGE_SIZE == 0, "CrossAdapter.Alignment",
           "cross-adapter allocation %u: Alignment %u is not a multiple of "
           "the page (the start address is page aligned)", index, (unsigned)i->Alignment);
    VERIFY(i->Size && i->Size % DXGK_PAGE_SIZE == 0, "CrossAdapter.Size",
           "cross-adapter allocation %u: Size %zu is not whole pages "
           "(one linear, page-aligned allocation)", index, (size_t)i->Size);
    VERIFY(!i->Flags.Protected && !i->Flags.ExistingSysMem && !i->Flags.ExistingKernelSysMem &&
               !i->Flags.PermanentSysMem && !i->Flags2.ShareBackingStoreWithKmd, "CrossAdapter.Flags",
           "cross-adapter allocation %u: Protected, PermanentSysMem, ExistingSysMem, ExistingKernelSysMem or "
           "Flags2.ShareBackingStoreWithKmd is set (the kernel owns its shared pages)", index);
    return true;
}

/* The GpuMmu model (issue 6, common brief): the five DDIs the model calls must exist. */
bool dxgk_verify_gpummu_ddi(const struct dxgk_adapter *a)
{
    const char *ddi = "DxgkInitialize";
    char names[512];
    if (dxgk_adapter_iommu(a)) { /* no page tables of the KMD's: no root page table DDIs */
        VERIFY(!ddi_names(&a->driver.ddi, DDI_SET(iommu_ddis), false, names, sizeof names), "IoMmu.Ddi",
               "DXGK_VIDMMCAPS.VirtualAddressingSupported + IoMmuSupported are set but DRIVER_INITIALIZATION_DATA "
               "lacks %s", names);
        return true;
    }
    VERIFY(!ddi_names(&a->driver.ddi, DDI_SET(gpummu_ddis), false, names, sizeof names), "GpuMmu.Ddi",
           "DXGK_VIDMMCAPS.VirtualAddressingSupported + GpuMmuSupported are set but DRIVER_INITIALIZATION_DATA "
           "lacks %s", names);
    return true;
}

/* DXGKQAITYPE_FRAMEBUFFERSAVESIZE, asked of a KMD with IoMmuSecureModeSupported ("The maximum
 * size reported by the driver must be a multiple of PAGE_SIZE": MicrosoftDocs "IOMMU-based GPU
 * isolation"). */
bool dxgk_verify_fb_save_area(const struct dxgk_adapter *a, NTSTATUS st, const DXGK_FRAMEBUFFERSAVEAREA *area)
{
    const char *ddi = "DxgkDdiQueryAdapterInfo(DXGKQAITYPE_FRAMEBUFFERSAVESIZE)";
    VERIFY(NT_SUCCESS(st), "IoMmu.FrameBufferSaveSize",
           "DXGK_VIDMMCAPS.IoMmuSecureModeSupported is set but the query failed 0x%08x", (unsigned)st);
    VERIFY(area->MaximumSize % DXGK_PAGE_SIZE == 0, "IoMmu.FrameBufferSaveSize",
           "DXGK_FRAMEBUFFERSAVEAREA.MaximumSize %zu is not a multiple of PAGE_SIZE", (size_t)area->MaximumSize);
    return true;
}

/* DXGK_GPUMMUCAPS (issue 6): the level count, the VA width and the update mode this kernel
 * drives. Only GPU_PHYSICAL updates (the paging engine writes the tables by physical
 * address, common brief) are implemented. */
bool dxgk_verify_gpummu_caps(const struct dxgk_adapter *a, const DXGK_GPUMMUCAPS *c)
{
    const char *ddi = "DxgkDdiQueryAdapterInfo(DXGKQAITYPE_GPUMMUCAPS)";
    VERIFY(c->PageTableLevelCount >= 2 && c->PageTableLevelCount <= 4, "GpuMmu.LevelCount",
           "DXGK_GPUMMUCAPS.PageTableLevelCount %u not in 2..4", c->PageTableLevelCount);
    /* FIXME(gpummu): 3 and 4 levels are valid but not implemented (vidmm/vaspace.c). */
    LIMIT(c->PageTableLevelCount == 2, "GpuMmu.LevelCountSupported",
           "DXGK_GPUMMUCAPS.PageTableLevelCount %u: only 2 levels are supported yet", c->PageTableLevelCount);
    VERIFY(c->VirtualAddressBitCount >= 32 && c->VirtualAddressBitCount <= 48, "GpuMmu.VirtualAddressBits",
           "DXGK_GPUMMUCAPS.VirtualAddressBitCount %u not in 32..48", c->VirtualAddressBitCount);
    LIMIT(c->PageTableUpdateMode == DXGK_PAGETABLEUPDATE_GPU_PHYSICAL, "GpuMmu.UpdateMode",
           "DXGK_GPUMMUCAPS.PageTableUpdateMode %d: only DXGK_PAGETABLEUPDATE_GPU_PHYSICAL is supported",
           (int)c->PageTableUpdateMode);
    VERIFY(!c->Reserved, "GpuMmu.Reserved", "DXGK_GPUMMUCAPS.Reserved must be 0");
    LIMIT(!c->LargePageSupported && !c->DualPteSupported, "GpuMmu.LargePages",
           "DXGK_GPUMMUCAPS.LargePageSupported / DualPteSupported: 64 KiB pages are not supported yet");
    return true;
}

/* DXGK_PAGE_TABLE_LEVEL_DESC of one level: sizes a multiple of 4 KiB (the root may start at
 * 0: resizable with 2 levels), an alignment that is a power of two, segments that exist. */
bool dxgk_verify_page_table_level(const struct dxgk_adapter *a, const DXGK_PAGE_TABLE_LEVEL_DESC *l, UINT level,
                                  UINT levels)
{
    const char *ddi = "DxgkDdiQueryAdapterInfo(DXGKQAITYPE_PAGETABLELEVELDESC)";
    bool root = level == 0;
    VERIFY(l->PageTableIndexBitCount >= 1 && l->PageTableIndexBitCount <= 30, "PageTable.IndexBits",
           "DXGK_PAGE_TABLE_LEVEL_DESC[%u].PageTableIndexBitCount %u not in 1..30", level, l->PageTableIndexBitCount);
    VERIFY(l->PageTableSizeInBytes % DXGK_PAGE_SIZE == 0 && (l->PageTableSizeInBytes || (root && levels == 2)),
           "PageTable.Size",
           "DXGK_PAGE_TABLE_LEVEL_DESC[%u].PageTableSizeInBytes %llu is not a positive multiple of 4096", level,
           (unsigned long long)l->PageTableSizeInBytes);
    VERIFY(l->PageTableAlignmentInBytes && !(l->PageTableAlignmentInBytes & (l->PageTableAlignmentInBytes - 1)),
           "PageTable.Alignment",
           "DXGK_PAGE_TABLE_LEVEL_DESC[%u].PageTableAlignmentInBytes %llu is not a power of two", level,
           (unsigned long long)l->PageTableAlignmentInBytes);
    VERIFY(l->PageTableSegmentId >= 1 && l->PageTableSegmentId <= a->segment_count &&
               !a->seg[l->PageTableSegmentId - 1].aperture, "PageTable.Segment",
           "DXGK_PAGE_TABLE_LEVEL_DESC[%u].PageTableSegmentId %u is not a memory segment of this adapter", level,
           l->PageTableSegmentId);
    return true;
}
