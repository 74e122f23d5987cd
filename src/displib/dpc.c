/* DPCs (include/wddm/wdm.h): one queue and one thread, the shim's only "processor", started by
 * the first KeInsertQueueDpc. The thread runs each routine at DISPATCH_LEVEL, one at a time in
 * queueing order; a KDPC is queued at most once at a time (KDPC.DpcData non-NULL meanwhile). */
#include "displib/wdk_shim.h"

#include <pthread.h>
#include <stdatomic.h>

/* What KeInitializeDpc writes in KDPC.Type (the WDK's DpcObject), so a KDPC that never went
 * through it is seen. */
#define DPC_OBJECT_TYPE 19

static pthread_mutex_t dpc_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t dpc_queued = PTHREAD_COND_INITIALIZER; /* the queue is no longer empty */
static pthread_cond_t dpc_ran = PTHREAD_COND_INITIALIZER;    /* a routine returned */
static pthread_once_t dpc_once = PTHREAD_ONCE_INIT;
static int dpc_thread_started; /* under dpc_lock */
/* FIFO through KDPC.DpcListEntry. */
static SINGLE_LIST_ENTRY *queue_head, *queue_tail;

static KDPC *dpc_of(SINGLE_LIST_ENTRY *entry)
{
    return CONTAINING_RECORD(entry, KDPC, DpcListEntry);
}

static void *dpc_thread(void *arg)
{
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&dpc_lock);
        while (!queue_head)
            pthread_cond_wait(&dpc_queued, &dpc_lock);
        KDPC *dpc = dpc_of(queue_head);
        queue_head = queue_head->Next;
        if (!queue_head)
            queue_tail = NULL;
        /* Off the queue before it runs: the routine, or anyone, may queue it again. Nothing of
         * the KDPC is read after the routine returns (it may free it). */
        PKDEFERRED_ROUTINE routine = dpc->DeferredRoutine;
        PVOID context = dpc->DeferredContext, a1 = dpc->SystemArgument1, a2 = dpc->SystemArgument2;
        dpc->DpcData = NULL;
        dpc->DpcListEntry.Next = NULL;
        pthread_mutex_unlock(&dpc_lock);

        displib_irql_set(DISPATCH_LEVEL);
        routine(dpc, context, a1, a2);
        KIRQL after = KeGetCurrentIrql();
        if (after != DISPATCH_LEVEL) {
            char irql[16];
            displib_report("DPC routine %p returned at %s: a DPC routine must return at DISPATCH_LEVEL",
                           (void *)dpc, displib_irql_name(after, irql));
        }
        displib_irql_set(PASSIVE_LEVEL);

        pthread_mutex_lock(&dpc_lock);
        pthread_cond_broadcast(&dpc_ran);
        pthread_mutex_unlock(&dpc_lock);
    }
    return NULL;
}

static void start_dpc_thread(void)
{
    pthread_t t;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    int started = pthread_create(&t, &a, dpc_thread, NULL) == 0;
    pthread_attr_destroy(&a);
    pthread_mutex_lock(&dpc_lock);
    dpc_thread_started = started;
    pthread_mutex_unlock(&dpc_lock);
    if (!started)
        displib_report("KeInsertQueueDpc: the DPC thread could not be started: DPCs stay queued");
}

VOID KeInitializeDpc(PRKDPC Dpc, PKDEFERRED_ROUTINE DeferredRoutine, PVOID DeferredContext)
{
    memset(Dpc, 0, sizeof *Dpc);
    Dpc->Type = DPC_OBJECT_TYPE;
    Dpc->Importance = MediumImportance;
    Dpc->DeferredRoutine = DeferredRoutine;
    Dpc->DeferredContext = DeferredContext;
}

static void enqueue_locked(KDPC *dpc)
{
    dpc->DpcData = &queue_head;
    dpc->DpcListEntry.Next = NULL;
    if (queue_tail)
        queue_tail->Next = &dpc->DpcListEntry;
    else
        queue_head = &dpc->DpcListEntry;
    queue_tail = &dpc->DpcListEntry;
    pthread_cond_signal(&dpc_queued);
}

BOOLEAN KeInsertQueueDpc(PRKDPC Dpc, PVOID SystemArgument1, PVOID SystemArgument2)
{
    if (!Dpc || Dpc->Type != DPC_OBJECT_TYPE || !Dpc->DeferredRoutine) {
        displib_report("KeInsertQueueDpc: %p is not a KDPC initialized with KeInitializeDpc: not queued", (void *)Dpc);
        return FALSE;
    }
    pthread_once(&dpc_once, start_dpc_thread);
    pthread_mutex_lock(&dpc_lock);
    BOOLEAN queued = Dpc->DpcData == NULL;
    if (queued) {
        Dpc->SystemArgument1 = SystemArgument1;
        Dpc->SystemArgument2 = SystemArgument2;
        enqueue_locked(Dpc);
    }
    pthread_mutex_unlock(&dpc_lock);
    return queued;
}

BOOLEAN KeRemoveQueueDpc(PRKDPC Dpc)
{
    if (!Dpc)
        return FALSE;
    pthread_mutex_lock(&dpc_lock);
    BOOLEAN removed = Dpc->DpcData != NULL;
    if (removed) {
        SINGLE_LIST_ENTRY **link = &queue_head, *previous = NULL;
        while (*link != &Dpc->DpcListEntry) {
            previous = *link;
            link = &(*link)->Next;
        }
        *link = Dpc->DpcListEntry.Next;
        if (queue_tail == &Dpc->DpcListEntry)
            queue_tail = previous;
        Dpc->DpcListEntry.Next = NULL;
        Dpc->DpcData = NULL;
    }
    pthread_mutex_unlock(&dpc_lock);
    return removed;
}

/* The flush's own DPC, queued behind every other: when it has run, they have. */
static VOID flush_marker(KDPC *Dpc, PVOID DeferredContext, PVOID SystemArgument1, PVOID SystemArgument2)
{
    atomic_store_explicit((atomic_int *)DeferredContext, 1, memory_order_release);
}

VOID KeFlushQueuedDpcs(VOID)
{
    KIRQL level = KeGetCurrentIrql();
    if (level > PASSIVE_LEVEL) {
        char irql[16];
        displib_report("KeFlushQueuedDpcs: called at %s: only at PASSIVE_LEVEL (from a DPC it would wait for itself): "
                       "returns without waiting",
                       displib_irql_name(level, irql));
        return;
    }
    atomic_int done = 0;
    KDPC marker;
    KeInitializeDpc(&marker, flush_marker, &done);
    pthread_mutex_lock(&dpc_lock);
    /* No thread: nothing was ever queued, or it could not start and nothing will run. With
     * one, the marker also waits for a routine running now. */
    if (dpc_thread_started) {
        enqueue_locked(&marker);
        /* The DPC thread sets `done`, then takes dpc_lock to broadcast: a wake-up cannot be
         * missed while this thread holds the lock between its look and its wait. */
        while (!atomic_load_explicit(&done, memory_order_acquire))
            pthread_cond_wait(&dpc_ran, &dpc_lock);
    }
    pthread_mutex_unlock(&dpc_lock);
}
