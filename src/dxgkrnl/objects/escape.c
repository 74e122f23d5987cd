/* D3DKMTEscape -> DxgkDdiEscape: the caller's private data goes to the KMD unread (the
 * driver package's own channel; the reference one is struct swgpu_escape, seed 002 tests).
 * The kernel checks only the handles, the size and the flags. */
#include "dxgkrnl/objects/objects.h"

#include <string.h>

#define DXGK_ESCAPE_MAX_PRIVATE_DATA (64u * 1024u)

/* D3DKMT_ESCAPE_TDRDBGCTRL (issue 19 §4: `wddm check`'s Tdr.Recovery and Tdr.Engine), for
 * testing as on Windows; the request returns at once and the watchdog carries it out:
 *   FORCETDR  - a recovery as from an adapter timeout no device caused: every device lost with
 *               D3DKMT_DEVICEEXECUTION_RESET, DxgkDdiResetFromTimeout, DxgkDdiRestartFromTimeout;
 *   ENGINETDR - (a D3DKMT_TDRDBGCTRL_ESCAPE naming the node) as a timeout of that engine seen now:
 *               the packet it runs, if any, is the guilty one, and the engine is reset through
 *               DxgkDdiResetEngine, or the adapter when the KMD has no per-engine TDR.
 * The private data is one D3DKMT_TDRDBGCTRLTYPE or one D3DKMT_TDRDBGCTRL_ESCAPE. The other
 * controls are not modelled. */
static NTSTATUS tdr_debug_control(const D3DKMT_ESCAPE *args)
{
    UINT size = args->PrivateDriverDataSize;
    if (!args->pPrivateDriverData ||
        (size != sizeof(D3DKMT_TDRDBGCTRLTYPE) && size != sizeof(D3DKMT_TDRDBGCTRL_ESCAPE))) {
        dxgk_refuse("D3DKMTEscape(D3DKMT_ESCAPE_TDRDBGCTRL): the private data must be one D3DKMT_TDRDBGCTRLTYPE "
                    "(%zu bytes) or one D3DKMT_TDRDBGCTRL_ESCAPE (%zu), got %u", sizeof(D3DKMT_TDRDBGCTRLTYPE),
                    sizeof(D3DKMT_TDRDBGCTRL_ESCAPE), size);
        return STATUS_INVALID_PARAMETER;
    }
    D3DKMT_TDRDBGCTRL_ESCAPE req = { 0 };
    memcpy(&req, args->pPrivateDriverData, size);
    if (req.TdrControl != D3DKMT_TDRDBGCTRLTYPE_FORCETDR && req.TdrControl != D3DKMT_TDRDBGCTRLTYPE_ENGINETDR) {
        dxgk_refuse("D3DKMTEscape(D3DKMT_ESCAPE_TDRDBGCTRL): type %d is not modelled (only "
                    "D3DKMT_TDRDBGCTRLTYPE_FORCETDR and D3DKMT_TDRDBGCTRLTYPE_ENGINETDR)", (int)req.TdrControl);
        return STATUS_NOT_SUPPORTED;
    }
    struct dxgk_adapter *a = dxgk_adapter_get(args->hAdapter);
    if (!a) {
        dxgk_refuse("D3DKMTEscape: invalid adapter handle 0x%08x", args->hAdapter);
        return STATUS_INVALID_PARAMETER;
    }
    NTSTATUS st = STATUS_SUCCESS;
    if (req.TdrControl == D3DKMT_TDRDBGCTRLTYPE_FORCETDR) {
        dxgk_tdr_force(a);
    } else if (size != sizeof(D3DKMT_TDRDBGCTRL_ESCAPE)) {
        dxgk_refuse("D3DKMTEscape(D3DKMT_ESCAPE_TDRDBGCTRL): ENGINETDR needs a D3DKMT_TDRDBGCTRL_ESCAPE to name its "
                    "node");
        st = STATUS_INVALID_PARAMETER;
    } else if (req.NodeOrdinal >= a->node_count) {
        dxgk_refuse("D3DKMTEscape(D3DKMT_ESCAPE_TDRDBGCTRL): ENGINETDR NodeOrdinal %u is not a node of the adapter "
                    "(%u nodes)", (unsigned)req.NodeOrdinal, a->node_count);
        st = STATUS_INVALID_PARAMETER;
    } else {
        dxgk_tdr_force_engine(a, req.NodeOrdinal);
    }
    dxgk_adapter_put(a);
    return st;
}

NTSTATUS APIENTRY D3DKMTEscape(const D3DKMT_ESCAPE *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTEscape: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    if (args->Type == D3DKMT_ESCAPE_TDRDBGCTRL)
        return tdr_debug_control(args);
    if (args->Type != D3DKMT_ESCAPE_DRIVERPRIVATE) {
        /* FIXME(escape): the OS's other escape types are not modelled. */
        dxgk_refuse("D3DKMTEscape: Type %d is not D3DKMT_ESCAPE_DRIVERPRIVATE or D3DKMT_ESCAPE_TDRDBGCTRL",
                    (int)args->Type);
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
