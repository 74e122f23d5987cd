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

/* A fence of the runtime's own that chains several contexts (0 when it cannot be made). */
static D3DKMT_HANDLE private_chain(struct rt_device *dev)
{
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 cs = { .hDevice = dev->km_device };
    cs.Info.Type = D3DDDI_FENCE;
    return NT_SUCCESS(D3DKMTCreateSynchronizationObject2(&cs)) ? cs.hSyncObject : 0;
}

static void destroy_chain(D3DKMT_HANDLE chain)
{
    D3DKMT_DESTROYSYNCHRONIZATIONOBJECT ds = { .hSyncObject = chain }; /* queued uses keep it */
    (void)D3DKMTDestroySynchronizationObject(&ds);
}

/* What the last context queues once every context is through its earlier work. */
struct chain_end {
    D3DKMT_HANDLE fence;        /* 0: none */
    UINT64 value;
    BOOL monitored;             /* a monitored fence (signalled FromGpu), else a D3DDDI_FENCE */
    HANDLE event;               /* NULL: none */
};

/* Each context in turn waits for the one before it through `chain` (its values from `value` + 1
 * on), then signals the next value; the last one queues `end` instead. */
static void chain_contexts(const D3DKMT_HANDLE *ctx, UINT n, D3DKMT_HANDLE chain, UINT64 value,
                           const struct chain_end *end)
{
    for (UINT i = 0; i < n; i++) {
        if (i && chain)
            gpu_wait(ctx[i], chain, value);
        BOOL last = i + 1 == n;
        D3DKMT_HANDLE obj = last ? end->fence : chain;
        UINT64 v = last ? end->value : ++value;
        if (obj && last && end->monitored) {
            D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMGPU s = { .hContext = ctx[i], .ObjectCount = 1,
                                                            .ObjectHandleArray = &obj, .MonitoredFenceValueArray = &v };
            (void)D3DKMTSignalSynchronizationObjectFromGpu(&s);
        } else if (obj) {
            D3DKMT_SIGNALSYNCHRONIZATIONOBJECT2 s = { .hContext = ctx[i], .ObjectCount = 1, .ObjectHandleArray = { obj } };
            s.Fence.FenceValue = v;
            (void)D3DKMTSignalSynchronizationObject2(&s);
        }
        if (last && end->event) {
            D3DKMT_SIGNALSYNCHRONIZATIONOBJECT2 s = { .hContext = ctx[i] };
            s.Flags.EnqueueCpuEvent = 1;
            s.CpuEventHandle = end->event;
            (void)D3DKMTSignalSynchronizationObject2(&s);
        }
    }
}

UINT64 rt_gpu_signal_after_work(struct rt_device *dev, D3DKMT_HANDLE fence, UINT64 value, HANDLE event)
{
    rt_gpu_flush(dev); /* a signal queued in the kernel comes after the commands recorded before it */
    D3DKMT_HANDLE ctx[RT_MAX_KM_CONTEXTS];
    UINT n = device_contexts(dev, ctx);
    /* The caller's fence is the chain itself, its values value + 1 ... value + n; with only an
     * event and several contexts a fence of our own chains them. */
    D3DKMT_HANDLE chain = fence ? fence : n > 1 ? private_chain(dev) : 0;
    const struct chain_end end = { .fence = fence, .value = value + n, .event = event };
    chain_contexts(ctx, n, chain, value, &end);
    if (chain && chain != fence)
        destroy_chain(chain);
    if (event && !n)
        (void)SetEvent(event); /* no context: nothing is pending */
    return fence ? value + n : value;
}

NTSTATUS rt_gpu_signal_monitored(struct rt_device *dev, D3DKMT_HANDLE fence, UINT64 value)
{
    rt_gpu_flush(dev);
    D3DKMT_HANDLE ctx[RT_MAX_KM_CONTEXTS];
    UINT n = device_contexts(dev, ctx);
    if (!n) { /* no context: nothing is pending, the value is reached now */
        D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMCPU s = { .hDevice = dev->km_device, .ObjectCount = 1,
                                                        .ObjectHandleArray = &fence, .FenceValueArray = &value };
        return D3DKMTSignalSynchronizationObjectFromCpu(&s);
    }
    D3DKMT_HANDLE chain = n > 1 ? private_chain(dev) : 0;
    if (n > 1 && !chain)
        return STATUS_NO_MEMORY;
    const struct chain_end end = { .fence = fence, .value = value, .monitored = TRUE };
    chain_contexts(ctx, n, chain, 0, &end);
    if (chain)
        destroy_chain(chain);
    return STATUS_SUCCESS;
}

void rt_gpu_wait_monitored(struct rt_device *dev, D3DKMT_HANDLE fence, UINT64 value)
{
    D3DKMT_HANDLE ctx[RT_MAX_KM_CONTEXTS];
    UINT n = device_contexts(dev, ctx);
    for (UINT i = 0; i < n; i++) {
        D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMGPU w = { .hContext = ctx[i], .ObjectCount = 1,
                                                         .ObjectHandleArray = &fence, .MonitoredFenceValueArray = &value };
        (void)D3DKMTWaitForSynchronizationObjectFromGpu(&w);
    }
}
