/* clear.c - ClearRenderTargetView as SWGPU_OP_FILL commands over the view's subresources,
 * with the RGBA float colour converted to one element of the view's format:
 * UNORM (clamp to [0,1], round to nearest), UNORM_SRGB (linear -> sRGB on R, G, B; alpha
 * stays linear), SNORM (clamp to [-1,1], round), UINT / SINT (clamp to the range, truncate),
 * FLOAT (32-bit, 16-bit half, 11/10-bit unsigned small floats), and the B8G8R8A8 / B5G6R5 ...
 * channel orders. NaN converts to 0 for every non-float channel. */
#include "umd/umd.h"

#include <math.h>
#include <string.h>

enum umd_chan_type { CT_UNORM, CT_SNORM, CT_UINT, CT_SINT, CT_FLOAT, CT_SRGB };
enum { CR = 0, CG = 1, CB = 2, CA = 3, CX = 4 /* unused bits: written as 0 */ };

/* Channels listed from the least significant bit up. */
struct umd_color_format {
    DXGI_FORMAT format;
    UINT8 type;
    UINT8 count;
    struct { UINT8 comp, bits; } ch[4];
};

#define C4(f, t, a, ab, b, bb, c, cb, d, db) { DXGI_FORMAT_##f, t, 4, { { a, ab }, { b, bb }, { c, cb }, { d, db } } }
#define C3(f, t, a, ab, b, bb, c, cb)        { DXGI_FORMAT_##f, t, 3, { { a, ab }, { b, bb }, { c, cb } } }
#define C2(f, t, a, ab, b, bb)               { DXGI_FORMAT_##f, t, 2, { { a, ab }, { b, bb } } }
#define C1(f, t, a, ab)                      { DXGI_FORMAT_##f, t, 1, { { a, ab } } }

static const struct umd_color_format umd_color_formats[] = {
    C4(R32G32B32A32_FLOAT, CT_FLOAT, CR, 32, CG, 32, CB, 32, CA, 32),
    C4(R32G32B32A32_UINT,  CT_UINT,  CR, 32, CG, 32, CB, 32, CA, 32),
    C4(R32G32B32A32_SINT,  CT_SINT,  CR, 32, CG, 32, CB, 32, CA, 32),
    C3(R32G32B32_FLOAT,    CT_FLOAT, CR, 32, CG, 32, CB, 32),
    C3(R32G32B32_UINT,     CT_UINT,  CR, 32, CG, 32, CB, 32),
    C3(R32G32B32_SINT,     CT_SINT,  CR, 32, CG, 32, CB, 32),
    C4(R16G16B16A16_FLOAT, CT_FLOAT, CR, 16, CG, 16, CB, 16, CA, 16),
    C4(R16G16B16A16_UNORM, CT_UNORM, CR, 16, CG, 16, CB, 16, CA, 16),
    C4(R16G16B16A16_UINT,  CT_UINT,  CR, 16, CG, 16, CB, 16, CA, 16),
    C4(R16G16B16A16_SNORM, CT_SNORM, CR, 16, CG, 16, CB, 16, CA, 16),
    C4(R16G16B16A16_SINT,  CT_SINT,  CR, 16, CG, 16, CB, 16, CA, 16),
    C2(R32G32_FLOAT,       CT_FLOAT, CR, 32, CG, 32),
    C2(R32G32_UINT,        CT_UINT,  CR, 32, CG, 32),
    C2(R32G32_SINT,        CT_SINT,  CR, 32, CG, 32),
    C4(R10G10B10A2_UNORM,  CT_UNORM, CR, 10, CG, 10, CB, 10, CA, 2),
    C4(R10G10B10A2_UINT,   CT_UINT,  CR, 10, CG, 10, CB, 10, CA, 2),
    C3(R11G11B10_FLOAT,    CT_FLOAT, CR, 11, CG, 11, CB, 10),
    C4(R8G8B8A8_UNORM,     CT_UNORM, CR, 8, CG, 8, CB, 8, CA, 8),
    C4(R8G8B8A8_UNORM_SRGB, CT_SRGB, CR, 8, CG, 8, CB, 8, CA, 8),
    C4(R8G8B8A8_UINT,      CT_UINT,  CR, 8, CG, 8, CB, 8, CA, 8),
    C4(R8G8B8A8_SNORM,     CT_SNORM, CR, 8, CG, 8, CB, 8, CA, 8),
    C4(R8G8B8A8_SINT,      CT_SINT,  CR, 8, CG, 8, CB, 8, CA, 8),
    C2(R16G16_FLOAT,       CT_FLOAT, CR, 16, CG, 16),
    C2(R16G16_UNORM,       CT_UNORM, CR, 16, CG, 16),
    C2(R16G16_UINT,        CT_UINT,  CR, 16, CG, 16),
    C2(R16G16_SNORM,       CT_SNORM, CR, 16, CG, 16),
    C2(R16G16_SINT,        CT_SINT,  CR, 16, CG, 16),
    C1(R32_FLOAT,          CT_FLOAT, CR, 32),
    C1(R32_UINT,           CT_UINT,  CR, 32),
    C1(R32_SINT,           CT_SINT,  CR, 32),
    C2(R8G8_UNORM,         CT_UNORM, CR, 8, CG, 8),
    C2(R8G8_UINT,          CT_UINT,  CR, 8, CG, 8),
    C2(R8G8_SNORM,         CT_SNORM, CR, 8, CG, 8),
    C2(R8G8_SINT,          CT_SINT,  CR, 8, CG, 8),
    C1(R16_FLOAT,          CT_FLOAT, CR, 16),
    C1(R16_UNORM,          CT_UNORM, CR, 16),
    C1(R16_UINT,           CT_UINT,  CR, 16),
    C1(R16_SNORM,          CT_SNORM, CR, 16),
    C1(R16_SINT,           CT_SINT,  CR, 16),
    C1(R8_UNORM,           CT_UNORM, CR, 8),
    C1(R8_UINT,            CT_UINT,  CR, 8),
    C1(R8_SNORM,           CT_SNORM, CR, 8),
    C1(R8_SINT,            CT_SINT,  CR, 8),
    C1(A8_UNORM,           CT_UNORM, CA, 8),
    C3(B5G6R5_UNORM,       CT_UNORM, CB, 5, CG, 6, CR, 5),
    C4(B5G5R5A1_UNORM,     CT_UNORM, CB, 5, CG, 5, CR, 5, CA, 1),
    C4(B4G4R4A4_UNORM,     CT_UNORM, CB, 4, CG, 4, CR, 4, CA, 4),
    C4(B8G8R8A8_UNORM,     CT_UNORM, CB, 8, CG, 8, CR, 8, CA, 8),
    C4(B8G8R8A8_UNORM_SRGB, CT_SRGB, CB, 8, CG, 8, CR, 8, CA, 8),
    C4(B8G8R8X8_UNORM,     CT_UNORM, CB, 8, CG, 8, CR, 8, CX, 8),
    C4(B8G8R8X8_UNORM_SRGB, CT_SRGB, CB, 8, CG, 8, CR, 8, CX, 8),
};

static const struct umd_color_format *umd_color_format(DXGI_FORMAT f)
{
    for (size_t i = 0; i < sizeof umd_color_formats / sizeof umd_color_formats[0]; i++)
        if (umd_color_formats[i].format == f)
            return &umd_color_formats[i];
    return NULL;
}

/* IEEE float -> small float with a 5-bit exponent (bias 15) and `mbits` mantissa bits:
 * half (10 bits, signed), and the unsigned 11-bit (6) / 10-bit (5) floats of R11G11B10.
 * Round to nearest; overflow -> infinity; unsigned formats clamp negatives to 0. */
static UINT32 umd_float_to_small(float v, unsigned mbits, BOOL has_sign)
{
    UINT32 u;
    memcpy(&u, &v, sizeof u);
    UINT32 sign = u >> 31, exp = (u >> 23) & 0xff, man = u & 0x7fffff;
    UINT32 inf = 0x1fu << mbits;
    UINT32 r;
    if (exp == 0xff) {
        if (man)
            return inf | (1u << (mbits - 1)); /* NaN */
        r = inf;
    } else {
        if (!has_sign && sign)
            return 0;
        int e = (int)exp - 127 + 15;
        if (e >= 0x1f) {
            r = inf;
        } else if (e <= 0) {
            if (e < -(int)mbits)
                r = 0;
            else {
                UINT32 m = man | 0x800000u;
                unsigned shift = (unsigned)(1 - e) + (23 - mbits);
                r = m >> shift;
                if ((m >> (shift - 1)) & 1)
                    r++;
            }
        } else {
            r = ((UINT32)e << mbits) | (man >> (23 - mbits));
            if ((man >> (22 - mbits)) & 1)
                r++; /* a carry into the exponent is the correct rounding */
        }
    }
    if (has_sign && sign)
        r |= 1u << (5 + mbits);
    return r;
}

static float umd_linear_to_srgb(float c)
{
    if (!(c > 0.0f))
        return 0.0f;
    if (c >= 1.0f)
        return 1.0f;
    return c <= 0.0031308f ? 12.92f * c : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
}

static UINT64 umd_convert_channel(float v, UINT type, UINT bits)
{
    UINT64 mask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
    switch (type) {
    case CT_SRGB:
    case CT_UNORM: {
        if (!(v > 0.0f))
            return 0; /* negative or NaN */
        if (v >= 1.0f)
            return mask;
        return (UINT64)floor((double)v * (double)mask + 0.5);
    }
    case CT_SNORM: {
        double max = (double)(mask >> 1);
        if (isnan(v))
            return 0;
        double d = v < -1.0f ? -1.0 : v > 1.0f ? 1.0 : v;
        /* Round half away from zero, symmetric around 0 (-1.0 -> -max, as D3D's SNORM). */
        INT64 i = d >= 0 ? (INT64)floor(d * max + 0.5) : -(INT64)floor(-d * max + 0.5);
        return (UINT64)i & mask;
    }
    case CT_UINT: {
        if (!(v > 0.0f))
            return 0;
        double max = (double)mask;
        return (double)v >= max ? mask : (UINT64)v;
    }
    case CT_SINT: {
        double max = (double)(mask >> 1), min = -max - 1.0;
        if (isnan(v))
            return 0;
        INT64 i = (double)v >= max ? (INT64)max : (double)v <= min ? (INT64)min : (INT64)v;
        return (UINT64)i & mask;
    }
    case CT_FLOAT:
    default:
        if (bits == 32) {
            UINT32 u;
            memcpy(&u, &v, sizeof u);
            return u;
        }
        /* 16: half (sign, 5, 10); 11 and 10: unsigned (5, 6) and (5, 5). */
        return umd_float_to_small(v, bits == 16 ? 10u : bits - 5u, bits == 16);
    }
}

UINT umd_pack_color(DXGI_FORMAT format, const FLOAT rgba[4], BYTE out[16])
{
    const struct umd_color_format *cf = umd_color_format(format);
    if (!cf)
        return 0;
    memset(out, 0, 16);
    UINT pos = 0;
    for (UINT i = 0; i < cf->count; i++) {
        UINT comp = cf->ch[i].comp, bits = cf->ch[i].bits;
        UINT64 val = 0;
        if (comp != CX) {
            float v = rgba[comp];
            if (cf->type == CT_SRGB && comp != CA)
                v = umd_linear_to_srgb(v);
            val = umd_convert_channel(v, cf->type, bits);
        }
        for (UINT b = 0; b < bits; b++, pos++)
            if ((val >> b) & 1)
                out[pos / 8] |= (BYTE)(1u << (pos % 8));
    }
    return (pos + 7) / 8;
}

/* One FILL of row_bytes x rows x slices at offset with the given pitches. */
static void umd_emit_fill(struct umd_device *dev, struct umd_resource *res, UINT offset, UINT rp, UINT sp,
                          UINT row_bytes, UINT rows, UINT slices, const BYTE *pattern, UINT pattern_bytes)
{
    if (!row_bytes || !rows || !slices)
        return;
    struct swgpu_cmd_fill *c = umd_cmd_begin(dev, sizeof *c, 1, 1);
    if (!c)
        return;
    c->hdr.opcode = SWGPU_OP_FILL;
    c->hdr.size_bytes = sizeof *c;
    umd_cmd_address(dev, c, &c->dst.addr, res, offset, TRUE);
    c->dst.row_pitch = rp;
    c->dst.slice_pitch = sp;
    c->row_bytes = row_bytes;
    c->rows = rows;
    c->slices = slices;
    c->pattern_bytes = pattern_bytes;
    memcpy(c->pattern, pattern, pattern_bytes);
    umd_cmd_end(dev, c);
}

/* Fill every element a view names with an n-byte pattern (render-target and unordered-access
 * views share struct umd_rtv). */
static void umd_fill_view(struct umd_device *dev, const struct umd_rtv *v, const BYTE *pattern, UINT n)
{
    struct umd_resource *res = v->resource;
    switch (v->dimension) {
    case D3D10DDIRESOURCE_BUFFER:
    case D3D11DDIRESOURCE_BUFFEREX: {
        const struct umd_subresource *sr = &res->sub[0];
        UINT64 first = (UINT64)v->first_element * n, bytes = (UINT64)v->element_count * n;
        if (first >= sr->row_bytes)
            return;
        if (bytes > sr->row_bytes - first)
            bytes = sr->row_bytes - first;
        umd_emit_fill(dev, res, (UINT)first, sr->row_pitch, sr->depth_pitch, (UINT)bytes, 1, 1, pattern, n);
        break;
    }
    case D3D10DDIRESOURCE_TEXTURE3D: {
        const struct umd_subresource *sr = &res->sub[v->mip];
        umd_emit_fill(dev, res, sr->offset + v->first_slice * sr->depth_pitch, sr->row_pitch, sr->depth_pitch,
                      sr->row_bytes, sr->rows, v->slice_count, pattern, n);
        break;
    }
    default:
        for (UINT s = 0; s < v->slice_count; s++) {
            const struct umd_subresource *sr = &res->sub[v->mip + (v->first_slice + s) * res->mip_levels];
            umd_emit_fill(dev, res, sr->offset, sr->row_pitch, sr->depth_pitch, sr->row_bytes, sr->rows, 1, pattern,
                          n);
        }
        break;
    }
}

VOID APIENTRY umd_ClearRenderTargetView(D3D10DDI_HDEVICE hDevice, D3D10DDI_HRENDERTARGETVIEW hView, FLOAT ColorRGBA[4])
{
    struct umd_device *dev = umd_device(hDevice);
    const struct umd_rtv *v = hView.pDrvPrivate;
    BYTE pattern[16];
    UINT n = umd_pack_color(v->format, ColorRGBA, pattern);
    /* swgpu_isa.h: FILL patterns are 1, 2, 4, 8 or 16 bytes (R32G32B32 is not a render-target
     * format, wddm_format_info; it never reaches here through a valid view). */
    if (n != 1 && n != 2 && n != 4 && n != 8 && n != 16) {
        UMD_REFUSE("ClearRenderTargetView: cannot clear format %d", (int)v->format);
        return;
    }
    umd_fill_view(dev, v, pattern, n);
}

/* ClearUnorderedAccessViewUint: the low bits of Values[i] go bit-for-bit into channel i of
 * every element, no conversion (D3D11 API: ID3D11DeviceContext::ClearUnorderedAccessViewUint),
 * for every typed-UAV format (the channel widths of the colour table above: 8/16/32-bit
 * channels, R10G10B10A2, R11G11B10) and R32_TYPELESS (raw views: one 32-bit channel). */
VOID APIENTRY umd_ClearUnorderedAccessViewUint(D3D10DDI_HDEVICE hDevice, D3D11DDI_HUNORDEREDACCESSVIEW hView,
                                               const UINT Values[4])
{
    struct umd_device *dev = umd_device(hDevice);
    const struct umd_rtv *v = hView.pDrvPrivate;
    DXGI_FORMAT f = v->format == DXGI_FORMAT_R32_TYPELESS ? DXGI_FORMAT_R32_UINT : v->format;
    const struct umd_color_format *cf = umd_color_format(f);
    if (!cf || cf->type == CT_SRGB) {
        UMD_REFUSE("ClearUnorderedAccessViewUint: format %d has no typed UAV", (int)v->format);
        return;
    }
    BYTE pattern[16];
    memset(pattern, 0, sizeof pattern);
    UINT pos = 0;
    for (UINT i = 0; i < cf->count; i++) {
        UINT comp = cf->ch[i].comp, bits = cf->ch[i].bits;
        UINT64 val = comp == CX ? 0 : Values[comp];
        for (UINT b = 0; b < bits; b++, pos++)
            if ((val >> b) & 1)
                pattern[pos / 8] |= (BYTE)(1u << (pos % 8));
    }
    UINT n = (pos + 7) / 8;
    if (n != 1 && n != 2 && n != 4 && n != 8 && n != 16) {
        UMD_REFUSE("ClearUnorderedAccessViewUint: cannot clear format %d", (int)v->format);
        return;
    }
    umd_fill_view(dev, v, pattern, n);
}
