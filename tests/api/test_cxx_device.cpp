/*
 * test_cxx_device.cpp - the D3D11 API from C++, as a program written for Windows uses it
 * (issue 15 §2): method calls on abstract classes (dev->CreateBuffer(...)), IID_PPV_ARGS and
 * __uuidof, through the same objects the C library hands out (and a D3D10 debug device's info
 * queue). C and C++ share one vtable layout, so every call lands in the runtime and travels the
 * whole stack to the GPU and back.
 */
/* rule: build.same-headers-compile-c-c-one (GPU readback through C++ method calls; QueryInterface by `IID_PPV_ARGS`) */
#include <cstdarg>
#include <cstddef>
#include <csetjmp>
#include <cstdint>
#include <cstdlib>
#include <cstring>
extern "C" {
#include <cmocka.h>
}

#include <d3d10.h>
#include <d3d11.h>
#include <d3d11_1.h>

namespace {

struct Device {
    ID3D11Device *dev = nullptr;
    ID3D11DeviceContext *ctx = nullptr;
    Device()
    {
        D3D_FEATURE_LEVEL level;
        HRESULT hr = D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, nullptr, 0,
                                       D3D11_SDK_VERSION, &dev, &level, &ctx);
        assert_int_equal(hr, S_OK);
        assert_int_equal(level, dev->GetFeatureLevel());
    }
    ~Device()
    {
        if (ctx)
            ctx->Release();
        if (dev)
            dev->Release();
    }
};

/* Upload through UpdateSubresource into a DEFAULT buffer, copy it on the GPU into a STAGING
 * buffer and read it back through Map: the seed-001 readback path, written in C++. */
void readback_through_methods(void **)
{
    Device d;
    const UINT bytes = 4096;
    D3D11_BUFFER_DESC desc = {};
    desc.ByteWidth = bytes;
    desc.Usage = D3D11_USAGE_DEFAULT;
    desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    ID3D11Buffer *gpu = nullptr, *staging = nullptr;
    assert_int_equal(d.dev->CreateBuffer(&desc, nullptr, &gpu), S_OK);
    desc.Usage = D3D11_USAGE_STAGING;
    desc.BindFlags = 0;
    desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    assert_int_equal(d.dev->CreateBuffer(&desc, nullptr, &staging), S_OK);

    unsigned char data[4096];
    for (UINT i = 0; i < bytes; i++)
        data[i] = (unsigned char)(i * 7 + 3);
    d.ctx->UpdateSubresource(gpu, 0, nullptr, data, 0, 0);
    d.ctx->CopyResource(staging, gpu);

    D3D11_MAPPED_SUBRESOURCE map = {};
    assert_int_equal(d.ctx->Map(staging, 0, D3D11_MAP_READ, 0, &map), S_OK);
    assert_memory_equal(map.pData, data, bytes);
    d.ctx->Unmap(staging, 0);

    D3D11_BUFFER_DESC got = {};
    staging->GetDesc(&got);
    assert_int_equal(got.ByteWidth, bytes);
    assert_int_equal(got.Usage, D3D11_USAGE_STAGING);
    staging->Release();
    gpu->Release();
}

/* QueryInterface with IID_PPV_ARGS / __uuidof answers the same object's other faces. */
void query_interface_by_uuidof(void **)
{
    Device d;
    ID3D11Device *again = nullptr;
    assert_int_equal(d.dev->QueryInterface(IID_PPV_ARGS(&again)), S_OK);
    assert_ptr_equal(again, d.dev);
    again->Release();

    IUnknown *unknown = nullptr;
    assert_int_equal(d.dev->QueryInterface(__uuidof(IUnknown), reinterpret_cast<void **>(&unknown)), S_OK);
    assert_non_null(unknown);
    unknown->Release();

    ID3D11DeviceContext *ctx = nullptr;
    d.dev->GetImmediateContext(&ctx);
    assert_ptr_equal(ctx, d.ctx);
    assert_int_equal(ctx->GetType(), D3D11_DEVICE_CONTEXT_IMMEDIATE);
    ctx->Release();
}

/* A method outside what the reference GPU executes exists in its slot and says so: an HRESULT
 * method answers E_NOTIMPL and writes nothing; a void one returns (docs/api.md). */
/* rule: runtime.slot-reference-stack-not-execute-answers */
void unexecuted_methods_answer_honestly(void **)
{
    Device d;
    static const unsigned char bytecode[16] = {0};
    ID3D11VertexShader *vs = reinterpret_cast<ID3D11VertexShader *>(&d);
    assert_int_equal(d.dev->CreateVertexShader(bytecode, sizeof bytecode, nullptr, &vs), E_NOTIMPL);
    assert_ptr_equal(vs, reinterpret_cast<ID3D11VertexShader *>(&d));
    d.ctx->Draw(3, 0);
    d.ctx->Flush();
}

/* The D3D10 debug layer from C++ (d3d10.h brings d3d10sdklayers.h, as the SDK's does): the
 * info queue of a D3D10_CREATE_DEVICE_DEBUG device by IID_PPV_ARGS, a message in and out. */
/* rule: d3d10.id3d10debug-id3d10infoqueue-exist-only */
void d3d10_info_queue_by_methods(void **)
{
    ID3D10Device *dev = nullptr;
    assert_int_equal(D3D10CreateDevice(nullptr, D3D10_DRIVER_TYPE_HARDWARE, nullptr, D3D10_CREATE_DEVICE_DEBUG,
                                       D3D10_SDK_VERSION, &dev), S_OK);
    ID3D10InfoQueue *iq = nullptr;
    assert_int_equal(dev->QueryInterface(IID_PPV_ARGS(&iq)), S_OK);
    iq->SetMuteDebugOutput(TRUE);
    assert_int_equal(iq->AddApplicationMessage(D3D10_MESSAGE_SEVERITY_INFO, "from C++"), S_OK);
    SIZE_T len = 0;
    assert_int_equal(iq->GetMessage(0, nullptr, &len), S_FALSE);
    D3D10_MESSAGE *m = static_cast<D3D10_MESSAGE *>(std::malloc(len));
    assert_int_equal(iq->GetMessage(0, m, &len), S_OK);
    assert_string_equal(m->pDescription, "from C++");
    assert_int_equal(m->ID, D3D10_MESSAGE_ID_STRING_FROM_APPLICATION);
    std::free(m);
    iq->Release();
    assert_int_equal(dev->Release(), 0);
}

} // namespace

int main()
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(readback_through_methods),
        cmocka_unit_test(query_interface_by_uuidof),
        cmocka_unit_test(unexecuted_methods_answer_honestly),
        cmocka_unit_test(d3d10_info_queue_by_methods),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
