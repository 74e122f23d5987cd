/* Lookaside lists (include/wddm/wdm.h): entries of one size and tag from the pool, freed entries
 * kept for the next allocation (ExInitializeNPagedLookasideList reference). The kept entries are
 * still pool blocks, so wddm_pool_outstanding counts them until the list is deleted. The live
 * lists are in a table of this file (Windows links them into a system list), so a list used
 * before its initialization or after its deletion is seen without reading it. */
#include "displib/wdk_shim.h"

#include <pthread.h>
#include <stdlib.h>

#define KEPT_AT_MOST 256 /* Windows' MAXIMUM_LOOKASIDE_DEPTH */

struct live_list {
    GENERAL_LOOKASIDE *list;
    int paged;
    SIZE_T out; /* entries allocated from it and not freed back */
};

static pthread_mutex_t lookaside_lock = PTHREAD_MUTEX_INITIALIZER;
static struct live_list *lists;
static size_t list_count, list_capacity;

/* Under lookaside_lock. */
static struct live_list *find_locked(const GENERAL_LOOKASIDE *l)
{
    for (size_t i = 0; i < list_count; i++)
        if (lists[i].list == l)
            return &lists[i];
    return NULL;
}

static void free_entry(GENERAL_LOOKASIDE *l, void *entry)
{
    if (l->Free)
        l->Free(entry);
    else
        ExFreePoolWithTag(entry, l->Tag);
}

/* Under lookaside_lock: gives every kept entry back. */
static void drain_locked(GENERAL_LOOKASIDE *l)
{
    while (l->ListHead.Next) {
        SINGLE_LIST_ENTRY *e = l->ListHead.Next;
        l->ListHead.Next = e->Next;
        free_entry(l, e);
    }
}

static void initialize(const char *who, GENERAL_LOOKASIDE *l, int paged, PALLOCATE_FUNCTION Allocate,
                       PFREE_FUNCTION Free, ULONG Flags, SIZE_T Size, ULONG Tag)
{
    if (!displib_irql_at_most(who, paged ? APC_LEVEL : DISPATCH_LEVEL, ": nothing done"))
        return;
    if (!Size || Size > 0xFFFFFFFFu || !Tag) {
        displib_report("%s: Size %zu and Tag 0x%08x: an entry needs a size and a pool a tag: not initialized", who,
                       (size_t)Size, (unsigned)Tag);
        return;
    }
    pthread_mutex_lock(&lookaside_lock);
    struct live_list *live = find_locked(l);
    int again = live != NULL;
    if (again) {
        drain_locked(l);
    } else if (list_count == list_capacity) {
        size_t capacity = list_capacity ? list_capacity * 2 : 16;
        struct live_list *fresh = realloc(lists, capacity * sizeof *fresh);
        if (!fresh) {
            pthread_mutex_unlock(&lookaside_lock);
            displib_report("%s: out of memory: list %p not initialized", who, (void *)l);
            return;
        }
        lists = fresh;
        list_capacity = capacity;
    }
    if (!live)
        live = &lists[list_count++];
    *live = (struct live_list){l, paged, 0};
    memset(l, 0, sizeof *l);
    l->Depth = l->MaximumDepth = KEPT_AT_MOST;
    /* An entry holds the link while it is kept. */
    l->Size = (ULONG)(Size < sizeof(SINGLE_LIST_ENTRY) ? sizeof(SINGLE_LIST_ENTRY) : Size);
    l->Tag = Tag;
    l->Type = paged ? PagedPool : (Flags & POOL_NX_ALLOCATION) ? NonPagedPoolNx : NonPagedPool;
    l->Allocate = Allocate;
    l->Free = Free;
    l->ListEntry.Flink = l->ListEntry.Blink = &l->ListEntry;
    pthread_mutex_unlock(&lookaside_lock);
    if (again)
        displib_report("%s: list %p is initialized already (Windows corrupts its list of lookaside lists): its "
                       "kept entries freed, initialized again",
                       who, (void *)l);
}

static void *allocate(const char *who, GENERAL_LOOKASIDE *l, int paged)
{
    if (!displib_irql_at_most(who, paged ? APC_LEVEL : DISPATCH_LEVEL, ": nothing done"))
        return NULL;
    pthread_mutex_lock(&lookaside_lock);
    struct live_list *live = find_locked(l);
    int ok = live && live->paged == paged;
    void *entry = NULL;
    if (ok) {
        l->TotalAllocates++;
        if (l->ListHead.Next) {
            SINGLE_LIST_ENTRY *e = l->ListHead.Next;
            l->ListHead.Next = e->Next;
            entry = e;
            live->out++;
        } else {
            l->AllocateMisses++;
        }
    }
    PALLOCATE_FUNCTION custom = ok ? l->Allocate : NULL;
    POOL_TYPE type = ok ? l->Type : NonPagedPool;
    ULONG size = ok ? l->Size : 0, tag = ok ? l->Tag : 0;
    pthread_mutex_unlock(&lookaside_lock);
    if (!ok) {
        displib_report("%s: %p is not a live %s lookaside list (never initialized, or deleted): NULL", who, (void *)l,
                       paged ? "paged" : "non-paged");
        return NULL;
    }
    if (entry)
        return entry;
    /* A miss: a new entry, outside the lock (the driver's Allocate may take its own locks). */
    entry = custom ? custom(type, size, tag) : ExAllocatePoolWithTag(type, size, tag);
    if (entry) {
        pthread_mutex_lock(&lookaside_lock);
        live = find_locked(l);
        if (live)
            live->out++;
        pthread_mutex_unlock(&lookaside_lock);
    }
    return entry;
}

static void give_back(const char *who, GENERAL_LOOKASIDE *l, int paged, void *entry)
{
    if (!displib_irql_at_most(who, paged ? APC_LEVEL : DISPATCH_LEVEL, ": nothing done"))
        return;
    const char *refusal = NULL;
    pthread_mutex_lock(&lookaside_lock);
    struct live_list *live = find_locked(l);
    if (!live || live->paged != paged)
        refusal = "is not a live lookaside list of this kind (never initialized, or deleted)";
    else if (!entry)
        refusal = "an entry is not NULL";
    /* With the pool's own calls the entry must be a live block of the list's tag. */
    else if (!l->Allocate && displib_pool_tag_of(entry) != l->Tag)
        refusal = "the entry is not a live pool block of the list's tag";
    for (SINGLE_LIST_ENTRY *e = refusal ? NULL : l->ListHead.Next; e; e = e->Next)
        if (e == entry)
            refusal = "the entry was freed to it already (a kept entry: Windows corrupts the list)";
    if (!refusal) {
        l->TotalFrees++;
        live->out--;
        /* Kept entries are counted along the list: at most KEPT_AT_MOST. */
        size_t kept = 0;
        for (SINGLE_LIST_ENTRY *e = l->ListHead.Next; e; e = e->Next)
            kept++;
        if (kept < l->Depth) {
            SINGLE_LIST_ENTRY *e = entry;
            e->Next = l->ListHead.Next;
            l->ListHead.Next = e;
        } else {
            l->FreeMisses++;
            free_entry(l, entry);
        }
    }
    pthread_mutex_unlock(&lookaside_lock);
    if (refusal)
        displib_report("%s: list %p, entry %p: %s: nothing done", who, (void *)l, entry, refusal);
}

static void delete_list(const char *who, GENERAL_LOOKASIDE *l, int paged)
{
    if (!displib_irql_at_most(who, paged ? APC_LEVEL : DISPATCH_LEVEL, ": nothing done"))
        return;
    pthread_mutex_lock(&lookaside_lock);
    struct live_list *live = find_locked(l);
    int ok = live && live->paged == paged;
    SIZE_T out = ok ? live->out : 0;
    if (ok) {
        drain_locked(l);
        *live = lists[--list_count];
        l->ListEntry.Flink = l->ListEntry.Blink = NULL;
    }
    pthread_mutex_unlock(&lookaside_lock);
    if (!ok)
        displib_report("%s: %p is not a live %s lookaside list (never initialized, or deleted already): nothing "
                       "done",
                       who, (void *)l, paged ? "paged" : "non-paged");
    else if (out)
        displib_report("%s: list %p (tag 0x%08x) is deleted with %zu entries allocated from it and not freed back: "
                       "they stay in the pool",
                       who, (void *)l, (unsigned)l->Tag, (size_t)out);
}

VOID ExInitializeNPagedLookasideList(PNPAGED_LOOKASIDE_LIST Lookaside, PALLOCATE_FUNCTION Allocate,
                                     PFREE_FUNCTION Free, ULONG Flags, SIZE_T Size, ULONG Tag, USHORT Depth)
{
    (void)Depth; /* reserved: Windows sizes the list itself */
    initialize("ExInitializeNPagedLookasideList", &Lookaside->L, 0, Allocate, Free, Flags, Size, Tag);
}

PVOID ExAllocateFromNPagedLookasideList(PNPAGED_LOOKASIDE_LIST Lookaside)
{
    return allocate("ExAllocateFromNPagedLookasideList", &Lookaside->L, 0);
}

VOID ExFreeToNPagedLookasideList(PNPAGED_LOOKASIDE_LIST Lookaside, PVOID Entry)
{
    give_back("ExFreeToNPagedLookasideList", &Lookaside->L, 0, Entry);
}

VOID ExDeleteNPagedLookasideList(PNPAGED_LOOKASIDE_LIST Lookaside)
{
    delete_list("ExDeleteNPagedLookasideList", &Lookaside->L, 0);
}

VOID ExInitializePagedLookasideList(PPAGED_LOOKASIDE_LIST Lookaside, PALLOCATE_FUNCTION Allocate,
                                    PFREE_FUNCTION Free, ULONG Flags, SIZE_T Size, ULONG Tag, USHORT Depth)
{
    (void)Depth;
    initialize("ExInitializePagedLookasideList", &Lookaside->L, 1, Allocate, Free, Flags, Size, Tag);
}

PVOID ExAllocateFromPagedLookasideList(PPAGED_LOOKASIDE_LIST Lookaside)
{
    return allocate("ExAllocateFromPagedLookasideList", &Lookaside->L, 1);
}

VOID ExFreeToPagedLookasideList(PPAGED_LOOKASIDE_LIST Lookaside, PVOID Entry)
{
    give_back("ExFreeToPagedLookasideList", &Lookaside->L, 1, Entry);
}

VOID ExDeletePagedLookasideList(PPAGED_LOOKASIDE_LIST Lookaside)
{
    delete_list("ExDeletePagedLookasideList", &Lookaside->L, 1);
}
