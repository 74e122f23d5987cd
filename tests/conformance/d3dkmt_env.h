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

/* Whether the adapter runs the IoMmu model (KMTQAITYPE_WDDM_2_0_CAPS). */
static inline bool kmt_iommu(const struct kmt *k)
{
    D3DKMT_WDDM_2_0_CAPS c = { .Value = 0 };
    D3DKMT_QUERYADAPTERINFO q = { .hAdapter = k->adapter, .Type = KMTQAITYPE_WDDM_2_0_CAPS,
                                  .pPrivateDriverData = &c, .PrivateDriverDataSize = sizeof c };
    assert_int_equal(D3DKMTQueryAdapterInfo(&q), STATUS_SUCCESS);
    return c.IoMmuSupported;
}

/* What an allocation's D3DDDI_ALLOCATIONINFO2 / OPENALLOCATIONINFO2.GpuVirtualAddress must be: 0
 * (creation and opens map nothing: D3DKMTMapGpuVirtualAddress does), and in the IoMmu model the
 * address the CPU and the GPU share, the one a lock returns. */
static inline void kmt_expect_gpu_va(const struct kmt *k, D3DKMT_HANDLE alloc, D3DGPU_VIRTUAL_ADDRESS va)
{
    if (!kmt_iommu(k)) {
        assert_int_equal(va, 0);
        return;
    }
    assert_int_not_equal(va, 0);
    assert_ptr_equal(renv_lock2(k->device, alloc), (void *)(uintptr_t)va);
    renv_unlock2(k->device, alloc);
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
