/*
 * test_copy_validation.c - the rules the runtime guarantees the driver for copies, updates,
 * clears and render target views (docs/semantics.md §4.4; model decisions #10 and "validate the
 * box in the runtime"). These API methods are void: a refused call must simply not reach the
 * UMD (the mock counts every DDI).
 */
#include "runtime/mock_umd.h"

static ID3D11Texture2D *tex2d(ID3D11Device *dev, UINT w, UINT h, UINT mips, UINT array, DXGI_FORMAT fmt, UINT samples,
                              D3D11_USAGE usage, UINT bind, UINT cpu)
{
    static const BYTE texels[256 * 256 * 4];
    D3D11_SUBRESOURCE_DATA init[16];
    for (int i = 0; i < 16; i++) {
        init[i].pSysMem = texels;
        init[i].SysMemPitch = 1024;
        init[i].SysMemSlicePitch = 0;
    }
    D3D11_TEXTURE2D_DESC d = { w, h, mips, array, fmt, { samples, 0 }, usage, bind, cpu, 0 };
    ID3D11Texture2D *t = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(dev, &d, usage == D3D11_USAGE_IMMUTABLE ? init : NULL, &t), S_OK);
    return t;
}

static ID3D11Buffer *buffer(ID3D11Device *dev, UINT size, D3D11_USAGE usage, UINT bind, UINT cpu)
{
    D3D11_BUFFER_DESC d = { size, usage, bind, cpu, 0, 0 };
    ID3D11Buffer *b = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(dev, &d, NULL, &b), S_OK);
    return b;
}

#define R(x) ((ID3D11Resource *)(x))

/* rule: runtime.copyresource-dst-src-same-type */
/* rule: runtime.neither-resource-copy-may-mapped */
/* rule: runtime.copy-box-offset-validated-rejected */
static void copy_resource_rules(void **state)
{
    struct mock_env *env = *state;
    ID3D11DeviceContext *c = env->ctx;
    ID3D11Texture2D *rt = tex2d(env->dev, 64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, 1, D3D11_USAGE_DEFAULT,
                                D3D11_BIND_RENDER_TARGET, 0);
    ID3D11Texture2D *st = tex2d(env->dev, 64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, 1, D3D11_USAGE_STAGING, 0,
                                D3D11_CPU_ACCESS_READ);
    ID3D11Texture2D *other_fmt = tex2d(env->dev, 64, 64, 1, 1, DXGI_FORMAT_R32_FLOAT, 1, D3D11_USAGE_STAGING, 0,
                                       D3D11_CPU_ACCESS_READ);
    ID3D11Texture2D *other_size = tex2d(env->dev, 32, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, 1, D3D11_USAGE_STAGING, 0,
                                        D3D11_CPU_ACCESS_READ);
    ID3D11Texture2D *imm = tex2d(env->dev, 64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, 1, D3D11_USAGE_IMMUTABLE,
                                 D3D11_BIND_SHADER_RESOURCE, 0);
    ID3D11Texture2D *msaa = tex2d(env->dev, 64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, 4, D3D11_USAGE_DEFAULT,
                                  D3D11_BIND_RENDER_TARGET, 0);
    ID3D11Buffer *buf = buffer(env->dev, 64 * 64 * 4, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0);

    ID3D11DeviceContext_CopyResource(c, R(st), R(rt)); /* same group (R8G8B8A8), sizes equal */
    assert_int_equal(mock.copy, 1);
    ID3D11DeviceContext_CopyResource(c, R(st), R(st));          /* dst == src */
    ID3D11DeviceContext_CopyResource(c, R(other_fmt), R(rt));   /* different typeless group */
    ID3D11DeviceContext_CopyResource(c, R(other_size), R(rt));  /* different dimensions */
    ID3D11DeviceContext_CopyResource(c, R(imm), R(rt));         /* destination IMMUTABLE */
    ID3D11DeviceContext_CopyResource(c, R(msaa), R(rt));        /* different sample count */
    ID3D11DeviceContext_CopyResource(c, R(buf), R(rt));         /* different resource type */
    ID3D11DeviceContext_CopyResource(c, NULL, R(rt));
    ID3D11DeviceContext_CopyResource(c, R(st), NULL);
    assert_int_equal(mock.copy, 1);

    /* Neither resource may be mapped. */
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(c, R(st), 0, D3D11_MAP_READ, 0, &m), S_OK);
    ID3D11DeviceContext_CopyResource(c, R(st), R(rt));
    assert_int_equal(mock.copy, 1);
    ID3D11DeviceContext_Unmap(c, R(st), 0);
    ID3D11DeviceContext_CopyResource(c, R(st), R(rt));
    assert_int_equal(mock.copy, 2);

    ID3D11Texture2D_Release(rt);
    ID3D11Texture2D_Release(st);
    ID3D11Texture2D_Release(other_fmt);
    ID3D11Texture2D_Release(other_size);
    ID3D11Texture2D_Release(imm);
    ID3D11Texture2D_Release(msaa);
    ID3D11Buffer_Release(buf);
}

/* rule: runtime.copysubresourceregion-subresources-range */
/* rule: runtime.depth-stencil-copies-null-box-zero (depth cases; MSAA case: no test yet) */
/* rule: runtime.block-compressed-copies-box-offsets */
/* rule: runtime.buffer-copies-box-bytes-top-bottom */
/* rule: runtime.copy-box-offset-validated-rejected */
static void copy_subresource_region_rules(void **state)
{
    struct mock_env *env = *state;
    ID3D11DeviceContext *c = env->ctx;
    ID3D11Texture2D *src = tex2d(env->dev, 64, 64, 0, 2, DXGI_FORMAT_R8G8B8A8_UNORM, 1, D3D11_USAGE_DEFAULT,
                                 D3D11_BIND_SHADER_RESOURCE, 0); /* 7 mips x 2 slices */
    ID3D11Texture2D *dst = tex2d(env->dev, 32, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_UINT, 1, D3D11_USAGE_STAGING, 0,
                                 D3D11_CPU_ACCESS_READ);
    ID3D11Texture2D *ds = tex2d(env->dev, 32, 32, 1, 1, DXGI_FORMAT_D32_FLOAT, 1, D3D11_USAGE_DEFAULT,
                                D3D11_BIND_DEPTH_STENCIL, 0);
    ID3D11Texture2D *ds2 = tex2d(env->dev, 32, 32, 1, 1, DXGI_FORMAT_R32_TYPELESS, 1, D3D11_USAGE_DEFAULT,
                                 D3D11_BIND_DEPTH_STENCIL, 0);
    ID3D11Texture2D *bc = tex2d(env->dev, 64, 64, 1, 1, DXGI_FORMAT_BC1_UNORM, 1, D3D11_USAGE_DEFAULT,
                                D3D11_BIND_SHADER_RESOURCE, 0);
    ID3D11Texture2D *bc_dst = tex2d(env->dev, 64, 64, 1, 1, DXGI_FORMAT_BC1_TYPELESS, 1, D3D11_USAGE_STAGING, 0,
                                    D3D11_CPU_ACCESS_READ);
    ID3D11Buffer *vb = buffer(env->dev, 256, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0);
    ID3D11Buffer *sb = buffer(env->dev, 128, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ);

    /* Whole mip 1 (32x32) of slice 0 into dst: fits. */
    ID3D11DeviceContext_CopySubresourceRegion(c, R(dst), 0, 0, 0, 0, R(src), 1, NULL);
    assert_int_equal(mock.copy_region, 1);
    assert_true(mock.last_copy_region_box_null);
    /* Mip 0 (64x64) does not fit a 32x32 destination. */
    ID3D11DeviceContext_CopySubresourceRegion(c, R(dst), 0, 0, 0, 0, R(src), 0, NULL);
    assert_int_equal(mock.copy_region, 1);
    /* A box of mip 0 that fits, at an offset. */
    D3D11_BOX box = { 8, 8, 0, 24, 24, 1 };
    ID3D11DeviceContext_CopySubresourceRegion(c, R(dst), 0, 16, 16, 0, R(src), D3D11CalcSubresource(0, 1, 7), &box);
    assert_int_equal(mock.copy_region, 2);
    assert_int_equal(mock.last_box.right, 24);
    /* Offset pushes it out. */
    ID3D11DeviceContext_CopySubresourceRegion(c, R(dst), 0, 17, 16, 0, R(src), 0, &box);
    /* Box beyond the source subresource (mip 3 is 8x8). */
    ID3D11DeviceContext_CopySubresourceRegion(c, R(dst), 0, 0, 0, 0, R(src), 3, &box);
    /* Box with back > 1 on a 2D texture. */
    D3D11_BOX deep = { 0, 0, 0, 4, 4, 2 };
    ID3D11DeviceContext_CopySubresourceRegion(c, R(dst), 0, 0, 0, 0, R(src), 0, &deep);
    /* Subresource out of range. */
    ID3D11DeviceContext_CopySubresourceRegion(c, R(dst), 1, 0, 0, 0, R(src), 0, &box);
    ID3D11DeviceContext_CopySubresourceRegion(c, R(dst), 0, 0, 0, 0, R(src), 14, &box);
    assert_int_equal(mock.copy_region, 2);
    /* An empty box is a valid no-op: nothing reaches the UMD. */
    D3D11_BOX empty = { 8, 8, 0, 8, 24, 1 };
    ID3D11DeviceContext_CopySubresourceRegion(c, R(dst), 0, 0, 0, 0, R(src), 0, &empty);
    assert_int_equal(mock.copy_region, 2);
    /* Source and destination may be the same resource. */
    ID3D11DeviceContext_CopySubresourceRegion(c, R(src), 1, 0, 0, 0, R(src), D3D11CalcSubresource(1, 1, 7), NULL);
    assert_int_equal(mock.copy_region, 3);

    /* Depth-stencil: NULL box and zero offsets only. */
    ID3D11DeviceContext_CopySubresourceRegion(c, R(ds2), 0, 0, 0, 0, R(ds), 0, NULL);
    assert_int_equal(mock.copy_region, 4);
    D3D11_BOX small = { 0, 0, 0, 4, 4, 1 };
    ID3D11DeviceContext_CopySubresourceRegion(c, R(ds2), 0, 0, 0, 0, R(ds), 0, &small);
    ID3D11DeviceContext_CopySubresourceRegion(c, R(ds2), 0, 4, 0, 0, R(ds), 0, NULL);
    assert_int_equal(mock.copy_region, 4);

    /* Block-compressed: boxes and offsets aligned to 4x4 blocks. */
    D3D11_BOX bc_ok = { 4, 8, 0, 12, 16, 1 }, bc_bad = { 2, 8, 0, 12, 16, 1 };
    ID3D11DeviceContext_CopySubresourceRegion(c, R(bc_dst), 0, 8, 4, 0, R(bc), 0, &bc_ok);
    assert_int_equal(mock.copy_region, 5);
    ID3D11DeviceContext_CopySubresourceRegion(c, R(bc_dst), 0, 8, 4, 0, R(bc), 0, &bc_bad);
    ID3D11DeviceContext_CopySubresourceRegion(c, R(bc_dst), 0, 2, 4, 0, R(bc), 0, &bc_ok);
    /* BC and a colour format are not in one group. */
    ID3D11DeviceContext_CopySubresourceRegion(c, R(dst), 0, 0, 0, 0, R(bc), 0, &bc_ok);
    assert_int_equal(mock.copy_region, 5);

    /* Buffers: bytes; the box's top/bottom and front/back must be 0/1. */
    D3D11_BOX bytes = { 16, 0, 0, 144, 1, 1 };
    ID3D11DeviceContext_CopySubresourceRegion(c, R(sb), 0, 0, 0, 0, R(vb), 0, &bytes);
    assert_int_equal(mock.copy_region, 6);
    ID3D11DeviceContext_CopySubresourceRegion(c, R(sb), 0, 1, 0, 0, R(vb), 0, &bytes); /* 1 + 128 > 128 */
    D3D11_BOX tall = { 0, 0, 0, 16, 2, 1 };
    ID3D11DeviceContext_CopySubresourceRegion(c, R(sb), 0, 0, 0, 0, R(vb), 0, &tall);
    ID3D11DeviceContext_CopySubresourceRegion(c, R(sb), 0, 0, 0, 0, R(vb), 0, NULL); /* 256 bytes into 128 */
    ID3D11DeviceContext_CopySubresourceRegion(c, R(sb), 0, 0, 0, 0, R(dst), 0, NULL); /* buffer <- texture */
    assert_int_equal(mock.copy_region, 6);

    ID3D11Texture2D_Release(src);
    ID3D11Texture2D_Release(dst);
    ID3D11Texture2D_Release(ds);
    ID3D11Texture2D_Release(ds2);
    ID3D11Texture2D_Release(bc);
    ID3D11Texture2D_Release(bc_dst);
    ID3D11Buffer_Release(vb);
    ID3D11Buffer_Release(sb);
}

/* rule: runtime.updatesubresource-only-default-non-depth */
/* rule: runtime.constant-buffers-whole-updates-only */
static void update_subresource_rules(void **state)
{
    struct mock_env *env = *state;
    ID3D11DeviceContext *c = env->ctx;
    static const BYTE data[64 * 64 * 4];
    ID3D11Texture2D *def = tex2d(env->dev, 64, 64, 2, 1, DXGI_FORMAT_R8G8B8A8_UNORM, 1, D3D11_USAGE_DEFAULT,
                                 D3D11_BIND_SHADER_RESOURCE, 0);
    ID3D11Texture2D *dyn = tex2d(env->dev, 64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, 1, D3D11_USAGE_DYNAMIC,
                                 D3D11_BIND_SHADER_RESOURCE, D3D11_CPU_ACCESS_WRITE);
    ID3D11Texture2D *stg = tex2d(env->dev, 64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, 1, D3D11_USAGE_STAGING, 0,
                                 D3D11_CPU_ACCESS_WRITE);
    ID3D11Texture2D *imm = tex2d(env->dev, 64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, 1, D3D11_USAGE_IMMUTABLE,
                                 D3D11_BIND_SHADER_RESOURCE, 0);
    ID3D11Texture2D *ds = tex2d(env->dev, 64, 64, 1, 1, DXGI_FORMAT_D24_UNORM_S8_UINT, 1, D3D11_USAGE_DEFAULT,
                                D3D11_BIND_DEPTH_STENCIL, 0);
    ID3D11Texture2D *msaa = tex2d(env->dev, 64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, 4, D3D11_USAGE_DEFAULT,
                                  D3D11_BIND_RENDER_TARGET, 0);
    ID3D11Buffer *cb = buffer(env->dev, 64, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0);

    ID3D11DeviceContext_UpdateSubresource(c, R(def), 0, NULL, data, 256, 0);
    ID3D11DeviceContext_UpdateSubresource(c, R(def), 1, NULL, data, 128, 0);
    D3D11_BOX box = { 0, 0, 0, 16, 16, 1 };
    ID3D11DeviceContext_UpdateSubresource(c, R(def), 1, &box, data, 64, 0);
    assert_int_equal(mock.update, 3);
    D3D11_BOX out = { 0, 0, 0, 33, 16, 1 }; /* mip 1 is 32 wide */
    ID3D11DeviceContext_UpdateSubresource(c, R(def), 1, &out, data, 256, 0);
    ID3D11DeviceContext_UpdateSubresource(c, R(def), 2, NULL, data, 256, 0);    /* subresource out of range */
    ID3D11DeviceContext_UpdateSubresource(c, R(def), 0, NULL, NULL, 256, 0);    /* no data */
    ID3D11DeviceContext_UpdateSubresource(c, R(dyn), 0, NULL, data, 256, 0);    /* DYNAMIC */
    ID3D11DeviceContext_UpdateSubresource(c, R(stg), 0, NULL, data, 256, 0);    /* STAGING */
    ID3D11DeviceContext_UpdateSubresource(c, R(imm), 0, NULL, data, 256, 0);    /* IMMUTABLE */
    ID3D11DeviceContext_UpdateSubresource(c, R(ds), 0, NULL, data, 256, 0);     /* depth-stencil */
    ID3D11DeviceContext_UpdateSubresource(c, R(msaa), 0, NULL, data, 256, 0);   /* multisampled */
    ID3D11DeviceContext_UpdateSubresource(c, NULL, 0, NULL, data, 256, 0);
    assert_int_equal(mock.update, 3);
    D3D11_BOX empty = { 4, 0, 0, 4, 16, 1 };
    ID3D11DeviceContext_UpdateSubresource(c, R(def), 0, &empty, data, 256, 0);
    assert_int_equal(mock.update, 3);

    /* Constant buffers: whole updates only, through the constant-buffer slot. */
    ID3D11DeviceContext_UpdateSubresource(c, R(cb), 0, NULL, data, 0, 0);
    assert_int_equal(mock.update_cb, 1);
    D3D11_BOX part = { 0, 0, 0, 16, 1, 1 };
    ID3D11DeviceContext_UpdateSubresource(c, R(cb), 0, &part, data, 0, 0);
    assert_int_equal(mock.update_cb, 1);
    assert_int_equal(mock.update, 3);

    ID3D11Texture2D_Release(def);
    ID3D11Texture2D_Release(dyn);
    ID3D11Texture2D_Release(stg);
    ID3D11Texture2D_Release(imm);
    ID3D11Texture2D_Release(ds);
    ID3D11Texture2D_Release(msaa);
    ID3D11Buffer_Release(cb);
}

/* rule: runtime.null-resource-null-pmappedresource-view */
/* rule: runtime.render-target-views-resource-bound */
/* rule: runtime.clearrendertargetview-needs-view-colour */
static void render_target_views_and_clear(void **state)
{
    struct mock_env *env = *state;
    ID3D11Texture2D *rt = tex2d(env->dev, 64, 64, 0, 3, DXGI_FORMAT_R8G8B8A8_TYPELESS, 1, D3D11_USAGE_DEFAULT,
                                D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE, 0);
    ID3D11Texture2D *sr = tex2d(env->dev, 64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, 1, D3D11_USAGE_DEFAULT,
                                D3D11_BIND_SHADER_RESOURCE, 0);
    ID3D11RenderTargetView *v = (ID3D11RenderTargetView *)(uintptr_t)1;

    /* A typeless resource needs a typed view format. */
    assert_int_equal(ID3D11Device_CreateRenderTargetView(env->dev, R(rt), NULL, &v), E_INVALIDARG);
    assert_null(v);
    /* Not bound RENDER_TARGET. */
    assert_int_equal(ID3D11Device_CreateRenderTargetView(env->dev, R(sr), NULL, &v), E_INVALIDARG);
    D3D11_RENDER_TARGET_VIEW_DESC d;
    memset(&d, 0, sizeof(d));
    d.Format = DXGI_FORMAT_R8G8B8A8_UNORM_SRGB;
    d.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2DARRAY;
    d.Texture2DArray.MipSlice = 6;
    d.Texture2DArray.FirstArraySlice = 1;
    d.Texture2DArray.ArraySize = 2;
    assert_int_equal(ID3D11Device_CreateRenderTargetView(env->dev, R(rt), &d, NULL), S_FALSE);
    assert_int_equal(mock.create_rtv, 0);
    d.Texture2DArray.MipSlice = 7;       /* only 7 levels */
    assert_int_equal(ID3D11Device_CreateRenderTargetView(env->dev, R(rt), &d, &v), E_INVALIDARG);
    d.Texture2DArray.MipSlice = 0;
    d.Texture2DArray.ArraySize = 3;      /* slices 1..3 of 3 */
    assert_int_equal(ID3D11Device_CreateRenderTargetView(env->dev, R(rt), &d, &v), E_INVALIDARG);
    d.Texture2DArray.ArraySize = 2;
    d.Format = DXGI_FORMAT_R32_FLOAT;    /* other typeless group */
    assert_int_equal(ID3D11Device_CreateRenderTargetView(env->dev, R(rt), &d, &v), E_INVALIDARG);
    d.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    d.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE3D; /* wrong dimension for the resource */
    assert_int_equal(ID3D11Device_CreateRenderTargetView(env->dev, R(rt), &d, &v), E_INVALIDARG);
    d.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2DMS; /* not multisampled */
    assert_int_equal(ID3D11Device_CreateRenderTargetView(env->dev, R(rt), &d, &v), E_INVALIDARG);
    assert_int_equal(mock.create_rtv, 0);
    d.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2DARRAY;
    assert_int_equal(ID3D11Device_CreateRenderTargetView(env->dev, R(rt), &d, &v), S_OK);
    assert_int_equal(mock.create_rtv, 1);
    D3D11_RENDER_TARGET_VIEW_DESC got;
    ID3D11RenderTargetView_GetDesc(v, &got);
    assert_int_equal(got.Texture2DArray.FirstArraySlice, 1);

    const FLOAT color[4] = { 0.25f, 0.5f, 0.75f, 1.0f };
    ID3D11DeviceContext_ClearRenderTargetView(env->ctx, v, color);
    assert_int_equal(mock.clear, 1);
    assert_true(mock.last_clear[2] == 0.75f);
    ID3D11DeviceContext_ClearRenderTargetView(env->ctx, v, NULL);
    ID3D11DeviceContext_ClearRenderTargetView(env->ctx, NULL, color);
    ID3D11DeviceContext_ClearRenderTargetView(env->ctx, (ID3D11RenderTargetView *)(void *)rt, color); /* not a view */
    assert_int_equal(mock.clear, 1);

    /* A resource passed where a view is expected, and a view where a resource is. */
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(env->ctx, (ID3D11Resource *)(void *)v, 0, D3D11_MAP_READ, 0, &m),
                     E_INVALIDARG);

    ID3D11RenderTargetView_Release(v);
    ID3D11Texture2D_Release(rt);
    ID3D11Texture2D_Release(sr);
}

/* rule: runtime.render-target-views-resource-bound */
static void buffer_and_3d_render_target_views(void **state)
{
    struct mock_env *env = *state;
    ID3D11Buffer *b = buffer(env->dev, 1024, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);
    ID3D11RenderTargetView *v = NULL;
    assert_int_equal(ID3D11Device_CreateRenderTargetView(env->dev, R(b), NULL, &v), E_INVALIDARG);
    D3D11_RENDER_TARGET_VIEW_DESC d;
    memset(&d, 0, sizeof(d));
    d.Format = DXGI_FORMAT_R32_FLOAT;
    d.ViewDimension = D3D11_RTV_DIMENSION_BUFFER;
    d.Buffer.FirstElement = 200;
    d.Buffer.NumElements = 57;           /* 257 * 4 > 1024 */
    assert_int_equal(ID3D11Device_CreateRenderTargetView(env->dev, R(b), &d, &v), E_INVALIDARG);
    d.Buffer.NumElements = 56;
    assert_int_equal(ID3D11Device_CreateRenderTargetView(env->dev, R(b), &d, &v), S_OK);
    ID3D11RenderTargetView_Release(v);

    D3D11_TEXTURE3D_DESC td = { 16, 16, 8, 0, DXGI_FORMAT_R16G16B16A16_FLOAT, D3D11_USAGE_DEFAULT,
                                D3D11_BIND_RENDER_TARGET, 0, 0 };
    ID3D11Texture3D *t;
    assert_int_equal(ID3D11Device_CreateTexture3D(env->dev, &td, NULL, &t), S_OK);
    assert_int_equal(ID3D11Device_CreateRenderTargetView(env->dev, R(t), NULL, &v), S_OK);
    ID3D11RenderTargetView_Release(v);
    d.Format = DXGI_FORMAT_UNKNOWN;      /* the resource's format */
    d.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE3D;
    d.Texture3D.MipSlice = 1;            /* depth 4 at mip 1 */
    d.Texture3D.FirstWSlice = 2;
    d.Texture3D.WSize = (UINT)-1;        /* all remaining slices */
    assert_int_equal(ID3D11Device_CreateRenderTargetView(env->dev, R(t), &d, &v), S_OK);
    ID3D11RenderTargetView_Release(v);
    d.Texture3D.WSize = 3;               /* 2 + 3 > 4 */
    assert_int_equal(ID3D11Device_CreateRenderTargetView(env->dev, R(t), &d, &v), E_INVALIDARG);
    ID3D11Texture3D_Release(t);
    ID3D11Buffer_Release(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(copy_resource_rules, mock_setup, mock_teardown),
        cmocka_unit_test_setup_teardown(copy_subresource_region_rules, mock_setup, mock_teardown),
        cmocka_unit_test_setup_teardown(update_subresource_rules, mock_setup, mock_teardown),
        cmocka_unit_test_setup_teardown(render_target_views_and_clear, mock_setup, mock_teardown),
        cmocka_unit_test_setup_teardown(buffer_and_3d_render_target_views, mock_setup, mock_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
