/* Seed 000 on the real stack (reference KMD + software GPU): the KMD's context save areas (GPU
 * context allocations) and page-table storage (device context allocations), their residency
 * guarantee under lazy context switching, INIT_CONTEXT_RESOURCE through a kernel virtual
 * address, and eviction under memory pressure (a 1 MiB aperture, where the KMD puts them). */
#include "real_env.h"

#include "dxgkrnl/objects/objects.h"
#include "kmd/kmd.h"

#define APERTURE_ID SWKMD_SEGMENT_APERTURE

static struct dxgk_context *get_context(D3DKMT_HANDLE h)
{
    struct dxgk_context *c = (struct dxgk_context *)dxgk_handle_get(h, DXGK_TYPE_CONTEXT);
    assert_non_null(c);
    return c;
}

/* The only context allocation of the context (its save area) or of its device (page tables). */
static struct dxgk_context_allocation *save_area(struct dxgk_context *c)
{
    assert_non_null(c->context_allocations);
    assert_null(c->context_allocations->owner_next);
    return c->context_allocations;
}

static struct dxgk_context_allocation *page_tables(struct dxgk_context *c)
{
    assert_non_null(c->device->context_allocations);
    assert_null(c->device->context_allocations->owner_next);
    return c->device->context_allocations;
}

struct state { UINT segment; bool evictable; };

static struct state state_of(struct dxgk_context_allocation *ca)
{
    struct dxgk_adapter *a = ca->adapter;
    pthread_mutex_lock(&a->lock);
    struct state s = { ca->vm->first.segment_id, vidmm_evictable_locked(a, &ca->vm->first) };
    pthread_mutex_unlock(&a->lock);
    return s;
}

static const struct swkmd_context_resource_header *header(const struct dxgk_context_allocation *ca)
{
    assert_non_null(ca->kernel_va);
    return ca->kernel_va;
}

/* A GPU copy upload -> readback on context (h, cc), then a read of the result through a lock
 * (which waits for the copy): returns when the context's packet completed. */
static void run_on(struct renv *e, D3DKMT_HANDLE h, D3DKMT_CREATECONTEXT *cc, uint32_t seed)
{
    D3DKMT_HANDLE up = renv_alloc(e, SWGPU_ALLOC_UPLOAD, 4096), rb = renv_alloc(e, SWGPU_ALLOC_READBACK, 4096);
    void *p;
    assert_int_equal(renv_lock(e, up, LOCK_WRITEONLY, &p), STATUS_SUCCESS);
    renv_pattern(p, 4096, seed);
    uint64_t want = renv_checksum(p, 4096);
    renv_unlock(e, up);
    D3DKMT_HANDLE save_h = e->context;
    D3DKMT_CREATECONTEXT save_cc = e->cc;
    e->context = h;
    e->cc = *cc;
    assert_int_equal(renv_copy(e, rb, up, 4096), STATUS_SUCCESS);
    e->context = save_h;
    e->cc = save_cc;
    assert_int_equal(renv_lock(e, rb, LOCK_READONLY, &p), STATUS_SUCCESS);
    assert_true(renv_checksum(p, 4096) == want);
    renv_unlock(e, rb);
    renv_free(e, up);
    renv_free(e, rb);
}

/* rule: kmd.reference-kmd-context-save-area-non */
static void test_kmd_creates_a_save_area_per_context_and_page_tables_per_device(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    struct dxgk_context *c = get_context(e.context);
    struct dxgk_context_allocation *csa = save_area(c), *pt = page_tables(c);
    /* Created with the conditions for a kernel virtual address (docs/semantics.md §1.3). */
    for (int i = 0; i < 2; i++) {
        struct dxgk_context_allocation *ca = i ? pt : csa;
        assert_int_equal(ca->args.Flags.CpuVisible, 1);
        assert_int_equal(ca->args.Flags.Protected, 1);
        assert_int_equal(ca->args.SupportedSegmentSet, 1u << (APERTURE_ID - 1));
        assert_int_equal(ca->priority, D3DDDI_ALLOCATIONPRIORITY_HIGH);
        assert_non_null(ca->kernel_va);
        assert_int_equal(ca->vm->info.hAllocation, ca->args.hDriverAllocation);
    }
    assert_int_equal(csa->args.ContextAllocationFlags.SharedAcrossContexts, 0);
    assert_ptr_equal(csa->context, c);
    assert_int_equal(pt->args.ContextAllocationFlags.SharedAcrossContexts, 1);
    assert_null(pt->context);
    /* Lazy: nothing submitted yet, nothing paged in, no INIT yet. */
    assert_int_equal(state_of(csa).segment, 0);
    assert_false(csa->initialized);
    /* A second context gets its own save area; the device keeps one page-table allocation. */
    D3DKMT_CREATECONTEXT cc2 = { .hDevice = e.device, .NodeOrdinal = 0 };
    assert_int_equal(D3DKMTCreateContext(&cc2), STATUS_SUCCESS);
    struct dxgk_context *c2 = get_context(cc2.hContext);
    assert_ptr_not_equal(save_area(c2), csa);
    assert_ptr_equal(page_tables(c2), pt);
    /* Destroying the context destroys its save area (the KMD's DxgkCbDestroyContextAllocation). */
    HANDLE h2 = save_area(c2)->args.hAllocation;
    dxgk_object_put(&c2->obj);
    D3DKMT_DESTROYCONTEXT dc = { .hContext = cc2.hContext };
    assert_int_equal(D3DKMTDestroyContext(&dc), STATUS_SUCCESS);
    assert_null(dxgk_handle_get((D3DKMT_HANDLE)(uintptr_t)h2, DXGK_TYPE_CONTEXT_ALLOCATION));
    dxgk_object_put(&c->obj);
    renv_close(&e);
}

/* rule: vidmm.residency-before-submission-node-worker (the reference KMD counts any `SubmitCommand` of a context whose save area or page tables it has not seen mapped: 0) */
/* rule: vidmm.dxgk-operation-init-context-resource (headers, `init_count` 1 after a second packet; `init_count` 1 after evictions) */
static void test_context_allocations_are_resident_and_initialised_before_the_first_packet(void **state)
{
    (void)state;
    unsigned long long v0 = swkmd_context_resource_violations();
    struct renv e;
    renv_open(&e);
    struct dxgk_context *c = get_context(e.context);
    struct dxgk_context_allocation *csa = save_area(c), *pt = page_tables(c);
    run_on(&e, e.context, &e.cc, 1);
    /* The KMD saw its save area and page tables mapped at every SubmitCommand of the context. */
    assert_int_equal(swkmd_context_resource_violations(), v0);
    assert_int_equal(state_of(csa).segment, APERTURE_ID);
    assert_int_equal(state_of(pt).segment, APERTURE_ID);
    /* INIT_CONTEXT_RESOURCE wrote the headers through the virtual address, once. */
    assert_int_equal(header(csa)->magic, SWKMD_CSA_HEADER_MAGIC);
    assert_int_equal(header(csa)->owner, (UINT64)e.context);
    assert_int_equal(header(csa)->init_count, 1);
    assert_int_equal(header(pt)->magic, SWKMD_PAGE_TABLE_HEADER_MAGIC);
    assert_int_equal(header(pt)->owner, (UINT64)e.device);
    assert_int_equal(header(pt)->init_count, 1);
    run_on(&e, e.context, &e.cc, 2);
    assert_int_equal(header(csa)->init_count, 1); /* no second INIT */
    dxgk_object_put(&c->obj);
    renv_close(&e);
}

/* Lazy switching (seed 000, docs/semantics.md §1.2 invariants 2, 3): a completed packet does not
 * free its context's save area; a packet of another context on the node does. */
/* rule: vidmm.lazy-switching-keeps-them-gpu-context */
/* rule: sched.gpu-context-allocation-stays-where-while */
/* rule: sched.loaded-context-kernel-view-prepare-only (the kernel view: a completed packet leaves its context loaded, another context's packet unloads it; the prepare-only part: no test yet) */
static void test_save_area_stays_until_a_packet_of_another_context_is_submitted(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    D3DKMT_CREATECONTEXT cb = { .hDevice = e.device, .NodeOrdinal = 0 };
    assert_int_equal(D3DKMTCreateContext(&cb), STATUS_SUCCESS);
    struct dxgk_context *ca = get_context(e.context), *cbx = get_context(cb.hContext);
    struct dxgk_context_allocation *csa_a = save_area(ca), *csa_b = save_area(cbx), *pt = page_tables(ca);

    run_on(&e, e.context, &e.cc, 3); /* A ran and completed: still loaded */
    assert_false(state_of(csa_a).evictable);
    assert_false(state_of(pt).evictable);
    /* Queued (GPU paused): B's packet waits behind its paging on the paused GPU. */
    wddm_swgpu_set_paused(1);
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, 4096), dst = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, 4096);
    D3DKMT_HANDLE save_h = e.context;
    D3DKMT_CREATECONTEXT save_cc = e.cc;
    e.context = cb.hContext;
    e.cc = cb;
    assert_int_equal(renv_copy(&e, dst, up, 4096), STATUS_SUCCESS);
    cb = e.cc;
    e.context = save_h;
    e.cc = save_cc;
    /* Queued only, the save area may still be unplaced (the worker readies the packet on its
     * own time); once placed for the packet, it is kept. */
    struct state sb = state_of(csa_b);
    assert_true(sb.segment == 0 || !sb.evictable);
    wddm_swgpu_set_paused(0);
    run_on(&e, cb.hContext, &cb, 4); /* B completed: B loaded, A may go now */
    assert_true(state_of(csa_a).evictable);
    assert_false(state_of(csa_b).evictable);
    assert_false(state_of(pt).evictable); /* B belongs to the device */

    /* Another device's context on the same node: the first device has nothing loaded or queued,
     * its page tables may go. */
    D3DKMT_CREATEDEVICE cd2 = { .hAdapter = e.adapter };
    assert_int_equal(D3DKMTCreateDevice(&cd2), STATUS_SUCCESS);
    D3DKMT_CREATECONTEXT c2 = { .hDevice = cd2.hDevice, .NodeOrdinal = 0 };
    assert_int_equal(D3DKMTCreateContext(&c2), STATUS_SUCCESS);
    D3DKMT_HANDLE dev1 = e.device;
    e.device = cd2.hDevice;
    run_on(&e, c2.hContext, &c2, 5);
    e.device = dev1;
    assert_true(state_of(pt).evictable);
    assert_true(state_of(csa_b).evictable);
    dxgk_object_put(&ca->obj);
    dxgk_object_put(&cbx->obj);
    D3DKMT_DESTROYDEVICE dd2 = { .hDevice = cd2.hDevice };
    assert_int_equal(D3DKMTDestroyDevice(&dd2), STATUS_SUCCESS);
    renv_close(&e);
}

/* The other side of the §1.3 rule: without Protected, or with a non-aperture segment allowed,
 * Destination.VirtualAddress is NULL; the KMD then initialises through the GPU (a FILL of its
 * header magic), once, in the memory segment VidMm chose. */
/* rule: vidmm.dxgk-operation-init-context-resource (NULL without Protected or with a memory segment allowed; the KMD's GPU FILL path in the visible segment, once) */
static void test_no_virtual_address_unless_cpu_visible_protected_and_aperture_only(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    struct dxgk_context *c = get_context(e.context);
    HANDLE adapter = (HANDLE)c->device->adapter;
    struct swkmd_context_resource r = { .magic = SWKMD_MAGIC_CONTEXT_RESOURCE, .header_magic = 0x11223344u,
                                        .owner = (HANDLE)(uintptr_t)e.context };
    DXGKARGCB_CREATECONTEXTALLOCATION p = { .hAdapter = adapter, .hDevice = (HANDLE)(uintptr_t)e.device,
                                            .hContext = (HANDLE)(uintptr_t)e.context, .hDriverAllocation = &r,
                                            .Size = SWKMD_CONTEXT_RESOURCE_SIZE, .Alignment = 4096,
                                            .SupportedSegmentSet = 1u << (SWKMD_SEGMENT_VISIBLE - 1) };
    p.Flags.CpuVisible = 1; /* not Protected, not aperture: no address */
    assert_int_equal(dxgk_cb_create_context_allocation(&p), STATUS_SUCCESS);
    struct dxgk_context_allocation *ca = (struct dxgk_context_allocation *)dxgk_handle_get(
        (D3DKMT_HANDLE)(uintptr_t)p.hAllocation, DXGK_TYPE_CONTEXT_ALLOCATION);
    assert_non_null(ca);
    assert_null(ca->kernel_va);
    /* Protected but a memory segment allowed: still none. */
    DXGKARGCB_CREATECONTEXTALLOCATION q = p;
    q.Flags.Protected = 1;
    q.SupportedSegmentSet |= 1u << (SWKMD_SEGMENT_APERTURE - 1);
    q.hAllocation = NULL;
    assert_int_equal(dxgk_cb_create_context_allocation(&q), STATUS_SUCCESS);
    struct dxgk_context_allocation *cq = (struct dxgk_context_allocation *)dxgk_handle_get(
        (D3DKMT_HANDLE)(uintptr_t)q.hAllocation, DXGK_TYPE_CONTEXT_ALLOCATION);
    assert_non_null(cq);
    assert_null(cq->kernel_va);
    dxgk_object_put(&cq->obj);
    assert_int_equal(dxgk_cb_destroy_context_allocation(adapter, q.hAllocation), STATUS_SUCCESS);

    run_on(&e, e.context, &e.cc, 9); /* first page-in: INIT through the GPU */
    pthread_mutex_lock(&ca->adapter->lock);
    UINT seg = ca->vm->first.segment_id;
    const UINT32 *mem = (const UINT32 *)ca->vm->first.cpu;
    pthread_mutex_unlock(&ca->adapter->lock);
    assert_int_equal(seg, SWKMD_SEGMENT_VISIBLE);
    assert_non_null(mem);
    for (UINT i = 0; i < SWKMD_CONTEXT_RESOURCE_SIZE / 4; i++)
        assert_int_equal(mem[i], 0x11223344u);
    run_on(&e, e.context, &e.cc, 10);
    assert_int_equal(r.init_count, 1);
    dxgk_object_put(&ca->obj);
    assert_int_equal(dxgk_cb_destroy_context_allocation(adapter, p.hAllocation), STATUS_SUCCESS);
    dxgk_object_put(&c->obj);
    renv_close(&e);
}

/* Memory pressure: 320 contexts' save areas (4 KiB each) do not fit a 1 MiB aperture together.
 * Round robin twice: every packet runs with its save area and page tables resident (the KMD
 * counts any SubmitCommand without them), evictions do happen, and content survives them
 * (the header written at the only INIT is intact after eviction and restore). */
#define MANY 320
/* rule: vidmm.under-memory-pressure-every-packet-runs */
/* rule: vidmm.packet-being-readied-claims-context (no SubmitCommand without its save area) */
static void test_under_pressure_save_areas_are_evicted_only_when_allowed_and_keep_content(void **state)
{
    (void)state;
    unsigned long long v0 = swkmd_context_resource_violations();
    struct renv e;
    renv_open(&e);
    static D3DKMT_CREATECONTEXT cc[MANY];
    static struct dxgk_context_allocation *csa[MANY];
    struct dxgk_context *objs[MANY];
    for (int i = 0; i < MANY; i++) {
        cc[i] = (D3DKMT_CREATECONTEXT){ .hDevice = e.device, .NodeOrdinal = 0 };
        assert_int_equal(D3DKMTCreateContext(&cc[i]), STATUS_SUCCESS);
        objs[i] = get_context(cc[i].hContext);
        csa[i] = save_area(objs[i]);
    }
    struct wddm_counters before = renv_counters();
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < MANY; i++) {
            run_on(&e, cc[i].hContext, &cc[i], (uint32_t)(round * MANY + i));
            struct state s = state_of(csa[i]);
            assert_int_equal(s.segment, APERTURE_ID); /* still loaded: resident, kept */
            assert_false(s.evictable);
            if (i)
                assert_true(state_of(csa[i - 1]).evictable);
        }
    struct wddm_counters after = renv_counters();
    assert_true(after.evictions > before.evictions);
    assert_int_equal(swkmd_context_resource_violations(), v0);
    int evicted = 0;
    for (int i = 0; i < MANY; i++) {
        if (state_of(csa[i]).segment == 0)
            evicted++;
        assert_int_equal(header(csa[i])->magic, SWKMD_CSA_HEADER_MAGIC);
        assert_int_equal(header(csa[i])->owner, (UINT64)cc[i].hContext);
        assert_int_equal(header(csa[i])->init_count, 1);
        dxgk_object_put(&objs[i]->obj);
    }
    assert_true(evicted > 0);
    renv_close(&e);
}

/* wddm_test_vidmm_trim (the test control `wddm check` Context.Allocations uses): with the GPU
 * run dry and every node switched to the null context, every save area and the device's page
 * tables leave the aperture (counted in context_allocation_evictions), and the contexts run
 * again with their allocations mapped back, their content kept (no second INIT_CONTEXT_RESOURCE).
 * A bad adapter handle is refused. */
/* rule: vidmm.kmd-context-allocations-may-move-while (mutation-checked: a trim that keeps context allocations fails it and the check) */
static void test_trim_moves_every_context_allocation_out_and_back(void **state)
{
    (void)state;
    enum { N = 3 };
    unsigned long long v0 = swkmd_context_resource_violations();
    struct renv e;
    renv_open(&e);
    D3DKMT_CREATECONTEXT cc[N];
    struct dxgk_context *objs[N];
    for (int i = 0; i < N; i++) {
        cc[i] = (D3DKMT_CREATECONTEXT){ .hDevice = e.device, .NodeOrdinal = 0 };
        assert_int_equal(D3DKMTCreateContext(&cc[i]), STATUS_SUCCESS);
        objs[i] = get_context(cc[i].hContext);
        run_on(&e, cc[i].hContext, &cc[i], (uint32_t)i);
    }
    struct wddm_counters before = renv_counters();
    UINT64 evicted = 0;
    assert_int_equal(wddm_test_vidmm_trim(e.adapter, &evicted), STATUS_SUCCESS);
    struct wddm_counters after = renv_counters();
    /* N save areas and the page tables: none kept, the last loaded one included. */
    assert_true(after.context_allocation_evictions - before.context_allocation_evictions >= N + 1);
    assert_true(evicted >= N + 1);
    assert_int_equal(state_of(page_tables(objs[0])).segment, 0);
    for (int i = 0; i < N; i++)
        assert_int_equal(state_of(save_area(objs[i])).segment, 0);
    for (int i = 0; i < N; i++) {
        run_on(&e, cc[i].hContext, &cc[i], (uint32_t)(10 + i));
        assert_int_equal(state_of(save_area(objs[i])).segment, APERTURE_ID);
        assert_int_equal(header(save_area(objs[i]))->magic, SWKMD_CSA_HEADER_MAGIC);
        assert_int_equal(header(save_area(objs[i]))->init_count, 1);
    }
    assert_int_equal(swkmd_context_resource_violations(), v0);
    assert_int_equal(wddm_test_vidmm_trim(0x40000000u, NULL), STATUS_INVALID_PARAMETER);
    for (int i = 0; i < N; i++)
        dxgk_object_put(&objs[i]->obj);
    renv_close(&e);
}

/* Many contexts with work queued at once (GPU paused) whose save areas together exceed the
 * aperture: queued work alone does not pin a save area (only readied or loaded ones are kept),
 * so every packet still runs, none is dropped, nothing is initialised twice. */
/* rule: vidmm.lazy-switching-keeps-them-gpu-context (320 contexts queued with the GPU paused, 1 MiB aperture: all copies right, no device error) */
static void test_more_queued_contexts_than_the_aperture_holds_all_run(void **state)
{
    (void)state;
    unsigned long long v0 = swkmd_context_resource_violations();
    struct renv e;
    renv_open(&e);
    static D3DKMT_CREATECONTEXT cc[MANY];
    static D3DKMT_HANDLE dst[MANY];
    D3DKMT_HANDLE src = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, 4096);
    void *p;
    assert_int_equal(renv_lock(&e, src, LOCK_WRITEONLY, &p), STATUS_SUCCESS);
    renv_pattern(p, 4096, 77);
    uint64_t want = renv_checksum(p, 4096);
    renv_unlock(&e, src);
    for (int i = 0; i < MANY; i++) {
        cc[i] = (D3DKMT_CREATECONTEXT){ .hDevice = e.device, .NodeOrdinal = 0 };
        assert_int_equal(D3DKMTCreateContext(&cc[i]), STATUS_SUCCESS);
        dst[i] = renv_alloc(&e, SWGPU_ALLOC_READBACK, 4096);
    }
    wddm_swgpu_set_paused(1);
    D3DKMT_HANDLE save_h = e.context;
    D3DKMT_CREATECONTEXT save_cc = e.cc;
    for (int i = 0; i < MANY; i++) {
        e.context = cc[i].hContext;
        e.cc = cc[i];
        assert_int_equal(renv_copy(&e, dst[i], src, 4096), STATUS_SUCCESS);
        cc[i] = e.cc;
    }
    e.context = save_h;
    e.cc = save_cc;
    wddm_swgpu_set_paused(0);
    for (int i = 0; i < MANY; i++) {
        assert_int_equal(renv_lock(&e, dst[i], LOCK_READONLY, &p), STATUS_SUCCESS);
        assert_true(renv_checksum(p, 4096) == want);
        renv_unlock(&e, dst[i]);
        struct dxgk_context *c = get_context(cc[i].hContext);
        assert_int_equal(header(save_area(c))->init_count, 1);
        assert_true(NT_SUCCESS(c->device->error));
        dxgk_object_put(&c->obj);
    }
    assert_int_equal(swkmd_context_resource_violations(), v0);
    renv_close(&e);
}

/* Threads (TSan): four contexts of one device on the 3D node, each driven by its own thread,
 * interleave their packets under the same pressure; no packet ever reaches SubmitCommand
 * without its save area and page tables, every copy is right, no second INIT. */
#define THREADS 4
#define ROUNDS 40
struct worker {
    D3DKMT_HANDLE device, context;
    D3DKMT_CREATECONTEXT cc;
    int bad;
};

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    for (int r = 0; r < ROUNDS; r++) {
        struct renv e = { .device = w->device, .context = w->context, .cc = w->cc };
        D3DKMT_HANDLE up = 0, rb = 0;
        if (renv_try_alloc(&e, SWGPU_ALLOC_UPLOAD, 4096, &up) || renv_try_alloc(&e, SWGPU_ALLOC_READBACK, 4096, &rb)) {
            w->bad++;
            break;
        }
        void *p;
        D3DKMT_LOCK l = { .hDevice = e.device, .hAllocation = up };
        l.Flags.Value = LOCK_WRITEONLY;
        if (D3DKMTLock(&l)) { w->bad++; break; }
        renv_pattern(l.pData, 4096, (uint32_t)r);
        uint64_t want = renv_checksum(l.pData, 4096);
        D3DKMT_UNLOCK u = { .hDevice = e.device, .NumAllocations = 1, .phAllocations = &up };
        D3DKMTUnlock(&u);
        if (renv_copy(&e, rb, up, 4096)) { w->bad++; break; }
        w->cc = e.cc;
        D3DKMT_LOCK l2 = { .hDevice = e.device, .hAllocation = rb };
        l2.Flags.Value = LOCK_READONLY;
        if (D3DKMTLock(&l2)) { w->bad++; break; }
        p = l2.pData;
        if (renv_checksum(p, 4096) != want)
            w->bad++;
        D3DKMT_UNLOCK u2 = { .hDevice = e.device, .NumAllocations = 1, .phAllocations = &rb };
        D3DKMTUnlock(&u2);
        D3DKMT_HANDLE both[2] = { up, rb };
        D3DKMT_DESTROYALLOCATION da = { .hDevice = e.device, .phAllocationList = both, .AllocationCount = 2 };
        D3DKMTDestroyAllocation(&da);
    }
    return NULL;
}

/* rule: vidmm.under-memory-pressure-every-packet-runs */
static void test_threads_interleaving_contexts_keep_the_residency_guarantee(void **state)
{
    (void)state;
    unsigned long long v0 = swkmd_context_resource_violations();
    struct renv e;
    renv_open(&e);
    struct worker w[THREADS];
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i] = (struct worker){ .device = e.device };
        w[i].cc = (D3DKMT_CREATECONTEXT){ .hDevice = e.device, .NodeOrdinal = 0 };
        assert_int_equal(D3DKMTCreateContext(&w[i].cc), STATUS_SUCCESS);
        w[i].context = w[i].cc.hContext;
    }
    for (int i = 0; i < THREADS; i++)
        assert_int_equal(pthread_create(&t[i], NULL, worker_main, &w[i]), 0);
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        assert_int_equal(w[i].bad, 0);
    }
    assert_int_equal(swkmd_context_resource_violations(), v0);
    for (int i = 0; i < THREADS; i++) {
        struct dxgk_context *c = get_context(w[i].context);
        assert_int_equal(header(save_area(c))->init_count, 1);
        dxgk_object_put(&c->obj);
    }
    renv_close(&e);
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "1", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "1", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "1", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kmd_creates_a_save_area_per_context_and_page_tables_per_device),
        cmocka_unit_test(test_context_allocations_are_resident_and_initialised_before_the_first_packet),
        cmocka_unit_test(test_save_area_stays_until_a_packet_of_another_context_is_submitted),
        cmocka_unit_test(test_no_virtual_address_unless_cpu_visible_protected_and_aperture_only),
        cmocka_unit_test(test_under_pressure_save_areas_are_evicted_only_when_allowed_and_keep_content),
        cmocka_unit_test(test_more_queued_contexts_than_the_aperture_holds_all_run),
        cmocka_unit_test(test_trim_moves_every_context_allocation_out_and_back),
        cmocka_unit_test(test_threads_interleaving_contexts_keep_the_residency_guarantee),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
