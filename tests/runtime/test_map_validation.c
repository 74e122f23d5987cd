/*
 * test_map_validation.c - ID3D11DeviceContext::Map / Unmap rules (docs/semantics.md §5.2, §5.3,
 * model decision #5) and the DDI slot the runtime picks for each usage (§4.3), table-driven:
 * every map type against every usage / CPU-access combination.
 */
#include "runtime/mock_umd.h"

enum kind {
    K_DEFAULT_BUFFER, K_IMMUTABLE_BUFFER, K_DYNAMIC_VB, K_DYNAMIC_IB_VB, K_DYNAMIC_CB, K_DYNAMIC_SR_BUFFER,
    K_STAGING_READ, K_STAGING_WRITE, K_STAGING_RW, K_DEFAULT_TEX, K_DYNAMIC_TEX, K_STAGING_TEX_RW, K_COUNT
};

static const char *const kind_names[K_COUNT] = {
    "default_buffer", "immutable_buffer", "dynamic_vb", "dynamic_ib_vb", "dynamic_cb", "dynamic_sr_buffer",
    "staging_read", "staging_write", "staging_rw", "default_tex", "dynamic_tex", "staging_tex_rw",
};

static ID3D11Resource *make(ID3D11Device *dev, enum kind k)
{
    static const BYTE data[4096];
    D3D11_SUBRESOURCE_DATA init = { data, 64, 0 };
    D3D11_BUFFER_DESC b = { 256, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0 };
    D3D11_TEXTURE2D_DESC t = { 16, 16, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D11_USAGE_DEFAULT,
                               D3D11_BIND_SHADER_RESOURCE, 0, 0 };
    BOOL tex = FALSE, with_init = FALSE;
    switch (k) {
    case K_DEFAULT_BUFFER: break;
    case K_IMMUTABLE_BUFFER: b.Usage = D3D11_USAGE_IMMUTABLE; with_init = TRUE; break;
    case K_DYNAMIC_VB: b.Usage = D3D11_USAGE_DYNAMIC; b.CPUAccessFlags = D3D11_CPU_ACCESS_WRITE; break;
    case K_DYNAMIC_IB_VB:
        b.Usage = D3D11_USAGE_DYNAMIC; b.CPUAccessFlags = D3D11_CPU_ACCESS_WRITE;
        b.BindFlags = D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_INDEX_BUFFER;
        break;
    case K_DYNAMIC_CB:
        b.Usage = D3D11_USAGE_DYNAMIC; b.CPUAccessFlags = D3D11_CPU_ACCESS_WRITE; b.BindFlags = D3D11_BIND_CONSTANT_BUFFER;
        break;
    case K_DYNAMIC_SR_BUFFER:
        b.Usage = D3D11_USAGE_DYNAMIC; b.CPUAccessFlags = D3D11_CPU_ACCESS_WRITE; b.BindFlags = D3D11_BIND_SHADER_RESOURCE;
        break;
    case K_STAGING_READ: b.Usage = D3D11_USAGE_STAGING; b.BindFlags = 0; b.CPUAccessFlags = D3D11_CPU_ACCESS_READ; break;
    case K_STAGING_WRITE: b.Usage = D3D11_USAGE_STAGING; b.BindFlags = 0; b.CPUAccessFlags = D3D11_CPU_ACCESS_WRITE; break;
    case K_STAGING_RW:
        b.Usage = D3D11_USAGE_STAGING; b.BindFlags = 0;
        b.CPUAccessFlags = D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE;
        break;
    case K_DEFAULT_TEX: tex = TRUE; break;
    case K_DYNAMIC_TEX: tex = TRUE; t.Usage = D3D11_USAGE_DYNAMIC; t.CPUAccessFlags = D3D11_CPU_ACCESS_WRITE; break;
    case K_STAGING_TEX_RW:
        tex = TRUE; t.Usage = D3D11_USAGE_STAGING; t.BindFlags = 0; t.MipLevels = 0; t.ArraySize = 2;
        t.CPUAccessFlags = D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE;
        break;
    default: break;
    }
    HRESULT hr;
    ID3D11Resource *r = NULL;
    if (tex)
        hr = ID3D11Device_CreateTexture2D(dev, &t, NULL, (ID3D11Texture2D **)&r);
    else
        hr = ID3D11Device_CreateBuffer(dev, &b, with_init ? &init : NULL, (ID3D11Buffer **)&r);
    assert_int_equal(hr, S_OK);
    return r;
}

#define NONE (-1)
#define DNW D3D11_MAP_FLAG_DO_NOT_WAIT
struct map_case {
    enum kind kind;
    D3D11_MAP type;
    UINT flags;
    HRESULT expect;
    int slot; /* enum mock_slot the map must reach, NONE if refused */
};

static const struct map_case map_cases[] = {
    /* DEFAULT and IMMUTABLE: never mappable. */
    { K_DEFAULT_BUFFER, D3D11_MAP_READ, 0, E_INVALIDARG, NONE },
    { K_DEFAULT_BUFFER, D3D11_MAP_WRITE, 0, E_INVALIDARG, NONE },
    { K_DEFAULT_BUFFER, D3D11_MAP_READ_WRITE, 0, E_INVALIDARG, NONE },
    { K_DEFAULT_BUFFER, D3D11_MAP_WRITE_DISCARD, 0, E_INVALIDARG, NONE },
    { K_DEFAULT_BUFFER, D3D11_MAP_WRITE_NO_OVERWRITE, 0, E_INVALIDARG, NONE },
    { K_IMMUTABLE_BUFFER, D3D11_MAP_READ, 0, E_INVALIDARG, NONE },
    { K_IMMUTABLE_BUFFER, D3D11_MAP_WRITE_DISCARD, 0, E_INVALIDARG, NONE },
    { K_DEFAULT_TEX, D3D11_MAP_WRITE_DISCARD, 0, E_INVALIDARG, NONE },
    { K_DEFAULT_TEX, D3D11_MAP_READ, 0, E_INVALIDARG, NONE },
    /* DYNAMIC: DISCARD / NO_OVERWRITE only; slots by bind flags. */
    { K_DYNAMIC_VB, D3D11_MAP_READ, 0, E_INVALIDARG, NONE },
    { K_DYNAMIC_VB, D3D11_MAP_WRITE, 0, E_INVALIDARG, NONE },
    { K_DYNAMIC_VB, D3D11_MAP_READ_WRITE, 0, E_INVALIDARG, NONE },
    { K_DYNAMIC_VB, D3D11_MAP_WRITE_DISCARD, 0, S_OK, MOCK_MAP_IA_DISCARD },
    { K_DYNAMIC_VB, D3D11_MAP_WRITE_NO_OVERWRITE, 0, S_OK, MOCK_MAP_IA_NOOVERWRITE },
    { K_DYNAMIC_VB, D3D11_MAP_WRITE_DISCARD, DNW, E_INVALIDARG, NONE },
    { K_DYNAMIC_VB, D3D11_MAP_WRITE_NO_OVERWRITE, DNW, E_INVALIDARG, NONE },
    { K_DYNAMIC_IB_VB, D3D11_MAP_WRITE_DISCARD, 0, S_OK, MOCK_MAP_IA_DISCARD },
    { K_DYNAMIC_IB_VB, D3D11_MAP_WRITE_NO_OVERWRITE, 0, S_OK, MOCK_MAP_IA_NOOVERWRITE },
    { K_DYNAMIC_CB, D3D11_MAP_WRITE_DISCARD, 0, S_OK, MOCK_MAP_CB_DISCARD },
    { K_DYNAMIC_CB, D3D11_MAP_WRITE_NO_OVERWRITE, 0, E_INVALIDARG, NONE },
    { K_DYNAMIC_CB, D3D11_MAP_WRITE, 0, E_INVALIDARG, NONE },
    { K_DYNAMIC_SR_BUFFER, D3D11_MAP_WRITE_DISCARD, 0, S_OK, MOCK_MAP_DYNAMIC_DISCARD },
    { K_DYNAMIC_SR_BUFFER, D3D11_MAP_WRITE_NO_OVERWRITE, 0, E_INVALIDARG, NONE },
    { K_DYNAMIC_TEX, D3D11_MAP_WRITE_DISCARD, 0, S_OK, MOCK_MAP_DYNAMIC_DISCARD },
    { K_DYNAMIC_TEX, D3D11_MAP_WRITE_NO_OVERWRITE, 0, E_INVALIDARG, NONE },
    { K_DYNAMIC_TEX, D3D11_MAP_READ, 0, E_INVALIDARG, NONE },
    { K_DYNAMIC_TEX, D3D11_MAP_WRITE_DISCARD, DNW, E_INVALIDARG, NONE },
    /* STAGING: READ / WRITE / READ_WRITE matching the CPU-access flags. */
    { K_STAGING_READ, D3D11_MAP_READ, 0, S_OK, MOCK_MAP_STAGING },
    { K_STAGING_READ, D3D11_MAP_READ, DNW, S_OK, MOCK_MAP_STAGING },
    { K_STAGING_READ, D3D11_MAP_WRITE, 0, E_INVALIDARG, NONE },
    { K_STAGING_READ, D3D11_MAP_READ_WRITE, 0, E_INVALIDARG, NONE },
    { K_STAGING_READ, D3D11_MAP_WRITE_DISCARD, 0, E_INVALIDARG, NONE },
    { K_STAGING_READ, D3D11_MAP_WRITE_NO_OVERWRITE, 0, E_INVALIDARG, NONE },
    { K_STAGING_WRITE, D3D11_MAP_WRITE, 0, S_OK, MOCK_MAP_STAGING },
    { K_STAGING_WRITE, D3D11_MAP_READ, 0, E_INVALIDARG, NONE },
    { K_STAGING_WRITE, D3D11_MAP_READ_WRITE, 0, E_INVALIDARG, NONE },
    { K_STAGING_WRITE, D3D11_MAP_WRITE_DISCARD, 0, E_INVALIDARG, NONE },
    { K_STAGING_RW, D3D11_MAP_READ, 0, S_OK, MOCK_MAP_STAGING },
    { K_STAGING_RW, D3D11_MAP_WRITE, 0, S_OK, MOCK_MAP_STAGING },
    { K_STAGING_RW, D3D11_MAP_READ_WRITE, 0, S_OK, MOCK_MAP_STAGING },
    { K_STAGING_RW, D3D11_MAP_READ_WRITE, DNW, S_OK, MOCK_MAP_STAGING },
    { K_STAGING_RW, D3D11_MAP_WRITE_NO_OVERWRITE, 0, E_INVALIDARG, NONE },
    { K_STAGING_TEX_RW, D3D11_MAP_READ_WRITE, 0, S_OK, MOCK_MAP_STAGING },
    { K_STAGING_TEX_RW, D3D11_MAP_WRITE_DISCARD, 0, E_INVALIDARG, NONE },
    /* Garbage map types and flags. */
    { K_STAGING_RW, (D3D11_MAP)0, 0, E_INVALIDARG, NONE },
    { K_STAGING_RW, (D3D11_MAP)6, 0, E_INVALIDARG, NONE },
    { K_STAGING_RW, D3D11_MAP_READ, 0x1, E_INVALIDARG, NONE },
};

static int unmap_slot_for(int map_slot)
{
    switch (map_slot) {
    case MOCK_MAP_IA_DISCARD:
    case MOCK_MAP_IA_NOOVERWRITE: return MOCK_UNMAP_IA;
    case MOCK_MAP_CB_DISCARD: return MOCK_UNMAP_CB;
    case MOCK_MAP_STAGING: return MOCK_UNMAP_STAGING;
    case MOCK_MAP_DYNAMIC_DISCARD: return MOCK_UNMAP_DYNAMIC;
    default: return MOCK_UNMAP_RESOURCE;
    }
}

static int slot_calls_total(void)
{
    int n = 0;
    for (int i = 0; i < MOCK_SLOT_COUNT; i++)
        n += mock.slot[i];
    return n;
}

/* rule: runtime.default-immutable-resources-cannot */
/* rule: runtime.dynamic-takes-only-write-discard-write */
/* rule: runtime.write-no-overwrite-only-dynamic-buffers (`K_DYNAMIC_CB`, `K_DYNAMIC_SR_BUFFER`, `K_DYNAMIC_TEX` rows) */
/* rule: runtime.staging-takes-read-write-read-write */
/* rule: runtime.map-type-outside-1-5-mapflags (garbage rows) */
/* rule: runtime.not-wait-write-discard-write-no (DNW rows) */
/* rule: runtime.runtime-picks-ddi-slot-usage-bind */
/* rule: runtime.null-resource-null-pmappedresource-view */
/* rule: runtime.returned-pitches-never-0 (mock) */
/* rule: runtime.not-wait-write-discard-write-no-2 */
/* rule: runtime.write-no-overwrite-only-dynamic-buffers-2 */
static void map_type_rules_per_usage(void **state)
{
    struct mock_env *env = *state;
    ID3D11Resource *res[K_COUNT];
    for (int k = 0; k < K_COUNT; k++)
        res[k] = make(env->dev, (enum kind)k);

    for (size_t i = 0; i < sizeof(map_cases) / sizeof(map_cases[0]); i++) {
        const struct map_case *c = &map_cases[i];
        int before = slot_calls_total();
        int slot_before = c->slot == NONE ? 0 : mock.slot[c->slot];
        D3D11_MAPPED_SUBRESOURCE m = { (void *)1, 1, 1 };
        HRESULT hr = ID3D11DeviceContext_Map(env->ctx, res[c->kind], 0, c->type, c->flags, &m);
        if (hr != c->expect)
            fail_msg("case %zu (%s, map %u, flags 0x%x): Map returned 0x%08x, expected 0x%08x", i,
                     kind_names[c->kind], (UINT)c->type, c->flags, (UINT)hr, (UINT)c->expect);
        if (c->slot == NONE) {
            if (slot_calls_total() != before)
                fail_msg("case %zu (%s): refused map reached the UMD", i, kind_names[c->kind]);
            if (m.pData != NULL)
                fail_msg("case %zu: pMappedResource not cleared on refusal", i);
            continue;
        }
        if (mock.slot[c->slot] != slot_before + 1)
            fail_msg("case %zu (%s, map %u): wrong DDI slot", i, kind_names[c->kind], (UINT)c->type);
        assert_int_equal(mock.last_map_type, (D3D10_DDI_MAP)c->type); /* same numbers */
        assert_int_equal(mock.last_map_flags, (c->flags & DNW) ? D3D10_DDI_MAP_FLAG_DONOTWAIT : 0);
        assert_non_null(m.pData);
        assert_true(m.RowPitch != 0 && m.DepthPitch != 0);
        int unmap = unmap_slot_for(c->slot), unmap_before = mock.slot[unmap];
        ID3D11DeviceContext_Unmap(env->ctx, res[c->kind], 0);
        if (mock.slot[unmap] != unmap_before + 1)
            fail_msg("case %zu (%s): Unmap went to the wrong slot", i, kind_names[c->kind]);
    }
    for (int k = 0; k < K_COUNT; k++)
        ID3D11Resource_Release(res[k]);
}

/* rule: runtime.subresource-index-range-buffers-map */
/* rule: runtime.double-map-same-subresource-e-invalidarg */
/* rule: runtime.unmap-subresource-not-mapped-refused */
/* rule: runtime.null-resource-null-pmappedresource-view */
/* rule: runtime.releasing-still-mapped-resource-unmaps */
/* rule: runtime.double-map-one-subresource-refused-unmap */
static void double_map_and_stray_unmap_are_refused(void **state)
{
    struct mock_env *env = *state;
    ID3D11Resource *r = make(env->dev, K_STAGING_TEX_RW); /* 16x16, 5 mips, 2 slices = 10 subresources */
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(env->ctx, r, 3, D3D11_MAP_READ, 0, &m), S_OK);
    assert_int_equal(mock.last_map_sub, 3);
    /* Same subresource again: refused before the UMD (docs/semantics.md §5.3, model decision). */
    assert_int_equal(ID3D11DeviceContext_Map(env->ctx, r, 3, D3D11_MAP_READ, 0, &m), E_INVALIDARG);
    assert_int_equal(mock.slot[MOCK_MAP_STAGING], 1);
    /* Another subresource is independent. */
    assert_int_equal(ID3D11DeviceContext_Map(env->ctx, r, D3D11CalcSubresource(1, 1, 5), D3D11_MAP_WRITE, 0, &m),
                     S_OK);
    /* Out of range. */
    assert_int_equal(ID3D11DeviceContext_Map(env->ctx, r, 10, D3D11_MAP_READ, 0, &m), E_INVALIDARG);
    ID3D11DeviceContext_Unmap(env->ctx, r, 10);
    /* Unmap of a subresource that is not mapped: nothing reaches the UMD. */
    ID3D11DeviceContext_Unmap(env->ctx, r, 4);
    assert_int_equal(mock.slot[MOCK_UNMAP_STAGING], 0);
    ID3D11DeviceContext_Unmap(env->ctx, r, 3);
    ID3D11DeviceContext_Unmap(env->ctx, r, 3);
    assert_int_equal(mock.slot[MOCK_UNMAP_STAGING], 1);
    /* NULL pMappedResource and NULL resource. */
    assert_int_equal(ID3D11DeviceContext_Map(env->ctx, r, 0, D3D11_MAP_READ, 0, NULL), E_INVALIDARG);
    assert_int_equal(ID3D11DeviceContext_Map(env->ctx, NULL, 0, D3D11_MAP_READ, 0, &m), E_INVALIDARG);
    ID3D11DeviceContext_Unmap(env->ctx, NULL, 0);
    /* Releasing a resource that is still mapped unmaps it first (lock/unlock stay paired). */
    ID3D11Resource_Release(r);
    assert_int_equal(mock.slot[MOCK_UNMAP_STAGING], 2);
    assert_int_equal(mock.destroy_resource, 1);
}

/* rule: runtime.subresource-index-range-buffers-map */
static void buffers_map_subresource_zero_only(void **state)
{
    struct mock_env *env = *state;
    ID3D11Resource *r = make(env->dev, K_DYNAMIC_VB);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(env->ctx, r, 1, D3D11_MAP_WRITE_DISCARD, 0, &m), E_INVALIDARG);
    assert_int_equal(ID3D11DeviceContext_Map(env->ctx, r, 0, D3D11_MAP_WRITE_DISCARD, 0, &m), S_OK);
    assert_int_equal(mock.last_map_sub, 0);
    memset(m.pData, 0xab, 256); /* the pointer is usable for the whole buffer */
    ID3D11DeviceContext_Unmap(env->ctx, r, 0);
    ID3D11Resource_Release(r);
}

/* rule: runtime.null-resource-null-pmappedresource-view */
static void resource_of_another_device_is_refused(void **state)
{
    struct mock_env *env = *state;
    ID3D11Device *dev2;
    ID3D11DeviceContext *ctx2;
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev2, NULL,
                                       &ctx2), S_OK);
    ID3D11Resource *r = make(env->dev, K_STAGING_RW);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(ctx2, r, 0, D3D11_MAP_READ, 0, &m), E_INVALIDARG);
    assert_int_equal(mock.slot[MOCK_MAP_STAGING], 0);
    ID3D11Resource_Release(r);
    ID3D11DeviceContext_Release(ctx2);
    ID3D11Device_Release(dev2);
    mock.destroy_device--; /* the teardown counts the fixture's device only */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(map_type_rules_per_usage, mock_setup, mock_teardown),
        cmocka_unit_test_setup_teardown(double_map_and_stray_unmap_are_refused, mock_setup, mock_teardown),
        cmocka_unit_test_setup_teardown(buffers_map_subresource_zero_only, mock_setup, mock_teardown),
        cmocka_unit_test_setup_teardown(resource_of_another_device_is_refused, mock_setup, mock_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
