/* Seed 001 §8 for a resource of several subresources: a Map of subresource N waits until the GPU
 * work writing it has retired (or answers DXGI_ERROR_WAS_STILL_DRAWING under DO_NOT_WAIT), also
 * while another subresource of the same resource is mapped. The copy into N is queued after the
 * first Map, so the first lock's wait cannot have covered it. Every map type a STAGING resource
 * takes, 1-D arrays, 2-D mip chains and 3-D mip chains, the immediate context and a command list
 * executed later; the GPU is paused so the outcome does not depend on timing. The suite runs this
 * program in both driver models (scripts/test.sh). */
/* rule: umd.map-one-subresource-while-another-same */
#include "e2e/e2e.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

enum { W = 64, H = 16, D = 4 };

enum kind { K_1D_ARRAY, K_2D_MIPS, K_3D_MIPS, K_COUNT };
static const char *const kind_name[K_COUNT] = { "1-D array", "2-D mip chain", "3-D mip chain" };

/* Subresource 1 of each kind: array slice 1 (W texels), or mip 1. */
static size_t sub1_row_bytes(enum kind k) { return (k == K_1D_ARRAY ? W : W / 2) * 4u; }
static UINT sub1_rows(enum kind k) { return k == K_1D_ARRAY ? 1 : H / 2; }
static UINT sub1_slices(enum kind k) { return k == K_3D_MIPS ? D / 2 : 1; }

static ID3D11Resource *make(struct e2e *e, enum kind k, D3D11_USAGE usage, UINT cpu)
{
    ID3D11Resource *r = NULL;
    UINT bind = usage == D3D11_USAGE_DEFAULT ? D3D11_BIND_SHADER_RESOURCE : 0;
    HRESULT hr = E_FAIL;
    if (k == K_1D_ARRAY) {
        D3D11_TEXTURE1D_DESC d = { .Width = W, .MipLevels = 1, .ArraySize = 2, .Format = DXGI_FORMAT_R8G8B8A8_UNORM,
                                   .Usage = usage, .BindFlags = bind, .CPUAccessFlags = cpu };
        hr = ID3D11Device_CreateTexture1D(e->dev, &d, NULL, (ID3D11Texture1D **)&r);
    } else if (k == K_2D_MIPS) {
        D3D11_TEXTURE2D_DESC d = { .Width = W, .Height = H, .MipLevels = 2, .ArraySize = 1,
                                   .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = { 1, 0 },
                                   .Usage = usage, .BindFlags = bind, .CPUAccessFlags = cpu };
        hr = ID3D11Device_CreateTexture2D(e->dev, &d, NULL, (ID3D11Texture2D **)&r);
    } else {
        D3D11_TEXTURE3D_DESC d = { .Width = W, .Height = H, .Depth = D, .MipLevels = 2,
                                   .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .Usage = usage, .BindFlags = bind,
                                   .CPUAccessFlags = cpu };
        hr = ID3D11Device_CreateTexture3D(e->dev, &d, NULL, (ID3D11Texture3D **)&r);
    }
    assert_int_equal(hr, S_OK);
    return r;
}

/* Tightly packed bytes of subresource 1, as UpdateSubresource takes them. */
static size_t sub1_bytes(enum kind k) { return sub1_row_bytes(k) * sub1_rows(k) * sub1_slices(k); }

/* Compares subresource 1 of a mapping with packed bytes, through RowPitch and DepthPitch. */
static int sub1_equals(enum kind k, const D3D11_MAPPED_SUBRESOURCE *m, const uint8_t *want)
{
    size_t row = sub1_row_bytes(k);
    for (UINT z = 0; z < sub1_slices(k); z++)
        for (UINT y = 0; y < sub1_rows(k); y++) {
            const uint8_t *got = (const uint8_t *)m->pData + (size_t)z * m->DepthPitch + (size_t)y * m->RowPitch;
            if (memcmp(got, want + ((size_t)z * sub1_rows(k) + y) * row, row))
                return 0;
        }
    return 1;
}

struct setup {
    ID3D11Resource *def, *stg;
    uint8_t *next;   /* what subresource 1 of `def` holds: the copy's result */
};

/* A DEFAULT source whose subresource 1 holds `next`, and a STAGING (READ|WRITE) copy of the
 * same shape whose subresource 1 holds other bytes; both idle. */
static struct setup prepare(struct e2e *e, enum kind k, uint32_t seed)
{
    struct setup s = { .def = make(e, k, D3D11_USAGE_DEFAULT, 0),
                       .stg = make(e, k, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE),
                       .next = malloc(sub1_bytes(k)) };
    assert_non_null(s.next);
    e2e_fill(s.next, sub1_bytes(k), seed);
    ID3D11DeviceContext_UpdateSubresource(e->ctx, s.def, 1, NULL, s.next, (UINT)sub1_row_bytes(k),
                                          (UINT)(sub1_row_bytes(k) * sub1_rows(k)));
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, s.stg, 1, D3D11_MAP_WRITE, 0, &m), S_OK);
    for (UINT z = 0; z < sub1_slices(k); z++)
        for (UINT y = 0; y < sub1_rows(k); y++)
            memset((uint8_t *)m.pData + (size_t)z * m.DepthPitch + (size_t)y * m.RowPitch, 0xEE,
                   sub1_row_bytes(k));
    ID3D11DeviceContext_Unmap(e->ctx, s.stg, 1);
    /* Idle: a blocking map of the DEFAULT source's copy target waits for everything so far. */
    ID3D11DeviceContext_Flush(e->ctx);
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, s.stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    ID3D11DeviceContext_Unmap(e->ctx, s.stg, 0);
    return s;
}

static void release(struct setup *s)
{
    SAFE_RELEASE(s->def);
    SAFE_RELEASE(s->stg);
    free(s->next);
}

struct mapper {
    ID3D11DeviceContext *ctx;
    ID3D11Resource *stg;
    enum kind k;
    const uint8_t *want;
    HRESULT hr;
    int equal;
    atomic_int done;
};

static void *map_sub1_thread(void *arg)
{
    struct mapper *m = arg;
    D3D11_MAPPED_SUBRESOURCE ms;
    m->hr = ID3D11DeviceContext_Map(m->ctx, m->stg, 1, D3D11_MAP_READ, 0, &ms);
    if (SUCCEEDED(m->hr)) {
        m->equal = sub1_equals(m->k, &ms, m->want);
        ID3D11DeviceContext_Unmap(m->ctx, m->stg, 1);
    }
    atomic_store(&m->done, 1);
    return NULL;
}

static void sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* With subresource 0 mapped and a copy into subresource 1 queued on the paused GPU: every
 * DO_NOT_WAIT map type of subresource 1 answers WAS_STILL_DRAWING, a blocking Map(READ) waits
 * until the GPU runs, then sees the copy's bytes. `queue_copy` queues the copy. */
static void check_map_of_sub1_waits(struct e2e *e, enum kind k, struct setup *s,
                                    void (*queue_copy)(struct e2e *, struct setup *, void *), void *arg)
{
    D3D11_MAPPED_SUBRESOURCE m0, m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, s->stg, 0, D3D11_MAP_READ_WRITE, 0, &m0), S_OK);
    wddm_swgpu_set_paused(1);
    queue_copy(e, s, arg);

    static const D3D11_MAP types[] = { D3D11_MAP_READ, D3D11_MAP_WRITE, D3D11_MAP_READ_WRITE };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        memset(&m, 0x5A, sizeof m);
        HRESULT hr = ID3D11DeviceContext_Map(e->ctx, s->stg, 1, types[i], D3D11_MAP_FLAG_DO_NOT_WAIT, &m);
        if (hr != DXGI_ERROR_WAS_STILL_DRAWING)
            fail_msg("%s: Map(subresource 1, type %u, DO_NOT_WAIT) with a copy into it pending answered 0x%08x",
                     kind_name[k], (unsigned)types[i], (unsigned)hr);
        assert_null(m.pData);
    }

    static struct mapper mp;
    memset(&mp, 0, sizeof mp);
    mp.ctx = e->ctx;
    mp.stg = s->stg;
    mp.k = k;
    mp.want = s->next;
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, map_sub1_thread, &mp), 0);
    sleep_ms(100);
    if (atomic_load(&mp.done))
        fail_msg("%s: Map(subresource 1, READ) returned (0x%08x) while the copy into it could not run",
                 kind_name[k], (unsigned)mp.hr);
    wddm_swgpu_set_paused(0);
    pthread_join(t, NULL);
    assert_int_equal(mp.hr, S_OK);
    if (!mp.equal)
        fail_msg("%s: Map(subresource 1, READ) returned stale bytes", kind_name[k]);
    /* Subresource 0's mapping stayed usable throughout. */
    memset(m0.pData, 0x11, 4);
    ID3D11DeviceContext_Unmap(e->ctx, s->stg, 0);
}

static void copy_on_immediate(struct e2e *e, struct setup *s, void *arg)
{
    (void)arg;
    ID3D11DeviceContext_CopySubresourceRegion(e->ctx, s->stg, 1, 0, 0, 0, s->def, 1, NULL);
}

/* rule: umd.map-subresource-n-while-another (1-D array, 2-D mips, 3-D mips; READ/WRITE/READ_WRITE with DO_NOT_WAIT, blocking READ sees the copy) */
static void seed001_s8_map_of_a_subresource_waits_while_another_is_mapped(void **state)
{
    struct e2e *e = *state;
    for (enum kind k = 0; k < K_COUNT; k++) {
        struct setup s = prepare(e, k, 10 + k);
        check_map_of_sub1_waits(e, k, &s, copy_on_immediate, NULL);
        release(&s);
    }
}

static void execute_list(struct e2e *e, struct setup *s, void *arg)
{
    (void)s;
    ID3D11DeviceContext_ExecuteCommandList(e->ctx, (ID3D11CommandList *)arg, FALSE);
}

/* The copy recorded on a deferred context before the first Map, executed after it. */
/* rule: umd.map-subresource-n-while-another */
static void seed001_s8_a_command_list_executed_while_mapped_is_waited_for(void **state)
{
    struct e2e *e = *state;
    for (enum kind k = 0; k < K_COUNT; k++) {
        struct setup s = prepare(e, k, 20 + k);
        ID3D11DeviceContext *dc = NULL;
        ID3D11CommandList *cl = NULL;
        assert_int_equal(ID3D11Device_CreateDeferredContext(e->dev, 0, &dc), S_OK);
        ID3D11DeviceContext_CopySubresourceRegion(dc, s.stg, 1, 0, 0, 0, s.def, 1, NULL);
        assert_int_equal(ID3D11DeviceContext_FinishCommandList(dc, FALSE, &cl), S_OK);
        check_map_of_sub1_waits(e, k, &s, execute_list, cl);
        SAFE_RELEASE(cl);
        SAFE_RELEASE(dc);
        release(&s);
    }
}

/* Once the copy retired, a DO_NOT_WAIT map of subresource 1 succeeds while subresource 0 is still
 * mapped, and NO refusal persists: the nested synchronisation leaves no lock behind (a later
 * Map of subresource 0 after both Unmaps works, and the resource releases cleanly). */
/* rule: umd.map-subresource-n-while-another (mutation-checked: without the sync DO_NOT_WAIT answers S_OK with stale bytes) */
static void seed001_s8_do_not_wait_succeeds_once_the_copy_retired(void **state)
{
    struct e2e *e = *state;
    struct setup s = prepare(e, K_2D_MIPS, 30);
    D3D11_MAPPED_SUBRESOURCE m0, m1;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, s.stg, 0, D3D11_MAP_READ, 0, &m0), S_OK);
    ID3D11DeviceContext_CopySubresourceRegion(e->ctx, s.stg, 1, 0, 0, 0, s.def, 1, NULL);
    ID3D11DeviceContext_Flush(e->ctx);
    HRESULT hr;
    int tries = 0;
    while ((hr = ID3D11DeviceContext_Map(e->ctx, s.stg, 1, D3D11_MAP_READ, D3D11_MAP_FLAG_DO_NOT_WAIT, &m1)) ==
               DXGI_ERROR_WAS_STILL_DRAWING &&
           tries++ < 10000)
        sleep_ms(1);
    assert_int_equal(hr, S_OK);
    assert_true(sub1_equals(K_2D_MIPS, &m1, s.next));
    ID3D11DeviceContext_Unmap(e->ctx, s.stg, 1);
    ID3D11DeviceContext_Unmap(e->ctx, s.stg, 0);
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, s.stg, 1, D3D11_MAP_READ, 0, &m1), S_OK);
    assert_true(sub1_equals(K_2D_MIPS, &m1, s.next));
    ID3D11DeviceContext_Unmap(e->ctx, s.stg, 1);
    release(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(seed001_s8_map_of_a_subresource_waits_while_another_is_mapped, e2e_setup,
                                        e2e_teardown),
        cmocka_unit_test_setup_teardown(seed001_s8_a_command_list_executed_while_mapped_is_waited_for, e2e_setup,
                                        e2e_teardown),
        cmocka_unit_test_setup_teardown(seed001_s8_do_not_wait_succeeds_once_the_copy_retired, e2e_setup,
                                        e2e_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
