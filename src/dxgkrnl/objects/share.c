/* Shared resources and cross-adapter resources (issue 6, seed 003, wddm-semantics §6.5).
 *
 * D3DKMTCreateAllocation with CreateShared gives the resource a global share handle
 * (D3DKMT_CREATEALLOCATION.hGlobalShare): a process-wide object that outlives its creator as
 * long as an opener holds it. A cross-adapter resource (D3DKMT_CREATEALLOCATIONFLAGS.CrossAdapter)
 * owns its system pages here, not in VidMm: the creator's allocation and every opened one (on
 * another adapter of the process) use these same pages as their backing store, so each
 * adapter places its own allocation by mapping them into its own aperture
 * (MAP_APERTURE_SEGMENT of the same MDL). The pages are freed when the creator and every
 * opener destroyed theirs (after each adapter's DxgkDdiCloseAllocation / DestroyAllocation).
 *
 * D3DKMTQueryResourceInfo and D3DKMTOpenResource work from a device of any adapter. Modelled
 * opens: a cross-adapter resource from an adapter other than the creator's (DxgkDdiOpenAllocation
 * on the opener's KMD, DXGK_OPENALLOCATIONFLAGS.Create clear, with the creator's private
 * data). FIXME(sharing): opening a shared resource on its own adapter, and any shared resource
 * that is not cross-adapter (seed 002's ShareBackingStoreWithKmd ones), stay refused.
 *
 * "Created by the kernel" (seed 003: "might be created as a standard allocation from kernel
 * mode and later opened by the UMD"): on Windows that is DxgkDdiGetStandardAllocationDriverData
 * with a D3DKMDT_GDISURFACE_TEXTURE_CROSSADAPTER GDI surface, made for the hybrid present path.
 * FIXME(standard-allocation): kernel-made standard allocations are not modelled; every
 * cross-adapter resource here is created by a UMD (or a test) through D3DKMTCreateAllocation. */
#include "dxgkrnl/dxgkrnl.h"

#include <stdlib.h>
#include <string.h>

struct dxgk_share {
    UINT refs;                        /* the creator's allocation + each opened one; shares.lock */
    D3DKMT_HANDLE handle;             /* hGlobalShare; immutable */
    bool cross_adapter;               /* immutable */
    LUID creator;                     /* the creator's adapter; immutable */
    UINT64 size;                      /* the allocation's Size; immutable */
    void *pages;                      /* cross-adapter: the shared backing store; immutable */
    size_t page_count;
    PFN_NUMBER *pfn;                  /* host addresses >> 12, as vidmm_backing_commit */
    void *alloc_priv, *res_priv, *runtime; /* the creator's data, copied; immutable */
    UINT alloc_priv_size, res_priv_size, runtime_size;
    struct dxgk_share *next;          /* shares.list; shares.lock */
};

static struct {
    pthread_mutex_t lock;
    struct dxgk_share *list;          /* published shares; lock */
    UINT next_handle;                 /* lock */
} shares = { .lock = PTHREAD_MUTEX_INITIALIZER, .next_handle = 1 };

/* Global share handles are their own namespace, marked by the top bits (never a kernel
 * object handle: D3DKMT lookups of one as an allocation or a resource fail). */
#define SHARE_HANDLE_TAG 0xC0000000u

static void *dup_data(const void *p, UINT size)
{
    if (!p || !size)
        return NULL;
    void *q = malloc(size);
    if (q)
        memcpy(q, p, size);
    return q;
}

static void share_free(struct dxgk_share *s)
{
    dxgk_page_free(s->pages, s->page_count * DXGK_PAGE_SIZE);
    free(s->pfn);
    free(s->alloc_priv);
    free(s->res_priv);
    free(s->runtime);
    free(s);
}

void dxgk_share_put(struct dxgk_share *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&shares.lock);
    bool last = --s->refs == 0;
    if (last) {
        struct dxgk_share **pp = &shares.list;
        while (*pp && *pp != s)
            pp = &(*pp)->next;
        if (*pp)
            *pp = s->next;
    }
    pthread_mutex_unlock(&shares.lock);
    if (last)
        share_free(s);
}

static struct dxgk_share *share_get(D3DKMT_HANDLE h)
{
    pthread_mutex_lock(&shares.lock);
    struct dxgk_share *s = shares.list;
    while (s && s->handle != h)
        s = s->next;
    if (s)
        s->refs++;
    pthread_mutex_unlock(&shares.lock);
    return s;
}

/* The instance's backing store becomes the share's pages (never freed by VidMm: the
 * allocation is kmd_backing-like, objects/allocation.c sets them aside at destruction). */
void dxgk_share_attach(struct dxgk_share *s, struct vidmm_instance *in)
{
    in->backing = s->pages;
    in->mdl = (MDL){ .StartVa = s->pages, .ByteOffset = 0, .ByteCount = (ULONG)s->size,
                     .PageCount = s->page_count, .PfnArray = s->pfn };
}

void dxgk_share_detach(struct vidmm_instance *in)
{
    in->backing = NULL;
    memset(&in->mdl, 0, sizeof in->mdl);
}

bool dxgk_share_is_cross_adapter(const struct dxgk_share *s)
{
    return s && s->cross_adapter;
}

/* A new share for a resource D3DKMTCreateAllocation is making (one reference: the creator's
 * allocation). Not visible to D3DKMTOpenResource until dxgk_share_publish. */
NTSTATUS dxgk_share_create(struct dxgk_adapter *a, const D3DKMT_CREATEALLOCATION *args, const DXGK_ALLOCATIONINFO *info,
                           bool cross_adapter, struct dxgk_share **out)
{
    struct dxgk_share *s = calloc(1, sizeof *s);
    if (!s)
        return STATUS_NO_MEMORY;
    s->refs = 1;
    s->cross_adapter = cross_adapter;
    s->creator = a->luid;
    s->size = info->Size;
    s->alloc_priv_size = info->pPrivateDriverData ? info->PrivateDriverDataSize : 0;
    s->res_priv_size = args->pPrivateDriverData ? args->PrivateDriverDataSize : 0;
    s->runtime_size = args->pPrivateRuntimeData ? args->PrivateRuntimeDataSize : 0;
    s->alloc_priv = dup_data(info->pPrivateDriverData, s->alloc_priv_size);
    s->res_priv = dup_data(args->pPrivateDriverData, s->res_priv_size);
    s->runtime = dup_data(args->pPrivateRuntimeData, s->runtime_size);
    bool ok = (!s->alloc_priv_size || s->alloc_priv) && (!s->res_priv_size || s->res_priv) &&
              (!s->runtime_size || s->runtime);
    if (ok && cross_adapter) {
        /* Page-aligned, zeroed system pages (seed 003: the start is page aligned). */
        s->page_count = (size_t)((info->Size + DXGK_PAGE_SIZE - 1) / DXGK_PAGE_SIZE);
        s->pages = dxgk_page_alloc(s->page_count * DXGK_PAGE_SIZE);
        s->pfn = calloc(s->page_count, sizeof *s->pfn);
        ok = s->pages && s->pfn;
        for (size_t p = 0; ok && p < s->page_count; p++)
            s->pfn[p] = ((uintptr_t)s->pages >> 12) + p;
    }
    if (!ok) {
        dxgk_refuse("D3DKMTCreateAllocation: no memory for the shared resource's pages or data");
        share_free(s);
        return STATUS_NO_MEMORY;
    }
    *out = s;
    return STATUS_SUCCESS;
}

D3DKMT_HANDLE dxgk_share_publish(struct dxgk_share *s)
{
    pthread_mutex_lock(&shares.lock);
    s->handle = SHARE_HANDLE_TAG | (shares.next_handle++ & ~SHARE_HANDLE_TAG);
    s->next = shares.list;
    shares.list = s;
    pthread_mutex_unlock(&shares.lock);
    return s->handle;
}

/* Looks the share up for a device of any adapter; refuses what is not openable there. */
static NTSTATUS open_checks(const char *who, struct dxgk_device *d, D3DKMT_HANDLE hGlobalShare, struct dxgk_share **out)
{
    struct dxgk_share *s = share_get(hGlobalShare);
    if (!s) {
        dxgk_refuse("%s: 0x%08x is not a global share handle", who, hGlobalShare);
        return STATUS_INVALID_PARAMETER;
    }
    if (!s->cross_adapter) {
        /* FIXME(sharing): other shared resources are not opened (see the top of this file). */
        dxgk_refuse("%s: resource 0x%08x is shared but not cross-adapter: only cross-adapter resources are opened",
                    who, hGlobalShare);
        dxgk_share_put(s);
        return STATUS_NOT_SUPPORTED;
    }
    const struct dxgk_adapter *a = d->adapter;
    if (a->luid.LowPart == s->creator.LowPart && a->luid.HighPart == s->creator.HighPart) {
        /* FIXME(sharing): a same-adapter open of a shared resource is not modelled. */
        dxgk_refuse("%s: cross-adapter resource 0x%08x opened on the adapter that created it: only opens from "
                    "another adapter are modelled", who, hGlobalShare);
        dxgk_share_put(s);
        return STATUS_NOT_SUPPORTED;
    }
    if (!a->caps.MemoryManagementCaps.CrossAdapterResource) {
        dxgk_refuse("%s: adapter %08x does not declare DXGK_VIDMMCAPS.CrossAdapterResource: it cannot open a "
                    "cross-adapter resource (seed 003)", who, (unsigned)a->luid.LowPart);
        dxgk_share_put(s);
        return STATUS_NOT_SUPPORTED;
    }
    *out = s;
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY D3DKMTQueryResourceInfo(D3DKMT_QUERYRESOURCEINFO *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTQueryResourceInfo: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_device *d = dxgk_device_get(args->hDevice);
    if (!d) {
        dxgk_refuse("D3DKMTQueryResourceInfo: invalid device handle 0x%08x", args->hDevice);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_share *s = NULL;
    NTSTATUS st = open_checks("D3DKMTQueryResourceInfo", d, args->hGlobalShare, &s);
    if (NT_SUCCESS(st)) {
        if (args->pPrivateRuntimeData && args->PrivateRuntimeDataSize >= s->runtime_size && s->runtime_size)
            memcpy(args->pPrivateRuntimeData, s->runtime, s->runtime_size);
        args->PrivateRuntimeDataSize = s->runtime_size;
        args->TotalPrivateDriverDataSize = s->alloc_priv_size;
        args->ResourcePrivateDriverDataSize = s->res_priv_size;
        args->NumAllocations = 1; /* seed 003: one allocation per cross-adapter resource */
        dxgk_share_put(s);
    }
    dxgk_device_put(d);
    return st;
}

static UINT aperture_set(const struct dxgk_adapter *a, UINT *first)
{
    UINT set = 0;
    *first = 0;
    for (UINT i = 0; i < a->segment_count; i++) {
        if (a->seg[i].aperture) {
            set |= 1u << i;
            if (!*first)
                *first = i + 1;
        }
    }
    return set;
}

static void object_release(struct dxgk_object *obj)
{
    free(obj);
}

NTSTATUS APIENTRY D3DKMTOpenResource(D3DKMT_OPENRESOURCE *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTOpenResource: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_device *d = dxgk_device_get(args->hDevice);
    if (!d) {
        dxgk_refuse("D3DKMTOpenResource: invalid device handle 0x%08x", args->hDevice);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_adapter *a = d->adapter;
    struct dxgk_share *s = NULL;
    struct dxgk_allocation *x = NULL;
    struct dxgk_resource *res = NULL;
    bool charged = false, kmd_opened = false;
    NTSTATUS st;
    if (__atomic_load_n(&d->error, __ATOMIC_RELAXED) == STATUS_DEVICE_REMOVED) {
        dxgk_refuse("D3DKMTOpenResource: device 0x%08x is lost", args->hDevice);
        st = STATUS_DEVICE_REMOVED;
        goto out;
    }
    st = open_checks("D3DKMTOpenResource", d, args->hGlobalShare, &s);
    if (!NT_SUCCESS(st))
        goto out;
    st = STATUS_INVALID_PARAMETER;
    if (args->NumAllocations != 1 || !args->pOpenAllocationInfo) {
        dxgk_refuse("D3DKMTOpenResource: NumAllocations %u (the resource has 1) or pOpenAllocationInfo NULL",
                    args->NumAllocations);
        goto out;
    }
    if (s->alloc_priv_size && (!args->pTotalPrivateDriverDataBuffer ||
                               args->TotalPrivateDriverDataBufferSize < s->alloc_priv_size)) {
        dxgk_refuse("D3DKMTOpenResource: pTotalPrivateDriverDataBuffer of %u bytes, %u needed",
                    args->pTotalPrivateDriverDataBuffer ? args->TotalPrivateDriverDataBufferSize : 0,
                    s->alloc_priv_size);
        goto out;
    }
    if ((s->runtime_size && args->pPrivateRuntimeData && args->PrivateRuntimeDataSize < s->runtime_size) ||
        (s->res_priv_size && args->pResourcePrivateDriverData && args->ResourcePrivateDriverDataSize < s->res_priv_size)) {
        dxgk_refuse("D3DKMTOpenResource: runtime or resource private data buffer too small (%u and %u needed)",
                    s->runtime_size, s->res_priv_size);
        goto out;
    }
    UINT first_ap;
    UINT ap = aperture_set(a, &first_ap);
    if (!ap) {
        dxgk_refuse("D3DKMTOpenResource: adapter %08x has no aperture segment to map a cross-adapter resource into",
                    (unsigned)a->luid.LowPart);
        st = STATUS_NOT_SUPPORTED;
        goto out;
    }
    if (!vidmm_commit_charge(s->size)) {
        dxgk_refuse("D3DKMTOpenResource: %llu bytes exceed the system-memory budget", (unsigned long long)s->size);
        st = STATUS_NO_MEMORY;
        goto out;
    }
    charged = true;
    x = calloc(1, sizeof *x);
    res = calloc(1, sizeof *res);
    if (!x || !res) {
        free(x);
        free(res);
        x = NULL;
        res = NULL;
        st = STATUS_NO_MEMORY;
        goto out;
    }
    dxgk_object_init(&res->obj, DXGK_TYPE_RESOURCE, object_release);
    res->device = d;
    dxgk_object_init(&x->obj, DXGK_TYPE_ALLOCATION, dxgk_allocation_release);
    x->device = d;
    x->resource = res;
    /* This adapter's VidMm description follows seed 003 whatever the KMD: its aperture only,
     * CPU-visible, write-combined (not Cached), page aligned, never renamed. */
    x->info.Size = (SIZE_T)s->size;
    x->info.Alignment = DXGK_PAGE_SIZE;
    x->info.Flags.CpuVisible = 1;
    x->info.SupportedReadSegmentSet = x->info.SupportedWriteSegmentSet = ap;
    x->info.PreferredSegment.SegmentId0 = first_ap;
    x->info.AllocationPriority = D3DDDI_ALLOCATIONPRIORITY_NORMAL;
    x->priority = x->info.AllocationPriority;
    x->first.alloc = x;
    x->instances = x->instances_tail = x->current = &x->first;
    x->instance_count = 1;
    x->kmd_backing = true; /* a fixed backing store: never renamed, set aside at destruction */
    x->opened = true;
    x->share = s;          /* the lookup's reference */
    dxgk_share_attach(s, &x->first);
    {
        struct dxgk_object *objs[2] = { &x->obj, &res->obj };
        D3DKMT_HANDLE hs[2];
        if (!dxgk_handle_insert_n(objs, 2, hs)) {
            st = STATUS_NO_MEMORY;
            goto out;
        }
        x->handle = hs[0];
        res->handle = hs[1];
    }
    /* The opener's KMD makes its object from the creator's private data (Create clear). */
    DXGK_OPENALLOCATIONINFO oi = { .hAllocation = x->handle, .pPrivateDriverData = s->alloc_priv,
                                   .PrivateDriverDataSize = s->alloc_priv_size };
    DXGKARG_OPENALLOCATION oa = { .NumAllocations = 1, .pOpenAllocation = &oi,
                                  .pPrivateDriverData = s->res_priv, .PrivateDriverDataSize = s->res_priv_size };
    st = a->driver.ddi.DxgkDdiOpenAllocation(d->kmd, &oa);
    if (!NT_SUCCESS(st) || !oi.hDeviceSpecificAllocation) {
        dxgk_refuse("D3DKMTOpenResource: DxgkDdiOpenAllocation failed 0x%08x", (unsigned)st);
        st = NT_SUCCESS(st) ? STATUS_UNSUCCESSFUL : st;
        goto out;
    }
    kmd_opened = true;
    x->kmd_device_specific = oi.hDeviceSpecificAllocation;
    /* No DxgkDdiCreateAllocation ran on this adapter: its paging operations name the opened
     * object (DxgkDdiCloseAllocation, not DestroyAllocation, releases it). */
    x->info.hAllocation = oi.hDeviceSpecificAllocation;
    /* The outputs before the allocation is linked: from then on a device destruction may
     * free it and its share reference. */
    if (s->alloc_priv_size)
        memcpy(args->pTotalPrivateDriverDataBuffer, s->alloc_priv, s->alloc_priv_size);
    if (s->runtime_size && args->pPrivateRuntimeData)
        memcpy(args->pPrivateRuntimeData, s->runtime, s->runtime_size);
    if (s->res_priv_size && args->pResourcePrivateDriverData)
        memcpy(args->pResourcePrivateDriverData, s->res_priv, s->res_priv_size);
    D3DKMT_HANDLE h_alloc = x->handle, h_res = res->handle;
    args->pOpenAllocationInfo[0] = (D3DDDI_OPENALLOCATIONINFO){
        .hAllocation = h_alloc, .pPrivateDriverData = s->alloc_priv_size ? args->pTotalPrivateDriverDataBuffer : NULL,
        .PrivateDriverDataSize = s->alloc_priv_size };
    args->hResource = h_res;
    pthread_mutex_lock(&a->lock);
    if (d->dead) {
        pthread_mutex_unlock(&a->lock);
        dxgk_refuse("D3DKMTOpenResource: device is being destroyed");
        st = STATUS_INVALID_PARAMETER;
        goto out;
    }
    x->dev_next = d->allocations;
    d->allocations = x;
    res->allocations = x;
    pthread_mutex_unlock(&a->lock);
    dxgk_handle_publish(h_alloc);
    dxgk_handle_publish(h_res);
    DXGK_COUNT(a, allocations_created, 1);
    dxgk_device_put(d);
    return STATUS_SUCCESS;

out:
    if (kmd_opened) {
        DXGKARG_CLOSEALLOCATION cl = { .NumAllocations = 1, .pOpenHandleList = &x->kmd_device_specific };
        a->driver.ddi.DxgkDdiCloseAllocation(d->kmd, &cl);
    }
    if (x) {
        dxgk_share_detach(&x->first);
        x->share = NULL;
        dxgk_object_put(x->handle ? dxgk_handle_remove(x->handle, DXGK_TYPE_ALLOCATION) : &x->obj);
        dxgk_object_put(res->handle ? dxgk_handle_remove(res->handle, DXGK_TYPE_RESOURCE) : &res->obj);
    }
    if (charged)
        vidmm_commit_uncharge(s->size);
    dxgk_share_put(s);
    dxgk_device_put(d);
    return st;
}
