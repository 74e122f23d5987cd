/* Seed 001 §6.3: every row of both translation tables (D3D11 map types through the API, and
 * D3D10_DDI_MAP values through the UMD's DDI) observed at the pfnLockCb boundary.
 *
 * The shim UMD (shim_umd.h) records every pfnLockCb the reference UMD makes and its driver
 * handles, so the D3D10 rows can be driven straight through the UMD's
 * D3D11DDI_DEVICEFUNCS. */
/* rule: umd.seed-001-6-3-row-write (both tables) */
/* rule: umd.seed-001-6-3-row-read-2 (both tables) */
/* rule: umd.seed-001-6-3-row-write-2 (both tables) */
/* rule: umd.seed-001-6-3-row-write-3 (both tables) */
/* rule: umd.seed-001-6-3-additional-flags (DO_NOT_WAIT rows of both tables) */
/* rule: build.both-models-pass-same-end-end */
/* rule: build.tests-lock-callbacks-map-rows-use */
#include "e2e/shim_umd.h"

/* D3DDDICB_LOCKFLAGS bits (docs/semantics.md §3.2). */
enum { RO = 0x1, WO = 0x2, DNW = 0x4, IGNORESYNC = 0x8, DISCARD = 0x80, NOEXISTINGREF = 0x100 };

/* WRITE_NO_OVERWRITE: D3DDDICB_LOCKFLAGS has no NoOverwrite bit (docs/semantics.md §3.4); the
 * reference UMD realises the seed's "NoOverwrite = 1" as the documented no-overwrite lock,
 * IgnoreSync + DonotWait (docs/rules.md). */
#define NOOVERWRITE_FLAGS (WO | IGNORESYNC | DNW)

static ID3D11Buffer *make_buffer(struct e2e *e, D3D11_USAGE usage, UINT bind, UINT cpu)
{
    D3D11_BUFFER_DESC bd = {.ByteWidth = usage == D3D11_USAGE_DYNAMIC ? E2E_LOCKED_DYNAMIC_BYTES : 256, .Usage = usage,
                            .BindFlags = bind, .CPUAccessFlags = cpu};
    ID3D11Buffer *b = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &b), S_OK);
    return b;
}

/* Issue 6, both models: on a GpuMmu (WDDM 2.x) adapter the row's mechanism is the 2.x one — the
 * UMD synchronises itself and every map locks with exactly one pfnLock2Cb (flags 0, no
 * D3DDDICB_LOCKFLAGS exist there) and never pfnLockCb; VidMm is never asked to rename
 * (docs/semantics.md §3.3 "WDDM 2.x"). The 1.x rows above are then checked in the 1.x run. */
static int gpummu = -1;

static int check_lock2_row(UINT locks_before, UINT lock2s_before, const char *row)
{
    if (gpummu < 0)
        gpummu = e2e_gpummu();
    if (gpummu != 1)
        return 0;
    if (shim.lock2s != lock2s_before + 1 || shim.locks != locks_before)
        fail_msg("%s (GpuMmu): %u pfnLock2Cb / %u pfnLockCb calls, want 1 / 0", row, shim.lock2s - lock2s_before,
                 shim.locks - locks_before);
    if (shim.last_lock2_flags != 0)
        fail_msg("%s (GpuMmu): D3DDDICB_LOCK2FLAGS 0x%x, want 0", row, shim.last_lock2_flags);
    return 1;
}

static void api_row(struct e2e *e, ID3D11Buffer *b, D3D11_MAP type, UINT map_flags, UINT want, const char *row)
{
    D3D11_MAPPED_SUBRESOURCE m;
    UINT before = shim.locks, before2 = shim.lock2s;
    HRESULT hr = ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)b, 0, type, map_flags, &m);
    if (hr != S_OK)
        fail_msg("%s: Map returned 0x%08x", row, (unsigned)hr);
    if (check_lock2_row(before, before2, row)) {
        ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)b, 0);
        return;
    }
    if (shim.locks != before + 1)
        fail_msg("%s: the UMD did not call pfnLockCb exactly once", row);
    if (shim.last_flags != want)
        fail_msg("%s: D3DDDICB_LOCKFLAGS 0x%x, want 0x%x", row, shim.last_flags, want);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)b, 0);
}

/* rule: umd.cpu-pointers-only-through-pfnlockcb */
/* rule: umd.seed-001-6-3-row-read */
static void seed001_s6_3_d3d11_map_to_lockflags_every_row(void **state)
{
    struct e2e *e = *state;
    ID3D11Buffer *stg = make_buffer(e, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE);
    ID3D11Buffer *dyn = make_buffer(e, D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE);
    api_row(e, stg, D3D11_MAP_READ, 0, RO, "D3D11_MAP_READ");
    api_row(e, stg, D3D11_MAP_WRITE, 0, WO, "D3D11_MAP_WRITE");
    api_row(e, stg, D3D11_MAP_READ_WRITE, 0, 0, "D3D11_MAP_READ_WRITE");
    /* + NoExistingReference: nothing queued names dyn (docs/semantics.md §3.3). */
    api_row(e, dyn, D3D11_MAP_WRITE_DISCARD, 0, WO | DISCARD | NOEXISTINGREF, "D3D11_MAP_WRITE_DISCARD");
    api_row(e, dyn, D3D11_MAP_WRITE_NO_OVERWRITE, 0, NOOVERWRITE_FLAGS, "D3D11_MAP_WRITE_NO_OVERWRITE");
    /* D3D11_MAP_FLAG_DO_NOT_WAIT -> DonotWait = 1, with each map type that accepts it. */
    api_row(e, stg, D3D11_MAP_READ, D3D11_MAP_FLAG_DO_NOT_WAIT, RO | DNW, "READ + DO_NOT_WAIT");
    api_row(e, stg, D3D11_MAP_WRITE, D3D11_MAP_FLAG_DO_NOT_WAIT, WO | DNW, "WRITE + DO_NOT_WAIT");
    api_row(e, stg, D3D11_MAP_READ_WRITE, D3D11_MAP_FLAG_DO_NOT_WAIT, DNW, "READ_WRITE + DO_NOT_WAIT");
    SAFE_RELEASE(stg);
    SAFE_RELEASE(dyn);
}

static void ddi_row(PFND3D10DDI_RESOURCEMAP map, PFND3D10DDI_RESOURCEUNMAP unmap, D3D10DDI_HRESOURCE r,
                    D3D10_DDI_MAP type, UINT flags, UINT want, const char *row)
{
    D3D10DDI_MAPPED_SUBRESOURCE m = {0};
    UINT before = shim.locks, before2 = shim.lock2s;
    map(shim.hdev, r, 0, type, flags, &m);
    if (m.pData && check_lock2_row(before, before2, row)) {
        unmap(shim.hdev, r, 0);
        return;
    }
    if (shim.locks != before + 1 || m.pData == NULL)
        fail_msg("%s: the UMD did not lock through pfnLockCb", row);
    if (shim.last_flags != want)
        fail_msg("%s: D3DDDICB_LOCKFLAGS 0x%x, want 0x%x", row, shim.last_flags, want);
    unmap(shim.hdev, r, 0);
}

/* rule: umd.seed-001-6-3-row-read */
static void seed001_s6_3_d3d10_ddi_map_to_lockflags_every_row(void **state)
{
    struct e2e *e = *state;
    ID3D11Buffer *stg = make_buffer(e, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE);
    D3D10DDI_HRESOURCE hstg = shim.last_resource;
    ID3D11Buffer *dyn = make_buffer(e, D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE);
    D3D10DDI_HRESOURCE hdyn = shim.last_resource;
    const D3D11DDI_DEVICEFUNCS *c = &shim.ctx;
    ddi_row(c->pfnStagingResourceMap, c->pfnStagingResourceUnmap, hstg, D3D10_DDI_MAP_READ, 0, RO, "D3D10_DDI_MAP_READ");
    ddi_row(c->pfnStagingResourceMap, c->pfnStagingResourceUnmap, hstg, D3D10_DDI_MAP_WRITE, 0, WO, "D3D10_DDI_MAP_WRITE");
    ddi_row(c->pfnStagingResourceMap, c->pfnStagingResourceUnmap, hstg, D3D10_DDI_MAP_READWRITE, 0, 0, "D3D10_DDI_MAP_READWRITE");
    ddi_row(c->pfnDynamicIABufferMapDiscard, c->pfnDynamicIABufferUnmap, hdyn, D3D10_DDI_MAP_WRITE_DISCARD, 0,
            WO | DISCARD | NOEXISTINGREF, "D3D10_DDI_MAP_WRITE_DISCARD");
    ddi_row(c->pfnDynamicIABufferMapNoOverwrite, c->pfnDynamicIABufferUnmap, hdyn, D3D10_DDI_MAP_WRITE_NOOVERWRITE, 0,
            NOOVERWRITE_FLAGS, "D3D10_DDI_MAP_WRITE_NOOVERWRITE");
    ddi_row(c->pfnStagingResourceMap, c->pfnStagingResourceUnmap, hstg, D3D10_DDI_MAP_READ, D3D10_DDI_MAP_FLAG_DONOTWAIT,
            RO | DNW, "READ + D3D10_DDI_MAP_FLAG_DONOTWAIT");
    ddi_row(c->pfnStagingResourceMap, c->pfnStagingResourceUnmap, hstg, D3D10_DDI_MAP_WRITE, D3D10_DDI_MAP_FLAG_DONOTWAIT,
            WO | DNW, "WRITE + D3D10_DDI_MAP_FLAG_DONOTWAIT");
    ddi_row(c->pfnStagingResourceMap, c->pfnStagingResourceUnmap, hstg, D3D10_DDI_MAP_READWRITE,
            D3D10_DDI_MAP_FLAG_DONOTWAIT, DNW, "READWRITE + D3D10_DDI_MAP_FLAG_DONOTWAIT");
    SAFE_RELEASE(stg);
    SAFE_RELEASE(dyn);
}

/* Seed 001 §5: a DEFAULT resource is GPU-only; Map fails cleanly and nothing is locked. */
/* rule: runtime.default-immutable-resources-cannot */
/* rule: umd.map-default-resource-fails-cleanly-e (refused by the runtime first) */
static void seed001_s5_default_resource_cannot_be_mapped(void **state)
{
    struct e2e *e = *state;
    ID3D11Buffer *def = make_buffer(e, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0);
    D3D11_MAPPED_SUBRESOURCE m;
    UINT before = shim.locks;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)def, 0, D3D11_MAP_READ, 0, &m), E_INVALIDARG);
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)def, 0, D3D11_MAP_WRITE_DISCARD, 0, &m), E_INVALIDARG);
    assert_int_equal(shim.locks, before);
    SAFE_RELEASE(def);
}

/* Seed 001 §3 flow: CalcPrivateResourceSize, then CreateResource into runtime-allocated memory
 * of that size; DestroyResource on the last Release, with the same handle memory. */
/* rule: runtime.runtime-owns-driver-private-handle (no CreateResource before its CalcPrivateResourceSize; a shim UMD asks for 64 more bytes and writes them all, under ASan; DestroyResource gets the same memory) */
static void seed001_s3_runtime_owns_the_drivers_handle_memory(void **state)
{
    struct e2e *e = *state;
    UINT calcs = shim.calcs, creates = shim.creates, destroys = shim.destroys;
    ID3D11Buffer *b = make_buffer(e, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0);
    void *handle_memory = shim.last_resource.pDrvPrivate;
    D3D11_TEXTURE2D_DESC td = {.Width = 9, .Height = 9, .MipLevels = 0, .ArraySize = 2,
                               .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = {1, 0},
                               .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_SHADER_RESOURCE};
    ID3D11Texture2D *t = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &t), S_OK);
    assert_int_equal(shim.calcs, calcs + 2);
    assert_int_equal(shim.creates, creates + 2);
    assert_false(shim.create_before_calc);
    assert_non_null(handle_memory);
    assert_ptr_not_equal(handle_memory, shim.last_resource.pDrvPrivate); /* one block per resource */
    /* A refused creation reaches neither. */
    td.Usage = D3D11_USAGE_IMMUTABLE; /* without initial data: E_INVALIDARG */
    ID3D11Texture2D *bad = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &bad), E_INVALIDARG);
    assert_int_equal(shim.calcs, calcs + 2);
    ID3D11Buffer_Release(b);
    assert_int_equal(shim.destroys, destroys + 1);
    assert_ptr_equal(shim.destroyed, handle_memory);
    ID3D11Texture2D_Release(t);
    assert_int_equal(shim.destroys, destroys + 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(seed001_s6_3_d3d11_map_to_lockflags_every_row, shim_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(seed001_s6_3_d3d10_ddi_map_to_lockflags_every_row, shim_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(seed001_s5_default_resource_cannot_be_mapped, shim_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(seed001_s3_runtime_owns_the_drivers_handle_memory, shim_setup, e2e_teardown),
    };
    return cmocka_run_group_tests_name("e2e.map_lock_flags", tests, NULL, NULL);
}
