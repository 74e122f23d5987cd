/* Shared resources through the whole stack (issue 6, seed 003): a USAGE_DEFAULT Texture2D
 * created with D3D11_RESOURCE_MISC_SHARED gets a global share handle (IDXGIResource::
 * GetSharedHandle); ID3D11Device::OpenSharedResource on another device opens it (the kernel's
 * D3DKMTQueryResourceInfo / D3DKMTOpenResource, the UMD's pfnOpenResource), the bytes one device
 * writes are the bytes the other reads. A cross-adapter surface the kernel creates
 * (dxgk_create_standard_cross_adapter) opens from D3D11 devices on both adapters. Runs in both
 * driver models (scripts/test.sh runs the e2e suite with configs/gpummu.caps too). */
#include "e2e.h"

#include "dxgkrnl/objects/objects.h"
#include "runtime/runtime.h"

#define W 96u /* 384 bytes a row: the cross-adapter pitch (384) is not the UMD's own (512) */
#define H 30u /* the cross-adapter layout rounds the rows up to 32 */

struct dev {
    ID3D11Device *dev;
    ID3D11DeviceContext *ctx;
};

/* A D3D11 device on adapter `index` (WDDM_D3D11_ADAPTER: libwddm has no IDXGIAdapter yet). */
static void dev_open(struct dev *d, int index)
{
    char v[8];
    snprintf(v, sizeof v, "%d", index);
    setenv("WDDM_D3D11_ADAPTER", v, 1);
    HRESULT hr = D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &d->dev, NULL,
                                   &d->ctx);
    unsetenv("WDDM_D3D11_ADAPTER");
    assert_int_equal(hr, S_OK);
}

static void dev_close(struct dev *d)
{
    SAFE_RELEASE(d->ctx);
    SAFE_RELEASE(d->dev);
}

static D3D11_TEXTURE2D_DESC desc(D3D11_USAGE usage, UINT misc)
{
    D3D11_TEXTURE2D_DESC td = { .Width = W, .Height = H, .MipLevels = 1, .ArraySize = 1,
                                .Format = DXGI_FORMAT_B8G8R8A8_UNORM, .SampleDesc = { .Count = 1 },
                                .Usage = usage, .MiscFlags = misc };
    if (usage == D3D11_USAGE_STAGING)
        td.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    else
        td.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    return td;
}

static ID3D11Texture2D *texture(struct dev *d, D3D11_USAGE usage, UINT misc, uint32_t seed)
{
    D3D11_TEXTURE2D_DESC td = desc(usage, misc);
    return e2e_texture_filled(d->dev, &td, seed);
}

/* Copies `src` to a STAGING texture on d and checks its rows against e2e_fill(seed) (Map(READ)
 * waits for the device's copy, and for every write the copy read: the same allocation). */
static void expect_content(struct dev *d, ID3D11Texture2D *src, uint32_t seed)
{
    ID3D11Texture2D *stg = texture(d, D3D11_USAGE_STAGING, 0, 0);
    ID3D11DeviceContext_CopyResource(d->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)src);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(d->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    static uint8_t want[W * H * 4];
    e2e_fill(want, sizeof want, seed);
    for (UINT r = 0; r < H; r++)
        assert_memory_equal((const uint8_t *)m.pData + (size_t)r * m.RowPitch, want + (size_t)r * W * 4, W * 4);
    ID3D11DeviceContext_Unmap(d->ctx, (ID3D11Resource *)stg, 0);
    SAFE_RELEASE(stg);
}

static HANDLE shared_handle(ID3D11Texture2D *t)
{
    IDXGIResource *dr = NULL;
    assert_int_equal(ID3D11Texture2D_QueryInterface(t, &IID_IDXGIResource, (void **)&dr), S_OK);
    HANDLE h = NULL;
    assert_int_equal(IDXGIResource_GetSharedHandle(dr, &h), S_OK);
    assert_non_null(h);
    SAFE_RELEASE(dr);
    return h;
}

/* Issue 6: MISC_SHARED on one device, OpenSharedResource on another of the same adapter; the
 * opened texture has the creator's description, and each device reads what the other wrote. */
/* rule: runtime.d3d11-usage-default-texture2d-d3d11 */
/* rule: dxgi.id3d11device-opensharedresource (both models) */
static void misc_shared_texture_opens_on_another_device_and_shares_its_bytes(void **state)
{
    (void)state;
    struct dev a, b;
    dev_open(&a, 0);
    dev_open(&b, 0);
    ID3D11Texture2D *made = texture(&a, D3D11_USAGE_DEFAULT, D3D11_RESOURCE_MISC_SHARED, 7);
    expect_content(&a, made, 7); /* a's GPU wrote the initial data (Map waited for it) */
    HANDLE h = shared_handle(made);
    ID3D11Texture2D *opened = NULL;
    assert_int_equal(ID3D11Device_OpenSharedResource(b.dev, h, &IID_ID3D11Texture2D, (void **)&opened), S_OK);
    D3D11_TEXTURE2D_DESC want = desc(D3D11_USAGE_DEFAULT, D3D11_RESOURCE_MISC_SHARED), got;
    ID3D11Texture2D_GetDesc(opened, &got);
    assert_memory_equal(&got, &want, sizeof got);
    expect_content(&b, opened, 7);
    /* b writes (a GPU copy from its own texture), a reads. */
    ID3D11Texture2D *src = texture(&b, D3D11_USAGE_DEFAULT, 0, 8);
    ID3D11DeviceContext_CopyResource(b.ctx, (ID3D11Resource *)opened, (ID3D11Resource *)src);
    expect_content(&b, opened, 8);
    expect_content(&a, made, 8);
    /* The opened texture is shared too: its handle is the same global share. */
    assert_ptr_equal(shared_handle(opened), h);
    SAFE_RELEASE(src);
    SAFE_RELEASE(made); /* the creator goes first: the memory stays for the opener */
    expect_content(&b, opened, 8);
    SAFE_RELEASE(opened);
    dev_close(&b);
    dev_close(&a);
}

/* Bad handles and interfaces are E_INVALIDARG with a line; a texture created without
 * MISC_SHARED has no shared handle. */
/* rule: runtime.d3d11-usage-default-texture2d-d3d11 (mutation-checked) */
/* rule: dxgi.opensharedresource-null-forged-dead (the mips case: **no test**) */
static void bad_handles_and_unshared_resources_are_refused(void **state)
{
    (void)state;
    struct dev a;
    dev_open(&a, 0);
    ID3D11Texture2D *made = texture(&a, D3D11_USAGE_DEFAULT, D3D11_RESOURCE_MISC_SHARED, 3);
    HANDLE h = shared_handle(made);
    void *out = (void *)1;
    assert_int_equal(ID3D11Device_OpenSharedResource(a.dev, NULL, &IID_ID3D11Texture2D, &out), E_INVALIDARG);
    assert_null(out);
    assert_int_equal(ID3D11Device_OpenSharedResource(a.dev, (HANDLE)(uintptr_t)0x1234, &IID_ID3D11Texture2D, &out),
                     E_INVALIDARG);
    assert_int_equal(ID3D11Device_OpenSharedResource(a.dev, h, &IID_ID3D11Buffer, &out), E_INVALIDARG);
    assert_int_equal(ID3D11Device_OpenSharedResource(a.dev, h, &IID_ID3D11Texture2D, NULL), E_INVALIDARG);
    ID3D11Texture2D *plain = texture(&a, D3D11_USAGE_DEFAULT, 0, 0);
    IDXGIResource *dr = NULL;
    assert_int_equal(ID3D11Texture2D_QueryInterface(plain, &IID_IDXGIResource, (void **)&dr), S_OK);
    HANDLE none = (HANDLE)1;
    assert_int_equal(IDXGIResource_GetSharedHandle(dr, &none), E_INVALIDARG);
    assert_null(none);
    SAFE_RELEASE(dr);
    SAFE_RELEASE(plain);
    /* FIXME(sharing): a shared texture of several subresources is created but not opened. */
    D3D11_TEXTURE2D_DESC td = desc(D3D11_USAGE_DEFAULT, D3D11_RESOURCE_MISC_SHARED);
    td.MipLevels = 2;
    ID3D11Texture2D *mips = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(a.dev, &td, NULL, &mips), S_OK);
    assert_int_equal(ID3D11Device_OpenSharedResource(a.dev, shared_handle(mips), &IID_ID3D11Texture2D, &out),
                     E_NOTIMPL);
    SAFE_RELEASE(mips);
    /* WDDM_D3D11_ADAPTER beyond the adapters: refused. */
    setenv("WDDM_D3D11_ADAPTER", "7", 1);
    ID3D11Device *none_dev = NULL;
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &none_dev,
                                       NULL, NULL),
                     E_INVALIDARG);
    unsetenv("WDDM_D3D11_ADAPTER");
    /* Every handle of the resource gone: its global share handle opens nothing. */
    SAFE_RELEASE(made);
    assert_int_equal(ID3D11Device_OpenSharedResource(a.dev, h, &IID_ID3D11Texture2D, &out), E_INVALIDARG);
    dev_close(&a);
}

/* Issue 6 / seed 003: the kernel creates a cross-adapter surface on adapter A (a standard
 * allocation) with the D3D11 description; a D3D11 device on A opens it and writes it with its
 * GPU; a D3D11 device on B opens it, copies it to STAGING and reads A's bytes. A MISC_SHARED
 * texture that is not cross-adapter does not open on B. */
/* rule: kernel.kernel-created-cross-adapter-surface (both models; mutation-checked: the UMD's own pitch → fails) */
/* rule: runtime.d3d11-device-another-adapter-wddm-d3d11 (the bad value: **no test**) */
static void kernel_cross_adapter_surface_written_on_a_is_read_by_d3d11_on_b(void **state)
{
    (void)state;
    /* The kernel's own device on A (the hybrid present path's, played by the test); its
     * enumeration starts both adapters and holds them while the D3D11 devices come. */
    D3DKMT_ADAPTERINFO info[4];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
    assert_int_equal(en.NumAdapters, 2);
    struct dev a, b;
    dev_open(&a, 0);
    dev_open(&b, 1);
    D3DKMT_CREATEDEVICE cd = { .hAdapter = info[0].hAdapter };
    assert_int_equal(D3DKMTCreateDevice(&cd), STATUS_SUCCESS);
    struct rt_shared_runtime_data rd = { .magic = RT_SHARED_RUNTIME_MAGIC, .version = 1,
                                         .dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D,
                                         .tex2d = desc(D3D11_USAGE_DEFAULT, D3D11_RESOURCE_MISC_SHARED) };
    rd.tex2d.BindFlags = 0;
    D3DKMT_HANDLE share = 0;
    UINT pitch = 0;
    assert_int_equal(dxgk_create_standard_cross_adapter(cd.hDevice, W, H, D3DDDIFMT_A8R8G8B8, &rd, sizeof rd, &share,
                                                        NULL, NULL, &pitch),
                     STATUS_SUCCESS);
    assert_int_equal(pitch, 384); /* W * 4 bytes, a multiple of 128 */
    ID3D11Texture2D *on_a = NULL, *on_b = NULL;
    assert_int_equal(ID3D11Device_OpenSharedResource(a.dev, (HANDLE)(uintptr_t)share, &IID_ID3D11Texture2D,
                                                     (void **)&on_a),
                     S_OK);
    ID3D11Texture2D *src = texture(&a, D3D11_USAGE_DEFAULT, 0, 21);
    ID3D11DeviceContext_CopyResource(a.ctx, (ID3D11Resource *)on_a, (ID3D11Resource *)src);
    expect_content(&a, on_a, 21); /* A's GPU is done (cross-adapter sync is the application's) */
    assert_int_equal(ID3D11Device_OpenSharedResource(b.dev, (HANDLE)(uintptr_t)share, &IID_ID3D11Texture2D,
                                                     (void **)&on_b),
                     S_OK);
    expect_content(&b, on_b, 21);
    /* The kernel's handles go (its device); both openers keep the pages. */
    D3DKMT_DESTROYDEVICE dd = { .hDevice = cd.hDevice };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    for (ULONG i = 0; i < en.NumAdapters; i++) {
        D3DKMT_CLOSEADAPTER c = { .hAdapter = info[i].hAdapter };
        assert_int_equal(D3DKMTCloseAdapter(&c), STATUS_SUCCESS);
    }
    expect_content(&b, on_b, 21);
    /* A plain MISC_SHARED texture of A is not reachable from B. */
    ID3D11Texture2D *local = texture(&a, D3D11_USAGE_DEFAULT, D3D11_RESOURCE_MISC_SHARED, 5);
    void *out = NULL;
    assert_int_equal(ID3D11Device_OpenSharedResource(b.dev, shared_handle(local), &IID_ID3D11Texture2D, &out),
                     E_INVALIDARG);
    SAFE_RELEASE(local);
    SAFE_RELEASE(src);
    SAFE_RELEASE(on_a);
    SAFE_RELEASE(on_b);
    dev_close(&b);
    dev_close(&a);
}

static LUID device_luid(struct dev *d)
{
    IDXGIDevice *dx = NULL;
    IDXGIAdapter *ad = NULL;
    DXGI_ADAPTER_DESC desc;
    assert_int_equal(ID3D11Device_QueryInterface(d->dev, &IID_IDXGIDevice, (void **)&dx), S_OK);
    assert_int_equal(IDXGIDevice_GetAdapter(dx, &ad), S_OK);
    assert_int_equal(IDXGIAdapter_GetDesc(ad, &desc), S_OK);
    SAFE_RELEASE(ad);
    SAFE_RELEASE(dx);
    return desc.AdapterLuid;
}

static IDXGIKeyedMutex *keyed_mutex_of(ID3D11Texture2D *t)
{
    IDXGIKeyedMutex *km = NULL;
    assert_int_equal(ID3D11Texture2D_QueryInterface(t, &IID_IDXGIKeyedMutex, (void **)&km), S_OK);
    return km;
}

/* Windows shares a resource only on the adapter that created it (IDXGIFactory2::
 * GetSharedResourceAdapterLuid: "You cannot share resources across adapters"), so a keyed
 * mutex is passed between devices of that adapter: the application asks the factory which one.
 * A keyed-mutex texture of adapter 1 shared by NT handle: the factory names adapter 1; a device
 * of adapter 0 cannot open it (E_INVALIDARG: neither the texture nor its keyed mutex), a second
 * device of adapter 1 can, and the two hand the texture over by key. The legacy form
 * (GetSharedHandle) does not open on adapter 0 either. */
/* rule: dxgi.shared-resource-adapter-luid */
/* rule: dxgi.keyed-mutex-only-on-creator-adapter */
static void a_keyed_mutex_texture_opens_only_on_the_adapter_the_factory_names(void **state)
{
    (void)state;
    D3DKMT_ADAPTERINFO info[4]; /* both adapters started and held while the devices come */
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
    assert_int_equal(en.NumAdapters, 2);
    struct dev a0, a1, a1b;
    dev_open(&a0, 0);
    dev_open(&a1, 1);
    dev_open(&a1b, 1);
    LUID l0 = device_luid(&a0), l1 = device_luid(&a1);
    assert_false(l0.LowPart == l1.LowPart && l0.HighPart == l1.HighPart);
    ID3D11Texture2D *t = texture(&a1, D3D11_USAGE_DEFAULT,
                                 D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX | D3D11_RESOURCE_MISC_SHARED_NTHANDLE, 41);
    IDXGIResource1 *r1 = NULL;
    assert_int_equal(ID3D11Texture2D_QueryInterface(t, &IID_IDXGIResource1, (void **)&r1), S_OK);
    HANDLE nt = NULL;
    assert_int_equal(IDXGIResource1_CreateSharedHandle(r1, NULL, DXGI_SHARED_RESOURCE_READ | DXGI_SHARED_RESOURCE_WRITE,
                                                        NULL, &nt),
                     S_OK);
    IDXGIFactory2 *f = NULL;
    assert_int_equal(CreateDXGIFactory1(&IID_IDXGIFactory2, (void **)&f), S_OK);
    LUID got = { 0 };
    assert_int_equal(IDXGIFactory2_GetSharedResourceAdapterLuid(f, nt, &got), S_OK);
    assert_true(got.LowPart == l1.LowPart && got.HighPart == l1.HighPart);
    assert_int_equal(IDXGIFactory2_GetSharedResourceAdapterLuid(f, NULL, &got), DXGI_ERROR_INVALID_CALL);
    assert_int_equal(IDXGIFactory2_GetSharedResourceAdapterLuid(f, nt, NULL), E_INVALIDARG);
    /* Adapter 0: refused, nothing returned. */
    ID3D11Device1 *d0 = NULL, *d1b = NULL;
    assert_int_equal(ID3D11Device_QueryInterface(a0.dev, &IID_ID3D11Device1, (void **)&d0), S_OK);
    assert_int_equal(ID3D11Device_QueryInterface(a1b.dev, &IID_ID3D11Device1, (void **)&d1b), S_OK);
    void *out = (void *)&out;
    assert_int_equal(ID3D11Device1_OpenSharedResource1(d0, nt, &IID_ID3D11Texture2D, &out), E_INVALIDARG);
    assert_null(out);
    /* Adapter 1's second device: the texture and its keyed mutex. */
    ID3D11Texture2D *opened = NULL;
    assert_int_equal(ID3D11Device1_OpenSharedResource1(d1b, nt, &IID_ID3D11Texture2D, (void **)&opened), S_OK);
    IDXGIKeyedMutex *k1 = keyed_mutex_of(t), *k1b = keyed_mutex_of(opened);
    ID3D11Texture2D *src = texture(&a1, D3D11_USAGE_DEFAULT, 0, 42);
    assert_int_equal(IDXGIKeyedMutex_AcquireSync(k1, 0, INFINITE), S_OK);
    ID3D11DeviceContext_CopyResource(a1.ctx, (ID3D11Resource *)t, (ID3D11Resource *)src);
    assert_int_equal(IDXGIKeyedMutex_ReleaseSync(k1, 1), S_OK);
    assert_int_equal(IDXGIKeyedMutex_AcquireSync(k1b, 1, INFINITE), S_OK);
    expect_content(&a1b, opened, 42);
    assert_int_equal(IDXGIKeyedMutex_ReleaseSync(k1b, 0), S_OK);
    /* The legacy global handle of a keyed-mutex texture: not on adapter 0 either. */
    ID3D11Texture2D *legacy = texture(&a1, D3D11_USAGE_DEFAULT, D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX, 43);
    out = (void *)&out;
    assert_int_equal(ID3D11Device_OpenSharedResource(a0.dev, shared_handle(legacy), &IID_ID3D11Texture2D, &out),
                     E_INVALIDARG);
    assert_null(out);
    SAFE_RELEASE(legacy);
    SAFE_RELEASE(src);
    SAFE_RELEASE(k1b);
    SAFE_RELEASE(k1);
    SAFE_RELEASE(opened);
    SAFE_RELEASE(d1b);
    SAFE_RELEASE(d0);
    SAFE_RELEASE(f);
    assert_true(CloseHandle(nt));
    SAFE_RELEASE(r1);
    SAFE_RELEASE(t);
    dev_close(&a1b);
    dev_close(&a1);
    dev_close(&a0);
    for (ULONG i = 0; i < en.NumAdapters; i++) {
        D3DKMT_CLOSEADAPTER c = { .hAdapter = info[i].hAdapter };
        assert_int_equal(D3DKMTCloseAdapter(&c), STATUS_SUCCESS);
    }
}

int main(void)
{
    setenv("WDDM_ADAPTER_COUNT", "2", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(misc_shared_texture_opens_on_another_device_and_shares_its_bytes),
        cmocka_unit_test(bad_handles_and_unshared_resources_are_refused),
        cmocka_unit_test(kernel_cross_adapter_surface_written_on_a_is_read_by_d3d11_on_b),
        cmocka_unit_test(a_keyed_mutex_texture_opens_only_on_the_adapter_the_factory_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
