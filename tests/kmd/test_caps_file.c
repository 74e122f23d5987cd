/* Issue 6, "one documented form": every cap is named "DXGK_VIDMMCAPS.<Member>" /
 * "DXGK_VIDSCHCAPS.<Member>" / "DXGK_DRIVERCAPS.<Field>", with the WDK's bit positions
 * (seed 003); a file of "NAME = value" lines applies over a DXGK_DRIVERCAPS; unknown names and
 * bad values are errors that name the line; `wddm info`'s output is itself a valid file. */
/* rule: common.wddm-info-no-longer-marks (output stays a valid caps file) */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "common/caps.h"

static char path[64];

static void write_file(const char *text)
{
    snprintf(path, sizeof path, "/tmp/wddm-caps-%d.txt", (int)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* rule: runtime.every-dxgk-vidmmcaps-member-wdk-name */
static void vidmm_bits_have_the_wdk_positions(void **state)
{
    /* Seed 003's declaration order: bit n is the n-th member. */
    static const char *const members[] = {
        "OutOfOrderLock", "DedicatedPagingEngine", "PagingEngineCanSwizzle", "SectionBackedPrimary",
        "CrossAdapterResource", "VirtualAddressingSupported", "GpuMmuSupported", "IoMmuSupported",
        "ReplicateGdiContent", "NonCpuVisiblePrimary", "ParavirtualizationSupported",
        "IoMmuSecureModeSupported", "DisableSelfRefreshVRAMInS3", "IoMmuSecureModeRequired",
        "MapAperture2Supported", "CrossAdapterResourceTexture", "CrossAdapterResourceScanout",
        "AlwaysPoweredVRAM",
    };
    for (unsigned i = 0; i < sizeof members / sizeof members[0]; i++) {
        char name[96];
        snprintf(name, sizeof name, "DXGK_VIDMMCAPS.%s", members[i]);
        const struct wddm_cap_field *f = wddm_caps_find(name);
        if (!f)
            fail_msg("%s is not in the table", name);
        DXGK_DRIVERCAPS c;
        memset(&c, 0, sizeof c);
        assert_true(wddm_caps_set(&c, f, 1));
        assert_int_equal(c.MemoryManagementCaps.Value, 1u << i);
        assert_int_equal(wddm_caps_get(&c, f), 1);
    }
    DXGK_DRIVERCAPS c;
    memset(&c, 0, sizeof c);
    c.MemoryManagementCaps.PagingNode = 1;
    c.SchedulingCaps.HwQueuePacketCap = 9;
    assert_int_equal(wddm_caps_get(&c, wddm_caps_find("DXGK_VIDMMCAPS.PagingNode")), 1);
    assert_int_equal(wddm_caps_get(&c, wddm_caps_find("DXGK_VIDSCHCAPS.HwQueuePacketCap")), 9);
}

/* rule: common.file-such-lines-named-wddm-kmd */
static void caps_file_sets_named_bits_and_fields(void **state)
{
    write_file("# a comment line\n"
               "\n"
               "DXGK_VIDMMCAPS.OutOfOrderLock = 1\n"
               "  DXGK_VIDMMCAPS.CrossAdapterResource=1   # trailing comment\n"
               "DXGK_VIDSCHCAPS.PreemptionAware = 1\n"
               "DXGK_DRIVERCAPS.MaxAllocationListSlotId = 0x200\n"
               "DXGK_DRIVERCAPS.SupportPerEngineTDR = 1\n"
               "DXGK_VIDMMCAPS.PagingNode = 0\n");
    DXGK_DRIVERCAPS c;
    memset(&c, 0, sizeof c);
    c.MemoryManagementCaps.PagingNode = 1;
    char err[256] = "";
    assert_true(wddm_caps_apply_file(path, &c, err, sizeof err));
    assert_int_equal(c.MemoryManagementCaps.OutOfOrderLock, 1);
    assert_int_equal(c.MemoryManagementCaps.CrossAdapterResource, 1);
    assert_int_equal(c.MemoryManagementCaps.Value, 0x11);
    assert_int_equal(c.SchedulingCaps.PreemptionAware, 1);
    assert_int_equal(c.MaxAllocationListSlotId, 0x200);
    assert_int_equal(c.SupportPerEngineTDR, 1);
    assert_int_equal(c.MemoryManagementCaps.PagingNode, 0);
    unlink(path);
}

/* rule: common.unknown-names-values-not-numbers-not */
static void caps_file_unknown_name_is_an_error_naming_the_line(void **state)
{
    write_file("DXGK_VIDMMCAPS.OutOfOrderLock = 1\n"
               "\n"
               "DXGK_VIDMMCAPS.NoSuchMember = 1\n");
    DXGK_DRIVERCAPS c, before;
    memset(&c, 0, sizeof c);
    before = c;
    char err[256] = "";
    assert_false(wddm_caps_apply_file(path, &c, err, sizeof err));
    if (!strstr(err, ":3:") || !strstr(err, "DXGK_VIDMMCAPS.NoSuchMember"))
        fail_msg("the error does not name line 3 and the name: %s", err);
    assert_memory_equal(&c, &before, sizeof c); /* all or nothing: line 1 not applied */
    unlink(path);
}

/* rule: common.unknown-names-values-not-numbers-not */
static void caps_file_bad_values_are_errors_naming_the_line(void **state)
{
    static const char *const bad[] = {
        "DXGK_VIDMMCAPS.OutOfOrderLock = 2\n",        /* does not fit one bit */
        "DXGK_VIDMMCAPS.OutOfOrderLock = yes\n",      /* not a number */
        "DXGK_VIDMMCAPS.OutOfOrderLock\n",            /* no '=' */
        "DXGK_VIDSCHCAPS.HwQueuePacketCap = 16\n",    /* 4 bits */
        "DXGK_DRIVERCAPS.SupportPerEngineTDR = 256\n",/* BOOLEAN */
        "DXGK_VIDMMCAPS.OutOfOrderLock = -1\n",
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file(bad[i]);
        DXGK_DRIVERCAPS c;
        memset(&c, 0, sizeof c);
        char err[256] = "";
        if (wddm_caps_apply_file(path, &c, err, sizeof err))
            fail_msg("accepted: %s", bad[i]);
        if (!strstr(err, ":1:"))
            fail_msg("the error does not name line 1: %s", err);
    }
    char err[256] = "";
    DXGK_DRIVERCAPS c;
    memset(&c, 0, sizeof c);
    assert_false(wddm_caps_apply_file("/nonexistent/caps.txt", &c, err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent/caps.txt"));
    unlink(path);
}

/* rule: common.one-documented-form-wddm-info-prints */
static void printed_caps_are_a_valid_caps_file(void **state)
{
    DXGK_DRIVERCAPS src, back;
    memset(&src, 0, sizeof src);
    memset(&back, 0, sizeof back);
    /* A value in every field, each within its width. */
    for (size_t i = 0; i < wddm_caps_count(); i++) {
        const struct wddm_cap_field *f = wddm_caps_at(i);
        UINT64 v = f->size == 0 ? (1ull << f->width) - 1 : f->size == 1 ? 1 : 0x1234 + i;
        assert_true(wddm_caps_set(&src, f, v));
    }
    snprintf(path, sizeof path, "/tmp/wddm-caps-%d.txt", (int)getpid());
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    wddm_caps_print(out, &src);
    fclose(out);
    char err[256] = "";
    if (!wddm_caps_apply_file(path, &back, err, sizeof err))
        fail_msg("wddm info's own output is refused: %s", err);
    for (size_t i = 0; i < wddm_caps_count(); i++) {
        const struct wddm_cap_field *f = wddm_caps_at(i);
        if (wddm_caps_get(&src, f) != wddm_caps_get(&back, f))
            fail_msg("%s does not survive print + parse", f->name);
    }
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vidmm_bits_have_the_wdk_positions),
        cmocka_unit_test(caps_file_sets_named_bits_and_fields),
        cmocka_unit_test(caps_file_unknown_name_is_an_error_naming_the_line),
        cmocka_unit_test(caps_file_bad_values_are_errors_naming_the_line),
        cmocka_unit_test(printed_caps_are_a_valid_caps_file),
    };
    return cmocka_run_group_tests_name("kmd.caps_file", tests, NULL, NULL);
}
