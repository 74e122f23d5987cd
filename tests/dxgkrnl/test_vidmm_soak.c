/* Nothing is lost (issue 3): a working set of 4x the local segment cycled through GPU copies,
 * evictions and restores, with the checksum of every allocation checked on every read back.
 * Local 1 MiB, CPU-visible 1 MiB, aperture 8 MiB; 64 GPU_ONLY allocations of 64 KiB (4 MiB).
 * The short CI run; `wddm soak` is the long one (tools/wddm/soak.c). */
/* rule: vidmm.counters-evictions-bytes-paged-bytes */
/* rule: sched.tickets-retire-out-order-once-priorities (10,000+ operations, tickets in order) */
#include "real_env.h"

#include <pthread.h>

#define KIB 1024u
#define SOAK_ALLOCS 64
#define SOAK_SIZE (64 * KIB)
#define SOAK_OPS 10000

static uint32_t rnd(uint32_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return *x;
}

/* rule: vidmm.nothing-lost-working-set-4x-local */
static void test_soak_oversubscribed_working_set_loses_nothing(void **state)
{
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, SOAK_SIZE);
    D3DKMT_HANDLE rb = renv_alloc(&e, SWGPU_ALLOC_READBACK, SOAK_SIZE);
    D3DKMT_HANDLE a[SOAK_ALLOCS];
    uint64_t sum[SOAK_ALLOCS];
    uint64_t zero_sum;
    {
        UINT8 *z = calloc(1, SOAK_SIZE);
        zero_sum = renv_checksum(z, SOAK_SIZE);
        free(z);
    }
    for (int i = 0; i < SOAK_ALLOCS; i++) {
        a[i] = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, SOAK_SIZE);
        sum[i] = zero_sum; /* a fresh placement is zero-filled */
    }
    struct wddm_counters c0 = renv_counters();
    uint32_t x = 12345;
    unsigned reads = 0, writes = 0, copies = 0;
    for (unsigned op = 0; op < SOAK_OPS; op++) {
        uint32_t r = rnd(&x) % 10;
        int i = (int)(rnd(&x) % SOAK_ALLOCS);
        if (r < 3) { /* CPU -> upload (Discard: renamed) -> GPU copy into a[i] */
            void *p;
            assert_int_equal(renv_lock(&e, up, LOCK_DISCARD | LOCK_WRITEONLY, &p), STATUS_SUCCESS);
            renv_pattern(p, SOAK_SIZE, op);
            sum[i] = renv_checksum(p, SOAK_SIZE);
            renv_unlock(&e, up);
            assert_int_equal(renv_copy(&e, a[i], up, SOAK_SIZE), STATUS_SUCCESS);
            writes++;
        } else if (r < 7) { /* GPU copy a[j] -> a[i] */
            int j = (int)(rnd(&x) % SOAK_ALLOCS);
            assert_int_equal(renv_copy(&e, a[i], a[j], SOAK_SIZE), STATUS_SUCCESS);
            sum[i] = sum[j];
            copies++;
        } else { /* read back and check */
            assert_int_equal(renv_copy(&e, rb, a[i], SOAK_SIZE), STATUS_SUCCESS);
            void *p;
            assert_int_equal(renv_lock(&e, rb, LOCK_READONLY, &p), STATUS_SUCCESS);
            uint64_t got = renv_checksum(p, SOAK_SIZE);
            renv_unlock(&e, rb);
            if (got != sum[i])
                fail_msg("op %u: allocation %d read back checksum %016llx, expected %016llx", op, i,
                         (unsigned long long)got, (unsigned long long)sum[i]);
            reads++;
        }
    }
    for (int i = 0; i < SOAK_ALLOCS; i++) { /* every allocation, one last time */
        assert_int_equal(renv_copy(&e, rb, a[i], SOAK_SIZE), STATUS_SUCCESS);
        void *p;
        assert_int_equal(renv_lock(&e, rb, LOCK_READONLY, &p), STATUS_SUCCESS);
        assert_true(renv_checksum(p, SOAK_SIZE) == sum[i]);
        renv_unlock(&e, rb);
    }
    struct wddm_counters c1 = renv_counters();
    /* The working set really cycled through the backing stores. */
    assert_true(c1.evictions - c0.evictions > SOAK_OPS / 4);
    assert_true(c1.bytes_paged_out - c0.bytes_paged_out > (UINT64)SOAK_OPS / 4 * SOAK_SIZE);
    assert_true(reads > 0 && writes > 0 && copies > 0);
    renv_close(&e);
}

/* Two devices on two threads share the oversubscribed segments: each evicts the other's
 * allocations. No cmocka assertion off the main thread: failures are counted and checked after
 * the join. Also the ThreadSanitizer test of eviction racing rendering, locks and the DPC. */
struct soaker {
    uint32_t seed;
    unsigned ops, reads, errors, failed;
};

static void *soak_thread(void *arg)
{
    struct soaker *w = arg;
    struct renv e;
    memset(&e, 0, sizeof e);
    D3DKMT_ADAPTERINFO info[4];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
    if (D3DKMTEnumAdapters2(&en) != STATUS_SUCCESS) {
        w->failed++;
        return NULL;
    }
    e.adapter = info[0].hAdapter;
    D3DKMT_CREATEDEVICE cd = { .hAdapter = e.adapter };
    if (D3DKMTCreateDevice(&cd) != STATUS_SUCCESS) {
        w->failed++;
        return NULL;
    }
    e.device = cd.hDevice;
    e.cc = (D3DKMT_CREATECONTEXT){ .hDevice = e.device, .NodeOrdinal = 0 };
    if (D3DKMTCreateContext(&e.cc) != STATUS_SUCCESS) {
        w->failed++;
        return NULL;
    }
    e.context = e.cc.hContext;
    enum { M = SOAK_ALLOCS / 2 };
    D3DKMT_HANDLE up = 0, rb = 0, a[M];
    uint64_t sum[M];
    w->failed += renv_try_alloc(&e, SWGPU_ALLOC_UPLOAD, SOAK_SIZE, &up) != STATUS_SUCCESS;
    w->failed += renv_try_alloc(&e, SWGPU_ALLOC_READBACK, SOAK_SIZE, &rb) != STATUS_SUCCESS;
    for (int i = 0; i < M; i++) {
        w->failed += renv_try_alloc(&e, SWGPU_ALLOC_GPU_ONLY, SOAK_SIZE, &a[i]) != STATUS_SUCCESS;
        sum[i] = 0;
    }
    uint32_t x = w->seed;
    for (unsigned op = 0; op < w->ops && !w->failed; op++) {
        uint32_t r = rnd(&x) % 10;
        int i = (int)(rnd(&x) % M);
        void *p;
        if (r < 3 || !sum[i]) {
            if (renv_lock(&e, up, LOCK_DISCARD | LOCK_WRITEONLY, &p) != STATUS_SUCCESS) {
                w->failed++;
                break;
            }
            renv_pattern(p, SOAK_SIZE, op ^ w->seed);
            sum[i] = renv_checksum(p, SOAK_SIZE);
            D3DKMT_UNLOCK u = { .hDevice = e.device, .NumAllocations = 1, .phAllocations = &up };
            D3DKMTUnlock(&u);
            w->failed += renv_copy(&e, a[i], up, SOAK_SIZE) != STATUS_SUCCESS;
        } else if (r < 6) {
            int j = (int)(rnd(&x) % M);
            if (!sum[j])
                continue;
            w->failed += renv_copy(&e, a[i], a[j], SOAK_SIZE) != STATUS_SUCCESS;
            sum[i] = sum[j];
        } else {
            if (renv_copy(&e, rb, a[i], SOAK_SIZE) != STATUS_SUCCESS ||
                renv_lock(&e, rb, LOCK_READONLY, &p) != STATUS_SUCCESS) {
                w->failed++;
                break;
            }
            w->errors += renv_checksum(p, SOAK_SIZE) != sum[i];
            w->reads++;
            D3DKMT_UNLOCK u = { .hDevice = e.device, .NumAllocations = 1, .phAllocations = &rb };
            D3DKMTUnlock(&u);
        }
    }
    D3DKMT_DESTROYDEVICE dd = { .hDevice = e.device };
    D3DKMTDestroyDevice(&dd);
    D3DKMT_CLOSEADAPTER ca = { .hAdapter = e.adapter };
    D3DKMTCloseAdapter(&ca);
    return NULL;
}

/* rule: vidmm.nothing-lost-working-set-4x-local (two threads, also the TSan test) */
static void test_soak_two_devices_evicting_each_other_lose_nothing(void **state)
{
    struct soaker w[2] = { { .seed = 111, .ops = 2500 }, { .seed = 222, .ops = 2500 } };
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, soak_thread, &w[i]), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(w[i].failed, 0);
        assert_int_equal(w[i].errors, 0);
        assert_true(w[i].reads > 0);
    }
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "1", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "1", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "8", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_soak_oversubscribed_working_set_loses_nothing),
        cmocka_unit_test(test_soak_two_devices_evicting_each_other_lose_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
