/*
 * validate.c - the Direct3D 11 creation rules, checked before anything reaches the UMD
 * (docs/semantics.md §4.2: "the runtime pre-validates all arguments against the API rules, so the
 * driver should never see invalid combinations").
 *
 * Every refusal returns the documented HRESULT and prints one line naming the rule
 * (docs/architecture.md "Errors and bad input").
 */
#include "runtime/runtime.h"

#define API_BIND_ALL (D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_INDEX_BUFFER | D3D11_BIND_CONSTANT_BUFFER | \
                      D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_STREAM_OUTPUT | D3D11_BIND_RENDER_TARGET | \
                      D3D11_BIND_DEPTH_STENCIL | D3D11_BIND_UNORDERED_ACCESS | D3D11_BIND_DECODER | \
                      D3D11_BIND_VIDEO_ENCODER)
/* Binds through which the GPU writes the resource ("output binds", docs/semantics.md §5.1). */
#define API_BIND_OUTPUT (D3D11_BIND_STREAM_OUTPUT | D3D11_BIND_RENDER_TARGET | D3D11_BIND_DEPTH_STENCIL | \
                         D3D11_BIND_UNORDERED_ACCESS)
#define API_CPU_ALL (D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE)
/* Misc flags the runtime passes on; the rest (tiled, protected, GDI) need machinery libwddm does
 * not have and are refused. */
#define API_MISC_SUPPORTED (D3D11_RESOURCE_MISC_GENERATE_MIPS | RT_MISC_SHARED_ANY | \
                            D3D11_RESOURCE_MISC_SHARED_NTHANDLE | \
                            D3D11_RESOURCE_MISC_TEXTURECUBE | D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS | \
                            D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS | D3D11_RESOURCE_MISC_BUFFER_STRUCTURED | \
                            D3D11_RESOURCE_MISC_RESOURCE_CLAMP)
#define API_MISC_BUFFER_ONLY (D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS | D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS | \
                              D3D11_RESOURCE_MISC_BUFFER_STRUCTURED)

/* The usage x bind x CPU-access matrix (docs/semantics.md §5.1). */
HRESULT rt_validate_usage(D3D11_USAGE usage, UINT bind, UINT cpu, BOOL has_initial_data, const char *what)
{
    if ((UINT)usage > D3D11_USAGE_STAGING) {
        RT_REFUSE("%s: Usage %u is not a D3D11_USAGE value", what, (UINT)usage);
        return E_INVALIDARG;
    }
    if (bind & ~(UINT)API_BIND_ALL) {
        RT_REFUSE("%s: BindFlags 0x%x has unknown bits", what, bind);
        return E_INVALIDARG;
    }
    if (bind & (D3D11_BIND_DECODER | D3D11_BIND_VIDEO_ENCODER)) {
        RT_REFUSE("%s: BIND_DECODER / BIND_VIDEO_ENCODER need video support, which this device does not have", what);
        return E_INVALIDARG;
    }
    if (cpu & ~(UINT)API_CPU_ALL) {
        RT_REFUSE("%s: CPUAccessFlags 0x%x has bits other than CPU_ACCESS_READ/WRITE", what, cpu);
        return E_INVALIDARG;
    }
    switch (usage) {
    case D3D11_USAGE_DEFAULT:
        if (cpu) {
            RT_REFUSE("%s: USAGE_DEFAULT resources cannot have CPUAccessFlags (0x%x); use DYNAMIC or STAGING", what,
                      cpu);
            return E_INVALIDARG;
        }
        break;
    case D3D11_USAGE_IMMUTABLE:
        if (!bind) {
            /* Wine d3d11 tests (run on Windows), test_resource_access: an IMMUTABLE buffer or
             * texture with BindFlags 0 is refused. */
            RT_REFUSE("%s: a USAGE_IMMUTABLE resource must have at least one bind flag", what);
            return E_INVALIDARG;
        }
        if (!has_initial_data) {
            RT_REFUSE("%s: USAGE_IMMUTABLE requires initial data", what);
            return E_INVALIDARG;
        }
        if (cpu) {
            RT_REFUSE("%s: USAGE_IMMUTABLE resources cannot have CPUAccessFlags (0x%x)", what, cpu);
            return E_INVALIDARG;
        }
        if (bind & API_BIND_OUTPUT) {
            RT_REFUSE("%s: USAGE_IMMUTABLE resources cannot be bound as an output (BindFlags 0x%x: "
                      "STREAM_OUTPUT/RENDER_TARGET/DEPTH_STENCIL/UNORDERED_ACCESS)", what, bind);
            return E_INVALIDARG;
        }
        break;
    case D3D11_USAGE_DYNAMIC:
        if (!bind) {
            /* Wine d3d11 tests (run on Windows), test_resource_access: a DYNAMIC resource with
             * BindFlags 0 is refused (a CPU-written resource nothing can read is STAGING's job). */
            RT_REFUSE("%s: a USAGE_DYNAMIC resource must have at least one bind flag", what);
            return E_INVALIDARG;
        }
        if (cpu != D3D11_CPU_ACCESS_WRITE) {
            RT_REFUSE("%s: USAGE_DYNAMIC requires CPUAccessFlags == CPU_ACCESS_WRITE exactly (got 0x%x)", what, cpu);
            return E_INVALIDARG;
        }
        if (bind & API_BIND_OUTPUT) {
            RT_REFUSE("%s: USAGE_DYNAMIC resources cannot be bound as an output (BindFlags 0x%x: "
                      "STREAM_OUTPUT/RENDER_TARGET/DEPTH_STENCIL/UNORDERED_ACCESS)", what, bind);
            return E_INVALIDARG;
        }
        break;
    case D3D11_USAGE_STAGING:
        if (!cpu) {
            RT_REFUSE("%s: USAGE_STAGING requires CPU_ACCESS_READ and/or CPU_ACCESS_WRITE (model decision)", what);
            return E_INVALIDARG;
        }
        if (bind) {
            RT_REFUSE("%s: USAGE_STAGING resources cannot be bound (BindFlags must be 0, got 0x%x)", what, bind);
            return E_INVALIDARG;
        }
        break;
    }
    return S_OK;
}

static HRESULT validate_misc(UINT misc, const char *what)
{
    if ((misc & D3D11_RESOURCE_MISC_SHARED_NTHANDLE) && !(misc & RT_MISC_SHARED_ANY)) {
        /* NT handles are a way to share: the flag goes with MISC_SHARED or MISC_SHARED_KEYEDMUTEX
         * (IDXGIResource1::CreateSharedHandle remarks); alone it is refused (Wine d3d11 tests). */
        RT_REFUSE("%s: MISC_SHARED_NTHANDLE without MISC_SHARED or MISC_SHARED_KEYEDMUTEX", what);
        return E_INVALIDARG;
    }
    if ((misc & RT_MISC_SHARED_ANY) == RT_MISC_SHARED_ANY) {
        /* D3D11_RESOURCE_MISC_FLAG: "You can't simultaneously set this flag and the
         * D3D11_RESOURCE_MISC_SHARED flag." */
        RT_REFUSE("%s: MISC_SHARED and MISC_SHARED_KEYEDMUTEX together", what);
        return E_INVALIDARG;
    }
    if (misc & ~(UINT)API_MISC_SUPPORTED) {
        RT_REFUSE("%s: MiscFlags 0x%x has bits this device does not support (tiled, protected, keyed mutex, "
                  "NT handle, GDI compatible ...)", what, misc & ~(UINT)API_MISC_SUPPORTED);
        return E_INVALIDARG;
    }
    return S_OK;
}

HRESULT rt_validate_buffer_desc(const D3D11_BUFFER_DESC *d, const D3D11_SUBRESOURCE_DATA *data)
{
    const char *what = "CreateBuffer";
    HRESULT hr = rt_validate_usage(d->Usage, d->BindFlags, d->CPUAccessFlags, data != NULL, what);
    if (FAILED(hr))
        return hr;
    if ((hr = validate_misc(d->MiscFlags, what)) != S_OK)
        return hr;
    if (d->ByteWidth == 0) {
        RT_REFUSE("%s: ByteWidth must be at least 1", what);
        return E_INVALIDARG;
    }
    if (d->ByteWidth > RT_MAX_RESOURCE_BYTES) {
        RT_REFUSE("%s: ByteWidth %u exceeds the maximum resource size", what, d->ByteWidth);
        return E_OUTOFMEMORY;
    }
    if (d->BindFlags & D3D11_BIND_DEPTH_STENCIL) {
        RT_REFUSE("%s: a buffer cannot be bound DEPTH_STENCIL", what);
        return E_INVALIDARG;
    }
    if (d->MiscFlags & (D3D11_RESOURCE_MISC_GENERATE_MIPS | D3D11_RESOURCE_MISC_TEXTURECUBE)) {
        RT_REFUSE("%s: MiscFlags GENERATE_MIPS / TEXTURECUBE apply to textures only", what);
        return E_INVALIDARG;
    }
    if (d->BindFlags & D3D11_BIND_CONSTANT_BUFFER) {
        /* D3D11.0: a constant buffer is bound only as a constant buffer, its size a multiple
         * of 16 bytes and at most D3D11_REQ_CONSTANT_BUFFER_ELEMENT_COUNT 16-byte elements. */
        if (d->BindFlags != D3D11_BIND_CONSTANT_BUFFER) {
            RT_REFUSE("%s: BIND_CONSTANT_BUFFER cannot be combined with other bind flags (0x%x)", what, d->BindFlags);
            return E_INVALIDARG;
        }
        if (d->ByteWidth % 16) {
            RT_REFUSE("%s: a constant buffer's ByteWidth (%u) must be a multiple of 16", what, d->ByteWidth);
            return E_INVALIDARG;
        }
        if (d->ByteWidth > D3D11_REQ_CONSTANT_BUFFER_ELEMENT_COUNT * 16) {
            RT_REFUSE("%s: a constant buffer's ByteWidth (%u) must be at most %u", what, d->ByteWidth,
                      D3D11_REQ_CONSTANT_BUFFER_ELEMENT_COUNT * 16);
            return E_INVALIDARG;
        }
        if (d->MiscFlags & API_MISC_BUFFER_ONLY) {
            RT_REFUSE("%s: a constant buffer cannot be structured, raw or indirect-args (MiscFlags 0x%x)", what,
                      d->MiscFlags);
            return E_INVALIDARG;
        }
    }
    if ((d->MiscFlags & D3D11_RESOURCE_MISC_BUFFER_STRUCTURED) &&
        (d->MiscFlags & D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS)) {
        RT_REFUSE("%s: MISC_BUFFER_STRUCTURED and MISC_BUFFER_ALLOW_RAW_VIEWS are exclusive", what);
        return E_INVALIDARG;
    }
    if (d->MiscFlags & D3D11_RESOURCE_MISC_BUFFER_STRUCTURED) {
        if (d->StructureByteStride == 0 || d->StructureByteStride % 4 || d->StructureByteStride > 2048) {
            RT_REFUSE("%s: a structured buffer needs StructureByteStride in [4, 2048], a multiple of 4 (got %u)",
                      what, d->StructureByteStride);
            return E_INVALIDARG;
        }
        if (d->ByteWidth % d->StructureByteStride) {
            RT_REFUSE("%s: a structured buffer's ByteWidth (%u) must be a multiple of StructureByteStride (%u)", what,
                      d->ByteWidth, d->StructureByteStride);
            return E_INVALIDARG;
        }
        if (d->BindFlags & (D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_INDEX_BUFFER | D3D11_BIND_STREAM_OUTPUT |
                            D3D11_BIND_RENDER_TARGET)) {
            RT_REFUSE("%s: a structured buffer can be bound only as SHADER_RESOURCE / UNORDERED_ACCESS", what);
            return E_INVALIDARG;
        }
    }
    if (d->MiscFlags & D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS) {
        if (d->ByteWidth % 4) {
            RT_REFUSE("%s: a raw buffer's ByteWidth (%u) must be a multiple of 4", what, d->ByteWidth);
            return E_INVALIDARG;
        }
        if (!(d->BindFlags & (D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_UNORDERED_ACCESS))) {
            RT_REFUSE("%s: MISC_BUFFER_ALLOW_RAW_VIEWS needs BIND_SHADER_RESOURCE or BIND_UNORDERED_ACCESS", what);
            return E_INVALIDARG;
        }
    }
    if (d->MiscFlags & RT_MISC_SHARED_ANY) {
        /* Windows creates a shared buffer (Wine test_create_buffer); REF and WARP answer
         * E_OUTOFMEMORY (its broken() case). OpenSharedResource here rebuilds Texture2Ds only
         * (share.c): a shared buffer is answered as those devices do. */
        RT_REFUSE("%s: MISC_SHARED buffers are not supported by this device (out of memory, as Windows' REF and "
                  "WARP devices answer)", what);
        return E_OUTOFMEMORY;
    }
    if (data && !data->pSysMem) {
        RT_REFUSE("%s: pInitialData->pSysMem is NULL", what);
        return E_INVALIDARG;
    }
    return S_OK;
}

/* Quality levels a (format, sample count) pair has on this device: the answer of
 * ID3D11Device::CheckMultisampleQualityLevels and the bound CreateTexture2D holds
 * SampleDesc.Quality under. Count 1 is single sampling (one level) for every format the device
 * knows; counts 2, 4 and 8 have one level (the standard pattern, Quality 0) on formats that can
 * be rendered to or used as depth; anything else has none (Wine d3d11 tests, run on Windows:
 * test_check_multisample_quality_levels, count 15 and block-compressed formats answer 0). */
static UINT api_msaa_quality_levels(DXGI_FORMAT format, UINT count)
{
    const struct wddm_format_info *fi = wddm_format_info(format);
    if (!fi)
        return 0;
    if (count == 1)
        return 1;
    if (count != 2 && count != 4 && count != 8)
        return 0;
    if (fi->is_compressed)
        return 0;
    BOOL target = (fi->support & (WDDM_FMT_SUPPORT_RENDER_TARGET | WDDM_FMT_SUPPORT_DEPTH_STENCIL)) ||
                  (fi->bind & (WDDM_FMT_BIND_RENDER_TARGET | WDDM_FMT_BIND_DEPTH_STENCIL));
    return target ? 1 : 0;
}

/* ... and the driver's answer (pfnCheckMultisampleQualityLevels) bounds it: the runtime never
 * reports, nor accepts, a count the UMD cannot create. */
UINT rt_msaa_quality_levels(struct rt_device *dev, DXGI_FORMAT format, UINT count)
{
    UINT levels = api_msaa_quality_levels(format, count);
    if (levels && dev && dev->funcs.pfnCheckMultisampleQualityLevels) {
        UINT drv = 0;
        rt_ddi_begin(dev);
        dev->funcs.pfnCheckMultisampleQualityLevels(dev->drv_device, format, count, &drv);
        (void)rt_ddi_end(dev);
        if (drv < levels)
            levels = drv;
    }
    return levels;
}

UINT rt_full_mip_count(UINT w, UINT h, UINT d)
{
    UINT m = w > h ? w : h;
    if (d > m)
        m = d;
    UINT n = 1;
    while (m > 1) {
        m >>= 1;
        n++;
    }
    return n;
}

/* Texture rules: dimensions, formats, mips, arrays, samples, usage, binds (D3D11 functional
 * spec limits, docs/semantics.md §5.1). Fills the normalised fields of res. */
/* A texture description under check (rt_validate_texture): what the description says, then
 * what the phases below resolve (the format's entry and support, MipLevels 0 -> the chain). */
struct tex_check {
    struct rt_device *dev;
    D3D11_RESOURCE_DIMENSION dimension;
    const char *what;
    UINT w, h, d, mips, array, samples, quality, max_dim, max_array;
    DXGI_FORMAT fmt;
    D3D11_USAGE usage;
    UINT bind, cpu, misc, dim_support;
    const struct wddm_format_info *fi;
    UINT fmt_support;
};

/* Phase 1: the description of each dimension, in one shape. */
static HRESULT tex_read(const struct rt_resource *res, struct tex_check *c)
{
    memset(c, 0, sizeof *c);
    c->dev = res->device;
    c->dimension = res->dimension;
    c->w = c->h = c->d = c->array = c->samples = c->max_array = 1;
    switch (res->dimension) {
    case D3D11_RESOURCE_DIMENSION_TEXTURE1D: {
        const D3D11_TEXTURE1D_DESC *t = &res->desc.tex1d;
        c->what = "CreateTexture1D";
        c->w = t->Width; c->mips = t->MipLevels; c->array = t->ArraySize; c->fmt = t->Format;
        c->usage = t->Usage; c->bind = t->BindFlags; c->cpu = t->CPUAccessFlags; c->misc = t->MiscFlags;
        c->max_dim = D3D11_REQ_TEXTURE1D_U_DIMENSION; c->max_array = D3D11_REQ_TEXTURE1D_ARRAY_AXIS_DIMENSION;
        c->dim_support = WDDM_FMT_SUPPORT_TEXTURE1D;
        return S_OK;
    }
    case D3D11_RESOURCE_DIMENSION_TEXTURE2D: {
        const D3D11_TEXTURE2D_DESC *t = &res->desc.tex2d;
        c->what = "CreateTexture2D";
        c->w = t->Width; c->h = t->Height; c->mips = t->MipLevels; c->array = t->ArraySize; c->fmt = t->Format;
        c->samples = t->SampleDesc.Count; c->quality = t->SampleDesc.Quality;
        c->usage = t->Usage; c->bind = t->BindFlags; c->cpu = t->CPUAccessFlags; c->misc = t->MiscFlags;
        c->max_dim = D3D11_REQ_TEXTURE2D_U_OR_V_DIMENSION; c->max_array = D3D11_REQ_TEXTURE2D_ARRAY_AXIS_DIMENSION;
        c->dim_support = (c->misc & D3D11_RESOURCE_MISC_TEXTURECUBE) ? WDDM_FMT_SUPPORT_TEXTURECUBE
                                                                      : WDDM_FMT_SUPPORT_TEXTURE2D;
        return S_OK;
    }
    case D3D11_RESOURCE_DIMENSION_TEXTURE3D: {
        const D3D11_TEXTURE3D_DESC *t = &res->desc.tex3d;
        c->what = "CreateTexture3D";
        c->w = t->Width; c->h = t->Height; c->d = t->Depth; c->mips = t->MipLevels; c->fmt = t->Format;
        c->usage = t->Usage; c->bind = t->BindFlags; c->cpu = t->CPUAccessFlags; c->misc = t->MiscFlags;
        c->max_dim = D3D11_REQ_TEXTURE3D_U_V_OR_W_DIMENSION;
        c->dim_support = WDDM_FMT_SUPPORT_TEXTURE3D;
        return S_OK;
    }
    default:
        return E_INVALIDARG;
    }
}

/* Phase 2: usage, misc flags and the extent against D3D11's limits. */
static HRESULT tex_check_extent(struct tex_check *c, BOOL has_data)
{
    HRESULT hr = rt_validate_usage(c->usage, c->bind, c->cpu, has_data, c->what);
    if (FAILED(hr))
        return hr;
    if ((hr = validate_misc(c->misc, c->what)) != S_OK)
        return hr;
    if (c->w == 0 || c->h == 0 || c->d == 0) {
        RT_REFUSE("%s: every dimension must be at least 1 (%ux%ux%u)", c->what, c->w, c->h, c->d);
        return E_INVALIDARG;
    }
    if (c->w > c->max_dim || c->h > c->max_dim || c->d > c->max_dim) {
        RT_REFUSE("%s: dimensions %ux%ux%u exceed the D3D11 limit of %u", c->what, c->w, c->h, c->d, c->max_dim);
        return E_INVALIDARG;
    }
    if (c->array == 0 || c->array > c->max_array) {
        RT_REFUSE("%s: ArraySize %u must be in [1, %u]", c->what, c->array, c->max_array);
        return E_INVALIDARG;
    }
    return S_OK;
}

/* Phase 3: the format - supported for the dimension on this device, and for each bind flag and
 * CPU access; block-compressed extents. */
static HRESULT tex_check_format(struct tex_check *c)
{
    const char *what = c->what;
    UINT bind = c->bind;
    const struct wddm_format_info *fi = c->fi = wddm_format_info(c->fmt);
    /* Creation holds the description to what CheckFormatSupport answers for the device
     * (format_support.c; D3D11 creation checks format support: E_INVALIDARG otherwise). */
    c->fmt_support = rt_format_support(c->dev, c->fmt);
    if (!fi || !c->fmt_support) {
        RT_REFUSE("%s: Format %u is not supported for textures on this device", what, (UINT)c->fmt);
        return E_INVALIDARG;
    }
    if (!(c->fmt_support & c->dim_support)) {
        RT_REFUSE("%s: Format %s cannot be used for this texture dimension", what, fi->name);
        return E_INVALIDARG;
    }
    if (bind & (D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_INDEX_BUFFER | D3D11_BIND_CONSTANT_BUFFER |
                D3D11_BIND_STREAM_OUTPUT)) {
        RT_REFUSE("%s: VERTEX_BUFFER / INDEX_BUFFER / CONSTANT_BUFFER / STREAM_OUTPUT bind flags are for buffers "
                  "only (BindFlags 0x%x)", what, bind);
        return E_INVALIDARG;
    }
    if (c->misc & API_MISC_BUFFER_ONLY) {
        RT_REFUSE("%s: MiscFlags 0x%x: DRAWINDIRECT_ARGS / BUFFER_ALLOW_RAW_VIEWS / BUFFER_STRUCTURED are for "
                  "buffers only", what, c->misc);
        return E_INVALIDARG;
    }
    if ((bind & D3D11_BIND_DEPTH_STENCIL) && (bind & (D3D11_BIND_RENDER_TARGET | D3D11_BIND_UNORDERED_ACCESS))) {
        /* Wine d3d11 tests (run on Windows), test_create_texture2d: R32_TYPELESS bound
         * DEPTH_STENCIL together with RENDER_TARGET or UNORDERED_ACCESS is refused. */
        RT_REFUSE("%s: BIND_DEPTH_STENCIL cannot be combined with BIND_RENDER_TARGET or BIND_UNORDERED_ACCESS "
                  "(BindFlags 0x%x)", what, bind);
        return E_INVALIDARG;
    }
    if (fi->is_depth && (bind & ~(UINT)D3D11_BIND_DEPTH_STENCIL)) {
        RT_REFUSE("%s: depth format %s can only be bound DEPTH_STENCIL (BindFlags 0x%x); create it TYPELESS to "
                  "read it in a shader", what, fi->name, bind);
        return E_INVALIDARG;
    }
    /* RENDER_TARGET / DEPTH_STENCIL / UNORDERED_ACCESS need the format's RENDER_TARGET /
     * DEPTH_STENCIL / TYPED_UNORDERED_ACCESS_VIEW bit (a TYPELESS format: one of its family's);
     * SHADER_RESOURCE has no bit of its own in D3D11_FORMAT_SUPPORT (no shader runs here): the
     * table says which formats Windows lets a shader read (§30). */
    UINT bind_support = rt_format_bind_support(c->dev, c->fmt), refused = 0;
    if ((bind & D3D11_BIND_RENDER_TARGET) && !(bind_support & WDDM_FMT_SUPPORT_RENDER_TARGET))
        refused |= D3D11_BIND_RENDER_TARGET;
    if ((bind & D3D11_BIND_DEPTH_STENCIL) && !(bind_support & WDDM_FMT_SUPPORT_DEPTH_STENCIL))
        refused |= D3D11_BIND_DEPTH_STENCIL;
    if ((bind & D3D11_BIND_UNORDERED_ACCESS) && !(bind_support & WDDM_FMT_SUPPORT_TYPED_UNORDERED_ACCESS_VIEW))
        refused |= D3D11_BIND_UNORDERED_ACCESS;
    if ((bind & D3D11_BIND_SHADER_RESOURCE) && !(fi->bind & WDDM_FMT_BIND_SHADER_RESOURCE))
        refused |= D3D11_BIND_SHADER_RESOURCE;
    if (refused) {
        RT_REFUSE("%s: Format %s does not support BindFlags 0x%x on this device (CheckFormatSupport 0x%x)", what,
                  fi->name, refused, bind_support);
        return E_INVALIDARG;
    }
    if (c->cpu && !(c->fmt_support & WDDM_FMT_SUPPORT_CPU_LOCKABLE)) {
        RT_REFUSE("%s: Format %s is not CPU_LOCKABLE: no CPUAccessFlags (0x%x)", what, fi->name, c->cpu);
        return E_INVALIDARG;
    }
    if (fi->is_compressed && (c->w % fi->block_width || c->h % fi->block_height)) {
        RT_REFUSE("%s: block-compressed format %s needs a top level whose width and height are multiples of 4 "
                  "(%ux%u)", what, fi->name, c->w, c->h);
        return E_INVALIDARG;
    }
    return S_OK;
}

/* Phase 4: the mip chain (MipLevels 0 = the full chain) and multisampling (Texture2D only:
 * Count 1 Quality 0 is single-sampled; counts 2/4/8 with Quality 0 on render-target / depth
 * formats, DEFAULT usage, one mip). */
static HRESULT tex_check_levels(struct tex_check *c, BOOL has_data)
{
    const char *what = c->what;
    const struct wddm_format_info *fi = c->fi;
    UINT full = rt_full_mip_count(c->w, c->h, c->d);
    if (c->mips == 0) {
        c->mips = full; /* D3D11: MipLevels 0 = the full chain */
    } else if (c->mips > full) {
        RT_REFUSE("%s: MipLevels %u exceeds the full chain of %u for %ux%ux%u", what, c->mips, full, c->w, c->h,
                  c->d);
        return E_INVALIDARG;
    }
    if (c->mips > 1 && !(c->fmt_support & WDDM_FMT_SUPPORT_MIP)) {
        RT_REFUSE("%s: Format %s has no MIP support: MipLevels must be 1 (got %u)", what, fi->name, c->mips);
        return E_INVALIDARG;
    }
    if (c->samples == 0) {
        RT_REFUSE("%s: SampleDesc.Count must be at least 1", what);
        return E_INVALIDARG;
    }
    UINT levels = rt_msaa_quality_levels(c->dev, c->fmt, c->samples);
    if (c->quality >= levels) {
        /* D3D11_TEXTURE2D_DESC / DXGI_SAMPLE_DESC: Quality must be below what
         * CheckMultisampleQualityLevels answers for the format and count (Wine d3d11 tests,
         * run on Windows, test_create_texture2d: Quality == that answer and Count 15 fail). */
        RT_REFUSE("%s: SampleDesc {%u, %u} is not supported for %s (CheckMultisampleQualityLevels answers %u)",
                  what, c->samples, c->quality, fi->name, levels);
        return E_INVALIDARG;
    }
    if (c->samples == 1)
        return S_OK;
    if (c->usage != D3D11_USAGE_DEFAULT) {
        RT_REFUSE("%s: multisampled resources must be USAGE_DEFAULT", what);
        return E_INVALIDARG;
    }
    if (c->mips != 1) {
        RT_REFUSE("%s: multisampled resources must have MipLevels 1 (got %u)", what, c->mips);
        return E_INVALIDARG;
    }
    if (!(fi->support & (WDDM_FMT_SUPPORT_RENDER_TARGET | WDDM_FMT_SUPPORT_DEPTH_STENCIL)) &&
        !(fi->bind & (WDDM_FMT_BIND_RENDER_TARGET | WDDM_FMT_BIND_DEPTH_STENCIL))) {
        RT_REFUSE("%s: Format %s cannot be multisampled", what, fi->name);
        return E_INVALIDARG;
    }
    if (c->misc & D3D11_RESOURCE_MISC_TEXTURECUBE) {
        RT_REFUSE("%s: a cube texture cannot be multisampled", what);
        return E_INVALIDARG;
    }
    if (has_data) {
        RT_REFUSE("%s: a multisampled resource cannot be given initial data", what);
        return E_INVALIDARG;
    }
    return S_OK;
}

/* Phase 5: what the usage and the misc flags ask of the kind of texture - dynamic ones are
 * single-subresource, cubes, mip generation, sharing. */
static HRESULT tex_check_kind(const struct tex_check *c)
{
    const char *what = c->what;
    if (c->usage == D3D11_USAGE_DYNAMIC && (c->mips != 1 || c->array != 1)) {
        /* docs/semantics.md §5.1: dynamic textures are single-subresource (no array, no mip chain). */
        RT_REFUSE("%s: a USAGE_DYNAMIC texture must have exactly one subresource (MipLevels %u, ArraySize %u)", what,
                  c->mips, c->array);
        return E_INVALIDARG;
    }
    if (c->misc & D3D11_RESOURCE_MISC_TEXTURECUBE) {
        if (c->dimension != D3D11_RESOURCE_DIMENSION_TEXTURE2D) {
            RT_REFUSE("%s: MISC_TEXTURECUBE applies to Texture2D only", what);
            return E_INVALIDARG;
        }
        /* Wine d3d11 tests (run on Windows), test_create_texture2d: a cube takes ArraySize 6 at
         * feature levels below 10_1, and any ArraySize from 6 up at 10_1 and above (7, 10 and 12
         * succeed there; 1, 3 and 5 fail everywhere) - not only multiples of 6. */
        BOOL cube_arrays = c->dev && c->dev->feature_level >= D3D_FEATURE_LEVEL_10_1;
        if (c->array < 6 || (!cube_arrays && c->array != 6)) {
            RT_REFUSE("%s: a cube texture needs ArraySize %s (got %u)", what,
                      cube_arrays ? "of at least 6" : "6 below feature level 10_1", c->array);
            return E_INVALIDARG;
        }
        if (c->w != c->h) {
            RT_REFUSE("%s: a cube texture needs square faces (%ux%u)", what, c->w, c->h);
            return E_INVALIDARG;
        }
    }
    if (c->misc & D3D11_RESOURCE_MISC_GENERATE_MIPS) {
        if ((c->bind & (D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE)) !=
            (D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE)) {
            RT_REFUSE("%s: MISC_GENERATE_MIPS needs BIND_RENDER_TARGET and BIND_SHADER_RESOURCE", what);
            return E_INVALIDARG;
        }
        if (c->usage != D3D11_USAGE_DEFAULT) {
            RT_REFUSE("%s: MISC_GENERATE_MIPS needs USAGE_DEFAULT", what);
            return E_INVALIDARG;
        }
    }
    if ((c->misc & RT_MISC_SHARED_ANY) &&
        (c->usage != D3D11_USAGE_DEFAULT || c->dimension != D3D11_RESOURCE_DIMENSION_TEXTURE2D)) {
        RT_REFUSE("%s: MISC_SHARED / MISC_SHARED_KEYEDMUTEX need a USAGE_DEFAULT Texture2D", what);
        return E_INVALIDARG;
    }
    return S_OK;
}

/* Phase 6: the total size (64-bit: 16384 x 16384 x 2048 overflows 32 bits) and one initial-data
 * entry per subresource. */
static HRESULT tex_check_size(const struct tex_check *c, const D3D11_SUBRESOURCE_DATA *data)
{
    UINT64 total = 0;
    for (UINT m = 0; m < c->mips; m++) {
        UINT64 row = wddm_format_row_bytes(c->fmt, rt_mip_dim(c->w, m));
        UINT64 rows = wddm_format_rows(c->fmt, rt_mip_dim(c->h, m));
        total += row * rows * rt_mip_dim(c->d, m);
    }
    total *= (UINT64)c->array * c->samples;
    if (total > RT_MAX_RESOURCE_BYTES) {
        RT_REFUSE("%s: the resource needs %llu bytes, more than the maximum resource size", c->what,
                  (unsigned long long)total);
        return E_OUTOFMEMORY;
    }
    for (UINT s = 0; data && s < c->mips * c->array; s++) {
        if (!data[s].pSysMem) {
            RT_REFUSE("%s: pInitialData[%u].pSysMem is NULL (one entry per subresource is required)", c->what, s);
            return E_INVALIDARG;
        }
    }
    return S_OK;
}

/* Phase 7: the normalised fields; GetDesc reports the resolved mip count, as D3D11 does. */
static void tex_commit(struct rt_resource *res, const struct tex_check *c)
{
    res->width = c->w; res->height = c->h; res->depth = c->d;
    res->mip_levels = c->mips; res->array_size = c->array;
    res->format = c->fmt;
    res->sample_count = c->samples; res->sample_quality = c->quality;
    res->usage = c->usage; res->bind_flags = c->bind; res->cpu_access = c->cpu; res->misc_flags = c->misc;
    res->subresource_count = c->mips * c->array;
    switch (res->dimension) {
    case D3D11_RESOURCE_DIMENSION_TEXTURE1D: res->desc.tex1d.MipLevels = c->mips; break;
    case D3D11_RESOURCE_DIMENSION_TEXTURE2D: res->desc.tex2d.MipLevels = c->mips; break;
    case D3D11_RESOURCE_DIMENSION_TEXTURE3D: res->desc.tex3d.MipLevels = c->mips; break;
    default: break;
    }
}

/* The phases in order; the first refusal is the answer (issue 16: phases over an explicit
 * operation context, not one long function). */
HRESULT rt_validate_texture(struct rt_resource *res, const D3D11_SUBRESOURCE_DATA *data)
{
    struct tex_check c;
    HRESULT hr = tex_read(res, &c);
    if (SUCCEEDED(hr))
        hr = tex_check_extent(&c, data != NULL);
    if (SUCCEEDED(hr))
        hr = tex_check_format(&c);
    if (SUCCEEDED(hr))
        hr = tex_check_levels(&c, data != NULL);
    if (SUCCEEDED(hr))
        hr = tex_check_kind(&c);
    if (SUCCEEDED(hr))
        hr = tex_check_size(&c, data);
    if (FAILED(hr))
        return hr;
    tex_commit(res, &c);
    return S_OK;
}
