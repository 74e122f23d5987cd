/*
 * program_readback.c - a program written for Windows, in C, unchanged (issue 15: "compiles
 * unchanged against Microsoft's headers and ours and behaves the same").
 *
 * It includes only the SDK's headers, defines COBJMACROS as a Windows C program must, and uses
 * DXGI to pick an adapter, asks it for its video memory budget, makes a D3D11 device on it,
 * names a buffer through private data, uploads with UpdateSubresource1, copies on the GPU and
 * reads back with Map; at the end it asks DXGI's debug interface for a live-object report, as
 * Windows templates do in debug builds (a system without the SDK layers may refuse it). CTest runs it against libwddm (api.program_c) and compiles it against
 * the SDK's headers from Debian's mingw-w64-common for a Windows target (api.program_sdk).
 * It prints one line and exits 0 when every byte came back.
 */
#define COBJMACROS
#include <d3d11_1.h>
#include <dxgi1_4.h>
#include <dxgidebug.h>

#include <stdio.h>
#include <string.h>

#define CHECK(expr)                                                                                           \
    do {                                                                                                      \
        HRESULT check_hr_ = (expr);                                                                           \
        if (FAILED(check_hr_)) {                                                                              \
            printf("program_readback: %s failed: 0x%08lx\n", #expr, (unsigned long)(ULONG)check_hr_);        \
            return 1;                                                                                         \
        }                                                                                                     \
    } while (0)

enum { BYTES = 65536 };

static int readback(ID3D11Device *dev, ID3D11DeviceContext *ctx)
{
    static unsigned char data[BYTES];
    for (UINT i = 0; i < BYTES; i++)
        data[i] = (unsigned char)(i * 31u + 7u);

    D3D11_BUFFER_DESC bd;
    memset(&bd, 0, sizeof bd);
    bd.ByteWidth = BYTES;
    bd.Usage = D3D11_USAGE_DEFAULT;
    bd.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    ID3D11Buffer *gpu = NULL, *staging = NULL;
    CHECK(ID3D11Device_CreateBuffer(dev, &bd, NULL, &gpu));
    bd.Usage = D3D11_USAGE_STAGING;
    bd.BindFlags = 0;
    bd.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    CHECK(ID3D11Device_CreateBuffer(dev, &bd, NULL, &staging));
    static const char name[] = "readback staging";
    CHECK(ID3D11Buffer_SetPrivateData(staging, &WKPDID_D3DDebugObjectName, sizeof name - 1, name));

    ID3D11DeviceContext1 *ctx1 = NULL;
    CHECK(ID3D11DeviceContext_QueryInterface(ctx, &IID_ID3D11DeviceContext1, (void **)&ctx1));
    ID3D11DeviceContext1_UpdateSubresource1(ctx1, (ID3D11Resource *)gpu, 0, NULL, data, 0, 0, D3D11_COPY_DISCARD);
    ID3D11DeviceContext_CopyResource(ctx, (ID3D11Resource *)staging, (ID3D11Resource *)gpu);
    D3D11_MAPPED_SUBRESOURCE m;
    CHECK(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)staging, 0, D3D11_MAP_READ, 0, &m));
    int same = memcmp(m.pData, data, BYTES) == 0;
    ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)staging, 0);

    ID3D11DeviceContext1_Release(ctx1);
    ID3D11Buffer_Release(staging);
    ID3D11Buffer_Release(gpu);
    if (!same) {
        printf("program_readback: the bytes read back differ\n");
        return 1;
    }
    return 0;
}

int main(void)
{
    IDXGIFactory1 *factory = NULL;
    CHECK(CreateDXGIFactory1(&IID_IDXGIFactory1, (void **)&factory));
    IDXGIAdapter1 *adapter = NULL;
    CHECK(IDXGIFactory1_EnumAdapters1(factory, 0, &adapter));
    DXGI_ADAPTER_DESC1 desc;
    CHECK(IDXGIAdapter1_GetDesc1(adapter, &desc));
    IDXGIAdapter3 *adapter3 = NULL;
    CHECK(IDXGIAdapter1_QueryInterface(adapter, &IID_IDXGIAdapter3, (void **)&adapter3));
    DXGI_QUERY_VIDEO_MEMORY_INFO budget;
    CHECK(IDXGIAdapter3_QueryVideoMemoryInfo(adapter3, 0, DXGI_MEMORY_SEGMENT_GROUP_LOCAL, &budget));

    ID3D11Device *dev = NULL;
    ID3D11DeviceContext *ctx = NULL;
    D3D_FEATURE_LEVEL level;
    CHECK(D3D11CreateDevice((IDXGIAdapter *)adapter, D3D_DRIVER_TYPE_UNKNOWN, NULL, 0, NULL, 0, D3D11_SDK_VERSION,
                            &dev, &level, &ctx));
    int rc = readback(dev, ctx);

    ID3D11DeviceContext_Release(ctx);
    ID3D11Device_Release(dev);
    IDXGIAdapter3_Release(adapter3);
    IDXGIAdapter1_Release(adapter);
    IDXGIFactory1_Release(factory);
    IDXGIDebug *debug = NULL;
    if (SUCCEEDED(DXGIGetDebugInterface1(0, &IID_IDXGIDebug, (void **)&debug))) {
        CHECK(IDXGIDebug_ReportLiveObjects(debug, DXGI_DEBUG_ALL, DXGI_DEBUG_RLO_ALL));
        IDXGIDebug_Release(debug);
    }
    if (!rc)
        printf("program_readback: %u bytes back on an adapter with %llu MiB of dedicated memory, budget %llu MiB\n",
               (unsigned)BYTES, (unsigned long long)desc.DedicatedVideoMemory >> 20,
               (unsigned long long)budget.Budget >> 20);
    return rc;
}
