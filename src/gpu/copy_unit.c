/* copy_unit.c - the GPU's second copy unit: a thread that runs part of a large copy while the
 * engine that met the command runs the rest (issue 17 aim 1).
 *
 * A GPU moves the bytes of one copy with many units at once; this software GPU's engines are one
 * host thread each, so a single 8 MiB copy ran at one thread's memcpy speed while the
 * application's thread, waiting for it in Map(READ), left its CPU idle. The command processor
 * (exec.c) hands the second half of a large forward copy here and does the first half itself;
 * the unit serves one job at a time, for any engine of its GPU (an engine that finds it busy
 * copies alone). Jobs are plain functions: the unit knows nothing of commands or addresses.
 * Threading: `lock` guards job, done and stop; the job's data belong to the poster until done. */
#include "gpu/gpu_internal.h"
#include "common/alloc.h"

#include <stdlib.h>

static void *unit_main(void *arg)
{
    struct swgpu_copy_unit *u = arg;
    pthread_mutex_lock(&u->lock);
    for (;;) {
        while (!u->job && !u->stop)
            pthread_cond_wait(&u->cv, &u->lock);
        if (u->stop)
            break;
        struct swgpu_copy_job *job = u->job;
        pthread_mutex_unlock(&u->lock);
        job->run(job->arg);
        pthread_mutex_lock(&u->lock);
        u->job = NULL;
        job->done = 1;
        pthread_cond_broadcast(&u->cv);
    }
    pthread_mutex_unlock(&u->lock);
    return NULL;
}

int swgpu_copy_unit_start(struct swgpu *gpu)
{
    struct swgpu_copy_unit *u = &gpu->copy_unit;
    /* A VA-mode job translates through a TLB of the unit's own: an engine's is its thread's. */
    u->mmu = wddm_calloc(1, sizeof *u->mmu);
    if (!u->mmu)
        return -1;
    u->mmu->gpu = gpu;
    atomic_init(&u->mmu->tlb_hits, 0);
    atomic_init(&u->mmu->tlb_misses, 0);
    pthread_mutex_init(&u->lock, NULL);
    pthread_cond_init(&u->cv, NULL);
    u->job = NULL;
    u->stop = 0;
    if (pthread_create(&u->thread, NULL, unit_main, u) != 0) {
        pthread_mutex_destroy(&u->lock);
        pthread_cond_destroy(&u->cv);
        free(u->mmu);
        u->mmu = NULL;
        return -1;
    }
    u->started = 1;
    return 0;
}

void swgpu_copy_unit_stop(struct swgpu *gpu)
{
    struct swgpu_copy_unit *u = &gpu->copy_unit;
    if (!u->started)
        return;
    pthread_mutex_lock(&u->lock);
    u->stop = 1; /* engines are stopped first: no job is running or posted */
    pthread_cond_broadcast(&u->cv);
    pthread_mutex_unlock(&u->lock);
    pthread_join(u->thread, NULL);
    pthread_mutex_destroy(&u->lock);
    pthread_cond_destroy(&u->cv);
    swgpu_mmu_engine_fini(u->mmu);
    free(u->mmu);
    u->mmu = NULL;
    u->started = 0;
}

int swgpu_copy_unit_post(struct swgpu *gpu, struct swgpu_copy_job *job)
{
    struct swgpu_copy_unit *u = &gpu->copy_unit;
    if (!u->started)
        return -1;
    pthread_mutex_lock(&u->lock);
    int taken = u->job != NULL || u->stop;
    if (!taken) {
        job->done = 0;
        u->job = job;
        pthread_cond_broadcast(&u->cv);
    }
    pthread_mutex_unlock(&u->lock);
    return taken ? -1 : 0;
}

void swgpu_copy_unit_wait(struct swgpu *gpu, struct swgpu_copy_job *job)
{
    struct swgpu_copy_unit *u = &gpu->copy_unit;
    pthread_mutex_lock(&u->lock);
    while (!job->done)
        pthread_cond_wait(&u->cv, &u->lock);
    pthread_mutex_unlock(&u->lock);
}
