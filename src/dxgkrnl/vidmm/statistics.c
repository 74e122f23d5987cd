/* statistics.c - VidMm's memory statistics for tools and programs (issue 18 §2; the figures a
 * Vulkan programmer gets from VMA's statistics string): per segment what is placed, what is free
 * and how fragmented it is; per device what it allocated and how much of that is resident; the
 * system memory committed for backing stores. Read under the adapter lock, so one call's figures
 * are one consistent moment. include/wddm/wddm.h wddm_query_memory_statistics. */
#include "dxgkrnl/vidmm/vidmm.h"

#include <string.h>

static void segment_statistics_locked(const struct dxgk_adapter *a, const struct vidmm_segment *s,
                                      struct wddm_segment_statistics *o)
{
    WDDM_ASSERT_HELD(&a->lock);
    o->id = s->id;
    o->aperture = s->aperture;
    o->cpu_visible = s->cpu_accessible;
    o->size = s->limit;
    o->used = s->bytes_used;
    o->free = s->limit - s->bytes_used;
    UINT64 ranges;
    vidmm_segment_holes(s, &ranges, &o->largest_free);
    o->free_ranges = (UINT)ranges;
    /* An aperture's CommitLimit may be below its size: no free range is larger than what may
     * still be placed. */
    if (o->largest_free > o->free)
        o->largest_free = o->free;
    for (const struct vidmm_instance *in = s->lru_head; in; in = in->lru_next)
        o->instances++;
}

static void device_statistics_locked(const struct dxgk_device *d, struct wddm_device_memory_statistics *o)
{
    WDDM_ASSERT_HELD(&d->adapter->lock);
    o->hDevice = d->handle;
    for (const struct dxgk_allocation *al = d->allocations; al; al = al->dev_next) {
        o->allocations++;
        o->bytes += al->info.Size;
        o->kinds.cpu_visible += al->info.Flags.CpuVisible;
        o->kinds.primary += al->primary;
        o->kinds.swizzled += al->info.Flags.Swizzled;
        o->kinds.system_memory += al->info.Flags.PermanentSysMem || al->info.Flags.ExistingSysMem;
        o->kinds.shared += al->share != NULL;
        o->kinds.opened += al->alias != NULL || al->opened;
        const struct vidmm_instance *in = al->current;
        if (in && in->segment_id) {
            o->resident_allocations++;
            o->resident_bytes += al->info.Size;
        } else if (in && in->evicted) {
            o->evicted_allocations++;
        }
    }
}

NTSTATUS wddm_query_memory_statistics(D3DKMT_HANDLE hAdapter, D3DKMT_HANDLE hDevice,
                                      struct wddm_memory_statistics *out)
{
    if (!out) {
        dxgk_refuse("wddm_query_memory_statistics: NULL output");
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_adapter *a = dxgk_adapter_get(hAdapter);
    if (!a) {
        dxgk_refuse("wddm_query_memory_statistics: invalid adapter handle 0x%08x", hAdapter);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_device *d = NULL;
    if (hDevice) {
        d = dxgk_device_get(hDevice);
        if (!d || d->adapter != a) {
            dxgk_refuse("wddm_query_memory_statistics: 0x%08x is not a device of adapter 0x%08x", hDevice, hAdapter);
            if (d)
                dxgk_device_put(d);
            dxgk_adapter_put(a);
            return STATUS_INVALID_HANDLE;
        }
    }
    memset(out, 0, sizeof *out);
    out->AdapterLuid = a->luid;
    pthread_mutex_lock(&a->lock);
    out->segment_count = a->segment_count < WDDM_MAX_STATISTICS_SEGMENTS ? a->segment_count
                                                                         : WDDM_MAX_STATISTICS_SEGMENTS;
    for (UINT i = 0; i < out->segment_count; i++)
        segment_statistics_locked(a, &a->seg[i], &out->segment[i]);
    if (d)
        device_statistics_locked(d, &out->device);
    pthread_mutex_unlock(&a->lock);
    out->backing_committed = vidmm_commit_used();
    out->backing_budget = vidmm_commit_budget();
    if (d)
        dxgk_device_put(d);
    dxgk_adapter_put(a);
    return STATUS_SUCCESS;
}

D3DKMT_QUERYSTATISTICS_ALLOCATION_PRIORITY_CLASS vidmm_priority_class(UINT priority)
{
    if (priority < D3DDDI_ALLOCATIONPRIORITY_LOW)
        return D3DKMT_AllocationPriorityClassMinimum;
    if (priority < D3DDDI_ALLOCATIONPRIORITY_NORMAL)
        return D3DKMT_AllocationPriorityClassLow;
    if (priority < D3DDDI_ALLOCATIONPRIORITY_HIGH)
        return D3DKMT_AllocationPriorityClassNormal;
    if (priority < D3DDDI_ALLOCATIONPRIORITY_MAXIMUM)
        return D3DKMT_AllocationPriorityClassHigh;
    return D3DKMT_AllocationPriorityClassMaximum;
}

NTSTATUS vidmm_query_segment_statistics(struct dxgk_adapter *a, ULONG index,
                                        D3DKMT_QUERYSTATISTICS_SEGMENT_INFORMATION *o)
{
    if (index >= a->segment_count) {
        dxgk_refuse("D3DKMTQueryStatistics: SegmentId %u, the adapter has %u segments (counted from 0)",
                    (unsigned)index, a->segment_count);
        return STATUS_INVALID_PARAMETER;
    }
    memset(o, 0, sizeof *o);
    pthread_mutex_lock(&a->lock);
    struct wddm_segment_statistics s = { 0 };
    segment_statistics_locked(a, &a->seg[index], &s);
    o->CommitLimit = s.size;
    o->BytesCommitted = s.used; /* placed is committed: VidMm commits a segment range by placing */
    o->BytesResident = s.used;
    o->Memory.AllocsCommitted = o->Memory.AllocsResident = s.instances;
    o->Aperture = s.aperture ? 1 : 0;
    for (UINT c = 0; c < D3DKMT_MaxAllocationPriorityClass; c++) {
        o->TotalBytesEvictedByPriority[c] = a->seg[index].evicted_bytes[c];
        o->Memory.TotalBytesEvicted += a->seg[index].evicted_bytes[c];
    }
    pthread_mutex_unlock(&a->lock);
    return STATUS_SUCCESS;
}
