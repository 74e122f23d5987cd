/* Keyed mutexes: D3DKMTCreateKeyedMutex(2), D3DKMTOpenKeyedMutex(2), D3DKMTDestroyKeyedMutex,
 * D3DKMTAcquireKeyedMutex(2), D3DKMTReleaseKeyedMutex(2) (WDK d3dkmthk pages; the answers of
 * Windows that Wine's win32u d3dkmt tests observed; docs/rules/kernel.md).
 *
 * A keyed mutex is two kinds of object. The mutex itself (struct km_shared) holds the key, the
 * owner, the fence value of the last release and the runtime's private data; it is registered
 * under its global handle (dxgkrnl/global_handle.c: the registry holds no reference, the
 * mutex's release unregisters it). Each D3DKMT handle (struct dxgk_keyed_mutex, in the handle
 * table) is an object of its own holding one reference on the mutex: the creator's handle and
 * every opened one. Ownership belongs to a handle, so a handle destroyed while it owns the mutex
 * abandons it. The global handle opens new handles while at least one handle is live (Windows:
 * "the global D3DKMT_HANDLE is destroyed with last reference"), counted under the mutex's lock,
 * not by the reference count, which lookups in progress also hold.
 *
 * There is no device: a keyed mutex belongs to the process (here: the process is the system), and
 * process teardown destroys the handles left (dxgk_keyed_mutexes_destroy_all). A mutex made with
 * D3DKMT_CREATEKEYEDMUTEX2_FLAGS.NtSecuritySharing gets no global handle: it is shared with its
 * resource through an NT handle (D3DKMTShareObjects, objects/nt_handle.c), which holds it as a
 * handle would (dxgk_keyed_mutex_nt_hold: it counts in `handles`), so it opens through that NT
 * handle after every D3DKMT handle on it was destroyed (Windows' answer, Wine d3dkmt tests).
 *
 * Lock: each mutex has its own, a leaf. Nothing else is taken while it is held (refusal lines
 * are printed after it is let go, references are dropped after it), and an acquirer waits on
 * the mutex's condition variable (CLOCK_MONOTONIC deadlines) holding only it. */
#include "dxgkrnl/objects/objects.h"
#include "common/deadline.h"
#include "common/alloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define KM_TYPE DXGK_TYPE_KEYED_MUTEX
#define NT_TICKS_PER_SEC 10000000LL               /* 100-ns units */
#define NT_TICKS_1601_TO_1970 116444736000000000LL /* system time of the Unix epoch */

struct km_shared {
    struct dxgk_object obj;           /* KM_TYPE, in the global registry only; one reference per
                                         handle object and per lookup in progress */
    D3DKMT_HANDLE global;             /* hSharedHandle, 0 without one; set before it is shared */
    pthread_mutex_t lock;             /* the keyed mutex lock (leaf) */
    pthread_cond_t cond;              /* CLOCK_MONOTONIC; broadcast at every release, destruction
                                         of a handle, and when an acquirer starts to wait */
    UINT handles;                     /* live handles: the global handle opens while > 0; lock */
    UINT64 key;                       /* InitialValue, then the key of the last release; lock */
    UINT64 fence;                     /* FenceValue of the last release (0 before any); lock */
    struct dxgk_keyed_mutex *owner;   /* the handle that acquired it; NULL while released; lock */
    bool abandoned;                   /* its owner's handle was destroyed while owning it: every
                                         later acquire answers STATUS_ABANDONED; lock */
    UINT waiters;                     /* threads blocked in an acquire (the test hook); lock */
    void *data;                       /* the runtime's private data; set once (create, or the
                                         first Open2 / Release2 giving some), then rewritten by
                                         Release2; lock */
    UINT data_size;                   /* its size, 0 = none; only ever goes from 0 to its size */
    bool nt;                          /* made with NtSecuritySharing: D3DKMTShareObjects takes it;
                                         immutable */
};

struct dxgk_keyed_mutex {
    struct dxgk_object obj;           /* KM_TYPE, in the handle table */
    struct km_shared *km;             /* one reference; immutable */
    bool counted;                     /* counted in km->handles; km->lock */
    bool dead;                        /* its handle was destroyed; km->lock */
};

static void shared_release(struct dxgk_object *obj)
{
    struct km_shared *km = (struct km_shared *)obj;
    dxgk_global_unregister(km->global); /* before the memory goes: no lookup can find it */
    pthread_cond_destroy(&km->cond);
    pthread_mutex_destroy(&km->lock);
    free(km->data);
    free(km);
}

static void handle_release(struct dxgk_object *obj)
{
    struct dxgk_keyed_mutex *m = (struct dxgk_keyed_mutex *)obj;
    dxgk_object_put(&m->km->obj);
    free(m);
}

/* A released mutex with key `initial` and a copy of the runtime data (one reference, the
 * caller's); NULL without memory. */
static struct km_shared *shared_new(UINT64 initial, const void *data, UINT size)
{
    struct km_shared *km = wddm_calloc(1, sizeof *km);
    void *copy = size ? wddm_malloc(size) : NULL;
    pthread_condattr_t ca;
    bool attr = false, lock = false, cond = false;
    if (km && (!size || copy)) {
        lock = pthread_mutex_init(&km->lock, NULL) == 0;
        attr = pthread_condattr_init(&ca) == 0;
        cond = lock && attr && pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) == 0 &&
               pthread_cond_init(&km->cond, &ca) == 0;
    }
    if (attr)
        pthread_condattr_destroy(&ca);
    if (!cond) {
        if (lock)
            pthread_mutex_destroy(&km->lock);
        free(copy);
        free(km);
        return NULL;
    }
    if (size)
        memcpy(copy, data, size);
    dxgk_object_init(&km->obj, KM_TYPE, shared_release);
    km->key = initial;
    km->data = copy;
    km->data_size = size;
    return km;
}

/* A new handle object on km (it takes a reference on km), inserted in the table unpublished;
 * NULL without memory or a free slot. */
static struct dxgk_keyed_mutex *handle_new(struct km_shared *km, D3DKMT_HANDLE *h)
{
    struct dxgk_keyed_mutex *m = wddm_calloc(1, sizeof *m);
    if (!m)
        return NULL;
    dxgk_object_init(&m->obj, KM_TYPE, handle_release);
    dxgk_object_get(&km->obj);
    m->km = km;
    *h = dxgk_handle_insert(&m->obj);
    if (!*h) {
        dxgk_object_put(&m->obj);
        return NULL;
    }
    return m;
}

/* The handle was removed from the table (its reference is now the caller's, dropped here): it
 * no longer counts as a handle of the mutex, a mutex it owned is abandoned, and every blocked
 * acquirer looks again. */
static void handle_destroyed(struct dxgk_keyed_mutex *m)
{
    struct km_shared *km = m->km;
    pthread_mutex_lock(&km->lock);
    m->dead = true;
    if (m->counted)
        km->handles--;
    m->counted = false;
    if (km->owner == m) {
        km->owner = NULL;
        km->abandoned = true;
    }
    pthread_cond_broadcast(&km->cond);
    pthread_mutex_unlock(&km->lock);
    dxgk_object_put(&m->obj);
}

/* Refuses a non-zero runtime-data size with a NULL buffer (Windows, Wine d3dkmt tests: Open2). */
static bool data_args_valid(const char *fn, const void *data, UINT size)
{
    if (size && !data) {
        dxgk_refuse("%s: PrivateRuntimeDataSize %u with a NULL pPrivateRuntimeData", fn, size);
        return false;
    }
    return true;
}

/* D3DKMTCreateKeyedMutex(2): a released mutex with key `initial` and the creator's handle;
 * with `global`, its global handle. Outputs are written only on success. */
static NTSTATUS create(const char *fn, UINT64 initial, const void *data, UINT size, bool global,
                       D3DKMT_HANDLE *h_out, D3DKMT_HANDLE *global_out)
{
    if (!data_args_valid(fn, data, size))
        return STATUS_INVALID_PARAMETER;
    struct km_shared *km = shared_new(initial, data, size);
    D3DKMT_HANDLE h = 0, g = 0;
    struct dxgk_keyed_mutex *m = km ? handle_new(km, &h) : NULL;
    if (m) {
        m->counted = true; /* nobody can reach km yet: no lock needed */
        km->handles = 1;
        km->nt = !global; /* NtSecuritySharing (Create2): shared by an NT handle instead */
        /* Last: once registered, an opener may find it (the creator's handle already counts). */
        g = global ? dxgk_global_register(&km->obj) : 0;
        km->global = g;
    }
    if (!m || (global && !g)) {
        dxgk_refuse("%s: no memory for the keyed mutex, its handle or its global handle", fn);
        if (m)
            dxgk_object_put(dxgk_handle_remove(h, KM_TYPE));
        if (km)
            dxgk_object_put(&km->obj);
        return STATUS_NO_MEMORY;
    }
    dxgk_handle_publish(h);
    dxgk_object_put(&km->obj); /* the handle object holds its own reference */
    *h_out = h;
    *global_out = g;
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY D3DKMTCreateKeyedMutex(D3DKMT_CREATEKEYEDMUTEX *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTCreateKeyedMutex: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    return create("D3DKMTCreateKeyedMutex", args->InitialValue, NULL, 0, true, &args->hKeyedMutex,
                  &args->hSharedHandle);
}

NTSTATUS APIENTRY D3DKMTCreateKeyedMutex2(D3DKMT_CREATEKEYEDMUTEX2 *args)
{
    static const char fn[] = "D3DKMTCreateKeyedMutex2";
    if (!args) {
        dxgk_refuse("%s: NULL arguments", fn);
        return STATUS_INVALID_PARAMETER;
    }
    if (args->Flags.Reserved) {
        dxgk_refuse("%s: reserved Flags bits 0x%x (only NtSecuritySharing is defined)", fn, args->Flags.Value);
        return STATUS_INVALID_PARAMETER;
    }
    /* NtSecuritySharing: shared through an NT handle (D3DKMTShareObjects), never a global one. */
    return create(fn, args->InitialValue, args->pPrivateRuntimeData, args->PrivateRuntimeDataSize,
                  !args->Flags.NtSecuritySharing, &args->hKeyedMutex, &args->hSharedHandle);
}

/* The last step of an open, under the mutex's lock: counts the new handle, unless the mutex
 * lost its last handle or the opener's buffer is too small. Takes `copy` (the opener's data)
 * as the mutex's data when it has none. Returns the refusal, NULL on success. */
static const char *open_locked(struct km_shared *km, struct dxgk_keyed_mutex *m, UINT size, void **copy)
{
    WDDM_ASSERT_HELD(&km->lock);
    if (!km->handles)
        return "its last handle was destroyed: the global handle names nothing any more";
    if (m->dead)
        return "the new handle was destroyed while it was being opened";
    if (size && size < km->data_size)
        return "PrivateRuntimeDataSize is smaller than the keyed mutex's runtime data";
    if (size && !km->data_size && *copy) {
        km->data = *copy; /* "copied only if the keyed mutex does not already have private data" */
        km->data_size = size;
        *copy = NULL;
    }
    km->handles++;
    m->counted = true;
    return NULL;
}

static NTSTATUS open_from(const char *fn, struct km_shared *km, D3DKMT_HANDLE shared, const void *data, UINT size,
                          D3DKMT_HANDLE *out);

/* D3DKMTOpenKeyedMutex(2): a new handle on the mutex a global handle names. The opener's
 * buffer is only read (Windows leaves it as it was: Wine d3dkmt tests). */
static NTSTATUS open_mutex(const char *fn, D3DKMT_HANDLE shared, const void *data, UINT size, D3DKMT_HANDLE *out)
{
    if (!data_args_valid(fn, data, size))
        return STATUS_INVALID_PARAMETER;
    struct km_shared *km = (struct km_shared *)dxgk_global_get(shared, KM_TYPE);
    if (!km) {
        dxgk_refuse("%s: hSharedHandle 0x%08x is not the global handle of a keyed mutex", fn, shared);
        return STATUS_INVALID_PARAMETER;
    }
    return open_from(fn, km, shared, data, size, out);
}

/* A new handle on km (the caller's reference, taken over); `shared` names it in lines. */
static NTSTATUS open_from(const char *fn, struct km_shared *km, D3DKMT_HANDLE shared, const void *data, UINT size,
                          D3DKMT_HANDLE *out)
{
    pthread_mutex_lock(&km->lock);
    bool need_copy = size && !km->data_size; /* data_size never goes back to 0 */
    pthread_mutex_unlock(&km->lock);
    void *copy = need_copy ? wddm_malloc(size) : NULL;
    D3DKMT_HANDLE h = 0;
    struct dxgk_keyed_mutex *m = (!need_copy || copy) ? handle_new(km, &h) : NULL;
    if (!m) {
        dxgk_refuse("%s: no memory for the new handle", fn);
        free(copy);
        dxgk_object_put(&km->obj);
        return STATUS_NO_MEMORY;
    }
    if (copy)
        memcpy(copy, data, size);
    pthread_mutex_lock(&km->lock);
    const char *why = open_locked(km, m, size, &copy);
    UINT data_size = km->data_size;
    pthread_mutex_unlock(&km->lock);
    free(copy);
    if (why) {
        dxgk_refuse("%s: keyed mutex 0x%08x (runtime data %u bytes, buffer %u): %s", fn, shared, data_size, size, why);
        dxgk_object_put(dxgk_handle_remove(h, KM_TYPE)); /* NULL if a destroy took it */
        dxgk_object_put(&km->obj);
        return STATUS_INVALID_PARAMETER;
    }
    dxgk_handle_publish(h);
    dxgk_object_put(&km->obj); /* the lookup's reference: the handle object holds its own */
    *out = h;
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY D3DKMTOpenKeyedMutex(D3DKMT_OPENKEYEDMUTEX *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTOpenKeyedMutex: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    return open_mutex("D3DKMTOpenKeyedMutex", args->hSharedHandle, NULL, 0, &args->hKeyedMutex);
}

NTSTATUS APIENTRY D3DKMTOpenKeyedMutex2(D3DKMT_OPENKEYEDMUTEX2 *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTOpenKeyedMutex2: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    return open_mutex("D3DKMTOpenKeyedMutex2", args->hSharedHandle, args->pPrivateRuntimeData,
                      args->PrivateRuntimeDataSize, &args->hKeyedMutex);
}

NTSTATUS APIENTRY D3DKMTDestroyKeyedMutex(const D3DKMT_DESTROYKEYEDMUTEX *args)
{
    struct dxgk_object *o = args ? dxgk_handle_remove(args->hKeyedMutex, KM_TYPE) : NULL;
    if (!o) {
        dxgk_refuse("D3DKMTDestroyKeyedMutex: 0x%08x is not a live keyed mutex handle (stale, forged, of another "
                    "kind, or the global handle)", args ? args->hKeyedMutex : 0);
        return STATUS_INVALID_PARAMETER;
    }
    handle_destroyed((struct dxgk_keyed_mutex *)o);
    return STATUS_SUCCESS;
}

/* ---- NT-handle sharing (objects/nt_handle.c) ------------------------------------------------ */

struct km_shared *dxgk_keyed_mutex_nt_hold(D3DKMT_HANDLE h)
{
    struct dxgk_keyed_mutex *m = (struct dxgk_keyed_mutex *)dxgk_handle_get(h, KM_TYPE);
    if (!m)
        return NULL;
    struct km_shared *km = m->km;
    bool held = false;
    pthread_mutex_lock(&km->lock);
    if (km->nt && !m->dead && km->handles) {
        km->handles++; /* the NT object counts as a handle: the mutex opens through it */
        held = true;
    }
    pthread_mutex_unlock(&km->lock);
    if (held)
        dxgk_object_get(&km->obj);
    dxgk_object_put(&m->obj);
    return held ? km : NULL;
}

void dxgk_keyed_mutex_nt_release(struct km_shared *km)
{
    if (!km)
        return;
    pthread_mutex_lock(&km->lock);
    km->handles--;
    pthread_cond_broadcast(&km->cond);
    pthread_mutex_unlock(&km->lock);
    dxgk_object_put(&km->obj);
}

NTSTATUS dxgk_keyed_mutex_nt_open(const char *fn, struct km_shared *km, const void *data, UINT size,
                                  D3DKMT_HANDLE *out)
{
    if (!data_args_valid(fn, data, size))
        return STATUS_INVALID_PARAMETER;
    dxgk_object_get(&km->obj); /* open_from takes it over */
    return open_from(fn, km, 0, data, size, out);
}

void dxgk_keyed_mutexes_destroy_all(void)
{
    struct dxgk_object **objs;
    D3DKMT_HANDLE *hs;
    size_t n = dxgk_handle_collect(KM_TYPE, &objs, &hs);
    for (size_t i = 0; i < n; i++) {
        struct dxgk_object *o = dxgk_handle_remove(hs[i], KM_TYPE);
        if (o)
            handle_destroyed((struct dxgk_keyed_mutex *)o);
        dxgk_object_put(objs[i]);
    }
    free(objs);
    free(hs);
}

/* ---- acquire and release -------------------------------------------------------------------- */

enum km_wait { KM_WAIT_NONE, KM_WAIT_UNTIL, KM_WAIT_FOREVER };

/* pTimeout in Windows' form (100-ns units; negative: relative; positive: absolute system time
 * since 1601, converted once to a CLOCK_MONOTONIC deadline; 0: only look; NULL: no limit). */
static enum km_wait wait_deadline(const LARGE_INTEGER *timeout, struct timespec *deadline)
{
    if (!timeout)
        return KM_WAIT_FOREVER;
    LONGLONG ticks = timeout->QuadPart;
    if (ticks > 0) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        LONGLONG now_ticks = NT_TICKS_1601_TO_1970 + (LONGLONG)now.tv_sec * NT_TICKS_PER_SEC + now.tv_nsec / 100;
        ticks = now_ticks - ticks; /* the time left, as a relative timeout */
        if (ticks >= 0)
            return KM_WAIT_NONE;   /* already passed */
    }
    if (ticks == 0)
        return KM_WAIT_NONE;
    UINT64 rel = 0u - (UINT64)ticks;
    *deadline = wddm_deadline_after(CLOCK_MONOTONIC, rel / NT_TICKS_PER_SEC, (long)(rel % NT_TICKS_PER_SEC) * 100);
    return KM_WAIT_UNTIL;
}

struct acquire_req {
    UINT64 key;
    enum km_wait wait;
    struct timespec deadline;
    UINT64 *fence;                    /* out */
    void *data;                       /* out: the mutex's runtime data (Acquire2), or NULL */
    UINT size;
    const char *why;                  /* out: the refusal, printed after the lock is let go */
};

/* Waits until the mutex is released with r->key, then makes m its owner. */
static NTSTATUS acquire_locked(struct dxgk_keyed_mutex *m, struct acquire_req *r)
{
    struct km_shared *km = m->km;
    WDDM_ASSERT_HELD(&km->lock);
    if (km->owner == m) {
        r->why = "this handle already owns the keyed mutex (no recursive acquire)";
        return STATUS_INVALID_PARAMETER;
    }
    bool waiting = false;
    NTSTATUS st;
    for (;;) {
        if (m->dead) {
            r->why = "the handle was destroyed while it waited";
            st = STATUS_INVALID_PARAMETER;
            break;
        }
        if (km->abandoned) {
            r->why = "abandoned: a handle was destroyed while it owned the keyed mutex";
            st = STATUS_ABANDONED;
            break;
        }
        if (!km->owner && km->key == r->key) {
            if (r->size && r->size < km->data_size) {
                r->why = "PrivateRuntimeDataSize is smaller than the keyed mutex's runtime data";
                st = STATUS_INVALID_PARAMETER; /* not taken: the key stays for another acquirer */
                break;
            }
            km->owner = m;
            *r->fence = km->fence;
            if (r->size && km->data_size)
                memcpy(r->data, km->data, km->data_size);
            st = STATUS_SUCCESS;
            break;
        }
        if (r->wait == KM_WAIT_NONE) {
            st = STATUS_TIMEOUT;
            break;
        }
        if (!waiting) {
            waiting = true;
            km->waiters++;
            pthread_cond_broadcast(&km->cond); /* dxgk_keyed_mutex_await_waiters */
        }
        if (r->wait == KM_WAIT_FOREVER)
            pthread_cond_wait(&km->cond, &km->lock);
        else if (pthread_cond_timedwait(&km->cond, &km->lock, &r->deadline) == ETIMEDOUT)
            r->wait = KM_WAIT_NONE; /* one last look */
    }
    if (waiting)
        km->waiters--;
    return st;
}

static NTSTATUS acquire(const char *fn, D3DKMT_HANDLE h, struct acquire_req *r)
{
    if (!data_args_valid(fn, r->data, r->size))
        return STATUS_INVALID_PARAMETER;
    struct dxgk_keyed_mutex *m = (struct dxgk_keyed_mutex *)dxgk_handle_get(h, KM_TYPE);
    if (!m) {
        dxgk_refuse("%s: invalid keyed mutex handle 0x%08x", fn, h);
        return STATUS_INVALID_PARAMETER;
    }
    pthread_mutex_lock(&m->km->lock);
    NTSTATUS st = acquire_locked(m, r);
    pthread_mutex_unlock(&m->km->lock);
    dxgk_object_put(&m->obj);
    if (r->why)
        dxgk_refuse("%s: keyed mutex 0x%08x, key 0x%llx: %s", fn, h, (unsigned long long)r->key, r->why);
    return st;
}

NTSTATUS APIENTRY D3DKMTAcquireKeyedMutex(D3DKMT_ACQUIREKEYEDMUTEX *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTAcquireKeyedMutex: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    struct acquire_req r = { .key = args->Key, .fence = &args->FenceValue };
    r.wait = wait_deadline(args->pTimeout, &r.deadline);
    return acquire("D3DKMTAcquireKeyedMutex", args->hKeyedMutex, &r);
}

NTSTATUS APIENTRY D3DKMTAcquireKeyedMutex2(D3DKMT_ACQUIREKEYEDMUTEX2 *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTAcquireKeyedMutex2: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    struct acquire_req r = { .key = args->Key, .fence = &args->FenceValue, .data = args->pPrivateRuntimeData,
                             .size = args->PrivateRuntimeDataSize };
    r.wait = wait_deadline(args->pTimeout, &r.deadline);
    return acquire("D3DKMTAcquireKeyedMutex2", args->hKeyedMutex, &r);
}

/* Hands the mutex m owns on under `key` with `fence`; Release2's data (copy: a new buffer for a
 * mutex that has none yet, taken over) becomes the mutex's. Returns the refusal, NULL on success. */
static const char *release_locked(struct dxgk_keyed_mutex *m, UINT64 key, UINT64 fence, const void *data,
                                  UINT size, void **copy)
{
    struct km_shared *km = m->km;
    WDDM_ASSERT_HELD(&km->lock);
    if (km->abandoned)
        return "abandoned: nobody owns it any more";
    if (!km->owner)
        return "the keyed mutex is not acquired: this handle does not own it";
    if (km->owner != m)
        return "another handle owns the keyed mutex: this handle does not own it (only the one that acquired "
               "it releases it)";
    if (size && km->data_size && size < km->data_size)
        return "PrivateRuntimeDataSize is smaller than the keyed mutex's runtime data";
    if (size && !km->data_size && *copy) {
        km->data = *copy;
        km->data_size = size;
        *copy = NULL;
    } else if (size && km->data_size) {
        memcpy(km->data, data, km->data_size);
    }
    km->owner = NULL;
    km->key = key;
    km->fence = fence;
    pthread_cond_broadcast(&km->cond);
    return NULL;
}

static NTSTATUS release(const char *fn, D3DKMT_HANDLE h, UINT64 key, UINT64 fence, const void *data, UINT size)
{
    if (!data_args_valid(fn, data, size))
        return STATUS_INVALID_PARAMETER;
    struct dxgk_keyed_mutex *m = (struct dxgk_keyed_mutex *)dxgk_handle_get(h, KM_TYPE);
    if (!m) {
        dxgk_refuse("%s: invalid keyed mutex handle 0x%08x", fn, h);
        return STATUS_INVALID_PARAMETER;
    }
    struct km_shared *km = m->km;
    pthread_mutex_lock(&km->lock);
    bool need_copy = size && !km->data_size;
    pthread_mutex_unlock(&km->lock);
    void *copy = need_copy ? wddm_malloc(size) : NULL;
    if (need_copy && !copy) {
        dxgk_refuse("%s: no memory for the keyed mutex's runtime data (it stays acquired)", fn);
        dxgk_object_put(&m->obj);
        return STATUS_NO_MEMORY;
    }
    if (copy)
        memcpy(copy, data, size);
    pthread_mutex_lock(&km->lock);
    const char *why = release_locked(m, key, fence, data, size, &copy);
    pthread_mutex_unlock(&km->lock);
    free(copy);
    dxgk_object_put(&m->obj);
    if (why) {
        dxgk_refuse("%s: keyed mutex 0x%08x, key 0x%llx: %s", fn, h, (unsigned long long)key, why);
        return STATUS_INVALID_PARAMETER;
    }
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY D3DKMTReleaseKeyedMutex(D3DKMT_RELEASEKEYEDMUTEX *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTReleaseKeyedMutex: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    return release("D3DKMTReleaseKeyedMutex", args->hKeyedMutex, args->Key, args->FenceValue, NULL, 0);
}

NTSTATUS APIENTRY D3DKMTReleaseKeyedMutex2(D3DKMT_RELEASEKEYEDMUTEX2 *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTReleaseKeyedMutex2: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    return release("D3DKMTReleaseKeyedMutex2", args->hKeyedMutex, args->Key, args->FenceValue,
                   args->pPrivateRuntimeData, args->PrivateRuntimeDataSize);
}

bool dxgk_keyed_mutex_await_waiters(D3DKMT_HANDLE h, UINT n)
{
    struct dxgk_keyed_mutex *m = (struct dxgk_keyed_mutex *)dxgk_handle_get(h, KM_TYPE);
    if (!m)
        return false;
    struct km_shared *km = m->km;
    pthread_mutex_lock(&km->lock);
    while (km->waiters < n)
        pthread_cond_wait(&km->cond, &km->lock);
    pthread_mutex_unlock(&km->lock);
    dxgk_object_put(&m->obj);
    return true;
}
