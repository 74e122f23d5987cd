/* Issue 3 "Discard renaming, in both driver models", WDDM 2.x half (docs/semantics.md §3.3 "WDDM 2.x"):
 * the reference UMD renames and synchronises itself (src/umd/rename.c), forced on today's WDDM 1.x
 * path with WDDM_UMD_RENAMING=1, observed through D3D11 with the GPU paused (include/wddm/swgpu.h)
 * so that no outcome depends on timing:
 *  - Map(WRITE_DISCARD) of a DYNAMIC buffer the GPU still has to copy from returns at once with
 *    other memory; the copy sees the old bytes, a later copy the new ones; VidMm renames nothing
 *    (wddm_get_counters) while the UMD's count rises;
 *  - retired instances are recycled: the pool stops growing once the GPU keeps up;
 *  - at the bound (WDDM_UMD_RENAME_MAX_INSTANCES) the discard waits on the monitored fence for
 *    the oldest instance, and nothing the GPU still reads is overwritten;
 *  - NO_OVERWRITE returns the same memory without waiting or renaming;
 *  - Map(READ) of a staging buffer waits (monitored-fence CPU wait) for the copy and sees its
 *    bytes; DO_NOT_WAIT on it gives DXGI_ERROR_WAS_STILL_DRAWING; VidMm's lock never waits. */
/* rule: runtime.wddm-2-x-runtime-callbacks-exist (fence create/signal/wait/destroy, Lock2/Unlock2) */
/* rule: umd.umd-renaming-counters-readable-tests */
#include "e2e/e2e.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include <wddm/wddm.h>
#include "umd/rename.h"

enum { N = 4096, BOUND = 4, REGIONS = 4 };

struct bufs {
    ID3D11Buffer *dyn, *dst, *stg;
};

static struct wddm_umd_rename_counters umd_counters(void)
{
    struct wddm_umd_rename_counters c;
    wddm_umd_get_rename_counters(&c);
    return c;
}

static struct wddm_counters kernel_counters(void)
{
    struct wddm_counters c;
    assert_int_equal(wddm_get_counters(&c), STATUS_SUCCESS);
    return c;
}

static struct bufs make_bufs(struct e2e *e)
{
    struct bufs b = {0};
    D3D11_BUFFER_DESC bd = {.ByteWidth = N, .Usage = D3D11_USAGE_DYNAMIC, .BindFlags = D3D11_BIND_VERTEX_BUFFER,
                            .CPUAccessFlags = D3D11_CPU_ACCESS_WRITE};
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &b.dyn), S_OK);
    bd = (D3D11_BUFFER_DESC){.ByteWidth = N * REGIONS, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER};
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &b.dst), S_OK);
    bd = (D3D11_BUFFER_DESC){.ByteWidth = N * REGIONS, .Usage = D3D11_USAGE_STAGING,
                             .CPUAccessFlags = D3D11_CPU_ACCESS_READ};
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &b.stg), S_OK);
    return b;
}

static void free_bufs(struct bufs *b)
{
    SAFE_RELEASE(b->dyn);
    SAFE_RELEASE(b->dst);
    SAFE_RELEASE(b->stg);
}

/* Map(WRITE_DISCARD), fill with the pattern of `seed`, Unmap; returns the pointer the map gave. */
static void *discard_write(struct e2e *e, ID3D11Buffer *b, uint32_t seed)
{
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)b, 0, D3D11_MAP_WRITE_DISCARD, 0, &m), S_OK);
    e2e_fill(m.pData, N, seed);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)b, 0);
    return m.pData;
}

/* GPU copy of bytes [from, to) of the dynamic buffer into region `r` of dst (same offsets). */
static void copy_to_region(struct e2e *e, struct bufs *b, UINT r, UINT from, UINT to)
{
    D3D11_BOX box = {.left = from, .right = to, .top = 0, .bottom = 1, .front = 0, .back = 1};
    ID3D11DeviceContext_CopySubresourceRegion(e->ctx, (ID3D11Resource *)b->dst, 0, r * N + from, 0, 0,
                                              (ID3D11Resource *)b->dyn, 0, &box);
}

/* dst -> staging -> CPU (Map(READ) waits for the copies before it). */
static void read_dst(struct e2e *e, struct bufs *b, uint8_t *out)
{
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)b->stg, (ID3D11Resource *)b->dst);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)b->stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    memcpy(out, m.pData, (size_t)N * REGIONS);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)b->stg, 0);
}

static void assert_region(const uint8_t *dst, UINT r, uint32_t seed)
{
    uint8_t want[N];
    e2e_fill(want, N, seed);
    assert_memory_equal(dst + (size_t)r * N, want, N);
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Until the UMD has started its (waits_before + 1)-th monitored-fence CPU wait; FALSE after ~20 s. */
static int wait_for_umd_wait(UINT64 waits_before)
{
    for (int i = 0; i < 2000; i++) {
        if (umd_counters().waits > waits_before)
            return 1;
        sleep_ms(10);
    }
    return 0;
}

static int group_setup(void **state)
{
    (void)state;
    /* Read at device creation (src/umd/rename.c). */
    setenv("WDDM_UMD_RENAMING", "1", 1);
    setenv("WDDM_UMD_RENAME_MAX_INSTANCES", "4", 1); /* BOUND */
    /* The subject is a resource's own pool (rename.c): its small DYNAMIC buffers are not slices
     * of the upload ring (ring.c, tested by e2e.test_upload_ring). */
    setenv("WDDM_UMD_RING", "0", 1);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    unsetenv("WDDM_UMD_RENAMING");
    unsetenv("WDDM_UMD_RENAME_MAX_INSTANCES");
    unsetenv("WDDM_UMD_RING");
    return 0;
}

/* The GPU still has to copy from the buffer: WRITE_DISCARD returns other memory at once (a wait
 * would never end with the GPU paused), the copy reads the old bytes and a later copy the new. */
/* rule: umd.map-busy-dynamic-resource-never-waits */
static void discard_of_busy_buffer_returns_fresh_memory_without_waiting(void **state)
{
    struct e2e *e = *state;
    struct bufs b = make_bufs(e);
    uint8_t dst[N * REGIONS];
    void *p1 = discard_write(e, b.dyn, 1);
    struct wddm_umd_rename_counters u0 = umd_counters();
    struct wddm_counters k0 = kernel_counters();

    wddm_swgpu_set_paused(1);
    copy_to_region(e, &b, 0, 0, N);
    void *p2 = discard_write(e, b.dyn, 2);
    copy_to_region(e, &b, 1, 0, N);
    struct wddm_umd_rename_counters u1 = umd_counters();
    struct wddm_counters k1 = kernel_counters();
    wddm_swgpu_set_paused(0);

    assert_ptr_not_equal(p1, p2);
    assert_int_equal(u1.renames, u0.renames + 1);
    assert_int_equal(u1.instances_created, u0.instances_created + 1);
    assert_int_equal(u1.waits, u0.waits);
    assert_int_equal(k1.renames, k0.renames);        /* VidMm was never asked to rename */
    assert_int_equal(k1.lock_waits, k0.lock_waits);  /* pfnLock2Cb never waits */
    read_dst(e, &b, dst);
    assert_region(dst, 0, 1); /* the copy queued before the discard saw the old bytes */
    assert_region(dst, 1, 2); /* the one after it the new bytes */
    assert_int_equal(kernel_counters().renames, k0.renames);
    free_bufs(&b);
}

/* Groups of REGIONS discards while the GPU is paused, then a read back that lets the GPU catch up:
 * the first group fills the pool (BOUND - 1 new allocations), later groups only recycle it. */
/* rule: umd.retired-instances-recycled-when-stamp */
static void retired_instances_are_recycled_once_the_gpu_keeps_up(void **state)
{
    struct e2e *e = *state;
    struct bufs b = make_bufs(e);
    uint8_t dst[N * REGIONS];
    struct wddm_umd_rename_counters u0 = umd_counters();
    UINT64 created_after_first = 0;
    enum { GROUPS = 8 };
    for (uint32_t g = 0; g < GROUPS; g++) {
        wddm_swgpu_set_paused(1);
        for (UINT r = 0; r < REGIONS; r++) {
            discard_write(e, b.dyn, 100 + g * REGIONS + r);
            copy_to_region(e, &b, r, 0, N);
        }
        wddm_swgpu_set_paused(0);
        read_dst(e, &b, dst);
        for (UINT r = 0; r < REGIONS; r++)
            assert_region(dst, r, 100 + g * REGIONS + r);
        if (g == 0)
            created_after_first = umd_counters().instances_created - u0.instances_created;
    }
    struct wddm_umd_rename_counters u1 = umd_counters();
    /* After a read back the current instance is idle: the first discard of a group keeps it, the
     * other REGIONS - 1 rename, each to a retired instance once the pool is full. */
    assert_int_equal(created_after_first, BOUND - 1);
    assert_int_equal(u1.instances_created - u0.instances_created, BOUND - 1);
    assert_int_equal(u1.renames - u0.renames, (UINT64)GROUPS * (REGIONS - 1));
    free_bufs(&b);
}

struct discarder {
    struct e2e *e;
    ID3D11Buffer *dyn;
    atomic_int resumed; /* set by the main thread just before it resumes the GPU */
    int resumed_when_returned;
    void *ptr;
    HRESULT hr;
};

static void *discard_thread(void *arg)
{
    struct discarder *d = arg;
    D3D11_MAPPED_SUBRESOURCE m;
    d->hr = ID3D11DeviceContext_Map(d->e->ctx, (ID3D11Resource *)d->dyn, 0, D3D11_MAP_WRITE_DISCARD, 0, &m);
    d->resumed_when_returned = atomic_load(&d->resumed);
    if (SUCCEEDED(d->hr)) {
        d->ptr = m.pData;
        e2e_fill(m.pData, N, 9);
        ID3D11DeviceContext_Unmap(d->e->ctx, (ID3D11Resource *)d->dyn, 0);
    }
    return NULL;
}

/* BOUND instances all busy: the next discard waits on the monitored fence for the oldest, then
 * hands out that very memory; every copy queued before still read its own bytes. */
/* rule: umd.bound-8-allocations-resource-64-mib */
static void discard_at_the_bound_waits_for_the_oldest_instance(void **state)
{
    struct e2e *e = *state;
    struct bufs b = make_bufs(e);
    uint8_t dst[N * REGIONS];
    void *ptrs[REGIONS];
    struct wddm_umd_rename_counters u0 = umd_counters();

    wddm_swgpu_set_paused(1);
    for (UINT r = 0; r < REGIONS; r++) {
        ptrs[r] = discard_write(e, b.dyn, 200 + r);
        copy_to_region(e, &b, r, 0, N);
    }
    struct wddm_umd_rename_counters u1 = umd_counters();
    assert_int_equal(u1.instances_created - u0.instances_created, BOUND - 1);
    assert_int_equal(u1.waits, u0.waits);

    struct discarder d = {.e = e, .dyn = b.dyn};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, discard_thread, &d), 0);
    int started = wait_for_umd_wait(u1.waits); /* the discard is blocked on the fence */
    atomic_store(&d.resumed, 1);
    wddm_swgpu_set_paused(0);
    pthread_join(t, NULL);
    assert_true(started);
    assert_int_equal(d.hr, S_OK);
    assert_true(d.resumed_when_returned); /* it returned only after the GPU could run again */
    assert_ptr_equal(d.ptr, ptrs[0]);     /* the oldest instance, recycled */
    struct wddm_umd_rename_counters u2 = umd_counters();
    assert_int_equal(u2.instances_created, u1.instances_created); /* no growth past the bound */
    assert_int_equal(u2.waits, u1.waits + 1);

    read_dst(e, &b, dst);
    for (UINT r = 0; r < REGIONS; r++)
        assert_region(dst, r, 200 + r); /* nothing the GPU still had to read was overwritten */
    copy_to_region(e, &b, 0, 0, N);
    read_dst(e, &b, dst);
    assert_region(dst, 0, 9);
    free_bufs(&b);
}

/* NO_OVERWRITE: the same memory, no wait, no rename, while the GPU still reads another part. */
/* rule: umd.map-current-allocation-no-wait-no */
static void no_overwrite_returns_the_same_memory_without_waiting(void **state)
{
    struct e2e *e = *state;
    struct bufs b = make_bufs(e);
    uint8_t dst[N * REGIONS], a[N], c[N];
    e2e_fill(a, N, 31);
    e2e_fill(c, N, 32);

    wddm_swgpu_set_paused(1);
    void *p1 = discard_write(e, b.dyn, 31);
    copy_to_region(e, &b, 0, 0, N / 2);
    struct wddm_umd_rename_counters u0 = umd_counters();
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)b.dyn, 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, &m),
                     S_OK);
    assert_ptr_equal(m.pData, p1);
    memcpy((uint8_t *)m.pData + N / 2, c + N / 2, N / 2); /* only the half the GPU does not read */
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)b.dyn, 0);
    copy_to_region(e, &b, 0, N / 2, N);
    struct wddm_umd_rename_counters u1 = umd_counters();
    wddm_swgpu_set_paused(0);

    assert_int_equal(u1.renames, u0.renames);
    assert_int_equal(u1.waits, u0.waits);
    read_dst(e, &b, dst);
    assert_memory_equal(dst, a, N / 2);
    assert_memory_equal(dst + N / 2, c + N / 2, N / 2);
    free_bufs(&b);
}

struct reader {
    struct e2e *e;
    ID3D11Buffer *stg;
    atomic_int resumed;
    int resumed_when_returned;
    HRESULT hr;
    uint8_t copy[N];
};

static void *read_thread(void *arg)
{
    struct reader *r = arg;
    D3D11_MAPPED_SUBRESOURCE m;
    r->hr = ID3D11DeviceContext_Map(r->e->ctx, (ID3D11Resource *)r->stg, 0, D3D11_MAP_READ, 0, &m);
    r->resumed_when_returned = atomic_load(&r->resumed);
    if (SUCCEEDED(r->hr)) {
        memcpy(r->copy, m.pData, N);
        ID3D11DeviceContext_Unmap(r->e->ctx, (ID3D11Resource *)r->stg, 0);
    }
    return NULL;
}

/* Staging: DO_NOT_WAIT on a busy buffer is WAS_STILL_DRAWING (from the stamp); Map(READ) waits on
 * the monitored fence for the copy and sees its bytes; VidMm's lock never waited. */
/* rule: umd.map-staging-monitored-fence-cpu-wait (VidMm `lock_waits` unchanged) */
static void staging_map_waits_on_the_fence_and_donotwait_reports_still_drawing(void **state)
{
    struct e2e *e = *state;
    uint8_t data[N];
    e2e_fill(data, N, 77);
    D3D11_BUFFER_DESC bd = {.ByteWidth = N, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER};
    D3D11_SUBRESOURCE_DATA init = {.pSysMem = data};
    ID3D11Buffer *def = NULL, *stg = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, &init, &def), S_OK);
    bd = (D3D11_BUFFER_DESC){.ByteWidth = N, .Usage = D3D11_USAGE_STAGING, .CPUAccessFlags = D3D11_CPU_ACCESS_READ};
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &stg), S_OK);
    struct wddm_counters k0 = kernel_counters();
    struct wddm_umd_rename_counters u0 = umd_counters();

    wddm_swgpu_set_paused(1);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)def);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ,
                                             D3D11_MAP_FLAG_DO_NOT_WAIT, &m),
                     DXGI_ERROR_WAS_STILL_DRAWING);
    assert_int_equal(umd_counters().still_drawing, u0.still_drawing + 1);

    struct reader r = {.e = e, .stg = stg};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, read_thread, &r), 0);
    int started = wait_for_umd_wait(u0.waits);
    atomic_store(&r.resumed, 1);
    wddm_swgpu_set_paused(0);
    pthread_join(t, NULL);
    assert_true(started);
    assert_int_equal(r.hr, S_OK);
    assert_true(r.resumed_when_returned);
    assert_memory_equal(r.copy, data, N);
    struct wddm_counters k1 = kernel_counters();
    assert_int_equal(k1.lock_waits, k0.lock_waits);             /* the UMD waited, not VidMm */
    assert_int_equal(k1.lock_still_drawing, k0.lock_still_drawing);
    SAFE_RELEASE(def);
    SAFE_RELEASE(stg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(discard_of_busy_buffer_returns_fresh_memory_without_waiting, e2e_setup,
                                        e2e_teardown),
        cmocka_unit_test_setup_teardown(retired_instances_are_recycled_once_the_gpu_keeps_up, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(discard_at_the_bound_waits_for_the_oldest_instance, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(no_overwrite_returns_the_same_memory_without_waiting, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(staging_map_waits_on_the_fence_and_donotwait_reports_still_drawing, e2e_setup,
                                        e2e_teardown),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
