/* Contexts (docs/semantics.md §0): a stream of DMA buffers on one node. The kernel allocates the
 * context's command buffer, allocation list and patch-location list in system memory and
 * hands them to the UMD through D3DKMT_CREATECONTEXT (and again after every D3DKMTRender). */
#include "dxgkrnl/objects/objects.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>

static void context_release(struct dxgk_object *obj)
{
    struct dxgk_context *c = (struct dxgk_context *)obj;
    while (c->pool) {
        struct dxgk_packet *p = c->pool;
        c->pool = p->next;
        gsched_packet_free(c->device->adapter, p);
    }
    dxgk_page_free(c->device->adapter, c->cmd, c->cmd_size);
    free(c->alloc_list);
    free(c->patch_list);
    free(c->va_stamp); /* empty: gsched_drop_held_locked ran when the context was destroyed */
    free(c);
}

NTSTATUS APIENTRY D3DKMTCreateContext(D3DKMT_CREATECONTEXT *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTCreateContext: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_device *d = dxgk_device_get(args->hDevice);
    if (!d) {
        dxgk_refuse("D3DKMTCreateContext: invalid device handle 0x%08x", args->hDevice);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_adapter *a = d->adapter;
    NTSTATUS st;
    if (args->NodeOrdinal >= a->node_count) {
        dxgk_refuse("D3DKMTCreateContext: NodeOrdinal %u but the adapter has %u nodes", args->NodeOrdinal,
                    a->node_count);
        st = STATUS_INVALID_PARAMETER;
        goto out;
    }
    if (args->PrivateDriverDataSize && !args->pPrivateDriverData) {
        dxgk_refuse("D3DKMTCreateContext: PrivateDriverDataSize %u with NULL pPrivateDriverData",
                    args->PrivateDriverDataSize);
        st = STATUS_INVALID_PARAMETER;
        goto out;
    }
    struct dxgk_context *c = wddm_calloc(1, sizeof *c);
    if (!c) {
        st = STATUS_NO_MEMORY;
        goto out;
    }
    dxgk_object_init(&c->obj, DXGK_TYPE_CONTEXT, context_release);
    c->device = d;
    c->node = args->NodeOrdinal;
    c->handle = dxgk_handle_insert(&c->obj);
    if (!c->handle) {
        dxgk_object_put(&c->obj);
        st = STATUS_NO_MEMORY;
        goto out;
    }
    DXGKARG_CREATECONTEXT cc = { .hContext = (HANDLE)(uintptr_t)c->handle, .NodeOrdinal = args->NodeOrdinal,
                                 .EngineAffinity = args->EngineAffinity ? args->EngineAffinity : 1,
                                 .pPrivateDriverData = args->pPrivateDriverData,
                                 .PrivateDriverDataSize = args->PrivateDriverDataSize };
    st = a->driver.ddi.DxgkDdiCreateContext(d->kmd, &cc);
    if (!NT_SUCCESS(st)) {
        dxgk_refuse("D3DKMTCreateContext: DxgkDdiCreateContext failed 0x%08x", (unsigned)st);
        dxgk_context_allocations_destroy_owned(a, d, c); /* any the failing KMD left */
        dxgk_object_put(dxgk_handle_remove(c->handle, DXGK_TYPE_CONTEXT));
        goto out;
    }
    c->kmd = cc.hContext;
    c->info = cc.ContextInfo;
    dxgk_verify_context_info(&c->info);
    c->cmd_size = (c->info.DmaBufferSize + DXGK_PAGE_SIZE - 1) & ~(DXGK_PAGE_SIZE - 1);
    c->cmd = dxgk_page_alloc(d->adapter, c->cmd_size);
    c->alloc_list_size = c->info.AllocationListSize;
    c->alloc_list = wddm_calloc(c->alloc_list_size, sizeof *c->alloc_list);
    c->patch_list_size = c->info.PatchLocationListSize;
    c->patch_list = wddm_calloc(c->patch_list_size, sizeof *c->patch_list);
    pthread_mutex_lock(&a->lock);
    bool dead = d->dead;
    NTSTATUS refused = dead ? STATUS_INVALID_PARAMETER : dxgk_tdr_check_stopped_locked(a, "D3DKMTCreateContext");
    if (NT_SUCCESS(refused) && c->cmd && c->alloc_list && c->patch_list) {
        c->dev_next = d->contexts;
        d->contexts = c;
        struct gsched_node *n = &a->node[c->node];
        c->node_next = n->contexts;
        n->contexts = c;
    }
    pthread_mutex_unlock(&a->lock);
    if (!NT_SUCCESS(refused) || !c->cmd || !c->alloc_list || !c->patch_list) {
        if (dead)
            dxgk_refuse("D3DKMTCreateContext: device 0x%08x is being destroyed", args->hDevice);
        a->driver.ddi.DxgkDdiDestroyContext(c->kmd);
        dxgk_context_allocations_destroy_owned(a, d, c); /* any the KMD left */
        dxgk_object_put(dxgk_handle_remove(c->handle, DXGK_TYPE_CONTEXT));
        st = NT_SUCCESS(refused) ? STATUS_NO_MEMORY : refused;
        goto out;
    }
    /* GpuMmu (issue 6): the context's root page table before its first submission; it has no
     * command buffer nor lists to give: the UMD writes commands in its own GPU-virtual memory
     * and submits them with D3DKMTSubmitCommand. */
    vidmm_va_set_root(a, c);
    dxgk_handle_publish(c->handle);
    args->hContext = c->handle;
    if (a->mmu) {
        args->pCommandBuffer = NULL;
        args->CommandBufferSize = 0;
        args->pAllocationList = NULL;
        args->AllocationListSize = 0;
        args->pPatchLocationList = NULL;
        args->PatchLocationListSize = 0;
        args->CommandBuffer = 0;
        st = STATUS_SUCCESS;
        goto out;
    }
    args->pCommandBuffer = c->cmd;
    args->CommandBufferSize = c->cmd_size;
    args->pAllocationList = c->alloc_list;
    args->AllocationListSize = c->alloc_list_size;
    args->pPatchLocationList = c->patch_list;
    args->PatchLocationListSize = c->patch_list_size;
    args->CommandBuffer = 0;
    st = STATUS_SUCCESS;
out:
    dxgk_device_put(d);
    return st;
}

/* The context's handle is already removed (and c is off device->contexts). Waits until the
 * GPU retired every packet of the context and saved its state, then tells the KMD; drops the
 * handle's reference. */
void dxgk_context_destroy(struct dxgk_context *c)
{
    struct dxgk_adapter *a = c->device->adapter;
    struct gsched_node *n = &a->node[c->node];
    pthread_mutex_lock(&a->lock);
    c->dead = true;
    /* Packets still behind a GPU wait never run: the wait is abandoned with its context. */
    gsched_drop_held_locked(a, c);
    UINT64 last = c->last_ticket;
    pthread_mutex_unlock(&a->lock);
    gsched_wait_ticket(n, last);
    /* Retired packets wait on the node for the next D3DKMTRender or the worker to recycle
     * them (sched/interrupt.c): return them now; one the worker already took is back when it
     * broadcasts done_cond. */
    pthread_mutex_lock(&a->lock);
    gsched_recycle_retired_locked(a, n);
    pthread_mutex_unlock(&a->lock);
    pthread_mutex_lock(&n->lock);
    while (atomic_load(&c->queued))
        pthread_cond_wait(&n->done_cond, &n->lock);
    pthread_mutex_unlock(&n->lock);
    /* Seed 000: its state may still be on the engine (lazy switching), which would save it into
     * its save area at the next switch: the node goes to the null context first. */
    (void)gsched_unload_context(a, c);
    pthread_mutex_lock(&a->lock);
    struct dxgk_context **pp = &n->contexts;
    while (*pp && *pp != c)
        pp = &(*pp)->node_next;
    if (*pp)
        *pp = c->node_next;
    pthread_mutex_unlock(&a->lock);
    NTSTATUS st = a->driver.ddi.DxgkDdiDestroyContext(c->kmd);
    if (!NT_SUCCESS(st))
        dxgk_refuse("DestroyContext: DxgkDdiDestroyContext failed 0x%08x (ignored)", (unsigned)st);
    /* GPU context allocations the KMD did not destroy (in its DxgkDdiDestroyContext) go with
     * their context (docs/semantics.md §1.2 invariant 7): their handles are invalid from now on. */
    dxgk_context_allocations_destroy_owned(a, c->device, c);
    dxgk_object_put(&c->obj);
}

NTSTATUS APIENTRY D3DKMTDestroyContext(const D3DKMT_DESTROYCONTEXT *args)
{
    struct dxgk_context *c = args ? (struct dxgk_context *)dxgk_handle_get(args->hContext, DXGK_TYPE_CONTEXT) : NULL;
    if (!c) {
        dxgk_refuse("D3DKMTDestroyContext: invalid context handle 0x%08x", args ? args->hContext : 0);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_adapter *a = c->device->adapter;
    struct dxgk_object *o = dxgk_handle_remove(args->hContext, DXGK_TYPE_CONTEXT);
    if (!o) {
        dxgk_object_put(&c->obj);
        dxgk_refuse("D3DKMTDestroyContext: context 0x%08x already being destroyed", args->hContext);
        return STATUS_INVALID_PARAMETER;
    }
    pthread_mutex_lock(&a->lock);
    struct dxgk_context **pp = &c->device->contexts;
    while (*pp && *pp != c)
        pp = &(*pp)->dev_next;
    if (*pp)
        *pp = c->dev_next;
    pthread_mutex_unlock(&a->lock);
    dxgk_context_destroy(c); /* drops the handle's reference */
    dxgk_object_put(&c->obj);
    return STATUS_SUCCESS;
}
