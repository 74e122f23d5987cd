/* Issue 20 §5, DXGK_VIDMMCAPS.IoMmuSecureModeSupported: the frame buffer save area of a KMD
 * capable of IOMMU-based GPU isolation (MicrosoftDocs "IOMMU-based GPU isolation"). The kernel
 * asks DXGKQAITYPE_FRAMEBUFFERSAVESIZE at start (a size that is no multiple of PAGE_SIZE, or a
 * failed answer, stops the start), and lends the KMD a section of that size: pinned whole as an
 * MDL of locked pages, or mapped for the CPU a piece at a time; what was written there is there at
 * the next pin or map. A KMD without the cap is asked nothing and has no save area. The mock KMD
 * (mock_kmd.h) plays the driver; its DXGKRNL_INTERFACE is the one the kernel gave it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "mock_kmd.h"

#define SAVE (64u * 1024u)

static int reset(void **state)
{
    (void)state;
    mock_reset();
    return 0;
}

static void open_with(UINT claim, SIZE_T size, struct mock_env *e)
{
    atomic_store(&mock.fb_save_claim, claim);
    atomic_store(&mock.fb_save_size, size);
    assert_int_equal(mock_open(e), STATUS_SUCCESS);
}

/* rule: vidmm.fb-save-area-queried-and-lent */
static void the_save_area_is_lent_pinned_or_mapped_and_keeps_its_bytes(void **state)
{
    (void)state;
    struct mock_env e;
    open_with(1, SAVE, &e);
    assert_int_equal(atomic_load(&mock.fb_save_queries), 1);
    const DXGKRNL_INTERFACE *cb = &mock_started_cb;
    /* Pinned: an MDL of CommitSize bytes of locked, mapped pages; the "GPU" writes a pattern. */
    DXGKARGCB_PINFRAMEBUFFERFORSAVE pin = { .PhysicalAdapterIndex = 0, .CommitSize = SAVE };
    assert_int_equal(cb->DxgkCbPinFrameBufferForSave(cb->DeviceHandle, &pin), STATUS_SUCCESS);
    assert_non_null(pin.pMdl);
    assert_int_equal(pin.pMdl->ByteCount, SAVE);
    assert_int_equal(pin.pMdl->PageCount, SAVE / 4096);
    assert_true(pin.pMdl->MdlFlags & MDL_PAGES_LOCKED);
    BYTE *p = pin.pMdl->MappedSystemVa;
    for (UINT i = 0; i < SAVE; i++)
        p[i] = (BYTE)(i * 31 + 7);
    for (UINT k = 0; k < pin.pMdl->PageCount; k++)
        assert_int_equal(pin.pMdl->PfnArray[k], ((uintptr_t)p >> 12) + k);
    /* One pin at a time. */
    DXGKARGCB_PINFRAMEBUFFERFORSAVE again = { .CommitSize = 4096 };
    assert_int_equal(cb->DxgkCbPinFrameBufferForSave(cb->DeviceHandle, &again), STATUS_INVALID_DEVICE_STATE);
    DXGKARGCB_UNPINFRAMEBUFFERFORSAVE unpin = { .PhysicalAdapterIndex = 0 };
    assert_int_equal(cb->DxgkCbUnpinFrameBufferForSave(cb->DeviceHandle, &unpin), STATUS_SUCCESS);
    assert_int_equal(cb->DxgkCbUnpinFrameBufferForSave(cb->DeviceHandle, &unpin), STATUS_INVALID_PARAMETER);
    /* Mapped a page at a time (the forward-progress path): the bytes the pin's writer left. */
    for (SIZE_T off = 0; off < SAVE; off += 4096) {
        DXGKARGCB_MAPFRAMEBUFFERPOINTER m = { .PhysicalAdapterIndex = 0, .Size = 4096, .Offset = off };
        assert_int_equal(cb->DxgkCbMapFrameBufferPointer(cb->DeviceHandle, &m), STATUS_SUCCESS);
        const BYTE *q = (const BYTE *)m.pBaseAddress + m.Offset;
        for (UINT i = 0; i < 4096; i++)
            if (q[i] != (BYTE)((off + i) * 31 + 7))
                fail_msg("save area byte %zu reads 0x%02x", (size_t)(off + i), q[i]);
        DXGKARGCB_UNMAPFRAMEBUFFERPOINTER um = { .PhysicalAdapterIndex = 0, .pBaseAddress = m.pBaseAddress };
        assert_int_equal(cb->DxgkCbUnmapFrameBufferPointer(cb->DeviceHandle, &um), STATUS_SUCCESS);
        assert_int_equal(cb->DxgkCbUnmapFrameBufferPointer(cb->DeviceHandle, &um), STATUS_INVALID_PARAMETER);
    }
    /* What the rules refuse: sizes not page multiples or beyond the area, a second physical adapter. */
    DXGKARGCB_PINFRAMEBUFFERFORSAVE bad = { .CommitSize = SAVE + 4096 };
    assert_int_equal(cb->DxgkCbPinFrameBufferForSave(cb->DeviceHandle, &bad), STATUS_INVALID_PARAMETER);
    bad.CommitSize = 100;
    assert_int_equal(cb->DxgkCbPinFrameBufferForSave(cb->DeviceHandle, &bad), STATUS_INVALID_PARAMETER);
    bad = (DXGKARGCB_PINFRAMEBUFFERFORSAVE){ .PhysicalAdapterIndex = 1, .CommitSize = 4096 };
    assert_int_equal(cb->DxgkCbPinFrameBufferForSave(cb->DeviceHandle, &bad), STATUS_INVALID_PARAMETER);
    DXGKARGCB_MAPFRAMEBUFFERPOINTER m = { .Size = 8192, .Offset = SAVE - 4096 };
    assert_int_equal(cb->DxgkCbMapFrameBufferPointer(cb->DeviceHandle, &m), STATUS_INVALID_PARAMETER);
    m = (DXGKARGCB_MAPFRAMEBUFFERPOINTER){ .Size = 4096, .Offset = 100 };
    assert_int_equal(cb->DxgkCbMapFrameBufferPointer(cb->DeviceHandle, &m), STATUS_INVALID_PARAMETER);
    mock_close(&e);
}

/* rule: vidmm.fb-save-area-queried-and-lent (a KMD without the cap) */
static void without_the_cap_nothing_is_asked_and_nothing_lent(void **state)
{
    (void)state;
    struct mock_env e;
    open_with(0, 0, &e);
    assert_int_equal(atomic_load(&mock.fb_save_queries), 0);
    const DXGKRNL_INTERFACE *cb = &mock_started_cb;
    DXGKARGCB_PINFRAMEBUFFERFORSAVE pin = { .CommitSize = 4096 };
    assert_int_equal(cb->DxgkCbPinFrameBufferForSave(cb->DeviceHandle, &pin), STATUS_NOT_SUPPORTED);
    DXGKARGCB_MAPFRAMEBUFFERPOINTER m = { .Size = 4096 };
    assert_int_equal(cb->DxgkCbMapFrameBufferPointer(cb->DeviceHandle, &m), STATUS_NOT_SUPPORTED);
    mock_close(&e);
}

/* rule: kernel.verifier-fb-save-size */
static void a_size_not_a_page_multiple_or_a_failed_answer_stops_the_start(void **state)
{
    (void)state;
    wddm_set_kmd_entry(mock_driver_entry);
    D3DKMT_ADAPTERINFO info[2];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 2, .pAdapters = info };
    atomic_store(&mock.fb_save_claim, 1);
    atomic_store(&mock.fb_save_size, 4096 + 512);
    wddm_clear_refusals();
    assert_false(NT_SUCCESS(D3DKMTEnumAdapters2(&en)));
    char why[1100];
    wddm_last_refusals(why, sizeof why);
    assert_non_null(strstr(why, "IoMmu.FrameBufferSaveSize"));
    assert_non_null(strstr(why, "not a multiple of PAGE_SIZE"));
    atomic_store(&mock.fb_save_claim, 2);
    en.NumAdapters = 2;
    assert_false(NT_SUCCESS(D3DKMTEnumAdapters2(&en)));
    assert_int_equal(atomic_load(&mock.live_adapters), 0);
    mock_reset();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(the_save_area_is_lent_pinned_or_mapped_and_keeps_its_bytes, reset, reset),
        cmocka_unit_test_setup_teardown(without_the_cap_nothing_is_asked_and_nothing_lent, reset, reset),
        cmocka_unit_test_setup_teardown(a_size_not_a_page_multiple_or_a_failed_answer_stops_the_start, reset, reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
