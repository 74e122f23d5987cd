/* Issue 14 §4, allocation failure is harmless (docs/rules/common.md): a fixed scenario through the
 * D3D11 API (create the device, buffers and a texture with initial data, a dynamic buffer
 * written with Map(WRITE_DISCARD), GPU copies, Flush, Map(READ) readback, release everything)
 * is run with the Nth allocation of the calling thread failing, for N = 0, 1, 2, ... until a
 * run has no allocation left to fail (wddm_test_fail_alloc_after, <wddm/wddm.h>). At every N:
 *  - a call that returns an HRESULT answers S_OK, E_OUTOFMEMORY (D3D11 API: the documented
 *    out-of-memory code), or DXGI_ERROR_DEVICE_REMOVED when the runtime judged the error
 *    critical (WDK "Handling Errors": an error a DDI may not report loses the device);
 *  - a failure inside a void call (UpdateSubresource, CopyResource, Flush) is never silent:
 *    if the readback is wrong, GetDeviceRemovedReason reports the loss;
 *  - nothing crashes or hangs, and everything is released: the kernel destroyed as many
 *    allocations as it created, and LeakSanitizer (ASan builds) finds no leak at exit. */
/* rule: common.refused-caps-file-sets-nothing-kmd (GpuMmu run) */
/* rule: common.every-allocation-library-goes-through */
/* rule: e2e.every-allocation-failure-fixed-d3d11 (about 90 failures swept in WDDM 1.x, 220–245 in GpuMmu) */
/* rule: vidmm.gpummu-room-park-instance-context-whose (GpuMmu run) */
/* rule: umd.umd-renaming-when-gpu-signal-generation (GpuMmu run: before the fix it hung at the first failed signal) */
#include "e2e/e2e.h"

#include <signal.h>
#include <stdbool.h>
#include <unistd.h>

#include <wddm/wddm.h>

enum { BUF = 64 * 1024, TEX_W = 64, TEX_H = 32 };

struct objects {
    ID3D11Device *dev;
    ID3D11DeviceContext *ctx;
    ID3D11Buffer *def, *dyn, *stg;
    ID3D11Texture2D *tex, *tex_stg;
};

static void release_all(struct objects *o)
{
    SAFE_RELEASE(o->tex_stg);
    SAFE_RELEASE(o->tex);
    SAFE_RELEASE(o->stg);
    SAFE_RELEASE(o->dyn);
    SAFE_RELEASE(o->def);
    SAFE_RELEASE(o->ctx);
    SAFE_RELEASE(o->dev);
}

/* An HRESULT the scenario accepts; false stops the scenario at this step. */
static bool step_ok(HRESULT hr, const char *what, long long n)
{
    if (hr == S_OK)
        return true;
    if (hr != E_OUTOFMEMORY && hr != DXGI_ERROR_DEVICE_REMOVED)
        fail_msg("N=%lld: %s answered 0x%08x, not S_OK, E_OUTOFMEMORY or DXGI_ERROR_DEVICE_REMOVED", n, what,
                 (unsigned)hr);
    return false;
}

static uint8_t buf_data[BUF], dyn_data[BUF], tex_data[TEX_W * TEX_H * 4];

/* Returns 1 when every step succeeded and the readback was right, 0 when a step failed
 * cleanly (or the device reported its loss). */
static int scenario(long long n)
{
    struct objects o = {0};
    int done = 0;
    HRESULT hr = D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &o.dev, NULL,
                                   &o.ctx);
    if (!step_ok(hr, "D3D11CreateDevice", n)) {
        if (o.dev || o.ctx)
            fail_msg("N=%lld: D3D11CreateDevice failed but handed out an object", n);
        return 0;
    }
    D3D11_SUBRESOURCE_DATA init = {.pSysMem = buf_data, .SysMemPitch = BUF};
    D3D11_BUFFER_DESC bd = {.ByteWidth = BUF, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER};
    if (!step_ok(ID3D11Device_CreateBuffer(o.dev, &bd, &init, &o.def), "CreateBuffer(DEFAULT, data)", n))
        goto out;
    bd = (D3D11_BUFFER_DESC){.ByteWidth = BUF, .Usage = D3D11_USAGE_DYNAMIC, .BindFlags = D3D11_BIND_VERTEX_BUFFER,
                             .CPUAccessFlags = D3D11_CPU_ACCESS_WRITE};
    if (!step_ok(ID3D11Device_CreateBuffer(o.dev, &bd, NULL, &o.dyn), "CreateBuffer(DYNAMIC)", n))
        goto out;
    bd = (D3D11_BUFFER_DESC){.ByteWidth = BUF, .Usage = D3D11_USAGE_STAGING, .CPUAccessFlags = D3D11_CPU_ACCESS_READ};
    if (!step_ok(ID3D11Device_CreateBuffer(o.dev, &bd, NULL, &o.stg), "CreateBuffer(STAGING)", n))
        goto out;
    D3D11_TEXTURE2D_DESC td = {.Width = TEX_W, .Height = TEX_H, .MipLevels = 1, .ArraySize = 1,
                               .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = {1, 0},
                               .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_SHADER_RESOURCE};
    D3D11_SUBRESOURCE_DATA tinit = {.pSysMem = tex_data, .SysMemPitch = TEX_W * 4};
    if (!step_ok(ID3D11Device_CreateTexture2D(o.dev, &td, &tinit, &o.tex), "CreateTexture2D(DEFAULT, data)", n))
        goto out;
    td.Usage = D3D11_USAGE_STAGING;
    td.BindFlags = 0;
    td.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    if (!step_ok(ID3D11Device_CreateTexture2D(o.dev, &td, NULL, &o.tex_stg), "CreateTexture2D(STAGING)", n))
        goto out;

    D3D11_MAPPED_SUBRESOURCE m;
    if (!step_ok(ID3D11DeviceContext_Map(o.ctx, (ID3D11Resource *)o.dyn, 0, D3D11_MAP_WRITE_DISCARD, 0, &m),
                 "Map(WRITE_DISCARD)", n))
        goto out;
    memcpy(m.pData, dyn_data, BUF / 2);
    ID3D11DeviceContext_Unmap(o.ctx, (ID3D11Resource *)o.dyn, 0);
    /* The default buffer: its first half from the dynamic one, its second half as created. */
    D3D11_BOX half = {0, 0, 0, BUF / 2, 1, 1};
    ID3D11DeviceContext_CopySubresourceRegion(o.ctx, (ID3D11Resource *)o.def, 0, 0, 0, 0, (ID3D11Resource *)o.dyn,
                                              0, &half);
    ID3D11DeviceContext_CopyResource(o.ctx, (ID3D11Resource *)o.stg, (ID3D11Resource *)o.def);
    ID3D11DeviceContext_CopyResource(o.ctx, (ID3D11Resource *)o.tex_stg, (ID3D11Resource *)o.tex);
    ID3D11DeviceContext_Flush(o.ctx);

    bool right = true;
    if (!step_ok(ID3D11DeviceContext_Map(o.ctx, (ID3D11Resource *)o.stg, 0, D3D11_MAP_READ, 0, &m),
                 "Map(READ) buffer", n))
        goto out;
    right &= memcmp(m.pData, dyn_data, BUF / 2) == 0 && memcmp((uint8_t *)m.pData + BUF / 2, buf_data + BUF / 2,
                                                               BUF / 2) == 0;
    ID3D11DeviceContext_Unmap(o.ctx, (ID3D11Resource *)o.stg, 0);
    if (!step_ok(ID3D11DeviceContext_Map(o.ctx, (ID3D11Resource *)o.tex_stg, 0, D3D11_MAP_READ, 0, &m),
                 "Map(READ) texture", n))
        goto out;
    for (unsigned y = 0; y < TEX_H; y++)
        right &= memcmp((uint8_t *)m.pData + (size_t)y * m.RowPitch, tex_data + y * TEX_W * 4, TEX_W * 4) == 0;
    ID3D11DeviceContext_Unmap(o.ctx, (ID3D11Resource *)o.tex_stg, 0);
    HRESULT removed = ID3D11Device_GetDeviceRemovedReason(o.dev);
    if (!right && removed == S_OK)
        fail_msg("N=%lld: the readback is wrong and the device does not say it was lost", n);
    done = right && removed == S_OK;
out:
    release_all(&o);
    return done;
}

static UINT64 live_allocations(void)
{
    struct wddm_counters c;
    assert_int_equal(wddm_get_counters(&c), STATUS_SUCCESS);
    return c.allocations_created - c.allocations_destroyed;
}

static void every_allocation_failure_is_answered_and_released(void **state)
{
    (void)state;
    e2e_fill(buf_data, sizeof buf_data, 1);
    e2e_fill(dyn_data, sizeof dyn_data, 2);
    e2e_fill(tex_data, sizeof tex_data, 3);
    /* Without failures first: the adapter starts, and the scenario itself is right. */
    assert_int_equal(scenario(-1), 1);
    UINT64 live = live_allocations();
    long long n;
    for (n = 0; n < 20000; n++) {
        alarm(60); /* a failure that leaves a wait forever kills the test instead of hanging it */
        wddm_test_fail_alloc_after(n);
        int done = scenario(n);
        unsigned long long injected = wddm_test_alloc_failures_injected();
        wddm_test_fail_alloc_after(-1);
        alarm(0);
        if (live_allocations() != live)
            fail_msg("N=%lld: %llu kernel allocations left after every object was released", n,
                     (unsigned long long)(live_allocations() - live));
        if (!injected) {
            /* N is past the scenario's last allocation: it must have run to the end. */
            assert_int_equal(done, 1);
            break;
        }
    }
    if (n == 20000)
        fail_msg("the scenario still allocates after 20000 allocations");
    print_message("swept %lld allocation failures\n", n);
    /* And the library is whole afterwards. */
    assert_int_equal(scenario(-1), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_allocation_failure_is_answered_and_released),
    };
    return cmocka_run_group_tests_name("e2e.alloc_failure", tests, NULL, NULL);
}
