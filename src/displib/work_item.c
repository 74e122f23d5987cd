/* Work items (include/wddm/wdm.h): IoQueueWorkItem hands a routine to a worker thread, which runs
 * it at PASSIVE_LEVEL (IoQueueWorkItem reference). A work item is a non-paged pool block of tag
 * "IoWI", so IoFreeWorkItem and IoQueueWorkItem know a live one without reading it. Worker
 * threads are started when an item is queued and every worker is busy (up to
 * WDDM_WORK_ITEM_THREADS), so a routine that waits for a later item does not wait for ever; they
 * are detached, like the DPC thread, and hold nothing at exit. */
#include "displib/wdk_shim.h"

#include <pthread.h>

#define WORK_ITEM_TAG 0x49576F49u /* "IoWI" in memory order */

struct _IO_WORKITEM {
    PDEVICE_OBJECT device;
    PIO_WORKITEM_ROUTINE routine;
    PVOID context;
    struct _IO_WORKITEM *next; /* in the queue */
    int queued;                /* in the queue, its routine not started */
    int free_after_run;        /* IoFreeWorkItem came while it was queued */
};

static pthread_mutex_t work_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work_queued = PTHREAD_COND_INITIALIZER;
static IO_WORKITEM *queue_head, *queue_tail;
/* Workers waiting for an item, and items no worker has taken: a queueing starts a worker when
 * the waiting ones are fewer than the items, up to WDDM_WORK_ITEM_THREADS. */
static unsigned workers, idle_workers, waiting_items;

static void free_item(IO_WORKITEM *item)
{
    ExFreePoolWithTag(item, WORK_ITEM_TAG);
}

static void *worker_thread(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&work_lock);
    for (;;) {
        idle_workers++;
        while (!queue_head)
            pthread_cond_wait(&work_queued, &work_lock);
        idle_workers--;
        waiting_items--;
        IO_WORKITEM *item = queue_head;
        queue_head = item->next;
        if (!queue_head)
            queue_tail = NULL;
        item->next = NULL;
        item->queued = 0;
        PIO_WORKITEM_ROUTINE routine = item->routine;
        PDEVICE_OBJECT device = item->device;
        PVOID context = item->context;
        int free_after = item->free_after_run;
        pthread_mutex_unlock(&work_lock);

        /* Nothing of the item is read after the routine starts: it may free the item. */
        displib_irql_set(PASSIVE_LEVEL);
        routine(device, context);
        KIRQL after = KeGetCurrentIrql();
        if (after != PASSIVE_LEVEL) {
            char irql[16];
            displib_report("work item routine %p returned at %s: it must return at PASSIVE_LEVEL "
                           "(WORKER_THREAD_RETURNED_AT_BAD_IRQL on Windows)",
                           (void *)item, displib_irql_name(after, irql));
            displib_irql_set(PASSIVE_LEVEL);
        }
        if (free_after)
            free_item(item);
        pthread_mutex_lock(&work_lock);
    }
    return NULL;
}

/* Under work_lock. */
static int start_worker_locked(void)
{
    pthread_t t;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    int started = pthread_create(&t, &a, worker_thread, NULL) == 0;
    pthread_attr_destroy(&a);
    return started;
}

static int live(const char *who, const IO_WORKITEM *item)
{
    if (displib_pool_tag_of(item) == WORK_ITEM_TAG)
        return 1;
    displib_report("%s: %p is not a live work item of IoAllocateWorkItem (never allocated, or freed): "
                   "nothing done",
                   who, (const void *)item);
    return 0;
}

PIO_WORKITEM IoAllocateWorkItem(PDEVICE_OBJECT DeviceObject)
{
    if (!displib_irql_at_most("IoAllocateWorkItem", DISPATCH_LEVEL, ": nothing done"))
        return NULL;
    IO_WORKITEM *item = displib_pool_allocate("IoAllocateWorkItem", 0, sizeof *item, WORK_ITEM_TAG);
    if (item)
        item->device = DeviceObject;
    return item;
}

VOID IoQueueWorkItem(PIO_WORKITEM IoWorkItem, PIO_WORKITEM_ROUTINE WorkerRoutine, WORK_QUEUE_TYPE QueueType,
                     PVOID Context)
{
    (void)QueueType; /* one kind of worker here */
    if (!displib_irql_at_most("IoQueueWorkItem", DISPATCH_LEVEL, ": nothing done") || !live("IoQueueWorkItem", IoWorkItem))
        return;
    if (!WorkerRoutine) {
        displib_report("IoQueueWorkItem: work item %p: WorkerRoutine is NULL: not queued", (void *)IoWorkItem);
        return;
    }
    pthread_mutex_lock(&work_lock);
    const char *refusal = NULL;
    if (IoWorkItem->free_after_run)
        refusal = "was freed (IoFreeWorkItem)";
    else if (IoWorkItem->queued)
        refusal = "is queued already (Windows corrupts its work queue)";
    else if (idle_workers <= waiting_items && workers < WDDM_WORK_ITEM_THREADS && start_worker_locked())
        workers++;
    else if (!workers)
        refusal = "no worker thread could be started";
    if (!refusal) {
        IoWorkItem->routine = WorkerRoutine;
        IoWorkItem->context = Context;
        IoWorkItem->queued = 1;
        IoWorkItem->next = NULL;
        if (queue_tail)
            queue_tail->next = IoWorkItem;
        else
            queue_head = IoWorkItem;
        queue_tail = IoWorkItem;
        waiting_items++;
        pthread_cond_signal(&work_queued);
    }
    pthread_mutex_unlock(&work_lock);
    if (refusal)
        displib_report("IoQueueWorkItem: work item %p %s: not queued", (void *)IoWorkItem, refusal);
}

VOID IoFreeWorkItem(PIO_WORKITEM IoWorkItem)
{
    if (!live("IoFreeWorkItem", IoWorkItem))
        return;
    pthread_mutex_lock(&work_lock);
    int queued = IoWorkItem->queued, freed = IoWorkItem->free_after_run;
    if (queued)
        IoWorkItem->free_after_run = 1;
    pthread_mutex_unlock(&work_lock);
    if (freed)
        displib_report("IoFreeWorkItem: work item %p was freed already: nothing done", (void *)IoWorkItem);
    else if (queued)
        displib_report("IoFreeWorkItem: work item %p is queued (its routine has not run; Windows frees it under "
                       "the worker): freed once its routine has returned",
                       (void *)IoWorkItem);
    else
        free_item(IoWorkItem);
}
