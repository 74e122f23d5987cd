/* The OS feature set's text (dxgkrnl/feature.c dxgk_features_parse, the parser WDDM_FEATURES goes
 * through at an adapter's start; e2e.test_features holds the start's side): a NUL inside the
 * given length is refused, not taken for the end, and a list with one bad entry applies none. */
#include "real_env.h"

#include "dxgkrnl/objects/objects.h"

/* rule: kernel.wddm-features-most-511-characters (the parser) */
static void a_nul_or_one_bad_entry_refuses_the_whole_list(void **state)
{
    (void)state;
    /* In memory a NUL can hide the rest of the list from string functions. */
    UINT64 set = dxgk_features_default(), before = set;
    static const char nul[] = "SHARE_BACKING_STORE_WITH_KMD=0\0HWSCH=1";
    wddm_clear_refusals();
    assert_int_equal(dxgk_features_parse(nul, sizeof nul - 1, &set), STATUS_INVALID_PARAMETER);
    char why[1100];
    wddm_last_refusals(why, sizeof why);
    assert_non_null(strstr(why, "byte 0x00"));
    assert_true(set == before);
    /* A good entry before a bad one is not applied either. */
    static const char half[] = "SHARE_BACKING_STORE_WITH_KMD=0,NO_SUCH_FEATURE=1";
    assert_int_equal(dxgk_features_parse(half, sizeof half - 1, &set), STATUS_INVALID_PARAMETER);
    assert_true(set == before);
    assert_int_equal(dxgk_features_parse(half, 30, &set), STATUS_SUCCESS);
    assert_true(set == (before & ~(1ull << DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_nul_or_one_bad_entry_refuses_the_whole_list),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
