/*
 * test_errors_and_threads.c - the error translations at the runtime's two boundaries
 * (kernel NTSTATUS -> callback HRESULT, docs/semantics.md §3.2/§3.6; DDI error -> API HRESULT
 * via pfnSetErrorCb, §4.2-4.4) and free-threaded object creation on one device (the device
 * lock serialises the UMD calls, runtime.h).
 */
#include <pthread.h>

#include "runtime/mock_umd.h"
#include "runtime/runtime.h"

/* rule: runtime.kernel-ntstatus-callback-hresult */
static void kernel_status_becomes_callback_hresult(void **state)
{
    static const struct { NTSTATUS st; HRESULT hr; } cases[] = {
        { STATUS_SUCCESS, S_OK },
        { STATUS_GRAPHICS_ALLOCATION_BUSY, D3DDDIERR_WASSTILLDRAWING },
        { STATUS_DEVICE_REMOVED, D3DDDIERR_DEVICEREMOVED },
        { STATUS_NO_MEMORY, E_OUTOFMEMORY },
        { STATUS_GRAPHICS_NO_VIDEO_MEMORY, E_OUTOFMEMORY },
        { STATUS_INVALID_PARAMETER, E_INVALIDARG },
        { STATUS_INVALID_HANDLE, E_INVALIDARG },
        { STATUS_GRAPHICS_CANT_EVICT_PINNED_ALLOCATION, D3DDDIERR_CANTEVICTPINNEDALLOCATION },
        { STATUS_UNSUCCESSFUL, E_FAIL },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        assert_int_equal(rt_ntstatus_to_hresult(cases[i].st), cases[i].hr);
}

/* rule: runtime.d3dddierr-deviceremoved-ddi-removes */
static void create_resource_device_removed_removes_the_device(void **state)
{
    struct mock_env *env = *state;
    D3D11_TEXTURE2D_DESC td = { 8, 8, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D11_USAGE_DEFAULT,
                                D3D11_BIND_RENDER_TARGET, 0, 0 };
    ID3D11Texture2D *t = NULL;
    mock.create_error = D3DDDIERR_DEVICEREMOVED;
    assert_int_equal(ID3D11Device_CreateTexture2D(env->dev, &td, NULL, &t), DXGI_ERROR_DEVICE_REMOVED);
    assert_null(t);
    assert_int_equal(mock.destroy_resource, 0);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(env->dev), DXGI_ERROR_DEVICE_REMOVED);
    /* From now on creation fails with the same code, before the UMD. */
    assert_int_equal(ID3D11Device_CreateTexture2D(env->dev, &td, NULL, &t), DXGI_ERROR_DEVICE_REMOVED);
    assert_int_equal(mock.create_resource, 1);
}

/* rule: runtime.error-ddi-may-not-report-critical */
static void create_resource_forbidden_error_is_critical(void **state)
{
    struct mock_env *env = *state;
    D3D11_BUFFER_DESC bd = { 64, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0 };
    ID3D11Buffer *b = NULL;
    /* DXGI_DDI_ERR_WASSTILLDRAWING is not an error CreateResource may report (docs/semantics.md §4.2). */
    mock.create_error = DXGI_DDI_ERR_WASSTILLDRAWING;
    assert_int_equal(ID3D11Device_CreateBuffer(env->dev, &bd, NULL, &b), DXGI_ERROR_DEVICE_REMOVED);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(env->dev), DXGI_ERROR_DRIVER_INTERNAL_ERROR);
}

/* rule: runtime.after-d3dddierr-deviceremoved-map */
static void map_device_removed_means_no_unmap(void **state)
{
    struct mock_env *env = *state;
    D3D11_BUFFER_DESC bd = { 64, D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE, 0, 0 };
    ID3D11Buffer *b;
    assert_int_equal(ID3D11Device_CreateBuffer(env->dev, &bd, NULL, &b), S_OK);
    D3D11_MAPPED_SUBRESOURCE m;
    mock.map_error = D3DDDIERR_DEVICEREMOVED;
    assert_int_equal(ID3D11DeviceContext_Map(env->ctx, (ID3D11Resource *)b, 0, D3D11_MAP_WRITE_DISCARD, 0, &m),
                     DXGI_ERROR_DEVICE_REMOVED);
    /* docs/semantics.md §4.3: after DEVICEREMOVED from a map the runtime does not call unmap. */
    ID3D11DeviceContext_Unmap(env->ctx, (ID3D11Resource *)b, 0);
    assert_int_equal(mock.slot[MOCK_UNMAP_IA], 0);
    assert_int_equal(ID3D11DeviceContext_Map(env->ctx, (ID3D11Resource *)b, 0, D3D11_MAP_WRITE_DISCARD, 0, &m),
                     DXGI_ERROR_DEVICE_REMOVED);
    assert_int_equal(mock.slot[MOCK_MAP_IA_DISCARD], 1);
    /* Release still destroys the resource in the driver. */
    ID3D11Buffer_Release(b);
    assert_int_equal(mock.destroy_resource, 1);
}

/* The removal reason comes from the kernel (device.c rt_removed_reason_from_kernel, citing the
 * DXGI_ERROR / GetDeviceRemovedReason documentation): the device the kernel lost to its own
 * hang or fault is HUNG, an innocent victim of another's recovery RESET, anything else REMOVED;
 * ACTIVE keeps the runtime's own reason. */
/* rule: runtime.getdeviceremovedreason-comes-kernel-when (table) */
static void removed_reason_table_follows_the_kernel_state(void **state)
{
    (void)state;
    static const struct { D3DKMT_DEVICEEXECUTION_STATE st; HRESULT local, hr; } cases[] = {
        { D3DKMT_DEVICEEXECUTION_ACTIVE, DXGI_ERROR_DEVICE_REMOVED, DXGI_ERROR_DEVICE_REMOVED },
        { D3DKMT_DEVICEEXECUTION_ACTIVE, DXGI_ERROR_DRIVER_INTERNAL_ERROR, DXGI_ERROR_DRIVER_INTERNAL_ERROR },
        { D3DKMT_DEVICEEXECUTION_HUNG, DXGI_ERROR_DEVICE_REMOVED, DXGI_ERROR_DEVICE_HUNG },
        { D3DKMT_DEVICEEXECUTION_HUNG, DXGI_ERROR_DRIVER_INTERNAL_ERROR, DXGI_ERROR_DEVICE_HUNG },
        { D3DKMT_DEVICEEXECUTION_RESET, DXGI_ERROR_DEVICE_REMOVED, DXGI_ERROR_DEVICE_RESET },
        { D3DKMT_DEVICEEXECUTION_ERROR_DMAFAULT, DXGI_ERROR_DEVICE_REMOVED, DXGI_ERROR_DEVICE_HUNG },
        { D3DKMT_DEVICEEXECUTION_ERROR_DMAPAGEFAULT, DXGI_ERROR_DEVICE_REMOVED, DXGI_ERROR_DEVICE_HUNG },
        { D3DKMT_DEVICEEXECUTION_ERROR_OUTOFMEMORY, DXGI_ERROR_DRIVER_INTERNAL_ERROR, DXGI_ERROR_DEVICE_REMOVED },
        { D3DKMT_DEVICEEXECUTION_STOPPED, DXGI_ERROR_DRIVER_INTERNAL_ERROR, DXGI_ERROR_DEVICE_REMOVED },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        assert_int_equal(rt_removed_reason_from_kernel(cases[i].st, cases[i].local), cases[i].hr);
}

/* A DDI's D3DDDIERR_DEVICEREMOVED (here from a map) removes the device; the reason is asked of
 * the kernel, which still has the device ACTIVE (nothing went wrong on the GPU): the runtime's
 * own DXGI_ERROR_DEVICE_REMOVED stands, and the kernel device is left as it was. */
/* rule: runtime.ddi-d3dddierr-deviceremoved-kernel */
/* rule: runtime.getdeviceremovedreason-asks-kernel-while (S_OK while ACTIVE) */
static void ddi_device_removed_reason_comes_from_the_active_kernel_device(void **state)
{
    struct mock_env *env = *state;
    struct rt_device *rt = rt_device_from_iface(env->dev);
    D3DKMT_GETDEVICESTATE gs = { .hDevice = rt->km_device, .StateType = D3DKMT_DEVICESTATE_EXECUTION };
    assert_int_equal(D3DKMTGetDeviceState(&gs), STATUS_SUCCESS);
    assert_int_equal(gs.ExecutionState, D3DKMT_DEVICEEXECUTION_ACTIVE);
    /* Not lost yet: the kernel says ACTIVE, so GetDeviceRemovedReason answers S_OK. */
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(env->dev), S_OK);

    D3D11_BUFFER_DESC bd = { 64, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0, 0 };
    ID3D11Buffer *b;
    assert_int_equal(ID3D11Device_CreateBuffer(env->dev, &bd, NULL, &b), S_OK);
    D3D11_MAPPED_SUBRESOURCE m;
    mock.map_error = D3DDDIERR_DEVICEREMOVED;
    assert_int_equal(ID3D11DeviceContext_Map(env->ctx, (ID3D11Resource *)b, 0, D3D11_MAP_READ, 0, &m),
                     DXGI_ERROR_DEVICE_REMOVED);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(env->dev), DXGI_ERROR_DEVICE_REMOVED);
    assert_int_equal(D3DKMTGetDeviceState(&gs), STATUS_SUCCESS);
    assert_int_equal(gs.ExecutionState, D3DKMT_DEVICEEXECUTION_ACTIVE);
    /* Every later call fails with DXGI_ERROR_DEVICE_REMOVED, whatever the reason says. */
    ID3D11Buffer *b2 = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(env->dev, &bd, NULL, &b2), DXGI_ERROR_DEVICE_REMOVED);
    assert_null(b2);
    assert_int_equal(ID3D11DeviceContext_Map(env->ctx, (ID3D11Resource *)b, 0, D3D11_MAP_READ, 0, &m),
                     DXGI_ERROR_DEVICE_REMOVED);
    ID3D11Buffer_Release(b);
}

struct thread_arg {
    ID3D11Device *dev;
    int failures;
};

static void *creator(void *p)
{
    struct thread_arg *a = p;
    for (int i = 0; i < 200; i++) {
        D3D11_BUFFER_DESC bd = { 16u * (UINT)(1 + i % 8), D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0 };
        ID3D11Buffer *b = NULL;
        if (ID3D11Device_CreateBuffer(a->dev, &bd, NULL, &b) != S_OK) {
            a->failures++;
            continue;
        }
        ID3D11Buffer *extra;
        ID3D11Buffer_QueryInterface(b, &IID_ID3D11Buffer, (void **)&extra);
        ID3D11Buffer_Release(extra);
        ID3D11Buffer_Release(b);
    }
    return NULL;
}

/* rule: runtime.creation-calls-several-threads-one */
static void concurrent_creation_on_one_device(void **state)
{
    struct mock_env *env = *state;
    pthread_t th[4];
    struct thread_arg args[4];
    for (int i = 0; i < 4; i++) {
        args[i].dev = env->dev;
        args[i].failures = 0;
        assert_int_equal(pthread_create(&th[i], NULL, creator, &args[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        assert_int_equal(args[i].failures, 0);
    }
    assert_int_equal(mock.create_resource, 800);
    assert_int_equal(mock.destroy_resource, 800);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kernel_status_becomes_callback_hresult),
        cmocka_unit_test_setup_teardown(create_resource_device_removed_removes_the_device, mock_setup, mock_teardown),
        cmocka_unit_test_setup_teardown(create_resource_forbidden_error_is_critical, mock_setup, mock_teardown),
        cmocka_unit_test_setup_teardown(map_device_removed_means_no_unmap, mock_setup, mock_teardown),
        cmocka_unit_test(removed_reason_table_follows_the_kernel_state),
        cmocka_unit_test_setup_teardown(ddi_device_removed_reason_comes_from_the_active_kernel_device, mock_setup,
                                        mock_teardown),
        cmocka_unit_test_setup_teardown(concurrent_creation_on_one_device, mock_setup, mock_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
