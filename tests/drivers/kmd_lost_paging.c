/* A deliberately broken KMD module (issue 19 §4 and §5, tests/tool/check.sh): the reference KMD
 * whose DxgkDdiBuildPagingBuffer reports an eviction's transfer (a segment to system memory) done
 * without writing a command for it. The verifier cannot see this - the answer is well formed -
 * but `wddm check` must: the evicted bytes are lost, and Paging.Oversubscribe reads them back. */
#include "kmd/kmd.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PVOID RegistryPath);

static PDXGKDDI_BUILDPAGINGBUFFER real_build;

static NTSTATUS APIENTRY lossy_build(const HANDLE adapter, DXGKARG_BUILDPAGINGBUFFER *args)
{
    void *start = args->pDmaBuffer;
    UINT room = args->DmaSize;
    NTSTATUS st = real_build(adapter, args);
    if (NT_SUCCESS(st) && args->Operation == DXGK_OPERATION_TRANSFER && args->Transfer.Source.SegmentId &&
        !args->Transfer.Destination.SegmentId) {
        args->pDmaBuffer = start; /* "done", with nothing written */
        args->DmaSize = room;
    }
    return st;
}

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PVOID RegistryPath)
{
    DRIVER_INITIALIZATION_DATA d;
    SwKmdGetDriverInitializationData(&d);
    real_build = d.DxgkDdiBuildPagingBuffer;
    d.DxgkDdiBuildPagingBuffer = lossy_build;
    return DxgkInitialize(DriverObject, RegistryPath, &d);
}
