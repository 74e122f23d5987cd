/*
 * format_support.c - what ID3D11Device::CheckFormatSupport answers for a format on a device,
 * and the bits creation holds a description to (docs/rules/runtime.md).
 *
 * The format table (src/common/format.c) holds the feature level 11_0 answer of this stack;
 * lower feature levels narrow it as Windows does (Wine d3d11 tests, run on Windows:
 * test_format_support; "Format support for Direct3D Feature Level 9.1 / 10.0 hardware"):
 *   - typed UAVs exist from 11_0 (10_x has raw and structured compute UAVs at most);
 *   - buffer views with a format exist from 10_0 (never BUFFER below it);
 *   - a 32-bit index buffer needs 9_2; R8G8_UINT, R11G11B10_FLOAT and R16_FLOAT vertex data 10_0;
 *   - BC4/BC5 are 10_0 formats, BC6H/BC7 11_0 formats: unsupported below.
 * The UMD's pfnCheckFormatSupport says whether it implements the format at all.
 */
#include "runtime/runtime.h"

static D3D_FEATURE_LEVEL device_level(const struct rt_device *dev)
{
    return dev ? dev->feature_level : D3D_FEATURE_LEVEL_11_0;
}

/* The feature level a format first exists at (0: every level this stack serves). */
static D3D_FEATURE_LEVEL format_min_level(DXGI_FORMAT f)
{
    switch (f) {
    case DXGI_FORMAT_BC4_TYPELESS: case DXGI_FORMAT_BC4_UNORM: case DXGI_FORMAT_BC4_SNORM:
    case DXGI_FORMAT_BC5_TYPELESS: case DXGI_FORMAT_BC5_UNORM: case DXGI_FORMAT_BC5_SNORM:
        return D3D_FEATURE_LEVEL_10_0;
    case DXGI_FORMAT_BC6H_TYPELESS: case DXGI_FORMAT_BC6H_UF16: case DXGI_FORMAT_BC6H_SF16:
    case DXGI_FORMAT_BC7_TYPELESS: case DXGI_FORMAT_BC7_UNORM: case DXGI_FORMAT_BC7_UNORM_SRGB:
        return D3D_FEATURE_LEVEL_11_0;
    default:
        return 0;
    }
}

static UINT level_support(D3D_FEATURE_LEVEL fl, DXGI_FORMAT f, UINT s)
{
    if (fl < format_min_level(f))
        return 0;
    if (fl < D3D_FEATURE_LEVEL_11_0)
        s &= ~(UINT)WDDM_FMT_SUPPORT_TYPED_UNORDERED_ACCESS_VIEW;
    if (fl < D3D_FEATURE_LEVEL_10_0) {
        s &= ~(UINT)WDDM_FMT_SUPPORT_BUFFER;
        if (f == DXGI_FORMAT_R8G8_UINT || f == DXGI_FORMAT_R11G11B10_FLOAT || f == DXGI_FORMAT_R16_FLOAT)
            s &= ~(UINT)WDDM_FMT_SUPPORT_IA_VERTEX_BUFFER;
    }
    if (fl < D3D_FEATURE_LEVEL_9_2 && f == DXGI_FORMAT_R32_UINT)
        s &= ~(UINT)WDDM_FMT_SUPPORT_IA_INDEX_BUFFER;
    return s;
}

UINT rt_format_support(struct rt_device *dev, DXGI_FORMAT format)
{
    const struct wddm_format_info *fi = wddm_format_info(format);
    if (!fi)
        return 0;
    UINT s = level_support(device_level(dev), format, fi->support);
    if (s && dev && dev->funcs.pfnCheckFormatSupport) {
        /* The bits are not intersected: the WDK numbers the DDI's answer with
         * D3D10_DDI_FORMAT_SUPPORT_* (not in d3d10umddi.h here), unlike D3D11_FORMAT_SUPPORT. */
        UINT drv = 0;
        rt_ddi_begin(dev);
        dev->funcs.pfnCheckFormatSupport(dev->drv_device, format, &drv);
        (void)rt_ddi_end(dev);
        if (!drv)
            s = 0;
    }
    return s;
}

UINT rt_format_bind_support(struct rt_device *dev, DXGI_FORMAT format)
{
    const struct wddm_format_info *fi = wddm_format_info(format);
    if (!fi)
        return 0;
    UINT s = rt_format_support(dev, format);
    if (!fi->is_typeless || !s)
        return s;
    /* A TYPELESS resource is bound through views of its family's typed formats: it may be bound
     * as whatever one of them supports (D3D11: "typeless" resources are cast by their views). */
    for (UINT f = 1; f <= DXGI_FORMAT_B4G4R4A4_UNORM; f++) {
        const struct wddm_format_info *o = wddm_format_info((DXGI_FORMAT)f);
        if (o && o != fi && o->typeless_group == fi->typeless_group)
            s |= level_support(device_level(dev), (DXGI_FORMAT)f, o->support);
    }
    return s;
}
