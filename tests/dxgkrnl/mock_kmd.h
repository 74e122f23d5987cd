/* A mock KMD + GPU for testing dxgkrnl policies without the whole stack (the TTM KUnit
 * pattern: drive the core against a mock backend). Installed with wddm_set_kmd_entry.
 *
 * Segments: 1 = local (not CPU-visible), 2 = CPU-visible local window (host memory; its
 * CpuTranslatedAddress is the host address), 3 = aperture (a GART of host pages). Segment n's
 * BaseAddress is n << 40. Nodes: 0 = 3-D, 1 = copy + paging.
 *
 * The mock GPU is one thread. A render DMA buffer is the UMD's command bytes copied as-is; when
 * it executes, the GPU writes the command's first 32-bit word at offset 0 of every allocation
 * the packet's list marks WriteOperation. Paging buffers hold FILL and MAP records (MAP carries
 * its PFNs, so a large MAP needs several paging buffers: the MultipassOffset protocol). */
#ifndef TESTS_DXGKRNL_MOCK_KMD_H
#define TESTS_DXGKRNL_MOCK_KMD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <wddm/d3dkmddi.h>
#include <wddm/d3dkmthk.h>
#include <wddm/wddm.h>

#define MOCK_SEG1_SIZE (16u << 20)
#define MOCK_SEG2_SIZE (4u << 20)
#define MOCK_SEG3_SIZE (64u << 20)
#define MOCK_PAGING_SIZE 4096u
#define MOCK_ALLOC_MAGIC 0x4d4f434bu

/* Per-allocation private data the tests pass (D3DDDI_ALLOCATIONINFO.pPrivateDriverData). */
struct mock_alloc_priv {
    UINT32 magic;
    UINT64 size;
    UINT32 cpu_visible;
    UINT32 max_rename;     /* MaximumRenamingListLength */
    UINT32 preferred;      /* PreferredSegment.SegmentId0 */
    UINT32 supported;      /* SupportedWriteSegmentSet (0 = default) */
    UINT32 zero_priority;  /* report AllocationPriority 0 (verifier test) */
};

/* Knobs and observations, reset by mock_reset(). */
static struct {
    atomic_bool paused;
    atomic_uint gpu_mmu_and_io_mmu;   /* report an invalid DXGK_VIDMMCAPS */
    atomic_uint render_split;         /* DxgkDdiRender asks for a second DMA buffer once */
    atomic_int live_allocations;      /* KMD allocations not destroyed */
    atomic_int live_devices;
    atomic_int live_contexts;
    atomic_int live_adapters;
    atomic_uint destroy_calls;        /* DxgkDdiDestroyAllocation calls */
    atomic_uint fills, maps;          /* paging records built */
    atomic_uint paging_retries;       /* INSUFFICIENT_DMA_BUFFER returned by BuildPagingBuffer */
    atomic_uint renders, submits, paging_submits;
    atomic_ulong submitter;           /* pthread_self() of the last non-paging DxgkDdiSubmitCommand */
    atomic_uint paging_patches;       /* DxgkDdiPatch calls with Flags.Paging and no patch location */
    atomic_uint transfer_busy;        /* TRANSFERs without AllocationIsIdle to answer BUSY */
    atomic_uint busy_returned;        /* STATUS_GRAPHICS_ALLOCATION_BUSY answers given */
    atomic_uint transfers_idle;       /* TRANSFERs built with AllocationIsIdle = 1 */
    atomic_uint transfers;            /* TRANSFERs built */
    atomic_uint aperture_banks;       /* segment 3 uses banking with this many equal banks (0: none;
                                         read when the adapter starts, not reset by mock_reset) */
    atomic_uint fb_save_claim;        /* 1: claim IoMmuSecureModeSupported and answer
                                         DXGKQAITYPE_FRAMEBUFFERSAVESIZE with fb_save_size; 2: claim
                                         it and fail the query; 0: neither */
    atomic_ulong fb_save_size;
    atomic_uint fb_save_queries;      /* DXGKQAITYPE_FRAMEBUFFERSAVESIZE queries answered */
    atomic_uint exclusive_begins, exclusive_ends; /* DxgkDdiBegin/EndExclusiveAccess calls */
    atomic_uint exclusive_attached;   /* bit 0: the IOMMU domain was attached (a physical access to
                                         the dummy page translates) at Begin; bit 1: at End */
    atomic_uint exclusive_fail;       /* Begin answers STATUS_UNSUCCESSFUL */
    atomic_uint no_exclusive_ddis;    /* the table lacks DxgkDdiBegin/EndExclusiveAccess */
} mock;

static inline void mock_reset(void)
{
    atomic_store(&mock.paused, false);
    atomic_store(&mock.gpu_mmu_and_io_mmu, 0);
    atomic_store(&mock.exclusive_begins, 0);
    atomic_store(&mock.exclusive_ends, 0);
    atomic_store(&mock.exclusive_attached, 0);
    atomic_store(&mock.exclusive_fail, 0);
    atomic_store(&mock.no_exclusive_ddis, 0);
    atomic_store(&mock.render_split, 0);
    atomic_store(&mock.transfer_busy, 0);
    atomic_store(&mock.busy_returned, 0);
    atomic_store(&mock.transfers_idle, 0);
    atomic_store(&mock.transfers, 0);
    atomic_store(&mock.destroy_calls, 0);
    atomic_store(&mock.fills, 0);
    atomic_store(&mock.maps, 0);
    atomic_store(&mock.paging_retries, 0);
    atomic_store(&mock.renders, 0);
    atomic_store(&mock.submits, 0);
    atomic_store(&mock.paging_submits, 0);
    atomic_store(&mock.submitter, 0);
    atomic_store(&mock.paging_patches, 0);
    atomic_store(&mock.fb_save_claim, 0);
    atomic_store(&mock.fb_save_size, 0);
    atomic_store(&mock.fb_save_queries, 0);
}

struct mock_job {
    struct mock_job *next;
    UINT node, fence;
    bool paging;
    UINT8 *dma;            /* a copy of the submitted bytes */
    UINT size;
    UINT nwrites;
    UINT64 writes[16];     /* physical addresses to write (WriteOperation allocations) */
};

struct mock_adapter {
    PDEVICE_OBJECT pdo;
    DXGKRNL_INTERFACE cb;
    UINT8 *seg1, *seg2;
    UINT8 **gart;          /* aperture page -> host page */
    pthread_t gpu;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    struct mock_job *head, *tail;  /* protected by lock */
    bool stop;                     /* protected by lock */
    UINT completed[2];             /* written by the GPU thread, read by the ISR */
    UINT reported[2];              /* ISR only */
    UINT64 patch_writes[2][16];    /* last DxgkDdiPatch per node: its write targets */
    UINT patch_nwrites[2];
};

struct mock_kalloc { UINT32 magic; struct mock_alloc_priv p; };

enum { MOCK_PG_FILL = 1, MOCK_PG_MAP = 2, MOCK_PG_COPY = 3 };
struct mock_pg_hdr { UINT32 op, npages; UINT64 addr; UINT64 size; UINT32 value, first_page; };

static UINT8 *mock_host(struct mock_adapter *m, UINT64 addr)
{
    UINT seg = (UINT)(addr >> 40);
    UINT64 off = addr & ((1ull << 40) - 1);
    if (seg == 1 && off < MOCK_SEG1_SIZE)
        return m->seg1 + off;
    if (seg == 2 && off < MOCK_SEG2_SIZE)
        return m->seg2 + off;
    if (seg == 3 && off < MOCK_SEG3_SIZE && m->gart[off >> 12])
        return m->gart[off >> 12] + (off & 4095);
    return NULL;
}

static void mock_execute(struct mock_adapter *m, struct mock_job *j)
{
    if (j->paging) {
        UINT pos = 0;
        while (pos + sizeof(struct mock_pg_hdr) <= j->size) {
            struct mock_pg_hdr h;
            memcpy(&h, j->dma + pos, sizeof h);
            pos += sizeof h;
            if (h.op == MOCK_PG_FILL) {
                for (UINT64 o = 0; o < h.size; o += 4096) {
                    UINT8 *p = mock_host(m, h.addr + o);
                    if (p)
                        memset(p, (int)h.value, 4096);
                }
            } else if (h.op == MOCK_PG_COPY) {
                /* addr = destination host address, value/first_page unused; the source host
                 * address follows the header (both resolved when the buffer was built). */
                UINT64 src;
                memcpy(&src, j->dma + pos, 8);
                pos += 8;
                memcpy((void *)(uintptr_t)h.addr, (const void *)(uintptr_t)src, h.size);
            } else if (h.op == MOCK_PG_MAP) {
                for (UINT i = 0; i < h.npages; i++) {
                    UINT64 pfn;
                    memcpy(&pfn, j->dma + pos + 8 * i, 8);
                    m->gart[h.first_page + i] = (UINT8 *)(uintptr_t)(pfn << 12);
                }
                pos += 8 * h.npages;
            } else {
                break;
            }
        }
    } else if (j->size >= 4) {
        UINT32 v;
        memcpy(&v, j->dma, 4);
        for (UINT i = 0; i < j->nwrites; i++) {
            UINT8 *p = mock_host(m, j->writes[i]);
            if (p)
                memcpy(p, &v, 4);
        }
    }
}

static void *mock_gpu_thread(void *arg)
{
    struct mock_adapter *m = arg;
    for (;;) {
        pthread_mutex_lock(&m->lock);
        while (!m->stop && (!m->head || atomic_load(&mock.paused))) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += 1000000;
            if (ts.tv_nsec >= 1000000000) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000;
            }
            pthread_cond_timedwait(&m->cond, &m->lock, &ts);
        }
        if (m->stop && !m->head) {
            pthread_mutex_unlock(&m->lock);
            return NULL;
        }
        struct mock_job *j = m->head;
        m->head = j->next;
        if (!m->head)
            m->tail = NULL;
        pthread_mutex_unlock(&m->lock);
        mock_execute(m, j);
        __atomic_store_n(&m->completed[j->node], j->fence, __ATOMIC_RELEASE);
        free(j->dma);
        free(j);
        WddmInterruptLineRaise(m->pdo, 0);
    }
}

static DXGKRNL_INTERFACE mock_started_cb; /* written at StartDevice, before any test reads it */

static NTSTATUS APIENTRY mock_add_device(const PDEVICE_OBJECT pdo, PVOID *ctx)
{
    struct mock_adapter *m = calloc(1, sizeof *m);
    m->pdo = pdo;
    m->seg1 = calloc(1, MOCK_SEG1_SIZE);
    m->seg2 = aligned_alloc(4096, MOCK_SEG2_SIZE);
    memset(m->seg2, 0xAB, MOCK_SEG2_SIZE); /* garbage: the kernel's FILL must zero it */
    m->gart = calloc(MOCK_SEG3_SIZE / 4096, sizeof *m->gart);
    pthread_mutex_init(&m->lock, NULL);
    pthread_cond_init(&m->cond, NULL);
    *ctx = m;
    atomic_fetch_add(&mock.live_adapters, 1);
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY mock_start_device(const PVOID ctx, DXGK_START_INFO *si, DXGKRNL_INTERFACE *ifc, ULONG *src,
                                           ULONG *children)
{
    struct mock_adapter *m = ctx;
    m->cb = *ifc;
    mock_started_cb = m->cb; /* the last started adapter's callbacks (context allocation tests) */
    *src = 0;
    *children = 0;
    pthread_create(&m->gpu, NULL, mock_gpu_thread, m);
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY mock_stop_device(const PVOID ctx)
{
    struct mock_adapter *m = ctx;
    pthread_mutex_lock(&m->lock);
    m->stop = true;
    pthread_cond_signal(&m->cond);
    pthread_mutex_unlock(&m->lock);
    pthread_join(m->gpu, NULL);
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY mock_remove_device(const PVOID ctx)
{
    struct mock_adapter *m = ctx;
    free(m->seg1);
    free(m->seg2);
    free(m->gart);
    pthread_mutex_destroy(&m->lock);
    pthread_cond_destroy(&m->cond);
    free(m);
    atomic_fetch_sub(&mock.live_adapters, 1);
    return STATUS_SUCCESS;
}

static BOOLEAN APIENTRY mock_isr(const PVOID ctx, ULONG msg)
{
    struct mock_adapter *m = ctx;
    BOOLEAN any = FALSE;
    for (UINT n = 0; n < 2; n++) {
        UINT f = __atomic_load_n(&m->completed[n], __ATOMIC_ACQUIRE);
        if (f != m->reported[n]) {
            DXGKARGCB_NOTIFY_INTERRUPT_DATA d = { .InterruptType = DXGK_INTERRUPT_DMA_COMPLETED };
            d.DmaCompleted.SubmissionFenceId = f;
            d.DmaCompleted.NodeOrdinal = n;
            m->cb.DxgkCbNotifyInterrupt(m->cb.DeviceHandle, &d);
            m->reported[n] = f;
            any = TRUE;
        }
    }
    if (any)
        m->cb.DxgkCbQueueDpc(m->cb.DeviceHandle);
    return any;
}

static VOID APIENTRY mock_dpc(const PVOID ctx)
{
    struct mock_adapter *m = ctx;
    m->cb.DxgkCbNotifyDpc(m->cb.DeviceHandle);
}

static NTSTATUS APIENTRY mock_query_adapter_info(const HANDLE h, const DXGKARG_QUERYADAPTERINFO *q)
{
    struct mock_adapter *m = h;
    switch (q->Type) {
    case DXGKQAITYPE_DRIVERCAPS: {
        DXGK_DRIVERCAPS *c = q->pOutputData;
        memset(c, 0, sizeof *c);
        c->GpuEngineTopology.NbAsymetricProcessingNodes = 2;
        c->SchedulingCaps.MultiEngineAware = 1;
        c->MemoryManagementCaps.PagingNode = 1;
        if (atomic_load(&mock.gpu_mmu_and_io_mmu)) {
            c->MemoryManagementCaps.GpuMmuSupported = 1;
            c->MemoryManagementCaps.IoMmuSupported = 1;
        }
        c->MemoryManagementCaps.IoMmuSecureModeSupported = atomic_load(&mock.fb_save_claim) != 0;
        return STATUS_SUCCESS;
    }
    case DXGKQAITYPE_FRAMEBUFFERSAVESIZE: {
        atomic_fetch_add(&mock.fb_save_queries, 1);
        if (atomic_load(&mock.fb_save_claim) != 1 || !q->pInputData || q->InputDataSize < sizeof(UINT) || *(const UINT *)q->pInputData != 0 ||
            q->OutputDataSize < sizeof(DXGK_FRAMEBUFFERSAVEAREA))
            return STATUS_INVALID_PARAMETER;
        ((DXGK_FRAMEBUFFERSAVEAREA *)q->pOutputData)->MaximumSize = (SIZE_T)atomic_load(&mock.fb_save_size);
        return STATUS_SUCCESS;
    }
    case DXGKQAITYPE_QUERYSEGMENT: {
        DXGK_QUERYSEGMENTOUT *o = q->pOutputData;
        o->NbSegment = 3;
        if (!o->pSegmentDescriptor)
            return STATUS_SUCCESS;
        DXGK_SEGMENTDESCRIPTOR *d = o->pSegmentDescriptor;
        d[0] = (DXGK_SEGMENTDESCRIPTOR){ .BaseAddress.QuadPart = 1ll << 40, .Size = MOCK_SEG1_SIZE,
                                         .CommitLimit = MOCK_SEG1_SIZE };
        d[1] = (DXGK_SEGMENTDESCRIPTOR){ .BaseAddress.QuadPart = 2ll << 40,
                                         .CpuTranslatedAddress.QuadPart = (LONGLONG)(uintptr_t)m->seg2,
                                         .Size = MOCK_SEG2_SIZE, .CommitLimit = MOCK_SEG2_SIZE };
        d[1].Flags.CpuVisible = 1;
        d[2] = (DXGK_SEGMENTDESCRIPTOR){ .BaseAddress.QuadPart = 3ll << 40, .Size = MOCK_SEG3_SIZE,
                                         .CommitLimit = MOCK_SEG3_SIZE };
        d[2].Flags.Aperture = 1;
        static SIZE_T bank_ends[126];
        UINT banks = atomic_load(&mock.aperture_banks);
        if (banks) {
            for (UINT b = 0; b + 1 < banks; b++)
                bank_ends[b] = (SIZE_T)MOCK_SEG3_SIZE / banks * (b + 1);
            d[2].Flags.UseBanking = 1;
            d[2].NbOfBanks = banks;
            d[2].pBankRangeTable = bank_ends;
        }
        o->PagingBufferSegmentId = 0;
        o->PagingBufferSize = MOCK_PAGING_SIZE;
        o->PagingBufferPrivateDataSize = 0;
        return STATUS_SUCCESS;
    }
    case DXGKQAITYPE_UMDRIVERPRIVATE:
        if (q->OutputDataSize < 4)
            return STATUS_BUFFER_TOO_SMALL;
        memcpy(q->pOutputData, "MOCK", 4);
        return STATUS_SUCCESS;
    default: /* the mock is a WDDM 1.x KMD: no GpuMmu queries */
        break;
    }
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS APIENTRY mock_create_device(const HANDLE h, DXGKARG_CREATEDEVICE *a)
{
    atomic_fetch_add(&mock.live_devices, 1);
    a->hDevice = h; /* the mock adapter: OpenAllocation reaches its callbacks through it */
    return STATUS_SUCCESS;
}
static NTSTATUS APIENTRY mock_destroy_device(const HANDLE h)
{
    atomic_fetch_sub(&mock.live_devices, 1);
    return STATUS_SUCCESS;
}
static NTSTATUS APIENTRY mock_create_context(const HANDLE h, DXGKARG_CREATECONTEXT *a)
{
    atomic_fetch_add(&mock.live_contexts, 1);
    a->hContext = (HANDLE)(uintptr_t)(0xC000 + a->NodeOrdinal);
    a->ContextInfo.DmaBufferSize = 4096;
    a->ContextInfo.AllocationListSize = 16;
    a->ContextInfo.PatchLocationListSize = 16;
    return STATUS_SUCCESS;
}
static NTSTATUS APIENTRY mock_destroy_context(const HANDLE h)
{
    atomic_fetch_sub(&mock.live_contexts, 1);
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY mock_create_allocation(const HANDLE h, DXGKARG_CREATEALLOCATION *a)
{
    for (UINT i = 0; i < a->NumAllocations; i++) {
        DXGK_ALLOCATIONINFO *info = &a->pAllocationInfo[i];
        struct mock_alloc_priv p = { .size = 4096, .supported = 0x1 };
        if (info->pPrivateDriverData && info->PrivateDriverDataSize >= sizeof p)
            memcpy(&p, info->pPrivateDriverData, sizeof p);
        struct mock_kalloc *k = calloc(1, sizeof *k);
        k->magic = MOCK_ALLOC_MAGIC;
        k->p = p;
        info->hAllocation = k;
        info->Size = (p.size + 4095) & ~(UINT64)4095;
        info->Alignment = 0;
        info->SupportedWriteSegmentSet = p.supported ? p.supported : (p.cpu_visible ? 0x6 : 0x1);
        info->SupportedReadSegmentSet = info->SupportedWriteSegmentSet;
        info->PreferredSegment.SegmentId0 = p.preferred;
        info->MaximumRenamingListLength = p.max_rename;
        info->Flags.CpuVisible = p.cpu_visible ? 1 : 0;
        info->AllocationPriority = p.zero_priority ? 0 : D3DDDI_ALLOCATIONPRIORITY_NORMAL;
        atomic_fetch_add(&mock.live_allocations, 1);
    }
    if (a->Flags.Resource && !a->hResource)
        a->hResource = (HANDLE)(uintptr_t)0x5E5;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY mock_destroy_allocation(const HANDLE h, const DXGKARG_DESTROYALLOCATION *a)
{
    atomic_fetch_add(&mock.destroy_calls, 1);
    for (UINT i = 0; i < a->NumAllocations; i++) {
        struct mock_kalloc *k = a->pAllocationList[i];
        if (k && k->magic == MOCK_ALLOC_MAGIC) {
            k->magic = 0;
            free(k);
            atomic_fetch_sub(&mock.live_allocations, 1);
        }
    }
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY mock_open_allocation(const HANDLE hDevice, const DXGKARG_OPENALLOCATION *a)
{
    for (UINT i = 0; i < a->NumAllocations; i++) {
        /* The kernel's handle resolves to the KMD's own allocation (DxgkCbGetHandleData). */
        struct mock_adapter *m = hDevice;
        DXGKARGCB_GETHANDLEDATA g = { .hObject = a->pOpenAllocation[i].hAllocation, .Type = DXGK_HANDLE_ALLOCATION };
        struct mock_kalloc *k = m->cb.DxgkCbGetHandleData(&g);
        if (!k || k->magic != MOCK_ALLOC_MAGIC)
            return STATUS_INVALID_PARAMETER;
        a->pOpenAllocation[i].hDeviceSpecificAllocation = k;
    }
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY mock_close_allocation(const HANDLE hDevice, const DXGKARG_CLOSEALLOCATION *a)
{
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY mock_render(const HANDLE hContext, DXGKARG_RENDER *r)
{
    atomic_fetch_add(&mock.renders, 1);
    UINT done = r->MultipassOffset;
    UINT left = r->CommandLength - done;
    UINT n = left < r->DmaSize ? left : r->DmaSize;
    if (atomic_load(&mock.render_split) && done == 0 && left >= 8)
        n = 4; /* only the first word fits: ask for a second buffer */
    memcpy(r->pDmaBuffer, (const UINT8 *)r->pCommand + done, n);
    r->pDmaBuffer = (UINT8 *)r->pDmaBuffer + n;
    r->DmaSize -= n;
    r->MultipassOffset = done + n;
    if (done + n < r->CommandLength) {
        atomic_store(&mock.render_split, 0);
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    }
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY mock_patch(const HANDLE h, const DXGKARG_PATCH *p)
{
    struct mock_adapter *m = h;
    UINT node = p->Flags.Paging ? 1 : (UINT)((uintptr_t)p->hContext - 0xC000);
    if (p->Flags.Paging && p->PatchLocationListSubmissionLength == 0)
        atomic_fetch_add(&mock.paging_patches, 1);
    UINT k = 0;
    for (UINT i = 0; i < p->AllocationListSize && k < 16; i++)
        if (p->pAllocationList[i].WriteOperation)
            m->patch_writes[node][k++] = (UINT64)p->pAllocationList[i].PhysicalAddress.QuadPart;
    m->patch_nwrites[node] = k;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY mock_submit(const HANDLE h, const DXGKARG_SUBMITCOMMAND *s)
{
    struct mock_adapter *m = h;
    struct mock_job *j = calloc(1, sizeof *j);
    j->node = s->NodeOrdinal;
    j->fence = s->SubmissionFenceId;
    j->paging = s->Flags.Paging;
    j->size = s->DmaBufferSubmissionEndOffset - s->DmaBufferSubmissionStartOffset;
    j->dma = malloc(j->size ? j->size : 1);
    memcpy(j->dma, (UINT8 *)(uintptr_t)s->DmaBufferPhysicalAddress.QuadPart + s->DmaBufferSubmissionStartOffset,
           j->size);
    j->nwrites = m->patch_nwrites[j->node];
    memcpy(j->writes, m->patch_writes[j->node], sizeof j->writes);
    if (!j->paging)
        atomic_store(&mock.submitter, (unsigned long)pthread_self());
    atomic_fetch_add(j->paging ? &mock.paging_submits : &mock.submits, 1);
    pthread_mutex_lock(&m->lock);
    if (m->tail)
        m->tail->next = j;
    else
        m->head = j;
    m->tail = j;
    pthread_cond_signal(&m->cond);
    pthread_mutex_unlock(&m->lock);
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY mock_build_paging(const HANDLE h, DXGKARG_BUILDPAGINGBUFFER *a)
{
    struct mock_pg_hdr hdr = { 0 };
    if (a->Operation == DXGK_OPERATION_FILL) {
        if (a->DmaSize < sizeof hdr)
            return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
        hdr.op = MOCK_PG_FILL;
        hdr.addr = (UINT64)a->Fill.Destination.SegmentAddress.QuadPart;
        hdr.size = a->Fill.FillSize;
        hdr.value = a->Fill.FillPattern;
        memcpy(a->pDmaBuffer, &hdr, sizeof hdr);
        a->pDmaBuffer = (UINT8 *)a->pDmaBuffer + sizeof hdr;
        a->DmaSize -= sizeof hdr;
        atomic_fetch_add(&mock.fills, 1);
        return STATUS_SUCCESS;
    }
    if (a->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT) {
        /* MultipassOffset = pages already mapped (docs/semantics.md §2.4). */
        SIZE_T total = a->MapApertureSegment.NumberOfPages;
        UINT done = a->MultipassOffset;
        if (a->DmaSize < sizeof hdr + 8)
            return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
        UINT fit = (UINT)((a->DmaSize - sizeof hdr) / 8);
        UINT n = (UINT)(total - done) < fit ? (UINT)(total - done) : fit;
        hdr.op = MOCK_PG_MAP;
        hdr.npages = n;
        hdr.first_page = (UINT32)(a->MapApertureSegment.OffsetInPages + done);
        memcpy(a->pDmaBuffer, &hdr, sizeof hdr);
        UINT8 *p = (UINT8 *)a->pDmaBuffer + sizeof hdr;
        for (UINT i = 0; i < n; i++) {
            UINT64 pfn = a->MapApertureSegment.pMdl->PfnArray[a->MapApertureSegment.MdlOffset + done + i];
            memcpy(p + 8 * i, &pfn, 8);
        }
        a->pDmaBuffer = p + 8 * n;
        a->DmaSize -= (UINT)(sizeof hdr + 8 * n);
        a->MultipassOffset = done + n;
        atomic_fetch_add(&mock.maps, 1);
        if (done + n < total) {
            atomic_fetch_add(&mock.paging_retries, 1);
            return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
        }
        return STATUS_SUCCESS;
    }
    if (a->Operation == DXGK_OPERATION_TRANSFER) {
        /* Whole transfers only (no MultipassOffset); BUSY on request when not known idle. */
        const DXGK_BUILDPAGINGBUFFER_TRANSFER *t = &a->Transfer;
        if (!t->Flags.AllocationIsIdle && atomic_load(&mock.transfer_busy)) {
            atomic_fetch_sub(&mock.transfer_busy, 1);
            atomic_fetch_add(&mock.busy_returned, 1);
            return STATUS_GRAPHICS_ALLOCATION_BUSY;
        }
        if (a->DmaSize < sizeof hdr + 8)
            return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
        struct mock_adapter *m = h;
        UINT8 *src = t->Source.SegmentId ? mock_host(m, (UINT64)t->Source.SegmentAddress.QuadPart)
                                         : (UINT8 *)(uintptr_t)(t->Source.pMdl->PfnArray[0] << 12);
        UINT8 *dst = t->Destination.SegmentId ? mock_host(m, (UINT64)t->Destination.SegmentAddress.QuadPart)
                                              : (UINT8 *)(uintptr_t)(t->Destination.pMdl->PfnArray[0] << 12);
        if (!src || !dst)
            return STATUS_INVALID_PARAMETER;
        hdr.op = MOCK_PG_COPY;
        hdr.addr = (UINT64)(uintptr_t)dst;
        hdr.size = t->TransferSize;
        UINT64 s64 = (UINT64)(uintptr_t)src;
        memcpy(a->pDmaBuffer, &hdr, sizeof hdr);
        memcpy((UINT8 *)a->pDmaBuffer + sizeof hdr, &s64, 8);
        a->pDmaBuffer = (UINT8 *)a->pDmaBuffer + sizeof hdr + 8;
        a->DmaSize -= (UINT)(sizeof hdr + 8);
        atomic_fetch_add(&mock.transfers, 1);
        if (t->Flags.AllocationIsIdle)
            atomic_fetch_add(&mock.transfers_idle, 1);
        return STATUS_SUCCESS;
    }
    if (a->Operation == DXGK_OPERATION_DISCARD_CONTENT || a->Operation == DXGK_OPERATION_UNMAP_APERTURE_SEGMENT)
        return STATUS_SUCCESS; /* nothing for the mock GPU to do */
    return STATUS_NOT_SUPPORTED;
}

void *vidmm_dummy_page(void); /* the kernel's (vidmm/evict.c): in every isolation domain */

/* Whether the device's physical access to the dummy page translates: its IOMMU domain is attached. */
static bool mock_domain_attached(const struct mock_adapter *m)
{
    UINT64 phys;
    return NT_SUCCESS(WddmIoMmuTranslate(m->pdo, 0, (UINT64)(uintptr_t)vidmm_dummy_page(), FALSE, &phys));
}

static NTSTATUS APIENTRY mock_begin_exclusive(const HANDLE h, DXGKARG_BEGINEXCLUSIVEACCESS *args)
{
    (void)args;
    atomic_fetch_add(&mock.exclusive_begins, 1);
    if (atomic_load(&mock.exclusive_fail))
        return STATUS_UNSUCCESSFUL;
    if (mock_domain_attached((const struct mock_adapter *)h))
        atomic_fetch_or(&mock.exclusive_attached, 1u);
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY mock_end_exclusive(const HANDLE h, DXGKARG_ENDEXCLUSIVEACCESS *args)
{
    (void)args;
    atomic_fetch_add(&mock.exclusive_ends, 1);
    if (mock_domain_attached((const struct mock_adapter *)h))
        atomic_fetch_or(&mock.exclusive_attached, 2u);
    return STATUS_SUCCESS;
}

static inline NTSTATUS mock_driver_entry(PDRIVER_OBJECT drv, PVOID reg)
{
    DRIVER_INITIALIZATION_DATA d = {
        .Version = DXGKDDI_INTERFACE_VERSION,
        .DxgkDdiAddDevice = mock_add_device,
        .DxgkDdiStartDevice = mock_start_device,
        .DxgkDdiStopDevice = mock_stop_device,
        .DxgkDdiRemoveDevice = mock_remove_device,
        .DxgkDdiInterruptRoutine = mock_isr,
        .DxgkDdiDpcRoutine = mock_dpc,
        .DxgkDdiQueryAdapterInfo = mock_query_adapter_info,
        .DxgkDdiCreateDevice = mock_create_device,
        .DxgkDdiCreateAllocation = mock_create_allocation,
        .DxgkDdiDestroyAllocation = mock_destroy_allocation,
        .DxgkDdiPatch = mock_patch,
        .DxgkDdiSubmitCommand = mock_submit,
        .DxgkDdiBuildPagingBuffer = mock_build_paging,
        .DxgkDdiDestroyDevice = mock_destroy_device,
        .DxgkDdiOpenAllocation = mock_open_allocation,
        .DxgkDdiCloseAllocation = mock_close_allocation,
        .DxgkDdiRender = mock_render,
        .DxgkDdiCreateContext = mock_create_context,
        .DxgkDdiDestroyContext = mock_destroy_context,
        .DxgkDdiBeginExclusiveAccess = mock_begin_exclusive,
        .DxgkDdiEndExclusiveAccess = mock_end_exclusive,
    };
    if (atomic_load(&mock.no_exclusive_ddis)) {
        d.DxgkDdiBeginExclusiveAccess = NULL;
        d.DxgkDdiEndExclusiveAccess = NULL;
    }
    return DxgkInitialize(drv, reg, &d);
}

/* ---- helpers for tests ------------------------------------------------------------------- */
struct mock_env {
    D3DKMT_HANDLE adapter, device, context;
    D3DKMT_CREATECONTEXT cc;
};

static inline NTSTATUS mock_open(struct mock_env *e)
{
    memset(e, 0, sizeof *e);
    wddm_set_kmd_entry(mock_driver_entry);
    D3DKMT_ADAPTERINFO info[4];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
    NTSTATUS st = D3DKMTEnumAdapters2(&en);
    if (!NT_SUCCESS(st))
        return st;
    e->adapter = info[0].hAdapter;
    D3DKMT_CREATEDEVICE cd = { .hAdapter = e->adapter };
    st = D3DKMTCreateDevice(&cd);
    if (!NT_SUCCESS(st))
        return st;
    e->device = cd.hDevice;
    e->cc = (D3DKMT_CREATECONTEXT){ .hDevice = e->device, .NodeOrdinal = 0 };
    st = D3DKMTCreateContext(&e->cc);
    e->context = e->cc.hContext;
    return st;
}

static inline void mock_close(struct mock_env *e)
{
    atomic_store(&mock.paused, false);
    D3DKMT_DESTROYCONTEXT dc = { .hContext = e->context };
    D3DKMTDestroyContext(&dc);
    D3DKMT_DESTROYDEVICE dd = { .hDevice = e->device };
    D3DKMTDestroyDevice(&dd);
    D3DKMT_CLOSEADAPTER ca = { .hAdapter = e->adapter };
    D3DKMTCloseAdapter(&ca);
}

static inline D3DKMT_HANDLE mock_alloc(struct mock_env *e, UINT64 size, bool cpu_visible, UINT max_rename,
                                UINT preferred, UINT supported, NTSTATUS *out_st)
{
    struct mock_alloc_priv p = { .magic = MOCK_ALLOC_MAGIC, .size = size, .cpu_visible = cpu_visible,
                                 .max_rename = max_rename, .preferred = preferred, .supported = supported };
    D3DDDI_ALLOCATIONINFO ai = { .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p };
    D3DKMT_CREATEALLOCATION ca = { .hDevice = e->device, .NumAllocations = 1, .pAllocationInfo = &ai };
    NTSTATUS st = D3DKMTCreateAllocation(&ca);
    if (out_st)
        *out_st = st;
    return NT_SUCCESS(st) ? ai.hAllocation : 0;
}

static inline NTSTATUS mock_free(struct mock_env *e, D3DKMT_HANDLE h)
{
    D3DKMT_DESTROYALLOCATION da = { .hDevice = e->device, .phAllocationList = &h, .AllocationCount = 1 };
    return D3DKMTDestroyAllocation(&da);
}

/* Queues one DMA buffer whose GPU write stores value at offset 0 of alloc (when write). */
static inline NTSTATUS mock_render_write(struct mock_env *e, D3DKMT_HANDLE alloc, UINT32 value, bool write)
{
    memcpy(e->cc.pCommandBuffer, &value, 4);
    memset((UINT8 *)e->cc.pCommandBuffer + 4, 0, 4);
    e->cc.pAllocationList[0].hAllocation = alloc;
    e->cc.pAllocationList[0].Value = 0;
    e->cc.pAllocationList[0].WriteOperation = write ? 1 : 0;
    D3DKMT_RENDER r = { .hContext = e->context, .CommandLength = 8, .AllocationCount = 1 };
    return D3DKMTRender(&r);
}

static inline NTSTATUS mock_lock(struct mock_env *e, D3DKMT_HANDLE alloc, UINT flags, void **out)
{
    D3DKMT_LOCK l = { .hDevice = e->device, .hAllocation = alloc };
    l.Flags.Value = flags;
    NTSTATUS st = D3DKMTLock(&l);
    if (out)
        *out = l.pData;
    return st;
}

static inline NTSTATUS mock_unlock(struct mock_env *e, D3DKMT_HANDLE alloc)
{
    D3DKMT_UNLOCK u = { .hDevice = e->device, .NumAllocations = 1, .phAllocations = &alloc };
    return D3DKMTUnlock(&u);
}

#define LOCK_READONLY 0x1u
#define LOCK_WRITEONLY 0x2u
#define LOCK_DONOTWAIT 0x4u
#define LOCK_IGNORESYNC 0x8u
#define LOCK_ACQUIREAPERTURE 0x40u
#define LOCK_DISCARD 0x80u
#define LOCK_NOEXISTINGREFERENCE 0x100u
#define LOCK_USEALTERNATEVA 0x200u

#endif /* TESTS_DXGKRNL_MOCK_KMD_H */
