/* Shared resources and cross-adapter resources (issue 6, seed 003, docs/semantics.md §6.5).
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
 * D3DKMTQueryResourceInfo and D3DKMTOpenResource work from a device of any adapter
 * (DxgkDdiOpenAllocation on the opener's KMD, DXGK_OPENALLOCATIONFLAGS.Create clear, with the
 * creator's private data):
 * - on the creator's adapter (any shared resource, issue 6): the opener's allocation handle
 *   names the creator's allocation (dxgk_allocation.alias): the same instances, placement and
 *   locks, so a write through one handle is read through the other. Its memory lives until
 *   the last of the creator's handle and the opens goes (dxgk_allocation.orphan);
 * - on another adapter: only a cross-adapter resource (seed 003), as its own allocation over
 *   the share's pages; any other shared resource is refused there with a line.
 * FIXME(sharing): a shared resource of several allocations is created but not opened.
 *
 * NT-handle sharing (CreateShared + NtSecuritySharing): the share gets no global handle
 * (hGlobalShare 0, Wine d3dkmt tests) and is reached only through an NT object
 * (objects/nt_handle.c), which holds the share and, by dxgk_share_nt_hold, its creator's memory:
 * the creator's allocation then outlives its handle like one that same-adapter opens name
 * (orphan), so the resource still opens from the NT handle once every D3DKMT handle on it is
 * gone (Windows' answer in the same tests).
 *
 * "Created by the kernel" (seed 003: "might be created as a standard allocation from kernel
 * mode and later opened by the UMD"): objects/standard_allocation.c makes one
 * (DxgkDdiGetStandardAllocationDriverData, D3DKMDT_GDISURFACE_TEXTURE_CROSSADAPTER) through
 * D3DKMTCreateAllocation; it is shared here like a UMD-made one. */
#include "dxgkrnl/objects/objects.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>

struct dxgk_share {
    UINT refs;                        /* the creator's allocation + each opened one; shares.lock */
    UINT page_holds;                  /* cross-adapter: adapters whose UNMAP of the pages has not
                                         run yet (vidmm/placement.c); the pages (and this struct)
                                         outlive them, the global handle does not; shares.lock */
    D3DKMT_HANDLE handle;             /* hGlobalShare; immutable */
    bool cross_adapter;               /* immutable */
    bool nt;                          /* NtSecuritySharing: never published (no global handle),
                                         reached through NT objects only; immutable */
    struct dxgk_adapter *creator_adapter; /* no reference (an NT hold takes one); immutable */
    LUID creator;                     /* the creator's adapter; immutable */
    UINT64 size;                      /* the allocation's Size; immutable */
    UINT alloc_count;                 /* the resource's allocations; immutable */
    struct dxgk_allocation *owner;    /* the creator's allocation while its memory lives (same-
                                         adapter opens name it), no reference; shares.lock */
    void *pages;                      /* cross-adapter: the shared backing store; immutable */
    size_t page_count;
    PFN_NUMBER *pfn;                  /* the pages' PFNs (vidmm_mdl_of) */
    MDL mdl;                          /* describes pages: every attached instance's MDL; immutable */
    void *alloc_priv, *res_priv, *runtime; /* the creator's data, copied; immutable */
    UINT alloc_priv_size, res_priv_size, runtime_size;
    struct dxgk_share *next;          /* shares.list; shares.lock */
};

static struct {
    pthread_mutex_t lock;
    struct dxgk_share *list;          /* published shares; lock */
} shares = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void *dup_data(const void *p, UINT size)
{
    if (!p || !size)
        return NULL;
    void *q = wddm_malloc(size);
    if (q)
        memcpy(q, p, size);
    return q;
}

static void share_free(struct dxgk_share *s)
{
    dxgk_page_free(NULL, s->pages, s->page_count * DXGK_PAGE_SIZE); /* unmapped by each user */
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
    bool gone = last && !s->page_holds;
    pthread_mutex_unlock(&shares.lock);
    if (gone)
        share_free(s);
}

void dxgk_share_pages_hold(struct dxgk_share *s)
{
    pthread_mutex_lock(&shares.lock);
    s->page_holds++;
    pthread_mutex_unlock(&shares.lock);
}

void dxgk_share_pages_release(struct dxgk_share *s)
{
    pthread_mutex_lock(&shares.lock);
    bool gone = --s->page_holds == 0 && !s->refs;
    pthread_mutex_unlock(&shares.lock);
    if (gone)
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
bool dxgk_share_attach(struct dxgk_share *s, struct dxgk_adapter *a, struct vidmm_instance *in)
{
    if (!dxgk_iommu_kernel_map(a, s->pages, s->page_count * DXGK_PAGE_SIZE, true))
        return false; /* not attached: in->backing stays NULL */
    in->backing = s->pages;
    in->mdl = s->mdl;
    return true;
}

void dxgk_share_unmap(struct dxgk_share *s, struct dxgk_adapter *a)
{
    dxgk_iommu_kernel_map(a, s->pages, s->page_count * DXGK_PAGE_SIZE, false);
}

void dxgk_share_attach_undo(struct dxgk_share *s, struct dxgk_adapter *a, struct vidmm_instance *in)
{
    if (!in->backing)
        return; /* not attached */
    dxgk_share_detach(in);
    dxgk_share_unmap(s, a); /* never used by the GPU */
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
    struct dxgk_share *s = wddm_calloc(1, sizeof *s);
    if (!s)
        return STATUS_NO_MEMORY;
    s->refs = 1;
    s->cross_adapter = cross_adapter;
    s->nt = args->Flags.NtSecuritySharing;
    s->creator_adapter = a;
    s->creator = a->luid;
    s->size = info->Size;
    s->alloc_count = args->NumAllocations;
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
        s->pages = dxgk_page_alloc(NULL, s->page_count * DXGK_PAGE_SIZE); /* mapped per user (attach) */
        s->pfn = wddm_calloc(s->page_count, sizeof *s->pfn);
        ok = s->pages && s->pfn;
        if (ok)
            s->mdl = vidmm_mdl_of(s->pages, info->Size, s->pfn);
    }
    if (!ok) {
        dxgk_refuse("D3DKMTCreateAllocation: no memory for the shared resource's pages or data");
        share_free(s);
        return STATUS_NO_MEMORY;
    }
    *out = s;
    return STATUS_SUCCESS;
}

void dxgk_share_set_owner(struct dxgk_share *s, struct dxgk_allocation *owner)
{
    pthread_mutex_lock(&shares.lock);
    s->owner = owner;
    pthread_mutex_unlock(&shares.lock);
}

void dxgk_share_clear_owner(struct dxgk_share *s, const struct dxgk_allocation *owner)
{
    pthread_mutex_lock(&shares.lock);
    if (s->owner == owner)
        s->owner = NULL;
    pthread_mutex_unlock(&shares.lock);
}

/* The creator's allocation with a reference, for a same-adapter open; NULL once its memory went. */
static struct dxgk_allocation *share_owner_get(struct dxgk_share *s)
{
    pthread_mutex_lock(&shares.lock);
    struct dxgk_allocation *x = s->owner;
    if (x)
        dxgk_object_get(&x->obj);
    pthread_mutex_unlock(&shares.lock);
    return x;
}

D3DKMT_HANDLE dxgk_share_publish(struct dxgk_share *s)
{
    if (s->nt)
        return 0; /* no global handle: D3DKMTShareObjects makes an NT handle for it */
    D3DKMT_HANDLE h = dxgk_global_handle_new(); /* the namespace of every shared object */
    pthread_mutex_lock(&shares.lock);
    s->handle = h;
    s->next = shares.list;
    shares.list = s;
    pthread_mutex_unlock(&shares.lock);
    return s->handle;
}

static bool same_adapter(const struct dxgk_adapter *a, const struct dxgk_share *s)
{
    return a->luid.LowPart == s->creator.LowPart && a->luid.HighPart == s->creator.HighPart;
}

/* Refuses a share that does not open for a device of d's adapter (the caller keeps its
 * reference either way). `id` names the share in the line (its global handle, 0 for an NT one). */
static NTSTATUS openable_checks(const char *who, const struct dxgk_device *d, const struct dxgk_share *s,
                                D3DKMT_HANDLE id)
{
    if (s->alloc_count != 1) {
        /* FIXME(sharing): see the top of this file. */
        dxgk_refuse("%s: shared resource 0x%08x has %u allocations: only a resource of one allocation is opened",
                    who, id, s->alloc_count);
        return STATUS_NOT_SUPPORTED;
    }
    const struct dxgk_adapter *a = d->adapter;
    if (same_adapter(a, s))
        return STATUS_SUCCESS;
    if (!s->cross_adapter) {
        /* Issue 6 / seed 003: only a cross-adapter resource is reachable from another GPU. */
        dxgk_refuse("%s: resource 0x%08x is shared but not cross-adapter: it opens only on the adapter that "
                    "created it (%08x), not on %08x", who, id, (unsigned)s->creator.LowPart,
                    (unsigned)a->luid.LowPart);
        return STATUS_NOT_SUPPORTED;
    }
    if (!a->caps.MemoryManagementCaps.CrossAdapterResource) {
        dxgk_refuse("%s: adapter %08x does not declare DXGK_VIDMMCAPS.CrossAdapterResource: it cannot open a "
                    "cross-adapter resource", who, (unsigned)a->luid.LowPart);
        return STATUS_NOT_SUPPORTED;
    }
    return STATUS_SUCCESS;
}

/* Looks the share up for a device of any adapter; refuses what is not openable there. */
static NTSTATUS open_checks(const char *who, struct dxgk_device *d, D3DKMT_HANDLE hGlobalShare, struct dxgk_share **out)
{
    struct dxgk_share *s = hGlobalShare ? share_get(hGlobalShare) : NULL;
    if (!s) {
        dxgk_refuse("%s: 0x%08x is not a global share handle", who, hGlobalShare);
        return STATUS_INVALID_PARAMETER;
    }
    NTSTATUS st = openable_checks(who, d, s, hGlobalShare);
    if (!NT_SUCCESS(st)) {
        dxgk_share_put(s);
        return st;
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
        /* Sizes only: pPrivateRuntimeData is never written (Windows leaves it as it was: Wine
         * win32u d3dkmt tests, run on Windows); D3DKMTOpenResource copies the data. */
        args->PrivateRuntimeDataSize = s->runtime_size;
        args->TotalPrivateDriverDataSize = s->alloc_priv_size;
        args->ResourcePrivateDriverDataSize = s->res_priv_size;
        args->NumAllocations = 1; /* seed 003: one allocation per cross-adapter resource */
        dxgk_share_put(s);
    }
    dxgk_device_put(d);
    return st;
}

LUID dxgk_share_creator(const struct dxgk_share *s)
{
    return s->creator; /* immutable */
}

/* Which adapter a shared resource lives on, so that an application opens it there: Windows shares
 * a resource only on the adapter that created it (a cross-adapter resource aside), and DXGI asks
 * this before an open (IDXGIFactory2::GetSharedResourceAdapterLuid). */
NTSTATUS APIENTRY D3DKMTGetSharedResourceAdapterLuid(D3DKMT_GETSHAREDRESOURCEADAPTERLUID *args)
{
    static const char fn[] = "D3DKMTGetSharedResourceAdapterLuid";
    if (!args) {
        dxgk_refuse("%s: NULL arguments", fn);
        return STATUS_INVALID_PARAMETER;
    }
    if (!args->hGlobalShare == !args->hNtHandle) {
        dxgk_refuse("%s: exactly one of hGlobalShare (0x%08x) and hNtHandle (%p) names the resource", fn,
                    args->hGlobalShare, args->hNtHandle);
        return STATUS_INVALID_PARAMETER;
    }
    if (args->hNtHandle)
        return dxgk_nt_resource_creator(fn, args->hNtHandle, &args->AdapterLuid);
    struct dxgk_share *s = share_get(args->hGlobalShare);
    if (!s) {
        dxgk_refuse("%s: 0x%08x is not a global share handle", fn, args->hGlobalShare);
        return STATUS_INVALID_PARAMETER;
    }
    args->AdapterLuid = s->creator;
    dxgk_share_put(s);
    return STATUS_SUCCESS;
}

static void object_release(struct dxgk_object *obj)
{
    free(obj);
}

/* The opener's allocation and resource objects, of device d, the allocation in the resource;
 * FALSE (both NULL) without memory. */
static bool new_opened_objects(struct dxgk_device *d, struct dxgk_allocation **al, struct dxgk_resource **res)
{
    *al = wddm_calloc(1, sizeof **al);
    *res = wddm_calloc(1, sizeof **res);
    if (!*al || !*res) {
        free(*al);
        free(*res);
        *al = NULL;
        *res = NULL;
        return false;
    }
    dxgk_object_init(&(*res)->obj, DXGK_TYPE_RESOURCE, object_release);
    (*res)->device = d;
    dxgk_object_init(&(*al)->obj, DXGK_TYPE_ALLOCATION, dxgk_allocation_release);
    (*al)->device = d;
    (*al)->resource = *res;
    return true;
}

/* The last step of an open: the allocation joins its device (unless the device is being
 * destroyed) and both handles are published. */
static NTSTATUS link_opened(struct dxgk_adapter *a, struct dxgk_device *d, struct dxgk_allocation *al,
                                       struct dxgk_resource *res)
{
    /* Read before linking: once linked, a device destruction may free them. */
    D3DKMT_HANDLE h_alloc = al->handle, h_res = res->handle;
    pthread_mutex_lock(&a->lock);
    if (d->dead) {
        pthread_mutex_unlock(&a->lock);
        dxgk_refuse("D3DKMTOpenResource: device is being destroyed");
        return STATUS_INVALID_PARAMETER;
    }
    dxgk_device_link_allocation_locked(d, al);
    res->allocations = al;
    pthread_mutex_unlock(&a->lock);
    dxgk_handle_publish(h_alloc);
    dxgk_handle_publish(h_res);
    DXGK_COUNT(a, allocations_created, 1);
    return STATUS_SUCCESS;
}

/* The outputs of D3DKMTOpenResource / D3DKMTOpenResource2 (info2: pOpenAllocationInfo2; the
 * buffers were checked by open_buffer_checks). */
static void open_outputs(const struct dxgk_share *s, D3DKMT_OPENRESOURCE *args, bool info2, D3DKMT_HANDLE h_alloc,
                         D3DKMT_HANDLE h_res, D3DGPU_VIRTUAL_ADDRESS va)
{
    if (s->alloc_priv_size)
        memcpy(args->pTotalPrivateDriverDataBuffer, s->alloc_priv, s->alloc_priv_size);
    if (s->runtime_size)
        memcpy(args->pPrivateRuntimeData, s->runtime, s->runtime_size);
    if (s->res_priv_size)
        memcpy(args->pResourcePrivateDriverData, s->res_priv, s->res_priv_size);
    const VOID *priv = s->alloc_priv_size ? args->pTotalPrivateDriverDataBuffer : NULL;
    if (info2)
        args->pOpenAllocationInfo2[0] = (D3DDDI_OPENALLOCATIONINFO2){
            .hAllocation = h_alloc, .pPrivateDriverData = priv, .PrivateDriverDataSize = s->alloc_priv_size,
            /* GpuMmu: 0, an open maps nothing (D3DKMTMapGpuVirtualAddress does); IoMmu: the
             * address the process's CPU and GPU share (docs/semantics.md §9.6). */
            .GpuVirtualAddress = va };
    else
        args->pOpenAllocationInfo[0] = (D3DDDI_OPENALLOCATIONINFO){
            .hAllocation = h_alloc, .pPrivateDriverData = priv, .PrivateDriverDataSize = s->alloc_priv_size };
    args->TotalPrivateDriverDataBufferSize = s->alloc_priv_size; /* WDK: out, the bytes written */
    args->hResource = h_res;
}

/* The caller's buffers against what D3DKMTQueryResourceInfo answered (Wine win32u d3dkmt tests,
 * run on Windows): NumAllocations, PrivateRuntimeDataSize and ResourcePrivateDriverDataSize are
 * exactly those sizes, a buffer of a non-zero size is not NULL, and the total driver-data buffer
 * is not NULL and holds at least TotalPrivateDriverDataSize (else STATUS_NO_MEMORY, as Windows
 * answers a buffer one byte short). */
static NTSTATUS open_buffer_checks(const struct dxgk_share *s, const D3DKMT_OPENRESOURCE *args)
{
    if (args->NumAllocations != s->alloc_count || !args->pOpenAllocationInfo) {
        dxgk_refuse("D3DKMTOpenResource: NumAllocations %u (the resource has %u) or pOpenAllocationInfo NULL",
                    args->NumAllocations, s->alloc_count);
        return STATUS_INVALID_PARAMETER;
    }
    if (args->PrivateRuntimeDataSize != s->runtime_size || (s->runtime_size && !args->pPrivateRuntimeData)) {
        dxgk_refuse("D3DKMTOpenResource: PrivateRuntimeDataSize %u (buffer %s): exactly %u bytes are needed",
                    args->PrivateRuntimeDataSize, args->pPrivateRuntimeData ? "given" : "NULL", s->runtime_size);
        return STATUS_INVALID_PARAMETER;
    }
    if (args->ResourcePrivateDriverDataSize != s->res_priv_size || (s->res_priv_size && !args->pResourcePrivateDriverData)) {
        dxgk_refuse("D3DKMTOpenResource: ResourcePrivateDriverDataSize %u (buffer %s): exactly %u bytes are needed",
                    args->ResourcePrivateDriverDataSize, args->pResourcePrivateDriverData ? "given" : "NULL",
                    s->res_priv_size);
        return STATUS_INVALID_PARAMETER;
    }
    if (!args->pTotalPrivateDriverDataBuffer) {
        dxgk_refuse("D3DKMTOpenResource: pTotalPrivateDriverDataBuffer is NULL");
        return STATUS_INVALID_PARAMETER;
    }
    if (args->TotalPrivateDriverDataBufferSize < s->alloc_priv_size) {
        dxgk_refuse("D3DKMTOpenResource: pTotalPrivateDriverDataBuffer of %u bytes, %u needed",
                    args->TotalPrivateDriverDataBufferSize, s->alloc_priv_size);
        return STATUS_NO_MEMORY;
    }
    return STATUS_SUCCESS;
}

/* Issue 6: an open on the creator's adapter. The new allocation handle names the creator's
 * allocation (its instances: one memory); the opener's KMD gets DxgkDdiOpenAllocation for it
 * like for its own allocations (DxgkCbGetHandleData gives the creator's KMD allocation). Takes
 * over the caller's share reference. */
static NTSTATUS open_same_adapter(struct dxgk_device *d, struct dxgk_share *s, D3DKMT_OPENRESOURCE *args,
                                  bool info2)
{
    struct dxgk_adapter *a = d->adapter;
    struct dxgk_allocation *x = share_owner_get(s), *y = NULL;
    struct dxgk_resource *res = NULL;
    bool kmd_opened = false, linked = false;
    NTSTATUS st = STATUS_INVALID_PARAMETER;
    if (!x) {
        dxgk_refuse("D3DKMTOpenResource: shared resource 0x%08x: its memory is gone (every handle was destroyed)",
                    args->hGlobalShare);
        goto out;
    }
    if (!new_opened_objects(d, &y, &res)) {
        st = STATUS_NO_MEMORY;
        goto out;
    }
    y->info = x->info;  /* info.hAllocation: the KMD's allocation (DxgkCbGetHandleData) */
    y->priority = x->priority;
    y->opened = true;   /* no DxgkDdiDestroyAllocation for the handle: the creator's memory's */
    y->alias = x;       /* share_owner_get's reference (dxgk_allocation_release puts it) */
    x = NULL;
    y->share = s;       /* keeps the global share alive while the handle lives */
    s = NULL;
    {
        struct dxgk_object *objs[2] = { &y->obj, &res->obj };
        D3DKMT_HANDLE hs[2];
        if (!dxgk_handle_insert_n(objs, 2, hs)) {
            st = STATUS_NO_MEMORY;
            goto out;
        }
        y->handle = hs[0];
        res->handle = hs[1];
    }
    /* Named by the creator's allocation before the KMD sees it: from now on a destruction of
     * the creator's keeps its memory and its KMD object (orphan) for this open; a creator
     * already destroyed (dead) is not opened. */
    pthread_mutex_lock(&a->lock);
    if (y->alias->dead) {
        pthread_mutex_unlock(&a->lock);
        dxgk_refuse("D3DKMTOpenResource: shared resource 0x%08x is being destroyed", args->hGlobalShare);
        st = STATUS_INVALID_PARAMETER;
        goto out;
    }
    y->alias_next = y->alias->aliases;
    y->alias->aliases = y;
    linked = true;
    pthread_mutex_unlock(&a->lock);
    DXGK_OPENALLOCATIONINFO oi = { .hAllocation = y->handle, .pPrivateDriverData = y->share->alloc_priv,
                                   .PrivateDriverDataSize = y->share->alloc_priv_size };
    DXGKARG_OPENALLOCATION oa = { .NumAllocations = 1, .pOpenAllocation = &oi,
                                  .pPrivateDriverData = y->share->res_priv,
                                  .PrivateDriverDataSize = y->share->res_priv_size };
    st = a->driver.ddi.DxgkDdiOpenAllocation(d->kmd, &oa);
    if (!NT_SUCCESS(st) || !oi.hDeviceSpecificAllocation) {
        dxgk_refuse("D3DKMTOpenResource: DxgkDdiOpenAllocation failed 0x%08x", (unsigned)st);
        st = NT_SUCCESS(st) ? STATUS_UNSUCCESSFUL : st;
        goto out;
    }
    kmd_opened = true;
    y->kmd_device_specific = oi.hDeviceSpecificAllocation;
    open_outputs(y->share, args, info2, y->handle, res->handle, vidmm_va_iommu_address(a, y->alias));
    st = link_opened(a, d, y, res);
    if (!NT_SUCCESS(st))
        goto out;
    return STATUS_SUCCESS;

out:
    if (kmd_opened) {
        DXGKARG_CLOSEALLOCATION cl = { .NumAllocations = 1, .pOpenHandleList = &y->kmd_device_specific };
        a->driver.ddi.DxgkDdiCloseAllocation(d->kmd, &cl);
    }
    if (linked)
        dxgk_share_alias_release(a, y); /* the creator's memory goes if this was its last open */
    if (y) {
        struct dxgk_share *ys = y->share;
        y->share = NULL;
        dxgk_share_put(ys);
        dxgk_object_put(y->handle ? dxgk_handle_remove(y->handle, DXGK_TYPE_ALLOCATION) : &y->obj);
        dxgk_object_put(res->handle ? dxgk_handle_remove(res->handle, DXGK_TYPE_RESOURCE) : &res->obj);
    }
    if (x)
        dxgk_object_put(&x->obj);
    dxgk_share_put(s);
    return st;
}

bool dxgk_orphan_unlinked_locked(struct dxgk_adapter *a, struct dxgk_allocation *x)
{
    WDDM_ASSERT_HELD(&a->lock);
    bool last = x->orphan && x->orphan_entry_done && !x->aliases && !x->nt_holds;
    if (last)
        x->dead = true; /* under the lock that decided it: nothing links to it any more */
    return last;
}

/* A same-adapter open's entry ran (its DxgkDdiCloseAllocation done, the GPU done with the
 * memory it named): its mappings go, and the creator's memory if the creator went first. */
void dxgk_share_alias_release(struct dxgk_adapter *a, struct dxgk_allocation *y)
{
    struct dxgk_allocation *x = y->alias;
    pthread_mutex_lock(&a->lock);
    struct dxgk_allocation **pp = &x->aliases;
    while (*pp && *pp != y)
        pp = &(*pp)->alias_next;
    if (*pp)
        *pp = y->alias_next;
    vidmm_va_unmap_via_locked(a, x, y->handle);
    bool last = dxgk_orphan_unlinked_locked(a, x);
    pthread_mutex_unlock(&a->lock);
    if (last)
        dxgk_allocation_orphan_free(a, x);
}

/* D3DKMTOpenResource and D3DKMTOpenResource2 (info2: the allocations are described in
 * pOpenAllocationInfo2); `given`: an NT object's share (one reference, taken over) instead of
 * the one args->hGlobalShare names. */
static NTSTATUS open_resource(D3DKMT_OPENRESOURCE *args, bool info2, struct dxgk_share *given)
{
    struct dxgk_device *d = dxgk_device_get(args->hDevice);
    if (!d) {
        dxgk_refuse("D3DKMTOpenResource: invalid device handle 0x%08x", args->hDevice);
        dxgk_share_put(given);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_adapter *a = d->adapter;
    struct dxgk_share *s = given;
    struct dxgk_allocation *x = NULL;
    struct dxgk_resource *res = NULL;
    bool charged = false, kmd_opened = false;
    NTSTATUS st;
    if (__atomic_load_n(&d->error, __ATOMIC_RELAXED) == STATUS_DEVICE_REMOVED) {
        dxgk_refuse("D3DKMTOpenResource: device 0x%08x is lost", args->hDevice);
        st = STATUS_DEVICE_REMOVED;
        goto out;
    }
    st = given ? openable_checks("D3DKMTOpenResourceFromNtHandle", d, s, 0)
               : open_checks("D3DKMTOpenResource", d, args->hGlobalShare, &s);
    if (!NT_SUCCESS(st))
        goto out;
    st = open_buffer_checks(s, args);
    if (!NT_SUCCESS(st))
        goto out;
    if (same_adapter(a, s)) {
        st = open_same_adapter(d, s, args, info2);
        s = NULL; /* taken over */
        goto out;
    }
    UINT ap = dxgk_aperture_segments(a);
    UINT first_ap = ap ? (UINT)__builtin_ctz(ap) + 1 : 0;
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
    if (!new_opened_objects(d, &x, &res)) {
        st = STATUS_NO_MEMORY;
        goto out;
    }
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
    st = dxgk_share_attach(s, a, &x->first) ? vidmm_va_iommu_attach(a, x) /* IoMmu: at the share's pages, */
                                            : STATUS_NO_MEMORY;           /* as the CPU sees them here */
    if (!NT_SUCCESS(st))
        goto out;
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
    open_outputs(s, args, info2, x->handle, res->handle, vidmm_va_iommu_address(a, x));
    st = link_opened(a, d, x, res);
    if (!NT_SUCCESS(st))
        goto out;
    dxgk_device_put(d);
    return STATUS_SUCCESS;

out:
    if (kmd_opened) {
        DXGKARG_CLOSEALLOCATION cl = { .NumAllocations = 1, .pOpenHandleList = &x->kmd_device_specific };
        a->driver.ddi.DxgkDdiCloseAllocation(d->kmd, &cl);
    }
    if (x) {
        vidmm_va_iommu_detach_unpublished(x);
        dxgk_share_attach_undo(s, a, &x->first);
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

NTSTATUS APIENTRY D3DKMTOpenResource(D3DKMT_OPENRESOURCE *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTOpenResource: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    return open_resource(args, false, NULL);
}

/* WDK: D3DKMTOpenResource2: D3DKMTOpenResource describing the allocations in
 * D3DDDI_OPENALLOCATIONINFO2 (with their GPU virtual address, 0: nothing is mapped at open). */
NTSTATUS APIENTRY D3DKMTOpenResource2(D3DKMT_OPENRESOURCE *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTOpenResource2: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    return open_resource(args, true, NULL);
}

/* ---- NT-handle sharing (objects/nt_handle.c) ------------------------------------------------ */

static void share_ref(struct dxgk_share *s)
{
    pthread_mutex_lock(&shares.lock);
    s->refs++;
    pthread_mutex_unlock(&shares.lock);
}

NTSTATUS dxgk_share_nt_hold(D3DKMT_HANDLE hResource, struct dxgk_share_nt_hold *out)
{
    memset(out, 0, sizeof *out);
    struct dxgk_resource *res = (struct dxgk_resource *)dxgk_handle_get(hResource, DXGK_TYPE_RESOURCE);
    if (!res) {
        dxgk_refuse("D3DKMTShareObjects: 0x%08x is not a live resource handle (an allocation handle is refused: "
                    "only resources are shared)", hResource);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_adapter *ra = res->device->adapter;
    pthread_mutex_lock(&ra->lock);
    struct dxgk_share *s = !res->dead && res->allocations ? res->allocations->share : NULL;
    if (s && s->nt)
        share_ref(s); /* the resource's allocation holds one: s lives across the lock */
    pthread_mutex_unlock(&ra->lock);
    dxgk_object_put(&res->obj);
    if (!s || !s->nt) {
        dxgk_refuse("D3DKMTShareObjects: resource 0x%08x was not created with CreateShared and NtSecuritySharing",
                    hResource);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_adapter *a = s->creator_adapter;
    dxgk_object_get(&a->obj);
    struct dxgk_allocation *x = share_owner_get(s);
    if (x) {
        pthread_mutex_lock(&a->lock);
        bool alive = !x->dead;
        if (alive)
            x->nt_holds++; /* its destruction now leaves its memory (orphan) for the NT object */
        pthread_mutex_unlock(&a->lock);
        if (!alive) {
            dxgk_object_put(&x->obj);
            x = NULL; /* a cross-adapter share's pages still open on other adapters */
        }
    }
    *out = (struct dxgk_share_nt_hold){ .share = s, .adapter = a, .owner = x };
    return STATUS_SUCCESS;
}

void dxgk_share_nt_release(struct dxgk_share_nt_hold *h)
{
    struct dxgk_allocation *x = h->owner;
    struct dxgk_adapter *a = h->adapter;
    if (x) {
        pthread_mutex_lock(&a->lock);
        x->nt_holds--;
        bool last = dxgk_orphan_unlinked_locked(a, x);
        pthread_mutex_unlock(&a->lock);
        if (last)
            dxgk_allocation_orphan_free(a, x);
        dxgk_object_put(&x->obj);
    }
    if (a)
        dxgk_object_put(&a->obj);
    dxgk_share_put(h->share);
    memset(h, 0, sizeof *h);
}

NTSTATUS dxgk_share_nt_query(const char *fn, D3DKMT_HANDLE hDevice, struct dxgk_share *s,
                             D3DKMT_QUERYRESOURCEINFOFROMNTHANDLE *args)
{
    struct dxgk_device *d = dxgk_device_get(hDevice);
    if (!d) {
        dxgk_refuse("%s: invalid device handle 0x%08x", fn, hDevice);
        return STATUS_INVALID_PARAMETER;
    }
    NTSTATUS st = openable_checks(fn, d, s, 0);
    if (NT_SUCCESS(st)) {
        /* As D3DKMTQueryResourceInfo: sizes only, pPrivateRuntimeData never written. */
        args->PrivateRuntimeDataSize = s->runtime_size;
        args->TotalPrivateDriverDataSize = s->alloc_priv_size;
        args->ResourcePrivateDriverDataSize = s->res_priv_size;
        args->NumAllocations = s->alloc_count;
    }
    dxgk_device_put(d);
    return st;
}

NTSTATUS dxgk_share_nt_open(struct dxgk_share *s, D3DKMT_OPENRESOURCE *args)
{
    share_ref(s); /* open_resource takes it over */
    return open_resource(args, true, s);
}
