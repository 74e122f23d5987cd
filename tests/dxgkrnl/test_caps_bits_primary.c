/* Primaries and the two DXGK_VIDMMCAPS bits about them (seed 003, docs/semantics.md §3.2, §3.5,
 * issue 6), against the reference KMD and the software GPU. A primary is created with
 * D3DDDI_ALLOCATIONINFO.Flags.Primary and VidPnSourceId 0 (the model has one source and no
 * display engine); the reference KMD describes its SWGPU_ALLOC_PRIMARY kind by the caps.
 *
 * NonCpuVisiblePrimary: without it a primary is CpuVisible and lives only in CPU-accessible
 * segments (never in local memory, segment 1): the verifier refuses a KMD that allows more;
 * with it the same KMD is accepted and the primary may live in local memory.
 * SectionBackedPrimary: with it the primary's backing store is a section (a shared memory
 * object) from creation to destruction: a second mapping of the object sees what the lock
 * wrote, and the GPU reads the same bytes through the aperture; without it the backing store
 * is private pages committed on demand. A primary is never renamed by a Discard lock. */
#include "real_env.h"

#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include <wddm/d3dkmddi.h>

#include "dxgkrnl/objects/objects.h"
#include "kernel_peek.h"
#include "kmd/kmd.h"

#define LOCAL 1u
#define VISIBLE 2u
#define APERTURE 3u
#define BIT(id) (1u << ((id) - 1u))

static bool widen_primary; /* the wrapping KMD also allows local memory and drops CpuVisible */

static NTSTATUS APIENTRY wrap_create(const HANDLE a, DXGKARG_CREATEALLOCATION *args)
{
    NTSTATUS st = SwKmdCreateAllocation(a, args);
    if (NT_SUCCESS(st) && widen_primary)
        for (UINT i = 0; i < args->NumAllocations; i++) {
            DXGK_ALLOCATIONINFO *in = &args->pAllocationInfo[i];
            in->SupportedReadSegmentSet |= BIT(LOCAL);
            in->SupportedWriteSegmentSet |= BIT(LOCAL);
            in->Flags.CpuVisible = 0;
        }
    return st;
}

/* hDevice of the aperture maps, by the KMD's allocation handle (docs/semantics.md §2.3: NULL for
 * the primary). */
enum { MAPS = 64 };
static struct { HANDLE alloc, device; } maps[MAPS];
static atomic_int map_count;
/* The (un)maps are built on the caller's thread or, for a deferred destruction, the node
 * worker's: the records are written and read under this lock. */
static pthread_mutex_t maps_lock = PTHREAD_MUTEX_INITIALIZER;
static PDXGKDDI_BUILDPAGINGBUFFER real_build;

static NTSTATUS APIENTRY wrap_build(const HANDLE h, DXGKARG_BUILDPAGINGBUFFER *a)
{
    if ((a->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT || a->Operation == DXGK_OPERATION_UNMAP_APERTURE_SEGMENT) &&
        a->MultipassOffset == 0) {
        pthread_mutex_lock(&maps_lock);
        int i = atomic_fetch_add(&map_count, 1);
        if (i < MAPS) {
            bool map = a->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT;
            maps[i].alloc = map ? a->MapApertureSegment.hAllocation : a->UnmapApertureSegment.hAllocation;
            maps[i].device = map ? a->MapApertureSegment.hDevice : a->UnmapApertureSegment.hDevice;
        }
        pthread_mutex_unlock(&maps_lock);
    }
    return real_build(h, a);
}

/* How many recorded (un)maps of the allocation had a NULL / a non-NULL hDevice. */
static void maps_of(D3DKMT_HANDLE h, int *null_dev, int *with_dev)
{
    struct dxgk_allocation *al = (struct dxgk_allocation *)dxgk_handle_get(h, DXGK_TYPE_ALLOCATION);
    assert_non_null(al);
    HANDLE kmd = al->info.hAllocation;
    dxgk_object_put(&al->obj);
    *null_dev = *with_dev = 0;
    pthread_mutex_lock(&maps_lock);
    int n = atomic_load(&map_count);
    for (int i = 0; i < n && i < MAPS; i++)
        if (maps[i].alloc == kmd)
            (*(maps[i].device ? with_dev : null_dev))++;
    pthread_mutex_unlock(&maps_lock);
}

static NTSTATUS wrap_entry(PDRIVER_OBJECT drv, PVOID reg)
{
    DRIVER_INITIALIZATION_DATA d;
    SwKmdGetDriverInitializationData(&d);
    d.DxgkDdiCreateAllocation = wrap_create;
    real_build = d.DxgkDdiBuildPagingBuffer;
    d.DxgkDdiBuildPagingBuffer = wrap_build;
    return DxgkInitialize(drv, reg, &d);
}

static struct renv env;
static bool env_is_open;

static void open_with_caps(const char *caps)
{
    renv_caps(caps);
    widen_primary = false;
    atomic_store(&map_count, 0);
    wddm_set_kmd_entry(wrap_entry);
    renv_open_kmd(&env);
    env_is_open = true;
}

/* Also after a failed assertion (cmocka jumped out of the test): the next test starts its own
 * adapter with its own caps. */
static int teardown(void **state)
{
    (void)state;
    if (env_is_open) {
        wddm_swgpu_set_paused(0);
        D3DKMT_DESTROYDEVICE dd = { .hDevice = env.device };
        D3DKMTDestroyDevice(&dd);
        D3DKMT_CLOSEADAPTER ca = { .hAdapter = env.adapter };
        D3DKMTCloseAdapter(&ca);
        env_is_open = false;
    }
    wddm_set_kmd_entry(NULL);
    widen_primary = false;
    renv_caps_remove();
    return 0;
}

enum { SZ = 64 * 1024 };

static NTSTATUS create_primary(UINT flags, UINT source, D3DKMT_HANDLE *out)
{
    struct swgpu_alloc_private p = { .magic = SWGPU_PRIVATE_MAGIC, .version = SWGPU_PRIVATE_VERSION,
                                     .kind = SWGPU_ALLOC_PRIMARY, .size = SZ, .dimension = 1, .width = SZ / 4,
                                     .height = 1, .depth = 1, .mip_levels = 1, .array_size = 1 };
    D3DDDI_ALLOCATIONINFO ai = { .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p,
                                 .VidPnSourceId = source };
    ai.Flags.Value = flags;
    D3DKMT_CREATEALLOCATION ca = { .hDevice = env.device, .NumAllocations = 1, .pAllocationInfo = &ai };
    NTSTATUS st = D3DKMTCreateAllocation(&ca);
    *out = ai.hAllocation;
    return st;
}

#define PRIMARY 0x1u
#define STEREO 0x2u

static D3DKMT_HANDLE primary(void)
{
    D3DKMT_HANDLE h = 0;
    assert_int_equal(create_primary(PRIMARY, 0, &h), STATUS_SUCCESS);
    return h;
}

/* The backing store of the allocation's current instance: whether it exists, is a section,
 * and (if so) a dup of the section's descriptor (-1 otherwise) and its kernel view. */
struct backing_peek {
    bool exists, section;
    int fd;
    void *view;
};

static struct backing_peek peek_backing(D3DKMT_HANDLE h)
{
    struct dxgk_allocation *al = (struct dxgk_allocation *)dxgk_handle_get(h, DXGK_TYPE_ALLOCATION);
    assert_non_null(al);
    struct dxgk_adapter *a = al->device->adapter;
    pthread_mutex_lock(&a->lock);
    const struct vidmm_instance *in = al->current;
    struct backing_peek r = { .exists = in->backing != NULL, .section = in->section,
                              .fd = in->section ? dup(in->section_fd) : -1, .view = in->backing };
    pthread_mutex_unlock(&a->lock);
    dxgk_object_put(&al->obj);
    return r;
}

/* The GPU copies the primary into a READBACK buffer: its bytes as the GPU reads them. */
static void gpu_read(D3DKMT_HANDLE src, UINT8 *out)
{
    D3DKMT_HANDLE rb = renv_alloc(&env, SWGPU_ALLOC_READBACK, SZ);
    assert_int_equal(renv_copy(&env, rb, src, SZ), STATUS_SUCCESS);
    void *p;
    assert_int_equal(renv_lock(&env, rb, LOCK_READONLY, &p), STATUS_SUCCESS);
    memcpy(out, p, SZ);
    renv_unlock(&env, rb);
    renv_free(&env, rb);
}

/* An UPLOAD buffer with pattern(seed) copied into dst by the GPU (puts dst in a segment). */
static void gpu_write(D3DKMT_HANDLE dst, uint32_t seed)
{
    D3DKMT_HANDLE up = renv_alloc(&env, SWGPU_ALLOC_UPLOAD, SZ);
    renv_gpu_write(&env, dst, up, SZ, seed);
    renv_free(&env, up);
}

static void expect_refusal_naming(NTSTATUS st, const char *what)
{
    assert_false(NT_SUCCESS(st));
    char why[1100];
    wddm_last_refusals(why, sizeof why);
    if (!strstr(why, what))
        fail_msg("the refusal does not name %s:\n%s", what, why);
}

/* ---- the primary itself ------------------------------------------------------------------- */

/* rule: kernel.primary-created-d3dddi-allocationinfo */
static void primary_flags_need_source_0_and_stereo_needs_primary(void **state)
{
    (void)state;
    open_with_caps("");
    D3DKMT_HANDLE h = 0;
    wddm_clear_refusals();
    expect_refusal_naming(create_primary(PRIMARY, 1, &h), "VidPnSourceId");
    expect_refusal_naming(create_primary(STEREO, 0, &h), "Stereo needs Primary");
    expect_refusal_naming(create_primary(0x4u, 0, &h), "reserved");
    assert_int_equal(create_primary(PRIMARY | STEREO, 0, &h), STATUS_SUCCESS);
    renv_free(&env, h);
}

/* rule: vidmm.discard-lock-never-renames-primary-plain */
static void a_discard_lock_never_renames_a_primary(void **state)
{
    (void)state;
    open_with_caps("");
    D3DKMT_HANDLE h = primary();
    void *p1, *p2;
    assert_int_equal(renv_lock(&env, h, LOCK_WRITEONLY, &p1), STATUS_SUCCESS);
    renv_unlock(&env, h);
    UINT64 renames = renv_counters().renames;
    /* Busy on the (paused) GPU: a Discard lock of another allocation would hand out a fresh
     * instance at once; a primary's Discard is a plain lock, so DonotWait answers busy. */
    wddm_swgpu_set_paused(1);
    gpu_write(h, 7);
    assert_false(NT_SUCCESS(renv_lock(&env, h, LOCK_DISCARD | LOCK_WRITEONLY | LOCK_DONOTWAIT, &p2)));
    assert_int_equal(renv_counters().renames, renames);
    wddm_swgpu_set_paused(0);
    assert_int_equal(renv_lock(&env, h, LOCK_DISCARD | LOCK_WRITEONLY, &p2), STATUS_SUCCESS);
    renv_unlock(&env, h);
    assert_ptr_equal(p1, p2);
    assert_int_equal(renv_counters().renames, renames);
    renv_free(&env, h);
}

/* ---- NonCpuVisiblePrimary ----------------------------------------------------------------- */

/* rule: kernel.verifier-primary-never-permanentsysmem */
static void without_non_cpu_visible_primary_the_primary_stays_cpu_visible(void **state)
{
    (void)state;
    open_with_caps("DXGK_VIDMMCAPS.NonCpuVisiblePrimary = 0\n");
    D3DKMT_HANDLE h = primary();
    gpu_write(h, 11);
    /* CpuVisible: the CPU reads what the GPU wrote (the lock waits for that copy). */
    void *p;
    assert_int_equal(renv_lock(&env, h, LOCK_READONLY, &p), STATUS_SUCCESS);
    UINT seg = kpeek_segment(h);
    assert_true(seg == VISIBLE || seg == APERTURE); /* never LOCAL */
    UINT8 *want = malloc(SZ);
    assert_non_null(want);
    renv_pattern(want, SZ, 11);
    assert_memory_equal(p, want, SZ);
    free(want);
    renv_unlock(&env, h);
    renv_free(&env, h);
}

/* rule: kernel.verifier-primary-never-permanentsysmem */
static void without_non_cpu_visible_primary_the_verifier_refuses_local_memory(void **state)
{
    (void)state;
    open_with_caps("DXGK_VIDMMCAPS.NonCpuVisiblePrimary = 0\n");
    widen_primary = true;
    wddm_clear_refusals();
    D3DKMT_HANDLE h = 0;
    expect_refusal_naming(create_primary(PRIMARY, 0, &h), "NonCpuVisiblePrimary");
    /* The same answer for an allocation that is not a primary is fine. */
    D3DKMT_HANDLE g = renv_alloc(&env, SWGPU_ALLOC_GPU_ONLY, SZ);
    renv_free(&env, g);
}

/* rule: kmd.noncpuvisibleprimary-same-kmd-answer */
static void with_non_cpu_visible_primary_the_primary_may_live_in_local_memory(void **state)
{
    (void)state;
    open_with_caps("DXGK_VIDMMCAPS.NonCpuVisiblePrimary = 1\n");
    D3DKMT_HANDLE h = primary();
    gpu_write(h, 21);
    UINT8 *got = malloc(SZ), *want = malloc(SZ);
    assert_true(got && want);
    gpu_read(h, got); /* waits for both copies */
    assert_int_equal(kpeek_segment(h), LOCAL);
    renv_pattern(want, SZ, 21);
    assert_memory_equal(got, want, SZ);
    free(got);
    free(want);
    /* Not CPU visible: no lock (docs/semantics.md §3.2: only CpuVisible allocations lock). */
    void *p;
    assert_false(NT_SUCCESS(renv_lock(&env, h, LOCK_READONLY, &p)));
    renv_free(&env, h);
    /* And a KMD that allows local memory for its primary is accepted. */
    widen_primary = true;
    assert_int_equal(create_primary(PRIMARY, 0, &h), STATUS_SUCCESS);
    renv_free(&env, h);
}

/* ---- SectionBackedPrimary ----------------------------------------------------------------- */

/* rule: vidmm.sectionbackedprimary-primary-system */
/* rule: vidmm.mapaperturesegment-hdevice */
static void with_section_backed_primary_the_backing_store_is_a_section(void **state)
{
    (void)state;
    open_with_caps("DXGK_VIDMMCAPS.SectionBackedPrimary = 1\n");
    D3DKMT_HANDLE h = primary();
    /* From creation, before any use. */
    struct backing_peek b = peek_backing(h);
    assert_true(b.exists);
    assert_true(b.section);
    assert_true(b.fd >= 0);
    /* A lock returns the section's kernel view (it lives in the aperture over the section). */
    void *p;
    assert_int_equal(renv_lock(&env, h, LOCK_WRITEONLY, &p), STATUS_SUCCESS);
    assert_int_equal(kpeek_segment(h), APERTURE);
    assert_ptr_equal(p, b.view);
    renv_pattern(p, SZ, 31);
    renv_unlock(&env, h);
    /* Another mapping of the same section object sees those bytes: shared memory, not private
     * pages. */
    void *other = mmap(NULL, SZ, PROT_READ | PROT_WRITE, MAP_SHARED, b.fd, 0);
    assert_true(other != MAP_FAILED);
    assert_ptr_not_equal(other, b.view);
    UINT8 *want = malloc(SZ), *got = malloc(SZ);
    assert_true(want && got);
    renv_pattern(want, SZ, 31);
    assert_memory_equal(other, want, SZ);
    /* ... and what is written through it is what the GPU reads through the aperture. */
    renv_pattern(other, SZ, 32);
    gpu_read(h, got);
    renv_pattern(want, SZ, 32);
    assert_memory_equal(got, want, SZ);
    /* The GPU writes into the section too. */
    gpu_write(h, 33);
    void *q;
    assert_int_equal(renv_lock(&env, h, LOCK_READONLY, &q), STATUS_SUCCESS);
    renv_unlock(&env, h);
    renv_pattern(want, SZ, 33);
    assert_memory_equal(other, want, SZ);
    munmap(other, SZ);
    close(b.fd);
    free(want);
    free(got);
    /* Mapped into the aperture with hDevice NULL, as a primary is (docs/semantics.md §2.3); an
     * ordinary allocation's map names its device. */
    int null_dev = 0, with_dev = 0;
    maps_of(h, &null_dev, &with_dev);
    assert_true(null_dev >= 1);
    assert_int_equal(with_dev, 0);
    D3DKMT_HANDLE rb = renv_alloc(&env, SWGPU_ALLOC_READBACK, SZ);
    assert_int_equal(renv_lock(&env, rb, LOCK_READONLY, &q), STATUS_SUCCESS);
    renv_unlock(&env, rb);
    maps_of(rb, &null_dev, &with_dev);
    assert_int_equal(null_dev, 0);
    assert_true(with_dev >= 1);
    renv_free(&env, rb);
    /* The same section until destruction. */
    struct backing_peek c = peek_backing(h);
    assert_ptr_equal(c.view, b.view);
    if (c.fd >= 0)
        close(c.fd);
    renv_free(&env, h);
}

/* rule: vidmm.sectionbackedprimary-primary-system */
static void without_section_backed_primary_the_backing_store_is_private_pages(void **state)
{
    (void)state;
    open_with_caps("DXGK_VIDMMCAPS.SectionBackedPrimary = 0\n");
    D3DKMT_HANDLE h = primary();
    struct backing_peek b = peek_backing(h);
    assert_false(b.exists); /* committed on demand, not at creation */
    void *p;
    assert_int_equal(renv_lock(&env, h, LOCK_WRITEONLY, &p), STATUS_SUCCESS);
    renv_pattern(p, SZ, 41);
    renv_unlock(&env, h);
    gpu_write(h, 42);
    b = peek_backing(h);
    assert_false(b.section);
    assert_int_equal(b.fd, -1);
    renv_free(&env, h);
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "4", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "4", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "8", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(primary_flags_need_source_0_and_stereo_needs_primary, teardown),
        cmocka_unit_test_teardown(a_discard_lock_never_renames_a_primary, teardown),
        cmocka_unit_test_teardown(without_non_cpu_visible_primary_the_primary_stays_cpu_visible, teardown),
        cmocka_unit_test_teardown(without_non_cpu_visible_primary_the_verifier_refuses_local_memory, teardown),
        cmocka_unit_test_teardown(with_non_cpu_visible_primary_the_primary_may_live_in_local_memory, teardown),
        cmocka_unit_test_teardown(with_section_backed_primary_the_backing_store_is_a_section, teardown),
        cmocka_unit_test_teardown(without_section_backed_primary_the_backing_store_is_private_pages, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
