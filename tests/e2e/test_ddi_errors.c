/* docs/semantics.md §4.3, §4.4, §8.3: errors a UMD reports through pfnSetErrorCb.
 *  - A DDI that may report only D3DDDIERR_DEVICEREMOVED (ResourceCopy here) reporting anything
 *    else is a critical driver error: the runtime removes the device, GetDeviceRemovedReason
 *    answers DXGI_ERROR_DRIVER_INTERNAL_ERROR, and creation fails with DXGI_ERROR_DEVICE_REMOVED
 *    from then on.
 *  - D3DDDIERR_DEVICEREMOVED from the UMD removes the device with DXGI_ERROR_DEVICE_REMOVED.
 *  - Either way, objects of the removed device still release without leaking, and another
 *    device keeps working.
 * The errors are injected by the shim UMD (shim_umd.h) through the runtime's real
 * core-layer callback, as a broken or lost driver would report them. */
#include "e2e/shim_umd.h"

static ID3D11Buffer *buffer(ID3D11Device *dev, D3D11_USAGE usage, UINT cpu)
{
    D3D11_BUFFER_DESC bd = {.ByteWidth = 256, .Usage = usage, .CPUAccessFlags = cpu,
                            .BindFlags = usage == D3D11_USAGE_STAGING ? 0 : D3D11_BIND_VERTEX_BUFFER};
    ID3D11Buffer *b = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(dev, &bd, NULL, &b), S_OK);
    return b;
}

/* Another device, opened on the reference UMD directly, copies and reads back correctly. */
static void another_device_keeps_working(void)
{
    ID3D11Device *dev = NULL;
    ID3D11DeviceContext *ctx = NULL;
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev, NULL,
                                       &ctx),
                     S_OK);
    ID3D11Buffer *def = buffer(dev, D3D11_USAGE_DEFAULT, 0), *stg = buffer(dev, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ);
    BYTE data[256];
    e2e_fill(data, sizeof data, 9);
    ID3D11DeviceContext_UpdateSubresource(ctx, (ID3D11Resource *)def, 0, NULL, data, 0, 0);
    ID3D11DeviceContext_CopyResource(ctx, (ID3D11Resource *)stg, (ID3D11Resource *)def);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    assert_memory_equal(m.pData, data, sizeof data);
    ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)stg, 0);
    SAFE_RELEASE(def);
    SAFE_RELEASE(stg);
    SAFE_RELEASE(ctx);
    SAFE_RELEASE(dev);
}

static void removed(struct e2e *e, HRESULT reason, HRESULT injected)
{
    ID3D11Buffer *a = buffer(e->dev, D3D11_USAGE_DEFAULT, 0), *b = buffer(e->dev, D3D11_USAGE_DEFAULT, 0);
    ID3D11Buffer *stg = buffer(e->dev, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(e->dev), S_OK);
    shim.copy_error = injected;
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)b, (ID3D11Resource *)a);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(e->dev), reason);
    ID3D11Buffer *c = NULL;
    D3D11_BUFFER_DESC bd = {.ByteWidth = 64, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER};
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &c), DXGI_ERROR_DEVICE_REMOVED);
    assert_null(c);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m),
                     DXGI_ERROR_DEVICE_REMOVED);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(e->dev), reason); /* the first reason sticks */
    SAFE_RELEASE(a);
    SAFE_RELEASE(b);
    SAFE_RELEASE(stg);
    wddm_set_umd_entry(NULL);
    another_device_keeps_working();
}

/* rule: runtime.unmap-copy-update-flush-destroy-may */
static void critical_error_from_a_copy_removes_the_device(void **state)
{
    removed(*state, DXGI_ERROR_DRIVER_INTERNAL_ERROR, E_OUTOFMEMORY);
}

/* rule: runtime.unmap-copy-update-flush-destroy-may (ResourceCopy only: another error → `DXGI_ERROR_DRIVER_INTERNAL_ERROR`, `D3DDDIERR_DEVICEREMOVED` → `DXGI_ERROR_DEVICE_REMOVED`; creation and Map then fail with `DXGI_ERROR_DEVICE_REMOVED`; another device unaffected) */
static void device_removed_from_the_umd_removes_the_device(void **state)
{
    removed(*state, DXGI_ERROR_DEVICE_REMOVED, D3DDDIERR_DEVICEREMOVED);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(critical_error_from_a_copy_removes_the_device, shim_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(device_removed_from_the_umd_removes_the_device, shim_setup, e2e_teardown),
    };
    return cmocka_run_group_tests_name("e2e.ddi_errors", tests, NULL, NULL);
}
