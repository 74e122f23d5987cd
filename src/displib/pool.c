/* Pool allocation (include/wddm/wdm.h): ExAllocatePool2 and the older calls over the C heap.
 * Every live block is in a search tree by address with its tag and pool, so a free is checked
 * without reading the block (a wrong tag, a foreign or already freed pointer: Windows' BAD_POOL_CALLER),
 * and the live blocks are counted by tag (wddm_pool_outstanding). */
#include "displib/wdk_shim.h"

#include <pthread.h>
#include <search.h>
#include <stdint.h>
#include <stdlib.h>

#define CACHE_LINE 64u
#define SMALL_ALIGNMENT 16u /* what Windows gives a block under a page on 64-bit */

/* The required flags this pool knows; any other required bit fails the allocation. */
#define KNOWN_REQUIRED (POOL_FLAG_USE_QUOTA | POOL_FLAG_UNINITIALIZED | POOL_FLAG_SESSION | POOL_FLAG_CACHE_ALIGNED | \
                        POOL_FLAG_RAISE_ON_FAILURE | POOL_FLAG_NON_PAGED | POOL_FLAG_NON_PAGED_EXECUTE |          \
                        POOL_FLAG_PAGED)
#define POOL_KINDS (POOL_FLAG_NON_PAGED | POOL_FLAG_NON_PAGED_EXECUTE | POOL_FLAG_PAGED)

struct block {
    uintptr_t address;
    ULONG tag;
    int paged;
};

struct tag_count {
    ULONG tag;
    SIZE_T live;
};

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
/* The live blocks, a libc search tree (tsearch) keyed by address. */
static void *blocks;
static size_t block_count;
/* A driver has a few tags: a short array searched in order. */
static struct tag_count *tags;
static size_t tag_count, tag_capacity;

static int by_address(const void *a, const void *b)
{
    uintptr_t x = ((const struct block *)a)->address, y = ((const struct block *)b)->address;
    return (x > y) - (x < y);
}

static struct tag_count *tag_entry_locked(ULONG tag, int create)
{
    for (size_t i = 0; i < tag_count; i++)
        if (tags[i].tag == tag)
            return &tags[i];
    if (!create)
        return NULL;
    if (tag_count == tag_capacity) {
        size_t capacity = tag_capacity ? tag_capacity * 2 : 16;
        struct tag_count *fresh = realloc(tags, capacity * sizeof *fresh);
        if (!fresh)
            return NULL;
        tags = fresh;
        tag_capacity = capacity;
    }
    tags[tag_count] = (struct tag_count){tag, 0};
    return &tags[tag_count++];
}

/* A tag as Windows' tools show it: its bytes in memory order ('dcbA' reads "Abcd"). */
static const char *tag_text(ULONG tag, char buf[8])
{
    for (int i = 0; i < 4; i++) {
        unsigned char c = (unsigned char)(tag >> (8 * i));
        buf[i] = c >= 0x20 && c <= 0x7E ? (char)c : '.';
    }
    buf[4] = 0;
    return buf;
}

static int record(void *p, ULONG tag, int paged)
{
    pthread_mutex_lock(&pool_lock);
    struct tag_count *t = tag_entry_locked(tag, 1);
    struct block *b = t ? malloc(sizeof *b) : NULL;
    int ok = b != NULL;
    if (ok) {
        *b = (struct block){(uintptr_t)p, tag, paged};
        ok = tsearch(b, &blocks, by_address) != NULL;
    }
    if (ok) {
        block_count++;
        t->live++;
    } else {
        free(b);
    }
    pthread_mutex_unlock(&pool_lock);
    return ok;
}

/* The one allocation path. `who` names the caller's service in reports; `raise` is
 * POOL_FLAG_RAISE_ON_FAILURE, which has no exception to raise here. */
static void *allocate(const char *who, int paged, int zero, size_t alignment, SIZE_T size, ULONG tag, int raise)
{
    char irql[16];
    KIRQL level = KeGetCurrentIrql();
    const char *refusal = NULL;
    if (!tag)
        refusal = "a pool tag must not be 0";
    else if (!size)
        refusal = "NumberOfBytes must not be 0";
    else if (size > PTRDIFF_MAX - PAGE_SIZE)
        refusal = "NumberOfBytes is larger than any block";
    else if (level > DISPATCH_LEVEL)
        refusal = "pool may only be allocated at IRQL <= DISPATCH_LEVEL";
    else if (paged && level > APC_LEVEL)
        refusal = "paged pool may only be allocated at IRQL <= APC_LEVEL";
    void *p = NULL;
    if (!refusal) {
        if (size >= PAGE_SIZE)
            alignment = PAGE_SIZE;
        if (posix_memalign(&p, alignment, size) != 0)
            p = NULL;
        if (p && !record(p, tag, paged)) {
            free(p);
            p = NULL;
        }
        if (!p)
            refusal = "out of memory";
        else if (zero)
            memset(p, 0, size);
    }
    if (refusal) {
        char t[8];
        displib_report("%s: %zu bytes, tag '%s' (0x%08x), at %s: %s: NULL%s", who, (size_t)size, tag_text(tag, t),
                       (unsigned)tag, displib_irql_name(level, irql), refusal,
                       raise ? " (POOL_FLAG_RAISE_ON_FAILURE: Windows raises an exception; there is none here)" : "");
    }
    return p;
}

PVOID ExAllocatePool2(POOL_FLAGS Flags, SIZE_T NumberOfBytes, ULONG Tag)
{
    POOL_FLAGS required = Flags & 0xFFFFFFFFull, kind = Flags & POOL_KINDS;
    /* Exactly one kind of pool, and no required bit this pool does not know. */
    if ((required & ~KNOWN_REQUIRED) || !kind || (kind & (kind - 1))) {
        char t[8];
        displib_report("ExAllocatePool2: flags 0x%016llx, tag '%s': name exactly one of POOL_FLAG_NON_PAGED, "
                       "POOL_FLAG_NON_PAGED_EXECUTE, POOL_FLAG_PAGED and no unknown required flag: NULL",
                       (unsigned long long)Flags, tag_text(Tag, t));
        return NULL;
    }
    size_t alignment = (Flags & POOL_FLAG_CACHE_ALIGNED) ? CACHE_LINE : SMALL_ALIGNMENT;
    return allocate("ExAllocatePool2", kind == POOL_FLAG_PAGED, !(Flags & POOL_FLAG_UNINITIALIZED), alignment,
                    NumberOfBytes, Tag, (Flags & POOL_FLAG_RAISE_ON_FAILURE) != 0);
}

static PVOID allocate_typed(const char *who, POOL_TYPE PoolType, SIZE_T NumberOfBytes, ULONG Tag, int zero)
{
    unsigned type = (unsigned)PoolType;
    /* The base types 0..6, their session variants 32..38, and the NX ones. */
    if (!(type <= 6 || (type >= 32 && type <= 38) || type == NonPagedPoolNx || type == NonPagedPoolNxCacheAligned ||
          type == NonPagedPoolSessionNx) ||
        type == DontUseThisType || type == DontUseThisTypeSession) {
        displib_report("%s: pool type %u is not a POOL_TYPE: NULL", who, type);
        return NULL;
    }
    /* The WDK's BASE_POOL_TYPE_MASK: paged types are odd; the cache-aligned ones have bit 2. */
    size_t alignment = (type & 4) ? CACHE_LINE : SMALL_ALIGNMENT;
    return allocate(who, (type & 1) != 0, zero, alignment, NumberOfBytes, Tag, 0);
}

PVOID ExAllocatePoolWithTag(POOL_TYPE PoolType, SIZE_T NumberOfBytes, ULONG Tag)
{
    return allocate_typed("ExAllocatePoolWithTag", PoolType, NumberOfBytes, Tag, 0);
}

PVOID ExAllocatePoolUninitialized(POOL_TYPE PoolType, SIZE_T NumberOfBytes, ULONG Tag)
{
    return allocate_typed("ExAllocatePoolUninitialized", PoolType, NumberOfBytes, Tag, 0);
}

PVOID ExAllocatePoolZero(POOL_TYPE PoolType, SIZE_T NumberOfBytes, ULONG Tag)
{
    return allocate_typed("ExAllocatePoolZero", PoolType, NumberOfBytes, Tag, 1);
}

/* check_tag: ExFreePoolWithTag's Tag must be the block's; ExFreePool takes any. */
static void release(const char *who, PVOID P, ULONG Tag, int check_tag)
{
    char t[8], u[8], irql[16];
    KIRQL level = KeGetCurrentIrql();
    if (!P) {
        displib_report("%s: NULL is not a pool block (BAD_POOL_CALLER on Windows)", who);
        return;
    }
    pthread_mutex_lock(&pool_lock);
    const struct block key = {(uintptr_t)P, 0, 0};
    struct block **found = tfind(&key, &blocks, by_address);
    struct block b = found ? **found : (struct block){0, 0, 0};
    const char *refusal = NULL;
    if (!b.address)
        refusal = "not a live pool block (never allocated, or already freed)";
    else if (check_tag && b.tag != Tag)
        refusal = "the tag is not the one the block was allocated with";
    else if (level > DISPATCH_LEVEL)
        refusal = "pool may only be freed at IRQL <= DISPATCH_LEVEL";
    else if (b.paged && level > APC_LEVEL)
        refusal = "paged pool may only be freed at IRQL <= APC_LEVEL";
    if (!refusal) {
        struct block *node = *found;
        tdelete(&key, &blocks, by_address);
        free(node);
        block_count--;
        tag_entry_locked(b.tag, 0)->live--;
    }
    pthread_mutex_unlock(&pool_lock);
    if (refusal) {
        if (b.address)
            displib_report("%s: block %p of tag '%s'%s%s%s at %s: %s (BAD_POOL_CALLER on Windows): not freed", who, P,
                           tag_text(b.tag, t), check_tag ? ", freed with tag '" : "", check_tag ? tag_text(Tag, u) : "",
                           check_tag ? "'" : "", displib_irql_name(level, irql), refusal);
        else
            displib_report("%s: block %p: %s (BAD_POOL_CALLER on Windows): not freed", who, P, refusal);
        return;
    }
    free(P);
}

VOID ExFreePoolWithTag(PVOID P, ULONG Tag)
{
    release("ExFreePoolWithTag", P, Tag, 1);
}

VOID ExFreePool(PVOID P)
{
    release("ExFreePool", P, 0, 0);
}

SIZE_T wddm_pool_outstanding(ULONG Tag)
{
    pthread_mutex_lock(&pool_lock);
    SIZE_T n = 0;
    if (!Tag)
        n = block_count;
    else {
        const struct tag_count *t = tag_entry_locked(Tag, 0);
        n = t ? t->live : 0;
    }
    pthread_mutex_unlock(&pool_lock);
    return n;
}

void *displib_pool_allocate(const char *who, int paged, SIZE_T size, ULONG tag)
{
    return allocate(who, paged, 1, SMALL_ALIGNMENT, size, tag, 0);
}

ULONG displib_pool_tag_of(const void *p)
{
    pthread_mutex_lock(&pool_lock);
    const struct block key = {(uintptr_t)p, 0, 0};
    struct block **found = p ? tfind(&key, &blocks, by_address) : NULL;
    ULONG tag = found ? (*found)->tag : 0;
    pthread_mutex_unlock(&pool_lock);
    return tag;
}
