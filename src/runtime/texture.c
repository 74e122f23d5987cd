/*
 * texture.c - ID3D11Texture1D / 2D / 3D and their Create methods.
 */
#include "runtime/runtime.h"
#include "runtime/api_stubs.h"

#include <stddef.h>

RT_RESOURCE_COMMON_METHODS(tex1d, ID3D11Texture1D)
RT_RESOURCE_COMMON_METHODS(tex2d, ID3D11Texture2D)
RT_RESOURCE_COMMON_METHODS(tex3d, ID3D11Texture3D)

static void STDMETHODCALLTYPE tex1d_GetDesc(ID3D11Texture1D *This, D3D11_TEXTURE1D_DESC *desc)
{
    if (desc)
        *desc = ((struct rt_resource *)This)->desc.tex1d;
}
static void STDMETHODCALLTYPE tex2d_GetDesc(ID3D11Texture2D *This, D3D11_TEXTURE2D_DESC *desc)
{
    if (desc)
        *desc = ((struct rt_resource *)This)->desc.tex2d;
}
static void STDMETHODCALLTYPE tex3d_GetDesc(ID3D11Texture3D *This, D3D11_TEXTURE3D_DESC *desc)
{
    if (desc)
        *desc = ((struct rt_resource *)This)->desc.tex3d;
}

/* ID3D11Texture2D1::GetDesc1 / ID3D11Texture3D1::GetDesc1: the description with its layout, which
 * is the driver's (D3D11_TEXTURE_LAYOUT_UNDEFINED): CreateTexture2D1 / 3D1 make no other. The
 * DESC1 structures begin with the DESC fields, in the same order. */
static void STDMETHODCALLTYPE tex2d_GetDesc1(ID3D11Texture2D1 *This, D3D11_TEXTURE2D_DESC1 *desc)
{
    if (!desc)
        return;
    memset(desc, 0, sizeof *desc);
    memcpy(desc, &((struct rt_resource *)This)->desc.tex2d, sizeof(D3D11_TEXTURE2D_DESC));
    desc->TextureLayout = D3D11_TEXTURE_LAYOUT_UNDEFINED;
}
static void STDMETHODCALLTYPE tex3d_GetDesc1(ID3D11Texture3D1 *This, D3D11_TEXTURE3D_DESC1 *desc)
{
    if (!desc)
        return;
    memset(desc, 0, sizeof *desc);
    memcpy(desc, &((struct rt_resource *)This)->desc.tex3d, sizeof(D3D11_TEXTURE3D_DESC));
    desc->TextureLayout = D3D11_TEXTURE_LAYOUT_UNDEFINED;
}
_Static_assert(offsetof(D3D11_TEXTURE2D_DESC1, TextureLayout) >= sizeof(D3D11_TEXTURE2D_DESC) &&
                   offsetof(D3D11_TEXTURE2D_DESC1, MiscFlags) == offsetof(D3D11_TEXTURE2D_DESC, MiscFlags),
               "D3D11_TEXTURE2D_DESC1 begins with D3D11_TEXTURE2D_DESC");
_Static_assert(offsetof(D3D11_TEXTURE3D_DESC1, TextureLayout) >= sizeof(D3D11_TEXTURE3D_DESC) &&
                   offsetof(D3D11_TEXTURE3D_DESC1, MiscFlags) == offsetof(D3D11_TEXTURE3D_DESC, MiscFlags),
               "D3D11_TEXTURE3D_DESC1 begins with D3D11_TEXTURE3D_DESC");

struct rt_texture2d_vtbl {
    struct ID3D11Texture2DVtbl base;
    struct rt_own_ID3D11Texture2D1 ext;
};
struct rt_texture3d_vtbl {
    struct ID3D11Texture3DVtbl base;
    struct rt_own_ID3D11Texture3D1 ext;
};

const struct ID3D11Texture1DVtbl rt_texture1d_vtbl = {
    RT_API_STUBS_ID3D11Texture1D, /* every slot answers "not implemented" until named below */
    .QueryInterface = tex1d_QueryInterface,
    RT_PRIVATE_DATA_SLOTS(tex1d),
    .AddRef = tex1d_AddRef,
    .Release = tex1d_Release,
    .GetDevice = tex1d_GetDevice,
    .GetType = tex1d_GetType,
    .SetEvictionPriority = tex1d_SetEvictionPriority,
    .GetEvictionPriority = tex1d_GetEvictionPriority,
    .GetDesc = tex1d_GetDesc,
};
const struct rt_texture2d_vtbl rt_texture2d_vtbl = {
    .base = {
    RT_API_STUBS_ID3D11Texture2D, /* every slot answers "not implemented" until named below */
    .QueryInterface = tex2d_QueryInterface,
    RT_PRIVATE_DATA_SLOTS(tex2d),
    .AddRef = tex2d_AddRef,
    .Release = tex2d_Release,
    .GetDevice = tex2d_GetDevice,
    .GetType = tex2d_GetType,
    .SetEvictionPriority = tex2d_SetEvictionPriority,
    .GetEvictionPriority = tex2d_GetEvictionPriority,
    .GetDesc = tex2d_GetDesc,
    },
    .ext = { RT_API_OWN_STUBS_ID3D11Texture2D1, .GetDesc1 = tex2d_GetDesc1 },
};
const struct rt_texture3d_vtbl rt_texture3d_vtbl = {
    .base = {
    RT_API_STUBS_ID3D11Texture3D, /* every slot answers "not implemented" until named below */
    .QueryInterface = tex3d_QueryInterface,
    RT_PRIVATE_DATA_SLOTS(tex3d),
    .AddRef = tex3d_AddRef,
    .Release = tex3d_Release,
    .GetDevice = tex3d_GetDevice,
    .GetType = tex3d_GetType,
    .SetEvictionPriority = tex3d_SetEvictionPriority,
    .GetEvictionPriority = tex3d_GetEvictionPriority,
    .GetDesc = tex3d_GetDesc,
    },
    .ext = { RT_API_OWN_STUBS_ID3D11Texture3D1, .GetDesc1 = tex3d_GetDesc1 },
};

/* Shared tail of the three Create methods: validate, then create through the DDI. ppOut NULL
 * means "validate only" (D3D11 returns S_FALSE). */
static HRESULT create_texture(struct rt_device *dev, struct rt_resource *tmpl, const D3D11_SUBRESOURCE_DATA *data,
                              void **out)
{
    tmpl->device = dev; /* the feature level decides some rules (cube arrays, validate.c) */
    HRESULT hr = rt_validate_texture(tmpl, data);
    if (FAILED(hr))
        return hr;
    if (!out)
        return S_FALSE;
    struct rt_resource *res;
    hr = rt_resource_create(dev, tmpl, data, &res);
    if (FAILED(hr))
        return hr;
    *out = res;
    return S_OK;
}

HRESULT STDMETHODCALLTYPE rt_device_CreateTexture1D(ID3D11Device *iface, const D3D11_TEXTURE1D_DESC *desc,
                                                    const D3D11_SUBRESOURCE_DATA *data, ID3D11Texture1D **out)
{
    if (out)
        *out = NULL;
    if (!desc) {
        RT_REFUSE("CreateTexture1D: pDesc is NULL");
        return E_INVALIDARG;
    }
    struct rt_resource tmpl;
    memset(&tmpl, 0, sizeof(tmpl));
    tmpl.iface.lpVtbl = (const struct ID3D11ResourceVtbl *)(const void *)&rt_texture1d_vtbl;
    tmpl.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE1D;
    tmpl.desc.tex1d = *desc;
    return create_texture(rt_device_from_iface(iface), &tmpl, data, (void **)out);
}

HRESULT STDMETHODCALLTYPE rt_device_CreateTexture2D(ID3D11Device *iface, const D3D11_TEXTURE2D_DESC *desc,
                                                    const D3D11_SUBRESOURCE_DATA *data, ID3D11Texture2D **out)
{
    if (out)
        *out = NULL;
    if (!desc) {
        RT_REFUSE("CreateTexture2D: pDesc is NULL");
        return E_INVALIDARG;
    }
    struct rt_resource tmpl;
    memset(&tmpl, 0, sizeof(tmpl));
    tmpl.iface.lpVtbl = (const struct ID3D11ResourceVtbl *)(const void *)&rt_texture2d_vtbl;
    tmpl.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D;
    tmpl.desc.tex2d = *desc;
    return create_texture(rt_device_from_iface(iface), &tmpl, data, (void **)out);
}

HRESULT STDMETHODCALLTYPE rt_device_CreateTexture3D(ID3D11Device *iface, const D3D11_TEXTURE3D_DESC *desc,
                                                    const D3D11_SUBRESOURCE_DATA *data, ID3D11Texture3D **out)
{
    if (out)
        *out = NULL;
    if (!desc) {
        RT_REFUSE("CreateTexture3D: pDesc is NULL");
        return E_INVALIDARG;
    }
    struct rt_resource tmpl;
    memset(&tmpl, 0, sizeof(tmpl));
    tmpl.iface.lpVtbl = (const struct ID3D11ResourceVtbl *)(const void *)&rt_texture3d_vtbl;
    tmpl.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE3D;
    tmpl.desc.tex3d = *desc;
    return create_texture(rt_device_from_iface(iface), &tmpl, data, (void **)out);
}

/* ID3D11Device3::CreateTexture2D1 / CreateTexture3D1: CreateTexture2D / 3D with a layout. Only the
 * driver's layout (UNDEFINED) is made: ROW_MAJOR and 64K_STANDARD_SWIZZLE need
 * D3D11_FEATURE_DATA_D3D11_OPTIONS2's MapOnDefaultTextures / StandardSwizzle, which this stack
 * reports FALSE (D3D11_TEXTURE_LAYOUT remarks), and are refused with E_INVALIDARG. */
static BOOL layout_supported(const char *fn, D3D11_TEXTURE_LAYOUT layout)
{
    if (layout == D3D11_TEXTURE_LAYOUT_UNDEFINED)
        return TRUE;
    RT_REFUSE("%s: TextureLayout %u: only D3D11_TEXTURE_LAYOUT_UNDEFINED (MapOnDefaultTextures and StandardSwizzle "
              "are FALSE in D3D11_FEATURE_DATA_D3D11_OPTIONS2)", fn, (UINT)layout);
    return FALSE;
}

HRESULT STDMETHODCALLTYPE rt_device_CreateTexture2D1(ID3D11Device3 *iface, const D3D11_TEXTURE2D_DESC1 *desc,
                                                     const D3D11_SUBRESOURCE_DATA *data, ID3D11Texture2D1 **out)
{
    if (out)
        *out = NULL;
    if (!desc) {
        RT_REFUSE("CreateTexture2D1: pDesc1 is NULL");
        return E_INVALIDARG;
    }
    if (!layout_supported("CreateTexture2D1", desc->TextureLayout))
        return E_INVALIDARG;
    D3D11_TEXTURE2D_DESC d;
    memcpy(&d, desc, sizeof d);
    return rt_traced_CreateTexture2D((ID3D11Device *)iface, &d, data, (ID3D11Texture2D **)out);
}

HRESULT STDMETHODCALLTYPE rt_device_CreateTexture3D1(ID3D11Device3 *iface, const D3D11_TEXTURE3D_DESC1 *desc,
                                                     const D3D11_SUBRESOURCE_DATA *data, ID3D11Texture3D1 **out)
{
    if (out)
        *out = NULL;
    if (!desc) {
        RT_REFUSE("CreateTexture3D1: pDesc1 is NULL");
        return E_INVALIDARG;
    }
    if (!layout_supported("CreateTexture3D1", desc->TextureLayout))
        return E_INVALIDARG;
    D3D11_TEXTURE3D_DESC d;
    memcpy(&d, desc, sizeof d);
    return rt_traced_CreateTexture3D((ID3D11Device *)iface, &d, data, (ID3D11Texture3D **)out);
}
