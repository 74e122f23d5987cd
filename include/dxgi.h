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
