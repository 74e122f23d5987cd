/*
 * format.h - layer-neutral DXGI format table (docs/architecture.md: src/common/ holds the
 * format table used by the runtime for validation and by the UMD for pitches).
 *
 * Bind bits (WDDM_FMT_BIND_*) use the D3D11 *API* numbers (D3D11_BIND_*). The DDI numbers are
 * the same except UNORDERED_ACCESS (API 0x80, DDI D3D11_DDI_BIND_UNORDERED_ACCESS 0x100) and
 * PRESENT (DDI 0x80, no API bit): a DDI user translates those two.
 * Support bits (WDDM_FMT_SUPPORT_*) use the D3D11_FORMAT_SUPPORT numbers, so that
 * ID3D11Device::CheckFormatSupport can answer the mask (narrowed per feature level by the runtime).
 */
#ifndef WDDM_COMMON_FORMAT_H
#define WDDM_COMMON_FORMAT_H

#include "wddm/wintypes.h"
#include "dxgiformat.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which bind flags a resource of the format may carry (D3D11_BIND_* values). */
enum wddm_format_bind {
    WDDM_FMT_BIND_VERTEX_BUFFER    = 0x1,
    WDDM_FMT_BIND_INDEX_BUFFER     = 0x2,
    WDDM_FMT_BIND_SHADER_RESOURCE  = 0x8,
    WDDM_FMT_BIND_STREAM_OUTPUT    = 0x10,
    WDDM_FMT_BIND_RENDER_TARGET    = 0x20,
    WDDM_FMT_BIND_DEPTH_STENCIL    = 0x40,
    WDDM_FMT_BIND_UNORDERED_ACCESS = 0x80
};

/* What CheckFormatSupport reports (D3D11_FORMAT_SUPPORT values). */
enum wddm_format_support {
    WDDM_FMT_SUPPORT_BUFFER                   = 0x1,
    WDDM_FMT_SUPPORT_IA_VERTEX_BUFFER         = 0x2,
    WDDM_FMT_SUPPORT_IA_INDEX_BUFFER          = 0x4,
    WDDM_FMT_SUPPORT_SO_BUFFER                = 0x8,
    WDDM_FMT_SUPPORT_TEXTURE1D                = 0x10,
    WDDM_FMT_SUPPORT_TEXTURE2D                = 0x20,
    WDDM_FMT_SUPPORT_TEXTURE3D                = 0x40,
    WDDM_FMT_SUPPORT_TEXTURECUBE              = 0x80,
    WDDM_FMT_SUPPORT_SHADER_LOAD              = 0x100,
    WDDM_FMT_SUPPORT_SHADER_SAMPLE            = 0x200,
    WDDM_FMT_SUPPORT_MIP                      = 0x1000,
    WDDM_FMT_SUPPORT_RENDER_TARGET            = 0x4000,
    WDDM_FMT_SUPPORT_BLENDABLE                = 0x8000,
    WDDM_FMT_SUPPORT_DEPTH_STENCIL            = 0x10000,
    WDDM_FMT_SUPPORT_CPU_LOCKABLE             = 0x20000,
    WDDM_FMT_SUPPORT_DISPLAY                  = 0x80000,
    WDDM_FMT_SUPPORT_CAST_WITHIN_BIT_LAYOUT   = 0x100000,
    WDDM_FMT_SUPPORT_TYPED_UNORDERED_ACCESS_VIEW = 0x2000000
};

struct wddm_format_info {
    DXGI_FORMAT format;
    const char *name;            /* "R8G8B8A8_UNORM": for debug lines */
    UINT        bytes_per_elem;  /* bytes per texel, or per 4x4 block for BC formats */
    UINT        block_width;     /* 1, or 4 for BC */
    UINT        block_height;    /* 1, or 4 for BC */
    DXGI_FORMAT typeless_group;  /* the family's TYPELESS format (or the format itself when it has
                                  * no family): same group = copy-compatible (docs/semantics.md §4.4) */
    BOOL        is_typeless;
    BOOL        is_depth;        /* a depth/stencil format (D16, D24S8, D32, D32S8X24) */
    BOOL        is_compressed;   /* block-compressed (BC1..BC7) */
    UINT        bind;            /* enum wddm_format_bind: allowed bind flags */
    UINT        support;         /* enum wddm_format_support */
};

/* Info for a format, or NULL if libwddm does not support it (including DXGI_FORMAT_UNKNOWN). */
const struct wddm_format_info *wddm_format_info(DXGI_FORMAT f);

/* Bytes of one row of `width` texels (BC: blocks across * block bytes); 0 if unsupported. */
UINT wddm_format_row_bytes(DXGI_FORMAT f, UINT width);

/* Number of rows of a `height`-texel-high image (BC: block rows); 0 if unsupported. */
UINT wddm_format_rows(DXGI_FORMAT f, UINT height);

/* D3D11 copy rule: the two formats are in the same typeless group (docs/semantics.md §4.4). */
BOOL wddm_formats_copy_compatible(DXGI_FORMAT a, DXGI_FORMAT b);

#ifdef __cplusplus
}
#endif

#endif /* WDDM_COMMON_FORMAT_H */
