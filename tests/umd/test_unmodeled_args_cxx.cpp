/*
 * test_unmodeled_args_cxx.cpp - the UMD DDI headers (include/wddm/d3d10umddi.h and
 * d3d10umddi_unmodeled.h) as a driver written in C++ uses them, as most Windows UMDs are (issue
 * 19 §2): they compile as C++17, the argument structures have the same layout as in C, and
 * static member functions that read the arguments go into the slots without a cast.
 * The C side and the values are umd.test_unmodeled_args. docs/rules.md §61.
 */
#include <cstdarg>
#include <cstddef>
#include <csetjmp>
#include <cstdint>
#include <cstring>
extern "C" {
#include <cmocka.h>
}

#include <wddm/d3d10umddi.h>

static_assert(offsetof(D3D10_DDI_SAMPLER_DESC, BorderColor) == 28 && sizeof(D3D10_DDI_SAMPLER_DESC) == 52, "sampler");
static_assert(sizeof(D3D11_1_DDI_BLEND_DESC) == 8 + 8 * 40, "D3D11.1 blend");
static_assert(offsetof(D3D10_DDI_DEPTH_STENCIL_DESC, BackFace) == 44, "depth-stencil");
static_assert(offsetof(D3D11DDIARG_CREATEDEPTHSTENCILVIEW, Tex2D) == sizeof(void *) + 12, "D3D11 DSV");
static_assert(offsetof(D3D11DDIARG_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT, RasterizedStream) == 4 * sizeof(void *) + 4, "SO");
static_assert(sizeof(D3D10_DDI_FILTER) == 4 && sizeof(D3D10DDI_COUNTER_TYPE) == 4, "32-bit enumerations");

namespace {

struct Device {
    UINT samplers = 0;
    D3D10_DDI_CULL_MODE cull = D3D10_DDI_CULL_NONE;
    UINT so_streams = 0;

    static Device *from(D3D10DDI_HDEVICE h) { return static_cast<Device *>(h.pDrvPrivate); }

    static VOID APIENTRY CreateSampler(D3D10DDI_HDEVICE h, const D3D10_DDI_SAMPLER_DESC *desc, D3D10DDI_HSAMPLER,
                                       D3D10DDI_HRTSAMPLER)
    {
        if (desc->AddressU == D3D10_DDI_TEXTURE_ADDRESS_BORDER && desc->BorderColor[3] == 1.0f)
            from(h)->samplers++;
    }
    static VOID APIENTRY CreateRasterizerState(D3D10DDI_HDEVICE h, const D3D11_1_DDI_RASTERIZER_DESC *desc,
                                               D3D10DDI_HRASTERIZERSTATE, D3D10DDI_HRTRASTERIZERSTATE)
    {
        from(h)->cull = desc->CullMode;
    }
    static VOID APIENTRY CreateGeometryShaderWithStreamOutput(D3D10DDI_HDEVICE h,
                                                              const D3D11DDIARG_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT *args,
                                                              D3D10DDI_HSHADER, D3D10DDI_HRTSHADER,
                                                              const D3D11_1DDIARG_STAGE_IO_SIGNATURES *sig)
    {
        for (UINT i = 0; i < args->NumEntries; i++)
            from(h)->so_streams |= 1u << args->pOutputStreamDecl[i].Stream;
    }
};

void a_cxx_driver_fills_and_reads(void **)
{
    D3D11_1DDI_DEVICEFUNCS f{};
    f.pfnCreateSampler = Device::CreateSampler;
    f.pfnCreateRasterizerState = Device::CreateRasterizerState;
    f.pfnCreateGeometryShaderWithStreamOutput = Device::CreateGeometryShaderWithStreamOutput;

    Device device;
    D3D10DDI_HDEVICE h{ &device };
    D3D10_DDI_SAMPLER_DESC sampler{};
    sampler.AddressU = D3D10_DDI_TEXTURE_ADDRESS_BORDER;
    sampler.BorderColor[3] = 1.0f;
    f.pfnCreateSampler(h, &sampler, {}, {});
    D3D11_1_DDI_RASTERIZER_DESC raster{};
    raster.CullMode = D3D10_DDI_CULL_FRONT;
    f.pfnCreateRasterizerState(h, &raster, {}, {});
    const D3D11DDIARG_STREAM_OUTPUT_DECLARATION_ENTRY decl[2] = { { 0, 0, 0, 0xf }, { 2, 1, 1, 0x3 } };
    D3D11DDIARG_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT so{};
    so.pOutputStreamDecl = decl;
    so.NumEntries = 2;
    D3D11_1DDIARG_STAGE_IO_SIGNATURES sig{};
    f.pfnCreateGeometryShaderWithStreamOutput(h, &so, {}, {}, &sig);

    assert_int_equal(device.samplers, 1);
    assert_int_equal(device.cull, D3D10_DDI_CULL_FRONT);
    assert_int_equal(device.so_streams, 0x5);
}

} // namespace

int main()
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_cxx_driver_fills_and_reads),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
