/* The scheduling event trace (issue 4, include/wddm/wddm.h wddm_sched_trace_*): tests assert on
 * the order of scheduler events, not on timing. Against the reference KMD and the software GPU. */
#include "real_env.h"

#define COPY_BYTES 256u
#define MAX_EVENTS 512u

struct two {
    struct renv a, b;
    D3DKMT_HANDLE dst, src;
};

static void two_open(struct two *t)
{
    renv_open(&t->a);
    t->b = t->a;
    t->b.cc = (D3DKMT_CREATECONTEXT){ .hDevice = t->a.device, .NodeOrdinal = 0 };
    assert_int_equal(D3DKMTCreateContext(&t->b.cc), STATUS_SUCCESS);
    t->b.context = t->b.cc.hContext;
    t->dst = renv_alloc(&t->a, SWGPU_ALLOC_READBACK, 4096);
    t->src = renv_alloc(&t->a, SWGPU_ALLOC_UPLOAD, 4096);
}

static void drain(struct two *t)
{
    void *p;
    assert_int_equal(renv_lock(&t->a, t->dst, LOCK_READONLY, &p), STATUS_SUCCESS);
    renv_unlock(&t->a, t->dst);
}

static struct wddm_sched_event ev[MAX_EVENTS];

/* rule: sched.scheduling-event-trace-bounded-ring */
static void test_trace_is_off_by_default_and_records_nothing(void **state)
{
    (void)state;
    struct two t;
    two_open(&t);
    wddm_sched_trace_clear();
    for (int i = 0; i < 4; i++)
        assert_int_equal(renv_copy(&t.a, t.dst, t.src, COPY_BYTES), STATUS_SUCCESS);
    drain(&t);
    assert_int_equal(wddm_sched_trace_read(ev, MAX_EVENTS), 0);
    renv_close(&t.a);
}

/* rule: sched.trace-order-submits-render-dma-buffers */
/* rule: sched.first-load-paging-buffers-no-switch (8 runs of three: 7 SWITCH events, the first load none) */
static void test_submits_come_in_submission_order_and_completes_follow_them(void **state)
{
    (void)state;
    struct two t;
    two_open(&t);
    wddm_sched_trace_enable(1);
    wddm_sched_trace_clear();
    D3DKMT_HANDLE order[24];
    for (int i = 0; i < 24; i++) {
        struct renv *e = (i / 3) % 2 ? &t.b : &t.a; /* AAA BBB AAA ... */
        order[i] = e->context;
        assert_int_equal(renv_copy(e, t.dst, t.src, COPY_BYTES), STATUS_SUCCESS);
    }
    drain(&t);
    size_t n = wddm_sched_trace_read(ev, MAX_EVENTS);
    wddm_sched_trace_enable(0);
    assert_true(n > 0 && n < MAX_EVENTS);
    size_t submits = 0, switches = 0;
    UINT64 last_fence[8] = { 0 };
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(ev[i].sequence, ev[0].sequence + i); /* nothing lost, in order */
        if (ev[i].type == WDDM_SCHED_EVENT_SWITCH) {
            assert_int_equal(ev[i].node, 0);
            assert_true(submits < 24);
            assert_int_equal(ev[i].context, order[submits]); /* right before that submit */
            assert_int_equal(ev[i].from_context, order[submits - 1]);
            switches++;
        }
        if (ev[i].type != WDDM_SCHED_EVENT_SUBMIT)
            continue;
        assert_true(ev[i].node < 8);
        assert_true(ev[i].fence > last_fence[ev[i].node]); /* fences grow per node */
        last_fence[ev[i].node] = ev[i].fence;
        if (ev[i].context == 0)
            continue; /* a paging buffer */
        assert_true(submits < 24);
        assert_int_equal(ev[i].context, order[submits]); /* the order of D3DKMTRender */
        submits++;
        /* Its completion comes later in the trace, never before. */
        size_t j;
        for (j = 0; j < i; j++)
            assert_false(ev[j].type == WDDM_SCHED_EVENT_COMPLETE && ev[j].node == ev[i].node &&
                         ev[j].fence == ev[i].fence);
        for (j = i + 1; j < n; j++)
            if (ev[j].type == WDDM_SCHED_EVENT_COMPLETE && ev[j].node == ev[i].node && ev[j].fence == ev[i].fence)
                break;
        assert_true(j < n);
    }
    assert_int_equal(submits, 24);
    assert_int_equal(switches, 7); /* 8 runs of three */
    renv_close(&t.a);
}

/* START: a packet becomes the head of its node's hardware queue once, after its SUBMIT and
 * before its COMPLETE, in fence order per node (the GPU runs a node's queue in order). */
/* rule: sched.trace-event-start-packet-becomes-head */
static void test_every_packet_starts_once_between_its_submit_and_its_complete(void **state)
{
    (void)state;
    struct two t;
    two_open(&t);
    wddm_sched_trace_enable(1);
    wddm_sched_trace_clear();
    wddm_swgpu_set_paused(1); /* a queue builds up: most packets start when the one before retires */
    for (int i = 0; i < 16; i++)
        assert_int_equal(renv_copy(i % 2 ? &t.b : &t.a, t.dst, t.src, COPY_BYTES), STATUS_SUCCESS);
    wddm_swgpu_set_paused(0);
    drain(&t);
    size_t n = wddm_sched_trace_read(ev, MAX_EVENTS);
    wddm_sched_trace_enable(0);
    assert_true(n > 0 && n < MAX_EVENTS);
    size_t starts = 0, render_submits = 0;
    UINT64 last_start[8] = { 0 };
    for (size_t i = 0; i < n; i++) {
        if (ev[i].type == WDDM_SCHED_EVENT_SUBMIT && ev[i].context)
            render_submits++;
        if (ev[i].type != WDDM_SCHED_EVENT_START)
            continue;
        starts += ev[i].context != 0;
        assert_true(ev[i].node < 8);
        assert_true(ev[i].fence > last_start[ev[i].node]); /* in fence order, once each */
        last_start[ev[i].node] = ev[i].fence;
        size_t submit = n, complete = n;
        for (size_t j = 0; j < n; j++) {
            if (ev[j].node != ev[i].node || ev[j].fence != ev[i].fence)
                continue;
            if (ev[j].type == WDDM_SCHED_EVENT_SUBMIT)
                submit = j;
            if (ev[j].type == WDDM_SCHED_EVENT_COMPLETE)
                complete = j;
        }
        assert_true(submit < i);
        assert_true(i < complete && complete < n);
    }
    assert_int_equal(render_submits, 16);
    assert_int_equal(starts, 16);
    renv_close(&t.a);
}

/* Paging buffers (docs/semantics.md §2.4): the first use of a GPU-only allocation needs a FILL,
 * which goes to the paging node (DXGK_VIDMMCAPS.PagingNode: the copy node, 1, for the reference
 * KMD) as a DMA buffer of no context, before the render packet that needs it. */
/* rule: vidmm.paging-buffers-submitted-dxgk-vidmmcaps (a FILL submitted on node 1, the reference KMD's `PagingNode`, with context 0, before the render packet on node 0) */
static void test_paging_buffers_go_to_the_paging_node_without_a_context(void **state)
{
    (void)state;
    struct two t;
    two_open(&t);
    D3DKMT_HANDLE g = renv_alloc(&t.a, SWGPU_ALLOC_GPU_ONLY, 4096);
    wddm_sched_trace_enable(1);
    wddm_sched_trace_clear();
    assert_int_equal(renv_copy(&t.a, g, t.src, COPY_BYTES), STATUS_SUCCESS);
    assert_int_equal(renv_copy(&t.a, t.dst, g, COPY_BYTES), STATUS_SUCCESS);
    drain(&t); /* waits for the second copy, after the first */
    size_t n = wddm_sched_trace_read(ev, MAX_EVENTS);
    wddm_sched_trace_enable(0);
    size_t paging = n, render = n;
    for (size_t i = 0; i < n; i++) {
        if (ev[i].type != WDDM_SCHED_EVENT_SUBMIT)
            continue;
        if (ev[i].context == 0 && paging == n) {
            paging = i;
            assert_int_equal(ev[i].node, 1);
        }
        if (ev[i].context == t.a.context && render == n) {
            render = i;
            assert_int_equal(ev[i].node, 0);
        }
    }
    assert_true(paging < render && render < n);
    renv_close(&t.a);
}

/* rule: sched.scheduling-event-trace-bounded-ring */
static void test_clear_forgets_earlier_events(void **state)
{
    (void)state;
    struct two t;
    two_open(&t);
    wddm_sched_trace_enable(1);
    assert_int_equal(renv_copy(&t.a, t.dst, t.src, COPY_BYTES), STATUS_SUCCESS);
    drain(&t);
    assert_true(wddm_sched_trace_read(ev, MAX_EVENTS) > 0);
    wddm_sched_trace_clear();
    assert_int_equal(wddm_sched_trace_read(ev, MAX_EVENTS), 0);
    wddm_sched_trace_enable(0);
    renv_close(&t.a);
}

/* rule: sched.full-trace-keeps-newest-events-sequence */
static void test_trace_keeps_the_newest_events_when_full(void **state)
{
    (void)state;
    struct two t;
    two_open(&t);
    wddm_sched_trace_enable(1);
    wddm_sched_trace_clear();
    for (unsigned i = 0; i < WDDM_SCHED_TRACE_CAPACITY; i++) /* >= 2 events each */
        assert_int_equal(renv_copy(&t.a, t.dst, t.src, COPY_BYTES), STATUS_SUCCESS);
    drain(&t);
    static struct wddm_sched_event all[WDDM_SCHED_TRACE_CAPACITY + 1];
    size_t n = wddm_sched_trace_read(all, WDDM_SCHED_TRACE_CAPACITY + 1);
    wddm_sched_trace_enable(0);
    assert_true(n <= WDDM_SCHED_TRACE_CAPACITY);
    assert_true(n >= WDDM_SCHED_TRACE_CAPACITY - 1);
    for (size_t i = 1; i < n; i++)
        assert_int_equal(all[i].sequence, all[i - 1].sequence + 1);
    /* The last event is the last completion. */
    assert_int_equal(all[n - 1].type, WDDM_SCHED_EVENT_COMPLETE);
    assert_int_equal(wddm_sched_trace_read(NULL, 4), 0); /* refused, no crash */
    renv_close(&t.a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trace_is_off_by_default_and_records_nothing),
        cmocka_unit_test(test_submits_come_in_submission_order_and_completes_follow_them),
        cmocka_unit_test(test_every_packet_starts_once_between_its_submit_and_its_complete),
        cmocka_unit_test(test_paging_buffers_go_to_the_paging_node_without_a_context),
        cmocka_unit_test(test_clear_forgets_earlier_events),
        cmocka_unit_test(test_trace_keeps_the_newest_events_when_full),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
