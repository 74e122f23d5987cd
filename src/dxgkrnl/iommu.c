/* The machine's IOMMU, which the kernel programs (the IoMmu model of WDDM 2.0; docs/semantics.md
 * §9.6, MicrosoftDocs "IoMmu model"). In that model the CPU and the GPU share the process's
 * address space: VidMm registers the process with the IOMMU and gets a PASID for it, and a
 * device's DMA request names (PASID, virtual address). The IOMMU translates it through tables
 * only the kernel writes, so the GPU reaches exactly the system memory VidMm mapped for that
 * process on that device, nothing else.
 *
 * Here a PASID names one domain: a four-level table of 512 entries a level over 48 bits of
 * virtual address (the x86-64 layout: 9 bits a level above the 4 KiB page), bound to the one
 * device (PDEVICE_OBJECT) it was created for. VidMm maps and unmaps pages under the domain's
 * lock; WddmIoMmuTranslate (a device's engine threads) walks the tables with acquire loads and
 * no lock. Tables are created on the first page mapped under them and freed only with the
 * domain, which the kernel destroys once the device can no longer use it (adapter stop, after
 * the engines are idle), so a walk never reads freed memory. Nothing caches a translation, so
 * an unmap is seen by the next access: there is no IOTLB to invalidate. */
#include "dxgkrnl/dxgkrnl.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>

#define IOMMU_ENTRIES 512u
#define IOMMU_LEVELS 4u
#define IOMMU_VA_BITS 48u
#define IOMMU_MAX_PASID 4096u /* PASIDs 1..4095; 0 means "none" and is never handed out */
#define IOMMU_VALID 1ull
#define IOMMU_WRITE 2ull
#define IOMMU_ADDR_MASK ((((UINT64)1 << 52) - 1) & ~(UINT64)(DXGK_PAGE_SIZE - 1))
/* An isolation domain's leaf counts the kernel's mappings of its page (bits 52..62, the count less
 * one): a page two users map stays mapped until both unmapped it. */
#define IOMMU_USES_SHIFT 52
#define IOMMU_USES_MAX 0x7ffull

struct iommu_table {
    _Atomic(UINT64) e[IOMMU_ENTRIES]; /* next table's host address, or the page's, | flags */
};

struct iommu_domain {
    PDEVICE_OBJECT pdo;               /* the only device whose requests it translates; immutable */
    pthread_mutex_t lock;             /* serialises map / unmap (table creation) */
    struct iommu_table *root;
};

static pthread_mutex_t pasid_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(struct iommu_domain *) domains[IOMMU_MAX_PASID];
/* IOMMU-based GPU isolation (WDDM 2.4): each isolated adapter has a domain of its own for its
 * device's requests without a PASID, its physical accesses, remapped 1:1 (the logical address is
 * the physical one). It holds the pages the kernel hands out for that adapter's use (its DMA,
 * command and paging buffers, its allocations' backing stores and section views, its frame buffer
 * save area, its KMD's own memory, the cross-adapter resources it opened, the dummy page), so one
 * adapter's GPU cannot reach another's. Made at the adapter's start, freed after its stop. */
static UINT index_at(UINT64 va, UINT level) /* level 3 = the root, 0 = the leaf table */
{
    return (UINT)((va >> (12 + 9 * level)) & (IOMMU_ENTRIES - 1));
}

static struct iommu_table *table_new(void)
{
    struct iommu_table *t = wddm_aligned_alloc(DXGK_PAGE_SIZE, sizeof *t);
    if (t)
        memset(t, 0, sizeof *t);
    return t;
}

static void table_free(struct iommu_table *t, UINT level)
{
    if (!t)
        return;
    for (UINT i = 0; level > 0 && i < IOMMU_ENTRIES; i++) {
        UINT64 e = atomic_load_explicit(&t->e[i], memory_order_relaxed);
        if (e & IOMMU_VALID)
            table_free((struct iommu_table *)(uintptr_t)(e & IOMMU_ADDR_MASK), level - 1);
    }
    free(t);
}

NTSTATUS dxgk_iommu_domain_create(PDEVICE_OBJECT pdo, ULONG *pasid)
{
    struct iommu_domain *d = wddm_calloc(1, sizeof *d);
    if (!d || !(d->root = table_new())) {
        free(d);
        return STATUS_NO_MEMORY;
    }
    d->pdo = pdo;
    pthread_mutex_init(&d->lock, NULL);
    pthread_mutex_lock(&pasid_lock);
    ULONG id = 0;
    for (ULONG i = 1; i < IOMMU_MAX_PASID && !id; i++)
        if (!atomic_load_explicit(&domains[i], memory_order_relaxed))
            id = i;
    if (id)
        atomic_store_explicit(&domains[id], d, memory_order_release);
    pthread_mutex_unlock(&pasid_lock);
    if (!id) {
        dxgk_refuse("IOMMU: all %u PASIDs are in use", IOMMU_MAX_PASID - 1);
        table_free(d->root, IOMMU_LEVELS - 1);
        pthread_mutex_destroy(&d->lock);
        free(d);
        return STATUS_INSUFFICIENT_RESOURCES;
    }
    *pasid = id;
    return STATUS_SUCCESS;
}

void dxgk_iommu_domain_destroy(ULONG pasid)
{
    if (!pasid || pasid >= IOMMU_MAX_PASID)
        return;
    pthread_mutex_lock(&pasid_lock);
    struct iommu_domain *d = atomic_exchange_explicit(&domains[pasid], NULL, memory_order_acq_rel);
    pthread_mutex_unlock(&pasid_lock);
    if (!d)
        return;
    table_free(d->root, IOMMU_LEVELS - 1);
    pthread_mutex_destroy(&d->lock);
    free(d);
}

static struct iommu_domain *domain_of(ULONG pasid)
{
    return pasid && pasid < IOMMU_MAX_PASID ? atomic_load_explicit(&domains[pasid], memory_order_acquire) : NULL;
}

/* The leaf entry of va, its tables created on the way when `create` (under the domain's lock);
 * NULL if absent (or no memory). Without `create` it only reads, with acquire loads: the
 * devices' lock-free walk (walk below). */
static _Atomic(UINT64) *leaf_entry(struct iommu_domain *d, UINT64 va, bool create)
{
    struct iommu_table *t = d->root;
    for (UINT level = IOMMU_LEVELS - 1; level > 0; level--) {
        _Atomic(UINT64) *slot = &t->e[index_at(va, level)];
        UINT64 e = atomic_load_explicit(slot, memory_order_acquire);
        if (!(e & IOMMU_VALID)) {
            struct iommu_table *n = create ? table_new() : NULL;
            if (!n)
                return NULL;
            /* Zeroed before it is published: a walker sees either no table or an empty one. */
            e = (UINT64)(uintptr_t)n | IOMMU_VALID;
            atomic_store_explicit(slot, e, memory_order_release);
        }
        t = (struct iommu_table *)(uintptr_t)(e & IOMMU_ADDR_MASK);
    }
    return &t->e[index_at(va, 0)];
}

NTSTATUS dxgk_iommu_map(ULONG pasid, UINT64 va, const void *host, UINT64 pages, bool writable)
{
    struct iommu_domain *d = domain_of(pasid);
    if (!d || va % DXGK_PAGE_SIZE || (uintptr_t)host % DXGK_PAGE_SIZE ||
        va + pages * DXGK_PAGE_SIZE > (1ull << IOMMU_VA_BITS))
        return STATUS_INVALID_PARAMETER;
    NTSTATUS st = STATUS_SUCCESS;
    pthread_mutex_lock(&d->lock);
    for (UINT64 i = 0; i < pages; i++) {
        _Atomic(UINT64) *leaf = leaf_entry(d, va + i * DXGK_PAGE_SIZE, true);
        if (!leaf) {
            st = STATUS_NO_MEMORY;
            break;
        }
        UINT64 page = (UINT64)(uintptr_t)host + i * DXGK_PAGE_SIZE;
        atomic_store_explicit(leaf, page | IOMMU_VALID | (writable ? IOMMU_WRITE : 0), memory_order_release);
    }
    pthread_mutex_unlock(&d->lock);
    return st;
}

void dxgk_iommu_unmap(ULONG pasid, UINT64 va, UINT64 pages)
{
    struct iommu_domain *d = domain_of(pasid);
    if (!d)
        return;
    pthread_mutex_lock(&d->lock);
    for (UINT64 i = 0; i < pages; i++) {
        _Atomic(UINT64) *leaf = leaf_entry(d, va + i * DXGK_PAGE_SIZE, false);
        if (leaf)
            atomic_store_explicit(leaf, 0, memory_order_release);
    }
    pthread_mutex_unlock(&d->lock);
}

NTSTATUS dxgk_iommu_isolation_start(struct dxgk_adapter *a)
{
    struct iommu_domain *d = wddm_calloc(1, sizeof *d);
    if (!d || !(d->root = table_new())) {
        free(d);
        return STATUS_NO_MEMORY;
    }
    d->pdo = &a->pdo;
    pthread_mutex_init(&d->lock, NULL);
    atomic_store_explicit(&a->iommu_kernel, d, memory_order_release);
    return STATUS_SUCCESS;
}

/* After the adapter stopped: its engines no longer walk the domain. */
void dxgk_iommu_isolation_stop(struct dxgk_adapter *a)
{
    struct iommu_domain *d = atomic_exchange_explicit(&a->iommu_kernel, NULL, memory_order_acq_rel);
    if (!d)
        return;
    table_free(d->root, IOMMU_LEVELS - 1);
    pthread_mutex_destroy(&d->lock);
    free(d);
}

/* The walk of a domain: the leaf of va, or 0 with *st set. */
static UINT64 walk(struct iommu_domain *d, UINT64 va, NTSTATUS *st)
{
    *st = STATUS_ACCESS_VIOLATION;
    if (!d || va >> IOMMU_VA_BITS)
        return 0;
    _Atomic(UINT64) *leaf = leaf_entry(d, va, false);
    UINT64 e = leaf ? atomic_load_explicit(leaf, memory_order_acquire) : 0;
    if (e & IOMMU_VALID)
        *st = STATUS_SUCCESS;
    return e;
}

/* One use more (map) or less of each page of [first, end) (domain lock held); false if a table
 * could not be made for a page to map (nothing is changed then). */
static bool kernel_uses_locked(struct iommu_domain *d, UINT64 first, UINT64 end, bool map)
{
    for (UINT64 page = first; page < end; page += DXGK_PAGE_SIZE) {
        _Atomic(UINT64) *leaf = leaf_entry(d, page, map);
        if (!leaf && map) { /* no memory for a table: the uses taken so far are given back */
            kernel_uses_locked(d, first, page, false);
            return false;
        }
        if (!leaf)
            continue;
        UINT64 e = atomic_load_explicit(leaf, memory_order_relaxed);
        UINT64 uses = (e & IOMMU_VALID) ? (e >> IOMMU_USES_SHIFT) + 1 : 0;
        if (map && uses <= IOMMU_USES_MAX)
            uses++; /* past the maximum the page stays mapped for good: never unmapped under a user */
        else if (!map && uses && uses <= IOMMU_USES_MAX)
            uses--;
        atomic_store_explicit(leaf, uses ? page | IOMMU_VALID | IOMMU_WRITE | ((uses - 1) << IOMMU_USES_SHIFT) : 0,
                              memory_order_release);
    }
    return true;
}

bool dxgk_iommu_kernel_map(struct dxgk_adapter *a, const void *p, size_t bytes, bool map)
{
    struct iommu_domain *d = a ? atomic_load_explicit(&a->iommu_kernel, memory_order_acquire) : NULL;
    if (!d || !p)
        return true;
    pthread_mutex_lock(&d->lock);
    bool ok = kernel_uses_locked(d, (uintptr_t)p & IOMMU_ADDR_MASK, (uintptr_t)p + bytes, map);
    pthread_mutex_unlock(&d->lock);
    return ok;
}

NTSTATUS WddmIoMmuTranslate(PDEVICE_OBJECT pdo, ULONG Pasid, UINT64 VirtualAddress, BOOLEAN Write,
                            UINT64 *PhysicalAddress)
{
    if (!Pasid && pdo && pdo->adapter && PhysicalAddress) {
        /* A request without a PASID: a physical access. Without isolation it reaches any page. */
        if (!pdo->adapter->isolated) {
            *PhysicalAddress = VirtualAddress;
            return STATUS_SUCCESS;
        }
        NTSTATUS st;
        UINT64 e = walk(atomic_load_explicit(&pdo->adapter->iommu_kernel, memory_order_acquire), VirtualAddress, &st);
        if (NT_SUCCESS(st))
            *PhysicalAddress = (e & IOMMU_ADDR_MASK) | (VirtualAddress & (DXGK_PAGE_SIZE - 1));
        return st;
    }
    struct iommu_domain *d = domain_of(Pasid);
    if (!d || !pdo || d->pdo != pdo || !PhysicalAddress)
        return STATUS_INVALID_PARAMETER; /* another device's PASID is no address space of this one */
    NTSTATUS st;
    UINT64 e = walk(d, VirtualAddress, &st);
    if (!NT_SUCCESS(st))
        return st;
    if (Write && !(e & IOMMU_WRITE))
        return STATUS_ACCESS_DENIED;
    *PhysicalAddress = (e & IOMMU_ADDR_MASK) | (VirtualAddress & (DXGK_PAGE_SIZE - 1));
    DXGK_COUNT(pdo->adapter, iommu_translations, 1);
    return STATUS_SUCCESS;
}
