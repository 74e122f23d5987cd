/* Timeout detection and recovery (issue 4; docs/semantics.md §8.3, "TDR changes in Windows 8").
 *
 * Detection: one watchdog thread per adapter looks at every node a few times per TdrDelay
 * (WDDM_TDR_DELAY_MS, default 2000 ms, the Windows default). A node with packets in its
 * hardware queue whose completed fence has not moved makes no progress. Half way through the
 * delay a PreemptionAware KMD is asked to preempt (the OS always tries to preempt before
 * declaring a timeout); a preemption answered is progress. When the delay has passed, the KMD
 * is asked DxgkDdiQueryEngineStatus: a Responsive engine (a paused test GPU, a long command
 * still moving) restarts the clock; otherwise the node timed out.
 *
 * Recovery, engine first (DXGK_DRIVERCAPS.SupportPerEngineTDR): the device of the packet at the
 * head of the hardware queue (the one the engine is stuck in) is put in error as HUNG before
 * anything is reset, so a thread woken by the recovery already finds its device lost; the gate
 * closes (sched/preempt.c); DxgkDdiResetEngine answers LastAbortedFenceId, which must lie
 * between the last completed and the last submitted fence; packets up to it retire (their
 * devices in error: the one stopped in the middle HUNG, any other RESET, as the documentation's
 * race window requires), packets after it go back to their contexts' queues and are resubmitted
 * with new fences; other devices lose nothing.
 * Escalation to the adapter (DxgkDdiResetFromTimeout, then DxgkDdiRestartFromTimeout): without
 * per-engine reset, when ResetEngine fails or answers an impossible fence, and for a timeout on
 * the paging node (its paging buffers would have to be resubmitted with their fence IDs). Every
 * device of the adapter is lost (the guilty one HUNG, the others RESET), every submitted packet
 * retires. Lost devices' monitored fences are signalled to their maximum value.
 *
 * Limits (WDK "TDR registry keys": TdrLimitCount, default 5, TdrLimitTime, default 60 s;
 * "Timeout detection and recovery": after that many GPU hangs and recoveries within the time,
 * the OS bug-checks on the next one; bug check 0x116 VIDEO_TDR_FAILURE lists too many TDRs in a
 * short time as a cause): every adapter timeout - the adapter resets above, the 0x117 kind - is
 * counted per adapter with its time (WDDM_TDR_LIMIT_COUNT, WDDM_TDR_LIMIT_TIME_S). Engine
 * timeouts (0x141) do not add to that count (same page) and are not counted here. An adapter
 * timeout that would be the (count+1)-th within the time is not recovered. There is no machine to
 * stop, so the adapter is stopped: every device of it is lost (the guilty one HUNG, the others
 * STOPPED, D3DKMT's "the device is stopped", which the runtime answers as
 * DXGI_ERROR_DEVICE_REMOVED), the reset DDIs still drop the hardware's work so that no packet,
 * lock or CPU wait waits for ever and the kernel's own paging still runs while the devices are
 * destroyed, and D3DKMTCreateDevice and D3DKMTCreateContext refuse it with STATUS_DEVICE_REMOVED
 * until the adapter is started anew (every handle of it closed, then enumerated again). */
#include "dxgkrnl/sched/sched.h"
#include "common/timeline.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

bool dxgk_device_set_error_locked(struct dxgk_device *d, NTSTATUS st, D3DKMT_DEVICEEXECUTION_STATE state)
{
    WDDM_ASSERT_HELD(&d->adapter->lock);
    if (!NT_SUCCESS(d->error))
        return false; /* the first cause sticks (GetDeviceRemovedReason answers it) */
    d->exec_state = state;
    /* Atomic: D3DKMTCreateAllocation reads it without the adapter lock. */
    __atomic_store_n(&d->error, st, __ATOMIC_RELAXED);
    dxgk_refuse("device 0x%08x lost: 0x%08x, execution state %d; its queued work is dropped", d->handle,
                (unsigned)st, (int)state);
    wddm_tl(WDDM_TL_DEVICE_LOST, WDDM_TL_VIDMM(dxgk_timeline_adapter(d->adapter)), d->handle, (UINT64)state);
    return true;
}

/* A GPU page fault recorded at interrupt level (sched/interrupt.c) loses its device: every
 * later submission fails STATUS_DEVICE_REMOVED and EXECUTION answers ERROR_DMAPAGEFAULT
 * (issue 6, docs/semantics.md §8.4). */
void dxgk_device_fault_sync_locked(struct dxgk_device *d)
{
    WDDM_ASSERT_HELD(&d->adapter->lock);
    if (atomic_load_explicit(&d->faulted, memory_order_acquire) && NT_SUCCESS(d->error))
        (void)dxgk_device_set_error_locked(d, STATUS_DEVICE_REMOVED, D3DKMT_DEVICEEXECUTION_ERROR_DMAPAGEFAULT);
}

/* Name of a D3DKMT_DEVICESTATE_TYPE for the refusal line. */

/* A number from the environment in lo..hi, else a line and `def` (the registry's role). */
static UINT env_uint(const char *name, const char *unit, unsigned long lo, unsigned long hi, UINT def)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return def;
    char *end = NULL;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (*end || errno || *s < '0' || *s > '9' || v < lo || v > hi) {
        dxgk_refuse("%s=\"%s\" is not a number of %s in %lu..%lu: using %u", name, s, unit, lo, hi, def);
        return def;
    }
    return (UINT)v;
}

/* Devices to signal after recovery (no lock held then). */
struct lost_list {
    D3DKMT_HANDLE h[64];
    UINT count;
    UINT marked;                      /* the first `marked` are marked lost already */
    bool overflow;
};

static void lost_add(struct lost_list *l, struct dxgk_device *d)
{
    if (l->count < 64)
        l->h[l->count++] = d->handle;
    else
        l->overflow = true;
}

/* Before the packets a reset aborts retire (no lock held): the lost devices' handles take no more
 * signals from their contexts, so that a signal queued behind those packets cannot lower the
 * maximum value lost_signal gives their fences. */
static void lost_mark(struct lost_list *l)
{
    for (; l->marked < l->count; l->marked++)
        dxgk_syncobj_mark_lost(l->h[l->marked]);
}

static void lost_signal(struct lost_list *l)
{
    for (UINT i = 0; i < l->count; i++)
        dxgk_syncobj_signal_max_device(l->h[i]);
    if (l->overflow)
        dxgk_refuse("TDR: more than 64 devices lost at once: the others' monitored fences stay as they are");
}

/* One timeout's recovery as phases over one operation (issue 16): blame the device the engine is
 * stuck in, reset the engine, else check the limits and reset (or stop) the adapter, then
 * signal what was lost. The watchdog thread only. */
struct tdr_op {
    struct dxgk_adapter *a;
    struct gsched_node *n;             /* the node that timed out */
    struct dxgk_device *guilty;       /* one reference, or NULL (a paging buffer is stuck) */
    bool stop;                        /* past the limits: the adapter is stopped, not recovered */
    struct lost_list lost;
};

static UINT64 now_ms(void)
{
    return dxgk_now_ns() / 1000000u;
}

/* The clock of the limits: wddm_test_tdr_clock_advance moves it forward. */
static _Atomic UINT64 limit_clock_offset_ms;

void wddm_test_tdr_clock_advance(UINT seconds)
{
    atomic_fetch_add_explicit(&limit_clock_offset_ms, (UINT64)seconds * 1000u, memory_order_relaxed);
}

static UINT64 limit_clock_ms(void)
{
    return now_ms() + atomic_load_explicit(&limit_clock_offset_ms, memory_order_relaxed);
}

NTSTATUS dxgk_tdr_check_stopped_locked(struct dxgk_adapter *a, const char *call)
{
    WDDM_ASSERT_HELD(&a->lock);
    if (!a->tdr_stopped)
        return STATUS_SUCCESS;
    dxgk_refuse("%s: adapter stopped, more than WDDM_TDR_LIMIT_COUNT=%u adapter timeouts within "
                "WDDM_TDR_LIMIT_TIME_S=%llu s (Windows bug-checks 0x116): nothing new until it is started again",
                call, a->tdr_limit_count, (unsigned long long)(a->tdr_limit_ms / 1000u));
    return STATUS_DEVICE_REMOVED;
}

/* The context of the packet the engine is stuck in: the oldest not completed. node->lock. */
static struct dxgk_packet *hw_head_locked(struct gsched_node *n)
{
    WDDM_ASSERT_HELD(&n->lock);
    UINT64 done = atomic_load_explicit(&n->completed_fence, memory_order_relaxed);
    for (struct dxgk_packet *p = n->inflight; p; p = p->next)
        if (p->fence > done)
            return p;
    return NULL;
}

/* Phase 1: the packet the engine is stuck in names the guilty device; it is lost before
 * anything is reset so that every thread the recovery wakes finds it so. A forced engine
 * timeout (ENGINETDR) blames the same way: an idle engine names nobody. */
static void tdr_blame(struct tdr_op *op, bool forced)
{
    struct dxgk_adapter *a = op->a;
    pthread_mutex_lock(&a->lock);
    pthread_mutex_lock(&op->n->lock);
    struct dxgk_packet *head = hw_head_locked(op->n);
    if (head && head->ctx) {
        op->guilty = head->ctx->device;
        dxgk_object_get(&op->guilty->obj);
    }
    pthread_mutex_unlock(&op->n->lock);
    if (op->guilty && dxgk_device_set_error_locked(op->guilty, STATUS_DEVICE_REMOVED, D3DKMT_DEVICEEXECUTION_HUNG))
        lost_add(&op->lost, op->guilty);
    pthread_mutex_unlock(&a->lock);
    lost_mark(&op->lost);
    if (forced)
        dxgk_refuse("TDR: node %u: engine timeout forced by D3DKMT_TDRDBGCTRLTYPE_ENGINETDR", op->n->ordinal);
    else
        dxgk_refuse("TDR: node %u made no progress for %u ms: timeout", op->n->ordinal, a->tdr_delay_ms);
}

/* Phase 2: engine reset of the node; false: escalate to the adapter. */
static bool engine_reset(struct tdr_op *op)
{
    struct dxgk_adapter *a = op->a;
    struct gsched_node *n = op->n;
    const DRIVER_INITIALIZATION_DATA *ddi = &a->driver.ddi;
    if (!a->caps.SupportPerEngineTDR || !ddi->DxgkDdiResetEngine || n->ordinal == a->paging_node)
        return false;
    gsched_gate_close_for_reset(n);
    pthread_mutex_lock(&n->submit_lock);
    UINT64 submitted = n->submitted_fence;
    pthread_mutex_unlock(&n->submit_lock);
    UINT64 completed = atomic_load_explicit(&n->completed_fence, memory_order_acquire);
    DXGKARG_RESETENGINE re = { .NodeOrdinal = n->ordinal, .EngineOrdinal = 0 };
    NTSTATUS st = ddi->DxgkDdiResetEngine(a->miniport, &re);
    /* Reset or not, nothing of the node's contexts is loaded any more that the kernel must keep:
     * a reset engine starts in the null context (sched/switch.c). */
    pthread_mutex_lock(&n->submit_lock);
    if (NT_SUCCESS(st))
        gsched_switch_forget_locked(n);
    pthread_mutex_unlock(&n->submit_lock);
    if (!NT_SUCCESS(st)) {
        dxgk_refuse("TDR: DxgkDdiResetEngine(node %u) failed 0x%08x: adapter reset", n->ordinal, (unsigned)st);
        gsched_gate_open(n);
        return false;
    }
    UINT64 aborted = gsched_fence_extend(completed, re.LastAbortedFenceId);
    if (re.LastAbortedFenceId != (UINT)completed && (aborted <= completed || aborted > submitted)) {
        dxgk_refuse("verifier: DxgkDdiResetEngine LastAbortedFenceId %u outside [last completed %llu, last submitted "
                    "%llu] (Windows bugchecks 0x119/0xA): adapter reset",
                    re.LastAbortedFenceId, (unsigned long long)completed, (unsigned long long)submitted);
        gsched_gate_open(n);
        return false;
    }
    if (aborted < completed)
        aborted = completed;
    /* Packets up to the aborted one: lost with their devices (the one stopped in the middle
     * HUNG, one that completed in the race window RESET); then they retire. */
    pthread_mutex_lock(&a->lock);
    pthread_mutex_lock(&n->lock);
    D3DKMT_HANDLE guilty = 0;
    for (struct dxgk_packet *p = n->inflight; p && p->fence <= aborted; p = p->next) {
        if (p->paging || p->fence <= completed || !p->ctx)
            continue;
        bool head = p->fence == aborted;
        if (head)
            guilty = p->ctx->handle;
        if (dxgk_device_set_error_locked(p->ctx->device, STATUS_DEVICE_REMOVED,
                                         head ? D3DKMT_DEVICEEXECUTION_HUNG : D3DKMT_DEVICEEXECUTION_RESET))
            lost_add(&op->lost, p->ctx->device);
    }
    pthread_mutex_unlock(&n->lock);
    pthread_mutex_unlock(&a->lock);
    lost_mark(&op->lost);
    gsched_trace(n->adapter, WDDM_SCHED_EVENT_RESET, n->ordinal, guilty, 0, aborted);
    (void)gsched_resume_after(n, aborted);
    DXGK_COUNT(a, engine_resets, 1);
    return true;
}

/* Phase 3, an adapter timeout: within the limits it is remembered and recovered; the one that
 * would be the (WDDM_TDR_LIMIT_COUNT+1)-th within WDDM_TDR_LIMIT_TIME_S stops the adapter. It
 * is, when the count-th most recent adapter timeout recovered lies within the time (count 0:
 * the first one stops it). */
static void tdr_limit(struct tdr_op *op)
{
    struct dxgk_adapter *a = op->a;
    UINT64 now = limit_clock_ms();
    UINT count = a->tdr_limit_count;
    if (a->tdr_times_count >= count) {
        UINT64 oldest = count ? a->tdr_times[(a->tdr_times_next + DXGK_TDR_LIMIT_MAX - count) % DXGK_TDR_LIMIT_MAX]
                              : now;
        if (now - oldest < a->tdr_limit_ms) {
            op->stop = true;
            dxgk_refuse("TDR: node %u: one adapter timeout more than WDDM_TDR_LIMIT_COUNT=%u within "
                        "WDDM_TDR_LIMIT_TIME_S=%llu s: not recovered, the adapter is stopped and its devices lost "
                        "(Windows bug-checks 0x116)",
                        op->n->ordinal, count, (unsigned long long)(a->tdr_limit_ms / 1000u));
            return;
        }
    }
    a->tdr_times[a->tdr_times_next] = now;
    a->tdr_times_next = (a->tdr_times_next + 1) % DXGK_TDR_LIMIT_MAX;
    if (a->tdr_times_count < DXGK_TDR_LIMIT_MAX)
        a->tdr_times_count++;
}

/* Every device of the adapter is lost: the guilty one HUNG, the others RESET (§8.3) or, when
 * the adapter stops, STOPPED. A stop is marked first, under the adapter lock, so that a device
 * D3DKMTCreateDevice publishes later is refused and one published before is collected here. */
static void adapter_lose_devices(struct tdr_op *op)
{
    struct dxgk_adapter *a = op->a;
    if (op->stop) {
        pthread_mutex_lock(&a->lock);
        a->tdr_stopped = true;
        pthread_mutex_unlock(&a->lock);
    }
    D3DKMT_DEVICEEXECUTION_STATE innocent = op->stop ? D3DKMT_DEVICEEXECUTION_STOPPED : D3DKMT_DEVICEEXECUTION_RESET;
    struct dxgk_object **objs;
    D3DKMT_HANDLE *hs;
    size_t count = dxgk_handle_collect(DXGK_TYPE_DEVICE, &objs, &hs);
    pthread_mutex_lock(&a->lock);
    for (size_t i = 0; i < count; i++) {
        struct dxgk_device *d = (struct dxgk_device *)objs[i];
        if (d->adapter != a || d->dead)
            continue;
        if (dxgk_device_set_error_locked(d, STATUS_DEVICE_REMOVED,
                                         d == op->guilty ? D3DKMT_DEVICEEXECUTION_HUNG : innocent))
            lost_add(&op->lost, d);
    }
    pthread_mutex_unlock(&a->lock);
    for (size_t i = 0; i < count; i++)
        dxgk_object_put(objs[i]);
    free(objs);
    free(hs);
}

/* Phase 4: every device lost, DxgkDdiResetFromTimeout, every submitted packet retires, video
 * memory purged, DxgkDdiRestartFromTimeout. A stopped adapter goes through the same reset: it is what drops
 * the hardware's work (the devices are lost; the kernel's paging keeps running for their
 * destruction). */
static void adapter_reset(struct tdr_op *op)
{
    struct dxgk_adapter *a = op->a;
    const DRIVER_INITIALIZATION_DATA *ddi = &a->driver.ddi;
    adapter_lose_devices(op);
    lost_mark(&op->lost);
    for (UINT i = 0; i < a->node_count; i++)
        gsched_gate_close_for_reset(&a->node[i]);
    gsched_trace(a, WDDM_SCHED_EVENT_RESET, ~0u, 0, 0, 0);
    NTSTATUS st = ddi->DxgkDdiResetFromTimeout ? ddi->DxgkDdiResetFromTimeout(a->miniport) : STATUS_NOT_SUPPORTED;
    if (!NT_SUCCESS(st))
        /* Windows bugchecks here; the model carries on with every device lost. */
        dxgk_verifier_report(a, "DxgkDdiResetFromTimeout", "Tdr.ResetFromTimeout", false,
                             "%s (0x%08x): a timeout cannot be recovered without it (Windows bug-checks)",
                             ddi->DxgkDdiResetFromTimeout ? "failed" : "the KMD has none", (unsigned)st);
    /* For an adapter reset every node's completed fence is its last submitted one. */
    for (UINT i = 0; i < a->node_count; i++) {
        struct gsched_node *n = &a->node[i];
        pthread_mutex_lock(&n->submit_lock);
        UINT64 f = n->submitted_fence;
        if (NT_SUCCESS(st))
            gsched_switch_forget_locked(n); /* every engine restarts in the null context */
        pthread_mutex_unlock(&n->submit_lock);
        gsched_node_retire_to(n, f);
    }
    /* The cleanup between reset and restart: local video memory lost its content, VidMm takes
     * every allocation out of its segment (vidmm/purge.c); its paging buffers run on the paging
     * node, opened first. */
    gsched_gate_open(&a->node[a->paging_node]);
    UINT64 purged = a->up->purge_after_reset(a);
    DXGK_COUNT(a, allocations_purged, purged);
    st = ddi->DxgkDdiRestartFromTimeout ? ddi->DxgkDdiRestartFromTimeout(a->miniport) : STATUS_NOT_SUPPORTED;
    if (!NT_SUCCESS(st))
        dxgk_verifier_report(a, "DxgkDdiRestartFromTimeout", "Tdr.RestartFromTimeout", false,
                             "%s (0x%08x): the adapter cannot take work again after a reset",
                             ddi->DxgkDdiRestartFromTimeout ? "failed" : "the KMD has none", (unsigned)st);
    for (UINT i = 0; i < a->node_count; i++)
        if (i != a->paging_node)
            gsched_gate_open(&a->node[i]);
    if (op->stop)
        DXGK_COUNT(a, adapter_stops, 1);
    else
        DXGK_COUNT(a, adapter_resets, 1);
}

/* What the watchdog recovers from: a timeout it saw on a node, or one a test forced through
 * D3DKMTEscape(D3DKMT_ESCAPE_TDRDBGCTRL). */
enum tdr_cause {
    TDR_TIMEOUT,        /* node n made no progress */
    TDR_FORCED_ENGINE,  /* ENGINETDR: as a timeout of node n, seen now */
    TDR_FORCED_ADAPTER, /* FORCETDR: an adapter timeout no device caused; every device is lost
                           RESET, and it counts toward the TDR limits as any other */
};

static void recover(struct dxgk_adapter *a, struct gsched_node *n, enum tdr_cause cause)
{
    struct tdr_op op = { .a = a, .n = n };
    bool adapter = cause == TDR_FORCED_ADAPTER;
    if (adapter)
        dxgk_refuse("TDR: forced by D3DKMT_TDRDBGCTRLTYPE_FORCETDR: adapter reset");
    else
        tdr_blame(&op, cause == TDR_FORCED_ENGINE);
    if (adapter || !engine_reset(&op)) {
        tdr_limit(&op);
        adapter_reset(&op);
    }
    /* Phase 5: what was lost is signalled (no lock held). */
    if (!op.stop)
        atomic_fetch_add(&a->tdr_count, 1);
    if (op.guilty)
        dxgk_object_put(&op.guilty->obj);
    lost_signal(&op.lost);
}

void dxgk_tdr_force(struct dxgk_adapter *a)
{
    pthread_mutex_lock(&a->tdr_lock);
    a->tdr_forced = true;
    pthread_cond_signal(&a->tdr_cond);
    pthread_mutex_unlock(&a->tdr_lock);
}

void dxgk_tdr_force_engine(struct dxgk_adapter *a, UINT ordinal)
{
    pthread_mutex_lock(&a->tdr_lock);
    a->tdr_forced_engines |= 1u << ordinal;
    pthread_cond_signal(&a->tdr_cond);
    pthread_mutex_unlock(&a->tdr_lock);
}

static void *tdr_main(void *arg)
{
    struct dxgk_adapter *a = arg;
    UINT64 last_fence[DXGK_MAX_NODES] = { 0 }, since[DXGK_MAX_NODES] = { 0 };
    bool preempted[DXGK_MAX_NODES] = { false };
    UINT period = a->tdr_delay_ms / 8 ? a->tdr_delay_ms / 8 : 1;
    if (period > 100)
        period = 100;
    for (UINT i = 0; i < a->node_count; i++)
        since[i] = now_ms();
    pthread_mutex_lock(&a->tdr_lock);
    while (!a->tdr_stop) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_nsec += (long)(period % 1000) * 1000000l;
        ts.tv_sec += period / 1000 + ts.tv_nsec / 1000000000l;
        ts.tv_nsec %= 1000000000l;
        if (!a->tdr_forced && !a->tdr_forced_engines)
            pthread_cond_timedwait(&a->tdr_cond, &a->tdr_lock, &ts);
        if (a->tdr_stop)
            break;
        bool forced = a->tdr_forced;
        UINT engines = a->tdr_forced_engines;
        a->tdr_forced = false;
        a->tdr_forced_engines = 0;
        pthread_mutex_unlock(&a->tdr_lock);
        if (forced)
            recover(a, &a->node[0], TDR_FORCED_ADAPTER);
        for (UINT i = 0; i < a->node_count; i++)
            if (engines & (1u << i))
                recover(a, &a->node[i], TDR_FORCED_ENGINE);
        if (forced || engines)
            for (UINT i = 0; i < a->node_count; i++)
                since[i] = now_ms();
        UINT64 now = now_ms();
        for (UINT i = 0; i < a->node_count; i++) {
            struct gsched_node *n = &a->node[i];
            pthread_mutex_lock(&n->lock);
            bool busy = hw_head_locked(n) != NULL && !(n->gate == GSCHED_GATE_PREEMPT && n->preempt_answered);
            UINT64 done = atomic_load_explicit(&n->completed_fence, memory_order_relaxed) + n->preemptions;
            pthread_mutex_unlock(&n->lock);
            if (!busy || done != last_fence[i]) {
                last_fence[i] = done;
                since[i] = now;
                preempted[i] = false;
                continue;
            }
            UINT64 stalled = now - since[i];
            if (!preempted[i] && stalled * 2 >= a->tdr_delay_ms && gsched_preemption_supported(a, n)) {
                preempted[i] = true; /* try to preempt before declaring a timeout (§8.2 inv. 5) */
                (void)gsched_preempt_request(n, 0);
                continue;
            }
            if (stalled < a->tdr_delay_ms)
                continue;
            if (a->driver.ddi.DxgkDdiQueryEngineStatus) {
                DXGKARG_QUERYENGINESTATUS q = { .NodeOrdinal = i, .EngineOrdinal = 0 };
                NTSTATUS st = a->driver.ddi.DxgkDdiQueryEngineStatus(a->miniport, &q);
                if (NT_SUCCESS(st) && q.EngineStatus.Responsive) {
                    since[i] = now; /* still moving, or paused by a test: not hung */
                    continue;
                }
            }
            recover(a, n, TDR_TIMEOUT);
            since[i] = now_ms();
            preempted[i] = false;
        }
        pthread_mutex_lock(&a->tdr_lock);
    }
    pthread_mutex_unlock(&a->tdr_lock);
    return NULL;
}

bool dxgk_tdr_start(struct dxgk_adapter *a)
{
    a->tdr_delay_ms = env_uint("WDDM_TDR_DELAY_MS", "milliseconds", 1, 3600000ul, 2000);
    a->tdr_limit_count = env_uint("WDDM_TDR_LIMIT_COUNT", "adapter timeouts", 0, DXGK_TDR_LIMIT_MAX, 5);
    a->tdr_limit_ms = env_uint("WDDM_TDR_LIMIT_TIME_S", "seconds", 1, 86400ul, 60) * 1000ull;
    a->tdr_stop = false;
    pthread_mutex_init(&a->tdr_lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&a->tdr_cond, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&a->tdr_thread, NULL, tdr_main, a) != 0) {
        pthread_mutex_destroy(&a->tdr_lock);
        pthread_cond_destroy(&a->tdr_cond);
        return false;
    }
    a->tdr_started = true;
    return true;
}

void dxgk_tdr_stop(struct dxgk_adapter *a)
{
    if (!a->tdr_started)
        return;
    pthread_mutex_lock(&a->tdr_lock);
    a->tdr_stop = true;
    pthread_cond_signal(&a->tdr_cond);
    pthread_mutex_unlock(&a->tdr_lock);
    pthread_join(a->tdr_thread, NULL);
    a->tdr_started = false;
    pthread_mutex_destroy(&a->tdr_lock);
    pthread_cond_destroy(&a->tdr_cond);
}
