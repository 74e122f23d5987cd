/*
 * umd_entry.c - which UMD the runtime opens (include/wddm/wddm.h): the role the registry's
 * UserModeDriverName plays on Windows (docs/architecture.md "Process model and entry points").
 *
 * Process-wide configuration, documented in wddm.h; read once per device creation.
 */
#include "runtime/runtime.h"

/* A UMD's two exports: OpenAdapter10_2, which D3D11 devices open, and OpenAdapter10, which
 * D3D10CreateDevice(1) open (issue 15 §1). NULL: the built-in reference UMD's. */
enum { ENTRY_10_2, ENTRY_10, ENTRIES };
static _Atomic(PFND3D10DDI_OPENADAPTER) overrides[ENTRIES];

static PFND3D10DDI_OPENADAPTER entry(int which)
{
    PFND3D10DDI_OPENADAPTER e = atomic_load(&overrides[which]);
    return e ? e : which == ENTRY_10 ? OpenAdapter10 : OpenAdapter10_2;
}

void wddm_set_umd_entry(PFND3D10DDI_OPENADAPTER pfnOpenAdapter)
{
    atomic_store(&overrides[ENTRY_10_2], pfnOpenAdapter);
}

PFND3D10DDI_OPENADAPTER wddm_get_umd_entry(void)
{
    return entry(ENTRY_10_2);
}

void wddm_set_umd_entry10(PFND3D10DDI_OPENADAPTER pfnOpenAdapter10)
{
    atomic_store(&overrides[ENTRY_10], pfnOpenAdapter10);
}

PFND3D10DDI_OPENADAPTER wddm_get_umd_entry10(void)
{
    return entry(ENTRY_10);
}

PFND3D10DDI_OPENADAPTER rt_umd_entry(void)
{
    return entry(ENTRY_10_2);
}

PFND3D10DDI_OPENADAPTER rt_umd_entry10(void)
{
    return entry(ENTRY_10);
}
