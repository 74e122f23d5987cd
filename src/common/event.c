/* Win32 event objects: CreateEvent(A/W, ExA/ExW), SetEvent, ResetEvent, WaitForSingleObject,
 * WaitForMultipleObjects, CloseHandle, GetLastError / SetLastError (include/wddm/winevent.h;
 * docs/api.md "Win32 events"), and the library's own interface to the same events (event.h).
 *
 * Handles. A HANDLE is never a pointer: it is  0 | tag 101 (bits 30..28) | generation
 * (27..16) | slot (15..2) | 00  in one process-wide table. So NULL, NtCurrentProcess()
 * ((HANDLE)-1) and any value without the tag are refused before the table is even looked at;
 * a handle is a multiple of 4 and fits in 31 bits, as Windows' kernel handles do (a program may
 * keep one in a DWORD or sign-extend it back: both give the same value). Slot 0 is never used.
 * A closed slot goes to the tail of a FIFO free list and comes back with the next generation,
 * so a stale handle aliases a new one only after 4096 reuses of its very slot, each after every
 * other free slot was used. The table lock is a leaf lock held for a few instructions; every
 * lookup takes a reference, so an event outlives a CloseHandle racing with a call that is
 * already using it ("the object is removed after its last handle is closed" (CloseHandle) and
 * the last reference is dropped).
 *
 * Waiting. A blocked WaitFor* call is a wait block on its own stack (a lock, a condition
 * variable on CLOCK_MONOTONIC, an outcome) and one queue entry per event it waits on. SetEvent
 * walks the event's queue oldest first under the event's lock and hands the signal over:
 *   - a wait for any object is ended by the signaller itself (outcome = that handle's index);
 *     an auto-reset event is reset by that hand-over and the walk stops there, so one SetEvent
 *     releases exactly one waiting thread, as SetEvent's remarks say ("remains signaled until a
 *     single waiting thread is released"), and a thread that starts waiting later cannot take
 *     the signal away from one that was already waiting;
 *   - a wait for all objects is only woken: it then locks its whole set (in address order) and
 *     takes every event at once or none, because WaitForMultipleObjects "does not modify the
 *     states of the specified objects until the states of all objects have been set to
 *     signaled".
 * Lock order: the table lock alone; an event's lock, then a wait block's lock; several events'
 * locks only in address order, and never with a wait block's lock. Nothing else is taken under
 * any of them, so the library's kernel may signal an event while holding any lock of its own. */
#include "common/deadline.h"
#include "common/event.h"
#include "common/alloc.h"
#include "common/debug.h"
#include "common/lock_held.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LAYER_KERNEL32 "kernel32"
#define ev_refuse(...) wddm_debug(LAYER_KERNEL32, __VA_ARGS__)

/* ---- the thread's last error (errhandlingapi.h) ------------------------------------------- */

static _Thread_local DWORD last_error;

DWORD WINAPI GetLastError(void)
{
    return last_error;
}

void WINAPI SetLastError(DWORD dwErrCode)
{
    last_error = dwErrCode;
}

/* ---- events and waits --------------------------------------------------------------------- */

struct wait_block;

/* One event of one blocked wait: links the wait into that event's queue. */
struct wait_entry {
    struct wait_entry *prev, *next; /* protected by the event's lock */
    struct wait_block *block;       /* immutable */
    DWORD index;                    /* immutable: the handle's place in the caller's array */
    bool queued;                    /* protected by the event's lock */
};

#define OUTCOME_WAITING 0xFFFFFFFFu
#define OUTCOME_TIMED_OUT 0xFFFFFFFEu

/* One blocked WaitForSingleObject / WaitForMultipleObjects, on the waiting thread's stack. */
struct wait_block {
    pthread_mutex_t lock;
    pthread_cond_t cond;  /* on CLOCK_MONOTONIC */
    bool all;             /* immutable: bWaitAll */
    DWORD outcome;        /* protected by lock: WAITING, TIMED_OUT, or the index a signal ended it with */
    bool poked;           /* protected by lock: (wait for all) an event of the set was set since the last look */
};

struct wddm_event {
    atomic_uint refs;               /* one per handle, per wddm_event_get, per call using it */
    pthread_mutex_t lock;
    bool manual;                    /* immutable */
    bool signalled;                 /* protected by lock */
    struct wait_entry *head, *tail; /* queued waits, oldest first; protected by lock */
    unsigned waiters;               /* entries queued; protected by lock */
    WCHAR *name;                    /* immutable; NULL for an unnamed event */
    size_t name_len;                /* immutable */
    struct wddm_event *next_named;  /* the namespace list; protected by the table lock */
};

/* ---- the handle table --------------------------------------------------------------------- */

#define H_FIXED_MASK 0xF0000003u /* bit 31, the tag and the two low bits */
#define H_FIXED 0x50000000u
#define H_SLOT_SHIFT 2u
#define H_SLOT_BITS 14u
#define H_GEN_SHIFT 16u
#define H_GEN_MASK 0xFFFu
#define H_MAX_SLOTS (1u << H_SLOT_BITS)
#define H_CHUNK 256u
#define H_CHUNKS (H_MAX_SLOTS / H_CHUNK)

struct slot {
    struct wddm_event *event; /* NULL = free */
    uint32_t gen;
    uint32_t next_free;       /* free-list link (slot index), 0 = end */
};

static struct {
    pthread_mutex_t lock;
    struct slot *chunk[H_CHUNKS]; /* allocated as the table grows, never freed or moved */
    uint32_t cap;                 /* slots allocated */
    uint32_t free_head, free_tail;
    struct wddm_event *named;     /* the events that have a name (the namespace) */
} table = { .lock = PTHREAD_MUTEX_INITIALIZER };

static struct slot *slot_locked(uint32_t i)
{
    WDDM_ASSERT_HELD(&table.lock);
    return &table.chunk[i / H_CHUNK][i % H_CHUNK];
}

/* One more chunk of slots; an error code when the table cannot grow. */
static DWORD grow_locked(void)
{
    WDDM_ASSERT_HELD(&table.lock);
    if (table.cap >= H_MAX_SLOTS)
        return ERROR_NO_SYSTEM_RESOURCES;
    struct slot *c = wddm_calloc(H_CHUNK, sizeof *c);
    if (!c)
        return ERROR_NOT_ENOUGH_MEMORY;
    table.chunk[table.cap / H_CHUNK] = c;
    uint32_t first = table.cap ? table.cap : 1; /* slot 0 is never used: no handle is 0 */
    table.cap += H_CHUNK;
    for (uint32_t i = first; i < table.cap; i++) {
        if (table.free_tail)
            slot_locked(table.free_tail)->next_free = i;
        else
            table.free_head = i;
        table.free_tail = i;
    }
    return ERROR_SUCCESS;
}

/* A new handle for e (which the caller gives the handle's reference), or NULL with *err set. */
static HANDLE insert_locked(struct wddm_event *e, DWORD *err)
{
    WDDM_ASSERT_HELD(&table.lock);
    if (!table.free_head && (*err = grow_locked()) != ERROR_SUCCESS)
        return NULL;
    uint32_t i = table.free_head;
    struct slot *s = slot_locked(i);
    table.free_head = s->next_free;
    if (!table.free_head)
        table.free_tail = 0;
    s->next_free = 0;
    s->event = e;
    return (HANDLE)(uintptr_t)(H_FIXED | ((s->gen & H_GEN_MASK) << H_GEN_SHIFT) | (i << H_SLOT_SHIFT));
}

/* The slot of a live handle, or NULL for anything else: never dereferences the value. */
static struct slot *find_locked(HANDLE h)
{
    WDDM_ASSERT_HELD(&table.lock);
    uintptr_t v = (uintptr_t)h;
    if (v > UINT32_MAX || (v & H_FIXED_MASK) != H_FIXED)
        return NULL;
    uint32_t i = (uint32_t)(v >> H_SLOT_SHIFT) & (H_MAX_SLOTS - 1);
    uint32_t gen = (uint32_t)(v >> H_GEN_SHIFT) & H_GEN_MASK;
    if (i == 0 || i >= table.cap)
        return NULL;
    struct slot *s = slot_locked(i);
    return s->event && (s->gen & H_GEN_MASK) == gen ? s : NULL;
}

/* Empties a live handle's slot (the next handle in it gets the next generation); returns the
 * handle's reference to the event, or NULL. */
static struct wddm_event *remove_locked(HANDLE h)
{
    WDDM_ASSERT_HELD(&table.lock);
    struct slot *s = find_locked(h);
    if (!s)
        return NULL;
    uint32_t i = (uint32_t)((uintptr_t)h >> H_SLOT_SHIFT) & (H_MAX_SLOTS - 1);
    struct wddm_event *e = s->event;
    s->event = NULL;
    s->gen++;
    if (table.free_tail)
        slot_locked(table.free_tail)->next_free = i;
    else
        table.free_head = i;
    table.free_tail = i;
    return e;
}

/* ---- event objects ------------------------------------------------------------------------ */

static struct wddm_event *event_new(bool manual, bool initial, const WCHAR *name, size_t name_len)
{
    struct wddm_event *e = wddm_calloc(1, sizeof *e);
    if (!e)
        return NULL;
    if (name) {
        e->name = wddm_malloc((name_len + 1) * sizeof(WCHAR));
        if (!e->name) {
            free(e);
            return NULL;
        }
        memcpy(e->name, name, name_len * sizeof(WCHAR));
        e->name[name_len] = 0;
        e->name_len = name_len;
    }
    atomic_init(&e->refs, 1); /* the handle's */
    pthread_mutex_init(&e->lock, NULL);
    e->manual = manual;
    e->signalled = initial;
    return e;
}

static void event_release(struct wddm_event *e)
{
    if (e->name) {
        /* The name goes with the object: the next CreateEvent of that name makes a new event
         * ("the event object is destroyed when its last handle has been closed"). */
        pthread_mutex_lock(&table.lock);
        for (struct wddm_event **p = &table.named; *p; p = &(*p)->next_named)
            if (*p == e) {
                *p = e->next_named;
                break;
            }
        pthread_mutex_unlock(&table.lock);
    }
    pthread_mutex_destroy(&e->lock);
    free(e->name);
    free(e);
}

struct wddm_event *wddm_event_get(HANDLE h)
{
    pthread_mutex_lock(&table.lock);
    struct slot *s = find_locked(h);
    struct wddm_event *e = s ? s->event : NULL;
    if (e)
        atomic_fetch_add_explicit(&e->refs, 1, memory_order_relaxed);
    pthread_mutex_unlock(&table.lock);
    return e;
}

void wddm_event_put(struct wddm_event *e)
{
    if (e && atomic_fetch_sub_explicit(&e->refs, 1, memory_order_acq_rel) == 1)
        event_release(e);
}

/* The named event, with a new reference, unless its last reference is being dropped right now
 * (then it is as good as gone, and its name free for a new event). */
static struct wddm_event *named_get_locked(const WCHAR *name, size_t len)
{
    WDDM_ASSERT_HELD(&table.lock);
    for (struct wddm_event *e = table.named; e; e = e->next_named) {
        if (e->name_len != len || memcmp(e->name, name, len * sizeof(WCHAR)) != 0)
            continue;
        unsigned r = atomic_load_explicit(&e->refs, memory_order_relaxed);
        while (r && !atomic_compare_exchange_weak_explicit(&e->refs, &r, r + 1, memory_order_relaxed,
                                                            memory_order_relaxed))
            ;
        if (r)
            return e;
    }
    return NULL;
}

static void enqueue_locked(struct wddm_event *e, struct wait_entry *w)
{
    WDDM_ASSERT_HELD(&e->lock);
    w->next = NULL;
    w->prev = e->tail;
    if (e->tail)
        e->tail->next = w;
    else
        e->head = w;
    e->tail = w;
    w->queued = true;
    e->waiters++;
}

static void dequeue_locked(struct wddm_event *e, struct wait_entry *w)
{
    WDDM_ASSERT_HELD(&e->lock);
    if (!w->queued)
        return;
    if (w->prev)
        w->prev->next = w->next;
    else
        e->head = w->next;
    if (w->next)
        w->next->prev = w->prev;
    else
        e->tail = w->prev;
    w->queued = false;
    e->waiters--;
}

/* A satisfied wait takes the signal of an auto-reset event ("the system automatically resets
 * the event state to nonsignaled after a single waiting thread has been released"); a
 * manual-reset event stays signaled until ResetEvent. */
static void consume_locked(struct wddm_event *e)
{
    WDDM_ASSERT_HELD(&e->lock);
    if (!e->manual)
        e->signalled = false;
}

void wddm_event_signal(struct wddm_event *e)
{
    if (!e)
        return;
    pthread_mutex_lock(&e->lock);
    e->signalled = true; /* "setting an event that is already set has no effect" */
    struct wait_entry *next;
    for (struct wait_entry *w = e->head; w && e->signalled; w = next) {
        next = w->next;
        struct wait_block *b = w->block;
        pthread_mutex_lock(&b->lock);
        if (b->all) {
            /* Takes nothing: the waiter looks at its whole set itself (file comment). */
            b->poked = true;
            pthread_cond_signal(&b->cond);
        } else {
            if (b->outcome == OUTCOME_WAITING) {
                b->outcome = w->index;
                consume_locked(e); /* an auto-reset event: this one waiter, and the walk ends */
                pthread_cond_signal(&b->cond);
            }
            dequeue_locked(e, w);
        }
        pthread_mutex_unlock(&b->lock);
    }
    pthread_mutex_unlock(&e->lock);
}

unsigned wddm_event_waiter_count(struct wddm_event *e)
{
    pthread_mutex_lock(&e->lock);
    unsigned n = e->waiters;
    pthread_mutex_unlock(&e->lock);
    return n;
}

/* ---- creation ----------------------------------------------------------------------------- */

static size_t name_length(const WCHAR *name)
{
    size_t n = 0;
    while (n <= MAX_PATH && name[n])
        n++;
    return n;
}

static bool has_prefix(const WCHAR *name, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    if (len < n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (name[i] != (WCHAR)(unsigned char)prefix[i])
            return false;
    return true;
}

/* The key a name is known by in the namespace: "Local\x" and "x" are the session namespace's
 * "x"; "Global\x" keeps its prefix (another namespace). ERROR_SUCCESS or the refusal's code. */
static DWORD name_key(const char *fn, const WCHAR *name, const WCHAR **key, size_t *key_len)
{
    size_t len = name_length(name);
    if (len > MAX_PATH) {
        ev_refuse("%s: the name is longer than MAX_PATH (%u) characters (CreateEvent: \"the name is limited to "
                  "MAX_PATH characters\")", fn, (unsigned)MAX_PATH);
        return ERROR_FILENAME_EXCED_RANGE;
    }
    size_t skip = has_prefix(name, len, "Local\\") ? 6 : 0;
    size_t rest = has_prefix(name, len, "Global\\") ? 7 : skip;
    for (size_t i = rest; i < len; i++)
        if (name[i] == '\\') {
            ev_refuse("%s: a backslash in the name after its Global\\ or Local\\ prefix (CreateEvent: \"the remainder "
                      "of the name can contain any character except the backslash\")", fn);
            return ERROR_PATH_NOT_FOUND;
        }
    *key = name + skip;
    *key_len = len - skip;
    return ERROR_SUCCESS;
}

static HANDLE create_event(const char *fn, bool manual, bool initial, const WCHAR *name)
{
    const WCHAR *key = NULL;
    size_t key_len = 0;
    DWORD err = ERROR_SUCCESS;
    /* An empty name is no name, as NULL (the unnamed event of CreateEvent's lpName). */
    if (name && name[0] && (err = name_key(fn, name, &key, &key_len)) != ERROR_SUCCESS) {
        SetLastError(err);
        return NULL;
    }
    pthread_mutex_lock(&table.lock);
    /* A name that exists opens that event; bManualReset and bInitialState are then ignored
     * ("they have already been set by the creating process"). */
    struct wddm_event *e = key ? named_get_locked(key, key_len) : NULL;
    bool existed = e != NULL;
    if (!e && !(e = event_new(manual, initial, key, key_len)))
        err = ERROR_NOT_ENOUGH_MEMORY;
    HANDLE h = e ? insert_locked(e, &err) : NULL;
    if (h && key && !existed) {
        e->next_named = table.named;
        table.named = e;
    }
    pthread_mutex_unlock(&table.lock);
    if (!h) {
        wddm_event_put(e); /* outside the table lock: a last put takes it */
        ev_refuse("%s: %s", fn, err == ERROR_NO_SYSTEM_RESOURCES ? "no free handle (all 16383 are open)"
                                                                 : "out of memory");
        SetLastError(err);
        return NULL;
    }
    /* Success says whether the name existed ("GetLastError returns ERROR_ALREADY_EXISTS"), so a
     * new event clears an older error a program could mistake for it. */
    SetLastError(existed ? ERROR_ALREADY_EXISTS : ERROR_SUCCESS);
    return h;
}

/* An ANSI name as WCHARs, byte for byte (an ASCII name is the same name through A and W). */
static bool widen(const char *fn, const char *name, WCHAR out[MAX_PATH + 2], const WCHAR **wide)
{
    *wide = NULL;
    if (!name)
        return true;
    size_t n = 0;
    for (; name[n] && n <= MAX_PATH; n++)
        out[n] = (WCHAR)(unsigned char)name[n];
    out[n] = 0;
    *wide = out;
    if (n > MAX_PATH) {
        ev_refuse("%s: the name is longer than MAX_PATH (%u) characters (CreateEvent: \"the name is limited to "
                  "MAX_PATH characters\")", fn, (unsigned)MAX_PATH);
        SetLastError(ERROR_FILENAME_EXCED_RANGE);
        return false;
    }
    return true;
}

/* lpEventAttributes: handles are never inherited here (no child processes) and carry no
 * security descriptor, so the structure is accepted and not read. */
HANDLE WINAPI CreateEventW(LPSECURITY_ATTRIBUTES lpEventAttributes, BOOL bManualReset, BOOL bInitialState,
                           LPCWSTR lpName)
{
    return create_event("CreateEventW", bManualReset != FALSE, bInitialState != FALSE, lpName);
}

HANDLE WINAPI CreateEventA(LPSECURITY_ATTRIBUTES lpEventAttributes, BOOL bManualReset, BOOL bInitialState,
                           LPCSTR lpName)
{
    WCHAR buf[MAX_PATH + 2];
    const WCHAR *name;
    if (!widen("CreateEventA", lpName, buf, &name))
        return NULL;
    return create_event("CreateEventA", bManualReset != FALSE, bInitialState != FALSE, name);
}

/* dwDesiredAccess: every handle here has EVENT_ALL_ACCESS (nothing checks access rights). */
static HANDLE create_event_ex(const char *fn, const WCHAR *name, DWORD flags)
{
    if (flags & ~(CREATE_EVENT_MANUAL_RESET | CREATE_EVENT_INITIAL_SET)) {
        ev_refuse("%s: dwFlags 0x%x: only CREATE_EVENT_MANUAL_RESET and CREATE_EVENT_INITIAL_SET are defined", fn,
                  (unsigned)flags);
        SetLastError(ERROR_INVALID_PARAMETER);
        return NULL;
    }
    return create_event(fn, flags & CREATE_EVENT_MANUAL_RESET, flags & CREATE_EVENT_INITIAL_SET, name);
}

HANDLE WINAPI CreateEventExW(LPSECURITY_ATTRIBUTES lpEventAttributes, LPCWSTR lpName, DWORD dwFlags,
                             DWORD dwDesiredAccess)
{
    return create_event_ex("CreateEventExW", lpName, dwFlags);
}

HANDLE WINAPI CreateEventExA(LPSECURITY_ATTRIBUTES lpEventAttributes, LPCSTR lpName, DWORD dwFlags,
                             DWORD dwDesiredAccess)
{
    WCHAR buf[MAX_PATH + 2];
    const WCHAR *name;
    if (!widen("CreateEventExA", lpName, buf, &name))
        return NULL;
    return create_event_ex("CreateEventExA", name, dwFlags);
}

/* ---- handle functions --------------------------------------------------------------------- */

/* The event a handle names, with a reference; else ERROR_INVALID_HANDLE and the rule's line. */
static struct wddm_event *event_from(const char *fn, HANDLE h)
{
    struct wddm_event *e = wddm_event_get(h);
    if (!e) {
        ev_refuse("%s: handle %p names no open event (never returned by CreateEvent, or closed: CloseHandle "
                  "invalidates it)", fn, h);
        SetLastError(ERROR_INVALID_HANDLE);
    }
    return e;
}

BOOL WINAPI SetEvent(HANDLE hEvent)
{
    struct wddm_event *e = event_from("SetEvent", hEvent);
    if (!e)
        return FALSE;
    wddm_event_signal(e);
    wddm_event_put(e);
    return TRUE;
}

BOOL WINAPI ResetEvent(HANDLE hEvent)
{
    struct wddm_event *e = event_from("ResetEvent", hEvent);
    if (!e)
        return FALSE;
    pthread_mutex_lock(&e->lock);
    e->signalled = false;
    pthread_mutex_unlock(&e->lock);
    wddm_event_put(e);
    return TRUE;
}

/* The handle becomes invalid at once for every new call; the event lives on while a wait in
 * progress or the library's kernel (wddm_event_get) still holds a reference to it. A pseudo
 * handle (NtCurrentProcess()) is not closable: "has no effect", and FALSE as for any value that
 * is not an open handle. */
static _Atomic(wddm_handle_closer) other_closer; /* event.h: the kernel's NT handles */

void wddm_handle_closer_register(wddm_handle_closer closer)
{
    atomic_store(&other_closer, closer);
}

BOOL WINAPI CloseHandle(HANDLE hObject)
{
    pthread_mutex_lock(&table.lock);
    struct wddm_event *e = remove_locked(hObject);
    pthread_mutex_unlock(&table.lock);
    wddm_handle_closer closer = e ? NULL : atomic_load(&other_closer);
    if (closer && closer(hObject))
        return TRUE;
    if (!e) {
        ev_refuse("CloseHandle: handle %p is not an open handle (closed twice, or never returned by CreateEvent or D3DKMTShareObjects)",
                  hObject);
        SetLastError(ERROR_INVALID_HANDLE);
        return FALSE;
    }
    wddm_event_put(e);
    return TRUE;
}

/* ---- waits -------------------------------------------------------------------------------- */

static bool block_init(struct wait_block *b, bool all)
{
    pthread_condattr_t ca;
    if (pthread_condattr_init(&ca) != 0)
        return false;
    /* The timeout is an interval on the monotonic clock: a change of the wall clock neither ends
     * a wait early nor stretches it (and, as on Windows 8 and later, time asleep does not count
     * towards dwMilliseconds: CLOCK_MONOTONIC stops in suspend). */
    bool ok = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) == 0 && pthread_cond_init(&b->cond, &ca) == 0;
    pthread_condattr_destroy(&ca);
    if (!ok)
        return false;
    pthread_mutex_init(&b->lock, NULL);
    b->all = all;
    b->outcome = OUTCOME_WAITING;
    b->poked = false;
    return true;
}

static void block_destroy(struct wait_block *b)
{
    pthread_cond_destroy(&b->cond);
    pthread_mutex_destroy(&b->lock);
}

static struct timespec deadline_after(DWORD ms)
{
    return wddm_deadline_after_ms(CLOCK_MONOTONIC, ms);
}

/* One sleep on the block; false when the deadline has passed. */
static bool block_sleep_locked(struct wait_block *b, DWORD ms, const struct timespec *deadline)
{
    WDDM_ASSERT_HELD(&b->lock);
    if (ms == INFINITE) {
        pthread_cond_wait(&b->cond, &b->lock);
        return true;
    }
    return pthread_cond_timedwait(&b->cond, &b->lock, deadline) != ETIMEDOUT;
}

static bool take_if_signalled(struct wddm_event *e)
{
    pthread_mutex_lock(&e->lock);
    bool taken = e->signalled;
    if (taken)
        consume_locked(e);
    pthread_mutex_unlock(&e->lock);
    return taken;
}

/* Takes the wait-block's failure to start as a failed wait. */
static DWORD block_failed(const char *fn)
{
    ev_refuse("%s: cannot set up a blocking wait (out of memory)", fn);
    SetLastError(ERROR_NOT_ENOUGH_MEMORY);
    return WAIT_FAILED;
}

/* Wait for any: the lowest index already signalled; else queue on every event and let the
 * first SetEvent hand its signal over (file comment). */
static DWORD wait_any(const char *fn, struct wddm_event *const *ev, DWORD n, DWORD ms)
{
    /* "Checks the handles in the array in order starting with index 0". */
    for (DWORD i = 0; i < n; i++)
        if (take_if_signalled(ev[i]))
            return WAIT_OBJECT_0 + i;
    if (ms == 0) /* "does not enter a wait state if the specified objects are not signaled" */
        return WAIT_TIMEOUT;
    struct timespec deadline = deadline_after(ms == INFINITE ? 0 : ms);
    struct wait_block b;
    if (!block_init(&b, false))
        return block_failed(fn);
    struct wait_entry w[MAXIMUM_WAIT_OBJECTS];
    DWORD queued = 0;
    for (; queued < n; queued++) {
        struct wddm_event *e = ev[queued];
        w[queued] = (struct wait_entry){ .block = &b, .index = queued };
        pthread_mutex_lock(&e->lock);
        pthread_mutex_lock(&b.lock);
        /* Set since the first look, or an event queued on already handed its signal over. */
        bool done = b.outcome != OUTCOME_WAITING;
        if (!done && e->signalled) {
            b.outcome = queued;
            consume_locked(e);
            done = true;
        }
        pthread_mutex_unlock(&b.lock);
        if (!done)
            enqueue_locked(e, &w[queued]);
        pthread_mutex_unlock(&e->lock);
        if (done)
            break;
    }
    pthread_mutex_lock(&b.lock);
    while (b.outcome == OUTCOME_WAITING)
        if (!block_sleep_locked(&b, ms, &deadline) && b.outcome == OUTCOME_WAITING)
            b.outcome = OUTCOME_TIMED_OUT;
    DWORD outcome = b.outcome;
    pthread_mutex_unlock(&b.lock);
    /* Every event the wait was queued on is locked once more: a signaller that ended the wait
     * may still be using the block under its event's lock. */
    for (DWORD i = 0; i < queued; i++) {
        pthread_mutex_lock(&ev[i]->lock);
        dequeue_locked(ev[i], &w[i]);
        pthread_mutex_unlock(&ev[i]->lock);
    }
    block_destroy(&b);
    return outcome == OUTCOME_TIMED_OUT ? WAIT_TIMEOUT : WAIT_OBJECT_0 + outcome;
}

/* Every event of the set signalled: takes them all (auto-reset ones reset) and answers true;
 * else changes nothing. The set is sorted by address: that is the lock order. */
static bool take_all(struct wddm_event *const *sorted, DWORD n)
{
    for (DWORD i = 0; i < n; i++)
        pthread_mutex_lock(&sorted[i]->lock);
    bool all = true;
    for (DWORD i = 0; i < n && all; i++)
        all = sorted[i]->signalled;
    for (DWORD i = 0; i < n && all; i++)
        consume_locked(sorted[i]);
    for (DWORD i = n; i-- > 0;)
        pthread_mutex_unlock(&sorted[i]->lock);
    return all;
}

static int by_address(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)*(struct wddm_event *const *)a;
    uintptr_t y = (uintptr_t)*(struct wddm_event *const *)b;
    return x < y ? -1 : x > y;
}

/* Wait for all: every event at once or none (file comment). */
static DWORD wait_all(const char *fn, struct wddm_event *const *ev, DWORD n, DWORD ms)
{
    struct wddm_event *sorted[MAXIMUM_WAIT_OBJECTS];
    memcpy(sorted, ev, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, by_address);
    for (DWORD i = 1; i < n; i++)
        if (sorted[i] == sorted[i - 1]) {
            /* Two copies of one auto-reset event could not both be taken by one wait. */
            ev_refuse("%s: bWaitAll with the same event twice in lpHandles (\"it may not contain multiple copies of "
                      "the same handle\")", fn);
            SetLastError(ERROR_INVALID_PARAMETER);
            return WAIT_FAILED;
        }
    if (take_all(sorted, n))
        return WAIT_OBJECT_0;
    if (ms == 0)
        return WAIT_TIMEOUT;
    struct timespec deadline = deadline_after(ms == INFINITE ? 0 : ms);
    struct wait_block b;
    if (!block_init(&b, true))
        return block_failed(fn);
    struct wait_entry w[MAXIMUM_WAIT_OBJECTS];
    for (DWORD i = 0; i < n; i++) {
        w[i] = (struct wait_entry){ .block = &b, .index = i };
        pthread_mutex_lock(&sorted[i]->lock);
        enqueue_locked(sorted[i], &w[i]);
        pthread_mutex_unlock(&sorted[i]->lock);
    }
    /* Queued first, looked at after: a SetEvent between the two pokes the block. */
    DWORD result = WAIT_TIMEOUT;
    bool in_time = true;
    for (;;) {
        if (take_all(sorted, n)) {
            result = WAIT_OBJECT_0;
            break;
        }
        if (!in_time)
            break;
        pthread_mutex_lock(&b.lock);
        while (!b.poked && in_time)
            in_time = block_sleep_locked(&b, ms, &deadline);
        b.poked = false;
        pthread_mutex_unlock(&b.lock);
    }
    for (DWORD i = 0; i < n; i++) {
        pthread_mutex_lock(&sorted[i]->lock);
        dequeue_locked(sorted[i], &w[i]);
        pthread_mutex_unlock(&sorted[i]->lock);
    }
    block_destroy(&b);
    return result;
}

DWORD WINAPI WaitForMultipleObjects(DWORD nCount, const HANDLE *lpHandles, BOOL bWaitAll, DWORD dwMilliseconds)
{
    static const char fn[] = "WaitForMultipleObjects";
    if (nCount == 0 || nCount > MAXIMUM_WAIT_OBJECTS || !lpHandles) {
        ev_refuse("%s: nCount %u with lpHandles %p: nCount must be 1..MAXIMUM_WAIT_OBJECTS (%u) (\"this parameter "
                  "cannot be zero\") and lpHandles an array of that many handles", fn, (unsigned)nCount,
                  (const void *)lpHandles, (unsigned)MAXIMUM_WAIT_OBJECTS);
        SetLastError(ERROR_INVALID_PARAMETER);
        return WAIT_FAILED;
    }
    /* A reference per event for the whole wait: a handle closed meanwhile does not free what
     * the wait is queued on (the documentation leaves that case undefined). */
    struct wddm_event *ev[MAXIMUM_WAIT_OBJECTS];
    for (DWORD i = 0; i < nCount; i++)
        if (!(ev[i] = event_from(fn, lpHandles[i]))) {
            while (i-- > 0)
                wddm_event_put(ev[i]);
            return WAIT_FAILED;
        }
    DWORD r = bWaitAll ? wait_all(fn, ev, nCount, dwMilliseconds) : wait_any(fn, ev, nCount, dwMilliseconds);
    for (DWORD i = 0; i < nCount; i++)
        wddm_event_put(ev[i]);
    return r;
}

DWORD WINAPI WaitForSingleObject(HANDLE hHandle, DWORD dwMilliseconds)
{
    struct wddm_event *e = event_from("WaitForSingleObject", hHandle);
    if (!e)
        return WAIT_FAILED;
    DWORD r = wait_any("WaitForSingleObject", &e, 1, dwMilliseconds);
    wddm_event_put(e);
    return r;
}
