/* Helpers of the D3D11 conformance tests (issue 14 §2): each test_d3d11_*.c re-expresses, in
 * its own words, checks that run on real Windows (Wine's dlls/d3d11/tests/d3d11.c; a todo_wine
 * line still states Windows' answer) and runs them through the public API on the real stack:
 * D3D11CreateDevice -> runtime -> UMD -> kernel -> KMD -> software GPU. */
#ifndef WDDM_TESTS_D3D11_CONF_H
#define WDDM_TESTS_D3D11_CONF_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <d3d11.h>

#define CONF_RELEASE(p) do { if (p) { (p)->lpVtbl->Release(p); (p) = NULL; } } while (0)

struct conf {
    ID3D11Device *dev;
    ID3D11DeviceContext *ctx;
    D3D_FEATURE_LEVEL fl;
};

/* A device at one feature level (0: the default list). */
static inline int conf_open(struct conf *c, D3D_FEATURE_LEVEL fl)
{
    memset(c, 0, sizeof *c);
    HRESULT hr = D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, fl ? &fl : NULL, fl ? 1 : 0,
                                   D3D11_SDK_VERSION, &c->dev, &c->fl, &c->ctx);
    if (FAILED(hr)) {
        fprintf(stderr, "D3D11CreateDevice failed: 0x%08x\n", (unsigned)hr);
        return -1;
    }
    return 0;
}

static inline void conf_close(struct conf *c)
{
    CONF_RELEASE(c->ctx);
    CONF_RELEASE(c->dev);
}

static inline int conf_setup(void **state)
{
    struct conf *c = calloc(1, sizeof *c);
    if (!c || conf_open(c, D3D_FEATURE_LEVEL_11_0)) {
        free(c);
        return -1;
    }
    *state = c;
    return 0;
}

static inline int conf_teardown(void **state)
{
    struct conf *c = *state;
    conf_close(c);
    free(c);
    return 0;
}

/* The reference count of a COM object (AddRef + Release, as the Wine tests measure it). */
static inline ULONG conf_refs(void *iface)
{
    ID3D11DeviceChild *o = iface; /* every interface starts with the IUnknown methods */
    o->lpVtbl->AddRef(o);
    return o->lpVtbl->Release(o);
}

static inline ID3D11Buffer *conf_buffer(ID3D11Device *dev, UINT size, D3D11_USAGE usage, UINT bind, UINT cpu,
                                        const void *data)
{
    D3D11_BUFFER_DESC d = { size, usage, bind, cpu, 0, 0 };
    D3D11_SUBRESOURCE_DATA init = { data, 0, 0 };
    ID3D11Buffer *b = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(dev, &d, data ? &init : NULL, &b), S_OK);
    return b;
}

/* Copies a buffer into a staging buffer and returns a malloc'd copy of its bytes. */
static inline void *conf_read_buffer(struct conf *c, ID3D11Buffer *src, UINT size)
{
    ID3D11Buffer *st = conf_buffer(c->dev, size, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, NULL);
    ID3D11DeviceContext_CopyResource(c->ctx, (ID3D11Resource *)st, (ID3D11Resource *)src);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(c->ctx, (ID3D11Resource *)st, 0, D3D11_MAP_READ, 0, &m), S_OK);
    void *out = malloc(size);
    assert_non_null(out);
    memcpy(out, m.pData, size);
    ID3D11DeviceContext_Unmap(c->ctx, (ID3D11Resource *)st, 0);
    CONF_RELEASE(st);
    return out;
}

#endif /* WDDM_TESTS_D3D11_CONF_H */
