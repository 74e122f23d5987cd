/* The software GPU's hardware interface: what the KMD (src/kmd/) sees of the device, as a
 * register file and a ring per engine would be on real hardware. Only the KMD (and the GPU
 * tests) include this header; the kernel never does (docs/architecture.md "Rules of the house").
 *
 * Model (docs/architecture.md "Memory and addresses"):
 *  - Segment ids are 1-based. A memory segment is one lazily committed host mapping; an
 *    aperture segment is a GART of 4 KiB pages, each pointing at a system page.
 *  - A GPU physical address is (segment id << SWGPU_ADDR_SEGMENT_SHIFT) | offset
 *    (src/gpu/swgpu_isa.h); segment id 0 is system memory, identity-mapped.
 *  - Each engine executes its ring in order on its own thread. After each DMA buffer it writes
 *    the buffer's fence id to its last-completed-fence register, then raises the interrupt
 *    line (docs/semantics.md §8.2: completion is cumulative and in order per node).
 *  - A bad address (outside its segment, or an aperture page never mapped) never crashes the
 *    process: the engine records a fault, skips the rest of that DMA buffer and still
 *    completes its fence. The KMD collects faults with swgpu_take_fault().
 *  - GpuMmu (issue 6): a buffer submitted with a root page table runs in that virtual address
 *    space through the engine's MMU (page-table format in swgpu_isa.h); an access that does not
 *    translate is a fault like any other, recorded with its VA, direction, level and kind.
 *  - IoMmu: a buffer submitted with a PASID runs in that process's address space, each access
 *    translated by the platform's IOMMU (swgpu_config.iommu); the engine caches nothing.
 */
#ifndef SWGPU_HW_H
#define SWGPU_HW_H

#include "gpu/swgpu_isa.h"

#define SWGPU_MAX_SEGMENTS 8u
#define SWGPU_MAX_ENGINES 8u

struct swgpu;

enum swgpu_segment_kind {
    SWGPU_SEGMENT_MEMORY = 0,   /* content lives in the segment (local video memory) */
    SWGPU_SEGMENT_APERTURE = 1, /* GART over system pages */
};

struct swgpu_segment_desc {
    UINT64 size;                /* bytes, multiple of SWGPU_PAGE_SIZE */
    enum swgpu_segment_kind kind;
};

/* The interrupt line: called on the engine thread after a DMA buffer completes (and for a
 * SWGPU_OP_FENCE command). No GPU lock is held during the call, so the handler may read
 * registers, take faults and submit more work. */
typedef void (*swgpu_interrupt_fn)(void *context);

/* The platform's IOMMU the device sits behind: translates the DMA request (pasid, va) into a
 * system-memory address (segment 0) in *phys. pasid 0 is a physical access (IOMMU-based isolation:
 * the platform answers the same address, or refuses it); otherwise the IoMmu model's process
 * address space. 0; -1: nothing mapped there; -2: a write to a read-only page. Called on the
 * engine threads. */
typedef int (*swgpu_iommu_fn)(void *context, UINT32 pasid, UINT64 va, int write, UINT64 *phys);

struct swgpu_config {
    UINT32 segment_count;                               /* <= SWGPU_MAX_SEGMENTS */
    struct swgpu_segment_desc segments[SWGPU_MAX_SEGMENTS]; /* [i] describes segment id i+1 */
    UINT32 engine_count;                                /* 1..SWGPU_MAX_ENGINES */
    swgpu_interrupt_fn interrupt;                       /* may be NULL */
    void *interrupt_context;
    swgpu_iommu_fn iommu;                               /* NULL: behind no IOMMU (physical accesses
                                                         * reach any page, a PASID buffer faults) */
    void *iommu_context;
};

/* Why an access through the MMU failed (a buffer submitted with a root page table). */
enum swgpu_page_fault_kind {
    SWGPU_PF_NONE = 0,        /* not a translation fault (bad command, or a physical-mode buffer) */
    SWGPU_PF_ROOT_RANGE = 1,  /* level 0: VA beyond SWGPU_VA_BITS or root index >= NumEntries */
    SWGPU_PF_UNMAPPED = 2,    /* level 0: the root entry is not valid (no leaf table) */
    SWGPU_PF_INVALID_PTE = 3, /* level 1: the leaf entry is not valid (non-resident / unmapped page) */
    SWGPU_PF_READ_ONLY = 4,   /* level 1: a write through a SWGPU_PTE_READONLY entry */
    SWGPU_PF_BAD_TABLE = 5,   /* a table or page address of an entry is not GPU memory */
    SWGPU_PF_PRIVILEGED = 6,  /* a paging-only opcode (GART_MAP, GART_UNMAP, FLUSH_TLB) in a
                               * non-paging VA buffer */
    SWGPU_PF_IOMMU_UNMAPPED = 7,  /* IoMmu: the IOMMU maps nothing at the VA for the PASID */
    SWGPU_PF_IOMMU_READ_ONLY = 8, /* IoMmu: a write to a page the IOMMU maps read-only */
};

/* One fault recorded by an engine (the rest of that DMA buffer was skipped). */
struct swgpu_fault {
    UINT32 engine;
    UINT32 fence_id;       /* the DMA buffer's fence */
    UINT32 opcode;         /* the faulting command's opcode (or SWGPU_OP_COUNT: bad header) */
    UINT32 command_offset; /* byte offset of the faulting command in the DMA buffer */
    UINT64 address;        /* the GPU physical address that could not be accessed (0: bad command,
                            * or a VA that did not translate) */
    const char *reason;    /* static string */
    /* GpuMmu (issue 6): set for every fault of a buffer submitted with a root page table. */
    int virtual_mode;      /* the buffer ran with a root page table */
    UINT64 virtual_address;/* the VA accessed (virtual_mode; 0 for a bad command) */
    int write;             /* the access was a write */
    UINT32 page_table_level; /* level whose entry failed (0 root, 1 leaf) for SWGPU_PF_* kinds */
    UINT32 kind;           /* enum swgpu_page_fault_kind */
    int iommu;             /* the buffer ran in a PASID's address space (the IoMmu model) */
};

/* Creates the GPU and starts its engine threads. NULL on bad configuration or no memory. */
struct swgpu *swgpu_create(const struct swgpu_config *config);
/* Stops the engines (work still queued is dropped), unmaps memory, frees the GPU. */
void swgpu_destroy(struct swgpu *gpu);

UINT32 swgpu_engine_count(const struct swgpu *gpu);
UINT32 swgpu_segment_count(const struct swgpu *gpu);
UINT64 swgpu_segment_size(const struct swgpu *gpu, UINT32 segment_id);
/* Host address of a memory segment's offset 0 (the KMD's CPU-visible mapping, the BAR);
 * NULL for an aperture segment or a bad id. */
void *swgpu_segment_host(const struct swgpu *gpu, UINT32 segment_id);

/* Puts one DMA buffer in the engine's ring: bytes [start, end) of the buffer at host address
 * `dma`. Never fails for a valid engine (the ring grows); returns 0, or -1 for a bad engine
 * index. The buffer must stay valid until the engine reports `fence_id` completed. */
int swgpu_submit(struct swgpu *gpu, UINT32 engine, const void *dma, UINT32 start, UINT32 end,
                 UINT32 fence_id, int paging);

/* One submission with the context it runs for (issue 4: preemption). */
struct swgpu_submission {
    const void *dma;        /* host address of the DMA buffer */
    UINT32 start, end;      /* bytes [start, end) */
    UINT32 fence_id;
    int paging;
    UINT64 csa_addr;        /* GPU address of the context's save record (struct swgpu_csa_record),
                             * 0 = none: the buffer can only be preempted at its end */
    int resubmission;       /* DXGK_SUBMITCOMMANDFLAGS.Resubmission: resume from the save record
                             * if it holds this buffer's state */
    /* GpuMmu (issue 6, DxgkDdiSubmitCommandVirtual): root page table of the context's address
     * space, 0 = physical addressing exactly as WDDM 1.x (dma is then the host address). With a
     * root, `dma` is unused: the engine fetches bytes [start, end) of the buffer at GPU virtual
     * address dma_va through its MMU, and every address in the buffer is a VA. csa_addr stays a
     * GPU physical address (the save area is the engine's, not the process's). */
    UINT64 root_page_table;
    UINT32 root_entries;    /* NumEntries of DxgkDdiSetRootPageTable (at most 2^19) */
    UINT64 dma_va;
    /* IoMmu model: the process's PASID (nonzero, root_page_table 0). The buffer runs in the
     * address space the process shares with the CPU: dma_va and every address in the buffer
     * are virtual addresses the platform's IOMMU translates (swgpu_config.iommu); a translation
     * that fails is a page fault with `iommu` set. */
    UINT32 pasid;
    /* Context state (swgpu_isa.h "Context state"): the context the buffer runs for, nonzero and
     * unique for the GPU's lifetime (0: none, a paging buffer: the loaded state is left alone),
     * and the GPU physical address of its struct swgpu_context_state (0: it starts from zeros and
     * is never saved). When context_id is not the loaded one, the engine saves the loaded
     * context's registers to the state address it was loaded from, then loads this one's.
     * switch_to_null (DXGK_SUBMITCOMMANDFLAGS.ContextSwitch): only save the loaded context and
     * load none. A state area must stay where it is while its context is loaded: the engine
     * writes it back there at the next switch. */
    UINT64 context_id;
    UINT64 state_addr;
    int switch_to_null;
};
/* Like swgpu_submit, with a save area (and, with a root page table, in a virtual address space). */
int swgpu_submit2(struct swgpu *gpu, UINT32 engine, const struct swgpu_submission *s);

/* What the engine writes at csa_addr when it stops a buffer in the middle (the context's
 * state: this GPU's only state is where its command processor is). Read back by the engine
 * when the same buffer is resubmitted. */
#define SWGPU_CSA_RECORD_MAGIC 0x31415343u /* "CSA1" */
struct swgpu_csa_record {
    UINT32 magic;           /* SWGPU_CSA_RECORD_MAGIC while valid, 0 once consumed */
    UINT32 resume_offset;   /* first command not executed */
    UINT64 dma;             /* the buffer it belongs to: host address (physical mode) or GPU VA */
    UINT32 end;             /* its end offset */
    UINT32 commands_done;   /* commands of the buffer executed so far */
    UINT64 root;            /* root page table it ran with (0: physical mode): a VA names a
                             * buffer only inside one address space */
};

/* Preemption request (DxgkDdiPreemptCommand). The engine stops: with `mid_buffer`, after the
 * command it is executing (saving the state to the buffer's save record when it has one;
 * without one it finishes the buffer); without, at the end of the buffer. Entries still in
 * the ring are dropped (the scheduler resubmits them). Then it records the preemption (its
 * fence and the last completed fence) and raises the interrupt; an idle engine does so at
 * once. A hung engine never answers. */
void swgpu_preempt(struct swgpu *gpu, UINT32 engine, UINT32 preemption_fence_id, int mid_buffer);
struct swgpu_preemption {
    UINT32 preemption_fence_id;
    UINT32 last_completed;  /* the last-completed-fence register when the engine stopped */
};
/* Takes the oldest preemption the engine answered and the KMD has not taken; 1 if one. */
int swgpu_take_preemption(struct swgpu *gpu, UINT32 engine, struct swgpu_preemption *out);

/* Engine reset (DxgkDdiResetEngine): abandons the buffer being executed (hung or not) and
 * drops the ring. *last_aborted receives the abandoned buffer's fence, or the last completed
 * fence when none was executing; the last-completed-fence register is set to it. Returns only
 * once the engine is idle and takes new work; no interrupt is raised for the abandoned buffer.
 * Returns 0 (-1 for a bad engine index). */
int swgpu_reset_engine(struct swgpu *gpu, UINT32 engine, UINT32 *last_aborted);
/* The device loses power (D3): each memory segment in `lost_segments` (bit id-1) loses its
 * content (it reads zero afterwards) and every engine its loaded context's registers. The
 * engines must be idle. Power comes back with the next submission. */
void swgpu_power_off(struct swgpu *gpu, UINT32 lost_segments);
/* Sets the last-completed-fence register (adapter reset: every submitted fence completes). */
void swgpu_force_completed_fence(struct swgpu *gpu, UINT32 engine, UINT32 fence_id);
/* Commands and buffers the engine finished since creation (DxgkDdiQueryEngineStatus compares
 * two readings); and whether it is stopped in an injected hang. */
UINT64 swgpu_engine_progress(struct swgpu *gpu, UINT32 engine);
int swgpu_engine_hung(struct swgpu *gpu, UINT32 engine);
/* Whether the engine is held by wddm_swgpu_set_paused (test control): a paused engine makes no
 * progress without being hung (DxgkDdiQueryEngineStatus). */
int swgpu_engine_paused(struct swgpu *gpu, UINT32 engine);

/* The engine's last-completed-fence register (0 before anything completed). */
UINT32 swgpu_last_completed_fence(struct swgpu *gpu, UINT32 engine);

/* Blocks until the engine's ring is empty and nothing is executing (spins briefly, then waits
 * on a condition variable). Returns at once while stopping. For the KMD's teardown and tests. */
void swgpu_wait_idle(struct swgpu *gpu, UINT32 engine);
/* Blocks until the engine's last completed fence is at least `fence_id` (32-bit wrap-aware),
 * or a reset dropped work (a dropped fence never completes: the wait ends instead of hanging). */
void swgpu_wait_fence(struct swgpu *gpu, UINT32 engine, UINT32 fence_id);

/* Context switches the engine performed since creation (swgpu_isa.h "Context state"): state
 * saves and loads, and the context loaded now (0: none). For tests and the KMD's checks. */
struct swgpu_switch_counts {
    UINT64 saves, loads;
    UINT64 loaded_context;
};
void swgpu_switch_counts(struct swgpu *gpu, UINT32 engine, struct swgpu_switch_counts *out);

/* Counts of the engine's MMU (tests: the TLB really caches, FLUSH_TLB really drops). */
UINT64 swgpu_tlb_hits(struct swgpu *gpu, UINT32 engine);
UINT64 swgpu_tlb_misses(struct swgpu *gpu, UINT32 engine);

/* Takes the oldest fault recorded by `engine` not yet taken; returns 1 if one was taken. */
int swgpu_take_fault(struct swgpu *gpu, UINT32 engine, struct swgpu_fault *out);
/* Total faults the engine recorded since creation (taken or not). */
UINT64 swgpu_fault_count(struct swgpu *gpu, UINT32 engine);

#endif /* SWGPU_HW_H */
