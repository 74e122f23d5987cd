/* Keyed mutexes (src/dxgkrnl/objects/keyed_mutex.c; docs/rules/kernel.md): D3DKMTCreateKeyedMutex(2),
 * D3DKMTOpenKeyedMutex(2), D3DKMTDestroyKeyedMutex, D3DKMTAcquireKeyedMutex(2),
 * D3DKMTReleaseKeyedMutex(2). The create / open / destroy answers are the ones Windows gave to
 * Wine's win32u d3dkmt tests, re-expressed here; acquire and release follow the WDK pages and
 * IDXGIKeyedMutex's documented semantics, with the choices of docs/rules/kernel.md.
 * No timed assertion: a timeout of 0 only looks, a "times out" check uses a few milliseconds and
 * asserts STATUS_TIMEOUT only, blocked acquirers are threads that are joined (the kernel's test
 * hook dxgk_keyed_mutex_await_waiters says when they block). */
/* rule: runtime.d3dkmt-createkeyedmutex-openkeyedmutex (written against those names) */
#include "real_env.h"

#include <pthread.h>
#include <time.h>

#include "dxgkrnl/objects/objects.h"

#define JUNK 0x1eadbeedu /* what the out fields hold before a call */

/* Windows' forms (dxgkrnl/global_handle.c): a global handle has bits 31..30 set and low six bits
 * 2; a local one of ours has neither form and is never 0. */
static bool is_global(D3DKMT_HANDLE h)
{
    return (h & 0xC0000000u) == 0xC0000000u && (h & 0x3fu) == 2u;
}

static bool is_local(D3DKMT_HANDLE h)
{
    return h && h != JUNK && (h & 0xC0000000u) != 0xC0000000u;
}

static void km_create(UINT64 initial, D3DKMT_HANDLE *local, D3DKMT_HANDLE *global)
{
    D3DKMT_CREATEKEYEDMUTEX c = { .InitialValue = initial, .hKeyedMutex = JUNK, .hSharedHandle = JUNK };
    assert_int_equal(D3DKMTCreateKeyedMutex(&c), STATUS_SUCCESS);
    assert_true(is_local(c.hKeyedMutex));
    assert_true(is_global(c.hSharedHandle));
    *local = c.hKeyedMutex;
    if (global)
        *global = c.hSharedHandle;
}

static D3DKMT_HANDLE km_open(D3DKMT_HANDLE global)
{
    D3DKMT_OPENKEYEDMUTEX o = { .hSharedHandle = global, .hKeyedMutex = JUNK };
    assert_int_equal(D3DKMTOpenKeyedMutex(&o), STATUS_SUCCESS);
    assert_true(is_local(o.hKeyedMutex));
    return o.hKeyedMutex;
}

static NTSTATUS km_destroy(D3DKMT_HANDLE h)
{
    D3DKMT_DESTROYKEYEDMUTEX d = { .hKeyedMutex = h };
    return D3DKMTDestroyKeyedMutex(&d);
}

/* timeout_ticks: Windows' 100-ns units (negative: relative); NO_WAIT only looks, FOREVER waits. */
#define NO_WAIT 0
#define FOREVER INT64_MIN
#define MS(n) (-(LONGLONG)(n) * 10000)

static NTSTATUS km_acquire(D3DKMT_HANDLE h, UINT64 key, LONGLONG timeout_ticks, UINT64 *fence)
{
    LARGE_INTEGER t = { .QuadPart = timeout_ticks };
    D3DKMT_ACQUIREKEYEDMUTEX a = { .hKeyedMutex = h, .Key = key, .pTimeout = timeout_ticks == FOREVER ? NULL : &t,
                                   .FenceValue = 0xdeadull };
    NTSTATUS st = D3DKMTAcquireKeyedMutex(&a);
    if (fence)
        *fence = a.FenceValue;
    return st;
}

static NTSTATUS km_release(D3DKMT_HANDLE h, UINT64 key, UINT64 fence)
{
    D3DKMT_RELEASEKEYEDMUTEX r = { .hKeyedMutex = h, .Key = key, .FenceValue = fence };
    return D3DKMTReleaseKeyedMutex(&r);
}

static NTSTATUS km_acquire2(D3DKMT_HANDLE h, UINT64 key, void *data, UINT size)
{
    LARGE_INTEGER t = { .QuadPart = 0 };
    D3DKMT_ACQUIREKEYEDMUTEX2 a = { .hKeyedMutex = h, .Key = key, .pTimeout = &t, .pPrivateRuntimeData = data,
                                    .PrivateRuntimeDataSize = size };
    return D3DKMTAcquireKeyedMutex2(&a);
}

static NTSTATUS km_release2(D3DKMT_HANDLE h, UINT64 key, const void *data, UINT size)
{
    D3DKMT_RELEASEKEYEDMUTEX2 r = { .hKeyedMutex = h, .Key = key, .pPrivateRuntimeData = (void *)data,
                                    .PrivateRuntimeDataSize = size };
    return D3DKMTReleaseKeyedMutex2(&r);
}

/* Live keyed-mutex handles of the process (the kernel's handle table). */
static size_t live_handles(void)
{
    struct dxgk_object **objs;
    D3DKMT_HANDLE *hs;
    size_t n = dxgk_handle_collect(DXGK_TYPE_KEYED_MUTEX, &objs, &hs);
    for (size_t i = 0; i < n; i++)
        dxgk_object_put(objs[i]);
    free(objs);
    free(hs);
    return n;
}

/* ---- create, open, destroy: Windows' answers ------------------------------------------------- */

/* rule: kernel.d3dkmtcreatekeyedmutex-2-null-status */
/* rule: kernel.d3dkmtopenkeyedmutex-2-null */
static void create_open_destroy_answer_as_windows(void **state)
{
    (void)state;
    size_t live = live_handles();
    assert_int_equal(D3DKMTCreateKeyedMutex(NULL), STATUS_INVALID_PARAMETER);
    D3DKMT_HANDLE a, g;
    km_create(0, &a, &g); /* no device: a local handle and a global one */
    /* Open needs the global handle: 0, the local handle, or 0 with hKeyedMutex set, are refused. */
    D3DKMT_OPENKEYEDMUTEX o = { 0 };
    assert_int_equal(D3DKMTOpenKeyedMutex(&o), STATUS_INVALID_PARAMETER);
    o.hKeyedMutex = a;
    assert_int_equal(D3DKMTOpenKeyedMutex(&o), STATUS_INVALID_PARAMETER);
    o.hSharedHandle = a;
    assert_int_equal(D3DKMTOpenKeyedMutex(&o), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTOpenKeyedMutex(NULL), STATUS_INVALID_PARAMETER);
    D3DKMT_HANDLE b = km_open(g); /* a new local handle */
    assert_int_not_equal(b, a);
    assert_int_equal(live_handles(), live + 2);
    /* Destroy: 0, NULL, the global handle are refused; twice is refused the second time. */
    assert_int_equal(km_destroy(0), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTDestroyKeyedMutex(NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(km_destroy(g), STATUS_INVALID_PARAMETER);
    assert_int_equal(km_destroy(b), STATUS_SUCCESS);
    assert_int_equal(km_destroy(b), STATUS_INVALID_PARAMETER);
    /* The global handle opens while a handle lives, and names nothing after the last one. */
    D3DKMT_HANDLE c = km_open(g);
    assert_int_equal(km_destroy(a), STATUS_SUCCESS);
    D3DKMT_HANDLE d = km_open(g);
    assert_int_equal(km_destroy(c), STATUS_SUCCESS);
    assert_int_equal(km_destroy(d), STATUS_SUCCESS);
    o = (D3DKMT_OPENKEYEDMUTEX){ .hSharedHandle = g, .hKeyedMutex = JUNK };
    assert_int_equal(D3DKMTOpenKeyedMutex(&o), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("hSharedHandle");
    assert_int_equal(o.hKeyedMutex, JUNK); /* nothing written */
    assert_int_equal(live_handles(), live);
}

/* rule: kernel.d3dkmtcreatekeyedmutex-2-null-status */
/* rule: kernel.d3dkmtopenkeyedmutex-2-null */
static void create2_open2_answer_as_windows(void **state)
{
    (void)state;
    assert_int_equal(D3DKMTCreateKeyedMutex2(NULL), STATUS_INVALID_PARAMETER);
    D3DKMT_CREATEKEYEDMUTEX2 c = { .hKeyedMutex = JUNK, .hSharedHandle = JUNK };
    assert_int_equal(D3DKMTCreateKeyedMutex2(&c), STATUS_SUCCESS);
    assert_true(is_local(c.hKeyedMutex));
    assert_true(is_global(c.hSharedHandle));
    D3DKMT_HANDLE first = c.hKeyedMutex;
    c.hKeyedMutex = c.hSharedHandle = JUNK;
    assert_int_equal(D3DKMTCreateKeyedMutex2(&c), STATUS_SUCCESS);
    assert_true(is_local(c.hKeyedMutex));
    assert_true(is_global(c.hSharedHandle));
    D3DKMT_OPENKEYEDMUTEX2 o = { 0 };
    assert_int_equal(D3DKMTOpenKeyedMutex2(NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTOpenKeyedMutex2(&o), STATUS_INVALID_PARAMETER);
    o.hKeyedMutex = c.hKeyedMutex;
    assert_int_equal(D3DKMTOpenKeyedMutex2(&o), STATUS_INVALID_PARAMETER);
    o.hKeyedMutex = JUNK;
    o.hSharedHandle = c.hSharedHandle;
    assert_int_equal(D3DKMTOpenKeyedMutex2(&o), STATUS_SUCCESS);
    assert_true(is_local(o.hKeyedMutex));
    assert_int_equal(km_destroy(first), STATUS_SUCCESS);
    assert_int_equal(km_destroy(c.hKeyedMutex), STATUS_SUCCESS);
    assert_int_equal(km_destroy(o.hKeyedMutex), STATUS_SUCCESS);
}

/* rule: kernel.d3dkmtopenkeyedmutex2-runtime-data */
static void open2_runtime_data_rules_answer_as_windows(void **state)
{
    (void)state;
    char runtime[6] = { 1, 2, 3, 4, 5, 6 }, buffer[64];
    /* A mutex without runtime data: a size needs a buffer; any buffer then opens, its size kept. */
    D3DKMT_CREATEKEYEDMUTEX2 c = { 0 };
    assert_int_equal(D3DKMTCreateKeyedMutex2(&c), STATUS_SUCCESS);
    D3DKMT_OPENKEYEDMUTEX2 o = { .hSharedHandle = c.hSharedHandle, .hKeyedMutex = JUNK,
                                 .PrivateRuntimeDataSize = sizeof buffer };
    assert_int_equal(D3DKMTOpenKeyedMutex2(&o), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("NULL pPrivateRuntimeData");
    o.pPrivateRuntimeData = buffer;
    assert_int_equal(D3DKMTOpenKeyedMutex2(&o), STATUS_SUCCESS);
    assert_true(is_local(o.hKeyedMutex));
    assert_int_equal(o.PrivateRuntimeDataSize, sizeof buffer);
    assert_int_equal(km_destroy(o.hKeyedMutex), STATUS_SUCCESS);
    assert_int_equal(km_destroy(c.hKeyedMutex), STATUS_SUCCESS);
    /* With the creator's 6 bytes: no buffer opens (size 0 answered); a size without a buffer, or
     * a buffer one byte short, is refused; 6 bytes open and the buffer is not written. */
    c = (D3DKMT_CREATEKEYEDMUTEX2){ .pPrivateRuntimeData = runtime, .PrivateRuntimeDataSize = sizeof runtime };
    assert_int_equal(D3DKMTCreateKeyedMutex2(&c), STATUS_SUCCESS);
    assert_true(is_local(c.hKeyedMutex));
    assert_true(is_global(c.hSharedHandle));
    o = (D3DKMT_OPENKEYEDMUTEX2){ .hSharedHandle = c.hSharedHandle, .hKeyedMutex = JUNK };
    assert_int_equal(D3DKMTOpenKeyedMutex2(&o), STATUS_SUCCESS);
    assert_int_equal(o.PrivateRuntimeDataSize, 0);
    D3DKMT_HANDLE plain = o.hKeyedMutex;
    o.PrivateRuntimeDataSize = sizeof buffer;
    assert_int_equal(D3DKMTOpenKeyedMutex2(&o), STATUS_INVALID_PARAMETER);
    o.PrivateRuntimeDataSize = sizeof runtime - 1;
    o.pPrivateRuntimeData = buffer;
    assert_int_equal(D3DKMTOpenKeyedMutex2(&o), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("smaller");
    o.PrivateRuntimeDataSize = sizeof runtime;
    memset(buffer, 0xcd, sizeof buffer);
    assert_int_equal(D3DKMTOpenKeyedMutex2(&o), STATUS_SUCCESS);
    assert_true(is_local(o.hKeyedMutex));
    assert_int_equal(o.PrivateRuntimeDataSize, sizeof runtime);
    for (size_t i = 0; i < sizeof buffer; i++)
        assert_int_equal((unsigned char)buffer[i], 0xcd);
    assert_int_equal(km_destroy(o.hKeyedMutex), STATUS_SUCCESS);
    assert_int_equal(km_destroy(plain), STATUS_SUCCESS);
    assert_int_equal(km_destroy(c.hKeyedMutex), STATUS_SUCCESS);
}

/* rule: kernel.d3dkmtcreatekeyedmutex-2-null-status */
/* rule: kernel.keyed-mutex-where-wdk-silent (a failed create writes no output) */
static void create2_flags_and_data_arguments(void **state)
{
    (void)state;
    /* NtSecuritySharing: a local handle, no global one (0 out). */
    D3DKMT_CREATEKEYEDMUTEX2 c = { .hKeyedMutex = JUNK, .hSharedHandle = JUNK };
    c.Flags.NtSecuritySharing = 1;
    assert_int_equal(D3DKMTCreateKeyedMutex2(&c), STATUS_SUCCESS);
    assert_true(is_local(c.hKeyedMutex));
    assert_int_equal(c.hSharedHandle, 0);
    assert_int_equal(km_acquire(c.hKeyedMutex, 0, NO_WAIT, NULL), STATUS_SUCCESS); /* it works */
    assert_int_equal(km_release(c.hKeyedMutex, 0, 0), STATUS_SUCCESS);
    assert_int_equal(km_destroy(c.hKeyedMutex), STATUS_SUCCESS);
    /* Reserved flag bits, or a data size without data: refused, nothing written. */
    c = (D3DKMT_CREATEKEYEDMUTEX2){ .hKeyedMutex = JUNK, .hSharedHandle = JUNK };
    c.Flags.Value = 0x2;
    assert_int_equal(D3DKMTCreateKeyedMutex2(&c), STATUS_INVALID_PARAMETER);
    c.Flags.Value = 0;
    c.PrivateRuntimeDataSize = 4;
    assert_int_equal(D3DKMTCreateKeyedMutex2(&c), STATUS_INVALID_PARAMETER);
    assert_int_equal(c.hKeyedMutex, JUNK);
    assert_int_equal(c.hSharedHandle, JUNK);
}

/* ---- acquire and release --------------------------------------------------------------------- */

/* rule: kernel.keyed-mutex-created-released-key (mutation-checked: any key acquiring fails it) */
static void the_key_hands_the_mutex_on_with_the_fence_value(void **state)
{
    (void)state;
    D3DKMT_HANDLE a, g;
    km_create(0, &a, &g);
    D3DKMT_HANDLE b = km_open(g);
    UINT64 fence = 1;
    assert_int_equal(km_acquire(a, 1, NO_WAIT, NULL), STATUS_TIMEOUT); /* created with key 0 */
    assert_int_equal(km_acquire(a, 0, NO_WAIT, &fence), STATUS_SUCCESS);
    assert_int_equal(fence, 0); /* no release yet */
    assert_int_equal(km_acquire(b, 0, NO_WAIT, NULL), STATUS_TIMEOUT); /* owned by a */
    assert_int_equal(km_release(a, 1, 42), STATUS_SUCCESS);
    assert_int_equal(km_acquire(b, 0, NO_WAIT, NULL), STATUS_TIMEOUT); /* released with key 1 */
    assert_int_equal(km_acquire(b, 1, NO_WAIT, &fence), STATUS_SUCCESS);
    assert_int_equal(fence, 42);
    assert_int_equal(km_release(b, 0, 0x100000043ull), STATUS_SUCCESS);
    assert_int_equal(km_acquire(a, 0, FOREVER, &fence), STATUS_SUCCESS); /* already released: no wait */
    assert_true(fence == 0x100000043ull);
    assert_int_equal(km_release(a, 7, 0), STATUS_SUCCESS);
    assert_int_equal(km_destroy(a), STATUS_SUCCESS);
    assert_int_equal(km_destroy(b), STATUS_SUCCESS);
    /* InitialValue is the first key. */
    km_create(5, &a, NULL);
    assert_int_equal(km_acquire(a, 0, NO_WAIT, NULL), STATUS_TIMEOUT);
    assert_int_equal(km_acquire(a, 5, NO_WAIT, NULL), STATUS_SUCCESS);
    assert_int_equal(km_destroy(a), STATUS_SUCCESS);
}

/* rule: kernel.ptimeout-null-waits-without-limit-0 (relative, absolute past and future, 0, NULL on a free key) */
static void a_timeout_answers_status_timeout(void **state)
{
    (void)state;
    D3DKMT_HANDLE a, g;
    km_create(0, &a, &g);
    D3DKMT_HANDLE b = km_open(g);
    assert_int_equal(km_acquire(a, 0, NO_WAIT, NULL), STATUS_SUCCESS);
    assert_int_equal(km_acquire(b, 0, MS(5), NULL), STATUS_TIMEOUT); /* relative, owned */
    assert_int_equal(km_acquire(b, 3, MS(1), NULL), STATUS_TIMEOUT);
    /* Absolute system time (100-ns units since 1601): in the past, and a few ms ahead. */
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    LONGLONG nt_now = 116444736000000000LL + (LONGLONG)now.tv_sec * 10000000LL + now.tv_nsec / 100;
    assert_int_equal(km_acquire(b, 0, nt_now - 10000000LL, NULL), STATUS_TIMEOUT);
    assert_int_equal(km_acquire(b, 0, nt_now + 50000, NULL), STATUS_TIMEOUT);
    assert_int_equal(km_release(a, 3, 0), STATUS_SUCCESS);
    assert_int_equal(km_acquire(b, 3, MS(5), NULL), STATUS_SUCCESS); /* free: no wait */
    assert_int_equal(km_release(b, 0, 0), STATUS_SUCCESS);
    assert_int_equal(km_destroy(b), STATUS_SUCCESS);
    assert_int_equal(km_destroy(a), STATUS_SUCCESS);
}

struct acquirer {
    D3DKMT_HANDLE h;
    UINT64 key;
    UINT64 fence;
    _Atomic NTSTATUS st;
};

#define PENDING ((NTSTATUS)0x7fffffff)

static void *acquirer_main(void *arg)
{
    struct acquirer *q = arg;
    UINT64 fence = 0;
    NTSTATUS st = km_acquire(q->h, q->key, FOREVER, &fence);
    q->fence = fence;
    atomic_store(&q->st, st);
    return NULL;
}

static void start_acquirer(pthread_t *t, struct acquirer *q, D3DKMT_HANDLE h, UINT64 key)
{
    q->h = h;
    q->key = key;
    q->fence = 0;
    atomic_init(&q->st, PENDING);
    assert_int_equal(pthread_create(t, NULL, acquirer_main, q), 0);
}

/* rule: kernel.waiting-blocks-mutex-condition-variable */
static void a_release_wakes_the_acquirer_of_its_key_only(void **state)
{
    (void)state;
    D3DKMT_HANDLE a, g;
    km_create(0, &a, &g);
    D3DKMT_HANDLE b = km_open(g), c = km_open(g);
    assert_int_equal(km_acquire(a, 0, NO_WAIT, NULL), STATUS_SUCCESS);
    pthread_t t1, t2;
    struct acquirer q1, q2;
    start_acquirer(&t1, &q1, b, 1);
    start_acquirer(&t2, &q2, c, 2);
    assert_true(dxgk_keyed_mutex_await_waiters(a, 2)); /* both blocked */
    assert_int_equal(km_release(a, 1, 7), STATUS_SUCCESS);
    assert_int_equal(pthread_join(t1, NULL), 0);
    assert_int_equal(atomic_load(&q1.st), STATUS_SUCCESS);
    assert_int_equal(q1.fence, 7);
    /* Key 2's acquirer still waits: b owns the mutex now. */
    assert_true(dxgk_keyed_mutex_await_waiters(a, 1));
    assert_int_equal(atomic_load(&q2.st), PENDING);
    assert_int_equal(km_acquire(a, 1, NO_WAIT, NULL), STATUS_TIMEOUT);
    assert_int_equal(km_release(b, 2, 8), STATUS_SUCCESS);
    assert_int_equal(pthread_join(t2, NULL), 0);
    assert_int_equal(atomic_load(&q2.st), STATUS_SUCCESS);
    assert_int_equal(q2.fence, 8);
    assert_int_equal(km_release(c, 0, 9), STATUS_SUCCESS);
    assert_int_equal(km_destroy(a), STATUS_SUCCESS);
    assert_int_equal(km_destroy(b), STATUS_SUCCESS);
    assert_int_equal(km_destroy(c), STATUS_SUCCESS);
}

/* rule: kernel.only-owning-handle-releases-release (mutation-checked: a release by anyone fails it) */
/* rule: kernel.keyed-mutex-where-wdk-silent (the owner acquiring again, another handle releasing) */
static void only_the_owner_releases_and_no_recursive_acquire(void **state)
{
    (void)state;
    D3DKMT_HANDLE a, g;
    km_create(0, &a, &g);
    D3DKMT_HANDLE b = km_open(g);
    assert_int_equal(km_release(a, 1, 0), STATUS_INVALID_PARAMETER); /* released: nobody owns it */
    assert_int_equal(km_acquire(a, 0, NO_WAIT, NULL), STATUS_SUCCESS);
    assert_int_equal(km_acquire(a, 0, NO_WAIT, NULL), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("already owns");
    assert_int_equal(km_release(b, 1, 5), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("does not own");
    /* Nothing changed: a still owns it with key 0 pending, b cannot take key 1. */
    assert_int_equal(km_acquire(b, 1, NO_WAIT, NULL), STATUS_TIMEOUT);
    UINT64 fence = 0;
    assert_int_equal(km_release(a, 1, 6), STATUS_SUCCESS);
    assert_int_equal(km_release(a, 1, 6), STATUS_INVALID_PARAMETER); /* not twice */
    assert_int_equal(km_acquire(b, 1, NO_WAIT, &fence), STATUS_SUCCESS);
    assert_int_equal(fence, 6);
    assert_int_equal(km_release(b, 0, 0), STATUS_SUCCESS);
    assert_int_equal(km_destroy(a), STATUS_SUCCESS);
    assert_int_equal(km_destroy(b), STATUS_SUCCESS);
}

/* rule: kernel.owner-handle-destroyed-while-owns-mutex (mutation-checked: not abandoning fails it) */
/* rule: kernel.keyed-mutex-where-wdk-silent (abandonment is for good) */
static void destroying_the_owners_handle_abandons_the_mutex(void **state)
{
    (void)state;
    D3DKMT_HANDLE a, g;
    km_create(0, &a, &g);
    D3DKMT_HANDLE b = km_open(g), c = km_open(g);
    assert_int_equal(km_acquire(a, 0, NO_WAIT, NULL), STATUS_SUCCESS);
    pthread_t t;
    struct acquirer q;
    start_acquirer(&t, &q, b, 1);
    assert_true(dxgk_keyed_mutex_await_waiters(b, 1));
    assert_int_equal(km_destroy(a), STATUS_SUCCESS); /* owned: abandoned */
    /* Every later acquire, of any key, answers the same (the blocked one too); nobody owns it to
     * release it. */
    assert_int_equal(km_acquire(c, 0, NO_WAIT, NULL), STATUS_ABANDONED);
    renv_expect_refusal("abandoned");
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(atomic_load(&q.st), STATUS_ABANDONED);
    assert_int_equal(km_acquire(b, 0, NO_WAIT, NULL), STATUS_ABANDONED);
    assert_int_equal(km_acquire(c, 1, FOREVER, NULL), STATUS_ABANDONED);
    assert_int_equal(km_release(b, 1, 0), STATUS_INVALID_PARAMETER);
    D3DKMT_HANDLE d = km_open(g); /* handles remain: it still opens */
    assert_int_equal(km_acquire(d, 0, NO_WAIT, NULL), STATUS_ABANDONED);
    assert_int_equal(km_destroy(b), STATUS_SUCCESS);
    assert_int_equal(km_destroy(c), STATUS_SUCCESS);
    assert_int_equal(km_destroy(d), STATUS_SUCCESS);
    /* Destroying a handle that does not own the mutex abandons nothing. */
    km_create(0, &a, &g);
    b = km_open(g);
    assert_int_equal(km_acquire(a, 0, NO_WAIT, NULL), STATUS_SUCCESS);
    assert_int_equal(km_destroy(b), STATUS_SUCCESS);
    assert_int_equal(km_release(a, 0, 0), STATUS_SUCCESS);
    assert_int_equal(km_acquire(a, 0, NO_WAIT, NULL), STATUS_SUCCESS);
    assert_int_equal(km_destroy(a), STATUS_SUCCESS);
}

/* rule: kernel.waiting-blocks-mutex-condition-variable (blocked threads seen through `dxgk_keyed_mutex_await_waiters`, joined) */
static void destroying_a_waiting_handle_releases_its_acquirer_with_an_error(void **state)
{
    (void)state;
    D3DKMT_HANDLE a, g;
    km_create(0, &a, &g);
    D3DKMT_HANDLE b = km_open(g);
    assert_int_equal(km_acquire(a, 0, NO_WAIT, NULL), STATUS_SUCCESS);
    pthread_t t;
    struct acquirer q;
    start_acquirer(&t, &q, b, 1);
    assert_true(dxgk_keyed_mutex_await_waiters(a, 1));
    assert_int_equal(km_destroy(b), STATUS_SUCCESS);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(atomic_load(&q.st), STATUS_INVALID_PARAMETER); /* never hangs */
    assert_int_equal(km_release(a, 0, 0), STATUS_SUCCESS); /* a still owned it: not abandoned */
    assert_int_equal(km_acquire(a, 0, NO_WAIT, NULL), STATUS_SUCCESS);
    assert_int_equal(km_destroy(a), STATUS_SUCCESS);
}

/* rule: kernel.d3dkmtopenkeyedmutex2-runtime-data (Open2's data read back by Acquire2) */
/* rule: kernel.d3dkmtacquirekeyedmutex2-copies-mutex */
/* rule: kernel.keyed-mutex-where-wdk-silent (the runtime data size fixed by the first data; Release2 with size 0) */
static void acquire2_and_release2_carry_the_runtime_data(void **state)
{
    (void)state;
    char buf[8];
    D3DKMT_CREATEKEYEDMUTEX2 c = { .pPrivateRuntimeData = "abcd", .PrivateRuntimeDataSize = 4 };
    assert_int_equal(D3DKMTCreateKeyedMutex2(&c), STATUS_SUCCESS);
    D3DKMT_HANDLE a = c.hKeyedMutex, b = km_open(c.hSharedHandle);
    /* Sizes: a size without a buffer, or a buffer short of the mutex's data, is refused and the
     * key stays free. */
    assert_int_equal(km_acquire2(a, 0, NULL, 4), STATUS_INVALID_PARAMETER);
    assert_int_equal(km_acquire2(a, 0, buf, 3), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("smaller");
    memset(buf, '.', sizeof buf);
    assert_int_equal(km_acquire2(a, 0, buf, 4), STATUS_SUCCESS);
    assert_memory_equal(buf, "abcd", 4);
    /* Release2 stores its data (refused short or without a buffer: still owned). */
    assert_int_equal(km_release2(a, 1, "wxy", 3), STATUS_INVALID_PARAMETER);
    assert_int_equal(km_release2(a, 1, NULL, 4), STATUS_INVALID_PARAMETER);
    assert_int_equal(km_release2(a, 1, "wxyz", 4), STATUS_SUCCESS);
    memset(buf, '.', sizeof buf);
    assert_int_equal(km_acquire2(b, 1, buf, sizeof buf), STATUS_SUCCESS); /* a larger buffer */
    assert_memory_equal(buf, "wxyz....", 8);
    assert_int_equal(km_release2(b, 2, NULL, 0), STATUS_SUCCESS); /* no data: unchanged */
    memset(buf, '.', sizeof buf);
    assert_int_equal(km_acquire2(a, 2, buf, 4), STATUS_SUCCESS);
    assert_memory_equal(buf, "wxyz", 4);
    assert_int_equal(km_release(a, 3, 0), STATUS_SUCCESS);
    memset(buf, '.', sizeof buf);
    assert_int_equal(km_acquire2(b, 3, NULL, 0), STATUS_SUCCESS); /* no buffer: nothing copied */
    assert_int_equal(km_release(b, 0, 0), STATUS_SUCCESS);
    assert_int_equal(km_destroy(a), STATUS_SUCCESS);
    assert_int_equal(km_destroy(b), STATUS_SUCCESS);
    /* A mutex created without data takes the first data given: Release2's, or Open2's. */
    km_create(0, &a, NULL);
    assert_int_equal(km_acquire2(a, 0, buf, sizeof buf), STATUS_SUCCESS);
    assert_int_equal(km_release2(a, 1, "123456", 6), STATUS_SUCCESS);
    assert_int_equal(km_acquire2(a, 1, buf, 5), STATUS_INVALID_PARAMETER);
    memset(buf, '.', sizeof buf);
    assert_int_equal(km_acquire2(a, 1, buf, 6), STATUS_SUCCESS);
    assert_memory_equal(buf, "123456", 6);
    assert_int_equal(km_destroy(a), STATUS_SUCCESS);
    D3DKMT_HANDLE g;
    km_create(0, &a, &g);
    D3DKMT_OPENKEYEDMUTEX2 o = { .hSharedHandle = g, .pPrivateRuntimeData = "xyz", .PrivateRuntimeDataSize = 3 };
    assert_int_equal(D3DKMTOpenKeyedMutex2(&o), STATUS_SUCCESS);
    memset(buf, '.', sizeof buf);
    assert_int_equal(km_acquire2(a, 0, buf, 3), STATUS_SUCCESS);
    assert_memory_equal(buf, "xyz", 3);
    assert_int_equal(km_destroy(o.hKeyedMutex), STATUS_SUCCESS);
    assert_int_equal(km_destroy(a), STATUS_SUCCESS);
}

/* ---- bad handles, allocation failure, teardown ----------------------------------------------- */

/* rule: kernel.keyed-mutex-handles-typed-generation */
static void forged_stale_and_wrong_handles_are_refused(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 cs = { .hDevice = e.device };
    cs.Info.Type = D3DDDI_MONITORED_FENCE;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&cs), STATUS_SUCCESS);
    D3DKMT_HANDLE a, g, dead, dead_g;
    km_create(0, &a, &g);
    km_create(0, &dead, &dead_g);
    assert_int_equal(km_destroy(dead), STATUS_SUCCESS);
    const D3DKMT_HANDLE bad[] = { 0, 0x9abcdef0u, a ^ 0x00100000u, dead, g, cs.hSyncObject, e.device, 0xffffffffu };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(km_acquire(bad[i], 0, NO_WAIT, NULL), STATUS_INVALID_PARAMETER);
        assert_int_equal(km_acquire2(bad[i], 0, NULL, 0), STATUS_INVALID_PARAMETER);
        assert_int_equal(km_release(bad[i], 0, 0), STATUS_INVALID_PARAMETER);
        assert_int_equal(km_release2(bad[i], 0, NULL, 0), STATUS_INVALID_PARAMETER);
        assert_int_equal(km_destroy(bad[i]), STATUS_INVALID_PARAMETER);
        if (bad[i] != g) {
            D3DKMT_OPENKEYEDMUTEX o = { .hSharedHandle = bad[i] };
            assert_int_equal(D3DKMTOpenKeyedMutex(&o), STATUS_INVALID_PARAMETER);
        }
    }
    D3DKMT_OPENKEYEDMUTEX2 o2 = { .hSharedHandle = dead_g }; /* its last handle went */
    assert_int_equal(D3DKMTOpenKeyedMutex2(&o2), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTAcquireKeyedMutex(NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTAcquireKeyedMutex2(NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTReleaseKeyedMutex(NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTReleaseKeyedMutex2(NULL), STATUS_INVALID_PARAMETER);
    /* The other way: a keyed mutex handle is no synchronization object. */
    D3DKMT_DESTROYSYNCHRONIZATIONOBJECT ds = { .hSyncObject = a };
    assert_int_equal(D3DKMTDestroySynchronizationObject(&ds), STATUS_INVALID_PARAMETER);
    /* Nothing was damaged: the mutex and the fence still work. */
    assert_int_equal(km_acquire(a, 0, NO_WAIT, NULL), STATUS_SUCCESS);
    assert_int_equal(km_release(a, 0, 0), STATUS_SUCCESS);
    assert_int_equal(km_destroy(km_open(g)), STATUS_SUCCESS);
    assert_int_equal(km_destroy(a), STATUS_SUCCESS);
    ds.hSyncObject = cs.hSyncObject;
    assert_int_equal(D3DKMTDestroySynchronizationObject(&ds), STATUS_SUCCESS);
    renv_close(&e);
}

/* Runs op with its nth allocation failing, for n = 0, 1, ... until op allocates no more: a
 * failed op answers STATUS_NO_MEMORY and leaves no handle; undo cleans up (and checks) after
 * each round. */
static void at_every_allocation_failure(NTSTATUS (*op)(void *), void (*undo)(void *), void *ctx)
{
    for (long long n = 0;; n++) {
        size_t live = live_handles();
        wddm_test_fail_alloc_after(n);
        NTSTATUS st = op(ctx);
        unsigned long long injected = wddm_test_alloc_failures_injected();
        wddm_test_fail_alloc_after(-1);
        if (injected) {
            if (st != STATUS_NO_MEMORY)
                fail_msg("N=%lld: 0x%08x instead of STATUS_NO_MEMORY", n, (unsigned)st);
            if (live_handles() != live)
                fail_msg("N=%lld: a handle was left behind", n);
        } else {
            assert_int_equal(st, STATUS_SUCCESS);
        }
        undo(ctx);
        if (!injected)
            break;
        assert_true(n < 100);
    }
}

struct alloc_ctx {
    D3DKMT_CREATEKEYEDMUTEX2 c;
    D3DKMT_OPENKEYEDMUTEX2 o;
    D3DKMT_HANDLE owner;
    NTSTATUS st;
    bool made;
};

static NTSTATUS op_create2(void *p)
{
    struct alloc_ctx *x = p;
    x->c = (D3DKMT_CREATEKEYEDMUTEX2){ .pPrivateRuntimeData = "data", .PrivateRuntimeDataSize = 4,
                                       .hKeyedMutex = JUNK, .hSharedHandle = JUNK };
    x->st = D3DKMTCreateKeyedMutex2(&x->c);
    return x->st;
}

static void undo_create2(void *p)
{
    struct alloc_ctx *x = p;
    if (x->st == STATUS_SUCCESS) {
        assert_int_equal(km_destroy(x->c.hKeyedMutex), STATUS_SUCCESS);
        D3DKMT_OPENKEYEDMUTEX o = { .hSharedHandle = x->c.hSharedHandle };
        assert_int_equal(D3DKMTOpenKeyedMutex(&o), STATUS_INVALID_PARAMETER); /* gone with it */
    } else {
        assert_int_equal(x->c.hKeyedMutex, JUNK);
        assert_int_equal(x->c.hSharedHandle, JUNK);
    }
}

static NTSTATUS op_open2(void *p)
{
    struct alloc_ctx *x = p;
    x->o.hKeyedMutex = JUNK;
    x->st = D3DKMTOpenKeyedMutex2(&x->o); /* gives the mutex (which has none) its data */
    return x->st;
}

static void undo_open2(void *p)
{
    struct alloc_ctx *x = p;
    if (x->st == STATUS_SUCCESS)
        assert_int_equal(km_destroy(x->o.hKeyedMutex), STATUS_SUCCESS);
    else
        assert_int_equal(x->o.hKeyedMutex, JUNK);
}

static NTSTATUS op_release2(void *p)
{
    struct alloc_ctx *x = p;
    x->st = km_release2(x->owner, 1, "data", 4); /* the first data of a mutex without any */
    return x->st;
}

static void undo_release2(void *p)
{
    struct alloc_ctx *x = p;
    char buf[4];
    if (x->st == STATUS_SUCCESS) {
        assert_int_equal(km_acquire2(x->owner, 1, buf, 4), STATUS_SUCCESS);
        assert_memory_equal(buf, "data", 4);
        assert_int_equal(km_destroy(x->owner), STATUS_SUCCESS);
    } else {
        /* Still owned, unchanged: the same handle releases now. */
        assert_int_equal(km_acquire(x->owner, 0, NO_WAIT, NULL), STATUS_INVALID_PARAMETER);
        assert_int_equal(km_release(x->owner, 0, 0), STATUS_SUCCESS);
        assert_int_equal(km_destroy(x->owner), STATUS_SUCCESS);
    }
    km_create(0, &x->owner, NULL); /* the next round's owner */
    assert_int_equal(km_acquire(x->owner, 0, NO_WAIT, NULL), STATUS_SUCCESS);
}

/* rule: kernel.allocation-failure-create2-open2 (`wddm_test_fail_alloc_after`, every N; ASan build) */
static void allocation_failure_leaves_nothing_behind(void **state)
{
    (void)state;
    size_t live = live_handles();
    struct alloc_ctx x = { 0 };
    at_every_allocation_failure(op_create2, undo_create2, &x);
    D3DKMT_HANDLE a, g;
    km_create(0, &a, &g);
    x.o = (D3DKMT_OPENKEYEDMUTEX2){ .hSharedHandle = g, .pPrivateRuntimeData = "data", .PrivateRuntimeDataSize = 4 };
    at_every_allocation_failure(op_open2, undo_open2, &x);
    assert_int_equal(km_destroy(a), STATUS_SUCCESS);
    km_create(0, &x.owner, NULL);
    assert_int_equal(km_acquire(x.owner, 0, NO_WAIT, NULL), STATUS_SUCCESS);
    at_every_allocation_failure(op_release2, undo_release2, &x);
    assert_int_equal(km_destroy(x.owner), STATUS_SUCCESS);
    assert_int_equal(live_handles(), live);
}

/* rule: kernel.keyed-mutexes-belong-process-not-device */
static void process_teardown_destroys_the_handles_left(void **state)
{
    (void)state;
    D3DKMT_HANDLE a, g;
    km_create(0, &a, &g);
    D3DKMT_HANDLE b = km_open(g);
    assert_int_equal(km_acquire(a, 0, NO_WAIT, NULL), STATUS_SUCCESS);
    pthread_t t;
    struct acquirer q;
    start_acquirer(&t, &q, b, 1);
    assert_true(dxgk_keyed_mutex_await_waiters(b, 1));
    dxgk_keyed_mutexes_destroy_all();
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_not_equal(atomic_load(&q.st), STATUS_SUCCESS); /* released, never hangs */
    assert_int_equal(live_handles(), 0);
    assert_int_equal(km_destroy(a), STATUS_INVALID_PARAMETER);
    D3DKMT_OPENKEYEDMUTEX o = { .hSharedHandle = g };
    assert_int_equal(D3DKMTOpenKeyedMutex(&o), STATUS_INVALID_PARAMETER);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(create_open_destroy_answer_as_windows),
        cmocka_unit_test(create2_open2_answer_as_windows),
        cmocka_unit_test(open2_runtime_data_rules_answer_as_windows),
        cmocka_unit_test(create2_flags_and_data_arguments),
        cmocka_unit_test(the_key_hands_the_mutex_on_with_the_fence_value),
        cmocka_unit_test(a_timeout_answers_status_timeout),
        cmocka_unit_test(a_release_wakes_the_acquirer_of_its_key_only),
        cmocka_unit_test(only_the_owner_releases_and_no_recursive_acquire),
        cmocka_unit_test(destroying_the_owners_handle_abandons_the_mutex),
        cmocka_unit_test(destroying_a_waiting_handle_releases_its_acquirer_with_an_error),
        cmocka_unit_test(acquire2_and_release2_carry_the_runtime_data),
        cmocka_unit_test(forged_stale_and_wrong_handles_are_refused),
        cmocka_unit_test(allocation_failure_leaves_nothing_behind),
        cmocka_unit_test(process_teardown_destroys_the_handles_left),
    };
    return cmocka_run_group_tests_name("dxgkrnl.keyed_mutex", tests, NULL, NULL);
}
