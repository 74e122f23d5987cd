/* Video memory and context state across a system standby or hibernation (issue 20 §5; the
 * "Optimized standby settings" of DXGK_SEGMENTFLAGS, DXGK_VIDMMCAPS.DisableSelfRefreshVRAMInS3
 * and AlwaysPoweredVRAM), through wddm_test_system_power_cycle against the reference KMD: its
 * local memory is self-refreshing VRAM (PreservedDuringStandby) that really loses its content
 * when a transition turns it off (src/kmd/power.c), so content survives only when VidMm took it
 * out first, and only then. */
/* rule: kmd.reference-kmd-vram-self-refreshing (fails when VidMm leaves the content in place) */
#include "sched_cmds.h"

#include "kernel_peek.h"
#include "kmd/kmd.h"

#define SIZE 65536u

struct world {
    struct renv e;
    D3DKMT_HANDLE up, rb, local;
};

static void world_open(struct world *w, const char *caps)
{
    renv_caps(caps);
    renv_open(&w->e);
    w->up = renv_alloc(&w->e, SWGPU_ALLOC_UPLOAD, SIZE);
    w->rb = renv_alloc(&w->e, SWGPU_ALLOC_READBACK, SIZE);
    w->local = renv_alloc(&w->e, SWGPU_ALLOC_GPU_ONLY, SIZE);
    renv_gpu_write(&w->e, w->local, w->up, SIZE, 41); /* content in local video memory */
    renv_gpu_check(&w->e, w->local, w->rb, SIZE, 41);
    assert_int_equal(kpeek_segment(w->local), SWKMD_SEGMENT_LOCAL);
}

static void world_close(struct world *w)
{
    renv_close(&w->e);
    renv_caps_remove();
}

/* One transition; returns how many evictions it took. The local allocation's content is right
 * afterwards in every case (the test fails if VidMm left it in a segment that lost power). */
static UINT64 cycle(struct world *w, UINT state)
{
    struct wddm_counters c0 = renv_counters();
    assert_int_equal(wddm_test_system_power_cycle(w->e.adapter, state), STATUS_SUCCESS);
    struct wddm_counters c1 = renv_counters();
    UINT where = kpeek_segment(w->local);
    renv_gpu_check(&w->e, w->local, w->rb, SIZE, 41);
    if (c1.evictions == c0.evictions)
        assert_int_equal(where, SWKMD_SEGMENT_LOCAL); /* not moved: the segment kept it */
    else
        assert_int_equal(where, 0);
    return c1.evictions - c0.evictions;
}

/* rule: vidmm.before-adapter-goes-d3-standby-vidmm */
static void test_standby_keeps_self_refreshing_vram_in_place(void **state)
{
    (void)state;
    struct world w;
    world_open(&w, NULL);
    assert_int_equal(cycle(&w, WDDM_SYSTEM_STANDBY), 0);
    world_close(&w);
}

/* rule: vidmm.before-adapter-goes-d3-standby-vidmm */
static void test_standby_without_self_refresh_evicts_and_restores(void **state)
{
    (void)state;
    struct world w;
    world_open(&w, "DXGK_VIDMMCAPS.DisableSelfRefreshVRAMInS3 = 1\n");
    assert_true(cycle(&w, WDDM_SYSTEM_STANDBY) >= 1); /* the local allocation */
    world_close(&w);
}

/* rule: vidmm.before-adapter-goes-d3-standby-vidmm */
/* rule: vidmm.always-powered-vram-standby-only */
static void test_always_powered_vram_keeps_content_through_standby_without_self_refresh(void **state)
{
    (void)state;
    struct world w;
    world_open(&w, "DXGK_VIDMMCAPS.DisableSelfRefreshVRAMInS3 = 1\nDXGK_VIDMMCAPS.AlwaysPoweredVRAM = 1\n");
    assert_int_equal(cycle(&w, WDDM_SYSTEM_STANDBY), 0);
    world_close(&w);
}

/* rule: vidmm.before-adapter-goes-d3-standby-vidmm */
/* rule: vidmm.always-powered-vram-standby-only */
static void test_hibernation_evicts_every_memory_segment_and_restores(void **state)
{
    (void)state;
    struct world w;
    world_open(&w, "DXGK_VIDMMCAPS.AlwaysPoweredVRAM = 1\n"); /* no power in S4 either way */
    assert_true(cycle(&w, WDDM_SYSTEM_HIBERNATE) >= 1);
    assert_int_equal(kpeek_segment(w.rb), SWKMD_SEGMENT_APERTURE); /* system memory: stays */
    world_close(&w);
}

/* An allocation D3DKMTMakeResident pinned leaves a memory segment that loses power too: kept
 * there, its content would go with the power. Its next use places it back with its content, and
 * it is still pinned (one D3DKMTEvict ends it). */
/* rule: vidmm.allocations-device-made-resident-evicted (segment model: content back on the next use, still pinned) */
static void test_a_pinned_allocation_keeps_its_content_through_a_hibernation(void **state)
{
    (void)state;
    struct world w;
    world_open(&w, NULL);
    D3DKMT_HANDLE list[1] = { w.local };
    assert_true(NT_SUCCESS(renv_make_resident(w.e.device, list, 1)));
    assert_true(cycle(&w, WDDM_SYSTEM_HIBERNATE) >= 1);
    assert_int_equal(kpeek_segment(w.local), SWKMD_SEGMENT_LOCAL);
    assert_int_equal(renv_evict(w.e.device, list, 1), STATUS_SUCCESS);
    assert_int_equal(renv_evict(w.e.device, list, 1), STATUS_INVALID_PARAMETER);
    world_close(&w);
}

/* The engines lose their registers in D3: every node goes to the null context first, so a
 * context's registers are in its save area (system memory) and it finds them again. */
/* rule: sched.every-node-switched-null-context-before */
static void test_context_registers_survive_a_hibernation(void **state)
{
    (void)state;
    struct world w;
    world_open(&w, NULL);
    struct cmds b;
    cmds_begin(&b, &w.e);
    cmds_set_reg(&b, 6, 0x600D);
    cmds_store_reg(&b, 6, w.rb, 0);
    assert_int_equal(cmds_render(&b), STATUS_SUCCESS);
    assert_int_equal(renv_read_sum(&w.e, w.rb, 0, 8), renv_read_sum(&w.e, w.rb, 0, 8)); /* drained */
    struct wddm_counters c0 = renv_counters();
    assert_int_equal(wddm_test_system_power_cycle(w.e.adapter, WDDM_SYSTEM_HIBERNATE), STATUS_SUCCESS);
    assert_int_equal(renv_counters().null_context_switches - c0.null_context_switches, 1);
    cmds_begin(&b, &w.e);
    cmds_store_reg(&b, 6, w.rb, 8);
    assert_int_equal(cmds_render(&b), STATUS_SUCCESS);
    void *p = NULL;
    assert_int_equal(renv_lock(&w.e, w.rb, LOCK_READONLY, &p), STATUS_SUCCESS);
    assert_true(((const UINT64 *)p)[1] == 0x600D);
    renv_unlock(&w.e, w.rb);
    world_close(&w);
}

/* rule: vidmm.bad-state-adapter-handle-status-invalid */
/* rule: vidmm.allocations-device-made-resident-evicted (GpuMmu: the resident local allocation's bytes survive a hibernation) */
/* rule: vidmm.gpummu-model-transition-loses-memory (mutation-checked: without the rewrite the copy reads zeros; without the placement the allocation is not back) */
/* rule: vidmm.gpummu-page-tables-rebuilt-not-saved (page-table updates after the hibernation, the VA copy reads the bytes) */
static void test_bad_requests_are_refused_and_gpummu_transitions_keep_everything(void **state)
{
    (void)state;
    struct world w;
    world_open(&w, NULL);
    assert_int_equal(wddm_test_system_power_cycle(w.e.adapter, 2), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("WDDM_SYSTEM_STANDBY");
    assert_int_equal(wddm_test_system_power_cycle(0x40000000u, WDDM_SYSTEM_STANDBY), STATUS_INVALID_PARAMETER);
    world_close(&w);
    /* The GpuMmu model: standby with self-refreshing VRAM keeps everything; a hibernation loses
     * local memory, VidMm's page tables with it: the resident local allocation comes back with
     * its content and every table is written again, so a VA copy out of it afterwards reads the
     * bytes a VA copy put there before. */
    renv_gpummu_caps(NULL);
    struct renv g;
    renv_open(&g);
    D3DKMT_HANDLE cmd = renv_alloc(&g, SWGPU_ALLOC_UPLOAD, 4096), src = renv_alloc(&g, SWGPU_ALLOC_UPLOAD, 4096);
    D3DKMT_HANDLE mid = renv_alloc(&g, SWGPU_ALLOC_GPU_ONLY, 4096), dst = renv_alloc(&g, SWGPU_ALLOC_READBACK, 4096);
    D3DKMT_HANDLE list[4] = { cmd, src, mid, dst };
    assert_true(NT_SUCCESS(renv_make_resident(g.device, list, 4)));
    D3DGPU_VIRTUAL_ADDRESS cmd_va = renv_map(g.device, cmd, 1, false), src_va = renv_map(g.device, src, 1, false);
    D3DGPU_VIRTUAL_ADDRESS mid_va = renv_map(g.device, mid, 1, true), dst_va = renv_map(g.device, dst, 1, true);
    renv_pattern(renv_lock2(g.device, src), 4096, 77);
    renv_unlock2(g.device, src);
    UINT8 *c = renv_lock2(g.device, cmd);
    UINT in = renv_va_copy_cmd(c, mid_va, src_va, 4096);
    UINT out = renv_va_copy_cmd(c + in, dst_va, mid_va, 4096);
    renv_unlock2(g.device, cmd);
    assert_int_equal(renv_submit(g.context, cmd_va, in), STATUS_SUCCESS); /* into local memory */
    renv_finish(g.device, g.context);
    assert_int_equal(kpeek_segment(mid), SWKMD_SEGMENT_LOCAL);
    assert_int_equal(wddm_test_system_power_cycle(g.adapter, WDDM_SYSTEM_STANDBY), STATUS_SUCCESS);
    struct wddm_counters c0 = renv_counters();
    assert_int_equal(wddm_test_system_power_cycle(g.adapter, WDDM_SYSTEM_HIBERNATE), STATUS_SUCCESS);
    struct wddm_counters c1 = renv_counters();
    assert_true(c1.evictions > c0.evictions);                 /* local memory was emptied */
    assert_true(c1.page_table_updates > c0.page_table_updates); /* and the tables written again */
    assert_int_equal(kpeek_segment(mid), SWKMD_SEGMENT_LOCAL);  /* back, resident as made */
    assert_int_equal(renv_submit(g.context, cmd_va + in, out), STATUS_SUCCESS);
    renv_finish(g.device, g.context);
    BYTE want[4096];
    renv_pattern(want, sizeof want, 77);
    assert_memory_equal(renv_lock2(g.device, dst), want, sizeof want);
    renv_unlock2(g.device, dst);
    renv_close(&g);
    renv_caps_remove();
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "4", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "4", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "8", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_standby_keeps_self_refreshing_vram_in_place),
        cmocka_unit_test(test_standby_without_self_refresh_evicts_and_restores),
        cmocka_unit_test(test_always_powered_vram_keeps_content_through_standby_without_self_refresh),
        cmocka_unit_test(test_hibernation_evicts_every_memory_segment_and_restores),
        cmocka_unit_test(test_a_pinned_allocation_keeps_its_content_through_a_hibernation),
        cmocka_unit_test(test_context_registers_survive_a_hibernation),
        cmocka_unit_test(test_bad_requests_are_refused_and_gpummu_transitions_keep_everything),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
