/* DxgkDdiRender and DxgkDdiPatch (docs/semantics.md §8.1 steps 2 and 4, WDDM 1.x patching).
 *
 * Render turns the UMD's command buffer into a DMA buffer. The KMD is the last line of
 * defence before the hardware: it validates every command (known user opcode, sane size,
 * regions inside their allocations) and every patch-location entry, so that the GPU never
 * touches memory outside an allocation the UMD named. In particular every address field must
 * be covered by exactly one patch entry: an unpatched field would let a user buffer hand the
 * GPU a raw (system, i.e. host) address.
 *
 * Address convention (src/gpu/swgpu_isa.h, src/umd/cmdbuf.c): PatchOffset is the byte offset
 * of a 64-bit address field, AllocationOffset the offset inside the allocation; Patch stores
 * PhysicalAddress + AllocationOffset in the field. */
#include "kmd/kmd.h"
#include "common/alloc.h"

#include "common/debug.h"

#include <stdlib.h>
#include <string.h>

/* Address fields and regions of one user command. */
struct cmd_desc {
    UINT32 offset, size, opcode;
    UINT32 naddr;
    UINT32 addr_field[2];                 /* byte offset of each address field in the command */
    UINT32 row_pitch[2], slice_pitch[2];
    UINT32 row_bytes, rows, slices;
    UINT32 patch_first, patch_count;      /* range in the sorted patch order */
};

struct render_check {
    const DXGKARG_RENDER *args;
    UINT32 *sorted;                       /* patch indices sorted by PatchOffset; NULL when the
                                           * list is already in order (the usual case) */
};

static UINT32 patch_at(const struct render_check *rc, UINT32 k)
{
    return rc->sorted ? rc->sorted[k] : k;
}

static int cmp_patch(const void *a, const void *b, void *ctx)
{
    const D3DDDI_PATCHLOCATIONLIST *list = ctx;
    UINT32 pa = list[*(const UINT32 *)a].PatchOffset;
    UINT32 pb = list[*(const UINT32 *)b].PatchOffset;
    return (pa > pb) - (pa < pb);
}

/* Orders the patch list by PatchOffset. UMDs emit it in order (then nothing is allocated);
 * otherwise a sorted index is built. -1 when out of memory. */
static int sort_patches(struct render_check *rc)
{
    const D3DDDI_PATCHLOCATIONLIST *list = rc->args->pPatchLocationListIn;
    UINT32 n = rc->args->PatchLocationListInSize;
    rc->sorted = NULL;
    for (UINT32 i = 1; i < n; i++) {
        if (list[i].PatchOffset < list[i - 1].PatchOffset) {
            rc->sorted = wddm_malloc(sizeof(*rc->sorted) * n);
            if (!rc->sorted)
                return -1;
            for (UINT32 j = 0; j < n; j++)
                rc->sorted[j] = j;
            qsort_r(rc->sorted, n, sizeof(*rc->sorted), cmp_patch, (void *)list);
            return 0;
        }
    }
    return 0;
}

static NTSTATUS refuse(const char *what, UINT32 offset)
{
    wddm_debug("kmd", "Render: %s (command buffer offset %u)", what, offset);
    return STATUS_INVALID_PARAMETER;
}

/* A command that writes 8 bytes at one patched address (TIMESTAMP, STORE_REG). */
static void eight_bytes_at(struct cmd_desc *d, size_t addr_field, const struct swgpu_region *dst)
{
    d->naddr = 1;
    d->addr_field[0] = (UINT32)addr_field;
    d->row_pitch[0] = dst->row_pitch;
    d->slice_pitch[0] = dst->slice_pitch;
    d->row_bytes = 8;
    d->rows = 1;
    d->slices = 1;
}

/* Parses one command header and payload shape; fills d (not yet the patches). */
static NTSTATUS parse_command(const BYTE *buf, UINT32 off, UINT32 left, struct cmd_desc *d)
{
    struct swgpu_cmd_header h;
    if (left < sizeof h)
        return refuse("truncated command header", off);
    memcpy(&h, buf + off, sizeof h);
    if (h.size_bytes < sizeof h || (h.size_bytes % 8) != 0 || h.size_bytes > left)
        return refuse("command size_bytes not a multiple of 8 inside the buffer", off);
    if (h.size_bytes > SWKMD_DMA_BUFFER_SIZE)
        return refuse("command larger than a DMA buffer", off);
    memset(d, 0, sizeof(*d));
    d->offset = off;
    d->size = h.size_bytes;
    d->opcode = h.opcode;
    switch (h.opcode) {
    case SWGPU_OP_NOP:
        return STATUS_SUCCESS;
    case SWGPU_OP_COPY: {
        struct swgpu_cmd_copy c;
        if (h.size_bytes != sizeof c)
            return refuse("COPY size_bytes is not sizeof(struct swgpu_cmd_copy)", off);
        memcpy(&c, buf + off, sizeof c);
        d->naddr = 2;
        d->addr_field[0] = offsetof(struct swgpu_cmd_copy, dst.addr);
        d->row_pitch[0] = c.dst.row_pitch;
        d->slice_pitch[0] = c.dst.slice_pitch;
        d->addr_field[1] = offsetof(struct swgpu_cmd_copy, src.addr);
        d->row_pitch[1] = c.src.row_pitch;
        d->slice_pitch[1] = c.src.slice_pitch;
        d->row_bytes = c.row_bytes;
        d->rows = c.rows;
        d->slices = c.slices;
        return STATUS_SUCCESS;
    }
    case SWGPU_OP_FILL: {
        struct swgpu_cmd_fill c;
        if (h.size_bytes != sizeof c)
            return refuse("FILL size_bytes is not sizeof(struct swgpu_cmd_fill)", off);
        memcpy(&c, buf + off, sizeof c);
        if (c.pattern_bytes != 1 && c.pattern_bytes != 2 && c.pattern_bytes != 4 && c.pattern_bytes != 8 &&
            c.pattern_bytes != 16)
            return refuse("FILL pattern_bytes not 1, 2, 4, 8 or 16", off);
        d->naddr = 1;
        d->addr_field[0] = offsetof(struct swgpu_cmd_fill, dst.addr);
        d->row_pitch[0] = c.dst.row_pitch;
        d->slice_pitch[0] = c.dst.slice_pitch;
        d->row_bytes = c.row_bytes;
        d->rows = c.rows;
        d->slices = c.slices;
        return STATUS_SUCCESS;
    }
    case SWGPU_OP_WRITE: {
        struct swgpu_cmd_write c;
        if (h.size_bytes < sizeof c)
            return refuse("WRITE command too small", off);
        memcpy(&c, buf + off, sizeof c);
        UINT64 payload;
        if (__builtin_mul_overflow((UINT64)c.row_bytes * c.rows, (UINT64)c.slices, &payload) ||
            payload > SWKMD_DMA_BUFFER_SIZE || sizeof c + ((payload + 7) & ~7ull) != h.size_bytes)
            return refuse("WRITE size_bytes is not sizeof + align8(row_bytes*rows*slices)", off);
        d->naddr = 1;
        d->addr_field[0] = offsetof(struct swgpu_cmd_write, dst.addr);
        d->row_pitch[0] = c.dst.row_pitch;
        d->slice_pitch[0] = c.dst.slice_pitch;
        d->row_bytes = c.row_bytes;
        d->rows = c.rows;
        d->slices = c.slices;
        return STATUS_SUCCESS;
    }
    case SWGPU_OP_TIMESTAMP: {
        /* Timestamp queries (D3D11_QUERY_TIMESTAMP): 8 bytes written at one patched address. */
        struct swgpu_cmd_timestamp c;
        if (h.size_bytes != sizeof c)
            return refuse("TIMESTAMP size_bytes is not sizeof(struct swgpu_cmd_timestamp)", off);
        memcpy(&c, buf + off, sizeof c);
        eight_bytes_at(d, offsetof(struct swgpu_cmd_timestamp, dst.addr), &c.dst);
        return STATUS_SUCCESS;
    }
    case SWGPU_OP_SET_REG: {
        /* The context's state registers (swgpu_isa.h "Context state"): no address. */
        struct swgpu_cmd_set_reg c;
        if (h.size_bytes != sizeof c)
            return refuse("SET_REG size_bytes is not sizeof(struct swgpu_cmd_set_reg)", off);
        memcpy(&c, buf + off, sizeof c);
        return c.reg < SWGPU_STATE_REGS ? STATUS_SUCCESS : refuse("SET_REG register index >= SWGPU_STATE_REGS", off);
    }
    case SWGPU_OP_STORE_REG: {
        struct swgpu_cmd_store_reg c;
        if (h.size_bytes != sizeof c)
            return refuse("STORE_REG size_bytes is not sizeof(struct swgpu_cmd_store_reg)", off);
        memcpy(&c, buf + off, sizeof c);
        if (c.reg >= SWGPU_STATE_REGS)
            return refuse("STORE_REG register index >= SWGPU_STATE_REGS", off);
        eight_bytes_at(d, offsetof(struct swgpu_cmd_store_reg, dst.addr), &c.dst);
        return STATUS_SUCCESS;
    }
    case SWGPU_OP_FENCE:
    case SWGPU_OP_GART_MAP:
    case SWGPU_OP_GART_UNMAP:
        /* Fences and GART updates are the KMD's and the paging engine's only. */
        return refuse("FENCE/GART opcode in a user command buffer", off);
    default:
        return refuse("unknown opcode", off);
    }
}

/* Bytes a pitched region spans: (slices-1)*slice_pitch + (rows-1)*row_pitch + row_bytes.
 * Pitches must keep rows and slices from overlapping (row_pitch >= row_bytes, slice_pitch >=
 * one slice's span) so that the GPU's work is bounded by the allocation's size. */
static int region_extent(UINT32 row_bytes, UINT32 rows, UINT32 slices, UINT32 row_pitch, UINT32 slice_pitch,
                         UINT64 *out)
{
    if (row_bytes == 0 || rows == 0 || slices == 0) {
        *out = 0;
        return 0;
    }
    if (rows > 1 && row_pitch < row_bytes)
        return -1;
    UINT64 slice_span = (UINT64)(rows - 1) * row_pitch + row_bytes;
    if (slices > 1 && slice_pitch < slice_span)
        return -1;
    UINT64 ext;
    if (__builtin_add_overflow((UINT64)(slices - 1) * slice_pitch, slice_span, &ext))
        return -1;
    *out = ext;
    return 0;
}

/* Checks the patch entries inside command d (from sorted position *k on, advanced past them):
 * each on an address field, one per field, naming a KMD allocation the region fits in. */
static NTSTATUS check_command(const struct render_check *rc, struct cmd_desc *d, UINT32 *k)
{
    const DXGKARG_RENDER *a = rc->args;
    const D3DDDI_PATCHLOCATIONLIST *pl = a->pPatchLocationListIn;
    UINT32 np = a->PatchLocationListInSize;
    int covered[2] = {-1, -1};
    d->patch_first = *k;
    while (*k < np && pl[patch_at(rc, *k)].PatchOffset < d->offset + d->size) {
        const D3DDDI_PATCHLOCATIONLIST *p = &pl[patch_at(rc, *k)];
        UINT32 rel = p->PatchOffset - d->offset;
        int hit = -1;
        for (UINT32 f = 0; f < d->naddr; f++)
            if (rel == d->addr_field[f])
                hit = (int)f;
        if (hit < 0)
            return refuse("patch location not on an address field of a command", p->PatchOffset);
        if (covered[hit] >= 0)
            return refuse("two patch locations for one address field", p->PatchOffset);
        if (p->AllocationIndex >= a->AllocationListSize || !a->pAllocationList)
            return refuse("patch AllocationIndex outside the allocation list", p->PatchOffset);
        covered[hit] = (int)patch_at(rc, *k);
        (*k)++;
    }
    d->patch_count = *k - d->patch_first;
    for (UINT32 f = 0; f < d->naddr; f++) {
        if (covered[f] < 0)
            return refuse("address field without a patch location", d->offset + d->addr_field[f]);
        const D3DDDI_PATCHLOCATIONLIST *p = &pl[covered[f]];
        struct swkmd_allocation *al =
            swkmd_allocation_from(a->pAllocationList[p->AllocationIndex].hDeviceSpecificAllocation);
        if (!al)
            return refuse("allocation list entry is not a KMD allocation", p->PatchOffset);
        UINT64 ext;
        if (region_extent(d->row_bytes, d->rows, d->slices, d->row_pitch[f], d->slice_pitch[f], &ext))
            return refuse("region pitches overlap rows or slices", d->offset);
        if ((UINT64)p->AllocationOffset > al->size || ext > al->size - p->AllocationOffset) {
            wddm_debug("kmd", "Render: region [%u, +%llu) outside its %llu-byte allocation (offset %u)",
                       p->AllocationOffset, (unsigned long long)ext, (unsigned long long)al->size, d->offset);
            return STATUS_INVALID_PARAMETER;
        }
    }
    return STATUS_SUCCESS;
}

/* Validates the whole command buffer (stateless: every pass re-checks it, cheap next to the
 * copy) and finds the sorted patch position of the command at MultipassOffset. */
static NTSTATUS validate(const struct render_check *rc, UINT32 *resume_k)
{
    const DXGKARG_RENDER *a = rc->args;
    const BYTE *buf = a->pCommand;
    UINT32 len = a->CommandLength;
    UINT32 k = 0;
    int resume_found = a->MultipassOffset == 0;
    *resume_k = 0;
    for (UINT32 off = 0; off < len;) {
        struct cmd_desc d;
        NTSTATUS st = parse_command(buf, off, len - off, &d);
        if (!NT_SUCCESS(st))
            return st;
        if (off == a->MultipassOffset) {
            resume_found = 1;
            *resume_k = k;
        }
        st = check_command(rc, &d, &k);
        if (!NT_SUCCESS(st))
            return st;
        off += d.size;
    }
    if (k < a->PatchLocationListInSize)
        return refuse("patch location beyond the last command", a->pPatchLocationListIn[patch_at(rc, k)].PatchOffset);
    if (!resume_found)
        return refuse("MultipassOffset is not a command boundary", a->MultipassOffset);
    return STATUS_SUCCESS;
}

/* Where this pass's DMA bytes start relative to the DMA buffer, which Patch offsets are
 * relative to: system-memory DMA buffers give their host address, so a pDmaBuffer already
 * advanced by earlier passes is accounted for. */
static UINT32 dma_write_offset(const DXGKARG_RENDER *a)
{
    uintptr_t base = (uintptr_t)a->DmaBufferPhysicalAddress.QuadPart;
    uintptr_t cur = (uintptr_t)a->pDmaBuffer;
    if (a->DmaBufferSegmentId == 0 && base && base <= cur && cur - base <= 16u * SWKMD_DMA_BUFFER_SIZE)
        return (UINT32)(cur - base);
    return 0;
}

NTSTATUS APIENTRY SwKmdRender(const HANDLE hContext, DXGKARG_RENDER *a)
{
    if (!swkmd_context_from(hContext) || !a) {
        wddm_debug("kmd", "Render: bad context or NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    if ((a->CommandLength && !a->pCommand) || (a->PatchLocationListInSize && !a->pPatchLocationListIn) ||
        (a->PatchLocationListInSize && !a->pPatchLocationListOut) || !a->pDmaBuffer)
        return refuse("NULL command buffer, patch list or DMA buffer", 0);
    if (a->MultipassOffset > a->CommandLength)
        return refuse("MultipassOffset is not a command boundary", a->MultipassOffset);

    struct render_check rc = {a, NULL};
    if (sort_patches(&rc))
        return STATUS_NO_MEMORY;
    UINT32 k = 0;
    NTSTATUS st = validate(&rc, &k);
    if (!NT_SUCCESS(st)) {
        free(rc.sorted);
        return st;
    }

    /* Copy from the command at MultipassOffset on, whole commands only, while both the DMA
     * buffer and the output patch list have room. */
    const BYTE *buf = a->pCommand;
    UINT32 len = a->CommandLength;
    UINT32 base = dma_write_offset(a);
    UINT32 pass_start = a->MultipassOffset;
    BYTE *dma = a->pDmaBuffer;
    UINT32 written = 0, npatch = 0;
    UINT32 off = pass_start;
    while (off < len) {
        struct swgpu_cmd_header h;
        memcpy(&h, buf + off, sizeof h); /* validated above */
        UINT32 kend = k;
        while (kend < a->PatchLocationListInSize &&
               a->pPatchLocationListIn[patch_at(&rc, kend)].PatchOffset < off + h.size_bytes)
            kend++;
        if (h.size_bytes > a->DmaSize - written || kend - k > a->PatchLocationListOutSize - npatch)
            break;
        memcpy(dma + written, buf + off, h.size_bytes);
        for (; k < kend; k++) {
            D3DDDI_PATCHLOCATIONLIST p = a->pPatchLocationListIn[patch_at(&rc, k)];
            p.PatchOffset = base + (p.PatchOffset - pass_start);
            /* VidMm may split the DMA buffer before this command (docs/semantics.md §9.1): the
             * commands before it do not need this allocation. */
            p.SplitOffset = base + (off - pass_start);
            a->pPatchLocationListOut[npatch++] = p;
        }
        written += h.size_bytes;
        off += h.size_bytes;
    }
    free(rc.sorted);
    a->pDmaBuffer = dma + written;
    a->DmaSize -= written;
    a->pPatchLocationListOut += npatch;
    a->PatchLocationListOutSize -= npatch;
    if (off < len) {
        /* The DMA buffer (or the output patch list) is full: the kernel submits what was
         * written and calls again with a fresh buffer and this MultipassOffset (a command
         * boundary). Commands are at most one DMA buffer, so a fresh buffer makes progress. */
        a->MultipassOffset = off;
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    }
    a->MultipassOffset = 0;
    return STATUS_SUCCESS;
}

/* An address the GPU refuses (segment id past every segment): what a non-resident
 * allocation's field gets, so a kernel bug becomes a GPU fault instead of a host write. */
#define SWKMD_POISON_ADDRESS SWGPU_SEGMENT_BASE(0xFF)

NTSTATUS APIENTRY SwKmdPatch(const HANDLE hAdapter, const DXGKARG_PATCH *a)
{
    if (!swkmd_adapter_from(hAdapter) || !a) {
        wddm_debug("kmd", "Patch: bad adapter or NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    if (a->PatchLocationListSubmissionLength == 0)
        return STATUS_SUCCESS; /* paging buffers come without a patch list (docs/semantics.md §2.4) */
    if (!a->pDmaBuffer || !a->pPatchLocationList) {
        wddm_debug("kmd", "Patch: NULL DMA buffer or patch list");
        return STATUS_INVALID_PARAMETER;
    }
    BYTE *dma = a->pDmaBuffer;
    UINT32 end = a->DmaBufferSubmissionEndOffset;
    if (a->DmaBufferSize && end > a->DmaBufferSize)
        end = a->DmaBufferSize;
    for (UINT32 i = 0; i < a->PatchLocationListSubmissionLength; i++) {
        const D3DDDI_PATCHLOCATIONLIST *p = &a->pPatchLocationList[a->PatchLocationListSubmissionStart + i];
        if (p->AllocationIndex >= a->AllocationListSize || !a->pAllocationList) {
            wddm_debug("kmd", "Patch: AllocationIndex %u outside the %u-entry allocation list", p->AllocationIndex,
                       a->AllocationListSize);
            continue;
        }
        if (p->PatchOffset < a->DmaBufferSubmissionStartOffset || p->PatchOffset > end || end - p->PatchOffset < 8) {
            wddm_debug("kmd", "Patch: PatchOffset %u outside the submission [%u, %u)", p->PatchOffset,
                       a->DmaBufferSubmissionStartOffset, end);
            continue;
        }
        UINT64 addr = (UINT64)a->pAllocationList[p->AllocationIndex].PhysicalAddress.QuadPart;
        if ((addr >> SWGPU_ADDR_SEGMENT_SHIFT) == 0) {
            wddm_debug("kmd", "Patch: allocation %u is not resident in a segment; poisoning its address",
                       p->AllocationIndex);
            addr = SWKMD_POISON_ADDRESS;
        }
        addr += p->AllocationOffset;
        memcpy(dma + p->PatchOffset, &addr, sizeof addr);
    }
    return STATUS_SUCCESS;
}
