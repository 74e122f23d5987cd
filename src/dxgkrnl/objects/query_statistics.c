/* D3DKMTQueryStatistics (the WDK's D3DKMT_QUERYSTATISTICS; docs/semantics.md §9.3): the
 * adapter-wide figures monitoring tools read, by adapter LUID, without an adapter handle.
 *
 *   - ADAPTER: NbSegments, NodeCount, VidPnSourceCount (0: no display), TdrDetectedCount (the
 *     timeouts recovered), ZeroLengthDmaBuffers (the zero-length context-switch buffers).
 *   - SEGMENT, QuerySegment.SegmentId counted from 0 as the tools count: CommitLimit,
 *     BytesCommitted and BytesResident (what is placed: VidMm commits a range by placing into
 *     it), Memory (instances placed, bytes evicted), Aperture, TotalBytesEvictedByPriority
 *     (vidmm/statistics.c).
 *   - NODE and the process and VidPN source queries are not modeled: STATUS_NOT_SUPPORTED and a
 *     line. An unknown Type, a LUID no adapter has, a SegmentId past the last segment, NULL
 *     arguments: STATUS_INVALID_PARAMETER and a line. QueryResult is written only on success.
 * The WDK declares the argument const and writes QueryResult through it; so does this. */
#include "dxgkrnl/objects/objects.h"

#include <string.h>

static void adapter_information(struct dxgk_adapter *a, D3DKMT_QUERYSTATISTICS_ADAPTER_INFORMATION *o)
{
    memset(o, 0, sizeof *o);
    o->NbSegments = a->segment_count;
    o->NodeCount = a->node_count;
    o->TdrDetectedCount = atomic_load(&a->tdr_count);
    o->ZeroLengthDmaBuffers =
        (LONGLONG)atomic_load_explicit(&a->counters.null_context_switches, memory_order_relaxed);
}

NTSTATUS APIENTRY D3DKMTQueryStatistics(const D3DKMT_QUERYSTATISTICS *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTQueryStatistics: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    if ((UINT)args->Type > D3DKMT_QUERYSTATISTICS_PHYSICAL_ADAPTER) {
        dxgk_refuse("D3DKMTQueryStatistics: Type %d is no D3DKMT_QUERYSTATISTICS_TYPE", (int)args->Type);
        return STATUS_INVALID_PARAMETER;
    }
    if (args->Type != D3DKMT_QUERYSTATISTICS_ADAPTER && args->Type != D3DKMT_QUERYSTATISTICS_SEGMENT) {
        dxgk_refuse("D3DKMTQueryStatistics: Type %d is not modeled (only ADAPTER and SEGMENT)", (int)args->Type);
        return STATUS_NOT_SUPPORTED;
    }
    NTSTATUS st;
    struct dxgk_adapter *a = dxgk_adapter_from_luid(args->AdapterLuid, "D3DKMTQueryStatistics", &st);
    if (!a)
        return st;
    D3DKMT_QUERYSTATISTICS_RESULT *out = (D3DKMT_QUERYSTATISTICS_RESULT *)&args->QueryResult;
    if (args->Type == D3DKMT_QUERYSTATISTICS_ADAPTER) {
        adapter_information(a, &out->AdapterInformation);
    } else {
        D3DKMT_QUERYSTATISTICS_SEGMENT_INFORMATION seg;
        st = vidmm_query_segment_statistics(a, args->QuerySegment.SegmentId, &seg);
        if (NT_SUCCESS(st))
            out->SegmentInformation = seg;
    }
    dxgk_adapter_put(a);
    return st;
}
