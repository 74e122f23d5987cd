/* Synchronization objects (docs/semantics.md §8.5; issues 4 and 20): creation of every type,
 * sharing by global handle, opening, destruction. Waiting and signalling are in
 * sched/syncobj_wait.c.
 *
 * Types and their state word (dxgkrnl.h struct dxgk_sync_shared):
 * - mutex: 1 owned, 0 free; InitialState TRUE creates it owned. A GPU wait takes it, a GPU
 *   signal frees it;
 * - semaphore: its count, InitialCount <= MaxCount; a GPU wait takes one, a GPU signal gives one
 *   back (never above MaxCount);
 * - fence: a 64-bit value a GPU signal sets (D3DKMTSignalSynchronizationObject2's
 *   Fence.FenceValue) and a GPU wait waits for; never created by the first creation form;
 * - CPU notification: a GPU signal sets its event (Info.CPUNotification.Event); nothing waits
 *   on it through the kernel;
 * - monitored fence: the value the CPU reads through FenceValueCPUVirtualAddress; signalled and
 *   waited on by the FromCpu / FromGpu calls.
 * Periodic monitored fences count a display's vertical blanks and native fences need WDDM 3.1
 * hardware queues: neither exists here, both are refused with a line.
 *
 * Sharing (Flags.Shared): the object gets a global handle (Info.SharedHandle, objects/
 * global_handle.c) that D3DKMTOpenSynchronizationObject turns into a new local handle, usable by
 * any device of the creator's adapter, or of any adapter for a CrossAdapter monitored fence
 * (Direct3D 12's cross-adapter fences; the value lives in system memory either way). The object lives while a local handle does; its global
 * handle opens nothing after the last one is destroyed. Shared with NtSecuritySharing, Windows
 * hands out no global handle: the object is shared through an NT handle (D3DKMTShareObjects,
 * objects/nt_handle.c), which holds a reference of its own, so it opens (D3DKMTOpenSyncObject-
 * FromNtHandle(2)) after every local handle was destroyed. These answers are the ones Windows
 * gives in Wine's d3dkmt tests. */
#include "dxgkrnl/sched/sched.h"
#include "common/alloc.h"
#include "common/event.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void shared_release(struct dxgk_object *obj)
{
    struct dxgk_sync_shared *sh = (struct dxgk_sync_shared *)obj;
    dxgk_global_unregister(sh->global);
    if (sh->value && sh->value != &sh->word)
        munmap((void *)sh->value, DXGK_PAGE_SIZE);
    if (sh->cpu_va)
        munmap((void *)sh->cpu_va, DXGK_PAGE_SIZE);
    if (sh->event)
        wddm_event_put(sh->event);
    free(sh);
}

static void local_release(struct dxgk_object *obj)
{
    struct dxgk_syncobj *s = (struct dxgk_syncobj *)obj;
    dxgk_object_put(&s->shared->obj);
    free(s);
}

/* A monitored fence's page, mapped writable for the kernel and read-only for the application. */
static bool map_fence_page(struct dxgk_sync_shared *sh)
{
    int fd = memfd_create("wddm-monitored-fence", MFD_CLOEXEC);
    if (fd < 0)
        return false;
    bool ok = ftruncate(fd, DXGK_PAGE_SIZE) == 0;
    void *rw = ok ? mmap(NULL, DXGK_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
    void *ro = ok ? mmap(NULL, DXGK_PAGE_SIZE, PROT_READ, MAP_SHARED, fd, 0) : MAP_FAILED;
    close(fd);
    if (rw != MAP_FAILED)
        sh->value = rw;
    if (ro != MAP_FAILED)
        sh->cpu_va = ro;
    return rw != MAP_FAILED && ro != MAP_FAILED;
}

/* The checks every type's Info passes before anything is allocated. */
static NTSTATUS check_info(const char *fn, const D3DDDI_SYNCHRONIZATIONOBJECTINFO2 *info)
{
    D3DDDI_SYNCHRONIZATIONOBJECT_FLAGS f = info->Flags;
    switch (info->Type) {
    case D3DDDI_SYNCHRONIZATION_MUTEX:
    case D3DDDI_FENCE:
    case D3DDDI_CPU_NOTIFICATION:
    case D3DDDI_MONITORED_FENCE:
        break;
    case D3DDDI_SEMAPHORE:
        if (info->Semaphore.InitialCount > info->Semaphore.MaxCount) {
            dxgk_refuse("%s: semaphore InitialCount %u above MaxCount %u", fn, info->Semaphore.InitialCount,
                        info->Semaphore.MaxCount);
            return STATUS_INVALID_PARAMETER;
        }
        break;
    case D3DDDI_PERIODIC_MONITORED_FENCE:
    case D3DDDI_NATIVE_FENCE:
        dxgk_refuse("%s: type %d is not provided: a periodic monitored fence counts a display's vertical blanks "
                    "and a native fence needs WDDM 3.1 hardware queues, neither of which this adapter has",
                    fn, (int)info->Type);
        return STATUS_NOT_SUPPORTED;
    default:
        dxgk_refuse("%s: unknown synchronization object type %d", fn, (int)info->Type);
        return STATUS_INVALID_PARAMETER;
    }
    if (f.NtSecuritySharing && !f.Shared) {
        dxgk_refuse("%s: NtSecuritySharing needs Shared", fn);
        return STATUS_INVALID_PARAMETER;
    }
    if (info->Type != D3DDDI_MONITORED_FENCE && (f.NoSignal || f.NoWait || f.TopOfPipeline)) {
        dxgk_refuse("%s: NoSignal, NoWait and TopOfPipeline apply to monitored fences only (flags 0x%x)", fn,
                    f.Value);
        return STATUS_INVALID_PARAMETER;
    }
    if (f.NoSignal && f.NoWait) {
        dxgk_refuse("%s: NoSignal and NoWait are mutually exclusive (§8.5 rule 2)", fn);
        return STATUS_INVALID_PARAMETER;
    }
    if (f.CrossAdapter && (!f.Shared || info->Type != D3DDDI_MONITORED_FENCE)) {
        /* A cross-adapter object is opened by a device of another adapter: it must be shared,
         * and, as Direct3D 12's cross-adapter fences, a monitored fence. */
        dxgk_refuse("%s: CrossAdapter needs Shared and a monitored fence (flags 0x%x, type %d)", fn, f.Value,
                    (int)info->Type);
        return STATUS_INVALID_PARAMETER;
    }
    if (f.SignalByKmd || f.Reserved || f.D3DDDI_SYNCHRONIZATIONOBJECT_FLAGS_RESERVED0) {
        /* SignalByKmd is a KMD's CPU notification (DxgkCbSignalEvent), which the reference KMD
         * does not raise. */
        dxgk_refuse("%s: flags 0x%x not supported (SignalByKmd, reserved bits)", fn, f.Value);
        return STATUS_INVALID_PARAMETER;
    }
    if (info->Type == D3DDDI_CPU_NOTIFICATION && !info->CPUNotification.Event) {
        dxgk_refuse("%s: a CPU notification needs an event (Info.CPUNotification.Event is NULL)", fn);
        return STATUS_INVALID_HANDLE;
    }
    return STATUS_SUCCESS;
}

/* The shared state of a new object of an Info that passed check_info. */
static NTSTATUS shared_new(const char *fn, const struct dxgk_device *d, const D3DDDI_SYNCHRONIZATIONOBJECTINFO2 *info,
                           struct dxgk_sync_shared **out)
{
    struct dxgk_sync_shared *sh = wddm_calloc(1, sizeof *sh);
    if (!sh)
        return STATUS_NO_MEMORY;
    dxgk_object_init(&sh->obj, DXGK_TYPE_SYNC_SHARED, shared_release);
    sh->type = info->Type;
    sh->flags = info->Flags;
    sh->adapter = d->adapter->luid;
    sh->value = &sh->word;
    UINT64 initial = 0;
    switch (info->Type) {
    case D3DDDI_SYNCHRONIZATION_MUTEX: initial = info->SynchronizationMutex.InitialState ? 1 : 0; break;
    case D3DDDI_SEMAPHORE:
        sh->max_count = info->Semaphore.MaxCount;
        initial = info->Semaphore.InitialCount;
        break;
    case D3DDDI_FENCE: initial = info->Fence.FenceValue; break;
    case D3DDDI_MONITORED_FENCE: initial = info->MonitoredFence.InitialFenceValue; break;
    default: break;
    }
    if (info->Type == D3DDDI_CPU_NOTIFICATION && !(sh->event = wddm_event_get(info->CPUNotification.Event))) {
        dxgk_refuse("%s: Info.CPUNotification.Event %p is not an event handle", fn, info->CPUNotification.Event);
        dxgk_object_put(&sh->obj);
        return STATUS_INVALID_HANDLE;
    }
    if (info->Type == D3DDDI_MONITORED_FENCE) {
        sh->value = NULL;
        if (!map_fence_page(sh)) {
            dxgk_refuse("%s: cannot map the fence value page (errno %d)", fn, errno);
            dxgk_object_put(&sh->obj);
            return STATUS_NO_MEMORY;
        }
    }
    atomic_store_explicit(sh->value, initial, memory_order_relaxed);
    if (info->Flags.Shared && !info->Flags.NtSecuritySharing && !(sh->global = dxgk_global_register(&sh->obj))) {
        dxgk_object_put(&sh->obj);
        return STATUS_NO_MEMORY;
    }
    *out = sh;
    return STATUS_SUCCESS;
}

/* A new local handle on sh (taking a reference of its own); 0 when out of memory. */
static D3DKMT_HANDLE local_new(struct dxgk_sync_shared *sh, D3DKMT_HANDLE device)
{
    struct dxgk_syncobj *s = wddm_calloc(1, sizeof *s);
    if (!s)
        return 0;
    dxgk_object_init(&s->obj, DXGK_TYPE_SYNCOBJECT, local_release);
    dxgk_object_get(&sh->obj);
    s->shared = sh;
    s->device = device;
    s->type = sh->type;
    s->flags = sh->flags;
    s->value = sh->value;
    s->cpu_va = sh->cpu_va;
    atomic_init(&s->dead, false);
    s->handle = dxgk_handle_insert(&s->obj);
    if (!s->handle) {
        dxgk_object_put(&s->obj);
        return 0;
    }
    dxgk_handle_publish(s->handle);
    return s->handle;
}

static NTSTATUS create(const char *fn, D3DKMT_HANDLE hDevice, D3DDDI_SYNCHRONIZATIONOBJECTINFO2 *info,
                       D3DKMT_HANDLE *out)
{
    struct dxgk_device *d = dxgk_device_get(hDevice);
    if (!d) {
        dxgk_refuse("%s: invalid device handle 0x%08x", fn, hDevice);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_sync_shared *sh = NULL;
    NTSTATUS st = check_info(fn, info);
    if (NT_SUCCESS(st))
        st = shared_new(fn, d, info, &sh);
    if (NT_SUCCESS(st)) {
        D3DKMT_HANDLE h = local_new(sh, hDevice);
        if (h) {
            *out = h;
            info->SharedHandle = sh->global;
            if (sh->type == D3DDDI_MONITORED_FENCE) {
                info->MonitoredFence.FenceValueCPUVirtualAddress = (VOID *)sh->cpu_va;
                info->MonitoredFence.FenceValueGPUVirtualAddress = 0; /* no GPU VA space (WDDM 1.x model) */
            }
        } else {
            st = STATUS_NO_MEMORY;
        }
        dxgk_object_put(&sh->obj); /* the local handle holds its own */
    }
    dxgk_device_put(d);
    return st;
}

NTSTATUS APIENTRY D3DKMTCreateSynchronizationObject2(D3DKMT_CREATESYNCHRONIZATIONOBJECT2 *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTCreateSynchronizationObject2: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    return create("D3DKMTCreateSynchronizationObject2", args->hDevice, &args->Info, &args->hSyncObject);
}

/* The first form: mutexes and semaphores only (Windows refuses a fence here). */
NTSTATUS APIENTRY D3DKMTCreateSynchronizationObject(D3DKMT_CREATESYNCHRONIZATIONOBJECT *args)
{
    static const char fn[] = "D3DKMTCreateSynchronizationObject";
    if (!args) {
        dxgk_refuse("%s: NULL arguments", fn);
        return STATUS_INVALID_PARAMETER;
    }
    D3DDDI_SYNCHRONIZATIONOBJECTINFO2 info = { .Type = args->Info.Type };
    if (args->Info.Type == D3DDDI_SYNCHRONIZATION_MUTEX) {
        info.SynchronizationMutex.InitialState = args->Info.SynchronizationMutex.InitialState;
    } else if (args->Info.Type == D3DDDI_SEMAPHORE) {
        info.Semaphore.MaxCount = args->Info.Semaphore.MaxCount;
        info.Semaphore.InitialCount = args->Info.Semaphore.InitialCount;
    } else {
        dxgk_refuse("%s: type %d: this form creates mutexes and semaphores only", fn, (int)args->Info.Type);
        return STATUS_INVALID_PARAMETER;
    }
    return create(fn, args->hDevice, &info, &args->hSyncObject);
}

NTSTATUS APIENTRY D3DKMTOpenSynchronizationObject(D3DKMT_OPENSYNCHRONIZATIONOBJECT *args)
{
    static const char fn[] = "D3DKMTOpenSynchronizationObject";
    if (!args) {
        dxgk_refuse("%s: NULL arguments", fn);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_sync_shared *sh =
        (struct dxgk_sync_shared *)dxgk_global_get(args->hSharedHandle, DXGK_TYPE_SYNC_SHARED);
    if (!sh) {
        dxgk_refuse("%s: 0x%08x is not the global handle of a shared synchronization object (a Shared object's "
                    "Info.SharedHandle, while one of its local handles lives)", fn, args->hSharedHandle);
        return STATUS_INVALID_PARAMETER;
    }
    D3DKMT_HANDLE h = local_new(sh, 0);
    dxgk_object_put(&sh->obj);
    if (!h)
        return STATUS_NO_MEMORY;
    args->hSyncObject = h;
    return STATUS_SUCCESS;
}

/* ---- NT-handle sharing (objects/nt_handle.c) ------------------------------------------------ */

struct dxgk_sync_shared *dxgk_syncobj_nt_get(D3DKMT_HANDLE h)
{
    struct dxgk_syncobj *s = (struct dxgk_syncobj *)dxgk_handle_get(h, DXGK_TYPE_SYNCOBJECT);
    if (!s)
        return NULL;
    struct dxgk_sync_shared *sh = NULL;
    if (s->flags.Shared && s->flags.NtSecuritySharing && !atomic_load(&s->dead)) {
        sh = s->shared;
        dxgk_object_get(&sh->obj);
    }
    dxgk_object_put(&s->obj);
    return sh;
}

D3DKMT_HANDLE dxgk_syncobj_open_shared(struct dxgk_sync_shared *sh, D3DKMT_HANDLE device)
{
    return local_new(sh, device);
}

/* Marks a removed handle's object destroyed, wakes its waiters (they fail) and drops the
 * handle's reference. GPU signals still pending hold references and write a value that the
 * other handles on a shared object may still read. */
static void local_destroyed(struct dxgk_object *o)
{
    atomic_store(&((struct dxgk_syncobj *)o)->dead, true);
    dxgk_object_put(o);
}

NTSTATUS APIENTRY D3DKMTDestroySynchronizationObject(const D3DKMT_DESTROYSYNCHRONIZATIONOBJECT *args)
{
    struct dxgk_object *o = args ? dxgk_handle_remove(args->hSyncObject, DXGK_TYPE_SYNCOBJECT) : NULL;
    if (!o) {
        dxgk_refuse("D3DKMTDestroySynchronizationObject: invalid synchronization object handle 0x%08x%s",
                    args ? args->hSyncObject : 0,
                    args && dxgk_global_handle_is(args->hSyncObject) ? " (a global handle: destroy a local one)" : "");
        return STATUS_INVALID_PARAMETER;
    }
    local_destroyed(o);
    dxgk_sync_wake_all();
    return STATUS_SUCCESS;
}

/* Destroys every synchronization object of a device (D3DKMTDestroyDevice: "destroying it
 * destroys what the application left"); blocked CPU waiters are released with an error.
 * Called by the device's destruction (objects/device.c) and, with device 0, by the process's
 * teardown for the opened handles. */
void dxgk_syncobj_destroy_device(D3DKMT_HANDLE device)
{
    struct dxgk_object **objs;
    D3DKMT_HANDLE *hs;
    size_t n = dxgk_handle_collect(DXGK_TYPE_SYNCOBJECT, &objs, &hs);
    bool woke = false;
    for (size_t i = 0; i < n; i++) {
        if (((struct dxgk_syncobj *)objs[i])->device == device) {
            struct dxgk_object *o = dxgk_handle_remove(hs[i], DXGK_TYPE_SYNCOBJECT);
            if (o) {
                local_destroyed(o);
                woke = true;
            }
        }
        dxgk_object_put(objs[i]);
    }
    free(objs);
    free(hs);
    if (woke)
        dxgk_sync_wake_all();
}

static bool same_luid(LUID a, LUID b)
{
    return a.LowPart == b.LowPart && a.HighPart == b.HighPart;
}

static const char *type_name(D3DDDI_SYNCHRONIZATIONOBJECT_TYPE t)
{
    switch (t) {
    case D3DDDI_SYNCHRONIZATION_MUTEX: return "a mutex";
    case D3DDDI_SEMAPHORE: return "a semaphore";
    case D3DDDI_FENCE: return "a fence";
    case D3DDDI_CPU_NOTIFICATION: return "a CPU notification";
    case D3DDDI_MONITORED_FENCE: return "a monitored fence";
    default: return "an object of another type";
    }
}

/* One handle usable by d whose type is in `types`, with a reference, or NULL after a line. */
static struct dxgk_syncobj *get_one(const char *fn, const struct dxgk_device *d, UINT i, D3DKMT_HANDLE h, UINT types)
{
    struct dxgk_syncobj *s = (struct dxgk_syncobj *)dxgk_handle_get(h, DXGK_TYPE_SYNCOBJECT);
    /* An opened handle serves any device of the object's adapter, or of any adapter when the
     * object is CrossAdapter. */
    if (!s || (s->device ? s->device != d->handle
                         : !s->flags.CrossAdapter && !same_luid(s->shared->adapter, d->adapter->luid))) {
        dxgk_refuse("%s: object %u: invalid synchronization object handle 0x%08x for device 0x%08x", fn, i, h,
                    d->handle);
    } else if (!(types & (1u << s->type))) {
        dxgk_refuse("%s: object %u (0x%08x) is %s, which this call does not take", fn, i, h, type_name(s->type));
    } else {
        return s;
    }
    if (s)
        dxgk_object_put(&s->obj);
    return NULL;
}

NTSTATUS dxgk_syncobj_get_n(const char *fn, const struct dxgk_device *d, UINT count, const D3DKMT_HANDLE *handles,
                            UINT max, UINT types, struct dxgk_syncobj **out)
{
    if (count == 0 || count > max || !handles) {
        dxgk_refuse("%s: ObjectCount %u (1..%u) with object handle array %p", fn, count, max, (const void *)handles);
        return STATUS_INVALID_PARAMETER;
    }
    for (UINT i = 0; i < count; i++) {
        if (!(out[i] = get_one(fn, d, i, handles[i], types))) {
            dxgk_syncobj_put_n(out, i);
            return STATUS_INVALID_PARAMETER;
        }
    }
    return STATUS_SUCCESS;
}

void dxgk_syncobj_put_n(struct dxgk_syncobj **objs, UINT count)
{
    for (UINT i = 0; i < count; i++)
        dxgk_object_put(&objs[i]->obj);
}
