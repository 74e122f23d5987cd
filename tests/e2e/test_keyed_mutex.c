/* IDXGIKeyedMutex through the whole stack (issue 15 §3 over issue 20 §3): a Texture2D created
 * with D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX hands out IDXGIKeyedMutex on its device and, opened
 * with OpenSharedResource, on another; AcquireSync / ReleaseSync hand it on by key (the DXGI
 * reference's rules: key 0 first, a timeout is WAIT_TIMEOUT, no recursive acquire, a release by
 * a non-owner is E_FAIL, an owner destroyed while holding it leaves WAIT_ABANDONED), and the
 * GPU work recorded after AcquireSync waits for the previous owner's work: it reads what the
 * owner wrote even when the owner's work is held back on the GPU. Runs in both driver models. */
#include "e2e.h"

#include "e2e/kmt_spy.h"

#define W 64u
#define H 16u

static D3D11_TEXTURE2D_DESC desc(D3D11_USAGE usage, UINT misc)
{
    D3D11_TEXTURE2D_DESC td = { .Width = W, .Height = H, .MipLevels = 1, .ArraySize = 1,
                                .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = { .Count = 1 },
                                .Usage = usage, .MiscFlags = misc };
    if (usage == D3D11_USAGE_STAGING)
        td.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    else
        td.BindFlags = D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET;
    return td;
}

static ID3D11Texture2D *texture_with(struct e2e *d, D3D11_USAGE usage, UINT misc, uint32_t seed)
{
    D3D11_TEXTURE2D_DESC td = desc(usage, misc);
    return e2e_texture_filled(d->dev, &td, seed);
}

static ID3D11Texture2D *texture(struct e2e *d, D3D11_USAGE usage, UINT misc)
{
    return texture_with(d, usage, misc, 0);
}

/* Holds every later GPU command of d's device, whose kernel device the spy saw created
 * (kmt_spy.h): its kernel contexts wait for a fence the test signals with gate_open, so the
 * owner's work cannot have run when the next owner records. */
static D3DKMT_HANDLE gate_close(struct e2e *d, D3DKMT_HANDLE km_device)
{
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 cs = { .hDevice = km_device };
    cs.Info.Type = D3DDDI_MONITORED_FENCE;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&cs), STATUS_SUCCESS);
    ID3D11DeviceContext_Flush(d->ctx);
    UINT64 one = 1;
    UINT gated = 0;
    for (UINT i = 0; i < kmt_spy.contexts; i++) {
        if (kmt_spy.context_device[i] != km_device)
            continue;
        D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMGPU w = { .hContext = kmt_spy.context[i], .ObjectCount = 1,
                                                         .ObjectHandleArray = &cs.hSyncObject,
                                                         .MonitoredFenceValueArray = &one };
        assert_int_equal(D3DKMTWaitForSynchronizationObjectFromGpu(&w), STATUS_SUCCESS);
        gated++;
    }
    assert_true(gated >= 1);
    return cs.hSyncObject;
}

static void gate_open(D3DKMT_HANDLE km_device, D3DKMT_HANDLE gate)
{
    UINT64 one = 1;
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMCPU s = { .hDevice = km_device,
                                                    .ObjectCount = 1, .ObjectHandleArray = &gate,
                                                    .FenceValueArray = &one };
    assert_int_equal(D3DKMTSignalSynchronizationObjectFromCpu(&s), STATUS_SUCCESS);
    D3DKMT_DESTROYSYNCHRONIZATIONOBJECT ds = { .hSyncObject = gate };
    assert_int_equal(D3DKMTDestroySynchronizationObject(&ds), STATUS_SUCCESS);
}

static IDXGIKeyedMutex *keyed_mutex(ID3D11Texture2D *t)
{
    IDXGIKeyedMutex *km = NULL;
    assert_int_equal(ID3D11Texture2D_QueryInterface(t, &IID_IDXGIKeyedMutex, (void **)&km), S_OK);
    return km;
}

static ID3D11Texture2D *open_on(struct e2e *d, ID3D11Texture2D *t)
{
    IDXGIResource *dr = NULL;
    assert_int_equal(ID3D11Texture2D_QueryInterface(t, &IID_IDXGIResource, (void **)&dr), S_OK);
    HANDLE h = NULL;
    assert_int_equal(IDXGIResource_GetSharedHandle(dr, &h), S_OK);
    DXGI_USAGE u = 0;
    assert_int_equal(IDXGIResource_GetUsage(dr, &u), S_OK);
    assert_true(u & DXGI_USAGE_SHARED);
    SAFE_RELEASE(dr);
    ID3D11Texture2D *o = NULL;
    assert_int_equal(ID3D11Device_OpenSharedResource(d->dev, h, &IID_ID3D11Texture2D, (void **)&o), S_OK);
    return o;
}

static void write_texture(struct e2e *d, ID3D11Texture2D *t, uint32_t seed)
{
    static uint8_t data[W * H * 4];
    e2e_fill(data, sizeof data, seed);
    ID3D11DeviceContext_UpdateSubresource(d->ctx, (ID3D11Resource *)t, 0, NULL, data, W * 4, 0);
}

static void expect_staging(struct e2e *d, ID3D11Texture2D *stg, uint32_t seed)
{
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(d->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    static uint8_t want[W * H * 4];
    e2e_fill(want, sizeof want, seed);
    for (UINT r = 0; r < H; r++)
        assert_memory_equal((const uint8_t *)m.pData + (size_t)r * m.RowPitch, want + (size_t)r * W * 4, W * 4);
    ID3D11DeviceContext_Unmap(d->ctx, (ID3D11Resource *)stg, 0);
}

/* rule: runtime.opensharedresource-such-texture-opens */
/* rule: dxgi.acquiresync-first-only-key-0-key */
/* rule: dxgi.gpu-work-recorded-after-acquiresync-runs (the owner's work held back on its GPU until after the next owner's copy was submitted: the copy still reads the owner's bytes; without the GPU wait it reads the old ones) */
static void the_keyed_mutex_hands_the_texture_on_by_key_and_orders_the_gpu_work(void **state)
{
    (void)state;
    struct e2e *a = NULL, *b = NULL;
    assert_int_equal(e2e_setup((void **)&a), 0);
    D3DKMT_HANDLE a_km = kmt_spy.last_device;
    assert_int_equal(e2e_setup((void **)&b), 0);
    ID3D11Texture2D *ta = texture_with(a, D3D11_USAGE_DEFAULT, D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX, 10);
    ID3D11Texture2D *tb = open_on(b, ta);
    IDXGIKeyedMutex *ka = keyed_mutex(ta), *kb = keyed_mutex(tb);
    ID3D11Texture2D *stg = texture(b, D3D11_USAGE_STAGING, 0);

    assert_int_equal(IDXGIKeyedMutex_AcquireSync(kb, 1, 0), WAIT_TIMEOUT); /* first, key 0 only */
    assert_int_equal(IDXGIKeyedMutex_AcquireSync(ka, 0, 0), S_OK);
    assert_int_equal(IDXGIKeyedMutex_AcquireSync(kb, 0, 0), WAIT_TIMEOUT); /* a holds it */
    assert_int_equal(IDXGIKeyedMutex_AcquireSync(ka, 0, 0), E_FAIL);       /* not recursive */
    assert_int_equal(IDXGIKeyedMutex_ReleaseSync(kb, 1), E_FAIL);          /* b does not own it */

    /* a's write and release are held back on a's GPU; b acquires key 1 at once on the CPU and
     * copies: its copy waits on the GPU for a's work, so it reads a's bytes (11), not the
     * texture's earlier content (10), although a's work is let go only after b's copy was
     * submitted. */
    D3DKMT_HANDLE gate = gate_close(a, a_km);
    write_texture(a, ta, 11);
    assert_int_equal(IDXGIKeyedMutex_ReleaseSync(ka, 1), S_OK);
    assert_int_equal(IDXGIKeyedMutex_AcquireSync(kb, 1, INFINITE), S_OK);
    ID3D11DeviceContext_CopyResource(b->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)tb);
    ID3D11DeviceContext_Flush(b->ctx);
    gate_open(a_km, gate);
    expect_staging(b, stg, 11);

    /* And back: b writes, releases to 2; a acquires 2 and reads b's bytes. */
    write_texture(b, tb, 12);
    assert_int_equal(IDXGIKeyedMutex_ReleaseSync(kb, 2), S_OK);
    assert_int_equal(IDXGIKeyedMutex_AcquireSync(ka, 1, 0), WAIT_TIMEOUT); /* released to 2, not 1 */
    assert_int_equal(IDXGIKeyedMutex_AcquireSync(ka, 2, INFINITE), S_OK);
    ID3D11Texture2D *stga = texture(a, D3D11_USAGE_STAGING, 0);
    ID3D11DeviceContext_CopyResource(a->ctx, (ID3D11Resource *)stga, (ID3D11Resource *)ta);
    expect_staging(a, stga, 12);
    assert_int_equal(IDXGIKeyedMutex_ReleaseSync(ka, 0), S_OK);

    SAFE_RELEASE(stga);
    SAFE_RELEASE(stg);
    SAFE_RELEASE(kb);
    SAFE_RELEASE(ka);
    SAFE_RELEASE(tb);
    SAFE_RELEASE(ta);
    e2e_teardown((void **)&b);
    e2e_teardown((void **)&a);
}

/* rule: dxgi.owner-texture-destroyed-while-holds */
static void an_owner_destroyed_while_holding_it_leaves_it_abandoned(void **state)
{
    (void)state;
    struct e2e *a = NULL, *b = NULL;
    assert_int_equal(e2e_setup((void **)&a), 0);
    assert_int_equal(e2e_setup((void **)&b), 0);
    ID3D11Texture2D *ta = texture(a, D3D11_USAGE_DEFAULT, D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX);
    ID3D11Texture2D *tb = open_on(b, ta);
    IDXGIKeyedMutex *ka = keyed_mutex(ta), *kb = keyed_mutex(tb);
    assert_int_equal(IDXGIKeyedMutex_AcquireSync(ka, 0, INFINITE), S_OK);
    SAFE_RELEASE(ka);
    SAFE_RELEASE(ta); /* a's resource goes while it owns the mutex */
    assert_int_equal(IDXGIKeyedMutex_AcquireSync(kb, 0, 0), WAIT_ABANDONED);
    SAFE_RELEASE(kb);
    SAFE_RELEASE(tb);
    e2e_teardown((void **)&b);
    e2e_teardown((void **)&a);
}

/* rule: runtime.usage-default-texture2d-misc-shared */
static void only_keyed_mutex_textures_have_the_interface(void **state)
{
    (void)state;
    struct e2e *a = NULL;
    assert_int_equal(e2e_setup((void **)&a), 0);
    ID3D11Texture2D *plain = texture(a, D3D11_USAGE_DEFAULT, 0);
    ID3D11Texture2D *shared = texture(a, D3D11_USAGE_DEFAULT, D3D11_RESOURCE_MISC_SHARED);
    IDXGIKeyedMutex *km = (IDXGIKeyedMutex *)(uintptr_t)1;
    assert_int_equal(ID3D11Texture2D_QueryInterface(plain, &IID_IDXGIKeyedMutex, (void **)&km), E_NOINTERFACE);
    assert_null(km);
    assert_int_equal(ID3D11Texture2D_QueryInterface(shared, &IID_IDXGIKeyedMutex, (void **)&km), E_NOINTERFACE);
    /* Not with MISC_SHARED (D3D11_RESOURCE_MISC_FLAG), not on a STAGING texture. */
    D3D11_TEXTURE2D_DESC both = desc(D3D11_USAGE_DEFAULT, D3D11_RESOURCE_MISC_SHARED |
                                                            D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX);
    ID3D11Texture2D *t = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(a->dev, &both, NULL, &t), E_INVALIDARG);
    D3D11_TEXTURE2D_DESC stg = desc(D3D11_USAGE_STAGING, D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX);
    assert_int_equal(ID3D11Device_CreateTexture2D(a->dev, &stg, NULL, &t), E_INVALIDARG);
    /* The interface's parent chain: the resource and its device. */
    ID3D11Texture2D *tk = texture(a, D3D11_USAGE_DEFAULT, D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX);
    km = keyed_mutex(tk);
    ID3D11Texture2D *back = NULL;
    assert_int_equal(IDXGIKeyedMutex_QueryInterface(km, &IID_ID3D11Texture2D, (void **)&back), S_OK);
    assert_ptr_equal(back, tk);
    SAFE_RELEASE(back);
    ID3D11Device *dev = NULL;
    assert_int_equal(IDXGIKeyedMutex_GetDevice(km, &IID_ID3D11Device, (void **)&dev), S_OK);
    assert_ptr_equal(dev, a->dev);
    SAFE_RELEASE(dev);
    SAFE_RELEASE(km);
    SAFE_RELEASE(tk);
    SAFE_RELEASE(shared);
    SAFE_RELEASE(plain);
    e2e_teardown((void **)&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_keyed_mutex_hands_the_texture_on_by_key_and_orders_the_gpu_work),
        cmocka_unit_test(an_owner_destroyed_while_holding_it_leaves_it_abandoned),
        cmocka_unit_test(only_keyed_mutex_textures_have_the_interface),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
