/* timeline.c - the timeline's recorder and its Chrome / Perfetto trace-event JSON writer
 * (timeline.h; docs/timeline.md).
 *
 * Recording: each thread owns a ring of WDDM_TL_RING_EVENTS records, taken from a fixed table
 * the first time it records (no lock on the recording path after that). A record's fields are
 * relaxed atomics and the ring's head is published with release, so the writer may read a ring
 * while its thread records (the writer drops what was overwritten during its read). Rings are
 * never freed while the process runs: a finished thread's events stay for the writer. When the
 * table is full, further threads' events are counted as dropped, never recorded. A run of
 * "not yet" polls (GetData) rewrites its span's end record in place instead of adding records
 * (wddm_tl_record_poll), so a polling loop does not wrap the ring.
 *
 * Writing: every ring's surviving records, sorted by time, become trace events. The GPU's
 * DMA_START..COMPLETE (or ..PREEMPTED / reset) pairs become complete events ("X") on the
 * engine's lane; SUBMIT..COMPLETE the same on the context queue's lane; CPU spans B/E on their
 * thread; VidMm operations instants; segment use a counter ("C"). Metadata events name the
 * processes (one per adapter, plus the CPU) and lanes. */
#include "common/timeline.h"
#include "common/alloc.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "wddm/wddm.h"

#define WDDM_TL_RING_EVENTS (1u << 15) /* per thread: 1 MiB; a frame loop's seconds */
#define WDDM_TL_MAX_THREADS 256u

struct tl_record {
    _Atomic uint64_t ts, a, b;
    _Atomic uint32_t kind, track;
};

struct tl_ring {
    _Atomic uint64_t head; /* records written so far; the newest is head - 1 */
    uint32_t tid;
    struct tl_record rec[WDDM_TL_RING_EVENTS];
};

atomic_bool wddm_tl_on;

static struct {
    pthread_mutex_t lock;                     /* taking a ring, writing, clearing */
    struct tl_ring *_Atomic ring[WDDM_TL_MAX_THREADS];
    _Atomic uint32_t rings;
    _Atomic uint64_t dropped;                 /* records of threads that found no ring */
    _Atomic uint64_t epoch;                   /* clear: records before it are not written */
} tl = { .lock = PTHREAD_MUTEX_INITIALIZER };

static _Thread_local struct tl_ring *my_ring;
static _Thread_local bool my_ring_refused;

static uint64_t tl_mono_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Timestamps. On x86-64 a record stores the time-stamp counter (invariant on the processors of
 * the last fifteen years, and the kernel's own clock source under most hypervisors): ~11 ns a
 * read on the project's machine against ~27 for clock_gettime, which is most of what an event
 * costs. The writer turns ticks into CLOCK_MONOTONIC nanoseconds with the rate measured between
 * the first enable and the write (or over 2 ms at that enable, for a short recording). Elsewhere
 * the ticks are nanoseconds already. */
#if defined(__x86_64__)
#include <x86intrin.h>
static uint64_t tl_now(void) { return __rdtsc(); }
#define TL_TICKS_ARE_NS 0
#else
static uint64_t tl_now(void) { return tl_mono_ns(); }
#define TL_TICKS_ARE_NS 1
#endif

static struct {
    pthread_once_t once;
    uint64_t ticks, ns;   /* one moment in both clocks, at the first enable */
    double ns_per_tick;   /* measured then over 2 ms */
} tl_clock = { .once = PTHREAD_ONCE_INIT, .ns_per_tick = 1.0 };

static void tl_clock_anchor(void)
{
    tl_clock.ticks = tl_now();
    tl_clock.ns = tl_mono_ns();
    if (TL_TICKS_ARE_NS)
        return;
    struct timespec two_ms = { 0, 2000000 };
    nanosleep(&two_ms, NULL);
    uint64_t t = tl_now(), n = tl_mono_ns();
    if (t > tl_clock.ticks)
        tl_clock.ns_per_tick = (double)(n - tl_clock.ns) / (double)(t - tl_clock.ticks);
}

/* Nanoseconds (CLOCK_MONOTONIC) of a tick value, with the rate over the longest interval known. */
struct tl_rate {
    uint64_t ticks, ns;
    double ns_per_tick;
};

static struct tl_rate tl_rate_now(void)
{
    pthread_once(&tl_clock.once, tl_clock_anchor); /* also orders the anchor before its reads */
    struct tl_rate r = { tl_clock.ticks, tl_clock.ns, tl_clock.ns_per_tick };
    uint64_t t = tl_now(), n = tl_mono_ns();
    if (!TL_TICKS_ARE_NS && t > r.ticks && n - r.ns >= 100000000u) /* >= 100 ms: better than 2 */
        r.ns_per_tick = (double)(n - r.ns) / (double)(t - r.ticks);
    return r;
}

static uint64_t tl_ns(const struct tl_rate *r, uint64_t ticks)
{
    if (TL_TICKS_ARE_NS)
        return ticks;
    double d = ((double)ticks - (double)r->ticks) * r->ns_per_tick;
    return d < -(double)r->ns ? 0 : (uint64_t)((double)r->ns + d);
}

static struct tl_ring *tl_take_ring(void)
{
    if (my_ring_refused)
        return NULL;
    struct tl_ring *r = wddm_calloc(1, sizeof *r);
    pthread_mutex_lock(&tl.lock);
    uint32_t n = atomic_load(&tl.rings);
    if (r && n < WDDM_TL_MAX_THREADS) {
        r->tid = (uint32_t)syscall(SYS_gettid);
        atomic_store(&tl.ring[n], r);
        atomic_store(&tl.rings, n + 1);
    } else {
        free(r);
        r = NULL;
        my_ring_refused = true;
    }
    pthread_mutex_unlock(&tl.lock);
    return r;
}

uint64_t wddm_tl_now(void)
{
    return tl_now();
}

/* The calling thread's ring, taken at its first record; NULL (the record counted as dropped)
 * when every ring is taken. */
static struct tl_ring *tl_my_ring(void)
{
    struct tl_ring *r = my_ring;
    if (!r && !(r = my_ring = tl_take_ring()))
        atomic_fetch_add_explicit(&tl.dropped, 1, memory_order_relaxed);
    return r;
}

/* Appends one record to the thread's own ring; returns its index (head before it). */
static uint64_t tl_put(struct tl_ring *r, uint64_t ts, enum wddm_tl_kind kind, uint32_t track, uint64_t a,
                       uint64_t b)
{
    uint64_t h = atomic_load_explicit(&r->head, memory_order_relaxed);
    struct tl_record *e = &r->rec[h % WDDM_TL_RING_EVENTS];
    atomic_store_explicit(&e->ts, ts, memory_order_relaxed);
    atomic_store_explicit(&e->kind, (uint32_t)kind, memory_order_relaxed);
    atomic_store_explicit(&e->track, track, memory_order_relaxed);
    atomic_store_explicit(&e->a, a, memory_order_relaxed);
    atomic_store_explicit(&e->b, b, memory_order_relaxed);
    atomic_store_explicit(&r->head, h + 1, memory_order_release);
    return h;
}

void wddm_tl_record(enum wddm_tl_kind kind, uint32_t track, uint64_t a, uint64_t b)
{
    struct tl_ring *r = tl_my_ring();
    if (!r)
        return;
    if (kind == WDDM_TL_CPU_BEGIN || kind == WDDM_TL_CPU_END)
        track = r->tid;
    tl_put(r, tl_now(), kind, track, a, b);
}

/* The thread's last pending poll (timeline.h wddm_tl_record_poll): its end record's index in the
 * ring, what it polled, when its span began, how many polls it stands for. */
static _Thread_local struct {
    uint64_t end_index, begin_ts;
    uintptr_t key;
    uint32_t call, polls;
    bool valid;
} my_poll;

/* A CPU_END record's b: the result in the low half, the polls it stands for (0: not a poll) in
 * the high half. */
#define TL_POLLS_SHIFT 32

void wddm_tl_record_poll(enum wddm_tl_call call, uintptr_t key, uint64_t t0, uint32_t result, int pending)
{
    struct tl_ring *r = tl_my_ring();
    if (!r)
        return;
    uint64_t now = tl_now();
    /* Coalesce: the same call on the same key answered "not yet" again, and the thread recorded
     * nothing since (its end record is still the ring's newest), after the last clear (so its
     * begin is still written). A query's handle cannot be reused in between: a new query needs
     * an End, which is recorded, before GetData can answer S_FALSE. */
    if (pending && my_poll.valid && my_poll.key == key && my_poll.call == (uint32_t)call &&
        my_poll.polls < UINT32_MAX && my_poll.end_index + 1 == atomic_load_explicit(&r->head, memory_order_relaxed) &&
        my_poll.begin_ts >= atomic_load_explicit(&tl.epoch, memory_order_relaxed)) {
        struct tl_record *e = &r->rec[my_poll.end_index % WDDM_TL_RING_EVENTS];
        my_poll.polls++;
        atomic_store_explicit(&e->b, result | (uint64_t)my_poll.polls << TL_POLLS_SHIFT, memory_order_relaxed);
        atomic_store_explicit(&e->ts, now, memory_order_relaxed);
        return;
    }
    tl_put(r, t0, WDDM_TL_CPU_BEGIN, r->tid, call, 0);
    uint64_t end = tl_put(r, now, WDDM_TL_CPU_END, r->tid, call, result | (uint64_t)1 << TL_POLLS_SHIFT);
    my_poll.valid = pending != 0;
    my_poll.end_index = end;
    my_poll.begin_ts = t0;
    my_poll.key = key;
    my_poll.call = (uint32_t)call;
    my_poll.polls = 1;
}

void wddm_timeline_enable(int enabled)
{
    if (enabled)
        pthread_once(&tl_clock.once, tl_clock_anchor);
    atomic_store(&wddm_tl_on, enabled != 0);
}

void wddm_timeline_clear(void)
{
    atomic_store(&tl.epoch, tl_now());
}

/* ---- writing ------------------------------------------------------------------------------ */

struct tl_event {
    uint64_t ts, a, b;
    uint32_t kind, track;
};

static int tl_event_cmp(const void *x, const void *y)
{
    const struct tl_event *p = x, *q = y;
    return p->ts < q->ts ? -1 : p->ts > q->ts;
}

/* Every ring's records still present and newer than the last clear, oldest first, their times
 * in CLOCK_MONOTONIC nanoseconds. */
static struct tl_event *tl_collect(size_t *count)
{
    uint32_t rings = atomic_load(&tl.rings);
    uint64_t epoch = atomic_load(&tl.epoch);
    size_t cap = 0, n = 0;
    for (uint32_t i = 0; i < rings; i++) {
        uint64_t h = atomic_load_explicit(&atomic_load(&tl.ring[i])->head, memory_order_acquire);
        cap += h < WDDM_TL_RING_EVENTS ? h : WDDM_TL_RING_EVENTS;
    }
    struct tl_event *ev = wddm_malloc((cap ? cap : 1) * sizeof *ev);
    if (!ev)
        return NULL;
    for (uint32_t i = 0; i < rings; i++) {
        struct tl_ring *r = atomic_load(&tl.ring[i]);
        uint64_t h = atomic_load_explicit(&r->head, memory_order_acquire);
        uint64_t first = h > WDDM_TL_RING_EVENTS ? h - WDDM_TL_RING_EVENTS : 0;
        size_t start = n;
        for (uint64_t k = first; k < h && n < cap; k++) {
            const struct tl_record *e = &r->rec[k % WDDM_TL_RING_EVENTS];
            ev[n] = (struct tl_event){ .ts = atomic_load_explicit(&e->ts, memory_order_relaxed),
                                       .kind = atomic_load_explicit(&e->kind, memory_order_relaxed),
                                       .track = atomic_load_explicit(&e->track, memory_order_relaxed),
                                       .a = atomic_load_explicit(&e->a, memory_order_relaxed),
                                       .b = atomic_load_explicit(&e->b, memory_order_relaxed) };
            if (ev[n].ts >= epoch)
                n++;
        }
        /* The thread went on recording meanwhile: what it overwrote is not what was read. */
        uint64_t h2 = atomic_load_explicit(&r->head, memory_order_acquire);
        uint64_t lost = h2 > WDDM_TL_RING_EVENTS && h2 - WDDM_TL_RING_EVENTS > first ? h2 - WDDM_TL_RING_EVENTS - first
                                                                                       : 0;
        if (lost) {
            size_t drop = lost < n - start ? (size_t)lost : n - start;
            memmove(&ev[start], &ev[start + drop], (n - start - drop) * sizeof *ev);
            n -= drop;
        }
    }
    qsort(ev, n, sizeof *ev, tl_event_cmp);
    struct tl_rate rate = tl_rate_now();
    for (size_t i = 0; i < n; i++) {
        ev[i].ts = tl_ns(&rate, ev[i].ts);
        if (ev[i].kind == WDDM_TL_QUEUED) /* its second moment is on the same clock */
            ev[i].b = tl_ns(&rate, ev[i].b);
    }
    *count = n;
    return ev;
}

/* Chrome trace processes: one per adapter (its lanes: engines, context queues, VidMm, segment
 * counters) and one for the CPU threads. */
#define TL_PID_CPU 1u
static uint32_t tl_pid_of_adapter(uint32_t adapter) { return 100u + adapter; }
static uint32_t tl_adapter_of(uint32_t track) { return (track >> 8) & 0xFFFu; }

static const char *const tl_call_name[WDDM_TL_CALL_COUNT] = {
    [WDDM_TL_CALL_MAP] = "Map",
    [WDDM_TL_CALL_FLUSH] = "Flush",
    [WDDM_TL_CALL_RENDER] = "Render (submit)",
    [WDDM_TL_CALL_LOCK_WAIT] = "Lock: wait for the GPU",
    [WDDM_TL_CALL_FENCE_WAIT] = "Fence wait",
    [WDDM_TL_CALL_COPY] = "CopyResource",
    [WDDM_TL_CALL_COPY_REGION] = "CopySubresourceRegion",
    [WDDM_TL_CALL_UPDATE] = "UpdateSubresource",
    [WDDM_TL_CALL_CLEAR] = "ClearRenderTargetView",
    [WDDM_TL_CALL_EXECUTE] = "ExecuteCommandList",
    [WDDM_TL_CALL_CREATE] = "Create resource",
    [WDDM_TL_CALL_CREATE_VIEW] = "Create view",
    [WDDM_TL_CALL_QUERY_END] = "End (query)",
    [WDDM_TL_CALL_GET_DATA] = "GetData",
    [WDDM_TL_CALL_FINISH] = "FinishCommandList",
};

static const char *tl_call(uint64_t c)
{
    return c < WDDM_TL_CALL_COUNT && tl_call_name[c] ? tl_call_name[c] : "call";
}

/* An engine lane's running buffer, or a context lane's packet in the hardware queue. */
struct tl_open {
    uint32_t track;
    uint64_t ts, fence, context;
};

/* A packet in a hardware queue, from its submission to its completion (its context's lane). */
struct tl_inflight {
    uint32_t engine;
    uint64_t fence, context, ts;
};

struct tl_writer {
    FILE *f;
    bool first;
    struct tl_open *open;           /* each engine lane's running buffer */
    size_t open_n, open_cap;
    struct tl_inflight *inflight;   /* packets submitted, not yet completed */
    size_t inflight_n, inflight_cap;
    uint32_t *lanes;                /* lanes seen, to name them in metadata */
    size_t lanes_n, lanes_cap;
};

/* `array` (n elements of elem bytes, capacity *cap) with room for one more: itself, or grown
 * (doubling); NULL without memory, the array then unchanged. */
static void *tl_room(void *array, size_t n, size_t *cap, size_t elem)
{
    if (n < *cap)
        return array;
    size_t c = *cap ? 2 * *cap : 64;
    void *p = wddm_realloc(array, c * elem);
    if (p)
        *cap = c;
    return p;
}

static void tl_sep(struct tl_writer *w)
{
    fputs(w->first ? "\n" : ",\n", w->f);
    w->first = false;
}

static bool tl_lane_seen(struct tl_writer *w, uint32_t track)
{
    for (size_t i = 0; i < w->lanes_n; i++)
        if (w->lanes[i] == track)
            return true;
    uint32_t *lanes = tl_room(w->lanes, w->lanes_n, &w->lanes_cap, sizeof *lanes);
    if (!lanes)
        return true; /* unnamed lane: still drawn */
    w->lanes = lanes;
    w->lanes[w->lanes_n++] = track;
    return false;
}

/* What a (non-CPU) lane is: 1 engine, 2 paging queue, 3 VidMm, 4 segment counter, 5 monitored
 * fences (timeline.h), 0 a context queue, whose lane is the context's handle (its type bits keep
 * it above 5 << 24). Classes 1-4 belong to an adapter. */
static uint32_t tl_lane_class(uint32_t track)
{
    uint32_t c = track >> 24;
    return c >= 1 && c <= 5 ? c : 0;
}

static bool tl_adapter_lane(uint32_t track)
{
    uint32_t c = tl_lane_class(track);
    return c >= 1 && c <= 4;
}

/* Where a lane is drawn: process and thread ids of the trace. */
#define TL_PID_QUEUES 99u
static void tl_lane_ids(uint32_t track, bool cpu, uint32_t *pid, uint32_t *tid)
{
    *tid = track;
    if (cpu)
        *pid = TL_PID_CPU;
    else if (tl_adapter_lane(track))
        *pid = tl_pid_of_adapter(tl_adapter_of(track));
    else
        *pid = TL_PID_QUEUES; /* one process: a lane per context, and the fences' */
}

static void tl_name_lane(struct tl_writer *w, uint32_t track, bool cpu)
{
    if (tl_lane_seen(w, track | (cpu ? 0x80000000u : 0)))
        return;
    uint32_t pid, tid;
    tl_lane_ids(track, cpu, &pid, &tid);
    char name[64];
    uint32_t kind = cpu ? 0 : tl_lane_class(track);
    switch (kind) {
    case 0:
        if (cpu)
            snprintf(name, sizeof name, "CPU thread %u", track);
        else
            snprintf(name, sizeof name, "context 0x%08x queue", track);
        break;
    case 1: snprintf(name, sizeof name, "GPU node %u (engine)", track & 0xFFu); break;
    case 2: snprintf(name, sizeof name, "node %u paging queue", track & 0xFFu); break;
    case 3: snprintf(name, sizeof name, "VidMm"); break;
    case 5: snprintf(name, sizeof name, "monitored fences (GPU signals)"); break;
    default: snprintf(name, sizeof name, "segment %u", track & 0xFFu); break;
    }
    tl_sep(w);
    fprintf(w->f, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":\"%s\"}}", pid,
            tid, name);
    /* Engines first, then queues, VidMm, counters: the order GPUView draws them. */
    tl_sep(w);
    fprintf(w->f, "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%u,\"tid\":%u,\"args\":{\"sort_index\":%u}}",
            pid, tid, cpu ? track : (kind << 8) | (track & 0xFFu));
}

static void tl_complete(struct tl_writer *w, uint32_t track, uint64_t t0, uint64_t t1, const char *name,
                        const char *status, uint64_t fence, uint64_t context)
{
    uint32_t pid, tid;
    tl_lane_ids(track, false, &pid, &tid);
    tl_name_lane(w, track, false);
    tl_sep(w);
    fprintf(w->f,
            "{\"ph\":\"X\",\"cat\":\"gpu\",\"name\":\"%s\",\"pid\":%u,\"tid\":%u,\"ts\":%.3f,\"dur\":%.3f,"
            "\"args\":{\"fence\":%" PRIu64 ",\"context\":\"0x%08" PRIx64 "\",\"status\":\"%s\"}}",
            name, pid, tid, t0 / 1000.0, (t1 - t0) / 1000.0, fence, context, status);
}

static struct tl_open *tl_find_open(struct tl_writer *w, uint32_t track)
{
    for (size_t i = 0; i < w->open_n; i++)
        if (w->open[i].track == track)
            return &w->open[i];
    return NULL;
}

static void tl_open_span(struct tl_writer *w, uint32_t track, uint64_t ts, uint64_t fence, uint64_t context)
{
    struct tl_open *o = tl_find_open(w, track);
    if (!o) {
        struct tl_open *open = tl_room(w->open, w->open_n, &w->open_cap, sizeof *open);
        if (!open)
            return;
        w->open = open;
        o = &w->open[w->open_n++];
    }
    *o = (struct tl_open){ .track = track, .ts = ts, .fence = fence, .context = context };
}

/* Closes the span open on `track` (if `fence` is ~0 or its fence); returns whether one was. */
static bool tl_close_span(struct tl_writer *w, uint32_t track, uint64_t ts, uint64_t fence, const char *status,
                          bool engine)
{
    struct tl_open *o = tl_find_open(w, track);
    if (!o || o->track == 0 || (fence != ~0ull && o->fence != fence))
        return false;
    char name[48];
    if (engine)
        snprintf(name, sizeof name, o->context ? "DMA buffer %" PRIu64 : "paging buffer %" PRIu64, o->fence);
    else
        snprintf(name, sizeof name, "packet %" PRIu64, o->fence);
    tl_complete(w, track, o->ts, ts, name, status, o->fence, o->context);
    o->track = 0;
    return true;
}

/* A context lane for a packet: the context's own, or its node's paging queue. */
static uint32_t tl_queue_lane(uint32_t engine_lane, uint64_t context)
{
    return context ? (uint32_t)context : WDDM_TL_PAGING_QUEUE(tl_adapter_of(engine_lane), engine_lane & 0xFFu);
}

static void tl_instant(struct tl_writer *w, const struct tl_event *e, const char *name, const char *args)
{
    uint32_t pid, tid;
    tl_lane_ids(e->track, false, &pid, &tid);
    tl_name_lane(w, e->track, false);
    tl_sep(w);
    fprintf(w->f, "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"kernel\",\"name\":\"%s\",\"pid\":%u,\"tid\":%u,\"ts\":%.3f,"
            "\"args\":{%s}}", name, pid, tid, e->ts / 1000.0, args);
}


static void tl_write_event(struct tl_writer *w, const struct tl_event *e)
{
    char args[160];
    switch ((enum wddm_tl_kind)e->kind) {
    case WDDM_TL_DMA_START:
        tl_close_span(w, e->track, e->ts, ~0ull, "replaced", true);
        tl_open_span(w, e->track, e->ts, e->a, e->b);
        break;
    case WDDM_TL_DMA_COMPLETE:
        tl_close_span(w, e->track, e->ts, e->a, "completed", true);
        for (size_t i = 0; i < w->inflight_n; i++) {
            struct tl_inflight *p = &w->inflight[i];
            if (p->engine == e->track && p->fence == e->a) {
                char name[48];
                snprintf(name, sizeof name, "packet %" PRIu64, p->fence);
                tl_complete(w, tl_queue_lane(p->engine, p->context), p->ts, e->ts, name, "completed", p->fence,
                            p->context);
                w->inflight[i] = w->inflight[--w->inflight_n];
                break;
            }
        }
        break;
    case WDDM_TL_DMA_PREEMPTED:
        tl_close_span(w, e->track, e->ts, ~0ull, "preempted", true);
        break;
    case WDDM_TL_ENGINE_RESET:
        tl_close_span(w, e->track, e->ts, ~0ull, "reset", true);
        snprintf(args, sizeof args, "\"guilty context\":\"0x%08" PRIx64 "\",\"last aborted fence\":%" PRIu64, e->a,
                 e->b);
        tl_instant(w, e, "TDR: reset", args);
        break;
    case WDDM_TL_CONTEXT_SWITCH:
        snprintf(args, sizeof args, "\"to\":\"0x%08" PRIx64 "\",\"from\":\"0x%08" PRIx64 "\"", e->a, e->b);
        tl_instant(w, e, "context switch", args);
        break;
    case WDDM_TL_PREEMPT_REQUEST:
        snprintf(args, sizeof args, "\"preemption fence\":%" PRIu64 ",\"for context\":\"0x%08" PRIx64 "\"", e->a, e->b);
        tl_instant(w, e, "preempt request", args);
        break;
    case WDDM_TL_SUBMIT: {
        struct tl_inflight *inflight = tl_room(w->inflight, w->inflight_n, &w->inflight_cap, sizeof *inflight);
        if (!inflight)
            break;
        w->inflight = inflight;
        w->inflight[w->inflight_n++] =
            (struct tl_inflight){ .engine = e->track, .fence = e->a, .context = e->b, .ts = e->ts };
        break;
    }
    case WDDM_TL_QUEUED: {
        char name[48];
        snprintf(name, sizeof name, "queued %" PRIu64, e->a);
        tl_complete(w, e->track, e->b <= e->ts ? e->b : e->ts, e->ts, name, "software queue", e->a, e->track);
        break;
    }
    case WDDM_TL_EVICT:
    case WDDM_TL_PAGE_IN:
    case WDDM_TL_RENAME:
        snprintf(args, sizeof args, "\"allocation\":\"0x%08" PRIx64 "\",\"bytes\":%" PRIu64, e->a, e->b);
        tl_instant(w, e, e->kind == WDDM_TL_EVICT ? "evict" : e->kind == WDDM_TL_PAGE_IN ? "page in" : "rename",
                   args);
        break;
    case WDDM_TL_DEVICE_LOST:
        snprintf(args, sizeof args, "\"device\":\"0x%08" PRIx64 "\",\"state\":%" PRIu64, e->a, e->b);
        tl_instant(w, e, "device lost", args);
        break;
    case WDDM_TL_FENCE_SIGNAL:
        snprintf(args, sizeof args, "\"object\":\"0x%08" PRIx64 "\",\"value\":%" PRIu64, e->a, e->b);
        tl_instant(w, e, "GPU signal", args);
        break;
    case WDDM_TL_GPU_WAIT:
        snprintf(args, sizeof args, "\"object\":\"0x%08" PRIx64 "\",\"value\":%" PRIu64, e->a, e->b);
        tl_instant(w, e, "GPU wait", args);
        break;
    case WDDM_TL_RESERVATION: {
        uint32_t pid, tid;
        tl_lane_ids(e->track, false, &pid, &tid);
        tl_sep(w);
        fprintf(w->f, "{\"ph\":\"C\",\"name\":\"%s reservation bytes\",\"pid\":%u,\"ts\":%.3f,"
                "\"args\":{\"bytes\":%" PRIu64 "}}", e->b ? "non-local" : "local", pid, e->ts / 1000.0, e->a);
        /* The counter draws the level; the change is also one of VidMm's decisions on its lane. */
        snprintf(args, sizeof args, "\"bytes\":%" PRIu64 ",\"group\":\"%s\"", e->a, e->b ? "non-local" : "local");
        tl_instant(w, e, "reservation", args);
        break;
    }
    case WDDM_TL_SEGMENT_USED: {
        uint32_t pid, tid;
        tl_lane_ids(e->track, false, &pid, &tid);
        tl_sep(w);
        fprintf(w->f, "{\"ph\":\"C\",\"name\":\"segment %u bytes used\",\"pid\":%u,\"ts\":%.3f,"
                "\"args\":{\"bytes\":%" PRIu64 "}}", e->track & 0xFFu, pid, e->ts / 1000.0, e->a);
        break;
    }
    case WDDM_TL_CPU_BEGIN:
    case WDDM_TL_CPU_END:
        tl_name_lane(w, e->track, true);
        tl_sep(w);
        if (e->kind == WDDM_TL_CPU_BEGIN)
            fprintf(w->f, "{\"ph\":\"B\",\"cat\":\"cpu\",\"name\":\"%s\",\"pid\":%u,\"tid\":%u,\"ts\":%.3f}",
                    tl_call(e->a), TL_PID_CPU, e->track, e->ts / 1000.0);
        else if (e->b >> TL_POLLS_SHIFT) /* a poll: how many it stands for */
            fprintf(w->f, "{\"ph\":\"E\",\"cat\":\"cpu\",\"name\":\"%s\",\"pid\":%u,\"tid\":%u,\"ts\":%.3f,"
                    "\"args\":{\"result\":\"0x%08" PRIx64 "\",\"polls\":%" PRIu64 "}}", tl_call(e->a), TL_PID_CPU,
                    e->track, e->ts / 1000.0, e->b & 0xFFFFFFFFu, e->b >> TL_POLLS_SHIFT);
        else
            fprintf(w->f, "{\"ph\":\"E\",\"cat\":\"cpu\",\"name\":\"%s\",\"pid\":%u,\"tid\":%u,\"ts\":%.3f,"
                    "\"args\":{\"result\":\"0x%08" PRIx64 "\"}}", tl_call(e->a), TL_PID_CPU, e->track,
                    e->ts / 1000.0, e->b & 0xFFFFFFFFu);
        break;
    case WDDM_TL_KIND_COUNT:
        break;
    }
}

static void tl_name_processes(struct tl_writer *w, const struct tl_event *ev, size_t n)
{
    tl_sep(w);
    fprintf(w->f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"args\":{\"name\":\"CPU threads\"}}",
            TL_PID_CPU);
    tl_sep(w);
    fprintf(w->f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"args\":{\"name\":\"Context queues\"}}",
            TL_PID_QUEUES);
    uint32_t named[16];
    size_t k = 0;
    for (size_t i = 0; i < n && k < 16; i++) {
        if (ev[i].kind == WDDM_TL_CPU_BEGIN || ev[i].kind == WDDM_TL_CPU_END || !tl_adapter_lane(ev[i].track))
            continue;
        uint32_t a = tl_adapter_of(ev[i].track);
        bool seen = false;
        for (size_t j = 0; j < k; j++)
            seen |= named[j] == a;
        if (seen)
            continue;
        named[k++] = a;
        tl_sep(w);
        fprintf(w->f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"args\":{\"name\":\"GPU adapter %u\"}}",
                tl_pid_of_adapter(a), a);
    }
}

/* The trace-event JSON of what is recorded, to f. Called with tl.lock held. */
static bool tl_write_json(FILE *f)
{
    size_t n = 0;
    struct tl_event *ev = tl_collect(&n);
    if (!ev)
        return false;
    struct tl_writer w = { .f = f, .first = true };
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", f);
    tl_name_processes(&w, ev, n);
    for (size_t i = 0; i < n; i++)
        tl_write_event(&w, &ev[i]);
    fprintf(f, "\n],\"otherData\":{\"producer\":\"libwddm\",\"dropped_events\":%" PRIu64 "}}\n",
            atomic_load(&tl.dropped));
    free(w.inflight);
    free(w.open);
    free(w.lanes);
    free(ev);
    return true;
}

/* The viewer page (src/common/timeline_view.html, embedded by CMake) with the JSON at its
 * marker. The JSON holds no "</" (names and numbers only), so it cannot end the script. */
extern const char wddm_timeline_view_html[];
static bool tl_write_html(FILE *f)
{
    static const char marker[] = "/*TRACE_JSON*/";
    const char *at = strstr(wddm_timeline_view_html, marker);
    if (!at)
        return false;
    fwrite(wddm_timeline_view_html, 1, (size_t)(at - wddm_timeline_view_html), f);
    if (!tl_write_json(f))
        return false;
    fputs(at + sizeof marker - 1, f);
    return true;
}

static NTSTATUS tl_write_file(const char *path, bool (*body)(FILE *))
{
    if (!path || !*path)
        return STATUS_INVALID_PARAMETER;
    pthread_mutex_lock(&tl.lock);
    FILE *f = fopen(path, "w");
    if (!f) {
        pthread_mutex_unlock(&tl.lock);
        return STATUS_ACCESS_DENIED;
    }
    bool ok = body(f);
    ok &= !ferror(f);
    ok &= fclose(f) == 0;
    pthread_mutex_unlock(&tl.lock);
    return ok ? STATUS_SUCCESS : STATUS_UNSUCCESSFUL;
}

NTSTATUS wddm_timeline_write(const char *path)
{
    return tl_write_file(path, tl_write_json);
}

NTSTATUS wddm_timeline_write_html(const char *path)
{
    return tl_write_file(path, tl_write_html);
}

/* WDDM_TRACE=file.json and WDDM_TRACE_HTML=file.html: record from the start, write at exit. */
static char *tl_exit_json, *tl_exit_html;

static void tl_write_at_exit(void)
{
    const char *vars[2] = { "WDDM_TRACE", "WDDM_TRACE_HTML" };
    char **paths[2] = { &tl_exit_json, &tl_exit_html };
    NTSTATUS (*writers[2])(const char *) = { wddm_timeline_write, wddm_timeline_write_html };
    for (int i = 0; i < 2; i++) {
        if (!*paths[i])
            continue;
        NTSTATUS st = writers[i](*paths[i]);
        if (!NT_SUCCESS(st))
            fprintf(stderr, "wddm: timeline: cannot write %s=%s (0x%08x)\n", vars[i], *paths[i], (unsigned)st);
        free(*paths[i]);
        *paths[i] = NULL;
    }
}

__attribute__((constructor)) static void tl_from_environment(void)
{
    const char *j = getenv("WDDM_TRACE"), *h = getenv("WDDM_TRACE_HTML");
    tl_exit_json = j && *j ? strdup(j) : NULL;
    tl_exit_html = h && *h ? strdup(h) : NULL;
    if (!tl_exit_json && !tl_exit_html)
        return;
    wddm_timeline_enable(1);
    atexit(tl_write_at_exit);
}
