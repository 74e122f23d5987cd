/* The adapter, device, video-memory and monitored-fence D3DKMT thunks answer as Windows does
 * (issue 14 §3). Each check re-expresses one of the Wine win32u d3dkmt tests, which run on
 * Windows (a todo_wine line still states Windows' answer), or a WDK page; the thunks run on the
 * real stack: the reference KMD and the software GPU. Both driver models (WDDM_KMD_CAPS). */
/* rule: runtime.kmtqueryadapterinfotype-carries-wdk (the types it queries) */
#include "conformance/d3dkmt_env.h"

static D3DKMT_HANDLE open_adapter(void)
{
    D3DKMT_ADAPTERINFO info[4];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
    assert_int_equal(en.NumAdapters, 1);
    return info[0].hAdapter;
}

static void close_adapter(D3DKMT_HANDLE h)
{
    D3DKMT_CLOSEADAPTER ca = { .hAdapter = h };
    assert_int_equal(D3DKMTCloseAdapter(&ca), STATUS_SUCCESS);
}

/* ---- D3DKMTEnumAdapters2 ----------------------------------------------------------------- */

/* Wine win32u d3dkmt tests, run on Windows: NULL arguments are STATUS_INVALID_PARAMETER. */
/* rule: kernel.d3dkmtenumadapters2-null-status-invalid */
static void enum_adapters2_null_is_invalid_parameter(void **state)
{
    (void)state;
    assert_int_equal(D3DKMTEnumAdapters2(NULL), STATUS_INVALID_PARAMETER);
}

/* Wine win32u d3dkmt tests, run on Windows: NumAdapters 0 with pAdapters NULL succeeds and
 * answers the capacity to allocate (32 on Windows 10), not the number of adapters present. */
/* rule: kernel.d3dkmtenumadapters2-null-status-invalid */
/* rule: kernel.enumadapters2-capacity-windows-10-answer */
static void enum_adapters2_count_query_answers_the_capacity(void **state)
{
    (void)state;
    D3DKMT_ENUMADAPTERS2 en = { 0 };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
    assert_int_equal(en.NumAdapters, D3DKMT_ENUMADAPTERS2_MAX_ADAPTERS);
    assert_int_equal(en.NumAdapters, 32);
}

/* Wine win32u d3dkmt tests, run on Windows: an array of that capacity receives the present
 * adapters, each with a non-zero LUID and an open handle that D3DKMTCloseAdapter closes. */
/* rule: kernel.d3dkmtenumadapters2-null-status-invalid */
static void enum_adapters2_fills_the_array_with_open_adapters(void **state)
{
    (void)state;
    D3DKMT_ENUMADAPTERS2 en = { 0 };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
    D3DKMT_ADAPTERINFO *info = calloc(en.NumAdapters, sizeof *info);
    assert_non_null(info);
    en.pAdapters = info;
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
    assert_int_equal(en.NumAdapters, 1); /* the one adapter of this process */
    for (ULONG i = 0; i < en.NumAdapters; i++) {
        assert_int_not_equal(info[i].hAdapter, 0);
        assert_true(info[i].AdapterLuid.LowPart || info[i].AdapterLuid.HighPart);
        close_adapter(info[i].hAdapter);
    }
    free(info);
}

/* Wine win32u d3dkmt tests, run on Windows: an array with NumAdapters 0 is too small. */
/* rule: kernel.d3dkmtenumadapters2-null-status-invalid (mutation-checked) */
static void enum_adapters2_empty_array_is_buffer_too_small(void **state)
{
    (void)state;
    D3DKMT_ADAPTERINFO info[1];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 0, .pAdapters = info };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_BUFFER_TOO_SMALL);
}

/* ---- D3DKMTCloseAdapter, D3DKMTCreateDevice, D3DKMTDestroyDevice ------------------------- */

/* Wine win32u d3dkmt tests, run on Windows: NULL or a zero handle is STATUS_INVALID_PARAMETER. */
/* rule: kernel.d3dkmtcloseadapter-d3dkmtcreatedevice */
static void close_adapter_null_or_zero_is_invalid_parameter(void **state)
{
    (void)state;
    D3DKMT_CLOSEADAPTER ca = { 0 };
    assert_int_equal(D3DKMTCloseAdapter(NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTCloseAdapter(&ca), STATUS_INVALID_PARAMETER);
}

/* Wine win32u d3dkmt tests, run on Windows: D3DKMTCreateDevice / D3DKMTDestroyDevice refuse NULL
 * and zero handles with STATUS_INVALID_PARAMETER. */
/* rule: kernel.d3dkmtcloseadapter-d3dkmtcreatedevice */
static void create_destroy_device_null_or_zero_is_invalid_parameter(void **state)
{
    (void)state;
    D3DKMT_CREATEDEVICE cd = { 0 };
    D3DKMT_DESTROYDEVICE dd = { 0 };
    assert_int_equal(D3DKMTCreateDevice(NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTCreateDevice(&cd), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTDestroyDevice(NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_INVALID_PARAMETER);
}

/* Wine win32u d3dkmt tests, run on Windows (and WDK: D3DKMT_CREATEDEVICE): a device has no
 * command buffer, allocation list or patch-location list of its own: those outputs are NULL / 0
 * whatever the caller left in them. */
/* rule: runtime.d3dkmt-createdevice-wdk-layout-device (mutation-checked) */
static void create_device_answers_no_command_buffer_or_lists(void **state)
{
    (void)state;
    D3DKMT_HANDLE a = open_adapter();
    D3DKMT_CREATEDEVICE cd;
    memset(&cd, 0xcd, sizeof cd);
    cd.hAdapter = a;
    memset(&cd.Flags, 0, sizeof cd.Flags);
    assert_int_equal(D3DKMTCreateDevice(&cd), STATUS_SUCCESS);
    assert_int_not_equal(cd.hDevice, 0);
    assert_null(cd.pCommandBuffer);
    assert_int_equal(cd.CommandBufferSize, 0);
    assert_null(cd.pAllocationList);
    assert_int_equal(cd.AllocationListSize, 0);
    assert_null(cd.pPatchLocationList);
    assert_int_equal(cd.PatchLocationListSize, 0);
    D3DKMT_DESTROYDEVICE dd = { .hDevice = cd.hDevice };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    /* Destroyed: the handle is gone. */
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_INVALID_PARAMETER);
    close_adapter(a);
}

/* ---- D3DKMTQueryAdapterInfo -------------------------------------------------------------- */

/* Wine win32u d3dkmt tests, run on Windows: for KMTQAITYPE_CHECKDRIVERUPDATESTATUS (a BOOL) and
 * KMTQAITYPE_DRIVERVERSION (a D3DKMT_DRIVERVERSION), a NULL buffer or one byte short is
 * STATUS_INVALID_PARAMETER. */
/* rule: kernel.kmtqaitype-checkdriverupdatestatus-bool */
/* rule: kernel.kmtqaitype-sizes-at-least-structure */
static void query_adapter_info_null_or_short_buffer_is_invalid_parameter(void **state)
{
    (void)state;
    D3DKMT_HANDLE a = open_adapter();
    static const struct { KMTQUERYADAPTERINFOTYPE type; UINT size; } types[] = {
        { KMTQAITYPE_CHECKDRIVERUPDATESTATUS, sizeof(BOOL) },
        { KMTQAITYPE_DRIVERVERSION, sizeof(D3DKMT_DRIVERVERSION) },
    };
    unsigned char buf[64];
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        D3DKMT_QUERYADAPTERINFO q = { .hAdapter = a, .Type = types[i].type, .pPrivateDriverData = NULL,
                                      .PrivateDriverDataSize = types[i].size };
        assert_int_equal(D3DKMTQueryAdapterInfo(&q), STATUS_INVALID_PARAMETER);
        q.pPrivateDriverData = buf;
        q.PrivateDriverDataSize = types[i].size - 1;
        assert_int_equal(D3DKMTQueryAdapterInfo(&q), STATUS_INVALID_PARAMETER);
        q.PrivateDriverDataSize = types[i].size;
        assert_int_equal(D3DKMTQueryAdapterInfo(&q), STATUS_SUCCESS);
        q.PrivateDriverDataSize = sizeof buf; /* ours: a larger buffer is taken as well */
        assert_int_equal(D3DKMTQueryAdapterInfo(&q), STATUS_SUCCESS);
    }
    close_adapter(a);
}

/* Wine win32u d3dkmt tests, run on Windows: no driver update is pending: FALSE. */
/* rule: kernel.kmtqaitype-checkdriverupdatestatus-bool */
static void query_adapter_info_driver_update_status_is_false(void **state)
{
    (void)state;
    D3DKMT_HANDLE a = open_adapter();
    BOOL pending = 0x5a5a5a5a;
    D3DKMT_QUERYADAPTERINFO q = { .hAdapter = a, .Type = KMTQAITYPE_CHECKDRIVERUPDATESTATUS,
                                  .pPrivateDriverData = &pending, .PrivateDriverDataSize = sizeof pending };
    assert_int_equal(D3DKMTQueryAdapterInfo(&q), STATUS_SUCCESS);
    assert_int_equal(pending, FALSE);
    close_adapter(a);
}

/* WDK: KMTQAITYPE_DRIVERVERSION, the driver model the display miniport driver supports; Wine
 * win32u d3dkmt tests (run on Windows): at least WDDM 1.3. The KMD says WDDM 1.3 in its caps
 * by default, WDDM 2.0 in the GpuMmu model (configs/gpummu.caps). */
/* rule: kernel.kmtqaitype-checkdriverupdatestatus-bool (both models: 1300 and 2000; mutation-checked) */
static void query_adapter_info_driver_version_is_the_kmds_wddm_version(void **state)
{
    (void)state;
    D3DKMT_HANDLE a = open_adapter();
    DXGK_DRIVERCAPS caps;
    D3DKMT_QUERYADAPTERINFO q = { .hAdapter = a, .Type = KMTQAITYPE_WDDM_DRIVERCAPS, .pPrivateDriverData = &caps,
                                  .PrivateDriverDataSize = sizeof caps };
    assert_int_equal(D3DKMTQueryAdapterInfo(&q), STATUS_SUCCESS);
    D3DKMT_DRIVERVERSION v = 0;
    q = (D3DKMT_QUERYADAPTERINFO){ .hAdapter = a, .Type = KMTQAITYPE_DRIVERVERSION, .pPrivateDriverData = &v,
                                   .PrivateDriverDataSize = sizeof v };
    assert_int_equal(D3DKMTQueryAdapterInfo(&q), STATUS_SUCCESS);
    assert_true(v >= KMT_DRIVERVERSION_WDDM_1_3);
    if (caps.WDDMVersion == DXGKDDI_WDDMv1_3)
        assert_int_equal(v, KMT_DRIVERVERSION_WDDM_1_3);
    else if (caps.WDDMVersion == DXGKDDI_WDDMv2)
        assert_int_equal(v, KMT_DRIVERVERSION_WDDM_2_0);
    else
        fail_msg("unexpected WDDMVersion 0x%x", (unsigned)caps.WDDMVersion);
    close_adapter(a);
}

/* ---- D3DKMTQueryVideoMemoryInfo ---------------------------------------------------------- */

/* Wine win32u d3dkmt tests, run on Windows: both segment groups answer; the budget holds the
 * usage and what may be reserved, and nothing is reserved yet. */
/* rule: vidmm.d3dkmtqueryvideomemoryinfo-both-groups */
static void query_video_memory_info_answers_both_groups(void **state)
{
    (void)state;
    D3DKMT_HANDLE a = open_adapter();
    for (int g = D3DKMT_MEMORY_SEGMENT_GROUP_LOCAL; g <= D3DKMT_MEMORY_SEGMENT_GROUP_NON_LOCAL; g++) {
        D3DKMT_QUERYVIDEOMEMORYINFO q = { .hAdapter = a, .MemorySegmentGroup = (D3DKMT_MEMORY_SEGMENT_GROUP)g };
        assert_int_equal(D3DKMTQueryVideoMemoryInfo(&q), STATUS_SUCCESS);
        assert_true(q.Budget >= q.AvailableForReservation);
        assert_true(q.CurrentUsage <= q.Budget);
        assert_int_equal(q.CurrentReservation, 0);
    }
    close_adapter(a);
}

/* Wine win32u d3dkmt tests, run on Windows: the current process's pseudo handle is this process
 * (success); a handle that is no process is STATUS_INVALID_HANDLE. */
/* rule: vidmm.d3dkmtqueryvideomemoryinfo-both-groups */
static void query_video_memory_info_bogus_process_is_invalid_handle(void **state)
{
    (void)state;
    D3DKMT_HANDLE a = open_adapter();
    D3DKMT_QUERYVIDEOMEMORYINFO q = { .hAdapter = a, .hProcess = NtCurrentProcess() };
    assert_int_equal(D3DKMTQueryVideoMemoryInfo(&q), STATUS_SUCCESS);
    q.hProcess = (HANDLE)(uintptr_t)0xdeadbeef;
    assert_int_equal(D3DKMTQueryVideoMemoryInfo(&q), STATUS_INVALID_HANDLE);
    /* The same rule for D3DKMTChangeVideoMemoryReservation (the same process argument). */
    D3DKMT_CHANGEVIDEOMEMORYRESERVATION r = { .hAdapter = a, .hProcess = (HANDLE)(uintptr_t)0xdeadbeef };
    assert_int_equal(D3DKMTChangeVideoMemoryReservation(&r), STATUS_INVALID_HANDLE);
    close_adapter(a);
}

/* Wine win32u d3dkmt tests, run on Windows: a bad adapter handle, PhysicalAdapterIndex 99 and a
 * segment group past NON_LOCAL are STATUS_INVALID_PARAMETER. */
/* rule: vidmm.d3dkmtqueryvideomemoryinfo-both-groups (mutation-checked) */
static void query_video_memory_info_bad_adapter_index_or_group_is_invalid_parameter(void **state)
{
    (void)state;
    D3DKMT_HANDLE a = open_adapter();
    D3DKMT_QUERYVIDEOMEMORYINFO q = { .hAdapter = 0xdeadbeef };
    assert_int_equal(D3DKMTQueryVideoMemoryInfo(&q), STATUS_INVALID_PARAMETER);
    q = (D3DKMT_QUERYVIDEOMEMORYINFO){ .hAdapter = a, .PhysicalAdapterIndex = 99 };
    assert_int_equal(D3DKMTQueryVideoMemoryInfo(&q), STATUS_INVALID_PARAMETER);
    q = (D3DKMT_QUERYVIDEOMEMORYINFO){ .hAdapter = a,
                                       .MemorySegmentGroup = D3DKMT_MEMORY_SEGMENT_GROUP_NON_LOCAL + 1 };
    assert_int_equal(D3DKMTQueryVideoMemoryInfo(&q), STATUS_INVALID_PARAMETER);
    close_adapter(a);
}

/* ---- Monitored fences (the only synchronization objects the kernel has) ----------------- */

/* Wine win32u d3dkmt tests, run on Windows: D3DKMTCreateSynchronizationObject2 refuses NULL, a
 * zeroed structure, a device with no type and a type with no device (STATUS_INVALID_PARAMETER);
 * a monitored fence gets a handle whatever hSyncObject held; destroying it twice fails the
 * second time with STATUS_INVALID_PARAMETER. */
/* rule: sched.d3dkmtcreatesynchronizationobject2-null */
static void monitored_fence_create_and_destroy_answers(void **state)
{
    (void)state;
    D3DKMT_HANDLE a = open_adapter();
    D3DKMT_CREATEDEVICE cd = { .hAdapter = a };
    assert_int_equal(D3DKMTCreateDevice(&cd), STATUS_SUCCESS);
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 c = { 0 };
    assert_int_equal(D3DKMTCreateSynchronizationObject2(NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&c), STATUS_INVALID_PARAMETER);
    c.hDevice = cd.hDevice;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&c), STATUS_INVALID_PARAMETER);
    c.hDevice = 0;
    c.Info.Type = D3DDDI_MONITORED_FENCE;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&c), STATUS_INVALID_PARAMETER);
    c.hDevice = cd.hDevice;
    c.hSyncObject = 0x1eadbeed;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&c), STATUS_SUCCESS);
    assert_int_not_equal(c.hSyncObject, 0);
    assert_int_not_equal(c.hSyncObject, 0x1eadbeed);
    D3DKMT_DESTROYSYNCHRONIZATIONOBJECT ds = { .hSyncObject = c.hSyncObject };
    assert_int_equal(D3DKMTDestroySynchronizationObject(&ds), STATUS_SUCCESS);
    assert_int_equal(D3DKMTDestroySynchronizationObject(&ds), STATUS_INVALID_PARAMETER);
    D3DKMT_DESTROYDEVICE dd = { .hDevice = cd.hDevice };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    close_adapter(a);
}

int main(void)
{
    unsetenv("WDDM_ADAPTER_COUNT"); /* the one adapter of a process */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(enum_adapters2_null_is_invalid_parameter),
        cmocka_unit_test(enum_adapters2_count_query_answers_the_capacity),
        cmocka_unit_test(enum_adapters2_fills_the_array_with_open_adapters),
        cmocka_unit_test(enum_adapters2_empty_array_is_buffer_too_small),
        cmocka_unit_test(close_adapter_null_or_zero_is_invalid_parameter),
        cmocka_unit_test(create_destroy_device_null_or_zero_is_invalid_parameter),
        cmocka_unit_test(create_device_answers_no_command_buffer_or_lists),
        cmocka_unit_test(query_adapter_info_null_or_short_buffer_is_invalid_parameter),
        cmocka_unit_test(query_adapter_info_driver_update_status_is_false),
        cmocka_unit_test(query_adapter_info_driver_version_is_the_kmds_wddm_version),
        cmocka_unit_test(query_video_memory_info_answers_both_groups),
        cmocka_unit_test(query_video_memory_info_bogus_process_is_invalid_handle),
        cmocka_unit_test(query_video_memory_info_bad_adapter_index_or_group_is_invalid_parameter),
        cmocka_unit_test(monitored_fence_create_and_destroy_answers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
