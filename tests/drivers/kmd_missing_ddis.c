/* A deliberately broken KMD module (issue 19 §3, tests/tool/verifier.sh): the reference KMD
 * registering its table without DxgkDdiPatch and DxgkDdiBuildPagingBuffer, two DDIs every WDDM
 * KMD must have. The verifier must name both and refuse the adapter. */
#include "kmd/kmd.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PVOID RegistryPath);

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PVOID RegistryPath)
{
    DRIVER_INITIALIZATION_DATA d;
    SwKmdGetDriverInitializationData(&d);
    d.DxgkDdiPatch = NULL;
    d.DxgkDdiBuildPagingBuffer = NULL;
    return DxgkInitialize(DriverObject, RegistryPath, &d);
}
