/* NT-handle sharing: D3DKMTShareObjects, D3DKMTQueryResourceInfoFromNtHandle,
 * D3DKMTOpenResourceFromNtHandle, D3DKMTOpenNtHandleFromName, D3DKMTOpenSyncObjectFromNtHandle(2),
 * D3DKMTOpenSyncObjectNtHandleFromName (WDK d3dkmthk pages; Windows' answers as Wine's win32u
 * d3dkmt tests observed them, test_D3DKMTShareObjects; docs/architecture.md "NT handles").
 *
 * An NT object (struct nt_object) is what D3DKMTShareObjects makes of one of the three
 * combinations the WDK allows: a resource; a resource, its keyed mutex and its synchronization
 * object; a synchronization object, each made with NtSecuritySharing. It holds a reference on
 * each (the resource's share and creator's memory: objects/share.c dxgk_share_nt_hold; the keyed
 * mutex as one more handle: objects/keyed_mutex.c; the sync object's shared state:
 * sched/syncobj.c), so everything it names still opens after the creator destroyed its own
 * D3DKMT handles, and lives until the last NT handle on it is closed.
 *
 * NT handles are HANDLEs of the process, in a table of their own: 0 | tag 011 (bits 30..28) |
 * generation (27..16) | slot (15..2) | 00, the form of the event table's (common/event.c) with
 * another tag, so a value is never both, never a D3DKMT handle (bits 31..30 clear, as Windows'
 * NT handles: Wine's tests check it) and never NULL. CloseHandle closes them (the closer
 * registered with common/event.c). A closed slot comes back with the next generation.
 *
 * Names: pObjectAttributes->ObjectName names the NT object in one namespace for both kinds
 * (Windows' \BaseNamedObjects). A name is found whatever its case (Windows found the lower-case
 * spelling of a name made with Attributes 0), belongs to the NT object, and goes with its last
 * handle: the object can then be shared again under the same name. Access rights are recorded
 * but not enforced (there is one process and no security descriptor), except that opening by
 * name with dwDesiredAccess 0 is refused with STATUS_ACCESS_DENIED, as Windows does.
 *
 * Lock: the table lock is a leaf, held for the table and the namespace only; what an NT object
 * holds is released after it is let go. */
#include "dxgkrnl/objects/objects.h"
#include "common/alloc.h"
#include "common/event.h"

#include <stdlib.h>
#include <string.h>

#define NT_FIXED_MASK 0xF0000003u
#define NT_FIXED 0x30000000u
#define NT_SLOT_SHIFT 2u
#define NT_SLOT_BITS 14u
#define NT_GEN_SHIFT 16u
#define NT_GEN_MASK 0xFFFu
#define NT_MAX_SLOTS (1u << NT_SLOT_BITS)
#define NT_NAME_MAX 512u /* characters: longer names answer STATUS_OBJECT_NAME_INVALID */

enum nt_kind { NT_RESOURCE = 1, NT_SYNC = 2 };

struct nt_object {
    UINT handles;                     /* open NT handles on it; table lock */
    UINT refs;                        /* handles + calls using it; table lock */
    enum nt_kind kind;                /* immutable */
    WCHAR *name;                      /* NULL: unnamed; immutable */
    USHORT name_chars;                /* immutable */
    bool named;                       /* on the namespace list; table lock */
    struct nt_object *next_named;     /* table lock */
    DWORD access;                     /* the rights asked at D3DKMTShareObjects; immutable */
    /* What it holds (immutable). */
    struct dxgk_share_nt_hold resource;   /* NT_RESOURCE */
    struct km_shared *keyed_mutex;        /* NT_RESOURCE of three objects, else NULL */
    struct dxgk_sync_shared *sync;        /* NT_SYNC, or the third object of a resource's */
};

struct nt_slot {
    struct nt_object *obj;            /* NULL = free */
    UINT gen;
};

static struct {
    pthread_mutex_t lock;
    struct nt_slot *slots;            /* grows by doubling; table lock */
    UINT cap;
    UINT next_free;                   /* a hint: the search for a free slot starts here */
    struct nt_object *named;          /* the namespace */
} nt = { .lock = PTHREAD_MUTEX_INITIALIZER };

static bool nt_close(HANDLE h);

static void object_free(struct nt_object *o)
{
    if (o->kind == NT_RESOURCE)
        dxgk_share_nt_release(&o->resource);
    dxgk_keyed_mutex_nt_release(o->keyed_mutex);
    if (o->sync)
        dxgk_object_put(&o->sync->obj);
    free(o->name);
    free(o);
}

/* Drops a reference taken under the lock; the last frees the object (without the lock). */
static void object_put(struct nt_object *o)
{
    pthread_mutex_lock(&nt.lock);
    bool last = --o->refs == 0;
    pthread_mutex_unlock(&nt.lock);
    if (last)
        object_free(o);
}

static bool names_equal(const struct nt_object *o, const WCHAR *name, USHORT chars)
{
    if (o->name_chars != chars)
        return false;
    for (USHORT i = 0; i < chars; i++) {
        WCHAR a = o->name[i], b = name[i];
        if (a >= 'A' && a <= 'Z')
            a = (WCHAR)(a + ('a' - 'A'));
        if (b >= 'A' && b <= 'Z')
            b = (WCHAR)(b + ('a' - 'A'));
        if (a != b)
            return false;
    }
    return true;
}

static struct nt_object *find_named_locked(const WCHAR *name, USHORT chars)
{
    WDDM_ASSERT_HELD(&nt.lock);
    for (struct nt_object *o = nt.named; o; o = o->next_named)
        if (names_equal(o, name, chars))
            return o;
    return NULL;
}

static void unname_locked(struct nt_object *o)
{
    WDDM_ASSERT_HELD(&nt.lock);
    if (!o->named)
        return;
    struct nt_object **pp = &nt.named;
    while (*pp && *pp != o)
        pp = &(*pp)->next_named;
    if (*pp)
        *pp = o->next_named;
    o->named = false;
}

/* A new handle on o (one handle and one reference of o's); NULL when the table is full or out
 * of memory. */
static HANDLE insert_locked(struct nt_object *o)
{
    WDDM_ASSERT_HELD(&nt.lock);
    UINT i = 0;
    for (UINT k = 0; k < nt.cap; k++) {
        UINT j = (nt.next_free + k) % nt.cap;
        if (j && !nt.slots[j].obj) {
            i = j;
            break;
        }
    }
    if (!i) {
        UINT cap = nt.cap ? nt.cap * 2 : 64;
        if (cap > NT_MAX_SLOTS)
            return NULL;
        struct nt_slot *grown = realloc(nt.slots, cap * sizeof *grown);
        if (!grown)
            return NULL;
        memset(grown + nt.cap, 0, (cap - nt.cap) * sizeof *grown);
        i = nt.cap ? nt.cap : 1; /* slot 0 is never used */
        nt.slots = grown;
        nt.cap = cap;
    }
    nt.slots[i].obj = o;
    nt.next_free = i + 1;
    o->handles++;
    o->refs++;
    return (HANDLE)(uintptr_t)(NT_FIXED | ((nt.slots[i].gen & NT_GEN_MASK) << NT_GEN_SHIFT) | (i << NT_SLOT_SHIFT));
}

/* The slot a handle names, or 0 for a value that is not a live NT handle. */
static UINT slot_of_locked(HANDLE h)
{
    WDDM_ASSERT_HELD(&nt.lock);
    uintptr_t v = (uintptr_t)h;
    if (v > 0xFFFFFFFFu || (v & NT_FIXED_MASK) != NT_FIXED)
        return 0;
    UINT i = (UINT)(v >> NT_SLOT_SHIFT) & (NT_MAX_SLOTS - 1u);
    UINT gen = (UINT)(v >> NT_GEN_SHIFT) & NT_GEN_MASK;
    if (!i || i >= nt.cap || !nt.slots[i].obj || (nt.slots[i].gen & NT_GEN_MASK) != gen)
        return 0;
    return i;
}

/* The NT object a handle names, with a reference; NULL (no line) for anything else. */
static struct nt_object *object_get(HANDLE h)
{
    pthread_mutex_lock(&nt.lock);
    UINT i = slot_of_locked(h);
    struct nt_object *o = i ? nt.slots[i].obj : NULL;
    if (o)
        o->refs++;
    pthread_mutex_unlock(&nt.lock);
    return o;
}

/* CloseHandle's part (common/event.c): FALSE, silently, for a value that is no NT handle. */
static bool nt_close(HANDLE h)
{
    pthread_mutex_lock(&nt.lock);
    UINT i = slot_of_locked(h);
    struct nt_object *o = i ? nt.slots[i].obj : NULL;
    bool last = false;
    if (o) {
        nt.slots[i].obj = NULL;
        nt.slots[i].gen++;
        if (--o->handles == 0)
            unname_locked(o); /* the name goes with the last handle: it may be shared again */
        last = --o->refs == 0;
    }
    pthread_mutex_unlock(&nt.lock);
    if (last)
        object_free(o);
    return o != NULL;
}

void dxgk_nt_handles_close_all(void)
{
    for (;;) {
        HANDLE h = NULL;
        pthread_mutex_lock(&nt.lock);
        for (UINT i = 1; i < nt.cap && !h; i++)
            if (nt.slots[i].obj)
                h = (HANDLE)(uintptr_t)(NT_FIXED | ((nt.slots[i].gen & NT_GEN_MASK) << NT_GEN_SHIFT) |
                                        (i << NT_SLOT_SHIFT));
        pthread_mutex_unlock(&nt.lock);
        if (!h)
            break;
        nt_close(h);
    }
    pthread_mutex_lock(&nt.lock);
    free(nt.slots);
    nt.slots = NULL;
    nt.cap = nt.next_free = 0;
    pthread_mutex_unlock(&nt.lock);
}

/* The name pObjectAttributes gives (chars 0: unnamed); STATUS_OBJECT_NAME_INVALID for an empty,
 * odd-length, NUL-carrying or over-long one. */
static NTSTATUS name_of(const char *fn, const OBJECT_ATTRIBUTES *oa, const WCHAR **name, USHORT *chars)
{
    *name = NULL;
    *chars = 0;
    if (!oa || !oa->ObjectName)
        return STATUS_SUCCESS;
    const UNICODE_STRING *u = oa->ObjectName;
    if (!u->Length || (u->Length & 1) || !u->Buffer || u->Length / 2 > NT_NAME_MAX) {
        dxgk_refuse("%s: ObjectName of %u bytes (buffer %p) is not a name: a non-empty, even number of bytes, at "
                    "most %u characters", fn, u->Length, (void *)u->Buffer, NT_NAME_MAX);
        return STATUS_OBJECT_NAME_INVALID;
    }
    for (USHORT i = 0; i < u->Length / 2; i++) {
        if (!u->Buffer[i]) {
            dxgk_refuse("%s: ObjectName holds a NUL character", fn);
            return STATUS_OBJECT_NAME_INVALID;
        }
    }
    *name = u->Buffer;
    *chars = (USHORT)(u->Length / 2);
    return STATUS_SUCCESS;
}

/* ---- D3DKMTShareObjects ---------------------------------------------------------------------- */

/* Takes what the handles name into o: one sync object, one resource, or a resource, its keyed
 * mutex and its sync object, in that order (the WDK's combinations; every other order or count is
 * refused, as Windows does in Wine's tests). */
static NTSTATUS share_take(const char *fn, UINT count, const D3DKMT_HANDLE *h, struct nt_object *o)
{
    if (count == 1 && (o->sync = dxgk_syncobj_nt_get(h[0]))) {
        o->kind = NT_SYNC;
        return STATUS_SUCCESS;
    }
    if (count != 1 && count != 3) {
        dxgk_refuse("%s: %u objects: a resource, a sync object, or a resource, its keyed mutex and its sync object",
                    fn, count);
        return STATUS_INVALID_PARAMETER;
    }
    NTSTATUS st = dxgk_share_nt_hold(h[0], &o->resource);
    if (!NT_SUCCESS(st)) {
        if (count == 1)
            dxgk_refuse("%s: 0x%08x is neither a sync object made with Shared and NtSecuritySharing nor such a "
                        "resource", fn, h[0]);
        return st;
    }
    o->kind = NT_RESOURCE;
    if (count == 3) {
        o->keyed_mutex = dxgk_keyed_mutex_nt_hold(h[1]);
        o->sync = o->keyed_mutex ? dxgk_syncobj_nt_get(h[2]) : NULL;
        if (!o->sync) {
            dxgk_refuse("%s: objects 2 and 3 (0x%08x, 0x%08x) must be a keyed mutex made with NtSecuritySharing "
                        "and a sync object made with Shared and NtSecuritySharing, in that order", fn, h[1], h[2]);
            return STATUS_INVALID_PARAMETER;
        }
    }
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY D3DKMTShareObjects(UINT cObjects, const D3DKMT_HANDLE *hObjects, OBJECT_ATTRIBUTES *pObjectAttributes,
                                     DWORD dwDesiredAccess, HANDLE *phSharedNtHandle)
{
    static const char fn[] = "D3DKMTShareObjects";
    if (!cObjects || cObjects > D3DKMT_MAX_OBJECTS_PER_HANDLE || !hObjects || !phSharedNtHandle) {
        dxgk_refuse("%s: %u objects (1 to %u), hObjects %p, phSharedNtHandle %p", fn, cObjects,
                    D3DKMT_MAX_OBJECTS_PER_HANDLE, (const void *)hObjects, (void *)phSharedNtHandle);
        return STATUS_INVALID_PARAMETER;
    }
    const WCHAR *name;
    USHORT chars;
    NTSTATUS st = name_of(fn, pObjectAttributes, &name, &chars);
    if (!NT_SUCCESS(st))
        return st;
    struct nt_object *o = wddm_calloc(1, sizeof *o);
    if (!o || (chars && !(o->name = wddm_malloc(chars * sizeof *name)))) {
        free(o);
        return STATUS_NO_MEMORY;
    }
    if (chars)
        memcpy(o->name, name, chars * sizeof *name);
    o->name_chars = chars;
    o->access = dwDesiredAccess;
    st = share_take(fn, cObjects, hObjects, o);
    if (!NT_SUCCESS(st)) {
        object_free(o);
        return st;
    }
    wddm_handle_closer_register(nt_close);
    pthread_mutex_lock(&nt.lock);
    HANDLE h = NULL;
    bool taken = chars && find_named_locked(o->name, chars);
    if (!taken && (h = insert_locked(o)) && chars) {
        o->next_named = nt.named;
        nt.named = o;
        o->named = true;
    }
    pthread_mutex_unlock(&nt.lock);
    if (!h) {
        if (taken)
            dxgk_refuse("%s: the name is already in use by another shared object", fn);
        else
            dxgk_refuse("%s: the NT handle table is full or out of memory", fn);
        object_free(o);
        return taken ? STATUS_OBJECT_NAME_COLLISION : STATUS_NO_MEMORY;
    }
    *phSharedNtHandle = h;
    return STATUS_SUCCESS;
}

/* ---- opening by name ------------------------------------------------------------------------- */

static NTSTATUS open_by_name(const char *fn, DWORD access, OBJECT_ATTRIBUTES *oa, enum nt_kind kind, HANDLE *out)
{
    const WCHAR *name;
    USHORT chars;
    if (!oa || !oa->ObjectName) {
        dxgk_refuse("%s: no pObjAttrib or no ObjectName", fn);
        return STATUS_INVALID_PARAMETER;
    }
    NTSTATUS st = name_of(fn, oa, &name, &chars);
    if (!NT_SUCCESS(st))
        return st;
    pthread_mutex_lock(&nt.lock);
    struct nt_object *o = find_named_locked(name, chars);
    HANDLE h = NULL;
    if (!o)
        st = STATUS_OBJECT_NAME_NOT_FOUND;
    else if (o->kind != kind)
        st = STATUS_OBJECT_TYPE_MISMATCH;
    else if (!access)
        st = STATUS_ACCESS_DENIED;
    else if (!(h = insert_locked(o)))
        st = STATUS_NO_MEMORY;
    pthread_mutex_unlock(&nt.lock);
    if (!NT_SUCCESS(st)) {
        dxgk_refuse("%s: the name %s (0x%08x)", fn,
                    st == STATUS_OBJECT_NAME_NOT_FOUND ? "names no shared object (never shared, or its last NT handle "
                                                         "was closed)"
                    : st == STATUS_OBJECT_TYPE_MISMATCH ? "names a shared object of the other kind"
                    : st == STATUS_ACCESS_DENIED        ? "is found, but dwDesiredAccess asks for no right"
                                                        : "is found, but the NT handle table is full",
                    (unsigned)st);
        return st;
    }
    *out = h;
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY D3DKMTOpenNtHandleFromName(D3DKMT_OPENNTHANDLEFROMNAME *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTOpenNtHandleFromName: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    return open_by_name("D3DKMTOpenNtHandleFromName", args->dwDesiredAccess, args->pObjAttrib, NT_RESOURCE,
                        &args->hNtHandle);
}

NTSTATUS APIENTRY D3DKMTOpenSyncObjectNtHandleFromName(D3DKMT_OPENSYNCOBJECTNTHANDLEFROMNAME *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTOpenSyncObjectNtHandleFromName: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    return open_by_name("D3DKMTOpenSyncObjectNtHandleFromName", args->dwDesiredAccess, args->pObjAttrib, NT_SYNC,
                        &args->hNtHandle);
}

/* ---- opening what an NT handle names --------------------------------------------------------- */

/* The NT object of a handle, of a kind: STATUS_INVALID_HANDLE for a value that is no open NT
 * handle (NULL, closed, forged), STATUS_OBJECT_TYPE_MISMATCH for one of the other kind (the object
 * manager's answer for a handle of the wrong object type). */
static NTSTATUS get_kind(const char *fn, HANDLE h, enum nt_kind kind, struct nt_object **out)
{
    struct nt_object *o = object_get(h);
    if (!o) {
        dxgk_refuse("%s: hNtHandle %p is not an open NT handle (closed, or never returned by D3DKMTShareObjects or "
                    "an open by name)", fn, h);
        return STATUS_INVALID_HANDLE;
    }
    if (o->kind != kind) {
        dxgk_refuse("%s: hNtHandle %p names a shared %s", fn, h, o->kind == NT_SYNC ? "sync object" : "resource");
        object_put(o);
        return STATUS_OBJECT_TYPE_MISMATCH;
    }
    *out = o;
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY D3DKMTOpenSyncObjectFromNtHandle(D3DKMT_OPENSYNCOBJECTFROMNTHANDLE *args)
{
    static const char fn[] = "D3DKMTOpenSyncObjectFromNtHandle";
    if (!args) {
        dxgk_refuse("%s: NULL arguments", fn);
        return STATUS_INVALID_PARAMETER;
    }
    struct nt_object *o;
    NTSTATUS st = get_kind(fn, args->hNtHandle, NT_SYNC, &o);
    if (!NT_SUCCESS(st))
        return st;
    D3DKMT_HANDLE h = dxgk_syncobj_open_shared(o->sync, 0);
    object_put(o);
    if (!h)
        return STATUS_NO_MEMORY;
    args->hSyncObject = h;
    return STATUS_SUCCESS;
}

/* The device comes first: a zeroed argument and one without hDevice are refused with
 * STATUS_INVALID_PARAMETER before the NT handle is looked at (Wine d3dkmt tests). */
NTSTATUS APIENTRY D3DKMTOpenSyncObjectFromNtHandle2(D3DKMT_OPENSYNCOBJECTFROMNTHANDLE2 *args)
{
    static const char fn[] = "D3DKMTOpenSyncObjectFromNtHandle2";
    if (!args) {
        dxgk_refuse("%s: NULL arguments", fn);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_device *d = dxgk_device_get(args->hDevice);
    if (!d) {
        dxgk_refuse("%s: invalid device handle 0x%08x", fn, args->hDevice);
        return STATUS_INVALID_PARAMETER;
    }
    LUID luid = d->adapter->luid;
    dxgk_device_put(d);
    struct nt_object *o;
    NTSTATUS st = get_kind(fn, args->hNtHandle, NT_SYNC, &o);
    if (!NT_SUCCESS(st))
        return st;
    /* The handle will serve hDevice: of the creator's adapter, unless the object is CrossAdapter
     * (the rule get_one applies to an opened handle of no device). */
    if (!o->sync->flags.CrossAdapter && (o->sync->adapter.LowPart != luid.LowPart ||
                                         o->sync->adapter.HighPart != luid.HighPart)) {
        dxgk_refuse("%s: the synchronization object was created on another adapter and is not CrossAdapter", fn);
        object_put(o);
        return STATUS_INVALID_PARAMETER;
    }
    D3DKMT_HANDLE h = dxgk_syncobj_open_shared(o->sync, args->hDevice);
    if (h && o->sync->type == D3DDDI_MONITORED_FENCE) {
        args->MonitoredFence.FenceValueCPUVirtualAddress = (VOID *)o->sync->cpu_va;
        args->MonitoredFence.FenceValueGPUVirtualAddress = 0; /* no GPU VA space (WDDM 1.x model) */
    }
    object_put(o);
    if (!h)
        return STATUS_NO_MEMORY;
    args->hSyncObject = h; /* Flags is [in]: never written (Wine d3dkmt tests) */
    return STATUS_SUCCESS;
}

NTSTATUS dxgk_nt_resource_creator(const char *fn, HANDLE h, LUID *out)
{
    struct nt_object *o;
    NTSTATUS st = get_kind(fn, h, NT_RESOURCE, &o);
    if (!NT_SUCCESS(st))
        return st;
    *out = dxgk_share_creator(o->resource.share);
    object_put(o);
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY D3DKMTQueryResourceInfoFromNtHandle(D3DKMT_QUERYRESOURCEINFOFROMNTHANDLE *args)
{
    static const char fn[] = "D3DKMTQueryResourceInfoFromNtHandle";
    if (!args) {
        dxgk_refuse("%s: NULL arguments", fn);
        return STATUS_INVALID_PARAMETER;
    }
    struct nt_object *o;
    NTSTATUS st = get_kind(fn, args->hNtHandle, NT_RESOURCE, &o);
    if (!NT_SUCCESS(st))
        return st;
    st = dxgk_share_nt_query(fn, args->hDevice, o->resource.share, args);
    object_put(o);
    return st;
}

/* The resource as D3DKMTOpenResource2 opens it, then, for an NT object of three, new handles on
 * its keyed mutex and sync object; hKeyedMutex and hSyncObject are 0 otherwise (Wine d3dkmt
 * tests). Nothing is left open when a later step fails. */
NTSTATUS APIENTRY D3DKMTOpenResourceFromNtHandle(D3DKMT_OPENRESOURCEFROMNTHANDLE *args)
{
    static const char fn[] = "D3DKMTOpenResourceFromNtHandle";
    if (!args) {
        dxgk_refuse("%s: NULL arguments", fn);
        return STATUS_INVALID_PARAMETER;
    }
    if (args->KeyedMutexPrivateRuntimeDataSize && !args->pKeyedMutexPrivateRuntimeData) {
        dxgk_refuse("%s: KeyedMutexPrivateRuntimeDataSize %u with a NULL pKeyedMutexPrivateRuntimeData", fn,
                    args->KeyedMutexPrivateRuntimeDataSize);
        return STATUS_INVALID_PARAMETER;
    }
    struct nt_object *o;
    NTSTATUS st = get_kind(fn, args->hNtHandle, NT_RESOURCE, &o);
    if (!NT_SUCCESS(st))
        return st;
    D3DKMT_OPENRESOURCE open = { .hDevice = args->hDevice, .NumAllocations = args->NumAllocations,
                                 .pOpenAllocationInfo2 = args->pOpenAllocationInfo2,
                                 .pPrivateRuntimeData = args->pPrivateRuntimeData,
                                 .PrivateRuntimeDataSize = args->PrivateRuntimeDataSize,
                                 .pResourcePrivateDriverData = args->pResourcePrivateDriverData,
                                 .ResourcePrivateDriverDataSize = args->ResourcePrivateDriverDataSize,
                                 .pTotalPrivateDriverDataBuffer = args->pTotalPrivateDriverDataBuffer,
                                 .TotalPrivateDriverDataBufferSize = args->TotalPrivateDriverDataBufferSize };
    st = dxgk_share_nt_open(o->resource.share, &open);
    D3DKMT_HANDLE mutex = 0, sync = 0;
    if (NT_SUCCESS(st) && o->keyed_mutex) {
        st = dxgk_keyed_mutex_nt_open(fn, o->keyed_mutex, args->pKeyedMutexPrivateRuntimeData,
                                      args->KeyedMutexPrivateRuntimeDataSize, &mutex);
        if (NT_SUCCESS(st) && !(sync = dxgk_syncobj_open_shared(o->sync, 0)))
            st = STATUS_NO_MEMORY;
        if (!NT_SUCCESS(st)) {
            if (mutex) {
                D3DKMT_DESTROYKEYEDMUTEX dm = { .hKeyedMutex = mutex };
                (void)D3DKMTDestroyKeyedMutex(&dm);
            }
            D3DKMT_DESTROYALLOCATION da = { .hDevice = args->hDevice, .hResource = open.hResource };
            (void)D3DKMTDestroyAllocation(&da);
        }
    }
    object_put(o);
    if (!NT_SUCCESS(st))
        return st;
    args->TotalPrivateDriverDataBufferSize = open.TotalPrivateDriverDataBufferSize;
    args->hResource = open.hResource;
    args->hKeyedMutex = mutex;
    args->hSyncObject = sync;
    return STATUS_SUCCESS;
}
