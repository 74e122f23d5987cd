/* The kernel objects' functions (issue 16 §1): adapters, devices, contexts, allocations,
 * resources, shares, keyed mutexes and NT handles, the top room of the kernel, which the D3DKMT
 * entry points and the upcalls (struct dxgk_upcalls) reach; it uses every room below it. */
#ifndef DXGKRNL_OBJECTS_OBJECTS_H
#define DXGKRNL_OBJECTS_OBJECTS_H

#include "dxgkrnl/dxgkrnl.h"
#include "dxgkrnl/sched/sched.h"
#include "dxgkrnl/vidmm/vidmm.h"

/* objects/adapter.c: the started adapter with this LUID (starting the process's adapters as an
 * enumeration does), with a reference; NULL with *st set (and a line naming `who` when no
 * adapter has it). */
struct dxgk_adapter *dxgk_adapter_from_luid(LUID luid, const char *who, NTSTATUS *st);

/* Keyed mutexes (objects/keyed_mutex.c). Process teardown destroys every handle left (their
 * blocked acquirers return STATUS_INVALID_PARAMETER). */
void dxgk_keyed_mutexes_destroy_all(void);
/* Test hook: blocks until at least n threads wait in D3DKMTAcquireKeyedMutex(2) on the mutex the
 * handle h names (through any of its handles); FALSE at once for a handle that names none. */
bool dxgk_keyed_mutex_await_waiters(D3DKMT_HANDLE h, UINT n);

/* NT-handle sharing (objects/nt_handle.c; D3DKMTShareObjects). Each holder below is one
 * reference of an NT object on what it shares; the object lives until the last NT handle on it
 * is closed (CloseHandle), however many D3DKMT handles remain. Process teardown closes the NT
 * handles left, before the devices go. */
void dxgk_nt_handles_close_all(void);

/* objects/keyed_mutex.c: the mutex a local handle names, if it was made with NtSecuritySharing,
 * held as one more handle (it keeps opening); NULL otherwise. Release drops that hold. */
struct km_shared;
struct km_shared *dxgk_keyed_mutex_nt_hold(D3DKMT_HANDLE h);
void dxgk_keyed_mutex_nt_release(struct km_shared *km);
/* A new D3DKMT handle on a held mutex (D3DKMTOpenResourceFromNtHandle), with the opener's
 * runtime data as D3DKMTOpenKeyedMutex2 takes it. */
NTSTATUS dxgk_keyed_mutex_nt_open(const char *fn, struct km_shared *km, const void *data, UINT size,
                                  D3DKMT_HANDLE *out);

/* objects/device.c */
NTSTATUS dxgk_device_destroy(struct dxgk_device *d, D3DKMT_HANDLE h);

/* objects/context.c */
void dxgk_context_destroy(struct dxgk_context *c);

/* objects/allocation.c */
void dxgk_deferred_process(struct dxgk_adapter *a, struct dxgk_device *only, bool wait);
/* Room for DXGK_DEFERRED_STACK allocations on the caller's stack: an idle list is freed
 * without a heap entry (the CreateBuffer+Release path). */
#define DXGK_DEFERRED_STACK 8u
union dxgk_deferred_stack {
    struct dxgk_deferred e;
    unsigned char bytes[sizeof(struct dxgk_deferred) + DXGK_DEFERRED_STACK * sizeof(struct dxgk_allocation *)];
};
/* The device's list of its allocations (adapter->lock): linked at creation or open, unlinked
 * once at destruction (a no-op for one not on it). */
void dxgk_device_link_allocation_locked(struct dxgk_device *d, struct dxgk_allocation *al);
void dxgk_device_unlink_allocation_locked(struct dxgk_device *d, struct dxgk_allocation *al);
NTSTATUS dxgk_allocation_destroy_list_locked(struct dxgk_adapter *a, struct dxgk_device *dev,
                                              struct dxgk_resource *res, struct dxgk_allocation **allocs,
                                              UINT count, struct dxgk_deferred *e,
                                              struct dxgk_deferred **out_now);
/* The entry dxgk_allocation_destroy_list_locked will need for these allocations of dev, taken
 * before their handles are removed, so that running out of memory destroys nothing: the
 * caller's stack storage when the list is idle, else the heap; NULL when out of memory (also
 * for the GpuMmu room vidmm_va_reserve_held_locked makes). Adapter lock held from here to the
 * destroy. */
struct dxgk_deferred *dxgk_deferred_entry_locked(struct dxgk_adapter *a, struct dxgk_device *dev,
                                                struct dxgk_allocation *const *allocs, UINT count,
                                                union dxgk_deferred_stack *stack);
void dxgk_deferred_free_now(struct dxgk_adapter *a, struct dxgk_deferred *d);

/* objects/standard_allocation.c (issue 6, seed 003: a cross-adapter resource "created as a
 * standard allocation from kernel mode and later opened by the UMD"): the kernel's own
 * cross-adapter surface, as dxgkrnl makes it for the hybrid present path. The KMD of hDevice's
 * adapter describes it (DxgkDdiGetStandardAllocationDriverData, D3DKMDT_STANDARDALLOCATION_
 * GDISURFACE of type D3DKMDT_GDISURFACE_TEXTURE_CROSSADAPTER); it is created on hDevice through
 * the usual D3DKMTCreateAllocation path (CrossAdapter + CreateShared + CreateResource). Out:
 * the global share handle any adapter's device opens with D3DKMTOpenResource, the resource and
 * allocation handles (of hDevice, destroyed like any) and the KMD's pitch (optional outputs may
 * be NULL). pPrivateRuntimeData: what the runtime that will open it needs (D3D11: its
 * description, src/runtime/runtime.h struct rt_shared_runtime_data), stored like a UMD-made
 * resource's; may be NULL. No D3DKMT thunk exists for it: it is the kernel's. */
NTSTATUS dxgk_create_standard_cross_adapter(D3DKMT_HANDLE hDevice, UINT width, UINT height, D3DDDIFORMAT format,
                                            const void *pPrivateRuntimeData, UINT PrivateRuntimeDataSize,
                                            D3DKMT_HANDLE *hGlobalShare, D3DKMT_HANDLE *hResource,
                                            D3DKMT_HANDLE *hAllocation, UINT *pitch);

/* objects/share.c: global share handles and cross-adapter resources (issue 6, seed 003) */
struct dxgk_share;
/* The creator's allocation, named by same-adapter opens of the share (set before publish). */
void dxgk_share_set_owner(struct dxgk_share *s, struct dxgk_allocation *owner);
/* Its memory is gone: the share no longer opens on the creator's adapter. */
void dxgk_share_clear_owner(struct dxgk_share *s, const struct dxgk_allocation *owner);
/* Releases what a same-adapter open named (objects/share.c), from its deferred entry, without
 * the adapter lock, after its DxgkDdiCloseAllocation. */
void dxgk_share_alias_release(struct dxgk_adapter *a, struct dxgk_allocation *y);
/* The memory of an allocation its creator destroyed while opens named it (objects/allocation.c). */
void dxgk_allocation_orphan_free(struct dxgk_adapter *a, struct dxgk_allocation *x);
/* Whether nothing links to orphan x any more (its creator's deferred entry ran, no open aliases
 * it, no NT object holds it); then it is marked dead, under the lock that decided it, and the
 * caller frees it with dxgk_allocation_orphan_free once the lock is dropped. adapter->lock
 * (objects/share.c). */
bool dxgk_orphan_unlinked_locked(struct dxgk_adapter *a, struct dxgk_allocation *x);
NTSTATUS dxgk_share_create(struct dxgk_adapter *a, const D3DKMT_CREATEALLOCATION *args, const DXGK_ALLOCATIONINFO *info,
                           bool cross_adapter, struct dxgk_share **out);
D3DKMT_HANDLE dxgk_share_publish(struct dxgk_share *s);
void dxgk_share_put(struct dxgk_share *s);
/* A cross-adapter share's pages (and the share) outlive a hold, though its global handle goes
 * with its last reference: an adapter holds them until its UNMAP of them ran. */
void dxgk_share_pages_hold(struct dxgk_share *s);
void dxgk_share_pages_release(struct dxgk_share *s);
/* A cross-adapter share's pages as an instance's backing store on adapter `a`: attach maps them in
 * a's isolation domain (one use), detach takes them off the instance, unmap gives that use back
 * once a's GPU is through with them (after its UNMAP of them ran, or at once if it never used
 * them). */
bool dxgk_share_attach(struct dxgk_share *s, struct dxgk_adapter *a, struct vidmm_instance *in); /* false: no
                                         memory to map them, nothing attached */
void dxgk_share_detach(struct vidmm_instance *in);
void dxgk_share_unmap(struct dxgk_share *s, struct dxgk_adapter *a);
void dxgk_share_attach_undo(struct dxgk_share *s, struct dxgk_adapter *a, struct vidmm_instance *in); /* before
                                         any GPU use: detach and unmap, if attached */
bool dxgk_share_is_cross_adapter(const struct dxgk_share *s);
/* NT-handle sharing of a resource (CreateShared + NtSecuritySharing: the share is never
 * published under a global handle). nt_hold: from a live resource handle, the share and its
 * creator's memory held for an NT object (the creator's allocation then outlives its handles
 * as it does for same-adapter opens: orphan); STATUS_INVALID_PARAMETER for an allocation handle,
 * a resource not shared by NT handle, or a stale handle. nt_release undoes it. */
struct dxgk_share_nt_hold {
    struct dxgk_share *share;
    struct dxgk_adapter *adapter;     /* the creator's, one object reference */
    struct dxgk_allocation *owner;    /* the creator's allocation, one object reference and one
                                         nt_holds count */
};
NTSTATUS dxgk_share_nt_hold(D3DKMT_HANDLE hResource, struct dxgk_share_nt_hold *out);
void dxgk_share_nt_release(struct dxgk_share_nt_hold *h);
/* D3DKMTQueryResourceInfoFromNtHandle / D3DKMTOpenResourceFromNtHandle's resource part: as
 * D3DKMTQueryResourceInfo / D3DKMTOpenResource2 with the held share instead of a global one. */
NTSTATUS dxgk_share_nt_query(const char *fn, D3DKMT_HANDLE hDevice, struct dxgk_share *s,
                             D3DKMT_QUERYRESOURCEINFOFROMNTHANDLE *args);
NTSTATUS dxgk_share_nt_open(struct dxgk_share *s, D3DKMT_OPENRESOURCE *args);
/* The adapter a share was created on. */
LUID dxgk_share_creator(const struct dxgk_share *s);
/* objects/nt_handle.c: the share an NT handle to a resource names, for D3DKMTGetSharedResourceAdapterLuid
 * (objects/share.c); refused with a line as the other NT-handle thunks refuse. */
NTSTATUS dxgk_nt_resource_creator(const char *fn, HANDLE h, LUID *out);

/* objects/callbacks_not_modeled.c: the DXGKRNL_INTERFACE members the kernel does not model */
void dxgk_interface_fill_not_modeled(DXGKRNL_INTERFACE *ifc);

/* objects/driver_load.c: drivers loaded by path (WDDM_KMD, WDDM_UMD; issue 19 §1) */
extern const struct wddm_platform_imports dxgk_platform_imports;
/* How many adapters the driver lists name (the longer list), 0 when neither is set. */
UINT dxgk_driver_list_length(void);
/* Adapter index's DriverEntry: the module WDDM_KMD names for it (dlopen'ed, kept loaded; *name
 * its path, malloc'ed), else `builtin` (*name NULL). STATUS_DLL_NOT_FOUND /
 * STATUS_ENTRYPOINT_NOT_FOUND with one message otherwise. */
NTSTATUS dxgk_driver_kmd_entry(UINT index, PDRIVER_INITIALIZE builtin, PDRIVER_INITIALIZE *entry, char **name);
/* An in-process entry's name for reports: its symbol and file as the dynamic linker knows them
 * (malloc'ed, NULL when memory runs out). */
char *dxgk_driver_entry_name(PDRIVER_INITIALIZE entry);
/* Adapter index's UMD module path from WDDM_UMD (malloc'ed), NULL for the built-in UMD;
 * STATUS_NO_MEMORY or STATUS_NAME_TOO_LONG (more than MAX_PATH - 1 UTF-16 units). */
NTSTATUS dxgk_driver_umd_name(UINT index, char **name);
/* KMTQAITYPE_UMDRIVERNAME */
NTSTATUS dxgk_driver_query_umd_name(const struct dxgk_adapter *a, D3DKMT_UMDFILENAMEINFO *info);

#endif /* DXGKRNL_OBJECTS_OBJECTS_H */
