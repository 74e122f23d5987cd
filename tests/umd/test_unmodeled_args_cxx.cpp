/*
 * test_unmodeled_args_cxx.cpp - the UMD DDI headers (include/wddm/d3d10umddi.h and
 * d3d10umddi_unmodeled.h) as a driver written in C++ uses them, as most Windows UMDs are (issue
 * 19 §2): they compile as C++17, the argument structures have the same layout as in C, and
 * static member functions that read the arguments go into the slots without a cast. Likewise
 * the argument structures of the runtime callbacks (d3dumddi.h, dxgiddi.h), which a C++ driver
 * fills before calling. The C side and the values are umd.test_unmodeled_args and
 * umd.test_callback_args. docs/rules/runtime.md.
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

// The runtime callbacks' arguments (d3dumddi.h, dxgiddi.h; umd.test_callback_args is the C side).
static_assert(offsetof(D3DDDICB_ESCAPE, hContext) == 32 && sizeof(D3DDDICB_ESCAPE) == 40, "escape");
static_assert(offsetof(D3DDDICB_PRESENT, SyncIntervalOverride) == 576 && sizeof(D3DDDICB_PRESENT) == 584, "present");
static_assert(offsetof(D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT2, FenceValue) == 664, "signal 2");
static_assert(offsetof(D3DDDICB_UPDATEGPUVIRTUALADDRESS, Flags) == 48, "GPU VA update");
static_assert(sizeof(D3DDDI_UPDATEGPUVIRTUALADDRESS_OPERATION) == 64, "GPU VA operation");
static_assert(offsetof(D3DDDICB_RECLAIMALLOCATIONS3, PagingFenceValue) == 32, "reclaim 3");
static_assert(offsetof(DXGIDDICB_PRESENT, SyncIntervalOverride) == 584, "DXGI present");
static_assert(sizeof(DXGIDDICB_PRESENT_MULTIPLANE_OVERLAY) == 672, "DXGI MPO present");

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

/* rule: runtime.argument-structures-slots-model-not */
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

// A C++ driver fills the callbacks' arguments with its own types, as on Windows, and calls
// through a table (a stand-in for the runtime's, which umd.test_callback_args calls for real).
struct Runtime {
    UINT escaped = 0;
    D3DDDI_OFFER_PRIORITY offered = D3DDDI_OFFER_PRIORITY_NONE;
    UINT64 fence = 0;
    static Runtime *self;
    static HRESULT APIENTRY EscapeCb(HANDLE, const D3DDDICB_ESCAPE *e)
    {
        self->escaped = e->PrivateDriverDataSize;
        return E_NOTIMPL;
    }
    static HRESULT APIENTRY OfferAllocations2Cb(HANDLE, const D3DDDICB_OFFERALLOCATIONS2 *o)
    {
        self->offered = o->Flags.AllowDecommit ? o->Priority : D3DDDI_OFFER_PRIORITY_NONE;
        return E_NOTIMPL;
    }
    static HRESULT APIENTRY SignalSynchronizationObject2Cb(HANDLE, const D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT2 *s)
    {
        self->fence = s->FenceValue;
        return E_NOTIMPL;
    }
};
Runtime *Runtime::self = nullptr;

/* rule: runtime.argument-structures-runtime-callbacks */
void a_cxx_driver_fills_callback_arguments(void **)
{
    Runtime runtime;
    Runtime::self = &runtime;
    D3DDDI_DEVICECALLBACKS cb{};
    cb.pfnEscapeCb = Runtime::EscapeCb;
    cb.pfnOfferAllocations2Cb = Runtime::OfferAllocations2Cb;
    cb.pfnSignalSynchronizationObject2Cb = Runtime::SignalSynchronizationObject2Cb;

    UINT blob[3] = { 1, 2, 3 };
    D3DDDICB_ESCAPE escape{};
    escape.Flags.HardwareAccess = 1;
    escape.pPrivateDriverData = blob;
    escape.PrivateDriverDataSize = sizeof blob;
    assert_int_equal(cb.pfnEscapeCb(nullptr, &escape), E_NOTIMPL);
    const D3DKMT_HANDLE list[1] = { 7 };
    D3DDDICB_OFFERALLOCATIONS2 offer{};
    offer.HandleList = list;
    offer.NumAllocations = 1;
    offer.Priority = D3DDDI_OFFER_PRIORITY_HIGH;
    offer.Flags.AllowDecommit = 1;
    assert_int_equal(cb.pfnOfferAllocations2Cb(nullptr, &offer), E_NOTIMPL);
    D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT2 signal{};
    signal.ObjectCount = 1;
    signal.FenceValue = 12;
    assert_int_equal(cb.pfnSignalSynchronizationObject2Cb(nullptr, &signal), E_NOTIMPL);

    assert_int_equal(runtime.escaped, sizeof blob);
    assert_int_equal(runtime.offered, D3DDDI_OFFER_PRIORITY_HIGH);
    assert_int_equal(runtime.fence, 12);
}

} // namespace

int main()
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_cxx_driver_fills_and_reads),
        cmocka_unit_test(a_cxx_driver_fills_callback_arguments),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
