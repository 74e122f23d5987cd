/* Test-only looks into the kernel's state behind a D3DKMT handle (the tests that include this
 * also include dxgkrnl/objects/objects.h): where an allocation's current instance lives now. */
#ifndef WDDM_TESTS_DXGKRNL_KERNEL_PEEK_H
#define WDDM_TESTS_DXGKRNL_KERNEL_PEEK_H

#include "dxgkrnl/objects/objects.h"

/* Segment id of the allocation's current instance (0: not resident); *evicted (if not NULL):
 * its content is in the backing store only. Read under the adapter lock. */
static inline UINT kpeek_where(D3DKMT_HANDLE h, bool *evicted)
{
    struct dxgk_allocation *al = (struct dxgk_allocation *)dxgk_handle_get(h, DXGK_TYPE_ALLOCATION);
    assert_non_null(al);
    struct dxgk_adapter *a = al->device->adapter;
    pthread_mutex_lock(&a->lock);
    UINT s = al->current->segment_id;
    if (evicted)
        *evicted = al->current->evicted;
    pthread_mutex_unlock(&a->lock);
    dxgk_object_put(&al->obj);
    return s;
}

static inline UINT kpeek_segment(D3DKMT_HANDLE h)
{
    return kpeek_where(h, NULL);
}

/* Whether the allocation's current instance is placed in an aperture segment. */
static inline bool kpeek_in_aperture(D3DKMT_HANDLE h)
{
    struct dxgk_allocation *al = (struct dxgk_allocation *)dxgk_handle_get(h, DXGK_TYPE_ALLOCATION);
    assert_non_null(al);
    struct dxgk_adapter *a = al->device->adapter;
    pthread_mutex_lock(&a->lock);
    UINT s = al->current->segment_id;
    bool ap = s && a->seg[s - 1].aperture;
    pthread_mutex_unlock(&a->lock);
    dxgk_object_put(&al->obj);
    return ap;
}

/* The allocation's D3DDDI_ALLOCATIONPRIORITY_* (its creator's for an opened handle). */
static inline UINT kpeek_priority(D3DKMT_HANDLE h)
{
    struct dxgk_allocation *al = (struct dxgk_allocation *)dxgk_handle_get(h, DXGK_TYPE_ALLOCATION);
    assert_non_null(al);
    UINT p = (al->alias ? al->alias : al)->priority;
    dxgk_object_put(&al->obj);
    return p;
}

/* Offset of the allocation's current instance inside its segment (meaningful when resident). */
static inline UINT64 kpeek_offset(D3DKMT_HANDLE h)
{
    struct dxgk_allocation *al = (struct dxgk_allocation *)dxgk_handle_get(h, DXGK_TYPE_ALLOCATION);
    assert_non_null(al);
    struct dxgk_adapter *a = al->device->adapter;
    pthread_mutex_lock(&a->lock);
    UINT64 off = al->current->offset;
    pthread_mutex_unlock(&a->lock);
    dxgk_object_put(&al->obj);
    return off;
}

#endif /* WDDM_TESTS_DXGKRNL_KERNEL_PEEK_H */
