/*
 * test_format.c - the layer-neutral DXGI format table (src/common/format.h): element sizes,
 * block-compressed pitches, typeless groups (D3D11 copy compatibility, docs/semantics.md §4.4)
 * and bind capabilities.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/format.h"

static void element_sizes_match_dxgi(void **state)
{
    static const struct { DXGI_FORMAT f; UINT bytes; } cases[] = {
        { DXGI_FORMAT_R8G8B8A8_UNORM, 4 },      { DXGI_FORMAT_B8G8R8A8_UNORM_SRGB, 4 },
        { DXGI_FORMAT_R32_FLOAT, 4 },           { DXGI_FORMAT_R32G32B32A32_FLOAT, 16 },
        { DXGI_FORMAT_R16_UINT, 2 },            { DXGI_FORMAT_R8_UNORM, 1 },
        { DXGI_FORMAT_D16_UNORM, 2 },           { DXGI_FORMAT_D24_UNORM_S8_UINT, 4 },
        { DXGI_FORMAT_D32_FLOAT, 4 },           { DXGI_FORMAT_BC1_UNORM, 8 },
        { DXGI_FORMAT_BC3_UNORM, 16 },          { DXGI_FORMAT_R32G32B32_FLOAT, 12 },
        { DXGI_FORMAT_D32_FLOAT_S8X24_UINT, 8 },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct wddm_format_info *fi = wddm_format_info(cases[i].f);
        assert_non_null(fi);
        assert_int_equal(fi->format, cases[i].f);
        assert_int_equal(fi->bytes_per_elem, cases[i].bytes);
    }
}

static void unsupported_formats_have_no_info(void **state)
{
    assert_null(wddm_format_info(DXGI_FORMAT_UNKNOWN));
    assert_null(wddm_format_info(DXGI_FORMAT_NV12));
    assert_null(wddm_format_info((DXGI_FORMAT)1000));
    assert_null(wddm_format_info((DXGI_FORMAT)-1));
    assert_int_equal(wddm_format_row_bytes(DXGI_FORMAT_UNKNOWN, 16), 0);
    assert_int_equal(wddm_format_rows((DXGI_FORMAT)1000, 16), 0);
    assert_false(wddm_formats_copy_compatible(DXGI_FORMAT_UNKNOWN, DXGI_FORMAT_UNKNOWN));
}

/* rule: umd.block-compressed-formats-count-rows-row */
static void block_compressed_pitches_count_whole_blocks(void **state)
{
    assert_int_equal(wddm_format_row_bytes(DXGI_FORMAT_BC1_UNORM, 64), 16 * 8);
    assert_int_equal(wddm_format_row_bytes(DXGI_FORMAT_BC1_UNORM, 1), 8);   /* a 1-texel mip is one block */
    assert_int_equal(wddm_format_row_bytes(DXGI_FORMAT_BC3_UNORM, 6), 32);  /* 2 blocks */
    assert_int_equal(wddm_format_rows(DXGI_FORMAT_BC1_UNORM, 64), 16);
    assert_int_equal(wddm_format_rows(DXGI_FORMAT_BC1_UNORM, 2), 1);
    assert_int_equal(wddm_format_row_bytes(DXGI_FORMAT_R8G8B8A8_UNORM, 17), 68);
    assert_int_equal(wddm_format_rows(DXGI_FORMAT_R8G8B8A8_UNORM, 17), 17);
    assert_int_equal(wddm_format_row_bytes(DXGI_FORMAT_R32G32B32A32_FLOAT, 0xffffffffu), 0xffffffffu); /* clamps */
    const struct wddm_format_info *bc = wddm_format_info(DXGI_FORMAT_BC1_UNORM_SRGB);
    assert_true(bc->is_compressed);
    assert_int_equal(bc->block_width, 4);
    assert_int_equal(bc->block_height, 4);
}

static void typeless_groups_decide_copy_compatibility(void **state)
{
    assert_true(wddm_formats_copy_compatible(DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB));
    assert_true(wddm_formats_copy_compatible(DXGI_FORMAT_R8G8B8A8_TYPELESS, DXGI_FORMAT_R8G8B8A8_SINT));
    assert_true(wddm_formats_copy_compatible(DXGI_FORMAT_D32_FLOAT, DXGI_FORMAT_R32_FLOAT));
    assert_true(wddm_formats_copy_compatible(DXGI_FORMAT_D24_UNORM_S8_UINT, DXGI_FORMAT_R24G8_TYPELESS));
    assert_true(wddm_formats_copy_compatible(DXGI_FORMAT_D16_UNORM, DXGI_FORMAT_R16_UINT));
    assert_true(wddm_formats_copy_compatible(DXGI_FORMAT_BC1_TYPELESS, DXGI_FORMAT_BC1_UNORM_SRGB));
    assert_true(wddm_formats_copy_compatible(DXGI_FORMAT_B8G8R8A8_UNORM, DXGI_FORMAT_B8G8R8A8_UNORM_SRGB));
    assert_false(wddm_formats_copy_compatible(DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_B8G8R8A8_UNORM));
    assert_false(wddm_formats_copy_compatible(DXGI_FORMAT_R32_FLOAT, DXGI_FORMAT_R16G16_FLOAT));
    assert_false(wddm_formats_copy_compatible(DXGI_FORMAT_BC1_UNORM, DXGI_FORMAT_BC2_UNORM));
}

static void bind_capabilities(void **state)
{
    const struct wddm_format_info *d24 = wddm_format_info(DXGI_FORMAT_D24_UNORM_S8_UINT);
    assert_true(d24->is_depth);
    assert_int_equal(d24->bind, WDDM_FMT_BIND_DEPTH_STENCIL);
    assert_false(d24->support & WDDM_FMT_SUPPORT_TEXTURE3D);
    const struct wddm_format_info *r24 = wddm_format_info(DXGI_FORMAT_R24G8_TYPELESS);
    assert_true(r24->is_typeless);
    assert_true(r24->bind & WDDM_FMT_BIND_DEPTH_STENCIL);
    assert_true(r24->bind & WDDM_FMT_BIND_SHADER_RESOURCE);
    const struct wddm_format_info *rgba = wddm_format_info(DXGI_FORMAT_R8G8B8A8_UNORM);
    assert_true(rgba->bind & WDDM_FMT_BIND_RENDER_TARGET);
    assert_true(rgba->support & WDDM_FMT_SUPPORT_RENDER_TARGET);
    assert_false(rgba->bind & WDDM_FMT_BIND_DEPTH_STENCIL);
    const struct wddm_format_info *bc1 = wddm_format_info(DXGI_FORMAT_BC1_UNORM);
    assert_int_equal(bc1->bind, WDDM_FMT_BIND_SHADER_RESOURCE);
    assert_false(bc1->support & WDDM_FMT_SUPPORT_TEXTURE1D);
    assert_true(wddm_format_info(DXGI_FORMAT_R16_UINT)->bind & WDDM_FMT_BIND_INDEX_BUFFER);
    assert_false(wddm_format_info(DXGI_FORMAT_R16_FLOAT)->bind & WDDM_FMT_BIND_INDEX_BUFFER);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(element_sizes_match_dxgi),
        cmocka_unit_test(unsupported_formats_have_no_info),
        cmocka_unit_test(block_compressed_pitches_count_whole_blocks),
        cmocka_unit_test(typeless_groups_decide_copy_compatibility),
        cmocka_unit_test(bind_capabilities),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
