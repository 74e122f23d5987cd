/* libwddm_displib.a: the platform services a KMD module calls by name, forwarded to the
 * kernel that loaded the module (platform.h), and the module's IRQL handed to that kernel. Not part of libwddm itself: libwddm defines these
 * names as the kernel's own functions, and a module links this instead. */
#include "displib/platform.h"
#include "displib/wdk_shim.h"

#include <stddef.h>

static const struct wddm_platform_imports *imports_of(const void *object)
{
    return object ? ((const struct wddm_platform_object *)object)->imports : NULL;
}

static VOID set_irql(BYTE irql)
{
    displib_irql_set(irql);
}

static const struct wddm_platform_exports exports = {
    .Size = sizeof(struct wddm_platform_exports),
    .SetIrql = set_irql,
};

NTSTATUS DxgkInitialize(PDRIVER_OBJECT DriverObject, PVOID RegistryPath, DRIVER_INITIALIZATION_DATA *init)
{
    const struct wddm_platform_imports *k = imports_of(DriverObject);
    if (!k || !k->DxgkInitialize)
        return STATUS_INVALID_PARAMETER; /* not a DRIVER_OBJECT of a libwddm kernel */
    /* A kernel built before RegisterExports runs the module's code with its IRQL left alone. */
    if (k->Size >= offsetof(struct wddm_platform_imports, RegisterExports) + sizeof k->RegisterExports &&
        k->RegisterExports)
        k->RegisterExports(DriverObject, &exports);
    return k->DxgkInitialize(DriverObject, RegistryPath, init);
}

VOID WddmInterruptLineRaise(PDEVICE_OBJECT PhysicalDeviceObject, ULONG MessageNumber)
{
    const struct wddm_platform_imports *k = imports_of(PhysicalDeviceObject);
    if (k && k->WddmInterruptLineRaise)
        k->WddmInterruptLineRaise(PhysicalDeviceObject, MessageNumber);
}

NTSTATUS WddmIoMmuTranslate(PDEVICE_OBJECT PhysicalDeviceObject, ULONG Pasid, UINT64 VirtualAddress, BOOLEAN Write,
                            UINT64 *PhysicalAddress)
{
    const struct wddm_platform_imports *k = imports_of(PhysicalDeviceObject);
    /* A kernel built before the IoMmu model has no IOMMU: nothing is mapped. */
    if (!k || k->Size < offsetof(struct wddm_platform_imports, WddmIoMmuTranslate) + sizeof k->WddmIoMmuTranslate ||
        !k->WddmIoMmuTranslate)
        return STATUS_INVALID_PARAMETER;
    return k->WddmIoMmuTranslate(PhysicalDeviceObject, Pasid, VirtualAddress, Write, PhysicalAddress);
}
