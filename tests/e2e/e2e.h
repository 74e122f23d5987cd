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

#endif
