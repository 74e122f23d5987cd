/*
 * program_readback10.c - a Direct3D 10 program written for Windows, in C, unchanged (issue 15
 * §1 and "Done when": it compiles against Microsoft's headers and ours and behaves the same).
 *
 * DXGI picks the adapter, D3D10CreateDevice1 makes a 10.1 device on it (an adapter goes with
 * D3D10_DRIVER_TYPE_HARDWARE in D3D10), a texture gets its initial data, the GPU copies it to a
 * staging texture and ID3D10Texture2D::Map reads it back, row by row at the returned pitch; an
 * event query waits for a clear. CTest runs it against libwddm (api.program10_c) and compiles
 * it against the SDK's headers for a Windows target (api.program_sdk). One line, exit 0 when
 * every byte came back.
 */
#define COBJMACROS
#include <d3d10_1.h>
#include <dxgi.h>

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

enum { W = 96, H = 40 };

static int readback(ID3D10Device1 *dev)
{
    static unsigned char texels[W * H * 4];
    for (UINT i = 0; i < sizeof texels; i++)
        texels[i] = (unsigned char)(i * 13u + 5u);

    D3D10_TEXTURE2D_DESC td;
    memset(&td, 0, sizeof td);
    td.Width = W;
    td.Height = H;
    td.MipLevels = 1;
    td.ArraySize = 1;
    td.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    td.SampleDesc.Count = 1;
    td.Usage = D3D10_USAGE_DEFAULT;
    td.BindFlags = D3D10_BIND_RENDER_TARGET | D3D10_BIND_SHADER_RESOURCE;
    D3D10_SUBRESOURCE_DATA init = { texels, W * 4, 0 };
    ID3D10Texture2D *gpu = NULL, *staging = NULL;
    CHECK(ID3D10Device1_CreateTexture2D(dev, &td, &init, &gpu));
    td.Usage = D3D10_USAGE_STAGING;
    td.BindFlags = 0;
    td.CPUAccessFlags = D3D10_CPU_ACCESS_READ;
    CHECK(ID3D10Device1_CreateTexture2D(dev, &td, NULL, &staging));

    ID3D10Device1_CopyResource(dev, (ID3D10Resource *)staging, (ID3D10Resource *)gpu);
    D3D10_MAPPED_TEXTURE2D m;
    CHECK(ID3D10Texture2D_Map(staging, 0, D3D10_MAP_READ, 0, &m));
    int same = 1;
    for (UINT y = 0; y < H; y++)
        same &= memcmp((const unsigned char *)m.pData + y * m.RowPitch, texels + y * W * 4, W * 4) == 0;
    ID3D10Texture2D_Unmap(staging, 0);

    /* A clear, then an event query: GetData answers S_FALSE until the GPU passed it. */
    ID3D10RenderTargetView *rtv = NULL;
    CHECK(ID3D10Device1_CreateRenderTargetView(dev, (ID3D10Resource *)gpu, NULL, &rtv));
    const FLOAT green[4] = { 0.0f, 1.0f, 0.0f, 1.0f };
    ID3D10Device1_ClearRenderTargetView(dev, rtv, green);
    D3D10_QUERY_DESC qd = { D3D10_QUERY_EVENT, 0 };
    ID3D10Query *event = NULL;
    CHECK(ID3D10Device1_CreateQuery(dev, &qd, &event));
    ID3D10Query_End(event);
    BOOL done = FALSE;
    HRESULT hr;
    for (UINT i = 0; (hr = ID3D10Query_GetData(event, &done, sizeof done, 0)) == S_FALSE && i < 100000000u; i++)
        ;
    CHECK(hr);
    ID3D10Device1_CopyResource(dev, (ID3D10Resource *)staging, (ID3D10Resource *)gpu);
    CHECK(ID3D10Texture2D_Map(staging, 0, D3D10_MAP_READ, 0, &m));
    const unsigned char *px = (const unsigned char *)m.pData + (H - 1) * m.RowPitch + (W - 1) * 4;
    same &= done && px[0] == 0 && px[1] == 0xff && px[2] == 0 && px[3] == 0xff;
    ID3D10Texture2D_Unmap(staging, 0);

    ID3D10Query_Release(event);
    ID3D10RenderTargetView_Release(rtv);
    ID3D10Texture2D_Release(staging);
    ID3D10Texture2D_Release(gpu);
    if (!same) {
        printf("program_readback10: the texels read back differ\n");
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

    ID3D10Device1 *dev = NULL;
    CHECK(D3D10CreateDevice1((IDXGIAdapter *)adapter, D3D10_DRIVER_TYPE_HARDWARE, NULL, 0, D3D10_FEATURE_LEVEL_10_1,
                             D3D10_1_SDK_VERSION, &dev));
    ID3D10Multithread *mt = NULL;
    CHECK(ID3D10Device1_QueryInterface(dev, &IID_ID3D10Multithread, (void **)&mt));
    BOOL protected_by_default = ID3D10Multithread_GetMultithreadProtected(mt);
    ID3D10Multithread_Release(mt);

    int rc = readback(dev);
    ULONG left = ID3D10Device1_Release(dev);
    IDXGIAdapter1_Release(adapter);
    IDXGIFactory1_Release(factory);
    if (rc == 0 && (left != 0 || !protected_by_default)) {
        printf("program_readback10: %lu device references left, multithread protection %d\n", (unsigned long)left,
               (int)protected_by_default);
        return 1;
    }
    if (rc == 0)
        printf("program_readback10: %u x %u texels read back through the D3D10 API\n", (unsigned)W, (unsigned)H);
    return rc;
}
