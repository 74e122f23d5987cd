/* ID3D11Device4::RegisterDeviceRemovedEvent / UnregisterDeviceRemoved (MicrosoftDocs sdk-api
 * d3d11_4): a registered event is set when the device becomes removed, here by a timeout recovery
 * the kernel did on its own (no call of the device saw it first); an event unregistered before is
 * not set; one registered on a device already removed is set at once, with S_OK ("No
 * device-removed error code will be returned"); the device's destruction sets none ("not signaled
 * during device destruction"). Runs in both driver models. */
#include "e2e.h"

#include <d3d11_4.h>

static ID3D11Device4 *dev4(ID3D11Device *dev)
{
    ID3D11Device4 *d = NULL;
    assert_int_equal(ID3D11Device_QueryInterface(dev, &IID_ID3D11Device4, (void **)&d), S_OK);
    return d;
}

/* rule: runtime.device-removed-event-set-once */
static void the_event_is_set_when_a_recovery_removes_the_device(void **state)
{
    struct e2e *e = *state;
    ID3D11Device4 *d = dev4(e->dev);
    HANDLE kept = CreateEventW(NULL, TRUE, FALSE, NULL), dropped = CreateEventW(NULL, TRUE, FALSE, NULL);
    DWORD c1 = 0, c2 = 0;
    assert_int_equal(ID3D11Device4_RegisterDeviceRemovedEvent(d, kept, &c1), S_OK);
    assert_int_equal(ID3D11Device4_RegisterDeviceRemovedEvent(d, dropped, &c2), S_OK);
    assert_int_not_equal(c1, c2);
    ID3D11Device4_UnregisterDeviceRemoved(d, c2);
    ID3D11Device4_UnregisterDeviceRemoved(d, 12345); /* not a cookie: nothing */
    assert_int_equal(WaitForSingleObject(kept, 0), WAIT_TIMEOUT);

    ID3D11Buffer *src = e2e_small_buffer(e->dev, D3D11_USAGE_DEFAULT, 3), *stg = e2e_small_buffer(e->dev, D3D11_USAGE_STAGING, 0);
    ID3D11DeviceContext_Flush(e->ctx);
    wddm_swgpu_inject_hang();
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)src);
    ID3D11DeviceContext_Flush(e->ctx); /* the hung DMA buffer; nothing of the device is called after */
    assert_int_equal(WaitForSingleObject(kept, 10000), WAIT_OBJECT_0);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(e->dev), DXGI_ERROR_DEVICE_HUNG);
    assert_int_equal(WaitForSingleObject(dropped, 0), WAIT_TIMEOUT);

    /* Registered on a removed device: set at once, and S_OK. */
    HANDLE late = CreateEventW(NULL, TRUE, FALSE, NULL);
    DWORD c3 = 0;
    assert_int_equal(ID3D11Device4_RegisterDeviceRemovedEvent(d, late, &c3), S_OK);
    assert_int_equal(WaitForSingleObject(late, 0), WAIT_OBJECT_0);
    CloseHandle(late);
    CloseHandle(dropped);
    CloseHandle(kept);
    SAFE_RELEASE(stg);
    SAFE_RELEASE(src);
    SAFE_RELEASE(d);
}

/* rule: runtime.device-removed-event-set-once (destruction sets none; the runtime keeps its own reference) */
static void destroying_the_device_sets_nothing(void **state)
{
    (void)state;
    ID3D11Device *dev = NULL;
    ID3D11DeviceContext *ctx = NULL;
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev, NULL,
                                       &ctx),
                     S_OK);
    ID3D11Device4 *d = dev4(dev);
    HANDLE ev = CreateEventW(NULL, TRUE, FALSE, NULL), closed = CreateEventW(NULL, TRUE, FALSE, NULL);
    DWORD c = 0;
    assert_int_equal(ID3D11Device4_RegisterDeviceRemovedEvent(d, ev, &c), S_OK);
    assert_int_equal(ID3D11Device4_RegisterDeviceRemovedEvent(d, closed, &c), S_OK);
    assert_true(CloseHandle(closed)); /* the application's handle: the registration keeps the event */
    SAFE_RELEASE(d);
    SAFE_RELEASE(ctx);
    SAFE_RELEASE(dev);
    assert_int_equal(WaitForSingleObject(ev, 50), WAIT_TIMEOUT);
    CloseHandle(ev);
}

/* rule: runtime.device-removed-event-set-once (refusals) */
static void bad_arguments_are_refused(void **state)
{
    struct e2e *e = *state;
    ID3D11Device4 *d = dev4(e->dev);
    HANDLE ev = CreateEventW(NULL, TRUE, FALSE, NULL);
    DWORD c = 0;
    assert_int_equal(ID3D11Device4_RegisterDeviceRemovedEvent(d, NULL, &c), E_INVALIDARG);
    assert_int_equal(ID3D11Device4_RegisterDeviceRemovedEvent(d, (HANDLE)(uintptr_t)0x4321, &c), E_INVALIDARG);
    assert_int_equal(ID3D11Device4_RegisterDeviceRemovedEvent(d, ev, NULL), E_INVALIDARG);
    CloseHandle(ev);
    SAFE_RELEASE(d);
}

int main(void)
{
    setenv("WDDM_TDR_DELAY_MS", "200", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(the_event_is_set_when_a_recovery_removes_the_device, e2e_setup, e2e_teardown),
        cmocka_unit_test(destroying_the_device_sets_nothing),
        cmocka_unit_test_setup_teardown(bad_arguments_are_refused, e2e_setup, e2e_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
