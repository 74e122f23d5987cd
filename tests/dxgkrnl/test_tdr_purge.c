/* Video memory after an adapter reset (issue 20 §7; the WDK's "Thread Synchronization and TDR"):
 * between DxgkDdiResetFromTimeout and DxgkDdiRestartFromTimeout VidMm takes every allocation out
 * of its segment — a TRANSFER of size 0 for a memory-segment one (its content is lost), an
 * UNMAP_APERTURE_SEGMENT for an aperture one (its content is system memory and survives) — and
 * an allocation used again afterwards comes back: a shared local allocation opened by a new
 * device reads zeroes, a shared aperture allocation still holds its bytes. The KMD here is the
 * reference KMD whose ResetEngine fails (so the timeout escalates to an adapter reset), wrapped
 * to watch the paging operations of the cleanup. */
#include "sched_cmds.h"

#include "kernel_peek.h"
#include "kmd/kmd.h"

#include <stdatomic.h>
#include <unistd.h>

#define SIZE 4096u

static PDXGKDDI_RESETFROMTIMEOUT real_reset;
static PDXGKDDI_RESTARTFROMTIMEOUT real_restart;
static PDXGKDDI_BUILDPAGINGBUFFER real_build;
static atomic_int cleanup;          /* between ResetFromTimeout and RestartFromTimeout */
static atomic_int restarted;
#define SEEN_MAX 256
static HANDLE seen_transfer0[SEEN_MAX], seen_unmap[SEEN_MAX];
static atomic_int n_transfer0, n_unmap, n_other_in_cleanup, other_op = -1;

static NTSTATUS APIENTRY failing_reset_engine(const HANDLE hAdapter, DXGKARG_RESETENGINE *args)
{
    (void)hAdapter;
    (void)args;
    return STATUS_UNSUCCESSFUL;
}

static NTSTATUS APIENTRY watch_reset(const PVOID adapter)
{
    NTSTATUS st = real_reset(adapter);
    atomic_store(&cleanup, 1);
    return st;
}

static NTSTATUS APIENTRY watch_restart(const PVOID adapter)
{
    atomic_store(&cleanup, 0);
    atomic_store(&restarted, 1);
    return real_restart(adapter);
}

static NTSTATUS APIENTRY watch_build(const HANDLE a, DXGKARG_BUILDPAGINGBUFFER *args)
{
    if (atomic_load(&cleanup)) {
        if (args->Operation == DXGK_OPERATION_TRANSFER && args->Transfer.TransferSize == 0) {
            int i = atomic_fetch_add(&n_transfer0, 1);
            if (i < SEEN_MAX)
                seen_transfer0[i] = args->Transfer.hAllocation;
        } else if (args->Operation == DXGK_OPERATION_UNMAP_APERTURE_SEGMENT) {
            int i = atomic_fetch_add(&n_unmap, 1);
            if (i < SEEN_MAX)
                seen_unmap[i] = args->UnmapApertureSegment.hAllocation;
        } else {
            atomic_fetch_add(&n_other_in_cleanup, 1);
            atomic_store(&other_op, (int)args->Operation);
        }
    }
    return real_build(a, args);
}

static NTSTATUS watch_entry(PDRIVER_OBJECT drv, PVOID reg)
{
    DRIVER_INITIALIZATION_DATA d;
    SwKmdGetDriverInitializationData(&d);
    d.DxgkDdiResetEngine = failing_reset_engine;
    real_reset = d.DxgkDdiResetFromTimeout;
    d.DxgkDdiResetFromTimeout = watch_reset;
    real_restart = d.DxgkDdiRestartFromTimeout;
    d.DxgkDdiRestartFromTimeout = watch_restart;
    real_build = d.DxgkDdiBuildPagingBuffer;
    d.DxgkDdiBuildPagingBuffer = watch_build;
    return DxgkInitialize(drv, reg, &d);
}

static bool seen(HANDLE *list, int n, D3DKMT_HANDLE h)
{
    struct dxgk_allocation *al = (struct dxgk_allocation *)dxgk_handle_get(h, DXGK_TYPE_ALLOCATION);
    assert_non_null(al);
    HANDLE kmd = al->info.hAllocation;
    dxgk_object_put(&al->obj);
    for (int i = 0; i < n && i < SEEN_MAX; i++)
        if (list[i] == kmd)
            return true;
    return false;
}

struct shared {
    D3DKMT_HANDLE alloc, share;
};

static struct shared create_shared(struct renv *e, UINT32 kind)
{
    struct swgpu_alloc_private p = { .magic = SWGPU_PRIVATE_MAGIC, .version = SWGPU_PRIVATE_VERSION,
                                     .kind = kind, .size = SIZE, .dimension = 1, .width = SIZE,
                                     .height = 1, .depth = 1, .mip_levels = 1, .array_size = 1 };
    D3DDDI_ALLOCATIONINFO ai = { .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p };
    D3DKMT_CREATEALLOCATION ca = { .hDevice = e->device, .NumAllocations = 1, .pAllocationInfo = &ai };
    ca.Flags.CreateShared = 1;
    ca.Flags.CreateResource = 1;
    assert_int_equal(D3DKMTCreateAllocation(&ca), STATUS_SUCCESS);
    return (struct shared){ ai.hAllocation, ca.hGlobalShare };
}

static D3DKMT_HANDLE open_shared(struct renv *e, D3DKMT_HANDLE share)
{
    BYTE priv[sizeof(struct swgpu_alloc_private)];
    D3DDDI_OPENALLOCATIONINFO oi = { 0 };
    D3DKMT_OPENRESOURCE o = { .hDevice = e->device, .hGlobalShare = share, .NumAllocations = 1,
                              .pOpenAllocationInfo = &oi, .pTotalPrivateDriverDataBuffer = priv,
                              .TotalPrivateDriverDataBufferSize = sizeof priv };
    assert_int_equal(D3DKMTOpenResource(&o), STATUS_SUCCESS);
    return oi.hAllocation;
}

static struct wddm_counters wait_recovered(const struct wddm_counters *before)
{
    for (;;) {
        struct wddm_counters c = renv_counters();
        if (c.adapter_resets > before->adapter_resets && atomic_load(&restarted))
            return c;
        usleep(1000);
    }
}

/* rule: vidmm.between-dxgkddiresetfromtimeout */
/* rule: vidmm.allocation-used-after-reset-comes-back (a new device opens both shared allocations) */
static void test_adapter_reset_purges_video_memory_and_allocations_come_back(void **state)
{
    (void)state;
    wddm_set_kmd_entry(watch_entry);
    struct renv g;
    renv_open_kmd(&g);
    D3DKMT_HANDLE up = renv_alloc(&g, SWGPU_ALLOC_UPLOAD, SIZE), rb = renv_alloc(&g, SWGPU_ALLOC_READBACK, SIZE);
    struct shared local = create_shared(&g, SWGPU_ALLOC_GPU_ONLY), aper = create_shared(&g, SWGPU_ALLOC_READBACK);
    renv_gpu_write(&g, local.alloc, up, SIZE, 31);          /* local video memory */
    renv_gpu_write(&g, aper.alloc, up, SIZE, 32);           /* the aperture */
    renv_gpu_check(&g, local.alloc, rb, SIZE, 31);
    assert_int_equal(kpeek_segment(local.alloc), SWKMD_SEGMENT_LOCAL);
    assert_int_equal(kpeek_segment(aper.alloc), SWKMD_SEGMENT_APERTURE);
    struct wddm_counters c0 = renv_counters();

    wddm_swgpu_inject_hang();
    assert_int_equal(renv_copy(&g, rb, up, SIZE), STATUS_SUCCESS); /* hangs: adapter reset */
    void *p = NULL;
    assert_int_equal(renv_lock(&g, rb, LOCK_READONLY, &p), STATUS_DEVICE_REMOVED);
    struct wddm_counters c1 = wait_recovered(&c0);
    assert_int_equal(c1.adapter_resets - c0.adapter_resets, 1);

    /* The cleanup told the KMD about each of them, between reset and restart. */
    assert_true(seen(seen_transfer0, atomic_load(&n_transfer0), local.alloc));
    assert_true(seen(seen_unmap, atomic_load(&n_unmap), aper.alloc));
    assert_true(seen(seen_unmap, atomic_load(&n_unmap), rb));
    if (atomic_load(&n_other_in_cleanup))
        fail_msg("%d other paging operations in the cleanup (the last: %d)", atomic_load(&n_other_in_cleanup),
                 atomic_load(&other_op));
    assert_true(c1.allocations_purged - c0.allocations_purged >= 4); /* up, rb, local, aper */
    assert_int_equal(kpeek_segment(local.alloc), 0);
    assert_int_equal(kpeek_segment(aper.alloc), 0);
    assert_int_equal(kpeek_segment(up), 0);

    /* A new device opens both: the local one comes back zero-filled (content lost), the
     * aperture one with its bytes (system memory). */
    struct renv n;
    renv_add_context(&g, &n, true);
    D3DKMT_HANDLE nl = open_shared(&n, local.share), na = open_shared(&n, aper.share);
    D3DKMT_HANDLE nrb = renv_alloc(&n, SWGPU_ALLOC_READBACK, SIZE);
    assert_int_equal(renv_copy(&n, nrb, nl, SIZE), STATUS_SUCCESS);
    assert_int_equal(renv_lock(&n, nrb, LOCK_READONLY, &p), STATUS_SUCCESS);
    BYTE zero[SIZE];
    memset(zero, 0, sizeof zero);
    assert_memory_equal(p, zero, SIZE);
    renv_unlock(&n, nrb);
    assert_int_equal(renv_copy(&n, nrb, na, SIZE), STATUS_SUCCESS);
    BYTE want[SIZE];
    renv_pattern(want, SIZE, 32);
    assert_int_equal(renv_lock(&n, nrb, LOCK_READONLY, &p), STATUS_SUCCESS);
    assert_memory_equal(p, want, SIZE);
    renv_unlock(&n, nrb);
    D3DKMT_DESTROYDEVICE dd = { .hDevice = n.device };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    renv_close(&g);
    wddm_set_kmd_entry(NULL);
}

int main(void)
{
    setenv("WDDM_TDR_DELAY_MS", "100", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_adapter_reset_purges_video_memory_and_allocations_come_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
