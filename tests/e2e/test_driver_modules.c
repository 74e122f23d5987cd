/* Drivers loaded by path (issue 19 §1, docs/drivers.md): WDDM_KMD names each adapter's KMD
 * module (DriverEntry), WDDM_UMD its UMD module (OpenAdapter10_2 / OpenAdapter10), which the
 * kernel answers to KMTQAITYPE_UMDRIVERNAME and the runtime loads, as Windows' runtime loads
 * the UserModeDriverName its adapter names (Microsoft's KMTQUERYADAPTERINFOTYPE and
 * D3DKMT_UMDFILENAMEINFO reference pages). The modules here are the reference drivers built
 * as swkmd.so / swumd.so (CMakeLists.txt). */
/* rule: build.reference-drivers-build-modules-export */
#include "e2e.h"

#include <limits.h>
#include <stdbool.h>

#include <d3d10_1.h>
#include <wddm/wddm.h>

#include "common/wide.h"

static const char *const umd_path = WDDM_SWUMD_PATH;
static const char *const kmd_path = WDDM_SWKMD_PATH;

static void drivers(const char *kmd, const char *umd)
{
    if (kmd)
        setenv("WDDM_KMD", kmd, 1);
    else
        unsetenv("WDDM_KMD");
    if (umd)
        setenv("WDDM_UMD", umd, 1);
    else
        unsetenv("WDDM_UMD");
}

static int reset(void **state)
{
    drivers(NULL, NULL);
    unsetenv("WDDM_ADAPTER_COUNT");
    wddm_set_kmd_entry(NULL);
    return 0;
}

/* Whether the process has a file mapped whose path is `path` (the module really loaded). */
static bool mapped(const char *path)
{
    char real[4096];
    assert_non_null(realpath(path, real));
    FILE *f = fopen("/proc/self/maps", "r");
    assert_non_null(f);
    char line[8192];
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        const char *p = strchr(line, '/');
        found = p && strcmp(p, real) == 0;
    }
    fclose(f);
    return found;
}

/* A GPU copy through the whole stack, read back and checked byte for byte. */
static void copy_and_read_back(ID3D11Device *dev, ID3D11DeviceContext *ctx, uint32_t seed)
{
    enum { SIZE = 64 << 10 };
    uint8_t *data = malloc(SIZE);
    e2e_fill(data, SIZE, seed);
    D3D11_BUFFER_DESC d = { .ByteWidth = SIZE, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_SHADER_RESOURCE };
    D3D11_SUBRESOURCE_DATA init = { .pSysMem = data };
    ID3D11Buffer *src = NULL, *dst = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(dev, &d, &init, &src), S_OK);
    d.Usage = D3D11_USAGE_STAGING;
    d.BindFlags = 0;
    d.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    assert_int_equal(ID3D11Device_CreateBuffer(dev, &d, NULL, &dst), S_OK);
    ID3D11DeviceContext_CopyResource(ctx, (ID3D11Resource *)dst, (ID3D11Resource *)src);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)dst, 0, D3D11_MAP_READ, 0, &m), S_OK);
    assert_memory_equal(m.pData, data, SIZE);
    ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)dst, 0);
    SAFE_RELEASE(src);
    SAFE_RELEASE(dst);
    free(data);
}

static NTSTATUS umd_name_of(D3DKMT_HANDLE adapter, KMTUMDVERSION version, char **name)
{
    D3DKMT_UMDFILENAMEINFO info;
    memset(&info, 0xAB, sizeof info);
    info.Version = version;
    D3DKMT_QUERYADAPTERINFO q = { .hAdapter = adapter, .Type = KMTQAITYPE_UMDRIVERNAME,
                                  .pPrivateDriverData = &info, .PrivateDriverDataSize = sizeof info };
    NTSTATUS st = D3DKMTQueryAdapterInfo(&q);
    *name = NT_SUCCESS(st) ? wddm_utf16_to_utf8(info.UmdFileName, MAX_PATH) : NULL;
    return st;
}

/* The kernel's name for the adapter's KMD (KMTQAITYPE_WDDM_KMDNAME), "" for the built-in one. */
static void assert_kmd_name(D3DKMT_HANDLE adapter, const char *expected)
{
    D3DKMT_WDDM_KMDNAME kmd;
    D3DKMT_QUERYADAPTERINFO q = { .hAdapter = adapter, .Type = KMTQAITYPE_WDDM_KMDNAME,
                                  .pPrivateDriverData = &kmd, .PrivateDriverDataSize = sizeof kmd };
    assert_int_equal(D3DKMTQueryAdapterInfo(&q), STATUS_SUCCESS);
    assert_string_equal(kmd.KmdName, expected);
}

static UINT enum_adapters(D3DKMT_ADAPTERINFO *ai, UINT cap, NTSTATUS *st)
{
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = cap, .pAdapters = ai };
    *st = D3DKMTEnumAdapters2(&en);
    return NT_SUCCESS(*st) ? en.NumAdapters : 0;
}

static void close_adapters(D3DKMT_ADAPTERINFO *ai, UINT n)
{
    for (UINT i = 0; i < n; i++) {
        D3DKMT_CLOSEADAPTER c = { .hAdapter = ai[i].hAdapter };
        assert_int_equal(D3DKMTCloseAdapter(&c), STATUS_SUCCESS);
    }
}

/* The D3D11 runtime opens the adapter's UMD module and the kernel started its KMD module: both
 * are mapped, and the whole stack runs through them. */
/* rule: kernel.wddm-kmd-names-each-adapter-kmd */
/* rule: runtime.runtime-opens-umd-adapter-names (mutation-checked: ignoring the name fails it) */
/* rule: wdk.kmd-module-calls-dxgkinitialize */
static void d3d11_runs_through_both_modules(void **state)
{
    drivers(kmd_path, umd_path);
    ID3D11Device *dev = NULL;
    ID3D11DeviceContext *ctx = NULL;
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev,
                                       NULL, &ctx),
                     S_OK);
    assert_true(mapped(kmd_path));
    assert_true(mapped(umd_path));
    copy_and_read_back(dev, ctx, 19);
    SAFE_RELEASE(ctx);
    SAFE_RELEASE(dev);
}

/* D3D10CreateDevice1 opens the same module through its other export, OpenAdapter10. */
/* rule: runtime.runtime-opens-umd-adapter-names */
static void d3d10_opens_the_module_s_open_adapter10(void **state)
{
    drivers(kmd_path, umd_path);
    ID3D10Device1 *dev = NULL;
    assert_int_equal(D3D10CreateDevice1(NULL, D3D10_DRIVER_TYPE_HARDWARE, NULL, 0, D3D10_FEATURE_LEVEL_10_1,
                                        D3D10_1_SDK_VERSION, &dev),
                     S_OK);
    assert_true(mapped(umd_path));
    enum { SIZE = 4096 };
    uint8_t data[SIZE];
    e2e_fill(data, SIZE, 10);
    D3D10_BUFFER_DESC d = { .ByteWidth = SIZE, .Usage = D3D10_USAGE_DEFAULT, .BindFlags = D3D10_BIND_SHADER_RESOURCE };
    D3D10_SUBRESOURCE_DATA init = { .pSysMem = data };
    ID3D10Buffer *src = NULL, *dst = NULL;
    assert_int_equal(ID3D10Device1_CreateBuffer(dev, &d, &init, &src), S_OK);
    d.Usage = D3D10_USAGE_STAGING;
    d.BindFlags = 0;
    d.CPUAccessFlags = D3D10_CPU_ACCESS_READ;
    assert_int_equal(ID3D10Device1_CreateBuffer(dev, &d, NULL, &dst), S_OK);
    ID3D10Device1_CopyResource(dev, (ID3D10Resource *)dst, (ID3D10Resource *)src);
    void *p = NULL;
    assert_int_equal(ID3D10Buffer_Map(dst, D3D10_MAP_READ, 0, &p), S_OK);
    assert_memory_equal(p, data, SIZE);
    ID3D10Buffer_Unmap(dst);
    SAFE_RELEASE(src);
    SAFE_RELEASE(dst);
    SAFE_RELEASE(dev);
}

/* Each adapter takes its own list entry; an empty entry is the built-in driver, and the kernel
 * answers KMTQAITYPE_UMDRIVERNAME with the adapter's module (the empty name: built-in). */
/* rule: kernel.wddm-kmd-names-each-adapter-kmd (mutation-checked: every adapter taking entry 0 fails it) */
/* rule: kernel.kernel-answers-kmtqaitype-umdrivername */
/* rule: kernel.kernel-answers-kmtqaitype-wddm-kmdname */
static void each_adapter_takes_its_own_entry(void **state)
{
    char kmds[8192], umds[8192];
    snprintf(kmds, sizeof kmds, ":%s", kmd_path);
    snprintf(umds, sizeof umds, "%s:", umd_path);
    drivers(kmds, umds);
    D3DKMT_ADAPTERINFO ai[4];
    NTSTATUS st;
    UINT n = enum_adapters(ai, 4, &st);
    assert_int_equal(st, STATUS_SUCCESS);
    assert_int_equal(n, 2); /* one adapter per entry without WDDM_ADAPTER_COUNT */
    char *name = NULL;
    assert_int_equal(umd_name_of(ai[0].hAdapter, KMTUMDVERSION_DX11, &name), STATUS_SUCCESS);
    assert_string_equal(name, umd_path);
    free(name);
    assert_int_equal(umd_name_of(ai[0].hAdapter, KMTUMDVERSION_DX10, &name), STATUS_SUCCESS);
    assert_string_equal(name, umd_path);
    free(name);
    assert_int_equal(umd_name_of(ai[1].hAdapter, KMTUMDVERSION_DX11, &name), STATUS_SUCCESS);
    assert_string_equal(name, "");
    free(name);
    assert_true(mapped(kmd_path)); /* adapter 1's KMD */
    assert_kmd_name(ai[0].hAdapter, "");
    assert_kmd_name(ai[1].hAdapter, kmd_path);
    close_adapters(ai, n);
}

/* The query's own rules: one module serves the D3D10 and D3D11 runtimes; there is no D3D9 or
 * D3D12 UMD here, a version past the enumeration is invalid, and the structure must fit. */
/* rule: kernel.kernel-answers-kmtqaitype-umdrivername */
static void umd_name_query_rules(void **state)
{
    drivers(NULL, NULL);
    D3DKMT_ADAPTERINFO ai[1];
    NTSTATUS st;
    UINT n = enum_adapters(ai, 1, &st);
    assert_int_equal(n, 1);
    char *name = NULL;
    assert_int_equal(umd_name_of(ai[0].hAdapter, KMTUMDVERSION_DX11, &name), STATUS_SUCCESS);
    assert_string_equal(name, ""); /* the built-in reference UMD */
    free(name);
    assert_int_equal(umd_name_of(ai[0].hAdapter, KMTUMDVERSION_DX9, &name), STATUS_NOT_SUPPORTED);
    assert_int_equal(umd_name_of(ai[0].hAdapter, KMTUMDVERSION_DX12, &name), STATUS_NOT_SUPPORTED);
    assert_int_equal(umd_name_of(ai[0].hAdapter, NUM_KMTUMDVERSIONS, &name), STATUS_INVALID_PARAMETER);
    D3DKMT_UMDFILENAMEINFO info = { .Version = KMTUMDVERSION_DX11 };
    D3DKMT_QUERYADAPTERINFO q = { .hAdapter = ai[0].hAdapter, .Type = KMTQAITYPE_UMDRIVERNAME,
                                  .pPrivateDriverData = &info, .PrivateDriverDataSize = sizeof info - 1 };
    assert_int_equal(D3DKMTQueryAdapterInfo(&q), STATUS_INVALID_PARAMETER);
    close_adapters(ai, n);
}

/* A module that cannot be loaded, or lacks the entry point, is refused with the Windows loader's
 * codes; nothing starts, and the next enumeration with a good configuration works. */
/* rule: kernel.kmd-module-cannot-loaded-status-dll */
static void a_bad_kmd_module_is_refused_by_name(void **state)
{
    D3DKMT_ADAPTERINFO ai[4];
    NTSTATUS st;
    drivers("/nonexistent/kmd.so", NULL);
    assert_int_equal(enum_adapters(ai, 4, &st), 0);
    assert_int_equal(st, STATUS_DLL_NOT_FOUND);
    drivers(umd_path, NULL); /* a module, but not a KMD: no DriverEntry */
    assert_int_equal(enum_adapters(ai, 4, &st), 0);
    assert_int_equal(st, STATUS_ENTRYPOINT_NOT_FOUND);
    /* All or none: a good first adapter does not start alone beside a bad second one. */
    char kmds[8192];
    snprintf(kmds, sizeof kmds, "%s:/nonexistent/kmd.so", kmd_path);
    drivers(kmds, NULL);
    assert_int_equal(enum_adapters(ai, 4, &st), 0);
    assert_int_equal(st, STATUS_DLL_NOT_FOUND);
    drivers(kmd_path, NULL);
    UINT n = enum_adapters(ai, 4, &st);
    assert_int_equal(n, 1);
    close_adapters(ai, n);
}

/* The UMD is the runtime's to load: a bad one fails the device creation (E_FAIL), and a name too
 * long for D3DKMT_UMDFILENAMEINFO keeps the adapter from starting. */
/* rule: kernel.kernel-answers-kmtqaitype-umdrivername */
/* rule: kernel.kmd-module-cannot-loaded-status-dll */
static void a_bad_umd_module_fails_the_device(void **state)
{
    ID3D11Device *dev = NULL;
    drivers(NULL, "/nonexistent/umd.so");
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev,
                                       NULL, NULL),
                     E_FAIL);
    assert_null(dev);
    drivers(NULL, kmd_path); /* a module without OpenAdapter10_2 */
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev,
                                       NULL, NULL),
                     E_FAIL);
    char longname[MAX_PATH + 16];
    memset(longname, 'x', sizeof longname - 1);
    longname[0] = '/';
    longname[sizeof longname - 1] = 0;
    drivers(NULL, longname);
    D3DKMT_ADAPTERINFO ai[1];
    NTSTATUS st;
    assert_int_equal(enum_adapters(ai, 1, &st), 0);
    assert_int_equal(st, STATUS_NAME_TOO_LONG);
    drivers(NULL, NULL);
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev,
                                       NULL, NULL),
                     S_OK);
    SAFE_RELEASE(dev);
}

/* An entry installed in the process (wddm_set_kmd_entry) comes before the variable, as a driver
 * linked into the test program must win over the environment it runs in. */
/* rule: runtime.runtime-opens-umd-adapter-names */
/* rule: kernel.kernel-answers-kmtqaitype-wddm-kmdname (mutation-checked: answering "" always fails them) */
static void the_in_process_entry_comes_first(void **state)
{
    drivers("/nonexistent/kmd.so", NULL);
    wddm_set_kmd_entry(SwKmdDriverEntry);
    D3DKMT_ADAPTERINFO ai[1];
    NTSTATUS st;
    UINT n = enum_adapters(ai, 1, &st);
    assert_int_equal(st, STATUS_SUCCESS);
    assert_kmd_name(ai[0].hAdapter, ""); /* the built-in entry, not the variable's module */
    close_adapters(ai, n);
}

int main(void)
{
    unsetenv("WDDM_ADAPTER_COUNT");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(d3d11_runs_through_both_modules, reset),
        cmocka_unit_test_teardown(d3d10_opens_the_module_s_open_adapter10, reset),
        cmocka_unit_test_teardown(each_adapter_takes_its_own_entry, reset),
        cmocka_unit_test_teardown(umd_name_query_rules, reset),
        cmocka_unit_test_teardown(a_bad_kmd_module_is_refused_by_name, reset),
        cmocka_unit_test_teardown(a_bad_umd_module_fails_the_device, reset),
        cmocka_unit_test_teardown(the_in_process_entry_comes_first, reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
