/* The verifier's reports (issue 19 §3, docs/drivers.md "The verifier"): a start-time check names
 * each missing mandatory DDI by name; every report carries the check's id and the DDI whose
 * answer it read; violations are counted by rule and driver (the in-process KMD here, named by
 * its symbol or address), and a feature this kernel lacks is counted apart, not as a violation. */
#include "real_env.h"

#include "kmd/kmd.h"

enum breakage { NO_PATCH_NO_PAGING, PREEMPTION_WITHOUT_DDI, PARAVIRTUALIZATION };
static enum breakage breakage;
static PDXGKDDI_QUERYADAPTERINFO real_query;

static NTSTATUS APIENTRY wrap_query(const HANDLE a, const DXGKARG_QUERYADAPTERINFO *q)
{
    NTSTATUS st = real_query(a, q);
    if (NT_SUCCESS(st) && q->Type == DXGKQAITYPE_DRIVERCAPS) {
        DXGK_DRIVERCAPS *c = q->pOutputData;
        if (breakage == PARAVIRTUALIZATION)
            c->MemoryManagementCaps.ParavirtualizationSupported = 1;
        if (breakage == PREEMPTION_WITHOUT_DDI) {
            c->SchedulingCaps.MultiEngineAware = 1;
            c->SchedulingCaps.PreemptionAware = 1;
        }
    }
    return st;
}

static NTSTATUS broken_entry(PDRIVER_OBJECT drv, PVOID reg)
{
    DRIVER_INITIALIZATION_DATA d;
    SwKmdGetDriverInitializationData(&d);
    real_query = d.DxgkDdiQueryAdapterInfo;
    d.DxgkDdiQueryAdapterInfo = wrap_query;
    if (breakage == NO_PATCH_NO_PAGING) {
        d.DxgkDdiPatch = NULL;
        d.DxgkDdiBuildPagingBuffer = NULL;
    }
    if (breakage == PREEMPTION_WITHOUT_DDI)
        d.DxgkDdiPreemptCommand = NULL;
    return DxgkInitialize(drv, reg, &d);
}

static void start_refused(enum breakage b, char *why, size_t size)
{
    breakage = b;
    wddm_set_kmd_entry(broken_entry);
    wddm_clear_refusals();
    D3DKMT_ADAPTERINFO info[4];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
    assert_false(NT_SUCCESS(D3DKMTEnumAdapters2(&en)));
    wddm_last_refusals(why, size);
}

static void expect(const char *text, const char *needle)
{
    if (!strstr(text, needle))
        fail_msg("\"%s\" is not in:\n%s", needle, text);
}

static int teardown(void **state)
{
    (void)state;
    wddm_set_kmd_entry(NULL);
    return 0;
}

/* The start-time check names every missing mandatory DDI, with the check's id and the DDI whose
 * answer it read (DRIVER_INITIALIZATION_DATA through DxgkInitialize). */
/* rule: kernel.every-check-kmd-answers-id-failed */
/* rule: kernel.start-time-checks-name-each-missing (mutation-checked: naming no DDI fails it) */
static void a_missing_mandatory_ddi_is_named(void **state)
{
    (void)state;
    UINT64 before = wddm_verifier_violations("Init.MandatoryDdi"), all = wddm_verifier_violations(NULL);
    char why[1100];
    start_refused(NO_PATCH_NO_PAGING, why, sizeof why);
    expect(why, "verifier Init.MandatoryDdi: DxgkInitialize: DRIVER_INITIALIZATION_DATA lacks DxgkDdiPatch, "
                "DxgkDdiBuildPagingBuffer");
    assert_int_equal(wddm_verifier_violations("Init.MandatoryDdi"), before + 1);
    assert_int_equal(wddm_verifier_violations(NULL), all + 1);
}

/* What a cap promises, a DDI must do: PreemptionAware without DxgkDdiPreemptCommand is named. */
/* rule: kernel.every-check-kmd-answers-id-failed */
/* rule: kernel.start-time-checks-name-each-missing */
static void a_cap_without_its_ddi_is_named(void **state)
{
    (void)state;
    UINT64 before = wddm_verifier_violations("Caps.PreemptionDdi");
    char why[1100];
    start_refused(PREEMPTION_WITHOUT_DDI, why, sizeof why);
    expect(why, "verifier Caps.PreemptionDdi: DxgkDdiQueryAdapterInfo(DXGKQAITYPE_DRIVERCAPS): "
                "DXGK_VIDSCHCAPS.PreemptionAware is set but DRIVER_INITIALIZATION_DATA lacks DxgkDdiPreemptCommand");
    assert_int_equal(wddm_verifier_violations("Caps.PreemptionDdi"), before + 1);
}

/* GPU paravirtualization is valid WDDM that this kernel lacks (none of its DDIs): refused as
 * unsupported, counted under its id but not among the driver's violations. */
/* rule: kernel.violations-counted-rule-driver-check (mutation-checked: counting limits as violations fails it) */
static void a_feature_the_kernel_lacks_is_not_a_violation(void **state)
{
    (void)state;
    UINT64 before = wddm_verifier_violations("Caps.Paravirtualization"), all = wddm_verifier_violations(NULL);
    char why[1100];
    start_refused(PARAVIRTUALIZATION, why, sizeof why);
    expect(why, "verifier Caps.Paravirtualization (not supported by this kernel): "
                "DxgkDdiQueryAdapterInfo(DXGKQAITYPE_DRIVERCAPS): DXGK_VIDMMCAPS.ParavirtualizationSupported");
    assert_int_equal(wddm_verifier_violations("Caps.Paravirtualization"), before + 1);
    assert_int_equal(wddm_verifier_violations(NULL), all);
}

/* The summary lists each rule with its count and the driver: this in-process entry, which the
 * dynamic linker places in this test program. */
/* rule: kernel.violations-counted-rule-driver-check */
static void the_summary_names_rule_count_and_driver(void **state)
{
    (void)state;
    char why[1100];
    start_refused(NO_PATCH_NO_PAGING, why, sizeof why);
    char summary[8192];
    size_t n = wddm_verifier_summary(summary, sizeof summary);
    assert_true(n > 0 && n < sizeof summary);
    expect(summary, "wddm verifier: ");
    const char *row = strstr(summary, "Init.MandatoryDdi");
    assert_non_null(row);
    unsigned long long count = 0;
    assert_int_equal(sscanf(row, "Init.MandatoryDdi %llu", &count), 1);
    assert_int_equal(count, wddm_verifier_violations("Init.MandatoryDdi"));
    expect(row, "dxgkrnl_test_verifier_reports"); /* the file holding the in-process entry */
    expect(summary, "Caps.Paravirtualization");
    expect(strstr(summary, "Caps.Paravirtualization"), "(unsupported)");
}

int main(void)
{
    unsetenv("WDDM_KMD_CAPS");
    unsetenv("WDDM_VERIFIER"); /* counted and refused, not printed or broken on */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(a_missing_mandatory_ddi_is_named, teardown),
        cmocka_unit_test_teardown(a_cap_without_its_ddi_is_named, teardown),
        cmocka_unit_test_teardown(a_feature_the_kernel_lacks_is_not_a_violation, teardown),
        cmocka_unit_test_teardown(the_summary_names_rule_count_and_driver, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
