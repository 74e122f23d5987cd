/* Issue 20 item 6, seed 002 "Checking for feature availability": the kernel lets a KMD set
 * DXGK_ALLOCATIONINFO.Flags2.ShareBackingStoreWithKmd only if THAT KMD asked about
 * DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD (DxgkCbQueryFeatureSupport or DxgkCbIsFeatureEnabled)
 * and was last answered Enabled TRUE ("The feature can only be used if the callback succeeds and
 * Enable is set to TRUE"), and it answers Enabled FALSE to a KMD older than WDDM 3.1 ("The DDI is
 * available for WDDM 3.1 drivers or newer"). Anything else is refused at D3DKMTCreateAllocation
 * by the verifier (STATUS_INVALID_PARAMETER, a line naming seed 002), before the KMD gets a
 * backing store.
 *
 * The KMD is the reference one, wrapped: the wrapper sees the feature queries it makes, and to
 * misbehave it hides the query callbacks, asks again to be told off, declares an older
 * interface version, or sets the reference KMD's remembered answer to TRUE without asking. */
#include "dxgkrnl/real_env.h"

#include <wddm/d3dkmddi.h>

#include "kmd/kmd.h"

#define SIZE 8192u

enum mode {
    HONEST = 0,      /* the reference KMD as it is */
    NO_QUERY,        /* it gets no query callback and assumes the feature */
    TOLD_OFF_LATER,  /* asks (TRUE), then asks again ALWAYS_OFF (FALSE), keeps using it */
    IS_ENABLED_ONLY, /* asks through DxgkCbIsFeatureEnabled only */
};

static struct {
    enum mode mode;
    ULONG version;                 /* DRIVER_INITIALIZATION_DATA.Version; 0: the reference KMD's */
    bool assume_enabled;           /* after StartDevice: the KMD believes the feature is on */
    DXGKCB_QUERYFEATURESUPPORT real_query;
    int queries;                   /* DxgkCbQueryFeatureSupport calls for the feature */
    int is_enabled_queries;        /* DxgkCbIsFeatureEnabled calls (IS_ENABLED_ONLY) */
    BOOLEAN last_enabled;          /* the last answer the kernel gave */
    int set_backing_calls;
} rec;

static struct renv env;

static NTSTATUS APIENTRY seen_query(DXGKARGCB_QUERYFEATURESUPPORT *q)
{
    NTSTATUS st = rec.real_query(q);
    if (NT_SUCCESS(st) && q->FeatureId == DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD) {
        rec.queries++;
        rec.last_enabled = q->Enabled;
    }
    return st;
}

static NTSTATUS APIENTRY wrap_start(const PVOID ctx, DXGK_START_INFO *si, DXGKRNL_INTERFACE *ifc, ULONG *sources,
                                    ULONG *children)
{
    DXGKRNL_INTERFACE mine = *ifc;
    rec.real_query = ifc->DxgkCbQueryFeatureSupport;
    mine.DxgkCbQueryFeatureSupport = seen_query;
    if (rec.mode == NO_QUERY || rec.mode == IS_ENABLED_ONLY) {
        mine.DxgkCbQueryFeatureSupport = NULL; /* the reference KMD then treats the feature as off */
        mine.DxgkCbIsFeatureEnabled = NULL;
    }
    NTSTATUS st = SwKmdStartDevice(ctx, si, &mine, sources, children);
    if (!NT_SUCCESS(st))
        return st;
    struct swkmd_adapter *a = swkmd_adapter_from(ctx);
    if (rec.mode == TOLD_OFF_LATER) {
        DXGKARGCB_QUERYFEATURESUPPORT q = { .DeviceHandle = ifc->DeviceHandle,
                                            .FeatureId = DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD,
                                            .DriverSupportState = DXGK_FEATURE_SUPPORT_ALWAYS_OFF };
        assert_int_equal(seen_query(&q), STATUS_SUCCESS);
        assert_false(q.Enabled);
    }
    if (rec.mode == IS_ENABLED_ONLY) {
        DXGKARGCB_ISFEATUREENABLED e = { .DeviceHandle = ifc->DeviceHandle,
                                         .FeatureId = DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD };
        assert_int_equal(ifc->DxgkCbIsFeatureEnabled(&e), STATUS_SUCCESS);
        rec.is_enabled_queries++;
        rec.last_enabled = e.Enabled;
        a->share_backing_store = e.Enabled;
    }
    if (rec.assume_enabled)
        a->share_backing_store = TRUE; /* whatever it was told */
    return st;
}

static NTSTATUS APIENTRY wrap_set_backing(const HANDLE a, const DXGKARG_SETALLOCATIONBACKINGSTORE *args)
{
    rec.set_backing_calls++;
    return SwKmdSetAllocationBackingStore(a, args);
}

static NTSTATUS wrap_entry(PDRIVER_OBJECT drv, PVOID reg)
{
    DRIVER_INITIALIZATION_DATA d;
    SwKmdGetDriverInitializationData(&d);
    if (rec.version)
        d.Version = rec.version;
    d.DxgkDdiStartDevice = wrap_start;
    d.DxgkDdiSetAllocationBackingStore = wrap_set_backing;
    return DxgkInitialize(drv, reg, &d);
}

/* Starts the adapter with the wrapped KMD as rec describes it. */
static void start(enum mode mode, ULONG version, bool assume_enabled)
{
    rec.mode = mode;
    rec.version = version;
    rec.assume_enabled = assume_enabled;
    wddm_set_kmd_entry(wrap_entry);
    wddm_clear_refusals();
    renv_open_kmd(&env);
}

static int reset(void **state)
{
    (void)state;
    memset(&rec, 0, sizeof rec);
    memset(&env, 0, sizeof env);
    return 0;
}

static int stop(void **state)
{
    (void)state;
    if (env.adapter)
        renv_close(&env);
    wddm_set_kmd_entry(NULL);
    unsetenv("WDDM_FEATURES");
    return 0;
}

/* A shared, CPU-visible allocation whose private data asks for a backing store shared with
 * the KMD (what the reference KMD turns into Flags2.ShareBackingStoreWithKmd). */
static NTSTATUS create_shared(D3DKMT_HANDLE *out)
{
    struct swgpu_alloc_private p = { .magic = SWGPU_PRIVATE_MAGIC, .version = SWGPU_PRIVATE_VERSION,
                                     .kind = SWGPU_ALLOC_READBACK, .size = SIZE, .dimension = 1, .width = SIZE,
                                     .height = 1, .depth = 1, .mip_levels = 1, .array_size = 1,
                                     .flags = SWGPU_ALLOC_FLAG_SHARE_BACKING_STORE_WITH_KMD };
    D3DDDI_ALLOCATIONINFO ai = { .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p };
    D3DKMT_CREATEALLOCATION ca = { .hDevice = env.device, .NumAllocations = 1, .pAllocationInfo = &ai };
    ca.Flags.CreateShared = 1;
    ca.Flags.CreateResource = 1; /* WDK: CreateShared needs CreateResource */
    NTSTATUS st = D3DKMTCreateAllocation(&ca);
    *out = ai.hAllocation;
    return st;
}

static void expect_refused_by_the_gate(void)
{
    D3DKMT_HANDLE h = 0;
    wddm_clear_refusals();
    assert_int_equal(create_shared(&h), STATUS_INVALID_PARAMETER);
    assert_int_equal(h, 0);
    renv_expect_refusal("Flags2.ShareBackingStoreWithKmd set but this KMD never queried the feature or was last "
                        "told Enabled FALSE (usable only if the callback succeeds and Enable is TRUE)");
    assert_int_equal(rec.set_backing_calls, 0);
    /* The refusal took the KMD's allocation along: the device is still whole. */
    D3DKMT_HANDLE plain = renv_alloc(&env, SWGPU_ALLOC_READBACK, SIZE);
    renv_free(&env, plain);
}

/* (a) The reference KMD asks at DxgkDdiStartDevice, is told TRUE, sets the flag: accepted. */
/* rule: kernel.each-adapter-records-features-kmd */
/* rule: kmd.reference-kmd-queries-share-backing */
static void reference_kmd_asks_first_and_gets_its_shared_backing_store(void **state)
{
    (void)state;
    start(HONEST, 0, false);
    assert_int_equal(rec.queries, 1);
    assert_true(rec.last_enabled);
    D3DKMT_HANDLE h = 0;
    assert_int_equal(create_shared(&h), STATUS_SUCCESS);
    assert_int_not_equal(h, 0);
    assert_int_equal(rec.set_backing_calls, 1);
    renv_free(&env, h);
}

/* Either callback counts (seed 002 lists both). */
/* rule: kernel.each-adapter-records-features-kmd */
static void asking_through_is_feature_enabled_counts_too(void **state)
{
    (void)state;
    start(IS_ENABLED_ONLY, 0, false);
    assert_int_equal(rec.queries, 0);
    assert_int_equal(rec.is_enabled_queries, 1);
    assert_true(rec.last_enabled);
    D3DKMT_HANDLE h = 0;
    assert_int_equal(create_shared(&h), STATUS_SUCCESS);
    assert_int_equal(rec.set_backing_calls, 1);
    renv_free(&env, h);
}

/* (b) A KMD that never asked and sets the flag anyway. */
/* rule: kernel.verifier-sharebackingstorewithkmd */
static void a_kmd_that_never_asked_is_refused(void **state)
{
    (void)state;
    start(NO_QUERY, 0, true);
    assert_int_equal(rec.queries, 0);
    expect_refused_by_the_gate();
}

/* (c) A KMD that asked and was told disabled, and sets the flag anyway: by the OS feature set
 * (WDDM_FEATURES), or by its own last question (ALWAYS_OFF) while the OS has it on. */
/* rule: kernel.verifier-sharebackingstorewithkmd */
static void a_kmd_told_disabled_by_the_os_is_refused(void **state)
{
    (void)state;
    setenv("WDDM_FEATURES", "SHARE_BACKING_STORE_WITH_KMD=0", 1);
    start(HONEST, 0, true);
    assert_int_equal(rec.queries, 1);
    assert_false(rec.last_enabled);
    D3DKMT_HANDLE h = 0;
    wddm_clear_refusals();
    assert_int_equal(create_shared(&h), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("verifier BackingStore.FeatureEnabled: DxgkDdiCreateAllocation: allocation 0: "
                        "Flags2.ShareBackingStoreWithKmd set but DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD is not "
                        "enabled");
    assert_int_equal(rec.set_backing_calls, 0);
}

/* rule: kernel.each-adapter-records-features-kmd */
/* rule: kernel.verifier-sharebackingstorewithkmd */
static void a_kmd_whose_last_answer_was_disabled_is_refused(void **state)
{
    (void)state;
    start(TOLD_OFF_LATER, 0, false);
    assert_int_equal(rec.queries, 2); /* STABLE: TRUE at StartDevice, then ALWAYS_OFF: FALSE */
    assert_false(rec.last_enabled);
    expect_refused_by_the_gate();
}

/* (d) A KMD older than WDDM 3.1 asks and is told FALSE, with a line; the reference KMD then
 * refuses the request itself, and a KMD that sets the flag anyway is refused by the kernel. */
/* rule: kernel.query-answers-enabled-os-feature-driver */
/* rule: kernel.verifier-sharebackingstorewithkmd (mutation-checked: without the "queried" check four of them fail) */
static void a_pre_wddm31_kmd_is_told_disabled_and_its_flag_is_refused(void **state)
{
    static const ULONG older[] = { DXGKDDI_INTERFACE_VERSION_WDDM3_0, DXGKDDI_INTERFACE_VERSION_WIN7,
                                   DXGKDDI_INTERFACE_VERSION_WDDM3_1 - 1 };
    for (size_t i = 0; i < sizeof older / sizeof older[0]; i++) {
        start(HONEST, older[i], false);
        assert_int_equal(rec.queries, 1);
        assert_false(rec.last_enabled);
        char line[200];
        snprintf(line, sizeof line, "DxgkCbQueryFeatureSupport: DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD answered "
                 "Enabled FALSE: KMD interface version 0x%x < DXGKDDI_INTERFACE_VERSION_WDDM3_1 0x10004",
                 (unsigned)older[i]);
        renv_expect_refusal(line);
        renv_expect_refusal("(WDDM 3.1 drivers or newer only)");
        D3DKMT_HANDLE h = 0;
        wddm_clear_refusals();
        assert_int_equal(create_shared(&h), STATUS_NOT_SUPPORTED); /* the reference KMD, seed 002 */
        renv_expect_refusal("DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD is not enabled");
        stop(state);
        reset(state);
        start(HONEST, older[i], true);
        assert_false(rec.last_enabled);
        expect_refused_by_the_gate();
        stop(state);
        reset(state);
    }
    /* 3.1 itself, and newer, get it. */
    start(HONEST, DXGKDDI_INTERFACE_VERSION_WDDM3_1 + 0x1000, false);
    assert_true(rec.last_enabled);
    D3DKMT_HANDLE h = 0;
    assert_int_equal(create_shared(&h), STATUS_SUCCESS);
    renv_free(&env, h);
}

/* The same answer through DxgkCbIsFeatureEnabled. */
/* rule: kernel.query-answers-enabled-os-feature-driver (mutation-checked) */
static void a_pre_wddm31_kmd_asking_is_feature_enabled_is_told_disabled_too(void **state)
{
    (void)state;
    start(IS_ENABLED_ONLY, DXGKDDI_INTERFACE_VERSION_WDDM3_0, true);
    assert_int_equal(rec.is_enabled_queries, 1);
    assert_false(rec.last_enabled);
    renv_expect_refusal("DxgkCbIsFeatureEnabled: DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD answered Enabled FALSE: "
                        "KMD interface version 0xf003 < DXGKDDI_INTERFACE_VERSION_WDDM3_1 0x10004");
    expect_refused_by_the_gate();
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "16", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "8", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "32", 1);
#define T(f) cmocka_unit_test_setup_teardown(f, reset, stop)
    const struct CMUnitTest tests[] = {
        T(reference_kmd_asks_first_and_gets_its_shared_backing_store),
        T(asking_through_is_feature_enabled_counts_too),
        T(a_kmd_that_never_asked_is_refused),
        T(a_kmd_told_disabled_by_the_os_is_refused),
        T(a_kmd_whose_last_answer_was_disabled_is_refused),
        T(a_pre_wddm31_kmd_is_told_disabled_and_its_flag_is_refused),
        T(a_pre_wddm31_kmd_asking_is_feature_enabled_is_told_disabled_too),
    };
    return cmocka_run_group_tests_name("dxgkrnl.share_backing_store_gate", tests, NULL, NULL);
}
