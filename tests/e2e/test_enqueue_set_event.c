/* IDXGIDevice2::EnqueueSetEvent (issue 15 §3): "flushes any outstanding rendering commands and
 * sets the specified event object when all previously submitted rendering commands complete"
 * (DXGI reference). Proved with the GPU paused: not set while the copy is pending, set once it
 * ran, and then the copy's result is there without waiting. Runs in both driver models. */
#include "e2e.h"

#include <dxgi1_2.h>

#define BYTES E2E_SMALL_BYTES

/* rule: dxgi.idxgidevice2-enqueuesetevent-flushes (GPU paused: not set; resumed: set, a DO_NOT_WAIT Map finds the copy done) */
static void the_event_is_set_when_the_work_before_it_completed(void **state)
{
    struct e2e *e = *state;
    IDXGIDevice2 *dxgi = NULL;
    assert_int_equal(ID3D11Device_QueryInterface(e->dev, &IID_IDXGIDevice2, (void **)&dxgi), S_OK);
    ID3D11Buffer *src = e2e_small_buffer(e->dev, D3D11_USAGE_DEFAULT, 5), *stg = e2e_small_buffer(e->dev, D3D11_USAGE_STAGING, 0);
    HANDLE ev = CreateEventW(NULL, FALSE, FALSE, NULL);
    assert_non_null(ev);
    ID3D11DeviceContext_Flush(e->ctx);
    wddm_swgpu_set_paused(1);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)src); /* not flushed */
    assert_int_equal(IDXGIDevice2_EnqueueSetEvent(dxgi, ev), S_OK);
    assert_int_equal(WaitForSingleObject(ev, 0), WAIT_TIMEOUT);
    wddm_swgpu_set_paused(0);
    assert_int_equal(WaitForSingleObject(ev, INFINITE), WAIT_OBJECT_0);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ,
                                             D3D11_MAP_FLAG_DO_NOT_WAIT, &m), S_OK); /* the copy is done */
    static uint8_t want[BYTES];
    e2e_fill(want, sizeof want, 5);
    assert_memory_equal(m.pData, want, BYTES);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)stg, 0);
    /* Nothing pending: set all the same. */
    assert_int_equal(IDXGIDevice2_EnqueueSetEvent(dxgi, ev), S_OK);
    assert_int_equal(WaitForSingleObject(ev, INFINITE), WAIT_OBJECT_0);
    /* Not an event. */
    assert_int_equal(IDXGIDevice2_EnqueueSetEvent(dxgi, NULL), E_INVALIDARG);
    assert_true(CloseHandle(ev));
    assert_int_equal(IDXGIDevice2_EnqueueSetEvent(dxgi, ev), E_INVALIDARG); /* closed */
    SAFE_RELEASE(stg);
    SAFE_RELEASE(src);
    SAFE_RELEASE(dxgi);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(the_event_is_set_when_the_work_before_it_completed, e2e_setup, e2e_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
