/* The OS feature set and the feature-query callbacks (DxgkCbQueryFeatureSupport,
 * DxgkCbIsFeatureEnabled; wddm-semantics §7, seed 002 "Checking for feature availability").
 *
 * Each adapter gets the OS feature set when it starts, before DxgkDdiStartDevice (the KMD
 * queries from there): the defaults below, then the environment variable WDDM_FEATURES, a
 * comma-separated list of NAME=0|1 where NAME is the DXGK_FEATURE_ID without its
 * DXGK_FEATURE_ prefix (e.g. WDDM_FEATURES=SHARE_BACKING_STORE_WITH_KMD=0). Only features the
 * model implements can be turned on; an unknown name, a bad value, or turning on a feature
 * the model does not implement fails the adapter start with a line naming the entry
 * (docs/rules.md §15). */
#include "dxgkrnl/dxgkrnl.h"

#include <stdlib.h>
#include <string.h>

struct feature_def {
    const char *name;
    DXGK_FEATURE_ID id;
    bool implemented; /* the model does what the feature promises */
};

static const struct feature_def features[] = {
    { "HWSCH", DXGK_FEATURE_HWSCH, false },
    { "HWFLIPQUEUE", DXGK_FEATURE_HWFLIPQUEUE, false },
    { "LDA_GPUPV", DXGK_FEATURE_LDA_GPUPV, false },
    { "KMD_SIGNAL_CPU_EVENT", DXGK_FEATURE_KMD_SIGNAL_CPU_EVENT, false },
    { "USER_MODE_SUBMISSION", DXGK_FEATURE_USER_MODE_SUBMISSION, false },
    { "SHARE_BACKING_STORE_WITH_KMD", DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD, true },
    { "SAMPLE", DXGK_FEATURE_SAMPLE, false },
    { "PAGE_BASED_MEMORY_MANAGER", DXGK_FEATURE_PAGE_BASED_MEMORY_MANAGER, false },
    { "KERNEL_MODE_TESTING", DXGK_FEATURE_KERNEL_MODE_TESTING, false },
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
    /* The list is short text (docs/rules.md §32): bounded, and no NUL or control bytes, which
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
    args->Enabled = args->DriverSupportState != DXGK_FEATURE_SUPPORT_ALWAYS_OFF &&
                    dxgk_feature_enabled(a, args->FeatureId);
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
    args->Enabled = dxgk_feature_enabled(a, args->FeatureId);
    return STATUS_SUCCESS;
}
