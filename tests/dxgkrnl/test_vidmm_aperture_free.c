/* Issue 3, docs/semantics.md §2.3: when VidMm frees an aperture placement (the allocation is
 * destroyed) it points the range back at the dummy page with UNMAP_APERTURE_SEGMENT, as it does
 * when it evicts out of the aperture, and the pages go only once that UNMAP ran: the GART never
 * names freed pages. Against the reference KMD (its DxgkDdiBuildPagingBuffer wrapped to record
 * every UNMAP it is given) and the software GPU. */
/* rule: vidmm.freeing-aperture-placement-points-range (the UNMAP of the range; with the paging engine paused the pages stay, readable, until it ran; a deferred destruction, under ASan a use after free with the old order) */
#include "real_env.h"

#include <unistd.h>

#include <wddm/d3dkmddi.h>

#include "dxgkrnl/objects/objects.h"
#include "kernel_peek.h"
#include "kmd/kmd.h"

#define APERTURE 3u
enum { SZ = 64 * 1024, MAX_UNMAPS = 64 };

static PDXGKDDI_BUILDPAGINGBUFFER real_build;
static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;
static struct { UINT segment; SIZE_T first, count; } seen[MAX_UNMAPS];
static UINT seen_count;

static NTSTATUS APIENTRY wrap_build(const HANDLE h, DXGKARG_BUILDPAGINGBUFFER *a)
{
    if (a->Operation == DXGK_OPERATION_UNMAP_APERTURE_SEGMENT && a->MultipassOffset == 0) {
        pthread_mutex_lock(&seen_lock);
        if (seen_count < MAX_UNMAPS) {
            seen[seen_count].segment = a->UnmapApertureSegment.SegmentId;
            seen[seen_count].first = a->UnmapApertureSegment.OffsetInPages;
            seen[seen_count].count = a->UnmapApertureSegment.NumberOfPages;
            seen_count++;
        }
        pthread_mutex_unlock(&seen_lock);
    }
    return real_build(h, a);
}

static NTSTATUS wrap_entry(PDRIVER_OBJECT drv, PVOID reg)
{
    DRIVER_INITIALIZATION_DATA d;
    SwKmdGetDriverInitializationData(&d);
    real_build = d.DxgkDdiBuildPagingBuffer;
    d.DxgkDdiBuildPagingBuffer = wrap_build;
    return DxgkInitialize(drv, reg, &d);
}

static struct renv e;

static int setup(void **state)
{
    (void)state;
    seen_count = 0;
    wddm_set_kmd_entry(wrap_entry);
    renv_open_kmd(&e);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    wddm_swgpu_set_paused(0);
    renv_close(&e);
    wddm_set_kmd_entry(NULL);
    return 0;
}

static struct dxgk_adapter *adapter_of(D3DKMT_HANDLE device)
{
    struct dxgk_device *d = dxgk_device_get(device);
    assert_non_null(d);
    struct dxgk_adapter *a = d->adapter;
    dxgk_device_put(d);
    return a;
}

/* A READBACK allocation placed in the aperture by a lock; *offset = its range's offset. */
static D3DKMT_HANDLE placed_in_aperture(UINT64 *offset, BYTE fill)
{
    D3DKMT_HANDLE h = renv_alloc(&e, SWGPU_ALLOC_READBACK, SZ);
    void *p = NULL;
    assert_int_equal(renv_lock(&e, h, 0, &p), STATUS_SUCCESS);
    memset(p, fill, SZ);
    renv_unlock(&e, h);
    assert_int_equal(kpeek_segment(h), APERTURE);
    struct dxgk_allocation *al = (struct dxgk_allocation *)dxgk_handle_get(h, DXGK_TYPE_ALLOCATION);
    assert_non_null(al);
    pthread_mutex_lock(&al->device->adapter->lock);
    *offset = al->current->offset;
    pthread_mutex_unlock(&al->device->adapter->lock);
    dxgk_object_put(&al->obj);
    return h;
}

/* The MAP of a fresh aperture placement needs no CPU wait, so right after the lock the
 * allocation may still be busy with it and its destruction deferred: wait for the paging node
 * so that the free below is immediate. */
static void paging_idle(void)
{
    struct dxgk_adapter *a = adapter_of(e.device);
    gsched_wait_node_idle(&a->node[a->paging_node]);
}

static bool unmapped(UINT64 offset)
{
    bool found = false;
    pthread_mutex_lock(&seen_lock);
    for (UINT i = 0; i < seen_count; i++)
        found |= seen[i].segment == APERTURE && seen[i].first == offset / 4096 && seen[i].count == SZ / 4096;
    pthread_mutex_unlock(&seen_lock);
    return found;
}

static void freeing_an_aperture_placement_unmaps_its_range(void **state)
{
    (void)state;
    UINT64 off = 0;
    D3DKMT_HANDLE h = placed_in_aperture(&off, 0x11);
    paging_idle();
    assert_false(unmapped(off));
    renv_free(&e, h);
    assert_true(unmapped(off));
}

/* With the paging engine paused the UNMAP cannot run: the pages stay (parked on the adapter,
 * still holding what was written); once it ran, the next free of anything releases them. */
static void the_pages_go_only_once_the_unmap_ran(void **state)
{
    (void)state;
    struct dxgk_adapter *a = adapter_of(e.device);
    UINT64 off = 0;
    D3DKMT_HANDLE h = placed_in_aperture(&off, 0x5A);
    paging_idle();
    wddm_swgpu_set_paused(1);
    renv_free(&e, h);
    pthread_mutex_lock(&a->lock);
    struct vidmm_retiring *parked = a->retiring;
    const BYTE *pages = parked ? parked->pages.backing : NULL;
    BYTE first = pages ? pages[0] : 0, last = pages ? pages[SZ - 1] : 0; /* not freed: readable */
    pthread_mutex_unlock(&a->lock);
    wddm_swgpu_set_paused(0); /* before any assertion: a failed one must not leave it paused */
    assert_non_null(pages);
    assert_int_equal(first, 0x5A);
    assert_int_equal(last, 0x5A);
    gsched_wait_node_idle(&a->node[a->paging_node]);
    /* Any free reaps what the GPU is done with; one that parks nothing itself (never placed). */
    renv_free(&e, renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, SZ));
    pthread_mutex_lock(&a->lock);
    bool none = a->retiring == NULL;
    pthread_mutex_unlock(&a->lock);
    assert_true(none);
    assert_true(unmapped(off));
}

/* Destroyed while a queued copy still writes it: the entry is deferred and freed once the copy
 * retired. The UNMAP is built then, but before DxgkDdiDestroyAllocation: the KMD still knows
 * the allocation it names (under ASan a use after free otherwise). */
static void a_deferred_destruction_unmaps_before_the_kmd_forgets_the_allocation(void **state)
{
    (void)state;
    UINT64 off = 0;
    D3DKMT_HANDLE h = placed_in_aperture(&off, 0x33);
    D3DKMT_HANDLE src = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, SZ);
    paging_idle();
    wddm_swgpu_set_paused(1);
    NTSTATUS st = renv_copy(&e, h, src, SZ); /* queued: h is busy */
    D3DKMT_DESTROYALLOCATION da = { .hDevice = e.device, .phAllocationList = &h, .AllocationCount = 1 };
    NTSTATUS dst = D3DKMTDestroyAllocation(&da);
    bool early = unmapped(off);
    wddm_swgpu_set_paused(0);
    assert_int_equal(st, STATUS_SUCCESS);
    assert_int_equal(dst, STATUS_SUCCESS);
    assert_false(early); /* deferred: the copy has not run */
    renv_finish(e.device, e.context);
    for (int i = 0; i < 20000 && !unmapped(off); i++) /* the worker frees it: bounded, no time asserted */
        usleep(1000);
    assert_true(unmapped(off));
    renv_free(&e, src);
}

int main(void)
{
    setenv("WDDM_SEGMENT_APERTURE_MB", "8", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(freeing_an_aperture_placement_unmaps_its_range, setup, teardown),
        cmocka_unit_test_setup_teardown(the_pages_go_only_once_the_unmap_ran, setup, teardown),
        cmocka_unit_test_setup_teardown(a_deferred_destruction_unmaps_before_the_kmd_forgets_the_allocation, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
