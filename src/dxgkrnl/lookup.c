/* Typed lookups (issue 16 §1: the base every room uses): a handle to the adapter, device or
 * allocation it names, with one reference, or NULL for a stale, forged or wrong-type handle.
 * An allocation handle follows the rules of its type: it belongs to one device, and a
 * same-adapter open's handle names its creator's memory (objects/share.c), whose object its own
 * holds until it is released. */
#include "dxgkrnl/dxgkrnl.h"
#include "common/alloc.h"

#include <stdlib.h>

void dxgk_allocation_release(struct dxgk_object *obj)
{
    struct dxgk_allocation *al = (struct dxgk_allocation *)obj;
    if (al->alias)
        dxgk_object_put(&al->alias->obj); /* a same-adapter open's reference (objects/share.c) */
    free(obj);
}

struct dxgk_adapter *dxgk_adapter_get(D3DKMT_HANDLE h)
{
    return (struct dxgk_adapter *)dxgk_handle_get(h, DXGK_TYPE_ADAPTER);
}

void dxgk_adapter_put(struct dxgk_adapter *a)
{
    if (a)
        dxgk_object_put(&a->obj);
}

struct dxgk_device *dxgk_device_get(D3DKMT_HANDLE h)
{
    return (struct dxgk_device *)dxgk_handle_get(h, DXGK_TYPE_DEVICE);
}

void dxgk_device_put(struct dxgk_device *d)
{
    if (d)
        dxgk_object_put(&d->obj);
}

struct dxgk_allocation *dxgk_allocation_get(D3DKMT_HANDLE h, const struct dxgk_device *d, HANDLE *device_specific)
{
    dxgk_handle_lock();
    struct dxgk_allocation *al = dxgk_allocation_get_locked(h, d, device_specific);
    dxgk_handle_unlock();
    return al;
}

struct dxgk_allocation *dxgk_device_allocation_get(D3DKMT_HANDLE hDevice, D3DKMT_HANDLE h, struct dxgk_device **d)
{
    dxgk_handle_lock();
    *d = (struct dxgk_device *)dxgk_handle_get_locked(hDevice, DXGK_TYPE_DEVICE);
    struct dxgk_allocation *al = *d ? dxgk_allocation_get_locked(h, *d, NULL) : NULL;
    dxgk_handle_unlock();
    return al;
}

/* The puts below are never the last reference: the handles still hold theirs, and they cannot
 * go while the table lock is held. */
struct dxgk_allocation *dxgk_allocation_get_locked(D3DKMT_HANDLE h, const struct dxgk_device *d,
                                                   HANDLE *device_specific)
{
    WDDM_ASSERT_HELD(dxgk_handle_table_lock());
    struct dxgk_allocation *al = (struct dxgk_allocation *)dxgk_handle_get_locked(h, DXGK_TYPE_ALLOCATION);
    if (!al || (d && al->device != d)) {
        if (al)
            dxgk_object_put(&al->obj);
        return NULL;
    }
    if (device_specific)
        *device_specific = al->kmd_device_specific;
    if (al->alias) {
        /* Issue 6: an opened handle names its creator's memory; the handle's reference holds
         * the creator's object (dxgk_allocation_release), so it can be taken before the put. */
        struct dxgk_allocation *x = al->alias;
        dxgk_object_get(&x->obj);
        dxgk_object_put(&al->obj);
        al = x;
    }
    return al;
}

NTSTATUS dxgk_allocation_list_get(struct dxgk_device *d, const D3DKMT_HANDLE *h, UINT n, const char *who,
                                  struct dxgk_allocation ***out)
{
    struct dxgk_allocation **al = wddm_calloc(n, sizeof *al);
    *out = NULL;
    if (!al)
        return STATUS_NO_MEMORY;
    for (UINT i = 0; i < n; i++) {
        al[i] = dxgk_allocation_get(h[i], d, NULL); /* an opened handle: its creator's memory */
        if (!al[i]) {
            dxgk_refuse("%s: entry %u: invalid allocation handle 0x%08x for device 0x%08x", who, i, h[i],
                        d->handle);
            dxgk_allocation_list_put(al, i);
            return STATUS_INVALID_PARAMETER;
        }
    }
    *out = al;
    return STATUS_SUCCESS;
}

void dxgk_allocation_list_put(struct dxgk_allocation **al, UINT n)
{
    for (UINT i = 0; i < n; i++)
        dxgk_object_put(&al[i]->obj);
    free(al);
}

struct dxgk_device *dxgk_named_device(const char *who, D3DKMT_HANDLE hDevice, D3DKMT_HANDLE hResource,
                                      const D3DKMT_HANDLE *list, UINT count)
{
    if (hResource ? list || count : !list || !count) {
        dxgk_refuse("%s: not exactly one of hResource and an allocation list", who);
        return NULL;
    }
    struct dxgk_device *d = dxgk_device_get(hDevice);
    if (!d)
        dxgk_refuse("%s: invalid device handle 0x%08x", who, hDevice);
    return d;
}

struct dxgk_resource *dxgk_device_resource_get(struct dxgk_device *d, D3DKMT_HANDLE h, const char *who)
{
    struct dxgk_resource *r = (struct dxgk_resource *)dxgk_handle_get(h, DXGK_TYPE_RESOURCE);
    if (!r || r->device != d) {
        dxgk_refuse("%s: invalid resource handle 0x%08x", who, h);
        if (r)
            dxgk_object_put(&r->obj);
        return NULL;
    }
    return r;
}

NTSTATUS dxgk_for_each_named(const char *who, struct dxgk_device *d, D3DKMT_HANDLE hResource,
                             const D3DKMT_HANDLE *list, UINT count, dxgk_named_fn *each, void *ctx)
{
    struct dxgk_adapter *a = d->adapter;
    if (hResource) {
        struct dxgk_resource *r = dxgk_device_resource_get(d, hResource, who);
        if (!r)
            return STATUS_INVALID_PARAMETER;
        pthread_mutex_lock(&a->lock);
        for (struct dxgk_allocation *al = r->allocations; al; al = al->res_next)
            each(a, al->alias ? al->alias : al, 0, ctx); /* an opened allocation: its creator's memory */
        pthread_mutex_unlock(&a->lock);
        dxgk_object_put(&r->obj);
        return STATUS_SUCCESS;
    }
    struct dxgk_allocation **al;
    NTSTATUS st = dxgk_allocation_list_get(d, list, count, who, &al);
    if (!NT_SUCCESS(st))
        return st;
    pthread_mutex_lock(&a->lock);
    for (UINT i = 0; i < count; i++)
        each(a, al[i], i, ctx);
    pthread_mutex_unlock(&a->lock);
    dxgk_allocation_list_put(al, count);
    return STATUS_SUCCESS;
}
