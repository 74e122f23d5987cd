/* Fuzzes the Direct3D 11 API (include/d3d11.h) through the whole stack: runtime, reference
 * UMD, kernel, reference KMD, software GPU.
 *
 * The input decodes (fuzz_input.h) into at most MAX_OPS calls on one device created once per
 * process: buffers and 1-D / 2-D / 3-D textures of decoded descriptions (a dozen formats,
 * every usage, bind, CPU-access and misc bit, mip chains, arrays), with or without initial
 * data; Map / Unmap with decoded types, flags and subresources; CopyResource,
 * CopySubresourceRegion with decoded boxes, UpdateSubresource, render-target views and
 * ClearRenderTargetView, Flush, ClearState, event queries, deferred contexts with
 * FinishCommandList / ExecuteCommandList, and Release; private data, the 11.1 copies, eviction
 * priorities and a surface's Map (op_face). Each call goes to the immediate context or a
 * deferred one. Every return code is accepted.
 *
 * Checked: no crash, no sanitizer report, no leak, no hang (libFuzzer's -timeout), and the
 * device is never removed: whatever the application passes, the runtime refuses what is
 * invalid and what it sends down never faults the GPU (D3D11 API: a valid device stays valid;
 * GetDeviceRemovedReason is S_OK).
 *
 * Pointers the API reads through (initial data, UpdateSubresource's source) are heap buffers
 * exactly as large as the D3D11 rules make the call read (rows x pitch, slices x slice pitch,
 * last row / slice only as long as the data), so a read beyond is an ASan report. What Map
 * returns is written over exactly the mapped subresource. */
/* rule: build.every-fuzz-fuzz-name-c-libfuzzer */
/* rule: runtime.d3d11-bounded-sequence-api-calls-never (`fuzz/fuzz_d3d11.c`: GetDeviceRemovedReason is S_OK after every input) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <d3d11_1.h>

#include "common/format.h"
#include "fuzz_input.h"

#define MAX_OPS 40
#define MAX_RES 16
#define MAX_VIEWS 8
#define MAX_LISTS 4
#define MAX_DEFERRED 2
#define MAX_DATA (1u << 20) /* bytes of one application buffer the harness hands over */

enum res_kind { R_BUFFER, R_TEX1D, R_TEX2D, R_TEX3D };

struct res {
    ID3D11Resource *r;
    enum res_kind kind;
    UINT width, height, depth; /* texels (bytes for a buffer) */
    UINT mips, array;
    DXGI_FORMAT format;
};

struct state {
    struct res res[MAX_RES];
    UINT nres;
    ID3D11RenderTargetView *views[MAX_VIEWS];
    UINT nviews;
    ID3D11CommandList *lists[MAX_LISTS];
    UINT nlists;
    ID3D11DeviceContext *deferred[MAX_DEFERRED];
    UINT ndeferred;
    ID3D11Query *query;
    struct {
        ID3D11DeviceContext *ctx;
        ID3D11Resource *r;
        UINT sub;
    } maps[8];
    UINT nmaps;
};

static ID3D11Device *dev;
static ID3D11DeviceContext *imm;

static const DXGI_FORMAT formats[] = {
    DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_R8G8B8A8_TYPELESS, DXGI_FORMAT_B8G8R8A8_UNORM,
    DXGI_FORMAT_R32G32B32A32_FLOAT, DXGI_FORMAT_R16G16_FLOAT, DXGI_FORMAT_R8_UNORM, DXGI_FORMAT_R32_UINT,
    DXGI_FORMAT_BC1_UNORM, DXGI_FORMAT_BC3_UNORM, DXGI_FORMAT_BC7_UNORM, DXGI_FORMAT_D24_UNORM_S8_UINT,
    DXGI_FORMAT_D32_FLOAT, DXGI_FORMAT_R32_TYPELESS, DXGI_FORMAT_UNKNOWN, DXGI_FORMAT_R10G10B10A2_UNORM,
};

static UINT full_chain(UINT w, UINT h, UINT d)
{
    UINT m = w > h ? w : h;
    m = m > d ? m : d;
    UINT n = 1;
    while (m > 1) {
        m >>= 1;
        n++;
    }
    return n;
}

/* Row bytes, rows and depth of subresource `sub` of a resource; 0 when it has none. */
static int sub_dims(const struct res *r, UINT sub, UINT *row_bytes, UINT *rows, UINT *depth)
{
    if (r->kind == R_BUFFER) {
        if (sub != 0)
            return 0;
        *row_bytes = r->width;
        *rows = *depth = 1;
        return 1;
    }
    if (sub >= r->mips * r->array)
        return 0;
    UINT mip = sub % r->mips;
    UINT w = r->width >> mip, h = r->height >> mip, d = r->depth >> mip;
    *row_bytes = wddm_format_row_bytes(r->format, w ? w : 1);
    *rows = wddm_format_rows(r->format, h ? h : 1);
    *depth = d ? d : 1;
    return *row_bytes && *rows;
}

/* Bytes an application buffer must hold: `depth` slices of `rows` rows of `row_bytes`, with
 * the given pitches (the last row and slice only as long as their data); 0 when empty, ~0
 * when too large for the harness. */
static size_t extent(UINT row_bytes, UINT rows, UINT depth, UINT pitch, UINT slice_pitch)
{
    if (!row_bytes || !rows || !depth)
        return 0;
    unsigned long long n = (unsigned long long)(depth - 1) * slice_pitch + (unsigned long long)(rows - 1) * pitch +
                           row_bytes;
    return n > MAX_DATA ? (size_t)~0 : (size_t)n;
}

static void *data_buffer(struct fz *f, size_t n)
{
    void *p = malloc(n ? n : 1);
    memset(p, fz_u8(f), n);
    return p;
}

static struct res *pick_res(struct fz *f, struct state *s)
{
    return s->nres ? &s->res[fz_u8(f) % s->nres] : NULL;
}

static ID3D11Resource *res_or_null(struct fz *f, struct state *s)
{
    struct res *r = pick_res(f, s);
    return r && fz_u8(f) < 250 ? r->r : NULL;
}

static ID3D11DeviceContext *pick_ctx(struct fz *f, struct state *s)
{
    UINT8 c = fz_u8(f);
    return c >= 192 && s->ndeferred ? s->deferred[c % s->ndeferred] : imm;
}

static UINT decode_usage_flags(struct fz *f, D3D11_USAGE *usage, UINT *bind, UINT *cpu, UINT *misc)
{
    *usage = fz_u8(f) < 240 ? (D3D11_USAGE)fz_below(f, 4) : (D3D11_USAGE)fz_u32(f);
    static const UINT binds[] = {0, D3D11_BIND_SHADER_RESOURCE, D3D11_BIND_RENDER_TARGET,
                                 D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE, D3D11_BIND_VERTEX_BUFFER,
                                 D3D11_BIND_UNORDERED_ACCESS, D3D11_BIND_DEPTH_STENCIL, D3D11_BIND_CONSTANT_BUFFER};
    *bind = fz_u8(f) < 230 ? binds[fz_below(f, 8)] : fz_u32(f);
    static const UINT cpus[] = {0, D3D11_CPU_ACCESS_WRITE, D3D11_CPU_ACCESS_READ,
                                D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE};
    *cpu = fz_u8(f) < 240 ? cpus[fz_below(f, 4)] : fz_u32(f);
    *misc = fz_u8(f) < 220 ? 0 : fz_u8(f) < 128 ? 1u << fz_below(f, 20) : fz_u32(f);
    /* Usages that need CPU access get it mostly (else most creations are refused). */
    if (fz_u8(f) < 200) {
        if (*usage == D3D11_USAGE_DYNAMIC)
            *cpu = D3D11_CPU_ACCESS_WRITE;
        else if (*usage == D3D11_USAGE_STAGING)
            *cpu = cpus[1 + fz_below(f, 3)], *bind = 0;
        else
            *cpu = 0;
    }
    return 0;
}

static void add_res(struct state *s, ID3D11Resource *r, struct res d)
{
    if (s->nres == MAX_RES) {
        ID3D11Resource_Release(r);
        return;
    }
    d.r = r;
    s->res[s->nres++] = d;
}

static void op_create_buffer(struct fz *f, struct state *s)
{
    D3D11_BUFFER_DESC d;
    memset(&d, 0, sizeof d);
    d.ByteWidth = fz_size(f, 70000);
    decode_usage_flags(f, &d.Usage, &d.BindFlags, &d.CPUAccessFlags, &d.MiscFlags);
    d.StructureByteStride = fz_u8(f) < 230 ? 0 : fz_size(f, 64);
    D3D11_SUBRESOURCE_DATA init = {0};
    void *mem = NULL;
    int with_data = fz_u8(f) < 128 || d.Usage == D3D11_USAGE_IMMUTABLE;
    if (with_data && d.ByteWidth <= MAX_DATA) {
        mem = data_buffer(f, d.ByteWidth);
        init.pSysMem = fz_u8(f) < 250 ? mem : NULL;
        init.SysMemPitch = fz_u8(f) < 230 ? 0 : fz_u32(f);
    }
    ID3D11Buffer *b = NULL;
    if (SUCCEEDED(ID3D11Device_CreateBuffer(dev, &d, mem ? &init : NULL, &b)) && b)
        add_res(s, (ID3D11Resource *)b, (struct res){NULL, R_BUFFER, d.ByteWidth, 1, 1, 1, 1, DXGI_FORMAT_UNKNOWN});
    free(mem);
}

static void op_create_texture(struct fz *f, struct state *s)
{
    enum res_kind kind = R_TEX1D + fz_below(f, 3);
    struct res r = {NULL, kind, 0, 1, 1, 0, 1, DXGI_FORMAT_UNKNOWN};
    r.width = fz_size(f, 300);
    if (kind != R_TEX1D)
        r.height = fz_size(f, kind == R_TEX3D ? 40 : 300);
    if (kind == R_TEX3D)
        r.depth = fz_size(f, 12);
    UINT mips = fz_u8(f) < 160 ? 1 : fz_u8(f) < 128 ? 0 : fz_size(f, 10);
    if (kind != R_TEX3D)
        r.array = fz_u8(f) < 200 ? 1 : fz_size(f, 8);
    r.format = fz_u8(f) < 245 ? formats[fz_below(f, sizeof formats / sizeof formats[0])] : (DXGI_FORMAT)fz_u8(f);
    D3D11_USAGE usage;
    UINT bind, cpu, misc;
    decode_usage_flags(f, &usage, &bind, &cpu, &misc);
    UINT sample_count = fz_u8(f) < 245 ? 1 : fz_below(f, 9);
    int with_data = fz_u8(f) < 100 || usage == D3D11_USAGE_IMMUTABLE;

    /* The description's own subresource count: initial data needs one entry per subresource. */
    r.mips = mips ? mips : full_chain(r.width, r.height, r.depth);
    D3D11_SUBRESOURCE_DATA *init = NULL;
    void **mem = NULL;
    UINT nsub = 0;
    if (with_data && r.width && r.height && r.depth && r.mips <= 16 && r.array <= 64) {
        nsub = r.mips * r.array;
        init = calloc(nsub, sizeof *init);
        mem = calloc(nsub, sizeof *mem);
        for (UINT i = 0; i < nsub; i++) {
            UINT rb = 0, rows = 0, depth = 0;
            if (!sub_dims(&r, i, &rb, &rows, &depth)) {
                rb = 1; /* an unsupported format: the creation is refused, any data does */
                rows = depth = 1;
            }
            UINT8 how = fz_u8(f);
            UINT pitch = how < 220 ? rb : how < 240 ? rb + fz_below(f, 64) : fz_u32(f);
            UINT slice = how < 220 ? pitch * rows : how < 240 ? pitch * rows + fz_below(f, 64) : fz_u32(f);
            size_t n = extent(rb, rows, kind == R_TEX3D ? depth : 1, pitch, slice);
            if (n == (size_t)~0) {
                pitch = rb; /* too large for the harness: tight pitches */
                slice = rb * rows;
                n = extent(rb, rows, kind == R_TEX3D ? depth : 1, pitch, slice);
            }
            if (n == (size_t)~0)
                n = 0, pitch = slice = 0;
            mem[i] = data_buffer(f, n);
            init[i].pSysMem = n && fz_u8(f) < 252 ? mem[i] : NULL;
            init[i].SysMemPitch = pitch;
            init[i].SysMemSlicePitch = slice;
        }
    }
    HRESULT hr = E_FAIL;
    ID3D11Resource *out = NULL;
    if (kind == R_TEX1D) {
        D3D11_TEXTURE1D_DESC d = {r.width, mips, r.array, r.format, usage, bind, cpu, misc};
        hr = ID3D11Device_CreateTexture1D(dev, &d, init, (ID3D11Texture1D **)&out);
    } else if (kind == R_TEX2D) {
        D3D11_TEXTURE2D_DESC d = {r.width, r.height, mips, r.array, r.format, {sample_count, 0}, usage, bind, cpu, misc};
        hr = ID3D11Device_CreateTexture2D(dev, &d, init, (ID3D11Texture2D **)&out);
    } else {
        D3D11_TEXTURE3D_DESC d = {r.width, r.height, r.depth, mips, r.format, usage, bind, cpu, misc};
        hr = ID3D11Device_CreateTexture3D(dev, &d, init, (ID3D11Texture3D **)&out);
    }
    if (SUCCEEDED(hr) && out) {
        if (kind == R_TEX2D && (misc & D3D11_RESOURCE_MISC_TEXTURECUBE))
            r.array = r.array; /* cube arrays count their faces in ArraySize already */
        add_res(s, out, r);
    }
    for (UINT i = 0; i < nsub; i++)
        free(mem[i]);
    free(mem);
    free(init);
}

static void op_map(struct fz *f, struct state *s)
{
    struct res *r = pick_res(f, s);
    if (!r)
        return;
    ID3D11DeviceContext *ctx = pick_ctx(f, s);
    UINT sub = fz_u8(f) < 200 ? fz_below(f, r->mips * r->array) : fz_u32(f);
    D3D11_MAP type = fz_u8(f) < 245 ? (D3D11_MAP)(1 + fz_below(f, 5)) : (D3D11_MAP)fz_u32(f);
    UINT flags = fz_u8(f) < 180 ? 0 : fz_u8(f) < 200 ? D3D11_MAP_FLAG_DO_NOT_WAIT : fz_u32(f);
    D3D11_MAPPED_SUBRESOURCE m;
    memset(&m, 0, sizeof m);
    HRESULT hr = ID3D11DeviceContext_Map(ctx, r->r, sub, type, flags, fz_u8(f) < 252 ? &m : NULL);
    if (hr != S_OK || !m.pData)
        return;
    UINT rb, rows, depth;
    if (sub_dims(r, sub, &rb, &rows, &depth)) {
        /* Read and write every byte of the subresource, through the pitches returned. */
        BYTE v = fz_u8(f), sum = 0;
        for (UINT z = 0; z < depth; z++)
            for (UINT y = 0; y < rows; y++) {
                BYTE *row = (BYTE *)m.pData + (size_t)z * m.DepthPitch + (size_t)y * m.RowPitch;
                if (type == D3D11_MAP_READ || type == D3D11_MAP_READ_WRITE)
                    for (UINT x = 0; x < rb; x += 61)
                        sum += row[x];
                if (type != D3D11_MAP_READ)
                    memset(row, v + sum, rb);
            }
    }
    if (fz_u8(f) < 160 || s->nmaps == 8)
        ID3D11DeviceContext_Unmap(ctx, r->r, sub);
    else
        s->maps[s->nmaps].ctx = ctx, s->maps[s->nmaps].r = r->r, s->maps[s->nmaps++].sub = sub;
}

static void op_unmap(struct fz *f, struct state *s)
{
    if (s->nmaps && fz_u8(f) < 200) {
        UINT i = fz_u8(f) % s->nmaps;
        ID3D11DeviceContext_Unmap(s->maps[i].ctx, s->maps[i].r, s->maps[i].sub);
        s->maps[i] = s->maps[--s->nmaps];
        return;
    }
    struct res *r = pick_res(f, s);
    if (r) { /* possibly not mapped, or a wrong subresource / context */
        ID3D11DeviceContext *ctx = pick_ctx(f, s); /* once: the COM macros evaluate This twice */
        ID3D11DeviceContext_Unmap(ctx, r->r, fz_u8(f) < 200 ? fz_below(f, 4) : fz_u32(f));
    }
}

static void decode_box(struct fz *f, D3D11_BOX *b, const struct res *r)
{
    UINT w = r ? r->width : 64, h = r ? r->height : 1, d = r ? r->depth : 1;
    if (fz_u8(f) < 200) {
        b->left = fz_below(f, w + 1);
        b->right = b->left + fz_below(f, w - b->left + 2);
        b->top = fz_below(f, h + 1);
        b->bottom = b->top + fz_below(f, h - b->top + 2);
        b->front = fz_below(f, d + 1);
        b->back = b->front + fz_below(f, d - b->front + 2);
    } else {
        b->left = fz_u32(f), b->right = fz_u32(f), b->top = fz_u32(f);
        b->bottom = fz_u32(f), b->front = fz_u32(f), b->back = fz_u32(f);
    }
}

static void op_copy(struct fz *f, struct state *s)
{
    ID3D11DeviceContext *ctx = pick_ctx(f, s);
    if (fz_u8(f) < 100) {
        ID3D11DeviceContext_CopyResource(ctx, res_or_null(f, s), res_or_null(f, s));
        return;
    }
    struct res *dst = pick_res(f, s), *src = pick_res(f, s);
    UINT dsub = fz_u8(f) < 230 ? fz_below(f, 4) : fz_u32(f), ssub = fz_u8(f) < 230 ? fz_below(f, 4) : fz_u32(f);
    UINT x = fz_u8(f) < 200 ? fz_below(f, 64) : fz_u32(f), y = fz_u8(f) < 200 ? fz_below(f, 16) : fz_u32(f);
    UINT z = fz_u8(f) < 230 ? fz_below(f, 2) : fz_u32(f);
    D3D11_BOX box;
    decode_box(f, &box, src);
    ID3D11DeviceContext_CopySubresourceRegion(ctx, dst && fz_u8(f) < 250 ? dst->r : NULL, dsub, x, y, z,
                                              src && fz_u8(f) < 250 ? src->r : NULL, ssub,
                                              fz_u8(f) < 128 ? &box : NULL);
}

static void op_update(struct fz *f, struct state *s)
{
    ID3D11DeviceContext *ctx = pick_ctx(f, s);
    struct res *r = pick_res(f, s);
    if (!r)
        return;
    UINT sub = fz_u8(f) < 230 ? fz_below(f, r->mips * r->array) : fz_u32(f);
    D3D11_BOX box;
    int with_box = fz_u8(f) < 128;
    decode_box(f, &box, r);
    UINT rb = 0, rows = 0, depth = 0;
    if (!sub_dims(r, sub, &rb, &rows, &depth)) {
        rb = 64; /* a subresource that does not exist: the call is dropped; any data does */
        rows = depth = 1;
    }
    if (with_box) {
        /* The box in the subresource's units: bytes of a buffer, texels (blocks) of a texture. */
        UINT bw = box.right > box.left ? box.right - box.left : 0, bh = box.bottom > box.top ? box.bottom - box.top : 0;
        UINT bd = box.back > box.front ? box.back - box.front : 0;
        if (r->kind == R_BUFFER) {
            rb = bw, rows = bd && bh ? 1 : 0, depth = 1;
        } else {
            rb = wddm_format_row_bytes(r->format, bw ? bw : 1) * (bw ? 1 : 0);
            rows = wddm_format_rows(r->format, bh ? bh : 1) * (bh ? 1 : 0);
            depth = bd;
        }
    }
    UINT8 how = fz_u8(f);
    UINT pitch = how < 220 ? rb : how < 240 ? rb + fz_below(f, 64) : fz_u32(f);
    UINT slice = how < 220 ? pitch * rows : how < 240 ? pitch * rows + fz_below(f, 64) : fz_u32(f);
    size_t n = extent(rb, rows, depth, pitch, slice);
    if (n == (size_t)~0)
        return; /* more than the harness hands over */
    void *mem = data_buffer(f, n);
    ID3D11DeviceContext_UpdateSubresource(ctx, r->r, sub, with_box ? &box : NULL, fz_u8(f) < 252 ? mem : NULL, pitch,
                                          slice);
    free(mem);
}

static void op_view(struct fz *f, struct state *s)
{
    ID3D11DeviceContext *ctx = pick_ctx(f, s);
    if (s->nviews && fz_u8(f) < 128) {
        FLOAT color[4] = {fz_u8(f) / 255.0f, fz_u8(f) / 255.0f, fz_u8(f) / 255.0f, fz_u8(f) / 255.0f};
        ID3D11DeviceContext_ClearRenderTargetView(ctx, fz_u8(f) < 252 ? s->views[fz_u8(f) % s->nviews] : NULL, color);
        return;
    }
    ID3D11Resource *r = res_or_null(f, s);
    ID3D11RenderTargetView *v = NULL;
    if (s->nviews < MAX_VIEWS && SUCCEEDED(ID3D11Device_CreateRenderTargetView(dev, r, NULL, &v)) && v)
        s->views[s->nviews++] = v;
}

static void op_deferred(struct fz *f, struct state *s)
{
    UINT8 what = fz_u8(f) % 3;
    if (what == 0 && s->ndeferred < MAX_DEFERRED) {
        ID3D11DeviceContext *c = NULL;
        if (SUCCEEDED(ID3D11Device_CreateDeferredContext(dev, fz_u8(f) < 240 ? 0 : fz_u32(f), &c)) && c)
            s->deferred[s->ndeferred++] = c;
    } else if (what == 1) {
        ID3D11DeviceContext *c = pick_ctx(f, s); /* the immediate context must refuse */
        ID3D11CommandList *l = NULL;
        HRESULT hr = ID3D11DeviceContext_FinishCommandList(c, fz_u8(f) & 1, fz_u8(f) < 252 ? &l : NULL);
        if (SUCCEEDED(hr) && l) {
            if (s->nlists < MAX_LISTS)
                s->lists[s->nlists++] = l;
            else
                ID3D11CommandList_Release(l);
        }
    } else if (s->nlists) {
        ID3D11CommandList *l = s->lists[fz_u8(f) % s->nlists];
        ID3D11DeviceContext *ctx = pick_ctx(f, s);
        ID3D11DeviceContext_ExecuteCommandList(ctx, fz_u8(f) < 252 ? l : NULL, fz_u8(f) & 1);
    }
}

static void op_misc(struct fz *f, struct state *s)
{
    UINT8 what = fz_u8(f) % 6;
    ID3D11DeviceContext *ctx = pick_ctx(f, s);
    if (what == 0) {
        ID3D11DeviceContext_Flush(ctx);
    } else if (what == 1) {
        ID3D11DeviceContext_ClearState(ctx);
    } else if (what == 2) {
        if (!s->query) {
            D3D11_QUERY_DESC q = {fz_u8(f) < 240 ? D3D11_QUERY_EVENT : (D3D11_QUERY)fz_u8(f), 0};
            ID3D11Device_CreateQuery(dev, &q, &s->query);
        } else if (fz_u8(f) & 1) {
            ID3D11DeviceContext_End(ctx, (ID3D11Asynchronous *)s->query);
        } else {
            BOOL done = 0;
            ID3D11DeviceContext_GetData(ctx, (ID3D11Asynchronous *)s->query, fz_u8(f) < 240 ? &done : NULL,
                                        fz_u8(f) < 240 ? sizeof done : fz_below(f, 5), fz_u8(f) < 200 ? 0 : fz_u32(f));
        }
    } else if (what == 3 && s->nres) {
        /* Release a resource (views and maps naming it keep their own references or end). */
        UINT i = fz_u8(f) % s->nres;
        for (UINT m = 0; m < s->nmaps;)
            if (s->maps[m].r == s->res[i].r) {
                ID3D11DeviceContext_Unmap(s->maps[m].ctx, s->maps[m].r, s->maps[m].sub);
                s->maps[m] = s->maps[--s->nmaps];
            } else {
                m++;
            }
        ID3D11Resource_Release(s->res[i].r);
        s->res[i] = s->res[--s->nres];
    } else if (what == 4 && s->nlists) {
        UINT i = fz_u8(f) % s->nlists;
        ID3D11CommandList_Release(s->lists[i]);
        s->lists[i] = s->lists[--s->nlists];
    } else if (what == 5 && s->nviews) {
        UINT i = fz_u8(f) % s->nviews;
        ID3D11RenderTargetView_Release(s->views[i]);
        s->views[i] = s->views[--s->nviews];
    }
}

/* The faces beside the D3D11 calls (issue 15): private data of decoded sizes on a resource or
 * the device (GetPrivateData writes into a buffer exactly as large as it says), the 11.1 copy
 * methods with decoded flags, eviction priorities, and a surface's Map / Unmap. An interface is
 * stored only as the device or NULL: a resource holding another would make a cycle, which
 * Windows leaks too. */
static void op_face(struct fz *f, struct state *s)
{
    static const GUID keys[2] = { { 0x6a1f3c22, 0x1b2d, 0x4e5f, { 1, 2, 3, 4, 5, 6, 7, 8 } },
                                  { 0x0b7e44d1, 0x9c3a, 0x4d2e, { 8, 7, 6, 5, 4, 3, 2, 1 } } };
    const GUID *key = &keys[fz_u8(f) & 1];
    struct res *r = pick_res(f, s);
    UINT8 what = fz_u8(f) % 6;
    if (what == 0) {
        UINT n = fz_size(f, 64);
        void *buf = NULL;
        if (fz_u8(f) < 240) { /* the data the application really has: at most MAX_DATA bytes */
            n %= MAX_DATA + 1;
            buf = data_buffer(f, n);
        }
        if (r)
            ID3D11Resource_SetPrivateData(r->r, key, n, buf);
        else
            ID3D11Device_SetPrivateData(dev, key, n, buf);
        free(buf);
    } else if (what == 1) {
        IUnknown *u = fz_u8(f) & 1 ? (IUnknown *)dev : NULL;
        if (r)
            ID3D11Resource_SetPrivateDataInterface(r->r, key, u);
        else
            ID3D11Device_SetPrivateDataInterface(dev, key, u);
    } else if (what == 2) {
        UINT n = fz_size(f, 64) % (MAX_DATA + 1), size = n;
        void *buf = fz_u8(f) < 240 ? malloc(n ? n : 1) : NULL;
        HRESULT hr = r ? ID3D11Resource_GetPrivateData(r->r, key, fz_u8(f) < 250 ? &size : NULL, buf)
                       : ID3D11Device_GetPrivateData(dev, key, fz_u8(f) < 250 ? &size : NULL, buf);
        /* An interface came back with a reference: give it back. */
        if (hr == S_OK && buf && size == sizeof(IUnknown *) && n >= sizeof(IUnknown *)) {
            IUnknown *u;
            memcpy(&u, buf, sizeof u);
            if (u == (IUnknown *)dev)
                IUnknown_Release(u);
        }
        free(buf);
    } else if (what == 3 && r) {
        ID3D11Resource_SetEvictionPriority(r->r, fz_u32(f));
    } else if (what == 4 && s->nres) {
        ID3D11DeviceContext1 *ctx1 = NULL;
        ID3D11DeviceContext *ctx = pick_ctx(f, s);
        if (SUCCEEDED(ID3D11DeviceContext_QueryInterface(ctx, &IID_ID3D11DeviceContext1, (void **)&ctx1))) {
            struct res *a = pick_res(f, s), *b = pick_res(f, s);
            D3D11_BOX box;
            decode_box(f, &box, b);
            ID3D11DeviceContext1_CopySubresourceRegion1(ctx1, a->r, fz_below(f, 4), fz_below(f, 64), fz_below(f, 8),
                                                        fz_below(f, 2), b->r, fz_below(f, 4),
                                                        fz_u8(f) & 1 ? &box : NULL, fz_below(f, 5));
            ID3D11DeviceContext1_DiscardResource(ctx1, fz_u8(f) < 240 ? a->r : NULL);
            ID3D11DeviceContext1_Release(ctx1);
        }
    } else if (what == 5 && r) {
        IDXGISurface *surface = NULL;
        if (SUCCEEDED(ID3D11Resource_QueryInterface(r->r, &IID_IDXGISurface, (void **)&surface))) {
            DXGI_MAPPED_RECT rect;
            if (SUCCEEDED(IDXGISurface_Map(surface, fz_u8(f) < 250 ? &rect : NULL, fz_below(f, 8))))
                IDXGISurface_Unmap(surface);
            IDXGISurface_Release(surface);
        }
    }
}

typedef void (*op_fn)(struct fz *, struct state *);
static const op_fn ops[] = {
    op_create_buffer, op_create_texture, op_create_texture, op_map, op_map, op_unmap, op_copy, op_copy,
    op_update, op_view, op_deferred, op_misc, op_face,
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "32", 0);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "16", 0);
    setenv("WDDM_SEGMENT_APERTURE_MB", "64", 0);
    setenv("WDDM_SYSMEM_BUDGET_MB", "192", 0);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dev && FAILED(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev,
                                         NULL, &imm)))
        abort();
    struct state *s = calloc(1, sizeof *s);
    struct fz f;
    fz_init(&f, data, size);
    for (UINT n = 0; n < MAX_OPS && !fz_done(&f); n++)
        ops[fz_u8(&f) % (sizeof ops / sizeof ops[0])](&f, s);

    /* Everything the input made goes; the immediate context forgets its state. */
    for (UINT i = 0; i < s->nmaps; i++)
        ID3D11DeviceContext_Unmap(s->maps[i].ctx, s->maps[i].r, s->maps[i].sub);
    for (UINT i = 0; i < s->nviews; i++)
        ID3D11RenderTargetView_Release(s->views[i]);
    for (UINT i = 0; i < s->nlists; i++)
        ID3D11CommandList_Release(s->lists[i]);
    for (UINT i = 0; i < s->ndeferred; i++)
        ID3D11DeviceContext_Release(s->deferred[i]);
    if (s->query)
        ID3D11Query_Release(s->query);
    for (UINT i = 0; i < s->nres; i++)
        ID3D11Resource_Release(s->res[i].r);
    ID3D11DeviceContext_ClearState(imm);
    ID3D11DeviceContext_Flush(imm);
    HRESULT removed = ID3D11Device_GetDeviceRemovedReason(dev);
    if (removed != S_OK) {
        fprintf(stderr, "fuzz_d3d11: the device was removed (0x%08x)\n", (unsigned)removed);
        abort();
    }
    free(s);
    return 0;
}
