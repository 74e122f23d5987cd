/* Issue 4's scheduler benchmarks, each against its limit measured in the same run:
 *  S1  submissions per second of tiny (one NOP) DMA buffers on one context, and on 8 and 64
 *      contexts round-robin (every submission then costs a context switch: seed 000; issue 17
 *      aim 7: no cliff as contexts are added);
 *  S2  latency from a submission to its monitored fence signalled, GPU idle;
 *  S3  CPU wake-up: a ping-pong between two threads through monitored fences
 *      (SignalFromCpu / WaitForSynchronizationObjectFromCpu) against the same ping-pong through
 *      a bare pthread mutex + condition variable (aim: within 2x).
 * Medians over repeated runs; the tool drives the kernel below the D3D11 API (kmt_client.h). */
#include "bench_sched.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wddm/d3dkmthk.h>
#include <wddm/wddm.h>

#include "gpu/swgpu_isa.h"
#include "kmt_client.h"
#include "bench_report.h"
#include "tool.h"

#define CTX 64
#define REPS 11

static NTSTATUS submit_nop(const D3DKMT_CREATECONTEXT *cc)
{
    struct swgpu_cmd_header nop = { .opcode = SWGPU_OP_NOP, .size_bytes = sizeof nop };
    memcpy(cc->pCommandBuffer, &nop, sizeof nop);
    D3DKMT_RENDER r = { .hContext = cc->hContext, .CommandLength = sizeof nop };
    return D3DKMTRender(&r);
}

/* S1: `n` NOP submissions spread over `contexts` contexts, then a fence per context. */
static int bench_s1(struct wddm_kmt *k, D3DKMT_CREATECONTEXT *cc, const D3DKMT_HANDLE *fence, UINT contexts,
                    int n, UINT64 *value)
{
    uint64_t t[REPS];
    struct wddm_counters c0, c1;
    wddm_get_counters(&c0);
    for (int r = -1; r < REPS; r++) {
        uint64_t t0 = wddm_tool_now_ns();
        for (int i = 0; i < n; i++)
            if (submit_nop(&cc[(UINT)i % contexts]) != STATUS_SUCCESS)
                return 1;
        (*value)++;
        UINT64 v[CTX];
        for (UINT c = 0; c < contexts; c++) {
            if (wddm_kmt_gpu_signal(cc[c].hContext, fence[c], *value) != STATUS_SUCCESS)
                return 1;
            v[c] = *value;
        }
        if (wddm_kmt_cpu_wait(k->device, fence, v, contexts) != STATUS_SUCCESS)
            return 1;
        if (r >= 0)
            t[r] = wddm_tool_now_ns() - t0;
    }
    wddm_get_counters(&c1);
    uint64_t m = wddm_tool_median(t, REPS);
    wddm_bench_printf("S1 tiny DMA buffers, %u context%s: %9.0f submissions/s  (%d per run, median of %d; %llu context "
                      "switches over the runs)\n",
                      contexts, contexts > 1 ? "s round-robin" : "           ", (double)n * 1e9 / (double)m, n, REPS,
                      (unsigned long long)(c1.context_switches - c0.context_switches));
    char name[40];
    snprintf(name, sizeof name, "S1 %u context%s", contexts, contexts > 1 ? "s" : "");
    wddm_bench_result(name, "submissions/s", (double)n * 1e9 / (double)m, NAN, NAN, NULL, NAN);
    return 0;
}

/* S2: one NOP + its fence, waited for, on an idle GPU. */
static int bench_s2(struct wddm_kmt *k, D3DKMT_HANDLE fence, int iters, UINT64 *value)
{
    uint64_t *t = malloc(sizeof *t * (size_t)iters);
    for (int i = 0; i < iters; i++) {
        uint64_t t0 = wddm_tool_now_ns();
        (*value)++;
        if (submit_nop(&k->cc) != STATUS_SUCCESS ||
            wddm_kmt_gpu_signal(k->context, fence, *value) != STATUS_SUCCESS ||
            wddm_kmt_cpu_wait(k->device, &fence, value, 1) != STATUS_SUCCESS) {
            free(t);
            return 1;
        }
        t[i] = wddm_tool_now_ns() - t0;
    }
    double s2 = (double)wddm_tool_median(t, iters);
    wddm_bench_printf("S2 submission -> monitored fence signalled, idle GPU: %6.1f us median  (%d iterations)\n",
                      s2 / 1e3, iters);
    wddm_bench_result("S2 submission to fence", "ns", s2, (double)t[0], (double)t[iters - 1], NULL, NAN);
    free(t);
    return 0;
}

/* S3: ping-pong between two threads, through monitored fences and through a condvar. */
struct pingpong {
    struct wddm_kmt *k;
    D3DKMT_HANDLE ping, pong;
    int rounds;
    pthread_mutex_t m;
    pthread_cond_t cv;
    UINT64 turn; /* condvar version: protected by m */
};

static void *fence_ponger(void *arg)
{
    struct pingpong *p = arg;
    for (UINT64 i = 1; i <= (UINT64)p->rounds; i++) {
        if (wddm_kmt_cpu_wait(p->k->device, &p->ping, &i, 1) != STATUS_SUCCESS ||
            wddm_kmt_cpu_signal(p->k->device, p->pong, i) != STATUS_SUCCESS)
            break;
    }
    return NULL;
}

static void *cv_ponger(void *arg)
{
    struct pingpong *p = arg;
    pthread_mutex_lock(&p->m);
    for (UINT64 i = 1; i <= (UINT64)p->rounds; i++) {
        while (p->turn != 2 * i - 1)
            pthread_cond_wait(&p->cv, &p->m);
        p->turn = 2 * i;
        pthread_cond_broadcast(&p->cv);
    }
    pthread_mutex_unlock(&p->m);
    return NULL;
}

static int bench_s3(struct wddm_kmt *k, int rounds)
{
    struct pingpong p = { .k = k, .rounds = rounds, .ping = wddm_kmt_fence_create(k->device),
                          .pong = wddm_kmt_fence_create(k->device) };
    pthread_mutex_init(&p.m, NULL);
    pthread_cond_init(&p.cv, NULL);
    uint64_t *tf = malloc(sizeof *tf * (size_t)rounds), *tc = malloc(sizeof *tc * (size_t)rounds);
    int rc = !p.ping || !p.pong || !tf || !tc;
    pthread_t th;
    if (!rc && pthread_create(&th, NULL, fence_ponger, &p) == 0) {
        for (UINT64 i = 1; i <= (UINT64)rounds && !rc; i++) {
            uint64_t t0 = wddm_tool_now_ns();
            rc = wddm_kmt_cpu_signal(k->device, p.ping, i) != STATUS_SUCCESS ||
                 wddm_kmt_cpu_wait(k->device, &p.pong, &i, 1) != STATUS_SUCCESS;
            tf[i - 1] = wddm_tool_now_ns() - t0;
        }
        pthread_join(th, NULL);
    }
    if (!rc && pthread_create(&th, NULL, cv_ponger, &p) == 0) {
        pthread_mutex_lock(&p.m);
        for (UINT64 i = 1; i <= (UINT64)rounds; i++) {
            uint64_t t0 = wddm_tool_now_ns();
            p.turn = 2 * i - 1;
            pthread_cond_broadcast(&p.cv);
            while (p.turn != 2 * i)
                pthread_cond_wait(&p.cv, &p.m);
            tc[i - 1] = wddm_tool_now_ns() - t0;
        }
        pthread_mutex_unlock(&p.m);
        pthread_join(th, NULL);
    }
    if (!rc) {
        double f = (double)wddm_tool_median(tf, rounds), c = (double)wddm_tool_median(tc, rounds);
        wddm_bench_printf("S3 CPU wake-up round trip: monitored fences %6.1f us, pthread condvar %6.1f us  ratio %4.2fx  "
                          "(%d rounds, median)\n", f / 1e3, c / 1e3, f / c, rounds);
        wddm_bench_result("S3 wake-up round trip", "ns", f, NAN, NAN, "pthread condvar", c);
    }
    free(tf);
    free(tc);
    if (p.ping)
        wddm_kmt_fence_destroy(p.ping);
    if (p.pong)
        wddm_kmt_fence_destroy(p.pong);
    pthread_cond_destroy(&p.cv);
    pthread_mutex_destroy(&p.m);
    return rc;
}

int wddm_bench_sched(int quick)
{
    struct wddm_kmt k;
    int o = wddm_kmt_open(&k);
    if (o <= 0) {
        if (o == 0)
            fprintf(stderr, "S: no adapter\n");
        return o == 0; /* -1: the GpuMmu model, skipped with a line */
    }
    D3DKMT_CREATECONTEXT cc[CTX];
    D3DKMT_HANDLE fence[CTX];
    cc[0] = k.cc;
    int rc = 0;
    for (int c = 0; c < CTX && !rc; c++) {
        if (c) {
            cc[c] = (D3DKMT_CREATECONTEXT){ .hDevice = k.device, .NodeOrdinal = 0 };
            rc = D3DKMTCreateContext(&cc[c]) != STATUS_SUCCESS;
        }
        rc = rc || !(fence[c] = wddm_kmt_fence_create(k.device));
    }
    UINT64 value = 0;
    int n = quick ? 500 : 20000;
    if (!rc)
        rc = bench_s1(&k, cc, fence, 1, n, &value) || bench_s1(&k, cc, fence, 8, n, &value) ||
             bench_s1(&k, cc, fence, CTX, n, &value) ||
             bench_s2(&k, fence[0], quick ? 20 : 500, &value) || bench_s3(&k, quick ? 50 : 2000);
    if (rc)
        fprintf(stderr, "S: a scheduler call failed\n");
    wddm_kmt_close(&k); /* destroys the contexts and fences with the device */
    return rc;
}
