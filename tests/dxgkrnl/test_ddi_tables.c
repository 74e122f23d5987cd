/* The kernel's interface tables in the WDK's layout (issue 19 §2, docs/drivers.md "The interface
 * tables"): DRIVER_INITIALIZATION_DATA and DXGKRNL_INTERFACE hold every documented member in the
 * documented order (Microsoft's _DRIVER_INITIALIZATION_DATA and _DXGKRNL_INTERFACE reference pages,
 * dispmprt.h); a DDI the kernel never calls may be registered and is listed by the verifier
 * (Init.NotModeledDdi); a callback the kernel does not model answers "not supported" for its kind
 * of result, never crashes, and is reported (Callback.NotModeled). */
#include "real_env.h"

#include <stddef.h>

#include "kmd/kmd.h"

/* Members at the places the documentation's order gives them: Version (padded to a pointer),
 * then one pointer each. Anchors across the table catch a member added, lost or moved. */
/* rule: runtime.driver-initialization-data-dxgkrnl */
static void driver_initialization_data_is_in_the_wdk_order(void **state)
{
    (void)state;
    const size_t p = sizeof(void *);
    assert_int_equal(offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiAddDevice), 1 * p);
    assert_int_equal(offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDispatchIoRequest), 5 * p);
    assert_int_equal(offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryAdapterInfo), 17 * p);
    assert_int_equal(offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiPatch), 25 * p);
    assert_int_equal(offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyDevice), 50 * p);
    assert_int_equal(offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateContext), 58 * p);
    assert_int_equal(offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiRenderKm), 68 * p);
    assert_int_equal(offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryDependentEngineGroup), 72 * p);
    assert_int_equal(offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSubmitCommandVirtual), 90 * p);
    assert_int_equal(offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateProcess), 96 * p);
    assert_int_equal(offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetTrackedWorkloadPowerLevel), 148 * p);
    assert_int_equal(sizeof(DRIVER_INITIALIZATION_DATA), 150 * p);
}

/* rule: runtime.driver-initialization-data-dxgkrnl */
static void dxgkrnl_interface_is_in_the_wdk_order(void **state)
{
    (void)state;
    const size_t p = sizeof(void *);
    assert_int_equal(offsetof(DXGKRNL_INTERFACE, DeviceHandle), 8);
    assert_int_equal(offsetof(DXGKRNL_INTERFACE, DxgkCbEvalAcpiMethod), 8 + 1 * p);
    assert_int_equal(offsetof(DXGKRNL_INTERFACE, DxgkCbQueueDpc), 8 + 5 * p);
    assert_int_equal(offsetof(DXGKRNL_INTERFACE, DxgkCbSynchronizeExecution), 8 + 8 * p);
    assert_int_equal(offsetof(DXGKRNL_INTERFACE, DxgkCbGetHandleData), 8 + 12 * p);
    assert_int_equal(offsetof(DXGKRNL_INTERFACE, DxgkCbNotifyInterrupt), 8 + 15 * p);
    assert_int_equal(offsetof(DXGKRNL_INTERFACE, DxgkCbCreateContextAllocation), 8 + 22 * p);
    assert_int_equal(offsetof(DXGKRNL_INTERFACE, DxgkCbMapContextAllocation), 8 + 32 * p);
    assert_int_equal(offsetof(DXGKRNL_INTERFACE, DxgkCbSignalEvent), 8 + 56 * p);
    assert_int_equal(offsetof(DXGKRNL_INTERFACE, DxgkCbIsFeatureEnabled), 8 + 57 * p);
}

/* ---- a KMD that registers unmodeled DDIs and calls unmodeled callbacks --------------------- */

static PDXGKDDI_START_DEVICE real_start;
static struct {
    NTSTATUS acpi, services, connector;
    PVOID handle_data;
    D3DKMT_HANDLE parent;
    D3DGPU_VIRTUAL_ADDRESS va;
    int called;
    bool no_calls; /* start without calling the unmodeled callbacks */
} seen;

/* DDIs the kernel never calls, declared as a Windows KMD declares them: with the WDK's function
 * type (d3dkmddi_unmodeled.h), then defined with the documented parameters. */
static DXGKDDI_SETPALETTE set_palette;
static DXGKDDI_PRESENT present;
static DXGKDDI_QUERY_CHILD_RELATIONS query_child_relations;
static DXGKDDI_CONTROLINTERRUPT2 control_interrupt2;
/* A DDI the kernel calls, declared the same way: DXGKDDI_X is the function type, PDXGKDDI_X
 * the pointer (the slot's type). */
static DXGKDDI_BUILDPAGINGBUFFER build_paging;
static PDXGKDDI_BUILDPAGINGBUFFER real_build_paging;

static NTSTATUS APIENTRY build_paging(const HANDLE a, DXGKARG_BUILDPAGINGBUFFER *args)
{
    return real_build_paging(a, args);
}

static NTSTATUS APIENTRY set_palette(const HANDLE a, const DXGKARG_SETPALETTE *args)
{
    (void)a;
    (void)args;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY present(const HANDLE context, DXGKARG_PRESENT *args)
{
    (void)context;
    (void)args;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY query_child_relations(const PVOID ctx, DXGK_CHILD_DESCRIPTOR *children, ULONG size)
{
    (void)ctx;
    (void)children;
    (void)size;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY control_interrupt2(const HANDLE a, const DXGKARG_CONTROLINTERRUPT2 control)
{
    (void)a;
    (void)control;
    return STATUS_SUCCESS;
}

/* Each slot has its DDI's type, not a plain pointer: the functions above have exactly the slots'
 * types (so they assign without a cast), and a function of another shape does not. */
#define SLOT_TYPE(table, member) __typeof__(((table *)0)->member)
_Static_assert(__builtin_types_compatible_p(__typeof__(&set_palette),
                                            SLOT_TYPE(DRIVER_INITIALIZATION_DATA, DxgkDdiSetPalette)),
               "DxgkDdiSetPalette has the DXGKDDI_SETPALETTE type");
_Static_assert(__builtin_types_compatible_p(__typeof__(&present), SLOT_TYPE(DRIVER_INITIALIZATION_DATA, DxgkDdiPresent)),
               "DxgkDdiPresent has the DXGKDDI_PRESENT type");
_Static_assert(__builtin_types_compatible_p(__typeof__(&query_child_relations),
                                            SLOT_TYPE(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryChildRelations)),
               "DxgkDdiQueryChildRelations has the DXGKDDI_QUERY_CHILD_RELATIONS type");
_Static_assert(__builtin_types_compatible_p(__typeof__(&control_interrupt2),
                                            SLOT_TYPE(DRIVER_INITIALIZATION_DATA, DxgkDdiControlInterrupt2)),
               "DxgkDdiControlInterrupt2 takes its argument structure by value");
_Static_assert(__builtin_types_compatible_p(__typeof__(&build_paging),
                                            SLOT_TYPE(DRIVER_INITIALIZATION_DATA, DxgkDdiBuildPagingBuffer)),
               "DxgkDdiBuildPagingBuffer is a PDXGKDDI_BUILDPAGINGBUFFER");
_Static_assert(!__builtin_types_compatible_p(SLOT_TYPE(DRIVER_INITIALIZATION_DATA, DxgkDdiSetPalette), PVOID),
               "an unmodeled DDI slot is no longer a plain pointer");
_Static_assert(!__builtin_types_compatible_p(NTSTATUS(APIENTRY *)(const HANDLE, const void *),
                                             SLOT_TYPE(DRIVER_INITIALIZATION_DATA, DxgkDdiSetPalette)),
               "a function of another shape does not fit an unmodeled DDI slot");
/* The callbacks have theirs: the WDK's parameters, no variadic tail. */
_Static_assert(__builtin_types_compatible_p(SLOT_TYPE(DXGKRNL_INTERFACE, DxgkCbSetPowerComponentActive),
                                            VOID(APIENTRY *)(const HANDLE, UINT)),
               "DxgkCbSetPowerComponentActive has the DXGKCB_SETPOWERCOMPONENTACTIVE type");
_Static_assert(__builtin_types_compatible_p(SLOT_TYPE(DXGKRNL_INTERFACE, DxgkCbMapMemory),
                                            NTSTATUS(APIENTRY *)(HANDLE, PHYSICAL_ADDRESS, ULONG, BOOLEAN, BOOLEAN,
                                                                 MEMORY_CACHING_TYPE, PVOID *)),
               "DxgkCbMapMemory has the DXGKCB_MAP_MEMORY type");
_Static_assert(!__builtin_types_compatible_p(SLOT_TYPE(DXGKRNL_INTERFACE, DxgkCbSetPowerComponentIdle),
                                             VOID(APIENTRY *)(HANDLE, ...)),
               "an unmodeled callback is not variadic");

static NTSTATUS APIENTRY start_and_call(const PVOID ctx, DXGK_START_INFO *si, DXGKRNL_INTERFACE *ifc, ULONG *sources,
                                        ULONG *children)
{
    NTSTATUS st = real_start(ctx, si, ifc, sources, children);
    if (!NT_SUCCESS(st) || seen.no_calls)
        return st;
    /* As a ported display miniport would, with each callback's real arguments: each answers "not
     * supported" for its kind of result. */
    ACPI_EVAL_OUTPUT_BUFFER *acpi_out = NULL;
    seen.acpi = ifc->DxgkCbEvalAcpiMethod(ifc->DeviceHandle, 0x5f4f5344u, NULL, 0, acpi_out, 0);
    seen.services = ifc->DxgkCbQueryServices(ifc->DeviceHandle, DxgkServicesDebugReport, NULL);
    seen.connector = ifc->DxgkCbIndicateConnectorChange(ifc->DeviceHandle);
    DXGKARGCB_GETHANDLEDATA get = { .hObject = 0x40000040u, .Type = DXGK_HANDLE_ALLOCATION };
    DXGKARGCB_RELEASEHANDLEDATA release = { 0 };
    seen.handle_data = ifc->DxgkCbAcquireHandleData(&get, &release);
    ifc->DxgkCbReleaseHandleData(release);
    seen.parent = ifc->DxgkCbGetHandleParent(0x40000040u);
    seen.va = ifc->DxgkCbMapContextAllocation(ifc->DeviceHandle, NULL);
    ifc->DxgkCbLogEtwEvent(NULL, 1, 0, NULL);
    ifc->DxgkCbSetPowerComponentActive(ifc->DeviceHandle, 0);
    ifc->DxgkCbSetPowerComponentLatency(ifc->DeviceHandle, 0, 10000);
    ifc->DxgkCbSetPowerComponentIdle(ifc->DeviceHandle, 0);
    seen.called = 1;
    return st;
}

/* rule: runtime.ddis-kernel-calls-typed-wdk-types (`static DXGKDDI_BUILDPAGINGBUFFER build_paging;` defined, assigned without a cast; `_Static_assert` on `SLOT_TYPE`) */
/* rule: runtime.every-slot-kernel-never-calls-every (compile-time `_Static_assert`s on `SLOT_TYPE`) */
static NTSTATUS porting_entry(PDRIVER_OBJECT drv, PVOID reg)
{
    DRIVER_INITIALIZATION_DATA d;
    SwKmdGetDriverInitializationData(&d);
    real_start = d.DxgkDdiStartDevice;
    d.DxgkDdiStartDevice = start_and_call;
    /* No casts: each function has its slot's WDK type. */
    d.DxgkDdiSetPalette = set_palette;
    d.DxgkDdiPresent = present;
    d.DxgkDdiQueryChildRelations = query_child_relations;
    d.DxgkDdiControlInterrupt2 = control_interrupt2;
    real_build_paging = d.DxgkDdiBuildPagingBuffer;
    d.DxgkDdiBuildPagingBuffer = build_paging;
    return DxgkInitialize(drv, reg, &d);
}

/* rule: kernel.callback-kernel-not-model-answers-not (mutation-checked: answering STATUS_SUCCESS fails it) */
/* rule: runtime.every-slot-kernel-never-calls-every (mutation-checked: a slot typed `PVOID` again, a callback made variadic, a parameter changed each fail the build) */
/* rule: kernel.registered-ddi-kernel-never-calls-listed */
static void unmodeled_ddis_and_callbacks_are_reported_not_fatal(void **state)
{
    (void)state;
    UINT64 ddis = wddm_verifier_violations("Init.NotModeledDdi"), calls = wddm_verifier_violations("Callback.NotModeled");
    UINT64 violations = wddm_verifier_violations(NULL);
    memset(&seen, 0xA5, sizeof seen);
    seen.called = 0;
    seen.no_calls = false;
    wddm_set_kmd_entry(porting_entry);
    wddm_clear_refusals();
    D3DKMT_ADAPTERINFO info[4];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS); /* the adapter starts all the same */
    assert_true(seen.called);
    assert_int_equal(seen.acpi, STATUS_NOT_SUPPORTED);
    assert_int_equal(seen.services, STATUS_NOT_SUPPORTED);
    assert_int_equal(seen.connector, STATUS_NOT_SUPPORTED);
    assert_null(seen.handle_data);
    assert_int_equal(seen.parent, 0);
    assert_int_equal(seen.va, 0);
    assert_int_equal(wddm_verifier_violations("Init.NotModeledDdi"), ddis + 1);
    assert_int_equal(wddm_verifier_violations("Callback.NotModeled"), calls + 11);
    assert_int_equal(wddm_verifier_violations(NULL), violations); /* neither is a violation */
    char why[1100];
    wddm_last_refusals(why, sizeof why);
    if (!strstr(why, "verifier Callback.NotModeled (not supported by this kernel): DxgkCbSetPowerComponentIdle:"))
        fail_msg("the last report does not name the callback:\n%s", why);
    for (ULONG i = 0; i < en.NumAdapters; i++) {
        D3DKMT_CLOSEADAPTER c = { .hAdapter = info[i].hAdapter };
        D3DKMTCloseAdapter(&c);
    }
    wddm_set_kmd_entry(NULL);
}

/* The start-time list names what the KMD registered that the kernel never calls. */
/* rule: kernel.registered-ddi-kernel-never-calls-listed (mutation-checked: a DDI dropped from `not_modeled_ddis` fails it) */
static void the_unmodeled_ddis_a_kmd_registers_are_named(void **state)
{
    (void)state;
    seen.no_calls = true;
    wddm_set_kmd_entry(porting_entry);
    wddm_clear_refusals();
    D3DKMT_ADAPTERINFO info[4];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
    char summary[8192];
    wddm_verifier_summary(summary, sizeof summary);
    if (!strstr(summary, "Init.NotModeledDdi") || !strstr(summary, "Callback.NotModeled"))
        fail_msg("the summary lacks the unmodeled rows:\n%s", summary);
    /* Each typed slot the KMD filled is named (the verifier's list covers them). */
    char why[2048];
    wddm_last_refusals(why, sizeof why);
    const char *registered[] = { "DxgkDdiQueryChildRelations", "DxgkDdiSetPalette", "DxgkDdiPresent",
                                 "DxgkDdiControlInterrupt2" };
    for (size_t k = 0; k < sizeof registered / sizeof registered[0]; k++)
        if (!strstr(why, registered[k]))
            fail_msg("Init.NotModeledDdi does not name %s:\n%s", registered[k], why);
    for (ULONG i = 0; i < en.NumAdapters; i++) {
        D3DKMT_CLOSEADAPTER c = { .hAdapter = info[i].hAdapter };
        D3DKMTCloseAdapter(&c);
    }
    seen.no_calls = false;
    wddm_set_kmd_entry(NULL);
}

int main(void)
{
    unsetenv("WDDM_KMD_CAPS");
    unsetenv("WDDM_VERIFIER");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(driver_initialization_data_is_in_the_wdk_order),
        cmocka_unit_test(dxgkrnl_interface_is_in_the_wdk_order),
        cmocka_unit_test(unmodeled_ddis_and_callbacks_are_reported_not_fatal),
        cmocka_unit_test(the_unmodeled_ddis_a_kmd_registers_are_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
