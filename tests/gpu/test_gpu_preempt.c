/* Preemption on the software GPU (src/gpu/preempt.c; docs/semantics.md §8.2 invariant 4, issue 4
 * "mid-DMA-buffer preemption"): a mid-buffer request stops at a command boundary and saves the
 * position in the context's save record without completing the fence; the resubmitted buffer
 * resumes there with the right data; a buffer-boundary request finishes the buffer; an idle
 * engine answers at once; queued entries are dropped; a record is used once.
 *
 * Timing is made deterministic the documented way: a bandwidth limit makes each command slow,
 * and the tests poll swgpu_engine_progress to preempt after some commands ran. Every assertion
 * is on data, fences and the record, never on time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gpu/gpu_test_util.h"

#include <time.h>
#include <wddm/swgpu.h>

#define REG (64u * 1024u)      /* bytes per region */
#define K 12u                  /* copy+fill pairs: 2K commands */
#define CSA_OFF (15u << 20)    /* the save record, in the local segment */
#define MARK_OFF (14u << 20)   /* a marker region written by "queued" buffers */
/* 64 KiB per command at 4 MiB/s: ~16 ms per command, the whole buffer ~0.4 s. */
#define SLOW_BW (4ull << 20)

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* The non-idempotent sequence: A starts at 1; for i < K: COPY A -> D_i, FILL A = i + 2. Run
 * once from the start, D_i = i + 1. Re-running any prefix a second time changes some D_i
 * (D_0 would get A's later value). */
static void build_sequence(struct t_dma *d)
{
    t_dma_init(d, 8192);
    for (UINT32 i = 0; i < K; i++) {
        BYTE v = (BYTE)(i + 2);
        t_copy(d, t_addr(T_SEG_LOCAL, (UINT64)(i + 1) * REG), 0, 0, t_addr(T_SEG_LOCAL, 0), 0, 0, REG, 1, 1);
        t_fill(d, t_addr(T_SEG_LOCAL, 0), 0, 0, REG, 1, 1, &v, 1);
    }
}

/* A = 1, every D_i and the marker cleared, at full speed (the save record is left alone: a
 * fresh GPU's memory is zero). */
static void reset_data(struct swgpu *gpu, UINT32 fence)
{
    struct t_dma d;
    t_dma_init(&d, 4096);
    BYTE one = 1, zero = 0;
    t_fill(&d, t_addr(T_SEG_LOCAL, 0), 0, 0, REG, 1, 1, &one, 1);
    t_fill(&d, t_addr(T_SEG_LOCAL, REG), 0, 0, REG * K, 1, 1, &zero, 1);
    t_fill(&d, t_addr(T_SEG_LOCAL, MARK_OFF), 0, 0, 4096, 1, 1, &zero, 1);
    t_run(gpu, 0, &d, fence);
    free(d.buf);
}

static int sequence_result_is_right(struct swgpu *gpu)
{
    const BYTE *mem = swgpu_segment_host(gpu, T_SEG_LOCAL);
    for (UINT32 i = 0; i < K; i++)
        for (UINT32 b = 0; b < REG; b += 509)
            if (mem[(UINT64)(i + 1) * REG + b] != (BYTE)(i + 1))
                return 0;
    return 1;
}

static struct swgpu_csa_record read_record(struct swgpu *gpu)
{
    struct swgpu_csa_record r;
    memcpy(&r, (const BYTE *)swgpu_segment_host(gpu, T_SEG_LOCAL) + CSA_OFF, sizeof r);
    return r;
}

static void wait_progress(struct swgpu *gpu, UINT32 engine, UINT64 at_least)
{
    while (swgpu_engine_progress(gpu, engine) < at_least)
        sleep_ms(1);
}

static struct swgpu_preemption wait_preemption(struct swgpu *gpu, UINT32 engine)
{
    struct swgpu_preemption p;
    while (!swgpu_take_preemption(gpu, engine, &p))
        sleep_ms(1);
    return p;
}

static void submit_seq(struct swgpu *gpu, const struct t_dma *d, UINT32 fence, UINT64 csa, int resubmission)
{
    struct swgpu_submission s = {.dma = d->buf, .start = 0, .end = d->len, .fence_id = fence, .paging = 0,
                                 .csa_addr = csa, .resubmission = resubmission};
    assert_int_equal(swgpu_submit2(gpu, 0, &s), 0);
}

/* rule: gpu.mid-buffer-preemption-request-stops */
/* rule: gpu.resubmitted-entry-whose-record-valid */
static void mid_buffer_preemption_saves_the_position_and_resubmission_resumes_there(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct t_dma d;
    build_sequence(&d);
    reset_data(gpu, 1);

    wddm_swgpu_set_bandwidth(SLOW_BW);
    UINT64 p0 = swgpu_engine_progress(gpu, 0);
    submit_seq(gpu, &d, 2, t_addr(T_SEG_LOCAL, CSA_OFF), 0);
    wait_progress(gpu, 0, p0 + 3); /* COPY, FILL, COPY ran: re-running them would be wrong */
    swgpu_preempt(gpu, 0, 100, 1);
    struct swgpu_preemption p = wait_preemption(gpu, 0);
    wddm_swgpu_set_bandwidth(0);

    assert_int_equal(p.preemption_fence_id, 100);
    assert_int_equal(p.last_completed, 1);           /* the preempted buffer did not complete */
    assert_int_equal(swgpu_last_completed_fence(gpu, 0), 1);
    struct swgpu_csa_record r = read_record(gpu);
    assert_int_equal(r.magic, SWGPU_CSA_RECORD_MAGIC);
    assert_true(r.resume_offset > 0 && r.resume_offset < d.len); /* strictly inside */
    assert_int_equal(r.resume_offset % sizeof(struct swgpu_cmd_copy), 0); /* a command boundary */
    assert_true(r.dma == (UINT64)(uintptr_t)d.buf);
    assert_int_equal(r.end, d.len);
    assert_true(r.commands_done >= 3 && r.commands_done < 2 * K);
    assert_int_equal(r.commands_done * sizeof(struct swgpu_cmd_copy), r.resume_offset);

    /* Resubmitted (new fence, Resubmission): resumes at the record and consumes it. */
    UINT64 before = swgpu_engine_progress(gpu, 0);
    submit_seq(gpu, &d, 3, t_addr(T_SEG_LOCAL, CSA_OFF), 1);
    swgpu_wait_fence(gpu, 0, 3);
    assert_true(sequence_result_is_right(gpu));
    /* Only the commands not yet run, plus the buffer itself. */
    assert_int_equal(swgpu_engine_progress(gpu, 0) - before, 2 * K - r.commands_done + 1);
    assert_int_equal(read_record(gpu).magic, 0);
    free(d.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.mid-buffer-0-lets-executing-buffer */
static void buffer_boundary_preemption_finishes_the_buffer(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct t_dma d;
    build_sequence(&d);
    reset_data(gpu, 1);

    wddm_swgpu_set_bandwidth(SLOW_BW);
    UINT64 p0 = swgpu_engine_progress(gpu, 0);
    submit_seq(gpu, &d, 2, t_addr(T_SEG_LOCAL, CSA_OFF), 0);
    wait_progress(gpu, 0, p0 + 2);
    swgpu_preempt(gpu, 0, 100, 0); /* DMA_BUFFER_BOUNDARY */
    struct swgpu_preemption p = wait_preemption(gpu, 0);
    wddm_swgpu_set_bandwidth(0);

    assert_int_equal(p.preemption_fence_id, 100);
    assert_int_equal(p.last_completed, 2);
    assert_int_equal(swgpu_last_completed_fence(gpu, 0), 2);
    assert_true(sequence_result_is_right(gpu));
    assert_int_equal(read_record(gpu).magic, 0); /* nothing saved */
    free(d.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.mid-buffer-0-lets-executing-buffer */
static void mid_buffer_preemption_without_a_save_area_finishes_the_buffer(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct t_dma d;
    build_sequence(&d);
    reset_data(gpu, 1);

    wddm_swgpu_set_bandwidth(SLOW_BW);
    UINT64 p0 = swgpu_engine_progress(gpu, 0);
    submit_seq(gpu, &d, 2, 0, 0);
    wait_progress(gpu, 0, p0 + 2);
    swgpu_preempt(gpu, 0, 100, 1);
    struct swgpu_preemption p = wait_preemption(gpu, 0);
    wddm_swgpu_set_bandwidth(0);

    assert_int_equal(p.last_completed, 2);
    assert_int_equal(swgpu_last_completed_fence(gpu, 0), 2);
    assert_true(sequence_result_is_right(gpu));
    assert_int_equal(read_record(gpu).magic, 0);
    free(d.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.save-area-bad-address-recorded-fault */
static void save_area_at_a_bad_address_is_a_fault_and_the_buffer_finishes(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct t_dma d;
    build_sequence(&d);
    reset_data(gpu, 1);
    UINT64 faults = swgpu_fault_count(gpu, 0);

    wddm_swgpu_set_bandwidth(SLOW_BW);
    UINT64 p0 = swgpu_engine_progress(gpu, 0);
    UINT64 bad = t_addr(T_SEG_LOCAL, 16u << 20); /* one byte past the 16 MiB segment */
    submit_seq(gpu, &d, 2, bad, 1);
    wait_progress(gpu, 0, p0 + 2);
    swgpu_preempt(gpu, 0, 100, 1);
    struct swgpu_preemption p = wait_preemption(gpu, 0);
    wddm_swgpu_set_bandwidth(0);

    assert_int_equal(p.last_completed, 2);
    assert_true(sequence_result_is_right(gpu));
    assert_true(swgpu_fault_count(gpu, 0) > faults);
    struct swgpu_fault f;
    assert_true(swgpu_take_fault(gpu, 0, &f));
    assert_int_equal(f.fence_id, 2);
    assert_true(f.address == bad);
    free(d.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.idle-engine-answers-preemption-once */
static void idle_engine_answers_a_preemption_at_once(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct t_dma d;
    t_dma_init(&d, 4096);
    BYTE v = 7;
    t_fill(&d, t_addr(T_SEG_LOCAL, 0), 0, 0, 64, 1, 1, &v, 1);
    t_run(gpu, 1, &d, 5);
    swgpu_wait_idle(gpu, 1);
    unsigned irq = atomic_load(&t_interrupts);

    swgpu_preempt(gpu, 1, 6, 1);
    struct swgpu_preemption p = wait_preemption(gpu, 1);
    assert_int_equal(p.preemption_fence_id, 6);
    assert_int_equal(p.last_completed, 5);
    assert_true(atomic_load(&t_interrupts) > irq); /* answered with an interrupt */
    assert_false(swgpu_take_preemption(gpu, 1, &p)); /* exactly one answer */
    assert_int_equal(swgpu_last_completed_fence(gpu, 1), 5);
    free(d.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.ring-entries-behind-preempted-buffer */
static void queued_entries_behind_the_preempted_buffer_are_dropped(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct t_dma d, mark, last;
    build_sequence(&d);
    reset_data(gpu, 1);
    t_dma_init(&mark, 4096);
    t_dma_init(&last, 4096);
    BYTE m = 0xAB;
    t_fill(&mark, t_addr(T_SEG_LOCAL, MARK_OFF), 0, 0, 4096, 1, 1, &m, 1);

    wddm_swgpu_set_bandwidth(SLOW_BW);
    UINT64 p0 = swgpu_engine_progress(gpu, 0);
    submit_seq(gpu, &d, 2, t_addr(T_SEG_LOCAL, CSA_OFF), 0);
    swgpu_submit(gpu, 0, mark.buf, 0, mark.len, 3, 0);
    swgpu_submit(gpu, 0, mark.buf, 0, mark.len, 4, 0);
    wait_progress(gpu, 0, p0 + 2);
    swgpu_preempt(gpu, 0, 100, 1);
    struct swgpu_preemption p = wait_preemption(gpu, 0);
    wddm_swgpu_set_bandwidth(0);
    assert_int_equal(p.last_completed, 1);

    /* In-order completion: once fence 5 completes, 3 and 4 would have run had they stayed. */
    t_run(gpu, 0, &last, 5);
    const BYTE *mem = swgpu_segment_host(gpu, T_SEG_LOCAL);
    assert_int_equal(mem[MARK_OFF], 0);
    assert_int_equal(mem[MARK_OFF + 4095], 0);
    free(d.buf);
    free(mark.buf);
    free(last.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.every-entry-save-area-clears-record */
static void a_save_record_is_used_once_and_only_by_its_buffer(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct t_dma d, other;
    build_sequence(&d);
    build_sequence(&other); /* same commands, another buffer */
    const UINT64 full = 2 * K + 1;

    /* 1. A record of buffer d; the same buffer submitted WITHOUT Resubmission runs from the
     *    start and consumes the record. */
    reset_data(gpu, 1);
    wddm_swgpu_set_bandwidth(SLOW_BW);
    UINT64 p0 = swgpu_engine_progress(gpu, 0);
    submit_seq(gpu, &d, 2, t_addr(T_SEG_LOCAL, CSA_OFF), 0);
    wait_progress(gpu, 0, p0 + 2);
    swgpu_preempt(gpu, 0, 100, 1);
    wait_preemption(gpu, 0);
    wddm_swgpu_set_bandwidth(0);
    assert_int_equal(read_record(gpu).magic, SWGPU_CSA_RECORD_MAGIC);
    reset_data(gpu, 3);
    UINT64 before = swgpu_engine_progress(gpu, 0);
    submit_seq(gpu, &d, 4, t_addr(T_SEG_LOCAL, CSA_OFF), 0);
    swgpu_wait_fence(gpu, 0, 4);
    assert_int_equal(swgpu_engine_progress(gpu, 0) - before, full);
    assert_int_equal(read_record(gpu).magic, 0);
    assert_true(sequence_result_is_right(gpu));

    /* 2. The consumed record is not used by a later Resubmission either. */
    reset_data(gpu, 5);
    before = swgpu_engine_progress(gpu, 0);
    submit_seq(gpu, &d, 6, t_addr(T_SEG_LOCAL, CSA_OFF), 1);
    swgpu_wait_fence(gpu, 0, 6);
    assert_int_equal(swgpu_engine_progress(gpu, 0) - before, full);
    assert_true(sequence_result_is_right(gpu));

    /* 3. A valid record of buffer d is not used by another buffer resubmitted on it. */
    reset_data(gpu, 7);
    wddm_swgpu_set_bandwidth(SLOW_BW);
    p0 = swgpu_engine_progress(gpu, 0);
    submit_seq(gpu, &d, 8, t_addr(T_SEG_LOCAL, CSA_OFF), 0);
    wait_progress(gpu, 0, p0 + 2);
    swgpu_preempt(gpu, 0, 101, 1);
    wait_preemption(gpu, 0);
    wddm_swgpu_set_bandwidth(0);
    assert_int_equal(read_record(gpu).magic, SWGPU_CSA_RECORD_MAGIC);
    reset_data(gpu, 9);
    before = swgpu_engine_progress(gpu, 0);
    struct swgpu_submission s = {.dma = other.buf, .start = 0, .end = other.len, .fence_id = 10,
                                 .csa_addr = t_addr(T_SEG_LOCAL, CSA_OFF), .resubmission = 1};
    swgpu_submit2(gpu, 0, &s);
    swgpu_wait_fence(gpu, 0, 10);
    assert_int_equal(swgpu_engine_progress(gpu, 0) - before, full);
    assert_true(sequence_result_is_right(gpu));
    assert_int_equal(read_record(gpu).magic, 0);
    free(d.buf);
    free(other.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.paused-engine-answers-nothing-resume */
static void paused_engine_answers_when_resumed(void **state)
{
    /* Pause freezes the engine (include/wddm/swgpu.h): it finishes nothing new, preemption
     * answers included; on resume it answers before taking the queued buffer, which is
     * dropped. */
    struct swgpu *gpu = t_gpu_create();
    struct t_dma mark;
    t_dma_init(&mark, 4096);
    BYTE m = 0xCD, zero = 0;
    struct t_dma clr;
    t_dma_init(&clr, 4096);
    t_fill(&clr, t_addr(T_SEG_LOCAL, MARK_OFF), 0, 0, 4096, 1, 1, &zero, 1);
    t_run(gpu, 0, &clr, 1);
    t_fill(&mark, t_addr(T_SEG_LOCAL, MARK_OFF), 0, 0, 4096, 1, 1, &m, 1);

    wddm_swgpu_set_paused(1);
    swgpu_submit(gpu, 0, mark.buf, 0, mark.len, 2, 0);
    swgpu_preempt(gpu, 0, 50, 1);
    /* While paused: no answer. */
    struct swgpu_preemption p;
    sleep_ms(20);
    assert_false(swgpu_take_preemption(gpu, 0, &p));
    wddm_swgpu_set_paused(0);
    p = wait_preemption(gpu, 0);
    assert_int_equal(p.preemption_fence_id, 50);
    assert_int_equal(p.last_completed, 1);
    t_run(gpu, 0, &clr, 3);
    assert_int_equal(((const BYTE *)swgpu_segment_host(gpu, T_SEG_LOCAL))[MARK_OFF], 0);
    free(mark.buf);
    free(clr.buf);
    swgpu_destroy(gpu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mid_buffer_preemption_saves_the_position_and_resubmission_resumes_there),
        cmocka_unit_test(buffer_boundary_preemption_finishes_the_buffer),
        cmocka_unit_test(mid_buffer_preemption_without_a_save_area_finishes_the_buffer),
        cmocka_unit_test(save_area_at_a_bad_address_is_a_fault_and_the_buffer_finishes),
        cmocka_unit_test(idle_engine_answers_a_preemption_at_once),
        cmocka_unit_test(queued_entries_behind_the_preempted_buffer_are_dropped),
        cmocka_unit_test(a_save_record_is_used_once_and_only_by_its_buffer),
        cmocka_unit_test(paused_engine_answers_when_resumed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
