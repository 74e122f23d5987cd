/*
 * dxgi.h - the DXGI subset the D3D11 API needs: the adapter interface (opaque here: the runtime
 * takes NULL = default adapter), the sample description and the DXGI_ERROR_* codes with the
 * SDK's values (winerror.h, facility DXGI = 0x87A).
 */
#ifndef LIBWDDM_DXGI_H
#define LIBWDDM_DXGI_H

#include "wddm/wintypes.h"
#include "dxgiformat.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Only NULL (the default adapter) is accepted by D3D11CreateDevice for now; the type exists so
 * that Windows programs that pass an adapter pointer compile. */
typedef struct IDXGIAdapter IDXGIAdapter;

/* IDXGIResource (dxgi.h): a D3D11 resource's DXGI face. GetSharedHandle returns the global
 * share handle of a resource created with D3D11_RESOURCE_MISC_SHARED (issue 6), which
 * ID3D11Device::OpenSharedResource opens. The vtable is in the SDK's order. */
typedef UINT DXGI_USAGE;
typedef struct IDXGIResource IDXGIResource;
typedef struct IDXGIResourceVtbl {
    HRESULT (STDMETHODCALLTYPE *QueryInterface)(IDXGIResource *This, REFIID riid, void **ppvObject);
    ULONG   (STDMETHODCALLTYPE *AddRef)(IDXGIResource *This);
    ULONG   (STDMETHODCALLTYPE *Release)(IDXGIResource *This);
    HRESULT (STDMETHODCALLTYPE *SetPrivateData)(IDXGIResource *This, REFGUID Name, UINT DataSize, const void *pData);
    HRESULT (STDMETHODCALLTYPE *SetPrivateDataInterface)(IDXGIResource *This, REFGUID Name, const void *pUnknown);
    HRESULT (STDMETHODCALLTYPE *GetPrivateData)(IDXGIResource *This, REFGUID Name, UINT *pDataSize, void *pData);
    HRESULT (STDMETHODCALLTYPE *GetParent)(IDXGIResource *This, REFIID riid, void **ppParent);
    HRESULT (STDMETHODCALLTYPE *GetDevice)(IDXGIResource *This, REFIID riid, void **ppDevice);
    HRESULT (STDMETHODCALLTYPE *GetSharedHandle)(IDXGIResource *This, HANDLE *pSharedHandle);
    HRESULT (STDMETHODCALLTYPE *GetUsage)(IDXGIResource *This, DXGI_USAGE *pUsage);
    HRESULT (STDMETHODCALLTYPE *SetEvictionPriority)(IDXGIResource *This, UINT EvictionPriority);
    HRESULT (STDMETHODCALLTYPE *GetEvictionPriority)(IDXGIResource *This, UINT *pEvictionPriority);
} IDXGIResourceVtbl;
struct IDXGIResource { const struct IDXGIResourceVtbl *lpVtbl; };
extern const IID IID_IDXGIResource;
#define IDXGIResource_QueryInterface(This,riid,ppvObject) ((This)->lpVtbl->QueryInterface(This,riid,ppvObject))
#define IDXGIResource_AddRef(This) ((This)->lpVtbl->AddRef(This))
#define IDXGIResource_Release(This) ((This)->lpVtbl->Release(This))
#define IDXGIResource_GetDevice(This,riid,ppDevice) ((This)->lpVtbl->GetDevice(This,riid,ppDevice))
#define IDXGIResource_GetSharedHandle(This,pSharedHandle) ((This)->lpVtbl->GetSharedHandle(This,pSharedHandle))
#define IDXGIResource_GetUsage(This,pUsage) ((This)->lpVtbl->GetUsage(This,pUsage))

#define DXGI_ERROR_INVALID_CALL           ((HRESULT)0x887A0001L)
#define DXGI_ERROR_NOT_FOUND              ((HRESULT)0x887A0002L)
#define DXGI_ERROR_MORE_DATA              ((HRESULT)0x887A0003L)
#define DXGI_ERROR_UNSUPPORTED            ((HRESULT)0x887A0004L)
#define DXGI_ERROR_DEVICE_REMOVED         ((HRESULT)0x887A0005L)
#define DXGI_ERROR_DEVICE_HUNG            ((HRESULT)0x887A0006L)
#define DXGI_ERROR_DEVICE_RESET           ((HRESULT)0x887A0007L)
#define DXGI_ERROR_WAS_STILL_DRAWING      ((HRESULT)0x887A000AL)
#define DXGI_ERROR_DRIVER_INTERNAL_ERROR  ((HRESULT)0x887A0020L)

#ifdef __cplusplus
}
#endif

#endif /* LIBWDDM_DXGI_H */
