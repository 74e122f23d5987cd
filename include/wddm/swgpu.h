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

/* How a large copy uses the GPU's second copy unit (docs/architecture.md "Threads and waiting"):
 * SHARE (the default) offers it pieces, which it takes when a CPU is free (it runs at the lowest
 * priority); HALF has it copy the second half, the engine waiting for it (tests: the same split
 * every time); OFF leaves every copy to its engine (to measure what the unit gives). */
enum wddm_swgpu_copy_unit_mode { WDDM_SWGPU_COPY_UNIT_SHARE, WDDM_SWGPU_COPY_UNIT_HALF, WDDM_SWGPU_COPY_UNIT_OFF };
void wddm_swgpu_set_copy_unit(enum wddm_swgpu_copy_unit_mode mode);

/* What the engines executed, summed over every software GPU in the process. */
struct wddm_swgpu_stats {
    unsigned long long dma_buffers_executed;
    unsigned long long commands_executed;
    unsigned long long bytes_copied;   /* SWGPU_OP_COPY */
    unsigned long long bytes_filled;   /* SWGPU_OP_FILL */
    unsigned long long bytes_written;  /* SWGPU_OP_WRITE */
    unsigned long long pages_mapped;   /* SWGPU_OP_GART_MAP */
    unsigned long long interrupts;
    unsigned long long bytes_copied_by_second_unit; /* the part of large copies another copy unit
                                                     * ran beside the engine (also in bytes_copied) */
};
void wddm_swgpu_get_stats(struct wddm_swgpu_stats *out);

/* The next non-paging DMA buffer submitted to any software GPU engine in the process after
 * this call never completes on its own: the engine stops in it (no command of it runs) until
 * the kernel's timeout detection resets the engine (issue 4, WDDM_TDR_DELAY_MS). One call arms
 * one hang. */
void wddm_swgpu_inject_hang(void);

/* The reference KMD answers STATUS_GRAPHICS_ALLOCATION_BUSY to every TRANSFER out of a segment
 * and every DISCARD_CONTENT that VidMm did not flag AllocationIsIdle, as a KMD whose copy engine
 * cannot order a copy against the allocation's pending work would; VidMm then waits for the
 * allocation and asks again with AllocationIsIdle (issue 20 §7: the retry path runs against the
 * real KMD). Process-wide; off by default, or on from the start with WDDM_KMD_PAGING_BUSY=1. */
void wddm_swkmd_set_paging_busy(int on);

#ifdef __cplusplus
}
#endif
#endif /* WDDM_SWGPU_H */
