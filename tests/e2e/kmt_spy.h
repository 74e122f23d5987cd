/* A D3DKMT spy for end-to-end tests, the way a Windows tool hooks the kernel thunks: a test that
 * includes this header is linked with -Wl,--wrap for the thunks below (CMakeLists.txt), so the
 * runtime's calls of them come here first and are passed on unchanged. The spy records the
 * kernel objects the runtime creates; the test then asks the kernel about them through the
 * public thunks only, never through the runtime's or the kernel's own structures (issue 16 §3). */
#ifndef WDDM_TESTS_KMT_SPY_H
#define WDDM_TESTS_KMT_SPY_H

#include <wddm/d3dkmthk.h>

#define KMT_SPY_CONTEXTS 64u

static struct {
    D3DKMT_HANDLE last_device;                  /* the last D3DKMTCreateDevice's device */
    D3DKMT_HANDLE context[KMT_SPY_CONTEXTS];    /* every D3DKMTCreateContext's context ... */
    D3DKMT_HANDLE context_device[KMT_SPY_CONTEXTS]; /* ... and its device */
    UINT contexts;
} kmt_spy;

NTSTATUS APIENTRY __real_D3DKMTCreateDevice(D3DKMT_CREATEDEVICE *args);
NTSTATUS APIENTRY __real_D3DKMTCreateContext(D3DKMT_CREATECONTEXT *args);
NTSTATUS APIENTRY __wrap_D3DKMTCreateDevice(D3DKMT_CREATEDEVICE *args);
NTSTATUS APIENTRY __wrap_D3DKMTCreateContext(D3DKMT_CREATECONTEXT *args);

NTSTATUS APIENTRY __wrap_D3DKMTCreateDevice(D3DKMT_CREATEDEVICE *args)
{
    NTSTATUS st = __real_D3DKMTCreateDevice(args);
    if (NT_SUCCESS(st))
        kmt_spy.last_device = args->hDevice;
    return st;
}

NTSTATUS APIENTRY __wrap_D3DKMTCreateContext(D3DKMT_CREATECONTEXT *args)
{
    NTSTATUS st = __real_D3DKMTCreateContext(args);
    if (NT_SUCCESS(st) && kmt_spy.contexts < KMT_SPY_CONTEXTS) {
        kmt_spy.context[kmt_spy.contexts] = args->hContext;
        kmt_spy.context_device[kmt_spy.contexts++] = args->hDevice;
    }
    return st;
}

#endif /* WDDM_TESTS_KMT_SPY_H */
