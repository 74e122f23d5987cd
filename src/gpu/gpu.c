/* The software GPU device: creation and destruction (the "board"). Memory is in memory.c and
 * gart.c, the engines in engine.c, the command processor in exec.c, test control in
 * control.c. */
#include "gpu/gpu_internal.h"
#include "common/alloc.h"

#include <stdlib.h>

struct swgpu *swgpu_create(const struct swgpu_config *config)
{
    if (!config || config->segment_count > SWGPU_MAX_SEGMENTS || config->engine_count == 0 ||
        config->engine_count > SWGPU_MAX_ENGINES)
        return NULL;
    struct swgpu *gpu = wddm_calloc(1, sizeof(*gpu));
    if (!gpu)
        return NULL;
    gpu->engine_count = config->engine_count;
    gpu->interrupt = config->interrupt;
    gpu->interrupt_context = config->interrupt_context;
    gpu->iommu = config->iommu;
    gpu->iommu_context = config->iommu_context;
    pthread_mutex_init(&gpu->tlb_lock, NULL);
    atomic_init(&gpu->tlb_flush_seq, 0);
    if (swgpu_memory_init(gpu, config) != 0 || swgpu_engines_start(gpu) != 0) {
        swgpu_engines_stop(gpu);
        swgpu_memory_fini(gpu);
        pthread_mutex_destroy(&gpu->tlb_lock);
        free(gpu);
        return NULL;
    }
    swgpu_control_register(gpu);
    return gpu;
}

void swgpu_destroy(struct swgpu *gpu)
{
    if (!gpu)
        return;
    /* Leave the process-wide list first so wddm_swgpu_set_paused never touches an engine
     * being torn down. */
    swgpu_control_unregister(gpu);
    swgpu_engines_stop(gpu);
    swgpu_memory_fini(gpu);
    pthread_mutex_destroy(&gpu->tlb_lock);
    free(gpu);
}
