/* Issue 6, feature queries (seed 002 "Checking for feature availability", docs/semantics.md §7):
 * DxgkCbQueryFeatureSupport and DxgkCbIsFeatureEnabled in the DXGKRNL_INTERFACE the kernel gives
 * at DxgkDdiStartDevice, answered from the OS feature set (defaults, then WDDM_FEATURES). The
 * callbacks are reached the way a KMD reaches them: a KMD that wraps the reference one keeps
 * the interface it was given. */
#include "e2e/e2e.h"

#include <wddm/d3dkmddi.h>
#include <wddm/d3dkmthk.h>
#include <wddm/wddm.h>

#include "kmd/kmd.h"

static DXGKRNL_INTERFACE seen; /* what the kernel gave at the last start */

static NTSTATUS APIENTRY keep_interface_start(const PVOID ctx, DXGK_START_INFO *si, DXGKRNL_INTERFACE *ifc,
                                              ULONG *sources, ULONG *children)
{
    seen = *ifc;
    return SwKmdStartDevice(ctx, si, ifc, sources, children);
}

static NTSTATUS keep_interface_entry(PDRIVER_OBJECT drv, PVOID reg)
{
    DRIVER_INITIALIZATION_DATA d;
    SwKmdGetDriverInitializationData(&d);
    d.DxgkDdiStartDevice = keep_interface_start;
    return DxgkInitialize(drv, reg, &d);
}

static D3DKMT_HANDLE adapter;

static NTSTATUS start(void)
{
    memset(&seen, 0, sizeof seen);
    wddm_set_kmd_entry(keep_interface_entry);
    D3DKMT_ADAPTERINFO ai[2];
    D3DKMT_ENUMADAPTERS2 e = {.NumAdapters = 2, .pAdapters = ai};
    NTSTATUS st = D3DKMTEnumAdapters2(&e);
    adapter = NT_SUCCESS(st) ? ai[0].hAdapter : 0;
    return st;
}

static int stop(void **state)
{
    (void)state;
    if (adapter) {
        D3DKMT_CLOSEADAPTER c = {.hAdapter = adapter};
        assert_int_equal(D3DKMTCloseAdapter(&c), STATUS_SUCCESS);
        adapter = 0;
    }
    wddm_set_kmd_entry(NULL);
    unsetenv("WDDM_FEATURES");
    return 0;
}

static BOOLEAN query(DXGK_FEATURE_ID id, UINT support)
{
    DXGKARGCB_QUERYFEATURESUPPORT q = {.DeviceHandle = seen.DeviceHandle, .FeatureId = id,
                                       .DriverSupportState = support, .Enabled = 77};
    assert_int_equal(seen.DxgkCbQueryFeatureSupport(&q), STATUS_SUCCESS);
    return q.Enabled;
}

static BOOLEAN is_enabled(DXGK_FEATURE_ID id)
{
    DXGKARGCB_ISFEATUREENABLED q = {.DeviceHandle = seen.DeviceHandle, .FeatureId = id, .Enabled = 77};
    assert_int_equal(seen.DxgkCbIsFeatureEnabled(&q), STATUS_SUCCESS);
    return q.Enabled;
}

/* rule: runtime.feature-queries */
static void feature_ids_have_the_wdk_values(void **state)
{
    (void)state;
    assert_int_equal(DXGK_FEATURE_HWSCH, 0);
    assert_int_equal(DXGK_FEATURE_USER_MODE_SUBMISSION, 4);
    assert_int_equal(DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD, 5);
    assert_int_equal(DXGK_FEATURE_SAMPLE, 31);
    assert_int_equal(DXGK_FEATURE_PAGE_BASED_MEMORY_MANAGER, 32);
    assert_int_equal(DXGK_FEATURE_KERNEL_MODE_TESTING, 33);
    assert_int_equal(DXGK_FEATURE_SUPPORT_ALWAYS_OFF, 0);
    assert_int_equal(DXGK_FEATURE_SUPPORT_EXPERIMENTAL, 1);
    assert_int_equal(DXGK_FEATURE_SUPPORT_STABLE, 2);
    assert_int_equal(DXGK_FEATURE_SUPPORT_ALWAYS_ON, 3);
}

/* rule: runtime.feature-queries */
static void share_backing_store_is_enabled_by_default_and_unimplemented_features_are_not(void **state)
{
    (void)state;
    assert_int_equal(start(), STATUS_SUCCESS);
    assert_non_null(seen.DxgkCbQueryFeatureSupport);
    assert_non_null(seen.DxgkCbIsFeatureEnabled);
    assert_true(query(DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD, DXGK_FEATURE_SUPPORT_STABLE));
    assert_true(query(DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD, DXGK_FEATURE_SUPPORT_EXPERIMENTAL));
    assert_true(is_enabled(DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD));
    DXGK_FEATURE_ID off[] = {DXGK_FEATURE_HWSCH, DXGK_FEATURE_HWFLIPQUEUE, DXGK_FEATURE_LDA_GPUPV,
                             DXGK_FEATURE_KMD_SIGNAL_CPU_EVENT, DXGK_FEATURE_USER_MODE_SUBMISSION,
                             DXGK_FEATURE_SAMPLE, DXGK_FEATURE_PAGE_BASED_MEMORY_MANAGER,
                             DXGK_FEATURE_KERNEL_MODE_TESTING};
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++) {
        assert_false(query(off[i], DXGK_FEATURE_SUPPORT_ALWAYS_ON));
        assert_false(is_enabled(off[i]));
    }
}

/* rule: kernel.query-answers-enabled-os-feature-driver */
static void driver_support_always_off_never_enables_a_feature(void **state)
{
    (void)state;
    assert_int_equal(start(), STATUS_SUCCESS);
    assert_false(query(DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD, DXGK_FEATURE_SUPPORT_ALWAYS_OFF));
}

/* rule: kernel.os-feature-set-adapter-fixed-before */
static void wddm_features_turns_a_feature_off_for_the_next_start(void **state)
{
    (void)state;
    setenv("WDDM_FEATURES", "SHARE_BACKING_STORE_WITH_KMD=0", 1);
    assert_int_equal(start(), STATUS_SUCCESS);
    assert_false(query(DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD, DXGK_FEATURE_SUPPORT_STABLE));
    assert_false(is_enabled(DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD));
    stop(state);
    setenv("WDDM_FEATURES", "SHARE_BACKING_STORE_WITH_KMD=0,SHARE_BACKING_STORE_WITH_KMD=1", 1);
    assert_int_equal(start(), STATUS_SUCCESS);
    assert_true(is_enabled(DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD));
}

/* rule: kernel.query-answers-enabled-os-feature-driver */
static void invalid_feature_queries_are_refused(void **state)
{
    (void)state;
    assert_int_equal(start(), STATUS_SUCCESS);
    assert_int_equal(seen.DxgkCbQueryFeatureSupport(NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(seen.DxgkCbIsFeatureEnabled(NULL), STATUS_INVALID_PARAMETER);
    DXGKARGCB_QUERYFEATURESUPPORT q = {.DeviceHandle = NULL, .FeatureId = DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD,
                                       .DriverSupportState = DXGK_FEATURE_SUPPORT_STABLE};
    wddm_clear_refusals();
    assert_int_equal(seen.DxgkCbQueryFeatureSupport(&q), STATUS_INVALID_PARAMETER);
    char why[1100];
    wddm_last_refusals(why, sizeof why);
    assert_non_null(strstr(why, "DeviceHandle"));
    q.DeviceHandle = seen.DeviceHandle;
    q.FeatureId = (DXGK_FEATURE_ID)7; /* reserved */
    assert_int_equal(seen.DxgkCbQueryFeatureSupport(&q), STATUS_INVALID_PARAMETER);
    q.FeatureId = (DXGK_FEATURE_ID)1000;
    assert_int_equal(seen.DxgkCbQueryFeatureSupport(&q), STATUS_INVALID_PARAMETER);
    q.FeatureId = DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD;
    q.DriverSupportState = 4;
    wddm_clear_refusals();
    assert_int_equal(seen.DxgkCbQueryFeatureSupport(&q), STATUS_INVALID_PARAMETER);
    wddm_last_refusals(why, sizeof why);
    assert_non_null(strstr(why, "DriverSupportState"));
    DXGKARGCB_ISFEATUREENABLED e = {.DeviceHandle = seen.DeviceHandle, .FeatureId = (DXGK_FEATURE_ID)-1};
    assert_int_equal(seen.DxgkCbIsFeatureEnabled(&e), STATUS_INVALID_PARAMETER);
    e.DeviceHandle = &e; /* not the adapter */
    e.FeatureId = DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD;
    /* Only a pointer the kernel gave is accepted; &e is readable memory whose first bytes are
     * not an adapter object header. */
    assert_int_equal(seen.DxgkCbIsFeatureEnabled(&e), STATUS_INVALID_PARAMETER);
}

static void expect_start_refused(const char *features, const char *must_name)
{
    setenv("WDDM_FEATURES", features, 1);
    wddm_clear_refusals();
    assert_false(NT_SUCCESS(start()));
    char why[1100];
    wddm_last_refusals(why, sizeof why);
    if (!strstr(why, must_name))
        fail_msg("WDDM_FEATURES=%s: the refusal does not name %s:\n%s", features, must_name, why);
}

/* rule: kernel.os-feature-set-adapter-fixed-before */
static void wddm_features_unknown_bad_or_unimplemented_entries_fail_the_start(void **state)
{
    (void)state;
    expect_start_refused("SHARE_BACKING_STORE=1", "SHARE_BACKING_STORE");
    expect_start_refused("SHARE_BACKING_STORE_WITH_KMD=2", "SHARE_BACKING_STORE_WITH_KMD=2");
    expect_start_refused("SHARE_BACKING_STORE_WITH_KMD", "SHARE_BACKING_STORE_WITH_KMD");
    expect_start_refused("HWSCH=1", "HWSCH");
    expect_start_refused("USER_MODE_SUBMISSION=1", "does not implement");
    /* Turning off what is already off is fine. */
    setenv("WDDM_FEATURES", "HWSCH=0", 1);
    assert_int_equal(start(), STATUS_SUCCESS);
}

/* Issue 14 §4 (docs/rules/common.md): the list is short printable text, applied all or nothing. */
/* rule: kernel.wddm-features-most-511-characters (at the start) */
static void wddm_features_must_be_short_printable_text(void **state)
{
    (void)state;
    char longlist[511 + 40]; /* WDDM_FEATURES holds at most 511 characters */
    size_t n = 0;
    while (n + 8 < sizeof longlist - 1)
        n += (size_t)snprintf(longlist + n, sizeof longlist - n, "HWSCH=0,");
    expect_start_refused(longlist, "longer than");
    expect_start_refused("SHARE_BACKING_STORE_WITH_KMD=0\x01", "byte 0x01");
    expect_start_refused("HWSCH=0,\tSHARE_BACKING_STORE_WITH_KMD=0", "byte 0x09");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(feature_ids_have_the_wdk_values),
        cmocka_unit_test_teardown(share_backing_store_is_enabled_by_default_and_unimplemented_features_are_not, stop),
        cmocka_unit_test_teardown(driver_support_always_off_never_enables_a_feature, stop),
        cmocka_unit_test_teardown(wddm_features_turns_a_feature_off_for_the_next_start, stop),
        cmocka_unit_test_teardown(invalid_feature_queries_are_refused, stop),
        cmocka_unit_test_teardown(wddm_features_unknown_bad_or_unimplemented_entries_fail_the_start, stop),
        cmocka_unit_test_teardown(wddm_features_must_be_short_printable_text, stop),
    };
    return cmocka_run_group_tests_name("e2e.features", tests, NULL, NULL);
}
