/* Fuzzes the software GPU's command processor (src/gpu/exec.c, the format of
 * src/gpu/swgpu_isa.h) and its MMU (src/gpu/mmu.c) at the hardware interface the KMD drives
 * (src/gpu/swgpu_hw.h, as tests/gpu/ do): the input is one DMA buffer, executed by a small
 * software GPU created for that input.
 *
 * Input: byte 0 selects how the buffer runs (below), the rest is the DMA buffer (at most
 * MAX_DMA bytes).
 *   bit 0  VA mode: submitted with a root page table (WDDM 2.x GpuMmu); every address is a VA.
 *          The harness's page tables map the buffer, local / read-only / aperture / system
 *          pages, holes, and entries pointing outside GPU memory (VA_* below).
 *   bit 1  physical mode: submitted as a paging buffer.
 *   bit 2  submitted twice with a context save area in local memory, the second time as a
 *          resubmission (resumes from whatever save record the first run left, or wrote), and
 *          (unless a paging buffer) for two contexts, so the engine switches their registers.
 *
 * What the harness does in the KMD's place, because the GPU trusts it by design
 * (swgpu_isa.h, memory.c): system memory is identity-mapped (segment 0 addresses are host
 * addresses the KMD patched from MDLs), so in physical mode every segment-0 address of a
 * command is moved into a fuzzer-owned arena (or to the null guard when its region does not
 * fit there), and so are GART_MAP's page addresses and GART_UNMAP's dummy page. Segment 1..n
 * addresses are left as the input says: checking them is the GPU's job.
 *
 * Bound on the work per input: a COPY / FILL / WRITE with a huge box (rows x slices up to
 * 2^64 with zero pitches: no address ever leaves its segment) runs for hours. The GPU stops such
 * a command when it is reset (it looks for a reset every 1 MiB of work, exec.c), but this harness
 * has no timeout detection to reset it, so it clamps each box to BOX_BUDGET bytes-rows; the
 * reset inside a long command is tested in gpu.test_gpu_long_command. */
/* rule: build.every-fuzz-fuzz-name-c-libfuzzer (and the caps / features harnesses once merged) */
/* rule: gpu.software-gpu-executes-dma-buffer-without (`fuzz/fuzz_gpu.c`) */
#include "gpu/gpu_internal.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DMA (64u * 1024u)
#define PG SWGPU_PAGE_SIZE

#define SEG_LOCAL 1u
#define SEG_VISIBLE 2u
#define SEG_APERTURE 3u
#define LOCAL_SIZE (1u << 20)
#define VISIBLE_SIZE (256u << 10)
#define APERTURE_PAGES 64u

/* Local segment layout (VA mode): root table, two leaf tables, the buffer's pages, data. */
#define ROOT_OFF 0x0000u
#define LEAF0_OFF 0x1000u
#define LEAF1_OFF 0x2000u
#define CSA_OFF 0x3000u
#define CODE_OFF 0x10000u          /* MAX_DMA bytes */
#define DATA_OFF 0x40000u          /* data pages */
#define ROOT_ENTRIES 4u            /* VAs below 8 MiB; root 2 points outside memory, 3 invalid */
#define VA_CODE 0x10000ull         /* the DMA buffer */
#define VA_DATA 0x200000ull        /* 64 pages of data of every kind (page_kind) */
#define DATA_PAGES 64u

/* The system memory the GPU may reach: segment-0 addresses, GART pages, system PTEs. */
#define ARENA_PAGES 32u
static BYTE *arena;

static UINT64 arena_addr(UINT64 any) { return (UINT64)(uintptr_t)arena + any % (ARENA_PAGES * PG); }
static UINT64 arena_page(UINT64 any) { return (UINT64)(uintptr_t)arena + (any / PG % ARENA_PAGES) * PG; }

/* Bytes and rows one command may make the GPU touch (a row costs about as much as 64 bytes). */
#define BOX_BUDGET (1ull << 20)
#define ROW_COST 64u

static void clamp_box(UINT32 *row_bytes, UINT32 *rows, UINT32 *slices)
{
    UINT64 per_row = (*row_bytes < LOCAL_SIZE ? *row_bytes : LOCAL_SIZE) + ROW_COST; /* longer rows fault */
    UINT64 max_rows = BOX_BUDGET / per_row;
    if ((UINT64)*rows * *slices <= max_rows)
        return;
    if (*rows > max_rows)
        *rows = (UINT32)max_rows;
    *slices = (UINT32)(max_rows / (*rows ? *rows : 1));
}

/* Last byte + 1 of a region's extent, relative to its start; -1 if not representable. */
static int region_extent(UINT32 row_pitch, UINT32 slice_pitch, UINT32 row_bytes, UINT32 rows, UINT32 slices,
                         UINT64 *out)
{
    if (!rows || !slices)
        return *out = 0, 0;
    UINT64 a = (UINT64)(slices - 1) * slice_pitch, b = (UINT64)(rows - 1) * row_pitch;
    return __builtin_add_overflow(a, b, out) || __builtin_add_overflow(*out, (UINT64)row_bytes, out) ? -1 : 0;
}

/* A segment-0 region goes into the arena, or to the null guard when it does not fit. */
static void fix_system_region(struct swgpu_region *r, UINT32 row_bytes, UINT32 rows, UINT32 slices)
{
    if (r->addr >> SWGPU_ADDR_SEGMENT_SHIFT)
        return;
    UINT64 ext, a = arena_addr(r->addr);
    if (region_extent(r->row_pitch, r->slice_pitch, row_bytes, rows, slices, &ext) ||
        a + ext > (UINT64)(uintptr_t)arena + ARENA_PAGES * PG)
        a = 0x1000; /* below SWGPU_SYSTEM_NULL_GUARD: the GPU faults */
    r->addr = a;
}

/* Walks the buffer as exec.c does (header by header, stopping where the GPU would fault on the
 * header) and applies the bounds above. */
static void prepare(BYTE *dma, UINT32 len, int physical)
{
    UINT32 off = 0;
    while (len - off >= sizeof(struct swgpu_cmd_header)) {
        struct swgpu_cmd_header h;
        memcpy(&h, dma + off, sizeof h);
        if (h.size_bytes < sizeof h || h.size_bytes % 8 || h.size_bytes > len - off)
            return;
        BYTE *p = dma + off;
        switch (h.opcode) {
        case SWGPU_OP_COPY:
            if (h.size_bytes >= sizeof(struct swgpu_cmd_copy)) {
                struct swgpu_cmd_copy c;
                memcpy(&c, p, sizeof c);
                clamp_box(&c.row_bytes, &c.rows, &c.slices);
                if (physical) {
                    fix_system_region(&c.dst, c.row_bytes, c.rows, c.slices);
                    fix_system_region(&c.src, c.row_bytes, c.rows, c.slices);
                }
                memcpy(p, &c, sizeof c);
            }
            break;
        case SWGPU_OP_FILL:
            if (h.size_bytes >= sizeof(struct swgpu_cmd_fill)) {
                struct swgpu_cmd_fill c;
                memcpy(&c, p, sizeof c);
                clamp_box(&c.row_bytes, &c.rows, &c.slices);
                if (physical)
                    fix_system_region(&c.dst, c.row_bytes, c.rows, c.slices);
                memcpy(p, &c, sizeof c);
            }
            break;
        case SWGPU_OP_WRITE:
            if (h.size_bytes >= sizeof(struct swgpu_cmd_write)) {
                struct swgpu_cmd_write c;
                memcpy(&c, p, sizeof c);
                clamp_box(&c.row_bytes, &c.rows, &c.slices);
                if (physical)
                    fix_system_region(&c.dst, c.row_bytes, c.rows, c.slices);
                memcpy(p, &c, sizeof c);
            }
            break;
        case SWGPU_OP_FENCE:
            if (physical && h.size_bytes >= sizeof(struct swgpu_cmd_fence)) {
                struct swgpu_cmd_fence c;
                memcpy(&c, p, sizeof c);
                if (!(c.addr >> SWGPU_ADDR_SEGMENT_SHIFT))
                    c.addr = arena_addr(c.addr) & ~7ull;
                memcpy(p, &c, sizeof c);
            }
            break;
        case SWGPU_OP_TIMESTAMP:
            if (physical && h.size_bytes >= sizeof(struct swgpu_cmd_timestamp)) {
                struct swgpu_cmd_timestamp c;
                memcpy(&c, p, sizeof c);
                fix_system_region(&c.dst, 8, 1, 1);
                memcpy(p, &c, sizeof c);
            }
            break;
        case SWGPU_OP_STORE_REG:
            if (physical && h.size_bytes >= sizeof(struct swgpu_cmd_store_reg)) {
                struct swgpu_cmd_store_reg c;
                memcpy(&c, p, sizeof c);
                fix_system_region(&c.dst, 8, 1, 1);
                memcpy(p, &c, sizeof c);
            }
            break;
        case SWGPU_OP_GART_MAP:
            if (physical && h.size_bytes >= sizeof(struct swgpu_cmd_gart_map)) {
                UINT32 n = (h.size_bytes - (UINT32)sizeof(struct swgpu_cmd_gart_map)) / 8;
                for (UINT32 i = 0; i < n; i++) {
                    BYTE *q = p + sizeof(struct swgpu_cmd_gart_map) + 8 * i;
                    UINT64 a;
                    memcpy(&a, q, 8);
                    if (a && !(a % PG)) /* 0 and unaligned stay: the GPU must refuse them */
                        a = arena_page(a);
                    memcpy(q, &a, 8);
                }
            }
            break;
        case SWGPU_OP_GART_UNMAP:
            if (physical && h.size_bytes >= sizeof(struct swgpu_cmd_gart_unmap)) {
                struct swgpu_cmd_gart_unmap c;
                memcpy(&c, p, sizeof c);
                if (c.dummy_page && !(c.dummy_page % PG))
                    c.dummy_page = arena_page(c.dummy_page);
                memcpy(p, &c, sizeof c);
            }
            break;
        default:
            break;
        }
        off += h.size_bytes;
    }
}

/* What page i of the VA_DATA range maps to. */
static UINT64 page_entry(UINT32 i)
{
    switch (i % 8) {
    case 0: case 1: case 2:
        return (SWGPU_SEGMENT_BASE(SEG_LOCAL) + DATA_OFF + (UINT64)i * PG) | SWGPU_PTE_VALID;
    case 3:
        return (SWGPU_SEGMENT_BASE(SEG_LOCAL) + DATA_OFF + (UINT64)i * PG) | SWGPU_PTE_VALID | SWGPU_PTE_READONLY;
    case 4:
        return (SWGPU_SEGMENT_BASE(SEG_APERTURE) + (UINT64)(i % APERTURE_PAGES) * PG) | SWGPU_PTE_VALID;
    case 5:
        return arena_page((UINT64)i * PG) | SWGPU_PTE_VALID; /* system page */
    case 6:
        return 0; /* hole: not present */
    default:
        /* Valid, but not GPU memory: past the end of the visible segment, or a segment that
         * does not exist. */
        return (i & 8 ? SWGPU_SEGMENT_BASE(SEG_VISIBLE) + VISIBLE_SIZE : SWGPU_SEGMENT_BASE(7)) | SWGPU_PTE_VALID;
    }
}

static void build_page_tables(struct swgpu *gpu, UINT32 code_len)
{
    BYTE *local = swgpu_segment_host(gpu, SEG_LOCAL);
    UINT64 root[ROOT_ENTRIES] = {
        (SWGPU_SEGMENT_BASE(SEG_LOCAL) + LEAF0_OFF) | SWGPU_PTE_VALID,
        (SWGPU_SEGMENT_BASE(SEG_LOCAL) + LEAF1_OFF) | SWGPU_PTE_VALID,
        (SWGPU_SEGMENT_BASE(SEG_LOCAL) + LOCAL_SIZE) | SWGPU_PTE_VALID, /* leaf table outside memory */
        0,
    };
    memcpy(local + ROOT_OFF, root, sizeof root);
    UINT64 *leaf0 = (UINT64 *)(local + LEAF0_OFF), *leaf1 = (UINT64 *)(local + LEAF1_OFF);
    for (UINT32 i = 0; i * PG < code_len; i++) /* read-only code pages */
        leaf0[VA_CODE / PG + i] = (SWGPU_SEGMENT_BASE(SEG_LOCAL) + CODE_OFF + (UINT64)i * PG) | SWGPU_PTE_VALID |
                                  SWGPU_PTE_READONLY;
    for (UINT32 i = 0; i < DATA_PAGES; i++)
        leaf1[i] = page_entry(i);
}

static struct swgpu *gpu; /* one per process: creating one per input costs ~3 ms */
static UINT32 fences[2];  /* last fence submitted per engine */

/* Runs one harness-made paging buffer on engine 1. */
static void run_paging(const void *buf, UINT32 len)
{
    swgpu_submit(gpu, 1, buf, 0, len, ++fences[1], 1);
    swgpu_wait_fence(gpu, 1, fences[1]);
}

/* Puts the GPU back in the state every input starts from: memory zeroed, every aperture page
 * mapped to an arena page (not contiguously), no cached translation. */
static void reset_gpu(void)
{
    memset(swgpu_segment_host(gpu, SEG_LOCAL), 0, LOCAL_SIZE);
    memset(swgpu_segment_host(gpu, SEG_VISIBLE), 0, VISIBLE_SIZE);
    struct {
        struct swgpu_cmd_gart_map c;
        UINT64 pages[APERTURE_PAGES];
        struct swgpu_cmd_flush_tlb f;
    } b;
    b.c.hdr.opcode = SWGPU_OP_GART_MAP;
    b.c.hdr.size_bytes = sizeof b.c + sizeof b.pages;
    b.c.first_page = 0;
    b.c.page_count = APERTURE_PAGES;
    for (UINT32 i = 0; i < APERTURE_PAGES; i++)
        b.pages[i] = arena_page((UINT64)(APERTURE_PAGES - 1 - i) * PG);
    b.f.hdr.opcode = SWGPU_OP_FLUSH_TLB;
    b.f.hdr.size_bytes = sizeof b.f;
    b.f.root = 0;
    run_paging(&b, sizeof b);
}

static void drain_faults(void)
{
    struct swgpu_fault f;
    for (UINT32 e = 0; e < 2; e++)
        while (swgpu_take_fault(gpu, e, &f))
            if (!f.reason)
                abort(); /* every fault names its reason */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size - 1 > MAX_DMA)
        return 0;
    UINT8 mode = data[0];
    UINT32 len = (UINT32)(size - 1);
    int va = mode & 1, paging = !va && (mode & 2), twice = mode & 4;

    if (!gpu) {
        arena = aligned_alloc(PG, ARENA_PAGES * PG);
        struct swgpu_config cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.segment_count = 3;
        cfg.segments[0] = (struct swgpu_segment_desc){LOCAL_SIZE, SWGPU_SEGMENT_MEMORY};
        cfg.segments[1] = (struct swgpu_segment_desc){VISIBLE_SIZE, SWGPU_SEGMENT_MEMORY};
        cfg.segments[2] = (struct swgpu_segment_desc){APERTURE_PAGES * PG, SWGPU_SEGMENT_APERTURE};
        cfg.engine_count = 2; /* 0 runs the input, 1 is the harness's paging engine */
        gpu = swgpu_create(&cfg);
        if (!arena || !gpu)
            abort();
    }
    memset(arena, 0, ARENA_PAGES * PG);
    reset_gpu();

    /* The buffer in host memory (physical mode) or at VA_CODE (VA mode). */
    BYTE *dma = aligned_alloc(PG, MAX_DMA);
    memcpy(dma, data + 1, len);
    prepare(dma, len, !va);
    struct swgpu_submission s = {.dma = dma, .start = 0, .end = len, .paging = paging};
    if (va) {
        memcpy((BYTE *)swgpu_segment_host(gpu, SEG_LOCAL) + CODE_OFF, dma, len);
        build_page_tables(gpu, len);
        s.dma = NULL;
        s.root_page_table = SWGPU_SEGMENT_BASE(SEG_LOCAL) + ROOT_OFF;
        s.root_entries = ROOT_ENTRIES;
        s.dma_va = VA_CODE;
    }
    if (twice)
        s.csa_addr = SWGPU_SEGMENT_BASE(SEG_LOCAL) + CSA_OFF;
    for (UINT32 run = 0; run < (twice ? 2u : 1u); run++) {
        s.fence_id = ++fences[0];
        s.resubmission = run == 1;
        /* Twice: as two contexts, so the second run switches (saves the first's registers,
         * loads its own: context_state.c); their state areas follow the save area. */
        if (twice && !paging) {
            s.context_id = run + 1;
            s.state_addr = SWGPU_SEGMENT_BASE(SEG_LOCAL) + CSA_OFF + 256u + run * sizeof(struct swgpu_context_state);
        }
        if (swgpu_submit2(gpu, 0, &s))
            abort();
        swgpu_wait_fence(gpu, 0, s.fence_id);
        if (swgpu_last_completed_fence(gpu, 0) != s.fence_id)
            abort(); /* a buffer always completes its fence, faulted or not */
    }
    drain_faults();
    free(dma);
    return 0;
}
