/* Helpers of the D3DKMT conformance tests (issue 14 §3): the process's one adapter with a
 * device on it, and the reference KMD's private data for a plain GPU buffer. */
#ifndef WDDM_TESTS_CONFORMANCE_D3DKMT_ENV_H
#define WDDM_TESTS_CONFORMANCE_D3DKMT_ENV_H

#include "dxgkrnl/real_env.h"

struct kmt {
    D3DKMT_HANDLE adapter, device;
};

static inline void kmt_open(struct kmt *k)
{
    D3DKMT_ADAPTERINFO info[4];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
    assert_int_equal(en.NumAdapters, 1);
    k->adapter = info[0].hAdapter;
    D3DKMT_CREATEDEVICE cd = { .hAdapter = k->adapter };
    assert_int_equal(D3DKMTCreateDevice(&cd), STATUS_SUCCESS);
    k->device = cd.hDevice;
}

static inline void kmt_close(struct kmt *k)
{
    D3DKMT_DESTROYDEVICE dd = { .hDevice = k->device };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    D3DKMT_CLOSEADAPTER ca = { .hAdapter = k->adapter };
    assert_int_equal(D3DKMTCloseAdapter(&ca), STATUS_SUCCESS);
}

/* What DxgkDdiCreateAllocation of the reference KMD reads: a GPU-only buffer of `size` bytes. */
static inline struct swgpu_alloc_private kmt_buffer_private(UINT64 size)
{
    return (struct swgpu_alloc_private){ .magic = SWGPU_PRIVATE_MAGIC, .version = SWGPU_PRIVATE_VERSION,
                                         .kind = SWGPU_ALLOC_GPU_ONLY, .size = size, .dimension = 1,
                                         .width = (UINT32)size, .height = 1, .depth = 1, .mip_levels = 1,
                                         .array_size = 1 };
}

#endif
