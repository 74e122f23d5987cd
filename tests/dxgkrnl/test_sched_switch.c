/* Lazy context switching (seed 000, issue 4): the hardware keeps a context's state after its
 * command completes, so a node switches context only when a DMA buffer of a different context
 * is placed in its hardware queue. Against the reference KMD and the software GPU. */
/* rule: sched.lazy-context-switching-lives-sched (unchanged assertions) */
#include "real_env.h"

#define COPY_BYTES 256u

struct two {
    struct renv a, b;      /* same device, two contexts on node 0 */
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

/* Every copy so far retired: a read lock of the destination waits for its last writer, and
 * completion is cumulative on a node (docs/semantics.md §8.2 invariant 1). */
static void drain(struct two *t)
{
    void *p;
    assert_int_equal(renv_lock(&t->a, t->dst, LOCK_READONLY, &p), STATUS_SUCCESS);
    renv_unlock(&t->a, t->dst);
}

/* rule: sched.lazy-context-switching-node-kernel-keeps */
static void test_submissions_from_one_context_cost_no_switch(void **state)
{
    (void)state;
    struct two t;
    two_open(&t);
    assert_int_equal(renv_copy(&t.a, t.dst, t.src, COPY_BYTES), STATUS_SUCCESS); /* A is loaded */
    drain(&t);
    struct wddm_counters c0 = renv_counters();
    for (int i = 0; i < 40; i++)
        assert_int_equal(renv_copy(&t.a, t.dst, t.src, COPY_BYTES), STATUS_SUCCESS);
    drain(&t);
    struct wddm_counters c1 = renv_counters();
    assert_int_equal(c1.dma_buffers_submitted - c0.dma_buffers_submitted, 40);
    assert_int_equal(c1.context_switches - c0.context_switches, 0);
    renv_close(&t.a);
}

/* rule: sched.alternating-contexts-cost-one-switch */
/* rule: gpu.lazy-switching-buffers-loaded-context */
static void test_alternating_contexts_cost_one_switch_per_change(void **state)
{
    (void)state;
    struct two t;
    two_open(&t);
    assert_int_equal(renv_copy(&t.a, t.dst, t.src, COPY_BYTES), STATUS_SUCCESS);
    drain(&t);
    struct wddm_counters c0 = renv_counters();
    /* B A B A ... : every submission changes the context. */
    for (int i = 0; i < 20; i++)
        assert_int_equal(renv_copy(i % 2 ? &t.a : &t.b, t.dst, t.src, COPY_BYTES), STATUS_SUCCESS);
    drain(&t);
    struct wddm_counters c1 = renv_counters();
    assert_int_equal(c1.context_switches - c0.context_switches, 20);
    /* Runs of the same context: B B B A A A B: three changes. */
    for (int i = 0; i < 7; i++)
        assert_int_equal(renv_copy(i < 3 || i == 6 ? &t.b : &t.a, t.dst, t.src, COPY_BYTES), STATUS_SUCCESS);
    drain(&t);
    struct wddm_counters c2 = renv_counters();
    assert_int_equal(c2.context_switches - c1.context_switches, 3);
    renv_close(&t.a);
}

/* A context is never destroyed while its state is on the engine, which would write it into its
 * save area at the next switch (issue 20 §1): destroying the loaded context switches the node
 * to the null context first (one ContextSwitch buffer); the next context's first buffer then
 * only loads, which is no switch between two contexts. */
/* rule: sched.destroying-context-loaded-node-first */
/* rule: kernel.destroying-loaded-context-switches-node */
static void test_destroying_the_loaded_context_switches_the_node_to_the_null_context(void **state)
{
    (void)state;
    struct two t;
    two_open(&t);
    assert_int_equal(renv_copy(&t.b, t.dst, t.src, COPY_BYTES), STATUS_SUCCESS); /* B loaded */
    drain(&t);
    struct wddm_counters c0 = renv_counters();
    D3DKMT_DESTROYCONTEXT dc = { .hContext = t.b.context };
    assert_int_equal(D3DKMTDestroyContext(&dc), STATUS_SUCCESS);
    struct wddm_counters c1 = renv_counters();
    assert_int_equal(c1.null_context_switches - c0.null_context_switches, 1);
    assert_int_equal(renv_copy(&t.a, t.dst, t.src, COPY_BYTES), STATUS_SUCCESS);
    assert_int_equal(renv_copy(&t.a, t.dst, t.src, COPY_BYTES), STATUS_SUCCESS);
    drain(&t);
    struct wddm_counters c2 = renv_counters();
    assert_int_equal(c2.context_switches - c1.context_switches, 0);
    /* A context destroyed while another one is loaded costs nothing. */
    D3DKMT_CREATECONTEXT cc = { .hDevice = t.a.device, .NodeOrdinal = 0 };
    assert_int_equal(D3DKMTCreateContext(&cc), STATUS_SUCCESS);
    D3DKMT_DESTROYCONTEXT dc2 = { .hContext = cc.hContext };
    assert_int_equal(D3DKMTDestroyContext(&dc2), STATUS_SUCCESS);
    assert_int_equal(renv_counters().null_context_switches, c1.null_context_switches);
    renv_close(&t.a);
}

/* First references go through the node worker (residency, paging buffers first) instead of
 * the direct path: paging buffers run in the system context and switch nothing, and the
 * worker counts a change of context like the direct path. */
/* rule: sched.worker-path-counts-switches-like-direct */
/* rule: sched.first-load-paging-buffers-no-switch (paging buffers submitted, no switch counted) */
static void test_worker_path_and_paging_buffers_keep_the_lazy_rule(void **state)
{
    (void)state;
    struct two t;
    two_open(&t);
    assert_int_equal(renv_copy(&t.a, t.dst, t.src, COPY_BYTES), STATUS_SUCCESS);
    drain(&t);
    D3DKMT_HANDLE fresh[6];
    for (int i = 0; i < 6; i++)
        fresh[i] = renv_alloc(&t.a, SWGPU_ALLOC_GPU_ONLY, 64 * 1024);
    struct wddm_counters c0 = renv_counters();
    for (int i = 0; i < 6; i++) /* A only: each needs a placement (a paging buffer) first */
        assert_int_equal(renv_copy(&t.a, fresh[i], t.src, COPY_BYTES), STATUS_SUCCESS);
    assert_int_equal(renv_copy(&t.a, t.dst, fresh[5], COPY_BYTES), STATUS_SUCCESS);
    drain(&t);
    struct wddm_counters c1 = renv_counters();
    assert_true(c1.paging_buffers_submitted > c0.paging_buffers_submitted);
    assert_int_equal(c1.context_switches - c0.context_switches, 0);
    for (int i = 0; i < 6; i++)
        renv_free(&t.a, fresh[i]);
    for (int i = 0; i < 6; i++) /* B A B A B A, each a first reference again */
        fresh[i] = renv_alloc(&t.a, SWGPU_ALLOC_GPU_ONLY, 64 * 1024);
    for (int i = 0; i < 6; i++)
        assert_int_equal(renv_copy(i % 2 ? &t.a : &t.b, fresh[i], t.src, COPY_BYTES), STATUS_SUCCESS);
    assert_int_equal(renv_copy(&t.a, t.dst, fresh[5], COPY_BYTES), STATUS_SUCCESS);
    drain(&t);
    struct wddm_counters c2 = renv_counters();
    assert_true(c2.paging_buffers_submitted > c1.paging_buffers_submitted);
    assert_int_equal(c2.context_switches - c1.context_switches, 6);
    renv_close(&t.a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_submissions_from_one_context_cost_no_switch),
        cmocka_unit_test(test_alternating_contexts_cost_one_switch_per_change),
        cmocka_unit_test(test_destroying_the_loaded_context_switches_the_node_to_the_null_context),
        cmocka_unit_test(test_worker_path_and_paging_buffers_keep_the_lazy_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
