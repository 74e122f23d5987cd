/* The software GPU behind a platform IOMMU (the IoMmu model: MicrosoftDocs "IoMmu model", and
 * IOMMU-based GPU isolation: "IOMMU-based GPU isolation"; docs/semantics.md §9.6): a buffer
 * submitted with a PASID runs in that process's address space, every access - the fetch of the
 * buffer included - translated by the platform (swgpu_config.iommu), here a table of this test's.
 * The VAs differ from the host addresses they map to, so a copy that lands proves the
 * translation; a page the table does not map for the PASID, or maps read-only and is written,
 * faults with its VA, direction and `iommu` set, and the rest of the buffer is skipped. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "gpu_test_util.h"

#define PG 4096u
#define MAX_MAPS 64u

/* The test's platform IOMMU: (PASID, VA page) -> host page. */
static struct map {
    UINT32 pasid;
    UINT64 va;
    BYTE *host;
    int writable;
} maps[MAX_MAPS];
static UINT32 map_count;
static atomic_uint translations;
static int isolate; /* requests without a PASID (physical accesses) reach only mapped pages */

static int translate(void *context, UINT32 pasid, UINT64 va, int write, UINT64 *phys)
{
    (void)context;
    if (pasid == 0 && !isolate) { /* a physical access, no isolation: any page */
        *phys = va;
        return 0;
    }
    atomic_fetch_add(&translations, 1);
    for (UINT32 i = 0; i < map_count; i++) {
        if (maps[i].pasid != pasid || maps[i].va != (va & ~(UINT64)(PG - 1)))
            continue;
        if (write && !maps[i].writable)
            return -2;
        *phys = (UINT64)(uintptr_t)maps[i].host + (va & (PG - 1));
        return 0;
    }
    return -1;
}

static void map_range(UINT32 pasid, UINT64 va, BYTE *host, UINT32 bytes, int writable)
{
    for (UINT32 off = 0; off < bytes; off += PG) {
        assert_true(map_count < MAX_MAPS);
        maps[map_count++] = (struct map){ pasid, va + off, host + off, writable };
    }
}

static struct swgpu *gpu_with(swgpu_iommu_fn fn)
{
    struct swgpu_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.segment_count = 1;
    cfg.segments[0].size = 4u << 20;
    cfg.segments[0].kind = SWGPU_SEGMENT_MEMORY;
    cfg.engine_count = 1;
    cfg.iommu = fn;
    struct swgpu *g = swgpu_create(&cfg);
    assert_non_null(g);
    return g;
}

enum { PASID = 7, OTHER_PASID = 8 };
#define VA_DMA 0x10000000ull
#define VA_SRC 0x20000000ull
#define VA_DST 0x30000000ull

static void run(struct swgpu *g, UINT32 pasid, const struct t_dma *d, UINT32 fence)
{
    struct swgpu_submission s = { .end = d->len, .fence_id = fence, .dma_va = VA_DMA, .pasid = pasid };
    assert_int_equal(swgpu_submit2(g, 0, &s), 0);
    swgpu_wait_fence(g, 0, fence);
    assert_int_equal(swgpu_last_completed_fence(g, 0), fence);
}

/* rule: gpu.pasid-buffer-runs-through-iommu */
static void a_pasid_buffer_runs_in_the_process_address_space(void **state)
{
    (void)state;
    map_count = 0;
    struct swgpu *g = gpu_with(translate);
    BYTE *src = aligned_alloc(PG, 2 * PG), *dst = aligned_alloc(PG, 2 * PG);
    for (UINT32 i = 0; i < 2 * PG; i++)
        src[i] = (BYTE)(i * 13 + 5);
    memset(dst, 0, 2 * PG);
    struct t_dma d;
    t_dma_init(&d, PG);
    /* Two pages each side, the VA pages mapped in the opposite order: a copy that ignored the
     * translation, or took the VA for the host address, would not land as checked. */
    map_range(PASID, VA_DMA, d.buf, PG, 0);
    map_range(PASID, VA_SRC, src, 2 * PG, 0);
    map_range(PASID, VA_DST, dst + PG, PG, 1);
    map_range(PASID, VA_DST + PG, dst, PG, 1);
    t_copy(&d, VA_DST, 0, 0, VA_SRC, 0, 0, 2 * PG, 1, 1);
    unsigned before = atomic_load(&translations);
    run(g, PASID, &d, 1);
    struct swgpu_fault f;
    assert_int_equal(swgpu_take_fault(g, 0, &f), 0);
    assert_memory_equal(dst + PG, src, PG);
    assert_memory_equal(dst, src + PG, PG);
    assert_true(atomic_load(&translations) > before);
    swgpu_destroy(g);
    free(src);
    free(dst);
    free(d.buf);
}

static void expect_fault(struct swgpu *g, UINT32 pasid, struct t_dma *d, UINT32 fence, UINT32 kind, UINT64 va,
                         int write)
{
    run(g, pasid, d, fence);
    struct swgpu_fault f;
    assert_int_equal(swgpu_take_fault(g, 0, &f), 1);
    assert_int_equal(f.fence_id, fence);
    assert_true(f.virtual_mode);
    assert_true(f.iommu);
    assert_int_equal(f.kind, kind);
    assert_int_equal(f.write, write);
    if (f.virtual_address != va)
        fail_msg("fault VA 0x%llx, expected 0x%llx", (unsigned long long)f.virtual_address, (unsigned long long)va);
}

/* rule: gpu.pasid-buffer-runs-through-iommu (faults) */
static void what_the_iommu_does_not_map_faults(void **state)
{
    (void)state;
    map_count = 0;
    struct swgpu *g = gpu_with(translate);
    BYTE *src = aligned_alloc(PG, PG), *dst = aligned_alloc(PG, PG), *last = aligned_alloc(PG, PG);
    memset(src, 0x5a, PG);
    memset(dst, 0, PG);
    memset(last, 0, PG);
    struct t_dma d;
    t_dma_init(&d, PG);
    map_range(PASID, VA_DMA, d.buf, PG, 0);
    map_range(PASID, VA_SRC, src, PG, 0);
    map_range(PASID, VA_DST, dst, PG, 1);
    map_range(PASID, VA_DST + PG, last, PG, 1);
    /* A read of a page nothing maps, then a write that would show the buffer went on. */
    const UINT32 marker = 0x5EED5EEDu;
    t_copy(&d, VA_DST, 0, 0, VA_SRC + 4 * PG, 0, 0, 64, 1, 1);
    t_write(&d, VA_DST + PG, 0, 0, 4, 1, 1, &marker);
    expect_fault(g, PASID, &d, 1, SWGPU_PF_IOMMU_UNMAPPED, VA_SRC + 4 * PG, 0);
    UINT32 v;
    memcpy(&v, last, 4);
    assert_int_equal(v, 0); /* the rest of the buffer was skipped */
    /* A write to a page mapped read-only. */
    d.len = 0;
    t_copy(&d, VA_SRC, 0, 0, VA_DST, 0, 0, 64, 1, 1);
    expect_fault(g, PASID, &d, 2, SWGPU_PF_IOMMU_READ_ONLY, VA_SRC, 1);
    assert_int_equal(src[0], 0x5a);
    /* Another process: nothing of this one is mapped for it (its buffer's fetch faults first). */
    d.len = 0;
    t_copy(&d, VA_DST, 0, 0, VA_SRC, 0, 0, 64, 1, 1);
    run(g, OTHER_PASID, &d, 3);
    struct swgpu_fault f;
    assert_int_equal(swgpu_take_fault(g, 0, &f), 1);
    assert_true(f.iommu);
    assert_int_equal(f.kind, SWGPU_PF_IOMMU_UNMAPPED);
    assert_int_equal(dst[0], 0);
    swgpu_destroy(g);
    /* A device behind no IOMMU: a PASID buffer reaches nothing. */
    g = gpu_with(NULL);
    d.len = 0;
    t_copy(&d, VA_DST, 0, 0, VA_SRC, 0, 0, 64, 1, 1);
    run(g, PASID, &d, 1);
    assert_int_equal(swgpu_take_fault(g, 0, &f), 1);
    assert_true(f.iommu);
    assert_int_equal(dst[0], 0);
    swgpu_destroy(g);
    free(src);
    free(dst);
    free(last);
    free(d.buf);
}

/* IOMMU-based isolation: the device's physical accesses (no PASID) reach only what the platform
 * maps for it, 1:1 - its DMA buffer's pages, a source page - and nothing else. */
/* rule: gpu.physical-access-through-iommu-when-isolated */
static void an_isolated_device_reaches_only_the_pages_mapped_for_it(void **state)
{
    (void)state;
    map_count = 0;
    isolate = 1;
    struct swgpu *g = gpu_with(translate);
    BYTE *src = aligned_alloc(PG, PG), *other = aligned_alloc(PG, PG);
    memset(src, 0x11, PG);
    memset(other, 0x22, PG);
    struct t_dma d;
    t_dma_init(&d, PG);
    map_range(0, (UINT64)(uintptr_t)d.buf, d.buf, PG, 0);
    map_range(0, (UINT64)(uintptr_t)src, src, PG, 0);
    UINT64 dst = t_addr(1, 0); /* the memory segment: the device's own memory, no IOMMU */
    t_copy(&d, dst, 0, 0, (UINT64)(uintptr_t)src, 0, 0, PG, 1, 1);
    t_run(g, 0, &d, 1);
    struct swgpu_fault f;
    assert_int_equal(swgpu_take_fault(g, 0, &f), 0);
    assert_memory_equal(swgpu_segment_host(g, 1), src, PG);
    /* A page nothing mapped: the copy faults and leaves the segment as it was. */
    d.len = 0;
    t_copy(&d, dst, 0, 0, (UINT64)(uintptr_t)other, 0, 0, PG, 1, 1);
    t_run(g, 0, &d, 2);
    assert_int_equal(swgpu_take_fault(g, 0, &f), 1);
    assert_int_equal(f.address, (UINT64)(uintptr_t)other);
    assert_memory_equal(swgpu_segment_host(g, 1), src, PG);
    /* A DMA buffer nothing mapped is not fetched: its first command faults. */
    struct t_dma e;
    t_dma_init(&e, PG);
    t_copy(&e, dst, 0, 0, (UINT64)(uintptr_t)src, 0, 0, PG, 1, 1);
    memset(swgpu_segment_host(g, 1), 0, PG);
    t_run(g, 0, &e, 3);
    assert_int_equal(swgpu_take_fault(g, 0, &f), 1);
    assert_int_equal(f.command_offset, 0);
    assert_int_equal(((BYTE *)swgpu_segment_host(g, 1))[0], 0);
    swgpu_destroy(g);
    isolate = 0;
    free(src);
    free(other);
    free(d.buf);
    free(e.buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(an_isolated_device_reaches_only_the_pages_mapped_for_it),
        cmocka_unit_test(a_pasid_buffer_runs_in_the_process_address_space),
        cmocka_unit_test(what_the_iommu_does_not_map_faults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
