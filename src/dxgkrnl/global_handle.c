/* Global D3DKMT handles: the process-wide names of shared kernel objects (a Shared
 * synchronization object's Info.SharedHandle, a keyed mutex's hSharedHandle, a shared
 * resource's hGlobalShare). Any device opens the object by it (D3DKMTOpenSynchronizationObject,
 * D3DKMTOpenKeyedMutex, D3DKMTOpenResource), and it names nothing once the last local handle
 * on the object is gone: Windows' rule, observed on Windows by Wine's d3dkmt tests.
 *
 * One namespace for every kind, in Windows' form: bits 31..30 set (never a local handle of
 * ours, whose top nibble is its type, dxgkrnl/handle.c) and the low six bits 2 (a local
 * handle's are 0 on Windows), the number in between. Numbers are not reused while the process
 * lives: 2^24 shares before the counter wraps, so a stale global handle never names a newer
 * object in any realistic run.
 *
 * The registry holds no reference: an object unregisters itself from its release function,
 * and a lookup takes its reference with get-unless-zero under the registry lock, so it never
 * revives an object whose last reference is being dropped. */
#include "dxgkrnl/dxgkrnl.h"
#include "common/alloc.h"

#include <stdlib.h>

#define GLOBAL_HANDLE_TAG 0xC0000000u
#define GLOBAL_HANDLE_LOW 0x2u
#define GLOBAL_HANDLE_SHIFT 6u
#define GLOBAL_NUMBER_MASK ((GLOBAL_HANDLE_TAG - 1u) >> GLOBAL_HANDLE_SHIFT)

struct global_entry {
    D3DKMT_HANDLE handle;
    struct dxgk_object *obj;          /* no reference (see above) */
    struct global_entry *next;
};

static struct {
    pthread_mutex_t lock;             /* a leaf: nothing is taken while it is held */
    struct global_entry *list;        /* lock */
    UINT next;                        /* lock */
} globals = { .lock = PTHREAD_MUTEX_INITIALIZER, .next = 1 };

D3DKMT_HANDLE dxgk_global_handle_new(void)
{
    pthread_mutex_lock(&globals.lock);
    UINT n = globals.next++ & GLOBAL_NUMBER_MASK;
    if (!n)
        n = globals.next++ & GLOBAL_NUMBER_MASK;
    pthread_mutex_unlock(&globals.lock);
    return GLOBAL_HANDLE_TAG | (n << GLOBAL_HANDLE_SHIFT) | GLOBAL_HANDLE_LOW;
}

bool dxgk_global_handle_is(D3DKMT_HANDLE h)
{
    return (h & GLOBAL_HANDLE_TAG) == GLOBAL_HANDLE_TAG && (h & ((1u << GLOBAL_HANDLE_SHIFT) - 1u)) == GLOBAL_HANDLE_LOW;
}

D3DKMT_HANDLE dxgk_global_register(struct dxgk_object *obj)
{
    struct global_entry *e = wddm_calloc(1, sizeof *e);
    if (!e)
        return 0;
    e->handle = dxgk_global_handle_new();
    e->obj = obj;
    pthread_mutex_lock(&globals.lock);
    e->next = globals.list;
    globals.list = e;
    pthread_mutex_unlock(&globals.lock);
    return e->handle;
}

void dxgk_global_unregister(D3DKMT_HANDLE h)
{
    if (!h)
        return;
    pthread_mutex_lock(&globals.lock);
    struct global_entry **pp = &globals.list, *e = NULL;
    while (*pp && (*pp)->handle != h)
        pp = &(*pp)->next;
    if (*pp) {
        e = *pp;
        *pp = e->next;
    }
    pthread_mutex_unlock(&globals.lock);
    free(e);
}

struct dxgk_object *dxgk_global_get(D3DKMT_HANDLE h, enum dxgk_type type)
{
    if (!dxgk_global_handle_is(h))
        return NULL;
    struct dxgk_object *found = NULL;
    pthread_mutex_lock(&globals.lock);
    for (struct global_entry *e = globals.list; e; e = e->next) {
        if (e->handle != h)
            continue;
        UINT refs = atomic_load_explicit(&e->obj->refs, memory_order_relaxed);
        while (e->obj->type == type && refs &&
               !atomic_compare_exchange_weak_explicit(&e->obj->refs, &refs, refs + 1, memory_order_acquire,
                                                      memory_order_relaxed))
            ;
        if (e->obj->type == type && refs)
            found = e->obj;
        break;
    }
    pthread_mutex_unlock(&globals.lock);
    return found;
}
