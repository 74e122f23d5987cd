/*
 * d3d10_view.c - the D3D10 faces of views (issue 15 §1): ID3D10RenderTargetView and
 * ID3D10ShaderResourceView1 over the runtime's views (view.c, view_sruav.c), one object with
 * their D3D11 faces. The descriptions have D3D11's layout for everything D3D10 can describe
 * (D3D11 only adds union members and view dimensions past D3D10.1's).
 */
#include "runtime/runtime.h"
#include "runtime/d3d10.h"
#include "runtime/api_stubs.h"

#include <stddef.h>

static struct rt_rtv *rtv_of(void *face)
{
    return (struct rt_rtv *)((char *)face - offsetof(struct rt_rtv, d3d10));
}

static struct rt_sview *srv_of(void *face)
{
    return (struct rt_sview *)((char *)face - offsetof(struct rt_sview, d3d10));
}

struct rt_rtv *rt_rtv_from_d3d10(ID3D10RenderTargetView *iface)
{
    if (!iface || iface->lpVtbl != &rt_d3d10_rtv_vtbl)
        return NULL;
    struct rt_rtv *v = rtv_of(iface);
    return v->magic == RT_VIEW_MAGIC ? v : NULL;
}

struct rt_sview *rt_srv_from_d3d10(ID3D10ShaderResourceView *iface)
{
    if (!iface || (const void *)iface->lpVtbl != (const void *)&rt_d3d10_srv_vtbl)
        return NULL;
    struct rt_sview *v = srv_of(iface);
    return v->magic == RT_VIEW_MAGIC && !v->is_uav ? v : NULL;
}

void *rt_d3d10_rtv_face(struct rt_rtv *v, REFIID riid)
{
    if (!rt_device_is_d3d10(v->device))
        return NULL;
    if (rt_iid_equal(riid, &IID_ID3D10DeviceChild) || rt_iid_equal(riid, &IID_ID3D10View) ||
        rt_iid_equal(riid, &IID_ID3D10RenderTargetView))
        return &v->d3d10;
    return NULL;
}

void *rt_d3d10_srv_face(struct rt_sview *v, REFIID riid)
{
    if (!rt_device_is_d3d10(v->device))
        return NULL;
    if (rt_iid_equal(riid, &IID_ID3D10DeviceChild) || rt_iid_equal(riid, &IID_ID3D10View) ||
        rt_iid_equal(riid, &IID_ID3D10ShaderResourceView) || rt_iid_equal(riid, &IID_ID3D10ShaderResourceView1))
        return &v->d3d10;
    return NULL;
}

/* ---- ID3D10RenderTargetView ------------------------------------------------------------------- */

static HRESULT STDMETHODCALLTYPE rtv10_QueryInterface(ID3D10RenderTargetView *This, REFIID riid, void **ppv)
{
    return ID3D11RenderTargetView_QueryInterface(&rtv_of(This)->iface, riid, ppv);
}
static ULONG STDMETHODCALLTYPE rtv10_AddRef(ID3D10RenderTargetView *This)
{
    return ID3D11RenderTargetView_AddRef(&rtv_of(This)->iface);
}
static ULONG STDMETHODCALLTYPE rtv10_Release(ID3D10RenderTargetView *This)
{
    return ID3D11RenderTargetView_Release(&rtv_of(This)->iface);
}
static void STDMETHODCALLTYPE rtv10_GetDevice(ID3D10RenderTargetView *This, ID3D10Device **out)
{
    rt_d3d10_get_device(rtv_of(This)->device, out);
}
static void STDMETHODCALLTYPE rtv10_GetResource(ID3D10RenderTargetView *This, ID3D10Resource **out)
{
    if (!out)
        return;
    struct rt_resource *res = rtv_of(This)->resource;
    rt_resource_addref(res);
    *out = &res->d3d10;
}
static void STDMETHODCALLTYPE rtv10_GetDesc(ID3D10RenderTargetView *This, D3D10_RENDER_TARGET_VIEW_DESC *desc)
{
    /* D3D10_RENDER_TARGET_VIEW_DESC is D3D11's, member for member. */
    _Static_assert(sizeof(D3D10_RENDER_TARGET_VIEW_DESC) == sizeof(D3D11_RENDER_TARGET_VIEW_DESC), "RTV desc layout");
    if (desc)
        memcpy(desc, &rtv_of(This)->desc, sizeof *desc);
}
RT_PRIVATE_DATA_METHODS(rtv10, ID3D10RenderTargetView, &rtv_of(This)->device->private_lock,
                        &rtv_of(This)->private_data)

const struct ID3D10RenderTargetViewVtbl rt_d3d10_rtv_vtbl = {
    RT_API_STUBS_ID3D10RenderTargetView,
    .QueryInterface = rtv10_QueryInterface,
    .AddRef = rtv10_AddRef,
    .Release = rtv10_Release,
    .GetDevice = rtv10_GetDevice,
    RT_PRIVATE_DATA_SLOTS(rtv10),
    .GetResource = rtv10_GetResource,
    .GetDesc = rtv10_GetDesc,
};

/* ---- ID3D10ShaderResourceView1 ---------------------------------------------------------------- */

static ID3D11ShaderResourceView *srv11(ID3D10ShaderResourceView1 *This)
{
    return (ID3D11ShaderResourceView *)srv_of(This);
}
static HRESULT STDMETHODCALLTYPE srv10_QueryInterface(ID3D10ShaderResourceView1 *This, REFIID riid, void **ppv)
{
    return ID3D11ShaderResourceView_QueryInterface(srv11(This), riid, ppv);
}
static ULONG STDMETHODCALLTYPE srv10_AddRef(ID3D10ShaderResourceView1 *This)
{
    return ID3D11ShaderResourceView_AddRef(srv11(This));
}
static ULONG STDMETHODCALLTYPE srv10_Release(ID3D10ShaderResourceView1 *This)
{
    return ID3D11ShaderResourceView_Release(srv11(This));
}
static void STDMETHODCALLTYPE srv10_GetDevice(ID3D10ShaderResourceView1 *This, ID3D10Device **out)
{
    rt_d3d10_get_device(srv_of(This)->device, out);
}
static void STDMETHODCALLTYPE srv10_GetResource(ID3D10ShaderResourceView1 *This, ID3D10Resource **out)
{
    if (!out)
        return;
    struct rt_resource *res = srv_of(This)->resource;
    rt_resource_addref(res);
    *out = &res->d3d10;
}
/* The D3D10.1 description is D3D11's up to TEXTURECUBEARRAY; a D3D10 view never has more. */
static void STDMETHODCALLTYPE srv10_GetDesc1(ID3D10ShaderResourceView1 *This, D3D10_SHADER_RESOURCE_VIEW_DESC1 *desc)
{
    if (desc)
        memcpy(desc, &srv_of(This)->desc.srv, sizeof *desc);
}
static void STDMETHODCALLTYPE srv10_GetDesc(ID3D10ShaderResourceView1 *This, D3D10_SHADER_RESOURCE_VIEW_DESC *desc)
{
    if (desc)
        memcpy(desc, &srv_of(This)->desc.srv, sizeof *desc);
}
RT_PRIVATE_DATA_METHODS(srv10, ID3D10ShaderResourceView1, &srv_of(This)->device->private_lock,
                        &srv_of(This)->private_data)

const struct ID3D10ShaderResourceView1Vtbl rt_d3d10_srv_vtbl = {
    RT_API_STUBS_ID3D10ShaderResourceView1,
    .QueryInterface = srv10_QueryInterface,
    .AddRef = srv10_AddRef,
    .Release = srv10_Release,
    .GetDevice = srv10_GetDevice,
    RT_PRIVATE_DATA_SLOTS(srv10),
    .GetResource = srv10_GetResource,
    .GetDesc = srv10_GetDesc,
    .GetDesc1 = srv10_GetDesc1,
};
