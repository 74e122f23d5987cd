/*
 * program_readback.cpp - the same program as program_readback.c, as a C++ program written for
 * Windows writes it: method calls, IID_PPV_ARGS and __uuidof (issue 15). CTest runs it against
 * libwddm (api.program_cpp) and compiles it against the SDK's headers from Debian's
 * mingw-w64-common for a Windows target (api.program_sdk). One line and exit 0 when every byte
 * came back.
 */
#include <d3d11_1.h>
#include <dxgi1_4.h>
#include <dxgidebug.h>

/* The C library's headers: for the Windows target the SDK check compiles against, only the C
 * runtime's headers are at hand (Debian's mingw-w64-common has no C++ library). */
#include <stdio.h>
#include <string.h>

#define CHECK(expr)                                                                                           \
    do {                                                                                                      \
        HRESULT check_hr_ = (expr);                                                                           \
        if (FAILED(check_hr_)) {                                                                              \
            printf("program_readback: %s failed: 0x%08lx\n", #expr, (unsigned long)(ULONG)check_hr_);   \
            return 1;                                                                                         \
        }                                                                                                     \
    } while (0)

namespace {

const UINT kBytes = 65536;

int readback(ID3D11Device *dev, ID3D11DeviceContext *ctx)
{
    static unsigned char data[kBytes];
    for (UINT i = 0; i < kBytes; i++)
        data[i] = (unsigned char)(i * 29u + 11u);

    D3D11_BUFFER_DESC bd = {};
    bd.ByteWidth = kBytes;
    bd.Usage = D3D11_USAGE_DEFAULT;
    bd.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    ID3D11Buffer *gpu = nullptr, *staging = nullptr;
    CHECK(dev->CreateBuffer(&bd, nullptr, &gpu));
    bd.Usage = D3D11_USAGE_STAGING;
    bd.BindFlags = 0;
    bd.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    CHECK(dev->CreateBuffer(&bd, nullptr, &staging));
    static const char name[] = "readback staging";
    CHECK(staging->SetPrivateData(WKPDID_D3DDebugObjectName, sizeof name - 1, name));

    ID3D11DeviceContext1 *ctx1 = nullptr;
    CHECK(ctx->QueryInterface(IID_PPV_ARGS(&ctx1)));
    ctx1->UpdateSubresource1(gpu, 0, nullptr, data, 0, 0, D3D11_COPY_DISCARD);
    ctx->CopyResource(staging, gpu);
    D3D11_MAPPED_SUBRESOURCE m;
    CHECK(ctx->Map(staging, 0, D3D11_MAP_READ, 0, &m));
    bool same = memcmp(m.pData, data, kBytes) == 0;
    ctx->Unmap(staging, 0);

    ctx1->Release();
    staging->Release();
    gpu->Release();
    if (!same) {
        printf("program_readback: the bytes read back differ\n");
        return 1;
    }
    return 0;
}

} // namespace

int main()
{
    IDXGIFactory1 *factory = nullptr;
    CHECK(CreateDXGIFactory1(__uuidof(IDXGIFactory1), reinterpret_cast<void **>(&factory)));
    IDXGIAdapter1 *adapter = nullptr;
    CHECK(factory->EnumAdapters1(0, &adapter));
    DXGI_ADAPTER_DESC1 desc;
    CHECK(adapter->GetDesc1(&desc));
    IDXGIAdapter3 *adapter3 = nullptr;
    CHECK(adapter->QueryInterface(IID_PPV_ARGS(&adapter3)));
    DXGI_QUERY_VIDEO_MEMORY_INFO budget;
    CHECK(adapter3->QueryVideoMemoryInfo(0, DXGI_MEMORY_SEGMENT_GROUP_LOCAL, &budget));

    ID3D11Device *dev = nullptr;
    ID3D11DeviceContext *ctx = nullptr;
    D3D_FEATURE_LEVEL level;
    CHECK(D3D11CreateDevice(adapter, D3D_DRIVER_TYPE_UNKNOWN, nullptr, 0, nullptr, 0, D3D11_SDK_VERSION, &dev,
                            &level, &ctx));
    int rc = readback(dev, ctx);

    ctx->Release();
    dev->Release();
    adapter3->Release();
    adapter->Release();
    factory->Release();
    IDXGIDebug *debug = nullptr; /* as program_readback.c: a debug build's live-object report */
    if (SUCCEEDED(DXGIGetDebugInterface1(0, IID_PPV_ARGS(&debug)))) {
        CHECK(debug->ReportLiveObjects(DXGI_DEBUG_ALL, DXGI_DEBUG_RLO_ALL));
        debug->Release();
    }
    if (!rc)
        printf("program_readback: %u bytes back on an adapter with %llu MiB of dedicated memory, budget %llu "
                    "MiB\n",
                    kBytes, (unsigned long long)desc.DedicatedVideoMemory >> 20,
                    (unsigned long long)budget.Budget >> 20);
    return rc;
}
