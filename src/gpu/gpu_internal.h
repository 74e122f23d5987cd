/* Inside the software GPU: the structures behind swgpu_hw.h, shared by the files of
 * src/gpu/ only. */
#ifndef SWGPU_GPU_INTERNAL_H
#define SWGPU_GPU_INTERNAL_H

#include "gpu/swgpu_hw.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

/* Faults kept per engine until the KMD takes them; older ones are counted, not kept. */
#define SWGPU_FAULT_QUEUE 16u

struct swgpu_segment {
    UINT64 size;
    enum swgpu_segment_kind kind;
    BYTE *host;                 /* memory segment: the mmap'd range; NULL for an aperture */
    _Atomic(UINT64) *gart;      /* aperture: one entry per page, host address of the system
                                 * page (0 = never mapped: an access faults). Entries change
                                 * while other engines read them (wddm-semantics §2.3: "the GPU
                                 * is not idle during (un)map"), hence atomics. */
    UINT64 pages;
};

struct swgpu_ring_entry {
    const BYTE *dma;
    UINT32 start, end;
    UINT32 fence_id;
    int paging;
};

struct swgpu_engine {
    struct swgpu *gpu;
    UINT32 index;
    pthread_t thread;
    int thread_started;

    pthread_mutex_t lock;
    pthread_cond_t work_cv;     /* ring not empty, unpaused, or stop */
    pthread_cond_t done_cv;     /* a DMA buffer completed */
    /* Protected by lock: */
    struct swgpu_ring_entry *ring;
    size_t ring_cap, ring_head, ring_count;
    atomic_uint doorbell;             /* bumped by every submit: an idle engine polls it without the lock */
    int busy;                   /* a buffer is taken from the ring and not completed */
    int stop;
    struct swgpu_fault faults[SWGPU_FAULT_QUEUE];
    UINT32 fault_head, fault_count;

    _Atomic(UINT32) last_completed; /* the register */
    _Atomic(UINT64) faults_total;
};

struct swgpu {
    UINT32 segment_count;
    struct swgpu_segment segments[SWGPU_MAX_SEGMENTS];
    UINT32 aperture_id;         /* segment id of the (first) aperture, 0 = none */
    UINT32 engine_count;
    struct swgpu_engine engines[SWGPU_MAX_ENGINES];
    swgpu_interrupt_fn interrupt;
    void *interrupt_context;
    struct swgpu *next;         /* process-wide instance list (control.c), under its lock */
};

/* memory.c */
int swgpu_memory_init(struct swgpu *gpu, const struct swgpu_config *config);
void swgpu_memory_fini(struct swgpu *gpu);
/* Host pointer for `want` bytes at GPU address `addr`, or for the longest contiguous prefix
 * (aperture pages end at 4 KiB): *avail receives its length. The whole range
 * [addr, addr+want) must lie inside the segment (else NULL: fault). */
BYTE *swgpu_mem_span(struct swgpu *gpu, UINT64 addr, UINT64 want, UINT64 *avail);
/* How many bytes just before offset `end` of the address's segment are host-contiguous
 * (at most `limit`): used to copy backwards across aperture pages. */
UINT64 swgpu_mem_back_span(const struct swgpu *gpu, UINT64 end_addr, UINT64 limit);

/* gart.c */
int swgpu_gart_map(struct swgpu *gpu, UINT32 first_page, UINT32 count, const BYTE *addrs);
int swgpu_gart_unmap(struct swgpu *gpu, UINT32 first_page, UINT32 count, UINT64 dummy_page);

/* exec.c: runs one DMA buffer; 0 when it completed, -1 on a fault (recorded in *fault). */
int swgpu_exec_buffer(struct swgpu_engine *engine, const struct swgpu_ring_entry *entry,
                      struct swgpu_fault *fault);

/* engine.c */
int swgpu_engines_start(struct swgpu *gpu);
void swgpu_engines_stop(struct swgpu *gpu);
void swgpu_engine_kick(struct swgpu_engine *engine); /* re-check pause state */
void swgpu_raise_interrupt(struct swgpu *gpu);

/* control.c: process-wide test control and counters (include/wddm/swgpu.h). */
int swgpu_control_paused(void);
void swgpu_control_register(struct swgpu *gpu);
void swgpu_control_unregister(struct swgpu *gpu);
/* Nonzero while a bandwidth limit is set. */
int swgpu_control_throttling(void);
/* Sleeps so that `bytes` moved since `start` take at least bytes / bandwidth. */
void swgpu_control_throttle(UINT64 bytes, const struct timespec *start);
enum swgpu_stat {
    SWGPU_STAT_DMA_BUFFERS,
    SWGPU_STAT_COMMANDS,
    SWGPU_STAT_BYTES_COPIED,
    SWGPU_STAT_BYTES_FILLED,
    SWGPU_STAT_BYTES_WRITTEN,
    SWGPU_STAT_PAGES_MAPPED,
    SWGPU_STAT_INTERRUPTS,
    SWGPU_STAT_COUNT
};
void swgpu_stat_add(enum swgpu_stat stat, UINT64 n);

#endif /* SWGPU_GPU_INTERNAL_H */
