/* ID3D11Device::CheckFormatSupport and CheckFeatureSupport(FORMAT_SUPPORT) as Windows answers
 * them, and creation agreeing with the answers (issue 14 §2; docs/rules/runtime.md). Sources:
 * Wine's dlls/d3d11/tests/d3d11.c test_format_support (run on Windows, every feature level),
 * the D3D11_FORMAT_SUPPORT reference and "Format support for Direct3D Feature Level 11.0
 * hardware" (MicrosoftDocs/win32). Everything goes through D3D11CreateDevice on the real stack.
 *
 * What this stack cannot do is never reported (no shader, blend unit, GenerateMips, stream
 * output, multisampling or scan-out): the tests assert those bits absent, and every bit that is
 * reported is exercised - the resource it names is created, viewed, cleared or mapped. */
/* rule: umd.clearunorderedaccessviewuint-puts-low (the UAV read-back of every format) */
#include "conformance/d3d11_conf.h"

#define LAST_FORMAT 191u /* DXGI_FORMAT_A4B4G4R4_UNORM: the enumeration's last value */

static const D3D_FEATURE_LEVEL levels[] = {
    D3D_FEATURE_LEVEL_9_1, D3D_FEATURE_LEVEL_9_2, D3D_FEATURE_LEVEL_9_3,
    D3D_FEATURE_LEVEL_10_0, D3D_FEATURE_LEVEL_10_1, D3D_FEATURE_LEVEL_11_0,
};

/* Bits naming an operation this stack has no unit for. */
#define NEVER_REPORTED (D3D11_FORMAT_SUPPORT_SO_BUFFER | D3D11_FORMAT_SUPPORT_SHADER_LOAD | \
                        D3D11_FORMAT_SUPPORT_SHADER_SAMPLE | D3D11_FORMAT_SUPPORT_SHADER_SAMPLE_COMPARISON | \
                        D3D11_FORMAT_SUPPORT_SHADER_SAMPLE_MONO_TEXT | D3D11_FORMAT_SUPPORT_MIP_AUTOGEN | \
                        D3D11_FORMAT_SUPPORT_BLENDABLE | D3D11_FORMAT_SUPPORT_MULTISAMPLE_RESOLVE | \
                        D3D11_FORMAT_SUPPORT_DISPLAY | D3D11_FORMAT_SUPPORT_MULTISAMPLE_RENDERTARGET | \
                        D3D11_FORMAT_SUPPORT_MULTISAMPLE_LOAD | D3D11_FORMAT_SUPPORT_SHADER_GATHER | \
                        D3D11_FORMAT_SUPPORT_BACK_BUFFER_CAST | D3D11_FORMAT_SUPPORT_SHADER_GATHER_COMPARISON)

/* The typeless families of the DXGI enumeration: a TYPELESS value and the typed values a view
 * of it may use (first..last, and for the BGRA families the two values the enumeration lists
 * apart from their TYPELESS one). */
static const struct { UINT typeless, first, last, extra; } families[] = {
    { 1, 2, 4, 0 },    { 5, 6, 8, 0 },    { 9, 10, 14, 0 },  { 15, 16, 18, 0 }, { 19, 20, 22, 0 },
    { 23, 24, 25, 0 }, { 27, 28, 32, 0 }, { 33, 34, 38, 0 }, { 39, 40, 43, 0 }, { 44, 45, 47, 0 },
    { 48, 49, 52, 0 }, { 53, 54, 59, 0 }, { 60, 61, 64, 0 }, { 70, 71, 72, 0 }, { 73, 74, 75, 0 },
    { 76, 77, 78, 0 }, { 79, 80, 81, 0 }, { 82, 83, 84, 0 }, { 90, 87, 87, 91 }, { 92, 88, 88, 93 },
    { 94, 95, 96, 0 }, { 97, 98, 99, 0 },
};

static int family_of(UINT f)
{
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
        if (families[i].typeless == f)
            return (int)i;
    return -1;
}

static BOOL is_srgb(UINT f)
{
    return f == DXGI_FORMAT_R8G8B8A8_UNORM_SRGB || f == DXGI_FORMAT_B8G8R8A8_UNORM_SRGB ||
           f == DXGI_FORMAT_B8G8R8X8_UNORM_SRGB || f == DXGI_FORMAT_BC1_UNORM_SRGB ||
           f == DXGI_FORMAT_BC2_UNORM_SRGB || f == DXGI_FORMAT_BC3_UNORM_SRGB || f == DXGI_FORMAT_BC7_UNORM_SRGB;
}

static BOOL is_bc(UINT f)
{
    return (f >= DXGI_FORMAT_BC1_TYPELESS && f <= DXGI_FORMAT_BC5_SNORM) ||
           (f >= DXGI_FORMAT_BC6H_TYPELESS && f <= DXGI_FORMAT_BC7_UNORM_SRGB);
}

static BOOL is_depth(UINT f)
{
    return f == DXGI_FORMAT_D32_FLOAT_S8X24_UINT || f == DXGI_FORMAT_D32_FLOAT || f == DXGI_FORMAT_D24_UNORM_S8_UINT ||
           f == DXGI_FORMAT_D16_UNORM;
}

static UINT support_of(ID3D11Device *dev, UINT f)
{
    UINT s = 0xdeadbeef;
    HRESULT hr = ID3D11Device_CheckFormatSupport(dev, (DXGI_FORMAT)f, &s);
    if (hr != S_OK && hr != E_FAIL)
        fail_msg("format %u: CheckFormatSupport 0x%08x", f, (unsigned)hr);
    return s;
}

/* What a resource of the format may be bound as: a TYPELESS format is bound through its typed
 * family members' views, so it takes what one of them supports. */
static UINT bind_support_of(ID3D11Device *dev, UINT f)
{
    UINT s = support_of(dev, f);
    int k = family_of(f);
    if (k < 0 || !s)
        return s;
    for (UINT m = families[k].first; m <= families[k].last; m++)
        s |= support_of(dev, m);
    if (families[k].extra)
        s |= support_of(dev, families[k].extra);
    return s;
}

/* ---- the answers --------------------------------------------------------------------------- */

/* At every feature level: a value that is no format (~0u) and every unsupported one answer
 * E_FAIL with 0, every supported one S_OK with a non-zero mask; FORMAT_SUPPORT through
 * CheckFeatureSupport answers the same; MIP_AUTOGEN implies TEXTURE2D; below 10_0 no BUFFER
 * and no SHADER_SAMPLE_COMPARISON, below 10_1 no SHADER_GATHER(_COMPARISON), below 11_0 no typed
 * UAV; R32G32B32A32_UINT
 * is never sampled (Wine test_format_support). */
/* rule: runtime.checkformatsupport-checkfeaturesupport */
/* rule: runtime.format-bits-only-what-stack-performs (NEVER_REPORTED, every format at every level) */
static void test_answers_are_consistent_at_every_level(void **state)
{
    (void)state;
    for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
        struct conf c;
        assert_int_equal(conf_open(&c, levels[l]), 0);
        UINT s = 0xdeadbeef;
        assert_int_equal(ID3D11Device_CheckFormatSupport(c.dev, (DXGI_FORMAT)~0u, &s), E_FAIL);
        assert_int_equal(s, 0);
        D3D11_FEATURE_DATA_FORMAT_SUPPORT fd = { (DXGI_FORMAT)~0u, 0xdeadbeef };
        assert_int_equal(ID3D11Device_CheckFeatureSupport(c.dev, D3D11_FEATURE_FORMAT_SUPPORT, &fd, sizeof fd), E_FAIL);
        assert_int_equal(fd.OutFormatSupport, 0);
        UINT supported = 0;
        for (UINT f = 0; f <= LAST_FORMAT + 8; f++) {
            s = 0xdeadbeef;
            HRESULT hr = ID3D11Device_CheckFormatSupport(c.dev, (DXGI_FORMAT)f, &s);
            if (!((hr == S_OK && s) || (hr == E_FAIL && !s)))
                fail_msg("level 0x%x format %u: 0x%08x with 0x%x", levels[l], f, (unsigned)hr, s);
            fd.InFormat = (DXGI_FORMAT)f;
            fd.OutFormatSupport = 0xdeadbeef;
            assert_int_equal(ID3D11Device_CheckFeatureSupport(c.dev, D3D11_FEATURE_FORMAT_SUPPORT, &fd, sizeof fd), hr);
            assert_int_equal(fd.OutFormatSupport, s);
            supported += s != 0;
            if (f > LAST_FORMAT || f == DXGI_FORMAT_UNKNOWN)
                assert_int_equal(s, 0);
            if (s & D3D11_FORMAT_SUPPORT_MIP_AUTOGEN)
                assert_true(s & D3D11_FORMAT_SUPPORT_TEXTURE2D);
            if (levels[l] < D3D_FEATURE_LEVEL_10_0)
                assert_int_equal(s & (D3D11_FORMAT_SUPPORT_SHADER_SAMPLE_COMPARISON | D3D11_FORMAT_SUPPORT_BUFFER), 0);
            /* Typed UAVs are a feature level 11_0 feature (10_x compute shaders have raw and
             * structured buffer UAVs only: D3D11 "Compute Shader on Downlevel Hardware"). */
            if (levels[l] < D3D_FEATURE_LEVEL_11_0)
                assert_int_equal(s & D3D11_FORMAT_SUPPORT_TYPED_UNORDERED_ACCESS_VIEW, 0);
            if (levels[l] < D3D_FEATURE_LEVEL_10_1)
                assert_int_equal(s & (D3D11_FORMAT_SUPPORT_SHADER_GATHER |
                                      D3D11_FORMAT_SUPPORT_SHADER_GATHER_COMPARISON), 0);
            /* Our choice (§30): no shader, blend, mip generation, stream output, MSAA, scan-out. */
            if (s & NEVER_REPORTED)
                fail_msg("level 0x%x format %u reports 0x%x, which this stack cannot do", levels[l], f,
                         s & NEVER_REPORTED);
        }
        assert_true(supported > 80); /* the table is there: the colour, depth and BC formats */
        assert_int_equal(support_of(c.dev, DXGI_FORMAT_R32G32B32A32_UINT) & D3D11_FORMAT_SUPPORT_SHADER_SAMPLE, 0);
        conf_close(&c);
    }
}

/* Index and vertex data (Wine test_format_support's index_buffers / vertex_buffers lists, and
 * the D3D11 rule that only R16_UINT and R32_UINT are index formats): R16_UINT indexes at every
 * level, R32_UINT from 9_2; R8G8_UINT, R11G11B10_FLOAT and R16_FLOAT are vertex data from 10_0
 * and not below. */
/* rule: runtime.ia-index-buffer-only-r16-uint */
/* rule: runtime.ia-buffer-bits-format-lists */
static void test_index_and_vertex_formats_follow_the_level(void **state)
{
    (void)state;
    for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
        struct conf c;
        assert_int_equal(conf_open(&c, levels[l]), 0);
        D3D_FEATURE_LEVEL fl = levels[l];
        for (UINT f = 0; f <= LAST_FORMAT; f++) {
            BOOL index = (support_of(c.dev, f) & D3D11_FORMAT_SUPPORT_IA_INDEX_BUFFER) != 0;
            BOOL want = f == DXGI_FORMAT_R16_UINT || (f == DXGI_FORMAT_R32_UINT && fl >= D3D_FEATURE_LEVEL_9_2);
            if (index != want)
                fail_msg("level 0x%x format %u: IA_INDEX_BUFFER %d, expected %d", fl, f, index, want);
        }
        static const DXGI_FORMAT from_10_0[] = { DXGI_FORMAT_R8G8_UINT, DXGI_FORMAT_R11G11B10_FLOAT,
                                                 DXGI_FORMAT_R16_FLOAT };
        for (size_t i = 0; i < 3; i++) {
            BOOL vb = (support_of(c.dev, from_10_0[i]) & D3D11_FORMAT_SUPPORT_IA_VERTEX_BUFFER) != 0;
            assert_int_equal(vb, fl >= D3D_FEATURE_LEVEL_10_0);
        }
        conf_close(&c);
    }
}

/* Feature level 11_0's required answers, as rules of the 11.0 format-support page: a TYPELESS
 * format is a texture only (no buffer, vertex, index, target or UAV use of its own) and casts
 * within its family; SRGB formats are no buffer, vertex or UAV data; BC formats have no 1-D
 * textures but 2-D, 3-D and cube ones; depth formats are DEPTH_STENCIL, never 3-D, never render
 * targets; the colour formats every 11_0 device renders to and writes through typed UAVs (the
 * R/RG/RGBA 8-, 16- and 32-bit UNORM/UINT/SINT/FLOAT, R10G10B10A2, R11G11B10) do; B8G8R8A8 and
 * B8G8R8X8_UNORM render, are buffer and vertex data, no typed UAV; every supported format is a
 * CPU_LOCKABLE 2-D texture with mips. */
/* rule: common.11-0-answers-follow-format-support */
/* rule: runtime.ia-buffer-bits-format-lists (IA_VERTEX_BUFFER on the data formats; B8G8R8A8 no typed UAV) */
static void test_level_11_0_required_bits(void **state)
{
    struct conf *c = *state;
    const UINT no_data = D3D11_FORMAT_SUPPORT_BUFFER | D3D11_FORMAT_SUPPORT_IA_VERTEX_BUFFER |
                         D3D11_FORMAT_SUPPORT_IA_INDEX_BUFFER;
    const UINT targets = D3D11_FORMAT_SUPPORT_RENDER_TARGET | D3D11_FORMAT_SUPPORT_DEPTH_STENCIL |
                         D3D11_FORMAT_SUPPORT_TYPED_UNORDERED_ACCESS_VIEW;
    for (UINT f = 1; f <= LAST_FORMAT; f++) {
        UINT s = support_of(c->dev, f);
        if (!s)
            continue;
        assert_true(s & D3D11_FORMAT_SUPPORT_TEXTURE2D);
        assert_true(s & D3D11_FORMAT_SUPPORT_MIP);
        assert_true(s & D3D11_FORMAT_SUPPORT_CPU_LOCKABLE);
        if (family_of(f) >= 0) {
            if (s & (no_data | targets))
                fail_msg("TYPELESS format %u reports 0x%x", f, s & (no_data | targets));
            assert_true(s & D3D11_FORMAT_SUPPORT_CAST_WITHIN_BIT_LAYOUT);
        }
        if (is_srgb(f) && (s & (no_data | D3D11_FORMAT_SUPPORT_TYPED_UNORDERED_ACCESS_VIEW)))
            fail_msg("SRGB format %u reports 0x%x", f, s);
        if (is_bc(f)) {
            assert_int_equal(s & (D3D11_FORMAT_SUPPORT_TEXTURE1D | no_data | targets), 0);
            assert_int_equal(s & (D3D11_FORMAT_SUPPORT_TEXTURE3D | D3D11_FORMAT_SUPPORT_TEXTURECUBE),
                             D3D11_FORMAT_SUPPORT_TEXTURE3D | D3D11_FORMAT_SUPPORT_TEXTURECUBE);
        }
        if (is_depth(f)) {
            assert_true(s & D3D11_FORMAT_SUPPORT_DEPTH_STENCIL);
            assert_int_equal(s & (D3D11_FORMAT_SUPPORT_TEXTURE3D | D3D11_FORMAT_SUPPORT_RENDER_TARGET | no_data), 0);
        } else {
            assert_int_equal(s & D3D11_FORMAT_SUPPORT_DEPTH_STENCIL, 0);
        }
    }
    static const DXGI_FORMAT rt_uav[] = {
        DXGI_FORMAT_R32G32B32A32_FLOAT, DXGI_FORMAT_R32G32B32A32_UINT, DXGI_FORMAT_R32G32B32A32_SINT,
        DXGI_FORMAT_R16G16B16A16_FLOAT, DXGI_FORMAT_R16G16B16A16_UNORM, DXGI_FORMAT_R16G16B16A16_UINT,
        DXGI_FORMAT_R16G16B16A16_SNORM, DXGI_FORMAT_R16G16B16A16_SINT, DXGI_FORMAT_R32G32_FLOAT,
        DXGI_FORMAT_R32G32_UINT, DXGI_FORMAT_R32G32_SINT, DXGI_FORMAT_R10G10B10A2_UNORM, DXGI_FORMAT_R10G10B10A2_UINT,
        DXGI_FORMAT_R11G11B10_FLOAT, DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_R8G8B8A8_UINT, DXGI_FORMAT_R8G8B8A8_SNORM,
        DXGI_FORMAT_R8G8B8A8_SINT, DXGI_FORMAT_R16G16_FLOAT, DXGI_FORMAT_R16G16_UNORM, DXGI_FORMAT_R16G16_UINT,
        DXGI_FORMAT_R16G16_SNORM, DXGI_FORMAT_R16G16_SINT, DXGI_FORMAT_R32_FLOAT, DXGI_FORMAT_R32_UINT,
        DXGI_FORMAT_R32_SINT, DXGI_FORMAT_R8G8_UNORM, DXGI_FORMAT_R8G8_UINT, DXGI_FORMAT_R8G8_SNORM,
        DXGI_FORMAT_R8G8_SINT, DXGI_FORMAT_R16_FLOAT, DXGI_FORMAT_R16_UNORM, DXGI_FORMAT_R16_UINT,
        DXGI_FORMAT_R16_SNORM, DXGI_FORMAT_R16_SINT, DXGI_FORMAT_R8_UNORM, DXGI_FORMAT_R8_UINT, DXGI_FORMAT_R8_SNORM,
        DXGI_FORMAT_R8_SINT,
    };
    const UINT data = D3D11_FORMAT_SUPPORT_BUFFER | D3D11_FORMAT_SUPPORT_IA_VERTEX_BUFFER;
    for (size_t i = 0; i < sizeof rt_uav / sizeof rt_uav[0]; i++) {
        UINT s = support_of(c->dev, rt_uav[i]);
        UINT want = D3D11_FORMAT_SUPPORT_RENDER_TARGET | D3D11_FORMAT_SUPPORT_TYPED_UNORDERED_ACCESS_VIEW | data |
                    D3D11_FORMAT_SUPPORT_TEXTURE1D | D3D11_FORMAT_SUPPORT_TEXTURE3D | D3D11_FORMAT_SUPPORT_TEXTURECUBE;
        if ((s & want) != want)
            fail_msg("format %u: 0x%x lacks 0x%x", rt_uav[i], s, want & ~s);
    }
    static const DXGI_FORMAT bgra[] = { DXGI_FORMAT_B8G8R8A8_UNORM, DXGI_FORMAT_B8G8R8X8_UNORM };
    for (size_t i = 0; i < 2; i++) {
        UINT s = support_of(c->dev, bgra[i]);
        assert_int_equal(s & (D3D11_FORMAT_SUPPORT_RENDER_TARGET | data), D3D11_FORMAT_SUPPORT_RENDER_TARGET | data);
        assert_int_equal(s & D3D11_FORMAT_SUPPORT_TYPED_UNORDERED_ACCESS_VIEW, 0);
    }
    /* BC6H and BC7 are 11_0 formats, BC4 and BC5 10_0 ones. */
    assert_true(support_of(c->dev, DXGI_FORMAT_BC7_UNORM) != 0);
}

/* rule: runtime.ia-index-buffer-only-r16-uint */
static void test_bc_formats_need_their_level(void **state)
{
    (void)state;
    for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
        struct conf c;
        assert_int_equal(conf_open(&c, levels[l]), 0);
        assert_int_equal(support_of(c.dev, DXGI_FORMAT_BC1_UNORM) != 0, 1);
        assert_int_equal(support_of(c.dev, DXGI_FORMAT_BC5_UNORM) != 0, levels[l] >= D3D_FEATURE_LEVEL_10_0);
        assert_int_equal(support_of(c.dev, DXGI_FORMAT_BC6H_UF16) != 0, levels[l] >= D3D_FEATURE_LEVEL_11_0);
        assert_int_equal(support_of(c.dev, DXGI_FORMAT_BC7_UNORM) != 0, levels[l] >= D3D_FEATURE_LEVEL_11_0);
        conf_close(&c);
    }
}

/* ---- creation agrees with the answers ------------------------------------------------------ */

static HRESULT make_tex(ID3D11Device *dev, UINT dim, UINT f, UINT mips, D3D11_USAGE usage, UINT bind, UINT cpu,
                        ID3D11Resource **out)
{
    *out = NULL;
    switch (dim) {
    case 1: {
        D3D11_TEXTURE1D_DESC d = { 8, mips, 1, (DXGI_FORMAT)f, usage, bind, cpu, 0 };
        return ID3D11Device_CreateTexture1D(dev, &d, NULL, (ID3D11Texture1D **)out);
    }
    case 3: {
        D3D11_TEXTURE3D_DESC d = { 8, 8, 4, mips, (DXGI_FORMAT)f, usage, bind, cpu, 0 };
        return ID3D11Device_CreateTexture3D(dev, &d, NULL, (ID3D11Texture3D **)out);
    }
    case 6: {
        D3D11_TEXTURE2D_DESC d = { 8, 8, mips, 6, (DXGI_FORMAT)f, { 1, 0 }, usage, bind, cpu,
                                   D3D11_RESOURCE_MISC_TEXTURECUBE };
        return ID3D11Device_CreateTexture2D(dev, &d, NULL, (ID3D11Texture2D **)out);
    }
    default: {
        D3D11_TEXTURE2D_DESC d = { 8, 8, mips, 1, (DXGI_FORMAT)f, { 1, 0 }, usage, bind, cpu, 0 };
        return ID3D11Device_CreateTexture2D(dev, &d, NULL, (ID3D11Texture2D **)out);
    }
    }
}

static void expect(BOOL reported, HRESULT hr, D3D_FEATURE_LEVEL fl, UINT f, const char *what)
{
    if (reported ? hr != S_OK : hr != E_INVALIDARG)
        fail_msg("level 0x%x format %u: %s answered 0x%08x, the support bit says %s", fl, f, what, (unsigned)hr,
                 reported ? "supported" : "not supported (E_INVALIDARG)");
}

/* Copies an 8x8 2-D texture into a STAGING one and tells whether any byte of its top level is
 * not zero (what a clear to 1.0 / 1 leaves in every format). */
static BOOL texture_has_data(struct conf *c, ID3D11Resource *tex, UINT f)
{
    ID3D11Resource *st = NULL;
    assert_int_equal(make_tex(c->dev, 2, f, 1, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, &st), S_OK);
    ID3D11DeviceContext_CopyResource(c->ctx, st, tex);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(c->ctx, st, 0, D3D11_MAP_READ, 0, &m), S_OK);
    BOOL any = FALSE;
    for (UINT i = 0; i < m.RowPitch * 8 && !any; i++)
        any = ((const BYTE *)m.pData)[i] != 0;
    ID3D11DeviceContext_Unmap(c->ctx, st, 0);
    CONF_RELEASE(st);
    return any;
}

/* For every DXGI_FORMAT value and every bit creation depends on: the creation succeeds when the
 * bit is reported and fails with E_INVALIDARG when it is not (D3D11: creation checks format
 * support). TEXTURE1D/2D/3D/CUBE: a DEFAULT texture of that kind; MIP: two levels; CPU_LOCKABLE:
 * a STAGING texture that maps; RENDER_TARGET / DEPTH_STENCIL / TYPED_UNORDERED_ACCESS_VIEW: the
 * bind (a TYPELESS format takes what its family's typed formats report), and for a typed format
 * reporting it, a view that is created and cleared (ClearRenderTargetView to 1.0,
 * ClearUnorderedAccessViewUint to 1) and read back; BUFFER: a typed buffer view;
 * TYPED_UNORDERED_ACCESS_VIEW also a typed buffer UAV. */
static void check_creation_at(D3D_FEATURE_LEVEL fl)
{
    struct conf c;
    assert_int_equal(conf_open(&c, fl), 0);
    for (UINT f = 0; f <= LAST_FORMAT; f++) {
        UINT s = support_of(c.dev, f), b = bind_support_of(c.dev, f);
        ID3D11Resource *r = NULL;
        static const struct { UINT dim, bit; const char *what; } dims[] = {
            { 1, D3D11_FORMAT_SUPPORT_TEXTURE1D, "CreateTexture1D" },
            { 2, D3D11_FORMAT_SUPPORT_TEXTURE2D, "CreateTexture2D" },
            { 3, D3D11_FORMAT_SUPPORT_TEXTURE3D, "CreateTexture3D" },
            { 6, D3D11_FORMAT_SUPPORT_TEXTURECUBE, "CreateTexture2D(TEXTURECUBE)" },
        };
        UINT some_dim = 0;
        for (size_t k = 0; k < 4; k++) {
            HRESULT hr = make_tex(c.dev, dims[k].dim, f, 1, D3D11_USAGE_DEFAULT, 0, 0, &r);
            expect((s & dims[k].bit) != 0, hr, fl, f, dims[k].what);
            CONF_RELEASE(r);
            if ((s & dims[k].bit) && !some_dim)
                some_dim = dims[k].dim;
        }
        if (!some_dim)
            some_dim = 2; /* unsupported: every creation below must fail */
        expect((s & D3D11_FORMAT_SUPPORT_MIP) != 0,
               make_tex(c.dev, some_dim, f, 2, D3D11_USAGE_DEFAULT, 0, 0, &r), fl, f, "MipLevels 2");
        CONF_RELEASE(r);
        HRESULT hr = make_tex(c.dev, some_dim, f, 1, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, &r);
        expect((s & D3D11_FORMAT_SUPPORT_CPU_LOCKABLE) != 0, hr, fl, f, "STAGING");
        if (hr == S_OK) {
            D3D11_MAPPED_SUBRESOURCE m = { 0 };
            assert_int_equal(ID3D11DeviceContext_Map(c.ctx, r, 0, D3D11_MAP_READ, 0, &m), S_OK);
            assert_non_null(m.pData);
            ID3D11DeviceContext_Unmap(c.ctx, r, 0);
        }
        CONF_RELEASE(r);

        /* Render target: bind, view, clear, read back. */
        hr = make_tex(c.dev, 2, f, 1, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0, &r);
        expect((b & D3D11_FORMAT_SUPPORT_RENDER_TARGET) != 0, hr, fl, f, "BIND_RENDER_TARGET");
        if (hr == S_OK && (s & D3D11_FORMAT_SUPPORT_RENDER_TARGET)) {
            ID3D11RenderTargetView *v = NULL;
            assert_int_equal(ID3D11Device_CreateRenderTargetView(c.dev, r, NULL, &v), S_OK);
            static const FLOAT one[4] = { 1.0f, 1.0f, 1.0f, 1.0f };
            ID3D11DeviceContext_ClearRenderTargetView(c.ctx, v, one);
            if (!texture_has_data(&c, r, f))
                fail_msg("level 0x%x format %u: ClearRenderTargetView left the target empty", fl, f);
            CONF_RELEASE(v);
        }
        CONF_RELEASE(r);

        hr = make_tex(c.dev, 2, f, 1, D3D11_USAGE_DEFAULT, D3D11_BIND_DEPTH_STENCIL, 0, &r);
        expect((b & D3D11_FORMAT_SUPPORT_DEPTH_STENCIL) != 0, hr, fl, f, "BIND_DEPTH_STENCIL");
        CONF_RELEASE(r);

        /* Typed UAV: bind, view, clear, read back. */
        hr = make_tex(c.dev, 2, f, 1, D3D11_USAGE_DEFAULT, D3D11_BIND_UNORDERED_ACCESS, 0, &r);
        expect((b & D3D11_FORMAT_SUPPORT_TYPED_UNORDERED_ACCESS_VIEW) != 0, hr, fl, f, "BIND_UNORDERED_ACCESS");
        if (hr == S_OK && (s & D3D11_FORMAT_SUPPORT_TYPED_UNORDERED_ACCESS_VIEW)) {
            ID3D11UnorderedAccessView *v = NULL;
            assert_int_equal(ID3D11Device_CreateUnorderedAccessView(c.dev, r, NULL, &v), S_OK);
            static const UINT one[4] = { 1, 1, 1, 1 };
            ID3D11DeviceContext_ClearUnorderedAccessViewUint(c.ctx, v, one);
            if (!texture_has_data(&c, r, f))
                fail_msg("level 0x%x format %u: ClearUnorderedAccessViewUint left the texture empty", fl, f);
            CONF_RELEASE(v);
        }
        CONF_RELEASE(r);

        /* Buffer views with the format. */
        if (f != DXGI_FORMAT_UNKNOWN) {
            ID3D11Buffer *buf = NULL;
            D3D11_BUFFER_DESC bd = { 256, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0, 0, 0 };
            assert_int_equal(ID3D11Device_CreateBuffer(c.dev, &bd, NULL, &buf), S_OK);
            D3D11_SHADER_RESOURCE_VIEW_DESC sd = { (DXGI_FORMAT)f, D3D11_SRV_DIMENSION_BUFFER, { .Buffer = { { 0 }, { 4 } } } };
            ID3D11ShaderResourceView *sv = NULL;
            expect((s & D3D11_FORMAT_SUPPORT_BUFFER) != 0,
                   ID3D11Device_CreateShaderResourceView(c.dev, (ID3D11Resource *)buf, &sd, &sv), fl, f,
                   "buffer shader resource view");
            CONF_RELEASE(sv);
            CONF_RELEASE(buf);
            if (fl >= D3D_FEATURE_LEVEL_11_0) {
                bd.BindFlags = D3D11_BIND_UNORDERED_ACCESS;
                assert_int_equal(ID3D11Device_CreateBuffer(c.dev, &bd, NULL, &buf), S_OK);
                D3D11_UNORDERED_ACCESS_VIEW_DESC ud = { (DXGI_FORMAT)f, D3D11_UAV_DIMENSION_BUFFER,
                                                        { .Buffer = { 0, 4, 0 } } };
                ID3D11UnorderedAccessView *uv = NULL;
                expect((s & D3D11_FORMAT_SUPPORT_TYPED_UNORDERED_ACCESS_VIEW) != 0,
                       ID3D11Device_CreateUnorderedAccessView(c.dev, (ID3D11Resource *)buf, &ud, &uv), fl, f,
                       "typed buffer unordered access view");
                CONF_RELEASE(uv);
                CONF_RELEASE(buf);
            }
        }
    }
    conf_close(&c);
}

/* rule: runtime.creation-agrees-answers-every-dxgi */
static void test_creation_agrees_with_the_answers_11_0(void **state)
{
    (void)state;
    check_creation_at(D3D_FEATURE_LEVEL_11_0);
}

/* rule: runtime.creation-agrees-answers-every-dxgi */
static void test_creation_agrees_with_the_answers_10_0(void **state)
{
    (void)state;
    check_creation_at(D3D_FEATURE_LEVEL_10_0);
}

/* rule: runtime.creation-agrees-answers-every-dxgi (both driver models) */
static void test_creation_agrees_with_the_answers_9_1(void **state)
{
    (void)state;
    check_creation_at(D3D_FEATURE_LEVEL_9_1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_answers_are_consistent_at_every_level),
        cmocka_unit_test(test_index_and_vertex_formats_follow_the_level),
        cmocka_unit_test_setup_teardown(test_level_11_0_required_bits, conf_setup, conf_teardown),
        cmocka_unit_test(test_bc_formats_need_their_level),
        cmocka_unit_test(test_creation_agrees_with_the_answers_11_0),
        cmocka_unit_test(test_creation_agrees_with_the_answers_10_0),
        cmocka_unit_test(test_creation_agrees_with_the_answers_9_1),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
