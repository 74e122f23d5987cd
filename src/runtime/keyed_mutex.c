/*
 * keyed_mutex.c - IDXGIKeyedMutex (issue 15 §3; the kernel's side is issue 20 §3): the face a
 * D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX texture (or the same texture opened on another device)
 * hands out for AcquireSync / ReleaseSync.
 *
 * Each such resource carries a kernel keyed mutex (D3DKMTCreateKeyedMutex2) and a shared fence
 * (D3DKMTCreateSynchronizationObject2, D3DDDI_FENCE), both named in the resource's runtime data
 * by their global handles, so OpenSharedResource opens them with the resource; a
 * MISC_SHARED_NTHANDLE resource makes them with NtSecuritySharing instead and shares them in its
 * NT handle (CreateSharedHandle), which OpenSharedResource1 opens all three from (share.c). The CPU takes
 * the mutex; the GPU is kept in order by the fence, as DXGI does on Windows:
 * - AcquireSync(key): D3DKMTAcquireKeyedMutex hands back the fence value of the last release;
 *   the device's contexts then wait on the GPU for the fence to reach it, so the commands
 *   recorded after AcquireSync run after the previous owner's, while the calling thread goes on;
 * - ReleaseSync(key): the commands recorded before it are flushed, the device's contexts signal
 *   the fence after them (chained when the UMD has several contexts, so the value is reached
 *   only when all of them are through), and D3DKMTReleaseKeyedMutex stores that value with the
 *   key for the next owner.
 * AcquireSync's kernel answers map to DXGI's: STATUS_TIMEOUT -> WAIT_TIMEOUT, STATUS_ABANDONED
 * -> WAIT_ABANDONED (both are success codes: the caller must compare, as the DXGI reference
 * warns), a recursive acquire or a release by a non-owner -> E_FAIL.
 */
#include "runtime/runtime.h"
#include "runtime/api_stubs.h"
#include "common/alloc.h"

#include <stddef.h>
#include <stdlib.h>

struct rt_keyed_mutex {
    D3DKMT_HANDLE mutex, sync;        /* this resource's local kernel handles */
    D3DKMT_HANDLE mutex_global, sync_global; /* what its runtime data names */
    pthread_mutex_t lock;
    BOOL owned;                       /* AcquireSync succeeded, no ReleaseSync yet; lock */
    UINT64 fence;                     /* the value AcquireSync's GPU waits were for; lock */
};

static struct rt_resource *from_km(IDXGIKeyedMutex *iface)
{
    return (struct rt_resource *)(void *)((char *)iface - offsetof(struct rt_resource, keyed_mutex));
}

static void km_free(struct rt_keyed_mutex *km)
{
    if (km->mutex) {
        D3DKMT_DESTROYKEYEDMUTEX d = { .hKeyedMutex = km->mutex };
        (void)D3DKMTDestroyKeyedMutex(&d);
    }
    if (km->sync) {
        D3DKMT_DESTROYSYNCHRONIZATIONOBJECT d = { .hSyncObject = km->sync };
        (void)D3DKMTDestroySynchronizationObject(&d);
    }
    pthread_mutex_destroy(&km->lock);
    free(km);
}

void rt_keyed_mutex_free(struct rt_keyed_mutex *km)
{
    if (km)
        km_free(km);
}

static struct rt_keyed_mutex *km_alloc(void)
{
    struct rt_keyed_mutex *km = wddm_calloc(1, sizeof *km);
    if (km)
        pthread_mutex_init(&km->lock, NULL);
    return km;
}

HRESULT rt_keyed_mutex_create(struct rt_device *dev, BOOL nt, struct rt_keyed_mutex **out)
{
    *out = NULL;
    struct rt_keyed_mutex *km = km_alloc();
    if (!km)
        return E_OUTOFMEMORY;
    /* "only a key of 0 will succeed" at first; NT: no global handle, the resource's NT handle
     * shares the mutex and the fence (D3DKMTShareObjects, share.c). */
    D3DKMT_CREATEKEYEDMUTEX2 cm = { .InitialValue = 0 };
    cm.Flags.NtSecuritySharing = nt ? 1 : 0;
    NTSTATUS st = D3DKMTCreateKeyedMutex2(&cm);
    km->mutex = NT_SUCCESS(st) ? cm.hKeyedMutex : 0;
    km->mutex_global = NT_SUCCESS(st) ? cm.hSharedHandle : 0;
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 cs = { .hDevice = dev->km_device };
    cs.Info.Type = D3DDDI_FENCE;
    cs.Info.Flags.Shared = 1;
    cs.Info.Flags.NtSecuritySharing = nt ? 1 : 0;
    if (NT_SUCCESS(st)) {
        st = D3DKMTCreateSynchronizationObject2(&cs);
        km->sync = NT_SUCCESS(st) ? cs.hSyncObject : 0;
        km->sync_global = NT_SUCCESS(st) ? cs.Info.SharedHandle : 0;
    }
    if (!NT_SUCCESS(st)) {
        RT_REFUSE("keyed-mutex resource: the kernel refused its keyed mutex or fence (0x%08x)", (UINT)st);
        km_free(km);
        return st == STATUS_NO_MEMORY ? E_OUTOFMEMORY : E_FAIL;
    }
    *out = km;
    return S_OK;
}

void rt_keyed_mutex_globals(const struct rt_keyed_mutex *km, D3DKMT_HANDLE *mutex, D3DKMT_HANDLE *sync)
{
    *mutex = km ? km->mutex_global : 0;
    *sync = km ? km->sync_global : 0;
}

void rt_keyed_mutex_locals(const struct rt_keyed_mutex *km, D3DKMT_HANDLE *mutex, D3DKMT_HANDLE *sync)
{
    *mutex = km ? km->mutex : 0;
    *sync = km ? km->sync : 0;
}

HRESULT rt_keyed_mutex_adopt(D3DKMT_HANDLE mutex, D3DKMT_HANDLE sync, struct rt_keyed_mutex **out)
{
    *out = km_alloc();
    if (!*out)
        return E_OUTOFMEMORY;
    (*out)->mutex = mutex; /* destroyed with the resource (km_free) */
    (*out)->sync = sync;
    return S_OK;
}

HRESULT rt_keyed_mutex_open(D3DKMT_HANDLE mutex_global, D3DKMT_HANDLE sync_global, struct rt_keyed_mutex **out)
{
    *out = NULL;
    struct rt_keyed_mutex *km = km_alloc();
    if (!km)
        return E_OUTOFMEMORY;
    D3DKMT_OPENKEYEDMUTEX om = { .hSharedHandle = mutex_global };
    D3DKMT_OPENSYNCHRONIZATIONOBJECT os = { .hSharedHandle = sync_global };
    NTSTATUS st = D3DKMTOpenKeyedMutex(&om);
    km->mutex = NT_SUCCESS(st) ? om.hKeyedMutex : 0;
    if (NT_SUCCESS(st)) {
        st = D3DKMTOpenSynchronizationObject(&os);
        km->sync = NT_SUCCESS(st) ? os.hSyncObject : 0;
    }
    if (!NT_SUCCESS(st)) {
        RT_REFUSE("OpenSharedResource: the resource's keyed mutex 0x%08x or fence 0x%08x no longer opens (0x%08x)",
                  mutex_global, sync_global, (UINT)st);
        km_free(km);
        return st == STATUS_NO_MEMORY ? E_OUTOFMEMORY : E_INVALIDARG;
    }
    km->mutex_global = mutex_global;
    km->sync_global = sync_global;
    *out = km;
    return S_OK;
}

static HRESULT status_to_hr(NTSTATUS st)
{
    switch (st) {
    case STATUS_SUCCESS: return S_OK;
    case STATUS_TIMEOUT: return (HRESULT)WAIT_TIMEOUT;
    case STATUS_ABANDONED: return (HRESULT)WAIT_ABANDONED;
    case STATUS_NO_MEMORY: return E_OUTOFMEMORY;
    case STATUS_DEVICE_REMOVED: return DXGI_ERROR_DEVICE_REMOVED;
    default: return E_FAIL;
    }
}

static HRESULT STDMETHODCALLTYPE km_AcquireSync(IDXGIKeyedMutex *This, UINT64 key, DWORD ms)
{
    struct rt_resource *res = from_km(This);
    struct rt_keyed_mutex *km = res->km;
    LARGE_INTEGER timeout = { .QuadPart = -(LONGLONG)ms * 10000 }; /* relative, 100-ns units */
    D3DKMT_ACQUIREKEYEDMUTEX a = { .hKeyedMutex = km->mutex, .Key = key,
                                   .pTimeout = ms == INFINITE ? NULL : &timeout };
    /* Commands recorded before AcquireSync are not the acquisition's: they go first. */
    rt_gpu_flush(res->device);
    NTSTATUS st = D3DKMTAcquireKeyedMutex(&a);
    if (st != STATUS_SUCCESS) {
        if (st != STATUS_TIMEOUT)
            RT_REFUSE_DXGI(KEYED_MUTEX, "IDXGIKeyedMutex::AcquireSync(%llu): %s (0x%08x)", (unsigned long long)key,
                      st == STATUS_ABANDONED ? "abandoned: its owner's resource was destroyed while it held it"
                                             : "refused by the kernel (already acquired through this resource?)",
                      (UINT)st);
        return status_to_hr(st);
    }
    rt_gpu_wait(res->device, km->sync, a.FenceValue);
    pthread_mutex_lock(&km->lock);
    km->owned = TRUE;
    km->fence = a.FenceValue;
    pthread_mutex_unlock(&km->lock);
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE km_ReleaseSync(IDXGIKeyedMutex *This, UINT64 key)
{
    struct rt_resource *res = from_km(This);
    struct rt_keyed_mutex *km = res->km;
    pthread_mutex_lock(&km->lock);
    BOOL owned = km->owned;
    UINT64 value = km->fence;
    pthread_mutex_unlock(&km->lock);
    if (!owned) {
        RT_REFUSE_DXGI(KEYED_MUTEX, "IDXGIKeyedMutex::ReleaseSync(%llu): the keyed mutex is not owned through this resource",
                  (unsigned long long)key);
        return E_FAIL;
    }
    /* The commands recorded while it was owned go first; the next owner waits for this value. */
    value = rt_gpu_signal_after_work(res->device, km->sync, value, NULL);
    D3DKMT_RELEASEKEYEDMUTEX r = { .hKeyedMutex = km->mutex, .Key = key, .FenceValue = value };
    NTSTATUS st = D3DKMTReleaseKeyedMutex(&r);
    if (!NT_SUCCESS(st)) {
        RT_REFUSE_DXGI(KEYED_MUTEX, "IDXGIKeyedMutex::ReleaseSync(%llu): refused by the kernel (0x%08x)", (unsigned long long)key,
                  (UINT)st);
        return status_to_hr(st);
    }
    pthread_mutex_lock(&km->lock);
    km->owned = FALSE;
    pthread_mutex_unlock(&km->lock);
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE km_QueryInterface(IDXGIKeyedMutex *This, REFIID riid, void **ppv)
{
    return rt_resource_query_interface(from_km(This), riid, ppv);
}

static ULONG STDMETHODCALLTYPE km_AddRef(IDXGIKeyedMutex *This)
{
    return rt_resource_addref(from_km(This));
}

static ULONG STDMETHODCALLTYPE km_Release(IDXGIKeyedMutex *This)
{
    return rt_resource_release(from_km(This));
}

/* The face shares the resource's private data (one object, several faces). */
RT_PRIVATE_DATA_METHODS(km, IDXGIKeyedMutex, &from_km(This)->device->private_lock, &from_km(This)->private_data)

static HRESULT STDMETHODCALLTYPE km_GetParent(IDXGIKeyedMutex *This, REFIID riid, void **parent)
{
    return rt_resource_dxgi_parent(from_km(This), riid, parent);
}

static HRESULT STDMETHODCALLTYPE km_GetDevice(IDXGIKeyedMutex *This, REFIID riid, void **device)
{
    return rt_resource_dxgi_device(from_km(This), riid, device);
}

const struct IDXGIKeyedMutexVtbl rt_keyed_mutex_vtbl = {
    RT_API_STUBS_IDXGIKeyedMutex, /* every slot answers "not implemented" until named below */
    .QueryInterface = km_QueryInterface,
    .AddRef = km_AddRef,
    .Release = km_Release,
    RT_PRIVATE_DATA_SLOTS(km),
    .GetParent = km_GetParent,
    .GetDevice = km_GetDevice,
    .AcquireSync = km_AcquireSync,
    .ReleaseSync = km_ReleaseSync,
};
