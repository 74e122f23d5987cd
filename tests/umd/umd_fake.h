/* umd_fake.h - a fake runtime + kernel + GPU for testing the reference UMD alone.
 *
 * The tests act as the D3D11 runtime: they open the UMD through OpenAdapter10_2 with their
 * own D3DDDI_ADAPTERCALLBACKS / D3DDDI_DEVICECALLBACKS / pfnSetErrorCb, which record what the
 * UMD does at the callback boundary:
 *   - pfnAllocateCb hands out handles backed by calloc'd memory of the private data's size;
 *   - pfnLockCb returns that memory and records the D3DDDICB_LOCKFLAGS (or fails on demand);
 *   - pfnRenderCb checks the command buffer is well-formed (every address field has exactly
 *     one patch entry, every patch entry lands on an address field, allocation indices are in
 *     range, written allocations are marked WriteOperation) and then executes it against the
 *     fake memory, as the KMD + GPU would after patching (field = base + AllocationOffset).
 * Header-only (static functions) so each test program includes it once.
 */
#ifndef TESTS_UMD_FAKE_H
#define TESTS_UMD_FAKE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "wddm/d3d10umddi.h"
#include "drv/swgpu_private.h"
#include "gpu/swgpu_isa.h"
#include "common/format.h"

#define FAKE_MAX_ALLOCS 256
#define FAKE_MAX_LOG 64
#define FAKE_MAX_ERRORS 64

struct fake_alloc {
    int live;
    BYTE *mem;
    UINT64 size;
    struct swgpu_alloc_private priv;
    HANDLE hResource;
};

struct fake {
    struct swgpu_umd_adapter_info info;
    /* kernel objects */
    struct fake_alloc allocs[FAKE_MAX_ALLOCS]; /* handle = index + 1 */
    int allocate_calls, deallocate_calls, live_allocs;
    HRESULT allocate_result;                   /* forced result of the next pfnAllocateCb */
    /* locks */
    int lock_calls, unlock_calls, locked;
    D3DDDICB_LOCKFLAGS lock_log[FAKE_MAX_LOG];
    HRESULT lock_result;                       /* forced result of pfnLockCb (S_OK = normal) */
    int lock_fail_count;                       /* how many locks fail with lock_result (-1 = all) */
    int rename_on_discard;                     /* Discard locks hand out a new instance */
    int busy;                                  /* the GPU still uses every allocation: a DonotWait
                                                  lock answers WASSTILLDRAWING, any other waits
                                                  (returns at once) */
    HRESULT unlock_result;                     /* forced result of pfnUnlockCb (S_OK = normal) */
    /* context and submission */
    int suballoc;                              /* leave the UMD's buffer pools on (suballoc.c) */
    int dyn_ring;                              /* leave the UMD's upload ring on (ring.c) */
    int create_context_calls, destroy_context_calls;
    UINT node_ordinal;
    UINT cmd_size, alist_size, plist_size;     /* buffer sizes the "kernel" hands out */
    BYTE *cmd[2];
    D3DDDI_ALLOCATIONLIST *alist[2];
    D3DDDI_PATCHLOCATIONLIST *plist[2];
    int cur;
    int render_calls;
    HRESULT render_result;
    UINT64 commands_executed, bytes_written_inline;
    UINT last_cmd_length, last_num_allocs, last_num_patches;
    _Alignas(8) BYTE last_cmd[1 << 16];
    D3DDDI_ALLOCATIONLIST last_alist[64];
    D3DDDI_PATCHLOCATIONLIST last_plist[64];
    /* errors from pfnSetErrorCb */
    HRESULT errors[FAKE_MAX_ERRORS];
    int n_errors;
    /* UMD objects */
    D3D10DDIARG_OPENADAPTER open;
    D3D10_2DDI_ADAPTERFUNCS adapter_funcs;
    D3DDDI_ADAPTERCALLBACKS adapter_cb;
    D3DDDI_DEVICECALLBACKS kt;
    D3D11DDI_CORELAYER_DEVICECALLBACKS core;
    D3D11DDI_DEVICEFUNCS df;
    D3D10DDI_HDEVICE hDevice;
    void *device_mem;
};

static inline struct fake_alloc *fake_alloc_of(struct fake *f, D3DKMT_HANDLE h)
{
    assert_true(h >= 1 && h <= FAKE_MAX_ALLOCS);
    struct fake_alloc *a = &f->allocs[h - 1];
    assert_true(a->live);
    return a;
}

/* ---- callbacks ---------------------------------------------------------------------------- */
static inline HRESULT APIENTRY fake_QueryAdapterInfoCb(HANDLE hAdapter, D3DDDICB_QUERYADAPTERINFO *q)
{
    struct fake *f = hAdapter;
    if (q->PrivateDriverDataSize < sizeof f->info)
        return E_INVALIDARG;
    memcpy(q->pPrivateDriverData, &f->info, sizeof f->info);
    return S_OK;
}

static inline HRESULT APIENTRY fake_AllocateCb(HANDLE hDevice, D3DDDICB_ALLOCATE *a)
{
    struct fake *f = hDevice;
    f->allocate_calls++;
    if (f->allocate_result != S_OK)
        return f->allocate_result;
    assert_int_equal(a->NumAllocations, 1);
    /* hResource is NULL only for a device allocation with no kernel resource (query.c). */
    D3DDDI_ALLOCATIONINFO *ai = &a->pAllocationInfo[0];
    assert_int_equal(ai->PrivateDriverDataSize, sizeof(struct swgpu_alloc_private));
    struct swgpu_alloc_private priv;
    memcpy(&priv, ai->pPrivateDriverData, sizeof priv);
    assert_int_equal(priv.magic, SWGPU_PRIVATE_MAGIC);
    for (int i = 0; i < FAKE_MAX_ALLOCS; i++) {
        if (!f->allocs[i].live) {
            f->allocs[i] = (struct fake_alloc){ .live = 1, .mem = calloc(1, priv.size ? priv.size : 1), .size = priv.size,
                                                .priv = priv, .hResource = a->hResource };
            ai->hAllocation = (D3DKMT_HANDLE)(i + 1);
            a->hKMResource = 0x1000 + (D3DKMT_HANDLE)i;
            f->live_allocs++;
            return S_OK;
        }
    }
    return E_OUTOFMEMORY;
}

static inline void fake_free(struct fake *f, D3DKMT_HANDLE h)
{
    struct fake_alloc *a = fake_alloc_of(f, h);
    free(a->mem);
    memset(a, 0, sizeof *a);
    f->live_allocs--;
}

static inline HRESULT APIENTRY fake_DeallocateCb(HANDLE hDevice, const D3DDDICB_DEALLOCATE *d)
{
    struct fake *f = hDevice;
    f->deallocate_calls++;
    if (d->hResource) {
        /* hResource set: every allocation of that resource (docs/semantics.md §3.5). */
        for (int i = 0; i < FAKE_MAX_ALLOCS; i++)
            if (f->allocs[i].live && f->allocs[i].hResource == d->hResource)
                fake_free(f, (D3DKMT_HANDLE)(i + 1));
        return S_OK;
    }
    for (UINT i = 0; i < d->NumAllocations; i++)
        fake_free(f, d->HandleList[i]);
    return S_OK;
}

static inline HRESULT APIENTRY fake_LockCb(HANDLE hDevice, D3DDDICB_LOCK *l)
{
    struct fake *f = hDevice;
    if (f->lock_calls < FAKE_MAX_LOG)
        f->lock_log[f->lock_calls] = l->Flags;
    f->lock_calls++;
    if (f->lock_result != S_OK && f->lock_fail_count != 0) {
        if (f->lock_fail_count > 0)
            f->lock_fail_count--;
        return f->lock_result;
    }
    if (f->busy && l->Flags.DonotWait)
        return D3DDDIERR_WASSTILLDRAWING;
    struct fake_alloc *a = fake_alloc_of(f, l->hAllocation);
    if (f->rename_on_discard && l->Flags.Discard) {
        /* A new instance under its own handle (same resource, fresh memory); the old one keeps
         * its content for the commands that name it, as VidMm's instances do, and goes with
         * the resource (DeallocateCb by hResource). */
        for (int i = 0; i < FAKE_MAX_ALLOCS; i++) {
            if (!f->allocs[i].live) {
                f->allocs[i] = *a;
                f->allocs[i].mem = calloc(1, a->size ? a->size : 1);
                f->live_allocs++;
                l->hAllocation = (D3DKMT_HANDLE)(i + 1);
                a = &f->allocs[i];
                break;
            }
        }
    }
    l->pData = a->mem;
    f->locked++;
    return S_OK;
}

static inline HRESULT APIENTRY fake_UnlockCb(HANDLE hDevice, const D3DDDICB_UNLOCK *u)
{
    struct fake *f = hDevice;
    f->unlock_calls++;
    assert_int_equal(u->NumAllocations, 1);
    (void)fake_alloc_of(f, u->phAllocations[0]);
    f->locked--;
    return f->unlock_result;
}

/* Byte offsets of the address fields of the command at `c` (at most 2). */
static inline int fake_address_fields(const BYTE *c, UINT at, UINT fields[2])
{
    const struct swgpu_cmd_header *h = (const void *)c;
    switch (h->opcode) {
    case SWGPU_OP_COPY:
        fields[0] = at + (UINT)offsetof(struct swgpu_cmd_copy, dst.addr);
        fields[1] = at + (UINT)offsetof(struct swgpu_cmd_copy, src.addr);
        return 2;
    case SWGPU_OP_FILL:
        fields[0] = at + (UINT)offsetof(struct swgpu_cmd_fill, dst.addr);
        return 1;
    case SWGPU_OP_WRITE:
        fields[0] = at + (UINT)offsetof(struct swgpu_cmd_write, dst.addr);
        return 1;
    default:
        fail_msg("unexpected opcode %u in a UMD command buffer", h->opcode);
        return 0;
    }
}

/* The patched address of the field at `off`: allocation memory + AllocationOffset. */
static inline BYTE *fake_resolve(struct fake *f, const D3DDDICB_RENDER *r, const D3DDDI_ALLOCATIONLIST *al,
                          const D3DDDI_PATCHLOCATIONLIST *pl, UINT off, int want_write, UINT64 extent)
{
    for (UINT i = 0; i < r->NumPatchLocations; i++) {
        if (pl[i].PatchOffset == off) {
            assert_true(pl[i].AllocationIndex < r->NumAllocations);
            const D3DDDI_ALLOCATIONLIST *e = &al[pl[i].AllocationIndex];
            if (want_write)
                assert_int_equal(e->WriteOperation, 1);
            struct fake_alloc *a = fake_alloc_of(f, e->hAllocation);
            /* the region must stay inside the allocation */
            assert_true((UINT64)pl[i].AllocationOffset + extent <= a->size);
            return a->mem + pl[i].AllocationOffset;
        }
    }
    fail_msg("address field at %u has no patch entry", off);
    return NULL;
}

static inline UINT64 fake_extent(const struct swgpu_region *rg, UINT row_bytes, UINT rows, UINT slices)
{
    return (UINT64)(slices - 1) * rg->slice_pitch + (UINT64)(rows - 1) * rg->row_pitch + row_bytes;
}

static inline void fake_execute(struct fake *f, const D3DDDICB_RENDER *r, BYTE *cmd, const D3DDDI_ALLOCATIONLIST *al,
                         const D3DDDI_PATCHLOCATIONLIST *pl)
{
    /* Pass 1: well-formedness. Every address field has exactly one patch, and every patch
     * entry names an address field (PatchOffset) and an allocation-list index in range. */
    UINT fields[512];
    UINT nfields = 0;
    for (UINT at = 0; at < r->CommandLength;) {
        const struct swgpu_cmd_header *h = (const void *)(cmd + at);
        assert_true(h->size_bytes >= sizeof *h && (h->size_bytes & 7) == 0);
        assert_true(at + h->size_bytes <= r->CommandLength);
        UINT fl[2];
        int n = fake_address_fields(cmd + at, at, fl);
        for (int i = 0; i < n; i++) {
            UINT64 v;
            memcpy(&v, cmd + fl[i], sizeof v);
            assert_int_equal(v, 0); /* the UMD writes 0; the KMD writes base + AllocationOffset */
            assert_true(nfields < 512);
            fields[nfields++] = fl[i];
        }
        at += h->size_bytes;
    }
    assert_int_equal(r->NumPatchLocations, nfields);
    for (UINT i = 0; i < r->NumPatchLocations; i++) {
        int found = 0;
        for (UINT j = 0; j < nfields; j++)
            found += fields[j] == pl[i].PatchOffset;
        assert_int_equal(found, 1);
        assert_true(pl[i].AllocationIndex < r->NumAllocations);
    }
    /* Allocation list entries are unique per buffer. */
    for (UINT i = 0; i < r->NumAllocations; i++)
        for (UINT j = i + 1; j < r->NumAllocations; j++)
            assert_int_not_equal(al[i].hAllocation, al[j].hAllocation);

    /* Pass 2: execute, as the GPU would after DxgkDdiPatch. */
    for (UINT at = 0; at < r->CommandLength;) {
        BYTE *c = cmd + at;
        const struct swgpu_cmd_header *h = (const void *)c;
        if (h->opcode == SWGPU_OP_COPY) {
            const struct swgpu_cmd_copy *cp = (const void *)c;
            BYTE *d = fake_resolve(f, r, al, pl, at + (UINT)offsetof(struct swgpu_cmd_copy, dst.addr), 1,
                                   fake_extent(&cp->dst, cp->row_bytes, cp->rows, cp->slices));
            BYTE *s = fake_resolve(f, r, al, pl, at + (UINT)offsetof(struct swgpu_cmd_copy, src.addr), 0,
                                   fake_extent(&cp->src, cp->row_bytes, cp->rows, cp->slices));
            for (UINT z = 0; z < cp->slices; z++)
                for (UINT y = 0; y < cp->rows; y++)
                    memmove(d + (size_t)z * cp->dst.slice_pitch + (size_t)y * cp->dst.row_pitch,
                            s + (size_t)z * cp->src.slice_pitch + (size_t)y * cp->src.row_pitch, cp->row_bytes);
        } else if (h->opcode == SWGPU_OP_FILL) {
            const struct swgpu_cmd_fill *fl = (const void *)c;
            assert_true(fl->pattern_bytes == 1 || fl->pattern_bytes == 2 || fl->pattern_bytes == 4 ||
                        fl->pattern_bytes == 8 || fl->pattern_bytes == 16);
            BYTE *d = fake_resolve(f, r, al, pl, at + (UINT)offsetof(struct swgpu_cmd_fill, dst.addr), 1,
                                   fake_extent(&fl->dst, fl->row_bytes, fl->rows, fl->slices));
            for (UINT z = 0; z < fl->slices; z++)
                for (UINT y = 0; y < fl->rows; y++)
                    for (UINT x = 0; x < fl->row_bytes; x++)
                        d[(size_t)z * fl->dst.slice_pitch + (size_t)y * fl->dst.row_pitch + x] =
                            fl->pattern[x % fl->pattern_bytes];
        } else if (h->opcode == SWGPU_OP_WRITE) {
            const struct swgpu_cmd_write *w = (const void *)c;
            UINT64 payload = (UINT64)w->row_bytes * w->rows * w->slices;
            assert_int_equal(h->size_bytes, sizeof *w + ((payload + 7) & ~7ull));
            BYTE *d = fake_resolve(f, r, al, pl, at + (UINT)offsetof(struct swgpu_cmd_write, dst.addr), 1,
                                   fake_extent(&w->dst, w->row_bytes, w->rows, w->slices));
            const BYTE *s = (const BYTE *)(w + 1);
            for (UINT z = 0; z < w->slices; z++)
                for (UINT y = 0; y < w->rows; y++, s += w->row_bytes)
                    memcpy(d + (size_t)z * w->dst.slice_pitch + (size_t)y * w->dst.row_pitch, s, w->row_bytes);
            f->bytes_written_inline += payload;
        }
        f->commands_executed++;
        at += h->size_bytes;
    }
}

static inline HRESULT APIENTRY fake_RenderCb(HANDLE hDevice, D3DDDICB_RENDER *r)
{
    struct fake *f = hDevice;
    f->render_calls++;
    if (f->render_result != S_OK)
        return f->render_result;
    int c = f->cur;
    assert_true(r->CommandLength > 0 && r->CommandLength <= f->cmd_size);
    assert_true(r->NumAllocations <= f->alist_size && r->NumPatchLocations <= f->plist_size);
    assert_int_equal((uintptr_t)r->hContext, 0xC0);
    f->last_cmd_length = r->CommandLength;
    f->last_num_allocs = r->NumAllocations;
    f->last_num_patches = r->NumPatchLocations;
    if (r->CommandLength <= sizeof f->last_cmd)
        memcpy(f->last_cmd, f->cmd[c], r->CommandLength);
    if (r->NumAllocations <= 64)
        memcpy(f->last_alist, f->alist[c], r->NumAllocations * sizeof *f->alist[c]);
    if (r->NumPatchLocations <= 64)
        memcpy(f->last_plist, f->plist[c], r->NumPatchLocations * sizeof *f->plist[c]);
    fake_execute(f, r, f->cmd[c], f->alist[c], f->plist[c]);
    /* Hand out the other buffer set (the UMD must switch to it). Poison the old one. */
    memset(f->cmd[c], 0xCD, f->cmd_size);
    f->cur = c ^ 1;
    r->pNewCommandBuffer = f->cmd[f->cur];
    r->NewCommandBufferSize = f->cmd_size;
    r->pNewAllocationList = f->alist[f->cur];
    r->NewAllocationListSize = f->alist_size;
    r->pNewPatchLocationList = f->plist[f->cur];
    r->NewPatchLocationListSize = f->plist_size;
    return S_OK;
}

static inline HRESULT APIENTRY fake_CreateContextCb(HANDLE hDevice, D3DDDICB_CREATECONTEXT *c)
{
    struct fake *f = hDevice;
    f->create_context_calls++;
    f->node_ordinal = c->NodeOrdinal;
    c->hContext = (HANDLE)(uintptr_t)0xC0;
    c->pCommandBuffer = f->cmd[0];
    c->CommandBufferSize = f->cmd_size;
    c->pAllocationList = f->alist[0];
    c->AllocationListSize = f->alist_size;
    c->pPatchLocationList = f->plist[0];
    c->PatchLocationListSize = f->plist_size;
    return S_OK;
}

static inline HRESULT APIENTRY fake_DestroyContextCb(HANDLE hDevice, const D3DDDICB_DESTROYCONTEXT *c)
{
    struct fake *f = hDevice;
    f->destroy_context_calls++;
    return S_OK;
}

static inline VOID APIENTRY fake_SetErrorCb(D3D10DDI_HRTCORELAYER h, HRESULT hr)
{
    struct fake *f = h.handle;
    if (f->n_errors < FAKE_MAX_ERRORS)
        f->errors[f->n_errors] = hr;
    f->n_errors++;
}

/* ---- setup ------------------------------------------------------------------------------------ */
static inline struct fake *fake_new_sized(UINT cmd_size, UINT alist_size, UINT plist_size)
{
    struct fake *f = calloc(1, sizeof *f);
    f->info = (struct swgpu_umd_adapter_info){ .magic = SWGPU_PRIVATE_MAGIC, .version = SWGPU_PRIVATE_VERSION,
                                               .node_count = 2, .render_node = 0, .copy_node = 1,
                                               .row_pitch_alignment = 256 };
    f->cmd_size = cmd_size;
    f->alist_size = alist_size;
    f->plist_size = plist_size;
    for (int i = 0; i < 2; i++) {
        f->cmd[i] = calloc(1, cmd_size);
        f->alist[i] = calloc(alist_size, sizeof(D3DDDI_ALLOCATIONLIST));
        f->plist[i] = calloc(plist_size, sizeof(D3DDDI_PATCHLOCATIONLIST));
    }
    f->adapter_cb.pfnQueryAdapterInfoCb = fake_QueryAdapterInfoCb;
    f->kt = (D3DDDI_DEVICECALLBACKS){ .pfnAllocateCb = fake_AllocateCb, .pfnDeallocateCb = fake_DeallocateCb,
                                      .pfnRenderCb = fake_RenderCb, .pfnLockCb = fake_LockCb,
                                      .pfnUnlockCb = fake_UnlockCb, .pfnCreateContextCb = fake_CreateContextCb,
                                      .pfnDestroyContextCb = fake_DestroyContextCb };
    f->core.pfnSetErrorCb = fake_SetErrorCb;
    return f;
}

static inline HRESULT fake_open_adapter(struct fake *f)
{
    f->open = (D3D10DDIARG_OPENADAPTER){ .hRTAdapter = { f }, .Interface = D3D11_0_DDI_INTERFACE_VERSION,
                                         .Version = D3D11_0_DDI_BUILD_VERSION, .pAdapterCallbacks = &f->adapter_cb,
                                         .pAdapterFuncs_2 = &f->adapter_funcs };
    return OpenAdapter10_2(&f->open);
}

static inline HRESULT fake_create_device(struct fake *f)
{
    /* Most tests here are about one resource's own allocation (its list entries, locks,
     * renames), so small DEFAULT and DYNAMIC buffers get one unless a test sets f->suballoc or
     * f->dyn_ring first. */
    setenv("WDDM_UMD_SUBALLOC", f->suballoc ? "1" : "0", 1);
    setenv("WDDM_UMD_RING", f->dyn_ring ? "1" : "0", 1);
    D3D10DDIARG_CALCPRIVATEDEVICESIZE cs = { .Interface = D3D11_0_DDI_INTERFACE_VERSION };
    SIZE_T size = f->adapter_funcs.pfnCalcPrivateDeviceSize(f->open.hAdapter, &cs);
    f->device_mem = calloc(1, size);
    f->hDevice.pDrvPrivate = f->device_mem;
    D3D10DDIARG_CREATEDEVICE cd = { .hRTDevice = { f }, .Interface = D3D11_0_DDI_INTERFACE_VERSION,
                                    .pKTCallbacks = &f->kt, .p11DeviceFuncs = &f->df,
                                    .hDrvDevice = f->hDevice, .hRTCoreLayer = { f }, .p11UMCallbacks = &f->core };
    return f->adapter_funcs.pfnCreateDevice(f->open.hAdapter, &cd);
}

static inline struct fake *fake_setup_sized(UINT cmd_size, UINT alist_size, UINT plist_size)
{
    struct fake *f = fake_new_sized(cmd_size, alist_size, plist_size);
    assert_int_equal(fake_open_adapter(f), S_OK);
    assert_int_equal(fake_create_device(f), S_OK);
    return f;
}

static inline struct fake *fake_setup(void) { return fake_setup_sized(64 * 1024, 64, 64); }

static inline void fake_teardown(struct fake *f)
{
    if (f->device_mem) {
        f->df.pfnDestroyDevice(f->hDevice);
        free(f->device_mem);
    }
    if (f->open.hAdapter.pDrvPrivate)
        f->adapter_funcs.pfnCloseAdapter(f->open.hAdapter);
    for (int i = 0; i < FAKE_MAX_ALLOCS; i++)
        free(f->allocs[i].mem);
    for (int i = 0; i < 2; i++) {
        free(f->cmd[i]);
        free(f->alist[i]);
        free(f->plist[i]);
    }
    free(f);
}

/* A resource as the runtime would create it: handle memory of CalcPrivateResourceSize bytes. */
struct fake_res {
    D3D10DDI_HRESOURCE h;
    D3D10DDI_HRTRESOURCE rt;
    D3D10DDI_MIPINFO mips[16];
    D3D11DDIARG_CREATERESOURCE args;
};

static inline struct fake_res *fake_res_new(UINT dim, UINT usage, DXGI_FORMAT fmt, UINT w, UINT h, UINT d, UINT mips,
                                     UINT array, UINT cpu)
{
    struct fake_res *r = calloc(1, sizeof *r);
    for (UINT m = 0; m < mips; m++) {
        UINT mw = w >> m ? w >> m : 1, mh = h >> m ? h >> m : 1, md = d >> m ? d >> m : 1;
        r->mips[m] = (D3D10DDI_MIPINFO){ mw, mh, md, mw, mh, md };
    }
    r->args = (D3D11DDIARG_CREATERESOURCE){ .pMipInfoList = r->mips, .ResourceDimension = dim, .Usage = usage,
                                            .MapFlags = cpu, .Format = fmt, .SampleDesc = { 1, 0 },
                                            .MipLevels = mips, .ArraySize = array };
    if (usage == D3D10_DDI_USAGE_DEFAULT)
        r->args.BindFlags = D3D10_DDI_BIND_SHADER_RESOURCE;
    r->rt.handle = r;
    return r;
}

/* CreateResource through the DDI; returns FALSE if the UMD reported an error. */
static inline int fake_res_create(struct fake *f, struct fake_res *r, const D3D10_DDIARG_SUBRESOURCE_UP *init)
{
    r->args.pInitialDataUP = init;
    SIZE_T size = f->df.pfnCalcPrivateResourceSize(f->hDevice, &r->args);
    r->h.pDrvPrivate = calloc(1, size);
    int errors = f->n_errors;
    f->df.pfnCreateResource(f->hDevice, &r->args, r->h, r->rt);
    return f->n_errors == errors;
}

static inline void fake_res_destroy(struct fake *f, struct fake_res *r)
{
    f->df.pfnDestroyResource(f->hDevice, r->h);
    free(r->h.pDrvPrivate);
    free(r);
}

static inline struct fake_res *fake_buffer(struct fake *f, UINT usage, UINT bytes, UINT cpu, const void *init)
{
    struct fake_res *r = fake_res_new(D3D10DDIRESOURCE_BUFFER, usage, DXGI_FORMAT_UNKNOWN, bytes, 1, 1, 1, 1, cpu);
    D3D10_DDIARG_SUBRESOURCE_UP up = { init, bytes, bytes };
    assert_true(fake_res_create(f, r, init ? &up : NULL));
    return r;
}

static inline struct fake_res *fake_tex2d(struct fake *f, UINT usage, DXGI_FORMAT fmt, UINT w, UINT h, UINT mips, UINT array,
                                   UINT cpu)
{
    struct fake_res *r = fake_res_new(D3D10DDIRESOURCE_TEXTURE2D, usage, fmt, w, h, 1, mips, array, cpu);
    assert_true(fake_res_create(f, r, NULL));
    return r;
}

/* The fake kernel's memory behind a resource (the allocation the UMD holds now). */
static inline struct fake_alloc *fake_mem(struct fake *f, struct fake_res *r)
{
    /* struct umd_resource is private to the UMD: find the allocation by runtime handle. */
    for (int i = 0; i < FAKE_MAX_ALLOCS; i++)
        if (f->allocs[i].live && f->allocs[i].hResource == r->rt.handle)
            return &f->allocs[i];
    fail_msg("no allocation for resource");
    return NULL;
}

static inline void fake_flush(struct fake *f) { f->df.pfnFlush(f->hDevice); }

/* Whether the resource has an allocation of its own (one made under its runtime handle). */
static inline int fake_has_own_allocation(struct fake *f, struct fake_res *r)
{
    for (int i = 0; i < FAKE_MAX_ALLOCS; i++)
        if (f->allocs[i].live && f->allocs[i].hResource == r->rt.handle)
            return 1;
    return 0;
}

/* Live allocations the predicate accepts (a pool's chunks, say). */
static inline int fake_count_allocs(struct fake *f, int (*pred)(const struct fake_alloc *))
{
    int n = 0;
    for (int i = 0; i < FAKE_MAX_ALLOCS; i++)
        n += f->allocs[i].live && pred(&f->allocs[i]);
    return n;
}

#endif /* TESTS_UMD_FAKE_H */
