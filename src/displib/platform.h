/* The platform's services a KMD calls by name, outside the DXGKRNL_INTERFACE table: DxgkInitialize
 * (from DriverEntry), WddmInterruptLineRaise (from its device's interrupt) and
 * WddmIoMmuTranslate (its device's DMA requests in the IoMmu model). On Windows a
 * miniport links displib.lib, whose DxgkInitialize reaches dxgkrnl; here a KMD built as a
 * loadable module links libwddm_displib.a, which reaches the kernel that loaded it through the
 * objects the kernel hands the KMD (docs/drivers.md "Building a KMD as a module").
 *
 * The contract between the kernel (src/dxgkrnl) and displib: the DRIVER_OBJECT given to
 * DriverEntry and the DEVICE_OBJECT given to DxgkDdiAddDevice both begin with a pointer to the
 * kernel's wddm_platform_imports. A KMD linked into libwddm calls the kernel's own functions of
 * the same names and never goes through this table. */
#ifndef WDDM_DISPLIB_PLATFORM_H
#define WDDM_DISPLIB_PLATFORM_H

#include <wddm/d3dkmddi.h>

/* What displib gives the kernel back: the module's KeGetCurrentIrql is its own (a thread-local
 * in the module's copy of displib), so the kernel sets it around the code Windows runs at a
 * raised IRQL - DxgkDdiInterruptRoutine and the synchronized routines at the device's IRQL,
 * DxgkDdiDpcRoutine at DISPATCH_LEVEL - and back to PASSIVE_LEVEL after. */
struct wddm_platform_exports {
    UINT Size; /* sizeof(struct wddm_platform_exports) of the module's displib */
    VOID (*SetIrql)(BYTE Irql); /* a KIRQL */
};

/* The IRQLs the kernel hands over (wdm.h's values): PASSIVE_LEVEL, DISPATCH_LEVEL, and the one it
 * runs a KMD's interrupt routine at, a device IRQL above DISPATCH_LEVEL. */
#define WDDM_PLATFORM_PASSIVE_LEVEL 0
#define WDDM_PLATFORM_DISPATCH_LEVEL 2
#define WDDM_PLATFORM_DEVICE_IRQL 5

struct wddm_platform_imports {
    UINT Size; /* sizeof(struct wddm_platform_imports) of the kernel's build */
    NTSTATUS (*DxgkInitialize)(PDRIVER_OBJECT DriverObject, PVOID RegistryPath,
                               DRIVER_INITIALIZATION_DATA *DriverInitializationData);
    VOID (*WddmInterruptLineRaise)(PDEVICE_OBJECT PhysicalDeviceObject, ULONG MessageNumber);
    /* Called by displib's DxgkInitialize before the kernel's. */
    VOID (*RegisterExports)(PDRIVER_OBJECT DriverObject, const struct wddm_platform_exports *Exports);
    /* The platform's IOMMU (IoMmu model), for a device's DMA requests. */
    NTSTATUS (*WddmIoMmuTranslate)(PDEVICE_OBJECT PhysicalDeviceObject, ULONG Pasid, UINT64 VirtualAddress,
                                   BOOLEAN Write, UINT64 *PhysicalAddress);
};

/* The first member of the kernel's DRIVER_OBJECT and DEVICE_OBJECT. */
struct wddm_platform_object {
    const struct wddm_platform_imports *imports;
};

#endif
