/* Issue 6, DXGK_VIDMMCAPS validation at adapter start (seed 003): a caps file named by
 * WDDM_KMD_CAPS changes what the reference KMD reports; every combination the documentation
 * forbids makes the start fail with a message naming the members involved, and then both
 * D3DKMTEnumAdapters2 and D3D11CreateDevice fail; a valid file starts, and the kernel sees
 * exactly what the file says. */
/* rule: kernel.failed-start-makes-d3dkmtenumadapters2 (every case asserts both failures and the message) */
/* rule: common.reason-failure-readable-caller-wddm-last (asserts the member names in it) */
#include "e2e/e2e.h"

#include <unistd.h>

#include <wddm/d3dkmddi.h>
#include <wddm/d3dkmthk.h>
#include <wddm/wddm.h>

static char path[64];

static void use_caps(const char *text)
{
    snprintf(path, sizeof path, "/tmp/wddm-kmdcaps-%d.txt", (int)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    setenv("WDDM_KMD_CAPS", path, 1);
}

static int no_caps(void **state)
{
    unsetenv("WDDM_KMD_CAPS");
    if (path[0])
        unlink(path);
    return 0;
}

/* The start must fail, both at the thunk and at the API, and say why with every name in
 * `must_name` (separated by '|'). */
static void expect_refused(const char *caps, const char *must_name)
{
    use_caps(caps);
    wddm_clear_refusals();
    D3DKMT_ADAPTERINFO ai[2];
    D3DKMT_ENUMADAPTERS2 e = {.NumAdapters = 2, .pAdapters = ai};
    NTSTATUS st = D3DKMTEnumAdapters2(&e);
    if (NT_SUCCESS(st))
        fail_msg("adapter started with:\n%s", caps);
    char why[1100];
    wddm_last_refusals(why, sizeof why);
    char names[256];
    snprintf(names, sizeof names, "%s", must_name);
    for (char *n = strtok(names, "|"); n; n = strtok(NULL, "|"))
        if (!strstr(why, n))
            fail_msg("the refusal does not name %s:\n%s", n, why);
    ID3D11Device *dev = NULL;
    HRESULT hr = D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev, NULL, NULL);
    assert_true(FAILED(hr));
    assert_null(dev);
}

/* rule: kernel.validation-adapter-start-failing-start */
/* rule: kernel.paravirtualizationsupported-only-when */
static void seed003_forbidden_vidmmcaps_combinations_fail_the_start(void **state)
{
    expect_refused("DXGK_VIDMMCAPS.GpuMmuSupported = 1\nDXGK_VIDMMCAPS.IoMmuSupported = 1\n",
                   "DXGK_VIDMMCAPS.GpuMmuSupported|DXGK_VIDMMCAPS.IoMmuSupported");
    expect_refused("DXGK_VIDMMCAPS.VirtualAddressingSupported = 1\n",
                   "DXGK_VIDMMCAPS.VirtualAddressingSupported|GpuMmuSupported|IoMmuSupported");
    /* The reference KMD declares tier 1 by default (issue 6): turned off here. */
    expect_refused("DXGK_VIDMMCAPS.CrossAdapterResource = 0\nDXGK_VIDMMCAPS.CrossAdapterResourceTexture = 1\n",
                   "DXGK_VIDMMCAPS.CrossAdapterResourceTexture|DXGK_VIDMMCAPS.CrossAdapterResource ");
    expect_refused("DXGK_VIDMMCAPS.CrossAdapterResource = 1\nDXGK_VIDMMCAPS.CrossAdapterResourceScanout = 1\n",
                   "DXGK_VIDMMCAPS.CrossAdapterResourceScanout|DXGK_VIDMMCAPS.CrossAdapterResourceTexture");
    expect_refused("DXGK_VIDMMCAPS.IoMmuSecureModeRequired = 1\n",
                   "DXGK_VIDMMCAPS.IoMmuSecureModeRequired|DXGK_VIDMMCAPS.IoMmuSecureModeSupported");
    /* Required and supported starts, isolated: dxgkrnl.test_iommu_isolation. */
    expect_refused("DXGK_VIDMMCAPS.DedicatedPagingEngine = 1\n", "DXGK_VIDMMCAPS.DedicatedPagingEngine");
    expect_refused("DXGK_VIDMMCAPS.PagingEngineCanSwizzle = 1\n", "DXGK_VIDMMCAPS.PagingEngineCanSwizzle");
    expect_refused("DXGK_VIDMMCAPS.Reserved = 1\n", "DXGK_VIDMMCAPS.Reserved");
    expect_refused("DXGK_VIDMMCAPS.ParavirtualizationSupported = 1\n", "DXGK_VIDMMCAPS.ParavirtualizationSupported");
}

/* rule: kernel.dxgk-vidschcaps-preemptionaware-needs */
static void forbidden_vidschcaps_combinations_fail_the_start(void **state)
{
    /* docs/semantics.md §6.2 */
    expect_refused("DXGK_VIDSCHCAPS.MultiEngineAware = 0\nDXGK_VIDSCHCAPS.PreemptionAware = 1\n",
                   "DXGK_VIDSCHCAPS.PreemptionAware|DXGK_VIDSCHCAPS.MultiEngineAware");
    /* The reference KMD is PreemptionAware by default (issue 4): turn it off to see the rule. */
    expect_refused("DXGK_VIDSCHCAPS.PreemptionAware = 0\nDXGK_VIDSCHCAPS.NoDmaPatching = 1\n",
                   "DXGK_VIDSCHCAPS.NoDmaPatching");
    expect_refused("DXGK_VIDSCHCAPS.MultiEngineAware = 0\nDXGK_VIDSCHCAPS.PreemptionAware = 0\n"
                   "DXGK_VIDSCHCAPS.CancelCommandAware = 1\n",
                   "DXGK_VIDSCHCAPS.CancelCommandAware");
    expect_refused("DXGK_VIDSCHCAPS.Reserved = 1\n", "DXGK_VIDSCHCAPS.Reserved");
}

/* rule: common.unknown-names-values-not-numbers-not */
static void caps_file_with_an_unknown_name_fails_the_start_naming_the_line(void **state)
{
    expect_refused("DXGK_VIDMMCAPS.OutOfOrderLock = 1\nDXGK_VIDMMCAPS.OutOfOrderLocks = 1\n",
                   ":2:|DXGK_VIDMMCAPS.OutOfOrderLocks");
}

/* rule: common.file-such-lines-named-wddm-kmd */
static void valid_caps_file_starts_and_the_kernel_sees_it(void **state)
{
    use_caps("DXGK_VIDMMCAPS.OutOfOrderLock = 1\nDXGK_VIDMMCAPS.CrossAdapterResource = 1\n"
             "DXGK_DRIVERCAPS.MaxAllocationListSlotId = 512\n");
    D3DKMT_ADAPTERINFO ai[2];
    D3DKMT_ENUMADAPTERS2 e = {.NumAdapters = 2, .pAdapters = ai};
    assert_int_equal(D3DKMTEnumAdapters2(&e), STATUS_SUCCESS);
    assert_true(e.NumAdapters >= 1);
    DXGK_DRIVERCAPS caps;
    D3DKMT_QUERYADAPTERINFO q = {.hAdapter = ai[0].hAdapter, .Type = KMTQAITYPE_WDDM_DRIVERCAPS,
                                 .pPrivateDriverData = &caps, .PrivateDriverDataSize = sizeof caps};
    assert_int_equal(D3DKMTQueryAdapterInfo(&q), STATUS_SUCCESS);
    assert_int_equal(caps.MemoryManagementCaps.Value, 0x11);
    assert_int_equal(caps.MaxAllocationListSlotId, 512);
    for (ULONG i = 0; i < e.NumAdapters; i++) {
        D3DKMT_CLOSEADAPTER c = {.hAdapter = ai[i].hAdapter};
        assert_int_equal(D3DKMTCloseAdapter(&c), STATUS_SUCCESS);
    }
    /* Without the file the defaults come back at the next start, and a device works. */
    no_caps(state);
    ID3D11Device *dev = NULL;
    ID3D11DeviceContext *ctx = NULL;
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev,
                                       NULL, &ctx),
                     S_OK);
    SAFE_RELEASE(ctx);
    SAFE_RELEASE(dev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(seed003_forbidden_vidmmcaps_combinations_fail_the_start, no_caps),
        cmocka_unit_test_teardown(forbidden_vidschcaps_combinations_fail_the_start, no_caps),
        cmocka_unit_test_teardown(caps_file_with_an_unknown_name_fails_the_start_naming_the_line, no_caps),
        cmocka_unit_test_teardown(valid_caps_file_starts_and_the_kernel_sees_it, no_caps),
    };
    return cmocka_run_group_tests_name("e2e.caps_start", tests, NULL, NULL);
}
