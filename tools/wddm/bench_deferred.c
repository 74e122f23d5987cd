/* bench_deferred.c - D1: deferred-context recording throughput (issue 5, seed 004).
 *
 * T recording threads (T = 1, then 2) each record into their own deferred context: lists of
 * CMDS_PER_LIST commands (CopySubresourceRegion between small buffers shared by all threads,
 * and an UpdateSubresource every 8th command), FinishCommandList, and hand the list to the
 * calling thread, which executes it on the immediate context at the same time. Throughput =
 * commands recorded / the slowest recorder's recording time (Finish included, queue waits
 * excluded); reported as the median over REPS repetitions, with the 2-thread/1-thread ratio.
 *
 * False-sharing check: the reference UMD keeps each resource's read-only block (read by every
 * recording thread) on its own cache line after the IC handle data (written by the executing
 * thread); build with -DWDDM_UMD_NO_PADDING=ON to remove that padding and run again. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <d3d11.h>

#include "bench_report.h"
#include "tool.h"
#include "bench_deferred.h"

#define NRES 64
#define QMAX 256

struct queue {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    ID3D11CommandList *items[QMAX]; /* protected by lock */
    int head, tail, producers_left;  /* protected by lock */
};

struct recorder {
    ID3D11DeviceContext *dc;
    ID3D11Buffer **res;
    struct queue *q;
    int lists, cmds;
    uint64_t busy_ns;               /* written by the thread, read after join */
    int failed;
};

static void q_push(struct queue *q, ID3D11CommandList *cl)
{
    pthread_mutex_lock(&q->lock);
    while ((q->tail + 1) % QMAX == q->head)
        pthread_cond_wait(&q->cond, &q->lock);
    q->items[q->tail] = cl;
    q->tail = (q->tail + 1) % QMAX;
    pthread_cond_broadcast(&q->cond);
    pthread_mutex_unlock(&q->lock);
}

static void q_done(struct queue *q)
{
    pthread_mutex_lock(&q->lock);
    q->producers_left--;
    pthread_cond_broadcast(&q->cond);
    pthread_mutex_unlock(&q->lock);
}

/* NULL when every producer is done and the queue is empty. */
static ID3D11CommandList *q_pop(struct queue *q)
{
    pthread_mutex_lock(&q->lock);
    while (q->head == q->tail && q->producers_left > 0)
        pthread_cond_wait(&q->cond, &q->lock);
    ID3D11CommandList *cl = NULL;
    if (q->head != q->tail) {
        cl = q->items[q->head];
        q->head = (q->head + 1) % QMAX;
        pthread_cond_broadcast(&q->cond);
    }
    pthread_mutex_unlock(&q->lock);
    return cl;
}

static void *record(void *p)
{
    struct recorder *r = p;
    BYTE data[64];
    memset(data, 0x5a, sizeof data);
    unsigned seed = (unsigned)(uintptr_t)r;
    for (int l = 0; l < r->lists; l++) {
        uint64_t t0 = wddm_tool_now_ns();
        for (int i = 0; i < r->cmds; i++) {
            seed = seed * 1103515245u + 12345u;
            ID3D11Resource *dst = (ID3D11Resource *)r->res[(seed >> 8) % NRES];
            ID3D11Resource *src = (ID3D11Resource *)r->res[(seed >> 16) % NRES];
            if ((i & 7) == 7) {
                D3D11_BOX b = { 0, 0, 0, 64, 1, 1 };
                ID3D11DeviceContext_UpdateSubresource(r->dc, dst, 0, &b, data, 64, 64);
            } else if (dst != src) {
                D3D11_BOX b = { 0, 0, 0, 64, 1, 1 };
                ID3D11DeviceContext_CopySubresourceRegion(r->dc, dst, 0, 64, 0, 0, src, 0, &b);
            }
        }
        ID3D11CommandList *cl = NULL;
        HRESULT hr = ID3D11DeviceContext_FinishCommandList(r->dc, FALSE, &cl);
        r->busy_ns += wddm_tool_now_ns() - t0;
        if (FAILED(hr)) {
            r->failed = 1;
            break;
        }
        q_push(r->q, cl);
    }
    q_done(r->q);
    return NULL;
}

/* One run with `threads` recorders; returns commands per second (0 on failure). */
static double run(ID3D11Device *dev, ID3D11DeviceContext *ic, ID3D11Buffer **res, int threads, int lists, int cmds,
                  int concurrent)
{
    struct queue q = { .producers_left = threads };
    pthread_mutex_init(&q.lock, NULL);
    pthread_cond_init(&q.cond, NULL);
    struct recorder r[2];
    pthread_t t[2];
    int ok = 1;
    for (int i = 0; i < threads; i++) {
        r[i] = (struct recorder){ .res = res, .q = &q, .lists = lists, .cmds = cmds };
        if (FAILED(ID3D11Device_CreateDeferredContext(dev, 0, &r[i].dc)))
            return 0;
    }
    for (int i = 0; i < threads; i++)
        pthread_create(&t[i], NULL, record, &r[i]);
    if (!concurrent) /* replay after recording: the recorders have the CPUs to themselves */
        for (int i = 0; i < threads; i++)
            pthread_join(t[i], NULL);
    ID3D11CommandList *cl;
    while ((cl = q_pop(&q)) != NULL) {
        ID3D11DeviceContext_ExecuteCommandList(ic, cl, FALSE);
        ID3D11CommandList_Release(cl);
    }
    uint64_t slowest = 0;
    for (int i = 0; i < threads; i++) {
        if (concurrent)
            pthread_join(t[i], NULL);
        ok &= !r[i].failed;
        if (r[i].busy_ns > slowest)
            slowest = r[i].busy_ns;
        ID3D11DeviceContext_Release(r[i].dc);
    }
    ID3D11DeviceContext_Flush(ic);
    pthread_mutex_destroy(&q.lock);
    pthread_cond_destroy(&q.cond);
    if (!ok || !slowest)
        return 0;
    return (double)threads * lists * cmds / ((double)slowest / 1e9);
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int wddm_bench_deferred(int quick)
{
    ID3D11Device *dev = NULL;
    ID3D11DeviceContext *ic = NULL;
    if (FAILED(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev, NULL,
                                 &ic))) {
        fprintf(stderr, "D1: D3D11CreateDevice failed\n");
        return 1;
    }
    D3D11_FEATURE_DATA_THREADING th = { 0 };
    ID3D11Device_CheckFeatureSupport(dev, D3D11_FEATURE_THREADING, &th, sizeof th);
    ID3D11Buffer *res[NRES];
    D3D11_BUFFER_DESC d = { .ByteWidth = 256, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_SHADER_RESOURCE };
    for (int i = 0; i < NRES; i++)
        if (FAILED(ID3D11Device_CreateBuffer(dev, &d, NULL, &res[i]))) {
            fprintf(stderr, "D1: CreateBuffer failed\n");
            return 1;
        }
    int reps = quick ? 3 : 11, lists = quick ? 4 : 40, cmds = 2000;
    int rc = 0;
    wddm_bench_printf("D1 deferred recording: %s; UMD read-only handle block %s; %ld CPUs\n",
           th.DriverCommandLists ? "UMD command lists" : "runtime-emulated lists",
#ifdef WDDM_UMD_NO_PADDING
           "NOT padded (built with WDDM_UMD_NO_PADDING)",
#else
           "cache-line padded (build with -DWDDM_UMD_NO_PADDING=ON for the false-sharing check)",
#endif
           sysconf(_SC_NPROCESSORS_ONLN));
    for (int concurrent = 0; concurrent <= 1; concurrent++) {
        double med[3] = { 0 };
        for (int threads = 1; threads <= 2; threads++) {
            double v[11];
            (void)run(dev, ic, res, threads, 2, cmds, concurrent); /* warm-up */
            for (int k = 0; k < reps; k++)
                v[k] = run(dev, ic, res, threads, lists, cmds, concurrent);
            qsort(v, (size_t)reps, sizeof v[0], cmp_d);
            med[threads] = v[reps / 2];
        }
        wddm_bench_printf("   replay %-24s 1 thread %10.0f cmds/s   2 threads %10.0f cmds/s   ratio %4.2fx  "
                          "(%d lists x %d cmds per thread, median of %d)\n",
                          concurrent ? "on the IC meanwhile:" : "on the IC afterwards:", med[1], med[2],
                          med[1] > 0 ? med[2] / med[1] : 0.0, lists, cmds, reps);
        wddm_bench_result(concurrent ? "D1 recording, 2 threads, IC busy" : "D1 recording, 2 threads", "cmds/s",
                          med[2], NAN, NAN, "1 thread", med[1]);
        rc |= !(med[1] > 0 && med[2] > 0);
    }
    for (int i = 0; i < NRES; i++)
        ID3D11Buffer_Release(res[i]);
    ID3D11DeviceContext_Release(ic);
    ID3D11Device_Release(dev);
    return rc;
}
