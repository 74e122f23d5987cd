/* Issue 20 §5, IOMMU-based GPU isolation (WDDM 2.4; MicrosoftDocs "IOMMU-based GPU isolation"):
 * a KMD that requires it (IoMmuSecureModeRequired, with IoMmuSecureModeSupported) starts with its
 * device attached to the IOMMU, as does one that supports it when WDDM_IOMMU_ISOLATION=1 asks (the
 * IOMMUFlags key's part). Then the GPU's physical accesses reach only what the kernel mapped for
 * devices: a DMA buffer naming process memory the kernel never handed out copies nothing, while
 * the kernel's own pages (DMA buffers, paging buffers, backing stores) keep working. Without
 * isolation the same buffer reads that memory: the baseline that proves the access is real. */
#include "real_env.h"

#include "kernel_peek.h"
#include "kmd/kmd.h"

#define BYTES 8192u

/* A device that reaches where it should not (the threat isolation is for): the reference KMD,
 * whose DxgkDdiPatch is followed by a rewrite of the first COPY's source to `smuggled`, a system
 * address (segment 0) of the process's own memory. The reference KMD itself never lets a
 * command buffer name one (an address field needs a patch location). */
static const void *smuggled;
static PDXGKDDI_PATCH real_patch;

static NTSTATUS APIENTRY smuggling_patch(const HANDLE hAdapter, const DXGKARG_PATCH *args)
{
    NTSTATUS st = real_patch(hAdapter, args);
    BYTE *cmd = (BYTE *)args->pDmaBuffer + args->DmaBufferSubmissionStartOffset;
    struct swgpu_cmd_header h;
    memcpy(&h, cmd, sizeof h);
    /* The test's own buffer (one COPY), not a paging buffer (DxgkDdiPatch sees those too). */
    if (NT_SUCCESS(st) && smuggled && !args->Flags.Paging && h.opcode == SWGPU_OP_COPY &&
        args->DmaBufferSubmissionEndOffset - args->DmaBufferSubmissionStartOffset == sizeof(struct swgpu_cmd_copy)) {
        UINT64 src = (UINT64)(uintptr_t)smuggled;
        memcpy(cmd + offsetof(struct swgpu_cmd_copy, src.addr), &src, sizeof src);
    }
    return st;
}

static NTSTATUS smuggling_entry(PDRIVER_OBJECT drv, PVOID reg)
{
    DRIVER_INITIALIZATION_DATA d;
    SwKmdGetDriverInitializationData(&d);
    real_patch = d.DxgkDdiPatch;
    d.DxgkDdiPatch = smuggling_patch;
    return DxgkInitialize(drv, reg, &d);
}

static bool isolated(const struct renv *e)
{
    struct dxgk_device *d = (struct dxgk_device *)dxgk_handle_get(e->device, DXGK_TYPE_DEVICE);
    assert_non_null(d);
    bool on = d->adapter->isolated;
    dxgk_object_put(&d->obj);
    return on;
}

/* The process's own memory through a DMA buffer: landed (true) or not, after the GPU ran it. */
static bool host_copy_lands(struct renv *e)
{
    UINT8 *host = aligned_alloc(4096, BYTES); /* the process's memory, never the kernel's */
    assert_non_null(host);
    renv_pattern(host, BYTES, 5);
    D3DKMT_HANDLE rb = renv_alloc(e, SWGPU_ALLOC_READBACK, BYTES), src = renv_alloc(e, SWGPU_ALLOC_UPLOAD, BYTES);
    smuggled = host;
    assert_int_equal(renv_copy(e, rb, src, BYTES), STATUS_SUCCESS);
    void *p;
    assert_int_equal(renv_lock(e, rb, LOCK_READONLY, &p), STATUS_SUCCESS); /* waits for the copy */
    bool landed = memcmp(p, host, BYTES) == 0;
    if (!landed)
        for (UINT i = 0; i < BYTES; i++)
            assert_int_equal(((const UINT8 *)p)[i], 0); /* not a byte of it */
    renv_unlock(e, rb);
    smuggled = NULL;
    /* The kernel's pages stay reachable: an upload through the aperture and a readback. */
    D3DKMT_HANDLE up = renv_alloc(e, SWGPU_ALLOC_UPLOAD, BYTES), mid = renv_alloc(e, SWGPU_ALLOC_GPU_ONLY, BYTES);
    renv_gpu_write(e, mid, up, BYTES, 9);
    renv_gpu_check(e, mid, rb, BYTES, 9);
    free(host);
    return landed;
}

static void start(struct renv *e, const char *caps, const char *ask)
{
    renv_caps(caps);
    if (ask)
        setenv("WDDM_IOMMU_ISOLATION", ask, 1);
    else
        unsetenv("WDDM_IOMMU_ISOLATION");
    wddm_set_kmd_entry(smuggling_entry);
    renv_open_kmd(e);
}

static void stop(struct renv *e)
{
    renv_close(e);
    renv_caps_remove();
    unsetenv("WDDM_IOMMU_ISOLATION");
    wddm_set_kmd_entry(NULL);
}

/* rule: kernel.iommu-isolation-when-required-or-asked */
/* rule: gpu.physical-access-through-iommu-when-isolated */
static void a_required_isolation_confines_the_gpu_to_the_kernels_pages(void **state)
{
    (void)state;
    struct renv e;
    start(&e, "DXGK_VIDMMCAPS.IoMmuSecureModeSupported = 1\nDXGK_VIDMMCAPS.IoMmuSecureModeRequired = 1\n", NULL);
    assert_true(isolated(&e));
    assert_false(host_copy_lands(&e));
    stop(&e);
}

/* rule: kernel.iommu-isolation-when-required-or-asked (asked, and the baseline without it) */
static void supported_isolation_is_on_only_when_asked(void **state)
{
    (void)state;
    struct renv e;
    start(&e, "DXGK_VIDMMCAPS.IoMmuSecureModeSupported = 1\n", NULL);
    assert_false(isolated(&e));
    assert_true(host_copy_lands(&e)); /* the same access reaches the memory without isolation */
    stop(&e);
    start(&e, "DXGK_VIDMMCAPS.IoMmuSecureModeSupported = 1\n", "1");
    assert_true(isolated(&e));
    assert_false(host_copy_lands(&e));
    stop(&e);
    /* Asked, but the KMD does not support it: not isolated (Windows ignores the key then). */
    start(&e, "DXGK_VIDMMCAPS.IoMmuSecureModeSupported = 0\n", "1");
    assert_false(isolated(&e));
    stop(&e);
}

/* Whether adapter `e`'s device reaches `page` by a physical access (a request without a PASID). */
static bool reaches(const struct renv *e, const void *page)
{
    struct dxgk_device *d = (struct dxgk_device *)dxgk_handle_get(e->device, DXGK_TYPE_DEVICE);
    assert_non_null(d);
    UINT64 phys = 0;
    NTSTATUS st = WddmIoMmuTranslate(&d->adapter->pdo, 0, (UINT64)(uintptr_t)page, TRUE, &phys);
    dxgk_object_put(&d->obj);
    assert_true(st == STATUS_SUCCESS || st == STATUS_ACCESS_VIOLATION);
    if (st == STATUS_SUCCESS)
        assert_int_equal(phys, (UINT64)(uintptr_t)page); /* 1:1 */
    return st == STATUS_SUCCESS;
}

/* An allocation's backing store (an upload buffer: system pages in the aperture). */
static const void *backing_of(D3DKMT_HANDLE h)
{
    struct dxgk_allocation *al = (struct dxgk_allocation *)dxgk_handle_get(h, DXGK_TYPE_ALLOCATION);
    assert_non_null(al);
    pthread_mutex_lock(&al->device->adapter->lock);
    const void *p = al->current->backing;
    pthread_mutex_unlock(&al->device->adapter->lock);
    dxgk_object_put(&al->obj);
    assert_non_null(p);
    return p;
}

static const void *command_buffer_of(D3DKMT_HANDLE context)
{
    struct dxgk_context *c = (struct dxgk_context *)dxgk_handle_get(context, DXGK_TYPE_CONTEXT);
    assert_non_null(c);
    const void *p = c->cmd;
    dxgk_object_put(&c->obj);
    return p;
}

/* Two isolated adapters: each has a domain of its own, so one's GPU reaches its own DMA buffers and
 * backing stores and not the other's; a page both use (the dummy page) both reach. */
/* rule: kernel.isolation-domain-per-adapter */
static void each_isolated_adapter_reaches_only_its_own_pages(void **state)
{
    (void)state;
    setenv("WDDM_ADAPTER_COUNT", "2", 1);
    renv_caps("DXGK_VIDMMCAPS.IoMmuSecureModeSupported = 1\nDXGK_VIDMMCAPS.IoMmuSecureModeRequired = 1\n");
    struct renv a, b;
    renv_open_pair(&a, &b);
    assert_true(isolated(&a) && isolated(&b));
    D3DKMT_HANDLE ua = renv_alloc(&a, SWGPU_ALLOC_UPLOAD, BYTES), ub = renv_alloc(&b, SWGPU_ALLOC_UPLOAD, BYTES);
    void *p;
    assert_int_equal(renv_lock(&a, ua, LOCK_WRITEONLY, &p), STATUS_SUCCESS); /* placed, its backing committed */
    renv_unlock(&a, ua);
    assert_int_equal(renv_lock(&b, ub, LOCK_WRITEONLY, &p), STATUS_SUCCESS);
    renv_unlock(&b, ub);
    const void *pa = backing_of(ua), *pb = backing_of(ub);
    assert_true(reaches(&a, pa));
    assert_false(reaches(&b, pa));
    assert_true(reaches(&b, pb));
    assert_false(reaches(&a, pb));
    const void *ca = command_buffer_of(a.context), *cb = command_buffer_of(b.context);
    assert_true(reaches(&a, ca) && !reaches(&b, ca));
    assert_true(reaches(&b, cb) && !reaches(&a, cb));
    assert_true(reaches(&a, vidmm_dummy_page()) && reaches(&b, vidmm_dummy_page()));
    renv_close(&b);
    renv_close(&a);
    renv_caps_remove();
    unsetenv("WDDM_ADAPTER_COUNT");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_required_isolation_confines_the_gpu_to_the_kernels_pages),
        cmocka_unit_test(supported_isolation_is_on_only_when_asked),
        cmocka_unit_test(each_isolated_adapter_reaches_only_its_own_pages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
