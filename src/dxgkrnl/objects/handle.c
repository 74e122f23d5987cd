/* D3DKMT handles: typed, generation-checked, thread-safe (DESIGN.md "Errors and bad input":
 * a stale, forged or wrong-type handle is an error code, never a use-after-free).
 *
 * A handle is  type (bits 31..28) | generation (bits 27..18) | slot index (bits 17..0).
 * Slot 0 is never used, so no valid handle is 0. Freed slots go to the tail of a FIFO free
 * list: a slot is reused only after every other free slot was, and then with the next
 * generation, so a stale handle needs 1024 reuses of its very slot to alias. The table is
 * process-wide (handles of every adapter) and its lock is a leaf lock held for a few
 * instructions; lookups take an object reference so the object outlives the call. */
#include "dxgkrnl/dxgkrnl.h"

#include <stdlib.h>
#include <string.h>

#define HANDLE_INDEX_BITS 18u
#define HANDLE_GEN_BITS 10u
#define HANDLE_MAX_SLOTS (1u << HANDLE_INDEX_BITS)
#define HANDLE_GEN_MASK ((1u << HANDLE_GEN_BITS) - 1u)

struct handle_slot {
    struct dxgk_object *obj; /* NULL = free */
    UINT gen;
    UINT next_free;          /* free-list link (index), 0 = end */
    bool published;
};

static struct {
    pthread_mutex_t lock;
    struct handle_slot *slot; /* protected by lock */
    UINT cap;                 /* protected by lock */
    UINT free_head, free_tail;/* protected by lock */
} table = { .lock = PTHREAD_MUTEX_INITIALIZER };

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
    if (obj && atomic_fetch_sub_explicit(&obj->refs, 1, memory_order_acq_rel) == 1)
        obj->release(obj);
}

static D3DKMT_HANDLE encode(UINT index, UINT gen, enum dxgk_type type)
{
    return ((UINT)type << 28) | ((gen & HANDLE_GEN_MASK) << HANDLE_INDEX_BITS) | index;
}

static bool grow_locked(void)
{
    UINT ncap = table.cap ? table.cap * 2 : 1024;
    if (ncap > HANDLE_MAX_SLOTS)
        ncap = HANDLE_MAX_SLOTS;
    if (ncap <= table.cap)
        return false;
    struct handle_slot *s = realloc(table.slot, ncap * sizeof *s);
    if (!s)
        return false;
    memset(s + table.cap, 0, (ncap - table.cap) * sizeof *s);
    UINT first = table.cap ? table.cap : 1; /* slot 0 is never used */
    for (UINT i = first; i < ncap; i++) {
        s[i].next_free = 0;
        if (table.free_tail)
            s[table.free_tail].next_free = i;
        else
            table.free_head = i;
        table.free_tail = i;
    }
    table.slot = s;
    table.cap = ncap;
    return true;
}

D3DKMT_HANDLE dxgk_handle_insert(struct dxgk_object *obj)
{
    pthread_mutex_lock(&table.lock);
    if (!table.free_head && !grow_locked()) {
        pthread_mutex_unlock(&table.lock);
        return 0;
    }
    UINT i = table.free_head;
    struct handle_slot *s = &table.slot[i];
    table.free_head = s->next_free;
    if (!table.free_head)
        table.free_tail = 0;
    s->obj = obj;
    s->published = false;
    s->next_free = 0;
    D3DKMT_HANDLE h = encode(i, s->gen, obj->type);
    pthread_mutex_unlock(&table.lock);
    return h;
}

/* Slot of a live handle of that type, or NULL. */
static struct handle_slot *find_locked(D3DKMT_HANDLE h, enum dxgk_type type)
{
    UINT index = h & (HANDLE_MAX_SLOTS - 1);
    UINT gen = (h >> HANDLE_INDEX_BITS) & HANDLE_GEN_MASK;
    if ((h >> 28) != (UINT)type || index == 0 || index >= table.cap)
        return NULL;
    struct handle_slot *s = &table.slot[index];
    if (!s->obj || (s->gen & HANDLE_GEN_MASK) != gen || s->obj->type != type)
        return NULL;
    return s;
}

void dxgk_handle_publish(D3DKMT_HANDLE h)
{
    pthread_mutex_lock(&table.lock);
    struct handle_slot *s = find_locked(h, (enum dxgk_type)(h >> 28));
    if (s)
        s->published = true;
    pthread_mutex_unlock(&table.lock);
}

struct dxgk_object *dxgk_handle_remove(D3DKMT_HANDLE h, enum dxgk_type type)
{
    pthread_mutex_lock(&table.lock);
    struct handle_slot *s = find_locked(h, type);
    struct dxgk_object *obj = NULL;
    if (s) {
        UINT i = (UINT)(s - table.slot);
        obj = s->obj;
        s->obj = NULL;
        s->published = false;
        s->gen++;
        s->next_free = 0;
        if (table.free_tail)
            table.slot[table.free_tail].next_free = i;
        else
            table.free_head = i;
        table.free_tail = i;
    }
    pthread_mutex_unlock(&table.lock);
    return obj;
}

struct dxgk_object *dxgk_handle_get(D3DKMT_HANDLE h, enum dxgk_type type)
{
    pthread_mutex_lock(&table.lock);
    struct handle_slot *s = find_locked(h, type);
    struct dxgk_object *obj = NULL;
    if (s && s->published) {
        obj = s->obj;
        dxgk_object_get(obj);
    }
    pthread_mutex_unlock(&table.lock);
    return obj;
}

struct dxgk_object *dxgk_handle_peek_unpublished(D3DKMT_HANDLE h, enum dxgk_type type)
{
    pthread_mutex_lock(&table.lock);
    struct handle_slot *s = find_locked(h, type);
    struct dxgk_object *obj = s ? s->obj : NULL;
    pthread_mutex_unlock(&table.lock);
    return obj;
}

size_t dxgk_handle_collect(enum dxgk_type type, struct dxgk_object ***out, D3DKMT_HANDLE **handles)
{
    pthread_mutex_lock(&table.lock);
    size_t n = 0;
    for (UINT i = 1; i < table.cap; i++)
        if (table.slot[i].obj && table.slot[i].obj->type == type && table.slot[i].published)
            n++;
    *out = n ? calloc(n, sizeof **out) : NULL;
    *handles = n ? calloc(n, sizeof **handles) : NULL;
    if (n && (!*out || !*handles)) {
        free(*out);
        free(*handles);
        *out = NULL;
        *handles = NULL;
        n = 0;
    }
    size_t k = 0;
    for (UINT i = 1; i < table.cap && k < n; i++) {
        struct handle_slot *s = &table.slot[i];
        if (s->obj && s->obj->type == type && s->published) {
            dxgk_object_get(s->obj);
            (*out)[k] = s->obj;
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
        if (table.slot[i].obj)
            empty = false;
    if (empty) {
        free(table.slot);
        table.slot = NULL;
        table.cap = 0;
        table.free_head = table.free_tail = 0;
    }
    pthread_mutex_unlock(&table.lock);
}
