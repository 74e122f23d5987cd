/* The software GPU executes the command format of src/gpu/swgpu_isa.h: copies, fills and
 * writes over pitched 3-D regions, in memory segments, system memory and the aperture. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gpu/gpu_test_util.h"

static BYTE *seg_host(struct swgpu *gpu, UINT32 id, UINT64 off)
{
    return (BYTE *)swgpu_segment_host(gpu, id) + off;
}

/* rule: gpu.copy-boxes-row-slice-pitches-overlapping */
static void write_then_copy_moves_bytes_between_segments(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    assert_non_null(gpu);
    BYTE data[1000];
    for (int i = 0; i < 1000; i++)
        data[i] = (BYTE)(i * 7 + 1);
    struct t_dma d;
    t_dma_init(&d, 8192);
    t_write(&d, t_addr(T_SEG_LOCAL, 4096), 0, 0, 1000, 1, 1, data);
    t_copy(&d, t_addr(T_SEG_VISIBLE, 100), 0, 0, t_addr(T_SEG_LOCAL, 4096), 0, 0, 1000, 1, 1);
    t_run(gpu, 0, &d, 1);
    assert_int_equal(swgpu_last_completed_fence(gpu, 0), 1);
    assert_memory_equal(seg_host(gpu, T_SEG_VISIBLE, 100), data, 1000);
    assert_int_equal(swgpu_fault_count(gpu, 0), 0);
    free(d.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.copy-boxes-row-slice-pitches-overlapping */
static void copy_box_honours_row_and_slice_pitches(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    BYTE *src = seg_host(gpu, T_SEG_VISIBLE, 0);
    /* Source: 3 slices x 4 rows x 10 bytes, row pitch 16, slice pitch 80. */
    for (int s = 0; s < 3; s++)
        for (int r = 0; r < 4; r++)
            for (int b = 0; b < 10; b++)
                src[s * 80 + r * 16 + b] = (BYTE)(s * 100 + r * 10 + b);
    struct t_dma d;
    t_dma_init(&d, 4096);
    /* Destination pitches 256 / 2048; then copied back tightly packed to check. */
    t_copy(&d, t_addr(T_SEG_LOCAL, 0), 256, 2048, t_addr(T_SEG_VISIBLE, 0), 16, 80, 10, 4, 3);
    t_copy(&d, t_addr(T_SEG_VISIBLE, 65536), 10, 40, t_addr(T_SEG_LOCAL, 0), 256, 2048, 10, 4, 3);
    t_run(gpu, 1, &d, 7);
    BYTE *packed = seg_host(gpu, T_SEG_VISIBLE, 65536);
    for (int s = 0; s < 3; s++)
        for (int r = 0; r < 4; r++)
            for (int b = 0; b < 10; b++)
                assert_int_equal(packed[s * 40 + r * 10 + b], (BYTE)(s * 100 + r * 10 + b));
    /* Bytes between rows of the pitched destination were not touched. */
    BYTE *dst = seg_host(gpu, T_SEG_LOCAL, 0);
    assert_int_equal(dst[10], 0);
    assert_int_equal(dst[256 + 9], (BYTE)(10 + 9));
    assert_int_equal(dst[2048 + 256], (BYTE)(100 + 10));
    free(d.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.copy-boxes-row-slice-pitches-overlapping */
static void overlapping_copy_behaves_like_memmove(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    BYTE *p = seg_host(gpu, T_SEG_LOCAL, 0);
    BYTE ref[4096 + 64];
    for (int i = 0; i < 4096 + 64; i++)
        p[i] = ref[i] = (BYTE)i;
    memmove(ref + 3, ref, 4000);
    memmove(ref + 4100, ref + 4110, 40);
    struct t_dma d;
    t_dma_init(&d, 4096);
    t_copy(&d, t_addr(T_SEG_LOCAL, 3), 0, 0, t_addr(T_SEG_LOCAL, 0), 0, 0, 4000, 1, 1);       /* up */
    t_copy(&d, t_addr(T_SEG_LOCAL, 4100), 0, 0, t_addr(T_SEG_LOCAL, 4110), 0, 0, 40, 1, 1); /* down */
    t_run(gpu, 0, &d, 1);
    assert_memory_equal(p, ref, 4096 + 64);

    /* Rows overlapping rows: a 2-D box moved down by one row (dst above src). */
    BYTE *q = seg_host(gpu, T_SEG_VISIBLE, 0);
    BYTE ref2[5 * 32];
    for (int i = 0; i < 5 * 32; i++)
        q[i] = ref2[i] = (BYTE)(200 - i);
    memmove(ref2 + 32, ref2, 4 * 32);
    d.len = 0;
    t_copy(&d, t_addr(T_SEG_VISIBLE, 32), 32, 0, t_addr(T_SEG_VISIBLE, 0), 32, 0, 32, 4, 1);
    t_run(gpu, 0, &d, 2);
    assert_memory_equal(q, ref2, sizeof ref2);
    free(d.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.fill-repeats-pattern-each-row-start */
static void fill_repeats_pattern_from_each_row_start(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct t_dma d;
    t_dma_init(&d, 4096);
    const BYTE one = 0xAB;
    const UINT32 four = 0x11223344u;
    const BYTE sixteen[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    t_fill(&d, t_addr(T_SEG_LOCAL, 0), 0, 0, 5000, 1, 1, &one, 1);
    t_fill(&d, t_addr(T_SEG_LOCAL, 8192), 0, 0, 10, 1, 1, &four, 4);
    /* 3 rows of 20 bytes, pitch 64: each row restarts the 16-byte pattern. */
    t_fill(&d, t_addr(T_SEG_LOCAL, 16384), 64, 0, 20, 3, 1, sixteen, 16);
    t_run(gpu, 0, &d, 1);
    BYTE *p = seg_host(gpu, T_SEG_LOCAL, 0);
    for (int i = 0; i < 5000; i++)
        assert_int_equal(p[i], 0xAB);
    assert_int_equal(p[5000], 0);
    BYTE *q = seg_host(gpu, T_SEG_LOCAL, 8192);
    const BYTE four_le[10] = {0x44, 0x33, 0x22, 0x11, 0x44, 0x33, 0x22, 0x11, 0x44, 0x33};
    assert_memory_equal(q, four_le, 10);
    assert_int_equal(q[10], 0);
    BYTE *r = seg_host(gpu, T_SEG_LOCAL, 16384);
    for (int row = 0; row < 3; row++) {
        for (int b = 0; b < 20; b++)
            assert_int_equal(r[row * 64 + b], b % 16);
        assert_int_equal(r[row * 64 + 20], 0); /* the gap between rows stays untouched */
    }
    free(d.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.fill-repeats-pattern-each-row-start */
static void write_places_packed_data_at_pitched_rows(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    BYTE data[2 * 3 * 5];
    for (int i = 0; i < 30; i++)
        data[i] = (BYTE)(i + 1);
    struct t_dma d;
    t_dma_init(&d, 4096);
    t_write(&d, t_addr(T_SEG_VISIBLE, 0), 8, 32, 5, 3, 2, data);
    t_run(gpu, 0, &d, 1);
    BYTE *p = seg_host(gpu, T_SEG_VISIBLE, 0);
    for (int s = 0; s < 2; s++)
        for (int r = 0; r < 3; r++)
            assert_memory_equal(p + s * 32 + r * 8, data + (s * 3 + r) * 5, 5);
    assert_int_equal(p[5], 0);
    free(d.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.system-memory-identity-mapped-gart-maps */
static void system_memory_is_identity_mapped(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    BYTE *sys = aligned_alloc(4096, 8192);
    for (int i = 0; i < 8192; i++)
        sys[i] = (BYTE)(i ^ 0x5A);
    BYTE *back = aligned_alloc(4096, 8192);
    memset(back, 0, 8192);
    struct t_dma d;
    t_dma_init(&d, 4096);
    t_copy(&d, t_addr(T_SEG_LOCAL, 0), 0, 0, (UINT64)(uintptr_t)sys, 0, 0, 8192, 1, 1);
    t_copy(&d, (UINT64)(uintptr_t)back, 0, 0, t_addr(T_SEG_LOCAL, 0), 0, 0, 8192, 1, 1);
    t_run(gpu, 1, &d, 3);
    assert_memory_equal(back, sys, 8192);
    free(sys);
    free(back);
    free(d.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.system-memory-identity-mapped-gart-maps */
static void gart_maps_aperture_pages_onto_system_pages(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    /* Two system pages mapped in reverse order at aperture pages 10 and 11. */
    BYTE *pa = aligned_alloc(4096, 4096), *pb = aligned_alloc(4096, 4096), *dummy = aligned_alloc(4096, 4096);
    memset(pa, 0, 4096);
    memset(pb, 0, 4096);
    memset(dummy, 0, 4096);
    UINT64 pages[2] = {(UINT64)(uintptr_t)pb, (UINT64)(uintptr_t)pa};
    BYTE data[200];
    for (int i = 0; i < 200; i++)
        data[i] = (BYTE)(i + 3);
    struct t_dma d;
    t_dma_init(&d, 4096);
    t_gart_map(&d, 10, 2, pages);
    /* 200 bytes straddling the page boundary: 100 on each page. */
    t_write(&d, t_addr(T_SEG_APERTURE, 11 * 4096 - 100), 0, 0, 200, 1, 1, data);
    /* And read back through the aperture into local memory. */
    t_copy(&d, t_addr(T_SEG_LOCAL, 0), 0, 0, t_addr(T_SEG_APERTURE, 11 * 4096 - 100), 0, 0, 200, 1, 1);
    t_run(gpu, 1, &d, 1);
    assert_int_equal(swgpu_fault_count(gpu, 1), 0);
    assert_memory_equal(pb + 4096 - 100, data, 100);
    assert_memory_equal(pa, data + 100, 100);
    assert_memory_equal(swgpu_segment_host(gpu, T_SEG_LOCAL), data, 200);

    /* Unmapped pages point at the dummy page: writes land there, the real page is safe. */
    d.len = 0;
    t_gart_unmap(&d, 10, 2, (UINT64)(uintptr_t)dummy);
    const BYTE x = 0xEE;
    t_fill(&d, t_addr(T_SEG_APERTURE, 10 * 4096), 0, 0, 16, 1, 1, &x, 1);
    t_run(gpu, 1, &d, 2);
    assert_int_equal(swgpu_fault_count(gpu, 1), 0);
    assert_int_equal(dummy[0], 0xEE);
    assert_int_equal(pb[0], 0);

    free(pa);
    free(pb);
    free(dummy);
    free(d.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.one-thread-engine-engines-complete-ring (order and interrupts; the thread-per-engine structure: no test yet) */
static void engines_complete_in_order_and_raise_interrupts(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    unsigned before = atomic_load(&t_interrupts);
    struct t_dma d[50];
    for (int i = 0; i < 50; i++) {
        t_dma_init(&d[i], 4096);
        UINT32 v = (UINT32)i;
        /* Each buffer writes its index at the same place: the last one must win. */
        t_write(&d[i], t_addr(T_SEG_LOCAL, 0), 0, 0, 4, 1, 1, &v);
        swgpu_submit(gpu, 0, d[i].buf, 0, d[i].len, (UINT32)(i + 1), 0);
    }
    swgpu_wait_fence(gpu, 0, 50);
    swgpu_wait_idle(gpu, 0);
    assert_int_equal(swgpu_last_completed_fence(gpu, 0), 50);
    UINT32 last;
    memcpy(&last, swgpu_segment_host(gpu, T_SEG_LOCAL), 4);
    assert_int_equal(last, 49);
    assert_true(atomic_load(&t_interrupts) - before >= 50);
    for (int i = 0; i < 50; i++)
        free(d[i].buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.fence-command-writes-value-raises-line */
static void empty_buffer_still_completes_its_fence(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    swgpu_submit(gpu, 1, NULL, 0, 0, 42, 1);
    swgpu_wait_fence(gpu, 1, 42);
    assert_int_equal(swgpu_last_completed_fence(gpu, 1), 42);
    assert_int_equal(swgpu_last_completed_fence(gpu, 0), 0);
    assert_int_equal(swgpu_submit(gpu, 2, NULL, 0, 0, 1, 0), -1); /* no engine 2 */
    swgpu_destroy(gpu);
}

/* rule: gpu.copy-boxes-row-slice-pitches-overlapping */
static void overlapping_copy_across_aperture_pages_behaves_like_memmove(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    /* Aperture pages 0..2 on three system pages that are not adjacent in the host. */
    BYTE *block = aligned_alloc(4096, 5 * 4096);
    UINT64 pages[3] = {(UINT64)(uintptr_t)(block + 4 * 4096), (UINT64)(uintptr_t)(block + 2 * 4096),
                       (UINT64)(uintptr_t)block};
    BYTE ref[3 * 4096];
    for (int i = 0; i < 3 * 4096; i++)
        ref[i] = (BYTE)(i * 31 + 7);
    struct t_dma d;
    t_dma_init(&d, 5 * 4096);
    t_gart_map(&d, 0, 3, pages);
    t_write(&d, t_addr(T_SEG_APERTURE, 0), 2048, 0, 2048, 6, 1, ref);
    t_run(gpu, 0, &d, 1);
    /* Move 8000 bytes up by 3000 (overlapping, crossing both page boundaries), then down. */
    memmove(ref + 3000, ref, 8000);
    memmove(ref + 10, ref + 1000, 5000);
    d.len = 0;
    t_copy(&d, t_addr(T_SEG_APERTURE, 3000), 0, 0, t_addr(T_SEG_APERTURE, 0), 0, 0, 8000, 1, 1);
    t_copy(&d, t_addr(T_SEG_APERTURE, 10), 0, 0, t_addr(T_SEG_APERTURE, 1000), 0, 0, 5000, 1, 1);
    t_copy(&d, t_addr(T_SEG_LOCAL, 0), 0, 0, t_addr(T_SEG_APERTURE, 0), 0, 0, 3 * 4096, 1, 1);
    t_run(gpu, 0, &d, 2);
    assert_int_equal(swgpu_fault_count(gpu, 0), 0);
    assert_memory_equal(swgpu_segment_host(gpu, T_SEG_LOCAL), ref, sizeof ref);
    free(block);
    free(d.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.fence-command-writes-value-raises-line */
static void fence_command_writes_its_value_and_raises_the_line(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    UINT64 *sys = aligned_alloc(4096, 4096);
    sys[0] = 0;
    unsigned before = atomic_load(&t_interrupts);
    struct t_dma d;
    t_dma_init(&d, 4096);
    struct swgpu_cmd_fence f = {{SWGPU_OP_FENCE, sizeof f}, (UINT64)(uintptr_t)sys, 0x123456789ull};
    t_dma_put(&d, &f, sizeof f);
    struct swgpu_cmd_fence g = {{SWGPU_OP_FENCE, sizeof g}, t_addr(T_SEG_VISIBLE, 64), 77};
    t_dma_put(&d, &g, sizeof g);
    t_run(gpu, 0, &d, 1);
    swgpu_wait_idle(gpu, 0);
    assert_int_equal(sys[0], 0x123456789ull);
    UINT64 v;
    memcpy(&v, (BYTE *)swgpu_segment_host(gpu, T_SEG_VISIBLE) + 64, 8);
    assert_int_equal(v, 77);
    /* Two FENCE interrupts and the buffer's completion interrupt. */
    assert_true(atomic_load(&t_interrupts) - before >= 3);
    free(sys);
    free(d.buf);
    swgpu_destroy(gpu);
}

/* The interrupt handler may submit the next buffer (as a DPC that kicks the scheduler
 * does): no GPU lock is held while the line is raised. */
static struct swgpu *chain_gpu;
static struct t_dma chain_dma;
static atomic_uint chain_next;

static void chain_interrupt(void *ctx)
{
    UINT32 done = swgpu_last_completed_fence(chain_gpu, 0);
    unsigned expected = done + 1;
    if (done < 100 && atomic_compare_exchange_strong(&chain_next, &expected, done + 2))
        swgpu_submit(chain_gpu, 0, chain_dma.buf, 0, chain_dma.len, done + 1, 0);
}

/* rule: gpu.interrupt-handler-may-submit-more-work */
static void interrupt_handler_may_submit_more_work(void **state)
{
    struct swgpu_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.segment_count = 1;
    cfg.segments[0].size = 1u << 20;
    cfg.engine_count = 1;
    cfg.interrupt = chain_interrupt;
    t_dma_init(&chain_dma, 4096);
    struct swgpu_cmd_header nop = {SWGPU_OP_NOP, 8};
    t_dma_put(&chain_dma, &nop, sizeof nop);
    atomic_store(&chain_next, 2);
    chain_gpu = swgpu_create(&cfg);
    swgpu_submit(chain_gpu, 0, chain_dma.buf, 0, chain_dma.len, 1, 0);
    swgpu_wait_fence(chain_gpu, 0, 100);
    assert_int_equal(swgpu_last_completed_fence(chain_gpu, 0), 100);
    swgpu_destroy(chain_gpu);
    free(chain_dma.buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(write_then_copy_moves_bytes_between_segments),
        cmocka_unit_test(copy_box_honours_row_and_slice_pitches),
        cmocka_unit_test(overlapping_copy_behaves_like_memmove),
        cmocka_unit_test(fill_repeats_pattern_from_each_row_start),
        cmocka_unit_test(write_places_packed_data_at_pitched_rows),
        cmocka_unit_test(system_memory_is_identity_mapped),
        cmocka_unit_test(gart_maps_aperture_pages_onto_system_pages),
        cmocka_unit_test(engines_complete_in_order_and_raise_interrupts),
        cmocka_unit_test(empty_buffer_still_completes_its_fence),
        cmocka_unit_test(overlapping_copy_across_aperture_pages_behaves_like_memmove),
        cmocka_unit_test(fence_command_writes_its_value_and_raises_the_line),
        cmocka_unit_test(interrupt_handler_may_submit_more_work),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
