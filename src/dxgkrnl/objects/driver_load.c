/* Drivers loaded by path (issue 19 §1): on Windows the registry names each adapter's KMD
 * (the service's ImagePath) and UMD (UserModeDriverName); here two variables do:
 *
 *   WDDM_KMD=kmd.so[:kmd2.so...]   a module exporting DriverEntry, per adapter in order
 *   WDDM_UMD=umd.so[:umd2.so...]   a module exporting OpenAdapter10_2 / OpenAdapter10
 *
 * An adapter past the end of a list takes its last entry; an unset or empty entry means the
 * reference driver built into libwddm. The kernel loads the KMD; the UMD's name is only
 * answered to KMTQAITYPE_UMDRIVERNAME, and the runtime that opens the adapter loads it, as
 * Windows' runtime does. Modules stay loaded for the life of the process (a KMD's DriverEntry
 * and DDIs, once registered, are never unregistered). docs/drivers.md. */
#include "dxgkrnl/objects/objects.h"
#include "common/module.h"
#include "common/wide.h"

#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static VOID register_exports(PDRIVER_OBJECT driver, const struct wddm_platform_exports *exports)
{
    if (driver && exports && exports->Size >= offsetof(struct wddm_platform_exports, SetIrql) + sizeof exports->SetIrql)
        driver->exports = exports;
}

const struct wddm_platform_imports dxgk_platform_imports = {
    .Size = sizeof(struct wddm_platform_imports),
    .DxgkInitialize = DxgkInitialize,
    .WddmInterruptLineRaise = WddmInterruptLineRaise,
    .RegisterExports = register_exports,
    .WddmIoMmuTranslate = WddmIoMmuTranslate,
};

static UINT list_length(const char *var)
{
    const char *v = getenv(var);
    if (!v || !*v)
        return 0;
    UINT n = 1;
    for (; *v; v++)
        n += *v == ':';
    return n;
}

/* Entry `index` of the ':'-separated list in `var` (the last one past its end), malloc'ed;
 * NULL with STATUS_SUCCESS when the variable or the entry is empty. */
static NTSTATUS list_entry(const char *var, UINT index, char **out)
{
    *out = NULL;
    const char *v = getenv(var);
    if (!v || !*v)
        return STATUS_SUCCESS;
    UINT n = list_length(var);
    if (index >= n)
        index = n - 1;
    for (UINT i = 0; i < index; i++)
        v = strchr(v, ':') + 1;
    size_t len = strcspn(v, ":");
    if (!len)
        return STATUS_SUCCESS;
    *out = strndup(v, len);
    return *out ? STATUS_SUCCESS : STATUS_NO_MEMORY;
}

UINT dxgk_driver_list_length(void)
{
    UINT k = list_length("WDDM_KMD"), u = list_length("WDDM_UMD");
    return k > u ? k : u;
}

NTSTATUS dxgk_driver_kmd_entry(UINT index, PDRIVER_INITIALIZE builtin, PDRIVER_INITIALIZE *entry, char **name)
{
    char *path;
    NTSTATUS st = list_entry("WDDM_KMD", index, &path);
    *entry = builtin;
    *name = NULL;
    if (!NT_SUCCESS(st) || !path)
        return st;
    void (*fn)(void);
    char why[256];
    switch (wddm_module_export(path, "DriverEntry", &fn, why, sizeof why)) {
    case WDDM_MODULE_NOT_LOADED:
        dxgk_refuse("WDDM_KMD: adapter %u: cannot load the KMD module \"%s\": %s", index, path, why);
        free(path);
        return STATUS_DLL_NOT_FOUND;
    case WDDM_MODULE_NO_EXPORT:
        dxgk_refuse("WDDM_KMD: adapter %u: \"%s\" exports no DriverEntry (a KMD module's entry point, "
                    "NTSTATUS DriverEntry(PDRIVER_OBJECT, PVOID))", index, path);
        free(path);
        return STATUS_ENTRYPOINT_NOT_FOUND;
    case WDDM_MODULE_OK:
        break;
    }
    *entry = (PDRIVER_INITIALIZE)fn;
    *name = path;
    return STATUS_SUCCESS;
}

char *dxgk_driver_entry_name(PDRIVER_INITIALIZE entry)
{
    Dl_info info;
    void *addr;
    memcpy(&addr, &entry, sizeof addr);
    char *name = NULL;
    int n;
    bool known = dladdr(addr, &info) && info.dli_fname;
    if (known && info.dli_sname)
        n = asprintf(&name, "%s in %s", info.dli_sname, info.dli_fname);
    else if (known)
        n = asprintf(&name, "the in-process DriverEntry at %p in %s", addr, info.dli_fname);
    else
        n = asprintf(&name, "the in-process DriverEntry at %p", addr);
    return n < 0 ? NULL : name;
}

NTSTATUS dxgk_driver_umd_name(UINT index, char **name)
{
    NTSTATUS st = list_entry("WDDM_UMD", index, name);
    if (!NT_SUCCESS(st) || !*name)
        return st;
    WCHAR probe[MAX_PATH];
    if (wddm_utf8_to_utf16(*name, probe, MAX_PATH)) {
        dxgk_refuse("WDDM_UMD: adapter %u: \"%s\" is not a UTF-8 path of at most %u UTF-16 units "
                    "(D3DKMT_UMDFILENAMEINFO.UmdFileName holds MAX_PATH with its terminator)",
                    index, *name, MAX_PATH - 1);
        free(*name);
        *name = NULL;
        return STATUS_NAME_TOO_LONG;
    }
    return STATUS_SUCCESS;
}

NTSTATUS dxgk_driver_query_umd_name(const struct dxgk_adapter *a, D3DKMT_UMDFILENAMEINFO *info)
{
    /* One module serves the D3D10 and D3D11 runtimes (OpenAdapter10 and OpenAdapter10_2); there
     * is no D3D9 or D3D12 UMD interface in this model. */
    if (info->Version != KMTUMDVERSION_DX10 && info->Version != KMTUMDVERSION_DX11) {
        dxgk_refuse("D3DKMTQueryAdapterInfo(KMTQAITYPE_UMDRIVERNAME): Version %d: only KMTUMDVERSION_DX10 "
                    "and KMTUMDVERSION_DX11 have a UMD here", (int)info->Version);
        return info->Version < NUM_KMTUMDVERSIONS ? STATUS_NOT_SUPPORTED : STATUS_INVALID_PARAMETER;
    }
    /* Checked when the adapter started: it fits. */
    if (wddm_utf8_to_utf16(a->umd_name ? a->umd_name : "", info->UmdFileName, MAX_PATH))
        return STATUS_NAME_TOO_LONG;
    return STATUS_SUCCESS;
}
