/* The kernel's lock and destruction rules against the reference KMD and software GPU (the
 * whole kernel-side stack), with the GPU paused through include/wddm/swgpu.h. */
/* rule: kernel.first-d3dkmtenumadapters2-starts-kmd (open_env) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <wddm/d3dkmthk.h>
#include <wddm/swgpu.h>
#include <wddm/wddm.h>

#include "drv/swgpu_private.h"
#include "gpu/swgpu_isa.h"

struct env {
    D3DKMT_HANDLE adapter, device, context;
    D3DKMT_CREATECONTEXT cc;
};

static void open_env(struct env *e)
{
    memset(e, 0, sizeof *e);
    wddm_set_kmd_entry(NULL); /* the built-in reference KMD */
    D3DKMT_ADAPTERINFO info[4];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
    assert_int_equal(en.NumAdapters, 1);
    e->adapter = info[0].hAdapter;
    D3DKMT_CREATEDEVICE cd = { .hAdapter = e->adapter };
    assert_int_equal(D3DKMTCreateDevice(&cd), STATUS_SUCCESS);
    e->device = cd.hDevice;
    e->cc = (D3DKMT_CREATECONTEXT){ .hDevice = e->device, .NodeOrdinal = 0 };
    assert_int_equal(D3DKMTCreateContext(&e->cc), STATUS_SUCCESS);
    e->context = e->cc.hContext;
}

static void close_env(struct env *e)
{
    wddm_swgpu_set_paused(0);
    D3DKMT_DESTROYDEVICE dd = { .hDevice = e->device };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS); /* takes the context along */
    D3DKMT_CLOSEADAPTER ca = { .hAdapter = e->adapter };
    assert_int_equal(D3DKMTCloseAdapter(&ca), STATUS_SUCCESS);
}

static D3DKMT_HANDLE alloc(struct env *e, UINT32 kind, UINT64 size)
{
    struct swgpu_alloc_private p = { .magic = SWGPU_PRIVATE_MAGIC, .version = SWGPU_PRIVATE_VERSION,
                                     .kind = kind, .size = size, .dimension = 1, .width = (UINT32)size,
                                     .height = 1, .depth = 1, .mip_levels = 1, .array_size = 1 };
    D3DDDI_ALLOCATIONINFO ai = { .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p };
    D3DKMT_CREATEALLOCATION ca = { .hDevice = e->device, .NumAllocations = 1, .pAllocationInfo = &ai };
    assert_int_equal(D3DKMTCreateAllocation(&ca), STATUS_SUCCESS);
    return ai.hAllocation;
}

/* A DMA buffer that references (writes) the allocation: one NOP command. */
static void render_referencing(struct env *e, D3DKMT_HANDLE a)
{
    struct swgpu_cmd_header nop = { .opcode = SWGPU_OP_NOP, .size_bytes = sizeof nop };
    memcpy(e->cc.pCommandBuffer, &nop, sizeof nop);
    e->cc.pAllocationList[0] = (D3DDDI_ALLOCATIONLIST){ .hAllocation = a };
    e->cc.pAllocationList[0].WriteOperation = 1;
    D3DKMT_RENDER r = { .hContext = e->context, .CommandLength = sizeof nop, .AllocationCount = 1 };
    assert_int_equal(D3DKMTRender(&r), STATUS_SUCCESS);
}

static NTSTATUS lock(struct env *e, D3DKMT_HANDLE a, UINT flags, void **p)
{
    D3DKMT_LOCK l = { .hDevice = e->device, .hAllocation = a };
    l.Flags.Value = flags;
    NTSTATUS st = D3DKMTLock(&l);
    *p = l.pData;
    return st;
}

static void unlock(struct env *e, D3DKMT_HANDLE a)
{
    D3DKMT_UNLOCK u = { .hDevice = e->device, .NumAllocations = 1, .phAllocations = &a };
    assert_int_equal(D3DKMTUnlock(&u), STATUS_SUCCESS);
}

/* rule: vidmm.only-cpuvisible-allocations-lock */
/* rule: vidmm.lock-gpu-only-allocation-refused-status */
static void test_real_kmd_lock_of_gpu_only_allocation_is_refused(void **state)
{
    struct env e;
    open_env(&e);
    D3DKMT_HANDLE a = alloc(&e, SWGPU_ALLOC_GPU_ONLY, 4096);
    void *p;
    assert_int_equal(lock(&e, a, 0, &p), STATUS_INVALID_PARAMETER);
    close_env(&e);
}

/* rule: vidmm.donotwait-busy-allocation-status */
static void test_real_kmd_donotwait_on_busy_allocation_returns_busy(void **state)
{
    struct env e;
    open_env(&e);
    D3DKMT_HANDLE a = alloc(&e, SWGPU_ALLOC_UPLOAD, 64 << 10);
    void *p;
    assert_int_equal(lock(&e, a, 0, &p), STATUS_SUCCESS); /* placed */
    unlock(&e, a);
    wddm_swgpu_set_paused(1);
    render_referencing(&e, a);
    assert_int_equal(lock(&e, a, 0x4 /* DonotWait */, &p), STATUS_GRAPHICS_ALLOCATION_BUSY);
    /* The GPU is paused: a call that blocked would never return (the test would time out). */
    close_env(&e);
}

struct locker {
    struct env *e;
    D3DKMT_HANDLE a;
    atomic_bool done;
    NTSTATUS st;
};

static void *locker_thread(void *arg)
{
    struct locker *l = arg;
    void *p;
    l->st = lock(l->e, l->a, 0x1 /* ReadOnly */, &p);
    atomic_store(&l->done, true);
    return NULL;
}

/* rule: vidmm.lock-without-donotwait-blocks-until-last */
static void test_real_kmd_lock_blocks_until_the_gpu_write_retires(void **state)
{
    struct env e;
    open_env(&e);
    D3DKMT_HANDLE a = alloc(&e, SWGPU_ALLOC_READBACK, 4096);
    void *p;
    assert_int_equal(lock(&e, a, 0, &p), STATUS_SUCCESS);
    unlock(&e, a);
    wddm_swgpu_set_paused(1);
    render_referencing(&e, a);
    struct locker l = { .e = &e, .a = a };
    pthread_t t;
    pthread_create(&t, NULL, locker_thread, &l);
    usleep(50000);
    assert_false(atomic_load(&l.done));
    wddm_swgpu_set_paused(0);
    pthread_join(t, NULL);
    assert_int_equal(l.st, STATUS_SUCCESS);
    unlock(&e, a);
    close_env(&e);
}

/* rule: vidmm.discard-busy-instance-renames-without */
static void test_real_kmd_discard_on_busy_allocation_returns_another_pointer(void **state)
{
    struct env e;
    open_env(&e);
    D3DKMT_HANDLE a = alloc(&e, SWGPU_ALLOC_UPLOAD, 64 << 10);
    void *p1, *p2;
    assert_int_equal(lock(&e, a, 0x2, &p1), STATUS_SUCCESS);
    unlock(&e, a);
    wddm_swgpu_set_paused(1);
    render_referencing(&e, a);
    assert_int_equal(lock(&e, a, 0x2 | 0x80 /* WriteOnly | Discard */, &p2), STATUS_SUCCESS);
    /* The GPU is paused: a call that blocked would never return (the test would time out). */
    assert_ptr_not_equal(p1, p2);
    unlock(&e, a);
    close_env(&e);
}

/* rule: kernel.allocation-destruction-deferred-until */
static void test_real_kmd_destruction_waits_for_the_gpu(void **state)
{
    struct env e;
    open_env(&e);
    D3DKMT_HANDLE a = alloc(&e, SWGPU_ALLOC_GPU_ONLY, 4096);
    struct wddm_counters c0, c1;
    wddm_swgpu_set_paused(1);
    render_referencing(&e, a);
    assert_int_equal(wddm_get_counters(&c0), STATUS_SUCCESS);
    D3DKMT_DESTROYALLOCATION da = { .hDevice = e.device, .phAllocationList = &a, .AllocationCount = 1 };
    assert_int_equal(D3DKMTDestroyAllocation(&da), STATUS_SUCCESS);
    usleep(20000);
    assert_int_equal(wddm_get_counters(&c1), STATUS_SUCCESS);
    assert_int_equal(c1.allocations_destroyed, c0.allocations_destroyed); /* still in use */
    wddm_swgpu_set_paused(0);
    for (int i = 0; i < 1000 && c1.allocations_destroyed == c0.allocations_destroyed; i++) {
        usleep(1000);
        wddm_get_counters(&c1);
    }
    assert_int_equal(c1.allocations_destroyed, c0.allocations_destroyed + 1);
    close_env(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_kmd_lock_of_gpu_only_allocation_is_refused),
        cmocka_unit_test(test_real_kmd_donotwait_on_busy_allocation_returns_busy),
        cmocka_unit_test(test_real_kmd_lock_blocks_until_the_gpu_write_retires),
        cmocka_unit_test(test_real_kmd_discard_on_busy_allocation_returns_another_pointer),
        cmocka_unit_test(test_real_kmd_destruction_waits_for_the_gpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
