/*
 * program_readback10.cpp - the same Direct3D 10 program as program_readback10.c, as a C++
 * program written for Windows writes it: method calls, IID_PPV_ARGS and __uuidof (issue 15 §1).
 * CTest runs it against libwddm (api.program10_cpp) and compiles it against the SDK's headers
 * for a Windows target (api.program_sdk). One line and exit 0 when every texel came back.
 */
#include <d3d10_1.h>
#include <dxgi.h>

/* The C library's headers only: the Windows target has no C++ library here (program_readback.cpp). */
#include <stdio.h>
#include <string.h>

#define CHECK(expr)                                                                                           \
    do {                                                                                                      \
        HRESULT check_hr_ = (expr);                                                                           \
        if (FAILED(check_hr_)) {                                                                              \
            printf("program_readback10: %s failed: 0x%08lx\n", #expr, (unsigned long)(ULONG)check_hr_);      \
            return 1;                                                                                         \
        }                                                                                                     \
    } while (0)

namespace {

const UINT kW = 64, kH = 48, kD = 4;

/* A 3D texture this time: D3D10_MAPPED_TEXTURE3D's RowPitch and DepthPitch lead the reads. */
int readback(ID3D10Device *dev)
{
    static unsigned char texels[kW * kH * kD * 4];
    for (UINT i = 0; i < sizeof texels; i++)
        texels[i] = (unsigned char)(i * 17u + 3u);

    D3D10_TEXTURE3D_DESC td = {};
    td.Width = kW;
    td.Height = kH;
    td.Depth = kD;
    td.MipLevels = 1;
    td.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    td.Usage = D3D10_USAGE_DEFAULT;
    td.BindFlags = D3D10_BIND_SHADER_RESOURCE;
    D3D10_SUBRESOURCE_DATA init = { texels, kW * 4, kW * kH * 4 };
    ID3D10Texture3D *gpu = nullptr, *staging = nullptr;
    CHECK(dev->CreateTexture3D(&td, &init, &gpu));
    td.Usage = D3D10_USAGE_STAGING;
    td.BindFlags = 0;
    td.CPUAccessFlags = D3D10_CPU_ACCESS_READ;
    CHECK(dev->CreateTexture3D(&td, nullptr, &staging));
    dev->CopyResource(staging, gpu);

    D3D10_MAPPED_TEXTURE3D m;
    CHECK(staging->Map(0, D3D10_MAP_READ, 0, &m));
    bool same = true;
    for (UINT z = 0; z < kD; z++)
        for (UINT y = 0; y < kH; y++)
            same &= memcmp(static_cast<const unsigned char *>(m.pData) + z * m.DepthPitch + y * m.RowPitch,
                           texels + (z * kH + y) * kW * 4, kW * 4) == 0;
    staging->Unmap(0);

    staging->Release();
    gpu->Release();
    if (!same) {
        printf("program_readback10: the texels read back differ\n");
        return 1;
    }
    return 0;
}

} // namespace

int main()
{
    IDXGIFactory *factory = nullptr;
    CHECK(CreateDXGIFactory(__uuidof(IDXGIFactory), reinterpret_cast<void **>(&factory)));
    IDXGIAdapter *adapter = nullptr;
    CHECK(factory->EnumAdapters(0, &adapter));

    ID3D10Device *dev = nullptr;
    CHECK(D3D10CreateDevice(adapter, D3D10_DRIVER_TYPE_HARDWARE, nullptr, 0, D3D10_SDK_VERSION, &dev));
    IDXGIDevice *dxgi = nullptr;
    CHECK(dev->QueryInterface(IID_PPV_ARGS(&dxgi)));
    dxgi->Release();
    int rc = readback(dev);

    ULONG left = dev->Release();
    adapter->Release();
    factory->Release();
    if (!rc && left) {
        printf("program_readback10: %lu device references left\n", (unsigned long)left);
        return 1;
    }
    if (!rc)
        printf("program_readback10: %u x %u x %u texels read back through the D3D10 API\n", kW, kH, kD);
    return rc;
}
