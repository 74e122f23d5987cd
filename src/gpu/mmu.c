/* The engines' MMU (WDDM 2.x GpuMmu model, issue 6; page-table format in swgpu_isa.h).
 *
 * A buffer submitted with a root page table runs in that virtual address space: every address
 * it names, and the buffer itself, is translated root entry -> leaf table -> leaf entry ->
 * GPU physical page, page by page (consecutive VA pages need not be physically contiguous).
 * A translation that fails is a page fault (swgpu_pf), which the command processor records
 * like any fault: the rest of the buffer is skipped and its fence still completes
 * (common.md "A GPU access to an unmapped / invalid / read-only-written VA").
 *
 * Each engine caches valid leaf entries in a small fully associative TLB keyed by (root, VA
 * page), replaced round-robin (so a few pages in use never evict each other: what a test sees
 * does not depend on where two VAs happen to hash). Hash chains over the slots find an entry,
 * or its absence, without reading all of them (a streaming copy misses on every new page).
 * Nothing but SWGPU_OP_FLUSH_TLB drops them, so a page-table update the KMD did not follow with
 * a flush leaves the old translation in use, as on hardware (docs/semantics.md §2.1 FLUSH_TLB).
 * The flush runs on the paging engine and must reach every engine: it is logged GPU-wide and
 * each engine applies the log before its next translation (one relaxed-cost atomic load per
 * translation when nothing was flushed). */
#include "gpu/gpu_internal.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>

/* One more on a counter only this engine's thread writes (others read it): a plain add, not a
 * locked read-modify-write, on the path of every translated page. */
static void count_one(_Atomic(UINT64) *c)
{
    atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + 1, memory_order_relaxed);
}

static BYTE *pf_fail(struct swgpu_pf *pf, UINT32 kind, UINT32 level, UINT64 va, UINT64 phys, int write,
                     const char *reason)
{
    pf->kind = kind;
    pf->level = level;
    pf->va = va;
    pf->phys = phys;
    pf->write = write;
    pf->reason = reason;
    return NULL;
}

/* Applies the FLUSH_TLB requests this engine has not seen yet. */
static void tlb_sync(struct swgpu_engine *e)
{
    struct swgpu *gpu = e->gpu;
    if (atomic_load_explicit(&gpu->tlb_flush_seq, memory_order_acquire) == e->tlb_seen)
        return;
    pthread_mutex_lock(&gpu->tlb_lock);
    UINT64 seq = atomic_load_explicit(&gpu->tlb_flush_seq, memory_order_relaxed);
    if (seq - e->tlb_seen > SWGPU_TLB_FLUSH_LOG) {
        memset(e->tlb, 0, sizeof e->tlb); /* too far behind to know which roots: drop all */
        memset(e->tlb_head, 0, sizeof e->tlb_head);
    } else {
        for (UINT64 s = e->tlb_seen + 1; s <= seq; s++) {
            UINT64 root = gpu->tlb_flush_log[s % SWGPU_TLB_FLUSH_LOG];
            for (UINT32 i = 0; i < SWGPU_TLB_ENTRIES; i++)
                if (e->tlb[i].root && (root == 0 || e->tlb[i].root == root))
                    e->tlb[i].root = 0;
        }
    }
    pthread_mutex_unlock(&gpu->tlb_lock);
    e->tlb_seen = seq;
}

void swgpu_mmu_flush(struct swgpu *gpu, UINT64 root)
{
    pthread_mutex_lock(&gpu->tlb_lock);
    UINT64 seq = atomic_load_explicit(&gpu->tlb_flush_seq, memory_order_relaxed) + 1;
    gpu->tlb_flush_log[seq % SWGPU_TLB_FLUSH_LOG] = root & SWGPU_PTE_ADDR_MASK;
    atomic_store_explicit(&gpu->tlb_flush_seq, seq, memory_order_release);
    pthread_mutex_unlock(&gpu->tlb_lock);
}

/* Reads one 8-byte table entry at a GPU physical address; -1 if it is not GPU memory. */
static int read_entry(struct swgpu *gpu, UINT64 addr, UINT64 *out)
{
    UINT64 avail = 0;
    BYTE *p = swgpu_mem_span(gpu, addr, sizeof *out, &avail);
    if (!p || avail < sizeof *out)
        return -1; /* tables are 8-byte aligned inside a page: an entry never straddles pages */
    memcpy(out, p, sizeof *out);
    return 0;
}

static UINT32 tlb_bucket(UINT64 root, UINT64 vpn)
{
    UINT64 h = (vpn ^ (root >> 12)) * 0x9E3779B97F4A7C15ull;
    return (UINT32)(h >> 32) & (SWGPU_TLB_BUCKETS - 1);
}

static struct swgpu_tlb_entry *tlb_find(struct swgpu_engine *e, UINT64 root, UINT64 vpn)
{
    for (UINT32 s = e->tlb_head[tlb_bucket(root, vpn)]; s; s = e->tlb[s - 1].chain) {
        struct swgpu_tlb_entry *t = &e->tlb[s - 1];
        if (t->root == root && t->vpn == vpn) {
            e->tlb_last = s - 1;
            return t;
        }
    }
    return NULL;
}

/* Slot `i` (the round-robin victim) takes (root, vpn): off its old chain, onto the new one. */
static struct swgpu_tlb_entry *tlb_fill(struct swgpu_engine *e, UINT32 i, UINT64 root, UINT64 vpn, UINT64 pte)
{
    struct swgpu_tlb_entry *t = &e->tlb[i];
    if (t->bucket) {
        UINT8 *link = &e->tlb_head[t->bucket - 1];
        while (*link != i + 1)
            link = &e->tlb[*link - 1].chain;
        *link = t->chain;
    }
    UINT32 b = tlb_bucket(root, vpn);
    t->root = root;
    t->vpn = vpn;
    t->pte = pte;
    t->chain = e->tlb_head[b];
    t->bucket = (UINT8)(b + 1);
    e->tlb_head[b] = (UINT8)(i + 1);
    return t;
}

/* The leaf entry mapping `va` (valid), through the TLB; NULL-return convention of pf_fail. */
static int translate(struct swgpu_engine *e, UINT64 root, UINT32 root_entries, UINT64 va, int write, UINT64 *pte_out,
                     struct swgpu_pf *pf)
{
    UINT64 ri = swgpu_va_root_index(va);
    if ((va >> SWGPU_VA_BITS) != 0 || ri >= root_entries) {
        pf_fail(pf, SWGPU_PF_ROOT_RANGE, 0, va, 0, write, "VA outside the root page table (root index >= NumEntries)");
        return -1;
    }
    tlb_sync(e);
    UINT64 vpn = va >> 12;
    struct swgpu_tlb_entry *slot = NULL;
    /* The last hit first: consecutive accesses are mostly to the same page. */
    if (e->tlb[e->tlb_last].root == root && e->tlb[e->tlb_last].vpn == vpn)
        slot = &e->tlb[e->tlb_last];
    else
        slot = tlb_find(e, root, vpn);
    UINT64 pte;
    if (slot) {
        pte = slot->pte;
        count_one(&e->tlb_hits);
    } else {
        count_one(&e->tlb_misses);
        UINT64 re;
        UINT64 re_addr = root + ri * SWGPU_PT_ENTRY_BYTES;
        if (read_entry(e->gpu, re_addr, &re)) {
            pf_fail(pf, SWGPU_PF_BAD_TABLE, 0, va, re_addr, write, "root page table is not GPU memory");
            return -1;
        }
        if (!(re & SWGPU_PTE_VALID)) {
            pf_fail(pf, SWGPU_PF_UNMAPPED, 0, va, 0, write, "root entry not valid: no leaf table maps the VA");
            return -1;
        }
        UINT64 le_addr = (re & SWGPU_PTE_ADDR_MASK) + (UINT64)swgpu_va_leaf_index(va) * SWGPU_PT_ENTRY_BYTES;
        if (read_entry(e->gpu, le_addr, &pte)) {
            pf_fail(pf, SWGPU_PF_BAD_TABLE, 1, va, le_addr, write, "leaf page table is not GPU memory");
            return -1;
        }
        if (!(pte & SWGPU_PTE_VALID)) {
            pf_fail(pf, SWGPU_PF_INVALID_PTE, 1, va, 0, write, "leaf entry not valid: page not mapped or not resident");
            return -1;
        }
        /* Only valid entries are cached: making a page valid needs no flush. */
        slot = tlb_fill(e, e->tlb_next, root, vpn, pte);
        e->tlb_last = e->tlb_next;
        e->tlb_next = (e->tlb_next + 1) % SWGPU_TLB_ENTRIES;
    }
    if (write && (pte & SWGPU_PTE_READONLY)) {
        pf_fail(pf, SWGPU_PF_READ_ONLY, 1, va, 0, write, "write to a read-only page");
        return -1;
    }
    *pte_out = pte;
    return 0;
}

/* IoMmu: `want` bytes at va of the PASID's address space through the platform's IOMMU, page by
 * page, extended over pages that follow in system memory (as an MMU run is). */
static BYTE *iommu_span(struct swgpu_engine *e, UINT32 pasid, UINT64 va, UINT64 want, int write, UINT64 *avail,
                        struct swgpu_pf *pf)
{
    struct swgpu *gpu = e->gpu;
    UINT64 phys;
    int rc = gpu->iommu ? gpu->iommu(gpu->iommu_context, pasid, va, write, &phys) : -1;
    if (rc == -2)
        return pf_fail(pf, SWGPU_PF_IOMMU_READ_ONLY, 0, va, 0, write, "IOMMU: write to a page mapped read-only");
    if (rc)
        return pf_fail(pf, SWGPU_PF_IOMMU_UNMAPPED, 0, va, 0, write,
                       "IOMMU: nothing mapped at the VA for the process (not resident, or not this adapter's)");
    UINT64 n = SWGPU_PAGE_SIZE - (va & (SWGPU_PAGE_SIZE - 1));
    while (n < want) {
        UINT64 next;
        if (va + n < va || gpu->iommu(gpu->iommu_context, pasid, va + n, write, &next) || next != phys + n)
            break;
        n += SWGPU_PAGE_SIZE;
    }
    if (n > want)
        n = want;
    count_one(&e->tlb_misses); /* a walk per page: nothing is cached */
    /* The IOMMU's answer is system memory it let the device reach: not asked again as a
     * physical access (swgpu_mem_span would), only kept off the null guard. */
    if (phys < SWGPU_SYSTEM_NULL_GUARD || phys + n < phys)
        return pf_fail(pf, SWGPU_PF_BAD_TABLE, 0, va, phys, write, "IOMMU: translation outside system memory");
    *avail = n;
    return (BYTE *)(uintptr_t)phys;
}

BYTE *swgpu_mmu_span(struct swgpu_engine *e, UINT64 root, UINT32 root_entries, UINT64 va, UINT64 want, int write,
                     UINT64 *avail, struct swgpu_pf *pf)
{
    UINT64 pte;
    if (want == 0)
        want = 1;
    if (root & SWGPU_ROOT_IOMMU)
        return iommu_span(e, (UINT32)(root & 0xFFFFFFFFu), va, want, write, avail, pf);
    if (translate(e, root, root_entries, va, write, &pte, pf))
        return NULL;
    UINT64 phys = (pte & SWGPU_PTE_ADDR_MASK) | (va & (SWGPU_PAGE_SIZE - 1));
    UINT64 n = SWGPU_PAGE_SIZE - (va & (SWGPU_PAGE_SIZE - 1));
    /* Extend over following VA pages that map the following physical pages, so a copy of a
     * physically contiguous allocation is one memmove; stop at the first that does not. */
    while (n < want) {
        UINT64 next;
        struct swgpu_pf ignore;
        if (va + n < va || translate(e, root, root_entries, va + n, write, &next, &ignore) ||
            (next & SWGPU_PTE_ADDR_MASK) != (pte & SWGPU_PTE_ADDR_MASK) + n + (va & (SWGPU_PAGE_SIZE - 1)))
            break;
        n += SWGPU_PAGE_SIZE;
    }
    if (n > want)
        n = want;
    BYTE *p = swgpu_mem_span(e->gpu, phys, n, avail);
    if (!p) {
        /* The whole run may leave its segment where one page would not: retry the first page. */
        UINT64 first = SWGPU_PAGE_SIZE - (va & (SWGPU_PAGE_SIZE - 1));
        if (first < n)
            p = swgpu_mem_span(e->gpu, phys, first < want ? first : want, avail);
        if (!p)
            return pf_fail(pf, SWGPU_PF_BAD_TABLE, 1, va, phys, write, "leaf entry points outside GPU memory");
    }
    return p;
}

/* The fetch copy holds at least `need` bytes: false (the copy unchanged) without host memory.
 * It grows geometrically, so a long buffer costs a few reallocations. */
static bool fetch_reserve(struct swgpu_engine *e, UINT32 need, UINT32 len)
{
    if (need <= e->fetch_cap)
        return true;
    size_t cap = e->fetch_cap * 2;
    if (cap < need)
        cap = need;
    if (cap > len)
        cap = len;
    BYTE *b = wddm_realloc(e->fetch, cap);
    if (!b)
        return false;
    e->fetch = b;
    e->fetch_cap = cap;
    return true;
}

void swgpu_mmu_fetch(struct swgpu_engine *e, struct swgpu_exec_run *run)
{
    const struct swgpu_ring_entry *en = run->entry;
    UINT32 len = en->end - en->start;
    run->code_start = en->start;
    run->code_end = en->start;
    memset(&run->fetch_fault, 0, sizeof run->fetch_fault);
    /* The copy grows only as far as the buffer translates: a length beyond what the process
     * mapped costs no host memory past the mapped part (fuzz finding gpu-fetch-length: one
     * D3DKMTSubmitCommand naming a one-page buffer with a 2.4 GB length reserved it all). */
    UINT32 done = 0;
    while (done < len) {
        UINT64 avail = 0;
        /* The command processor reads the buffer: a read access (DMA fetch). */
        BYTE *p = swgpu_mmu_span(e, en->root, en->root_entries, en->dma_va + en->start + done, len - done, 0, &avail,
                                 &run->fetch_fault);
        if (!p)
            break;
        if (avail > len - done)
            avail = len - done;
        if (!fetch_reserve(e, done + (UINT32)avail, len)) {
            /* What was fetched runs; the next command faults (reported as a fetch failure). */
            pf_fail(&run->fetch_fault, SWGPU_PF_NONE, 0, en->dma_va + en->start + done, 0, 0,
                    "no host memory to fetch the DMA buffer");
            break;
        }
        memcpy(e->fetch + done, p, avail);
        done += (UINT32)avail;
    }
    run->code = e->fetch;
    run->code_end = en->start + done;
}

void swgpu_mmu_engine_fini(struct swgpu_engine *e)
{
    free(e->fetch);
    e->fetch = NULL;
    e->fetch_cap = 0;
}

UINT64 swgpu_tlb_hits(struct swgpu *gpu, UINT32 engine)
{
    if (!gpu || engine >= gpu->engine_count)
        return 0;
    return atomic_load_explicit(&gpu->engines[engine].tlb_hits, memory_order_relaxed);
}

UINT64 swgpu_tlb_misses(struct swgpu *gpu, UINT32 engine)
{
    if (!gpu || engine >= gpu->engine_count)
        return 0;
    return atomic_load_explicit(&gpu->engines[engine].tlb_misses, memory_order_relaxed);
}
