/* wddm info: the adapter as the KMD describes it (issue 2 "The main job"; the line format
 * `DXGK_VIDMMCAPS.<Member> = 0|1` / `DXGK_DRIVERCAPS.<Field> = value` is issue 6's). */
#include <inttypes.h>
#include <stdio.h>

#include <wddm/d3dkmddi.h>
#include <wddm/d3dkmthk.h>

#include "tool.h"

/* Bit positions are the WDK's declaration order (seed 003). */
static const char *const vidmm_bits[] = {
    "OutOfOrderLock", "DedicatedPagingEngine", "PagingEngineCanSwizzle", "SectionBackedPrimary",
    "CrossAdapterResource", "VirtualAddressingSupported", "GpuMmuSupported", "IoMmuSupported",
    "ReplicateGdiContent", "NonCpuVisiblePrimary", "ParavirtualizationSupported",
    "IoMmuSecureModeSupported", "DisableSelfRefreshVRAMInS3", "IoMmuSecureModeRequired",
    "MapAperture2Supported", "CrossAdapterResourceTexture", "CrossAdapterResourceScanout",
    "AlwaysPoweredVRAM",
};
static const char *const vidsch_bits[] = {
    "MultiEngineAware", "VSyncPowerSaveAware", "PreemptionAware", "NoDmaPatching",
    "CancelCommandAware", "No64BitAtomics", "LowIrqlPreemptCommand",
};
static const char *const segment_bits[] = {
    "Aperture", "Agp", "CpuVisible", "UseBanking", "CacheCoherent", "PitchAlignment",
    "PopulatedFromSystemMemory", "PreservedDuringStandby", "PreservedDuringHibernate",
    "PartiallyPreservedDuringHibernate", "DirectFlip", "Use64KBPages", "ReservedSysMem",
    "SupportsCpuHostAperture", "SupportsCachedCpuHostAperture", "ApplicationTarget",
    "VprSupported", "VprPreservedDuringStandby", "EncryptedPagingSupported", "LocalBudgetGroup",
    "NonLocalBudgetGroup", "PopulatedByReservedDDRByFirmware",
};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static NTSTATUS query(D3DKMT_HANDLE hAdapter, KMTQUERYADAPTERINFOTYPE type, void *out, UINT size)
{
    D3DKMT_QUERYADAPTERINFO q = {.hAdapter = hAdapter, .Type = type, .pPrivateDriverData = out,
                                 .PrivateDriverDataSize = size};
    return D3DKMTQueryAdapterInfo(&q);
}

static void print_caps(const DXGK_DRIVERCAPS *c)
{
    printf("DXGK_DRIVERCAPS.WDDMVersion = 0x%x\n", (unsigned)c->WDDMVersion);
    printf("DXGK_DRIVERCAPS.HighestAcceptableAddress = 0x%" PRIx64 "\n", (uint64_t)c->HighestAcceptableAddress.QuadPart);
    printf("DXGK_DRIVERCAPS.MaxAllocationListSlotId = %u\n", c->MaxAllocationListSlotId);
    printf("DXGK_DRIVERCAPS.ApertureSegmentCommitLimit = %zu\n", (size_t)c->ApertureSegmentCommitLimit);
    printf("DXGK_DRIVERCAPS.NumberOfSwizzlingRanges = %u\n", c->NumberOfSwizzlingRanges);
    printf("DXGK_DRIVERCAPS.GpuEngineTopology.NbAsymetricProcessingNodes = %u\n",
           c->GpuEngineTopology.NbAsymetricProcessingNodes);
    printf("DXGK_DRIVERCAPS.PreemptionCaps.GraphicsPreemptionGranularity = %u\n",
           (unsigned)c->PreemptionCaps.GraphicsPreemptionGranularity);
    printf("DXGK_DRIVERCAPS.PreemptionCaps.ComputePreemptionGranularity = %u\n",
           (unsigned)c->PreemptionCaps.ComputePreemptionGranularity);
    printf("DXGK_DRIVERCAPS.SupportPerEngineTDR = %u\n", (unsigned)c->SupportPerEngineTDR);
    for (unsigned i = 0; i < COUNT(vidsch_bits); i++)
        printf("DXGK_VIDSCHCAPS.%s = %u\n", vidsch_bits[i], (c->SchedulingCaps.Value >> i) & 1u);
    printf("DXGK_VIDSCHCAPS.HwQueuePacketCap = %u\n", (unsigned)c->SchedulingCaps.HwQueuePacketCap);
    for (unsigned i = 0; i < COUNT(vidmm_bits); i++)
        printf("DXGK_VIDMMCAPS.%s = %u\n", vidmm_bits[i], (c->MemoryManagementCaps.Value >> i) & 1u);
    printf("DXGK_VIDMMCAPS.Reserved = 0x%x\n", c->MemoryManagementCaps.Value >> COUNT(vidmm_bits));
    printf("DXGK_VIDMMCAPS.PagingNode = %u\n", c->MemoryManagementCaps.PagingNode);
}

static void print_segments(const D3DKMT_WDDM_SEGMENTS *s)
{
    for (UINT i = 0; i < s->NbSegment && i < D3DKMT_WDDM_MAX_SEGMENTS; i++) {
        const D3DKMT_WDDM_SEGMENTINFO *g = &s->Segment[i];
        printf("Segment %u: BaseAddress = 0x%016" PRIx64 ", Size = %" PRIu64 " MiB, CommitLimit = %" PRIu64
               " MiB, resident = %" PRIu64 " KiB, Flags =",
               g->SegmentId, g->BaseAddress, g->Size >> 20, g->CommitLimit >> 20, g->BytesResident >> 10);
        for (unsigned b = 0; b < COUNT(segment_bits); b++)
            if (g->Flags & (1u << b))
                printf(" %s", segment_bits[b]);
        if (!(g->Flags & 0x5u))
            printf(" (local, not CPU-visible)");
        printf("\n");
    }
}

int wddm_tool_info(int argc, char **argv)
{
    D3DKMT_ADAPTERINFO adapters[4];
    D3DKMT_ENUMADAPTERS2 e = {.NumAdapters = 4, .pAdapters = adapters};
    NTSTATUS st = D3DKMTEnumAdapters2(&e);
    if (!NT_SUCCESS(st)) {
        fprintf(stderr, "wddm info: no adapter started (NTSTATUS 0x%08x)\n", (unsigned)st);
        return 1;
    }
    int rc = 0;
    for (ULONG a = 0; a < e.NumAdapters; a++) {
        printf("Adapter %lu: LUID %08x:%08x\n", (unsigned long)a, (unsigned)adapters[a].AdapterLuid.HighPart,
               (unsigned)adapters[a].AdapterLuid.LowPart);
        DXGK_DRIVERCAPS caps;
        D3DKMT_WDDM_SEGMENTS segs;
        if (!NT_SUCCESS(query(adapters[a].hAdapter, KMTQAITYPE_WDDM_DRIVERCAPS, &caps, sizeof caps)) ||
            !NT_SUCCESS(query(adapters[a].hAdapter, KMTQAITYPE_WDDM_SEGMENTS, &segs, sizeof segs))) {
            fprintf(stderr, "wddm info: adapter %lu does not answer its queries\n", (unsigned long)a);
            rc = 1;
        } else {
            print_caps(&caps);
            print_segments(&segs);
        }
        D3DKMT_CLOSEADAPTER c = {.hAdapter = adapters[a].hAdapter};
        D3DKMTCloseAdapter(&c);
    }
    return rc;
}
