/*
 * runtime.h - the D3D11 runtime's private interface (src/runtime/, docs/architecture.md).
 *
 * The runtime owns the COM objects the application sees, validates every call against the
 * Direct3D 11 rules (docs/semantics.md §4, §5), allocates the driver's handle memory
 * (seed 001 §3: CalcPrivate*Size then Create*), and implements the callbacks the UMD calls by
 * translating them to D3DKMT thunks (seed 001 §2). It never touches kernel objects.
 *
 * Locking: one mutex per device (rt_device.lock) serialises every call into the UMD, so the
 * error a UMD reports through pfnSetErrorCb lands in the slot of the call in flight
 * (rt_device.call_error). The UMD's callbacks into the runtime (pfnAllocateCb ...) do not take
 * it. Reference counts are atomics and need no lock.
 */
#ifndef WDDM_RUNTIME_RUNTIME_H
#define WDDM_RUNTIME_RUNTIME_H

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "d3d11.h"
#include "d3d11_1.h"
#include "d3d11_4.h" /* with d3d11_2.h and d3d11_3.h */
#include "dxgi1_4.h"
#include "d3d10_1.h"
#include "d3d11sdklayers.h"
#include "dxgidebug.h"
#include "wddm/d3d10umddi.h"
#include "wddm/d3dkmthk.h"
#include "wddm/wddm.h"
#include "common/debug.h"
#include "common/format.h"

/* One refusal line (docs/architecture.md "Errors and bad input"): "wddm: runtime: <rule>"; inside an API
 * call of a debug device, a message of its ID3D11InfoQueue (debug_layer.c) with the call's
 * D3D11_MESSAGE_ID, or the site's own (RT_REFUSE_ID). */
void rt_refuse(D3D11_MESSAGE_ID id, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define RT_REFUSE(...) rt_refuse(D3D11_MESSAGE_ID_UNKNOWN, __VA_ARGS__)
#define RT_REFUSE_ID(id, ...) rt_refuse(id, __VA_ARGS__)

/* A refusal by a DXGI object (dxgi_debug.c): the refusal line as RT_REFUSE's, and, while the
 * DXGI debug layer is on in the process, a message of the DXGI info queue under producer
 * DXGI_DEBUG_DXGI, severity ERROR, its category and the refusing interface's ID
 * (RT_DXGI_MSG_*, docs/api.md "The DXGI info queue"). */
enum rt_dxgi_msg {
    RT_DXGI_MSG_FACTORY = 1, RT_DXGI_MSG_ADAPTER, RT_DXGI_MSG_DEVICE, RT_DXGI_MSG_RESOURCE, RT_DXGI_MSG_SURFACE,
    RT_DXGI_MSG_KEYED_MUTEX, RT_DXGI_MSG_DEBUG
};
void rt_refuse_dxgi(enum rt_dxgi_msg id, DXGI_INFO_QUEUE_MESSAGE_CATEGORY category, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* DXGI files its refusals under MISCELLANEOUS (Windows' DXGI debug output reads
 * "[ MISCELLANEOUS ERROR #n: ]"). */
#define RT_REFUSE_DXGI(who, ...) \
    rt_refuse_dxgi(RT_DXGI_MSG_##who, DXGI_INFO_QUEUE_MESSAGE_CATEGORY_MISCELLANEOUS, __VA_ARGS__)

/* Largest resource the runtime accepts, in bytes. D3D11 caps a resource at
 * min(max(128 MiB, VRAM/4), 2 GiB) (D3D11_REQ_RESOURCE_SIZE_IN_MEGABYTES_EXPRESSION_*);
 * model decision: use the upper bound, 2 GiB, and let VidMm refuse what it cannot place. */
#define RT_MAX_RESOURCE_BYTES (2ull * 1024 * 1024 * 1024)

struct rt_device;
struct rt_deferred;
struct rt_discard;

/* ---- private data (private_data.c; issue 15 §4): GUID-keyed data on every object ------------ */
struct rt_private_entry;
struct rt_private_data { struct rt_private_entry *head; }; /* guarded by its owner's private_lock */
HRESULT rt_private_set(pthread_mutex_t *lock, struct rt_private_data *pd, REFGUID guid, UINT size, const void *data);
HRESULT rt_private_set_interface(pthread_mutex_t *lock, struct rt_private_data *pd, REFGUID guid, const IUnknown *unk);
HRESULT rt_private_get(pthread_mutex_t *lock, struct rt_private_data *pd, REFGUID guid, UINT *size, void *data);
/* At the object's destruction (no other thread can reach it): frees the data, releases interfaces. */
void rt_private_clear(struct rt_private_data *pd);
/* The three methods of interface Iface over an object whose lock and store `This` reaches
 * through the expressions LOCK and STORE, with the given linkage (static, or empty for methods
 * two files' vtables share); RT_PRIVATE_DATA_SLOTS names them in a vtable. */
#define RT_PRIVATE_DATA_DEFINE(linkage, prefix, Iface, LOCK, STORE)                                        \
    linkage HRESULT STDMETHODCALLTYPE prefix##_GetPrivateData(Iface *This, REFGUID guid, UINT *size, void *data) \
    { return rt_private_get(LOCK, STORE, guid, size, data); }                                          \
    linkage HRESULT STDMETHODCALLTYPE prefix##_SetPrivateData(Iface *This, REFGUID guid, UINT size,        \
                                                              const void *data)                           \
    { return rt_private_set(LOCK, STORE, guid, size, data); }                                          \
    linkage HRESULT STDMETHODCALLTYPE prefix##_SetPrivateDataInterface(Iface *This, REFGUID guid,          \
                                                                       const IUnknown *unk)               \
    { return rt_private_set_interface(LOCK, STORE, guid, unk); }
#define RT_PRIVATE_DATA_METHODS(prefix, Iface, LOCK, STORE) RT_PRIVATE_DATA_DEFINE(static, prefix, Iface, LOCK, STORE)
#define RT_PRIVATE_DATA_SLOTS(prefix)                                                                      \
    .GetPrivateData = prefix##_GetPrivateData, .SetPrivateData = prefix##_SetPrivateData,                \
    .SetPrivateDataInterface = prefix##_SetPrivateDataInterface

/* ---- immediate context (context.c); deferred contexts embed one too (deferred.c) ------------- */
struct rt_context {
    ID3D11DeviceContext iface;      /* first: the COM pointer handed out */
    atomic_uint refs;               /* 0 -> 1 takes a device reference, 1 -> 0 drops it */
    struct rt_device *device;
    struct rt_deferred *dc;         /* NULL on the immediate context; set once at creation */
    struct rt_private_data private_data;
};

/* Deferred-context handle sizes the UMD listed in CheckDeferredContextHandleSizes (double
 * poll at device creation, docs/semantics.md §4.5 rule 1): the per-size allocator's classes. */
#define RT_DC_MAX_SIZES 32u

/* ---- DXGI: factory and adapters (dxgi_factory.c, dxgi_adapter.c; issue 15 §3) ----------------- */
/* The kernel's adapters by LUID, in its order (adapters.c); *luids is the caller's to free. */
HRESULT rt_adapters_enum(LUID **luids, UINT *count);
BOOL rt_luid_equal(LUID a, LUID b);

struct rt_factory {
    IDXGIFactory4 iface;            /* first: one vtable serves IDXGIFactory .. IDXGIFactory4 */
    atomic_uint refs;
    UINT flags;                     /* CreateDXGIFactory2's Flags */
    LUID *luids;                    /* the adapters when the factory was made (EnumAdapters' snapshot) */
    UINT count;
    pthread_mutex_t private_lock;
    struct rt_private_data private_data;
};

struct rt_adapter {
    IDXGIAdapter3 iface;            /* first: one vtable serves IDXGIAdapter .. IDXGIAdapter3 */
    atomic_uint refs;
    struct rt_factory *factory;     /* holds a reference (GetParent) */
    LUID luid;
    D3DKMT_HANDLE km_adapter;       /* open while the object lives */
    DXGI_ADAPTER_DESC2 desc;
    pthread_mutex_t private_lock;
    struct rt_private_data private_data;
    /* Budget-change events (dxgi_budget.c), and the kernel device their registrations need,
     * opened by the first one; guarded by private_lock. */
    struct rt_budget_event *budget_events;
    DWORD next_budget_cookie;
    D3DKMT_HANDLE km_device;
};

HRESULT rt_factory_create(UINT flags, struct rt_factory **out);
ULONG rt_factory_release(struct rt_factory *f);
/* A new adapter object for the LUID, child of the factory (which it references). */
HRESULT rt_adapter_create(struct rt_factory *f, LUID luid, struct rt_adapter **out);
/* The adapter behind an application's IDXGIAdapter pointer, or NULL if it is not one of ours. */
struct rt_adapter *rt_adapter_from_iface(IDXGIAdapter *iface);
/* dxgi_budget.c: IDXGIAdapter3's budget-change events; close drops them with the adapter. */
HRESULT rt_adapter_register_budget_event(struct rt_adapter *a, HANDLE event, DWORD *cookie);
void rt_adapter_unregister_budget_event(struct rt_adapter *a, DWORD cookie);
void rt_adapter_budget_events_close(struct rt_adapter *a);

/* ---- the debug layer (debug_layer.c, info_queue.c; issue 15 §4) ------------------------------------- */
/* Live objects a device counts by kind, for ID3D11Debug::ReportLiveDeviceObjects. */
enum rt_live_kind {
    RT_LIVE_BUFFER, RT_LIVE_TEXTURE1D, RT_LIVE_TEXTURE2D, RT_LIVE_TEXTURE3D, RT_LIVE_SRV, RT_LIVE_RTV, RT_LIVE_UAV,
    RT_LIVE_QUERY, RT_LIVE_CONTEXT, RT_LIVE_COMMANDLIST, RT_LIVE_KINDS
};
#define RT_LIVE_ADD(dev, kind, n) atomic_fetch_add_explicit(&(dev)->live[kind], (unsigned)(n), memory_order_relaxed)
/* A resource's kind: RT_LIVE_BUFFER .. TEXTURE3D follow D3D11_RESOURCE_DIMENSION_BUFFER .. TEXTURE3D. */
#define rt_live_kind_of(res) ((enum rt_live_kind)((res)->dimension - D3D11_RESOURCE_DIMENSION_BUFFER))
/* An API call in flight on this thread (a stack: a call may make another). A call through a
 * D3D10 face opens one too, with its D3D10 ID (D3D10's IDs are D3D11's namesakes, same values);
 * the D3D11 calls it makes on the same device inherit it in `d3d10`, so a refusal inside one
 * reports an ID the D3D10 API names (debug_layer.c). */
struct rt_api_call {
    struct rt_device *device;
    D3D11_MESSAGE_ID id;            /* what a refusal in it reports, unless the site names its own */
    D3D11_MESSAGE_CATEGORY category;
    const struct rt_api_call *d3d10; /* the D3D10 API call this one serves; NULL in a D3D11 call */
    struct rt_api_call *prev;
};
void rt_call_begin(struct rt_api_call *c, struct rt_device *dev, D3D11_MESSAGE_ID id, D3D11_MESSAGE_CATEGORY category);
void rt_call_begin_d3d10(struct rt_api_call *c, struct rt_device *dev, D3D10_MESSAGE_ID id,
                         D3D10_MESSAGE_CATEGORY category);
void rt_call_end(struct rt_api_call *c);
struct rt_info_queue;
HRESULT rt_info_queue_create(struct rt_device *dev); /* sets dev->info_queue */
void rt_info_queue_destroy(struct rt_info_queue *q);
ID3D11InfoQueue *rt_info_queue_iface(struct rt_info_queue *q);
ID3D10InfoQueue *rt_info_queue_iface10(struct rt_info_queue *q); /* the same queue's D3D10 face */
void rt_info_queue_add(struct rt_device *dev, D3D11_MESSAGE_CATEGORY c, D3D11_MESSAGE_SEVERITY s, D3D11_MESSAGE_ID id,
                       const char *text);
/* The debug device's live objects as LIVE_* messages of its queue (ReportLiveDeviceObjects,
 * and IDXGIDebug::ReportLiveObjects for every tracked debug device). */
void rt_debug_report_live(struct rt_device *dev, BOOL detail);
extern const struct ID3D11DebugVtbl rt_debug_vtbl;
extern const struct ID3D10SwitchToRefVtbl rt_switch_to_ref_vtbl;
/* The process's DXGI debug layer (dxgi_debug.c): on once a DXGI debug interface was obtained, a
 * factory created with DXGI_CREATE_FACTORY_DEBUG or a debug device; a debug device's messages
 * are forwarded to its DXGI_DEBUG_D3D11 (D3D10) producer; debug devices created on a thread
 * that tracks leaks are reported by IDXGIDebug::ReportLiveObjects. */
void rt_dxgi_debug_enable(void);
void rt_dxgi_debug_forward(BOOL d3d10, UINT category, UINT severity, UINT id, const char *text);
void rt_dxgi_debug_track_device(struct rt_device *dev);
void rt_dxgi_debug_untrack_device(struct rt_device *dev);
extern const struct ID3D10DebugVtbl rt_debug10_vtbl;
void rt_debug_render_op(struct rt_device *dev, ID3D11DeviceContext *ctx);

/* ---- device (device.c) ------------------------------------------------------------------------ */
/* Kernel contexts a device's UMD may create that SetGPUThreadPriority reaches (a UMD makes one
 * per engine it uses; more are created but keep the default priority, with a debug line). */
#define RT_MAX_KM_CONTEXTS 16u
/* dxgi_device.c: a context the UMD created / destroyed (pfnCreateContextCb, pfnDestroyContextCb). */
void rt_device_context_created(struct rt_device *dev, D3DKMT_HANDLE context);
void rt_device_context_destroyed(struct rt_device *dev, D3DKMT_HANDLE context);
struct rt_device {
    ID3D11Device iface;             /* first: the COM pointer handed out */
    atomic_uint refs;               /* application references + one per live child object */
    struct rt_context context;      /* the immediate context, embedded */

    UINT create_flags;              /* D3D11_CREATE_DEVICE_* as given */
    D3D_FEATURE_LEVEL feature_level;
    UINT threading_caps;            /* D3D11DDICAPS_* the UMD reported (pfnGetCaps THREADING) */

    pthread_mutex_t lock;           /* serialises UMD calls; protects call_error and map state */
    pthread_mutex_t private_lock;   /* guards the private data of the device and all its objects */
    struct rt_private_data private_data;
    HRESULT call_error;             /* first error pfnSetErrorCb reported during the call in flight.
                                     * Protected by lock. */
    atomic_int removed_reason;      /* S_OK, or the API HRESULT GetDeviceRemovedReason answers */

    /* kernel side (D3DKMT handles only: the runtime never sees kernel objects) */
    D3DKMT_HANDLE km_adapter;
    D3DKMT_HANDLE km_device;
    LUID adapter_luid;
    struct rt_adapter *adapter;     /* the DXGI adapter (one reference): given to D3D11CreateDevice,
                                     * or made at the first IDXGIDevice::GetAdapter; guarded by
                                     * private_lock */
    IDXGIDevice3 dxgi;              /* the device's DXGI face (dxgi_device.c): same object */
    INT gpu_thread_priority;        /* IDXGIDevice::SetGPUThreadPriority, -7..7; every kernel
                                     * context of the device runs at it (guarded by private_lock) */
    D3DKMT_HANDLE km_contexts[RT_MAX_KM_CONTEXTS]; /* the UMD's kernel contexts (pfnCreateContextCb) */
    UINT km_context_count;          /* guarded by private_lock */
    UINT max_frame_latency;         /* IDXGIDevice1::SetMaximumFrameLatency, 1..16 (default 3) */

    /* UMD side */
    D3D10DDI_HADAPTER drv_adapter;
    D3D10_2DDI_ADAPTERFUNCS adapter_funcs;
    BOOL adapter_open;
    void *drv_device_mem;           /* CalcPrivateDeviceSize bytes, allocated by the runtime */
    D3D10DDI_HDEVICE drv_device;
    BOOL drv_device_created;
    /* The table every path calls, in the D3D11.0 DDI's layout: the UMD's own on an 11.0 device,
     * else the one the UMD filled (funcs10 / funcs1) adopted into it - the slots with the same
     * type copied, the others left NULL and called through the rt_ddi_* functions (ddi10.c,
     * ddi11_1.c). ddi_interface names the DDI the device drives (issue 15 §1, §4): 11.1 (or
     * 11.0 when the UMD does not list 11.1), or 10.0 / 10.1 for a D3D10CreateDevice(1) device.
     * Set at creation. */
    D3D11DDI_DEVICEFUNCS funcs;
    UINT ddi_interface;
    D3D11_1DDI_DEVICEFUNCS funcs1; /* the UMD's 11.1 table (ddi11_1.c) */
    union { D3D10DDI_DEVICEFUNCS f10; D3D10_1DDI_DEVICEFUNCS f10_1; } funcs10;
    D3D10DDI_CORELAYER_DEVICECALLBACKS core_callbacks10;
    DXGI_DDI_BASE_CALLBACKS dxgi_callbacks;   /* D3D10DDIARG_CREATEDEVICE.DXGIBaseDDI (callbacks.c) */
    DXGI1_2_DDI_BASE_FUNCTIONS dxgi_funcs;    /* what the UMD put there: not called */
    PFND3D10DDI_RETRIEVESUBOBJECT retrieve_subobject; /* likewise */
    /* The D3D10 API's faces of the device (d3d10_device.c): set only on a D3D10 device. */
    ID3D10Device1 d3d10;
    ID3D10Multithread multithread;  /* also ID3D11Multithread (multithread.c): every device */
    atomic_int mt_protected;        /* SetMultithreadProtected (D3D10's default TRUE, D3D11's FALSE) */
    pthread_mutex_t mt_lock;        /* Enter / Leave, and a protected immediate context's calls (recursive) */
    UINT d3d10_flags;               /* D3D10_CREATE_DEVICE_* as given (GetCreationFlags) */
    /* The debug layer (D3D11_CREATE_DEVICE_DEBUG, D3D10_CREATE_DEVICE_DEBUG; debug_layer.c,
     * info_queue.c): NULL without. */
    struct rt_removal_watch *removal; /* RegisterDeviceRemovedEvent's events (removed_event.c);
                                         made at the first, guarded by private_lock */
    struct rt_info_queue *info_queue;
    ID3D11Debug debug;              /* the ID3D11Debug face (with info_queue only) */
    ID3D10Debug debug10;            /* the ID3D10Debug face (with info_queue, on a D3D10 device) */
    ID3D10SwitchToRef switch_to_ref; /* D3D10_CREATE_DEVICE_SWITCH_TO_REF (d3d10_device.c): NULL lpVtbl without */
    atomic_uint debug_features;     /* ID3D11Debug / ID3D10Debug::SetFeatureMask */
    atomic_uint debug_present_delay;
    atomic_uint live[RT_LIVE_KINDS]; /* live objects by kind (ReportLiveDeviceObjects) */
    atomic_uint exception_mode;     /* ID3D10Device::SetExceptionMode */
    atomic_uint text_filter_w, text_filter_h; /* ID3D10Device::SetTextFilterSize */

    /* Recycled resource blocks (resource.c): each an rt_resource with RT_RESOURCE_DRV_INLINE
     * bytes of driver handle memory behind it. Protected by lock (creation and destruction
     * already hold it around the DDI call, so the cache costs no extra lock round trip). */
    struct rt_resource *res_cache;
    UINT res_cache_count;

    /* Deferred contexts (deferred_handles.c). Written once during device creation, then read-only. */
    BOOL drv_command_lists;         /* the UMD reports D3D11DDICAPS_COMMANDLISTS(_BUILD_2) and fills the DC DDIs;
                                     * FALSE: the runtime emulates command lists itself */
    UINT dc_size_count;
    D3D11DDI_HANDLESIZE dc_sizes[RT_DC_MAX_SIZES];
    atomic_uint dc_size_violations; /* CalcDeferredContextHandleSize answers not listed (verifier) */

    /* callbacks given to the UMD (callbacks.c); stable for the device's lifetime */
    D3DDDI_ADAPTERCALLBACKS adapter_callbacks;
    D3DDDI_DEVICECALLBACKS kt_callbacks;
    D3D11DDI_CORELAYER_DEVICECALLBACKS core_callbacks;
};

/* ---- resources (resource.c, buffer.c, texture.c) ------------------------------------------------ */
#define RT_RESOURCE_MAGIC 0x52545245u /* "RTRE": recognises our resources behind a COM pointer */

struct rt_resource {
    ID3D11Resource iface;           /* first: lpVtbl is the Buffer / Texture1D/2D/3D vtable */
    UINT magic;
    atomic_uint refs;
    struct rt_device *device;       /* holds one device reference */
    struct rt_private_data private_data;

    D3D11_RESOURCE_DIMENSION dimension;
    union {                         /* the description as the application gave it, MipLevels resolved */
        D3D11_BUFFER_DESC buffer;
        D3D11_TEXTURE1D_DESC tex1d;
        D3D11_TEXTURE2D_DESC tex2d;
        D3D11_TEXTURE3D_DESC tex3d;
    } desc;

    /* normalised view of the description (every dimension filled, 1 where unused) */
    UINT width, height, depth;      /* buffers: width = ByteWidth */
    UINT mip_levels, array_size;
    DXGI_FORMAT format;             /* DXGI_FORMAT_UNKNOWN for buffers */
    UINT sample_count, sample_quality;
    D3D11_USAGE usage;
    UINT bind_flags, cpu_access, misc_flags;
    UINT subresource_count;
    UINT eviction_priority;

    /* Map state, protected by device->lock: one bit per subresource (docs/semantics.md §5.3:
     * double map refused, Unmap must match a Map). mapped_bits points at mapped_inline when
     * 64 subresources or fewer (every buffer), else at a heap array. */
    UINT64 *mapped_bits;
    UINT64 mapped_inline;
    UINT mapped_count;
    BOOL offered;                   /* IDXGIDevice2::OfferResources until ReclaimResources: no Map */

    /* driver handle memory (seed 001 §3) and the kernel resource the UMD created for it.
     * drv_mem is inline right behind the rt_resource (one block, as the D3D runtime lays its
     * objects out) when drv_inline; the block is then recycled through device->res_cache. */
    void *drv_mem;
    BOOL drv_inline;
    struct rt_resource *cache_next; /* device->res_cache link while cached */
    D3D10DDI_HRESOURCE drv;
    D3DKMT_HANDLE km_resource;      /* set by pfnAllocateCb when hResource names this resource */
    SIZE_T dc_handle_size;          /* CalcDeferredContextHandleSize after creation; read-only after */

    /* Sharing (issue 6, share.c): the IDXGIResource face, and the global share handle of a
     * MISC_SHARED resource (set by pfnAllocateCb) or of an opened one; read-only after. */
    IDXGIResource dxgi;
    D3DKMT_HANDLE global_share;
    IDXGISurface1 surface;          /* the IDXGISurface face of a one-mip, one-slice 1D or 2D texture
                                     * (surface.c) */
    /* A MISC_SHARED_KEYEDMUTEX texture's IDXGIKeyedMutex face and its kernel keyed mutex and
     * fence (keyed_mutex.c), created or opened with the resource; NULL for any other. */
    IDXGIKeyedMutex keyed_mutex;
    struct rt_keyed_mutex *km;
    ID3D10Resource d3d10;           /* the D3D10 face on a D3D10 device: lpVtbl is the
                                     * ID3D10Buffer / Texture1D/2D/3D vtable (d3d10_resource.c) */
};

/* The runtime's private data of a shared resource (D3DKMT_CREATEALLOCATION.pPrivateRuntimeData,
 * returned by D3DKMTQueryResourceInfo / D3DKMTOpenResource): what OpenSharedResource rebuilds
 * the D3D11 description from (issue 6). Whoever creates a shared surface for D3D11 to open (the
 * kernel's cross-adapter surfaces too) stores one. */
#define RT_SHARED_RUNTIME_MAGIC 0x48535452u /* "RTSH" */
struct rt_shared_runtime_data {
    UINT magic;
    UINT version;                   /* 1 */
    D3D11_RESOURCE_DIMENSION dimension; /* TEXTURE2D (the only shareable kind, validate.c) */
    D3D11_TEXTURE2D_DESC tex2d;     /* as created (MipLevels resolved) */
    D3DKMT_HANDLE keyed_mutex;      /* MISC_SHARED_KEYEDMUTEX: the global handles of its keyed */
    D3DKMT_HANDLE keyed_mutex_sync; /* mutex and of its fence (keyed_mutex.c), else 0; 0 with
                                       MISC_SHARED_NTHANDLE: the NT handle carries them */
};
/* The misc flags that make a resource shared (a global share handle, OpenSharedResource). */
#define RT_MISC_SHARED_ANY (D3D11_RESOURCE_MISC_SHARED | D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX)

/* keyed_mutex.c: a keyed-mutex resource's kernel objects. Create makes new ones (on dev's
 * device), open opens those a shared resource's runtime data names; free destroys this
 * resource's handles (an owned mutex is then abandoned, as DXGI documents). */
struct rt_keyed_mutex;
extern const struct IDXGIKeyedMutexVtbl rt_keyed_mutex_vtbl;
/* nt: for a MISC_SHARED_NTHANDLE resource, made with NtSecuritySharing (no global handles: the
 * resource's NT handle shares them, D3DKMTShareObjects). Adopt takes the handles
 * D3DKMTOpenResourceFromNtHandle opened; locals are this resource's own handles. */
HRESULT rt_keyed_mutex_create(struct rt_device *dev, BOOL nt, struct rt_keyed_mutex **out);
HRESULT rt_keyed_mutex_open(D3DKMT_HANDLE mutex_global, D3DKMT_HANDLE sync_global, struct rt_keyed_mutex **out);
HRESULT rt_keyed_mutex_adopt(D3DKMT_HANDLE mutex, D3DKMT_HANDLE sync, struct rt_keyed_mutex **out);
void rt_keyed_mutex_globals(const struct rt_keyed_mutex *km, D3DKMT_HANDLE *mutex, D3DKMT_HANDLE *sync);
void rt_keyed_mutex_locals(const struct rt_keyed_mutex *km, D3DKMT_HANDLE *mutex, D3DKMT_HANDLE *sync);
void rt_keyed_mutex_free(struct rt_keyed_mutex *km);
/* gpu_sync.c: the runtime's GPU-side ordering over its UMD's kernel contexts. rt_gpu_wait makes
 * every context wait for fence >= value before its later work; rt_gpu_signal_after_work flushes
 * the immediate context, then signals `fence` (if not 0) with value + 1 ... after every
 * context's earlier work, chained, and sets `event` (if not NULL) at that point; it returns the
 * last value signalled. */
void rt_gpu_wait(struct rt_device *dev, D3DKMT_HANDLE fence, UINT64 value);
/* Submits what the immediate context recorded so far (its Flush). */
void rt_gpu_flush(struct rt_device *dev);
UINT64 rt_gpu_signal_after_work(struct rt_device *dev, D3DKMT_HANDLE fence, UINT64 value, HANDLE event);
/* The same for a monitored fence (ID3D11DeviceContext4::Signal, fence.c): flushes, then queues
 * `fence` = `value` after every context's earlier work (at once from the CPU when the UMD has no
 * context); rt_gpu_wait_monitored makes every context wait for fence >= value. */
NTSTATUS rt_gpu_signal_monitored(struct rt_device *dev, D3DKMT_HANDLE fence, UINT64 value);
void rt_gpu_wait_monitored(struct rt_device *dev, D3DKMT_HANDLE fence, UINT64 value);

/* Driver handle memory that fits behind a cached rt_resource block. The reference UMD asks
 * sizeof(umd_resource) + n * 32 bytes; 512 covers every buffer and small mip chains. */
#define RT_RESOURCE_DRV_INLINE 512u
/* Blocks a device keeps for reuse: bounds what an idle device holds (64 x ~700 bytes). */
#define RT_RESOURCE_CACHE_MAX 64u

/* ---- render target view (view.c) ------------------------------------------------------------- */
#define RT_VIEW_MAGIC 0x52545654u /* "RTVT" */

struct rt_rtv {
    ID3D11RenderTargetView iface;   /* first */
    UINT magic;
    atomic_uint refs;
    struct rt_device *device;       /* holds one device reference */
    struct rt_private_data private_data;
    struct rt_resource *resource;   /* holds one resource reference (views keep it alive) */
    D3D11_RENDER_TARGET_VIEW_DESC desc;
    ID3D10RenderTargetView d3d10;   /* the D3D10 face on a D3D10 device (d3d10_view.c) */
    void *drv_mem;
    D3D10DDI_HRENDERTARGETVIEW drv;
    SIZE_T dc_handle_size;          /* CalcDeferredContextHandleSize after creation; read-only after */
};

/* ---- shader resource / unordered access views (view_sruav.c) ------------------------------------ */
struct rt_sview {
    const void *iface;              /* first: the lpVtbl of an ID3D11ShaderResourceView / UnorderedAccessView */
    UINT magic;                     /* RT_VIEW_MAGIC */
    atomic_uint refs;
    struct rt_device *device;       /* holds one device reference */
    struct rt_private_data private_data;
    struct rt_resource *resource;   /* holds one resource reference */
    BOOL is_uav;
    union { D3D11_SHADER_RESOURCE_VIEW_DESC srv; D3D11_UNORDERED_ACCESS_VIEW_DESC uav; } desc;
    ID3D10ShaderResourceView1 d3d10; /* an SRV's D3D10 face on a D3D10 device (d3d10_view.c) */
    void *drv_mem;                  /* CalcPrivate*ViewSize bytes */
    void *drv;                      /* == drv_mem: the driver handle */
    SIZE_T dc_handle_size;          /* CalcDeferredContextHandleSize after creation; read-only after */
};
struct rt_sview *rt_uav_from_iface(ID3D11UnorderedAccessView *iface);
struct rt_sview *rt_sview_from_iface(ID3D11View *iface); /* an SRV or a UAV */
HRESULT STDMETHODCALLTYPE rt_device_CreateShaderResourceView(ID3D11Device *iface, ID3D11Resource *resource,
                                                             const D3D11_SHADER_RESOURCE_VIEW_DESC *desc,
                                                             ID3D11ShaderResourceView **out);
HRESULT STDMETHODCALLTYPE rt_device_CreateUnorderedAccessView(ID3D11Device *iface, ID3D11Resource *resource,
                                                              const D3D11_UNORDERED_ACCESS_VIEW_DESC *desc,
                                                              ID3D11UnorderedAccessView **out);
void STDMETHODCALLTYPE rt_context_ClearUnorderedAccessViewUint(ID3D11DeviceContext *iface,
                                                               ID3D11UnorderedAccessView *uav, const UINT values[4]);
/* query.c (issue 4: D3D11_QUERY_EVENT) */
#define RT_QUERY_MAGIC 0x52545159u /* "RTQY" */
enum rt_query_state {
    RT_QUERY_NEVER_ENDED = 0,       /* no End reached the UMD yet: GetData -> INVALID_CALL */
    RT_QUERY_BUILDING,              /* Begin without its End yet: GetData -> INVALID_CALL */
    RT_QUERY_ENDED,                 /* End reached the UMD: GetData -> S_FALSE until done, then S_OK */
};
struct rt_query {
    ID3D11Query iface;              /* first: also the ID3D11Asynchronous pointer (same vtable prefix) */
    UINT magic;
    atomic_uint refs;
    struct rt_device *device;       /* holds one device reference */
    struct rt_private_data private_data;
    D3D11_QUERY_DESC desc;          /* read-only after creation */
    D3D11_CONTEXT_TYPE context_type; /* CreateQuery1's (ALL for CreateQuery); read-only */
    void *drv_mem;                  /* CalcPrivateQuerySize bytes */
    D3D10DDI_HQUERY drv;
    enum rt_query_state state;      /* protected by device->lock */
    ID3D10Query d3d10;              /* the D3D10 face on a D3D10 device (d3d10_query.c) */
};
/* view1.c: the Direct3D 11.3 views (DESC1: a PlaneSlice, 0 here): ID3D11Device3's Create*View1, and
 * a view's DESC as its DESC1 (the views' GetDesc1, view.c and view_sruav.c). */
HRESULT STDMETHODCALLTYPE rt_device_CreateShaderResourceView1(ID3D11Device3 *iface, ID3D11Resource *resource,
                                                              const D3D11_SHADER_RESOURCE_VIEW_DESC1 *desc,
                                                              ID3D11ShaderResourceView1 **out);
HRESULT STDMETHODCALLTYPE rt_device_CreateRenderTargetView1(ID3D11Device3 *iface, ID3D11Resource *resource,
                                                             const D3D11_RENDER_TARGET_VIEW_DESC1 *desc,
                                                             ID3D11RenderTargetView1 **out);
HRESULT STDMETHODCALLTYPE rt_device_CreateUnorderedAccessView1(ID3D11Device3 *iface, ID3D11Resource *resource,
                                                               const D3D11_UNORDERED_ACCESS_VIEW_DESC1 *desc,
                                                               ID3D11UnorderedAccessView1 **out);
void rt_srv_desc1(const D3D11_SHADER_RESOURCE_VIEW_DESC *in, D3D11_SHADER_RESOURCE_VIEW_DESC1 *out);
void rt_rtv_desc1(const D3D11_RENDER_TARGET_VIEW_DESC *in, D3D11_RENDER_TARGET_VIEW_DESC1 *out);
void rt_uav_desc1(const D3D11_UNORDERED_ACCESS_VIEW_DESC *in, D3D11_UNORDERED_ACCESS_VIEW_DESC1 *out);
/* query.c: ID3D11Device3::CreateQuery1. */
HRESULT STDMETHODCALLTYPE rt_device_CreateQuery1(ID3D11Device3 *iface, const D3D11_QUERY_DESC1 *desc,
                                                 ID3D11Query1 **out);
/* d3d10_query.c: a query's D3D10 face for a D3D10 IID (NULL: none), and its vtable. */
void *rt_d3d10_query_face(struct rt_query *q, REFIID riid);
extern const struct ID3D10QueryVtbl rt_d3d10_query_vtbl;
/* Event-query Ends recorded by a deferred context, then owned by its command list (one query
 * reference each). Touched by the recording thread, then read-only in the finished list. */
struct rt_query_ends {
    ID3D11Query **q;
    UINT count, cap;
};
BOOL rt_query_ends_add(struct rt_query_ends *l, ID3D11Query *q);
BOOL rt_query_ends_append(struct rt_query_ends *dst, const struct rt_query_ends *src);
void rt_query_ends_issue(ID3D11DeviceContext *ic, const struct rt_query_ends *l);
void rt_query_ends_free(struct rt_query_ends *l);
/* deferred.c: the recording context's list (NULL while the context is removed locally). */
struct rt_query_ends *rt_dc_query_ends(struct rt_deferred *dc);
HRESULT STDMETHODCALLTYPE rt_device_CreateQuery(ID3D11Device *iface, const D3D11_QUERY_DESC *desc, ID3D11Query **out);
void STDMETHODCALLTYPE rt_context_Begin(ID3D11DeviceContext *iface, ID3D11Asynchronous *async);
void STDMETHODCALLTYPE rt_context_End(ID3D11DeviceContext *iface, ID3D11Asynchronous *async);
HRESULT STDMETHODCALLTYPE rt_context_GetData(ID3D11DeviceContext *iface, ID3D11Asynchronous *async, void *data,
                                             UINT size, UINT flags);

/* ---- helpers ----------------------------------------------------------------------------------- */

BOOL rt_iid_equal(REFIID a, REFIID b);

static inline struct rt_device *rt_device_from_iface(ID3D11Device *iface)
{
    return (struct rt_device *)iface;
}
static inline struct rt_context *rt_context_from_iface(ID3D11DeviceContext *iface)
{
    return (struct rt_context *)iface;
}

/* device.c */
void rt_device_addref(struct rt_device *dev);
void rt_device_release(struct rt_device *dev);
BOOL rt_device_is_removed(struct rt_device *dev);
/* Marks the device removed (the first reason sticks). `reason` is the runtime's own cause; when
 * the kernel put the device in error, its execution state decides instead
 * (rt_removed_reason_from_kernel). */
void rt_device_set_removed(struct rt_device *dev, HRESULT reason);
/* The table of device.c: kernel execution state -> GetDeviceRemovedReason. */
HRESULT rt_removed_reason_from_kernel(D3DKMT_DEVICEEXECUTION_STATE state, HRESULT local_reason);
/* Take the device lock and clear the error slot before a UMD call; rt_ddi_end returns the
 * error the UMD reported (S_OK if none) and releases the lock. */
void rt_ddi_begin(struct rt_device *dev);
HRESULT rt_ddi_end(struct rt_device *dev);
/* Translate a DDI error into the API HRESULT. `allowed` lists the DDI errors the called DDI
 * may report (docs/semantics.md §4.2-4.4); anything else is critical: the device is removed
 * (docs/semantics.md §4.3 "anything else is critical"). */
HRESULT rt_ddi_error_to_api(struct rt_device *dev, HRESULT ddi_error, const HRESULT *allowed, UINT n_allowed,
                            const char *ddi_name);

/* resource.c: frees the device's cached resource blocks (device teardown, IDXGIDevice3::Trim). */
void rt_resource_cache_trim(struct rt_device *dev);

/* callbacks.c */
void rt_callbacks_init(struct rt_device *dev);
/* callbacks_not_modeled.c: every slot the runtime does not implement, in whichever tables are
 * given (a deferred context passes only its core-layer table). */
void rt_callbacks_not_modeled_init(D3DDDI_DEVICECALLBACKS *kt, D3DDDI_ADAPTERCALLBACKS *adapter,
                                   D3D10DDI_CORELAYER_DEVICECALLBACKS *core10,
                                   D3D11DDI_CORELAYER_DEVICECALLBACKS *core11, DXGI_DDI_BASE_CALLBACKS *dxgi);
HRESULT rt_ntstatus_to_hresult(NTSTATUS status);
/* context1.c: the ID3D11DeviceContext1 methods both kinds of context share; RT_CONTEXT1_SLOTS
 * names them in the own part of a context vtable (after RT_API_OWN_STUBS_ID3D11DeviceContext1). */
void STDMETHODCALLTYPE rt_context_CopySubresourceRegion1(ID3D11DeviceContext1 *This, ID3D11Resource *dst,
                                                         UINT dst_sub, UINT x, UINT y, UINT z, ID3D11Resource *src,
                                                         UINT src_sub, const D3D11_BOX *box, UINT flags);
void STDMETHODCALLTYPE rt_context_UpdateSubresource1(ID3D11DeviceContext1 *This, ID3D11Resource *dst, UINT dst_sub,
                                                     const D3D11_BOX *box, const void *data, UINT row_pitch,
                                                     UINT depth_pitch, UINT flags);
void STDMETHODCALLTYPE rt_context_DiscardResource(ID3D11DeviceContext1 *This, ID3D11Resource *res);
void STDMETHODCALLTYPE rt_context_DiscardView(ID3D11DeviceContext1 *This, ID3D11View *view);
void STDMETHODCALLTYPE rt_context_DiscardView1(ID3D11DeviceContext1 *This, ID3D11View *view, const D3D11_RECT *rects,
                                               UINT count);
#define RT_CONTEXT1_SLOTS                                                                                   \
    .CopySubresourceRegion1 = rt_context_CopySubresourceRegion1,                                          \
    .UpdateSubresource1 = rt_context_UpdateSubresource1, .DiscardResource = rt_context_DiscardResource,   \
    .DiscardView = rt_context_DiscardView, .DiscardView1 = rt_context_DiscardView1
/* fence.c: ID3D11Device5's fences and ID3D11DeviceContext4's Signal / Wait (immediate context only;
 * a deferred context answers DXGI_ERROR_INVALID_CALL). RT_CONTEXT4_SLOTS names the latter in the
 * ID3D11DeviceContext4 part of a context vtable. */
HRESULT STDMETHODCALLTYPE rt_device_CreateFence(ID3D11Device5 *iface, UINT64 initial, D3D11_FENCE_FLAG flags,
                                                REFIID riid, void **out);
HRESULT STDMETHODCALLTYPE rt_device_OpenSharedFence(ID3D11Device5 *iface, HANDLE handle, REFIID riid, void **out);
HRESULT STDMETHODCALLTYPE rt_context_Signal(ID3D11DeviceContext4 *iface, ID3D11Fence *fence, UINT64 value);
HRESULT STDMETHODCALLTYPE rt_context_Wait(ID3D11DeviceContext4 *iface, ID3D11Fence *fence, UINT64 value);
#define RT_CONTEXT4_SLOTS .Signal = rt_context_Signal, .Wait = rt_context_Wait
/* removed_event.c: ID3D11Device4's device-removed events; _fire sets them (a removal the runtime
 * decided), _stop unregisters them without setting them (the device's destruction). */
HRESULT STDMETHODCALLTYPE rt_device_RegisterDeviceRemovedEvent(ID3D11Device4 *iface, HANDLE event, DWORD *cookie);
void STDMETHODCALLTYPE rt_device_UnregisterDeviceRemoved(ID3D11Device4 *iface, DWORD cookie);
void rt_removed_events_fire(struct rt_device *dev);
void rt_removed_events_stop(struct rt_device *dev);
/* context.c: ID3D11DeviceContext3::Flush1 (both kinds: a deferred context has nothing to flush). */
void STDMETHODCALLTYPE rt_context_Flush1(ID3D11DeviceContext3 *iface, D3D11_CONTEXT_TYPE type, HANDLE event);
/* The own slots of ID3D11DeviceContext2 to 4 after ID3D11DeviceContext1's, in a context vtable
 * (context.c, deferred.c): Context2's are all stubs, Context3's Flush1 and Context4's
 * RT_CONTEXT4_SLOTS are the runtime's. */
#define RT_CONTEXT_VTBL_EXT                       \
    struct rt_own_ID3D11DeviceContext2 ext2;      \
    struct rt_own_ID3D11DeviceContext3 ext3;      \
    struct rt_own_ID3D11DeviceContext4 ext4
/* context.c: what both kinds of context answer alike: QueryInterface (ID3D11DeviceContext and
 * ID3D11DeviceContext1 are the same pointer: one vtable serves both) and private data. */
HRESULT STDMETHODCALLTYPE rt_context_QueryInterface(ID3D11DeviceContext *iface, REFIID riid, void **ppv);
HRESULT STDMETHODCALLTYPE rt_context_GetPrivateData(ID3D11DeviceContext *This, REFGUID guid, UINT *size, void *data);
HRESULT STDMETHODCALLTYPE rt_context_SetPrivateData(ID3D11DeviceContext *This, REFGUID guid, UINT size,
                                                    const void *data);
HRESULT STDMETHODCALLTYPE rt_context_SetPrivateDataInterface(ID3D11DeviceContext *This, REFGUID guid,
                                                             const IUnknown *unk);

/* share.c: kernel objects as one NT handle, under an optional name (CreateSharedHandle of a
 * resource or a fence); `dxgi` files refusals with DXGI's debug layer, else the device's. */
HRESULT rt_share_objects(const char *fn, BOOL dxgi, const D3DKMT_HANDLE *objs, UINT n,
                         const SECURITY_ATTRIBUTES *attributes, DWORD access, const WCHAR *name, HANDLE *handle);
/* share.c: GetParent / GetDevice of a resource's DXGI faces (IDXGIResource, IDXGISurface). */
HRESULT rt_resource_dxgi_parent(struct rt_resource *res, REFIID riid, void **parent);
HRESULT rt_resource_dxgi_device(struct rt_resource *res, REFIID riid, void **device);
/* surface.c: the IDXGISurface face's vtable, and whether a resource has that face. */
extern const struct IDXGISurface1Vtbl rt_dxgi_surface_vtbl;
BOOL rt_resource_is_surface(const struct rt_resource *res);

/* dxgi_device.c: the DXGI face's vtable, and QueryInterface's answer for the DXGI IIDs. */
extern const struct IDXGIDevice3Vtbl rt_dxgi_device_vtbl;
BOOL rt_dxgi_device_iid(REFIID riid);

/* context.c */
void rt_context_init(struct rt_context *ctx, struct rt_device *dev);

/* resource.c: shared by buffers and textures */
struct rt_resource *rt_resource_from_iface(ID3D11Resource *iface);
/* Build the DDI arguments, allocate handle memory, call pfnCreateResource (seed 001 §3). On
 * success *out holds a resource with one reference (and one device reference). */
HRESULT rt_resource_create(struct rt_device *dev, struct rt_resource *res,
                           const D3D11_SUBRESOURCE_DATA *initial_data, struct rt_resource **out);
ULONG rt_resource_addref(struct rt_resource *res);
ULONG rt_resource_release(struct rt_resource *res);
HRESULT rt_resource_query_interface(struct rt_resource *res, REFIID riid, void **ppv);
/* share.c (issue 6) */
extern const struct IDXGIResourceVtbl *const rt_dxgi_resource_vtbl; /* IDXGIResource1's slots follow */
struct rt_resource *rt_resource_from_dxgi(IDXGIResource *iface); /* NULL: not one of ours */
HRESULT STDMETHODCALLTYPE rt_device_OpenSharedResource(ID3D11Device *iface, HANDLE handle, REFIID riid, void **out);
/* ID3D11Device1: a resource shared by NT handle (IDXGIResource1::CreateSharedHandle), by handle
 * or by the name given to CreateSharedHandle. */
HRESULT STDMETHODCALLTYPE rt_device_OpenSharedResource1(ID3D11Device1 *iface, HANDLE handle, REFIID riid, void **out);
HRESULT STDMETHODCALLTYPE rt_device_OpenSharedResourceByName(ID3D11Device1 *iface, LPCWSTR name, DWORD access,
                                                            REFIID riid, void **out);
/* A resource made from an opened kernel resource: pfnCalcPrivateOpenedResourceSize +
 * pfnOpenResource (resource.c). On failure the kernel resource is destroyed. */
HRESULT rt_resource_open(struct rt_device *dev, struct rt_resource *tmpl, const D3D10DDIARG_OPENRESOURCE *args,
                         struct rt_resource **out);
BOOL rt_resource_is_mapped(const struct rt_resource *res, UINT subresource);
void rt_resource_set_mapped(struct rt_resource *res, UINT subresource, BOOL mapped);
/* Size of a mip level (mips: 0-based), at least 1. */
UINT rt_mip_dim(UINT top, UINT mip);
/* Subresource -> mip level and array slice (docs/semantics.md §4.2: mip = s % MipLevels). */
void rt_subresource_split(const struct rt_resource *res, UINT sub, UINT *mip, UINT *slice);
/* Texel dimensions of one subresource. */
void rt_subresource_dims(const struct rt_resource *res, UINT sub, UINT *w, UINT *h, UINT *d);

/* buffer.c / texture.c: the vtables (also how rt_resource_from_iface recognises ours) */
extern const struct ID3D11BufferVtbl rt_buffer_vtbl;
extern const struct ID3D11Texture1DVtbl rt_texture1d_vtbl;
/* ID3D11Texture2D's and 3D's vtables with the own slots of ID3D11Texture2D1 / 3D1 after them
 * (texture.c: one object answers both); only their addresses are used outside texture.c. */
extern const struct rt_texture2d_vtbl rt_texture2d_vtbl;
extern const struct rt_texture3d_vtbl rt_texture3d_vtbl;
/* texture.c: ID3D11Device3::CreateTexture2D1 / CreateTexture3D1 (the driver's layout only). */
HRESULT STDMETHODCALLTYPE rt_device_CreateTexture2D1(ID3D11Device3 *iface, const D3D11_TEXTURE2D_DESC1 *desc,
                                                     const D3D11_SUBRESOURCE_DATA *data, ID3D11Texture2D1 **out);
HRESULT STDMETHODCALLTYPE rt_device_CreateTexture3D1(ID3D11Device3 *iface, const D3D11_TEXTURE3D_DESC1 *desc,
                                                     const D3D11_SUBRESOURCE_DATA *data, ID3D11Texture3D1 **out);
HRESULT STDMETHODCALLTYPE rt_device_CreateBuffer(ID3D11Device *iface, const D3D11_BUFFER_DESC *desc,
                                                 const D3D11_SUBRESOURCE_DATA *data, ID3D11Buffer **out);
HRESULT STDMETHODCALLTYPE rt_device_CreateTexture1D(ID3D11Device *iface, const D3D11_TEXTURE1D_DESC *desc,
                                                    const D3D11_SUBRESOURCE_DATA *data, ID3D11Texture1D **out);
HRESULT STDMETHODCALLTYPE rt_device_CreateTexture2D(ID3D11Device *iface, const D3D11_TEXTURE2D_DESC *desc,
                                                    const D3D11_SUBRESOURCE_DATA *data, ID3D11Texture2D **out);
HRESULT STDMETHODCALLTYPE rt_device_CreateTexture3D(ID3D11Device *iface, const D3D11_TEXTURE3D_DESC *desc,
                                                    const D3D11_SUBRESOURCE_DATA *data, ID3D11Texture3D **out);

/* validate.c: API-level rules, pure functions of the description (no UMD call) */
HRESULT rt_validate_buffer_desc(const D3D11_BUFFER_DESC *desc, const D3D11_SUBRESOURCE_DATA *data);
/* Validates and fills the normalised fields of `res` (dimension and desc must be set). */
HRESULT rt_validate_texture(struct rt_resource *res, const D3D11_SUBRESOURCE_DATA *data);
HRESULT rt_validate_usage(D3D11_USAGE usage, UINT bind, UINT cpu, BOOL has_initial_data, const char *what);
UINT rt_full_mip_count(UINT w, UINT h, UINT d);
/* CheckMultisampleQualityLevels' answer for a format and sample count (0: not supported). */
UINT rt_msaa_quality_levels(struct rt_device *dev, DXGI_FORMAT format, UINT count);
/* format_support.c: CheckFormatSupport's answer for the device's feature level (0 for a format
 * the device does not support), and for binding a resource of the format (a TYPELESS format:
 * what its family's typed formats support). */
UINT rt_format_support(struct rt_device *dev, DXGI_FORMAT format);
UINT rt_format_bind_support(struct rt_device *dev, DXGI_FORMAT format);

/* view.c */
HRESULT STDMETHODCALLTYPE rt_device_CreateRenderTargetView(ID3D11Device *iface, ID3D11Resource *resource,
                                                           const D3D11_RENDER_TARGET_VIEW_DESC *desc,
                                                           ID3D11RenderTargetView **out);
struct rt_rtv *rt_rtv_from_iface(ID3D11RenderTargetView *iface);

/* map.c */
HRESULT STDMETHODCALLTYPE rt_context_Map(ID3D11DeviceContext *iface, ID3D11Resource *resource, UINT sub,
                                         D3D11_MAP type, UINT flags, D3D11_MAPPED_SUBRESOURCE *mapped);
void STDMETHODCALLTYPE rt_context_Unmap(ID3D11DeviceContext *iface, ID3D11Resource *resource, UINT sub);
/* Unmap through the DDI slot that matches the resource (used by Unmap and on destruction of a
 * still-mapped resource, so that every pfnLockCb stays paired: docs/semantics.md §3.2 rule 13).
 * Caller holds dev->lock (inside rt_ddi_begin/end). */
BOOL rt_map_no_overwrite_allowed(const struct rt_device *dev, const struct rt_resource *res, const char *what);
void rt_unmap_ddi_locked(struct rt_device *dev, struct rt_resource *res, UINT sub);

/* copy.c */
void STDMETHODCALLTYPE rt_context_CopySubresourceRegion(ID3D11DeviceContext *iface, ID3D11Resource *dst,
                                                        UINT dst_sub, UINT x, UINT y, UINT z,
                                                        ID3D11Resource *src, UINT src_sub, const D3D11_BOX *box);
void STDMETHODCALLTYPE rt_context_CopyResource(ID3D11DeviceContext *iface, ID3D11Resource *dst, ID3D11Resource *src);
/* traced.c: the same entry points as spans on the timeline and call scopes of the debug layer
 * (the vtables point at these). */
void STDMETHODCALLTYPE rt_traced_CopySubresourceRegion(ID3D11DeviceContext *iface, ID3D11Resource *dst, UINT dst_sub,
                                                       UINT x, UINT y, UINT z, ID3D11Resource *src, UINT src_sub,
                                                       const D3D11_BOX *box);
void STDMETHODCALLTYPE rt_traced_CopyResource(ID3D11DeviceContext *iface, ID3D11Resource *dst, ID3D11Resource *src);
void STDMETHODCALLTYPE rt_traced_UpdateSubresource(ID3D11DeviceContext *iface, ID3D11Resource *dst, UINT dst_sub,
                                                   const D3D11_BOX *box, const void *data, UINT row_pitch,
                                                   UINT depth_pitch);
void STDMETHODCALLTYPE rt_traced_ClearRenderTargetView(ID3D11DeviceContext *iface, ID3D11RenderTargetView *rtv,
                                                       const FLOAT color[4]);
void STDMETHODCALLTYPE rt_traced_ExecuteCommandList(ID3D11DeviceContext *iface, ID3D11CommandList *list, BOOL restore);
HRESULT STDMETHODCALLTYPE rt_traced_CreateBuffer(ID3D11Device *iface, const D3D11_BUFFER_DESC *desc,
                                                 const D3D11_SUBRESOURCE_DATA *data, ID3D11Buffer **out);
HRESULT STDMETHODCALLTYPE rt_traced_CreateTexture1D(ID3D11Device *iface, const D3D11_TEXTURE1D_DESC *desc,
                                                    const D3D11_SUBRESOURCE_DATA *data, ID3D11Texture1D **out);
HRESULT STDMETHODCALLTYPE rt_traced_CreateTexture2D(ID3D11Device *iface, const D3D11_TEXTURE2D_DESC *desc,
                                                    const D3D11_SUBRESOURCE_DATA *data, ID3D11Texture2D **out);
HRESULT STDMETHODCALLTYPE rt_traced_CreateTexture3D(ID3D11Device *iface, const D3D11_TEXTURE3D_DESC *desc,
                                                    const D3D11_SUBRESOURCE_DATA *data, ID3D11Texture3D **out);
HRESULT STDMETHODCALLTYPE rt_traced_CreateRenderTargetView(ID3D11Device *iface, ID3D11Resource *resource,
                                                           const D3D11_RENDER_TARGET_VIEW_DESC *desc,
                                                           ID3D11RenderTargetView **out);
HRESULT STDMETHODCALLTYPE rt_traced_CreateShaderResourceView(ID3D11Device *iface, ID3D11Resource *resource,
                                                             const D3D11_SHADER_RESOURCE_VIEW_DESC *desc,
                                                             ID3D11ShaderResourceView **out);
HRESULT STDMETHODCALLTYPE rt_traced_CreateUnorderedAccessView(ID3D11Device *iface, ID3D11Resource *resource,
                                                              const D3D11_UNORDERED_ACCESS_VIEW_DESC *desc,
                                                              ID3D11UnorderedAccessView **out);
void STDMETHODCALLTYPE rt_traced_End(ID3D11DeviceContext *iface, ID3D11Asynchronous *async);
HRESULT STDMETHODCALLTYPE rt_traced_GetData(ID3D11DeviceContext *iface, ID3D11Asynchronous *async, void *data,
                                            UINT size, UINT flags);
HRESULT STDMETHODCALLTYPE rt_traced_FinishCommandList(ID3D11DeviceContext *iface, BOOL restore,
                                                      ID3D11CommandList **out);
HRESULT STDMETHODCALLTYPE rt_traced_Map(ID3D11DeviceContext *iface, ID3D11Resource *resource, UINT sub,
                                        D3D11_MAP type, UINT flags, D3D11_MAPPED_SUBRESOURCE *mapped);
void STDMETHODCALLTYPE rt_traced_Unmap(ID3D11DeviceContext *iface, ID3D11Resource *resource, UINT sub);
void STDMETHODCALLTYPE rt_traced_Begin(ID3D11DeviceContext *iface, ID3D11Asynchronous *async);
void STDMETHODCALLTYPE rt_traced_ClearUnorderedAccessViewUint(ID3D11DeviceContext *iface,
                                                              ID3D11UnorderedAccessView *uav, const UINT values[4]);
HRESULT STDMETHODCALLTYPE rt_traced_CreateQuery(ID3D11Device *iface, const D3D11_QUERY_DESC *desc, ID3D11Query **out);
HRESULT STDMETHODCALLTYPE rt_traced_CreateDeferredContext(ID3D11Device *iface, UINT flags, ID3D11DeviceContext **out);
HRESULT STDMETHODCALLTYPE rt_traced_OpenSharedResource(ID3D11Device *iface, HANDLE handle, REFIID riid, void **out);
HRESULT STDMETHODCALLTYPE rt_traced_OpenSharedResource1(ID3D11Device1 *iface, HANDLE handle, REFIID riid, void **out);
HRESULT STDMETHODCALLTYPE rt_traced_OpenSharedResourceByName(ID3D11Device1 *iface, LPCWSTR name, DWORD access,
                                                             REFIID riid, void **out);
/* command_list.c: FinishCommandList; deferred.c: Map and Unmap of a deferred context (traced.c wraps them). */
HRESULT STDMETHODCALLTYPE rt_deferred_FinishCommandList(ID3D11DeviceContext *iface, BOOL restore,
                                                        ID3D11CommandList **out);
HRESULT STDMETHODCALLTYPE rt_deferred_Map(ID3D11DeviceContext *iface, ID3D11Resource *resource, UINT sub,
                                          D3D11_MAP type, UINT flags, D3D11_MAPPED_SUBRESOURCE *mapped);
void STDMETHODCALLTYPE rt_deferred_Unmap(ID3D11DeviceContext *iface, ID3D11Resource *resource, UINT sub);
void STDMETHODCALLTYPE rt_context_UpdateSubresource(ID3D11DeviceContext *iface, ID3D11Resource *dst, UINT dst_sub,
                                                    const D3D11_BOX *box, const void *data, UINT row_pitch,
                                                    UINT depth_pitch);
void STDMETHODCALLTYPE rt_context_ClearRenderTargetView(ID3D11DeviceContext *iface, ID3D11RenderTargetView *rtv,
                                                        const FLOAT color[4]);

/* Per-interface COM methods of a resource kind, forwarding to the shared implementation in
 * resource.c (buffer.c, texture.c). One function per vtable slot keeps every call through a
 * vtable at its exact function type. */
void rt_resource_get_device(struct rt_resource *res, ID3D11Device **out);
/* ID3D11Resource / IDXGIResource::SetEvictionPriority: one value for both faces, and VidMm's
 * priority of the resource's allocations (resource.c). */
void rt_resource_set_eviction_priority(struct rt_resource *res, UINT prio);
#define RT_RESOURCE_COMMON_METHODS(prefix, Iface)                                                        \
    static HRESULT STDMETHODCALLTYPE prefix##_QueryInterface(Iface *This, REFIID riid, void **ppv)       \
    { return rt_resource_query_interface((struct rt_resource *)This, riid, ppv); }                    \
    static ULONG STDMETHODCALLTYPE prefix##_AddRef(Iface *This)                                        \
    { return rt_resource_addref((struct rt_resource *)This); }                                        \
    static ULONG STDMETHODCALLTYPE prefix##_Release(Iface *This)                                       \
    { return rt_resource_release((struct rt_resource *)This); }                                       \
    static void STDMETHODCALLTYPE prefix##_GetDevice(Iface *This, ID3D11Device **out)                  \
    { rt_resource_get_device((struct rt_resource *)This, out); }                                      \
    static void STDMETHODCALLTYPE prefix##_GetType(Iface *This, D3D11_RESOURCE_DIMENSION *dim)         \
    { if (dim) *dim = ((struct rt_resource *)This)->dimension; }                                       \
    static void STDMETHODCALLTYPE prefix##_SetEvictionPriority(Iface *This, UINT prio)                 \
    { rt_resource_set_eviction_priority((struct rt_resource *)This, prio); }                           \
    static UINT STDMETHODCALLTYPE prefix##_GetEvictionPriority(Iface *This)                            \
    { return ((struct rt_resource *)This)->eviction_priority; }                                        \
    RT_PRIVATE_DATA_METHODS(prefix, Iface, &((struct rt_resource *)This)->device->private_lock,       \
                            &((struct rt_resource *)This)->private_data)

/* deferred_handles.c */
/* Device creation: CheckDeferredContextHandleSizes double poll (caller holds no lock). */
void rt_deferred_device_init(struct rt_device *dev);
/* After an immediate-context object's creation (caller holds dev->lock): asks
 * CalcDeferredContextHandleSize and checks the size against the listed ones (seed 004). */
SIZE_T rt_deferred_handle_size_locked(struct rt_device *dev, D3D11DDI_HANDLETYPE type, void *ic_object);
/* command_list.c */
void STDMETHODCALLTYPE rt_context_ExecuteCommandList(ID3D11DeviceContext *iface, ID3D11CommandList *list,
                                                     BOOL restore);
/* deferred.c */
HRESULT STDMETHODCALLTYPE rt_device_CreateDeferredContext(ID3D11Device *iface, UINT flags,
                                                          ID3D11DeviceContext **out);
void STDMETHODCALLTYPE rt_context_ClearState(ID3D11DeviceContext *iface);
/* Recording on a deferred context, after the API checks passed (copy.c). */
void rt_dc_copy_resource(struct rt_deferred *dc, struct rt_resource *dst, struct rt_resource *src);
void rt_dc_copy_region(struct rt_deferred *dc, struct rt_resource *dst, UINT dst_sub, UINT x, UINT y, UINT z,
                       struct rt_resource *src, UINT src_sub, const D3D11_BOX *box, UINT flags);
void rt_dc_update(struct rt_deferred *dc, struct rt_resource *dst, UINT dst_sub, const D3D11_BOX *box,
                  const void *data, UINT row_pitch, UINT depth_pitch, UINT flags);
void rt_dc_discard(struct rt_deferred *dc, const struct rt_discard *d);
void rt_dc_clear_rtv(struct rt_deferred *dc, struct rt_rtv *rtv, const FLOAT color[4]);
void rt_dc_clear_uav(struct rt_deferred *dc, struct rt_sview *uav, const UINT values[4]);

/* umd_entry.c */
/* The UMD entry point a device opens: OpenAdapter10 for a D3D10 device, else OpenAdapter10_2;
 * the override, else the adapter's module (loaded here), else the built-in UMD's. */
HRESULT rt_umd_entry_for(struct rt_device *dev, BOOL ddi10, PFND3D10DDI_OPENADAPTER *open);

/* device.c: a device opened through the given DDI (D3D11.0, or D3D10.0 / 10.1), one reference. */
HRESULT rt_device_create(struct rt_adapter *adapter, UINT flags, D3D_FEATURE_LEVEL feature_level, UINT ddi_interface,
                         struct rt_device **out);

/* ddi10.c: the D3D10.0 / 10.1 device tables behind a D3D10 device (issue 15 §1). */
UINT rt_ddi_build_version(UINT ddi_interface);
const char *rt_device_creator(const struct rt_device *dev); /* "D3D10CreateDevice1" ... for messages */
void rt_ddi10_adopt(struct rt_device *dev);
/* ddi11_1.c: the D3D11.1 DDI (issue 15 §4). f1 is a context's 11.1 table, NULL below 11.1. */
const D3D11_1DDI_DEVICEFUNCS *rt_device_funcs1(const struct rt_device *dev);
void rt_ddi11_1_adopt(D3D11DDI_DEVICEFUNCS *f, const D3D11_1DDI_DEVICEFUNCS *f1);
BOOL rt_ddi_has_copy_region(const D3D11DDI_DEVICEFUNCS *f, const D3D11_1DDI_DEVICEFUNCS *f1);
void rt_ddi_copy_region(const D3D11DDI_DEVICEFUNCS *f, const D3D11_1DDI_DEVICEFUNCS *f1,
                        D3D10DDI_HDEVICE h, D3D10DDI_HRESOURCE dst, UINT dst_sub, UINT x, UINT y, UINT z,
                        D3D10DDI_HRESOURCE src, UINT src_sub, const D3D10_DDI_BOX *box, UINT flags);
BOOL rt_ddi_has_update(const D3D11DDI_DEVICEFUNCS *f, const D3D11_1DDI_DEVICEFUNCS *f1);
void rt_ddi_update(const D3D11DDI_DEVICEFUNCS *f, const D3D11_1DDI_DEVICEFUNCS *f1, BOOL cb,
                   D3D10DDI_HDEVICE h, D3D10DDI_HRESOURCE dst, UINT dst_sub, const D3D10_DDI_BOX *box,
                   const void *data, UINT row_pitch, UINT depth_pitch, UINT flags);
BOOL rt_ddi_has_flush(const struct rt_device *dev);
void rt_ddi_flush(struct rt_device *dev);
/* copy.c: the copies behind the 11.0 and 11.1 methods (flags: D3D11_COPY_FLAGS, already checked). */
void rt_context_copy_region(ID3D11DeviceContext *iface, ID3D11Resource *dst, UINT dst_sub, UINT x, UINT y, UINT z,
                            ID3D11Resource *src, UINT src_sub, const D3D11_BOX *box, UINT flags, const char *what);
void rt_context_update(ID3D11DeviceContext *iface, ID3D11Resource *dst, UINT dst_sub, const D3D11_BOX *box,
                       const void *data, UINT row_pitch, UINT depth_pitch, UINT flags, const char *what);
/* context1.c: a discard the API accepted, as the DDI names it (the object holds no reference). */
struct rt_discard {
    D3D11DDI_HANDLETYPE type;
    void *object;                   /* struct rt_resource, rt_rtv or rt_sview */
    UINT rect_count;
    const D3D11_RECT *rects;        /* NULL when rect_count is 0 */
};
void rt_context_discard(ID3D11DeviceContext *iface, const struct rt_discard *d);
BOOL rt_ddi_has_resource_functions(const struct rt_device *dev);
BOOL rt_device_is_d3d10(const struct rt_device *dev);
SIZE_T rt_ddi_calc_resource_size(struct rt_device *dev, const D3D11DDIARG_CREATERESOURCE *args);
void rt_ddi_create_resource(struct rt_device *dev, const D3D11DDIARG_CREATERESOURCE *args, D3D10DDI_HRESOURCE h,
                            D3D10DDI_HRTRESOURCE rt);
BOOL rt_ddi_has_srv_functions(const struct rt_device *dev);
SIZE_T rt_ddi_calc_srv_size(struct rt_device *dev, const D3D11DDIARG_CREATESHADERRESOURCEVIEW *args);
void rt_ddi_create_srv(struct rt_device *dev, const D3D11DDIARG_CREATESHADERRESOURCEVIEW *args,
                       D3D10DDI_HSHADERRESOURCEVIEW h, D3D10DDI_HRTSHADERRESOURCEVIEW rt);

/* d3d10_device.c: the ID3D10Device1 face of a D3D10 device. */
void rt_d3d10_device_init(struct rt_device *dev);
/* multithread.c: every device's ID3D10Multithread / ID3D11Multithread face (one IID), its lock,
 * and the immediate context's protection: rt_mt_enter takes the lock while protection is on
 * (TRUE: taken), rt_mt_leave drops what it took. */
void rt_multithread_init(struct rt_device *dev, BOOL protect);
void rt_multithread_fini(struct rt_device *dev);
void *rt_multithread_face(struct rt_device *dev, REFIID riid);
BOOL rt_mt_enter(struct rt_device *dev);
void rt_mt_leave(struct rt_device *dev, BOOL locked);
void *rt_d3d10_device_face(struct rt_device *dev, REFIID riid);
/* d3d10_resource.c / d3d10_view.c / d3d10_query.c: an object's D3D10 face for a D3D10 IID
 * (NULL: not one, or not a D3D10 device's object), and the vtable a resource's face gets. */
void *rt_d3d10_resource_face(struct rt_resource *res, REFIID riid);
const void *rt_d3d10_resource_vtbl(D3D11_RESOURCE_DIMENSION dim);
void *rt_d3d10_rtv_face(struct rt_rtv *v, REFIID riid);
extern const struct ID3D10RenderTargetViewVtbl rt_d3d10_rtv_vtbl;
extern const struct ID3D10ShaderResourceView1Vtbl rt_d3d10_srv_vtbl;
void *rt_d3d10_srv_face(struct rt_sview *v, REFIID riid);

#endif /* WDDM_RUNTIME_RUNTIME_H */
