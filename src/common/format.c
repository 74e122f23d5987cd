/*
 * format.c - the DXGI format table (see format.h).
 *
 * Support bits: this stack's answer at feature level 11_0 (see the support masks below; the
 * runtime narrows them per feature level, src/runtime/format_support.c). Bind bits: depth
 * formats may only be bound DEPTH_STENCIL (their typeless parents and the R24_UNORM_X8 /
 * R32_FLOAT_X8X24 style siblings carry SHADER_RESOURCE); block-compressed formats are
 * shader-resource only.
 */
#include "common/format.h"

#include <stddef.h>

/* Support masks (feature level 11_0; the runtime narrows them for lower levels,
 * src/runtime/format_support.c). A bit is here only when this stack performs what it names
 * (docs/rules/common.md): TEXTURE1D/2D/3D/CUBE, MIP and CPU_LOCKABLE (the texture creates and a
 * STAGING copy maps), BUFFER (a typed buffer view of the format creates), IA_VERTEX_BUFFER /
 * IA_INDEX_BUFFER (the D3D11 format list of vertex / index data), RENDER_TARGET (a render-target
 * view creates and ClearRenderTargetView fills it), TYPED_UNORDERED_ACCESS_VIEW (a typed UAV
 * creates and ClearUnorderedAccessViewUint fills it), DEPTH_STENCIL, CAST_WITHIN_BIT_LAYOUT (the
 * family has other members a view may use). Never: SHADER_LOAD / SHADER_SAMPLE / ... / BLENDABLE
 * / MIP_AUTOGEN / SO_BUFFER / MULTISAMPLE_* / DISPLAY - no shader, blend unit, GenerateMips,
 * stream output, multisampling or scan-out exists in this stack.
 * Which format carries which bit follows "Format support for Direct3D Feature Level 11.0
 * hardware" (MicrosoftDocs/win32): typeless formats are textures only; SRGB, A8_UNORM and the
 * packed 16-bit BGR formats are no buffer or vertex data; BC formats have no 1-D textures. */
#define TEX_ALL   (WDDM_FMT_SUPPORT_TEXTURE1D | WDDM_FMT_SUPPORT_TEXTURE2D | WDDM_FMT_SUPPORT_TEXTURE3D | \
                   WDDM_FMT_SUPPORT_TEXTURECUBE | WDDM_FMT_SUPPORT_MIP | WDDM_FMT_SUPPORT_CPU_LOCKABLE)
#define TEX_NO1D  (WDDM_FMT_SUPPORT_TEXTURE2D | WDDM_FMT_SUPPORT_TEXTURE3D | WDDM_FMT_SUPPORT_TEXTURECUBE | \
                   WDDM_FMT_SUPPORT_MIP | WDDM_FMT_SUPPORT_CPU_LOCKABLE)
#define TEX_NO3D  (WDDM_FMT_SUPPORT_TEXTURE1D | WDDM_FMT_SUPPORT_TEXTURE2D | WDDM_FMT_SUPPORT_TEXTURECUBE | \
                   WDDM_FMT_SUPPORT_MIP | WDDM_FMT_SUPPORT_CPU_LOCKABLE)
#define CAST      WDDM_FMT_SUPPORT_CAST_WITHIN_BIT_LAYOUT
#define S_TYPELESS (TEX_ALL | CAST)
/* Typed data formats: buffer views and vertex data. */
#define S_DATA     (TEX_ALL | WDDM_FMT_SUPPORT_BUFFER | WDDM_FMT_SUPPORT_IA_VERTEX_BUFFER | CAST)
/* ... that are also render targets and typed UAVs (every format of the 11_0 typed-UAV list). */
#define S_RT_UAV   (S_DATA | WDDM_FMT_SUPPORT_RENDER_TARGET | WDDM_FMT_SUPPORT_TYPED_UNORDERED_ACCESS_VIEW)
/* BGRA colour: render target, buffer and vertex data, no typed UAV at 11_0. */
#define S_BGRA     (S_DATA | WDDM_FMT_SUPPORT_RENDER_TARGET)
/* SRGB colour: textures and render targets only. */
#define S_SRGB     (TEX_ALL | WDDM_FMT_SUPPORT_RENDER_TARGET | CAST)
/* A8_UNORM and the packed 16-bit BGR formats: a family of one, textures and render targets. */
#define S_RT_ONLY  (TEX_ALL | WDDM_FMT_SUPPORT_RENDER_TARGET)
#define S_DEPTH    (TEX_NO3D | WDDM_FMT_SUPPORT_DEPTH_STENCIL | CAST)
#define S_DEPTH_TYPELESS (TEX_NO3D | CAST)
#define S_DEPTH_VIEW (TEX_NO3D | CAST)
#define S_BC       (TEX_NO1D | CAST)

/* Bind masks. */
#define B_SR      (WDDM_FMT_BIND_SHADER_RESOURCE)
#define B_VB_SR   (WDDM_FMT_BIND_VERTEX_BUFFER | WDDM_FMT_BIND_SHADER_RESOURCE | WDDM_FMT_BIND_STREAM_OUTPUT)
#define B_RT      (B_VB_SR | WDDM_FMT_BIND_RENDER_TARGET)
#define B_RT_UAV  (B_RT | WDDM_FMT_BIND_UNORDERED_ACCESS)
#define B_DS      (WDDM_FMT_BIND_DEPTH_STENCIL)
/* A typeless parent of a depth format: a depth buffer that is also read as a texture. */
#define B_DS_SR   (WDDM_FMT_BIND_DEPTH_STENCIL | WDDM_FMT_BIND_SHADER_RESOURCE)

#define F(fmt, bytes, group, typeless, depth, bind_, support_) \
    [DXGI_FORMAT_##fmt] = { DXGI_FORMAT_##fmt, #fmt, (bytes), 1, 1, DXGI_FORMAT_##group, (typeless), (depth), FALSE, \
                            (bind_), (support_) }
#define BC(fmt, bytes, group, typeless) \
    [DXGI_FORMAT_##fmt] = { DXGI_FORMAT_##fmt, #fmt, (bytes), 4, 4, DXGI_FORMAT_##group, (typeless), FALSE, TRUE, \
                            B_SR, S_BC }

/* Indexed by DXGI_FORMAT; an entry with bytes_per_elem == 0 is an unsupported format. */
static const struct wddm_format_info format_table[DXGI_FORMAT_B4G4R4A4_UNORM + 1] = {
    /* 128-bit */
    F(R32G32B32A32_TYPELESS, 16, R32G32B32A32_TYPELESS, TRUE,  FALSE, B_RT_UAV, S_TYPELESS),
    F(R32G32B32A32_FLOAT,    16, R32G32B32A32_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R32G32B32A32_UINT,     16, R32G32B32A32_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R32G32B32A32_SINT,     16, R32G32B32A32_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    /* 96-bit: sampled and vertex data only (RT is optional at FL11 and not offered) */
    F(R32G32B32_TYPELESS,    12, R32G32B32_TYPELESS, TRUE,  FALSE, B_VB_SR, S_TYPELESS),
    F(R32G32B32_FLOAT,       12, R32G32B32_TYPELESS, FALSE, FALSE, B_VB_SR, S_DATA),
    F(R32G32B32_UINT,        12, R32G32B32_TYPELESS, FALSE, FALSE, B_VB_SR, S_DATA),
    F(R32G32B32_SINT,        12, R32G32B32_TYPELESS, FALSE, FALSE, B_VB_SR, S_DATA),
    /* 64-bit */
    F(R16G16B16A16_TYPELESS,  8, R16G16B16A16_TYPELESS, TRUE,  FALSE, B_RT_UAV, S_TYPELESS),
    F(R16G16B16A16_FLOAT,     8, R16G16B16A16_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R16G16B16A16_UNORM,     8, R16G16B16A16_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R16G16B16A16_UINT,      8, R16G16B16A16_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R16G16B16A16_SNORM,     8, R16G16B16A16_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R16G16B16A16_SINT,      8, R16G16B16A16_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R32G32_TYPELESS,        8, R32G32_TYPELESS, TRUE,  FALSE, B_RT_UAV, S_TYPELESS),
    F(R32G32_FLOAT,           8, R32G32_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R32G32_UINT,            8, R32G32_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R32G32_SINT,            8, R32G32_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R32G8X24_TYPELESS,      8, R32G8X24_TYPELESS, TRUE,  FALSE, B_DS_SR, S_DEPTH_TYPELESS),
    F(D32_FLOAT_S8X24_UINT,   8, R32G8X24_TYPELESS, FALSE, TRUE,  B_DS, S_DEPTH),
    F(R32_FLOAT_X8X24_TYPELESS, 8, R32G8X24_TYPELESS, FALSE, FALSE, B_SR, S_DEPTH_VIEW),
    F(X32_TYPELESS_G8X24_UINT,  8, R32G8X24_TYPELESS, FALSE, FALSE, B_SR, S_DEPTH_VIEW),
    /* 32-bit */
    F(R10G10B10A2_TYPELESS,   4, R10G10B10A2_TYPELESS, TRUE,  FALSE, B_RT_UAV, S_TYPELESS),
    F(R10G10B10A2_UNORM,      4, R10G10B10A2_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R10G10B10A2_UINT,       4, R10G10B10A2_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R11G11B10_FLOAT,        4, R11G11B10_FLOAT, FALSE, FALSE, B_RT_UAV, S_RT_UAV & ~CAST),
    F(R8G8B8A8_TYPELESS,      4, R8G8B8A8_TYPELESS, TRUE,  FALSE, B_RT_UAV, S_TYPELESS),
    F(R8G8B8A8_UNORM,         4, R8G8B8A8_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R8G8B8A8_UNORM_SRGB,    4, R8G8B8A8_TYPELESS, FALSE, FALSE, B_RT, S_SRGB),
    F(R8G8B8A8_UINT,          4, R8G8B8A8_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R8G8B8A8_SNORM,         4, R8G8B8A8_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R8G8B8A8_SINT,          4, R8G8B8A8_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R16G16_TYPELESS,        4, R16G16_TYPELESS, TRUE,  FALSE, B_RT_UAV, S_TYPELESS),
    F(R16G16_FLOAT,           4, R16G16_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R16G16_UNORM,           4, R16G16_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R16G16_UINT,            4, R16G16_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R16G16_SNORM,           4, R16G16_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R16G16_SINT,            4, R16G16_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R32_TYPELESS,           4, R32_TYPELESS, TRUE,  FALSE, B_RT_UAV | B_DS, S_TYPELESS),
    F(D32_FLOAT,              4, R32_TYPELESS, FALSE, TRUE,  B_DS, S_DEPTH),
    F(R32_FLOAT,              4, R32_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R32_UINT,               4, R32_TYPELESS, FALSE, FALSE, B_RT_UAV | WDDM_FMT_BIND_INDEX_BUFFER, S_RT_UAV | WDDM_FMT_SUPPORT_IA_INDEX_BUFFER),
    F(R32_SINT,               4, R32_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R24G8_TYPELESS,         4, R24G8_TYPELESS, TRUE,  FALSE, B_DS_SR, S_DEPTH_TYPELESS),
    F(D24_UNORM_S8_UINT,      4, R24G8_TYPELESS, FALSE, TRUE,  B_DS, S_DEPTH),
    F(R24_UNORM_X8_TYPELESS,  4, R24G8_TYPELESS, FALSE, FALSE, B_SR, S_DEPTH_VIEW),
    F(X24_TYPELESS_G8_UINT,   4, R24G8_TYPELESS, FALSE, FALSE, B_SR, S_DEPTH_VIEW),
    /* 16-bit */
    F(R8G8_TYPELESS,          2, R8G8_TYPELESS, TRUE,  FALSE, B_RT_UAV, S_TYPELESS),
    F(R8G8_UNORM,             2, R8G8_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R8G8_UINT,              2, R8G8_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R8G8_SNORM,             2, R8G8_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R8G8_SINT,              2, R8G8_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R16_TYPELESS,           2, R16_TYPELESS, TRUE,  FALSE, B_RT_UAV | B_DS, S_TYPELESS),
    F(R16_FLOAT,              2, R16_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(D16_UNORM,              2, R16_TYPELESS, FALSE, TRUE,  B_DS, S_DEPTH),
    F(R16_UNORM,              2, R16_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R16_UINT,               2, R16_TYPELESS, FALSE, FALSE, B_RT_UAV | WDDM_FMT_BIND_INDEX_BUFFER, S_RT_UAV | WDDM_FMT_SUPPORT_IA_INDEX_BUFFER),
    F(R16_SNORM,              2, R16_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R16_SINT,               2, R16_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(B5G6R5_UNORM,           2, B5G6R5_UNORM, FALSE, FALSE, B_RT, S_RT_ONLY),
    F(B5G5R5A1_UNORM,         2, B5G5R5A1_UNORM, FALSE, FALSE, B_RT, S_RT_ONLY),
    F(B4G4R4A4_UNORM,         2, B4G4R4A4_UNORM, FALSE, FALSE, B_RT, S_RT_ONLY),
    /* 8-bit */
    F(R8_TYPELESS,            1, R8_TYPELESS, TRUE,  FALSE, B_RT_UAV, S_TYPELESS),
    F(R8_UNORM,               1, R8_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R8_UINT,                1, R8_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R8_SNORM,               1, R8_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(R8_SINT,                1, R8_TYPELESS, FALSE, FALSE, B_RT_UAV, S_RT_UAV),
    F(A8_UNORM,               1, A8_UNORM, FALSE, FALSE, B_RT, S_RT_ONLY),
    /* shared exponent: sampled only */
    F(R9G9B9E5_SHAREDEXP,     4, R9G9B9E5_SHAREDEXP, FALSE, FALSE, B_SR, TEX_ALL),
    /* BGRA (DXGI 1.1 families) */
    F(B8G8R8A8_UNORM,         4, B8G8R8A8_TYPELESS, FALSE, FALSE, B_RT, S_BGRA),
    F(B8G8R8X8_UNORM,         4, B8G8R8X8_TYPELESS, FALSE, FALSE, B_RT, S_BGRA),
    F(R10G10B10_XR_BIAS_A2_UNORM, 4, R10G10B10_XR_BIAS_A2_UNORM, FALSE, FALSE, B_SR, TEX_ALL),
    F(B8G8R8A8_TYPELESS,      4, B8G8R8A8_TYPELESS, TRUE,  FALSE, B_RT, S_TYPELESS),
    F(B8G8R8A8_UNORM_SRGB,    4, B8G8R8A8_TYPELESS, FALSE, FALSE, B_RT, S_SRGB),
    F(B8G8R8X8_TYPELESS,      4, B8G8R8X8_TYPELESS, TRUE,  FALSE, B_RT, S_TYPELESS),
    F(B8G8R8X8_UNORM_SRGB,    4, B8G8R8X8_TYPELESS, FALSE, FALSE, B_RT, S_SRGB),
    /* block-compressed: 4x4 blocks, 8 bytes (BC1, BC4) or 16 bytes */
    BC(BC1_TYPELESS,  8, BC1_TYPELESS, TRUE),
    BC(BC1_UNORM,     8, BC1_TYPELESS, FALSE),
    BC(BC1_UNORM_SRGB, 8, BC1_TYPELESS, FALSE),
    BC(BC2_TYPELESS, 16, BC2_TYPELESS, TRUE),
    BC(BC2_UNORM,    16, BC2_TYPELESS, FALSE),
    BC(BC2_UNORM_SRGB, 16, BC2_TYPELESS, FALSE),
    BC(BC3_TYPELESS, 16, BC3_TYPELESS, TRUE),
    BC(BC3_UNORM,    16, BC3_TYPELESS, FALSE),
    BC(BC3_UNORM_SRGB, 16, BC3_TYPELESS, FALSE),
    BC(BC4_TYPELESS,  8, BC4_TYPELESS, TRUE),
    BC(BC4_UNORM,     8, BC4_TYPELESS, FALSE),
    BC(BC4_SNORM,     8, BC4_TYPELESS, FALSE),
    BC(BC5_TYPELESS, 16, BC5_TYPELESS, TRUE),
    BC(BC5_UNORM,    16, BC5_TYPELESS, FALSE),
    BC(BC5_SNORM,    16, BC5_TYPELESS, FALSE),
    BC(BC6H_TYPELESS, 16, BC6H_TYPELESS, TRUE),
    BC(BC6H_UF16,    16, BC6H_TYPELESS, FALSE),
    BC(BC6H_SF16,    16, BC6H_TYPELESS, FALSE),
    BC(BC7_TYPELESS, 16, BC7_TYPELESS, TRUE),
    BC(BC7_UNORM,    16, BC7_TYPELESS, FALSE),
    BC(BC7_UNORM_SRGB, 16, BC7_TYPELESS, FALSE),
};

const struct wddm_format_info *wddm_format_info(DXGI_FORMAT f)
{
    /* DXGI_FORMAT is an enum an application can fill with any number: range-check first. */
    if ((UINT)f >= sizeof(format_table) / sizeof(format_table[0]))
        return NULL;
    const struct wddm_format_info *info = &format_table[(UINT)f];
    return info->bytes_per_elem ? info : NULL;
}

UINT wddm_format_row_bytes(DXGI_FORMAT f, UINT width)
{
    const struct wddm_format_info *info = wddm_format_info(f);
    if (!info)
        return 0;
    /* BC: a partial block still occupies a whole block (64-bit math: no overflow for any UINT width). */
    UINT64 blocks = ((UINT64)width + info->block_width - 1) / info->block_width;
    UINT64 bytes = blocks * info->bytes_per_elem;
    return bytes > UINT32_MAX ? UINT32_MAX : (UINT)bytes;
}

UINT wddm_format_rows(DXGI_FORMAT f, UINT height)
{
    const struct wddm_format_info *info = wddm_format_info(f);
    if (!info)
        return 0;
    return (UINT)(((UINT64)height + info->block_height - 1) / info->block_height);
}

BOOL wddm_formats_copy_compatible(DXGI_FORMAT a, DXGI_FORMAT b)
{
    const struct wddm_format_info *ia = wddm_format_info(a);
    const struct wddm_format_info *ib = wddm_format_info(b);
    if (!ia || !ib)
        return FALSE;
    return ia->typeless_group == ib->typeless_group;
}
