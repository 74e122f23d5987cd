/* The command processor: executes one DMA buffer (src/gpu/swgpu_isa.h). Every address goes
 * through swgpu_mem_span (memory.c), so a bad command or address is a recorded fault that
 * ends the buffer, never a host crash. Data moves with memmove/memcpy/memset in the largest
 * host-contiguous runs (whole rows in memory segments, page pieces in the aperture).
 * Between two commands it asks the engine whether a preemption or a reset stops it there
 * (swgpu_engine_boundary, preempt.c). */
#include "gpu/gpu_internal.h"

#include <string.h>

struct exec_state {
    struct swgpu *gpu;
    struct swgpu_fault *fault;
};

static int fail(struct exec_state *st, UINT64 address, const char *reason)
{
    st->fault->address = address;
    st->fault->reason = reason;
    return -1;
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
        BYTE *s = swgpu_mem_span(st->gpu, src + done, len - done, &a);
        if (!s)
            return fail(st, src + done, "copy source outside its segment or unmapped");
        BYTE *d = swgpu_mem_span(st->gpu, dst + done, len - done, &b);
        if (!d)
            return fail(st, dst + done, "copy destination outside its segment or unmapped");
        UINT64 n = a < b ? a : b;
        memmove(d, s, n);
        done += n;
    }
    return 0;
}

/* Copies from the end so that an overlapping destination above the source reads every byte
 * before overwriting it (memmove semantics across aperture pages). */
static int copy_backward(struct exec_state *st, UINT64 dst, UINT64 src, UINT64 len)
{
    UINT64 rem = len;
    while (rem) {
        UINT64 n = swgpu_mem_back_span(st->gpu, src + rem, rem);
        UINT64 m = swgpu_mem_back_span(st->gpu, dst + rem, rem);
        if (m < n)
            n = m;
        UINT64 a = 0, b = 0;
        BYTE *s = swgpu_mem_span(st->gpu, src + rem - n, n, &a);
        if (!s || a != n)
            return fail(st, src + rem - n, "copy source outside its segment or unmapped");
        BYTE *d = swgpu_mem_span(st->gpu, dst + rem - n, n, &b);
        if (!d || b != n)
            return fail(st, dst + rem - n, "copy destination outside its segment or unmapped");
        memmove(d, s, n);
        rem -= n;
    }
    return 0;
}

static int exec_copy(struct exec_state *st, const struct swgpu_cmd_copy *c)
{
    UINT64 total;
    if (box_bytes(c->row_bytes, c->rows, c->slices, &total))
        return fail(st, c->dst.addr, "copy box too large");
    if (total == 0)
        return 0;
    /* memmove semantics for the whole box: when the destination starts above the source in
     * the same segment, rows overlapping later source rows must be written last. */
    int backward = (c->dst.addr >> SWGPU_ADDR_SEGMENT_SHIFT) == (c->src.addr >> SWGPU_ADDR_SEGMENT_SHIFT) &&
                   c->dst.addr > c->src.addr;
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
    for (UINT64 i = 0; i < slices; i++) {
        UINT32 s = (UINT32)(backward ? slices - 1 - i : i);
        for (UINT64 j = 0; j < rows; j++) {
            UINT32 r = (UINT32)(backward ? rows - 1 - j : j);
            UINT64 d, sa;
            if (region_row(c->dst.addr, c->dst.row_pitch, c->dst.slice_pitch, r, s, &d))
                return fail(st, c->dst.addr, "copy destination region overflows its segment");
            if (region_row(c->src.addr, c->src.row_pitch, c->src.slice_pitch, r, s, &sa))
                return fail(st, c->src.addr, "copy source region overflows its segment");
            int rc = backward ? copy_backward(st, d, sa, row_bytes) : copy_forward(st, d, sa, row_bytes);
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
                BYTE *d = swgpu_mem_span(st->gpu, row + done, c->row_bytes - done, &n);
                if (!d)
                    return fail(st, row + done, "fill destination outside its segment or unmapped");
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
                BYTE *d = swgpu_mem_span(st->gpu, row + done, c->row_bytes - done, &n);
                if (!d)
                    return fail(st, row + done, "write destination outside its segment or unmapped");
                memcpy(d, src + done, n);
                done += n;
            }
            src += c->row_bytes;
        }
    }
    swgpu_stat_add(SWGPU_STAT_BYTES_WRITTEN, total);
    return 0;
}

static int exec_fence(struct exec_state *st, const struct swgpu_cmd_fence *c)
{
    BYTE v[8];
    memcpy(v, &c->value, sizeof v);
    UINT64 done = 0;
    while (done < sizeof v) {
        UINT64 n = 0;
        BYTE *d = swgpu_mem_span(st->gpu, c->addr + done, sizeof v - done, &n);
        if (!d)
            return fail(st, c->addr + done, "fence address outside its segment or unmapped");
        memcpy(d, v + done, n);
        done += n;
    }
    swgpu_raise_interrupt(st->gpu);
    return 0;
}

/* Reads a fixed-size command; the DMA buffer may be at any alignment. */
#define READ_CMD(var, ptr) memcpy(&(var), (ptr), sizeof(var))

int swgpu_exec_buffer(struct swgpu_engine *engine, struct swgpu_exec_run *run, struct swgpu_fault *fault)
{
    struct exec_state st = {engine->gpu, fault};
    const struct swgpu_ring_entry *entry = run->entry;
    UINT32 off = run->from;
    /* Only the engine thread writes its progress counter: a plain load + store, no RMW. */
    UINT64 progress = atomic_load_explicit(&engine->progress, memory_order_relaxed);
    while (off < entry->end) {
        /* A command boundary: the only place a preemption or a reset stops the buffer
         * (wddm-semantics §8.2 invariant 4; PRIMITIVE_BOUNDARY: a command is this GPU's
         * primitive). One relaxed load per command; the engine lock only when a bit is set. */
        if (atomic_load_explicit(&engine->stop_request, memory_order_relaxed) &&
            swgpu_engine_boundary(engine, run, off)) {
            run->stop_offset = off;
            return SWGPU_EXEC_STOPPED;
        }
        fault->command_offset = off;
        fault->opcode = SWGPU_OP_COUNT;
        UINT32 left = entry->end - off;
        const BYTE *p = entry->dma + off;
        struct swgpu_cmd_header h;
        if (left < sizeof h)
            return fail(&st, 0, "truncated command header");
        READ_CMD(h, p);
        if (h.size_bytes < sizeof h || (h.size_bytes % 8) != 0 || h.size_bytes > left)
            return fail(&st, 0, "command size not a multiple of 8 inside the buffer");
        fault->opcode = h.opcode;

        /* The clock is read only while a bandwidth limit is set (the common case pays nothing). */
        struct timespec start = {0, 0};
        int throttled = swgpu_control_throttling();
        if (throttled)
            clock_gettime(CLOCK_MONOTONIC, &start);
        int rc = 0;
        UINT64 moved = 0;
        switch (h.opcode) {
        case SWGPU_OP_NOP:
            break;
        case SWGPU_OP_COPY: {
            struct swgpu_cmd_copy c;
            if (h.size_bytes < sizeof c)
                return fail(&st, 0, "copy command too small");
            READ_CMD(c, p);
            rc = exec_copy(&st, &c);
            box_bytes(c.row_bytes, c.rows, c.slices, &moved);
            break;
        }
        case SWGPU_OP_FILL: {
            struct swgpu_cmd_fill c;
            if (h.size_bytes < sizeof c)
                return fail(&st, 0, "fill command too small");
            READ_CMD(c, p);
            rc = exec_fill(&st, &c);
            box_bytes(c.row_bytes, c.rows, c.slices, &moved);
            break;
        }
        case SWGPU_OP_WRITE: {
            struct swgpu_cmd_write c;
            if (h.size_bytes < sizeof c)
                return fail(&st, 0, "write command too small");
            READ_CMD(c, p);
            rc = exec_write(&st, &c, p + sizeof c, h.size_bytes - sizeof c);
            box_bytes(c.row_bytes, c.rows, c.slices, &moved);
            break;
        }
        case SWGPU_OP_FENCE: {
            struct swgpu_cmd_fence c;
            if (h.size_bytes < sizeof c)
                return fail(&st, 0, "fence command too small");
            READ_CMD(c, p);
            rc = exec_fence(&st, &c);
            break;
        }
        case SWGPU_OP_GART_MAP: {
            struct swgpu_cmd_gart_map c;
            if (h.size_bytes < sizeof c)
                return fail(&st, 0, "GART map command too small");
            READ_CMD(c, p);
            if ((UINT64)c.page_count * 8 > h.size_bytes - sizeof c)
                return fail(&st, 0, "GART map page list larger than the command");
            if (swgpu_gart_map(engine->gpu, c.first_page, c.page_count, p + sizeof c))
                return fail(&st, SWGPU_SEGMENT_BASE(engine->gpu->aperture_id) + (UINT64)c.first_page * SWGPU_PAGE_SIZE,
                            "GART map outside the aperture or of an unaligned page");
            break;
        }
        case SWGPU_OP_GART_UNMAP: {
            struct swgpu_cmd_gart_unmap c;
            if (h.size_bytes < sizeof c)
                return fail(&st, 0, "GART unmap command too small");
            READ_CMD(c, p);
            if (swgpu_gart_unmap(engine->gpu, c.first_page, c.page_count, c.dummy_page))
                return fail(&st, SWGPU_SEGMENT_BASE(engine->gpu->aperture_id) + (UINT64)c.first_page * SWGPU_PAGE_SIZE,
                            "GART unmap outside the aperture or to an unaligned dummy page");
            break;
        }
        default:
            return fail(&st, 0, "unknown opcode");
        }
        if (rc)
            return rc;
        swgpu_stat_add(SWGPU_STAT_COMMANDS, 1);
        run->commands_done++;
        atomic_store_explicit(&engine->progress, ++progress, memory_order_relaxed);
        if (moved && throttled)
            swgpu_control_throttle(moved, &start);
        off += h.size_bytes;
    }
    return 0;
}
