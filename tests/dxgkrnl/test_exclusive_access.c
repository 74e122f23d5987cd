/* Issue 20 §5, IOMMU-based GPU isolation (WDDM 2.4; MicrosoftDocs "IOMMU-based GPU isolation",
 * "Exclusive access"; DxgkDdiBeginExclusiveAccess / DxgkDdiEndExclusiveAccess): the kernel attaches
 * the device's IOMMU domain between the KMD's begin and end calls - not attached at the begin,
 * attached at the end, each called once - and only when isolation is on. A KMD that claims
 * IoMmuSecureModeSupported must implement both ("a kernel-mode driver must implement the following
 * DDIs"), and a begin that fails stops the start: the domain cannot be attached. The mock KMD
 * (mock_kmd.h) records what it saw. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "mock_kmd.h"

static int reset(void **state)
{
    (void)state;
    mock_reset();
    atomic_store(&mock.fb_save_claim, 1); /* IoMmuSecureModeSupported (no save area) */
    unsetenv("WDDM_IOMMU_ISOLATION");
    wddm_set_kmd_entry(NULL);
    return 0;
}

/* rule: kernel.isolation-domain-attached-in-exclusive-access */
static void the_domain_is_attached_between_begin_and_end(void **state)
{
    (void)state;
    struct mock_env e;
    setenv("WDDM_IOMMU_ISOLATION", "1", 1);
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    assert_int_equal(atomic_load(&mock.exclusive_begins), 1);
    assert_int_equal(atomic_load(&mock.exclusive_ends), 1);
    assert_int_equal(atomic_load(&mock.exclusive_attached), 2); /* not at the begin, at the end */
    mock_close(&e);
    /* Supported but not asked for: no isolation, no domain switch. */
    mock_reset();
    atomic_store(&mock.fb_save_claim, 1);
    unsetenv("WDDM_IOMMU_ISOLATION");
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    assert_int_equal(atomic_load(&mock.exclusive_begins), 0);
    mock_close(&e);
}

/* rule: kernel.isolation-domain-attached-in-exclusive-access (a failed begin) */
static void a_failed_begin_stops_the_start(void **state)
{
    (void)state;
    struct mock_env e;
    setenv("WDDM_IOMMU_ISOLATION", "1", 1);
    atomic_store(&mock.exclusive_fail, 1);
    assert_false(NT_SUCCESS(mock_open(&e)));
    assert_int_equal(atomic_load(&mock.exclusive_ends), 0);
    char why[1100];
    wddm_last_refusals(why, sizeof why);
    assert_non_null(strstr(why, "DxgkDdiBeginExclusiveAccess failed"));
}

/* rule: kernel.isolation-ddis-required */
static void a_kmd_claiming_isolation_without_the_ddis_does_not_start(void **state)
{
    (void)state;
    struct mock_env e;
    UINT64 before = wddm_verifier_violations("Caps.IsolationDdi");
    atomic_store(&mock.no_exclusive_ddis, 1);
    assert_false(NT_SUCCESS(mock_open(&e)));
    assert_int_equal(wddm_verifier_violations("Caps.IsolationDdi"), before + 1);
    atomic_store(&mock.fb_save_claim, 0); /* not claimed: the same table starts */
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    mock_close(&e);
}

int main(void)
{
    unsetenv("WDDM_VERIFIER");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(the_domain_is_attached_between_begin_and_end, reset, reset),
        cmocka_unit_test_setup_teardown(a_failed_begin_stops_the_start, reset, reset),
        cmocka_unit_test_setup_teardown(a_kmd_claiming_isolation_without_the_ddis_does_not_start, reset, reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
