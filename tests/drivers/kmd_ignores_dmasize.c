/* A deliberately broken KMD module (issue 19 §4, tests/tool/check.sh): the reference KMD whose
 * DxgkDdiBuildPagingBuffer fills the paging buffer to its end whatever room DmaSize offered, as
 * a driver that assumes it always gets a whole buffer would. With the whole buffer offered
 * nothing shows; Paging.Multipass offers 16 bytes at first, and the verifier's Paging.DmaSize
 * catches the write past them. */
#include "kmd/kmd.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PVOID RegistryPath);

static PDXGKDDI_QUERYADAPTERINFO real_query;
static PDXGKDDI_BUILDPAGINGBUFFER real_build;
static UINT paging_buffer_size; /* the size the KMD declared: what the buffer really holds */

static NTSTATUS APIENTRY query(const HANDLE adapter, const DXGKARG_QUERYADAPTERINFO *q)
{
    NTSTATUS st = real_query(adapter, q);
    if (NT_SUCCESS(st) && q->Type == DXGKQAITYPE_QUERYSEGMENT)
        paging_buffer_size = ((const DXGK_QUERYSEGMENTOUT *)q->pOutputData)->PagingBufferSize;
    return st;
}

static NTSTATUS APIENTRY greedy_build(const HANDLE adapter, DXGKARG_BUILDPAGINGBUFFER *args)
{
    if (args->DmaBufferWriteOffset < paging_buffer_size)
        args->DmaSize = paging_buffer_size - args->DmaBufferWriteOffset; /* never past the real end */
    return real_build(adapter, args);
}

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PVOID RegistryPath)
{
    DRIVER_INITIALIZATION_DATA d;
    SwKmdGetDriverInitializationData(&d);
    real_query = d.DxgkDdiQueryAdapterInfo;
    real_build = d.DxgkDdiBuildPagingBuffer;
    d.DxgkDdiQueryAdapterInfo = query;
    d.DxgkDdiBuildPagingBuffer = greedy_build;
    return DxgkInitialize(DriverObject, RegistryPath, &d);
}
