/* NT-handle sharing at the API (docs/api.md "What DXGI does here"): a Texture2D created with
 * D3D11_RESOURCE_MISC_SHARED_NTHANDLE (with MISC_SHARED or MISC_SHARED_KEYEDMUTEX) becomes an NT
 * handle through IDXGIResource1::CreateSharedHandle; ID3D11Device1::OpenSharedResource1 opens it
 * on another device, OpenSharedResourceByName by the name given to CreateSharedHandle, and
 * CloseHandle closes it. Windows' answers as Microsoft documents them (CreateSharedHandle,
 * GetSharedHandle, D3D11_RESOURCE_MISC_FLAG) and as Wine's d3d11 tests and implementation see
 * them, re-expressed here; the data checks are ours: what one device writes the other reads,
 * through the opened texture, also after the NT handle was closed and the creator released its
 * texture. */
#include "d3d11_conf.h"

#include <d3d11_1.h>

#define W 64u
#define H 16u
#define RW (DXGI_SHARED_RESOURCE_READ | DXGI_SHARED_RESOURCE_WRITE)

static D3D11_TEXTURE2D_DESC desc(D3D11_USAGE usage, UINT misc)
{
    D3D11_TEXTURE2D_DESC td = { .Width = W, .Height = H, .MipLevels = 1, .ArraySize = 1,
                                .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = { .Count = 1 },
                                .Usage = usage, .MiscFlags = misc };
    if (usage == D3D11_USAGE_STAGING)
        td.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    else
        td.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    return td;
}

static void fill(uint8_t *p, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(seed * 31u + i * 7u + (i >> 8));
}

static ID3D11Texture2D *texture(struct conf *c, D3D11_USAGE usage, UINT misc, uint32_t seed)
{
    D3D11_TEXTURE2D_DESC td = desc(usage, misc);
    static uint8_t data[W * H * 4];
    fill(data, sizeof data, seed);
    D3D11_SUBRESOURCE_DATA init = { .pSysMem = data, .SysMemPitch = W * 4 };
    ID3D11Texture2D *t = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(c->dev, &td, seed ? &init : NULL, &t), S_OK);
    return t;
}

/* Reads `src` back on c (a GPU copy to a STAGING texture, Map(READ) waits for it) and compares it
 * with fill(seed). */
static void expect_content(struct conf *c, ID3D11Texture2D *src, uint32_t seed)
{
    ID3D11Texture2D *stg = texture(c, D3D11_USAGE_STAGING, 0, 0);
    ID3D11DeviceContext_CopyResource(c->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)src);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(c->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    static uint8_t want[W * H * 4];
    fill(want, sizeof want, seed);
    for (UINT r = 0; r < H; r++)
        assert_memory_equal((const uint8_t *)m.pData + (size_t)r * m.RowPitch, want + (size_t)r * W * 4, W * 4);
    ID3D11DeviceContext_Unmap(c->ctx, (ID3D11Resource *)stg, 0);
    CONF_RELEASE(stg);
}

/* c writes fill(seed) into t with a GPU copy from a texture of its own. */
static void write_content(struct conf *c, ID3D11Texture2D *t, uint32_t seed)
{
    ID3D11Texture2D *src = texture(c, D3D11_USAGE_DEFAULT, 0, seed);
    ID3D11DeviceContext_CopyResource(c->ctx, (ID3D11Resource *)t, (ID3D11Resource *)src);
    CONF_RELEASE(src);
}

static IDXGIResource1 *dxgi1(ID3D11Texture2D *t)
{
    IDXGIResource1 *r = NULL;
    assert_int_equal(ID3D11Texture2D_QueryInterface(t, &IID_IDXGIResource1, (void **)&r), S_OK);
    return r;
}

static HRESULT create_handle(ID3D11Texture2D *t, const WCHAR *name, HANDLE *h)
{
    IDXGIResource1 *r = dxgi1(t);
    *h = (HANDLE)(uintptr_t)0xdeadbeef;
    HRESULT hr = IDXGIResource1_CreateSharedHandle(r, NULL, RW, name, h);
    CONF_RELEASE(r);
    return hr;
}

static ID3D11Device1 *dev1(struct conf *c)
{
    ID3D11Device1 *d = NULL;
    assert_int_equal(ID3D11Device_QueryInterface(c->dev, &IID_ID3D11Device1, (void **)&d), S_OK);
    return d;
}

static HRESULT open1(struct conf *c, HANDLE h, ID3D11Texture2D **out)
{
    ID3D11Device1 *d = dev1(c);
    *out = (ID3D11Texture2D *)(uintptr_t)1;
    HRESULT hr = ID3D11Device1_OpenSharedResource1(d, h, &IID_ID3D11Texture2D, (void **)out);
    CONF_RELEASE(d);
    if (FAILED(hr))
        assert_null(*out);
    return hr;
}

static HRESULT open_by_name(struct conf *c, const WCHAR *name, DWORD access, ID3D11Texture2D **out)
{
    ID3D11Device1 *d = dev1(c);
    *out = NULL;
    HRESULT hr = ID3D11Device1_OpenSharedResourceByName(d, name, access, &IID_ID3D11Texture2D, (void **)out);
    CONF_RELEASE(d);
    return hr;
}

static int two_setup(void **state)
{
    struct conf *c = calloc(2, sizeof *c);
    if (!c || conf_open(&c[0], D3D_FEATURE_LEVEL_11_0) || conf_open(&c[1], D3D_FEATURE_LEVEL_11_0)) {
        free(c);
        return -1;
    }
    *state = c;
    return 0;
}

static int two_teardown(void **state)
{
    struct conf *c = *state;
    conf_close(&c[1]);
    conf_close(&c[0]);
    free(c);
    return 0;
}

/* An NT texture has no global handle (GetSharedHandle fails: "you can't use GetSharedHandle ...
 * because it will fail"); CreateSharedHandle's NT handle opens on the other device with the
 * creator's description, each device reads what the other wrote, and the opened texture keeps
 * the memory after the NT handle is closed and the creator released its texture. */
/* rule: runtime.d3d11-resource-misc-shared-nthandle-misc */
/* rule: dxgi.id3d11device1-opensharedresource1-opens */
static void an_nt_texture_opens_on_another_device_and_shares_its_bytes(void **state)
{
    struct conf *c = *state, *a = &c[0], *b = &c[1];
    const UINT misc = D3D11_RESOURCE_MISC_SHARED | D3D11_RESOURCE_MISC_SHARED_NTHANDLE;
    ID3D11Texture2D *made = texture(a, D3D11_USAGE_DEFAULT, misc, 5);
    IDXGIResource *r0 = NULL;
    assert_int_equal(ID3D11Texture2D_QueryInterface(made, &IID_IDXGIResource, (void **)&r0), S_OK);
    HANDLE global = (HANDLE)(uintptr_t)1;
    assert_int_equal(IDXGIResource_GetSharedHandle(r0, &global), E_INVALIDARG);
    CONF_RELEASE(r0);
    HANDLE h;
    assert_int_equal(create_handle(made, NULL, &h), S_OK);
    assert_non_null(h);
    ID3D11Texture2D *opened;
    assert_int_equal(open1(b, h, &opened), S_OK);
    D3D11_TEXTURE2D_DESC want = desc(D3D11_USAGE_DEFAULT, misc), got;
    ID3D11Texture2D_GetDesc(opened, &got);
    assert_memory_equal(&got, &want, sizeof got);
    expect_content(a, made, 5); /* a's GPU wrote the initial data (Map waited for it) */
    expect_content(b, opened, 5);
    write_content(b, opened, 6);
    expect_content(b, opened, 6);
    expect_content(a, made, 6);
    /* The handle goes first, then the creator's texture: the opener still has the bytes. */
    assert_true(CloseHandle(h));
    write_content(a, made, 7);
    expect_content(a, made, 7);
    expect_content(b, opened, 7);
    CONF_RELEASE(made);
    expect_content(b, opened, 7);
    /* An opened NT texture is shared again, as a new NT handle. */
    HANDLE again;
    assert_int_equal(create_handle(opened, NULL, &again), S_OK);
    ID3D11Texture2D *third;
    assert_int_equal(open1(a, again, &third), S_OK);
    expect_content(a, third, 7);
    assert_true(CloseHandle(again));
    CONF_RELEASE(third);
    CONF_RELEASE(opened);
}

/* CreateSharedHandle needs a texture created with MISC_SHARED_NTHANDLE: a MISC_SHARED one (it has
 * a global handle instead) and an unshared one are refused with E_INVALIDARG, as is a NULL
 * pHandle; MISC_SHARED_NTHANDLE alone is E_INVALIDARG at creation. */
/* rule: runtime.d3d11-resource-misc-shared-nthandle-misc (mutation-checked: accepting the flag alone fails it) */
/* rule: dxgi.idxgiresource1-createsharedhandle-nt (the flag check is also the kernel's: removing the runtime's check is an equivalent mutant) */
static void only_nt_textures_create_shared_handles(void **state)
{
    struct conf *c = *state, *a = &c[0];
    ID3D11Texture2D *legacy = texture(a, D3D11_USAGE_DEFAULT, D3D11_RESOURCE_MISC_SHARED, 0);
    ID3D11Texture2D *plain = texture(a, D3D11_USAGE_DEFAULT, 0, 0);
    HANDLE h;
    assert_int_equal(create_handle(legacy, NULL, &h), E_INVALIDARG);
    assert_null(h);
    assert_int_equal(create_handle(plain, NULL, &h), E_INVALIDARG);
    ID3D11Texture2D *nt = texture(a, D3D11_USAGE_DEFAULT,
                                  D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX | D3D11_RESOURCE_MISC_SHARED_NTHANDLE, 0);
    IDXGIResource1 *r = dxgi1(nt);
    assert_int_equal(IDXGIResource1_CreateSharedHandle(r, NULL, RW, NULL, NULL), E_INVALIDARG);
    CONF_RELEASE(r);
    D3D11_TEXTURE2D_DESC alone = desc(D3D11_USAGE_DEFAULT, D3D11_RESOURCE_MISC_SHARED_NTHANDLE);
    ID3D11Texture2D *t = (ID3D11Texture2D *)(uintptr_t)1;
    assert_int_equal(ID3D11Device_CreateTexture2D(a->dev, &alone, NULL, &t), E_INVALIDARG);
    assert_null(t);
    CONF_RELEASE(nt);
    CONF_RELEASE(plain);
    CONF_RELEASE(legacy);
}

/* OpenSharedResource1 refuses what is no open NT handle of a shared texture with E_INVALIDARG:
 * NULL, a forged value, a closed handle, a global handle; OpenSharedResource refuses an NT handle;
 * a NULL output is E_INVALIDARG. */
/* rule: dxgi.id3d11device1-opensharedresource1-opens */
/* rule: kernel.createsharedhandle-again-new-nt-handle (two NT handles of one texture) */
static void closed_and_bogus_handles_do_not_open(void **state)
{
    struct conf *c = *state, *a = &c[0], *b = &c[1];
    ID3D11Texture2D *nt = texture(a, D3D11_USAGE_DEFAULT, D3D11_RESOURCE_MISC_SHARED | D3D11_RESOURCE_MISC_SHARED_NTHANDLE,
                                  3);
    ID3D11Texture2D *legacy = texture(a, D3D11_USAGE_DEFAULT, D3D11_RESOURCE_MISC_SHARED, 0);
    IDXGIResource *lr = NULL;
    assert_int_equal(ID3D11Texture2D_QueryInterface(legacy, &IID_IDXGIResource, (void **)&lr), S_OK);
    HANDLE global = NULL;
    assert_int_equal(IDXGIResource_GetSharedHandle(lr, &global), S_OK);
    CONF_RELEASE(lr);
    HANDLE h, closed;
    assert_int_equal(create_handle(nt, NULL, &h), S_OK);
    assert_int_equal(create_handle(nt, NULL, &closed), S_OK);
    assert_true(CloseHandle(closed));
    ID3D11Texture2D *out;
    const HANDLE refused[] = { NULL, (HANDLE)(uintptr_t)0xdeadbeef, closed, global };
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(open1(b, refused[i], &out), E_INVALIDARG);
    out = (ID3D11Texture2D *)(uintptr_t)1;
    assert_int_equal(ID3D11Device_OpenSharedResource(b->dev, h, &IID_ID3D11Texture2D, (void **)&out), E_INVALIDARG);
    assert_null(out);
    ID3D11Device1 *d = dev1(b);
    assert_int_equal(ID3D11Device1_OpenSharedResource1(d, h, &IID_ID3D11Texture2D, NULL), E_INVALIDARG);
    CONF_RELEASE(d);
    /* The live handle still opens. */
    expect_content(a, nt, 3);
    assert_int_equal(open1(b, h, &out), S_OK);
    expect_content(b, out, 3);
    CONF_RELEASE(out);
    assert_true(CloseHandle(h));
    assert_false(CloseHandle(h));
    CONF_RELEASE(legacy);
    CONF_RELEASE(nt);
}

/* A name given to CreateSharedHandle opens the texture by OpenSharedResourceByName while an NT
 * handle on it is open; another texture cannot take the name (DXGI_ERROR_NAME_ALREADY_EXISTS:
 * "these objects share the same namespace"); no access right asked is E_ACCESSDENIED; an
 * unknown name, or the name after its last handle was closed, is E_INVALIDARG. */
/* rule: dxgi.idxgiresource1-createsharedhandle-nt */
/* rule: dxgi.id3d11device1-opensharedresourcebyname (mutation-checked: ACCESS_DENIED mapped to E_INVALIDARG fails it) */
/* rule: kernel.other-kind-handle-type-mismatch (an unknown name) */
static void names_open_while_a_handle_is_open(void **state)
{
    struct conf *c = *state, *a = &c[0], *b = &c[1];
    const UINT misc = D3D11_RESOURCE_MISC_SHARED | D3D11_RESOURCE_MISC_SHARED_NTHANDLE;
    static const WCHAR name[] = u"libwddm nt sharing test";
    ID3D11Texture2D *made = texture(a, D3D11_USAGE_DEFAULT, misc, 9), *other = texture(a, D3D11_USAGE_DEFAULT, misc, 0);
    HANDLE h, h2;
    assert_int_equal(create_handle(made, name, &h), S_OK);
    assert_int_equal(create_handle(other, name, &h2), DXGI_ERROR_NAME_ALREADY_EXISTS);
    ID3D11Texture2D *opened;
    expect_content(a, made, 9);
    assert_int_equal(open_by_name(b, name, RW, &opened), S_OK);
    expect_content(b, opened, 9);
    CONF_RELEASE(opened);
    assert_int_equal(open_by_name(b, name, 0, &opened), E_ACCESSDENIED);
    assert_null(opened);
    assert_int_equal(open_by_name(b, u"libwddm no such name", RW, &opened), E_INVALIDARG);
    assert_int_equal(open_by_name(b, NULL, RW, &opened), E_INVALIDARG);
    assert_true(CloseHandle(h));
    assert_int_equal(open_by_name(b, name, RW, &opened), E_INVALIDARG);
    /* The name is free again. */
    assert_int_equal(create_handle(other, name, &h2), S_OK);
    assert_true(CloseHandle(h2));
    CONF_RELEASE(other);
    CONF_RELEASE(made);
}

/* A MISC_SHARED_KEYEDMUTEX | MISC_SHARED_NTHANDLE texture's NT handle carries its keyed mutex:
 * the opened texture has IDXGIKeyedMutex, and the mutex hands the texture on by key between the
 * two devices, the reader seeing the writer's bytes. */
/* rule: dxgi.misc-shared-keyedmutex-nt-texture-makes (mutation-checked: not adopting the opened mutex fails it) */
static void the_keyed_mutex_travels_with_the_nt_handle(void **state)
{
    struct conf *c = *state, *a = &c[0], *b = &c[1];
    const UINT misc = D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX | D3D11_RESOURCE_MISC_SHARED_NTHANDLE;
    ID3D11Texture2D *ta = texture(a, D3D11_USAGE_DEFAULT, misc, 1), *tb;
    HANDLE h;
    assert_int_equal(create_handle(ta, NULL, &h), S_OK);
    assert_int_equal(open1(b, h, &tb), S_OK);
    assert_true(CloseHandle(h));
    IDXGIKeyedMutex *ka = NULL, *kb = NULL;
    assert_int_equal(ID3D11Texture2D_QueryInterface(ta, &IID_IDXGIKeyedMutex, (void **)&ka), S_OK);
    assert_int_equal(ID3D11Texture2D_QueryInterface(tb, &IID_IDXGIKeyedMutex, (void **)&kb), S_OK);
    assert_int_equal(IDXGIKeyedMutex_AcquireSync(kb, 1, 0), (HRESULT)WAIT_TIMEOUT); /* key 0 first */
    assert_int_equal(IDXGIKeyedMutex_AcquireSync(ka, 0, 0), S_OK);
    assert_int_equal(IDXGIKeyedMutex_AcquireSync(kb, 0, 0), (HRESULT)WAIT_TIMEOUT); /* a holds it */
    write_content(a, ta, 2);
    assert_int_equal(IDXGIKeyedMutex_ReleaseSync(ka, 1), S_OK);
    assert_int_equal(IDXGIKeyedMutex_AcquireSync(kb, 1, INFINITE), S_OK);
    expect_content(b, tb, 2);
    write_content(b, tb, 3);
    assert_int_equal(IDXGIKeyedMutex_ReleaseSync(kb, 2), S_OK);
    assert_int_equal(IDXGIKeyedMutex_AcquireSync(ka, 2, INFINITE), S_OK);
    expect_content(a, ta, 3);
    assert_int_equal(IDXGIKeyedMutex_ReleaseSync(ka, 0), S_OK);
    CONF_RELEASE(kb);
    CONF_RELEASE(ka);
    CONF_RELEASE(tb);
    CONF_RELEASE(ta);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(an_nt_texture_opens_on_another_device_and_shares_its_bytes, two_setup,
                                        two_teardown),
        cmocka_unit_test_setup_teardown(only_nt_textures_create_shared_handles, two_setup, two_teardown),
        cmocka_unit_test_setup_teardown(closed_and_bogus_handles_do_not_open, two_setup, two_teardown),
        cmocka_unit_test_setup_teardown(names_open_while_a_handle_is_open, two_setup, two_teardown),
        cmocka_unit_test_setup_teardown(the_keyed_mutex_travels_with_the_nt_handle, two_setup, two_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
