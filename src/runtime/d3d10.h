/*
 * d3d10.h - the runtime's D3D10 API faces (issue 15 §1; d3d10_*.c).
 *
 * A D3D10CreateDevice(1) device is the runtime's one device object, driving the D3D10.0 / 10.1
 * DDI (ddi10.c); its ID3D10Device1 face and the D3D10 faces of its resources, views and queries
 * sit beside their D3D11 faces in the same objects and translate D3D10 arguments into the D3D11
 * methods every rule is already checked in. Calls through a D3D10 face take the device's
 * ID3D10Multithread lock while protection is on (D3D10's default).
 */
#ifndef WDDM_RUNTIME_D3D10_H
#define WDDM_RUNTIME_D3D10_H

#include "runtime/runtime.h"

/* d3d10_device.c */
/* A D3D10 API call: its scope in the debug layer (the method's D3D10 message ID and category;
 * a refusal inside becomes a message with an ID D3D10 names, debug_layer.c) and its critical
 * section, taken while multithread protection is on; leave releases what enter took
 * (protection may change in between). */
struct rt_d3d10_call {
    struct rt_api_call scope;       /* scope.device: the device */
    BOOL locked;
};
void rt_d3d10_enter(struct rt_d3d10_call *c, struct rt_device *dev, D3D10_MESSAGE_ID id,
                    D3D10_MESSAGE_CATEGORY category);
void rt_d3d10_leave(struct rt_d3d10_call *c);
/* The same, in a method: `call10_` opened by D3D10_CALL, closed by D3D10_DONE. */
#define D3D10_CALL(dev, id, category)                                                                      \
    struct rt_d3d10_call call10_;                                                                          \
    rt_d3d10_enter(&call10_, (dev), D3D10_MESSAGE_ID_##id, D3D10_MESSAGE_CATEGORY_##category)
#define D3D10_DONE() rt_d3d10_leave(&call10_)
void rt_d3d10_get_device(struct rt_device *dev, ID3D10Device **out);
struct rt_device *rt_device_from_d3d10(ID3D10Device *iface); /* NULL: not one of ours */

/* d3d10_resource.c */
extern const struct ID3D10BufferVtbl rt_d3d10_buffer_vtbl;
extern const struct ID3D10Texture1DVtbl rt_d3d10_texture1d_vtbl;
extern const struct ID3D10Texture2DVtbl rt_d3d10_texture2d_vtbl;
extern const struct ID3D10Texture3DVtbl rt_d3d10_texture3d_vtbl;
struct rt_resource *rt_resource_from_d3d10(ID3D10Resource *iface); /* NULL: not one of ours */
HRESULT rt_d3d10_misc_to_d3d11(UINT misc10, UINT *misc11);
UINT rt_d3d10_misc_from_d3d11(UINT misc11);
HRESULT rt_d3d10_check_bind(UINT bind);

/* d3d10_view.c */
struct rt_rtv *rt_rtv_from_d3d10(ID3D10RenderTargetView *iface);
struct rt_sview *rt_srv_from_d3d10(ID3D10ShaderResourceView *iface);

/* d3d10_query.c */
HRESULT rt_d3d10_create_query(struct rt_device *dev, const D3D10_QUERY_DESC *desc, ID3D10Query **out);

#endif
