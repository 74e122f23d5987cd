/* A DMA-buffer builder for the scheduling tests (issue 4): several COPY and FILL commands in one
 * command buffer, with their allocation and patch-location lists, through D3DKMTRender. */
#ifndef WDDM_TESTS_DXGKRNL_SCHED_CMDS_H
#define WDDM_TESTS_DXGKRNL_SCHED_CMDS_H

#include "real_env.h"

struct cmds {
    struct renv *e;
    UINT used, allocs, patches;
};

static inline void cmds_begin(struct cmds *b, struct renv *e)
{
    b->e = e;
    b->used = b->allocs = b->patches = 0;
}

/* Slot of `h` in the allocation list (added on first use). */
static inline UINT cmds_slot(struct cmds *b, D3DKMT_HANDLE h, bool write)
{
    for (UINT i = 0; i < b->allocs; i++)
        if (b->e->cc.pAllocationList[i].hAllocation == h) {
            if (write)
                b->e->cc.pAllocationList[i].WriteOperation = 1;
            return i;
        }
    b->e->cc.pAllocationList[b->allocs] = (D3DDDI_ALLOCATIONLIST){ .hAllocation = h };
    b->e->cc.pAllocationList[b->allocs].WriteOperation = write;
    return b->allocs++;
}

static inline void cmds_patch(struct cmds *b, UINT slot, UINT offset_in_cmdbuf, UINT alloc_offset)
{
    b->e->cc.pPatchLocationList[b->patches++] = (D3DDDI_PATCHLOCATIONLIST){
        .AllocationIndex = slot, .PatchOffset = offset_in_cmdbuf, .AllocationOffset = alloc_offset };
}

static inline void cmds_copy(struct cmds *b, D3DKMT_HANDLE dst, UINT dst_off, D3DKMT_HANDLE src, UINT src_off,
                             UINT bytes)
{
    struct swgpu_cmd_copy c = swgpu_cmd_copy_bytes(bytes);
    UINT at = b->used;
    memcpy((BYTE *)b->e->cc.pCommandBuffer + at, &c, sizeof c);
    b->used += sizeof c;
    cmds_patch(b, cmds_slot(b, dst, true), at + (UINT)offsetof(struct swgpu_cmd_copy, dst.addr), dst_off);
    cmds_patch(b, cmds_slot(b, src, false), at + (UINT)offsetof(struct swgpu_cmd_copy, src.addr), src_off);
}

static inline void cmds_fill(struct cmds *b, D3DKMT_HANDLE dst, UINT dst_off, UINT bytes, BYTE value)
{
    struct swgpu_cmd_fill f = swgpu_cmd_fill_bytes(bytes, &value, 1);
    UINT at = b->used;
    memcpy((BYTE *)b->e->cc.pCommandBuffer + at, &f, sizeof f);
    b->used += sizeof f;
    cmds_patch(b, cmds_slot(b, dst, true), at + (UINT)offsetof(struct swgpu_cmd_fill, dst.addr), dst_off);
}

/* The context's state registers (issue 20 §1, swgpu_isa.h "Context state"). */
static inline void cmds_set_reg(struct cmds *b, UINT32 reg, UINT64 value)
{
    struct swgpu_cmd_set_reg c = { .hdr = { SWGPU_OP_SET_REG, sizeof c }, .reg = reg, .value = value };
    memcpy((BYTE *)b->e->cc.pCommandBuffer + b->used, &c, sizeof c);
    b->used += sizeof c;
}

static inline void cmds_store_reg(struct cmds *b, UINT32 reg, D3DKMT_HANDLE dst, UINT dst_off)
{
    struct swgpu_cmd_store_reg c = { .hdr = { SWGPU_OP_STORE_REG, sizeof c }, .reg = reg };
    c.dst.row_pitch = c.dst.slice_pitch = 8;
    UINT at = b->used;
    memcpy((BYTE *)b->e->cc.pCommandBuffer + at, &c, sizeof c);
    b->used += sizeof c;
    cmds_patch(b, cmds_slot(b, dst, true), at + (UINT)offsetof(struct swgpu_cmd_store_reg, dst.addr), dst_off);
}

static inline NTSTATUS cmds_render(struct cmds *b)
{
    D3DKMT_RENDER r = { .hContext = b->e->context, .CommandLength = b->used, .AllocationCount = b->allocs,
                        .PatchLocationCount = b->patches };
    NTSTATUS st = D3DKMTRender(&r);
    b->used = b->allocs = b->patches = 0;
    return st;
}

/* A second context (and optionally device) next to e's. */
static inline void renv_add_context(struct renv *e, struct renv *out, bool new_device)
{
    *out = *e;
    if (new_device) {
        D3DKMT_CREATEDEVICE cd = { .hAdapter = e->adapter };
        assert_int_equal(D3DKMTCreateDevice(&cd), STATUS_SUCCESS);
        out->device = cd.hDevice;
    }
    out->cc = (D3DKMT_CREATECONTEXT){ .hDevice = out->device, .NodeOrdinal = 0 };
    assert_int_equal(D3DKMTCreateContext(&out->cc), STATUS_SUCCESS);
    out->context = out->cc.hContext;
}

static inline void renv_set_priority(struct renv *e, INT priority)
{
    D3DKMT_SETCONTEXTSCHEDULINGPRIORITY sp = { .hContext = e->context, .Priority = priority };
    assert_int_equal(D3DKMTSetContextSchedulingPriority(&sp), STATUS_SUCCESS);
}

/* Writes `n` bytes of pattern `seed` into an allocation through a lock. */
static inline void renv_write(struct renv *e, D3DKMT_HANDLE a, size_t n, uint32_t seed)
{
    void *p = NULL;
    assert_int_equal(renv_lock(e, a, LOCK_WRITEONLY, &p), STATUS_SUCCESS);
    renv_pattern(p, n, seed);
    renv_unlock(e, a);
}

static inline uint64_t renv_read_sum(struct renv *e, D3DKMT_HANDLE a, size_t off, size_t n)
{
    void *p = NULL;
    assert_int_equal(renv_lock(e, a, LOCK_READONLY, &p), STATUS_SUCCESS);
    uint64_t s = renv_checksum((BYTE *)p + off, n);
    renv_unlock(e, a);
    return s;
}

#endif /* WDDM_TESTS_DXGKRNL_SCHED_CMDS_H */
