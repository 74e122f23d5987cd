/*
 * test_wdk_sync.c - the WDK's mutexes, fast mutexes, timers and work items as libwddm_displib.a
 * gives them to a KMD module (include/wddm/wdm.h; docs/drivers.md "WDK services for driver
 * code", docs/rules/wdk.md), linked alone: a KMUTEX taken by KeWaitForSingleObject, recursive
 * for its owner, a release by another thread reported; a FAST_MUTEX at APC_LEVEL, not
 * recursive (the second acquire reported, not a deadlock); KTIMERs signalled at their relative
 * or absolute due time, queuing their DPC, periodic until cancelled; work items run at
 * PASSIVE_LEVEL on worker threads, misuse reported. The rules follow Microsoft's reference pages
 * (KeInitializeMutex, KeReleaseMutex, ExAcquireFastMutex, ExReleaseFastMutex,
 * ExTryToAcquireFastMutex, KeSetTimerEx, KeCancelTimer, KeInitializeTimerEx, IoQueueWorkItem,
 * IoFreeWorkItem). Timing is only ever a lower bound; an item kept queued is kept so by items
 * the test holds on every worker, not by timing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include <wddm/wdm.h>

#include "stderr_capture.h"
#include "watchdog.h"

enum { WATCHDOG_SECONDS = 120, ROUNDS = 20000 };

#define WORK_ITEM_TAG 0x49576F49u /* "IoWI" */

static LARGE_INTEGER relative_ms(LONGLONG ms)
{
    LARGE_INTEGER t;
    t.QuadPart = -ms * 10000;
    return t;
}

static const LARGE_INTEGER zero_timeout = {.QuadPart = 0};

static LONGLONG now_100ns(void)
{
    return KeQueryPerformanceCounter(NULL).QuadPart;
}

/* ---- Mutexes -------------------------------------------------------------------------------- */
struct mutex_try {
    KMUTEX *mutex;
    LONGLONG timeout_ms; /* < 0: no limit */
    int release;         /* release what it took */
    NTSTATUS status;
};

static void *try_mutex(void *arg)
{
    struct mutex_try *t = arg;
    LARGE_INTEGER timeout = relative_ms(t->timeout_ms);
    t->status = KeWaitForSingleObject(t->mutex, Executive, KernelMode, FALSE, t->timeout_ms < 0 ? NULL : &timeout);
    if (t->status == STATUS_SUCCESS && t->release)
        KeReleaseMutex(t->mutex, FALSE);
    return NULL;
}

static NTSTATUS from_another_thread(KMUTEX *m, LONGLONG timeout_ms, int release)
{
    struct mutex_try t = {m, timeout_ms, release, -1};
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, try_mutex, &t), 0);
    pthread_join(thread, NULL);
    return t.status;
}

/* rule: wdk.kmutex-free-after-keinitializemutex (mutation-checked: a mutex not recursive for its owner, or freed by the first of two releases, fails it) */
static void a_mutex_is_taken_by_a_wait_and_recursive_for_its_owner(void **state)
{
    (void)state;
    KMUTEX m;
    KeInitializeMutex(&m, 0);
    watchdog_start("waits on a KMUTEX", WATCHDOG_SECONDS);
    assert_int_equal(KeReadStateMutex(&m), 1); /* free */
    assert_int_equal(KeWaitForSingleObject(&m, Executive, KernelMode, FALSE, NULL), STATUS_SUCCESS);
    assert_int_equal(KeReadStateMutex(&m), 0);
    assert_ptr_equal(m.OwnerThread, KeGetCurrentThread());
    /* Its owner takes it again without waiting. */
    assert_int_equal(KeWaitForSingleObject(&m, Executive, KernelMode, FALSE, (PLARGE_INTEGER)&zero_timeout),
                     STATUS_SUCCESS);
    assert_int_equal(KeReadStateMutex(&m), -1);
    /* Another thread does not get it, whether it looks or waits a while. */
    assert_int_equal(from_another_thread(&m, 0, 1), STATUS_TIMEOUT);
    LONGLONG t0 = now_100ns();
    assert_int_equal(from_another_thread(&m, 20, 1), STATUS_TIMEOUT);
    assert_true(now_100ns() - t0 >= 20 * 10000);
    /* One release per acquisition: the first leaves it owned. */
    assert_int_equal(KeReleaseMutex(&m, FALSE), -1);
    assert_int_equal(KeReadStateMutex(&m), 0);
    assert_int_equal(from_another_thread(&m, 0, 1), STATUS_TIMEOUT);
    assert_int_equal(KeReleaseMutex(&m, FALSE), 0); /* 0: released and signalled */
    assert_int_equal(KeReadStateMutex(&m), 1);
    assert_null(m.OwnerThread);
    /* Free: another thread takes it (and gives it back). */
    assert_int_equal(from_another_thread(&m, -1, 1), STATUS_SUCCESS);
    assert_int_equal(KeReadStateMutex(&m), 1);
    watchdog_stop();
}

struct counting {
    KMUTEX mutex;
    FAST_MUTEX fast;
    long counter; /* plain: only the mutex keeps the increments whole */
    int use_fast;
    KIRQL irql_inside;
};

static void *count_under_a_mutex(void *arg)
{
    struct counting *c = arg;
    for (int i = 0; i < ROUNDS; i++) {
        if (c->use_fast)
            ExAcquireFastMutex(&c->fast);
        else
            KeWaitForSingleObject(&c->mutex, Executive, KernelMode, FALSE, NULL);
        long v = c->counter;
        if (i % 512 == 0)
            sched_yield(); /* widens the window a mutex that does not exclude would show */
        c->counter = v + 1;
        if (c->use_fast)
            ExReleaseFastMutex(&c->fast);
        else
            KeReleaseMutex(&c->mutex, FALSE);
    }
    return NULL;
}

static void count_with_two_threads(struct counting *c)
{
    watchdog_start("two threads counting under one mutex", WATCHDOG_SECONDS);
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, count_under_a_mutex, c), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    watchdog_stop();
    assert_int_equal(c->counter, 2L * ROUNDS);
}

/* rule: wdk.kmutex-free-after-keinitializemutex (mutation-checked: a wait that takes an owned mutex loses increments) */
static void a_mutex_excludes_a_second_thread(void **state)
{
    (void)state;
    static struct counting c;
    memset(&c, 0, sizeof c);
    KeInitializeMutex(&c.mutex, 0);
    count_with_two_threads(&c);
    assert_int_equal(KeReadStateMutex(&c.mutex), 1);
}

static void *release_from_here(void *arg)
{
    KeReleaseMutex(arg, FALSE);
    return NULL;
}

/* rule: wdk.kereleasemutex-thread-not-own-mutex (mutation-checked: a release by any thread fails it) */
static void releasing_a_mutex_not_owned_is_reported(void **state)
{
    (void)state;
    KMUTEX m, junk;
    KeInitializeMutex(&m, 0);
    memset(&junk, 0, sizeof junk);
    SIZE_T reports = wddm_wdk_reports();
    capture_start();
    KeReleaseMutex(&m, FALSE); /* free: nobody owns it */
    assert_int_equal(KeWaitForSingleObject(&m, Executive, KernelMode, FALSE, NULL), STATUS_SUCCESS);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, release_from_here, &m), 0); /* not the owner */
    pthread_join(t, NULL);
    NTSTATUS bad = KeWaitForSingleObject(&junk, Executive, KernelMode, FALSE, (PLARGE_INTEGER)&zero_timeout);
    const char *out = capture_end();
    assert_non_null(strstr(out, "KeReleaseMutex: mutex"));
    assert_non_null(strstr(out, "is not owned (STATUS_MUTANT_NOT_OWNED on Windows): left as it is"));
    assert_non_null(strstr(out, "is owned by another thread (STATUS_MUTANT_NOT_OWNED"));
    assert_non_null(strstr(out, "is not a KEVENT, KMUTEX or KTIMER initialized by its KeInitialize call"));
    assert_int_equal(bad, STATUS_INVALID_PARAMETER);
    assert_int_equal(wddm_wdk_reports(), reports + 3); /* each report counted */
    /* Still the owner's, and still free after its release. */
    assert_int_equal(KeReadStateMutex(&m), 0);
    assert_ptr_equal(m.OwnerThread, KeGetCurrentThread());
    assert_int_equal(KeReleaseMutex(&m, FALSE), 0);
    assert_int_equal(KeReadStateMutex(&m), 1);
}

/* ---- Fast mutexes --------------------------------------------------------------------------- */
static void *try_fast_mutex(void *arg)
{
    FAST_MUTEX *m = arg;
    BOOLEAN taken = ExTryToAcquireFastMutex(m);
    if (taken)
        ExReleaseFastMutex(m);
    return (void *)(uintptr_t)taken;
}

static BOOLEAN try_from_another_thread(FAST_MUTEX *m)
{
    pthread_t t;
    void *taken;
    assert_int_equal(pthread_create(&t, NULL, try_fast_mutex, m), 0);
    pthread_join(t, &taken);
    return (BOOLEAN)(uintptr_t)taken;
}

/* rule: wdk.exacquirefastmutex-waits-fast-mutex (mutation-checked: no raise, or a try that takes a held mutex, fails it) */
static void a_fast_mutex_raises_to_apc_level_and_excludes(void **state)
{
    (void)state;
    static struct counting c;
    memset(&c, 0, sizeof c);
    ExInitializeFastMutex(&c.fast);
    ExAcquireFastMutex(&c.fast);
    assert_int_equal(KeGetCurrentIrql(), APC_LEVEL);
    assert_false(try_from_another_thread(&c.fast)); /* held */
    ExReleaseFastMutex(&c.fast);
    assert_int_equal(KeGetCurrentIrql(), PASSIVE_LEVEL);
    assert_true(try_from_another_thread(&c.fast));
    /* A try that takes it raises too, and the release lowers. */
    assert_true(ExTryToAcquireFastMutex(&c.fast));
    assert_int_equal(KeGetCurrentIrql(), APC_LEVEL);
    ExReleaseFastMutex(&c.fast);
    assert_int_equal(KeGetCurrentIrql(), PASSIVE_LEVEL);
    c.use_fast = 1;
    count_with_two_threads(&c);
    assert_null(c.fast.Owner);
}

static void *release_fast_from_here(void *arg)
{
    ExReleaseFastMutex(arg);
    return NULL;
}

/* rule: wdk.fast-mutex-not-recursive-owner-second (mutation-checked: waiting on the second acquire trips its watchdog) */
static void fast_mutex_misuse_is_reported_not_a_deadlock(void **state)
{
    (void)state;
    FAST_MUTEX m, junk;
    ExInitializeFastMutex(&m);
    memset(&junk, 0, sizeof junk);
    KIRQL old;
    watchdog_start("a second acquire of a fast mutex by its owner", WATCHDOG_SECONDS);
    capture_start();
    ExAcquireFastMutex(&m);
    ExAcquireFastMutex(&m); /* recursive: Windows deadlocks */
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, release_fast_from_here, &m), 0); /* not the owner */
    pthread_join(t, NULL);
    ExReleaseFastMutex(&m);
    ExReleaseFastMutex(&m); /* the first release freed it */
    KeRaiseIrql(DISPATCH_LEVEL, &old);
    ExAcquireFastMutex(&m); /* above APC_LEVEL */
    ExReleaseFastMutex(&m);
    KeLowerIrql(old);
    ExAcquireFastMutex(&junk);
    const char *out = capture_end();
    watchdog_stop();
    assert_non_null(strstr(out, "is already held by this thread (not recursive: a deadlock on Windows)"));
    assert_non_null(strstr(out, "ExReleaseFastMutex: fast mutex"));
    assert_non_null(strstr(out, "is held by another thread: left as it is"));
    assert_non_null(strstr(out, "is not held: left as it is"));
    assert_non_null(strstr(out, "ExAcquireFastMutex: called at DISPATCH_LEVEL"));
    assert_non_null(strstr(out, "is not a FAST_MUTEX initialized with ExInitializeFastMutex"));
    assert_null(m.Owner);
    assert_int_equal(KeGetCurrentIrql(), PASSIVE_LEVEL);
}

/* ---- Timers --------------------------------------------------------------------------------- */
struct timer_dpc {
    atomic_int runs;
    KIRQL irql;
    PVOID context;
    KEVENT ran;
};

static VOID count_timer_dpc(KDPC *Dpc, PVOID DeferredContext, PVOID SystemArgument1, PVOID SystemArgument2)
{
    struct timer_dpc *r = DeferredContext;
    r->irql = KeGetCurrentIrql();
    r->context = DeferredContext;
    atomic_fetch_add(&r->runs, 1);
    KeSetEvent(&r->ran, IO_NO_INCREMENT, FALSE);
}

/* rule: wdk.kesettimer-kesettimerex-set-timer-not (mutation-checked: an early expiry, no DPC, or a cancel that leaves the timer set fails it) */
static void a_timer_signals_at_its_due_time_and_queues_its_dpc(void **state)
{
    (void)state;
    static struct timer_dpc r;
    memset(&r, 0, sizeof r);
    KeInitializeEvent(&r.ran, NotificationEvent, FALSE);
    KTIMER timer;
    KDPC dpc;
    KeInitializeTimer(&timer);
    KeInitializeDpc(&dpc, count_timer_dpc, &r);
    watchdog_start("a timer expiring", WATCHDOG_SECONDS);
    assert_false(KeReadStateTimer(&timer));
    LONGLONG t0 = now_100ns();
    assert_false(KeSetTimer(&timer, relative_ms(20), &dpc)); /* was not set */
    assert_false(KeReadStateTimer(&timer));
    assert_int_equal(KeWaitForSingleObject(&timer, Executive, KernelMode, FALSE, NULL), STATUS_SUCCESS);
    assert_true(now_100ns() - t0 >= 20 * 10000); /* not before its due time */
    /* A notification timer stays signalled: every wait is satisfied. */
    assert_true(KeReadStateTimer(&timer));
    assert_int_equal(KeWaitForSingleObject(&timer, Executive, KernelMode, FALSE, (PLARGE_INTEGER)&zero_timeout),
                     STATUS_SUCCESS);
    assert_int_equal(KeWaitForSingleObject(&r.ran, Executive, KernelMode, FALSE, NULL), STATUS_SUCCESS);
    KeFlushQueuedDpcs();
    assert_int_equal(atomic_load(&r.runs), 1);
    assert_int_equal(r.irql, DISPATCH_LEVEL);
    assert_ptr_equal(r.context, &r);
    /* Set again: not signalled; set while set: TRUE (the first setting replaced). */
    assert_false(KeSetTimer(&timer, relative_ms(60000), &dpc));
    assert_false(KeReadStateTimer(&timer));
    assert_true(KeSetTimer(&timer, relative_ms(60000), &dpc));
    /* Cancelled: TRUE once, and it never expires. */
    assert_true(KeCancelTimer(&timer));
    assert_false(KeCancelTimer(&timer));
    assert_int_equal(KeWaitForSingleObject(&timer, Executive, KernelMode, FALSE, &(LARGE_INTEGER){.QuadPart = -300000}),
                     STATUS_TIMEOUT);
    KeFlushQueuedDpcs();
    assert_int_equal(atomic_load(&r.runs), 1);
    watchdog_stop();
}

/* rule: wdk.kesettimer-kesettimerex-set-timer-not (mutation-checked: a synchronization timer not reset by its wait fails it) */
static void a_synchronization_timer_satisfies_one_wait_and_absolute_times_work(void **state)
{
    (void)state;
    KTIMER timer;
    KeInitializeTimerEx(&timer, SynchronizationTimer);
    watchdog_start("an absolute timer", WATCHDOG_SECONDS);
    LARGE_INTEGER due;
    KeQuerySystemTime(&due);
    due.QuadPart += 20 * 10000; /* an absolute system time 20 ms ahead */
    LONGLONG t0 = now_100ns();
    assert_false(KeSetTimer(&timer, due, NULL));
    assert_int_equal(KeWaitForSingleObject(&timer, Executive, KernelMode, FALSE, NULL), STATUS_SUCCESS);
    assert_true(now_100ns() - t0 >= 19 * 10000); /* the system clock's granularity aside */
    /* The wait took the signal. */
    assert_false(KeReadStateTimer(&timer));
    assert_int_equal(KeWaitForSingleObject(&timer, Executive, KernelMode, FALSE, (PLARGE_INTEGER)&zero_timeout),
                     STATUS_TIMEOUT);
    /* A due time already past expires at once. */
    KeQuerySystemTime(&due);
    due.QuadPart -= 10000000;
    KeSetTimer(&timer, due, NULL);
    assert_int_equal(KeWaitForSingleObject(&timer, Executive, KernelMode, FALSE, NULL), STATUS_SUCCESS);
    watchdog_stop();
}

/* rule: wdk.kesettimer-kesettimerex-set-timer-not */
static void a_periodic_timer_fires_until_cancelled(void **state)
{
    (void)state;
    static struct timer_dpc r;
    memset(&r, 0, sizeof r);
    KeInitializeEvent(&r.ran, SynchronizationEvent, FALSE);
    KTIMER timer;
    KDPC dpc;
    KeInitializeTimerEx(&timer, SynchronizationTimer);
    KeInitializeDpc(&dpc, count_timer_dpc, &r);
    watchdog_start("a periodic timer", WATCHDOG_SECONDS);
    KeSetTimerEx(&timer, relative_ms(5), 5, &dpc);
    /* Each period signals the timer again. */
    for (int i = 0; i < 3; i++)
        assert_int_equal(KeWaitForSingleObject(&timer, Executive, KernelMode, FALSE, NULL), STATUS_SUCCESS);
    while (atomic_load(&r.runs) < 3)
        KeWaitForSingleObject(&r.ran, Executive, KernelMode, FALSE, NULL);
    assert_true(KeCancelTimer(&timer));
    KeFlushQueuedDpcs();
    int runs = atomic_load(&r.runs);
    LARGE_INTEGER thirty = relative_ms(30);
    KeDelayExecutionThread(KernelMode, FALSE, &thirty);
    KeFlushQueuedDpcs();
    assert_int_equal(atomic_load(&r.runs), runs); /* no expiry after the cancel */
    watchdog_stop();
}

/* rule: wdk.timer-not-initialized-negative-period */
/* rule: wdk.objects-known-by-address-not-links (a KTIMER never initialized, one initialized again while set) */
static void timer_misuse_is_reported(void **state)
{
    (void)state;
    KTIMER timer, junk;
    memset(&junk, 0, sizeof junk);
    KeInitializeTimer(&timer);
    KIRQL old;
    SIZE_T reports = wddm_wdk_reports();
    capture_start();
    assert_false(KeSetTimer(&junk, relative_ms(1), NULL));
    assert_false(KeSetTimerEx(&timer, relative_ms(1), -5, NULL));
    KeRaiseIrql(HIGH_LEVEL, &old);
    assert_false(KeSetTimer(&timer, relative_ms(1), NULL));
    KeLowerIrql(old);
    /* Initialized again while set: cancelled, it never expires. */
    KeSetTimer(&timer, relative_ms(20), NULL);
    KeInitializeTimer(&timer);
    const char *out = capture_end();
    assert_non_null(strstr(out, "KeSetTimer: "));
    assert_non_null(strstr(out, "is not a KTIMER initialized with KeInitializeTimer(Ex)"));
    assert_non_null(strstr(out, "KeSetTimerEx: Period -5 must be >= 0: not set"));
    assert_non_null(strstr(out, "KeSetTimer: called at IRQL 15"));
    assert_non_null(strstr(out, "is set: initialized while in the timer queue"));
    assert_int_equal(wddm_wdk_reports(), reports + 4);
    assert_false(KeCancelTimer(&timer));
    assert_int_equal(KeWaitForSingleObject(&timer, Executive, KernelMode, FALSE, &(LARGE_INTEGER){.QuadPart = -400000}),
                     STATUS_TIMEOUT);
}

/* ---- Work items ----------------------------------------------------------------------------- */
static char device_storage[64]; /* the kernel's DEVICE_OBJECT is opaque: any address stands for one */
#define DEVICE ((PDEVICE_OBJECT)device_storage)

struct work_record {
    KIRQL irql;
    PDEVICE_OBJECT device;
    PVOID context;
    pthread_t thread;
    KEVENT done;
};

static VOID record_work(PDEVICE_OBJECT DeviceObject, PVOID Context)
{
    struct work_record *r = Context;
    r->irql = KeGetCurrentIrql();
    r->device = DeviceObject;
    r->context = Context;
    r->thread = pthread_self();
    KeSetEvent(&r->done, IO_NO_INCREMENT, FALSE);
}

/* rule: wdk.ioqueueworkitem-runs-routine-once-item (mutation-checked: the routine left at the queuer's IRQL fails it) */
static void a_work_item_runs_at_passive_level_on_a_worker_thread(void **state)
{
    (void)state;
    static struct work_record r;
    memset(&r, 0, sizeof r);
    KeInitializeEvent(&r.done, NotificationEvent, FALSE);
    SIZE_T items0 = wddm_pool_outstanding(WORK_ITEM_TAG);
    watchdog_start("a work item", WATCHDOG_SECONDS);
    KIRQL old;
    KeRaiseIrql(DISPATCH_LEVEL, &old); /* allocated and queued from a DPC's IRQL */
    PIO_WORKITEM item = IoAllocateWorkItem(DEVICE);
    assert_non_null(item);
    IoQueueWorkItem(item, record_work, DelayedWorkQueue, &r);
    KeLowerIrql(old);
    assert_int_equal(wddm_pool_outstanding(WORK_ITEM_TAG), items0 + 1); /* from the pool */
    assert_int_equal(KeWaitForSingleObject(&r.done, Executive, KernelMode, FALSE, NULL), STATUS_SUCCESS);
    assert_int_equal(r.irql, PASSIVE_LEVEL);
    assert_ptr_equal(r.device, DEVICE);
    assert_ptr_equal(r.context, &r);
    assert_false(pthread_equal(r.thread, pthread_self()));
    /* Ran: it may be queued again. */
    KeClearEvent(&r.done);
    IoQueueWorkItem(item, record_work, DelayedWorkQueue, &r);
    assert_int_equal(KeWaitForSingleObject(&r.done, Executive, KernelMode, FALSE, NULL), STATUS_SUCCESS);
    watchdog_stop();
    IoFreeWorkItem(item);
    assert_int_equal(wddm_pool_outstanding(WORK_ITEM_TAG), items0);
}

/* A routine that waits for an event another work item sets. */
static VOID wait_for_event(PDEVICE_OBJECT DeviceObject, PVOID Context)
{
    KeWaitForSingleObject(Context, Executive, KernelMode, FALSE, NULL);
}

static VOID set_event(PDEVICE_OBJECT DeviceObject, PVOID Context)
{
    KeSetEvent(Context, IO_NO_INCREMENT, FALSE);
}

static VOID free_itself(PDEVICE_OBJECT DeviceObject, PVOID Context)
{
    IoFreeWorkItem(Context); /* allowed: the item is no longer queued */
}

static void wait_for_items(SIZE_T items)
{
    LARGE_INTEGER ms = relative_ms(1);
    while (wddm_pool_outstanding(WORK_ITEM_TAG) != items)
        KeDelayExecutionThread(KernelMode, FALSE, &ms);
}

/* rule: wdk.ioqueueworkitem-runs-routine-once-item (mutation-checked: one worker only trips its watchdog) */
static void a_work_item_may_wait_for_a_later_one(void **state)
{
    (void)state;
    KEVENT go;
    KeInitializeEvent(&go, NotificationEvent, FALSE);
    SIZE_T items0 = wddm_pool_outstanding(WORK_ITEM_TAG);
    watchdog_start("a work item waiting for a later one", WATCHDOG_SECONDS);
    PIO_WORKITEM waiter = IoAllocateWorkItem(DEVICE), setter = IoAllocateWorkItem(DEVICE);
    IoQueueWorkItem(waiter, wait_for_event, DelayedWorkQueue, &go);
    IoQueueWorkItem(setter, set_event, DelayedWorkQueue, &go); /* runs on a second worker */
    PIO_WORKITEM self = IoAllocateWorkItem(DEVICE);
    IoQueueWorkItem(self, free_itself, DelayedWorkQueue, self);
    assert_int_equal(KeWaitForSingleObject(&go, Executive, KernelMode, FALSE, NULL), STATUS_SUCCESS);
    wait_for_items(items0 + 2); /* the one that freed itself is gone */
    watchdog_stop();
    IoFreeWorkItem(waiter); /* not queued any more (its routine may still be returning) */
    IoFreeWorkItem(setter);
    assert_int_equal(wddm_pool_outstanding(WORK_ITEM_TAG), items0);
}

static VOID return_raised(PDEVICE_OBJECT DeviceObject, PVOID Context)
{
    KIRQL old;
    KeRaiseIrql(DISPATCH_LEVEL, &old);
    KeSetEvent(Context, IO_NO_INCREMENT, FALSE);
}

/* rule: wdk.queueing-item-queued-already-freeing (mutation-checked: freeing a queued item at once, or queueing it twice, fails it) */
/* rule: wdk.objects-known-by-address-not-links (a freed work item) */
static void work_item_misuse_is_reported(void **state)
{
    (void)state;
    KEVENT release, done;
    KeInitializeEvent(&release, NotificationEvent, FALSE);
    KeInitializeEvent(&done, NotificationEvent, FALSE);
    SIZE_T items0 = wddm_pool_outstanding(WORK_ITEM_TAG);
    watchdog_start("work items kept queued behind busy workers", WATCHDOG_SECONDS);
    /* Every worker busy, so the next item stays queued. */
    PIO_WORKITEM busy[WDDM_WORK_ITEM_THREADS];
    for (int i = 0; i < WDDM_WORK_ITEM_THREADS; i++) {
        busy[i] = IoAllocateWorkItem(DEVICE);
        IoQueueWorkItem(busy[i], wait_for_event, DelayedWorkQueue, &release);
    }
    PIO_WORKITEM queued = IoAllocateWorkItem(DEVICE), raised = IoAllocateWorkItem(DEVICE);
    SIZE_T reports = wddm_wdk_reports();
    capture_start();
    IoQueueWorkItem(queued, set_event, DelayedWorkQueue, &done);
    IoQueueWorkItem(queued, set_event, DelayedWorkQueue, &done); /* queued already */
    IoFreeWorkItem(queued);                                      /* queued: freed after its routine */
    IoFreeWorkItem(queued);                                      /* freed already */
    IoQueueWorkItem(queued, set_event, DelayedWorkQueue, &done); /* freed */
    const char *out = capture_end();
    assert_non_null(strstr(out, "is queued already (Windows corrupts its work queue): not queued"));
    assert_non_null(strstr(out, "is queued (its routine has not run; Windows frees it under the worker): freed "
                                "once its routine has returned"));
    assert_non_null(strstr(out, "IoFreeWorkItem: work item"));
    assert_non_null(strstr(out, "was freed already: nothing done"));
    assert_non_null(strstr(out, "was freed (IoFreeWorkItem): not queued"));
    assert_int_equal(wddm_wdk_reports(), reports + 4);
    assert_int_equal(wddm_pool_outstanding(WORK_ITEM_TAG), items0 + WDDM_WORK_ITEM_THREADS + 2);
    KeSetEvent(&release, IO_NO_INCREMENT, FALSE);
    assert_int_equal(KeWaitForSingleObject(&done, Executive, KernelMode, FALSE, NULL), STATUS_SUCCESS);
    wait_for_items(items0 + WDDM_WORK_ITEM_THREADS + 1); /* the queued one, freed once it ran */
    /* A routine that returns raised: reported, and the worker goes on at PASSIVE_LEVEL. */
    KeClearEvent(&done);
    reports = wddm_wdk_reports();
    capture_start();
    IoQueueWorkItem(raised, return_raised, DelayedWorkQueue, &done);
    KeWaitForSingleObject(&done, Executive, KernelMode, FALSE, NULL);
    LARGE_INTEGER ms = relative_ms(1);
    while (wddm_wdk_reports() == reports) /* the worker reports once the routine has returned */
        KeDelayExecutionThread(KernelMode, FALSE, &ms);
    out = capture_end();
    watchdog_stop();
    assert_non_null(strstr(out, "returned at DISPATCH_LEVEL: it must return at PASSIVE_LEVEL "
                                "(WORKER_THREAD_RETURNED_AT_BAD_IRQL on Windows)"));
    for (int i = 0; i < WDDM_WORK_ITEM_THREADS; i++)
        IoFreeWorkItem(busy[i]);
    IoFreeWorkItem(raised);
    assert_int_equal(wddm_pool_outstanding(WORK_ITEM_TAG), items0);
    capture_start();
    IoFreeWorkItem(raised); /* not live */
    out = capture_end();
    assert_non_null(strstr(out, "is not a live work item of IoAllocateWorkItem"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_mutex_is_taken_by_a_wait_and_recursive_for_its_owner),
        cmocka_unit_test(a_mutex_excludes_a_second_thread),
        cmocka_unit_test(releasing_a_mutex_not_owned_is_reported),
        cmocka_unit_test(a_fast_mutex_raises_to_apc_level_and_excludes),
        cmocka_unit_test(fast_mutex_misuse_is_reported_not_a_deadlock),
        cmocka_unit_test(a_timer_signals_at_its_due_time_and_queues_its_dpc),
        cmocka_unit_test(a_synchronization_timer_satisfies_one_wait_and_absolute_times_work),
        cmocka_unit_test(a_periodic_timer_fires_until_cancelled),
        cmocka_unit_test(timer_misuse_is_reported),
        cmocka_unit_test(a_work_item_runs_at_passive_level_on_a_worker_thread),
        cmocka_unit_test(a_work_item_may_wait_for_a_later_one),
        cmocka_unit_test(work_item_misuse_is_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
