/* Fuzzes the D3DKMT thunks (include/wddm/d3dkmthk.h: the graphics kernel's user-mode entry
 * points, down through VidMm, the scheduler, the reference KMD and the software GPU).
 *
 * The input decodes (fuzz_input.h) into at most MAX_OPS thunk calls on one device created for
 * the input (the adapter is opened once per process). Every handle argument is decoded: one
 * the input created of the right type, one of another type, a destroyed one, 0, or any value.
 * Every pointer is NULL or a fuzzer-owned heap buffer exactly as large as the size or count
 * the call is given (a caller cannot lie about its own buffers in-process: Windows would probe
 * them), so a read or write past what the call was given is an ASan report. Every return code
 * is accepted; the process must not crash, leak, trip a sanitizer or hang.
 *
 * Bounds on the work per input: waits from the CPU go through the timed variant
 * (wddm_wait_for_synchronization_object_from_cpu_timeout, the same rules) with at most 2 ms;
 * a wait from the GPU is followed at once by the CPU signal it waits for, so no queue stays
 * blocked; allocation sizes are bounded by small segments (WDDM_SEGMENT_*_MB) and the system
 * memory budget; command buffers by the kernel's own sizes.
 *
 * fuzz_kmt_gpummu.c is this harness in the WDDM 2.x GpuMmu model (configs/gpummu.caps). */
/* rule: build.every-fuzz-fuzz-name-c-libfuzzer */
/* rule: kernel.d3dkmt-thunk-call-decoded-handles-sizes */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wddm/d3dkmthk.h>
#include <wddm/wddm.h>

#include "drv/swgpu_private.h"
#include "fuzz_input.h"
#include "gpu/swgpu_isa.h"

#define MAX_OPS 48
#define MAX_HANDLES 32
#define MAX_ARRAY 64u /* entries of an array argument, beyond which only NULL is passed */

enum kind { K_ADAPTER, K_DEVICE, K_CONTEXT, K_ALLOC, K_RESOURCE, K_SYNC, K_PAGINGQ, K_SHARE, K_KMUTEX, K_COUNT };

struct table {
    D3DKMT_HANDLE h[MAX_HANDLES];
    UINT n;
};

struct alloc_info {
    D3DKMT_HANDLE h;
    D3DKMT_HANDLE device; /* destroyed with it */
    UINT64 size;
    void *locked; /* pData of a successful Lock / Lock2 */
};

struct context {
    D3DKMT_HANDLE h;
    D3DKMT_CREATECONTEXT cc; /* its current command buffer and lists */
};

struct state {
    struct table live[K_COUNT];
    struct table dead; /* destroyed handles of any kind */
    struct alloc_info allocs[MAX_HANDLES];
    UINT nallocs;
    struct context ctx[8];
    UINT nctx;
    D3DKMT_HANDLE device; /* the input's device */
    D3DKMT_HANDLE extra_devices[4];
    UINT nextra;
    D3DKMT_HANDLE opened_adapters[8];
    UINT nopened;
    D3DGPU_VIRTUAL_ADDRESS vas[8];
    D3DGPU_SIZE_T va_sizes[8];
    UINT nvas;
    void *notifications[8];       /* budget-change / trim registration handles */
    UINT nnotifications;
};

static D3DKMT_HANDLE adapter; /* opened once per process */
static LUID adapter_luid;

static void add(struct table *t, D3DKMT_HANDLE h)
{
    if (h && t->n < MAX_HANDLES)
        t->h[t->n++] = h;
}

static void kill(struct state *s, enum kind k, D3DKMT_HANDLE h)
{
    struct table *t = &s->live[k];
    for (UINT i = 0; i < t->n; i++)
        if (t->h[i] == h) {
            t->h[i] = t->h[--t->n];
            add(&s->dead, h);
            return;
        }
}

/* A handle argument: mostly one of the right kind, else a wrong, stale, null or forged one. */
static D3DKMT_HANDLE pick(struct fz *f, struct state *s, enum kind k)
{
    UINT8 sel = fz_u8(f);
    const struct table *t = &s->live[k];
    if (sel < 170 && t->n)
        return t->h[fz_u8(f) % t->n];
    if (sel < 200) {
        const struct table *o = &s->live[fz_u8(f) % K_COUNT];
        return o->n ? o->h[fz_u8(f) % o->n] : 0;
    }
    if (sel < 220 && s->dead.n)
        return s->dead.h[fz_u8(f) % s->dead.n];
    if (sel < 235)
        return 0;
    return fz_u32(f);
}

static struct alloc_info *find_alloc(struct state *s, D3DKMT_HANDLE h)
{
    for (UINT i = 0; i < s->nallocs; i++)
        if (s->allocs[i].h == h)
            return &s->allocs[i];
    return NULL;
}

static void forget_alloc(struct state *s, D3DKMT_HANDLE h)
{
    for (UINT i = 0; i < s->nallocs; i++)
        if (s->allocs[i].h == h) {
            s->allocs[i] = s->allocs[--s->nallocs];
            break;
        }
    kill(s, K_ALLOC, h);
}

/* An array argument of `count` handles of kind k: NULL or exactly `count` entries. */
static D3DKMT_HANDLE *handle_array(struct fz *f, struct state *s, enum kind k, UINT *count)
{
    *count = fz_size(f, 4);
    if (*count == 0 ? fz_u8(f) < 128 : *count > MAX_ARRAY || fz_u8(f) < 8)
        return NULL;
    D3DKMT_HANDLE *a = malloc(sizeof *a * (*count ? *count : 1));
    for (UINT i = 0; i < *count; i++)
        a[i] = pick(f, s, k);
    return a;
}

static UINT64 *value_array(struct fz *f, UINT count)
{
    if (count > MAX_ARRAY || fz_u8(f) < 8)
        return NULL;
    UINT64 *v = malloc(sizeof *v * (count ? count : 1));
    for (UINT i = 0; i < count; i++)
        v[i] = fz_u8(f) < 200 ? fz_u8(f) : fz_u64(f);
    return v;
}

/* ---- allocations -------------------------------------------------------------------------- */

static void op_create_allocation(struct fz *f, struct state *s)
{
    UINT n = fz_u8(f) < 230 ? 1 + fz_below(f, 3) : fz_size(f, 8);
    if (n > MAX_ARRAY)
        n = 0;
    D3DDDI_ALLOCATIONINFO *ai = calloc(n ? n : 1, sizeof *ai);
    struct swgpu_alloc_private *priv = calloc(n ? n : 1, sizeof *priv);
    void **blobs = calloc(n ? n : 1, sizeof *blobs); /* each exactly PrivateDriverDataSize bytes */
    for (UINT i = 0; i < n; i++) {
        struct swgpu_alloc_private *p = &priv[i];
        p->magic = fz_u8(f) < 245 ? SWGPU_PRIVATE_MAGIC : fz_u32(f);
        p->version = fz_u8(f) < 245 ? SWGPU_PRIVATE_VERSION : fz_u32(f);
        p->kind = fz_below(f, 7);
        p->format = fz_u8(f) < 200 ? 28 /* R8G8B8A8_UNORM */ : fz_u8(f);
        p->dimension = fz_below(f, 6);
        p->width = fz_size(f, 512);
        p->height = fz_size(f, 64);
        p->depth = fz_u8(f) < 240 ? 1 : fz_size(f, 8);
        p->mip_levels = fz_u8(f) < 240 ? 1 : fz_size(f, 12);
        p->array_size = fz_u8(f) < 240 ? 1 : fz_size(f, 8);
        UINT8 how = fz_u8(f);
        p->size = how < 200 ? (UINT64)(p->width ? p->width : 1) * (p->height ? p->height : 1) * 4
                            : how < 240 ? fz_u32(f) : fz_u64(f);
        p->usage = fz_below(f, 4);
        p->bind_flags = fz_u8(f);
        p->cpu_access = fz_u32(f) & 0x30000;
        p->misc_flags = fz_u8(f);
        p->flags = fz_below(f, 4);
        if (p->kind == SWGPU_ALLOC_CROSS_ADAPTER) {
            p->xa_usage = fz_below(f, 8);
            p->xa_bytes_per_pixel = fz_below(f, 17);
        }
        UINT psize = fz_u8(f) < 245 ? (UINT)sizeof *p : fz_below(f, 2 * sizeof *p);
        blobs[i] = calloc(1, psize ? psize : 1);
        memcpy(blobs[i], p, psize < sizeof *p ? psize : sizeof *p);
        ai[i].pPrivateDriverData = fz_u8(f) < 250 ? blobs[i] : NULL;
        ai[i].PrivateDriverDataSize = psize;
        ai[i].VidPnSourceId = fz_u8(f) < 245 ? 0 : fz_u32(f);
        ai[i].Flags.Value = fz_u8(f) < 230 ? 0 : fz_below(f, 4);
    }
    UINT8 runtime_data[64];
    fz_bytes(f, runtime_data, sizeof runtime_data);
    D3DKMT_CREATEALLOCATION ca = {0};
    ca.hDevice = pick(f, s, K_DEVICE);
    UINT32 fl = fz_u8(f) < 128 ? 0 : fz_u32(f) & 0x1FFF;
    memcpy(&ca.Flags, &fl, sizeof fl);
    ca.hResource = ca.Flags.CreateResource && fz_u8(f) < 64 ? pick(f, s, K_RESOURCE) : 0;
    ca.NumAllocations = n;
    ca.pAllocationInfo = fz_u8(f) < 250 ? ai : NULL;
    ca.pPrivateRuntimeData = fz_u8(f) < 128 ? runtime_data : NULL;
    ca.PrivateRuntimeDataSize = ca.pPrivateRuntimeData ? fz_below(f, sizeof runtime_data + 1) : 0;
    NTSTATUS st = D3DKMTCreateAllocation(&ca);
    if (st == STATUS_SUCCESS) {
        for (UINT i = 0; i < n; i++) {
            add(&s->live[K_ALLOC], ai[i].hAllocation);
            if (s->nallocs < MAX_HANDLES)
                s->allocs[s->nallocs++] = (struct alloc_info){ai[i].hAllocation, ca.hDevice, priv[i].size, NULL};
        }
        if (ca.Flags.CreateResource)
            add(&s->live[K_RESOURCE], ca.hResource);
        if (ca.hGlobalShare)
            add(&s->live[K_SHARE], ca.hGlobalShare);
    }
    for (UINT i = 0; i < n; i++)
        free(blobs[i]);
    free(blobs);
    free(ai);
    free(priv);
}

static void op_destroy_allocation(struct fz *f, struct state *s)
{
    D3DKMT_DESTROYALLOCATION da = {0};
    da.hDevice = pick(f, s, K_DEVICE);
    D3DKMT_HANDLE *list = NULL;
    if (fz_u8(f) < 40)
        da.hResource = pick(f, s, K_RESOURCE);
    else
        list = handle_array(f, s, K_ALLOC, &da.AllocationCount);
    da.phAllocationList = list;
    if (D3DKMTDestroyAllocation(&da) == STATUS_SUCCESS) {
        for (UINT i = 0; list && i < da.AllocationCount; i++)
            forget_alloc(s, list[i]);
        if (da.hResource)
            kill(s, K_RESOURCE, da.hResource); /* its allocations stay listed: stale handles now */
    }
    free(list);
}

/* Writes what the CPU may write through a lock (the allocation's own bytes). */
static void write_locked_bytes(struct alloc_info *a, struct fz *f)
{
    if (a && a->locked && a->size) {
        size_t n = a->size < 4096 ? (size_t)a->size : 4096;
        memset(a->locked, fz_u8(f), n);
    }
}

static void op_lock(struct fz *f, struct state *s)
{
    D3DKMT_LOCK l = {0};
    l.hDevice = pick(f, s, K_DEVICE);
    l.hAllocation = pick(f, s, K_ALLOC);
    l.Flags.Value = fz_u8(f) < 128 ? fz_u8(f) & 0x87 : fz_u32(f);
    UINT pages[4];
    if (fz_u8(f) < 20) {
        l.NumPages = fz_below(f, 5);
        for (UINT i = 0; i < l.NumPages; i++)
            pages[i] = fz_below(f, 8);
        l.pPages = l.NumPages ? pages : NULL;
    }
    l.PrivateDriverData = fz_u8(f) < 250 ? 0 : fz_u32(f);
    if (D3DKMTLock(&l) == STATUS_SUCCESS) {
        struct alloc_info *a = find_alloc(s, l.hAllocation);
        if (a && !l.NumPages) {
            a->locked = l.pData;
            write_locked_bytes(a, f);
        }
    }
}

static void op_unlock(struct fz *f, struct state *s)
{
    D3DKMT_UNLOCK u = {0};
    u.hDevice = pick(f, s, K_DEVICE);
    D3DKMT_HANDLE *list = handle_array(f, s, K_ALLOC, &u.NumAllocations);
    u.phAllocations = list;
    if (D3DKMTUnlock(&u) == STATUS_SUCCESS)
        for (UINT i = 0; list && i < u.NumAllocations; i++) {
            struct alloc_info *a = find_alloc(s, list[i]);
            if (a)
                a->locked = NULL;
        }
    free(list);
}

static void op_lock2(struct fz *f, struct state *s)
{
    if (fz_u8(f) < 160) {
        D3DKMT_LOCK2 l = {0};
        l.hDevice = pick(f, s, K_DEVICE);
        l.hAllocation = pick(f, s, K_ALLOC);
        UINT32 v = fz_u8(f) < 128 ? fz_below(f, 8) : fz_u32(f);
        memcpy(&l.Flags, &v, sizeof v < sizeof l.Flags ? sizeof v : sizeof l.Flags);
        if (D3DKMTLock2(&l) == STATUS_SUCCESS) {
            struct alloc_info *a = find_alloc(s, l.hAllocation);
            if (a) {
                a->locked = l.pData;
                write_locked_bytes(a, f);
            }
        }
    } else {
        D3DKMT_UNLOCK2 u = {pick(f, s, K_DEVICE), pick(f, s, K_ALLOC)};
        if (D3DKMTUnlock2(&u) == STATUS_SUCCESS) {
            struct alloc_info *a = find_alloc(s, u.hAllocation);
            if (a)
                a->locked = NULL;
        }
    }
}

/* ---- contexts and command buffers --------------------------------------------------------- */

static void op_create_context(struct fz *f, struct state *s)
{
    if (fz_u8(f) < 64 && s->nctx) {
        UINT i = fz_u8(f) % s->nctx;
        D3DKMT_DESTROYCONTEXT dc = {s->ctx[i].h};
        if (D3DKMTDestroyContext(&dc) == STATUS_SUCCESS) {
            kill(s, K_CONTEXT, s->ctx[i].h);
            s->ctx[i] = s->ctx[--s->nctx];
        }
        return;
    }
    D3DKMT_CREATECONTEXT cc = {0};
    cc.hDevice = pick(f, s, K_DEVICE);
    cc.NodeOrdinal = fz_u8(f) < 200 ? fz_below(f, 3) : fz_u32(f);
    cc.EngineAffinity = fz_u8(f) < 200 ? 0 : fz_u32(f);
    cc.Flags.Value = fz_u8(f) < 200 ? 0 : fz_u32(f);
    UINT8 priv[32];
    fz_bytes(f, priv, sizeof priv);
    if (fz_u8(f) < 30) {
        cc.pPrivateDriverData = priv;
        cc.PrivateDriverDataSize = fz_below(f, sizeof priv + 1);
    }
    cc.ClientHint = fz_below(f, 12);
    if (D3DKMTCreateContext(&cc) == STATUS_SUCCESS) {
        add(&s->live[K_CONTEXT], cc.hContext);
        if (s->nctx < 8)
            s->ctx[s->nctx++] = (struct context){cc.hContext, cc};
    }
}

/* Appends one command to the context's buffer: a well-formed COPY / FILL / WRITE whose address
 * fields are patched to entries of the allocation list (with decoded sizes and offsets), or
 * raw bytes; *patches grows by the patch entries written. */
static UINT put_command(struct fz *f, struct context *c, UINT at, UINT nalloc, UINT *npatch)
{
    BYTE *cmd = (BYTE *)c->cc.pCommandBuffer + at;
    UINT room = c->cc.CommandBufferSize - at;
    UINT8 what = fz_u8(f) % 5;
    UINT32 rb = fz_size(f, 300), rows = fz_u8(f) < 200 ? 1 + fz_below(f, 4) : fz_size(f, 16);
    UINT32 slices = fz_u8(f) < 220 ? 1 : fz_size(f, 4);
    struct swgpu_region r1 = {0, fz_u8(f) < 200 ? rb : fz_u32(f), fz_u8(f) < 200 ? rb * rows : fz_u32(f)};
    struct swgpu_region r2 = {0, fz_u8(f) < 200 ? rb : fz_u32(f), fz_u8(f) < 200 ? rb * rows : fz_u32(f)};
    UINT size = 0, fields[2], nfields = 0;
    if (what == 0 && room >= sizeof(struct swgpu_cmd_copy)) {
        struct swgpu_cmd_copy k = {{SWGPU_OP_COPY, sizeof k}, r1, r2, rb, rows, slices, 0};
        memcpy(cmd, &k, size = sizeof k);
        fields[nfields++] = offsetof(struct swgpu_cmd_copy, dst.addr);
        fields[nfields++] = offsetof(struct swgpu_cmd_copy, src.addr);
    } else if (what == 1 && room >= sizeof(struct swgpu_cmd_fill)) {
        struct swgpu_cmd_fill k = {{SWGPU_OP_FILL, sizeof k}, r1, rb, rows, slices, 1u << fz_below(f, 5), {0}};
        fz_bytes(f, k.pattern, sizeof k.pattern);
        memcpy(cmd, &k, size = sizeof k);
        fields[nfields++] = offsetof(struct swgpu_cmd_fill, dst.addr);
    } else if (what == 2) {
        UINT64 payload = (UINT64)rb * rows * slices;
        if (payload <= 4096 && room >= sizeof(struct swgpu_cmd_write) + swgpu_align8((UINT32)payload)) {
            struct swgpu_cmd_write k = {{SWGPU_OP_WRITE, (UINT32)(sizeof k + swgpu_align8((UINT32)payload))}, r1, rb,
                                        rows, slices, 0};
            memcpy(cmd, &k, sizeof k);
            memset(cmd + sizeof k, fz_u8(f), swgpu_align8((UINT32)payload));
            size = k.hdr.size_bytes;
            fields[nfields++] = offsetof(struct swgpu_cmd_write, dst.addr);
        }
    } else if (what == 4 && room >= sizeof(struct swgpu_cmd_store_reg)) {
        /* The context's registers (issue 20 §1): a register index may be out of range. */
        UINT32 reg = fz_u8(f) < 230 ? fz_below(f, SWGPU_STATE_REGS) : fz_u32(f);
        if (fz_u8(f) & 1) {
            struct swgpu_cmd_set_reg k = {{SWGPU_OP_SET_REG, sizeof k}, reg, 0, fz_u64(f)};
            memcpy(cmd, &k, size = sizeof k);
        } else {
            struct swgpu_cmd_store_reg k = {{SWGPU_OP_STORE_REG, sizeof k}, r1, reg, 0};
            memcpy(cmd, &k, size = sizeof k);
            fields[nfields++] = offsetof(struct swgpu_cmd_store_reg, dst.addr);
        }
    } else if (what == 3) {
        size = fz_below(f, 65);
        if (size > room)
            size = room;
        fz_bytes(f, cmd, size); /* raw bytes, header included */
    }
    for (UINT i = 0; i < nfields; i++) {
        if (fz_u8(f) < 15 || *npatch >= c->cc.PatchLocationListSize)
            continue; /* an unpatched address field */
        D3DDDI_PATCHLOCATIONLIST *p = &c->cc.pPatchLocationList[(*npatch)++];
        memset(p, 0, sizeof *p);
        p->AllocationIndex = fz_u8(f) < 240 ? (nalloc ? fz_u8(f) % nalloc : 0) : fz_u32(f);
        p->AllocationOffset = fz_u8(f) < 200 ? fz_below(f, 64) : fz_u32(f);
        p->PatchOffset = at + (fz_u8(f) < 245 ? fields[i] : fz_below(f, 64));
        p->SlotId = fz_u8(f) < 245 ? 0 : fz_u32(f);
    }
    return size;
}

static struct context *pick_context(struct fz *f, struct state *s)
{
    return s->nctx ? &s->ctx[fz_u8(f) % s->nctx] : NULL;
}

static void op_render(struct fz *f, struct state *s)
{
    struct context *c = pick_context(f, s);
    D3DKMT_RENDER r;
    memset(&r, 0, sizeof r);
    if (!c || !c->cc.pCommandBuffer || !c->cc.pAllocationList || !c->cc.pPatchLocationList) {
        r.hContext = pick(f, s, K_CONTEXT);
        r.CommandLength = fz_size(f, 64);
        D3DKMTRender(&r);
        return;
    }
    UINT nalloc = fz_below(f, 5);
    if (nalloc > c->cc.AllocationListSize)
        nalloc = c->cc.AllocationListSize;
    for (UINT i = 0; i < nalloc; i++) {
        c->cc.pAllocationList[i].hAllocation = pick(f, s, K_ALLOC);
        c->cc.pAllocationList[i].Value = fz_u8(f) < 200 ? fz_below(f, 2) : fz_u32(f);
    }
    UINT len = 0, npatch = 0, ncmd = 1 + fz_below(f, 4);
    for (UINT i = 0; i < ncmd && len < c->cc.CommandBufferSize; i++)
        len += put_command(f, c, len, nalloc, &npatch);
    r.hContext = fz_u8(f) < 240 ? c->h : pick(f, s, K_CONTEXT);
    r.CommandOffset = fz_u8(f) < 240 ? 0 : fz_size(f, 64);
    r.CommandLength = fz_u8(f) < 230 ? len : fz_size(f, 4096);
    r.AllocationCount = fz_u8(f) < 230 ? nalloc : fz_size(f, 8);
    r.PatchLocationCount = fz_u8(f) < 230 ? npatch : fz_size(f, 8);
    r.Flags.NullRendering = fz_u8(f) < 10;
    if (fz_u8(f) < 20) {
        r.Flags.ResizeCommandBuffer = fz_u8(f) & 1;
        r.Flags.ResizeAllocationList = fz_u8(f) & 1;
        r.Flags.ResizePatchLocationList = fz_u8(f) & 1;
        r.NewCommandBufferSize = fz_size(f, 1 << 16);
        r.NewAllocationListSize = fz_size(f, 256);
        r.NewPatchLocationListSize = fz_size(f, 256);
    }
    if (fz_u8(f) < 10) {
        r.BroadcastContextCount = fz_size(f, 2);
        for (UINT i = 0; i < 64 && i < r.BroadcastContextCount; i++)
            r.BroadcastContext[i] = pick(f, s, K_CONTEXT);
    }
    if (D3DKMTRender(&r) == STATUS_SUCCESS && r.hContext == c->h) {
        c->cc.pCommandBuffer = r.pNewCommandBuffer;
        c->cc.CommandBufferSize = r.NewCommandBufferSize;
        c->cc.pAllocationList = r.pNewAllocationList;
        c->cc.AllocationListSize = r.NewAllocationListSize;
        c->cc.pPatchLocationList = r.pNewPatchLocationList;
        c->cc.PatchLocationListSize = r.NewPatchLocationListSize;
    }
}

/* GpuMmu: a command buffer written through a lock of a mapped allocation, submitted by VA. */
static void op_submit_command(struct fz *f, struct state *s)
{
    D3DKMT_SUBMITCOMMAND sc;
    memset(&sc, 0, sizeof sc);
    if (s->nvas && fz_u8(f) < 200) {
        UINT i = fz_u8(f) % s->nvas;
        sc.Commands = s->vas[i] + (fz_u8(f) < 200 ? 0 : fz_below(f, 64) * 8);
        sc.CommandLength = fz_u8(f) < 200 ? (UINT)(s->va_sizes[i] < 4096 ? s->va_sizes[i] : 4096) : fz_size(f, 8192);
    } else {
        sc.Commands = fz_u64(f);
        sc.CommandLength = fz_size(f, 4096);
    }
    sc.BroadcastContextCount = fz_u8(f) < 240 ? 1 : fz_size(f, 2);
    for (UINT i = 0; i < 64 && i < sc.BroadcastContextCount; i++)
        sc.BroadcastContext[i] = pick(f, s, K_CONTEXT);
    sc.Flags.NullRendering = fz_u8(f) < 10;
    D3DKMTSubmitCommand(&sc);
}

/* ---- synchronization objects -------------------------------------------------------------- */

static void op_sync_create(struct fz *f, struct state *s)
{
    if (fz_u8(f) < 50) {
        D3DKMT_DESTROYSYNCHRONIZATIONOBJECT d = {pick(f, s, K_SYNC)};
        if (D3DKMTDestroySynchronizationObject(&d) == STATUS_SUCCESS)
            kill(s, K_SYNC, d.hSyncObject);
        return;
    }
    if (fz_u8(f) < 30) { /* a global handle: a sync object's, a resource's, or forged */
        D3DKMT_OPENSYNCHRONIZATIONOBJECT o;
        memset(&o, 0, sizeof o);
        o.hSharedHandle = pick(f, s, K_SHARE);
        if (D3DKMTOpenSynchronizationObject(&o) == STATUS_SUCCESS)
            add(&s->live[K_SYNC], o.hSyncObject);
        return;
    }
    if (fz_u8(f) < 30) { /* the first form: mutexes and semaphores */
        D3DKMT_CREATESYNCHRONIZATIONOBJECT c1;
        memset(&c1, 0, sizeof c1);
        c1.hDevice = pick(f, s, K_DEVICE);
        c1.Info.Type = fz_below(f, 8);
        c1.Info.Semaphore.MaxCount = fz_below(f, 4);
        c1.Info.Semaphore.InitialCount = fz_below(f, 4);
        if (D3DKMTCreateSynchronizationObject(&c1) == STATUS_SUCCESS)
            add(&s->live[K_SYNC], c1.hSyncObject);
        return;
    }
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 c;
    memset(&c, 0, sizeof c);
    c.hDevice = pick(f, s, K_DEVICE);
    c.Info.Type = fz_u8(f) < 200 ? D3DDDI_MONITORED_FENCE : fz_below(f, 9);
    c.Info.Flags.Shared = fz_u8(f) < 40;
    /* Not NoSignal (0x10): a GPU wait on it would block its queue for ever, on Windows too. */
    c.Info.Flags.Value = fz_u8(f) < 200 ? 0 : fz_u32(f) & ~0x10u;
    c.Info.MonitoredFence.InitialFenceValue = fz_u8(f) < 200 ? fz_u8(f) : fz_u64(f);
    c.Info.MonitoredFence.EngineAffinity = fz_u8(f) < 240 ? 0 : fz_u32(f);
    if (D3DKMTCreateSynchronizationObject2(&c) == STATUS_SUCCESS) {
        add(&s->live[K_SYNC], c.hSyncObject);
        add(&s->live[K_SHARE], c.Info.SharedHandle);
    }
}

/* The first forms' GPU signals (mutexes, semaphores, fences, CPU notifications). Their waits
 * are left out: a wait on a mutex nobody frees holds its context for ever, on Windows too. */
static void op_sync_gpu_legacy(struct fz *f, struct state *s)
{
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECT2 a;
    memset(&a, 0, sizeof a);
    a.hContext = pick(f, s, K_CONTEXT);
    a.ObjectCount = fz_u8(f) < 240 ? 1 + fz_below(f, 3) : fz_size(f, 40);
    for (UINT i = 0; i < a.ObjectCount && i < D3DDDI_MAX_OBJECT_SIGNALED; i++)
        a.ObjectHandleArray[i] = pick(f, s, K_SYNC);
    a.Flags.Value = fz_u8(f) < 200 ? fz_below(f, 8) : fz_u32(f);
    a.BroadcastContextCount = fz_u8(f) < 240 ? 0 : fz_size(f, 2);
    a.Fence.FenceValue = fz_u64(f); /* also a forged CpuEventHandle under EnqueueCpuEvent */
    if (fz_u8(f) & 1) {
        D3DKMT_SIGNALSYNCHRONIZATIONOBJECT a1;
        memset(&a1, 0, sizeof a1);
        a1.hContext = a.hContext;
        a1.ObjectCount = a.ObjectCount;
        memcpy(a1.ObjectHandleArray, a.ObjectHandleArray, sizeof a1.ObjectHandleArray);
        a1.Flags = a.Flags;
        D3DKMTSignalSynchronizationObject(&a1);
    } else {
        D3DKMTSignalSynchronizationObject2(&a);
    }
}

static void op_sync_cpu(struct fz *f, struct state *s)
{
    int signal = fz_u8(f) & 1;
    D3DKMT_HANDLE dev = pick(f, s, K_DEVICE);
    UINT count;
    D3DKMT_HANDLE *objs = handle_array(f, s, K_SYNC, &count);
    UINT64 *vals = value_array(f, count);
    if (signal) {
        D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMCPU a = {dev, count, objs, vals, {{0}}};
        a.Flags.Value = fz_u8(f) < 200 ? 0 : fz_u32(f);
        D3DKMTSignalSynchronizationObjectFromCpu(&a);
    } else {
        D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU a = {dev, count, objs, vals, NULL, {{0}}};
        a.Flags.Value = fz_u8(f) < 200 ? fz_below(f, 2) : fz_u32(f);
        wddm_wait_for_synchronization_object_from_cpu_timeout(&a, fz_below(f, 3));
    }
    free(objs);
    free(vals);
}

static void op_sync_gpu(struct fz *f, struct state *s)
{
    int signal = fz_u8(f) & 1;
    D3DKMT_HANDLE ctx = pick(f, s, fz_u8(f) < 200 ? K_CONTEXT : K_PAGINGQ); /* a paging queue signals too */
    UINT count;
    D3DKMT_HANDLE *objs = handle_array(f, s, K_SYNC, &count);
    UINT64 *vals = value_array(f, count);
    if (signal) {
        D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMGPU a;
        memset(&a, 0, sizeof a);
        a.hContext = ctx;
        a.ObjectCount = count;
        a.ObjectHandleArray = objs;
        a.MonitoredFenceValueArray = vals;
        D3DKMTSignalSynchronizationObjectFromGpu(&a);
    } else {
        D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMGPU a;
        memset(&a, 0, sizeof a);
        a.hContext = ctx;
        a.ObjectCount = count;
        a.ObjectHandleArray = objs;
        a.MonitoredFenceValueArray = vals;
        if (D3DKMTWaitForSynchronizationObjectFromGpu(&a) == STATUS_SUCCESS && objs && vals) {
            /* What the queue now waits for is signalled at once: no queue stays blocked. */
            D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMCPU sig = {s->device, 1, NULL, NULL, {{0}}};
            for (UINT i = 0; i < count; i++) {
                sig.ObjectHandleArray = &objs[i];
                sig.FenceValueArray = &vals[i];
                D3DKMTSignalSynchronizationObjectFromCpu(&sig);
                for (UINT d = 0; d < s->nextra; d++) {
                    sig.hDevice = s->extra_devices[d];
                    D3DKMTSignalSynchronizationObjectFromCpu(&sig);
                }
                sig.hDevice = s->device;
            }
        }
    }
    free(objs);
    free(vals);
}

/* Keyed mutexes: create, open by a global handle (theirs, a sync object's, a resource's or
 * forged), acquire without waiting (timeout 0: an input never blocks), release, destroy. */
static void op_keyed_mutex(struct fz *f, struct state *s)
{
    UINT what = fz_u8(f) % 5;
    if (what == 0) {
        D3DKMT_CREATEKEYEDMUTEX c;
        memset(&c, 0, sizeof c);
        c.InitialValue = fz_below(f, 3);
        if (D3DKMTCreateKeyedMutex(&c) == STATUS_SUCCESS) {
            add(&s->live[K_KMUTEX], c.hKeyedMutex);
            add(&s->live[K_SHARE], c.hSharedHandle);
        }
    } else if (what == 1) {
        D3DKMT_OPENKEYEDMUTEX o;
        memset(&o, 0, sizeof o);
        o.hSharedHandle = pick(f, s, K_SHARE);
        if (D3DKMTOpenKeyedMutex(&o) == STATUS_SUCCESS)
            add(&s->live[K_KMUTEX], o.hKeyedMutex);
    } else if (what == 2) {
        LARGE_INTEGER zero = {.QuadPart = 0};
        D3DKMT_ACQUIREKEYEDMUTEX a;
        memset(&a, 0, sizeof a);
        a.hKeyedMutex = pick(f, s, K_KMUTEX);
        a.Key = fz_below(f, 3);
        a.pTimeout = &zero;
        D3DKMTAcquireKeyedMutex(&a);
    } else if (what == 3) {
        D3DKMT_RELEASEKEYEDMUTEX r;
        memset(&r, 0, sizeof r);
        r.hKeyedMutex = pick(f, s, K_KMUTEX);
        r.Key = fz_below(f, 3);
        r.FenceValue = fz_u64(f);
        D3DKMTReleaseKeyedMutex(&r);
    } else {
        D3DKMT_DESTROYKEYEDMUTEX d = {pick(f, s, K_KMUTEX)};
        if (D3DKMTDestroyKeyedMutex(&d) == STATUS_SUCCESS)
            kill(s, K_KMUTEX, d.hKeyedMutex);
    }
}

static void APIENTRY fz_on_budget(D3DKMT_BUDGETCHANGENOTIFICATION *n)
{
    (void)n;
}

static void APIENTRY fz_on_trim(D3DKMT_TRIMNOTIFICATION *n)
{
    (void)n;
}

/* Other processes' pressure and the notifications it reaches (vidmm/process_budget.c). */
static void op_budget(struct fz *f, struct state *s)
{
    UINT what = fz_u8(f) % 4;
    if (what == 0 && s->nnotifications < 8) {
        D3DKMT_REGISTERBUDGETCHANGENOTIFICATION r;
        memset(&r, 0, sizeof r);
        r.hDevice = pick(f, s, K_DEVICE);
        r.Callback = fz_u8(f) < 240 ? fz_on_budget : NULL;
        if (D3DKMTRegisterBudgetChangeNotification(&r) == STATUS_SUCCESS)
            s->notifications[s->nnotifications++] = r.Handle;
    } else if (what == 1 && s->nnotifications < 8) {
        D3DKMT_REGISTERTRIMNOTIFICATION r;
        memset(&r, 0, sizeof r);
        r.AdapterLuid = fz_u8(f) < 240 ? adapter_luid : (LUID){fz_u32(f), 0};
        r.hDevice = pick(f, s, K_DEVICE);
        r.Callback = fz_on_trim;
        if (D3DKMTRegisterTrimNotification(&r) == STATUS_SUCCESS)
            s->notifications[s->nnotifications++] = r.Handle;
    } else if (what == 2) {
        /* A registration's handle (maybe already gone with its device) or a forged pointer. */
        void *h = s->nnotifications && fz_u8(f) < 220 ? s->notifications[fz_below(f, s->nnotifications)]
                                                       : (void *)(uintptr_t)fz_u64(f);
        if (fz_u8(f) & 1) {
            D3DKMT_UNREGISTERBUDGETCHANGENOTIFICATION u = {h};
            D3DKMTUnregisterBudgetChangeNotification(&u);
        } else {
            D3DKMT_UNREGISTERTRIMNOTIFICATION u = {h, fz_on_trim};
            D3DKMTUnregisterTrimNotification(&u);
        }
    } else {
        wddm_vidmm_set_external_usage(fz_u8(f) < 240 ? adapter : pick(f, s, K_ADAPTER), fz_below(f, 3),
                                      fz_u8(f) < 200 ? (UINT64)fz_below(f, 64) << 20 : fz_u64(f));
    }
}

/* ---- residency, priorities, paging queues, GPU virtual addresses -------------------------- */

static void op_residency(struct fz *f, struct state *s)
{
    UINT count;
    D3DKMT_HANDLE *list = handle_array(f, s, K_ALLOC, &count);
    if (fz_u8(f) & 1) {
        D3DDDI_MAKERESIDENT m;
        memset(&m, 0, sizeof m);
        m.hPagingQueue = pick(f, s, fz_u8(f) < 200 ? K_PAGINGQ : K_DEVICE);
        m.NumAllocations = count;
        m.AllocationList = list;
        m.Flags.Value = fz_u8(f) < 200 ? fz_below(f, 4) : fz_u32(f);
        D3DKMTMakeResident(&m);
    } else {
        D3DKMT_EVICT e;
        memset(&e, 0, sizeof e);
        e.hDevice = pick(f, s, K_DEVICE);
        e.NumAllocations = count;
        e.AllocationList = list;
        e.Flags.Value = fz_u8(f) < 200 ? fz_below(f, 4) : fz_u32(f);
        D3DKMTEvict(&e);
    }
    free(list);
}

static void op_priority(struct fz *f, struct state *s)
{
    D3DKMT_SETALLOCATIONPRIORITY p;
    memset(&p, 0, sizeof p);
    p.hDevice = pick(f, s, K_DEVICE);
    D3DKMT_HANDLE *list = NULL;
    if (fz_u8(f) < 60)
        p.hResource = pick(f, s, K_RESOURCE);
    else
        list = handle_array(f, s, K_ALLOC, &p.AllocationCount);
    p.phAllocationList = list;
    UINT n = p.hResource ? 1 : p.AllocationCount;
    UINT *prio = n <= MAX_ARRAY && fz_u8(f) > 8 ? malloc(sizeof *prio * (n ? n : 1)) : NULL;
    for (UINT i = 0; prio && i < n; i++)
        prio[i] = fz_u8(f) < 200 ? D3DDDI_ALLOCATIONPRIORITY_MINIMUM * (1 + fz_below(f, 5)) : fz_u32(f);
    p.pPriorities = prio;
    D3DKMTSetAllocationPriority(&p);
    free(list);
    free(prio);
}

static void op_paging_queue(struct fz *f, struct state *s)
{
    if (fz_u8(f) < 60) {
        D3DKMT_DESTROYPAGINGQUEUE d = {pick(f, s, K_PAGINGQ)};
        if (D3DKMTDestroyPagingQueue(&d) == STATUS_SUCCESS)
            kill(s, K_PAGINGQ, d.hPagingQueue);
        return;
    }
    D3DKMT_CREATEPAGINGQUEUE c;
    memset(&c, 0, sizeof c);
    c.hDevice = pick(f, s, K_DEVICE);
    c.Priority = fz_u8(f) < 200 ? (int)fz_below(f, 3) - 1 : (int)fz_u32(f);
    c.PhysicalAdapterIndex = fz_u8(f) < 240 ? 0 : fz_u32(f);
    if (D3DKMTCreatePagingQueue(&c) == STATUS_SUCCESS)
        add(&s->live[K_PAGINGQ], c.hPagingQueue);
}

static UINT64 small_or_any(struct fz *f, UINT64 small_max)
{
    return fz_u8(f) < 200 ? fz_u64(f) % (small_max + 1) : fz_u64(f);
}

static void op_va(struct fz *f, struct state *s)
{
    UINT8 what = fz_u8(f) % 3;
    if (what == 0) {
        D3DDDI_MAPGPUVIRTUALADDRESS m;
        memset(&m, 0, sizeof m);
        m.hPagingQueue = pick(f, s, fz_u8(f) < 200 ? K_PAGINGQ : K_DEVICE);
        m.hAllocation = pick(f, s, K_ALLOC);
        if (fz_u8(f) < 60)
            m.BaseAddress = (s->nvas && fz_u8(f) < 128) ? s->vas[fz_u8(f) % s->nvas] : small_or_any(f, 1ull << 32) & ~0xFFFull;
        m.MinimumAddress = fz_u8(f) < 220 ? 0 : small_or_any(f, 1ull << 32);
        m.MaximumAddress = fz_u8(f) < 220 ? 0 : small_or_any(f, 1ull << 33);
        m.OffsetInPages = fz_u8(f) < 220 ? 0 : small_or_any(f, 8);
        struct alloc_info *a = find_alloc(s, m.hAllocation);
        m.SizeInPages = a && fz_u8(f) < 220 ? (a->size + 4095) / 4096 : small_or_any(f, 16);
        m.Protection.Value = fz_u8(f) < 200 ? fz_below(f, 2) : fz_u64(f);
        m.DriverProtection = fz_u8(f) < 240 ? 0 : fz_u64(f);
        if (D3DKMTMapGpuVirtualAddress(&m) == STATUS_SUCCESS && s->nvas < 8) {
            s->vas[s->nvas] = m.VirtualAddress;
            s->va_sizes[s->nvas++] = m.SizeInPages * 4096;
        }
    } else if (what == 1) {
        D3DDDI_RESERVEGPUVIRTUALADDRESS r;
        memset(&r, 0, sizeof r);
        r.hAdapter = fz_u8(f) < 220 ? adapter : pick(f, s, K_ADAPTER);
        r.BaseAddress = fz_u8(f) < 200 ? 0 : small_or_any(f, 1ull << 32);
        r.MinimumAddress = fz_u8(f) < 220 ? 0 : small_or_any(f, 1ull << 32);
        r.MaximumAddress = fz_u8(f) < 220 ? 0 : small_or_any(f, 1ull << 33);
        r.Size = fz_u8(f) < 200 ? (1 + fz_below(f, 16)) * 4096ull : small_or_any(f, 1ull << 40);
        r.ReservationType = fz_below(f, 4);
        r.DriverProtection = fz_u8(f) < 240 ? 0 : fz_u64(f);
        if (D3DKMTReserveGpuVirtualAddress(&r) == STATUS_SUCCESS && s->nvas < 8) {
            s->vas[s->nvas] = r.VirtualAddress;
            s->va_sizes[s->nvas++] = r.Size;
        }
    } else {
        D3DKMT_FREEGPUVIRTUALADDRESS fr;
        memset(&fr, 0, sizeof fr);
        fr.hAdapter = fz_u8(f) < 220 ? adapter : pick(f, s, K_ADAPTER);
        UINT i = s->nvas ? fz_u8(f) % s->nvas : 0;
        if (s->nvas && fz_u8(f) < 200) {
            fr.BaseAddress = s->vas[i];
            fr.Size = fz_u8(f) < 220 ? s->va_sizes[i] : small_or_any(f, 1 << 20);
        } else {
            fr.BaseAddress = small_or_any(f, 1ull << 32);
            fr.Size = small_or_any(f, 1 << 20);
        }
        if (D3DKMTFreeGpuVirtualAddress(&fr) == STATUS_SUCCESS && s->nvas && fr.BaseAddress == s->vas[i])
            s->vas[i] = s->vas[--s->nvas], s->va_sizes[i] = s->va_sizes[s->nvas];
    }
}

/* ---- adapters, devices, queries ----------------------------------------------------------- */

static void op_query(struct fz *f, struct state *s)
{
    UINT8 what = fz_u8(f) % 5;
    if (what == 0) {
        static const UINT types[] = {KMTQAITYPE_UMDRIVERPRIVATE, KMTQAITYPE_UMDRIVERNAME, KMTQAITYPE_GETSEGMENTSIZE,
                                     KMTQAITYPE_WDDM_DRIVERCAPS, KMTQAITYPE_WDDM_SEGMENTS, KMTQAITYPE_WDDM_COUNTERS};
        D3DKMT_QUERYADAPTERINFO q;
        memset(&q, 0, sizeof q);
        q.hAdapter = fz_u8(f) < 200 ? adapter : pick(f, s, K_ADAPTER);
        q.Type = fz_u8(f) < 230 ? types[fz_below(f, 6)] : fz_u32(f);
        UINT size = fz_size(f, 1024);
        if (size > 1 << 16)
            size = 0;
        void *buf = size && fz_u8(f) > 8 ? malloc(size) : NULL;
        q.pPrivateDriverData = buf;
        q.PrivateDriverDataSize = size;
        D3DKMTQueryAdapterInfo(&q);
        free(buf);
    } else if (what == 1) {
        D3DKMT_GETDEVICESTATE g;
        memset(&g, 0, sizeof g);
        g.hDevice = pick(f, s, K_DEVICE);
        g.StateType = fz_u8(f) < 220 ? fz_below(f, 7) : fz_u32(f);
        D3DKMTGetDeviceState(&g);
    } else if (what == 2) {
        if (fz_u8(f) & 1) {
            D3DKMT_SETCONTEXTSCHEDULINGPRIORITY p = {pick(f, s, K_CONTEXT), fz_u8(f) < 200 ? (INT)fz_below(f, 17) - 8
                                                                                           : (INT)fz_u32(f)};
            D3DKMTSetContextSchedulingPriority(&p);
        } else {
            D3DKMT_GETCONTEXTSCHEDULINGPRIORITY p = {pick(f, s, K_CONTEXT), 0};
            D3DKMTGetContextSchedulingPriority(&p);
        }
    } else if (what == 3) {
        D3DKMT_QUERYVIDEOMEMORYINFO q;
        memset(&q, 0, sizeof q);
        q.hAdapter = fz_u8(f) < 200 ? adapter : pick(f, s, K_ADAPTER);
        q.hProcess = fz_u8(f) < 240 ? NULL : (HANDLE)(uintptr_t)fz_u32(f);
        q.MemorySegmentGroup = fz_u8(f) < 220 ? fz_below(f, 2) : fz_u32(f);
        q.PhysicalAdapterIndex = fz_u8(f) < 240 ? 0 : fz_u32(f);
        D3DKMTQueryVideoMemoryInfo(&q);
        if (fz_u8(f) < 100) {
            D3DKMT_CHANGEVIDEOMEMORYRESERVATION c;
            memset(&c, 0, sizeof c);
            c.hAdapter = q.hAdapter;
            c.hProcess = q.hProcess;
            c.MemorySegmentGroup = q.MemorySegmentGroup;
            c.Reservation = fz_u8(f) < 100 ? q.AvailableForReservation / (1 + fz_below(f, 4)) : fz_u64(f);
            c.PhysicalAdapterIndex = q.PhysicalAdapterIndex;
            D3DKMTChangeVideoMemoryReservation(&c);
        }
    } else {
        struct swgpu_escape e;
        memset(&e, 0, sizeof e);
        e.magic = fz_u8(f) < 245 ? SWGPU_PRIVATE_MAGIC : fz_u32(f);
        e.version = fz_u8(f) < 245 ? SWGPU_PRIVATE_VERSION : fz_u32(f);
        e.op = fz_below(f, 4);
        e.hAllocation = pick(f, s, K_ALLOC);
        e.offset = fz_size(f, 512);
        e.size = fz_size(f, SWGPU_ESCAPE_DATA_MAX + 8);
        D3DKMT_ESCAPE x;
        memset(&x, 0, sizeof x);
        x.hAdapter = fz_u8(f) < 220 ? adapter : pick(f, s, K_ADAPTER);
        x.hDevice = fz_u8(f) < 128 ? 0 : pick(f, s, K_DEVICE);
        x.hContext = fz_u8(f) < 200 ? 0 : pick(f, s, K_CONTEXT);
        x.Type = fz_u8(f) < 240 ? D3DKMT_ESCAPE_DRIVERPRIVATE : fz_u32(f);
        x.Flags.Value = fz_u8(f) < 200 ? 0 : fz_u32(f);
        x.pPrivateDriverData = fz_u8(f) < 250 ? &e : NULL;
        x.PrivateDriverDataSize = fz_u8(f) < 230 ? (UINT)sizeof e : fz_below(f, sizeof e + 1);
        D3DKMTEscape(&x);
    }
}

static void op_share(struct fz *f, struct state *s)
{
    D3DKMT_QUERYRESOURCEINFO q;
    memset(&q, 0, sizeof q);
    q.hDevice = pick(f, s, K_DEVICE);
    q.hGlobalShare = pick(f, s, K_SHARE);
    UINT8 runtime[128];
    q.pPrivateRuntimeData = fz_u8(f) < 200 ? runtime : NULL;
    q.PrivateRuntimeDataSize = fz_u8(f) < 200 ? (UINT)sizeof runtime : fz_below(f, sizeof runtime + 1);
    if (D3DKMTQueryResourceInfo(&q) != STATUS_SUCCESS || fz_u8(f) < 20)
        return;
    if (q.NumAllocations > MAX_ARRAY || q.TotalPrivateDriverDataSize > (1u << 20) ||
        q.ResourcePrivateDriverDataSize > (1u << 20))
        return;
    D3DKMT_OPENRESOURCE o;
    memset(&o, 0, sizeof o);
    o.hDevice = fz_u8(f) < 230 ? q.hDevice : pick(f, s, K_DEVICE);
    o.hGlobalShare = q.hGlobalShare;
    o.NumAllocations = fz_u8(f) < 230 ? q.NumAllocations : fz_below(f, 4);
    D3DDDI_OPENALLOCATIONINFO *oi = calloc(o.NumAllocations ? o.NumAllocations : 1, sizeof *oi);
    o.pOpenAllocationInfo = fz_u8(f) < 250 ? oi : NULL;
    UINT rsize = fz_u8(f) < 230 ? q.ResourcePrivateDriverDataSize : fz_below(f, 64);
    UINT tsize = fz_u8(f) < 230 ? q.TotalPrivateDriverDataSize : fz_below(f, 256);
    void *rbuf = rsize ? malloc(rsize) : NULL, *tbuf = tsize ? malloc(tsize) : NULL;
    o.pResourcePrivateDriverData = rbuf;
    o.ResourcePrivateDriverDataSize = rsize;
    o.pTotalPrivateDriverDataBuffer = tbuf;
    o.TotalPrivateDriverDataBufferSize = tsize;
    o.pPrivateRuntimeData = runtime;
    o.PrivateRuntimeDataSize = q.PrivateRuntimeDataSize <= sizeof runtime ? q.PrivateRuntimeDataSize : 0;
    if (D3DKMTOpenResource(&o) == STATUS_SUCCESS) {
        add(&s->live[K_RESOURCE], o.hResource);
        for (UINT i = 0; o.pOpenAllocationInfo && i < o.NumAllocations; i++) {
            add(&s->live[K_ALLOC], oi[i].hAllocation);
            if (s->nallocs < MAX_HANDLES)
                s->allocs[s->nallocs++] = (struct alloc_info){oi[i].hAllocation, o.hDevice, 0, NULL};
        }
    }
    free(oi);
    free(rbuf);
    free(tbuf);
}

static void op_device(struct fz *f, struct state *s)
{
    if (fz_u8(f) < 100) {
        D3DKMT_DESTROYDEVICE d = {pick(f, s, K_DEVICE)};
        if (d.hDevice == s->device)
            return; /* the input's device goes at the end */
        if (D3DKMTDestroyDevice(&d) == STATUS_SUCCESS) {
            kill(s, K_DEVICE, d.hDevice);
            /* Its contexts (their command buffers) and allocations (their locks) went with it. */
            for (UINT i = 0; i < s->nctx;)
                if (s->ctx[i].cc.hDevice == d.hDevice) {
                    kill(s, K_CONTEXT, s->ctx[i].h);
                    s->ctx[i] = s->ctx[--s->nctx];
                } else {
                    i++;
                }
            for (UINT i = 0; i < s->nallocs;)
                if (s->allocs[i].device == d.hDevice)
                    forget_alloc(s, s->allocs[i].h);
                else
                    i++;
            for (UINT i = 0; i < s->nextra; i++)
                if (s->extra_devices[i] == d.hDevice)
                    s->extra_devices[i] = s->extra_devices[--s->nextra];
        }
        return;
    }
    D3DKMT_CREATEDEVICE c;
    memset(&c, 0, sizeof c);
    c.hAdapter = fz_u8(f) < 200 ? adapter : pick(f, s, K_ADAPTER);
    UINT32 v = fz_u8(f) < 200 ? 0 : fz_u32(f);
    memcpy(&c.Flags, &v, sizeof v);
    if (s->nextra < 4 && D3DKMTCreateDevice(&c) == STATUS_SUCCESS) {
        s->extra_devices[s->nextra++] = c.hDevice;
        add(&s->live[K_DEVICE], c.hDevice);
    } else if (s->nextra >= 4) {
        c.hAdapter = pick(f, s, K_ADAPTER); /* only invalid creations past four devices */
        if (c.hAdapter != adapter && D3DKMTCreateDevice(&c) == STATUS_SUCCESS) {
            D3DKMT_DESTROYDEVICE d = {c.hDevice};
            D3DKMTDestroyDevice(&d);
        }
    }
}

static void op_adapter(struct fz *f, struct state *s)
{
    UINT8 what = fz_u8(f) % 3;
    if (what == 0) {
        D3DKMT_ENUMADAPTERS2 e = {0};
        e.NumAdapters = fz_below(f, 6);
        D3DKMT_ADAPTERINFO *info = e.NumAdapters ? calloc(e.NumAdapters, sizeof *info) : NULL;
        e.pAdapters = fz_u8(f) < 240 ? info : NULL;
        if (D3DKMTEnumAdapters2(&e) == STATUS_SUCCESS && e.pAdapters)
            for (UINT i = 0; i < e.NumAdapters; i++) {
                if (s->nopened < 8) {
                    s->opened_adapters[s->nopened++] = info[i].hAdapter;
                    add(&s->live[K_ADAPTER], info[i].hAdapter);
                } else {
                    D3DKMT_CLOSEADAPTER c = {info[i].hAdapter};
                    D3DKMTCloseAdapter(&c);
                }
            }
        free(info);
    } else if (what == 1) {
        D3DKMT_OPENADAPTERFROMLUID o;
        memset(&o, 0, sizeof o);
        o.AdapterLuid = adapter_luid;
        if (fz_u8(f) > 200)
            o.AdapterLuid.LowPart = fz_u32(f);
        if (s->nopened < 8 && D3DKMTOpenAdapterFromLuid(&o) == STATUS_SUCCESS) {
            s->opened_adapters[s->nopened++] = o.hAdapter;
            add(&s->live[K_ADAPTER], o.hAdapter);
        }
    } else {
        D3DKMT_CLOSEADAPTER c = {pick(f, s, K_ADAPTER)};
        if (c.hAdapter == adapter)
            return; /* the process's adapter stays open */
        for (UINT i = 0; i < s->nopened; i++)
            if (s->opened_adapters[i] == c.hAdapter && D3DKMTCloseAdapter(&c) == STATUS_SUCCESS) {
                s->opened_adapters[i] = s->opened_adapters[--s->nopened];
                kill(s, K_ADAPTER, c.hAdapter);
                return;
            }
        if (c.hAdapter && fz_u8(f) < 30)
            D3DKMTCloseAdapter(&c); /* a handle this input does not hold (it may be stale) */
    }
}

/* A system standby or hibernation and wake-up (issue 20 §5): evictions, null-context switches
 * and the GPU losing local memory, in whatever state the input left. */
static void op_power(struct fz *f, struct state *s)
{
    (void)s;
    UINT state = fz_u8(f) < 240 ? WDDM_SYSTEM_STANDBY + fz_below(f, 2) : fz_u32(f);
    (void)wddm_test_system_power_cycle(fz_u8(f) < 240 ? adapter : fz_u32(f), state);
}

typedef void (*op_fn)(struct fz *, struct state *);
static const op_fn ops[] = {
    op_create_allocation, op_destroy_allocation, op_lock, op_unlock, op_lock2, op_create_context, op_render,
    op_submit_command, op_sync_create, op_sync_cpu, op_sync_gpu, op_residency, op_priority, op_paging_queue,
    op_va, op_query, op_share, op_device, op_adapter, op_sync_gpu_legacy, op_keyed_mutex, op_budget, op_power,
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    /* Small memory, so that allocations fail, evict and page instead of growing the process. */
    setenv("WDDM_SEGMENT_LOCAL_MB", "16", 0);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "8", 0);
    setenv("WDDM_SEGMENT_APERTURE_MB", "32", 0);
    setenv("WDDM_SYSMEM_BUDGET_MB", "96", 0);
#ifdef FUZZ_KMT_GPUMMU
    setenv("WDDM_KMD_CAPS", WDDM_SOURCE_DIR "/configs/gpummu.caps", 1);
#endif
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!adapter) {
        D3DKMT_ADAPTERINFO info[4];
        D3DKMT_ENUMADAPTERS2 en = {4, info};
        if (D3DKMTEnumAdapters2(&en) != STATUS_SUCCESS || en.NumAdapters < 1)
            abort();
        adapter = info[0].hAdapter;
        adapter_luid = info[0].AdapterLuid;
        for (UINT i = 1; i < en.NumAdapters; i++) {
            D3DKMT_CLOSEADAPTER c = {info[i].hAdapter};
            D3DKMTCloseAdapter(&c);
        }
    }
    struct state *s = calloc(1, sizeof *s);
    D3DKMT_CREATEDEVICE cd = {.hAdapter = adapter};
    if (D3DKMTCreateDevice(&cd) != STATUS_SUCCESS)
        abort();
    s->device = cd.hDevice;
    add(&s->live[K_DEVICE], s->device);
    add(&s->live[K_ADAPTER], adapter);

    struct fz f;
    fz_init(&f, data, size);
    for (UINT n = 0; n < MAX_OPS && !fz_done(&f); n++)
        ops[fz_u8(&f) % (sizeof ops / sizeof ops[0])](&f, s);

    /* Everything the input made goes: sync objects, then the devices (they take their
     * allocations, contexts and paging queues along), the adapter handles it opened, and the
     * reservations it set. */
    for (UINT i = 0; i < s->live[K_SYNC].n; i++) {
        D3DKMT_DESTROYSYNCHRONIZATIONOBJECT d = {s->live[K_SYNC].h[i]};
        D3DKMTDestroySynchronizationObject(&d);
    }
    for (UINT i = 0; i < s->live[K_KMUTEX].n; i++) {
        D3DKMT_DESTROYKEYEDMUTEX d = {s->live[K_KMUTEX].h[i]};
        D3DKMTDestroyKeyedMutex(&d);
    }
    for (UINT g = 0; g < 2; g++) /* the other processes let go (registrations go with devices) */
        wddm_vidmm_set_external_usage(adapter, g, 0);
    for (UINT i = 0; i < s->nextra; i++) {
        D3DKMT_DESTROYDEVICE d = {s->extra_devices[i]};
        D3DKMTDestroyDevice(&d);
    }
    D3DKMT_DESTROYDEVICE dd = {s->device};
    if (D3DKMTDestroyDevice(&dd) != STATUS_SUCCESS)
        abort();
    for (UINT i = 0; i < s->nopened; i++) {
        D3DKMT_CLOSEADAPTER c = {s->opened_adapters[i]};
        D3DKMTCloseAdapter(&c);
    }
    for (UINT g = 0; g < 2; g++) {
        D3DKMT_CHANGEVIDEOMEMORYRESERVATION c = {NULL, adapter, g, 0, 0};
        D3DKMTChangeVideoMemoryReservation(&c);
    }
    free(s);
    return 0;
}
