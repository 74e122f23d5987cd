/* ddi11_1.c - the D3D11.1 DDI of the reference UMD (D3D11_1_DDI_INTERFACE_VERSION, issue 15 §4):
 * the 11.1 table's retyped and added slots over the same implementation as the 11.0 ones.
 *
 * What the reference UMD does with what the 11.1 DDI tells it (D3D11_1_DDI_COPY_FLAGS,
 * PFND3D11_1DDI_DISCARD; both are leave, never orders):
 * - D3D11_1DDI_COPY_NO_OVERWRITE / _DISCARD: ignored. Its copies never wait for the GPU
 *   (UpdateSubresourceUP travels inline in the command buffer, update.c; CopyRegion is a GPU
 *   COPY ordered on the device's one context, copy.c), so there is no wait to skip and no
 *   renaming to gain; the plain copy is what either flag allows. D3D11_1DDI_COPY_TILEABLE is
 *   for tile-based deferred renderers, which the software GPU is not.
 * - Discard: the content is kept, one of the contents a discarded resource may have; a
 *   handle type that names neither a resource nor a view is refused through pfnSetErrorCb.
 *   The UMD counts what it was told (wddm_umd_get_ddi11_1_counters), so a test can prove
 *   the runtime reached it.
 * - Flush(D3D11_1): umd_flush submits only when commands are queued, which is what
 *   D3D11_1DDI_FLUSH_UNLESS_NO_COMMANDS asks; it answers whether nothing failed. */
#include "umd/umd.h"
#include "umd/deferred.h"
#include "umd/ddi11_1.h"

#include <stdatomic.h>

static _Atomic UINT64 copies_no_overwrite, copies_discard, discards;

void wddm_umd_get_ddi11_1_counters(struct wddm_umd_ddi11_1_counters *out)
{
    out->copies_no_overwrite = atomic_load(&copies_no_overwrite);
    out->copies_discard = atomic_load(&copies_discard);
    out->discards = atomic_load(&discards);
}

static void count_copy_flags(UINT flags)
{
    if (flags & D3D11_1DDI_COPY_NO_OVERWRITE)
        atomic_fetch_add(&copies_no_overwrite, 1);
    if (flags & D3D11_1DDI_COPY_DISCARD)
        atomic_fetch_add(&copies_discard, 1);
}

VOID APIENTRY umd_ResourceCopyRegion11_1(D3D10DDI_HDEVICE hDevice, D3D10DDI_HRESOURCE hDst, UINT DstSubresource,
                                         UINT DstX, UINT DstY, UINT DstZ, D3D10DDI_HRESOURCE hSrc,
                                         UINT SrcSubresource, const D3D10_DDI_BOX *pSrcBox, UINT CopyFlags)
{
    count_copy_flags(CopyFlags);
    umd_ResourceCopyRegion(hDevice, hDst, DstSubresource, DstX, DstY, DstZ, hSrc, SrcSubresource, pSrcBox);
}

VOID APIENTRY umd_ResourceUpdateSubresourceUP11_1(D3D10DDI_HDEVICE hDevice, D3D10DDI_HRESOURCE hDst,
                                                  UINT DstSubresource, const D3D10_DDI_BOX *pDstBox,
                                                  const VOID *pSysMemUP, UINT RowPitch, UINT DepthPitch,
                                                  UINT CopyFlags)
{
    count_copy_flags(CopyFlags);
    umd_ResourceUpdateSubresourceUP(hDevice, hDst, DstSubresource, pDstBox, pSysMemUP, RowPitch, DepthPitch);
}

BOOL APIENTRY umd_Flush11_1(D3D10DDI_HDEVICE hDevice, UINT FlushFlags)
{
    (void)FlushFlags; /* umd_flush never submits an empty buffer (UNLESS_NO_COMMANDS or not) */
    struct umd_device *dev = umd_device(hDevice);
    HRESULT hr = umd_flush(dev);
    if (FAILED(hr))
        umd_set_error(dev, hr);
    return SUCCEEDED(hr);
}

/* The handle types a discard may name: a resource or one of its views. */
BOOL umd_discard_args_valid(D3D11DDI_HANDLETYPE type, const VOID *handle, const D3D10_DDI_RECT *rects, UINT count)
{
    switch (type) {
    case D3D10DDI_HT_RESOURCE:
    case D3D10DDI_HT_SHADERRESOURCEVIEW:
    case D3D10DDI_HT_RENDERTARGETVIEW:
    case D3D10DDI_HT_DEPTHSTENCILVIEW:
    case D3D11DDI_HT_UNORDEREDACCESSVIEW:
        break;
    default:
        UMD_REFUSE("Discard: handle type %d names neither a resource nor a view", (int)type);
        return FALSE;
    }
    if (!handle || (count && !rects)) {
        UMD_REFUSE("Discard: NULL handle, or %u rectangles without pRects", count);
        return FALSE;
    }
    return TRUE;
}

VOID APIENTRY umd_Discard(D3D10DDI_HDEVICE hDevice, D3D11DDI_HANDLETYPE HandleType, VOID *hResourceOrView,
                          const D3D10_DDI_RECT *pRects, UINT NumRects)
{
    if (!umd_discard_args_valid(HandleType, hResourceOrView, pRects, NumRects)) {
        umd_set_error(umd_device(hDevice), E_INVALIDARG);
        return;
    }
    atomic_fetch_add(&discards, 1); /* the content stays (see the top of this file) */
}

void umd_fill_funcs11_1(D3D11_1DDI_DEVICEFUNCS *f)
{
    UMD_FILL_FUNCS11_COMMON(f);
    f->pfnDefaultConstantBufferUpdateSubresourceUP = umd_ResourceUpdateSubresourceUP11_1;
    f->pfnFlush = umd_Flush11_1;
    f->pfnResourceCopyRegion = umd_ResourceCopyRegion11_1;
    f->pfnResourceUpdateSubresourceUP = umd_ResourceUpdateSubresourceUP11_1;
    f->pfnDiscard = umd_Discard;
    f->pfnDynamicConstantBufferMapNoOverwrite = umd_ResourceMap;
}
