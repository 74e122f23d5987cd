/*
 * buffer.c - ID3D11Buffer and ID3D11Device::CreateBuffer.
 */
#include "runtime/runtime.h"
#include "runtime/api_stubs.h"

RT_RESOURCE_COMMON_METHODS(buf, ID3D11Buffer)

static void STDMETHODCALLTYPE buf_GetDesc(ID3D11Buffer *This, D3D11_BUFFER_DESC *desc)
{
    if (desc)
        *desc = ((struct rt_resource *)This)->desc.buffer;
}

const struct ID3D11BufferVtbl rt_buffer_vtbl = {
    RT_API_STUBS_ID3D11Buffer, /* every slot answers "not implemented" until named below */
    .QueryInterface = buf_QueryInterface,
    RT_PRIVATE_DATA_SLOTS(buf),
    .AddRef = buf_AddRef,
    .Release = buf_Release,
    .GetDevice = buf_GetDevice,
    .GetType = buf_GetType,
    .SetEvictionPriority = buf_SetEvictionPriority,
    .GetEvictionPriority = buf_GetEvictionPriority,
    .GetDesc = buf_GetDesc,
};

HRESULT STDMETHODCALLTYPE rt_device_CreateBuffer(ID3D11Device *iface, const D3D11_BUFFER_DESC *desc,
                                                 const D3D11_SUBRESOURCE_DATA *data, ID3D11Buffer **out)
{
    struct rt_device *dev = rt_device_from_iface(iface);
    if (out)
        *out = NULL;
    if (!desc) {
        RT_REFUSE("CreateBuffer: pDesc is NULL");
        return E_INVALIDARG;
    }
    HRESULT hr = rt_validate_buffer_desc(desc, data);
    if (FAILED(hr))
        return hr;
    if (!out)
        return S_FALSE; /* D3D11: ppBuffer NULL = validate only */

    struct rt_resource tmpl;
    memset(&tmpl, 0, sizeof(tmpl));
    tmpl.iface.lpVtbl = (const struct ID3D11ResourceVtbl *)(const void *)&rt_buffer_vtbl;
    tmpl.dimension = D3D11_RESOURCE_DIMENSION_BUFFER;
    tmpl.desc.buffer = *desc;
    /* Wine d3d11 tests (run on Windows), test_create_buffer: StructureByteStride is ignored
     * unless MISC_BUFFER_STRUCTURED (513 is accepted) and GetDesc then reports 0. */
    if (!(desc->MiscFlags & D3D11_RESOURCE_MISC_BUFFER_STRUCTURED))
        tmpl.desc.buffer.StructureByteStride = 0;
    tmpl.width = desc->ByteWidth;
    tmpl.height = tmpl.depth = 1;
    tmpl.mip_levels = tmpl.array_size = 1;
    tmpl.format = DXGI_FORMAT_UNKNOWN;
    tmpl.sample_count = 1;
    tmpl.usage = desc->Usage;
    tmpl.bind_flags = desc->BindFlags;
    tmpl.cpu_access = desc->CPUAccessFlags;
    tmpl.misc_flags = desc->MiscFlags;
    tmpl.subresource_count = 1;

    struct rt_resource *res;
    hr = rt_resource_create(dev, &tmpl, data, &res);
    if (FAILED(hr))
        return hr;
    *out = (ID3D11Buffer *)(void *)res;
    return S_OK;
}
