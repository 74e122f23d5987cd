/* IDXGIDevice2::OfferResources / ReclaimResources (issue 15 §3) over VidMm's offers
 * (D3DKMTOfferAllocations, vidmm/offer.c), end to end, in both driver models. The reference
 * pages: an offered resource's content may be discarded; ReclaimResources restores access and
 * says, per resource, whether the content was discarded; E_INVALIDARG for invalid resources.
 * Small segments (set before the adapter starts): local 2 MiB, CPU-visible 2 MiB. */
#include "e2e/e2e.h"

#include <dxgi1_2.h>

enum { W = 512, H = 512, BYTES = W * H * 4, BUF = 512 * 1024 }; /* 1 MiB textures, 512 KiB buffers */

static ID3D11Texture2D *texture(struct e2e *e, D3D11_USAGE usage, UINT cpu, const void *data)
{
    D3D11_TEXTURE2D_DESC td = { W, H, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, usage,
                                usage == D3D11_USAGE_STAGING ? 0 : D3D11_BIND_SHADER_RESOURCE, cpu, 0 };
    D3D11_SUBRESOURCE_DATA init = { data, W * 4, 0 };
    ID3D11Texture2D *t = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, data ? &init : NULL, &t), S_OK);
    return t;
}

static IDXGIResource *dxgi_of(void *t)
{
    IDXGIResource *r = NULL;
    assert_int_equal(ID3D11Texture2D_QueryInterface((ID3D11Texture2D *)t, &IID_IDXGIResource, (void **)&r), S_OK);
    IDXGIResource_Release(r); /* the texture holds the object */
    return r;
}

/* Copies `t` through a staging texture and compares it with `want` (NULL: all zero). */
static int same_content(struct e2e *e, ID3D11Texture2D *t, const unsigned char *want)
{
    ID3D11Texture2D *st = texture(e, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ, NULL);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)st, (ID3D11Resource *)t);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)st, 0, D3D11_MAP_READ, 0, &m), S_OK);
    int same = 1;
    for (UINT y = 0; y < H && same; y++) {
        const unsigned char *row = (const unsigned char *)m.pData + (size_t)y * m.RowPitch;
        for (UINT x = 0; x < W * 4 && same; x++)
            same = row[x] == (want ? want[(size_t)y * W * 4 + x] : 0);
    }
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)st, 0);
    ID3D11Texture2D_Release(st);
    return same;
}

/* Without pressure an offer loses nothing: reclaim says FALSE and the bytes are there. The
 * arguments are checked (no resources, a priority out of range, another device's resource, a
 * mapped resource: E_INVALIDARG), and an offered resource cannot be mapped until reclaimed. */
/* rule: dxgi.idxgidevice2-offerresources */
static void an_offer_without_pressure_keeps_the_content(void **state)
{
    struct e2e *e = *state;
    unsigned char *data = malloc(BYTES);
    e2e_fill(data, BYTES, 31);
    ID3D11Texture2D *t = texture(e, D3D11_USAGE_DEFAULT, 0, data);
    ID3D11Texture2D *st = texture(e, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE, NULL);
    IDXGIDevice2 *dxgi = NULL;
    assert_int_equal(ID3D11Device_QueryInterface(e->dev, &IID_IDXGIDevice2, (void **)&dxgi), S_OK);
    IDXGIResource *r[2] = { dxgi_of(t), dxgi_of(st) };

    assert_int_equal(IDXGIDevice2_OfferResources(dxgi, 0, r, DXGI_OFFER_RESOURCE_PRIORITY_LOW), E_INVALIDARG);
    assert_int_equal(IDXGIDevice2_OfferResources(dxgi, 2, r, (DXGI_OFFER_RESOURCE_PRIORITY)4), E_INVALIDARG);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)st, 0, D3D11_MAP_WRITE, 0, &m), S_OK);
    assert_int_equal(IDXGIDevice2_OfferResources(dxgi, 2, r, DXGI_OFFER_RESOURCE_PRIORITY_LOW), E_INVALIDARG);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)st, 0);

    ID3D11Device *other = NULL;
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &other,
                                       NULL, NULL), S_OK);
    IDXGIDevice2 *odxgi = NULL;
    assert_int_equal(ID3D11Device_QueryInterface(other, &IID_IDXGIDevice2, (void **)&odxgi), S_OK);
    assert_int_equal(IDXGIDevice2_OfferResources(odxgi, 1, r, DXGI_OFFER_RESOURCE_PRIORITY_LOW), E_INVALIDARG);
    IDXGIDevice2_Release(odxgi);
    ID3D11Device_Release(other);

    assert_int_equal(IDXGIDevice2_OfferResources(dxgi, 2, r, DXGI_OFFER_RESOURCE_PRIORITY_HIGH), S_OK);
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)st, 0, D3D11_MAP_READ, 0, &m), E_INVALIDARG);
    BOOL discarded[2] = { TRUE, TRUE };
    assert_int_equal(IDXGIDevice2_ReclaimResources(dxgi, 2, r, discarded), S_OK);
    assert_false(discarded[0]);
    assert_false(discarded[1]);
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)st, 0, D3D11_MAP_READ, 0, &m), S_OK);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)st, 0);
    assert_true(same_content(e, t, data));
    assert_int_equal(IDXGIDevice2_ReclaimResources(dxgi, 1, r, NULL), S_OK); /* pDiscarded optional */

    IDXGIDevice2_Release(dxgi);
    ID3D11Texture2D_Release(st);
    ID3D11Texture2D_Release(t);
    free(data);
}

static ID3D11Buffer *buffer(struct e2e *e, D3D11_USAGE usage, UINT cpu, const void *data)
{
    D3D11_BUFFER_DESC bd = { .ByteWidth = BUF, .Usage = usage, .CPUAccessFlags = cpu,
                             .BindFlags = usage == D3D11_USAGE_DEFAULT ? D3D11_BIND_VERTEX_BUFFER : 0 };
    D3D11_SUBRESOURCE_DATA init = { data, 0, 0 };
    ID3D11Buffer *b = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, data ? &init : NULL, &b), S_OK);
    return b;
}

/* Copies `b` to the staging buffer and compares it with `want` (NULL: all zero). */
static int same_bytes(struct e2e *e, ID3D11Buffer *b, ID3D11Buffer *stg, const unsigned char *want)
{
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)b);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    int same = 1;
    for (UINT i = 0; i < BUF && same; i++)
        same = ((const unsigned char *)m.pData)[i] == (want ? want[i] : 0);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)stg, 0);
    return same;
}

/* Under pressure the offered buffer gives way and its content is discarded (not paged out):
 * reclaim says TRUE and the content reads as a new buffer's (zero); a buffer that was not
 * offered, pushed out by the same pressure, comes back with every byte. The pressure: twelve
 * 512 KiB buffers used in turn through 2 + 2 MiB of video memory (test_oversubscription.c's,
 * which evicts in both models). */
/* rule: dxgi.idxgidevice2-offerresources (both models; mutation-checked) */
static void under_pressure_the_offered_content_is_discarded(void **state)
{
    struct e2e *e = *state;
    unsigned char *a = malloc(BUF), *b = malloc(BUF);
    e2e_fill(a, BUF, 41);
    e2e_fill(b, BUF, 42);
    ID3D11Buffer *stg = buffer(e, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ, NULL);
    ID3D11Buffer *offered = buffer(e, D3D11_USAGE_DEFAULT, 0, a);
    ID3D11Buffer *kept = buffer(e, D3D11_USAGE_DEFAULT, 0, b);
    assert_true(same_bytes(e, offered, stg, a)); /* both placed and written on the GPU */
    assert_true(same_bytes(e, kept, stg, b));
    IDXGIDevice2 *dxgi = NULL;
    assert_int_equal(ID3D11Device_QueryInterface(e->dev, &IID_IDXGIDevice2, (void **)&dxgi), S_OK);
    IDXGIResource *r = NULL;
    assert_int_equal(ID3D11Buffer_QueryInterface(offered, &IID_IDXGIResource, (void **)&r), S_OK);
    assert_int_equal(IDXGIDevice2_OfferResources(dxgi, 1, &r, DXGI_OFFER_RESOURCE_PRIORITY_NORMAL), S_OK);

    enum { FILLERS = 12 };
    ID3D11Buffer *f[FILLERS];
    for (int i = 0; i < FILLERS; i++)
        f[i] = buffer(e, D3D11_USAGE_DEFAULT, 0, a);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < FILLERS; i++)
            assert_true(same_bytes(e, f[i], stg, a));

    BOOL discarded = FALSE;
    assert_int_equal(IDXGIDevice2_ReclaimResources(dxgi, 1, &r, &discarded), S_OK);
    assert_true(discarded);
    assert_true(same_bytes(e, offered, stg, NULL));
    assert_true(same_bytes(e, kept, stg, b));

    for (int i = 0; i < FILLERS; i++)
        ID3D11Buffer_Release(f[i]);
    IDXGIResource_Release(r);
    IDXGIDevice2_Release(dxgi);
    ID3D11Buffer_Release(kept);
    ID3D11Buffer_Release(offered);
    ID3D11Buffer_Release(stg);
    free(a);
    free(b);
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "2", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "2", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(an_offer_without_pressure_keeps_the_content, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(under_pressure_the_offered_content_is_discarded, e2e_setup, e2e_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
