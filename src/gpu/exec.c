/* The command processor: executes one DMA buffer (src/gpu/swgpu_isa.h). Every address goes
 * through swgpu_mem_span (memory.c), so a bad command or address is a recorded fault that
 * ends the buffer, never a host crash. Data moves with memmove/memcpy/memset in the largest
 * host-contiguous runs (whole rows in memory segments, page pieces in the aperture).
 * Between two commands it asks the engine whether a preemption or a reset stops it there
 * (swgpu_engine_boundary, preempt.c). Inside a command, every SWGPU_STOP_CHECK_BYTES of work it
 * looks for a reset (issue 14 §4): one command may name 2^32 rows of 2^32 slices (a zero pitch
 * keeps it inside its segment), or move a few MiB through a GPU slowed to bytes per second,
 * and must still end when the kernel's timeout detection resets the engine. */
#include "gpu/gpu_internal.h"
#include <wddm/swgpu.h>

#include <string.h>

/* Granularity of the in-command reset check: bytes moved, each row counting SWGPU_ROW_COST more
 * (so that a command of many tiny rows is checked as often as one of long rows). 1 MiB is a
 * fraction of a millisecond of memmove, and one relaxed load per MiB costs nothing. */
#define SWGPU_STOP_CHECK_BYTES (1ull << 20)
#define SWGPU_ROW_COST 64u

/* Returned by the data movers when a reset stopped them in the middle of a command. */
#define SWGPU_EXEC_STOPPED_IN_COMMAND 1

struct exec_state {
    struct swgpu *gpu;
    struct swgpu_engine *engine;
    struct swgpu_fault *fault;
    /* Whose TLB translates VAs: the engine's, or the second copy unit's for the part it runs. */
    struct swgpu_engine *mmu;
    /* GpuMmu (mmu.c): the buffer's address space; root 0 = physical addresses (WDDM 1.x). */
    UINT64 root;
    UINT32 root_entries;
    /* The command being executed: work since the last reset check, bytes moved, and its start
     * time while a bandwidth limit is set. */
    UINT64 budget;
    UINT64 moved;
    int throttled;
    struct timespec start;
};

/* Called after each piece of a command's work (`bytes` moved, one row or part of one): every
 * SWGPU_STOP_CHECK_BYTES of work, honours the bandwidth limit so far and looks for a reset.
 * SWGPU_EXEC_STOPPED_IN_COMMAND when a reset is pending: the command is abandoned where it is (its
 * buffer is abandoned anyway, docs/semantics.md §8.3). Preemption still waits for the command's end:
 * a command is this GPU's primitive (PRIMITIVE_BOUNDARY), there is no state to save inside one. */
static int checkpoint(struct exec_state *st, UINT64 bytes)
{
    st->moved += bytes;
    st->budget += bytes + SWGPU_ROW_COST;
    if (st->budget < SWGPU_STOP_CHECK_BYTES)
        return 0;
    st->budget = 0;
    if (st->throttled && swgpu_control_throttle(st->moved, &st->start, &st->engine->stop_request))
        return SWGPU_EXEC_STOPPED_IN_COMMAND;
    if (atomic_load_explicit(&st->engine->stop_request, memory_order_relaxed) & SWGPU_STOP_RESET)
        return SWGPU_EXEC_STOPPED_IN_COMMAND;
    return 0;
}

/* One piece of a command's data movement is at most this long, so checkpoint() runs in time. */
static UINT64 piece(UINT64 n)
{
    return n < SWGPU_STOP_CHECK_BYTES ? n : SWGPU_STOP_CHECK_BYTES;
}

/* Records a command fault (address as the command names it: physical, or a VA in VA mode). A
 * page fault already recorded by span() keeps its own details. */
static int fail_rw(struct exec_state *st, UINT64 address, int write, const char *reason)
{
    struct swgpu_fault *f = st->fault;
    if (f->kind != SWGPU_PF_NONE)
        return -1;
    if (st->root) {
        f->virtual_address = address;
        f->address = 0;
    } else {
        f->address = address;
    }
    f->write = write;
    f->reason = reason;
    return -1;
}

static int fail(struct exec_state *st, UINT64 address, const char *reason)
{
    return fail_rw(st, address, 0, reason);
}

/* Records a translation failure as the buffer's fault. */
static int page_fault(struct exec_state *st, const struct swgpu_pf *pf)
{
    struct swgpu_fault *f = st->fault;
    f->kind = pf->kind;
    f->page_table_level = pf->level;
    f->virtual_address = pf->va;
    f->address = pf->phys;
    f->write = pf->write;
    f->reason = pf->reason;
    return -1;
}

/* Host pointer for `want` bytes at a command's address (or its longest contiguous prefix):
 * physical addresses through swgpu_mem_span, VAs through the MMU (a failed translation is
 * recorded as the page fault; the caller's fail() then keeps it). */
static BYTE *span(struct exec_state *st, UINT64 addr, UINT64 want, int write, UINT64 *avail)
{
    if (!st->root)
        return swgpu_mem_span(st->gpu, addr, want, avail);
    struct swgpu_pf pf;
    BYTE *p = swgpu_mmu_span(st->mmu, st->root, st->root_entries, addr, want, write, avail, &pf);
    if (!p)
        page_fault(st, &pf);
    return p;
}

/* Bytes just before `end_addr` that are host-contiguous (at most `limit`). In VA mode a page
 * is the unit known to be contiguous. */
static UINT64 back_span(struct exec_state *st, UINT64 end_addr, UINT64 limit)
{
    if (!st->root)
        return swgpu_mem_back_span(st->gpu, end_addr, limit);
    UINT64 in_page = end_addr % SWGPU_PAGE_SIZE;
    UINT64 n = in_page ? in_page : SWGPU_PAGE_SIZE;
    return n < limit ? n : limit;
}

/* Bytes of a row_bytes x rows x slices box; -1 if it cannot be represented (no region of a
 * segment is that large: the command faults). */
static int box_bytes(UINT32 row_bytes, UINT32 rows, UINT32 slices, UINT64 *out)
{
    return __builtin_mul_overflow((UINT64)row_bytes * rows, (UINT64)slices, out) ? -1 : 0;
}

/* Address of row r of slice s of a region; -1 if the arithmetic leaves the segment. */
static int region_row(UINT64 base, UINT32 row_pitch, UINT32 slice_pitch, UINT32 r, UINT32 s,
                      UINT64 *out)
{
    UINT64 seg = base & ~SWGPU_ADDR_OFFSET_MASK;
    UINT64 off = base & SWGPU_ADDR_OFFSET_MASK;
    UINT64 d = 0;
    if (__builtin_add_overflow((UINT64)s * slice_pitch, (UINT64)r * row_pitch, &d) ||
        __builtin_add_overflow(off, d, &off) || off > SWGPU_ADDR_OFFSET_MASK)
        return -1;
    *out = seg | off;
    return 0;
}

static int copy_forward(struct exec_state *st, UINT64 dst, UINT64 src, UINT64 len)
{
    UINT64 done = 0;
    while (done < len) {
        UINT64 a = 0, b = 0;
        BYTE *s = span(st, src + done, piece(len - done), 0, &a);
        if (!s)
            return fail_rw(st, src + done, 0, "copy source outside its segment or unmapped");
        BYTE *d = span(st, dst + done, piece(len - done), 1, &b);
        if (!d)
            return fail_rw(st, dst + done, 1, "copy destination outside its segment or unmapped");
        UINT64 n = a < b ? a : b;
        memmove(d, s, n);
        done += n;
        if (checkpoint(st, n))
            return SWGPU_EXEC_STOPPED_IN_COMMAND;
    }
    return 0;
}

/* Copies from the end so that an overlapping destination above the source reads every byte
 * before overwriting it (memmove semantics across aperture pages). */
static int copy_backward(struct exec_state *st, UINT64 dst, UINT64 src, UINT64 len)
{
    UINT64 rem = len;
    while (rem) {
        UINT64 n = back_span(st, src + rem, piece(rem));
        UINT64 m = back_span(st, dst + rem, piece(rem));
        if (m < n)
            n = m;
        UINT64 a = 0, b = 0;
        BYTE *s = span(st, src + rem - n, n, 0, &a);
        if (!s || a != n)
            return fail_rw(st, src + rem - n, 0, "copy source outside its segment or unmapped");
        BYTE *d = span(st, dst + rem - n, n, 1, &b);
        if (!d || b != n)
            return fail_rw(st, dst + rem - n, 1, "copy destination outside its segment or unmapped");
        memmove(d, s, n);
        rem -= n;
        if (checkpoint(st, n))
            return SWGPU_EXEC_STOPPED_IN_COMMAND;
    }
    return 0;
}

/* A copy's rows as one run of bytes: byte b is at offset b % row_bytes of row b / row_bytes, and
 * row i is row i % rows of slice i / rows (after exec_copy merged rows without padding). */
struct copy_shape {
    const struct swgpu_cmd_copy *c;
    UINT64 row_bytes, rows, slices;
};

/* Forward copy of bytes [b0, b1) of the shape. */
static int copy_range(struct exec_state *st, const struct copy_shape *sh, UINT64 b0, UINT64 b1)
{
    const struct swgpu_cmd_copy *c = sh->c;
    for (UINT64 b = b0; b < b1;) {
        UINT64 i = b / sh->row_bytes, off = b % sh->row_bytes, d, sa;
        UINT32 s = (UINT32)(i / sh->rows), r = (UINT32)(i % sh->rows);
        if (region_row(c->dst.addr, c->dst.row_pitch, c->dst.slice_pitch, r, s, &d))
            return fail(st, c->dst.addr, "copy destination region overflows its segment");
        if (region_row(c->src.addr, c->src.row_pitch, c->src.slice_pitch, r, s, &sa))
            return fail(st, c->src.addr, "copy source region overflows its segment");
        UINT64 n = sh->row_bytes - off < b1 - b ? sh->row_bytes - off : b1 - b;
        int rc = copy_forward(st, d + off, sa + off, n);
        if (rc)
            return rc;
        b += n;
    }
    return 0;
}

/* Whether len bytes at a command's addr can be reached (aperture pages mapped; in VA mode, pages
 * translated with the access's permission), recording nothing. */
static int reachable(const struct exec_state *st, UINT64 addr, UINT64 len, int write)
{
    struct swgpu_pf pf;
    for (UINT64 done = 0, n = 0; done < len; done += n)
        if (!(st->root ? swgpu_mmu_span(st->mmu, st->root, st->root_entries, addr + done, len - done, write, &n, &pf)
                       : swgpu_mem_span(st->gpu, addr + done, len - done, &n)))
            return 0;
    return 1;
}

/* Whether every row of the shape is reachable on both sides and the two sides do not overlap,
 * so that no part of the copy can fault or read what another part wrote, and parts may run at
 * once in any order. Costs a walk of the rows, a page at a time in the aperture or through the
 * MMU: about 1 % of the copy. In VA mode the check is on the VAs: two VA ranges mapping one
 * physical page are not seen (a driver's copy between aliases of one page has no defined
 * order either way). */
static int copy_cannot_fault(const struct exec_state *st, const struct copy_shape *sh)
{
    const struct swgpu_cmd_copy *c = sh->c;
    UINT64 n = sh->rows * sh->slices, d_last, s_last;
    if (region_row(c->dst.addr, c->dst.row_pitch, c->dst.slice_pitch, (UINT32)((n - 1) % sh->rows),
                   (UINT32)((n - 1) / sh->rows), &d_last) ||
        region_row(c->src.addr, c->src.row_pitch, c->src.slice_pitch, (UINT32)((n - 1) % sh->rows),
                   (UINT32)((n - 1) / sh->rows), &s_last) ||
        (c->dst.addr < s_last + sh->row_bytes && c->src.addr < d_last + sh->row_bytes))
        return 0; /* the extents overlap (or leave their segment) */
    for (UINT64 i = 0; i < n; i++) {
        UINT64 d, sa;
        UINT32 s = (UINT32)(i / sh->rows), r = (UINT32)(i % sh->rows);
        if (region_row(c->dst.addr, c->dst.row_pitch, c->dst.slice_pitch, r, s, &d) ||
            region_row(c->src.addr, c->src.row_pitch, c->src.slice_pitch, r, s, &sa) ||
            !reachable(st, d, sh->row_bytes, 1) || !reachable(st, sa, sh->row_bytes, 0))
            return 0;
    }
    return 1;
}

/* A copy shared between the engine and the second copy unit (copy_unit.c): both take pieces of
 * SWGPU_COPY_PIECE bytes in order until none is left; the unit has its own fault record. */
#define SWGPU_COPY_PIECE (256ull << 10)
struct copy_part {
    struct exec_state st;       /* the unit's */
    struct swgpu_fault fault;
    const struct copy_shape *sh;
    UINT64 total;
    _Atomic(UINT64) next;       /* the next piece to take */
    atomic_int stop;            /* a piece failed or was stopped by a reset: take no more */
    int rc;                     /* the unit's result */
    UINT64 unit_bytes;          /* what the unit copied */
};

static int take_pieces(struct exec_state *st, struct copy_part *p, UINT64 *bytes)
{
    for (;;) {
        if (atomic_load_explicit(&p->stop, memory_order_relaxed))
            return 0;
        UINT64 b0 = atomic_fetch_add_explicit(&p->next, 1, memory_order_relaxed) * SWGPU_COPY_PIECE;
        if (b0 >= p->total)
            return 0;
        UINT64 b1 = p->total - b0 < SWGPU_COPY_PIECE ? p->total : b0 + SWGPU_COPY_PIECE;
        int rc = copy_range(st, p->sh, b0, b1);
        if (rc) {
            atomic_store_explicit(&p->stop, 1, memory_order_relaxed);
            return rc;
        }
        *bytes += b1 - b0;
    }
}

static void run_part(void *arg)
{
    struct copy_part *p = arg;
    p->rc = take_pieces(&p->st, p, &p->unit_bytes);
}

/* From this many bytes a forward copy is offered to the second copy unit: large enough that the
 * hand-over (a thread wake-up, tens of microseconds) is a few per cent. */
#define SWGPU_SPLIT_MIN_BYTES (2ull << 20)

/* The forward copy of the whole shape: shared with the unit when it is large, cannot fault, and
 * the unit is free; else in order. In VA mode the unit translates through its own TLB. Not under
 * a bandwidth limit, which is per engine. */
static int copy_all(struct exec_state *st, const struct copy_shape *sh, UINT64 total)
{
    int mode = swgpu_control_copy_unit_mode();
    if (total < SWGPU_SPLIT_MIN_BYTES || st->throttled || mode == WDDM_SWGPU_COPY_UNIT_OFF ||
        !st->gpu->copy_unit.started || !copy_cannot_fault(st, sh))
        return copy_range(st, sh, 0, total);
    /* HALF: the engine copies the pieces below the middle, the unit the others. */
    UINT64 half = (total / 2 + SWGPU_COPY_PIECE - 1) / SWGPU_COPY_PIECE;
    struct copy_part part = {.st = *st, .sh = sh, .total = total};
    part.st.fault = &part.fault;
    part.st.mmu = st->gpu->copy_unit.mmu;
    part.st.budget = part.st.moved = 0;
    atomic_init(&part.next, mode == WDDM_SWGPU_COPY_UNIT_HALF ? half : 0);
    atomic_init(&part.stop, 0);
    struct swgpu_copy_job job = {run_part, &part, 0};
    if (swgpu_copy_unit_post(st->gpu, &job))
        return copy_range(st, sh, 0, total);
    UINT64 mine = 0;
    int rc = mode == WDDM_SWGPU_COPY_UNIT_HALF ? copy_range(st, sh, 0, half * SWGPU_COPY_PIECE)
                                               : take_pieces(st, &part, &mine);
    if (rc) /* the unit takes no more pieces */
        atomic_store_explicit(&part.stop, 1, memory_order_relaxed);
    swgpu_copy_unit_finish(st->gpu, &job, mode != WDDM_SWGPU_COPY_UNIT_HALF);
    st->moved += part.st.moved;
    if (part.unit_bytes)
        swgpu_stat_add(SWGPU_STAT_BYTES_SECOND_UNIT, part.unit_bytes);
    if (rc || !part.rc)
        return rc;
    /* A page unmapped meanwhile: its fault. Only the access is the unit's: the engine, fence,
     * command and virtual mode the engine records for its own buffer. */
    if (part.rc != SWGPU_EXEC_STOPPED_IN_COMMAND) {
        struct swgpu_fault *f = st->fault;
        f->kind = part.fault.kind;
        f->page_table_level = part.fault.page_table_level;
        f->address = part.fault.address;
        f->virtual_address = part.fault.virtual_address;
        f->write = part.fault.write;
        f->reason = part.fault.reason;
    }
    return part.rc;
}

static int exec_copy(struct exec_state *st, const struct swgpu_cmd_copy *c)
{
    UINT64 total;
    if (box_bytes(c->row_bytes, c->rows, c->slices, &total))
        return fail(st, c->dst.addr, "copy box too large");
    if (total == 0)
        return 0;
    /* memmove semantics for the whole box: when the destination starts above the source in
     * the same segment and inside the source's extent, rows overlapping later source rows must
     * be written last. Only then: a backward copy runs one aperture page per memmove, and a
     * copy between two allocations of one aperture segment never overlaps. */
    UINT64 src_last = 0;
    int backward = (c->dst.addr >> SWGPU_ADDR_SEGMENT_SHIFT) == (c->src.addr >> SWGPU_ADDR_SEGMENT_SHIFT) &&
                   c->dst.addr > c->src.addr &&
                   !region_row(c->src.addr, c->src.row_pitch, c->src.slice_pitch, c->rows - 1, c->slices - 1,
                               &src_last) &&
                   c->dst.addr < src_last + c->row_bytes;
    /* Rows that follow each other without padding on both sides are one linear run (and so
     * are slices): copy them as one, so that large copies run as a few long memmoves. */
    UINT64 row_bytes = c->row_bytes, rows = c->rows, slices = c->slices;
    if (rows > 1 && c->dst.row_pitch == row_bytes && c->src.row_pitch == row_bytes) {
        if (slices > 1 && c->dst.slice_pitch == row_bytes * rows && c->src.slice_pitch == row_bytes * rows) {
            row_bytes = total;
            slices = 1;
        } else {
            row_bytes *= rows;
        }
        rows = 1;
    }
    if (!backward) {
        struct copy_shape sh = {c, row_bytes, rows, slices};
        int rc = copy_all(st, &sh, total);
        if (!rc)
            swgpu_stat_add(SWGPU_STAT_BYTES_COPIED, total);
        return rc;
    }
    for (UINT64 i = 0; i < slices; i++) {
        UINT32 s = (UINT32)(slices - 1 - i);
        for (UINT64 j = 0; j < rows; j++) {
            UINT32 r = (UINT32)(rows - 1 - j);
            UINT64 d, sa;
            if (region_row(c->dst.addr, c->dst.row_pitch, c->dst.slice_pitch, r, s, &d))
                return fail(st, c->dst.addr, "copy destination region overflows its segment");
            if (region_row(c->src.addr, c->src.row_pitch, c->src.slice_pitch, r, s, &sa))
                return fail(st, c->src.addr, "copy source region overflows its segment");
            int rc = copy_backward(st, d, sa, row_bytes);
            if (rc)
                return rc;
        }
    }
    swgpu_stat_add(SWGPU_STAT_BYTES_COPIED, total);
    return 0;
}

static int exec_fill(struct exec_state *st, const struct swgpu_cmd_fill *c)
{
    UINT32 pb = c->pattern_bytes;
    if (pb != 1 && pb != 2 && pb != 4 && pb != 8 && pb != 16)
        return fail(st, 0, "fill pattern size not 1, 2, 4, 8 or 16");
    UINT64 total;
    if (box_bytes(c->row_bytes, c->rows, c->slices, &total))
        return fail(st, c->dst.addr, "fill box too large");
    if (total == 0)
        return 0;
    /* A page-sized template of the repeated pattern: 4096 is a multiple of every pattern
     * size, so row position p maps to template byte p % 4096. */
    BYTE tmpl[SWGPU_PAGE_SIZE];
    for (UINT32 i = 0; i < SWGPU_PAGE_SIZE; i += pb)
        memcpy(tmpl + i, c->pattern, pb);
    int uniform = 1;
    for (UINT32 i = 1; i < pb; i++)
        uniform &= c->pattern[i] == c->pattern[0];

    for (UINT32 s = 0; s < c->slices; s++) {
        for (UINT32 r = 0; r < c->rows; r++) {
            UINT64 row;
            if (region_row(c->dst.addr, c->dst.row_pitch, c->dst.slice_pitch, r, s, &row))
                return fail(st, c->dst.addr, "fill region overflows its segment");
            UINT64 done = 0;
            while (done < c->row_bytes) {
                UINT64 n = 0;
                BYTE *d = span(st, row + done, piece(c->row_bytes - done), 1, &n);
                if (!d)
                    return fail_rw(st, row + done, 1, "fill destination outside its segment or unmapped");
                if (uniform) {
                    memset(d, c->pattern[0], n);
                } else {
                    for (UINT64 k = 0; k < n;) {
                        UINT64 t = (done + k) % SWGPU_PAGE_SIZE;
                        UINT64 m = SWGPU_PAGE_SIZE - t;
                        if (m > n - k)
                            m = n - k;
                        memcpy(d + k, tmpl + t, m);
                        k += m;
                    }
                }
                done += n;
                if (checkpoint(st, n))
                    return SWGPU_EXEC_STOPPED_IN_COMMAND;
            }
        }
    }
    swgpu_stat_add(SWGPU_STAT_BYTES_FILLED, total);
    return 0;
}

static int exec_write(struct exec_state *st, const struct swgpu_cmd_write *c, const BYTE *payload,
                      UINT64 payload_bytes)
{
    UINT64 total;
    if (box_bytes(c->row_bytes, c->rows, c->slices, &total) || total > payload_bytes)
        return fail(st, 0, "write payload larger than the command");
    if (total == 0)
        return 0;
    const BYTE *src = payload;
    for (UINT32 s = 0; s < c->slices; s++) {
        for (UINT32 r = 0; r < c->rows; r++) {
            UINT64 row;
            if (region_row(c->dst.addr, c->dst.row_pitch, c->dst.slice_pitch, r, s, &row))
                return fail(st, c->dst.addr, "write region overflows its segment");
            UINT64 done = 0;
            while (done < c->row_bytes) {
                UINT64 n = 0;
                BYTE *d = span(st, row + done, piece(c->row_bytes - done), 1, &n);
                if (!d)
                    return fail_rw(st, row + done, 1, "write destination outside its segment or unmapped");
                memcpy(d, src + done, n);
                done += n;
                if (checkpoint(st, n))
                    return SWGPU_EXEC_STOPPED_IN_COMMAND;
            }
            src += c->row_bytes;
        }
    }
    swgpu_stat_add(SWGPU_STAT_BYTES_WRITTEN, total);
    return 0;
}

/* Writes 8 bytes little-endian at a command's address (piece by piece across pages). */
static int write8(struct exec_state *st, UINT64 addr, UINT64 value, const char *reason)
{
    BYTE v[8];
    memcpy(v, &value, sizeof v);
    UINT64 done = 0;
    while (done < sizeof v) {
        UINT64 n = 0;
        BYTE *d = span(st, addr + done, sizeof v - done, 1, &n);
        if (!d)
            return fail_rw(st, addr + done, 1, reason);
        memcpy(d, v + done, n);
        done += n;
    }
    return 0;
}

static int exec_fence(struct exec_state *st, const struct swgpu_cmd_fence *c)
{
    if (write8(st, c->addr, c->value, "fence address outside its segment or unmapped"))
        return -1;
    swgpu_raise_interrupt(st->gpu);
    return 0;
}

/* SWGPU_OP_TIMESTAMP: the engine's clock (swgpu_isa.h SWGPU_TIMESTAMP_FREQUENCY) when the
 * command executes, i.e. after every command before it in this buffer and every buffer before
 * it on the engine. */
static int exec_timestamp(struct exec_state *st, const struct swgpu_cmd_timestamp *c)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    UINT64 ticks = (UINT64)now.tv_sec * SWGPU_TIMESTAMP_FREQUENCY + (UINT64)now.tv_nsec;
    return write8(st, c->dst.addr, ticks, "timestamp address outside its segment or unmapped");
}

/* Reads a fixed-size command; the DMA buffer may be at any alignment. */
#define READ_CMD(var, ptr) memcpy(&(var), (ptr), sizeof(var))

/* One handler per opcode (the command's bytes at p, size_bytes of them, the header included):
 * each reads its fixed part (refusing a command too small for it), executes it, and says how
 * many bytes it moved (the bandwidth limit's measure). 0, a fault code, or
 * SWGPU_EXEC_STOPPED_IN_COMMAND. */
typedef int (*exec_handler)(struct exec_state *st, const BYTE *p, UINT32 size, UINT64 *moved);

/* The fixed part of a command into `var`, or a refusal naming it. */
#define CMD_FIXED(var, p, size, what)                                                                    \
    do {                                                                                                 \
        if ((size) < sizeof(var))                                                                        \
            return fail(st, 0, what " command too small");                                                \
        READ_CMD(var, p);                                                                                \
    } while (0)

static int op_nop(struct exec_state *st, const BYTE *p, UINT32 size, UINT64 *moved)
{
    (void)st, (void)p, (void)size, (void)moved;
    return 0;
}

static int op_copy(struct exec_state *st, const BYTE *p, UINT32 size, UINT64 *moved)
{
    struct swgpu_cmd_copy c;
    CMD_FIXED(c, p, size, "copy");
    int rc = exec_copy(st, &c);
    box_bytes(c.row_bytes, c.rows, c.slices, moved);
    return rc;
}

static int op_fill(struct exec_state *st, const BYTE *p, UINT32 size, UINT64 *moved)
{
    struct swgpu_cmd_fill c;
    CMD_FIXED(c, p, size, "fill");
    int rc = exec_fill(st, &c);
    box_bytes(c.row_bytes, c.rows, c.slices, moved);
    return rc;
}

static int op_write(struct exec_state *st, const BYTE *p, UINT32 size, UINT64 *moved)
{
    struct swgpu_cmd_write c;
    CMD_FIXED(c, p, size, "write");
    int rc = exec_write(st, &c, p + sizeof c, size - sizeof c);
    box_bytes(c.row_bytes, c.rows, c.slices, moved);
    return rc;
}

static int op_fence(struct exec_state *st, const BYTE *p, UINT32 size, UINT64 *moved)
{
    struct swgpu_cmd_fence c;
    (void)moved;
    CMD_FIXED(c, p, size, "fence");
    return exec_fence(st, &c);
}

static int op_timestamp(struct exec_state *st, const BYTE *p, UINT32 size, UINT64 *moved)
{
    struct swgpu_cmd_timestamp c;
    (void)moved;
    CMD_FIXED(c, p, size, "timestamp");
    return exec_timestamp(st, &c);
}

/* The loaded context's state registers (context_state.c, swgpu_isa.h "Context state"). */
static int op_set_reg(struct exec_state *st, const BYTE *p, UINT32 size, UINT64 *moved)
{
    struct swgpu_cmd_set_reg c;
    (void)moved;
    CMD_FIXED(c, p, size, "SET_REG");
    if (c.reg >= SWGPU_STATE_REGS)
        return fail(st, 0, "SET_REG register index out of range");
    st->engine->regs[c.reg] = c.value;
    return 0;
}

static int op_store_reg(struct exec_state *st, const BYTE *p, UINT32 size, UINT64 *moved)
{
    struct swgpu_cmd_store_reg c;
    (void)moved;
    CMD_FIXED(c, p, size, "STORE_REG");
    if (c.reg >= SWGPU_STATE_REGS)
        return fail(st, 0, "STORE_REG register index out of range");
    return write8(st, c.dst.addr, st->engine->regs[c.reg], "STORE_REG address outside its segment or unmapped");
}

static int op_gart_map(struct exec_state *st, const BYTE *p, UINT32 size, UINT64 *moved)
{
    struct swgpu_cmd_gart_map c;
    (void)moved;
    CMD_FIXED(c, p, size, "GART map");
    if ((UINT64)c.page_count * 8 > size - sizeof c)
        return fail(st, 0, "GART map page list larger than the command");
    if (swgpu_gart_map(st->gpu, c.first_page, c.page_count, p + sizeof c))
        return fail(st, SWGPU_SEGMENT_BASE(st->gpu->aperture_id) + (UINT64)c.first_page * SWGPU_PAGE_SIZE,
                    "GART map outside the aperture or of an unaligned page");
    return 0;
}

static int op_gart_unmap(struct exec_state *st, const BYTE *p, UINT32 size, UINT64 *moved)
{
    struct swgpu_cmd_gart_unmap c;
    (void)moved;
    CMD_FIXED(c, p, size, "GART unmap");
    if (swgpu_gart_unmap(st->gpu, c.first_page, c.page_count, c.dummy_page))
        return fail(st, SWGPU_SEGMENT_BASE(st->gpu->aperture_id) + (UINT64)c.first_page * SWGPU_PAGE_SIZE,
                    "GART unmap outside the aperture or to an unaligned dummy page");
    return 0;
}

static int op_flush_tlb(struct exec_state *st, const BYTE *p, UINT32 size, UINT64 *moved)
{
    struct swgpu_cmd_flush_tlb c;
    (void)moved;
    CMD_FIXED(c, p, size, "FLUSH_TLB");
    swgpu_mmu_flush(st->gpu, c.root);
    return 0;
}

static const exec_handler handlers[SWGPU_OP_COUNT] = {
    [SWGPU_OP_NOP] = op_nop,
    [SWGPU_OP_COPY] = op_copy,
    [SWGPU_OP_FILL] = op_fill,
    [SWGPU_OP_WRITE] = op_write,
    [SWGPU_OP_FENCE] = op_fence,
    [SWGPU_OP_TIMESTAMP] = op_timestamp,
    [SWGPU_OP_SET_REG] = op_set_reg,
    [SWGPU_OP_STORE_REG] = op_store_reg,
    [SWGPU_OP_GART_MAP] = op_gart_map,
    [SWGPU_OP_GART_UNMAP] = op_gart_unmap,
    [SWGPU_OP_FLUSH_TLB] = op_flush_tlb,
};

int swgpu_exec_buffer(struct swgpu_engine *engine, struct swgpu_exec_run *run, struct swgpu_fault *fault)
{
    const struct swgpu_ring_entry *entry = run->entry;
    struct exec_state st = {
        .gpu = engine->gpu, .engine = engine, .fault = fault, .mmu = engine,
        .root = entry->root, .root_entries = entry->root_entries,
    };
    fault->virtual_mode = entry->root != 0;
    fault->iommu = (entry->root & SWGPU_ROOT_IOMMU) != 0;
    if (!entry->root) { /* physical mode: the buffer is host memory (segment 0, architecture.md) */
        run->code = entry->dma ? entry->dma + entry->start : NULL;
        run->code_start = entry->start;
        run->code_end = entry->end;
        /* Fetched through the platform's IOMMU when the device is behind one (isolation): a
         * command past what it may reach faults as a fetch failure. */
        if (entry->dma && entry->end > entry->start) {
            UINT64 reach = swgpu_mem_iommu_reach(engine->gpu, (UINT64)(uintptr_t)run->code, entry->end - entry->start);
            if (reach < entry->end - entry->start) {
                run->code_end = entry->start + (UINT32)reach;
                struct swgpu_pf pf = { SWGPU_PF_NONE, 0, 0, 0, 0, "IOMMU: the DMA buffer is not mapped for the device" };
                run->fetch_fault = pf;
            }
        }
    }
    UINT32 off = run->from;
    /* Only the engine thread writes its progress counter: a plain load + store, no RMW. */
    UINT64 progress = atomic_load_explicit(&engine->progress, memory_order_relaxed);
    while (off < entry->end) {
        /* A command boundary: the only place a preemption or a reset stops the buffer
         * (docs/semantics.md §8.2 invariant 4; PRIMITIVE_BOUNDARY: a command is this GPU's
         * primitive). One relaxed load per command; the engine lock only when a bit is set. */
        if (atomic_load_explicit(&engine->stop_request, memory_order_relaxed) &&
            swgpu_engine_boundary(engine, run, off)) {
            run->stop_offset = off;
            return SWGPU_EXEC_STOPPED;
        }
        fault->command_offset = off;
        fault->opcode = SWGPU_OP_COUNT;
        /* VA mode: a command reaching past what the fetch could translate faults with the
         * fetch's page fault (the commands before it ran, as the engine fetches in order). */
        UINT32 left = off < run->code_end ? run->code_end - off : 0; /* a resumed run may start past it */
        struct swgpu_cmd_header h;
        if (left < sizeof h) {
            if (run->code_end < entry->end)
                return page_fault(&st, &run->fetch_fault);
            return fail(&st, 0, "truncated command header");
        }
        const BYTE *p = run->code + (off - run->code_start);
        READ_CMD(h, p);
        if (h.size_bytes < sizeof h || (h.size_bytes % 8) != 0 || h.size_bytes > entry->end - off)
            return fail(&st, 0, "command size not a multiple of 8 inside the buffer");
        fault->opcode = h.opcode;
        if (h.size_bytes > left)
            return page_fault(&st, &run->fetch_fault);
        /* Paging-only commands change what every address space sees (the GART, the TLBs):
         * a process's own buffer may not issue them (issue 6; paging buffers run in physical
         * mode, common.md). WDDM 1.x buffers keep their old freedom. */
        if (st.root && !entry->paging &&
            (h.opcode == SWGPU_OP_GART_MAP || h.opcode == SWGPU_OP_GART_UNMAP || h.opcode == SWGPU_OP_FLUSH_TLB)) {
            struct swgpu_pf pf = {SWGPU_PF_PRIVILEGED, 0, 0, 0, 0, "paging-only command in a process's DMA buffer"};
            return page_fault(&st, &pf);
        }

        /* The clock is read only while a bandwidth limit is set (the common case pays nothing). */
        st.budget = 0;
        st.moved = 0;
        st.throttled = swgpu_control_throttling();
        if (st.throttled)
            clock_gettime(CLOCK_MONOTONIC, &st.start);
        UINT64 moved = 0;
        exec_handler run_op = h.opcode < SWGPU_OP_COUNT ? handlers[h.opcode] : NULL;
        if (!run_op)
            return fail(&st, 0, "unknown opcode");
        int rc = run_op(&st, p, h.size_bytes, &moved);
        if (rc == SWGPU_EXEC_STOPPED_IN_COMMAND) {
            /* A reset stopped the command in the middle (checkpoint): the buffer is abandoned
             * here; run_entry finishes the reset. Not a completed command: no progress. */
            run->stop_offset = off;
            run->stop_reason = SWGPU_STOP_RESET;
            return SWGPU_EXEC_STOPPED;
        }
        if (rc)
            return rc;
        swgpu_stat_add(SWGPU_STAT_COMMANDS, 1);
        run->commands_done++;
        atomic_store_explicit(&engine->progress, ++progress, memory_order_relaxed);
        off += h.size_bytes;
        /* The rest of the bandwidth limit's time, interrupted by a reset like the command. */
        if (moved && st.throttled && swgpu_control_throttle(moved, &st.start, &engine->stop_request)) {
            run->stop_offset = off;
            run->stop_reason = SWGPU_STOP_RESET;
            return SWGPU_EXEC_STOPPED;
        }
    }
    return 0;
}
