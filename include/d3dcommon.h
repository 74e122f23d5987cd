/*
 * d3dcommon.h - types shared by the Direct3D APIs (D3D_FEATURE_LEVEL, D3D_DRIVER_TYPE) and the
 * COM root interface IUnknown (the SDK keeps it in unknwn.h; one header less for a C program).
 *
 * C/COM style as the SDK's C bindings: an interface is a struct whose only member is a pointer
 * to a const vtable; the COBJMACROS-style call macros are always defined. Source compatibility
 * is the goal, not binary layout (DESIGN.md "Headers").
 */
#ifndef LIBWDDM_D3DCOMMON_H
#define LIBWDDM_D3DCOMMON_H

#include "wddm/wintypes.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum D3D_DRIVER_TYPE {
    D3D_DRIVER_TYPE_UNKNOWN   = 0,
    D3D_DRIVER_TYPE_HARDWARE  = 1,
    D3D_DRIVER_TYPE_REFERENCE = 2,
    D3D_DRIVER_TYPE_NULL      = 3,
    D3D_DRIVER_TYPE_SOFTWARE  = 4,
    D3D_DRIVER_TYPE_WARP      = 5
} D3D_DRIVER_TYPE;

typedef enum D3D_FEATURE_LEVEL {
    D3D_FEATURE_LEVEL_1_0_CORE = 0x1000,
    D3D_FEATURE_LEVEL_9_1      = 0x9100,
    D3D_FEATURE_LEVEL_9_2      = 0x9200,
    D3D_FEATURE_LEVEL_9_3      = 0x9300,
    D3D_FEATURE_LEVEL_10_0     = 0xa000,
    D3D_FEATURE_LEVEL_10_1     = 0xa100,
    D3D_FEATURE_LEVEL_11_0     = 0xb000,
    D3D_FEATURE_LEVEL_11_1     = 0xb100,
    D3D_FEATURE_LEVEL_12_0     = 0xc000,
    D3D_FEATURE_LEVEL_12_1     = 0xc100
} D3D_FEATURE_LEVEL;

/* ---- IUnknown ------------------------------------------------------------------------- */

extern const IID IID_IUnknown;

typedef struct IUnknown IUnknown;
typedef struct IUnknownVtbl IUnknownVtbl;
struct IUnknownVtbl {
    HRESULT (STDMETHODCALLTYPE *QueryInterface)(IUnknown *This, REFIID riid, void **ppvObject);
    ULONG   (STDMETHODCALLTYPE *AddRef)(IUnknown *This);
    ULONG   (STDMETHODCALLTYPE *Release)(IUnknown *This);
};
struct IUnknown {
    const struct IUnknownVtbl *lpVtbl;
};

#define IUnknown_QueryInterface(This,riid,ppvObject) ((This)->lpVtbl->QueryInterface(This,riid,ppvObject))
#define IUnknown_AddRef(This) ((This)->lpVtbl->AddRef(This))
#define IUnknown_Release(This) ((This)->lpVtbl->Release(This))

#ifdef __cplusplus
}
#endif

#endif /* LIBWDDM_D3DCOMMON_H */
