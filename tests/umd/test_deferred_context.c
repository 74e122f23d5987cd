/* The reference UMD's deferred-context side (seed 004, docs/semantics.md §4.5), driven directly
 * through its DDI tables with the fake runtime/kernel of umd_fake.h. */
/* rule: umd.umd-side-dc-protocol-double-poll (all tests) */
#include "umd/umd_fake.h"
#include "umd/umd.h"
#include "umd/deferred.h"

#include <wddm/wddm.h>

static HRESULT dc_errors[8];
static int n_dc_errors;
static VOID APIENTRY dc_SetErrorCb(D3D10DDI_HRTCORELAYER h, HRESULT hr)
{
    if (n_dc_errors < 8)
        dc_errors[n_dc_errors] = hr;
    n_dc_errors++;
}

struct dcx {
    void *mem;
    D3D10DDI_HDEVICE h;
    D3D11DDI_DEVICEFUNCS df;
    D3D11DDI_CORELAYER_DEVICECALLBACKS cb;
};

static void dc_create(struct fake *f, struct dcx *d)
{
    D3D11DDIARG_CALCPRIVATEDEFERREDCONTEXTSIZE cs = { 0 };
    d->mem = calloc(1, f->df.pfnCalcPrivateDeferredContextSize(f->hDevice, &cs));
    d->h.pDrvPrivate = d->mem;
    d->cb.pfnSetErrorCb = dc_SetErrorCb;
    D3D11DDIARG_CREATEDEFERREDCONTEXT a = { .p11ContextFuncs = &d->df,
                                            .hDrvContext = d->h, .hRTCoreLayer = { d }, .p11UMCallbacks = &d->cb };
    n_dc_errors = 0;
    f->df.pfnCreateDeferredContext(f->hDevice, &a);
}

static void dc_destroy(struct dcx *d)
{
    d->df.pfnDestroyDevice(d->h);
    free(d->mem);
}

static int setup(void **state)
{
    unsetenv("WDDM_UMD_NO_COMMANDLISTS");
    *state = fake_setup();
    return 0;
}
static int teardown(void **state)
{
    fake_teardown(*state);
    return 0;
}

/* seed 004 "Driver Data Organization": the read-only block sits after the IC handle data,
 * inside the memory CalcPrivateResourceSize asked for, starting on a new cache line, and holds
 * the resource's layout. */
/* rule: umd.umd-data-organisation-dc-resource-handle */
static void test_readonly_block_follows_ic_data_on_its_own_cache_line(void **state)
{
    struct fake *f = *state;
    struct fake_res *r = fake_tex2d(f, D3D10_DDI_USAGE_DEFAULT, DXGI_FORMAT_R8G8B8A8_UNORM, 33, 17, 3, 2, 0);
    struct umd_resource *res = r->h.pDrvPrivate;
    const struct umd_resource_ro *ro = umd_resource_ro(res);
    uintptr_t ic_end = (uintptr_t)res + sizeof *res + res->subresource_count * sizeof(struct umd_subresource);
    uintptr_t mem_end = (uintptr_t)res + f->df.pfnCalcPrivateResourceSize(f->hDevice, &r->args);
    assert_true((uintptr_t)ro >= ic_end);
    assert_true((uintptr_t)(ro->sub + ro->subresource_count) <= mem_end);
#ifndef WDDM_UMD_NO_PADDING
    assert_int_equal((uintptr_t)ro % 64, 0);
    assert_true((uintptr_t)ro / 64 > (ic_end - 1) / 64); /* no line shared with the IC data */
#endif
    assert_int_equal(ro->subresource_count, 6);
    assert_int_equal(ro->format, DXGI_FORMAT_R8G8B8A8_UNORM);
    assert_memory_equal(ro->sub, res->sub, 6 * sizeof(struct umd_subresource));
    fake_res_destroy(f, r);
}

/* CheckDeferredContextHandleSizes answers the count, then the array; every size
 * CalcDeferredContextHandleSize returns is in it (seed 004). */
static void test_handle_sizes_double_poll_lists_every_calc_answer(void **state)
{
    struct fake *f = *state;
    UINT n = 0;
    f->df.pfnCheckDeferredContextHandleSizes(f->hDevice, &n, NULL);
    assert_true(n >= 2);
    D3D11DDI_HANDLESIZE sizes[16];
    f->df.pfnCheckDeferredContextHandleSizes(f->hDevice, &n, sizes);
    struct fake_res *r = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 64, 0, NULL);
    SIZE_T s = f->df.pfnCalcDeferredContextHandleSize(f->hDevice, D3D10DDI_HT_RESOURCE, r->h.pDrvPrivate);
    BOOL found = FALSE;
    for (UINT i = 0; i < n; i++)
        found |= sizes[i].HandleType == D3D10DDI_HT_RESOURCE && sizes[i].DriverPrivateSize == s;
    assert_true(found);
    fake_res_destroy(f, r);
}

/* docs/semantics.md §4.5 rule 3: a DC's tables leave the immediate-only slots NULL. */
/* rule: d3d10.one-table-context-immediate-context */
static void test_deferred_tables_exclude_immediate_only_slots(void **state)
{
    struct fake *f = *state;
    struct dcx d;
    dc_create(f, &d);
    assert_int_equal(n_dc_errors, 0);
    assert_null(d.df.pfnFlush);
    assert_null(d.df.pfnResourceMap);
    assert_null(d.df.pfnResourceUnmap);
    assert_null(d.df.pfnStagingResourceMap);
    assert_null(d.df.pfnResourceIsStagingBusy);
    assert_null(d.df.pfnCalcPrivateResourceSize);
    assert_null(d.df.pfnCheckDeferredContextHandleSizes);
    assert_null(d.df.pfnCalcDeferredContextHandleSize);
    assert_null(d.df.pfnCreateDeferredContext);
    assert_null(d.df.pfnCalcPrivateCommandListSize);
    assert_non_null(d.df.pfnDynamicIABufferMapDiscard);
    assert_non_null(d.df.pfnResourceCopy);
    assert_non_null(d.df.pfnCreateCommandList);
    assert_non_null(d.df.pfnAbandonCommandList);
    dc_destroy(&d);
}

/* seed 004: a DC's CreateResource takes a NULL description and the IC handle; anything else
 * is refused through the DC's own pfnSetErrorCb (not the device's). */
static void test_deferred_create_resource_needs_null_description_and_reports_to_the_dc(void **state)
{
    struct fake *f = *state;
    struct fake_res *r = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 64, 0, NULL);
    struct dcx d;
    dc_create(f, &d);
    SIZE_T s = f->df.pfnCalcDeferredContextHandleSize(f->hDevice, D3D10DDI_HT_RESOURCE, r->h.pDrvPrivate);
    void *m = calloc(1, s);
    D3D10DDI_HRESOURCE h = { m };
    D3D10DDI_HRTRESOURCE ic = { r->h.pDrvPrivate };
    int dev_errors = f->n_errors;
    d.df.pfnCreateResource(d.h, NULL, h, ic);
    assert_int_equal(n_dc_errors, 0);
    d.df.pfnDestroyResource(d.h, h);
    d.df.pfnCreateResource(d.h, &r->args, h, ic);
    assert_int_equal(n_dc_errors, 1);
    assert_int_equal(dc_errors[0], E_INVALIDARG);
    assert_int_equal(f->n_errors, dev_errors);
    free(m);
    dc_destroy(&d);
    fake_res_destroy(f, r);
}

/* seed 004 "Issues with pfnSetErrorCb": a deferred context whose recording runs out of memory
 * reports E_OUTOFMEMORY through its own pfnSetErrorCb and records nothing; its next call records
 * again. The DC's first recorded op allocates its op buffer: that allocation is made to fail
 * (wddm_test_fail_alloc_after). */
/* rule: runtime.errors-dc-ddis-go-dc-own (the op buffer's allocation fails: `wddm_test_fail_alloc_after`) */
static void test_a_recording_out_of_memory_is_reported_on_the_dc(void **state)
{
    struct fake *f = *state;
    struct fake_res *a = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 64, 0, NULL);
    struct fake_res *b = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 64, 0, NULL);
    struct dcx d;
    dc_create(f, &d);
    SIZE_T s = f->df.pfnCalcDeferredContextHandleSize(f->hDevice, D3D10DDI_HT_RESOURCE, a->h.pDrvPrivate);
    void *ma = calloc(1, s), *mb = calloc(1, s);
    D3D10DDI_HRESOURCE ha = { ma }, hb = { mb };
    d.df.pfnCreateResource(d.h, NULL, ha, (D3D10DDI_HRTRESOURCE){ a->h.pDrvPrivate });
    d.df.pfnCreateResource(d.h, NULL, hb, (D3D10DDI_HRTRESOURCE){ b->h.pDrvPrivate });
    wddm_test_fail_alloc_after(0);
    d.df.pfnResourceCopy(d.h, ha, hb);
    assert_int_equal(wddm_test_alloc_failures_injected(), 1);
    wddm_test_fail_alloc_after(-1);
    assert_int_equal(n_dc_errors, 1);
    assert_int_equal(dc_errors[0], E_OUTOFMEMORY);
    d.df.pfnResourceCopy(d.h, ha, hb);
    assert_int_equal(n_dc_errors, 1);
    d.df.pfnAbandonCommandList(d.h);
    d.df.pfnDestroyResource(d.h, ha);
    d.df.pfnDestroyResource(d.h, hb);
    free(ma);
    free(mb);
    dc_destroy(&d);
    fake_res_destroy(f, a);
    fake_res_destroy(f, b);
}

/* The switch is the environment's: WDDM_UMD_NO_COMMANDLISTS=1 turns command lists off (the
 * runtime then emulates them), anything else leaves them on. */
static void test_command_list_switch_reads_environment(void **state)
{
    (void)state;
    setenv("WDDM_UMD_NO_COMMANDLISTS", "1", 1);
    assert_int_equal(wddm_umd_command_lists_enabled(), 0);
    setenv("WDDM_UMD_NO_COMMANDLISTS", "0", 1);
    assert_int_equal(wddm_umd_command_lists_enabled(), 1);
    unsetenv("WDDM_UMD_NO_COMMANDLISTS");
    assert_int_equal(wddm_umd_command_lists_enabled(), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_readonly_block_follows_ic_data_on_its_own_cache_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_handle_sizes_double_poll_lists_every_calc_answer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_deferred_tables_exclude_immediate_only_slots, setup, teardown),
        cmocka_unit_test_setup_teardown(test_deferred_create_resource_needs_null_description_and_reports_to_the_dc,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_recording_out_of_memory_is_reported_on_the_dc, setup, teardown),
        cmocka_unit_test(test_command_list_switch_reads_environment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
