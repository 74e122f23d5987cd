/* Issue 15 §1: the D3D10 API drives the D3D10 DDI. A D3D10CreateDevice device opens the UMD
 * through OpenAdapter10 with the D3D10.0 interface (D3D10CreateDevice1: 10.1), the UMD fills
 * D3D10DDI_DEVICEFUNCS, and ID3D10Buffer::Map reaches the UMD through that table's map slots
 * (seed 001 §1 "In D3D10, Map/Unmap live on the device function table", §5) and locks with
 * the D3DDDICB_LOCKFLAGS of seed 001 §6.3's D3D10 rows - observed at the DDI boundary by the
 * shim UMD (shim_umd.h), in both driver models. */
/* rule: d3d10.runtime-drives-d3d10-device-through-10 (every map reaches `D3D10DDI_DEVICEFUNCS`, counted by the shim) */
/* rule: build.tests-lock-callbacks-map-rows-use */
#include "e2e/shim_umd.h"

#include <d3d10_1.h>

/* D3DDDICB_LOCKFLAGS bits (docs/semantics.md §3.2); NoOverwrite as test_map_lock_flags.c states it. */
enum { RO = 0x1, WO = 0x2, DNW = 0x4, IGNORESYNC = 0x8, DISCARD = 0x80, NOEXISTINGREF = 0x100 };
#define NOOVERWRITE_FLAGS (WO | IGNORESYNC | DNW)

static int setup10(void **state)
{
    memset(&shim, 0, sizeof shim);
    memset(&shim_sub, 0, sizeof shim_sub);
    wddm_set_umd_entry(shim_open_adapter);
    wddm_set_umd_entry10(shim_open_adapter10);
    ID3D10Device *dev = NULL;
    HRESULT hr = D3D10CreateDevice(NULL, D3D10_DRIVER_TYPE_HARDWARE, NULL, 0, D3D10_SDK_VERSION, &dev);
    if (FAILED(hr)) {
        fprintf(stderr, "D3D10CreateDevice failed: 0x%08x\n", (unsigned)hr);
        return -1;
    }
    *state = dev;
    return 0;
}

static int teardown10(void **state)
{
    ID3D10Device *dev = *state;
    assert_int_equal(ID3D10Device_Release(dev), 0);
    wddm_set_umd_entry(NULL);
    wddm_set_umd_entry10(NULL);
    return 0;
}

static ID3D10Buffer *make_buffer10(ID3D10Device *dev, D3D10_USAGE usage, UINT bind, UINT cpu)
{
    D3D10_BUFFER_DESC bd = { .ByteWidth = usage == D3D10_USAGE_DYNAMIC ? E2E_LOCKED_DYNAMIC_BYTES : 256,
                             .Usage = usage, .BindFlags = bind, .CPUAccessFlags = cpu };
    ID3D10Buffer *b = NULL;
    assert_int_equal(ID3D10Device_CreateBuffer(dev, &bd, NULL, &b), S_OK);
    return b;
}

/* The entry point and the DDI version: OpenAdapter10 once with D3D10.0, never OpenAdapter10_2,
 * and CreateDevice with D3D10_0_DDI_INTERFACE_VERSION; D3D10CreateDevice1 asks for 10.1; a
 * D3D11 device of the same process goes through OpenAdapter10_2 with 11.0. */
/* rule: runtime.d3d11-device-drives-umd-through-d3d11 (a D3D11 device asks 11.1) */
/* rule: runtime.d3d10createdevice-opens-umd-through (mutation-checked: opening `OpenAdapter10_2` for D3D10 fails it) */
static void d3d10_devices_open_the_umd_through_openadapter10(void **state)
{
    (void)state;
    assert_int_equal(shim.open10_calls, 1);
    assert_int_equal(shim.open10_interface, D3D10_0_DDI_INTERFACE_VERSION);
    assert_int_equal(shim.open_calls, 0);
    assert_int_equal(shim.device_interface, D3D10_0_DDI_INTERFACE_VERSION);
    assert_non_null(shim.f10.pfnResourceMap); /* the UMD filled the D3D10.0 table */

    ID3D10Device1 *dev1 = NULL;
    assert_int_equal(D3D10CreateDevice1(NULL, D3D10_DRIVER_TYPE_HARDWARE, NULL, 0, D3D10_FEATURE_LEVEL_10_1,
                                        D3D10_1_SDK_VERSION, &dev1), S_OK);
    assert_int_equal(shim.open10_calls, 2);
    assert_int_equal(shim.open10_interface, D3D10_1_DDI_INTERFACE_VERSION);
    assert_int_equal(shim.device_interface, D3D10_1_DDI_INTERFACE_VERSION);
    assert_int_equal(ID3D10Device1_GetFeatureLevel(dev1), D3D10_FEATURE_LEVEL_10_1);
    assert_int_equal(ID3D10Device1_Release(dev1), 0);

    ID3D11Device *dev11 = NULL;
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev11,
                                       NULL, NULL), S_OK);
    assert_int_equal(shim.open_calls, 1);
    assert_int_equal(shim.device_interface, D3D11_1_DDI_INTERFACE_VERSION); /* the newest D3D11 DDI listed */
    assert_int_equal(ID3D11Device_Release(dev11), 0);
}

/* GpuMmu (WDDM 2.x) adapters: the row's lock is one pfnLock2Cb with no flags, never pfnLockCb
 * (test_map_lock_flags.c states the rule); the 1.x rows are checked in the 1.x run. */
static int lock2_row(UINT locks_before, UINT lock2s_before, const char *row)
{
    if (e2e_gpummu() != 1)
        return 0;
    if (shim.lock2s != lock2s_before + 1 || shim.locks != locks_before)
        fail_msg("%s (GpuMmu): %u pfnLock2Cb / %u pfnLockCb calls, want 1 / 0", row, shim.lock2s - lock2s_before,
                 shim.locks - locks_before);
    return 1;
}

static void api_row10(ID3D10Buffer *b, D3D10_MAP type, UINT flags, UINT want, const char *row)
{
    void *p = NULL;
    UINT locks = shim.locks, lock2s = shim.lock2s, maps = shim.maps10;
    HRESULT hr = ID3D10Buffer_Map(b, type, flags, &p);
    if (hr != S_OK || !p)
        fail_msg("%s: ID3D10Buffer::Map returned 0x%08x", row, (unsigned)hr);
    if (shim.maps10 != maps + 1)
        fail_msg("%s: the map did not go through D3D10DDI_DEVICEFUNCS (%u calls)", row, shim.maps10 - maps);
    if (!lock2_row(locks, lock2s, row)) {
        if (shim.locks != locks + 1)
            fail_msg("%s: the UMD did not call pfnLockCb exactly once", row);
        if (shim.last_flags != want)
            fail_msg("%s: D3DDDICB_LOCKFLAGS 0x%x, want 0x%x", row, shim.last_flags, want);
    }
    ID3D10Buffer_Unmap(b);
}

/* Seed 001 §6.3, the D3D10 table, through the D3D10 API: D3D10_MAP_* and
 * D3D10_MAP_FLAG_DO_NOT_WAIT become the D3DDDICB_LOCKFLAGS of each row. */
/* rule: d3d10.id3d10buffer-map-id3d10texture1d-2d-3d */
static void seed001_s6_3_d3d10_api_map_rows(void **state)
{
    ID3D10Device *dev = *state;
    ID3D10Buffer *stg = make_buffer10(dev, D3D10_USAGE_STAGING, 0, D3D10_CPU_ACCESS_READ | D3D10_CPU_ACCESS_WRITE);
    ID3D10Buffer *dyn = make_buffer10(dev, D3D10_USAGE_DYNAMIC, D3D10_BIND_VERTEX_BUFFER, D3D10_CPU_ACCESS_WRITE);
    api_row10(stg, D3D10_MAP_READ, 0, RO, "D3D10_MAP_READ");
    api_row10(stg, D3D10_MAP_WRITE, 0, WO, "D3D10_MAP_WRITE");
    api_row10(stg, D3D10_MAP_READ_WRITE, 0, 0, "D3D10_MAP_READ_WRITE");
    api_row10(dyn, D3D10_MAP_WRITE_DISCARD, 0, WO | DISCARD | NOEXISTINGREF, "D3D10_MAP_WRITE_DISCARD");
    api_row10(dyn, D3D10_MAP_WRITE_NO_OVERWRITE, 0, NOOVERWRITE_FLAGS, "D3D10_MAP_WRITE_NO_OVERWRITE");
    api_row10(stg, D3D10_MAP_READ, D3D10_MAP_FLAG_DO_NOT_WAIT, RO | DNW, "READ + DO_NOT_WAIT");
    api_row10(stg, D3D10_MAP_WRITE, D3D10_MAP_FLAG_DO_NOT_WAIT, WO | DNW, "WRITE + DO_NOT_WAIT");
    ID3D10Buffer_Release(stg);
    ID3D10Buffer_Release(dyn);
}

/* Seed 001 §5: a DEFAULT resource is GPU-only - Map fails, nothing reaches the UMD's table,
 * nothing is locked - and the out pointer is NULL. */
/* rule: d3d10.id3d10buffer-map-id3d10texture1d-2d-3d */
static void seed001_s5_d3d10_default_buffer_is_not_mapped(void **state)
{
    ID3D10Device *dev = *state;
    ID3D10Buffer *def = make_buffer10(dev, D3D10_USAGE_DEFAULT, D3D10_BIND_VERTEX_BUFFER, 0);
    UINT locks = shim.locks, lock2s = shim.lock2s, maps = shim.maps10;
    void *p = (void *)(uintptr_t)0x1;
    assert_int_equal(ID3D10Buffer_Map(def, D3D10_MAP_READ, 0, &p), E_INVALIDARG);
    assert_null(p);
    assert_int_equal(shim.maps10, maps);
    assert_int_equal(shim.locks, locks);
    assert_int_equal(shim.lock2s, lock2s);
    ID3D10Buffer_Release(def);
}

/* The staging readback of seed 001 §8 through the D3D10 API: a DEFAULT buffer with initial
 * data, CopyResource to STAGING, Map(READ) waits for the copy and sees every byte. */
/* rule: d3d10.id3d10buffer-map-id3d10texture1d-2d-3d */
static void seed001_s8_d3d10_staging_readback(void **state)
{
    ID3D10Device *dev = *state;
    enum { N = 1 << 20 };
    unsigned char *src = malloc(N);
    assert_non_null(src);
    e2e_fill(src, N, 15);
    D3D10_BUFFER_DESC bd = { N, D3D10_USAGE_DEFAULT, D3D10_BIND_VERTEX_BUFFER, 0, 0 };
    D3D10_SUBRESOURCE_DATA init = { src, 0, 0 };
    ID3D10Buffer *def = NULL, *stg = NULL;
    assert_int_equal(ID3D10Device_CreateBuffer(dev, &bd, &init, &def), S_OK);
    bd = (D3D10_BUFFER_DESC){ N, D3D10_USAGE_STAGING, 0, D3D10_CPU_ACCESS_READ, 0 };
    assert_int_equal(ID3D10Device_CreateBuffer(dev, &bd, NULL, &stg), S_OK);
    ID3D10Device_CopyResource(dev, (ID3D10Resource *)stg, (ID3D10Resource *)def);
    void *p = NULL;
    assert_int_equal(ID3D10Buffer_Map(stg, D3D10_MAP_READ, 0, &p), S_OK);
    assert_memory_equal(p, src, N);
    ID3D10Buffer_Unmap(stg);
    ID3D10Buffer_Release(def);
    ID3D10Buffer_Release(stg);
    free(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(d3d10_devices_open_the_umd_through_openadapter10, setup10, teardown10),
        cmocka_unit_test_setup_teardown(seed001_s6_3_d3d10_api_map_rows, setup10, teardown10),
        cmocka_unit_test_setup_teardown(seed001_s5_d3d10_default_buffer_is_not_mapped, setup10, teardown10),
        cmocka_unit_test_setup_teardown(seed001_s8_d3d10_staging_readback, setup10, teardown10),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
