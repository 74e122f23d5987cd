/*
 * d3d10_device.c - D3D10CreateDevice / D3D10CreateDevice1. The D3D10 API over the D3D10 DDI is
 * not built yet (docs/api.md): both answer E_NOTIMPL and write a NULL device, so a program
 * written for Windows compiles, links and learns at run time, instead of failing to link.
 */
#include "runtime/runtime.h"
#include "d3d10_1.h"

HRESULT WINAPI D3D10CreateDevice(IDXGIAdapter *pAdapter, D3D10_DRIVER_TYPE DriverType, HMODULE Software, UINT Flags,
                                 UINT SDKVersion, ID3D10Device **ppDevice)
{
    if (ppDevice)
        *ppDevice = NULL;
    RT_REFUSE("D3D10CreateDevice: the Direct3D 10 API is not implemented yet (docs/api.md)");
    return E_NOTIMPL;
}

HRESULT WINAPI D3D10CreateDevice1(IDXGIAdapter *pAdapter, D3D10_DRIVER_TYPE DriverType, HMODULE Software, UINT Flags,
                                  D3D10_FEATURE_LEVEL1 HardwareLevel, UINT SDKVersion, ID3D10Device1 **ppDevice)
{
    if (ppDevice)
        *ppDevice = NULL;
    RT_REFUSE("D3D10CreateDevice1: the Direct3D 10 API is not implemented yet (docs/api.md)");
    return E_NOTIMPL;
}
