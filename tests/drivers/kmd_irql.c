/* A KMD module that asks the WDK services (wdm.h) about what the kernel gives it (issue 19 §2,
 * tests/tool/kmd_irql.sh): the reference KMD whose interrupt and DPC routines ask the IRQL they
 * run at, once each, and whether paged pool is refused there, as Windows refuses it above
 * APC_LEVEL; and whose DxgkDdiBuildPagingBuffer maps the MDL of the first aperture mapping with
 * MmGetSystemAddressForMdlSafe and compares the first bytes with the pages the MDL names. It says
 * what it saw through DbgPrintEx at error level (always printed). */
#include "kmd/kmd.h"

#include <stdatomic.h>
#include <string.h>

#include <wddm/wdm.h>

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PVOID RegistryPath);

#define KIRQ_TAG 0x7172494Bu /* "KIrq" in memory order */

static PDXGKDDI_INTERRUPT_ROUTINE real_isr;
static PDXGKDDI_BUILDPAGINGBUFFER real_build;
static atomic_flag mdl_said = ATOMIC_FLAG_INIT;
static PDXGKDDI_DPC_ROUTINE real_dpc;
static atomic_int isr_irql = -1, dpc_irql = -1;
static atomic_flag said = ATOMIC_FLAG_INIT;

static BOOLEAN APIENTRY isr(const PVOID adapter, ULONG message)
{
    int none = -1;
    atomic_compare_exchange_strong(&isr_irql, &none, KeGetCurrentIrql());
    return real_isr(adapter, message);
}

static VOID APIENTRY dpc(const PVOID adapter)
{
    int none = -1;
    atomic_compare_exchange_strong(&dpc_irql, &none, KeGetCurrentIrql());
    if (atomic_load(&isr_irql) >= 0 && !atomic_flag_test_and_set(&said)) {
        void *paged = ExAllocatePool2(POOL_FLAG_PAGED, 64, KIRQ_TAG);
        DbgPrintEx(DPFLTR_IHVVIDEO_ID, DPFLTR_ERROR_LEVEL,
                   "kmd_irql: interrupt routine at IRQL %d, DPC routine at IRQL %d, paged pool in the DPC %s\n",
                   atomic_load(&isr_irql), atomic_load(&dpc_irql), paged ? "given" : "refused");
        if (paged)
            ExFreePoolWithTag(paged, KIRQ_TAG);
    }
    real_dpc(adapter);
}

/* The system address of a paging MDL is the memory its first page frame names (page frames are
 * host addresses >> 12 here). */
static NTSTATUS APIENTRY build(const HANDLE adapter, DXGKARG_BUILDPAGINGBUFFER *args)
{
    if (args->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT && args->MapApertureSegment.pMdl &&
        !atomic_flag_test_and_set(&mdl_said)) {
        PMDL mdl = args->MapApertureSegment.pMdl;
        const UCHAR *va = MmGetSystemAddressForMdlSafe(mdl, NormalPagePriority);
        const UCHAR *frame = (const UCHAR *)(uintptr_t)(MmGetMdlPfnArray(mdl)[0] << PAGE_SHIFT);
        DbgPrintEx(DPFLTR_IHVVIDEO_ID, DPFLTR_ERROR_LEVEL, "kmd_irql: paging MDL %s\n",
                   !va ? "not mapped" : memcmp(va, frame, 64) ? "mapped elsewhere" : "mapped at its pages");
    }
    return real_build(adapter, args);
}

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PVOID RegistryPath)
{
    DRIVER_INITIALIZATION_DATA d;
    SwKmdGetDriverInitializationData(&d);
    real_isr = d.DxgkDdiInterruptRoutine;
    real_dpc = d.DxgkDdiDpcRoutine;
    d.DxgkDdiInterruptRoutine = isr;
    d.DxgkDdiDpcRoutine = dpc;
    real_build = d.DxgkDdiBuildPagingBuffer;
    d.DxgkDdiBuildPagingBuffer = build;
    return DxgkInitialize(DriverObject, RegistryPath, &d);
}
