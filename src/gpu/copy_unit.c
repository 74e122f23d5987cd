/* copy_unit.c - the GPU's second copy unit: a thread that takes pieces of a large copy while the
 * engine that met the command takes the others (issue 17 aim 1).
 *
 * A GPU moves the bytes of one copy with many units at once; this software GPU's engines are one
 * host thread each, so a single 8 MiB copy ran at one thread's memcpy speed while the
 * application's thread, waiting for it in Map(READ), left its CPU idle. The command processor
 * (exec.c) posts a large copy here and takes pieces of it itself; the unit, once it runs, takes
 * pieces too, and whoever finds none left stops. The unit runs at the lowest priority: it is
 * meant for a CPU nothing else wants. Where the application's thread is busy (it writes the next
 * upload while the GPU copies the last), it barely runs and the engine does nearly everything;
 * at normal priority it took half of that CPU and made such uploads slower (W1 16 MiB 1.3 -> 1.55x
 * memcpy). The unit serves one job at a time, for any engine of its GPU (an engine that finds it
 * busy copies alone). Jobs are plain functions: the unit knows nothing of commands or addresses.
 * Threading: `lock` guards pending, active, done and stop; the job's data belong to the poster
 * until done. */
#include "gpu/gpu_internal.h"
#include "common/alloc.h"
#include "common/debug.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <wddm/swgpu.h>

static void *unit_main(void *arg)
{
    struct swgpu_copy_unit *u = arg;
    /* The lowest priority a thread can give itself: SCHED_IDLE where allowed, else nice 19. */
    struct sched_param sp = {0};
    if (pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp) != 0)
        (void)setpriority(PRIO_PROCESS, 0, 19);
    pthread_mutex_lock(&u->lock);
    for (;;) {
        while (!u->pending && !u->stop)
            pthread_cond_wait(&u->cv, &u->lock);
        if (u->stop)
            break;
        struct swgpu_copy_job *job = u->active = u->pending;
        u->pending = NULL;
        pthread_mutex_unlock(&u->lock);
        job->run(job->arg);
        pthread_mutex_lock(&u->lock);
        u->active = NULL;
        job->done = 1;
        pthread_cond_broadcast(&u->cv);
    }
    pthread_mutex_unlock(&u->lock);
    return NULL;
}

int swgpu_copy_unit_start(struct swgpu *gpu)
{
    struct swgpu_copy_unit *u = &gpu->copy_unit;
    /* WDDM_GPU_COPY_UNIT=off|half|share: wddm_swgpu_set_copy_unit from the environment (to
     * measure the unit's share from the command line), read when a GPU starts. */
    const char *e = getenv("WDDM_GPU_COPY_UNIT");
    if (e && *e) {
        if (!strcmp(e, "off"))
            wddm_swgpu_set_copy_unit(WDDM_SWGPU_COPY_UNIT_OFF);
        else if (!strcmp(e, "half"))
            wddm_swgpu_set_copy_unit(WDDM_SWGPU_COPY_UNIT_HALF);
        else if (!strcmp(e, "share"))
            wddm_swgpu_set_copy_unit(WDDM_SWGPU_COPY_UNIT_SHARE);
        else
            wddm_debug("gpu", "WDDM_GPU_COPY_UNIT=%s is not off, half or share; ignored", e);
    }
    /* A VA-mode job translates through a TLB of the unit's own: an engine's is its thread's. */
    u->mmu = wddm_calloc(1, sizeof *u->mmu);
    if (!u->mmu)
        return -1;
    u->mmu->gpu = gpu;
    atomic_init(&u->mmu->tlb_hits, 0);
    atomic_init(&u->mmu->tlb_misses, 0);
    pthread_mutex_init(&u->lock, NULL);
    pthread_cond_init(&u->cv, NULL);
    u->pending = u->active = NULL;
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
    int busy = u->pending || u->active || u->stop;
    if (!busy) {
        job->done = 0;
        u->pending = job;
        pthread_cond_broadcast(&u->cv);
    }
    pthread_mutex_unlock(&u->lock);
    return busy ? -1 : 0;
}

void swgpu_copy_unit_finish(struct swgpu *gpu, struct swgpu_copy_job *job, int withdraw)
{
    struct swgpu_copy_unit *u = &gpu->copy_unit;
    pthread_mutex_lock(&u->lock);
    if (withdraw && u->pending == job) { /* the unit never got to it: withdrawn */
        u->pending = NULL;
        job->done = 1;
    }
    while (!job->done)
        pthread_cond_wait(&u->cv, &u->lock);
    pthread_mutex_unlock(&u->lock);
}
