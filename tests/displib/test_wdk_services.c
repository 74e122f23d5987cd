/*
 * test_wdk_services.c - the WDK services a KMD module gets from libwddm_displib.a
 * (include/wddm/wdm.h; docs/drivers.md "WDK services for driver code", docs/rules/wdk.md),
 * linked alone, without libwddm: pool allocation zeroed and counted per tag (thousands of
 * blocks too), frees checked (wrong tag, foreign or freed pointer: reported and refused), paged
 * pool refused above APC_LEVEL; the thread's IRQL and its rules; spin locks that raise to
 * DISPATCH_LEVEL and exclude, a holder's second acquire reported; DPCs run once at
 * DISPATCH_LEVEL with their arguments, queued at most once, removed, flushed; events and timed
 * waits; time; DbgPrintEx's filter and prefix; assertions; the interlocked and memory helpers.
 * The rules follow Microsoft's reference pages of each routine (ExAllocatePool2,
 * ExFreePoolWithTag, KeAcquireSpinLock, KeInsertQueueDpc, KeRemoveQueueDpc, KeFlushQueuedDpcs,
 * KeWaitForSingleObject, DbgPrintEx and "Reading and Filtering Debugging Messages").
 * Timing is only ever a lower bound (a wait lasts at least its timeout); a DPC kept queued is
 * kept so by a DPC the test holds on the DPC thread, not by timing.
 */
/* rule: wdk.lookaside-list-entries-pool-blocks-size (the pool) */
/* rule: build.services-libwddm-displib-kmd-modules */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <wddm/wdm.h>

#include "stderr_capture.h"
#include "watchdog.h"

enum { WATCHDOG_SECONDS = 120 };

#define TAG_A 'AdmW' /* reads "WmdA" in memory order, as Windows' tools show it */
#define TAG_B 'BdmW'

static int all_bytes(const void *p, size_t n, unsigned char v)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != v)
            return 0;
    return 1;
}

/* ---- Pool ----------------------------------------------------------------------------------- */
/* rule: wdk.exallocatepool2-names-exactly-one-pool (mutation-checked: a block not zeroed fails it) */
/* rule: wdk.every-live-block-counted-under-tag (mutation-checked: not counting fails it) */
static void pool_memory_is_zeroed_and_counted_per_tag(void **state)
{
    (void)state;
    const size_t n = 200;
    SIZE_T a0 = wddm_pool_outstanding(TAG_A), b0 = wddm_pool_outstanding(TAG_B), all0 = wddm_pool_outstanding(0);
    /* Dirty memory first, so a block the heap hands out again shows whether it was zeroed. */
    for (int round = 0; round < 8; round++) {
        unsigned char *dirty = ExAllocatePool2(POOL_FLAG_NON_PAGED | POOL_FLAG_UNINITIALIZED, n, TAG_B);
        assert_non_null(dirty);
        memset(dirty, 0xAB, n);
        ExFreePoolWithTag(dirty, TAG_B);
        unsigned char *p = ExAllocatePool2(POOL_FLAG_NON_PAGED, n, TAG_A);
        assert_non_null(p);
        assert_true(all_bytes(p, n, 0));
        ExFreePoolWithTag(p, TAG_A);
    }
    void *a[3], *b = ExAllocatePool2(POOL_FLAG_PAGED, 16, TAG_B);
    for (int i = 0; i < 3; i++)
        a[i] = ExAllocatePool2(POOL_FLAG_NON_PAGED, 64, TAG_A);
    assert_int_equal(wddm_pool_outstanding(TAG_A), a0 + 3);
    assert_int_equal(wddm_pool_outstanding(TAG_B), b0 + 1);
    assert_int_equal(wddm_pool_outstanding(0), all0 + 4);
    ExFreePoolWithTag(a[1], TAG_A);
    assert_int_equal(wddm_pool_outstanding(TAG_A), a0 + 2);
    ExFreePool(a[0]); /* no tag to check */
    ExFreePoolWithTag(a[2], TAG_A);
    ExFreePoolWithTag(b, TAG_B);
    assert_int_equal(wddm_pool_outstanding(TAG_A), a0);
    assert_int_equal(wddm_pool_outstanding(TAG_B), b0);
    assert_int_equal(wddm_pool_outstanding(0), all0);
}

/* Thousands of live blocks, freed in a scattered order: each free finds its block and leaves
 * every other one findable (the tree rebalances under them). */
/* rule: wdk.exfreepoolwithtag-tag-other-block-free (the live blocks are a libc search tree, `tsearch`) */
static void many_blocks_are_tracked_through_growth_and_scattered_frees(void **state)
{
    (void)state;
    enum { N = 5000, STRIDE = 7919 /* prime, not a factor of N: a permutation */ };
    static void *p[N];
    SIZE_T a0 = wddm_pool_outstanding(TAG_A), b0 = wddm_pool_outstanding(TAG_B);
    for (int i = 0; i < N; i++) {
        p[i] = ExAllocatePool2(POOL_FLAG_NON_PAGED, 1 + (size_t)i % 100, i % 2 ? TAG_B : TAG_A);
        assert_non_null(p[i]);
    }
    assert_int_equal(wddm_pool_outstanding(TAG_A), a0 + N / 2);
    assert_int_equal(wddm_pool_outstanding(TAG_B), b0 + N / 2);
    capture_start();
    for (int k = 0; k < N; k++) {
        int i = (int)(((long)k * STRIDE) % N);
        ExFreePoolWithTag(p[i], i % 2 ? TAG_B : TAG_A);
    }
    const char *out = capture_end();
    assert_string_equal(out, ""); /* every free found its block */
    assert_int_equal(wddm_pool_outstanding(TAG_A), a0);
    assert_int_equal(wddm_pool_outstanding(TAG_B), b0);
}

/* rule: wdk.exallocatepool2-names-exactly-one-pool */
static void older_calls_alignment_and_optional_flags(void **state)
{
    (void)state;
    SIZE_T a0 = wddm_pool_outstanding(TAG_A);
    unsigned char *z = ExAllocatePoolZero(NonPagedPoolNx, 300, TAG_A);
    unsigned char *w = ExAllocatePoolWithTag(PagedPool, 300, TAG_A);
    unsigned char *u = ExAllocatePoolUninitialized(NonPagedPool, 300, TAG_A);
    assert_non_null(z);
    assert_non_null(w);
    assert_non_null(u);
    assert_true(all_bytes(z, 300, 0));
    assert_int_equal(wddm_pool_outstanding(TAG_A), a0 + 3);
    /* A page or more is page-aligned; smaller 16-byte, 64 when cache-aligned. */
    void *big = ExAllocatePool2(POOL_FLAG_NON_PAGED, PAGE_SIZE + 1, TAG_A);
    void *line = ExAllocatePool2(POOL_FLAG_NON_PAGED | POOL_FLAG_CACHE_ALIGNED, 24, TAG_A);
    void *aligned = ExAllocatePoolWithTag(NonPagedPoolCacheAligned, 24, TAG_A);
    /* An unknown optional flag (high 32 bits) is ignored, as Windows does. */
    void *opt = ExAllocatePool2(POOL_FLAG_NON_PAGED | 0x0000004000000000ull, 8, TAG_A);
    assert_int_equal((uintptr_t)big % PAGE_SIZE, 0);
    assert_int_equal((uintptr_t)line % 64, 0);
    assert_int_equal((uintptr_t)aligned % 64, 0);
    assert_int_equal((uintptr_t)z % 16, 0);
    assert_non_null(opt);
    void *blocks[] = {z, w, u, big, line, aligned, opt};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
        ExFreePoolWithTag(blocks[i], TAG_A);
    assert_int_equal(wddm_pool_outstanding(TAG_A), a0);
}

/* rule: wdk.exfreepoolwithtag-tag-other-block-free (mutation-checked: freeing with any tag, or freeing twice, fails it) */
/* rule: wdk.misuse-reported-refused-process-goes-on */
static void a_free_with_the_wrong_tag_is_reported_and_refused(void **state)
{
    (void)state;
    SIZE_T a0 = wddm_pool_outstanding(TAG_A);
    void *p = ExAllocatePool2(POOL_FLAG_NON_PAGED, 32, TAG_A);
    assert_non_null(p);
    capture_start();
    ExFreePoolWithTag(p, TAG_B);
    const char *out = capture_end();
    assert_non_null(strstr(out, "wddm: kmd: ExFreePoolWithTag: block"));
    assert_non_null(strstr(out, "of tag 'WmdA', freed with tag 'WmdB'"));
    assert_non_null(strstr(out, "BAD_POOL_CALLER"));
    assert_non_null(strstr(out, "not freed"));
    /* Still live, still usable, and freed by its own tag. */
    assert_int_equal(wddm_pool_outstanding(TAG_A), a0 + 1);
    memset(p, 1, 32);
    ExFreePoolWithTag(p, TAG_A);
    assert_int_equal(wddm_pool_outstanding(TAG_A), a0);
    /* Freed twice, or never the pool's: reported, nothing touched (the table knows without
     * reading the block). */
    int on_stack = 0;
    capture_start();
    ExFreePoolWithTag(p, TAG_A);
    ExFreePool(&on_stack);
    ExFreePool(NULL);
    out = capture_end();
    assert_non_null(strstr(out, "not a live pool block"));
    assert_non_null(strstr(out, "ExFreePool: block"));
    assert_non_null(strstr(out, "ExFreePool: NULL is not a pool block"));
    assert_int_equal(wddm_pool_outstanding(TAG_A), a0);
}

/* rule: wdk.exallocatepool2-names-exactly-one-pool */
/* rule: wdk.misuse-reported-refused-process-goes-on */
static void invalid_requests_answer_null(void **state)
{
    (void)state;
    SIZE_T all0 = wddm_pool_outstanding(0);
    capture_start();
    assert_null(ExAllocatePool2(POOL_FLAG_NON_PAGED, 16, 0));                                /* tag 0 */
    assert_null(ExAllocatePool2(POOL_FLAG_NON_PAGED, 0, TAG_A));                             /* no bytes */
    assert_null(ExAllocatePool2(POOL_FLAG_UNINITIALIZED, 16, TAG_A));                        /* no pool */
    assert_null(ExAllocatePool2(POOL_FLAG_NON_PAGED | POOL_FLAG_PAGED, 16, TAG_A));          /* two pools */
    assert_null(ExAllocatePool2(POOL_FLAG_NON_PAGED | POOL_FLAG_RESERVED1, 16, TAG_A));      /* reserved */
    assert_null(ExAllocatePool2(POOL_FLAG_NON_PAGED | 0x00100000ull, 16, TAG_A));            /* unknown required */
    assert_null(ExAllocatePoolWithTag(DontUseThisType, 16, TAG_A));
    assert_null(ExAllocatePoolWithTag((POOL_TYPE)7, 16, TAG_A));
    assert_null(ExAllocatePool2(POOL_FLAG_NON_PAGED | POOL_FLAG_RAISE_ON_FAILURE, 16, 0)); /* no exception */
    const char *out = capture_end();
    assert_non_null(strstr(out, "a pool tag must not be 0"));
    assert_non_null(strstr(out, "NumberOfBytes must not be 0"));
    assert_non_null(strstr(out, "name exactly one of POOL_FLAG_NON_PAGED"));
    assert_non_null(strstr(out, "pool type 3 is not a POOL_TYPE"));
    assert_non_null(strstr(out, "POOL_FLAG_RAISE_ON_FAILURE: Windows raises an exception"));
    assert_int_equal(wddm_pool_outstanding(0), all0);
}

/* rule: wdk.paged-pool-allocated-freed-only-irql (mutation-checked: allowing it fails it) */
static void paged_pool_above_apc_level_is_refused(void **state)
{
    (void)state;
    KIRQL old;
    KeRaiseIrql(DISPATCH_LEVEL, &old);
    capture_start();
    void *paged = ExAllocatePool2(POOL_FLAG_PAGED, 64, TAG_A);
    void *paged_old = ExAllocatePoolWithTag(PagedPool, 64, TAG_A);
    const char *out = capture_end();
    assert_null(paged);
    assert_null(paged_old);
    assert_non_null(strstr(out, "at DISPATCH_LEVEL: paged pool may only be allocated at IRQL <= APC_LEVEL: NULL"));
    void *nonpaged = ExAllocatePool2(POOL_FLAG_NON_PAGED, 64, TAG_A); /* allowed at DISPATCH_LEVEL */
    assert_non_null(nonpaged);
    ExFreePoolWithTag(nonpaged, TAG_A);
    KeLowerIrql(old);
    KeRaiseIrql(APC_LEVEL, &old);
    paged = ExAllocatePool2(POOL_FLAG_PAGED, 64, TAG_A); /* allowed up to APC_LEVEL */
    assert_non_null(paged);
    /* ... and freed only up to APC_LEVEL too: at DISPATCH_LEVEL it stays. */
    KIRQL apc;
    KeRaiseIrql(DISPATCH_LEVEL, &apc);
    SIZE_T live = wddm_pool_outstanding(TAG_A);
    capture_start();
    ExFreePoolWithTag(paged, TAG_A);
    out = capture_end();
    assert_non_null(strstr(out, "paged pool may only be freed at IRQL <= APC_LEVEL"));
    assert_int_equal(wddm_pool_outstanding(TAG_A), live);
    KeLowerIrql(apc);
    ExFreePoolWithTag(paged, TAG_A);
    KeLowerIrql(old);
    assert_int_equal(KeGetCurrentIrql(), PASSIVE_LEVEL);
}

/* ---- IRQL ----------------------------------------------------------------------------------- */
static void *irql_of_a_new_thread(void *arg)
{
    *(KIRQL *)arg = KeGetCurrentIrql();
    return NULL;
}

/* rule: wdk.each-thread-own-irql-passive-level (mutation-checked: one IRQL for every thread, or a raise downwards, fails it) */
static void the_irql_is_the_threads_and_moves_one_way_at_a_time(void **state)
{
    (void)state;
    assert_int_equal(KeGetCurrentIrql(), PASSIVE_LEVEL);
    KIRQL old, other = 0xFF;
    KeRaiseIrql(DISPATCH_LEVEL, &old);
    assert_int_equal(old, PASSIVE_LEVEL);
    assert_int_equal(KeGetCurrentIrql(), DISPATCH_LEVEL);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, irql_of_a_new_thread, &other), 0);
    pthread_join(t, NULL);
    assert_int_equal(other, PASSIVE_LEVEL); /* each thread its own */
    capture_start();
    KIRQL below;
    KeRaiseIrql(APC_LEVEL, &below); /* a "raise" downwards */
    KeLowerIrql(HIGH_LEVEL);        /* a "lower" upwards */
    const char *out = capture_end();
    assert_non_null(strstr(out, "KeRaiseIrql: APC_LEVEL is below the current DISPATCH_LEVEL"));
    assert_non_null(strstr(out, "KeLowerIrql: IRQL 15 is above the current DISPATCH_LEVEL"));
    assert_int_equal(below, DISPATCH_LEVEL);
    assert_int_equal(KeGetCurrentIrql(), DISPATCH_LEVEL);
    KeLowerIrql(old);
    assert_int_equal(KeGetCurrentIrql(), PASSIVE_LEVEL);
    assert_int_equal(KeRaiseIrqlToDpcLevel(), PASSIVE_LEVEL);
    KeLowerIrql(PASSIVE_LEVEL);
}

/* ---- Spin locks ----------------------------------------------------------------------------- */
/* rule: wdk.keacquirespinlock-raises-dispatch-level (mutation-checked: no raise, or no restore, fails it) */
static void spin_lock_raises_to_dispatch_and_release_restores(void **state)
{
    (void)state;
    KSPIN_LOCK lock;
    KeInitializeSpinLock(&lock);
    KIRQL old;
    KeAcquireSpinLock(&lock, &old);
    assert_int_equal(old, PASSIVE_LEVEL);
    assert_int_equal(KeGetCurrentIrql(), DISPATCH_LEVEL);
    KeReleaseSpinLock(&lock, old);
    assert_int_equal(KeGetCurrentIrql(), PASSIVE_LEVEL);
    /* From APC_LEVEL, back to APC_LEVEL. */
    KIRQL passive, apc;
    KeRaiseIrql(APC_LEVEL, &passive);
    KeAcquireSpinLock(&lock, &apc);
    assert_int_equal(apc, APC_LEVEL);
    assert_int_equal(KeGetCurrentIrql(), DISPATCH_LEVEL);
    /* At DISPATCH_LEVEL already: the DPC-level pair leaves the IRQL alone. */
    KSPIN_LOCK inner;
    KeInitializeSpinLock(&inner);
    KeAcquireSpinLockAtDpcLevel(&inner);
    assert_int_equal(KeGetCurrentIrql(), DISPATCH_LEVEL);
    KeReleaseSpinLockFromDpcLevel(&inner);
    assert_int_equal(KeGetCurrentIrql(), DISPATCH_LEVEL);
    KeReleaseSpinLock(&lock, apc);
    assert_int_equal(KeGetCurrentIrql(), APC_LEVEL);
    KeLowerIrql(passive);
}

enum { ROUNDS = 100000 };
struct counting {
    KSPIN_LOCK lock;
    long counter; /* plain: only the lock keeps the increments whole */
    KIRQL irql_inside;
};

static void *count_under_the_lock(void *arg)
{
    struct counting *c = arg;
    for (int i = 0; i < ROUNDS; i++) {
        KIRQL old;
        KeAcquireSpinLock(&c->lock, &old);
        long v = c->counter;
        if (i % 1024 == 0)
            sched_yield(); /* widens the window a lock that does not exclude would show */
        c->counter = v + 1;
        KeReleaseSpinLock(&c->lock, old);
    }
    return NULL;
}

/* rule: wdk.keacquirespinlock-raises-dispatch-level (mutation-checked: a lock that does not exclude loses increments) */
static void spin_lock_excludes_a_second_thread(void **state)
{
    (void)state;
    struct counting c = {0};
    KeInitializeSpinLock(&c.lock);
    watchdog_start("two threads counting under one spin lock", WATCHDOG_SECONDS);
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, count_under_the_lock, &c), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    watchdog_stop();
    assert_int_equal(c.counter, 2L * ROUNDS);
    assert_int_equal(c.lock, 0); /* free at the end */
}

/* rule: wdk.holder-second-acquire-release-thread-not (mutation-checked: spinning on the second acquire trips its watchdog) */
static void misuse_of_a_spin_lock_is_reported_not_a_hang(void **state)
{
    (void)state;
    KSPIN_LOCK lock;
    KeInitializeSpinLock(&lock);
    KIRQL old, again;
    watchdog_start("a second acquire by the holder", WATCHDOG_SECONDS);
    capture_start();
    KeAcquireSpinLock(&lock, &old);
    KeAcquireSpinLock(&lock, &again);
    KeReleaseSpinLock(&lock, again);
    KeReleaseSpinLock(&lock, old); /* the first release freed it: this one holds nothing */
    KeAcquireSpinLockAtDpcLevel(&lock); /* at PASSIVE_LEVEL */
    KeReleaseSpinLockFromDpcLevel(&lock);
    const char *out = capture_end();
    watchdog_stop();
    assert_non_null(strstr(out, "is already held by this thread (SPIN_LOCK_ALREADY_OWNED"));
    assert_non_null(strstr(out, "is not held by this thread (SPIN_LOCK_NOT_OWNED"));
    assert_non_null(strstr(out, "KeAcquireSpinLockAtDpcLevel: called at PASSIVE_LEVEL"));
    assert_int_equal(lock, 0);
    assert_int_equal(KeGetCurrentIrql(), PASSIVE_LEVEL);
}

/* ---- DPCs ----------------------------------------------------------------------------------- */
/* A DPC that keeps the DPC thread until released, so others stay queued behind it. */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int running, release;
} gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};

static VOID hold_the_dpc_thread(KDPC *Dpc, PVOID DeferredContext, PVOID SystemArgument1, PVOID SystemArgument2)
{
    pthread_mutex_lock(&gate.lock);
    gate.running = 1;
    pthread_cond_broadcast(&gate.cond);
    while (!gate.release)
        pthread_cond_wait(&gate.cond, &gate.lock);
    pthread_mutex_unlock(&gate.lock);
}

static void hold_dpc_thread(KDPC *holder)
{
    pthread_mutex_lock(&gate.lock);
    gate.running = gate.release = 0;
    pthread_mutex_unlock(&gate.lock);
    KeInitializeDpc(holder, hold_the_dpc_thread, NULL);
    assert_true(KeInsertQueueDpc(holder, NULL, NULL));
    pthread_mutex_lock(&gate.lock);
    while (!gate.running)
        pthread_cond_wait(&gate.cond, &gate.lock);
    pthread_mutex_unlock(&gate.lock);
}

static void release_dpc_thread(void)
{
    pthread_mutex_lock(&gate.lock);
    gate.release = 1;
    pthread_cond_broadcast(&gate.cond);
    pthread_mutex_unlock(&gate.lock);
}

struct dpc_record {
    int runs;
    KIRQL irql;
    KDPC *dpc;
    PVOID context, a1, a2;
    pthread_t thread;
};

/* Written on the DPC thread, read by the test after KeFlushQueuedDpcs returned. */
static VOID record_dpc(KDPC *Dpc, PVOID DeferredContext, PVOID SystemArgument1, PVOID SystemArgument2)
{
    struct dpc_record *r = DeferredContext;
    r->runs++;
    r->irql = KeGetCurrentIrql();
    r->dpc = Dpc;
    r->context = DeferredContext;
    r->a1 = SystemArgument1;
    r->a2 = SystemArgument2;
    r->thread = pthread_self();
}

/* rule: wdk.keinsertqueuedpc-queues-dpc-answers-true (mutation-checked: a second insert answering TRUE, the routine below DISPATCH_LEVEL, or swapped arguments fail it) */
/* rule: wdk.keremovequeuedpc-takes-queued-dpc-off (mutation-checked: a flush that does not wait fails it) */
static void a_dpc_runs_once_at_dispatch_level_with_its_arguments(void **state)
{
    (void)state;
    static struct dpc_record r;
    memset(&r, 0, sizeof r);
    KDPC holder, dpc;
    int x, y, z;
    KeInitializeDpc(&dpc, record_dpc, &r);
    watchdog_start("a DPC held behind another, then flushed", WATCHDOG_SECONDS);
    hold_dpc_thread(&holder);
    assert_true(KeInsertQueueDpc(&dpc, &x, &y));
    assert_false(KeInsertQueueDpc(&dpc, &z, &z)); /* queued already: nothing changes */
    assert_int_equal(r.runs, 0);
    release_dpc_thread();
    KeFlushQueuedDpcs(); /* returns once both have run */
    watchdog_stop();
    assert_int_equal(r.runs, 1);
    assert_int_equal(r.irql, DISPATCH_LEVEL);
    assert_ptr_equal(r.dpc, &dpc);
    assert_ptr_equal(r.context, &r);
    assert_ptr_equal(r.a1, &x); /* the first insert's arguments */
    assert_ptr_equal(r.a2, &y);
    assert_false(pthread_equal(r.thread, pthread_self()));
    assert_int_equal(KeGetCurrentIrql(), PASSIVE_LEVEL);
    /* Run and off the queue: it may be queued again, and runs again. */
    assert_true(KeInsertQueueDpc(&dpc, &z, NULL));
    KeFlushQueuedDpcs();
    assert_int_equal(r.runs, 2);
    assert_ptr_equal(r.a1, &z);
    assert_null(r.a2);
}

/* rule: wdk.keremovequeuedpc-takes-queued-dpc-off (mutation-checked: a remove that does nothing fails it) */
static void a_removed_dpc_does_not_run(void **state)
{
    (void)state;
    static struct dpc_record r;
    memset(&r, 0, sizeof r);
    KDPC holder, first, second;
    KeInitializeDpc(&first, record_dpc, &r);
    KeInitializeDpc(&second, record_dpc, &r);
    watchdog_start("a DPC removed from the queue", WATCHDOG_SECONDS);
    hold_dpc_thread(&holder);
    assert_true(KeInsertQueueDpc(&first, NULL, NULL));
    assert_true(KeInsertQueueDpc(&second, &r, NULL));
    assert_true(KeRemoveQueueDpc(&first));
    assert_false(KeRemoveQueueDpc(&first)); /* no longer queued */
    release_dpc_thread();
    KeFlushQueuedDpcs();
    watchdog_stop();
    assert_int_equal(r.runs, 1);
    assert_ptr_equal(r.dpc, &second);
    assert_false(KeRemoveQueueDpc(&second)); /* ran: not queued */
}

/* rule: wdk.keremovequeuedpc-takes-queued-dpc-off */
static void dpc_misuse_is_reported(void **state)
{
    (void)state;
    KDPC never_initialized;
    memset(&never_initialized, 0, sizeof never_initialized);
    KIRQL old;
    capture_start();
    assert_false(KeInsertQueueDpc(&never_initialized, NULL, NULL));
    KeRaiseIrql(DISPATCH_LEVEL, &old);
    KeFlushQueuedDpcs(); /* would wait for itself on a DPC */
    KeLowerIrql(old);
    const char *out = capture_end();
    assert_non_null(strstr(out, "is not a KDPC initialized with KeInitializeDpc"));
    assert_non_null(strstr(out, "KeFlushQueuedDpcs: called at DISPATCH_LEVEL"));
}

/* ---- Events and waits ----------------------------------------------------------------------- */
static LARGE_INTEGER relative_ms(LONGLONG ms)
{
    LARGE_INTEGER t;
    t.QuadPart = -ms * 10000;
    return t;
}

static void *set_after_start(void *arg)
{
    KeSetEvent(arg, IO_NO_INCREMENT, FALSE);
    return NULL;
}

/* rule: wdk.kewaitforsingleobject-kevent-answers (mutation-checked: a wait that never times out, or never sees the set, fails it) */
static void a_wait_times_out_and_succeeds_once_set(void **state)
{
    (void)state;
    KEVENT e;
    KeInitializeEvent(&e, NotificationEvent, FALSE);
    LARGE_INTEGER zero = {.QuadPart = 0}, twenty = relative_ms(20), past;
    watchdog_start("waits on a KEVENT", WATCHDOG_SECONDS);
    assert_int_equal(KeWaitForSingleObject(&e, Executive, KernelMode, FALSE, &zero), STATUS_TIMEOUT);
    LARGE_INTEGER t0 = KeQueryPerformanceCounter(NULL);
    assert_int_equal(KeWaitForSingleObject(&e, Executive, KernelMode, FALSE, &twenty), STATUS_TIMEOUT);
    LARGE_INTEGER t1 = KeQueryPerformanceCounter(NULL);
    assert_true(t1.QuadPart - t0.QuadPart >= 20 * 10000); /* at least the timeout */
    KeQuerySystemTime(&past);
    past.QuadPart -= 10000000; /* an absolute time a second ago */
    assert_int_equal(KeWaitForSingleObject(&e, Executive, KernelMode, FALSE, &past), STATUS_TIMEOUT);
    /* Set by another thread while this one waits without a limit. */
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, set_after_start, &e), 0);
    assert_int_equal(KeWaitForSingleObject(&e, Executive, KernelMode, FALSE, NULL), STATUS_SUCCESS);
    pthread_join(t, NULL);
    /* A notification event stays signalled until reset. */
    assert_int_equal(KeWaitForSingleObject(&e, Executive, KernelMode, FALSE, &zero), STATUS_SUCCESS);
    assert_int_equal(KeReadStateEvent(&e), 1);
    assert_int_equal(KeResetEvent(&e), 1);
    assert_int_equal(KeResetEvent(&e), 0);
    assert_int_equal(KeSetEvent(&e, IO_NO_INCREMENT, FALSE), 0);
    assert_int_equal(KeSetEvent(&e, IO_NO_INCREMENT, FALSE), 1);
    KeClearEvent(&e);
    assert_int_equal(KeWaitForSingleObject(&e, Executive, KernelMode, FALSE, &zero), STATUS_TIMEOUT);
    watchdog_stop();
}

/* rule: wdk.kewaitforsingleobject-kevent-answers (mutation-checked: no reset fails it) */
static void a_synchronization_event_satisfies_one_wait(void **state)
{
    (void)state;
    KEVENT e;
    KeInitializeEvent(&e, SynchronizationEvent, TRUE);
    LARGE_INTEGER zero = {.QuadPart = 0};
    assert_int_equal(KeWaitForSingleObject(&e, Executive, KernelMode, FALSE, &zero), STATUS_SUCCESS);
    assert_int_equal(KeWaitForSingleObject(&e, Executive, KernelMode, FALSE, &zero), STATUS_TIMEOUT);
    KeSetEvent(&e, IO_NO_INCREMENT, FALSE);
    assert_int_equal(KeReadStateEvent(&e), 1);
    assert_int_equal(KeWaitForSingleObject(&e, Executive, KernelMode, FALSE, &zero), STATUS_SUCCESS);
    assert_int_equal(KeReadStateEvent(&e), 0);
}

static VOID signal_from_dpc(KDPC *Dpc, PVOID DeferredContext, PVOID SystemArgument1, PVOID SystemArgument2)
{
    KeSetEvent(DeferredContext, IO_NO_INCREMENT, FALSE);
}

/* rule: wdk.kewaitforsingleobject-kevent-answers */
static void a_dpc_signals_a_waiting_thread(void **state)
{
    (void)state;
    KEVENT done;
    KDPC dpc;
    KeInitializeEvent(&done, SynchronizationEvent, FALSE);
    KeInitializeDpc(&dpc, signal_from_dpc, &done);
    watchdog_start("a DPC setting an event", WATCHDOG_SECONDS);
    assert_true(KeInsertQueueDpc(&dpc, NULL, NULL));
    assert_int_equal(KeWaitForSingleObject(&done, Executive, KernelMode, FALSE, NULL), STATUS_SUCCESS);
    KeFlushQueuedDpcs();
    watchdog_stop();
}

/* rule: wdk.kewaitforsingleobject-kevent-answers */
static void a_blocking_wait_above_apc_level_only_looks(void **state)
{
    (void)state;
    KEVENT e, junk;
    KeInitializeEvent(&e, NotificationEvent, FALSE);
    memset(&junk, 0, sizeof junk);
    LARGE_INTEGER ten_minutes = relative_ms(600000), ten_ms = relative_ms(10);
    KIRQL old;
    watchdog_start("a wait at DISPATCH_LEVEL", WATCHDOG_SECONDS);
    capture_start();
    KeRaiseIrql(DISPATCH_LEVEL, &old);
    NTSTATUS timeout = KeWaitForSingleObject(&e, Executive, KernelMode, FALSE, &ten_minutes);
    NTSTATUS slept = KeDelayExecutionThread(KernelMode, FALSE, &ten_minutes);
    KeLowerIrql(old);
    NTSTATUS bad = KeWaitForSingleObject(&junk, Executive, KernelMode, FALSE, &ten_ms);
    const char *out = capture_end();
    watchdog_stop();
    assert_int_equal(timeout, STATUS_TIMEOUT);
    assert_int_equal(slept, STATUS_SUCCESS);
    assert_int_equal(bad, STATUS_INVALID_PARAMETER);
    assert_non_null(strstr(out, "KeWaitForSingleObject: called at DISPATCH_LEVEL"));
    assert_non_null(strstr(out, "KeDelayExecutionThread: called at DISPATCH_LEVEL"));
    assert_non_null(strstr(out, "is not a KEVENT, KMUTEX or KTIMER initialized by its KeInitialize call"));
}

/* ---- Time ------------------------------------------------------------------------------------ */
/* rule: wdk.performance-counter-monotonic-10-mhz */
static void time_services(void **state)
{
    (void)state;
    LARGE_INTEGER f, sys;
    LARGE_INTEGER c0 = KeQueryPerformanceCounter(&f);
    ULONGLONG i0 = KeQueryInterruptTime();
    assert_int_equal(f.QuadPart, 10000000);
    KeStallExecutionProcessor(2000);
    LARGE_INTEGER c1 = KeQueryPerformanceCounter(NULL);
    assert_true(c1.QuadPart - c0.QuadPart >= 2000 * 10);
    LARGE_INTEGER five = relative_ms(5);
    assert_int_equal(KeDelayExecutionThread(KernelMode, FALSE, &five), STATUS_SUCCESS);
    LARGE_INTEGER c2 = KeQueryPerformanceCounter(NULL);
    assert_true(c2.QuadPart - c1.QuadPart >= 5 * 10000);
    assert_true(KeQueryInterruptTime() >= i0 + 7 * 10000);
    /* The system time counts from 1601: now is time(NULL) seconds after 1970 plus the gap. */
    KeQuerySystemTimePrecise(&sys);
    long long expect = (long long)time(NULL) * 10000000ll + 116444736000000000ll;
    assert_true(sys.QuadPart > expect - 5 * 10000000ll && sys.QuadPart < expect + 5 * 10000000ll);
}

/* ---- Debug output ---------------------------------------------------------------------------- */
/* rule: wdk.dbgprintex-prints-stderr-wddm-kmd-start (mutation-checked: not printing the error level, printing every level, or one prefix per call fails it) */
static void dbgprintex_filters_by_level_and_prefixes_each_line(void **state)
{
    (void)state;
    const char *was = getenv("WDDM_DEBUG");
    char *saved = was ? strdup(was) : NULL;
    unsetenv("WDDM_DEBUG");
    capture_start();
    DbgPrintEx(DPFLTR_IHVVIDEO_ID, DPFLTR_ERROR_LEVEL, "error %d\n", 7);
    DbgPrintEx(DPFLTR_IHVVIDEO_ID, DPFLTR_WARNING_LEVEL, "warning\n");
    DbgPrintEx(DPFLTR_IHVVIDEO_ID, DPFLTR_INFO_LEVEL, "info\n");
    DbgPrintEx(DPFLTR_IHVVIDEO_ID, DPFLTR_MASK | 0x1, "mask error\n"); /* a bitfield with the error bit */
    DbgPrint("dbgprint\n");
    KdPrint(("kdprint\n"));
    const char *quiet = capture_end();
    assert_string_equal(quiet, "wddm: kmd: error 7\nwddm: kmd: mask error\n");

    setenv("WDDM_DEBUG", "1", 1);
    capture_start();
    DbgPrintEx(DPFLTR_IHVVIDEO_ID, DPFLTR_INFO_LEVEL, "info\n");
    DbgPrint("dbg%s\n", "print");
    KdPrintEx((DPFLTR_IHVDRIVER_ID, DPFLTR_TRACE_LEVEL, "trace\n"));
    DbgPrintEx(DPFLTR_IHVVIDEO_ID, DPFLTR_WARNING_LEVEL, "one line ");          /* built over calls */
    DbgPrintEx(DPFLTR_IHVVIDEO_ID, DPFLTR_WARNING_LEVEL, "in two\ntwo lines\n"); /* two in one call */
    const char *verbose = capture_end();
    assert_string_equal(verbose, "wddm: kmd: info\nwddm: kmd: dbgprint\nwddm: kmd: trace\n"
                                 "wddm: kmd: one line in two\nwddm: kmd: two lines\n");

    /* At most 512 bytes of one call. */
    char long_text[700];
    memset(long_text, 'x', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = 0;
    capture_start();
    DbgPrintEx(DPFLTR_IHVVIDEO_ID, DPFLTR_ERROR_LEVEL, "%s", long_text);
    DbgPrintEx(DPFLTR_IHVVIDEO_ID, DPFLTR_ERROR_LEVEL, "\n");
    const char *cut = capture_end();
    assert_int_equal(strlen(cut), strlen("wddm: kmd: ") + 512 + 1);

    if (saved) {
        setenv("WDDM_DEBUG", saved, 1);
        free(saved);
    } else {
        unsetenv("WDDM_DEBUG");
    }
}

/* rule: runtime.failed-assert-assertmsg-nt-assert-paged */
static void a_failed_assertion_is_reported_and_execution_goes_on(void **state)
{
    (void)state;
    int reached = 0, one = 1;
    capture_start();
    ASSERT(one == 2);
    NT_ASSERT(one == 1); /* holds: nothing */
    ASSERTMSG("the count is off", one == 3);
    KIRQL old;
    KeRaiseIrql(DISPATCH_LEVEL, &old);
    PAGED_CODE();
    KeLowerIrql(old);
    reached = 1;
    const char *out = capture_end();
    assert_true(reached);
    assert_non_null(strstr(out, "wddm: kmd: assertion failed: one == 2 at "));
    assert_non_null(strstr(out, "test_wdk_services.c:"));
    assert_non_null(strstr(out, "assertion failed: one == 3 at "));
    assert_non_null(strstr(out, ": the count is off\n"));
    assert_non_null(strstr(out, "assertion failed: KeGetCurrentIrql() <= APC_LEVEL"));
    assert_null(strstr(out, "one == 1"));
}

/* ---- Interlocked and memory helpers --------------------------------------------------------- */
static volatile LONG shared_count;

static void *interlocked_increments(void *arg)
{
    (void)arg;
    for (int i = 0; i < ROUNDS; i++)
        InterlockedIncrement(&shared_count);
    return NULL;
}

/* rule: runtime.interlocked-calls-atomic-full-barriers */
static void interlocked_and_memory_helpers(void **state)
{
    (void)state;
    LONG v = 5;
    assert_int_equal(InterlockedIncrement(&v), 6);
    assert_int_equal(InterlockedDecrement(&v), 5);
    assert_int_equal(InterlockedExchange(&v, 9), 5);
    assert_int_equal(InterlockedExchangeAdd(&v, 3), 9);
    assert_int_equal(InterlockedCompareExchange(&v, 100, 1), 12); /* no match: unchanged */
    assert_int_equal(v, 12);
    assert_int_equal(InterlockedCompareExchange(&v, 100, 12), 12);
    assert_int_equal(v, 100);
    LONG64 w = (LONG64)1 << 40;
    assert_true(InterlockedIncrement64(&w) == ((LONG64)1 << 40) + 1);
    assert_true(InterlockedCompareExchange64(&w, 7, ((LONG64)1 << 40) + 1) == ((LONG64)1 << 40) + 1);
    assert_true(w == 7);
    PVOID p = NULL;
    assert_null(InterlockedCompareExchangePointer(&p, &v, NULL));
    assert_ptr_equal(InterlockedExchangePointer(&p, NULL), &v);

    shared_count = 0;
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, interlocked_increments, NULL), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    assert_int_equal(shared_count, 2 * ROUNDS);

    unsigned char a[16], b[16];
    RtlFillMemory(a, sizeof a, 0x5A);
    assert_true(all_bytes(a, sizeof a, 0x5A));
    RtlCopyMemory(b, a, sizeof b);
    assert_true(RtlEqualMemory(a, b, sizeof a));
    RtlZeroMemory(a, sizeof a);
    assert_true(all_bytes(a, sizeof a, 0));
    for (int i = 0; i < 16; i++)
        b[i] = (unsigned char)i;
    RtlMoveMemory(b + 1, b, 8); /* overlapping */
    assert_int_equal(b[1], 0);
    assert_int_equal(b[8], 7);
    UNREFERENCED_PARAMETER(state);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pool_memory_is_zeroed_and_counted_per_tag),
        cmocka_unit_test(many_blocks_are_tracked_through_growth_and_scattered_frees),
        cmocka_unit_test(older_calls_alignment_and_optional_flags),
        cmocka_unit_test(a_free_with_the_wrong_tag_is_reported_and_refused),
        cmocka_unit_test(invalid_requests_answer_null),
        cmocka_unit_test(paged_pool_above_apc_level_is_refused),
        cmocka_unit_test(the_irql_is_the_threads_and_moves_one_way_at_a_time),
        cmocka_unit_test(spin_lock_raises_to_dispatch_and_release_restores),
        cmocka_unit_test(spin_lock_excludes_a_second_thread),
        cmocka_unit_test(misuse_of_a_spin_lock_is_reported_not_a_hang),
        cmocka_unit_test(a_dpc_runs_once_at_dispatch_level_with_its_arguments),
        cmocka_unit_test(a_removed_dpc_does_not_run),
        cmocka_unit_test(dpc_misuse_is_reported),
        cmocka_unit_test(a_wait_times_out_and_succeeds_once_set),
        cmocka_unit_test(a_synchronization_event_satisfies_one_wait),
        cmocka_unit_test(a_dpc_signals_a_waiting_thread),
        cmocka_unit_test(a_blocking_wait_above_apc_level_only_looks),
        cmocka_unit_test(time_services),
        cmocka_unit_test(dbgprintex_filters_by_level_and_prefixes_each_line),
        cmocka_unit_test(a_failed_assertion_is_reported_and_execution_goes_on),
        cmocka_unit_test(interlocked_and_memory_helpers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
