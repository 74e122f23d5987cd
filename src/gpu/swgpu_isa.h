/* The software GPU's command format ("ISA"): what a DMA buffer contains.
 *
 * Only the driver package (src/umd builds command buffers in this format, src/kmd validates,
 * patches and submits them) and the GPU itself know it; the kernel never parses a DMA buffer
 * (docs/architecture.md "Rules of the house").
 *
 * A buffer is a sequence of commands, each starting with swgpu_cmd_header and padded to
 * 8 bytes (size_bytes includes the header and padding). In a buffer submitted without a root
 * page table (WDDM 1.x, and every paging buffer) all addresses are GPU physical addresses
 * (docs/architecture.md "Memory and addresses"); in a buffer submitted with one (WDDM 2.x
 * GpuMmu, DxgkDdiSubmitCommandVirtual) every address is a GPU virtual address translated
 * through the page tables below. A GPU physical address is:
 *   bits 63..56 = segment id (1-based, as the KMD reports segments), bits 55..0 = offset;
 *   segment id 0 = system memory, identity-mapped (the address is the host address).
 * The UMD writes 0 into an address field and records a D3DDDI_PATCHLOCATIONLIST entry whose
 * PatchOffset is the byte offset of that field in the command buffer and whose
 * AllocationOffset is the offset inside the allocation; DxgkDdiPatch writes the allocation's
 * segment address + AllocationOffset into the field (WDDM 1.x patching).
 */
#ifndef SWGPU_ISA_H
#define SWGPU_ISA_H

#include <string.h>

#include <wddm/wintypes.h>

#define SWGPU_ADDR_SEGMENT_SHIFT 56u
#define SWGPU_ADDR_OFFSET_MASK   ((1ull << SWGPU_ADDR_SEGMENT_SHIFT) - 1)
#define SWGPU_SEGMENT_BASE(id)   ((UINT64)(id) << SWGPU_ADDR_SEGMENT_SHIFT)
#define SWGPU_PAGE_SIZE          4096u

enum swgpu_opcode {
    SWGPU_OP_NOP = 0,
    SWGPU_OP_COPY = 1,       /* box copy between two 3-D pitched regions */
    SWGPU_OP_FILL = 2,       /* repeat a pattern over a 3-D pitched region */
    SWGPU_OP_WRITE = 3,      /* inline data (UpdateSubresource, initial data) to a region */
    SWGPU_OP_FENCE = 4,      /* KMD only: write a 64-bit value, then raise DMA_COMPLETED */
    SWGPU_OP_GART_MAP = 5,   /* paging only: map system pages into aperture pages */
    SWGPU_OP_GART_UNMAP = 6, /* paging only: point aperture pages at the dummy page */
    SWGPU_OP_FLUSH_TLB = 7,  /* paging only: drop every engine's cached translations of a root */
    SWGPU_OP_TIMESTAMP = 8,  /* write the engine's timestamp clock (64-bit) to an address */
    SWGPU_OP_SET_REG = 9,    /* set one of the context's state registers */
    SWGPU_OP_STORE_REG = 10, /* write one of the context's state registers (64-bit) to an address */
    SWGPU_OP_COUNT
};

struct swgpu_cmd_header {
    UINT32 opcode;     /* enum swgpu_opcode */
    UINT32 size_bytes; /* whole command incl. header and payload, multiple of 8 */
};

/* A pitched 3-D region: `slices` slices of `rows` rows of `row_bytes` bytes.
 * Buffers are 1 row, 1 slice. Block-compressed textures count rows in blocks. */
struct swgpu_region {
    UINT64 addr;        /* patched */
    UINT32 row_pitch;
    UINT32 slice_pitch;
};

struct swgpu_cmd_copy {
    struct swgpu_cmd_header hdr; /* SWGPU_OP_COPY, size = sizeof */
    struct swgpu_region dst;
    struct swgpu_region src;
    UINT32 row_bytes;
    UINT32 rows;
    UINT32 slices;
    UINT32 reserved;
};

struct swgpu_cmd_fill {
    struct swgpu_cmd_header hdr; /* SWGPU_OP_FILL, size = sizeof */
    struct swgpu_region dst;
    UINT32 row_bytes;
    UINT32 rows;
    UINT32 slices;
    UINT32 pattern_bytes;  /* 1, 2, 4, 8 or 16; the pattern repeats from the start of each row */
    BYTE pattern[16];
};

struct swgpu_cmd_write {
    struct swgpu_cmd_header hdr; /* SWGPU_OP_WRITE, size = sizeof + align8(row_bytes*rows*slices) */
    struct swgpu_region dst;
    UINT32 row_bytes;
    UINT32 rows;
    UINT32 slices;
    UINT32 reserved;
    /* followed by row_bytes * rows * slices bytes, tightly packed */
};

struct swgpu_cmd_fence {
    struct swgpu_cmd_header hdr; /* SWGPU_OP_FENCE, size = sizeof */
    UINT64 addr;   /* where the GPU writes the value (system memory or segment) */
    UINT64 value;  /* the SubmissionFenceId */
};

/* The engines' timestamp clock: a 64-bit tick count, SWGPU_TIMESTAMP_FREQUENCY ticks per
 * second, never running backwards and never changing rate (the host's CLOCK_MONOTONIC in
 * nanoseconds). A driver reports this frequency with the timestamps the GPU writes. */
#define SWGPU_TIMESTAMP_FREQUENCY 1000000000ull

/* SWGPU_OP_TIMESTAMP: when the engine reaches the command (every command before it in the
 * buffer has executed) it writes its clock, 8 bytes little-endian, at dst.addr: a one-row
 * region of 8 bytes, patched and bounds-checked as any other destination. */
struct swgpu_cmd_timestamp {
    struct swgpu_cmd_header hdr; /* SWGPU_OP_TIMESTAMP, size = sizeof */
    struct swgpu_region dst;     /* row_pitch, slice_pitch: 8 */
};

/* ---- Context state (issue 20 §1, seed 000) ------------------------------------------------------
 * Besides where its command processor is, a context has state on this GPU: SWGPU_STATE_REGS
 * 64-bit registers that its commands set (SET_REG) and use (STORE_REG), and that persist from
 * one of the context's DMA buffers to the next, as a real GPU's pipeline state does. The engine
 * holds the registers of one context at a time, the one loaded: when it starts a buffer of
 * another context it saves them into the loaded context's state area and loads the incoming
 * context's (a context switch, swgpu_hw.h swgpu_submission.context_id); between buffers of the
 * same context it does neither (lazy switching). A state area is struct swgpu_context_state in
 * GPU memory, which the KMD keeps in the context's save area (its GPU context allocation); a
 * fresh one is zero. A switch to the null context (the kernel's zero-length ContextSwitch
 * buffer) and a preemption save the loaded context and load none; an engine reset loses the
 * loaded registers (their last save is what the context resumes from). */
#define SWGPU_STATE_REGS 8u
struct swgpu_context_state {
    UINT64 regs[SWGPU_STATE_REGS];
};

/* SWGPU_OP_SET_REG: regs[reg] = value. A register index >= SWGPU_STATE_REGS faults. */
struct swgpu_cmd_set_reg {
    struct swgpu_cmd_header hdr; /* SWGPU_OP_SET_REG, size = sizeof */
    UINT32 reg;
    UINT32 reserved;
    UINT64 value;
};

/* SWGPU_OP_STORE_REG: regs[reg], 8 bytes little-endian, at dst.addr: a one-row region of 8
 * bytes, patched and bounds-checked as any other destination. */
struct swgpu_cmd_store_reg {
    struct swgpu_cmd_header hdr; /* SWGPU_OP_STORE_REG, size = sizeof */
    struct swgpu_region dst;     /* row_pitch, slice_pitch: 8 */
    UINT32 reg;
    UINT32 reserved;
};

struct swgpu_cmd_gart_map {
    struct swgpu_cmd_header hdr; /* SWGPU_OP_GART_MAP, size = sizeof + 8 * page_count */
    UINT32 first_page;           /* aperture page index */
    UINT32 page_count;
    /* followed by page_count UINT64 system page addresses (PFN << 12) */
};

struct swgpu_cmd_gart_unmap {
    struct swgpu_cmd_header hdr; /* SWGPU_OP_GART_UNMAP, size = sizeof */
    UINT32 first_page;
    UINT32 page_count;
    UINT64 dummy_page;           /* system address every unmapped page is redirected to */
};

struct swgpu_cmd_flush_tlb {
    struct swgpu_cmd_header hdr; /* SWGPU_OP_FLUSH_TLB, size = sizeof */
    UINT64 root;                 /* GPU physical address of the root page table; 0 = all roots */
};

/* ---- The GPU's MMU (WDDM 2.x GpuMmu model, issue 6) -------------------------------------------
 * Two levels, 4 KiB pages, 40-bit virtual addresses (the reference KMD's DXGK_GPUMMUCAPS):
 *   root index = VA bits 39..21 (at most 2^19 entries; a context's root has NumEntries of them,
 *                DxgkDdiSetRootPageTable), leaf index = VA bits 20..12 (512 entries, one 4 KiB
 *                leaf table maps 2 MiB), page offset = VA bits 11..0.
 * Both levels use the same 64-bit entry, this GPU's own format (VidMm's DXGK_PTE never reaches
 * the GPU: the KMD converts it, docs/semantics.md §2.3 UpdatePageTable):
 *   bits 63..12  GPU physical address of the 4 KiB page (leaf) or of the leaf table (root),
 *                segment id in bits 63..56 as every GPU physical address (segment 0 = system)
 *   bit 1        SWGPU_PTE_READONLY: a write through this leaf entry faults (ignored in a root
 *                entry)
 *   bit 0        SWGPU_PTE_VALID: clear = not present, any access faults
 *   bits 11..2   zero.
 * Tables are read by the engines at GPU physical addresses; the paging engine writes them with
 * ordinary WRITE / FILL commands. Each engine caches translations (a small TLB) that only
 * SWGPU_OP_FLUSH_TLB drops, as on hardware (docs/semantics.md §2.1 FLUSH_TLB); a not-present
 * entry is never cached. */
#define SWGPU_PTE_VALID          0x1ull
#define SWGPU_PTE_READONLY       0x2ull
#define SWGPU_PTE_ADDR_MASK      (~0xFFFull)
#define SWGPU_VA_BITS            40u
#define SWGPU_PT_LEAF_BITS       9u
#define SWGPU_PT_ROOT_MAX_BITS   19u
#define SWGPU_PT_LEAF_ENTRIES    (1u << SWGPU_PT_LEAF_BITS)
#define SWGPU_PT_ROOT_MAX_ENTRIES (1u << SWGPU_PT_ROOT_MAX_BITS)
#define SWGPU_PT_ENTRY_BYTES     8u
#define SWGPU_VA_LEAF_SPAN       ((UINT64)SWGPU_PAGE_SIZE << SWGPU_PT_LEAF_BITS) /* 2 MiB per leaf table */

static inline UINT64 swgpu_va_root_index(UINT64 va) { return va >> 21; }
static inline UINT32 swgpu_va_leaf_index(UINT64 va) { return (UINT32)(va >> 12) & (SWGPU_PT_LEAF_ENTRIES - 1u); }

static inline UINT32 swgpu_align8(UINT32 n) { return (n + 7u) & ~7u; }

/* A COPY of one row of `bytes`, every other byte 0 (padding included): the caller fills in or
 * has the KMD patch the two addresses. */
static inline struct swgpu_cmd_copy swgpu_cmd_copy_bytes(UINT32 bytes)
{
    struct swgpu_cmd_copy c;
    memset(&c, 0, sizeof c);
    c.hdr.opcode = SWGPU_OP_COPY;
    c.hdr.size_bytes = sizeof c;
    c.row_bytes = bytes;
    c.rows = 1;
    c.slices = 1;
    return c;
}

/* A FILL of one row of `bytes` with `pattern` (pattern_bytes: 1, 2, 4, 8 or 16), every other byte
 * 0 (padding included): the caller fills in or has the KMD patch the address. */
static inline struct swgpu_cmd_fill swgpu_cmd_fill_bytes(UINT32 bytes, const void *pattern, UINT32 pattern_bytes)
{
    struct swgpu_cmd_fill c;
    memset(&c, 0, sizeof c);
    c.hdr.opcode = SWGPU_OP_FILL;
    c.hdr.size_bytes = sizeof c;
    c.row_bytes = bytes;
    c.rows = 1;
    c.slices = 1;
    c.pattern_bytes = pattern_bytes;
    memcpy(c.pattern, pattern, pattern_bytes <= sizeof c.pattern ? pattern_bytes : sizeof c.pattern);
    return c;
}

#endif /* SWGPU_ISA_H */
