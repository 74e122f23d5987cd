/* Issue 20 §5, IOMMU-based GPU isolation (WDDM 2.4; MicrosoftDocs "IOMMU-based GPU isolation",
 * "Memory allocation and mapping to IOMMU"): a KMD's own memory for its GPU comes from the kernel,
 * mapped in the IOMMU in the same step - DxgkCbAllocatePagesForMdl, DxgkCbAllocateContiguousMemory
 * for their lifetime, and a driver's own MDL between DxgkCbMapMdlToIoMmu and DxgkCbUnmapMdlFromIoMmu.
 * What the device may reach is asked of the platform as the device asks it (WddmIoMmuTranslate
 * without a PASID). Handles that were never returned are refused; a block left at the adapter's
 * stop is a leak the verifier names. The mock KMD (mock_kmd.h) plays the driver. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "mock_kmd.h"
#include "kernel_peek.h"

static int reset(void **state)
{
    (void)state;
    mock_reset();
    unsetenv("WDDM_IOMMU_ISOLATION");
    return 0;
}

/* Whether the device may reach the page at p (a physical access: no PASID). */
static bool reachable(const void *p)
{
    const struct dxgk_adapter *a = mock_started_cb.DeviceHandle;
    UINT64 phys = 0;
    NTSTATUS st = WddmIoMmuTranslate((PDEVICE_OBJECT)&a->pdo, 0, (UINT64)(uintptr_t)p, 0, &phys);
    return NT_SUCCESS(st) && phys == (UINT64)(uintptr_t)p;
}

static void open_isolated(struct mock_env *e)
{
    atomic_store(&mock.fb_save_claim, 1); /* IoMmuSecureModeSupported (no save area) */
    setenv("WDDM_IOMMU_ISOLATION", "1", 1);
    assert_int_equal(mock_open(e), STATUS_SUCCESS);
    assert_true(((const struct dxgk_adapter *)mock_started_cb.DeviceHandle)->isolated);
}

/* rule: vidmm.kmd-memory-mapped-for-its-lifetime */
static void the_kmds_blocks_are_reachable_exactly_while_they_live(void **state)
{
    (void)state;
    struct mock_env e;
    open_isolated(&e);
    const DXGKRNL_INTERFACE *cb = &mock_started_cb;
    BYTE *own = aligned_alloc(4096, 8192);
    assert_non_null(own);
    assert_false(reachable(own)); /* the process's memory: never handed out */
    /* Pages for an MDL. */
    DXGKARGCB_ALLOCATEPAGESFORMDL pm = { .TotalBytes = 8192 };
    assert_int_equal(cb->DxgkCbAllocatePagesForMdl(cb->DeviceHandle, &pm), STATUS_SUCCESS);
    assert_non_null(pm.pMdl);
    assert_int_equal(pm.pMdl->PageCount, 2);
    const void *page1 = (const void *)(uintptr_t)((UINT64)pm.pMdl->PfnArray[1] << 12);
    assert_true(reachable(page1));
    memset(pm.pMdl->MappedSystemVa, 0x5a, 8192); /* locked and mapped for the CPU too */
    /* Mapped a second time (an MDL over the same pages) and unmapped: the first use keeps them. */
    DXGKARGCB_MAPMDLTOIOMMU again = { .pMdl = pm.pMdl };
    assert_int_equal(cb->DxgkCbMapMdlToIoMmu(cb->DeviceHandle, &again), STATUS_SUCCESS);
    DXGKARGCB_UNMAPMDLFROMIOMMU undo = { .hMemoryHandle = again.hMemoryHandle };
    cb->DxgkCbUnmapMdlFromIoMmu(cb->DeviceHandle, &undo);
    assert_true(reachable(page1)); /* rule: vidmm.kernel-iommu-mapping-counted */
    DXGKARGCB_FREEPAGESFROMMDL fp = { .hMemoryHandle = pm.hMemoryHandle };
    assert_int_equal(cb->DxgkCbFreePagesFromMdl(cb->DeviceHandle, &fp), STATUS_SUCCESS);
    assert_int_equal(cb->DxgkCbFreePagesFromMdl(cb->DeviceHandle, &fp), STATUS_INVALID_PARAMETER); /* twice */
    /* Contiguous memory inside a 64 KiB boundary. */
    DXGKARGCB_ALLOCATECONTIGUOUSMEMORY cm = { .NumberOfBytes = 12288, .BoundaryAddressMultiple.QuadPart = 65536 };
    assert_int_equal(cb->DxgkCbAllocateContiguousMemory(cb->DeviceHandle, &cm), STATUS_SUCCESS);
    assert_int_equal((uintptr_t)cm.pMemory % 65536, 0);
    assert_true(reachable((BYTE *)cm.pMemory + 8192));
    DXGKARGCB_FREECONTIGUOUSMEMORY fc = { .hMemoryHandle = cm.hMemoryHandle };
    DXGKARGCB_FREEPAGESFROMMDL wrong_kind = { .hMemoryHandle = cm.hMemoryHandle };
    assert_int_equal(cb->DxgkCbFreePagesFromMdl(cb->DeviceHandle, &wrong_kind), STATUS_INVALID_PARAMETER);
    assert_int_equal(cb->DxgkCbFreeContiguousMemory(cb->DeviceHandle, &fc), STATUS_SUCCESS);
    DXGKARGCB_ALLOCATECONTIGUOUSMEMORY bad = { .NumberOfBytes = 4096, .BoundaryAddressMultiple.QuadPart = 12288 };
    assert_int_equal(cb->DxgkCbAllocateContiguousMemory(cb->DeviceHandle, &bad), STATUS_INVALID_PARAMETER);
    /* The driver's own MDL: reachable between map and unmap, not before nor after. */
    PFN_NUMBER pfn[2] = { (uintptr_t)own >> 12, ((uintptr_t)own >> 12) + 1 };
    MDL mdl = { .StartVa = own, .ByteCount = 8192, .PageCount = 2, .PfnArray = pfn };
    DXGKARGCB_MAPMDLTOIOMMU mm = { .pMdl = &mdl };
    assert_int_equal(cb->DxgkCbMapMdlToIoMmu(cb->DeviceHandle, &mm), STATUS_SUCCESS);
    assert_true(reachable(own) && reachable(own + 4096));
    DXGKARGCB_UNMAPMDLFROMIOMMU um = { .hMemoryHandle = mm.hMemoryHandle };
    cb->DxgkCbUnmapMdlFromIoMmu(cb->DeviceHandle, &um);
    assert_false(reachable(own) || reachable(own + 4096));
    mock_close(&e);
    free(own);
}

/* rule: vidmm.kmd-memory-mapped-for-its-lifetime (a leak) */
static void a_block_left_at_the_stop_is_a_leak(void **state)
{
    (void)state;
    struct mock_env e;
    open_isolated(&e);
    UINT64 before = wddm_verifier_violations("Isolation.MemoryLeak");
    DXGKARGCB_ALLOCATEPAGESFORMDL pm = { .TotalBytes = 4096 };
    assert_int_equal(mock_started_cb.DxgkCbAllocatePagesForMdl(mock_started_cb.DeviceHandle, &pm), STATUS_SUCCESS);
    mock_close(&e); /* the adapter stops with the block */
    assert_int_equal(wddm_verifier_violations("Isolation.MemoryLeak"), before + 1);
}

int main(void)
{
    unsetenv("WDDM_VERIFIER");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(the_kmds_blocks_are_reachable_exactly_while_they_live, reset, reset),
        cmocka_unit_test_setup_teardown(a_block_left_at_the_stop_is_a_leak, reset, reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
