/* ID3D11Fence (Direct3D 11.3/11.4; issue 20 §3): fences created and opened through ID3D11Device5,
 * signalled and waited for by ID3D11DeviceContext4, read by GetCompletedValue and
 * SetEventOnCompletion, shared by NT handle across devices and adapters. Proved through the real
 * stack with the software GPU paused: a signal comes after the work before it, a wait holds the
 * work after it. Runs in both driver models.
 *
 * Windows' answers: the ID3D11Device5::CreateFence / OpenSharedFence, ID3D11Fence::
 * CreateSharedHandle / GetCompletedValue / SetEventOnCompletion and ID3D11DeviceContext4::Signal /
 * Wait reference pages (MicrosoftDocs sdk-api, d3d11_3 and d3d11_4), D3D11_FENCE_FLAG; a lost
 * device's fence reads UINT64_MAX as ID3D12Fence::GetCompletedValue says, which the D3D11 page
 * names as its equivalent. */
#include "e2e.h"

#include <d3d11_4.h>
#include <dxgi1_2.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#define BYTES E2E_SMALL_BYTES

static ID3D11Device5 *dev5(ID3D11Device *dev)
{
    ID3D11Device5 *d = NULL;
    assert_int_equal(ID3D11Device_QueryInterface(dev, &IID_ID3D11Device5, (void **)&d), S_OK);
    return d;
}

static ID3D11DeviceContext4 *ctx4(ID3D11DeviceContext *ctx)
{
    ID3D11DeviceContext4 *c = NULL;
    assert_int_equal(ID3D11DeviceContext_QueryInterface(ctx, &IID_ID3D11DeviceContext4, (void **)&c), S_OK);
    return c;
}

static ID3D11Fence *fence(ID3D11Device *dev, UINT64 initial, D3D11_FENCE_FLAG flags)
{
    ID3D11Device5 *d = dev5(dev);
    ID3D11Fence *f = NULL;
    assert_int_equal(ID3D11Device5_CreateFence(d, initial, flags, &IID_ID3D11Fence, (void **)&f), S_OK);
    SAFE_RELEASE(d);
    return f;
}

/* The staging buffer holds the DEFAULT buffer's bytes (seed), read without waiting: the copy ran. */
static void assert_copied_without_wait(ID3D11DeviceContext *ctx, ID3D11Buffer *stg, uint32_t seed)
{
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, D3D11_MAP_FLAG_DO_NOT_WAIT,
                                             &m),
                     S_OK);
    static uint8_t want[BYTES];
    e2e_fill(want, sizeof want, seed);
    assert_memory_equal(m.pData, want, BYTES);
    ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)stg, 0);
}

static void sleep_ms(int ms)
{
    struct timespec t = { 0, ms * 1000000L };
    nanosleep(&t, NULL);
}

/* rule: runtime.d3d11-interfaces-one-object (ID3D11Device2..5 are the device, ID3D11DeviceContext2..4 the context) */
static void device_and_context_answer_the_11_2_to_11_4_interfaces(void **state)
{
    struct e2e *e = *state;
    static const IID *const devs[] = { &IID_ID3D11Device2, &IID_ID3D11Device3, &IID_ID3D11Device4, &IID_ID3D11Device5 };
    for (size_t i = 0; i < sizeof devs / sizeof *devs; i++) {
        void *p = NULL;
        assert_int_equal(ID3D11Device_QueryInterface(e->dev, devs[i], &p), S_OK);
        assert_ptr_equal(p, e->dev);
        IUnknown_Release((IUnknown *)p);
    }
    static const IID *const ctxs[] = { &IID_ID3D11DeviceContext2, &IID_ID3D11DeviceContext3,
                                       &IID_ID3D11DeviceContext4 };
    for (size_t i = 0; i < sizeof ctxs / sizeof *ctxs; i++) {
        void *p = NULL;
        assert_int_equal(ID3D11DeviceContext_QueryInterface(e->ctx, ctxs[i], &p), S_OK);
        assert_ptr_equal(p, e->ctx);
        IUnknown_Release((IUnknown *)p);
    }
    ID3D11Device5 *d = dev5(e->dev);
    ID3D11DeviceContext3 *ic = NULL;
    ID3D11Device5_GetImmediateContext3(d, &ic);
    assert_ptr_equal(ic, e->ctx);
    SAFE_RELEASE(ic);
    ID3D11DeviceContext3 *dc = NULL;
    assert_int_equal(ID3D11Device5_CreateDeferredContext3(d, 0, &dc), S_OK);
    assert_int_equal(ID3D11DeviceContext3_GetType(dc), D3D11_DEVICE_CONTEXT_DEFERRED);
    void *p = NULL;
    assert_int_equal(ID3D11DeviceContext3_QueryInterface(dc, &IID_ID3D11DeviceContext4, &p), S_OK);
    assert_ptr_equal(p, dc);
    IUnknown_Release((IUnknown *)p);
    SAFE_RELEASE(dc);
    SAFE_RELEASE(d);
}

/* rule: runtime.fence-signal-after-earlier-work (GPU paused: the value stays; resumed: reached, the copy before it done) */
/* rule: runtime.fence-set-event-on-completion */
static void signal_reaches_the_value_after_the_work_before_it(void **state)
{
    struct e2e *e = *state;
    ID3D11Fence *f = fence(e->dev, 3, D3D11_FENCE_FLAG_NONE);
    assert_int_equal(ID3D11Fence_GetCompletedValue(f), 3);
    ID3D11DeviceContext4 *c = ctx4(e->ctx);
    ID3D11Buffer *src = e2e_small_buffer(e->dev, D3D11_USAGE_DEFAULT, 7), *stg = e2e_small_buffer(e->dev, D3D11_USAGE_STAGING, 0);
    ID3D11DeviceContext_Flush(e->ctx);
    HANDLE ev = CreateEventW(NULL, FALSE, FALSE, NULL), early = CreateEventW(NULL, FALSE, FALSE, NULL);
    wddm_swgpu_set_paused(1);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)src); /* not flushed */
    assert_int_equal(ID3D11DeviceContext4_Signal(c, f, 10), S_OK);
    assert_int_equal(ID3D11Fence_SetEventOnCompletion(f, 10, ev), S_OK);
    assert_int_equal(ID3D11Fence_SetEventOnCompletion(f, 2, early), S_OK); /* reached already: set at once */
    assert_int_equal(WaitForSingleObject(early, 0), WAIT_OBJECT_0);
    sleep_ms(20);
    assert_int_equal(ID3D11Fence_GetCompletedValue(f), 3);
    assert_int_equal(WaitForSingleObject(ev, 0), WAIT_TIMEOUT);
    wddm_swgpu_set_paused(0);
    assert_int_equal(WaitForSingleObject(ev, 5000), WAIT_OBJECT_0);
    assert_int_equal(ID3D11Fence_GetCompletedValue(f), 10);
    assert_copied_without_wait(e->ctx, stg, 7);
    /* A lower value is written as given, as the kernel's monitored fence does. */
    assert_int_equal(ID3D11DeviceContext4_Signal(c, f, 4), S_OK);
    assert_int_equal(ID3D11Fence_SetEventOnCompletion(f, 4, NULL), S_OK);
    assert_int_equal(ID3D11Fence_GetCompletedValue(f), 4);
    CloseHandle(ev);
    CloseHandle(early);
    SAFE_RELEASE(stg);
    SAFE_RELEASE(src);
    SAFE_RELEASE(c);
    SAFE_RELEASE(f);
}

struct blocking_wait {
    ID3D11Fence *f;
    UINT64 value;
    atomic_int done;
    HRESULT hr;
};

static void *wait_thread(void *arg)
{
    struct blocking_wait *w = arg;
    w->hr = ID3D11Fence_SetEventOnCompletion(w->f, w->value, NULL);
    atomic_store(&w->done, 1);
    return NULL;
}

/* rule: runtime.fence-set-event-on-completion (no event: the call returns once the value is reached) */
static void set_event_on_completion_without_an_event_blocks_until_reached(void **state)
{
    struct e2e *e = *state;
    ID3D11Fence *f = fence(e->dev, 0, D3D11_FENCE_FLAG_NONE);
    ID3D11DeviceContext4 *c = ctx4(e->ctx);
    wddm_swgpu_set_paused(1);
    ID3D11Buffer *src = e2e_small_buffer(e->dev, D3D11_USAGE_DEFAULT, 9), *stg = e2e_small_buffer(e->dev, D3D11_USAGE_STAGING, 0);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)src);
    assert_int_equal(ID3D11DeviceContext4_Signal(c, f, 1), S_OK);
    struct blocking_wait w = { .f = f, .value = 1 };
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, wait_thread, &w), 0);
    sleep_ms(30);
    assert_int_equal(atomic_load(&w.done), 0);
    wddm_swgpu_set_paused(0);
    pthread_join(t, NULL);
    assert_int_equal(w.hr, S_OK);
    assert_int_equal(ID3D11Fence_GetCompletedValue(f), 1);
    assert_copied_without_wait(e->ctx, stg, 9);
    SAFE_RELEASE(stg);
    SAFE_RELEASE(src);
    SAFE_RELEASE(c);
    SAFE_RELEASE(f);
}

/* A second device on the adapter of the first (index 0) or another one. */
static void open_device(UINT adapter, ID3D11Device **dev, ID3D11DeviceContext **ctx)
{
    IDXGIFactory1 *fac = NULL;
    assert_int_equal(CreateDXGIFactory1(&IID_IDXGIFactory1, (void **)&fac), S_OK);
    IDXGIAdapter1 *a = NULL;
    assert_int_equal(IDXGIFactory1_EnumAdapters1(fac, adapter, &a), S_OK);
    assert_int_equal(D3D11CreateDevice((IDXGIAdapter *)a, D3D_DRIVER_TYPE_UNKNOWN, NULL, 0, NULL, 0,
                                       D3D11_SDK_VERSION, dev, NULL, ctx),
                     S_OK);
    SAFE_RELEASE(a);
    SAFE_RELEASE(fac);
}

static HANDLE share(ID3D11Fence *f)
{
    HANDLE h = NULL;
    assert_int_equal(ID3D11Fence_CreateSharedHandle(f, NULL, GENERIC_ALL, NULL, &h), S_OK);
    assert_non_null(h);
    return h;
}

static ID3D11Fence *open_shared(ID3D11Device *dev, HANDLE h)
{
    ID3D11Device5 *d = dev5(dev);
    ID3D11Fence *f = NULL;
    assert_int_equal(ID3D11Device5_OpenSharedFence(d, h, &IID_ID3D11Fence, (void **)&f), S_OK);
    SAFE_RELEASE(d);
    return f;
}

/* Device A waits for the fence before a copy; device B, which opened the fence's NT handle,
 * signals it: only then does A's copy run. */
static void wait_on_one_device_released_by_a_signal_on_another(UINT adapter_b, D3D11_FENCE_FLAG flags)
{
    ID3D11Device *da, *db;
    ID3D11DeviceContext *ca, *cb;
    open_device(0, &da, &ca);
    open_device(adapter_b, &db, &cb);
    ID3D11Fence *fa = fence(da, 0, flags);
    HANDLE h = share(fa);
    ID3D11Fence *fb = open_shared(db, h);
    assert_true(CloseHandle(h)); /* the opened fence holds the object */
    assert_int_equal(ID3D11Fence_GetCompletedValue(fb), 0);

    ID3D11Buffer *src = e2e_small_buffer(da, D3D11_USAGE_DEFAULT, 11), *stg = e2e_small_buffer(da, D3D11_USAGE_STAGING, 0);
    ID3D11DeviceContext_Flush(ca);
    ID3D11DeviceContext4 *c4a = ctx4(ca), *c4b = ctx4(cb);
    assert_int_equal(ID3D11DeviceContext4_Wait(c4a, fa, 5), S_OK);
    ID3D11DeviceContext_CopyResource(ca, (ID3D11Resource *)stg, (ID3D11Resource *)src);
    ID3D11DeviceContext_Flush(ca);
    sleep_ms(30);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(ca, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, D3D11_MAP_FLAG_DO_NOT_WAIT,
                                             &m),
                     DXGI_ERROR_WAS_STILL_DRAWING); /* held by the wait */
    assert_int_equal(ID3D11DeviceContext4_Signal(c4b, fb, 5), S_OK);
    assert_int_equal(ID3D11Fence_SetEventOnCompletion(fa, 5, NULL), S_OK); /* seen through A's handle too */
    assert_int_equal(ID3D11DeviceContext_Map(ca, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    static uint8_t want[BYTES];
    e2e_fill(want, sizeof want, 11);
    assert_memory_equal(m.pData, want, BYTES);
    ID3D11DeviceContext_Unmap(ca, (ID3D11Resource *)stg, 0);
    assert_int_equal(ID3D11Fence_GetCompletedValue(fa), 5);
    SAFE_RELEASE(c4a);
    SAFE_RELEASE(c4b);
    SAFE_RELEASE(stg);
    SAFE_RELEASE(src);
    SAFE_RELEASE(fb);
    SAFE_RELEASE(fa);
    SAFE_RELEASE(cb);
    SAFE_RELEASE(db);
    SAFE_RELEASE(ca);
    SAFE_RELEASE(da);
}

/* rule: runtime.fence-wait-holds-later-work */
/* rule: runtime.fence-shared-by-nt-handle */
static void shared_fence_orders_two_devices_of_one_adapter(void **state)
{
    (void)state;
    wait_on_one_device_released_by_a_signal_on_another(0, D3D11_FENCE_FLAG_SHARED);
}

/* rule: runtime.fence-cross-adapter (SHARED_CROSS_ADAPTER opens on the other adapter; SHARED does not) */
static void cross_adapter_fence_orders_devices_of_two_adapters(void **state)
{
    (void)state;
    wait_on_one_device_released_by_a_signal_on_another(1, D3D11_FENCE_FLAG_SHARED_CROSS_ADAPTER);
    ID3D11Device *da, *db;
    ID3D11DeviceContext *ca, *cb;
    open_device(0, &da, &ca);
    open_device(1, &db, &cb);
    ID3D11Fence *fa = fence(da, 0, D3D11_FENCE_FLAG_SHARED), *fb = NULL;
    HANDLE h = share(fa);
    ID3D11Device5 *d5 = dev5(db);
    assert_int_equal(ID3D11Device5_OpenSharedFence(d5, h, &IID_ID3D11Fence, (void **)&fb), E_INVALIDARG);
    assert_null(fb);
    CloseHandle(h);
    SAFE_RELEASE(d5);
    SAFE_RELEASE(fa);
    SAFE_RELEASE(cb);
    SAFE_RELEASE(db);
    SAFE_RELEASE(ca);
    SAFE_RELEASE(da);
}

/* rule: runtime.fence-refusals */
static void bad_arguments_are_refused(void **state)
{
    struct e2e *e = *state;
    ID3D11Device5 *d = dev5(e->dev);
    ID3D11Fence *f = (ID3D11Fence *)(uintptr_t)1;
    assert_int_equal(ID3D11Device5_CreateFence(d, 0, (D3D11_FENCE_FLAG)0x40, &IID_ID3D11Fence, (void **)&f),
                     E_INVALIDARG);
    assert_null(f);
    assert_int_equal(ID3D11Device5_CreateFence(d, 0, D3D11_FENCE_FLAG_NON_MONITORED, &IID_ID3D11Fence, (void **)&f),
                     E_INVALIDARG);
    assert_int_equal(ID3D11Device5_CreateFence(d, 0, D3D11_FENCE_FLAG_NONE, &IID_ID3D11Fence, NULL), E_INVALIDARG);
    /* The first Windows 10 SDK's D3D11_FENCE_FLAG_NONE (0x1, still mingw-w64's) is no option. */
    assert_int_equal(ID3D11Device5_CreateFence(d, 7, (D3D11_FENCE_FLAG)0x1, &IID_ID3D11Fence, (void **)&f), S_OK);
    assert_int_equal(ID3D11Fence_GetCompletedValue(f), 7);
    HANDLE none = NULL;
    assert_int_equal(ID3D11Fence_CreateSharedHandle(f, NULL, GENERIC_ALL, NULL, &none), DXGI_ERROR_INVALID_CALL);
    SAFE_RELEASE(f);
    assert_int_equal(ID3D11Device5_CreateFence(d, 0, D3D11_FENCE_FLAG_NONE, &IID_ID3D11Texture2D, (void **)&f),
                     E_NOINTERFACE);
    assert_null(f);

    /* The fence is a device child of this device. */
    f = fence(e->dev, 0, D3D11_FENCE_FLAG_NONE);
    ID3D11Device *owner = NULL;
    ID3D11Fence_GetDevice(f, &owner);
    assert_ptr_equal(owner, e->dev);
    SAFE_RELEASE(owner);
    void *p = NULL;
    assert_int_equal(ID3D11Fence_QueryInterface(f, &IID_ID3D11DeviceChild, &p), S_OK);
    assert_ptr_equal(p, f);
    IUnknown_Release((IUnknown *)p);

    /* Sharing needs a shared fence, GENERIC_ALL, a pointer and a free name. */
    HANDLE h = (HANDLE)(uintptr_t)1;
    assert_int_equal(ID3D11Fence_CreateSharedHandle(f, NULL, GENERIC_ALL, NULL, &h), DXGI_ERROR_INVALID_CALL);
    assert_null(h);
    ID3D11Fence *shared = fence(e->dev, 0, D3D11_FENCE_FLAG_SHARED);
    assert_int_equal(ID3D11Fence_CreateSharedHandle(shared, NULL, GENERIC_ALL, NULL, NULL), DXGI_ERROR_INVALID_CALL);
    assert_int_equal(ID3D11Fence_CreateSharedHandle(shared, NULL, GENERIC_READ, NULL, &h), DXGI_ERROR_INVALID_CALL);
    static const WCHAR name[] = u"libwddm fence";
    HANDLE named = NULL, again = NULL;
    assert_int_equal(ID3D11Fence_CreateSharedHandle(shared, NULL, GENERIC_ALL, name, &named), S_OK);
    assert_int_equal(ID3D11Fence_CreateSharedHandle(shared, NULL, GENERIC_ALL, name, &again),
                     DXGI_ERROR_NAME_ALREADY_EXISTS);
    CloseHandle(named);

    /* OpenSharedFence: a resource's NT handle or a closed handle is not a fence. */
    D3D11_TEXTURE2D_DESC td = { 16, 16, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D11_USAGE_DEFAULT,
                                D3D11_BIND_SHADER_RESOURCE, 0,
                                D3D11_RESOURCE_MISC_SHARED | D3D11_RESOURCE_MISC_SHARED_NTHANDLE };
    ID3D11Texture2D *tex = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &tex), S_OK);
    IDXGIResource1 *r1 = NULL;
    assert_int_equal(ID3D11Texture2D_QueryInterface(tex, &IID_IDXGIResource1, (void **)&r1), S_OK);
    HANDLE th = NULL;
    assert_int_equal(IDXGIResource1_CreateSharedHandle(r1, NULL, DXGI_SHARED_RESOURCE_READ, NULL, &th), S_OK);
    ID3D11Fence *opened = (ID3D11Fence *)(uintptr_t)1;
    assert_int_equal(ID3D11Device5_OpenSharedFence(d, th, &IID_ID3D11Fence, (void **)&opened), E_INVALIDARG);
    assert_null(opened);
    CloseHandle(th);
    HANDLE fh = share(shared);
    CloseHandle(fh);
    assert_int_equal(ID3D11Device5_OpenSharedFence(d, fh, &IID_ID3D11Fence, (void **)&opened), E_INVALIDARG);

    /* SetEventOnCompletion: a handle that is not an event. */
    assert_int_equal(ID3D11Fence_SetEventOnCompletion(f, 1, (HANDLE)(uintptr_t)0x1234), E_INVALIDARG);

    /* Signal / Wait: only on the immediate context, only with a fence of this device. */
    ID3D11DeviceContext *dc = NULL;
    assert_int_equal(ID3D11Device_CreateDeferredContext(e->dev, 0, &dc), S_OK);
    ID3D11DeviceContext4 *dc4 = ctx4(dc), *ic4 = ctx4(e->ctx);
    assert_int_equal(ID3D11DeviceContext4_Signal(dc4, f, 1), DXGI_ERROR_INVALID_CALL);
    assert_int_equal(ID3D11DeviceContext4_Wait(dc4, f, 1), DXGI_ERROR_INVALID_CALL);
    assert_int_equal(ID3D11DeviceContext4_Signal(ic4, NULL, 1), E_INVALIDARG);
    assert_int_equal(ID3D11DeviceContext4_Wait(ic4, (ID3D11Fence *)tex, 1), E_INVALIDARG);
    ID3D11Device *other;
    ID3D11DeviceContext *octx;
    open_device(0, &other, &octx);
    ID3D11Fence *foreign = fence(other, 0, D3D11_FENCE_FLAG_NONE);
    assert_int_equal(ID3D11DeviceContext4_Signal(ic4, foreign, 1), E_INVALIDARG);
    assert_int_equal(ID3D11Fence_GetCompletedValue(foreign), 0);
    assert_int_equal(ID3D11Fence_GetCompletedValue(f), 0); /* nothing refused reached a fence */
    SAFE_RELEASE(foreign);
    SAFE_RELEASE(octx);
    SAFE_RELEASE(other);
    SAFE_RELEASE(dc4);
    SAFE_RELEASE(ic4);
    SAFE_RELEASE(dc);
    SAFE_RELEASE(r1);
    SAFE_RELEASE(tex);
    SAFE_RELEASE(shared);
    SAFE_RELEASE(f);
    SAFE_RELEASE(d);
}

/* rule: runtime.flush1-event-after-work (as EnqueueSetEvent: not set while the copy waits, set after) */
static void flush1_sets_its_event_once_the_work_is_done(void **state)
{
    struct e2e *e = *state;
    ID3D11DeviceContext3 *c3 = NULL;
    assert_int_equal(ID3D11DeviceContext_QueryInterface(e->ctx, &IID_ID3D11DeviceContext3, (void **)&c3), S_OK);
    ID3D11Buffer *src = e2e_small_buffer(e->dev, D3D11_USAGE_DEFAULT, 13), *stg = e2e_small_buffer(e->dev, D3D11_USAGE_STAGING, 0);
    ID3D11DeviceContext_Flush(e->ctx);
    HANDLE ev = CreateEventW(NULL, FALSE, FALSE, NULL);
    wddm_swgpu_set_paused(1);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)src);
    ID3D11DeviceContext3_Flush1(c3, D3D11_CONTEXT_TYPE_ALL, ev);
    sleep_ms(20);
    assert_int_equal(WaitForSingleObject(ev, 0), WAIT_TIMEOUT);
    wddm_swgpu_set_paused(0);
    assert_int_equal(WaitForSingleObject(ev, 5000), WAIT_OBJECT_0);
    assert_copied_without_wait(e->ctx, stg, 13);
    /* A context type that is not one: refused, the event untouched. */
    ID3D11DeviceContext3_Flush1(c3, (D3D11_CONTEXT_TYPE)9, ev);
    sleep_ms(10);
    assert_int_equal(WaitForSingleObject(ev, 0), WAIT_TIMEOUT);
    CloseHandle(ev);
    SAFE_RELEASE(stg);
    SAFE_RELEASE(src);
    SAFE_RELEASE(c3);
}

/* rule: runtime.fence-lost-device-max (a timeout recovery: the fence reads UINT64_MAX, its waiter wakes) */
static void a_lost_devices_fence_reads_the_maximum(void **state)
{
    (void)state;
    ID3D11Device *dev;
    ID3D11DeviceContext *ctx;
    open_device(0, &dev, &ctx);
    ID3D11Fence *f = fence(dev, 0, D3D11_FENCE_FLAG_NONE);
    ID3D11DeviceContext4 *c = ctx4(ctx);
    HANDLE ev = CreateEventW(NULL, FALSE, FALSE, NULL);
    assert_int_equal(ID3D11Fence_SetEventOnCompletion(f, 1, ev), S_OK);
    ID3D11Buffer *src = e2e_small_buffer(dev, D3D11_USAGE_DEFAULT, 15), *stg = e2e_small_buffer(dev, D3D11_USAGE_STAGING, 0);
    ID3D11DeviceContext_Flush(ctx);
    wddm_swgpu_inject_hang();
    ID3D11DeviceContext_CopyResource(ctx, (ID3D11Resource *)stg, (ID3D11Resource *)src);
    assert_int_equal(ID3D11DeviceContext4_Signal(c, f, 1), S_OK); /* the hung buffer holds the work before it */
    assert_int_equal(WaitForSingleObject(ev, 10000), WAIT_OBJECT_0);
    assert_int_equal(ID3D11Fence_GetCompletedValue(f), UINT64_MAX);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(dev), DXGI_ERROR_DEVICE_HUNG);
    assert_int_equal(ID3D11DeviceContext4_Signal(c, f, 2), DXGI_ERROR_DEVICE_REMOVED);
    CloseHandle(ev);
    SAFE_RELEASE(stg);
    SAFE_RELEASE(src);
    SAFE_RELEASE(c);
    SAFE_RELEASE(f);
    SAFE_RELEASE(ctx);
    SAFE_RELEASE(dev);
}

int main(void)
{
    setenv("WDDM_ADAPTER_COUNT", "2", 1);
    setenv("WDDM_TDR_DELAY_MS", "200", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(device_and_context_answer_the_11_2_to_11_4_interfaces, e2e_setup,
                                        e2e_teardown),
        cmocka_unit_test_setup_teardown(signal_reaches_the_value_after_the_work_before_it, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(set_event_on_completion_without_an_event_blocks_until_reached, e2e_setup,
                                        e2e_teardown),
        cmocka_unit_test(shared_fence_orders_two_devices_of_one_adapter),
        cmocka_unit_test(cross_adapter_fence_orders_devices_of_two_adapters),
        cmocka_unit_test_setup_teardown(bad_arguments_are_refused, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(flush1_sets_its_event_once_the_work_is_done, e2e_setup, e2e_teardown),
        cmocka_unit_test(a_lost_devices_fence_reads_the_maximum),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
