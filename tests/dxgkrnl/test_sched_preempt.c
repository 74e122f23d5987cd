/* Priorities, the bounded hardware queue and mid-DMA-buffer preemption (issue 4;
 * docs/semantics.md §6.2 HwQueuePacketCap, §8.2 invariant 4), against the reference KMD and the
 * software GPU. The order of events is read from the scheduling trace, never from timing:
 * the GPU is slowed down with wddm_swgpu_set_bandwidth only so that there is something to
 * preempt. main() sets a caps file making the hardware queue 3 deep. */
/* rule: sched.gate-nothing-enters-node-hardware-queue (all, TSan) */
/* rule: sched.tickets-retire-out-order-once-priorities (out of order: data checked after every lock) */
/* rule: runtime.counters-preemptions-engine-resets */
#include "sched_cmds.h"

#include <stdio.h>
#include <unistd.h>

#define HW_CAP 3u
#define MAX_EVENTS 2048u
#define CHUNK (64u * 1024u)

static struct wddm_sched_event ev[MAX_EVENTS];

static size_t trace_read(void)
{
    size_t n = wddm_sched_trace_read(ev, MAX_EVENTS);
    assert_true(n < MAX_EVENTS);
    return n;
}

/* One copy and a read back: both allocations are resident with their paging done, so that
 * packets placed while the GPU is paused wait for nothing but the hardware queue. */
static void warm(struct renv *e, D3DKMT_HANDLE dst, D3DKMT_HANDLE src)
{
    assert_int_equal(renv_copy(e, dst, src, 4096), STATUS_SUCCESS);
    (void)renv_read_sum(e, dst, 0, 4096);
}

/* Waits (by polling the trace, no time limit asserted) until `ctx` has a SUBMIT event. */
static void wait_submitted(D3DKMT_HANDLE ctx)
{
    for (;;) {
        size_t n = wddm_sched_trace_read(ev, MAX_EVENTS);
        for (size_t i = 0; i < n; i++)
            if (ev[i].type == WDDM_SCHED_EVENT_SUBMIT && ev[i].context == ctx)
                return;
        usleep(1000);
    }
}

/* rule: sched.hardware-queue-node-holds-most-dxgk (caps file: 3; GPU paused: exactly 3 submitted; trace depth never above 3) */
static void test_hardware_queue_holds_at_most_HwQueuePacketCap_packets(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE dst = renv_alloc(&e, SWGPU_ALLOC_READBACK, 4096);
    D3DKMT_HANDLE src = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, 4096);
    renv_write(&e, src, 4096, 7);
    warm(&e, dst, src);
    wddm_sched_trace_enable(1);
    wddm_sched_trace_clear();
    wddm_swgpu_set_paused(1);
    for (int i = 0; i < 12; i++)
        assert_int_equal(renv_copy(&e, dst, src, 4096), STATUS_SUCCESS);
    /* While paused nothing completes: exactly HW_CAP render packets reach the hardware. */
    for (;;) { /* until the worker placed what it may */
        size_t n = trace_read(), submits = 0;
        for (size_t i = 0; i < n; i++)
            submits += ev[i].type == WDDM_SCHED_EVENT_SUBMIT && ev[i].context == e.context;
        if (submits >= HW_CAP)
            break;
        usleep(1000);
    }
    usleep(20000); /* give a wrong scheduler the chance to submit more; nothing is timed */
    size_t n = trace_read(), submits = 0;
    for (size_t i = 0; i < n; i++)
        submits += ev[i].type == WDDM_SCHED_EVENT_SUBMIT && ev[i].context == e.context;
    assert_int_equal(submits, HW_CAP);
    wddm_swgpu_set_paused(0);
    assert_int_equal(renv_read_sum(&e, dst, 0, 4096), renv_read_sum(&e, src, 0, 4096));
    /* Over the whole run, never more than HW_CAP submitted and not completed on node 0. */
    n = trace_read();
    int depth = 0, max_depth = 0, total = 0;
    for (size_t i = 0; i < n; i++) {
        if (ev[i].node != 0)
            continue;
        if (ev[i].type == WDDM_SCHED_EVENT_SUBMIT && ev[i].context) {
            depth++;
            total++;
        }
        if (ev[i].type == WDDM_SCHED_EVENT_COMPLETE && depth > 0)
            depth--;
        if (depth > max_depth)
            max_depth = depth;
    }
    assert_int_equal(total, 12);
    assert_true(max_depth <= (int)HW_CAP);
    wddm_sched_trace_enable(0);
    renv_close(&e);
}

/* Per-node tickets are given at D3DKMTRender (docs/rules/kernel.md): a DMA buffer still in
 * the kernel's software queue (the hardware queue is full) already makes its allocations busy
 * for a lock, although it has no fence yet. */
/* rule: kernel.node-tickets-assigned-d3dkmtrender-each */
static void test_work_queued_but_not_submitted_is_visible_to_a_lock(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE dst = renv_alloc(&e, SWGPU_ALLOC_READBACK, 4096), other = renv_alloc(&e, SWGPU_ALLOC_READBACK, 4096);
    D3DKMT_HANDLE src = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, 4096);
    warm(&e, dst, src);
    warm(&e, other, src);
    wddm_sched_trace_enable(1);
    wddm_sched_trace_clear();
    wddm_swgpu_set_paused(1);
    for (unsigned i = 0; i < HW_CAP; i++) /* the hardware queue is full */
        assert_int_equal(renv_copy(&e, other, src, 4096), STATUS_SUCCESS);
    assert_int_equal(renv_copy(&e, dst, src, 4096), STATUS_SUCCESS); /* stays in the software queue */
    for (;;) { /* the worker placed what it may: HW_CAP SUBMITs, none for the copy into dst */
        size_t n = trace_read(), submits = 0;
        for (size_t i = 0; i < n; i++)
            submits += ev[i].type == WDDM_SCHED_EVENT_SUBMIT && ev[i].context == e.context;
        if (submits >= HW_CAP)
            break;
        usleep(1000);
    }
    void *p;
    assert_int_equal(renv_lock(&e, dst, LOCK_READONLY | LOCK_DONOTWAIT, &p), STATUS_GRAPHICS_ALLOCATION_BUSY);
    size_t n = trace_read(), submits = 0;
    for (size_t i = 0; i < n; i++)
        submits += ev[i].type == WDDM_SCHED_EVENT_SUBMIT && ev[i].context == e.context;
    assert_int_equal(submits, HW_CAP); /* it really was not submitted when the lock said busy */
    wddm_swgpu_set_paused(0);
    assert_int_equal(renv_lock(&e, dst, LOCK_READONLY, &p), STATUS_SUCCESS);
    renv_unlock(&e, dst);
    wddm_sched_trace_enable(0);
    renv_close(&e);
}

/* rule: sched.contexts-scheduling-priority-7-7-0 */
static void test_higher_priority_context_is_placed_first(void **state)
{
    (void)state;
    struct renv lo, hi;
    renv_open(&lo);
    renv_add_context(&lo, &hi, false);
    renv_set_priority(&lo, -3);
    renv_set_priority(&hi, 3);
    D3DKMT_HANDLE dst = renv_alloc(&lo, SWGPU_ALLOC_READBACK, 4096);
    D3DKMT_HANDLE src = renv_alloc(&lo, SWGPU_ALLOC_UPLOAD, 4096);
    renv_write(&lo, src, 4096, 3);
    warm(&lo, dst, src);
    wddm_sched_trace_enable(1);
    wddm_sched_trace_clear();
    wddm_swgpu_set_paused(1);
    for (int i = 0; i < 8; i++)
        assert_int_equal(renv_copy(&lo, dst, src, 4096), STATUS_SUCCESS);
    wait_submitted(lo.context);
    for (int i = 0; i < 2; i++)
        assert_int_equal(renv_copy(&hi, dst, src, 4096), STATUS_SUCCESS);
    wddm_swgpu_set_paused(0);
    assert_int_equal(renv_read_sum(&lo, dst, 0, 4096), renv_read_sum(&lo, src, 0, 4096));
    size_t n = trace_read();
    /* Both of hi's packets are submitted before the last of lo's: the queued low-priority
     * packets waited (and the ones in the hardware queue were preempted back). */
    size_t last_hi = 0, last_lo = 0, his = 0;
    for (size_t i = 0; i < n; i++) {
        if (ev[i].type != WDDM_SCHED_EVENT_SUBMIT)
            continue;
        if (ev[i].context == hi.context) {
            last_hi = i;
            his++;
        }
        if (ev[i].context == lo.context)
            last_lo = i;
    }
    assert_int_equal(his, 2);
    assert_true(last_hi < last_lo);
    wddm_sched_trace_enable(0);
    renv_close(&lo);
}

/* The hard case: one long DMA buffer of a low-priority context, made of many commands whose
 * result depends on their order (a restart from the top would read what a later command
 * overwrote), is preempted for a high-priority context's work and resumed; every byte is
 * checked. */
/* rule: sched.preemption-before-placing-packet-while */
/* rule: sched.dma-preempted-preemptionfenceid (trace: lo SUBMIT, PREEMPT, hi SUBMIT, lo SUBMIT again; 12 order-dependent COPY/FILL steps all right) */
/* rule: gpu.preemption-leaves-engine-null-context */
static void test_long_low_priority_buffer_is_preempted_mid_buffer_and_resumes_right(void **state)
{
    (void)state;
    struct renv lo, hi;
    renv_open(&lo);
    renv_add_context(&lo, &hi, true); /* another device too */
    renv_set_priority(&lo, -7);
    renv_set_priority(&hi, 7);
    enum { STEPS = 12 };
    D3DKMT_HANDLE a = renv_alloc(&lo, SWGPU_ALLOC_READBACK, CHUNK);
    D3DKMT_HANDLE out = renv_alloc(&lo, SWGPU_ALLOC_READBACK, CHUNK * STEPS);
    D3DKMT_HANDLE hsrc = renv_alloc(&hi, SWGPU_ALLOC_UPLOAD, 4096);
    D3DKMT_HANDLE hdst = renv_alloc(&hi, SWGPU_ALLOC_READBACK, 4096);
    renv_write(&lo, a, CHUNK, 11);
    renv_write(&hi, hsrc, 4096, 12);
    uint64_t original = renv_read_sum(&lo, a, 0, CHUNK);
    D3DKMT_HANDLE regs = renv_alloc(&lo, SWGPU_ALLOC_READBACK, 4096), hregs = renv_alloc(&hi, SWGPU_ALLOC_READBACK, 4096);
    warm(&lo, regs, a);
    warm(&hi, hregs, hsrc);
    struct wddm_counters c0 = renv_counters();
    wddm_sched_trace_enable(1);
    wddm_sched_trace_clear();
    wddm_swgpu_set_bandwidth(16ull << 20); /* ~4 ms per 64 KiB step */
    /* out[i] = a as it is after step i-1; then a = i (so out[0] = the original a, out[i] = i).
     * A register set first and stored last crosses the preemption too (issue 20 §1: the engine
     * saves the preempted context's registers, hi runs with its own, lo gets its own back). */
    struct cmds b;
    cmds_begin(&b, &lo);
    cmds_set_reg(&b, 4, 0x1010);
    for (UINT i = 0; i < STEPS; i++) {
        cmds_copy(&b, out, i * CHUNK, a, 0, CHUNK);
        cmds_fill(&b, a, 0, CHUNK, (BYTE)(0x40 + i));
    }
    cmds_store_reg(&b, 4, regs, 0);
    assert_int_equal(cmds_render(&b), STATUS_SUCCESS);
    wait_submitted(lo.context);
    struct cmds h;
    cmds_begin(&h, &hi);
    cmds_store_reg(&h, 4, hregs, 0); /* hi's own registers: zero */
    cmds_set_reg(&h, 4, 0x2020);
    cmds_copy(&h, hdst, 0, hsrc, 0, 4096);
    assert_int_equal(cmds_render(&h), STATUS_SUCCESS);
    assert_int_equal(renv_read_sum(&hi, hdst, 0, 4096), renv_read_sum(&hi, hsrc, 0, 4096));
    wddm_swgpu_set_bandwidth(0);
    void *rp = NULL;
    assert_int_equal(renv_lock(&lo, regs, LOCK_READONLY, &rp), STATUS_SUCCESS);
    assert_true(*(const UINT64 *)rp == 0x1010);
    renv_unlock(&lo, regs);
    assert_int_equal(renv_lock(&hi, hregs, LOCK_READONLY, &rp), STATUS_SUCCESS);
    assert_true(*(const UINT64 *)rp == 0);
    renv_unlock(&hi, hregs);
    /* Every step's result is right. */
    assert_int_equal(renv_read_sum(&lo, out, 0, CHUNK), original);
    for (UINT i = 1; i < STEPS; i++) {
        void *p = NULL;
        assert_int_equal(renv_lock(&lo, out, LOCK_READONLY, &p), STATUS_SUCCESS);
        const BYTE *q = (const BYTE *)p + (size_t)i * CHUNK;
        for (UINT j = 0; j < CHUNK; j += 4093)
            assert_int_equal(q[j], 0x40 + i - 1);
        renv_unlock(&lo, out);
    }
    size_t n = trace_read();
    size_t preempt = n, hi_submit = n, lo_resubmit = n, lo_first = n;
    for (size_t i = 0; i < n; i++) {
        if (ev[i].type == WDDM_SCHED_EVENT_PREEMPT && preempt == n)
            preempt = i;
        if (ev[i].type == WDDM_SCHED_EVENT_SUBMIT && ev[i].context == lo.context) {
            if (lo_first == n)
                lo_first = i;
            else if (lo_resubmit == n)
                lo_resubmit = i;
        }
        if (ev[i].type == WDDM_SCHED_EVENT_SUBMIT && ev[i].context == hi.context && hi_submit == n)
            hi_submit = i;
    }
    /* lo submitted, preempted, hi submitted, lo submitted again (resumed from its save area). */
    assert_true(lo_first < preempt);
    assert_true(preempt < hi_submit);
    assert_true(hi_submit < lo_resubmit && lo_resubmit < n);
    struct wddm_counters c1 = renv_counters();
    assert_true(c1.preemptions > c0.preemptions);
    assert_int_equal(c1.engine_resets, c0.engine_resets); /* preempted, not reset */
    wddm_sched_trace_enable(0);
    D3DKMT_DESTROYDEVICE dd = { .hDevice = hi.device };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    renv_close(&lo);
}

/* Issue 20 §2: the CPU sees the high-priority work done as soon as it is. While a long
 * low-priority buffer (preempted for it, older ticket) still runs, the high-priority context's
 * GPU signal has come and its allocations are idle for a DO_NOT_WAIT lock; the low-priority
 * one's are still busy. Without per-ticket completion both would wait for the old buffer. */
/* rule: sched.cpu-sees-high-priority-work-done (fails with the watermark alone) */
static void test_high_priority_work_is_seen_done_while_the_preempted_buffer_still_runs(void **state)
{
    (void)state;
    struct renv lo, hi;
    renv_open(&lo);
    renv_add_context(&lo, &hi, true);
    renv_set_priority(&lo, -7);
    renv_set_priority(&hi, 7);
    enum { STEPS = 16 };
    D3DKMT_HANDLE a = renv_alloc(&lo, SWGPU_ALLOC_READBACK, CHUNK);
    D3DKMT_HANDLE out = renv_alloc(&lo, SWGPU_ALLOC_READBACK, CHUNK * STEPS);
    D3DKMT_HANDLE hsrc = renv_alloc(&hi, SWGPU_ALLOC_UPLOAD, 4096);
    D3DKMT_HANDLE hdst = renv_alloc(&hi, SWGPU_ALLOC_READBACK, 4096);
    renv_write(&lo, a, CHUNK, 21);
    renv_write(&hi, hsrc, 4096, 22);
    warm(&hi, hdst, hsrc);
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 cs = { .hDevice = hi.device };
    cs.Info.Type = D3DDDI_MONITORED_FENCE;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&cs), STATUS_SUCCESS);
    wddm_sched_trace_enable(1);
    wddm_sched_trace_clear();
    wddm_swgpu_set_bandwidth(2ull << 20); /* ~30 ms per 64 KiB step: ~0.5 s in all */
    struct cmds b;
    cmds_begin(&b, &lo);
    for (UINT i = 0; i < STEPS; i++) {
        cmds_copy(&b, out, i * CHUNK, a, 0, CHUNK);
        cmds_fill(&b, a, 0, CHUNK, (BYTE)(0x60 + i));
    }
    assert_int_equal(cmds_render(&b), STATUS_SUCCESS);
    wait_submitted(lo.context);
    assert_int_equal(renv_copy(&hi, hdst, hsrc, 4096), STATUS_SUCCESS);
    UINT64 one = 1;
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMGPU sg = { .hContext = hi.context, .ObjectCount = 1,
                                                     .ObjectHandleArray = &cs.hSyncObject,
                                                     .MonitoredFenceValueArray = &one };
    assert_int_equal(D3DKMTSignalSynchronizationObjectFromGpu(&sg), STATUS_SUCCESS);
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU w = { .hDevice = hi.device, .ObjectCount = 1,
                                                     .ObjectHandleArray = &cs.hSyncObject, .FenceValueArray = &one };
    assert_int_equal(D3DKMTWaitForSynchronizationObjectFromCpu(&w), STATUS_SUCCESS);
    void *p = NULL;
    assert_int_equal(renv_lock(&hi, hdst, LOCK_READONLY | LOCK_DONOTWAIT, &p), STATUS_SUCCESS);
    assert_int_equal(renv_checksum(p, 4096), renv_read_sum(&hi, hsrc, 0, 4096));
    renv_unlock(&hi, hdst);
    /* The preempted buffer has most of its ~0.5 s still to run. */
    assert_int_equal(renv_lock(&lo, out, LOCK_READONLY | LOCK_DONOTWAIT, &p), STATUS_GRAPHICS_ALLOCATION_BUSY);
    wddm_swgpu_set_bandwidth(0);
    assert_int_equal(renv_lock(&lo, out, LOCK_READONLY, &p), STATUS_SUCCESS);
    renv_unlock(&lo, out);
    wddm_sched_trace_enable(0);
    D3DKMT_DESTROYSYNCHRONIZATIONOBJECT ds = { .hSyncObject = cs.hSyncObject };
    assert_int_equal(D3DKMTDestroySynchronizationObject(&ds), STATUS_SUCCESS);
    D3DKMT_DESTROYDEVICE dd = { .hDevice = hi.device };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    renv_close(&lo);
}

/* rule: sched.preemption-before-placing-packet-while */
static void test_equal_priorities_are_never_preempted(void **state)
{
    (void)state;
    struct renv x, y;
    renv_open(&x);
    renv_add_context(&x, &y, false);
    D3DKMT_HANDLE dst = renv_alloc(&x, SWGPU_ALLOC_READBACK, 4096);
    D3DKMT_HANDLE src = renv_alloc(&x, SWGPU_ALLOC_UPLOAD, 4096);
    warm(&x, dst, src);
    struct wddm_counters c0 = renv_counters();
    wddm_swgpu_set_paused(1);
    for (int i = 0; i < 6; i++) {
        assert_int_equal(renv_copy(&x, dst, src, 4096), STATUS_SUCCESS);
        assert_int_equal(renv_copy(&y, dst, src, 4096), STATUS_SUCCESS);
    }
    wddm_swgpu_set_paused(0);
    assert_int_equal(renv_read_sum(&x, dst, 0, 4096), renv_read_sum(&x, src, 0, 4096));
    struct wddm_counters c1 = renv_counters();
    assert_int_equal(c1.preemptions, c0.preemptions);
    renv_close(&x);
}

int main(void)
{
    /* A 3-deep hardware queue (DXGK_VIDSCHCAPS.HwQueuePacketCap) through the caps file. */
    char path[] = "/tmp/wddm-preempt-caps-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 1;
    FILE *f = fdopen(fd, "w");
    fprintf(f, "DXGK_VIDSCHCAPS.HwQueuePacketCap = %u\n", HW_CAP);
    fclose(f);
    setenv("WDDM_KMD_CAPS", path, 1);
    /* The tests pause the GPU and count SUBMIT events; the watchdog, seeing a paused engine stall
     * for half the TDR delay, would request a preemption of its own (sched/tdr.c) and the
     * resubmissions would add SUBMITs. On a loaded machine a test can take that long: none here
     * is about timeouts, so the delay is out of their reach. */
    setenv("WDDM_TDR_DELAY_MS", "600000", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hardware_queue_holds_at_most_HwQueuePacketCap_packets),
        cmocka_unit_test(test_work_queued_but_not_submitted_is_visible_to_a_lock),
        cmocka_unit_test(test_higher_priority_context_is_placed_first),
        cmocka_unit_test(test_long_low_priority_buffer_is_preempted_mid_buffer_and_resumes_right),
        cmocka_unit_test(test_high_priority_work_is_seen_done_while_the_preempted_buffer_still_runs),
        cmocka_unit_test(test_equal_priorities_are_never_preempted),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    unlink(path);
    return rc;
}
