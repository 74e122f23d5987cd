/*
 * test_events.c - Win32 event objects (include/wddm/winevent.h, src/common/event.c; docs/api.md
 * "Win32 events", docs/rules/common.md): manual and auto reset, the initial state, wait-any's lowest
 * index, wait-all's all-or-nothing, timeouts of 0, blocked waiters released by SetEvent from
 * another thread (one per SetEvent for an auto-reset event), handle validation (closed, stale,
 * forged), the library's own interface (wddm_event_get / signal / put) across a CloseHandle,
 * argument checks, named events and allocation failure.
 * No timed assertion: a wait with timeout 0 only looks; a blocked waiter is a thread the test
 * sees queued (wddm_event_waiter_count) before it signals, and joins after.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <string.h>
#include <time.h>

/* The Win32 names come with the D3D headers, as with <windows.h> on Windows. */
#include <d3d11.h>
#include <wddm/wddm.h>

#include "common/event.h"
#include "watchdog.h"

enum { WATCHDOG_SECONDS = 120 };

static HANDLE event(BOOL manual, BOOL initial)
{
    HANDLE h = CreateEventW(NULL, manual, initial, NULL);
    assert_non_null(h);
    return h;
}

static void close_event(HANDLE h)
{
    assert_true(CloseHandle(h));
}

static struct wddm_event *ref(HANDLE h)
{
    struct wddm_event *e = wddm_event_get(h);
    assert_non_null(e);
    return e;
}

/* Blocks until n waits are queued on the event: the waiting threads are really blocked. */
static void await_waiters(struct wddm_event *e, unsigned n)
{
    const struct timespec tick = { 0, 100000 };
    while (wddm_event_waiter_count(e) < n)
        nanosleep(&tick, NULL);
}

struct waiter {
    DWORD n;
    HANDLE h[4];
    BOOL all;
    DWORD result;
    pthread_t thread;
};

static void *waiter_main(void *arg)
{
    struct waiter *w = arg;
    w->result = w->n == 1 ? WaitForSingleObject(w->h[0], INFINITE)
                          : WaitForMultipleObjects(w->n, w->h, w->all, INFINITE);
    return NULL;
}

static void waiter_start(struct waiter *w)
{
    w->result = 0xDEADu;
    assert_int_equal(pthread_create(&w->thread, NULL, waiter_main, w), 0);
}

static DWORD waiter_join(struct waiter *w)
{
    assert_int_equal(pthread_join(w->thread, NULL), 0);
    return w->result;
}

static void refusal_names(const char *what)
{
    char why[1024];
    wddm_last_refusals(why, sizeof why);
    if (!strstr(why, what))
        fail_msg("the refusal lines \"%s\" do not contain \"%s\"", why, what);
}

/* First in the list: the process's first CreateEvent also allocates the handle table's first
 * chunk, so the sweep meets all three allocations of a named creation (event, name, chunk). */
/* rule: common.creation-without-memory-answers-null */
static void test_creation_without_memory_returns_null_and_leaves_nothing(void **state)
{
    (void)state;
    long long n = 0;
    for (;; n++) {
        SetLastError(12345);
        wddm_test_fail_alloc_after(n);
        HANDLE h = CreateEventW(NULL, FALSE, FALSE, u"alloc-sweep");
        DWORD err = GetLastError();
        unsigned long long injected = wddm_test_alloc_failures_injected();
        wddm_test_fail_alloc_after(-1);
        if (!injected) {
            assert_non_null(h);
            assert_int_equal(err, ERROR_SUCCESS); /* a new name, not a failed one left behind */
            close_event(h);
            break;
        }
        assert_null(h);
        assert_int_equal(err, ERROR_NOT_ENOUGH_MEMORY);
    }
    assert_int_equal(n, 3);
}

/* rule: common.auto-reset-satisfied-wait-resets-event */
static void test_manual_reset_stays_signalled_until_reset(void **state)
{
    (void)state;
    HANDLE h = event(TRUE, TRUE); /* initially set */
    assert_int_equal(WaitForSingleObject(h, 0), WAIT_OBJECT_0);
    assert_int_equal(WaitForSingleObject(h, 0), WAIT_OBJECT_0); /* a wait does not reset it */
    assert_true(ResetEvent(h));
    assert_int_equal(WaitForSingleObject(h, 0), WAIT_TIMEOUT);
    assert_true(SetEvent(h));
    assert_true(SetEvent(h));
    assert_int_equal(WaitForSingleObject(h, INFINITE), WAIT_OBJECT_0);
    assert_int_equal(WaitForSingleObject(h, 0), WAIT_OBJECT_0);
    close_event(h);

    h = event(TRUE, FALSE); /* initially not set */
    assert_int_equal(WaitForSingleObject(h, 0), WAIT_TIMEOUT);
    close_event(h);
}

/* rule: common.auto-reset-satisfied-wait-resets-event (mutation-checked: no reset fails it) */
static void test_auto_reset_is_taken_by_one_satisfied_wait(void **state)
{
    (void)state;
    HANDLE h = event(FALSE, TRUE);
    assert_int_equal(WaitForSingleObject(h, 0), WAIT_OBJECT_0);
    assert_int_equal(WaitForSingleObject(h, 0), WAIT_TIMEOUT); /* the wait reset it */
    /* Setting an event that is already set has no effect: two sets, one wait's worth. */
    assert_true(SetEvent(h));
    assert_true(SetEvent(h));
    assert_int_equal(WaitForSingleObject(h, INFINITE), WAIT_OBJECT_0);
    assert_int_equal(WaitForSingleObject(h, 0), WAIT_TIMEOUT);
    assert_true(SetEvent(h));
    assert_true(ResetEvent(h));
    assert_int_equal(WaitForSingleObject(h, 0), WAIT_TIMEOUT);
    close_event(h);
}

/* rule: common.creation-without-memory-answers-null */
static void test_create_event_ex_flags(void **state)
{
    (void)state;
    HANDLE h = CreateEventExW(NULL, NULL, CREATE_EVENT_MANUAL_RESET | CREATE_EVENT_INITIAL_SET, EVENT_ALL_ACCESS);
    assert_non_null(h);
    assert_int_equal(WaitForSingleObject(h, 0), WAIT_OBJECT_0);
    assert_int_equal(WaitForSingleObject(h, 0), WAIT_OBJECT_0); /* manual */
    close_event(h);
    h = CreateEventExA(NULL, NULL, 0, SYNCHRONIZE | EVENT_MODIFY_STATE);
    assert_non_null(h);
    assert_int_equal(WaitForSingleObject(h, 0), WAIT_TIMEOUT);
    assert_true(SetEvent(h));
    assert_int_equal(WaitForSingleObject(h, 0), WAIT_OBJECT_0);
    assert_int_equal(WaitForSingleObject(h, 0), WAIT_TIMEOUT); /* auto */
    close_event(h);
    SetLastError(0);
    assert_null(CreateEventExW(NULL, NULL, 0x4, EVENT_ALL_ACCESS));
    assert_int_equal(GetLastError(), ERROR_INVALID_PARAMETER);
}

/* rule: common.handle-validation-event-handle-table */
static void test_handles_are_small_aligned_values(void **state)
{
    (void)state;
    HANDLE h[8];
    for (int i = 0; i < 8; i++) {
        h[i] = event(FALSE, FALSE);
        assert_true(h[i] != NtCurrentProcess());
        assert_int_equal((uintptr_t)h[i] % 4, 0);
        assert_true((uintptr_t)h[i] <= 0x7FFFFFFFu); /* survives a DWORD and a sign extension */
        for (int j = 0; j < i; j++)
            assert_true(h[i] != h[j]);
    }
    for (int i = 0; i < 8; i++)
        close_event(h[i]);
}

/* rule: common.auto-reset-satisfied-wait-resets-event */
/* rule: common.wait-answers-wait-object-0-lowest */
static void test_wait_any_answers_the_lowest_signalled_index(void **state)
{
    (void)state;
    HANDLE m[3] = { event(TRUE, FALSE), event(TRUE, FALSE), event(TRUE, FALSE) };
    assert_int_equal(WaitForMultipleObjects(3, m, FALSE, 0), WAIT_TIMEOUT);
    assert_true(SetEvent(m[2]));
    assert_int_equal(WaitForMultipleObjects(3, m, FALSE, 0), WAIT_OBJECT_0 + 2);
    assert_true(SetEvent(m[1]));
    assert_int_equal(WaitForMultipleObjects(3, m, FALSE, 0), WAIT_OBJECT_0 + 1);
    assert_int_equal(WaitForMultipleObjects(3, m, FALSE, INFINITE), WAIT_OBJECT_0 + 1);
    /* Auto-reset: only the object that satisfied the wait is reset. */
    HANDLE a[3] = { event(FALSE, TRUE), event(FALSE, FALSE), event(FALSE, TRUE) };
    assert_int_equal(WaitForMultipleObjects(3, a, FALSE, 0), WAIT_OBJECT_0);
    assert_int_equal(WaitForMultipleObjects(3, a, FALSE, 0), WAIT_OBJECT_0 + 2);
    assert_int_equal(WaitForMultipleObjects(3, a, FALSE, 0), WAIT_TIMEOUT);
    /* The same event twice is harmless for wait-any. */
    HANDLE twice[2] = { a[1], a[1] };
    assert_true(SetEvent(a[1]));
    assert_int_equal(WaitForMultipleObjects(2, twice, FALSE, 0), WAIT_OBJECT_0);
    for (int i = 0; i < 3; i++) {
        close_event(m[i]);
        close_event(a[i]);
    }
}

/* rule: common.wait-all-atomicity (mutation-checked: taking the signalled ones of an unsatisfied set fails it) */
static void test_wait_all_takes_every_event_or_none(void **state)
{
    (void)state;
    HANDLE h[2] = { event(FALSE, TRUE), event(FALSE, FALSE) }; /* auto, set; auto, not set */
    assert_int_equal(WaitForMultipleObjects(2, h, TRUE, 0), WAIT_TIMEOUT);
    /* The signalled one was not taken by the wait that could not be satisfied. */
    assert_int_equal(WaitForSingleObject(h[0], 0), WAIT_OBJECT_0);
    assert_true(SetEvent(h[0]));
    assert_true(SetEvent(h[1]));
    assert_int_equal(WaitForMultipleObjects(2, h, TRUE, 0), WAIT_OBJECT_0);
    /* Both auto-reset events were taken. */
    assert_int_equal(WaitForSingleObject(h[0], 0), WAIT_TIMEOUT);
    assert_int_equal(WaitForSingleObject(h[1], 0), WAIT_TIMEOUT);
    /* A manual-reset member stays set. */
    HANDLE mixed[2] = { h[0], event(TRUE, TRUE) };
    assert_true(SetEvent(h[0]));
    assert_int_equal(WaitForMultipleObjects(2, mixed, TRUE, 0), WAIT_OBJECT_0);
    assert_int_equal(WaitForSingleObject(mixed[1], 0), WAIT_OBJECT_0);
    assert_int_equal(WaitForSingleObject(h[0], 0), WAIT_TIMEOUT);
    close_event(mixed[1]);
    close_event(h[0]);
    close_event(h[1]);
}

/* rule: common.wait-all-atomicity */
static void test_blocked_wait_all_leaves_a_lone_signal_alone(void **state)
{
    (void)state;
    assert_int_equal(watchdog_start("blocked wait-all released by its last event", WATCHDOG_SECONDS), 0);
    struct waiter w = { .n = 2, .h = { event(FALSE, FALSE), event(FALSE, FALSE) }, .all = TRUE };
    struct wddm_event *a = ref(w.h[0]), *b = ref(w.h[1]);
    waiter_start(&w);
    await_waiters(a, 1);
    await_waiters(b, 1);
    /* One of two set: the blocked wait-all must not take it; this thread can. */
    assert_true(SetEvent(w.h[0]));
    assert_int_equal(WaitForSingleObject(w.h[0], 0), WAIT_OBJECT_0);
    assert_int_equal(wddm_event_waiter_count(a), 1);
    assert_true(SetEvent(w.h[1]));
    assert_int_equal(WaitForSingleObject(w.h[1], 0), WAIT_OBJECT_0);
    /* Both set: the waiter takes both at once. */
    assert_true(SetEvent(w.h[1]));
    assert_true(SetEvent(w.h[0]));
    assert_int_equal(waiter_join(&w), WAIT_OBJECT_0);
    assert_int_equal(WaitForSingleObject(w.h[0], 0), WAIT_TIMEOUT);
    assert_int_equal(WaitForSingleObject(w.h[1], 0), WAIT_TIMEOUT);
    assert_int_equal(wddm_event_waiter_count(a) + wddm_event_waiter_count(b), 0);
    wddm_event_put(a);
    wddm_event_put(b);
    close_event(w.h[0]);
    close_event(w.h[1]);
    watchdog_stop();
}

/* rule: common.wait-all-atomicity */
static void test_wait_all_refuses_the_same_event_twice(void **state)
{
    (void)state;
    HANDLE h = event(FALSE, TRUE);
    HANDLE twice[2] = { h, h };
    SetLastError(0);
    assert_int_equal(WaitForMultipleObjects(2, twice, TRUE, 0), WAIT_FAILED);
    assert_int_equal(GetLastError(), ERROR_INVALID_PARAMETER);
    assert_int_equal(WaitForSingleObject(h, 0), WAIT_OBJECT_0); /* untouched */
    close_event(h);
}

/* rule: common.wait-answers-wait-object-0-lowest */
static void test_a_timeout_of_zero_only_looks(void **state)
{
    (void)state;
    HANDLE h[2] = { event(FALSE, FALSE), event(TRUE, FALSE) };
    assert_int_equal(WaitForSingleObject(h[0], 0), WAIT_TIMEOUT);
    assert_int_equal(WaitForMultipleObjects(2, h, FALSE, 0), WAIT_TIMEOUT);
    assert_int_equal(WaitForMultipleObjects(2, h, TRUE, 0), WAIT_TIMEOUT);
    /* A short timeout ends in WAIT_TIMEOUT too (how long it took is not asserted). */
    assert_int_equal(WaitForSingleObject(h[1], 5), WAIT_TIMEOUT);
    assert_int_equal(WaitForMultipleObjects(2, h, FALSE, 5), WAIT_TIMEOUT);
    assert_int_equal(WaitForMultipleObjects(2, h, TRUE, 5), WAIT_TIMEOUT);
    struct wddm_event *e = ref(h[0]);
    assert_int_equal(wddm_event_waiter_count(e), 0); /* the timed-out waits left no entry */
    wddm_event_put(e);
    close_event(h[0]);
    close_event(h[1]);
}

/* rule: common.wait-answers-wait-object-0-lowest */
static void test_a_blocked_waiter_is_released_by_set_event_from_another_thread(void **state)
{
    (void)state;
    assert_int_equal(watchdog_start("a blocked waiter released by SetEvent", WATCHDOG_SECONDS), 0);
    struct waiter w = { .n = 1, .h = { event(FALSE, FALSE) } };
    struct wddm_event *e = ref(w.h[0]);
    waiter_start(&w);
    await_waiters(e, 1);
    assert_true(SetEvent(w.h[0]));
    assert_int_equal(waiter_join(&w), WAIT_OBJECT_0);
    assert_int_equal(WaitForSingleObject(w.h[0], 0), WAIT_TIMEOUT); /* the release took it */
    /* Wait-any over two, released by the second: its index. */
    struct waiter any = { .n = 2, .h = { event(FALSE, FALSE), w.h[0] } };
    waiter_start(&any);
    await_waiters(e, 1);
    assert_true(SetEvent(w.h[0]));
    assert_int_equal(waiter_join(&any), WAIT_OBJECT_0 + 1);
    wddm_event_put(e);
    close_event(any.h[0]);
    close_event(w.h[0]);
    watchdog_stop();
}

/* rule: common.auto-reset-satisfied-wait-resets-event (mutation-checked: a walk that does not stop at the hand-over fails it) */
static void test_one_set_of_an_auto_reset_event_releases_one_waiter(void **state)
{
    (void)state;
    assert_int_equal(watchdog_start("two waiters released by two SetEvents", WATCHDOG_SECONDS), 0);
    HANDLE h = event(FALSE, FALSE);
    struct wddm_event *e = ref(h);
    struct waiter w[2] = { { .n = 1, .h = { h } }, { .n = 1, .h = { h } } };
    waiter_start(&w[0]);
    waiter_start(&w[1]);
    await_waiters(e, 2);
    assert_true(SetEvent(h));
    /* One was released (its wait handed over and dequeued); the other still waits, and the
     * signal went to the released one: nothing is left set. */
    assert_int_equal(wddm_event_waiter_count(e), 1);
    assert_int_equal(WaitForSingleObject(h, 0), WAIT_TIMEOUT);
    assert_true(SetEvent(h));
    assert_int_equal(waiter_join(&w[0]), WAIT_OBJECT_0);
    assert_int_equal(waiter_join(&w[1]), WAIT_OBJECT_0);
    assert_int_equal(WaitForSingleObject(h, 0), WAIT_TIMEOUT);
    wddm_event_put(e);
    close_event(h);
    watchdog_stop();
}

/* rule: common.auto-reset-satisfied-wait-resets-event */
static void test_one_set_of_a_manual_reset_event_releases_every_waiter(void **state)
{
    (void)state;
    assert_int_equal(watchdog_start("three waiters released by one SetEvent", WATCHDOG_SECONDS), 0);
    HANDLE h = event(TRUE, FALSE);
    struct wddm_event *e = ref(h);
    struct waiter w[3];
    for (int i = 0; i < 3; i++) {
        w[i] = (struct waiter){ .n = 1, .h = { h } };
        waiter_start(&w[i]);
    }
    await_waiters(e, 3);
    assert_true(SetEvent(h));
    for (int i = 0; i < 3; i++)
        assert_int_equal(waiter_join(&w[i]), WAIT_OBJECT_0);
    assert_int_equal(WaitForSingleObject(h, 0), WAIT_OBJECT_0);
    wddm_event_put(e);
    close_event(h);
    watchdog_stop();
}

static void assert_invalid_handle(HANDLE h)
{
    SetLastError(0);
    assert_false(SetEvent(h));
    assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
    SetLastError(0);
    assert_false(ResetEvent(h));
    assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
    SetLastError(0);
    assert_int_equal(WaitForSingleObject(h, 0), WAIT_FAILED);
    assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
    SetLastError(0);
    assert_int_equal(WaitForSingleObject(h, INFINITE), WAIT_FAILED);
    assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
    SetLastError(0);
    assert_false(CloseHandle(h));
    assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
    assert_null(wddm_event_get(h));
}

/* rule: common.handle-validation-event-handle-table */
static void test_a_closed_handle_is_refused(void **state)
{
    (void)state;
    HANDLE h = event(FALSE, TRUE);
    close_event(h);
    wddm_clear_refusals();
    assert_false(SetEvent(h));
    refusal_names("SetEvent: handle");
    refusal_names("names no open event");
    assert_invalid_handle(h);
    refusal_names("CloseHandle: handle");
    /* A bad handle in a multiple wait fails the whole wait and takes nothing. */
    HANDLE ok = event(FALSE, TRUE);
    HANDLE pair[2] = { ok, h };
    SetLastError(0);
    assert_int_equal(WaitForMultipleObjects(2, pair, FALSE, 0), WAIT_FAILED);
    assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
    assert_int_equal(WaitForMultipleObjects(2, pair, TRUE, 0), WAIT_FAILED);
    assert_int_equal(WaitForSingleObject(ok, 0), WAIT_OBJECT_0);
    close_event(ok);
}

static HANDLE table_fill[1u << 14];

/* rule: common.handle-validation-event-handle-table (fills the table so the stale handle's slot is reused; mutation-checked: ignoring the generation fails it) */
static void test_forged_and_stale_handles_are_refused(void **state)
{
    (void)state;
    assert_invalid_handle(NULL);
    assert_invalid_handle(NtCurrentProcess());
    assert_invalid_handle((HANDLE)(uintptr_t)0x12345678u);
    assert_invalid_handle((HANDLE)(uintptr_t)4);
    HANDLE live = event(TRUE, FALSE);
    assert_invalid_handle((HANDLE)((uintptr_t)live + 1)); /* not 4-aligned */
    assert_invalid_handle((HANDLE)((uintptr_t)live | ((uintptr_t)1 << 40)));
    assert_invalid_handle((HANDLE)((uintptr_t)live ^ 0x80000000u));
    assert_invalid_handle((HANDLE)((uintptr_t)live ^ 0x00010000u)); /* another generation of its slot */
    assert_int_equal(WaitForSingleObject(live, 0), WAIT_TIMEOUT); /* still fine */
    /* A stale handle stays refused after its slot is reused: fill the table, so that every
     * slot that was free, the stale handle's too, now names another event. */
    HANDLE stale = event(FALSE, TRUE);
    close_event(stale);
    size_t n = 0;
    SetLastError(0);
    while (n < sizeof table_fill / sizeof table_fill[0] && (table_fill[n] = CreateEventW(NULL, FALSE, FALSE, NULL)))
        n++;
    assert_int_equal(GetLastError(), ERROR_NO_SYSTEM_RESOURCES);
    assert_true(n > 16000);
    for (size_t i = 0; i < n; i++)
        assert_true(table_fill[i] != stale);
    assert_invalid_handle(stale);
    assert_true(SetEvent(table_fill[n - 1]));
    assert_int_equal(WaitForSingleObject(table_fill[n - 1], 0), WAIT_OBJECT_0);
    for (size_t i = 0; i < n; i++)
        close_event(table_fill[i]);
    close_event(live);
}

static void *close_then_signal_waiter(void *arg)
{
    struct waiter *w = arg;
    w->result = WaitForSingleObject(w->h[0], INFINITE);
    return NULL;
}

/* rule: common.event-lives-while-referenced-closehandle */
static void test_a_wait_outlives_the_close_of_its_handle(void **state)
{
    (void)state;
    assert_int_equal(watchdog_start("a waiter on a closed handle woken through wddm_event_signal", WATCHDOG_SECONDS),
                     0);
    struct waiter w = { .n = 1, .h = { event(FALSE, FALSE) } };
    struct wddm_event *e = ref(w.h[0]); /* as the kernel keeps a notification's event */
    assert_int_equal(pthread_create(&w.thread, NULL, close_then_signal_waiter, &w), 0);
    await_waiters(e, 1);
    close_event(w.h[0]);
    /* The handle is gone for new calls; the event is not. */
    assert_false(SetEvent(w.h[0]));
    assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
    assert_int_equal(wddm_event_waiter_count(e), 1);
    wddm_event_signal(e);
    assert_int_equal(waiter_join(&w), WAIT_OBJECT_0);
    wddm_event_put(e); /* the last reference: frees it (ASan: nothing touched it after) */
    watchdog_stop();
}

/* rule: common.event-lives-while-referenced-closehandle (ASan build: no use after free) */
static void test_the_library_interface_gets_signals_and_puts(void **state)
{
    (void)state;
    assert_null(wddm_event_get(NULL));
    assert_null(wddm_event_get((HANDLE)(uintptr_t)0x12345678u));
    wddm_event_put(NULL);
    wddm_event_signal(NULL);
    HANDLE h = event(FALSE, FALSE);
    struct wddm_event *e = ref(h), *again = ref(h);
    assert_ptr_equal(e, again);
    wddm_event_put(again);
    wddm_event_signal(e);
    wddm_event_signal(e); /* already set: no effect */
    assert_int_equal(WaitForSingleObject(h, 0), WAIT_OBJECT_0);
    assert_int_equal(WaitForSingleObject(h, 0), WAIT_TIMEOUT);
    close_event(h);
    wddm_event_signal(e); /* after the close, through the reference */
    assert_int_equal(wddm_event_waiter_count(e), 0);
    wddm_event_put(e);
}

/* rule: common.wait-answers-wait-object-0-lowest */
static void test_wait_counts_and_arrays_are_checked(void **state)
{
    (void)state;
    HANDLE h[MAXIMUM_WAIT_OBJECTS + 1];
    for (int i = 0; i <= MAXIMUM_WAIT_OBJECTS; i++)
        h[i] = event(TRUE, TRUE);
    wddm_clear_refusals();
    SetLastError(0);
    assert_int_equal(WaitForMultipleObjects(0, h, FALSE, 0), WAIT_FAILED);
    assert_int_equal(GetLastError(), ERROR_INVALID_PARAMETER);
    refusal_names("nCount must be 1..MAXIMUM_WAIT_OBJECTS");
    SetLastError(0);
    assert_int_equal(WaitForMultipleObjects(MAXIMUM_WAIT_OBJECTS + 1, h, TRUE, 0), WAIT_FAILED);
    assert_int_equal(GetLastError(), ERROR_INVALID_PARAMETER);
    SetLastError(0);
    assert_int_equal(WaitForMultipleObjects(1, NULL, FALSE, 0), WAIT_FAILED);
    assert_int_equal(GetLastError(), ERROR_INVALID_PARAMETER);
    assert_int_equal(WaitForMultipleObjects(MAXIMUM_WAIT_OBJECTS, h, TRUE, 0), WAIT_OBJECT_0);
    assert_int_equal(WaitForMultipleObjects(MAXIMUM_WAIT_OBJECTS, h, FALSE, INFINITE), WAIT_OBJECT_0);
    for (int i = 0; i <= MAXIMUM_WAIT_OBJECTS; i++)
        close_event(h[i]);
}

/* rule: common.names-existing-name-opens-event-new */
static void test_a_name_opens_the_existing_event(void **state)
{
    (void)state;
    SetLastError(99);
    HANDLE a = CreateEventW(NULL, FALSE, FALSE, u"frame-done");
    assert_non_null(a);
    assert_int_equal(GetLastError(), ERROR_SUCCESS);
    /* The same name: the same event (its own handle), its reset mode and state kept. */
    HANDLE b = CreateEventW(NULL, TRUE, TRUE, u"frame-done");
    assert_non_null(b);
    assert_int_equal(GetLastError(), ERROR_ALREADY_EXISTS);
    assert_true(a != b);
    assert_int_equal(WaitForSingleObject(b, 0), WAIT_TIMEOUT);
    assert_true(SetEvent(a));
    assert_int_equal(WaitForSingleObject(b, 0), WAIT_OBJECT_0);
    assert_int_equal(WaitForSingleObject(a, 0), WAIT_TIMEOUT); /* auto-reset, as created */
    HANDLE c = CreateEventA(NULL, FALSE, FALSE, "Local\\frame-done"); /* the session namespace */
    assert_int_equal(GetLastError(), ERROR_ALREADY_EXISTS);
    HANDLE g = CreateEventW(NULL, FALSE, FALSE, u"Global\\frame-done"); /* another namespace */
    assert_int_equal(GetLastError(), ERROR_SUCCESS);
    HANDLE other = CreateEventW(NULL, FALSE, FALSE, u"Frame-done"); /* case sensitive */
    assert_int_equal(GetLastError(), ERROR_SUCCESS);
    assert_true(SetEvent(c));
    assert_int_equal(WaitForSingleObject(g, 0), WAIT_TIMEOUT);
    assert_int_equal(WaitForSingleObject(other, 0), WAIT_TIMEOUT);
    assert_int_equal(WaitForSingleObject(a, 0), WAIT_OBJECT_0);
    /* Two handles of one event in one wait-all are the same event twice. */
    HANDLE both[2] = { a, b };
    assert_int_equal(WaitForMultipleObjects(2, both, TRUE, 0), WAIT_FAILED);
    close_event(a);
    close_event(b);
    close_event(c);
    close_event(g);
    close_event(other);
    /* The last handle closed, the name is free: a new event. */
    a = CreateEventA(NULL, FALSE, FALSE, "frame-done");
    assert_int_equal(GetLastError(), ERROR_SUCCESS);
    close_event(a);
    /* An empty name is no name. */
    a = CreateEventW(NULL, FALSE, FALSE, u"");
    b = CreateEventW(NULL, FALSE, FALSE, u"");
    assert_int_equal(GetLastError(), ERROR_SUCCESS);
    assert_true(SetEvent(a));
    assert_int_equal(WaitForSingleObject(b, 0), WAIT_TIMEOUT);
    close_event(a);
    close_event(b);
}

/* rule: common.names-existing-name-opens-event-new */
static void test_bad_names_are_refused(void **state)
{
    (void)state;
    SetLastError(0);
    assert_null(CreateEventW(NULL, FALSE, FALSE, u"frames\\done"));
    assert_int_equal(GetLastError(), ERROR_PATH_NOT_FOUND);
    char longname[MAX_PATH + 2];
    memset(longname, 'x', sizeof longname - 1);
    longname[MAX_PATH + 1] = 0; /* MAX_PATH + 1 characters */
    SetLastError(0);
    assert_null(CreateEventA(NULL, FALSE, FALSE, longname));
    assert_int_equal(GetLastError(), ERROR_FILENAME_EXCED_RANGE);
    WCHAR wlong[MAX_PATH + 2];
    for (int i = 0; i <= MAX_PATH; i++)
        wlong[i] = 'x';
    wlong[MAX_PATH + 1] = 0;
    SetLastError(0);
    assert_null(CreateEventW(NULL, FALSE, FALSE, wlong));
    assert_int_equal(GetLastError(), ERROR_FILENAME_EXCED_RANGE);
    longname[MAX_PATH] = 0; /* MAX_PATH characters: accepted */
    HANDLE h = CreateEventA(NULL, FALSE, FALSE, longname);
    assert_non_null(h);
    close_event(h);
}

static void *set_last_error_7(void *arg)
{
    (void)arg;
    SetLastError(7);
    return GetLastError() == 7 ? arg : NULL;
}

/* rule: common.creation-without-memory-answers-null */
static void test_the_last_error_belongs_to_its_thread(void **state)
{
    (void)state;
    SetLastError(5);
    pthread_t t;
    int mark;
    void *res = NULL;
    assert_int_equal(pthread_create(&t, NULL, set_last_error_7, &mark), 0);
    assert_int_equal(pthread_join(t, &res), 0);
    assert_ptr_equal(res, &mark);
    assert_int_equal(GetLastError(), 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_creation_without_memory_returns_null_and_leaves_nothing), /* first: see there */
        cmocka_unit_test(test_manual_reset_stays_signalled_until_reset),
        cmocka_unit_test(test_auto_reset_is_taken_by_one_satisfied_wait),
        cmocka_unit_test(test_create_event_ex_flags),
        cmocka_unit_test(test_handles_are_small_aligned_values),
        cmocka_unit_test(test_wait_any_answers_the_lowest_signalled_index),
        cmocka_unit_test(test_wait_all_takes_every_event_or_none),
        cmocka_unit_test(test_blocked_wait_all_leaves_a_lone_signal_alone),
        cmocka_unit_test(test_wait_all_refuses_the_same_event_twice),
        cmocka_unit_test(test_a_timeout_of_zero_only_looks),
        cmocka_unit_test(test_a_blocked_waiter_is_released_by_set_event_from_another_thread),
        cmocka_unit_test(test_one_set_of_an_auto_reset_event_releases_one_waiter),
        cmocka_unit_test(test_one_set_of_a_manual_reset_event_releases_every_waiter),
        cmocka_unit_test(test_a_closed_handle_is_refused),
        cmocka_unit_test(test_forged_and_stale_handles_are_refused),
        cmocka_unit_test(test_a_wait_outlives_the_close_of_its_handle),
        cmocka_unit_test(test_the_library_interface_gets_signals_and_puts),
        cmocka_unit_test(test_wait_counts_and_arrays_are_checked),
        cmocka_unit_test(test_a_name_opens_the_existing_event),
        cmocka_unit_test(test_bad_names_are_refused),
        cmocka_unit_test(test_the_last_error_belongs_to_its_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
