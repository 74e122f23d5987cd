/* Per-context GPU state and the switches that carry it (issue 20 §1, seed 000; docs/semantics.md
 * §1.2 invariants 2 and 3), on the real stack: the reference KMD, the software GPU and its
 * registers (SET_REG / STORE_REG, swgpu_isa.h "Context state"). A context's registers persist
 * from one of its DMA buffers to the next although other contexts run in between: the engine
 * saves them into the context's save area (its GPU context allocation) when it switches away and
 * loads them back when it switches to it again; between buffers of one context it does neither.
 * When VidMm must evict the save area of the context still loaded, a zero-length ContextSwitch
 * buffer switches the node to the null context first. Each test names the broken rule that
 * would make it fail. */
#include "real_env.h"

#include "dxgkrnl/objects/objects.h"
#include "kmd/kmd.h"

#define OUT_BYTES 4096u

struct ctx {
    struct renv *e;
    D3DKMT_CREATECONTEXT cc;
};

static struct ctx ctx_new(struct renv *e)
{
    struct ctx c = { .e = e, .cc = { .hDevice = e->device, .NodeOrdinal = 0 } };
    assert_int_equal(D3DKMTCreateContext(&c.cc), STATUS_SUCCESS);
    return c;
}

static struct ctx ctx_main(struct renv *e)
{
    return (struct ctx){ .e = e, .cc = e->cc };
}

/* One DMA buffer of context c: SET_REG r = value (when set), then STORE_REG r -> out + at (when
 * store). */
static void run(struct ctx *c, UINT32 reg, bool set, UINT64 value, bool store, D3DKMT_HANDLE out, UINT32 at)
{
    BYTE *cmd = c->cc.pCommandBuffer;
    /* A WDDM 1.x context has a command buffer and lists; a GpuMmu one has none (the UMD writes
     * its commands in GPU-virtual memory): these tests are for the 1.x model only. */
    assert_non_null(cmd);
    UINT used = 0, allocs = 0, patches = 0;
    if (set) {
        struct swgpu_cmd_set_reg s = { .hdr = { SWGPU_OP_SET_REG, sizeof s }, .reg = reg, .value = value };
        memcpy(cmd + used, &s, sizeof s);
        used += sizeof s;
    }
    if (store) {
        struct swgpu_cmd_store_reg s = { .hdr = { SWGPU_OP_STORE_REG, sizeof s }, .reg = reg };
        s.dst.row_pitch = s.dst.slice_pitch = 8;
        memcpy(cmd + used, &s, sizeof s);
        c->cc.pAllocationList[0] = (D3DDDI_ALLOCATIONLIST){ .hAllocation = out };
        c->cc.pAllocationList[0].WriteOperation = 1;
        c->cc.pPatchLocationList[0] = (D3DDDI_PATCHLOCATIONLIST){
            .AllocationIndex = 0, .PatchOffset = used + (UINT)offsetof(struct swgpu_cmd_store_reg, dst.addr),
            .AllocationOffset = at };
        used += sizeof s;
        allocs = patches = 1;
    }
    D3DKMT_RENDER r = { .hContext = c->cc.hContext, .CommandLength = used, .AllocationCount = allocs,
                        .PatchLocationCount = patches };
    assert_int_equal(D3DKMTRender(&r), STATUS_SUCCESS);
}

static void set_reg(struct ctx *c, UINT32 reg, UINT64 v)
{
    run(c, reg, true, v, false, 0, 0);
}

static void store_reg(struct ctx *c, UINT32 reg, D3DKMT_HANDLE out, UINT32 at)
{
    run(c, reg, false, 0, true, out, at);
}

/* The 64-bit value at `at` of the readback allocation (a read lock waits for its writers). */
static UINT64 read_out(struct renv *e, D3DKMT_HANDLE out, UINT32 at)
{
    void *p;
    assert_int_equal(renv_lock(e, out, LOCK_READONLY, &p), STATUS_SUCCESS);
    UINT64 v;
    memcpy(&v, (BYTE *)p + at, sizeof v);
    renv_unlock(e, out);
    return v;
}

static struct swgpu_switch_counts gpu_switches(struct renv *e)
{
    struct dxgk_adapter *a = dxgk_adapter_get(e->adapter);
    assert_non_null(a);
    struct swkmd_adapter *k = swkmd_adapter_from(a->miniport);
    assert_non_null(k);
    struct swgpu_switch_counts s;
    swgpu_switch_counts(k->gpu, SWKMD_NODE_3D, &s);
    dxgk_adapter_put(a);
    return s;
}

static struct dxgk_context_allocation *save_area_of(D3DKMT_HANDLE hc)
{
    struct dxgk_context *c = (struct dxgk_context *)dxgk_handle_get(hc, DXGK_TYPE_CONTEXT);
    assert_non_null(c);
    struct dxgk_context_allocation *ca = c->context_allocations;
    dxgk_object_put(&c->obj);
    assert_non_null(ca);
    return ca;
}

static UINT save_area_segment(D3DKMT_HANDLE hc)
{
    struct dxgk_context_allocation *ca = save_area_of(hc);
    pthread_mutex_lock(&ca->adapter->lock);
    UINT seg = ca->vm->first.segment_id;
    pthread_mutex_unlock(&ca->adapter->lock);
    return seg;
}

/* Broken by: a switch skipped (B's buffers would see A's registers and the other way round), or
 * a load that does not read the save area. */
/* rule: gpu.context-gpu-state-persists-one-dma */
static void test_each_context_keeps_its_registers_across_switches(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    struct ctx a = ctx_main(&e), b = ctx_new(&e);
    D3DKMT_HANDLE out = renv_alloc(&e, SWGPU_ALLOC_READBACK, OUT_BYTES);
    set_reg(&a, 0, 0xA0A0A0A0A0A0A0A0ull);
    set_reg(&a, 5, 0xA5);
    set_reg(&b, 0, 0xB0B0B0B0B0B0B0B0ull);
    store_reg(&a, 0, out, 0);
    store_reg(&b, 0, out, 8);
    store_reg(&a, 5, out, 16);
    store_reg(&b, 5, out, 24); /* never set by B: a new context starts from zeroed registers */
    set_reg(&b, 5, 0xB5);
    set_reg(&a, 0, 0xA1);
    store_reg(&b, 5, out, 32);
    store_reg(&a, 0, out, 40);
    assert_true(read_out(&e, out, 0) == 0xA0A0A0A0A0A0A0A0ull);
    assert_true(read_out(&e, out, 8) == 0xB0B0B0B0B0B0B0B0ull);
    assert_true(read_out(&e, out, 16) == 0xA5);
    assert_true(read_out(&e, out, 24) == 0);
    assert_true(read_out(&e, out, 32) == 0xB5);
    assert_true(read_out(&e, out, 40) == 0xA1);
    D3DKMT_DESTROYCONTEXT dc = { .hContext = b.cc.hContext };
    assert_int_equal(D3DKMTDestroyContext(&dc), STATUS_SUCCESS);
    renv_close(&e);
}

/* Lazy switching: buffers of the loaded context cost no save and no load; each change of context
 * costs one of each (the first load into an empty engine, no save). Broken by: switching at every
 * buffer, or never. */
/* rule: gpu.lazy-switching-buffers-loaded-context */
/* rule: gpu.engine-switches-context-submission-names (the engine's own save and load counts) */
static void test_lazy_switching_saves_and_loads_only_on_a_change_of_context(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    struct ctx a = ctx_main(&e), b = ctx_new(&e);
    D3DKMT_HANDLE out = renv_alloc(&e, SWGPU_ALLOC_READBACK, OUT_BYTES);
    store_reg(&a, 0, out, 0);
    (void)read_out(&e, out, 0);
    struct swgpu_switch_counts s0 = gpu_switches(&e);
    for (int i = 0; i < 8; i++)
        store_reg(&a, 1, out, 0);
    (void)read_out(&e, out, 0);
    struct swgpu_switch_counts s1 = gpu_switches(&e);
    assert_int_equal(s1.saves - s0.saves, 0);
    assert_int_equal(s1.loads - s0.loads, 0);
    for (int i = 0; i < 6; i++) /* B A B A B A */
        store_reg(i % 2 ? &a : &b, 1, out, 0);
    (void)read_out(&e, out, 0);
    struct swgpu_switch_counts s2 = gpu_switches(&e);
    assert_int_equal(s2.saves - s1.saves, 6);
    assert_int_equal(s2.loads - s1.loads, 6);
    D3DKMT_DESTROYCONTEXT dc = { .hContext = b.cc.hContext };
    assert_int_equal(D3DKMTDestroyContext(&dc), STATUS_SUCCESS);
    renv_close(&e);
}

/* The registers of a context switched away from live in its save area and nowhere else: what is
 * written there is what the context finds when it is loaded again. Broken by: the engine keeping
 * the state aside, or VidMm re-initialising the save area (a second INIT_CONTEXT_RESOURCE). */
/* rule: kmd.state-context-switched-out-lives-gpu */
static void test_the_state_of_a_context_switched_out_is_its_save_area(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    struct ctx a = ctx_main(&e), b = ctx_new(&e);
    D3DKMT_HANDLE out = renv_alloc(&e, SWGPU_ALLOC_READBACK, OUT_BYTES);
    set_reg(&a, 3, 0x3333);
    store_reg(&b, 3, out, 0); /* B loaded: A's registers saved */
    assert_true(read_out(&e, out, 0) == 0);
    struct dxgk_context_allocation *csa = save_area_of(a.cc.hContext);
    struct swgpu_context_state *saved =
        (struct swgpu_context_state *)((BYTE *)csa->kernel_va + SWKMD_CSA_STATE_OFFSET);
    assert_true(saved->regs[3] == 0x3333);
    saved->regs[3] = 0x4444; /* what a lost or foreign save area would hand back */
    store_reg(&a, 3, out, 8);
    assert_true(read_out(&e, out, 8) == 0x4444);
    assert_int_equal(((const struct swkmd_context_resource_header *)csa->kernel_va)->init_count, 1);
    D3DKMT_DESTROYCONTEXT dc = { .hContext = b.cc.hContext };
    assert_int_equal(D3DKMTDestroyContext(&dc), STATUS_SUCCESS);
    renv_close(&e);
}

/* Memory pressure on the aperture (1 MiB, where the KMD keeps save areas) while context A is
 * loaded: only A's save area (and its device's page tables) are left to evict. VidMm switches
 * the node to the null context (a ContextSwitch buffer: A's registers saved) and then evicts
 * them; B runs meanwhile, A comes back with its registers. Broken by: evicting the loaded
 * context's save area without the null switch (B's switch would save A's registers into the
 * range the save area left, and A would come back with zeroes), or never evicting it (the locks
 * would run out of room sooner and no null switch would be counted). */
#define PINS 300
/* rule: vidmm.when-vidmm-must-evict-save-area */
static void test_null_context_switch_precedes_evicting_the_loaded_save_area(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    struct ctx a = ctx_main(&e), b = ctx_new(&e);
    D3DKMT_HANDLE out = renv_alloc(&e, SWGPU_ALLOC_READBACK, OUT_BYTES);
    set_reg(&a, 0, 0x1234567890ull);
    store_reg(&a, 0, out, 0);
    assert_true(read_out(&e, out, 0) == 0x1234567890ull); /* A loaded, its save area resident */
    assert_int_equal(save_area_segment(a.cc.hContext), SWKMD_SEGMENT_APERTURE);
    struct wddm_counters c0 = renv_counters();
    struct swgpu_switch_counts s0 = gpu_switches(&e);
    /* Pin the aperture page by page with CPU locks until nothing is left to evict. */
    static D3DKMT_HANDLE pin[PINS];
    int pinned = 0;
    for (; pinned < PINS; pinned++) {
        pin[pinned] = renv_alloc(&e, SWGPU_ALLOC_READBACK, 4096);
        void *p;
        if (renv_lock(&e, pin[pinned], LOCK_WRITEONLY, &p) != STATUS_SUCCESS)
            break;
    }
    assert_true(pinned < PINS); /* the aperture ran out */
    struct wddm_counters c1 = renv_counters();
    struct swgpu_switch_counts s1 = gpu_switches(&e);
    assert_int_equal(c1.null_context_switches - c0.null_context_switches, 1);
    assert_int_equal(s1.saves - s0.saves, 1); /* A's registers went to its save area first */
    assert_int_equal(s1.loaded_context, 0);   /* the engine runs the null context */
    assert_int_equal(save_area_segment(a.cc.hContext), 0);
    for (int i = 0; i < pinned; i++)
        renv_unlock(&e, pin[i]);
    for (int i = 0; i <= pinned && i < PINS; i++)
        renv_free(&e, pin[i]);
    set_reg(&b, 0, 0xBBBB); /* B is loaded into the null context: nothing of A is saved again */
    store_reg(&a, 0, out, 8);
    assert_true(read_out(&e, out, 8) == 0x1234567890ull);
    D3DKMT_DESTROYCONTEXT dc = { .hContext = b.cc.hContext };
    assert_int_equal(D3DKMTDestroyContext(&dc), STATUS_SUCCESS);
    renv_close(&e);
}

/* The same rule in the GpuMmu model (DxgkDdiSubmitCommandVirtual, issue 6): the KMD describes
 * the context to the GPU for every virtual submission too. Four buffers at their own offsets of
 * one mapped command allocation: A sets, B sets, A stores, B stores. */
static UINT va_cmd(BYTE *at, UINT32 reg, bool set, UINT64 value, D3DGPU_VIRTUAL_ADDRESS store_to)
{
    if (set) {
        struct swgpu_cmd_set_reg c = { .hdr = { SWGPU_OP_SET_REG, sizeof c }, .reg = reg, .value = value };
        memcpy(at, &c, sizeof c);
        return sizeof c;
    }
    struct swgpu_cmd_store_reg c = { .hdr = { SWGPU_OP_STORE_REG, sizeof c }, .reg = reg };
    c.dst.addr = store_to;
    c.dst.row_pitch = c.dst.slice_pitch = 8;
    memcpy(at, &c, sizeof c);
    return sizeof c;
}

/* The GpuMmu tests' set-up: a second context B beside the environment's A, a command buffer
 * and a readback allocation made resident and mapped (the command buffer locked for writing:
 * the caller writes its commands at p, then unlocks), and the tear-down that undoes it. */
struct va_env {
    struct renv e;
    D3DKMT_CREATECONTEXT cb;
    D3DKMT_HANDLE cmd, rb;
    D3DGPU_VIRTUAL_ADDRESS cmd_va, rb_va;
    BYTE *p;
};

static void va_env_open(struct va_env *v)
{
    renv_gpummu_caps(NULL);
    renv_open(&v->e);
    v->cb = (D3DKMT_CREATECONTEXT){ .hDevice = v->e.device, .NodeOrdinal = 0 };
    assert_int_equal(D3DKMTCreateContext(&v->cb), STATUS_SUCCESS);
    v->cmd = renv_alloc(&v->e, SWGPU_ALLOC_UPLOAD, 4096);
    v->rb = renv_alloc(&v->e, SWGPU_ALLOC_READBACK, 4096);
    D3DKMT_HANDLE list[2] = { v->cmd, v->rb };
    assert_true(NT_SUCCESS(renv_make_resident(v->e.device, list, 2)));
    v->cmd_va = renv_map(v->e.device, v->cmd, 1, false);
    v->rb_va = renv_map(v->e.device, v->rb, 1, true);
    v->p = renv_lock2(v->e.device, v->cmd);
}

static void va_env_close(struct va_env *v)
{
    D3DKMT_DESTROYCONTEXT dc = { .hContext = v->cb.hContext };
    assert_int_equal(D3DKMTDestroyContext(&dc), STATUS_SUCCESS);
    renv_close(&v->e);
    renv_caps_remove();
}

/* rule: gpu.context-gpu-state-persists-one-dma */
static void test_gpummu_contexts_keep_their_registers_across_switches(void **state)
{
    (void)state;
    struct va_env v;
    va_env_open(&v);
    UINT len[4];
    len[0] = va_cmd(v.p + 0, 2, true, 0xAAAA, 0);
    len[1] = va_cmd(v.p + 64, 2, true, 0xBBBB, 0);
    len[2] = va_cmd(v.p + 128, 2, false, 0, v.rb_va);
    len[3] = va_cmd(v.p + 192, 2, false, 0, v.rb_va + 8);
    renv_unlock2(v.e.device, v.cmd);
    struct swgpu_switch_counts s0 = gpu_switches(&v.e);
    for (UINT i = 0; i < 4; i++)
        assert_int_equal(renv_submit(i % 2 ? v.cb.hContext : v.e.context, v.cmd_va + 64 * i, len[i]), STATUS_SUCCESS);
    renv_finish(v.e.device, v.cb.hContext);
    UINT64 *r = renv_lock2(v.e.device, v.rb);
    assert_true(r[0] == 0xAAAA);
    assert_true(r[1] == 0xBBBB);
    renv_unlock2(v.e.device, v.rb);
    struct swgpu_switch_counts s1 = gpu_switches(&v.e);
    assert_true(s1.loads - s0.loads >= 3); /* A (B) A B: every buffer changed the context */
    va_env_close(&v);
}

/* The null-context switch before evicting the loaded context's save area, in the GpuMmu model:
 * the aperture filled with allocations pinned by D3DKMTMakeResident (the model's only residency
 * control), A's save area is all that is left to evict. */
/* rule: vidmm.when-vidmm-must-evict-save-area (both models) */
static void test_gpummu_null_context_switch_precedes_evicting_the_loaded_save_area(void **state)
{
    (void)state;
    struct va_env v;
    va_env_open(&v);
    UINT len[3];
    len[0] = va_cmd(v.p + 0, 1, true, 0xFEED, 0);     /* A */
    len[1] = va_cmd(v.p + 64, 1, true, 0xBBBB, 0);    /* B */
    len[2] = va_cmd(v.p + 128, 1, false, 0, v.rb_va); /* A */
    renv_unlock2(v.e.device, v.cmd);
    assert_int_equal(renv_submit(v.e.context, v.cmd_va, len[0]), STATUS_SUCCESS);
    renv_finish(v.e.device, v.e.context); /* A loaded, its save area resident */
    assert_int_equal(save_area_segment(v.e.context), SWKMD_SEGMENT_APERTURE);
    struct wddm_counters c0 = renv_counters();
    static D3DKMT_HANDLE pin[PINS];
    int pinned = 0;
    for (; pinned < PINS; pinned++) {
        pin[pinned] = renv_alloc(&v.e, SWGPU_ALLOC_READBACK, 4096);
        if (!NT_SUCCESS(renv_make_resident(v.e.device, &pin[pinned], 1)))
            break;
    }
    assert_true(pinned < PINS);
    struct wddm_counters c1 = renv_counters();
    assert_int_equal(c1.null_context_switches - c0.null_context_switches, 1);
    assert_int_equal(save_area_segment(v.e.context), 0);
    if (pinned)
        assert_int_equal(renv_evict(v.e.device, pin, (UINT)pinned), STATUS_SUCCESS);
    for (int i = 0; i <= pinned && i < PINS; i++)
        renv_free(&v.e, pin[i]);
    assert_int_equal(renv_submit(v.cb.hContext, v.cmd_va + 64, len[1]), STATUS_SUCCESS);
    assert_int_equal(renv_submit(v.e.context, v.cmd_va + 128, len[2]), STATUS_SUCCESS);
    renv_finish(v.e.device, v.e.context);
    UINT64 *r = renv_lock2(v.e.device, v.rb);
    assert_true(r[0] == 0xFEED);
    renv_unlock2(v.e.device, v.rb);
    va_env_close(&v);
}

int main(void)
{
    /* Each test picks its driver model: the 1.x ones the KMD's own caps, the GpuMmu ones
     * renv_gpummu_caps. A caps file given to the whole suite (WDDM_KMD_CAPS) is not theirs. */
    unsetenv("WDDM_KMD_CAPS");
    setenv("WDDM_SEGMENT_LOCAL_MB", "1", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "1", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "1", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_context_keeps_its_registers_across_switches),
        cmocka_unit_test(test_lazy_switching_saves_and_loads_only_on_a_change_of_context),
        cmocka_unit_test(test_the_state_of_a_context_switched_out_is_its_save_area),
        cmocka_unit_test(test_null_context_switch_precedes_evicting_the_loaded_save_area),
        cmocka_unit_test(test_gpummu_contexts_keep_their_registers_across_switches),
        cmocka_unit_test(test_gpummu_null_context_switch_precedes_evicting_the_loaded_save_area),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
