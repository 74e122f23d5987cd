/* The BuildPagingBuffer retry protocol's second half (issue 3 "allocation busy -> wait for
 * idle and retry"; docs/semantics.md §2.4): a KMD may answer a TRANSFER or DISCARD_CONTENT whose
 * allocation is not idle with STATUS_GRAPHICS_ALLOCATION_BUSY; VidMm then waits, with its lock
 * let go, until the allocation's earlier GPU work (here: the paging transfer that restored it)
 * has retired, and calls again with Flags.AllocationIsIdle = 1 (vidmm/paging.c).
 *
 * The reference KMD answers BUSY to every TRANSFER out of a segment (and DISCARD_CONTENT)
 * without AllocationIsIdle while wddm_swkmd_set_paging_busy is on (issue 20 §7), as a KMD whose
 * copy engine cannot order against pending work would; the test wraps it only to watch its
 * answers. The GPU is paused so the
 * victim's restore is still pending when VidMm evicts it; a watcher thread resumes the GPU only
 * after the BUSY answer, so an immediate retry (no wait) would find the GPU still paused. */
/* rule: vidmm.dxgk-transferflags-transferstart (a wrapped KMD checks every TRANSFER call's flags; fails with `TransferEnd` left clear) */
#include "real_env.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include <wddm/d3dkmddi.h>

#include "dxgkrnl/objects/objects.h"
#include "kernel_peek.h"
#include "kmd/kmd.h"

#define KIB 1024u
enum { N = 8 };                  /* 8 x 256 KiB GPU_ONLY = local + CPU-visible local exactly */
static const UINT32 SZ = 256 * KIB;

static atomic_int busy_answers;    /* BUSY returned by the wrapper */
static atomic_int idle_retries;    /* calls with AllocationIsIdle after a BUSY */
static atomic_int retry_while_paused; /* a retry came while the GPU was still paused */
static atomic_int gpu_resumed;
static atomic_int arm;             /* the wrapper watches the KMD's answers only while armed */
static atomic_int not_busy;        /* a copy out not called idle that the KMD did not answer BUSY */
static atomic_int transfers;       /* TRANSFER calls seen */
static atomic_int bad_transfer_flags; /* TransferEnd clear, or TransferStart not = first call */

static NTSTATUS APIENTRY wrap_build(const HANDLE a, DXGKARG_BUILDPAGINGBUFFER *args)
{
    /* DXGK_TRANSFERFLAGS (issue 20 §7): every whole-allocation transfer starts and ends; a
     * multipass continuation is no start. */
    if (args->Operation == DXGK_OPERATION_TRANSFER) {
        atomic_fetch_add(&transfers, 1);
        if (!args->Transfer.Flags.TransferEnd || args->Transfer.Flags.TransferStart != (args->MultipassOffset == 0))
            atomic_fetch_add(&bad_transfer_flags, 1);
    }
    /* A copy out of a segment (TRANSFER) or the drop of a copy already backed (DISCARD_CONTENT:
     * a[0] below was only read since its restore, so its backing store is still valid). */
    bool leaves = (args->Operation == DXGK_OPERATION_TRANSFER && args->Transfer.Source.SegmentId != 0) ||
                  args->Operation == DXGK_OPERATION_DISCARD_CONTENT;
    NTSTATUS st = SwKmdBuildPagingBuffer(a, args);
    if (atomic_load(&arm) && leaves) {
        bool idle = args->Operation == DXGK_OPERATION_TRANSFER ? args->Transfer.Flags.AllocationIsIdle
                                                                : args->DiscardContent.Flags.AllocationIsIdle;
        if (!idle) {
            if (st != STATUS_GRAPHICS_ALLOCATION_BUSY)
                atomic_fetch_add(&not_busy, 1);
            atomic_fetch_add(&busy_answers, 1);
        } else if (atomic_load(&busy_answers) > atomic_load(&idle_retries)) {
            atomic_fetch_add(&idle_retries, 1);
            if (!atomic_load(&gpu_resumed))
                atomic_fetch_add(&retry_while_paused, 1);
        }
    }
    return st;
}

static NTSTATUS wrap_entry(PDRIVER_OBJECT drv, PVOID reg)
{
    DRIVER_INITIALIZATION_DATA d;
    SwKmdGetDriverInitializationData(&d);
    d.DxgkDdiBuildPagingBuffer = wrap_build;
    return DxgkInitialize(drv, reg, &d);
}

/* Resumes the GPU once the wrapper answered BUSY (after a pause long enough that a retry
 * without a wait would come first; a correct kernel cannot finish its wait before this). */
static void *watcher(void *unused)
{
    (void)unused;
    while (!atomic_load(&busy_answers))
        usleep(1000);
    usleep(50 * 1000);
    atomic_store(&gpu_resumed, 1);
    wddm_swgpu_set_paused(0);
    return NULL;
}

static struct renv env;
static int setup(void **state)
{
    wddm_set_kmd_entry(wrap_entry);
    renv_open_kmd(&env);
    *state = &env;
    return 0;
}

static int teardown(void **state)
{
    renv_close(*state);
    wddm_set_kmd_entry(NULL);
    return 0;
}

static NTSTATUS make_resident(struct renv *e, D3DKMT_HANDLE h)
{
    D3DDDI_MAKERESIDENT mr = { .hPagingQueue = e->device, .NumAllocations = 1, .AllocationList = &h };
    NTSTATUS st = D3DKMTMakeResident(&mr);
    return st == STATUS_PENDING ? STATUS_SUCCESS : st;
}

/* EvictOnlyIfNecessary: the allocation stays where it is until its place is needed. */
static void evict(struct renv *e, D3DKMT_HANDLE h)
{
    D3DKMT_EVICT ev = { .hDevice = e->device, .NumAllocations = 1, .AllocationList = &h,
                        .Flags.EvictOnlyIfNecessary = 1 };
    assert_int_equal(D3DKMTEvict(&ev), STATUS_SUCCESS);
}

/* rule: kmd.wddm-swkmd-set-paging-busy-reference (the wrapper only watches; counts a non-idle copy out not answered BUSY) */
static void test_busy_allocation_is_waited_for_and_the_transfer_retried_as_idle(void **state)
{
    struct renv *e = *state;
    D3DKMT_HANDLE up = renv_alloc(e, SWGPU_ALLOC_UPLOAD, SZ);
    D3DKMT_HANDLE rb = renv_alloc(e, SWGPU_ALLOC_READBACK, SZ);
    D3DKMT_HANDLE a[N];
    for (int i = 0; i < N; i++) {
        a[i] = renv_alloc(e, SWGPU_ALLOC_GPU_ONLY, SZ);
        renv_gpu_write(e, a[i], up, SZ, 70 + (uint32_t)i);
    }
    renv_gpu_check(e, a[N - 1], rb, SZ, 70 + N - 1);
    /* A ninth allocation takes a[0]'s place (least recently used): a[0] goes to system memory. */
    D3DKMT_HANDLE x = renv_alloc(e, SWGPU_ALLOC_GPU_ONLY, SZ);
    renv_gpu_write(e, x, up, SZ, 90);
    renv_gpu_check(e, x, rb, SZ, 90);
    bool evicted = false;
    assert_int_equal(kpeek_where(a[0], &evicted), 0);
    assert_true(evicted);

    /* GPU paused: MakeResident brings a[0] back by a TRANSFER that stays pending (it evicts an
     * idle victim for that, answered normally: not armed yet). Then a[0] is released and made
     * the first victim; nothing references it but its own pending restore. */
    wddm_swgpu_set_paused(1);
    assert_int_equal(make_resident(e, a[0]), STATUS_SUCCESS);
    assert_int_not_equal(kpeek_where(a[0], NULL), 0);
    evict(e, a[0]);
    assert_int_not_equal(kpeek_where(a[0], NULL), 0); /* still there: released, not moved */
    UINT low = D3DDDI_ALLOCATIONPRIORITY_MINIMUM;
    D3DKMT_SETALLOCATIONPRIORITY sp = { .hDevice = e->device, .phAllocationList = &a[0], .AllocationCount = 1,
                                        .pPriorities = &low };
    assert_int_equal(D3DKMTSetAllocationPriority(&sp), STATUS_SUCCESS);

    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, watcher, NULL), 0);
    atomic_store(&arm, 1);
    wddm_swkmd_set_paging_busy(1);
    /* One more allocation made resident needs a[0]'s place: its copy out is answered BUSY, the
     * kernel waits (the watcher resumes the GPU) and retries with AllocationIsIdle. */
    D3DKMT_HANDLE y = renv_alloc(e, SWGPU_ALLOC_GPU_ONLY, SZ);
    assert_int_equal(make_resident(e, y), STATUS_SUCCESS);
    wddm_swkmd_set_paging_busy(0);
    atomic_store(&arm, 0);
    assert_int_equal(pthread_join(t, NULL), 0);

    assert_int_equal(atomic_load(&not_busy), 0);
    assert_int_equal(atomic_load(&busy_answers), 1);
    assert_int_equal(atomic_load(&idle_retries), 1);
    assert_int_equal(atomic_load(&retry_while_paused), 0); /* the retry came after the wait */
    assert_int_equal(kpeek_where(a[0], &evicted), 0);
    assert_true(evicted);
    evict(e, y);
    /* Nothing lost: a[0]'s bytes went out after its restore had landed, and come back. */
    renv_gpu_check(e, a[0], rb, SZ, 70);
    for (int i = 1; i < N; i++)
        renv_gpu_check(e, a[i], rb, SZ, 70 + (uint32_t)i);
    renv_gpu_check(e, x, rb, SZ, 90);
    assert_true(atomic_load(&transfers) > 0);
    assert_int_equal(atomic_load(&bad_transfer_flags), 0);
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "1", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "1", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "8", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_busy_allocation_is_waited_for_and_the_transfer_retried_as_idle, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
