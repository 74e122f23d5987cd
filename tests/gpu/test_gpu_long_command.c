/* A reset stops the software GPU inside one long command (issue 14 §4; docs/semantics.md §8.3:
 * DxgkDdiResetEngine returns once the engine is idle): the command processor looks for a reset
 * every SWGPU_STOP_CHECK_BYTES of work (src/gpu/exec.c checkpoint), not only between commands.
 *  - A FILL of 2^19 slices of 2^32 - 1 rows of 4 KiB, 2^63 bytes (pitches 0: every row lands on
 *    the same 4 KiB, so the command stays inside its segment and would run for centuries; 2^32
 *    slices would be refused: the box's byte count must fit 64 bits) on a render engine and on a
 *    paging buffer; a COPY of 1 MiB through a GPU slowed to 1 KiB/s (17 minutes).
 *  - The reset returns, the buffer's fence is LastAbortedFenceId, the command after the long one
 *    never runs, the engine's progress did not move (an unfinished command is no progress, which
 *    is what lets the kernel's timeout detection see it), and the engine runs the next buffer
 *    with the right bytes: the state is consistent.
 *  - Arithmetic: a region whose rows × pitch leave the segment faults at the first row outside
 *    it, even with every count and pitch at 2^32 - 1 (no wrap into a wild access).
 * Every wait is bounded (BOUND_MS): without the in-command check the reset never returns, and the
 * test reports it and exits instead of hanging (the engine thread cannot be joined then). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gpu/gpu_test_util.h"

#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <wddm/swgpu.h>

enum { BOUND_MS = 10000, TARGET = 1u << 20, MARK = 2u << 20, SRC = 4u << 20 };

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static BYTE *local(struct swgpu *gpu)
{
    return swgpu_segment_host(gpu, T_SEG_LOCAL);
}

/* The reset runs on its own thread so that the test can bound its wait for it. */
struct reset_call {
    struct swgpu *gpu;
    UINT32 engine;
    UINT32 aborted;
    atomic_int done;
};

static void *reset_thread(void *arg)
{
    struct reset_call *r = arg;
    swgpu_reset_engine(r->gpu, r->engine, &r->aborted);
    atomic_store(&r->done, 1);
    return NULL;
}

static void fail_unbounded(const char *what)
{
    /* The engine is stuck in the command and the reset with it: nothing can be joined or
     * destroyed, so end the process here with the failure (CTest sees it at once). */
    fprintf(stdout, "[  FAILED  ] %s did not return within %d ms: the engine does not look for a reset inside a "
                    "command\n", what, BOUND_MS);
    fflush(stdout);
    _exit(1);
}

/* Resets `engine` and returns LastAbortedFenceId, or ends the test after BOUND_MS. */
static UINT32 bounded_reset(struct swgpu *gpu, UINT32 engine)
{
    struct reset_call r = {.gpu = gpu, .engine = engine};
    atomic_init(&r.done, 0);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, reset_thread, &r), 0);
    for (int ms = 0; !atomic_load(&r.done); ms++) {
        if (ms >= BOUND_MS)
            fail_unbounded("swgpu_reset_engine");
        sleep_ms(1);
    }
    pthread_join(t, NULL);
    return r.aborted;
}

/* Waits (bounded) until the engine finished the buffer's first command (a small marker; the
 * progress counter is the engine's, read without touching memory it writes), then a little
 * longer: the engine is inside the long command that follows. */
static void wait_inside_long_command(struct swgpu *gpu, UINT32 engine, UINT64 progress0)
{
    for (int ms = 0; swgpu_engine_progress(gpu, engine) == progress0; ms++) {
        if (ms >= BOUND_MS)
            fail_unbounded("the buffer's first command");
        sleep_ms(1);
    }
    sleep_ms(50);
}

/* 8 bytes: through a GPU slowed to 1 KiB/s it takes 8 ms. */
static void put_start_marker(struct t_dma *d)
{
    BYTE s = 0x11;
    t_fill(d, t_addr(T_SEG_LOCAL, MARK + 4096), 0, 0, 8, 1, 1, &s, 1);
}

/* The engine is consistent after the reset: a new buffer runs and writes its bytes. */
static void engine_runs_next_buffer(struct swgpu *gpu, UINT32 engine, UINT32 fence)
{
    struct t_dma d;
    BYTE v = 0x5C;
    t_dma_init(&d, 4096);
    t_fill(&d, t_addr(T_SEG_LOCAL, MARK + 8192), 0, 0, 4096, 1, 1, &v, 1);
    swgpu_submit(gpu, engine, d.buf, 0, d.len, fence, 0);
    for (int ms = 0; swgpu_last_completed_fence(gpu, engine) != fence; ms++) {
        if (ms >= BOUND_MS)
            fail_unbounded("the buffer after the reset");
        sleep_ms(1);
    }
    for (UINT32 i = 0; i < 4096; i++)
        assert_int_equal(local(gpu)[MARK + 8192 + i], 0x5C);
    free(d.buf);
}

/* A FILL that would run for centuries, then a mark that must never be written. */
static void long_fill_buffer(struct t_dma *d)
{
    BYTE v = 0xAB, m = 0x77;
    t_dma_init(d, 4096);
    put_start_marker(d);
    t_fill(d, t_addr(T_SEG_LOCAL, TARGET), 0, 0, 4096, 0xFFFFFFFFu, 1u << 19, &v, 1);
    t_fill(d, t_addr(T_SEG_LOCAL, MARK), 0, 0, 4096, 1, 1, &m, 1);
}

static void reset_stops_a_fill_of_2_to_the_51_rows(int paging)
{
    struct swgpu *gpu = t_gpu_create();
    struct t_dma d;
    long_fill_buffer(&d);
    UINT64 progress = swgpu_engine_progress(gpu, 0);
    swgpu_submit(gpu, 0, d.buf, 0, d.len, 1, paging);
    wait_inside_long_command(gpu, 0, progress);

    assert_int_equal(bounded_reset(gpu, 0), 1);          /* LastAbortedFenceId: the buffer's */
    assert_int_equal(swgpu_last_completed_fence(gpu, 0), 1);
    assert_int_equal(swgpu_engine_progress(gpu, 0), progress + 1); /* the FILL did not finish */
    assert_int_equal(local(gpu)[TARGET + 4095], 0xAB);    /* it was running */
    assert_int_equal(local(gpu)[MARK], 0);                /* the next command never ran */
    assert_int_equal(local(gpu)[TARGET + 4096], 0);       /* the fill stayed in its 4 KiB */
    assert_false(swgpu_engine_hung(gpu, 0));
    engine_runs_next_buffer(gpu, 0, 2);
    free(d.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.reset-stops-gpu-inside-one-command */
static void reset_stops_a_render_fill_of_2_to_the_51_rows(void **state)
{
    (void)state;
    reset_stops_a_fill_of_2_to_the_51_rows(0);
}

/* rule: gpu.reset-stops-gpu-inside-one-command */
static void reset_stops_a_paging_fill_of_2_to_the_51_rows(void **state)
{
    (void)state;
    reset_stops_a_fill_of_2_to_the_51_rows(1);
}

/* A 1 MiB COPY through a GPU slowed to 1 KiB/s: the bandwidth wait is inside the command too. */
/* rule: gpu.reset-stops-gpu-inside-one-command (mutation-checked: with `checkpoint` never checking, the reset does not return and the test fails at its 10 s bound) */
static void reset_stops_a_copy_slowed_to_hours(void **state)
{
    (void)state;
    struct swgpu *gpu = t_gpu_create();
    memset(local(gpu) + SRC, 0x3D, 1u << 20);
    struct t_dma d;
    BYTE m = 0x77;
    t_dma_init(&d, 4096);
    put_start_marker(&d);
    t_copy(&d, t_addr(T_SEG_LOCAL, TARGET), 0, 0, t_addr(T_SEG_LOCAL, SRC), 0, 0, 1u << 20, 1, 1);
    t_fill(&d, t_addr(T_SEG_LOCAL, MARK), 0, 0, 4096, 1, 1, &m, 1);
    UINT64 progress = swgpu_engine_progress(gpu, 1);
    wddm_swgpu_set_bandwidth(1024);
    swgpu_submit(gpu, 1, d.buf, 0, d.len, 7, 0);
    wait_inside_long_command(gpu, 1, progress);

    assert_int_equal(bounded_reset(gpu, 1), 7);
    wddm_swgpu_set_bandwidth(0);
    assert_int_equal(swgpu_engine_progress(gpu, 1), progress + 1); /* the COPY did not finish */
    assert_int_equal(local(gpu)[TARGET], 0x3D); /* its first MiB moved, then it waited */
    assert_int_equal(local(gpu)[MARK], 0);
    engine_runs_next_buffer(gpu, 1, 8);
    free(d.buf);
    swgpu_destroy(gpu);
}

/* rows × row_pitch past the segment's end: the rows inside it are written, the first row
 * outside faults (nothing past the 16 MiB segment is touched, no wrap to its start). */
/* rule: gpu.command-parser-arithmetic-bounded-box */
static void rows_times_pitch_past_the_segment_fault_at_the_first_row_outside(void **state)
{
    (void)state;
    struct swgpu *gpu = t_gpu_create();
    struct t_dma d;
    BYTE v = 0x42;
    t_dma_init(&d, 4096);
    /* Rows 1 MiB apart from 15 MiB: row 0 inside the 16 MiB segment, row 1 at its end. */
    t_fill(&d, t_addr(T_SEG_LOCAL, 15u << 20), 1u << 20, 0, 4096, 0xFFFFFFFFu, 1, &v, 1);
    t_run(gpu, 0, &d, 1);
    struct swgpu_fault f;
    assert_true(swgpu_take_fault(gpu, 0, &f));
    assert_int_equal(f.opcode, SWGPU_OP_FILL);
    assert_int_equal(local(gpu)[15u << 20], 0x42);
    assert_int_equal(local(gpu)[0], 0); /* no wrap-around to the segment's start */
    free(d.buf);

    /* The largest pitches and row count (2^32 - 1): 64-bit arithmetic, no wrap; row 0 is
     * written, row 1 (4 GiB further) faults. */
    t_dma_init(&d, 4096);
    t_fill(&d, t_addr(T_SEG_LOCAL, 0), 0xFFFFFFFFu, 0xFFFFFFFFu, 4096, 0xFFFFFFFFu, 1, &v, 1);
    local(gpu)[15u << 20] = 0;
    t_run(gpu, 0, &d, 2);
    assert_true(swgpu_take_fault(gpu, 0, &f));
    assert_int_equal(f.opcode, SWGPU_OP_FILL);
    assert_int_equal(local(gpu)[0], 0x42); /* row 0 of slice 0 */
    free(d.buf);

    /* A box whose byte count does not fit 64 bits (4 KiB x 2^32 rows x 2^32 slices) faults
     * before any byte is written. */
    t_dma_init(&d, 4096);
    t_fill(&d, t_addr(T_SEG_LOCAL, 8192), 0, 0, 4096, 0xFFFFFFFFu, 0xFFFFFFFFu, &v, 1);
    t_run(gpu, 0, &d, 3);
    assert_true(swgpu_take_fault(gpu, 0, &f));
    assert_int_equal(f.opcode, SWGPU_OP_FILL);
    assert_int_equal(local(gpu)[8192], 0);
    free(d.buf);
    swgpu_destroy(gpu);
}

static int teardown(void **state)
{
    (void)state;
    wddm_swgpu_set_bandwidth(0);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(reset_stops_a_render_fill_of_2_to_the_51_rows, teardown),
        cmocka_unit_test_teardown(reset_stops_a_paging_fill_of_2_to_the_51_rows, teardown),
        cmocka_unit_test_teardown(reset_stops_a_copy_slowed_to_hours, teardown),
        cmocka_unit_test_teardown(rows_times_pitch_past_the_segment_fault_at_the_first_row_outside, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
