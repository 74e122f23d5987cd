/* The OS feature set and the feature-query callbacks (DxgkCbQueryFeatureSupport,
 * DxgkCbIsFeatureEnabled; docs/semantics.md §7, seed 002 "Checking for feature availability").
 *
 * Each adapter gets the OS feature set when it starts, before DxgkDdiStartDevice (the KMD
 * queries from there): the defaults below, then the environment variable WDDM_FEATURES, a
 * comma-separated list of NAME=0|1 where NAME is the DXGK_FEATURE_ID without its
 * DXGK_FEATURE_ prefix (e.g. WDDM_FEATURES=SHARE_BACKING_STORE_WITH_KMD=0). Only features the
 * model implements can be turned on; an unknown name, a bad value, or turning on a feature
 * the model does not implement fails the adapter start with a line naming the entry
 * (docs/rules/kernel.md).
 *
 * Seed 002 "The feature can only be used if the callback succeeds and Enable is set to TRUE":
 * each adapter records which features its KMD asked about and was told are enabled
 * (dxgk_adapter.features_granted, the last answer per feature counts); the verifier refuses
 * DXGK_ALLOCATIONINFO.Flags2.ShareBackingStoreWithKmd from a KMD that has no such answer. And
 * "The DDI is available for WDDM 3.1 drivers or newer": a feature with a minimum
 * DXGKDDI_INTERFACE_VERSION is answered Enabled FALSE, with a line, to a KMD whose
 * DRIVER_INITIALIZATION_DATA.Version is older. */
#include "dxgkrnl/dxgkrnl.h"

#include <stdlib.h>
#include <string.h>

struct feature_def {
    const char *name;
    DXGK_FEATURE_ID id;
    bool implemented;      /* the model does what the feature promises */
    ULONG min_interface;   /* the oldest DRIVER_INITIALIZATION_DATA.Version told Enabled TRUE */
    const char *min_name;  /* its DXGKDDI_INTERFACE_VERSION_* name */
    const char *min_why;   /* the source of that minimum, for the debug line */
};

static const struct feature_def features[] = {
    { "HWSCH", DXGK_FEATURE_HWSCH, false, 0, NULL, NULL },
    { "HWFLIPQUEUE", DXGK_FEATURE_HWFLIPQUEUE, false, 0, NULL, NULL },
    { "LDA_GPUPV", DXGK_FEATURE_LDA_GPUPV, false, 0, NULL, NULL },
    { "KMD_SIGNAL_CPU_EVENT", DXGK_FEATURE_KMD_SIGNAL_CPU_EVENT, false, 0, NULL, NULL },
    { "USER_MODE_SUBMISSION", DXGK_FEATURE_USER_MODE_SUBMISSION, false, 0, NULL, NULL },
    /* Seed 002: "The DDI is available for WDDM 3.1 drivers or newer." */
    { "SHARE_BACKING_STORE_WITH_KMD", DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD, true,
      DXGKDDI_INTERFACE_VERSION_WDDM3_1, "DXGKDDI_INTERFACE_VERSION_WDDM3_1",
      "WDDM 3.1 drivers or newer only" },
    { "SAMPLE", DXGK_FEATURE_SAMPLE, false, 0, NULL, NULL },
    { "PAGE_BASED_MEMORY_MANAGER", DXGK_FEATURE_PAGE_BASED_MEMORY_MANAGER, false, 0, NULL, NULL },
    { "KERNEL_MODE_TESTING", DXGK_FEATURE_KERNEL_MODE_TESTING, false, 0, NULL, NULL },
};

#define FEATURE_BIT(id) (1ull << (unsigned)(id))

static const struct feature_def *feature_find(DXGK_FEATURE_ID id)
{
    for (size_t i = 0; i < sizeof features / sizeof features[0]; i++)
        if (features[i].id == id)
            return &features[i];
    return NULL;
}

UINT64 dxgk_features_default(void)
{
    /* Every feature the model implements is on. */
    UINT64 set = 0;
    for (size_t i = 0; i < sizeof features / sizeof features[0]; i++)
        if (features[i].implemented)
            set |= FEATURE_BIT(features[i].id);
    return set;
}

NTSTATUS dxgk_features_parse(const char *text, size_t size, UINT64 *set)
{
    /* The list is short text (docs/rules/kernel.md): bounded, and no NUL or control bytes, which
     * an environment string cannot hold anyway but a buffer can. */
    char buf[DXGK_FEATURES_TEXT_MAX + 1];
    if (size > DXGK_FEATURES_TEXT_MAX) {
        dxgk_refuse("adapter start: WDDM_FEATURES is longer than %u characters", DXGK_FEATURES_TEXT_MAX);
        return STATUS_INVALID_PARAMETER;
    }
    for (size_t i = 0; i < size; i++)
        if ((unsigned char)text[i] < 0x20 || (unsigned char)text[i] >= 0x7f) {
            dxgk_refuse("adapter start: WDDM_FEATURES byte 0x%02x at %zu: the list is printable ASCII",
                        (unsigned char)text[i], i + 1);
            return STATUS_INVALID_PARAMETER;
        }
    memcpy(buf, text, size);
    buf[size] = '\0';
    UINT64 work = *set; /* all or nothing */
    char *save = NULL;
    for (char *entry = strtok_r(buf, ",", &save); entry; entry = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(entry, '=');
        if (!eq || (strcmp(eq + 1, "0") != 0 && strcmp(eq + 1, "1") != 0)) {
            dxgk_refuse("adapter start: WDDM_FEATURES entry '%.64s' is not NAME=0 or NAME=1", entry);
            return STATUS_INVALID_PARAMETER;
        }
        *eq = '\0';
        const struct feature_def *f = NULL;
        for (size_t i = 0; i < sizeof features / sizeof features[0]; i++)
            if (strcmp(features[i].name, entry) == 0)
                f = &features[i];
        if (!f) {
            dxgk_refuse("adapter start: WDDM_FEATURES names unknown feature '%.64s'", entry);
            return STATUS_INVALID_PARAMETER;
        }
        if (eq[1] == '1' && !f->implemented) {
            dxgk_refuse("adapter start: WDDM_FEATURES turns on %s, which this model does not implement", entry);
            return STATUS_INVALID_PARAMETER;
        }
        if (eq[1] == '1')
            work |= FEATURE_BIT(f->id);
        else
            work &= ~FEATURE_BIT(f->id);
    }
    *set = work;
    return STATUS_SUCCESS;
}

NTSTATUS dxgk_features_init(struct dxgk_adapter *a)
{
    a->features = dxgk_features_default();
    atomic_store(&a->features_granted, 0); /* the KMD has asked nothing yet (seed 002) */
    const char *env = getenv("WDDM_FEATURES");
    if (!env || !*env)
        return STATUS_SUCCESS;
    /* strnlen: a longer string is refused without measuring all of it. */
    return dxgk_features_parse(env, strnlen(env, DXGK_FEATURES_TEXT_MAX + 1), &a->features);
}

bool dxgk_feature_enabled(const struct dxgk_adapter *a, DXGK_FEATURE_ID id)
{
    return (unsigned)id < 64 && (a->features & FEATURE_BIT(id)) != 0;
}

bool dxgk_feature_granted(const struct dxgk_adapter *a, DXGK_FEATURE_ID id)
{
    return (unsigned)id < 64 && (atomic_load(&a->features_granted) & FEATURE_BIT(id)) != 0;
}

/* The answer to this adapter's KMD about feature f (the driver does not refuse it): the OS
 * feature set, and for a feature with a minimum interface version, the KMD's
 * DRIVER_INITIALIZATION_DATA.Version (seed 002: WDDM 3.1 or newer). The answer is recorded
 * lock-free: the KMD may ask from any thread, the verifier reads it at DxgkDdiCreateAllocation. */
static BOOLEAN feature_answer(struct dxgk_adapter *a, const struct feature_def *f, bool driver_wants, const char *who)
{
    bool on = driver_wants && dxgk_feature_enabled(a, f->id);
    /* a->driver is immutable once DxgkInitialize registered it (before DxgkDdiAddDevice). */
    ULONG version = a->driver.ddi.Version;
    if (on && version < f->min_interface) {
        /* One debug line holds 223 characters: the DRIVER_INITIALIZATION_DATA.Version is the
         * "KMD interface version". */
        dxgk_refuse("%s: DXGK_FEATURE_%s answered Enabled FALSE: KMD interface version 0x%x < %s 0x%x (%s)", who,
                    f->name, (unsigned)version, f->min_name, (unsigned)f->min_interface, f->min_why);
        on = false;
    }
    if (on)
        atomic_fetch_or(&a->features_granted, FEATURE_BIT(f->id));
    else
        atomic_fetch_and(&a->features_granted, ~FEATURE_BIT(f->id));
    return on ? TRUE : FALSE;
}

/* DeviceHandle is DXGKRNL_INTERFACE.DeviceHandle: the kernel's adapter object. */
static struct dxgk_adapter *adapter_from_device_handle(HANDLE h)
{
    struct dxgk_adapter *a = h;
    return (a && a->obj.type == DXGK_TYPE_ADAPTER) ? a : NULL;
}

static bool feature_args_valid(const char *who, HANDLE device, DXGK_FEATURE_ID id, struct dxgk_adapter **out)
{
    *out = adapter_from_device_handle(device);
    if (!*out) {
        dxgk_refuse("%s: DeviceHandle is not the one DXGKRNL_INTERFACE gave", who);
        return false;
    }
    if (!feature_find(id)) {
        dxgk_refuse("%s: FeatureId %d is not a DXGK_FEATURE_ID", who, (int)id);
        return false;
    }
    return true;
}

NTSTATUS APIENTRY dxgk_cb_query_feature_support(DXGKARGCB_QUERYFEATURESUPPORT *args)
{
    struct dxgk_adapter *a;
    if (!args) {
        dxgk_refuse("DxgkCbQueryFeatureSupport: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    if (!feature_args_valid("DxgkCbQueryFeatureSupport", args->DeviceHandle, args->FeatureId, &a))
        return STATUS_INVALID_PARAMETER;
    if (args->DriverSupportState > DXGK_FEATURE_SUPPORT_ALWAYS_ON) {
        dxgk_refuse("DxgkCbQueryFeatureSupport: DriverSupportState %u is not a DXGK_FEATURE_SUPPORT_* value",
                    args->DriverSupportState);
        return STATUS_INVALID_PARAMETER;
    }
    /* A driver that reports ALWAYS_OFF never gets the feature; otherwise the OS decides. */
    args->Enabled = feature_answer(a, feature_find(args->FeatureId),
                                   args->DriverSupportState != DXGK_FEATURE_SUPPORT_ALWAYS_OFF,
                                   "DxgkCbQueryFeatureSupport");
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY dxgk_cb_is_feature_enabled(DXGKARGCB_ISFEATUREENABLED *args)
{
    struct dxgk_adapter *a;
    if (!args) {
        dxgk_refuse("DxgkCbIsFeatureEnabled: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    if (!feature_args_valid("DxgkCbIsFeatureEnabled", args->DeviceHandle, args->FeatureId, &a))
        return STATUS_INVALID_PARAMETER;
    args->Enabled = feature_answer(a, feature_find(args->FeatureId), true, "DxgkCbIsFeatureEnabled");
    return STATUS_SUCCESS;
}
