/* Test control of the software GPU (public, documented; used by tests and benchmarks).
 * Without these, DO_NOT_WAIT behaviour cannot be tested deterministically (issue 2). */
#ifndef WDDM_SWGPU_H
#define WDDM_SWGPU_H

#ifdef __cplusplus
extern "C" {
#endif

/* While paused, every software GPU engine in the process finishes nothing new: submitted
 * work waits in its ring until wddm_swgpu_set_paused(0). */
void wddm_swgpu_set_paused(int paused);

/* Slows copies, fills and writes down to this many bytes per second (0 = unlimited). */
void wddm_swgpu_set_bandwidth(unsigned long long bytes_per_second);

/* What the engines executed, summed over every software GPU in the process. */
struct wddm_swgpu_stats {
    unsigned long long dma_buffers_executed;
    unsigned long long commands_executed;
    unsigned long long bytes_copied;   /* SWGPU_OP_COPY */
    unsigned long long bytes_filled;   /* SWGPU_OP_FILL */
    unsigned long long bytes_written;  /* SWGPU_OP_WRITE */
    unsigned long long pages_mapped;   /* SWGPU_OP_GART_MAP */
    unsigned long long interrupts;
};
void wddm_swgpu_get_stats(struct wddm_swgpu_stats *out);

/* The next non-paging DMA buffer submitted to any software GPU engine in the process after
 * this call never completes on its own: the engine stops in it (no command of it runs) until
 * the kernel's timeout detection resets the engine (issue 4, WDDM_TDR_DELAY_MS). One call arms
 * one hang. */
void wddm_swgpu_inject_hang(void);

#ifdef __cplusplus
}
#endif
#endif /* WDDM_SWGPU_H */
