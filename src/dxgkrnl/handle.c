/* D3DKMT handles: typed, generation-checked, thread-safe (docs/architecture.md "Errors and bad input":
 * a stale, forged or wrong-type handle is an error code, never a use-after-free).
 *
 * A handle is  type (bits 31..28) | generation (bits 27..18) | slot index (bits 17..0).
 * Slot 0 is never used, so no valid handle is 0. Freed slots go to the tail of a FIFO free
 * list: a slot is reused only after every other free slot was, and then with the next
 * generation, so a stale handle needs 1024 reuses of its very slot to alias. The table is
 * process-wide (handles of every adapter) and its lock is a leaf lock held for a few
 * instructions; lookups take an object reference so the object outlives the call.
 *
 * Slots live in fixed chunks that never move (a chunk pointer is set once, under the lock),
 * and each slot's generation, type, liveness and published bit sit in one atomic word. So
 * dxgk_handle_publish (a compare-and-swap) and dxgk_handle_peek_unpublished (the KMD's
 * DxgkCbGetHandleData, which hands out no reference) need no lock: the allocation create path
 * pays two table-lock round trips fewer (W3 benchmark). Everything that takes a reference or
 * changes a slot (insert, remove, get, collect) still holds the lock. */
#include "dxgkrnl/dxgkrnl.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>

#define HANDLE_INDEX_BITS 18u
#define HANDLE_GEN_BITS 10u
#define HANDLE_MAX_SLOTS (1u << HANDLE_INDEX_BITS)
#define HANDLE_GEN_MASK ((1u << HANDLE_GEN_BITS) - 1u)

#define HANDLE_CHUNK_BITS 10u
#define HANDLE_CHUNK (1u << HANDLE_CHUNK_BITS)
#define HANDLE_CHUNKS (HANDLE_MAX_SLOTS / HANDLE_CHUNK)

/* Slot state word: (generation << 6) | type << 2 | live << 1 | published. */
#define SLOT_PUBLISHED 1u
#define SLOT_LIVE 2u
#define SLOT_TYPE_SHIFT 2u
#define SLOT_GEN_SHIFT 6u

struct handle_slot {
    /* NULL = free. Written under lock; read under lock, or without it by peek (acquire,
     * pairing with insert's release: the object is fully built before it is inserted). */
    _Atomic(struct dxgk_object *) obj;
    UINT gen;                /* protected by lock */
    UINT next_free;          /* free-list link (index), 0 = end; protected by lock */
    /* gen, type, live and published in one word. Insert and remove store it under the lock; publish
     * sets SLOT_PUBLISHED without the lock by compare-and-swap against the exact word the
     * insert stored, so a handle removed (generation bumped, live cleared) or a slot reused in
     * the meantime is never published late. Lookups read it under the lock (peek: without). */
    _Atomic UINT state;
};

static struct {
    pthread_mutex_t lock;
    /* Chunks of HANDLE_CHUNK slots; a pointer is stored once (under lock, release) and read
     * without the lock by publish (acquire). The chunks are freed only by fini. */
    struct handle_slot *_Atomic chunk[HANDLE_CHUNKS];
    UINT cap;                 /* protected by lock */
    UINT free_head, free_tail;/* protected by lock */
} table = { .lock = PTHREAD_MUTEX_INITIALIZER };

static struct handle_slot *slot_locked(UINT i)
{
    WDDM_ASSERT_HELD(&table.lock);
    return &atomic_load_explicit(&table.chunk[i >> HANDLE_CHUNK_BITS], memory_order_relaxed)[i & (HANDLE_CHUNK - 1)];
}

static UINT slot_state(UINT gen, enum dxgk_type type, bool live)
{
    return (gen << SLOT_GEN_SHIFT) | ((UINT)type << SLOT_TYPE_SHIFT) | (live ? SLOT_LIVE : 0u);
}

static struct dxgk_object *slot_obj(struct handle_slot *s)
{
    return atomic_load_explicit(&s->obj, memory_order_relaxed);
}

void dxgk_object_init(struct dxgk_object *obj, enum dxgk_type type, void (*release)(struct dxgk_object *))
{
    atomic_init(&obj->refs, 1);
    obj->type = type;
    obj->release = release;
}

void dxgk_object_get(struct dxgk_object *obj)
{
    atomic_fetch_add_explicit(&obj->refs, 1, memory_order_relaxed);
}

void dxgk_object_put(struct dxgk_object *obj)
{
    if (!obj)
        return;
    /* Allocations and resources gain references only through their handle (a lookup under
     * the table lock). The caller owns a reference: if it is the only one, no handle names
     * the object any more (a handle owns a reference of its own), so nobody can take a new
     * one and the last put needs no atomic read-modify-write (the acquire load still orders
     * every other holder's earlier put before the release). Saves one locked instruction per
     * object on the destroy path (W3). Not for adapters: the process list takes references
     * with get-unless-zero, without a handle (objects/adapter.c). */
    bool handle_only = obj->type == DXGK_TYPE_ALLOCATION || obj->type == DXGK_TYPE_RESOURCE;
    if ((handle_only && atomic_load_explicit(&obj->refs, memory_order_acquire) == 1) ||
        atomic_fetch_sub_explicit(&obj->refs, 1, memory_order_acq_rel) == 1)
        obj->release(obj);
}

static D3DKMT_HANDLE encode(UINT index, UINT gen, enum dxgk_type type)
{
    return ((UINT)type << 28) | ((gen & HANDLE_GEN_MASK) << HANDLE_INDEX_BITS) | index;
}

/* A local handle never has a global handle's top bits (dxgkrnl/global_handle.c: bits 31..30
 * set): types stay below 0xC. */
_Static_assert(((UINT)DXGK_TYPE_KEYED_MUTEX << 28 & 0xC0000000u) != 0xC0000000u,
               "the highest handle type would make its handles look global");

/* Puts slot i at the tail of the free list (FIFO: a freed slot is reused last). */
static void free_append_locked(UINT i)
{
    WDDM_ASSERT_HELD(&table.lock);
    if (table.free_tail)
        slot_locked(table.free_tail)->next_free = i;
    else
        table.free_head = i;
    table.free_tail = i;
}

/* One more chunk of slots (the table grows by HANDLE_CHUNK, up to HANDLE_MAX_SLOTS). */
static bool grow_locked(void)
{
    WDDM_ASSERT_HELD(&table.lock);
    if (table.cap >= HANDLE_MAX_SLOTS)
        return false;
    struct handle_slot *c = wddm_calloc(HANDLE_CHUNK, sizeof *c);
    if (!c)
        return false;
    for (UINT k = 0; k < HANDLE_CHUNK; k++)
        atomic_init(&c[k].state, 0);
    atomic_store_explicit(&table.chunk[table.cap >> HANDLE_CHUNK_BITS], c, memory_order_release);
    UINT first = table.cap ? table.cap : 1; /* slot 0 is never used */
    UINT ncap = table.cap + HANDLE_CHUNK;
    table.cap = ncap;
    for (UINT i = first; i < ncap; i++)
        free_append_locked(i);
    return true;
}

static D3DKMT_HANDLE insert_locked(struct dxgk_object *obj)
{
    WDDM_ASSERT_HELD(&table.lock);
    if (!table.free_head && !grow_locked())
        return 0;
    UINT i = table.free_head;
    struct handle_slot *s = slot_locked(i);
    table.free_head = s->next_free;
    if (!table.free_head)
        table.free_tail = 0;
    atomic_store_explicit(&s->obj, obj, memory_order_release);
    atomic_store_explicit(&s->state, slot_state(s->gen, obj->type, true), memory_order_release); /* unpublished */
    s->next_free = 0;
    return encode(i, s->gen, obj->type);
}

D3DKMT_HANDLE dxgk_handle_insert(struct dxgk_object *obj)
{
    pthread_mutex_lock(&table.lock);
    D3DKMT_HANDLE h = insert_locked(obj);
    pthread_mutex_unlock(&table.lock);
    return h;
}

bool dxgk_handle_insert_n(struct dxgk_object *const *objs, UINT n, D3DKMT_HANDLE *out)
{
    pthread_mutex_lock(&table.lock);
    UINT k = 0;
    for (; k < n; k++) {
        out[k] = insert_locked(objs[k]);
        if (!out[k])
            break;
    }
    if (k < n) {
        /* All or nothing: give back the slots taken (with a new generation, as any remove). */
        for (UINT j = 0; j < k; j++)
            (void)dxgk_handle_remove_locked(out[j], objs[j]->type);
        for (UINT j = 0; j < n; j++)
            out[j] = 0;
    }
    pthread_mutex_unlock(&table.lock);
    return k == n;
}

/* Slot of a live handle of that type, or NULL. */
static struct handle_slot *find_locked(D3DKMT_HANDLE h, enum dxgk_type type)
{
    WDDM_ASSERT_HELD(&table.lock);
    UINT index = h & (HANDLE_MAX_SLOTS - 1);
    UINT gen = (h >> HANDLE_INDEX_BITS) & HANDLE_GEN_MASK;
    if ((h >> 28) != (UINT)type || index == 0 || index >= table.cap)
        return NULL;
    struct handle_slot *s = slot_locked(index);
    struct dxgk_object *obj = slot_obj(s);
    if (!obj || (s->gen & HANDLE_GEN_MASK) != gen || obj->type != type)
        return NULL;
    return s;
}

static bool published_locked(struct handle_slot *s)
{
    WDDM_ASSERT_HELD(&table.lock);
    /* Acquire: pairs with publish's release, so a lookup sees every field the creator wrote
     * before publishing. */
    return atomic_load_explicit(&s->state, memory_order_acquire) & SLOT_PUBLISHED;
}

void dxgk_handle_publish(D3DKMT_HANDLE h)
{
    UINT index = h & (HANDLE_MAX_SLOTS - 1);
    UINT gen = (h >> HANDLE_INDEX_BITS) & HANDLE_GEN_MASK;
    if (index == 0)
        return;
    struct handle_slot *c = atomic_load_explicit(&table.chunk[index >> HANDLE_CHUNK_BITS], memory_order_acquire);
    if (!c)
        return;
    struct handle_slot *s = &c[index & (HANDLE_CHUNK - 1)];
    UINT st = atomic_load_explicit(&s->state, memory_order_relaxed);
    /* Only a live, unpublished slot still carrying h's generation; the CAS fails if a remove
     * or a reuse changed the word in between (the full generation is in it, not only the
     * 10 bits h carries). */
    if (!(st & SLOT_LIVE) || (st & SLOT_PUBLISHED) || ((st >> SLOT_GEN_SHIFT) & HANDLE_GEN_MASK) != gen)
        return;
    atomic_compare_exchange_strong_explicit(&s->state, &st, st | SLOT_PUBLISHED, memory_order_release,
                                            memory_order_relaxed);
}


struct dxgk_object *dxgk_handle_remove_locked(D3DKMT_HANDLE h, enum dxgk_type type)
{
    WDDM_ASSERT_HELD(&table.lock);
    struct handle_slot *s = find_locked(h, type);
    if (!s)
        return NULL;
    UINT i = h & (HANDLE_MAX_SLOTS - 1);
    struct dxgk_object *obj = slot_obj(s);
    atomic_store_explicit(&s->obj, NULL, memory_order_relaxed);
    s->gen++;
    atomic_store_explicit(&s->state, slot_state(s->gen, DXGK_TYPE_NONE, false), memory_order_relaxed);
    s->next_free = 0;
    free_append_locked(i);
    return obj;
}

struct dxgk_object *dxgk_handle_remove(D3DKMT_HANDLE h, enum dxgk_type type)
{
    pthread_mutex_lock(&table.lock);
    struct dxgk_object *obj = dxgk_handle_remove_locked(h, type);
    pthread_mutex_unlock(&table.lock);
    return obj;
}

struct dxgk_object *dxgk_handle_get_locked(D3DKMT_HANDLE h, enum dxgk_type type)
{
    WDDM_ASSERT_HELD(&table.lock);
    struct handle_slot *s = find_locked(h, type);
    struct dxgk_object *obj = NULL;
    if (s && published_locked(s)) {
        obj = slot_obj(s);
        dxgk_object_get(obj);
    }
    return obj;
}

struct dxgk_object *dxgk_handle_find_locked(D3DKMT_HANDLE h, enum dxgk_type type)
{
    WDDM_ASSERT_HELD(&table.lock);
    struct handle_slot *s = find_locked(h, type);
    return s && published_locked(s) ? slot_obj(s) : NULL;
}

struct dxgk_object *dxgk_handle_get(D3DKMT_HANDLE h, enum dxgk_type type)
{
    pthread_mutex_lock(&table.lock);
    struct dxgk_object *obj = dxgk_handle_get_locked(h, type);
    pthread_mutex_unlock(&table.lock);
    return obj;
}

void dxgk_handle_lock(void)
{
    pthread_mutex_lock(&table.lock);
}

void dxgk_handle_unlock(void)
{
    pthread_mutex_unlock(&table.lock);
}

const pthread_mutex_t *dxgk_handle_table_lock(void)
{
    return &table.lock;
}

struct dxgk_object *dxgk_handle_peek_unpublished(D3DKMT_HANDLE h, enum dxgk_type type)
{
    /* Lock-free (DxgkCbGetHandleData runs inside every DxgkDdiOpenAllocation): the slot's
     * state word names generation, type and liveness, so the handle is checked without
     * dereferencing anything; obj is re-validated against an unchanged state word. Like the
     * locked form before it, the pointer carries no reference: it is meant for the handle the
     * caller is creating (docs/semantics.md: the KMD sees it during DxgkDdiOpenAllocation). */
    UINT index = h & (HANDLE_MAX_SLOTS - 1);
    UINT gen = (h >> HANDLE_INDEX_BITS) & HANDLE_GEN_MASK;
    if ((h >> 28) != (UINT)type || index == 0)
        return NULL;
    struct handle_slot *c = atomic_load_explicit(&table.chunk[index >> HANDLE_CHUNK_BITS], memory_order_acquire);
    if (!c)
        return NULL;
    struct handle_slot *s = &c[index & (HANDLE_CHUNK - 1)];
    UINT st = atomic_load_explicit(&s->state, memory_order_acquire);
    if (!(st & SLOT_LIVE) || ((st >> SLOT_GEN_SHIFT) & HANDLE_GEN_MASK) != gen ||
        ((st >> SLOT_TYPE_SHIFT) & 0xfu) != (UINT)type)
        return NULL;
    struct dxgk_object *obj = atomic_load_explicit(&s->obj, memory_order_acquire);
    UINT st2 = atomic_load_explicit(&s->state, memory_order_acquire);
    if ((st2 | SLOT_PUBLISHED) != (st | SLOT_PUBLISHED)) /* removed or reused meanwhile */
        return NULL;
    return obj;
}

size_t dxgk_handle_collect(enum dxgk_type type, struct dxgk_object ***out, D3DKMT_HANDLE **handles)
{
    pthread_mutex_lock(&table.lock);
    size_t n = 0;
    for (UINT i = 1; i < table.cap; i++) {
        struct handle_slot *s = slot_locked(i);
        if (slot_obj(s) && slot_obj(s)->type == type && published_locked(s))
            n++;
    }
    *out = n ? wddm_calloc(n, sizeof **out) : NULL;
    *handles = n ? wddm_calloc(n, sizeof **handles) : NULL;
    if (n && (!*out || !*handles)) {
        free(*out);
        free(*handles);
        *out = NULL;
        *handles = NULL;
        n = 0;
    }
    size_t k = 0;
    for (UINT i = 1; i < table.cap && k < n; i++) {
        struct handle_slot *s = slot_locked(i);
        struct dxgk_object *obj = slot_obj(s);
        if (obj && obj->type == type && published_locked(s)) {
            dxgk_object_get(obj);
            (*out)[k] = obj;
            (*handles)[k] = encode(i, s->gen, type);
            k++;
        }
    }
    pthread_mutex_unlock(&table.lock);
    return n;
}

void dxgk_handle_table_fini(void)
{
    pthread_mutex_lock(&table.lock);
    bool empty = true;
    for (UINT i = 1; i < table.cap; i++)
        if (slot_obj(slot_locked(i)))
            empty = false;
    if (empty) {
        for (UINT c = 0; c < HANDLE_CHUNKS; c++) {
            free(atomic_load_explicit(&table.chunk[c], memory_order_relaxed));
            atomic_store_explicit(&table.chunk[c], NULL, memory_order_relaxed);
        }
        table.cap = 0;
        table.free_head = table.free_tail = 0;
    }
    pthread_mutex_unlock(&table.lock);
}
