/* Context state on the software GPU (issue 20 §1; seed 000: "the operating system supports lazy
 * GPU context switching by assuming that hardware context state is retained on the GPU after
 * completing a command that belongs to the context").
 *
 * Each engine holds one context's registers (swgpu_isa.h "Context state"). A ring entry names
 * the context it runs for; when that is not the loaded one, the engine switches before the
 * buffer's first command: it saves the registers into the state area the loaded context was
 * loaded from, then loads the incoming context's. The same context again costs nothing. A
 * preemption saves and unloads (the context resumes from its save area when resubmitted, like
 * its command position, preempt.c); a reset loses the loaded registers.
 *
 * The engine trusts the addresses it is given: a state area that moved while its context was
 * loaded (the kernel must not let it, seed 000) is saved at its old place, and the context later
 * loads stale or foreign data — the wrong result the tests look for. An address outside GPU
 * memory is a recorded fault. */
#include "gpu/gpu_internal.h"

#include <string.h>

static void state_fault(struct swgpu_engine *e, const struct swgpu_ring_entry *en, UINT64 addr, int write,
                        struct swgpu_fault *f)
{
    memset(f, 0, sizeof *f);
    f->engine = e->index;
    f->fence_id = en ? en->fence_id : 0;
    f->opcode = SWGPU_OP_COUNT;
    f->address = addr;
    f->write = write;
    f->reason = write ? "context state area outside its segment: the outgoing context's registers are lost"
                      : "context state area outside its segment: the context starts from zeroed registers";
}

/* Saves the loaded context (if any) where it came from; 1 on a fault. */
static int save_loaded(struct swgpu_engine *e, const struct swgpu_ring_entry *en, struct swgpu_fault *fault)
{
    if (!atomic_load_explicit(&e->loaded_context, memory_order_relaxed) || !e->loaded_state)
        return 0;
    struct swgpu_context_state s;
    memcpy(s.regs, e->regs, sizeof s.regs);
    atomic_fetch_add_explicit(&e->state_saves, 1, memory_order_relaxed);
    if (swgpu_mem_copy(e->gpu, e->loaded_state, &s, sizeof s, 1) != 0) {
        state_fault(e, en, e->loaded_state, 1, fault);
        return 1;
    }
    return 0;
}

int swgpu_state_switch(struct swgpu_engine *e, const struct swgpu_ring_entry *en, struct swgpu_fault *fault)
{
    if (en->paging)
        return 0; /* paging buffers run beside the loaded context and leave it alone */
    UINT64 loaded = atomic_load_explicit(&e->loaded_context, memory_order_relaxed);
    if (!en->switch_to_null && en->context_id == loaded)
        return 0; /* lazy: its state is still here */
    int faulted = save_loaded(e, en, fault);
    memset(e->regs, 0, sizeof e->regs);
    e->loaded_state = 0;
    atomic_store_explicit(&e->loaded_context, 0, memory_order_relaxed);
    if (en->switch_to_null || !en->context_id)
        return faulted;
    if (en->state_addr) {
        struct swgpu_context_state s;
        atomic_fetch_add_explicit(&e->state_loads, 1, memory_order_relaxed);
        if (swgpu_mem_copy(e->gpu, en->state_addr, &s, sizeof s, 0) == 0) {
            memcpy(e->regs, s.regs, sizeof e->regs);
        } else if (!faulted) {
            state_fault(e, en, en->state_addr, 0, fault);
            faulted = 1;
        }
    }
    e->loaded_state = en->state_addr;
    atomic_store_explicit(&e->loaded_context, en->context_id, memory_order_relaxed);
    return faulted;
}

void swgpu_state_unload(struct swgpu_engine *e, int save)
{
    struct swgpu_fault f;
    if (save && save_loaded(e, NULL, &f))
        swgpu_record_fault_locked(e, &f);
    memset(e->regs, 0, sizeof e->regs);
    e->loaded_state = 0;
    atomic_store_explicit(&e->loaded_context, 0, memory_order_relaxed);
}

void swgpu_switch_counts(struct swgpu *gpu, UINT32 engine, struct swgpu_switch_counts *out)
{
    memset(out, 0, sizeof *out);
    if (!gpu || engine >= gpu->engine_count)
        return;
    struct swgpu_engine *e = &gpu->engines[engine];
    out->saves = atomic_load_explicit(&e->state_saves, memory_order_relaxed);
    out->loads = atomic_load_explicit(&e->state_loads, memory_order_relaxed);
    out->loaded_context = atomic_load_explicit(&e->loaded_context, memory_order_relaxed);
}
