/*
 * gpu_sync.c - ordering on the GPU across the UMD's kernel contexts, for the runtime's own
 * synchronisation (keyed mutexes, keyed_mutex.c; IDXGIDevice2::EnqueueSetEvent, dxgi_device.c).
 * The runtime sees every kernel context its UMD creates (pfnCreateContextCb, callbacks.c), so it
 * can queue the kernel's GPU waits and signals in their streams, as DXGI does on Windows.
 */
#include "runtime/runtime.h"

/* The device's kernel contexts, copied under the lock that guards the list. */
static UINT device_contexts(struct rt_device *dev, D3DKMT_HANDLE *out)
{
    pthread_mutex_lock(&dev->private_lock);
    UINT n = dev->km_context_count;
    for (UINT i = 0; i < n; i++)
        out[i] = dev->km_contexts[i];
    pthread_mutex_unlock(&dev->private_lock);
    return n;
}

static void gpu_wait(D3DKMT_HANDLE context, D3DKMT_HANDLE fence, UINT64 value)
{
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECT2 w = { .hContext = context, .ObjectCount = 1, .ObjectHandleArray = { fence } };
    w.Fence.FenceValue = value;
    (void)D3DKMTWaitForSynchronizationObject2(&w);
}

void rt_gpu_wait(struct rt_device *dev, D3DKMT_HANDLE fence, UINT64 value)
{
    D3DKMT_HANDLE ctx[RT_MAX_KM_CONTEXTS];
    UINT n = device_contexts(dev, ctx);
    for (UINT i = 0; i < n; i++)
        gpu_wait(ctx[i], fence, value);
}

void rt_gpu_flush(struct rt_device *dev)
{
    ID3D11DeviceContext *ic = &dev->context.iface;
    ic->lpVtbl->Flush(ic);
}

UINT64 rt_gpu_signal_after_work(struct rt_device *dev, D3DKMT_HANDLE fence, UINT64 value, HANDLE event)
{
    rt_gpu_flush(dev); /* a signal queued in the kernel comes after the commands recorded before it */
    D3DKMT_HANDLE ctx[RT_MAX_KM_CONTEXTS];
    UINT n = device_contexts(dev, ctx);
    D3DKMT_HANDLE chain = fence;
    if (!chain && n > 1) { /* several contexts and only an event: a fence of our own chains them */
        D3DKMT_CREATESYNCHRONIZATIONOBJECT2 cs = { .hDevice = dev->km_device };
        cs.Info.Type = D3DDDI_FENCE;
        chain = NT_SUCCESS(D3DKMTCreateSynchronizationObject2(&cs)) ? cs.hSyncObject : 0;
    }
    /* Each context waits for the one before it, then signals: the last value (and the event)
     * comes when every context is through its earlier work. */
    for (UINT i = 0; i < n; i++) {
        if (i && chain)
            gpu_wait(ctx[i], chain, value);
        D3DKMT_SIGNALSYNCHRONIZATIONOBJECT2 s = { .hContext = ctx[i] };
        if (chain && (fence || i + 1 < n)) {
            s.ObjectCount = 1;
            s.ObjectHandleArray[0] = chain;
            s.Fence.FenceValue = ++value;
            (void)D3DKMTSignalSynchronizationObject2(&s);
        }
        if (event && i + 1 == n) {
            s = (D3DKMT_SIGNALSYNCHRONIZATIONOBJECT2){ .hContext = ctx[i] };
            s.Flags.EnqueueCpuEvent = 1;
            s.CpuEventHandle = event;
            (void)D3DKMTSignalSynchronizationObject2(&s);
        }
    }
    if (chain && !fence) {
        D3DKMT_DESTROYSYNCHRONIZATIONOBJECT ds = { .hSyncObject = chain }; /* queued uses keep it */
        (void)D3DKMTDestroySynchronizationObject(&ds);
    }
    if (event && !n)
        (void)SetEvent(event); /* no context: nothing is pending */
    return value;
}
