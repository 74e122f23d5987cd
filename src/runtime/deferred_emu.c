/*
 * deferred_emu.c - the runtime's own command lists, used when the UMD builds none (its threading
 * caps lack D3D11DDICAPS_COMMANDLISTS): a deferred context records the API calls as ops, and
 * ExecuteCommandList replays them through the immediate context's own methods, so a list does
 * what the same calls made there do.
 */
#include "runtime/deferred_internal.h"
#include "common/alloc.h"

#include <stdlib.h>

/* ---- recording ------------------------------------------------------------------------------- */
struct rt_emu_op *rt_emu_add(struct rt_deferred *dc, UINT type)
{
    struct rt_emu_list *e = &dc->emu;
    if (e->count == e->cap) {
        UINT cap = e->cap ? e->cap * 2 : 64;
        struct rt_emu_op *n = wddm_realloc(e->ops, cap * sizeof *n);
        if (!n) {
            rt_dc_mark_lost(dc, E_OUTOFMEMORY, "command list recording");
            return NULL;
        }
        e->ops = n;
        e->cap = cap;
    }
    struct rt_emu_op *op = &e->ops[e->count++];
    memset(op, 0, sizeof *op);
    op->type = type;
    return op;
}

void rt_emu_free(struct rt_emu_list *l)
{
    for (UINT i = 0; i < l->count; i++)
        free(l->ops[i].data);
    free(l->ops);
    memset(l, 0, sizeof *l);
}

/* ---- replay on the immediate context: one handler per op type ------------------------------- */
static void emu_copy(struct rt_device *dev, ID3D11DeviceContext *ic, const struct rt_emu_op *op)
{
    rt_context_CopyResource(ic, &((struct rt_resource *)op->a)->iface, &((struct rt_resource *)op->b)->iface);
}

static void emu_copy_region(struct rt_device *dev, ID3D11DeviceContext *ic, const struct rt_emu_op *op)
{
    rt_context_copy_region(ic, &((struct rt_resource *)op->a)->iface, op->dst_sub, op->x, op->y, op->z,
                           &((struct rt_resource *)op->b)->iface, op->src_sub, op->has_box ? &op->box : NULL,
                           op->copy_flags, op->copy_flags ? "CopySubresourceRegion1" : "CopySubresourceRegion");
}

static void emu_update(struct rt_device *dev, ID3D11DeviceContext *ic, const struct rt_emu_op *op)
{
    rt_context_update(ic, &((struct rt_resource *)op->a)->iface, op->dst_sub, op->has_box ? &op->box : NULL,
                      op->data ? (const void *)op->data : "", op->row_pitch, op->depth_pitch, op->copy_flags,
                      op->copy_flags ? "UpdateSubresource1" : "UpdateSubresource");
}

static void emu_clear_rtv(struct rt_device *dev, ID3D11DeviceContext *ic, const struct rt_emu_op *op)
{
    rt_context_ClearRenderTargetView(ic, &((struct rt_rtv *)op->a)->iface, op->color);
}

/* Renamed on each execution: a fresh IC Map(WRITE_DISCARD) every time. */
static void emu_discard(struct rt_device *dev, ID3D11DeviceContext *ic, const struct rt_emu_op *op)
{
    ID3D11Resource *r = &((struct rt_resource *)op->a)->iface;
    D3D11_MAPPED_SUBRESOURCE m;
    if (FAILED(rt_context_Map(ic, r, op->dst_sub, D3D11_MAP_WRITE_DISCARD, 0, &m)))
        return;
    for (UINT z = 0; z < op->depth; z++)
        for (UINT y = 0; y < op->rows; y++)
            memcpy((BYTE *)m.pData + (SIZE_T)z * m.DepthPitch + (SIZE_T)y * m.RowPitch,
                   op->data + (SIZE_T)z * op->depth_pitch + (SIZE_T)y * op->row_pitch, op->row_bytes);
    rt_context_Unmap(ic, r, op->dst_sub);
}

static void emu_discard_api(struct rt_device *dev, ID3D11DeviceContext *ic, const struct rt_emu_op *op)
{
    struct rt_discard d = { .type = op->handle_type, .object = op->a, .rect_count = op->rows,
                            .rects = (const D3D11_RECT *)op->data };
    rt_context_discard(ic, &d);
}

static void emu_clear_uav(struct rt_device *dev, ID3D11DeviceContext *ic, const struct rt_emu_op *op)
{
    rt_context_ClearUnorderedAccessViewUint(ic, (ID3D11UnorderedAccessView *)op->a, op->values);
}

static void emu_execute(struct rt_device *dev, ID3D11DeviceContext *ic, const struct rt_emu_op *op)
{
    rt_emu_replay(dev, &((struct rt_cmdlist *)op->a)->emu);
}

static void (*const emu_handlers[EMU_TYPE_COUNT])(struct rt_device *, ID3D11DeviceContext *,
                                                  const struct rt_emu_op *) = {
    [EMU_COPY] = emu_copy,
    [EMU_COPY_REGION] = emu_copy_region,
    [EMU_UPDATE] = emu_update,
    [EMU_CLEAR_RTV] = emu_clear_rtv,
    [EMU_DISCARD] = emu_discard,
    [EMU_DISCARD_API] = emu_discard_api,
    [EMU_CLEAR_UAV] = emu_clear_uav,
    [EMU_EXECUTE] = emu_execute,
};

void rt_emu_replay(struct rt_device *dev, const struct rt_emu_list *e)
{
    ID3D11DeviceContext *ic = &dev->context.iface;
    for (UINT i = 0; i < e->count; i++) {
        const struct rt_emu_op *op = &e->ops[i];
        if (op->type < EMU_TYPE_COUNT && emu_handlers[op->type])
            emu_handlers[op->type](dev, ic, op);
    }
}
