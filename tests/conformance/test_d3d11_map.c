/* ID3D11DeviceContext::Map / Unmap as Windows answers them (issue 14 §2). Sources: Wine's
 * dlls/d3d11/tests/d3d11.c, which runs on Windows - test_resource_map (failed Map, staging
 * pitches), test_resource_access (which map types each usage takes), test_deferred_context_map
 * (deferred contexts) - and the D3D11 return codes page
 * (D3D11_ERROR_DEFERRED_CONTEXT_MAP_WITHOUT_INITIAL_DISCARD). */
#include "conformance/d3d11_conf.h"

#define POISON_PTR ((void *)(uintptr_t)0xdeadbeef)

static void poison(D3D11_MAPPED_SUBRESOURCE *m)
{
    m->pData = POISON_PTR;
    m->RowPitch = 0xabab;
    m->DepthPitch = 0xcdcd;
}

/* A failed Map: E_INVALIDARG, pData NULL, RowPitch and DepthPitch as the caller left them. */
static void assert_failed_map(ID3D11DeviceContext *ctx, void *res, UINT sub, D3D11_MAP type, HRESULT expect)
{
    D3D11_MAPPED_SUBRESOURCE m;
    poison(&m);
    assert_int_equal(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)res, sub, type, 0, &m), expect);
    assert_null(m.pData);
    assert_int_equal(m.RowPitch, 0xabab);
    assert_int_equal(m.DepthPitch, 0xcdcd);
}

/* rule: runtime.failed-map-sets-pmappedresource-pdata */
static void test_failed_map_sets_pdata_null_and_keeps_the_pitches(void **state)
{
    struct conf *c = *state;
    ID3D11Buffer *st = conf_buffer(c->dev, 1024, D3D11_USAGE_STAGING, 0,
                                   D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE, NULL);
    assert_failed_map(c->ctx, st, 1, D3D11_MAP_READ, E_INVALIDARG);         /* no subresource 1 */
    assert_failed_map(c->ctx, st, 0, D3D11_MAP_WRITE_DISCARD, E_INVALIDARG); /* DISCARD is dynamic-only */

    /* Already mapped: the second Map fails the same way and the first mapping stays valid. */
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(c->ctx, (ID3D11Resource *)st, 0, D3D11_MAP_WRITE, 0, &m), S_OK);
    void *first = m.pData;
    assert_failed_map(c->ctx, st, 0, D3D11_MAP_READ, E_INVALIDARG);
    memset(first, 0x5a, 16);
    ID3D11DeviceContext_Unmap(c->ctx, (ID3D11Resource *)st, 0);

    D3D11_TEXTURE2D_DESC td = { 512, 512, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D11_USAGE_STAGING, 0,
                                D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE, 0 };
    ID3D11Texture2D *t2 = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(c->dev, &td, NULL, &t2), S_OK);
    assert_failed_map(c->ctx, t2, 1, D3D11_MAP_READ, E_INVALIDARG);

    ID3D11Buffer *def = conf_buffer(c->dev, 256, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, NULL);
    assert_failed_map(c->ctx, def, 0, D3D11_MAP_READ, E_INVALIDARG);
    assert_failed_map(c->ctx, def, 0, D3D11_MAP_WRITE_DISCARD, E_INVALIDARG);

    ID3D11Buffer *dyn = conf_buffer(c->dev, 256, D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER,
                                    D3D11_CPU_ACCESS_WRITE, NULL);
    assert_failed_map(c->ctx, dyn, 0, D3D11_MAP_READ, E_INVALIDARG);
    assert_failed_map(c->ctx, dyn, 0, D3D11_MAP_WRITE, E_INVALIDARG);
    assert_failed_map(c->ctx, dyn, 0, (D3D11_MAP)7, E_INVALIDARG); /* not a D3D11_MAP */

    CONF_RELEASE(dyn);
    CONF_RELEASE(def);
    CONF_RELEASE(t2);
    CONF_RELEASE(st);
}

/* Staging maps: RowPitch of a buffer is its size, of a texture the tight row; DepthPitch one
 * tight 2-D slice; and what is written through one Map reads back through the next. */
/* rule: umd.staging-maps-buffer-rowpitch-depthpitch */
static void test_staging_map_pitches_are_tight_and_data_round_trips(void **state)
{
    struct conf *c = *state;
    const UINT rw = D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE;
    D3D11_MAPPED_SUBRESOURCE m;

    ID3D11Buffer *b = conf_buffer(c->dev, 1024, D3D11_USAGE_STAGING, 0, rw, NULL);
    assert_int_equal(ID3D11DeviceContext_Map(c->ctx, (ID3D11Resource *)b, 0, D3D11_MAP_WRITE, 0, &m), S_OK);
    assert_int_equal(m.RowPitch, 1024);
    assert_int_equal(m.DepthPitch, 1024);
    *(UINT32 *)m.pData = 0xdeadbeef;
    ID3D11DeviceContext_Unmap(c->ctx, (ID3D11Resource *)b, 0);
    assert_int_equal(ID3D11DeviceContext_Map(c->ctx, (ID3D11Resource *)b, 0, D3D11_MAP_READ, 0, &m), S_OK);
    assert_int_equal(*(UINT32 *)m.pData, 0xdeadbeef);
    ID3D11DeviceContext_Unmap(c->ctx, (ID3D11Resource *)b, 0);

    D3D11_TEXTURE2D_DESC td = { 512, 512, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D11_USAGE_STAGING, 0, rw, 0 };
    ID3D11Texture2D *t2 = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(c->dev, &td, NULL, &t2), S_OK);
    assert_int_equal(ID3D11DeviceContext_Map(c->ctx, (ID3D11Resource *)t2, 0, D3D11_MAP_WRITE, 0, &m), S_OK);
    assert_int_equal(m.RowPitch, 4 * 512);
    assert_int_equal(m.DepthPitch, 4 * 512 * 512);
    *(UINT32 *)m.pData = 0xdeadbeef;
    ID3D11DeviceContext_Unmap(c->ctx, (ID3D11Resource *)t2, 0);
    assert_int_equal(ID3D11DeviceContext_Map(c->ctx, (ID3D11Resource *)t2, 0, D3D11_MAP_READ, 0, &m), S_OK);
    assert_int_equal(*(UINT32 *)m.pData, 0xdeadbeef);
    ID3D11DeviceContext_Unmap(c->ctx, (ID3D11Resource *)t2, 0);

    D3D11_TEXTURE3D_DESC t3d = { 64, 64, 64, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_STAGING, 0, rw, 0 };
    ID3D11Texture3D *t3 = NULL;
    assert_int_equal(ID3D11Device_CreateTexture3D(c->dev, &t3d, NULL, &t3), S_OK);
    assert_failed_map(c->ctx, t3, 1, D3D11_MAP_READ, E_INVALIDARG);
    assert_int_equal(ID3D11DeviceContext_Map(c->ctx, (ID3D11Resource *)t3, 0, D3D11_MAP_WRITE, 0, &m), S_OK);
    assert_int_equal(m.RowPitch, 4 * 64);
    assert_int_equal(m.DepthPitch, 4 * 64 * 64);
    *(UINT32 *)m.pData = 0xdeadbeef;
    ID3D11DeviceContext_Unmap(c->ctx, (ID3D11Resource *)t3, 0);
    assert_int_equal(ID3D11DeviceContext_Map(c->ctx, (ID3D11Resource *)t3, 0, D3D11_MAP_READ, 0, &m), S_OK);
    assert_int_equal(*(UINT32 *)m.pData, 0xdeadbeef);
    ID3D11DeviceContext_Unmap(c->ctx, (ID3D11Resource *)t3, 0);

    CONF_RELEASE(t3);
    CONF_RELEASE(t2);
    CONF_RELEASE(b);
}

/* Which map types a resource takes (test_resource_access's check): READ needs CPU_ACCESS_READ;
 * WRITE needs CPU_ACCESS_WRITE on a non-dynamic resource; READ_WRITE needs both; WRITE_DISCARD
 * is for dynamic resources only; WRITE_NO_OVERWRITE for dynamic buffers only - vertex/index
 * ones always, constant and shader-resource ones as D3D11_OPTIONS reports (a D3D11.1 driver:
 * Windows 8's answer; without one, the answer Windows 7 gives: the test's broken() case). */
static void check_map_types(struct conf *c, void *res, BOOL is_buffer, D3D11_USAGE usage, UINT bind, UINT cpu)
{
    D3D11_FEATURE_DATA_D3D11_OPTIONS o;
    assert_int_equal(ID3D11Device_CheckFeatureSupport(c->dev, D3D11_FEATURE_D3D11_OPTIONS, &o, sizeof o), S_OK);
    BOOL dynamic = usage == D3D11_USAGE_DYNAMIC, r = (cpu & D3D11_CPU_ACCESS_READ) != 0,
         w = (cpu & D3D11_CPU_ACCESS_WRITE) != 0;
    struct { D3D11_MAP type; BOOL ok; } cases[] = {
        { D3D11_MAP_READ, r },
        { D3D11_MAP_WRITE, !dynamic && w },
        { D3D11_MAP_READ_WRITE, r && w },
        { D3D11_MAP_WRITE_DISCARD, dynamic },
        { D3D11_MAP_WRITE_NO_OVERWRITE,
          dynamic && is_buffer &&
              (!(bind & ~(UINT)(D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_INDEX_BUFFER)) ||
               (o.MapNoOverwriteOnDynamicConstantBuffer && bind == D3D11_BIND_CONSTANT_BUFFER) ||
               (o.MapNoOverwriteOnDynamicBufferSRV && (bind & D3D11_BIND_SHADER_RESOURCE))) },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        D3D11_MAPPED_SUBRESOURCE m;
        poison(&m);
        HRESULT hr = ID3D11DeviceContext_Map(c->ctx, (ID3D11Resource *)res, 0, cases[i].type, 0, &m);
        if (hr != (cases[i].ok ? S_OK : E_INVALIDARG))
            fail_msg("usage %u bind 0x%x cpu 0x%x %s: Map(%u) answered 0x%08x", usage, bind, cpu,
                     is_buffer ? "buffer" : "texture", cases[i].type, (unsigned)hr);
        if (SUCCEEDED(hr)) {
            assert_non_null(m.pData);
            ID3D11DeviceContext_Unmap(c->ctx, (ID3D11Resource *)res, 0);
        } else {
            assert_null(m.pData);
        }
    }
}

/* rule: runtime.map-types-usage-read-needs-cpu */
/* rule: runtime.d3d11-options-answers-driver-ddi-lets (each answer as the options report) */
static void test_each_usage_takes_only_its_map_types(void **state)
{
    struct conf *c = *state;
    static const BYTE init[1024];
    D3D11_SUBRESOURCE_DATA data = { init, 16, 0 };
    struct { D3D11_USAGE usage; UINT bind; UINT cpu; } rows[] = {
        { D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0 },
        { D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0 },
        { D3D11_USAGE_IMMUTABLE, D3D11_BIND_SHADER_RESOURCE, 0 },
        { D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE },
        { D3D11_USAGE_DYNAMIC, D3D11_BIND_INDEX_BUFFER, D3D11_CPU_ACCESS_WRITE },
        { D3D11_USAGE_DYNAMIC, D3D11_BIND_CONSTANT_BUFFER, D3D11_CPU_ACCESS_WRITE },
        { D3D11_USAGE_DYNAMIC, D3D11_BIND_SHADER_RESOURCE, D3D11_CPU_ACCESS_WRITE },
        { D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_WRITE },
        { D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ },
        { D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        D3D11_BUFFER_DESC bd = { 1024, rows[i].usage, rows[i].bind, rows[i].cpu, 0, 0 };
        ID3D11Buffer *b = NULL;
        assert_int_equal(ID3D11Device_CreateBuffer(c->dev, &bd, &data, &b), S_OK);
        check_map_types(c, b, TRUE, rows[i].usage, rows[i].bind, rows[i].cpu);
        CONF_RELEASE(b);
        if (rows[i].bind & (D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_INDEX_BUFFER | D3D11_BIND_CONSTANT_BUFFER))
            continue;
        D3D11_TEXTURE2D_DESC td = { 4, 4, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, rows[i].usage, rows[i].bind,
                                    rows[i].cpu, 0 };
        ID3D11Texture2D *t = NULL;
        assert_int_equal(ID3D11Device_CreateTexture2D(c->dev, &td, &data, &t), S_OK);
        check_map_types(c, t, FALSE, rows[i].usage, rows[i].bind, rows[i].cpu);
        CONF_RELEASE(t);
    }
}

/* Deferred contexts (test_deferred_context_map): READ, READ_WRITE and WRITE fail E_INVALIDARG
 * (pData NULL, pitches kept); a NO_OVERWRITE before the list's first DISCARD of the resource -
 * after CreateDeferredContext or FinishCommandList - answers
 * D3D11_ERROR_DEFERRED_CONTEXT_MAP_WITHOUT_INITIAL_DISCARD; after the DISCARD, NO_OVERWRITE sees
 * what the DISCARD wrote; executing the list leaves the last contents in the buffer, and until
 * then the buffer keeps what it had. */
/* rule: runtime.deferred-context-read-read-write-write */
static void test_deferred_map_needs_an_initial_discard_per_list(void **state)
{
    struct conf *c = *state;
    float init[16], *p;
    for (int i = 0; i < 16; i++)
        init[i] = (float)i;
    ID3D11Buffer *buf = conf_buffer(c->dev, sizeof init, D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER,
                                    D3D11_CPU_ACCESS_WRITE, init);
    ID3D11DeviceContext *dc = NULL;
    assert_int_equal(ID3D11Device_CreateDeferredContext(c->dev, 0, &dc), S_OK);
    D3D11_MAPPED_SUBRESOURCE m;

    assert_failed_map(dc, buf, 0, D3D11_MAP_READ, E_INVALIDARG);
    assert_failed_map(dc, buf, 0, D3D11_MAP_READ_WRITE, E_INVALIDARG);
    assert_failed_map(dc, buf, 0, D3D11_MAP_WRITE, E_INVALIDARG);
    assert_failed_map(dc, buf, 0, D3D11_MAP_WRITE_NO_OVERWRITE, D3D11_ERROR_DEFERRED_CONTEXT_MAP_WITHOUT_INITIAL_DISCARD);

    assert_int_equal(ID3D11DeviceContext_Map(dc, (ID3D11Resource *)buf, 0, D3D11_MAP_WRITE_DISCARD, 0, &m), S_OK);
    p = m.pData;
    for (int i = 0; i < 16; i++)
        p[i] = 2.0f * (float)i;
    ID3D11DeviceContext_Unmap(dc, (ID3D11Resource *)buf, 0);
    assert_failed_map(dc, buf, 0, D3D11_MAP_READ, E_INVALIDARG); /* still refused after the DISCARD */
    assert_int_equal(ID3D11DeviceContext_Map(dc, (ID3D11Resource *)buf, 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, &m), S_OK);
    p = m.pData;
    for (int i = 0; i < 16; i++) {
        assert_true(p[i] == 2.0f * (float)i);
        if (i % 2)
            p[i] = 3.0f * (float)i;
    }
    ID3D11DeviceContext_Unmap(dc, (ID3D11Resource *)buf, 0);

    ID3D11CommandList *cl = NULL;
    assert_int_equal(ID3D11DeviceContext_FinishCommandList(dc, FALSE, &cl), S_OK);
    float *before = conf_read_buffer(c, buf, sizeof init);
    for (int i = 0; i < 16; i++)
        assert_true(before[i] == (float)i); /* recording changed nothing yet */
    free(before);
    ID3D11DeviceContext_ExecuteCommandList(c->ctx, cl, TRUE);
    float *after = conf_read_buffer(c, buf, sizeof init);
    for (int i = 0; i < 16; i++)
        assert_true(after[i] == ((i % 2) ? 3.0f : 2.0f) * (float)i);
    free(after);
    CONF_RELEASE(cl);

    /* A new list: the first map of the buffer must be a DISCARD again, even after the
     * immediate context mapped it. */
    assert_int_equal(ID3D11DeviceContext_Map(c->ctx, (ID3D11Resource *)buf, 0, D3D11_MAP_WRITE_DISCARD, 0, &m), S_OK);
    ID3D11DeviceContext_Unmap(c->ctx, (ID3D11Resource *)buf, 0);
    assert_failed_map(dc, buf, 0, D3D11_MAP_WRITE_NO_OVERWRITE, D3D11_ERROR_DEFERRED_CONTEXT_MAP_WITHOUT_INITIAL_DISCARD);

    /* A dynamic constant buffer takes NO_OVERWRITE where D3D11_OPTIONS says so (then the
     * initial-discard rule answers); where it does not, E_INVALIDARG, as on the immediate one. */
    D3D11_FEATURE_DATA_D3D11_OPTIONS o;
    assert_int_equal(ID3D11Device_CheckFeatureSupport(c->dev, D3D11_FEATURE_D3D11_OPTIONS, &o, sizeof o), S_OK);
    ID3D11Buffer *cb = conf_buffer(c->dev, 64, D3D11_USAGE_DYNAMIC, D3D11_BIND_CONSTANT_BUFFER,
                                   D3D11_CPU_ACCESS_WRITE, NULL);
    assert_failed_map(dc, cb, 0, D3D11_MAP_WRITE_NO_OVERWRITE,
                      o.MapNoOverwriteOnDynamicConstantBuffer ? D3D11_ERROR_DEFERRED_CONTEXT_MAP_WITHOUT_INITIAL_DISCARD
                                                              : E_INVALIDARG);
    CONF_RELEASE(cb);

    CONF_RELEASE(dc);
    CONF_RELEASE(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_failed_map_sets_pdata_null_and_keeps_the_pitches, conf_setup,
                                        conf_teardown),
        cmocka_unit_test_setup_teardown(test_staging_map_pitches_are_tight_and_data_round_trips, conf_setup,
                                        conf_teardown),
        cmocka_unit_test_setup_teardown(test_each_usage_takes_only_its_map_types, conf_setup, conf_teardown),
        cmocka_unit_test_setup_teardown(test_deferred_map_needs_an_initial_discard_per_list, conf_setup,
                                        conf_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
