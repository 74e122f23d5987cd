/*
 * multithread.c - ID3D10Multithread / ID3D11Multithread: the device's critical section.
 *
 * The SDK gives both interfaces one IID and one layout (Enter, Leave, SetMultithreadProtected,
 * GetMultithreadProtected), so every device answers it with one face, D3D11 devices included (a
 * program asks a D3D11 device for ID3D10Multithread to protect its immediate context). Enter and
 * Leave take and drop a recursive lock. While protection is on, each call a context method makes
 * through the immediate context's vtable runs inside that lock (context.c's wrappers), so a thread
 * inside Enter ... Leave has the immediate context to itself; a D3D10 device's calls through its
 * D3D10 faces take it as well (d3d10_device.c). Protection is on by default for a D3D10 device
 * (D3D10's rule, off with D3D10_CREATE_DEVICE_SINGLETHREADED) and off for a D3D11 one, whose
 * immediate context is not thread-safe unless a program asks (docs/api.md "Direct3D 11.2 to
 * 11.4").
 */
#include "runtime/runtime.h"
#include "runtime/api_stubs.h"

#include <stddef.h>

static struct rt_device *mt_of(ID3D10Multithread *face)
{
    return (struct rt_device *)((char *)face - offsetof(struct rt_device, multithread));
}

static HRESULT STDMETHODCALLTYPE mt_QueryInterface(ID3D10Multithread *This, REFIID riid, void **ppv)
{
    return ID3D11Device_QueryInterface(&mt_of(This)->iface, riid, ppv);
}
static ULONG STDMETHODCALLTYPE mt_AddRef(ID3D10Multithread *This)
{
    return ID3D11Device_AddRef(&mt_of(This)->iface);
}
static ULONG STDMETHODCALLTYPE mt_Release(ID3D10Multithread *This)
{
    return ID3D11Device_Release(&mt_of(This)->iface);
}
static void STDMETHODCALLTYPE mt_Enter(ID3D10Multithread *This)
{
    pthread_mutex_lock(&mt_of(This)->mt_lock);
}
static void STDMETHODCALLTYPE mt_Leave(ID3D10Multithread *This)
{
    pthread_mutex_unlock(&mt_of(This)->mt_lock);
}
static BOOL STDMETHODCALLTYPE mt_SetMultithreadProtected(ID3D10Multithread *This, BOOL on)
{
    return atomic_exchange(&mt_of(This)->mt_protected, on ? TRUE : FALSE);
}
static BOOL STDMETHODCALLTYPE mt_GetMultithreadProtected(ID3D10Multithread *This)
{
    return atomic_load(&mt_of(This)->mt_protected);
}

static const struct ID3D10MultithreadVtbl multithread_vtbl = {
    RT_API_STUBS_ID3D10Multithread,
    .QueryInterface = mt_QueryInterface,
    .AddRef = mt_AddRef,
    .Release = mt_Release,
    .Enter = mt_Enter,
    .Leave = mt_Leave,
    .SetMultithreadProtected = mt_SetMultithreadProtected,
    .GetMultithreadProtected = mt_GetMultithreadProtected,
};
/* ID3D11Multithread's slots are ID3D10Multithread's: the one face serves both names. */
_Static_assert(sizeof(struct ID3D11MultithreadVtbl) == sizeof(struct ID3D10MultithreadVtbl) &&
                   offsetof(struct ID3D11MultithreadVtbl, GetMultithreadProtected) ==
                       offsetof(struct ID3D10MultithreadVtbl, GetMultithreadProtected),
               "ID3D11Multithread has ID3D10Multithread's layout");

void rt_multithread_init(struct rt_device *dev, BOOL protect)
{
    dev->multithread.lpVtbl = &multithread_vtbl;
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE); /* Enter nests, and a call inside Enter takes it */
    pthread_mutex_init(&dev->mt_lock, &a);
    pthread_mutexattr_destroy(&a);
    atomic_store(&dev->mt_protected, protect);
}

void rt_multithread_fini(struct rt_device *dev)
{
    pthread_mutex_destroy(&dev->mt_lock);
}

void *rt_multithread_face(struct rt_device *dev, REFIID riid)
{
    /* IID_ID3D11Multithread is IID_ID3D10Multithread. */
    return rt_iid_equal(riid, &IID_ID3D10Multithread) ? &dev->multithread : NULL;
}

BOOL rt_mt_enter(struct rt_device *dev)
{
    if (!atomic_load(&dev->mt_protected))
        return FALSE;
    pthread_mutex_lock(&dev->mt_lock);
    return TRUE;
}

void rt_mt_leave(struct rt_device *dev, BOOL locked)
{
    if (locked)
        pthread_mutex_unlock(&dev->mt_lock);
}
