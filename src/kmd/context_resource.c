/* The reference KMD's context allocations (seed 000, docs/semantics.md §1): a context save area
 * (CSA) per non-system GPU context and page-table storage per non-system device, created
 * through DxgkCbCreateContextAllocation from DxgkDdiCreateContext / DxgkDdiCreateDevice and
 * destroyed from DxgkDdiDestroyContext / DxgkDdiDestroyDevice.
 *
 * They are created CpuVisible + Protected and restricted to the aperture segment: the
 * conditions WDDM lists for INIT_CONTEXT_RESOURCE to carry a valid kernel VirtualAddress
 * (§1.3), through which paging.c writes the header (struct swkmd_context_resource_header).
 *
 * The save area holds what the GPU saves of the context: where a DMA buffer preempted in the
 * middle stopped (issue 4, docs/semantics.md §8.2 invariant 4: a struct swgpu_csa_record at
 * SWKMD_CSA_RECORD_OFFSET, read back when the buffer is resubmitted) and the context's registers
 * while another context is loaded (issue 20 §1: struct swgpu_context_state at
 * SWKMD_CSA_STATE_OFFSET). The KMD learns the save area's GPU address when it builds its
 * MAP_APERTURE_SEGMENT (and forgets it at UNMAP), and passes both addresses with every DMA
 * buffer of the context (SubmitCommand); the GPU switches contexts itself (src/gpu/context_state.c). */
#include "kmd/kmd.h"
#include "common/alloc.h"

#include "common/debug.h"

#include <stdatomic.h>
#include <stdlib.h>

NTSTATUS swkmd_context_resource_create(struct swkmd_adapter *a, HANDLE kernel_device, HANDLE kernel_context,
                                       struct swkmd_context_resource **out)
{
    *out = NULL;
    if (!a->dxgk.DxgkCbCreateContextAllocation)
        return STATUS_SUCCESS; /* a kernel without context allocations: nothing to save into */
    struct swkmd_context_resource *r = wddm_calloc(1, sizeof *r);
    if (!r)
        return STATUS_NO_MEMORY;
    r->magic = SWKMD_MAGIC_CONTEXT_RESOURCE;
    r->header_magic = kernel_context ? SWKMD_CSA_HEADER_MAGIC : SWKMD_PAGE_TABLE_HEADER_MAGIC;
    r->owner = kernel_context ? kernel_context : kernel_device;
    DXGKARGCB_CREATECONTEXTALLOCATION ca = { .hAdapter = a->dxgk.DeviceHandle, .hDevice = kernel_device,
                                             .hContext = kernel_context, .hDriverAllocation = r,
                                             .Size = SWKMD_CONTEXT_RESOURCE_SIZE, .Alignment = 4096,
                                             .SupportedSegmentSet = 1u << (SWKMD_SEGMENT_APERTURE - 1),
                                             .EvictionSegmentSet = 0 };
    ca.ContextAllocationFlags.SharedAcrossContexts = kernel_context ? 0 : 1;
    ca.PreferredSegment.SegmentId0 = SWKMD_SEGMENT_APERTURE;
    ca.Flags.CpuVisible = 1;
    ca.Flags.Protected = 1;
    NTSTATUS st = a->dxgk.DxgkCbCreateContextAllocation(&ca);
    if (!NT_SUCCESS(st)) {
        wddm_debug("kmd", "DxgkCbCreateContextAllocation failed 0x%08x", (unsigned)st);
        free(r);
        return st;
    }
    r->kernel_allocation = ca.hAllocation;
    *out = r;
    return STATUS_SUCCESS;
}

void swkmd_context_resource_destroy(struct swkmd_adapter *a, struct swkmd_context_resource *r)
{
    NTSTATUS st = a->dxgk.DxgkCbDestroyContextAllocation(a->dxgk.DeviceHandle, r->kernel_allocation);
    if (!NT_SUCCESS(st))
        wddm_debug("kmd", "DxgkCbDestroyContextAllocation failed 0x%08x", (unsigned)st);
    r->magic = 0;
    free(r);
}

static atomic_ullong violations;

unsigned long long swkmd_context_resource_violations(void)
{
    return atomic_load(&violations);
}

/* hAllocation of a MAP/UNMAP: a context allocation of this KMD (else an ordinary allocation:
 * both start with their magic). */
void swkmd_context_resource_track_map(HANDLE hAllocation, UINT64 gpu_addr)
{
    struct swkmd_context_resource *r = hAllocation;
    if (r && r->magic == SWKMD_MAGIC_CONTEXT_RESOURCE) {
        atomic_store(&r->gpu_addr, gpu_addr);
        atomic_store(&r->mapped, gpu_addr ? 1u : 0u);
    }
}

void swkmd_context_describe(HANDLE hContext, struct swgpu_submission *s)
{
    struct swkmd_context *c = swkmd_context_from(hContext);
    s->csa_addr = s->state_addr = s->context_id = 0;
    if (!c || c->flags.SystemContext)
        return; /* the system context has no state of its own */
    s->context_id = c->gpu_id;
    UINT64 base = c->save_area ? atomic_load(&c->save_area->gpu_addr) : 0;
    if (!base)
        return; /* nowhere to save: the GPU finishes a preempted buffer, the registers start at zero */
    s->csa_addr = base + SWKMD_CSA_RECORD_OFFSET;
    s->state_addr = base + SWKMD_CSA_STATE_OFFSET;
}

bool swkmd_context_resources_mapped(HANDLE hContext)
{
    struct swkmd_context *c = swkmd_context_from(hContext);
    if (!c)
        return true; /* the system context (paging): it has none */
    bool ok = (!c->save_area || atomic_load(&c->save_area->mapped)) &&
              (!c->device->page_tables || atomic_load(&c->device->page_tables->mapped));
    if (!ok) {
        atomic_fetch_add(&violations, 1);
        wddm_debug("kmd", "SubmitCommand: context %p submitted while its save area or its device's page tables are "
                          "not resident", hContext);
    }
    return ok;
}
