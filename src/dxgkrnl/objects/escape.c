/* D3DKMTEscape -> DxgkDdiEscape: the caller's private data goes to the KMD unread (the
 * driver package's own channel; the reference one is struct swgpu_escape, seed 002 tests).
 * The kernel checks only the handles, the size and the flags. */
#include "dxgkrnl/dxgkrnl.h"

#define DXGK_ESCAPE_MAX_PRIVATE_DATA (64u * 1024u)

NTSTATUS APIENTRY D3DKMTEscape(const D3DKMT_ESCAPE *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTEscape: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    if (args->Type != D3DKMT_ESCAPE_DRIVERPRIVATE) {
        /* FIXME(escape): the OS's own escape types are not modelled. */
        dxgk_refuse("D3DKMTEscape: Type %d is not D3DKMT_ESCAPE_DRIVERPRIVATE", (int)args->Type);
        return STATUS_INVALID_PARAMETER;
    }
    if (args->Flags.Reserved) {
        dxgk_refuse("D3DKMTEscape: reserved D3DDDI_ESCAPEFLAGS bits set (0x%08x)", args->Flags.Value);
        return STATUS_INVALID_PARAMETER;
    }
    if (!args->pPrivateDriverData || !args->PrivateDriverDataSize ||
        args->PrivateDriverDataSize > DXGK_ESCAPE_MAX_PRIVATE_DATA) {
        dxgk_refuse("D3DKMTEscape: private data %s, %u bytes (1..%u)", args->pPrivateDriverData ? "given" : "NULL",
                    args->PrivateDriverDataSize, DXGK_ESCAPE_MAX_PRIVATE_DATA);
        return STATUS_INVALID_PARAMETER;
    }
    if (args->hContext) {
        /* FIXME(escape): escapes to a context are not modelled. */
        dxgk_refuse("D3DKMTEscape: hContext is not supported (must be 0)");
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_adapter *a = dxgk_adapter_get(args->hAdapter);
    if (!a) {
        dxgk_refuse("D3DKMTEscape: invalid adapter handle 0x%08x", args->hAdapter);
        return STATUS_INVALID_PARAMETER;
    }
    NTSTATUS st = STATUS_INVALID_PARAMETER;
    struct dxgk_device *d = NULL;
    if (args->hDevice) {
        d = dxgk_device_get(args->hDevice);
        if (!d || d->adapter != a) {
            dxgk_refuse("D3DKMTEscape: invalid device handle 0x%08x for adapter 0x%08x", args->hDevice, args->hAdapter);
            goto out;
        }
    }
    if (!a->driver.ddi.DxgkDdiEscape) {
        dxgk_refuse("D3DKMTEscape: the KMD has no DxgkDdiEscape");
        st = STATUS_NOT_SUPPORTED;
        goto out;
    }
    DXGKARG_ESCAPE e = { .hDevice = d ? d->kmd : NULL, .pPrivateDriverData = args->pPrivateDriverData,
                         .PrivateDriverDataSize = args->PrivateDriverDataSize };
    e.Flags.Value = args->Flags.Value;
    st = a->driver.ddi.DxgkDdiEscape(a->miniport, &e);
    if (!NT_SUCCESS(st))
        dxgk_refuse("D3DKMTEscape: DxgkDdiEscape failed 0x%08x", (unsigned)st);
out:
    if (d)
        dxgk_device_put(d);
    dxgk_adapter_put(a);
    return st;
}
