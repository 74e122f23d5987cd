/* Offers (issue 20 §4, issue 15 §3): D3DKMTOfferAllocations, D3DKMTReclaimAllocations and
 * D3DKMTReclaimAllocations2.
 *
 * An offered allocation's content is the application's to lose: under memory pressure VidMm
 * takes offered allocations as victims before any other (lower offer priority first; AUTO
 * counts as NORMAL) and discards their content instead of paging it out (no TRANSFER, no
 * system-memory copy: the instance leaves the segment as a dead one does, vidmm/evict.c). Without
 * pressure nothing happens and the content stays. Reclaim ends the offer and says whether the
 * content was discarded since (D3DDDI_RECLAIM_RESULT_DISCARDED, or pDiscarded TRUE); a discarded
 * allocation comes back on its next use as a new one (zero-filled), as after a first placement.
 * While offered, an allocation cannot be locked (vidmm/lock.c): the content may go at any time.
 *
 * Both calls name the allocations either by kernel resource (pResources: every allocation of
 * each resource) or by allocation handle (HandleList), exactly one of the two, all checked
 * before anything changes; an opened allocation stands for the creator's (as for priorities). */
#include "dxgkrnl/vidmm/vidmm.h"
#include "common/alloc.h"

#include <stdlib.h>

/* The allocations a call names, with one object reference each (the caller drops them). */
struct offer_set {
    struct dxgk_allocation **al;
    UINT count;
};

static void set_release(struct offer_set *s)
{
    for (UINT i = 0; i < s->count; i++)
        dxgk_object_put(&s->al[i]->obj);
    free(s->al);
    s->al = NULL;
    s->count = 0;
}

static NTSTATUS set_add(struct offer_set *s, struct dxgk_allocation *al, UINT *cap)
{
    if (s->count == *cap) {
        UINT n = *cap ? *cap * 2 : 8;
        struct dxgk_allocation **g = realloc(s->al, (size_t)n * sizeof *g);
        if (!g)
            return STATUS_NO_MEMORY;
        s->al = g;
        *cap = n;
    }
    s->al[s->count++] = al;
    return STATUS_SUCCESS;
}

static NTSTATUS collect(const char *who, struct dxgk_device *d, D3DKMT_HANDLE *resources, const D3DKMT_HANDLE *handles,
                        UINT n, struct offer_set *s)
{
    UINT cap = 0;
    NTSTATUS st = STATUS_SUCCESS;
    for (UINT i = 0; i < n && NT_SUCCESS(st); i++) {
        if (handles) {
            struct dxgk_allocation *al = dxgk_allocation_get(handles[i], d, NULL);
            if (!al) {
                dxgk_refuse("%s: entry %u: 0x%08x is not an allocation of the device", who, i, handles[i]);
                st = STATUS_INVALID_PARAMETER;
            } else if (!NT_SUCCESS(st = set_add(s, al, &cap))) {
                dxgk_object_put(&al->obj);
            }
            continue;
        }
        struct dxgk_resource *r = (struct dxgk_resource *)dxgk_handle_get(resources[i], DXGK_TYPE_RESOURCE);
        if (!r || r->device != d) {
            dxgk_refuse("%s: entry %u: 0x%08x is not a resource of the device", who, i, resources[i]);
            st = STATUS_INVALID_PARAMETER;
        } else {
            pthread_mutex_lock(&d->adapter->lock);
            for (struct dxgk_allocation *al = r->allocations; al && NT_SUCCESS(st); al = al->res_next) {
                dxgk_object_get(&al->obj);
                if (!NT_SUCCESS(st = set_add(s, al, &cap)))
                    dxgk_object_put(&al->obj);
            }
            pthread_mutex_unlock(&d->adapter->lock);
        }
        if (r)
            dxgk_object_put(&r->obj);
    }
    if (!NT_SUCCESS(st))
        set_release(s);
    return st;
}

/* Exactly one of pResources and HandleList, and a count. */
static bool names_ok(const char *who, const D3DKMT_HANDLE *resources, const D3DKMT_HANDLE *handles, UINT n)
{
    if (!n || !resources == !handles) {
        dxgk_refuse("%s: NumAllocations is 0, or not exactly one of pResources and HandleList is given", who);
        return false;
    }
    return true;
}

/* The allocation whose memory an entry names: an opened one stands for its creator's. */
static struct dxgk_allocation *owner_of(struct dxgk_allocation *al)
{
    return al->alias ? al->alias : al;
}

NTSTATUS APIENTRY D3DKMTOfferAllocations(const D3DKMT_OFFERALLOCATIONS *args)
{
    static const char who[] = "D3DKMTOfferAllocations";
    if (!args || !names_ok(who, args->pResources, args->HandleList, args->NumAllocations))
        return STATUS_INVALID_PARAMETER;
    if (args->Priority < D3DKMT_OFFER_PRIORITY_LOW || args->Priority > D3DKMT_OFFER_PRIORITY_AUTO) {
        dxgk_refuse("%s: Priority %u is not a D3DKMT_OFFER_PRIORITY", who, (UINT)args->Priority);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_device *d = dxgk_device_get(args->hDevice);
    if (!d) {
        dxgk_refuse("%s: invalid device handle 0x%08x", who, args->hDevice);
        return STATUS_INVALID_PARAMETER;
    }
    struct offer_set s = { 0 };
    NTSTATUS st = collect(who, d, args->pResources, args->HandleList, args->NumAllocations, &s);
    if (NT_SUCCESS(st)) {
        UINT prio = args->Priority == D3DKMT_OFFER_PRIORITY_AUTO ? D3DKMT_OFFER_PRIORITY_NORMAL : args->Priority;
        pthread_mutex_lock(&d->adapter->lock);
        for (UINT i = 0; i < s.count; i++) {
            struct dxgk_allocation *al = owner_of(s.al[i]);
            if (!al->offer_priority)
                al->discarded = false; /* a new offer: nothing lost yet */
            al->offer_priority = prio;
        }
        pthread_mutex_unlock(&d->adapter->lock);
    }
    set_release(&s);
    dxgk_device_put(d);
    return st;
}

/* Ends the offers; results[i] (or discarded[i]) says whether the content went meanwhile. An
 * allocation that was not offered reclaims as OK. */
static NTSTATUS reclaim(const char *who, struct dxgk_device *d, D3DKMT_HANDLE *resources, const D3DKMT_HANDLE *handles,
                        UINT n, BOOL *discarded, D3DDDI_RECLAIM_RESULT *results)
{
    struct offer_set s = { 0 };
    NTSTATUS st = collect(who, d, resources, handles, n, &s);
    if (!NT_SUCCESS(st))
        return st;
    /* With pResources, an entry is a resource: it was discarded if any of its allocations was. */
    for (UINT i = 0; i < n; i++) {
        if (discarded)
            discarded[i] = FALSE;
        if (results)
            results[i] = D3DDDI_RECLAIM_RESULT_OK;
    }
    pthread_mutex_lock(&d->adapter->lock);
    UINT entry = 0;
    for (UINT i = 0; i < s.count; i++) {
        struct dxgk_allocation *al = owner_of(s.al[i]);
        if (resources) /* allocations of one resource are consecutive in the set */
            while (entry < n && s.al[i]->resource->handle != resources[entry])
                entry++;
        else
            entry = i;
        bool lost = al->offer_priority && al->discarded;
        al->offer_priority = 0;
        al->discarded = false;
        if (lost && entry < n) {
            if (discarded)
                discarded[entry] = TRUE;
            if (results)
                results[entry] = D3DDDI_RECLAIM_RESULT_DISCARDED;
        }
    }
    pthread_mutex_unlock(&d->adapter->lock);
    set_release(&s);
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY D3DKMTReclaimAllocations(D3DKMT_RECLAIMALLOCATIONS *args)
{
    static const char who[] = "D3DKMTReclaimAllocations";
    if (!args || !names_ok(who, args->pResources, args->HandleList, args->NumAllocations))
        return STATUS_INVALID_PARAMETER;
    struct dxgk_device *d = dxgk_device_get(args->hDevice);
    if (!d) {
        dxgk_refuse("%s: invalid device handle 0x%08x", who, args->hDevice);
        return STATUS_INVALID_PARAMETER;
    }
    NTSTATUS st = reclaim(who, d, args->pResources, args->HandleList, args->NumAllocations, args->pDiscarded, NULL);
    dxgk_device_put(d);
    return st;
}

/* The WDDM 2.x form: the paging queue's device, results as D3DDDI_RECLAIM_RESULT, and the
 * queue's fence value to wait for before use: 0, since reclaiming pages nothing in (a discarded
 * allocation is placed, zero-filled, by its next use). */
NTSTATUS APIENTRY D3DKMTReclaimAllocations2(D3DKMT_RECLAIMALLOCATIONS2 *args)
{
    static const char who[] = "D3DKMTReclaimAllocations2";
    if (!args || !names_ok(who, args->pResources, args->HandleList, args->NumAllocations))
        return STATUS_INVALID_PARAMETER;
    struct dxgk_paging_queue *q = NULL;
    struct dxgk_device *d = dxgk_paging_queue_resolve(args->hPagingQueue, &q, who);
    if (!d)
        return STATUS_INVALID_PARAMETER;
    NTSTATUS st = reclaim(who, d, args->pResources, args->HandleList, args->NumAllocations, NULL, args->pResults);
    args->PagingFenceValue = 0;
    if (q)
        dxgk_paging_queue_put(q);
    dxgk_device_put(d);
    return st;
}
