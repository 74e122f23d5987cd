/* Helpers shared by the end-to-end tests: they drive the D3D11 API, so every call goes
 * through the runtime, the UMD, the kernel, the KMD and the software GPU. */
#ifndef WDDM_TESTS_E2E_H
#define WDDM_TESTS_E2E_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <d3d11.h>
#include <wddm/swgpu.h>
#include <wddm/d3dkmthk.h>
#include "drv/swgpu_private.h"

/* A DYNAMIC buffer this large is not a slice of the reference UMD's upload ring (at most 64 KiB,
 * src/umd/ring.c): its maps lock its own allocation, so tests of the lock callbacks see them. */
#define E2E_LOCKED_DYNAMIC_BYTES (128u * 1024u)
#define SAFE_RELEASE(p) do { if (p) { (p)->lpVtbl->Release(p); (p) = NULL; } } while (0)

struct e2e {
    ID3D11Device *dev;
    ID3D11DeviceContext *ctx;
};

static inline int e2e_setup(void **state)
{
    struct e2e *e = calloc(1, sizeof *e);
    HRESULT hr = D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION,
                                   &e->dev, NULL, &e->ctx);
    if (FAILED(hr)) {
        fprintf(stderr, "D3D11CreateDevice failed: 0x%08x\n", (unsigned)hr);
        free(e);
        return -1;
    }
    *state = e;
    return 0;
}

static inline int e2e_teardown(void **state)
{
    struct e2e *e = *state;
    wddm_swgpu_set_paused(0); /* a failed test must not leave the GPU paused for the next */
    SAFE_RELEASE(e->ctx);
    SAFE_RELEASE(e->dev);
    free(e);
    return 0;
}

/* Deterministic test data. */
static inline void e2e_fill(void *p, size_t n, uint32_t seed)
{
    uint8_t *b = p;
    uint32_t x = seed * 2654435761u + 1u;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        b[i] = (uint8_t)x;
    }
}

static inline size_t e2e_align(size_t v, size_t a) { return (v + a - 1) / a * a; }

/* A texture of *td (one subresource of a 4-byte format) holding e2e_fill(seed) in rows of
 * Width * 4 bytes; with seed 0, created without initial data. */
static inline ID3D11Texture2D *e2e_texture_filled(ID3D11Device *dev, const D3D11_TEXTURE2D_DESC *td, uint32_t seed)
{
    size_t pitch = (size_t)td->Width * 4u, n = pitch * td->Height;
    uint8_t *data = seed ? malloc(n) : NULL;
    if (seed) {
        assert_non_null(data);
        e2e_fill(data, n, seed);
    }
    D3D11_SUBRESOURCE_DATA init = { .pSysMem = data, .SysMemPitch = (UINT)pitch };
    ID3D11Texture2D *t = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(dev, td, seed ? &init : NULL, &t), S_OK);
    free(data);
    return t;
}

/* A 4 KiB buffer: DEFAULT (shader resource) holding pattern `seed`, or STAGING (CPU-readable, empty
 * for seed 0): the source and the readback of a GPU copy the tests pause and resume around. */
#define E2E_SMALL_BYTES 4096u
static inline ID3D11Buffer *e2e_small_buffer(ID3D11Device *dev, D3D11_USAGE usage, uint32_t seed)
{
    static uint8_t data[E2E_SMALL_BYTES];
    e2e_fill(data, sizeof data, seed);
    D3D11_BUFFER_DESC d = { E2E_SMALL_BYTES, usage, 0, usage == D3D11_USAGE_STAGING ? D3D11_CPU_ACCESS_READ : 0, 0, 0 };
    if (usage == D3D11_USAGE_DEFAULT)
        d.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    D3D11_SUBRESOURCE_DATA init = { .pSysMem = data };
    ID3D11Buffer *b = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(dev, &d, seed ? &init : NULL, &b), S_OK);
    return b;
}

/* Which driver model the first adapter runs (issue 6: the suite runs in both, scripts/test.sh):
 * 1 = WDDM 2.x virtual addressing, GpuMmu or IoMmu (GPU virtual addresses, D3DKMTSubmitCommand,
 * the UMD maps with pfnLock2Cb and renames itself), 0 = WDDM 1.x (allocation + patch lists, pfnLockCb). Read from
 * the KMD's private data (KMTQAITYPE_UMDRIVERPRIVATE), as the UMD reads it. -1 on failure. */
static inline int e2e_gpummu(void)
{
    D3DKMT_ADAPTERINFO ai[1];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 1, .pAdapters = ai };
    if (!NT_SUCCESS(D3DKMTEnumAdapters2(&en)) || en.NumAdapters < 1)
        return -1;
    struct swgpu_umd_adapter_info info;
    memset(&info, 0, sizeof info);
    D3DKMT_QUERYADAPTERINFO q = { .hAdapter = ai[0].hAdapter, .Type = KMTQAITYPE_UMDRIVERPRIVATE,
                                  .pPrivateDriverData = &info, .PrivateDriverDataSize = sizeof info };
    NTSTATUS st = D3DKMTQueryAdapterInfo(&q);
    D3DKMT_CLOSEADAPTER ca = { .hAdapter = ai[0].hAdapter };
    (void)D3DKMTCloseAdapter(&ca);
    return NT_SUCCESS(st) ? (info.gpummu || info.iommu ? 1 : 0) : -1;
}

/* Whether the first adapter runs the IoMmu model (KMTQAITYPE_WDDM_2_0_CAPS): e2e_gpummu() is 1
 * then too, but the UMD maps nothing (an allocation's address is the CPU's pointer). */
static inline int e2e_iommu(void)
{
    D3DKMT_ADAPTERINFO ai[1];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 1, .pAdapters = ai };
    if (!NT_SUCCESS(D3DKMTEnumAdapters2(&en)) || en.NumAdapters < 1)
        return 0;
    D3DKMT_WDDM_2_0_CAPS c = { .Value = 0 };
    D3DKMT_QUERYADAPTERINFO q = { .hAdapter = ai[0].hAdapter, .Type = KMTQAITYPE_WDDM_2_0_CAPS,
                                  .pPrivateDriverData = &c, .PrivateDriverDataSize = sizeof c };
    NTSTATUS st = D3DKMTQueryAdapterInfo(&q);
    D3DKMT_CLOSEADAPTER ca = { .hAdapter = ai[0].hAdapter };
    (void)D3DKMTCloseAdapter(&ca);
    return NT_SUCCESS(st) && c.IoMmuSupported ? 1 : 0;
}

#endif
