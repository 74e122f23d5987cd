/* The software GPU's MMU (src/gpu/mmu.c; issue 6, common.md "GpuMmu caps", page-table format in
 * swgpu_isa.h): a buffer submitted with a root page table runs in that virtual address space.
 * Every address of COPY / FILL / WRITE / FENCE and the DMA buffer itself are translated page by
 * page through two levels; each fault kind is recorded with its VA, direction and level and
 * ends the buffer with its fence completed; translations are cached per engine until
 * SWGPU_OP_FLUSH_TLB; root 0 is the WDDM 1.x physical mode, unchanged; a VA buffer preempted in
 * the middle resumes from its save record.
 *
 * The tests build page tables with the CPU in the local segment (the KMD's job in the real
 * stack, tests/kmd/test_kmd_gpummu.c), before each submission (the submission orders them). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gpu/gpu_test_util.h"

#include <time.h>
#include <wddm/swgpu.h>

#include "gpu/gpu_internal.h" /* the engine's fetch copy (a host-memory bound) */

#define ROOT_ENTRIES 1024u          /* VAs below 2 GiB */
#define ROOT_OFF (1u << 20)         /* address space 1's root, in the local segment */
#define ROOT2_OFF (8u << 20)        /* address space 2's root */
#define DATA_OFF (2u << 20)         /* physical data pages: DATA_OFF + n * 4 KiB */
#define CSA_OFF (15u << 20)
#define PG SWGPU_PAGE_SIZE

#define VA_DMA 0x20000000ull
#define VA_SRC 0x40000000ull
#define VA_DST 0x40010000ull
#define VA_FILL 0x40020000ull
#define VA_WRITE 0x40030000ull
#define VA_FENCE 0x40040000ull

struct as {
    struct swgpu *gpu;
    BYTE *local;
    UINT64 root;      /* GPU physical */
    UINT64 next_leaf; /* local-segment offset of the next free leaf table */
};

static void as_init(struct as *as, struct swgpu *gpu, UINT64 root_off)
{
    as->gpu = gpu;
    as->local = swgpu_segment_host(gpu, T_SEG_LOCAL);
    as->root = t_addr(T_SEG_LOCAL, root_off);
    as->next_leaf = root_off + ROOT_ENTRIES * 8;
    memset(as->local + root_off, 0, ROOT_ENTRIES * 8);
}

static UINT64 phys_page(UINT32 n) { return t_addr(T_SEG_LOCAL, DATA_OFF + (UINT64)n * PG); }
static BYTE *phys_host(struct swgpu *gpu, UINT64 phys)
{
    return (BYTE *)swgpu_segment_host(gpu, T_SEG_LOCAL) + (phys & SWGPU_ADDR_OFFSET_MASK);
}

/* The leaf entry of `va`, creating its leaf table (CPU-side, as VidMm would have). */
static UINT64 *leaf_slot(struct as *as, UINT64 va)
{
    UINT64 *root = (UINT64 *)(as->local + (as->root & SWGPU_ADDR_OFFSET_MASK));
    UINT64 ri = swgpu_va_root_index(va);
    if (!(root[ri] & SWGPU_PTE_VALID)) {
        memset(as->local + as->next_leaf, 0, PG);
        root[ri] = t_addr(T_SEG_LOCAL, as->next_leaf) | SWGPU_PTE_VALID;
        as->next_leaf += PG;
    }
    UINT64 *leaf = (UINT64 *)(as->local + (root[ri] & SWGPU_PTE_ADDR_MASK & SWGPU_ADDR_OFFSET_MASK));
    return &leaf[swgpu_va_leaf_index(va)];
}

static void as_map(struct as *as, UINT64 va, UINT64 phys, int read_only)
{
    *leaf_slot(as, va) = (phys & SWGPU_PTE_ADDR_MASK) | SWGPU_PTE_VALID | (read_only ? SWGPU_PTE_READONLY : 0);
}

static void as_unmap(struct as *as, UINT64 va) { *leaf_slot(as, va) = 0; }

/* Host byte behind a VA, walking the CPU-side tables (local segment pages only). */
static BYTE *va_host(struct as *as, UINT64 va)
{
    UINT64 pte = *leaf_slot(as, va);
    return phys_host(as->gpu, (pte & SWGPU_PTE_ADDR_MASK) + (va & (PG - 1)));
}

/* Maps the DMA buffer's system pages at `va` (segment 0: the host address). */
static void map_dma_system(struct as *as, const struct t_dma *d, UINT64 va)
{
    for (UINT32 off = 0; off < d->cap; off += PG)
        as_map(as, va + off, (UINT64)(uintptr_t)(d->buf + off), 0);
}

static void submit_va(struct as *as, UINT32 engine, UINT64 dma_va, UINT32 len, UINT32 fence, UINT64 csa, int resub)
{
    struct swgpu_submission s = {.start = 0, .end = len, .fence_id = fence, .csa_addr = csa, .resubmission = resub,
                                 .root_page_table = as->root, .root_entries = ROOT_ENTRIES, .dma_va = dma_va};
    assert_int_equal(swgpu_submit2(as->gpu, engine, &s), 0);
}

static void run_va(struct as *as, const struct t_dma *d, UINT32 fence)
{
    submit_va(as, 0, VA_DMA, d->len, fence, 0, 0);
    swgpu_wait_fence(as->gpu, 0, fence);
    assert_int_equal(swgpu_last_completed_fence(as->gpu, 0), fence);
}

static void run_paging(struct swgpu *gpu, struct t_dma *d, UINT32 fence)
{
    swgpu_submit(gpu, 1, d->buf, 0, d->len, fence, 1);
    swgpu_wait_fence(gpu, 1, fence);
}

static void flush_tlb(struct swgpu *gpu, UINT64 root, UINT32 fence)
{
    struct t_dma p;
    t_dma_init(&p, PG);
    struct swgpu_cmd_flush_tlb c = {{SWGPU_OP_FLUSH_TLB, sizeof c}, root};
    t_dma_put(&p, &c, sizeof c);
    run_paging(gpu, &p, fence);
    free(p.buf);
}

static BYTE pattern_at(UINT64 k) { return (BYTE)(k * 7 + 3); }

/* rule: gpu.submission-root-page-table-runs-va */
static void commands_translate_page_by_page_across_non_contiguous_pages(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct as as;
    as_init(&as, gpu, ROOT_OFF);
    /* Consecutive VA pages on scattered physical pages, in both directions. */
    const UINT32 src_pages[3] = {10, 5, 20}, dst_pages[3] = {31, 30, 12};
    for (UINT32 i = 0; i < 3; i++) {
        as_map(&as, VA_SRC + i * PG, phys_page(src_pages[i]), 0);
        as_map(&as, VA_DST + i * PG, phys_page(dst_pages[i]), 0);
        for (UINT32 j = 0; j < PG; j++)
            phys_host(gpu, phys_page(src_pages[i]))[j] = pattern_at((UINT64)i * PG + j);
    }
    as_map(&as, VA_FILL, phys_page(41), 0);
    as_map(&as, VA_FILL + PG, phys_page(40), 0);
    as_map(&as, VA_WRITE, phys_page(51), 0);
    as_map(&as, VA_WRITE + PG, phys_page(50), 0);
    as_map(&as, VA_FENCE, phys_page(60), 0);

    struct t_dma d;
    t_dma_init(&d, 2 * PG);
    map_dma_system(&as, &d, VA_DMA);
    t_copy(&d, VA_DST + 0x800, 0, 0, VA_SRC + 0x400, 0, 0, 8000, 1, 1);
    const BYTE pat[4] = {0xA1, 0xB2, 0xC3, 0xD4};
    t_fill(&d, VA_FILL + PG - 16, 0, 0, 32, 1, 1, pat, 4);
    BYTE data[16];
    for (UINT32 i = 0; i < 16; i++)
        data[i] = (BYTE)(0x90 + i);
    t_write(&d, VA_WRITE + PG - 8, 0, 0, 16, 1, 1, data);
    struct swgpu_cmd_fence fc = {{SWGPU_OP_FENCE, sizeof fc}, VA_FENCE + 8, 0x1122334455667788ull};
    t_dma_put(&d, &fc, sizeof fc);
    run_va(&as, &d, 1);

    assert_int_equal(swgpu_fault_count(gpu, 0), 0);
    for (UINT32 k = 0; k < 8000; k++)
        if (*va_host(&as, VA_DST + 0x800 + k) != pattern_at(0x400 + k))
            fail_msg("copy byte %u through the VA mapping is wrong", k);
    for (UINT32 k = 0; k < 32; k++)
        assert_int_equal(*va_host(&as, VA_FILL + PG - 16 + k), pat[k % 4]);
    for (UINT32 k = 0; k < 16; k++)
        assert_int_equal(*va_host(&as, VA_WRITE + PG - 8 + k), data[k]);
    /* The physical page after page 40 is not VA_FILL's second page: untouched. */
    assert_int_equal(phys_host(gpu, phys_page(42))[0], 0);
    UINT64 fv;
    memcpy(&fv, va_host(&as, VA_FENCE + 8), 8);
    assert_true(fv == 0x1122334455667788ull);
    free(d.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.dma-buffer-va-submission-fetched-through */
static void dma_buffer_is_fetched_through_the_mmu(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct as as;
    as_init(&as, gpu, ROOT_OFF);
    for (UINT32 i = 0; i < 2; i++)
        as_map(&as, VA_DST + i * PG, phys_page(70 + i), 0);
    /* The buffer (two pages) lives in local memory on pages 81, 80: the engine can only see
     * it through the VA mapping. */
    struct t_dma d;
    t_dma_init(&d, 2 * PG);
    BYTE data[6000];
    for (UINT32 i = 0; i < sizeof data; i++)
        data[i] = pattern_at(i);
    t_write(&d, VA_DST, 0, 0, sizeof data, 1, 1, data);
    assert_true(d.len > PG);
    memcpy(phys_host(gpu, phys_page(81)), d.buf, PG);
    memcpy(phys_host(gpu, phys_page(80)), d.buf + PG, PG);
    as_map(&as, VA_DMA, phys_page(81), 0);
    as_map(&as, VA_DMA + PG, phys_page(80), 0);
    run_va(&as, &d, 1);
    assert_int_equal(swgpu_fault_count(gpu, 0), 0);
    assert_memory_equal(va_host(&as, VA_DST), data, PG);
    assert_memory_equal(va_host(&as, VA_DST + PG), data + PG, sizeof data - PG);

    /* Second page of the buffer unmapped: the commands of the first page run, the command
     * that reaches into the second faults with a read at the first VA that did not translate. */
    struct t_dma e;
    t_dma_init(&e, 2 * PG);
    const UINT32 a = 0xAAAA5555u;
    BYTE b[16];
    memset(b, 0xBB, sizeof b);
    t_write(&e, VA_DST + 0x10, 0, 0, 4, 1, 1, &a);
    struct swgpu_cmd_header nop = {SWGPU_OP_NOP, PG - 2 * 48};
    t_dma_put(&e, &nop, sizeof nop);
    e.len = PG - 48;
    t_write(&e, VA_DST + 0x20, 0, 0, 16, 1, 1, b); /* 56 bytes at 4048: crosses into page 2 */
    assert_int_equal(e.len, PG + 8);
    t_write(&e, VA_DST + 0x30, 0, 0, 16, 1, 1, b);
    memcpy(phys_host(gpu, phys_page(81)), e.buf, PG);
    as_unmap(&as, VA_DMA + PG);
    flush_tlb(gpu, as.root, 1); /* the engine cached page 2's old translation */
    run_va(&as, &e, 2);
    UINT32 v;
    memcpy(&v, va_host(&as, VA_DST + 0x10), 4);
    assert_int_equal(v, a);
    memcpy(&v, va_host(&as, VA_DST + 0x20), 4);
    assert_int_equal(v, pattern_at(0x20) | pattern_at(0x21) << 8 | pattern_at(0x22) << 16 | (UINT32)pattern_at(0x23) << 24);
    struct swgpu_fault f;
    assert_int_equal(swgpu_take_fault(gpu, 0, &f), 1);
    assert_int_equal(f.fence_id, 2);
    assert_true(f.virtual_mode);
    assert_int_equal(f.kind, SWGPU_PF_INVALID_PTE);
    assert_int_equal(f.page_table_level, 1);
    assert_true(f.virtual_address == VA_DMA + PG);
    assert_int_equal(f.write, 0);
    assert_int_equal(f.opcode, SWGPU_OP_WRITE);
    assert_int_equal(f.command_offset, PG - 48);
    assert_int_equal(*va_host(&as, VA_DST + 0x30), pattern_at(0x30));
    free(d.buf);
    free(e.buf);
    swgpu_destroy(gpu);
}

/* A length far beyond the buffer's mapping (one page mapped, 2.25 GiB claimed, as one
 * D3DKMTSubmitCommand may claim) runs the mapped commands, faults at the first page that does
 * not translate, and costs no host memory past what was fetched (fuzz finding gpu-fetch-length:
 * the whole length used to be reserved before the first translation). */
/* rule: gpu.d3dkmtsubmitcommand-commandlength-past (mutation-checked: the old fetch holds 2,415,919,104 bytes) */
static void a_length_past_the_mapping_fetches_only_the_mapped_part(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct as as;
    as_init(&as, gpu, ROOT_OFF);
    as_map(&as, VA_DST, phys_page(70), 0);
    struct t_dma d;
    t_dma_init(&d, PG);
    const UINT32 v = 0x600DF00Du;
    t_write(&d, VA_DST, 0, 0, 4, 1, 1, &v);
    struct swgpu_cmd_header nop = {SWGPU_OP_NOP, PG - d.len};
    t_dma_put(&d, &nop, sizeof nop);
    d.len = PG; /* the NOP spans the rest: the page ends exactly on a command boundary */
    memcpy(phys_host(gpu, phys_page(82)), d.buf, PG);
    as_map(&as, VA_DMA, phys_page(82), 0);
    submit_va(&as, 0, VA_DMA, 0x90000000u, 1, 0, 0);
    swgpu_wait_fence(gpu, 0, 1);
    UINT32 got;
    memcpy(&got, va_host(&as, VA_DST), 4);
    assert_int_equal(got, v);
    struct swgpu_fault f;
    assert_int_equal(swgpu_take_fault(gpu, 0, &f), 1);
    assert_true(f.virtual_address == VA_DMA + PG);
    if (gpu->engines[0].fetch_cap > 2 * PG)
        fail_msg("the engine holds a %zu-byte fetch copy for one mapped page", gpu->engines[0].fetch_cap);
    free(d.buf);
    swgpu_destroy(gpu);
}

/* Runs `d` (its faulting command already in it) + a marker WRITE at a mapped VA, and checks:
 * fence completed, one fault with these details, and the marker skipped. */
static void expect_fault(struct as *as, struct t_dma *d, UINT32 fence, UINT32 kind, UINT32 level, UINT64 va, int write,
                         UINT32 opcode)
{
    const UINT32 marker = 0x5EED5EEDu;
    as_map(as, 0x7FF00000ull, phys_page(500), 0);
    memset(phys_host(as->gpu, phys_page(500)), 0, 4);
    t_write(d, 0x7FF00000ull, 0, 0, 4, 1, 1, &marker);
    UINT64 before = swgpu_fault_count(as->gpu, 0);
    run_va(as, d, fence);
    assert_int_equal(swgpu_fault_count(as->gpu, 0), before + 1);
    struct swgpu_fault f;
    assert_int_equal(swgpu_take_fault(as->gpu, 0, &f), 1);
    assert_int_equal(f.fence_id, fence);
    assert_true(f.virtual_mode);
    assert_int_equal(f.kind, kind);
    assert_int_equal(f.page_table_level, level);
    if (f.virtual_address != va)
        fail_msg("fault VA 0x%llx, expected 0x%llx", (unsigned long long)f.virtual_address, (unsigned long long)va);
    assert_int_equal(f.write, write);
    assert_int_equal(f.opcode, opcode);
    assert_non_null(f.reason);
    UINT32 v;
    memcpy(&v, phys_host(as->gpu, phys_page(500)), 4);
    assert_int_equal(v, 0); /* the rest of the buffer was skipped */
}

/* rule: gpu.page-faults-each-recorded-struct-swgpu */
static void each_fault_kind_is_recorded_with_its_va_and_direction(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct as as;
    as_init(&as, gpu, ROOT_OFF);
    const UINT64 VA_X = 0x41000000ull, VA_RO = 0x41002000ull;
    as_map(&as, VA_X, phys_page(1), 0);  /* VA_X + PG: same leaf table, not present */
    as_map(&as, VA_RO, phys_page(2), 1); /* read-only */
    phys_host(gpu, phys_page(2))[8] = 0x77;
    const BYTE one = 1;
    UINT32 fence = 1, pfence = 1;
    struct t_dma d;

    /* Each buffer is a new host buffer at the same VA: remapped, so the TLB is flushed. */
#define FRESH() do { t_dma_init(&d, 2 * PG); map_dma_system(&as, &d, VA_DMA); flush_tlb(gpu, as.root, pfence++); } while (0)
    /* Leaf entry not valid (level 1), a write. */
    FRESH();
    t_fill(&d, VA_X + PG + 0x10, 0, 0, 16, 1, 1, &one, 1);
    expect_fault(&as, &d, fence++, SWGPU_PF_INVALID_PTE, 1, VA_X + PG + 0x10, 1, SWGPU_OP_FILL);
    free(d.buf);
    /* Root entry not valid: no leaf table (level 0). */
    FRESH();
    t_write(&d, 0x30000020ull, 0, 0, 1, 1, 1, &one);
    expect_fault(&as, &d, fence++, SWGPU_PF_UNMAPPED, 0, 0x30000020ull, 1, SWGPU_OP_WRITE);
    free(d.buf);
    /* Root index >= NumEntries, and a VA beyond 40 bits. */
    FRESH();
    t_write(&d, (UINT64)ROOT_ENTRIES * SWGPU_VA_LEAF_SPAN + 0x40, 0, 0, 1, 1, 1, &one);
    expect_fault(&as, &d, fence++, SWGPU_PF_ROOT_RANGE, 0, (UINT64)ROOT_ENTRIES * SWGPU_VA_LEAF_SPAN + 0x40, 1,
                 SWGPU_OP_WRITE);
    free(d.buf);
    FRESH();
    struct swgpu_cmd_fence fc = {{SWGPU_OP_FENCE, sizeof fc}, 1ull << 40, 5};
    t_dma_put(&d, &fc, sizeof fc);
    expect_fault(&as, &d, fence++, SWGPU_PF_ROOT_RANGE, 0, 1ull << 40, 1, SWGPU_OP_FENCE);
    free(d.buf);
    /* A read-only page can be read, and a write to it faults and leaves it unchanged. */
    FRESH();
    t_copy(&d, VA_X, 0, 0, VA_RO, 0, 0, 16, 1, 1);
    t_write(&d, VA_RO + 8, 0, 0, 1, 1, 1, &one);
    expect_fault(&as, &d, fence++, SWGPU_PF_READ_ONLY, 1, VA_RO + 8, 1, SWGPU_OP_WRITE);
    assert_int_equal(*va_host(&as, VA_X + 8), 0x77);
    assert_int_equal(phys_host(gpu, phys_page(2))[8], 0x77);
    free(d.buf);
    /* A read from an unmapped page: write flag clear. */
    FRESH();
    t_copy(&d, VA_X, 0, 0, VA_X + PG + 0x100, 0, 0, 16, 1, 1);
    expect_fault(&as, &d, fence++, SWGPU_PF_INVALID_PTE, 1, VA_X + PG + 0x100, 0, SWGPU_OP_COPY);
    free(d.buf);
    /* A leaf entry naming memory the GPU does not have. */
    FRESH();
    as_map(&as, VA_X + 2 * PG, SWGPU_SEGMENT_BASE(9), 0);
    t_write(&d, VA_X + 2 * PG, 0, 0, 1, 1, 1, &one);
    expect_fault(&as, &d, fence++, SWGPU_PF_BAD_TABLE, 1, VA_X + 2 * PG, 1, SWGPU_OP_WRITE);
    free(d.buf);
    /* Paging-only commands in a process's buffer. */
    UINT64 page = (UINT64)(uintptr_t)aligned_alloc(PG, PG);
    FRESH();
    t_gart_map(&d, 0, 1, &page);
    expect_fault(&as, &d, fence++, SWGPU_PF_PRIVILEGED, 0, 0, 0, SWGPU_OP_GART_MAP);
    free(d.buf);
    FRESH();
    t_gart_unmap(&d, 0, 1, page);
    expect_fault(&as, &d, fence++, SWGPU_PF_PRIVILEGED, 0, 0, 0, SWGPU_OP_GART_UNMAP);
    free(d.buf);
    FRESH();
    struct swgpu_cmd_flush_tlb ft = {{SWGPU_OP_FLUSH_TLB, sizeof ft}, 0};
    t_dma_put(&d, &ft, sizeof ft);
    expect_fault(&as, &d, fence++, SWGPU_PF_PRIVILEGED, 0, 0, 0, SWGPU_OP_FLUSH_TLB);
    free(d.buf);
#undef FRESH
    /* The GART_MAP did not happen: the aperture page still faults for a 1.x buffer. */
    struct t_dma p;
    t_dma_init(&p, PG);
    t_write(&p, t_addr(T_SEG_APERTURE, 0), 0, 0, 1, 1, 1, &one);
    UINT64 before = swgpu_fault_count(gpu, 0);
    t_run(gpu, 0, &p, fence++);
    assert_int_equal(swgpu_fault_count(gpu, 0), before + 1);
    free(p.buf);
    free((void *)(uintptr_t)page);
    swgpu_destroy(gpu);
}

static void write_u32(struct t_dma *d, UINT64 va, UINT32 v) { t_write(d, va, 0, 0, 4, 1, 1, &v); }
static UINT32 read_phys_u32(struct swgpu *gpu, UINT64 phys)
{
    UINT32 v;
    memcpy(&v, phys_host(gpu, phys), 4);
    return v;
}

/* rule: gpu.each-engine-caches-valid-translations */
static void stale_translation_is_used_until_flush_tlb(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct as as, other;
    as_init(&as, gpu, ROOT_OFF);
    as_init(&other, gpu, ROOT2_OFF);
    const UINT64 VA_T = 0x42000000ull;
    const UINT64 A = phys_page(100), B = phys_page(101);
    as_map(&as, VA_T, A, 0);
    UINT32 fence = 1, pfence = 1;
    struct t_dma d;
    t_dma_init(&d, PG);
    map_dma_system(&as, &d, VA_DMA);

    write_u32(&d, VA_T, 1);
    run_va(&as, &d, fence++);
    assert_int_equal(read_phys_u32(gpu, A), 1);
    UINT64 hits = swgpu_tlb_hits(gpu, 0);

    /* The entry now says B, but the engine cached A: the write still goes to A. */
    as_map(&as, VA_T, B, 0);
    d.len = 0;
    write_u32(&d, VA_T, 2);
    run_va(&as, &d, fence++);
    assert_int_equal(read_phys_u32(gpu, A), 2);
    assert_int_equal(read_phys_u32(gpu, B), 0);
    assert_true(swgpu_tlb_hits(gpu, 0) > hits);

    /* Flushing another root changes nothing. */
    flush_tlb(gpu, other.root, pfence++);
    d.len = 0;
    write_u32(&d, VA_T, 3);
    run_va(&as, &d, fence++);
    assert_int_equal(read_phys_u32(gpu, A), 3);
    assert_int_equal(read_phys_u32(gpu, B), 0);

    /* Flushing this root, from the paging engine: the new entry is used. */
    flush_tlb(gpu, as.root, pfence++);
    d.len = 0;
    write_u32(&d, VA_T, 4);
    run_va(&as, &d, fence++);
    assert_int_equal(read_phys_u32(gpu, A), 3);
    assert_int_equal(read_phys_u32(gpu, B), 4);

    /* Root 0 flushes every root. */
    as_map(&as, VA_T, A, 0);
    flush_tlb(gpu, 0, pfence++);
    d.len = 0;
    write_u32(&d, VA_T, 5);
    run_va(&as, &d, fence++);
    assert_int_equal(read_phys_u32(gpu, A), 5);
    assert_int_equal(read_phys_u32(gpu, B), 4);

    /* A not-present entry is never cached: mapping it needs no flush. */
    const UINT64 VA_N = 0x42001000ull;
    d.len = 0;
    write_u32(&d, VA_N, 6);
    run_va(&as, &d, fence++);
    struct swgpu_fault f;
    assert_int_equal(swgpu_take_fault(gpu, 0, &f), 1);
    assert_int_equal(f.kind, SWGPU_PF_INVALID_PTE);
    as_map(&as, VA_N, phys_page(102), 0);
    run_va(&as, &d, fence++);
    assert_int_equal(swgpu_take_fault(gpu, 0, &f), 0);
    assert_int_equal(read_phys_u32(gpu, phys_page(102)), 6);
    free(d.buf);
    swgpu_destroy(gpu);
}

/* The TLB holds SWGPU_TLB_ENTRIES translations and replaces them round-robin, however it finds
 * them (hash chains, mmu.c). A model of exactly that cache predicts, for 40 buffers of random
 * writes over 100 pages whose mappings change between buffers without a flush, which physical
 * page each write reaches (a cached translation is stale, a walked one new) and how many hits
 * and misses each buffer has. Each buffer's fetch of its own page is one access, first. */
enum { TLB_VAS = 100, TLB_WRITES = 24 };
struct tlb_model {
    UINT64 vpn[SWGPU_TLB_ENTRIES], phys[SWGPU_TLB_ENTRIES];
    BOOL used[SWGPU_TLB_ENTRIES];
    UINT32 next;
    UINT64 hits, misses;
};

static UINT64 tlb_model_access(struct tlb_model *m, UINT64 vpn, UINT64 mapped)
{
    for (UINT32 i = 0; i < SWGPU_TLB_ENTRIES; i++)
        if (m->used[i] && m->vpn[i] == vpn) {
            m->hits++;
            return m->phys[i];
        }
    m->misses++;
    m->used[m->next] = TRUE;
    m->vpn[m->next] = vpn;
    m->phys[m->next] = mapped;
    m->next = (m->next + 1) % SWGPU_TLB_ENTRIES;
    return mapped;
}

static void the_tlb_behaves_as_64_entries_replaced_round_robin(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct as as;
    as_init(&as, gpu, ROOT_OFF);
    const UINT64 VA_T = 0x42000000ull;
    UINT32 side[TLB_VAS] = {0}; /* page k maps phys_page(2k + side) */
    for (UINT32 k = 0; k < TLB_VAS; k++)
        as_map(&as, VA_T + (UINT64)k * PG, phys_page(2 * k), 0);
    struct t_dma d;
    t_dma_init(&d, PG);
    map_dma_system(&as, &d, VA_DMA);
    struct tlb_model m = {0};
    static UINT32 expect[2 * TLB_VAS]; /* the last value the model sends to each physical page */
    uint32_t x = 12345;
    for (UINT32 round = 1; round <= 40; round++) {
        for (UINT32 k = 0; k < TLB_VAS; k++)
            if ((x = x * 1103515245u + 12345u) >> 28 == 0) { /* about one in sixteen: remapped, no flush */
                side[k] ^= 1;
                as_map(&as, VA_T + (UINT64)k * PG, phys_page(2 * k + side[k]), 0);
            }
        UINT64 h0 = swgpu_tlb_hits(gpu, 0), m0 = swgpu_tlb_misses(gpu, 0), mh = m.hits, mm = m.misses;
        tlb_model_access(&m, VA_DMA >> 12, 0);
        d.len = 0;
        for (UINT32 i = 0; i < TLB_WRITES; i++) {
            x = x * 1103515245u + 12345u;
            /* Mostly a hot set of 48 pages (hits), sometimes any of the 100 (misses, evictions). */
            UINT32 k = (x >> 16) % ((x & 3) ? 48u : TLB_VAS);
            UINT32 v = round * 1000u + i;
            write_u32(&d, VA_T + (UINT64)k * PG, v);
            UINT64 target = tlb_model_access(&m, (VA_T >> 12) + k, 2 * k + side[k]);
            expect[target] = v;
        }
        run_va(&as, &d, round);
        assert_int_equal(swgpu_tlb_hits(gpu, 0) - h0, m.hits - mh);
        assert_int_equal(swgpu_tlb_misses(gpu, 0) - m0, m.misses - mm);
        for (UINT32 p = 0; p < 2 * TLB_VAS; p++)
            if (read_phys_u32(gpu, phys_page(p)) != expect[p])
                fail_msg("round %u: physical page %u holds %u, the model says %u", round, p,
                         read_phys_u32(gpu, phys_page(p)), expect[p]);
    }
    assert_true(m.hits > 300 && m.misses > 100); /* both paths ran, evictions included */
    free(d.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.root-0-wddm-1-x-physical */
static void physical_mode_without_a_root_is_unchanged(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    /* A buffer without a root: addresses are physical, paging commands are allowed outside
     * paging buffers as before, and a fault is not a page fault. */
    UINT64 page = (UINT64)(uintptr_t)aligned_alloc(PG, PG);
    memset((void *)(uintptr_t)page, 0, PG);
    struct t_dma d;
    t_dma_init(&d, PG);
    const UINT32 v = 0xFACEu;
    t_gart_map(&d, 3, 1, &page);
    t_write(&d, t_addr(T_SEG_APERTURE, 3 * PG + 4), 0, 0, 4, 1, 1, &v);
    t_write(&d, t_addr(T_SEG_LOCAL, 0x2000), 0, 0, 4, 1, 1, &v);
    t_run(gpu, 0, &d, 1);
    assert_int_equal(swgpu_fault_count(gpu, 0), 0);
    UINT32 r;
    memcpy(&r, (BYTE *)(uintptr_t)page + 4, 4);
    assert_int_equal(r, v);
    assert_int_equal(read_phys_u32(gpu, t_addr(T_SEG_LOCAL, 0x2000)), v);

    d.len = 0;
    t_write(&d, t_addr(T_SEG_VISIBLE, 64u << 20), 0, 0, 4, 1, 1, &v); /* past the 4 MiB segment */
    t_run(gpu, 0, &d, 2);
    struct swgpu_fault f;
    assert_int_equal(swgpu_take_fault(gpu, 0, &f), 1);
    assert_false(f.virtual_mode);
    assert_int_equal(f.kind, SWGPU_PF_NONE);
    assert_true(f.address == t_addr(T_SEG_VISIBLE, 64u << 20));
    assert_int_equal(f.write, 1);
    assert_int_equal(swgpu_tlb_misses(gpu, 0), 0); /* no translation happened */
    free(d.buf);
    free((void *)(uintptr_t)page);
    swgpu_destroy(gpu);
}

/* ---- Preemption of a VA buffer (issue 4 machinery, issue 6 addressing) ---------------------- */
#define REG (64u * 1024u)
#define K 12u
#define VA_REG 0x50000000ull
#define SLOW_BW (4ull << 20)

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* rule: gpu.va-buffer-preempted-middle-saves-dma */
static void preempted_va_buffer_resumes_from_its_save_record(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct as as;
    as_init(&as, gpu, ROOT_OFF);
    /* Regions A, D_0..D_{K-1} in VA space, on physical pages in pairs swapped (not contiguous). */
    const UINT32 pages = (K + 1) * REG / PG;
    for (UINT32 i = 0; i < pages; i++)
        as_map(&as, VA_REG + (UINT64)i * PG, phys_page(1000 + (i ^ 1u)), 0);
    /* The non-idempotent sequence of test_gpu_preempt.c: A = 1; for i < K: COPY A -> D_i,
     * FILL A = i + 2. Run once from the start: D_i = i + 1. */
    struct t_dma d;
    t_dma_init(&d, 2 * PG);
    map_dma_system(&as, &d, VA_DMA);
    const BYTE one = 1;
    t_fill(&d, VA_REG, 0, 0, REG, 1, 1, &one, 1);
    for (UINT32 i = 0; i < K; i++) {
        BYTE v = (BYTE)(i + 2);
        t_copy(&d, VA_REG + (UINT64)(i + 1) * REG, 0, 0, VA_REG, 0, 0, REG, 1, 1);
        t_fill(&d, VA_REG, 0, 0, REG, 1, 1, &v, 1);
    }
    const UINT64 csa = t_addr(T_SEG_LOCAL, CSA_OFF);

    wddm_swgpu_set_bandwidth(SLOW_BW);
    UINT64 p0 = swgpu_engine_progress(gpu, 0);
    submit_va(&as, 0, VA_DMA, d.len, 1, csa, 0);
    while (swgpu_engine_progress(gpu, 0) < p0 + 4)
        sleep_ms(1);
    swgpu_preempt(gpu, 0, 100, 1);
    struct swgpu_preemption p;
    while (!swgpu_take_preemption(gpu, 0, &p))
        sleep_ms(1);
    wddm_swgpu_set_bandwidth(0);
    assert_int_equal(p.preemption_fence_id, 100);
    assert_int_equal(swgpu_last_completed_fence(gpu, 0), 0);
    struct swgpu_csa_record r;
    memcpy(&r, phys_host(gpu, csa), sizeof r);
    assert_int_equal(r.magic, SWGPU_CSA_RECORD_MAGIC);
    assert_true(r.dma == VA_DMA);  /* the buffer is named by its VA ... */
    assert_true(r.root == as.root); /* ... in its address space */
    assert_true(r.resume_offset > 0 && r.resume_offset < d.len);

    /* Resubmitted (the scheduler gives it a new fence): resumes where it stopped. */
    submit_va(&as, 0, VA_DMA, d.len, 2, csa, 1);
    swgpu_wait_fence(gpu, 0, 2);
    assert_int_equal(swgpu_fault_count(gpu, 0), 0);
    for (UINT32 i = 0; i < K; i++)
        for (UINT32 b = 0; b < REG; b += 509)
            if (*va_host(&as, VA_REG + (UINT64)(i + 1) * REG + b) != (BYTE)(i + 1))
                fail_msg("D_%u byte %u: a prefix ran twice or was skipped", i, b);
    free(d.buf);
    swgpu_destroy(gpu);
}

/* A 3 MiB copy between VAs (source pages in reverse physical order, so every page is its own
 * run) is shared with the second copy unit, which translates through its own TLB (issue 17 aim 1,
 * docs/rules/gpu.md); with one source page of the first half unmapped it runs in order instead:
 * the fault names that page and nothing from it on is copied. */
#define VA_BIG_SRC 0x50000000ull
#define VA_BIG_DST 0x60000000ull
/* rule: gpu.forward-copy-least-2-mib-not (source pages scattered; mutated: the engine's TLB shared with the unit → ThreadSanitizer reports the race) */
/* rule: gpu.copy-could-fault-whose-source (mutated: no check → the half after the hole is copied; no overlap check → memmove's bytes lost) */
static void a_large_va_copy_runs_in_two_parts_unless_it_would_fault(void **state)
{
    (void)state;
    struct swgpu *gpu = t_gpu_create();
    struct as as;
    as_init(&as, gpu, ROOT_OFF);
    const UINT32 pages = 768, n = pages * PG;
    for (UINT32 i = 0; i < pages; i++) {
        as_map(&as, VA_BIG_SRC + (UINT64)i * PG, phys_page(pages - 1 - i), 1);
        as_map(&as, VA_BIG_DST + (UINT64)i * PG, phys_page(pages + i), 0);
        for (UINT32 k = 0; k < PG; k++) {
            *va_host(&as, VA_BIG_SRC + (UINT64)i * PG + k) = (BYTE)(i * 7u + k * 13u + (k >> 9));
            *va_host(&as, VA_BIG_DST + (UINT64)i * PG + k) = 0;
        }
    }
    struct t_dma d;
    t_dma_init(&d, PG);
    map_dma_system(&as, &d, VA_DMA);
    t_copy(&d, VA_BIG_DST, 0, 0, VA_BIG_SRC, 0, 0, n, 1, 1);
    struct wddm_swgpu_stats s0, s1;
    wddm_swgpu_get_stats(&s0);
    wddm_swgpu_set_copy_unit(WDDM_SWGPU_COPY_UNIT_HALF); /* the unit copies the second half */
    run_va(&as, &d, 1);
    wddm_swgpu_get_stats(&s1);
    assert_int_equal(swgpu_fault_count(gpu, 0), 0);
    assert_int_equal(s1.bytes_copied_by_second_unit - s0.bytes_copied_by_second_unit, n / 2);
    for (UINT32 i = 0; i < pages; i++)
        assert_memory_equal(va_host(&as, VA_BIG_DST + (UINT64)i * PG), va_host(&as, VA_BIG_SRC + (UINT64)i * PG), PG);

    for (UINT32 i = 0; i < pages; i++)
        memset(va_host(&as, VA_BIG_DST + (UINT64)i * PG), 0, PG);
    as_unmap(&as, VA_BIG_SRC + 10 * PG);
    flush_tlb(gpu, as.root, 1);
    run_va(&as, &d, 2);
    wddm_swgpu_set_copy_unit(WDDM_SWGPU_COPY_UNIT_SHARE);
    wddm_swgpu_get_stats(&s0);
    assert_int_equal(s0.bytes_copied_by_second_unit, s1.bytes_copied_by_second_unit);
    struct swgpu_fault f;
    assert_int_equal(swgpu_take_fault(gpu, 0, &f), 1);
    assert_int_equal(f.kind, SWGPU_PF_INVALID_PTE);
    assert_true(f.virtual_address == VA_BIG_SRC + 10 * PG);
    assert_int_equal(f.write, 0);
    for (UINT32 i = 0; i < 10; i++)
        assert_memory_equal(va_host(&as, VA_BIG_DST + (UINT64)i * PG), va_host(&as, VA_BIG_SRC + (UINT64)i * PG), PG);
    for (UINT32 i = 10; i < pages; i++)
        for (UINT32 k = 0; k < PG; k++)
            if (*va_host(&as, VA_BIG_DST + (UINT64)i * PG + k))
                fail_msg("destination page %u was written after the fault at source page 10", i);
    free(d.buf);
    swgpu_destroy(gpu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(commands_translate_page_by_page_across_non_contiguous_pages),
        cmocka_unit_test(dma_buffer_is_fetched_through_the_mmu),
        cmocka_unit_test(a_length_past_the_mapping_fetches_only_the_mapped_part),
        cmocka_unit_test(each_fault_kind_is_recorded_with_its_va_and_direction),
        cmocka_unit_test(stale_translation_is_used_until_flush_tlb),
        cmocka_unit_test(the_tlb_behaves_as_64_entries_replaced_round_robin),
        cmocka_unit_test(physical_mode_without_a_root_is_unchanged),
        cmocka_unit_test(preempted_va_buffer_resumes_from_its_save_record),
        cmocka_unit_test(a_large_va_copy_runs_in_two_parts_unless_it_would_fault),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
