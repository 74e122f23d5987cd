/*
 * private_data.c - application data attached to an object by GUID (GetPrivateData,
 * SetPrivateData, SetPrivateDataInterface of every ID3D11DeviceChild, ID3D11Device and DXGI
 * object; issue 15 §4).
 *
 * Windows' answers (D3D11 API reference; Wine's d3d11 tests, run on Windows):
 * - SetPrivateData(guid, size, data) stores a copy, replacing what the GUID held; NULL data
 *   removes the entry: S_OK if there was one, S_FALSE if not (size does not matter then).
 * - SetPrivateDataInterface(guid, unk) stores unk with a reference (NULL stores a NULL pointer),
 *   releasing what the GUID held.
 * - GetPrivateData: NULL pDataSize → E_INVALIDARG; an unknown GUID → DXGI_ERROR_NOT_FOUND with
 *   *pDataSize = 0; NULL pData → S_OK with the stored size; a buffer smaller than the data →
 *   DXGI_ERROR_MORE_DATA with the stored size and the buffer untouched; an interface comes back
 *   with a new reference.
 * - The faces of one object (ID3D11Texture2D and its IDXGIResource) share one store.
 * One lock per device guards the stores of the device and of all its objects (they are small and
 * rarely touched; a DXGI factory or adapter has its own); an interface is released after the
 * lock is dropped, since its release may reach this device again.
 */
#include "runtime/runtime.h"
#include "common/alloc.h"

#include <stdlib.h>

struct rt_private_entry {
    struct rt_private_entry *next;
    GUID guid;
    IUnknown *unk;                  /* the stored interface (is_interface), with a reference */
    BOOL is_interface;
    UINT size;                      /* bytes in data, or sizeof(IUnknown *) for an interface */
    BYTE data[];
};

/* Unlinks the GUID's entry (under the device's lock) and returns it, or NULL. */
static struct rt_private_entry *detach(struct rt_private_data *pd, REFGUID guid)
{
    for (struct rt_private_entry **p = &pd->head; *p; p = &(*p)->next) {
        if (rt_iid_equal(&(*p)->guid, guid)) {
            struct rt_private_entry *e = *p;
            *p = e->next;
            return e;
        }
    }
    return NULL;
}

static void entry_free(struct rt_private_entry *e)
{
    if (e && e->is_interface && e->unk)
        e->unk->lpVtbl->Release(e->unk);
    free(e);
}

static HRESULT store(pthread_mutex_t *lock, struct rt_private_data *pd, REFGUID guid,
                     struct rt_private_entry *e)
{
    pthread_mutex_lock(lock);
    struct rt_private_entry *old = detach(pd, guid);
    if (e) {
        e->next = pd->head;
        pd->head = e;
    }
    pthread_mutex_unlock(lock);
    HRESULT hr = e || old ? S_OK : S_FALSE;
    entry_free(old);
    return hr;
}

HRESULT rt_private_set(pthread_mutex_t *lock, struct rt_private_data *pd, REFGUID guid, UINT size, const void *data)
{
    if (!guid) {
        RT_REFUSE("SetPrivateData: the GUID is NULL");
        return E_INVALIDARG;
    }
    struct rt_private_entry *e = NULL;
    if (data) {
        e = wddm_malloc(sizeof *e + size);
        if (!e) {
            RT_REFUSE("SetPrivateData: no memory for %u bytes", size);
            return E_OUTOFMEMORY;
        }
        *e = (struct rt_private_entry){ .guid = *guid, .size = size };
        memcpy(e->data, data, size);
    }
    return store(lock, pd, guid, e);
}

HRESULT rt_private_set_interface(pthread_mutex_t *lock, struct rt_private_data *pd, REFGUID guid, const IUnknown *unk)
{
    if (!guid) {
        RT_REFUSE("SetPrivateDataInterface: the GUID is NULL");
        return E_INVALIDARG;
    }
    struct rt_private_entry *e = wddm_malloc(sizeof *e);
    if (!e) {
        RT_REFUSE("SetPrivateDataInterface: no memory");
        return E_OUTOFMEMORY;
    }
    /* The store keeps a reference: the object is the application's, the pointer const only in
     * the method's signature. */
    IUnknown *held = (IUnknown *)unk;
    *e = (struct rt_private_entry){ .guid = *guid, .unk = held, .is_interface = TRUE, .size = sizeof(IUnknown *) };
    if (held)
        held->lpVtbl->AddRef(held);
    (void)store(lock, pd, guid, e);
    return S_OK;
}

HRESULT rt_private_get(pthread_mutex_t *lock, struct rt_private_data *pd, REFGUID guid, UINT *size, void *data)
{
    if (!guid || !size) {
        RT_REFUSE("GetPrivateData: %s is NULL", !guid ? "the GUID" : "pDataSize");
        return E_INVALIDARG;
    }
    HRESULT hr = S_OK;
    pthread_mutex_lock(lock);
    const struct rt_private_entry *e = pd->head;
    while (e && !rt_iid_equal(&e->guid, guid))
        e = e->next;
    if (!e) {
        *size = 0;
        hr = DXGI_ERROR_NOT_FOUND;
    } else if (data && *size < e->size) {
        *size = e->size;
        hr = DXGI_ERROR_MORE_DATA;
    } else {
        *size = e->size;
        if (data && e->is_interface) {
            if (e->unk)
                e->unk->lpVtbl->AddRef(e->unk);
            memcpy(data, &e->unk, sizeof e->unk);
        } else if (data) {
            memcpy(data, e->data, e->size);
        }
    }
    pthread_mutex_unlock(lock);
    return hr;
}

void rt_private_clear(struct rt_private_data *pd)
{
    while (pd->head) {
        struct rt_private_entry *e = pd->head;
        pd->head = e->next;
        entry_free(e);
    }
}
