/*
 * removed_event.c - ID3D11Device4::RegisterDeviceRemovedEvent / UnregisterDeviceRemoved: events
 * set when the device becomes removed "for any reason, using an asynchronous notification
 * mechanism" (the reference page).
 *
 * The page's rules: an event registered on a device already removed is set at once (and the call
 * still succeeds); each event is set at most once; events are not set by the device's destruction,
 * which unregisters them. The runtime holds a reference on each registered event, so the
 * application may close its handle.
 *
 * How the runtime learns of a loss it did not cause: the kernel sets every monitored fence of a
 * lost device to UINT64_MAX after a timeout recovery or a fault (docs/semantics.md §8.3). At the
 * first registration the runtime makes a fence of the device for this alone and asks the kernel
 * for a CPU wait on that value with an event of its own (D3DKMTWaitForSynchronizationObjectFromCpu,
 * hAsyncEvent); one watcher thread waits on that event and sets the registered ones. A removal the
 * runtime decides itself (a DDI error, rt_device_set_removed) sets them directly.
 */
#include "runtime/runtime.h"
#include "common/alloc.h"
#include "common/event.h"

#include <stdlib.h>

struct rt_removal_reg {
    struct wddm_event *event;       /* one reference */
    DWORD cookie;
};

struct rt_removal_watch {
    pthread_mutex_t lock;
    struct rt_removal_reg *regs;    /* lock */
    UINT count, cap;                /* lock */
    DWORD next_cookie;              /* lock */
    bool fired, stopping;           /* lock */
    D3DKMT_HANDLE fence;            /* the device's fence the kernel maxes when it is lost */
    HANDLE wake;                    /* set by the kernel's wait (or by the stop) */
    pthread_t thread;
};

/* Sets and releases every registered event (lock held): the device is removed. */
static void fire_locked(struct rt_removal_watch *w)
{
    w->fired = true;
    for (UINT i = 0; i < w->count; i++) {
        wddm_event_signal(w->regs[i].event);
        wddm_event_put(w->regs[i].event);
    }
    w->count = 0; /* "signaled only once" */
}

static void *watch_main(void *arg)
{
    struct rt_removal_watch *w = arg;
    (void)WaitForSingleObject(w->wake, INFINITE);
    pthread_mutex_lock(&w->lock);
    if (!w->stopping)
        fire_locked(w);
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

/* The device's watch, made at the first registration (dev->private_lock held); NULL without
 * memory or when the kernel refuses the fence or the wait. */
static struct rt_removal_watch *watch_get_locked(struct rt_device *dev)
{
    if (dev->removal)
        return dev->removal;
    struct rt_removal_watch *w = wddm_calloc(1, sizeof *w);
    if (!w)
        return NULL;
    pthread_mutex_init(&w->lock, NULL);
    w->next_cookie = 1;
    w->wake = CreateEventW(NULL, TRUE, FALSE, NULL);
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 cs = { .hDevice = dev->km_device };
    cs.Info.Type = D3DDDI_MONITORED_FENCE;
    UINT64 lost = UINT64_MAX;
    bool ok = w->wake && NT_SUCCESS(D3DKMTCreateSynchronizationObject2(&cs));
    w->fence = ok ? cs.hSyncObject : 0;
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU wait = { .hDevice = dev->km_device, .ObjectCount = 1,
                                                        .ObjectHandleArray = &w->fence, .FenceValueArray = &lost,
                                                        .hAsyncEvent = w->wake };
    ok = ok && NT_SUCCESS(D3DKMTWaitForSynchronizationObjectFromCpu(&wait)) &&
         pthread_create(&w->thread, NULL, watch_main, w) == 0;
    if (!ok) {
        if (w->fence) {
            D3DKMT_DESTROYSYNCHRONIZATIONOBJECT ds = { .hSyncObject = w->fence };
            (void)D3DKMTDestroySynchronizationObject(&ds);
        }
        if (w->wake)
            CloseHandle(w->wake);
        pthread_mutex_destroy(&w->lock);
        free(w);
        return NULL;
    }
    dev->removal = w;
    return w;
}

HRESULT STDMETHODCALLTYPE rt_device_RegisterDeviceRemovedEvent(ID3D11Device4 *iface, HANDLE event, DWORD *cookie)
{
    static const char fn[] = "ID3D11Device4::RegisterDeviceRemovedEvent";
    struct rt_device *dev = rt_device_from_iface((ID3D11Device *)iface);
    struct wddm_event *e = event ? wddm_event_get(event) : NULL;
    if (!e || !cookie) {
        RT_REFUSE("%s: %s", fn, !cookie ? "pdwCookie is NULL" : "hEvent is not an event handle");
        if (e)
            wddm_event_put(e);
        return E_INVALIDARG;
    }
    pthread_mutex_lock(&dev->private_lock);
    struct rt_removal_watch *w = watch_get_locked(dev);
    pthread_mutex_unlock(&dev->private_lock);
    if (!w) {
        wddm_event_put(e);
        return E_OUTOFMEMORY;
    }
    pthread_mutex_lock(&w->lock);
    *cookie = w->next_cookie++;
    HRESULT hr = S_OK;
    if (w->fired || rt_device_is_removed(dev)) {
        wddm_event_signal(e); /* already removed: set at once, and no error */
        wddm_event_put(e);
    } else {
        if (w->count == w->cap) {
            UINT cap = w->cap ? w->cap * 2 : 4;
            struct rt_removal_reg *r = realloc(w->regs, cap * sizeof *r);
            if (r) {
                w->regs = r;
                w->cap = cap;
            }
        }
        if (w->count < w->cap) {
            w->regs[w->count++] = (struct rt_removal_reg){ e, *cookie };
        } else {
            wddm_event_put(e);
            hr = E_OUTOFMEMORY;
        }
    }
    pthread_mutex_unlock(&w->lock);
    return hr;
}

/* The device's watch if a registration made it (it lives until the device's teardown). */
static struct rt_removal_watch *watch_of(struct rt_device *dev)
{
    pthread_mutex_lock(&dev->private_lock);
    struct rt_removal_watch *w = dev->removal;
    pthread_mutex_unlock(&dev->private_lock);
    return w;
}

void STDMETHODCALLTYPE rt_device_UnregisterDeviceRemoved(ID3D11Device4 *iface, DWORD cookie)
{
    struct rt_removal_watch *w = watch_of(rt_device_from_iface((ID3D11Device *)iface));
    if (!w)
        return;
    pthread_mutex_lock(&w->lock);
    for (UINT i = 0; i < w->count; i++)
        if (w->regs[i].cookie == cookie) {
            wddm_event_put(w->regs[i].event);
            w->regs[i] = w->regs[--w->count];
            break;
        }
    pthread_mutex_unlock(&w->lock);
}

void rt_removed_events_fire(struct rt_device *dev)
{
    struct rt_removal_watch *w = watch_of(dev);
    if (!w)
        return;
    pthread_mutex_lock(&w->lock);
    if (!w->stopping)
        fire_locked(w);
    pthread_mutex_unlock(&w->lock);
}

void rt_removed_events_stop(struct rt_device *dev)
{
    struct rt_removal_watch *w = dev->removal;
    if (!w)
        return;
    pthread_mutex_lock(&w->lock);
    w->stopping = true; /* "not signaled during device destruction": unregistered */
    for (UINT i = 0; i < w->count; i++)
        wddm_event_put(w->regs[i].event);
    w->count = 0;
    pthread_mutex_unlock(&w->lock);
    (void)SetEvent(w->wake);
    pthread_join(w->thread, NULL);
    D3DKMT_DESTROYSYNCHRONIZATIONOBJECT ds = { .hSyncObject = w->fence }; /* ends the kernel's wait */
    (void)D3DKMTDestroySynchronizationObject(&ds);
    CloseHandle(w->wake);
    free(w->regs);
    pthread_mutex_destroy(&w->lock);
    free(w);
    dev->removal = NULL;
}
