/* An outside program built against an installed libwddm (tests/install/check.sh): a device, a
 * STAGING buffer written through Map, copied on the GPU into a second one and read back. Exits 0
 * and prints "ok" only when every byte came back. */
#include <d3d11.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    ID3D11Device *dev = NULL;
    ID3D11DeviceContext *ctx = NULL;
    if (FAILED(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev, NULL,
                                 &ctx))) {
        fprintf(stderr, "D3D11CreateDevice failed\n");
        return 1;
    }
    D3D11_BUFFER_DESC bd = { .ByteWidth = 4096, .Usage = D3D11_USAGE_STAGING,
                             .CPUAccessFlags = D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE };
    ID3D11Buffer *a = NULL, *b = NULL;
    int ok = SUCCEEDED(ID3D11Device_CreateBuffer(dev, &bd, NULL, &a)) &&
             SUCCEEDED(ID3D11Device_CreateBuffer(dev, &bd, NULL, &b));
    D3D11_MAPPED_SUBRESOURCE m;
    if (ok && SUCCEEDED(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)a, 0, D3D11_MAP_WRITE, 0, &m))) {
        for (int i = 0; i < 4096; i++)
            ((unsigned char *)m.pData)[i] = (unsigned char)(i * 7);
        ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)a, 0);
        ID3D11DeviceContext_CopyResource(ctx, (ID3D11Resource *)b, (ID3D11Resource *)a);
        ok = SUCCEEDED(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)b, 0, D3D11_MAP_READ, 0, &m));
        for (int i = 0; ok && i < 4096; i++)
            ok = ((const unsigned char *)m.pData)[i] == (unsigned char)(i * 7);
        ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)b, 0);
    } else {
        ok = 0;
    }
    if (a)
        ID3D11Buffer_Release(a);
    if (b)
        ID3D11Buffer_Release(b);
    ID3D11DeviceContext_Release(ctx);
    ID3D11Device_Release(dev);
    puts(ok ? "ok" : "wrong bytes");
    return ok ? 0 : 1;
}
