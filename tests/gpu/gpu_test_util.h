/* Helpers for the software GPU tests: a GPU with the reference layout and a DMA buffer
 * builder. Tests drive the hardware interface (src/gpu/swgpu_hw.h) as the KMD does. */
#ifndef GPU_TEST_UTIL_H
#define GPU_TEST_UTIL_H

#include "gpu/swgpu_hw.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define T_SEG_LOCAL 1u
#define T_SEG_VISIBLE 2u
#define T_SEG_APERTURE 3u

static atomic_uint t_interrupts;

static void t_interrupt(void *ctx)
{
    (void)ctx;
    atomic_fetch_add(&t_interrupts, 1);
}

static inline struct swgpu *t_gpu_create(void)
{
    struct swgpu_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.segment_count = 3;
    cfg.segments[0].size = 16u << 20;
    cfg.segments[0].kind = SWGPU_SEGMENT_MEMORY;
    cfg.segments[1].size = 4u << 20;
    cfg.segments[1].kind = SWGPU_SEGMENT_MEMORY;
    cfg.segments[2].size = 8u << 20;
    cfg.segments[2].kind = SWGPU_SEGMENT_APERTURE;
    cfg.engine_count = 2;
    cfg.interrupt = t_interrupt;
    return swgpu_create(&cfg);
}

static inline UINT64 t_addr(UINT32 seg, UINT64 off)
{
    return SWGPU_SEGMENT_BASE(seg) + off;
}

struct t_dma {
    BYTE *buf;
    UINT32 len, cap;
};

static inline void t_dma_init(struct t_dma *d, UINT32 cap)
{
    d->buf = aligned_alloc(4096, cap);
    memset(d->buf, 0, cap);
    d->len = 0;
    d->cap = cap;
}

static inline void *t_dma_put(struct t_dma *d, const void *cmd, UINT32 bytes)
{
    void *p = d->buf + d->len;
    memcpy(p, cmd, bytes);
    d->len += bytes;
    return p;
}

static inline void t_copy(struct t_dma *d, UINT64 dst, UINT32 dpitch, UINT32 dslice, UINT64 src, UINT32 spitch,
                          UINT32 sslice, UINT32 row_bytes, UINT32 rows, UINT32 slices)
{
    struct swgpu_cmd_copy c = {{SWGPU_OP_COPY, sizeof c}, {dst, dpitch, dslice}, {src, spitch, sslice},
                               row_bytes, rows, slices, 0};
    t_dma_put(d, &c, sizeof c);
}

static inline void t_fill(struct t_dma *d, UINT64 dst, UINT32 pitch, UINT32 slice, UINT32 row_bytes, UINT32 rows,
                          UINT32 slices, const void *pattern, UINT32 pattern_bytes)
{
    struct swgpu_cmd_fill c = swgpu_cmd_fill_bytes(row_bytes, pattern, pattern_bytes);
    c.dst.addr = dst;
    c.dst.row_pitch = pitch;
    c.dst.slice_pitch = slice;
    c.rows = rows;
    c.slices = slices;
    t_dma_put(d, &c, sizeof c);
}

static inline void t_write(struct t_dma *d, UINT64 dst, UINT32 pitch, UINT32 slice, UINT32 row_bytes, UINT32 rows,
                           UINT32 slices, const void *data)
{
    UINT32 n = row_bytes * rows * slices;
    struct swgpu_cmd_write c;
    memset(&c, 0, sizeof c);
    c.hdr.opcode = SWGPU_OP_WRITE;
    c.hdr.size_bytes = (UINT32)sizeof c + swgpu_align8(n);
    c.dst.addr = dst;
    c.dst.row_pitch = pitch;
    c.dst.slice_pitch = slice;
    c.row_bytes = row_bytes;
    c.rows = rows;
    c.slices = slices;
    t_dma_put(d, &c, sizeof c);
    memset(d->buf + d->len, 0, swgpu_align8(n));
    memcpy(d->buf + d->len, data, n);
    d->len += swgpu_align8(n);
}

static inline void t_gart_map(struct t_dma *d, UINT32 first_page, UINT32 count, const UINT64 *pages)
{
    struct swgpu_cmd_gart_map c = {{SWGPU_OP_GART_MAP, (UINT32)sizeof c + 8 * count}, first_page, count};
    t_dma_put(d, &c, sizeof c);
    t_dma_put(d, pages, 8 * count);
}

static inline void t_gart_unmap(struct t_dma *d, UINT32 first_page, UINT32 count, UINT64 dummy)
{
    struct swgpu_cmd_gart_unmap c = {{SWGPU_OP_GART_UNMAP, sizeof c}, first_page, count, dummy};
    t_dma_put(d, &c, sizeof c);
}

/* Submits the buffer on `engine` with `fence` and waits for it. */
static inline void t_run(struct swgpu *gpu, UINT32 engine, struct t_dma *d, UINT32 fence)
{
    swgpu_submit(gpu, engine, d->buf, 0, d->len, fence, 0);
    swgpu_wait_fence(gpu, engine, fence);
}

#endif
