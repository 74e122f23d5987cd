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
/* Preemption requests waiting for an answer, and answers waiting for the KMD, per engine. The
 * kernel has at most one request outstanding per node; a full queue merges (pending: the
 * newest request replaces the last one) or drops the oldest answer. */
#define SWGPU_PREEMPT_QUEUE 16u

struct swgpu_segment {
    UINT64 size;
    enum swgpu_segment_kind kind;
    BYTE *host;                 /* memory segment: the mmap'd range; NULL for an aperture */
    _Atomic(UINT64) *gart;      /* aperture: one entry per page, host address of the system
                                 * page (0 = never mapped: an access faults). Entries change
                                 * while other engines read them (docs/semantics.md §2.3: "the GPU
                                 * is not idle during (un)map"), hence atomics. */
    UINT64 pages;
};

struct swgpu_ring_entry {
    const BYTE *dma;
    UINT32 start, end;
    UINT32 fence_id;
    int paging;
    UINT64 csa_addr;      /* the context's save record (struct swgpu_csa_record), 0 = none */
    int resubmission;     /* resume from the save record if it holds this buffer's state */
    int hang;             /* wddm_swgpu_inject_hang: the engine stops in it until reset */
    UINT64 root;          /* root page table (GpuMmu), SWGPU_ROOT_IOMMU | PASID (IoMmu), 0 =
                           * physical mode */
    UINT32 root_entries;
    UINT64 dma_va;        /* with a root: the buffer's GPU VA (dma unused) */
    UINT64 context_id;    /* context state (context_state.c): 0 = none (paging) */
    UINT64 state_addr;
    int switch_to_null;
};

/* A translation failure (mmu.c -> exec.c). */
struct swgpu_pf {
    UINT32 kind;          /* enum swgpu_page_fault_kind */
    UINT32 level;
    UINT64 va;
    UINT64 phys;          /* the physical address that failed (SWGPU_PF_BAD_TABLE), else 0 */
    int write;
    const char *reason;
};

/* Translation cache of one engine (mmu.c). Engine thread only. */
#define SWGPU_TLB_ENTRIES 64u
/* Hash chains over the entries, so a lookup (hit or miss) reads about one entry, not all 64:
 * only a speed-up, the cache's contents and replacement are those of a fully associative one. */
#define SWGPU_TLB_BUCKETS 128u
struct swgpu_tlb_entry {
    UINT64 root;          /* 0 = empty slot (a flushed one stays on its chain, never matching) */
    UINT64 vpn;           /* VA >> 12 */
    UINT64 pte;           /* the valid leaf entry */
    UINT8 chain;          /* next slot + 1 on this entry's hash chain, 0 = last */
    UINT8 bucket;         /* its chain's bucket + 1, 0 = on no chain */
};
/* FLUSH_TLB requests remembered for engines that have not looked yet; an engine more than
 * this many behind drops its whole TLB. */
#define SWGPU_TLB_FLUSH_LOG 16u

/* Bits of swgpu_engine.stop_request: why the command processor must look at the engine
 * between two commands (exec.c reads them with one relaxed load per command). */
#define SWGPU_STOP_RESET 1u       /* swgpu_reset_engine is waiting */
#define SWGPU_STOP_PREEMPT_MID 2u /* a mid-buffer preemption request is pending */

/* One execution of a ring entry by the command processor (exec.c <-> engine.c). */
struct swgpu_exec_run {
    const struct swgpu_ring_entry *entry;
    UINT32 from;          /* offset of the first command to run (a resumed buffer: the record's) */
    UINT64 csa_addr;      /* save record usable by this run; 0 = a preemption finishes the buffer */
    UINT32 commands_done; /* commands of the buffer executed so far, earlier runs included */
    UINT32 stop_offset;   /* out (SWGPU_EXEC_STOPPED): first command not run */
    unsigned stop_reason; /* out: SWGPU_STOP_RESET or SWGPU_STOP_PREEMPT_MID */
    /* The command bytes: byte `off` of the buffer is code[off - code_start], valid for
     * off < code_end. Physical mode: the ring entry's host buffer, code_end = end. VA mode: the
     * engine's fetch copy; code_end < end when fetching stopped at a page that does not
     * translate (fetch_fault says why; a command reaching past code_end faults with it). */
    const BYTE *code;
    UINT32 code_start, code_end;
    struct swgpu_pf fetch_fault;
};
enum { SWGPU_EXEC_DONE = 0, SWGPU_EXEC_FAULT = -1, SWGPU_EXEC_STOPPED = 1 };

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
    /* Preemption (preempt.c), protected by lock: requests not answered yet (how many of them
     * ask for a mid-buffer stop), and answers the KMD has not taken. */
    UINT32 preempt_pending[SWGPU_PREEMPT_QUEUE];
    UINT32 preempt_pending_count, preempt_mid_count;
    struct swgpu_preemption preemptions[SWGPU_PREEMPT_QUEUE];
    UINT32 preempt_head, preempt_count;
    /* Reset (reset.c), protected by lock: generations requested and done (a reset is pending
     * while they differ), the fence the last reset abandoned, and how many times the engine
     * dropped work (swgpu_wait_fence returns when it changes). */
    UINT64 reset_requested, reset_done;
    UINT32 reset_aborted;
    UINT64 drops;
    int hung;                   /* stopped in an injected hang (an entry with hang set) */
    UINT32 rearm_hangs;         /* hang entries dropped by a preemption: the next non-paging
                                 * submission to this engine hangs instead (the kernel
                                 * resubmits the same buffer here) */

    _Atomic(UINT32) last_completed; /* the register */
    _Atomic(UINT64) faults_total;
    /* SWGPU_STOP_* bits; written under lock, read by the command processor without it. */
    atomic_uint stop_request;
    /* Commands + buffers finished (swgpu_engine_progress); written by the engine thread only. */
    _Atomic(UINT64) progress;

    /* MMU (mmu.c), engine thread only: the TLB, the FLUSH_TLB sequence it has applied, and the
     * copy of a VA-mode DMA buffer the command processor runs from. */
    struct swgpu_tlb_entry tlb[SWGPU_TLB_ENTRIES];
    UINT8 tlb_head[SWGPU_TLB_BUCKETS]; /* first slot + 1 of each hash chain */
    UINT64 tlb_seen;
    UINT32 tlb_next;   /* round-robin victim */
    UINT32 tlb_last;   /* slot of the last hit or fill */
    BYTE *fetch;
    size_t fetch_cap;
    _Atomic(UINT64) tlb_hits, tlb_misses; /* read by tests from other threads */

    /* Context state (context_state.c), engine thread only: the loaded context's registers, its
     * id (0: the null context) and the state area it was loaded from (where a switch saves it).
     * The counts and the loaded id are also read by other threads. */
    UINT64 regs[SWGPU_STATE_REGS];
    _Atomic(UINT64) loaded_context;
    UINT64 loaded_state;
    _Atomic(UINT64) state_saves, state_loads;
};

/* The second copy unit (copy_unit.c): one job at a time, for any engine of the GPU. */
struct swgpu_copy_job {
    void (*run)(void *arg);
    void *arg;
    int done;                   /* under the unit's lock */
};
struct swgpu_copy_unit {
    pthread_t thread;
    int started;
    pthread_mutex_t lock;
    pthread_cond_t cv;          /* a job posted, a job done, or stop */
    struct swgpu_copy_job *pending; /* posted, not taken yet */
    struct swgpu_copy_job *active;  /* being run */
    int stop;
    struct swgpu_engine *mmu;   /* holds the unit's own TLB (mmu.c), for VA-mode copies; only
                                 * the job running on the unit translates through it */
};

struct swgpu {
    UINT32 segment_count;
    struct swgpu_segment segments[SWGPU_MAX_SEGMENTS];
    UINT32 aperture_id;         /* segment id of the (first) aperture, 0 = none */
    UINT32 engine_count;
    struct swgpu_engine engines[SWGPU_MAX_ENGINES];
    swgpu_interrupt_fn interrupt;
    void *interrupt_context;
    swgpu_iommu_fn iommu;       /* the platform's IOMMU (IoMmu model, isolation); immutable */
    void *iommu_context;
    struct swgpu *next;         /* process-wide instance list (control.c), under its lock */
    /* FLUSH_TLB broadcast (mmu.c): the paging engine appends the root to the log under
     * tlb_lock and bumps tlb_flush_seq; each engine applies what it has not seen before its
     * next translation. */
    pthread_mutex_t tlb_lock;
    _Atomic(UINT64) tlb_flush_seq;
    UINT64 tlb_flush_log[SWGPU_TLB_FLUSH_LOG]; /* [seq % N] = root flushed (0 = all); under tlb_lock */
    struct swgpu_copy_unit copy_unit;
};

/* copy_unit.c: started before the engines, stopped after them. */
int swgpu_copy_unit_start(struct swgpu *gpu);
void swgpu_copy_unit_stop(struct swgpu *gpu);
/* Offer job->run(job->arg) to the unit: 0 when posted, -1 when the unit is busy (or not
 * running): the caller then does the work itself. */
int swgpu_copy_unit_post(struct swgpu *gpu, struct swgpu_copy_job *job);
/* A posted job is withdrawn if the unit has not taken it yet (and `withdraw`), else waited for. */
void swgpu_copy_unit_finish(struct swgpu *gpu, struct swgpu_copy_job *job, int withdraw);

/* A ring entry's address space in the IoMmu model: the PASID under this bit, which no root page
 * table address has (GPU physical addresses keep a segment id below it). The rest of the engine
 * treats it as any root: VA mode, and one address space per value. */
#define SWGPU_ROOT_IOMMU (1ull << 63)

/* mmu.c */
/* Host pointer for up to `want` bytes at virtual address `va` of the address space `root`
 * (*avail: how many, at least 1 and up to where translation or host contiguity ends), or NULL
 * with *pf filled. */
BYTE *swgpu_mmu_span(struct swgpu_engine *e, UINT64 root, UINT32 root_entries, UINT64 va, UINT64 want,
                     int write, UINT64 *avail, struct swgpu_pf *pf);
/* Fetches the VA-mode buffer of run->entry into the engine's fetch copy (run->code...). */
void swgpu_mmu_fetch(struct swgpu_engine *e, struct swgpu_exec_run *run);
/* SWGPU_OP_FLUSH_TLB: every engine drops its cached translations of `root` (0: all). */
void swgpu_mmu_flush(struct swgpu *gpu, UINT64 root);
void swgpu_mmu_engine_fini(struct swgpu_engine *e);

/* System addresses below this are treated as a null pointer dereference by the GPU: a
 * non-resident allocation patched as segment 0 must fault, not write the host's page 0. */
#define SWGPU_SYSTEM_NULL_GUARD 0x10000ull

/* memory.c */
int swgpu_memory_init(struct swgpu *gpu, const struct swgpu_config *config);
void swgpu_memory_fini(struct swgpu *gpu);
/* Host pointer for `want` bytes at GPU address `addr`, or for the longest contiguous prefix
 * (aperture pages end at 4 KiB): *avail receives its length. The whole range
 * [addr, addr+want) must lie inside the segment (else NULL: fault). */
BYTE *swgpu_mem_span(struct swgpu *gpu, UINT64 addr, UINT64 want, UINT64 *avail);
/* A physical access to system memory (no PASID) goes through the platform's IOMMU when the device
 * sits behind one (IOMMU-based isolation): how many of the n bytes at host address `addr` it may
 * reach (0: not even the first page). Without an IOMMU, all n. */
UINT64 swgpu_mem_iommu_reach(struct swgpu *gpu, UINT64 addr, UINT64 n);
/* How many bytes just before offset `end` of the address's segment are host-contiguous
 * (at most `limit`): used to copy backwards across aperture pages. */
UINT64 swgpu_mem_back_span(const struct swgpu *gpu, UINT64 end_addr, UINT64 limit);
/* Copies n bytes between the host buffer and GPU memory at `addr` (write: to the GPU), piece by
 * piece across aperture pages; -1 (nothing more copied) where an address is not GPU memory. The
 * engine's own reads and writes of save areas (preempt.c, context_state.c). */
int swgpu_mem_copy(struct swgpu *gpu, UINT64 addr, void *host, UINT64 n, int write);

/* gart.c */
int swgpu_gart_map(struct swgpu *gpu, UINT32 first_page, UINT32 count, const BYTE *addrs);
int swgpu_gart_unmap(struct swgpu *gpu, UINT32 first_page, UINT32 count, UINT64 dummy_page);

/* exec.c: runs one DMA buffer from run->from: SWGPU_EXEC_DONE when it reached its end,
 * SWGPU_EXEC_FAULT on a fault (recorded in *fault), SWGPU_EXEC_STOPPED when
 * swgpu_engine_boundary stopped it between two commands (run->stop_offset, run->stop_reason). */
int swgpu_exec_buffer(struct swgpu_engine *engine, struct swgpu_exec_run *run, struct swgpu_fault *fault);

/* engine.c */
int swgpu_engines_start(struct swgpu *gpu);
void swgpu_engines_stop(struct swgpu *gpu);
void swgpu_engine_kick(struct swgpu_engine *engine); /* re-check pause state */
void swgpu_raise_interrupt(struct swgpu *gpu);
void swgpu_record_fault_locked(struct swgpu_engine *e, const struct swgpu_fault *f);
/* Recomputes stop_request from the pending reset and preemption state (lock held). */
void swgpu_update_stop_request_locked(struct swgpu_engine *e);
static inline int swgpu_reset_pending_locked(const struct swgpu_engine *e)
{
    return e->reset_requested != e->reset_done;
}

/* preempt.c */
/* Called by the command processor between two commands when stop_request is set: 1 = stop
 * here (run->stop_reason says why; for a preemption the save record is already written). */
int swgpu_engine_boundary(struct swgpu_engine *e, struct swgpu_exec_run *run, UINT32 next_offset);
/* Reads the entry's save record when it starts (engine thread, no lock): sets run->from,
 * run->commands_done and run->csa_addr, and clears the record's magic. 1 if the save area
 * could not be accessed (*fault filled: the run has no save area and finishes the buffer). */
int swgpu_csa_begin(struct swgpu_engine *e, struct swgpu_exec_run *run, struct swgpu_fault *fault);
/* Answers every pending preemption request: drops the ring, records the answers, raises the
 * interrupt (the lock is released around the call). Engine thread only. */
void swgpu_answer_preemptions_locked(struct swgpu_engine *e);

/* context_state.c (engine thread only) */
/* Before a ring entry runs: the context switch it needs, if any. 1 if the loaded context's
 * state area or the incoming one's could not be accessed (*fault filled; the registers are then
 * zero, or left unsaved). */
int swgpu_state_switch(struct swgpu_engine *e, const struct swgpu_ring_entry *entry, struct swgpu_fault *fault);
/* Preemption (save = 1: the loaded context's registers go to its state area) or reset (save = 0:
 * they are lost): the engine is left with the null context loaded. */
void swgpu_state_unload(struct swgpu_engine *e, int save);

/* reset.c */
/* Completes a pending reset on the engine thread: `abandoned` is the entry being executed
 * (NULL: none), its fence becomes the register; the ring and pending preemptions are dropped. */
void swgpu_finish_reset_locked(struct swgpu_engine *e, const struct swgpu_ring_entry *abandoned);

/* control.c: process-wide test control and counters (include/wddm/swgpu.h). */
int swgpu_control_paused(void);
void swgpu_control_register(struct swgpu *gpu);
void swgpu_control_unregister(struct swgpu *gpu);
/* Nonzero while a bandwidth limit is set. */
int swgpu_control_throttling(void);
/* wddm_swgpu_set_copy_unit's mode (enum wddm_swgpu_copy_unit_mode). */
int swgpu_control_copy_unit_mode(void);
/* Sleeps so that `bytes` moved since `start` take at least bytes / bandwidth; 1 (at once) when
 * SWGPU_STOP_RESET is set in *stop_request, before or while it sleeps. */
int swgpu_control_throttle(UINT64 bytes, const struct timespec *start, _Atomic(unsigned) *stop_request);
/* Takes one hang armed by wddm_swgpu_inject_hang; 1 if one was armed. */
int swgpu_control_take_hang(void);
enum swgpu_stat {
    SWGPU_STAT_DMA_BUFFERS,
    SWGPU_STAT_COMMANDS,
    SWGPU_STAT_BYTES_COPIED,
    SWGPU_STAT_BYTES_FILLED,
    SWGPU_STAT_BYTES_WRITTEN,
    SWGPU_STAT_PAGES_MAPPED,
    SWGPU_STAT_INTERRUPTS,
    SWGPU_STAT_BYTES_SECOND_UNIT,
    SWGPU_STAT_COUNT
};
void swgpu_stat_add(enum swgpu_stat stat, UINT64 n);

#endif /* SWGPU_GPU_INTERNAL_H */
