/*
 * umd_entry.c - which UMD the runtime opens (include/wddm/wddm.h): the role the registry's
 * UserModeDriverName plays on Windows (docs/architecture.md "Process model and entry points").
 *
 * Process-wide configuration, documented in wddm.h; read once per device creation.
 */
#include "runtime/runtime.h"

static _Atomic(PFND3D10DDI_OPENADAPTER) umd_entry_override;
static _Atomic(PFND3D10DDI_OPENADAPTER) umd_entry10_override;

void wddm_set_umd_entry(PFND3D10DDI_OPENADAPTER pfnOpenAdapter)
{
    atomic_store(&umd_entry_override, pfnOpenAdapter);
}

PFND3D10DDI_OPENADAPTER wddm_get_umd_entry(void)
{
    PFND3D10DDI_OPENADAPTER e = atomic_load(&umd_entry_override);
    return e ? e : OpenAdapter10_2; /* the built-in reference UMD */
}

PFND3D10DDI_OPENADAPTER rt_umd_entry(void)
{
    return wddm_get_umd_entry();
}

/* The same UMD's OpenAdapter10 export, which D3D10CreateDevice(1) opens (issue 15 §1). */
void wddm_set_umd_entry10(PFND3D10DDI_OPENADAPTER pfnOpenAdapter10)
{
    atomic_store(&umd_entry10_override, pfnOpenAdapter10);
}

PFND3D10DDI_OPENADAPTER wddm_get_umd_entry10(void)
{
    PFND3D10DDI_OPENADAPTER e = atomic_load(&umd_entry10_override);
    return e ? e : OpenAdapter10; /* the built-in reference UMD */
}

PFND3D10DDI_OPENADAPTER rt_umd_entry10(void)
{
    return wddm_get_umd_entry10();
}
