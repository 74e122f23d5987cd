/* The second copy unit (src/gpu/copy_unit.c; docs/rules/gpu.md): a forward copy of at least
 * 2 MiB that cannot fault and does not overlap itself is shared, piece by piece, between the
 * engine and the unit, with the bytes a copy in order gives; a copy that would fault, or
 * overlaps, runs in order, so its fault and the bytes it leaves are those of one unit. Checked
 * against memmove of host copies of the segments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gpu/gpu_test_util.h"
#include <wddm/swgpu.h>

static unsigned long long second_unit_bytes(void)
{
    struct wddm_swgpu_stats s;
    wddm_swgpu_get_stats(&s);
    return s.bytes_copied_by_second_unit;
}

/* The test GPU's memory segments are host memory (swgpu_segment_host): the pattern goes in, and
 * results come out, directly. */
static BYTE *seg(struct swgpu *gpu, UINT32 id, UINT64 off) { return (BYTE *)swgpu_segment_host(gpu, id) + off; }

static void t_pattern(BYTE *p, UINT32 n, UINT32 seed)
{
    for (UINT32 i = 0; i < n; i++)
        p[i] = (BYTE)((i * 2654435761u + seed) >> 13);
}

/* 6 MiB, one linear run, and 3,000 rows of 1,000 bytes at pitches 1,024 and 1,100 (not merged):
 * both in two parts, both byte for byte what memmove gives. */
/* rule: gpu.forward-copy-least-2-mib-not (a linear run and padded rows against memmove, in each mode; mutated: the engine's half short by a page; the threshold never reached) */
static void a_large_copy_runs_in_two_parts_with_the_bytes_of_one(void **state)
{
    (void)state;
    struct swgpu *gpu = t_gpu_create();
    const UINT32 n = 6u << 20;
    BYTE *src = malloc(n), *want = malloc(n);
    t_pattern(src, n, 7);
    memcpy(seg(gpu, T_SEG_LOCAL, 0), src, n);
    unsigned long long before = second_unit_bytes();
    struct t_dma d;
    t_dma_init(&d, 4096);
    t_copy(&d, t_addr(T_SEG_LOCAL, 8u << 20), 0, 0, t_addr(T_SEG_LOCAL, 0), 0, 0, n, 1, 1);
    t_run(gpu, 0, &d, 100);
    assert_int_equal(swgpu_fault_count(gpu, 0), 0);
    assert_memory_equal(seg(gpu, T_SEG_LOCAL, 8u << 20), src, n);
    assert_true(second_unit_bytes() - before <= n); /* the pieces the unit got to, maybe none */
    /* HALF: the unit copies the second half, every time. */
    wddm_swgpu_set_copy_unit(WDDM_SWGPU_COPY_UNIT_HALF);
    memset(seg(gpu, T_SEG_LOCAL, 8u << 20), 0, n);
    before = second_unit_bytes();
    t_run(gpu, 0, &d, 101);
    assert_memory_equal(seg(gpu, T_SEG_LOCAL, 8u << 20), src, n);
    assert_int_equal(second_unit_bytes() - before, n / 2);
    /* OFF: the engine alone. */
    wddm_swgpu_set_copy_unit(WDDM_SWGPU_COPY_UNIT_OFF);
    memset(seg(gpu, T_SEG_LOCAL, 8u << 20), 0, n);
    before = second_unit_bytes();
    t_run(gpu, 0, &d, 102);
    assert_memory_equal(seg(gpu, T_SEG_LOCAL, 8u << 20), src, n);
    assert_int_equal(second_unit_bytes(), before);
    wddm_swgpu_set_copy_unit(WDDM_SWGPU_COPY_UNIT_HALF);

    /* Rows with padding: row r of the destination at 8 MiB + r * 1100. */
    const UINT32 rows = 3000, rb = 1000, sp = 1024, dp = 1100;
    memcpy(want, seg(gpu, T_SEG_LOCAL, 8u << 20), (size_t)rows * dp);
    for (UINT32 r = 0; r < rows; r++)
        memmove(want + (size_t)r * dp, src + (size_t)r * sp, rb);
    before = second_unit_bytes();
    d.len = 0;
    t_copy(&d, t_addr(T_SEG_LOCAL, 8u << 20), dp, 0, t_addr(T_SEG_LOCAL, 0), sp, 0, rb, rows, 1);
    t_run(gpu, 0, &d, 120);
    assert_int_equal(swgpu_fault_count(gpu, 0), 0);
    assert_memory_equal(seg(gpu, T_SEG_LOCAL, 8u << 20), want, (size_t)rows * dp);
    assert_true(second_unit_bytes() - before >= (UINT64)rows * rb / 2 - 256 * 1024);
    wddm_swgpu_set_copy_unit(WDDM_SWGPU_COPY_UNIT_SHARE);
    free(d.buf);
    free(src);
    free(want);
    swgpu_destroy(gpu);
}

/* A 3 MiB copy whose last 100 bytes leave the segment: no part runs elsewhere; as in order, every
 * byte before the fault's address is copied and none after it. */
/* rule: gpu.copy-could-fault-whose-source */
static void a_copy_that_would_fault_runs_in_order(void **state)
{
    (void)state;
    struct swgpu *gpu = t_gpu_create();
    const UINT32 n = 3u << 20;
    BYTE *src = malloc(n);
    t_pattern(src, n, 9);
    memcpy(seg(gpu, T_SEG_LOCAL, 0), src, n);
    wddm_swgpu_set_copy_unit(WDDM_SWGPU_COPY_UNIT_HALF); /* a split, were it allowed, is certain */
    unsigned long long before = second_unit_bytes();
    struct t_dma d;
    t_dma_init(&d, 4096);
    /* The visible segment is 4 MiB: start 100 bytes short of 3 MiB before its end. */
    UINT64 dst_off = (4u << 20) - n + 100;
    t_copy(&d, t_addr(T_SEG_VISIBLE, dst_off), 0, 0, t_addr(T_SEG_LOCAL, 0), 0, 0, n, 1, 1);
    swgpu_submit(gpu, 0, d.buf, 0, d.len, 1, 0);
    swgpu_wait_fence(gpu, 0, 1);
    assert_int_equal(swgpu_fault_count(gpu, 0), 1);
    struct swgpu_fault f;
    assert_int_equal(swgpu_take_fault(gpu, 0, &f), 1);
    assert_int_equal(f.opcode, SWGPU_OP_COPY);
    assert_true(f.write);
    assert_int_equal(second_unit_bytes(), before);
    /* In order: every byte before the fault's address copied, none after (the segment was 0). */
    UINT64 k = f.address - t_addr(T_SEG_VISIBLE, dst_off);
    assert_true(k > 0 && k < n - 100);
    assert_memory_equal(seg(gpu, T_SEG_VISIBLE, dst_off), src, k);
    for (UINT64 i = k; i < n - 100; i++)
        if (seg(gpu, T_SEG_VISIBLE, dst_off)[i])
            fail_msg("byte %llu, after the fault at %llu, was written", (unsigned long long)i, (unsigned long long)k);
    wddm_swgpu_set_copy_unit(WDDM_SWGPU_COPY_UNIT_SHARE);
    free(d.buf);
    free(src);
    swgpu_destroy(gpu);
}

/* A 3 MiB copy out of the aperture whose first 1 MiB of pages was never mapped: the fault is at
 * its first byte and, as in order, nothing is copied (the half after the hole would copy fine). */
/* rule: gpu.copy-could-fault-whose-source */
static void a_copy_whose_first_half_would_fault_copies_nothing(void **state)
{
    (void)state;
    struct swgpu *gpu = t_gpu_create();
    const UINT32 n = 3u << 20, hole = 1u << 20, pages = (n - hole) / 4096u;
    BYTE *host = aligned_alloc(4096, n - hole);
    t_pattern(host, n - hole, 5);
    UINT64 *list = malloc(pages * sizeof *list);
    for (UINT32 i = 0; i < pages; i++)
        list[i] = (UINT64)(uintptr_t)(host + (size_t)i * 4096u);
    struct t_dma d;
    t_dma_init(&d, 8192 + pages * 8u);
    t_gart_map(&d, hole / 4096u, pages, list);
    t_run(gpu, 0, &d, 1);
    assert_int_equal(swgpu_fault_count(gpu, 0), 0);
    wddm_swgpu_set_copy_unit(WDDM_SWGPU_COPY_UNIT_HALF);
    unsigned long long before = second_unit_bytes();
    d.len = 0;
    t_copy(&d, t_addr(T_SEG_LOCAL, 0), 0, 0, t_addr(T_SEG_APERTURE, 0), 0, 0, n, 1, 1);
    swgpu_submit(gpu, 0, d.buf, 0, d.len, 2, 0);
    swgpu_wait_fence(gpu, 0, 2);
    struct swgpu_fault f;
    assert_int_equal(swgpu_take_fault(gpu, 0, &f), 1);
    assert_int_equal(f.address, t_addr(T_SEG_APERTURE, 0));
    assert_false(f.write);
    assert_int_equal(second_unit_bytes(), before);
    for (UINT32 i = 0; i < n; i++)
        if (seg(gpu, T_SEG_LOCAL, 0)[i])
            fail_msg("byte %u was copied after a fault at the first", i);
    wddm_swgpu_set_copy_unit(WDDM_SWGPU_COPY_UNIT_SHARE);
    free(d.buf);
    free(list);
    swgpu_destroy(gpu);
    free(host);
}

/* An overlapping copy inside one segment (the destination 4 KiB below the source, 3 MiB long)
 * keeps its memmove meaning: it runs in order, the result is memmove's. */
/* rule: gpu.copy-could-fault-whose-source */
static void an_overlapping_copy_runs_in_order(void **state)
{
    (void)state;
    struct swgpu *gpu = t_gpu_create();
    const UINT32 n = 3u << 20;
    BYTE *want = malloc(n + 4096);
    t_pattern(want, n + 4096, 3);
    memcpy(seg(gpu, T_SEG_LOCAL, 0), want, n + 4096);
    memmove(want, want + 4096, n);
    wddm_swgpu_set_copy_unit(WDDM_SWGPU_COPY_UNIT_HALF);
    unsigned long long before = second_unit_bytes();
    struct t_dma d;
    t_dma_init(&d, 4096);
    t_copy(&d, t_addr(T_SEG_LOCAL, 0), 0, 0, t_addr(T_SEG_LOCAL, 4096), 0, 0, n, 1, 1);
    t_run(gpu, 0, &d, 1);
    wddm_swgpu_set_copy_unit(WDDM_SWGPU_COPY_UNIT_SHARE);
    assert_int_equal(swgpu_fault_count(gpu, 0), 0);
    assert_int_equal(second_unit_bytes(), before);
    assert_memory_equal(seg(gpu, T_SEG_LOCAL, 0), want, n + 4096);
    free(d.buf);
    free(want);
    swgpu_destroy(gpu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_large_copy_runs_in_two_parts_with_the_bytes_of_one),
        cmocka_unit_test(a_copy_that_would_fault_runs_in_order),
        cmocka_unit_test(a_copy_whose_first_half_would_fault_copies_nothing),
        cmocka_unit_test(an_overlapping_copy_runs_in_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
