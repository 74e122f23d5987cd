/* Adapters by LUID through the real kernel and KMD: D3DKMTEnumAdapters2 counts and opens,
 * D3DKMTOpenAdapterFromLuid opens the same adapter again (LUIDs stay valid across restarts of
 * the adapter list), an unknown LUID or a closed handle is STATUS_INVALID_PARAMETER. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include <wddm/d3dkmthk.h>

static void enum_adapters2_counts_then_opens(void **state)
{
    D3DKMT_ENUMADAPTERS2 e = {.NumAdapters = 0, .pAdapters = NULL};
    assert_int_equal(D3DKMTEnumAdapters2(&e), STATUS_SUCCESS);
    assert_true(e.NumAdapters >= 1);
    D3DKMT_ADAPTERINFO ai[4];
    e = (D3DKMT_ENUMADAPTERS2){.NumAdapters = 4, .pAdapters = ai};
    assert_int_equal(D3DKMTEnumAdapters2(&e), STATUS_SUCCESS);
    for (ULONG i = 0; i < e.NumAdapters; i++) {
        D3DKMT_CLOSEADAPTER c = {.hAdapter = ai[i].hAdapter};
        assert_int_equal(D3DKMTCloseAdapter(&c), STATUS_SUCCESS);
        /* A closed handle is stale: refused, not a use-after-free. */
        assert_int_equal(D3DKMTCloseAdapter(&c), STATUS_INVALID_PARAMETER);
    }
}

/* rule: kernel.d3dkmtopenadapterfromluid-opens (also after the adapter stopped and restarted) */
/* rule: kernel.adapter-luids-0x1000-index-stable-across (the first adapter's LUID is 0x1000; it opens the adapter again after a restart) */
static void open_adapter_from_luid_opens_the_enumerated_adapter(void **state)
{
    D3DKMT_ADAPTERINFO ai[4];
    D3DKMT_ENUMADAPTERS2 e = {.NumAdapters = 4, .pAdapters = ai};
    assert_int_equal(D3DKMTEnumAdapters2(&e), STATUS_SUCCESS);
    LUID luid = ai[0].AdapterLuid;
    /* Our choice (docs/rules/kernel.md): LUIDs are 0x1000 + the adapter's index, stable. */
    assert_int_equal(luid.LowPart, 0x1000);
    assert_int_equal(luid.HighPart, 0);
    D3DKMT_OPENADAPTERFROMLUID o = {.AdapterLuid = luid};
    assert_int_equal(D3DKMTOpenAdapterFromLuid(&o), STATUS_SUCCESS);
    assert_int_not_equal(o.hAdapter, 0);
    assert_int_not_equal(o.hAdapter, ai[0].hAdapter); /* a second handle to the same adapter */
    D3DKMT_SEGMENTSIZEINFO seg;
    D3DKMT_QUERYADAPTERINFO q = {.hAdapter = o.hAdapter, .Type = KMTQAITYPE_GETSEGMENTSIZE,
                                 .pPrivateDriverData = &seg, .PrivateDriverDataSize = sizeof seg};
    assert_int_equal(D3DKMTQueryAdapterInfo(&q), STATUS_SUCCESS);
    assert_true(seg.DedicatedVideoMemorySize > 0);
    for (ULONG i = 0; i < e.NumAdapters; i++) {
        D3DKMT_CLOSEADAPTER c = {.hAdapter = ai[i].hAdapter};
        assert_int_equal(D3DKMTCloseAdapter(&c), STATUS_SUCCESS);
    }
    D3DKMT_CLOSEADAPTER c = {.hAdapter = o.hAdapter};
    assert_int_equal(D3DKMTCloseAdapter(&c), STATUS_SUCCESS);

    /* Every handle closed: the adapter stopped. The same LUID still opens it (restarted). */
    o = (D3DKMT_OPENADAPTERFROMLUID){.AdapterLuid = luid};
    assert_int_equal(D3DKMTOpenAdapterFromLuid(&o), STATUS_SUCCESS);
    c.hAdapter = o.hAdapter;
    assert_int_equal(D3DKMTCloseAdapter(&c), STATUS_SUCCESS);
}

/* rule: kernel.d3dkmtopenadapterfromluid-opens */
static void open_adapter_from_unknown_luid_is_invalid_parameter(void **state)
{
    D3DKMT_OPENADAPTERFROMLUID o = {.AdapterLuid = {.LowPart = 0xdead, .HighPart = 7}};
    assert_int_equal(D3DKMTOpenAdapterFromLuid(&o), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTOpenAdapterFromLuid(NULL), STATUS_INVALID_PARAMETER);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(enum_adapters2_counts_then_opens),
        cmocka_unit_test(open_adapter_from_luid_opens_the_enumerated_adapter),
        cmocka_unit_test(open_adapter_from_unknown_luid_is_invalid_parameter),
    };
    return cmocka_run_group_tests_name("e2e.adapter_luid", tests, NULL, NULL);
}
