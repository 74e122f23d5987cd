/* A bad DMA buffer never crashes the process: the engine records a fault, skips the rest of
 * that buffer, still completes its fence, and the next buffer runs normally (swgpu_hw.h). */
/* rule: kmd.gpu-fault-still-completes-fence-node (all) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gpu/gpu_test_util.h"

/* Runs `d` (fence 1) and checks: one fault, fence completed, and the WRITE after the bad
 * command was skipped. Then a good buffer (fence 2) still executes. */
static void expect_fault_then_recovery(struct swgpu *gpu, struct t_dma *d, UINT32 expected_opcode)
{
    const UINT32 marker = 0xC0FFEEu;
    t_write(d, t_addr(T_SEG_LOCAL, 1u << 20), 0, 0, 4, 1, 1, &marker);
    t_run(gpu, 0, d, 1);
    assert_int_equal(swgpu_last_completed_fence(gpu, 0), 1);
    assert_int_equal(swgpu_fault_count(gpu, 0), 1);
    struct swgpu_fault f;
    assert_int_equal(swgpu_take_fault(gpu, 0, &f), 1);
    assert_int_equal(f.fence_id, 1);
    assert_int_equal(f.opcode, expected_opcode);
    assert_non_null(f.reason);
    assert_int_equal(swgpu_take_fault(gpu, 0, &f), 0);
    UINT32 v;
    memcpy(&v, (BYTE *)swgpu_segment_host(gpu, T_SEG_LOCAL) + (1u << 20), 4);
    assert_int_equal(v, 0); /* skipped */

    struct t_dma ok;
    t_dma_init(&ok, 4096);
    t_write(&ok, t_addr(T_SEG_LOCAL, 1u << 20), 0, 0, 4, 1, 1, &marker);
    t_run(gpu, 0, &ok, 2);
    memcpy(&v, (BYTE *)swgpu_segment_host(gpu, T_SEG_LOCAL) + (1u << 20), 4);
    assert_int_equal(v, marker);
    assert_int_equal(swgpu_fault_count(gpu, 0), 1);
    free(ok.buf);
}

/* rule: gpu.bad-dma-buffers-fault-skip-rest */
static void copy_past_segment_end_faults(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct t_dma d;
    t_dma_init(&d, 4096);
    /* Segment 2 is 4 MiB: the last 100 bytes of this copy are outside it. */
    t_copy(&d, t_addr(T_SEG_VISIBLE, (4u << 20) - 100), 0, 0, t_addr(T_SEG_LOCAL, 0), 0, 0, 200, 1, 1);
    expect_fault_then_recovery(gpu, &d, SWGPU_OP_COPY);
    free(d.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.bad-dma-buffers-fault-skip-rest */
static void unknown_segment_id_faults(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct t_dma d;
    t_dma_init(&d, 4096);
    const BYTE x = 1;
    t_fill(&d, SWGPU_SEGMENT_BASE(9) + 64, 0, 0, 16, 1, 1, &x, 1);
    expect_fault_then_recovery(gpu, &d, SWGPU_OP_FILL);
    free(d.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.bad-dma-buffers-fault-skip-rest */
static void huge_pitch_leaving_segment_faults(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct t_dma d;
    t_dma_init(&d, 4096);
    const BYTE x = 1;
    /* 2 slices of pitch 4 GiB: the second slice is beyond the 16 MiB segment. */
    t_fill(&d, t_addr(T_SEG_LOCAL, 0), 16, 0xFFFFFFF0u, 16, 1, 2, &x, 1);
    expect_fault_then_recovery(gpu, &d, SWGPU_OP_FILL);
    free(d.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.bad-dma-buffers-fault-skip-rest */
static void never_mapped_aperture_page_faults(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct t_dma d;
    t_dma_init(&d, 4096);
    t_copy(&d, t_addr(T_SEG_LOCAL, 0), 0, 0, t_addr(T_SEG_APERTURE, 5 * 4096), 0, 0, 64, 1, 1);
    expect_fault_then_recovery(gpu, &d, SWGPU_OP_COPY);
    free(d.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.bad-dma-buffers-fault-skip-rest */
static void null_system_address_faults(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct t_dma d;
    t_dma_init(&d, 4096);
    /* Segment 0 offset 0x100: an unpatched or non-resident address. */
    t_copy(&d, 0x100, 0, 0, t_addr(T_SEG_LOCAL, 0), 0, 0, 64, 1, 1);
    expect_fault_then_recovery(gpu, &d, SWGPU_OP_COPY);
    free(d.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.bad-dma-buffers-fault-skip-rest */
static void bad_headers_fault(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct t_dma d;
    t_dma_init(&d, 4096);
    struct swgpu_cmd_header h = {77, 8}; /* unknown opcode */
    t_dma_put(&d, &h, sizeof h);
    expect_fault_then_recovery(gpu, &d, 77);
    free(d.buf);
    swgpu_destroy(gpu);

    gpu = t_gpu_create();
    t_dma_init(&d, 4096);
    struct swgpu_cmd_header odd = {SWGPU_OP_NOP, 12}; /* not a multiple of 8 */
    t_dma_put(&d, &odd, sizeof odd);
    t_dma_put(&d, &odd, sizeof odd);
    expect_fault_then_recovery(gpu, &d, SWGPU_OP_COUNT);
    free(d.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.bad-dma-buffers-fault-skip-rest */
static void gart_map_outside_aperture_faults_and_maps_nothing(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct t_dma d;
    t_dma_init(&d, 4096);
    BYTE *page = aligned_alloc(4096, 4096);
    UINT64 pages[2] = {(UINT64)(uintptr_t)page, (UINT64)(uintptr_t)page};
    /* The aperture has 2048 pages: 2047 + 2 runs past it. */
    t_gart_map(&d, 2047, 2, pages);
    expect_fault_then_recovery(gpu, &d, SWGPU_OP_GART_MAP);
    /* Page 2047 was not mapped by the refused command. */
    struct t_dma c;
    t_dma_init(&c, 4096);
    t_copy(&c, t_addr(T_SEG_LOCAL, 0), 0, 0, t_addr(T_SEG_APERTURE, 2047ull * 4096), 0, 0, 8, 1, 1);
    t_run(gpu, 0, &c, 3);
    assert_int_equal(swgpu_fault_count(gpu, 0), 2);
    free(c.buf);
    free(page);
    free(d.buf);
    swgpu_destroy(gpu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(copy_past_segment_end_faults),
        cmocka_unit_test(unknown_segment_id_faults),
        cmocka_unit_test(huge_pitch_leaving_segment_faults),
        cmocka_unit_test(never_mapped_aperture_page_faults),
        cmocka_unit_test(null_system_address_faults),
        cmocka_unit_test(bad_headers_fault),
        cmocka_unit_test(gart_map_outside_aperture_faults_and_maps_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
