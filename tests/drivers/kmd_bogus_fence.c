/* A deliberately broken KMD module (issue 19 §3, tests/tool/verifier.sh): the reference KMD whose
 * first DMA_COMPLETED interrupt names a fence 1000 past the one it completed. Its DPC then reports
 * the true fence and asks for the DPC work again, so everything retires: the data stay right, and
 * only the verifier sees the fence that was never submitted (Interrupt.FenceNotSubmitted). */
#include "kmd/kmd.h"

#include <stdatomic.h>

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PVOID RegistryPath);

static PDXGKDDI_START_DEVICE real_start;
static PDXGKDDI_DPC_ROUTINE real_dpc;
static DXGKRNL_INTERFACE kernel; /* the kernel's callbacks, as given */
static atomic_flag lied = ATOMIC_FLAG_INIT;
static DXGKARGCB_NOTIFY_INTERRUPT_DATA truth; /* the lie's true completion */
static atomic_bool owed;

static VOID APIENTRY notify(HANDLE adapter, const DXGKARGCB_NOTIFY_INTERRUPT_DATA *data)
{
    if (data->InterruptType == DXGK_INTERRUPT_DMA_COMPLETED && !atomic_flag_test_and_set(&lied)) {
        truth = *data;
        DXGKARGCB_NOTIFY_INTERRUPT_DATA bogus = *data;
        bogus.DmaCompleted.SubmissionFenceId += 1000;
        kernel.DxgkCbNotifyInterrupt(adapter, &bogus);
        atomic_store(&owed, true);
        return;
    }
    kernel.DxgkCbNotifyInterrupt(adapter, data);
}

static VOID APIENTRY dpc(const PVOID context)
{
    real_dpc(context); /* its DxgkCbNotifyDpc meets the bogus fence */
    if (atomic_exchange(&owed, false)) {
        kernel.DxgkCbNotifyInterrupt(kernel.DeviceHandle, &truth);
        kernel.DxgkCbNotifyDpc(kernel.DeviceHandle);
    }
}

static NTSTATUS APIENTRY start(const PVOID context, DXGK_START_INFO *info, DXGKRNL_INTERFACE *iface,
                               ULONG *sources, ULONG *children)
{
    kernel = *iface;
    DXGKRNL_INTERFACE wrapped = *iface; /* the KMD keeps its own copy */
    wrapped.DxgkCbNotifyInterrupt = notify;
    return real_start(context, info, &wrapped, sources, children);
}

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PVOID RegistryPath)
{
    DRIVER_INITIALIZATION_DATA d;
    SwKmdGetDriverInitializationData(&d);
    real_start = d.DxgkDdiStartDevice;
    real_dpc = d.DxgkDdiDpcRoutine;
    d.DxgkDdiStartDevice = start;
    d.DxgkDdiDpcRoutine = dpc;
    return DxgkInitialize(DriverObject, RegistryPath, &d);
}
