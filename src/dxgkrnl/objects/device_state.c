/* Device state and context scheduling priority: the two small D3DKMT queries a user-mode
 * runtime makes around recovery (docs/semantics.md §8.3) and scheduling (§8.2).
 *
 * D3DKMTGetDeviceState(EXECUTION) is how a runtime whose calls started failing with
 * STATUS_DEVICE_REMOVED learns why (its GetDeviceRemovedReason): the answer is the state the
 * kernel recorded when it put the device in error (dxgk_device_set_error_locked, sched/tdr.c).
 * It therefore answers for a device in error like for any other: a lost device must still be
 * able to say why it is lost. EXECUTION, RESET and PAGE_FAULT (GpuMmu, issue 6) are modelled;
 * the present, DWM and present-queue states belong to parts of WDDM this project does not implement.
 *
 * The context priority (-7..7, 0 at creation; the range is ours, include/wddm/d3dkmthk.h) is
 * stored on the context under the adapter lock, where the scheduler reads it. */
#include "dxgkrnl/objects/objects.h"

#include <string.h>

static const char *state_type_name(D3DKMT_DEVICESTATE_TYPE t)
{
    switch (t) {
    case D3DKMT_DEVICESTATE_EXECUTION: return "D3DKMT_DEVICESTATE_EXECUTION";
    case D3DKMT_DEVICESTATE_PRESENT: return "D3DKMT_DEVICESTATE_PRESENT";
    case D3DKMT_DEVICESTATE_RESET: return "D3DKMT_DEVICESTATE_RESET";
    case D3DKMT_DEVICESTATE_PRESENT_DWM: return "D3DKMT_DEVICESTATE_PRESENT_DWM";
    case D3DKMT_DEVICESTATE_PAGE_FAULT: return "D3DKMT_DEVICESTATE_PAGE_FAULT";
    case D3DKMT_DEVICESTATE_PRESENT_QUEUE: return "D3DKMT_DEVICESTATE_PRESENT_QUEUE";
    default: return "an unknown D3DKMT_DEVICESTATE_TYPE";
    }
}

NTSTATUS APIENTRY D3DKMTGetDeviceState(D3DKMT_GETDEVICESTATE *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTGetDeviceState: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_device *d = dxgk_device_get(args->hDevice);
    if (!d) {
        dxgk_refuse("D3DKMTGetDeviceState: invalid device handle 0x%08x", args->hDevice);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_adapter *a = d->adapter;
    NTSTATUS st = STATUS_SUCCESS;
    switch (args->StateType) {
    case D3DKMT_DEVICESTATE_EXECUTION:
        /* error and exec_state are written together under the adapter lock (dxgkrnl.h): read
         * them together so a device being lost right now answers one consistent state. */
        pthread_mutex_lock(&a->lock);
        dxgk_device_fault_sync_locked(d);
        args->ExecutionState = NT_SUCCESS(d->error) ? D3DKMT_DEVICEEXECUTION_ACTIVE : d->exec_state;
        pthread_mutex_unlock(&a->lock);
        break;
    case D3DKMT_DEVICESTATE_PAGE_FAULT:
        /* Issue 6: the device's recorded GPU page fault; STATUS_NOT_FOUND when it has none. */
        pthread_mutex_lock(&a->lock);
        dxgk_device_fault_sync_locked(d);
        pthread_mutex_unlock(&a->lock);
        if (atomic_load_explicit(&d->faulted, memory_order_acquire)) {
            args->PageFaultState = d->fault;
        } else {
            memset(&args->PageFaultState, 0, sizeof args->PageFaultState);
            st = STATUS_NOT_FOUND;
        }
        break;
    case D3DKMT_DEVICESTATE_RESET:
        /* DesktopSwitched is the only flag, and there is no desktop here: nothing to report. */
        args->ResetState.Value = 0;
        break;
    default:
        dxgk_refuse("D3DKMTGetDeviceState: StateType %u (%s) is not supported (only EXECUTION, RESET and PAGE_FAULT)",
                    (unsigned)args->StateType, state_type_name(args->StateType));
        st = STATUS_NOT_SUPPORTED;
        break;
    }
    dxgk_device_put(d);
    return st;
}

/* Priority range (include/wddm/d3dkmthk.h). */
#define DXGK_PRIORITY_MIN (-7)
#define DXGK_PRIORITY_MAX 7

NTSTATUS APIENTRY D3DKMTSetContextSchedulingPriority(const D3DKMT_SETCONTEXTSCHEDULINGPRIORITY *args)
{
    struct dxgk_context *c = args ? (struct dxgk_context *)dxgk_handle_get(args->hContext, DXGK_TYPE_CONTEXT) : NULL;
    if (!c) {
        dxgk_refuse("D3DKMTSetContextSchedulingPriority: invalid context handle 0x%08x", args ? args->hContext : 0);
        return STATUS_INVALID_PARAMETER;
    }
    if (args->Priority < DXGK_PRIORITY_MIN || args->Priority > DXGK_PRIORITY_MAX) {
        /* Refused before anything is stored: the context keeps its priority. */
        dxgk_refuse("D3DKMTSetContextSchedulingPriority: Priority %d outside %d..%d", args->Priority,
                    DXGK_PRIORITY_MIN, DXGK_PRIORITY_MAX);
        dxgk_object_put(&c->obj);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_adapter *a = c->device->adapter;
    pthread_mutex_lock(&a->lock);
    c->priority = args->Priority;
    pthread_mutex_unlock(&a->lock);
    dxgk_object_put(&c->obj);
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY D3DKMTGetContextSchedulingPriority(D3DKMT_GETCONTEXTSCHEDULINGPRIORITY *args)
{
    struct dxgk_context *c = args ? (struct dxgk_context *)dxgk_handle_get(args->hContext, DXGK_TYPE_CONTEXT) : NULL;
    if (!c) {
        dxgk_refuse("D3DKMTGetContextSchedulingPriority: invalid context handle 0x%08x", args ? args->hContext : 0);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_adapter *a = c->device->adapter;
    pthread_mutex_lock(&a->lock);
    args->Priority = c->priority;
    pthread_mutex_unlock(&a->lock);
    dxgk_object_put(&c->obj);
    return STATUS_SUCCESS;
}
