/* Timeout detection and recovery of one long command through D3DKMT, the reference KMD and the
 * software GPU (issue 14 §4; docs/semantics.md §8.3): the engine looks for a reset inside a command
 * (src/gpu/exec.c), so DxgkDdiResetEngine and DxgkDdiResetFromTimeout return even when the work
 * the engine is in is a single command of centuries.
 *  - GpuMmu model: the KMD does not parse a DMA buffer submitted with D3DKMTSubmitCommand (the
 *    MMU bounds every access), so a process can hand the GPU a FILL of 2^19 slices of 2^32 - 1
 *    rows with zero pitches (2^63 bytes on one 4 KiB page). After the TDR delay the engine is
 *    reset, that device is lost (HUNG) and another device's copy, queued behind it on the same
 *    engine, completes with its bytes; the other device stays ACTIVE.
 *  - WDDM 1.x model, the paging path: VidMm pages a 4 MiB allocation in through a GPU slowed to
 *    4 KiB/s (one paging command of ~17 minutes). A timeout on the paging node is an adapter
 *    reset (sched/tdr.c): DxgkDdiResetFromTimeout returns, every device is lost, and a new device
 *    on the recovered adapter works.
 * WDDM_TDR_DELAY_MS=200. A watchdog ends the process with a failure after BOUND_S seconds:
 * without the in-command check the reset never returns (the engine cannot be joined then). */
/* rule: gpu.choice-preemption-not-taken-inside (the TDR's preemption request at half the delay goes unanswered; the reset ends the command) */
#include "sched_cmds.h"
#include "watchdog.h"

#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

enum { BYTES = 8192, BOUND_S = 60 };

/* A recovery that never comes fails the test after BOUND_S instead of hanging it. */
static void watch_start(const char *what)
{
    static char line[160];
    snprintf(line, sizeof line, "%s: no recovery (the engine does not look for a reset inside a command)", what);
    assert_int_equal(watchdog_start(line, BOUND_S), 0);
}

static void watch_stop(void)
{
    watchdog_stop();
}

static struct wddm_counters wait_recovered(const struct wddm_counters *before)
{
    for (;;) {
        struct wddm_counters c = renv_counters();
        if (c.engine_resets + c.adapter_resets > before->engine_resets + before->adapter_resets)
            return c;
        usleep(1000);
    }
}

static int teardown(void **state)
{
    (void)state;
    wddm_swgpu_set_bandwidth(0);
    unsetenv("WDDM_KMD_CAPS");
    return 0;
}

/* ---- GpuMmu: a user FILL of 2^51 rows ----------------------------------------------------- */

/* A device's mapped, resident allocations: cmd (the command buffer), src (UPLOAD, pattern),
 * rb (READBACK), target (GPU_ONLY). */
struct vdev {
    struct renv r;
    D3DKMT_HANDLE cmd, src, rb, target;
    D3DGPU_VIRTUAL_ADDRESS cmd_va, src_va, rb_va, target_va;
};

static void vdev_open(struct vdev *v, struct renv *r, uint32_t seed)
{
    v->r = *r;
    v->cmd = renv_alloc(r, SWGPU_ALLOC_UPLOAD, 4096);
    v->src = renv_alloc(r, SWGPU_ALLOC_UPLOAD, BYTES);
    v->rb = renv_alloc(r, SWGPU_ALLOC_READBACK, BYTES);
    v->target = renv_alloc(r, SWGPU_ALLOC_GPU_ONLY, BYTES);
    D3DKMT_HANDLE list[4] = { v->cmd, v->src, v->rb, v->target };
    assert_true(NT_SUCCESS(renv_make_resident(r->device, list, 4)));
    v->cmd_va = renv_map(r->device, v->cmd, 1, false);
    v->src_va = renv_map(r->device, v->src, BYTES / 4096, false);
    v->rb_va = renv_map(r->device, v->rb, BYTES / 4096, true);
    v->target_va = renv_map(r->device, v->target, BYTES / 4096, true);
    void *p = renv_lock2(r->device, v->src);
    renv_pattern(p, BYTES, seed);
    renv_unlock2(r->device, v->src);
}

/* rule: gpu.through-kernel-reference-kmd-gpummu */
static void gpummu_user_fill_of_2_to_the_51_rows_is_ended_by_tdr(void **state)
{
    (void)state;
    renv_gpummu_caps(NULL);
    struct renv g, o;
    renv_open(&g);
    renv_add_context(&g, &o, true);
    struct vdev vg, vo;
    vdev_open(&vg, &g, 1);
    vdev_open(&vo, &o, 2);
    struct wddm_counters c0 = renv_counters();
    watch_start("GpuMmu FILL of 2^51 rows");

    const BYTE value = 0xAB;
    struct swgpu_cmd_fill f = swgpu_cmd_fill_bytes(4096, &value, 1);
    f.dst.addr = vg.target_va; /* pitches 0: every row on the same 4 KiB */
    f.rows = 0xFFFFFFFFu;
    f.slices = 1u << 19;
    void *p = renv_lock2(g.device, vg.cmd);
    memcpy(p, &f, sizeof f);
    renv_unlock2(g.device, vg.cmd);
    assert_int_equal(renv_submit(g.context, vg.cmd_va, sizeof f), STATUS_SUCCESS);

    /* The other device's copy, queued behind it on the same engine. */
    p = renv_lock2(o.device, vo.cmd);
    UINT len = renv_va_copy_cmd(p, vo.rb_va, vo.src_va, BYTES);
    renv_unlock2(o.device, vo.cmd);
    assert_int_equal(renv_submit(o.context, vo.cmd_va, len), STATUS_SUCCESS);
    renv_finish(o.device, o.context); /* completes only once the engine left the FILL */

    struct wddm_counters c1 = wait_recovered(&c0);
    watch_stop();
    assert_int_equal(c1.engine_resets - c0.engine_resets, 1);
    assert_int_equal(c1.adapter_resets, c0.adapter_resets);
    assert_int_equal(renv_exec_state(g.device), D3DKMT_DEVICEEXECUTION_HUNG);
    assert_int_equal(renv_exec_state(o.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    UINT8 want[BYTES];
    renv_pattern(want, BYTES, 2);
    p = renv_lock2(o.device, vo.rb);
    assert_memory_equal(p, want, BYTES);
    renv_unlock2(o.device, vo.rb);
    /* The guilty device's later submissions are refused. */
    assert_int_equal(renv_submit(g.context, vg.cmd_va, sizeof f), STATUS_DEVICE_REMOVED);
    D3DKMT_DESTROYDEVICE dd = { .hDevice = o.device };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    renv_close(&g);
}

/* ---- WDDM 1.x: a paging transfer slowed to minutes ----------------------------------------- */

/* rule: gpu.through-kernel-reference-kmd-gpummu (mutation-checked with both checks removed: its 60 s watchdog fails it) */
/* rule: sched.packet-readied-before-timeout-recovery (under ThreadSanitizer: the lost device's copy raced the new device's placement without this) */
static void paging_command_slowed_to_minutes_is_ended_by_an_adapter_reset(void **state)
{
    (void)state;
    enum { BIG = 4 << 20 };
    struct renv g, o;
    renv_open(&g);
    renv_add_context(&g, &o, true);
    D3DKMT_HANDLE big = renv_alloc(&g, SWGPU_ALLOC_GPU_ONLY, BIG);
    D3DKMT_HANDLE src = renv_alloc(&g, SWGPU_ALLOC_UPLOAD, 4096);
    renv_write(&g, src, 4096, 5);
    struct wddm_counters c0 = renv_counters();
    watch_start("paging command slowed to minutes");
    wddm_swgpu_set_bandwidth(4096);
    /* The copy makes `big` resident: VidMm's paging buffer for its 4 MiB (~17 minutes). */
    assert_int_equal(renv_copy(&g, big, src, 4096), STATUS_SUCCESS);
    struct wddm_counters c1 = wait_recovered(&c0);
    wddm_swgpu_set_bandwidth(0);
    watch_stop();
    assert_int_equal(c1.adapter_resets - c0.adapter_resets, 1);
    /* A paging-node timeout loses every device of the adapter (sched/tdr.c). */
    assert_int_not_equal(renv_exec_state(g.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    assert_int_not_equal(renv_exec_state(o.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    /* A new device on the recovered adapter works, paging included. */
    struct renv n;
    renv_add_context(&g, &n, true);
    D3DKMT_HANDLE ns = renv_alloc(&n, SWGPU_ALLOC_UPLOAD, 4096), nd = renv_alloc(&n, SWGPU_ALLOC_READBACK, 4096);
    /* Small: its paging must not itself look like a hang to a 200 ms watchdog on a loaded
     * machine under TSan (a 4 MiB one did, once, in CI). */
    D3DKMT_HANDLE nbig = renv_alloc(&n, SWGPU_ALLOC_GPU_ONLY, 64 << 10);
    renv_write(&n, ns, 4096, 6);
    assert_int_equal(renv_copy(&n, nbig, ns, 4096), STATUS_SUCCESS);
    assert_int_equal(renv_copy(&n, nd, nbig, 4096), STATUS_SUCCESS);
    assert_int_equal(renv_read_sum(&n, nd, 0, 4096), renv_read_sum(&n, ns, 0, 4096));
    D3DKMT_DESTROYDEVICE dd = { .hDevice = n.device };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    dd.hDevice = o.device;
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    renv_close(&g);
}

int main(void)
{
    setenv("WDDM_TDR_DELAY_MS", "200", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(gpummu_user_fill_of_2_to_the_51_rows_is_ended_by_tdr, teardown),
        cmocka_unit_test_teardown(paging_command_slowed_to_minutes_is_ended_by_an_adapter_reset, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
