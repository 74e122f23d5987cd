/*
 * adapters.c - the kernel's adapters as the runtime sees them: their LUIDs, in the kernel's
 * order (D3DKMTEnumAdapters2). Shared by D3D11CreateDevice's default adapter and the DXGI
 * factory's enumeration (issue 15 §3).
 */
#include "runtime/runtime.h"
#include "common/alloc.h"

#include <stdlib.h>

HRESULT rt_adapters_enum(LUID **luids, UINT *count)
{
    *luids = NULL;
    *count = 0;
    D3DKMT_ENUMADAPTERS2 en = { 0 };
    D3DKMT_ADAPTERINFO *infos = NULL;
    NTSTATUS st = STATUS_SUCCESS;
    /* Count, then fetch; retried if an adapter arrives in between (STATUS_BUFFER_TOO_SMALL). */
    for (int attempt = 0; attempt < 3; attempt++) {
        en.NumAdapters = 0;
        en.pAdapters = NULL;
        st = D3DKMTEnumAdapters2(&en);
        if (!NT_SUCCESS(st) || en.NumAdapters == 0)
            break;
        ULONG n = en.NumAdapters;
        free(infos);
        infos = wddm_calloc(n, sizeof(*infos));
        if (!infos)
            return E_OUTOFMEMORY;
        en.pAdapters = infos;
        st = D3DKMTEnumAdapters2(&en);
        if (st != STATUS_BUFFER_TOO_SMALL)
            break;
    }
    if (!NT_SUCCESS(st) || en.NumAdapters == 0 || !infos) {
        free(infos);
        RT_REFUSE("no adapter (D3DKMTEnumAdapters2 status 0x%08x)", (UINT)st);
        /* No adapter can serve the caller: DXGI_ERROR_UNSUPPORTED (D3D11CreateDevice). */
        return (NT_SUCCESS(st) || st == STATUS_NOT_SUPPORTED) ? DXGI_ERROR_UNSUPPORTED : rt_ntstatus_to_hresult(st);
    }
    /* The enumeration opened every adapter; the caller opens the one it wants by LUID. */
    LUID *out = wddm_calloc(en.NumAdapters, sizeof(*out));
    for (ULONG i = 0; i < en.NumAdapters; i++) {
        if (out)
            out[i] = infos[i].AdapterLuid;
        D3DKMT_CLOSEADAPTER ca = { .hAdapter = infos[i].hAdapter };
        (void)D3DKMTCloseAdapter(&ca);
    }
    free(infos);
    if (!out)
        return E_OUTOFMEMORY;
    *luids = out;
    *count = en.NumAdapters;
    return S_OK;
}

BOOL rt_luid_equal(LUID a, LUID b)
{
    return a.LowPart == b.LowPart && a.HighPart == b.HighPart;
}
