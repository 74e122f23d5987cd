/* The tools' own small client at the D3DKMT boundary: `wddm soak` and the VidMm benchmarks
 * drive VidMm directly, below the D3D11 API, the way a UMD would (one device, one context on
 * the render node, allocations carrying the driver package's private data, one-command GPU
 * copies in the software GPU's format with their patch locations). */
#ifndef WDDM_TOOL_KMT_CLIENT_H
#define WDDM_TOOL_KMT_CLIENT_H

#include <stdint.h>

#include <wddm/d3dkmthk.h>

struct wddm_kmt {
    D3DKMT_HANDLE adapter, device, context;
    D3DKMT_CREATECONTEXT cc; /* the context's command buffer and lists */
};

/* Opens the first adapter, a device and a context on node 0: 1. If any step fails, 0; if the
 * adapter runs the GpuMmu model (no command buffer: this client writes WDDM 1.x DMA buffers),
 * -1 after one line on stderr. What was opened is closed. */
int wddm_kmt_open(struct wddm_kmt *k);
/* Destroys the device (and so every allocation of it) and closes the adapter. */
void wddm_kmt_close(struct wddm_kmt *k);
/* One allocation of `kind` (enum swgpu_alloc_kind) holding a buffer of `size` bytes; 0 on failure. */
D3DKMT_HANDLE wddm_kmt_alloc(struct wddm_kmt *k, UINT32 kind, UINT64 size);
/* A GPU copy of `bytes` from the start of src to the start of dst, submitted at once. */
NTSTATUS wddm_kmt_copy(struct wddm_kmt *k, D3DKMT_HANDLE dst, D3DKMT_HANDLE src, UINT32 bytes);
/* count such copies, one from each of srcs (repeats allowed), in one DMA buffer, submitted at once;
 * STATUS_INVALID_PARAMETER when they do not fit the context's command buffer or lists. */
NTSTATUS wddm_kmt_copy_many(struct wddm_kmt *k, D3DKMT_HANDLE dst, const D3DKMT_HANDLE *srcs, UINT count,
                            UINT32 bytes);
NTSTATUS wddm_kmt_lock(struct wddm_kmt *k, D3DKMT_HANDLE a, UINT flags, void **p);
void wddm_kmt_unlock(struct wddm_kmt *k, D3DKMT_HANDLE a);

/* Monitored fences (D3DKMTCreateSynchronizationObject2, D3DDDI_MONITORED_FENCE) of the device:
 * 0 on failure. A GPU signal on a context, a CPU signal, and a CPU wait for n fences to reach
 * their values (in waits of at most 8 fences). */
D3DKMT_HANDLE wddm_kmt_fence_create(D3DKMT_HANDLE device);
void wddm_kmt_fence_destroy(D3DKMT_HANDLE fence);
NTSTATUS wddm_kmt_gpu_signal(D3DKMT_HANDLE context, D3DKMT_HANDLE fence, UINT64 value);
NTSTATUS wddm_kmt_cpu_signal(D3DKMT_HANDLE device, D3DKMT_HANDLE fence, UINT64 value);
NTSTATUS wddm_kmt_cpu_wait(D3DKMT_HANDLE device, const D3DKMT_HANDLE *fences, const UINT64 *values, UINT n);

/* xorshift32: the tools' deterministic random numbers (traces, test data). */
static inline uint32_t wddm_tool_rnd(uint32_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return *x;
}

#endif
