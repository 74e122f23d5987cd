/* The reference UMD on a WDDM 2.x GpuMmu adapter (issue 6; docs/semantics.md §3.3 "WDDM 2.x",
 * §9.2): the command writer puts GPU virtual addresses in the commands (no allocation or
 * patch-location list, no pfnRenderCb), every allocation is mapped and made resident, the
 * paging fence is waited for by the GPU before the submission that may use the VA, command
 * buffers are the UMD's own ring, and a ring slot is written again only after its fence passed.
 *
 * The fake "kernel + GPU" below extends umd_fake.h with the WDDM 2.x callbacks: it hands out
 * VAs, resolves every address of a submitted buffer through them (a VA no mapping covers, or a
 * write through a read-only mapping, fails the test), executes the commands at once unless
 * "paused", and signals the device's monitored fence when the GPU reaches the signal. */
#include "umd/umd_fake.h"
#include "umd/umd.h"

#define VA_BASE 0x10000000ull
#define MAX_MAPS 256
#define MAX_QUEUED 512

static struct gv {
    struct fake *f;
    struct { D3DGPU_VIRTUAL_ADDRESS va; UINT64 size; D3DKMT_HANDLE h; BOOL write; } map[MAX_MAPS];
    UINT maps;
    D3DGPU_VIRTUAL_ADDRESS next_va;
    UINT resident[FAKE_MAX_ALLOCS + 1];       /* MakeResident calls per allocation handle */
    UINT64 fence;                             /* the device's monitored fence (CPU view) */
    UINT64 paging_fence;                      /* the paging queue's fence */
    UINT64 paging_next;                       /* last value handed out by Map / MakeResident */
    UINT64 gpu_waited;                        /* highest paging value a GPU wait was queued for */
    UINT gpu_waits, cpu_waits;
    int paused;
    /* queued GPU work while paused: submissions (VA, length) and fence signals, in order */
    struct { int signal; UINT64 value; D3DGPU_VIRTUAL_ADDRESS va; UINT len; } q[MAX_QUEUED];
    UINT nq;
    UINT submits, render_calls_seen;
    D3DGPU_VIRTUAL_ADDRESS submitted_va[MAX_QUEUED];
    int full_while_queued; /* MakeResident fails while queued work holds the room (E_OUTOFMEMORY) */
    UINT evicts;
    D3DKMT_HANDLE leaving[16]; /* evicted while work was queued: they leave once it ran (§9.2) */
    UINT nleaving;
} gv;

static int gv_find(D3DGPU_VIRTUAL_ADDRESS va, UINT64 extent, BOOL write, BYTE **out)
{
    for (UINT i = 0; i < gv.maps; i++) {
        if (va >= gv.map[i].va && va + extent <= gv.map[i].va + gv.map[i].size) {
            if (write && !gv.map[i].write)
                fail_msg("GPU write through the read-only mapping at 0x%llx", (unsigned long long)va);
            assert_true(gv.resident[gv.map[i].h] > 0); /* the UMD made it resident (§9.2) */
            *out = fake_alloc_of(gv.f, gv.map[i].h)->mem + (va - gv.map[i].va);
            return 1;
        }
    }
    fail_msg("GPU access to unmapped VA 0x%llx (+%llu)", (unsigned long long)va, (unsigned long long)extent);
    return 0;
}

/* The GPU runs one buffer: every address field is a VA (never 0: no patching happens here). */
static void gv_execute(D3DGPU_VIRTUAL_ADDRESS va, UINT len)
{
    assert_true(gv.paging_fence >= gv.gpu_waited); /* the GPU wait ran first */
    BYTE *cmd;
    gv_find(va, len, FALSE, &cmd);
    for (UINT at = 0; at < len;) {
        const struct swgpu_cmd_header *h = (const void *)(cmd + at);
        assert_true(h->size_bytes >= sizeof *h && at + h->size_bytes <= len);
        BYTE *d, *s;
        if (h->opcode == SWGPU_OP_COPY) {
            const struct swgpu_cmd_copy *c = (const void *)h;
            assert_int_not_equal(c->dst.addr, 0);
            gv_find(c->dst.addr, fake_extent(&c->dst, c->row_bytes, c->rows, c->slices), TRUE, &d);
            gv_find(c->src.addr, fake_extent(&c->src, c->row_bytes, c->rows, c->slices), FALSE, &s);
            for (UINT z = 0; z < c->slices; z++)
                for (UINT y = 0; y < c->rows; y++)
                    memmove(d + (size_t)z * c->dst.slice_pitch + (size_t)y * c->dst.row_pitch,
                            s + (size_t)z * c->src.slice_pitch + (size_t)y * c->src.row_pitch, c->row_bytes);
        } else if (h->opcode == SWGPU_OP_WRITE) {
            const struct swgpu_cmd_write *w = (const void *)h;
            gv_find(w->dst.addr, fake_extent(&w->dst, w->row_bytes, w->rows, w->slices), TRUE, &d);
            const BYTE *p = (const BYTE *)(w + 1);
            for (UINT z = 0; z < w->slices; z++)
                for (UINT y = 0; y < w->rows; y++, p += w->row_bytes)
                    memcpy(d + (size_t)z * w->dst.slice_pitch + (size_t)y * w->dst.row_pitch, p, w->row_bytes);
        } else if (h->opcode == SWGPU_OP_FILL) {
            const struct swgpu_cmd_fill *fl = (const void *)h;
            gv_find(fl->dst.addr, fake_extent(&fl->dst, fl->row_bytes, fl->rows, fl->slices), TRUE, &d);
            for (UINT z = 0; z < fl->slices; z++)
                for (UINT y = 0; y < fl->rows; y++)
                    for (UINT x = 0; x < fl->row_bytes; x++)
                        d[(size_t)z * fl->dst.slice_pitch + (size_t)y * fl->dst.row_pitch + x] =
                            fl->pattern[x % fl->pattern_bytes];
        } else {
            fail_msg("unexpected opcode %u", h->opcode);
        }
        at += h->size_bytes;
    }
}

static void gv_resume(void)
{
    gv.paused = 0;
    gv.paging_fence = gv.paging_next;
    for (UINT i = 0; i < gv.nq; i++) {
        if (gv.q[i].signal)
            gv.fence = gv.q[i].value;
        else
            gv_execute(gv.q[i].va, gv.q[i].len);
    }
    gv.nq = 0;
    for (UINT i = 0; i < gv.nleaving; i++)
        gv.resident[gv.leaving[i]]--;
    gv.nleaving = 0;
}

static HRESULT APIENTRY gv_RenderCb(HANDLE hDevice, D3DDDICB_RENDER *r)
{
    (void)hDevice;
    (void)r;
    gv.render_calls_seen++;
    return E_NOTIMPL; /* refused on a GpuMmu adapter */
}

static HRESULT APIENTRY gv_CreateContextCb(HANDLE hDevice, D3DDDICB_CREATECONTEXT *c)
{
    (void)hDevice;
    memset(&c->pCommandBuffer, 0, sizeof *c - offsetof(D3DDDICB_CREATECONTEXT, pCommandBuffer));
    c->hContext = (HANDLE)(uintptr_t)0xC0; /* no command buffer, no lists */
    return S_OK;
}

static HRESULT APIENTRY gv_CreateSync2(HANDLE hDevice, D3DDDICB_CREATESYNCHRONIZATIONOBJECT2 *c)
{
    (void)hDevice;
    assert_int_equal(c->Info.Type, D3DDDI_MONITORED_FENCE);
    c->Info.MonitoredFence.FenceValueCPUVirtualAddress = &gv.fence;
    c->hSyncObject = 0x5001;
    return S_OK;
}

static HRESULT APIENTRY gv_DestroySync(HANDLE hDevice, const D3DDDICB_DESTROYSYNCHRONIZATIONOBJECT *d)
{
    (void)hDevice;
    (void)d;
    return S_OK;
}

static HRESULT APIENTRY gv_SignalFromGpu(HANDLE hDevice, const D3DDDICB_SIGNALSYNCHRONIZATIONOBJECTFROMGPU *s)
{
    (void)hDevice;
    assert_int_equal(s->ObjectHandleArray[0], 0x5001);
    if (gv.paused) {
        assert_true(gv.nq < MAX_QUEUED);
        gv.q[gv.nq].signal = 1;
        gv.q[gv.nq++].value = s->MonitoredFenceValueArray[0];
    } else {
        gv.fence = s->MonitoredFenceValueArray[0];
    }
    return S_OK;
}

static HRESULT APIENTRY gv_WaitFromCpu(HANDLE hDevice, const D3DDDICB_WAITFORSYNCHRONIZATIONOBJECTFROMCPU *w)
{
    (void)hDevice;
    /* Counted only when it would block (TSan builds of rename.c also make zero-cost waits for a
     * value already read, see umd_fence_completed). */
    if (w->ObjectHandleArray[0] != 0x5001 || gv.fence < w->FenceValueArray[0])
        gv.cpu_waits++;
    if (w->ObjectHandleArray[0] == 0x5001 && gv.fence < w->FenceValueArray[0])
        gv_resume(); /* a blocking wait: the GPU catches up */
    assert_true(w->ObjectHandleArray[0] != 0x5001 || gv.fence >= w->FenceValueArray[0]);
    return S_OK;
}

static HRESULT APIENTRY gv_WaitFromGpu(HANDLE hDevice, const D3DDDICB_WAITFORSYNCHRONIZATIONOBJECTFROMGPU *w)
{
    (void)hDevice;
    assert_int_equal(w->ObjectHandleArray[0], 0x6001); /* the paging queue's fence */
    gv.gpu_waits++;
    if (w->MonitoredFenceValueArray[0] > gv.gpu_waited)
        gv.gpu_waited = w->MonitoredFenceValueArray[0];
    return S_OK;
}

static HRESULT APIENTRY gv_CreatePagingQueue(HANDLE hDevice, D3DDDICB_CREATEPAGINGQUEUE *q)
{
    (void)hDevice;
    q->hPagingQueue = 0x6000;
    q->hSyncObject = 0x6001;
    q->FenceValueCPUVirtualAddress = &gv.paging_fence;
    return S_OK;
}

static HRESULT APIENTRY gv_DestroyPagingQueue(HANDLE hDevice, const D3DDDI_DESTROYPAGINGQUEUE *d)
{
    (void)hDevice;
    assert_int_equal(d->hPagingQueue, 0x6000);
    return S_OK;
}

static HRESULT APIENTRY gv_Map(HANDLE hDevice, D3DDDI_MAPGPUVIRTUALADDRESS *m)
{
    (void)hDevice;
    assert_int_equal(m->hPagingQueue, 0x6000);
    struct fake_alloc *a = fake_alloc_of(gv.f, m->hAllocation);
    assert_int_equal(m->OffsetInPages, 0);
    assert_int_equal(m->SizeInPages, (a->size + 4095) / 4096 ? (a->size + 4095) / 4096 : 1); /* whole allocation */
    assert_true(gv.maps < MAX_MAPS);
    gv.map[gv.maps].va = gv.next_va;
    gv.map[gv.maps].size = m->SizeInPages * 4096;
    gv.map[gv.maps].h = m->hAllocation;
    gv.map[gv.maps].write = m->Protection.Write;
    gv.maps++;
    m->VirtualAddress = gv.next_va;
    gv.next_va += m->SizeInPages * 4096 + 4096; /* a guard page between mappings */
    m->PagingFenceValue = ++gv.paging_next;   /* page-table writes queued */
    if (!gv.paused)
        gv.paging_fence = gv.paging_next - 1; /* still one behind: the UMD must wait on the GPU */
    return E_PENDING;
}

static HRESULT APIENTRY gv_MakeResident(HANDLE hDevice, D3DDDI_MAKERESIDENT *r)
{
    (void)hDevice;
    assert_int_equal(r->hPagingQueue, 0x6000);
    if (gv.full_while_queued && gv.nq) {
        r->NumBytesToTrim = 4096;
        return E_OUTOFMEMORY;
    }
    for (UINT i = 0; i < r->NumAllocations; i++)
        gv.resident[r->AllocationList[i]]++;
    r->PagingFenceValue = 0;
    return S_OK;
}

static HRESULT APIENTRY gv_Evict(HANDLE hDevice, D3DDDICB_EVICT *e)
{
    (void)hDevice;
    for (UINT i = 0; i < e->NumAllocations; i++) {
        assert_true(gv.resident[e->AllocationList[i]] > 0);
        if (gv.nq) { /* the kernel lets it go once the work submitted before ran */
            assert_true(gv.nleaving < 16);
            gv.leaving[gv.nleaving++] = e->AllocationList[i];
        } else {
            gv.resident[e->AllocationList[i]]--;
        }
    }
    gv.evicts++;
    return S_OK;
}

static HRESULT APIENTRY gv_Lock2(HANDLE hDevice, D3DDDICB_LOCK2 *l)
{
    (void)hDevice;
    l->pData = fake_alloc_of(gv.f, l->hAllocation)->mem;
    return S_OK;
}

static HRESULT APIENTRY gv_Unlock2(HANDLE hDevice, const D3DDDICB_UNLOCK2 *u)
{
    (void)hDevice;
    (void)fake_alloc_of(gv.f, u->hAllocation);
    return S_OK;
}

static HRESULT APIENTRY gv_Free(HANDLE hDevice, const D3DDDICB_FREEGPUVIRTUALADDRESS *fr)
{
    (void)hDevice;
    for (UINT i = 0; i < gv.maps; i++)
        if (gv.map[i].va == fr->BaseAddress && gv.map[i].size == fr->Size) {
            gv.map[i] = gv.map[--gv.maps];
            return S_OK;
        }
    fail_msg("pfnFreeGpuVirtualAddressCb of a range never mapped");
    return E_INVALIDARG;
}

static HRESULT APIENTRY gv_Submit(HANDLE hDevice, const D3DDDICB_SUBMITCOMMAND *s)
{
    (void)hDevice;
    assert_int_equal(s->BroadcastContextCount, 1);
    assert_ptr_equal(s->BroadcastContext[0], (HANDLE)(uintptr_t)0xC0);
    assert_true(s->CommandLength > 0 && s->Commands != 0);
    gv.submitted_va[gv.submits % MAX_QUEUED] = s->Commands;
    gv.submits++;
    if (gv.paused) {
        assert_true(gv.nq < MAX_QUEUED);
        gv.q[gv.nq].signal = 0;
        gv.q[gv.nq].va = s->Commands;
        gv.q[gv.nq++].len = s->CommandLength;
        /* The engine fetches the buffer when it runs it: poison nothing, but remember the bytes
         * must still be there then (a reused slot would change them). */
    } else {
        gv.paging_fence = gv.paging_next; /* the GPU wait queued before it completed */
        gv_execute(s->Commands, s->CommandLength);
    }
    return S_OK;
}

static struct fake *gv_setup(void)
{
    memset(&gv, 0, sizeof gv);
    gv.next_va = VA_BASE;
    struct fake *f = fake_new_sized(64, 1, 1);
    gv.f = f;
    f->info.wddm_version = 0x2000;
    f->info.gpummu = 1;
    f->kt.pfnRenderCb = gv_RenderCb;
    f->kt.pfnCreateContextCb = gv_CreateContextCb;
    f->kt.pfnCreateSynchronizationObject2Cb = gv_CreateSync2;
    f->kt.pfnDestroySynchronizationObjectCb = gv_DestroySync;
    f->kt.pfnSignalSynchronizationObjectFromGpuCb = gv_SignalFromGpu;
    f->kt.pfnWaitForSynchronizationObjectFromCpuCb = gv_WaitFromCpu;
    f->kt.pfnWaitForSynchronizationObjectFromGpuCb = gv_WaitFromGpu;
    f->kt.pfnCreatePagingQueueCb = gv_CreatePagingQueue;
    f->kt.pfnDestroyPagingQueueCb = gv_DestroyPagingQueue;
    f->kt.pfnMapGpuVirtualAddressCb = gv_Map;
    f->kt.pfnMakeResidentCb = gv_MakeResident;
    f->kt.pfnEvictCb = gv_Evict;
    f->kt.pfnLock2Cb = gv_Lock2;
    f->kt.pfnUnlock2Cb = gv_Unlock2;
    f->kt.pfnFreeGpuVirtualAddressCb = gv_Free;
    f->kt.pfnSubmitCommandCb = gv_Submit;
    assert_int_equal(fake_open_adapter(f), S_OK);
    assert_int_equal(fake_create_device(f), S_OK);
    return f;
}

static struct fake_res *gv_buffer(struct fake *f, UINT usage, UINT bytes, UINT cpu, const void *init)
{
    return fake_buffer(f, usage, bytes, cpu, init);
}

/* Commands carry resource VA + offset; nothing goes through pfnRenderCb or the lists. */
/* rule: umd.paging-fence-value-returned-map (gpu_waits ≥ 1, no CPU wait, the fake GPU asserts the wait ran first) */
/* rule: umd.gpummu-commands-carry-resource-va-offset */
static void test_commands_carry_vas_and_no_patch_lists(void **state)
{
    (void)state;
    struct fake *f = gv_setup();
    BYTE data[300];
    for (UINT i = 0; i < sizeof data; i++)
        data[i] = (BYTE)(i * 7 + 1);
    struct fake_res *src = gv_buffer(f, D3D10_DDI_USAGE_DEFAULT, sizeof data, 0, data);
    struct fake_res *dst = gv_buffer(f, D3D10_DDI_USAGE_STAGING, sizeof data, D3D10_DDI_CPU_ACCESS_READ, NULL);
    D3D10_DDI_BOX box = { .left = 16, .right = 216, .top = 0, .bottom = 1, .front = 0, .back = 1 };
    f->df.pfnResourceCopyRegion(f->hDevice, dst->h, 0, 40, 0, 0, src->h, 0, &box);
    /* Inspect the command just written: the COPY's fields are the two mappings' VAs + offsets. */
    struct umd_device *dev = umd_device(f->hDevice);
    assert_true(dev->gpuva);
    assert_null(dev->alloc_list);
    assert_null(dev->patch_list);
    const struct swgpu_cmd_copy *c = NULL;
    for (UINT at = 0; at < dev->cmd_used;) {
        const struct swgpu_cmd_header *h = (const void *)(dev->cmd + at);
        if (h->opcode == SWGPU_OP_COPY)
            c = (const void *)h;
        at += h->size_bytes;
    }
    assert_non_null(c);
    D3DGPU_VIRTUAL_ADDRESS src_va = 0, dst_va = 0;
    for (UINT i = 0; i < gv.maps; i++) {
        if (gv.map[i].h == fake_mem(f, src) - f->allocs + 1)
            src_va = gv.map[i].va;
        if (gv.map[i].h == fake_mem(f, dst) - f->allocs + 1)
            dst_va = gv.map[i].va;
    }
    assert_int_equal(c->src.addr, src_va + 16);
    assert_int_equal(c->dst.addr, dst_va + 40);
    fake_flush(f);
    assert_int_equal(gv.render_calls_seen, 0);
    assert_true(gv.submits >= 1);
    assert_true(gv.gpu_waits >= 1); /* the paging fence of the new mappings, waited on the GPU */
    assert_int_equal(gv.cpu_waits, 0);
    assert_memory_equal(fake_mem(f, dst)->mem + 40, data + 16, 200);
    assert_int_equal(f->n_errors, 0);
    fake_res_destroy(f, src);
    fake_res_destroy(f, dst);
    fake_teardown(f);
}

/* Every allocation is mapped over its whole size and made resident; IMMUTABLE is read-only
 * (its initial data goes through a temporary writable mapping, freed once it ran). */
/* rule: umd.gpummu-adapter-umd-gives-every */
static void test_every_allocation_mapped_resident_immutable_read_only(void **state)
{
    (void)state;
    struct fake *f = gv_setup();
    BYTE init[100];
    memset(init, 0x5A, sizeof init);
    struct fake_res *imm = gv_buffer(f, D3D10_DDI_USAGE_IMMUTABLE, sizeof init, 0, init);
    struct fake_res *dyn = gv_buffer(f, D3D10_DDI_USAGE_DYNAMIC, 64, D3D10_DDI_CPU_ACCESS_WRITE, NULL);
    D3DKMT_HANDLE himm = (D3DKMT_HANDLE)(fake_mem(f, imm) - f->allocs + 1);
    D3DKMT_HANDLE hdyn = (D3DKMT_HANDLE)(fake_mem(f, dyn) - f->allocs + 1);
    UINT ro = 0, rw = 0;
    for (UINT i = 0; i < gv.maps; i++) {
        if (gv.map[i].h == himm)
            gv.map[i].write ? rw++ : ro++;
    }
    assert_int_equal(ro, 1);
    assert_int_equal(rw, 1); /* the upload mapping, until its writes retired */
    assert_true(gv.resident[himm] >= 1 && gv.resident[hdyn] >= 1);
    fake_flush(f);                /* the upload runs; the next flush frees its mapping */
    f->df.pfnResourceCopy(f->hDevice, dyn->h, imm->h);
    fake_flush(f);
    rw = 0;
    for (UINT i = 0; i < gv.maps; i++)
        if (gv.map[i].h == himm && gv.map[i].write)
            rw++;
    assert_int_equal(rw, 0);
    assert_memory_equal(fake_mem(f, dyn)->mem, init, 64);
    assert_int_equal(f->n_errors, 0);
    fake_res_destroy(f, imm);
    fake_res_destroy(f, dyn);
    fake_teardown(f);
}

/* The command ring: slots are reused once their fence passed (a GPU that keeps up needs the
 * UMD_VA_RING_SLOTS slots only); while the GPU lags no slot it may still fetch is written again
 * (every submission a distinct, intact buffer), and the ring grows instead of blocking. */
/* rule: umd.umd-command-buffers-own-ring-cpu */
static void test_ring_slot_reused_only_after_its_fence(void **state)
{
    (void)state;
    struct fake *f = gv_setup();
    BYTE v[16];
    struct fake_res *b = gv_buffer(f, D3D10_DDI_USAGE_STAGING, sizeof v, D3D10_DDI_CPU_ACCESS_READ, NULL);
    for (UINT i = 0; i < 12; i++) {
        memset(v, (int)i, sizeof v);
        f->df.pfnResourceUpdateSubresourceUP(f->hDevice, b->h, 0, NULL, v, 0, 0);
        fake_flush(f);
    }
    UINT distinct = 0;
    for (UINT i = 0; i < gv.submits; i++) {
        int seen = 0;
        for (UINT j = 0; j < i; j++)
            seen |= gv.submitted_va[j] == gv.submitted_va[i];
        distinct += !seen;
    }
    assert_int_equal(distinct, UMD_VA_RING_SLOTS); /* reused: the GPU kept up */
    assert_int_equal(gv.cpu_waits, 0);

    /* GPU paused: 20 more submissions, none may overwrite a buffer still queued. */
    gv.paused = 1;
    UINT first = gv.submits;
    for (UINT i = 0; i < 20; i++) {
        memset(v, (int)(0x40 + i), sizeof v);
        f->df.pfnResourceUpdateSubresourceUP(f->hDevice, b->h, 0, NULL, v, 0, 0);
        fake_flush(f);
    }
    for (UINT i = first; i < gv.submits; i++)
        for (UINT j = first; j < i; j++)
            assert_true(gv.submitted_va[j] != gv.submitted_va[i]);
    assert_int_equal(gv.cpu_waits, 0); /* grew instead of blocking */
    gv_resume(); /* runs the queued buffers in order: the last WRITE wins */
    memset(v, 0x40 + 19, sizeof v);
    assert_memory_equal(fake_mem(f, b)->mem, v, sizeof v);
    assert_int_equal(f->n_errors, 0);
    fake_res_destroy(f, b);
    fake_teardown(f);
}

/* docs/semantics.md §9.2, the UMD owns residency: when MakeResident does not fit and nothing is
 * left to trim, what it trimmed may still hold its room because work submitted before the Evict
 * reads it. The UMD then waits once for everything it submitted (the device's fence) and tries
 * again, instead of failing the command that names the resource. */
/* rule: umd.when-makeresident-not-fit-nothing-left */
static void test_make_resident_waits_once_for_submitted_work_when_nothing_is_left_to_trim(void **state)
{
    (void)state;
    struct fake *f = gv_setup();
    BYTE v[64];
    memset(v, 0x5A, sizeof v);
    struct fake_res *a = gv_buffer(f, D3D10_DDI_USAGE_DEFAULT, sizeof v, 0, NULL);
    gv.paused = 1;
    f->df.pfnResourceUpdateSubresourceUP(f->hDevice, a->h, 0, NULL, v, 0, 0);
    fake_flush(f); /* queued: reads nothing, but holds the room until it ran */
    gv.full_while_queued = 1;
    struct fake_res *b = gv_buffer(f, D3D10_DDI_USAGE_DEFAULT, sizeof v, 0, NULL);
    f->df.pfnResourceUpdateSubresourceUP(f->hDevice, b->h, 0, NULL, v, 0, 0);
    assert_int_equal(f->n_errors, 0);
    assert_int_equal(gv.evicts, 1);     /* a was trimmed first */
    assert_int_equal(gv.cpu_waits, 1); /* then one wait for the submitted work */
    fake_flush(f);
    gv_resume();
    assert_memory_equal(fake_mem(f, b)->mem, v, sizeof v);
    assert_memory_equal(fake_mem(f, a)->mem, v, sizeof v);
    fake_res_destroy(f, a);
    fake_res_destroy(f, b);
    fake_teardown(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_commands_carry_vas_and_no_patch_lists),
        cmocka_unit_test(test_every_allocation_mapped_resident_immutable_read_only),
        cmocka_unit_test(test_ring_slot_reused_only_after_its_fence),
        cmocka_unit_test(test_make_resident_waits_once_for_submitted_work_when_nothing_is_left_to_trim),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
